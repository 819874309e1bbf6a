//! The BYTE_STREAM_SPLIT encoding of Parquet (parquet-encodings.txt, "Byte Stream Split:
//! (BYTE_STREAM_SPLIT = 9)"), for values of any fixed width `K`: FLOAT (4 bytes), DOUBLE
//! (8), INT32 (4), INT64 (8) and FIXED_LEN_BYTE_ARRAY of any length, such as FLOAT16 (2)
//! or a 16-byte decimal or UUID.
//!
//! The encoding scatters byte `j` of each of the `N` values to stream `j`, and
//! concatenates the `K` streams; it has no header, and the streams end where the page
//! ends, so `N` is the data's length divided by `K`:
//!
//! ```text
//! byte-stream-split := <stream 0> <stream 1> ... <stream K-1>
//! stream j          := <byte j of value 0> <byte j of value 1> ... <byte j of value N-1>
//! ```
//!
//! ```
//! use parquet_byte_stream_split::{Decoder, encode, encode_bytes};
//!
//! // The spec's example: three FLOAT values, by their bytes.
//! let mut page = Vec::new();
//! encode_bytes(&[0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6], 4, &mut page)?;
//! assert_eq!(page, [0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6]);
//!
//! // Typed values round trip, in batches of any size.
//! let values = [1.5f64, -0.0, f64::NAN, 1e300];
//! let mut page = Vec::new();
//! encode(&values, &mut page);
//! let mut decoder = Decoder::try_new(&page, 8)?;
//! assert_eq!(decoder.len(), 4);
//! let mut out = [0.0f64; 3];
//! assert_eq!(decoder.skip(1)?, 1);
//! assert_eq!(decoder.decode(&mut out)?, 3);
//! assert_eq!(out.map(f64::to_bits), [-0.0f64, f64::NAN, 1e300].map(f64::to_bits));
//!
//! // Data that is not a whole number of values is an error, never a panic.
//! assert_eq!(
//!     Decoder::try_new(&page[..31], 8).unwrap_err().to_string(),
//!     "invalid BYTE_STREAM_SPLIT data length (not a multiple of the value width) at offset 0: 31",
//! );
//! # Ok::<(), parquet_byte_stream_split::Error>(())
//! ```
//!
//! Values can be encoded from and decoded to typed slices (any
//! [`FixedWidth`] type: `f32`, `f64`, `i32`, `i64`, [`Int96`](parquet_core::Int96)), raw
//! bytes with a width ([`encode_bytes`], [`Decoder::decode_bytes`]), or a
//! [`FixedLenByteArrayBatch`] ([`encode_batch`], [`Decoder::decode_batch`]).
//!
//! # Speed
//!
//! The widths 2, 4, 8 and 16 have their own kernels, which transpose blocks of 64 values
//! in vector registers; other widths use a strided loop. The kernels are safe code,
//! compiled twice on x86-64: for the baseline, and for AVX2, chosen at run time when the
//! CPU has it. The crate's only `unsafe` is that choice, in one module; the tests check
//! the AVX2 build against the portable one ([`portable`]) and a byte-by-byte reference.
//!
//! # Errors and panics
//!
//! The crate uses the workspace's shared [`Error`]. [`Decoder::try_new`] checks that the
//! data is a whole number of values ([`Error::Invalid`] otherwise); after that, decoding
//! fails only when the caller asks for values of another width. No function panics on any
//! input, and the decoder allocates nothing. Encoders append to a caller's `Vec<u8>`.
//!
//! The crate has no features.
#![deny(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod arch;
mod kernels;

use arch::Kernels;
use kernels::same;
pub use parquet_core::{Error, Result};
use parquet_core::{FixedLenByteArrayBatch, FixedWidth};

/// The value `bytes` are the little-endian bytes of. `K` is `T::SIZE` wherever this is
/// called; the copy compiles to nothing. Always inlined, so that it is compiled with the
/// target features of the kernel that calls it.
#[allow(clippy::inline_always)]
#[inline(always)]
fn from_bytes<T: FixedWidth, const K: usize>(bytes: [u8; K]) -> T {
    let mut value = T::Bytes::default();
    for (byte, source) in value.as_mut().iter_mut().zip(bytes) {
        *byte = source;
    }
    T::from_le_bytes(value)
}

/// The little-endian bytes of `value`, `K` being `T::SIZE`. Always inlined, as
/// [`from_bytes`].
#[allow(clippy::inline_always)]
#[inline(always)]
fn to_bytes<T: FixedWidth, const K: usize>(value: T) -> [u8; K] {
    let mut bytes = [0; K];
    for (byte, source) in bytes.iter_mut().zip(value.to_le_bytes().as_ref()) {
        *byte = *source;
    }
    bytes
}

/// Appends the BYTE_STREAM_SPLIT encoding of `values` to `out`: `T::SIZE` streams of
/// `values.len()` bytes.
pub fn encode<T: FixedWidth>(values: &[T], out: &mut Vec<u8>) {
    encode_with(Kernels::Detect, values, out);
}

/// Appends the BYTE_STREAM_SPLIT encoding of the values held back to back in `bytes`,
/// `width` bytes each, to `out`.
///
/// # Errors
///
/// [`Error::Invalid`] when `bytes.len()` is not a multiple of `width` (or `width` is 0
/// and `bytes` is not empty); `out` is then left as it was.
pub fn encode_bytes(bytes: &[u8], width: usize, out: &mut Vec<u8>) -> Result<()> {
    encode_bytes_with(Kernels::Detect, bytes, width, out)
}

/// Appends the BYTE_STREAM_SPLIT encoding of the values of `batch` to `out`.
pub fn encode_batch(batch: &FixedLenByteArrayBatch, out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + batch.data().len(), 0);
    #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
    split_bytes(
        Kernels::Detect,
        batch.data(),
        batch.width(),
        &mut out[start..],
    );
}

fn encode_with<T: FixedWidth>(kernels: Kernels, values: &[T], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + values.len() * T::SIZE, 0);
    #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
    let out = &mut out[start..];
    match T::SIZE {
        2 => arch::split_2(kernels, values, out, to_bytes::<T, 2>),
        4 => arch::split_4(kernels, values, out, to_bytes::<T, 4>),
        8 => arch::split_8(kernels, values, out, to_bytes::<T, 8>),
        16 => arch::split_16(kernels, values, out, to_bytes::<T, 16>),
        _ => {
            for (i, value) in values.iter().enumerate() {
                let bytes = value.to_le_bytes();
                for (j, &byte) in bytes.as_ref().iter().enumerate() {
                    if let Some(slot) = out.get_mut(j * values.len() + i) {
                        *slot = byte;
                    }
                }
            }
        }
    }
}

fn encode_bytes_with(
    kernels: Kernels,
    bytes: &[u8],
    width: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    if width == 0 {
        return if bytes.is_empty() {
            Ok(())
        } else {
            Err(Error::invalid("BYTE_STREAM_SPLIT value width", 0, 0))
        };
    }
    if !bytes.len().is_multiple_of(width) {
        return Err(Error::invalid(
            "BYTE_STREAM_SPLIT data length (not a multiple of the value width)",
            0,
            bytes.len() as u64,
        ));
    }
    let start = out.len();
    out.resize(start + bytes.len(), 0);
    #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
    split_bytes(kernels, bytes, width, &mut out[start..]);
    Ok(())
}

/// Splits `bytes`, a whole number of values of `width` bytes, into `out`, of the same
/// length.
fn split_bytes(kernels: Kernels, bytes: &[u8], width: usize, out: &mut [u8]) {
    match width {
        // Only an empty batch can have width 0: there is nothing to split.
        0 => {}
        2 => arch::split_2(kernels, bytes.as_chunks().0, out, same),
        4 => arch::split_4(kernels, bytes.as_chunks().0, out, same),
        8 => arch::split_8(kernels, bytes.as_chunks().0, out, same),
        16 => arch::split_16(kernels, bytes.as_chunks().0, out, same),
        _ => kernels::split_any(bytes, width, out, bytes.len() / width),
    }
}

/// The portable kernels, without run-time CPU feature selection: the reference the fast
/// builds are tested against, and a baseline for benchmarks.
pub mod portable {
    use super::{Decoder, FixedWidth, Kernels, Result, encode_bytes_with, encode_with};

    /// As [`super::encode`], always with the portable build of the kernels.
    pub fn encode<T: FixedWidth>(values: &[T], out: &mut Vec<u8>) {
        encode_with(Kernels::Portable, values, out);
    }

    /// As [`super::encode_bytes`], always with the portable build of the kernels.
    ///
    /// # Errors
    ///
    /// As [`super::encode_bytes`].
    pub fn encode_bytes(bytes: &[u8], width: usize, out: &mut Vec<u8>) -> Result<()> {
        encode_bytes_with(Kernels::Portable, bytes, width, out)
    }

    /// As [`Decoder::try_new`], for a decoder that always runs the portable build of the
    /// kernels.
    ///
    /// # Errors
    ///
    /// As [`Decoder::try_new`].
    pub fn decoder(input: &[u8], width: usize) -> Result<Decoder<'_>> {
        let mut decoder = Decoder::try_new(input, width)?;
        decoder.kernels = Kernels::Portable;
        Ok(decoder)
    }
}

/// Decodes BYTE_STREAM_SPLIT data: the `N = input.len() / width` values, in batches,
/// into typed slices, raw bytes or a [`FixedLenByteArrayBatch`].
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    input: &'a [u8],
    width: usize,
    /// Values in the data, the length of each stream.
    len: usize,
    /// Values decoded or skipped so far.
    next: usize,
    kernels: Kernels,
}

impl<'a> Decoder<'a> {
    /// A decoder of the values of `width` bytes in `input`, which must be all of the
    /// encoded data (the streams' length is derived from it).
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `width` is 0 or `input.len()` is not a multiple of it.
    pub fn try_new(input: &'a [u8], width: usize) -> Result<Self> {
        if width == 0 {
            return Err(Error::invalid("BYTE_STREAM_SPLIT value width", 0, 0));
        }
        if !input.len().is_multiple_of(width) {
            return Err(Error::invalid(
                "BYTE_STREAM_SPLIT data length (not a multiple of the value width)",
                0,
                input.len() as u64,
            ));
        }
        Ok(Self {
            input,
            width,
            len: input.len() / width,
            next: 0,
            kernels: Kernels::Detect,
        })
    }

    /// Bytes per value.
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Values in the data: `input.len() / width`.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the data holds no values.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Values not yet decoded or skipped.
    #[inline]
    pub const fn remaining(&self) -> usize {
        self.len - self.next
    }

    /// Decodes up to `out.len()` values into the start of `out` and returns how many it
    /// wrote: `out.len()`, or fewer at the end of the data.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `T::SIZE` is not the decoder's width.
    #[inline]
    pub fn decode<T: FixedWidth>(&mut self, out: &mut [T]) -> Result<usize> {
        if T::SIZE != self.width {
            return Err(Error::invalid("output value width", 0, T::SIZE as u64));
        }
        let count = out.len().min(self.remaining());
        #[allow(clippy::indexing_slicing)] // `count <= out.len()`, the `min` above
        let (input, stride, first, out) = (self.input, self.len, self.next, &mut out[..count]);
        let kernels = self.kernels;
        match T::SIZE {
            2 => arch::join_2(kernels, input, stride, first, out, from_bytes::<T, 2>),
            4 => arch::join_4(kernels, input, stride, first, out, from_bytes::<T, 4>),
            8 => arch::join_8(kernels, input, stride, first, out, from_bytes::<T, 8>),
            16 => arch::join_16(kernels, input, stride, first, out, from_bytes::<T, 16>),
            width => {
                for (i, value) in (first..).zip(out) {
                    let mut bytes = T::Bytes::default();
                    for (j, byte) in bytes.as_mut().iter_mut().enumerate() {
                        *byte = input.get(j * stride + i).copied().unwrap_or_default();
                    }
                    *value = T::from_le_bytes(bytes);
                }
                debug_assert_eq!(width, self.width);
            }
        }
        self.next += count;
        Ok(count)
    }

    /// Decodes up to `out.len() / width` values into the start of `out`, each as its
    /// `width` bytes, and returns how many it wrote.
    ///
    /// # Errors
    ///
    /// None: the input was validated by [`Decoder::try_new`]. The `Result` keeps the
    /// signature of every decoder in the workspace.
    #[inline]
    pub fn decode_bytes(&mut self, out: &mut [u8]) -> Result<usize> {
        let count = (out.len() / self.width).min(self.remaining());
        #[allow(clippy::indexing_slicing)] // `count <= out.len() / width`, the `min` above
        self.join_bytes(&mut out[..count * self.width]);
        self.next += count;
        Ok(count)
    }

    /// Appends up to `max` values to `out` and returns how many it appended: `max`, or
    /// fewer at the end of the data.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `out` holds values of another width.
    #[inline]
    pub fn decode_batch(&mut self, out: &mut FixedLenByteArrayBatch, max: usize) -> Result<usize> {
        if out.width() != self.width {
            return Err(Error::invalid("output batch width", 0, out.width() as u64));
        }
        let count = max.min(self.remaining());
        self.join_bytes(out.extend_zeroed(count));
        self.next += count;
        Ok(count)
    }

    /// Skips up to `n` values and returns how many it skipped.
    ///
    /// # Errors
    ///
    /// None, as for [`Decoder::decode_bytes`].
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let count = n.min(self.remaining());
        self.next += count;
        Ok(count)
    }

    /// Joins the values from `next` on into `out`, a whole number of values' bytes.
    fn join_bytes(&self, out: &mut [u8]) {
        let (input, stride, first, kernels) = (self.input, self.len, self.next, self.kernels);
        match self.width {
            2 => arch::join_2(kernels, input, stride, first, out.as_chunks_mut().0, same),
            4 => arch::join_4(kernels, input, stride, first, out.as_chunks_mut().0, same),
            8 => arch::join_8(kernels, input, stride, first, out.as_chunks_mut().0, same),
            16 => arch::join_16(kernels, input, stride, first, out.as_chunks_mut().0, same),
            width => kernels::join_any(input, stride, width, first, out),
        }
    }
}

#[cfg(test)]
mod tests;
