//! Helpers shared by the integration tests: files written from record batches and from
//! raw column values, and values with nulls.

// Each test binary uses some of these.
#![allow(dead_code, clippy::unwrap_used)]

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet_arrow::ArrowWriter;
use parquet_file::{
    ByteArrayBatch, Bytes, ColumnBatch, ColumnValues, FileWriter, Schema, WriterOptions,
};

/// Writes `batches` with `ArrowWriter` and gives the file.
pub(crate) fn write(
    schema: &SchemaRef,
    batches: &[RecordBatch],
    options: Option<WriterOptions>,
) -> Bytes {
    let mut writer = ArrowWriter::try_new(Vec::new(), schema.clone(), options).unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    writer.finish().unwrap();
    Bytes::from(writer.into_inner())
}

/// A column's values and levels, to write with `FileWriter`.
pub(crate) type Column = (ColumnValues, Vec<u16>, Vec<u16>);

/// Writes one row group of `columns` (one per leaf of `schema`) with `FileWriter`.
pub(crate) fn write_columns(schema: Schema, columns: Vec<Column>, options: WriterOptions) -> Bytes {
    let mut writer = FileWriter::new(Vec::new(), schema, options).unwrap();
    let leaves = writer.schema().columns().to_vec();
    let batches: Vec<ColumnBatch> = columns
        .into_iter()
        .zip(&leaves)
        .map(|((values, def, rep), column)| {
            ColumnBatch::try_new(column, values, def, rep)
                .unwrap_or_else(|e| panic!("column {}: {e}", column.path))
        })
        .collect();
    writer.write_batches(&batches).unwrap();
    writer.finish().unwrap();
    Bytes::from(writer.into_inner())
}

/// Byte-array column values.
pub(crate) fn byte_arrays<V: AsRef<[u8]>>(values: impl IntoIterator<Item = V>) -> ColumnValues {
    ColumnValues::ByteArray(values.into_iter().collect::<ByteArrayBatch>())
}

/// `Some(f(i))` for each of the `n` positions but every `every`th (from `phase`), which
/// is `None`.
pub(crate) fn nulls_every<T>(
    n: usize,
    every: usize,
    phase: usize,
    f: impl Fn(usize) -> T,
) -> Vec<Option<T>> {
    (0..n)
        .map(|i| (!(i + phase).is_multiple_of(every)).then(|| f(i)))
        .collect()
}
