//! Shared pieces of the parquet-kit codec crates.
//!
//! - [`varint`]: ULEB128 for `u32` and `u64`, strict on read (overlong or overflowing
//!   varints are errors);
//! - [`zigzag`]: the signed-to-unsigned mapping that precedes a signed varint;
//! - [`group_var_int`]: the GroupVarInt encoding of the first Parquet encodings draft;
//! - [`Cursor`]: checked little-endian reads from a borrowed slice;
//! - the value vocabulary: [`PhysicalType`], the [`FixedWidth`] physical-type trait,
//!   [`Int96`], [`ByteArrayBatch`] (offsets + one data buffer) and
//!   [`FixedLenByteArrayBatch`];
//! - the row vocabulary shared by the Parquet and ORC readers and writers: [`Row`],
//!   [`Field`] and [`TimeUnit`];
//! - [`io`]: [`io::Source`] (positioned reads) and [`io::Sink`] (appends), where the
//!   Parquet and ORC readers and writers get and put their bytes;
//! - [`filter`]: row filters as values ([`Predicate`] of [`Op`] comparisons of the fields
//!   at [`ColumnPath`]s with [`Literal`]s), evaluated on rows and on statistics' ranges
//!   the same way by the Parquet and ORC readers;
//! - [`Error`], the error type of every codec crate in the workspace.
//!
//! ```
//! use parquet_core::{Cursor, varint, zigzag};
//!
//! let mut bytes = Vec::new();
//! varint::encode_u32(300, &mut bytes);
//! varint::encode_u64(zigzag::encode_i64(-2), &mut bytes);
//! bytes.extend_from_slice(&7u32.to_le_bytes());
//!
//! let mut cursor = Cursor::new(&bytes);
//! assert_eq!(cursor.read_uleb128_u32("block size")?, 300);
//! assert_eq!(cursor.read_zigzag_i64("first value")?, -2);
//! assert_eq!(cursor.read_u32("length")?, 7);
//! // Reading past the end is an error that says what and where.
//! assert_eq!(
//!     cursor.read_u8("bit width").unwrap_err().to_string(),
//!     "truncated bit width at offset 7: need 1 bytes, 0 available",
//! );
//! # Ok::<(), parquet_core::Error>(())
//! ```
//!
//! # Errors and panics
//!
//! Nothing here panics on any input bytes: every decoding function returns an
//! [`Error`] that names what was being read and at which offset. Allocations are sized
//! from the input's length, never from a count read from it.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod byte_array;
pub mod cursor;
mod error;
pub mod filter;
pub mod group_var_int;
pub mod io;
mod limits;
mod types;
mod value;
pub mod varint;
pub mod zigzag;

pub use byte_array::{ByteArrayBatch, FixedLenByteArrayBatch, GATHER_SLACK};
pub use cursor::Cursor;
pub use error::{Error, Result};
pub use filter::{ColumnPath, Literal, Op, Predicate};
pub use types::{FixedWidth, Int96, PhysicalType};
pub use value::{Field, Row, TimeUnit};
