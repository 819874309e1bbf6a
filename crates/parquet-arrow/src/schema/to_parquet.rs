//! Parquet schemas of Arrow schemas, as pyarrow writes them (arrow-rs agrees but for a
//! few types, noted below).
//!
//! | Arrow | Parquet |
//! |---|---|
//! | `Null` | `INT32` (`UNKNOWN`), always optional |
//! | `Boolean` | `BOOLEAN` |
//! | `Int8`, `Int16`, `UInt8`, `UInt16`, `UInt32` | `INT32` (`INTEGER(bits, signed)`) |
//! | `Int32`, `Int64` | `INT32`, `INT64` |
//! | `UInt64` | `INT64` (`INTEGER(64, false)`) |
//! | `Float16` | `FIXED_LEN_BYTE_ARRAY(2)` (`FLOAT16`) |
//! | `Float32`, `Float64` | `FLOAT`, `DOUBLE` |
//! | `Utf8`, `LargeUtf8`, `Utf8View` | `BYTE_ARRAY` (`STRING`) |
//! | `Binary`, `LargeBinary`, `BinaryView` | `BYTE_ARRAY` |
//! | `FixedSizeBinary(n)` | `FIXED_LEN_BYTE_ARRAY(n)` |
//! | `Date32`, `Date64` | `INT32` (`DATE`); `Date64` stored as days |
//! | `Time32(s or ms)` | `INT32` (`TIME(MILLIS, false)`); seconds stored as milliseconds |
//! | `Time64(us or ns)` | `INT64` (`TIME(MICROS or NANOS, false)`) |
//! | `Timestamp(unit, tz)` | `INT64` (`TIMESTAMP(unit, tz given)`); seconds stored as milliseconds |
//! | `Duration(unit)` | `INT64`, no annotation (the stored Arrow schema gives the unit) |
//! | `Decimal32/64/128/256(p, s)` | `FIXED_LEN_BYTE_ARRAY` of the fewest bytes for p (`DECIMAL(p, s)`) |
//! | `Dictionary(_, V)` | as `V` |
//! | `Struct` | a group |
//! | `List`, `LargeList`, `ListView`, `LargeListView`, `FixedSizeList` | a three-level `LIST`: `list`, `element` |
//! | `Map` | a `MAP`: `key_value`, a required `key`, `value` |
//!
//! The extension types `arrow.uuid` (on FixedSizeBinary(16)) and `arrow.json` (on text) are
//! written as UUID and JSON. Intervals, unions and run-end encoded arrays have no Parquet
//! type (pyarrow refuses them too), nor has a struct without fields.
//!
//! A nullable field is optional, a non-nullable one required; a `PARQUET:field_id` in a
//! field's metadata becomes its field id. The message is named `schema`.

use arrow_schema::{DataType, Field, TimeUnit};
use parquet_file::{LogicalType, PhysicalType, Repetition, SchemaField, TimeUnit as Unit};

use crate::error::{Error, Result, unsupported};

use super::from_parquet::FIELD_ID_KEY;

/// The field metadata key of an extension type's name.
const EXTENSION_NAME_META_KEY: &str = "ARROW:extension:name";

/// The Parquet schema of an Arrow schema: the one pyarrow writes (see the table in the
/// module docs).
///
/// ```
/// use arrow_schema::{DataType, Field, Schema};
///
/// let schema = Schema::new(vec![
///     Field::new("id", DataType::Int64, false),
///     Field::new_list("tags", Field::new("item", DataType::Utf8, true), true),
/// ]);
/// let parquet = parquet_arrow::arrow_to_parquet_schema(&schema)?;
/// let paths: Vec<_> = parquet.columns().iter().map(|c| c.path.to_string()).collect();
/// assert_eq!(paths, ["id", "tags.list.element"]);
/// # Ok::<(), parquet_arrow::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Unsupported`] for a type Parquet cannot hold, [`Error::Argument`] for a field
/// id that is not an `i32`, or the Parquet schema's own error (a name used twice).
pub fn arrow_to_parquet_schema(schema: &arrow_schema::Schema) -> Result<parquet_file::Schema> {
    let fields = schema
        .fields()
        .iter()
        .map(|field| parquet_field(field))
        .collect::<Result<Vec<_>>>()?;
    Ok(parquet_file::Schema::try_new("schema", fields)?)
}

/// The extension type named in `field`'s metadata.
fn extension_name(field: &Field) -> Option<&str> {
    field
        .metadata()
        .get(EXTENSION_NAME_META_KEY)
        .map(String::as_str)
}

/// The Parquet field of an Arrow field.
fn parquet_field(field: &Field) -> Result<SchemaField> {
    let built = parquet_type(field.name(), repetition(field), field.data_type(), field)?;
    match field.metadata().get(FIELD_ID_KEY) {
        None => Ok(built),
        Some(id) => id
            .trim()
            .parse()
            .map(|id| built.with_field_id(id))
            .map_err(|_| {
                Error::Argument(format!(
                    "field {}: {FIELD_ID_KEY} {id:?} is not a 32-bit integer",
                    field.name()
                ))
            }),
    }
}

#[allow(clippy::too_many_lines)] // One arm per Arrow type.
/// The Parquet field of an Arrow type (`field` for its metadata and, for errors, its name).
fn parquet_type(
    name: &str,
    repetition: Repetition,
    data_type: &DataType,
    field: &Field,
) -> Result<SchemaField> {
    let primitive = |physical| SchemaField::primitive(name, repetition, physical);
    let fixed = |length| SchemaField::fixed_len_byte_array(name, repetition, length);
    let integer = |physical, bits, signed| {
        SchemaField::primitive(name, repetition, physical)
            .with_logical_type(LogicalType::Integer { bits, signed })
    };
    Ok(match data_type {
        DataType::Null => primitive(PhysicalType::Int32).with_logical_type(LogicalType::Unknown),
        DataType::Boolean => primitive(PhysicalType::Boolean),
        DataType::Int8 => integer(PhysicalType::Int32, 8, true),
        DataType::Int16 => integer(PhysicalType::Int32, 16, true),
        DataType::Int32 => primitive(PhysicalType::Int32),
        DataType::Int64 | DataType::Duration(_) => primitive(PhysicalType::Int64),
        DataType::UInt8 => integer(PhysicalType::Int32, 8, false),
        DataType::UInt16 => integer(PhysicalType::Int32, 16, false),
        DataType::UInt32 => integer(PhysicalType::Int32, 32, false),
        DataType::UInt64 => integer(PhysicalType::Int64, 64, false),
        DataType::Float16 => fixed(2).with_logical_type(LogicalType::Float16),
        DataType::Float32 => primitive(PhysicalType::Float),
        DataType::Float64 => primitive(PhysicalType::Double),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
            let logical = if extension_name(field) == Some("arrow.json") {
                LogicalType::Json
            } else {
                LogicalType::String
            };
            primitive(PhysicalType::ByteArray).with_logical_type(logical)
        }
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
            primitive(PhysicalType::ByteArray)
        }
        DataType::FixedSizeBinary(length) => {
            let length = usize::try_from(*length)
                .ok()
                .filter(|&l| l > 0)
                .ok_or_else(|| unsupported(format!("{data_type} (field {name})")))?;
            if length == 16 && extension_name(field) == Some("arrow.uuid") {
                fixed(16).with_logical_type(LogicalType::Uuid)
            } else {
                fixed(length)
            }
        }
        DataType::Date32 | DataType::Date64 => {
            primitive(PhysicalType::Int32).with_logical_type(LogicalType::Date)
        }
        DataType::Time32(TimeUnit::Second | TimeUnit::Millisecond) => {
            primitive(PhysicalType::Int32).with_logical_type(LogicalType::Time {
                unit: Unit::Millis,
                utc: false,
            })
        }
        DataType::Time64(unit @ (TimeUnit::Microsecond | TimeUnit::Nanosecond)) => {
            primitive(PhysicalType::Int64).with_logical_type(LogicalType::Time {
                unit: parquet_unit(*unit),
                utc: false,
            })
        }
        DataType::Timestamp(unit, zone) => {
            primitive(PhysicalType::Int64).with_logical_type(LogicalType::Timestamp {
                unit: parquet_unit(*unit),
                utc: zone.is_some(),
            })
        }
        DataType::Decimal32(precision, scale)
        | DataType::Decimal64(precision, scale)
        | DataType::Decimal128(precision, scale)
        | DataType::Decimal256(precision, scale) => fixed(decimal_width(*precision))
            .with_logical_type(LogicalType::Decimal {
                scale: i32::from(*scale),
                precision: i32::from(*precision),
            }),
        DataType::Dictionary(_, values) if !values.is_nested() => {
            parquet_type(name, repetition, values, field)?
        }
        DataType::Struct(fields) => {
            if fields.is_empty() {
                return Err(unsupported(format!(
                    "struct field {name} without fields (Parquet has no empty group)"
                )));
            }
            let fields = fields
                .iter()
                .map(|f| parquet_field(f))
                .collect::<Result<Vec<_>>>()?;
            SchemaField::group(name, repetition, fields)
        }
        DataType::List(element)
        | DataType::LargeList(element)
        | DataType::ListView(element)
        | DataType::LargeListView(element)
        | DataType::FixedSizeList(element, _) => {
            SchemaField::list(name, repetition, parquet_field(element)?)
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return Err(unsupported(format!(
                    "map field {name} whose entries are not a struct"
                )));
            };
            let [key, value] = kv.iter().collect::<Vec<_>>()[..] else {
                return Err(unsupported(format!(
                    "map field {name} whose entries are not a key and a value"
                )));
            };
            let key = parquet_type(key.name(), Repetition::Required, key.data_type(), key)?;
            SchemaField::map(name, repetition, key, Some(parquet_field(value)?))
        }
        DataType::Time32(_)
        | DataType::Time64(_)
        | DataType::Dictionary(..)
        | DataType::Interval(_)
        | DataType::Union(..)
        | DataType::RunEndEncoded(..) => {
            return Err(unsupported(format!("{data_type} (field {name})")));
        }
    })
}

fn parquet_unit(unit: TimeUnit) -> Unit {
    match unit {
        TimeUnit::Second | TimeUnit::Millisecond => Unit::Millis,
        TimeUnit::Microsecond => Unit::Micros,
        TimeUnit::Nanosecond => Unit::Nanos,
    }
}

/// The fewest bytes whose two's complement holds every decimal of `precision` digits,
/// as pyarrow and arrow-rs size a DECIMAL's FIXED_LEN_BYTE_ARRAY: the smallest `n` with
/// `10^precision - 1 <= 2^(8n - 1) - 1`.
pub(crate) fn decimal_width(precision: u8) -> usize {
    // `(8n - 1) * log10(2)` digits fit in n bytes; it is never within rounding of an
    // integer for n <= 32.
    (1..=32usize)
        .find(|&n| {
            #[allow(clippy::cast_precision_loss)]
            let digits = ((8 * n - 1) as f64 * std::f64::consts::LOG10_2).floor();
            digits >= f64::from(precision)
        })
        .unwrap_or(32)
}

/// The repetition of `field` in the Parquet schema: optional when nullable (a Null
/// field always is).
pub(crate) fn repetition(field: &Field) -> Repetition {
    if field.is_nullable() || *field.data_type() == DataType::Null {
        Repetition::Optional
    } else {
        Repetition::Required
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::{Fields, Schema};
    use std::sync::Arc;

    fn text(schema: &Schema) -> String {
        arrow_to_parquet_schema(schema).unwrap().to_string()
    }

    #[test]
    fn decimal_widths_match_pyarrow() {
        // Written by pyarrow 26: decimal128(9, 2) is FIXED_LEN_BYTE_ARRAY(4), and so on.
        for (precision, width) in [
            (1, 1),
            (2, 1),
            (3, 2),
            (5, 3),
            (9, 4),
            (10, 5),
            (15, 7),
            (18, 8),
            (38, 16),
            (76, 32),
        ] {
            assert_eq!(decimal_width(precision), width, "precision {precision}");
        }
    }

    #[test]
    fn primitives_as_pyarrow_writes_them() {
        let schema = Schema::new(vec![
            Field::new("i8", DataType::Int8, true),
            Field::new("u32", DataType::UInt32, false),
            Field::new("u64", DataType::UInt64, true),
            Field::new("t", DataType::Time32(TimeUnit::Second), true),
            Field::new(
                "ts",
                DataType::Timestamp(TimeUnit::Second, Some("UTC".into())),
                true,
            ),
            Field::new("d", DataType::Duration(TimeUnit::Nanosecond), true),
            Field::new("n", DataType::Null, false),
            Field::new("f16", DataType::Float16, true),
            Field::new("dec", DataType::Decimal128(9, 2), true),
            Field::new_dictionary("dict", DataType::Int8, DataType::LargeUtf8, true),
        ]);
        let expected = "\
message schema {
  optional int32 i8 (INTEGER(8,true));
  required int32 u32 (INTEGER(32,false));
  optional int64 u64 (INTEGER(64,false));
  optional int32 t (TIME(MILLIS,false));
  optional int64 ts (TIMESTAMP(MILLIS,true));
  optional int64 d;
  optional int32 n (UNKNOWN);
  optional fixed_len_byte_array(2) f16 (FLOAT16);
  optional fixed_len_byte_array(4) dec (DECIMAL(9,2));
  optional byte_array dict (STRING);
}
";
        assert_eq!(text(&schema), expected);
    }

    #[test]
    fn nested_as_pyarrow_writes_them() {
        let entries = Field::new(
            "entries",
            DataType::Struct(Fields::from(vec![
                Field::new("k", DataType::Utf8, false),
                Field::new("v", DataType::Int32, true),
            ])),
            false,
        );
        let schema = Schema::new(vec![
            Field::new_list("l", Field::new("item", DataType::Int32, false), true),
            Field::new(
                "f",
                DataType::FixedSizeList(Arc::new(Field::new("x", DataType::Int32, true)), 2),
                false,
            ),
            Field::new("m", DataType::Map(Arc::new(entries), false), true),
            Field::new_struct("s", vec![Field::new("a", DataType::Boolean, true)], true)
                .with_metadata([(FIELD_ID_KEY, "7")]),
        ]);
        let expected = "\
message schema {
  optional group l (LIST) {
    repeated group list {
      required int32 element;
    }
  }
  required group f (LIST) {
    repeated group list {
      optional int32 element;
    }
  }
  optional group m (MAP) {
    repeated group key_value {
      required byte_array key (STRING);
      optional int32 value;
    }
  }
  optional group s {
    optional boolean a;
  }
}
";
        assert_eq!(text(&schema), expected);
        let parquet = arrow_to_parquet_schema(&schema).unwrap();
        let s = parquet.nodes().iter().find(|n| n.name == "s").unwrap();
        assert_eq!(s.field_id, Some(7));
    }

    #[test]
    fn refuses_what_parquet_cannot_hold() {
        for data_type in [
            DataType::Interval(arrow_schema::IntervalUnit::MonthDayNano),
            DataType::Struct(Fields::empty()),
            DataType::Time32(TimeUnit::Microsecond),
        ] {
            let schema = Schema::new(vec![Field::new("x", data_type, true)]);
            assert!(matches!(
                arrow_to_parquet_schema(&schema),
                Err(Error::Unsupported(_))
            ));
        }
        let bad_id = Schema::new(vec![
            Field::new("x", DataType::Int32, true).with_metadata([(FIELD_ID_KEY, "x")]),
        ]);
        assert!(matches!(
            arrow_to_parquet_schema(&bad_id),
            Err(Error::Argument(_))
        ));
    }
}
