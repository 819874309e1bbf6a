//! ORC column vectors into Arrow arrays.
//!
//! Buffers that Arrow lays out as ORC does move into the array without a copy: bigint,
//! float and double values, the offsets and bytes of strings and binaries (text checked
//! to be UTF-8 once per batch, then each offset checked to fall on a character
//! boundary), timestamps (made nanoseconds in place) and decimals (brought to the
//! column's scale in place). Narrower integers, booleans, presence masks, list offsets
//! and union tags are converted.

use std::sync::Arc;

use arrow_array::types::{Date32Type, Int8Type, Int16Type, Int32Type};
use arrow_array::{Array, ArrowPrimitiveType};
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Decimal128Array, Float32Array, Float64Array, Int64Array,
    ListArray, MapArray, PrimitiveArray, StringArray, StructArray, TimestampNanosecondArray,
    UnionArray,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use orc_file::{Kind, TypeDescription, Vector, VectorData};
use parquet_core::ByteArrayBatch;

use super::schema::{UNBOUNDED_DECIMAL, is_selected};
use crate::error::{Result, invalid};

/// Which columns of the file's type (by column id) a batch holds (`read`), and which of
/// them become arrays (`output`).
pub(super) struct Columns {
    pub(super) read: Vec<bool>,
    pub(super) output: Vec<bool>,
}

/// The Arrow array of `vector`, `len` slots of column `t` (a type of the file's schema),
/// of Arrow type `data_type` (as [`arrow_type`](super::schema::arrow_type) gives it for
/// the output columns). The vector's buffers are taken where the array can use them.
pub(super) fn to_array(
    t: &TypeDescription,
    data_type: &DataType,
    columns: &Columns,
    vector: &mut Vector,
    len: usize,
    path: &str,
) -> Result<ArrayRef> {
    if vector.len() != len {
        return Err(invalid(format!(
            "column `{path}`: {} slots where {len} were expected",
            vector.len()
        )));
    }
    let nulls = null_buffer(vector.present.as_deref(), len, path)?;
    let array: ArrayRef = match (&mut vector.data, t.kind()) {
        (VectorData::Boolean(values), Kind::Boolean) => Arc::new(BooleanArray::new(
            BooleanBuffer::from(values.as_slice()),
            nulls,
        )),
        (VectorData::Int(values), Kind::Byte) => {
            narrow::<Int8Type>(values, nulls, "tinyint", path)?
        }
        (VectorData::Int(values), Kind::Short) => {
            narrow::<Int16Type>(values, nulls, "smallint", path)?
        }
        (VectorData::Int(values), Kind::Int) => narrow::<Int32Type>(values, nulls, "int", path)?,
        (VectorData::Int(values), Kind::Date) => narrow::<Date32Type>(values, nulls, "date", path)?,
        (VectorData::Int(values), Kind::Long) => {
            Arc::new(Int64Array::new(std::mem::take(values).into(), nulls))
        }
        (VectorData::Float(values), Kind::Float) => {
            Arc::new(Float32Array::new(std::mem::take(values).into(), nulls))
        }
        (VectorData::Double(values), Kind::Double) => {
            Arc::new(Float64Array::new(std::mem::take(values).into(), nulls))
        }
        (VectorData::Bytes(values), Kind::String | Kind::Varchar | Kind::Char) => {
            let (offsets, data) = byte_parts(values, path)?;
            Arc::new(
                StringArray::try_new(offsets, data, nulls)
                    .map_err(|e| invalid(format!("column `{path}`: {e}")))?,
            )
        }
        (VectorData::Bytes(values), Kind::Binary) => {
            let (offsets, data) = byte_parts(values, path)?;
            Arc::new(BinaryArray::try_new(offsets, data, nulls)?)
        }
        (VectorData::Timestamp { seconds, nanos }, Kind::Timestamp | Kind::TimestampInstant) => {
            timestamps(seconds, nanos, nulls, data_type, path)?
        }
        (VectorData::Decimal { values, scales }, Kind::Decimal) => {
            decimals(t, values, scales, nulls, path)?
        }
        (VectorData::List { offsets, elements }, Kind::List) => {
            list_array(t, data_type, columns, offsets, elements, nulls, len, path)?
        }
        (
            VectorData::Map {
                offsets,
                keys,
                values,
            },
            Kind::Map,
        ) => {
            let children = (&mut **keys, &mut **values);
            map_array(t, data_type, columns, offsets, children, nulls, len, path)?
        }
        (VectorData::Struct { fields, .. }, Kind::Struct) => {
            struct_array(t, data_type, columns, fields, nulls, len, path)?
        }
        (VectorData::Union { tags, alternatives }, Kind::Union) => {
            // A null union is a null of its first alternative, as Arrow C++ reads it.
            if let (Some(present), Some(first)) = (&vector.present, alternatives.first_mut()) {
                mask_present(first, present);
            }
            union_array(t, data_type, columns, tags, alternatives, len, path)?
        }
        (data, _) => {
            return Err(invalid(format!(
                "column `{path}`: {} values for a {} column",
                data_name(data),
                t.kind().name()
            )));
        }
    };
    Ok(array)
}

/// A list's array: its offsets, and its elements' array.
#[allow(clippy::too_many_arguments)]
fn list_array(
    t: &TypeDescription,
    data_type: &DataType,
    columns: &Columns,
    offsets: &[usize],
    elements: &mut Vector,
    nulls: Option<NullBuffer>,
    len: usize,
    path: &str,
) -> Result<ArrayRef> {
    let (DataType::List(item), [element]) = (data_type, t.children()) else {
        return Err(mismatch(t, data_type, path));
    };
    let offsets = arrow_offsets(offsets, len, path)?;
    let path = format!("{path}.item");
    let values = to_array(
        element,
        item.data_type(),
        columns,
        elements,
        offset_end(&offsets),
        &path,
    )?;
    Ok(Arc::new(ListArray::try_new(
        Arc::clone(item),
        offsets,
        values,
        nulls,
    )?))
}

/// A map's array: its offsets, and a struct of its keys and values.
#[allow(clippy::too_many_arguments)]
fn map_array(
    t: &TypeDescription,
    data_type: &DataType,
    columns: &Columns,
    offsets: &[usize],
    (keys, values): (&mut Vector, &mut Vector),
    nulls: Option<NullBuffer>,
    len: usize,
    path: &str,
) -> Result<ArrayRef> {
    let (DataType::Map(entries, sorted), [key_type, value_type]) = (data_type, t.children()) else {
        return Err(mismatch(t, data_type, path));
    };
    let DataType::Struct(fields) = entries.data_type() else {
        return Err(mismatch(t, data_type, path));
    };
    let [key_field, value_field] = fields.iter().as_slice() else {
        return Err(mismatch(t, data_type, path));
    };
    let offsets = arrow_offsets(offsets, len, path)?;
    let entry_count = offset_end(&offsets);
    let key_path = format!("{path}.key");
    let keys = to_array(
        key_type,
        key_field.data_type(),
        columns,
        keys,
        entry_count,
        &key_path,
    )?;
    if keys.null_count() > 0 {
        return Err(invalid(format!(
            "column `{path}`: a map with a null key (an Arrow map's keys are never null)"
        )));
    }
    let value_path = format!("{path}.value");
    let values = to_array(
        value_type,
        value_field.data_type(),
        columns,
        values,
        entry_count,
        &value_path,
    )?;
    let entry_array = StructArray::try_new(fields.clone(), vec![keys, values], None)?;
    Ok(Arc::new(MapArray::try_new(
        Arc::clone(entries),
        offsets,
        entry_array,
        nulls,
        *sorted,
    )?))
}

/// A struct's array, of the fields of `t` that `columns` outputs; `fields` holds the
/// vectors of those it reads.
fn struct_array(
    t: &TypeDescription,
    data_type: &DataType,
    columns: &Columns,
    fields: &mut [Vector],
    nulls: Option<NullBuffer>,
    len: usize,
    path: &str,
) -> Result<ArrayRef> {
    let DataType::Struct(arrow_fields) = data_type else {
        return Err(mismatch(t, data_type, path));
    };
    let mut vectors = fields.iter_mut();
    let mut arrow = arrow_fields.iter();
    let mut arrays = Vec::with_capacity(arrow_fields.len());
    for (name, child) in t.fields() {
        if !is_selected(Some(&columns.read), child.id()) {
            continue;
        }
        let vector = vectors.next().ok_or_else(|| {
            invalid(format!(
                "column `{path}`: fewer field vectors than fields read"
            ))
        })?;
        if !is_selected(Some(&columns.output), child.id()) {
            continue;
        }
        let field = arrow.next().ok_or_else(|| mismatch(t, data_type, path))?;
        let path = format!("{path}.{name}");
        arrays.push(to_array(
            child,
            field.data_type(),
            columns,
            vector,
            len,
            &path,
        )?);
    }
    if vectors.next().is_some() || arrow.next().is_some() {
        return Err(invalid(format!(
            "column `{path}`: more field vectors than fields read"
        )));
    }
    Ok(if arrays.is_empty() {
        Arc::new(StructArray::new_empty_fields(len, nulls))
    } else {
        Arc::new(StructArray::try_new(arrow_fields.clone(), arrays, nulls)?)
    })
}

/// A sparse union's array: the tags as type ids, and an array per alternative.
fn union_array(
    t: &TypeDescription,
    data_type: &DataType,
    columns: &Columns,
    tags: &[u8],
    alternatives: &mut [Vector],
    len: usize,
    path: &str,
) -> Result<ArrayRef> {
    let DataType::Union(fields, _) = data_type else {
        return Err(mismatch(t, data_type, path));
    };
    if tags.len() != len || alternatives.len() != t.children().len() {
        return Err(mismatch(t, data_type, path));
    }
    let mut type_ids = Vec::with_capacity(len);
    for &tag in tags {
        match i8::try_from(tag) {
            Ok(id) if usize::from(tag) < alternatives.len() => type_ids.push(id),
            _ => {
                return Err(invalid(format!(
                    "column `{path}`: tag {tag} of a union of {} alternatives",
                    alternatives.len()
                )));
            }
        }
    }
    let mut children = Vec::with_capacity(alternatives.len());
    let arms = t.children().iter().zip(alternatives).zip(fields.iter());
    for (k, ((alternative, vector), (_, field))) in arms.enumerate() {
        let path = format!("{path}.{k}");
        children.push(to_array(
            alternative,
            field.data_type(),
            columns,
            vector,
            len,
            &path,
        )?);
    }
    Ok(Arc::new(UnionArray::try_new(
        fields.clone(),
        ScalarBuffer::from(type_ids),
        None,
        children,
    )?))
}

/// The slots that offsets (checked to start at 0 and grow) reach.
fn offset_end(offsets: &OffsetBuffer<i32>) -> usize {
    usize::try_from(offsets.last()).unwrap_or(0)
}

fn mismatch(t: &TypeDescription, data_type: &DataType, path: &str) -> crate::Error {
    invalid(format!(
        "column `{path}`: the ORC type {t} does not match the Arrow type {data_type}"
    ))
}

fn data_name(data: &VectorData) -> &'static str {
    match data {
        VectorData::Boolean(_) => "boolean",
        VectorData::Int(_) => "integer",
        VectorData::Float(_) => "float",
        VectorData::Double(_) => "double",
        VectorData::Bytes(_) => "byte string",
        VectorData::Timestamp { .. } => "timestamp",
        VectorData::Decimal { .. } => "decimal",
        VectorData::List { .. } => "list",
        VectorData::Map { .. } => "map",
        VectorData::Struct { .. } => "struct",
        VectorData::Union { .. } => "union",
    }
}

/// The validity of `len` slots: `None` when every slot holds a value.
fn null_buffer(present: Option<&[bool]>, len: usize, path: &str) -> Result<Option<NullBuffer>> {
    let Some(present) = present else {
        return Ok(None);
    };
    if present.len() != len {
        return Err(invalid(format!(
            "column `{path}`: a presence mask of {} slots for {len}",
            present.len()
        )));
    }
    let nulls = NullBuffer::from(present);
    Ok((nulls.null_count() > 0).then_some(nulls))
}

/// Marks the slots of `vector` null where `present` is false.
fn mask_present(vector: &mut Vector, present: &[bool]) {
    match &mut vector.present {
        Some(own) => own.iter_mut().zip(present).for_each(|(o, &p)| *o &= p),
        None => vector.present = Some(present.to_vec()),
    }
}

/// ORC integers (64-bit) in a narrower Arrow type: a value out of its range is an error.
fn narrow<T>(values: &[i64], nulls: Option<NullBuffer>, kind: &str, path: &str) -> Result<ArrayRef>
where
    T: ArrowPrimitiveType,
    T::Native: TryFrom<i64>,
{
    let mut out = Vec::with_capacity(values.len());
    for &v in values {
        out.push(
            T::Native::try_from(v)
                .map_err(|_| invalid(format!("column `{path}`: {v} does not fit a {kind}")))?,
        );
    }
    Ok(Arc::new(PrimitiveArray::<T>::new(out.into(), nulls)))
}

/// The offsets and bytes of a batch of byte strings, taken from it.
fn byte_parts(values: &mut ByteArrayBatch, path: &str) -> Result<(OffsetBuffer<i32>, Buffer)> {
    let (offsets, data) = std::mem::take(values).into_parts();
    if i32::try_from(data.len()).is_err() {
        return Err(invalid(format!(
            "column `{path}`: {} bytes of values in one batch, more than 32-bit offsets \
             reach (read smaller batches)",
            data.len()
        )));
    }
    let ordered = offsets.first() == Some(&0)
        && offsets.last().is_some_and(|&l| l as usize == data.len())
        && offsets.windows(2).all(|w| w[0] <= w[1]);
    if !ordered {
        return Err(invalid(format!(
            "column `{path}`: byte string offsets out of order"
        )));
    }
    // The same bits: every offset is at most the data's length, below 2^31.
    let offsets: Vec<i32> = bytemuck::try_cast_vec(offsets)
        .map_err(|(e, _)| invalid(format!("column `{path}`: {e}")))?;
    Ok((OffsetBuffer::new(offsets.into()), Buffer::from_vec(data)))
}

/// Arrow's 32-bit offsets of `len` list or map slots.
fn arrow_offsets(offsets: &[usize], len: usize, path: &str) -> Result<OffsetBuffer<i32>> {
    if offsets.len() != len + 1 || offsets.first() != Some(&0) {
        return Err(invalid(format!(
            "column `{path}`: {} offsets for {len} slots",
            offsets.len()
        )));
    }
    let mut out = Vec::with_capacity(offsets.len());
    let mut last = 0;
    for &offset in offsets {
        let offset = i32::try_from(offset).map_err(|_| {
            invalid(format!(
                "column `{path}`: {offset} elements in one batch, more than 32-bit offsets \
                 reach (read smaller batches)"
            ))
        })?;
        if offset < last {
            return Err(invalid(format!(
                "column `{path}`: list offsets out of order"
            )));
        }
        last = offset;
        out.push(offset);
    }
    Ok(OffsetBuffer::new(out.into()))
}

/// Nanoseconds from seconds and nanoseconds, in place in `seconds`.
fn timestamps(
    seconds: &mut Vec<i64>,
    nanos: &[u32],
    nulls: Option<NullBuffer>,
    data_type: &DataType,
    path: &str,
) -> Result<ArrayRef> {
    if nanos.len() != seconds.len() {
        return Err(invalid(format!(
            "column `{path}`: {} seconds and {} nanoseconds",
            seconds.len(),
            nanos.len()
        )));
    }
    for (s, &n) in seconds.iter_mut().zip(nanos) {
        *s = s
            .checked_mul(1_000_000_000)
            .and_then(|ns| ns.checked_add(i64::from(n)))
            .ok_or_else(|| {
                invalid(format!(
                    "column `{path}`: the timestamp {s} s from 1970 is out of the range of \
                     64-bit nanoseconds (years 1677 to 2262)"
                ))
            })?;
    }
    let timezone = match data_type {
        DataType::Timestamp(_, tz) => tz.clone(),
        _ => None,
    };
    Ok(Arc::new(
        TimestampNanosecondArray::new(std::mem::take(seconds).into(), nulls)
            .with_timezone_opt(timezone),
    ))
}

/// Decimals at the column's scale: ORC v0 decimals, which carry a scale per value, are
/// brought to scale 6 as Arrow C++ reads them (digits past it dropped, toward zero).
fn decimals(
    t: &TypeDescription,
    values: &mut Vec<i128>,
    scales: &[u32],
    nulls: Option<NullBuffer>,
    path: &str,
) -> Result<ArrayRef> {
    let (precision, scale) = super::schema::decimal_of(t)?;
    if scales.len() != values.len() {
        return Err(invalid(format!(
            "column `{path}`: {} decimals and {} scales",
            values.len(),
            scales.len()
        )));
    }
    let target = scale.unsigned_abs().into();
    let unbounded = (precision, scale) == UNBOUNDED_DECIMAL && t.precision().is_none();
    let limit = 10_u128.pow(u32::from(precision));
    for (v, &from) in values.iter_mut().zip(scales) {
        if from != target {
            *v = rescale(*v, from, target).ok_or_else(|| {
                invalid(format!(
                    "column `{path}`: the decimal {v}e-{from} does not fit decimal({precision},{scale})"
                ))
            })?;
        }
        if unbounded && v.unsigned_abs() >= limit {
            return Err(invalid(format!(
                "column `{path}`: the decimal {v}e-{scale} has more than {precision} digits"
            )));
        }
    }
    Ok(Arc::new(
        Decimal128Array::new(std::mem::take(values).into(), nulls)
            .with_precision_and_scale(precision, scale)?,
    ))
}

/// `value` (scaled by `from` digits) scaled by `to` digits, truncated toward zero;
/// `None` when it overflows.
fn rescale(value: i128, from: u32, to: u32) -> Option<i128> {
    if from < to {
        10_i128.checked_pow(to - from)?.checked_mul(value)
    } else {
        // 10^39 is past every i128, so the quotient is 0.
        Some(10_i128.checked_pow(from - to).map_or(0, |p| value / p))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use arrow_array::{Int32Array, cast::AsArray};

    use super::*;

    fn all(t: &TypeDescription) -> Columns {
        let n = t.max_id() as usize + 1;
        Columns {
            read: vec![true; n],
            output: vec![true; n],
        }
    }

    #[test]
    fn rescale_truncates_toward_zero() {
        assert_eq!(rescale(123_456_789, 8, 6), Some(1_234_567));
        assert_eq!(rescale(-123_456_789, 8, 6), Some(-1_234_567));
        assert_eq!(rescale(-15, 7, 6), Some(-1));
        assert_eq!(rescale(12, 1, 6), Some(1_200_000));
        assert_eq!(rescale(5, 100, 6), Some(0));
        assert_eq!(rescale(i128::MAX, 0, 6), None);
    }

    #[test]
    fn narrowing_out_of_range_is_an_error() {
        let t = TypeDescription::primitive(Kind::Byte).unwrap();
        let mut v = Vector::new(VectorData::Int(vec![1, 300]));
        let e = to_array(&t, &DataType::Int8, &all(&t), &mut v, 2, "b").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid data: column `b`: 300 does not fit a tinyint"
        );
    }

    #[test]
    fn text_not_utf8_is_an_error() {
        let t = TypeDescription::primitive(Kind::String).unwrap();
        let mut bytes = ByteArrayBatch::new();
        bytes.push(b"ok").unwrap();
        bytes.push(&[0xff, 0xfe]).unwrap();
        let mut v = Vector::new(VectorData::Bytes(bytes));
        let e = to_array(&t, &DataType::Utf8, &all(&t), &mut v, 2, "s").unwrap_err();
        assert!(e.to_string().contains("column `s`"), "{e}");
    }

    #[test]
    fn split_character_is_an_error() {
        // "é" is two bytes; a value boundary between them is not text.
        let t = TypeDescription::primitive(Kind::String).unwrap();
        let mut bytes = ByteArrayBatch::new();
        bytes.push(&[0xc3]).unwrap();
        bytes.push(&[0xa9]).unwrap();
        let mut v = Vector::new(VectorData::Bytes(bytes));
        assert!(to_array(&t, &DataType::Utf8, &all(&t), &mut v, 2, "s").is_err());
    }

    #[test]
    fn timestamp_past_nanoseconds_is_an_error() {
        let t = TypeDescription::primitive(Kind::Timestamp).unwrap();
        let data_type = DataType::Timestamp(arrow_schema::TimeUnit::Nanosecond, None);
        let mut v = Vector::new(VectorData::Timestamp {
            seconds: vec![0, 10_000_000_000],
            nanos: vec![5, 0],
        });
        let e = to_array(&t, &data_type, &all(&t), &mut v, 2, "ts").unwrap_err();
        assert!(e.to_string().contains("out of the range"), "{e}");
    }

    #[test]
    fn null_union_is_a_null_first_alternative() {
        let int = TypeDescription::primitive(Kind::Int).unwrap();
        let t = TypeDescription::union_of([int.clone(), int]);
        let data_type = super::super::schema::arrow_type(&t, None).unwrap();
        let mut v = Vector::with_present(
            VectorData::Union {
                tags: vec![1, 0],
                alternatives: vec![
                    Vector::new(VectorData::Int(vec![0, 0])),
                    Vector::new(VectorData::Int(vec![7, 0])),
                ],
            },
            vec![true, false],
        );
        let array = to_array(&t, &data_type, &all(&t), &mut v, 2, "u").unwrap();
        let union = array.as_union();
        assert_eq!(union.type_ids(), &[1, 0]);
        let nulls = union.logical_nulls().unwrap();
        assert!(nulls.is_valid(0) && nulls.is_null(1));
        let first: &Int32Array = union.child(0).as_primitive();
        assert!(first.is_null(1));
    }

    #[test]
    fn list_offsets_past_32_bits_are_an_error() {
        let e = arrow_offsets(&[0, 1 << 31], 1, "l").unwrap_err();
        assert!(e.to_string().contains("32-bit"), "{e}");
    }
}
