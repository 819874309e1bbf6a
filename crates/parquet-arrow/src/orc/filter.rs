//! A [`Predicate`] evaluated exactly on the rows of an ORC batch, as
//! [`Predicate::matches`] judges the rows `orc-file` reads, and the rows it keeps.

use std::cmp::Ordering;

use orc_file::{Batch, Kind, TypeDescription, Vector, VectorData};
use parquet_core::filter::{Literal, Op, compare_field};
use parquet_core::{ByteArrayBatch, ColumnPath, Field, Predicate, TimeUnit};

use super::schema::is_selected;
use crate::error::{Error, Result, invalid};

/// The column a predicate's path names: a top-level column, then fields of structs.
fn resolve<'a>(schema: &'a TypeDescription, path: &ColumnPath) -> Result<&'a TypeDescription> {
    if path.is_empty() {
        return Err(Error::Argument(
            "a predicate on an empty column path".to_owned(),
        ));
    }
    let mut t = schema;
    for part in path.parts() {
        if t.kind() != Kind::Struct {
            return Err(Error::Argument(format!(
                "predicate column {path}: only fields of structs can be filtered on, not \
                 what a {} holds",
                t.kind().name()
            )));
        }
        t = t
            .field(part)
            .ok_or_else(|| Error::Argument(format!("no column {path} in {schema}")))?;
    }
    Ok(t)
}

/// The top-level columns `predicate` reads, by name, each once.
///
/// # Errors
///
/// [`Error::Argument`] for a path that names no column, or a column below a list, map or
/// union.
pub(super) fn top_columns(schema: &TypeDescription, predicate: &Predicate) -> Result<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    for path in predicate.columns() {
        resolve(schema, path)?;
        let first = &path.parts()[0];
        if !names.contains(first) {
            names.push(first.clone());
        }
    }
    Ok(names)
}

/// Which rows of `batch` (of the columns of `schema` that `read` selects) satisfy
/// `predicate`.
pub(super) fn evaluate(
    predicate: &Predicate,
    schema: &TypeDescription,
    read: &[bool],
    batch: &Batch,
) -> Result<Vec<bool>> {
    let n = batch.num_rows;
    Ok(match predicate {
        Predicate::And(a, b) => {
            let mut holds = evaluate(a, schema, read, batch)?;
            let other = evaluate(b, schema, read, batch)?;
            holds.iter_mut().zip(other).for_each(|(h, o)| *h &= o);
            holds
        }
        Predicate::Or(a, b) => {
            let mut holds = evaluate(a, schema, read, batch)?;
            let other = evaluate(b, schema, read, batch)?;
            holds.iter_mut().zip(other).for_each(|(h, o)| *h |= o);
            holds
        }
        Predicate::Not(a) => {
            let mut holds = evaluate(a, schema, read, batch)?;
            for h in &mut holds {
                *h = !*h;
            }
            holds
        }
        Predicate::IsNull { column, negated } => {
            let (_, vector) = find(schema, read, batch, column)?;
            (0..n).map(|i| vector.is_present(i) == *negated).collect()
        }
        Predicate::Compare {
            column,
            op,
            literal,
        } => {
            let (t, vector) = find(schema, read, batch, column)?;
            compare(t, vector, *op, literal, n)?
        }
    })
}

/// The type and vector of the column at `path` in `batch`.
fn find<'a>(
    schema: &'a TypeDescription,
    read: &[bool],
    batch: &'a Batch,
    path: &ColumnPath,
) -> Result<(&'a TypeDescription, &'a Vector)> {
    let missing = || Error::Argument(format!("predicate column {path} is not read"));
    let mut t = schema;
    let mut vectors = batch.columns.as_slice();
    let mut vector = None;
    for part in path.parts() {
        // The first field of the name among those read, as a row finds it.
        let (position, child) = t
            .fields()
            .filter(|(_, c)| is_selected(Some(read), c.id()))
            .enumerate()
            .find(|(_, (name, _))| name == part)
            .map(|(k, (_, c))| (k, c))
            .ok_or_else(missing)?;
        let v = vectors.get(position).ok_or_else(missing)?;
        t = child;
        vector = Some(v);
        vectors = match &v.data {
            VectorData::Struct { fields, .. } => fields.as_slice(),
            _ => &[],
        };
    }
    Ok((t, vector.ok_or_else(missing)?))
}

/// `slot op literal` for each of the `n` slots of `vector`, a column of type `t`, with
/// the values as a row holds them.
fn compare(
    t: &TypeDescription,
    vector: &Vector,
    op: Op,
    literal: &Literal,
    n: usize,
) -> Result<Vec<bool>> {
    let holds = |ordering: &dyn Fn(usize) -> Option<Ordering>| -> Vec<bool> {
        (0..n)
            .map(|i| vector.is_present(i) && ordering(i).is_some_and(|o| op.holds(o)))
            .collect()
    };
    let field = |value: Option<Field>| value.and_then(|f| compare_field(&f, literal));
    Ok(match (&vector.data, t.kind()) {
        (VectorData::Boolean(values), _) => {
            holds(&|i| field(values.get(i).map(|&v| Field::Bool(v))))
        }
        (VectorData::Int(values), Kind::Date) => {
            if let Some(bad) = values.iter().find(|&&d| i32::try_from(d).is_err()) {
                return Err(invalid(format!("date {bad} days from 1970")));
            }
            holds(&|i| {
                let date = values.get(i).and_then(|&d| i32::try_from(d).ok());
                field(date.map(Field::Date))
            })
        }
        (VectorData::Int(values), _) => holds(&|i| field(values.get(i).map(|&v| Field::Int(v)))),
        (VectorData::Float(values), _) => {
            holds(&|i| field(values.get(i).map(|&v| Field::Float(v))))
        }
        (VectorData::Double(values), _) => {
            holds(&|i| field(values.get(i).map(|&v| Field::Double(v))))
        }
        // Text and bytes compare their bytes with a string literal's.
        (VectorData::Bytes(values), _) => match literal {
            Literal::Str(text) => holds(&|i| values.get(i).map(|v| v.cmp(text.as_bytes()))),
            _ => vec![false; n],
        },
        (VectorData::Timestamp { seconds, nanos }, _) => {
            let utc = t.kind() == Kind::TimestampInstant;
            holds(&|i| {
                let value = seconds
                    .get(i)
                    .zip(nanos.get(i))
                    .map(|(&s, &ns)| i128::from(s) * 1_000_000_000 + i128::from(ns));
                field(value.map(|value| Field::Timestamp {
                    value,
                    unit: TimeUnit::Nanos,
                    utc,
                }))
            })
        }
        (VectorData::Decimal { values, scales }, _) => holds(&|i| {
            let value = values.get(i).zip(scales.get(i));
            field(value.map(|(&unscaled, &scale)| Field::Decimal { unscaled, scale }))
        }),
        // Lists, maps, structs and unions compare with nothing.
        _ => vec![false; n],
    })
}

/// Keeps the slots of `vector` where `keep` is true (one flag per slot), in place.
pub(super) fn retain_rows(vector: &mut Vector, keep: &[bool]) -> Result<()> {
    if vector.len() != keep.len() {
        return Err(invalid(format!(
            "a vector of {} slots filtered by {} flags",
            vector.len(),
            keep.len()
        )));
    }
    if let Some(present) = &mut vector.present {
        retain(present, keep);
    }
    match &mut vector.data {
        VectorData::Boolean(values) => retain(values, keep),
        VectorData::Int(values) => retain(values, keep),
        VectorData::Float(values) => retain(values, keep),
        VectorData::Double(values) => retain(values, keep),
        VectorData::Bytes(values) => {
            let mut kept = ByteArrayBatch::new();
            for (value, _) in values.iter().zip(keep).filter(|(_, k)| **k) {
                kept.push(value)
                    .map_err(|e| invalid(format!("filtering byte strings: {e}")))?;
            }
            *values = kept;
        }
        VectorData::Timestamp { seconds, nanos } => {
            retain(seconds, keep);
            retain(nanos, keep);
        }
        VectorData::Decimal { values, scales } => {
            retain(values, keep);
            retain(scales, keep);
        }
        VectorData::List { offsets, elements } => {
            let inner = retain_offsets(offsets, keep, elements.len())?;
            retain_rows(elements, &inner)?;
        }
        VectorData::Map {
            offsets,
            keys,
            values,
        } => {
            let inner = retain_offsets(offsets, keep, keys.len())?;
            retain_rows(keys, &inner)?;
            retain_rows(values, &inner)?;
        }
        VectorData::Struct { len, fields } => {
            for field in fields {
                retain_rows(field, keep)?;
            }
            *len = keep.iter().filter(|&&k| k).count();
        }
        VectorData::Union { tags, alternatives } => {
            retain(tags, keep);
            for alternative in alternatives {
                retain_rows(alternative, keep)?;
            }
        }
    }
    Ok(())
}

fn retain<T>(values: &mut Vec<T>, keep: &[bool]) {
    let mut flags = keep.iter();
    values.retain(|_| flags.next().copied().unwrap_or(false));
}

/// The offsets of the kept list or map slots, in place, and which of the `children`
/// elements they keep.
fn retain_offsets(offsets: &mut Vec<usize>, keep: &[bool], children: usize) -> Result<Vec<bool>> {
    let mut inner = vec![false; children];
    let mut kept = Vec::with_capacity(offsets.len());
    kept.push(0);
    let mut total = 0usize;
    for (i, &k) in keep.iter().enumerate() {
        if !k {
            continue;
        }
        let range = offsets
            .get(i)
            .zip(offsets.get(i + 1))
            .and_then(|(&start, &end)| inner.get_mut(start..end))
            .ok_or_else(|| invalid(format!("list offsets out of range at slot {i}")))?;
        range.fill(true);
        total += range.len();
        kept.push(total);
    }
    *offsets = kept;
    Ok(inner)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn retains_nested_rows() {
        let mut v = Vector::with_present(
            VectorData::List {
                offsets: vec![0, 2, 2, 3],
                elements: Box::new(Vector::new(VectorData::Int(vec![1, 2, 3]))),
            },
            vec![true, false, true],
        );
        retain_rows(&mut v, &[false, true, true]).unwrap();
        assert_eq!(
            v,
            Vector::with_present(
                VectorData::List {
                    offsets: vec![0, 0, 1],
                    elements: Box::new(Vector::new(VectorData::Int(vec![3]))),
                },
                vec![false, true],
            )
        );
    }

    #[test]
    fn bad_offsets_are_an_error() {
        let mut v = Vector::new(VectorData::List {
            offsets: vec![0, 5],
            elements: Box::new(Vector::new(VectorData::Int(vec![1]))),
        });
        assert!(retain_rows(&mut v, &[true]).is_err());
    }
}
