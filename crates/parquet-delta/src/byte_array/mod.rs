//! DELTA_BYTE_ARRAY (encoding 7), for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
//!
//! parquet-encodings.txt, "Delta Strings", also known as incremental encoding or front
//! compression: each value is stored as the length of the prefix it shares with the
//! previous value, and the suffix that follows.
//!
//! ```text
//! encoding := <prefix lengths> <suffixes>
//!
//! prefix lengths  DELTA_BINARY_PACKED as INT32, one per value
//! suffixes        DELTA_LENGTH_BYTE_ARRAY, one per value
//! value i         := first (prefix length i) bytes of value i-1, then suffix i
//! ```
//!
//! FIXED_LEN_BYTE_ARRAY is stored the same way, every length included.
//!
//! ```
//! use parquet_core::ByteArrayBatch;
//! use parquet_delta::binary_packed::Params;
//! use parquet_delta::byte_array::{self, Decoder};
//!
//! let mut encoded = Vec::new();
//! let values = ["axis", "axle", "babble", "babyhood"].map(str::as_bytes);
//! byte_array::encode(values, Params::default(), &mut encoded)?;
//! assert!(encoded.ends_with(b"axislebabbleyhood"));
//!
//! let mut decoder = Decoder::try_new(&encoded)?;
//! let mut batch = ByteArrayBatch::new();
//! assert_eq!(decoder.decode(&mut batch, usize::MAX)?, 4);
//! assert_eq!(batch.get(3), Some(&b"babyhood"[..]));
//! # Ok::<(), parquet_delta::Error>(())
//! ```
//!
//! # Output bound
//!
//! Decoded values can be far larger than the input: each may repeat a long prefix of the
//! one before. So one call of [`Decoder::decode`] or [`Decoder::decode_fixed`] appends at
//! most a byte budget ([`DEFAULT_BYTE_BUDGET`], or [`Decoder::with_byte_budget`]) and
//! returns fewer values than asked when the next value would go over it. It always
//! returns at least one value when any remain, even one larger than the budget: a single
//! value is never longer than the input. Call again for the rest.
//!
//! The decoder's own memory is the previous value, which is never longer than the input.

mod decoder;
mod encoder;
#[cfg(test)]
mod tests;

pub use decoder::{DEFAULT_BYTE_BUDGET, Decoder};
pub use encoder::{Encoder, encode, encode_batch, encode_fixed};
