//! LZO: LZO1X streams, bare (ORC's `LZO`, [`Codec::LzoRaw`]) or in Hadoop block framing
//! (Parquet's `LZO`, [`Codec::Lzo`], as parquet-java writes it through hadoop-lzo; see
//! [`crate::hadoop`]).
//!
//! Compression: `lzokay-native` (pure Rust, LZO1X-999-class output that liblzo2's
//! `lzo1x_decompress_safe` reads). Decompression: [`lzo1x`], this crate's own decoder,
//! because `lzokay-native`'s decoder can panic on malformed input and has no output
//! bound.

mod lzo1x;
#[cfg(test)]
mod tests;

use crate::{Codec, Error, Result, hadoop};

/// The LZO1X stream of empty input: the end-of-stream marker alone.
const EMPTY_STREAM: [u8; 3] = [0x11, 0, 0];

/// The compressor's work memory, kept between calls.
pub(crate) type Dict = lzokay_native::Dict;

/// Appends the LZO1X stream of `input` to `out`.
pub(crate) fn compress(dict: &mut Dict, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    if input.is_empty() {
        out.extend_from_slice(&EMPTY_STREAM);
        return Ok(());
    }
    let compressed = lzokay_native::compress_with_dict(input, dict)
        .map_err(|_| Error::corrupt(Codec::LzoRaw, "the LZO compressor failed"))?;
    out.extend_from_slice(&compressed);
    Ok(())
}

/// Appends `input` as Hadoop-framed LZO1X streams to `out`.
pub(crate) fn compress_hadoop(dict: &mut Dict, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    hadoop::compress(input, out, |block, out| compress(dict, block, out))
}

/// Decompresses one LZO1X stream into `out`.
pub(crate) fn decompress(input: &[u8], out: &mut [u8]) -> Result<usize> {
    decompress_stream(Codec::LzoRaw, input, out)
}

/// Decompresses Hadoop-framed LZO1X into `out`, falling back to one bare stream.
pub(crate) fn decompress_hadoop(
    input: &[u8],
    out: &mut [u8],
    expected: Option<usize>,
) -> Result<usize> {
    hadoop::decompress(Codec::Lzo, input, out, expected, |block, out| {
        decompress_stream(Codec::Lzo, block, out)
    })
}

fn decompress_stream(codec: Codec, input: &[u8], out: &mut [u8]) -> Result<usize> {
    lzo1x::decompress(input, out).map_err(|fault| match fault {
        lzo1x::Fault::OutputOverrun => Error::TooLong {
            codec,
            limit: out.len(),
        },
        fault => Error::corrupt(codec, fault.describe()),
    })
}
