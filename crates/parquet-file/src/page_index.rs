//! The page index of column chunks: where each data page is and which rows it holds
//! ([`OffsetIndex`]), and each page's statistics ([`ColumnIndex`]); and the
//! [`RowSelection`]s that let a reader skip pages.

use std::ops::Range;

use bytes::Bytes;
use parquet_crypto::Module;
use parquet_thrift::{BoundaryOrder, OffsetIndex, Statistics};

use crate::error::{Context, Error, Result};
use crate::metadata::ChunkCipher;
use crate::reader::{FileReader, chunk_range};
use crate::source::Source;
use crate::statistics::ColumnStatistics;

/// The column index of a column chunk: the statistics of each of its data pages, in the
/// order of its [`OffsetIndex`].
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnIndex {
    /// Whether the pages' bounds are in ascending or descending order (or neither).
    pub boundary_order: BoundaryOrder,
    /// One entry per data page.
    pub pages: Vec<PageStatistics>,
}

/// The statistics of one data page, from the column index.
#[derive(Debug, Clone, PartialEq)]
pub struct PageStatistics {
    /// Whether every value of the page is null (it then has no bounds).
    pub null_page: bool,
    /// Its bounds and counts, trusted by the same rules as a chunk's statistics
    /// ([`ColumnStatistics::decode`]). The index has no distinct counts.
    pub statistics: ColumnStatistics,
}

impl<S: Source> FileReader<S> {
    /// The offset index of a column chunk, or `None` when the chunk has none. Its page
    /// locations are checked: increasing offsets inside the chunk, first rows starting at
    /// 0 and never decreasing nor passing the row group's rows.
    ///
    /// # Errors
    ///
    /// An index outside the file's data, one that does not decode (or decrypt), or page
    /// locations that fail the checks above.
    pub fn offset_index(&self, row_group: usize, column: usize) -> Result<Option<OffsetIndex>> {
        let name = self.schema().column(column).name.clone();
        self.read_offset_index(row_group, column)
            .in_row_group(row_group)
            .in_column(&name)
    }

    /// The column index of a column chunk, decoded with the column's type and sort
    /// order, or `None` when the chunk has none.
    ///
    /// # Errors
    ///
    /// An index outside the file's data, one that does not decode (or decrypt), or lists
    /// whose lengths disagree.
    pub fn column_index(&self, row_group: usize, column: usize) -> Result<Option<ColumnIndex>> {
        let name = self.schema().column(column).name.clone();
        self.read_column_index(row_group, column)
            .in_row_group(row_group)
            .in_column(&name)
    }

    fn read_offset_index(&self, row_group: usize, column: usize) -> Result<Option<OffsetIndex>> {
        let Some((offset, bytes)) = self.read_index(row_group, column, IndexKind::Offset)? else {
            return Ok(None);
        };
        let (index, _) = OffsetIndex::read_from(&bytes).at_offset(offset)?;
        let meta = self.metadata().column_metadata(row_group, column)?;
        let (start, len) = chunk_range(meta)?;
        let rows = self.metadata().row_groups()[row_group].num_rows;
        check_locations(&index, start..start.saturating_add(len), rows)?;
        Ok(Some(index))
    }

    fn read_column_index(&self, row_group: usize, column: usize) -> Result<Option<ColumnIndex>> {
        let Some((offset, bytes)) = self.read_index(row_group, column, IndexKind::Column)? else {
            return Ok(None);
        };
        let (index, _) = parquet_thrift::ColumnIndex::read_from(&bytes).at_offset(offset)?;
        let n = index.null_pages.len();
        let agrees = |len: Option<usize>| len.is_none_or(|len| len == n);
        if !(agrees(Some(index.min_values.len()))
            && agrees(Some(index.max_values.len()))
            && agrees(index.null_counts.as_ref().map(Vec::len))
            && agrees(index.nan_counts.as_ref().map(Vec::len)))
        {
            return Err(Error::invalid(format!(
                "column index lists of different lengths ({n} null-page flags, {} minimums, {} maximums)",
                index.min_values.len(),
                index.max_values.len()
            )));
        }
        let descriptor = self.schema().column(column);
        let order = self
            .metadata()
            .file_metadata()
            .column_orders
            .as_ref()
            .and_then(|o| o.get(column));
        let pages = (0..n)
            .map(|i| {
                let null_page = index.null_pages[i];
                let stats = Statistics {
                    null_count: index.null_counts.as_ref().map(|c| c[i]),
                    nan_count: index.nan_counts.as_ref().map(|c| c[i]),
                    // A null page's bounds are empty placeholders.
                    min_value: (!null_page).then(|| index.min_values[i].clone()),
                    max_value: (!null_page).then(|| index.max_values[i].clone()),
                    ..Statistics::default()
                };
                PageStatistics {
                    null_page,
                    statistics: ColumnStatistics::decode(descriptor, order, &stats),
                }
            })
            .collect();
        Ok(Some(ColumnIndex {
            boundary_order: index.boundary_order,
            pages,
        }))
    }

    /// The file offset and bytes (decrypted) of an index, or `None` when the chunk has
    /// none.
    fn read_index(
        &self,
        row_group: usize,
        column: usize,
        kind: IndexKind,
    ) -> Result<Option<(u64, Bytes)>> {
        let chunk = self.metadata().row_groups()[row_group]
            .columns
            .get(column)
            .ok_or_else(|| Error::invalid("no such column chunk"))?;
        let (offset, length) = match kind {
            IndexKind::Column => (chunk.column_index_offset, chunk.column_index_length),
            IndexKind::Offset => (chunk.offset_index_offset, chunk.offset_index_length),
        };
        let (Some(offset), Some(length)) = (offset, length) else {
            return Ok(None);
        };
        let end = self.metadata().data_end();
        let range = u64::try_from(offset)
            .ok()
            .zip(u64::try_from(length).ok())
            .filter(|&(o, l)| o >= 4 && o.checked_add(l).is_some_and(|e| e <= end));
        let Some((offset, length)) = range else {
            return Err(Error::invalid(format!(
                "{} index at offset {offset} of {length} bytes is not inside the file's data (bytes 4..{end})",
                kind.name()
            )));
        };
        // The range was checked against the file's length: it fits the address space.
        #[allow(clippy::cast_possible_truncation)]
        let bytes = self.source().read_at(offset, length as usize)?;
        let ordinal = self.metadata().row_group_ordinal(row_group);
        let module = match kind {
            IndexKind::Column => Module::ColumnIndex {
                row_group: ordinal,
                column,
            },
            IndexKind::Offset => Module::OffsetIndex {
                row_group: ordinal,
                column,
            },
        };
        match self.metadata().cipher(row_group, column) {
            ChunkCipher::Plaintext => Ok(Some((offset, bytes))),
            ChunkCipher::NoKey(message) => Err(Error::argument(message.clone())),
            ChunkCipher::Cipher(cipher) => {
                let mut plain = Vec::new();
                cipher
                    .decrypt(module, &bytes, &mut plain)
                    .at_offset(offset)?;
                Ok(Some((offset, plain.into())))
            }
        }
    }
}

/// Which index of a column chunk.
#[derive(Clone, Copy)]
enum IndexKind {
    Column,
    Offset,
}

impl IndexKind {
    const fn name(self) -> &'static str {
        match self {
            Self::Column => "column",
            Self::Offset => "offset",
        }
    }
}

/// Checks the page locations of an offset index against its chunk's byte range and its
/// row group's number of rows.
pub(crate) fn check_locations(index: &OffsetIndex, chunk: Range<u64>, rows: i64) -> Result<()> {
    if index.page_locations.is_empty() && rows > 0 {
        return Err(Error::invalid(format!(
            "offset index without pages, for a row group of {rows} rows"
        )));
    }
    // The end of the previous page and its first row.
    let mut previous: Option<(u64, i64)> = None;
    for (i, page) in index.page_locations.iter().enumerate() {
        let offset = u64::try_from(page.offset).ok();
        let size = u64::try_from(page.compressed_page_size).ok();
        let end = offset
            .zip(size)
            .and_then(|(o, s)| o.checked_add(s))
            .filter(|&e| offset.is_some_and(|o| chunk.start <= o) && e <= chunk.end);
        let in_order = match previous {
            None => page.first_row_index == 0,
            Some((previous_end, row)) => {
                offset.is_some_and(|o| previous_end <= o) && row <= page.first_row_index
            }
        };
        let Some(end) = end.filter(|_| in_order && page.first_row_index <= rows) else {
            return Err(Error::invalid(format!(
                "offset index entry {i} (offset {}, {} bytes, first row {}) does not fit its column chunk (bytes {}..{}, {rows} rows) and the entries before it",
                page.offset,
                page.compressed_page_size,
                page.first_row_index,
                chunk.start,
                chunk.end
            )));
        };
        previous = Some((end, page.first_row_index));
    }
    Ok(())
}

/// The rows of a row group to read: sorted, disjoint, non-adjacent ranges of row
/// indexes within the row group.
///
/// ```
/// use parquet_file::RowSelection;
///
/// let a = RowSelection::from_ranges([0..10, 20..30]);
/// let b = RowSelection::from_ranges([5..25]);
/// assert_eq!(a.intersect(&b).ranges(), &[5..10, 20..25]);
/// assert_eq!(a.union(&b).ranges(), &[0..30]);
/// assert_eq!(a.next_selected(12), Some(20));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowSelection {
    ranges: Vec<Range<u64>>,
}

impl RowSelection {
    /// The first `rows` rows.
    pub fn all(rows: u64) -> Self {
        Self::from_ranges(std::iter::once(0..rows))
    }

    /// These ranges, in any order, overlapping or not (empty ones are dropped).
    pub fn from_ranges(ranges: impl IntoIterator<Item = Range<u64>>) -> Self {
        let mut ranges: Vec<Range<u64>> = ranges.into_iter().filter(|r| r.start < r.end).collect();
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Self { ranges: merged }
    }

    /// The ranges selected.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// The number of rows selected.
    pub fn row_count(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether no row is selected.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The rows in both selections.
    #[must_use]
    pub fn intersect(&self, other: &Self) -> Self {
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while let (Some(a), Some(b)) = (self.ranges.get(i), other.ranges.get(j)) {
            let start = a.start.max(b.start);
            let end = a.end.min(b.end);
            if start < end {
                out.push(start..end);
            }
            if a.end < b.end {
                i += 1;
            } else {
                j += 1;
            }
        }
        Self::from_ranges(out)
    }

    /// The rows in either selection.
    #[must_use]
    pub fn union(&self, other: &Self) -> Self {
        Self::from_ranges(self.ranges.iter().chain(&other.ranges).cloned())
    }

    /// The first selected row at or after `row`.
    pub fn next_selected(&self, row: u64) -> Option<u64> {
        let i = self.ranges.partition_point(|r| r.end <= row);
        self.ranges.get(i).map(|r| r.start.max(row))
    }
}

/// The rows of each page of an offset index, in a row group of `rows` rows.
pub(crate) fn page_rows(index: &OffsetIndex, rows: u64) -> impl Iterator<Item = Range<u64>> + '_ {
    let locations = &index.page_locations;
    // First rows were checked: from 0, non-decreasing, at most `rows`.
    let first = move |i: usize| {
        locations
            .get(i)
            .map_or(rows, |p| p.first_row_index.cast_unsigned())
    };
    (0..locations.len()).map(move |i| first(i)..first(i + 1))
}
