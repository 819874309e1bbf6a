//! The batch decoder.
//!
//! State between calls is one run: the values left in an RLE run, or the values left in
//! a bit-packed run plus up to one block of them already unpacked. Run headers are read
//! lazily, only when a value is asked for, so a caller that decodes exactly the number
//! of values a page holds never looks at bytes past them (some writers pad pages).

use parquet_bitpack::{BLOCK_LEN, Packable, unpack_blocks};
use parquet_core::{Cursor, Error, Result};

use crate::sink::{self, Out, Run, Sink};
use crate::{MAX_BIT_WIDTH, MAX_RUN_LEN, split_length_prefixed};

/// Values in a bit-packed group: run lengths are counted in groups.
const GROUP_LEN: usize = 8;

/// Decodes an RLE/bit-packing hybrid stream in batches.
///
/// The stream does not say how many values it holds: every method fills up to what it is
/// asked for and returns how many values it produced, fewer only at the end of the input.
/// The caller knows the count (from the page header) and asks for exactly that many.
/// After an error, the decoder's position in the stream is unspecified: later calls
/// neither panic nor loop, but what they return is not meaningful.
///
/// ```
/// use parquet_rle::Decoder;
///
/// // An RLE run of 5 copies of 3, then a bit-packed group of 8 values, at bit width 2.
/// let bytes = [0x0a, 0x03, 0x03, 0b1110_0100, 0b0001_1011];
/// let mut decoder = Decoder::try_new(&bytes, 2)?;
/// let mut out = [0u8; 20];
/// assert_eq!(decoder.decode(&mut out)?, 13);
/// assert_eq!(out[..13], [3, 3, 3, 3, 3, 0, 1, 2, 3, 3, 2, 1, 0]);
/// # Ok::<(), parquet_rle::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    /// The decoder's input; error offsets are positions in it.
    input: &'a [u8],
    /// The next unread byte: a run header, or the packed values of the current run.
    pos: usize,
    /// Where the bytes of the current bit-packed run end (at most `input.len()`).
    run_end: usize,
    bit_width: u8,
    /// Values left in the current RLE run.
    repeat_left: usize,
    /// The value of the current RLE run.
    repeat_value: u32,
    /// Values of the current bit-packed run still packed at `input[pos..run_end]`; the
    /// bits of every one of them are present. `pos` stays on a group boundary (8 values,
    /// `bit_width` bytes) until the run ends.
    packed_left: usize,
    /// Unpacked values not yet handed out: `block[block_pos..block_len]`.
    block: [u32; BLOCK_LEN],
    block_pos: usize,
    block_len: usize,
}

impl<'a> Decoder<'a> {
    /// A decoder of `input`, an RLE/bit-packing hybrid stream of `bit_width`-bit values
    /// without a length prefix (dictionary indices, and levels of data page v2).
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `bit_width` exceeds [`MAX_BIT_WIDTH`].
    pub fn try_new(input: &'a [u8], bit_width: u8) -> Result<Self> {
        if bit_width > MAX_BIT_WIDTH {
            return Err(Error::invalid("bit width", 0, bit_width.into()));
        }
        Ok(Self {
            input,
            pos: 0,
            run_end: 0,
            bit_width,
            repeat_left: 0,
            repeat_value: 0,
            packed_left: 0,
            block: [0; BLOCK_LEN],
            block_pos: 0,
            block_len: 0,
        })
    }

    /// A decoder of the length-prefixed stream at the start of `input` (levels of data
    /// page v1, booleans), and the bytes after it. Error offsets count from the start of
    /// `input`, prefix included.
    ///
    /// # Errors
    ///
    /// As [`split_length_prefixed`] and [`Decoder::try_new`].
    pub fn try_new_length_prefixed(input: &'a [u8], bit_width: u8) -> Result<(Self, &'a [u8])> {
        let (data, rest) = split_length_prefixed(input)?;
        let end = input.len() - rest.len();
        let mut decoder = Self::try_new(input.get(..end).unwrap_or_default(), bit_width)?;
        decoder.pos = end - data.len();
        Ok((decoder, rest))
    }

    /// The bit width of the values.
    pub const fn bit_width(&self) -> u8 {
        self.bit_width
    }

    /// Decodes up to `out.len()` values into `out` and returns how many it wrote: fewer
    /// than `out.len()` only when the input ends. `T` is `u8`, `u16`, `u32` or `u64`.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when the bit width exceeds `T`'s, or when a run header or an
    /// RLE value is invalid; [`Error::Truncated`] when the input ends inside a run header
    /// or an RLE value. `out` may be partly written when an error is returned.
    pub fn decode<T>(&mut self, out: &mut [T]) -> Result<usize>
    where
        T: Packable + TryFrom<u32>,
    {
        if self.bit_width > T::MAX_WIDTH {
            return Err(Error::invalid(
                "bit width for the output type",
                0,
                self.bit_width.into(),
            ));
        }
        self.drive(out.len(), &mut sink::Values { out: Out(out) })
    }

    /// Decodes up to `out.len()` booleans (bit width 1; at bit width 0 every value is
    /// `false`) and returns how many it wrote.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when the bit width exceeds 1; otherwise as [`Decoder::decode`].
    pub fn decode_bools(&mut self, out: &mut [bool]) -> Result<usize> {
        if self.bit_width > 1 {
            return Err(Error::invalid(
                "bit width for booleans",
                0,
                self.bit_width.into(),
            ));
        }
        self.drive(out.len(), &mut sink::Bools { out: Out(out) })
    }

    /// Decodes up to `out.len()` dictionary indices and writes `dict[index]` for each
    /// into `out`, returning how many it wrote. Bit-packed indices go through a stack
    /// buffer of 4 blocks of [`BLOCK_LEN`], checked once per block; RLE runs are one
    /// lookup and a fill.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for an index not below `dict.len()` (the largest index of its
    /// block is reported); otherwise as [`Decoder::decode`].
    pub fn gather<V: Copy>(&mut self, dict: &[V], out: &mut [V]) -> Result<usize> {
        self.drive(
            out.len(),
            &mut sink::Gather {
                dict,
                out: Out(out),
            },
        )
    }

    /// Skips up to `n` values and returns how many it skipped: fewer than `n` only when
    /// the input ends. Bit-packed values are skipped without unpacking them, except the
    /// group of 8 a skip ends inside.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`].
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        self.drive(n, &mut sink::Skip)
    }

    /// Hands the next values, up to `max` of them, to `f` one run piece at a time: an RLE
    /// run (or the part of it that fits in `max`) as [`Run::Repeated`], bit-packed values
    /// as [`Run::Packed`] blocks of at most [`BLOCK_LEN`]. Returns how many values were
    /// handed out: fewer than `max` only when the input ends.
    ///
    /// This is the building block of gathers into other containers, such as a byte-array
    /// dictionary:
    ///
    /// ```
    /// use parquet_rle::{Decoder, Run};
    ///
    /// let dict = ["a", "bc", "def"];
    /// let mut out = String::new();
    /// // Indices 2, 2, 2 (an RLE run of 3), then a bit-packed group 0, 1, 2, 0, 0, 0, 0, 0.
    /// let bytes = [0x06, 0x02, 0x03, 0b0010_0100, 0x00];
    /// let mut decoder = Decoder::try_new(&bytes, 2)?;
    /// let n = decoder.for_each_run(6, |run| {
    ///     let mut push = |index: u32| {
    ///         let value = dict.get(index as usize).ok_or(parquet_rle::Error::OutOfRange {
    ///             what: "dictionary index",
    ///             value: index.into(),
    ///             bound: dict.len() as u64,
    ///         })?;
    ///         out.push_str(value);
    ///         Ok(())
    ///     };
    ///     match run {
    ///         Run::Repeated { value, len } => (0..len).try_for_each(|_| push(value)),
    ///         Run::Packed(indices) => indices.iter().try_for_each(|&i| push(i)),
    ///     }
    /// })?;
    /// assert_eq!((n, out.as_str()), (6, "defdefdefabcdef"));
    /// # Ok::<(), parquet_rle::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`], and any error `f` returns, which stops the walk (the
    /// values of the piece it was given count as consumed).
    pub fn for_each_run<F>(&mut self, max: usize, f: F) -> Result<usize>
    where
        F: FnMut(Run<'_>) -> Result<()>,
    {
        self.drive(max, &mut sink::Visit(f))
    }

    /// Moves up to `max` values to `sink`: the state machine behind every public method.
    #[inline]
    fn drive<S: Sink>(&mut self, max: usize, sink: &mut S) -> Result<usize> {
        let mut done = 0;
        while done < max {
            let want = max - done;
            if self.block_pos < self.block_len {
                let start = self.block_pos;
                let n = want.min(self.block_len - start);
                self.block_pos += n;
                done += n;
                sink.take(self.block.get(start..start + n).unwrap_or_default())?;
            } else if self.repeat_left > 0 {
                let n = want.min(self.repeat_left);
                self.repeat_left -= n;
                done += n;
                sink.fill(self.repeat_value, n)?;
            } else if self.packed_left > 0 {
                if !S::DIRECT {
                    self.refill(BLOCK_LEN)?;
                    continue;
                }
                // Whole groups, or all the rest of the run when it fits, go straight from
                // the input to the sink; fewer than a group through `self.block`.
                let n = if want >= self.packed_left {
                    self.packed_left
                } else {
                    want / GROUP_LEN * GROUP_LEN
                };
                if n == 0 {
                    self.refill(GROUP_LEN)?;
                    continue;
                }
                let pos = self.pos;
                let packed = self.input.get(pos..).unwrap_or_default();
                self.consume_packed(n);
                done += n;
                sink.unpack(self.bit_width, packed, n)
                    .map_err(|e| e.shifted(pos))?;
            } else if !self.next_run()? {
                break;
            }
        }
        Ok(done)
    }

    /// Marks `values` values of the current bit-packed run as consumed: a multiple of 8,
    /// or all the rest of the run.
    #[inline]
    fn consume_packed(&mut self, values: usize) {
        self.packed_left -= values;
        self.pos = if self.packed_left == 0 {
            self.run_end
        } else {
            self.pos + values / GROUP_LEN * usize::from(self.bit_width)
        };
    }

    /// Unpacks up to `max` (8 or 32) values of the current bit-packed run into
    /// `self.block`. Called only when `self.block` is used up and `packed_left > 0`.
    fn refill(&mut self, max: usize) -> Result<()> {
        let width = self.bit_width;
        let len = self.packed_left.min(max);
        let packed = self.input.get(self.pos..).unwrap_or_default();
        if len == BLOCK_LEN {
            unpack_blocks(width, packed, core::slice::from_mut(&mut self.block))
                .map_err(|e| e.shifted(self.pos))?;
        } else {
            sink::unpack_scalar(width, packed, self.block.get_mut(..len).unwrap_or_default());
        }
        self.consume_packed(len);
        self.block_pos = 0;
        self.block_len = len;
        Ok(())
    }

    /// Reads the next run header (and an RLE run's value). Returns `false` at the end of
    /// the input.
    // Inlined into each `drive`: run headers come as often as every 8 values, and a call
    // per run measurably slows streams of short runs.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn next_run(&mut self) -> Result<bool> {
        let start = self.pos;
        let rest = self.input.get(start..).unwrap_or_default();
        let (header, header_len) = match *rest {
            [] => return Ok(false),
            // One- and two-byte headers (runs shorter than 8192 values) inline; longer,
            // overlong or cut short ones through the strict reader.
            [b0, ..] if b0 < 0x80 => (u64::from(b0), 1),
            [b0, b1, ..] if b1 < 0x80 && b1 != 0 => (u64::from(b0 & 0x7f) | u64::from(b1) << 7, 2),
            _ => long_header(rest, start)?,
        };
        let data = start + header_len;
        let len = header >> 1;
        if header & 1 == 0 {
            if len == 0 || len > MAX_RUN_LEN as u64 {
                return Err(Error::invalid("RLE run length", start, len));
            }
            self.repeat_value = self.rle_value(data)?;
            // `len <= MAX_RUN_LEN`, which fits a `usize`.
            self.repeat_left = usize::try_from(len).unwrap_or_default();
            self.pos = data + value_bytes(self.bit_width);
        } else {
            let count = len.saturating_mul(GROUP_LEN as u64);
            if len == 0 || count > MAX_RUN_LEN as u64 {
                return Err(Error::invalid("bit-packed run length", start, count));
            }
            // `count <= MAX_RUN_LEN` fits a `usize`; `bytes` saturates on 32-bit targets.
            let count = usize::try_from(count).unwrap_or_default();
            let bytes = (count / GROUP_LEN).saturating_mul(usize::from(self.bit_width));
            let available = self.input.len() - data;
            if bytes <= available {
                self.packed_left = count;
                self.run_end = data + bytes;
            } else {
                // A last run cut short: writers may omit the padding of the last group,
                // so keep the values whose bits are all present (`bit_width > 0` here).
                let present = available
                    .saturating_mul(8)
                    .checked_div(usize::from(self.bit_width))
                    .unwrap_or(count);
                self.packed_left = count.min(present);
                self.run_end = self.input.len();
            }
            self.pos = if self.packed_left == 0 {
                self.run_end
            } else {
                data
            };
        }
        Ok(true)
    }

    /// Reads the value of an RLE run at `at`.
    #[inline]
    fn rle_value(&self, at: usize) -> Result<u32> {
        let rest = self.input.get(at..).unwrap_or_default();
        let len = value_bytes(self.bit_width);
        let value = if let Some(bytes) = rest.first_chunk::<4>() {
            // Keep the value's bytes only.
            let bits = 8 * u32::from(self.bit_width.div_ceil(8));
            u32::from_le_bytes(*bytes) & u32::MAX.checked_shr(32 - bits).unwrap_or(0)
        } else {
            if rest.len() < len {
                return Err(Error::truncated("RLE run value", at, len, rest.len()));
            }
            rest.iter()
                .take(len)
                .rev()
                .fold(0, |value, &byte| value << 8 | u32::from(byte))
        };
        if u64::from(value) >> self.bit_width != 0 {
            return Err(Error::invalid("RLE run value", at, value.into()));
        }
        Ok(value)
    }
}

/// Reads a run header of more than two bytes, or one that is invalid or cut short.
#[cold]
fn long_header(rest: &[u8], start: usize) -> Result<(u64, usize)> {
    let mut cursor = Cursor::with_base(rest, start);
    let header = cursor.read_uleb128_u64("run header")?;
    Ok((header, cursor.position()))
}

/// Bytes of an RLE run's value: the bit width rounded up to whole bytes.
pub(crate) const fn value_bytes(bit_width: u8) -> usize {
    (bit_width as usize).div_ceil(8)
}
