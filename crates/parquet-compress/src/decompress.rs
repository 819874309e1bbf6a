//! Decompression, always bounded by the caller's size.

use core::fmt;

use crate::output::{Growing, first_room, grow, reserve};
use crate::{Codec, Error, Result};

#[cfg(feature = "brotli")]
use crate::brotli;
#[cfg(any(feature = "gzip", feature = "deflate"))]
use crate::flate;
#[cfg(feature = "lz4")]
use crate::lz4;
#[cfg(feature = "lzo")]
use crate::lzo;
#[cfg(feature = "snappy")]
use crate::snappy;
#[cfg(any(feature = "zstd", feature = "ruzstd"))]
use crate::zstd;

/// Decompresses `input`, which must decompress to exactly `expected_len` bytes, and
/// appends the result to `out`: [`Decompressor::decompress`] with a fresh context.
///
/// # Errors
///
/// See [`Decompressor::decompress`].
pub fn decompress(
    codec: Codec,
    input: &[u8],
    expected_len: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    Decompressor::new().decompress(codec, input, expected_len, out)
}

/// Decompresses pages, keeping the contexts that ZSTD and DEFLATE (GZIP) build between
/// calls, for any mix of codecs.
///
/// ```
/// use parquet_compress::{Codec, Decompressor, Error, compress};
///
/// let page = b"parquet parquet parquet parquet parquet parquet".repeat(100);
/// let mut compressed = Vec::new();
/// compress(Codec::Uncompressed, &page, &mut compressed)?;
///
/// let mut decompressor = Decompressor::new();
/// let mut out = Vec::new();
/// decompressor.decompress(Codec::Uncompressed, &compressed, page.len(), &mut out)?;
/// assert_eq!(out, page);
///
/// // Less room than the data needs is an error, and nothing is appended.
/// out.clear();
/// let error = decompressor
///     .decompress(Codec::Uncompressed, &compressed, 100, &mut out)
///     .unwrap_err();
/// assert_eq!(error, Error::TooLong { codec: Codec::Uncompressed, limit: 100 });
/// assert!(out.is_empty());
/// # Ok::<(), Error>(())
/// ```
#[derive(Default)]
pub struct Decompressor {
    #[cfg(any(feature = "gzip", feature = "deflate"))]
    inflate: Option<flate2::Decompress>,
    #[cfg(any(feature = "zstd", feature = "ruzstd"))]
    zstd: Option<zstd::Decoder>,
}

impl fmt::Debug for Decompressor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decompressor").finish_non_exhaustive()
    }
}

/// How many bytes an input can decompress to, known before decompressing it.
enum Size {
    /// Exactly this many: the format declares it and the decoder enforces it.
    Exact(usize),
    /// At most this many: the format cannot expand further.
    AtMost(usize),
    /// No useful bound.
    Unknown,
}

impl Decompressor {
    /// A decompressor; contexts are created on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decompresses `input`, which must decompress to exactly `expected_len` bytes (a
    /// Parquet page header's `uncompressed_page_size`), and appends the result to `out`.
    ///
    /// `out` grows by at most `expected_len` bytes of capacity, and only after the
    /// checks that need no decompression have passed (see the crate docs). GZIP,
    /// DEFLATE, BROTLI and ZSTD frames without a content size do not take
    /// `expected_len` on trust: their room starts at what the input's length makes
    /// plausible (`min(expected_len, 32 * input.len() + 64 KiB)`, or the spare capacity
    /// `out` already has) and grows as the decoder fills it. On error, `out` keeps its
    /// length and contents.
    ///
    /// # Errors
    ///
    /// - [`Error::Unsupported`] for a codec whose cargo feature is off;
    /// - [`Error::TooLong`] when the data would decompress past `expected_len`;
    /// - [`Error::TooShort`] when it decompresses to fewer bytes;
    /// - [`Error::LimitExceeded`] when `expected_len` is more than `input` can possibly
    ///   decompress to with this codec, or cannot be allocated;
    /// - [`Error::Corrupt`], [`Error::Truncated`], [`Error::Invalid`] for malformed data.
    pub fn decompress(
        &mut self,
        codec: Codec,
        input: &[u8],
        expected_len: usize,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        check_enabled(codec)?;
        let size = size(codec, input)?;
        match size {
            Size::Exact(len) if len > expected_len => {
                return Err(Error::TooLong {
                    codec,
                    limit: expected_len,
                });
            }
            Size::Exact(len) if len < expected_len => {
                return Err(Error::TooShort {
                    codec,
                    expected: expected_len,
                    found: len,
                });
            }
            Size::AtMost(len) if len < expected_len => {
                return Err(Error::LimitExceeded {
                    what: "expected decompressed size",
                    requested: expected_len as u64,
                    limit: len as u64,
                });
            }
            _ => {}
        }
        if codec == Codec::Uncompressed {
            // The size check above has passed: copy without zero-filling first.
            reserve(out, expected_len)?;
            out.extend_from_slice(input);
            return Ok(());
        }
        let start = out.len();
        let room = (expected_len, streams(codec, &size));
        match self.decompress_vec(codec, input, out, room, Some(expected_len)) {
            Ok(written) if written == expected_len => Ok(()),
            Ok(written) => {
                out.truncate(start);
                Err(Error::TooShort {
                    codec,
                    expected: expected_len,
                    found: written,
                })
            }
            Err(error) => {
                out.truncate(start);
                Err(error)
            }
        }
    }

    /// Decompresses `input`, to at most `room` bytes, onto the end of `out`, and returns
    /// the bytes written, with `out` cut to them; on error `out` is left longer, for the
    /// caller to cut back. `stream` says whether the codec [`streams`] into room that
    /// grows as it is filled (otherwise all of `room` is made at once: the codec's
    /// output is bounded by its input); `expected` tells the Hadoop-framed codecs the
    /// size that decides between their two readings.
    fn decompress_vec(
        &mut self,
        codec: Codec,
        input: &[u8],
        out: &mut Vec<u8>,
        (room, stream): (usize, bool),
        expected: Option<usize>,
    ) -> Result<usize> {
        let start = out.len();
        let written = if stream {
            // Room as the data needs it, from what the input makes plausible (or what
            // `out` has spare already).
            let first = first_room(input.len()).max(out.capacity() - start);
            let mut output = Growing::new(out, room, first)?;
            self.decompress_growing(codec, input, &mut output)?
        } else {
            grow(out, room)?;
            #[allow(clippy::indexing_slicing)] // `start` was the length before `grow`
            self.decompress_slice(codec, input, &mut out[start..], expected)?
        };
        out.truncate(start + written);
        Ok(written)
    }

    /// Decompresses `input`, which may decompress to at most `max_len` bytes, appends
    /// the result to `out` and returns its length: for ORC's compression chunks, whose
    /// decompressed size is bounded by the file's compression block size but not
    /// recorded.
    ///
    /// `out` grows by at most `max_len` bytes of capacity, less when the codec bounds
    /// the output by the input's length, or (GZIP, DEFLATE, BROTLI and ZSTD frames
    /// without a content size) when the data decompresses to less: their room grows as
    /// the decoder fills it, as for [`Decompressor::decompress`]. On error, `out` keeps
    /// its length and contents.
    ///
    /// # Errors
    ///
    /// As [`Decompressor::decompress`], without [`Error::TooShort`].
    pub fn decompress_up_to(
        &mut self,
        codec: Codec,
        input: &[u8],
        max_len: usize,
        out: &mut Vec<u8>,
    ) -> Result<usize> {
        check_enabled(codec)?;
        let size = size(codec, input)?;
        let room = match size {
            Size::Exact(len) if len > max_len => {
                return Err(Error::TooLong {
                    codec,
                    limit: max_len,
                });
            }
            Size::Exact(len) | Size::AtMost(len) => len.min(max_len),
            Size::Unknown => max_len,
        };
        let start = out.len();
        match self.decompress_vec(codec, input, out, (room, streams(codec, &size)), None) {
            Ok(written) => Ok(written),
            Err(Error::TooLong { codec, .. }) => {
                out.truncate(start);
                Err(Error::TooLong {
                    codec,
                    limit: max_len,
                })
            }
            Err(error) => {
                out.truncate(start);
                Err(error)
            }
        }
    }

    /// Decompresses `input` into `out`, which bounds the output, and returns the bytes
    /// written; the rest of `out` holds unspecified bytes.
    ///
    /// # Errors
    ///
    /// As [`Decompressor::decompress_up_to`] with `out.len()` for `max_len`.
    pub fn decompress_into(&mut self, codec: Codec, input: &[u8], out: &mut [u8]) -> Result<usize> {
        check_enabled(codec)?;
        if let Size::Exact(len) = size(codec, input)?
            && len > out.len()
        {
            return Err(Error::TooLong {
                codec,
                limit: out.len(),
            });
        }
        self.decompress_slice(codec, input, out, None)
    }

    /// Decompresses into `out`; `expected` tells the Hadoop-framed codecs the size that
    /// decides between the framed and the bare reading. (Builds without the contexts'
    /// codecs or the Hadoop ones leave `self` or `expected` unused.)
    #[allow(unused_variables, clippy::unused_self)]
    fn decompress_slice(
        &mut self,
        codec: Codec,
        input: &[u8],
        out: &mut [u8],
        expected: Option<usize>,
    ) -> Result<usize> {
        // Some writers store an empty page as no bytes at all rather than as the
        // codec's encoding of nothing (Parquet's data page v2 with only nulls).
        if input.is_empty() {
            return Ok(0);
        }
        match codec {
            Codec::Uncompressed => {
                let Some(out) = out.get_mut(..input.len()) else {
                    return Err(Error::TooLong {
                        codec,
                        limit: out.len(),
                    });
                };
                out.copy_from_slice(input);
                Ok(input.len())
            }
            #[cfg(feature = "snappy")]
            Codec::Snappy => snappy::decompress(input, out),
            #[cfg(feature = "gzip")]
            Codec::Gzip => flate::gunzip(self.inflate(), input, out),
            #[cfg(feature = "deflate")]
            Codec::Deflate => flate::inflate(self.inflate(), input, out),
            #[cfg(feature = "lzo")]
            Codec::Lzo => lzo::decompress_hadoop(input, out, expected),
            #[cfg(feature = "lzo")]
            Codec::LzoRaw => lzo::decompress(input, out),
            #[cfg(feature = "brotli")]
            Codec::Brotli => brotli::decompress(input, out),
            #[cfg(feature = "lz4")]
            Codec::Lz4 => lz4::decompress_hadoop(input, out, expected),
            #[cfg(feature = "lz4")]
            Codec::Lz4Raw => lz4::decompress(input, out),
            #[cfg(any(feature = "zstd", feature = "ruzstd"))]
            Codec::Zstd => {
                zstd::decompress(self.zstd.get_or_insert_with(zstd::decoder), input, out)
            }
            #[allow(unreachable_patterns)]
            _ => Err(Error::disabled(codec)),
        }
    }

    /// Decompresses into `out`, which grows as it is filled, a codec that [`streams`].
    #[allow(
        unused_variables,
        clippy::unused_self,
        clippy::needless_pass_by_ref_mut
    )]
    fn decompress_growing(
        &mut self,
        codec: Codec,
        input: &[u8],
        out: &mut Growing<'_>,
    ) -> Result<usize> {
        if input.is_empty() {
            return Ok(0);
        }
        match codec {
            #[cfg(feature = "gzip")]
            Codec::Gzip => flate::gunzip(self.inflate(), input, out),
            #[cfg(feature = "deflate")]
            Codec::Deflate => flate::inflate(self.inflate(), input, out),
            #[cfg(feature = "brotli")]
            Codec::Brotli => brotli::decompress(input, out),
            #[cfg(any(feature = "zstd", feature = "ruzstd"))]
            Codec::Zstd => {
                zstd::decompress_growing(self.zstd.get_or_insert_with(zstd::decoder), input, out)
            }
            #[allow(unreachable_patterns)]
            _ => Err(Error::disabled(codec)),
        }
    }

    #[cfg(any(feature = "gzip", feature = "deflate"))]
    fn inflate(&mut self) -> &mut flate2::Decompress {
        self.inflate.get_or_insert_with(flate::decompressor)
    }
}

/// [`Error::Unsupported`] for a codec whose feature is off.
fn check_enabled(codec: Codec) -> Result<()> {
    if codec.is_enabled() {
        Ok(())
    } else {
        Err(Error::disabled(codec))
    }
}

/// Whether `codec` decodes an input of this `size` into room that grows as it is filled
/// ([`Decompressor::decompress_growing`]), because nothing but decoding it tells how much
/// it makes: GZIP, DEFLATE, BROTLI, and ZSTD frames not all of which declare a content
/// size. (The other codecs' output is bounded by what the input declares, checked against
/// its length: see [`size`].)
fn streams(codec: Codec, size: &Size) -> bool {
    match codec {
        Codec::Gzip | Codec::Deflate | Codec::Brotli => true,
        Codec::Zstd => matches!(size, Size::AtMost(_)),
        _ => false,
    }
}

/// What `codec` can make of `input`, read from the input's length and, where the format
/// has one, its declared size. (Only Snappy's and ZSTD's can fail: builds without them
/// never do.)
#[allow(clippy::unnecessary_wraps)]
fn size(codec: Codec, input: &[u8]) -> Result<Size> {
    let len = input.len();
    if len == 0 {
        return Ok(Size::Exact(0));
    }
    Ok(match codec {
        Codec::Uncompressed => Size::Exact(len),
        #[cfg(feature = "snappy")]
        Codec::Snappy => Size::Exact(snappy::decompressed_len(input)?),
        // DEFLATE: at best a 1-bit length code and a 1-bit distance code copy 258 bytes.
        Codec::Gzip | Codec::Deflate => Size::AtMost(len.saturating_mul(1032)),
        // LZ4 and LZO1X: at best each byte of a length extension adds 255.
        Codec::Lz4 | Codec::Lz4Raw | Codec::Lzo | Codec::LzoRaw => {
            Size::AtMost(len.saturating_mul(255).saturating_add(64))
        }
        #[cfg(any(feature = "zstd", feature = "ruzstd"))]
        Codec::Zstd => match zstd::declared_len(input) {
            // A declared size is a claim: past what the frames can hold, it is false.
            Some(declared) if declared > zstd::max_len(len) as u64 => {
                return Err(Error::corrupt(
                    Codec::Zstd,
                    "frame content sizes larger than the frames can decompress to",
                ));
            }
            Some(declared) => Size::Exact(usize::try_from(declared).unwrap_or(usize::MAX)),
            None => Size::AtMost(zstd::max_len(len)),
        },
        _ => Size::Unknown,
    })
}
