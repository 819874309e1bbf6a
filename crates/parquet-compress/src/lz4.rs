//! LZ4_RAW (one LZ4 block) and the deprecated LZ4 of Parquet (LZ4 blocks in Hadoop
//! framing, see [`crate::hadoop`]). Backend: `lz4_flex`, pure Rust, in its fast mode,
//! whose decoder checks every offset and length against its buffers.

use lz4_flex::block::{self, CompressTable, DecompressError};

use crate::output::append_bounded;
use crate::{Codec, Error, Result, hadoop};

/// The largest input of one LZ4 block (`LZ4_MAX_INPUT_SIZE` of the reference library).
const MAX_BLOCK_INPUT: usize = 0x7E00_0000;

/// Appends the LZ4 block of `input` to `out`.
pub(crate) fn compress(table: &mut CompressTable, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    if input.len() > MAX_BLOCK_INPUT {
        return Err(Error::LimitExceeded {
            what: "LZ4 block input length",
            requested: input.len() as u64,
            limit: MAX_BLOCK_INPUT as u64,
        });
    }
    append_bounded(out, block::get_maximum_output_size(input.len()), |room| {
        block::compress_into_with_table(input, room, table)
            .map_err(|_| Error::corrupt(Codec::Lz4Raw, "the LZ4 compressor ran out of room"))
    })
}

/// Appends `input` as Hadoop-framed LZ4 blocks to `out`.
pub(crate) fn compress_hadoop(
    table: &mut CompressTable,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    hadoop::compress(input, out, |block, out| compress(table, block, out))
}

/// Decompresses one LZ4 block into `out`.
pub(crate) fn decompress(input: &[u8], out: &mut [u8]) -> Result<usize> {
    decompress_block(Codec::Lz4Raw, input, out)
}

/// Decompresses Hadoop-framed LZ4 into `out`, falling back to one bare block.
pub(crate) fn decompress_hadoop(
    input: &[u8],
    out: &mut [u8],
    expected: Option<usize>,
) -> Result<usize> {
    hadoop::decompress(Codec::Lz4, input, out, expected, |block, out| {
        decompress_block(Codec::Lz4, block, out)
    })
}

fn decompress_block(codec: Codec, input: &[u8], out: &mut [u8]) -> Result<usize> {
    block::decompress_into(input, out).map_err(|error| match error {
        DecompressError::OutputTooSmall { .. } => Error::TooLong {
            codec,
            limit: out.len(),
        },
        DecompressError::LiteralOutOfBounds => {
            Error::corrupt(codec, "literal runs past the end of the input")
        }
        DecompressError::ExpectedAnotherByte => Error::corrupt(codec, "block ends early"),
        DecompressError::OffsetZero => Error::corrupt(codec, "match offset 0"),
        DecompressError::OffsetOutOfBounds => {
            Error::corrupt(codec, "match offset before the start of the output")
        }
        _ => Error::corrupt(codec, "invalid LZ4 block"),
    })
}
