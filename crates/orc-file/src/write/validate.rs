//! Checks a batch against the schema before anything of it is written, so that a batch
//! the writer refuses leaves the file as it was.

use crate::error::{Error, Result};
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
        return Err(Error::invalid_input(format!(
            "the batch has {} columns but the schema {schema} has {}",
            batch.columns.len(),
            fields.len()
        )));
    }
    for ((name, t), v) in schema.fields().zip(&batch.columns) {
        check_vector(t, v, batch.num_rows, name)?;
    }
    Ok(())
}

fn fail(path: &str, what: impl std::fmt::Display) -> Error {
    Error::invalid_input(format!("column `{path}`: {what}"))
}

/// Whether slot `i` of `present` holds a value.
fn is_present(present: Option<&[bool]>, i: usize) -> bool {
    present.is_none_or(|p| p.get(i).copied().unwrap_or(false))
}

#[allow(clippy::too_many_lines)] // one arm per kind
fn check_vector(t: &TypeDescription, v: &Vector, len: usize, path: &str) -> Result<()> {
    if v.len() != len {
        return Err(fail(
            path,
            format_args!("{} slots where {len} were expected", v.len()),
        ));
    }
    let present = v.present.as_deref();
    if let Some(p) = present
        && p.len() != len
    {
        return Err(fail(
            path,
            format_args!("a presence mask of {} slots for {len} values", p.len()),
        ));
    }
    let data_name = data_name(&v.data);
    let mismatch = || {
        fail(
            path,
            format_args!("{data_name} data for a {} column", t.kind().name()),
        )
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
                        path,
                        format_args!(
                            "slot {i}: {value} does not fit {} ({min} to {max})",
                            t.kind().name()
                        ),
                    ));
                }
            }
            Ok(())
        }
        (Kind::String | Kind::Char | Kind::Varchar, VectorData::Bytes(values)) => {
            for (i, value) in values.iter().enumerate() {
                if is_present(present, i) && std::str::from_utf8(value).is_err() {
                    return Err(fail(
                        path,
                        format_args!("slot {i}: not UTF-8 text (use binary for bytes)"),
                    ));
                }
            }
            Ok(())
        }
        (Kind::Timestamp | Kind::TimestampInstant, VectorData::Timestamp { seconds, nanos }) => {
            if nanos.len() != seconds.len() {
                return Err(fail(
                    path,
                    format_args!("{} seconds but {} nanoseconds", seconds.len(), nanos.len()),
                ));
            }
            for (i, (&s, &n)) in seconds.iter().zip(nanos).enumerate() {
                if !is_present(present, i) {
                    continue;
                }
                if n >= 1_000_000_000 {
                    return Err(fail(
                        path,
                        format_args!("slot {i}: {n} nanoseconds, not within a second"),
                    ));
                }
                if !(-MAX_TIMESTAMP_SECONDS..=MAX_TIMESTAMP_SECONDS).contains(&s) {
                    return Err(fail(
                        path,
                        format_args!(
                            "slot {i}: {s} seconds is out of range (milliseconds must fit 64 bits)"
                        ),
                    ));
                }
            }
            Ok(())
        }
        (Kind::Decimal, VectorData::Decimal { values, scales }) => {
            if scales.len() != values.len() {
                return Err(fail(
                    path,
                    format_args!("{} decimals but {} scales", values.len(), scales.len()),
                ));
            }
            for (i, (&value, &scale)) in values.iter().zip(scales).enumerate() {
                if is_present(present, i) {
                    check_decimal(value, scale, t)
                        .map_err(|what| fail(path, format_args!("slot {i}: {what}")))?;
                }
            }
            Ok(())
        }
        (Kind::List, VectorData::List { offsets, elements }) => {
            check_offsets(offsets, elements.len(), path)?;
            let element = t.children().first().ok_or_else(mismatch)?;
            check_vector(
                element,
                elements,
                elements.len(),
                &format!("{path}.element"),
            )
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
                return Err(fail(
                    path,
                    format_args!("{} keys but {} values", keys.len(), values.len()),
                ));
            }
            check_offsets(offsets, keys.len(), path)?;
            let [key_type, value_type] = t.children() else {
                return Err(mismatch());
            };
            check_vector(key_type, keys, keys.len(), &format!("{path}.key"))?;
            check_vector(value_type, values, values.len(), &format!("{path}.value"))
        }
        (Kind::Struct, VectorData::Struct { fields, .. }) => {
            if fields.len() != t.children().len() {
                return Err(fail(
                    path,
                    format_args!("{} fields for {}", fields.len(), t),
                ));
            }
            for ((name, child), field) in t.fields().zip(fields) {
                check_vector(child, field, len, &format!("{path}.{name}"))?;
            }
            Ok(())
        }
        (Kind::Union, VectorData::Union { tags, alternatives }) => {
            let children = t.children();
            if alternatives.len() != children.len() {
                return Err(fail(
                    path,
                    format_args!("{} alternatives for {}", alternatives.len(), t),
                ));
            }
            for (i, &tag) in tags.iter().enumerate() {
                if is_present(present, i) && usize::from(tag) >= children.len() {
                    return Err(fail(
                        path,
                        format_args!("slot {i}: tag {tag} of a union of {}", children.len()),
                    ));
                }
            }
            for (k, (child, alternative)) in children.iter().zip(alternatives).enumerate() {
                check_vector(child, alternative, len, &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        _ => Err(mismatch()),
    }
}

fn check_offsets(offsets: &[usize], children: usize, path: &str) -> Result<()> {
    if offsets.windows(2).any(|w| matches!(w, [a, b] if a > b)) {
        return Err(fail(path, "offsets that decrease"));
    }
    if let Some(&last) = offsets.last()
        && last > children
    {
        return Err(fail(
            path,
            format_args!("offsets up to {last} but {children} children"),
        ));
    }
    Ok(())
}

/// Checks that a decimal fits the column: at its scale exactly, within its precision
/// (38 digits and a scale of at most 38 for a decimal without them).
pub(crate) fn check_decimal(unscaled: i128, scale: u32, t: &TypeDescription) -> Result<(), String> {
    if let (Some(precision), Some(to)) = (t.precision(), t.scale()) {
        let value = rescale_exact(unscaled, scale, to).ok_or_else(|| {
            format!(
                "{} has more than {to} digits after the point",
                crate::statistics::decimal_text(unscaled, scale)
            )
        })?;
        let limit = 10i128
            .checked_pow(precision)
            .map_or(MAX_DECIMAL128, |p| p - 1);
        if value.unsigned_abs() > limit.unsigned_abs() {
            return Err(format!(
                "{} needs more than {precision} digits",
                crate::statistics::decimal_text(unscaled, scale)
            ));
        }
        return Ok(());
    }
    if scale > 38 {
        return Err(format!("scale {scale} is more than 38"));
    }
    if unscaled.unsigned_abs() > MAX_DECIMAL128.unsigned_abs() {
        return Err(format!("{unscaled} has more than 38 digits"));
    }
    Ok(())
}

fn data_name(data: &VectorData) -> &'static str {
    match data {
        VectorData::Boolean(_) => "Boolean",
        VectorData::Int(_) => "Int",
        VectorData::Float(_) => "Float",
        VectorData::Double(_) => "Double",
        VectorData::Bytes(_) => "Bytes",
        VectorData::Timestamp { .. } => "Timestamp",
        VectorData::Decimal { .. } => "Decimal",
        VectorData::List { .. } => "List",
        VectorData::Map { .. } => "Map",
        VectorData::Struct { .. } => "Struct",
        VectorData::Union { .. } => "Union",
    }
}
