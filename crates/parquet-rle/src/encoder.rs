//! The encoder.
//!
//! Values are taken in groups of 8, as parquet-java and arrow do: a group whose 8 values
//! are equal starts an RLE run, which lasts as long as the value repeats (up to
//! [`MAX_RUN_LEN`], then a new run starts); other groups are collected into a bit-packed
//! run of at most [`MAX_PACKED_GROUPS`] groups, so that its header is one byte. A last,
//! incomplete group is padded with zeros, or written as a short RLE run when its values
//! are equal and that is smaller.

use parquet_bitpack::pack;
use parquet_core::{Error, Result, varint};

use crate::decoder::value_bytes;
use crate::{LENGTH_PREFIX_LEN, MAX_BIT_WIDTH, MAX_RUN_LEN};

/// Values in a bit-packed group.
const GROUP_LEN: usize = 8;

/// Groups in the longest bit-packed run the encoder writes: `63 << 1 | 1` is the largest
/// header that fits in one byte.
pub const MAX_PACKED_GROUPS: usize = 63;

/// Values in the longest bit-packed run the encoder writes.
const MAX_PACKED_LEN: usize = MAX_PACKED_GROUPS * GROUP_LEN;

/// Encodes values into an RLE/bit-packing hybrid stream, incrementally.
///
/// The encoder buffers the open run (at most [`MAX_PACKED_GROUPS`] groups of 8 values)
/// and the bytes written so far; [`Encoder::finish`] appends them to the caller's buffer.
/// Bits of a value above the bit width are ignored.
///
/// ```
/// use parquet_rle::{Decoder, Encoder};
///
/// let mut encoder = Encoder::new(3);
/// encoder.put_run(5, 100);
/// encoder.extend(&[1u8, 2, 3, 4, 5, 6, 7, 0]);
/// encoder.put(7);
/// let mut bytes = Vec::new();
/// encoder.finish(&mut bytes);
///
/// let mut out = [0u32; 109];
/// let mut decoder = Decoder::try_new(&bytes, 3)?;
/// assert_eq!(decoder.decode(&mut out)?, 109);
/// assert_eq!(out[99..], [5, 1, 2, 3, 4, 5, 6, 7, 0, 7]);
/// # Ok::<(), parquet_rle::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Encoder {
    bit_width: u8,
    mask: u32,
    /// Finished runs.
    out: Vec<u8>,
    /// The open bit-packed run: whole groups, then the group being filled.
    packed: [u32; MAX_PACKED_LEN],
    packed_len: usize,
    /// The last value put.
    previous: u32,
    /// How many times `previous` repeats at the end of the values put, counting only
    /// since the start of the group being filled. From 8 on, the encoder is in an RLE run
    /// of `repeat` copies of `previous` and `packed_len == 0`.
    repeat: usize,
}

impl Encoder {
    /// An encoder of `bit_width`-bit values.
    ///
    /// # Panics
    ///
    /// When `bit_width` exceeds [`MAX_BIT_WIDTH`], a bug in the caller.
    pub fn new(bit_width: u8) -> Self {
        Self::with_buffer(bit_width, Vec::new())
    }

    /// An encoder that appends finished runs to `out`.
    fn with_buffer(bit_width: u8, out: Vec<u8>) -> Self {
        assert!(
            bit_width <= MAX_BIT_WIDTH,
            "bit width {bit_width} exceeds {MAX_BIT_WIDTH}"
        );
        Self {
            bit_width,
            mask: mask(bit_width),
            out,
            packed: [0; MAX_PACKED_LEN],
            packed_len: 0,
            previous: 0,
            repeat: 0,
        }
    }

    /// The bit width of the values.
    pub const fn bit_width(&self) -> u8 {
        self.bit_width
    }

    /// Encodes one value.
    #[inline]
    pub fn put(&mut self, value: u32) {
        let value = value & self.mask;
        if self.repeat >= GROUP_LEN {
            if value == self.previous && self.repeat < MAX_RUN_LEN {
                self.repeat += 1;
                return;
            }
            self.write_rle_run();
        }
        if value == self.previous {
            self.repeat += 1;
        } else {
            self.previous = value;
            self.repeat = 1;
        }
        if self.repeat == GROUP_LEN {
            // The group being filled holds the 7 copies before this one: drop them, end
            // the bit-packed run, and continue as an RLE run.
            self.packed_len -= GROUP_LEN - 1;
            self.write_packed_run();
            return;
        }
        self.push_packed(value);
    }

    /// Encodes `len` copies of `value`, in time independent of `len` once an RLE run has
    /// started.
    pub fn put_run(&mut self, value: u32, len: usize) {
        let value = value & self.mask;
        let mut left = len;
        while left > 0 {
            if self.repeat >= GROUP_LEN && value == self.previous && self.repeat < MAX_RUN_LEN {
                let n = left.min(MAX_RUN_LEN - self.repeat);
                self.repeat += n;
                left -= n;
            } else {
                self.put(value);
                left -= 1;
            }
        }
    }

    /// Encodes `values`: `u8`, `u16` or `u32` values, or `bool`s (at bit width 1).
    pub fn extend<T: Copy + Into<u32>>(&mut self, values: &[T]) {
        let mask = self.mask;
        let mut rest = values;
        while let Some((&first, tail)) = rest.split_first() {
            if self.repeat >= GROUP_LEN {
                // Extend the RLE run with the whole continuation at once.
                let room = MAX_RUN_LEN - self.repeat;
                let n = repeats(rest.get(..room).unwrap_or(rest), self.previous, mask);
                if n == 0 {
                    self.write_rle_run();
                } else {
                    self.repeat += n;
                    rest = rest.get(n..).unwrap_or_default();
                }
                continue;
            }
            if self.packed_len.is_multiple_of(GROUP_LEN)
                && let Some((group, tail)) = rest.split_first_chunk::<GROUP_LEN>()
            {
                // A whole group at a group boundary, where `repeat == 0`: the same
                // decisions as 8 calls to `put`, made once.
                let group = group.map(|v| v.into() & mask);
                if group.iter().all(|&v| v == group[0]) {
                    self.write_packed_run();
                    self.previous = group[0];
                    self.repeat = GROUP_LEN;
                } else {
                    let start = self.packed_len;
                    if let Some(slot) = self.packed.get_mut(start..start + GROUP_LEN) {
                        slot.copy_from_slice(&group);
                    }
                    self.packed_len += GROUP_LEN;
                    self.previous = group[GROUP_LEN - 1];
                    self.repeat = 0;
                    if self.packed_len == MAX_PACKED_LEN {
                        self.write_packed_run();
                    }
                }
                rest = tail;
                continue;
            }
            self.put(first.into());
            rest = tail;
        }
    }

    /// The bytes [`Encoder::finish`] would append now.
    pub fn encoded_len(&self) -> usize {
        let width = usize::from(self.bit_width);
        let packed_run = |values: usize| {
            if values == 0 {
                0
            } else {
                1 + values / GROUP_LEN * width
            }
        };
        let pending = if self.repeat >= GROUP_LEN {
            self.rle_run_len(self.repeat)
        } else {
            match self.finish_tail() {
                Tail::None => packed_run(self.packed_len),
                Tail::Padded => packed_run(self.packed_len.next_multiple_of(GROUP_LEN)),
                Tail::Repeated(tail) => packed_run(self.packed_len - tail) + self.rle_run_len(tail),
            }
        };
        self.out.len() + pending
    }

    /// Ends the stream and appends it to `out`.
    pub fn finish(self, out: &mut Vec<u8>) {
        let bytes = self.into_buffer();
        if out.is_empty() {
            *out = bytes;
        } else {
            out.extend_from_slice(&bytes);
        }
    }

    /// Ends the stream and appends it to `out` after its length as 4 bytes little endian
    /// (the form of levels in data page v1, and of booleans).
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] when the stream is longer than `u32::MAX` bytes; `out` is
    /// left as it was.
    pub fn finish_length_prefixed(self, out: &mut Vec<u8>) -> Result<()> {
        let bytes = self.into_buffer();
        let len = length_prefix(bytes.len())?;
        out.reserve(LENGTH_PREFIX_LEN + bytes.len());
        out.extend_from_slice(&len);
        out.extend_from_slice(&bytes);
        Ok(())
    }

    /// Ends the stream and returns the encoder's buffer.
    fn into_buffer(mut self) -> Vec<u8> {
        if self.repeat >= GROUP_LEN {
            self.write_rle_run();
        } else {
            match self.finish_tail() {
                Tail::None => {}
                Tail::Padded => {
                    let end = self.packed_len.next_multiple_of(GROUP_LEN);
                    if let Some(padding) = self.packed.get_mut(self.packed_len..end) {
                        padding.fill(0);
                    }
                    self.packed_len = end;
                }
                Tail::Repeated(tail) => {
                    self.packed_len -= tail;
                    self.write_packed_run();
                    self.repeat = tail;
                    self.write_rle_run();
                }
            }
            self.write_packed_run();
        }
        self.out
    }

    /// How [`Encoder::finish`] ends a stream outside an RLE run.
    fn finish_tail(&self) -> Tail {
        let tail = self.packed_len % GROUP_LEN;
        if tail == 0 {
            return Tail::None;
        }
        // The incomplete group repeats one value when the repeat count, which restarts
        // at each group, covers all of it.
        if self.repeat == tail {
            let padded = usize::from(self.bit_width) + usize::from(self.packed_len == tail);
            // On a tie, the RLE run: it decodes to exactly the values put.
            if self.rle_run_len(tail) <= padded {
                return Tail::Repeated(tail);
            }
        }
        Tail::Padded
    }

    /// Bytes of an RLE run of `len` values.
    fn rle_run_len(&self, len: usize) -> usize {
        varint::encoded_len((len as u64) << 1) + value_bytes(self.bit_width)
    }

    #[inline]
    fn push_packed(&mut self, value: u32) {
        if let Some(slot) = self.packed.get_mut(self.packed_len) {
            *slot = value;
        }
        self.packed_len += 1;
        if self.packed_len.is_multiple_of(GROUP_LEN) {
            self.repeat = 0;
            if self.packed_len == MAX_PACKED_LEN {
                self.write_packed_run();
            }
        }
    }

    /// Writes the open bit-packed run, if any (whole groups only).
    fn write_packed_run(&mut self) {
        let len = self.packed_len;
        if len == 0 {
            return;
        }
        debug_assert_eq!(len % GROUP_LEN, 0);
        // At most 63 groups: the header is one byte.
        let header = u8::try_from((len / GROUP_LEN) << 1 | 1).unwrap_or(u8::MAX);
        self.out.push(header);
        pack(
            self.bit_width,
            self.packed.get(..len).unwrap_or_default(),
            &mut self.out,
        );
        self.packed_len = 0;
    }

    /// Writes the RLE run of `repeat` copies of `previous`.
    fn write_rle_run(&mut self) {
        let mut header = [0; varint::MAX_LEN_U64];
        let len = varint::write_u64((self.repeat as u64) << 1, &mut header);
        let value = self.previous.to_le_bytes();
        let value = value.get(..value_bytes(self.bit_width)).unwrap_or_default();
        self.out
            .extend_from_slice(header.get(..len).unwrap_or_default());
        self.out.extend_from_slice(value);
        self.repeat = 0;
    }
}

/// How many values at the start of `values` equal `value` once masked.
#[inline]
fn repeats<T: Copy + Into<u32>>(values: &[T], value: u32, mask: u32) -> usize {
    let same = |v: &T| (*v).into() & mask == value;
    // Whole chunks without early exit, so that the comparison vectorizes.
    let mut n = 0;
    while let Some(chunk) = values.get(n..n + 16) {
        if !chunk.iter().fold(true, |all, v| all & same(v)) {
            break;
        }
        n += 16;
    }
    n + values
        .get(n..)
        .unwrap_or_default()
        .iter()
        .take_while(|v| same(v))
        .count()
}

/// How a stream ends outside an RLE run.
enum Tail {
    /// On a group boundary.
    None,
    /// With an incomplete group, padded with zeros.
    Padded,
    /// With an incomplete group of this many equal values, written as an RLE run.
    Repeated(usize),
}

const fn mask(bit_width: u8) -> u32 {
    if bit_width == 0 {
        0
    } else {
        u32::MAX >> (32 - bit_width)
    }
}

/// The 4-byte length prefix for `len` bytes.
fn length_prefix(len: usize) -> Result<[u8; LENGTH_PREFIX_LEN]> {
    u32::try_from(len)
        .map(u32::to_le_bytes)
        .map_err(|_| Error::LimitExceeded {
            what: "length-prefixed RLE data",
            requested: len as u64,
            limit: u32::MAX.into(),
        })
}

/// Encodes `values` at `bit_width` bits and appends the stream to `out` (without a length
/// prefix: dictionary indices, levels of data page v2).
///
/// `values` are `u8`, `u16` or `u32`, or `bool`s at bit width 1; bits above the bit
/// width are ignored. The stream may end with up to 7 zeros of padding, which a
/// decoder asked for exactly `values.len()` values never reads.
///
/// # Panics
///
/// When `bit_width` exceeds [`MAX_BIT_WIDTH`], a bug in the caller.
pub fn encode<T: Copy + Into<u32>>(values: &[T], bit_width: u8, out: &mut Vec<u8>) {
    let mut encoder = Encoder::with_buffer(bit_width, core::mem::take(out));
    encoder.extend(values);
    *out = encoder.into_buffer();
}

/// As [`encode`], with the stream's length as 4 bytes little endian in front (levels of
/// data page v1, booleans).
///
/// # Errors
///
/// [`Error::LimitExceeded`] when the stream is longer than `u32::MAX` bytes; `out` is
/// left as it was.
///
/// # Panics
///
/// When `bit_width` exceeds [`MAX_BIT_WIDTH`], a bug in the caller.
pub fn encode_length_prefixed<T: Copy + Into<u32>>(
    values: &[T],
    bit_width: u8,
    out: &mut Vec<u8>,
) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&[0; LENGTH_PREFIX_LEN]);
    encode(values, bit_width, out);
    let data_start = start + LENGTH_PREFIX_LEN;
    match length_prefix(out.len() - data_start) {
        Ok(len) => {
            if let Some(prefix) = out.get_mut(start..data_start) {
                prefix.copy_from_slice(&len);
            }
            Ok(())
        }
        Err(error) => {
            out.truncate(start);
            Err(error)
        }
    }
}
