//! GZIP (RFC 1952) and raw DEFLATE (RFC 1951, ORC's `ZLIB`). Backend: `flate2` on
//! `zlib-rs` (pure Rust, with run-time CPU feature detection) for DEFLATE itself and
//! CRC-32; the gzip member framing is parsed and written here:
//!
//! ```text
//! member  := header deflate-stream crc32:u32le isize:u32le
//! header  := 1f 8b 08 flg:u8 mtime:u32le xfl:u8 os:u8
//!            [xlen:u16le extra[xlen]]   if flg & FEXTRA (0x04)
//!            [name 00]                  if flg & FNAME (0x08)
//!            [comment 00]               if flg & FCOMMENT (0x10)
//!            [crc16:u16le]              if flg & FHCRC (0x02)
//! ```
//!
//! A page may hold several members; they decompress to their concatenation.

#[cfg(feature = "gzip")]
use flate2::Crc;
use flate2::{Compress, Decompress, FlushCompress, FlushDecompress, Status};

use crate::output::Sink;
use crate::{Codec, Error, Result};

#[cfg(feature = "gzip")]
const FHCRC: u8 = 0x02;
#[cfg(feature = "gzip")]
const FEXTRA: u8 = 0x04;
#[cfg(feature = "gzip")]
const FNAME: u8 = 0x08;
#[cfg(feature = "gzip")]
const FCOMMENT: u8 = 0x10;
#[cfg(feature = "gzip")]
const RESERVED_FLAGS: u8 = 0xe0;

/// A DEFLATE compressor (no zlib or gzip wrapper) at `level` (0..=9).
pub(crate) fn compressor(level: i32) -> Compress {
    let level = u32::try_from(level.clamp(0, 9)).unwrap_or(6);
    Compress::new(flate2::Compression::new(level), false)
}

/// A raw DEFLATE decompressor.
pub(crate) fn decompressor() -> Decompress {
    Decompress::new(false)
}

/// Appends the raw DEFLATE stream of `input` to `out`.
pub(crate) fn deflate(
    state: &mut Compress,
    codec: Codec,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    state.reset();
    let n = input.len();
    // zlib's deflateBound for a raw stream, plus slack; the loop grows `out` if a level
    // ever needs more.
    out.reserve(n + (n >> 12) + (n >> 14) + (n >> 25) + 64);
    let mut consumed = 0;
    loop {
        if out.capacity() - out.len() < 64 {
            out.reserve((n - consumed) / 2 + 1024);
        }
        let before = state.total_in();
        // The compressor consumes at most the input it is given: `consumed <= n`.
        #[allow(clippy::indexing_slicing)]
        let status = state
            .compress_vec(&input[consumed..], out, FlushCompress::Finish)
            .map_err(|_| Error::corrupt(codec, "the DEFLATE compressor failed"))?;
        consumed += delta(state.total_in(), before);
        if status == Status::StreamEnd {
            return Ok(());
        }
    }
}

/// Appends one gzip member holding `input` to `out`: a 10-byte header without name or
/// time stamp, the DEFLATE stream, CRC-32 and length.
#[cfg(feature = "gzip")]
pub(crate) fn gzip(
    state: &mut Compress,
    level: i32,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    // XFL 2 marks the slowest level, 4 the fastest; OS 255 is "unknown".
    let xfl = match level {
        9 => 2,
        1 => 4,
        _ => 0,
    };
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 0xff]);
    deflate(state, Codec::Gzip, input, out)?;
    let mut crc = Crc::new();
    crc.update(input);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    // ISIZE is the length modulo 2^32.
    #[allow(clippy::cast_possible_truncation)]
    out.extend_from_slice(&(input.len() as u32).to_le_bytes());
    Ok(())
}

/// Decompresses one raw DEFLATE stream that must span all of `input` into `out`.
#[cfg(feature = "deflate")]
pub(crate) fn inflate<S: Sink + ?Sized>(
    state: &mut Decompress,
    input: &[u8],
    out: &mut S,
) -> Result<usize> {
    let (consumed, written) = inflate_stream(state, Codec::Deflate, input, out, 0)?;
    if consumed != input.len() {
        return Err(Error::corrupt(
            Codec::Deflate,
            "bytes after the end of the DEFLATE stream",
        ));
    }
    Ok(written)
}

/// Decompresses every gzip member of `input` into `out`, checking each member's CRC-32
/// and length.
#[cfg(feature = "gzip")]
pub(crate) fn gunzip<S: Sink + ?Sized>(
    state: &mut Decompress,
    input: &[u8],
    out: &mut S,
) -> Result<usize> {
    let mut at = 0;
    let mut written = 0;
    while at < input.len() {
        let body = member_header(input, at)?;
        let stream = input.get(body..).unwrap_or_default();
        let (consumed, end) = inflate_stream(state, Codec::Gzip, stream, out, written)?;
        let trailer = body + consumed;
        let [c0, c1, c2, c3, s0, s1, s2, s3] = read_bytes(input, trailer, "gzip member trailer")?;
        let member = out.written(written..end);
        let mut crc = Crc::new();
        crc.update(member);
        if crc.sum() != u32::from_le_bytes([c0, c1, c2, c3]) {
            return Err(Error::corrupt(Codec::Gzip, "CRC-32 mismatch"));
        }
        #[allow(clippy::cast_possible_truncation)]
        if member.len() as u32 != u32::from_le_bytes([s0, s1, s2, s3]) {
            return Err(Error::corrupt(
                Codec::Gzip,
                "ISIZE differs from the member's length",
            ));
        }
        written = end;
        at = trailer + 8;
    }
    Ok(written)
}

/// Parses the member header at `at`, returning where its DEFLATE stream starts.
#[cfg(feature = "gzip")]
fn member_header(input: &[u8], at: usize) -> Result<usize> {
    let [id1, id2, method, flags, ..] = read_bytes::<10>(input, at, "gzip member header")?;
    if [id1, id2] != [0x1f, 0x8b] {
        return Err(Error::invalid(
            "gzip magic",
            at,
            u64::from(u16::from_be_bytes([id1, id2])),
        ));
    }
    if method != 8 {
        return Err(Error::invalid(
            "gzip compression method",
            at + 2,
            u64::from(method),
        ));
    }
    if flags & RESERVED_FLAGS != 0 {
        return Err(Error::invalid("gzip flags", at + 3, u64::from(flags)));
    }
    let mut pos = at + 10;
    if flags & FEXTRA != 0 {
        let xlen = read_bytes(input, pos, "gzip extra field length")?;
        let len = usize::from(u16::from_le_bytes(xlen));
        if input.len() - pos - 2 < len {
            return Err(Error::truncated(
                "gzip extra field",
                pos + 2,
                len,
                input.len() - pos - 2,
            ));
        }
        pos += 2 + len;
    }
    for (flag, what) in [(FNAME, "gzip file name"), (FCOMMENT, "gzip comment")] {
        if flags & flag != 0 {
            let rest = input.get(pos..).unwrap_or_default();
            let Some(nul) = rest.iter().position(|&b| b == 0) else {
                return Err(Error::truncated(
                    what,
                    pos,
                    input.len() - pos + 1,
                    input.len() - pos,
                ));
            };
            pos += nul + 1;
        }
    }
    if flags & FHCRC != 0 {
        let stored = u16::from_le_bytes(read_bytes(input, pos, "gzip header CRC-16")?);
        let mut crc = Crc::new();
        crc.update(input.get(at..pos).unwrap_or_default());
        #[allow(clippy::cast_possible_truncation)]
        if crc.sum() as u16 != stored {
            return Err(Error::invalid("gzip header CRC-16", pos, u64::from(stored)));
        }
        pos += 2;
    }
    Ok(pos)
}

/// The `N` bytes of `what` at `at` in `input`.
#[cfg(feature = "gzip")]
fn read_bytes<const N: usize>(input: &[u8], at: usize, what: &'static str) -> Result<[u8; N]> {
    input
        .get(at..)
        .and_then(<[u8]>::first_chunk)
        .copied()
        .ok_or_else(|| Error::truncated(what, at, N, input.len().saturating_sub(at)))
}

/// Inflates the DEFLATE stream at the start of `input` into `out` after its first
/// `written` bytes, returning the input bytes it spans and the new end of the output.
/// Output past `out.limit()` is an error: when `out` is full, one probe byte tells
/// whether the stream has more.
fn inflate_stream<S: Sink + ?Sized>(
    state: &mut Decompress,
    codec: Codec,
    input: &[u8],
    out: &mut S,
    mut written: usize,
) -> Result<(usize, usize)> {
    state.reset(false);
    let mut consumed = 0;
    let limit = out.limit();
    loop {
        let (in_before, out_before) = (state.total_in(), state.total_out());
        // The decompressor consumes at most the input it is given: `consumed <=
        // input.len()`.
        #[allow(clippy::indexing_slicing)]
        let status = if let space @ [_, ..] = out.room(written)? {
            state.decompress(&input[consumed..], space, FlushDecompress::None)
        } else {
            let mut probe = [0u8; 1];
            let status = state.decompress(&input[consumed..], &mut probe, FlushDecompress::None);
            if state.total_out() != out_before {
                return Err(Error::TooLong { codec, limit });
            }
            status
        }
        .map_err(|_| Error::corrupt(codec, "invalid DEFLATE stream"))?;
        let (read, wrote) = (
            delta(state.total_in(), in_before),
            delta(state.total_out(), out_before),
        );
        consumed += read;
        written += wrote;
        if status == Status::StreamEnd {
            return Ok((consumed, written));
        }
        if read == 0 && wrote == 0 {
            return Err(Error::corrupt(
                codec,
                if consumed == input.len() {
                    "DEFLATE stream ends early"
                } else {
                    "DEFLATE stream makes no progress"
                },
            ));
        }
    }
}

/// The difference of two of the backend's running totals, which differ by at most a
/// slice length.
fn delta(after: u64, before: u64) -> usize {
    usize::try_from(after.saturating_sub(before)).unwrap_or(usize::MAX)
}
