//! Apache ORC files, v0 (Hive 0.11) and v1 (Hive 0.12 and later): reading and writing,
//! with every type (boolean, tinyint to bigint, float, double, string, char, varchar,
//! binary, timestamp, `timestamp with local time zone`, date, decimal, struct, array,
//! map, uniontype), every encoding (byte and boolean RLE, integer RLE v1 and v2, direct
//! and dictionary strings) and every codec (NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD).
//!
//! - [`OrcReader`] reads the tail (postscript, footer, metadata), then [`Batches`] of
//!   column [`Vector`]s or [`Rows`] of [`Field`](parquet_core::Field)s, the same row
//!   values as Parquet's, stripe by stripe, only the projected columns' streams, skipping
//!   stripes and row groups a [`Predicate`](parquet_core::Predicate) rules out by their
//!   statistics and seeking past them by the row index.
//! - [`OrcWriter`] writes rows or batches as ORC v0 (`0.11`, RLE v1) or v1 (`0.12`, RLE
//!   v2, the default), choosing dictionary or direct strings per stripe as Apache ORC's
//!   Java writer does, with a row index, stripe and file statistics and user metadata, in
//!   memory bounded by about one stripe of encoded streams.
//! - [`OrcReader::verify`] reads every row and checks the file's row counts, its
//!   statistics at every level and its row index positions against the values.
//! - [`rle`] holds the run-length codecs on their own, [`stream`] the compression
//!   chunks, [`proto`] the protobuf metadata.
//!
//! ```
//! use std::sync::Arc;
//!
//! use orc_file::{OrcReader, OrcVersion, OrcWriter, ReadOptions, TypeDescription, WriterOptions};
//! use parquet_core::{Field, Op, Predicate, Row};
//!
//! let schema = TypeDescription::parse("struct<id:bigint,name:string,tags:array<string>>")?;
//! let options = WriterOptions::default().version(OrcVersion::V0_12).row_index_stride(100);
//! let mut writer = OrcWriter::new(Vec::new(), schema, options)?;
//! for id in 0..1000 {
//!     writer.write_row(&Row::new(vec![
//!         (Arc::from("id"), Field::Int(id)),
//!         (Arc::from("name"), if id % 7 == 0 { Field::Null } else { Field::Str(format!("n{id}")) }),
//!         (Arc::from("tags"), Field::List(vec![Field::Str("a".into()); (id % 3) as usize])),
//!     ]))?;
//! }
//! let bytes = bytes::Bytes::from(writer.finish()?);
//!
//! let reader = OrcReader::open(bytes)?;
//! assert_eq!(reader.num_rows(), 1000);
//! // Only `id` and `name`, only the row groups whose statistics allow `id >= 950`.
//! let predicate = Predicate::compare("id", Op::Ge, 950);
//! let options = ReadOptions::default()
//!     .with_projection(["id", "name"])
//!     .with_predicate(predicate.clone());
//! let rows: Vec<Row> = reader.rows(options)?.collect::<Result<_, _>>()?;
//! assert_eq!(rows.len(), 100); // the last row group, read whole
//! let matching = rows.iter().filter(|row| predicate.matches(row)).count();
//! assert_eq!(matching, 50);
//! assert_eq!(rows[0].get("name"), Some(&Field::Str("n900".into())));
//! # Ok::<(), orc_file::Error>(())
//! ```
//!
//! # Hostile files
//!
//! Counts and lengths in a file are claims: a stripe that claims billions of rows,
//! a length stream that claims billions of list elements, a dictionary larger than its
//! bytes, a chunk that expands past the compression block size, are errors or are read
//! only as far as bytes back them; no allocation is sized by a claim alone. A stream is
//! decompressed only as far as its readers read: whole up to what the stripe's rows can
//! need of it (integers, floats, booleans, lengths and dictionary ids of top-level
//! columns), a chunk at a time otherwise (strings' bytes, decimals, dictionaries, the
//! streams of nested columns), so chunks of zeros behind five values cost nothing. What real
//! bytes can still cost is bounded by [`Limits`] (given to [`OrcReader::open_with`], or
//! per read to [`ReadOptions::with_limits`]): the footer, metadata and stripe footers,
//! the compression block size, the stripe count, the values under one list or map and
//! under a batch's, and the bytes of strings in a batch, which ends early rather than
//! pass them (a dictionary entry of megabytes that every row repeats costs its size
//! once per batch, not once per row). Every decoder has a fuzz target.
//!
//! # Errors
//!
//! An [`Error`] is what went wrong, an [`ErrorKind`] of typed values (a limit and the
//! count past it, a structure and the bounds it is not inside, the codec's own error as
//! the source), and where, a [`Location`]: the stripe, the column id, the stream and
//! the file offset, as far as they are known. [`ErrorKind::is_input`] tells the input
//! a writer refuses (it goes on) from the file's errors and the sink's.
//!
//! ```
//! use orc_file::{ErrorKind, OrcReader};
//!
//! let Err(error) = OrcReader::open(b"PAR1\0\0\0\0PAR1".to_vec()) else {
//!     panic!("a Parquet file opened as ORC");
//! };
//! assert!(matches!(error.kind(), ErrorKind::Invalid { what: "postscript length", value: 49 }));
//! assert_eq!(error.location().offset, Some(11));
//! assert_eq!(error.to_string(), "offset 11: invalid postscript length: 49");
//! ```
#![warn(clippy::indexing_slicing)]

pub mod rle;

pub mod calendar;
mod error;
mod limits;
/// The protobuf messages of ORC's metadata (postscript, footer, metadata, stripe footer,
/// row index, bloom filters, encryption), generated by prost from
/// `proto/orc_proto.proto`; regenerate with
/// `cargo run --manifest-path crates/orc-file/codegen/Cargo.toml`.
///
/// prost reads fields it does not know by skipping them, so metadata from newer writers
/// decodes. Enum fields are `i32`: their accessors (`PostScript::compression()`) read a
/// number they do not know as the enum's default; read the raw field where that
/// matters.
///
/// Generated code: the lints that judge hand-written code are off (every item carries
/// the `.proto` file's comment as its doc all the same).
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod proto;
mod read;
pub mod recover;
mod row;
pub mod schema;
pub mod statistics;
pub mod stream;
pub mod vector;
pub mod verify;
mod write;

pub use error::{Error, ErrorKind, Location, Result};
pub use limits::Limits;
pub use read::{
    Batches, FileVersion, OrcReader, ReadOptions, Rows, StreamInfo, StripeFooter, StripeInfo,
};
pub use row::Strings;
pub use schema::{Kind, TypeDescription};
pub use statistics::{ColumnStatistics, TypedStatistics};
pub use stream::OrcCompression;
pub use vector::{Batch, Vector, VectorData};
pub use write::{OrcVersion, OrcWriter, WriterOptions};
