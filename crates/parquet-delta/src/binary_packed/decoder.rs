//! The DELTA_BINARY_PACKED decoder.

use super::sealed::Word;
use super::{Integer, Layout, Length, Rules};
use parquet_bitpack::{BLOCK_LEN, unpack, unpack_blocks};
use parquet_core::{Cursor, Error, Result};

/// Groups of 32 deltas unpacked per kernel call when whole groups go to the output.
const CHUNK_GROUPS: usize = 4;

/// The widest miniblock bit width, for either type. INT32 deltas wider than 32 bits
/// (from writers that compute them in 64 bits) are taken modulo 2^32.
const MAX_WIDTH: u8 = 64;

/// Decodes DELTA_BINARY_PACKED `i32` or `i64` values from a borrowed slice, in batches.
///
/// [`Decoder::try_new`] reads and checks the header; [`Decoder::decode`] and
/// [`Decoder::skip`] then walk the blocks as far as they are asked to, reading each block
/// header and checking each miniblock as they reach it. The total value count in the
/// header is not trusted: nothing is allocated from it (the decoder allocates nothing at
/// all), and a count larger than the blocks that follow makes a later call fail with
/// [`Error::Truncated`].
///
/// After an error the decoder's state is unspecified: further calls may fail again or
/// return values, but never panic and never loop.
#[derive(Clone)]
pub struct Decoder<'a, T: Integer> {
    input: &'a [u8],
    /// Added to every offset in errors.
    base: usize,
    layout: Layout,
    header_len: usize,
    total: usize,
    /// Next unread byte: a block header or the next group of the current miniblock.
    pos: usize,
    /// Values not yet returned: `buffered + first_pending + undecoded`.
    remaining: usize,
    /// Deltas not yet decoded.
    undecoded: usize,
    /// The header's first value is not yet returned (it is in `last`).
    first_pending: bool,
    /// The last value decoded, to which the next delta applies.
    last: T::Bits,
    min_delta: T::Bits,
    /// Offset of the current block's bit widths.
    widths_at: usize,
    /// Index of the current miniblock in its block.
    miniblock: usize,
    /// Bit width of the current miniblock.
    width: u8,
    /// Delta slots of the current miniblock (padding included) not yet decoded.
    miniblock_left: usize,
    /// Decoded values not yet returned, at `buf[0][buf_pos..buf_len]`; otherwise
    /// scratch space for unpacking.
    buf: [[T::Bits; BLOCK_LEN]; CHUNK_GROUPS],
    /// Scratch space for unpacking deltas of up to 32 bits.
    narrow: [[u32; BLOCK_LEN]; CHUNK_GROUPS],
    buf_pos: usize,
    buf_len: usize,
    /// For [`Length`]s only: the current miniblock is one whose values cannot be taken
    /// exactly from the wrapping sums, so they are summed in 128 bits.
    slow: bool,
}

impl<T: Integer> core::fmt::Debug for Decoder<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("block_size", &self.layout.block_size)
            .field("miniblocks", &self.layout.miniblocks)
            .field("total", &self.total)
            .field("remaining", &self.remaining)
            .field("position", &self.pos)
            .finish_non_exhaustive()
    }
}

impl<'a, T: Integer> Decoder<'a, T> {
    /// Reads the header at the start of `input`.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the header is incomplete; [`Error::Invalid`] when the
    /// block size is not a positive multiple of 128, when the miniblock count does not
    /// divide it into miniblocks of a multiple of 32 values, or when a varint is malformed.
    pub fn try_new(input: &'a [u8]) -> Result<Self> {
        Self::with_rules(input, 0, Rules::Spec)
    }

    /// As [`Decoder::try_new`], with offsets in errors moved by `base`: for a stream that
    /// starts `base` bytes into a larger input.
    pub(crate) fn try_new_at(input: &'a [u8], base: usize) -> Result<Self> {
        Self::with_rules(input, base, Rules::Spec)
    }

    /// As [`Decoder::try_new`], accepting the small blocks of the specification's
    /// examples.
    #[cfg(test)]
    pub(crate) fn try_new_small(input: &'a [u8]) -> Result<Self> {
        Self::with_rules(input, 0, Rules::Small)
    }

    fn with_rules(input: &'a [u8], base: usize, rules: Rules) -> Result<Self> {
        let mut cursor = Cursor::with_base(input, base);
        let block_at = cursor.offset();
        let block_size = cursor.read_uleb128_u32("block size")?;
        let miniblocks_at = cursor.offset();
        let miniblocks = cursor.read_uleb128_u32("miniblock count")?;
        let total = cursor.read_uleb128_u64("total value count")?;
        let first = cursor.read_zigzag_i64("first value")?;

        let layout = Layout::new(
            (block_size as usize, block_at),
            (miniblocks as usize, miniblocks_at),
            rules,
        )?;
        let total = usize::try_from(total).map_err(|_| Error::LimitExceeded {
            what: "total value count",
            requested: total,
            limit: usize::MAX as u64,
        })?;

        Ok(Self {
            input,
            base,
            layout,
            header_len: cursor.position(),
            total,
            pos: cursor.position(),
            remaining: total,
            undecoded: total.saturating_sub(1),
            first_pending: total > 0,
            last: T::Bits::from_i64(first),
            min_delta: T::Bits::ZERO,
            widths_at: 0,
            miniblock: layout.miniblocks - 1,
            width: 0,
            miniblock_left: 0,
            buf: [[T::Bits::ZERO; BLOCK_LEN]; CHUNK_GROUPS],
            narrow: [[0; BLOCK_LEN]; CHUNK_GROUPS],
            buf_pos: 0,
            buf_len: 0,
            slow: false,
        })
    }

    /// The total value count of the header (not trusted: the blocks may hold fewer).
    pub const fn len(&self) -> usize {
        self.total
    }

    /// Whether the header declares no values.
    pub const fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Values not yet decoded or skipped.
    pub const fn remaining(&self) -> usize {
        self.remaining
    }

    /// Values per block.
    pub const fn block_size(&self) -> usize {
        self.layout.block_size
    }

    /// Miniblocks per block.
    pub const fn miniblocks(&self) -> usize {
        self.layout.miniblocks
    }

    /// A number of values close to `n` (at most `n + 32`, at least 1 while values remain)
    /// whose decoding ends on a group boundary with nothing buffered, so that the next
    /// call unpacks whole groups straight into its output: for callers that decode in
    /// fixed-size batches.
    pub(crate) fn aligned_len(&self, n: usize) -> usize {
        let pending = (self.buf_len - self.buf_pos) + usize::from(self.first_pending);
        let groups = (n.saturating_sub(pending) / BLOCK_LEN).max(1);
        (pending + groups * BLOCK_LEN).min(self.remaining)
    }

    /// The run of equal values that the decoder is at, if it is at one that skips in
    /// constant time: nothing buffered, and the rest of a miniblock of bit width 0 whose
    /// min delta is 0. Returns the value and how many times it repeats. Reads the next
    /// block header when the current miniblock is done.
    pub(crate) fn constant_run(&mut self) -> Result<Option<(T, usize)>> {
        if self.buf_pos < self.buf_len || self.first_pending || self.undecoded == 0 {
            return Ok(None);
        }
        if self.miniblock_left == 0 {
            self.next_miniblock()?;
        }
        if self.width != 0 || self.min_delta != T::Bits::ZERO {
            return Ok(None);
        }
        let count = self.miniblock_left.min(self.undecoded);
        Ok(Some((T::from_bits(self.last), count)))
    }

    /// Offset of the next byte the decoder will read, relative to its input.
    pub(crate) const fn position(&self) -> usize {
        self.base + self.pos
    }

    /// Decodes up to `out.len()` values into the start of `out` and returns how many: all
    /// of `out` unless fewer values remain.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the input ends before the values; [`Error::Invalid`] for
    /// a malformed min delta or a miniblock bit width above 64. Values decoded before the
    /// error are in `out`.
    pub fn decode(&mut self, out: &mut [T]) -> Result<usize> {
        let want = out.len().min(self.remaining);
        let mut n = 0;
        // In the loop `n < want <= out.len()` and every `k` is at most `want - n`, so
        // `out[n]` and `out[n..n + k]` are in bounds; for the buffer, `buf_pos + k <=
        // buf_len <= BLOCK_LEN` (`fill_buffer` sets `buf_len`).
        #[allow(clippy::indexing_slicing)]
        while n < want {
            if self.buf_pos < self.buf_len {
                let k = (self.buf_len - self.buf_pos).min(want - n);
                for (slot, &bits) in out[n..n + k]
                    .iter_mut()
                    .zip(&self.buf[0][self.buf_pos..self.buf_pos + k])
                {
                    *slot = T::from_bits(bits);
                }
                self.buf_pos += k;
                self.consumed(k);
                n += k;
            } else if self.first_pending {
                out[n] = T::from_bits(self.last);
                self.first_pending = false;
                self.consumed(1);
                n += 1;
            } else {
                if self.miniblock_left == 0 {
                    self.next_miniblock()?;
                }
                let available = self.miniblock_left.min(self.undecoded);
                let k = available.min(want - n);
                if self.width == 0 {
                    if T::EXACT && self.slow {
                        self.exact_progression(&mut out[n..n + k]);
                    } else {
                        self.progression(&mut out[n..n + k]);
                    }
                    self.decoded(k);
                    self.consumed(k);
                    n += k;
                } else if k >= BLOCK_LEN
                    && self.layout.group_len == BLOCK_LEN
                    && self.width <= <T::Bits as Word>::BITS
                    && !(T::EXACT && self.slow)
                {
                    let k = k / BLOCK_LEN * BLOCK_LEN;
                    self.decode_groups(&mut out[n..n + k])?;
                    n += k;
                } else {
                    self.fill_buffer()?;
                }
            }
        }
        Ok(n)
    }

    /// Skips up to `n` values and returns how many: `n` unless fewer remain.
    ///
    /// Skipping a miniblock of bit width 0 takes constant time; others are unpacked to
    /// follow the running value.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`].
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let want = n.min(self.remaining);
        let mut done = 0;
        while done < want {
            if self.buf_pos < self.buf_len {
                let k = (self.buf_len - self.buf_pos).min(want - done);
                self.buf_pos += k;
                self.consumed(k);
                done += k;
            } else if self.first_pending {
                self.first_pending = false;
                self.consumed(1);
                done += 1;
            } else {
                if self.miniblock_left == 0 {
                    self.next_miniblock()?;
                }
                let available = self.miniblock_left.min(self.undecoded);
                let k = available.min(want - done);
                if self.width == 0 {
                    self.skip_progression(k);
                    done += k;
                } else if k >= BLOCK_LEN
                    && self.layout.group_len == BLOCK_LEN
                    && self.width <= <T::Bits as Word>::BITS
                    && !(T::EXACT && self.slow)
                {
                    let k = k / BLOCK_LEN * BLOCK_LEN;
                    self.skip_groups(k)?;
                    done += k;
                } else {
                    self.fill_buffer()?;
                }
            }
        }
        Ok(done)
    }

    /// The length of the whole encoding: the offset, relative to the decoder's input,
    /// just past the last miniblock that holds values. This is where the data that
    /// follows starts (the bytes of DELTA_LENGTH_BYTE_ARRAY, the suffixes of
    /// DELTA_BYTE_ARRAY).
    ///
    /// Walks every block header from the start of the blocks, whatever has been decoded;
    /// unpacks nothing and allocates nothing. Its time is bounded by the input's length,
    /// not by the header's value count.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the blocks the header's count needs are not all there;
    /// [`Error::Invalid`] for a malformed min delta or a bit width above 64 in a miniblock
    /// that holds values.
    pub fn encoded_len(&self) -> Result<usize> {
        let Layout {
            block_size,
            miniblocks,
            miniblock_len,
            ..
        } = self.layout;
        let mut pos = self.header_len;
        let mut deltas = self.total.saturating_sub(1);
        while deltas > 0 {
            let (widths_at, widths) = self.block_header_at(pos)?;
            pos = widths_at + miniblocks;
            let in_block = deltas.min(block_size);
            let used = in_block.div_ceil(miniblock_len);
            for (index, &width) in widths.iter().take(used).enumerate() {
                pos += self.miniblock_bytes(widths_at + index, width, pos)?;
            }
            deltas -= in_block;
        }
        Ok(self.base + pos)
    }

    // ---------------------------------------------------------------------------------
    // Block structure.

    /// Reads the block header at `pos`: returns where its bit widths start and them.
    fn block_header_at(&self, pos: usize) -> Result<(usize, &'a [u8])> {
        let rest = self.input.get(pos..).unwrap_or_default();
        let mut cursor = Cursor::with_base(rest, self.base + pos);
        cursor.read_uleb128_u64("min delta")?;
        let widths_at = pos + cursor.position();
        let widths = cursor.read_bytes(self.layout.miniblocks, "miniblock bit widths")?;
        Ok((widths_at, widths))
    }

    /// Checks the bit width found at `width_at` of a miniblock that holds values and
    /// starts at `pos`, and returns the miniblock's length in bytes.
    fn miniblock_bytes(&self, width_at: usize, width: u8, pos: usize) -> Result<usize> {
        if width > MAX_WIDTH {
            return Err(Error::invalid(
                "miniblock bit width",
                self.base + width_at,
                width.into(),
            ));
        }
        // `miniblock_len` is a multiple of 8, so the miniblock is whole bytes.
        let bytes = (self.layout.miniblock_len / 8).saturating_mul(width.into());
        let available = self.input.len() - pos;
        if bytes > available {
            return Err(Error::truncated(
                "miniblock",
                self.base + pos,
                bytes,
                available,
            ));
        }
        Ok(bytes)
    }

    /// Moves to the next miniblock, reading a block header when the block is done. On
    /// error nothing changes.
    #[inline]
    fn next_miniblock(&mut self) -> Result<()> {
        let (pos, widths_at, miniblock, min_delta) = if self.miniblock + 1 < self.layout.miniblocks
        {
            (self.pos, self.widths_at, self.miniblock + 1, self.min_delta)
        } else {
            self.read_block_header()?
        };
        let at = widths_at + miniblock;
        let width = self.input.get(at).copied().unwrap_or(u8::MAX);
        let bytes = self.miniblock_bytes(at, width, pos)?;
        // The miniblocks of a block share the min delta, and their bodies follow one
        // another: the next ones of the same width that hold values and are present decode
        // as one, so that fewer, larger calls unpack them.
        let mut last = miniblock;
        let mut left = self.layout.miniblock_len;
        let mut end = pos + bytes;
        while last + 1 < self.layout.miniblocks
            && self.undecoded > left
            && self.input.get(widths_at + last + 1) == Some(&width)
            && self.input.len() - end >= bytes
        {
            last += 1;
            left += self.layout.miniblock_len;
            end += bytes;
        }
        self.pos = pos;
        self.widths_at = widths_at;
        self.miniblock = last;
        self.min_delta = min_delta;
        self.width = width;
        self.miniblock_left = left;
        // From a length (0..2^31) the 64-bit wrapping sum of a min delta within ±2^62 and
        // a delta of up to 32 bits is exact; other miniblocks of lengths are summed in
        // 128 bits.
        if T::EXACT {
            self.slow = width > 32 || min_delta.signed().unsigned_abs() > 1 << 62;
        }
        Ok(())
    }

    #[inline]
    fn read_block_header(&self) -> Result<(usize, usize, usize, T::Bits)> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let mut cursor = Cursor::with_base(rest, self.base + self.pos);
        let min_delta = cursor.read_zigzag_i64("min delta")?;
        let widths_at = self.pos + cursor.position();
        cursor.skip(self.layout.miniblocks, "miniblock bit widths")?;
        Ok((
            self.pos + cursor.position(),
            widths_at,
            0,
            T::Bits::from_i64(min_delta),
        ))
    }

    // ---------------------------------------------------------------------------------
    // Decoding.

    /// Records that `k` values were returned or skipped.
    #[inline]
    fn consumed(&mut self, k: usize) {
        self.remaining -= k;
    }

    /// Records that `k` deltas of the current miniblock were decoded.
    #[inline]
    fn decoded(&mut self, k: usize) {
        self.miniblock_left -= k;
        self.undecoded -= k;
    }

    /// Fills `out` from a miniblock of bit width 0: every delta is the min delta.
    #[inline]
    fn progression(&mut self, out: &mut [T]) {
        let step = self.min_delta;
        let mut value = self.last;
        if step == T::Bits::ZERO {
            out.fill(T::from_bits(value));
        } else {
            for slot in out.iter_mut() {
                value = value.add(step);
                *slot = T::from_bits(value);
            }
        }
        self.last = value;
    }

    /// Fills `out` from a miniblock of bit width 0, summing in 128 bits and saturating
    /// (for [`Decoder::slow`] miniblocks).
    #[cold]
    fn exact_progression(&mut self, out: &mut [T]) {
        let step = self.min_delta.signed();
        let mut value = self.last;
        for slot in out.iter_mut() {
            value = T::Bits::saturating_from(value.signed() + step);
            *slot = T::from_bits(value);
        }
        self.last = value;
    }

    /// Skips `k` values of a miniblock of bit width 0.
    #[inline]
    fn skip_progression(&mut self, k: usize) {
        self.last = if T::EXACT && self.slow {
            let steps = self.min_delta.signed().saturating_mul(k as i128);
            T::Bits::saturating_from(self.last.signed().saturating_add(steps))
        } else {
            self.last.add(self.min_delta.mul(T::Bits::from_usize(k)))
        };
        self.decoded(k);
        self.consumed(k);
    }

    /// Decodes `out.len()` values, a multiple of 32 that the current miniblock holds,
    /// straight into `out`, a group of 32 at a time (through the empty buffer, which
    /// needs no zeroing).
    #[inline]
    fn decode_groups(&mut self, out: &mut [T]) -> Result<()> {
        let width = self.width;
        let min_delta = self.min_delta;
        let mut last = self.last;
        let mut pos = self.pos;
        let (groups, _) = out.as_chunks_mut::<BLOCK_LEN>();
        if width == <T::Bits as Word>::BITS {
            // Deltas at the full width are plain words: sum them straight from the input.
            let group_bytes = BLOCK_LEN * <T::Bits as Word>::SIZE;
            let needed = groups.len() * group_bytes;
            let Some(bytes) = self.input.get(pos..pos + needed) else {
                return Err(self.truncated_miniblock(needed));
            };
            for (words, out) in bytes.chunks_exact(group_bytes).zip(groups) {
                last = prefix_sum(|i| T::Bits::word(words, i), min_delta, last, out);
            }
            pos += needed;
        } else if width <= 32 {
            // Deltas of up to 32 bits (of either type) unpack with the `u32` kernels.
            // A chunk holds at most `CHUNK_GROUPS` groups, and `prefix_sum` asks for
            // `deltas[i]` with `i < BLOCK_LEN` only.
            #[allow(clippy::indexing_slicing)]
            for out in groups.chunks_mut(CHUNK_GROUPS) {
                let scratch = &mut self.narrow[..out.len()];
                let rest = self.input.get(pos..).unwrap_or_default();
                pos +=
                    unpack_blocks(width, rest, scratch).map_err(|e| e.shifted(self.base + pos))?;
                for (deltas, out) in scratch.iter().zip(out) {
                    last = prefix_sum(|i| T::Bits::from_u32(deltas[i]), min_delta, last, out);
                }
            }
        } else {
            // As above.
            #[allow(clippy::indexing_slicing)]
            for out in groups.chunks_mut(CHUNK_GROUPS) {
                let scratch = &mut self.buf[..out.len()];
                pos += unpack_groups(width, self.input, pos, scratch)
                    .map_err(|e| e.shifted(self.base))?;
                for (deltas, out) in scratch.iter().zip(out) {
                    last = prefix_sum(|i| deltas[i], min_delta, last, out);
                }
            }
        }
        self.pos = pos;
        self.last = last;
        self.decoded(out.len());
        self.consumed(out.len());
        Ok(())
    }

    #[cold]
    fn truncated_miniblock(&self, needed: usize) -> Error {
        Error::truncated(
            "miniblock",
            self.base + self.pos,
            needed,
            self.input.len() - self.pos,
        )
    }

    /// Skips `k` values, a multiple of 32 that the current miniblock holds.
    fn skip_groups(&mut self, k: usize) -> Result<()> {
        let width = self.width;
        let mut sum = T::Bits::ZERO;
        let mut pos = self.pos;
        let mut left = k / BLOCK_LEN;
        while left > 0 {
            let groups = left.min(CHUNK_GROUPS);
            if width <= 32 {
                #[allow(clippy::indexing_slicing)] // `groups <= CHUNK_GROUPS`, the `min` above
                let scratch = &mut self.narrow[..groups];
                let rest = self.input.get(pos..).unwrap_or_default();
                pos +=
                    unpack_blocks(width, rest, scratch).map_err(|e| e.shifted(self.base + pos))?;
                sum = scratch
                    .as_flattened()
                    .iter()
                    .fold(sum, |sum, &delta| sum.add(T::Bits::from_u32(delta)));
            } else {
                #[allow(clippy::indexing_slicing)] // `groups <= CHUNK_GROUPS`, the `min` above
                let scratch = &mut self.buf[..groups];
                pos += unpack_groups(width, self.input, pos, scratch)
                    .map_err(|e| e.shifted(self.base))?;
                sum = scratch
                    .as_flattened()
                    .iter()
                    .fold(sum, |sum, &delta| sum.add(delta));
            }
            left -= groups;
        }
        self.pos = pos;
        self.last = self
            .last
            .add(sum)
            .add(self.min_delta.mul(T::Bits::from_usize(k)));
        self.decoded(k);
        self.consumed(k);
        Ok(())
    }

    /// Decodes the next group of the current miniblock (of bit width above 0) into the
    /// buffer: the tail of a miniblock, and every group of the rare miniblocks that the
    /// group paths leave out (INT32 deltas wider than 32 bits, lengths that need 128-bit
    /// sums).
    #[cold]
    fn fill_buffer(&mut self) -> Result<()> {
        let group = self.layout.group_len;
        let mut deltas = [T::Bits::ZERO; BLOCK_LEN];
        let input = self.input.get(self.pos..).unwrap_or_default();
        // `group_len` is 32 = `BLOCK_LEN` (or, in tests, 8, 16 or 24): `Layout::new`.
        #[allow(clippy::indexing_slicing)]
        let used = unpack_any(self.width, input, &mut deltas[..group])
            .map_err(|e| e.shifted(self.base + self.pos))?;
        let real = group.min(self.undecoded);
        let mut last = self.last;
        // `real <= group <= BLOCK_LEN`, and `buf` has `CHUNK_GROUPS >= 1` blocks.
        #[allow(clippy::indexing_slicing)]
        if T::EXACT && self.slow {
            let min_delta = self.min_delta.signed();
            for (slot, &delta) in self.buf[0].iter_mut().zip(&deltas[..real]) {
                last = T::Bits::saturating_from(last.signed() + min_delta + delta.unsigned());
                *slot = last;
            }
        } else {
            for (slot, &delta) in self.buf[0].iter_mut().zip(&deltas[..real]) {
                last = last.add(delta.add(self.min_delta));
                *slot = last;
            }
        }
        self.pos += used;
        self.last = last;
        self.buf_pos = 0;
        self.buf_len = real;
        self.miniblock_left -= group;
        self.undecoded -= real;
        Ok(())
    }
}

/// Unpacks `out.len()` groups of deltas at `width` bits from `input[pos..]` and returns
/// the bytes used. Errors report offsets in `input`.
#[inline]
fn unpack_groups<B: Word>(
    width: u8,
    input: &[u8],
    pos: usize,
    out: &mut [[B; BLOCK_LEN]],
) -> Result<usize> {
    let rest = input.get(pos..).unwrap_or_default();
    // At the full width the deltas are plain words: copying them beats the kernels.
    if width == B::BITS
        && let Some(used) = B::read_words(rest, out)
    {
        return Ok(used);
    }
    unpack_blocks(width, rest, out).map_err(|e| e.shifted(pos))
}

/// Unpacks `out.len()` (at most [`BLOCK_LEN`]) deltas at `width` bits from the start of
/// `input`, reduced modulo 2^BITS when `width` is wider than `B`, and returns the bytes
/// used.
#[inline]
fn unpack_any<B: Word>(width: u8, input: &[u8], out: &mut [B]) -> Result<usize> {
    if width <= B::BITS {
        return unpack(width, input, out);
    }
    let mut wide = [0u64; BLOCK_LEN];
    let wide = wide.get_mut(..out.len()).unwrap_or_default();
    let used = unpack(width, input, wide)?;
    for (slot, &delta) in out.iter_mut().zip(wide.iter()) {
        *slot = B::from_i64(delta.cast_signed());
    }
    Ok(used)
}

/// Writes the running sum of `last` and `deltas` (each plus `min_delta`) to `out`, and
/// returns the last value.
///
/// A plain running sum is a chain of dependent additions, one per value. Here the 32
/// deltas are summed as four independent runs of eight, whose additions the CPU
/// overlaps; each run is then moved by the total of the runs before it.
#[inline]
fn prefix_sum<T: Integer>(
    deltas: impl Fn(usize) -> T::Bits,
    min_delta: T::Bits,
    last: T::Bits,
    out: &mut [T; BLOCK_LEN],
) -> T::Bits {
    const RUNS: usize = 4;
    const RUN: usize = BLOCK_LEN / RUNS;
    let mut local = [T::Bits::ZERO; BLOCK_LEN];
    let mut sums = [T::Bits::ZERO; RUNS];
    for i in 0..RUN {
        for (run, sum) in sums.iter_mut().enumerate() {
            *sum = sum.add(deltas(run * RUN + i).add(min_delta));
            #[allow(clippy::indexing_slicing)] // `run < RUNS`, `i < RUN`: below `BLOCK_LEN`
            {
                local[run * RUN + i] = *sum;
            }
        }
    }
    let mut base = last;
    let (local, _) = local.as_chunks::<RUN>();
    let (out, _) = out.as_chunks_mut::<RUN>();
    for ((local, out), &sum) in local.iter().zip(out).zip(&sums) {
        for (slot, &value) in out.iter_mut().zip(local) {
            *slot = T::from_bits(value.add(base));
        }
        base = base.add(sum);
    }
    base
}

impl<'a> Decoder<'a, Length> {
    /// A decoder of lengths (of byte arrays, or of prefixes), as [`Decoder::try_new_at`]
    /// makes, that takes the values exactly rather than modulo 2^64: every value it
    /// returns up to the first one outside `0..=i32::MAX` is the exact sum of the first
    /// value and the deltas, or saturated to the `i64` range when that sum is beyond it.
    /// Callers check the values in order and stop at the first outside that range.
    ///
    /// Values after a length need no more than 64 bits: from one in `0..2^31`, a min
    /// delta within ±2^62 and a delta of up to 32 bits (every writer's, since the
    /// difference of two lengths fits 32 bits) cannot overflow, so such miniblocks decode
    /// at full speed; others are summed in 128 bits.
    pub(crate) fn lengths_at(input: &'a [u8], base: usize) -> Result<Self> {
        Self::try_new_at(input, base)
    }

    /// Skips up to `n` values as byte array lengths: checks that each is in
    /// `0..=i32::MAX` and returns how many were skipped and their sum. Stops early, after
    /// the value that takes the sum over `limit`.
    ///
    /// Runs of a miniblock of bit width 0 are summed in constant time, so the time taken
    /// is bounded by the input's length, whatever `n` and the header's count. Allocates
    /// nothing.
    pub(crate) fn skip_lengths(&mut self, n: usize, limit: u64) -> Result<(usize, u64)> {
        let want = n.min(self.remaining);
        let mut done = 0;
        let mut sum = 0u64;
        let mut chunk = [Length(0); 17 * BLOCK_LEN + 1];
        while done < want && sum <= limit {
            let at_run = self.buf_pos == self.buf_len && !self.first_pending;
            if at_run && self.miniblock_left == 0 {
                self.next_miniblock()?;
            }
            if at_run && self.width == 0 {
                // The values are last + d, last + 2 d, …, last + k d, exactly: all are
                // lengths exactly when the last one is (the first, `last`, already is).
                let k = self.miniblock_left.min(self.undecoded).min(want - done);
                let start = self.last.signed();
                let step = self.min_delta.signed();
                // |step| <= 2^63 and k < 2^32: no overflow.
                let count = k as i128;
                let end = start + step * count;
                if !(0..=i128::from(i32::MAX)).contains(&end) {
                    return Err(Lengths::ByteArray.error(self.position(), end));
                }
                // Both ends are lengths, so |step| * count < 2^31.
                let run = start * count + step * (count * (count + 1) / 2);
                sum = sum.saturating_add(u64::try_from(run).unwrap_or(u64::MAX));
                self.skip_progression(k);
                done += k;
                continue;
            }
            let k = self.aligned_len(16 * BLOCK_LEN).min(want - done);
            // `aligned_len(n)` is at most `n + BLOCK_LEN` (`chunk` has one more).
            #[allow(clippy::indexing_slicing)]
            let k = self.decode(&mut chunk[..k])?;
            #[allow(clippy::indexing_slicing)] // `decode` returns at most the `k` it was given
            let decoded = &chunk[..k];
            sum += Lengths::ByteArray.check(decoded, self.position())?;
            done += k;
        }
        Ok((done, sum))
    }
}

/// What a stream of lengths measures, for the errors about them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lengths {
    /// The values of DELTA_LENGTH_BYTE_ARRAY (and the suffixes of DELTA_BYTE_ARRAY).
    ByteArray,
    /// The prefixes of DELTA_BYTE_ARRAY.
    Prefix,
}

/// The largest length: a byte array is at most `i32::MAX` bytes.
const MAX_LENGTH: i64 = i32::MAX as i64;

impl Lengths {
    /// Checks that every one of `lengths` is in `0..=i32::MAX` and returns their sum; the
    /// first outside is an error at offset `at`.
    #[inline]
    pub(crate) fn check(self, lengths: &[Length], at: usize) -> Result<u64> {
        // A negative length has its top bit set: one pass finds whether any is outside.
        let outside = lengths.iter().fold(0, |outside, &Length(length)| {
            outside | length.cast_unsigned()
        });
        if outside > MAX_LENGTH.cast_unsigned() {
            let bad = lengths
                .iter()
                .find(|&&Length(length)| !(0..=MAX_LENGTH).contains(&length));
            return Err(self.error(at, bad.map_or(-1, |length| length.0).into()));
        }
        Ok(lengths.iter().map(|length| length.0.cast_unsigned()).sum())
    }

    /// The error for `value`, a length outside `0..=i32::MAX` found at offset `at`:
    /// [`Error::Invalid`], "(negative)" with the value's 64-bit two's complement, or
    /// "(above `i32::MAX`)" with the value saturated to `u64`.
    #[cold]
    pub(crate) fn error(self, at: usize, value: i128) -> Error {
        let (negative, above) = match self {
            Self::ByteArray => (
                "byte array length (negative)",
                "byte array length (above i32::MAX)",
            ),
            Self::Prefix => ("prefix length (negative)", "prefix length (above i32::MAX)"),
        };
        if value < 0 {
            let bits = i64::try_from(value).unwrap_or(i64::MIN).cast_unsigned();
            Error::invalid(negative, at, bits)
        } else {
            Error::invalid(above, at, u64::try_from(value).unwrap_or(u64::MAX))
        }
    }
}
