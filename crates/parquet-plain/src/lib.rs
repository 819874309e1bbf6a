//! The PLAIN encoding of Parquet, for all eight physical types
//! (parquet-encodings.txt, "Plain: (PLAIN = 0)").
//!
//! PLAIN stores values back to back, with no header: the number of values comes from
//! the page header (for a data page with nulls, the number of non-null values), and
//! the values run to the end of the page.
//!
//! ```text
//! BOOLEAN              := <values bit-packed at width 1, LSB first; the last byte zero-padded>
//! INT32                := <value: 4 bytes little endian>*
//! INT64                := <value: 8 bytes little endian>*
//! INT96                := <value: 12 bytes little endian>*      (deprecated)
//! FLOAT                := <value: 4 bytes IEEE 754 little endian>*
//! DOUBLE               := <value: 8 bytes IEEE 754 little endian>*
//! BYTE_ARRAY           := (<length: 4 bytes little endian> <length bytes>)*
//! FIXED_LEN_BYTE_ARRAY := <value: type_length bytes>*
//! ```
//!
//! - [`Decoder`] and [`encode`] handle the types of [`PlainType`]: `bool` (BOOLEAN),
//!   `i32`, `i64`, [`Int96`](parquet_core::Int96), `f32` and `f64`. The trait lets a
//!   caller such as a dictionary page reader handle every fixed-width type with one
//!   generic function.
//! - [`byte_array`]: BYTE_ARRAY, decoded into a [`ByteArrayBatch`](parquet_core::ByteArrayBatch)
//!   or borrowed value by value from the input.
//! - [`fixed_len_byte_array`]: FIXED_LEN_BYTE_ARRAY, decoded into a
//!   [`FixedLenByteArrayBatch`](parquet_core::FixedLenByteArrayBatch) or borrowed.
//!
//! ```
//! use parquet_core::ByteArrayBatch;
//! use parquet_plain::{Decoder, byte_array, encode};
//!
//! // Fixed-width values: the bytes are the values' little-endian bytes.
//! let mut page = Vec::new();
//! encode(&[1i32, -2, 300], &mut page);
//! assert_eq!(page, [1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0x2c, 1, 0, 0]);
//!
//! let mut decoder = Decoder::<i32>::try_new(&page, 3)?;
//! let mut values = [0; 2];
//! assert_eq!(decoder.decode(&mut values)?, 2); // in batches of any size
//! assert_eq!(values, [1, -2]);
//! assert_eq!(decoder.skip(10)?, 1);
//! assert_eq!(decoder.remaining(), 0);
//!
//! // Byte arrays: a 4-byte length before each value.
//! let mut page = Vec::new();
//! byte_array::encode(&["Hello", "", "World"], &mut page)?;
//! assert_eq!(&page[..9], b"\x05\0\0\0Hello");
//!
//! let mut decoder = byte_array::Decoder::try_new(&page, 3)?;
//! assert_eq!(decoder.next_value()?, Some(&b"Hello"[..])); // borrowed from `page`
//! let mut batch = ByteArrayBatch::new();
//! assert_eq!(decoder.decode(&mut batch, 100)?, 2);
//! assert_eq!(batch.iter().collect::<Vec<_>>(), [&b""[..], b"World"]);
//!
//! // A page that cannot hold the values its header promises is an error, never a panic.
//! assert_eq!(
//!     Decoder::<f64>::try_new(&[0; 15], 2).unwrap_err().to_string(),
//!     "truncated PLAIN DOUBLE values at offset 0: need 16 bytes, 15 available",
//! );
//! # Ok::<(), parquet_plain::Error>(())
//! ```
//!
//! # Speed
//!
//! On a little-endian target, decoding INT32, INT64, FLOAT and DOUBLE is a copy: the
//! safe loop over fixed-size chunks compiles to a call to `memcpy`. BOOLEAN uses the
//! bit-unpacking kernels of `parquet-bitpack`. Byte arrays are either borrowed from the
//! input (no copy at all) or appended to one data buffer, with no allocation per value.
//!
//! # Errors and panics
//!
//! The crate uses the workspace's shared [`Error`]. Decoders check in `try_new` that the
//! input is long enough for the number of values the caller says it holds (for
//! BYTE_ARRAY, at least their 4-byte lengths), so a lying count can neither make them
//! allocate nor read out of bounds; a BYTE_ARRAY length that runs past the end of the
//! input is an [`Error::Truncated`] naming its offset in the input. No decoder panics on
//! any input, and every error offset is relative to the input given to `try_new`.
//!
//! Encoders append to a caller's `Vec<u8>` and do not fail, except for a BYTE_ARRAY value
//! longer than `u32::MAX` bytes, which PLAIN cannot represent ([`Error::LimitExceeded`]).
//!
//! The crate has no features and no `unsafe` code.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod boolean;
pub mod byte_array;
pub mod fixed_len_byte_array;
mod primitive;

pub use parquet_core::{Error, Result};
pub use primitive::{Decoder, PlainType, encode};

#[cfg(test)]
mod tests;
