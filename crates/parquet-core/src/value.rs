//! The values of the row API, shared by the Parquet and ORC readers and writers: a row of
//! named [`Field`]s, each a typed value, a list, a map or a group.

use std::sync::Arc;

/// The unit of a TIME or TIMESTAMP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
}

impl TimeUnit {
    /// How many of this unit make a second.
    pub const fn per_second(self) -> i64 {
        match self {
            Self::Millis => 1_000,
            Self::Micros => 1_000_000,
            Self::Nanos => 1_000_000_000,
        }
    }

    /// The digits of a fraction of a second in this unit: 3, 6 or 9.
    pub const fn digits(self) -> usize {
        match self {
            Self::Millis => 3,
            Self::Micros => 6,
            Self::Nanos => 9,
        }
    }

    /// The unit's name in the message-type syntax: `MILLIS`, `MICROS`, `NANOS`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Millis => "MILLIS",
            Self::Micros => "MICROS",
            Self::Nanos => "NANOS",
        }
    }
}

/// One value of a row: a leaf's value interpreted by its logical type, or a list, map or
/// group of values.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// A null, at any level.
    Null,
    /// BOOLEAN.
    Bool(bool),
    /// A signed integer: INT32 or INT64 without annotation, or a signed INTEGER
    /// annotation of any width.
    Int(i64),
    /// An unsigned integer: an unsigned INTEGER annotation (`UINT_8` .. `UINT_64`).
    UInt(u64),
    /// FLOAT.
    Float(f32),
    /// DOUBLE.
    Double(f64),
    /// FLOAT16: the half-precision bits.
    Float16(u16),
    /// DECIMAL: the unscaled value and the scale.
    Decimal {
        /// The unscaled integer.
        unscaled: i128,
        /// The digits after the point.
        scale: u32,
    },
    /// DECIMAL whose unscaled value does not fit 128 bits (a FIXED_LEN_BYTE_ARRAY or
    /// BYTE_ARRAY of more than 16 bytes, such as Arrow's decimal256).
    WideDecimal {
        /// The unscaled integer, big-endian two's complement, as stored.
        unscaled: Vec<u8>,
        /// The digits after the point.
        scale: u32,
    },
    /// DATE: days since 1970-01-01.
    Date(i32),
    /// TIME: time of day in `unit`s since midnight, from 00:00:00 to 24:00:00.
    Time {
        /// The count of units.
        value: i64,
        /// The unit.
        unit: TimeUnit,
    },
    /// TIMESTAMP, or INT96 (as nanoseconds, not adjusted to UTC).
    Timestamp {
        /// The count of units since 1970-01-01T00:00:00 (wider than 64 bits only for
        /// INT96 values outside the years 1677 to 2262: an INT96 is read as Spark reads
        /// it, see [`Int96::to_spark_nanos`](crate::Int96::to_spark_nanos)).
        value: i128,
        /// The unit.
        unit: TimeUnit,
        /// Whether the value is an instant in UTC.
        utc: bool,
    },
    /// STRING, ENUM, JSON: text.
    Str(String),
    /// Any other byte array: BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY without a text or number
    /// annotation (BSON, INTERVAL, none).
    Bytes(Vec<u8>),
    /// UUID.
    Uuid([u8; 16]),
    /// A LIST, or a repeated field without annotation.
    List(Vec<Field>),
    /// A MAP: key and value pairs (the value is `Null` for a map without values).
    Map(Vec<(Field, Field)>),
    /// A group: its fields by name, in schema order.
    Group(Vec<(Arc<str>, Field)>),
}

/// A row: its top-level fields by name, in schema order.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    fields: Vec<(Arc<str>, Field)>,
}

impl Row {
    /// A row of these fields.
    pub fn new(fields: Vec<(Arc<str>, Field)>) -> Self {
        Self { fields }
    }

    /// The fields and their names.
    pub fn fields(&self) -> &[(Arc<str>, Field)] {
        &self.fields
    }

    /// The fields, owned.
    pub fn into_fields(self) -> Vec<(Arc<str>, Field)> {
        self.fields
    }

    /// The top-level field named `name`.
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, f)| f)
    }

    /// The field at `path`: a top-level field, or one inside groups.
    pub fn get_path(&self, path: &[String]) -> Option<&Field> {
        let (first, rest) = path.split_first()?;
        let mut field = self.get(first)?;
        for part in rest {
            let Field::Group(fields) = field else {
                return None;
            };
            field = fields.iter().find(|(n, _)| **n == **part).map(|(_, f)| f)?;
        }
        Some(field)
    }
}
