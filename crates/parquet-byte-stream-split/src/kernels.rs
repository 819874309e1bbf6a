//! The transposition kernels: joining `K` byte streams into values of `K` bytes, and
//! splitting values into streams.
//!
//! The widths 2, 4, 8 and 16 are handled in blocks of [`BLOCK`] values, one 64-byte run
//! of each stream, with fixed-size arrays the compiler can keep in vector registers. A
//! block is joined in one of two ways:
//!
//! - widening (`join_block_*`): the streams are merged pairwise, bytes into `u16`, `u16`
//!   into `u32`, `u32` into `u64`, each step a zero-extension, a shift and an or over a
//!   whole block;
//! - interleaving ([`interleave_block`]): each byte is stored where it belongs in the
//!   block's `[[u8; K]; BLOCK]`, which the compiler turns into a tree of byte-unpacking
//!   shuffles when it may use AVX2 (and into scalar code for the x86-64 baseline).
//!
//! Which is faster depends on the width and the instruction set; [`crate::arch`] picks
//! per build, from the benchmarks. Splitting runs the widening steps backwards, with
//! truncations. Other widths use a strided loop over blocks small enough to stay in L1.
//!
//! Every kernel is safe code, generic over how a value's bytes become the output element
//! (`from`) or come from the input element (`to`), so that the same kernel writes `f32`,
//! `i64` or `[u8; K]` without a second pass.
//!
//! Every function here is `#[inline(always)]` so that it is compiled into the kernel
//! instantiations of [`crate::arch`], with their target features.
#![allow(clippy::inline_always)]

/// Values per block of the fixed-width kernels.
pub(crate) const BLOCK: usize = 64;

/// The `K` streams, cut to the values `first..first + count`.
#[inline(always)]
fn streams<const K: usize>(input: &[u8], stride: usize, first: usize, count: usize) -> [&[u8]; K] {
    let mut streams = [&[][..]; K];
    for (j, stream) in streams.iter_mut().enumerate() {
        let start = j * stride + first;
        // The caller guarantees `first + count <= stride` and `input.len() >= K * stride`;
        // were it wrong, the output would be left short rather than panic.
        *stream = input.get(start..start + count).unwrap_or_default();
    }
    streams
}

macro_rules! zip_step {
    ($name:ident, $narrow:ty, $wide:ty) => {
        /// Interleaves two arrays of narrow lanes into wide lanes, `lo` in the low half.
        #[inline(always)]
        fn $name(lo: &[$narrow; BLOCK], hi: &[$narrow; BLOCK]) -> [$wide; BLOCK] {
            let mut wide = [0; BLOCK];
            for ((wide, &lo), &hi) in wide.iter_mut().zip(lo).zip(hi) {
                *wide = <$wide>::from(lo) | <$wide>::from(hi) << <$narrow>::BITS;
            }
            wide
        }
    };
}

macro_rules! unzip_step {
    ($name:ident, $wide:ty, $narrow:ty) => {
        /// Splits wide lanes into their low and high halves.
        #[inline(always)]
        #[allow(clippy::cast_possible_truncation)] // taking each half is the point
        fn $name(wide: &[$wide; BLOCK]) -> ([$narrow; BLOCK], [$narrow; BLOCK]) {
            let mut lo = [0; BLOCK];
            let mut hi = [0; BLOCK];
            for ((&wide, lo), hi) in wide.iter().zip(&mut lo).zip(&mut hi) {
                *lo = wide as $narrow;
                *hi = (wide >> <$narrow>::BITS) as $narrow;
            }
            (lo, hi)
        }
    };
}

zip_step!(zip8, u8, u16);
zip_step!(zip16, u16, u32);
zip_step!(zip32, u32, u64);
unzip_step!(unzip16, u16, u8);
unzip_step!(unzip32, u32, u16);
unzip_step!(unzip64, u64, u32);

/// Joins one block of 2 streams.
#[inline(always)]
pub(crate) fn join_block_2(s: [&[u8; BLOCK]; 2]) -> [u16; BLOCK] {
    zip8(s[0], s[1])
}

/// Joins one block of 4 streams.
#[inline(always)]
pub(crate) fn join_block_4(s: [&[u8; BLOCK]; 4]) -> [u32; BLOCK] {
    zip16(&zip8(s[0], s[1]), &zip8(s[2], s[3]))
}

/// Joins one block of 8 streams.
#[inline(always)]
pub(crate) fn join_block_8(s: [&[u8; BLOCK]; 8]) -> [u64; BLOCK] {
    let lo = zip16(&zip8(s[0], s[1]), &zip8(s[2], s[3]));
    let hi = zip16(&zip8(s[4], s[5]), &zip8(s[6], s[7]));
    zip32(&lo, &hi)
}

/// Joins one block of 16 streams: two blocks of 8, the low and high halves of each
/// value.
#[inline(always)]
#[allow(clippy::indexing_slicing)] // `j < 8`: `s[j]` and `s[8 + j]` are among the 16
pub(crate) fn join_block_16(s: [&[u8; BLOCK]; 16]) -> [[u64; 2]; BLOCK] {
    let lo = join_block_8(core::array::from_fn(|j| s[j]));
    let hi = join_block_8(core::array::from_fn(|j| s[8 + j]));
    let mut lanes = [[0; 2]; BLOCK];
    for ((lane, lo), hi) in lanes.iter_mut().zip(lo).zip(hi) {
        *lane = [lo, hi];
    }
    lanes
}

/// The bytes of a value given as its low and high halves.
#[inline(always)]
fn halves_to_bytes([lo, hi]: [u64; 2]) -> [u8; 16] {
    let mut bytes = [0; 16];
    let (lo_bytes, hi_bytes) = bytes.split_at_mut(8);
    lo_bytes.copy_from_slice(&lo.to_le_bytes());
    hi_bytes.copy_from_slice(&hi.to_le_bytes());
    bytes
}

/// Splits one block into 2 streams.
#[inline(always)]
pub(crate) fn split_block_2(words: &[u16; BLOCK]) -> [[u8; BLOCK]; 2] {
    let (b0, b1) = unzip16(words);
    [b0, b1]
}

/// Splits one block into 4 streams.
#[inline(always)]
pub(crate) fn split_block_4(words: &[u32; BLOCK]) -> [[u8; BLOCK]; 4] {
    let (lo, hi) = unzip32(words);
    let (b0, b1) = unzip16(&lo);
    let (b2, b3) = unzip16(&hi);
    [b0, b1, b2, b3]
}

/// Splits one block into 8 streams.
#[inline(always)]
pub(crate) fn split_block_8(words: &[u64; BLOCK]) -> [[u8; BLOCK]; 8] {
    let (lo, hi) = unzip64(words);
    let [b0, b1, b2, b3] = split_block_4(&lo);
    let [b4, b5, b6, b7] = split_block_4(&hi);
    [b0, b1, b2, b3, b4, b5, b6, b7]
}

/// Splits one block into 16 streams: the low and high halves as two blocks of 8.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)] // taking each half is the point
pub(crate) fn split_block_16(lanes: &[u128; BLOCK]) -> [[u8; BLOCK]; 16] {
    let mut lo = [0; BLOCK];
    let mut hi = [0; BLOCK];
    for ((lo, hi), &lane) in lo.iter_mut().zip(&mut hi).zip(lanes) {
        *lo = lane as u64;
        *hi = (lane >> 64) as u64;
    }
    let [b0, b1, b2, b3, b4, b5, b6, b7] = split_block_8(&lo);
    let [b8, b9, b10, b11, b12, b13, b14, b15] = split_block_8(&hi);
    [
        b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15,
    ]
}

/// Joins one block of `K` streams by storing each byte where it belongs.
#[inline(always)]
#[allow(clippy::indexing_slicing)] // `i < BLOCK`, the length of each stream block
pub(crate) fn interleave_block<const K: usize>(s: [&[u8; BLOCK]; K]) -> [[u8; K]; BLOCK] {
    let mut bytes = [[0; K]; BLOCK];
    for (i, value) in bytes.iter_mut().enumerate() {
        for (byte, stream) in value.iter_mut().zip(&s) {
            *byte = stream[i];
        }
    }
    bytes
}

/// Joins one block of 8 streams: pairs of streams into 2-byte lanes, then four streams of
/// lanes into values, each step by [`interleave_block`]'s method.
// `p < 4`, so `2 * p + 1 < 8`; `i < BLOCK`, the length of each array of lanes.
#[allow(clippy::indexing_slicing)]
#[inline(always)]
pub(crate) fn interleave_block_8(s: [&[u8; BLOCK]; 8]) -> [[u8; 8]; BLOCK] {
    let pairs: [[u16; BLOCK]; 4] = core::array::from_fn(|p| {
        let bytes = interleave_block::<2>([s[2 * p], s[2 * p + 1]]);
        let mut lanes = [0; BLOCK];
        for (lane, bytes) in lanes.iter_mut().zip(bytes) {
            *lane = u16::from_le_bytes(bytes);
        }
        lanes
    });
    let mut bytes = [[0; 8]; BLOCK];
    for (i, value) in bytes.iter_mut().enumerate() {
        for (lane, pair) in value.as_chunks_mut::<2>().0.iter_mut().zip(&pairs) {
            *lane = pair[i].to_le_bytes();
        }
    }
    bytes
}

/// A value's bytes, as they are.
#[inline(always)]
pub(crate) const fn same<const K: usize>(bytes: [u8; K]) -> [u8; K] {
    bytes
}

/// Defines `$join`, the join loop of width `$k`: whole blocks through `$join_block`,
/// whose lanes become the values' bytes with `$to_bytes`; the last partial block one
/// value at a time.
macro_rules! join_kernel {
    ($join:ident, $k:literal, $join_block:expr, $to_bytes:expr) => {
        /// Writes values `first..first + out.len()`, each joined from its bytes in the
        /// `K` streams of `stride` bytes that make up `input`.
        #[inline(always)]
        pub(crate) fn $join<L>(
            input: &[u8],
            stride: usize,
            first: usize,
            out: &mut [L],
            from: impl Fn([u8; $k]) -> L,
        ) {
            let streams = streams::<$k>(input, stride, first, out.len());
            let chunks: [&[[u8; BLOCK]]; $k] = streams.map(|stream| stream.as_chunks().0);
            let (blocks, tail) = out.as_chunks_mut::<BLOCK>();
            let whole = chunks
                .iter()
                .fold(blocks.len(), |n, chunks| n.min(chunks.len()));
            for (b, block) in blocks.iter_mut().enumerate().take(whole) {
                // `j < $k`, and `b < whole`, which is at most each stream's block count.
                #[allow(clippy::indexing_slicing)]
                let lanes = $join_block(core::array::from_fn(|j| &chunks[j][b]));
                for (value, lane) in block.iter_mut().zip(lanes) {
                    *value = from($to_bytes(lane));
                }
            }
            for (i, value) in (whole * BLOCK..).zip(tail) {
                let mut bytes = [0; $k];
                for (byte, stream) in bytes.iter_mut().zip(&streams) {
                    *byte = stream.get(i).copied().unwrap_or_default();
                }
                *value = from(bytes);
            }
        }
    };
}

/// Defines `$split`, the split loop of width `$k`: whole blocks through `$split_block`,
/// whose lanes `$lane` come from the values' bytes with `$from_bytes`; the last partial
/// block one value at a time.
macro_rules! split_kernel {
    ($split:ident, $k:literal, $split_block:ident, $lane:ty, $from_bytes:expr) => {
        /// Writes the bytes of `values` to the `K` streams of `values.len()` bytes that
        /// make up `out`.
        #[inline(always)]
        pub(crate) fn $split<L: Copy>(values: &[L], out: &mut [u8], to: impl Fn(L) -> [u8; $k]) {
            let mut streams: [&mut [u8]; $k] = Default::default();
            let mut rest = out;
            for stream in &mut streams {
                let mid = values.len().min(rest.len());
                let (head, tail) = core::mem::take(&mut rest).split_at_mut(mid);
                *stream = head;
                rest = tail;
            }
            let (blocks, tail) = values.as_chunks::<BLOCK>();
            for (b, block) in blocks.iter().enumerate() {
                let mut lanes: [$lane; BLOCK] = [Default::default(); BLOCK];
                for (lane, &value) in lanes.iter_mut().zip(block) {
                    *lane = $from_bytes(to(value));
                }
                let bytes = $split_block(&lanes);
                for (stream, bytes) in streams.iter_mut().zip(&bytes) {
                    if let Some(stream) = stream.get_mut(b * BLOCK..(b + 1) * BLOCK) {
                        stream.copy_from_slice(bytes);
                    }
                }
            }
            for (i, &value) in (blocks.len() * BLOCK..).zip(tail) {
                for (stream, byte) in streams.iter_mut().zip(to(value)) {
                    if let Some(slot) = stream.get_mut(i) {
                        *slot = byte;
                    }
                }
            }
        }
    };
}

join_kernel!(join_2, 2, join_block_2, u16::to_le_bytes);
join_kernel!(join_4, 4, join_block_4, u32::to_le_bytes);
join_kernel!(join_8, 8, join_block_8, u64::to_le_bytes);
join_kernel!(join_16, 16, join_block_16, halves_to_bytes);
join_kernel!(interleave_4, 4, interleave_block::<4>, same);
join_kernel!(interleave_8, 8, interleave_block_8, same);
split_kernel!(split_2, 2, split_block_2, u16, u16::from_le_bytes);
split_kernel!(split_4, 4, split_block_4, u32, u32::from_le_bytes);
split_kernel!(split_8, 8, split_block_8, u64, u64::from_le_bytes);
split_kernel!(split_16, 16, split_block_16, u128, u128::from_le_bytes);

/// Values per block of the strided kernels for other widths.
const STRIDED_BLOCK: usize = 256;

/// As the `join_*` kernels, for any width `width` (the output's bytes, `width` per value).
#[inline]
pub(crate) fn join_any(input: &[u8], stride: usize, width: usize, first: usize, out: &mut [u8]) {
    if width == 0 {
        return;
    }
    // Saturating: empty data has values of any width.
    let block_len = STRIDED_BLOCK.saturating_mul(width);
    for (block, out) in out.chunks_mut(block_len).enumerate() {
        let start = first + block * STRIDED_BLOCK;
        let count = out.len() / width;
        for j in 0..width {
            let offset = j * stride + start;
            let stream = input.get(offset..offset + count).unwrap_or_default();
            for (value, &byte) in out.chunks_exact_mut(width).zip(stream) {
                if let Some(slot) = value.get_mut(j) {
                    *slot = byte;
                }
            }
        }
    }
}

/// As the `split_*` kernels, for any width `width` (the input's bytes, `width` per value;
/// `out` holds `width` streams of `stride` bytes).
#[inline]
pub(crate) fn split_any(values: &[u8], width: usize, out: &mut [u8], stride: usize) {
    if width == 0 {
        return;
    }
    let block_len = STRIDED_BLOCK.saturating_mul(width);
    for (block, values) in values.chunks(block_len).enumerate() {
        let start = block * STRIDED_BLOCK;
        let count = values.len() / width;
        for j in 0..width {
            let offset = j * stride + start;
            let Some(stream) = out.get_mut(offset..offset + count) else {
                return;
            };
            for (byte, value) in stream.iter_mut().zip(values.chunks_exact(width)) {
                *byte = value.get(j).copied().unwrap_or_default();
            }
        }
    }
}
