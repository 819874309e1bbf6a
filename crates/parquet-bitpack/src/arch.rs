//! The kernels of [`crate::kernels`], instantiated for each value type: once portably and,
//! on x86-64, once more compiled for AVX2, where the compiler turns each block into
//! vector shuffles and per-lane shifts; plus a hand-written AVX2 kernel for the hottest
//! case, unpacking to `u32`. The AVX2 builds are chosen at run time when the CPU has AVX2,
//! so a default build (x86-64 baseline) runs as fast as a `target-cpu=native` one.
//!
//! This module is the only place in the crate with `unsafe`: the calls into the AVX2
//! builds, each after checking that the CPU supports it, and the vector loads and stores
//! of the hand-written kernel, each after a bounds check.
#![allow(unsafe_code)]

use crate::kernels::{BLOCK, Kernel, block_kernels, width_loops, word};

macro_rules! instantiate {
    ($module:ident, $ty:ty, $acc:ty, $max:literal, $unpack_avx2:path) => {
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
                        // SAFETY: the AVX2 unpacking needs AVX2, which this CPU has
                        // (checked on the line above).
                        unsafe { $unpack_avx2(width, input, out) };
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

instantiate!(for_u8, u8, u32, 8, avx2::unpack_blocks);
instantiate!(for_u16, u16, u32, 16, avx2::unpack_blocks);
instantiate!(for_u32, u32, u32, 32, super::shuffle_u32::unpack_blocks);
instantiate!(for_u64, u64, u64, 64, avx2::unpack_blocks);

/// Unpacking to `u32` with explicit AVX2 byte shuffles and per-lane shifts.
///
/// Eight values of `W` bits take exactly `W` bytes, starting on a byte boundary, so one
/// shuffle pattern and one shift vector per width serve every group of eight: two 16-byte
/// loads (one for lanes 0-3, one for lanes 4-7), `vpshufb` to put the 4 bytes holding each
/// value into its lane, `vpsrlvd` to drop the bits below it, and a mask. Widths whose
/// values can straddle 5 bytes (26 to 31) add a second shuffle for the fifth byte, shifted
/// left into place. The groups near the end of the input, where a 16-byte load would run
/// past it, go to the autovectorized kernels.
#[cfg(target_arch = "x86_64")]
mod shuffle_u32 {
    use super::for_u32::avx2 as fallback;
    use crate::kernels::BLOCK;
    use core::arch::x86_64::{
        __m128i, __m256i, _mm_loadu_si128, _mm256_and_si256, _mm256_loadu_si256, _mm256_or_si256,
        _mm256_set_m128i, _mm256_set1_epi32, _mm256_shuffle_epi8, _mm256_sllv_epi32,
        _mm256_srlv_epi32, _mm256_storeu_si256,
    };

    /// The constants for one width.
    #[derive(Clone, Copy)]
    struct Plan {
        /// Offset of the second 16-byte load, for lanes 4-7: the byte where lane 4 starts.
        high: usize,
        /// For each lane, the 4 bytes that hold its value (0x80: none).
        low_bytes: [u8; 32],
        /// For each lane, the bit offset of its value in its first byte.
        low_shift: [u32; 8],
        /// For each lane, its fifth byte when the value reaches into it.
        fifth_byte: [u8; 32],
        /// For each lane, where the fifth byte's bits go (32: nowhere).
        fifth_shift: [u32; 8],
        /// Whether any lane needs a fifth byte.
        wide: bool,
    }

    // Evaluated at compile time only (for `PLANS`): an index out of bounds here is a
    // compile error, not a run-time panic.
    #[allow(clippy::cast_possible_truncation)] // byte indices < 16, shifts <= 32
    #[allow(clippy::indexing_slicing)]
    const fn plan(width: usize) -> Plan {
        let high = 4 * width / 8;
        let mut plan = Plan {
            high,
            low_bytes: [0x80; 32],
            low_shift: [0; 8],
            fifth_byte: [0x80; 32],
            fifth_shift: [32; 8],
            wide: false,
        };
        let mut lane = 0;
        while lane < 8 {
            let bit = lane * width;
            let base = if lane < 4 { 0 } else { high };
            let first = bit / 8 - base;
            let shift = bit % 8;
            let slot = (lane / 4) * 16 + (lane % 4) * 4;
            let mut b = 0;
            while b < 4 {
                // Bytes past the value's last are masked off below; keep them in the window.
                let index = first + b;
                plan.low_bytes[slot + b] = if index < 16 { index as u8 } else { 0x80 };
                b += 1;
            }
            plan.low_shift[lane] = shift as u32;
            if shift + width > 32 {
                assert!(
                    first + 4 < 16,
                    "a value's fifth byte must lie in its 16-byte window"
                );
                plan.fifth_byte[slot] = (first + 4) as u8;
                plan.fifth_shift[lane] = (32 - shift) as u32;
                plan.wide = true;
            }
            // Every byte a value needs must lie in its window.
            assert!(first + (shift + width).div_ceil(8) <= 16);
            lane += 1;
        }
        plan
    }

    /// Plans for widths 0..=31 (0 unused), computed at compile time.
    #[allow(clippy::indexing_slicing)] // compile time: out of bounds does not build
    const PLANS: [Plan; 32] = {
        let mut plans = [plan(1); 32];
        let mut width = 1;
        while width < 32 {
            plans[width] = plan(width);
            width += 1;
        }
        plans
    };

    #[target_feature(enable = "avx2")]
    fn load_bytes(bytes: &[u8; 32]) -> __m256i {
        // SAFETY: reads the 32 bytes of `bytes`; unaligned loads are allowed.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx2")]
    fn load_lanes(lanes: &[u32; 8]) -> __m256i {
        // SAFETY: reads the 32 bytes of `lanes`; unaligned loads are allowed.
        unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
    }

    /// Unpacks whole blocks of `u32`, as `Kernel::unpack_blocks`.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn unpack_blocks(width: usize, input: &[u8], out: &mut [[u32; BLOCK]]) {
        if width == 0 || width >= 32 {
            fallback::unpack_blocks(width, input, out);
            return;
        }
        #[allow(clippy::indexing_slicing)] // `0 < width < 32 = PLANS.len()`, checked above
        let plan = &PLANS[width];
        // Groups of eight whose two 16-byte loads stay inside the input, rounded down to
        // whole blocks; the caller guarantees `input` holds every block. Usually all of
        // them do, which one multiplication tells without a division.
        let groups = 4 * out.len();
        let last_load_end = groups
            .saturating_sub(1)
            .saturating_mul(width)
            .saturating_add(plan.high + 16);
        let simd_blocks = if last_load_end <= input.len() {
            out.len()
        } else {
            let safe_groups = input
                .len()
                .checked_sub(plan.high + 16)
                .map_or(0, |room| room / width + 1);
            (safe_groups / 4).min(out.len())
        };
        let (head, tail) = out.split_at_mut(simd_blocks);
        let values = head.as_flattened_mut();

        let low_bytes = load_bytes(&plan.low_bytes);
        let low_shift = load_lanes(&plan.low_shift);
        let fifth_byte = load_bytes(&plan.fifth_byte);
        let fifth_shift = load_lanes(&plan.fifth_shift);
        let mask = _mm256_set1_epi32(((1u32 << width) - 1).cast_signed());

        for (group, chunk) in values.chunks_exact_mut(8).enumerate() {
            let start = group * width;
            // `_mm_loadu_si128` has no alignment requirement.
            #[allow(clippy::cast_ptr_alignment)]
            // SAFETY: `group < 4 * simd_blocks`, and `simd_blocks` counts only groups whose
            // `start + plan.high + 16 <= input.len()`: both 16-byte loads are in bounds.
            let (low, high) = unsafe {
                let base = input.as_ptr().add(start);
                (
                    _mm_loadu_si128(base.cast::<__m128i>()),
                    _mm_loadu_si128(base.add(plan.high).cast::<__m128i>()),
                )
            };
            let window = _mm256_set_m128i(high, low);
            let mut lanes = _mm256_srlv_epi32(_mm256_shuffle_epi8(window, low_bytes), low_shift);
            if plan.wide {
                let fifth = _mm256_sllv_epi32(_mm256_shuffle_epi8(window, fifth_byte), fifth_shift);
                lanes = _mm256_or_si256(lanes, fifth);
            }
            let lanes: __m256i = _mm256_and_si256(lanes, mask);
            // SAFETY: `chunk` is 8 `u32`s, 32 bytes, the size of the store.
            unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), lanes) };
        }
        // A group's two loads (`plan.high + 16` bytes from its start) cover its `width`
        // bytes, and `simd_blocks` counts only blocks whose loads stay inside `input`:
        // `simd_blocks * 4 * width <= input.len()`.
        #[allow(clippy::indexing_slicing)]
        fallback::unpack_blocks(width, &input[simd_blocks * 4 * width..], tail);
    }
}
