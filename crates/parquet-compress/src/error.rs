//! The error type of this crate.

use crate::Codec;

/// What went wrong while compressing or decompressing.
///
/// Errors allocate nothing. Offsets are byte positions in the compressed input handed to
/// the call, for the framing this crate parses itself (gzip member headers, the Hadoop
/// block headers of LZ4 and LZO); what a backend library rejects inside a compressed
/// stream is a [`Error::Corrupt`] with that backend's static description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input ended before a structure was complete.
    #[error("truncated {what} at offset {offset}: need {needed} bytes, {available} available")]
    Truncated {
        /// The structure that was being read.
        what: &'static str,
        /// Where it starts in the input.
        offset: usize,
        /// Bytes the structure needs.
        needed: usize,
        /// Bytes left in the input.
        available: usize,
    },
    /// A field holds a value the format does not allow.
    #[error("invalid {what} at offset {offset}: {value}")]
    Invalid {
        /// The field that was being read.
        what: &'static str,
        /// Where it starts in the input.
        offset: usize,
        /// The offending value.
        value: u64,
    },
    /// A size is larger than a limit: an input too large for a codec's format, or an
    /// expected output size that the input cannot possibly decompress to.
    #[error("{what} exceeds limit: {requested} > {limit}")]
    LimitExceeded {
        /// The size.
        what: &'static str,
        /// What the input or caller asked for.
        requested: u64,
        /// The largest value accepted.
        limit: u64,
    },
    /// Valid data or a request that this build does not handle: a codec whose cargo
    /// feature is off (the message names the feature), or a level for a codec that has
    /// none.
    #[error("unsupported {what}")]
    Unsupported {
        /// What is not supported, and how to get it.
        what: &'static str,
    },
    /// The compressed stream is malformed: the backend rejected it, or a checksum or
    /// length stored in it does not match what it decompressed to.
    #[error("corrupt {codec} data: {what}")]
    Corrupt {
        /// The codec.
        codec: Codec,
        /// What was wrong, as the backend describes it.
        what: &'static str,
    },
    /// The data decompresses to more bytes than the caller allows: a decompression bomb,
    /// or a wrong size in a page header. Decompression stops at the limit.
    #[error("{codec} data decompresses to more than {limit} bytes")]
    TooLong {
        /// The codec.
        codec: Codec,
        /// The most bytes the caller allowed.
        limit: usize,
    },
    /// The data decompresses to fewer bytes than the caller expects.
    #[error("{codec} data decompresses to {found} bytes, expected {expected}")]
    TooShort {
        /// The codec.
        codec: Codec,
        /// The bytes the caller expects.
        expected: usize,
        /// The bytes the data holds.
        found: usize,
    },
    /// A compression level outside the codec's range.
    #[error("{codec} compression level {level} is outside {min}..={max}")]
    InvalidLevel {
        /// The codec.
        codec: Codec,
        /// The level asked for.
        level: i32,
        /// The lowest level of the codec.
        min: i32,
        /// The highest level of the codec.
        max: i32,
    },
    /// A codec number that the format does not define.
    #[error("unknown {format} compression codec {id}")]
    UnknownCodec {
        /// `"Parquet"` or `"ORC"`.
        format: &'static str,
        /// The number found.
        id: i64,
    },
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

// Each shorthand serves some codecs: a build without them leaves it unused.
#[allow(dead_code)]
impl Error {
    /// Shorthand for [`Error::Truncated`].
    pub(crate) const fn truncated(
        what: &'static str,
        offset: usize,
        needed: usize,
        available: usize,
    ) -> Self {
        Self::Truncated {
            what,
            offset,
            needed,
            available,
        }
    }

    /// Shorthand for [`Error::Invalid`].
    pub(crate) const fn invalid(what: &'static str, offset: usize, value: u64) -> Self {
        Self::Invalid {
            what,
            offset,
            value,
        }
    }

    /// Shorthand for [`Error::Corrupt`].
    pub(crate) const fn corrupt(codec: Codec, what: &'static str) -> Self {
        Self::Corrupt { codec, what }
    }

    /// The error for a codec whose cargo feature is off in this build.
    pub(crate) const fn disabled(codec: Codec) -> Self {
        Self::Unsupported {
            what: match codec {
                Codec::Uncompressed => "codec UNCOMPRESSED",
                Codec::Snappy => {
                    "codec SNAPPY: build parquet-compress with the cargo feature `snappy`"
                }
                Codec::Gzip => "codec GZIP: build parquet-compress with the cargo feature `gzip`",
                Codec::Lzo => "codec LZO: build parquet-compress with the cargo feature `lzo`",
                Codec::Brotli => {
                    "codec BROTLI: build parquet-compress with the cargo feature `brotli`"
                }
                Codec::Lz4 => "codec LZ4: build parquet-compress with the cargo feature `lz4`",
                Codec::Zstd => {
                    "codec ZSTD: build parquet-compress with the cargo feature `zstd` \
                     (or `ruzstd`, pure Rust)"
                }
                Codec::Lz4Raw => {
                    "codec LZ4_RAW: build parquet-compress with the cargo feature `lz4`"
                }
                Codec::Deflate => {
                    "codec DEFLATE: build parquet-compress with the cargo feature `deflate`"
                }
                Codec::LzoRaw => {
                    "codec LZO_RAW: build parquet-compress with the cargo feature `lzo`"
                }
            },
        }
    }
}
