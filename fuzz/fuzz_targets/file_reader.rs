//! Arbitrary bytes read as a whole Parquet file: the footer, every column chunk page by
//! page, every Bloom filter and page index, every row, and the rows of every other run
//! of 8 through the offset index. Any outcome but a panic (or an allocation past the
//! fuzzer's limit) is fine; the rows read must agree with the row groups' counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use parquet_file::{Bytes, ColumnBatch, FileReader, Projection, RowSelection};

fuzz_target!(|data: &[u8]| {
    let Ok(reader) = FileReader::open(Bytes::copy_from_slice(data)) else {
        return;
    };
    let schema = reader.schema();
    for g in 0..reader.num_row_groups() {
        for c in 0..schema.columns().len() {
            let _ = reader.bloom_filter(g, c);
            let _ = reader.offset_index(g, c);
            let _ = reader.column_index(g, c);
            let (Ok(mut chunk), Ok(mut batch)) = (
                reader.column_chunk(g, c),
                ColumnBatch::new(schema.column(c)),
            ) else {
                continue;
            };
            while let Ok(Some(_)) = chunk.read_page(&mut batch) {
                batch.clear();
            }
        }
    }
    let mut projection = Projection::all();
    for g in 0..reader.num_row_groups() {
        let rows = u64::try_from(reader.metadata().row_groups()[g].num_rows).unwrap_or(0);
        let runs = (0..rows.min(1 << 20)).step_by(16).map(|s| s..s + 8);
        projection = projection.select_rows(g, RowSelection::from_ranges(runs));
    }
    if let Ok(rows) = reader.rows_with(projection) {
        rows.take_while(Result::is_ok).for_each(drop);
    }
    let Ok(rows) = reader.rows() else { return };
    let mut count = 0_i64;
    for row in rows {
        if row.is_err() {
            return;
        }
        count += 1;
    }
    let expected: i64 = reader
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows)
        .sum();
    assert_eq!(count, expected.max(0));
});
