//! `convert` to and from ORC: the types of one format in the other, the values carried
//! across, and the flags that say how an ORC file is written.
//!
//! The types map as Arrow maps them (pyarrow's ORC module to Arrow, Arrow to Parquet, and
//! back):
//!
//! | ORC | Parquet |
//! |---|---|
//! | boolean | BOOLEAN |
//! | tinyint, smallint | INT32 (INTEGER(8,true)), INT32 (INTEGER(16,true)) |
//! | int, bigint | INT32, INT64 |
//! | float, double | FLOAT, DOUBLE |
//! | string, varchar(n), char(n) | BYTE_ARRAY (STRING) |
//! | binary | BYTE_ARRAY |
//! | date | INT32 (DATE) |
//! | timestamp | INT64 (TIMESTAMP(MICROS,false)), or the unit `--timestamp-unit` gives |
//! | timestamp with local time zone | INT64 (TIMESTAMP(MICROS,true)), or as above |
//! | decimal(p,s) | FIXED_LEN_BYTE_ARRAY of the fewest bytes for p digits (DECIMAL(p,s)) |
//! | decimal (ORC v0, without precision and scale) | as decimal(38,6), Arrow's reading |
//! | array, map, struct | LIST, MAP (required keys), group; every field optional |
//! | uniontype | none: with `--union-as-struct`, a group of `tag` (INT32 (INTEGER(8,true))) and one field per alternative, `_union_0`, `_union_1`, … (Arrow's names), the tag's set and the others null |
//!
//! Parquet types ORC lacks are widened: unsigned integers to the next wider signed
//! type (`UINT_8` smallint, `UINT_16` int, `UINT_32` bigint, `UINT_64` decimal(20,0)), FLOAT16 to
//! float, INT96 and TIMESTAMP of any unit to timestamp (with local time zone when
//! adjusted to UTC, but in ORC 0.11 files, which lack that type), ENUM and JSON to string, UUID, INTERVAL, BSON and other byte arrays
//! to binary. TIME has no ORC type (Arrow's ORC writer refuses it too), nor does a
//! DECIMAL of more than 38 digits or an UNKNOWN (always null) field: converting them is
//! an error.

use std::sync::Arc;

use clap::Args;
use orc_file::{Kind, OrcCompression, OrcVersion, TypeDescription, WriterOptions};
use parquet_file::{Field, LogicalType, PhysicalType, Repetition, Row, Schema, SchemaField};

use crate::contract::{Leaf, Rows, Shape, orc_decimal};
use crate::write_args::positive;

/// How an ORC file is written. Unset flags leave the writer's defaults (Apache ORC's
/// Java writer's): version 0.12, ZLIB in chunks of 256 KiB, stripes of 64 MiB, a row
/// index entry every 10,000 rows.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Writing ORC")]
pub(crate) struct OrcWriteArgs {
    /// The ORC file version: 0.11 (Hive 0.11: RLE version 1) or 0.12 (RLE version 2;
    /// the default).
    #[arg(long, value_name = "0.11|0.12", value_parser = version)]
    orc_version: Option<OrcVersion>,
    /// The ORC compression: `none`, `zlib` (the default), `snappy`, `lzo`, `lz4` or
    /// `zstd`, with a level for zlib (0 to 9) or zstd (-131072 to 22): `zstd:9`.
    #[arg(long, value_name = "CODEC[:LEVEL]", value_parser = codec)]
    orc_compression: Option<OrcCodec>,
    /// The most bytes compressed at once, a compression chunk (default 262144).
    #[arg(long, value_name = "N", value_parser = positive)]
    orc_block_size: Option<usize>,
    /// A stripe is written when its encoded streams reach about this many bytes
    /// (default 67108864: 64 MiB).
    #[arg(long, value_name = "N", value_parser = positive)]
    stripe_size: Option<usize>,
    /// The rows of a row group, for which the row index has an entry (default 10000; 0:
    /// no row index).
    #[arg(long, value_name = "N")]
    row_index_stride: Option<usize>,
}

/// An ORC codec and its level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OrcCodec {
    kind: OrcCompression,
    level: Option<i32>,
}

/// `0.11` or `0.12`.
fn version(text: &str) -> Result<OrcVersion, String> {
    match text {
        "0.11" => Ok(OrcVersion::V0_11),
        "0.12" => Ok(OrcVersion::V0_12),
        _ => Err("expected 0.11 or 0.12".into()),
    }
}

/// `CODEC[:LEVEL]`.
fn codec(text: &str) -> Result<OrcCodec, String> {
    let (name, level) = match text.split_once(':') {
        Some((name, level)) => (name, Some(level)),
        None => (text, None),
    };
    let kind = match name.to_ascii_lowercase().as_str() {
        "none" | "uncompressed" => OrcCompression::None,
        "zlib" => OrcCompression::Zlib,
        "snappy" => OrcCompression::Snappy,
        "lzo" => OrcCompression::Lzo,
        "lz4" => OrcCompression::Lz4,
        "zstd" => OrcCompression::Zstd,
        _ => {
            return Err(format!(
                "{name:?} is not an ORC compression: none, zlib, snappy, lzo, lz4 or zstd"
            ));
        }
    };
    if !kind.is_enabled() {
        return Err(format!("{kind} is not in this build of pqkit"));
    }
    let level = match level {
        None => None,
        Some(_) if !matches!(kind, OrcCompression::Zlib | OrcCompression::Zstd) => {
            return Err(format!("{kind} has no levels"));
        }
        Some(level) => Some(
            level
                .parse::<i32>()
                .map_err(|_| format!("{level:?} is not a compression level"))?,
        ),
    };
    Ok(OrcCodec { kind, level })
}

impl OrcWriteArgs {
    /// The first flag given, when any is (for output that is not ORC, where none
    /// applies).
    pub(crate) fn first_given(&self) -> Option<&'static str> {
        [
            (self.orc_version.is_some(), "--orc-version"),
            (self.orc_compression.is_some(), "--orc-compression"),
            (self.orc_block_size.is_some(), "--orc-block-size"),
            (self.stripe_size.is_some(), "--stripe-size"),
            (self.row_index_stride.is_some(), "--row-index-stride"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// The file version written.
    pub(crate) fn version(&self) -> OrcVersion {
        self.orc_version.unwrap_or_default()
    }

    /// The writer's options.
    pub(crate) fn options(&self) -> WriterOptions {
        let mut options = WriterOptions::default();
        if let Some(version) = self.orc_version {
            options = options.version(version);
        }
        if let Some(codec) = self.orc_compression {
            options = options.compression(codec.kind);
            if let Some(level) = codec.level {
                options = options.compression_level(level);
            }
        }
        if let Some(bytes) = self.orc_block_size {
            options = options.compression_block_size(bytes);
        }
        if let Some(bytes) = self.stripe_size {
            options = options.stripe_size(bytes);
        }
        if let Some(rows) = self.row_index_stride {
            options = options.row_index_stride(rows);
        }
        options
    }
}

/// `field a.b: message`.
fn at(path: &[&str], message: impl std::fmt::Display) -> String {
    format!("field {}: {message}", path.join("."))
}

/// The ORC type of rows of a Parquet schema (as [`Rows`] shapes them), for a file of
/// `version` (0.11 has no `timestamp with local time zone`: a TIMESTAMP adjusted to UTC
/// is a `timestamp` there).
///
/// # Errors
///
/// A field of a type ORC has none for (TIME, a DECIMAL of more than 38 digits, UNKNOWN),
/// with its path.
pub(crate) fn orc_type_of(rows: &Rows, version: OrcVersion) -> Result<TypeDescription, String> {
    let instants = version != OrcVersion::V0_11;
    let mut path = Vec::new();
    let fields = rows
        .shapes()
        .iter()
        .map(|(name, shape)| {
            path.push(&**name);
            let t = orc_of_shape(shape, instants, &mut path)?;
            path.pop();
            Ok((name.to_string(), t))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(TypeDescription::struct_of(fields))
}

fn orc_of_shape<'a>(
    shape: &'a Shape,
    instants: bool,
    path: &mut Vec<&'a str>,
) -> Result<TypeDescription, String> {
    Ok(match shape {
        Shape::Leaf(leaf) => orc_of_leaf(leaf, instants).map_err(|m| at(path, m))?,
        Shape::List(element) => {
            path.push("element");
            let t = TypeDescription::list(orc_of_shape(element, instants, path)?);
            path.pop();
            t
        }
        Shape::Map(key, value) => {
            path.push("key");
            let key = orc_of_shape(key, instants, path)?;
            path.pop();
            path.push("value");
            let value = orc_of_shape(value, instants, path)?;
            path.pop();
            TypeDescription::map(key, value)
        }
        Shape::Group(fields) => {
            let mut children = Vec::with_capacity(fields.len());
            for (name, shape) in fields {
                path.push(name);
                children.push((name.to_string(), orc_of_shape(shape, instants, path)?));
                path.pop();
            }
            TypeDescription::struct_of(children)
        }
        Shape::Union(alternatives) => TypeDescription::union_of(
            alternatives
                .iter()
                .map(|a| orc_of_shape(a, instants, path))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    })
}

fn orc_of_leaf(leaf: &Leaf, instants: bool) -> Result<TypeDescription, String> {
    use LogicalType as L;
    use PhysicalType as P;
    let kind = match (leaf.physical, &leaf.logical) {
        (_, L::Time { .. }) => {
            return Err(format!(
                "{} has no ORC type (Arrow's ORC writer refuses TIME too)",
                leaf.logical
            ));
        }
        (_, L::Unknown) => {
            return Err("UNKNOWN (always null) has no ORC type".into());
        }
        (_, &L::Decimal { scale, precision }) => {
            let (Ok(precision), Ok(scale)) = (u32::try_from(precision), u32::try_from(scale))
            else {
                return Err(format!("{} has no ORC type", leaf.logical));
            };
            if precision > 38 {
                return Err(format!(
                    "{} has more digits than an ORC decimal's 38",
                    leaf.logical
                ));
            }
            return TypeDescription::decimal(precision, scale).map_err(|e| e.to_string());
        }
        (P::Boolean, _) => Kind::Boolean,
        (_, &L::Integer { bits, signed }) => match (bits, signed) {
            (8, true) => Kind::Byte,
            (16, true) | (8, false) => Kind::Short,
            (32, true) | (16, false) => Kind::Int,
            (32, false) | (64, true) => Kind::Long,
            // UINT_64: Arrow's reading of it into ORC has no wider integer.
            _ => return TypeDescription::decimal(20, 0).map_err(|e| e.to_string()),
        },
        (_, L::Date) => Kind::Date,
        (_, &L::Timestamp { utc: true, .. }) if instants => Kind::TimestampInstant,
        (_, L::Timestamp { .. }) | (P::Int96, _) => Kind::Timestamp,
        (P::Int32, _) => Kind::Int,
        (P::Int64, _) => Kind::Long,
        (P::Float, _) | (_, L::Float16) => Kind::Float,
        (P::Double, _) => Kind::Double,
        (_, L::String | L::Enum | L::Json) => Kind::String,
        _ => Kind::Binary,
    };
    TypeDescription::primitive(kind).map_err(|e| e.to_string())
}

/// The bytes of the FIXED_LEN_BYTE_ARRAY that Arrow writes a DECIMAL of `precision`
/// digits in: the fewest whose two's complement holds `10^precision - 1`.
fn decimal_bytes(precision: u32) -> usize {
    let largest = 10_u128.saturating_pow(precision.min(38)) - 1;
    (1..=16)
        .find(|&n| largest < 1_u128 << (8 * n - 1))
        .unwrap_or(16)
}

/// The Parquet schema of rows of an ORC type (a struct). A uniontype becomes a group
/// when `union_as_struct` (see the module docs).
///
/// # Errors
///
/// A uniontype without `union_as_struct`, or a schema Parquet refuses, with the field's
/// path.
pub(crate) fn parquet_schema_of(
    t: &TypeDescription,
    union_as_struct: bool,
) -> Result<Schema, String> {
    let mut path = Vec::new();
    let fields = t
        .fields()
        .map(|(name, child)| {
            path.push(name);
            let field = parquet_of(
                name,
                Repetition::Optional,
                child,
                union_as_struct,
                &mut path,
            )?;
            path.pop();
            Ok(field)
        })
        .collect::<Result<Vec<_>, String>>()?;
    Schema::try_new("schema", fields).map_err(|e| format!("the Parquet schema: {e}"))
}

fn parquet_of<'a>(
    name: &str,
    repetition: Repetition,
    t: &'a TypeDescription,
    union_as_struct: bool,
    path: &mut Vec<&'a str>,
) -> Result<SchemaField, String> {
    use PhysicalType as P;
    let optional = |physical| SchemaField::primitive(name, repetition, physical);
    let integer = |bits| LogicalType::Integer { bits, signed: true };
    Ok(match t.kind() {
        Kind::Boolean => optional(P::Boolean),
        Kind::Byte => optional(P::Int32).with_logical_type(integer(8)),
        Kind::Short => optional(P::Int32).with_logical_type(integer(16)),
        Kind::Int => optional(P::Int32),
        Kind::Long => optional(P::Int64),
        Kind::Float => optional(P::Float),
        Kind::Double => optional(P::Double),
        Kind::String | Kind::Varchar | Kind::Char => {
            optional(P::ByteArray).with_logical_type(LogicalType::String)
        }
        Kind::Binary => optional(P::ByteArray),
        Kind::Date => optional(P::Int32).with_logical_type(LogicalType::Date),
        Kind::Timestamp | Kind::TimestampInstant => {
            optional(P::Int64).with_logical_type(LogicalType::Timestamp {
                unit: parquet_file::TimeUnit::Nanos,
                utc: t.kind() == Kind::TimestampInstant,
            })
        }
        Kind::Decimal => {
            let (precision, scale) = orc_decimal(t);
            SchemaField::fixed_len_byte_array(name, repetition, decimal_bytes(precision))
                .with_logical_type(LogicalType::Decimal {
                    scale: scale.cast_signed(),
                    precision: precision.cast_signed(),
                })
        }
        Kind::List => {
            let element = t
                .children()
                .first()
                .ok_or_else(|| at(path, "an array without an element type"))?;
            path.push("element");
            let element = parquet_of(
                "element",
                Repetition::Optional,
                element,
                union_as_struct,
                path,
            )?;
            path.pop();
            SchemaField::list(name, repetition, element)
        }
        Kind::Map => {
            let [key, value] = t.children() else {
                return Err(at(path, "a map without key and value types"));
            };
            path.push("key");
            // Parquet's map keys are required.
            let key = parquet_of("key", Repetition::Required, key, union_as_struct, path)?;
            path.pop();
            path.push("value");
            let value = parquet_of("value", Repetition::Optional, value, union_as_struct, path)?;
            path.pop();
            SchemaField::map(name, repetition, key, Some(value))
        }
        Kind::Struct => {
            let mut fields = Vec::with_capacity(t.children().len());
            for (child_name, child) in t.fields() {
                path.push(child_name);
                fields.push(parquet_of(
                    child_name,
                    Repetition::Optional,
                    child,
                    union_as_struct,
                    path,
                )?);
                path.pop();
            }
            SchemaField::group(name, repetition, fields)
        }
        Kind::Union => {
            if !union_as_struct {
                return Err(at(
                    path,
                    format!(
                        "{t} has no Parquet type; give --union-as-struct to write it as a group of `tag` and `_union_0`, `_union_1`, …"
                    ),
                ));
            }
            let mut fields =
                vec![SchemaField::optional("tag", P::Int32).with_logical_type(integer(8))];
            for (i, alternative) in t.children().iter().enumerate() {
                let alt_name = t.child_name(i);
                fields.push(parquet_of(
                    &alt_name,
                    Repetition::Optional,
                    alternative,
                    union_as_struct,
                    path,
                )?);
            }
            SchemaField::group(name, repetition, fields)
        }
    })
}

/// A row of Parquet values (of the schema that [`orc_type_of`] mapped to `t`) as the ORC
/// writer takes it.
///
/// # Errors
///
/// A value ORC's type cannot hold (an unsigned integer too large for it), with its path.
pub(crate) fn row_to_orc(row: Row, t: &TypeDescription) -> Result<Row, String> {
    let mut out = Vec::with_capacity(row.fields().len());
    for (i, (name, field)) in row.into_fields().into_iter().enumerate() {
        let field = match t.field_at(i, &name) {
            Some(child) => to_orc(field, child).map_err(|m| format!("field {name}{m}"))?,
            None => field,
        };
        out.push((name, field));
    }
    Ok(Row::new(out))
}

/// The error's text goes after the field's path: `.a.b: message`.
fn to_orc(field: Field, t: &TypeDescription) -> Result<Field, String> {
    Ok(match (field, t.kind()) {
        (Field::UInt(v), Kind::Decimal) => Field::Decimal {
            unscaled: i128::from(v),
            scale: 0,
        },
        (Field::UInt(v), _) => {
            Field::Int(i64::try_from(v).map_err(|_| format!(": {v} does not fit {t}"))?)
        }
        (Field::Float16(bits), _) => Field::Float(half::f16::from_bits(bits).to_f32()),
        (Field::Uuid(bytes), _) => Field::Bytes(bytes.to_vec()),
        (
            f @ (Field::List(_) | Field::Map(_) | Field::Group(_)),
            Kind::List | Kind::Map | Kind::Struct,
        ) => children(f, t, to_orc)?,
        (other, _) => other,
    })
}

/// A row of ORC values (of type `t`) as the Parquet writer takes it for the schema
/// [`parquet_schema_of`] maps `t` to.
///
/// # Errors
///
/// A decimal of an ORC v0 column with more than 6 digits after the point (where its
/// Parquet column has 6), with its path.
pub(crate) fn row_to_parquet(row: Row, t: &TypeDescription) -> Result<Row, String> {
    let mut out = Vec::with_capacity(row.fields().len());
    for (i, (name, field)) in row.into_fields().into_iter().enumerate() {
        let field = match t.field_at(i, &name) {
            Some(child) => to_parquet(field, child).map_err(|m| format!("field {name}{m}"))?,
            None => field,
        };
        out.push((name, field));
    }
    Ok(Row::new(out))
}

/// A value of ORC type `t` as the Parquet writer takes it for the column
/// [`parquet_schema_of`] maps `t` to; errors go after the field's path, as
/// [`row_to_parquet`]'s.
pub(crate) fn to_parquet(field: Field, t: &TypeDescription) -> Result<Field, String> {
    Ok(match (field, t.kind()) {
        (Field::Decimal { unscaled, scale }, Kind::Decimal) => {
            let (_, to) = orc_decimal(t);
            let value = rescale(unscaled, scale, to).ok_or_else(|| {
                let mut text = String::new();
                crate::format::json(&Field::Decimal { unscaled, scale }, &mut text);
                format!(": {text} has more than {to} digits after the point")
            })?;
            Field::Decimal {
                unscaled: value,
                scale: to,
            }
        }
        (
            f @ (Field::List(_) | Field::Map(_) | Field::Group(_)),
            Kind::List | Kind::Map | Kind::Struct,
        ) => children(f, t, to_parquet)?,
        // `--union-as-struct`: the tag, and the value in its alternative's field.
        (Field::Group(parts), Kind::Union) => {
            let mut tag = None;
            let mut value = Field::Null;
            for (name, f) in parts {
                match (&*name, f) {
                    ("tag", Field::Int(n)) => tag = Some(n),
                    ("value", f) => value = f,
                    _ => {}
                }
            }
            let mut fields = vec![(Arc::from("tag"), tag.map_or(Field::Null, Field::Int))];
            for (i, alternative) in t.children().iter().enumerate() {
                let chosen = tag.and_then(|n| usize::try_from(n).ok()) == Some(i);
                let name = t.child_name(i);
                let f = if chosen {
                    to_parquet(std::mem::replace(&mut value, Field::Null), alternative)
                        .map_err(|m| format!(".{name}{m}"))?
                } else {
                    Field::Null
                };
                fields.push((Arc::from(name.as_str()), f));
            }
            Field::Group(fields)
        }
        (other, _) => other,
    })
}

/// `unscaled` of scale `from` at scale `to`, when exact and within 128 bits.
fn rescale(unscaled: i128, from: u32, to: u32) -> Option<i128> {
    if to >= from {
        unscaled.checked_mul(10_i128.checked_pow(to - from)?)
    } else {
        let divisor = 10_i128.checked_pow(from - to)?;
        (unscaled % divisor == 0).then(|| unscaled / divisor)
    }
}

/// The schema of a `--schema` file: message-type text (`message m { … }`, what `pqkit
/// schema` prints of a Parquet file), or an ORC type string (`struct<a:int,…>`, the
/// first line of what it prints of an ORC file).
pub(crate) enum GivenSchema {
    /// A Parquet schema.
    Parquet(Schema),
    /// An ORC type.
    Orc(TypeDescription),
}

/// Parses a `--schema` file's text.
///
/// # Errors
///
/// Text that is neither, with why.
pub(crate) fn parse_schema(text: &str) -> Result<GivenSchema, String> {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with("message") {
        return Schema::parse(text)
            .map(GivenSchema::Parquet)
            .map_err(|e| e.to_string());
    }
    let line = text.lines().next().unwrap_or_default();
    let t = TypeDescription::parse(line.trim()).map_err(|e| e.to_string())?;
    if t.kind() != Kind::Struct {
        return Err(format!(
            "{t} is not a struct<…> (nor a Parquet `message`), which a file's rows are"
        ));
    }
    Ok(GivenSchema::Orc(t))
}

/// Errors of the writer, as failures: a row that does not fit names the input's place.
pub(crate) fn is_input_error(e: &orc_file::Error) -> bool {
    e.kind().is_input()
}

/// A list's, map's or struct's values converted by `convert` under their types in `t`;
/// a field of another shape than `t` as it is.
fn children(
    field: Field,
    t: &TypeDescription,
    convert: fn(Field, &TypeDescription) -> Result<Field, String>,
) -> Result<Field, String> {
    Ok(match (field, t.kind()) {
        (Field::List(items), Kind::List) => {
            let Some(element) = t.children().first() else {
                return Ok(Field::List(items));
            };
            Field::List(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, f)| convert(f, element).map_err(|m| format!("[{i}]{m}")))
                    .collect::<Result<_, _>>()?,
            )
        }
        (Field::Map(pairs), Kind::Map) => {
            let [kt, vt] = t.children() else {
                return Ok(Field::Map(pairs));
            };
            Field::Map(
                pairs
                    .into_iter()
                    .enumerate()
                    .map(|(i, (k, v))| {
                        Ok((
                            convert(k, kt).map_err(|m| format!("[{i}].key{m}"))?,
                            convert(v, vt).map_err(|m| format!("[{i}].value{m}"))?,
                        ))
                    })
                    .collect::<Result<_, String>>()?,
            )
        }
        (Field::Group(fields), Kind::Struct) => Field::Group(
            fields
                .into_iter()
                .enumerate()
                .map(|(i, (name, f))| {
                    let f = match t.field_at(i, &name) {
                        Some(c) => convert(f, c).map_err(|m| format!(".{name}{m}"))?,
                        None => f,
                    };
                    Ok((name, f))
                })
                .collect::<Result<_, String>>()?,
        ),
        (other, _) => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orc(parquet: &str) -> Result<String, String> {
        let schema = Schema::parse(parquet).unwrap();
        orc_type_of(&Rows::new(&schema), OrcVersion::V0_12).map(|t| t.to_string())
    }

    #[test]
    fn parquet_types_map_to_orc_as_arrow_maps_them() {
        assert_eq!(
            orc("message m {
              required boolean b; optional int32 i8 (INTEGER(8,true));
              optional int32 i16 (INTEGER(16,true)); optional int32 i32; optional int64 i64;
              optional int32 u8 (INTEGER(8,false)); optional int32 u16 (INTEGER(16,false));
              optional int32 u32 (INTEGER(32,false)); optional int64 u64 (INTEGER(64,false));
              optional float f; optional double d; optional fixed_len_byte_array(2) h (FLOAT16);
              optional byte_array s (STRING); optional byte_array e (ENUM); optional byte_array j (JSON);
              optional byte_array raw; optional byte_array bson (BSON);
              optional fixed_len_byte_array(16) u (UUID);
              optional fixed_len_byte_array(12) iv (INTERVAL);
              optional int32 day (DATE); optional int64 ts (TIMESTAMP(MILLIS,true));
              optional int64 local (TIMESTAMP(MICROS,false)); optional int96 legacy;
              optional int32 dec (DECIMAL(9,2)); optional fixed_len_byte_array(16) d38 (DECIMAL(38,10));
              optional group l (LIST) { repeated group list { optional int32 element; } }
              optional group m (MAP) { repeated group key_value { required byte_array key (STRING); optional double value; } }
              optional group keys (MAP) { repeated group key_value { required int32 key; } }
              repeated int64 legacy_list;
              optional group g { optional int32 x; }
            }"),
            Ok("struct<b:boolean,i8:tinyint,i16:smallint,i32:int,i64:bigint,u8:smallint,u16:int,\
                u32:bigint,u64:decimal(20,0),f:float,d:double,h:float,s:string,e:string,j:string,\
                raw:binary,bson:binary,u:binary,iv:binary,day:date,ts:timestamp with local time zone,\
                local:timestamp,legacy:timestamp,dec:decimal(9,2),d38:decimal(38,10),l:array<int>,\
                m:map<string,double>,keys:array<int>,legacy_list:array<bigint>,g:struct<x:int>>"
                .into())
        );
        assert_eq!(
            orc("message m { optional group g { optional int32 t (TIME(MILLIS,true)); } }"),
            Err("field g.t: TIME(MILLIS,true) has no ORC type (Arrow's ORC writer refuses TIME too)".into())
        );
        let utc =
            Schema::parse("message m { optional int64 t (TIMESTAMP(MICROS,true)); }").unwrap();
        assert_eq!(
            orc_type_of(&Rows::new(&utc), OrcVersion::V0_11)
                .unwrap()
                .to_string(),
            "struct<t:timestamp>"
        );
        assert!(
            orc("message m { optional byte_array w (DECIMAL(50,1)); }")
                .unwrap_err()
                .starts_with("field w: DECIMAL(50,1) has more digits")
        );
    }

    #[test]
    fn orc_types_map_to_parquet_as_arrow_maps_them() {
        let parsed = TypeDescription::parse(
            "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,str:string,\
             v:varchar(4),c:char(2),bin:binary,day:date,ts:timestamp,\
             inst:timestamp with local time zone,dec:decimal(10,2),old:decimal,\
             a:array<int>,m:map<string,array<date>>,st:struct<x:int>,u:uniontype<int,string>>",
        )
        .unwrap();
        // An ORC v0 decimal (a type string's `decimal` is Hive's decimal(38,10)).
        let t = TypeDescription::struct_of(parsed.fields().map(|(name, t)| {
            let t = if name == "old" {
                TypeDescription::unbounded_decimal()
            } else {
                t.clone()
            };
            (name.to_owned(), t)
        }));
        assert_eq!(
            parquet_schema_of(&t, false).unwrap_err(),
            "field u: uniontype<int,string> has no Parquet type; give --union-as-struct to write it as a group of `tag` and `_union_0`, `_union_1`, …"
        );
        assert_eq!(
            parquet_schema_of(&t, true).unwrap().to_string(),
            "message schema {
  optional boolean b;
  optional int32 t (INTEGER(8,true));
  optional int32 s (INTEGER(16,true));
  optional int32 i;
  optional int64 l;
  optional float f;
  optional double d;
  optional byte_array str (STRING);
  optional byte_array v (STRING);
  optional byte_array c (STRING);
  optional byte_array bin;
  optional int32 day (DATE);
  optional int64 ts (TIMESTAMP(NANOS,false));
  optional int64 inst (TIMESTAMP(NANOS,true));
  optional fixed_len_byte_array(5) dec (DECIMAL(10,2));
  optional fixed_len_byte_array(16) old (DECIMAL(38,6));
  optional group a (LIST) {
    repeated group list {
      optional int32 element;
    }
  }
  optional group m (MAP) {
    repeated group key_value {
      required byte_array key (STRING);
      optional group value (LIST) {
        repeated group list {
          optional int32 element (DATE);
        }
      }
    }
  }
  optional group st {
    optional int32 x;
  }
  optional group u {
    optional int32 tag (INTEGER(8,true));
    optional int32 _union_0;
    optional byte_array _union_1 (STRING);
  }
}
"
        );
    }

    #[test]
    fn decimal_widths_are_arrows() {
        let widths: Vec<usize> = [1, 2, 3, 4, 9, 10, 18, 19, 20, 38]
            .into_iter()
            .map(decimal_bytes)
            .collect();
        assert_eq!(widths, [1, 1, 2, 2, 4, 5, 8, 9, 9, 16]);
    }

    #[test]
    fn values_cross_over() {
        let t = TypeDescription::parse(
            "struct<u:decimal(20,0),w:bigint,h:float,id:binary,l:array<smallint>,un:uniontype<int,string>>",
        )
        .unwrap();
        let t = TypeDescription::struct_of(
            t.fields()
                .map(|(n, t)| (n.to_owned(), t.clone()))
                .chain([("old".to_owned(), TypeDescription::unbounded_decimal())]),
        );
        let row = Row::new(vec![
            (Arc::from("u"), Field::UInt(u64::MAX)),
            (Arc::from("w"), Field::UInt(7)),
            (
                Arc::from("h"),
                Field::Float16(half::f16::from_f32(1.5).to_bits()),
            ),
            (Arc::from("id"), Field::Uuid([1; 16])),
            (
                Arc::from("l"),
                Field::List(vec![Field::UInt(3), Field::Null]),
            ),
        ]);
        assert_eq!(
            row_to_orc(row, &t).unwrap().into_fields(),
            vec![
                (
                    Arc::from("u"),
                    Field::Decimal {
                        unscaled: i128::from(u64::MAX),
                        scale: 0
                    }
                ),
                (Arc::from("w"), Field::Int(7)),
                (Arc::from("h"), Field::Float(1.5)),
                (Arc::from("id"), Field::Bytes(vec![1; 16])),
                (
                    Arc::from("l"),
                    Field::List(vec![Field::Int(3), Field::Null])
                ),
            ]
        );
        let union = |tag, value| {
            Field::Group(vec![
                (Arc::from("tag"), Field::Int(tag)),
                (Arc::from("value"), value),
            ])
        };
        let row = Row::new(vec![
            (
                Arc::from("old"),
                Field::Decimal {
                    unscaled: -125,
                    scale: 2,
                },
            ),
            (Arc::from("un"), union(1, Field::Str("x".into()))),
        ]);
        assert_eq!(
            row_to_parquet(row, &t).unwrap().into_fields(),
            vec![
                (
                    Arc::from("old"),
                    Field::Decimal {
                        unscaled: -1_250_000,
                        scale: 6
                    }
                ),
                (
                    Arc::from("un"),
                    Field::Group(vec![
                        (Arc::from("tag"), Field::Int(1)),
                        (Arc::from("_union_0"), Field::Null),
                        (Arc::from("_union_1"), Field::Str("x".into())),
                    ])
                ),
            ]
        );
        let row = Row::new(vec![(
            Arc::from("old"),
            Field::Decimal {
                unscaled: 1,
                scale: 7,
            },
        )]);
        assert_eq!(
            row_to_parquet(row, &t).unwrap_err(),
            "field old: \"0.0000001\" has more than 6 digits after the point"
        );
    }

    #[test]
    fn schemas_are_message_text_or_orc_types() {
        assert!(matches!(
            parse_schema("message m { optional int32 a; }"),
            Ok(GivenSchema::Parquet(_))
        ));
        let Ok(GivenSchema::Orc(t)) =
            parse_schema("struct<a:int,b:string>\n0 struct\n  1 a: int\n")
        else {
            panic!()
        };
        assert_eq!(t.to_string(), "struct<a:int,b:string>");
        assert!(parse_schema("int").is_err());
        assert!(parse_schema("struct<a:>").is_err());
    }
}
