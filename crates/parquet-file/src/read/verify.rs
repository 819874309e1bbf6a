//! Verifying a file: every page decoded and checksummed, and every page index, statistic
//! and Bloom filter checked against the values it describes.

use std::cmp::Ordering;
use std::fmt;

use parquet_bloom::Sbbf;

use super::FileReader;
use crate::column::{BYTE_ARRAY_RECORDS, ColumnBatch, PageSpan, holds_byte_arrays};
use crate::error::{Context, Result};
use crate::index::{BoundaryOrder, ColumnIndex, OffsetIndex};
use crate::io::Source;
use crate::metadata::{ColumnStatistics, SortOrder, compare_values, is_nan, sort_order};
use crate::path::ColumnPath;
use crate::schema::ColumnDescriptor;
use crate::value::{ColumnValues, Converter, Field};

/// Records read at a time while verifying a page.
const STEP: usize = 64 * 1024;

/// What `verify` found: the counts of what it read, and every disagreement between the
/// file's metadata and its data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verification {
    /// The rows read.
    pub rows: u64,
    /// The data pages decoded.
    pub pages: u64,
    /// Everything that disagrees with the values it describes.
    pub disagreements: Vec<Disagreement>,
}

impl Verification {
    /// Whether nothing disagrees.
    pub fn is_ok(&self) -> bool {
        self.disagreements.is_empty()
    }
}

/// A statement of the file's metadata that its data contradicts.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Disagreement {
    /// The offset index and the chunk's data pages differ in number.
    OffsetIndexPages {
        /// Where.
        row_group: usize,
        /// The column.
        column: ColumnPath,
        /// Pages in the offset index.
        index: usize,
        /// Data pages in the chunk.
        pages: usize,
    },
    /// An offset index entry that does not describe its page.
    OffsetIndexEntry {
        /// Where.
        row_group: usize,
        /// The column.
        column: ColumnPath,
        /// The page's ordinal.
        page: usize,
        /// Which field: `offset`, `compressed_page_size` or `first_row_index`.
        field: &'static str,
        /// What the index says.
        index: u64,
        /// What the page is.
        actual: u64,
    },
    /// The column index and the chunk's data pages differ in number.
    ColumnIndexPages {
        /// Where.
        row_group: usize,
        /// The column.
        column: ColumnPath,
        /// Pages in the column index.
        index: usize,
        /// Data pages in the chunk.
        pages: usize,
    },
    /// Statistics (of a chunk, or of a page in the column index) that the values
    /// contradict.
    Statistics {
        /// Where.
        row_group: usize,
        /// The column.
        column: ColumnPath,
        /// The page's ordinal, for the column index; `None` for the chunk's statistics.
        page: Option<usize>,
        /// What is wrong: `"null count"`, `"null page"`, `"minimum above a value"`,
        /// `"maximum below a value"`, `"exact minimum not the least value"`, `"exact
        /// maximum not the greatest value"`.
        what: &'static str,
        /// What the statistics say.
        stated: Field,
        /// What the values show.
        actual: Field,
    },
    /// A column index whose boundary order its pages' bounds do not follow.
    BoundaryOrder {
        /// Where.
        row_group: usize,
        /// The column.
        column: ColumnPath,
        /// The order stated.
        order: BoundaryOrder,
        /// The first page whose bounds break it.
        page: usize,
    },
    /// A value that the chunk's Bloom filter says is absent.
    BloomFilter {
        /// Where.
        row_group: usize,
        /// The column.
        column: ColumnPath,
        /// The value.
        value: Field,
    },
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OffsetIndexPages {
                row_group,
                column,
                index,
                pages,
            } => write!(
                f,
                "row group {row_group}, column {column}: the offset index has {index} pages, the chunk {pages} data pages"
            ),
            Self::OffsetIndexEntry {
                row_group,
                column,
                page,
                field,
                index,
                actual,
            } => write!(
                f,
                "row group {row_group}, column {column}, page {page}: the offset index says {field} {index}, the page has {actual}"
            ),
            Self::ColumnIndexPages {
                row_group,
                column,
                index,
                pages,
            } => write!(
                f,
                "row group {row_group}, column {column}: the column index has {index} pages, the chunk {pages} data pages"
            ),
            Self::Statistics {
                row_group,
                column,
                page,
                what,
                stated,
                actual,
            } => {
                write!(f, "row group {row_group}, column {column}")?;
                match page {
                    Some(page) => write!(f, ", page {page}: column index {what}")?,
                    None => write!(f, ": chunk statistics {what}")?,
                }
                write!(f, ": stated {stated:?}, values show {actual:?}")
            }
            Self::BoundaryOrder {
                row_group,
                column,
                order,
                page,
            } => write!(
                f,
                "row group {row_group}, column {column}: the column index says {}, page {page}'s bounds break it",
                order.name()
            ),
            Self::BloomFilter {
                row_group,
                column,
                value,
            } => write!(
                f,
                "row group {row_group}, column {column}: the Bloom filter misses the value {value:?}"
            ),
        }
    }
}

/// What the values of one page (or a whole chunk) are.
#[derive(Debug, Default)]
struct Summary {
    nulls: u64,
    values: u64,
    min: Option<Field>,
    max: Option<Field>,
}

impl Summary {
    fn add(&mut self, field: &Field, order: SortOrder) {
        if is_nan(Some(field)) {
            return;
        }
        if self
            .min
            .as_ref()
            .is_none_or(|m| compare_values(field, m, order) == Some(Ordering::Less))
        {
            self.min = Some(field.clone());
        }
        if self
            .max
            .as_ref()
            .is_none_or(|m| compare_values(field, m, order) == Some(Ordering::Greater))
        {
            self.max = Some(field.clone());
        }
    }

    fn merge(&mut self, other: &Self, order: SortOrder) {
        self.nulls += other.nulls;
        self.values += other.values;
        for field in other.min.iter().chain(&other.max) {
            self.add(field, order);
        }
    }
}

/// A page read: where it is, and what its values are.
struct PageRead {
    span: PageSpan,
    summary: Summary,
}

pub(super) fn verify<S: Source>(reader: &FileReader<S>) -> Result<Verification> {
    let mut out = Verification::default();
    let schema = reader.schema();
    for (g, group) in reader.metadata().row_groups().iter().enumerate() {
        for (c, column) in schema.columns().iter().enumerate() {
            let pages = verify_chunk(reader, g, c, column, &mut out.disagreements)
                .in_row_group(g)
                .in_column(&column.path)?;
            out.pages += pages as u64;
        }
        // Each chunk was read to its end, which holds its row group's rows.
        out.rows += group.num_rows();
    }
    Ok(out)
}

/// Verifies one column chunk; returns its number of data pages.
fn verify_chunk<S: Source>(
    reader: &FileReader<S>,
    g: usize,
    c: usize,
    column: &ColumnDescriptor,
    found: &mut Vec<Disagreement>,
) -> Result<usize> {
    let order = sort_order(column);
    let converter = Converter::new(column);
    let bloom = reader.bloom_filter(g, c)?;
    let mut chunk = reader.column_chunk(g, c)?;
    let mut batch = ColumnBatch::new(column);
    let step = if holds_byte_arrays(column) {
        BYTE_ARRAY_RECORDS
    } else {
        STEP
    };
    let mut pages = Vec::new();
    while let Some(span) = chunk.open_page()? {
        let mut summary = Summary::default();
        loop {
            batch.clear();
            let (_, ended) = chunk.read_open_page(step, &mut batch)?;
            summarize(&batch, column, &converter, order, &mut summary)?;
            if let Some(filter) = &bloom {
                check_bloom(filter, &batch, &converter, g, column, found)?;
            }
            if ended {
                break;
            }
        }
        pages.push(PageRead { span, summary });
    }
    let mut whole = Summary::default();
    for page in &pages {
        whole.merge(&page.summary, order);
    }
    let path = &column.path;
    if let Some(stats) = reader.metadata().column_statistics(g, c)? {
        check_statistics(&stats, &whole, column, order, found, g, None);
    }
    if let Some(offsets) = reader.offset_index(g, c)? {
        check_offsets(&offsets, &pages, g, path, found);
    }
    if let Some(index) = reader.column_index(g, c)? {
        if index.pages.len() == pages.len() {
            for (i, (stats, page)) in index.pages.iter().zip(&pages).enumerate() {
                let has_values = page.summary.values > 0;
                if stats.null_page == has_values {
                    found.push(Disagreement::Statistics {
                        row_group: g,
                        column: path.clone(),
                        page: Some(i),
                        what: "null page",
                        stated: Field::Bool(stats.null_page),
                        actual: Field::Bool(!has_values),
                    });
                }
                check_statistics(
                    &stats.statistics,
                    &page.summary,
                    column,
                    order,
                    found,
                    g,
                    Some(i),
                );
            }
            check_boundary_order(&index, order, g, path, found);
        } else {
            found.push(Disagreement::ColumnIndexPages {
                row_group: g,
                column: path.clone(),
                index: index.pages.len(),
                pages: pages.len(),
            });
        }
    }
    Ok(pages.len())
}

/// Adds the nulls and values of `batch` to `summary`.
fn summarize(
    batch: &ColumnBatch,
    column: &ColumnDescriptor,
    converter: &Converter,
    order: SortOrder,
    summary: &mut Summary,
) -> Result<()> {
    let values = batch.values().len();
    // Nulls are counted for unrepeated columns only: writers disagree on whether an
    // empty or null list counts as a null of its elements.
    if column.max_rep_level == 0 {
        summary.nulls += (batch.num_levels() - values) as u64;
    }
    summary.values += values as u64;
    if order == SortOrder::Undefined {
        return Ok(());
    }
    match extremes(batch.values(), order) {
        // Only the least and the greatest are converted.
        Extremes::At(least, greatest) => {
            summary.add(&converter.convert(batch.values(), least)?, order);
            summary.add(&converter.convert(batch.values(), greatest)?, order);
        }
        Extremes::None => {}
        Extremes::ConvertEach => {
            for i in 0..values {
                summary.add(&converter.convert(batch.values(), i)?, order);
            }
        }
    }
    Ok(())
}

/// Where the least and the greatest value of a batch are.
enum Extremes {
    /// At these positions (the first of equals).
    At(usize, usize),
    /// Nowhere: no value, or only NaNs.
    None,
    /// Only known by converting each value.
    ConvertEach,
}

/// The positions of the first least and the first greatest of `values` (NaNs aside) by
/// `order`, for the physical types whose values order so as they are (integers, floats,
/// booleans, byte arrays by unsigned bytes), or that each value must be converted to be
/// ordered (decimals and FLOAT16 in byte arrays).
fn extremes(values: &ColumnValues, order: SortOrder) -> Extremes {
    fn never<T>(_: &T) -> bool {
        false
    }
    fn by<T: Copy>(
        items: impl Iterator<Item = T>,
        skip: impl Fn(&T) -> bool,
        less: impl Fn(&T, &T) -> bool,
    ) -> Option<(usize, usize)> {
        let mut found: Option<((usize, T), (usize, T))> = None;
        for (i, item) in items.enumerate() {
            if skip(&item) {
                continue;
            }
            match &mut found {
                None => {
                    found = Some(((i, item), (i, item)));
                }
                Some((least, greatest)) => {
                    if less(&item, &least.1) {
                        *least = (i, item);
                    } else if less(&greatest.1, &item) {
                        *greatest = (i, item);
                    }
                }
            }
        }
        found.map(|(least, greatest)| (least.0, greatest.0))
    }
    let unsigned = order == SortOrder::Unsigned;
    let found = match values {
        ColumnValues::Boolean(v) => by(v.iter(), never, |a, b| a < b),
        ColumnValues::Int32(v) if unsigned => {
            by(v.iter().map(|&x| x.cast_unsigned()), never, |a, b| a < b)
        }
        ColumnValues::Int32(v) => by(v.iter(), never, |a, b| a < b),
        ColumnValues::Int64(v) if unsigned => {
            by(v.iter().map(|&x| x.cast_unsigned()), never, |a, b| a < b)
        }
        ColumnValues::Int64(v) => by(v.iter(), never, |a, b| a < b),
        ColumnValues::Float(v) => by(v.iter(), |x| x.is_nan(), |a, b| a < b),
        ColumnValues::Double(v) => by(v.iter(), |x| x.is_nan(), |a, b| a < b),
        ColumnValues::ByteArray(v) if unsigned => by(v.iter(), never, |a, b| a < b),
        ColumnValues::FixedLenByteArray(v) if unsigned => by(v.iter(), never, |a, b| a < b),
        _ => return Extremes::ConvertEach,
    };
    found.map_or(Extremes::None, |(least, greatest)| {
        Extremes::At(least, greatest)
    })
}

fn check_bloom(
    filter: &Sbbf,
    batch: &ColumnBatch,
    converter: &Converter,
    g: usize,
    column: &ColumnDescriptor,
    found: &mut Vec<Disagreement>,
) -> Result<()> {
    let present = |i: usize| -> bool {
        match batch.values() {
            // The format defines no Bloom filter of BOOLEAN values (see parquet-bloom's
            // `hash` module): a filter a writer made of them is not probed.
            ColumnValues::Boolean(_) => true,
            ColumnValues::Int32(v) => v.get(i).is_none_or(|x| filter.check(x)),
            ColumnValues::Int64(v) => v.get(i).is_none_or(|x| filter.check(x)),
            ColumnValues::Int96(v) => v.get(i).is_none_or(|x| filter.check(x)),
            ColumnValues::Float(v) => v.get(i).is_none_or(|x| filter.check(x)),
            ColumnValues::Double(v) => v.get(i).is_none_or(|x| filter.check(x)),
            ColumnValues::ByteArray(v) => v.get(i).is_none_or(|x| filter.check(x)),
            ColumnValues::FixedLenByteArray(v) => v.get(i).is_none_or(|x| filter.check(x)),
        }
    };
    if let Some(i) = (0..batch.values().len()).find(|&i| !present(i)) {
        found.push(Disagreement::BloomFilter {
            row_group: g,
            column: column.path.clone(),
            value: converter.convert(batch.values(), i)?,
        });
    }
    Ok(())
}

fn check_statistics(
    stats: &ColumnStatistics,
    summary: &Summary,
    column: &ColumnDescriptor,
    order: SortOrder,
    found: &mut Vec<Disagreement>,
    g: usize,
    page: Option<usize>,
) {
    let mut disagree = |what: &'static str, stated: Field, actual: Field| {
        found.push(Disagreement::Statistics {
            row_group: g,
            column: column.path.clone(),
            page,
            what,
            stated,
            actual,
        });
    };
    if column.max_rep_level == 0
        && let Some(nulls) = stats.null_count
        && nulls != summary.nulls
    {
        disagree("null count", Field::UInt(nulls), Field::UInt(summary.nulls));
    }
    let less = |a: &Field, b: &Field| compare_values(a, b, order) == Some(Ordering::Less);
    if let (Some(min), Some(actual)) = (&stats.min, &summary.min) {
        if less(actual, min) {
            disagree("minimum above a value", min.clone(), actual.clone());
        } else if stats.min_exact == Some(true) && less(min, actual) {
            disagree(
                "exact minimum not the least value",
                min.clone(),
                actual.clone(),
            );
        }
    }
    if let (Some(max), Some(actual)) = (&stats.max, &summary.max) {
        if less(max, actual) {
            disagree("maximum below a value", max.clone(), actual.clone());
        } else if stats.max_exact == Some(true) && less(actual, max) {
            disagree(
                "exact maximum not the greatest value",
                max.clone(),
                actual.clone(),
            );
        }
    }
}

fn check_offsets(
    offsets: &OffsetIndex,
    pages: &[PageRead],
    g: usize,
    path: &ColumnPath,
    found: &mut Vec<Disagreement>,
) {
    if offsets.page_locations.len() != pages.len() {
        found.push(Disagreement::OffsetIndexPages {
            row_group: g,
            column: path.clone(),
            index: offsets.page_locations.len(),
            pages: pages.len(),
        });
        return;
    }
    for (i, (location, page)) in offsets.page_locations.iter().zip(pages).enumerate() {
        let fields = [
            ("offset", location.offset, page.span.offset),
            (
                "compressed_page_size",
                u64::from(location.compressed_page_size),
                page.span.len,
            ),
            (
                "first_row_index",
                location.first_row_index,
                page.span.first_row,
            ),
        ];
        for (field, index, actual) in fields {
            if index != actual {
                found.push(Disagreement::OffsetIndexEntry {
                    row_group: g,
                    column: path.clone(),
                    page: i,
                    field,
                    index,
                    actual,
                });
            }
        }
    }
}

/// Checks that the bounds of the non-null pages follow the index's boundary order.
fn check_boundary_order(
    index: &ColumnIndex,
    order: SortOrder,
    g: usize,
    path: &ColumnPath,
    found: &mut Vec<Disagreement>,
) {
    let wrong = match index.boundary_order {
        BoundaryOrder::Ascending => Ordering::Greater,
        BoundaryOrder::Descending => Ordering::Less,
        _ => return,
    };
    let mut previous: Option<(&Field, &Field)> = None;
    for (i, page) in index.pages.iter().enumerate() {
        let (Some(min), Some(max)) = (&page.statistics.min, &page.statistics.max) else {
            continue;
        };
        if let Some((previous_min, previous_max)) = previous
            && (compare_values(previous_min, min, order) == Some(wrong)
                || compare_values(previous_max, max, order) == Some(wrong))
        {
            found.push(Disagreement::BoundaryOrder {
                row_group: g,
                column: path.clone(),
                order: index.boundary_order,
                page: i,
            });
            return;
        }
        previous = Some((min, max));
    }
}
