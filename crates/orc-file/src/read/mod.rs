//! The ORC file reader: the tail (postscript, footer, metadata), stripes, and batches or
//! rows of the selected columns.

mod column;
mod filter;
mod stripe;

pub use stripe::{StreamInfo, StripeFooter};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use parquet_core::io::Source;
use parquet_core::{Predicate, Row};
use prost::Message;

use crate::error::{Context as _, Error, ErrorKind, ProtoContext as _, Result};
use crate::limits::Limits;
use crate::proto;
use crate::row::{Strings, column_names, row_at};
use crate::schema::{Kind, TypeDescription};
use crate::statistics::ColumnStatistics;
use crate::stream::{ChunkDecoder, OrcCompression};
use crate::vector::Batch;

use column::{ColumnDecoder, empty_vector};
use stripe::{Buffers, SharedChunks, StripeStreams};

/// The most bytes of a file's tail read in one go (postscript, footer and metadata
/// usually fit).
const TAIL_READ: u64 = 16 * 1024;

/// Apache ORC's default compression block size, for files that do not say theirs.
const DEFAULT_BLOCK_SIZE: u64 = 256 * 1024;

/// The version of the file format: `[0, 11]` (ORC v0, Hive 0.11) or `[0, 12]` (ORC v1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileVersion {
    /// The major version (0).
    pub major: u32,
    /// The minor version (11 or 12).
    pub minor: u32,
}

impl FileVersion {
    /// Whether the file is ORC v0 (Hive 0.11).
    pub fn is_v0(self) -> bool {
        (self.major, self.minor) < (0, 12)
    }

    /// The version a postscript gives (none: Hive 0.11, which wrote none).
    fn of(version: &[u32]) -> Self {
        match *version {
            [] => Self {
                major: 0,
                minor: 11,
            },
            [major] => Self { major, minor: 0 },
            [major, minor, ..] => Self { major, minor },
        }
    }
}

impl std::fmt::Display for FileVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Where a stripe is and how many rows it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StripeInfo {
    /// The offset of its first byte.
    pub offset: u64,
    /// The bytes of its index streams.
    pub index_length: u64,
    /// The bytes of its data streams.
    pub data_length: u64,
    /// The bytes of its (compressed) footer.
    pub footer_length: u64,
    /// The rows it holds.
    pub num_rows: u64,
}

/// What to read: which columns, how many rows at a time, and which stripes and row
/// groups may be skipped.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    projection: Option<Vec<String>>,
    batch_size: usize,
    predicate: Option<Predicate>,
    limits: Option<Limits>,
    strings: Strings,
    /// Keep each stripe's row indexes of the columns read, to seek by them
    /// ([`Batches::seek_to`]), with or without a predicate.
    pub(crate) keep_row_indexes: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            projection: None,
            batch_size: 1024,
            predicate: None,
            limits: None,
            strings: Strings::Utf8,
            keep_row_indexes: false,
        }
    }
}

impl ReadOptions {
    /// Reads only these columns: top-level names, or dotted paths into structs
    /// (`address.city`; a top-level name that holds a dot is taken whole first). A column is read with all of its children. Their order in the
    /// result is the schema's.
    #[must_use]
    pub fn with_projection<I, T>(mut self, columns: I) -> Self
    where
        I: IntoIterator<Item = T>,
        T: Into<String>,
    {
        self.projection = Some(columns.into_iter().map(Into::into).collect());
        self
    }

    /// The limits of this read's batches (by default, those the reader was opened
    /// with: [`OrcReader::open_with`]): a batch holds fewer rows than the batch size
    /// when its strings would pass [`Limits::max_batch_bytes`]; values under lists and
    /// maps past [`Limits::max_batch_values`] or [`Limits::max_record_values`] are
    /// [`ErrorKind::LimitExceeded`] before anything is allocated for them.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// What [`Rows`] make of string, varchar and char values: text, which must be UTF-8
    /// (the default), or their bytes as stored ([`Strings::Raw`]). [`Batches`] give the
    /// bytes either way.
    #[must_use]
    pub fn with_strings(mut self, strings: Strings) -> Self {
        self.strings = strings;
        self
    }

    /// Rows per batch (at least 1; default 1024).
    #[must_use]
    pub fn with_batch_size(mut self, rows: usize) -> Self {
        self.batch_size = rows.max(1);
        self
    }

    /// Skips the stripes, and the row groups of the row index (every
    /// [`OrcReader::row_index_stride`] rows), whose statistics show that no row can
    /// match `predicate`; the reader seeks past skipped row groups by the row index's
    /// positions. The rows read must still be tested with [`Predicate::matches`]: a
    /// part that might match is read whole.
    #[must_use]
    pub fn with_predicate(mut self, predicate: Predicate) -> Self {
        self.predicate = Some(predicate);
        self
    }
}

/// An ORC file open for reading.
///
/// ```
/// # fn main() -> Result<(), orc_file::Error> {
/// # let bytes = bytes::Bytes::new();
/// # if bytes.is_empty() { return Ok(()); }
/// use orc_file::{OrcReader, ReadOptions};
///
/// let reader = OrcReader::open(bytes)?;
/// println!("{} rows of {}", reader.num_rows(), reader.schema());
/// for row in reader.rows(ReadOptions::default())? {
///     println!("{:?}", row?);
/// }
/// # Ok(())
/// # }
/// ```
pub struct OrcReader<S> {
    source: S,
    postscript: proto::PostScript,
    footer: proto::Footer,
    schema: TypeDescription,
    compression: OrcCompression,
    block_size: u64,
    version: FileVersion,
    stripes: Vec<StripeInfo>,
    /// Where the (compressed) metadata section is: offset and length.
    metadata: (u64, u64),
    limits: Limits,
}

impl<S: Source> OrcReader<S> {
    /// Opens a file: reads and checks its tail, within the default [`Limits`].
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NotOrc`] when the file is not ORC, [`ErrorKind::Malformed`] and the
    /// other kinds of the file's errors when its tail is malformed,
    /// [`ErrorKind::LimitExceeded`] when it is past a limit, [`ErrorKind::Io`] from the
    /// source.
    pub fn open(source: S) -> Result<Self> {
        Self::open_with(source, Limits::default())
    }

    /// Opens a file within `limits`: those of its tail (footer, metadata, stripes,
    /// compression block size) and, unless [`ReadOptions::with_limits`] says otherwise,
    /// of the batches read from it.
    ///
    /// # Errors
    ///
    /// As [`OrcReader::open`].
    pub fn open_with(source: S, limits: Limits) -> Result<Self> {
        let len = source.len()?;
        if len < 4 {
            return Err(ErrorKind::NotOrc {
                what: "too short, fewer than 4 bytes",
                found: None,
            }
            .into());
        }
        let tail_start = len - len.min(TAIL_READ);
        let tail = source.read_at(tail_start, size(len - tail_start)?)?;
        let ps_len = u64::from(*tail.last().unwrap_or(&0));
        if ps_len == 0 || ps_len + 1 > len {
            // The last byte, at `len - 1`.
            return Err(Error::invalid("postscript length", ps_len).at_offset(len - 1));
        }
        let ps_start = len - 1 - ps_len;
        let ps_bytes = tail
            .get(size(ps_start - tail_start)?..tail.len() - 1)
            .ok_or_else(|| Error::malformed("the postscript is cut short").at_offset(ps_start))?;
        // Not ORC, most likely, when the postscript does not decode.
        let postscript = proto::PostScript::decode(ps_bytes)
            .proto("postscript (not an ORC file?)")
            .at_offset(ps_start)?;
        check_magic(&source, &postscript)?;
        let version = FileVersion::of(&postscript.version);
        let compression = OrcCompression::from_proto(postscript.compression.unwrap_or(0))?;
        let block_size = postscript
            .compression_block_size
            .unwrap_or(DEFAULT_BLOCK_SIZE);
        if compression.is_compressed() {
            check_limit(
                "compression block size",
                block_size,
                limits.max_block_size(),
            )?;
        }
        let mut chunks = ChunkDecoder::new(compression, block_size)?;

        let footer_len = postscript.footer_length.unwrap_or(0);
        let metadata_len = postscript.metadata_length.unwrap_or(0);
        check_limit("footer size", footer_len, limits.max_footer_size())?;
        check_limit("metadata size", metadata_len, limits.max_footer_size())?;
        let footer_start = ps_start
            .checked_sub(footer_len)
            .filter(|&s| s >= 3)
            .ok_or_else(|| {
                Error::too_many(
                    "bytes of the footer, for those between the header and the postscript",
                    footer_len,
                    ps_start.saturating_sub(3),
                )
            })?;
        let metadata_start = footer_start
            .checked_sub(metadata_len)
            .filter(|&s| s >= 3)
            .ok_or_else(|| {
                Error::too_many(
                    "bytes of the metadata, for those between the header and the footer",
                    metadata_len,
                    footer_start.saturating_sub(3),
                )
            })?;
        let footer_bytes = read_range(&source, &tail, tail_start, footer_start, footer_len)
            .at_offset(footer_start)?;
        let footer_bytes =
            decompress(&mut chunks, &footer_bytes, "footer", &limits).at_offset(footer_start)?;
        let footer = proto::Footer::decode(footer_bytes.as_slice())
            .proto("footer")
            .at_offset(footer_start)?;
        let schema = TypeDescription::from_proto(&footer.types)?;
        if schema.kind() != Kind::Struct {
            return Err(ErrorKind::WrongType {
                what: "the root type",
                expected: "struct",
                found: schema.kind().name(),
            }
            .into());
        }

        check_limit(
            "stripes",
            footer.stripes.len() as u64,
            limits.max_stripes() as u64,
        )?;
        let stripes = stripe_infos(&footer, metadata_start, &limits)?;
        Ok(Self {
            source,
            postscript,
            footer,
            schema,
            compression,
            block_size,
            version,
            stripes,
            metadata: (metadata_start, metadata_len),
            limits,
        })
    }

    /// The schema: a struct of the top-level columns.
    pub fn schema(&self) -> &TypeDescription {
        &self.schema
    }

    /// The number of rows the footer records.
    pub fn num_rows(&self) -> u64 {
        self.footer.number_of_rows.unwrap_or(0)
    }

    /// The file format version.
    pub fn version(&self) -> FileVersion {
        self.version
    }

    /// The writer version the postscript records (0 when it records none, as Hive 0.11
    /// did).
    pub fn writer_version(&self) -> u32 {
        self.postscript.writer_version.unwrap_or(0)
    }

    /// The writer the footer names (0 Java, 1 C++, 2 Presto, ...; `None` when unset).
    pub fn writer(&self) -> Option<u32> {
        self.footer.writer
    }

    /// The calendar the footer says the file's dates and timestamps count in
    /// (`UnknownCalendar` when it names none); see [`crate::calendar`] for how each is
    /// read.
    pub fn calendar(&self) -> proto::CalendarKind {
        self.footer
            .calendar
            .and_then(|c| proto::CalendarKind::try_from(c).ok())
            .unwrap_or(proto::CalendarKind::UnknownCalendar)
    }

    /// `stats`, statistics of one of this file's columns (the file's, a stripe's or a
    /// row group's), in the calendar its values are read in: in a file whose days count
    /// in the hybrid Julian/Gregorian calendar, a date column's least and greatest days
    /// are the proleptic days of the dates they name (see [`crate::calendar`]), as the
    /// values are read and as predicates judge them; otherwise they are as stored.
    pub fn statistics_as_read(&self, stats: proto::ColumnStatistics) -> proto::ColumnStatistics {
        if self.calendar() == proto::CalendarKind::JulianGregorian {
            filter::in_proleptic_dates(stats)
        } else {
            stats
        }
    }

    /// The codec of the file's chunks.
    pub fn compression(&self) -> OrcCompression {
        self.compression
    }

    /// The largest chunk the writer compressed at once.
    pub fn compression_block_size(&self) -> u64 {
        self.block_size
    }

    /// Rows per row-index entry (0 when the file has no row index).
    pub fn row_index_stride(&self) -> u32 {
        self.footer.row_index_stride.unwrap_or(0)
    }

    /// The stripes.
    pub fn stripes(&self) -> &[StripeInfo] {
        &self.stripes
    }

    /// The user metadata: names and values, in file order.
    pub fn user_metadata(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.footer.metadata.iter().map(|m| {
            (
                m.name.as_deref().unwrap_or(""),
                m.value.as_deref().unwrap_or_default(),
            )
        })
    }

    /// The file's statistics, by column id.
    pub fn file_statistics(&self) -> Vec<ColumnStatistics> {
        self.footer
            .statistics
            .iter()
            .map(ColumnStatistics::from_proto)
            .collect()
    }

    /// The file's statistics, by column id, as stored.
    pub fn file_statistics_proto(&self) -> &[proto::ColumnStatistics] {
        &self.footer.statistics
    }

    /// The statistics of each stripe, by column id (empty when the file has none).
    ///
    /// # Errors
    ///
    /// When the metadata section is malformed.
    pub fn stripe_statistics(&self) -> Result<Vec<Vec<ColumnStatistics>>> {
        Ok(self
            .stripe_statistics_proto()?
            .iter()
            .map(|s| {
                s.col_stats
                    .iter()
                    .map(ColumnStatistics::from_proto)
                    .collect()
            })
            .collect())
    }

    /// The per-stripe statistics of the metadata section (empty when the file has
    /// none), as stored.
    ///
    /// # Errors
    ///
    /// When the metadata section is malformed, or holds more stripes' statistics than
    /// the file has stripes, or more columns' than the schema has columns (each counted
    /// before it is decoded).
    pub fn stripe_statistics_proto(&self) -> Result<Vec<proto::StripeStatistics>> {
        let (offset, len) = self.metadata;
        if len == 0 {
            return Ok(Vec::new());
        }
        self.read_stripe_statistics(offset, len).at_offset(offset)
    }

    fn read_stripe_statistics(
        &self,
        offset: u64,
        len: u64,
    ) -> Result<Vec<proto::StripeStatistics>> {
        let bytes = self.source.read_at(offset, size(len)?)?;
        let mut chunks = ChunkDecoder::new(self.compression, self.block_size)?;
        let bytes = decompress(&mut chunks, &bytes, "metadata", &self.limits)?;
        // `Metadata` is `repeated StripeStatistics stripeStats = 1`, each a
        // `repeated ColumnStatistics colStats = 1`.
        let stripes = messages(&bytes, 1)?;
        if stripes.len() > self.stripes.len() {
            return Err(Error::too_many(
                "statistics of stripes in the metadata, for the file's stripes",
                stripes.len() as u64,
                self.stripes.len() as u64,
            ));
        }
        let columns = self.schema.column_count();
        stripes
            .into_iter()
            .enumerate()
            .map(|(i, stripe)| {
                let count = messages(stripe, 1)?.len();
                if count > columns {
                    return Err(Error::too_many(
                        "statistics of columns in the metadata, for the schema's columns",
                        count as u64,
                        columns as u64,
                    )
                    .at_stripe(i));
                }
                proto::StripeStatistics::decode(stripe)
                    .proto("stripe statistics")
                    .at_stripe(i)
            })
            .collect()
    }

    /// The row index of each column of stripe `index` that has one, by column id (empty
    /// when the file has no row index): the statistics and stream positions of each
    /// group of [`row_index_stride`](Self::row_index_stride) rows.
    ///
    /// # Errors
    ///
    /// When the stripe's footer or an index is malformed, or an index holds more
    /// entries than the stripe has groups of rows (counted before it is decoded).
    pub fn row_indexes(&self, index: usize) -> Result<Vec<(u32, proto::RowIndex)>> {
        let info = self.stripe_info(index)?;
        self.read_row_indexes(info).at_stripe(index)
    }

    /// Stripe `index`'s place.
    fn stripe_info(&self, index: usize) -> Result<&StripeInfo> {
        self.stripes.get(index).ok_or_else(|| {
            ErrorKind::NoSuchStripe {
                index,
                count: self.stripes.len(),
            }
            .into()
        })
    }

    fn read_row_indexes(&self, info: &StripeInfo) -> Result<Vec<(u32, proto::RowIndex)>> {
        let stride = u64::from(self.row_index_stride());
        if stride == 0 {
            return Ok(Vec::new());
        }
        let groups = info.num_rows.div_ceil(stride);
        let mut chunks = ChunkDecoder::new(self.compression, self.block_size)?;
        let footer = self.read_stripe_footer(info, &mut chunks)?;
        let mut indexes = Vec::new();
        for stream in &footer.streams {
            if stream.kind != proto::stream::Kind::RowIndex as i32 {
                continue;
            }
            let index = self
                .read_row_index(stream, groups, &mut chunks)
                .at_column(stream.column)
                .in_stream("ROW_INDEX")
                .at_offset(stream.offset)?;
            indexes.push((stream.column, index));
        }
        Ok(indexes)
    }

    /// The footer of stripe `index`: its streams, encodings and time zone.
    ///
    /// # Errors
    ///
    /// When the index is out of range or the footer is malformed.
    pub fn stripe_footer(&self, index: usize) -> Result<StripeFooter> {
        let info = self.stripe_info(index)?;
        let mut chunks = ChunkDecoder::new(self.compression, self.block_size)?;
        self.read_stripe_footer(info, &mut chunks).at_stripe(index)
    }

    /// One column's row index, of a stripe of `groups` groups of rows.
    fn read_row_index(
        &self,
        stream: &StreamInfo,
        groups: u64,
        chunks: &mut ChunkDecoder,
    ) -> Result<proto::RowIndex> {
        let bytes = self.source.read_at(stream.offset, size(stream.length)?)?;
        let bytes = decompress(chunks, &bytes, "row index", &self.limits)?;
        // `RowIndex` is `repeated RowIndexEntry entry = 1`.
        let entries = messages(&bytes, 1)?.len();
        if entries as u64 > groups {
            return Err(Error::too_many(
                "entries of the row index, for the stripe's groups of rows",
                entries as u64,
                groups,
            ));
        }
        proto::RowIndex::decode(bytes.as_slice()).proto("row index")
    }

    fn read_stripe_footer(
        &self,
        info: &StripeInfo,
        chunks: &mut ChunkDecoder,
    ) -> Result<StripeFooter> {
        let at = info.offset + info.index_length + info.data_length;
        let bytes = self.source.read_at(at, size(info.footer_length)?)?;
        let bytes = decompress(chunks, &bytes, "stripe footer", &self.limits).at_offset(at)?;
        StripeFooter::decode(
            &bytes,
            info.offset,
            info.index_length,
            info.data_length,
            self.schema.column_count(),
        )
    }

    /// The columns a projection selects, by column id, and the schema of what is read.
    fn select(&self, projection: Option<&[String]>) -> Result<(Vec<bool>, TypeDescription)> {
        let count = self.schema.column_count();
        let Some(projection) = projection else {
            return Ok((vec![true; count], self.schema.clone()));
        };
        let mut selected = vec![false; count];
        // Ids of the schema, which `selected` has a slot for each of.
        let mut select = |id: u32| {
            if let Some(slot) = selected.get_mut(id as usize) {
                *slot = true;
            }
        };
        for name in projection {
            let mut t = &self.schema;
            select(0);
            // A top-level name with a dot in it, or a path of struct fields.
            let parts: Vec<&str> = if self.schema.field(name).is_some() {
                vec![name]
            } else {
                name.split('.').collect()
            };
            for part in parts {
                t = t.field(part).ok_or_else(|| ErrorKind::NoSuchColumn {
                    name: name.as_str().into(),
                })?;
                select(t.id());
            }
            for id in t.id()..=t.max_id() {
                select(id);
            }
        }
        let pruned = prune(&self.schema, &selected);
        Ok((selected, pruned))
    }

    /// The batches of the selected columns, stripe after stripe.
    ///
    /// # Errors
    ///
    /// When a projected column does not exist.
    pub fn batches(&self, options: ReadOptions) -> Result<Batches<'_, S>> {
        Batches::new(ReaderRef::Borrowed(self), options)
    }

    /// The batches of the selected columns, as [`batches`](Self::batches), owning the
    /// reader: for a reader of batches that outlives the scope that opened the file.
    ///
    /// # Errors
    ///
    /// When a projected column does not exist.
    pub fn into_batches(self, options: ReadOptions) -> Result<Batches<'static, S>>
    where
        S: 'static,
    {
        Batches::new(ReaderRef::Owned(Box::new(self)), options)
    }

    /// The rows of the selected columns.
    ///
    /// # Errors
    ///
    /// When a projected column does not exist.
    pub fn rows(&self, options: ReadOptions) -> Result<Rows<'_, S>> {
        let strings = options.strings;
        let batches = self.batches(options)?;
        Ok(Rows {
            names: column_names(&batches.schema),
            strings,
            batches,
            batch: Batch::default(),
            next: 0,
        })
    }
}

/// Checks the postscript's magic, or when it has none (Hive 0.11 files may lack it), the
/// header's.
fn check_magic<S: Source>(source: &S, postscript: &proto::PostScript) -> Result<()> {
    match postscript.magic.as_deref() {
        Some("ORC") => Ok(()),
        Some(other) => Err(ErrorKind::NotOrc {
            what: "postscript magic",
            found: Some(other.as_bytes().into()),
        }
        .into()),
        None => {
            let header = source.read_at(0, 3)?;
            if header.as_ref() == b"ORC" {
                return Ok(());
            }
            Err(ErrorKind::NotOrc {
                what: "no postscript magic, and the first bytes are",
                found: Some(header.as_ref().into()),
            }
            .into())
        }
    }
}

/// The stripes of a footer, each checked to lie before the metadata at `data_end` and
/// after the one before it (stripes that overlap, or come out of order, would be read
/// again and again: a million of them at the same bytes, say).
fn stripe_infos(footer: &proto::Footer, data_end: u64, limits: &Limits) -> Result<Vec<StripeInfo>> {
    let mut stripes: Vec<StripeInfo> = Vec::with_capacity(footer.stripes.len());
    let mut previous_end = 0;
    for (i, s) in footer.stripes.iter().enumerate() {
        let info = StripeInfo {
            offset: s.offset.unwrap_or(0),
            index_length: s.index_length.unwrap_or(0),
            data_length: s.data_length.unwrap_or(0),
            footer_length: s.footer_length.unwrap_or(0),
            num_rows: s.number_of_rows.unwrap_or(0),
        };
        let end = info
            .offset
            .checked_add(info.index_length)
            .and_then(|e| e.checked_add(info.data_length))
            .and_then(|e| e.checked_add(info.footer_length));
        check_limit(
            "stripe footer size",
            info.footer_length,
            limits.max_footer_size(),
        )
        .at_stripe(i)?;
        if info.offset < 3 || end.is_none_or(|e| e > data_end) {
            let len = (info.index_length)
                .saturating_add(info.data_length)
                .saturating_add(info.footer_length);
            return Err(Error::out_of_bounds(
                "stripe",
                (info.offset, len),
                "the file's data after its header",
                data_end,
            )
            .at_stripe(i));
        }
        if info.offset < previous_end {
            return Err(Error::from(ErrorKind::Overlap {
                what: "stripe",
                start: info.offset,
                previous_end,
            })
            .at_stripe(i));
        }
        previous_end = end.unwrap_or(data_end);
        stripes.push(info);
    }
    Ok(stripes)
}

/// The schema of the selected columns: struct fields not selected are left out.
fn prune(t: &TypeDescription, selected: &[bool]) -> TypeDescription {
    match t.kind() {
        Kind::Struct => TypeDescription::struct_of(
            t.fields()
                .filter(|(_, c)| selected.get(c.id() as usize).copied().unwrap_or(false))
                .map(|(n, c)| (n.to_owned(), prune(c, selected))),
        ),
        _ => t.clone(),
    }
}

/// A length or count of the file as a `usize`.
fn size(n: u64) -> Result<usize> {
    usize::try_from(n).map_err(|_| {
        Error::unsupported(
            "size past this platform's memory",
            Some(i64::try_from(n).unwrap_or(i64::MAX)),
        )
    })
}

fn read_range<S: Source>(
    source: &S,
    tail: &[u8],
    tail_start: u64,
    start: u64,
    len: u64,
) -> Result<Vec<u8>> {
    if start >= tail_start {
        let from = size(start - tail_start)?;
        return tail
            .get(from..from + size(len)?)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| Error::malformed("the tail is cut short"));
    }
    Ok(source.read_at(start, size(len)?)?.to_vec())
}

/// The length-delimited fields numbered `field` of the protobuf message `bytes` (the
/// entries of a repeated message field), without decoding them; other fields are skipped.
fn messages(mut bytes: &[u8], field: u32) -> Result<Vec<&[u8]>> {
    use prost::encoding::{WireType, decode_key, decode_varint};
    let mut found = Vec::new();
    while !bytes.is_empty() {
        let (tag, wire_type) = decode_key(&mut bytes).proto("protobuf field key")?;
        let len = match wire_type {
            WireType::Varint => {
                decode_varint(&mut bytes).proto("protobuf varint")?;
                0
            }
            WireType::SixtyFourBit => 8,
            WireType::ThirtyTwoBit => 4,
            WireType::LengthDelimited => {
                let len = decode_varint(&mut bytes).proto("protobuf field length")?;
                usize::try_from(len).map_err(|_| {
                    Error::unsupported(
                        "protobuf field longer than memory, bytes",
                        i64::try_from(len).ok(),
                    )
                })?
            }
            WireType::StartGroup | WireType::EndGroup => {
                return Err(Error::malformed("a protobuf group, which ORC never uses"));
            }
        };
        let (value, rest) = bytes
            .split_at_checked(len)
            .ok_or_else(|| Error::malformed("a protobuf field past the end of its message"))?;
        if tag == field && wire_type == WireType::LengthDelimited {
            found.push(value);
        }
        bytes = rest;
    }
    Ok(found)
}

/// [`ErrorKind::LimitExceeded`] when `value` is past `max`.
fn check_limit(limit: &'static str, value: u64, max: u64) -> Result<()> {
    if value > max {
        return Err(Error::limit(limit, value, max));
    }
    Ok(())
}

/// `bytes`, a footer, metadata section or stripe footer (`what`), decompressed, at most
/// [`Limits::max_footer_size`] of it.
fn decompress(
    chunks: &mut ChunkDecoder,
    bytes: &[u8],
    what: &'static str,
    limits: &Limits,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut starts = Vec::new();
    let max_output = chunks.max_output();
    chunks.set_max_output(usize::try_from(limits.max_footer_size()).unwrap_or(usize::MAX));
    let decoded = chunks.decode_stream(bytes, &mut out, &mut starts);
    chunks.set_max_output(max_output);
    decoded.map_err(|e| match e.into_kind() {
        ErrorKind::Decode { source, .. } => Error::decode(what, source),
        kind => kind.into(),
    })?;
    Ok(out)
}

/// The reader behind [`Batches`]: the caller's, or its own.
enum ReaderRef<'a, S> {
    Borrowed(&'a OrcReader<S>),
    Owned(Box<OrcReader<S>>),
}

impl<S> std::ops::Deref for ReaderRef<'_, S> {
    type Target = OrcReader<S>;

    fn deref(&self) -> &OrcReader<S> {
        match self {
            Self::Borrowed(reader) => reader,
            Self::Owned(reader) => reader,
        }
    }
}

/// Batches of rows: see [`OrcReader::batches`] and [`OrcReader::into_batches`].
pub struct Batches<'a, S> {
    reader: ReaderRef<'a, S>,
    selected: Vec<bool>,
    /// The columns whose row indexes are read (none without a predicate, unless kept).
    index_columns: Vec<bool>,
    keep_row_indexes: bool,
    schema: TypeDescription,
    batch_size: usize,
    limits: Limits,
    predicate: Option<Predicate>,
    stripe_statistics: Vec<proto::StripeStatistics>,
    next_stripe: usize,
    decoders: Vec<ColumnDecoder>,
    /// The row groups of the current stripe that might match, and the row indexes to
    /// seek to them (`None`: read every row).
    groups: Option<(Vec<bool>, HashMap<u32, proto::RowIndex>)>,
    /// The next row of the current stripe, and its rows.
    row: u64,
    stripe_rows: u64,
    /// The chunk decoder of the stripe footers and streams.
    chunks: SharedChunks,
    buffers: Buffers,
    failed: bool,
}

impl<'a, S: Source> Batches<'a, S> {
    fn new(reader: ReaderRef<'a, S>, options: ReadOptions) -> Result<Self> {
        let (selected, schema) = reader.select(options.projection.as_deref())?;
        // With a predicate, the row indexes of the columns read (to seek) and of the
        // columns judged (their statistics).
        let mut index_columns = vec![false; selected.len()];
        if options.keep_row_indexes {
            index_columns.clone_from(&selected);
        }
        let mut stripe_statistics = Vec::new();
        if let Some(predicate) = &options.predicate {
            index_columns.clone_from(&selected);
            for id in filter::columns(&reader.schema, predicate) {
                if let Some(slot) = index_columns.get_mut(id as usize) {
                    *slot = true;
                }
            }
            stripe_statistics = reader.stripe_statistics_proto()?;
        }
        let chunks = Arc::new(Mutex::new(ChunkDecoder::new(
            reader.compression,
            reader.block_size,
        )?));
        let limits = options.limits.unwrap_or(reader.limits);
        Ok(Self {
            reader,
            selected,
            index_columns,
            keep_row_indexes: options.keep_row_indexes,
            schema,
            batch_size: options.batch_size,
            limits,
            predicate: options.predicate,
            stripe_statistics,
            next_stripe: 0,
            decoders: Vec::new(),
            groups: None,
            row: 0,
            stripe_rows: 0,
            chunks,
            buffers: Buffers::default(),
            failed: false,
        })
    }

    /// The schema of the batches: the file's, without the columns not selected.
    pub fn schema(&self) -> &TypeDescription {
        &self.schema
    }

    /// Fills `batch` with the next rows (reusing its buffers); `false` at the end.
    ///
    /// # Errors
    ///
    /// When the file is malformed (the error's [`Location`](crate::Location) says in
    /// which stripe, and where it is known, column and stream).
    pub fn next_into(&mut self, batch: &mut Batch) -> Result<bool> {
        let filled = self.fill(batch);
        // `next_stripe` is past the stripe being read, or being opened.
        filled.at_stripe(self.next_stripe.saturating_sub(1))
    }

    fn fill(&mut self, batch: &mut Batch) -> Result<bool> {
        loop {
            if self.row >= self.stripe_rows {
                if !self.next_stripe()? {
                    return Ok(false);
                }
                continue;
            }
            let mut end = self.stripe_rows;
            if let Some((groups, indexes)) = &self.groups {
                let stride = u64::from(self.reader.row_index_stride());
                let group = size(self.row / stride)?;
                if !groups.get(group).copied().unwrap_or(true) {
                    // Seek to the next row group that might match, or leave the stripe.
                    let Some(next) = (group..groups.len()).find(|&g| groups.get(g) == Some(&true))
                    else {
                        self.row = self.stripe_rows;
                        continue;
                    };
                    for decoder in &mut self.decoders {
                        decoder.seek(next, &|id| indexes.get(&id))?;
                    }
                    self.row = next as u64 * stride;
                    continue;
                }
                end = end.min((group as u64 + 1) * stride);
            }
            let mut n = size((end - self.row).min(self.batch_size as u64))?;
            // Fewer rows when long strings would pass the batch's byte budget.
            for decoder in &mut self.decoders {
                n = n.min(decoder.rows_within_budget(n));
            }
            batch.num_rows = n;
            batch.columns.resize_with(self.decoders.len(), empty_vector);
            for (decoder, vector) in self.decoders.iter_mut().zip(&mut batch.columns) {
                decoder.next(n, None, vector)?;
            }
            self.row += n as u64;
            return Ok(true);
        }
    }

    /// Moves to the first row of row group `group` of stripe `index` by the positions of
    /// the stripe's row index, in a read that keeps its row indexes; `false` when the
    /// stripe has none that can seek (no index, or one without an entry for every row
    /// group of every column read) or holds no rows.
    pub(crate) fn seek_to(&mut self, index: usize, group: usize) -> Result<bool> {
        if self.next_stripe != index + 1 || self.decoders.is_empty() {
            self.next_stripe = index;
            if !self.next_stripe()? || self.next_stripe != index + 1 {
                return Ok(false);
            }
        }
        let Some((_, indexes)) = &self.groups else {
            return Ok(false);
        };
        for decoder in &mut self.decoders {
            decoder.seek(group, &|id| indexes.get(&id))?;
        }
        self.row = group as u64 * u64::from(self.reader.row_index_stride());
        Ok(true)
    }

    /// Opens the next stripe that might hold a matching row; `false` past the last.
    fn next_stripe(&mut self) -> Result<bool> {
        let reader = &*self.reader;
        loop {
            let index = self.next_stripe;
            let Some(info) = reader.stripes.get(index) else {
                return Ok(false);
            };
            self.next_stripe += 1;
            if info.num_rows == 0 {
                continue;
            }
            if let Some(predicate) = &self.predicate {
                let stats = self.stripe_statistics.get(index).map(|s| &s.col_stats);
                let judge = |id: u32| {
                    let s = stats.and_then(|s| s.get(id as usize)).cloned();
                    s.map(|s| reader.statistics_as_read(s))
                };
                if !filter::might_match(predicate, &reader.schema, &judge, info.num_rows) {
                    continue;
                }
            }
            let footer = reader.read_stripe_footer(
                info,
                &mut self.chunks.lock().unwrap_or_else(PoisonError::into_inner),
            )?;
            let with_index = (self.predicate.is_some() || self.keep_row_indexes)
                && reader.row_index_stride() > 0;
            let wanted: Vec<bool> = if with_index {
                self.selected
                    .iter()
                    .zip(&self.index_columns)
                    .map(|(&s, &i)| s || i)
                    .collect()
            } else {
                self.selected.clone()
            };
            // The last stripe's decoders let go of its streams, whose buffers take this
            // stripe's.
            self.decoders.clear();
            self.buffers.recycle();
            let mut streams = StripeStreams::load(
                &reader.source,
                &footer,
                |column, kind| stripe::bound(&reader.schema, &footer, info.num_rows, column, kind),
                &wanted,
                with_index,
                &self.chunks,
                &mut self.buffers,
            )?;
            streams.hybrid_calendar = reader.calendar() == proto::CalendarKind::JulianGregorian;
            streams.limits = self.limits;
            self.decoders = reader
                .schema
                .children()
                .iter()
                .filter(|c| self.selected.get(c.id() as usize) == Some(&true))
                .map(|c| ColumnDecoder::new(c, &self.selected, &mut streams))
                .collect::<Result<_>>()?;
            self.groups = None;
            if with_index {
                let predicate = self.predicate.as_ref();
                let mut groups = self.row_groups(predicate, info.num_rows, &streams.indexes);
                // An index shorter than the stripe cannot judge its last rows: read them all.
                let covered = groups.len() as u64 * u64::from(reader.row_index_stride());
                if covered < info.num_rows {
                    groups.clear();
                } else if !groups.contains(&true) {
                    continue;
                }
                // Seeking needs an index entry for every column read.
                let mut read = Vec::new();
                for decoder in &self.decoders {
                    decoder.columns(&mut read);
                }
                let seekable = !groups.is_empty()
                    && read.iter().all(|id| {
                        streams
                            .indexes
                            .get(id)
                            .is_some_and(|index| index.entry.len() >= groups.len())
                    });
                if seekable {
                    self.groups = Some((groups, std::mem::take(&mut streams.indexes)));
                }
            }
            self.row = 0;
            self.stripe_rows = info.num_rows;
            return Ok(true);
        }
    }

    /// Which row groups of a stripe of `rows` rows might match `predicate` (all, without
    /// one), by the row index's statistics.
    fn row_groups(
        &self,
        predicate: Option<&Predicate>,
        rows: u64,
        indexes: &HashMap<u32, proto::RowIndex>,
    ) -> Vec<bool> {
        let stride = u64::from(self.reader.row_index_stride());
        // As many groups as the index has entries (the row count is only a claim); the
        // rows past them are read.
        let entries = indexes
            .values()
            .map(|index| index.entry.len())
            .max()
            .unwrap_or(0);
        let count = usize::try_from(rows.div_ceil(stride)).map_or(entries, |c| c.min(entries));
        (0..count)
            .map(|group| {
                let Some(predicate) = predicate else {
                    return true;
                };
                let group_rows = stride.min(rows - group as u64 * stride);
                let judge = |id: u32| {
                    let s = indexes
                        .get(&id)
                        .and_then(|index| index.entry.get(group))
                        .and_then(|entry| entry.statistics.clone());
                    s.map(|s| self.reader.statistics_as_read(s))
                };
                filter::might_match(predicate, &self.reader.schema, &judge, group_rows)
            })
            .collect()
    }
}

impl<S: Source> Iterator for Batches<'_, S> {
    type Item = Result<Batch>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut batch = Batch::default();
        match self.next_into(&mut batch) {
            Ok(true) => Some(Ok(batch)),
            Ok(false) => None,
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// Rows: see [`OrcReader::rows`]. Each is made from its batch as it is asked for, so a
/// batch costs its vectors and one row at a time.
pub struct Rows<'a, S> {
    batches: Batches<'a, S>,
    names: Vec<Arc<str>>,
    strings: Strings,
    batch: Batch,
    /// The next row of `batch`.
    next: usize,
}

impl<S: Source> Iterator for Rows<'_, S> {
    type Item = Result<Row>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.next >= self.batch.num_rows {
            if self.batches.failed {
                return None;
            }
            self.next = 0;
            match self.batches.next_into(&mut self.batch) {
                Ok(true) => {}
                Ok(false) => {
                    self.batch.num_rows = 0;
                    return None;
                }
                Err(e) => {
                    self.batches.failed = true;
                    self.batch.num_rows = 0;
                    return Some(Err(e));
                }
            }
        }
        let row = row_at(
            &self.batch,
            &self.batches.schema,
            &self.names,
            self.next,
            self.strings,
        )
        .at_stripe(self.batches.next_stripe.saturating_sub(1));
        self.next += 1;
        if row.is_err() {
            self.batches.failed = true;
            self.batch.num_rows = 0;
        }
        Some(row)
    }
}
