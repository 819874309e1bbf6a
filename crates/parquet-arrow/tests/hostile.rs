//! Files that lie to the Arrow reader: list columns that disagree, column chunks shorter
//! than their row group, text that is not UTF-8, decimals too wide for Arrow, stored
//! Arrow schemas that are garbage or do not fit, footers whose types contradict the
//! pages, truncated and bit-flipped files. Each gives an error or a correct fallback,
//! never a panic.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::too_many_lines,
    clippy::single_range_in_vec_init
)] // Small generated values; selections of one range.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, Int32Array, Int64Array, ListArray, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field as ArrowField, Fields, Schema as ArrowSchema, TimeUnit};
use common::{byte_arrays, write_columns};
use parquet_arrow::{
    ARROW_SCHEMA_META_KEY, ArrowWriter, ParquetRecordBatchReaderBuilder, ProjectionMask,
    encode_arrow_schema,
};
use parquet_file::{
    Bytes, ColumnValues, FileReader, FixedLenByteArrayBatch, LogicalType, PhysicalType, Repetition,
    RowSelection, Schema, SchemaField, TimeUnit as Unit, WriterOptions,
};

/// `options` with `schema` stored as the file's `ARROW:schema`.
fn with_stored(options: WriterOptions, schema: &ArrowSchema) -> WriterOptions {
    options.with_key_value(ARROW_SCHEMA_META_KEY, Some(encode_arrow_schema(schema)))
}

/// Every batch of `file` (with `batch_size` rows at most), or the first error: from
/// opening, building or reading. A panic fails the test.
fn read_all(file: &Bytes, batch_size: usize) -> Result<Vec<RecordBatch>, String> {
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(file.clone()).map_err(|e| e.to_string())?;
    let reader = builder
        .with_batch_size(batch_size)
        .build()
        .map_err(|e| e.to_string())?;
    reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// The rows of `file` as one batch (none failing).
fn read_one(file: &Bytes) -> RecordBatch {
    let batches = read_all(file, 1024).unwrap();
    let schema = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .schema()
        .clone();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// The error reading `file`, at several batch sizes (each must fail).
fn read_error(file: &Bytes) -> String {
    let mut first = None;
    for batch_size in [1, 2, 1024] {
        match read_all(file, batch_size) {
            Ok(batches) => panic!("read at batch size {batch_size}: {batches:?}"),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    first.unwrap()
}

/// `file` with its footer rewritten by `$change` (given the footer as parquet.thrift's
/// `FileMetaData`, as `$m`). The pages and page indexes stay where they were.
macro_rules! rewrite_footer {
    ($file:expr, |$m:ident| $change:block) => {{
        let file: &Bytes = &$file;
        let reader = FileReader::open(file.clone()).unwrap();
        #[allow(unused_mut)]
        let mut $m = reader.metadata().to_thrift();
        $change
        let mut footer = Vec::new();
        $m.write_to(&mut footer).unwrap();
        let old = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
        let start = file.len() - 8 - old as usize;
        let mut out = file[..start].to_vec();
        out.extend_from_slice(&footer);
        out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
        out.extend_from_slice(b"PAR1");
        Bytes::from(out)
    }};
}

/// A file of `id: int32` and `name: utf8` (10 rows), without a stored schema.
fn two_columns() -> Bytes {
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::required("id", PhysicalType::Int32),
            SchemaField::optional("name", PhysicalType::ByteArray)
                .with_logical_type(LogicalType::String),
            SchemaField::required("big", PhysicalType::Int64),
        ],
    )
    .unwrap();
    write_columns(
        schema,
        vec![
            (ColumnValues::Int32((0..10).collect()), vec![], vec![]),
            (
                byte_arrays((0..9).map(|i| format!("n{i}"))),
                (0..10).map(|i| u16::from(i != 4)).collect(),
                vec![],
            ),
            (
                ColumnValues::Int64((0..10).map(|i| i << 40).collect()),
                vec![],
                vec![],
            ),
        ],
        WriterOptions::new(),
    )
}

#[test]
fn a_footer_rewritten_unchanged_reads_the_same() {
    let file = two_columns();
    let same = rewrite_footer!(file, |m| {});
    assert_eq!(read_one(&same), read_one(&file));
    assert_eq!(read_one(&file).num_rows(), 10);
}

#[test]
fn list_columns_that_disagree_on_lengths() {
    use PhysicalType as P;
    // l: list<struct<a: int32, b: int32>>: levels of `a` and `b` that give the same
    // records different lists.
    let schema = || {
        Schema::try_new(
            "schema",
            [SchemaField::list(
                "l",
                Repetition::Optional,
                SchemaField::group(
                    "element",
                    Repetition::Optional,
                    [
                        SchemaField::optional("a", P::Int32),
                        SchemaField::optional("b", P::Int32),
                    ],
                ),
            )],
        )
        .unwrap()
    };
    // Row 0: two elements in `a`, three in `b`.
    let file = write_columns(
        schema(),
        vec![
            (ColumnValues::Int32(vec![1, 2]), vec![4, 4], vec![0, 1]),
            (
                ColumnValues::Int32(vec![1, 2, 3]),
                vec![4, 4, 4],
                vec![0, 1, 1],
            ),
        ],
        WriterOptions::new(),
    );
    let error = read_error(&file);
    assert!(error.contains("lengths differ"), "{error}");
    // Each alone reads.
    for leaf in [0, 1] {
        let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_projection(ProjectionMask::leaves([leaf]))
            .build()
            .unwrap();
        assert_eq!(reader.map(|b| b.unwrap().num_rows()).sum::<usize>(), 1);
    }

    // A null list in `a`, a list of one element in `b`.
    let file = write_columns(
        schema(),
        vec![
            (ColumnValues::Int32(vec![]), vec![0], vec![0]),
            (ColumnValues::Int32(vec![5]), vec![4], vec![0]),
        ],
        WriterOptions::new(),
    );
    read_error(&file);

    // A map whose keys and values disagree.
    let schema = Schema::try_new(
        "schema",
        [SchemaField::map(
            "m",
            Repetition::Optional,
            SchemaField::required("key", P::Int32),
            Some(SchemaField::optional("value", P::Int32)),
        )],
    )
    .unwrap();
    let file = write_columns(
        schema,
        vec![
            (
                ColumnValues::Int32(vec![1, 2, 3]),
                vec![2, 2, 2],
                vec![0, 1, 0],
            ),
            (ColumnValues::Int32(vec![7]), vec![3, 1], vec![0, 0]),
        ],
        WriterOptions::new(),
    );
    read_error(&file);
}

#[test]
fn struct_columns_that_disagree_on_nulls() {
    use PhysicalType as P;
    // s: struct<a: int32, b: int32>, nullable: `a` says row 0's struct is null, `b`
    // that it holds a value. Either answer is fine; no panic.
    let schema = Schema::try_new(
        "schema",
        [SchemaField::group(
            "s",
            Repetition::Optional,
            [
                SchemaField::required("a", P::Int32),
                SchemaField::required("b", P::Int32),
            ],
        )],
    )
    .unwrap();
    let file = write_columns(
        schema,
        vec![
            (ColumnValues::Int32(vec![2]), vec![0, 1], vec![]),
            (ColumnValues::Int32(vec![1, 2]), vec![1, 1], vec![]),
        ],
        WriterOptions::new(),
    );
    if let Ok(batches) = read_all(&file, 1024) {
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows, 2);
    }
}

#[test]
fn column_chunks_with_fewer_records_than_their_row_group() {
    let file = two_columns();
    // The row group (and the file) claim 11 rows; the chunks hold 10.
    let longer = rewrite_footer!(file, |m| {
        m.num_rows += 1;
        m.row_groups[0].num_rows += 1;
    });
    assert_eq!(
        FileReader::open(longer.clone())
            .unwrap()
            .metadata()
            .row_groups()[0]
            .num_rows(),
        11
    );
    let error = read_error(&longer);
    assert!(error.contains("records"), "{error}");
    // A selection of the rows that are not there.
    let reader = ParquetRecordBatchReaderBuilder::try_new(longer.clone())
        .unwrap()
        .with_row_selection(RowSelection::from_ranges([8..11]))
        .build()
        .unwrap();
    assert!(reader.collect::<Result<Vec<_>, _>>().is_err());
    // Only the rows that are: fine.
    let reader = ParquetRecordBatchReaderBuilder::try_new(longer)
        .unwrap()
        .with_row_selection(RowSelection::from_ranges([2..5]))
        .build()
        .unwrap();
    if let Ok(batches) = reader.collect::<Result<Vec<_>, _>>() {
        assert_eq!(batches.iter().map(RecordBatch::num_rows).sum::<usize>(), 3);
    }

    // Claims of fewer rows, or none: the rows claimed, or an error.
    for rows in [9, 1, 0] {
        let shorter = rewrite_footer!(file, |m| {
            m.num_rows = rows;
            m.row_groups[0].num_rows = rows;
        });
        if let Ok(batches) = read_all(&shorter, 4) {
            assert!(batches.iter().map(RecordBatch::num_rows).sum::<usize>() <= rows as usize);
        }
    }
    // Row groups whose rows do not add up to the file's.
    let mismatched = rewrite_footer!(file, |m| {
        m.num_rows = 1000;
    });
    let _ = read_all(&mismatched, 1024);
}

#[test]
fn footer_types_that_contradict_the_pages() {
    let file = two_columns();
    // `id` (INT32 pages) declared INT64, in the schema and the chunk; `big` the other way.
    let swapped = rewrite_footer!(file, |m| {
        let int64 = m.schema[3].type_;
        let int32 = m.schema[1].type_;
        m.schema[1].type_ = int64;
        m.schema[3].type_ = int32;
        let chunks = &mut m.row_groups[0].columns;
        let (a, b) = (
            chunks[0].meta_data.as_ref().unwrap().type_,
            chunks[2].meta_data.as_ref().unwrap().type_,
        );
        chunks[0].meta_data.as_mut().unwrap().type_ = b;
        chunks[2].meta_data.as_mut().unwrap().type_ = a;
    });
    let _ = read_all(&swapped, 3);
    // Only the schema changed.
    let schema_only = rewrite_footer!(file, |m| {
        let int64 = m.schema[3].type_;
        m.schema[1].type_ = int64;
    });
    let _ = read_all(&schema_only, 3);
    // `name` declared a FIXED_LEN_BYTE_ARRAY(2).
    let flba = Schema::try_new(
        "schema",
        [SchemaField::fixed_len_byte_array(
            "f",
            Repetition::Optional,
            2,
        )],
    )
    .unwrap();
    let flba = flba.to_elements()[1].type_;
    let fixed = rewrite_footer!(file, |m| {
        m.schema[2].type_ = flba;
        m.schema[2].type_length = Some(2);
        m.schema[2].converted_type = None;
        m.schema[2].logical_type = None;
        m.row_groups[0].columns[1].meta_data.as_mut().unwrap().type_ = flba.unwrap();
    });
    let _ = read_all(&fixed, 3);
}

#[test]
fn text_that_is_not_utf8_is_an_error() {
    use PhysicalType as P;
    let schema = || {
        Schema::try_new(
            "schema",
            [SchemaField::optional("s", P::ByteArray).with_logical_type(LogicalType::String)],
        )
        .unwrap()
    };
    let values: [&[&[u8]]; 4] = [
        &[b"ok", b"\xff\xfe"],
        // Valid bytes as a whole, but a value ends inside a character.
        &[b"\xc3", b"\xa9"],
        // Long enough not to be inline in a view.
        &[b"a long value, longer than twelve bytes \xe0\x80"],
        &[b"fine", b"also fine", b"\xed\xa0\x80"],
    ];
    for values in values {
        let n = values.len();
        // The values, then a null.
        let columns = || {
            vec![(
                byte_arrays(values.iter()),
                (0..=n).map(|i| u16::from(i < n)).collect(),
                vec![],
            )]
        };
        for stored in [
            None,
            Some(DataType::LargeUtf8),
            Some(DataType::Utf8View),
            Some(DataType::Dictionary(
                Box::new(DataType::Int32),
                Box::new(DataType::Utf8),
            )),
            Some(DataType::Dictionary(
                Box::new(DataType::Int8),
                Box::new(DataType::LargeUtf8),
            )),
        ] {
            let mut options = WriterOptions::new();
            if let Some(data_type) = &stored {
                options = with_stored(
                    options,
                    &ArrowSchema::new(vec![ArrowField::new("s", data_type.clone(), true)]),
                );
            }
            for dictionary in [true, false] {
                let file = write_columns(
                    schema(),
                    columns(),
                    options.clone().with_dictionary(dictionary),
                );
                let error = read_error(&file);
                assert!(!error.is_empty(), "{stored:?}");
            }
        }
    }
    // As binary (no annotation), the same bytes read.
    let schema = Schema::try_new("schema", [SchemaField::optional("s", P::ByteArray)]).unwrap();
    let file = write_columns(
        schema,
        vec![(
            byte_arrays([b"\xff".as_slice(), b"\xc3"]),
            vec![1, 1],
            vec![],
        )],
        WriterOptions::new(),
    );
    assert_eq!(
        read_one(&file).column(0).as_binary::<i32>().value(0),
        b"\xff"
    );
}

#[test]
fn decimals_too_wide_for_arrow() {
    use PhysicalType as P;
    let decimal = |precision| LogicalType::Decimal {
        scale: 0,
        precision,
    };
    let file_of = |width: usize, precision: i32, values: Vec<u8>| {
        let schema = Schema::try_new(
            "schema",
            [
                SchemaField::fixed_len_byte_array("d", Repetition::Required, width)
                    .with_logical_type(decimal(precision)),
            ],
        )
        .unwrap();
        let values = FixedLenByteArrayBatch::from_bytes(width, values).unwrap();
        write_columns(
            schema,
            vec![(ColumnValues::FixedLenByteArray(values), vec![], vec![])],
            WriterOptions::new(),
        )
    };
    // 40 bytes, a precision Decimal256 holds: the values do not fit 32 bytes.
    let file = file_of(40, 50, [vec![0u8; 39], vec![1]].concat());
    let error = read_error(&file);
    assert!(error.contains("32 bytes"), "{error}");
    // A precision past Decimal256's: no Arrow type.
    let file = file_of(40, 90, vec![0xff; 40]);
    assert!(ParquetRecordBatchReaderBuilder::try_new(file.clone()).is_err());
    assert!(read_all(&file, 1).is_err());
    // 20 bytes for a precision Decimal128 holds, as Arrow C++ refuses it too.
    let file = file_of(20, 30, vec![0; 20]);
    read_error(&file);

    // A BYTE_ARRAY decimal with a value of 40 bytes, and one of none.
    let schema = Schema::try_new(
        "schema",
        [SchemaField::required("d", P::ByteArray).with_logical_type(decimal(40))],
    )
    .unwrap();
    let file = write_columns(
        schema.clone(),
        vec![(byte_arrays([vec![1u8; 40]]), vec![], vec![])],
        WriterOptions::new(),
    );
    read_error(&file);
    let file = write_columns(
        schema,
        vec![(byte_arrays([Vec::<u8>::new()]), vec![], vec![])],
        WriterOptions::new(),
    );
    let _ = read_all(&file, 1);
}

/// A file of `s: utf8`, `i: int32`, `l: list<int64>` (`[1, 2]`, `[]`, null), `t:
/// timestamp(ms)`, `d: decimal(9, 2)` (3 rows), with `stored` as its `ARROW:schema` value.
fn file_with_stored(stored: Option<String>) -> Bytes {
    use PhysicalType as P;
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::optional("s", P::ByteArray).with_logical_type(LogicalType::String),
            SchemaField::required("i", P::Int32),
            SchemaField::list(
                "l",
                Repetition::Optional,
                SchemaField::required("x", P::Int64),
            ),
            SchemaField::required("t", P::Int64).with_logical_type(LogicalType::Timestamp {
                unit: Unit::Millis,
                utc: false,
            }),
            SchemaField::required("d", P::Int32).with_logical_type(LogicalType::Decimal {
                scale: 2,
                precision: 9,
            }),
        ],
    )
    .unwrap();
    let mut options = WriterOptions::new();
    if let Some(value) = stored {
        options = options.with_key_value(ARROW_SCHEMA_META_KEY, Some(value));
    }
    write_columns(
        schema,
        vec![
            (byte_arrays(["a", "b"]), vec![1, 0, 1], vec![]),
            (ColumnValues::Int32(vec![1, 2, 3]), vec![], vec![]),
            (
                ColumnValues::Int64(vec![1, 2]),
                vec![2, 2, 1, 0],
                vec![0, 1, 0, 0],
            ),
            (
                ColumnValues::Int64(vec![1, i64::MAX / 10, -5]),
                vec![],
                vec![],
            ),
            (ColumnValues::Int32(vec![100, -1, 0]), vec![], vec![]),
        ],
        options,
    )
}

/// The natural reading of `file_with_stored`.
fn natural() -> RecordBatch {
    read_one(&file_with_stored(None))
}

#[test]
fn stored_schemas_that_do_not_decode_are_ignored() {
    let natural = natural();
    assert_eq!(natural.schema().field(0).data_type(), &DataType::Utf8);
    for garbage in [
        "not base64!!".to_owned(),
        String::new(),
        "AAAA".to_owned(),
        "/////wgAAAAAAAAAAAAAAA==".to_owned(),
        base64_of(&[
            0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
            15, 16,
        ]),
        base64_of(&[0xff; 64]),
    ] {
        let got = read_one(&file_with_stored(Some(garbage.clone())));
        assert_eq!(got, natural, "{garbage:?}");
    }
    // A stored schema without a value.
    let schema =
        Schema::try_new("schema", [SchemaField::required("i", PhysicalType::Int32)]).unwrap();
    let file = write_columns(
        schema,
        vec![(ColumnValues::Int32(vec![1]), vec![], vec![])],
        WriterOptions::new().with_key_value(ARROW_SCHEMA_META_KEY, None),
    );
    assert_eq!(read_one(&file).column(0).data_type(), &DataType::Int32);
}

/// Base64 of `bytes` (as the stored schema is written).
fn base64_of(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn stored_types_that_do_not_fit_fall_back_to_the_natural_ones() {
    let natural = natural();
    let fields = natural.schema().fields().clone();
    let with = |name: &str, data_type: DataType| {
        ArrowSchema::new(
            fields
                .iter()
                .map(|f| {
                    if f.name() == name {
                        Arc::new(ArrowField::new(name, data_type.clone(), true))
                    } else {
                        f.clone()
                    }
                })
                .collect::<Vec<_>>(),
        )
    };
    let struct_of = |name: &str| {
        DataType::Struct(Fields::from(vec![ArrowField::new(
            name,
            DataType::Int32,
            true,
        )]))
    };
    for stored in [
        with("s", DataType::Int32),
        with("s", DataType::Binary),
        with("s", struct_of("x")),
        with(
            "s",
            DataType::List(Arc::new(ArrowField::new("x", DataType::Utf8, true))),
        ),
        with(
            "s",
            DataType::Dictionary(Box::new(DataType::Utf8), Box::new(DataType::Utf8)),
        ),
        with(
            "s",
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Binary)),
        ),
        with("i", DataType::Utf8),
        with("i", DataType::Int64),
        with("i", DataType::Int8),
        with("i", DataType::Float32),
        with("i", DataType::Timestamp(TimeUnit::Second, None)),
        with("l", DataType::Int64),
        with("l", struct_of("x")),
        with(
            "l",
            DataType::List(Arc::new(ArrowField::new("x", DataType::Utf8, false))),
        ),
        with(
            "l",
            DataType::Map(
                Arc::new(ArrowField::new(
                    "entries",
                    DataType::Struct(Fields::from(vec![
                        ArrowField::new("key", DataType::Int64, false),
                        ArrowField::new("value", DataType::Int64, true),
                    ])),
                    false,
                )),
                false,
            ),
        ),
        with("t", DataType::Utf8),
        with("t", DataType::Int32),
        with("d", DataType::Decimal128(10, 2)),
        with("d", DataType::Decimal128(9, 3)),
        with("d", DataType::Int32),
        // No field of the file's names.
        ArrowSchema::new(vec![ArrowField::new("other", DataType::LargeUtf8, true)]),
        ArrowSchema::empty(),
    ] {
        let text = format!("{stored:?}");
        let got = read_one(&file_with_stored(Some(encode_arrow_schema(&stored))));
        for (i, field) in natural.schema().fields().iter().enumerate() {
            let read = got.schema().field(i).clone();
            if read.data_type() == field.data_type() {
                assert_eq!(got.column(i).as_ref(), natural.column(i).as_ref(), "{text}");
            } else {
                // A stored type that was taken must be one of the fitting ones, which
                // the other tests check; here only `s`, `i` and `t` could be.
                panic!("{text}: {} read as {}", field.name(), read.data_type());
            }
        }
    }
}

#[test]
fn stored_types_that_fit_the_type_but_not_the_values() {
    let natural = natural();
    let fields = natural.schema().fields().clone();
    let with = |name: &str, data_type: DataType| {
        ArrowSchema::new(
            fields
                .iter()
                .map(|f| {
                    if f.name() == name {
                        Arc::new(ArrowField::new(name, data_type.clone(), f.is_nullable()))
                    } else {
                        f.clone()
                    }
                })
                .collect::<Vec<_>>(),
        )
    };
    // Lists of 2, 0 and null elements as fixed-size lists of 2: an error (row 1 is an
    // empty, not a null, list).
    let element = Arc::new(ArrowField::new("x", DataType::Int64, false));
    let file = file_with_stored(Some(encode_arrow_schema(&with(
        "l",
        DataType::FixedSizeList(element.clone(), 2),
    ))));
    let error = read_error(&file);
    assert!(error.contains("fixed-size"), "{error}");
    let file = file_with_stored(Some(encode_arrow_schema(&with(
        "l",
        DataType::FixedSizeList(element.clone(), 3),
    ))));
    read_error(&file);
    // A negative size is not a fixed-size list.
    let file = file_with_stored(Some(encode_arrow_schema(&with(
        "l",
        DataType::FixedSizeList(element, -1),
    ))));
    let _ = read_all(&file, 1);

    // Another unit: the file's is kept (as pyarrow keeps it), so that milliseconds past
    // the range of nanoseconds read, and none is truncated to seconds.
    for unit in [TimeUnit::Nanosecond, TimeUnit::Second] {
        let file = file_with_stored(Some(encode_arrow_schema(&with(
            "t",
            DataType::Timestamp(unit, None),
        ))));
        let got = read_one(&file);
        assert_eq!(
            got.column(3)
                .as_primitive::<arrow_array::types::TimestampMillisecondType>()
                .values()
                .to_vec(),
            [1, i64::MAX / 10, -5]
        );
    }

    // A stored non-nullable field for an optional column that has nulls: the file's
    // nullability wins.
    let file = file_with_stored(Some(encode_arrow_schema(&ArrowSchema::new(vec![
        ArrowField::new("s", DataType::LargeUtf8, false),
    ]))));
    let got = read_one(&file);
    assert!(got.schema().field(0).is_nullable());
    assert_eq!(got.column(0).null_count(), 1);
    assert_eq!(got.column(0).data_type(), &DataType::LargeUtf8);
}

#[test]
fn dictionaries_with_more_values_than_their_keys_hold() {
    // 300 distinct strings as Dictionary(Int8, Utf8): more than 127 in a batch is an
    // error, fewer reads.
    let schema = Arc::new(ArrowSchema::new(vec![ArrowField::new_dictionary(
        "d",
        DataType::Int8,
        DataType::Utf8,
        false,
    )]));
    let plain = Schema::try_new(
        "schema",
        [SchemaField::required("d", PhysicalType::ByteArray)
            .with_logical_type(LogicalType::String)],
    )
    .unwrap();
    let file = write_columns(
        plain,
        vec![(
            byte_arrays((0..300).map(|i| format!("v{i}"))),
            vec![],
            vec![],
        )],
        with_stored(WriterOptions::new(), &schema),
    );
    let error = read_all(&file, 300).unwrap_err();
    assert!(error.contains("distinct"), "{error}");
    let batches = read_all(&file, 100).unwrap();
    assert_eq!(batches.len(), 3);
    let first = batches[0]
        .column(0)
        .as_dictionary::<arrow_array::types::Int8Type>();
    assert_eq!(first.values().len(), 100);
}

/// A file of nested columns (lists, structs, a map, strings, dictionaries) in small
/// pages, without page checksums, so that corrupt bytes reach the decoders.
fn nested_file(crc: bool) -> Bytes {
    let n = 60;
    let ints = Int32Array::from(
        (0..n)
            .map(|k| (k % 4 != 0).then_some(k))
            .collect::<Vec<_>>(),
    );
    let names = StringArray::from(
        (0..n)
            .map(|k| (k % 3 != 0).then(|| format!("name {k}")))
            .collect::<Vec<_>>(),
    );
    let s = StructArray::new(
        Fields::from(vec![
            ArrowField::new("a", DataType::Int32, true),
            ArrowField::new("b", DataType::Utf8, true),
        ]),
        vec![Arc::new(ints.clone()), Arc::new(names.clone())],
        Some(NullBuffer::from(
            (0..n).map(|k| k % 5 != 1).collect::<Vec<_>>(),
        )),
    );
    let list = ListArray::new(
        Arc::new(ArrowField::new("element", DataType::Int32, true)),
        OffsetBuffer::from_lengths((0..n as usize).map(|k| k % 3)),
        Arc::new(Int32Array::from(
            (0..n)
                .map(|k| (k % 7 != 0).then_some(k))
                .collect::<Vec<_>>(),
        )),
        Some(NullBuffer::from(
            (0..n).map(|k| k % 4 != 2).collect::<Vec<_>>(),
        )),
    );
    let mut map = arrow_array::builder::MapBuilder::new(
        None,
        arrow_array::builder::StringBuilder::new(),
        arrow_array::builder::Int64Builder::new(),
    );
    for k in 0..n {
        for e in 0..k % 3 {
            map.keys().append_value(format!("k{e}"));
            map.values().append_option((e != 1).then_some(i64::from(k)));
        }
        map.append(k % 6 != 5).unwrap();
    }
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..i64::from(n))) as ArrayRef,
        ),
        ("s", Arc::new(s) as ArrayRef),
        ("list", Arc::new(list) as ArrayRef),
        ("map", Arc::new(map.finish()) as ArrayRef),
        ("names", Arc::new(names) as ArrayRef),
    ])
    .unwrap();
    let options = WriterOptions::new()
        .with_crc(crc)
        .with_page_rows(7)
        .with_row_group_rows(25)
        .with_compression(parquet_file::Codec::Uncompressed);
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), Some(options)).unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
    Bytes::from(writer.into_inner())
}

/// Reads `file` (all rows; a projection and a selection in small batches), returning
/// the message of a panic if anything panicked.
fn panics(file: &Bytes) -> Option<String> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let _ = read_all(file, 1024);
        if let Ok(builder) = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            && let Ok(reader) = builder
                .with_projection(ProjectionMask::columns(["list", "map"]))
                .with_row_selection(RowSelection::from_ranges([3..9, 30..31]))
                .with_batch_size(3)
                .build()
        {
            for batch in reader {
                if batch.is_err() {
                    break;
                }
            }
        }
    }));
    result.err().map(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    })
}

#[test]
fn truncated_files_are_errors() {
    let file = nested_file(true);
    assert!(read_all(&file, 1024).is_ok());
    let mut panicked = Vec::new();
    for len in (0..file.len())
        .rev()
        .step_by(7)
        .chain(file.len() - 12..file.len())
    {
        let truncated = file.slice(..len);
        if let Some(message) = panics(&truncated) {
            panicked.push((len, message));
        }
        assert!(read_all(&truncated, 1024).is_err(), "{len}");
    }
    assert!(panicked.is_empty(), "{panicked:?}");
}

#[test]
fn corrupt_bytes_never_panic() {
    for crc in [false, true] {
        let file = nested_file(crc);
        let batch = read_all(&file, 1024).unwrap();
        assert_eq!(batch.iter().map(RecordBatch::num_rows).sum::<usize>(), 60);
        let footer_start = {
            let len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
            file.len() - 8 - len as usize
        };
        let mut panicked = Vec::new();
        // Without checksums, every third byte of the pages and every byte of the footer
        // (and its length), flipped whole or by one bit; with checksums, a few bytes of
        // the pages.
        let positions: Vec<usize> = if crc {
            (0..footer_start).step_by(17).collect()
        } else {
            (0..footer_start)
                .step_by(3)
                .chain(footer_start..file.len())
                .collect()
        };
        for (i, &position) in positions.iter().enumerate() {
            let flip = [0xff, 0x01, 0x80, 0x10][i % 4];
            let mut bytes = file.to_vec();
            bytes[position] ^= flip;
            if let Some(message) = panics(&Bytes::from(bytes)) {
                panicked.push((position, flip, message));
            }
        }
        assert!(
            panicked.is_empty(),
            "crc {crc}: {} panics: {:?}",
            panicked.len(),
            &panicked[..panicked.len().min(5)]
        );
    }
}

#[test]
fn arrays_of_a_wrong_list_element_count_in_the_stored_schema() {
    // The stored schema says `list<struct<a>>` where the file has `list<int64>`: the
    // natural type.
    let stored = ArrowSchema::new(vec![ArrowField::new(
        "l",
        DataType::List(Arc::new(ArrowField::new(
            "x",
            DataType::Struct(Fields::from(vec![ArrowField::new(
                "a",
                DataType::Int32,
                true,
            )])),
            true,
        ))),
        true,
    )]);
    let got = read_one(&file_with_stored(Some(encode_arrow_schema(&stored))));
    let natural = natural();
    assert_eq!(got, natural);
    assert_eq!(got.column(2).as_list::<i32>().value_type(), DataType::Int64);
}
