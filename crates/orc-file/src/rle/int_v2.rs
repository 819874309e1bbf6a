//! Integer RLE version 2 (orc-v1.md, "Integer Run Length Encoding, version 2"): runs of
//! up to 512 values in one of four sub-encodings, chosen by the first two bits.
//!
//! ```text
//! int-rle-v2   := ( short-repeat | direct | patched-base | delta )*
//! short-repeat := 00 www ccc  value:(www + 1 bytes, big-endian)      // ccc + 3 copies
//! direct       := 01 wwwww l:9  values:(l + 1 values of W bits)
//! patched-base := 10 wwwww l:9  bbb ppppp  ggg nnnnn  base:(bbb + 1 bytes)
//!                 values:(l + 1 values of W bits)
//!                 patches:(nnnnn entries of closest(ggg + 1 + P) bits: gap, then patch)
//! delta        := 11 wwwww l:9  base:varint  delta-base:signed-varint
//!                 deltas:(l - 1 values of W bits; none when wwwww = 0: a fixed delta)
//! ```
//!
//! `W` and `P` come from the 5-bit width table (1 to 24, 26, 28, 30, 32, 40, 48, 56, 64;
//! for DELTA, code 0 is width 0), packed values are big-endian and MSB-first, padded to a
//! byte at the end of each block. Short repeats and direct values are zigzagged in a
//! signed stream, as is the delta base value; the patched base carries its sign in its
//! top bit; deltas are magnitudes whose sign is the delta base's.
//!
//! The quirks of real files, handled as Java's reader does: a DELTA run of width 0 is a
//! fixed delta (0 for long repeats); a patch of 0 with a gap of 255 only moves the patch
//! index on (gaps past 255); a patch past the run or after a gap of 0 is ignored; a
//! `PATCHED_BASE` patch is shifted by the width with Java's shift (mod 64); a DELTA run of
//! length 1 with a width is two values.

use super::bitpack::{pack, packed_len, unpack, unpack_zigzag};
use super::{Sign, read_u8, read_varint, take, write_signed_varint};
use parquet_core::{Error, Result, varint, zigzag};

/// Most values in a run.
const MAX_SCOPE: usize = 512;
/// Fewest values in a short repeat (and in a run worth more than DIRECT).
const MIN_REPEAT: usize = 3;
/// Most values in a short repeat.
const MAX_SHORT_REPEAT: usize = 10;
/// Most entries in a patch list (5 bits).
const MAX_PATCHES: usize = 31;
/// The first base magnitude that `PATCHED_BASE` cannot write: with its sign bit, 2^56
/// takes more than the 8 bytes that the header's 3 bits can say.
const MAX_PATCHED_BASE: u64 = 1 << 56;

/// The widths of the 5-bit width table, by code.
const WIDTHS: [u32; 32] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 28,
    30, 32, 40, 48, 56, 64,
];

/// The width of a 5-bit code (1 to 64).
#[inline]
fn decode_width(code: u8) -> u32 {
    WIDTHS.get(usize::from(code & 0x1f)).copied().unwrap_or(64)
}

/// The table width that holds `bits` bits (Java's `getClosestFixedBits`; 0 gives 1).
const fn closest_fixed_bits(bits: u32) -> u32 {
    match bits {
        0 => 1,
        1..=24 => bits,
        25..=26 => 26,
        27..=28 => 28,
        29..=30 => 30,
        31..=32 => 32,
        33..=40 => 40,
        41..=48 => 48,
        49..=56 => 56,
        _ => 64,
    }
}

/// The widths an aligned writer uses (Java's `getClosestAlignedFixedBits`).
const fn closest_aligned_fixed_bits(bits: u32) -> u32 {
    match bits {
        0 | 1 => 1,
        2 => 2,
        3..=4 => 4,
        5..=8 => 8,
        9..=16 => 16,
        17..=24 => 24,
        25..=32 => 32,
        33..=40 => 40,
        41..=48 => 48,
        49..=56 => 56,
        _ => 64,
    }
}

/// The 5-bit code of the table width that holds `bits` bits (Java's `encodeBitWidth`).
const fn encode_width(bits: u32) -> u8 {
    match closest_fixed_bits(bits) {
        // 1 to 24.
        #[allow(clippy::cast_possible_truncation)]
        width @ 1..=24 => (width - 1) as u8,
        26 => 24,
        28 => 25,
        30 => 26,
        32 => 27,
        40 => 28,
        48 => 29,
        56 => 30,
        _ => 31,
    }
}

/// Bits `value` needs, rounded up to a table width (Java's `findClosestNumBits`).
const fn closest_num_bits(value: u64) -> u32 {
    closest_fixed_bits(64 - value.leading_zeros())
}

/// The table width below which all but `(1 - p) * len` of `data` fit (Java's
/// `percentileBits`, floating point and all).
fn percentile_bits(data: &[i64], p: f64) -> u32 {
    let mut histogram = [0i32; 32];
    for &value in data {
        let code = encode_width(closest_num_bits(value.cast_unsigned()));
        if let Some(count) = histogram.get_mut(usize::from(code)) {
            *count += 1;
        }
    }
    // As Java: `(int) (length * (1.0 - p))`; `data` holds at most 512 values.
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    let mut left = (data.len() as f64 * (1.0 - p)) as i32;
    for (code, &count) in histogram.iter().enumerate().rev() {
        left -= count;
        if left < 0 {
            #[allow(clippy::cast_possible_truncation)] // below 32
            return decode_width(code as u8);
        }
    }
    0
}

/// A big-endian unsigned integer of up to 8 bytes.
#[inline]
fn be_u64(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0u64, |value, &byte| value << 8 | u64::from(byte))
}

// ---------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------

/// The rest of the run being decoded.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// `left` more values: `next`, `next + step`, … (short repeats and fixed deltas).
    Step { next: i64, step: i64, left: usize },
    /// `buffer[start..end]`.
    Buffered { start: usize, end: usize },
}

/// A patch resolved from a `PATCHED_BASE` patch list: `value[index] |= bits << width`.
#[derive(Debug, Clone, Copy)]
struct Patch {
    index: u16,
    bits: u64,
}

/// What a run needs to be expanded: its bytes have been consumed and checked.
enum Header<'a> {
    Step {
        first: i64,
        step: i64,
        count: usize,
    },
    Direct {
        data: &'a [u8],
        width: u32,
        count: usize,
    },
    Patched {
        data: &'a [u8],
        width: u32,
        count: usize,
        /// Added to every value; the decoder's `patches` apply first.
        base: i64,
    },
    Delta {
        data: &'a [u8],
        width: u32,
        count: usize,
        first: i64,
        delta_base: i64,
    },
}

impl Header<'_> {
    const fn count(&self) -> usize {
        match *self {
            Self::Step { count, .. }
            | Self::Direct { count, .. }
            | Self::Patched { count, .. }
            | Self::Delta { count, .. } => count,
        }
    }
}

/// Decodes an integer RLE v2 stream held in `B`: a borrowed `&[u8]`, or an owned buffer
/// such as `bytes::Bytes` or `Vec<u8>`.
#[derive(Debug, Clone)]
pub struct Decoder<B> {
    input: B,
    pos: usize,
    signed: bool,
    run: Run,
    /// The run being decoded, when `out` had no room for all of it (512 values once used).
    buffer: Vec<i64>,
    /// The patches of the last `PATCHED_BASE` header read (at most 31).
    patches: Vec<Patch>,
}

impl<B: AsRef<[u8]>> Decoder<B> {
    /// A decoder of the whole (decompressed) stream `input`; a [`Sign::Signed`] stream
    /// zigzags its values, an unsigned one gives `i64`s holding the `u64` bits.
    pub const fn new(input: B, sign: Sign) -> Self {
        Self {
            input,
            pos: 0,
            signed: sign.is_signed(),
            run: Run::Step {
                next: 0,
                step: 0,
                left: 0,
            },
            buffer: Vec::new(),
            patches: Vec::new(),
        }
    }

    /// Bytes of the input not yet consumed (the run being decoded has been).
    pub fn remaining_input(&self) -> usize {
        self.input.as_ref().len().saturating_sub(self.pos)
    }

    /// Goes on decoding from `input`, which must begin with the bytes this decoder has
    /// not consumed yet (its [`remaining_input`](Self::remaining_input)), followed by
    /// more of the stream: a stream decompressed a chunk at a time, whose window moved.
    /// The run being decoded carries on into it.
    pub fn set_input(&mut self, input: B) {
        self.input = input;
        self.pos = 0;
    }

    /// Fills `out` from the front and returns how many values it wrote: fewer than
    /// `out.len()` only when the input ends at a run boundary.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when a run is cut short; [`Error::Invalid`] for an overlong
    /// varint or a patch list that cannot be read.
    pub fn decode(&mut self, out: &mut [i64]) -> Result<usize> {
        let mut done = self.drain(out);
        let input = self.input.as_ref();
        while done < out.len() && self.pos < input.len() {
            let rest = out.get_mut(done..).unwrap_or_default();
            let header = read_header(input, &mut self.pos, self.signed, &mut self.patches)?;
            let count = header.count();
            if let Header::Step { first, step, .. } = header {
                let written = count.min(rest.len());
                let next = fill_step(rest.get_mut(..written).unwrap_or_default(), first, step);
                self.run = Run::Step {
                    next,
                    step,
                    left: count - written,
                };
                done += written;
            } else if let Some(dst) = rest.get_mut(..count) {
                expand(&header, &self.patches, dst, self.signed);
                done += count;
            } else {
                // Not enough room: expand into the buffer, hand out the front.
                self.buffer.resize(MAX_SCOPE, 0);
                let buffer = self.buffer.get_mut(..count).unwrap_or_default();
                expand(&header, &self.patches, buffer, self.signed);
                let written = rest.len();
                if let Some(src) = buffer.get(..written) {
                    rest.copy_from_slice(src);
                }
                self.run = Run::Buffered {
                    start: written,
                    end: count,
                };
                done += written;
            }
        }
        Ok(done)
    }

    /// Skips up to `n` values and returns how many it skipped: fewer than `n` only when
    /// the input ends at a run boundary. Whole runs are skipped without expanding them.
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode).
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let mut done = self.drain_skip(n);
        let input = self.input.as_ref();
        while done < n && self.pos < input.len() {
            let want = n - done;
            let header = read_header(input, &mut self.pos, self.signed, &mut self.patches)?;
            let count = header.count();
            if count <= want {
                done += count;
                continue;
            }
            if let Header::Step { first, step, .. } = header {
                self.run = Run::Step {
                    next: step_by(first, step, want),
                    step,
                    left: count - want,
                };
            } else {
                self.buffer.resize(MAX_SCOPE, 0);
                expand(
                    &header,
                    &self.patches,
                    self.buffer.get_mut(..count).unwrap_or_default(),
                    self.signed,
                );
                self.run = Run::Buffered {
                    start: want,
                    end: count,
                };
            }
            done += want;
        }
        Ok(done)
    }

    /// Hands out what is left of the current run.
    #[inline]
    fn drain(&mut self, out: &mut [i64]) -> usize {
        match &mut self.run {
            Run::Step { next, step, left } => {
                let count = (*left).min(out.len());
                *next = fill_step(out.get_mut(..count).unwrap_or_default(), *next, *step);
                *left -= count;
                count
            }
            Run::Buffered { start, end } => {
                let count = (*end - *start).min(out.len());
                if let (Some(dst), Some(src)) = (
                    out.get_mut(..count),
                    self.buffer.get(*start..*start + count),
                ) {
                    dst.copy_from_slice(src);
                }
                *start += count;
                count
            }
        }
    }

    /// Skips up to `n` values of the current run.
    #[inline]
    fn drain_skip(&mut self, n: usize) -> usize {
        match &mut self.run {
            Run::Step { next, step, left } => {
                let count = (*left).min(n);
                *next = step_by(*next, *step, count);
                *left -= count;
                count
            }
            Run::Buffered { start, end } => {
                let count = (*end - *start).min(n);
                *start += count;
                count
            }
        }
    }
}

/// Reads the run header at `*pos` and consumes the run's bytes, having checked they are
/// all there; on error `*pos` does not move. A `PATCHED_BASE` run's patches go to `patches`.
fn read_header<'i>(
    input: &'i [u8],
    pos: &mut usize,
    signed: bool,
    patches: &mut Vec<Patch>,
) -> Result<Header<'i>> {
    let value = |raw: u64| {
        if signed {
            zigzag::decode_i64(raw)
        } else {
            raw.cast_signed()
        }
    };
    let mut at = *pos;
    let first = read_u8(input, &mut at, "RLE v2 header")?;
    let header = match first >> 6 {
        0 => {
            let bytes = usize::from(first >> 3 & 0x07) + 1;
            let count = usize::from(first & 0x07) + MIN_REPEAT;
            let raw = be_u64(take(input, &mut at, bytes, "RLE v2 short repeat value")?);
            Header::Step {
                first: value(raw),
                step: 0,
                count,
            }
        }
        1 => {
            let second = read_u8(input, &mut at, "RLE v2 direct header")?;
            let width = decode_width(first >> 1);
            let count = run_length(first, second) + 1;
            let data = take(
                input,
                &mut at,
                packed_len(count, width),
                "RLE v2 direct values",
            )?;
            Header::Direct { data, width, count }
        }
        2 => read_patched_base(input, first, &mut at, patches)?,
        _ => {
            let second = read_u8(input, &mut at, "RLE v2 delta header")?;
            let code = first >> 1 & 0x1f;
            let length = run_length(first, second);
            let first_value = value(read_varint(input, &mut at, "RLE v2 delta base value")?);
            let delta = zigzag::decode_i64(read_varint(input, &mut at, "RLE v2 delta base")?);
            if code == 0 {
                Header::Step {
                    first: first_value,
                    step: delta,
                    count: length + 1,
                }
            } else {
                let width = decode_width(code);
                // Java writes `length + 1` values, and reads two even when `length` is 0.
                let count = (length + 1).max(2);
                let data = take(
                    input,
                    &mut at,
                    packed_len(count - 2, width),
                    "RLE v2 delta values",
                )?;
                Header::Delta {
                    data,
                    width,
                    count,
                    first: first_value,
                    delta_base: delta,
                }
            }
        }
    };
    *pos = at;
    Ok(header)
}

/// The rest of a `PATCHED_BASE` header (`first` read, at `*pos - 1`) and its run.
fn read_patched_base<'i>(
    input: &'i [u8],
    first: u8,
    pos: &mut usize,
    patches: &mut Vec<Patch>,
) -> Result<Header<'i>> {
    let header_at = pos.saturating_sub(1);
    let second = read_u8(input, pos, "RLE v2 patched base header")?;
    let third = read_u8(input, pos, "RLE v2 patched base header")?;
    let fourth = read_u8(input, pos, "RLE v2 patched base header")?;
    let width = decode_width(first >> 1);
    let count = run_length(first, second) + 1;
    let base_bytes = usize::from(third >> 5) + 1;
    let patch_width = decode_width(third);
    let gap_width = u32::from(fourth >> 5) + 1;
    let num_entries = usize::from(fourth & 0x1f);

    let raw = be_u64(take(input, pos, base_bytes, "RLE v2 patched base value")?);
    let sign = 1u64 << (base_bytes * 8 - 1);
    let base = if raw & sign == 0 {
        raw.cast_signed()
    } else {
        (raw & !sign).cast_signed().wrapping_neg()
    };
    let data = take(
        input,
        pos,
        packed_len(count, width),
        "RLE v2 patched base values",
    )?;
    if patch_width + gap_width > 64 {
        return Err(Error::invalid(
            "RLE v2 patch width + patch gap width",
            header_at + 2,
            u64::from(patch_width + gap_width),
        ));
    }
    let entry_width = closest_fixed_bits(patch_width + gap_width);
    let list_at = *pos;
    let list = take(
        input,
        pos,
        packed_len(num_entries, entry_width),
        "RLE v2 patch list",
    )?;
    let mut entries = [0i64; MAX_PATCHES];
    let entries = entries.get_mut(..num_entries).unwrap_or_default();
    unpack(list, entry_width, entries);

    // Resolve the list as Java's reader walks it: gaps are relative to the previous
    // patch, entries of gap 255 and patch 0 only add 255 to the next gap.
    patches.clear();
    let patch_mask = u64::MAX >> (64 - patch_width);
    let mut entries = entries.iter().map(|&entry| entry.cast_unsigned());
    let mut index = 0u64;
    while let Some(mut entry) = entries.next() {
        let mut gap = 0u64;
        while entry >> patch_width == 255 && entry & patch_mask == 0 {
            gap += 255;
            entry = entries.next().ok_or(Error::invalid(
                "RLE v2 patch list (ends in a gap entry)",
                list_at,
                num_entries as u64,
            ))?;
        }
        gap = gap.saturating_add(entry >> patch_width);
        if !patches.is_empty() && gap == 0 {
            // Java's reader has passed this index: no later patch applies.
            break;
        }
        index = index.saturating_add(gap);
        if index >= count as u64 {
            break;
        }
        #[allow(clippy::cast_possible_truncation)] // below 512
        patches.push(Patch {
            index: index as u16,
            bits: entry & patch_mask,
        });
    }
    Ok(Header::Patched {
        data,
        width,
        count,
        base,
    })
}

/// The 9-bit run length field of a header's first two bytes.
#[inline]
fn run_length(first: u8, second: u8) -> usize {
    usize::from(first & 0x01) << 8 | usize::from(second)
}

/// `start + step * count`, wrapping.
#[inline]
fn step_by(start: i64, step: i64, count: usize) -> i64 {
    // `count` is at most 512 here.
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    start.wrapping_add(step.wrapping_mul(count as i64))
}

/// Writes `start`, `start + step`, … to `out` and returns the next value.
#[inline]
fn fill_step(out: &mut [i64], start: i64, step: i64) -> i64 {
    if step == 0 {
        out.fill(start);
        start
    } else {
        let mut value = start;
        for slot in out {
            *slot = value;
            value = value.wrapping_add(step);
        }
        value
    }
}

/// Expands a packed run into `out`, which has exactly the run's length.
fn expand(header: &Header<'_>, patches: &[Patch], out: &mut [i64], signed: bool) {
    match *header {
        Header::Step { first, step, .. } => {
            fill_step(out, first, step);
        }
        Header::Direct { data, width, .. } => {
            if signed {
                unpack_zigzag(data, width, out);
            } else {
                unpack(data, width, out);
            }
        }
        Header::Patched {
            data, width, base, ..
        } => {
            unpack(data, width, out);
            for patch in patches {
                if let Some(value) = out.get_mut(usize::from(patch.index)) {
                    // Java's `patch << width`: the shift is taken mod 64.
                    *value |= patch.bits.wrapping_shl(width).cast_signed();
                }
            }
            for value in out.iter_mut() {
                *value = base.wrapping_add(*value);
            }
        }
        Header::Delta {
            data,
            width,
            first,
            delta_base,
            ..
        } => {
            let second = first.wrapping_add(delta_base);
            let [head0, head1, deltas @ ..] = out else {
                return;
            };
            *head0 = first;
            *head1 = second;
            unpack(data, width, deltas);
            let mut previous = second;
            if delta_base < 0 {
                for value in deltas {
                    previous = previous.wrapping_sub(*value);
                    *value = previous;
                }
            } else {
                for value in deltas {
                    previous = previous.wrapping_add(*value);
                    *value = previous;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------

/// How [`Encoder::determine_encoding`] chose to write a run of literals.
#[allow(clippy::large_enum_variant)] // one at a time, on the stack
enum Plan {
    /// Zigzagged literals (in `scratch.zigzag`) at `width` bits.
    Direct { width: u32 },
    /// A fixed delta (width 0).
    FixedDelta { delta: i64 },
    /// The first delta, then magnitudes of the rest (in `scratch.deltas`) of
    /// `max_bits` bits.
    Delta { max_bits: u32 },
    /// Base-reduced values (in `scratch.reduced`) at `width` bits, with patches.
    Patched(PatchPlan),
}

/// A patched base run, prepared.
struct PatchPlan {
    min: i64,
    width: u32,
    patch_width: u32,
    gap_width: u32,
    /// Gap (top bits) and patch (low `patch_width` bits) of each entry.
    entries: [i64; MAX_PATCHES],
    num_entries: usize,
}

/// Work arrays of the encoder, one run each.
#[derive(Debug, Clone)]
struct Scratch {
    zigzag: [i64; MAX_SCOPE],
    reduced: [i64; MAX_SCOPE],
    deltas: [i64; MAX_SCOPE],
}

/// Encodes an integer RLE v2 stream as Apache ORC's `RunLengthIntegerWriterV2` does,
/// run for run and byte for byte, with one exception.
///
/// Java's writer (and the C++ one) writes a `PATCHED_BASE` base of
/// `closestFixedBits(|min|) + 1` bits, which for a minimum of magnitude 2^56 or more is 9
/// bytes: past the 3 bits of the header, so the run reads back wrong (ORC-616, apache/orc
/// issue 2323). Such runs are written DIRECT here, as ORC-616 proposed.
#[derive(Debug, Clone)]
pub struct Encoder {
    out: Vec<u8>,
    signed: bool,
    aligned: bool,
    literals: Box<[i64; MAX_SCOPE]>,
    num_literals: usize,
    prev_delta: i64,
    fixed_run_length: usize,
    variable_run_length: usize,
    scratch: Box<Scratch>,
}

impl Encoder {
    /// An empty encoder; a [`Sign::Signed`] stream zigzags its values. It packs DIRECT and DELTA
    /// values at aligned widths (1, 2, 4, 8, 16, 24, 32, …), as Java's writer does under
    /// its default encoding strategy, `SPEED`.
    pub fn new(sign: Sign) -> Self {
        Self {
            out: Vec::new(),
            signed: sign.is_signed(),
            aligned: true,
            literals: Box::new([0; MAX_SCOPE]),
            num_literals: 0,
            prev_delta: 0,
            fixed_run_length: 0,
            variable_run_length: 0,
            scratch: Box::new(Scratch {
                zigzag: [0; MAX_SCOPE],
                reduced: [0; MAX_SCOPE],
                deltas: [0; MAX_SCOPE],
            }),
        }
    }

    /// Packs at the closest table width instead of an aligned one when `aligned` is
    /// false, as Java's writer does under the `COMPRESSION` encoding strategy.
    #[must_use]
    pub const fn aligned_bitpacking(mut self, aligned: bool) -> Self {
        self.aligned = aligned;
        self
    }

    /// Appends one value (an unsigned stream takes the `u64` bits of the `i64`).
    pub fn push(&mut self, value: i64) {
        let n = self.num_literals;
        if n == 0 {
            self.init_literals(value);
            return;
        }
        if n == 1 {
            let first = self.literal(0);
            self.prev_delta = value.wrapping_sub(first);
            self.set_literal(1, value);
            self.num_literals = 2;
            if value == first {
                self.fixed_run_length = 2;
                self.variable_run_length = 0;
            } else {
                self.fixed_run_length = 0;
                self.variable_run_length = 2;
            }
            return;
        }
        let last = self.literal(n - 1);
        let current_delta = value.wrapping_sub(last);
        if self.prev_delta == 0 && current_delta == 0 {
            // A run of equal values goes on.
            self.set_literal(n, value);
            self.num_literals = n + 1;
            if self.variable_run_length > 0 {
                self.fixed_run_length = 2;
            }
            self.fixed_run_length += 1;
            if self.fixed_run_length >= MIN_REPEAT && self.variable_run_length > 0 {
                // Three equal values end a variable run: write it, keep the three.
                self.num_literals -= MIN_REPEAT;
                self.variable_run_length -= MIN_REPEAT - 1;
                let tail = [value; MIN_REPEAT];
                self.write_variable_run();
                for tail_value in tail {
                    self.set_literal(self.num_literals, tail_value);
                    self.num_literals += 1;
                }
            }
            if self.fixed_run_length == MAX_SCOPE {
                self.write_variable_run();
            }
        } else {
            if self.fixed_run_length >= MIN_REPEAT {
                self.write_fixed_run();
            }
            if self.fixed_run_length > 0 && self.fixed_run_length < MIN_REPEAT && value != last {
                self.variable_run_length = self.fixed_run_length;
                self.fixed_run_length = 0;
            }
            if self.num_literals == 0 {
                self.init_literals(value);
            } else {
                let n = self.num_literals;
                self.prev_delta = value.wrapping_sub(self.literal(n - 1));
                self.set_literal(n, value);
                self.num_literals = n + 1;
                self.variable_run_length += 1;
                if self.variable_run_length == MAX_SCOPE {
                    self.write_variable_run();
                }
            }
        }
    }

    /// Appends `values`.
    pub fn extend(&mut self, values: &[i64]) {
        for &value in values {
            self.push(value);
        }
    }

    /// The row-index position: (bytes of output finished so far, values pending). A
    /// reader that starts at that byte and skips that many values is at the next value.
    pub const fn position(&self) -> (u64, u64) {
        (self.out.len() as u64, self.num_literals as u64)
    }

    /// Writes the pending values and returns the encoded stream, leaving the encoder
    /// empty for reuse.
    pub fn finish(&mut self) -> Vec<u8> {
        if self.num_literals != 0 {
            if self.variable_run_length != 0 {
                self.write_variable_run();
            } else if self.fixed_run_length != 0 {
                if self.fixed_run_length < MIN_REPEAT {
                    self.variable_run_length = self.fixed_run_length;
                    self.fixed_run_length = 0;
                    self.write_variable_run();
                } else {
                    self.write_fixed_run();
                }
            }
        }
        self.num_literals = 0;
        self.prev_delta = 0;
        self.fixed_run_length = 0;
        self.variable_run_length = 0;
        core::mem::take(&mut self.out)
    }

    /// Encoded bytes so far plus a bound on what the pending values will take.
    pub const fn estimated_size(&self) -> usize {
        self.out.len()
            + match self.num_literals {
                0 => 0,
                // Header, base, values and the longest patch list.
                n => 12 + 8 * n + 8 * MAX_PATCHES,
            }
    }

    fn init_literals(&mut self, value: i64) {
        self.set_literal(0, value);
        self.num_literals = 1;
        self.fixed_run_length = 1;
        self.variable_run_length = 1;
    }

    #[inline]
    fn literal(&self, index: usize) -> i64 {
        self.literals.get(index).copied().unwrap_or_default()
    }

    #[inline]
    fn set_literal(&mut self, index: usize, value: i64) {
        if let Some(slot) = self.literals.get_mut(index) {
            *slot = value;
        }
    }

    /// A run of 3 or more equal values: `SHORT_REPEAT` up to 10, a fixed DELTA beyond.
    fn write_fixed_run(&mut self) {
        if self.fixed_run_length <= MAX_SHORT_REPEAT {
            self.write_short_repeat();
        } else {
            self.write_delta(&Plan::FixedDelta { delta: 0 });
        }
        self.num_literals = 0;
        self.prev_delta = 0;
    }

    /// Java's `determineEncoding(); writeValues();`.
    fn write_variable_run(&mut self) {
        let plan = self.determine_encoding();
        match plan {
            Plan::Direct { width } => self.write_direct(width),
            Plan::FixedDelta { .. } | Plan::Delta { .. } => self.write_delta(&plan),
            Plan::Patched(patch) => self.write_patched_base(&patch),
        }
        self.num_literals = 0;
        self.prev_delta = 0;
    }

    fn determine_encoding(&mut self) -> Plan {
        let n = self.num_literals.min(MAX_SCOPE);
        let literals = self.literals.get(..n).unwrap_or_default();
        let scratch = &mut *self.scratch;
        let zigzagged = scratch.zigzag.get_mut(..n).unwrap_or_default();
        for (slot, &value) in zigzagged.iter_mut().zip(literals) {
            *slot = if self.signed {
                zigzag::encode_i64(value).cast_signed()
            } else {
                value
            };
        }
        let zz_bits_100p = percentile_bits(zigzagged, 1.0);
        let direct = Plan::Direct {
            width: zz_bits_100p,
        };
        // Not worth more for short runs.
        let [first, second, ..] = *literals else {
            return direct;
        };
        if n <= MIN_REPEAT {
            return direct;
        }

        let mut increasing = true;
        let mut decreasing = true;
        let mut fixed_delta = true;
        let mut min = first;
        let mut max = first;
        let initial_delta = second.wrapping_sub(first);
        let mut current_delta = 0;
        let mut delta_max = 0;
        let deltas = scratch.deltas.get_mut(..n).unwrap_or_default();
        if let Some(slot) = deltas.first_mut() {
            *slot = initial_delta;
        }
        for (i, pair) in literals.windows(2).enumerate() {
            let &[l0, l1] = pair else { continue };
            current_delta = l1.wrapping_sub(l0);
            min = min.min(l1);
            max = max.max(l1);
            increasing &= l0 <= l1;
            decreasing &= l0 >= l1;
            fixed_delta &= current_delta == initial_delta;
            if i > 0 {
                let magnitude = current_delta.wrapping_abs();
                if let Some(slot) = deltas.get_mut(i) {
                    *slot = magnitude;
                }
                delta_max = delta_max.max(magnitude);
            }
        }

        // Deltas that overflow: DIRECT is cheaper than checking for PATCHED_BASE.
        if max.checked_sub(min).is_none() {
            return direct;
        }
        if min == max {
            return Plan::FixedDelta { delta: 0 };
        }
        if fixed_delta {
            return Plan::FixedDelta {
                delta: current_delta,
            };
        }
        // A first delta of 0 cannot say whether the run goes up or down.
        if initial_delta != 0 && (increasing || decreasing) {
            return Plan::Delta {
                max_bits: closest_num_bits(delta_max.cast_unsigned()),
            };
        }

        // PATCHED_BASE when the 90th and 100th percentile widths differ by more than 1.
        let zz_bits_90p = percentile_bits(zigzagged, 0.9);
        if zz_bits_100p.saturating_sub(zz_bits_90p) <= 1 {
            return direct;
        }
        let reduced = scratch.reduced.get_mut(..n).unwrap_or_default();
        for (slot, &value) in reduced.iter_mut().zip(literals) {
            *slot = value.wrapping_sub(min);
        }
        let br_bits_95p = percentile_bits(reduced, 0.95);
        let br_bits_100p = percentile_bits(reduced, 1.0);
        // A base of 2^56 or more takes 9 bytes, which the header cannot say (see the
        // type's docs).
        if br_bits_100p == br_bits_95p || min.unsigned_abs() >= MAX_PATCHED_BASE {
            return direct;
        }
        Plan::Patched(prepare_patches(reduced, min, br_bits_95p, br_bits_100p))
    }

    fn write_short_repeat(&mut self) {
        let first = self.literal(0);
        let raw = if self.signed {
            zigzag::encode_i64(first)
        } else {
            first.cast_unsigned()
        };
        let bytes = closest_num_bits(raw).div_ceil(8) as usize;
        let count = self.fixed_run_length - MIN_REPEAT;
        #[allow(clippy::cast_possible_truncation)] // 3 bits each
        self.out.push(((bytes - 1) << 3 | count) as u8);
        self.out
            .extend_from_slice(raw.to_be_bytes().get(8 - bytes..).unwrap_or_default());
        self.fixed_run_length = 0;
    }

    fn write_header(&mut self, opcode: u8, width_code: u8, length: usize) {
        #[allow(clippy::cast_possible_truncation)] // 9 bits of `length`
        {
            self.out
                .push(opcode << 6 | width_code << 1 | (length >> 8 & 1) as u8);
            self.out.push(length as u8);
        }
    }

    fn write_direct(&mut self, width: u32) {
        let width = if self.aligned {
            closest_aligned_fixed_bits(width)
        } else {
            width
        };
        let n = self.num_literals;
        self.write_header(1, encode_width(width), self.variable_run_length - 1);
        pack(
            self.scratch.zigzag.get(..n).unwrap_or_default(),
            width,
            &mut self.out,
        );
        self.variable_run_length = 0;
    }

    fn write_delta(&mut self, plan: &Plan) {
        let length;
        let mut width = 0;
        let mut width_code = 0;
        if let Plan::Delta { max_bits } = *plan {
            width = if self.aligned {
                closest_aligned_fixed_bits(max_bits)
            } else {
                max_bits
            };
            // Width 1 does not exist for DELTA: code 0 means a fixed delta.
            if width == 1 {
                width = 2;
            }
            width_code = encode_width(width);
            length = self.variable_run_length - 1;
            self.variable_run_length = 0;
        } else if self.fixed_run_length > MIN_REPEAT {
            length = self.fixed_run_length - 1;
            self.fixed_run_length = 0;
        } else {
            length = self.variable_run_length - 1;
            self.variable_run_length = 0;
        }
        self.write_header(3, width_code, length);
        let first = self.literal(0);
        if self.signed {
            write_signed_varint(&mut self.out, first);
        } else {
            varint::encode_u64(first.cast_unsigned(), &mut self.out);
        }
        if let Plan::FixedDelta { delta } = *plan {
            write_signed_varint(&mut self.out, delta);
        } else {
            let n = self.num_literals;
            let deltas = self.scratch.deltas.get(..n - 1).unwrap_or_default();
            write_signed_varint(&mut self.out, deltas.first().copied().unwrap_or_default());
            pack(deltas.get(1..).unwrap_or_default(), width, &mut self.out);
        }
    }

    fn write_patched_base(&mut self, plan: &PatchPlan) {
        let n = self.num_literals;
        self.write_header(2, encode_width(plan.width), self.variable_run_length - 1);
        // The magnitude in as many bytes as it takes with a sign bit above it: below 2^56
        // (`determine_encoding` sees to it), so 8 bytes at most.
        let magnitude = plan.min.unsigned_abs();
        let base_bytes = (closest_num_bits(magnitude) + 1).div_ceil(8).min(8);
        let mut base = magnitude;
        if plan.min < 0 {
            base |= 1 << (base_bytes * 8 - 1);
        }
        #[allow(clippy::cast_possible_truncation)] // 3 and 5 bits
        {
            self.out
                .push(((base_bytes - 1) << 5) as u8 | encode_width(plan.patch_width));
            self.out
                .push(((plan.gap_width - 1) << 5) as u8 | plan.num_entries as u8);
        }
        self.out.extend_from_slice(
            base.to_be_bytes()
                .get(8 - base_bytes as usize..)
                .unwrap_or_default(),
        );
        pack(
            self.scratch.reduced.get(..n).unwrap_or_default(),
            closest_fixed_bits(plan.width),
            &mut self.out,
        );
        pack(
            plan.entries.get(..plan.num_entries).unwrap_or_default(),
            closest_fixed_bits(plan.gap_width + plan.patch_width),
            &mut self.out,
        );
        self.variable_run_length = 0;
    }
}

/// Java's `preparePatchedBlob`: cuts the base-reduced values to `bits_95p` bits and
/// lists the rest of each larger value as a patch.
fn prepare_patches(reduced: &mut [i64], min: i64, bits_95p: u32, bits_100p: u32) -> PatchPlan {
    let mut width = bits_95p;
    let mut patch_width = closest_fixed_bits(bits_100p - bits_95p);
    // A gap and a patch must share one 64-bit entry.
    if patch_width == 64 {
        patch_width = 56;
        width = 8;
    }
    let mask = u64::MAX >> (64 - width);

    let mut gaps = [0usize; MAX_PATCHES];
    let mut patches = [0u64; MAX_PATCHES];
    let mut count = 0;
    let mut previous = 0;
    let mut max_gap = 0;
    for (i, value) in reduced.iter_mut().enumerate() {
        let bits = value.cast_unsigned();
        if bits > mask {
            let gap = i - previous;
            max_gap = max_gap.max(gap);
            previous = i;
            // At most 5% of the values (26 of 512) are past the 95th percentile.
            if let (Some(g), Some(p)) = (gaps.get_mut(count), patches.get_mut(count)) {
                *g = gap;
                *p = bits >> width;
                count += 1;
            }
            *value = (bits & mask).cast_signed();
        }
    }
    let gap_width = if max_gap == 0 && count != 0 {
        1
    } else {
        closest_num_bits(max_gap as u64).min(8)
    };

    let mut entries = [0i64; MAX_PATCHES];
    let mut num_entries = 0;
    for (&gap, &patch) in gaps.iter().zip(&patches).take(count) {
        let mut gap = gap as u64;
        while gap > 255 {
            if let Some(entry) = entries.get_mut(num_entries) {
                *entry = (255u64 << patch_width).cast_signed();
                num_entries += 1;
            }
            gap -= 255;
        }
        if let Some(entry) = entries.get_mut(num_entries) {
            *entry = (gap << patch_width | patch).cast_signed();
            num_entries += 1;
        }
    }
    PatchPlan {
        min,
        width,
        patch_width,
        gap_width,
        entries,
        num_entries,
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_wrap)]
mod tests {
    use super::*;
    use crate::rle::Sign::{Signed, Unsigned};

    fn encode(values: &[i64], sign: Sign) -> Vec<u8> {
        let mut encoder = Encoder::new(sign);
        encoder.extend(values);
        encoder.finish()
    }

    fn decode_all(bytes: &[u8], sign: Sign) -> Result<Vec<i64>> {
        let mut out = vec![0i64; bytes.len() * 512 + 2];
        let n = Decoder::new(bytes, sign).decode(&mut out)?;
        out.truncate(n);
        Ok(out)
    }

    /// Decodes, checks the values, and checks that the encoder writes the same bytes.
    fn check_spec(bytes: &[u8], values: &[i64]) {
        assert_eq!(decode_all(bytes, Unsigned).unwrap(), values);
        assert_eq!(encode(values, Unsigned), bytes);
    }

    #[test]
    fn spec_short_repeat() {
        check_spec(&[0x0a, 0x27, 0x10], &[10000; 5]);
    }

    #[test]
    fn spec_direct() {
        check_spec(
            &[0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef],
            &[23713, 43806, 57005, 48879],
        );
    }

    #[test]
    fn spec_patched_base() {
        let values = [
            2030, 2000, 2020, 1_000_000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120,
            2130, 2140, 2150, 2160, 2170, 2180, 2190,
        ];
        let bytes = [
            0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46,
            0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8,
        ];
        check_spec(&bytes, &values);
    }

    #[test]
    fn spec_delta() {
        check_spec(
            &[0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46],
            &[2, 3, 5, 7, 11, 13, 17, 19, 23, 29],
        );
    }

    #[test]
    fn width_tables() {
        let widths: Vec<u32> = (0..32).map(decode_width).collect();
        assert_eq!(widths, WIDTHS);
        for (code, &width) in WIDTHS.iter().enumerate() {
            assert_eq!(usize::from(encode_width(width)), code);
            assert_eq!(closest_fixed_bits(width), width);
        }
        // Deprecated widths round up.
        assert_eq!(encode_width(25), 24);
        assert_eq!(encode_width(33), 28);
        assert_eq!(closest_fixed_bits(0), 1);
        assert_eq!(closest_aligned_fixed_bits(3), 4);
        assert_eq!(closest_aligned_fixed_bits(25), 32);
        assert_eq!(closest_num_bits(0), 1);
        assert_eq!(closest_num_bits(u64::MAX), 64);
        assert_eq!(closest_num_bits(1 << 24), 26);
    }

    #[test]
    fn percentiles_as_java() {
        // 10 values: (int) (10 * (1.0 - 0.9)) is 0 in floating point, so the 90th
        // percentile is the widest.
        let mut data = [1i64; 10];
        data[9] = 1 << 20;
        assert_eq!(percentile_bits(&data, 0.9), 21);
        let mut data = [1i64; 20];
        data[0] = 1 << 20;
        assert_eq!(percentile_bits(&data, 0.9), 1);
        assert_eq!(percentile_bits(&data, 1.0), 21);
    }

    #[test]
    fn java_run_choices() {
        // 512 equal values: a fixed DELTA of 0, one run.
        assert_eq!(encode(&[7; 512], Unsigned), [0xc1, 0xff, 7, 0]);
        // 11 equal values: too long for a short repeat.
        assert_eq!(encode(&[7; 11], Signed), [0xc0, 0x0a, 14, 0]);
        // A fixed delta: width 0, the delta as a signed varint.
        assert_eq!(encode(&[10, 8, 6, 4, 2], Signed), [0xc0, 0x04, 20, 3]);
        // Three values or fewer are DIRECT (signed: zigzag, aligned to 4 bits).
        assert_eq!(encode(&[1, -1, 2], Signed), [0x46, 0x02, 0x21, 0x40]);
        // Equal values after a variable run: the run goes out, then a short repeat.
        assert_eq!(
            encode(&[1, 9, 4, 4, 4], Unsigned),
            [0x46, 0x01, 0x19, 0x00, 0x04]
        );
        // Two equal values are not a run.
        assert_eq!(encode(&[3, 3], Unsigned), [0x42, 0x01, 0xf0]);
        // A value past 512 starts a new run.
        let values: Vec<i64> = (0..513).map(|i| i * 3 % 17).collect();
        let bytes = encode(&values, Unsigned);
        assert_eq!(bytes[..2], [0x4f, 0xff]); // DIRECT, 8 bits, 512 values
        assert_eq!(decode_all(&bytes, Unsigned).unwrap(), values);
    }

    /// Small values with one spike at `at`: a `PATCHED_BASE` run.
    fn spiky(len: usize, at: usize, spike: i64) -> Vec<i64> {
        let mut values: Vec<i64> = (0..len as i64).map(|i| i * 7 % 13).collect();
        values[at] = spike;
        values
    }

    #[test]
    fn patch_gaps_past_255() {
        for (len, at, entries) in [(400, 300, 2), (512, 511, 3), (512, 510, 2), (300, 255, 1)] {
            let values = spiky(len, at, 1 << 40);
            let bytes = encode(&values, Unsigned);
            assert_eq!(bytes[0] >> 6, 2, "PATCHED_BASE for a spike at {at}");
            assert_eq!(usize::from(bytes[3] & 0x1f), entries, "spike at {at}");
            assert_eq!(decode_all(&bytes, Unsigned).unwrap(), values);
            // Skipping past the spike lands on the same values.
            let mut decoder = Decoder::new(&bytes, Unsigned);
            assert_eq!(decoder.skip(at), Ok(at));
            let mut rest = vec![0; len - at];
            assert_eq!(decoder.decode(&mut rest), Ok(len - at));
            assert_eq!(rest, values[at..]);
        }
    }

    #[test]
    fn patched_base_signs() {
        // A negative base (signed stream) and a wide patch.
        let mut values = spiky(100, 50, i64::MAX / 3);
        for value in &mut values {
            *value -= 1_000_000;
        }
        let bytes = encode(&values, Signed);
        assert_eq!(bytes[0] >> 6, 2);
        assert_eq!(decode_all(&bytes, Signed).unwrap(), values);
        // A patch of more than 56 bits: Java moves the width to 8.
        let values = spiky(100, 7, i64::MAX);
        let bytes = encode(&values, Unsigned);
        assert_eq!(bytes[0] >> 6, 2);
        assert_eq!(decode_width(bytes[0] >> 1), 8);
        assert_eq!(decode_width(bytes[2]), 56);
        assert_eq!(decode_all(&bytes, Unsigned).unwrap(), values);
    }

    /// Narrow values, a negative minimum `min` and a wide positive value: `PATCHED_BASE`
    /// (when `min` allows it), with `min` as the base.
    fn negative_base(min: i64) -> Vec<i64> {
        let mut values = spiky(100, 50, min);
        values[20] = 1 << 50;
        values
    }

    #[test]
    fn patched_base_widths() {
        // The base takes its magnitude's width plus a sign bit: 2^47 + 48 is 48 bits, so
        // 7 bytes (Java's ORC-703 change wrote 6, whose sign bit was a magnitude bit).
        let values = negative_base(-(1 << 47) - 48);
        let bytes = encode(&values, Signed);
        assert_eq!(bytes[0] >> 6, 2);
        assert_eq!(bytes[2] >> 5, 6);
        assert_eq!(bytes[4..11], [0x80, 0x80, 0, 0, 0, 0, 0x30]);
        assert_eq!(decode_all(&bytes, Signed).unwrap(), values);
        // -200: 1 byte of magnitude, 2 with the sign.
        let values = negative_base(-200);
        let bytes = encode(&values, Signed);
        assert_eq!(bytes[0] >> 6, 2);
        assert_eq!(bytes[2] >> 5, 1);
        assert_eq!(bytes[4..6], [0x80, 200]);
        assert_eq!(decode_all(&bytes, Signed).unwrap(), values);
        // The widest base: 2^55 + 5 is 56 bits, 8 bytes with the sign.
        let mut values = spiky(100, 50, -(1 << 55) - 5);
        for value in values.iter_mut().filter(|v| **v >= 0) {
            *value -= 1 << 54;
        }
        values[20] = 1 << 62;
        let bytes = encode(&values, Signed);
        assert_eq!(bytes[0] >> 6, 2);
        assert_eq!(bytes[2] >> 5, 7);
        assert_eq!(bytes[4], 0x80);
        assert_eq!(decode_all(&bytes, Signed).unwrap(), values);
        // 2^56: Java's 9 bytes do not fit the header; DIRECT instead.
        let mut values = spiky(100, 50, -(1 << 56));
        for value in values.iter_mut().filter(|v| **v >= 0) {
            *value -= 1 << 54;
        }
        values[20] = 1 << 62;
        let bytes = encode(&values, Signed);
        assert_eq!(bytes[0] >> 6, 1);
        assert_eq!(decode_all(&bytes, Signed).unwrap(), values);
    }

    #[test]
    fn patched_base_extremes() {
        // Runs near i64::MIN and 2^60 with a far value: not PATCHED_BASE (their
        // zigzagged widths are all 64 bits), and they round-trip.
        for (offset, spike) in [(i64::MIN, -1), (1 << 60, i64::MAX), (-(1 << 60), 5)] {
            let mut values = spiky(100, 50, 0);
            for value in &mut values {
                *value = value.wrapping_add(offset);
            }
            values[50] = spike;
            for sign in [Unsigned, Signed] {
                let bytes = encode(&values, sign);
                assert_ne!(bytes[0] >> 6, 2);
                assert_eq!(decode_all(&bytes, sign).unwrap(), values);
            }
        }
    }

    #[test]
    fn short_repeat_widths() {
        // Eight bytes of value, three copies.
        let bytes = [0x38, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe];
        assert_eq!(decode_all(&bytes, Unsigned).unwrap(), [-2; 3]);
        assert_eq!(decode_all(&bytes, Signed).unwrap(), [i64::MAX; 3]);
        assert_eq!(encode(&[-2; 3], Unsigned), bytes);
        assert_eq!(
            encode(&[i64::MIN; 10], Signed),
            [0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        );
        assert!(matches!(
            decode_all(&bytes[..8], Unsigned),
            Err(Error::Truncated { .. })
        ));
    }

    #[test]
    fn delta_quirks() {
        // Width 0, fixed delta -3 (zigzag 5), 4 values from 100.
        assert_eq!(
            decode_all(&[0xc0, 0x03, 100, 5], Unsigned).unwrap(),
            [100, 97, 94, 91]
        );
        // A length field of 0 with a width: Java reads two values.
        assert_eq!(
            decode_all(&[0xc2, 0x00, 10, 4], Unsigned).unwrap(),
            [10, 12]
        );
        // The base value is a signed varint in a signed stream, the delta base always.
        assert_eq!(
            decode_all(&[0xc2, 0x03, 0x03, 0x03, 0b0110_0000], Signed).unwrap(),
            [-2, -4, -5, -7]
        );
        // Deltas of 64 bits wrap.
        let values = [0, i64::MAX, i64::MIN, 5];
        for sign in [Unsigned, Signed] {
            assert_eq!(decode_all(&encode(&values, sign), sign).unwrap(), values);
        }
    }

    #[test]
    fn hostile_headers() {
        // Patch width 64 + gap width 1.
        let mut bytes = vec![0xbe, 0x00, 0x1f, 0x01, 0x00];
        bytes.extend([0; 8 + 9]);
        assert!(matches!(
            decode_all(&bytes, Unsigned),
            Err(Error::Invalid { .. })
        ));
        assert!(Decoder::new(&bytes, Unsigned).skip(1).is_err());
        // A patch list that ends in a gap entry (gap 255, patch 0; 8 + 8 bits).
        let bytes = [0x8e, 0x01, 0x07, 0xe1, 0x00, 1, 2, 0xff, 0x00];
        assert!(matches!(
            decode_all(&bytes, Unsigned),
            Err(Error::Invalid { .. })
        ));
        // A patch past the run is ignored; so is one after a gap of 0.
        let bytes = [0x8e, 0x01, 0x07, 0xe2, 0x00, 1, 2, 0x01, 0x01, 0x00, 0x01];
        assert_eq!(decode_all(&bytes, Unsigned).unwrap(), [1, 2 | 1 << 8]);
        // DIRECT of 512 values of 64 bits with 3 bytes.
        let bytes = [0x7f, 0xff, 1, 2, 3];
        assert!(matches!(
            decode_all(&bytes, Unsigned),
            Err(Error::Truncated { .. })
        ));
        assert!(Decoder::new(&bytes, Unsigned).skip(1).is_err());
        // Headers cut short.
        for bytes in [
            &[0x40][..],
            &[0x80, 0x00, 0x00],
            &[0xc0],
            &[0xc0, 0x01],
            &[0xc0, 0x01, 0x80],
        ] {
            assert!(
                matches!(decode_all(bytes, Unsigned), Err(Error::Truncated { .. })),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn unaligned_widths() {
        let values: Vec<i64> = (0..100).map(|i| i * 37 % 101).collect();
        let mut encoder = Encoder::new(Unsigned).aligned_bitpacking(false);
        encoder.extend(&values);
        let bytes = encoder.finish();
        assert_eq!(decode_width(bytes[0] >> 1), 7);
        assert_eq!(decode_all(&bytes, Unsigned).unwrap(), values);
        assert_eq!(decode_width(encode(&values, Unsigned)[0] >> 1), 8);
    }
}
