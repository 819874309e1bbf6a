//! Row filters as values ([`Predicate`]), evaluated on rows, and on row groups and pages
//! through their statistics, page indexes and Bloom filters to skip the ones that cannot
//! match.

use std::cmp::Ordering;

use parquet_core::PhysicalType;

use crate::error::{Context, Error, ErrorKind, Result};
use crate::index::RowSelection;
use crate::io::Source;
use crate::path::ColumnPath;
use crate::read::FileReader;
use crate::record::Row;
use crate::schema::{ColumnDescriptor, LogicalType, Schema};
use crate::value::Field;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A value a field is compared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// An integer.
    Int(i128),
    /// A number with a fraction or exponent.
    Float(f64),
    /// Text (compared with strings, and with byte arrays by their bytes).
    Str(String),
    /// `true` or `false`.
    Bool(bool),
}

impl From<i64> for Literal {
    fn from(v: i64) -> Self {
        Self::Int(v.into())
    }
}

impl From<i32> for Literal {
    fn from(v: i32) -> Self {
        Self::Int(v.into())
    }
}

impl From<f64> for Literal {
    fn from(v: f64) -> Self {
        Self::Float(v)
    }
}

impl From<&str> for Literal {
    fn from(v: &str) -> Self {
        Self::Str(v.to_owned())
    }
}

impl From<String> for Literal {
    fn from(v: String) -> Self {
        Self::Str(v)
    }
}

impl From<bool> for Literal {
    fn from(v: bool) -> Self {
        Self::Bool(v)
    }
}

/// A predicate on rows, built as a value:
///
/// ```
/// use parquet_file::{ColumnPath, Op, Predicate};
///
/// let p = Predicate::compare("id", Op::Ge, 10)
///     .and(Predicate::compare("name", Op::Eq, "x").or(Predicate::is_null("score")));
/// assert_eq!(p.columns(), [&ColumnPath::from("id"), &"name".into(), &"score".into()]);
/// ```
///
/// Comparisons of a null, or of values of different kinds (a string with a number), are
/// false.
#[derive(Debug, Clone, PartialEq)]
pub enum Predicate {
    /// Both hold.
    And(Box<Predicate>, Box<Predicate>),
    /// Either holds.
    Or(Box<Predicate>, Box<Predicate>),
    /// It does not hold.
    Not(Box<Predicate>),
    /// `column op literal`.
    Compare {
        /// The field's path.
        column: ColumnPath,
        /// The operator.
        op: Op,
        /// The value compared with.
        literal: Literal,
    },
    /// `column is null` (or `is not null` when `negated`).
    IsNull {
        /// The field's path.
        column: ColumnPath,
        /// Whether this is `is not null`.
        negated: bool,
    },
}

impl Predicate {
    /// `column op literal`.
    pub fn compare(column: impl Into<ColumnPath>, op: Op, literal: impl Into<Literal>) -> Self {
        Self::Compare {
            column: column.into(),
            op,
            literal: literal.into(),
        }
    }

    /// `column is null`.
    pub fn is_null(column: impl Into<ColumnPath>) -> Self {
        Self::IsNull {
            column: column.into(),
            negated: false,
        }
    }

    /// `column is not null`.
    pub fn is_not_null(column: impl Into<ColumnPath>) -> Self {
        Self::IsNull {
            column: column.into(),
            negated: true,
        }
    }

    /// Both this and `other`.
    #[must_use]
    pub fn and(self, other: Self) -> Self {
        Self::And(Box::new(self), Box::new(other))
    }

    /// This or `other`.
    #[must_use]
    pub fn or(self, other: Self) -> Self {
        Self::Or(Box::new(self), Box::new(other))
    }

    /// Not this.
    #[must_use]
    pub fn negate(self) -> Self {
        Self::Not(Box::new(self))
    }

    /// The paths the predicate reads, in order of appearance.
    pub fn columns(&self) -> Vec<&ColumnPath> {
        match self {
            Self::And(a, b) | Self::Or(a, b) => {
                let mut paths = a.columns();
                paths.extend(b.columns());
                paths
            }
            Self::Not(a) => a.columns(),
            Self::Compare { column, .. } | Self::IsNull { column, .. } => vec![column],
        }
    }

    /// Checks that every path names a field of `schema`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownPath`] naming the first unknown path.
    pub fn check(&self, schema: &Schema) -> Result<()> {
        for path in self.columns() {
            if schema.node_index(path).is_none() {
                return Err(ErrorKind::UnknownPath { path: path.clone() }.into());
            }
        }
        Ok(())
    }

    /// Whether `row` satisfies the predicate.
    pub fn matches(&self, row: &Row) -> bool {
        match self {
            Self::And(a, b) => a.matches(row) && b.matches(row),
            Self::Or(a, b) => a.matches(row) || b.matches(row),
            Self::Not(a) => !a.matches(row),
            Self::IsNull { column, negated } => {
                let null = row
                    .get_path(column.parts())
                    .is_none_or(|f| *f == Field::Null);
                null != *negated
            }
            Self::Compare {
                column,
                op,
                literal,
            } => row
                .get_path(column.parts())
                .and_then(|f| compare(f, literal))
                .is_some_and(|ordering| holds(*op, ordering)),
        }
    }

    /// Whether row group `row_group` might hold a matching row, judging by its
    /// statistics and Bloom filters (false only when it certainly holds none).
    ///
    /// # Errors
    ///
    /// A row group that does not exist, or a Bloom filter that cannot be read.
    pub fn might_match<S: Source>(&self, reader: &FileReader<S>, row_group: usize) -> Result<bool> {
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

    /// The rows of row group `row_group` that might match, judging by the page index:
    /// the rows of the pages whose statistics do not rule a match out (every row where
    /// the columns have no page index). Read with
    /// [`Projection::select_rows`](crate::Projection::select_rows), the reader then skips
    /// the other pages; the rows read must still be tested with
    /// [`matches`](Self::matches).
    ///
    /// # Errors
    ///
    /// A row group that does not exist, a page index that cannot be read, or column and
    /// offset indexes that disagree on the number of pages.
    pub fn row_selection<S: Source>(
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

const fn holds(op: Op, ordering: Ordering) -> bool {
    match op {
        Op::Eq => ordering.is_eq(),
        Op::Ne => ordering.is_ne(),
        Op::Lt => ordering.is_lt(),
        Op::Le => ordering.is_le(),
        Op::Gt => ordering.is_gt(),
        Op::Ge => ordering.is_ge(),
    }
}

/// How `field` compares with `literal`, when they are of comparable kinds.
#[allow(clippy::cast_precision_loss)]
fn compare(field: &Field, literal: &Literal) -> Option<Ordering> {
    let number = |value: f64| match literal {
        Literal::Int(i) => value.partial_cmp(&(*i as f64)),
        Literal::Float(f) => value.partial_cmp(f),
        _ => None,
    };
    match field {
        Field::Int(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => number(*v as f64),
        },
        Field::UInt(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => number(*v as f64),
        },
        Field::Float(v) => number(f64::from(*v)),
        Field::Double(v) => number(*v),
        Field::Float16(bits) => number(half::f16::from_bits(*bits).to_f64()),
        Field::Decimal { unscaled, scale } => match literal {
            Literal::Int(i) => 10_i128
                .checked_pow(*scale)
                .and_then(|p| i.checked_mul(p))
                .map(|scaled| unscaled.cmp(&scaled)),
            _ => number(*unscaled as f64 / 10_f64.powi(i32::try_from(*scale).ok()?)),
        },
        Field::Date(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => None,
        },
        Field::Time { value, .. } => match literal {
            Literal::Int(i) => Some(i128::from(*value).cmp(i)),
            _ => None,
        },
        Field::Timestamp { value, .. } => match literal {
            Literal::Int(i) => Some(value.cmp(i)),
            _ => None,
        },
        Field::Str(s) => match literal {
            Literal::Str(l) => Some(s.as_str().cmp(l.as_str())),
            _ => None,
        },
        Field::Bytes(b) => match literal {
            Literal::Str(l) => Some(b.as_slice().cmp(l.as_bytes())),
            _ => None,
        },
        Field::Bool(b) => match literal {
            Literal::Bool(l) => Some(b.cmp(l)),
            _ => None,
        },
        _ => None,
    }
}

fn range_might_hold(min: Option<&Field>, max: Option<&Field>, op: Op, literal: &Literal) -> bool {
    let lo = min.and_then(|m| compare(m, literal));
    let hi = max.and_then(|m| compare(m, literal));
    match op {
        Op::Eq => lo.is_none_or(Ordering::is_le) && hi.is_none_or(Ordering::is_ge),
        Op::Ne => !(lo == Some(Ordering::Equal) && hi == Some(Ordering::Equal)),
        Op::Lt => lo.is_none_or(Ordering::is_lt),
        Op::Le => lo.is_none_or(Ordering::is_le),
        Op::Gt => hi.is_none_or(Ordering::is_gt),
        Op::Ge => hi.is_none_or(Ordering::is_ge),
    }
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

impl Literal {
    /// The PLAIN bytes (without a byte array's length) that a value of `column` equal to
    /// this literal is stored, and Bloom-hashed, as; `None` when no single stored value
    /// corresponds (another kind of literal, a value out of the type's range, a DECIMAL
    /// whose unscaled value differs from the literal, a float zero or NaN whose equal
    /// values have several bit patterns).
    pub fn plain_bytes(&self, column: &ColumnDescriptor) -> Option<Vec<u8>> {
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
