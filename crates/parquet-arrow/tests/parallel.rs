//! The parallel reader gives the serial reader's batches, in the same order.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use arrow_array::types::Int64Type;
use arrow_array::{ArrayRef, Int64Array, ListArray, RecordBatch, StringArray};
use parquet_arrow::{ArrowWriter, ParquetRecordBatchReaderBuilder, ProjectionMask};
use parquet_file::{Bytes, Op, Predicate, WriterOptions};

fn file() -> Bytes {
    file_of(3_000)
}

/// The file of [`file`] in row groups of `row_group_rows`.
fn file_of(row_group_rows: usize) -> Bytes {
    let n = 50_000;
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..n));
    let names: ArrayRef = Arc::new(
        (0..n)
            .map(|i| (i % 5 != 0).then(|| format!("n{}", i % 977)))
            .collect::<StringArray>(),
    );
    let lists: ArrayRef = Arc::new(ListArray::from_iter_primitive::<Int64Type, _, _>(
        (0..n)
            .map(|i| (i % 3 != 0).then(|| (0..i % 4).map(move |j| (j % 2 == 0).then_some(i * j)))),
    ));
    let batch =
        RecordBatch::try_from_iter([("id", ids), ("name", names), ("list", lists)]).unwrap();
    let options = WriterOptions::new()
        .with_row_group_rows(row_group_rows)
        .with_page_rows(500);
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(options)).unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
    Bytes::from(writer.into_inner())
}

fn read(
    file: &Bytes,
    parallel: usize,
    setup: impl Fn(ParquetRecordBatchReaderBuilder<Bytes>) -> ParquetRecordBatchReaderBuilder<Bytes>,
) -> Vec<RecordBatch> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(1_000)
        .with_parallelism(parallel);
    setup(builder)
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn same_batches_in_the_same_order() {
    let file = file();
    let serial = read(&file, 1, |b| b);
    assert_eq!(
        serial.iter().map(RecordBatch::num_rows).sum::<usize>(),
        50_000
    );
    for parallel in [2, 3, 8] {
        assert_eq!(
            read(&file, parallel, |b| b),
            serial,
            "{parallel} row groups at a time"
        );
    }
}

#[test]
fn same_rows_with_every_option() {
    let file = file();
    let setup = |b: ParquetRecordBatchReaderBuilder<Bytes>| {
        b.with_projection(ProjectionMask::columns(["list", "name"]))
            .with_row_groups(vec![15, 3, 4, 5, 9, 0])
            .with_predicate(
                Predicate::compare("id", Op::Ge, 10_000).and(Predicate::is_not_null("name")),
            )
            .with_offset(700)
            .with_limit(5_000)
    };
    let serial = read(&file, 1, setup);
    assert_eq!(
        serial.iter().map(RecordBatch::num_rows).sum::<usize>(),
        5_000
    );
    assert_eq!(read(&file, 4, setup), serial);
}

#[test]
fn one_row_group_is_read_a_field_at_a_time() {
    let file = file_of(100_000);
    let serial = read(&file, 1, |b| b);
    assert_eq!(serial.len(), 50);
    assert_eq!(read(&file, 2, |b| b), serial);
    // No field to split by: rows only.
    let none = |b: ParquetRecordBatchReaderBuilder<Bytes>| {
        b.with_projection(ProjectionMask::columns(Vec::<String>::new()))
    };
    let rows = |batches: Vec<RecordBatch>| -> Vec<usize> {
        batches.iter().map(RecordBatch::num_rows).collect()
    };
    let serial_rows = rows(read(&file, 1, none));
    assert_eq!(serial_rows.iter().sum::<usize>(), 50_000);
    assert_eq!(rows(read(&file, 2, none)), serial_rows);
}
