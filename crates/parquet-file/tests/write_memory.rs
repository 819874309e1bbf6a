//! The writer holds about two row groups of encoded pages (the one being written, and the
//! buffers of the one before, recycled), never the input: a 10-million-row write measured
//! by parquet-thrift's counting allocator.
//!
//! The allocator is the one `unsafe` item of this crate's tests: it forwards every call
//! to the system allocator unchanged.
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss
)]

#[path = "../../parquet-thrift/tests/counting/mod.rs"]
mod counting;

use std::io::Write;
use std::time::Instant;

use parquet_file::{
    ByteArrayBatch, ColumnBatch, ColumnValues, FileWriter, LogicalType, PhysicalType, Schema,
    SchemaField, WriterOptions,
};

/// A sink that counts the bytes it is given and keeps none.
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const ROWS: usize = 10_000_000;
const BATCH: usize = 1 << 16;

#[test]
fn ten_million_rows_take_about_one_row_group_of_memory() {
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::required("id", PhysicalType::Int64),
            SchemaField::optional("value", PhysicalType::Double),
            SchemaField::optional("name", PhysicalType::ByteArray)
                .with_logical_type(LogicalType::String),
        ],
    )
    .unwrap();
    let started = Instant::now();
    let mut written = 0;
    let mut row_group = 0;
    let held = counting::peak_allocation(|| {
        let mut writer = FileWriter::new(Counter(0), schema.clone(), WriterOptions::new()).unwrap();
        let mut start = 0;
        while start < ROWS {
            let n = BATCH.min(ROWS - start);
            let ids = (start..start + n).map(|i| i as i64).collect();
            let def: Vec<u16> = (start..start + n).map(|i| u16::from(i % 10 != 0)).collect();
            let present = def.iter().filter(|&&d| d == 1).count();
            let values = (0..present).map(|i| (start + i) as f64 * 0.25).collect();
            let mut names = ByteArrayBatch::new();
            for i in 0..present {
                names
                    .push(format!("name-{}", (start + i) % 5000).as_bytes())
                    .unwrap();
            }
            let columns = schema.columns();
            let batches = [
                ColumnBatch::try_new(&columns[0], ColumnValues::Int64(ids), vec![], vec![])
                    .unwrap(),
                ColumnBatch::try_new(
                    &columns[1],
                    ColumnValues::Double(values),
                    def.clone(),
                    vec![],
                )
                .unwrap(),
                ColumnBatch::try_new(&columns[2], ColumnValues::ByteArray(names), def, vec![])
                    .unwrap(),
            ];
            writer.write_batches(&batches).unwrap();
            start += n;
        }
        let metadata = writer.finish().unwrap();
        assert_eq!(metadata.num_rows(), ROWS as u64);
        assert_eq!(metadata.row_groups().len(), 10);
        row_group = metadata
            .row_groups()
            .iter()
            .filter_map(parquet_file::RowGroupMetaData::total_compressed_size)
            .max()
            .unwrap() as usize;
        written = writer.into_inner().0;
    });
    eprintln!(
        "wrote {written} bytes in {:.1} s, held at most {held} bytes; largest row group \
         {row_group} bytes",
        started.elapsed().as_secs_f64()
    );
    // One row group of pages; the buffers of the row group before, recycled for its
    // pages (fresh memory for each would be faulted in again); while a dictionary fills,
    // its entries and hash table (1 MiB and 4 MiB for each INT64 and DOUBLE column here,
    // freed when it passes its limit); per column the page being filled and its encoding
    // and compression buffers (about 1 MiB each); the input batch. Measured: 33 MB for
    // row groups of 9.9 MB, in a file of 92 MB.
    let dictionaries = 2 * (5 << 20);
    let bound = 2 * row_group + dictionaries + 3 * (3 << 20) + (4 << 20);
    assert!(held < bound, "held {held} bytes, more than {bound}");
    assert!(written > 2 * held as u64, "held {held} of {written} bytes");
}
