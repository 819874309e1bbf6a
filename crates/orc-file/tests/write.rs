//! The ORC writer: every type through rows and batches, both file versions, every
//! codec, the string encoding choice, row index positions decoded with the RLE
//! decoders, stripe splitting, statistics, user metadata and refusals.

#![allow(clippy::too_many_lines, clippy::type_complexity, clippy::similar_names)]
#![allow(clippy::manual_is_multiple_of)]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]

use std::sync::Arc;

use orc_file::proto::{self, column_encoding::Kind as Encoding, stream::Kind as StreamKind};
use orc_file::rle::Sign::{Signed, Unsigned};
use orc_file::rle::{Version, boolean, int};
use orc_file::stream::{ChunkDecoder, seek_offset};
use orc_file::{
    Batch, ColumnStatistics, Error, ErrorKind, OrcCompression, OrcReader, OrcVersion, OrcWriter,
    ReadOptions, TypeDescription, TypedStatistics, Vector, VectorData, WriterOptions,
};
use parquet_core::{ByteArrayBatch, Field, Row, TimeUnit};
use proptest::prelude::*;
use prost::Message;

fn row(fields: Vec<(&str, Field)>) -> Row {
    Row::new(fields.into_iter().map(|(n, f)| (Arc::from(n), f)).collect())
}

fn group(fields: Vec<(&str, Field)>) -> Field {
    Field::Group(fields.into_iter().map(|(n, f)| (Arc::from(n), f)).collect())
}

fn union(tag: i64, value: Field) -> Field {
    group(vec![("tag", Field::Int(tag)), ("value", value)])
}

fn text(s: &str) -> Field {
    Field::Str(s.to_owned())
}

fn ts(nanos: i128, utc: bool) -> Field {
    Field::Timestamp {
        value: nanos,
        unit: TimeUnit::Nanos,
        utc,
    }
}

fn options(version: OrcVersion, compression: OrcCompression) -> WriterOptions {
    WriterOptions::default()
        .version(version)
        .compression(compression)
}

fn write_rows(schema: &str, rows: &[Row], options: WriterOptions) -> Vec<u8> {
    let schema = TypeDescription::parse(schema).unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
    for r in rows {
        writer.write_row(r).unwrap();
    }
    writer.finish().unwrap()
}

fn write_batches(schema: &str, batches: &[Batch], options: WriterOptions) -> Vec<u8> {
    let schema = TypeDescription::parse(schema).unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
    for b in batches {
        writer.write_batch(b).unwrap();
    }
    writer.finish().unwrap()
}

fn read_rows(bytes: &[u8]) -> Vec<Row> {
    let reader = OrcReader::open(bytes.to_vec()).unwrap();
    reader
        .rows(ReadOptions::default())
        .unwrap()
        .collect::<orc_file::Result<Vec<_>>>()
        .unwrap()
}

fn enabled_codecs() -> impl Iterator<Item = OrcCompression> {
    OrcCompression::ALL.into_iter().filter(|c| c.is_enabled())
}

const RICH_V1: &str = "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,\
    str:string,bin:binary,ts:timestamp,tsi:timestamp with local time zone,dt:date,\
    dec:decimal(20,3),dec18:decimal(18,4),c:char(3),v:varchar(4),li:array<int>,\
    m:map<string,array<double>>,st:struct<x:int,y:struct<z:string>>,\
    u:uniontype<int,string,struct<q:boolean>>>";

/// A row of [`RICH_V1`] (without `tsi` for version 0.11), with nulls at every level.
fn rich_row(i: usize, with_instant: bool) -> Row {
    let n = i as i64;
    let null_if = |k: usize, f: Field| if (i + k) % 9 == 0 { Field::Null } else { f };
    let mut fields = vec![
        ("b", null_if(1, Field::Bool(i % 3 == 0))),
        ("t", null_if(2, Field::Int((n % 256) - 128))),
        ("s", Field::Int((n * 37 % 65_536) - 32_768)),
        (
            "i",
            null_if(3, Field::Int(n * 1_000_003 % 2_000_000_000 - 1_000_000_000)),
        ),
        (
            "l",
            Field::Int(n.wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64)),
        ),
        ("f", null_if(4, Field::Float(i as f32 * 0.25 - 100.0))),
        ("d", Field::Double((i as f64).sqrt() - 7.5)),
        ("str", null_if(5, text(&format!("value {}", i % 17)))),
        ("bin", Field::Bytes(vec![(i % 251) as u8; i % 6])),
        (
            "ts",
            null_if(
                6,
                ts(
                    i128::from((n - 500) * 86_400_123_456_789 + (n % 1000) * 1_000_000 + n % 7),
                    false,
                ),
            ),
        ),
        ("dt", Field::Date((n * 13 - 20_000) as i32)),
        (
            "dec",
            null_if(
                7,
                Field::Decimal {
                    unscaled: i128::from(n) * 1_234_567_890_123 - 7,
                    scale: 3,
                },
            ),
        ),
        (
            "dec18",
            Field::Decimal {
                unscaled: i128::from(n % 1000) * 10_001 - 3,
                scale: 4,
            },
        ),
        ("c", null_if(8, text(["", "a", "bc", "déf"][i % 4]))),
        ("v", text(["", "w", "xyz", "αβγδ"][i % 4])),
        (
            "li",
            if i % 10 == 1 {
                Field::Null
            } else {
                Field::List(
                    (0..i % 5)
                        .map(|k| {
                            if k == 2 {
                                Field::Null
                            } else {
                                Field::Int((n + k as i64) % 97)
                            }
                        })
                        .collect(),
                )
            },
        ),
        (
            "m",
            null_if(
                2,
                Field::Map(
                    (0..i % 3)
                        .map(|k| {
                            let value = if k == 1 {
                                Field::Null
                            } else {
                                Field::List(vec![Field::Double(k as f64), Field::Null])
                            };
                            (text(&format!("k{k}")), value)
                        })
                        .collect(),
                ),
            ),
        ),
        (
            "st",
            if i % 8 == 0 {
                Field::Null
            } else {
                group(vec![
                    (
                        "x",
                        if i % 3 == 0 {
                            Field::Null
                        } else {
                            Field::Int(n)
                        },
                    ),
                    (
                        "y",
                        if i % 5 == 0 {
                            Field::Null
                        } else {
                            group(vec![("z", null_if(1, text(&format!("z{i}"))))])
                        },
                    ),
                ])
            },
        ),
        (
            "u",
            match i % 5 {
                0 => Field::Null,
                1 => union(0, Field::Int(n)),
                2 => union(1, text(&format!("u{i}"))),
                3 => union(2, group(vec![("q", Field::Bool(i % 2 == 0))])),
                _ => union(0, Field::Null),
            },
        ),
    ];
    if with_instant {
        fields.insert(
            10,
            (
                "tsi",
                null_if(3, ts(i128::from(n * 1_000_000_007 - 3_000_000_000), true)),
            ),
        );
    }
    row(fields)
}

/// What the reader gives back for a row written as [`rich_row`]: chars padded.
fn expected_rich_row(r: &Row) -> Row {
    Row::new(
        r.fields()
            .iter()
            .map(|(name, f)| {
                let f = match (&**name, f) {
                    ("c", Field::Str(s)) => {
                        Field::Str(format!("{s}{}", " ".repeat(3 - s.chars().count())))
                    }
                    _ => f.clone(),
                };
                (name.clone(), f)
            })
            .collect(),
    )
}

fn rich_schema(version: OrcVersion) -> String {
    match version {
        OrcVersion::V0_11 => RICH_V1.replace("tsi:timestamp with local time zone,", ""),
        OrcVersion::V0_12 => RICH_V1.to_owned(),
    }
}

#[test]
fn every_type_round_trips_through_rows_in_both_versions_with_every_codec() {
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let instant = version == OrcVersion::V0_12;
        let rows: Vec<Row> = (0..2_500).map(|i| rich_row(i, instant)).collect();
        let expected: Vec<Row> = rows.iter().map(expected_rich_row).collect();
        for compression in enabled_codecs() {
            let bytes = write_rows(
                &rich_schema(version),
                &rows,
                options(version, compression)
                    .row_index_stride(1000)
                    .compression_block_size(2048),
            );
            assert_eq!(&bytes[..3], b"ORC");
            let reader = OrcReader::open(bytes.clone()).unwrap();
            assert_eq!(reader.num_rows(), 2_500);
            assert_eq!(reader.compression(), compression);
            assert_eq!(reader.version().to_string(), version.to_string());
            assert_eq!(reader.row_index_stride(), 1000);
            let got = read_rows(&bytes);
            assert_eq!(got.len(), expected.len());
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(g, e, "row {i}, {version} {compression}");
            }
        }
    }
}

#[test]
fn integer_encodings_follow_the_version() {
    for (version, kind) in [
        (OrcVersion::V0_11, Encoding::Direct),
        (OrcVersion::V0_12, Encoding::DirectV2),
    ] {
        let rows: Vec<Row> = (0..100)
            .map(|i| row(vec![("a", Field::Int(i)), ("b", Field::Double(0.5))]))
            .collect();
        let bytes = write_rows(
            "struct<a:bigint,b:double>",
            &rows,
            options(version, OrcCompression::None),
        );
        let reader = OrcReader::open(bytes).unwrap();
        let footer = reader.stripe_footer(0).unwrap();
        assert_eq!(footer.encodings[1].kind, Some(kind as i32));
        // Doubles and the root struct are DIRECT in both versions, as Java writes them.
        assert_eq!(footer.encodings[2].kind, Some(Encoding::Direct as i32));
        assert_eq!(footer.encodings[0].kind, Some(Encoding::Direct as i32));
        let timezone = footer.writer_timezone.as_deref();
        match version {
            OrcVersion::V0_11 => assert_eq!(timezone, None),
            OrcVersion::V0_12 => assert_eq!(timezone, Some("UTC")),
        }
    }
}

/// A batch of every primitive kind and every nesting, built by hand, with nulls at
/// every level; and the rows the reader should give back.
fn hand_batch() -> (Batch, Vec<Row>) {
    let strings: ByteArrayBatch = ["ab", "", "héllo wörld", "z"].into_iter().collect();
    let batch = Batch {
        num_rows: 4,
        columns: vec![
            Vector::with_present(
                VectorData::Int(vec![-128, 0, 127, 5]),
                vec![true, false, true, true],
            ),
            Vector::new(VectorData::Bytes(strings.clone())),
            Vector::new(VectorData::Bytes(strings.clone())),
            Vector::with_present(VectorData::Bytes(strings), vec![true, true, false, true]),
            Vector::new(VectorData::Timestamp {
                seconds: vec![-2, 0, -86_401, 1_420_070_400],
                nanos: vec![999_999_999, 1, 500_000, 100_000],
            }),
            Vector::new(VectorData::Decimal {
                values: vec![15, -12_345, 0, 99_999_999],
                scales: vec![1, 3, 0, 2],
            }),
            // struct<a:int,l:array<string>>, null at row 1; a null at row 2; l null at 3.
            Vector::with_present(
                VectorData::Struct {
                    len: 4,
                    fields: vec![
                        Vector::with_present(
                            VectorData::Int(vec![1, 0, 0, 4]),
                            vec![true, false, false, true],
                        ),
                        Vector::with_present(
                            VectorData::List {
                                offsets: vec![0, 2, 2, 3, 3],
                                elements: Box::new(Vector::with_present(
                                    VectorData::Bytes(["x", "", "y"].into_iter().collect()),
                                    vec![true, false, true],
                                )),
                            },
                            vec![true, false, true, false],
                        ),
                    ],
                },
                vec![true, false, true, true],
            ),
            // map<int,uniontype<double,boolean>>
            Vector::with_present(
                VectorData::Map {
                    offsets: vec![0, 3, 3, 3, 4],
                    keys: Box::new(Vector::new(VectorData::Int(vec![1, 2, 3, 4]))),
                    values: Box::new(Vector::with_present(
                        VectorData::Union {
                            tags: vec![0, 1, 0, 1],
                            alternatives: vec![
                                Vector::with_present(
                                    VectorData::Double(vec![2.5, 0.0, 0.0, 0.0]),
                                    vec![true, false, false, false],
                                ),
                                Vector::with_present(
                                    VectorData::Boolean(vec![false, true, false, false]),
                                    vec![false, true, false, true],
                                ),
                            ],
                        },
                        vec![true, true, false, true],
                    )),
                },
                vec![true, false, true, true],
            ),
        ],
    };
    let s = |v: &str| text(v);
    let nanos = |secs: i128, ns: i128| ts(secs * 1_000_000_000 + ns, false);
    let dec = |unscaled: i128| Field::Decimal { unscaled, scale: 3 };
    let rows = vec![
        row(vec![
            ("t", Field::Int(-128)),
            ("c", s("ab ")),
            ("v", s("ab")),
            ("str", s("ab")),
            ("ts", nanos(-2, 999_999_999)),
            ("dec", dec(1500)),
            (
                "st",
                group(vec![
                    ("a", Field::Int(1)),
                    ("l", Field::List(vec![s("x"), Field::Null])),
                ]),
            ),
            (
                "m",
                Field::Map(vec![
                    (Field::Int(1), union(0, Field::Double(2.5))),
                    (Field::Int(2), union(1, Field::Bool(true))),
                    (Field::Int(3), Field::Null),
                ]),
            ),
        ]),
        row(vec![
            ("t", Field::Null),
            ("c", s("   ")),
            ("v", s("")),
            ("str", s("")),
            ("ts", nanos(0, 1)),
            ("dec", dec(-12_345)),
            ("st", Field::Null),
            ("m", Field::Null),
        ]),
        row(vec![
            ("t", Field::Int(127)),
            ("c", s("hél")),
            ("v", s("héll")),
            ("str", Field::Null),
            ("ts", nanos(-86_401, 500_000)),
            ("dec", dec(0)),
            (
                "st",
                group(vec![("a", Field::Null), ("l", Field::List(vec![s("y")]))]),
            ),
            ("m", Field::Map(vec![])),
        ]),
        row(vec![
            ("t", Field::Int(5)),
            ("c", s("z  ")),
            ("v", s("z")),
            ("str", s("z")),
            ("ts", nanos(1_420_070_400, 100_000)),
            ("dec", dec(999_999_990)),
            ("st", group(vec![("a", Field::Int(4)), ("l", Field::Null)])),
            (
                "m",
                Field::Map(vec![(Field::Int(4), union(1, Field::Bool(false)))]),
            ),
        ]),
    ];
    (batch, rows)
}

const HAND_SCHEMA: &str = "struct<t:tinyint,c:char(3),v:varchar(4),str:string,ts:timestamp,\
    dec:decimal(12,3),st:struct<a:int,l:array<string>>,m:map<int,uniontype<double,boolean>>>";

#[test]
fn batches_with_nulls_at_every_level_round_trip() {
    let (batch, expected) = hand_batch();
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        for compression in [OrcCompression::None, OrcCompression::Zlib] {
            let bytes = write_batches(
                HAND_SCHEMA,
                &[batch.clone(), batch.clone()],
                options(version, compression).row_index_stride(3),
            );
            let got = read_rows(&bytes);
            assert_eq!(got.len(), 8);
            for (i, g) in got.iter().enumerate() {
                assert_eq!(g, &expected[i % 4], "row {i} {version} {compression}");
            }
        }
    }
}

#[test]
fn rows_and_batches_interleave_in_order() {
    let (batch, expected) = hand_batch();
    let schema = TypeDescription::parse(HAND_SCHEMA).unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    writer.write_row(&expected[3]).unwrap();
    writer.write_batch(&batch).unwrap();
    writer.write_row(&expected[0]).unwrap();
    assert_eq!(writer.num_rows(), 6);
    let got = read_rows(&writer.finish().unwrap());
    let order = [3, 0, 1, 2, 3, 0];
    assert_eq!(got.len(), order.len());
    for (g, &k) in got.iter().zip(&order) {
        assert_eq!(g, &expected[k]);
    }
}

fn encodings_of(bytes: &[u8]) -> Vec<Vec<Option<i32>>> {
    let reader = OrcReader::open(bytes.to_vec()).unwrap();
    (0..reader.stripes().len())
        .map(|s| {
            reader
                .stripe_footer(s)
                .unwrap()
                .encodings
                .iter()
                .map(|e| e.kind)
                .collect()
        })
        .collect()
}

#[test]
fn string_encoding_follows_the_dictionary_ratio() {
    // few: 50 distinct values; many: all distinct; both with some nulls.
    let rows: Vec<Row> = (0..3000)
        .map(|i| {
            row(vec![
                (
                    "few",
                    if i % 10 == 0 {
                        Field::Null
                    } else {
                        text(&format!("f{}", i % 50))
                    },
                ),
                ("many", text(&format!("m{i}"))),
                ("ch", text(&format!("{}", i % 7))),
                ("bin", Field::Bytes(vec![1, 2])),
            ])
        })
        .collect();
    let schema = "struct<few:string,many:string,ch:char(2),bin:binary>";
    let dict = |v: OrcVersion| match v {
        OrcVersion::V0_11 => Some(Encoding::Dictionary as i32),
        OrcVersion::V0_12 => Some(Encoding::DictionaryV2 as i32),
    };
    let direct = |v: OrcVersion| match v {
        OrcVersion::V0_11 => Some(Encoding::Direct as i32),
        OrcVersion::V0_12 => Some(Encoding::DirectV2 as i32),
    };
    for stride in [0, 1000] {
        // 0.12: the ratio decides.
        let v = OrcVersion::V0_12;
        let bytes = write_rows(
            schema,
            &rows,
            options(v, OrcCompression::Zlib).row_index_stride(stride),
        );
        let e = &encodings_of(&bytes)[0];
        assert_eq!(
            [e[1], e[2], e[3], e[4]],
            [dict(v), direct(v), dict(v), direct(v)]
        );
        assert_eq!(read_rows(&bytes).len(), 3000);
        let expected: Vec<Row> = rows
            .iter()
            .map(|r| {
                let mut fields = r.fields().to_vec();
                if let Field::Str(s) = &mut fields[2].1 {
                    s.push(' ');
                }
                Row::new(fields)
            })
            .collect();
        assert_eq!(read_rows(&bytes), expected);
        // 0.11: the same choice, with the version 1 encodings.
        let v = OrcVersion::V0_11;
        let bytes = write_rows(
            schema,
            &rows,
            options(v, OrcCompression::None).row_index_stride(stride),
        );
        let e = &encodings_of(&bytes)[0];
        assert_eq!(
            [e[1], e[2], e[3], e[4]],
            [dict(v), direct(v), dict(v), direct(v)]
        );
        assert_eq!(read_rows(&bytes), expected);
        // A threshold of 0 turns dictionaries off, 1 keeps them.
        for (v, threshold, want) in [
            (OrcVersion::V0_12, 0.0, direct(OrcVersion::V0_12)),
            (OrcVersion::V0_11, 0.0, direct(OrcVersion::V0_11)),
            (OrcVersion::V0_12, 1.0, dict(OrcVersion::V0_12)),
        ] {
            let bytes = write_rows(
                schema,
                &rows,
                options(v, OrcCompression::None)
                    .row_index_stride(stride)
                    .dictionary_key_size_threshold(threshold),
            );
            let e = &encodings_of(&bytes)[0];
            assert_eq!([e[1], e[2], e[3]], [want; 3]);
            assert_eq!(read_rows(&bytes), expected);
        }
    }
}

#[test]
fn the_choice_is_made_per_stripe_after_its_first_row_group() {
    // Rows 0..1000 repeat three values, the rest are all distinct.
    let rows: Vec<Row> = (0..8000)
        .map(|i| {
            let value = if i < 1000 {
                format!("r{}", i % 3)
            } else {
                format!("d{i}")
            };
            row(vec![("s", text(&value))])
        })
        .collect();
    // One stripe: the first group repeats, so the dictionary stays for the stripe.
    let single = write_rows(
        "struct<s:string>",
        &rows,
        options(OrcVersion::V0_12, OrcCompression::Snappy).row_index_stride(1000),
    );
    assert_eq!(
        encodings_of(&single)[0][1],
        Some(Encoding::DictionaryV2 as i32)
    );
    assert_eq!(read_rows(&single), rows);

    // With stripes of about 4000 rows (small stripe size), the second stripe starts
    // with distinct values and goes direct.
    let bytes = write_rows(
        "struct<s:string>",
        &rows,
        options(OrcVersion::V0_12, OrcCompression::Snappy)
            .row_index_stride(1000)
            .stripe_size(40_000),
    );
    let encodings = encodings_of(&bytes);
    assert!(encodings.len() >= 2, "{} stripes", encodings.len());
    assert_eq!(encodings[0][1], Some(Encoding::DictionaryV2 as i32));
    assert!(
        encodings[1..]
            .iter()
            .all(|e| e[1] == Some(Encoding::DirectV2 as i32))
    );
    assert_eq!(read_rows(&bytes), rows);
}

/// The streams of one stripe, decompressed, with their chunk tables.
struct StripeStreams {
    streams: Vec<(u32, i32, Vec<u8>, Vec<(u64, u64)>)>,
    encodings: Vec<proto::ColumnEncoding>,
}

impl StripeStreams {
    fn read(bytes: &[u8], stripe: usize) -> Self {
        let reader = OrcReader::open(bytes.to_vec()).unwrap();
        let footer = reader.stripe_footer(stripe).unwrap();
        let mut decoder =
            ChunkDecoder::new(reader.compression(), reader.compression_block_size()).unwrap();
        let streams = footer
            .streams
            .iter()
            .map(|s| {
                let raw = &bytes[s.offset as usize..(s.offset + s.length) as usize];
                let (mut out, mut table) = (Vec::new(), Vec::new());
                decoder.decode_stream(raw, &mut out, &mut table).unwrap();
                (s.column, s.kind, out, table)
            })
            .collect();
        Self {
            streams,
            encodings: footer.encodings,
        }
    }

    fn stream(&self, column: u32, kind: StreamKind) -> Option<(&[u8], &[(u64, u64)])> {
        self.streams
            .iter()
            .find(|(c, k, ..)| *c == column && *k == kind as i32)
            .map(|(_, _, data, table)| (data.as_slice(), table.as_slice()))
    }

    fn row_index(&self, column: u32) -> proto::RowIndex {
        let (data, _) = self.stream(column, StreamKind::RowIndex).unwrap();
        proto::RowIndex::decode(data).unwrap()
    }
}

/// Reads a position's numbers for one stream: the offset in the decoded stream, then
/// `extras` more numbers.
fn take_position(
    positions: &mut std::slice::Iter<'_, u64>,
    table: &[(u64, u64)],
    compressed: bool,
    extras: usize,
) -> (usize, Vec<u64>) {
    let offset = if compressed {
        let chunk = *positions.next().unwrap();
        let within = *positions.next().unwrap();
        seek_offset(table, chunk, within).unwrap()
    } else {
        *positions.next().unwrap() as usize
    };
    (
        offset,
        (0..extras).map(|_| *positions.next().unwrap()).collect(),
    )
}

#[test]
fn row_index_positions_point_at_their_row_groups() {
    const STRIDE: usize = 1000;
    const ROWS: usize = 10_500;
    let value_of = |i: usize| (i as i64 * 7919) % 100_003 - 50_000;
    let null_at = |i: usize| i % 3 == 1 || (2000..2200).contains(&i);
    let rows: Vec<Row> = (0..ROWS)
        .map(|i| {
            row(vec![
                ("a", Field::Int(value_of(i))),
                (
                    "n",
                    if null_at(i) {
                        Field::Null
                    } else {
                        Field::Int(value_of(i))
                    },
                ),
                ("d", text(&format!("direct-{i}"))),
                ("k", text(&format!("key-{}", i % 10))),
            ])
        })
        .collect();
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let rle = match version {
            OrcVersion::V0_11 => Version::V1,
            OrcVersion::V0_12 => Version::V2,
        };
        for compression in [
            OrcCompression::None,
            OrcCompression::Zlib,
            OrcCompression::Lz4,
        ] {
            if !compression.is_enabled() {
                continue;
            }
            let compressed = compression.is_compressed();
            let bytes = write_rows(
                "struct<a:bigint,n:int,d:string,k:string>",
                &rows,
                options(version, compression)
                    .row_index_stride(STRIDE)
                    .compression_block_size(1500)
                    .dictionary_key_size_threshold(0.5),
            );
            let stripe = StripeStreams::read(&bytes, 0);
            let groups = ROWS.div_ceil(STRIDE);

            // a: no nulls, so no PRESENT stream and no PRESENT positions.
            assert!(stripe.stream(1, StreamKind::Present).is_none());
            let (data, table) = stripe.stream(1, StreamKind::Data).unwrap();
            let index = stripe.row_index(1);
            assert_eq!(index.entry.len(), groups);
            for (g, entry) in index.entry.iter().enumerate() {
                let mut p = entry.positions.iter();
                let (offset, extra) = take_position(&mut p, table, compressed, 1);
                assert!(p.next().is_none());
                let mut decoder = int::Decoder::new(&data[offset..], rle, Signed);
                assert_eq!(decoder.skip(extra[0] as usize).unwrap(), extra[0] as usize);
                let mut out = [0i64; 1];
                assert_eq!(decoder.decode(&mut out).unwrap(), 1);
                assert_eq!(out[0], value_of(g * STRIDE), "a, group {g}");
                // The group's statistics.
                let stats = ColumnStatistics::from_proto(entry.statistics.as_ref().unwrap());
                let range = g * STRIDE..((g + 1) * STRIDE).min(ROWS);
                assert_eq!(stats.number_of_values, range.len() as u64);
                let TypedStatistics::Integer { min, max, sum } = stats.typed else {
                    panic!("{stats:?}")
                };
                assert_eq!(min, range.clone().map(value_of).min());
                assert_eq!(max, range.clone().map(value_of).max());
                assert_eq!(sum, Some(range.map(value_of).sum()));
            }

            // n: PRESENT positions first, then DATA.
            let (present, present_table) = stripe.stream(2, StreamKind::Present).unwrap();
            let (data, table) = stripe.stream(2, StreamKind::Data).unwrap();
            for (g, entry) in stripe.row_index(2).entry.iter().enumerate() {
                let mut p = entry.positions.iter();
                let (offset, extra) = take_position(&mut p, present_table, compressed, 2);
                let mut bits = boolean::Decoder::new(&present[offset..]);
                let skip = (8 * extra[0] + extra[1]) as usize;
                assert_eq!(bits.skip(skip).unwrap(), skip);
                let mut flags = [false; 1];
                bits.decode(&mut flags).unwrap();
                assert_eq!(flags[0], !null_at(g * STRIDE), "n presence, group {g}");
                let (offset, extra) = take_position(&mut p, table, compressed, 1);
                assert!(p.next().is_none());
                let mut decoder = int::Decoder::new(&data[offset..], rle, Signed);
                decoder.skip(extra[0] as usize).unwrap();
                let mut out = [0i64; 1];
                let first = (g * STRIDE..ROWS).find(|&i| !null_at(i)).unwrap();
                assert_eq!(decoder.decode(&mut out).unwrap(), 1);
                assert_eq!(out[0], value_of(first), "n, group {g}");
                let stats = ColumnStatistics::from_proto(entry.statistics.as_ref().unwrap());
                assert_eq!(stats.has_null, Some(true));
            }

            // d: direct (DATA bytes, then LENGTH).
            let kind = stripe.encodings[3].kind;
            assert_eq!(
                kind,
                Some(match version {
                    OrcVersion::V0_11 => Encoding::Direct,
                    OrcVersion::V0_12 => Encoding::DirectV2,
                } as i32)
            );
            check_string_positions(&stripe, 3, rle, compressed, STRIDE, |i| {
                format!("direct-{i}")
            });
            // k: a dictionary (DATA ids).
            check_string_positions(&stripe, 4, rle, compressed, STRIDE, |i| {
                format!("key-{}", i % 10)
            });
        }
    }
}

/// Checks that each row group's positions of a string column (no nulls) lead to the
/// group's first value, for either encoding.
fn check_string_positions(
    stripe: &StripeStreams,
    column: u32,
    rle: Version,
    compressed: bool,
    stride: usize,
    value: impl Fn(usize) -> String,
) {
    let kind =
        proto::column_encoding::Kind::try_from(stripe.encodings[column as usize].kind.unwrap())
            .unwrap();
    let (data, data_table) = stripe.stream(column, StreamKind::Data).unwrap();
    let (lengths, length_table) = stripe.stream(column, StreamKind::Length).unwrap();
    let dictionary: Vec<Vec<u8>> = match kind {
        Encoding::Dictionary | Encoding::DictionaryV2 => {
            let (blob, _) = stripe.stream(column, StreamKind::DictionaryData).unwrap();
            let mut decoder = int::Decoder::new(lengths, rle, Unsigned);
            let size = stripe.encodings[column as usize].dictionary_size.unwrap() as usize;
            let mut lens = vec![0i64; size];
            assert_eq!(decoder.decode(&mut lens).unwrap(), size);
            let mut at = 0;
            let entries: Vec<Vec<u8>> = lens
                .iter()
                .map(|&l| {
                    let entry = blob[at..at + l as usize].to_vec();
                    at += l as usize;
                    entry
                })
                .collect();
            // Sorted, as Java sorts it.
            assert!(entries.windows(2).all(|w| w[0] < w[1]));
            entries
        }
        _ => Vec::new(),
    };
    for (g, entry) in stripe.row_index(column).entry.iter().enumerate() {
        let mut p = entry.positions.iter();
        let got = if dictionary.is_empty() {
            let (offset, _) = take_position(&mut p, data_table, compressed, 0);
            let (length_offset, extra) = take_position(&mut p, length_table, compressed, 1);
            let mut decoder = int::Decoder::new(&lengths[length_offset..], rle, Unsigned);
            decoder.skip(extra[0] as usize).unwrap();
            let mut len = [0i64; 1];
            decoder.decode(&mut len).unwrap();
            data[offset..offset + len[0] as usize].to_vec()
        } else {
            let (offset, extra) = take_position(&mut p, data_table, compressed, 1);
            let mut decoder = int::Decoder::new(&data[offset..], rle, Unsigned);
            decoder.skip(extra[0] as usize).unwrap();
            let mut id = [0i64; 1];
            decoder.decode(&mut id).unwrap();
            dictionary[id[0] as usize].clone()
        };
        assert!(p.next().is_none());
        assert_eq!(
            String::from_utf8(got).unwrap(),
            value(g * stride),
            "column {column}, group {g}"
        );
    }
}

#[test]
fn stripes_split_by_size() {
    let rows: Vec<Row> = (0..60_000)
        .map(|i| {
            row(vec![
                ("id", Field::Int(i)),
                ("name", text(&format!("name {}", i * 7919 % 60_000))),
                (
                    "x",
                    if i % 5 == 0 {
                        Field::Null
                    } else {
                        Field::Double(i as f64)
                    },
                ),
            ])
        })
        .collect();
    for compression in [OrcCompression::None, OrcCompression::Zstd] {
        if !compression.is_enabled() {
            continue;
        }
        let bytes = write_rows(
            "struct<id:bigint,name:string,x:double>",
            &rows,
            options(OrcVersion::V0_12, compression)
                .stripe_size(200_000)
                .row_index_stride(2500),
        );
        let reader = OrcReader::open(bytes.clone()).unwrap();
        let stripes = reader.stripes();
        assert!(stripes.len() >= 3, "{} stripes", stripes.len());
        assert_eq!(stripes.iter().map(|s| s.num_rows).sum::<u64>(), 60_000);
        // Stripes follow each other from the header.
        let mut offset = 3;
        for s in stripes {
            assert_eq!(s.offset, offset);
            offset += s.index_length + s.data_length + s.footer_length;
        }
        // Every stripe's row index has an entry per row group of that stripe.
        for (k, s) in stripes.iter().enumerate() {
            let streams = StripeStreams::read(&bytes, k);
            for column in 0..4 {
                assert_eq!(
                    streams.row_index(column).entry.len() as u64,
                    s.num_rows.div_ceil(2500),
                    "stripe {k} column {column}"
                );
            }
        }
        // Stripe statistics add up to the file's.
        let stripe_stats = reader.stripe_statistics_proto().unwrap();
        assert_eq!(stripe_stats.len(), stripes.len());
        for column in 0..4 {
            let total: u64 = stripe_stats
                .iter()
                .map(|s| s.col_stats[column].number_of_values.unwrap())
                .sum();
            let file = reader.file_statistics_proto()[column]
                .number_of_values
                .unwrap();
            assert_eq!(total, file, "column {column}");
            // Bytes on disk are recorded for stripes and the file (not for the root,
            // which has no streams).
            if column > 0 {
                assert!(stripe_stats[0].col_stats[column].bytes_on_disk.unwrap() > 0);
            }
        }
        assert_eq!(read_rows(&bytes), rows);
    }
}

#[test]
fn statistics_match_the_values() {
    let schema = "struct<i:int,d:double,s:string,b:boolean,dt:date,ts:timestamp,\
        dec:decimal(10,2),bin:binary,l:array<int>,st:struct<a:int>>";
    let rows: Vec<Row> = (0..1000_i64)
        .map(|i| {
            row(vec![
                (
                    "i",
                    if i == 500 {
                        Field::Null
                    } else {
                        Field::Int(i - 300)
                    },
                ),
                ("d", Field::Double(i as f64 / 4.0)),
                ("s", text(&format!("s{:04}", 999 - i))),
                ("b", Field::Bool(i % 4 == 0)),
                ("dt", Field::Date(i as i32 - 100)),
                (
                    "ts",
                    ts(
                        i128::from(i) * 1_000_123_456 + 1_700_000_000_000_000_000,
                        false,
                    ),
                ),
                (
                    "dec",
                    Field::Decimal {
                        unscaled: i128::from(i) * 5 - 1000,
                        scale: 2,
                    },
                ),
                ("bin", Field::Bytes(vec![0; (i % 3) as usize])),
                ("l", Field::List((0..i % 4).map(Field::Int).collect())),
                (
                    "st",
                    if i % 2 == 0 {
                        Field::Null
                    } else {
                        group(vec![("a", Field::Int(i))])
                    },
                ),
            ])
        })
        .collect();
    let bytes = write_rows(
        schema,
        &rows,
        options(OrcVersion::V0_12, OrcCompression::Zlib).row_index_stride(100),
    );
    let reader = OrcReader::open(bytes).unwrap();
    let stats: Vec<ColumnStatistics> = reader
        .file_statistics_proto()
        .iter()
        .map(ColumnStatistics::from_proto)
        .collect();
    assert_eq!(stats.len(), 13);
    assert_eq!(stats[0].number_of_values, 1000);
    assert_eq!(stats[0].has_null, Some(false));
    assert_eq!(
        (stats[1].number_of_values, stats[1].has_null),
        (999, Some(true))
    );
    let int_sum: i64 = (0..1000).filter(|&i| i != 500).map(|i| i - 300).sum();
    assert_eq!(
        stats[1].typed,
        TypedStatistics::Integer {
            min: Some(-300),
            max: Some(699),
            sum: Some(int_sum)
        }
    );
    assert_eq!(
        stats[2].typed,
        TypedStatistics::Double {
            min: Some(0.0),
            max: Some(249.75),
            sum: Some((0..1000).map(|i| f64::from(i) / 4.0).sum())
        }
    );
    assert_eq!(
        stats[3].typed,
        TypedStatistics::String {
            min: Some("s0000".into()),
            max: Some("s0999".into()),
            lower_bound: None,
            upper_bound: None,
            sum: Some(5000)
        }
    );
    assert_eq!(stats[4].typed, TypedStatistics::Boolean { true_count: 250 });
    assert_eq!(
        stats[5].typed,
        TypedStatistics::Date {
            min: Some(-100),
            max: Some(899)
        }
    );
    let max_nanos = 999 * 1_000_123_456_i64;
    assert_eq!(
        stats[6].typed,
        TypedStatistics::Timestamp {
            min_millis: None,
            max_millis: None,
            min_utc_millis: Some(1_700_000_000_000),
            max_utc_millis: Some(1_700_000_000_000 + max_nanos / 1_000_000),
            min_nanos: None,
            max_nanos: Some((max_nanos % 1_000_000) as u32),
        }
    );
    // The sum is 1,497,500 hundredths.
    assert_eq!((0..1000).map(|i| i * 5 - 1000).sum::<i64>(), 1_497_500);
    assert_eq!(
        stats[7].typed,
        TypedStatistics::Decimal {
            min: Some("-10".into()),
            max: Some("39.95".into()),
            sum: Some("14975".into())
        }
    );
    assert_eq!(stats[8].typed, TypedStatistics::Binary { sum: Some(999) });
    assert_eq!(
        stats[9].typed,
        TypedStatistics::Collection {
            min_children: Some(0),
            max_children: Some(3),
            total_children: Some(1500)
        }
    );
    assert_eq!(stats[10].number_of_values, 1500);
    assert_eq!(
        (stats[11].number_of_values, stats[11].has_null),
        (500, Some(true))
    );
    assert_eq!(stats[11].typed, TypedStatistics::None);
    assert_eq!(stats[12].number_of_values, 500);
    // The file's bytes on disk are the stripes'.
    let stripe = &reader.stripe_statistics_proto().unwrap()[0];
    for (file, stripe) in stats.iter().zip(&stripe.col_stats) {
        assert_eq!(file.bytes_on_disk, stripe.bytes_on_disk);
        assert_eq!(Some(file.number_of_values), stripe.number_of_values);
    }
    // A human-readable line.
    assert_eq!(
        stats[5].to_string(),
        "count: 1000 hasNull: false bytesOnDisk: ".to_owned()
            + &stats[5].bytes_on_disk.unwrap().to_string()
            + " min: 1969-09-23 max: 1972-06-18"
    );
}

#[test]
fn long_strings_are_recorded_as_bounds() {
    let long_a = "a".repeat(1500);
    let long_z = format!("{}é", "z".repeat(1100));
    let rows = vec![
        row(vec![("s", text(&long_z))]),
        row(vec![("s", text(&long_a))]),
    ];
    let bytes = write_rows("struct<s:string>", &rows, WriterOptions::default());
    let reader = OrcReader::open(bytes.clone()).unwrap();
    let stats = ColumnStatistics::from_proto(&reader.file_statistics_proto()[1]);
    let TypedStatistics::String {
        min,
        max,
        lower_bound,
        upper_bound,
        sum,
    } = stats.typed
    else {
        panic!()
    };
    assert_eq!((min, max), (None, None));
    assert_eq!(lower_bound.unwrap(), "a".repeat(1024));
    assert_eq!(upper_bound.unwrap(), format!("{}{{", "z".repeat(1023)));
    assert_eq!(sum, Some(1500 + 1102));
    assert_eq!(read_rows(&bytes), rows);
}

#[test]
fn user_metadata_is_kept() {
    let schema = TypeDescription::parse("struct<a:int>").unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    writer.add_user_metadata("zeta", b"last".to_vec());
    writer.add_user_metadata("alpha", vec![0, 255]);
    writer.add_user_metadata("zeta", b"replaced".to_vec());
    writer.write_row(&row(vec![("a", Field::Int(1))])).unwrap();
    let bytes = writer.finish().unwrap();
    let reader = OrcReader::open(bytes).unwrap();
    let items: Vec<(String, Vec<u8>)> = reader
        .user_metadata()
        .map(|(k, v)| (k.to_owned(), v.to_vec()))
        .collect();
    assert_eq!(
        items,
        [
            ("alpha".to_owned(), vec![0, 255]),
            ("zeta".to_owned(), b"replaced".to_vec())
        ]
    );
}

#[test]
fn an_empty_file_is_valid() {
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        for compression in [OrcCompression::None, OrcCompression::Zlib] {
            let schema = TypeDescription::parse("struct<a:int,b:array<string>>").unwrap();
            let writer = OrcWriter::new(Vec::new(), schema, options(version, compression)).unwrap();
            assert_eq!(writer.num_rows(), 0);
            let bytes = writer.finish().unwrap();
            assert_eq!(&bytes[..3], b"ORC");
            let reader = OrcReader::open(bytes.clone()).unwrap();
            assert_eq!(reader.num_rows(), 0);
            assert!(reader.stripes().is_empty());
            assert_eq!(reader.schema().to_string(), "struct<a:int,b:array<string>>");
            let stats = reader.file_statistics_proto();
            assert_eq!(stats.len(), 4);
            assert!(stats.iter().all(|s| s.number_of_values == Some(0)));
            assert!(read_rows(&bytes).is_empty());
        }
    }
}

#[test]
fn timestamps_round_trip_around_the_epochs() {
    // Second and nanosecond pairs, before and after 1970 and 2015 (the file's base);
    // Java's (and so every reader's) encoding cannot hold (-1 s, 0) with a fraction
    // of a millisecond or more, so that range is left out.
    let values: Vec<i128> = [
        (0, 0),
        (0, 1),
        (-1, 0),
        (-1, 999_999),
        (-2, 500_000_000),
        (-86_400 * 365 * 300, 123_456_789),
        (1_420_070_400, 0),
        (1_420_070_399, 999_999_999),
        (1_420_070_401, 1000),
        (4_102_444_800, 100_000),
        (-62_135_596_800, 7),
    ]
    .iter()
    .map(|&(s, n): &(i64, i64)| i128::from(s) * 1_000_000_000 + i128::from(n))
    .collect();
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let instant = version == OrcVersion::V0_12;
        let schema = if instant {
            "struct<t:timestamp,u:timestamp with local time zone>"
        } else {
            "struct<t:timestamp>"
        };
        let rows: Vec<Row> = values
            .iter()
            .map(|&v| {
                let mut fields = vec![("t", ts(v, false))];
                if instant {
                    fields.push(("u", ts(v, true)));
                }
                row(fields)
            })
            .collect();
        let bytes = write_rows(schema, &rows, options(version, OrcCompression::None));
        assert_eq!(read_rows(&bytes), rows, "{version}");
    }
}

#[test]
fn decimal_scales_follow_the_version() {
    // 1.5 given with scale 1 for a decimal(10,2) column.
    let batch = Batch {
        num_rows: 2,
        columns: vec![Vector::new(VectorData::Decimal {
            values: vec![15, -7],
            scales: vec![1, 2],
        })],
    };
    // DATA holds zigzag varints: 150 -> 300 = [0xac, 0x02], 15 -> 30, -7 -> 13.
    for (version, rle, data_bytes, scales) in [
        (
            OrcVersion::V0_12,
            Version::V2,
            vec![0xac_u8, 0x02, 13],
            [2i64, 2],
        ),
        (OrcVersion::V0_11, Version::V1, vec![30, 13], [1, 2]),
    ] {
        let bytes = write_batches(
            "struct<d:decimal(10,2)>",
            std::slice::from_ref(&batch),
            options(version, OrcCompression::None),
        );
        let stripe = StripeStreams::read(&bytes, 0);
        let (data, _) = stripe.stream(1, StreamKind::Data).unwrap();
        assert_eq!(data, data_bytes.as_slice());
        let (secondary, _) = stripe.stream(1, StreamKind::Secondary).unwrap();
        let mut decoder = int::Decoder::new(secondary, rle, Signed);
        let mut out = [0i64; 2];
        assert_eq!(decoder.decode(&mut out).unwrap(), 2);
        assert_eq!(out, scales);
        assert_eq!(
            read_rows(&bytes),
            [
                row(vec![(
                    "d",
                    Field::Decimal {
                        unscaled: 150,
                        scale: 2
                    }
                )]),
                row(vec![(
                    "d",
                    Field::Decimal {
                        unscaled: -7,
                        scale: 2
                    }
                )]),
            ]
        );
    }
}

fn refused(result: orc_file::Result<()>) -> Error {
    match result {
        Err(e) if e.kind().is_input() => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A test of a refusal.
type Check = fn(&Error) -> bool;

/// Whether `error` is of the column `column`.
fn at(error: &Error, column: u32) -> bool {
    error.location().column == Some(column)
}

#[test]
fn refused_batches_leave_the_writer_usable() {
    let schema = TypeDescription::parse(
        "struct<t:tinyint,s:string,d:decimal(4,1),ts:timestamp,l:array<int>,u:uniontype<int>>",
    )
    .unwrap();
    let good = || Batch {
        num_rows: 1,
        columns: vec![
            Vector::new(VectorData::Int(vec![1])),
            Vector::new(VectorData::Bytes(["ok"].into_iter().collect())),
            Vector::new(VectorData::Decimal {
                values: vec![125],
                scales: vec![1],
            }),
            Vector::new(VectorData::Timestamp {
                seconds: vec![0],
                nanos: vec![0],
            }),
            Vector::new(VectorData::List {
                offsets: vec![0, 1],
                elements: Box::new(Vector::new(VectorData::Int(vec![9]))),
            }),
            Vector::new(VectorData::Union {
                tags: vec![0],
                alternatives: vec![Vector::new(VectorData::Int(vec![3]))],
            }),
        ],
    };
    let mut writer = OrcWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    writer.write_batch(&good()).unwrap();
    let mutations: Vec<(Check, Box<dyn Fn(&mut Batch)>)> = vec![
        (
            |e| {
                matches!(
                    e.kind(),
                    ErrorKind::InputMismatch {
                        expected: 6,
                        found: 5,
                        ..
                    }
                )
            },
            Box::new(|b| drop(b.columns.pop())),
        ),
        (
            |e| {
                at(e, 1)
                    && matches!(
                        e.kind(),
                        ErrorKind::InputMismatch {
                            what: "slots of the vector",
                            expected: 2,
                            found: 1,
                        }
                    )
            },
            Box::new(|b| b.num_rows = 2),
        ),
        (
            |e| {
                at(e, 2)
                    && matches!(
                        e.kind(),
                        ErrorKind::WrongInputType {
                            expected: "string",
                            found: "Int data",
                            ..
                        }
                    )
            },
            Box::new(|b| b.columns[1] = Vector::new(VectorData::Int(vec![1]))),
        ),
        (
            |e| {
                at(e, 1)
                    && matches!(
                        e.kind(),
                        ErrorKind::InvalidInput {
                            kind: Some("tinyint"),
                            value: Some(200),
                            slot: Some(0),
                            ..
                        }
                    )
            },
            Box::new(|b| b.columns[0] = Vector::new(VectorData::Int(vec![200]))),
        ),
        (
            |e| {
                at(e, 2)
                    && matches!(
                        e.kind(),
                        ErrorKind::InvalidInput {
                            kind: Some("string"),
                            value: None,
                            slot: Some(0),
                            ..
                        }
                    )
            },
            Box::new(|b| {
                b.columns[1] = Vector::new(VectorData::Bytes(
                    [&[0xff_u8, 0xfe][..]].into_iter().collect(),
                ));
            }),
        ),
        (
            |e| {
                at(e, 3)
                    && matches!(
                        e.kind(),
                        ErrorKind::DecimalOutOfRange {
                            unscaled: 12_345,
                            value_scale: 1,
                            precision: Some(4),
                            scale: Some(1),
                            slot: Some(0),
                        }
                    )
            },
            Box::new(|b| {
                b.columns[2] = Vector::new(VectorData::Decimal {
                    values: vec![12_345],
                    scales: vec![1],
                });
            }),
        ),
        (
            |e| {
                at(e, 3)
                    && matches!(
                        e.kind(),
                        ErrorKind::DecimalOutOfRange {
                            unscaled: 1_234,
                            value_scale: 3,
                            ..
                        }
                    )
            },
            Box::new(|b| {
                b.columns[2] = Vector::new(VectorData::Decimal {
                    values: vec![1_234],
                    scales: vec![3],
                });
            }),
        ),
        (
            |e| {
                at(e, 4)
                    && matches!(
                        e.kind(),
                        ErrorKind::InvalidInput {
                            value: Some(1_000_000_000),
                            slot: Some(0),
                            ..
                        }
                    )
            },
            Box::new(|b| {
                b.columns[3] = Vector::new(VectorData::Timestamp {
                    seconds: vec![0],
                    nanos: vec![1_000_000_000],
                });
            }),
        ),
        (
            |e| {
                at(e, 5)
                    && matches!(
                        e.kind(),
                        ErrorKind::InputMismatch {
                            expected: 2,
                            found: 1,
                            ..
                        }
                    )
            },
            Box::new(|b| {
                b.columns[4] = Vector::new(VectorData::List {
                    offsets: vec![0, 2],
                    elements: Box::new(Vector::new(VectorData::Int(vec![9]))),
                });
            }),
        ),
        (
            |e| {
                at(e, 7)
                    && matches!(
                        e.kind(),
                        ErrorKind::InvalidInput {
                            kind: Some("uniontype"),
                            value: Some(1),
                            slot: Some(0),
                            ..
                        }
                    )
            },
            Box::new(|b| {
                b.columns[5] = Vector::new(VectorData::Union {
                    tags: vec![1],
                    alternatives: vec![Vector::new(VectorData::Int(vec![3]))],
                });
            }),
        ),
        (
            |e| {
                at(e, 1)
                    && matches!(
                        e.kind(),
                        ErrorKind::InputMismatch {
                            what: "slots of the presence mask",
                            expected: 1,
                            found: 2,
                        }
                    )
            },
            Box::new(|b| b.columns[0].present = Some(vec![true, false])),
        ),
    ];
    for (i, (expected, mutate)) in mutations.iter().enumerate() {
        let mut batch = good();
        mutate(&mut batch);
        let error = refused(writer.write_batch(&batch));
        assert!(expected(&error), "mutation {i}: {error}");
    }
    // A null slot may hold anything.
    let mut batch = good();
    batch.columns[0] = Vector::with_present(VectorData::Int(vec![1000]), vec![false]);
    writer.write_batch(&batch).unwrap();
    writer.write_batch(&good()).unwrap();
    let rows = read_rows(&writer.finish().unwrap());
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1].get("t"), Some(&Field::Null));
    assert_eq!(rows[2], rows[0]);
}

#[test]
fn refused_rows_leave_nothing_behind() {
    let schema = TypeDescription::parse(
        "struct<a:int,v:varchar(3),c:char(2),l:array<smallint>,m:map<string,double>,\
         s:struct<x:tinyint>,u:uniontype<int,string>,d:decimal(5,2)>",
    )
    .unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    let ok = row(vec![
        ("a", Field::Int(1)),
        ("v", text("abc")),
        ("c", text("é")),
    ]);
    writer.write_row(&ok).unwrap();
    let input = |column: u32, kind: &'static str, value: i128, slot: Option<usize>| {
        move |e: &Error| {
            at(e, column)
                && matches!(e.kind(), ErrorKind::InvalidInput { kind: Some(k), value: Some(v), slot: s, .. }
                    if *k == kind && *v == value && *s == slot)
        }
    };
    let wrong = |column: u32, expected: &'static str, found: &'static str, slot: Option<usize>| {
        move |e: &Error| {
            at(e, column)
                && matches!(e.kind(), ErrorKind::WrongInputType { expected: x, found: f, slot: s }
                    if *x == expected && *f == found && *s == slot)
        }
    };
    let no_field = |column: u32, name: &'static str| {
        move |e: &Error| {
            at(e, column) && matches!(e.kind(), ErrorKind::NoSuchField { name: n } if &**n == name)
        }
    };
    let decimal = |unscaled: i128, value_scale: u32| {
        move |e: &Error| {
            at(e, 14)
                && matches!(e.kind(), ErrorKind::DecimalOutOfRange {
                    unscaled: u,
                    value_scale: s,
                    precision: Some(5),
                    scale: Some(2),
                    slot: None,
                } if *u == unscaled && *s == value_scale)
        }
    };
    let bad: Vec<(Row, Box<dyn Fn(&Error) -> bool>)> = vec![
        (
            row(vec![("a", text("1"))]),
            Box::new(wrong(1, "int", "a string", None)),
        ),
        (
            row(vec![("a", Field::Int(1 << 40))]),
            Box::new(input(1, "int", 1 << 40, None)),
        ),
        (
            row(vec![("v", text("abcd"))]),
            Box::new(|e: &Error| {
                at(e, 2)
                    && matches!(
                        e.kind(),
                        ErrorKind::TooLong {
                            kind: "varchar",
                            length: 4,
                            max: 3
                        }
                    )
            }),
        ),
        (
            row(vec![("c", text("abc"))]),
            Box::new(|e: &Error| {
                at(e, 3)
                    && matches!(
                        e.kind(),
                        ErrorKind::TooLong {
                            kind: "char",
                            length: 3,
                            max: 2
                        }
                    )
            }),
        ),
        (
            row(vec![("zz", Field::Int(1))]),
            Box::new(no_field(0, "zz")),
        ),
        (
            row(vec![
                ("a", Field::Int(2)),
                ("l", Field::List(vec![Field::Int(1), Field::Int(40_000)])),
            ]),
            Box::new(input(5, "smallint", 40_000, Some(1))),
        ),
        (
            row(vec![(
                "m",
                Field::Map(vec![(text("k"), Field::Bool(true))]),
            )]),
            Box::new(wrong(8, "double", "a boolean", Some(0))),
        ),
        (
            row(vec![("s", group(vec![("y", Field::Int(1))]))]),
            Box::new(no_field(9, "y")),
        ),
        (
            row(vec![("s", group(vec![("x", Field::Int(300))]))]),
            Box::new(input(10, "tinyint", 300, None)),
        ),
        (
            row(vec![("u", union(2, Field::Int(1)))]),
            Box::new(input(11, "uniontype", 2, None)),
        ),
        (
            row(vec![("u", union(1, Field::Int(1)))]),
            Box::new(wrong(13, "string", "an integer", None)),
        ),
        (
            row(vec![(
                "d",
                Field::Decimal {
                    unscaled: 1,
                    scale: 3,
                },
            )]),
            Box::new(decimal(1, 3)),
        ),
        (
            row(vec![(
                "d",
                Field::Decimal {
                    unscaled: 100_000,
                    scale: 2,
                },
            )]),
            Box::new(decimal(100_000, 2)),
        ),
    ];
    for (r, expected) in &bad {
        let error = refused(writer.write_row(r));
        assert!(expected(&error), "{r:?}: {error}");
    }
    assert_eq!(writer.num_rows(), 1);
    writer
        .write_row(&row(vec![(
            "d",
            Field::Decimal {
                unscaled: 15,
                scale: 1,
            },
        )]))
        .unwrap();
    let rows = read_rows(&writer.finish().unwrap());
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].get("c"), Some(&text("é ")));
    assert_eq!(rows[0].get("u"), Some(&Field::Null));
    assert_eq!(rows[1].get("a"), Some(&Field::Null));
    assert_eq!(
        rows[1].get("d"),
        Some(&Field::Decimal {
            unscaled: 150,
            scale: 2
        })
    );
}

#[test]
fn batches_cut_varchar_and_pad_char() {
    let values: ByteArrayBatch = ["", "ab", "abcdef", "ééééé"].into_iter().collect();
    let batch = Batch {
        num_rows: 4,
        columns: vec![
            Vector::new(VectorData::Bytes(values.clone())),
            Vector::new(VectorData::Bytes(values)),
        ],
    };
    let bytes = write_batches(
        "struct<v:varchar(3),c:char(3)>",
        &[batch],
        WriterOptions::default(),
    );
    let got: Vec<(Field, Field)> = read_rows(&bytes)
        .iter()
        .map(|r| (r.get("v").unwrap().clone(), r.get("c").unwrap().clone()))
        .collect();
    assert_eq!(
        got,
        [
            (text(""), text("   ")),
            (text("ab"), text("ab ")),
            (text("abc"), text("abc")),
            (text("ééé"), text("ééé")),
        ]
    );
}

#[test]
fn bad_settings_are_refused() {
    let schema = || TypeDescription::parse("struct<t:timestamp with local time zone>").unwrap();
    let refuse = |schema: TypeDescription, options: WriterOptions| {
        matches!(
            OrcWriter::new(Vec::new(), schema, options),
            Err(e) if e.kind().is_input()
        )
    };
    assert!(refuse(
        schema(),
        WriterOptions::default().version(OrcVersion::V0_11)
    ));
    assert!(!refuse(schema(), WriterOptions::default()));
    assert!(refuse(
        schema(),
        WriterOptions::default().compression_block_size(0)
    ));
    assert!(refuse(
        schema(),
        WriterOptions::default().writer_timezone("Europe/Paris")
    ));
    assert!(refuse(
        TypeDescription::parse("int").unwrap(),
        WriterOptions::default()
    ));
    // A level for a codec without levels.
    if OrcCompression::Snappy.is_enabled() {
        assert!(
            OrcWriter::new(
                Vec::new(),
                schema(),
                WriterOptions::default()
                    .compression(OrcCompression::Snappy)
                    .compression_level(3)
            )
            .is_err()
        );
    }
}

#[test]
fn a_failing_sink_ends_the_writer() {
    struct Failing(usize);
    impl std::io::Write for Failing {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0 < buf.len() {
                return Err(std::io::Error::other("disk full"));
            }
            self.0 -= buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let schema = TypeDescription::parse("struct<a:bigint>").unwrap();
    let mut writer = OrcWriter::new(
        Failing(100),
        schema,
        WriterOptions::default()
            .stripe_size(1000)
            .compression(OrcCompression::None),
    )
    .unwrap();
    let batch = Batch {
        num_rows: 10_000,
        columns: vec![Vector::new(VectorData::Int(
            (0..10_000).map(|i| i * 7919).collect(),
        ))],
    };
    assert!(matches!(
        writer.write_batch(&batch).map_err(Error::into_kind),
        Err(ErrorKind::Io { .. })
    ));
    assert!(matches!(
        writer.write_batch(&batch).map_err(Error::into_kind),
        Err(ErrorKind::WriterFailed)
    ));
    assert!(writer.finish().is_err());
}

/// Rows of `struct<a:int,s:string,l:array<struct<x:double,y:string>>,m:map<int,bigint>>`.
fn arb_row() -> impl Strategy<Value = Row> {
    let int = prop_oneof![
        Just(Field::Null),
        any::<i32>().prop_map(|v| Field::Int(v.into()))
    ];
    let string = prop_oneof![
        Just(Field::Null),
        "[a-c]{0,3}".prop_map(Field::Str),
        "\\PC{0,12}".prop_map(Field::Str),
    ];
    let element = prop_oneof![
        Just(Field::Null),
        (
            prop_oneof![
                Just(Field::Null),
                any::<f64>()
                    .prop_filter("NaN", |d| !d.is_nan())
                    .prop_map(Field::Double)
            ],
            string.clone()
        )
            .prop_map(|(x, y)| group(vec![("x", x), ("y", y)])),
    ];
    let list = prop_oneof![
        Just(Field::Null),
        prop::collection::vec(element, 0..4).prop_map(Field::List),
    ];
    let map = prop_oneof![
        Just(Field::Null),
        prop::collection::vec(
            (
                any::<i32>(),
                prop_oneof![Just(Field::Null), any::<i64>().prop_map(Field::Int)]
            ),
            0..3
        )
        .prop_map(|entries| {
            Field::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (Field::Int(k.into()), v))
                    .collect(),
            )
        }),
    ];
    (int, string, list, map)
        .prop_map(|(a, s, l, m)| row(vec![("a", a), ("s", s), ("l", l), ("m", m)]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_rows_round_trip(
        rows in prop::collection::vec(arb_row(), 0..300),
        v0 in any::<bool>(),
        codec in 0..OrcCompression::ALL.len(),
        stride in prop_oneof![Just(0usize), 1..50usize],
        stripe_size in prop_oneof![Just(1usize << 26), 200..5000usize],
        block_size in 16..600usize,
        threshold in prop_oneof![Just(0.0f64), Just(0.8), Just(1.0)],
    ) {
        let compression = OrcCompression::ALL[codec];
        prop_assume!(compression.is_enabled());
        let version = if v0 { OrcVersion::V0_11 } else { OrcVersion::V0_12 };
        let bytes = write_rows(
            "struct<a:int,s:string,l:array<struct<x:double,y:string>>,m:map<int,bigint>>",
            &rows,
            options(version, compression)
                .row_index_stride(stride)
                .stripe_size(stripe_size)
                .compression_block_size(block_size)
                .dictionary_key_size_threshold(threshold),
        );
        prop_assert_eq!(read_rows(&bytes), rows);
    }
}

#[test]
fn unbounded_decimals_keep_each_scale() {
    let schema = TypeDescription::struct_of([("d", TypeDescription::unbounded_decimal())]);
    let batch = Batch {
        num_rows: 3,
        columns: vec![Vector::new(VectorData::Decimal {
            values: vec![15, -123_456, 7],
            scales: vec![1, 4, 0],
        })],
    };
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let mut writer = OrcWriter::new(
            Vec::new(),
            schema.clone(),
            options(version, OrcCompression::None),
        )
        .unwrap();
        writer.write_batch(&batch).unwrap();
        let bytes = writer.finish().unwrap();
        let stripe = StripeStreams::read(&bytes, 0);
        let rle = if version == OrcVersion::V0_11 {
            Version::V1
        } else {
            Version::V2
        };
        let (secondary, _) = stripe.stream(1, StreamKind::Secondary).unwrap();
        let mut scales = [0i64; 3];
        int::Decoder::new(secondary, rle, Signed)
            .decode(&mut scales)
            .unwrap();
        assert_eq!(scales, [1, 4, 0]);
        let reader = OrcReader::open(bytes.clone()).unwrap();
        let stats = ColumnStatistics::from_proto(&reader.file_statistics_proto()[1]);
        assert_eq!(
            stats.typed,
            TypedStatistics::Decimal {
                min: Some("-12.3456".into()),
                max: Some("7".into()),
                sum: Some("-3.8456".into())
            }
        );
        let expected: Vec<Row> = [(15, 1), (-123_456, 4), (7, 0)]
            .into_iter()
            .map(|(unscaled, scale)| row(vec![("d", Field::Decimal { unscaled, scale })]))
            .collect();
        assert_eq!(read_rows(&bytes), expected);
    }
}
