//! Block kernels: 32 values of `W` bits ⇄ `W` little-endian `u32` words (`4 * W` bytes).
//!
//! Value `i` occupies bits `i * W .. (i + 1) * W` of the block, counting from the least
//! significant bit of the first word. Every shift, word index and mask below is a
//! compile-time constant once `W` is fixed, so each kernel is straight-line code that the
//! compiler can vectorize. The macros here generate safe code only; [`crate::arch`]
//! instantiates them, once portably and once per CPU feature level.

/// Values per block.
pub(crate) const BLOCK: usize = 32;

/// The unsigned integer types values are unpacked to and packed from. Public so that it
/// can bound the sealed `Packable`, but in a private module.
#[allow(unreachable_pub)]
pub trait Kernel: Copy + Default {
    /// Unpacks whole blocks: `out.len()` blocks from `out.len() * 4 * width` input bytes,
    /// with the fastest kernels this CPU runs.
    fn unpack_blocks(width: usize, input: &[u8], out: &mut [[Self; BLOCK]]);
    /// Packs whole blocks into `values.len() * 4 * width` bytes, with the fastest kernels
    /// this CPU runs.
    fn pack_blocks(width: usize, values: &[[Self; BLOCK]], out: &mut [u8]);
    /// As [`Kernel::unpack_blocks`], with the portable kernels.
    fn unpack_blocks_portable(width: usize, input: &[u8], out: &mut [[Self; BLOCK]]);
    /// As [`Kernel::pack_blocks`], with the portable kernels.
    fn pack_blocks_portable(width: usize, values: &[[Self; BLOCK]], out: &mut [u8]);
    /// The value's bits, zero-extended.
    fn to_u64(self) -> u64;
    /// The low bits of `value` (the caller has masked it to the type's width).
    fn from_u64(value: u64) -> Self;
}

// Inlined into each kernel so that it is compiled with the kernel's target features.
// Its callers pass a slice of exactly `4 * W` bytes and constant indices below `W`, so the
// bounds check folds away; out of bounds it would be a bug in this module, not the input.
#[allow(clippy::inline_always, clippy::indexing_slicing)]
#[inline(always)]
pub(crate) fn word(input: &[u8], index: usize) -> u32 {
    let mut bytes = [0; 4];
    bytes.copy_from_slice(&input[index * 4..index * 4 + 4]);
    u32::from_le_bytes(bytes)
}

/// Defines `unpack_block::<W>` and `pack_block::<W>` for one value type `$ty`, computing
/// in `$acc` (`u32`, or `u64` for values wider than 32 bits).
macro_rules! block_kernels {
    ($ty:ty, $acc:ty) => {
        // `input` is a `chunks_exact(4 * W)` chunk (see `unpack_loop`): the one slicing
        // check cannot fail, and lets every word index below (the highest is
        // `(31 * W + W - 1) / 32 < W`) go unchecked. `I < 32 = BLOCK`.
        #[allow(clippy::indexing_slicing)]
        #[inline(always)]
        fn unpack_block<const W: usize>(input: &[u8], out: &mut [$ty; BLOCK]) {
            let input = &input[..4 * W];
            let mask: $acc = if W == <$acc>::BITS as usize { <$acc>::MAX } else { (1 << W) - 1 };
            seq_macro::seq!(I in 0..32 {
                let start = I * W;
                let index = start / 32;
                let shift = start % 32;
                let mut value = <$acc>::from(word(input, index)) >> shift;
                if shift + W > 32 {
                    value |= <$acc>::from(word(input, index + 1)) << (32 - shift);
                }
                if shift + W > 64 {
                    value |= <$acc>::from(word(input, index + 2)) << ((64 - shift) % <$acc>::BITS as usize);
                }
                #[allow(clippy::cast_possible_truncation)] // masked to W bits, W <= type width
                {
                    out[I] = (value & mask) as $ty;
                }
            });
        }

        // `out` is a `chunks_exact_mut(4 * W)` chunk (see `pack_loop`); `I < 32 = BLOCK`;
        // word indices are below `W`, at most the `BITS` words of `words`.
        #[allow(clippy::indexing_slicing)]
        #[inline(always)]
        fn pack_block<const W: usize>(values: &[$ty; BLOCK], out: &mut [u8]) {
            let out = &mut out[..4 * W];
            let mask: $acc = if W == <$acc>::BITS as usize { <$acc>::MAX } else { (1 << W) - 1 };
            let mut words = [0u32; <$acc>::BITS as usize];
            seq_macro::seq!(I in 0..32 {
                let value = <$acc>::from(values[I]) & mask;
                let start = I * W;
                let index = start / 32;
                let shift = start % 32;
                #[allow(clippy::cast_possible_truncation)] // each word takes its 32 bits
                {
                    words[index] |= (value << shift) as u32;
                    if shift + W > 32 {
                        words[index + 1] |= (value >> (32 - shift)) as u32;
                    }
                    if shift + W > 64 {
                        words[index + 2] |= (value >> ((64 - shift) % <$acc>::BITS as usize)) as u32;
                    }
                }
            });
            for (bytes, word) in out.chunks_exact_mut(4).zip(&words[..W]) {
                bytes.copy_from_slice(&word.to_le_bytes());
            }
        }
    };
}

/// Defines, in a module named `$name`, `unpack_blocks` and `pack_blocks` for `$ty` at
/// widths `0..=$max`: a dispatch on the width to one loop per width, each loop compiled
/// with the attributes `$attr` (a `target_feature`, or nothing for the portable build).
/// Only the block kernel is inlined into a loop, so no function gets a large frame even
/// in an unoptimized build.
macro_rules! width_loops {
    ($name:ident, $ty:ty, $max:literal, $(#[$attr:meta])*) => {
        pub(crate) mod $name {
            use super::{BLOCK, pack_block, unpack_block};

            $(#[$attr])*
            pub(crate) fn unpack_blocks(width: usize, input: &[u8], out: &mut [[$ty; BLOCK]]) {
                if width == 0 {
                    out.fill([0; BLOCK]);
                    return;
                }
                seq_macro::seq!(W in 1..=$max {
                    if width == W {
                        return unpack_loop::<W>(input, out);
                    }
                });
            }

            $(#[$attr])*
            pub(crate) fn pack_blocks(width: usize, values: &[[$ty; BLOCK]], out: &mut [u8]) {
                seq_macro::seq!(W in 1..=$max {
                    if width == W {
                        return pack_loop::<W>(values, out);
                    }
                });
            }

            $(#[$attr])*
            fn unpack_loop<const W: usize>(input: &[u8], out: &mut [[$ty; BLOCK]]) {
                for (block, input) in out.iter_mut().zip(input.chunks_exact(4 * W)) {
                    unpack_block::<W>(input, block);
                }
            }

            $(#[$attr])*
            fn pack_loop<const W: usize>(values: &[[$ty; BLOCK]], out: &mut [u8]) {
                for (block, out) in values.iter().zip(out.chunks_exact_mut(4 * W)) {
                    pack_block::<W>(block, out);
                }
            }
        }
    };
}

pub(crate) use {block_kernels, width_loops};
