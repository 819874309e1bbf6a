//! PLAIN BYTE_ARRAY: each value is its length as 4 bytes little endian, then its bytes.
//!
//! ```text
//! byte-array-values := (<length: 4 bytes little endian, unsigned> <length bytes>)*
//! ```
//!
//! ```
//! use parquet_core::ByteArrayBatch;
//! use parquet_plain::byte_array;
//!
//! let mut page = Vec::new();
//! byte_array::encode(&["axis", "axle"], &mut page)?;
//! assert_eq!(page, b"\x04\0\0\0axis\x04\0\0\0axle");
//!
//! // Borrowed from the input, value by value, or as an iterator of results...
//! let decoder = byte_array::Decoder::try_new(&page, 2)?;
//! let values: Vec<&[u8]> = decoder.into_iter().collect::<Result<_, _>>()?;
//! assert_eq!(values, [&b"axis"[..], b"axle"]);
//!
//! // ...or copied into one data buffer, in batches.
//! let mut decoder = byte_array::Decoder::try_new(&page, 2)?;
//! let mut batch = ByteArrayBatch::new();
//! assert_eq!(decoder.decode(&mut batch, 1024)?, 2);
//! assert_eq!(batch.offsets(), [0, 4, 8]);
//! assert_eq!(decoder.position(), page.len());
//!
//! // A length that runs past the end of the input is an error that says where.
//! let mut decoder = byte_array::Decoder::try_new(&page[..13], 2)?;
//! assert_eq!(decoder.next_value()?, Some(&b"axis"[..]));
//! assert_eq!(
//!     decoder.next_value().unwrap_err().to_string(),
//!     "truncated BYTE_ARRAY value at offset 12: need 4 bytes, 1 available",
//! );
//! # Ok::<(), parquet_plain::Error>(())
//! ```

use core::iter::FusedIterator;

use parquet_core::{ByteArrayBatch, Error, Result};

/// Bytes of the length before each value.
const LENGTH_SIZE: usize = 4;

/// Values up to this long are copied into a [`Run`] as a fixed 16 bytes, running past
/// the value's end where the input allows: a fixed-size copy compiles to one vector move,
/// where a `memcpy` per value would mispredict on every change of length.
const SHORT: usize = 16;

/// Values longer than this are appended on their own rather than through a [`Run`].
const LONG: usize = 64;

/// Values in a full [`Run`].
const RUN: usize = 64;

/// Bytes of value data a [`Run`] holds.
const RUN_DATA: usize = RUN * LONG;

/// Values gathered for one call to `ByteArrayBatch::extend_from_lengths`, which appends
/// them with far less work per value than `ByteArrayBatch::push`.
struct Run {
    lengths: [u32; RUN],
    /// The values back to back.
    data: [u8; RUN_DATA],
    len: usize,
    data_len: usize,
    /// Input bytes the gathered values take, lengths included.
    input_len: usize,
}

impl Run {
    #[inline]
    const fn new() -> Self {
        Self {
            lengths: [0; RUN],
            data: [0; RUN_DATA],
            len: 0,
            data_len: 0,
            input_len: 0,
        }
    }

    /// Empties the run (its buffers are overwritten before they are read).
    #[inline]
    const fn clear(&mut self) {
        self.len = 0;
        self.data_len = 0;
        self.input_len = 0;
    }

    /// Whether a value of `len <= LONG` bytes fits.
    #[inline]
    const fn fits(&self, len: usize) -> bool {
        let room = if len < SHORT { SHORT } else { len };
        self.len < RUN && self.data_len + room <= RUN_DATA
    }

    /// Adds `value`, which [`Run::fits`]; `window` is the input from the value's start
    /// to the end of the input.
    #[inline]
    fn push(&mut self, value: &[u8], window: &[u8]) {
        let start = self.data_len;
        let fixed = (value.len() <= SHORT)
            .then(|| window.first_chunk::<SHORT>())
            .flatten();
        match (fixed, self.data.get_mut(start..start + SHORT)) {
            (Some(source), Some(target)) => target.copy_from_slice(source),
            _ => {
                if let Some(target) = self.data.get_mut(start..start + value.len()) {
                    target.copy_from_slice(value);
                }
            }
        }
        if let Some(length) = self.lengths.get_mut(self.len) {
            // `value.len() <= LONG`, so it fits in a `u32`.
            #[allow(clippy::cast_possible_truncation)]
            {
                *length = value.len() as u32;
            }
        }
        self.len += 1;
        self.data_len += value.len();
    }
}

/// Appends the PLAIN encoding of `values` to `out`.
///
/// # Errors
///
/// [`Error::LimitExceeded`] when a value is longer than `u32::MAX` bytes; `out` is then
/// left as it was.
pub fn encode<V: AsRef<[u8]>>(values: &[V], out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    for value in values {
        let value = value.as_ref();
        let Ok(length) = u32::try_from(value.len()) else {
            out.truncate(start);
            return Err(Error::LimitExceeded {
                what: "BYTE_ARRAY value length",
                requested: value.len() as u64,
                limit: u32::MAX.into(),
            });
        };
        out.extend_from_slice(&length.to_le_bytes());
        out.extend_from_slice(value);
    }
    Ok(())
}

/// Appends the PLAIN encoding of the values of `batch` to `out`.
///
/// A batch holds at most `u32::MAX` bytes, so every length fits and this cannot fail.
pub fn encode_batch(batch: &ByteArrayBatch, out: &mut Vec<u8>) {
    out.reserve(batch.len() * LENGTH_SIZE + batch.data().len());
    for pair in batch.offsets().windows(2) {
        #[allow(clippy::indexing_slicing)] // `windows(2)` yields slices of exactly two
        let (start, end) = (pair[0], pair[1]);
        out.extend_from_slice(&(end - start).to_le_bytes());
        out.extend_from_slice(
            batch
                .data()
                .get(start as usize..end as usize)
                .unwrap_or_default(),
        );
    }
}

/// Decodes a PLAIN run of a known number of BYTE_ARRAY values: into a
/// [`ByteArrayBatch`] in batches, or borrowed from the input with
/// [`Decoder::next_value`] or, through [`IntoIterator`], as an [`Iterator`] of
/// `Result<&[u8]>`.
///
/// After an error, the decoder is finished: [`Decoder::remaining`] is 0 (except for a
/// full batch, see [`Decoder::decode`]). As an iterator, it yields the error and then
/// `None`.
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    input: &'a [u8],
    /// Offset of the next value's length.
    position: usize,
    /// Values not yet decoded.
    remaining: usize,
}

impl<'a> Decoder<'a> {
    /// A decoder of `num_values` values from the start of `input`.
    ///
    /// Only the lengths' bytes are checked here (the values are checked as they are
    /// read), which already bounds `num_values` by the input's size.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when `input` is shorter than `4 * num_values` bytes.
    pub fn try_new(input: &'a [u8], num_values: usize) -> Result<Self> {
        let needed = num_values.saturating_mul(LENGTH_SIZE);
        if input.len() < needed {
            return Err(Error::truncated(
                "PLAIN BYTE_ARRAY values",
                0,
                needed,
                input.len(),
            ));
        }
        Ok(Self {
            input,
            position: 0,
            remaining: num_values,
        })
    }

    /// Values not yet decoded or skipped.
    #[inline]
    pub const fn remaining(&self) -> usize {
        self.remaining
    }

    /// Bytes of the input consumed so far. Once every value is decoded, where the data
    /// after the run starts.
    #[inline]
    pub const fn position(&self) -> usize {
        self.position
    }

    /// The next value, borrowed from the input, or `None` at the end of the run.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the value's length or bytes run past the end of the
    /// input.
    #[inline]
    pub fn next_value(&mut self) -> Result<Option<&'a [u8]>> {
        if self.remaining == 0 {
            return Ok(None);
        }
        match self.read() {
            Ok((value, end)) => {
                self.position = end;
                self.remaining -= 1;
                Ok(Some(value))
            }
            Err(error) => Err(self.fail(error)),
        }
    }

    /// Appends up to `max` values to `out` and returns how many it appended: `max`, or
    /// fewer at the end of the run.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when a value's length or bytes run past the end of the
    /// input: the values before it are in `out` and the decoder is finished.
    /// [`Error::LimitExceeded`] when `out` would exceed `u32::MAX` bytes: the decoder
    /// stays at the first value not appended (values are appended a few dozen at a time),
    /// to be continued into another batch.
    #[inline]
    pub fn decode(&mut self, out: &mut ByteArrayBatch, max: usize) -> Result<usize> {
        let count = max.min(self.remaining);
        if count < RUN / 4 {
            // Too few values to pay for setting up a run.
            for _ in 0..count {
                let (value, end) = match self.read() {
                    Ok(read) => read,
                    Err(error) => return Err(self.fail(error)),
                };
                out.push(value)?;
                self.position = end;
                self.remaining -= 1;
            }
            return Ok(count);
        }
        // Values up to `LONG` bytes are gathered into a run on the stack (short ones
        // copied as a fixed 16 bytes) and appended a run at a time; longer ones are
        // appended on their own.
        let mut run = Run::new();
        for _ in 0..count {
            let at = self.position + run.input_len;
            let (value, end) = match self.read_at(at) {
                Ok(read) => read,
                Err(error) => {
                    self.flush(&mut run, out)?;
                    return Err(self.fail(error));
                }
            };
            if value.len() <= LONG {
                if !run.fits(value.len()) {
                    self.flush(&mut run, out)?;
                }
                let start = end - value.len();
                run.push(value, self.input.get(start..).unwrap_or_default());
                run.input_len = end - self.position;
            } else {
                self.flush(&mut run, out)?;
                out.push(value)?;
                self.position = end;
                self.remaining -= 1;
            }
        }
        self.flush(&mut run, out)?;
        Ok(count)
    }

    /// Appends the values gathered in `run` and moves past them.
    #[inline]
    fn flush(&mut self, run: &mut Run, out: &mut ByteArrayBatch) -> Result<()> {
        if run.len > 0 {
            // Values are pushed only when they fit (`Run::fits`), which keeps
            // `len <= RUN` and `data_len <= RUN_DATA`, the lengths of the arrays.
            #[allow(clippy::indexing_slicing)]
            out.extend_from_lengths(&run.lengths[..run.len], &run.data[..run.data_len])?;
            self.position += run.input_len;
            self.remaining -= run.len;
            run.clear();
        }
        Ok(())
    }

    /// Skips up to `n` values and returns how many it skipped.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`], as for [`Decoder::next_value`]: the lengths of the skipped
    /// values are checked too.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let count = n.min(self.remaining);
        for _ in 0..count {
            match self.read() {
                Ok((_, end)) => {
                    self.position = end;
                    self.remaining -= 1;
                }
                Err(error) => return Err(self.fail(error)),
            }
        }
        Ok(count)
    }

    /// The value at `position` and the offset after it.
    #[inline]
    fn read(&self) -> Result<(&'a [u8], usize)> {
        self.read_at(self.position)
    }

    /// The value whose length is at offset `at` (within the input) and the offset after
    /// it.
    #[inline]
    fn read_at(&self, at: usize) -> Result<(&'a [u8], usize)> {
        let rest = self.input.get(at..).unwrap_or_default();
        let Some((length, rest)) = rest.split_first_chunk::<LENGTH_SIZE>() else {
            return Err(Error::truncated(
                "BYTE_ARRAY length",
                at,
                LENGTH_SIZE,
                rest.len(),
            ));
        };
        let length = u32::from_le_bytes(*length) as usize;
        match rest.get(..length) {
            // `rest` lies within the input, so neither addition overflows.
            Some(value) => Ok((value, at + LENGTH_SIZE + length)),
            None => Err(Error::truncated(
                "BYTE_ARRAY value",
                at + LENGTH_SIZE,
                length,
                rest.len(),
            )),
        }
    }

    #[cold]
    fn fail(&mut self, error: Error) -> Error {
        self.remaining = 0;
        error
    }
}

impl<'a> IntoIterator for Decoder<'a> {
    type Item = Result<&'a [u8]>;
    type IntoIter = Values<'a>;

    /// The remaining values, borrowed from the input.
    fn into_iter(self) -> Values<'a> {
        Values { decoder: self }
    }
}

/// The values of a [`Decoder`], borrowed from its input: every value, or the values
/// before an error and the error, then `None`.
#[derive(Debug, Clone)]
pub struct Values<'a> {
    decoder: Decoder<'a>,
}

impl<'a> Iterator for Values<'a> {
    type Item = Result<&'a [u8]>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.decoder.next_value().transpose()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let remaining = self.decoder.remaining();
        (remaining.min(1), Some(remaining))
    }
}

impl FusedIterator for Values<'_> {}
