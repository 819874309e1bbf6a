//! The writer driven by arbitrary input: the bytes choose a schema (up to 4 fields, nested
//! up to 3 deep: groups, lists, maps, every physical type and some logical ones), the
//! writer's options (encoding per column, codec, page version, page and row group sizes,
//! a small dictionary limit, statistics, Bloom filters, encryption) and rows with nulls at
//! every level. Everything written must verify (checksums, statistics, page indexes,
//! Bloom filters) and read back as the rows given; no input may make the writer panic or
//! refuse a row that fits its schema.
//!
//! Shared by the fuzz target `file_writer` and by the replay test
//! `crates/parquet-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/file_writer/` through [`run`].

#![allow(clippy::expect_used)] // A failed expectation is a finding.

use std::sync::Arc;

use parquet_file::{
    Algorithm, BloomFilterOptions, Bytes, Codec, ColumnOptions, DecryptionOptions, Encoding,
    EncryptionOptions, Field, FileReader, FileWriter, Key, LogicalType, PageVersion, PhysicalType,
    ReadOptions, Repetition, Row, Schema, SchemaField, StatisticsLevel, TimeUnit, WriterOptions,
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

/// A leaf's type: physical type, logical type, fixed length.
#[derive(Clone, Copy)]
enum Leaf {
    Bool,
    Int32,
    Int64,
    Int96,
    Float,
    Double,
    String,
    Binary,
    Fixed(usize),
    Date,
    Decimal64,
    Timestamp,
    UInt16,
}

const LEAVES: [Leaf; 13] = [
    Leaf::Bool,
    Leaf::Int32,
    Leaf::Int64,
    Leaf::Int96,
    Leaf::Float,
    Leaf::Double,
    Leaf::String,
    Leaf::Binary,
    Leaf::Fixed(3),
    Leaf::Date,
    Leaf::Decimal64,
    Leaf::Timestamp,
    Leaf::UInt16,
];

/// A field of the schema, and how to make its values.
enum Shape {
    Leaf(Leaf),
    Group(Vec<(String, Repetition, Shape)>),
    List(Repetition, Box<Shape>),
    Map(Box<Shape>),
}

fn leaf_field(name: &str, repetition: Repetition, leaf: Leaf) -> SchemaField {
    use PhysicalType as P;
    let field = |physical| SchemaField::primitive(name, repetition, physical);
    match leaf {
        Leaf::Bool => field(P::Boolean),
        Leaf::Int32 => field(P::Int32),
        Leaf::Int64 => field(P::Int64),
        Leaf::Int96 => field(P::Int96),
        Leaf::Float => field(P::Float),
        Leaf::Double => field(P::Double),
        Leaf::String => field(P::ByteArray).with_logical_type(LogicalType::String),
        Leaf::Binary => field(P::ByteArray),
        Leaf::Fixed(n) => SchemaField::fixed_len_byte_array(name, repetition, n),
        Leaf::Date => field(P::Int32).with_logical_type(LogicalType::Date),
        Leaf::Decimal64 => field(P::Int64).with_logical_type(LogicalType::Decimal {
            scale: 2,
            precision: 18,
        }),
        Leaf::Timestamp => field(P::Int64).with_logical_type(LogicalType::Timestamp {
            unit: TimeUnit::Micros,
            utc: true,
        }),
        Leaf::UInt16 => field(P::Int32).with_logical_type(LogicalType::Integer {
            bits: 16,
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
    let kind = if depth >= 3 { 0 } else { input.below(5) };
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
        Leaf::String => Field::Str("ab\u{e9}".repeat(input.below(30))),
        Leaf::Binary => Field::Bytes(vec![input.byte(); input.below(100)]),
        Leaf::Fixed(n) => Field::Bytes(vec![input.byte(); n]),
        Leaf::Date => Field::Date(i32::from(input.byte()) - 100),
        Leaf::Decimal64 => Field::Decimal {
            unscaled: i128::from(small(input)) * 12_345,
            scale: 2,
        },
        Leaf::Timestamp => Field::Timestamp {
            value: i128::from(small(input)) * 1_000_000_007,
            unit: TimeUnit::Micros,
            utc: true,
        },
        Leaf::UInt16 => Field::UInt(u64::from(input.byte()) * 257),
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
    for column in schema.columns() {
        let encoding = encoding(&mut input, column.physical_type);
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
    if encrypted {
        let algorithm = if input.chance(2) {
            Algorithm::AesGcmCtrV1
        } else {
            Algorithm::AesGcmV1
        };
        options = options.with_encryption(Some(
            EncryptionOptions::new(key.clone())
                .with_algorithm(algorithm)
                .with_plaintext_footer(input.chance(2)),
        ));
    }
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
    let read = if encrypted {
        ReadOptions::new().with_decryption(DecryptionOptions::new().with_footer_key(key))
    } else {
        ReadOptions::new()
    };
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
