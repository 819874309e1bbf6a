//! The kernels of [`crate::kernels`], instantiated for each value type: once portably and,
//! on x86-64, once more compiled for AVX2, where the compiler turns each block into
//! vector shuffles and per-lane shifts. The AVX2 build is chosen at run time when the CPU
//! has it, so a default build (x86-64 baseline) runs as fast as a `target-cpu=native` one.
//!
//! This module is the only place in the crate with `unsafe`: the calls into the AVX2
//! build, each after checking that the CPU supports it.
#![allow(unsafe_code)]

use crate::kernels::{BLOCK, Kernel, block_kernels, width_loops, word};

macro_rules! instantiate {
    ($module:ident, $ty:ty, $acc:ty, $max:literal) => {
        mod $module {
            use super::{BLOCK, Kernel, block_kernels, width_loops, word};

            block_kernels!($ty, $acc);
            width_loops!(portable, $ty, $max,);
            #[cfg(target_arch = "x86_64")]
            width_loops!(avx2, $ty, $max, #[target_feature(enable = "avx2")]);

            impl Kernel for $ty {
                #[inline]
                fn unpack_blocks(width: usize, input: &[u8], out: &mut [[Self; BLOCK]]) {
                    #[cfg(target_arch = "x86_64")]
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: `avx2::unpack_blocks` needs AVX2, which this CPU has
                        // (checked on the line above).
                        unsafe { avx2::unpack_blocks(width, input, out) };
                        return;
                    }
                    portable::unpack_blocks(width, input, out);
                }

                #[inline]
                fn pack_blocks(width: usize, values: &[[Self; BLOCK]], out: &mut [u8]) {
                    #[cfg(target_arch = "x86_64")]
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: `avx2::pack_blocks` needs AVX2, which this CPU has
                        // (checked on the line above).
                        unsafe { avx2::pack_blocks(width, values, out) };
                        return;
                    }
                    portable::pack_blocks(width, values, out);
                }

                fn unpack_blocks_portable(width: usize, input: &[u8], out: &mut [[Self; BLOCK]]) {
                    portable::unpack_blocks(width, input, out);
                }

                fn pack_blocks_portable(width: usize, values: &[[Self; BLOCK]], out: &mut [u8]) {
                    portable::pack_blocks(width, values, out);
                }

                #[inline(always)]
                fn to_u64(self) -> u64 {
                    self.into()
                }

                #[inline(always)]
                #[allow(clippy::cast_possible_truncation)] // documented: the caller masks
                fn from_u64(value: u64) -> Self {
                    value as $ty
                }
            }
        }
    };
}

instantiate!(for_u8, u8, u32, 8);
instantiate!(for_u16, u16, u32, 16);
instantiate!(for_u32, u32, u32, 32);
instantiate!(for_u64, u64, u64, 64);
