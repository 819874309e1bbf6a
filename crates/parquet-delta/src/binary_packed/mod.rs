//! DELTA_BINARY_PACKED (encoding 5), for INT32 and INT64.
//!
//! parquet-encodings.txt, "Delta Encoding (DELTA_BINARY_PACKED = 5)":
//!
//! ```text
//! encoding  := header block*
//! header    := <block size in values> <number of miniblocks in a block>
//!              <total value count> <first value>
//! block     := <min delta> <list of bitwidths of miniblocks> <miniblocks>
//!
//! block size        ULEB128, a multiple of 128
//! miniblock count   ULEB128, divides the block size into miniblocks of a multiple of 32 values
//! total value count ULEB128
//! first value       zigzag ULEB128
//! min delta         zigzag ULEB128
//! bit widths        one byte per miniblock
//! miniblock         (values per miniblock) deltas minus the min delta, bit-packed LSB-first
//!                   at the miniblock's bit width
//! ```
//!
//! Deltas are taken between consecutive values (the first delta from the first value in
//! the header); every subtraction and addition wraps in two's complement at the type's own
//! width, so the INT32 deltas this crate writes never exceed 32 bits (but see
//! [Leniency](#leniency) for what it reads).
//!
//! The last miniblock that holds values is padded to its full length (its padding bits
//! may hold anything); the bit widths of the miniblocks after it in the last block are
//! present but may hold anything, and their bodies are absent.
//!
//! ```
//! use parquet_delta::binary_packed::{self, Decoder, Params};
//!
//! let values: Vec<i64> = (0..1000).map(|i| 1_700_000_000_000 + i * 1000 + i % 7).collect();
//! let mut encoded = Vec::new();
//! binary_packed::encode(&values, Params::default(), &mut encoded);
//! encoded.extend_from_slice(b"whatever follows");
//!
//! let mut decoder = Decoder::<i64>::try_new(&encoded)?;
//! assert_eq!(decoder.remaining(), 1000);
//! // Where the encoding ends, without decoding it.
//! assert_eq!(&encoded[decoder.encoded_len()?..], b"whatever follows");
//!
//! let mut out = vec![0; 300];
//! assert_eq!(decoder.decode(&mut out)?, 300);
//! assert_eq!(out, values[..300]);
//! assert_eq!(decoder.skip(600)?, 600);
//! assert_eq!(decoder.decode(&mut out)?, 100);
//! assert_eq!(out[..100], values[900..]);
//! # Ok::<(), parquet_delta::Error>(())
//! ```
//!
//! # Leniency
//!
//! The first value and the min deltas are read as 64-bit zigzag varints for both types.
//! INT32 decoding is all modulo 2^32, as PARQUET-2435 asks of readers: the first value,
//! the min deltas and the deltas are truncated to their low 32 bits, and the sums wrap.
//! A writer that computes INT32 deltas in 64 bits therefore decodes to the same values as
//! one that wraps at 32 bits, as parquet-java reads them, even where its min delta falls
//! outside the `i32` range and its miniblocks are 33 bits wide (as they are for values
//! that span the whole INT32 range, such as `i32::MIN` next to `i32::MAX`, in files that
//! the duckdb writer makes). INT32 miniblocks may be up to 64 bits wide, like INT64 ones.
//!
//! Bit widths above 64 are [`Error::Invalid`] only in miniblocks that hold values; the
//! widths and padding of the others are never looked at.

mod decoder;
mod encoder;
#[cfg(test)]
pub(crate) mod tests;

pub use decoder::Decoder;
pub(crate) use decoder::Lengths;
pub use encoder::{Encoder, encode};

use parquet_core::{Error, Result};

/// Values in a block must be a multiple of this.
pub const BLOCK_SIZE_MULTIPLE: usize = 128;
/// Values in a miniblock must be a multiple of this.
pub const MINIBLOCK_SIZE_MULTIPLE: usize = 32;

/// The shape of the blocks an [`Encoder`] writes: values per block and miniblocks per
/// block. The default is 128 values in 4 miniblocks of 32, as parquet-java and arrow
/// write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Params {
    block_size: usize,
    miniblocks: usize,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            block_size: 128,
            miniblocks: 4,
        }
    }
}

impl Params {
    /// Blocks of `block_size` values in `miniblocks` miniblocks.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] unless `block_size` is a positive multiple of 128 and
    /// `miniblocks` divides it into miniblocks of a multiple of 32 values; also when a
    /// block size does not fit in 32 bits.
    pub fn new(block_size: usize, miniblocks: usize) -> Result<Self> {
        Layout::new((block_size, 0), (miniblocks, 0), Rules::Spec).map(|_| Self {
            block_size,
            miniblocks,
        })
    }

    /// Blocks of any size that is a multiple of 8, in miniblocks of 8, 16 or 24 values or
    /// a multiple of 32: the examples of the specification, which no real writer may use.
    #[cfg(test)]
    pub(crate) fn small(block_size: usize, miniblocks: usize) -> Self {
        assert!(Layout::new((block_size, 0), (miniblocks, 0), Rules::Small).is_ok());
        Self {
            block_size,
            miniblocks,
        }
    }

    /// Values per block.
    pub const fn block_size(self) -> usize {
        self.block_size
    }

    /// Miniblocks per block.
    pub const fn miniblocks(self) -> usize {
        self.miniblocks
    }

    /// Values per miniblock.
    pub const fn miniblock_len(self) -> usize {
        self.block_size / self.miniblocks
    }
}

/// Which block shapes a header may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rules {
    /// As the specification requires.
    Spec,
    /// Also blocks of multiples of 8 values and miniblocks of 8, 16 or 24 values, for the
    /// specification's examples.
    #[cfg(test)]
    Small,
}

/// A validated block shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) block_size: usize,
    pub(crate) miniblocks: usize,
    pub(crate) miniblock_len: usize,
    /// Values unpacked at a time: 32, or a whole miniblock of fewer values under
    /// [`Rules::Small`].
    pub(crate) group_len: usize,
}

impl Layout {
    /// Checks a block shape: the block size and the miniblock count, each with the offset
    /// where it was read (which errors report).
    pub(crate) fn new(
        (block_size, block_at): (usize, usize),
        (miniblocks, miniblocks_at): (usize, usize),
        rules: Rules,
    ) -> Result<Self> {
        let block_multiple = match rules {
            Rules::Spec => BLOCK_SIZE_MULTIPLE,
            #[cfg(test)]
            Rules::Small => 8,
        };
        if block_size == 0
            || !block_size.is_multiple_of(block_multiple)
            || u32::try_from(block_size).is_err()
        {
            return Err(Error::invalid(
                "block size (must be a positive multiple of 128)",
                block_at,
                block_size as u64,
            ));
        }
        let miniblock_len = block_size.checked_div(miniblocks).unwrap_or(0);
        let group_len = match rules {
            _ if miniblock_len.is_multiple_of(MINIBLOCK_SIZE_MULTIPLE) => MINIBLOCK_SIZE_MULTIPLE,
            #[cfg(test)]
            Rules::Small if matches!(miniblock_len, 8 | 16 | 24) => miniblock_len,
            _ => 0,
        };
        if miniblock_len == 0 || miniblock_len * miniblocks != block_size || group_len == 0 {
            return Err(Error::invalid(
                "miniblock count (must divide the block size into multiples of 32 values)",
                miniblocks_at,
                miniblocks as u64,
            ));
        }
        Ok(Self {
            block_size,
            miniblocks,
            miniblock_len,
            group_len,
        })
    }
}

mod sealed {
    use parquet_bitpack::{BLOCK_LEN, Packable};
    use parquet_core::zigzag;

    /// The unsigned type in which a value type's arithmetic wraps.
    #[allow(unreachable_pub)]
    pub trait Word: Packable + Eq + core::fmt::Debug {
        /// Bits in the type.
        const BITS: u8;
        /// Zero.
        const ZERO: Self;
        /// `self + other`, wrapping.
        fn add(self, other: Self) -> Self;
        /// `self - other`, wrapping.
        fn sub(self, other: Self) -> Self;
        /// `self * other`, wrapping.
        fn mul(self, other: Self) -> Self;
        /// `self | other`.
        fn or(self, other: Self) -> Self;
        /// Whether `self < other` as two's complement signed numbers.
        fn signed_lt(self, other: Self) -> bool;
        /// Bits needed to hold `self`.
        fn bit_width(self) -> u8;
        /// `value` reduced modulo 2^BITS.
        fn from_usize(value: usize) -> Self;
        /// `value`, zero-extended.
        fn from_u32(value: u32) -> Self;
        /// `value` reduced modulo 2^BITS.
        fn from_i64(value: i64) -> Self;
        /// The zigzag encoding of `self` read as a signed number of the type's width.
        fn zigzag(self) -> u64;
        /// `self` read as a signed number of the type's width.
        fn signed(self) -> i128;
        /// `self` read as an unsigned number.
        fn unsigned(self) -> i128;
        /// The bits of `value` as a signed number of the type's width, saturated to its
        /// range.
        fn saturating_from(value: i128) -> Self;
        /// Bytes in the type.
        const SIZE: usize;
        /// The little-endian word `index` of `words`, a block packed at the type's full
        /// width (`BLOCK_LEN * SIZE` bytes).
        fn word(words: &[u8], index: usize) -> Self;
        /// Reads `out.len()` blocks packed at the type's full width, which are plain
        /// little-endian words, from the start of `input`, and returns the bytes used;
        /// `None` when `input` is too short.
        fn read_words(input: &[u8], out: &mut [[Self; BLOCK_LEN]]) -> Option<usize>;
    }

    macro_rules! word {
        ($ty:ty, $signed:ty, $zigzag:path) => {
            impl Word for $ty {
                #[allow(clippy::cast_possible_truncation)] // 32 or 64
                const BITS: u8 = <$ty>::BITS as u8;
                const ZERO: Self = 0;
                #[inline]
                fn add(self, other: Self) -> Self {
                    self.wrapping_add(other)
                }
                #[inline]
                fn sub(self, other: Self) -> Self {
                    self.wrapping_sub(other)
                }
                #[inline]
                fn mul(self, other: Self) -> Self {
                    self.wrapping_mul(other)
                }
                #[inline]
                fn or(self, other: Self) -> Self {
                    self | other
                }
                #[inline]
                fn signed_lt(self, other: Self) -> bool {
                    self.cast_signed() < other.cast_signed()
                }
                #[inline]
                #[allow(clippy::cast_possible_truncation)] // at most 64
                fn bit_width(self) -> u8 {
                    (<$ty>::BITS - self.leading_zeros()) as u8
                }
                #[inline]
                #[allow(clippy::cast_possible_truncation)] // documented: modulo 2^BITS
                fn from_usize(value: usize) -> Self {
                    value as $ty
                }
                #[inline]
                fn from_u32(value: u32) -> Self {
                    value.into()
                }
                #[inline]
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // documented
                fn from_i64(value: i64) -> Self {
                    value as $ty
                }
                #[inline]
                fn zigzag(self) -> u64 {
                    $zigzag(self.cast_signed()).into()
                }
                #[inline]
                fn signed(self) -> i128 {
                    self.cast_signed().into()
                }
                #[inline]
                fn unsigned(self) -> i128 {
                    self.into()
                }
                #[inline]
                #[allow(clippy::cast_possible_truncation)] // clamped to the type's range
                fn saturating_from(value: i128) -> Self {
                    let clamped = value.clamp(<$signed>::MIN.into(), <$signed>::MAX.into());
                    (clamped as $signed).cast_unsigned()
                }
                const SIZE: usize = <$ty>::BITS as usize / 8;
                #[inline]
                // Its one caller passes a group of `BLOCK_LEN` words and `index < BLOCK_LEN`.
                #[allow(clippy::indexing_slicing)]
                fn word(words: &[u8], index: usize) -> Self {
                    let (words, _) = words.as_chunks::<{ <$ty>::BITS as usize / 8 }>();
                    <$ty>::from_le_bytes(words[index])
                }
                #[inline]
                fn read_words(input: &[u8], out: &mut [[Self; BLOCK_LEN]]) -> Option<usize> {
                    const SIZE: usize = <$ty>::BITS as usize / 8;
                    let len = out.len() * BLOCK_LEN * SIZE;
                    let (words, _) = input.get(..len)?.as_chunks::<SIZE>();
                    for (slot, word) in out.as_flattened_mut().iter_mut().zip(words) {
                        *slot = <$ty>::from_le_bytes(*word);
                    }
                    Some(len)
                }
            }
        };
    }

    word!(u32, i32, zigzag::encode_i32);
    word!(u64, i64, zigzag::encode_i64);

    /// Seals [`super::Integer`] and carries what the codec needs of a value type.
    #[allow(unreachable_pub)]
    pub trait Sealed: Copy + Default {
        /// The unsigned type of the same width, in which arithmetic wraps.
        type Bits: Word;
        /// Whether values are lengths, taken exactly rather than modulo 2^BITS (see
        /// [`super::Length`]). A constant, so that the checks it needs are compiled out
        /// of the decoders of `i32` and `i64`.
        const EXACT: bool = false;
        /// The value's bits.
        fn to_bits(self) -> Self::Bits;
        /// The value with these bits.
        fn from_bits(bits: Self::Bits) -> Self;
    }

    impl Sealed for i32 {
        type Bits = u32;
        #[inline]
        fn to_bits(self) -> u32 {
            self.cast_unsigned()
        }
        #[inline]
        fn from_bits(bits: u32) -> Self {
            bits.cast_signed()
        }
    }

    impl Sealed for i64 {
        type Bits = u64;
        #[inline]
        fn to_bits(self) -> u64 {
            self.cast_unsigned()
        }
        #[inline]
        fn from_bits(bits: u64) -> Self {
            bits.cast_signed()
        }
    }
}

/// The value types DELTA_BINARY_PACKED encodes: `i32` (INT32) and `i64` (INT64).
pub trait Integer: sealed::Sealed + PartialEq + core::fmt::Debug + Send + Sync + 'static {}

impl Integer for i32 {}
impl Integer for i64 {}

/// A length (of a byte array, or of a prefix) in a DELTA_BINARY_PACKED stream of them, as
/// the byte-array decoders read it: exactly, not modulo 2^32 as INT32 values are (see
/// [`Decoder::lengths_at`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Length(pub(crate) i64);

impl sealed::Sealed for Length {
    type Bits = u64;
    const EXACT: bool = true;
    #[inline]
    fn to_bits(self) -> u64 {
        self.0.cast_unsigned()
    }
    #[inline]
    fn from_bits(bits: u64) -> Self {
        Self(bits.cast_signed())
    }
}

impl Integer for Length {}
