//! The file's metadata, as this crate's own types: [`FileMetaData`], its
//! [`RowGroupMetaData`] and their [`ColumnChunk`]s, decoded from the footer's Thrift once
//! (and encoded back to it for writing); statistics; and reading the footer, plain,
//! encrypted or signed.

mod crypto;
mod decode;
mod footer;
mod statistics;

use std::borrow::Cow;
use std::sync::Arc;

use bytes::Bytes;
use parquet_compress::Codec;
use parquet_core::PhysicalType;
use parquet_thrift as thrift;

use crate::error::{Crypto as _, Decoding as _, Error, ErrorKind, Result};
use crate::path::ColumnPath;
use crate::schema::{self, Schema};

pub use crypto::DecryptionOptions;
pub(crate) use crypto::{ChunkCipher, ChunkCiphers, FileDecryptor};
pub(crate) use footer::Footer;
pub use footer::{FooterProtection, MAGIC, MAGIC_ENCRYPTED};
use statistics::{ChunkStatistics, RawStatistics};
pub use statistics::{ColumnStatistics, SortOrder, Statistics, decode_value, sort_order};
pub(crate) use statistics::{compare_values, is_nan, share};
use thrift::SmallList;

/// An encoding of values or levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // The names are parquet.thrift's.
pub enum Encoding {
    Plain,
    PlainDictionary,
    Rle,
    BitPacked,
    DeltaBinaryPacked,
    DeltaLengthByteArray,
    DeltaByteArray,
    RleDictionary,
    ByteStreamSplit,
    /// An encoding this reader does not know, by its number.
    Unknown(i32),
}

impl Default for Encoding {
    /// PLAIN, the encoding every type has.
    fn default() -> Self {
        Self::Plain
    }
}

macro_rules! encodings {
    ($($variant:ident = $thrift:ident,)*) => {
        impl Encoding {
            pub(crate) fn from_thrift(encoding: thrift::Encoding) -> Self {
                match encoding {
                    $(thrift::Encoding::$thrift => Self::$variant,)*
                    other => Self::Unknown(other.0),
                }
            }

            pub(crate) fn to_thrift(self) -> thrift::Encoding {
                match self {
                    $(Self::$variant => thrift::Encoding::$thrift,)*
                    Self::Unknown(n) => thrift::Encoding(n),
                }
            }

            /// The encoding's name as parquet.thrift spells it (`RLE_DICTIONARY`).
            pub fn name(self) -> Cow<'static, str> {
                match self {
                    $(Self::$variant => stringify!($thrift).into(),)*
                    Self::Unknown(n) => thrift::Encoding(n)
                        .name()
                        .map_or_else(|| format!("Encoding({n})").into(), Cow::Borrowed),
                }
            }
        }
    };
}

encodings! {
    Plain = PLAIN,
    PlainDictionary = PLAIN_DICTIONARY,
    Rle = RLE,
    BitPacked = BIT_PACKED,
    DeltaBinaryPacked = DELTA_BINARY_PACKED,
    DeltaLengthByteArray = DELTA_LENGTH_BYTE_ARRAY,
    DeltaByteArray = DELTA_BYTE_ARRAY,
    RleDictionary = RLE_DICTIONARY,
    ByteStreamSplit = BYTE_STREAM_SPLIT,
}

/// The codec of a Parquet `CompressionCodec` number.
pub(crate) fn codec(id: thrift::CompressionCodec) -> Result<Codec> {
    Codec::from_parquet(id.0)
        .map_err(|_| Error::unsupported("compression codec", Some(id.0.into())))
}

/// A key and an optional value of key-value metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyValue {
    /// The key.
    pub key: String,
    /// The value.
    pub value: Option<String>,
}

impl KeyValue {
    fn from_thrift(kv: &thrift::KeyValue<'_>) -> Self {
        Self {
            key: kv.key.to_string(),
            value: kv.value.as_deref().map(str::to_owned),
        }
    }

    fn to_thrift(&self) -> thrift::KeyValue<'_> {
        thrift::KeyValue {
            key: Cow::Borrowed(&self.key),
            value: self.value.as_deref().map(Cow::Borrowed),
        }
    }
}

/// A column a row group is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortingColumn {
    /// The leaf column's index.
    pub column: usize,
    /// Whether it is sorted in descending order.
    pub descending: bool,
    /// Whether nulls come first.
    pub nulls_first: bool,
}

impl SortingColumn {
    /// The column as parquet.thrift's.
    pub(crate) fn to_thrift(self) -> thrift::SortingColumn {
        thrift::SortingColumn {
            column_idx: i32::try_from(self.column).unwrap_or(i32::MAX),
            descending: self.descending,
            nulls_first: self.nulls_first,
        }
    }
}

/// How the min and max of a column compare values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnOrder {
    /// The order the column's logical type defines ([`sort_order`]).
    TypeDefined,
    /// IEEE 754 total order (floating-point columns; NaNs are ordered too).
    Ieee754TotalOrder,
    /// An order newer than this reader: min and max are not to be trusted.
    Unknown,
}

impl ColumnOrder {
    fn from_thrift(order: &thrift::ColumnOrder) -> Self {
        match order {
            thrift::ColumnOrder::TypeOrder(_) => Self::TypeDefined,
            thrift::ColumnOrder::Ieee754TotalOrder(_) => Self::Ieee754TotalOrder,
            _ => Self::Unknown,
        }
    }

    fn to_thrift(self) -> Option<thrift::ColumnOrder> {
        match self {
            Self::TypeDefined => Some(thrift::ColumnOrder::TypeOrder(thrift::TypeDefinedOrder {})),
            Self::Ieee754TotalOrder => Some(thrift::ColumnOrder::Ieee754TotalOrder(
                thrift::Ieee754TotalOrder {},
            )),
            Self::Unknown => None,
        }
    }
}

/// How many pages of a column chunk have a page type and encoding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageEncodingStats {
    /// The page type (parquet.thrift's number: 0 data, 2 dictionary, 3 data v2).
    pub page_type: i32,
    /// The encoding.
    pub encoding: Encoding,
    /// The number of pages.
    pub count: i32,
}

/// Sizes and level histograms of a column chunk or page, for estimating the memory its
/// values take once read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SizeStatistics {
    /// The bytes of the BYTE_ARRAY values, without their lengths.
    pub unencoded_byte_array_data_bytes: Option<i64>,
    /// How often each repetition level occurs.
    pub repetition_level_histogram: Option<Vec<i64>>,
    /// How often each definition level occurs.
    pub definition_level_histogram: Option<Vec<i64>>,
}

impl SizeStatistics {
    fn from_thrift(s: &thrift::SizeStatistics) -> Self {
        Self {
            unencoded_byte_array_data_bytes: s.unencoded_byte_array_data_bytes,
            repetition_level_histogram: s.repetition_level_histogram.as_ref().map(|h| h.to_vec()),
            definition_level_histogram: s.definition_level_histogram.as_ref().map(|h| h.to_vec()),
        }
    }

    fn to_thrift(&self) -> thrift::SizeStatistics {
        thrift::SizeStatistics {
            unencoded_byte_array_data_bytes: self.unencoded_byte_array_data_bytes,
            repetition_level_histogram: self
                .repetition_level_histogram
                .as_deref()
                .map(|h| h.iter().copied().collect()),
            definition_level_histogram: self
                .definition_level_histogram
                .as_deref()
                .map(|h| h.iter().copied().collect()),
        }
    }
}

/// The bounding box of the shapes of a GEOMETRY or GEOGRAPHY column.
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)] // Minimum and maximum of each coordinate.
pub struct BoundingBox {
    pub xmin: f64,
    pub xmax: f64,
    pub ymin: f64,
    pub ymax: f64,
    pub zmin: Option<f64>,
    pub zmax: Option<f64>,
    pub mmin: Option<f64>,
    pub mmax: Option<f64>,
}

/// Statistics of a GEOMETRY or GEOGRAPHY column chunk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GeospatialStatistics {
    /// The bounding box of its shapes.
    pub bbox: Option<BoundingBox>,
    /// The WKB type codes of its shapes (1 point, 2 line string, 3 polygon, ...; plus
    /// 1000, 2000 or 3000 for Z, M or ZM).
    pub geospatial_types: Option<Vec<i32>>,
}

impl GeospatialStatistics {
    fn from_thrift(s: &thrift::GeospatialStatistics) -> Self {
        Self {
            bbox: s.bbox.as_ref().map(|b| BoundingBox {
                xmin: b.xmin,
                xmax: b.xmax,
                ymin: b.ymin,
                ymax: b.ymax,
                zmin: b.zmin,
                zmax: b.zmax,
                mmin: b.mmin,
                mmax: b.mmax,
            }),
            geospatial_types: s.geospatial_types.clone(),
        }
    }

    fn to_thrift(&self) -> thrift::GeospatialStatistics {
        thrift::GeospatialStatistics {
            bbox: self.bbox.map(|b| thrift::BoundingBox {
                xmin: b.xmin,
                xmax: b.xmax,
                ymin: b.ymin,
                ymax: b.ymax,
                zmin: b.zmin,
                zmax: b.zmax,
                mmin: b.mmin,
                mmax: b.mmax,
            }),
            geospatial_types: self.geospatial_types.clone(),
        }
    }
}

/// Where an index of a column chunk is: its file offset and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexLocation {
    /// The file offset.
    pub offset: u64,
    /// The length in bytes.
    pub length: u32,
}

impl IndexLocation {
    fn from_thrift(
        offset: Option<i64>,
        length: Option<i32>,
        what: &'static str,
    ) -> Result<Option<Self>> {
        match (offset, length) {
            (Some(offset), Some(length)) => Ok(Some(Self {
                offset: unsigned(offset, what)?,
                length: u32::try_from(length).map_err(|_| Error::invalid(what, length.into()))?,
            })),
            _ => Ok(None),
        }
    }
}

/// An optional file offset in 8 bytes (a column chunk stays small): offsets are
/// non-negative `i64`s, so `u64::MAX` is free to stand for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Offset(u64);

impl Offset {
    const NONE: Self = Self(u64::MAX);

    /// `offset`, which is at most `i64::MAX`.
    fn new(offset: Option<u64>) -> Self {
        offset.map_or(Self::NONE, Self)
    }

    fn get(self) -> Option<u64> {
        (self != Self::NONE).then_some(self.0)
    }
}

/// An [`IndexLocation`] or none, in 16 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PackedLocation {
    offset: Offset,
    length: u32,
}

impl PackedLocation {
    fn new(location: Option<IndexLocation>) -> Self {
        Self {
            offset: Offset::new(location.map(|l| l.offset)),
            length: location.map_or(0, |l| l.length),
        }
    }

    fn get(self) -> Option<IndexLocation> {
        Some(IndexLocation {
            offset: self.offset.get()?,
            length: self.length,
        })
    }
}

/// How a column chunk is encrypted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnEncryption {
    /// With the footer key.
    FooterKey,
    /// With a key of its own.
    ColumnKey {
        /// The column's path, as the file stores it.
        path: ColumnPath,
        /// What the key management system stored to find the key (a key id).
        key_metadata: Option<Vec<u8>>,
    },
    /// In a way newer than this reader.
    Unknown,
}

/// A column chunk of a row group: where its data and indexes are, how it is encrypted,
/// and its [`ColumnChunkMetaData`] (unless it is encrypted with a key the reader does not
/// have).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnChunk {
    file_path: Option<Box<str>>,
    file_offset: i64,
    offset_index: PackedLocation,
    column_index: PackedLocation,
    // Boxed, as they are rare: a column chunk stays small.
    encryption: Option<Box<ColumnEncryption>>,
    encrypted_metadata: Option<Box<[u8]>>,
    metadata: Option<ColumnChunkMetaData>,
}

impl ColumnChunk {
    /// The file that holds the chunk's data, when it is not this one.
    pub fn file_path(&self) -> Option<&str> {
        self.file_path.as_deref()
    }

    /// The deprecated `file_offset` field, as written.
    pub fn file_offset(&self) -> i64 {
        self.file_offset
    }

    /// Where the chunk's offset index is.
    pub fn offset_index_location(&self) -> Option<IndexLocation> {
        self.offset_index.get()
    }

    /// Where the chunk's column index is.
    pub fn column_index_location(&self) -> Option<IndexLocation> {
        self.column_index.get()
    }

    /// How the chunk is encrypted (`None` when it is not).
    pub fn encryption(&self) -> Option<&ColumnEncryption> {
        self.encryption.as_deref()
    }

    /// The chunk's metadata, or `None` when it is encrypted with a key the reader was not
    /// given (or the writer left it out).
    pub fn metadata(&self) -> Option<&ColumnChunkMetaData> {
        self.metadata.as_ref()
    }

    /// Converts a chunk of the footer decoded from `buf`, with its cipher: for an
    /// encrypted chunk whose key the decryptor finds, its metadata decrypted (`ordinal`
    /// is its row group's, for the AAD).
    fn from_thrift(
        chunk: &thrift::ColumnChunk<'_>,
        buf: &Bytes,
        (path, column): (&ColumnPath, usize),
        ciphers: Option<&mut ChunkCiphers<'_>>,
        ordinal: usize,
    ) -> Result<(Self, ChunkCipher)> {
        let encryption = chunk.crypto_metadata.as_deref().map(|e| match e {
            thrift::ColumnCryptoMetaData::EncryptionWithFooterKey(_) => ColumnEncryption::FooterKey,
            thrift::ColumnCryptoMetaData::EncryptionWithColumnKey(k) => {
                ColumnEncryption::ColumnKey {
                    path: ColumnPath::new(k.path_in_schema.iter().map(AsRef::as_ref)),
                    key_metadata: k.key_metadata.as_deref().map(<[u8]>::to_vec),
                }
            }
            _ => ColumnEncryption::Unknown,
        });
        let cipher = ciphers.map_or(ChunkCipher::Plaintext, |c| c.get(encryption.as_ref(), path));
        let encryption = encryption.map(Box::new);
        let plaintext = || {
            chunk
                .meta_data
                .as_ref()
                .map(|meta| ColumnChunkMetaData::from_thrift(meta, buf))
                .transpose()
        };
        let metadata = match (&cipher, chunk.encrypted_column_metadata.as_deref()) {
            (ChunkCipher::NoKey | ChunkCipher::KeyError(_), _) => None,
            (ChunkCipher::Cipher(cipher), Some(encrypted)) => {
                let mut bytes = Vec::new();
                cipher
                    .decrypt(
                        parquet_crypto::Module::ColumnMetaData {
                            row_group: ordinal,
                            column,
                        },
                        encrypted,
                        &mut bytes,
                    )
                    .crypto("decrypting the column metadata")?;
                let bytes = Bytes::from(bytes);
                let (meta, _) =
                    thrift::ColumnMetaData::read_from(&bytes).decoding("column metadata")?;
                Some(ColumnChunkMetaData::from_thrift(&meta, &bytes)?)
            }
            (ChunkCipher::Cipher(_) | ChunkCipher::Plaintext, _) => plaintext()?,
        };
        let chunk = Self {
            file_path: chunk.file_path.as_deref().map(Box::from),
            file_offset: chunk.file_offset,
            offset_index: PackedLocation::new(IndexLocation::from_thrift(
                chunk.offset_index_offset,
                chunk.offset_index_length,
                "offset index location",
            )?),
            column_index: PackedLocation::new(IndexLocation::from_thrift(
                chunk.column_index_offset,
                chunk.column_index_length,
                "column index location",
            )?),
            encryption,
            encrypted_metadata: chunk.encrypted_column_metadata.as_deref().map(Box::from),
            metadata,
        };
        Ok((chunk, cipher))
    }

    /// The chunk as parquet.thrift's, for the column at `path`.
    fn to_thrift<'a>(&'a self, path: &'a ColumnPath) -> thrift::ColumnChunk<'a> {
        let index = |l: Option<IndexLocation>| {
            l.map(|l| {
                (
                    l.offset.cast_signed(),
                    i32::try_from(l.length).unwrap_or(i32::MAX),
                )
            })
        };
        let crypto = self.encryption.as_deref().and_then(|e| match e {
            ColumnEncryption::FooterKey => {
                Some(thrift::ColumnCryptoMetaData::EncryptionWithFooterKey(
                    thrift::EncryptionWithFooterKey {},
                ))
            }
            ColumnEncryption::ColumnKey { path, key_metadata } => {
                Some(thrift::ColumnCryptoMetaData::EncryptionWithColumnKey(
                    thrift::EncryptionWithColumnKey {
                        path_in_schema: path
                            .parts()
                            .iter()
                            .map(|p| Cow::Borrowed(p.as_str()))
                            .collect(),
                        key_metadata: key_metadata.as_deref().map(Cow::Borrowed),
                    },
                ))
            }
            ColumnEncryption::Unknown => None,
        });
        thrift::ColumnChunk {
            file_path: self.file_path.as_deref().map(Cow::Borrowed),
            file_offset: self.file_offset,
            // A chunk written with encrypted metadata keeps only that.
            meta_data: if self.encrypted_metadata.is_some() {
                None
            } else {
                self.metadata.as_ref().map(|m| m.to_thrift(path))
            },
            offset_index_offset: index(self.offset_index.get()).map(|i| i.0),
            offset_index_length: index(self.offset_index.get()).map(|i| i.1),
            column_index_offset: index(self.column_index.get()).map(|i| i.0),
            column_index_length: index(self.column_index.get()).map(|i| i.1),
            crypto_metadata: crypto.map(Box::new),
            encrypted_column_metadata: self.encrypted_metadata.as_deref().map(Cow::Borrowed),
        }
    }
}

/// The metadata of a column chunk: its type, encodings, codec, sizes, page offsets and
/// statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnChunkMetaData {
    physical_type: PhysicalType,
    encodings: SmallList<Encoding, 4>,
    codec: Codec,
    num_values: u64,
    total_uncompressed_size: u64,
    total_compressed_size: u64,
    data_page_offset: u64,
    dictionary_page_offset: Offset,
    statistics: Option<ChunkStatistics>,
    encoding_stats: Option<SmallList<PageEncodingStats, 3>>,
    bloom_filter_offset: Offset,
    bloom_filter_length: Option<u32>,
    size_statistics: Option<Box<SizeStatistics>>,
    rare: Option<Box<RareParts>>,
}

/// The parts of a column chunk's metadata that few writers write, apart: a column chunk
/// stays small.
#[derive(Debug, Clone, PartialEq)]
struct RareParts {
    key_value_metadata: Vec<KeyValue>,
    index_page_offset: Option<i64>,
    geospatial_statistics: Option<GeospatialStatistics>,
}

impl RareParts {
    /// The parts, or `None` when there are none (so that equal metadata is stored alike).
    fn new(
        key_value_metadata: Vec<KeyValue>,
        index_page_offset: Option<i64>,
        geospatial_statistics: Option<GeospatialStatistics>,
    ) -> Option<Box<Self>> {
        let none = key_value_metadata.is_empty()
            && index_page_offset.is_none()
            && geospatial_statistics.is_none();
        (!none).then(|| {
            Box::new(Self {
                key_value_metadata,
                index_page_offset,
                geospatial_statistics,
            })
        })
    }
}

/// A value that must not be negative.
fn unsigned(value: i64, what: &'static str) -> Result<u64> {
    u64::try_from(value).map_err(|_| Error::invalid(what, value))
}

impl ColumnChunkMetaData {
    /// The metadata decoded from `buf`.
    fn from_thrift(meta: &thrift::ColumnMetaData<'_>, buf: &Bytes) -> Result<Self> {
        Ok(Self {
            physical_type: schema::physical_type(meta.type_)
                .ok_or_else(|| Error::invalid("physical type", meta.type_.0.into()))?,
            encodings: meta
                .encodings
                .iter()
                .map(|&e| Encoding::from_thrift(e))
                .collect(),
            codec: codec(meta.codec)?,
            num_values: unsigned(meta.num_values, "number of values")?,
            total_uncompressed_size: unsigned(
                meta.total_uncompressed_size,
                "total uncompressed size",
            )?,
            total_compressed_size: unsigned(meta.total_compressed_size, "total compressed size")?,
            data_page_offset: unsigned(meta.data_page_offset, "data page offset")?,
            // Some writers store 0 for "none".
            dictionary_page_offset: Offset::new(match meta.dictionary_page_offset {
                Some(0) | None => None,
                Some(offset) => Some(unsigned(offset, "dictionary page offset")?),
            }),
            statistics: meta
                .statistics
                .as_ref()
                .map(|s| ChunkStatistics::decoded(Statistics::from_thrift(s, buf))),
            encoding_stats: meta.encoding_stats.as_ref().map(|stats| {
                stats
                    .iter()
                    .map(|s| PageEncodingStats {
                        page_type: s.page_type.0,
                        encoding: Encoding::from_thrift(s.encoding),
                        count: s.count,
                    })
                    .collect()
            }),
            bloom_filter_offset: Offset::new(
                meta.bloom_filter_offset
                    .map(|o| unsigned(o, "Bloom filter offset"))
                    .transpose()?,
            ),
            bloom_filter_length: meta
                .bloom_filter_length
                .map(|l| {
                    u32::try_from(l).map_err(|_| Error::invalid("Bloom filter length", l.into()))
                })
                .transpose()?,
            size_statistics: meta
                .size_statistics
                .as_deref()
                .map(|s| Box::new(SizeStatistics::from_thrift(s))),
            rare: RareParts::new(
                meta.key_value_metadata
                    .iter()
                    .flatten()
                    .map(KeyValue::from_thrift)
                    .collect(),
                meta.index_page_offset,
                meta.geospatial_statistics
                    .as_deref()
                    .map(GeospatialStatistics::from_thrift),
            ),
        })
    }

    /// The chunk's metadata as parquet.thrift's, for the column at `path`.
    fn to_thrift<'a>(&'a self, path: &'a ColumnPath) -> thrift::ColumnMetaData<'a> {
        thrift::ColumnMetaData {
            type_: schema::thrift_type(self.physical_type),
            encodings: self.encodings.iter().map(|e| e.to_thrift()).collect(),
            path_in_schema: path
                .parts()
                .iter()
                .map(|p| Cow::Borrowed(p.as_str()))
                .collect(),
            codec: thrift::CompressionCodec(self.codec.parquet_id().unwrap_or(0)),
            num_values: self.num_values.cast_signed(),
            total_uncompressed_size: self.total_uncompressed_size.cast_signed(),
            total_compressed_size: self.total_compressed_size.cast_signed(),
            key_value_metadata: (!self.key_value_metadata().is_empty()).then(|| {
                self.key_value_metadata()
                    .iter()
                    .map(KeyValue::to_thrift)
                    .collect()
            }),
            data_page_offset: self.data_page_offset.cast_signed(),
            index_page_offset: self.index_page_offset(),
            dictionary_page_offset: self.dictionary_page_offset.get().map(u64::cast_signed),
            statistics: self.statistics.as_ref().map(|s| s.get().to_thrift()),
            encoding_stats: self.encoding_stats.as_ref().map(|stats| {
                stats
                    .iter()
                    .map(|s| thrift::PageEncodingStats {
                        page_type: thrift::PageType(s.page_type),
                        encoding: s.encoding.to_thrift(),
                        count: s.count,
                    })
                    .collect()
            }),
            bloom_filter_offset: self.bloom_filter_offset.get().map(u64::cast_signed),
            bloom_filter_length: self
                .bloom_filter_length
                .map(|l| i32::try_from(l).unwrap_or(i32::MAX)),
            size_statistics: self
                .size_statistics
                .as_ref()
                .map(|s| Box::new(s.to_thrift())),
            geospatial_statistics: self
                .geospatial_statistics()
                .map(|s| Box::new(s.to_thrift())),
        }
    }

    /// The physical type, as the chunk's metadata states it.
    pub fn physical_type(&self) -> PhysicalType {
        self.physical_type
    }

    /// Every encoding of the chunk's pages (and levels).
    pub fn encodings(&self) -> &[Encoding] {
        &self.encodings
    }

    /// The compression codec of its pages.
    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// The number of values, nulls included (level entries).
    pub fn num_values(&self) -> u64 {
        self.num_values
    }

    /// The bytes of its pages once decompressed, headers included.
    pub fn total_uncompressed_size(&self) -> u64 {
        self.total_uncompressed_size
    }

    /// The bytes of its pages as stored, headers included.
    pub fn total_compressed_size(&self) -> u64 {
        self.total_compressed_size
    }

    /// The chunk's key-value metadata.
    pub fn key_value_metadata(&self) -> &[KeyValue] {
        self.rare.as_ref().map_or(&[], |r| &r.key_value_metadata)
    }

    /// The file offset of its first data page.
    pub fn data_page_offset(&self) -> u64 {
        self.data_page_offset
    }

    /// The file offset of its index page, as written (no writer writes index pages).
    pub fn index_page_offset(&self) -> Option<i64> {
        self.rare.as_ref().and_then(|r| r.index_page_offset)
    }

    /// The file offset of its dictionary page.
    pub fn dictionary_page_offset(&self) -> Option<u64> {
        self.dictionary_page_offset.get()
    }

    /// Its statistics, as stored ([`FileMetaData::column_statistics`] decodes them).
    pub fn statistics(&self) -> Option<&Statistics> {
        self.statistics.as_ref().map(ChunkStatistics::get)
    }

    /// How many pages have each page type and encoding.
    pub fn encoding_stats(&self) -> Option<&[PageEncodingStats]> {
        self.encoding_stats.as_deref()
    }

    /// The file offset of its Bloom filter.
    pub fn bloom_filter_offset(&self) -> Option<u64> {
        self.bloom_filter_offset.get()
    }

    /// The length of its Bloom filter, header included.
    pub fn bloom_filter_length(&self) -> Option<u32> {
        self.bloom_filter_length
    }

    /// Its size statistics.
    pub fn size_statistics(&self) -> Option<&SizeStatistics> {
        self.size_statistics.as_deref()
    }

    /// Its geospatial statistics (GEOMETRY and GEOGRAPHY columns).
    pub fn geospatial_statistics(&self) -> Option<&GeospatialStatistics> {
        self.rare.as_ref()?.geospatial_statistics.as_ref()
    }

    /// Whether the chunk starts with a dictionary page.
    pub fn has_dictionary_page(&self) -> bool {
        self.dictionary_page_offset.get().is_some()
    }

    /// The file offset of the chunk's first byte: its dictionary page (when it has one
    /// before the first data page) or first data page.
    pub fn start(&self) -> u64 {
        match self.dictionary_page_offset.get() {
            Some(dict) if dict < self.data_page_offset => dict,
            _ => self.data_page_offset,
        }
    }
}

/// A row group: its rows, the column chunks that hold them, and how they are sorted.
#[derive(Debug, Clone, PartialEq)]
pub struct RowGroupMetaData {
    num_rows: u64,
    total_byte_size: i64,
    total_compressed_size: Option<i64>,
    file_offset: Option<i64>,
    ordinal: Option<i16>,
    sorting_columns: Vec<SortingColumn>,
    columns: Vec<ColumnChunk>,
}

impl RowGroupMetaData {
    /// The number of rows.
    pub fn num_rows(&self) -> u64 {
        self.num_rows
    }

    /// The bytes of its data once decompressed, as the writer counted them.
    pub fn total_byte_size(&self) -> i64 {
        self.total_byte_size
    }

    /// The bytes of its data as stored, as the writer counted them.
    pub fn total_compressed_size(&self) -> Option<i64> {
        self.total_compressed_size
    }

    /// The file offset of its first page, as written.
    pub fn file_offset(&self) -> Option<i64> {
        self.file_offset
    }

    /// Its ordinal, as written (encrypted files).
    pub fn ordinal(&self) -> Option<i16> {
        self.ordinal
    }

    /// The columns it is sorted by.
    pub fn sorting_columns(&self) -> &[SortingColumn] {
        &self.sorting_columns
    }

    /// Its column chunks, one per leaf column, in schema order.
    pub fn columns(&self) -> &[ColumnChunk] {
        &self.columns
    }

    /// The ordinal in the AADs of row group `index`'s modules: its `ordinal` field when
    /// the writer set one, else its position.
    pub(crate) fn module_ordinal(&self, index: usize) -> usize {
        self.ordinal
            .and_then(|o| usize::try_from(o).ok())
            .unwrap_or(index)
    }
}

/// How the file is encrypted: the algorithm and the parts of its AAD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncryptionAlgorithm {
    /// AES_GCM_V1 or AES_GCM_CTR_V1.
    pub algorithm: parquet_crypto::Algorithm,
    /// The AAD prefix, when the file stores it.
    pub aad_prefix: Option<Vec<u8>>,
    /// The file's unique part of the AAD (DuckDB leaves it out).
    pub aad_file_unique: Option<Vec<u8>>,
    /// Whether the reader must supply the AAD prefix (the file does not store it).
    pub supply_aad_prefix: Option<bool>,
}

impl EncryptionAlgorithm {
    pub(crate) fn from_thrift(algorithm: &thrift::EncryptionAlgorithm<'_>) -> Result<Self> {
        let (algorithm, prefix, unique, supply) = match algorithm {
            thrift::EncryptionAlgorithm::AesGcmV1(p) => (
                parquet_crypto::Algorithm::AesGcmV1,
                &p.aad_prefix,
                &p.aad_file_unique,
                p.supply_aad_prefix,
            ),
            thrift::EncryptionAlgorithm::AesGcmCtrV1(p) => (
                parquet_crypto::Algorithm::AesGcmCtrV1,
                &p.aad_prefix,
                &p.aad_file_unique,
                p.supply_aad_prefix,
            ),
            thrift::EncryptionAlgorithm::Unrecognized(member) => {
                return Err(Error::unsupported(
                    "encryption algorithm",
                    Some(member.id.into()),
                ));
            }
            _ => return Err(Error::unsupported("encryption algorithm", None)),
        };
        Ok(Self {
            algorithm,
            aad_prefix: prefix.as_deref().map(<[u8]>::to_vec),
            aad_file_unique: unique.as_deref().map(<[u8]>::to_vec),
            supply_aad_prefix: supply,
        })
    }

    pub(crate) fn to_thrift(&self) -> thrift::EncryptionAlgorithm<'_> {
        let prefix = self.aad_prefix.as_deref().map(Cow::Borrowed);
        let unique = self.aad_file_unique.as_deref().map(Cow::Borrowed);
        match self.algorithm {
            parquet_crypto::Algorithm::AesGcmV1 => {
                thrift::EncryptionAlgorithm::AesGcmV1(thrift::AesGcmV1 {
                    aad_prefix: prefix,
                    aad_file_unique: unique,
                    supply_aad_prefix: self.supply_aad_prefix,
                })
            }
            parquet_crypto::Algorithm::AesGcmCtrV1 => {
                thrift::EncryptionAlgorithm::AesGcmCtrV1(thrift::AesGcmCtrV1 {
                    aad_prefix: prefix,
                    aad_file_unique: unique,
                    supply_aad_prefix: self.supply_aad_prefix,
                })
            }
        }
    }
}

/// The metadata of a file: its schema, row groups and column chunks, key-value metadata,
/// and how it is encrypted.
#[derive(Debug, Clone, PartialEq)]
pub struct FileMetaData {
    version: i32,
    num_rows: u64,
    created_by: Option<String>,
    key_value_metadata: Vec<KeyValue>,
    schema: Arc<Schema>,
    row_groups: Vec<RowGroupMetaData>,
    column_orders: Option<Vec<ColumnOrder>>,
    encryption_algorithm: Option<EncryptionAlgorithm>,
    footer_signing_key_metadata: Option<Vec<u8>>,
}

impl FileMetaData {
    /// Converts a decoded footer, checking it: a schema by [`Schema::try_from_elements`],
    /// counts and sizes that are not negative, as many column chunks in each row group
    /// as the schema has leaves. For an encrypted file, also finds each chunk's cipher
    /// (per row group, per column) and decrypts the metadata of the chunks it has keys
    /// for.
    pub(crate) fn from_thrift(
        file: &thrift::FileMetaData<'_>,
        buf: &Bytes,
        schema: Schema,
        decryptor: Option<&FileDecryptor>,
    ) -> Result<(Self, Vec<Vec<ChunkCipher>>)> {
        let num_columns = schema.columns().len();
        let num_rows = unsigned(file.num_rows, "number of rows")?;
        let mut row_groups = Vec::with_capacity(file.row_groups.len());
        let mut ciphers = Vec::new();
        let mut chunk_ciphers = decryptor.map(ChunkCiphers::new);
        for (g, group) in file.row_groups.iter().enumerate() {
            let mut convert = || -> Result<RowGroupMetaData> {
                if group.columns.len() != num_columns {
                    return Err(Error::mismatch(
                        "column chunks in the row group, by the schema's leaves",
                        num_columns as u64,
                        group.columns.len() as u64,
                    ));
                }
                let ordinal = group
                    .ordinal
                    .and_then(|o| usize::try_from(o).ok())
                    .unwrap_or(g);
                let mut columns = Vec::with_capacity(num_columns);
                let mut group_ciphers = Vec::new();
                for (chunk, descriptor) in group.columns.iter().zip(schema.columns()) {
                    let path = &descriptor.path;
                    let column = columns.len();
                    let (chunk, cipher) = ColumnChunk::from_thrift(
                        chunk,
                        buf,
                        (path, column),
                        chunk_ciphers.as_mut(),
                        ordinal,
                    )
                    .map_err(|e| e.in_column(path))?;
                    columns.push(chunk);
                    if decryptor.is_some() {
                        group_ciphers.push(cipher);
                    }
                }
                ciphers.push(group_ciphers);
                Ok(RowGroupMetaData {
                    num_rows: unsigned(group.num_rows, "number of rows")?,
                    total_byte_size: group.total_byte_size,
                    total_compressed_size: group.total_compressed_size,
                    file_offset: group.file_offset,
                    ordinal: group.ordinal,
                    sorting_columns: group
                        .sorting_columns
                        .iter()
                        .flatten()
                        .filter_map(|s| {
                            Some(SortingColumn {
                                column: usize::try_from(s.column_idx).ok()?,
                                descending: s.descending,
                                nulls_first: s.nulls_first,
                            })
                        })
                        .collect(),
                    columns,
                })
            };
            row_groups.push(convert().map_err(|e| e.in_row_group(g))?);
        }
        let metadata = Self {
            version: file.version,
            num_rows,
            created_by: file.created_by.as_deref().map(str::to_owned),
            key_value_metadata: file
                .key_value_metadata
                .iter()
                .flatten()
                .map(KeyValue::from_thrift)
                .collect(),
            schema: Arc::new(schema),
            row_groups,
            column_orders: file
                .column_orders
                .as_ref()
                .map(|orders| orders.iter().map(ColumnOrder::from_thrift).collect()),
            encryption_algorithm: file
                .encryption_algorithm
                .as_ref()
                .map(EncryptionAlgorithm::from_thrift)
                .transpose()?,
            footer_signing_key_metadata: file
                .footer_signing_key_metadata
                .as_deref()
                .map(<[u8]>::to_vec),
        };
        Ok((
            metadata,
            if decryptor.is_some() {
                ciphers
            } else {
                Vec::new()
            },
        ))
    }

    /// Decodes a serialized (plaintext) `FileMetaData` and checks it, as
    /// [`FileReader::open`](crate::FileReader::open) does with the default
    /// [`Limits`](crate::Limits).
    ///
    /// # Errors
    ///
    /// Bytes that do not decode, or metadata that breaks the format's rules.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let bytes = Bytes::copy_from_slice(bytes);
        let limits = crate::Limits::default();
        if let Some(metadata) = decode::plain_footer(&bytes, &limits) {
            return Ok(metadata);
        }
        let (file, _) = thrift::FileMetaData::read_from(&bytes).decoding("footer")?;
        let schema = Schema::try_from_elements(&file.schema, &limits)?;
        Ok(Self::from_thrift(&file, &bytes, schema, None)?.0)
    }

    /// The footer as parquet.thrift's `FileMetaData`, for writing.
    pub fn to_thrift(&self) -> thrift::FileMetaData<'_> {
        thrift::FileMetaData {
            version: self.version,
            schema: self.schema.to_elements(),
            num_rows: self.num_rows.cast_signed(),
            row_groups: self
                .row_groups
                .iter()
                .map(|g| thrift::RowGroup {
                    columns: g
                        .columns
                        .iter()
                        .zip(self.schema.columns())
                        .map(|(chunk, column)| chunk.to_thrift(&column.path))
                        .collect(),
                    total_byte_size: g.total_byte_size,
                    num_rows: g.num_rows.cast_signed(),
                    sorting_columns: (!g.sorting_columns.is_empty()).then(|| {
                        g.sorting_columns
                            .iter()
                            .copied()
                            .map(SortingColumn::to_thrift)
                            .collect()
                    }),
                    file_offset: g.file_offset,
                    total_compressed_size: g.total_compressed_size,
                    ordinal: g.ordinal,
                })
                .collect(),
            key_value_metadata: (!self.key_value_metadata.is_empty()).then(|| {
                self.key_value_metadata
                    .iter()
                    .map(KeyValue::to_thrift)
                    .collect()
            }),
            created_by: self.created_by.as_deref().map(Cow::Borrowed),
            column_orders: self
                .column_orders
                .as_ref()
                .map(|orders| orders.iter().filter_map(|o| o.to_thrift()).collect()),
            encryption_algorithm: self
                .encryption_algorithm
                .as_ref()
                .map(EncryptionAlgorithm::to_thrift),
            footer_signing_key_metadata: self
                .footer_signing_key_metadata
                .as_deref()
                .map(Cow::Borrowed),
        }
    }

    /// The format version the writer declares.
    pub fn version(&self) -> i32 {
        self.version
    }

    /// The number of rows in the file, as the footer states it.
    pub fn num_rows(&self) -> u64 {
        self.num_rows
    }

    /// The application that wrote the file.
    pub fn created_by(&self) -> Option<&str> {
        self.created_by.as_deref()
    }

    /// The file's key-value metadata.
    pub fn key_value_metadata(&self) -> &[KeyValue] {
        &self.key_value_metadata
    }

    /// The schema.
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// The row groups.
    pub fn row_groups(&self) -> &[RowGroupMetaData] {
        &self.row_groups
    }

    /// Row group `index`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchRowGroup`].
    pub fn row_group(&self, index: usize) -> Result<&RowGroupMetaData> {
        self.row_groups.get(index).ok_or_else(|| {
            ErrorKind::NoSuchRowGroup {
                index,
                count: self.row_groups.len(),
            }
            .into()
        })
    }

    /// The column chunk of leaf column `column` in row group `row_group`: the one place
    /// where both are checked.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchRowGroup`], [`ErrorKind::NoSuchColumn`].
    pub fn column_chunk(&self, row_group: usize, column: usize) -> Result<&ColumnChunk> {
        let group = self.row_group(row_group)?;
        group.columns.get(column).ok_or_else(|| {
            Error::from(ErrorKind::NoSuchColumn {
                index: column,
                count: group.columns.len(),
            })
        })
    }

    /// The metadata of a column chunk.
    ///
    /// # Errors
    ///
    /// As [`column_chunk`](Self::column_chunk); [`ErrorKind::MissingKey`] for a chunk
    /// encrypted with a key the reader was not given, [`ErrorKind::Malformed`] for a
    /// chunk the writer gave no metadata.
    pub fn column_chunk_metadata(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<&ColumnChunkMetaData> {
        let chunk = self.column_chunk(row_group, column)?;
        let located = |e: Error| {
            let e = e.in_row_group(row_group);
            match self.schema.column(column) {
                Ok(c) => e.in_column(&c.path),
                Err(_) => e,
            }
        };
        match (&chunk.metadata, &chunk.encryption) {
            (Some(meta), _) => Ok(meta),
            (None, Some(_)) => Err(located(
                ErrorKind::MissingKey {
                    what: "the column's key",
                }
                .into(),
            )),
            (None, None) => Err(located(Error::malformed("a column chunk without metadata"))),
        }
    }

    /// The column orders, one per leaf column, when the writer gave them.
    pub fn column_orders(&self) -> Option<&[ColumnOrder]> {
        self.column_orders.as_deref()
    }

    /// The column order of leaf column `column`, when the writer gave one.
    pub fn column_order(&self, column: usize) -> Option<ColumnOrder> {
        self.column_orders.as_ref()?.get(column).copied()
    }

    /// The decoded statistics of a column chunk, when it has statistics.
    ///
    /// # Errors
    ///
    /// As [`column_chunk_metadata`](Self::column_chunk_metadata).
    pub fn column_statistics(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Option<ColumnStatistics>> {
        let meta = self.column_chunk_metadata(row_group, column)?;
        let descriptor = self.schema.column(column)?;
        Ok(meta
            .statistics()
            .map(|s| ColumnStatistics::decode(descriptor, self.column_order(column), s)))
    }

    /// How the file is encrypted, when it is.
    pub fn encryption_algorithm(&self) -> Option<&EncryptionAlgorithm> {
        self.encryption_algorithm.as_ref()
    }

    /// What the key management system stored to find the footer key of a signed
    /// plaintext footer.
    pub fn footer_signing_key_metadata(&self) -> Option<&[u8]> {
        self.footer_signing_key_metadata.as_deref()
    }

    /// Whether the writer is a parquet-mr older than 1.2.9 (or one that gives no
    /// version), whose column chunk sizes leave out the dictionary page header
    /// (PARQUET-816, IMPALA-694).
    pub fn understates_chunk_sizes(&self) -> bool {
        self.created_by
            .as_deref()
            .is_some_and(parquet_mr_before_1_2_9)
    }
}

/// Whether `created_by` names parquet-mr before 1.2.9: "parquet-mr version 1.2.8 (build
/// ...)", or a bare "parquet-mr".
pub(crate) fn parquet_mr_before_1_2_9(created_by: &str) -> bool {
    let Some(rest) = created_by.strip_prefix("parquet-mr") else {
        return false;
    };
    let version: Vec<u32> = rest
        .trim_start()
        .strip_prefix("version ")
        .and_then(|v| v.split([' ', '-']).next())
        .map(|v| v.split('.').map_while(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    version < vec![1, 2, 9]
}

#[cfg(test)]
mod tests {
    use super::parquet_mr_before_1_2_9 as old;

    #[test]
    fn old_parquet_mr_chunk_sizes() {
        assert!(old("parquet-mr"));
        assert!(old("parquet-mr version 1.2.8 (build 1234)"));
        assert!(old("parquet-mr version 1.1.0-SNAPSHOT"));
        assert!(!old("parquet-mr version 1.2.9 (build 1234)"));
        assert!(!old(
            "parquet-mr version 1.10.1 (build a89df8f9932b6ef6633d06069e50c9b7970bebd1)"
        ));
        assert!(!old("parquet-cpp-arrow version 17.0.0"));
        assert!(!old("parquet-rs version 0.3.0"));
    }
}
