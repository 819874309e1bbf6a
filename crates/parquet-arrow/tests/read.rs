//! The Parquet reader: files written by `ArrowWriter` (and by `parquet_file::FileWriter`
//! for shapes and types it does not write) read back into equal record batches, every
//! option of the builder (batch size, projection, row groups, row selection, predicate,
//! row filter, limit and offset) checked against the same rule applied to all the rows,
//! and the Arrow types of Parquet types without a stored `ARROW:schema`.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    clippy::cast_lossless,
    clippy::too_many_lines,
    clippy::needless_pass_by_value,
    clippy::type_complexity,
    clippy::single_range_in_vec_init
)] // Small generated values; selections of one range.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arrow_array::builder::{
    BooleanBuilder, FixedSizeListBuilder, Int32Builder, Int64Builder, ListBuilder, MapBuilder,
    MapFieldNames, StringBuilder, StructBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float16Type, Int8Type, Int16Type, Int32Type, Int64Type};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BinaryArray, BinaryViewArray, BooleanArray, Date32Array,
    Date64Array, Decimal32Array, Decimal64Array, Decimal128Array, Decimal256Array, DictionaryArray,
    DurationMicrosecondArray, DurationMillisecondArray, DurationNanosecondArray,
    DurationSecondArray, FixedSizeBinaryArray, FixedSizeListArray, Float16Array, Float32Array,
    Float64Array, Int8Array, Int16Array, Int32Array, Int64Array, LargeBinaryArray, LargeListArray,
    LargeStringArray, ListArray, NullArray, RecordBatch, RecordBatchReader, StringArray,
    StringViewArray, StructArray, Time32MillisecondArray, Time32SecondArray,
    Time64MicrosecondArray, Time64NanosecondArray, TimestampMicrosecondArray,
    TimestampMillisecondArray, TimestampNanosecondArray, TimestampSecondArray, UInt8Array,
    UInt16Array, UInt32Array, UInt64Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, i256};
use arrow_schema::{
    DataType, Field as ArrowField, Fields, Schema as ArrowSchema, SchemaRef, TimeUnit,
};
use arrow_select::concat::concat_batches;
use arrow_select::filter::filter_record_batch;
use common::{Column, byte_arrays, nulls_every, write, write_columns};
use parquet_arrow::{
    ARROW_SCHEMA_META_KEY, Error, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
    ProjectionMask, RowFilter, parquet_to_arrow_schema,
};
use parquet_file::{
    BloomFilterOptions, Bytes, ColumnOptions, ColumnPath, ColumnValues, FileReader,
    FixedLenByteArrayBatch, Int96, Limits, Literal, LogicalType, Op, PageVersion, PhysicalType,
    Predicate, Repetition, Row, RowSelection, Schema, SchemaField, Source, StatisticsLevel,
    TimeUnit as Unit, WriterOptions,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Helpers.

/// Every batch of `reader`, checking that each has the reader's schema.
fn collect<S: Source>(reader: ParquetRecordBatchReader<S>) -> Vec<RecordBatch> {
    let schema = reader.schema();
    reader
        .map(|batch| {
            let batch = batch.unwrap();
            assert_eq!(batch.schema(), schema);
            batch
        })
        .collect()
}

/// The batches of `file` with the default builder.
fn read(file: &Bytes) -> Vec<RecordBatch> {
    collect(
        ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .build()
            .unwrap(),
    )
}

/// `batches` as one batch of `schema`.
fn concat(schema: &SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    concat_batches(schema, batches).unwrap()
}

/// The rows read with `builder`, as one batch.
fn read_one<S: Source>(builder: ParquetRecordBatchReaderBuilder<S>) -> RecordBatch {
    let reader = builder.build().unwrap();
    let schema = reader.schema();
    concat(&schema, &collect(reader))
}

/// The rows of `batch` where `keep` holds.
fn filter_rows(batch: &RecordBatch, keep: impl Fn(usize) -> bool) -> RecordBatch {
    let mask = BooleanArray::from((0..batch.num_rows()).map(keep).collect::<Vec<_>>());
    filter_record_batch(batch, &mask).unwrap()
}

/// The columns of `batch` named `names` (in `batch`'s order).
fn project(batch: &RecordBatch, names: &[&str]) -> RecordBatch {
    let indices: Vec<usize> = batch
        .schema()
        .fields()
        .iter()
        .enumerate()
        .filter(|(_, f)| names.contains(&f.name().as_str()))
        .map(|(i, _)| i)
        .collect();
    batch.project(&indices).unwrap()
}

/// A source that counts the bytes and requests read from it.
#[derive(Clone)]
struct Counting {
    file: Bytes,
    bytes: Arc<AtomicU64>,
    requests: Arc<AtomicU64>,
}

impl Counting {
    fn new(file: &Bytes) -> Self {
        Self {
            file: file.clone(),
            bytes: Arc::default(),
            requests: Arc::default(),
        }
    }

    fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}

impl Source for Counting {
    fn len(&self) -> std::io::Result<u64> {
        Source::len(&self.file)
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Bytes> {
        self.bytes.fetch_add(len as u64, Ordering::Relaxed);
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.file.read_at(offset, len)
    }
}

/// Reads `file` through a counting source with `configure`d builder; gives the rows
/// and the bytes read after the footer.
fn read_counting(
    file: &Bytes,
    configure: impl FnOnce(
        ParquetRecordBatchReaderBuilder<Counting>,
    ) -> ParquetRecordBatchReaderBuilder<Counting>,
) -> (RecordBatch, u64) {
    let source = Counting::new(file);
    let builder = ParquetRecordBatchReaderBuilder::try_new(source.clone()).unwrap();
    let footer = source.bytes();
    let batch = read_one(configure(builder));
    (batch, source.bytes() - footer)
}

/// Borrowed byte strings of `values`.
fn bytes(values: &[Option<Vec<u8>>]) -> Vec<Option<&[u8]>> {
    values.iter().map(Option::as_deref).collect()
}

/// Arrow's half-precision float.
type F16 = <Float16Type as ArrowPrimitiveType>::Native;

// ---------------------------------------------------------------------------------------
// Round trips.

/// A batch of every type the writer takes and the reader gives back exactly (through
/// the stored `ARROW:schema`), with nulls and extremes.
fn every_type_batch(n: usize) -> RecordBatch {
    let uuid = ArrowField::new("uuid", DataType::FixedSizeBinary(16), true).with_metadata(
        HashMap::from([("ARROW:extension:name".into(), "arrow.uuid".into())]),
    );
    let json = ArrowField::new("json", DataType::Utf8, true).with_metadata(HashMap::from([(
        "ARROW:extension:name".into(),
        "arrow.json".into(),
    )]));
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
            Arc::new(Int8Array::from(nulls_every(n, 4, 1, |k| match k % 3 {
                0 => i8::MIN,
                1 => i8::MAX,
                _ => (k as i8).wrapping_mul(37),
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
                (0..n)
                    .map(|k| if k == 1 { i32::MIN } else { k as i32 * -7 })
                    .collect::<Vec<_>>(),
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
                F16::from_f32(k as f32 / 4.0 - 3.0)
            }))),
        ),
        (
            ArrowField::new("f32", DataType::Float32, true),
            Arc::new(Float32Array::from(nulls_every(n, 4, 2, |k| match k % 9 {
                0 => f32::INFINITY,
                1 => f32::MIN,
                _ => k as f32 * -0.5,
            }))),
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
            ArrowField::new("utf8_required", DataType::Utf8, false),
            Arc::new(StringArray::from_iter_values(
                (0..n).map(|k| "ü".repeat(k % 3)),
            )),
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
                if k % 2 == 0 {
                    format!("a view longer than twelve bytes {k}")
                } else {
                    format!("short {k}")
                }
            }))),
        ),
        (
            ArrowField::new("binary", DataType::Binary, true),
            Arc::new(BinaryArray::from(bytes(&nulls_every(n, 3, 1, |k| {
                vec![k as u8; k % 4]
            })))),
        ),
        (
            ArrowField::new("large_binary", DataType::LargeBinary, true),
            Arc::new(LargeBinaryArray::from(bytes(&nulls_every(n, 3, 2, |k| {
                vec![k as u8; 3]
            })))),
        ),
        (
            ArrowField::new("binary_view", DataType::BinaryView, true),
            Arc::new(BinaryViewArray::from(bytes(&nulls_every(n, 6, 1, |k| {
                vec![k as u8; k % 20]
            })))),
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
                "ts_ns_offset",
                DataType::Timestamp(TimeUnit::Nanosecond, Some("+02:00".into())),
                true,
            ),
            Arc::new(
                TimestampNanosecondArray::from(nulls_every(n, 4, 0, |k| i(k) * 1_000_000_007))
                    .with_timezone("+02:00"),
            ),
        ),
        (
            ArrowField::new(
                "ts_ns",
                DataType::Timestamp(TimeUnit::Nanosecond, None),
                true,
            ),
            Arc::new(TimestampNanosecondArray::from(nulls_every(n, 4, 1, |k| {
                i64::MAX - i(k)
            }))),
        ),
        (
            ArrowField::new("dur_s", DataType::Duration(TimeUnit::Second), true),
            Arc::new(DurationSecondArray::from(nulls_every(n, 4, 1, |k| {
                i(k) - 50
            }))),
        ),
        (
            ArrowField::new("dur_ms", DataType::Duration(TimeUnit::Millisecond), true),
            Arc::new(DurationMillisecondArray::from(nulls_every(n, 4, 2, |k| {
                i(k) * -1000
            }))),
        ),
        (
            ArrowField::new("dur_us", DataType::Duration(TimeUnit::Microsecond), true),
            Arc::new(DurationMicrosecondArray::from(nulls_every(n, 4, 3, |k| {
                i64::MIN + i(k)
            }))),
        ),
        (
            ArrowField::new("dur_ns", DataType::Duration(TimeUnit::Nanosecond), false),
            Arc::new(DurationNanosecondArray::from(
                (0..n).map(|k| i(k) * 3).collect::<Vec<_>>(),
            )),
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
            ArrowField::new("dec256", DataType::Decimal256(76, 5), true),
            Arc::new(
                Decimal256Array::from(nulls_every(n, 5, 1, |k| {
                    i256::from_i128((k % 100) as i128 - 50)
                        .wrapping_mul(i256::from_i128(10i128.pow(37)))
                        .wrapping_mul(i256::from_i128(10i128.pow(37)))
                }))
                .with_precision_and_scale(76, 5)
                .unwrap(),
            ),
        ),
        (
            ArrowField::new_dictionary("dict", DataType::Int32, DataType::Utf8, true),
            Arc::new(
                nulls_every(n, 4, 0, |k| ["x", "yy", "zzz"][k % 3])
                    .into_iter()
                    .collect::<DictionaryArray<Int32Type>>(),
            ),
        ),
        (
            ArrowField::new_dictionary(
                "dict_u16_binary",
                DataType::UInt16,
                DataType::Binary,
                false,
            ),
            Arc::new(DictionaryArray::<arrow_array::types::UInt16Type>::new(
                UInt16Array::from((0..n).map(|k| (k % 3) as u16).collect::<Vec<_>>()),
                Arc::new(BinaryArray::from_iter_values([
                    b"a".as_slice(),
                    b"",
                    b"\xff\x00",
                ])),
            )),
        ),
    ];
    let (fields, arrays): (Vec<_>, Vec<_>) = columns.into_iter().unzip();
    let schema = ArrowSchema::new(fields)
        .with_metadata(HashMap::from([("origin".into(), "read.rs".into())]));
    RecordBatch::try_new(Arc::new(schema), arrays).unwrap()
}

#[test]
fn every_type_round_trips() {
    let batch = every_type_batch(200);
    let schema = batch.schema();
    let options = [
        None,
        Some(
            WriterOptions::new()
                .with_dictionary(false)
                .with_page_version(PageVersion::V2)
                .with_row_group_rows(37)
                .with_page_rows(7),
        ),
        Some(
            WriterOptions::new()
                .with_statistics(StatisticsLevel::None)
                .with_page_index(false),
        ),
        // Dictionaries that fill and fall back to PLAIN within a column chunk.
        Some(
            WriterOptions::new()
                .with_dictionary_page_bytes(64)
                .with_page_rows(16)
                .with_compression(parquet_file::Codec::Zstd),
        ),
    ];
    for options in options {
        let file = write(&schema, std::slice::from_ref(&batch), options);
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        assert_eq!(builder.schema(), &schema);
        for batch_size in [1, 10, 64, 1000] {
            let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone())
                .unwrap()
                .with_batch_size(batch_size);
            let batches = collect(builder.build().unwrap());
            assert!(batches.iter().all(|b| b.num_rows() <= batch_size));
            let got = concat(&schema, &batches);
            for (i, field) in schema.fields().iter().enumerate() {
                assert_eq!(
                    got.column(i).as_ref(),
                    batch.column(i).as_ref(),
                    "column {}",
                    field.name()
                );
            }
            assert_eq!(got, batch);
        }
    }
}

/// Types that Parquet stores in a finer or coarser unit or a narrower type, which the
/// reader gives back as stored (as pyarrow 26 does): seconds as milliseconds, Date64 as
/// Date32, dictionaries of 64-bit strings as dictionaries of 32-bit ones.
fn coarse_batch(n: usize) -> RecordBatch {
    let i = |k: usize| k as i64;
    let columns: Vec<(ArrowField, ArrayRef)> = vec![
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
            ArrowField::new("ts_s", DataType::Timestamp(TimeUnit::Second, None), true),
            Arc::new(TimestampSecondArray::from(nulls_every(n, 3, 0, |k| {
                i(k) * 1_000_003 - 99
            }))),
        ),
        (
            ArrowField::new(
                "ts_s_paris",
                DataType::Timestamp(TimeUnit::Second, Some("Europe/Paris".into())),
                true,
            ),
            Arc::new(
                TimestampSecondArray::from(nulls_every(n, 4, 1, |k| i(k) * 7 - 3))
                    .with_timezone("Europe/Paris"),
            ),
        ),
        (
            ArrowField::new_dictionary("dict_i8_large", DataType::Int8, DataType::LargeUtf8, true),
            Arc::new(DictionaryArray::<Int8Type>::new(
                Int8Array::from(nulls_every(n, 3, 2, |k| (k % 2) as i8)),
                Arc::new(LargeStringArray::from(vec!["large one", "large two"])),
            )),
        ),
    ];
    let (fields, arrays): (Vec<_>, Vec<_>) = columns.into_iter().unzip();
    RecordBatch::try_new(Arc::new(ArrowSchema::new(fields)), arrays).unwrap()
}

/// `coarse_batch(n)` as the reader gives it back.
fn coarse_read_back(n: usize) -> RecordBatch {
    let i = |k: usize| k as i64;
    let columns: Vec<(ArrowField, ArrayRef)> = vec![
        (
            ArrowField::new("date64", DataType::Date32, true),
            Arc::new(Date32Array::from(nulls_every(n, 3, 1, |k| k as i32 - 10))),
        ),
        (
            ArrowField::new("time32s", DataType::Time32(TimeUnit::Millisecond), true),
            Arc::new(Time32MillisecondArray::from(nulls_every(n, 3, 2, |k| {
                (k % 100) as i32 * 800_000
            }))),
        ),
        (
            ArrowField::new(
                "ts_s",
                DataType::Timestamp(TimeUnit::Millisecond, None),
                true,
            ),
            Arc::new(TimestampMillisecondArray::from(nulls_every(n, 3, 0, |k| {
                (i(k) * 1_000_003 - 99) * 1000
            }))),
        ),
        (
            ArrowField::new(
                "ts_s_paris",
                DataType::Timestamp(TimeUnit::Millisecond, Some("Europe/Paris".into())),
                true,
            ),
            Arc::new(
                TimestampMillisecondArray::from(nulls_every(n, 4, 1, |k| (i(k) * 7 - 3) * 1000))
                    .with_timezone("Europe/Paris"),
            ),
        ),
        (
            ArrowField::new_dictionary("dict_i8_large", DataType::Int8, DataType::Utf8, true),
            Arc::new(DictionaryArray::<Int8Type>::new(
                Int8Array::from(nulls_every(n, 3, 2, |k| (k % 2) as i8)),
                Arc::new(StringArray::from(vec!["large one", "large two"])),
            )),
        ),
    ];
    let (fields, arrays): (Vec<_>, Vec<_>) = columns.into_iter().unzip();
    RecordBatch::try_new(Arc::new(ArrowSchema::new(fields)), arrays).unwrap()
}

#[test]
fn coarse_types_read_back_as_stored() {
    let batch = coarse_batch(100);
    let file = write(&batch.schema(), std::slice::from_ref(&batch), None);
    let expected = coarse_read_back(100);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    assert_eq!(builder.schema(), &expected.schema());
    assert_eq!(read_one(builder.with_batch_size(7)), expected);
}

/// `Decimal32` and `Decimal64` columns (written as FIXED_LEN_BYTE_ARRAY decimals).
fn small_decimals_batch(n: usize) -> RecordBatch {
    let i = |k: usize| k as i64;
    let columns: Vec<(ArrowField, ArrayRef)> = vec![
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
    ];
    let (fields, arrays): (Vec<_>, Vec<_>) = columns.into_iter().unzip();
    RecordBatch::try_new(Arc::new(ArrowSchema::new(fields)), arrays).unwrap()
}

#[test]
fn small_decimals_round_trip() {
    let batch = small_decimals_batch(100);
    let file = write(&batch.schema(), std::slice::from_ref(&batch), None);
    assert_eq!(concat(&batch.schema(), &read(&file)), batch);
}

#[test]
fn sliced_input_round_trips() {
    let batch = every_type_batch(300);
    let schema = batch.schema();
    // Slices at offsets that are not multiples of 8 or 64, one of them empty.
    let slices = [
        batch.slice(3, 70),
        batch.slice(77, 0),
        batch.slice(130, 170),
    ];
    let file = write(
        &schema,
        &slices,
        Some(WriterOptions::new().with_row_group_rows(50)),
    );
    assert_eq!(concat(&schema, &read(&file)), concat(&schema, &slices));

    let nested = nested_batch();
    let schema = nested.schema();
    let slices = [
        nested.slice(1, 13),
        nested.slice(14, 1),
        nested.slice(21, 19),
    ];
    let file = write(
        &schema,
        &slices,
        Some(WriterOptions::new().with_page_rows(4)),
    );
    assert_eq!(concat(&schema, &read(&file)), concat(&schema, &slices));
}

/// The list field of an element, named `element` as a Parquet LIST's element is (and
/// as the reader names it, like pyarrow).
fn element(data_type: DataType, nullable: bool) -> Arc<ArrowField> {
    Arc::new(ArrowField::new("element", data_type, nullable))
}

/// `list<struct<a: int32, b: list<utf8>>>`, nulls at every level.
fn list_of_structs(rows: usize) -> ArrayRef {
    let b_field = ArrowField::new("b", DataType::List(element(DataType::Utf8, true)), true);
    let fields = Fields::from(vec![ArrowField::new("a", DataType::Int32, true), b_field]);
    let struct_builder = StructBuilder::new(
        fields.clone(),
        vec![
            Box::new(Int32Builder::new()),
            Box::new(
                ListBuilder::new(StringBuilder::new()).with_field(element(DataType::Utf8, true)),
            ),
        ],
    );
    let mut builder =
        ListBuilder::new(struct_builder).with_field(element(DataType::Struct(fields), true));
    for row in 0..rows as i32 {
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

/// The names of a map's fields as the reader (like pyarrow) gives them: `key` and
/// `value` (the Parquet names), in entries named after the map.
fn map_names(map: &str) -> MapFieldNames {
    MapFieldNames {
        entry: map.into(),
        key: "key".into(),
        value: "value".into(),
    }
}

/// `map<utf8, list<int64>>`, with null maps, empty maps and null values.
fn map_of_lists(rows: usize, name: &str) -> ArrayRef {
    let mut builder = MapBuilder::new(
        Some(map_names(name)),
        StringBuilder::new(),
        ListBuilder::new(Int64Builder::new()).with_field(element(DataType::Int64, true)),
    );
    for row in 0..rows as i64 {
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
                    if (row + v) % 5 == 0 {
                        builder.values().values().append_null();
                    } else {
                        builder.values().values().append_value(row * v);
                    }
                }
                builder.values().append(true);
            }
        }
        builder.append(true).unwrap();
    }
    Arc::new(builder.finish())
}

/// A batch of nested columns with nulls at every level.
fn nested_batch() -> RecordBatch {
    let rows = 40;
    // fixed_size_list<float64 nullable>[2], nullable: null lists and null elements.
    let fixed = FixedSizeListArray::new(
        element(DataType::Float64, true),
        2,
        Arc::new(Float64Array::from(nulls_every(80, 3, 0, |k| k as f64))),
        Some(NullBuffer::from(
            (0..rows).map(|k| k % 6 != 1).collect::<Vec<_>>(),
        )),
    );
    // large_list<binary not null>, not nullable, some empty.
    let large = LargeListArray::new(
        element(DataType::Binary, false),
        OffsetBuffer::from_lengths((0..rows).map(|k| k % 3)),
        Arc::new(BinaryArray::from_iter_values(
            (0..40).map(|k| vec![k as u8; k % 2 + 1]),
        )),
        None,
    );
    // large_list<utf8> nullable with null lists and null elements.
    let large_nullable = LargeListArray::new(
        element(DataType::Utf8, true),
        OffsetBuffer::from_lengths((0..rows).map(|k| k % 4)),
        Arc::new(StringArray::from(nulls_every(60, 4, 1, |k| {
            format!("l{k}")
        }))),
        Some(NullBuffer::from(
            (0..rows).map(|k| k % 5 != 2).collect::<Vec<_>>(),
        )),
    );
    // struct<x: int32 not null, y: struct<z: utf8>> nullable: x has nulls where the
    // struct is null (masked), which is allowed.
    let y = StructArray::new(
        Fields::from(vec![ArrowField::new("z", DataType::Utf8, true)]),
        vec![Arc::new(StringArray::from(nulls_every(rows, 3, 1, |k| {
            format!("z{k}")
        })))],
        Some(NullBuffer::from(
            (0..rows).map(|k| k % 5 != 4).collect::<Vec<_>>(),
        )),
    );
    let x = Int32Array::from(
        (0..rows)
            .map(|k| (k % 4 != 0).then_some(k as i32))
            .collect::<Vec<_>>(),
    );
    let s = StructArray::new(
        Fields::from(vec![
            ArrowField::new("x", DataType::Int32, false),
            ArrowField::new("y", y.data_type().clone(), true),
        ]),
        vec![Arc::new(x), Arc::new(y)],
        Some(NullBuffer::from(
            (0..rows).map(|k| k % 4 != 0).collect::<Vec<_>>(),
        )),
    );
    // list<list<int32 not null> not null> not null, with empty lists at both levels.
    let inner = ListArray::new(
        element(DataType::Int32, false),
        OffsetBuffer::from_lengths((0..60).map(|k| k % 3)),
        Arc::new(Int32Array::from_iter_values(0..60)),
        None,
    );
    let lists = ListArray::new(
        element(inner.data_type().clone(), false),
        OffsetBuffer::from_lengths((0..rows).map(|k| [0, 1, 2, 0, 3][k % 5])),
        Arc::new(inner),
        None,
    );
    // list<dictionary<int16, utf8>>.
    let dict: DictionaryArray<Int16Type> = nulls_every(60, 5, 0, |k| ["p", "q"][k % 2])
        .into_iter()
        .collect();
    let dict_list = ListArray::new(
        element(dict.data_type().clone(), true),
        OffsetBuffer::from_lengths((0..rows).map(|k| [1, 2, 0][k % 3])),
        Arc::new(dict),
        None,
    );
    // list<null>: every element null.
    let null_list = ListArray::new(
        element(DataType::Null, true),
        OffsetBuffer::from_lengths((0..rows).map(|k| k % 3)),
        Arc::new(NullArray::new(40)),
        Some(NullBuffer::from(
            (0..rows).map(|k| k % 8 != 5).collect::<Vec<_>>(),
        )),
    );
    // struct<l: list<int64>> whose list is required inside a nullable struct.
    let inner_list = ListArray::new(
        element(DataType::Int64, true),
        OffsetBuffer::from_lengths((0..rows).map(|k| k % 2)),
        Arc::new(Int64Array::from(nulls_every(20, 3, 0, |k| k as i64))),
        None,
    );
    let struct_of_list = StructArray::new(
        Fields::from(vec![ArrowField::new(
            "l",
            inner_list.data_type().clone(),
            false,
        )]),
        vec![Arc::new(inner_list)],
        Some(NullBuffer::from(
            (0..rows).map(|k| k % 3 != 2).collect::<Vec<_>>(),
        )),
    );
    RecordBatch::try_from_iter_with_nullable([
        ("list_of_structs", list_of_structs(rows), true),
        ("map", map_of_lists(rows, "map"), true),
        ("fixed", Arc::new(fixed) as ArrayRef, true),
        ("large", Arc::new(large) as ArrayRef, false),
        ("large_nullable", Arc::new(large_nullable) as ArrayRef, true),
        ("struct", Arc::new(s) as ArrayRef, true),
        ("lists", Arc::new(lists) as ArrayRef, false),
        ("dict_list", Arc::new(dict_list) as ArrayRef, true),
        ("null_list", Arc::new(null_list) as ArrayRef, true),
        ("struct_of_list", Arc::new(struct_of_list) as ArrayRef, true),
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..rows as i64)) as ArrayRef,
            false,
        ),
    ])
    .unwrap()
}

#[test]
fn nested_round_trips() {
    let batch = nested_batch();
    let schema = batch.schema();
    for options in [
        None,
        Some(
            WriterOptions::new()
                .with_row_group_rows(9)
                .with_page_rows(2),
        ),
        Some(
            WriterOptions::new()
                .with_page_version(PageVersion::V2)
                .with_dictionary(false),
        ),
    ] {
        let file = write(&schema, std::slice::from_ref(&batch), options);
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        assert_eq!(builder.schema(), &schema);
        for batch_size in [1, 3, 7, 100] {
            let batches = collect(
                ParquetRecordBatchReaderBuilder::try_new(file.clone())
                    .unwrap()
                    .with_batch_size(batch_size)
                    .build()
                    .unwrap(),
            );
            let got = concat(&schema, &batches);
            for (i, field) in schema.fields().iter().enumerate() {
                assert_eq!(
                    got.column(i).as_ref(),
                    batch.column(i).as_ref(),
                    "column {} at batch size {batch_size}",
                    field.name()
                );
            }
        }
    }
}

#[test]
fn stored_schema_restores_arrow_types() {
    let batch = every_type_batch(10);
    let nested = nested_batch();
    let file = write(&batch.schema(), std::slice::from_ref(&batch), None);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let read = builder.schema();
    let natural = parquet_to_arrow_schema(builder.parquet_schema(), None).unwrap();
    for (name, stored, plain) in [
        ("large_utf8", DataType::LargeUtf8, DataType::Utf8),
        ("utf8_view", DataType::Utf8View, DataType::Utf8),
        ("binary_view", DataType::BinaryView, DataType::Binary),
        (
            "dict",
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
            DataType::Utf8,
        ),
        (
            "ts_us_paris",
            DataType::Timestamp(TimeUnit::Microsecond, Some("Europe/Paris".into())),
            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
        ),
        (
            "dur_ns",
            DataType::Duration(TimeUnit::Nanosecond),
            DataType::Int64,
        ),
        ("f16", DataType::Float16, DataType::Float16),
    ] {
        let field = read.field_with_name(name).unwrap();
        assert_eq!(field.data_type(), &stored, "{name}");
        assert_eq!(
            natural.field_with_name(name).unwrap().data_type(),
            &plain,
            "{name}"
        );
    }
    assert_eq!(
        read.metadata().get("origin").map(String::as_str),
        Some("read.rs")
    );
    assert!(!read.metadata().contains_key(ARROW_SCHEMA_META_KEY));
    assert_eq!(
        read.field_with_name("uuid")
            .unwrap()
            .metadata()
            .get("ARROW:extension:name"),
        Some(&"arrow.uuid".to_owned())
    );

    // Decimal32 and Decimal64 in the schema (their values: `small_decimals_round_trip`).
    let small = small_decimals_batch(3);
    let file = write(&small.schema(), std::slice::from_ref(&small), None);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    assert_eq!(builder.schema(), &small.schema());

    let file = write(&nested.schema(), std::slice::from_ref(&nested), None);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let read = builder.schema();
    let natural = parquet_to_arrow_schema(builder.parquet_schema(), None).unwrap();
    for name in ["fixed", "large", "large_nullable"] {
        assert_eq!(
            read.field_with_name(name).unwrap().data_type(),
            nested.schema().field_with_name(name).unwrap().data_type(),
        );
        assert!(matches!(
            natural.field_with_name(name).unwrap().data_type(),
            DataType::List(_)
        ));
    }
}

/// pyarrow 26 names a map's entries after the map when it reads a file, even one with a
/// stored `ARROW:schema` that says `entries`, and its fields `key` and `value` as the
/// Parquet schema does (checked with pyarrow: `map<string, int64 ('mp')>`, child `mp:
/// struct<key, value>`).
#[test]
fn map_entries_are_named_as_pyarrow_names_them() {
    // Arrow's default names: `entries`, `keys`, `values`.
    let mut builder = MapBuilder::new(None, StringBuilder::new(), Int64Builder::new());
    builder.keys().append_value("a");
    builder.values().append_value(1);
    builder.append(true).unwrap();
    let map = Arc::new(builder.finish()) as ArrayRef;
    let batch = RecordBatch::try_from_iter([("mp", map)]).unwrap();
    let file = write(&batch.schema(), std::slice::from_ref(&batch), None);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let DataType::Map(entries, _) = builder.schema().field(0).data_type() else {
        panic!("not a map")
    };
    assert_eq!(entries.name(), "mp");
    let DataType::Struct(fields) = entries.data_type() else {
        panic!("entries that are not a struct")
    };
    assert_eq!(fields[0].name(), "key");
    assert_eq!(fields[1].name(), "value");
    let got = read_one(builder);
    assert_eq!(got.column(0).as_map().value(0).num_columns(), 2);
}

// ---------------------------------------------------------------------------------------
// Generated nested batches.

/// A generated row of `l: list<struct<a: int32, b: utf8>>`.
type ListRow = Option<Vec<Option<(Option<i32>, Option<String>)>>>;
/// A generated row of `m: map<utf8, list<int64>>`.
type MapRow = Option<Vec<(String, Option<Vec<Option<i64>>>)>>;
/// A generated row of `s: struct<x: int64, y: struct<z: list<bool>>>`.
type StructRow = Option<(Option<i64>, Option<Option<Vec<Option<bool>>>>)>;
/// A generated row of `f: fixed_size_list<int32>[2]`.
type FixedRow = Option<[Option<i32>; 2]>;

fn generated_list(rows: &[ListRow]) -> ArrayRef {
    let fields = Fields::from(vec![
        ArrowField::new("a", DataType::Int32, true),
        ArrowField::new("b", DataType::Utf8, true),
    ]);
    let mut builder = ListBuilder::new(StructBuilder::from_fields(fields.clone(), 0))
        .with_field(element(DataType::Struct(fields), true));
    for row in rows {
        let Some(elements) = row else {
            builder.append(false);
            continue;
        };
        for e in elements {
            let s = builder.values();
            let (a, b) = e.clone().unwrap_or_default();
            s.field_builder::<Int32Builder>(0).unwrap().append_option(a);
            s.field_builder::<StringBuilder>(1)
                .unwrap()
                .append_option(b);
            s.append(e.is_some());
        }
        builder.append(true);
    }
    Arc::new(builder.finish())
}

fn generated_map(rows: &[MapRow]) -> ArrayRef {
    let mut builder = MapBuilder::new(
        Some(map_names("m")),
        StringBuilder::new(),
        ListBuilder::new(Int64Builder::new()).with_field(element(DataType::Int64, true)),
    );
    for row in rows {
        let Some(entries) = row else {
            builder.append(false).unwrap();
            continue;
        };
        for (key, value) in entries {
            builder.keys().append_value(key);
            match value {
                None => builder.values().append(false),
                Some(values) => {
                    builder.values().values().extend(values.iter().copied());
                    builder.values().append(true);
                }
            }
        }
        builder.append(true).unwrap();
    }
    Arc::new(builder.finish())
}

fn generated_struct(rows: &[StructRow]) -> ArrayRef {
    let z = ArrowField::new("z", DataType::List(element(DataType::Boolean, true)), true);
    let y_fields = Fields::from(vec![z]);
    let fields = Fields::from(vec![
        ArrowField::new("x", DataType::Int64, true),
        ArrowField::new("y", DataType::Struct(y_fields.clone()), true),
    ]);
    let y_builder = StructBuilder::new(
        y_fields,
        vec![Box::new(
            ListBuilder::new(BooleanBuilder::new()).with_field(element(DataType::Boolean, true)),
        )],
    );
    let mut builder = StructBuilder::new(
        fields,
        vec![Box::new(Int64Builder::new()), Box::new(y_builder)],
    );
    for row in rows {
        let (x, y) = row.clone().unwrap_or_default();
        builder
            .field_builder::<Int64Builder>(0)
            .unwrap()
            .append_option(x);
        let yb = builder.field_builder::<StructBuilder>(1).unwrap();
        let z = yb.field_builder::<ListBuilder<BooleanBuilder>>(0).unwrap();
        match y.clone().flatten() {
            Some(values) => {
                z.values().extend(values);
                z.append(true);
            }
            None => z.append(false),
        }
        yb.append(y.is_some());
        builder.append(row.is_some());
    }
    Arc::new(builder.finish())
}

fn generated_fixed(rows: &[FixedRow]) -> ArrayRef {
    let mut builder = FixedSizeListBuilder::new(Int32Builder::new(), 2)
        .with_field(element(DataType::Int32, true));
    for row in rows {
        let values = row.unwrap_or_default();
        for v in values {
            builder.values().append_option(v);
        }
        builder.append(row.is_some());
    }
    Arc::new(builder.finish())
}

fn generated_batch(
    lists: &[ListRow],
    maps: &[MapRow],
    structs: &[StructRow],
    fixed: &[FixedRow],
) -> RecordBatch {
    let n = lists
        .len()
        .min(maps.len())
        .min(structs.len())
        .min(fixed.len());
    RecordBatch::try_from_iter_with_nullable([
        ("l", generated_list(&lists[..n]), true),
        ("m", generated_map(&maps[..n]), true),
        ("s", generated_struct(&structs[..n]), true),
        ("f", generated_fixed(&fixed[..n]), true),
        (
            "i",
            Arc::new(Int64Array::from_iter_values(0..n as i64)) as ArrayRef,
            false,
        ),
    ])
    .unwrap()
}

fn list_rows() -> impl Strategy<Value = Vec<ListRow>> {
    prop::collection::vec(
        prop::option::weighted(
            0.8,
            prop::collection::vec(
                prop::option::weighted(
                    0.8,
                    (
                        prop::option::weighted(0.7, any::<i32>()),
                        prop::option::weighted(0.7, "[a-z]{0,14}"),
                    ),
                ),
                0..4,
            ),
        ),
        1..80,
    )
}

fn map_rows() -> impl Strategy<Value = Vec<MapRow>> {
    prop::collection::vec(
        prop::option::weighted(
            0.8,
            prop::collection::vec(
                (
                    "[a-c]{1,3}",
                    prop::option::weighted(
                        0.7,
                        prop::collection::vec(prop::option::weighted(0.8, any::<i64>()), 0..3),
                    ),
                ),
                0..3,
            ),
        ),
        80,
    )
}

fn struct_rows() -> impl Strategy<Value = Vec<StructRow>> {
    prop::collection::vec(
        prop::option::weighted(
            0.8,
            (
                prop::option::weighted(0.7, any::<i64>()),
                prop::option::weighted(
                    0.8,
                    prop::option::weighted(
                        0.8,
                        prop::collection::vec(prop::option::weighted(0.8, any::<bool>()), 0..3),
                    ),
                ),
            ),
        ),
        80,
    )
}

fn fixed_rows() -> impl Strategy<Value = Vec<FixedRow>> {
    prop::collection::vec(
        prop::option::weighted(
            0.8,
            (
                prop::option::weighted(0.8, any::<i32>()),
                prop::option::weighted(0.8, any::<i32>()),
            )
                .prop_map(|(a, b)| [a, b]),
        ),
        80,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn generated_nested_batches_read_back(
        lists in list_rows(),
        maps in map_rows(),
        structs in struct_rows(),
        fixed in fixed_rows(),
        cut in 0usize..80,
        batch_size in 1usize..50,
        row_group_rows in 1usize..50,
        page_rows in 1usize..12,
        v2 in any::<bool>(),
        dictionary in any::<bool>(),
    ) {
        let batch = generated_batch(&lists, &maps, &structs, &fixed);
        let schema = batch.schema();
        let cut = cut.min(batch.num_rows());
        let slices = [batch.slice(0, cut), batch.slice(cut, batch.num_rows() - cut)];
        let options = WriterOptions::new()
            .with_row_group_rows(row_group_rows)
            .with_page_rows(page_rows)
            .with_dictionary(dictionary)
            .with_page_version(if v2 { PageVersion::V2 } else { PageVersion::V1 });
        let file = write(&schema, &slices, Some(options));
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_batch_size(batch_size)
            .build()
            .unwrap();
        let batches = collect(reader);
        // Never more than the batch size, and never across a row group.
        let mut row = 0;
        for b in &batches {
            prop_assert!(b.num_rows() <= batch_size);
            prop_assert_eq!(row / row_group_rows, (row + b.num_rows() - 1) / row_group_rows);
            row += b.num_rows();
        }
        prop_assert_eq!(concat(&schema, &batches), batch);
    }

    #[test]
    fn generated_selections_read_back(
        lists in list_rows(),
        maps in map_rows(),
        structs in struct_rows(),
        fixed in fixed_rows(),
        cuts in prop::collection::vec(0u64..80, 0..8),
        batch_size in 1usize..30,
        row_group_rows in 1usize..40,
        page_rows in 1usize..8,
    ) {
        let batch = generated_batch(&lists, &maps, &structs, &fixed);
        let schema = batch.schema();
        let n = batch.num_rows() as u64;
        let options = WriterOptions::new()
            .with_row_group_rows(row_group_rows)
            .with_page_rows(page_rows);
        let file = write(&schema, std::slice::from_ref(&batch), Some(options));
        // Alternate runs of skipped and selected rows, at the sorted cuts.
        let mut cuts: Vec<u64> = cuts.into_iter().map(|c| c.min(n)).collect();
        cuts.sort_unstable();
        cuts.push(n);
        let ranges: Vec<_> = cuts
            .windows(2)
            .step_by(2)
            .map(|w| w[0]..w[1])
            .filter(|r| !r.is_empty())
            .collect();
        let selection = RowSelection::from_ranges(ranges.clone());
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_batch_size(batch_size)
            .with_row_selection(selection)
            .build()
            .unwrap();
        let batches = collect(reader);
        prop_assert!(batches.iter().all(|b| b.num_rows() <= batch_size));
        let got = concat(&schema, &batches);
        let expected: Vec<_> = ranges
            .iter()
            .map(|r| batch.slice(r.start as usize, (r.end - r.start) as usize))
            .collect();
        prop_assert_eq!(got, concat(&schema, &expected));
    }
}

// ---------------------------------------------------------------------------------------
// Builder options.

/// `id: int64` (0..n, sorted), `name: utf8` (nullable), `score: float64` (nullable),
/// `s: struct<a: int32, b: utf8>` (nullable), `tags: list<int32>`.
fn table(n: usize) -> RecordBatch {
    let a = Int32Array::from(nulls_every(n, 5, 0, |k| (k % 100) as i32));
    let b = StringArray::from(nulls_every(n, 7, 3, |k| format!("b{}", k % 13)));
    let s = StructArray::new(
        Fields::from(vec![
            ArrowField::new("a", DataType::Int32, true),
            ArrowField::new("b", DataType::Utf8, true),
        ]),
        vec![Arc::new(a), Arc::new(b)],
        Some(NullBuffer::from(
            (0..n).map(|k| k % 11 != 4).collect::<Vec<_>>(),
        )),
    );
    let tags = ListArray::new(
        element(DataType::Int32, true),
        OffsetBuffer::from_lengths((0..n).map(|k| k % 3)),
        Arc::new(Int32Array::from_iter_values(0..n as i32)),
        None,
    );
    RecordBatch::try_from_iter_with_nullable([
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..n as i64)) as ArrayRef,
            false,
        ),
        (
            "name",
            Arc::new(StringArray::from(nulls_every(n, 9, 0, |k| {
                format!("k{:08}", (k * 7919) % 100_000)
            }))) as ArrayRef,
            true,
        ),
        (
            "score",
            Arc::new(Float64Array::from(nulls_every(n, 4, 1, |k| {
                (k % 50) as f64 / 2.0
            }))) as ArrayRef,
            true,
        ),
        ("s", Arc::new(s) as ArrayRef, true),
        ("tags", Arc::new(tags) as ArrayRef, true),
    ])
    .unwrap()
}

/// `table(n)` in row groups of `group` rows and pages of `page` rows.
fn table_file(n: usize, group: usize, page: usize) -> (RecordBatch, Bytes) {
    let batch = table(n);
    let options = WriterOptions::new()
        .with_row_group_rows(group)
        .with_page_rows(page)
        .with_dictionary(false);
    let file = write(&batch.schema(), std::slice::from_ref(&batch), Some(options));
    (batch, file)
}

#[test]
fn batches_hold_at_most_the_batch_size_and_stay_in_their_row_group() {
    let (batch, file) = table_file(250, 100, 1000);
    let sizes = |batch_size| {
        collect(
            ParquetRecordBatchReaderBuilder::try_new(file.clone())
                .unwrap()
                .with_batch_size(batch_size)
                .build()
                .unwrap(),
        )
        .iter()
        .map(RecordBatch::num_rows)
        .collect::<Vec<_>>()
    };
    assert_eq!(sizes(30), [30, 30, 30, 10, 30, 30, 30, 10, 30, 20]);
    assert_eq!(sizes(100), [100, 100, 50]);
    assert_eq!(sizes(1000), [100, 100, 50]);
    assert_eq!(sizes(0), vec![1; 250], "a batch size of 0 is 1");
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    assert_eq!(concat(&batch.schema(), &collect(reader)), batch);
}

#[test]
fn projections_by_name_path_and_leaf() {
    let (batch, file) = table_file(100, 30, 10);
    let builder = || ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();

    // By name: in file order, whatever the order asked.
    let got = read_one(builder().with_projection(ProjectionMask::columns(["score", "id"])));
    assert_eq!(got, project(&batch, &["id", "score"]));

    // A struct by its name: whole.
    let got = read_one(builder().with_projection(ProjectionMask::columns(["s"])));
    assert_eq!(got, project(&batch, &["s"]));

    // A path into a struct: the struct keeps only the selected child.
    let got =
        read_one(builder().with_projection(ProjectionMask::paths([ColumnPath::new(["s", "b"])])));
    let s = batch.column_by_name("s").unwrap().as_struct();
    let only_b = StructArray::new(
        Fields::from(vec![s.fields()[1].clone()]),
        vec![s.column(1).clone()],
        s.nulls().cloned(),
    );
    let expected = RecordBatch::try_from_iter([("s", Arc::new(only_b) as ArrayRef)]).unwrap();
    assert_eq!(got, expected);

    // Leaves (columns: id 0, name 1, score 2, s.a 3, s.b 4, tags 5).
    let got = read_one(builder().with_projection(ProjectionMask::leaves([5, 0])));
    assert_eq!(got, project(&batch, &["id", "tags"]));
    let got = read_one(builder().with_projection(ProjectionMask::leaves([4])));
    assert_eq!(got, expected);
    let got = read_one(builder().with_projection(ProjectionMask::leaves([3, 4])));
    assert_eq!(got, project(&batch, &["s"]));

    // Nothing selected: batches of rows and no columns.
    let got = collect(
        builder()
            .with_projection(ProjectionMask::leaves([]))
            .build()
            .unwrap(),
    );
    assert_eq!(got.iter().map(RecordBatch::num_rows).sum::<usize>(), 100);
    assert!(got.iter().all(|b| b.num_columns() == 0));

    // What the file does not have.
    for mask in [
        ProjectionMask::columns(["nope"]),
        ProjectionMask::paths([ColumnPath::new(["s", "c"])]),
        ProjectionMask::leaves([6]),
    ] {
        assert!(matches!(
            builder().with_projection(mask).build(),
            Err(Error::Argument(_))
        ));
    }
}

#[test]
fn projection_of_a_map_child_reads_the_whole_map() {
    let batch = nested_batch();
    let file = write(&batch.schema(), std::slice::from_ref(&batch), None);
    let got = read_one(
        ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_projection(ProjectionMask::paths([ColumnPath::new([
                "map",
                "key_value",
                "key",
            ])])),
    );
    assert_eq!(got, project(&batch, &["map"]));
}

#[test]
fn row_groups_are_read_in_the_order_asked() {
    let (batch, file) = table_file(250, 100, 1000);
    let builder = || ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let got = read_one(builder().with_row_groups(vec![2, 0]));
    let expected = concat(
        &batch.schema(),
        &[batch.slice(200, 50), batch.slice(0, 100)],
    );
    assert_eq!(got, expected);
    let got = read_one(builder().with_row_groups(vec![]));
    assert_eq!(got.num_rows(), 0);
    assert!(matches!(
        builder().with_row_groups(vec![3]).build(),
        Err(Error::Argument(_))
    ));
}

#[test]
fn row_selection_counts_the_rows_of_the_row_groups_read() {
    let (batch, file) = table_file(300, 100, 10);
    let builder = || ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let selection = RowSelection::from_ranges([5..15, 95..105, 150..160, 199..250]);

    // All row groups: rows of the file.
    let got = read_one(
        builder()
            .with_row_selection(selection.clone())
            .with_batch_size(7),
    );
    let expected = concat(
        &batch.schema(),
        &[
            batch.slice(5, 10),
            batch.slice(95, 10),
            batch.slice(150, 10),
            batch.slice(199, 51),
        ],
    );
    assert_eq!(got, expected);

    // Row groups 2 then 1: row 0 of the selection is row 200 of the file.
    let got = read_one(
        builder()
            .with_row_groups(vec![2, 1])
            .with_row_selection(selection),
    );
    let expected = concat(
        &batch.schema(),
        &[
            batch.slice(205, 10),
            batch.slice(295, 5),
            batch.slice(100, 5),
            batch.slice(150, 10),
            batch.slice(199, 1),
        ],
    );
    assert_eq!(got, expected);

    // Pages of no selected row are not read.
    let (all, all_bytes) = read_counting(&file, |b| b);
    assert_eq!(all, batch);
    let (some, some_bytes) = read_counting(&file, |b| {
        b.with_row_selection(RowSelection::from_ranges([42..47]))
    });
    assert_eq!(some, batch.slice(42, 5));
    assert!(some_bytes * 5 < all_bytes, "{some_bytes} of {all_bytes}");

    // An empty selection, and one past the end.
    assert_eq!(
        read_one(builder().with_row_selection(RowSelection::from_ranges([]))).num_rows(),
        0
    );
    let got = read_one(builder().with_row_selection(RowSelection::from_ranges([290..400])));
    assert_eq!(got, batch.slice(290, 10));
}

/// The rows of `batch` whose `id` `keep` keeps.
fn ids(batch: &RecordBatch, keep: impl Fn(i64) -> bool) -> RecordBatch {
    let id = batch
        .column_by_name("id")
        .unwrap()
        .as_primitive::<Int64Type>()
        .clone();
    filter_rows(batch, |i| keep(id.value(i)))
}

#[test]
fn predicates_skip_row_groups_by_statistics() {
    let (batch, file) = table_file(1000, 100, 1000);
    let (all, all_bytes) = read_counting(&file, |b| b);
    assert_eq!(all, batch);
    let (got, bytes) = read_counting(&file, |b| {
        b.with_predicate(Predicate::compare("id", Op::Ge, 950))
    });
    assert_eq!(got, ids(&batch, |id| id >= 950));
    assert!(bytes * 5 < all_bytes, "{bytes} of {all_bytes}");

    // Without a page index or page statistics, the chunk statistics still skip.
    let options = WriterOptions::new()
        .with_row_group_rows(100)
        .with_statistics(StatisticsLevel::Chunk)
        .with_page_index(false);
    let file = write(&batch.schema(), std::slice::from_ref(&batch), Some(options));
    let (got, bytes) = read_counting(&file, |b| {
        b.with_predicate(Predicate::compare("id", Op::Lt, 100).or(Predicate::compare(
            "id",
            Op::Eq,
            555,
        )))
    });
    assert_eq!(got, ids(&batch, |id| id < 100 || id == 555));
    assert!(bytes * 3 < all_bytes, "{bytes} of {all_bytes}");
}

#[test]
fn predicates_skip_pages_by_the_page_index() {
    // Pages of 50 rows: 40 of them per column, which the page index (offset indexes of
    // every column, the column index of `id`) adds a few bytes each to.
    let (batch, file) = table_file(2000, 2000, 50);
    let (all, all_bytes) = read_counting(&file, |b| b);
    assert_eq!(all, batch);
    let (got, bytes) = read_counting(&file, |b| {
        b.with_predicate(Predicate::compare("id", Op::Lt, 25))
            .with_batch_size(8)
    });
    assert_eq!(got, ids(&batch, |id| id < 25));
    assert!(bytes * 10 < all_bytes, "{bytes} of {all_bytes}");

    // Pages of the middle and the end.
    let (got, bytes) = read_counting(&file, |b| {
        b.with_predicate(
            Predicate::compare("id", Op::Gt, 500)
                .and(Predicate::compare("id", Op::Le, 512))
                .or(Predicate::compare("id", Op::Ge, 1995)),
        )
    });
    assert_eq!(got, ids(&batch, |id| (id > 500 && id <= 512) || id >= 1995));
    assert!(bytes * 5 < all_bytes, "{bytes} of {all_bytes}");
}

#[test]
fn predicates_filter_exactly() {
    let (batch, file) = table_file(500, 128, 16);
    let builder = || ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let name = batch
        .column_by_name("name")
        .unwrap()
        .as_string::<i32>()
        .clone();
    let score = batch
        .column_by_name("score")
        .unwrap()
        .as_primitive::<arrow_array::types::Float64Type>()
        .clone();
    let s = batch.column_by_name("s").unwrap().as_struct().clone();
    let a = s.column(0).as_primitive::<Int32Type>().clone();
    let cases: Vec<(Predicate, Box<dyn Fn(usize) -> bool>)> = vec![
        (Predicate::is_null("name"), Box::new(|i| name.is_null(i))),
        (
            Predicate::is_not_null("score"),
            Box::new(|i| score.is_valid(i)),
        ),
        (
            Predicate::compare("score", Op::Gt, 20.5),
            Box::new(|i| score.is_valid(i) && score.value(i) > 20.5),
        ),
        (
            Predicate::compare("score", Op::Le, 3),
            Box::new(|i| score.is_valid(i) && score.value(i) <= 3.0),
        ),
        (
            Predicate::compare("name", Op::Lt, "k00500"),
            Box::new(|i| name.is_valid(i) && name.value(i) < "k00500"),
        ),
        (
            Predicate::compare("name", Op::Ne, "k00000000").negate(),
            Box::new(|i| !(name.is_valid(i) && name.value(i) != "k00000000")),
        ),
        (
            Predicate::compare(["s", "a"], Op::Eq, 7),
            Box::new(|i| s.is_valid(i) && a.is_valid(i) && a.value(i) == 7),
        ),
        (
            Predicate::is_null(["s", "a"]),
            Box::new(|i| s.is_null(i) || a.is_null(i)),
        ),
        // A string literal for a number, a number for a string: false.
        (Predicate::compare("id", Op::Eq, "3"), Box::new(|_| false)),
        (Predicate::compare("name", Op::Gt, 3), Box::new(|_| false)),
    ];
    for (predicate, keep) in cases {
        let text = format!("{predicate:?}");
        for batch_size in [1, 50, 1000] {
            let got = read_one(
                builder()
                    .with_predicate(predicate.clone())
                    .with_batch_size(batch_size),
            );
            assert_eq!(got, filter_rows(&batch, &keep), "{text} at {batch_size}");
        }
    }
    // A column the file does not have.
    assert!(
        builder()
            .with_predicate(Predicate::compare("nope", Op::Eq, 1))
            .build()
            .is_err()
    );
}

/// `batch` with a last column `row`: the row numbers.
fn with_row_numbers(batch: &RecordBatch) -> RecordBatch {
    let mut fields: Vec<_> = batch.schema().fields().iter().cloned().collect();
    let mut columns = batch.columns().to_vec();
    fields.push(Arc::new(ArrowField::new("row", DataType::Int64, false)));
    columns.push(Arc::new(Int64Array::from_iter_values(
        0..batch.num_rows() as i64,
    )));
    RecordBatch::try_new(Arc::new(ArrowSchema::new(fields)), columns).unwrap()
}

/// The literals predicates are tried with: integers around the values (and in the
/// units of days, milliseconds and seconds), floats, strings and a boolean.
fn literals() -> Vec<Literal> {
    vec![
        Literal::Int(0),
        Literal::Int(-5),
        Literal::Int(100),
        Literal::Int(5000),
        Literal::Int(86_400_000),
        Literal::Int(1 << 45),
        Literal::Float(2.5),
        Literal::Float(-1e30),
        Literal::Str("s1".into()),
        Literal::Str("m".into()),
        Literal::Bool(true),
    ]
}

/// Where the rows the Arrow reader keeps for a predicate on one of `columns` differ from
/// those `Predicate::matches` keeps among the rows `parquet-file` reads (the meaning a
/// predicate has): one line per predicate. `file` holds a `row` column of row numbers.
fn predicate_disagreements(file: &Bytes, columns: &[&str]) -> Vec<String> {
    let reader = FileReader::open(file.clone()).unwrap();
    let rows: Vec<Row> = reader.rows().map(Result::unwrap).collect();
    let mut predicates = Vec::new();
    for &name in columns {
        let path: ColumnPath = ColumnPath::new(name.split('.'));
        predicates.push(Predicate::is_null(path.clone()));
        predicates.push(Predicate::is_not_null(path.clone()));
        for op in [Op::Eq, Op::Ne, Op::Lt, Op::Ge] {
            for literal in literals() {
                predicates.push(Predicate::Compare {
                    column: path.clone(),
                    op,
                    literal,
                });
            }
        }
    }
    let mut disagreements = Vec::new();
    for predicate in predicates {
        let expected: Vec<i64> = (0..rows.len() as i64)
            .filter(|&i| predicate.matches(&rows[i as usize]))
            .collect();
        let got = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_projection(ProjectionMask::columns(["row"]))
            .with_predicate(predicate.clone())
            .with_batch_size(64)
            .build()
            .map_err(|e| e.to_string())
            .and_then(|reader| {
                let mut got = Vec::new();
                for batch in reader {
                    let batch = batch.map_err(|e| e.to_string())?;
                    got.extend(batch.column(0).as_primitive::<Int64Type>().values());
                }
                Ok(got)
            });
        if got.as_ref() != Ok(&expected) {
            disagreements.push(format!(
                "{predicate:?}: {} rows match, the reader gives {:?}",
                expected.len(),
                got.map(|g| g.len())
            ));
        }
    }
    disagreements
}

#[test]
fn predicates_mean_on_batches_what_they_mean_on_rows() {
    let batch = with_row_numbers(&every_type_batch(200));
    let options = WriterOptions::new()
        .with_row_group_rows(50)
        .with_page_rows(10);
    let file = write(&batch.schema(), std::slice::from_ref(&batch), Some(options));
    let names: Vec<String> = batch
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let columns: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| *n != "row" && !n.starts_with("dec256"))
        .collect();
    let disagreements = predicate_disagreements(&file, &columns);
    assert!(disagreements.is_empty(), "{disagreements:#?}");

    // Nested columns: structs and their fields, lists.
    let (table, _) = table_file(200, 50, 10);
    let table = with_row_numbers(&table);
    let file = write(
        &table.schema(),
        std::slice::from_ref(&table),
        Some(options_small()),
    );
    let disagreements =
        predicate_disagreements(&file, &["id", "name", "score", "s", "s.a", "s.b", "tags"]);
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

fn options_small() -> WriterOptions {
    WriterOptions::new()
        .with_row_group_rows(50)
        .with_page_rows(10)
}

#[test]
fn predicates_on_types_stored_in_other_units_compare_stored_counts() {
    let batch = with_row_numbers(&coarse_batch(200));
    let file = write(
        &batch.schema(),
        std::slice::from_ref(&batch),
        Some(options_small()),
    );
    let disagreements = predicate_disagreements(
        &file,
        &["date64", "time32s", "ts_s", "ts_s_paris", "dict_i8_large"],
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

#[test]
fn predicates_on_fixed_size_binary_compare_bytes() {
    let batch = with_row_numbers(&every_type_batch(200));
    let file = write(
        &batch.schema(),
        std::slice::from_ref(&batch),
        Some(options_small()),
    );
    let disagreements = predicate_disagreements(&file, &["fixed"]);
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

#[test]
fn predicates_on_other_decimals_compare_values() {
    // DECIMAL(40, 2): Decimal256 without a stored schema too.
    let values = Decimal256Array::from(nulls_every(200, 7, 0, |k| {
        i256::from_i128(k as i128 * 37 - 3000)
    }))
    .with_precision_and_scale(40, 2)
    .unwrap();
    let batch = RecordBatch::try_from_iter([("dec256", Arc::new(values) as ArrayRef)]).unwrap();
    for batch in [batch, small_decimals_batch(200)] {
        let batch = with_row_numbers(&batch);
        let file = write(
            &batch.schema(),
            std::slice::from_ref(&batch),
            Some(options_small()),
        );
        let names: Vec<String> = batch
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        let columns: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|n| *n != "row")
            .collect();
        let disagreements = predicate_disagreements(&file, &columns);
        assert!(disagreements.is_empty(), "{disagreements:#?}");
    }
}

#[test]
fn predicates_with_row_selections_and_row_groups() {
    let (batch, file) = table_file(300, 100, 10);
    let schema = batch.schema();
    let got = read_one(
        ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_row_selection(RowSelection::from_ranges([0..50, 200..260]))
            .with_predicate(Predicate::compare("id", Op::Ge, 40).and(Predicate::compare(
                "id",
                Op::Lt,
                230,
            )))
            .with_batch_size(9),
    );
    assert_eq!(
        got,
        concat(&schema, &[batch.slice(40, 10), batch.slice(200, 30)])
    );
    // Row groups 2 and 0 (selection rows 0..100 are file rows 200..300).
    let got = read_one(
        ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_row_groups(vec![2, 0])
            .with_row_selection(RowSelection::from_ranges([50..150]))
            .with_predicate(
                Predicate::compare("id", Op::Lt, 260).and(Predicate::compare("id", Op::Ne, 7)),
            ),
    );
    let head = ids(&batch.slice(0, 50), |id| id != 7);
    assert_eq!(got, concat(&schema, &[batch.slice(250, 10), head]));
}

#[test]
fn predicate_columns_need_not_be_projected() {
    let (batch, file) = table_file(300, 100, 10);
    let got = read_one(
        ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_projection(ProjectionMask::columns(["name"]))
            .with_predicate(Predicate::compare("id", Op::Ge, 250)),
    );
    assert_eq!(got, project(&ids(&batch, |id| id >= 250), &["name"]));
}

#[test]
fn predicate_on_one_struct_child_with_another_projected() {
    let (batch, file) = table_file(300, 100, 10);
    let got = collect(
        ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_projection(ProjectionMask::paths([ColumnPath::new(["s", "b"])]))
            .with_predicate(Predicate::compare(["s", "a"], Op::Eq, 7))
            .build()
            .unwrap(),
    );
    let s = batch.column_by_name("s").unwrap().as_struct();
    let a = s.column(0).as_primitive::<Int32Type>();
    let only_b = StructArray::new(
        Fields::from(vec![s.fields()[1].clone()]),
        vec![s.column(1).clone()],
        s.nulls().cloned(),
    );
    let expected = RecordBatch::try_from_iter([("s", Arc::new(only_b) as ArrayRef)]).unwrap();
    let expected = filter_rows(&expected, |i| {
        s.is_valid(i) && a.is_valid(i) && a.value(i) == 7
    });
    assert_eq!(concat(&expected.schema(), &got), expected);
}

#[test]
fn bloom_filters_skip_row_groups() {
    let batch = table(1000);
    let options = |bloom: bool| {
        let options = WriterOptions::new().with_row_group_rows(100);
        if bloom {
            options.with_column(
                "name",
                ColumnOptions {
                    bloom_filter: Some(Some(BloomFilterOptions::default())),
                    ..ColumnOptions::default()
                },
            )
        } else {
            options
        }
    };
    // Within every row group's bounds, and in none.
    let absent = "k00050000x";
    let present = "k00007919";
    let name = batch
        .column_by_name("name")
        .unwrap()
        .as_string::<i32>()
        .clone();
    let mut bytes = Vec::new();
    for bloom in [false, true] {
        let file = write(
            &batch.schema(),
            std::slice::from_ref(&batch),
            Some(options(bloom)),
        );
        let (got, read) = read_counting(&file, |b| {
            b.with_predicate(Predicate::compare("name", Op::Eq, absent))
        });
        assert_eq!(got.num_rows(), 0);
        bytes.push(read);
        let (got, _) = read_counting(&file, |b| {
            b.with_predicate(Predicate::compare("name", Op::Eq, present))
        });
        assert_eq!(
            got,
            filter_rows(&batch, |i| name.is_valid(i) && name.value(i) == present)
        );
        assert_eq!(got.num_rows(), 1);
    }
    assert!(bytes[1] * 5 < bytes[0], "{bytes:?}");
}

#[test]
fn row_filters_see_their_columns_only() {
    let (batch, file) = table_file(300, 100, 10);
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let filter_seen = seen.clone();
    let filter = RowFilter::new(
        ProjectionMask::columns(["score", "id"]),
        move |b: RecordBatch| {
            filter_seen.lock().unwrap().push(
                b.schema()
                    .fields()
                    .iter()
                    .map(|f| f.name().clone())
                    .collect::<Vec<_>>(),
            );
            let id = b.column_by_name("id").unwrap().as_primitive::<Int64Type>();
            Ok(id
                .iter()
                .map(|v| v.map(|v| v % 3 == 0))
                .collect::<BooleanArray>())
        },
    );
    let got = read_one(
        ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_projection(ProjectionMask::columns(["name"]))
            .with_row_filter(filter)
            .with_batch_size(64),
    );
    assert_eq!(got, project(&ids(&batch, |id| id % 3 == 0), &["name"]));
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty());
    assert!(
        seen.iter().all(|names| names == &["id", "score"]),
        "{seen:?}"
    );

    // A filter that keeps nulls drops them; one that fails stops the reader.
    let nulls = RowFilter::new(ProjectionMask::columns(["score"]), |b: RecordBatch| {
        Ok(BooleanArray::from(vec![None; b.num_rows()]))
    });
    let got = read_one(
        ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_row_filter(nulls),
    );
    assert_eq!(got.num_rows(), 0);
    let failing = RowFilter::new(ProjectionMask::columns(["id"]), |_: RecordBatch| {
        Err(arrow_schema::ArrowError::ComputeError("no".into()))
    });
    let mut reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_row_filter(failing)
        .build()
        .unwrap();
    assert!(reader.next().unwrap().is_err());
    assert!(reader.next().is_none());
}

#[test]
fn row_filter_on_a_struct_child_with_another_projected() {
    let (batch, file) = table_file(100, 40, 10);
    let filter = RowFilter::new(
        ProjectionMask::paths([ColumnPath::new(["s", "a"])]),
        |b: RecordBatch| {
            let s = b.column(0).as_struct();
            Ok(BooleanArray::from(
                (0..b.num_rows())
                    .map(|i| s.is_valid(i) && s.column(0).is_valid(i))
                    .collect::<Vec<_>>(),
            ))
        },
    );
    let got = collect(
        ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_projection(ProjectionMask::paths([ColumnPath::new(["s", "b"])]))
            .with_row_filter(filter)
            .build()
            .unwrap(),
    );
    let s = batch.column_by_name("s").unwrap().as_struct();
    let only_b = StructArray::new(
        Fields::from(vec![s.fields()[1].clone()]),
        vec![s.column(1).clone()],
        s.nulls().cloned(),
    );
    let expected = RecordBatch::try_from_iter([("s", Arc::new(only_b) as ArrayRef)]).unwrap();
    let expected = filter_rows(&expected, |i| s.is_valid(i) && s.column(0).is_valid(i));
    assert_eq!(concat(&expected.schema(), &got), expected);
}

#[test]
fn limit_and_offset() {
    let (batch, file) = table_file(300, 100, 10);
    let builder = || ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let schema = batch.schema();

    // Without filters: rows of the file (or of the selection).
    assert_eq!(
        read_one(builder().with_offset(95).with_limit(20)),
        batch.slice(95, 20)
    );
    assert_eq!(
        read_one(builder().with_limit(5).with_batch_size(2)),
        batch.slice(0, 5)
    );
    assert_eq!(read_one(builder().with_offset(290)), batch.slice(290, 10));
    assert_eq!(read_one(builder().with_offset(300)).num_rows(), 0);
    assert_eq!(
        read_one(builder().with_offset(1000).with_limit(3)).num_rows(),
        0
    );
    assert_eq!(read_one(builder().with_limit(0)).num_rows(), 0);
    let got = read_one(
        builder()
            .with_row_selection(RowSelection::from_ranges([10..20, 150..160]))
            .with_offset(5)
            .with_limit(8),
    );
    assert_eq!(
        got,
        concat(&schema, &[batch.slice(15, 5), batch.slice(150, 3)])
    );
    let got = read_one(
        builder()
            .with_row_groups(vec![2, 0])
            .with_offset(95)
            .with_limit(10),
    );
    assert_eq!(
        got,
        concat(&schema, &[batch.slice(295, 5), batch.slice(0, 5)])
    );

    // With a predicate or a row filter: rows that pass.
    let even = ids(&batch, |id| id >= 50 && id % 2 == 0);
    let got = read_one(
        builder()
            .with_predicate(Predicate::compare("id", Op::Ge, 50))
            .with_row_filter(RowFilter::new(
                ProjectionMask::columns(["id"]),
                |b: RecordBatch| {
                    let id = b.column(0).as_primitive::<Int64Type>();
                    Ok(id
                        .iter()
                        .map(|v| v.map(|v| v % 2 == 0))
                        .collect::<BooleanArray>())
                },
            ))
            .with_offset(60)
            .with_limit(30)
            .with_batch_size(16),
    );
    assert_eq!(got, even.slice(60, 30));
    let got = read_one(
        builder()
            .with_predicate(Predicate::compare("id", Op::Lt, 120))
            .with_offset(110)
            .with_limit(100),
    );
    assert_eq!(got, batch.slice(110, 10));
    let got = read_one(
        builder()
            .with_predicate(Predicate::compare("id", Op::Lt, 120))
            .with_offset(120),
    );
    assert_eq!(got.num_rows(), 0);
}

#[test]
fn empty_results_and_empty_files() {
    let (batch, file) = table_file(300, 100, 10);
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_predicate(Predicate::compare("id", Op::Gt, 10_000))
        .build()
        .unwrap();
    assert_eq!(reader.schema(), batch.schema());
    assert_eq!(reader.count(), 0);

    // A file without row groups.
    for batches in [vec![], vec![batch.slice(0, 0)]] {
        let file = write(&batch.schema(), &batches, None);
        assert_eq!(
            FileReader::open(file.clone())
                .unwrap()
                .metadata()
                .row_groups()
                .len(),
            0
        );
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        assert_eq!(builder.schema(), &batch.schema());
        let reader = builder.build().unwrap();
        assert_eq!(reader.schema(), batch.schema());
        assert_eq!(reader.count(), 0);
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .with_predicate(Predicate::compare("id", Op::Eq, 1))
            .with_offset(3)
            .with_row_selection(RowSelection::from_ranges([0..5]))
            .build()
            .unwrap();
        assert_eq!(reader.count(), 0);
    }
}

// ---------------------------------------------------------------------------------------
// Files without a stored Arrow schema.

fn fixed_bytes(width: usize, values: &[&[u8]]) -> ColumnValues {
    ColumnValues::FixedLenByteArray(
        FixedLenByteArrayBatch::from_bytes(width, values.concat()).unwrap(),
    )
}

/// The INT96 of `nanos` since the Unix epoch (nanoseconds of the day, Julian day).
fn int96(nanos: i64) -> Int96 {
    let day = nanos.div_euclid(86_400_000_000_000);
    let of_day = nanos.rem_euclid(86_400_000_000_000);
    let mut bytes = [0u8; 12];
    bytes[..8].copy_from_slice(&of_day.to_le_bytes());
    bytes[8..].copy_from_slice(&((day + 2_440_588) as i32).to_le_bytes());
    Int96::from_le_bytes(bytes)
}

/// The two's complement big-endian bytes of `v`, `width` bytes long.
fn be(v: i128, width: usize) -> Vec<u8> {
    let sign = if v < 0 { 0xff } else { 0 };
    let mut out = vec![sign; width.saturating_sub(16)];
    out.extend_from_slice(&v.to_be_bytes()[16 - width.min(16)..]);
    out
}

#[test]
fn natural_types_without_a_stored_schema() {
    use PhysicalType as P;
    use Repetition::Required as R;
    let int = |name: &str, bits, signed| {
        SchemaField::required(name, P::Int32)
            .with_logical_type(LogicalType::Integer { bits, signed })
    };
    let decimal = |scale, precision| LogicalType::Decimal { scale, precision };
    let fields = vec![
        int("i8", 8, true),
        int("u8", 8, false),
        int("i16", 16, true),
        int("u16", 16, false),
        int("i32", 32, true),
        int("u32", 32, false),
        SchemaField::required("i32_plain", P::Int32).with_field_id(7),
        SchemaField::required("u64", P::Int64).with_logical_type(LogicalType::Integer {
            bits: 64,
            signed: false,
        }),
        SchemaField::required("i64", P::Int64).with_logical_type(LogicalType::Integer {
            bits: 64,
            signed: true,
        }),
        SchemaField::required("date", P::Int32).with_logical_type(LogicalType::Date),
        SchemaField::required("time_ms", P::Int32).with_logical_type(LogicalType::Time {
            unit: Unit::Millis,
            utc: true,
        }),
        SchemaField::required("time_us", P::Int64).with_logical_type(LogicalType::Time {
            unit: Unit::Micros,
            utc: false,
        }),
        SchemaField::required("time_ns", P::Int64).with_logical_type(LogicalType::Time {
            unit: Unit::Nanos,
            utc: true,
        }),
        SchemaField::required("ts_ms_utc", P::Int64).with_logical_type(LogicalType::Timestamp {
            unit: Unit::Millis,
            utc: true,
        }),
        SchemaField::required("ts_us_local", P::Int64).with_logical_type(LogicalType::Timestamp {
            unit: Unit::Micros,
            utc: false,
        }),
        SchemaField::required("ts_ns_utc", P::Int64).with_logical_type(LogicalType::Timestamp {
            unit: Unit::Nanos,
            utc: true,
        }),
        SchemaField::required("int96", P::Int96),
        SchemaField::required("dec_i32", P::Int32).with_logical_type(decimal(2, 9)),
        SchemaField::required("dec_i64", P::Int64).with_logical_type(decimal(4, 18)),
        SchemaField::fixed_len_byte_array("dec_flba", R, 5).with_logical_type(decimal(3, 11)),
        SchemaField::required("dec_bytes", P::ByteArray).with_logical_type(decimal(0, 20)),
        SchemaField::fixed_len_byte_array("dec_wide", R, 32).with_logical_type(decimal(10, 76)),
        SchemaField::required("dec_bytes_39", P::ByteArray).with_logical_type(decimal(1, 39)),
        SchemaField::fixed_len_byte_array("f16", R, 2).with_logical_type(LogicalType::Float16),
        SchemaField::fixed_len_byte_array("uuid", R, 16).with_logical_type(LogicalType::Uuid),
        SchemaField::fixed_len_byte_array("flba", R, 3),
        SchemaField::required("string", P::ByteArray).with_logical_type(LogicalType::String),
        SchemaField::required("enum", P::ByteArray).with_logical_type(LogicalType::Enum),
        SchemaField::required("json", P::ByteArray).with_logical_type(LogicalType::Json),
        SchemaField::required("bson", P::ByteArray).with_logical_type(LogicalType::Bson),
        SchemaField::required("bytes", P::ByteArray),
        SchemaField::optional("unknown", P::Int32).with_logical_type(LogicalType::Unknown),
        SchemaField::required("bool", P::Boolean),
        SchemaField::required("float", P::Float),
        SchemaField::required("double", P::Double),
    ];
    let schema = Schema::try_new("schema", fields).unwrap();
    let no_levels = |v: ColumnValues| (v, vec![], vec![]);
    let i32s = |v: &[i32]| no_levels(ColumnValues::Int32(v.to_vec()));
    let i64s = |v: &[i64]| no_levels(ColumnValues::Int64(v.to_vec()));
    let day = 86_400_000_000_000i64;
    let big = i256::from_i128(-(10i128.pow(37))).wrapping_mul(i256::from_i128(10i128.pow(38)));
    let columns = vec![
        i32s(&[-128, 0, 127]),
        i32s(&[0, 255, 7]),
        i32s(&[-32768, 1, 32767]),
        i32s(&[65535, 0, 2]),
        i32s(&[i32::MIN, 0, i32::MAX]),
        i32s(&[-1, 0, 5]),
        i32s(&[1, 2, 3]),
        i64s(&[-1, 0, 9]),
        i64s(&[i64::MIN, 0, i64::MAX]),
        i32s(&[-1, 0, 19_000]),
        i32s(&[0, 1000, 86_399_999]),
        i64s(&[0, 1, 86_399_999_999]),
        i64s(&[0, 1, 86_399_999_999_999]),
        i64s(&[-1, 0, 1_700_000_000_000]),
        i64s(&[-1, 0, 1_700_000_000_000_000]),
        i64s(&[i64::MIN, 0, i64::MAX]),
        no_levels(ColumnValues::Int96(vec![
            int96(0),
            int96(day + day / 2),
            int96(-1),
        ])),
        i32s(&[-999_999_999, 0, 12345]),
        i64s(&[-999_999_999_999_999_999, 1, 0]),
        no_levels(fixed_bytes(
            5,
            &[&be(-1, 5), &be(99_999_999_999, 5), &be(0, 5)],
        )),
        no_levels(byte_arrays([
            be(-2, 1),
            be(10i128.pow(19), 9),
            vec![0x00, 0x00, 0x01],
        ])),
        no_levels(fixed_bytes(
            32,
            &[&big.to_be_bytes(), &[0xff; 32], &[0; 32]],
        )),
        no_levels(byte_arrays([
            be(-(10i128.pow(38)), 17),
            vec![0x01],
            vec![0xff, 0x7f],
        ])),
        no_levels(fixed_bytes(
            2,
            &[
                &F16::from_f32(1.5).to_le_bytes(),
                &F16::from_f32(-0.25).to_le_bytes(),
                &F16::INFINITY.to_le_bytes(),
            ],
        )),
        no_levels(fixed_bytes(16, &[&[1; 16], &[2; 16], &[0xff; 16]])),
        no_levels(fixed_bytes(3, &[b"abc", b"\0\0\0", b"xyz"])),
        no_levels(byte_arrays(["a", "", "ü"])),
        no_levels(byte_arrays(["RED", "GREEN", "RED"])),
        no_levels(byte_arrays(["{}", "[1]", "null"])),
        no_levels(byte_arrays([b"\x05\0\0\0\0".as_slice(), b"", b"\xff"])),
        no_levels(byte_arrays([b"\xff\xfe".as_slice(), b"", b"x"])),
        (ColumnValues::Int32(vec![]), vec![0, 0, 0], vec![]),
        no_levels(ColumnValues::Boolean(vec![true, false, true])),
        no_levels(ColumnValues::Float(vec![1.5, -0.0, f32::MAX])),
        no_levels(ColumnValues::Double(vec![f64::MIN, 0.1, 2.0])),
    ];
    let file = write_columns(schema, columns, WriterOptions::new());
    let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    assert_eq!(
        builder.schema().as_ref(),
        &parquet_to_arrow_schema(builder.parquet_schema(), None).unwrap()
    );
    let got = read_one(builder);

    let id = |k: &str| HashMap::from([("PARQUET:field_id".to_owned(), k.to_owned())]);
    // UUID and JSON as pyarrow 26 reads them: the extension types `arrow.uuid` and
    // `arrow.json` (ENUM stays text here, as arrow-rs reads it; pyarrow reads binary).
    let extension = |name: &str| {
        HashMap::from([
            ("ARROW:extension:name".to_owned(), name.to_owned()),
            ("ARROW:extension:metadata".to_owned(), String::new()),
        ])
    };
    let dec128 = |v: Vec<i128>, p, s| -> ArrayRef {
        Arc::new(
            Decimal128Array::from(v)
                .with_precision_and_scale(p, s)
                .unwrap(),
        )
    };
    let expected: Vec<(ArrowField, ArrayRef)> = vec![
        (
            ArrowField::new("i8", DataType::Int8, false),
            Arc::new(Int8Array::from(vec![-128, 0, 127])),
        ),
        (
            ArrowField::new("u8", DataType::UInt8, false),
            Arc::new(UInt8Array::from(vec![0, 255, 7])),
        ),
        (
            ArrowField::new("i16", DataType::Int16, false),
            Arc::new(Int16Array::from(vec![-32768, 1, 32767])),
        ),
        (
            ArrowField::new("u16", DataType::UInt16, false),
            Arc::new(UInt16Array::from(vec![65535, 0, 2])),
        ),
        (
            ArrowField::new("i32", DataType::Int32, false),
            Arc::new(Int32Array::from(vec![i32::MIN, 0, i32::MAX])),
        ),
        (
            ArrowField::new("u32", DataType::UInt32, false),
            Arc::new(UInt32Array::from(vec![u32::MAX, 0, 5])),
        ),
        (
            ArrowField::new("i32_plain", DataType::Int32, false).with_metadata(id("7")),
            Arc::new(Int32Array::from(vec![1, 2, 3])),
        ),
        (
            ArrowField::new("u64", DataType::UInt64, false),
            Arc::new(UInt64Array::from(vec![u64::MAX, 0, 9])),
        ),
        (
            ArrowField::new("i64", DataType::Int64, false),
            Arc::new(Int64Array::from(vec![i64::MIN, 0, i64::MAX])),
        ),
        (
            ArrowField::new("date", DataType::Date32, false),
            Arc::new(Date32Array::from(vec![-1, 0, 19_000])),
        ),
        (
            ArrowField::new("time_ms", DataType::Time32(TimeUnit::Millisecond), false),
            Arc::new(Time32MillisecondArray::from(vec![0, 1000, 86_399_999])),
        ),
        (
            ArrowField::new("time_us", DataType::Time64(TimeUnit::Microsecond), false),
            Arc::new(Time64MicrosecondArray::from(vec![0, 1, 86_399_999_999])),
        ),
        (
            ArrowField::new("time_ns", DataType::Time64(TimeUnit::Nanosecond), false),
            Arc::new(Time64NanosecondArray::from(vec![0, 1, 86_399_999_999_999])),
        ),
        (
            ArrowField::new(
                "ts_ms_utc",
                DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
                false,
            ),
            Arc::new(
                TimestampMillisecondArray::from(vec![-1, 0, 1_700_000_000_000])
                    .with_timezone("UTC"),
            ),
        ),
        (
            ArrowField::new(
                "ts_us_local",
                DataType::Timestamp(TimeUnit::Microsecond, None),
                false,
            ),
            Arc::new(TimestampMicrosecondArray::from(vec![
                -1,
                0,
                1_700_000_000_000_000,
            ])),
        ),
        (
            ArrowField::new(
                "ts_ns_utc",
                DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
                false,
            ),
            Arc::new(
                TimestampNanosecondArray::from(vec![i64::MIN, 0, i64::MAX]).with_timezone("UTC"),
            ),
        ),
        (
            ArrowField::new(
                "int96",
                DataType::Timestamp(TimeUnit::Nanosecond, None),
                false,
            ),
            Arc::new(TimestampNanosecondArray::from(vec![0, day + day / 2, -1])),
        ),
        (
            ArrowField::new("dec_i32", DataType::Decimal128(9, 2), false),
            dec128(vec![-999_999_999, 0, 12345], 9, 2),
        ),
        (
            ArrowField::new("dec_i64", DataType::Decimal128(18, 4), false),
            dec128(vec![-999_999_999_999_999_999, 1, 0], 18, 4),
        ),
        (
            ArrowField::new("dec_flba", DataType::Decimal128(11, 3), false),
            dec128(vec![-1, 99_999_999_999, 0], 11, 3),
        ),
        (
            ArrowField::new("dec_bytes", DataType::Decimal128(20, 0), false),
            dec128(vec![-2, 10i128.pow(19), 1], 20, 0),
        ),
        (
            ArrowField::new("dec_wide", DataType::Decimal256(76, 10), false),
            Arc::new(
                Decimal256Array::from(vec![big, i256::MINUS_ONE, i256::ZERO])
                    .with_precision_and_scale(76, 10)
                    .unwrap(),
            ),
        ),
        (
            ArrowField::new("dec_bytes_39", DataType::Decimal256(39, 1), false),
            Arc::new(
                Decimal256Array::from(vec![
                    i256::from_i128(-(10i128.pow(38))),
                    i256::ONE,
                    i256::from_i128(-129),
                ])
                .with_precision_and_scale(39, 1)
                .unwrap(),
            ),
        ),
        (
            ArrowField::new("f16", DataType::Float16, false),
            Arc::new(Float16Array::from(vec![
                F16::from_f32(1.5),
                F16::from_f32(-0.25),
                F16::INFINITY,
            ])),
        ),
        (
            ArrowField::new("uuid", DataType::FixedSizeBinary(16), false)
                .with_metadata(extension("arrow.uuid")),
            Arc::new(
                FixedSizeBinaryArray::try_from_iter([[1u8; 16], [2; 16], [0xff; 16]].into_iter())
                    .unwrap(),
            ),
        ),
        (
            ArrowField::new("flba", DataType::FixedSizeBinary(3), false),
            Arc::new(
                FixedSizeBinaryArray::try_from_iter([*b"abc", [0; 3], *b"xyz"].into_iter())
                    .unwrap(),
            ),
        ),
        (
            ArrowField::new("string", DataType::Utf8, false),
            Arc::new(StringArray::from(vec!["a", "", "ü"])),
        ),
        (
            // Bytes, as pyarrow reads ENUM.
            ArrowField::new("enum", DataType::Binary, false),
            Arc::new(BinaryArray::from(vec![&b"RED"[..], b"GREEN", b"RED"])),
        ),
        (
            ArrowField::new("json", DataType::Utf8, false).with_metadata(extension("arrow.json")),
            Arc::new(StringArray::from(vec!["{}", "[1]", "null"])),
        ),
        (
            ArrowField::new("bson", DataType::Binary, false),
            Arc::new(BinaryArray::from(vec![
                b"\x05\0\0\0\0".as_slice(),
                b"",
                b"\xff",
            ])),
        ),
        (
            ArrowField::new("bytes", DataType::Binary, false),
            Arc::new(BinaryArray::from(vec![b"\xff\xfe".as_slice(), b"", b"x"])),
        ),
        (
            ArrowField::new("unknown", DataType::Null, true),
            Arc::new(NullArray::new(3)),
        ),
        (
            ArrowField::new("bool", DataType::Boolean, false),
            Arc::new(BooleanArray::from(vec![true, false, true])),
        ),
        (
            ArrowField::new("float", DataType::Float32, false),
            Arc::new(Float32Array::from(vec![1.5, -0.0, f32::MAX])),
        ),
        (
            ArrowField::new("double", DataType::Float64, false),
            Arc::new(Float64Array::from(vec![f64::MIN, 0.1, 2.0])),
        ),
    ];
    let (fields, arrays): (Vec<_>, Vec<_>) = expected.into_iter().unzip();
    let expected = RecordBatch::try_new(Arc::new(ArrowSchema::new(fields)), arrays).unwrap();
    for (i, field) in expected.schema().fields().iter().enumerate() {
        assert_eq!(got.schema().field(i), field.as_ref());
        assert_eq!(
            got.column(i).as_ref(),
            expected.column(i).as_ref(),
            "column {}",
            field.name()
        );
    }
    assert_eq!(got, expected);
}

#[test]
fn natural_nested_types_without_a_stored_schema() {
    use PhysicalType as P;
    let fields = vec![
        SchemaField::list(
            "l",
            Repetition::Optional,
            SchemaField::optional("x", P::Int64),
        )
        .with_field_id(1),
        SchemaField::map(
            "m",
            Repetition::Optional,
            SchemaField::required("k", P::ByteArray).with_logical_type(LogicalType::String),
            Some(SchemaField::optional("v", P::Int32).with_field_id(3)),
        ),
        SchemaField::group(
            "s",
            Repetition::Optional,
            [SchemaField::required("a", P::Int32).with_field_id(5)],
        )
        .with_field_id(4),
    ];
    let schema = Schema::try_new("schema", fields).unwrap();
    // l: [1, null], null, [], [3]
    // m: {a: 1, b: null}, null, {}, {c: 2}
    // s: {a: 1}, null, {a: 2}, {a: 3}
    let columns: Vec<Column> = vec![
        (
            ColumnValues::Int64(vec![1, 3]),
            vec![3, 2, 0, 1, 3],
            vec![0, 1, 0, 0, 0],
        ),
        (
            byte_arrays(["a", "b", "c"]),
            vec![2, 2, 0, 1, 2],
            vec![0, 1, 0, 0, 0],
        ),
        (
            ColumnValues::Int32(vec![1, 2]),
            vec![3, 2, 0, 1, 3],
            vec![0, 1, 0, 0, 0],
        ),
        (ColumnValues::Int32(vec![1, 2, 3]), vec![1, 0, 1, 1], vec![]),
    ];
    let file = write_columns(schema, columns, WriterOptions::new());
    let got = read_one(ParquetRecordBatchReaderBuilder::try_new(file).unwrap());

    let id = |k: &str| HashMap::from([("PARQUET:field_id".to_owned(), k.to_owned())]);
    let l = ListArray::new(
        element(DataType::Int64, true),
        OffsetBuffer::from_lengths([2, 0, 0, 1]),
        Arc::new(Int64Array::from(vec![Some(1), None, Some(3)])),
        Some(NullBuffer::from(vec![true, false, true, true])),
    );
    let entries = Fields::from(vec![
        ArrowField::new("key", DataType::Utf8, false),
        ArrowField::new("value", DataType::Int32, true).with_metadata(id("3")),
    ]);
    let m = arrow_array::MapArray::new(
        Arc::new(ArrowField::new(
            "m",
            DataType::Struct(entries.clone()),
            false,
        )),
        OffsetBuffer::from_lengths([2, 0, 0, 1]),
        StructArray::new(
            entries,
            vec![
                Arc::new(StringArray::from(vec!["a", "b", "c"])),
                Arc::new(Int32Array::from(vec![Some(1), None, Some(2)])),
            ],
            None,
        ),
        Some(NullBuffer::from(vec![true, false, true, true])),
        false,
    );
    let s = StructArray::new(
        Fields::from(vec![
            ArrowField::new("a", DataType::Int32, false).with_metadata(id("5")),
        ]),
        vec![Arc::new(Int32Array::from(vec![1, 0, 2, 3]))],
        Some(NullBuffer::from(vec![true, false, true, true])),
    );
    let schema = ArrowSchema::new(vec![
        ArrowField::new("l", l.data_type().clone(), true).with_metadata(id("1")),
        ArrowField::new("m", m.data_type().clone(), true),
        ArrowField::new("s", s.data_type().clone(), true).with_metadata(id("4")),
    ]);
    let expected = RecordBatch::try_new(
        Arc::new(schema),
        vec![Arc::new(l), Arc::new(m), Arc::new(s)],
    )
    .unwrap();
    assert_eq!(got.schema(), expected.schema());
    assert_eq!(got, expected);
}

#[test]
fn legacy_lists() {
    use PhysicalType as P;
    let int_list = |name: &str, repeated: SchemaField| {
        SchemaField::group(name, Repetition::Optional, [repeated])
            .with_logical_type(LogicalType::List)
    };
    let fields = vec![
        // Two levels: the repeated field is the element.
        int_list("two_level", SchemaField::repeated("array", P::Int32)),
        // A bare repeated field: a required list of required elements.
        SchemaField::repeated("bare", P::Int32),
        // A bare repeated group: a required list of required structs.
        SchemaField::group(
            "bare_group",
            Repetition::Repeated,
            [
                SchemaField::required("x", P::Int32),
                SchemaField::optional("y", P::ByteArray).with_logical_type(LogicalType::String),
            ],
        ),
        // A repeated group of one field named `array`: the group is the element.
        int_list(
            "array_group",
            SchemaField::group(
                "array",
                Repetition::Repeated,
                [SchemaField::required("x", P::Int32)],
            ),
        ),
        // Named `<list>_tuple`: the group is the element.
        int_list(
            "t",
            SchemaField::group(
                "t_tuple",
                Repetition::Repeated,
                [SchemaField::required("x", P::Int32)],
            ),
        ),
        // Three levels with other names: the element is named as the file names it.
        int_list(
            "three",
            SchemaField::group(
                "bag",
                Repetition::Repeated,
                [SchemaField::optional("item", P::Int32)],
            ),
        ),
        // A map of keys only: a list of its keys.
        SchemaField::map(
            "keys",
            Repetition::Optional,
            SchemaField::required("key", P::ByteArray).with_logical_type(LogicalType::String),
            None,
        ),
    ];
    let schema = Schema::try_new("schema", fields).unwrap();
    // Rows: [1, 2], null, [], [3] for the optional ones; [1], [], [2, 3], [] for the
    // required ones.
    let optional = |values: ColumnValues, max: u16| -> Column {
        (values, vec![max, max, 0, 1, max], vec![0, 1, 0, 0, 0])
    };
    let columns: Vec<Column> = vec![
        optional(ColumnValues::Int32(vec![1, 2, 3]), 2),
        (
            ColumnValues::Int32(vec![1, 2, 3]),
            vec![1, 0, 1, 1, 0],
            vec![0, 0, 0, 1, 0],
        ),
        (
            ColumnValues::Int32(vec![1, 2, 3]),
            vec![1, 0, 1, 1, 0],
            vec![0, 0, 0, 1, 0],
        ),
        (
            byte_arrays(["y1"]),
            vec![2, 0, 1, 1, 0],
            vec![0, 0, 0, 1, 0],
        ),
        optional(ColumnValues::Int32(vec![1, 2, 3]), 2),
        optional(ColumnValues::Int32(vec![1, 2, 3]), 2),
        (
            ColumnValues::Int32(vec![1, 3]),
            vec![3, 2, 0, 1, 3],
            vec![0, 1, 0, 0, 0],
        ),
        optional(byte_arrays(["a", "b", "c"]), 2),
    ];
    let file = write_columns(schema, columns, WriterOptions::new());
    let got = read_one(ParquetRecordBatchReaderBuilder::try_new(file).unwrap());

    let optional_list = |field: Arc<ArrowField>, values: ArrayRef| -> ArrayRef {
        Arc::new(ListArray::new(
            field,
            OffsetBuffer::from_lengths([2, 0, 0, 1]),
            values,
            Some(NullBuffer::from(vec![true, false, true, true])),
        ))
    };
    let required_list = |field: Arc<ArrowField>, values: ArrayRef| -> ArrayRef {
        Arc::new(ListArray::new(
            field,
            OffsetBuffer::from_lengths([1, 0, 2, 0]),
            values,
            None,
        ))
    };
    let ints = || Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef;
    let x_struct = || {
        let fields = Fields::from(vec![ArrowField::new("x", DataType::Int32, false)]);
        (
            fields.clone(),
            Arc::new(StructArray::new(fields, vec![ints()], None)) as ArrayRef,
        )
    };
    let bare_group_fields = Fields::from(vec![
        ArrowField::new("x", DataType::Int32, false),
        ArrowField::new("y", DataType::Utf8, true),
    ]);
    let bare_group = StructArray::new(
        bare_group_fields.clone(),
        vec![
            ints(),
            Arc::new(StringArray::from(vec![Some("y1"), None, None])),
        ],
        None,
    );
    let (x_fields, x_values) = x_struct();
    let columns: Vec<(&str, ArrayRef, bool)> = vec![
        (
            "two_level",
            optional_list(
                Arc::new(ArrowField::new("array", DataType::Int32, false)),
                ints(),
            ),
            true,
        ),
        (
            "bare",
            required_list(
                Arc::new(ArrowField::new("bare", DataType::Int32, false)),
                ints(),
            ),
            false,
        ),
        (
            "bare_group",
            required_list(
                Arc::new(ArrowField::new(
                    "bare_group",
                    DataType::Struct(bare_group_fields),
                    false,
                )),
                Arc::new(bare_group),
            ),
            false,
        ),
        (
            "array_group",
            optional_list(
                Arc::new(ArrowField::new(
                    "array",
                    DataType::Struct(x_fields.clone()),
                    false,
                )),
                x_values.clone(),
            ),
            true,
        ),
        (
            "t",
            optional_list(
                Arc::new(ArrowField::new(
                    "t_tuple",
                    DataType::Struct(x_fields),
                    false,
                )),
                x_values,
            ),
            true,
        ),
        (
            "three",
            Arc::new(ListArray::new(
                Arc::new(ArrowField::new("item", DataType::Int32, true)),
                OffsetBuffer::from_lengths([2, 0, 0, 1]),
                Arc::new(Int32Array::from(vec![Some(1), None, Some(3)])),
                Some(NullBuffer::from(vec![true, false, true, true])),
            )),
            true,
        ),
        (
            "keys",
            optional_list(
                Arc::new(ArrowField::new("key", DataType::Utf8, false)),
                Arc::new(StringArray::from(vec!["a", "b", "c"])),
            ),
            true,
        ),
    ];
    let expected = RecordBatch::try_from_iter_with_nullable(columns).unwrap();
    for (i, field) in expected.schema().fields().iter().enumerate() {
        assert_eq!(got.schema().field(i), field.as_ref());
        assert_eq!(
            got.column(i).as_ref(),
            expected.column(i).as_ref(),
            "column {}",
            field.name()
        );
    }
    assert_eq!(got, expected);
}

#[test]
fn names_with_dots_are_one_name() {
    // A top-level `a.b` beside a struct `a` with a field `b`.
    let a = StructArray::new(
        Fields::from(vec![ArrowField::new("b", DataType::Int32, true)]),
        vec![Arc::new(Int32Array::from(vec![10, 20, 30]))],
        None,
    );
    let batch = RecordBatch::try_from_iter([
        ("a.b", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef),
        ("a", Arc::new(a) as ArrayRef),
    ])
    .unwrap();
    let file = write(&batch.schema(), std::slice::from_ref(&batch), None);
    let builder = || ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    let got = read_one(builder().with_projection(ProjectionMask::columns(["a.b"])));
    assert_eq!(got, project(&batch, &["a.b"]));
    let got =
        read_one(builder().with_projection(ProjectionMask::paths([ColumnPath::new(["a", "b"])])));
    assert_eq!(got, project(&batch, &["a"]));
    let got = read_one(builder().with_predicate(Predicate::compare("a.b", Op::Ge, 2)));
    assert_eq!(got, batch.slice(1, 2));
    let got = read_one(builder().with_predicate(Predicate::compare(["a", "b"], Op::Ge, 20)));
    assert_eq!(got, batch.slice(1, 2));
}

/// INT96 with a stored unit and time zone (pyarrow's `coerce_int96_timestamp_unit`
/// stores the unit): pyarrow 26 reads `timestamp[ns]`, without the time zone.
#[test]
fn int96_with_a_stored_unit_and_zone() {
    let schema =
        Schema::try_new("schema", [SchemaField::optional("t", PhysicalType::Int96)]).unwrap();
    let stored = ArrowSchema::new(vec![ArrowField::new(
        "t",
        DataType::Timestamp(TimeUnit::Millisecond, Some("Europe/Paris".into())),
        true,
    )]);
    let day = 86_400_000_000_000i64;
    let file = write_columns(
        schema,
        vec![(
            ColumnValues::Int96(vec![int96(day + 1_500_000), int96(-2_000_000)]),
            vec![1, 0, 1],
            vec![],
        )],
        WriterOptions::new().with_key_value(
            ARROW_SCHEMA_META_KEY,
            Some(parquet_arrow::encode_arrow_schema(&stored)),
        ),
    );
    let got = read_one(ParquetRecordBatchReaderBuilder::try_new(file).unwrap());
    let expected =
        TimestampNanosecondArray::from(vec![Some(day + 1_500_000), None, Some(-2_000_000)]);
    assert_eq!(got.column(0).as_ref(), &expected as &dyn Array);
}

/// Time zones and timestamp types from a stored schema, as pyarrow 26 reads them
/// (checked with pyarrow on this very file): a zone only replaces `UTC` (a local
/// timestamp stays local, one adjusted to UTC stays `UTC` when the stored type has no
/// zone), the unit is the file's, and an INT64 without annotation stays an Int64.
#[test]
fn stored_time_zones_as_pyarrow_reads_them() {
    use PhysicalType as P;
    let ts = |unit, utc| LogicalType::Timestamp { unit, utc };
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::optional("local", P::Int64).with_logical_type(ts(Unit::Millis, false)),
            SchemaField::optional("utc", P::Int64).with_logical_type(ts(Unit::Millis, true)),
            SchemaField::optional("plain", P::Int64),
            SchemaField::optional("utc_stored_local", P::Int64)
                .with_logical_type(ts(Unit::Micros, true)),
        ],
    )
    .unwrap();
    let paris = || Some("Europe/Paris".into());
    let stored = ArrowSchema::new(vec![
        ArrowField::new(
            "local",
            DataType::Timestamp(TimeUnit::Second, paris()),
            true,
        ),
        ArrowField::new(
            "utc",
            DataType::Timestamp(TimeUnit::Nanosecond, Some("Asia/Tokyo".into())),
            true,
        ),
        ArrowField::new(
            "plain",
            DataType::Timestamp(TimeUnit::Microsecond, paris()),
            true,
        ),
        ArrowField::new(
            "utc_stored_local",
            DataType::Timestamp(TimeUnit::Microsecond, None),
            true,
        ),
    ]);
    let one = || (ColumnValues::Int64(vec![5000]), vec![1u16], vec![]);
    let file = write_columns(
        schema,
        vec![one(), one(), one(), one()],
        WriterOptions::new().with_key_value(
            ARROW_SCHEMA_META_KEY,
            Some(parquet_arrow::encode_arrow_schema(&stored)),
        ),
    );
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let types: Vec<DataType> = builder
        .schema()
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    assert_eq!(
        types,
        [
            DataType::Timestamp(TimeUnit::Millisecond, None),
            DataType::Timestamp(TimeUnit::Millisecond, Some("Asia/Tokyo".into())),
            DataType::Int64,
            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
        ]
    );
}

#[test]
fn legacy_list_of_lists() {
    use PhysicalType as P;
    // `optional group a (LIST) { repeated group array (LIST) { repeated int32 array; } }`:
    // `Schema::try_new` refuses a LIST whose element is repeated, so the annotation of
    // `a` is added to the footer's elements.
    let inner = SchemaField::group(
        "array",
        Repetition::Repeated,
        [SchemaField::repeated("array", P::Int32)],
    )
    .with_logical_type(LogicalType::List);
    let base = Schema::try_new(
        "schema",
        [SchemaField::group("a", Repetition::Optional, [inner])],
    )
    .unwrap();
    let mut elements = base.to_elements();
    elements[1].converted_type = elements[2].converted_type;
    elements[1].logical_type = elements[2].logical_type.clone();
    let schema = Schema::try_from_elements(&elements, &Limits::default()).unwrap();
    assert_eq!(schema.node(1).unwrap().logical_type, LogicalType::List);
    // [[1, 2], []], null, [], [[3]]
    let columns: Vec<Column> = vec![(
        ColumnValues::Int32(vec![1, 2, 3]),
        vec![3, 3, 2, 0, 1, 3],
        vec![0, 2, 1, 0, 0, 0],
    )];
    let file = write_columns(schema, columns, WriterOptions::new());
    let got = read_one(ParquetRecordBatchReaderBuilder::try_new(file).unwrap());
    let inner = ListArray::new(
        Arc::new(ArrowField::new("array", DataType::Int32, false)),
        OffsetBuffer::from_lengths([2, 0, 1]),
        Arc::new(Int32Array::from(vec![1, 2, 3])),
        None,
    );
    let outer = ListArray::new(
        Arc::new(ArrowField::new("array", inner.data_type().clone(), false)),
        OffsetBuffer::from_lengths([2, 0, 0, 1]),
        Arc::new(inner),
        Some(NullBuffer::from(vec![true, false, true, true])),
    );
    let expected = RecordBatch::try_from_iter([("a", Arc::new(outer) as ArrayRef)]).unwrap();
    assert_eq!(got, expected);
}
