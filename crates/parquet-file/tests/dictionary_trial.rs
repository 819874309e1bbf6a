//! The dictionary's trial on a chunk's first page (`WriterOptions::with_dictionary_trial`):
//! a dictionary as large as the values it replaces, whose values keep being new, is
//! dropped for PLAIN; one whose values repeat is kept; the files read back as written.

#![allow(clippy::unwrap_used, clippy::cast_possible_wrap)] // Small generated values.

use bytes::Bytes;
use parquet_file::{
    ByteArrayBatch, ColumnBatch, ColumnValues, Encoding, FileReader, FileWriter, PhysicalType,
    Schema, SchemaField, WriterOptions,
};

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 11
    }
}

fn schema() -> Schema {
    Schema::try_new(
        "schema",
        [
            SchemaField::required("id", PhysicalType::Int64),
            SchemaField::required("repeats", PhysicalType::Int64),
            SchemaField::required("later", PhysicalType::Int64),
            SchemaField::optional("name", PhysicalType::ByteArray),
        ],
    )
    .unwrap()
}

/// 30,000 rows: distinct values; values of 3,000 distinct ones; values new through most
/// of the trial's 8,192 (their dictionary and indices larger than PLAIN there), but fewer
/// than nine in ten new in its second half, as they repeat from the 7,000th on; distinct
/// names, a tenth null.
fn batches(schema: &Schema) -> Vec<ColumnBatch> {
    let rows = 30_000u64;
    let mut rng = Rng(7);
    let ids = (0..rows).map(|_| rng.next() as i64).collect();
    let repeats = (0..rows)
        .map(|_| (rng.next() % 3000) as i64 * 1_000_003)
        .collect();
    let later = (0..rows).map(|i| (i % 7_000) as i64).collect();
    let mut names = ByteArrayBatch::new();
    let mut def = Vec::new();
    for i in 0..rows {
        if i % 10 == 3 {
            def.push(0);
        } else {
            def.push(1);
            names
                .push(format!("name {}", rng.next()).as_bytes())
                .unwrap();
        }
    }
    let column = |i: usize, values, def| {
        ColumnBatch::try_new(&schema.columns()[i], values, def, vec![]).unwrap()
    };
    vec![
        column(0, ColumnValues::Int64(ids), vec![]),
        column(1, ColumnValues::Int64(repeats), vec![]),
        column(2, ColumnValues::Int64(later), vec![]),
        column(3, ColumnValues::ByteArray(names), def),
    ]
}

/// The file of `batches` with `options`, checked by the reader's verification.
fn written(schema: &Schema, batches: &[ColumnBatch], options: WriterOptions) -> FileReader<Bytes> {
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    writer.write_batches(batches).unwrap();
    writer.finish().unwrap();
    let reader = FileReader::open(Bytes::from(writer.into_inner())).unwrap();
    assert!(reader.verify().unwrap().is_ok());
    reader
}

/// The data pages (v1) of `encoding` the encoding statistics count.
fn data_pages(stats: &[parquet_file::PageEncodingStats], encoding: Encoding) -> i32 {
    stats
        .iter()
        .filter(|s| s.page_type == 0 && s.encoding == encoding)
        .map(|s| s.count)
        .sum()
}

/// Whether column `c` of the file has a dictionary: asserted to be used by all of its
/// data pages, or by none.
fn has_dictionary(reader: &FileReader<Bytes>, c: usize) -> bool {
    let chunk = reader.metadata().row_groups()[0].columns()[c]
        .metadata()
        .unwrap();
    let stats = chunk.encoding_stats().unwrap();
    let dictionary = chunk.has_dictionary_page();
    assert_eq!(
        data_pages(stats, Encoding::RleDictionary) > 0,
        dictionary,
        "{c}: {stats:?}"
    );
    assert_eq!(
        data_pages(stats, Encoding::Plain) > 0,
        !dictionary,
        "{c}: {stats:?}"
    );
    dictionary
}

/// Every column of the file, read whole.
fn read_back(reader: &FileReader<Bytes>, schema: &Schema) -> Vec<ColumnBatch> {
    (0..schema.columns().len())
        .map(|c| {
            let mut batch = ColumnBatch::new(schema.column(c).unwrap());
            let mut chunk = reader.column_chunk(0, c).unwrap();
            while chunk.read_records(1 << 20, &mut batch).unwrap() > 0 {}
            batch
        })
        .collect()
}

#[test]
fn a_dictionary_that_does_not_pay_on_the_first_page_is_dropped() {
    let schema = schema();
    let batches = batches(&schema);
    let reader = written(&schema, &batches, WriterOptions::new());
    let kept: Vec<bool> = (0..4).map(|c| has_dictionary(&reader, c)).collect();
    assert_eq!(kept, [false, true, true, false]);
    assert_eq!(read_back(&reader, &schema), batches);
}

#[test]
fn without_the_trial_every_dictionary_is_kept() {
    let schema = schema();
    let batches = batches(&schema);
    let options = WriterOptions::new().with_dictionary_trial(false);
    let reader = written(&schema, &batches, options);
    let kept: Vec<bool> = (0..4).map(|c| has_dictionary(&reader, c)).collect();
    assert_eq!(kept, [true, true, true, true]);
    assert_eq!(read_back(&reader, &schema), batches);
}
