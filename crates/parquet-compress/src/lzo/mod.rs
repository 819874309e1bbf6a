//! LZO: LZO1X streams, bare (ORC's `LZO`, [`Codec::LzoRaw`]) or in Hadoop block framing
//! (Parquet's `LZO`, [`Codec::Lzo`], as parquet-java writes it through hadoop-lzo; see
//! [`crate::hadoop`]).
//!
//! Compression: the `compress` module, this crate's own LZO1X compressor, which writes no M1
//! matches, so that Apache ORC's decoder (aircompressor's, in ORC Java and C++) reads
//! its streams as liblzo2 does. Decompression: [`lzo1x`], this crate's own decoder,
//! bounded by its output slice.

mod compress;
#[cfg(test)]
mod compress_tests;
mod lzo1x;
#[cfg(test)]
mod tests;

use crate::{Codec, Error, Result, hadoop};

pub(crate) use compress::Dict;

/// Appends the LZO1X stream of `input` to `out`.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn compress(dict: &mut Dict, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    compress::compress(dict, input, out);
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
