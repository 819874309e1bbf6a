//! The writer: files written with every encoding, codec and page version read back
//! equal by our reader, pass its verification (checksums, statistics, page indexes,
//! Bloom filters checked against the data), and refuse bad input without harm.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss
)] // Small generated values.

use std::sync::Arc;

use bytes::Bytes;
use parquet_file::{
    Algorithm, BloomFilterOptions, ByteArrayBatch, Codec, ColumnBatch, ColumnOptions, ColumnPath,
    ColumnValues, DecryptionOptions, Encoding, EncryptionOptions, ErrorKind, Field, FileReader,
    FileWriter, FixedLenByteArrayBatch, Int96, Key, LogicalType, PageVersion, PhysicalType,
    ReadOptions, Repetition, Row, Schema, SchemaField, StatisticsLevel, WriterOptions,
};

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 11
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn schema() -> Schema {
    Schema::try_new("schema", fields()).unwrap()
}

/// The fields of [`schema`]: every physical type, the last a list.
fn fields() -> Vec<SchemaField> {
    use PhysicalType as P;
    vec![
        SchemaField::required("bool", P::Boolean),
        SchemaField::optional("i32", P::Int32),
        SchemaField::optional("u64", P::Int64).with_logical_type(LogicalType::Integer {
            bits: 64,
            signed: false,
        }),
        SchemaField::optional("int96", P::Int96),
        SchemaField::optional("float", P::Float),
        SchemaField::required("double", P::Double),
        SchemaField::optional("string", P::ByteArray).with_logical_type(LogicalType::String),
        SchemaField::fixed_len_byte_array("decimal", Repetition::Optional, 8).with_logical_type(
            LogicalType::Decimal {
                scale: 2,
                precision: 18,
            },
        ),
        SchemaField::list(
            "list",
            Repetition::Optional,
            SchemaField::optional("element", P::Int64),
        ),
    ]
}

/// Definition levels of an optional top-level column: one in `nulls` null.
fn optional_levels(rng: &mut Rng, rows: usize, nulls: u64) -> Vec<u16> {
    (0..rows)
        .map(|_| u16::from(rng.below(nulls) != 0))
        .collect()
}

/// `rows` rows of the schema's columns, with nulls, repeats (for dictionaries), NaNs,
/// zeros of both signs and long strings.
fn batches(schema: &Schema, rows: usize, seed: u64) -> Vec<ColumnBatch> {
    let mut rng = Rng(seed);
    let columns = schema.columns();
    let present = |def: &[u16]| def.iter().filter(|&&d| d == 1).count();
    let mut out = Vec::new();
    let bools: Vec<bool> = (0..rows).map(|_| rng.below(3) == 0).collect();
    out.push(
        ColumnBatch::try_new(&columns[0], ColumnValues::Boolean(bools), vec![], vec![]).unwrap(),
    );
    let def = optional_levels(&mut rng, rows, 7);
    let ints = (0..present(&def))
        .map(|_| rng.below(1000) as i32 - 500)
        .collect();
    out.push(ColumnBatch::try_new(&columns[1], ColumnValues::Int32(ints), def, vec![]).unwrap());
    let def = optional_levels(&mut rng, rows, 5);
    let longs = (0..present(&def))
        .map(|_| rng.next().wrapping_mul(3) as i64)
        .collect();
    out.push(ColumnBatch::try_new(&columns[2], ColumnValues::Int64(longs), def, vec![]).unwrap());
    let def = optional_levels(&mut rng, rows, 4);
    let int96 = (0..present(&def))
        .map(|_| {
            Int96::from_le_bytes({
                let mut b = [0u8; 12];
                b[..8].copy_from_slice(&rng.next().to_le_bytes());
                b[8..].copy_from_slice(&(2_440_588 + rng.below(100) as u32).to_le_bytes());
                b
            })
        })
        .collect();
    out.push(ColumnBatch::try_new(&columns[3], ColumnValues::Int96(int96), def, vec![]).unwrap());
    let def = optional_levels(&mut rng, rows, 6);
    let floats = (0..present(&def))
        .map(|_| match rng.below(50) {
            0 => f32::NAN,
            1 => -0.0,
            2 => 0.0,
            n => n as f32 * 0.5 - 12.0,
        })
        .collect();
    out.push(ColumnBatch::try_new(&columns[4], ColumnValues::Float(floats), def, vec![]).unwrap());
    let doubles = (0..rows).map(|_| rng.below(1 << 20) as f64 / 7.0).collect();
    out.push(
        ColumnBatch::try_new(&columns[5], ColumnValues::Double(doubles), vec![], vec![]).unwrap(),
    );
    let def = optional_levels(&mut rng, rows, 8);
    let mut strings = ByteArrayBatch::new();
    for _ in 0..present(&def) {
        let s = match rng.below(10) {
            0 => "é".repeat(40 + rng.below(40) as usize),
            1 => String::new(),
            n => format!("value-{}", n * 1000 + rng.below(30)),
        };
        strings.push(s.as_bytes()).unwrap();
    }
    out.push(
        ColumnBatch::try_new(&columns[6], ColumnValues::ByteArray(strings), def, vec![]).unwrap(),
    );
    let def = optional_levels(&mut rng, rows, 9);
    let mut decimals = FixedLenByteArrayBatch::with_capacity(8, 0);
    for _ in 0..present(&def) {
        let v = rng.below(2_000_000) as i64 - 1_000_000;
        decimals.push(&v.to_be_bytes()).unwrap();
    }
    out.push(
        ColumnBatch::try_new(
            &columns[7],
            ColumnValues::FixedLenByteArray(decimals),
            def,
            vec![],
        )
        .unwrap(),
    );
    // The list: null (0), empty (1), or elements that are null (2) or present (3).
    let (mut def, mut rep, mut values) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rows {
        match rng.below(6) {
            n @ (0 | 1) => {
                def.push(n as u16);
                rep.push(0);
            }
            _ => {
                for i in 0..=rng.below(4) {
                    rep.push(u16::from(i > 0));
                    if rng.below(5) == 0 {
                        def.push(2);
                    } else {
                        def.push(3);
                        values.push(rng.below(100) as i64);
                    }
                }
            }
        }
    }
    out.push(ColumnBatch::try_new(&columns[8], ColumnValues::Int64(values), def, rep).unwrap());
    out
}

/// Writes `batches` with `options`, checks the file verifies, and reads every column
/// back whole.
fn round_trip(
    schema: &Schema,
    batches: &[ColumnBatch],
    options: WriterOptions,
) -> Vec<ColumnBatch> {
    round_trip_with(schema, batches, options, ReadOptions::new())
}

/// [`round_trip`], read with `read`.
fn round_trip_with(
    schema: &Schema,
    batches: &[ColumnBatch],
    options: WriterOptions,
    read: ReadOptions,
) -> Vec<ColumnBatch> {
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    writer.write_batches(batches).unwrap();
    let metadata = writer.finish().unwrap();
    let file = Bytes::from(writer.into_inner());
    let reader = FileReader::with_options(file, read.verify_checksums(true)).unwrap();
    assert_eq!(reader.metadata().num_rows(), metadata.num_rows());
    let verification = reader.verify().unwrap();
    assert!(verification.is_ok(), "{:#?}", verification.disagreements);
    (0..schema.columns().len())
        .map(|c| {
            let mut batch = ColumnBatch::new(schema.column(c).unwrap());
            for g in 0..reader.num_row_groups() {
                let mut chunk = reader.column_chunk(g, c).unwrap();
                while chunk.read_records(1 << 20, &mut batch).unwrap() > 0 {}
            }
            batch
        })
        .collect()
}

fn assert_equal(read: &[ColumnBatch], written: &[ColumnBatch], what: &str) {
    for (i, (r, w)) in read.iter().zip(written).enumerate() {
        // NaN != NaN: compare floats by bits.
        match (r.values(), w.values()) {
            (ColumnValues::Float(a), ColumnValues::Float(b)) => {
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(a), bits(b), "{what}: column {i}");
            }
            _ => assert_eq!(r.values(), w.values(), "{what}: column {i}"),
        }
        assert_eq!(r.def_levels(), w.def_levels(), "{what}: column {i}");
        assert_eq!(r.rep_levels(), w.rep_levels(), "{what}: column {i}");
        assert_eq!(r.num_records(), w.num_records(), "{what}: column {i}");
    }
}

/// Per-column options that give every column `encoding` where it fits, dictionary off.
fn with_encoding(schema: &Schema, encoding: Encoding, options: WriterOptions) -> WriterOptions {
    use PhysicalType as P;
    schema.columns().iter().fold(options, |options, column| {
        let fits = match encoding {
            Encoding::Rle => column.physical_type == P::Boolean,
            Encoding::DeltaBinaryPacked => matches!(column.physical_type, P::Int32 | P::Int64),
            Encoding::DeltaLengthByteArray => column.physical_type == P::ByteArray,
            Encoding::DeltaByteArray => {
                matches!(column.physical_type, P::ByteArray | P::FixedLenByteArray)
            }
            Encoding::ByteStreamSplit => matches!(
                column.physical_type,
                P::Float | P::Double | P::Int32 | P::Int64 | P::FixedLenByteArray
            ),
            _ => true,
        };
        let encoding = if fits { encoding } else { Encoding::Plain };
        options.with_column(
            column.path.clone(),
            ColumnOptions {
                encoding: Some(encoding),
                dictionary: Some(false),
                ..ColumnOptions::default()
            },
        )
    })
}

#[test]
fn every_encoding_round_trips_in_both_page_versions() {
    let schema = schema();
    let written = batches(&schema, 5000, 1);
    for version in [PageVersion::V1, PageVersion::V2] {
        for encoding in [
            Encoding::Plain,
            Encoding::Rle,
            Encoding::DeltaBinaryPacked,
            Encoding::DeltaLengthByteArray,
            Encoding::DeltaByteArray,
            Encoding::ByteStreamSplit,
        ] {
            let options = WriterOptions::new()
                .with_page_version(version)
                .with_page_rows(700);
            let options = with_encoding(&schema, encoding, options);
            let read = round_trip(&schema, &written, options);
            assert_equal(&read, &written, &format!("{encoding:?} {version:?}"));
        }
        // Dictionary, legacy dictionary, and a dictionary that fills up and falls back.
        for options in [
            WriterOptions::new(),
            WriterOptions::new().with_legacy_dictionary(true),
            WriterOptions::new().with_dictionary_page_bytes(600),
            WriterOptions::new()
                .with_dictionary_page_bytes(100)
                .with_column(
                    "string",
                    ColumnOptions {
                        encoding: Some(Encoding::DeltaByteArray),
                        ..ColumnOptions::default()
                    },
                ),
        ] {
            let options = options.with_page_version(version).with_page_bytes(2000);
            let read = round_trip(&schema, &written, options.clone());
            assert_equal(&read, &written, &format!("{options:?}"));
        }
    }
}

#[test]
fn every_codec_round_trips() {
    let schema = schema();
    let written = batches(&schema, 3000, 2);
    for codec in Codec::ALL {
        if codec.parquet_id().is_none() || !codec.is_enabled() {
            continue;
        }
        for version in [PageVersion::V1, PageVersion::V2] {
            let options = WriterOptions::new()
                .with_compression(codec)
                .with_page_version(version)
                .with_page_rows(1000)
                .with_row_group_rows(1700);
            let read = round_trip(&schema, &written, options);
            assert_equal(&read, &written, &format!("{codec:?} {version:?}"));
        }
    }
}

#[test]
fn legacy_bit_packed_levels_round_trip() {
    let schema = schema();
    let written = batches(&schema, 2000, 3);
    let options = WriterOptions::new()
        .with_bit_packed_levels(true)
        .with_legacy_dictionary(true);
    let read = round_trip(&schema, &written, options);
    assert_equal(&read, &written, "BIT_PACKED levels");
}

#[test]
fn statistics_and_indexes_describe_the_data() {
    let schema = schema();
    let written = batches(&schema, 4000, 4);
    let options = WriterOptions::new()
        .with_page_rows(500)
        .with_truncate_length(Some(16))
        .with_bloom_filter(Some(BloomFilterOptions::default()))
        .with_distinct_count(true);
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    writer.write_batches(&written).unwrap();
    writer.finish().unwrap();
    let reader = FileReader::open(Bytes::from(writer.into_inner())).unwrap();
    assert!(reader.verify().unwrap().is_ok());
    let group = &reader.metadata().row_groups()[0];
    // The string column's long values are truncated: its max is not exact.
    let strings = group.columns()[6].metadata().unwrap();
    let stats = strings.statistics().unwrap();
    assert!(stats.max_value.as_ref().unwrap().len() <= 16);
    assert_eq!(stats.is_max_value_exact, Some(false));
    assert!(
        strings
            .size_statistics()
            .unwrap()
            .unencoded_byte_array_data_bytes
            .unwrap()
            > 0
    );
    // Every column but INT96 has a column index; all have an offset index of 8 pages.
    for c in 0..schema.columns().len() {
        let offsets = reader.offset_index(0, c).unwrap().unwrap();
        assert_eq!(offsets.page_locations.len(), 8, "column {c}");
        let index = reader.column_index(0, c).unwrap();
        assert_eq!(index.is_some(), c != 3, "column {c}");
        assert!(
            reader.bloom_filter(0, c).unwrap().is_some() == (c != 0),
            "column {c}"
        );
    }
    // The float column's NaNs are counted, never bounds.
    let floats = group.columns()[4].metadata().unwrap().statistics().unwrap();
    assert!(floats.nan_count.unwrap() > 0);
    let min = f32::from_le_bytes(floats.min_value.as_ref().unwrap()[..].try_into().unwrap());
    assert!(!min.is_nan());
}

#[test]
fn bad_batches_are_refused_and_the_writer_goes_on() {
    let schema = schema();
    let good = batches(&schema, 100, 5);
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), WriterOptions::new()).unwrap();
    writer.write_batches(&good).unwrap();
    // Too few batches; a batch of another length.
    let refuse = |writer: &mut FileWriter<Vec<u8>>, batches: &[ColumnBatch]| {
        let err = writer.write_batches(batches).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::InvalidInput { .. }),
            "{err}"
        );
    };
    refuse(&mut writer, &good[..3]);
    let mut short = good.clone();
    short[1] = batches(&schema, 99, 5).swap_remove(1);
    refuse(&mut writer, &short);
    // A list continued where it is null: definition level 0, then repetition level 1.
    let column = schema.column(8).unwrap();
    let mut contradicting = good.clone();
    contradicting[8] =
        ColumnBatch::try_new(column, ColumnValues::Int64(vec![5]), vec![0, 3], vec![0, 1]).unwrap();
    for (c, batch) in contradicting.iter_mut().enumerate().take(8) {
        *batch = batches(&schema, 1, 6).swap_remove(c);
    }
    refuse(&mut writer, &contradicting);
    // What the batch constructor refuses.
    let ints = schema.column(1).unwrap();
    let cases = [
        ColumnBatch::try_new(ints, ColumnValues::Int64(vec![1]), vec![1], vec![]),
        ColumnBatch::try_new(ints, ColumnValues::Int32(vec![1, 2]), vec![1, 0], vec![]),
        ColumnBatch::try_new(ints, ColumnValues::Int32(vec![1]), vec![2], vec![]),
        ColumnBatch::try_new(ints, ColumnValues::Int32(vec![1]), vec![1], vec![0]),
        ColumnBatch::try_new(column, ColumnValues::Int64(vec![]), vec![1], vec![1]),
    ];
    for case in cases {
        let err = case.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::InvalidInput { .. }),
            "{err}"
        );
    }
    // The writer went on: the file holds the good rows twice.
    writer.write_batches(&good).unwrap();
    writer.finish().unwrap();
    let err = writer.write_batches(&good).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::WriterClosed { failed: false }
    ));
    assert!(writer.finish().is_err());
    let file = Bytes::from(writer.into_inner());
    let reader = FileReader::open(file).unwrap();
    assert_eq!(reader.metadata().num_rows(), 200);
}

/// A sink that fails after some bytes.
struct Failing {
    left: usize,
    bytes: Vec<u8>,
}

impl std::io::Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.left {
            return Err(std::io::Error::other("disk full"));
        }
        self.left -= buf.len();
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_sink_stops_the_writer_without_a_footer() {
    let schema = schema();
    let good = batches(&schema, 2000, 7);
    let sink = Failing {
        left: 5000,
        bytes: Vec::new(),
    };
    let options = WriterOptions::new().with_row_group_rows(500);
    let mut writer = FileWriter::new(sink, schema, options).unwrap();
    let err = writer.write_batches(&good).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Io { .. }), "{err}");
    let err = writer.write_batches(&good).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::WriterClosed { failed: true }
    ));
    assert!(writer.finish().is_err());
    let bytes = writer.into_inner().bytes;
    assert!(!bytes.ends_with(b"PAR1"));
}

#[test]
fn options_that_do_not_fit_a_column_are_refused() {
    let schema = schema();
    for options in [
        WriterOptions::new().with_encoding(Encoding::DeltaBinaryPacked),
        WriterOptions::new().with_column(
            "bool",
            ColumnOptions {
                encoding: Some(Encoding::ByteStreamSplit),
                ..ColumnOptions::default()
            },
        ),
        WriterOptions::new().with_column("nope", ColumnOptions::default()),
        WriterOptions::new().with_compression(Codec::Deflate),
    ] {
        let err = FileWriter::new(Vec::new(), schema.clone(), options)
            .err()
            .unwrap();
        assert!(
            matches!(err.kind(), ErrorKind::InvalidInput { .. }),
            "{err}"
        );
    }
}

/// Every row read back, as the reader assembles them.
fn rows_of(file: Vec<u8>) -> Vec<Row> {
    let reader = FileReader::open(Bytes::from(file)).unwrap();
    assert!(reader.verify().unwrap().is_ok());
    reader.rows().map(Result::unwrap).collect()
}

#[test]
fn rows_shred_into_what_reads_back_as_them() {
    // Rows of every type, read from a file of column batches, written again as rows.
    let schema = schema();
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), WriterOptions::new()).unwrap();
    writer.write_batches(&batches(&schema, 3000, 8)).unwrap();
    writer.finish().unwrap();
    let rows = rows_of(writer.into_inner());
    let options = WriterOptions::new().with_row_group_rows(1000);
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    for row in &rows {
        writer.write_row(row).unwrap();
    }
    assert_eq!(writer.num_rows(), 3000);
    writer.finish().unwrap();
    let again = rows_of(writer.into_inner());
    // NaN != NaN: compare their debug text.
    assert_eq!(format!("{again:?}"), format!("{rows:?}"));
}

#[test]
fn fields_pushed_column_by_column_write_what_rows_write() {
    // The flat columns of `schema()` (all but the list), from rows read back.
    let full = schema();
    let mut writer = FileWriter::new(Vec::new(), full.clone(), WriterOptions::new()).unwrap();
    writer.write_batches(&batches(&full, 2000, 9)).unwrap();
    writer.finish().unwrap();
    let mut flat = fields();
    flat.pop();
    let flat = Schema::try_new("schema", flat).unwrap();
    let rows: Vec<Row> = rows_of(writer.into_inner())
        .into_iter()
        .map(|row| {
            Row::new(
                row.into_fields()
                    .into_iter()
                    .filter(|(name, _)| &**name != "list")
                    .collect(),
            )
        })
        .collect();
    let columns = flat.columns();
    let mut pushed: Vec<ColumnBatch> = columns.iter().map(ColumnBatch::new).collect();
    for row in &rows {
        for (batch, column) in pushed.iter_mut().zip(columns) {
            let field = row.get(&column.path.parts()[0]).unwrap_or(&Field::Null);
            batch.push_field(column, field).unwrap();
        }
    }
    let mut writer = FileWriter::new(Vec::new(), flat.clone(), WriterOptions::new()).unwrap();
    writer.write_batches(&pushed).unwrap();
    writer.finish().unwrap();
    // NaN != NaN: compare their debug text.
    assert_eq!(
        format!("{:?}", rows_of(writer.into_inner())),
        format!("{rows:?}")
    );
    // What a row could not hold, a column cannot either; nothing is appended.
    let (bool_column, string_column) = (&columns[0], &columns[6]);
    let mut batch = ColumnBatch::new(bool_column);
    let err = batch.push_field(bool_column, &Field::Null).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidInput { .. }),
        "{err}"
    );
    let err = batch.push_field(bool_column, &Field::Int(1)).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidInput { .. }),
        "{err}"
    );
    assert_eq!(batch.num_levels(), 0);
    let mut batch = ColumnBatch::new(string_column);
    batch.push_field(string_column, &Field::Null).unwrap();
    batch.push_field(string_column, &s("x")).unwrap();
    assert_eq!((batch.num_levels(), batch.num_values()), (2, 1));
    assert_eq!(batch.def_levels(), [0, 1]);
    // A repeated column takes rows, not fields.
    let element = &full.columns()[8];
    let err = ColumnBatch::new(element)
        .push_field(element, &Field::Int(1))
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidInput { .. }),
        "{err}"
    );
}

fn nested_schema() -> Schema {
    use PhysicalType as P;
    let string = |name: &str, rep| {
        SchemaField::primitive(name, rep, P::ByteArray).with_logical_type(LogicalType::String)
    };
    Schema::try_new(
        "schema",
        [
            SchemaField::required("id", P::Int64),
            SchemaField::group(
                "person",
                Repetition::Optional,
                [
                    string("name", Repetition::Required),
                    SchemaField::optional("age", P::Int32),
                    SchemaField::list(
                        "phones",
                        Repetition::Optional,
                        SchemaField::group(
                            "element",
                            Repetition::Optional,
                            [
                                string("number", Repetition::Required),
                                string("kind", Repetition::Optional),
                            ],
                        ),
                    ),
                ],
            ),
            SchemaField::map(
                "scores",
                Repetition::Optional,
                string("key", Repetition::Required),
                Some(SchemaField::list(
                    "value",
                    Repetition::Optional,
                    SchemaField::optional("element", P::Double),
                )),
            ),
            SchemaField::list(
                "matrix",
                Repetition::Required,
                SchemaField::list(
                    "element",
                    Repetition::Optional,
                    SchemaField::required("element", P::Int32),
                ),
            ),
        ],
    )
    .unwrap()
}

fn s(v: &str) -> Field {
    Field::Str(v.to_owned())
}

fn group(fields: Vec<(&str, Field)>) -> Field {
    Field::Group(fields.into_iter().map(|(n, f)| (Arc::from(n), f)).collect())
}

fn nested_rows(n: usize, seed: u64) -> Vec<Row> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| {
            let person = match rng.below(4) {
                0 => Field::Null,
                _ => group(vec![
                    ("name", s(&format!("p{i}"))),
                    (
                        "age",
                        if rng.below(3) == 0 {
                            Field::Null
                        } else {
                            Field::Int(rng.below(90) as i64)
                        },
                    ),
                    (
                        "phones",
                        match rng.below(4) {
                            0 => Field::Null,
                            1 => Field::List(vec![]),
                            _ => Field::List(
                                (0..=rng.below(3))
                                    .map(|j| match rng.below(5) {
                                        0 => Field::Null,
                                        k => group(vec![
                                            ("number", s(&format!("555-{j}"))),
                                            ("kind", if k == 1 { Field::Null } else { s("home") }),
                                        ]),
                                    })
                                    .collect(),
                            ),
                        },
                    ),
                ]),
            };
            let scores = match rng.below(4) {
                0 => Field::Null,
                1 => Field::Map(vec![]),
                _ => Field::Map(
                    (0..=rng.below(3))
                        .map(|k| {
                            let value = match rng.below(3) {
                                0 => Field::Null,
                                _ => Field::List(
                                    (0..rng.below(3))
                                        .map(|_| {
                                            if rng.below(4) == 0 {
                                                Field::Null
                                            } else {
                                                Field::Double(rng.below(100) as f64)
                                            }
                                        })
                                        .collect(),
                                ),
                            };
                            (s(&format!("k{k}")), value)
                        })
                        .collect(),
                ),
            };
            let matrix = Field::List(
                (0..rng.below(3))
                    .map(|_| match rng.below(4) {
                        0 => Field::Null,
                        _ => Field::List((0..rng.below(4)).map(|v| Field::Int(v as i64)).collect()),
                    })
                    .collect(),
            );
            Row::new(vec![
                (Arc::from("id"), Field::Int(i as i64)),
                (Arc::from("person"), person),
                (Arc::from("scores"), scores),
                (Arc::from("matrix"), matrix),
            ])
        })
        .collect()
}

#[test]
fn nested_rows_with_nulls_at_every_level_round_trip() {
    let schema = nested_schema();
    let rows = nested_rows(2000, 9);
    for version in [PageVersion::V1, PageVersion::V2] {
        let options = WriterOptions::new()
            .with_page_version(version)
            .with_page_rows(300);
        let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        for row in &rows {
            writer.write_row(row).unwrap();
        }
        writer.finish().unwrap();
        assert_eq!(rows_of(writer.into_inner()), rows, "{version:?}");
    }
}

#[test]
fn rows_that_do_not_fit_are_refused_whole() {
    let schema = nested_schema();
    let rows = nested_rows(10, 10);
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), WriterOptions::new()).unwrap();
    writer.write_row(&rows[0]).unwrap();
    let bad = [
        // A required field missing, and null.
        Row::new(vec![(Arc::from("matrix"), Field::List(vec![]))]),
        Row::new(vec![
            (Arc::from("id"), Field::Null),
            (Arc::from("matrix"), Field::List(vec![])),
        ]),
        // A field the schema does not have.
        Row::new(vec![
            (Arc::from("id"), Field::Int(1)),
            (Arc::from("nope"), Field::Int(1)),
        ]),
        // A value of the wrong kind, deep inside, after levels of other columns were added.
        Row::new(vec![
            (Arc::from("id"), Field::Int(1)),
            (
                Arc::from("person"),
                group(vec![("name", s("x")), ("age", s("old"))]),
            ),
        ]),
        // A list where a group is.
        Row::new(vec![
            (Arc::from("id"), Field::Int(1)),
            (Arc::from("person"), Field::List(vec![])),
        ]),
        // An INT32 out of range.
        Row::new(vec![
            (Arc::from("id"), Field::Int(1)),
            (
                Arc::from("person"),
                group(vec![("name", s("x")), ("age", Field::Int(1 << 40))]),
            ),
        ]),
    ];
    for row in &bad {
        let err = writer.write_row(row).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::InvalidInput { .. }),
            "{err}"
        );
    }
    writer.write_row(&rows[1]).unwrap();
    writer.finish().unwrap();
    assert_eq!(rows_of(writer.into_inner()), rows[..2]);
}

#[test]
fn fields_given_in_another_order_or_left_out_are_matched_by_name() {
    // Every row and group with its fields reversed, and every null field left out.
    fn shuffle(fields: &[(Arc<str>, Field)]) -> Vec<(Arc<str>, Field)> {
        fields
            .iter()
            .rev()
            .filter(|(_, f)| !matches!(f, Field::Null))
            .map(|(name, f)| (Arc::clone(name), reorder(f)))
            .collect()
    }
    fn reorder(field: &Field) -> Field {
        match field {
            Field::Group(fields) => Field::Group(shuffle(fields)),
            Field::List(items) => Field::List(items.iter().map(reorder).collect()),
            other => other.clone(),
        }
    }
    let schema = nested_schema();
    let rows = nested_rows(50, 11);
    let mut writer = FileWriter::new(Vec::new(), schema, WriterOptions::new()).unwrap();
    for row in &rows {
        writer.write_row(&Row::new(shuffle(row.fields()))).unwrap();
    }
    // A field the schema does not have is still refused when the others are out of order.
    let unknown = Row::new(vec![
        (Arc::from("nope"), Field::Int(1)),
        (Arc::from("id"), Field::Int(1)),
    ]);
    let err = writer.write_row(&unknown).unwrap_err();
    assert!(err.to_string().contains("\"nope\""), "{err}");
    writer.finish().unwrap();
    assert_eq!(rows_of(writer.into_inner()), rows);
}

fn key(byte: u8) -> Key {
    Key::try_new(&[byte; 16]).unwrap()
}

#[test]
fn every_encryption_mode_round_trips() {
    let schema = schema();
    let written = batches(&schema, 3000, 11);
    for algorithm in [Algorithm::AesGcmV1, Algorithm::AesGcmCtrV1] {
        for plaintext_footer in [false, true] {
            for mode in [
                "uniform",
                "columns",
                "prefix",
                "supplied prefix",
                "empty AAD",
            ] {
                let mut encryption = EncryptionOptions::new(key(1))
                    .with_algorithm(algorithm)
                    .with_plaintext_footer(plaintext_footer)
                    .with_footer_key_metadata(b"kf".to_vec());
                let mut decryption = DecryptionOptions::new().with_footer_key(key(1));
                match mode {
                    "columns" => {
                        let list = ColumnPath::new(["list", "list", "element"]);
                        encryption = encryption
                            .with_column_key("string", key(2), Some(b"kc1".to_vec()))
                            .with_column_key(list.clone(), key(3), None)
                            .with_plaintext_column("double");
                        decryption = decryption
                            .with_column_key("string", key(2))
                            .with_column_key(list, key(3));
                    }
                    // DuckDB's way has no plaintext footer (refused below).
                    "empty AAD" if plaintext_footer => continue,
                    "empty AAD" => encryption = encryption.with_empty_aad(true),
                    "prefix" | "supplied prefix" => {
                        let store = mode == "prefix";
                        encryption = encryption.with_aad_prefix(b"file-7".to_vec(), store);
                        if !store {
                            decryption = decryption.with_aad_prefix(b"file-7".to_vec());
                        }
                    }
                    _ => {}
                }
                let options = WriterOptions::new()
                    .with_encryption(Some(encryption))
                    .with_page_rows(700)
                    .with_row_group_rows(2000)
                    .with_bloom_filter(Some(BloomFilterOptions::default()));
                let what = format!("{algorithm:?} plaintext footer {plaintext_footer} {mode}");
                let read = round_trip_with(
                    &schema,
                    &written,
                    options,
                    ReadOptions::new().with_decryption(decryption),
                );
                assert_equal(&read, &written, &what);
            }
        }
    }
}

#[test]
fn encrypted_files_keep_their_secrets() {
    let schema = schema();
    let written = batches(&schema, 500, 12);
    let write = |encryption: EncryptionOptions| {
        let options = WriterOptions::new()
            .with_encryption(Some(encryption))
            .with_bloom_filter(Some(BloomFilterOptions::default()));
        let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        writer.write_batches(&written).unwrap();
        writer.finish().unwrap();
        Bytes::from(writer.into_inner())
    };
    // An encrypted footer: PARE, and nothing readable without the key.
    let file = write(EncryptionOptions::new(key(1)));
    assert!(file.starts_with(b"PARE") && file.ends_with(b"PARE"));
    assert!(FileReader::open(file.clone()).is_err());
    let refused = EncryptionOptions::new(key(1))
        .with_empty_aad(true)
        .with_plaintext_footer(true);
    let options = WriterOptions::new().with_encryption(Some(refused));
    let err = FileWriter::new(Vec::new(), schema.clone(), options)
        .err()
        .unwrap();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidInput { .. }),
        "{err}"
    );
    let wrong =
        ReadOptions::new().with_decryption(DecryptionOptions::new().with_footer_key(key(9)));
    assert!(FileReader::with_options(file, wrong).is_err());
    // A plaintext footer: a reader without keys reads the schema and the plaintext column,
    // and nothing of the others (not their statistics, pages, indexes or filters).
    let file = write(
        EncryptionOptions::new(key(1))
            .with_plaintext_footer(true)
            .with_plaintext_column("double"),
    );
    assert!(file.starts_with(b"PAR1"));
    let reader = FileReader::open(file.clone()).unwrap();
    assert_eq!(reader.metadata().num_rows(), 500);
    let mut batch = ColumnBatch::new(schema.column(5).unwrap());
    reader
        .column_chunk(0, 5)
        .unwrap()
        .read_records(1000, &mut batch)
        .unwrap();
    assert_eq!(batch.values(), written[5].values());
    assert!(reader.column_chunk(0, 1).is_err());
    assert!(reader.bloom_filter(0, 1).is_err());
    assert!(reader.column_index(0, 1).is_err());
    let group = &reader.metadata().row_groups()[0];
    assert!(
        group.columns()[1]
            .metadata()
            .is_none_or(|m| m.statistics().is_none())
    );
    // A plaintext footer whose AAD prefix the readers supply: without it, the footer and
    // the plaintext column still read; the encrypted columns do not.
    let file = write(
        EncryptionOptions::new(key(1))
            .with_plaintext_footer(true)
            .with_plaintext_column("double")
            .with_aad_prefix(b"file-9".to_vec(), false),
    );
    let reader = FileReader::open(file.clone()).unwrap();
    let mut batch = ColumnBatch::new(schema.column(5).unwrap());
    reader
        .column_chunk(0, 5)
        .unwrap()
        .read_records(1000, &mut batch)
        .unwrap();
    assert_eq!(batch.values(), written[5].values());
    let err = reader.column_chunk(0, 1).err().unwrap();
    assert!(matches!(err.kind(), ErrorKind::MissingKey { .. }), "{err}");
    // No value of a column under a key appears in the file: the long strings are not there.
    let needle = "é".repeat(40);
    assert!(!file.windows(needle.len()).any(|w| w == needle.as_bytes()));
}

/// The metadata of a file of `batches` written with `options`, as a reader sees it.
fn metadata_of(
    schema: &Schema,
    batches: &[ColumnBatch],
    options: WriterOptions,
) -> Arc<parquet_file::FileMetaData> {
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    writer.write_batches(batches).unwrap();
    writer.finish().unwrap();
    let reader = FileReader::open(Bytes::from(writer.into_inner())).unwrap();
    assert!(reader.verify().unwrap().is_ok());
    reader.metadata().clone()
}

#[test]
fn file_metadata_is_written_as_given() {
    let schema = schema();
    let written = batches(&schema, 300, 13);
    let sorting = parquet_file::SortingColumn {
        column: 1,
        descending: true,
        nulls_first: false,
    };
    let options = WriterOptions::new()
        .with_created_by("tester version 1.0")
        .with_key_value("origin", Some("test".into()))
        .with_key_value("flag", None)
        .with_sorting_columns(vec![sorting])
        .with_row_group_rows(100);
    let metadata = metadata_of(&schema, &written, options);
    assert_eq!(metadata.created_by(), Some("tester version 1.0"));
    let kv: Vec<_> = metadata
        .key_value_metadata()
        .iter()
        .map(|kv| (kv.key.as_str(), kv.value.as_deref()))
        .collect();
    assert_eq!(kv, [("origin", Some("test")), ("flag", None)]);
    assert_eq!(metadata.row_groups().len(), 3);
    for group in metadata.row_groups() {
        assert_eq!(group.sorting_columns(), [sorting]);
        assert_eq!(group.num_rows(), 100);
    }
    assert!(metadata.column_orders().is_some());
    let err = FileWriter::new(
        Vec::new(),
        schema.clone(),
        WriterOptions::new().with_sorting_columns(vec![parquet_file::SortingColumn {
            column: 9,
            ..sorting
        }]),
    )
    .err()
    .unwrap();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidInput { .. }),
        "{err}"
    );
}

#[test]
fn statistics_levels_and_dictionary_fallback_show_in_the_metadata() {
    let schema = schema();
    let written = batches(&schema, 4000, 14);
    // No statistics: none in the chunks, no column index; the offset index stays.
    let metadata = metadata_of(
        &schema,
        &written,
        WriterOptions::new().with_statistics(StatisticsLevel::None),
    );
    let chunk = &metadata.row_groups()[0].columns()[1];
    assert!(chunk.metadata().unwrap().statistics().is_none());
    assert!(chunk.column_index_location().is_none());
    assert!(chunk.offset_index_location().is_some());
    // Per chunk: statistics, no column index.
    let metadata = metadata_of(
        &schema,
        &written,
        WriterOptions::new().with_statistics(StatisticsLevel::Chunk),
    );
    let chunk = &metadata.row_groups()[0].columns()[1];
    assert!(chunk.metadata().unwrap().statistics().is_some());
    assert!(chunk.column_index_location().is_none());
    // A dictionary that fits: every data page RLE_DICTIONARY, the distinct count exact
    // (the INT32 column holds values from -500 to 499).
    let metadata = metadata_of(
        &schema,
        &written,
        WriterOptions::new().with_distinct_count(true),
    );
    let ints = metadata.row_groups()[0].columns()[1].metadata().unwrap();
    let distinct = ints.statistics().unwrap().distinct_count.unwrap();
    assert!(distinct > 900 && distinct <= 1000, "{distinct}");
    assert!(ints.has_dictionary_page());
    let stats = ints.encoding_stats().unwrap();
    assert_eq!(data_pages(stats, Encoding::Plain), 0, "{stats:?}");
    assert!(data_pages(stats, Encoding::RleDictionary) > 0, "{stats:?}");
    // A dictionary over its limit: some pages RLE_DICTIONARY, then PLAIN; no distinct count.
    let metadata = metadata_of(
        &schema,
        &written,
        WriterOptions::new()
            .with_distinct_count(true)
            .with_dictionary_page_bytes(1000)
            .with_page_rows(100),
    );
    let ints = metadata.row_groups()[0].columns()[1].metadata().unwrap();
    let stats = ints.encoding_stats().unwrap();
    assert!(data_pages(stats, Encoding::RleDictionary) > 0, "{stats:?}");
    assert!(data_pages(stats, Encoding::Plain) > 0, "{stats:?}");
    assert!(ints.statistics().unwrap().distinct_count.is_none());
}

/// The data pages (v1) of `encoding` the encoding statistics count.
fn data_pages(stats: &[parquet_file::PageEncodingStats], encoding: Encoding) -> i32 {
    stats
        .iter()
        .filter(|s| s.page_type == 0 && s.encoding == encoding)
        .map(|s| s.count)
        .sum()
}

#[test]
fn fixed_length_bounds_keep_their_length_when_byte_arrays_are_truncated() {
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::fixed_len_byte_array("uuid", Repetition::Required, 16)
                .with_logical_type(LogicalType::Uuid),
            SchemaField::required("name", PhysicalType::ByteArray),
        ],
    )
    .unwrap();
    let mut uuids = FixedLenByteArrayBatch::with_capacity(16, 3);
    let mut names = ByteArrayBatch::new();
    for i in 0..3u8 {
        uuids.push(&[i * 80; 16]).unwrap();
        names.push(&[i * 80; 16]).unwrap();
    }
    let written = [
        ColumnBatch::try_new(
            &schema.columns()[0],
            ColumnValues::FixedLenByteArray(uuids),
            vec![],
            vec![],
        )
        .unwrap(),
        ColumnBatch::try_new(
            &schema.columns()[1],
            ColumnValues::ByteArray(names),
            vec![],
            vec![],
        )
        .unwrap(),
    ];
    let metadata = metadata_of(
        &schema,
        &written,
        WriterOptions::new().with_truncate_length(Some(4)),
    );
    let group = &metadata.row_groups()[0];
    // The UUID: bounds of 16 bytes, exact.
    let uuid = group.columns()[0].metadata().unwrap().statistics().unwrap();
    assert_eq!(uuid.min_value.as_deref(), Some(&[0; 16][..]));
    assert_eq!(uuid.max_value.as_deref(), Some(&[160; 16][..]));
    assert_eq!(uuid.is_max_value_exact, Some(true));
    // The same bytes as a BYTE_ARRAY: cut to 4 bytes, the maximum rounded up.
    let name = group.columns()[1].metadata().unwrap().statistics().unwrap();
    assert_eq!(name.min_value.as_deref(), Some(&[0; 4][..]));
    assert_eq!(name.max_value.as_deref(), Some(&[160, 160, 160, 161][..]));
    assert_eq!(name.is_max_value_exact, Some(false));
}

/// The bytes [`FileWriter`] writes of `batches` with `options`.
fn written(schema: &Schema, batches: &[ColumnBatch], options: WriterOptions) -> Vec<u8> {
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    writer.write_batches(batches).unwrap();
    writer.finish().unwrap();
    writer.into_inner()
}

#[test]
fn parallel_encoding_writes_the_same_file() {
    let schema = schema();
    let batches = batches(&schema, 5000, 17);
    let options = WriterOptions::new()
        .with_row_group_rows(1200)
        .with_page_rows(300)
        .with_compression(Codec::Zstd)
        .with_bloom_filter(Some(BloomFilterOptions::default()));
    let serial = written(&schema, &batches, options.clone());
    let parallel = written(&schema, &batches, options.with_parallel_encoding(true));
    assert!(serial == parallel, "the files differ");
    // Encrypted (with nonces of its own, so not the same bytes): the same rows.
    let encryption = EncryptionOptions::new(key(3));
    let options = WriterOptions::new()
        .with_row_group_rows(1200)
        .with_encryption(Some(encryption))
        .with_parallel_encoding(true);
    let read = round_trip_with(
        &schema,
        &batches,
        options,
        ReadOptions::new().with_decryption(DecryptionOptions::new().with_footer_key(key(3))),
    );
    assert_equal(&read, &batches, "encrypted, parallel");
}
