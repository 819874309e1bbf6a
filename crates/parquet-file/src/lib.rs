//! Whole Parquet files, composed from the parquet-kit codec crates: the footer (plain,
//! encrypted or signed), the schema tree, column chunks read page by page, values in
//! every encoding and codec, nested records assembled from their levels; and the writer
//! of all of these.
//!
//! Two levels of API:
//!
//! - **Column batches**, for engines: [`FileReader::column_chunk`] gives a
//!   [`ColumnChunkReader`] that reads whole records, as many as the caller asks for,
//!   into a reused [`ColumnBatch`] of typed values plus definition and repetition
//!   levels.
//! - **Rows**, for everyone else: [`FileReader::rows`] yields [`Row`]s of typed
//!   [`Field`]s, with lists, maps and groups assembled and logical types applied.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/example.parquet");
//! use parquet_file::{ColumnBatch, ColumnPath, ColumnValues, Field, FileReader, Projection};
//!
//! let reader = FileReader::open(std::fs::File::open(path)?)?;
//! let schema = reader.schema();
//!
//! // Rows, projected to two columns.
//! for row in reader.rows_with(Projection::all().columns(["id", "name"]))? {
//!     let row = row?;
//!     assert!(matches!(row.get("id"), Some(Field::Int(_))));
//! }
//!
//! // Column batches: the values of `id` in row group 0, 1000 records at a time.
//! let id = schema.column_index(&ColumnPath::from("id")).unwrap();
//! let mut chunk = reader.column_chunk(0, id)?;
//! let mut batch = ColumnBatch::new(schema.column(id)?);
//! while chunk.read_records(1000, &mut batch)? > 0 {}
//! let ColumnValues::Int64(ids) = batch.values() else { panic!() };
//! assert_eq!(ids.len() as u64, reader.metadata().row_groups()[0].num_rows());
//! # Ok(()) }
//! ```
//!
//! # Schemas
//!
//! A file's [`Schema`] is a tree of [`Node`]s with a [`ColumnDescriptor`] per leaf. One
//! can also be built in code from [`SchemaField`]s ([`Schema::try_new`], with
//! [`SchemaField::list`] and [`SchemaField::map`] for the shapes parquet-format requires
//! of writers), or parsed from the message-type text that its `Display` prints
//! ([`Schema::parse`]); both are checked as a writer must be (every annotation fits its
//! field, LIST and MAP groups have their shape, converted types agree with logical ones).
//!
//! # Writing
//!
//! [`FileWriter`] writes to any [`Sink`] (every `std::io::Write` is one): column batches
//! ([`FileWriter::write_batches`], the mirror of
//! [`read_records`](ColumnChunkReader::read_records)) or rows
//! ([`FileWriter::write_row`], shredded into levels by the plan that assembles them when
//! reading). [`WriterOptions`], file-wide and per column, choose every encoding
//! (dictionary with a size limit and fallback, RLE, the DELTA encodings,
//! BYTE_STREAM_SPLIT, the legacy PLAIN_DICTIONARY and BIT_PACKED), every codec with its
//! level, data page v1 or v2, page and row group limits, statistics (none, per chunk, per
//! page; long byte arrays truncated with `is_min_value_exact`/`is_max_value_exact` set;
//! NaNs counted, never bounds), size statistics, the column and offset index, Bloom
//! filters sized from NDV and FPP, page CRCs (on by default), key-value metadata and
//! sorting columns; [`EncryptionOptions`] encrypt with AES_GCM_V1 or AES_GCM_CTR_V1, an
//! encrypted or signed plaintext footer, keys per column, plaintext columns and an AAD
//! prefix, page indexes and Bloom filters encrypted too.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use parquet_file::{Codec, Field, FileWriter, Row, Schema, WriterOptions};
//!
//! let schema = Schema::parse(
//!     "message m { required int64 id; optional binary name (STRING); }",
//! )?;
//! let options = WriterOptions::new().with_compression(Codec::Zstd);
//! let mut writer = FileWriter::new(Vec::new(), schema, options)?;
//! writer.write_row(&Row::new(vec![
//!     (Arc::from("id"), Field::Int(1)),
//!     (Arc::from("name"), Field::Str("one".into())),
//! ]))?;
//! writer.finish()?;
//! let file: Vec<u8> = writer.into_inner();
//! # assert!(file.starts_with(b"PAR1"));
//! # Ok(()) }
//! ```
//!
//! Pages are encoded and compressed as they fill, and a row group is written out at its
//! limits: the writer holds about one row group of encoded pages (and the buffers of the
//! one before, recycled for the next pages), one page per column, and dictionaries while
//! they fill.
//! Input that does not fit the schema is refused whole and the writer goes on; an error
//! of the sink stops it before any footer is written.
//!
//! # Skipping
//!
//! A [`Predicate`] (built, and matched against rows, in [`parquet_core::filter`], shared
//! with the ORC reader) skips row groups by their statistics and Bloom filters
//! ([`PredicateExt::might_match`]), and pages by the page index
//! ([`PredicateExt::row_selection`] gives a [`RowSelection`] for
//! [`Projection::select_rows`]; the rows then read are the selected ones, and the pages
//! holding none are neither read from the source nor decoded).
//! [`FileReader::offset_index`] and [`FileReader::column_index`] give the page index
//! itself; [`FileReader::column_chunk_selected`] reads only the pages of a column chunk
//! that hold given rows.
//!
//! # Errors, panics and memory
//!
//! No file makes the reader panic. Errors say where ([`Location`]: row group, column
//! path, file offset) and what ([`ErrorKind`]), and keep the codec's, decompressor's or
//! cipher's error as their source.
//!
//! A count in the file is a claim, not a fact: nothing is allocated from one before the
//! bytes that back it are seen, and each page's counts are checked against what remains
//! of its column chunk and row group. A column chunk is read into memory whole (or, for a
//! row selection, its pages holding selected rows), and decoded a batch of records at a
//! time: output grows with what a page decodes to, a step at a time. What real bytes can
//! still cost (a page that truly decompresses to gigabytes, a record of millions of
//! values expressed as one run of a few bytes, a huge footer) is bounded by the
//! [`Limits`] of the [`ReadOptions`].
//!
//! # Features
//!
//! Every codec is on by default, each behind a feature of its name (`snappy`, `gzip`,
//! `lzo`, `brotli`, `lz4`, `zstd`), and AES-GCM runs on ring (`ring`). A build without C
//! code is `--no-default-features --features pure-rust`: ZSTD through `ruzstd`, AES-GCM
//! through RustCrypto.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod bloom;
mod column;
mod error;
mod filter;
mod index;
mod io;
mod limits;
mod metadata;
mod page;
mod path;
mod read;
mod record;
pub mod recover;
mod schema;
mod value;
mod write;

pub use column::{ColumnBatch, ColumnChunkReader, DictionaryIndices};
pub use error::{Error, ErrorKind, Location, Result};
pub use filter::{Literal, LiteralExt, Op, Predicate, PredicateExt};
pub use index::{
    BoundaryOrder, ColumnIndex, OffsetIndex, PageLocation, PageStatistics, RowSelection,
};
pub use io::{Sink, Source, Spliced};
pub use limits::Limits;
pub use metadata::{
    BoundingBox, ColumnChunk, ColumnChunkMetaData, ColumnEncryption, ColumnOrder, ColumnStatistics,
    DecryptionOptions, Encoding, EncryptionAlgorithm, FileMetaData, FooterProtection,
    GeospatialStatistics, IndexLocation, KeyValue, MAGIC, MAGIC_ENCRYPTED, PageEncodingStats,
    RowGroupMetaData, SizeStatistics, SortOrder, SortingColumn, Statistics, decode_value,
    sort_order,
};
pub use page::{
    DataPage, DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Levels, Page, PageHeader,
    PageKind, PageReader,
};
pub use path::ColumnPath;
pub use read::{Disagreement, FileReader, Projection, ReadOptions, RowIter, Verification};
pub use record::Row;
pub use recover::recover;
pub use schema::{
    ColumnDescriptor, ConvertedType, EdgeInterpolation, LogicalType, Node, NodeKind, Repetition,
    Schema, SchemaField, TimeUnit,
};
pub use value::{ColumnValues, Field};
pub use write::{
    BloomFilterOptions, CREATED_BY, ColumnOptions, EncryptionOptions, FileWriter, PageVersion,
    StatisticsLevel, WriterOptions,
};

pub use bytes::Bytes;
pub use parquet_bloom::Sbbf;
pub use parquet_compress::{Codec, Compression};
pub use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96, PhysicalType};
pub use parquet_crypto::{Algorithm, Key, KeyMap, KeyRetriever};
pub use parquet_dictionary::ByteArrayDictionary;
