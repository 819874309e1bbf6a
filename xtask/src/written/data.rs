//! The tables that the write side of `interop` writes: their schemas, described once as
//! [`Spec`]s from which both the Parquet schema and the rows are made, and the rows
//! themselves, from fixed seeds.
//!
//! Every leaf type has its extremes in the first rows of a top-level column (the ends of
//! its range side by side, zeros of both signs, NaN and infinities), then deterministic
//! random values; every optional field is null in about one slot in seven, and lists
//! and maps are empty in about one in five.

use parquet_file::{
    Field, LogicalType, PhysicalType, Repetition, Row, Schema, SchemaField, TimeUnit,
};
use std::sync::Arc;

/// A small deterministic generator (a 64-bit LCG, its high bits).
pub(crate) struct Rng(u64);

impl Rng {
    /// The generator of `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// 64 random bits (two steps of the LCG, high halves).
    pub(crate) fn next(&mut self) -> u64 {
        let mut step = || {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 32
        };
        (step() << 32) | step()
    }

    /// A value in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A value in `low..=high`.
    fn between(&mut self, low: i128, high: i128) -> i128 {
        // In two's complement: the span of 38-digit decimals does not fit an i128.
        let span = high.wrapping_sub(low).cast_unsigned().wrapping_add(1);
        let wide = (u128::from(self.next()) << 64) | u128::from(self.next());
        low.wrapping_add(wide.checked_rem(span).unwrap_or(wide).cast_signed())
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next().to_le_bytes()[0]).collect()
    }
}

/// How a DECIMAL is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecimalStore {
    Int32,
    Int64,
    /// FIXED_LEN_BYTE_ARRAY of this many bytes.
    Fixed(usize),
    /// BYTE_ARRAY.
    Bytes,
}

/// What a leaf holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leaf {
    Bool,
    /// INT32 without annotation.
    Int32,
    /// INT64 without annotation.
    Int64,
    /// An INTEGER annotation (INT32 up to 32 bits, INT64 for 64).
    Int {
        bits: u8,
        signed: bool,
    },
    /// INT96 timestamps, whole microseconds within the years 1685 to 2255 (`DuckDB` keeps
    /// INT96 to the microsecond, and every reader holds them as 64-bit nanoseconds).
    Int96,
    Float,
    Double,
    /// FLOAT16 in a FIXED_LEN_BYTE_ARRAY of 2 bytes.
    Float16,
    /// STRING: text of every kind, up to 40 bytes.
    Str,
    /// STRING of a dozen distinct values.
    Words,
    /// BYTE_ARRAY without annotation.
    Binary,
    /// FIXED_LEN_BYTE_ARRAY of this many bytes, without annotation.
    Fixed(usize),
    Enum,
    Json,
    Date,
    Time(TimeUnit),
    /// TIMESTAMP; adjusted to UTC or not.
    Timestamp(TimeUnit, bool),
    Decimal {
        store: DecimalStore,
        precision: u32,
        scale: u32,
    },
    Uuid,
    /// INT64, the row's number: sorted.
    Serial,
    /// STRING, `k` and the row's number in six digits: sorted.
    SerialKey,
    /// DATE, a day per seven rows from 2019-04-14: sorted.
    SerialDay,
}

/// A field of a table: a leaf, a group, a LIST or a MAP.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Leaf(Leaf),
    Group(Vec<Spec>),
    List(Box<Spec>),
    /// Key (a required `Str`, `Words` or `Int32` leaf) and value.
    Map(Box<Spec>, Box<Spec>),
}

/// A named field, required or optional.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    pub(crate) name: &'static str,
    pub(crate) required: bool,
    pub(crate) kind: Kind,
}

fn optional(name: &'static str, kind: Kind) -> Spec {
    Spec {
        name,
        required: false,
        kind,
    }
}

fn required(name: &'static str, kind: Kind) -> Spec {
    Spec {
        name,
        required: true,
        kind,
    }
}

fn leaf(name: &'static str, leaf: Leaf) -> Spec {
    optional(name, Kind::Leaf(leaf))
}

fn required_leaf(name: &'static str, leaf: Leaf) -> Spec {
    required(name, Kind::Leaf(leaf))
}

fn list(name: &'static str, element: Spec) -> Spec {
    optional(name, Kind::List(Box::new(element)))
}

fn map(name: &'static str, key: Leaf, value: Spec) -> Spec {
    optional(
        name,
        Kind::Map(Box::new(required_leaf("key", key)), Box::new(value)),
    )
}

/// The tables written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Table {
    /// One column per leaf type, optional, and required twins of some.
    Flat,
    /// Lists, structs and maps, nested, with nulls at every level.
    Nested,
    /// Sorted columns in many pages, for filters that statistics and page indexes serve.
    Sorted,
    /// The FIXED_LEN_BYTE_ARRAY columns alone, optional.
    FlbaOptional,
    /// The FIXED_LEN_BYTE_ARRAY columns alone, required.
    FlbaRequired,
    /// DECIMALs in BYTE_ARRAY alone, optional and required.
    DecimalBytes,
    /// 20,000 rows of a few columns, for pages and row groups that end by their size in
    /// bytes, and batches of rows written past the writer's internal steps.
    Long,
}

impl Table {
    /// The table's name in file names.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Flat => "flat",
            Self::Nested => "nested",
            Self::Sorted => "sorted",
            Self::FlbaOptional => "flba-optional",
            Self::FlbaRequired => "flba-required",
            Self::DecimalBytes => "decimal-bytes",
            Self::Long => "long",
        }
    }

    /// Whether the table holds the columns of encodings that some peer cannot read.
    pub(crate) fn peers_limited(self) -> bool {
        matches!(
            self,
            Self::FlbaOptional | Self::FlbaRequired | Self::DecimalBytes
        )
    }

    /// The rows a file of the table holds.
    pub(crate) fn rows(self) -> usize {
        match self {
            Self::Flat | Self::Nested => 400,
            Self::Sorted => 2000,
            Self::FlbaOptional | Self::FlbaRequired | Self::DecimalBytes => 300,
            Self::Long => 20_000,
        }
    }

    /// The table's fields.
    pub(crate) fn specs(self) -> Vec<Spec> {
        match self {
            Self::Flat => flat(),
            Self::Nested => nested(),
            Self::Sorted => vec![
                required_leaf("id", Leaf::Serial),
                required_leaf("key", Leaf::SerialKey),
                leaf("day", Leaf::SerialDay),
                leaf("value", Leaf::Double),
                leaf("word", Leaf::Words),
            ],
            Self::FlbaOptional => flba(false),
            Self::FlbaRequired => flba(true),
            Self::Long => vec![
                required_leaf("id", Leaf::Serial),
                leaf("key", Leaf::SerialKey),
                leaf("value", Leaf::Double),
                list("list", leaf("element", Leaf::Int32)),
                leaf("text", Leaf::Str),
            ],
            Self::DecimalBytes => vec![
                leaf("decimal_bytes", decimal(DecimalStore::Bytes, 30, 6)),
                required_leaf("decimal_bytes_required", decimal(DecimalStore::Bytes, 9, 0)),
            ],
        }
    }

    /// The table's Parquet schema.
    pub(crate) fn schema(self) -> Result<Schema, String> {
        Schema::try_new("schema", self.specs().iter().map(Spec::field))
            .map_err(|e| format!("the {} table's schema: {e}", self.name()))
    }

    /// The table's rows, the same on every run.
    pub(crate) fn generate(self) -> Vec<Row> {
        let specs = self.specs();
        let mut rng = Rng::new(self as u64 + 1);
        (0..self.rows())
            .map(|i| {
                Row::new(
                    specs
                        .iter()
                        .map(|spec| (Arc::from(spec.name), spec.value(&mut rng, Some(i))))
                        .collect(),
                )
            })
            .collect()
    }
}

const fn decimal(store: DecimalStore, precision: u32, scale: u32) -> Leaf {
    Leaf::Decimal {
        store,
        precision,
        scale,
    }
}

fn flat() -> Vec<Spec> {
    use TimeUnit::{Micros, Millis, Nanos};
    vec![
        leaf("bool", Leaf::Bool),
        required_leaf("bool_required", Leaf::Bool),
        leaf("int32", Leaf::Int32),
        required_leaf("int32_required", Leaf::Int32),
        leaf("int64", Leaf::Int64),
        required_leaf("int64_required", Leaf::Int64),
        leaf(
            "int8",
            Leaf::Int {
                bits: 8,
                signed: true,
            },
        ),
        leaf(
            "int16",
            Leaf::Int {
                bits: 16,
                signed: true,
            },
        ),
        leaf(
            "int32_annotated",
            Leaf::Int {
                bits: 32,
                signed: true,
            },
        ),
        leaf(
            "int64_annotated",
            Leaf::Int {
                bits: 64,
                signed: true,
            },
        ),
        leaf(
            "uint8",
            Leaf::Int {
                bits: 8,
                signed: false,
            },
        ),
        leaf(
            "uint16",
            Leaf::Int {
                bits: 16,
                signed: false,
            },
        ),
        leaf(
            "uint32",
            Leaf::Int {
                bits: 32,
                signed: false,
            },
        ),
        leaf(
            "uint64",
            Leaf::Int {
                bits: 64,
                signed: false,
            },
        ),
        leaf("int96", Leaf::Int96),
        leaf("float", Leaf::Float),
        required_leaf("float_required", Leaf::Float),
        leaf("double", Leaf::Double),
        required_leaf("double_required", Leaf::Double),
        leaf("float16", Leaf::Float16),
        leaf("string", Leaf::Str),
        required_leaf("string_required", Leaf::Str),
        leaf("words", Leaf::Words),
        leaf("binary", Leaf::Binary),
        leaf("fixed", Leaf::Fixed(5)),
        leaf("enum", Leaf::Enum),
        leaf("json", Leaf::Json),
        leaf("date", Leaf::Date),
        leaf("time_ms", Leaf::Time(Millis)),
        leaf("time_us", Leaf::Time(Micros)),
        leaf("time_ns", Leaf::Time(Nanos)),
        leaf("timestamp_ms", Leaf::Timestamp(Millis, false)),
        leaf("timestamp_ms_utc", Leaf::Timestamp(Millis, true)),
        leaf("timestamp_us", Leaf::Timestamp(Micros, false)),
        leaf("timestamp_us_utc", Leaf::Timestamp(Micros, true)),
        leaf("timestamp_ns", Leaf::Timestamp(Nanos, false)),
        leaf("timestamp_ns_utc", Leaf::Timestamp(Nanos, true)),
        leaf("decimal_int32", decimal(DecimalStore::Int32, 9, 2)),
        leaf("decimal_int64", decimal(DecimalStore::Int64, 18, 4)),
        leaf("decimal_fixed", decimal(DecimalStore::Fixed(11), 25, 5)),
        leaf("decimal_fixed16", decimal(DecimalStore::Fixed(16), 38, 10)),
        leaf("decimal_bytes", decimal(DecimalStore::Bytes, 30, 6)),
        leaf("uuid", Leaf::Uuid),
    ]
}

fn nested() -> Vec<Spec> {
    let int32 = || leaf("element", Leaf::Int32);
    vec![
        list("list_int", int32()),
        required(
            "list_required",
            Kind::List(Box::new(required_leaf("element", Leaf::Int64))),
        ),
        list("list_string", leaf("element", Leaf::Str)),
        list("list_bool", leaf("element", Leaf::Bool)),
        optional(
            "struct",
            Kind::Group(vec![
                leaf("a", Leaf::Int32),
                required_leaf("b", Leaf::Words),
                leaf("c", Leaf::Double),
            ]),
        ),
        required(
            "struct_required",
            Kind::Group(vec![
                leaf("x", Leaf::Int64),
                optional("y", Kind::Group(vec![leaf("z", Leaf::Str)])),
            ]),
        ),
        list(
            "list_struct",
            optional(
                "element",
                Kind::Group(vec![
                    required_leaf("k", Leaf::Int32),
                    leaf("v", Leaf::Words),
                ]),
            ),
        ),
        map("map", Leaf::Str, leaf("value", Leaf::Int64)),
        map(
            "map_list",
            Leaf::Int32,
            list("value", leaf("element", Leaf::Words)),
        ),
        list("list_list", list("element", int32())),
        optional(
            "struct_list",
            Kind::Group(vec![
                list("items", leaf("element", Leaf::Double)),
                leaf("name", Leaf::Words),
            ]),
        ),
        list(
            "list_decimal",
            leaf("element", decimal(DecimalStore::Int64, 12, 3)),
        ),
        list(
            "list_timestamp",
            leaf("element", Leaf::Timestamp(TimeUnit::Micros, true)),
        ),
        list("list_uuid", leaf("element", Leaf::Uuid)),
    ]
}

fn flba(required: bool) -> Vec<Spec> {
    let make = if required { required_leaf } else { leaf };
    vec![
        make("float16", Leaf::Float16),
        make("fixed", Leaf::Fixed(5)),
        make("decimal_fixed", decimal(DecimalStore::Fixed(11), 25, 5)),
        make("uuid", Leaf::Uuid),
    ]
}

impl Spec {
    /// The schema field.
    fn field(&self) -> SchemaField {
        let repetition = if self.required {
            Repetition::Required
        } else {
            Repetition::Optional
        };
        match &self.kind {
            Kind::Leaf(leaf) => leaf_field(self.name, repetition, *leaf),
            Kind::Group(fields) => {
                SchemaField::group(self.name, repetition, fields.iter().map(Spec::field))
            }
            Kind::List(element) => SchemaField::list(self.name, repetition, element.field()),
            Kind::Map(key, value) => {
                SchemaField::map(self.name, repetition, key.field(), Some(value.field()))
            }
        }
    }

    /// How many leaf columns the field has.
    pub(crate) fn leaves(&self) -> usize {
        match &self.kind {
            Kind::Leaf(_) => 1,
            Kind::Group(fields) => fields.iter().map(Spec::leaves).sum(),
            Kind::List(element) => element.leaves(),
            Kind::Map(key, value) => key.leaves() + value.leaves(),
        }
    }

    /// The leaf types, in column order.
    pub(crate) fn leaf_types(&self, out: &mut Vec<Leaf>) {
        match &self.kind {
            Kind::Leaf(leaf) => out.push(*leaf),
            Kind::Group(fields) => fields.iter().for_each(|f| f.leaf_types(out)),
            Kind::List(element) => element.leaf_types(out),
            Kind::Map(key, value) => {
                key.leaf_types(out);
                value.leaf_types(out);
            }
        }
    }

    /// A value of the field; `row` is the row's number for a top-level field (whose
    /// first rows hold the extremes of a leaf, never null), `None` inside another.
    fn value(&self, rng: &mut Rng, row: Option<usize>) -> Field {
        let extreme = match (&self.kind, row) {
            (Kind::Leaf(leaf), Some(row)) => row < leaf.extremes(),
            _ => false,
        };
        if !self.required && !extreme && rng.chance(15) {
            return Field::Null;
        }
        match &self.kind {
            Kind::Leaf(leaf) => leaf.value(rng, row),
            Kind::Group(fields) => Field::Group(
                fields
                    .iter()
                    .map(|f| (Arc::from(f.name), f.value(rng, None)))
                    .collect(),
            ),
            Kind::List(element) => {
                let n = length(rng);
                Field::List((0..n).map(|_| element.value(rng, None)).collect())
            }
            Kind::Map(key, value) => {
                let n = length(rng);
                let Kind::Leaf(key) = key.kind else {
                    return Field::Map(Vec::new());
                };
                Field::Map(
                    (0..n)
                        .map(|j| (key.key(j), value.value(rng, None)))
                        .collect(),
                )
            }
        }
    }
}

/// The length of a list or map: 0 (one in five) to 4.
fn length(rng: &mut Rng) -> usize {
    usize::try_from(rng.below(5)).unwrap_or(0)
}

fn leaf_field(name: &str, repetition: Repetition, leaf: Leaf) -> SchemaField {
    use PhysicalType as P;
    let primitive = |physical| SchemaField::primitive(name, repetition, physical);
    let fixed = |length| SchemaField::fixed_len_byte_array(name, repetition, length);
    match leaf {
        Leaf::Bool => primitive(P::Boolean),
        Leaf::Int32 => primitive(P::Int32),
        Leaf::Int64 | Leaf::Serial => primitive(P::Int64),
        Leaf::Int { bits, signed } => primitive(if bits == 64 { P::Int64 } else { P::Int32 })
            .with_logical_type(LogicalType::Integer { bits, signed }),
        Leaf::Int96 => primitive(P::Int96),
        Leaf::Float => primitive(P::Float),
        Leaf::Double => primitive(P::Double),
        Leaf::Float16 => fixed(2).with_logical_type(LogicalType::Float16),
        Leaf::Str | Leaf::Words | Leaf::SerialKey => {
            primitive(P::ByteArray).with_logical_type(LogicalType::String)
        }
        Leaf::Binary => primitive(P::ByteArray),
        Leaf::Fixed(length) => fixed(length),
        Leaf::Enum => primitive(P::ByteArray).with_logical_type(LogicalType::Enum),
        Leaf::Json => primitive(P::ByteArray).with_logical_type(LogicalType::Json),
        Leaf::Date | Leaf::SerialDay => primitive(P::Int32).with_logical_type(LogicalType::Date),
        Leaf::Time(unit) => primitive(if unit == TimeUnit::Millis {
            P::Int32
        } else {
            P::Int64
        })
        .with_logical_type(LogicalType::Time { unit, utc: false }),
        Leaf::Timestamp(unit, utc) => {
            primitive(P::Int64).with_logical_type(LogicalType::Timestamp { unit, utc })
        }
        Leaf::Decimal {
            store,
            precision,
            scale,
        } => {
            let field = match store {
                DecimalStore::Int32 => primitive(P::Int32),
                DecimalStore::Int64 => primitive(P::Int64),
                DecimalStore::Fixed(length) => fixed(length),
                DecimalStore::Bytes => primitive(P::ByteArray),
            };
            field.with_logical_type(LogicalType::Decimal {
                scale: i32::try_from(scale).unwrap_or(0),
                precision: i32::try_from(precision).unwrap_or(0),
            })
        }
        Leaf::Uuid => fixed(16).with_logical_type(LogicalType::Uuid),
    }
}

/// Texts of every kind: empty, non-ASCII, JSON's escapes, control characters.
const WORDS: &[&str] = &[
    "",
    "ünïcödé",
    "日本語",
    "emoji 🦀",
    "quote \" and \\ back",
    "tab\tnew\nline",
    "a",
    "zzzz",
    "shared/prefix/1",
    "shared/prefix/22",
    "shared/prefix/333",
    "Z",
];
const ENUM: &[&str] = &["red", "green", "blue"];
const JSON: &[&str] = &[
    "{\"a\":1}",
    "[]",
    "\"s\"",
    "null",
    "{\"k\":[1,2,{\"x\":null}]}",
];

/// Days of 0001-01-01 and 9999-12-31.
const FIRST_DAY: i128 = -719_162;
const LAST_DAY: i128 = 2_932_896;
const SECONDS_PER_DAY: i128 = 86_400;

/// Half-precision bits: NaN, infinities, zeros, the smallest subnormal, the largest
/// finite, the one nearest 0.1, and 1.
const FLOAT16_EXTREMES: &[u16] = &[
    0x7E00, 0x7C00, 0xFC00, 0x8000, 0x0000, 0x0001, 0x7BFF, 0x2E66, 0x3C00,
];
const FLOAT_EXTREMES: &[f32] = &[
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -0.0,
    0.0,
    1e-45,
    f32::MAX,
    f32::MIN_POSITIVE,
    0.1,
    -1e-7,
];
const DOUBLE_EXTREMES: &[f64] = &[
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
    0.0,
    5e-324,
    f64::MAX,
    f64::MIN_POSITIVE,
    0.1,
    -1e-7,
];

impl Leaf {
    /// The physical type that stores the leaf.
    pub(crate) fn physical(self) -> PhysicalType {
        use PhysicalType as P;
        match self {
            Self::Bool => P::Boolean,
            Self::Int32
            | Self::Date
            | Self::SerialDay
            | Self::Time(TimeUnit::Millis)
            | Self::Decimal {
                store: DecimalStore::Int32,
                ..
            } => P::Int32,
            Self::Int { bits, .. } => {
                if bits == 64 {
                    P::Int64
                } else {
                    P::Int32
                }
            }
            Self::Int64
            | Self::Serial
            | Self::Time(_)
            | Self::Timestamp(..)
            | Self::Decimal {
                store: DecimalStore::Int64,
                ..
            } => P::Int64,
            Self::Int96 => P::Int96,
            Self::Float => P::Float,
            Self::Double => P::Double,
            Self::Str
            | Self::Words
            | Self::SerialKey
            | Self::Binary
            | Self::Enum
            | Self::Json
            | Self::Decimal {
                store: DecimalStore::Bytes,
                ..
            } => P::ByteArray,
            Self::Float16 | Self::Fixed(_) | Self::Uuid | Self::Decimal { .. } => {
                P::FixedLenByteArray
            }
        }
    }

    /// How many first rows of a top-level column hold extremes.
    fn extremes(self) -> usize {
        match self {
            Self::Float => FLOAT_EXTREMES.len(),
            Self::Double => DOUBLE_EXTREMES.len(),
            Self::Float16 => FLOAT16_EXTREMES.len(),
            Self::Str => WORDS.len(),
            Self::Serial | Self::SerialKey | Self::SerialDay => 0,
            _ => 4,
        }
    }

    /// The `j`th key of a map.
    fn key(self, j: usize) -> Field {
        match self {
            Self::Int32 => Field::Int(i64::try_from(j).unwrap_or(0)),
            _ => Field::Str(format!("k{j}")),
        }
    }

    /// A value; the row's number for a top-level column.
    #[allow(clippy::too_many_lines)] // one arm per type
    fn value(self, rng: &mut Rng, row: Option<usize>) -> Field {
        let at = row.filter(|&r| r < self.extremes());
        // The extremes of a range: its ends, side by side, then a middle value.
        let range = |rng: &mut Rng, low: i128, high: i128, middle: i128| match at {
            Some(1) => high,
            Some(2) => middle,
            Some(_) => low,
            None if rng.chance(30) => rng.between(-1000, 1000).clamp(low, high),
            None => rng.between(low, high),
        };
        let int = |v: i128| Field::Int(i64::try_from(v).unwrap_or(0));
        let serial = row.and_then(|r| i64::try_from(r).ok()).unwrap_or(0);
        match self {
            Self::Bool => Field::Bool(at.map_or_else(|| rng.chance(40), |i| i % 2 == 0)),
            Self::Int32 => int(range(rng, i32::MIN.into(), i32::MAX.into(), 0)),
            Self::Int64 => int(range(rng, i64::MIN.into(), i64::MAX.into(), 0)),
            Self::Int { bits, signed: true } => {
                let high = (1i128 << (bits - 1)) - 1;
                int(range(rng, -high - 1, high, 0))
            }
            Self::Int {
                bits,
                signed: false,
            } => {
                let high = (1i128 << bits) - 1;
                Field::UInt(u64::try_from(range(rng, 0, high, high / 2)).unwrap_or(0))
            }
            Self::Int96 => {
                let micros = range(rng, -9_000_000_000_000_000, 9_000_000_000_000_000, 0);
                Field::Timestamp {
                    value: micros * 1000,
                    unit: TimeUnit::Nanos,
                    utc: false,
                }
            }
            Self::Float => Field::Float(match at {
                Some(i) => FLOAT_EXTREMES[i],
                None => random_float(rng),
            }),
            Self::Double => Field::Double(match at {
                Some(i) => DOUBLE_EXTREMES[i],
                None => random_double(rng),
            }),
            Self::Float16 => Field::Float16(match at {
                Some(i) => FLOAT16_EXTREMES[i],
                None => loop {
                    let bits = u16::from_le_bytes([rng.bytes(1)[0], rng.bytes(1)[0]]);
                    if bits & 0x7C00 != 0x7C00 {
                        break bits;
                    }
                },
            }),
            Self::Str => Field::Str(match at {
                Some(i) => WORDS[i].to_owned(),
                None => random_text(rng),
            }),
            Self::Words => Field::Str(pick(rng, WORDS).to_owned()),
            Self::Binary => {
                let n = usize::try_from(rng.below(17)).unwrap_or(0);
                Field::Bytes(rng.bytes(n))
            }
            Self::Fixed(n) => Field::Bytes(match at {
                Some(0) => vec![0; n],
                Some(1) => vec![0xFF; n],
                _ => rng.bytes(n),
            }),
            Self::Enum => Field::Str(pick(rng, ENUM).to_owned()),
            Self::Json => Field::Str(pick(rng, JSON).to_owned()),
            Self::Date => {
                Field::Date(i32::try_from(range(rng, FIRST_DAY, LAST_DAY, 0)).unwrap_or(0))
            }
            Self::Time(unit) => {
                let high = SECONDS_PER_DAY * i128::from(unit.per_second()) - 1;
                Field::Time {
                    value: i64::try_from(range(rng, 0, high, high / 2)).unwrap_or(0),
                    unit,
                }
            }
            Self::Timestamp(unit, utc) => {
                let per_second = i128::from(unit.per_second());
                // 0001-01-01 to 9999-12-31, within 64 bits (1678 to 2261 in nanoseconds).
                let low =
                    (FIRST_DAY * SECONDS_PER_DAY * per_second).max(-9_000_000_000_000_000_000);
                let high = ((LAST_DAY + 1) * SECONDS_PER_DAY * per_second - 1)
                    .min(9_000_000_000_000_000_000);
                Field::Timestamp {
                    value: range(rng, low, high, 0),
                    unit,
                    utc,
                }
            }
            Self::Decimal {
                precision, scale, ..
            } => {
                let high = 10i128.pow(precision) - 1;
                Field::Decimal {
                    unscaled: range(rng, -high, high, 0),
                    scale,
                }
            }
            Self::Uuid => {
                let mut uuid = [0; 16];
                uuid.copy_from_slice(&rng.bytes(16));
                Field::Uuid(uuid)
            }
            Self::Serial => Field::Int(serial),
            Self::SerialKey => Field::Str(format!("k{serial:06}")),
            Self::SerialDay => Field::Date(17_000 + i32::try_from(serial / 7).unwrap_or(0)),
        }
    }
}

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[usize::try_from(rng.below(from.len() as u64)).unwrap_or(0)]
}

/// ASCII text up to 20 characters, a third of it sharing prefixes.
fn random_text(rng: &mut Rng) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789 -";
    let n = usize::try_from(rng.below(21)).unwrap_or(0);
    let text: String = (0..n)
        .map(|_| {
            char::from(ALPHABET[usize::try_from(rng.below(ALPHABET.len() as u64)).unwrap_or(0)])
        })
        .collect();
    if rng.chance(33) {
        format!("shared/prefix/{text}")
    } else {
        text
    }
}

/// A finite float with one shortest decimal form: any bits, or a multiple of 1/16
/// within a thousand.
#[allow(clippy::cast_precision_loss)] // small integers
fn random_float(rng: &mut Rng) -> f32 {
    if rng.chance(50) {
        loop {
            let value = f32::from_bits(u32::try_from(rng.next() >> 32).unwrap_or(0));
            if value.is_finite()
                && one_shortest_form(&format!("{value:e}"), |t| {
                    t.parse::<f32>()
                        .is_ok_and(|v| v.to_bits() == value.to_bits())
                })
            {
                return value;
            }
        }
    }
    (rng.between(-16_000, 16_000) as f32) / 16.0
}

/// A finite double with one shortest decimal form: any bits, or a multiple of 1/1024
/// within a thousand.
#[allow(clippy::cast_precision_loss)] // small integers
fn random_double(rng: &mut Rng) -> f64 {
    if rng.chance(50) {
        loop {
            let value = f64::from_bits(rng.next());
            if value.is_finite()
                && one_shortest_form(&format!("{value:e}"), |t| {
                    t.parse::<f64>()
                        .is_ok_and(|v| v.to_bits() == value.to_bits())
                })
            {
                return value;
            }
        }
    }
    (rng.between(-1_024_000, 1_024_000) as f64) / 1024.0
}

/// Whether `shortest` (a float's shortest digits, as `{:e}` prints them) is the only
/// decimal of its length that reads back as the float (`reads_back`): where the digits
/// one above or below do too, Rust and numpy may print different ones (1306070.25f32 is
/// `1306070.3` to Rust and `1306070.2` to numpy), and the rows could not be compared.
fn one_shortest_form(shortest: &str, reads_back: impl Fn(&str) -> bool) -> bool {
    let Some((mantissa, exponent)) = shortest.split_once('e') else {
        return false;
    };
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let (Ok(m), Ok(e)) = (digits.parse::<i128>(), exponent.parse::<i32>()) else {
        return false;
    };
    let scale = e - i32::try_from(digits.len()).unwrap_or(0) + 1;
    let sign = if negative { "-" } else { "" };
    [m - 1, m + 1]
        .iter()
        .all(|n| !reads_back(&format!("{sign}{n}e{scale}")))
}

/// The values of each leaf column of a row group, and its nulls: the level entries
/// without a value (a null at any level, an empty list or map), as `null_count` counts.
#[derive(Debug, Default, Clone)]
pub(crate) struct LeafValues {
    pub(crate) values: Vec<Field>,
    pub(crate) nulls: u64,
}

/// The values of every leaf column of `rows` (one [`LeafValues`] per column).
pub(crate) fn leaf_values(specs: &[Spec], rows: &[Row]) -> Vec<LeafValues> {
    let mut out = vec![LeafValues::default(); specs.iter().map(Spec::leaves).sum()];
    for row in rows {
        let mut rest = out.as_mut_slice();
        for spec in specs {
            let (mine, others) = rest.split_at_mut(spec.leaves());
            collect(spec, row.get(spec.name).unwrap_or(&Field::Null), mine);
            rest = others;
        }
    }
    out
}

fn collect(spec: &Spec, field: &Field, out: &mut [LeafValues]) {
    let empty = match field {
        Field::Null => true,
        Field::List(items) => items.is_empty(),
        Field::Map(pairs) => pairs.is_empty(),
        _ => false,
    };
    if empty && !matches!(spec.kind, Kind::Leaf(_)) || matches!(field, Field::Null) {
        for leaf in out {
            leaf.nulls += 1;
        }
        return;
    }
    match (&spec.kind, field) {
        (Kind::Leaf(_), _) => {
            if let Some(leaf) = out.first_mut() {
                leaf.values.push(field.clone());
            }
        }
        (Kind::Group(specs), Field::Group(fields)) => {
            let mut rest = out;
            for spec in specs {
                let (mine, others) = rest.split_at_mut(spec.leaves());
                let child = fields
                    .iter()
                    .find(|(name, _)| &**name == spec.name)
                    .map_or(&Field::Null, |(_, f)| f);
                collect(spec, child, mine);
                rest = others;
            }
        }
        (Kind::List(element), Field::List(items)) => {
            for item in items {
                collect(element, item, out);
            }
        }
        (Kind::Map(key, value), Field::Map(pairs)) => {
            let (keys, values) = out.split_at_mut(key.leaves());
            for (k, v) in pairs {
                collect(key, k, keys);
                collect(value, v, values);
            }
        }
        _ => {}
    }
}
