//! The DELTA_BYTE_ARRAY decoder.

use crate::binary_packed::{self, Length, Lengths};
use crate::length_byte_array;
use parquet_core::{ByteArrayBatch, Error, FixedLenByteArrayBatch, Result};

/// Prefix lengths decoded at a time, about.
const LENGTHS: usize = 128;
/// Room for [`LENGTHS`] rounded to whole groups ([`binary_packed::Decoder::aligned_len`]).
const ROOM: usize = LENGTHS + 64;

/// Bytes one call of [`Decoder::decode`] or [`Decoder::decode_fixed`] appends at most,
/// unless a single value is larger: 64 MiB.
pub const DEFAULT_BYTE_BUDGET: usize = 64 << 20;

/// Decodes DELTA_BYTE_ARRAY values from a borrowed slice into a [`ByteArrayBatch`] or a
/// [`FixedLenByteArrayBatch`], in batches bounded by a byte budget (see the
/// [module docs](crate::byte_array)).
#[derive(Clone)]
pub struct Decoder<'a> {
    /// The prefix lengths, taken exactly ([`binary_packed::Decoder::lengths_at`]).
    prefixes: binary_packed::Decoder<'a, Length>,
    suffixes: length_byte_array::Decoder<'a>,
    /// Prefix lengths decoded but not yet used (nor checked), at `buf[buf_pos..buf_len]`:
    /// `buf_pos <= buf_len <= ROOM` always (`fill` sets `buf_len`, and `buf_pos` moves
    /// past lengths of `buf[buf_pos..buf_len]` only), which the indexing of `buf` relies
    /// on.
    buf: [Length; ROOM],
    buf_pos: usize,
    buf_len: usize,
    /// The last value decoded or skipped.
    previous: Vec<u8>,
    byte_budget: usize,
}

impl core::fmt::Debug for Decoder<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("remaining", &self.remaining())
            .field("byte_budget", &self.byte_budget)
            .field("suffixes", &self.suffixes)
            .finish_non_exhaustive()
    }
}

impl<'a> Decoder<'a> {
    /// Reads and checks the encoding at the start of `input`: the prefix lengths' header
    /// and blocks, and the suffixes as [`length_byte_array::Decoder::try_new`] does. Takes
    /// time bounded by the input's length and allocates nothing. Prefix lengths are
    /// checked as values are decoded; like the suffix lengths, they are taken exactly,
    /// not modulo 2^32.
    ///
    /// # Errors
    ///
    /// As [`binary_packed::Decoder::try_new`] and [`binary_packed::Decoder::encoded_len`]
    /// for the prefix lengths and [`length_byte_array::Decoder::try_new`] for the
    /// suffixes; [`Error::Invalid`] when the two hold different numbers of values.
    pub fn try_new(input: &'a [u8]) -> Result<Self> {
        let prefixes = binary_packed::Decoder::lengths_at(input, 0)?;
        let start = prefixes.encoded_len()?;
        let suffixes =
            length_byte_array::Decoder::try_new_at(input.get(start..).unwrap_or_default(), start)?;
        if suffixes.len() != prefixes.len() {
            return Err(Error::invalid(
                "suffix count (differs from the prefix count)",
                start,
                suffixes.len() as u64,
            ));
        }
        Ok(Self {
            prefixes,
            suffixes,
            buf: [Length(0); ROOM],
            buf_pos: 0,
            buf_len: 0,
            previous: Vec::new(),
            byte_budget: DEFAULT_BYTE_BUDGET,
        })
    }

    /// The same decoder with a byte budget of `bytes` per call.
    #[must_use]
    pub const fn with_byte_budget(mut self, bytes: usize) -> Self {
        self.byte_budget = bytes;
        self
    }

    /// Bytes one call appends at most, unless a single value is larger.
    pub const fn byte_budget(&self) -> usize {
        self.byte_budget
    }

    /// The value count of the header.
    pub const fn len(&self) -> usize {
        self.prefixes.len()
    }

    /// Whether the header declares no values.
    pub const fn is_empty(&self) -> bool {
        self.prefixes.is_empty()
    }

    /// Values not yet decoded or skipped.
    pub const fn remaining(&self) -> usize {
        self.prefixes.remaining() + (self.buf_len - self.buf_pos)
    }

    /// The length of the whole encoding: the offset, relative to the decoder's input,
    /// just past the last suffix's bytes.
    pub const fn encoded_len(&self) -> usize {
        self.suffixes.encoded_len()
    }

    /// Appends up to `max_values` values to `out` and returns how many: `max_values`
    /// unless fewer remain or the next value would take the bytes appended by this call
    /// over the byte budget. Returns at least one value when any remain and `max_values`
    /// is not 0.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] for a prefix length that is negative, above `i32::MAX` or
    /// longer than the previous value; [`Error::LimitExceeded`] when `out` would exceed `u32::MAX` bytes. Values
    /// appended before an error stay in `out`.
    pub fn decode(&mut self, out: &mut ByteArrayBatch, max_values: usize) -> Result<usize> {
        let want = max_values.min(self.remaining());
        let mut run = Run {
            previous_len: self.previous.len(),
            appended: 0,
            budget: self.byte_budget,
            first: true,
        };
        let mut n = 0;
        while n < want {
            if self.buf_pos == self.buf_len {
                self.fill()?;
            }
            let data_at = self.suffixes.data_offset();
            let (lengths, data) = self.suffixes.buffered()?;
            let k = (self.buf_len - self.buf_pos)
                .min(lengths.len())
                .min(want - n);
            if k == 0 {
                // The prefixes and suffixes are consumed in step, so only a decoder left
                // inconsistent by an earlier error gets here.
                let at = self.suffixes.encoded_len();
                self.keep_last(out, n);
                return Err(Error::truncated("suffixes", at, 1, 0));
            }
            // `k` is at most `buf_len - buf_pos` (and `buf_len <= ROOM`) and `lengths.len()`.
            #[allow(clippy::indexing_slicing)]
            let prefixes = &self.buf[self.buf_pos..self.buf_pos + k];
            #[allow(clippy::indexing_slicing)]
            let (done, bytes, result) = run.decode(
                prefixes,
                &lengths[..k],
                (data, data_at),
                &self.previous,
                out,
                &self.prefixes,
            );
            self.buf_pos += done;
            self.suffixes.advance(done, bytes);
            n += done;
            if let Err(e) = result {
                self.keep_last(out, n);
                return Err(e);
            }
            if done < k {
                break; // the byte budget is spent
            }
        }
        self.keep_last(out, n);
        Ok(n)
    }

    /// Keeps the last value of `out` as the previous value, when this call appended any.
    fn keep_last(&mut self, out: &ByteArrayBatch, n: usize) {
        if n > 0 {
            self.previous.clear();
            self.previous
                .extend_from_slice(out.last().unwrap_or_default());
        }
    }

    /// Appends up to `max_values` values to `out`, each of which must be exactly
    /// `out.width()` bytes long, and returns how many, as [`Decoder::decode`] does.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`]; [`Error::Invalid`] for a value of another length.
    pub fn decode_fixed(
        &mut self,
        out: &mut FixedLenByteArrayBatch,
        max_values: usize,
    ) -> Result<usize> {
        let want = max_values.min(self.remaining());
        let width = out.width();
        let mut n = 0;
        while n < want {
            let (prefix, suffix) = self.peek(self.previous.len())?;
            if prefix + suffix.len() != width {
                return Err(Error::invalid(
                    "fixed-length byte array length",
                    self.prefixes.position(),
                    (prefix + suffix.len()) as u64,
                ));
            }
            if n > 0 && (n + 1).saturating_mul(width) > self.byte_budget {
                break;
            }
            self.previous.truncate(prefix);
            self.previous.extend_from_slice(suffix);
            out.push(&self.previous)?;
            self.consume(suffix);
            n += 1;
        }
        Ok(n)
    }

    /// Skips up to `n` values and returns how many: `n` unless fewer remain. Only the
    /// previous value is kept, so skipping appends nothing anywhere.
    ///
    /// Values are skipped one at a time, except runs of values that repeat a prefix of
    /// the one before with an empty suffix, where both lengths are runs of bit width 0:
    /// those are skipped in constant time. So the time taken is bounded by the input's
    /// length, whatever `n`.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`].
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let want = n.min(self.remaining());
        let mut done = 0;
        while done < want {
            if self.buf_pos == self.buf_len {
                let k = self.skip_repeats(want - done)?;
                if k > 0 {
                    done += k;
                    continue;
                }
            }
            let (prefix, suffix) = self.peek(self.previous.len())?;
            self.previous.truncate(prefix);
            self.previous.extend_from_slice(suffix);
            self.consume(suffix);
            done += 1;
        }
        Ok(done)
    }

    /// Skips up to `max` values, with nothing buffered, when the prefix lengths are at a
    /// constant run of bit width 0 ([`binary_packed::Decoder::constant_run`]) of a length
    /// that the previous value has, and the suffixes at a run of empty values: each
    /// value is the same prefix of the previous one. Returns how many; 0 when the decoder
    /// is not at such a run.
    fn skip_repeats(&mut self, max: usize) -> Result<usize> {
        let Some((prefix, count)) = self.prefixes.constant_run()? else {
            return Ok(0);
        };
        // The prefix is the last one returned, which was checked; check again anyway.
        let Ok(prefix) = prefix_len(prefix.0, self.previous.len(), &self.prefixes) else {
            return Ok(0);
        };
        let k = self.suffixes.skip_empty(count.min(max))?;
        if k > 0 {
            self.prefixes.skip(k)?;
            self.previous.truncate(prefix);
        }
        Ok(k)
    }

    /// The next prefix length, checked against the previous value's length, and suffix.
    #[inline]
    fn peek(&mut self, previous_len: usize) -> Result<(usize, &'a [u8])> {
        if self.buf_pos == self.buf_len {
            self.fill()?;
        }
        // `buf_pos < buf_len <= ROOM`: lengths were left, or `fill` decoded at least one.
        #[allow(clippy::indexing_slicing)]
        let prefix = prefix_len(self.buf[self.buf_pos].0, previous_len, &self.prefixes)?;
        let suffix = self.suffixes.peek()?.ok_or(Error::truncated(
            "suffixes",
            self.suffixes.encoded_len(),
            1,
            0,
        ))?;
        Ok((prefix, suffix))
    }

    #[inline]
    fn consume(&mut self, suffix: &[u8]) {
        self.suffixes.consume(suffix);
        self.buf_pos += 1;
    }

    /// Decodes the next prefix lengths into the (empty) buffer.
    #[inline(never)]
    fn fill(&mut self) -> Result<()> {
        let n = self.prefixes.aligned_len(LENGTHS);
        // `aligned_len(LENGTHS) <= LENGTHS + BLOCK_LEN <= ROOM`.
        #[allow(clippy::indexing_slicing)]
        let n = self.prefixes.decode(&mut self.buf[..n])?;
        if n == 0 {
            return Err(Error::truncated(
                "prefix lengths",
                self.prefixes.position(),
                1,
                0,
            ));
        }
        self.buf_pos = 0;
        self.buf_len = n;
        Ok(())
    }
}

/// The state of one [`Decoder::decode`] call across batches of lengths.
struct Run {
    /// Length of the value before the next one.
    previous_len: usize,
    /// Bytes appended by this call.
    appended: usize,
    budget: usize,
    /// No value was appended by this call yet (the previous value is the decoder's).
    first: bool,
}

impl Run {
    /// Appends values made of `prefixes`, `lengths` and the suffix bytes at the start of
    /// `data` (which starts at offset `data_at` of the input) to `out`, and returns how many, the suffix bytes they took, and whether
    /// they ended in an error. Stops early when the byte budget is spent.
    ///
    /// Values of prefix length 0 are their suffixes, which follow one another in `data`:
    /// runs of them are appended with one copy.
    #[inline]
    fn decode(
        &mut self,
        prefixes: &[Length],
        lengths: &[u32],
        (data, data_at): (&[u8], usize),
        previous: &[u8],
        out: &mut ByteArrayBatch,
        position: &binary_packed::Decoder<'_, Length>,
    ) -> (usize, usize, Result<()>) {
        let (mut previous_len, mut appended, mut first) =
            (self.previous_len, self.appended, self.first);
        let budget = self.budget;
        let k = prefixes.len().min(lengths.len());
        let mut offset = 0;
        let mut done = 0;
        let mut result = Ok(());
        // Every index below is checked against `k = min(prefixes.len(), lengths.len())`
        // first, and `run <= done <= k`. A prefix is at most `previous_len`
        // (`prefix_len`), which is `previous.len()` while `first`: it changes only as a
        // value is appended, and then `first` is false.
        #[allow(clippy::indexing_slicing)]
        while done < k {
            // A run of values of prefix length 0: their suffixes, back to back in `data`,
            // appended with one copy.
            let (run, run_offset) = (done, offset);
            while done < k && prefixes[done].0 == 0 {
                let len = lengths[done] as usize;
                if !first && appended + len > budget {
                    break;
                }
                first = false;
                appended += len;
                previous_len = len;
                offset += len;
                done += 1;
            }
            if let Err(e) = flush(
                out,
                &lengths[run..done],
                (data, data_at),
                run_offset,
                offset,
            ) {
                return (run, run_offset, Err(e));
            }
            if done == k || prefixes[done].0 == 0 {
                break; // the end, or the byte budget is spent
            }
            // A value with a prefix.
            let length = lengths[done] as usize;
            let prefix = match prefix_len(prefixes[done].0, previous_len, position) {
                Ok(prefix) => prefix,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            let len = prefix + length;
            if !first && appended + len > budget {
                break;
            }
            let Some(suffix) = data.get(offset..offset + length) else {
                result = Err(Error::truncated(
                    "byte array data",
                    data_at + offset,
                    length,
                    data.len().saturating_sub(offset),
                ));
                break;
            };
            result = if first {
                out.push_parts(&previous[..prefix], suffix)
            } else {
                out.push_prefixed(prefix, suffix)
            };
            if result.is_err() {
                break;
            }
            first = false;
            appended += len;
            previous_len = len;
            offset += length;
            done += 1;
        }
        (self.previous_len, self.appended, self.first) = (previous_len, appended, first);
        (done, offset, result)
    }
}

/// Checks a prefix length read by `position` against the previous value's length.
#[inline]
fn prefix_len(
    prefix: i64,
    previous_len: usize,
    position: &binary_packed::Decoder<'_, Length>,
) -> Result<usize> {
    const MAX: usize = i32::MAX as usize;
    match usize::try_from(prefix) {
        Ok(len) if len <= previous_len.min(MAX) => Ok(len),
        _ => Err(prefix_error(prefix, position)),
    }
}

/// The error for a prefix length that is negative, above `i32::MAX`, or longer than the
/// previous value.
#[cold]
fn prefix_error(prefix: i64, position: &binary_packed::Decoder<'_, Length>) -> Error {
    if (0..=i64::from(i32::MAX)).contains(&prefix) {
        Error::invalid(
            "prefix length (longer than the previous value)",
            position.position(),
            prefix.cast_unsigned(),
        )
    } else {
        Lengths::Prefix.error(position.position(), prefix.into())
    }
}

/// Appends the values whose lengths are `lengths` and whose bytes are
/// `data[start..end]` (`data` starts at offset `data_at` of the input).
#[inline]
fn flush(
    out: &mut ByteArrayBatch,
    lengths: &[u32],
    (data, data_at): (&[u8], usize),
    start: usize,
    end: usize,
) -> Result<()> {
    if lengths.is_empty() {
        return Ok(());
    }
    let bytes = data.get(start..end).ok_or(Error::truncated(
        "byte array data",
        data_at + start,
        end - start,
        data.len().saturating_sub(start),
    ))?;
    out.extend_from_lengths(lengths, bytes)
}
