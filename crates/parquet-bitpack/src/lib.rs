//! Bit packing for Parquet.
//!
//! - LSB-first packing, the order of the RLE/bit-packing hybrid and of the delta
//!   encodings (parquet-encodings.txt, "Run Length Encoding / Bit-Packing Hybrid", note 1):
//!   values are packed from the least significant bit of each byte upwards. [`unpack`] and
//!   [`pack`] handle any count at every width from 0 to the width of the value type
//!   (64 for `u64`); [`unpack_blocks`] and [`pack_blocks`] work on whole blocks of
//!   [`BLOCK_LEN`] values, the unit of the kernels.
//! - [`bit_packed`]: the deprecated BIT_PACKED encoding, which packs MSB-first.
//!
//! ```
//! // The spec's example: 0 through 7 at bit width 3.
//! let values: Vec<u32> = (0..8).collect();
//! let mut packed = Vec::new();
//! parquet_bitpack::pack(3, &values, &mut packed);
//! assert_eq!(packed, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
//!
//! let mut unpacked = [0u32; 8];
//! let used = parquet_bitpack::unpack(3, &packed, &mut unpacked)?;
//! assert_eq!((used, unpacked.to_vec()), (3, values));
//! # Ok::<(), parquet_bitpack::Error>(())
//! ```
//!
//! # Speed
//!
//! A block of 32 values at width `W` is `W` little-endian `u32` words; the kernel for each
//! width is straight-line safe code with constant shifts, generated for every width. On
//! x86-64 two faster builds are chosen at run time when the CPU has AVX2: unpacking to
//! `u32` uses explicit byte shuffles and per-lane shifts (eight values per step), and the
//! other kernels are the same safe code compiled for AVX2. All `unsafe` (those calls and
//! the vector loads and stores) is in one module, `arch`; the tests check every width of
//! the fast builds against the portable one ([`portable`]) and a bit-by-bit reference.
//!
//! # Errors and panics
//!
//! Unpacking returns [`Error::Invalid`] for a width wider than the value type and
//! [`Error::Truncated`] for input shorter than the values need; it never panics and never
//! allocates. Packing appends to the caller's `Vec<u8>`; it panics only on a width wider
//! than the value type, which is a bug in the caller, and ignores bits of a value above
//! the width.
#![deny(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod arch;
pub mod bit_packed;
mod kernels;

pub use parquet_core::{Error, Result};

use kernels::BLOCK;

/// Values in a block, the unit of the packing kernels. A block at width `W` takes `4 * W`
/// bytes.
pub const BLOCK_LEN: usize = BLOCK;

mod sealed {
    /// Seals [`super::Packable`]; carries the kernels.
    #[allow(unreachable_pub)]
    pub trait Sealed: crate::kernels::Kernel {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The unsigned integer types values are packed from and unpacked to: `u8`, `u16`,
/// `u32` and `u64`, at widths up to their own.
pub trait Packable: sealed::Sealed + Copy + Default + Send + Sync + 'static {
    /// The widest bit width the type holds.
    const MAX_WIDTH: u8;
}

impl Packable for u8 {
    const MAX_WIDTH: u8 = 8;
}
impl Packable for u16 {
    const MAX_WIDTH: u8 = 16;
}
impl Packable for u32 {
    const MAX_WIDTH: u8 = 32;
}
impl Packable for u64 {
    const MAX_WIDTH: u8 = 64;
}

/// Bytes taken by `count` values packed at `width` bits (the last byte zero-padded).
pub const fn packed_len(count: usize, width: u8) -> usize {
    let bits = (count as u128) * (width as u128);
    let bytes = bits.div_ceil(8);
    if bytes > usize::MAX as u128 {
        usize::MAX
    } else {
        bytes as usize
    }
}

fn check_width<T: Packable>(width: u8) -> Result<()> {
    if width > T::MAX_WIDTH {
        return Err(Error::invalid("bit width", 0, width.into()));
    }
    Ok(())
}

fn check_input(input: &[u8], needed: usize) -> Result<()> {
    if input.len() < needed {
        return Err(Error::truncated(
            "bit-packed values",
            0,
            needed,
            input.len(),
        ));
    }
    Ok(())
}

/// Unpacks `out.len()` whole blocks of `width`-bit values from the start of `input` and
/// returns the bytes used (`out.len() * 4 * width`).
///
/// # Errors
///
/// [`Error::Invalid`] when `width` exceeds `T::MAX_WIDTH`; [`Error::Truncated`] when
/// `input` is shorter than the blocks.
#[inline]
pub fn unpack_blocks<T: Packable>(
    width: u8,
    input: &[u8],
    out: &mut [[T; BLOCK_LEN]],
) -> Result<usize> {
    checked_unpack_blocks(width, input, out, T::unpack_blocks)
}

/// Checks `width` and `input`, then unpacks whole blocks with `kernel`.
#[inline]
fn checked_unpack_blocks<T: Packable>(
    width: u8,
    input: &[u8],
    out: &mut [[T; BLOCK_LEN]],
    kernel: fn(usize, &[u8], &mut [[T; BLOCK_LEN]]),
) -> Result<usize> {
    check_width::<T>(width)?;
    let needed = packed_len(out.len() * BLOCK, width);
    check_input(input, needed)?;
    kernel(width.into(), input, out);
    Ok(needed)
}

/// Unpacks `out.len()` values of `width` bits from the start of `input` and returns the
/// bytes used (`packed_len(out.len(), width)`).
///
/// # Errors
///
/// [`Error::Invalid`] when `width` exceeds `T::MAX_WIDTH`; [`Error::Truncated`] when
/// `input` is shorter than the values.
#[inline]
pub fn unpack<T: Packable>(width: u8, input: &[u8], out: &mut [T]) -> Result<usize> {
    check_width::<T>(width)?;
    let needed = packed_len(out.len(), width);
    check_input(input, needed)?;
    let (blocks, tail) = out.as_chunks_mut::<BLOCK>();
    T::unpack_blocks(width.into(), input, blocks);
    // `tail` holds fewer than `BLOCK` values: the `needed - start` bytes of their bits, at
    // most `4 * width <= 256`, fit `padded`, and `input` holds `needed` bytes (checked
    // above).
    #[allow(clippy::indexing_slicing)]
    if !tail.is_empty() {
        let start = blocks.len() * 4 * usize::from(width);
        let mut padded = [0u8; 4 * 64];
        padded[..needed - start].copy_from_slice(&input[start..needed]);
        let mut block = [[T::default(); BLOCK]; 1];
        T::unpack_blocks(width.into(), &padded, &mut block);
        tail.copy_from_slice(&block[0][..tail.len()]);
    }
    Ok(needed)
}

/// Appends `values.len()` whole blocks packed at `width` bits to `out`
/// (`values.len() * 4 * width` bytes).
///
/// # Panics
///
/// When `width` exceeds `T::MAX_WIDTH`.
#[inline]
pub fn pack_blocks<T: Packable>(width: u8, values: &[[T; BLOCK_LEN]], out: &mut Vec<u8>) {
    checked_pack_blocks(width, values, out, T::pack_blocks);
}

/// Checks `width`, then appends whole blocks packed by `kernel`.
#[inline]
fn checked_pack_blocks<T: Packable>(
    width: u8,
    values: &[[T; BLOCK_LEN]],
    out: &mut Vec<u8>,
    kernel: fn(usize, &[[T; BLOCK_LEN]], &mut [u8]),
) {
    assert!(
        width <= T::MAX_WIDTH,
        "bit width {width} exceeds {}",
        T::MAX_WIDTH
    );
    let start = out.len();
    out.resize(start + packed_len(values.len() * BLOCK, width), 0);
    #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
    kernel(width.into(), values, &mut out[start..]);
}

/// Appends `values` packed at `width` bits to `out`: `packed_len(values.len(), width)`
/// bytes, the last one padded with zero bits.
///
/// # Panics
///
/// When `width` exceeds `T::MAX_WIDTH`.
#[inline]
pub fn pack<T: Packable>(width: u8, values: &[T], out: &mut Vec<u8>) {
    let (blocks, tail) = values.as_chunks::<BLOCK>();
    pack_blocks(width, blocks, out);
    // `tail` holds fewer than `BLOCK` values, packed in at most `4 * width <= 256` bytes.
    #[allow(clippy::indexing_slicing)]
    if !tail.is_empty() {
        let mut block = [[T::default(); BLOCK]; 1];
        block[0][..tail.len()].copy_from_slice(tail);
        let mut padded = [0u8; 4 * 64];
        T::pack_blocks(width.into(), &block, &mut padded);
        out.extend_from_slice(&padded[..packed_len(tail.len(), width)]);
    }
}

/// The portable kernels, without run-time CPU feature selection: the reference the fast
/// builds are tested against, and a baseline for benchmarks.
pub mod portable {
    use super::{BLOCK_LEN, Packable, Result, checked_pack_blocks, checked_unpack_blocks};

    /// As [`super::unpack_blocks`], always with the portable build of the kernels.
    ///
    /// # Errors
    ///
    /// As [`super::unpack_blocks`].
    pub fn unpack_blocks<T: Packable>(
        width: u8,
        input: &[u8],
        out: &mut [[T; BLOCK_LEN]],
    ) -> Result<usize> {
        checked_unpack_blocks(width, input, out, T::unpack_blocks_portable)
    }

    /// As [`super::pack_blocks`], always with the portable build of the kernels.
    ///
    /// # Panics
    ///
    /// When `width` exceeds `T::MAX_WIDTH`.
    pub fn pack_blocks<T: Packable>(width: u8, values: &[[T; BLOCK_LEN]], out: &mut Vec<u8>) {
        checked_pack_blocks(width, values, out, T::pack_blocks_portable);
    }
}

#[cfg(test)]
mod tests;
