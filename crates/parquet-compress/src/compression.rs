//! What to compress with ([`Compression`], a codec and its level), and the codecs read
//! from the numbers in file metadata ([`Codec::from_parquet`], [`Codec::from_orc`]):
//! the fallible constructors of the codec vocabulary.

use crate::codec::Codec;
use crate::error::{Error, Result};

impl Codec {
    /// The codec of a Parquet `CompressionCodec` number.
    ///
    /// # Errors
    ///
    /// [`Error::UnknownCodec`] for a number parquet.thrift does not define.
    pub const fn from_parquet(id: i32) -> Result<Self> {
        Ok(match id {
            0 => Self::Uncompressed,
            1 => Self::Snappy,
            2 => Self::Gzip,
            3 => Self::Lzo,
            4 => Self::Brotli,
            5 => Self::Lz4,
            6 => Self::Zstd,
            7 => Self::Lz4Raw,
            _ => {
                return Err(Error::UnknownCodec {
                    format: "Parquet",
                    id: id as i64,
                });
            }
        })
    }

    /// The codec of an ORC `CompressionKind` number.
    ///
    /// # Errors
    ///
    /// [`Error::UnknownCodec`] for a number ORC does not define.
    pub const fn from_orc(kind: u32) -> Result<Self> {
        Ok(match kind {
            0 => Self::Uncompressed,
            1 => Self::Deflate,
            2 => Self::Snappy,
            3 => Self::LzoRaw,
            4 => Self::Lz4Raw,
            5 => Self::Zstd,
            _ => {
                return Err(Error::UnknownCodec {
                    format: "ORC",
                    id: kind as i64,
                });
            }
        })
    }
}

impl TryFrom<i32> for Codec {
    type Error = Error;

    /// [`Codec::from_parquet`].
    fn try_from(id: i32) -> Result<Self> {
        Self::from_parquet(id)
    }
}

/// A codec and its compression level: what to compress with.
///
/// ```
/// use parquet_compress::{Codec, Compression};
///
/// let zstd = Compression::with_level(Codec::Zstd, 9)?;
/// assert_eq!(zstd.level(), Some(9));
/// assert_eq!(Compression::from(Codec::Gzip).level(), Some(6));
/// assert!(Compression::with_level(Codec::Gzip, 10).is_err());
/// assert!(Compression::with_level(Codec::Snappy, 1).is_err());
/// # Ok::<(), parquet_compress::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Compression {
    codec: Codec,
    level: Option<i32>,
}

impl Compression {
    /// The codec at its default level.
    pub const fn new(codec: Codec) -> Self {
        Self {
            codec,
            level: codec.default_level(),
        }
    }

    /// The codec at `level`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLevel`] for a level outside [`Codec::levels`], and
    /// [`Error::Unsupported`] for a codec that has no levels.
    pub fn with_level(codec: Codec, level: i32) -> Result<Self> {
        let Some(levels) = codec.levels() else {
            return Err(Error::Unsupported {
                what: "compression level: the codec has none (GZIP, BROTLI, ZSTD and \
                       DEFLATE do)",
            });
        };
        if !levels.contains(&level) {
            return Err(Error::InvalidLevel {
                codec,
                level,
                min: *levels.start(),
                max: *levels.end(),
            });
        }
        Ok(Self {
            codec,
            level: Some(level),
        })
    }

    /// The codec.
    pub const fn codec(self) -> Codec {
        self.codec
    }

    /// The level, or `None` for a codec without levels.
    pub const fn level(self) -> Option<i32> {
        self.level
    }
}

impl From<Codec> for Compression {
    fn from(codec: Codec) -> Self {
        Self::new(codec)
    }
}

impl Default for Compression {
    /// Uncompressed.
    fn default() -> Self {
        Self::new(Codec::Uncompressed)
    }
}
