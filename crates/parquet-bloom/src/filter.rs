//! The split-block Bloom filter (SBBF): `z` blocks, a 64-bit hash choosing one by its
//! high 32 bits and setting or checking eight bits in it with its low 32 bits
//! (parquet-format.txt, "6 - Bloom Filter").
//!
//! ```text
//! filter_insert(h): block[((h >> 32) * z) >> 32].block_insert((u32) h)
//! filter_check(h):  block[((h >> 32) * z) >> 32].block_check((u32) h)
//! bitset:           the z blocks in order, 32 bytes each, every word little-endian
//! ```

use crate::arch;
use crate::block::{BLOCK_BYTES, Block};
use crate::hash::PlainHash;
use crate::sizing::{self, MAX_BYTES};
use parquet_core::{Error, Result};

/// A split-block Bloom filter that owns its bitset.
///
/// Built empty with [`new`](Self::new) or [`with_ndv_fpp`](Self::with_ndv_fpp) by a
/// writer, or from the bitset of a file with [`try_from_bitset`](Self::try_from_bitset)
/// by a reader. Values go in and are looked up by their hash ([`insert_hash`],
/// [`check_hash`], and the batch forms) or by value ([`insert`], [`check`]), hashed as
/// [`crate::hash`] describes.
///
/// [`insert_hash`]: Self::insert_hash
/// [`check_hash`]: Self::check_hash
/// [`insert`]: Self::insert
/// [`check`]: Self::check
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Sbbf {
    /// Between 1 and `MAX_BYTES / 32` blocks.
    blocks: Vec<Block>,
}

impl core::fmt::Debug for Sbbf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sbbf")
            .field("num_bytes", &self.num_bytes())
            .field("bits_set", &self.count_ones())
            .finish()
    }
}

impl Sbbf {
    /// Checks the size of a bitset, such as the `numBytes` of a `BloomFilterHeader`
    /// (an `i32` in the file), and returns it as a `usize`.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] for a size that is not a positive multiple of 32 (its `value`
    /// is the size's bit pattern); [`Error::LimitExceeded`] for one above [`MAX_BYTES`].
    pub fn validate_num_bytes(num_bytes: i64) -> Result<usize> {
        const WHAT: &str = "Bloom filter bitset length";
        let Ok(bytes) = usize::try_from(num_bytes) else {
            return Err(Error::invalid(WHAT, 0, num_bytes.cast_unsigned()));
        };
        if bytes == 0 || bytes % BLOCK_BYTES != 0 {
            return Err(Error::invalid(WHAT, 0, num_bytes.cast_unsigned()));
        }
        if bytes > MAX_BYTES {
            return Err(Error::LimitExceeded {
                what: WHAT,
                requested: num_bytes.cast_unsigned(),
                limit: MAX_BYTES as u64,
            });
        }
        Ok(bytes)
    }

    /// An empty filter of `num_bytes` bytes: any multiple of 32 from 32 to
    /// [`MAX_BYTES`] (writers use powers of two, as
    /// [`sizing::optimal_num_bytes`] gives).
    ///
    /// # Errors
    ///
    /// As [`validate_num_bytes`](Self::validate_num_bytes).
    pub fn new(num_bytes: usize) -> Result<Self> {
        let num_bytes = Self::validate_num_bytes(i64::try_from(num_bytes).unwrap_or(i64::MAX))?;
        Ok(Self {
            blocks: vec![Block::EMPTY; num_bytes / BLOCK_BYTES],
        })
    }

    /// An empty filter sized for `ndv` distinct values at false-positive probability
    /// `fpp`, at most [`MAX_BYTES`]: see [`sizing::optimal_num_bytes`].
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `fpp` is not in `(0, 1)`.
    pub fn with_ndv_fpp(ndv: u64, fpp: f64) -> Result<Self> {
        Self::new(sizing::optimal_num_bytes(ndv, fpp, MAX_BYTES)?)
    }

    /// The filter stored in `bitset`: the bytes that follow a `BloomFilterHeader` in a
    /// file, `numBytes` of them. Copies them; allocates `bitset.len()` bytes.
    ///
    /// # Errors
    ///
    /// As [`validate_num_bytes`](Self::validate_num_bytes) for `bitset.len()`. Any bytes
    /// of a valid length are a valid filter.
    pub fn try_from_bitset(bitset: &[u8]) -> Result<Self> {
        Self::validate_num_bytes(i64::try_from(bitset.len()).unwrap_or(i64::MAX))?;
        let blocks = bitset
            .chunks_exact(BLOCK_BYTES)
            .map(|chunk| {
                let mut bytes = [0; BLOCK_BYTES];
                bytes.copy_from_slice(chunk);
                Block::from_le_bytes(bytes)
            })
            .collect();
        Ok(Self { blocks })
    }

    /// The size of the bitset in bytes: the `numBytes` of its `BloomFilterHeader`.
    pub fn num_bytes(&self) -> usize {
        self.blocks.len() * BLOCK_BYTES
    }

    /// The number of blocks, `z`.
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// The blocks.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// Appends the bitset, as stored after the `BloomFilterHeader`, to `out`:
    /// [`num_bytes`](Self::num_bytes) bytes.
    pub fn write_bitset(&self, out: &mut Vec<u8>) {
        out.reserve(self.num_bytes());
        for block in &self.blocks {
            out.extend_from_slice(&block.to_le_bytes());
        }
    }

    /// The bitset, as stored after the `BloomFilterHeader`.
    pub fn to_bitset(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_bitset(&mut out);
        out
    }

    /// Bits set in the whole bitset: at most 8 per distinct value inserted.
    pub fn count_ones(&self) -> u64 {
        self.blocks
            .iter()
            .map(|block| u64::from(block.count_ones()))
            .sum()
    }

    /// Unsets every bit.
    pub fn clear(&mut self) {
        self.blocks.fill(Block::EMPTY);
    }

    /// The blocks, for the portable kernels.
    pub(crate) fn blocks_mut(&mut self) -> &mut [Block] {
        &mut self.blocks
    }

    /// The spec's `filter_insert`: adds a value by its hash.
    #[inline]
    pub fn insert_hash(&mut self, hash: u64) {
        arch::insert_hash(&mut self.blocks, hash);
    }

    /// The spec's `filter_check`: `false` when no value with this hash was inserted,
    /// `true` when one may have been.
    #[inline]
    pub fn check_hash(&self, hash: u64) -> bool {
        arch::check_hash(&self.blocks, hash)
    }

    /// Adds every value of a batch by its hash (from [`crate::hash`]).
    pub fn insert_hashes(&mut self, hashes: &[u64]) {
        arch::insert_hashes(&mut self.blocks, hashes);
    }

    /// Appends [`check_hash`](Self::check_hash) of each of `hashes` to `out`. The checks
    /// are independent and branch-free, so those of a batch overlap their memory reads:
    /// the way to probe a filter larger than the caches.
    pub fn check_hashes(&self, hashes: &[u64], out: &mut Vec<bool>) {
        let start = out.len();
        out.resize(start + hashes.len(), false);
        #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
        arch::check_hashes(&self.blocks, hashes, &mut out[start..]);
    }

    /// Whether any of `hashes` may have been inserted: an `IN (…)` predicate.
    pub fn check_any(&self, hashes: &[u64]) -> bool {
        arch::check_any(&self.blocks, hashes)
    }

    /// Adds a value: [`insert_hash`](Self::insert_hash) of its
    /// [`plain_hash`](PlainHash::plain_hash).
    #[inline]
    pub fn insert<T: PlainHash + ?Sized>(&mut self, value: &T) {
        self.insert_hash(value.plain_hash());
    }

    /// Looks up a value: [`check_hash`](Self::check_hash) of its
    /// [`plain_hash`](PlainHash::plain_hash).
    #[inline]
    pub fn check<T: PlainHash + ?Sized>(&self, value: &T) -> bool {
        self.check_hash(value.plain_hash())
    }
}
