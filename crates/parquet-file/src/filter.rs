//! Row filters evaluated on row groups and pages through their statistics, page indexes
//! and Bloom filters, to skip the ones that cannot match: [`PredicateExt`] and
//! [`LiteralExt`], which extend the [`Predicate`] and [`Literal`] of
//! [`parquet_core::filter`] (where they are built and evaluated on rows, the same way for
//! the Parquet and ORC readers).

use parquet_core::PhysicalType;
use parquet_core::filter::range_might_hold;
pub use parquet_core::filter::{Literal, Op, Predicate};

use crate::error::{Context, Error, ErrorKind, Result};
use crate::index::RowSelection;
use crate::io::Source;
use crate::path::ColumnPath;
use crate::read::FileReader;
use crate::schema::{ColumnDescriptor, LogicalType, Schema};

/// What a [`Predicate`] tells of a Parquet file: whether its paths are in a schema, and
/// which row groups and pages might hold a matching row.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/example.parquet");
/// use parquet_file::{FileReader, Op, Predicate, PredicateExt};
///
/// let reader = FileReader::open(std::fs::File::open(path)?)?;
/// let predicate = Predicate::compare("id", Op::Lt, 0);
/// predicate.check(reader.schema())?;
/// for g in 0..reader.metadata().row_groups().len() {
///     if predicate.might_match(&reader, g)? {
///         let _rows = predicate.row_selection(&reader, g)?;
///     }
/// }
/// # Ok(()) }
/// ```
pub trait PredicateExt {
    /// Checks that every path names a field of `schema`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownPath`] naming the first unknown path.
    fn check(&self, schema: &Schema) -> Result<()>;

    /// Whether row group `row_group` might hold a matching row, judging by its
    /// statistics and Bloom filters (false only when it certainly holds none).
    ///
    /// # Errors
    ///
    /// A row group that does not exist, or a Bloom filter that cannot be read.
    fn might_match<S: Source>(&self, reader: &FileReader<S>, row_group: usize) -> Result<bool>;

    /// The rows of row group `row_group` that might match, judging by the page index:
    /// the rows of the pages whose statistics do not rule a match out (every row where
    /// the columns have no page index). Read with
    /// [`Projection::select_rows`](crate::Projection::select_rows), the reader then skips
    /// the other pages; the rows read must still be tested with
    /// [`Predicate::matches`].
    ///
    /// # Errors
    ///
    /// A row group that does not exist, a page index that cannot be read, or column and
    /// offset indexes that disagree on the number of pages.
    fn row_selection<S: Source>(
        &self,
        reader: &FileReader<S>,
        row_group: usize,
    ) -> Result<RowSelection>;
}

impl PredicateExt for Predicate {
    fn check(&self, schema: &Schema) -> Result<()> {
        for path in self.columns() {
            if schema.node_index(path).is_none() {
                return Err(ErrorKind::UnknownPath { path: path.clone() }.into());
            }
        }
        Ok(())
    }

    fn might_match<S: Source>(&self, reader: &FileReader<S>, row_group: usize) -> Result<bool> {
        let rows = reader.metadata().row_group(row_group)?.num_rows();
        Ok(match self {
            Self::And(a, b) => {
                a.might_match(reader, row_group)? && b.might_match(reader, row_group)?
            }
            Self::Or(a, b) => {
                a.might_match(reader, row_group)? || b.might_match(reader, row_group)?
            }
            Self::Not(_) => true,
            Self::IsNull { column, negated } => {
                let Some(c) = unrepeated_leaf(reader, column)? else {
                    return Ok(true);
                };
                let Ok(Some(stats)) = reader.metadata().column_statistics(row_group, c) else {
                    return Ok(true);
                };
                match (stats.null_count, negated) {
                    (Some(0), false) => false,
                    (Some(nulls), true) => nulls < rows,
                    _ => true,
                }
            }
            Self::Compare {
                column,
                op,
                literal,
            } => {
                let Some(c) = unrepeated_leaf(reader, column)? else {
                    return Ok(true);
                };
                let in_range = reader
                    .metadata()
                    .column_statistics(row_group, c)
                    .ok()
                    .flatten()
                    .is_none_or(|s| range_might_hold(s.min.as_ref(), s.max.as_ref(), *op, literal));
                if !in_range {
                    return Ok(false);
                }
                if *op == Op::Eq {
                    return bloom_might_hold(reader, row_group, c, literal);
                }
                true
            }
        })
    }

    fn row_selection<S: Source>(
        &self,
        reader: &FileReader<S>,
        row_group: usize,
    ) -> Result<RowSelection> {
        let rows = reader.metadata().row_group(row_group)?.num_rows();
        Ok(match self {
            Self::And(a, b) => a
                .row_selection(reader, row_group)?
                .intersect(&b.row_selection(reader, row_group)?),
            Self::Or(a, b) => a
                .row_selection(reader, row_group)?
                .union(&b.row_selection(reader, row_group)?),
            Self::Not(_) => RowSelection::all(rows),
            Self::IsNull { column, negated } => {
                pages_where(reader, row_group, column, |page| match negated {
                    false => page.statistics.null_count != Some(0),
                    true => !page.null_page,
                })?
            }
            Self::Compare {
                column,
                op,
                literal,
            } => pages_where(reader, row_group, column, |page| {
                !page.null_page
                    && range_might_hold(
                        page.statistics.min.as_ref(),
                        page.statistics.max.as_ref(),
                        *op,
                        literal,
                    )
            })?,
        })
    }
}

/// The rows of the pages of the column at `path` that `keep` keeps (every row when the
/// column is repeated or has no page index).
fn pages_where<S: Source>(
    reader: &FileReader<S>,
    row_group: usize,
    path: &ColumnPath,
    keep: impl Fn(&crate::index::PageStatistics) -> bool,
) -> Result<RowSelection> {
    let rows = reader.metadata().row_group(row_group)?.num_rows();
    let all = RowSelection::all(rows);
    let Some(column) = unrepeated_leaf(reader, path)? else {
        return Ok(all);
    };
    let Some(pages) = reader.column_index(row_group, column)? else {
        return Ok(all);
    };
    let Some(offsets) = reader.offset_index(row_group, column)? else {
        return Ok(all);
    };
    if pages.pages.len() != offsets.page_locations.len() {
        return Err(Error::mismatch(
            "pages of the column index, by the offset index",
            offsets.page_locations.len() as u64,
            pages.pages.len() as u64,
        ))
        .in_row_group(row_group)
        .in_column(path);
    }
    Ok(RowSelection::from_ranges(
        offsets
            .page_rows(rows)
            .zip(&pages.pages)
            .filter(|(_, page)| keep(page))
            .map(|(range, _)| range),
    ))
}

fn bloom_might_hold<S: Source>(
    reader: &FileReader<S>,
    row_group: usize,
    column: usize,
    literal: &Literal,
) -> Result<bool> {
    let Some(plain) = literal.plain_bytes(reader.schema().column(column)?) else {
        return Ok(true);
    };
    Ok(match reader.bloom_filter(row_group, column)? {
        Some(filter) => filter.check(plain.as_slice()),
        None => true,
    })
}

/// What a [`Literal`] is in a Parquet column: the bytes that Bloom filters hash.
pub trait LiteralExt {
    /// The PLAIN bytes (without a byte array's length) that a value of `column` equal to
    /// this literal is stored, and Bloom-hashed, as; `None` when no single stored value
    /// corresponds (another kind of literal, a value out of the type's range, a DECIMAL
    /// whose unscaled value differs from the literal, a float zero or NaN whose equal
    /// values have several bit patterns).
    fn plain_bytes(&self, column: &ColumnDescriptor) -> Option<Vec<u8>>;
}

impl LiteralExt for Literal {
    fn plain_bytes(&self, column: &ColumnDescriptor) -> Option<Vec<u8>> {
        use LogicalType as L;
        use PhysicalType as P;
        let integer = matches!(
            column.logical_type,
            L::None | L::Integer { .. } | L::Date | L::Time { .. } | L::Timestamp { .. }
        );
        let bytes = matches!(
            column.logical_type,
            L::None | L::String | L::Enum | L::Json | L::Bson
        );
        #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
        let float = |l: &Self| {
            match l {
                Self::Int(i) => Some(*i as f64),
                Self::Float(f) => Some(*f),
                _ => None,
            }
            .filter(|f| *f != 0.0 && !f.is_nan())
        };
        match (column.physical_type, self) {
            (P::Int32, Self::Int(i)) if integer => {
                i32::try_from(*i).ok().map(|v| v.to_le_bytes().to_vec())
            }
            (P::Int64, Self::Int(i)) if integer => {
                i64::try_from(*i).ok().map(|v| v.to_le_bytes().to_vec())
            }
            #[allow(clippy::cast_possible_truncation)]
            (P::Float, l) if column.logical_type == L::None => {
                float(l).map(|f| (f as f32).to_le_bytes().to_vec())
            }
            (P::Double, l) if column.logical_type == L::None => {
                float(l).map(|f| f.to_le_bytes().to_vec())
            }
            (P::ByteArray, Self::Str(s)) if bytes => Some(s.as_bytes().to_vec()),
            (P::FixedLenByteArray, Self::Str(s))
                if column.logical_type == L::None && s.len() == column.type_length =>
            {
                Some(s.as_bytes().to_vec())
            }
            _ => None,
        }
    }
}

/// The index of the leaf column at `path`, when it is one and not repeated: only then do
/// a row's field and the column's statistics, pages and filters speak of the same values
/// (a repeated leaf's hold parts of records, and a row reads no field through a list).
fn unrepeated_leaf<S: Source>(reader: &FileReader<S>, path: &ColumnPath) -> Result<Option<usize>> {
    let Some(c) = reader.schema().column_index(path) else {
        return Ok(None);
    };
    Ok((reader.schema().column(c)?.max_rep_level == 0).then_some(c))
}
