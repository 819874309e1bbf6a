//! ORC files written by `orc-file` read back as Arrow record batches: every type, nulls
//! at every level, both file versions, several stripes; projection, batch size, limit,
//! offset and predicates.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss
)]

use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal128Array, Float32Array,
    Float64Array, Int8Array, Int16Array, Int32Array, Int64Array, ListArray, MapArray, RecordBatch,
    RecordBatchReader, StringArray, StructArray, TimestampNanosecondArray, UnionArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, TimeUnit, UnionFields, UnionMode};
use orc_file::{Kind, OrcVersion, OrcWriter, TypeDescription, WriterOptions};
use parquet_arrow::{Error, OrcRecordBatchReaderBuilder, orc_to_arrow_schema};
use parquet_core::{Field as Value, Op, Predicate, Row, TimeUnit as Unit};

const SCHEMA: &str = "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,\
    str:string,vc:varchar(4),ch:char(3),bin:binary,ts:timestamp,\
    tsl:timestamp with local time zone,dt:date,dec:decimal(12,3),lst:array<int>,\
    m:map<string,int>,st:struct<a:int,b:string>,u:uniontype<int,string>>";

/// Rows in the test file: enough for several stripes and row groups.
const ROWS: usize = 5000;

/// The row index stride of the test file.
const STRIDE: usize = 500;

// The values of row `i`, column by column (`None` is null).

fn b(i: usize) -> Option<bool> {
    (!i.is_multiple_of(5)).then_some(i.is_multiple_of(2))
}
fn t(i: usize) -> Option<i8> {
    (i % 7 != 1).then_some((i % 256) as u8 as i8)
}
fn s(i: usize) -> Option<i16> {
    (i % 7 != 2).then_some((i * 37 % 65536) as u16 as i16)
}
fn int(i: usize) -> Option<i32> {
    (!i.is_multiple_of(11)).then_some((i as i32 - 2500) * 800_003)
}
fn l(i: usize) -> Option<i64> {
    (!i.is_multiple_of(13)).then_some((i as i64 - 1000) * 1_000_000_007_000)
}
fn f(i: usize) -> Option<f32> {
    (!i.is_multiple_of(3)).then_some(i as f32 * 0.5)
}
fn d(i: usize) -> Option<f64> {
    (i % 4 != 1).then_some(-(i as f64) * 0.25)
}
fn text(i: usize) -> Option<String> {
    // Few distinct values: a dictionary.
    (!i.is_multiple_of(6)).then(|| format!("k{}é", i % 20))
}
fn vc(i: usize) -> Option<String> {
    // Many distinct values: direct.
    (!i.is_multiple_of(9)).then(|| format!("{:04}", i * 7 % 10000))
}
fn ch(i: usize) -> Option<String> {
    (i % 10 != 3).then(|| (i % 100).to_string())
}
fn bin(i: usize) -> Option<Vec<u8>> {
    (i % 8 != 3).then(|| vec![i as u8; i % 5])
}
fn ts(i: usize) -> Option<i64> {
    // From 1922 to 2017, before and after 1970, with nanoseconds; none within the
    // second before 1970, which ORC cannot tell from the second after (see
    // `the_second_before_1970_reads_as_pyarrow_reads_it`).
    let v = -1_500_000_000_987_654_321 + i as i64 * 600_000_000_123_457;
    (i % 9 != 2).then_some(if (-1_000_000_000..0).contains(&v) {
        v - 1_000_000_000
    } else {
        v
    })
}
fn tsl(i: usize) -> Option<i64> {
    (i % 9 != 7).then_some(1_000_000_000_123_456_789 - i as i64 * 100_000_000_000_011)
}
fn dt(i: usize) -> Option<i32> {
    (!i.is_multiple_of(10)).then_some(i as i32 * 17 - 20000)
}
fn dec(i: usize) -> Option<i128> {
    (!i.is_multiple_of(12)).then_some((i as i128 - 2500) * 12_345_679)
}
fn lst(i: usize) -> Option<Vec<Option<i32>>> {
    (i % 9 != 4).then(|| {
        (0..i % 4)
            .map(|j| (!(i + j).is_multiple_of(5)).then_some((i + j) as i32))
            .collect()
    })
}
fn m(i: usize) -> Option<Vec<(String, Option<i32>)>> {
    (i % 10 != 5).then(|| {
        (0..i % 3)
            .map(|j| {
                (
                    format!("k{j}"),
                    (!(i + j).is_multiple_of(4)).then_some((i * j) as i32),
                )
            })
            .collect()
    })
}
fn st(i: usize) -> Option<(Option<i32>, Option<String>)> {
    (!i.is_multiple_of(8)).then(|| {
        (
            (!i.is_multiple_of(3)).then_some(i as i32),
            (!i.is_multiple_of(4)).then(|| format!("b{i}")),
        )
    })
}
#[derive(Clone)]
enum U {
    Int(Option<i32>),
    Str(Option<String>),
}
fn u(i: usize) -> Option<U> {
    (i % 6 != 5).then(|| {
        if i.is_multiple_of(2) {
            U::Int((!i.is_multiple_of(7)).then_some(i as i32))
        } else {
            U::Str((!i.is_multiple_of(7)).then(|| format!("u{i}")))
        }
    })
}

fn opt<T>(value: Option<T>, f: impl FnOnce(T) -> Value) -> Value {
    value.map_or(Value::Null, f)
}

fn group(fields: Vec<(&str, Value)>) -> Value {
    Value::Group(fields.into_iter().map(|(n, v)| (Arc::from(n), v)).collect())
}

fn timestamp(value: i64, utc: bool) -> Value {
    Value::Timestamp {
        value: value.into(),
        unit: Unit::Nanos,
        utc,
    }
}

/// The columns of the test file: ORC v0 has no `timestamp with local time zone`.
fn columns(version: OrcVersion) -> Vec<&'static str> {
    ALL.into_iter()
        .filter(|&c| c != "tsl" || version == OrcVersion::V0_12)
        .collect()
}

fn row(i: usize, version: OrcVersion) -> Row {
    let values = vec![
        ("b", opt(b(i), Value::Bool)),
        ("t", opt(t(i), |v| Value::Int(v.into()))),
        ("s", opt(s(i), |v| Value::Int(v.into()))),
        ("i", opt(int(i), |v| Value::Int(v.into()))),
        ("l", opt(l(i), Value::Int)),
        ("f", opt(f(i), Value::Float)),
        ("d", opt(d(i), Value::Double)),
        ("str", opt(text(i), Value::Str)),
        ("vc", opt(vc(i), Value::Str)),
        ("ch", opt(ch(i), Value::Str)),
        ("bin", opt(bin(i), Value::Bytes)),
        ("ts", opt(ts(i), |v| timestamp(v, false))),
        ("tsl", opt(tsl(i), |v| timestamp(v, true))),
        ("dt", opt(dt(i), Value::Date)),
        (
            "dec",
            opt(dec(i), |unscaled| Value::Decimal { unscaled, scale: 3 }),
        ),
        (
            "lst",
            opt(lst(i), |l| {
                Value::List(
                    l.into_iter()
                        .map(|e| opt(e, |v| Value::Int(v.into())))
                        .collect(),
                )
            }),
        ),
        (
            "m",
            opt(m(i), |m| {
                Value::Map(
                    m.into_iter()
                        .map(|(k, v)| (Value::Str(k), opt(v, |v| Value::Int(v.into()))))
                        .collect(),
                )
            }),
        ),
        (
            "st",
            opt(st(i), |(a, b)| {
                group(vec![
                    ("a", opt(a, |v| Value::Int(v.into()))),
                    ("b", opt(b, Value::Str)),
                ])
            }),
        ),
        (
            "u",
            opt(u(i), |u| match u {
                U::Int(v) => group(vec![
                    ("tag", Value::Int(0)),
                    ("value", opt(v, |v| Value::Int(v.into()))),
                ]),
                U::Str(v) => group(vec![("tag", Value::Int(1)), ("value", opt(v, Value::Str))]),
            }),
        ),
    ];
    let columns = columns(version);
    Row::new(
        values
            .into_iter()
            .filter(|(n, _)| columns.contains(n))
            .map(|(n, v)| (Arc::from(n), v))
            .collect(),
    )
}

/// An ORC file of `ROWS` rows of `SCHEMA` in several stripes.
fn file(version: OrcVersion) -> Vec<u8> {
    let options = WriterOptions::default()
        .version(version)
        .stripe_size(16 * 1024)
        .row_index_stride(STRIDE);
    let mut schema = SCHEMA.to_owned();
    if version == OrcVersion::V0_11 {
        schema = schema.replace("tsl:timestamp with local time zone,", "");
    }
    let schema = TypeDescription::parse(&schema).unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
    for i in 0..ROWS {
        writer.write_row(&row(i, version)).unwrap();
    }
    writer.add_user_metadata("origin", b"tests/orc.rs".to_vec());
    writer.finish().unwrap()
}

fn nullable(name: &str, data_type: DataType) -> Field {
    Field::new(name, data_type, true)
}

fn map_entries() -> Arc<Field> {
    let fields = Fields::from(vec![
        Field::new("key", DataType::Utf8, false),
        nullable("value", DataType::Int32),
    ]);
    Arc::new(Field::new("entries", DataType::Struct(fields), false))
}

fn struct_fields() -> Fields {
    Fields::from(vec![
        nullable("a", DataType::Int32),
        nullable("b", DataType::Utf8),
    ])
}

fn union_fields() -> UnionFields {
    UnionFields::try_new(
        [0, 1],
        [
            nullable("_union_0", DataType::Int32),
            nullable("_union_1", DataType::Utf8),
        ],
    )
    .unwrap()
}

fn nulls_of<T>(values: &[Option<T>]) -> NullBuffer {
    values.iter().map(Option::is_some).collect()
}

/// The expected arrays of rows `0..ROWS`, column by column, built from the values.
#[allow(clippy::too_many_lines)]
fn expected() -> Vec<(&'static str, ArrayRef)> {
    let rows = 0..ROWS;
    let lists: Vec<_> = rows.clone().map(lst).collect();
    let maps: Vec<_> = rows.clone().map(m).collect();
    let structs: Vec<_> = rows.clone().map(st).collect();
    let unions: Vec<_> = rows.clone().map(u).collect();

    let map = {
        let offsets =
            OffsetBuffer::from_lengths(maps.iter().map(|m| m.as_ref().map_or(0, Vec::len)));
        let entries: Vec<&(String, Option<i32>)> = maps.iter().flatten().flatten().collect();
        let keys = StringArray::from_iter_values(entries.iter().map(|(k, _)| k));
        let values = entries.iter().map(|(_, v)| *v).collect::<Int32Array>();
        let DataType::Struct(fields) = map_entries().data_type().clone() else {
            unreachable!()
        };
        let entries = StructArray::new(fields, vec![Arc::new(keys), Arc::new(values)], None);
        MapArray::new(
            map_entries(),
            offsets,
            entries,
            Some(nulls_of(&maps)),
            false,
        )
    };
    let strukt = {
        let a = structs
            .iter()
            .map(|s| s.as_ref().and_then(|s| s.0))
            .collect::<Int32Array>();
        let b = structs
            .iter()
            .map(|s| s.as_ref().and_then(|s| s.1.clone()))
            .collect::<StringArray>();
        StructArray::new(
            struct_fields(),
            vec![Arc::new(a), Arc::new(b)],
            Some(nulls_of(&structs)),
        )
    };
    let union = {
        let type_ids: Vec<i8> = unions
            .iter()
            .map(|u| i8::from(matches!(u, Some(U::Str(_)))))
            .collect();
        let ints = unions
            .iter()
            .map(|u| match u {
                Some(U::Int(v)) => *v,
                _ => None,
            })
            .collect::<Int32Array>();
        let strs = unions
            .iter()
            .map(|u| match u {
                Some(U::Str(v)) => v.clone(),
                _ => None,
            })
            .collect::<StringArray>();
        UnionArray::try_new(
            union_fields(),
            ScalarBuffer::from(type_ids),
            None,
            vec![Arc::new(ints), Arc::new(strs)],
        )
        .unwrap()
    };
    vec![
        ("b", Arc::new(rows.clone().map(b).collect::<BooleanArray>())),
        ("t", Arc::new(rows.clone().map(t).collect::<Int8Array>())),
        ("s", Arc::new(rows.clone().map(s).collect::<Int16Array>())),
        ("i", Arc::new(rows.clone().map(int).collect::<Int32Array>())),
        ("l", Arc::new(rows.clone().map(l).collect::<Int64Array>())),
        ("f", Arc::new(rows.clone().map(f).collect::<Float32Array>())),
        ("d", Arc::new(rows.clone().map(d).collect::<Float64Array>())),
        (
            "str",
            Arc::new(rows.clone().map(text).collect::<StringArray>()),
        ),
        (
            "vc",
            Arc::new(rows.clone().map(vc).collect::<StringArray>()),
        ),
        (
            "ch",
            // A char is padded with spaces to its length.
            Arc::new(
                rows.clone()
                    .map(|i| ch(i).map(|c| format!("{c:<3}")))
                    .collect::<StringArray>(),
            ),
        ),
        (
            "bin",
            Arc::new(rows.clone().map(bin).collect::<BinaryArray>()),
        ),
        (
            "ts",
            Arc::new(rows.clone().map(ts).collect::<TimestampNanosecondArray>()),
        ),
        (
            "tsl",
            Arc::new(
                rows.clone()
                    .map(tsl)
                    .collect::<TimestampNanosecondArray>()
                    .with_timezone("UTC"),
            ),
        ),
        (
            "dt",
            Arc::new(rows.clone().map(dt).collect::<Date32Array>()),
        ),
        (
            "dec",
            Arc::new(
                rows.clone()
                    .map(dec)
                    .collect::<Decimal128Array>()
                    .with_precision_and_scale(12, 3)
                    .unwrap(),
            ),
        ),
        (
            "lst",
            Arc::new(ListArray::from_iter_primitive::<Int32Type, _, _>(lists)),
        ),
        ("m", Arc::new(map)),
        ("st", Arc::new(strukt)),
        ("u", Arc::new(union)),
    ]
}

fn read_all(reader: impl RecordBatchReader) -> Vec<RecordBatch> {
    reader.collect::<Result<_, _>>().unwrap()
}

/// Checks that `batches` hold `rows` of the expected columns named `columns`.
fn check(batches: &[RecordBatch], columns: &[&str], rows: &[usize]) {
    let expected = expected();
    let mut at = 0;
    for batch in batches {
        assert_eq!(batch.num_columns(), columns.len());
        for (k, name) in columns.iter().enumerate() {
            let (_, array) = expected.iter().find(|(n, _)| n == name).unwrap();
            assert_eq!(batch.schema().field(k).name(), name);
            for (j, &row) in rows[at..at + batch.num_rows()].iter().enumerate() {
                let got = batch.column(k).slice(j, 1);
                let want = array.slice(row, 1);
                assert_eq!(got.as_ref(), want.as_ref(), "column {name}, row {row}");
            }
        }
        at += batch.num_rows();
    }
    assert_eq!(at, rows.len());
}

const ALL: [&str; 19] = [
    "b", "t", "s", "i", "l", "f", "d", "str", "vc", "ch", "bin", "ts", "tsl", "dt", "dec", "lst",
    "m", "st", "u",
];

#[test]
fn every_type_reads_back_in_both_versions() {
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let bytes = file(version);
        let builder = OrcRecordBatchReaderBuilder::try_new(bytes).unwrap();
        assert!(builder.orc_reader().stripes().len() > 2, "{version:?}");
        let schema = Arc::clone(builder.schema());
        assert_eq!(
            schema.metadata().get("origin").map(String::as_str),
            Some("tests/orc.rs")
        );
        let reader = builder.build().unwrap();
        assert_eq!(reader.schema(), schema);
        let batches = read_all(reader);
        // Whole batches compare at once, besides the row-by-row check.
        let columns = columns(version);
        let expected: Vec<_> = expected()
            .into_iter()
            .filter(|(n, _)| columns.contains(n))
            .collect();
        let mut at = 0;
        for batch in &batches {
            assert_eq!(batch.num_columns(), columns.len());
            for (k, (name, array)) in expected.iter().enumerate() {
                let want = array.slice(at, batch.num_rows());
                assert_eq!(
                    batch.column(k).as_ref(),
                    want.as_ref(),
                    "{version:?} {name}"
                );
            }
            at += batch.num_rows();
        }
        assert_eq!(at, ROWS);
    }
}

#[test]
fn schema_is_pyarrows() {
    let schema = orc_to_arrow_schema(&TypeDescription::parse(SCHEMA).unwrap()).unwrap();
    let want: Vec<Field> = expected()
        .into_iter()
        .map(|(name, array)| nullable(name, array.data_type().clone()))
        .collect();
    assert_eq!(
        schema
            .fields()
            .iter()
            .map(|f| f.as_ref().clone())
            .collect::<Vec<_>>(),
        want
    );
    assert_eq!(
        schema.field_with_name("u").unwrap().data_type(),
        &DataType::Union(union_fields(), UnionMode::Sparse)
    );
    assert_eq!(
        schema.field_with_name("tsl").unwrap().data_type(),
        &DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
    );
}

#[test]
fn batches_hold_at_most_the_batch_size() {
    let reader = OrcRecordBatchReaderBuilder::try_new(file(OrcVersion::V0_12))
        .unwrap()
        .with_batch_size(333)
        .build()
        .unwrap();
    let batches = read_all(reader);
    assert!(
        batches
            .iter()
            .all(|b| b.num_rows() <= 333 && b.num_rows() > 0)
    );
    assert!(batches.len() >= ROWS / 333);
    check(&batches, &ALL, &(0..ROWS).collect::<Vec<_>>());
}

#[test]
fn projection_keeps_the_files_order_and_struct_fields() {
    let builder = OrcRecordBatchReaderBuilder::try_new(file(OrcVersion::V0_12))
        .unwrap()
        .with_projection(["st.b", "l", "u"]);
    let reader = builder.build().unwrap();
    let schema = reader.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["l", "st", "u"]);
    let b_only = Fields::from(vec![nullable("b", DataType::Utf8)]);
    assert_eq!(
        schema.field(1).data_type(),
        &DataType::Struct(b_only.clone())
    );
    let batches = read_all(reader);

    let structs: Vec<_> = (0..ROWS).map(st).collect();
    let b = structs
        .iter()
        .map(|s| s.as_ref().and_then(|s| s.1.clone()))
        .collect::<StringArray>();
    let want = StructArray::new(b_only, vec![Arc::new(b)], Some(nulls_of(&structs)));
    let mut at = 0;
    for batch in &batches {
        let got = batch.column(1);
        assert_eq!(
            got.as_ref(),
            &want.slice(at, batch.num_rows()) as &dyn Array
        );
        at += batch.num_rows();
    }
    check(
        &batches_without(&batches, 1),
        &["l", "u"],
        &(0..ROWS).collect::<Vec<_>>(),
    );
}

/// The batches without column `k`.
fn batches_without(batches: &[RecordBatch], k: usize) -> Vec<RecordBatch> {
    batches
        .iter()
        .map(|b| {
            let keep: Vec<usize> = (0..b.num_columns()).filter(|&c| c != k).collect();
            b.project(&keep).unwrap()
        })
        .collect()
}

#[test]
fn no_columns_still_counts_rows() {
    let reader = OrcRecordBatchReaderBuilder::try_new(file(OrcVersion::V0_11))
        .unwrap()
        .with_projection(Vec::<String>::new())
        .build()
        .unwrap();
    let batches = read_all(reader);
    assert!(batches.iter().all(|b| b.num_columns() == 0));
    assert_eq!(
        batches.iter().map(RecordBatch::num_rows).sum::<usize>(),
        ROWS
    );
}

#[test]
fn offset_and_limit() {
    for (offset, limit) in [(0, 1), (1234, 777), (4990, 100), (ROWS, 5), (7, 0)] {
        let reader = OrcRecordBatchReaderBuilder::try_new(file(OrcVersion::V0_12))
            .unwrap()
            .with_projection(["i", "lst", "str"])
            .with_batch_size(100)
            .with_offset(offset)
            .with_limit(limit)
            .build()
            .unwrap();
        let batches = read_all(reader);
        let rows: Vec<usize> = (offset..ROWS).take(limit).collect();
        check(&batches, &["i", "str", "lst"], &rows);
    }
}

/// Whether row `i` matches.
type Holds = Box<dyn Fn(usize) -> bool>;

#[test]
fn predicate_filters_rows_exactly() {
    // A predicate on a column that is not projected, and one on a struct field.
    let cases: Vec<(Predicate, Holds)> = vec![
        (
            Predicate::compare("l", Op::Ge, 3_000_000_021_000_000_i64),
            Box::new(|i| l(i).is_some_and(|v| v >= 3_000_000_021_000_000)),
        ),
        (
            Predicate::compare("i", Op::Lt, -1_000_000_000).or(Predicate::is_null("str")),
            Box::new(|i| int(i).is_some_and(|v| v < -1_000_000_000) || text(i).is_none()),
        ),
        (
            Predicate::compare(parquet_core::ColumnPath::new(["st", "b"]), Op::Eq, "b4001"),
            Box::new(|i| st(i).and_then(|s| s.1).is_some_and(|b| b == "b4001")),
        ),
        (
            Predicate::compare("str", Op::Eq, "k3é").negate(),
            Box::new(|i| text(i).is_none_or(|s| s != "k3é")),
        ),
        (
            Predicate::compare("dec", Op::Gt, 30_000).and(Predicate::is_not_null("d")),
            Box::new(|i| dec(i).is_some_and(|v| v > 30_000_000) && d(i).is_some()),
        ),
        (
            Predicate::compare("ts", Op::Lt, 0),
            Box::new(|i| ts(i).is_some_and(|v| v < 0)),
        ),
    ];
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let bytes = file(version);
        for (predicate, holds) in &cases {
            let rows: Vec<usize> = (0..ROWS).filter(|&i| holds(i)).collect();
            assert!(!rows.is_empty(), "{predicate:?}");
            let reader = OrcRecordBatchReaderBuilder::try_new(bytes.clone())
                .unwrap()
                .with_projection(["i", "vc", "m", "u"])
                .with_predicate(predicate.clone())
                .with_batch_size(256)
                .build()
                .unwrap();
            let batches = read_all(reader);
            assert!(batches.iter().all(|b| b.num_rows() > 0));
            check(&batches, &["i", "vc", "m", "u"], &rows);

            // After the filter: the offset and limit count matching rows.
            let reader = OrcRecordBatchReaderBuilder::try_new(bytes.clone())
                .unwrap()
                .with_projection(["l"])
                .with_predicate(predicate.clone())
                .with_offset(3)
                .with_limit(40)
                .build()
                .unwrap();
            let want: Vec<usize> = rows.iter().copied().skip(3).take(40).collect();
            check(&read_all(reader), &["l"], &want);
        }
    }
}

#[test]
fn predicate_ruling_out_everything_reads_nothing() {
    let reader = OrcRecordBatchReaderBuilder::try_new(file(OrcVersion::V0_12))
        .unwrap()
        .with_predicate(Predicate::compare("l", Op::Gt, i64::MAX))
        .build()
        .unwrap();
    assert!(read_all(reader).is_empty());
}

#[test]
fn bad_columns_are_argument_errors() {
    let bytes = file(OrcVersion::V0_12);
    let build = |f: &dyn Fn(
        OrcRecordBatchReaderBuilder<Vec<u8>>,
    ) -> OrcRecordBatchReaderBuilder<Vec<u8>>| {
        f(OrcRecordBatchReaderBuilder::try_new(bytes.clone()).unwrap()).build()
    };
    assert!(matches!(
        build(&|b| b.with_projection(["nope"])),
        Err(Error::Argument(_))
    ));
    assert!(matches!(
        build(&|b| b.with_projection(["st.c"])),
        Err(Error::Argument(_))
    ));
    let under_list = Predicate::is_null(parquet_core::ColumnPath::new(["lst", "x"]));
    assert!(matches!(
        build(&|b| b.with_predicate(under_list.clone())),
        Err(Error::Argument(_))
    ));
    let missing = Predicate::compare("zz", Op::Eq, 1);
    assert!(matches!(
        build(&|b| b.with_predicate(missing.clone())),
        Err(Error::Argument(_))
    ));
}

#[test]
fn not_orc_is_an_error() {
    assert!(OrcRecordBatchReaderBuilder::try_new(b"PAR1 not an orc file".to_vec()).is_err());
    let mut bytes = file(OrcVersion::V0_12);
    bytes.truncate(bytes.len() / 2);
    assert!(OrcRecordBatchReaderBuilder::try_new(bytes).is_err());
}

#[test]
fn corrupt_stripes_are_errors_not_panics() {
    let bytes = file(OrcVersion::V0_12);
    // Flip bytes in the stripes' data: every outcome but a panic is fine.
    for at in (3..bytes.len() / 2).step_by(997) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        let Ok(builder) = OrcRecordBatchReaderBuilder::try_new(bad) else {
            continue;
        };
        if let Ok(reader) = builder.build() {
            for batch in reader {
                if batch.is_err() {
                    break;
                }
            }
        }
    }
}

/// A small file of nested types, with arrays written out by hand.
#[test]
#[allow(clippy::too_many_lines)]
fn nested_types_with_nulls_at_every_level() {
    let schema = TypeDescription::parse(
        "struct<x:array<struct<y:array<int>,m:map<int,uniontype<int,struct<q:string>>>>>>",
    )
    .unwrap();
    let rows = [
        // [{y: [1, null], m: {1: <1, {q: "z"}>, 2: null}}, null]
        Value::List(vec![
            group(vec![
                ("y", Value::List(vec![Value::Int(1), Value::Null])),
                (
                    "m",
                    Value::Map(vec![
                        (
                            Value::Int(1),
                            group(vec![
                                ("tag", Value::Int(1)),
                                ("value", group(vec![("q", Value::Str("z".into()))])),
                            ]),
                        ),
                        (Value::Int(2), Value::Null),
                    ]),
                ),
            ]),
            Value::Null,
        ]),
        Value::Null,
        // [{y: null, m: {3: <0, 7>}}]
        Value::List(vec![group(vec![
            ("y", Value::Null),
            (
                "m",
                Value::Map(vec![(
                    Value::Int(3),
                    group(vec![("tag", Value::Int(0)), ("value", Value::Int(7))]),
                )]),
            ),
        ])]),
        Value::List(vec![]),
    ];
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let options = WriterOptions::default().version(version);
        let mut writer = OrcWriter::new(Vec::new(), schema.clone(), options).unwrap();
        for x in &rows {
            writer
                .write_row(&Row::new(vec![(Arc::from("x"), x.clone())]))
                .unwrap();
        }
        let bytes = writer.finish().unwrap();
        let batches = read_all(
            OrcRecordBatchReaderBuilder::try_new(bytes)
                .unwrap()
                .build()
                .unwrap(),
        );
        assert_eq!(batches.len(), 1);

        // The union: slots are entries (1, 2, 3).
        let q = Fields::from(vec![nullable("q", DataType::Utf8)]);
        let union_fields = UnionFields::try_new(
            [0, 1],
            [
                nullable("_union_0", DataType::Int32),
                nullable("_union_1", DataType::Struct(q.clone())),
            ],
        )
        .unwrap();
        let union = UnionArray::try_new(
            union_fields.clone(),
            ScalarBuffer::from(vec![1, 0, 0]),
            None,
            vec![
                Arc::new(Int32Array::from(vec![None, None, Some(7)])),
                Arc::new(StructArray::new(
                    q,
                    vec![Arc::new(StringArray::from(vec![Some("z"), None, None]))],
                    Some(NullBuffer::from(vec![true, false, false])),
                )),
            ],
        )
        .unwrap();
        let entry_fields = Fields::from(vec![
            Field::new("key", DataType::Int32, false),
            nullable("value", DataType::Union(union_fields, UnionMode::Sparse)),
        ]);
        let entries = Arc::new(Field::new(
            "entries",
            DataType::Struct(entry_fields.clone()),
            false,
        ));
        let map = MapArray::new(
            entries,
            OffsetBuffer::new(vec![0, 2, 2, 3].into()),
            StructArray::new(
                entry_fields,
                vec![Arc::new(Int32Array::from(vec![1, 2, 3])), Arc::new(union)],
                None,
            ),
            Some(NullBuffer::from(vec![true, false, true])),
            false,
        );
        let y = ListArray::new(
            Arc::new(nullable("item", DataType::Int32)),
            OffsetBuffer::new(vec![0, 2, 2, 2].into()),
            Arc::new(Int32Array::from(vec![Some(1), None])),
            Some(NullBuffer::from(vec![true, false, false])),
        );
        let item_fields = Fields::from(vec![
            nullable("y", y.data_type().clone()),
            nullable("m", map.data_type().clone()),
        ]);
        let items = StructArray::new(
            item_fields.clone(),
            vec![Arc::new(y), Arc::new(map)],
            Some(NullBuffer::from(vec![true, false, true])),
        );
        let x = ListArray::new(
            Arc::new(nullable("item", DataType::Struct(item_fields))),
            OffsetBuffer::new(vec![0, 2, 2, 3, 3].into()),
            Arc::new(items),
            Some(NullBuffer::from(vec![true, false, true, true])),
        );
        assert_eq!(
            batches[0].column(0).as_ref(),
            &x as &dyn Array,
            "{version:?}"
        );
    }
}

#[test]
fn v0_decimals_are_brought_to_scale_6() {
    let schema = TypeDescription::struct_of([("d", TypeDescription::unbounded_decimal())]);
    let values = [
        (5, 0),
        (123_456_789, 8),
        (-123_456_789, 8),
        (-15, 7),
        (12, 1),
    ];
    let options = WriterOptions::default().version(OrcVersion::V0_11);
    let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
    for (unscaled, scale) in values {
        let row = Row::new(vec![(Arc::from("d"), Value::Decimal { unscaled, scale })]);
        writer.write_row(&row).unwrap();
    }
    writer.write_row(&Row::new(vec![])).unwrap();
    let bytes = writer.finish().unwrap();
    let batches = read_all(
        OrcRecordBatchReaderBuilder::try_new(bytes)
            .unwrap()
            .build()
            .unwrap(),
    );
    // As pyarrow reads them: truncated toward zero.
    let want = Decimal128Array::from(vec![
        Some(5_000_000),
        Some(1_234_567),
        Some(-1_234_567),
        Some(-1),
        Some(1_200_000),
        None,
    ])
    .with_precision_and_scale(38, 6)
    .unwrap();
    assert_eq!(batches[0].column(0).as_ref(), &want as &dyn Array);
}

#[test]
fn a_null_map_key_is_an_error() {
    let schema = TypeDescription::parse("struct<m:map<string,int>>").unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    let map = Value::Map(vec![(Value::Null, Value::Int(1))]);
    writer
        .write_row(&Row::new(vec![(Arc::from("m"), map)]))
        .unwrap();
    let bytes = writer.finish().unwrap();
    let mut reader = OrcRecordBatchReaderBuilder::try_new(bytes)
        .unwrap()
        .build()
        .unwrap();
    let error = reader.next().unwrap().unwrap_err();
    assert!(error.to_string().contains("null key"), "{error}");
    assert!(reader.next().is_none());
}

#[test]
fn type_attributes_and_empty_files() {
    let int = TypeDescription::primitive(Kind::Int).unwrap();
    let schema = TypeDescription::struct_of([("a", int.with_attribute("k", "v"))]);
    let writer = OrcWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    let bytes = writer.finish().unwrap();
    let builder = OrcRecordBatchReaderBuilder::try_new(bytes).unwrap();
    let field = builder.schema().field(0).clone();
    assert_eq!(field.metadata().get("k").map(String::as_str), Some("v"));
    assert!(builder.schema().metadata().is_empty());
    assert!(read_all(builder.build().unwrap()).is_empty());
}

/// ORC stores a time before 1970 as seconds truncated toward zero and the nanoseconds
/// of the second; Apache ORC's readers take whole seconds below zero with a fraction
/// of a millisecond or more as one too late, so the second before 1970 cannot be told
/// from the second after. The values are pyarrow's for the same file.
#[test]
fn the_second_before_1970_reads_as_pyarrow_reads_it() {
    let written = [
        -1,
        -999_999,
        -1_000_000,
        -500_000_000,
        -999_999_999,
        -1_000_000_000,
        -1_500_000_000,
        -86_400_000_000_000_123,
        1_420_070_400_000_000_001,
    ];
    let pyarrow = [
        999_999_999,
        999_000_001,
        999_000_000,
        500_000_000,
        -999_999_999,
        -1_000_000_000,
        -1_500_000_000,
        -86_400_000_000_000_123,
        1_420_070_400_000_000_001,
    ];
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let schema = TypeDescription::parse("struct<ts:timestamp>").unwrap();
        let options = WriterOptions::default().version(version);
        let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
        for value in written {
            let row = Row::new(vec![(Arc::from("ts"), timestamp(value, false))]);
            writer.write_row(&row).unwrap();
        }
        let bytes = writer.finish().unwrap();
        let batches = read_all(
            OrcRecordBatchReaderBuilder::try_new(bytes)
                .unwrap()
                .build()
                .unwrap(),
        );
        let want = TimestampNanosecondArray::from(pyarrow.to_vec());
        assert_eq!(batches[0].column(0).as_ref(), &want as &dyn Array);
    }
}
