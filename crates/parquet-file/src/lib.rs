//! Whole Parquet files, composed from the parquet-kit codec crates: the footer (plain,
//! encrypted or signed), the schema tree, column chunks read page by page, values in
//! every encoding and codec, nested records assembled from their levels.
//!
//! Two levels of API:
//!
//! - **Column batches**, for engines: [`FileReader::column_chunk`] gives a
//!   [`ColumnChunkReader`] that decodes one data page at a time into a reused
//!   [`ColumnBatch`] of typed values plus definition and repetition levels.
//! - **Rows**, for everyone else: [`FileReader::rows`] yields [`Row`]s of typed
//!   [`Field`]s, with lists, maps and groups assembled and logical types applied.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/example.parquet");
//! use parquet_file::{ColumnBatch, ColumnValues, Field, FileReader, Projection};
//!
//! let reader = FileReader::open(std::fs::File::open(path)?)?;
//! let schema = reader.schema();
//!
//! // Rows, projected to two columns.
//! let rows = reader.rows_with(Projection::all().columns(["id", "name"]))?;
//! for row in rows {
//!     let row = row?;
//!     assert!(matches!(row.get("id"), Some(Field::Int(_))));
//! }
//!
//! // Column batches: the values of `id` in row group 0, page by page.
//! let id = schema.column_index("id").unwrap();
//! let mut chunk = reader.column_chunk(0, id)?;
//! let mut batch = ColumnBatch::new(schema.column(id))?;
//! while chunk.read_page(&mut batch)?.is_some() {}
//! let ColumnValues::Int64(ids) = &batch.values else { panic!() };
//! assert_eq!(ids.len() as i64, reader.metadata().row_groups()[0].num_rows);
//! # Ok(()) }
//! ```
//!
//! # Skipping
//!
//! A [`Predicate`] skips row groups by their statistics and Bloom filters
//! ([`Predicate::might_match`]), and pages by the page index
//! ([`Predicate::row_selection`] gives a [`RowSelection`] for
//! [`Projection::select_rows`]; the rows then read are the selected ones, and the pages
//! holding none are neither read from the source nor decoded).
//! [`FileReader::offset_index`] and [`FileReader::column_index`] give the page index
//! itself; [`FileReader::column_chunk_rows`] reads only the pages of a column chunk that
//! hold given rows, and [`ColumnChunkReader::seek_page`] moves a column reader to a page
//! the offset index names.
//!
//! # Errors, panics and memory
//!
//! No file makes the reader panic. Errors say where ([`Location`]: row group, column
//! path, file offset) and what ([`ErrorKind`]). A column chunk is read into memory
//! whole, and decoded one page at a time; output grows with what a page decodes to, a
//! step at a time, never with a count from a header alone. The row API holds the
//! projected column chunks of one row group at a time (with a row selection, only their
//! pages holding selected rows), and one decoded page of each.
#![forbid(unsafe_code)]

mod bloom;
mod column;
mod decryption;
mod error;
mod field;
mod metadata;
mod page;
mod page_index;
mod predicate;
mod reader;
mod rows;
mod schema;
mod source;
mod statistics;
#[cfg(test)]
mod tests;

pub use column::{ColumnBatch, ColumnChunkReader, ColumnValues};
pub use decryption::DecryptionOptions;
pub use error::{Error, ErrorKind, Location, Result};
pub use field::Field;
pub use metadata::{FooterProtection, MAGIC, MAGIC_ENCRYPTED, ParquetMetaData};
pub use page::{DataPage, Levels, Page, PageReader};
pub use page_index::{ColumnIndex, PageStatistics, RowSelection};
pub use predicate::{Literal, Op, Predicate};
pub use reader::{FileReader, ReadOptions};
pub use rows::{Projection, Row, RowIter};
pub use schema::{
    ColumnDescriptor, ColumnPath, LogicalType, MAX_DEPTH, Node, NodeKind, Repetition, Schema,
    TimeUnit,
};
pub use source::Source;
pub use statistics::{ColumnStatistics, SortOrder, decode_value, sort_order};

pub use bytes::Bytes;
pub use parquet_bloom::Sbbf;
pub use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
pub use parquet_crypto::{Key, KeyMap, KeyRetriever};
pub use parquet_thrift as thrift;
