//! The run-length encodings of ORC streams (orc-v0.md and orc-v1.md, "Run Length
//! Encoding"): byte RLE, boolean RLE, and integer RLE versions 1 and 2.
//!
//! ```
//! use orc_file::rle::{Sign, int_v2};
//!
//! // A signed stream: timestamps-like deltas, a short repeat, then random values.
//! let values = [1_000, 1_010, 1_020, 1_030, 1_040, 7, 7, 7, 7, -3, 900_000, 12, -40_000];
//! let mut encoder = int_v2::Encoder::new(Sign::Signed);
//! encoder.extend(&values);
//! let bytes = encoder.finish();
//!
//! let mut decoder = int_v2::Decoder::new(&bytes, Sign::Signed);
//! let mut out = [0i64; 20];
//! assert_eq!(decoder.decode(&mut out)?, values.len());
//! assert_eq!(&out[..values.len()], &values);
//! # Ok::<(), parquet_core::Error>(())
//! ```
//!
//! # The encodings
//!
//! ```text
//! byte-rle    := ( run | literals )*
//! run         := control:0x00..=0x7f  value:u8                  // control + 3 copies
//! literals    := control:0x80..=0xff  value:u8{256 - control}
//!
//! boolean-rle := byte-rle of bytes whose bits are the values, most significant first
//!
//! int-rle-v1  := ( run | literals )*
//! run         := control:0x00..=0x7f  delta:i8  base:varint     // control + 3 values
//! literals    := control:0x80..=0xff  varint{256 - control}
//!
//! int-rle-v2  := ( short-repeat | direct | patched-base | delta )*
//! short-repeat:= 00 www ccc  value:(www+1 bytes, big-endian)     // ccc + 3 copies
//! direct      := 01 wwwww l:9  values:(l+1 × W bits)
//! patched-base:= 10 wwwww l:9  bbb ppppp  ggg nnnnn  base:(bbb+1 bytes)
//!                values:(l+1 × W bits)  patches:(nnnnn × closest(ggg+1 + P) bits)
//! delta       := 11 wwwww l:9  base:varint  delta-base:signed-varint
//!                deltas:((l-1) × W bits, unless wwwww = 0: a fixed delta)
//! ```
//!
//! Varints are base-128, least significant group first; a signed stream zigzags its
//! values (`(v << 1) ^ (v >> 63)`) before they become varints or packed bits, except
//! `PATCHED_BASE`, whose base carries its own sign bit. An unsigned stream (lengths,
//! dictionary ids) decodes to `i64`s that hold the `u64` bits. Arithmetic wraps, as
//! Java's does, so no input makes a decoder overflow.
//!
//! # Decoders and encoders
//!
//! Each encoding has its module, with a `Decoder` and an `Encoder`: [`byte`],
//! [`boolean`], [`int_v1`] and [`int_v2`], and [`int`] for an integer stream of the
//! [`Version`] a column's encoding says. Integer streams are [`Sign::Signed`] or
//! [`Sign::Unsigned`].
//!
//! Decoders hold the decompressed stream, borrowed (`&[u8]`) or owned (`bytes::Bytes`,
//! `Vec<u8>`: any `AsRef<[u8]>`); `decode` fills a caller's slice and returns fewer
//! values only where the input ends at a run boundary, `skip` moves on without decoding
//! where it can. A stream decompressed a chunk at a time is handed over a window at a
//! time: `set_input` gives a decoder the next window, starting with the bytes it has not
//! consumed (`remaining_input`), and the run it is in carries on; a window must hold
//! every byte of the runs the values asked for are in. Encoders own their output and make the choices Apache
//! ORC's Java writers make (`RunLengthByteWriter`, `BitFieldWriter`,
//! `RunLengthIntegerWriter`, `RunLengthIntegerWriterV2` with aligned bit packing, the
//! default `SPEED` strategy), so their bytes are Java's, but for the one kind of
//! `PATCHED_BASE` run that Java writes wrong ([`int_v2::Encoder`] says which). Their
//! `position` is Java's row-index position: the bytes finished so far, then the values
//! still pending; a reader that starts at that byte and skips that many values is at the
//! same value.
//!
//! # Errors and panics
//!
//! A header cut short, a run whose bytes are not all there, an overlong varint or a
//! patch list that cannot be read is a [`parquet_core::Error`]; no input panics or
//! makes a decoder allocate more than one run (512 values).
#![warn(clippy::indexing_slicing)]

mod bitpack;
pub mod boolean;
pub mod byte;
pub mod int;
pub mod int_v1;
pub mod int_v2;

/// The integer run-length encoding of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// RLE version 1: ORC v0 (Hive 0.11) and the `DIRECT` and `DICTIONARY` encodings.
    V1,
    /// RLE version 2: the `DIRECT_V2` and `DICTIONARY_V2` encodings.
    V2,
}

/// Whether an integer stream holds signed values: a signed stream zigzags them, an
/// unsigned one (lengths, dictionary ids) holds `u64`s, which decode to `i64`s of the
/// same bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// Zigzagged values: data of integer, date and timestamp-seconds columns.
    Signed,
    /// `u64` values: lengths, dictionary ids, encoded nanoseconds.
    Unsigned,
}

impl Sign {
    /// Whether this is [`Sign::Signed`].
    #[inline]
    pub const fn is_signed(self) -> bool {
        matches!(self, Self::Signed)
    }
}

use parquet_core::{Error, Result, varint, zigzag};

/// Longest varint of a 64-bit value.
const MAX_VARINT_LEN: usize = 10;

/// Reads a base-128 varint at `*pos`, moving `*pos` past it.
///
/// As Java's `readVulong`, bits past the 64th are dropped and a zero last group is
/// accepted; unlike it, a varint longer than ten bytes is an error.
// Not `parquet_core::varint::decode_u64`: that one is strict, and ORC's readers are not.
#[allow(clippy::inline_always)] // the one-byte case belongs in every caller's loop
#[inline(always)]
fn read_varint(input: &[u8], pos: &mut usize, what: &'static str) -> Result<u64> {
    if let Some(&byte) = input.get(*pos)
        && byte < 0x80
    {
        *pos += 1;
        return Ok(u64::from(byte));
    }
    read_varint_long(input, pos, what)
}

/// [`read_varint`] past its first byte.
fn read_varint_long(input: &[u8], pos: &mut usize, what: &'static str) -> Result<u64> {
    let start = *pos;
    if let Some(bytes) = input
        .get(start..)
        .and_then(<[u8]>::first_chunk::<MAX_VARINT_LEN>)
    {
        // Ten bytes there: no bounds checks, and a loop the compiler unrolls.
        let mut value = 0u64;
        for (index, &byte) in bytes.iter().enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * index);
            if byte < 0x80 {
                *pos = start + index + 1;
                return Ok(value);
            }
        }
        return Err(Error::invalid(what, start, MAX_VARINT_LEN as u64 + 1));
    }
    read_varint_slow(input, pos, what)
}

fn read_varint_slow(input: &[u8], pos: &mut usize, what: &'static str) -> Result<u64> {
    let start = *pos;
    let mut value = 0u64;
    for (index, &byte) in input.get(start..).unwrap_or_default().iter().enumerate() {
        if index == MAX_VARINT_LEN {
            return Err(Error::invalid(what, start, MAX_VARINT_LEN as u64 + 1));
        }
        value |= u64::from(byte & 0x7f) << (7 * index);
        if byte < 0x80 {
            *pos = start + index + 1;
            return Ok(value);
        }
    }
    let available = input.len().saturating_sub(start);
    Err(Error::truncated(what, start, available + 1, available))
}

/// Skips one varint at `*pos`: the same checks as [`read_varint`], without the value.
#[inline]
fn skip_varint(input: &[u8], pos: &mut usize, what: &'static str) -> Result<()> {
    read_varint(input, pos, what).map(drop)
}

/// Appends `value` zigzagged, as a varint.
#[inline]
fn write_signed_varint(out: &mut Vec<u8>, value: i64) {
    varint::encode_u64(zigzag::encode_i64(value), out);
}

/// Reads one byte at `*pos` and moves past it.
#[inline]
fn read_u8(input: &[u8], pos: &mut usize, what: &'static str) -> Result<u8> {
    let byte = input
        .get(*pos)
        .copied()
        .ok_or(Error::truncated(what, *pos, 1, 0))?;
    *pos += 1;
    Ok(byte)
}

/// Takes `len` bytes at `*pos` and moves past them.
#[inline]
fn take<'a>(input: &'a [u8], pos: &mut usize, len: usize, what: &'static str) -> Result<&'a [u8]> {
    let start = *pos;
    let bytes = start
        .checked_add(len)
        .and_then(|end| input.get(start..end))
        .ok_or_else(|| Error::truncated(what, start, len, input.len().saturating_sub(start)))?;
    *pos = start + len;
    Ok(bytes)
}

#[cfg(test)]
mod tests;
