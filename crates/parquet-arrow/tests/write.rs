//! The Arrow writer: batches of every type, with nulls at every level, sliced, read back
//! row by row by `parquet-file` and compared with what the arrays hold; options honoured,
//! the Arrow schema stored, bad batches refused without harm.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    clippy::too_many_lines
)] // Small generated values.

mod common;

use std::sync::Arc;

use arrow_array::builder::{
    Int32Builder, Int64Builder, ListBuilder, MapBuilder, StringBuilder, StructBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, DurationMicrosecondType, DurationMillisecondType,
    DurationNanosecondType, DurationSecondType, Float16Type, Int8Type, Int16Type, Int32Type,
    Int64Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BinaryArray, BinaryViewArray, BooleanArray, Date32Array,
    Date64Array, Decimal32Array, Decimal64Array, Decimal128Array, Decimal256Array, DictionaryArray,
    DurationNanosecondArray, DurationSecondArray, FixedSizeBinaryArray, FixedSizeListArray,
    Float16Array, Float32Array, Float64Array, GenericListViewArray, Int8Array, Int16Array,
    Int32Array, Int64Array, LargeBinaryArray, LargeListArray, LargeStringArray, ListArray,
    NullArray, RecordBatch, StringArray, StringViewArray, StructArray, Time32MillisecondArray,
    Time32SecondArray, Time64MicrosecondArray, Time64NanosecondArray, TimestampMicrosecondArray,
    TimestampMillisecondArray, TimestampNanosecondArray, TimestampSecondArray, UInt8Array,
    UInt16Array, UInt32Array, UInt64Array,
};
use arrow_buffer::{ArrowNativeType, NullBuffer, OffsetBuffer, ScalarBuffer, i256};
use arrow_schema::{DataType, Field as ArrowField, Fields, Schema, TimeUnit};
use common::{nulls_every, write};
use parquet_arrow::{ARROW_SCHEMA_META_KEY, ArrowWriter, Error, decode_arrow_schema};
use parquet_file::{
    Bytes, Codec, ColumnOptions, Encoding, Field, FileReader, PageVersion, StatisticsLevel,
    TimeUnit as Unit, WriterOptions,
};
use proptest::prelude::*;

/// The rows of a file, as `parquet-file` reads them: each row's fields in order.
fn rows(file: &Bytes) -> Vec<Vec<Field>> {
    let reader = FileReader::open(file.clone()).unwrap();
    let verification = reader.verify().unwrap();
    assert!(verification.is_ok(), "{:?}", verification.disagreements);
    reader
        .rows()
        .map(|row| {
            let row = row.unwrap();
            row.into_fields().into_iter().map(|(_, f)| f).collect()
        })
        .collect()
}

/// The rows of `batches` as the row reader should give them, from the arrays themselves.
fn expected(batches: &[RecordBatch]) -> Vec<Vec<Field>> {
    let mut rows = Vec::new();
    for batch in batches {
        for i in 0..batch.num_rows() {
            rows.push(
                batch
                    .columns()
                    .iter()
                    .zip(batch.schema().fields())
                    .map(|(c, f)| value(f, c.as_ref(), i))
                    .collect(),
            );
        }
    }
    rows
}

/// Value `i` of `array` (of field `field`) as a Parquet reader reads it back.
fn value(field: &ArrowField, array: &dyn Array, i: usize) -> Field {
    if array.logical_nulls().is_some_and(|n| n.is_null(i)) {
        return Field::Null;
    }
    let extension = field
        .metadata()
        .get("ARROW:extension:name")
        .map(String::as_str);
    match array.data_type() {
        DataType::Null => Field::Null,
        DataType::Boolean => Field::Bool(array.as_boolean().value(i)),
        DataType::Int8 => Field::Int(array.as_primitive::<Int8Type>().value(i).into()),
        DataType::Int16 => Field::Int(array.as_primitive::<Int16Type>().value(i).into()),
        DataType::Int32 => Field::Int(array.as_primitive::<Int32Type>().value(i).into()),
        DataType::Int64 => Field::Int(array.as_primitive::<Int64Type>().value(i)),
        DataType::UInt8 => Field::UInt(array.as_primitive::<UInt8Type>().value(i).into()),
        DataType::UInt16 => Field::UInt(array.as_primitive::<UInt16Type>().value(i).into()),
        DataType::UInt32 => Field::UInt(array.as_primitive::<UInt32Type>().value(i).into()),
        DataType::UInt64 => Field::UInt(array.as_primitive::<UInt64Type>().value(i)),
        DataType::Float16 => Field::Float16(array.as_primitive::<Float16Type>().value(i).to_bits()),
        DataType::Float32 => Field::Float(
            array
                .as_primitive::<arrow_array::types::Float32Type>()
                .value(i),
        ),
        DataType::Float64 => Field::Double(
            array
                .as_primitive::<arrow_array::types::Float64Type>()
                .value(i),
        ),
        DataType::Date32 => Field::Date(
            array
                .as_primitive::<arrow_array::types::Date32Type>()
                .value(i),
        ),
        DataType::Date64 => Field::Date(
            (array
                .as_primitive::<arrow_array::types::Date64Type>()
                .value(i)
                / 86_400_000) as i32,
        ),
        DataType::Time32(TimeUnit::Second) => Field::Time {
            value: i64::from(array.as_primitive::<Time32SecondType>().value(i)) * 1000,
            unit: Unit::Millis,
        },
        DataType::Time32(_) => Field::Time {
            value: array
                .as_primitive::<Time32MillisecondType>()
                .value(i)
                .into(),
            unit: Unit::Millis,
        },
        DataType::Time64(TimeUnit::Microsecond) => Field::Time {
            value: array.as_primitive::<Time64MicrosecondType>().value(i),
            unit: Unit::Micros,
        },
        DataType::Time64(_) => Field::Time {
            value: array.as_primitive::<Time64NanosecondType>().value(i),
            unit: Unit::Nanos,
        },
        DataType::Timestamp(unit, tz) => {
            let (value, unit) = match unit {
                TimeUnit::Second => (
                    array.as_primitive::<TimestampSecondType>().value(i) * 1000,
                    Unit::Millis,
                ),
                TimeUnit::Millisecond => (
                    array.as_primitive::<TimestampMillisecondType>().value(i),
                    Unit::Millis,
                ),
                TimeUnit::Microsecond => (
                    array.as_primitive::<TimestampMicrosecondType>().value(i),
                    Unit::Micros,
                ),
                TimeUnit::Nanosecond => (
                    array.as_primitive::<TimestampNanosecondType>().value(i),
                    Unit::Nanos,
                ),
            };
            Field::Timestamp {
                value: value.into(),
                unit,
                utc: tz.is_some(),
            }
        }
        DataType::Duration(unit) => Field::Int(match unit {
            TimeUnit::Second => array.as_primitive::<DurationSecondType>().value(i),
            TimeUnit::Millisecond => array.as_primitive::<DurationMillisecondType>().value(i),
            TimeUnit::Microsecond => array.as_primitive::<DurationMicrosecondType>().value(i),
            TimeUnit::Nanosecond => array.as_primitive::<DurationNanosecondType>().value(i),
        }),
        DataType::Decimal32(_, s) => Field::Decimal {
            unscaled: array
                .as_primitive::<arrow_array::types::Decimal32Type>()
                .value(i)
                .into(),
            scale: *s as u32,
        },
        DataType::Decimal64(_, s) => Field::Decimal {
            unscaled: array
                .as_primitive::<arrow_array::types::Decimal64Type>()
                .value(i)
                .into(),
            scale: *s as u32,
        },
        DataType::Decimal128(_, s) => Field::Decimal {
            unscaled: array
                .as_primitive::<arrow_array::types::Decimal128Type>()
                .value(i),
            scale: *s as u32,
        },
        DataType::Decimal256(p, s) => {
            let v = array
                .as_primitive::<arrow_array::types::Decimal256Type>()
                .value(i);
            if let Some(unscaled) = v.to_i128() {
                Field::Decimal {
                    unscaled,
                    scale: *s as u32,
                }
            } else {
                let width = parquet_width(*p);
                Field::WideDecimal {
                    unscaled: v.to_be_bytes()[32 - width..].to_vec(),
                    scale: *s as u32,
                }
            }
        }
        DataType::Utf8 => Field::Str(array.as_string::<i32>().value(i).to_owned()),
        DataType::LargeUtf8 => Field::Str(array.as_string::<i64>().value(i).to_owned()),
        DataType::Utf8View => Field::Str(array.as_string_view().value(i).to_owned()),
        DataType::Binary => Field::Bytes(array.as_binary::<i32>().value(i).to_vec()),
        DataType::LargeBinary => Field::Bytes(array.as_binary::<i64>().value(i).to_vec()),
        DataType::BinaryView => Field::Bytes(array.as_binary_view().value(i).to_vec()),
        DataType::FixedSizeBinary(_) => {
            let bytes = array.as_fixed_size_binary().value(i);
            if extension == Some("arrow.uuid") {
                Field::Uuid(bytes.try_into().unwrap())
            } else {
                Field::Bytes(bytes.to_vec())
            }
        }
        DataType::Dictionary(key, _) => match key.as_ref() {
            DataType::Int8 => dictionary_value::<Int8Type>(field, array, i),
            DataType::Int16 => dictionary_value::<Int16Type>(field, array, i),
            DataType::Int32 => dictionary_value::<Int32Type>(field, array, i),
            DataType::UInt32 => dictionary_value::<UInt32Type>(field, array, i),
            other => panic!("keys {other}"),
        },
        DataType::Struct(fields) => Field::Group(
            fields
                .iter()
                .zip(array.as_struct().columns())
                .map(|(f, c)| (f.name().as_str().into(), value(f, c.as_ref(), i)))
                .collect(),
        ),
        DataType::List(element) => list(element, array.as_list::<i32>().value(i).as_ref()),
        DataType::LargeList(element) => list(element, array.as_list::<i64>().value(i).as_ref()),
        DataType::ListView(element) => list(element, array.as_list_view::<i32>().value(i).as_ref()),
        DataType::FixedSizeList(element, _) => {
            list(element, array.as_fixed_size_list().value(i).as_ref())
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                unreachable!()
            };
            let entries = array.as_map().value(i);
            Field::Map(
                (0..entries.len())
                    .map(|j| {
                        (
                            value(&kv[0], entries.column(0).as_ref(), j),
                            value(&kv[1], entries.column(1).as_ref(), j),
                        )
                    })
                    .collect(),
            )
        }
        other => panic!("no expected value for {other}"),
    }
}

fn dictionary_value<K: ArrowDictionaryKeyType>(
    field: &ArrowField,
    array: &dyn Array,
    i: usize,
) -> Field {
    let d = array.as_dictionary::<K>();
    let key = d.keys().value(i).as_usize();
    value(field, d.values().as_ref(), key)
}

fn list(element: &ArrowField, values: &dyn Array) -> Field {
    Field::List(
        (0..values.len())
            .map(|j| value(element, values, j))
            .collect(),
    )
}

/// The FIXED_LEN_BYTE_ARRAY width of a decimal of `precision` digits.
fn parquet_width(precision: u8) -> usize {
    (1..=32)
        .find(|&n| ((8 * n - 1) as f64 * std::f64::consts::LOG10_2).floor() >= f64::from(precision))
        .unwrap()
}

/// A batch of every primitive type, each with nulls (and a few not nullable).
fn primitive_batch(n: usize) -> RecordBatch {
    let uuid = ArrowField::new("uuid", DataType::FixedSizeBinary(16), true)
        .with_metadata([("ARROW:extension:name", "arrow.uuid")]);
    let json = ArrowField::new("json", DataType::Utf8, true)
        .with_metadata([("ARROW:extension:name", "arrow.json")]);
    let i = |k: usize| k as i64;
    let columns: Vec<(ArrowField, ArrayRef)> = vec![
        (
            ArrowField::new("null", DataType::Null, true),
            Arc::new(NullArray::new(n)),
        ),
        (
            ArrowField::new("bool", DataType::Boolean, true),
            Arc::new(BooleanArray::from(nulls_every(n, 3, 0, |k| k % 2 == 0))),
        ),
        (
            ArrowField::new("bool_required", DataType::Boolean, false),
            Arc::new(BooleanArray::from(
                (0..n).map(|k| k % 5 == 1).collect::<Vec<_>>(),
            )),
        ),
        (
            ArrowField::new("i8", DataType::Int8, true),
            Arc::new(Int8Array::from(nulls_every(n, 4, 1, |k| {
                (k as i8).wrapping_mul(37)
            }))),
        ),
        (
            ArrowField::new("i16", DataType::Int16, true),
            Arc::new(Int16Array::from(nulls_every(n, 5, 2, |k| {
                (k as i16).wrapping_mul(-999)
            }))),
        ),
        (
            ArrowField::new("i32", DataType::Int32, false),
            Arc::new(Int32Array::from(
                (0..n).map(|k| k as i32 * -7).collect::<Vec<_>>(),
            )),
        ),
        (
            ArrowField::new("i64", DataType::Int64, true),
            Arc::new(Int64Array::from(nulls_every(n, 2, 0, |k| i(k) << 40))),
        ),
        (
            ArrowField::new("u8", DataType::UInt8, true),
            Arc::new(UInt8Array::from(nulls_every(n, 3, 1, |k| 255 - k as u8))),
        ),
        (
            ArrowField::new("u16", DataType::UInt16, true),
            Arc::new(UInt16Array::from(nulls_every(n, 3, 2, |k| {
                65535 - k as u16
            }))),
        ),
        (
            ArrowField::new("u32", DataType::UInt32, true),
            Arc::new(UInt32Array::from(nulls_every(n, 7, 0, |k| {
                u32::MAX - k as u32
            }))),
        ),
        (
            ArrowField::new("u64", DataType::UInt64, true),
            Arc::new(UInt64Array::from(nulls_every(n, 7, 3, |k| {
                u64::MAX - k as u64
            }))),
        ),
        (
            ArrowField::new("f16", DataType::Float16, true),
            Arc::new(Float16Array::from(nulls_every(n, 4, 0, |k| {
                half_of(k as f32 / 4.0)
            }))),
        ),
        (
            ArrowField::new("f32", DataType::Float32, true),
            Arc::new(Float32Array::from(nulls_every(n, 4, 2, |k| k as f32 * 0.5))),
        ),
        (
            ArrowField::new("f64", DataType::Float64, true),
            Arc::new(Float64Array::from(nulls_every(n, 9, 2, |k| {
                -(k as f64) / 3.0
            }))),
        ),
        (
            ArrowField::new("utf8", DataType::Utf8, true),
            Arc::new(StringArray::from(nulls_every(n, 3, 0, |k| format!("s{k}")))),
        ),
        (
            ArrowField::new("large_utf8", DataType::LargeUtf8, true),
            Arc::new(LargeStringArray::from(nulls_every(n, 4, 0, |k| {
                "é".repeat(k % 5)
            }))),
        ),
        (
            ArrowField::new("utf8_view", DataType::Utf8View, true),
            Arc::new(StringViewArray::from(nulls_every(n, 5, 1, |k| {
                format!("a view longer than twelve bytes {k}")
            }))),
        ),
        (
            ArrowField::new("binary", DataType::Binary, true),
            Arc::new(BinaryArray::from(
                nulls_every(n, 3, 1, |k| vec![k as u8; k % 4])
                    .iter()
                    .map(|v| v.as_deref())
                    .collect::<Vec<_>>(),
            )),
        ),
        (
            ArrowField::new("large_binary", DataType::LargeBinary, true),
            Arc::new(LargeBinaryArray::from(
                nulls_every(n, 3, 2, |k| vec![k as u8; 3])
                    .iter()
                    .map(|v| v.as_deref())
                    .collect::<Vec<_>>(),
            )),
        ),
        (
            ArrowField::new("binary_view", DataType::BinaryView, true),
            Arc::new(BinaryViewArray::from(
                nulls_every(n, 6, 1, |k| vec![k as u8; k % 20])
                    .iter()
                    .map(|v| v.as_deref())
                    .collect::<Vec<_>>(),
            )),
        ),
        (
            ArrowField::new("fixed", DataType::FixedSizeBinary(3), true),
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    nulls_every(n, 4, 3, |k| [k as u8, 1, 2]).into_iter(),
                    3,
                )
                .unwrap(),
            ),
        ),
        (
            uuid,
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    nulls_every(n, 4, 1, |k| [k as u8; 16]).into_iter(),
                    16,
                )
                .unwrap(),
            ),
        ),
        (
            json,
            Arc::new(StringArray::from(nulls_every(n, 4, 2, |k| {
                format!("{{\"k\":{k}}}")
            }))),
        ),
        (
            ArrowField::new("date32", DataType::Date32, true),
            Arc::new(Date32Array::from(nulls_every(n, 3, 0, |k| {
                k as i32 * 1000 - 20_000
            }))),
        ),
        (
            ArrowField::new("date64", DataType::Date64, true),
            Arc::new(Date64Array::from(nulls_every(n, 3, 1, |k| {
                (i(k) - 10) * 86_400_000
            }))),
        ),
        (
            ArrowField::new("time32s", DataType::Time32(TimeUnit::Second), true),
            Arc::new(Time32SecondArray::from(nulls_every(n, 3, 2, |k| {
                (k % 100) as i32 * 800
            }))),
        ),
        (
            ArrowField::new("time32ms", DataType::Time32(TimeUnit::Millisecond), true),
            Arc::new(Time32MillisecondArray::from(nulls_every(n, 5, 0, |k| {
                (k % 100) as i32 * 800_000
            }))),
        ),
        (
            ArrowField::new("time64us", DataType::Time64(TimeUnit::Microsecond), true),
            Arc::new(Time64MicrosecondArray::from(nulls_every(n, 5, 1, |k| {
                i(k % 100) * 800_000_000
            }))),
        ),
        (
            ArrowField::new("time64ns", DataType::Time64(TimeUnit::Nanosecond), true),
            Arc::new(Time64NanosecondArray::from(nulls_every(n, 5, 2, |k| {
                i(k % 100) * 800_000_000_000
            }))),
        ),
        (
            ArrowField::new("ts_s", DataType::Timestamp(TimeUnit::Second, None), true),
            Arc::new(TimestampSecondArray::from(nulls_every(n, 3, 0, |k| {
                i(k) * 1_000_003 - 99
            }))),
        ),
        (
            ArrowField::new(
                "ts_ms_utc",
                DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
                true,
            ),
            Arc::new(
                TimestampMillisecondArray::from(nulls_every(n, 3, 1, |k| i(k) * 1_000_003))
                    .with_timezone("UTC"),
            ),
        ),
        (
            ArrowField::new(
                "ts_us_paris",
                DataType::Timestamp(TimeUnit::Microsecond, Some("Europe/Paris".into())),
                true,
            ),
            Arc::new(
                TimestampMicrosecondArray::from(nulls_every(n, 3, 2, |k| -i(k) * 1_000_003))
                    .with_timezone("Europe/Paris"),
            ),
        ),
        (
            ArrowField::new(
                "ts_ns",
                DataType::Timestamp(TimeUnit::Nanosecond, None),
                true,
            ),
            Arc::new(TimestampNanosecondArray::from(nulls_every(n, 4, 0, |k| {
                i(k) * 1_000_000_007
            }))),
        ),
        (
            ArrowField::new("dur_s", DataType::Duration(TimeUnit::Second), true),
            Arc::new(DurationSecondArray::from(nulls_every(n, 4, 1, |k| {
                i(k) - 50
            }))),
        ),
        (
            ArrowField::new("dur_ns", DataType::Duration(TimeUnit::Nanosecond), false),
            Arc::new(DurationNanosecondArray::from(
                (0..n).map(|k| i(k) * 3).collect::<Vec<_>>(),
            )),
        ),
        (
            ArrowField::new("dec32", DataType::Decimal32(7, 2), true),
            Arc::new(
                Decimal32Array::from(nulls_every(n, 4, 2, |k| ((k % 100) as i32 - 50) * 99_999))
                    .with_precision_and_scale(7, 2)
                    .unwrap(),
            ),
        ),
        (
            ArrowField::new("dec64", DataType::Decimal64(15, 3), true),
            Arc::new(
                Decimal64Array::from(nulls_every(n, 4, 3, |k| (i(k) - 50) * 999_999_999))
                    .with_precision_and_scale(15, 3)
                    .unwrap(),
            ),
        ),
        (
            ArrowField::new("dec128", DataType::Decimal128(38, 10), true),
            Arc::new(
                Decimal128Array::from(nulls_every(n, 5, 0, |k| {
                    ((k % 100) as i128 - 50) * 10i128.pow(36)
                }))
                .with_precision_and_scale(38, 10)
                .unwrap(),
            ),
        ),
        (
            ArrowField::new("dec128_small", DataType::Decimal128(4, 1), false),
            Arc::new(
                Decimal128Array::from(
                    (0..n)
                        .map(|k| (k as i128 * 97) % 19_999 - 9_999)
                        .collect::<Vec<_>>(),
                )
                .with_precision_and_scale(4, 1)
                .unwrap(),
            ),
        ),
        (
            ArrowField::new("dec256", DataType::Decimal256(50, 5), true),
            Arc::new(
                Decimal256Array::from(nulls_every(n, 5, 1, |k| {
                    i256::from_i128((k % 100) as i128 - 50)
                        .wrapping_mul(i256::from_i128(10i128.pow(30)))
                        .wrapping_mul(i256::from_i128(10i128.pow(15)))
                }))
                .with_precision_and_scale(50, 5)
                .unwrap(),
            ),
        ),
        (
            ArrowField::new_dictionary("dict", DataType::Int8, DataType::Utf8, true),
            Arc::new(
                nulls_every(n, 4, 0, |k| ["x", "yy", "zzz"][k % 3])
                    .into_iter()
                    .collect::<DictionaryArray<Int8Type>>(),
            ),
        ),
        (
            ArrowField::new_dictionary("dict_i64", DataType::UInt32, DataType::Int64, true),
            Arc::new(DictionaryArray::<UInt32Type>::new(
                UInt32Array::from(nulls_every(n, 3, 0, |k| (k % 4) as u32)),
                Arc::new(Int64Array::from(vec![
                    Some(5),
                    None,
                    Some(-7),
                    Some(1 << 50),
                ])),
            )),
        ),
    ];
    let (fields, arrays): (Vec<_>, Vec<_>) = columns.into_iter().unzip();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

/// Arrow's half-precision float.
type F16 = <Float16Type as ArrowPrimitiveType>::Native;

fn half_of(v: f32) -> F16 {
    F16::from_f32(v)
}

#[test]
fn primitives_read_back() {
    let batch = primitive_batch(100);
    let schema = batch.schema();
    let file = write(&schema, std::slice::from_ref(&batch), None);
    assert_eq!(rows(&file), expected(&[batch]));
}

#[test]
fn sliced_batches_read_back() {
    let batch = primitive_batch(300);
    let schema = batch.schema();
    // Slices at offsets that are not multiples of 8 or 64, one of them empty.
    let slices = [
        batch.slice(3, 70),
        batch.slice(77, 0),
        batch.slice(130, 170),
    ];
    let file = write(&schema, &slices, None);
    assert_eq!(rows(&file), expected(&slices));
}

#[test]
fn a_batch_of_a_whole_table_is_the_file_of_its_slices() {
    // Written 65,536 rows at a time: the same bytes as the same rows in batches of
    // that size.
    let batch = primitive_batch(70_000);
    let schema = batch.schema();
    let whole = write(&schema, std::slice::from_ref(&batch), None);
    let slices: Vec<RecordBatch> = (0..70_000)
        .step_by(65_536)
        .map(|start| batch.slice(start, 65_536.min(70_000 - start)))
        .collect();
    assert!(whole == write(&schema, &slices, None));
}

#[test]
fn options_are_honoured_and_the_schema_stored() {
    let batch = primitive_batch(50);
    let schema = Arc::new(
        batch
            .schema()
            .as_ref()
            .clone()
            .with_metadata([("origin", "test")]),
    );
    let batch = batch.with_schema(schema.clone()).unwrap();
    let options = WriterOptions::new()
        .with_compression(Codec::Zstd)
        .with_page_version(PageVersion::V2)
        .with_dictionary(false)
        .with_column(
            "i64",
            ColumnOptions {
                encoding: Some(Encoding::DeltaBinaryPacked),
                ..ColumnOptions::default()
            },
        )
        .with_statistics(StatisticsLevel::Page)
        .with_row_group_rows(20)
        .with_key_value("mine", Some("1".into()));
    let file = write(&schema, std::slice::from_ref(&batch), Some(options));
    let reader = FileReader::open(file.clone()).unwrap();
    let metadata = reader.metadata();
    assert_eq!(metadata.row_groups().len(), 3);
    let keys: Vec<_> = metadata
        .key_value_metadata()
        .iter()
        .map(|kv| kv.key.as_str())
        .collect();
    assert_eq!(keys, ["mine", ARROW_SCHEMA_META_KEY, "origin"]);
    let stored = metadata.key_value_metadata()[1].value.as_deref().unwrap();
    assert_eq!(decode_arrow_schema(stored).unwrap(), *schema);
    // Every column is a leaf: columns line up with fields.
    let i64_column = schema.index_of("i64").unwrap();
    let chunk = metadata.column_chunk_metadata(0, i64_column).unwrap();
    assert_eq!(chunk.codec(), Codec::Zstd);
    assert!(chunk.encodings().contains(&Encoding::DeltaBinaryPacked));
    assert!(!chunk.has_dictionary_page());
    assert_eq!(rows(&file), expected(&[batch]));
}

/// `list<struct<a: int32, b: list<utf8>>>`, nulls at every level.
fn list_of_structs() -> ArrayRef {
    let b_field = ArrowField::new_list("b", ArrowField::new("item", DataType::Utf8, true), true);
    let fields = Fields::from(vec![ArrowField::new("a", DataType::Int32, true), b_field]);
    let struct_builder = StructBuilder::new(
        fields.clone(),
        vec![
            Box::new(Int32Builder::new()),
            Box::new(ListBuilder::new(StringBuilder::new())),
        ],
    );
    let mut builder = ListBuilder::new(struct_builder).with_field(ArrowField::new(
        "element",
        DataType::Struct(fields),
        true,
    ));
    for row in 0..40 {
        match row % 5 {
            0 => builder.append(false),
            1 => builder.append(true),
            _ => {
                for e in 0..=row % 4 {
                    let s = builder.values();
                    let valid = (row + e) % 6 != 0;
                    if valid && (row + e) % 3 != 0 {
                        s.field_builder::<Int32Builder>(0)
                            .unwrap()
                            .append_value(row * 10 + e);
                    } else {
                        s.field_builder::<Int32Builder>(0).unwrap().append_null();
                    }
                    let b = s.field_builder::<ListBuilder<StringBuilder>>(1).unwrap();
                    match (row + e) % 4 {
                        0 => b.append(false),
                        1 => b.append(true),
                        _ => {
                            b.values().append_value(format!("v{row}.{e}"));
                            b.values().append_null();
                            b.append(true);
                        }
                    }
                    s.append(valid);
                }
                builder.append(true);
            }
        }
    }
    Arc::new(builder.finish())
}

/// `map<utf8, list<int64>>`, with null maps, empty maps and null values.
fn map_of_lists() -> ArrayRef {
    let mut builder = MapBuilder::new(
        None,
        StringBuilder::new(),
        ListBuilder::new(Int64Builder::new()),
    );
    for row in 0..40i64 {
        if row % 7 == 3 {
            builder.append(false).unwrap();
            continue;
        }
        for e in 0..row % 3 {
            builder.keys().append_value(format!("k{e}"));
            if (row + e) % 4 == 0 {
                builder.values().append(false);
            } else {
                for v in 0..e {
                    builder.values().values().append_value(row * v);
                }
                builder.values().append(true);
            }
        }
        builder.append(true).unwrap();
    }
    Arc::new(builder.finish())
}

fn nested_batch() -> RecordBatch {
    let list_of_structs = list_of_structs();
    let map = map_of_lists();
    // fixed_size_list<float64 nullable>[2], nullable.
    let fixed = FixedSizeListArray::new(
        Arc::new(ArrowField::new("item", DataType::Float64, true)),
        2,
        Arc::new(Float64Array::from(nulls_every(80, 3, 0, |k| k as f64))),
        Some(NullBuffer::from(
            (0..40).map(|k| k % 6 != 1).collect::<Vec<_>>(),
        )),
    );
    // large_list<binary not null>, not nullable, some empty.
    let large = LargeListArray::new(
        Arc::new(ArrowField::new("item", DataType::Binary, false)),
        OffsetBuffer::from_lengths((0..40).map(|k| k % 3)),
        Arc::new(BinaryArray::from_iter_values(
            (0..40).map(|k| vec![k as u8; k % 2 + 1]),
        )),
        None,
    );
    // list_view<int32>: views out of order and overlapping.
    let view = GenericListViewArray::<i32>::new(
        Arc::new(ArrowField::new("item", DataType::Int32, true)),
        ScalarBuffer::from((0..40).map(|k| (40 - k) % 10).collect::<Vec<i32>>()),
        ScalarBuffer::from((0..40).map(|k| k % 4).collect::<Vec<i32>>()),
        Arc::new(Int32Array::from(nulls_every(20, 4, 0, |k| k as i32))),
        Some(NullBuffer::from(
            (0..40).map(|k| k % 9 != 2).collect::<Vec<_>>(),
        )),
    );
    // struct<x: int32 not null, y: struct<z: utf8>> nullable: x has nulls where the
    // struct is null (masked), which is allowed.
    let y = StructArray::new(
        Fields::from(vec![ArrowField::new("z", DataType::Utf8, true)]),
        vec![Arc::new(StringArray::from(nulls_every(40, 3, 1, |k| {
            format!("z{k}")
        })))],
        Some(NullBuffer::from(
            (0..40).map(|k| k % 5 != 4).collect::<Vec<_>>(),
        )),
    );
    let outer_valid: Vec<bool> = (0..40).map(|k| k % 4 != 0).collect();
    let x = Int32Array::from(
        (0..40)
            .map(|k| (k % 4 != 0).then_some(k))
            .collect::<Vec<_>>(),
    );
    let s = StructArray::new(
        Fields::from(vec![
            ArrowField::new("x", DataType::Int32, false),
            ArrowField::new("y", y.data_type().clone(), true),
        ]),
        vec![Arc::new(x), Arc::new(y)],
        Some(NullBuffer::from(outer_valid)),
    );
    // list<list<int32 not null> not null> not null, with empty lists at both levels.
    let inner = ListArray::new(
        Arc::new(ArrowField::new("item", DataType::Int32, false)),
        OffsetBuffer::from_lengths((0..60).map(|k| k % 3)),
        Arc::new(Int32Array::from_iter_values(0..60)),
        None,
    );
    let lists = ListArray::new(
        Arc::new(ArrowField::new("item", inner.data_type().clone(), false)),
        OffsetBuffer::from_lengths((0..40).map(|k| [0, 1, 2, 0, 3][k % 5])),
        Arc::new(inner),
        None,
    );
    // list<dictionary<int16, utf8>>.
    let dict: DictionaryArray<Int16Type> = nulls_every(60, 5, 0, |k| ["p", "q"][k % 2])
        .into_iter()
        .collect();
    let dict_list = ListArray::new(
        Arc::new(ArrowField::new("item", dict.data_type().clone(), true)),
        OffsetBuffer::from_lengths((0..40).map(|k| [1, 2, 0][k % 3])),
        Arc::new(dict),
        None,
    );
    // list<null>: every element null.
    let null_list = ListArray::new(
        Arc::new(ArrowField::new("item", DataType::Null, true)),
        OffsetBuffer::from_lengths((0..40).map(|k| k % 3)),
        Arc::new(NullArray::new(40)),
        Some(NullBuffer::from(
            (0..40).map(|k| k % 8 != 5).collect::<Vec<_>>(),
        )),
    );
    RecordBatch::try_from_iter_with_nullable([
        ("list_of_structs", list_of_structs, true),
        ("map", map, true),
        ("fixed", Arc::new(fixed) as ArrayRef, true),
        ("large", Arc::new(large) as ArrayRef, false),
        ("view", Arc::new(view) as ArrayRef, true),
        ("struct", Arc::new(s) as ArrayRef, true),
        ("lists", Arc::new(lists) as ArrayRef, false),
        ("dict_list", Arc::new(dict_list) as ArrayRef, true),
        ("null_list", Arc::new(null_list) as ArrayRef, true),
    ])
    .unwrap()
}

#[test]
fn nested_read_back() {
    let batch = nested_batch();
    let schema = batch.schema();
    let file = write(&schema, std::slice::from_ref(&batch), None);
    let paths: Vec<_> = FileReader::open(file.clone())
        .unwrap()
        .schema()
        .columns()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "list_of_structs.list.element.a",
            "list_of_structs.list.element.b.list.element",
            "map.key_value.key",
            "map.key_value.value.list.element",
            "fixed.list.element",
            "large.list.element",
            "view.list.element",
            "struct.x",
            "struct.y.z",
            "lists.list.element.list.element",
            "dict_list.list.element",
            "null_list.list.element",
        ]
    );
    assert_eq!(rows(&file), expected(&[batch]));
}

#[test]
fn nested_slices_read_back() {
    let batch = nested_batch();
    let schema = batch.schema();
    let slices = [batch.slice(1, 13), batch.slice(14, 1), batch.slice(21, 19)];
    let file = write(
        &schema,
        &slices,
        Some(WriterOptions::new().with_page_rows(4)),
    );
    assert_eq!(rows(&file), expected(&slices));
}

#[test]
fn flush_ends_row_groups() {
    let batch = primitive_batch(10);
    let schema = batch.schema();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema.clone(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.flush().unwrap();
    writer.flush().unwrap();
    writer.write(&batch).unwrap();
    assert_eq!(writer.num_rows(), 20);
    assert_eq!(writer.schema(), &schema);
    let metadata = writer.close().unwrap();
    assert_eq!(metadata.row_groups().len(), 2);
    assert_eq!(metadata.num_rows(), 20);
}

#[test]
fn refused_batches_leave_the_writer_usable() {
    let batch = nested_batch();
    let schema = batch.schema();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema.clone(), None).unwrap();
    writer.write(&batch.slice(0, 10)).unwrap();

    // Another schema.
    let other = primitive_batch(3);
    assert!(matches!(writer.write(&other), Err(Error::Argument(_))));

    // A null in a non-nullable nested field where its parent is not null: the struct's
    // `x` (built with a nullable child, so that Arrow lets it be made).
    let x = Int32Array::from(vec![Some(1), None]);
    let y = StructArray::new_null(
        Fields::from(vec![ArrowField::new("z", DataType::Utf8, true)]),
        2,
    );
    let bad_struct = StructArray::new(
        Fields::from(vec![
            ArrowField::new("x", DataType::Int32, true),
            ArrowField::new("y", y.data_type().clone(), true),
        ]),
        vec![Arc::new(x), Arc::new(y)],
        None,
    );
    let mut columns = batch.slice(0, 2).columns().to_vec();
    columns[5] = Arc::new(bad_struct);
    let fields: Vec<_> = schema
        .fields()
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if i == 5 {
                Arc::new(
                    f.as_ref()
                        .clone()
                        .with_data_type(columns[5].data_type().clone()),
                )
            } else {
                f.clone()
            }
        })
        .collect();
    let bad = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap();
    let error = writer.write(&bad).unwrap_err();
    assert!(
        matches!(&error, Error::Argument(m) if m.contains("struct.x")),
        "{error}"
    );

    writer.write(&batch.slice(10, 30)).unwrap();
    writer.finish().unwrap();
    let file = Bytes::from(writer.into_inner());
    assert_eq!(rows(&file), expected(&[batch]));
}

#[test]
fn values_out_of_range_are_refused() {
    let schema = Arc::new(Schema::new(vec![
        ArrowField::new("d", DataType::Decimal128(3, 0), true),
        ArrowField::new("t", DataType::Time32(TimeUnit::Second), true),
    ]));
    let batch = |d: i128, t: i32| {
        RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(
                    Decimal128Array::from(vec![d])
                        .with_precision_and_scale(3, 0)
                        .unwrap(),
                ),
                Arc::new(Time32SecondArray::from(vec![t])),
            ],
        )
        .unwrap()
    };
    let mut writer = ArrowWriter::try_new(Vec::new(), schema.clone(), None).unwrap();
    // 999 fits two bytes; 40000 does not (a decimal with more digits than it says).
    writer.write(&batch(999, 1)).unwrap();
    assert!(matches!(
        writer.write(&batch(40_000, 1)),
        Err(Error::Argument(_))
    ));
    assert!(matches!(
        writer.write(&batch(1, i32::MAX)),
        Err(Error::Argument(_))
    ));
    writer.write(&batch(-999, 86_399)).unwrap();
    writer.finish().unwrap();
    let file = Bytes::from(writer.into_inner());
    assert_eq!(rows(&file), expected(&[batch(999, 1), batch(-999, 86_399)]));
}

#[test]
fn unsupported_types_are_refused() {
    let schema = Arc::new(Schema::new(vec![ArrowField::new(
        "i",
        DataType::Interval(arrow_schema::IntervalUnit::DayTime),
        true,
    )]));
    assert!(matches!(
        ArrowWriter::try_new(Vec::new(), schema, None),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn empty_batches_and_files() {
    let batch = nested_batch();
    let schema = batch.schema();
    let file = write(&schema, &[batch.slice(0, 0)], None);
    let reader = FileReader::open(file.clone()).unwrap();
    assert_eq!(reader.metadata().num_rows(), 0);
    assert!(rows(&file).is_empty());
}

/// A list<struct<a: int32, b: utf8>> from generated rows.
/// A generated row: a list (or null) of structs (or nulls) of two nullable fields.
type GeneratedRow = Option<Vec<Option<(Option<i32>, Option<String>)>>>;

fn generated_list(rows: &[GeneratedRow]) -> ArrayRef {
    let fields = Fields::from(vec![
        ArrowField::new("a", DataType::Int32, true),
        ArrowField::new("b", DataType::Utf8, true),
    ]);
    let mut builder = ListBuilder::new(StructBuilder::from_fields(fields.clone(), 0))
        .with_field(ArrowField::new("element", DataType::Struct(fields), true));
    for row in rows {
        let Some(elements) = row else {
            builder.append(false);
            continue;
        };
        for element in elements {
            let s = builder.values();
            let (a, b) = element.clone().unwrap_or_default();
            s.field_builder::<Int32Builder>(0).unwrap().append_option(a);
            s.field_builder::<StringBuilder>(1)
                .unwrap()
                .append_option(b);
            s.append(element.is_some());
        }
        builder.append(true);
    }
    Arc::new(builder.finish())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn generated_nested_batches_read_back(
        rows in prop::collection::vec(
            prop::option::weighted(0.8, prop::collection::vec(
                prop::option::weighted(0.8, (
                    prop::option::weighted(0.7, any::<i32>()),
                    prop::option::weighted(0.7, "[a-z]{0,5}"),
                )),
                0..4,
            )),
            1..60,
        ),
        cut in 0usize..60,
    ) {
        let list = generated_list(&rows);
        let ints = Int64Array::from((0..rows.len() as i64).collect::<Vec<_>>());
        let batch = RecordBatch::try_from_iter([
            ("l", list),
            ("i", Arc::new(ints) as ArrayRef),
        ])
        .unwrap();
        let cut = cut.min(batch.num_rows());
        let slices = [batch.slice(0, cut), batch.slice(cut, batch.num_rows() - cut)];
        let file = write(&batch.schema(), &slices, None);
        prop_assert_eq!(self::rows(&file), expected(&slices));
    }
}
