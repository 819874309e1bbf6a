//! Recovery of files that lost their footer: a writer that died before
//! [`finish`](crate::FileWriter::finish), a partial upload, a damaged tail.
//!
//! [`recover`] finds every row group that can be proven whole and gives a [`Recovery`]:
//! a footer for them, to be written after the bytes of the source that hold them
//! ([`Recovery::write_to`]). The row groups come from, in order of preference:
//!
//! 1. the file's own footer, when it reads (the file is then intact, unless a row group
//!    does not decode);
//! 2. the last checkpoint that reads: a footer of the row groups so far that a writer
//!    with [`WriterOptions::with_checkpoint_every`](crate::WriterOptions::with_checkpoint_every)
//!    writes between row groups, framed as the final footer is;
//! 3. a scan of the page headers after it (or after the magic bytes, given the schema by
//!    [`RecoverOptions::with_schema`] or [`RecoverOptions::with_like`]): every page is
//!    decoded as the column it would belong to, its checksum checked when it has one,
//!    and pages are grouped into column chunks of the schema's columns, in order, whose
//!    records agree in number. A row group is kept only when exactly one grouping fits
//!    (or, of several, exactly one has the rows of the row group before it); Bloom
//!    filters and checkpoints between row groups are passed over.
//!
//! Every row group kept is then read back whole through the footer built for it; the
//! first that does not decode ends the recovery. Nothing is invented: the row groups
//! kept are byte for byte the source's, and what follows the last of them is reported
//! ([`Recovery::dropped`]). Statistics, page indexes and Bloom filters of scanned row
//! groups are not rebuilt.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use parquet_file::recover::{RecoverOptions, recover};
//! use parquet_file::{ColumnBatch, ColumnValues, FileReader, FileWriter, Schema, WriterOptions};
//!
//! let schema = Schema::parse("message m { required int64 id; }")?;
//! let options = WriterOptions::new().with_row_group_rows(100).with_checkpoint_every(2);
//! let mut writer = FileWriter::new(Vec::new(), schema.clone(), options)?;
//! let column = schema.column(0)?;
//! let ids = (0..500_i64).collect::<Vec<_>>();
//! let ids = ColumnBatch::try_new(column, ColumnValues::Int64(ids), vec![], vec![])?;
//! writer.write_batches(&[ids])?;
//! writer.flush_row_group()?;
//! // The writer dies here, before its footer: row groups 1 to 4 are in the checkpoint
//! // after row group 4, and row group 5 is found by scanning its pages.
//! let file = writer.into_inner();
//!
//! let recovery = recover(&file, &RecoverOptions::new())?;
//! assert_eq!(recovery.metadata().num_rows(), 500);
//! assert!(recovery.dropped().is_none());
//! let mut out = Vec::new();
//! recovery.write_to(&file, &mut out)?;
//! assert_eq!(FileReader::open(out)?.metadata().num_rows(), 500);
//! # Ok(()) }
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use bytes::Bytes;
use parquet_compress::Codec;
use parquet_thrift as thrift;

use crate::column::{BYTE_ARRAY_RECORDS, ColumnBatch, ColumnChunkReader, holds_byte_arrays};
use crate::error::{Error, ErrorKind, Result};
use crate::io::{Sink, Source, Spliced};
use crate::limits::Limits;
use crate::metadata::{Encoding, FileMetaData, MAGIC, MAGIC_ENCRYPTED};
use crate::page::{ChunkInfo, PageHeader, PageKind, PageReader};
use crate::read::{FileReader, ReadOptions};
use crate::schema::{ColumnDescriptor, Schema};

/// How [`recover`] reads a file whose footer is lost.
#[derive(Debug, Clone, Default)]
pub struct RecoverOptions {
    schema: Option<Arc<Schema>>,
    like: Option<Arc<FileMetaData>>,
    limits: Limits,
}

impl RecoverOptions {
    /// No schema, default limits: only a footer or checkpoint gives the schema.
    pub fn new() -> Self {
        Self::default()
    }

    /// The schema the file was written with, for a scan from the start (a file without a
    /// footer or checkpoint that reads).
    #[must_use]
    pub fn with_schema(mut self, schema: impl Into<Arc<Schema>>) -> Self {
        self.schema = Some(schema.into());
        self
    }

    /// The metadata of a file written as this one was (by the same writer, with the same
    /// schema): its schema, `created_by`, key-value metadata and codecs.
    #[must_use]
    pub fn with_like(mut self, metadata: Arc<FileMetaData>) -> Self {
        self.like = Some(metadata);
        self
    }

    /// The limits pages and footers are read with.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    fn read_options(&self) -> ReadOptions {
        ReadOptions::new().with_limits(self.limits)
    }
}

/// Where a row group kept was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// In the file's footer.
    Footer,
    /// In the checkpoint footer at this offset.
    Checkpoint(u64),
    /// By scanning its pages.
    Scan,
}

/// Why the bytes after the last row group kept were not kept.
#[derive(Debug)]
#[non_exhaustive]
pub enum DropReason {
    /// The file ends inside the page at this offset.
    EndsInPage(u64),
    /// Whole pages that make no whole row group (the start of one the writer did not
    /// finish): `columns` of the schema's `of` columns had a whole column chunk.
    Unfinished {
        /// The pages.
        pages: usize,
        /// The columns with a whole chunk.
        columns: usize,
        /// The schema's columns.
        of: usize,
    },
    /// Pages that group into column chunks in more than one way (or in too many to try).
    Ambiguous {
        /// The pages.
        pages: usize,
    },
    /// Bytes that are no page, Bloom filter or checkpoint: page indexes and a footer that
    /// does not read, or damage.
    Unrecognized,
    /// A row group that does not decode.
    Damaged(Error),
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EndsInPage(offset) => write!(f, "the file ends inside the page at {offset}"),
            Self::Unfinished { pages, columns, of } => write!(
                f,
                "{} making no whole row group ({columns} of {of} column chunks whole)",
                count(*pages, "page")
            ),
            Self::Ambiguous { pages } => write!(
                f,
                "{} grouping into column chunks in more than one way",
                count(*pages, "page")
            ),
            Self::Unrecognized => f.write_str(
                "bytes that are no page, Bloom filter or checkpoint (page indexes and a footer that does not read, or damage)",
            ),
            Self::Damaged(e) => write!(f, "a row group that does not decode: {e}"),
        }
    }
}

/// `n` things, as a phrase: `1 page`, `2 pages`.
fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// What follows the last row group kept.
#[derive(Debug)]
pub struct Dropped {
    /// Where it starts.
    pub offset: u64,
    /// Its length, to the end of the source.
    pub len: u64,
    /// Why it was not kept.
    pub reason: DropReason,
}

/// What [`recover`] found: the row groups kept, with a footer for them.
#[derive(Debug)]
pub struct Recovery {
    metadata: Arc<FileMetaData>,
    found: Vec<Found>,
    data_end: u64,
    /// The footer, its length and the magic bytes.
    tail: Bytes,
    dropped: Option<Dropped>,
    intact: bool,
}

impl Recovery {
    /// Whether the source's own footer reads and every row group decodes: the recovered
    /// file is the source, byte for byte.
    pub fn is_intact(&self) -> bool {
        self.intact
    }

    /// The metadata of the recovered file.
    pub fn metadata(&self) -> &Arc<FileMetaData> {
        &self.metadata
    }

    /// Where each row group kept was found.
    pub fn found(&self) -> &[Found] {
        &self.found
    }

    /// What follows the last row group kept, and why it was not kept; `None` when
    /// nothing does.
    pub fn dropped(&self) -> Option<&Dropped> {
        self.dropped.as_ref()
    }

    /// The bytes of the source the recovered file starts with.
    pub fn data_end(&self) -> u64 {
        self.data_end
    }

    /// The length of the recovered file.
    pub fn len(&self) -> u64 {
        self.data_end + self.tail.len() as u64
    }

    /// Whether the recovered file is empty (never: it has magic bytes and a footer).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Writes the recovered file to `sink`: the first [`data_end`](Self::data_end) bytes
    /// of `source` (the source `recover` was given), then the footer. Does not finish
    /// the sink. Gives the bytes written.
    ///
    /// # Errors
    ///
    /// A read error of the source (or one shorter than it was), or the sink's error.
    pub fn write_to<S: Source, K: Sink>(&self, source: &S, sink: &mut K) -> Result<u64> {
        let spliced = Spliced::new(source, self.data_end, self.tail.clone());
        Ok(spliced.write_to(sink)?)
    }
}

/// Finds every row group of `source` that can be proven whole (see the [module
/// docs](self)).
///
/// # Errors
///
/// A source that does not start with `PAR1` ([`ErrorKind::NotParquet`]); an encrypted
/// file ([`ErrorKind::Unsupported`]); no footer or checkpoint that reads and no schema
/// given ([`ErrorKind::SchemaNeeded`]); a read error of the source.
pub fn recover<S: Source>(source: &S, options: &RecoverOptions) -> Result<Recovery> {
    let file_len = source.len()?;
    let head = source.read_at(0, 4.min(usize::try_from(file_len).unwrap_or(4)))?;
    if head.as_ref() == MAGIC_ENCRYPTED.as_slice() {
        return Err(Error::unsupported(
            "recovering a file with an encrypted footer",
            None,
        ));
    }
    if head.as_ref() != MAGIC.as_slice() {
        let mut found = [0; 4];
        for (f, b) in found.iter_mut().zip(head.iter()) {
            *f = *b;
        }
        return Err(ErrorKind::NotParquet {
            what: "the first 4 bytes",
            found,
        }
        .into());
    }
    let read = options.read_options();
    if let Ok(reader) = FileReader::with_options(source, read.clone()) {
        let metadata = Arc::clone(reader.metadata());
        let base = Base {
            found: Found::Footer,
            data_end: reader.data_end(),
            metadata,
        };
        return assemble(source, options, file_len, Some(&base), Scanned::default());
    }
    // The last checkpoint that reads (the file's footer, which did not, is passed over).
    let footers = find_footers(source, file_len, &options.limits)?;
    let base = footers.iter().rev().find_map(|footer| {
        let prefix = Spliced::new(source, footer.end, Bytes::new());
        let reader = FileReader::with_options(prefix, read.clone()).ok()?;
        Some(Base {
            found: Found::Checkpoint(footer.start),
            data_end: footer.start,
            metadata: Arc::clone(reader.metadata()),
        })
    });
    let (schema, start) = match (&base, &options.like, &options.schema) {
        (Some(base), ..) => {
            let end = footers
                .iter()
                .find(|f| Found::Checkpoint(f.start) == base.found)
                .map_or(base.data_end, |f| f.end);
            (Arc::clone(base.metadata.schema()), end)
        }
        (None, Some(like), _) => (Arc::clone(like.schema()), 4),
        (None, None, Some(schema)) => (Arc::clone(schema), 4),
        (None, None, None) => {
            return Err(ErrorKind::SchemaNeeded.into());
        }
    };
    let codecs = base
        .as_ref()
        .map(|b| &b.metadata)
        .or(options.like.as_ref())
        .map_or_else(
            || vec![None; schema.columns().len()],
            |m| codecs_of(m, schema.columns().len()),
        );
    let previous_rows = base
        .as_ref()
        .and_then(|b| b.metadata.row_groups().last())
        .map(crate::RowGroupMetaData::num_rows);
    let mut scan = Scanner {
        source,
        schema: &schema,
        codecs,
        limits: options.limits,
        pages: Vec::new(),
        runs: HashMap::new(),
        budget: 0,
    };
    let scanned = scan.scan(start, file_len, &footers, previous_rows)?;
    assemble(source, options, file_len, base.as_ref(), scanned)
}

/// The footer the recovery starts from.
struct Base {
    found: Found,
    /// Where the footer starts: the end of the data it describes.
    data_end: u64,
    metadata: Arc<FileMetaData>,
}

/// The codec of each column in the last row group of `metadata`.
fn codecs_of(metadata: &FileMetaData, columns: usize) -> Vec<Option<Codec>> {
    let last = metadata.row_groups().len().checked_sub(1);
    (0..columns)
        .map(|c| {
            let g = last?;
            metadata
                .column_chunk_metadata(g, c)
                .ok()
                .map(crate::ColumnChunkMetaData::codec)
        })
        .collect()
}

/// Builds the footer of the row groups found, reads every one back through it, and
/// keeps those before the first that does not decode.
fn assemble<S: Source>(
    source: &S,
    options: &RecoverOptions,
    file_len: u64,
    base: Option<&Base>,
    scanned: Scanned,
) -> Result<Recovery> {
    let Scanned {
        mut groups,
        mut dropped,
    } = scanned;
    let base_groups = base.map_or(0, |b| b.metadata.row_groups().len());
    let mut keep = base_groups + groups.len();
    loop {
        let base_kept = keep.min(base_groups);
        groups.truncate(keep - base_kept);
        let data_end = match (groups.last(), base) {
            (Some(last), _) => last.end,
            (None, Some(b)) if base_kept == base_groups => b.data_end,
            (None, Some(b)) => b
                .metadata
                .row_groups()
                .get(base_kept)
                .and_then(group_start)
                .unwrap_or(b.data_end),
            (None, None) => 4,
        };
        let intact =
            matches!(base, Some(b) if b.found == Found::Footer && base_kept == base_groups);
        let tail = if intact {
            source.read_at(
                data_end,
                usize::try_from(file_len - data_end).unwrap_or(usize::MAX),
            )?
        } else {
            footer(base, base_kept, &groups, options, data_end)?
        };
        let spliced = Spliced::new(source, data_end, tail.clone());
        let reader = FileReader::with_options(&spliced, options.read_options())?;
        let Some((g, error)) = first_damaged(&reader) else {
            let found = (0..base_kept)
                .map(|_| base.map_or(Found::Scan, |b| b.found))
                .chain(groups.iter().map(|_| Found::Scan))
                .collect();
            return Ok(Recovery {
                metadata: Arc::clone(reader.metadata()),
                found,
                data_end,
                tail,
                dropped: if intact { None } else { dropped },
                intact,
            });
        };
        let offset = reader
            .metadata()
            .row_groups()
            .get(g)
            .and_then(group_start)
            .unwrap_or(data_end);
        dropped = Some(Dropped {
            offset,
            len: file_len.saturating_sub(offset),
            reason: DropReason::Damaged(error),
        });
        keep = g;
    }
}

/// The offset of a row group's first page.
fn group_start(group: &crate::RowGroupMetaData) -> Option<u64> {
    group
        .columns()
        .iter()
        .filter_map(|c| c.metadata())
        .map(crate::ColumnChunkMetaData::start)
        .min()
}

/// The first row group of `reader` with a column chunk that does not decode, and why.
fn first_damaged<S: Source>(reader: &FileReader<S>) -> Option<(usize, Error)> {
    let schema = reader.schema();
    for g in 0..reader.num_row_groups() {
        for (c, column) in schema.columns().iter().enumerate() {
            let step = if holds_byte_arrays(column) {
                BYTE_ARRAY_RECORDS
            } else {
                64 * 1024
            };
            let mut batch = ColumnBatch::new(column);
            let result = reader.column_chunk(g, c).and_then(|mut chunk| {
                while chunk.read_records(step, &mut batch)? > 0 {
                    batch.clear();
                }
                Ok(())
            });
            if let Err(e) = result {
                return Some((g, e));
            }
        }
    }
    None
}

/// The footer of the first `base_kept` row groups of `base` and the row groups scanned,
/// followed by its length and the magic bytes.
fn footer(
    base: Option<&Base>,
    base_kept: usize,
    groups: &[ScannedGroup],
    options: &RecoverOptions,
    data_end: u64,
) -> Result<Bytes> {
    let template = base.map(|b| &b.metadata).or(options.like.as_ref());
    let mut file = if let Some(metadata) = template {
        metadata.to_thrift()
    } else {
        let Some(schema) = options.schema.as_deref() else {
            return Err(Error::input("a recovery without a schema"));
        };
        thrift::FileMetaData {
            version: 1,
            schema: schema.to_elements(),
            num_rows: 0,
            row_groups: Vec::new(),
            key_value_metadata: None,
            created_by: None,
            column_orders: None,
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        }
    };
    if base.is_none() {
        // The row groups of a file written alike are not this file's.
        file.row_groups.clear();
    }
    file.row_groups.truncate(base_kept);
    for group in &mut file.row_groups {
        for chunk in &mut group.columns {
            // Page indexes follow the row groups; a checkpoint has none.
            chunk.offset_index_offset = None;
            chunk.offset_index_length = None;
            chunk.column_index_offset = None;
            chunk.column_index_length = None;
            if let Some(meta) = chunk.meta_data.as_mut() {
                let bloom_end = meta.bloom_filter_offset.and_then(|o| {
                    u64::try_from(o)
                        .ok()?
                        .checked_add(u64::try_from(meta.bloom_filter_length.unwrap_or(0)).ok()?)
                });
                if bloom_end.is_none_or(|end| end > data_end) {
                    meta.bloom_filter_offset = None;
                    meta.bloom_filter_length = None;
                }
            }
        }
    }
    let columns = schema_columns(base, options);
    for group in groups {
        file.row_groups.push(group.to_thrift(columns)?);
    }
    for (g, group) in file.row_groups.iter_mut().enumerate() {
        group.ordinal = i16::try_from(g).ok();
    }
    file.num_rows = file.row_groups.iter().map(|g| g.num_rows).sum();
    Ok(crate::write::framed_footer(&file)?.into())
}

/// The leaf columns of the schema the recovery reads with.
fn schema_columns<'a>(
    base: Option<&'a Base>,
    options: &'a RecoverOptions,
) -> &'a [ColumnDescriptor] {
    base.map(|b| b.metadata.schema())
        .or(options.like.as_ref().map(|l| l.schema()))
        .or(options.schema.as_ref())
        .map_or(&[], |s| s.columns())
}

/// Where a footer lies: from its first byte to the end of the magic bytes after it.
#[derive(Debug, Clone, Copy)]
struct FooterSpan {
    start: u64,
    end: u64,
}

/// Every footer in the source: `PAR1` preceded by a length whose bytes before it decode
/// as a `FileMetaData` of exactly that length. In file order.
fn find_footers<S: Source>(source: &S, file_len: u64, limits: &Limits) -> Result<Vec<FooterSpan>> {
    const STEP: u64 = 8 << 20;
    let mut footers = Vec::new();
    let mut offset = 0;
    while offset + 4 <= file_len {
        // Windows overlap by 3 bytes, so that no magic is split between two.
        let len = (file_len - offset).min(STEP + 3);
        #[allow(clippy::cast_possible_truncation)] // at most STEP + 3
        let window = source.read_at(offset, len as usize)?;
        for (i, _) in window.windows(4).enumerate().filter(|(_, w)| *w == MAGIC) {
            let magic = offset + i as u64;
            if let Some(span) = footer_before(source, magic, limits)? {
                footers.push(span);
            }
        }
        offset += STEP;
    }
    Ok(footers)
}

/// The footer whose magic bytes are at `magic`, if the bytes before them are one.
fn footer_before<S: Source>(source: &S, magic: u64, limits: &Limits) -> Result<Option<FooterSpan>> {
    let Some(length_at) = magic.checked_sub(4).filter(|&at| at >= 4) else {
        return Ok(None);
    };
    let length = source.read_at(length_at, 4)?;
    let length = u64::from(u32::from_le_bytes(
        length.as_ref().try_into().unwrap_or_default(),
    ));
    let Some(start) = length_at.checked_sub(length).filter(|&s| s >= 4) else {
        return Ok(None);
    };
    if length == 0 || length > limits.max_footer_size() {
        return Ok(None);
    }
    // A FileMetaData starts as every writer writes it: its version (field 1, an i32:
    // 0x15 in the compact protocol, then a varint of one byte), then its schema (field 2,
    // a list: 0x19, then a header whose low bits say structs, 0xC). Anything else is
    // not read further, so a file of many `PAR1`s costs no reads of what precedes them.
    let head = source.read_at(start, 4.min(usize::try_from(length).unwrap_or(4)))?;
    if !matches!(head.as_ref(), [0x15, version, 0x19, list] if version & 0x80 == 0 && list & 0x0F == 0x0C)
    {
        return Ok(None);
    }
    #[allow(clippy::cast_possible_truncation)] // at most the footer limit
    let bytes = source.read_at(start, length as usize)?;
    Ok(match thrift::FileMetaData::read_from(&bytes) {
        Ok((_, used)) if used as u64 == length => Some(FooterSpan {
            start,
            end: magic + 4,
        }),
        _ => None,
    })
}

/// A page found by the scan.
#[derive(Debug, Clone)]
struct ScanPage {
    offset: u64,
    header_len: u64,
    /// Header and body.
    len: u64,
    header: PageHeader,
}

/// A row group found by the scan: its rows, and the pages of each column chunk.
#[derive(Debug, Clone)]
struct ScannedGroup {
    rows: u64,
    chunks: Vec<Vec<ScanPage>>,
    codecs: Vec<Codec>,
    /// The end of its last page.
    end: u64,
}

#[derive(Debug, Default)]
struct Scanned {
    groups: Vec<ScannedGroup>,
    dropped: Option<Dropped>,
}

impl ScannedGroup {
    fn to_thrift(&self, columns: &[ColumnDescriptor]) -> Result<thrift::RowGroup<'static>> {
        let chunks = columns
            .iter()
            .zip(&self.chunks)
            .zip(&self.codecs)
            .map(|((column, pages), codec)| chunk_to_thrift(column, pages, *codec))
            .collect::<Result<Vec<_>>>()?;
        let total = |f: fn(&thrift::ColumnMetaData<'_>) -> i64| {
            chunks
                .iter()
                .filter_map(|c| c.meta_data.as_ref())
                .map(f)
                .sum::<i64>()
        };
        Ok(thrift::RowGroup {
            total_byte_size: total(|m| m.total_uncompressed_size),
            total_compressed_size: Some(total(|m| m.total_compressed_size)),
            num_rows: signed(self.rows),
            sorting_columns: None,
            file_offset: self
                .chunks
                .first()
                .and_then(|pages| pages.first())
                .map(|p| signed(p.offset)),
            ordinal: None,
            columns: chunks,
        })
    }
}

fn signed(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// The metadata of a column chunk of scanned pages: its sizes, counts, encodings and
/// where its pages are (no statistics).
fn chunk_to_thrift(
    column: &ColumnDescriptor,
    pages: &[ScanPage],
    codec: Codec,
) -> Result<thrift::ColumnChunk<'static>> {
    let mut encodings: Vec<Encoding> = Vec::new();
    let mut stats: Vec<(thrift::PageType, Encoding, i32)> = Vec::new();
    let mut num_values = 0_u64;
    let mut uncompressed = 0_u64;
    let mut compressed = 0_u64;
    let mut dictionary_offset = None;
    let mut data_offset = None;
    let has_levels = column.max_def_level > 0 || column.max_rep_level > 0;
    for page in pages {
        uncompressed += page.header_len + page.header.uncompressed_size as u64;
        compressed += page.len;
        let (page_type, encoding, levels) = match &page.header.kind {
            PageKind::Dictionary(h) => {
                dictionary_offset = Some(page.offset);
                (thrift::PageType::DICTIONARY_PAGE, h.encoding, [None; 2])
            }
            PageKind::Data(h) => {
                data_offset.get_or_insert(page.offset);
                num_values += h.num_values as u64;
                let levels = [
                    (column.max_rep_level > 0).then_some(h.rep_level_encoding),
                    (column.max_def_level > 0).then_some(h.def_level_encoding),
                ];
                (thrift::PageType::DATA_PAGE, h.encoding, levels)
            }
            PageKind::DataV2(h) => {
                data_offset.get_or_insert(page.offset);
                num_values += h.num_values as u64;
                let levels = [has_levels.then_some(Encoding::Rle), None];
                (thrift::PageType::DATA_PAGE_V2, h.encoding, levels)
            }
            PageKind::Index | PageKind::Unknown(_) => continue,
        };
        for e in std::iter::once(encoding).chain(levels.into_iter().flatten()) {
            if !encodings.contains(&e) {
                encodings.push(e);
            }
        }
        match stats
            .iter_mut()
            .find(|(t, e, _)| *t == page_type && *e == encoding)
        {
            Some(s) => s.2 += 1,
            None => stats.push((page_type, encoding, 1)),
        }
    }
    let Some(data_offset) = data_offset else {
        return Err(Error::malformed(
            "a scanned column chunk without data pages",
        ));
    };
    Ok(thrift::ColumnChunk {
        file_offset: 0,
        meta_data: Some(thrift::ColumnMetaData {
            type_: crate::schema::thrift_type(column.physical_type),
            encodings: encodings.iter().map(|e| e.to_thrift()).collect(),
            path_in_schema: column
                .path
                .parts()
                .iter()
                .map(|p| Cow::Owned(p.clone()))
                .collect(),
            codec: thrift::CompressionCodec(codec.parquet_id().unwrap_or_default()),
            num_values: signed(num_values),
            total_uncompressed_size: signed(uncompressed),
            total_compressed_size: signed(compressed),
            key_value_metadata: None,
            data_page_offset: signed(data_offset),
            index_page_offset: None,
            dictionary_page_offset: dictionary_offset.map(signed),
            statistics: None,
            encoding_stats: Some(
                stats
                    .into_iter()
                    .map(|(page_type, encoding, count)| thrift::PageEncodingStats {
                        page_type,
                        encoding: encoding.to_thrift(),
                        count,
                    })
                    .collect(),
            ),
            bloom_filter_offset: None,
            bloom_filter_length: None,
            size_statistics: None,
            geospatial_statistics: None,
        }),
        ..thrift::ColumnChunk::default()
    })
}

/// The codecs tried, in order, on a column whose codec is not known: those writers use
/// most first.
const CODECS: [Codec; 8] = [
    Codec::Uncompressed,
    Codec::Snappy,
    Codec::Zstd,
    Codec::Gzip,
    Codec::Lz4Raw,
    Codec::Lz4,
    Codec::Brotli,
    Codec::Lzo,
];

/// Page decodes allowed per page found, for the groupings tried.
const WORK_PER_PAGE: u64 = 16;

/// Groupings of a row group's pages beyond which a row group is ambiguous.
const MAX_GROUPINGS: usize = 8;

/// The page boundaries after each data page of a run of pages decoded as one column,
/// with the records read to there.
type Run = Rc<Vec<(usize, u64)>>;

/// The scan of pages after the last footer that reads.
struct Scanner<'a, S> {
    source: &'a S,
    schema: &'a Schema,
    codecs: Vec<Option<Codec>>,
    limits: Limits,
    pages: Vec<ScanPage>,
    /// Runs decoded: by column, first page and the records wanted.
    runs: HashMap<(usize, usize, Option<u64>), Run>,
    /// Page decodes left.
    budget: u64,
}

/// How a list of pages ended.
enum ListEnd {
    /// At the end of the source.
    End,
    /// At a page the source ends inside.
    InPage(u64),
    /// At bytes that are no page.
    Unrecognized(u64),
}

impl<S: Source> Scanner<'_, S> {
    /// Scans from `start` to `file_len`: pages, in segments between Bloom filters and
    /// footers, grouped into row groups.
    fn scan(
        &mut self,
        start: u64,
        file_len: u64,
        footers: &[FooterSpan],
        mut previous_rows: Option<u64>,
    ) -> Result<Scanned> {
        let (segments, list_end) = self.list(start, file_len, footers)?;
        self.budget = (self.pages.len() as u64 + 1)
            * WORK_PER_PAGE
            * (self.schema.columns().len() as u64).max(1);
        let mut groups = Vec::new();
        let mut stopped = None;
        for segment in &segments {
            let mut i = segment.start;
            while i < segment.end {
                match self.group_at(i, segment.end, previous_rows)? {
                    Ok(group) => {
                        i = group.end_page;
                        previous_rows = Some(group.group.rows);
                        groups.push(group.group);
                    }
                    Err(reason) => {
                        stopped = Some((i, reason));
                        break;
                    }
                }
            }
            if stopped.is_some() {
                break;
            }
        }
        let end = groups.last().map_or(start, |g: &ScannedGroup| g.end);
        let dropped = match stopped {
            Some((i, reason)) => {
                let offset = self.pages.get(i).map_or(end, |p| p.offset);
                Some(Dropped {
                    offset,
                    len: file_len - offset,
                    reason,
                })
            }
            None => match list_end {
                ListEnd::End => None,
                ListEnd::InPage(at) => Some(Dropped {
                    offset: at,
                    len: file_len - at,
                    reason: DropReason::EndsInPage(at),
                }),
                ListEnd::Unrecognized(at) => Some(Dropped {
                    offset: at,
                    len: file_len - at,
                    reason: DropReason::Unrecognized,
                }),
            },
        };
        Ok(Scanned { groups, dropped })
    }

    /// Lists the pages from `start`, passing over Bloom filters and footers; gives the
    /// segments of pages between them, and how the list ended.
    fn list(
        &mut self,
        start: u64,
        file_len: u64,
        footers: &[FooterSpan],
    ) -> Result<(Vec<std::ops::Range<usize>>, ListEnd)> {
        let mut segments = Vec::new();
        let mut segment_start = 0;
        let mut pos = start;
        let end = loop {
            if pos >= file_len {
                break ListEnd::End;
            }
            let skip = footers
                .iter()
                .find(|f| f.start == pos)
                .map(|footer| footer.end - pos);
            let skip = match skip {
                Some(len) => Some(len),
                None => match self.page_at(pos, file_len)? {
                    Some(Ok(page)) => {
                        pos += page.len;
                        self.pages.push(page);
                        continue;
                    }
                    Some(Err(at)) => break ListEnd::InPage(at),
                    None => {
                        // Within a row group: passed over as if not there.
                        if let Some(len) = self.chunk_metadata_at(pos, file_len)? {
                            pos += len;
                            continue;
                        }
                        self.bloom_filter_at(pos, file_len)?
                    }
                },
            };
            let Some(len) = skip else {
                break ListEnd::Unrecognized(pos);
            };
            if self.pages.len() > segment_start {
                segments.push(segment_start..self.pages.len());
            }
            segment_start = self.pages.len();
            pos += len;
        };
        if self.pages.len() > segment_start {
            segments.push(segment_start..self.pages.len());
        }
        Ok((segments, end))
    }

    /// `len` bytes at `offset`, fewer at the end of the source.
    fn read_upto(&self, offset: u64, len: u64, file_len: u64) -> Result<Bytes> {
        let len = len.min(file_len.saturating_sub(offset));
        Ok(self
            .source
            .read_at(offset, usize::try_from(len).unwrap_or(usize::MAX))?)
    }

    /// The page whose header is at `pos`: `None` when none decodes there, `Some(Err(pos))`
    /// when the source ends inside it.
    fn page_at(
        &self,
        pos: u64,
        file_len: u64,
    ) -> Result<Option<std::result::Result<ScanPage, u64>>> {
        for window in [64 << 10, 1 << 20, 16 << 20] {
            let bytes = self.read_upto(pos, window, file_len)?;
            let Ok((header, used)) = thrift::PageHeader::read_from(&bytes) else {
                if (bytes.len() as u64) < window {
                    return Ok(None);
                }
                continue;
            };
            let Ok(header) = PageHeader::from_thrift(&header, &bytes) else {
                return Ok(None);
            };
            let fits = match &header.kind {
                PageKind::Dictionary(_) => {
                    header.uncompressed_size <= self.limits.max_dictionary_size()
                }
                PageKind::Data(_) | PageKind::DataV2(_) => {
                    header.uncompressed_size <= self.limits.max_decompressed_page_size()
                }
                PageKind::Index | PageKind::Unknown(_) => false,
            };
            if !fits || header.compressed_size > self.limits.max_page_size() {
                return Ok(None);
            }
            let header_len = used as u64;
            let len = header_len + header.compressed_size as u64;
            if pos + len > file_len {
                return Ok(Some(Err(pos)));
            }
            return Ok(Some(Ok(ScanPage {
                offset: pos,
                header_len,
                len,
                header,
            })));
        }
        Ok(None)
    }

    /// The length of the column chunk metadata at `pos`, if the chunk that ends at `pos`
    /// is followed by its own (parquet2 and polars write a copy after each chunk, where
    /// the deprecated `file_offset` points).
    fn chunk_metadata_at(&self, pos: u64, file_len: u64) -> Result<Option<u64>> {
        for window in [4 << 10, 1 << 20] {
            let bytes = self.read_upto(pos, window, file_len)?;
            let Ok((meta, used)) = thrift::ColumnMetaData::read_from(&bytes) else {
                if (bytes.len() as u64) < window {
                    return Ok(None);
                }
                continue;
            };
            let start = meta
                .dictionary_page_offset
                .map_or(meta.data_page_offset, |d| d.min(meta.data_page_offset));
            let ends_here = start
                .checked_add(meta.total_compressed_size)
                .is_some_and(|end| u64::try_from(end) == Ok(pos));
            let names_a_column = self.schema.columns().iter().any(|c| {
                c.path.parts().len() == meta.path_in_schema.len()
                    && c.path
                        .parts()
                        .iter()
                        .zip(meta.path_in_schema.iter())
                        .all(|(a, b)| a == b)
            });
            return Ok((ends_here && names_a_column).then_some(used as u64));
        }
        Ok(None)
    }

    /// The length of the Bloom filter (header and bitset) at `pos`, if one is there.
    fn bloom_filter_at(&self, pos: u64, file_len: u64) -> Result<Option<u64>> {
        let bytes = self.read_upto(pos, 64, file_len)?;
        Ok(match thrift::BloomFilterHeader::read_from(&bytes) {
            Ok((header, used)) => u64::try_from(header.num_bytes)
                .ok()
                .filter(|&n| n > 0 && pos + used as u64 + n <= file_len)
                .map(|n| used as u64 + n),
            Err(_) => None,
        })
    }

    /// The row group whose first page is page `i`, in the segment ending at page `end`,
    /// or why there is none.
    fn group_at(
        &mut self,
        i: usize,
        end: usize,
        previous_rows: Option<u64>,
    ) -> Result<std::result::Result<Grouped, DropReason>> {
        let n = self.schema.columns().len();
        let (groupings, columns) = self.groupings(i, end)?;
        let mut fitting = Vec::new();
        for (bounds, rows) in groupings {
            let last = bounds.last().copied().unwrap_or(i);
            // What follows must start another row group, or end the segment.
            if last == end || !self.run(0, last, end, None)?.is_empty() {
                fitting.push((bounds, rows));
            }
        }
        if fitting.len() > 1
            && let Some(previous) = previous_rows
        {
            let alike: Vec<_> = fitting
                .iter()
                .filter(|(_, r)| *r == previous)
                .cloned()
                .collect();
            if !alike.is_empty() {
                fitting = alike;
            }
        }
        let pages = end - i;
        let (bounds, rows) = match fitting.len() {
            1 => fitting.remove(0),
            0 if self.budget == 0 => return Ok(Err(DropReason::Ambiguous { pages })),
            0 => {
                return Ok(Err(DropReason::Unfinished {
                    pages,
                    columns,
                    of: n,
                }));
            }
            _ => return Ok(Err(DropReason::Ambiguous { pages })),
        };
        let chunks: Vec<Vec<ScanPage>> = bounds
            .windows(2)
            .map(|w| {
                let (a, b) = (
                    w.first().copied().unwrap_or(0),
                    w.get(1).copied().unwrap_or(0),
                );
                self.pages.get(a..b).unwrap_or_default().to_vec()
            })
            .collect();
        let end_page = bounds.last().copied().unwrap_or(i);
        let end_offset = chunks
            .last()
            .and_then(|c| c.last())
            .map_or(0, |p| p.offset + p.len);
        let codecs = self
            .codecs
            .iter()
            .map(|c| c.unwrap_or(Codec::Uncompressed))
            .collect();
        Ok(Ok(Grouped {
            end_page,
            group: ScannedGroup {
                rows,
                chunks,
                codecs,
                end: end_offset,
            },
        }))
    }

    /// Every way (up to [`MAX_GROUPINGS`] and one) pages from `i` group into one column
    /// chunk per column with the same records: the page boundaries between chunks (from
    /// `i` to the end of the last), and the records. Also the most columns any grouping
    /// reached.
    #[allow(clippy::type_complexity)]
    fn groupings(&mut self, first: usize, end: usize) -> Result<(Vec<(Vec<usize>, u64)>, usize)> {
        let columns = self.schema.columns().len();
        let mut found = Vec::new();
        let mut deepest = 0;
        // Depth-first, without recursion: per column, its run and the next candidate.
        let mut stack: Vec<(Run, usize)> = vec![(self.run(0, first, end, None)?, 0)];
        let mut bounds = vec![first];
        let mut rows = 0;
        while let Some(column) = stack.len().checked_sub(1) {
            let Some((run, next)) = stack.last_mut() else {
                break;
            };
            let candidate = run
                .iter()
                .enumerate()
                .skip(*next)
                .find(|(_, (_, read))| {
                    if column == 0 {
                        *read > 0
                    } else {
                        *read == rows
                    }
                })
                .map(|(at, &(page, read))| (at, page, read));
            let Some((at, page, read)) = candidate else {
                stack.pop();
                bounds.truncate(stack.len());
                continue;
            };
            *next = at + 1;
            if column == 0 {
                rows = read;
            }
            deepest = deepest.max(column + 1);
            bounds.truncate(column + 1);
            bounds.push(page);
            if column + 1 == columns {
                found.push((bounds.clone(), rows));
                if found.len() > MAX_GROUPINGS {
                    break;
                }
            } else {
                let run = self.run(column + 1, page, end, Some(rows))?;
                stack.push((run, 0));
            }
        }
        Ok((found, deepest))
    }

    /// The pages from `j` (to the segment's end at `end`) decoded as column `c`, as far
    /// as they decode, stopping at a dictionary page after the first, or at `target`
    /// records: after each page, the records read to there. Empty when page `j` does not
    /// decode as column `c`.
    fn run(&mut self, c: usize, j: usize, end: usize, target: Option<u64>) -> Result<Run> {
        if let Some(run) = self.runs.get(&(c, j, target)) {
            return Ok(Rc::clone(run));
        }
        let codecs: Vec<Codec> = match self.codecs.get(c).copied().flatten() {
            Some(codec) => vec![codec],
            None => CODECS.to_vec(),
        };
        let mut run = Vec::new();
        for codec in codecs {
            run = self.decode_run(c, codec, j, end, target)?;
            if !run.is_empty() {
                if let Some(known) = self.codecs.get_mut(c) {
                    *known = Some(codec);
                }
                break;
            }
        }
        let run = Rc::new(run);
        self.runs.insert((c, j, target), Rc::clone(&run));
        Ok(run)
    }

    fn decode_run(
        &mut self,
        c: usize,
        codec: Codec,
        j: usize,
        end: usize,
        target: Option<u64>,
    ) -> Result<Vec<(usize, u64)>> {
        let column = self.schema.column(c)?;
        let step = if holds_byte_arrays(column) {
            BYTE_ARRAY_RECORDS
        } else {
            64 * 1024
        };
        let mut batch = ColumnBatch::new(column);
        let mut reader: Option<ColumnChunkReader> = None;
        let mut out = Vec::new();
        let mut records = 0;
        for k in j..end {
            let Some(page) = self.pages.get(k) else { break };
            if k > j && matches!(page.header.kind, PageKind::Dictionary(_)) {
                break;
            }
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let len = usize::try_from(page.len).unwrap_or(usize::MAX);
            let bytes = self.source.read_at(page.offset, len)?;
            let info = ChunkInfo {
                codec,
                num_values: u64::MAX,
                num_rows: u64::MAX,
                max_def_level: column.max_def_level,
                max_rep_level: column.max_rep_level,
                cipher: None,
                row_group_ordinal: 0,
                column_ordinal: c,
                verify_checksums: true,
                has_dictionary: false,
                limits: self.limits,
            };
            let pages = PageReader::new(vec![(page.offset, bytes)], page.offset, info);
            let reader = match reader.as_mut() {
                Some(reader) => {
                    reader.feed(pages);
                    reader
                }
                None => reader.insert(ColumnChunkReader::open_ended(
                    pages,
                    column.clone(),
                    &self.limits,
                )),
            };
            match decode_page(reader, step, &mut batch) {
                Ok(Some(read)) => {
                    records += read;
                    out.push((k + 1, records));
                    if target.is_some_and(|t| records >= t) {
                        break;
                    }
                }
                // A dictionary page: a chunk does not end there, but it starts one.
                Ok(None) => out.push((k + 1, records)),
                Err(_) => break,
            }
        }
        Ok(out)
    }
}

/// A row group found, and the page after it.
struct Grouped {
    end_page: usize,
    group: ScannedGroup,
}

/// Decodes the page `reader` was fed: the records it starts, or `None` for a
/// dictionary page.
fn decode_page(
    reader: &mut ColumnChunkReader,
    step: usize,
    batch: &mut ColumnBatch,
) -> Result<Option<u64>> {
    if reader.open_page()?.is_none() {
        return Ok(None);
    }
    let mut records = 0;
    loop {
        let (read, ended) = reader.read_open_page(step, batch)?;
        batch.clear();
        records += read as u64;
        if ended {
            return Ok(Some(records));
        }
    }
}
