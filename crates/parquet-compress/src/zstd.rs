//! ZSTD (RFC 8878): one or more Zstandard frames, skippable frames allowed.
//!
//! Backend with the `zstd` feature: the reference C library through the `zstd` crate,
//! single-shot into the output slice, with contexts kept between calls; its single-shot
//! decoder needs no window buffer. With only the `ruzstd` feature: `ruzstd`, pure Rust,
//! which decodes everything and encodes at its one implemented level, "Fastest"
//! (about zstd's level 1), whatever level is asked for.

use crate::output::Growing;
use crate::{Error, Result};

#[cfg(feature = "zstd")]
pub(crate) use c::*;
#[cfg(all(feature = "ruzstd", not(feature = "zstd")))]
pub(crate) use pure::*;

#[cfg(feature = "zstd")]
mod c {
    use ::zstd::zstd_safe::{self, CCtx, DCtx};

    use crate::output::append_bounded;
    use crate::{Codec, Error, Result};

    /// zstd's name for `ZSTD_error_dstSize_tooSmall`.
    const DST_TOO_SMALL: &str = "Destination buffer is too small";

    /// A compression context, kept between pages.
    pub(crate) type Encoder = CCtx<'static>;
    /// A decompression context, kept between pages.
    pub(crate) type Decoder = DCtx<'static>;

    pub(crate) fn encoder() -> Encoder {
        CCtx::create()
    }

    pub(crate) fn decoder() -> Decoder {
        DCtx::create()
    }

    /// Appends one frame holding `input`, at `level`, to `out`.
    pub(crate) fn compress(
        encoder: &mut Encoder,
        level: i32,
        input: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        append_bounded(out, zstd_safe::compress_bound(input.len()), |room| {
            encoder
                .compress(room, input, level)
                .map_err(|code| Error::corrupt(Codec::Zstd, zstd_safe::get_error_name(code)))
        })
    }

    /// The total decompressed size that the frame headers declare, when every frame
    /// declares one. The decoder checks each frame against its declared size, so a
    /// mismatch with what the caller expects can be reported before decoding.
    pub(crate) fn declared_len(mut input: &[u8]) -> Option<u64> {
        let mut total: u64 = 0;
        while !input.is_empty() {
            // A skippable frame declares 0.
            let declared = zstd_safe::get_frame_content_size(input).ok()??;
            let frame_len = zstd_safe::find_frame_compressed_size(input).ok()?;
            total = total.checked_add(declared)?;
            input = input.get(frame_len..).filter(|_| frame_len > 0)?;
        }
        Some(total)
    }

    /// Decompresses every frame of `input` into `out`.
    pub(crate) fn decompress(decoder: &mut Decoder, input: &[u8], out: &mut [u8]) -> Result<usize> {
        decoder.decompress(out, input).map_err(|code| {
            let name = zstd_safe::get_error_name(code);
            if name == DST_TOO_SMALL {
                Error::TooLong {
                    codec: Codec::Zstd,
                    limit: out.len(),
                }
            } else {
                Error::corrupt(Codec::Zstd, name)
            }
        })
    }
}

#[cfg(all(feature = "ruzstd", not(feature = "zstd")))]
mod pure {
    use ruzstd::decoding::FrameDecoder;
    use ruzstd::decoding::errors::FrameDecoderError;
    use ruzstd::encoding::CompressionLevel;

    use crate::{Codec, Error, Result};

    /// `ruzstd`'s encoder keeps nothing between frames.
    pub(crate) struct Encoder;
    /// A frame decoder, kept between pages.
    pub(crate) type Decoder = FrameDecoder;

    pub(crate) fn encoder() -> Encoder {
        Encoder
    }

    pub(crate) fn decoder() -> Decoder {
        FrameDecoder::new()
    }

    /// Appends one frame holding `input` to `out`, at ruzstd's "Fastest" level whatever
    /// `level` is.
    #[allow(clippy::unnecessary_wraps)]
    pub(crate) fn compress(
        _encoder: &mut Encoder,
        _level: i32,
        input: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        ruzstd::encoding::compress(input, &mut *out, CompressionLevel::Fastest);
        Ok(())
    }

    /// `ruzstd` has no cheap walk over all frame headers: no declared size.
    pub(crate) fn declared_len(_input: &[u8]) -> Option<u64> {
        None
    }

    /// Decompresses every frame of `input` into `out`.
    pub(crate) fn decompress(decoder: &mut Decoder, input: &[u8], out: &mut [u8]) -> Result<usize> {
        decoder.decode_all(input, out).map_err(|error| match error {
            FrameDecoderError::TargetTooSmall => Error::TooLong {
                codec: Codec::Zstd,
                limit: out.len(),
            },
            FrameDecoderError::WindowSizeTooBig { .. } => {
                Error::corrupt(Codec::Zstd, "window larger than the decoder accepts")
            }
            FrameDecoderError::FailedToReadChecksum(_) => {
                Error::corrupt(Codec::Zstd, "content checksum missing or wrong")
            }
            FrameDecoderError::ReadFrameHeaderError(_)
            | FrameDecoderError::FrameHeaderError(_)
            | FrameDecoderError::FailedToInitialize(_) => {
                Error::corrupt(Codec::Zstd, "invalid frame header")
            }
            FrameDecoderError::DictNotProvided { .. } => {
                Error::corrupt(Codec::Zstd, "frame needs a dictionary")
            }
            _ => Error::corrupt(Codec::Zstd, "invalid Zstandard block"),
        })
    }
}

/// The most bytes a ZSTD input of `len` bytes can decompress to: a block produces at
/// most 128 KiB and takes at least 4 bytes (an RLE block: 3-byte header, 1 byte).
pub(crate) const fn max_len(len: usize) -> usize {
    len.saturating_mul(32 * 1024)
}

/// Decompresses every frame of `input` into `out`, starting over with four times the
/// room each time the room is too small: for frames without a content size, whose
/// output is known only once decoded. Both backends decode into one slice, so an
/// attempt that runs out of room is work lost: growing fourfold keeps the lost work
/// below a third of the last attempt's (and the room below four times the output).
pub(crate) fn decompress_growing(
    decoder: &mut Decoder,
    input: &[u8],
    out: &mut Growing<'_>,
) -> Result<usize> {
    loop {
        match decompress(decoder, input, out.all()) {
            Err(Error::TooLong { .. }) if out.multiply(4)? => {}
            result => return result,
        }
    }
}
