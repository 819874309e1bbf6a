//! The codecs: their names, numbers in Parquet and ORC metadata, and levels.
//!
//! (Reading a codec number, which can fail, is in the `compression` module, so that this
//! module, which the error type needs, needs nothing else of the crate.)

use core::fmt;
use core::ops::RangeInclusive;

/// A compression codec: the eight of Parquet's `CompressionCodec` enum, plus the two
/// framings ORC uses that Parquet does not (raw DEFLATE and a bare LZO1X block).
///
/// | codec | Parquet | ORC | format |
/// |---|---|---|---|
/// | [`Uncompressed`](Codec::Uncompressed) | 0 `UNCOMPRESSED` | 0 `NONE` | the bytes as they are |
/// | [`Snappy`](Codec::Snappy) | 1 `SNAPPY` | 2 `SNAPPY` | a raw Snappy block (no framing format) |
/// | [`Gzip`](Codec::Gzip) | 2 `GZIP` | | RFC 1952 gzip; several members are read as one |
/// | [`Lzo`](Codec::Lzo) | 3 `LZO` | | LZO1X in Hadoop block framing; a bare block is read too |
/// | [`Brotli`](Codec::Brotli) | 4 `BROTLI` | | RFC 7932 Brotli |
/// | [`Lz4`](Codec::Lz4) | 5 `LZ4` (deprecated) | | LZ4 blocks in Hadoop framing; a bare block is read too |
/// | [`Zstd`](Codec::Zstd) | 6 `ZSTD` | 5 `ZSTD` | RFC 8878 Zstandard frames |
/// | [`Lz4Raw`](Codec::Lz4Raw) | 7 `LZ4_RAW` | 4 `LZ4` | one LZ4 block |
/// | [`Deflate`](Codec::Deflate) | | 1 `ZLIB` | RFC 1951 raw DEFLATE: no zlib or gzip header |
/// | [`LzoRaw`](Codec::LzoRaw) | | 3 `LZO` | one LZO1X block |
///
/// The Hadoop framing is a sequence of blocks, each a big-endian `u32` of its
/// decompressed size followed by one or more chunks, each a big-endian `u32` of its
/// compressed size and the compressed bytes, until the block's size is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Codec {
    /// No compression.
    Uncompressed,
    /// Snappy, raw block format.
    Snappy,
    /// GZIP (RFC 1952).
    Gzip,
    /// LZO1X in Hadoop block framing (as parquet-java writes it through hadoop-lzo).
    Lzo,
    /// Brotli (RFC 7932).
    Brotli,
    /// The deprecated LZ4 of Parquet: LZ4 blocks in Hadoop framing.
    Lz4,
    /// Zstandard (RFC 8878).
    Zstd,
    /// One LZ4 block, no framing.
    Lz4Raw,
    /// Raw DEFLATE (RFC 1951): ORC's `ZLIB`.
    Deflate,
    /// One LZO1X block, no framing: ORC's `LZO`.
    LzoRaw,
}

impl Codec {
    /// Every codec.
    pub const ALL: [Self; 10] = [
        Self::Uncompressed,
        Self::Snappy,
        Self::Gzip,
        Self::Lzo,
        Self::Brotli,
        Self::Lz4,
        Self::Zstd,
        Self::Lz4Raw,
        Self::Deflate,
        Self::LzoRaw,
    ];

    /// The Parquet `CompressionCodec` number, or `None` for the codecs only ORC uses.
    pub const fn parquet_id(self) -> Option<i32> {
        match self {
            Self::Uncompressed => Some(0),
            Self::Snappy => Some(1),
            Self::Gzip => Some(2),
            Self::Lzo => Some(3),
            Self::Brotli => Some(4),
            Self::Lz4 => Some(5),
            Self::Zstd => Some(6),
            Self::Lz4Raw => Some(7),
            Self::Deflate | Self::LzoRaw => None,
        }
    }

    /// The ORC `CompressionKind` number, or `None` for the codecs only Parquet uses.
    pub const fn orc_id(self) -> Option<u32> {
        match self {
            Self::Uncompressed => Some(0),
            Self::Deflate => Some(1),
            Self::Snappy => Some(2),
            Self::LzoRaw => Some(3),
            Self::Lz4Raw => Some(4),
            Self::Zstd => Some(5),
            Self::Gzip | Self::Lzo | Self::Brotli | Self::Lz4 => None,
        }
    }

    /// The name Parquet gives the codec (`"LZ4_RAW"`); `"DEFLATE"` and `"LZO_RAW"` for
    /// the ORC framings.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Uncompressed => "UNCOMPRESSED",
            Self::Snappy => "SNAPPY",
            Self::Gzip => "GZIP",
            Self::Lzo => "LZO",
            Self::Brotli => "BROTLI",
            Self::Lz4 => "LZ4",
            Self::Zstd => "ZSTD",
            Self::Lz4Raw => "LZ4_RAW",
            Self::Deflate => "DEFLATE",
            Self::LzoRaw => "LZO_RAW",
        }
    }

    /// The cargo feature that brings the codec in (`None` for
    /// [`Uncompressed`](Codec::Uncompressed)); ZSTD has two, `zstd` and `ruzstd`.
    pub const fn feature(self) -> Option<&'static str> {
        match self {
            Self::Uncompressed => None,
            Self::Snappy => Some("snappy"),
            Self::Gzip => Some("gzip"),
            Self::Lzo | Self::LzoRaw => Some("lzo"),
            Self::Brotli => Some("brotli"),
            Self::Lz4 | Self::Lz4Raw => Some("lz4"),
            Self::Zstd => Some("zstd"),
            Self::Deflate => Some("deflate"),
        }
    }

    /// Whether this build can compress and decompress the codec.
    pub const fn is_enabled(self) -> bool {
        match self {
            Self::Uncompressed => true,
            Self::Snappy => cfg!(feature = "snappy"),
            Self::Gzip => cfg!(feature = "gzip"),
            Self::Lzo | Self::LzoRaw => cfg!(feature = "lzo"),
            Self::Brotli => cfg!(feature = "brotli"),
            Self::Lz4 | Self::Lz4Raw => cfg!(feature = "lz4"),
            Self::Zstd => cfg!(any(feature = "zstd", feature = "ruzstd")),
            Self::Deflate => cfg!(feature = "deflate"),
        }
    }

    /// The compression levels the codec accepts, or `None` if it has no levels.
    ///
    /// GZIP and DEFLATE: 0 (stored) to 9; BROTLI: 0 to 11; ZSTD: -131072 to 22 (0 means
    /// zstd's default, 3).
    pub const fn levels(self) -> Option<RangeInclusive<i32>> {
        match self {
            Self::Gzip | Self::Deflate => Some(0..=9),
            Self::Brotli => Some(0..=11),
            Self::Zstd => Some(-131_072..=22),
            _ => None,
        }
    }

    /// The level used when none is given, or `None` if the codec has no levels: 6 for
    /// GZIP and DEFLATE (zlib's default), 3 for ZSTD (zstd's default, and
    /// parquet-java's), 3 for BROTLI (on page data, nearly as fast as quality 1, which
    /// arrow-rs uses, with a quarter to a third less output; quality 8, Arrow C++'s
    /// default, is about 5 times slower).
    pub const fn default_level(self) -> Option<i32> {
        match self {
            Self::Gzip | Self::Deflate => Some(6),
            Self::Brotli | Self::Zstd => Some(3),
            _ => None,
        }
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
