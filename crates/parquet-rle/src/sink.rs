//! Where the decoder puts values: one [`Sink`] per public decoding method, all driven by
//! the same state machine (`Decoder::drive`), and the [`Run`] pieces that
//! [`Decoder::for_each_run`](crate::Decoder::for_each_run) hands to its closure.

use core::mem;

use parquet_bitpack::{BLOCK_LEN, unpack_blocks};
use parquet_core::{Error, Result};

/// A piece of the stream handed to the closure of
/// [`Decoder::for_each_run`](crate::Decoder::for_each_run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run<'a> {
    /// `len` copies of `value` (from an RLE run; `len >= 1`).
    Repeated {
        /// The repeated value, below `2^bit_width`.
        value: u32,
        /// How many times it repeats.
        len: usize,
    },
    /// Between 1 and [`BLOCK_LEN`] values of a bit-packed run, each below
    /// `2^bit_width`.
    Packed(&'a [u32]),
}

impl Run<'_> {
    /// The number of values in this piece.
    pub const fn len(&self) -> usize {
        match self {
            Self::Repeated { len, .. } => *len,
            Self::Packed(values) => values.len(),
        }
    }

    /// Whether this piece holds no value (never the case for pieces the decoder hands
    /// out).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Takes the values of a stream, run by run.
pub(crate) trait Sink {
    /// Whether [`Sink::unpack`] takes bit-packed values straight from the input. If not,
    /// they come through [`Sink::take`], a block at a time.
    const DIRECT: bool;

    /// Takes `len` copies of `value`.
    fn fill(&mut self, value: u32, len: usize) -> Result<()>;

    /// Takes unpacked values, at most a block of them.
    fn take(&mut self, values: &[u32]) -> Result<()>;

    /// Takes `count` values packed at `width` bits from the start of `packed`, which holds
    /// all their bits (called only when [`Sink::DIRECT`]). Error offsets are relative to
    /// `packed`.
    fn unpack(&mut self, width: u8, packed: &[u8], count: usize) -> Result<()>;
}

/// Decoding into integers.
pub(crate) struct Values<'o, T> {
    pub(crate) out: Out<'o, T>,
}

impl<T: parquet_bitpack::Packable + TryFrom<u32>> Sink for Values<'_, T> {
    const DIRECT: bool = true;

    #[inline]
    fn fill(&mut self, value: u32, len: usize) -> Result<()> {
        let out = self.out.split_off(len)?;
        if value == 0 {
            // A constant zero fill is a `memset`, wider than a fill loop.
            out.fill(T::default());
        } else {
            fill(out, narrow(value));
        }
        Ok(())
    }

    #[inline]
    fn take(&mut self, values: &[u32]) -> Result<()> {
        let out = self.out.split_off(values.len())?;
        for (o, &v) in out.iter_mut().zip(values) {
            *o = narrow(v);
        }
        Ok(())
    }

    #[inline]
    fn unpack(&mut self, width: u8, packed: &[u8], count: usize) -> Result<()> {
        let out = self.out.split_off(count)?;
        let (blocks, tail) = out.as_chunks_mut::<BLOCK_LEN>();
        let used = if blocks.is_empty() {
            0
        } else {
            unpack_blocks(width, packed, blocks)?
        };
        unpack_scalar(width, packed.get(used..).unwrap_or_default(), tail);
        Ok(())
    }
}

/// Decoding into booleans.
pub(crate) struct Bools<'o> {
    pub(crate) out: Out<'o, bool>,
}

/// The eight booleans of each byte, least significant bit first.
#[allow(clippy::indexing_slicing)] // compile time: out of bounds does not build
const BITS: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = (byte >> bit) & 1 == 1;
            bit += 1;
        }
        byte += 1;
    }
    table
};

impl Sink for Bools<'_> {
    const DIRECT: bool = true;

    #[inline]
    fn fill(&mut self, value: u32, len: usize) -> Result<()> {
        self.out.split_off(len)?.fill(value != 0);
        Ok(())
    }

    #[inline]
    fn take(&mut self, values: &[u32]) -> Result<()> {
        let out = self.out.split_off(values.len())?;
        for (o, &v) in out.iter_mut().zip(values) {
            *o = v != 0;
        }
        Ok(())
    }

    #[inline]
    fn unpack(&mut self, width: u8, packed: &[u8], count: usize) -> Result<()> {
        let out = self.out.split_off(count)?;
        if width == 0 {
            out.fill(false);
            return Ok(());
        }
        // Width 1 (the decoder checked): each byte is eight values.
        let (bytes, tail) = out.as_chunks_mut::<8>();
        // A byte indexes the 256 entries of `BITS`: the checks fold away.
        #[allow(clippy::indexing_slicing)]
        for (eight, &byte) in bytes.iter_mut().zip(packed) {
            *eight = BITS[usize::from(byte)];
        }
        let last = packed.get(bytes.len()).copied().unwrap_or_default();
        #[allow(clippy::indexing_slicing)] // as above
        for (o, &bit) in tail.iter_mut().zip(&BITS[usize::from(last)]) {
            *o = bit;
        }
        Ok(())
    }
}

/// Gathering dictionary values.
pub(crate) struct Gather<'d, 'o, V> {
    pub(crate) dict: &'d [V],
    pub(crate) out: Out<'o, V>,
}

impl<V: Copy> Sink for Gather<'_, '_, V> {
    const DIRECT: bool = true;

    #[inline]
    fn fill(&mut self, value: u32, len: usize) -> Result<()> {
        let entry = *self
            .dict
            .get(value as usize)
            .ok_or_else(|| out_of_range(value, self.dict.len()))?;
        fill(self.out.split_off(len)?, entry);
        Ok(())
    }

    #[inline]
    fn take(&mut self, indices: &[u32]) -> Result<()> {
        gather_block(self.dict, indices, self.out.split_off(indices.len())?)
    }

    /// Unpacks the indices into a stack buffer of [`GATHER_BLOCKS`] blocks and gathers
    /// them a block at a time.
    #[inline]
    fn unpack(&mut self, width: u8, packed: &[u8], count: usize) -> Result<()> {
        let out = self.out.split_off(count)?;
        let mut buffer = [[0u32; BLOCK_LEN]; GATHER_BLOCKS];
        let mut offset = 0;
        for out in out.chunks_mut(GATHER_BLOCKS * BLOCK_LEN) {
            let (blocks, tail) = out.as_chunks_mut::<BLOCK_LEN>();
            let (whole, partial) = buffer.split_at_mut(blocks.len());
            let rest = packed.get(offset..).unwrap_or_default();
            offset += unpack_blocks(width, rest, whole).map_err(|e| e.shifted(offset))?;
            for (indices, out) in whole.iter().zip(blocks) {
                gather_block(self.dict, indices, out)?;
            }
            if let Some(indices) = partial.first_mut().and_then(|b| b.get_mut(..tail.len())) {
                let rest = packed.get(offset..).unwrap_or_default();
                unpack_scalar(width, rest, indices);
                gather_block(self.dict, indices, tail)?;
            }
        }
        Ok(())
    }
}

/// Blocks of indices a gather unpacks at a time (512 bytes of stack): enough to spread
/// the setup of an `unpack_blocks` call, which costs as much as gathering a block.
const GATHER_BLOCKS: usize = 4;

/// Writes `dict[index]` for a block of indices into `out`.
#[inline]
fn gather_block<V: Copy>(dict: &[V], indices: &[u32], out: &mut [V]) -> Result<()> {
    let Some(last) = dict.len().checked_sub(1) else {
        return Err(block_out_of_range(indices, 0));
    };
    // One check for the block, in a pass the compiler vectorizes...
    let last_index = u32::try_from(last).unwrap_or(u32::MAX);
    if indices
        .iter()
        .fold(0, |outside, &i| outside | u32::from(i > last_index))
        != 0
    {
        return Err(block_out_of_range(indices, dict.len()));
    }
    // ...then lookups whose clamp lets the compiler drop the bounds check: `last` is
    // `dict.len() - 1`, so the clamped index is in bounds.
    #[allow(clippy::indexing_slicing)]
    for (o, &index) in out.iter_mut().zip(indices) {
        *o = dict[(index as usize).min(last)];
    }
    Ok(())
}

/// Handing runs to a closure.
pub(crate) struct Visit<F>(pub(crate) F);

impl<F: FnMut(Run<'_>) -> Result<()>> Sink for Visit<F> {
    const DIRECT: bool = false;

    #[inline]
    fn fill(&mut self, value: u32, len: usize) -> Result<()> {
        (self.0)(Run::Repeated { value, len })
    }

    #[inline]
    fn take(&mut self, values: &[u32]) -> Result<()> {
        (self.0)(Run::Packed(values))
    }

    fn unpack(&mut self, _: u8, _: &[u8], _: usize) -> Result<()> {
        Ok(())
    }
}

/// Skipping: values are counted, never unpacked.
pub(crate) struct Skip;

impl Sink for Skip {
    const DIRECT: bool = true;

    #[inline]
    fn fill(&mut self, _: u32, _: usize) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn take(&mut self, _: &[u32]) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn unpack(&mut self, _: u8, _: &[u8], _: usize) -> Result<()> {
        Ok(())
    }
}

/// Unpacks `out.len()` values of `width` bits from the start of `packed` without the
/// block kernels, for fewer values than a block. Bits past the end of `packed` read as
/// zeros.
#[inline]
pub(crate) fn unpack_scalar<T: TryFrom<u32> + Default + Copy>(
    width: u8,
    packed: &[u8],
    out: &mut [T],
) {
    match width {
        0 => out.fill(T::default()),
        1 => unpack_groups::<1, T>(packed, out),
        2 => unpack_groups::<2, T>(packed, out),
        3 => unpack_groups::<3, T>(packed, out),
        4 => unpack_groups::<4, T>(packed, out),
        5 => unpack_groups::<5, T>(packed, out),
        6 => unpack_groups::<6, T>(packed, out),
        7 => unpack_groups::<7, T>(packed, out),
        8 => unpack_groups::<8, T>(packed, out),
        _ => unpack_wide(width, packed, out),
    }
}

/// [`unpack_scalar`] for `W <= 8`: a group of 8 values is `W` bytes, one load.
fn unpack_groups<const W: usize, T: TryFrom<u32> + Default>(packed: &[u8], out: &mut [T]) {
    let mask = (1u64 << W) - 1;
    for (group, values) in out.chunks_mut(8).enumerate() {
        let word = load_u64(packed, group * W);
        for (i, o) in values.iter_mut().enumerate() {
            #[allow(clippy::cast_possible_truncation)] // masked to `W <= 8` bits
            let value = ((word >> (i * W)) & mask) as u32;
            *o = narrow(value);
        }
    }
}

/// [`unpack_scalar`] for `8 < width <= 32`: a value starts within its first byte and spans
/// at most 5 bytes, one load each.
fn unpack_wide<T: TryFrom<u32> + Default>(width: u8, packed: &[u8], out: &mut [T]) {
    let width = usize::from(width);
    let mask = u64::MAX >> (64 - width);
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * width;
        #[allow(clippy::cast_possible_truncation)] // masked to `width <= 32` bits
        let value = ((load_u64(packed, bit / 8) >> (bit % 8)) & mask) as u32;
        *o = narrow(value);
    }
}

/// The 8 bytes of `packed` from `at`, little endian, zeros past its end.
#[inline]
fn load_u64(packed: &[u8], at: usize) -> u64 {
    let rest = packed.get(at..).unwrap_or_default();
    if let Some(bytes) = rest.first_chunk::<8>() {
        u64::from_le_bytes(*bytes)
    } else {
        let mut bytes = [0; 8];
        for (b, &r) in bytes.iter_mut().zip(rest) {
            *b = r;
        }
        u64::from_le_bytes(bytes)
    }
}

/// Fills `out` with `value`. A fill of 4 KiB or more of 2- or 4-byte values writes its
/// first 504 bytes, then copies them forward in chunks of up to 4032 bytes: the copies go
/// through the platform's `memcpy`, which uses the widest stores the CPU has, where a
/// fill loop in a default build is held to the baseline target's 16-byte stores. (The
/// chunk is not a multiple of 4 KiB, so that a copy's source and destination do not
/// alias in the store buffer.) Bytes are a `memset` already; for 8-byte values streaming
/// to memory the copies measured no faster than the loop, and less steady.
#[inline]
fn fill<T: Copy>(out: &mut [T], value: T) {
    const SEED_BYTES: usize = 504;
    const MIN_BYTES: usize = 4096;
    const CHUNK_BYTES: usize = 4032;
    let size = size_of::<T>();
    if !(2..=4).contains(&size) || size_of_val(out) < MIN_BYTES {
        out.fill(value);
        return;
    }
    let seed = (SEED_BYTES / size).max(1);
    let chunk = (CHUNK_BYTES / size).max(1);
    out.iter_mut().take(seed).for_each(|o| *o = value);
    let mut filled = seed;
    while filled < out.len() {
        let (done, rest) = out.split_at_mut(filled);
        let n = rest.len().min(filled).min(chunk);
        if let (Some(to), Some(from)) = (rest.get_mut(..n), done.get(..n)) {
            to.copy_from_slice(from);
        }
        filled += n;
    }
}

/// Narrows a decoded value to the output type, which the caller has checked holds the
/// bit width, so the fallback is never taken.
#[inline]
fn narrow<T: TryFrom<u32> + Default>(value: u32) -> T {
    T::try_from(value).unwrap_or_default()
}

/// The part of an output buffer not written yet.
pub(crate) struct Out<'o, T>(pub(crate) &'o mut [T]);

impl<'o, T> Out<'o, T> {
    /// Splits `len` values off the front.
    #[inline]
    fn split_off(&mut self, len: usize) -> Result<&'o mut [T]> {
        let all = mem::take(&mut self.0);
        let available = all.len();
        // The decoder never hands a sink more values than it asked for.
        let (head, tail) = all.split_at_mut_checked(len).ok_or(Error::LimitExceeded {
            what: "values handed to the output",
            requested: len as u64,
            limit: available as u64,
        })?;
        self.0 = tail;
        Ok(head)
    }
}

/// The error for the largest index of a block with one out of range.
#[cold]
fn block_out_of_range(indices: &[u32], len: usize) -> Error {
    out_of_range(indices.iter().copied().max().unwrap_or_default(), len)
}

#[cold]
fn out_of_range(index: u32, len: usize) -> Error {
    Error::OutOfRange {
        what: "dictionary index",
        value: index.into(),
        bound: len as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_fills_fill_everything() {
        for len in [0, 1, 255, 1023, 1024, 1025, 2016, 2017, 5000, 70_000] {
            let mut out = vec![0u16; len + 1];
            fill(&mut out[..len], 7);
            assert!(out[..len].iter().all(|&v| v == 7), "{len}");
            assert_eq!(out[len], 0);
            let mut out = vec![0u32; len];
            fill(&mut out, u32::MAX);
            assert!(out.iter().all(|&v| v == u32::MAX), "{len}");
            let mut out = vec![[0u8; 3]; len];
            fill(&mut out, [1, 2, 3]);
            assert!(out.iter().all(|&v| v == [1, 2, 3]), "{len}");
            let mut out = vec![0u64; len];
            fill(&mut out, u64::MAX);
            assert!(out.iter().all(|&v| v == u64::MAX), "{len}");
        }
    }

    #[test]
    fn scalar_unpacking_matches_the_kernels() {
        let bytes: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        for width in 0..=32 {
            let mut blocks = [[0u32; BLOCK_LEN]; 1];
            unpack_blocks(width, &bytes, &mut blocks).unwrap();
            for len in 0..BLOCK_LEN {
                let mut out = vec![0u32; len];
                unpack_scalar(width, &bytes, &mut out);
                assert_eq!(out, blocks[0][..len], "width {width}, {len} values");
            }
        }
        // Bits past the end read as zeros.
        let mut out = [9u16; 4];
        unpack_scalar(5, &[0xff, 0x03], &mut out);
        assert_eq!(out, [31, 31, 0, 0]);
    }
}
