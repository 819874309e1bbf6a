//! Arrow `RecordBatch`es in and out of Parquet and ORC files, through `parquet-file` and
//! `orc-file` (which know nothing of Arrow), for engines built on the arrow-rs arrays.
//!
//! - [`ParquetRecordBatchReaderBuilder`] reads a Parquet file as record batches:
//!   projection ([`ProjectionMask`]: top-level names, paths into structs, or leaves),
//!   batch size, row groups, row selection, a [`Predicate`](parquet_file::Predicate) that
//!   skips row groups by statistics and Bloom filters and pages by the page index and then
//!   filters the rows exactly, a [`RowFilter`] evaluated on decoded batches, limit and
//!   offset. The reader is an iterator of `Result<RecordBatch, ArrowError>` and a
//!   [`RecordBatchReader`](arrow_array::RecordBatchReader).
//! - Types are mapped as pyarrow maps them ([`parquet_to_arrow_schema`]), and the
//!   `ARROW:schema` that arrow-rs and pyarrow store is honoured where the Parquet type can
//!   be read as it says: large, view and dictionary strings and binaries, time zones,
//!   durations, Float16, large and fixed-size lists, seconds and Date64 stored coarser.
//!   Nested lists, maps and structs come with their nulls at every level. A
//!   dictionary-encoded string or binary column read as a dictionary or view array is
//!   built from its dictionary indices: the column chunk's dictionary is converted (and
//!   checked as UTF-8) once, its array shared by every batch as the dictionary's values
//!   or as the buffer the views point into, with no copy of the strings per batch.
//! - [`ArrowWriter`] writes record batches through `parquet-file`'s writer with all its
//!   [`WriterOptions`](parquet_file::WriterOptions), storing `ARROW:schema` as pyarrow
//!   does, so that pyarrow reads back the Arrow types written.
//! - With the `object_store` feature, `ParquetObjectReader` reads files in an object
//!   store: the footer with one suffix request sized by a hint, then the page index, Bloom
//!   filters and column chunks (or only the pages of the rows selected) that a read needs,
//!   fetched ahead with coalesced range requests, for the same builder to decode.
//! - [`ParquetRecordBatchReaderBuilder::with_parallelism`] decodes row groups on rayon's
//!   thread pool, giving the same batches in the same order.
//! - [`OrcRecordBatchReaderBuilder`] reads ORC files the same way, with ORC's types mapped
//!   as Arrow C++ maps them ([`orc_to_arrow_schema`]).
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
//! use parquet_arrow::{ArrowWriter, ParquetRecordBatchReaderBuilder, ProjectionMask};
//! use parquet_file::{Bytes, Codec, Op, Predicate, WriterOptions};
//!
//! let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..10_000));
//! let names: ArrayRef = Arc::new(StringArray::from_iter(
//!     (0..10_000).map(|i| (i % 7 != 0).then(|| format!("name {i}"))),
//! ));
//! let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)])?;
//!
//! // Write, compressed with ZSTD, in row groups of 4096 rows.
//! let options = WriterOptions::new()
//!     .with_compression(Codec::Zstd)
//!     .with_row_group_rows(4096);
//! let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(options))?;
//! writer.write(&batch)?;
//! writer.finish()?;
//! let file = Bytes::from(writer.into_inner());
//!
//! // Read back the names of the rows with an id of at least 9000.
//! let reader = ParquetRecordBatchReaderBuilder::try_new(file)?
//!     .with_projection(ProjectionMask::columns(["name"]))
//!     .with_predicate(Predicate::compare("id", Op::Ge, 9000))
//!     .with_batch_size(500)
//!     .build()?;
//! let mut rows = 0;
//! for batch in reader {
//!     let batch = batch?;
//!     assert_eq!(batch.num_columns(), 1);
//!     rows += batch.num_rows();
//! }
//! assert_eq!(rows, 1000);
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

mod error;
#[cfg(feature = "object_store")]
mod object_store;
mod orc;
mod read;
mod schema;
mod write;

#[cfg(feature = "object_store")]
pub use self::object_store::{FetchedBytes, ParquetObjectBuilder, ParquetObjectReader};
pub use error::{Error, Result};
pub use orc::{OrcRecordBatchReader, OrcRecordBatchReaderBuilder, orc_to_arrow_schema};
pub use read::{
    ArrowPredicate, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder, ProjectionMask,
    RowFilter,
};
pub use schema::{
    ARROW_SCHEMA_META_KEY, arrow_to_parquet_schema, decode_arrow_schema, encode_arrow_schema,
    parquet_to_arrow_schema,
};
pub use write::ArrowWriter;
