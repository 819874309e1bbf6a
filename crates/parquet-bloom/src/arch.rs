//! The kernels of [`crate::kernels`], instantiated once portably and, on x86-64, once
//! more compiled for AVX2, where each block operation becomes a handful of vector
//! instructions instead of eight scalar multiplies and shifts (several times faster, and
//! with more checks in flight when the filter is larger than the caches). The AVX2 build
//! is chosen at run time when the CPU has AVX2, so a default build (x86-64 baseline)
//! runs as fast as a `target-cpu=native` one.
//!
//! This module is the only place in the crate with `unsafe`: the calls into the AVX2
//! build, each after checking that the CPU supports it. The kernels themselves are safe
//! code; the tests compare the two builds.
#![allow(unsafe_code)]

use crate::block::Block;

/// The portable build: the reference the AVX2 build is tested against.
pub(crate) mod portable {
    crate::kernels::filter_kernels!();
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    crate::kernels::filter_kernels!(#[target_feature(enable = "avx2")]);
}

#[inline]
pub(crate) fn insert_hash(blocks: &mut [Block], hash: u64) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: `avx2::insert_hash` needs AVX2, which this CPU has (checked on the line
        // above).
        unsafe { avx2::insert_hash(blocks, hash) };
        return;
    }
    portable::insert_hash(blocks, hash);
}

#[inline]
pub(crate) fn check_hash(blocks: &[Block], hash: u64) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: `avx2::check_hash` needs AVX2, which this CPU has (checked on the line
        // above).
        return unsafe { avx2::check_hash(blocks, hash) };
    }
    portable::check_hash(blocks, hash)
}

#[inline]
pub(crate) fn insert_hashes(blocks: &mut [Block], hashes: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: `avx2::insert_hashes` needs AVX2, which this CPU has (checked on the
        // line above).
        unsafe { avx2::insert_hashes(blocks, hashes) };
        return;
    }
    portable::insert_hashes(blocks, hashes);
}

#[inline]
pub(crate) fn check_hashes(blocks: &[Block], hashes: &[u64], out: &mut [bool]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: `avx2::check_hashes` needs AVX2, which this CPU has (checked on the
        // line above).
        unsafe { avx2::check_hashes(blocks, hashes, out) };
        return;
    }
    portable::check_hashes(blocks, hashes, out);
}

#[inline]
pub(crate) fn check_any(blocks: &[Block], hashes: &[u64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: `avx2::check_any` needs AVX2, which this CPU has (checked on the line
        // above).
        return unsafe { avx2::check_any(blocks, hashes) };
    }
    portable::check_any(blocks, hashes)
}
