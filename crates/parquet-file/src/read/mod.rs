//! The file reader: metadata, column chunks, page indexes, Bloom filters and rows.

mod rows;
mod verify;

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use parquet_bloom::Sbbf;

use crate::bloom;
use crate::column::{ChunkSelection, ColumnChunkReader};
use crate::error::{Context, Crypto as _, ErrorKind, Result};
use crate::index::{ColumnIndex, IndexKind, OffsetIndex, RowSelection, out_of_data};
use crate::io::Source;
use crate::limits::Limits;
use crate::metadata::{
    ChunkCipher, ColumnChunkMetaData, DecryptionOptions, FileMetaData, Footer, FooterProtection,
};
use crate::page::{ChunkInfo, PageReader};
use crate::schema::{ColumnDescriptor, Schema};

pub use rows::{Projection, RowIter};
pub use verify::{Disagreement, Verification};

/// How to read a file.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    verify_checksums: bool,
    decryption: DecryptionOptions,
    limits: Limits,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            verify_checksums: true,
            decryption: DecryptionOptions::default(),
            limits: Limits::default(),
        }
    }
}

impl ReadOptions {
    /// Checksums verified, no keys, the default [`Limits`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether to verify the CRC32 of every page that carries one (on by default).
    #[must_use]
    pub fn verify_checksums(mut self, verify: bool) -> Self {
        self.verify_checksums = verify;
        self
    }

    /// The keys for an encrypted file.
    #[must_use]
    pub fn with_decryption(mut self, decryption: DecryptionOptions) -> Self {
        self.decryption = decryption;
        self
    }

    /// The limits on sizes and counts from the file.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}

/// The most bytes a dictionary page header takes, by Arrow C++'s reckoning.
const MAX_DICTIONARY_HEADER: u64 = 100;

/// A Parquet file opened for reading: its metadata read and checked, its data read on
/// demand, one column chunk at a time.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/example.parquet");
/// use parquet_file::FileReader;
///
/// let reader = FileReader::open(std::fs::File::open(path)?)?;
/// println!("{}", reader.schema());
/// for row in reader.rows() {
///     let row = row?;
///     println!("{row:?}");
/// }
/// # Ok(()) }
/// ```
pub struct FileReader<S> {
    source: S,
    footer: Footer,
    options: ReadOptions,
}

impl<S> std::fmt::Debug for FileReader<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileReader")
            .field("metadata", &self.footer.metadata)
            .field("protection", &self.footer.protection)
            .finish_non_exhaustive()
    }
}

impl<S: Source> FileReader<S> {
    /// Opens `source` with the default options (checksums verified, no keys, default
    /// limits).
    ///
    /// # Errors
    ///
    /// As [`with_options`](Self::with_options).
    pub fn open(source: S) -> Result<Self> {
        Self::with_options(source, ReadOptions::default())
    }

    /// Opens `source` with `options`: reads and checks its footer, in time linear in the
    /// footer's size.
    ///
    /// # Errors
    ///
    /// A file too short to hold a footer, bad magic, a footer length past the start of
    /// the file or past the limits, a footer that does not decode, decrypt or
    /// authenticate (or a key that is needed and not given), a schema that breaks the
    /// format's rules or the limits, or row groups whose column count differs from the
    /// schema's.
    pub fn with_options(source: S, options: ReadOptions) -> Result<Self> {
        let footer = Footer::read(&source, &options.decryption, &options.limits)?;
        Ok(Self {
            source,
            footer,
            options,
        })
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &Arc<FileMetaData> {
        &self.footer.metadata
    }

    /// The file's schema.
    pub fn schema(&self) -> &Arc<Schema> {
        self.footer.metadata.schema()
    }

    /// The source the file is read from.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// The options the file is read with.
    pub fn options(&self) -> &ReadOptions {
        &self.options
    }

    /// The number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.footer.metadata.row_groups().len()
    }

    /// How the footer is protected.
    pub fn footer_protection(&self) -> FooterProtection {
        self.footer.protection
    }

    /// The length of the footer (the bytes before the final length and magic).
    pub fn footer_len(&self) -> u64 {
        self.footer.len
    }

    /// The length of the file.
    pub fn file_len(&self) -> u64 {
        self.footer.file_len
    }

    /// The end of the column data: the offset of the footer (for an encrypted footer, of
    /// its crypto metadata).
    pub fn data_end(&self) -> u64 {
        self.footer.data_end()
    }

    /// The descriptor, metadata and cipher of a column chunk: the arguments checked.
    fn chunk(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<(&ColumnDescriptor, &ColumnChunkMetaData, &ChunkCipher)> {
        let cipher = self.footer.cipher(row_group, column);
        let meta = self
            .metadata()
            .column_chunk_metadata(row_group, column)
            .map_err(|missing| match cipher {
                // A key the retriever failed to give: what it said, not that it is missing.
                ChunkCipher::KeyError(_) => match (cipher.cipher(), self.schema().column(column)) {
                    (Err(e), Ok(c)) => e.in_row_group(row_group).in_column(&c.path),
                    _ => missing,
                },
                _ => missing,
            })?;
        let descriptor = self.schema().column(column)?;
        Ok((descriptor, meta, cipher))
    }

    /// The byte range of a column chunk, checked to lie in the file's data.
    fn chunk_range(&self, meta: &ColumnChunkMetaData) -> Result<Range<u64>> {
        let start = meta.start();
        let mut len = meta.total_compressed_size();
        let data_end = self.data_end();
        if start < 4 || start.checked_add(len).is_none_or(|end| end > data_end) {
            return Err(ErrorKind::OutOfBounds {
                what: "column chunk",
                start,
                len,
                within: "the file's data",
                end: data_end,
            }
            .into());
        }
        if self.metadata().understates_chunk_sizes() {
            // As Arrow C++ does (PARQUET-816): take up to 100 more bytes, the most a
            // dictionary page header can take, which these writers left out of the size.
            len += (data_end - start - len).min(MAX_DICTIONARY_HEADER);
        }
        Ok(start..start + len)
    }

    /// A reader of the pages of a column chunk, the chunk read into memory whole: for
    /// looking at page headers ([`PageReader::next_header`]) and pages.
    ///
    /// # Errors
    ///
    /// A row group or column that does not exist, a chunk without metadata or key, a
    /// chunk whose byte range is not inside the file's data, or a read error.
    pub fn page_reader(&self, row_group: usize, column: usize) -> Result<PageReader> {
        self.chunk_pages(row_group, column, None)
            .map(|(pages, _)| pages)
    }

    /// Reads column chunk `column` of row group `row_group` into memory and returns a
    /// reader of its records.
    ///
    /// # Errors
    ///
    /// As [`page_reader`](Self::page_reader).
    pub fn column_chunk(&self, row_group: usize, column: usize) -> Result<ColumnChunkReader> {
        self.chunk_reader(row_group, column, None)
    }

    /// A reader of the rows `rows` of a column chunk. Where the chunk has an offset
    /// index, only the bytes before its first data page (its dictionary page) and the
    /// pages holding a selected row are read from the source, and the reader seeks from
    /// page to page; otherwise the chunk is read whole and the other rows are skipped.
    ///
    /// # Errors
    ///
    /// As [`column_chunk`](Self::column_chunk), and an offset index that does not read or
    /// fit the chunk.
    pub fn column_chunk_selected(
        &self,
        row_group: usize,
        column: usize,
        rows: &RowSelection,
    ) -> Result<ColumnChunkReader> {
        self.chunk_reader(row_group, column, Some(rows))
    }

    fn chunk_reader(
        &self,
        row_group: usize,
        column: usize,
        rows: Option<&RowSelection>,
    ) -> Result<ColumnChunkReader> {
        let (pages, selection) = self.chunk_pages(row_group, column, rows)?;
        let descriptor = self.schema().column(column)?.clone();
        let num_rows = self.metadata().row_group(row_group)?.num_rows();
        Ok(ColumnChunkReader::new(
            pages,
            descriptor,
            (row_group, num_rows),
            &self.options.limits,
            selection,
        ))
    }

    fn chunk_pages(
        &self,
        row_group: usize,
        column: usize,
        rows: Option<&RowSelection>,
    ) -> Result<(PageReader, Option<ChunkSelection>)> {
        let (descriptor, meta, cipher) = self.chunk(row_group, column)?;
        let path = &descriptor.path;
        let group = self.metadata().row_group(row_group)?;
        let cipher = cipher
            .cipher()
            .in_row_group(row_group)
            .in_column(path)?
            .cloned();
        let info = ChunkInfo {
            codec: meta.codec(),
            num_values: meta.num_values(),
            num_rows: group.num_rows(),
            max_def_level: descriptor.max_def_level,
            max_rep_level: descriptor.max_rep_level,
            cipher,
            row_group_ordinal: group.module_ordinal(row_group),
            column_ordinal: column,
            verify_checksums: self.options.verify_checksums,
            has_dictionary: meta.has_dictionary_page(),
            limits: self.options.limits,
        };
        let Some(ranges) = self.chunk_ranges(row_group, column, meta, rows)? else {
            // An empty chunk (of an empty row group): some writers give it no offsets.
            let selection = rows.map(|rows| ChunkSelection {
                rows: rows.clone(),
                pages: None,
            });
            return Ok((PageReader::new(Vec::new(), 0, info), selection));
        };
        let ChunkRanges {
            start,
            parts,
            offsets,
        } = ranges;
        let parts = parts
            .into_iter()
            .map(|r| {
                // Inside the chunk, which is inside the file: it fits the address space.
                #[allow(clippy::cast_possible_truncation)]
                let len = (r.end - r.start) as usize;
                Ok((r.start, self.source.read_at(r.start, len)?))
            })
            .collect::<Result<Vec<(u64, Bytes)>>>()
            .in_row_group(row_group)
            .in_column(path)?;
        let selection = rows.map(|rows| ChunkSelection {
            rows: rows.intersect(&RowSelection::all(group.num_rows())),
            pages: offsets.map(|o| o.page_locations),
        });
        Ok((PageReader::new(parts, start, info), selection))
    }

    /// The byte ranges of the source that a reader of column chunk `column` of row group
    /// `row_group` reads: those of [`column_chunk`](Self::column_chunk), or with `rows`,
    /// of [`column_chunk_selected`](Self::column_chunk_selected). For fetching them ahead
    /// of the read, from an object store for instance. With `rows`, the chunk's offset
    /// index is read from the source.
    ///
    /// # Errors
    ///
    /// As [`column_chunk_selected`](Self::column_chunk_selected).
    pub fn column_chunk_ranges(
        &self,
        row_group: usize,
        column: usize,
        rows: Option<&RowSelection>,
    ) -> Result<Vec<Range<u64>>> {
        let (_, meta, _) = self.chunk(row_group, column)?;
        Ok(self
            .chunk_ranges(row_group, column, meta, rows)?
            .map(|r| r.parts)
            .unwrap_or_default())
    }

    /// What a reader of the chunk `meta` (of `column` in `row_group`) reads: the whole
    /// chunk, or with `rows` and an offset index, the pages holding a selected row.
    /// `None` for a chunk without values, which is not read.
    fn chunk_ranges(
        &self,
        row_group: usize,
        column: usize,
        meta: &ColumnChunkMetaData,
        rows: Option<&RowSelection>,
    ) -> Result<Option<ChunkRanges>> {
        if meta.num_values() == 0 {
            return Ok(None);
        }
        let range = self
            .chunk_range(meta)
            .in_row_group(row_group)
            .in_column(&self.schema().column(column)?.path)?;
        let offsets = match rows {
            Some(_) => self.offset_index(row_group, column)?,
            None => None,
        };
        let parts = match (&offsets, rows) {
            (Some(offsets), Some(rows)) => selected_ranges(
                offsets,
                rows,
                range.start,
                self.metadata().row_group(row_group)?.num_rows(),
            ),
            _ => vec![range.clone()],
        };
        Ok(Some(ChunkRanges {
            start: range.start,
            parts,
            offsets,
        }))
    }

    /// The rows of every row group, every column.
    pub fn rows(&self) -> RowIter<'_, S> {
        RowIter::all(self)
    }

    /// The rows of the row groups and columns that `projection` selects.
    ///
    /// # Errors
    ///
    /// A column path in the projection that the schema does not have, or a row group
    /// that the file does not have.
    pub fn rows_with(&self, projection: Projection) -> Result<RowIter<'_, S>> {
        RowIter::new(self, projection)
    }

    /// The offset index of a column chunk, or `None` when the chunk has none. Its page
    /// locations are checked ([`OffsetIndex::decode`]).
    ///
    /// # Errors
    ///
    /// A row group or column that does not exist, an index outside the file's data, one
    /// that does not decode (or decrypt), or page locations that fail the checks.
    pub fn offset_index(&self, row_group: usize, column: usize) -> Result<Option<OffsetIndex>> {
        let (descriptor, meta, _) = self.chunk(row_group, column)?;
        let path = &descriptor.path;
        let read = || -> Result<Option<OffsetIndex>> {
            let Some((offset, bytes)) = self.read_index(row_group, column, IndexKind::Offset)?
            else {
                return Ok(None);
            };
            let range = self.chunk_range(meta)?;
            let rows = self.metadata().row_group(row_group)?.num_rows();
            OffsetIndex::decode(&bytes, range, rows)
                .at_offset(offset)
                .map(Some)
        };
        read().in_row_group(row_group).in_column(path)
    }

    /// The column index of a column chunk, decoded with the column's type and sort
    /// order, or `None` when the chunk has none.
    ///
    /// # Errors
    ///
    /// A row group or column that does not exist, an index outside the file's data, one
    /// that does not decode (or decrypt), or lists whose lengths disagree.
    pub fn column_index(&self, row_group: usize, column: usize) -> Result<Option<ColumnIndex>> {
        let (descriptor, _, _) = self.chunk(row_group, column)?;
        let read = || -> Result<Option<ColumnIndex>> {
            let Some((offset, bytes)) = self.read_index(row_group, column, IndexKind::Column)?
            else {
                return Ok(None);
            };
            let order = self.metadata().column_order(column);
            ColumnIndex::decode(&bytes, descriptor, order)
                .at_offset(offset)
                .map(Some)
        };
        read().in_row_group(row_group).in_column(&descriptor.path)
    }

    /// The file offset and bytes (decrypted) of an index, or `None` when the chunk has
    /// none.
    fn read_index(
        &self,
        row_group: usize,
        column: usize,
        kind: IndexKind,
    ) -> Result<Option<(u64, Bytes)>> {
        let chunk = self.metadata().column_chunk(row_group, column)?;
        let location = match kind {
            IndexKind::Column => chunk.column_index_location(),
            IndexKind::Offset => chunk.offset_index_location(),
        };
        let Some(location) = location else {
            return Ok(None);
        };
        let (offset, len) = (location.offset, u64::from(location.length));
        let end = self.data_end();
        if offset < 4 || offset.checked_add(len).is_none_or(|e| e > end) {
            return Err(out_of_data(kind, offset, len, end));
        }
        let bytes = self.source.read_at(offset, location.length as usize)?;
        let Some(cipher) = self.footer.cipher(row_group, column).cipher()? else {
            return Ok(Some((offset, bytes)));
        };
        let ordinal = self
            .metadata()
            .row_group(row_group)?
            .module_ordinal(row_group);
        let mut plain = Vec::new();
        cipher
            .decrypt(kind.module(ordinal, column), &bytes, &mut plain)
            .crypto("decrypting an index")
            .at_offset(offset)?;
        Ok(Some((offset, plain.into())))
    }

    /// The Bloom filter of a column chunk, or `None` when the chunk has none.
    ///
    /// # Errors
    ///
    /// A row group or column that does not exist, a filter outside the file, a header
    /// that does not decode (or decrypt), an algorithm, hash or compression other than
    /// the split-block, XXH64 and uncompressed that the format defines, or a bitset of an
    /// invalid size.
    pub fn bloom_filter(&self, row_group: usize, column: usize) -> Result<Option<Sbbf>> {
        let (descriptor, meta, cipher) = self.chunk(row_group, column)?;
        let read = || -> Result<Option<Sbbf>> {
            let Some(offset) = meta.bloom_filter_offset() else {
                return Ok(None);
            };
            let ordinal = self
                .metadata()
                .row_group(row_group)?
                .module_ordinal(row_group);
            let location = bloom::Location {
                offset,
                data_end: self.data_end(),
                cipher: cipher.cipher()?.map(|c| (&**c, ordinal, column)),
            };
            bloom::read(&self.source, &location).map(Some)
        };
        read().in_row_group(row_group).in_column(&descriptor.path)
    }

    /// Decodes every page of every column chunk, checks every checksum, and checks the
    /// page indexes, statistics and Bloom filters against the values they describe.
    ///
    /// Each chunk is read once, in batches of records (as [`rows`](Self::rows) reads
    /// them, so memory is bounded the same way), and only the least and the greatest
    /// value of a batch are converted to [`Field`](crate::Field)s; no row is assembled.
    ///
    /// # Errors
    ///
    /// A file that cannot be read at all (a page that does not decode, a checksum
    /// mismatch, a column chunk with other than its row group's rows): what reads but
    /// disagrees with itself is reported in the [`Verification`].
    pub fn verify(&self) -> Result<Verification> {
        verify::verify(self)
    }
}

/// The byte ranges a reader of a column chunk reads.
struct ChunkRanges {
    /// Where the chunk starts.
    start: u64,
    /// The ranges read: the chunk, or the parts of it that the rows selected need.
    parts: Vec<Range<u64>>,
    /// The chunk's offset index, when it chose the parts.
    offsets: Option<OffsetIndex>,
}

/// The byte ranges of a chunk starting at `start` that the rows of `rows` need: what
/// precedes its first data page, and the pages holding a selected row, adjacent ones
/// merged. The page locations were checked to lie in the chunk, in order.
fn selected_ranges(
    offsets: &OffsetIndex,
    rows: &RowSelection,
    start: u64,
    group_rows: u64,
) -> Vec<Range<u64>> {
    let mut ranges: Vec<Range<u64>> = Vec::new();
    let locations = &offsets.page_locations;
    if let Some(first) = locations.first().map(|l| l.offset)
        && first > start
    {
        ranges.push(start..first);
    }
    for (location, page) in locations.iter().zip(offsets.page_rows(group_rows)) {
        if rows
            .next_selected(page.start)
            .is_none_or(|row| row >= page.end)
        {
            continue;
        }
        let from = location.offset;
        let to = from + u64::from(location.compressed_page_size);
        match ranges.last_mut() {
            Some(last) if last.end == from => last.end = to,
            _ => ranges.push(from..to),
        }
    }
    ranges
}
