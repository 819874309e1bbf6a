//! SNAPPY: the raw Snappy block format (a varint of the decompressed length, then
//! literals and copies), not the Snappy framing format. Backend: `snap`, pure Rust.

use crate::output::append_bounded;
use crate::{Codec, Error, Result};

/// Appends the Snappy block of `input` to `out`.
pub(crate) fn compress(
    encoder: &mut snap::raw::Encoder,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    let bound = snap::raw::max_compress_len(input.len());
    if bound == 0 && !input.is_empty() {
        return Err(Error::LimitExceeded {
            what: "SNAPPY input length",
            requested: input.len() as u64,
            limit: u64::from(u32::MAX),
        });
    }
    append_bounded(out, bound, |room| {
        encoder
            .compress(input, room)
            .map_err(|error| map_error(&error))
    })
}

/// The decompressed length the block's preamble declares, if the block can hold it.
///
/// The preamble is a claim: a copy of at most 64 bytes takes at least 3 bytes of input
/// and a literal takes more input than it makes, so a block of `n` bytes decompresses
/// to less than `22 * n`; a preamble that says more is refused before any room is made
/// for it.
pub(crate) fn decompressed_len(input: &[u8]) -> Result<usize> {
    let len = snap::raw::decompress_len(input).map_err(|error| map_error(&error))?;
    if len > input.len().saturating_mul(MAX_RATIO) {
        return Err(Error::corrupt(
            Codec::Snappy,
            "length preamble larger than the block can decompress to",
        ));
    }
    Ok(len)
}

/// More than a Snappy block can expand by: a 3-byte copy makes at most 64 bytes.
const MAX_RATIO: usize = 22;

/// Decompresses the block into `out`, failing before any work when its preamble
/// declares more than `out.len()` bytes.
pub(crate) fn decompress(input: &[u8], out: &mut [u8]) -> Result<usize> {
    let len = decompressed_len(input)?;
    let Some(out) = out.get_mut(..len) else {
        return Err(Error::TooLong {
            codec: Codec::Snappy,
            limit: out.len(),
        });
    };
    snap::raw::Decoder::new()
        .decompress(input, out)
        .map_err(|error| map_error(&error))
}

fn map_error(error: &snap::Error) -> Error {
    Error::corrupt(
        Codec::Snappy,
        match error {
            snap::Error::TooBig { .. } => "decompressed length above 2^32 - 1",
            snap::Error::Empty => "empty input",
            snap::Error::Header => "invalid length preamble",
            snap::Error::HeaderMismatch { .. } => {
                "decompressed length differs from the length preamble"
            }
            snap::Error::Literal { .. } => "literal runs past the end of the input",
            snap::Error::CopyRead { .. } => "copy header runs past the end of the input",
            snap::Error::CopyWrite { .. } => "copy runs past the end of the output",
            snap::Error::Offset { .. } => "copy offset out of range",
            _ => "invalid Snappy block",
        },
    )
}
