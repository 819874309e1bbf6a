//! Compression.

use core::fmt;

use crate::{Codec, Compression, Error, Result};

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

/// Compresses `input` with `compression` (a [`Codec`] at its default level, or a
/// [`Compression`]) and appends the result to `out`: [`Compressor::compress`] with a
/// fresh context.
///
/// # Errors
///
/// See [`Compressor::compress`].
pub fn compress(
    compression: impl Into<Compression>,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    Compressor::new(compression).compress(input, out)
}

/// Compresses pages with one codec and level, keeping the codec's working memory (hash
/// tables, zstd and DEFLATE contexts) between calls.
///
/// ```
/// use parquet_compress::{Codec, Compression, Compressor, decompress};
///
/// let mut compressor = Compressor::new(Compression::with_level(Codec::Gzip, 9)?);
/// # if !Codec::Gzip.is_enabled() { return Ok(()); }
/// let mut out = Vec::new();
/// for page in [&b"first page"[..], b"second page"] {
///     out.clear();
///     compressor.compress(page, &mut out)?;
///     let mut back = Vec::new();
///     decompress(Codec::Gzip, &out, page.len(), &mut back)?;
///     assert_eq!(back, page);
/// }
/// # Ok::<(), parquet_compress::Error>(())
/// ```
pub struct Compressor {
    compression: Compression,
    state: State,
}

/// The working memory of the codec, created with the compressor.
enum State {
    Stateless,
    #[cfg(feature = "snappy")]
    Snappy(Box<snap::raw::Encoder>),
    #[cfg(any(feature = "gzip", feature = "deflate"))]
    Deflate(flate2::Compress),
    #[cfg(feature = "lz4")]
    Lz4(Box<lz4_flex::block::CompressTable>),
    #[cfg(feature = "lzo")]
    Lzo(Box<lzo::Dict>),
    #[cfg(any(feature = "zstd", feature = "ruzstd"))]
    Zstd(zstd::Encoder),
}

impl fmt::Debug for Compressor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compressor")
            .field("compression", &self.compression)
            .finish_non_exhaustive()
    }
}

impl Compressor {
    /// A compressor for `compression` (a [`Codec`] at its default level, or a
    /// [`Compression`]). A codec whose feature is off is reported by
    /// [`Compressor::compress`].
    pub fn new(compression: impl Into<Compression>) -> Self {
        let compression = compression.into();
        #[allow(unused_variables)]
        let level = compression.level().unwrap_or_default();
        let state = match compression.codec() {
            #[cfg(feature = "snappy")]
            Codec::Snappy => State::Snappy(Box::new(snap::raw::Encoder::new())),
            #[cfg(feature = "gzip")]
            Codec::Gzip => State::Deflate(flate::compressor(level)),
            #[cfg(feature = "deflate")]
            Codec::Deflate => State::Deflate(flate::compressor(level)),
            #[cfg(feature = "lz4")]
            Codec::Lz4 | Codec::Lz4Raw => State::Lz4(Box::default()),
            #[cfg(feature = "lzo")]
            Codec::Lzo | Codec::LzoRaw => State::Lzo(Box::new(lzo::Dict::new())),
            #[cfg(any(feature = "zstd", feature = "ruzstd"))]
            Codec::Zstd => State::Zstd(zstd::encoder()),
            _ => State::Stateless,
        };
        Self { compression, state }
    }

    /// The codec and level.
    pub const fn compression(&self) -> Compression {
        self.compression
    }

    /// Compresses `input` and appends the result to `out`. On error, `out` keeps its
    /// length and contents.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] for a codec whose cargo feature is off, and
    /// [`Error::LimitExceeded`] for an input larger than the codec's format allows
    /// (SNAPPY: 2^32 - 1 bytes; LZ4_RAW: `0x7E00_0000`).
    #[allow(unused_variables)]
    pub fn compress(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let codec = self.compression.codec();
        let level = self.compression.level().unwrap_or_default();
        let start = out.len();
        // The codecs may leave `out` longer when they fail: here, and only here, it is
        // restored.
        let result = match (codec, &mut self.state) {
            (Codec::Uncompressed, _) => {
                out.extend_from_slice(input);
                Ok(())
            }
            #[cfg(feature = "snappy")]
            (Codec::Snappy, State::Snappy(encoder)) => snappy::compress(encoder, input, out),
            #[cfg(feature = "gzip")]
            (Codec::Gzip, State::Deflate(state)) => flate::gzip(state, level, input, out),
            #[cfg(feature = "deflate")]
            (Codec::Deflate, State::Deflate(state)) => {
                flate::deflate(state, Codec::Deflate, input, out)
            }
            #[cfg(feature = "lzo")]
            (Codec::Lzo, State::Lzo(dict)) => lzo::compress_hadoop(dict, input, out),
            #[cfg(feature = "lzo")]
            (Codec::LzoRaw, State::Lzo(dict)) => lzo::compress(dict, input, out),
            #[cfg(feature = "brotli")]
            (Codec::Brotli, _) => brotli::compress(level, input, out),
            #[cfg(feature = "lz4")]
            (Codec::Lz4, State::Lz4(table)) => lz4::compress_hadoop(table, input, out),
            #[cfg(feature = "lz4")]
            (Codec::Lz4Raw, State::Lz4(table)) => lz4::compress(table, input, out),
            #[cfg(any(feature = "zstd", feature = "ruzstd"))]
            (Codec::Zstd, State::Zstd(encoder)) => zstd::compress(encoder, level, input, out),
            _ => Err(Error::disabled(codec)),
        };
        if result.is_err() {
            out.truncate(start);
        }
        result
    }
}
