//! The DELTA_LENGTH_BYTE_ARRAY decoder.

use crate::binary_packed::{self, Length, Lengths};
use parquet_core::{ByteArrayBatch, Error, Result};

/// Lengths decoded at a time, about.
const LENGTHS: usize = 128;
/// Room for [`LENGTHS`] rounded to whole groups ([`binary_packed::Decoder::aligned_len`]).
const ROOM: usize = LENGTHS + 64;

/// Decodes DELTA_LENGTH_BYTE_ARRAY values from a borrowed slice: copied into a
/// [`ByteArrayBatch`] with [`Decoder::decode`], or borrowed from the input one at a time
/// with [`Decoder::next_value`] or [`Decoder::values`].
///
/// Allocates nothing itself: [`Decoder::decode`] grows only the caller's batch, by the
/// values it appends (whose bytes are all in the input).
#[derive(Clone)]
pub struct Decoder<'a> {
    /// The lengths, taken exactly ([`binary_packed::Decoder::lengths_at`]).
    lengths: binary_packed::Decoder<'a, Length>,
    /// The values' bytes, exactly (any data after the last value is cut off).
    data: &'a [u8],
    /// Offset of `data` as errors report it.
    data_at: usize,
    /// Bytes of `data` already returned or skipped.
    pos: usize,
    /// Lengths decoded but not yet used, at `buf[buf_pos..buf_len]`: `buf_pos <= buf_len
    /// <= ROOM` always (`fill` sets `buf_len`, and `buf_pos` moves past lengths of
    /// `buf[buf_pos..buf_len]` only), which the indexing of `buf` below relies on.
    buf: [u32; ROOM],
    buf_pos: usize,
    buf_len: usize,
}

impl core::fmt::Debug for Decoder<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("remaining", &self.remaining())
            .field("data_offset", &self.data_at)
            .field("data_len", &self.data.len())
            .field("data_position", &self.pos)
            .finish_non_exhaustive()
    }
}

impl<'a> Decoder<'a> {
    /// Reads and checks the encoding at the start of `input`: the lengths' header and
    /// blocks, that every length is in `0..=i32::MAX` and that the lengths fit in the
    /// data that follows them. Takes time bounded by the input's length and allocates
    /// nothing.
    ///
    /// The lengths are taken exactly, not modulo 2^32 as INT32 values are: a first value
    /// or a sum of deltas outside `0..=i32::MAX` is an error even where its low 32 bits
    /// would make a length.
    ///
    /// # Errors
    ///
    /// As [`binary_packed::Decoder::try_new`] and [`binary_packed::Decoder::encoded_len`]
    /// for the lengths; [`Error::Invalid`] for a length that is negative or above
    /// `i32::MAX`; [`Error::Truncated`] when the lengths add up to more than the data.
    pub fn try_new(input: &'a [u8]) -> Result<Self> {
        Self::try_new_at(input, 0)
    }

    /// As [`Decoder::try_new`], with offsets in errors moved by `base`.
    pub(crate) fn try_new_at(input: &'a [u8], base: usize) -> Result<Self> {
        let lengths = binary_packed::Decoder::lengths_at(input, base)?;
        let start = lengths.encoded_len()? - base;
        let data = input.get(start..).unwrap_or_default();
        let (_, total) = lengths
            .clone()
            .skip_lengths(usize::MAX, data.len() as u64)?;
        let Some(data) = usize::try_from(total)
            .ok()
            .and_then(|total| data.get(..total))
        else {
            return Err(Error::truncated(
                "byte array data",
                base + start,
                usize::try_from(total).unwrap_or(usize::MAX),
                data.len(),
            ));
        };
        Ok(Self {
            lengths,
            data,
            data_at: base + start,
            pos: 0,
            buf: [0; ROOM],
            buf_pos: 0,
            buf_len: 0,
        })
    }

    /// The value count of the header.
    pub const fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether the header declares no values.
    pub const fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Values not yet decoded or skipped.
    pub const fn remaining(&self) -> usize {
        self.lengths.remaining() + (self.buf_len - self.buf_pos)
    }

    /// The length of the whole encoding: the offset, relative to the decoder's input,
    /// just past the last value's bytes.
    pub const fn encoded_len(&self) -> usize {
        self.data_at + self.data.len()
    }

    /// Appends up to `max_values` values to `out` and returns how many: `max_values`
    /// unless fewer remain.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] when `out` would exceed `u32::MAX` bytes; errors of the
    /// lengths' blocks cannot happen after [`Decoder::try_new`] has checked them. Values
    /// appended before an error stay in `out`.
    pub fn decode(&mut self, out: &mut ByteArrayBatch, max_values: usize) -> Result<usize> {
        let want = max_values.min(self.remaining());
        let mut n = 0;
        while n < want {
            let (lengths, bytes) = self.next_lengths(want - n)?;
            out.extend_from_lengths(lengths, bytes)?;
            let k = lengths.len();
            self.advance(k, bytes.len());
            n += k;
        }
        Ok(n)
    }

    /// Appends up to `max_values` values to `out`, borrowed from the input, and returns
    /// how many: `max_values` unless fewer remain. The batch form of
    /// [`Decoder::next_value`].
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`]; the values before an error stay in `out`.
    pub fn decode_borrowed(&mut self, out: &mut Vec<&'a [u8]>, max_values: usize) -> Result<usize> {
        let want = max_values.min(self.remaining());
        out.reserve(want.min(LENGTHS));
        let mut n = 0;
        while n < want {
            let (lengths, data) = self.next_lengths(want - n)?;
            let mut rest = data;
            out.extend(lengths.iter().map(|&length| {
                // The lengths add up to `data.len()`.
                let (value, tail) = rest.split_at(length as usize);
                rest = tail;
                value
            }));
            let k = lengths.len();
            self.advance(k, data.len());
            n += k;
        }
        Ok(n)
    }

    /// Up to `max` (at least one) of the lengths decoded and not yet used, decoding more
    /// when there are none, and the bytes of their values. Moves past nothing: the
    /// caller [`advance`](Self::advance)s past what it took.
    #[inline]
    fn next_lengths(&mut self, max: usize) -> Result<(&[u32], &'a [u8])> {
        if self.buf_pos == self.buf_len {
            self.fill()?;
        }
        let k = (self.buf_len - self.buf_pos).min(max);
        #[allow(clippy::indexing_slicing)] // `buf_pos + k <= buf_len <= ROOM`
        let lengths = &self.buf[self.buf_pos..self.buf_pos + k];
        let bytes = self.data_bytes(sum(lengths))?;
        Ok((lengths, bytes))
    }

    /// Skips up to `n` values and returns how many: `n` unless fewer remain. Takes time
    /// bounded by the input's length, whatever `n`.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`].
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let want = n.min(self.remaining());
        let buffered = (self.buf_len - self.buf_pos).min(want);
        #[allow(clippy::indexing_slicing)] // `buf_pos + buffered <= buf_len <= ROOM`
        let bytes = self.data_bytes(sum(&self.buf[self.buf_pos..self.buf_pos + buffered]))?;
        self.pos += bytes.len();
        self.buf_pos += buffered;
        let limit = (self.data.len() - self.pos) as u64;
        let (skipped, total) = self.lengths.skip_lengths(want - buffered, limit)?;
        let bytes = self.data_bytes(usize::try_from(total).unwrap_or(usize::MAX))?;
        self.pos += bytes.len();
        Ok(buffered + skipped)
    }

    /// Skips up to `max` values when the decoder is at a run of empty values that skips
    /// in constant time ([`binary_packed::Decoder::constant_run`]), and returns how
    /// many; 0 when it is not.
    pub(crate) fn skip_empty(&mut self, max: usize) -> Result<usize> {
        if self.buf_pos < self.buf_len {
            return Ok(0);
        }
        match self.lengths.constant_run()? {
            Some((Length(0), count)) => self.lengths.skip(count.min(max)),
            _ => Ok(0),
        }
    }

    /// The next value, borrowed from the input; `None` when none remain.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`].
    #[inline]
    pub fn next_value(&mut self) -> Result<Option<&'a [u8]>> {
        let value = self.peek()?;
        if let Some(value) = value {
            self.consume(value);
        }
        Ok(value)
    }

    /// The remaining values as an iterator, borrowed from the input. Each step is a
    /// [`Decoder::next_value`]; the decoder can be used again once the iterator is
    /// dropped.
    pub fn values(&mut self) -> Values<'_, 'a> {
        Values { decoder: self }
    }

    /// The lengths decoded and not yet used (decoding more when there are none and values
    /// remain), and the data from the next value on.
    #[inline]
    pub(crate) fn buffered(&mut self) -> Result<(&[u32], &'a [u8])> {
        if self.buf_pos == self.buf_len && self.lengths.remaining() > 0 {
            self.fill()?;
        }
        let data = self.data.get(self.pos..).unwrap_or_default();
        #[allow(clippy::indexing_slicing)] // `buf_pos <= buf_len <= ROOM`
        Ok((&self.buf[self.buf_pos..self.buf_len], data))
    }

    /// Offset, as errors report it, of the next value's bytes.
    pub(crate) const fn data_offset(&self) -> usize {
        self.data_at + self.pos
    }

    /// Moves past `values` values of `bytes` bytes in all, of those
    /// [`Decoder::buffered`] returned.
    #[inline]
    pub(crate) fn advance(&mut self, values: usize, bytes: usize) {
        self.buf_pos += values;
        self.pos += bytes;
    }

    /// The next value, borrowed from the input, without moving past it; `None` at the
    /// end.
    #[inline]
    pub(crate) fn peek(&mut self) -> Result<Option<&'a [u8]>> {
        if self.buf_pos == self.buf_len {
            if self.lengths.remaining() == 0 {
                return Ok(None);
            }
            self.fill()?;
        }
        // `buf_pos < buf_len <= ROOM`: lengths were left, or `fill` decoded at least one.
        #[allow(clippy::indexing_slicing)]
        self.data_bytes(self.buf[self.buf_pos] as usize).map(Some)
    }

    /// Moves past the value [`Decoder::peek`] returned.
    #[inline]
    pub(crate) fn consume(&mut self, value: &[u8]) {
        self.pos += value.len();
        self.buf_pos += 1;
    }

    /// The next `len` bytes of data.
    #[inline]
    fn data_bytes(&self, len: usize) -> Result<&'a [u8]> {
        let data = self.data;
        self.pos
            .checked_add(len)
            .and_then(|end| data.get(self.pos..end))
            .ok_or_else(|| {
                Error::truncated(
                    "byte array data",
                    self.data_at + self.pos,
                    len,
                    data.len() - self.pos,
                )
            })
    }

    /// Decodes the next lengths into the (empty) buffer.
    // `n <= aligned_len(LENGTHS) <= LENGTHS + BLOCK_LEN <= ROOM`: `lengths[..n]` is in
    // bounds.
    #[allow(clippy::indexing_slicing)]
    #[inline(never)]
    fn fill(&mut self) -> Result<()> {
        let mut lengths = [Length(0); ROOM];
        let n = self.lengths.aligned_len(LENGTHS);
        let n = self.lengths.decode(&mut lengths[..n])?;
        if n == 0 {
            return Err(Error::truncated(
                "byte array lengths",
                self.lengths.position(),
                1,
                0,
            ));
        }
        Lengths::ByteArray.check(&lengths[..n], self.lengths.position())?;
        for (slot, &Length(length)) in self.buf.iter_mut().zip(&lengths[..n]) {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked
            {
                *slot = length as u32;
            }
        }
        self.buf_pos = 0;
        self.buf_len = n;
        Ok(())
    }
}

/// The sum of up to [`LENGTHS`] lengths, or `usize::MAX` when it does not fit.
#[inline]
fn sum(lengths: &[u32]) -> usize {
    let sum = lengths.iter().map(|&length| u64::from(length)).sum::<u64>();
    usize::try_from(sum).unwrap_or(usize::MAX)
}

/// The values of a [`Decoder`], borrowed from its input: see [`Decoder::values`].
#[derive(Debug)]
pub struct Values<'d, 'a> {
    decoder: &'d mut Decoder<'a>,
}

impl<'a> Iterator for Values<'_, 'a> {
    type Item = Result<&'a [u8]>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.decoder.next_value().transpose()
    }
}
