//! Typed values of the row API: what a leaf's physical value means under its logical type.

use std::sync::Arc;

use parquet_core::Int96;

use crate::column::ColumnValues;
use crate::error::{Error, Result};
use crate::schema::{ColumnDescriptor, LogicalType, TimeUnit};

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
    /// TIME: time of day in `unit`s since midnight.
    Time {
        /// The count of units.
        value: i64,
        /// The unit.
        unit: TimeUnit,
    },
    /// TIMESTAMP, or INT96 (as nanoseconds, not adjusted to UTC).
    Timestamp {
        /// The count of units since 1970-01-01T00:00:00 (wider than 64 bits only for
        /// INT96 values outside the years 1677 to 2262).
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

/// Turns the values of one leaf column into [`Field`]s.
#[derive(Debug, Clone)]
pub(crate) struct Converter {
    logical: LogicalType,
}

impl Converter {
    pub(crate) fn new(column: &ColumnDescriptor) -> Self {
        Self {
            logical: column.logical_type,
        }
    }

    /// The `index`th value of `values`.
    pub(crate) fn convert(&self, values: &ColumnValues, index: usize) -> Result<Field> {
        use LogicalType as L;
        let missing = || Error::invalid("fewer values than the definition levels say");
        Ok(match values {
            ColumnValues::Boolean(v) => Field::Bool(*v.get(index).ok_or_else(missing)?),
            ColumnValues::Int32(v) => {
                let v = *v.get(index).ok_or_else(missing)?;
                match self.logical {
                    #[allow(clippy::cast_sign_loss)]
                    L::Integer { signed: false, .. } => Field::UInt(u64::from(v as u32)),
                    L::Date => Field::Date(v),
                    L::Time { unit, .. } => Field::Time {
                        value: v.into(),
                        unit,
                    },
                    L::Decimal { scale, .. } => decimal(v.into(), scale),
                    L::Unknown => Field::Null,
                    _ => Field::Int(v.into()),
                }
            }
            ColumnValues::Int64(v) => {
                let v = *v.get(index).ok_or_else(missing)?;
                match self.logical {
                    #[allow(clippy::cast_sign_loss)]
                    L::Integer { signed: false, .. } => Field::UInt(v as u64),
                    L::Time { unit, .. } => Field::Time { value: v, unit },
                    L::Timestamp { unit, utc } => Field::Timestamp {
                        value: v.into(),
                        unit,
                        utc,
                    },
                    L::Decimal { scale, .. } => decimal(v.into(), scale),
                    L::Unknown => Field::Null,
                    _ => Field::Int(v),
                }
            }
            ColumnValues::Int96(v) => int96(*v.get(index).ok_or_else(missing)?),
            ColumnValues::Float(v) => Field::Float(*v.get(index).ok_or_else(missing)?),
            ColumnValues::Double(v) => Field::Double(*v.get(index).ok_or_else(missing)?),
            ColumnValues::ByteArray(v) => self.bytes(v.get(index).ok_or_else(missing)?)?,
            ColumnValues::FixedLenByteArray(v) => self.bytes(v.get(index).ok_or_else(missing)?)?,
        })
    }

    fn bytes(&self, bytes: &[u8]) -> Result<Field> {
        use LogicalType as L;
        Ok(match self.logical {
            L::String | L::Enum | L::Json => Field::Str(
                std::str::from_utf8(bytes)
                    .map_err(|e| Error::invalid(format!("a STRING value that is not UTF-8: {e}")))?
                    .to_owned(),
            ),
            L::Decimal { scale, .. } => match be_i128(bytes) {
                Some(unscaled) => decimal(unscaled, scale),
                None => Field::WideDecimal {
                    unscaled: bytes.to_vec(),
                    scale: scale.unsigned_abs(),
                },
            },
            L::Uuid if bytes.len() == 16 => {
                let mut uuid = [0; 16];
                uuid.copy_from_slice(bytes);
                Field::Uuid(uuid)
            }
            L::Float16 if bytes.len() == 2 => {
                Field::Float16(u16::from_le_bytes([bytes[0], bytes[1]]))
            }
            L::Unknown => Field::Null,
            _ => Field::Bytes(bytes.to_vec()),
        })
    }
}

fn decimal(unscaled: i128, scale: i32) -> Field {
    Field::Decimal {
        unscaled,
        // The schema check keeps the scale in 0..=precision.
        scale: scale.unsigned_abs(),
    }
}

/// A big-endian two's complement integer of any length, when it fits an `i128`.
pub(crate) fn be_i128(bytes: &[u8]) -> Option<i128> {
    let negative = bytes.first().is_some_and(|&b| b & 0x80 != 0);
    let fill = if negative { 0xFF } else { 0 };
    let significant = bytes.len().saturating_sub(16);
    if bytes[..significant].iter().any(|&b| b != fill)
        || (significant > 0 && (bytes[significant] & 0x80 != 0) != negative)
    {
        return None;
    }
    let mut buf = [fill; 16];
    let tail = &bytes[significant..];
    buf[16 - tail.len()..].copy_from_slice(tail);
    Some(i128::from_be_bytes(buf))
}

/// An INT96 timestamp as nanoseconds since the epoch, exactly (Arrow's readers wrap
/// values outside the years 1677 to 2262 around 64 bits).
fn int96(value: Int96) -> Field {
    Field::Timestamp {
        value: value.to_unix_nanos(),
        unit: TimeUnit::Nanos,
        utc: false,
    }
}
