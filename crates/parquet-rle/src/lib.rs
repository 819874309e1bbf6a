//! The RLE/bit-packing hybrid encoding of Parquet (parquet-encodings.txt, "Run Length
//! Encoding / Bit-Packing Hybrid (RLE = 3)"): repetition and definition levels,
//! dictionary indices and booleans, at bit widths 0 to 32, with and without the 4-byte
//! length prefix.
//!
//! ```text
//! rle-bit-packed-hybrid: <length> <encoded-data>
//! // length is not always prepended, please check the table below for more detail
//! length := length of the <encoded-data> in bytes stored as 4 bytes little endian (unsigned int32)
//! encoded-data := <run>*
//! run := <bit-packed-run> | <rle-run>
//! bit-packed-run := <bit-packed-header> <bit-packed-values>
//! bit-packed-header := varint-encode(<bit-pack-scaled-run-len> << 1 | 1)
//! // we always bit-pack a multiple of 8 values at a time, so we only store the number of values / 8
//! bit-pack-scaled-run-len := (bit-packed-run-len) / 8
//! bit-packed-values := values packed LSB first (see parquet-bitpack)
//! rle-run := <rle-header> <repeated-value>
//! rle-header := varint-encode( (rle-run-len) << 1)
//! repeated-value := value that is repeated, using a fixed-width of round-up-to-next-byte(bit-width)
//! // bit-packed-run-len and rle-run-len must be in the range [1, 2^31 - 1]
//! ```
//!
//! Whether the length is prepended:
//!
//! | page kind | data | length prefix |
//! |---|---|---|
//! | data page v1 | definition and repetition levels | yes |
//! | data page v1 and v2 | dictionary indices | no |
//! | data page v1 and v2 | booleans | yes |
//! | data page v2 | definition and repetition levels | no |
//!
//! - [`Decoder`] decodes in batches: [`Decoder::decode`] into `u8`/`u16`/`u32`,
//!   [`Decoder::decode_bools`], [`Decoder::skip`], [`Decoder::gather`] (dictionary
//!   indices straight to dictionary values) and [`Decoder::for_each_run`] (runs as they
//!   are, for gathers into other containers).
//! - [`Encoder`] encodes incrementally; [`encode`] and [`encode_length_prefixed`] in one
//!   call.
//! - [`split_length_prefixed`] cuts a length-prefixed stream out of a page.
//!
//! ```
//! use parquet_rle::{Decoder, encode_length_prefixed, split_length_prefixed};
//!
//! // Definition levels of a data page v1: max level 1, so bit width 1.
//! let levels: Vec<u16> = (0..1000).map(|i| u16::from(i % 10 != 0 && i < 900)).collect();
//! let mut page = Vec::new();
//! encode_length_prefixed(&levels, 1, &mut page)?;
//! page.extend_from_slice(b"values");
//!
//! let (data, values) = split_length_prefixed(&page)?;
//! assert_eq!(values, b"values");
//! let mut decoder = Decoder::try_new(data, 1)?;
//! let mut out = vec![0u16; levels.len()];
//! assert_eq!(decoder.decode(&mut out)?, levels.len());
//! assert_eq!(out, levels);
//!
//! // Dictionary indices, gathered straight into values.
//! let dict = [10_i64, 20, 30];
//! let indices = [2u32, 2, 0, 1, 0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1];
//! let mut bytes = Vec::new();
//! parquet_rle::encode(&indices, 2, &mut bytes);
//! let mut out = [0i64; 15];
//! assert_eq!(Decoder::try_new(&bytes, 2)?.gather(&dict, &mut out)?, 15);
//! assert_eq!(out[..6], [30, 30, 10, 20, 10, 30]);
//! # Ok::<(), parquet_rle::Error>(())
//! ```
//!
//! # Errors and panics
//!
//! Decoding never panics, never allocates and never loops without consuming input, on
//! any bytes. It returns [`Error::Invalid`] for a run length of 0 or above
//! [`MAX_RUN_LEN`] and for an RLE value that does not fit the bit width,
//! [`Error::Truncated`] for a run header or RLE value cut short and
//! [`Error::OutOfRange`] for a dictionary index past the dictionary, with offsets relative
//! to the decoder's input. A last bit-packed run cut short is not an error: some writers
//! omit the padding of the last group, so the decoder yields the values whose bits are all
//! present and stops there, as arrow C++ and pyarrow do. Unlike them, a zero byte where a
//! run header is expected is an error, not the end of the data; a caller that asks for
//! the page's value count never reads such padding.
//!
//! Encoding appends to the caller's `Vec<u8>`. It panics only on a bit width above
//! [`MAX_BIT_WIDTH`], a bug in the caller, and ignores the bits of a value above the bit
//! width.
//!
//! # Speed
//!
//! Bit-packed runs decode whole blocks of [`BLOCK_LEN`] values straight into the output
//! with the kernels of `parquet-bitpack` (chosen for the CPU at run time), and the last
//! few values of a run without them. RLE runs are fills; long ones go through `memcpy`,
//! whose stores are wider than those of a default build, and zeros through `memset`.
//! Gathers unpack indices into a stack buffer of 4 blocks and check each block's indices
//! once. Skips move over bit-packed values without unpacking them. Run headers of one or
//! two bytes are read inline. Nothing is allocated: the decoder's only buffers are one
//! block inside the [`Decoder`] and the gather's 512 bytes of stack.
//!
//! # Features
//!
//! None: the crate has no optional parts and no `unsafe` code.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod decoder;
mod encoder;
mod sink;

pub use decoder::Decoder;
pub use encoder::{Encoder, MAX_PACKED_GROUPS, encode, encode_length_prefixed};
pub use parquet_bitpack::BLOCK_LEN;
pub use parquet_core::{Error, Result};
pub use sink::Run;

/// The widest bit width of the hybrid (dictionary indices are at most 32 bits).
pub const MAX_BIT_WIDTH: u8 = 32;

/// The longest run, RLE or bit-packed, in values: `2^31 - 1`.
pub const MAX_RUN_LEN: usize = 0x7fff_ffff;

/// Bytes of the length prefix.
pub const LENGTH_PREFIX_LEN: usize = 4;

/// Splits a length-prefixed stream off the front of `input`: returns the encoded data
/// (without its 4-byte little-endian length) and the bytes after it.
///
/// ```
/// let page = [3, 0, 0, 0, 0x02, 0x01, 0x00, 0xaa];
/// assert_eq!(parquet_rle::split_length_prefixed(&page)?, (&page[4..7], &page[7..]));
/// # Ok::<(), parquet_rle::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Truncated`] when `input` is shorter than the prefix, or than the length it
/// gives.
pub fn split_length_prefixed(input: &[u8]) -> Result<(&[u8], &[u8])> {
    let mut cursor = parquet_core::Cursor::new(input);
    let len = cursor.read_u32("length prefix")?;
    // A `u32` fits a `usize` on every target this crate builds for; if not, the
    // saturated length is reported as truncated.
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    let data = cursor.read_bytes(len, "length-prefixed RLE data")?;
    Ok((data, cursor.rest()))
}

#[cfg(test)]
mod tests;
