//! The filter's loops over hashes, written once as safe code and instantiated by
//! [`crate::arch`] for each build: portable, and on x86-64 once more compiled for AVX2,
//! where a block's mask is one vector multiply, shift and variable shift (`vpsllvd`) and
//! its check one `vptest`.
//!
//! Every helper they call is `#[inline(always)]`, so that the whole loop body is compiled
//! with the target features of the function it lands in.

/// The spec's block index, `((hash >> 32) * z) >> 32`, below `z = blocks.len()` for any
/// `z < 2^32`.
// Inlined into each kernel so that it is compiled with the kernel's target features.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn block_index(hash: u64, num_blocks: usize) -> usize {
    // z <= MAX_BYTES / 32 < 2^32, so the product fits in 64 bits and the index, below z,
    // fits in a usize.
    #[allow(clippy::cast_possible_truncation)]
    let index = (((hash >> 32) * num_blocks as u64) >> 32) as usize;
    index
}

/// The key for the block operations: the low 32 bits of the hash.
// Inlined into each kernel so that it is compiled with the kernel's target features.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn key(hash: u64) -> u32 {
    #[allow(clippy::cast_possible_truncation)]
    let key = hash as u32;
    key
}

/// Defines `insert_hash`, `check_hash`, `insert_hashes`, `check_hashes` and `check_any`
/// over a slice of blocks in the current module, each with the given attributes.
///
/// Each indexes `blocks` with [`block_index`], which is below `blocks.len()` whenever
/// that is not 0, and a filter has at least one block (the invariant of `Sbbf`'s
/// `blocks`): the indexing cannot fail.
macro_rules! filter_kernels {
    ($(#[$attr:meta])*) => {
        use crate::block::Block;
        use crate::kernels::{block_index, key};

        $(#[$attr])*
        #[allow(clippy::indexing_slicing)] // `block_index` is below `blocks.len()`
        pub(crate) fn insert_hash(blocks: &mut [Block], hash: u64) {
            let index = block_index(hash, blocks.len());
            blocks[index].insert(key(hash));
        }

        $(#[$attr])*
        #[allow(clippy::indexing_slicing)] // `block_index` is below `blocks.len()`
        pub(crate) fn check_hash(blocks: &[Block], hash: u64) -> bool {
            blocks[block_index(hash, blocks.len())].check(key(hash))
        }

        $(#[$attr])*
        #[allow(clippy::indexing_slicing)] // `block_index` is below `blocks.len()`
        pub(crate) fn insert_hashes(blocks: &mut [Block], hashes: &[u64]) {
            let num_blocks = blocks.len();
            for &hash in hashes {
                blocks[block_index(hash, num_blocks)].insert(key(hash));
            }
        }

        /// Writes the check of `hashes[i]` to `out[i]`, for `i` below the shorter length.
        $(#[$attr])*
        #[allow(clippy::indexing_slicing)] // `block_index` is below `blocks.len()`
        pub(crate) fn check_hashes(blocks: &[Block], hashes: &[u64], out: &mut [bool]) {
            let num_blocks = blocks.len();
            for (found, &hash) in out.iter_mut().zip(hashes) {
                *found = blocks[block_index(hash, num_blocks)].check(key(hash));
            }
        }

        $(#[$attr])*
        #[allow(clippy::indexing_slicing)] // `block_index` is below `blocks.len()`
        pub(crate) fn check_any(blocks: &[Block], hashes: &[u64]) -> bool {
            let num_blocks = blocks.len();
            let mut any = false;
            for &hash in hashes {
                any |= blocks[block_index(hash, num_blocks)].check(key(hash));
            }
            any
        }
    };
}

pub(crate) use filter_kernels;
