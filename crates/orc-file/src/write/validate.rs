//! Checks a batch against the schema before anything of it is written, so that a batch
//! the writer refuses leaves the file as it was.

use crate::error::{Context as _, Error, ErrorKind, Result};
use crate::schema::{Kind, TypeDescription};
use crate::statistics::MAX_DECIMAL128;
use crate::vector::{Batch, Vector, VectorData};

use super::column::rescale_exact;

/// The seconds a timestamp may have: its milliseconds must fit 64 bits.
pub(crate) const MAX_TIMESTAMP_SECONDS: i64 = i64::MAX / 1000 - 1;

/// Checks every column of `batch` against the fields of `schema` (a struct).
pub(crate) fn validate_batch(schema: &TypeDescription, batch: &Batch) -> Result<()> {
    let fields = schema.children();
    if batch.columns.len() != fields.len() {
        return Err(Error::input_mismatch(
            "columns of the batch, for the schema's",
            fields.len() as u64,
            batch.columns.len() as u64,
        ));
    }
    for (t, v) in fields.iter().zip(&batch.columns) {
        check_vector(t, v, batch.num_rows)?;
    }
    Ok(())
}

/// An [`ErrorKind::InvalidInput`] about the value in slot `slot` of a column of type `t`.
fn fail(what: &'static str, t: &TypeDescription, value: Option<i128>, slot: usize) -> Error {
    ErrorKind::InvalidInput {
        what,
        kind: Some(t.kind().name()),
        value,
        slot: Some(slot),
    }
    .into()
}

/// Checks `v` (of `len` slots) against `t`; the error's column is `t`'s (or a child's).
fn check_vector(t: &TypeDescription, v: &Vector, len: usize) -> Result<()> {
    check(t, v, len).at_column(t.id())
}

/// Whether slot `i` of `present` holds a value.
fn is_present(present: Option<&[bool]>, i: usize) -> bool {
    present.is_none_or(|p| p.get(i).copied().unwrap_or(false))
}

#[allow(clippy::too_many_lines)] // one arm per kind
fn check(t: &TypeDescription, v: &Vector, len: usize) -> Result<()> {
    if v.len() != len {
        return Err(Error::input_mismatch(
            "slots of the vector",
            len as u64,
            v.len() as u64,
        ));
    }
    let present = v.present.as_deref();
    if let Some(p) = present
        && p.len() != len
    {
        return Err(Error::input_mismatch(
            "slots of the presence mask",
            len as u64,
            p.len() as u64,
        ));
    }
    let mismatch = || {
        Error::from(ErrorKind::WrongInputType {
            expected: t.kind().name(),
            found: data_name(&v.data),
            slot: None,
        })
    };
    match (t.kind(), &v.data) {
        (Kind::Boolean, VectorData::Boolean(_))
        | (Kind::Float, VectorData::Float(_))
        | (Kind::Double, VectorData::Double(_))
        | (Kind::Binary, VectorData::Bytes(_)) => Ok(()),
        (
            Kind::Byte | Kind::Short | Kind::Int | Kind::Long | Kind::Date,
            VectorData::Int(values),
        ) => {
            let (min, max) = match t.kind() {
                Kind::Byte => (i64::from(i8::MIN), i64::from(i8::MAX)),
                Kind::Short => (i64::from(i16::MIN), i64::from(i16::MAX)),
                Kind::Int | Kind::Date => (i64::from(i32::MIN), i64::from(i32::MAX)),
                _ => return Ok(()),
            };
            for (i, &value) in values.iter().enumerate() {
                if is_present(present, i) && !(min..=max).contains(&value) {
                    return Err(fail(
                        "an integer out of the column's range",
                        t,
                        Some(value.into()),
                        i,
                    ));
                }
            }
            Ok(())
        }
        (Kind::String | Kind::Char | Kind::Varchar, VectorData::Bytes(values)) => {
            for (i, value) in values.iter().enumerate() {
                if is_present(present, i) && std::str::from_utf8(value).is_err() {
                    return Err(fail(
                        "text that is not UTF-8 (use binary for bytes)",
                        t,
                        None,
                        i,
                    ));
                }
            }
            Ok(())
        }
        (Kind::Timestamp | Kind::TimestampInstant, VectorData::Timestamp { seconds, nanos }) => {
            if nanos.len() != seconds.len() {
                return Err(Error::input_mismatch(
                    "nanoseconds of the timestamp vector, for its seconds",
                    seconds.len() as u64,
                    nanos.len() as u64,
                ));
            }
            for (i, (&s, &n)) in seconds.iter().zip(nanos).enumerate() {
                if !is_present(present, i) {
                    continue;
                }
                if n >= 1_000_000_000 {
                    return Err(fail(
                        "nanoseconds not within a second",
                        t,
                        Some(n.into()),
                        i,
                    ));
                }
                if !(-MAX_TIMESTAMP_SECONDS..=MAX_TIMESTAMP_SECONDS).contains(&s) {
                    return Err(fail(
                        "seconds out of range (milliseconds must fit 64 bits)",
                        t,
                        Some(s.into()),
                        i,
                    ));
                }
            }
            Ok(())
        }
        (Kind::Decimal, VectorData::Decimal { values, scales }) => {
            if scales.len() != values.len() {
                return Err(Error::input_mismatch(
                    "scales of the decimal vector, for its values",
                    values.len() as u64,
                    scales.len() as u64,
                ));
            }
            for (i, (&value, &scale)) in values.iter().zip(scales).enumerate() {
                if is_present(present, i) {
                    check_decimal(value, scale, t).map_err(|e| e.at_slot(i))?;
                }
            }
            Ok(())
        }
        (Kind::List, VectorData::List { offsets, elements }) => {
            check_offsets(offsets, elements.len())?;
            let element = t.children().first().ok_or_else(mismatch)?;
            check_vector(element, elements, elements.len())
        }
        (
            Kind::Map,
            VectorData::Map {
                offsets,
                keys,
                values,
            },
        ) => {
            if keys.len() != values.len() {
                return Err(Error::input_mismatch(
                    "values of the map vector, for its keys",
                    keys.len() as u64,
                    values.len() as u64,
                ));
            }
            check_offsets(offsets, keys.len())?;
            let [key_type, value_type] = t.children() else {
                return Err(mismatch());
            };
            check_vector(key_type, keys, keys.len())?;
            check_vector(value_type, values, values.len())
        }
        (Kind::Struct, VectorData::Struct { fields, .. }) => {
            if fields.len() != t.children().len() {
                return Err(Error::input_mismatch(
                    "fields of the struct vector, for its type's",
                    t.children().len() as u64,
                    fields.len() as u64,
                ));
            }
            for (child, field) in t.children().iter().zip(fields) {
                check_vector(child, field, len)?;
            }
            Ok(())
        }
        (Kind::Union, VectorData::Union { tags, alternatives }) => {
            let children = t.children();
            if alternatives.len() != children.len() {
                return Err(Error::input_mismatch(
                    "alternatives of the union vector, for its type's",
                    children.len() as u64,
                    alternatives.len() as u64,
                ));
            }
            for (i, &tag) in tags.iter().enumerate() {
                if is_present(present, i) && usize::from(tag) >= children.len() {
                    return Err(fail(
                        "a tag past the union's alternatives",
                        t,
                        Some(tag.into()),
                        i,
                    ));
                }
            }
            for (child, alternative) in children.iter().zip(alternatives) {
                check_vector(child, alternative, len)?;
            }
            Ok(())
        }
        _ => Err(mismatch()),
    }
}

fn check_offsets(offsets: &[usize], children: usize) -> Result<()> {
    if let Some(i) = offsets
        .windows(2)
        .position(|w| matches!(w, [a, b] if a > b))
    {
        return Err(ErrorKind::InvalidInput {
            what: "an offset below the one before it",
            kind: None,
            value: None,
            slot: Some(i + 1),
        }
        .into());
    }
    if let Some(&last) = offsets.last()
        && last > children
    {
        return Err(Error::input_mismatch(
            "children of the vector, for its last offset",
            last as u64,
            children as u64,
        ));
    }
    Ok(())
}

/// Checks that a decimal fits the column: at its scale exactly, within its precision
/// (38 digits and a scale of at most 38 for a decimal without them).
pub(crate) fn check_decimal(unscaled: i128, scale: u32, t: &TypeDescription) -> Result<()> {
    let out_of_range = |precision, to| ErrorKind::DecimalOutOfRange {
        unscaled,
        value_scale: scale,
        precision,
        scale: to,
        slot: None,
    };
    if let (Some(precision), Some(to)) = (t.precision(), t.scale()) {
        let value = rescale_exact(unscaled, scale, to)
            .ok_or_else(|| out_of_range(Some(precision), Some(to)))?;
        let limit = 10i128
            .checked_pow(precision)
            .map_or(MAX_DECIMAL128, |p| p - 1);
        if value.unsigned_abs() > limit.unsigned_abs() {
            return Err(out_of_range(Some(precision), Some(to)).into());
        }
        return Ok(());
    }
    if scale > 38 || unscaled.unsigned_abs() > MAX_DECIMAL128.unsigned_abs() {
        return Err(out_of_range(None, None).into());
    }
    Ok(())
}

fn data_name(data: &VectorData) -> &'static str {
    match data {
        VectorData::Boolean(_) => "Boolean data",
        VectorData::Int(_) => "Int data",
        VectorData::Float(_) => "Float data",
        VectorData::Double(_) => "Double data",
        VectorData::Bytes(_) => "Bytes data",
        VectorData::Timestamp { .. } => "Timestamp data",
        VectorData::Decimal { .. } => "Decimal data",
        VectorData::List { .. } => "List data",
        VectorData::Map { .. } => "Map data",
        VectorData::Struct { .. } => "Struct data",
        VectorData::Union { .. } => "Union data",
    }
}
