//! DELTA_LENGTH_BYTE_ARRAY (encoding 6), for BYTE_ARRAY.
//!
//! parquet-encodings.txt, "Delta-length byte array":
//!
//! ```text
//! encoding := <Delta Encoded Lengths> <Byte Array Data>
//!
//! Delta Encoded Lengths  the value lengths, DELTA_BINARY_PACKED as INT32
//! Byte Array Data        the values' bytes, back to back
//! ```
//!
//! ```
//! use parquet_core::ByteArrayBatch;
//! use parquet_delta::binary_packed::Params;
//! use parquet_delta::length_byte_array::{self, Decoder};
//!
//! let mut encoded = Vec::new();
//! let values = ["Hello", "World", "Foobar", "ABCDEF"].map(str::as_bytes);
//! length_byte_array::encode(values, Params::default(), &mut encoded)?;
//! assert!(encoded.ends_with(b"HelloWorldFoobarABCDEF"));
//!
//! // Copy values into a batch…
//! let mut decoder = Decoder::try_new(&encoded)?;
//! let mut batch = ByteArrayBatch::new();
//! assert_eq!(decoder.decode(&mut batch, 3)?, 3);
//! assert_eq!(batch.get(2), Some(&b"Foobar"[..]));
//! // …or borrow them from the input, in batches or one at a time.
//! let mut borrowed = Vec::new();
//! assert_eq!(decoder.decode_borrowed(&mut borrowed, 0)?, 0);
//! assert_eq!(decoder.next_value()?, Some(&b"ABCDEF"[..]));
//! assert_eq!(decoder.remaining(), 0);
//! # Ok::<(), parquet_delta::Error>(())
//! ```
//!
//! [`Decoder::try_new`] checks the whole encoding up front without allocating: it
//! walks the lengths once to find where the data starts, that every length is in
//! `0..=i32::MAX` (taken exactly: lengths are not INT32 values, which wrap modulo 2^32),
//! and that the lengths fit in the data (data past the last value is allowed and
//! ignored; [`Decoder::encoded_len`] says where the values end). Decoding then reads the
//! lengths in small batches in step with the data, so memory does not grow with the
//! header's value count.

mod decoder;
mod encoder;
#[cfg(test)]
pub(crate) mod tests;

pub use decoder::{Decoder, Values};
pub(crate) use encoder::length;
pub use encoder::{Encoder, encode, encode_batch};
