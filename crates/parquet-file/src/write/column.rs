//! One column chunk being written: records in, encoded and compressed pages out, with
//! the dictionary, statistics, size statistics, page index entries and Bloom filter of
//! the chunk.

use std::collections::BTreeMap;
use std::ops::Range;

use parquet_bloom::Sbbf;
use parquet_compress::{Codec, Compressor};
use parquet_core::PhysicalType;
use parquet_crypto::Module;
use parquet_dictionary::{ByteArrayBuilder, FixedLenByteArrayBuilder, Intern, Limits};
use parquet_thrift as thrift;

use super::options::{ColumnSettings, PageVersion, StatisticsLevel, WriterOptions};
use super::statistics::{Accumulator, Bound, Order, truncate_max, truncate_min};
use super::{Cipher, slice};
use crate::column::ColumnBatch;
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::Encoding;
use crate::schema::{ColumnDescriptor, LogicalType};
use crate::value::ColumnValues;

/// Records written to a page between checks of its size.
const MINI_BATCH: usize = 1024;

/// Values of a chunk's first page after which its dictionary has its trial, if the page
/// has not ended before (see [`WriterOptions::with_dictionary_trial`]).
const TRIAL_VALUES: usize = 8 * MINI_BATCH;

/// Where a write has got to in a [`ColumnBatch`]: its next level entry and next value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Position {
    pub level: usize,
    pub value: usize,
}

/// The dictionary of a chunk being built.
enum Dictionary {
    Int32(parquet_dictionary::Builder<i32>),
    Int64(parquet_dictionary::Builder<i64>),
    Int96(parquet_dictionary::Builder<parquet_core::Int96>),
    Float(parquet_dictionary::Builder<f32>),
    Double(parquet_dictionary::Builder<f64>),
    ByteArray(ByteArrayBuilder),
    FixedLenByteArray(FixedLenByteArrayBuilder),
}

impl Dictionary {
    fn new(column: &ColumnDescriptor, max_bytes: usize) -> Option<Self> {
        let limits = Limits {
            max_entries: i32::MAX as usize,
            max_bytes,
        };
        Some(match column.physical_type {
            PhysicalType::Boolean => return None,
            PhysicalType::Int32 => Self::Int32(parquet_dictionary::Builder::new(limits)),
            PhysicalType::Int64 => Self::Int64(parquet_dictionary::Builder::new(limits)),
            PhysicalType::Int96 => Self::Int96(parquet_dictionary::Builder::new(limits)),
            PhysicalType::Float => Self::Float(parquet_dictionary::Builder::new(limits)),
            PhysicalType::Double => Self::Double(parquet_dictionary::Builder::new(limits)),
            PhysicalType::ByteArray => Self::ByteArray(ByteArrayBuilder::new(limits)),
            PhysicalType::FixedLenByteArray => {
                Self::FixedLenByteArray(FixedLenByteArrayBuilder::new(column.type_length, limits))
            }
        })
    }

    /// Interns `values[range]`, appending their indices; whether all fit.
    fn intern(&mut self, values: &ColumnValues, range: Range<usize>, out: &mut Vec<u32>) -> bool {
        let done = |i: Intern| i == Intern::Done;
        match (self, values) {
            (Self::Int32(d), ColumnValues::Int32(v)) => done(d.intern(slice(v, range), out)),
            (Self::Int64(d), ColumnValues::Int64(v)) => done(d.intern(slice(v, range), out)),
            (Self::Int96(d), ColumnValues::Int96(v)) => done(d.intern(slice(v, range), out)),
            (Self::Float(d), ColumnValues::Float(v)) => done(d.intern(slice(v, range), out)),
            (Self::Double(d), ColumnValues::Double(v)) => done(d.intern(slice(v, range), out)),
            (Self::ByteArray(d), ColumnValues::ByteArray(v)) => range.into_iter().all(|i| {
                v.get(i)
                    .and_then(|value| d.insert(value))
                    .map(|index| out.push(index))
                    .is_some()
            }),
            (Self::FixedLenByteArray(d), ColumnValues::FixedLenByteArray(v)) => {
                range.into_iter().all(|i| {
                    v.get(i)
                        .and_then(|value| d.insert(value))
                        .map(|index| out.push(index))
                        .is_some()
                })
            }
            _ => false,
        }
    }

    /// Appends the entries at `indices` to `out` (of the same type); whether all were
    /// there.
    fn gather(&self, indices: &[u32], out: &mut ColumnValues) -> bool {
        fn copy<T: Copy>(entries: &[T], indices: &[u32], out: &mut Vec<T>) -> bool {
            out.reserve(indices.len());
            indices.iter().all(|&i| {
                entries
                    .get(i as usize)
                    .map(|&entry| out.push(entry))
                    .is_some()
            })
        }
        match (self, out) {
            (Self::Int32(d), ColumnValues::Int32(v)) => copy(d.entries(), indices, v),
            (Self::Int64(d), ColumnValues::Int64(v)) => copy(d.entries(), indices, v),
            (Self::Int96(d), ColumnValues::Int96(v)) => copy(d.entries(), indices, v),
            (Self::Float(d), ColumnValues::Float(v)) => copy(d.entries(), indices, v),
            (Self::Double(d), ColumnValues::Double(v)) => copy(d.entries(), indices, v),
            (Self::ByteArray(d), ColumnValues::ByteArray(v)) => indices.iter().all(|&i| {
                d.entries()
                    .get(i as usize)
                    .is_some_and(|entry| v.push(entry).is_ok())
            }),
            (Self::FixedLenByteArray(d), ColumnValues::FixedLenByteArray(v)) => {
                indices.iter().all(|&i| {
                    d.entries()
                        .get(i as usize)
                        .is_some_and(|entry| v.push(entry).is_ok())
                })
            }
            _ => false,
        }
    }

    /// Takes the byte arrays at `indices` into `stats`, each entry once a page: those
    /// whose bit in `seen` is not set yet (it is set then). Whether it could (only
    /// byte-array entries in an order without NaN can; others are taken in value by value).
    fn bound_entries(
        &self,
        indices: &[u32],
        seen: &mut Vec<u64>,
        stats: &mut Accumulator,
        order: Order,
    ) -> bool {
        fn first_seen<'s>(
            indices: &'s [u32],
            seen: &'s mut [u64],
        ) -> impl Iterator<Item = usize> + 's {
            indices.iter().filter_map(move |&i| {
                let (word, bit) = (i as usize / 64, 1u64 << (i % 64));
                let word = seen.get_mut(word)?;
                let new = *word & bit == 0;
                *word |= bit;
                new.then_some(i as usize)
            })
        }
        if !matches!(order, Order::Bytes | Order::SignedBytes) {
            return false;
        }
        let words = self.len().div_ceil(64);
        if seen.len() < words {
            seen.resize(words, 0);
        }
        match self {
            Self::ByteArray(d) => {
                let entries = d.entries();
                let values = first_seen(indices, seen).filter_map(|i| entries.get(i));
                stats.update_bytes(values, order);
            }
            Self::FixedLenByteArray(d) => {
                let entries = d.entries();
                let values = first_seen(indices, seen).filter_map(|i| entries.get(i));
                stats.update_bytes(values, order);
            }
            _ => return false,
        }
        true
    }

    /// Bytes of the dictionary page.
    fn page_len(&self) -> usize {
        match self {
            Self::Int32(d) => d.page_len(),
            Self::Int64(d) => d.page_len(),
            Self::Int96(d) => d.page_len(),
            Self::Float(d) => d.page_len(),
            Self::Double(d) => d.page_len(),
            Self::ByteArray(d) => d.page_len(),
            Self::FixedLenByteArray(d) => d.page_len(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Self::Int32(d) => d.len(),
            Self::Int64(d) => d.len(),
            Self::Int96(d) => d.len(),
            Self::Float(d) => d.len(),
            Self::Double(d) => d.len(),
            Self::ByteArray(d) => d.len(),
            Self::FixedLenByteArray(d) => d.len(),
        }
    }

    fn write_page(&self, out: &mut Vec<u8>) {
        match self {
            Self::Int32(d) => d.write_dictionary_page(out),
            Self::Int64(d) => d.write_dictionary_page(out),
            Self::Int96(d) => d.write_dictionary_page(out),
            Self::Float(d) => d.write_dictionary_page(out),
            Self::Double(d) => d.write_dictionary_page(out),
            Self::ByteArray(d) => d.write_dictionary_page(out),
            Self::FixedLenByteArray(d) => d.write_dictionary_page(out),
        }
    }

    fn clear(&mut self) {
        match self {
            Self::Int32(d) => d.clear(),
            Self::Int64(d) => d.clear(),
            Self::Int96(d) => d.clear(),
            Self::Float(d) => d.clear(),
            Self::Double(d) => d.clear(),
            Self::ByteArray(d) => d.clear(),
            Self::FixedLenByteArray(d) => d.clear(),
        }
    }

    /// Whether its entries are the distinct values (not so for floats, keyed by bits).
    fn counts_distinct(&self) -> bool {
        !matches!(self, Self::Float(_) | Self::Double(_))
    }
}

/// The bits a value up to `max` takes.
pub(crate) fn bit_width(max: u64) -> u8 {
    #[allow(clippy::cast_possible_truncation)] // at most 64
    let width = (u64::BITS - max.leading_zeros()) as u8;
    width
}

/// The Bloom filter of a chunk: sized up front from a given NDV, or from the distinct
/// hashes seen (kept until they would need the largest filter).
enum Bloom {
    Sized(Sbbf),
    Counting {
        hashes: hashbrown::HashSet<u64>,
        fpp: f64,
        max_bytes: usize,
        limit: usize,
    },
}

impl Bloom {
    fn new(options: &super::options::BloomFilterOptions) -> Result<Self> {
        let invalid = |e| Error::input(format!("Bloom filter options: {e}"));
        Ok(if let Some(ndv) = options.ndv {
            Self::Sized(
                Sbbf::new(
                    parquet_bloom::sizing::optimal_num_bytes(ndv, options.fpp, options.max_bytes)
                        .map_err(invalid)?,
                )
                .map_err(invalid)?,
            )
        } else {
            let bits = parquet_bloom::sizing::bits_per_value(options.fpp).map_err(invalid)?;
            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss
            )] // a count of values that fill `max_bytes`
            let limit = (options.max_bytes as f64 * 8.0 / bits) as usize;
            Self::Counting {
                hashes: hashbrown::HashSet::new(),
                fpp: options.fpp,
                max_bytes: options.max_bytes,
                limit: limit.max(1),
            }
        })
    }

    fn insert(&mut self, hash: u64) {
        match self {
            Self::Sized(filter) => filter.insert_hash(hash),
            Self::Counting {
                hashes,
                fpp,
                max_bytes,
                limit,
            } => {
                hashes.insert(hash);
                if hashes.len() > *limit {
                    // Past what the largest filter holds at this probability: that one.
                    let bytes =
                        parquet_bloom::sizing::optimal_num_bytes(u64::MAX, *fpp, *max_bytes);
                    if let Ok(mut filter) = bytes.and_then(Sbbf::new) {
                        for &h in hashes.iter() {
                            filter.insert_hash(h);
                        }
                        *self = Self::Sized(filter);
                    }
                }
            }
        }
    }

    /// The filter, sized now if it was counting.
    fn finish(self) -> Result<Sbbf> {
        match self {
            Self::Sized(filter) => Ok(filter),
            Self::Counting {
                hashes,
                fpp,
                max_bytes,
                ..
            } => {
                let bytes =
                    parquet_bloom::sizing::optimal_num_bytes(hashes.len() as u64, fpp, max_bytes)
                        .map_err(|e| Error::input(format!("Bloom filter options: {e}")))?;
                let mut filter =
                    Sbbf::new(bytes).map_err(|e| Error::input(format!("Bloom filter: {e}")))?;
                for h in hashes {
                    filter.insert_hash(h);
                }
                Ok(filter)
            }
        }
    }
}

/// Hashes of `values[range]` into `bloom`.
fn insert_hashes(bloom: &mut Bloom, values: &ColumnValues, range: Range<usize>) {
    use parquet_bloom::PlainHash;
    fn all<T: PlainHash>(bloom: &mut Bloom, values: impl Iterator<Item = T>) {
        for value in values {
            bloom.insert(value.plain_hash());
        }
    }
    match values {
        ColumnValues::Boolean(_) => {}
        ColumnValues::Int32(v) => all(bloom, slice(v, range).iter()),
        ColumnValues::Int64(v) => all(bloom, slice(v, range).iter()),
        ColumnValues::Int96(v) => all(bloom, slice(v, range).iter()),
        ColumnValues::Float(v) => all(bloom, slice(v, range).iter()),
        ColumnValues::Double(v) => all(bloom, slice(v, range).iter()),
        ColumnValues::ByteArray(v) => all(bloom, range.filter_map(|i| v.get(i))),
        ColumnValues::FixedLenByteArray(v) => all(bloom, range.filter_map(|i| v.get(i))),
    }
}

/// Appends `src[range]` to `dst` (of the same type).
fn append_values(dst: &mut ColumnValues, src: &ColumnValues, range: Range<usize>) -> Result<()> {
    match (dst, src) {
        (ColumnValues::Boolean(d), ColumnValues::Boolean(s)) => {
            d.extend_from_slice(slice(s, range));
        }
        (ColumnValues::Int32(d), ColumnValues::Int32(s)) => d.extend_from_slice(slice(s, range)),
        (ColumnValues::Int64(d), ColumnValues::Int64(s)) => d.extend_from_slice(slice(s, range)),
        (ColumnValues::Int96(d), ColumnValues::Int96(s)) => d.extend_from_slice(slice(s, range)),
        (ColumnValues::Float(d), ColumnValues::Float(s)) => d.extend_from_slice(slice(s, range)),
        (ColumnValues::Double(d), ColumnValues::Double(s)) => d.extend_from_slice(slice(s, range)),
        (ColumnValues::ByteArray(d), ColumnValues::ByteArray(s)) => {
            let offsets = slice(s.offsets(), range.start..range.end + 1);
            if let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) {
                let lengths: Vec<u32> = offsets
                    .iter()
                    .zip(offsets.iter().skip(1))
                    .map(|(a, b)| b - a)
                    .collect();
                d.extend_from_lengths(&lengths, slice(s.data(), first as usize..last as usize))
                    .map_err(|e| Error::input(format!("values of a page: {e}")))?;
            }
        }
        (ColumnValues::FixedLenByteArray(d), ColumnValues::FixedLenByteArray(s)) => {
            let width = s.width();
            d.extend_from_bytes(slice(s.data(), range.start * width..range.end * width))
                .map_err(|e| Error::input(format!("values of a page: {e}")))?;
        }
        _ => {
            return Err(Error::input(
                "values of another physical type than the column's",
            ));
        }
    }
    Ok(())
}

/// Bytes of `values[range]` PLAIN-encoded (for BOOLEAN, bits), and of byte arrays
/// without their lengths.
fn plain_size(values: &ColumnValues, range: Range<usize>) -> (usize, usize) {
    let n = range.len();
    match values {
        ColumnValues::Boolean(_) => (n.div_ceil(8), 0),
        ColumnValues::Int32(_) | ColumnValues::Float(_) => (n * 4, 0),
        ColumnValues::Int64(_) | ColumnValues::Double(_) => (n * 8, 0),
        ColumnValues::Int96(_) => (n * 12, 0),
        ColumnValues::ByteArray(v) => {
            let offsets = v.offsets();
            let bytes = match (offsets.get(range.start), offsets.get(range.end)) {
                (Some(&a), Some(&b)) => (b - a) as usize,
                _ => 0,
            };
            (bytes + 4 * n, bytes)
        }
        ColumnValues::FixedLenByteArray(v) => (n * v.width(), 0),
    }
}

/// The page being filled.
struct PageBuffer {
    def: Vec<u16>,
    rep: Vec<u16>,
    /// The values, when not dictionary-encoded.
    values: ColumnValues,
    /// The dictionary indices, when dictionary-encoded.
    indices: Vec<u32>,
    levels: usize,
    rows: usize,
    nulls: usize,
    /// Bytes of the values as encoded (estimated for encodings other than PLAIN).
    value_bytes: usize,
    /// Bytes of the values PLAIN-encoded.
    plain_bytes: usize,
    /// While the first page of a chunk is dictionary-encoded: the indices and the
    /// dictionary entries before each batch of values added, for its trial.
    marks: Vec<(usize, usize)>,
    /// Whether the dictionary had its trial within the page.
    tried: bool,
    /// A bit per dictionary entry: whether the page's statistics have taken it in.
    seen: Vec<u64>,
    stats: Accumulator,
    def_histogram: Vec<i64>,
    rep_histogram: Vec<i64>,
    byte_array_bytes: i64,
}

impl PageBuffer {
    fn new(column: &ColumnDescriptor) -> Self {
        Self {
            def: Vec::new(),
            rep: Vec::new(),
            values: ColumnValues::new(column.physical_type, column.type_length),
            indices: Vec::new(),
            levels: 0,
            rows: 0,
            nulls: 0,
            value_bytes: 0,
            plain_bytes: 0,
            marks: Vec::new(),
            tried: false,
            seen: Vec::new(),
            stats: Accumulator::default(),
            def_histogram: vec![0; usize::from(column.max_def_level) + 1],
            rep_histogram: vec![0; usize::from(column.max_rep_level) + 1],
            byte_array_bytes: 0,
        }
    }

    fn clear(&mut self) {
        self.def.clear();
        self.rep.clear();
        self.values.clear();
        self.indices.clear();
        self.levels = 0;
        self.rows = 0;
        self.nulls = 0;
        self.value_bytes = 0;
        self.plain_bytes = 0;
        self.marks.clear();
        self.tried = false;
        self.seen.fill(0);
        self.stats = Accumulator::default();
        self.def_histogram.fill(0);
        self.rep_histogram.fill(0);
        self.byte_array_bytes = 0;
    }
}

/// An entry of the column index, per data page.
#[derive(Debug, Clone)]
struct IndexEntry {
    /// The bounds (truncated), `None` for a page of nulls only.
    bounds: Option<(Vec<u8>, Vec<u8>)>,
    /// The typed bounds, for the boundary order.
    typed: Option<(Bound, Bound)>,
    null_count: i64,
    nan_count: i64,
    /// Whether the page has values, all NaN (then no column index may be written).
    only_nan: bool,
    def_histogram: Vec<i64>,
    rep_histogram: Vec<i64>,
}

/// A written data page, for the offset index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PageSpan {
    /// The page's offset in the chunk.
    pub offset: u64,
    /// Its size, header included.
    pub size: u32,
    pub first_row: u64,
    pub byte_array_bytes: i64,
}

/// A column chunk, encoded: its pages (dictionary page first), each header and body as
/// stored, and everything its metadata, indexes and Bloom filter say.
pub(crate) struct FinishedChunk {
    pub pages_bytes: Vec<Vec<u8>>,
    /// The bytes of all pages.
    pub len: u64,
    /// The offset of the first data page in the chunk (after the dictionary page).
    pub data_offset: u64,
    pub has_dictionary: bool,
    pub num_values: u64,
    pub uncompressed_size: u64,
    pub encodings: Vec<Encoding>,
    pub encoding_stats: Vec<thrift::PageEncodingStats>,
    pub statistics: Option<thrift::Statistics<'static>>,
    pub size_statistics: Option<thrift::SizeStatistics>,
    pub pages: Vec<PageSpan>,
    pub column_index: Option<thrift::ColumnIndex<'static>>,
    pub bloom_filter: Option<Sbbf>,
}

/// The options of a column writer that are not per column.
#[derive(Debug, Clone)]
#[allow(clippy::struct_excessive_bools)] // independent switches of the options
struct Shared {
    page_bytes: usize,
    page_rows: usize,
    page_version: PageVersion,
    bit_packed_levels: bool,
    legacy_dictionary: bool,
    dictionary_page_bytes: usize,
    dictionary_trial: bool,
    truncate_length: Option<usize>,
    distinct_count: bool,
    size_statistics: bool,
    crc: bool,
}

/// Writes the column chunks of one leaf column, one row group at a time.
pub(crate) struct ColumnWriter {
    column: ColumnDescriptor,
    ordinal: usize,
    settings: ColumnSettings,
    shared: Shared,
    order: Order,
    /// Whether bounds are text, truncated at characters.
    text: bool,
    page: PageBuffer,
    /// The dictionary, while values are dictionary-encoded.
    dictionary: Option<Dictionary>,
    /// The dictionary page, stored when the dictionary filled up.
    dictionary_page: Option<Vec<u8>>,
    /// A dictionary given up in this chunk, emptied for the next one.
    spare_dictionary: Option<Dictionary>,
    /// The data pages written, each its header and body as stored (one allocation of
    /// its exact size each: no slack of a growing buffer).
    data: Vec<Vec<u8>>,
    /// The bytes of `data`.
    data_len: usize,
    dictionary_pages: usize,
    pages: Vec<PageSpan>,
    index: Vec<IndexEntry>,
    encoding_stats: BTreeMap<(i32, i32), i32>,
    num_values: u64,
    rows: u64,
    uncompressed: u64,
    stats: Accumulator,
    def_histogram: Vec<i64>,
    rep_histogram: Vec<i64>,
    byte_array_bytes: i64,
    bloom: Option<Bloom>,
    sealer: Sealer,
}

/// Turns encoded pages into stored ones: compressed, encrypted, checksummed, behind their
/// header.
struct Sealer {
    compressor: Compressor,
    codec: Codec,
    crc: bool,
    /// Whether page headers give the size before encryption (as DuckDB writes them).
    size_before_encryption: bool,
    /// The page being stored, as encoded.
    body: Vec<u8>,
    compressed: Vec<u8>,
    encrypted: Vec<u8>,
    header: Vec<u8>,
    /// Buffers of pages written out, for the next pages: fresh memory for each page
    /// would be faulted in again for each row group (a third of the time of a write).
    spare: Vec<Vec<u8>>,
}

/// The cipher of a page, and the modules of its header and body.
type PageModules<'c, 'a> = Option<(&'c Cipher<'a>, Module, Module)>;

impl Sealer {
    /// Stores the page in `body` (its first `raw` bytes, the levels of a v2 page, left
    /// uncompressed): compresses and encrypts it, and sets `header`'s sizes and CRC. Gives
    /// the header and page as stored, and the bytes they take uncompressed.
    fn store(
        &mut self,
        raw: usize,
        header: &mut thrift::PageHeader<'_>,
        modules: PageModules<'_, '_>,
    ) -> Result<(Vec<u8>, u64)> {
        let (levels, values) = self.body.split_at(raw.min(self.body.len()));
        self.compressed.clear();
        self.compressed.extend_from_slice(levels);
        if self.codec == Codec::Uncompressed {
            self.compressed.extend_from_slice(values);
        } else {
            self.compressor
                .compress(values, &mut self.compressed)
                .map_err(|source| ErrorKind::Compress { source })?;
        }
        let stored = match modules {
            Some((cipher, _, module)) => {
                self.encrypted.clear();
                cipher.encrypt(module, &self.compressed, &mut self.encrypted)?;
                &self.encrypted
            }
            None => &self.compressed,
        };
        header.uncompressed_page_size = page_size(self.body.len(), "page size")?;
        header.compressed_page_size = if self.size_before_encryption {
            page_size(self.compressed.len(), "page size")?
        } else {
            page_size(stored.len(), "page size")?
        };
        header.crc = self.crc.then(|| crc32fast::hash(stored).cast_signed());
        self.header.clear();
        header
            .write_to(&mut self.header)
            .map_err(|e| Error::decode("page header", e))?;
        let overhead = parquet_crypto::GCM_MODULE_OVERHEAD.max(parquet_crypto::CTR_MODULE_OVERHEAD);
        let mut out = take_buffer(&mut self.spare, self.header.len() + overhead + stored.len());
        match modules {
            Some((cipher, module, _)) => cipher.encrypt(module, &self.header, &mut out)?,
            None => out.extend_from_slice(&self.header),
        }
        let uncompressed = (out.len() + self.body.len()) as u64;
        out.extend_from_slice(stored);
        Ok((out, uncompressed))
    }
}

/// An empty buffer for `len` bytes: the smallest spare one that holds them, or a new one
/// with an eighth more room (so that it fits the pages of about its size after).
fn take_buffer(spare: &mut Vec<Vec<u8>>, len: usize) -> Vec<u8> {
    let fit = spare
        .iter()
        .enumerate()
        .filter(|(_, b)| b.capacity() >= len)
        .min_by_key(|(_, b)| b.capacity())
        .map(|(i, _)| i);
    match fit {
        Some(i) => {
            let mut buffer = spare.swap_remove(i);
            buffer.clear();
            buffer
        }
        None => Vec::with_capacity(len + len / 8),
    }
}

/// A size or count of a page as a header stores it.
fn page_size(n: usize, what: &'static str) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::limit(what, n as u64, i32::MAX as u64))
}

impl ColumnWriter {
    pub(crate) fn new(
        column: &ColumnDescriptor,
        ordinal: usize,
        options: &WriterOptions,
    ) -> Result<Self> {
        let settings = options
            .settings(column)
            .map_err(|e| e.in_column(&column.path))?;
        let shared = Shared {
            page_bytes: options.page_bytes,
            page_rows: options.page_rows,
            page_version: options.page_version,
            bit_packed_levels: options.bit_packed_levels,
            legacy_dictionary: options.legacy_dictionary,
            dictionary_page_bytes: options.dictionary_page_bytes,
            dictionary_trial: options.dictionary_trial,
            truncate_length: options.truncate_length,
            distinct_count: options.distinct_count,
            size_statistics: options.size_statistics,
            crc: options.crc,
        };
        let bloom = match (&settings.bloom_filter, column.physical_type) {
            (Some(_), PhysicalType::Boolean) | (None, _) => None,
            (Some(b), _) => Some(Bloom::new(b)?),
        };
        let dictionary = settings
            .dictionary
            .then(|| Dictionary::new(column, shared.dictionary_page_bytes))
            .flatten();
        Ok(Self {
            order: Order::of(column),
            text: matches!(
                column.logical_type,
                LogicalType::String | LogicalType::Enum | LogicalType::Json
            ),
            page: PageBuffer::new(column),
            dictionary,
            dictionary_page: None,
            spare_dictionary: None,
            data: Vec::new(),
            data_len: 0,
            dictionary_pages: 0,
            pages: Vec::new(),
            index: Vec::new(),
            encoding_stats: BTreeMap::new(),
            num_values: 0,
            rows: 0,
            uncompressed: 0,
            stats: Accumulator::default(),
            def_histogram: vec![0; usize::from(column.max_def_level) + 1],
            rep_histogram: vec![0; usize::from(column.max_rep_level) + 1],
            byte_array_bytes: 0,
            bloom,
            sealer: Sealer {
                compressor: Compressor::new(settings.compression),
                codec: settings.compression.codec(),
                crc: shared.crc,
                size_before_encryption: options.encryption.as_ref().is_some_and(|e| e.empty_aad),
                body: Vec::new(),
                compressed: Vec::new(),
                encrypted: Vec::new(),
                header: Vec::new(),
                spare: Vec::new(),
            },
            column: column.clone(),
            ordinal,
            settings,
            shared,
        })
    }

    pub(crate) fn column(&self) -> &ColumnDescriptor {
        &self.column
    }

    /// Takes back the pages of a chunk written out: their buffers are the next row
    /// group's (those of the row group before that not reused are dropped).
    pub(crate) fn recycle(&mut self, pages: Vec<Vec<u8>>) {
        self.sealer.spare = pages;
    }

    /// The codec of the column's pages.
    pub(crate) fn codec(&self) -> Codec {
        self.settings.compression.codec()
    }

    /// Bytes this chunk holds so far: pages written, and the page being filled.
    pub(crate) fn buffered_bytes(&self) -> usize {
        self.data_len + self.page_estimate()
    }

    /// Writes `records` records of `batch` from `at`, giving where they end.
    pub(crate) fn write(
        &mut self,
        batch: &ColumnBatch,
        mut at: Position,
        records: usize,
        cipher: Option<&Cipher<'_>>,
    ) -> Result<Position> {
        let mut left = records;
        while left > 0 {
            let room = self.shared.page_rows.saturating_sub(self.page.rows).max(1);
            let take = left.min(MINI_BATCH).min(room);
            let end = self.record_end(batch, at, take);
            self.append(batch, at, end, take, cipher)?;
            at = end;
            left -= take;
            if self.on_trial() && !self.page.tried && self.page.indices.len() >= TRIAL_VALUES {
                self.page.tried = true;
                if self.dictionary_fails() {
                    self.drop_dictionary()?;
                }
            }
            if self.page.rows >= self.shared.page_rows
                || self.page_estimate() >= self.shared.page_bytes
            {
                self.flush_page(cipher)?;
            }
        }
        Ok(at)
    }

    /// Where `records` records from `at` end.
    fn record_end(&self, batch: &ColumnBatch, at: Position, records: usize) -> Position {
        let max_def = self.column.max_def_level;
        let level = if self.column.max_rep_level == 0 {
            at.level + records
        } else {
            record_end(batch.rep_levels(), at.level, records)
        };
        let values = if max_def == 0 {
            level - at.level
        } else {
            slice(batch.def_levels(), at.level..level)
                .iter()
                .filter(|&&d| d == max_def)
                .count()
        };
        Position {
            level,
            value: at.value + values,
        }
    }

    /// Adds the levels and values between `from` and `to` (`records` records) to the page.
    fn append(
        &mut self,
        batch: &ColumnBatch,
        from: Position,
        to: Position,
        records: usize,
        cipher: Option<&Cipher<'_>>,
    ) -> Result<()> {
        let levels = from.level..to.level;
        let values = from.value..to.value;
        let values_src = batch.values();
        let first_index = self.page.indices.len();
        if let Some(dictionary) = &mut self.dictionary {
            let before = self.page.indices.len();
            if self.dictionary_pages == 0 && self.shared.dictionary_trial {
                self.page.marks.push((before, dictionary.len()));
            }
            if !dictionary.intern(values_src, values.clone(), &mut self.page.indices) {
                // The dictionary is full: the page so far keeps its indices; these values
                // and all after them are written in the column's encoding. Entries the
                // failed batch added stay, unused, within the limit. The dictionary page
                // is stored now, and the dictionary (its hash table too) freed.
                self.page.indices.truncate(before);
                self.flush_page(cipher)?;
                if self.dictionary_pages > 0 {
                    self.dictionary_page = Some(self.dictionary_page(cipher)?);
                }
                self.spare_dictionary = self.dictionary.take();
            }
        }
        let dictionary_encoded = self.dictionary.is_some();
        if !dictionary_encoded {
            append_values(&mut self.page.values, values_src, values.clone())?;
        }
        let (plain, byte_array_bytes) = plain_size(values_src, values.clone());
        self.page.plain_bytes += plain;
        self.page.value_bytes = if dictionary_encoded {
            let width = self
                .dictionary
                .as_ref()
                .map_or(0, |d| bit_width(d.len() as u64));
            (self.page.indices.len() * usize::from(width)).div_ceil(8)
        } else {
            self.page.value_bytes + plain
        };
        self.page.byte_array_bytes += i64::try_from(byte_array_bytes).unwrap_or(i64::MAX);
        if self.column.max_def_level > 0 {
            let def = slice(batch.def_levels(), levels.clone());
            self.page.def.extend_from_slice(def);
            count_levels(def, &mut self.page.def_histogram);
        }
        if self.column.max_rep_level > 0 {
            let rep = slice(batch.rep_levels(), levels.clone());
            self.page.rep.extend_from_slice(rep);
            count_levels(rep, &mut self.page.rep_histogram);
        }
        self.page.levels += levels.len();
        self.page.nulls += levels.len() - values.len();
        self.page.rows += records;
        if self.settings.statistics != StatisticsLevel::None {
            // Byte arrays of a dictionary-encoded page bounded by their entries, each
            // compared once a page.
            let by_entries = self.dictionary.as_ref().is_some_and(|d| {
                d.bound_entries(
                    self.page.indices.get(first_index..).unwrap_or_default(),
                    &mut self.page.seen,
                    &mut self.page.stats,
                    self.order,
                )
            });
            if !by_entries {
                self.page
                    .stats
                    .update(values_src, values.clone(), self.order);
            }
        }
        if let Some(bloom) = &mut self.bloom {
            insert_hashes(bloom, values_src, values);
        }
        Ok(())
    }

    fn page_estimate(&self) -> usize {
        let levels = |max: u16| (self.page.levels * usize::from(bit_width(max.into()))).div_ceil(8);
        levels(self.column.max_def_level)
            + levels(self.column.max_rep_level)
            + self.page.value_bytes
    }

    /// Encodes, compresses and stores the page being filled (nothing if it is empty).
    fn flush_page(&mut self, cipher: Option<&Cipher<'_>>) -> Result<()> {
        if self.page.levels == 0 {
            return Ok(());
        }
        if self.on_trial() && self.dictionary_fails() {
            self.drop_dictionary()?;
        }
        let dictionary_encoded = self.dictionary.is_some();
        let encoding = match (dictionary_encoded, self.shared.legacy_dictionary) {
            (true, true) => Encoding::PlainDictionary,
            (true, false) => Encoding::RleDictionary,
            (false, _) => self.settings.encoding,
        };
        let (bounds, statistics) = self.page_statistics();
        let v2 = self.shared.page_version == PageVersion::V2;
        let level_encoding = self.level_encoding();
        let body = &mut self.sealer.body;
        body.clear();
        let max_rep = self.column.max_rep_level;
        let rep_len = encode_levels(&self.page.rep, max_rep, level_encoding, v2, body)?;
        let max_def = self.column.max_def_level;
        let def_len = encode_levels(&self.page.def, max_def, level_encoding, v2, body)?;
        let levels_len = body.len();
        if let Some(dictionary) = self.dictionary.as_ref().filter(|_| dictionary_encoded) {
            let width = bit_width(dictionary.len().saturating_sub(1) as u64);
            body.push(width);
            parquet_rle::encode(&self.page.indices, width, body);
        } else {
            encode_values(&self.page.values, encoding, body)?;
        }
        let num_values = page_size(self.page.levels, "values in a page")?;
        let mut header = if v2 {
            thrift::PageHeader {
                type_: thrift::PageType::DATA_PAGE_V2,
                data_page_header_v2: Some(thrift::DataPageHeaderV2 {
                    num_values,
                    num_nulls: page_size(self.page.nulls, "nulls in a page")?,
                    num_rows: page_size(self.page.rows, "rows in a page")?,
                    encoding: encoding.to_thrift(),
                    definition_levels_byte_length: page_size(def_len, "levels of a page")?,
                    repetition_levels_byte_length: page_size(rep_len, "levels of a page")?,
                    is_compressed: Some(self.settings.compression.codec() != Codec::Uncompressed),
                    statistics,
                }),
                ..thrift::PageHeader::default()
            }
        } else {
            thrift::PageHeader {
                type_: thrift::PageType::DATA_PAGE,
                data_page_header: Some(thrift::DataPageHeader {
                    num_values,
                    encoding: encoding.to_thrift(),
                    definition_level_encoding: level_encoding.to_thrift(),
                    repetition_level_encoding: level_encoding.to_thrift(),
                    statistics,
                }),
                ..thrift::PageHeader::default()
            }
        };
        let modules = cipher.map(|c| {
            let (row_group, column, page) = (c.row_group, self.ordinal, self.pages.len());
            (
                c,
                Module::DataPageHeader {
                    row_group,
                    column,
                    page,
                },
                Module::DataPage {
                    row_group,
                    column,
                    page,
                },
            )
        });
        let raw = if v2 { levels_len } else { 0 };
        let (page, uncompressed) = self.sealer.store(raw, &mut header, modules)?;
        self.uncompressed += uncompressed;
        *self
            .encoding_stats
            .entry((header.type_.0, encoding.to_thrift().0))
            .or_default() += 1;
        self.pages.push(PageSpan {
            offset: self.data_len as u64,
            size: page_size(page.len(), "page size")?.cast_unsigned(),
            first_row: self.rows,
            byte_array_bytes: self.page.byte_array_bytes,
        });
        self.data_len += page.len();
        self.data.push(page);
        self.index.push(bounds);
        self.end_page(dictionary_encoded);
        Ok(())
    }

    /// Whether the dictionary is on trial: the chunk's first page is being filled with
    /// its indices.
    fn on_trial(&self) -> bool {
        self.shared.dictionary_trial && self.dictionary_pages == 0 && self.dictionary.is_some()
    }

    /// Whether the dictionary of the chunk's first page, when it ends or has
    /// [`TRIAL_VALUES`] values, does not pay
    /// for itself (see [`WriterOptions::with_dictionary_trial`]): its page and the page's
    /// indices take as many bytes as the values PLAIN, and nine in ten values of the
    /// page's second half were new entries (a dictionary whose values repeat later, as a
    /// column of some thousands of distinct values does, is kept: it pays over the chunk).
    fn dictionary_fails(&self) -> bool {
        let Some(dictionary) = &self.dictionary else {
            return false;
        };
        let values = self.page.indices.len();
        let entries = dictionary.len();
        if values < MINI_BATCH {
            return false;
        }
        let width = usize::from(bit_width(entries.saturating_sub(1) as u64));
        let index_bytes = (values * width).div_ceil(8);
        if dictionary.page_len() + index_bytes < self.page.plain_bytes {
            return false;
        }
        // The second half: from the last batch that started in the first.
        let (from, entries_before) = self
            .page
            .marks
            .iter()
            .rev()
            .find(|&&(at, _)| at * 2 <= values)
            .copied()
            .unwrap_or_default();
        let (later, new) = (values - from, entries - entries_before);
        new.saturating_mul(10) >= later.saturating_mul(9)
    }

    /// Turns the page being filled from dictionary indices into values, and drops the
    /// dictionary for the rest of the chunk (before any page used it): the page goes on
    /// in the column's encoding.
    fn drop_dictionary(&mut self) -> Result<()> {
        let Some(dictionary) = self.dictionary.take() else {
            return Ok(());
        };
        self.page.values.clear();
        if !dictionary.gather(&self.page.indices, &mut self.page.values) {
            return Err(Error::input("a dictionary index past its entries"));
        }
        self.page.indices.clear();
        self.page.value_bytes = self.page.plain_bytes;
        self.spare_dictionary = Some(dictionary);
        Ok(())
    }

    /// Adds the counts of the page just written to the chunk's, and empties the page.
    fn end_page(&mut self, dictionary_encoded: bool) {
        self.num_values += self.page.levels as u64;
        self.rows += self.page.rows as u64;
        self.stats.merge(&self.page.stats, self.order);
        self.stats.null_count += self.page.nulls as u64;
        for (total, page) in self.def_histogram.iter_mut().zip(&self.page.def_histogram) {
            *total += page;
        }
        for (total, page) in self.rep_histogram.iter_mut().zip(&self.page.rep_histogram) {
            *total += page;
        }
        self.byte_array_bytes += self.page.byte_array_bytes;
        if dictionary_encoded {
            self.dictionary_pages += 1;
        }
        self.page.clear();
    }

    /// The encoding of the levels of data pages.
    fn level_encoding(&self) -> Encoding {
        if self.shared.bit_packed_levels && self.shared.page_version == PageVersion::V1 {
            Encoding::BitPacked
        } else {
            Encoding::Rle
        }
    }

    /// The page's column index entry, and the statistics for its header.
    fn page_statistics(&self) -> (IndexEntry, Option<thrift::Statistics<'static>>) {
        let mut stats = self.page.stats.clone();
        stats.null_count = self.page.nulls as u64;
        let typed = stats.signed_zero_bounds(self.order);
        let values = self.page.levels - self.page.nulls;
        let entry = IndexEntry {
            bounds: typed.as_ref().map(|(min, max)| {
                let (min, _) = self.truncated_min(min);
                let max = self
                    .truncated_max(max)
                    .map_or_else(|| max.encode(), |(m, _)| m);
                (min, max)
            }),
            typed: typed.clone(),
            null_count: i64::try_from(stats.null_count).unwrap_or(i64::MAX),
            nan_count: i64::try_from(stats.nan_count).unwrap_or(i64::MAX),
            only_nan: values > 0 && typed.is_none(),
            def_histogram: self.page.def_histogram.clone(),
            rep_histogram: self.page.rep_histogram.clone(),
        };
        let header = (self.settings.statistics == StatisticsLevel::Page)
            .then(|| self.thrift_statistics(&stats, None));
        (entry, header)
    }

    /// The length bounds are truncated to: only BYTE_ARRAY values ordered as bytes are
    /// (a bound must be a value of the column's type, so a FIXED_LEN_BYTE_ARRAY keeps
    /// its length).
    fn truncate_length(&self) -> Option<usize> {
        self.shared.truncate_length.filter(|_| {
            self.order == Order::Bytes && self.column.physical_type == PhysicalType::ByteArray
        })
    }

    fn truncated_min(&self, min: &Bound) -> (Vec<u8>, bool) {
        match self.truncate_length() {
            Some(length) => truncate_min(min.encode(), length, self.text),
            None => (min.encode(), true),
        }
    }

    fn truncated_max(&self, max: &Bound) -> Option<(Vec<u8>, bool)> {
        match self.truncate_length() {
            Some(length) => truncate_max(max.encode(), length, self.text),
            None => Some((max.encode(), true)),
        }
    }

    /// Statistics as parquet.thrift stores them.
    fn thrift_statistics(
        &self,
        stats: &Accumulator,
        distinct_count: Option<u64>,
    ) -> thrift::Statistics<'static> {
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let mut out = thrift::Statistics {
            null_count: Some(count(stats.null_count)),
            distinct_count: distinct_count.map(count),
            nan_count: self.order.has_nan().then(|| count(stats.nan_count)),
            ..thrift::Statistics::default()
        };
        if let Some((min, max)) = stats.signed_zero_bounds(self.order) {
            let (min, min_exact) = self.truncated_min(&min);
            out.min_value = Some(min.into());
            out.is_min_value_exact = Some(min_exact);
            if let Some((max, max_exact)) = self.truncated_max(&max) {
                out.max_value = Some(max.into());
                out.is_max_value_exact = Some(max_exact);
            }
            // The deprecated fields are signed: written only where that is the order.
            if matches!(self.order, Order::Signed | Order::Float) {
                out.min.clone_from(&out.min_value);
                out.max.clone_from(&out.max_value);
            }
        }
        out
    }

    /// Ends the chunk: the last page, the dictionary page, the statistics and indexes.
    /// The writer is ready for the next row group's chunk.
    pub(crate) fn finish(&mut self, cipher: Option<&Cipher<'_>>) -> Result<FinishedChunk> {
        self.flush_page(cipher)?;
        let mut pages_bytes = Vec::with_capacity(self.data.len() + 1);
        let mut encodings = Vec::new();
        let has_dictionary = self.dictionary_pages > 0;
        if has_dictionary {
            let page = match self.dictionary_page.take() {
                Some(page) => page,
                None => self.dictionary_page(cipher)?,
            };
            pages_bytes.push(page);
            encodings.push(if self.shared.legacy_dictionary {
                Encoding::PlainDictionary
            } else {
                Encoding::Plain
            });
        }
        let data_offset = pages_bytes.first().map_or(0, Vec::len) as u64;
        let len = data_offset + self.data_len as u64;
        pages_bytes.append(&mut self.data);
        self.data_len = 0;
        for &(_, encoding) in self.encoding_stats.keys() {
            let encoding = Encoding::from_thrift(thrift::Encoding(encoding));
            if !encodings.contains(&encoding) {
                encodings.push(encoding);
            }
        }
        let level_encoding = self.level_encoding();
        if !encodings.contains(&level_encoding) {
            encodings.push(level_encoding);
        }
        let distinct = self
            .dictionary
            .as_ref()
            .filter(|d| self.shared.distinct_count && d.counts_distinct())
            .map(|d| d.len() as u64);
        let statistics = (self.settings.statistics != StatisticsLevel::None)
            .then(|| self.thrift_statistics(&self.stats, distinct));
        let size_statistics = self.shared.size_statistics.then(|| thrift::SizeStatistics {
            unencoded_byte_array_data_bytes: (self.column.physical_type == PhysicalType::ByteArray)
                .then_some(self.byte_array_bytes),
            repetition_level_histogram: (self.column.max_rep_level > 0)
                .then(|| self.rep_histogram.iter().copied().collect()),
            definition_level_histogram: (self.column.max_def_level > 0)
                .then(|| self.def_histogram.iter().copied().collect()),
        });
        let column_index = self.column_index();
        let mut encoding_stats = Vec::new();
        if has_dictionary {
            encoding_stats.push(thrift::PageEncodingStats {
                page_type: thrift::PageType::DICTIONARY_PAGE,
                encoding: if self.shared.legacy_dictionary {
                    thrift::Encoding::PLAIN_DICTIONARY
                } else {
                    thrift::Encoding::PLAIN
                },
                count: 1,
            });
        }
        encoding_stats.extend(self.encoding_stats.iter().map(
            |(&(page_type, encoding), &count)| thrift::PageEncodingStats {
                page_type: thrift::PageType(page_type),
                encoding: thrift::Encoding(encoding),
                count,
            },
        ));
        let bloom_filter = match self.bloom.take() {
            Some(bloom) => {
                let filter = bloom.finish()?;
                self.bloom = self
                    .settings
                    .bloom_filter
                    .as_ref()
                    .map(Bloom::new)
                    .transpose()?;
                Some(filter)
            }
            None => None,
        };
        let finished = FinishedChunk {
            pages_bytes,
            len,
            data_offset,
            has_dictionary,
            num_values: self.num_values,
            uncompressed_size: self.uncompressed,
            encodings,
            encoding_stats,
            statistics,
            size_statistics,
            pages: std::mem::take(&mut self.pages),
            column_index,
            bloom_filter,
        };
        self.reset();
        Ok(finished)
    }

    fn reset(&mut self) {
        self.page.clear();
        if self.dictionary.is_none() {
            self.dictionary = self.spare_dictionary.take();
        }
        if let Some(d) = &mut self.dictionary {
            d.clear();
        } else if self.settings.dictionary {
            self.dictionary = Dictionary::new(&self.column, self.shared.dictionary_page_bytes);
        }
        self.dictionary_pages = 0;
        self.index.clear();
        self.encoding_stats.clear();
        self.num_values = 0;
        self.rows = 0;
        self.uncompressed = 0;
        self.stats = Accumulator::default();
        self.def_histogram.fill(0);
        self.rep_histogram.fill(0);
        self.byte_array_bytes = 0;
    }

    /// The dictionary page, header and body as stored.
    fn dictionary_page(&mut self, cipher: Option<&Cipher<'_>>) -> Result<Vec<u8>> {
        let Some(dictionary) = &self.dictionary else {
            return Ok(Vec::new());
        };
        self.sealer.body.clear();
        dictionary.write_page(&mut self.sealer.body);
        let mut header = thrift::PageHeader {
            type_: thrift::PageType::DICTIONARY_PAGE,
            dictionary_page_header: Some(thrift::DictionaryPageHeader {
                num_values: page_size(dictionary.len(), "dictionary entries")?,
                encoding: if self.shared.legacy_dictionary {
                    thrift::Encoding::PLAIN_DICTIONARY
                } else {
                    thrift::Encoding::PLAIN
                },
                is_sorted: Some(false),
            }),
            ..thrift::PageHeader::default()
        };
        let modules = cipher.map(|c| {
            let (row_group, column) = (c.row_group, self.ordinal);
            (
                c,
                Module::DictionaryPageHeader { row_group, column },
                Module::DictionaryPage { row_group, column },
            )
        });
        let (page, uncompressed) = self.sealer.store(0, &mut header, modules)?;
        self.uncompressed += uncompressed;
        Ok(page)
    }

    /// The column index of the chunk, unless one may not be written (no statistics per
    /// page, no order, a page of NaNs only).
    fn column_index(&self) -> Option<thrift::ColumnIndex<'static>> {
        if !self.settings.column_index
            || self.order == Order::Undefined
            || self.index.iter().any(|e| e.only_nan)
            || self.index.is_empty()
        {
            return None;
        }
        let mut ascending = true;
        let mut descending = true;
        let mut previous: Option<&(Bound, Bound)> = None;
        for bounds in self.index.iter().filter_map(|e| e.typed.as_ref()) {
            if let Some((min, max)) = previous {
                let cmp = |a, b| super::statistics::compare(a, b, self.order);
                ascending &= cmp(min, &bounds.0).is_le() && cmp(max, &bounds.1).is_le();
                descending &= cmp(min, &bounds.0).is_ge() && cmp(max, &bounds.1).is_ge();
            }
            previous = Some(bounds);
        }
        let boundary_order = match (ascending, descending) {
            (true, _) => thrift::BoundaryOrder::ASCENDING,
            (false, true) => thrift::BoundaryOrder::DESCENDING,
            (false, false) => thrift::BoundaryOrder::UNORDERED,
        };
        let histograms = |max: u16, of: fn(&IndexEntry) -> &[i64]| {
            (self.shared.size_statistics && max > 0).then(|| {
                self.index
                    .iter()
                    .flat_map(|e| of(e).iter().copied())
                    .collect()
            })
        };
        Some(thrift::ColumnIndex {
            null_pages: self.index.iter().map(|e| e.bounds.is_none()).collect(),
            min_values: self
                .index
                .iter()
                .map(|e| {
                    e.bounds
                        .as_ref()
                        .map_or_else(Vec::new, |b| b.0.clone())
                        .into()
                })
                .collect(),
            max_values: self
                .index
                .iter()
                .map(|e| {
                    e.bounds
                        .as_ref()
                        .map_or_else(Vec::new, |b| b.1.clone())
                        .into()
                })
                .collect(),
            boundary_order,
            null_counts: Some(self.index.iter().map(|e| e.null_count).collect()),
            repetition_level_histograms: histograms(self.column.max_rep_level, |e| {
                &e.rep_histogram
            }),
            definition_level_histograms: histograms(self.column.max_def_level, |e| {
                &e.def_histogram
            }),
            nan_counts: self
                .order
                .has_nan()
                .then(|| self.index.iter().map(|e| e.nan_count).collect()),
        })
    }
}

/// Where `records` records of repetition levels `rep` from entry `at` end: the entry of
/// the record after them (or the end).
fn record_end(rep: &[u16], at: usize, records: usize) -> usize {
    const CHUNK: usize = 64;
    let rest = rep.get(at..).unwrap_or_default();
    // Whole chunks counted at once while the record after them is further on: a record
    // starts at each level 0, the first at `at` itself.
    let mut seen = 0;
    let mut end = 0;
    for chunk in rest.chunks_exact(CHUNK) {
        let starts = chunk.iter().filter(|&&r| r == 0).count();
        if seen + starts > records {
            break;
        }
        seen += starts;
        end += CHUNK;
    }
    for &r in rest.get(end..).unwrap_or_default() {
        if r == 0 {
            if seen == records {
                break;
            }
            seen += 1;
        }
        end += 1;
    }
    at + end
}

/// Adds the number of entries of each level in `levels` to `histogram` (one counter per
/// level; levels past its end are not counted).
fn count_levels(levels: &[u16], histogram: &mut [i64]) {
    if histogram.len() <= 8 {
        // A pass per level, which the compiler vectorises, rather than one increment of
        // a counter per entry, each waiting on the last.
        for (level, h) in (0u16..).zip(histogram.iter_mut()) {
            let n = levels.iter().filter(|&&l| l == level).count();
            *h += i64::try_from(n).unwrap_or(i64::MAX);
        }
    } else {
        for &l in levels {
            if let Some(h) = histogram.get_mut(usize::from(l)) {
                *h += 1;
            }
        }
    }
}

/// Appends levels in `encoding`: RLE hybrid (with a 4-byte length in a v1 page), or
/// BIT_PACKED; nothing for a column whose largest level is 0. Gives the bytes written.
fn encode_levels(
    levels: &[u16],
    max: u16,
    encoding: Encoding,
    v2: bool,
    out: &mut Vec<u8>,
) -> Result<usize> {
    if max == 0 {
        return Ok(0);
    }
    let start = out.len();
    let width = bit_width(max.into());
    match encoding {
        Encoding::BitPacked => parquet_bitpack::bit_packed::encode(width, levels, out),
        _ if v2 => parquet_rle::encode(levels, width, out),
        _ => parquet_rle::encode_length_prefixed(levels, width, out)
            .map_err(|e| Error::input(format!("levels of a page: {e}")))?,
    }
    Ok(out.len() - start)
}

/// Appends `values` in `encoding` (checked to fit their type when the writer was made).
fn encode_values(values: &ColumnValues, encoding: Encoding, out: &mut Vec<u8>) -> Result<()> {
    use parquet_delta::{binary_packed, byte_array, length_byte_array};
    let params = binary_packed::Params::default();
    let too_long = |e| Error::input(format!("a value of a page: {e}"));
    match (encoding, values) {
        (Encoding::Plain, ColumnValues::Boolean(v)) => parquet_plain::encode(v, out),
        (Encoding::Plain, ColumnValues::Int32(v)) => parquet_plain::encode(v, out),
        (Encoding::Plain, ColumnValues::Int64(v)) => parquet_plain::encode(v, out),
        (Encoding::Plain, ColumnValues::Int96(v)) => parquet_plain::encode(v, out),
        (Encoding::Plain, ColumnValues::Float(v)) => parquet_plain::encode(v, out),
        (Encoding::Plain, ColumnValues::Double(v)) => parquet_plain::encode(v, out),
        (Encoding::Plain, ColumnValues::ByteArray(v)) => {
            parquet_plain::byte_array::encode_batch(v, out);
        }
        (Encoding::Plain, ColumnValues::FixedLenByteArray(v)) => {
            parquet_plain::fixed_len_byte_array::encode(v, out);
        }
        (Encoding::Rle, ColumnValues::Boolean(v)) => {
            parquet_rle::encode_length_prefixed(v, 1, out)
                .map_err(|e| Error::input(format!("values of a page: {e}")))?;
        }
        (Encoding::DeltaBinaryPacked, ColumnValues::Int32(v)) => {
            binary_packed::encode(v, params, out);
        }
        (Encoding::DeltaBinaryPacked, ColumnValues::Int64(v)) => {
            // Blocks of 256 in miniblocks of 64, as arrow-rs writes INT64: a miniblock's
            // bit width is paid for by 64 deltas, not 32.
            let params = binary_packed::Params::new(256, 4).unwrap_or(params);
            binary_packed::encode(v, params, out);
        }
        (Encoding::DeltaLengthByteArray, ColumnValues::ByteArray(v)) => {
            length_byte_array::encode_batch(v, params, out).map_err(too_long)?;
        }
        (Encoding::DeltaByteArray, ColumnValues::ByteArray(v)) => {
            byte_array::encode_batch(v, params, out).map_err(too_long)?;
        }
        (Encoding::DeltaByteArray, ColumnValues::FixedLenByteArray(v)) => {
            byte_array::encode_fixed(v, params, out).map_err(too_long)?;
        }
        (Encoding::ByteStreamSplit, ColumnValues::Int32(v)) => {
            parquet_byte_stream_split::encode(v, out);
        }
        (Encoding::ByteStreamSplit, ColumnValues::Int64(v)) => {
            parquet_byte_stream_split::encode(v, out);
        }
        (Encoding::ByteStreamSplit, ColumnValues::Float(v)) => {
            parquet_byte_stream_split::encode(v, out);
        }
        (Encoding::ByteStreamSplit, ColumnValues::Double(v)) => {
            parquet_byte_stream_split::encode(v, out);
        }
        (Encoding::ByteStreamSplit, ColumnValues::FixedLenByteArray(v)) => {
            parquet_byte_stream_split::encode_batch(v, out);
        }
        (encoding, values) => {
            return Err(Error::input(format!(
                "{} does not encode {} values",
                encoding.name(),
                values.physical_type()
            )));
        }
    }
    Ok(())
}

/// The offset index of a chunk whose data pages are `pages`, the first starting at `base`.
pub(crate) fn offset_index(
    pages: &[PageSpan],
    base: u64,
    byte_arrays: bool,
) -> thrift::OffsetIndex {
    thrift::OffsetIndex {
        page_locations: pages
            .iter()
            .map(|p| thrift::PageLocation {
                offset: (base + p.offset).cast_signed(),
                compressed_page_size: p.size.cast_signed(),
                first_row_index: p.first_row.cast_signed(),
            })
            .collect(),
        unencoded_byte_array_data_bytes: byte_arrays
            .then(|| pages.iter().map(|p| p.byte_array_bytes).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::{count_levels, record_end};

    /// Levels of records of 0 to 69 entries, so that runs cross chunks of 64.
    fn levels() -> Vec<u16> {
        let mut rep = Vec::new();
        for record in 0..200u16 {
            rep.push(0);
            rep.extend((0..(record * 37) % 70).map(|i| 1 + (i % 3)));
        }
        rep
    }

    #[test]
    fn record_end_counts_records_by_their_starts() {
        let rep = levels();
        let starts: Vec<usize> = (0..rep.len()).filter(|&i| rep[i] == 0).collect();
        for (k, &at) in starts.iter().enumerate() {
            for records in [0, 1, 2, 5, 63, 64, 65, 199, 500] {
                let expected = starts.get(k + records).copied().unwrap_or(rep.len());
                assert_eq!(record_end(&rep, at, records), expected, "{at} {records}");
            }
        }
        assert_eq!(record_end(&rep, rep.len(), 3), rep.len());
    }

    #[test]
    fn count_levels_counts_each_level() {
        let rep = levels();
        for max in [3usize, 12] {
            let mut histogram = vec![1; max + 1];
            count_levels(&rep, &mut histogram);
            for (level, &h) in histogram.iter().enumerate() {
                let n = rep.iter().filter(|&&l| usize::from(l) == level).count();
                assert_eq!(h, 1 + i64::try_from(n).unwrap());
            }
        }
    }
}
