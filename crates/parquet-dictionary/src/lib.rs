//! Dictionary encoding for Parquet (parquet-encodings.txt, "Dictionary Encoding
//! (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)"): the distinct values of a column chunk
//! go to one dictionary page, PLAIN-encoded, and data pages hold indices into it.
//!
//! ```text
//! dictionary-page := <entries, PLAIN-encoded>
//! index-page      := <bit width: 1 byte, at most 32> <indices: RLE/bit-packing hybrid,
//!                                                     no length prefix>
//! ```
//!
//! - Building: [`Builder`] (BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE),
//!   [`ByteArrayBuilder`] and [`FixedLenByteArrayBuilder`] intern values into a dictionary
//!   without allocating per value, hand out their indices, and stop at the first value that
//!   would take the dictionary past its [`Limits`] (entries or PLAIN bytes), returning
//!   [`Intern::Full`]: the signal for a writer to fall back to another encoding for the
//!   rest of the column chunk. Floating-point values are interned by bit pattern, so `0.0`
//!   and `-0.0`, and NaNs with different payloads, stay distinct and round-trip exactly.
//! - Pages: each builder writes its dictionary page; [`encode_indices`] writes an index
//!   page.
//! - Decoding: [`Dictionary`], [`ByteArrayDictionary`] and [`FixedLenByteArrayDictionary`]
//!   read a dictionary page; [`IndexDecoder`] reads an index page and gathers dictionary
//!   values by index straight into the caller's buffer, with an error for an index out of
//!   range.
//!
//! ```
//! use parquet_dictionary::{Builder, Dictionary, IndexDecoder, Intern, Limits, encode_indices};
//!
//! let column = [7_i64, 9, 7, 7, 1000, 9];
//! let mut builder = Builder::<i64>::new(Limits::default());
//! let mut indices = Vec::new();
//! assert_eq!(builder.intern(&column, &mut indices), Intern::Done);
//! assert_eq!(indices, [0, 1, 0, 0, 2, 1]);
//!
//! let mut dictionary_page = Vec::new();
//! builder.write_dictionary_page(&mut dictionary_page);
//! let mut index_page = Vec::new();
//! encode_indices(&indices, builder.len(), &mut index_page);
//!
//! let dictionary = Dictionary::<i64>::try_from_page(&dictionary_page, builder.len())?;
//! let mut decoder = IndexDecoder::try_new(&index_page)?;
//! let mut values = [0_i64; 6];
//! assert_eq!(decoder.gather(&dictionary, &mut values)?, 6);
//! assert_eq!(values, column);
//! # Ok::<(), parquet_dictionary::Error>(())
//! ```
//!
//! # Errors, panics and allocation
//!
//! Decoding returns [`Error`] (the error type shared by the parquet-kit codec crates) for
//! a dictionary page shorter than its entry count, an index page whose bit width exceeds
//! 32, and an index at or past the dictionary's length ([`Error::OutOfRange`]); it never
//! panics. A dictionary's allocation is bounded by its page's size, since the PLAIN
//! decoders check that the page holds the entries before anything is allocated; index
//! decoding allocates nothing. Building never fails: a full dictionary is a normal outcome.
//!
//! # Features
//!
//! None. `#![forbid(unsafe_code)]`.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod builder;
mod decoder;

pub use builder::{
    Builder, ByteArrayBuilder, DictionaryValue, FixedLenByteArrayBuilder, Intern, Limits,
};
pub use decoder::{
    ByteArrayDictionary, Dictionary, FixedLenByteArrayDictionary, GATHER_BYTE_BUDGET, IndexDecoder,
};
pub use parquet_core::{Error, Result};

/// The bit width of the indices into a dictionary of `num_entries` entries: enough bits
/// for the largest index, `num_entries - 1` (0 for a dictionary of at most one entry).
pub const fn index_bit_width(num_entries: usize) -> u8 {
    let max_index = num_entries.saturating_sub(1) as u64;
    // At most 64: the cast cannot truncate.
    #[allow(clippy::cast_possible_truncation)]
    let width = (u64::BITS - max_index.leading_zeros()) as u8;
    width
}

/// Appends an index page to `out`: the bit width of indices into a dictionary of
/// `num_entries` entries, as one byte, then `indices` in the RLE/bit-packing hybrid at
/// that width.
///
/// # Panics
///
/// When `num_entries` exceeds `2^32`, which no index page can address.
pub fn encode_indices(indices: &[u32], num_entries: usize, out: &mut Vec<u8>) {
    let width = index_bit_width(num_entries);
    assert!(
        width <= 32,
        "a dictionary of {num_entries} entries cannot be indexed by u32"
    );
    out.push(width);
    parquet_rle::encode(indices, width, out);
}

#[cfg(test)]
mod tests;
