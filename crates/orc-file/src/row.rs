//! Rows of [`Field`]s from column batches and back: the row API's view of ORC values.
//!
//! | ORC | [`Field`] |
//! |---|---|
//! | boolean | `Bool` |
//! | tinyint, smallint, int, bigint | `Int` |
//! | float, double | `Float`, `Double` |
//! | string, char, varchar | `Str` |
//! | binary | `Bytes` |
//! | date | `Date` (days since 1970-01-01) |
//! | timestamp | `Timestamp` in nanoseconds, `utc: false` |
//! | timestamp with local time zone | `Timestamp` in nanoseconds, `utc: true` |
//! | decimal | `Decimal` |
//! | array, map, struct | `List`, `Map`, `Group` |
//! | uniontype | `Group` of `tag` (`Int`) and `value` |

use std::sync::Arc;

use parquet_core::{Field, Row, TimeUnit};

use crate::error::{Error, ErrorKind, Result};
use crate::schema::{Kind, TypeDescription};
use crate::vector::{Batch, Vector, VectorData};

/// The names of the columns of a batch read with `schema` (a struct whose fields are
/// the batch's columns), shared by every row.
pub(crate) fn column_names(schema: &TypeDescription) -> Vec<Arc<str>> {
    schema
        .field_names()
        .iter()
        .map(|n| Arc::from(n.as_str()))
        .collect()
}

/// What [`Rows`](crate::Rows) make of a value of a string, varchar or char column
/// ([`ReadOptions::with_strings`](crate::ReadOptions::with_strings)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Strings {
    /// Text ([`Field::Str`]), which must be UTF-8 as the format says: a value that is not
    /// fails the read ([`ErrorKind::Utf8`], naming the column).
    #[default]
    Utf8,
    /// The bytes as stored ([`Field::Bytes`]), not checked: for the files of writers that
    /// stored text in another encoding, to read them whole and decide.
    Raw,
}

impl Vector {
    /// The value of slot `i` of this vector of type `t` ([`Field::Null`] for a null),
    /// as [`Rows`](crate::Rows) gives it in a row, without building the row.
    ///
    /// # Errors
    ///
    /// A slot past the vector, a vector that does not hold `t`, a string that is not
    /// UTF-8, a date past 32 bits of days.
    pub fn field(&self, t: &TypeDescription, i: usize) -> Result<Field> {
        field_at(self, t, i, Strings::Utf8)
    }
}

/// Row `i` of a batch read with `schema`, its columns named `names`.
pub(crate) fn row_at(
    batch: &Batch,
    schema: &TypeDescription,
    names: &[Arc<str>],
    i: usize,
    strings: Strings,
) -> Result<Row> {
    if names.len() != batch.columns.len() {
        return Err(Error::input_mismatch(
            "columns of the batch, for the schema's",
            names.len() as u64,
            batch.columns.len() as u64,
        ));
    }
    let mut fields = Vec::with_capacity(names.len());
    for ((name, column), t) in names.iter().zip(&batch.columns).zip(schema.children()) {
        fields.push((Arc::clone(name), field_at(column, t, i, strings)?));
    }
    Ok(Row::new(fields))
}

/// The error of a vector that does not hold what its type `t` says.
pub(crate) fn mismatch(t: &TypeDescription) -> Error {
    Error::from(ErrorKind::InvalidInput {
        what: "a vector that does not hold its column's type",
        kind: Some(t.kind().name()),
        value: None,
        slot: None,
    })
    .at_column(t.id())
}

/// The text of a value of `t`, a string, varchar or char column, which must be UTF-8.
pub(crate) fn utf8<'a>(bytes: &'a [u8], t: &TypeDescription) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|source| {
        Error::from(ErrorKind::Utf8 {
            what: t.kind().name(),
            source,
        })
        .at_column(t.id())
    })
}

/// The days of a date of column `t`, which must fit 32 bits.
pub(crate) fn date(days: i64, t: &TypeDescription) -> Result<i32> {
    i32::try_from(days).map_err(|_| Error::invalid("date, days from 1970", days).at_column(t.id()))
}

/// The value of slot `i` of `vector`, a column of type `t`.
pub(crate) fn field_at(
    vector: &Vector,
    t: &TypeDescription,
    i: usize,
    strings: Strings,
) -> Result<Field> {
    if !vector.is_present(i) {
        return Ok(Field::Null);
    }
    let out_of_range = || {
        Error::out_of_range("slot of the vector", i as u64, vector.len() as u64).at_column(t.id())
    };
    Ok(match (&vector.data, t.kind()) {
        (VectorData::Boolean(v), Kind::Boolean) => Field::Bool(*v.get(i).ok_or_else(out_of_range)?),
        (VectorData::Int(v), Kind::Byte | Kind::Short | Kind::Int | Kind::Long) => {
            Field::Int(*v.get(i).ok_or_else(out_of_range)?)
        }
        (VectorData::Int(v), Kind::Date) => {
            let days = *v.get(i).ok_or_else(out_of_range)?;
            Field::Date(date(days, t)?)
        }
        (VectorData::Float(v), Kind::Float) => Field::Float(*v.get(i).ok_or_else(out_of_range)?),
        (VectorData::Double(v), Kind::Double) => Field::Double(*v.get(i).ok_or_else(out_of_range)?),
        (VectorData::Bytes(v), Kind::String | Kind::Varchar | Kind::Char) => {
            let bytes = v.get(i).ok_or_else(out_of_range)?;
            match strings {
                Strings::Utf8 => Field::Str(utf8(bytes, t)?.to_owned()),
                Strings::Raw => Field::Bytes(bytes.to_vec()),
            }
        }
        (VectorData::Bytes(v), Kind::Binary) => {
            Field::Bytes(v.get(i).ok_or_else(out_of_range)?.to_vec())
        }
        (VectorData::Timestamp { seconds, nanos }, Kind::Timestamp | Kind::TimestampInstant) => {
            let s = *seconds.get(i).ok_or_else(out_of_range)?;
            let n = *nanos.get(i).ok_or_else(out_of_range)?;
            Field::Timestamp {
                value: i128::from(s) * 1_000_000_000 + i128::from(n),
                unit: TimeUnit::Nanos,
                utc: t.kind() == Kind::TimestampInstant,
            }
        }
        (VectorData::Decimal { values, scales }, Kind::Decimal) => Field::Decimal {
            unscaled: *values.get(i).ok_or_else(out_of_range)?,
            scale: *scales.get(i).ok_or_else(out_of_range)?,
        },
        (VectorData::List { offsets, elements }, Kind::List) => {
            let element = t.children().first().ok_or_else(|| mismatch(t))?;
            let (start, end) = range(offsets, i).ok_or_else(out_of_range)?;
            Field::List(
                (start..end)
                    .map(|j| field_at(elements, element, j, strings))
                    .collect::<Result<_>>()?,
            )
        }
        (
            VectorData::Map {
                offsets,
                keys,
                values,
            },
            Kind::Map,
        ) => {
            let [kt, vt] = t.children() else {
                return Err(mismatch(t));
            };
            let (start, end) = range(offsets, i).ok_or_else(out_of_range)?;
            Field::Map(
                (start..end)
                    .map(|j| {
                        Ok((
                            field_at(keys, kt, j, strings)?,
                            field_at(values, vt, j, strings)?,
                        ))
                    })
                    .collect::<Result<_>>()?,
            )
        }
        (VectorData::Struct { fields, .. }, Kind::Struct) => {
            if fields.len() != t.children().len() {
                return Err(mismatch(t));
            }
            Field::Group(
                t.fields()
                    .zip(fields)
                    .map(|((name, ft), v)| Ok((Arc::from(name), field_at(v, ft, i, strings)?)))
                    .collect::<Result<_>>()?,
            )
        }
        (VectorData::Union { tags, alternatives }, Kind::Union) => {
            let tag = *tags.get(i).ok_or_else(out_of_range)?;
            let (alt, at) = alternatives
                .get(usize::from(tag))
                .zip(t.children().get(usize::from(tag)))
                .ok_or_else(|| mismatch(t))?;
            Field::Group(vec![
                (Arc::from("tag"), Field::Int(i64::from(tag))),
                (Arc::from("value"), field_at(alt, at, i, strings)?),
            ])
        }
        _ => return Err(mismatch(t)),
    })
}

fn range(offsets: &[usize], i: usize) -> Option<(usize, usize)> {
    let start = *offsets.get(i)?;
    let end = *offsets.get(i + 1)?;
    (start <= end).then_some((start, end))
}
