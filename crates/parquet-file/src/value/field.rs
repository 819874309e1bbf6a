//! Typed values of the row API: what a leaf's physical value means under its logical type.

pub use parquet_core::Field;
use parquet_core::Int96;

use super::ColumnValues;
use crate::error::{ErrorKind, Result};
use crate::schema::{ColumnDescriptor, LogicalType, TimeUnit};

/// Turns the values of one leaf column into [`Field`]s.
#[derive(Debug, Clone)]
pub(crate) struct Converter {
    logical: LogicalType,
}

fn invalid_value(what: &'static str) -> crate::Error {
    ErrorKind::InvalidValue { what }.into()
}

/// A TIME of `value` units, checked to lie within the day (00:00:00 to 24:00:00).
fn time(value: i64, unit: TimeUnit) -> Result<Field> {
    if (0..=86_400 * unit.per_second()).contains(&value) {
        Ok(Field::Time { value, unit })
    } else {
        Err(invalid_value("a TIME value outside 00:00:00 to 24:00:00"))
    }
}

impl Converter {
    pub(crate) fn new(column: &ColumnDescriptor) -> Self {
        Self {
            logical: column.logical_type.clone(),
        }
    }

    /// The `index`th value of `values`.
    pub(crate) fn convert(&self, values: &ColumnValues, index: usize) -> Result<Field> {
        use LogicalType as L;
        let missing = || invalid_value("fewer values than the definition levels say");
        Ok(match values {
            ColumnValues::Boolean(v) => Field::Bool(*v.get(index).ok_or_else(missing)?),
            ColumnValues::Int32(v) => {
                let v = *v.get(index).ok_or_else(missing)?;
                match self.logical {
                    L::Integer { signed: false, .. } => Field::UInt(u64::from(v.cast_unsigned())),
                    L::Date => Field::Date(v),
                    L::Time { unit, .. } => time(v.into(), unit)?,
                    L::Decimal { scale, .. } => decimal(v.into(), scale),
                    L::Unknown => Field::Null,
                    _ => Field::Int(v.into()),
                }
            }
            ColumnValues::Int64(v) => {
                let v = *v.get(index).ok_or_else(missing)?;
                match self.logical {
                    L::Integer { signed: false, .. } => Field::UInt(v.cast_unsigned()),
                    L::Time { unit, .. } => time(v, unit)?,
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
                    .map_err(|_| invalid_value("a STRING value that is not UTF-8"))?
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
                let mut half = [0; 2];
                half.copy_from_slice(bytes);
                Field::Float16(u16::from_le_bytes(half))
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
    let (high, tail) = bytes.split_at(bytes.len().saturating_sub(16));
    if high.iter().any(|&b| b != fill)
        || (!high.is_empty() && tail.first().is_some_and(|&b| (b & 0x80 != 0) != negative))
    {
        return None;
    }
    let mut buf = [fill; 16];
    buf.get_mut(16 - tail.len()..)?.copy_from_slice(tail);
    Some(i128::from_be_bytes(buf))
}

/// An INT96 timestamp as nanoseconds since the epoch, as Spark reads it (Arrow's readers
/// wrap values outside the years 1677 to 2262 around 64-bit nanoseconds).
fn int96(value: Int96) -> Field {
    Field::Timestamp {
        value: value.to_spark_nanos(),
        unit: TimeUnit::Nanos,
        utc: false,
    }
}

#[cfg(test)]
mod tests {
    use super::be_i128;

    #[test]
    fn decimals_up_to_128_bits_fit_an_i128() {
        assert_eq!(be_i128(&[0xFF, 0x38]), Some(-200));
        assert_eq!(be_i128(&[0x00, 0xC8]), Some(200));
        let mut wide = vec![0xFF; 20];
        wide[19] = 0xFE;
        assert_eq!(be_i128(&wide), Some(-2));
        let mut too_wide = vec![0; 20];
        too_wide[3] = 1;
        assert_eq!(be_i128(&too_wide), None);
        // The sign of the kept bytes must match the dropped ones.
        let mut flipped = vec![0; 17];
        flipped[1] = 0x80;
        assert_eq!(be_i128(&flipped), None);
    }
}
