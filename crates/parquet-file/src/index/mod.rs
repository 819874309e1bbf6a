//! The page index of column chunks: where each data page is and which rows it holds
//! ([`OffsetIndex`]), and each page's statistics ([`ColumnIndex`]); and the
//! [`RowSelection`]s that let a reader skip pages.

mod selection;

use std::ops::Range;

use bytes::Bytes;
use parquet_thrift as thrift;

use crate::error::{Decoding as _, Error, ErrorKind, Result};
use crate::metadata::{ColumnOrder, ColumnStatistics, Statistics, share};
use crate::schema::ColumnDescriptor;

pub use selection::RowSelection;

/// Where a data page is and its first row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLocation {
    /// The file offset of the page header.
    pub offset: u64,
    /// The page's size as stored, header included.
    pub compressed_page_size: u32,
    /// The row (within the row group) of the page's first record.
    pub first_row_index: u64,
}

/// The offset index of a column chunk: its data pages' locations, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffsetIndex {
    /// One per data page.
    pub page_locations: Vec<PageLocation>,
    /// The bytes of each page's BYTE_ARRAY values, without their lengths.
    pub unencoded_byte_array_data_bytes: Option<Vec<i64>>,
}

impl OffsetIndex {
    /// Decodes an offset index and checks its page locations against its chunk's byte
    /// range and its row group's `rows`: increasing offsets inside the chunk, first rows
    /// starting at 0 and never decreasing nor passing the row group's rows, at least
    /// one page for a row group with rows.
    ///
    /// # Errors
    ///
    /// An index that does not decode, or locations that break the rules above.
    pub fn decode(bytes: &[u8], chunk: Range<u64>, rows: u64) -> Result<Self> {
        let (index, _) = thrift::OffsetIndex::read_from(bytes).decoding("offset index")?;
        let mut locations: Vec<PageLocation> = Vec::with_capacity(index.page_locations.len());
        // The end of the previous page.
        let mut previous_end: Option<u64> = None;
        for (i, page) in index.page_locations.iter().enumerate() {
            let offset = u64::try_from(page.offset).ok();
            let size = u32::try_from(page.compressed_page_size).ok();
            let first_row = u64::try_from(page.first_row_index).ok();
            let end = offset
                .zip(size)
                .and_then(|(o, s)| o.checked_add(u64::from(s)))
                .filter(|&e| offset.is_some_and(|o| chunk.start <= o) && e <= chunk.end);
            let in_order = match (previous_end, locations.last()) {
                (None, _) => first_row == Some(0),
                (Some(previous_end), Some(previous)) => {
                    offset.is_some_and(|o| previous_end <= o)
                        && first_row.is_some_and(|r| previous.first_row_index <= r)
                }
                (Some(_), None) => false,
            };
            let (Some(end), Some(offset), Some(size), Some(first_row)) =
                (end, offset, size, first_row)
            else {
                return Err(Error::invalid(
                    "offset index entry (outside its column chunk, or negative)",
                    i64::try_from(i).unwrap_or(i64::MAX),
                ));
            };
            if !in_order || first_row > rows {
                return Err(Error::invalid(
                    "offset index entry (out of order, or past the row group's rows)",
                    i64::try_from(i).unwrap_or(i64::MAX),
                ));
            }
            previous_end = Some(end);
            locations.push(PageLocation {
                offset,
                compressed_page_size: size,
                first_row_index: first_row,
            });
        }
        if locations.is_empty() && rows > 0 {
            return Err(Error::mismatch(
                "pages in the offset index of a row group with rows, at least",
                1,
                0,
            ));
        }
        Ok(Self {
            page_locations: locations,
            unencoded_byte_array_data_bytes: index.unencoded_byte_array_data_bytes,
        })
    }

    /// The rows of each page, in a row group of `rows` rows.
    pub fn page_rows(&self, rows: u64) -> impl Iterator<Item = Range<u64>> + '_ {
        let locations = &self.page_locations;
        // First rows were checked: from 0, non-decreasing, at most `rows`.
        let first = move |i: usize| locations.get(i).map_or(rows, |p| p.first_row_index);
        (0..locations.len()).map(move |i| first(i)..first(i + 1))
    }
}

/// Whether the bounds of a column index's pages are sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundaryOrder {
    /// In no particular order.
    Unordered,
    /// Ascending: each page's min and max are at least the previous page's.
    Ascending,
    /// Descending.
    Descending,
    /// A value newer than this reader.
    Unknown(i32),
}

impl BoundaryOrder {
    fn from_thrift(order: thrift::BoundaryOrder) -> Self {
        match order {
            thrift::BoundaryOrder::UNORDERED => Self::Unordered,
            thrift::BoundaryOrder::ASCENDING => Self::Ascending,
            thrift::BoundaryOrder::DESCENDING => Self::Descending,
            other => Self::Unknown(other.0),
        }
    }

    /// The order's name as parquet.thrift spells it.
    pub fn name(self) -> String {
        match self {
            Self::Unordered => "UNORDERED".into(),
            Self::Ascending => "ASCENDING".into(),
            Self::Descending => "DESCENDING".into(),
            Self::Unknown(n) => format!("BoundaryOrder({n})"),
        }
    }
}

/// The column index of a column chunk: the statistics of each of its data pages, in the
/// order of its [`OffsetIndex`].
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnIndex {
    /// Whether the pages' bounds are in ascending or descending order (or neither).
    pub boundary_order: BoundaryOrder,
    /// One entry per data page.
    pub pages: Vec<PageStatistics>,
    /// How often each repetition level occurs in each page: `max_rep_level + 1` counts
    /// per page, page after page.
    pub repetition_level_histograms: Option<Vec<i64>>,
    /// How often each definition level occurs in each page: `max_def_level + 1` counts
    /// per page, page after page.
    pub definition_level_histograms: Option<Vec<i64>>,
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

impl ColumnIndex {
    /// Decodes the column index of a column `column` whose order is `order`.
    ///
    /// # Errors
    ///
    /// An index that does not decode, or whose lists' lengths disagree.
    pub fn decode(
        bytes: &Bytes,
        column: &ColumnDescriptor,
        order: Option<ColumnOrder>,
    ) -> Result<Self> {
        let (index, _) = thrift::ColumnIndex::read_from(bytes).decoding("column index")?;
        let n = index.null_pages.len();
        for (len, what) in [
            (
                Some(index.min_values.len()),
                "minimums of the column index, by its pages",
            ),
            (
                Some(index.max_values.len()),
                "maximums of the column index, by its pages",
            ),
            (
                index.null_counts.as_ref().map(Vec::len),
                "null counts of the column index, by its pages",
            ),
            (
                index.nan_counts.as_ref().map(Vec::len),
                "NaN counts of the column index, by its pages",
            ),
        ] {
            if let Some(len) = len.filter(|&len| len != n) {
                return Err(Error::mismatch(what, n as u64, len as u64));
            }
        }
        let count = |counts: &Option<Vec<i64>>, i: usize| {
            counts
                .as_ref()
                .and_then(|c| c.get(i))
                .and_then(|&c| u64::try_from(c).ok())
        };
        let pages = index
            .null_pages
            .iter()
            .zip(index.min_values.iter().zip(&index.max_values))
            .enumerate()
            .map(|(i, (&null_page, (min, max)))| {
                let stats = Statistics {
                    null_count: count(&index.null_counts, i),
                    nan_count: count(&index.nan_counts, i),
                    // A null page's bounds are empty placeholders.
                    min_value: (!null_page).then(|| share(bytes, min)),
                    max_value: (!null_page).then(|| share(bytes, max)),
                    ..Statistics::default()
                };
                PageStatistics {
                    null_page,
                    statistics: ColumnStatistics::decode(column, order, &stats),
                }
            })
            .collect();
        Ok(Self {
            boundary_order: BoundaryOrder::from_thrift(index.boundary_order),
            pages,
            repetition_level_histograms: index.repetition_level_histograms,
            definition_level_histograms: index.definition_level_histograms,
        })
    }
}

/// Which index of a column chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IndexKind {
    Column,
    Offset,
}

impl IndexKind {
    pub(crate) const fn what(self) -> &'static str {
        match self {
            Self::Column => "column index",
            Self::Offset => "offset index",
        }
    }

    /// The index's module, for decryption.
    pub(crate) const fn module(self, row_group: usize, column: usize) -> parquet_crypto::Module {
        match self {
            Self::Column => parquet_crypto::Module::ColumnIndex { row_group, column },
            Self::Offset => parquet_crypto::Module::OffsetIndex { row_group, column },
        }
    }
}

/// The error of an index range outside the file's data.
pub(crate) fn out_of_data(kind: IndexKind, offset: u64, len: u64, end: u64) -> Error {
    ErrorKind::OutOfBounds {
        what: kind.what(),
        start: offset,
        len,
        within: "the file's data",
        end,
    }
    .into()
}
