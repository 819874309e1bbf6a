//! Rows of [`Field`]s into column vectors, for [`OrcWriter::write_row`].
//!
//! A row is checked whole first ([`check_row`]); only a row that fits is added
//! ([`RowBuffer::push`]), so a refused row leaves nothing behind.
//!
//! [`OrcWriter::write_row`]: super::OrcWriter::write_row

use parquet_core::{ByteArrayBatch, Field, Row};

use crate::error::{Context as _, Error, ErrorKind, Result};
use crate::schema::{Kind, TypeDescription};
use crate::vector::{Batch, Vector, VectorData};

use super::validate::{MAX_TIMESTAMP_SECONDS, check_decimal};

/// Rows added but not yet written, as vectors.
#[derive(Debug)]
pub(crate) struct RowBuffer {
    batch: Batch,
    /// The bytes of the strings and binaries held (a byte batch holds at most 4 GiB).
    bytes: usize,
}

/// The longest string or binary value a row may hold.
const MAX_VALUE_BYTES: usize = 1 << 30;

impl RowBuffer {
    /// An empty buffer for rows of `schema` (a struct).
    pub(crate) fn new(schema: &TypeDescription) -> Self {
        Self {
            batch: Batch {
                num_rows: 0,
                columns: schema.children().iter().map(empty_vector).collect(),
            },
            bytes: 0,
        }
    }

    /// A buffer without columns, to stand in while the real one is written.
    pub(crate) fn placeholder() -> Self {
        Self {
            batch: Batch::default(),
            bytes: 0,
        }
    }

    /// The rows held.
    pub(crate) fn len(&self) -> usize {
        self.batch.num_rows
    }

    /// The bytes of strings and binaries held.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// The rows held, as a batch.
    pub(crate) fn batch(&self) -> &Batch {
        &self.batch
    }

    /// Empties the buffer, keeping its allocations.
    pub(crate) fn clear(&mut self) {
        self.batch.num_rows = 0;
        self.bytes = 0;
        for v in &mut self.batch.columns {
            clear_vector(v);
        }
    }

    /// Adds a row that [`check_row`] accepted.
    pub(crate) fn push(&mut self, schema: &TypeDescription, row: &Row) {
        for (i, ((name, t), v)) in schema.fields().zip(&mut self.batch.columns).enumerate() {
            match row_field(row, i, name) {
                Some(field) => {
                    self.bytes += field_bytes(field);
                    push_field(t, v, field);
                }
                None => push_null(t, v),
            }
        }
        self.batch.num_rows += 1;
    }
}

/// The bytes of the strings and binaries of a field.
fn field_bytes(field: &Field) -> usize {
    match field {
        Field::Str(s) => s.len(),
        Field::Bytes(b) => b.len(),
        Field::List(items) => items.iter().map(field_bytes).sum(),
        Field::Map(entries) => entries
            .iter()
            .map(|(k, v)| field_bytes(k) + field_bytes(v))
            .sum(),
        Field::Group(fields) => fields.iter().map(|(_, f)| field_bytes(f)).sum(),
        _ => 0,
    }
}

/// The field of `row` named `name`, looked up first at `position`.
fn row_field<'a>(row: &'a Row, position: usize, name: &str) -> Option<&'a Field> {
    match row.fields().get(position) {
        Some((n, f)) if &**n == name => Some(f),
        _ => row.get(name),
    }
}

/// Checks that `row` fits `schema`: every field it names exists and every value fits
/// its column (fields it leaves out are null).
pub(crate) fn check_row(schema: &TypeDescription, row: &Row) -> Result<()> {
    for (i, (name, _)) in row.fields().iter().enumerate() {
        if schema.field_at(i, name).is_none() {
            return Err(Error::from(ErrorKind::NoSuchField {
                name: name.as_ref().into(),
            })
            .at_column(schema.id()));
        }
    }
    for (i, (name, t)) in schema.fields().enumerate() {
        if let Some(field) = row_field(row, i, name) {
            check_field(t, field)?;
        }
    }
    Ok(())
}

/// An [`ErrorKind::InvalidInput`] about a value for a column of type `t`.
fn fail(what: &'static str, t: &TypeDescription, value: Option<i128>) -> Error {
    ErrorKind::InvalidInput {
        what,
        kind: Some(t.kind().name()),
        value,
        slot: None,
    }
    .into()
}

/// Checks one value against its type; the error's column is `t`'s (or a child's).
fn check_field(t: &TypeDescription, field: &Field) -> Result<()> {
    check(t, field).at_column(t.id())
}

/// The seconds and nanoseconds of a timestamp field's value, if in range.
fn timestamp_parts(value: i128, per_second: i64) -> Option<(i64, u32)> {
    let per = i128::from(per_second);
    let seconds = i64::try_from(value.div_euclid(per)).ok()?;
    let fraction = value.rem_euclid(per) * (1_000_000_000 / per);
    (-MAX_TIMESTAMP_SECONDS..=MAX_TIMESTAMP_SECONDS)
        .contains(&seconds)
        .then_some((seconds, u32::try_from(fraction).ok()?))
}

/// A wide decimal's unscaled value (big-endian two's complement) as an `i128`, if it
/// fits.
fn wide_unscaled(bytes: &[u8]) -> Option<i128> {
    let negative = bytes.first().is_some_and(|&b| b & 0x80 != 0);
    let fill = if negative { 0xff } else { 0 };
    let skip = bytes.len().saturating_sub(16);
    let (head, tail) = bytes.split_at(skip);
    if head.iter().any(|&b| b != fill) {
        return None;
    }
    let mut buf = [fill; 16];
    buf.get_mut(16 - tail.len()..)?.copy_from_slice(tail);
    let value = i128::from_be_bytes(buf);
    // The sign must survive dropping the head.
    ((value < 0) == negative).then_some(value)
}

fn describe(field: &Field) -> &'static str {
    match field {
        Field::Null => "null",
        Field::Bool(_) => "a boolean",
        Field::Int(_) => "an integer",
        Field::UInt(_) => "an unsigned integer",
        Field::Float(_) => "a float",
        Field::Double(_) => "a double",
        Field::Float16(_) => "a float16",
        Field::Decimal { .. } | Field::WideDecimal { .. } => "a decimal",
        Field::Date(_) => "a date",
        Field::Time { .. } => "a time of day",
        Field::Timestamp { .. } => "a timestamp",
        Field::Str(_) => "a string",
        Field::Bytes(_) => "bytes",
        Field::Uuid(_) => "a UUID",
        Field::List(_) => "a list",
        Field::Map(_) => "a map",
        Field::Group(_) => "a group",
    }
}

fn integer_of(field: &Field) -> Option<i64> {
    match *field {
        Field::Int(v) => Some(v),
        Field::UInt(v) => i64::try_from(v).ok(),
        _ => None,
    }
}

/// Checks one value against its type.
#[allow(clippy::too_many_lines)] // one arm per kind
fn check(t: &TypeDescription, field: &Field) -> Result<()> {
    if matches!(field, Field::Null) {
        return Ok(());
    }
    let wrong = || {
        Error::from(ErrorKind::WrongInputType {
            expected: t.kind().name(),
            found: describe(field),
            slot: None,
        })
    };
    if let Field::Str(s) = field
        && s.len() > MAX_VALUE_BYTES
    {
        return Err(fail(
            "a string of more than 1 GiB, bytes",
            t,
            Some(s.len() as i128),
        ));
    }
    if let Field::Bytes(b) = field
        && b.len() > MAX_VALUE_BYTES
    {
        return Err(fail(
            "a value of more than 1 GiB, bytes",
            t,
            Some(b.len() as i128),
        ));
    }
    match t.kind() {
        Kind::Boolean => matches!(field, Field::Bool(_))
            .then_some(())
            .ok_or_else(wrong),
        Kind::Byte | Kind::Short | Kind::Int | Kind::Long => {
            let (min, max) = match t.kind() {
                Kind::Byte => (i64::from(i8::MIN), i64::from(i8::MAX)),
                Kind::Short => (i64::from(i16::MIN), i64::from(i16::MAX)),
                Kind::Int => (i64::from(i32::MIN), i64::from(i32::MAX)),
                _ => (i64::MIN, i64::MAX),
            };
            match (field, integer_of(field)) {
                (_, Some(v)) if (min..=max).contains(&v) => Ok(()),
                (Field::Int(v), _) => Err(fail(
                    "an integer out of the column's range",
                    t,
                    Some(i128::from(*v)),
                )),
                (Field::UInt(v), _) => Err(fail(
                    "an integer out of the column's range",
                    t,
                    Some(i128::from(*v)),
                )),
                _ => Err(wrong()),
            }
        }
        Kind::Float => matches!(field, Field::Float(_))
            .then_some(())
            .ok_or_else(wrong),
        Kind::Double => matches!(field, Field::Double(_) | Field::Float(_))
            .then_some(())
            .ok_or_else(wrong),
        Kind::String => matches!(field, Field::Str(_))
            .then_some(())
            .ok_or_else(wrong),
        Kind::Char | Kind::Varchar => {
            let Field::Str(s) = field else {
                return Err(wrong());
            };
            let length = t.max_length().unwrap_or(0) as usize;
            let chars = s.chars().count();
            if chars > length {
                return Err(ErrorKind::TooLong {
                    kind: t.kind().name(),
                    length: chars as u64,
                    max: length as u64,
                }
                .into());
            }
            Ok(())
        }
        Kind::Binary => matches!(field, Field::Bytes(_) | Field::Str(_))
            .then_some(())
            .ok_or_else(wrong),
        Kind::Date => match field {
            Field::Date(_) => Ok(()),
            _ => Err(wrong()),
        },
        Kind::Timestamp | Kind::TimestampInstant => match field {
            Field::Timestamp { value, unit, .. } => timestamp_parts(*value, unit.per_second())
                .map(drop)
                .ok_or_else(|| {
                    fail(
                        match unit {
                            parquet_core::TimeUnit::Millis => {
                                "a timestamp out of range, in milliseconds"
                            }
                            parquet_core::TimeUnit::Micros => {
                                "a timestamp out of range, in microseconds"
                            }
                            parquet_core::TimeUnit::Nanos => {
                                "a timestamp out of range, in nanoseconds"
                            }
                        },
                        t,
                        Some(*value),
                    )
                }),
            _ => Err(wrong()),
        },
        Kind::Decimal => match field {
            Field::Decimal { unscaled, scale } => check_decimal(*unscaled, *scale, t),
            Field::WideDecimal { unscaled, scale } => match wide_unscaled(unscaled) {
                Some(v) => check_decimal(v, *scale, t),
                None => Err(fail("a decimal of more than 38 digits", t, None)),
            },
            _ => Err(wrong()),
        },
        Kind::List => {
            let Field::List(items) = field else {
                return Err(wrong());
            };
            let element = t.children().first().ok_or_else(wrong)?;
            for (i, item) in items.iter().enumerate() {
                check_field(element, item).map_err(|e| e.at_slot(i))?;
            }
            Ok(())
        }
        Kind::Map => {
            let Field::Map(entries) = field else {
                return Err(wrong());
            };
            let [key_type, value_type] = t.children() else {
                return Err(wrong());
            };
            for (i, (k, v)) in entries.iter().enumerate() {
                check_field(key_type, k).map_err(|e| e.at_slot(i))?;
                check_field(value_type, v).map_err(|e| e.at_slot(i))?;
            }
            Ok(())
        }
        Kind::Struct => {
            let Field::Group(fields) = field else {
                return Err(wrong());
            };
            for (i, (name, _)) in fields.iter().enumerate() {
                if t.field_at(i, name).is_none() {
                    return Err(ErrorKind::NoSuchField {
                        name: name.as_ref().into(),
                    }
                    .into());
                }
            }
            for (i, (name, child)) in t.fields().enumerate() {
                if let Some(f) = group_field(fields, i, name) {
                    check_field(child, f)?;
                }
            }
            Ok(())
        }
        Kind::Union => {
            let Some((tag, value)) = union_parts(field) else {
                return Err(ErrorKind::WrongInputType {
                    expected: "uniontype (a group of `tag` and `value`)",
                    found: describe(field),
                    slot: None,
                }
                .into());
            };
            let child = usize::try_from(tag)
                .ok()
                .and_then(|tag| t.children().get(tag))
                .ok_or_else(|| {
                    fail(
                        "a tag past the union's alternatives",
                        t,
                        Some(i128::from(tag)),
                    )
                })?;
            check_field(child, value)
        }
    }
}

/// The field named `name` of a group, looked up first at `position`.
fn group_field<'a>(
    fields: &'a [(std::sync::Arc<str>, Field)],
    position: usize,
    name: &str,
) -> Option<&'a Field> {
    match fields.get(position) {
        Some((n, f)) if &**n == name => Some(f),
        _ => fields.iter().find(|(n, _)| &**n == name).map(|(_, f)| f),
    }
}

/// A union value's tag and value: a group of `tag` (an integer) and `value`.
fn union_parts(field: &Field) -> Option<(i64, &Field)> {
    let Field::Group(fields) = field else {
        return None;
    };
    let tag = integer_of(group_field(fields, 0, "tag")?)?;
    let value = group_field(fields, 1, "value").unwrap_or(&Field::Null);
    if fields.iter().any(|(n, _)| &**n != "tag" && &**n != "value") {
        return None;
    }
    Some((tag, value))
}

/// An empty vector of type `t`, with a presence mask.
fn empty_vector(t: &TypeDescription) -> Vector {
    let data = match t.kind() {
        Kind::Boolean => VectorData::Boolean(Vec::new()),
        Kind::Byte | Kind::Short | Kind::Int | Kind::Long | Kind::Date => {
            VectorData::Int(Vec::new())
        }
        Kind::Float => VectorData::Float(Vec::new()),
        Kind::Double => VectorData::Double(Vec::new()),
        Kind::String | Kind::Char | Kind::Varchar | Kind::Binary => {
            VectorData::Bytes(ByteArrayBatch::new())
        }
        Kind::Timestamp | Kind::TimestampInstant => VectorData::Timestamp {
            seconds: Vec::new(),
            nanos: Vec::new(),
        },
        Kind::Decimal => VectorData::Decimal {
            values: Vec::new(),
            scales: Vec::new(),
        },
        Kind::List => VectorData::List {
            offsets: vec![0],
            elements: Box::new(t.children().first().map_or_else(
                || Vector::new(VectorData::Boolean(Vec::new())),
                empty_vector,
            )),
        },
        Kind::Map => {
            let child = |i: usize| {
                Box::new(t.children().get(i).map_or_else(
                    || Vector::new(VectorData::Boolean(Vec::new())),
                    empty_vector,
                ))
            };
            VectorData::Map {
                offsets: vec![0],
                keys: child(0),
                values: child(1),
            }
        }
        Kind::Struct => VectorData::Struct {
            len: 0,
            fields: t.children().iter().map(empty_vector).collect(),
        },
        Kind::Union => VectorData::Union {
            tags: Vec::new(),
            alternatives: t.children().iter().map(empty_vector).collect(),
        },
    };
    Vector::with_present(data, Vec::new())
}

fn clear_vector(v: &mut Vector) {
    if let Some(p) = &mut v.present {
        p.clear();
    }
    match &mut v.data {
        VectorData::Boolean(x) => x.clear(),
        VectorData::Int(x) => x.clear(),
        VectorData::Float(x) => x.clear(),
        VectorData::Double(x) => x.clear(),
        VectorData::Bytes(x) => x.clear(),
        VectorData::Timestamp { seconds, nanos } => {
            seconds.clear();
            nanos.clear();
        }
        VectorData::Decimal { values, scales } => {
            values.clear();
            scales.clear();
        }
        VectorData::List { offsets, elements } => {
            offsets.truncate(1);
            clear_vector(elements);
        }
        VectorData::Map {
            offsets,
            keys,
            values,
        } => {
            offsets.truncate(1);
            clear_vector(keys);
            clear_vector(values);
        }
        VectorData::Struct { len, fields } => {
            *len = 0;
            fields.iter_mut().for_each(clear_vector);
        }
        VectorData::Union { tags, alternatives } => {
            tags.clear();
            alternatives.iter_mut().for_each(clear_vector);
        }
    }
}

fn push_presence(v: &mut Vector, present: bool) {
    v.present.get_or_insert_with(Vec::new).push(present);
}

/// Adds a null slot.
fn push_null(t: &TypeDescription, v: &mut Vector) {
    push_presence(v, false);
    match &mut v.data {
        VectorData::Boolean(x) => x.push(false),
        VectorData::Int(x) => x.push(0),
        VectorData::Float(x) => x.push(0.0),
        VectorData::Double(x) => x.push(0.0),
        VectorData::Bytes(x) => {
            // An empty value always fits.
            let _ = x.push(&[]);
        }
        VectorData::Timestamp { seconds, nanos } => {
            seconds.push(0);
            nanos.push(0);
        }
        VectorData::Decimal { values, scales } => {
            values.push(0);
            scales.push(t.scale().unwrap_or(0));
        }
        VectorData::List { offsets, .. } | VectorData::Map { offsets, .. } => {
            let last = offsets.last().copied().unwrap_or(0);
            offsets.push(last);
        }
        VectorData::Struct { len, fields } => {
            *len += 1;
            for (child, field) in t.children().iter().zip(fields) {
                push_null(child, field);
            }
        }
        VectorData::Union { tags, alternatives } => {
            tags.push(0);
            for (child, alternative) in t.children().iter().zip(alternatives) {
                push_null(child, alternative);
            }
        }
    }
}

/// Adds a value that [`check_field`] accepted.
fn push_field(t: &TypeDescription, v: &mut Vector, field: &Field) {
    if matches!(field, Field::Null) {
        push_null(t, v);
        return;
    }
    push_presence(v, true);
    match (&mut v.data, field) {
        (VectorData::Boolean(x), &Field::Bool(b)) => x.push(b),
        (VectorData::Int(x), &Field::Date(d)) => x.push(i64::from(d)),
        (VectorData::Int(x), f) => x.push(integer_of(f).unwrap_or(0)),
        (VectorData::Float(x), &Field::Float(f)) => x.push(f),
        (VectorData::Double(x), &Field::Double(f)) => x.push(f),
        (VectorData::Double(x), &Field::Float(f)) => x.push(f64::from(f)),
        (VectorData::Bytes(x), Field::Str(s)) => {
            // Checked by the batch limit when written; a value over 4 GiB is refused
            // by the batch, which stays as it was.
            let _ = x.push(s.as_bytes());
        }
        (VectorData::Bytes(x), Field::Bytes(b)) => {
            let _ = x.push(b);
        }
        (VectorData::Timestamp { seconds, nanos }, &Field::Timestamp { value, unit, .. }) => {
            let (s, n) = timestamp_parts(value, unit.per_second()).unwrap_or((0, 0));
            seconds.push(s);
            nanos.push(n);
        }
        (VectorData::Decimal { values, scales }, &Field::Decimal { unscaled, scale }) => {
            values.push(unscaled);
            scales.push(scale);
        }
        (VectorData::Decimal { values, scales }, Field::WideDecimal { unscaled, scale }) => {
            values.push(wide_unscaled(unscaled).unwrap_or(0));
            scales.push(*scale);
        }
        (VectorData::List { offsets, elements }, Field::List(items)) => {
            if let Some(element) = t.children().first() {
                for item in items {
                    push_field(element, elements, item);
                }
            }
            offsets.push(elements.len());
        }
        (
            VectorData::Map {
                offsets,
                keys,
                values,
            },
            Field::Map(entries),
        ) => {
            if let [key_type, value_type] = t.children() {
                for (k, val) in entries {
                    push_field(key_type, keys, k);
                    push_field(value_type, values, val);
                }
            }
            offsets.push(keys.len());
        }
        (VectorData::Struct { len, fields }, Field::Group(group)) => {
            *len += 1;
            for (i, ((name, child), vector)) in t.fields().zip(fields).enumerate() {
                match group_field(group, i, name) {
                    Some(f) => push_field(child, vector, f),
                    None => push_null(child, vector),
                }
            }
        }
        (VectorData::Union { tags, alternatives }, f) => {
            let (tag, value) = union_parts(f).unwrap_or((0, &Field::Null));
            let tag = usize::try_from(tag).unwrap_or(0);
            #[allow(clippy::cast_possible_truncation)] // at most 256 alternatives
            tags.push(tag as u8);
            for (k, (child, alternative)) in t.children().iter().zip(alternatives).enumerate() {
                if k == tag {
                    push_field(child, alternative, value);
                } else {
                    push_null(child, alternative);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_decimals_fit_when_their_head_is_sign() {
        assert_eq!(wide_unscaled(&[0xff; 20]), Some(-1));
        let mut bytes = vec![0u8; 20];
        bytes[19] = 5;
        assert_eq!(wide_unscaled(&bytes), Some(5));
        bytes[2] = 1;
        assert_eq!(wide_unscaled(&bytes), None);
        // 0x00 then 0x80..: positive, but the low 16 bytes read negative.
        let mut bytes = vec![0u8; 17];
        bytes[1] = 0x80;
        assert_eq!(wide_unscaled(&bytes), None);
        assert_eq!(wide_unscaled(&[0x01, 0x00]), Some(256));
    }

    #[test]
    fn timestamps_split_into_seconds_and_nanos() {
        assert_eq!(timestamp_parts(-1, 1_000), Some((-1, 999_000_000)));
        assert_eq!(
            timestamp_parts(1_500_000_001, 1_000_000_000),
            Some((1, 500_000_001))
        );
        assert_eq!(timestamp_parts(i128::MAX, 1), None);
    }
}
