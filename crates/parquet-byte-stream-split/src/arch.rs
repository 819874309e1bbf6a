//! The kernels of [`crate::kernels`] for the widths 2, 4, 8 and 16, instantiated twice:
//! portably and, on x86-64, compiled for AVX2. The AVX2 build is chosen at run time when
//! the CPU has it, so a default build (x86-64 baseline) runs as fast as a
//! `target-cpu=native` one.
//!
//! The portable build widens at every width. The AVX2 build interleaves at widths 4 and
//! 8 (8 as pairs of streams, then four streams of 2-byte lanes), which the compiler turns
//! into 32-byte unpacking shuffles, and widens at 2 and 16; both split by narrowing. On
//! the benchmarks (Zen 4), decoding FLOAT with the AVX2 build takes a quarter to a third
//! of the portable build's time, DOUBLE a quarter to three quarters (the more of the
//! data in cache, the larger the gain).
//!
//! This module is the only place in the crate with `unsafe`: the calls into the AVX2
//! build, each after checking that the CPU supports it.
#![allow(unsafe_code)]

/// Which build of the kernels to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kernels {
    /// The fastest build this CPU runs.
    Detect,
    /// The portable build, whatever the CPU.
    Portable,
}

macro_rules! instantiate {
    (
        $module:ident,
        [$j2:ident, $j4:ident, $j8:ident, $j16:ident],
        [$s2:ident, $s4:ident, $s8:ident, $s16:ident],
        $(#[$attr:meta])*
    ) => {
        pub(crate) mod $module {
            use crate::kernels;

            instantiate!(@join $(#[$attr])* join_2 = $j2, 2);
            instantiate!(@join $(#[$attr])* join_4 = $j4, 4);
            instantiate!(@join $(#[$attr])* join_8 = $j8, 8);
            instantiate!(@join $(#[$attr])* join_16 = $j16, 16);
            instantiate!(@split $(#[$attr])* split_2 = $s2, 2);
            instantiate!(@split $(#[$attr])* split_4 = $s4, 4);
            instantiate!(@split $(#[$attr])* split_8 = $s8, 8);
            instantiate!(@split $(#[$attr])* split_16 = $s16, 16);
        }
    };
    (@join $(#[$attr:meta])* $name:ident = $kernel:ident, $k:literal) => {
        $(#[$attr])*
        pub(crate) fn $name<L>(
            input: &[u8],
            stride: usize,
            first: usize,
            out: &mut [L],
            from: impl Fn([u8; $k]) -> L,
        ) {
            kernels::$kernel(input, stride, first, out, from);
        }
    };
    (@split $(#[$attr:meta])* $name:ident = $kernel:ident, $k:literal) => {
        $(#[$attr])*
        pub(crate) fn $name<L: Copy>(values: &[L], out: &mut [u8], to: impl Fn(L) -> [u8; $k]) {
            kernels::$kernel(values, out, to);
        }
    };
}

instantiate!(
    portable,
    [join_2, join_4, join_8, join_16],
    [split_2, split_4, split_8, split_16],
);
#[cfg(target_arch = "x86_64")]
instantiate!(
    avx2,
    [join_2, interleave_4, interleave_8, join_16],
    [split_2, split_4, split_8, split_16],
    #[target_feature(enable = "avx2")]
);

/// Whether to run the AVX2 build.
#[cfg(target_arch = "x86_64")]
#[inline]
fn use_avx2(kernels: Kernels) -> bool {
    kernels == Kernels::Detect && std::is_x86_feature_detected!("avx2")
}

macro_rules! dispatch {
    (join $name:ident, $k:literal) => {
        /// Joins values from their streams with the chosen build of the kernel.
        #[inline]
        pub(crate) fn $name<L>(
            kernels: Kernels,
            input: &[u8],
            stride: usize,
            first: usize,
            out: &mut [L],
            from: impl Fn([u8; $k]) -> L,
        ) {
            #[cfg(target_arch = "x86_64")]
            if use_avx2(kernels) {
                // SAFETY: the AVX2 build needs AVX2, which this CPU has (checked by
                // `use_avx2` on the line above).
                unsafe { avx2::$name(input, stride, first, out, from) };
                return;
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = kernels;
            portable::$name(input, stride, first, out, from);
        }
    };
    (split $name:ident, $k:literal) => {
        /// Splits values into their streams with the chosen build of the kernel.
        #[inline]
        pub(crate) fn $name<L: Copy>(
            kernels: Kernels,
            values: &[L],
            out: &mut [u8],
            to: impl Fn(L) -> [u8; $k],
        ) {
            #[cfg(target_arch = "x86_64")]
            if use_avx2(kernels) {
                // SAFETY: the AVX2 build needs AVX2, which this CPU has (checked by
                // `use_avx2` on the line above).
                unsafe { avx2::$name(values, out, to) };
                return;
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = kernels;
            portable::$name(values, out, to);
        }
    };
}

dispatch!(join join_2, 2);
dispatch!(join join_4, 4);
dispatch!(join join_8, 8);
dispatch!(join join_16, 16);
dispatch!(split split_2, 2);
dispatch!(split split_4, 4);
dispatch!(split split_8, 8);
dispatch!(split split_16, 16);
