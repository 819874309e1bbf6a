//! The ORC writer driven by arbitrary input: the bytes choose a schema (up to 4 fields,
//! nested up to 3 deep: structs, lists, maps; booleans, integers of every width, floats,
//! doubles, strings, binaries, dates, timestamps of both kinds, decimals), the writer's
//! options (file version, codec, block size, stripe size, row index stride, dictionary
//! threshold) and rows with nulls at every level. Every row written must read back as
//! given; no input may make the writer panic or refuse a row that fits its schema.
//!
//! Shared by the fuzz target `orc_writer` and by the replay test
//! `crates/orc-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/orc_writer/` through [`run`].

#![allow(clippy::expect_used)] // A failed expectation is a finding.

use std::sync::Arc;

use orc_file::{
    Kind, OrcCompression, OrcReader, OrcVersion, OrcWriter, ReadOptions, TypeDescription,
    WriterOptions,
};
use parquet_core::{Field, Row, TimeUnit};

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

    fn i64(&mut self) -> i64 {
        (0..8).fold(0_i64, |v, _| (v << 8) | i64::from(self.byte()))
    }
}

/// A type of up to `depth` more levels of nesting.
fn type_of(input: &mut Input<'_>, depth: usize) -> TypeDescription {
    let choice = input.below(if depth == 0 { 12 } else { 15 });
    let primitive = |kind| TypeDescription::primitive(kind).expect("a primitive kind");
    match choice {
        0 => primitive(Kind::Boolean),
        1 => primitive(Kind::Byte),
        2 => primitive(Kind::Short),
        3 => primitive(Kind::Int),
        4 => primitive(Kind::Long),
        5 => primitive(Kind::Float),
        6 => primitive(Kind::Double),
        7 => primitive(Kind::String),
        8 => primitive(Kind::Binary),
        9 => primitive(Kind::Date),
        10 => {
            if input.chance(2) {
                primitive(Kind::Timestamp)
            } else {
                primitive(Kind::TimestampInstant)
            }
        }
        11 => {
            let precision = 1 + u32::from(input.byte() % 38);
            let scale = u32::from(input.byte()) % (precision + 1);
            TypeDescription::decimal(precision, scale).expect("a decimal of 1 to 38 digits")
        }
        12 => TypeDescription::list(type_of(input, depth - 1)),
        13 => TypeDescription::map(primitive(Kind::String), type_of(input, depth - 1)),
        _ => struct_of(input, depth - 1),
    }
}

fn struct_of(input: &mut Input<'_>, depth: usize) -> TypeDescription {
    let fields = 1 + input.below(4);
    TypeDescription::struct_of((0..fields).map(|i| (format!("f{i}"), type_of(input, depth))))
}

/// A value of type `t` (null sometimes, but never for a map's key).
fn value(input: &mut Input<'_>, t: &TypeDescription, nullable: bool) -> Field {
    if nullable && input.chance(1) {
        return Field::Null;
    }
    // `v` brought into the range of a signed integer of `bits` bits (up to 64).
    let bounded = |v: i64, bits: u32| {
        let half = 1_i128 << (bits - 1);
        i64::try_from((i128::from(v) + half).rem_euclid(2 * half) - half).unwrap_or(0)
    };
    match t.kind() {
        Kind::Boolean => Field::Bool(input.chance(2)),
        Kind::Byte => Field::Int(bounded(input.i64(), 8)),
        Kind::Short => Field::Int(bounded(input.i64(), 16)),
        Kind::Int => Field::Int(bounded(input.i64(), 32)),
        Kind::Long => Field::Int(input.i64()),
        // Finite values: NaN is not equal to itself.
        Kind::Float => {
            Field::Float(f32::from(i16::try_from(bounded(input.i64(), 16)).unwrap_or(0)) / 8.0)
        }
        Kind::Double => {
            Field::Double(f64::from(i32::try_from(bounded(input.i64(), 32)).unwrap_or(0)) / 64.0)
        }
        Kind::String => {
            let len = input.below(20);
            Field::Str(
                (0..len)
                    .map(|_| char::from(b'a' + input.byte() % 26))
                    .collect(),
            )
        }
        Kind::Binary => Field::Bytes((0..input.below(20)).map(|_| input.byte()).collect()),
        Kind::Date => Field::Date(i32::try_from(bounded(input.i64(), 24)).unwrap_or(0)),
        Kind::Timestamp | Kind::TimestampInstant => {
            // Within the years 1677 to 2262, to the nanosecond, but for the last second
            // before 1970, which ORC cannot hold (readers read it a second late; see
            // `OrcWriter`).
            let mut value = i128::from(bounded(input.i64(), 63));
            if (-1_000_000_000..0).contains(&value) {
                value -= 1_000_000_000;
            }
            Field::Timestamp {
                value,
                unit: TimeUnit::Nanos,
                utc: t.kind() == Kind::TimestampInstant,
            }
        }
        Kind::Decimal => {
            let precision = t.precision().unwrap_or(38);
            let bound = 10_i128.pow(precision.min(18));
            Field::Decimal {
                unscaled: i128::from(input.i64()) % bound,
                scale: t.scale().unwrap_or(0),
            }
        }
        Kind::List => {
            let element = t.children().first().expect("a list's element");
            let len = input.below(4);
            Field::List((0..len).map(|_| value(input, element, true)).collect())
        }
        Kind::Map => {
            let [key, item] = t.children() else {
                unreachable!("a map has two children")
            };
            let len = input.below(4);
            Field::Map(
                (0..len)
                    .map(|_| (value(input, key, false), value(input, item, true)))
                    .collect(),
            )
        }
        _ => Field::Group(
            t.fields()
                .map(|(name, child)| (Arc::from(name), value(input, child, true)))
                .collect(),
        ),
    }
}

/// Runs one input.
///
/// # Panics
///
/// When the writer refuses or loses a row that fits its schema: a finding.
pub fn run(data: &[u8]) {
    let mut input = Input(data);
    let schema = struct_of(&mut input, 2);
    let version = if input.chance(1) {
        OrcVersion::V0_11
    } else {
        OrcVersion::V0_12
    };
    // ORC 0.11 has no timestamp with local time zone.
    if version == OrcVersion::V0_11
        && schema
            .preorder()
            .iter()
            .any(|t| t.kind() == Kind::TimestampInstant)
    {
        return;
    }
    let compression = [
        OrcCompression::None,
        OrcCompression::Zlib,
        OrcCompression::Snappy,
        OrcCompression::Zstd,
        OrcCompression::Lz4,
    ][input.below(5)];
    let options = WriterOptions::default()
        .version(version)
        .compression(compression)
        .compression_block_size(1024 << input.below(8))
        .stripe_size(4096 << input.below(10))
        .row_index_stride(1 + input.below(3) * 50)
        .dictionary_key_size_threshold(f64::from(input.byte()) / 255.0);
    let rows: Vec<Row> = (0..input.below(200))
        .map(|_| match value(&mut input, &schema, false) {
            Field::Group(fields) => Row::new(fields),
            _ => unreachable!("the schema is a struct"),
        })
        .collect();
    let mut writer = OrcWriter::new(Vec::new(), schema.clone(), options).expect("options that fit");
    for row in &rows {
        writer.write_row(row).expect("a row of the schema");
    }
    let file = writer.finish().expect("a file");
    let reader = OrcReader::open(bytes::Bytes::from(file)).expect("the file opens");
    let read: Vec<Row> = reader
        .rows(ReadOptions::default().with_batch_size(1 + input.below(100)))
        .expect("rows")
        .map(|r| r.expect("a row"))
        .collect();
    assert_eq!(read, rows, "the rows read back");
}
