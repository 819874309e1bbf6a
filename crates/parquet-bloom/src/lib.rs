//! Parquet's split-block Bloom filter (parquet-format.txt, "6 - Bloom Filter"): the
//! filter, its hash and its sizing.
//!
//! - [`Sbbf`]: the filter, `z` blocks of 256 bits; insert and check by 64-bit hash
//!   (one at a time or in batches) or by value; read from and written to the bitset that
//!   follows a `BloomFilterHeader` in a file (the thrift header itself is the file
//!   crate's business). [`block`] holds the block, its salt and its `mask`.
//! - [`hash`]: XXH64 with seed 0 over a value's PLAIN encoding, for every physical type
//!   but BOOLEAN (for which Parquet defines no Bloom filter), one value at a time or a
//!   batch at once; the [`PlainHash`] trait behind [`Sbbf::insert`] and [`Sbbf::check`].
//! - [`sizing`]: the bitset size for a number of distinct values and a false-positive
//!   probability, by the formula other writers use ([`sizing::optimal_num_bytes`]) or by
//!   the rate a size really has ([`sizing::expected_fpp`],
//!   [`sizing::num_bytes_for_expected_fpp`]).
//!
//! ```
//! use parquet_bloom::{Sbbf, sizing};
//!
//! // Room for 10,000 distinct values at a 1% false-positive rate: 16 KiB.
//! let num_bytes = sizing::optimal_num_bytes(10_000, 0.01, sizing::MAX_BYTES)?;
//! assert_eq!(num_bytes, 16 << 10);
//! let mut filter = Sbbf::new(num_bytes)?;
//! for i in 0..10_000_i64 {
//!     filter.insert(&i);
//! }
//! filter.insert("parquet");
//! assert!(filter.check(&1234_i64) && filter.check("parquet"));
//! assert!(!filter.check("arrow"));
//! // The rate the filter can be expected to have, probes for values not inserted.
//! assert!(sizing::expected_fpp(num_bytes, 10_001) < 0.01);
//!
//! // A writer stores the bitset after the thrift header; a reader reads it back.
//! let mut bitset = Vec::new();
//! filter.write_bitset(&mut bitset);
//! assert_eq!(bitset.len(), filter.num_bytes());
//! let read = Sbbf::try_from_bitset(&bitset)?;
//! assert_eq!(read, filter);
//! # Ok::<(), parquet_bloom::Error>(())
//! ```
//!
//! # Errors, panics and allocation
//!
//! [`Sbbf::try_from_bitset`] accepts any bytes whose length is a positive multiple of 32
//! up to [`sizing::MAX_BYTES`] (128 MiB) and returns [`Error`] (the error type shared by
//! the parquet-kit codec crates) for any other length; every bit pattern is a valid
//! filter. It allocates as much as its input. The sizing functions return an error for a
//! false-positive probability outside `(0, 1)`. Nothing panics, on any input.
//!
//! # Features and speed
//!
//! No cargo features. The filter's loops are safe code, compiled twice: portably and, on
//! x86-64, for AVX2, chosen at run time when the CPU has it, where a block's mask takes
//! one vector multiply and two shifts and its check one `vptest` (several times faster
//! than the portable build, which has no per-lane variable shift). All `unsafe`, the
//! calls into that build after the CPU check, is in one private module, `arch`; the
//! tests check both builds against each other and a bit-by-bit reference. [`portable`]
//! runs the portable build on any CPU.
#![deny(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod arch;
pub mod block;
mod filter;
pub mod hash;
mod kernels;
pub mod sizing;

/// The batch operations of [`Sbbf`] in their portable build, without run-time CPU
/// feature selection: the reference the AVX2 build is tested and benchmarked against.
pub mod portable {
    use crate::{Sbbf, arch};

    /// As [`Sbbf::insert_hashes`], always with the portable build.
    pub fn insert_hashes(filter: &mut Sbbf, hashes: &[u64]) {
        arch::portable::insert_hashes(filter.blocks_mut(), hashes);
    }

    /// As [`Sbbf::check_hashes`], always with the portable build.
    pub fn check_hashes(filter: &Sbbf, hashes: &[u64], out: &mut Vec<bool>) {
        let start = out.len();
        out.resize(start + hashes.len(), false);
        #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
        arch::portable::check_hashes(filter.blocks(), hashes, &mut out[start..]);
    }

    /// As [`Sbbf::insert_hash`], always with the portable build.
    pub fn insert_hash(filter: &mut Sbbf, hash: u64) {
        arch::portable::insert_hash(filter.blocks_mut(), hash);
    }

    /// As [`Sbbf::check_hash`], always with the portable build.
    pub fn check_hash(filter: &Sbbf, hash: u64) -> bool {
        arch::portable::check_hash(filter.blocks(), hash)
    }

    /// As [`Sbbf::check_any`], always with the portable build.
    pub fn check_any(filter: &Sbbf, hashes: &[u64]) -> bool {
        arch::portable::check_any(filter.blocks(), hashes)
    }
}

pub use filter::Sbbf;
pub use hash::PlainHash;
pub use parquet_core::{Error, Result};

#[cfg(test)]
mod tests;
