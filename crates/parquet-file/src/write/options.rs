//! How a file is written: [`WriterOptions`] for the whole file, [`ColumnOptions`] to
//! override them for one column.

use std::collections::HashMap;

use parquet_compress::{Codec, Compression};
use parquet_core::PhysicalType;

use super::EncryptionOptions;
use crate::error::{Error, Result};
use crate::metadata::{Encoding, KeyValue, SortingColumn};
use crate::path::ColumnPath;
use crate::schema::ColumnDescriptor;

/// The version of the data pages written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PageVersion {
    /// `DATA_PAGE`: levels and values compressed together; what every reader takes.
    #[default]
    V1,
    /// `DATA_PAGE_V2`: levels uncompressed ahead of the values, counts of rows and nulls
    /// in the header.
    V2,
}

/// Which statistics are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StatisticsLevel {
    /// None.
    None,
    /// In the column chunk metadata.
    Chunk,
    /// In the column chunk metadata, in each page header and in the column index.
    #[default]
    Page,
}

/// A split-block Bloom filter for a column chunk, sized for a number of distinct values
/// and a false-positive probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BloomFilterOptions {
    /// The distinct values expected in one column chunk; `None` sizes the filter from the
    /// distinct values the chunk turns out to have (counted up to what `max_bytes` holds).
    pub ndv: Option<u64>,
    /// The false-positive probability wanted, in (0, 1).
    pub fpp: f64,
    /// The largest filter, in bytes.
    pub max_bytes: usize,
}

impl Default for BloomFilterOptions {
    /// Sized from the chunk's distinct values, 5% false positives, at most 1 MiB (as
    /// parquet-java and arrow-rs default to).
    fn default() -> Self {
        Self {
            ndv: None,
            fpp: 0.05,
            max_bytes: 1 << 20,
        }
    }
}

/// Options of one column, each overriding the file-wide one when set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColumnOptions {
    /// See [`WriterOptions::with_encoding`].
    pub encoding: Option<Encoding>,
    /// See [`WriterOptions::with_dictionary`].
    pub dictionary: Option<bool>,
    /// See [`WriterOptions::with_compression`].
    pub compression: Option<Compression>,
    /// See [`WriterOptions::with_statistics`].
    pub statistics: Option<StatisticsLevel>,
    /// See [`WriterOptions::with_bloom_filter`] (`Some(None)` turns a file-wide filter off).
    pub bloom_filter: Option<Option<BloomFilterOptions>>,
}

/// How a file is written: encodings, compression, page and row group sizes, statistics,
/// indexes, Bloom filters, checksums and metadata. Every setting is file-wide, and all
/// but the sizes can be overridden per column ([`with_column`](Self::with_column)).
///
/// The defaults are those of parquet-java and arrow-rs where they agree: dictionary
/// encoding with a 1 MiB dictionary page falling back to PLAIN (and, as parquet-java
/// does, dropped for PLAIN when the first data page shows that it does not pay for
/// itself: [`with_dictionary_trial`](Self::with_dictionary_trial)), 1 MiB data pages (and at
/// most 20,000 rows), row groups of at most 1,048,576 rows and 128 MiB, SNAPPY, version 1
/// data pages, statistics per page with a column and offset index, bounds of byte arrays
/// truncated to 64 bytes, page CRCs on.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::struct_excessive_bools)] // independent switches
pub struct WriterOptions {
    pub(crate) encoding: Encoding,
    pub(crate) dictionary: bool,
    pub(crate) dictionary_page_bytes: usize,
    pub(crate) dictionary_trial: bool,
    pub(crate) legacy_dictionary: bool,
    pub(crate) bit_packed_levels: bool,
    pub(crate) compression: Compression,
    pub(crate) page_version: PageVersion,
    pub(crate) page_bytes: usize,
    pub(crate) page_rows: usize,
    pub(crate) row_group_rows: usize,
    pub(crate) row_group_bytes: usize,
    pub(crate) statistics: StatisticsLevel,
    pub(crate) truncate_length: Option<usize>,
    pub(crate) distinct_count: bool,
    pub(crate) size_statistics: bool,
    pub(crate) page_index: bool,
    pub(crate) bloom_filter: Option<BloomFilterOptions>,
    pub(crate) crc: bool,
    pub(crate) created_by: String,
    pub(crate) key_value_metadata: Vec<KeyValue>,
    pub(crate) sorting_columns: Vec<SortingColumn>,
    pub(crate) columns: HashMap<ColumnPath, ColumnOptions>,
    pub(crate) encryption: Option<EncryptionOptions>,
    pub(crate) parallel_encoding: bool,
    pub(crate) checkpoint_every: Option<std::num::NonZeroUsize>,
}

/// What `created_by` says by default.
pub const CREATED_BY: &str = concat!("parquet-kit version ", env!("CARGO_PKG_VERSION"));

impl Default for WriterOptions {
    fn default() -> Self {
        Self {
            encoding: Encoding::Plain,
            dictionary: true,
            dictionary_page_bytes: 1 << 20,
            dictionary_trial: true,
            legacy_dictionary: false,
            bit_packed_levels: false,
            compression: Compression::new(if Codec::Snappy.is_enabled() {
                Codec::Snappy
            } else {
                Codec::Uncompressed
            }),
            page_version: PageVersion::V1,
            page_bytes: 1 << 20,
            page_rows: 20_000,
            row_group_rows: 1 << 20,
            row_group_bytes: 128 << 20,
            statistics: StatisticsLevel::Page,
            truncate_length: Some(64),
            distinct_count: false,
            size_statistics: true,
            page_index: true,
            bloom_filter: None,
            crc: true,
            created_by: CREATED_BY.to_owned(),
            key_value_metadata: Vec::new(),
            sorting_columns: Vec::new(),
            columns: HashMap::new(),
            encryption: None,
            parallel_encoding: false,
            checkpoint_every: None,
        }
    }
}

impl WriterOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Encodes the column chunks of each batch written, and finishes those of each row
    /// group, as tasks on rayon's thread pool (its global pool, or the one the writer is
    /// called in), where the `parallel` feature (on by default) is on; off by default.
    /// The file is the same, byte for byte: only the work is spread over the cores.
    #[must_use]
    pub fn with_parallel_encoding(mut self, on: bool) -> Self {
        self.parallel_encoding = on;
        self
    }

    /// After every `row_groups` row groups, writes a checkpoint: a complete footer of the
    /// row groups so far (without page indexes, which come at the end), followed by its
    /// length and `PAR1` as the final footer is, so that [`recover`](crate::recover()) can
    /// rebuild the file from it should the writer die before [`finish`](crate::FileWriter::finish).
    /// Off by default (`None`, or 0).
    ///
    /// Other readers never look between column chunks, where checkpoints lie, and read
    /// the file as any other. The cost is the checkpoints' bytes: the `k`th repeats the
    /// metadata of `k × row_groups` row groups, so a file of `G` row groups carries about
    /// `G² / (2 × row_groups)` row groups' metadata more (a few hundred bytes per column
    /// chunk, with statistics). Not with encryption: [`FileWriter::new`](crate::FileWriter::new)
    /// refuses both.
    #[must_use]
    pub fn with_checkpoint_every(mut self, row_groups: usize) -> Self {
        self.checkpoint_every = std::num::NonZeroUsize::new(row_groups);
        self
    }

    /// The encoding of values when the dictionary is off or full: PLAIN (the default),
    /// RLE (BOOLEAN), DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY
    /// (BYTE_ARRAY), DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) or
    /// BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY). A column
    /// whose type the encoding does not fit is an error when the writer is made.
    /// RLE_DICTIONARY here means [`with_dictionary(true)`](Self::with_dictionary).
    #[must_use]
    pub fn with_encoding(mut self, encoding: Encoding) -> Self {
        match encoding {
            Encoding::RleDictionary | Encoding::PlainDictionary => {
                self.dictionary = true;
                self.legacy_dictionary = encoding == Encoding::PlainDictionary;
            }
            other => self.encoding = other,
        }
        self
    }

    /// Whether values are dictionary-encoded (RLE_DICTIONARY) until the dictionary page
    /// passes its limit (or fails its [trial](Self::with_dictionary_trial)), then written
    /// in the column's encoding. On by default; never for BOOLEAN.
    #[must_use]
    pub fn with_dictionary(mut self, on: bool) -> Self {
        self.dictionary = on;
        self
    }

    /// The largest dictionary page, in bytes of its PLAIN encoding (1 MiB by default).
    #[must_use]
    pub fn with_dictionary_page_bytes(mut self, bytes: usize) -> Self {
        self.dictionary_page_bytes = bytes;
        self
    }

    /// Whether the first data page of each chunk is a trial of its dictionary (on by
    /// default), when it ends or when it has 8,192 values: when the dictionary page and
    /// the page's indices come to as many bytes as the page's values would take PLAIN,
    /// and nine in ten values of the page's second half were new entries (so that the
    /// dictionary is not going to pay later either), the page and the rest of the chunk
    /// are written in the column's encoding and no dictionary page is written.
    /// parquet-java judges its first page so too (by size alone). This keeps
    /// high-cardinality columns (ids, timestamps, measurements) from paying for a
    /// dictionary as large as their values and for its indices, in bytes and in time. A
    /// first page of fewer than 1,024 values is too small to judge: it keeps its
    /// dictionary.
    #[must_use]
    pub fn with_dictionary_trial(mut self, on: bool) -> Self {
        self.dictionary_trial = on;
        self
    }

    /// Writes dictionaries as parquet-java 1.x and old readers expect: PLAIN_DICTIONARY
    /// in the headers of the dictionary page and of the data pages.
    #[must_use]
    pub fn with_legacy_dictionary(mut self, on: bool) -> Self {
        self.legacy_dictionary = on;
        self
    }

    /// Writes the levels of version 1 data pages in the deprecated BIT_PACKED encoding, for
    /// readers older than the RLE hybrid (version 2 pages always use RLE).
    #[must_use]
    pub fn with_bit_packed_levels(mut self, on: bool) -> Self {
        self.bit_packed_levels = on;
        self
    }

    /// The codec, and its level: `Codec::Zstd.into()` or
    /// `Compression::with_level(Codec::Zstd, 9)?`.
    #[must_use]
    pub fn with_compression(mut self, compression: impl Into<Compression>) -> Self {
        self.compression = compression.into();
        self
    }

    /// The version of the data pages.
    #[must_use]
    pub fn with_page_version(mut self, version: PageVersion) -> Self {
        self.page_version = version;
        self
    }

    /// A data page ends once its values and levels take about `bytes` before compression
    /// (checked between batches of at most 1024 records, at a record's end).
    #[must_use]
    pub fn with_page_bytes(mut self, bytes: usize) -> Self {
        self.page_bytes = bytes.max(1);
        self
    }

    /// A data page ends at `rows` records.
    #[must_use]
    pub fn with_page_rows(mut self, rows: usize) -> Self {
        self.page_rows = rows.max(1);
        self
    }

    /// A row group ends at `rows` rows.
    #[must_use]
    pub fn with_row_group_rows(mut self, rows: usize) -> Self {
        self.row_group_rows = rows.max(1);
        self
    }

    /// A row group ends once its encoded pages take about `bytes` (checked between
    /// batches of at most 1024 records).
    #[must_use]
    pub fn with_row_group_bytes(mut self, bytes: usize) -> Self {
        self.row_group_bytes = bytes.max(1);
        self
    }

    /// Which statistics are written.
    #[must_use]
    pub fn with_statistics(mut self, level: StatisticsLevel) -> Self {
        self.statistics = level;
        self
    }

    /// Bounds of BYTE_ARRAY values longer than this are truncated (`is_min_value_exact`
    /// or `is_max_value_exact` then false; a maximum that cannot be rounded up is left
    /// out), in the statistics and the column index. `None` writes them whole. (A
    /// FIXED_LEN_BYTE_ARRAY bound is never truncated: it must keep the type's length.)
    #[must_use]
    pub fn with_truncate_length(mut self, length: Option<usize>) -> Self {
        self.truncate_length = length.map(|l| l.max(1));
        self
    }

    /// Writes the number of distinct values of a chunk in its statistics, when it is
    /// known exactly: every page of the chunk dictionary-encoded, for a type whose
    /// dictionary entries are its distinct values (not FLOAT or DOUBLE).
    #[must_use]
    pub fn with_distinct_count(mut self, on: bool) -> Self {
        self.distinct_count = on;
        self
    }

    /// Writes size statistics: bytes of BYTE_ARRAY values and level histograms, per chunk
    /// and in the page index. On by default.
    #[must_use]
    pub fn with_size_statistics(mut self, on: bool) -> Self {
        self.size_statistics = on;
        self
    }

    /// Writes the offset index of every chunk, and its column index when statistics are
    /// per page. On by default.
    #[must_use]
    pub fn with_page_index(mut self, on: bool) -> Self {
        self.page_index = on;
        self
    }

    /// A Bloom filter for every column (or, with [`with_column`](Self::with_column), for
    /// some).
    #[must_use]
    pub fn with_bloom_filter(mut self, filter: Option<BloomFilterOptions>) -> Self {
        self.bloom_filter = filter;
        self
    }

    /// Whether every page header carries the CRC32 of the page (on by default).
    #[must_use]
    pub fn with_crc(mut self, on: bool) -> Self {
        self.crc = on;
        self
    }

    /// What the footer's `created_by` says.
    #[must_use]
    pub fn with_created_by(mut self, created_by: impl Into<String>) -> Self {
        self.created_by = created_by.into();
        self
    }

    /// Adds a key and value to the footer's key-value metadata.
    #[must_use]
    pub fn with_key_value(mut self, key: impl Into<String>, value: Option<String>) -> Self {
        self.key_value_metadata.push(KeyValue {
            key: key.into(),
            value,
        });
        self
    }

    /// The columns every row group is sorted by (the writer records them; the caller
    /// sorts).
    #[must_use]
    pub fn with_sorting_columns(mut self, columns: Vec<SortingColumn>) -> Self {
        self.sorting_columns = columns;
        self
    }

    /// Options of the leaf column at `path`, overriding the file-wide ones.
    #[must_use]
    pub fn with_column(mut self, path: impl Into<ColumnPath>, options: ColumnOptions) -> Self {
        self.columns.insert(path.into(), options);
        self
    }

    /// Encrypts the file (see [`EncryptionOptions`]).
    #[must_use]
    pub fn with_encryption(mut self, encryption: Option<EncryptionOptions>) -> Self {
        self.encryption = encryption;
        self
    }

    /// The settings of `column`, checked against its type.
    pub(crate) fn settings(&self, column: &ColumnDescriptor) -> Result<ColumnSettings> {
        let own = self.columns.get(&column.path);
        let encoding = own.and_then(|c| c.encoding).unwrap_or(self.encoding);
        let (encoding, dictionary) = match encoding {
            Encoding::RleDictionary | Encoding::PlainDictionary => (self.encoding, true),
            other => (
                other,
                own.and_then(|c| c.dictionary).unwrap_or(self.dictionary),
            ),
        };
        let physical = column.physical_type;
        if !encoding_fits(encoding, physical) {
            return Err(Error::input(format!(
                "{} does not encode {physical} values",
                encoding.name()
            )));
        }
        let compression = own.and_then(|c| c.compression).unwrap_or(self.compression);
        let codec = compression.codec();
        let Some(id) = codec.parquet_id() else {
            return Err(Error::input(format!(
                "{} is not a Parquet codec",
                codec.name()
            )));
        };
        if !codec.is_enabled() {
            return Err(Error::unsupported(
                "compression codec (its cargo feature is off)",
                Some(id.into()),
            ));
        }
        let statistics = own.and_then(|c| c.statistics).unwrap_or(self.statistics);
        Ok(ColumnSettings {
            encoding,
            dictionary: dictionary && physical != PhysicalType::Boolean,
            compression,
            statistics,
            column_index: self.page_index && statistics == StatisticsLevel::Page,
            bloom_filter: own
                .and_then(|c| c.bloom_filter)
                .unwrap_or(self.bloom_filter),
        })
    }
}

/// Whether `encoding` encodes values of `physical` type (dictionaries aside).
fn encoding_fits(encoding: Encoding, physical: PhysicalType) -> bool {
    use PhysicalType as P;
    match encoding {
        Encoding::Plain => true,
        Encoding::Rle => physical == P::Boolean,
        Encoding::DeltaBinaryPacked => matches!(physical, P::Int32 | P::Int64),
        Encoding::DeltaLengthByteArray => physical == P::ByteArray,
        Encoding::DeltaByteArray => matches!(physical, P::ByteArray | P::FixedLenByteArray),
        Encoding::ByteStreamSplit => matches!(
            physical,
            P::Float | P::Double | P::Int32 | P::Int64 | P::FixedLenByteArray
        ),
        _ => false,
    }
}

/// The options of one column, resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ColumnSettings {
    /// The values' encoding when not dictionary-encoded.
    pub encoding: Encoding,
    pub dictionary: bool,
    pub compression: Compression,
    pub statistics: StatisticsLevel,
    pub column_index: bool,
    pub bloom_filter: Option<BloomFilterOptions>,
}
