//! The block framing of Hadoop's `BlockCompressorStream`, which parquet-java's LZ4 (through
//! Hadoop's `Lz4Codec`) and LZO (through hadoop-lzo's `LzoCodec`) pages carry:
//!
//! ```text
//! framed := block*
//! block  := decompressed-size:u32be chunk+      // chunks until decompressed-size is reached
//! chunk  := compressed-size:u32be compressed-bytes[compressed-size]
//! ```
//!
//! Writers other than Hadoop (Arrow C++, arrow-rs) put one chunk in each block. Some
//! older writers wrote a bare block with no framing; [`decompress`] falls back to it
//! when the framing does not fit, as Arrow C++ and arrow-rs do.

use crate::{Codec, Error, Result};

/// Bytes of a block or chunk header.
const HEADER_LEN: usize = 4;

/// The most input bytes one written block holds: small enough that every chunk fits the
/// 256 KiB buffers of Hadoop's decompressors even when it does not compress.
pub(crate) const BLOCK_LEN: usize = 128 * 1024;

/// Appends `input` in Hadoop framing, one chunk per block of at most [`BLOCK_LEN`]
/// bytes; `compress_block` appends one bare compressed block. Empty input writes
/// nothing, which Hadoop reads as an empty stream. On error `out` is left longer, for
/// [`Compressor::compress`](crate::Compressor::compress) to cut back.
pub(crate) fn compress(
    input: &[u8],
    out: &mut Vec<u8>,
    mut compress_block: impl FnMut(&[u8], &mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    for block in input.chunks(BLOCK_LEN) {
        let header = out.len();
        out.extend_from_slice(&[0; 2 * HEADER_LEN]);
        compress_block(block, out)?;
        let compressed = out.len() - header - 2 * HEADER_LEN;
        // Both fit: a block is at most 128 KiB and no codec here expands it past 2^32.
        // The two headers are the `2 * HEADER_LEN` bytes appended at `header` above.
        #[allow(clippy::cast_possible_truncation, clippy::indexing_slicing)]
        {
            out[header..header + HEADER_LEN].copy_from_slice(&(block.len() as u32).to_be_bytes());
            out[header + HEADER_LEN..header + 2 * HEADER_LEN]
                .copy_from_slice(&(compressed as u32).to_be_bytes());
        }
    }
    Ok(())
}

/// Decompresses Hadoop-framed `input` into `out`, or, when the framing does not fit
/// (a header runs past the input, a chunk fails or overruns its block, or the total is
/// not `expected`), `input` as one bare block, as Arrow C++ and arrow-rs do.
///
/// `decompress_block` decompresses one bare block into a slice and returns the bytes
/// written, failing with [`Error::TooLong`] when the slice is too small.
///
/// Without `expected` nothing can tell a wrong bare reading from a right one, so the
/// bare reading is tried only when the input is not a well-formed sequence of
/// one-chunk blocks. When both readings fail, the error of the framed reading is
/// returned if the input starts like a frame (its first block is `expected` bytes, or
/// its first chunk fits the input), otherwise that of the bare reading.
pub(crate) fn decompress(
    codec: Codec,
    input: &[u8],
    out: &mut [u8],
    expected: Option<usize>,
    mut decompress_block: impl FnMut(&[u8], &mut [u8]) -> Result<usize>,
) -> Result<usize> {
    let accept = |written: usize| expected.is_none_or(|expected| expected == written);
    let short = |found: usize| Error::TooShort {
        codec,
        expected: expected.unwrap_or(found),
        found,
    };
    let framed = match decompress_framed(codec, input, out, &mut decompress_block) {
        Ok(written) if accept(written) => return Ok(written),
        Ok(written) => short(written),
        Err(error) => error,
    };
    if expected.is_none() && is_well_formed(input) {
        return Err(framed);
    }
    let bare = match decompress_block(input, out) {
        Ok(written) if accept(written) => return Ok(written),
        Ok(written) => short(written),
        Err(error) => error,
    };
    Err(if looks_framed(input, expected) {
        framed
    } else {
        bare
    })
}

/// Whether `input` starts like a Hadoop frame: its first block is `expected` bytes, or
/// its first chunk fits the input.
fn looks_framed(input: &[u8], expected: Option<usize>) -> bool {
    expected.is_some_and(|expected| read_u32(input, 0, "").is_ok_and(|len| len == expected))
        || read_u32(input, HEADER_LEN, "").is_ok_and(|len| len <= input.len() - 2 * HEADER_LEN)
}

/// Whether `input` is exactly a sequence of blocks of one chunk each, judged by the
/// headers alone.
fn is_well_formed(input: &[u8]) -> bool {
    let mut at = 0;
    while at < input.len() {
        let Ok(chunk_len) = read_u32(input, at + HEADER_LEN, "") else {
            return false;
        };
        match (at + 2 * HEADER_LEN).checked_add(chunk_len) {
            Some(end) if end <= input.len() => at = end,
            _ => return false,
        }
    }
    true
}

fn decompress_framed(
    codec: Codec,
    input: &[u8],
    out: &mut [u8],
    decompress_block: &mut impl FnMut(&[u8], &mut [u8]) -> Result<usize>,
) -> Result<usize> {
    let mut at = 0;
    let mut written = 0;
    while at < input.len() {
        let block_len = read_u32(input, at, "Hadoop block header")?;
        at += HEADER_LEN;
        if block_len > out.len() - written {
            return Err(Error::TooLong {
                codec,
                limit: out.len(),
            });
        }
        let block_end = written + block_len;
        // At least one chunk, even for an empty block (Arrow writes one for empty input).
        loop {
            let chunk_len = read_u32(input, at, "Hadoop chunk header")?;
            at += HEADER_LEN;
            let Some(chunk) = at.checked_add(chunk_len).and_then(|end| input.get(at..end)) else {
                return Err(Error::truncated(
                    "Hadoop chunk",
                    at,
                    chunk_len,
                    input.len() - at,
                ));
            };
            at += chunk_len;
            // `block_end <= out.len()` (checked above), and each chunk writes at most the
            // room it is given, so `written <= block_end`.
            #[allow(clippy::indexing_slicing)]
            let room = &mut out[written..block_end];
            written += decompress_block(chunk, room).map_err(|error| match error {
                Error::TooLong { .. } => {
                    Error::corrupt(codec, "a Hadoop chunk decompresses past its block")
                }
                error => error,
            })?;
            if written == block_end {
                break;
            }
        }
    }
    Ok(written)
}

/// Reads the big-endian `u32` at `at`.
fn read_u32(input: &[u8], at: usize, what: &'static str) -> Result<usize> {
    match input.get(at..at + HEADER_LEN) {
        Some(&[b0, b1, b2, b3]) => Ok(u32::from_be_bytes([b0, b1, b2, b3]) as usize),
        _ => Err(Error::truncated(
            what,
            at,
            HEADER_LEN,
            input.len().saturating_sub(at),
        )),
    }
}
