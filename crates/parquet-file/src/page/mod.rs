//! Pages: their headers (this crate's own types, decoded from Thrift), and the pages of a
//! column chunk read one at a time ([`PageReader`]): headers decrypted, checksums
//! verified over the bytes as stored, bodies decrypted and decompressed, levels split
//! from values.

mod reader;

use bytes::Bytes;
use parquet_thrift as thrift;

use crate::error::{Error, Result};
use crate::metadata::{Encoding, Statistics};

pub use reader::PageReader;
pub(crate) use reader::{ChunkInfo, level_width};

/// A page header.
#[derive(Debug, Clone, PartialEq)]
pub struct PageHeader {
    /// What the page is, with its type's header.
    pub kind: PageKind,
    /// The page's bytes once decompressed (levels and values, header excluded).
    pub uncompressed_size: usize,
    /// The page's bytes as stored (compressed, encrypted), header excluded.
    pub compressed_size: usize,
    /// The CRC32 of the page's bytes as stored, when the writer computed one.
    pub crc: Option<u32>,
}

/// The kinds of page, with the header each has.
#[derive(Debug, Clone, PartialEq)]
pub enum PageKind {
    /// A data page (v1): levels and values, compressed together.
    Data(DataPageHeader),
    /// A data page v2: levels uncompressed, then values.
    DataV2(DataPageHeaderV2),
    /// A dictionary page.
    Dictionary(DictionaryPageHeader),
    /// An index page (no writer writes them; skipped).
    Index,
    /// A page type newer than this reader, by its number (skipped).
    Unknown(i32),
}

/// The header of a data page (v1).
#[derive(Debug, Clone, PartialEq)]
pub struct DataPageHeader {
    /// The number of level entries: values and nulls.
    pub num_values: usize,
    /// The encoding of the values.
    pub encoding: Encoding,
    /// The encoding of the definition levels.
    pub def_level_encoding: Encoding,
    /// The encoding of the repetition levels.
    pub rep_level_encoding: Encoding,
    /// The page's statistics.
    pub statistics: Option<Statistics>,
}

/// The header of a data page v2.
#[derive(Debug, Clone, PartialEq)]
pub struct DataPageHeaderV2 {
    /// The number of level entries: values and nulls.
    pub num_values: usize,
    /// The number of nulls.
    pub num_nulls: usize,
    /// The number of rows (records): a v2 page holds whole records.
    pub num_rows: usize,
    /// The encoding of the values.
    pub encoding: Encoding,
    /// The bytes of the definition levels.
    pub def_levels_len: usize,
    /// The bytes of the repetition levels.
    pub rep_levels_len: usize,
    /// Whether the values are compressed.
    pub is_compressed: bool,
    /// The page's statistics.
    pub statistics: Option<Statistics>,
}

/// The header of a dictionary page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DictionaryPageHeader {
    /// The number of entries.
    pub num_values: usize,
    /// The encoding of the entries (PLAIN, or the deprecated PLAIN_DICTIONARY).
    pub encoding: Encoding,
    /// Whether the entries are sorted.
    pub is_sorted: Option<bool>,
}

/// A count or size of a page header, which must not be negative.
fn count(value: i32, what: &'static str) -> Result<usize> {
    usize::try_from(value).map_err(|_| Error::invalid(what, value.into()))
}

impl PageHeader {
    /// Converts the header decoded from `buf`, checking its counts and that it has the
    /// header of its type.
    pub(crate) fn from_thrift(header: &thrift::PageHeader<'_>, buf: &Bytes) -> Result<Self> {
        let statistics = |s: &Option<thrift::Statistics<'_>>| {
            s.as_ref().map(|s| Statistics::from_thrift(s, buf))
        };
        let kind = match header.type_ {
            thrift::PageType::DATA_PAGE => {
                let h = header
                    .data_page_header
                    .as_ref()
                    .ok_or_else(|| Error::malformed("a data page without a data page header"))?;
                PageKind::Data(DataPageHeader {
                    num_values: count(h.num_values, "number of values")?,
                    encoding: Encoding::from_thrift(h.encoding),
                    def_level_encoding: Encoding::from_thrift(h.definition_level_encoding),
                    rep_level_encoding: Encoding::from_thrift(h.repetition_level_encoding),
                    statistics: statistics(&h.statistics),
                })
            }
            thrift::PageType::DATA_PAGE_V2 => {
                let h = header.data_page_header_v2.as_ref().ok_or_else(|| {
                    Error::malformed("a data page v2 without a data page header v2")
                })?;
                PageKind::DataV2(DataPageHeaderV2 {
                    num_values: count(h.num_values, "number of values")?,
                    num_nulls: count(h.num_nulls, "number of nulls")?,
                    num_rows: count(h.num_rows, "number of rows")?,
                    encoding: Encoding::from_thrift(h.encoding),
                    def_levels_len: count(
                        h.definition_levels_byte_length,
                        "definition levels length",
                    )?,
                    rep_levels_len: count(
                        h.repetition_levels_byte_length,
                        "repetition levels length",
                    )?,
                    is_compressed: h.is_compressed.unwrap_or(true),
                    statistics: statistics(&h.statistics),
                })
            }
            thrift::PageType::DICTIONARY_PAGE => {
                let h = header.dictionary_page_header.as_ref().ok_or_else(|| {
                    Error::malformed("a dictionary page without a dictionary page header")
                })?;
                PageKind::Dictionary(DictionaryPageHeader {
                    num_values: count(h.num_values, "number of dictionary entries")?,
                    encoding: Encoding::from_thrift(h.encoding),
                    is_sorted: h.is_sorted,
                })
            }
            thrift::PageType::INDEX_PAGE => PageKind::Index,
            other => PageKind::Unknown(other.0),
        };
        Ok(Self {
            kind,
            uncompressed_size: count(header.uncompressed_page_size, "uncompressed page size")?,
            compressed_size: count(header.compressed_page_size, "compressed page size")?,
            crc: header.crc.map(i32::cast_unsigned),
        })
    }

    /// The page type's name as parquet.thrift spells it.
    pub fn type_name(&self) -> String {
        match &self.kind {
            PageKind::Data(_) => "DATA_PAGE".into(),
            PageKind::DataV2(_) => "DATA_PAGE_V2".into(),
            PageKind::Dictionary(_) => "DICTIONARY_PAGE".into(),
            PageKind::Index => "INDEX_PAGE".into(),
            PageKind::Unknown(n) => format!("PageType({n})"),
        }
    }

    /// The number of level entries of a data page (`None` for other pages).
    pub fn num_values(&self) -> Option<usize> {
        match &self.kind {
            PageKind::Data(h) => Some(h.num_values),
            PageKind::DataV2(h) => Some(h.num_values),
            _ => None,
        }
    }
}

/// Levels of a data page, still encoded.
#[derive(Debug, Clone)]
pub struct Levels {
    /// RLE (the hybrid without its length prefix) or BIT_PACKED.
    pub encoding: Encoding,
    /// The encoded levels (empty when the column has no such levels).
    pub data: Bytes,
}

/// A page, read and decompressed, ready for value decoding.
#[derive(Debug, Clone)]
pub enum Page {
    /// A dictionary page.
    Dictionary {
        /// The decompressed entries.
        data: Bytes,
        /// Its header.
        header: DictionaryPageHeader,
        /// The file offset of the page header.
        offset: u64,
    },
    /// A data page (v1 or v2).
    Data(DataPage),
}

/// A data page: levels and values, decompressed.
#[derive(Debug, Clone)]
pub struct DataPage {
    /// The number of level entries: values and nulls.
    pub num_values: usize,
    /// The number of rows, for v2 pages.
    pub num_rows: Option<usize>,
    /// The number of nulls, for v2 pages.
    pub num_nulls: Option<usize>,
    /// The encoding of the values.
    pub encoding: Encoding,
    /// The repetition levels.
    pub rep_levels: Levels,
    /// The definition levels.
    pub def_levels: Levels,
    /// The encoded values.
    pub values: Bytes,
    /// The file offset of the page header.
    pub offset: u64,
}

impl DataPage {
    /// Whether this is a v2 page (which starts a record).
    pub fn is_v2(&self) -> bool {
        self.num_rows.is_some()
    }
}
