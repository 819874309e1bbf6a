//! The writer driven by arbitrary input: the bytes choose a schema (up to 4 fields, nested
//! up to 4 deep: groups, lists, maps; every physical type, and every logical type that
//! holds values but VARIANT and the geospatial ones), the writer's options (encoding per
//! column, dictionary or not, codec, page version, legacy encodings, page and row group
//! sizes, a small dictionary limit, statistics, page index, CRC, Bloom filters, encryption
//! with per-column keys) and rows with nulls at every level. Everything written must verify (checksums, statistics, page indexes,
//! Bloom filters) and read back as the rows given; no input may make the writer panic or
//! refuse a row that fits its schema.
//!
//! Shared by the fuzz target `file_writer` and by the replay test
//! `crates/parquet-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/file_writer/` through [`run`].

#![allow(clippy::expect_used)] // A failed expectation is a finding.

use std::sync::Arc;

use parquet_file::{
    Algorithm, BloomFilterOptions, Bytes, Codec, ColumnOptions, ConvertedType, DecryptionOptions,
    Encoding, EncryptionOptions, Field, FileReader, FileWriter, Key, LogicalType, PageVersion,
    PhysicalType, ReadOptions, Repetition, Row, Schema, SchemaField, StatisticsLevel, TimeUnit,
    WriterOptions,
};

/// The input, read a choice at a time; zeros once it runs out.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (&first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        first
    }

    /// A number below `n` (at least 1).
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    fn chance(&mut self, in_four: u8) -> bool {
        self.byte() % 4 < in_four
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |v, _| (v << 8) | u64::from(self.byte()))
    }
}

/// A leaf's type: its physical type and annotation.
#[derive(Clone, Copy)]
enum Leaf {
    Bool,
    Int32,
    Int64,
    Int96,
    Float,
    Double,
    String,
    Enum,
    Json,
    Bson,
    Binary,
    Fixed(usize),
    Uuid,
    Float16,
    Interval,
    Date,
    Time(TimeUnit),
    Timestamp(TimeUnit, bool),
    Decimal(PhysicalType),
    Int8,
    UInt32,
    UInt64,
}

const LEAVES: [Leaf; 31] = [
    Leaf::Bool,
    Leaf::Int32,
    Leaf::Int64,
    Leaf::Int96,
    Leaf::Float,
    Leaf::Double,
    Leaf::String,
    Leaf::Enum,
    Leaf::Json,
    Leaf::Bson,
    Leaf::Binary,
    Leaf::Fixed(3),
    Leaf::Uuid,
    Leaf::Float16,
    Leaf::Interval,
    Leaf::Date,
    Leaf::Time(TimeUnit::Millis),
    Leaf::Time(TimeUnit::Micros),
    Leaf::Time(TimeUnit::Nanos),
    Leaf::Timestamp(TimeUnit::Millis, true),
    Leaf::Timestamp(TimeUnit::Micros, false),
    Leaf::Timestamp(TimeUnit::Nanos, true),
    Leaf::Decimal(PhysicalType::Int32),
    Leaf::Decimal(PhysicalType::Int64),
    Leaf::Decimal(PhysicalType::FixedLenByteArray),
    Leaf::Decimal(PhysicalType::ByteArray),
    Leaf::Int8,
    Leaf::UInt32,
    Leaf::UInt64,
    Leaf::String,
    Leaf::Int64,
];

/// A field of the schema, and how to make its values.
enum Shape {
    Leaf(Leaf),
    Group(Vec<(String, Repetition, Shape)>),
    List(Repetition, Box<Shape>),
    Map(Box<Shape>),
}

fn leaf_field(name: &str, repetition: Repetition, leaf: Leaf) -> SchemaField {
    use LogicalType as L;
    use PhysicalType as P;
    let field = |physical| SchemaField::primitive(name, repetition, physical);
    let fixed = |n| SchemaField::fixed_len_byte_array(name, repetition, n);
    match leaf {
        Leaf::Bool => field(P::Boolean),
        Leaf::Int32 => field(P::Int32),
        Leaf::Int64 => field(P::Int64),
        Leaf::Int96 => field(P::Int96),
        Leaf::Float => field(P::Float),
        Leaf::Double => field(P::Double),
        Leaf::String => field(P::ByteArray).with_logical_type(L::String),
        Leaf::Enum => field(P::ByteArray).with_logical_type(L::Enum),
        Leaf::Json => field(P::ByteArray).with_logical_type(L::Json),
        Leaf::Bson => field(P::ByteArray).with_logical_type(L::Bson),
        Leaf::Binary => field(P::ByteArray),
        Leaf::Fixed(n) => fixed(n),
        Leaf::Uuid => fixed(16).with_logical_type(L::Uuid),
        Leaf::Float16 => fixed(2).with_logical_type(L::Float16),
        Leaf::Interval => fixed(12).with_converted_type(ConvertedType::Interval),
        Leaf::Date => field(P::Int32).with_logical_type(L::Date),
        Leaf::Time(unit) => field(if unit == TimeUnit::Millis {
            P::Int32
        } else {
            P::Int64
        })
        .with_logical_type(L::Time { unit, utc: true }),
        Leaf::Timestamp(unit, utc) => field(P::Int64).with_logical_type(L::Timestamp { unit, utc }),
        Leaf::Decimal(physical) => {
            let (base, precision) = match physical {
                P::Int32 => (field(P::Int32), 9),
                P::Int64 => (field(P::Int64), 18),
                P::FixedLenByteArray => (fixed(16), 38),
                _ => (field(P::ByteArray), 60),
            };
            base.with_logical_type(L::Decimal {
                scale: 2,
                precision,
            })
        }
        Leaf::Int8 => field(P::Int32).with_logical_type(L::Integer {
            bits: 8,
            signed: true,
        }),
        Leaf::UInt32 => field(P::Int32).with_logical_type(L::Integer {
            bits: 32,
            signed: false,
        }),
        Leaf::UInt64 => field(P::Int64).with_logical_type(L::Integer {
            bits: 64,
            signed: false,
        }),
    }
}

fn repetition(input: &mut Input<'_>) -> Repetition {
    if input.chance(2) {
        Repetition::Optional
    } else {
        Repetition::Required
    }
}

fn shape(input: &mut Input<'_>, depth: usize) -> Shape {
    let kind = if depth >= 4 { 0 } else { input.below(5) };
    match kind {
        1 => {
            let n = 1 + input.below(3);
            Shape::Group(
                (0..n)
                    .map(|i| (format!("f{i}"), repetition(input), shape(input, depth + 1)))
                    .collect(),
            )
        }
        2 => Shape::List(repetition(input), Box::new(shape(input, depth + 1))),
        3 => Shape::Map(Box::new(shape(input, depth + 1))),
        _ => Shape::Leaf(LEAVES[input.below(LEAVES.len())]),
    }
}

fn schema_field(name: &str, repetition: Repetition, shape: &Shape) -> SchemaField {
    match shape {
        Shape::Leaf(leaf) => leaf_field(name, repetition, *leaf),
        Shape::Group(fields) => SchemaField::group(
            name,
            repetition,
            fields.iter().map(|(n, r, s)| schema_field(n, *r, s)),
        ),
        Shape::List(element_repetition, element) => SchemaField::list(
            name,
            repetition,
            schema_field("element", *element_repetition, element),
        ),
        Shape::Map(value) => SchemaField::map(
            name,
            repetition,
            leaf_field("key", Repetition::Required, Leaf::String),
            Some(schema_field("value", Repetition::Optional, value)),
        ),
    }
}

fn leaf_value(input: &mut Input<'_>, leaf: Leaf) -> Field {
    let small = |input: &mut Input<'_>| i64::from(input.byte() % 8) - 3;
    let text = |input: &mut Input<'_>| Field::Str("ab\u{e9}".repeat(input.below(30)));
    match leaf {
        Leaf::Bool => Field::Bool(input.chance(2)),
        Leaf::Int32 => Field::Int(small(input) * 1_000_003),
        Leaf::Int64 => Field::Int(input.u64().cast_signed()),
        Leaf::Int96 => Field::Timestamp {
            value: i128::from(small(input)) * 86_400_000_000_123,
            unit: TimeUnit::Nanos,
            utc: false,
        },
        Leaf::Float => Field::Float(match input.byte() % 8 {
            0 => f32::NAN,
            1 => -0.0,
            n => f32::from(n) - 4.5,
        }),
        Leaf::Double => Field::Double(f64::from_bits(input.u64())),
        Leaf::String | Leaf::Enum | Leaf::Json => text(input),
        Leaf::Bson | Leaf::Binary => Field::Bytes(vec![input.byte(); input.below(100)]),
        Leaf::Fixed(n) => Field::Bytes(vec![input.byte(); n]),
        Leaf::Interval => Field::Bytes(vec![input.byte(); 12]),
        Leaf::Uuid => Field::Uuid([input.byte(); 16]),
        Leaf::Float16 => Field::Float16(u16::from(input.byte()) << 8 | u16::from(input.byte())),
        Leaf::Date => Field::Date(i32::from(input.byte()) - 100),
        Leaf::Time(unit) => Field::Time {
            value: i64::from(input.byte()) * unit.per_second() * 300,
            unit,
        },
        Leaf::Timestamp(unit, utc) => Field::Timestamp {
            value: i128::from(small(input)) * 1_000_000_007,
            unit,
            utc,
        },
        Leaf::Decimal(_) => Field::Decimal {
            unscaled: i128::from(small(input)) * 12_345,
            scale: 2,
        },
        Leaf::Int8 => Field::Int(i64::from(input.byte().cast_signed())),
        Leaf::UInt32 => Field::UInt(u64::from(input.byte()) << 24),
        Leaf::UInt64 => Field::UInt(input.u64()),
    }
}

fn value(input: &mut Input<'_>, repetition: Repetition, shape: &Shape) -> Field {
    if repetition == Repetition::Optional && input.chance(1) {
        return Field::Null;
    }
    match shape {
        Shape::Leaf(leaf) => leaf_value(input, *leaf),
        Shape::Group(fields) => Field::Group(
            fields
                .iter()
                .map(|(n, r, s)| (Arc::from(n.as_str()), value(input, *r, s)))
                .collect(),
        ),
        Shape::List(element_repetition, element) => Field::List(
            (0..input.below(4))
                .map(|_| value(input, *element_repetition, element))
                .collect(),
        ),
        Shape::Map(v) => Field::Map(
            (0..input.below(4))
                .map(|i| {
                    (
                        Field::Str(format!("k{i}")),
                        value(input, Repetition::Optional, v),
                    )
                })
                .collect(),
        ),
    }
}

/// An encoding for a leaf of `physical` type, or PLAIN.
fn encoding(input: &mut Input<'_>, physical: PhysicalType) -> Encoding {
    use PhysicalType as P;
    let valid: &[Encoding] = match physical {
        P::Boolean => &[Encoding::Plain, Encoding::Rle],
        P::Int32 | P::Int64 => &[
            Encoding::Plain,
            Encoding::DeltaBinaryPacked,
            Encoding::ByteStreamSplit,
        ],
        P::Float | P::Double => &[Encoding::Plain, Encoding::ByteStreamSplit],
        P::ByteArray => &[
            Encoding::Plain,
            Encoding::DeltaLengthByteArray,
            Encoding::DeltaByteArray,
        ],
        P::FixedLenByteArray => &[
            Encoding::Plain,
            Encoding::DeltaByteArray,
            Encoding::ByteStreamSplit,
        ],
        P::Int96 => &[Encoding::Plain],
    };
    valid[input.below(valid.len())]
}

/// Writer options for `schema`, and the keys to read what they write.
fn options(input: &mut Input<'_>, schema: &Schema) -> (WriterOptions, DecryptionOptions) {
    let codecs: Vec<Codec> = Codec::ALL
        .into_iter()
        .filter(|c| c.parquet_id().is_some() && c.is_enabled())
        .collect();
    let mut options = WriterOptions::new()
        .with_compression(codecs[input.below(codecs.len())])
        .with_page_version(if input.chance(2) {
            PageVersion::V2
        } else {
            PageVersion::V1
        })
        .with_page_rows(1 + input.below(16))
        .with_page_bytes(64 + input.below(256) * 16)
        .with_row_group_rows(1 + input.below(64))
        .with_dictionary(input.chance(2))
        .with_dictionary_page_bytes(1 + input.below(256))
        .with_truncate_length(Some(1 + input.below(20)))
        .with_statistics(
            [
                StatisticsLevel::None,
                StatisticsLevel::Chunk,
                StatisticsLevel::Page,
            ][input.below(3)],
        );
    if input.chance(1) {
        options = options.with_bloom_filter(Some(BloomFilterOptions::default()));
    }
    let switches = input.byte();
    options = options
        .with_legacy_dictionary(switches & 1 != 0)
        .with_bit_packed_levels(switches & 2 != 0)
        .with_page_index(switches & 4 == 0)
        .with_crc(switches & 8 == 0)
        .with_size_statistics(switches & 16 == 0)
        .with_distinct_count(switches & 32 != 0);
    for column in schema.columns() {
        let encoding = encoding(input, column.physical_type);
        options = options.with_column(
            column.path.clone(),
            ColumnOptions {
                encoding: Some(encoding),
                ..ColumnOptions::default()
            },
        );
    }
    let key = Key::try_new(&[7; 16]).expect("a 16-byte key");
    let encrypted = input.chance(1);
    let mut decryption = DecryptionOptions::new().with_footer_key(key.clone());
    if encrypted {
        let algorithm = if input.chance(2) {
            Algorithm::AesGcmCtrV1
        } else {
            Algorithm::AesGcmV1
        };
        let mut encryption = EncryptionOptions::new(key.clone())
            .with_algorithm(algorithm)
            .with_plaintext_footer(input.chance(2));
        // Each column under the footer key, a key of its own, or none.
        for (i, column) in schema.columns().iter().enumerate() {
            match input.below(3) {
                1 => {
                    let own = Key::try_new(&[u8::try_from(i % 200).unwrap_or(0); 16])
                        .expect("a 16-byte key");
                    encryption = encryption.with_column_key(column.path.clone(), own.clone(), None);
                    decryption = decryption.with_column_key(column.path.clone(), own);
                }
                2 => encryption = encryption.with_plaintext_column(column.path.clone()),
                _ => {}
            }
        }
        options = options.with_encryption(Some(encryption));
    }
    (options, decryption)
}

/// Runs one input.
///
/// # Panics
///
/// When the writer panics, refuses rows that fit, or writes what does not verify or read
/// back as written: a finding.
pub fn run(data: &[u8]) {
    let mut input = Input(data);
    let fields: Vec<_> = (0..=input.below(4))
        .map(|i| {
            let r = repetition(&mut input);
            (format!("c{i}"), r, shape(&mut input, 0))
        })
        .collect();
    let Ok(schema) = Schema::try_new(
        "schema",
        fields.iter().map(|(n, r, s)| schema_field(n, *r, s)),
    ) else {
        return;
    };
    let (options, decryption) = options(&mut input, &schema);
    let rows: Vec<Row> = (0..input.below(80))
        .map(|_| {
            Row::new(
                fields
                    .iter()
                    .map(|(n, r, s)| (Arc::from(n.as_str()), value(&mut input, *r, s)))
                    .collect(),
            )
        })
        .collect();

    let mut writer = FileWriter::new(Vec::new(), schema, options).expect("options that fit");
    for row in &rows {
        writer
            .write_row(row)
            .unwrap_or_else(|e| panic!("a row that fits is refused: {e}\n{row:?}"));
    }
    writer.finish().expect("finishing the file");
    let file = Bytes::from(writer.into_inner());
    let read = ReadOptions::new().with_decryption(decryption);
    let reader = FileReader::with_options(file, read.verify_checksums(true))
        .unwrap_or_else(|e| panic!("the file written does not open: {e}"));
    let verification = reader.verify().expect("the file written reads");
    assert!(
        verification.is_ok(),
        "the file disagrees with itself: {:?}",
        verification.disagreements
    );
    let back: Vec<Row> = reader
        .rows()
        .map(|row| row.expect("a row of the file written"))
        .collect();
    // By their debug text: NaN is not equal to itself.
    assert_eq!(format!("{back:?}"), format!("{rows:?}"));
}
