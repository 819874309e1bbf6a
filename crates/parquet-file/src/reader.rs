//! The file reader: metadata, column chunks, and rows.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use parquet_thrift::OffsetIndex;

use crate::column::ColumnChunkReader;
use crate::decryption::DecryptionOptions;
use crate::error::{Context, Error, Result};
use crate::metadata::{ChunkCipher, ParquetMetaData};
use crate::page::{ChunkInfo, PageReader, codec};
use crate::page_index::{RowSelection, check_locations, page_rows};
use crate::rows::{Projection, RowIter};
use crate::schema::Schema;
use crate::source::Source;

/// How to read a file.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    verify_checksums: bool,
    decryption: DecryptionOptions,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            verify_checksums: true,
            decryption: DecryptionOptions::default(),
        }
    }
}

impl ReadOptions {
    /// Checksums verified, no keys.
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
}

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
/// for row in reader.rows()? {
///     let row = row?;
///     println!("{row:?}");
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct FileReader<S> {
    source: S,
    metadata: Arc<ParquetMetaData>,
    options: ReadOptions,
}

impl<S: Source> FileReader<S> {
    /// Opens `source` with the default options (checksums verified, no keys).
    ///
    /// # Errors
    ///
    /// As [`ParquetMetaData::read`].
    pub fn open(source: S) -> Result<Self> {
        Self::with_options(source, ReadOptions::default())
    }

    /// Opens `source` with `options`.
    ///
    /// # Errors
    ///
    /// As [`ParquetMetaData::read`].
    pub fn with_options(source: S, options: ReadOptions) -> Result<Self> {
        let metadata = Arc::new(ParquetMetaData::read(&source, &options.decryption)?);
        Ok(Self {
            source,
            metadata,
            options,
        })
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &Arc<ParquetMetaData> {
        &self.metadata
    }

    /// The file's schema.
    pub fn schema(&self) -> &Arc<Schema> {
        self.metadata.schema()
    }

    /// The source the file is read from.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// The number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.metadata.row_groups().len()
    }

    /// Reads column chunk `column` of row group `row_group` into memory and returns a
    /// reader of its pages and values.
    ///
    /// # Errors
    ///
    /// A row group or column that does not exist, a chunk without metadata or key, a
    /// chunk whose byte range is not inside the file's data, an unknown codec, or a read
    /// error.
    pub fn column_chunk(&self, row_group: usize, column: usize) -> Result<ColumnChunkReader> {
        self.chunk_reader(row_group, column, None)
    }

    /// As [`column_chunk`](Self::column_chunk), but reads only what the rows of `rows`
    /// need, by the chunk's offset index `offsets` (from
    /// [`offset_index`](Self::offset_index)): the bytes before its first data page (its
    /// dictionary page), and the data pages holding a selected row. Move the reader to
    /// the first page of each run of pages read with [`ColumnChunkReader::seek_page`]
    /// (which also reads the dictionary page): it stops at the end of the run.
    ///
    /// # Errors
    ///
    /// As [`column_chunk`](Self::column_chunk), and page locations that do not fit the
    /// chunk.
    pub fn column_chunk_rows(
        &self,
        row_group: usize,
        column: usize,
        offsets: &OffsetIndex,
        rows: &RowSelection,
    ) -> Result<ColumnChunkReader> {
        self.chunk_reader(row_group, column, Some((offsets, rows)))
    }

    fn chunk_reader(
        &self,
        row_group: usize,
        column: usize,
        pages: Option<(&OffsetIndex, &RowSelection)>,
    ) -> Result<ColumnChunkReader> {
        let schema = self.schema();
        if row_group >= self.num_row_groups() {
            return Err(Error::argument(format!(
                "row group {row_group} does not exist: the file has {}",
                self.num_row_groups()
            )));
        }
        let Some(descriptor) = schema.columns().get(column) else {
            return Err(Error::argument(format!(
                "column {column} does not exist: the file has {}",
                schema.columns().len()
            )));
        };
        self.read_chunk(row_group, column, pages)
            .in_row_group(row_group)
            .in_column(&descriptor.name)
            .map(|pages| ColumnChunkReader::new(pages, descriptor.clone()))
    }

    fn read_chunk(
        &self,
        row_group: usize,
        column: usize,
        pages: Option<(&OffsetIndex, &RowSelection)>,
    ) -> Result<PageReader> {
        let meta = self.metadata.column_metadata(row_group, column)?;
        let descriptor = self.schema().column(column);
        if meta.num_values == 0 {
            // An empty chunk (of an empty row group): some writers give it no offsets.
            return Ok(PageReader::new(
                Bytes::new(),
                0,
                ChunkInfo::empty(descriptor),
            ));
        }
        let (start, mut len) = chunk_range(meta)?;
        let data_end = self.metadata.data_end();
        if start < 4 || start.checked_add(len).is_none_or(|end| end > data_end) {
            return Err(Error::invalid(format!(
                "column chunk at offset {start} of {len} bytes is not inside the file's data (bytes 4..{data_end})"
            )));
        }
        if self.metadata.understates_chunk_sizes() {
            // As Arrow C++ does (PARQUET-816): take up to 100 more bytes, the most a
            // dictionary page header can take, which these writers left out of the size.
            len += (data_end - start - len).min(MAX_DICTIONARY_HEADER);
        }
        let ranges = match pages {
            None => std::iter::once(start..start + len).collect(),
            Some((offsets, rows)) => {
                let group_rows = self.metadata.row_groups()[row_group].num_rows;
                check_locations(offsets, start..start + len, group_rows)?;
                selected_ranges(offsets, rows, start, group_rows.cast_unsigned())
            }
        };
        let parts = ranges
            .into_iter()
            .map(|r| {
                // Inside the chunk, which is inside the file: it fits the address space.
                #[allow(clippy::cast_possible_truncation)]
                let len = (r.end - r.start) as usize;
                Ok((r.start, self.source.read_at(r.start, len)?))
            })
            .collect::<Result<Vec<_>>>()?;
        let cipher = match self.metadata.cipher(row_group, column) {
            ChunkCipher::Plaintext => None,
            ChunkCipher::Cipher(cipher) => Some(Arc::clone(cipher)),
            ChunkCipher::NoKey(message) => return Err(Error::argument(message.clone())),
        };
        let info = ChunkInfo {
            codec: codec(meta.codec)?,
            num_values: u64::try_from(meta.num_values).map_err(|_| {
                Error::invalid(format!("negative number of values: {}", meta.num_values))
            })?,
            max_def_level: descriptor.max_def_level,
            max_rep_level: descriptor.max_rep_level,
            cipher,
            row_group_ordinal: self.metadata.row_group_ordinal(row_group),
            column_ordinal: column,
            verify_checksums: self.options.verify_checksums,
            has_dictionary: meta.dictionary_page_offset.is_some_and(|o| o > 0),
        };
        Ok(PageReader::with_parts(parts, start, info))
    }

    /// Every row of the file, every column.
    ///
    /// # Errors
    ///
    /// None yet: errors come with the rows.
    pub fn rows(&self) -> Result<RowIter<'_, S>> {
        self.rows_with(Projection::all())
    }

    /// The rows of the row groups and columns that `projection` selects.
    ///
    /// # Errors
    ///
    /// A column path in the projection that the schema does not have.
    pub fn rows_with(&self, projection: Projection) -> Result<RowIter<'_, S>> {
        RowIter::new(self, projection)
    }
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
    if let Some(first) = locations.first().map(|l| l.offset.cast_unsigned())
        && first > start
    {
        ranges.push(start..first);
    }
    for (location, page) in locations.iter().zip(page_rows(offsets, group_rows)) {
        if rows
            .next_selected(page.start)
            .is_none_or(|row| row >= page.end)
        {
            continue;
        }
        let from = location.offset.cast_unsigned();
        let to = from + u64::from(location.compressed_page_size.cast_unsigned());
        match ranges.last_mut() {
            Some(last) if last.end == from => last.end = to,
            _ => ranges.push(from..to),
        }
    }
    ranges
}

/// The most bytes a dictionary page header takes, by Arrow C++'s reckoning.
const MAX_DICTIONARY_HEADER: u64 = 100;

/// The byte range of a column chunk: from its dictionary page (when it has one) or first
/// data page, `total_compressed_size` bytes.
pub(crate) fn chunk_range(meta: &parquet_thrift::ColumnMetaData<'_>) -> Result<(u64, u64)> {
    let start = match meta.dictionary_page_offset {
        // Some writers store 0 for "none".
        Some(dict) if dict > 0 && dict < meta.data_page_offset => dict,
        _ => meta.data_page_offset,
    };
    let start = u64::try_from(start)
        .map_err(|_| Error::invalid(format!("negative page offset {start}")))?;
    let len = u64::try_from(meta.total_compressed_size).map_err(|_| {
        Error::invalid(format!(
            "negative column chunk size {}",
            meta.total_compressed_size
        ))
    })?;
    Ok((start, len))
}
