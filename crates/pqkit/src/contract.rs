//! The rows contract read backwards: JSON values (a JSON Lines row, or a CSV cell) into
//! the [`Field`]s that `parquet-file` writes, by the schema's types.
//!
//! What `cat --format jsonl` prints reads back as the value it came from: numbers for
//! integers and floats (`"NaN"`, `"Infinity"`, `"-Infinity"` as strings), DECIMAL as a
//! string in plain notation, DATE, TIME and TIMESTAMP as ISO 8601 text, UUID in its
//! canonical form, other byte arrays as padded base64, lists as arrays, maps as arrays
//! of `{"key": …, "value": …}`, groups as objects. A little more is taken than printed:
//! a DECIMAL given as a JSON number or with fewer fraction digits, a DATE, TIME or
//! TIMESTAMP given as a number of its units, a TIMESTAMP with or without its `Z`.
//!
//! ORC types read the same way, by the Parquet type their values share ([`Rows::orc`]):
//! tinyint to bigint as integers of their width, char, varchar and string as strings,
//! binary as base64, decimal as a DECIMAL of the type's scale (an ORC v0 decimal without
//! precision and scale as `decimal(38,6)`, Arrow's reading of it), timestamps in
//! nanoseconds, and a uniontype as `{"tag": n, "value": …}`.

use std::collections::HashMap;
use std::sync::Arc;

use base64::Engine as _;
use orc_file::{Kind, TypeDescription};
use parquet_file::{Field, LogicalType, NodeKind, PhysicalType, Repetition, Row, Schema, TimeUnit};

use crate::json::{self, Json};

/// How a field's value is built: the shape `parquet-file` reads it in (and shreds it
/// from), by the LIST and MAP rules of its reader.
#[derive(Debug, Clone)]
pub(crate) enum Shape {
    /// A leaf's value.
    Leaf(Leaf),
    /// A group's fields, by name.
    Group(Vec<(Arc<str>, Shape)>),
    /// A LIST, or a repeated field: its elements.
    List(Box<Shape>),
    /// A MAP: its keys and values.
    Map(Box<Shape>, Box<Shape>),
    /// An ORC uniontype: its alternatives, a value being `{"tag": n, "value": …}`.
    Union(Vec<Shape>),
}

/// A leaf's types.
#[derive(Debug, Clone)]
pub(crate) struct Leaf {
    /// The physical type.
    pub(crate) physical: PhysicalType,
    /// The logical type.
    pub(crate) logical: LogicalType,
    /// The ORC type the leaf stands for, which messages name instead.
    orc: Option<String>,
}

impl Leaf {
    /// The type, as `pqkit meta` shows it: `INT32 (DATE)` (or the ORC type: `tinyint`).
    fn describe(&self) -> String {
        if let Some(orc) = &self.orc {
            return orc.clone();
        }
        match &self.logical {
            LogicalType::None => self.physical.to_string(),
            logical => format!("{} ({logical})", self.physical),
        }
    }

    /// Whether a CSV cell of number text is a number here (not the text of a string).
    fn takes_numbers(&self) -> bool {
        matches!(
            self.physical,
            PhysicalType::Int32 | PhysicalType::Int64 | PhysicalType::Float | PhysicalType::Double
        ) || matches!(
            self.logical,
            LogicalType::Decimal { .. } | LogicalType::Float16
        )
    }
}

/// An error inside a value: the path to where, built as the error goes up.
struct Bad {
    /// Names and `[index]`es, innermost first.
    path: Vec<String>,
    message: String,
}

impl Bad {
    fn new(message: impl Into<String>) -> Self {
        Self {
            path: Vec::new(),
            message: message.into(),
        }
    }

    fn at(mut self, step: String) -> Self {
        self.path.push(step);
        self
    }

    fn text(mut self) -> String {
        self.path.reverse();
        let mut path = String::new();
        for step in self.path {
            if !path.is_empty() && !step.starts_with('[') {
                path.push('.');
            }
            path.push_str(&step);
        }
        format!("field {path}: {}", self.message)
    }
}

/// Builds rows of a schema from JSON objects or CSV cells.
#[derive(Debug, Clone)]
pub(crate) struct Rows {
    fields: Vec<(Arc<str>, Shape)>,
}

impl Rows {
    /// The rows of `schema`.
    pub(crate) fn new(schema: &Schema) -> Self {
        Self {
            fields: group(schema, schema.children(0)),
        }
    }

    /// The rows of an ORC file of type `schema` (a struct): [`Field`]s as the ORC reader
    /// reads them and its writer writes them.
    pub(crate) fn orc(schema: &TypeDescription) -> Self {
        Self {
            fields: schema
                .fields()
                .map(|(name, t)| (Arc::from(name), orc_shape(t)))
                .collect(),
        }
    }

    /// The top-level fields and their shapes.
    pub(crate) fn shapes(&self) -> &[(Arc<str>, Shape)] {
        &self.fields
    }

    /// The row of a JSON object: its keys are top-level fields, those it lacks null.
    ///
    /// # Errors
    ///
    /// A key that is not a field (or is given twice), or a value that its field does not
    /// take, with the field's path.
    pub(crate) fn row_of_json(&self, object: &[(String, Json)]) -> Result<Row, String> {
        fields(&self.fields, object)
            .map(Row::new)
            .map_err(Bad::text)
    }

    /// Which top-level field each CSV column is.
    ///
    /// # Errors
    ///
    /// A header name that is no top-level field, or one given twice.
    pub(crate) fn csv_columns(&self, header: &[String]) -> Result<Vec<usize>, String> {
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(self.fields.len());
        for (i, (name, _)) in self.fields.iter().enumerate() {
            index.entry(&**name).or_insert(i);
        }
        let mut seen = vec![false; self.fields.len()];
        let mut columns: Vec<usize> = Vec::with_capacity(header.len());
        for name in header {
            let Some(&i) = index.get(name.as_str()) else {
                return Err(format!(
                    "the header names {name:?}, which the schema does not have"
                ));
            };
            if seen.get_mut(i).is_some_and(|s| std::mem::replace(s, true)) {
                return Err(format!("the header names {name:?} twice"));
            }
            columns.push(i);
        }
        Ok(columns)
    }

    /// The row of CSV `cells`, the `columns` (from [`csv_columns`](Self::csv_columns))
    /// of the top-level fields. An empty cell is null; a cell of a nested field is its
    /// JSON text, as `cat --format csv` prints it.
    ///
    /// # Errors
    ///
    /// A cell that its field does not take, or a record of another number of cells
    /// than the header has.
    pub(crate) fn row_of_cells(&self, columns: &[usize], cells: &[String]) -> Result<Row, String> {
        if cells.len() != columns.len() {
            let plural = |n: usize| if n == 1 { "" } else { "s" };
            return Err(format!(
                "{} field{} where the header has {}",
                cells.len(),
                plural(cells.len()),
                columns.len()
            ));
        }
        let mut row: Vec<(Arc<str>, Field)> = self
            .fields
            .iter()
            .map(|(name, _)| (Arc::clone(name), Field::Null))
            .collect();
        for (&column, cell) in columns.iter().zip(cells) {
            let (Some((name, shape)), Some((_, slot))) =
                (self.fields.get(column), row.get_mut(column))
            else {
                continue;
            };
            *slot = cell_json(cell, shape)
                .map_err(Bad::new)
                .and_then(|json| field(&json, shape))
                .map_err(|bad| bad.at(name.to_string()).text())?;
        }
        Ok(Row::new(row))
    }
}

/// The shapes of the fields `children`.
fn group(schema: &Schema, children: &[usize]) -> Vec<(Arc<str>, Shape)> {
    children
        .iter()
        .filter_map(|&c| {
            let node = schema.node(c)?;
            Some((Arc::from(node.name.as_str()), field_shape(schema, c)))
        })
        .collect()
}

/// A field as its parent sees it: a repeated one is a list.
fn field_shape(schema: &Schema, index: usize) -> Shape {
    match schema.node(index).map(|n| n.repetition) {
        Some(Repetition::Repeated) => Shape::List(Box::new(base_shape(schema, index))),
        _ => base_shape(schema, index),
    }
}

/// A field's value, by the LIST and MAP backward-compatibility rules of LogicalTypes.md
/// as `parquet-file` reads them.
fn base_shape(schema: &Schema, index: usize) -> Shape {
    let Some(node) = schema.node(index) else {
        return Shape::Group(Vec::new());
    };
    let children = match &node.kind {
        NodeKind::Primitive { column } => {
            return match schema.column(*column) {
                Ok(c) => Shape::Leaf(Leaf {
                    physical: c.physical_type,
                    logical: c.logical_type.clone(),
                    orc: None,
                }),
                Err(_) => Shape::Group(Vec::new()),
            };
        }
        NodeKind::Group { children } => children,
    };
    let is_map = node.logical_type == LogicalType::Map;
    if let [repeated] = children.as_slice()
        && (node.logical_type == LogicalType::List || is_map)
        && let Some(r) = schema.node(*repeated)
        && r.repetition == Repetition::Repeated
    {
        let grandchildren = schema.children(*repeated);
        if is_map && matches!(r.kind, NodeKind::Group { .. }) {
            match grandchildren {
                [key] => return Shape::List(Box::new(field_shape(schema, *key))),
                [key, value] => {
                    return Shape::Map(
                        Box::new(field_shape(schema, *key)),
                        Box::new(field_shape(schema, *value)),
                    );
                }
                _ => {}
            }
        }
        let element = match (&r.kind, grandchildren) {
            (NodeKind::Group { .. }, [element])
                if r.name != "array" && r.name != format!("{}_tuple", node.name) =>
            {
                field_shape(schema, *element)
            }
            _ => base_shape(schema, *repeated),
        };
        return Shape::List(Box::new(element));
    }
    Shape::Group(group(schema, children))
}

/// The shape of the values of an ORC type: the Parquet leaf its values share.
fn orc_shape(t: &TypeDescription) -> Shape {
    use LogicalType as L;
    use PhysicalType as P;
    let integer = |bits| L::Integer { bits, signed: true };
    let (physical, logical) = match t.kind() {
        Kind::Boolean => (P::Boolean, L::None),
        Kind::Byte => (P::Int32, integer(8)),
        Kind::Short => (P::Int32, integer(16)),
        Kind::Int => (P::Int32, integer(32)),
        Kind::Long => (P::Int64, integer(64)),
        Kind::Float => (P::Float, L::None),
        Kind::Double => (P::Double, L::None),
        Kind::String | Kind::Varchar | Kind::Char => (P::ByteArray, L::String),
        Kind::Binary => (P::ByteArray, L::None),
        Kind::Date => (P::Int32, L::Date),
        // Seconds of 64 bits: the nanoseconds may pass 64 bits, as INT96's do.
        Kind::Timestamp | Kind::TimestampInstant => (
            P::Int96,
            L::Timestamp {
                unit: TimeUnit::Nanos,
                utc: t.kind() == Kind::TimestampInstant,
            },
        ),
        Kind::Decimal => {
            let (precision, scale) = orc_decimal(t);
            (
                P::FixedLenByteArray,
                L::Decimal {
                    scale: scale.cast_signed(),
                    precision: precision.cast_signed(),
                },
            )
        }
        Kind::List => {
            return Shape::List(Box::new(
                t.children()
                    .first()
                    .map_or(Shape::Group(Vec::new()), orc_shape),
            ));
        }
        Kind::Map => {
            let child = |i: usize| {
                Box::new(
                    t.children()
                        .get(i)
                        .map_or(Shape::Group(Vec::new()), orc_shape),
                )
            };
            return Shape::Map(child(0), child(1));
        }
        Kind::Struct => {
            return Shape::Group(
                t.fields()
                    .map(|(name, c)| (Arc::from(name), orc_shape(c)))
                    .collect(),
            );
        }
        Kind::Union => return Shape::Union(t.children().iter().map(orc_shape).collect()),
    };
    Shape::Leaf(Leaf {
        physical,
        logical,
        orc: Some(t.to_string()),
    })
}

/// The precision and scale of an ORC decimal: its own, or for an ORC v0 decimal (which
/// has none) `(38, 6)`, as Arrow reads it.
pub(crate) fn orc_decimal(t: &TypeDescription) -> (u32, u32) {
    match (t.precision(), t.scale()) {
        (Some(p), Some(s)) if p > 0 => (p, s),
        _ => (38, 6),
    }
}

/// The fields of an object, in the order of `shapes`, null where it has none.
fn fields(
    shapes: &[(Arc<str>, Shape)],
    object: &[(String, Json)],
) -> Result<Vec<(Arc<str>, Field)>, Bad> {
    let mut out: Vec<(Arc<str>, Option<Field>)> = shapes
        .iter()
        .map(|(name, _)| (Arc::clone(name), None))
        .collect();
    for (key, value) in object {
        let Some(i) = shapes.iter().position(|(name, _)| **name == *key) else {
            return Err(Bad::new("not in the schema").at(key.clone()));
        };
        let (Some((_, shape)), Some((_, slot))) = (shapes.get(i), out.get_mut(i)) else {
            continue;
        };
        if slot.is_some() {
            return Err(Bad::new("given twice").at(key.clone()));
        }
        *slot = Some(field(value, shape).map_err(|bad| bad.at(key.clone()))?);
    }
    Ok(out
        .into_iter()
        .map(|(name, f)| (name, f.unwrap_or(Field::Null)))
        .collect())
}

/// The field of `json` in the shape `shape`.
fn field(json: &Json, shape: &Shape) -> Result<Field, Bad> {
    if *json == Json::Null {
        return Ok(Field::Null);
    }
    match shape {
        Shape::Leaf(leaf) => scalar(json, leaf).map_err(Bad::new),
        Shape::Group(shapes) => match json {
            Json::Object(object) => fields(shapes, object).map(Field::Group),
            other => Err(Bad::new(format!(
                "{} where a group expects an object",
                other.kind()
            ))),
        },
        Shape::List(element) => match json {
            Json::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| field(item, element).map_err(|bad| bad.at(format!("[{i}]"))))
                .collect::<Result<Vec<_>, _>>()
                .map(Field::List),
            other => Err(Bad::new(format!(
                "{} where a list expects an array",
                other.kind()
            ))),
        },
        Shape::Union(alternatives) => union(json, alternatives),
        Shape::Map(key, value) => {
            let Json::Array(entries) = json else {
                return Err(Bad::new(format!(
                    "{} where a map expects an array of {{\"key\": …, \"value\": …}}",
                    json.kind()
                )));
            };
            entries
                .iter()
                .enumerate()
                .map(|(i, entry)| map_entry(entry, key, value).map_err(|b| b.at(format!("[{i}]"))))
                .collect::<Result<Vec<_>, _>>()
                .map(Field::Map)
        }
    }
}

/// A uniontype's value: `{"tag": n, "value": …}`, the value of alternative `n`.
fn union(json: &Json, alternatives: &[Shape]) -> Result<Field, Bad> {
    let Json::Object(pairs) = json else {
        return Err(Bad::new(format!(
            "{} where a uniontype expects an object {{\"tag\": n, \"value\": …}}",
            json.kind()
        )));
    };
    let (mut tag, mut value) = (None, None);
    for (name, json) in pairs {
        match name.as_str() {
            "tag" if tag.is_none() => tag = Some(json),
            "value" if value.is_none() => value = Some(json),
            "tag" | "value" => return Err(Bad::new(format!("{name:?} twice in a uniontype"))),
            other => {
                return Err(Bad::new(format!(
                    "{other:?} in a uniontype, which has \"tag\" and \"value\""
                )));
            }
        }
    }
    let last = alternatives.len().saturating_sub(1);
    let Some((n, shape)) = tag
        .and_then(|t| match t {
            Json::Number(t) => t.parse::<u8>().ok(),
            _ => None,
        })
        .and_then(|n| alternatives.get(usize::from(n)).map(|s| (n, s)))
    else {
        return Err(Bad::new(format!(
            "a uniontype's \"tag\" is a number from 0 to {last}"
        ))
        .at("tag".into()));
    };
    let value = match value {
        Some(json) => field(json, shape).map_err(|b| b.at("value".into()))?,
        None => Field::Null,
    };
    Ok(Field::Group(vec![
        (Arc::from("tag"), Field::Int(i64::from(n))),
        (Arc::from("value"), value),
    ]))
}

fn map_entry(entry: &Json, key: &Shape, value: &Shape) -> Result<(Field, Field), Bad> {
    let Json::Object(pairs) = entry else {
        return Err(Bad::new(format!(
            "{} where a map entry is an object {{\"key\": …, \"value\": …}}",
            entry.kind()
        )));
    };
    let (mut k, mut v) = (None, None);
    for (name, json) in pairs {
        let (slot, shape) = match name.as_str() {
            "key" => (&mut k, key),
            "value" => (&mut v, value),
            other => {
                return Err(Bad::new(format!(
                    "{other:?} in a map entry, which has \"key\" and \"value\""
                )));
            }
        };
        if slot.is_some() {
            return Err(Bad::new(format!("{name:?} twice in a map entry")));
        }
        *slot = Some(field(json, shape).map_err(|b| b.at(name.clone()))?);
    }
    Ok((k.unwrap_or(Field::Null), v.unwrap_or(Field::Null)))
}

/// A CSV cell as the JSON value it stands for in a field of `shape`.
fn cell_json(cell: &str, shape: &Shape) -> Result<Json, String> {
    if cell.is_empty() {
        return Ok(Json::Null);
    }
    Ok(match shape {
        Shape::Leaf(leaf) => {
            if leaf.takes_numbers() && json::number_kind(cell).is_some() {
                Json::Number(cell.to_owned())
            } else if leaf.physical == PhysicalType::Boolean && matches!(cell, "true" | "false") {
                Json::Bool(cell == "true")
            } else if leaf.takes_numbers()
                && let Some(special) = ["NaN", "Infinity", "-Infinity"]
                    .into_iter()
                    .find(|s| cell.strip_prefix('"').and_then(|c| c.strip_suffix('"')) == Some(*s))
            {
                // A float that is not a number, as `cat --format csv` prints it (its JSON).
                Json::Str(special.to_owned())
            } else {
                Json::Str(cell.to_owned())
            }
        }
        _ => json::parse(cell)?,
    })
}

/// The message for `json` in a leaf that expects something else.
fn wrong(json: &Json, leaf: &Leaf, expected: &str) -> String {
    let shown = match json {
        Json::Number(t) | Json::Str(t) => format!("{} {t:?}", json.kind()),
        Json::Bool(b) => format!("{b}"),
        other => other.kind().to_owned(),
    };
    format!("{shown} where {} expects {expected}", leaf.describe())
}

/// A leaf's value.
fn scalar(json: &Json, leaf: &Leaf) -> Result<Field, String> {
    use LogicalType as L;
    use PhysicalType as P;
    let wrong = |expected: &str| wrong(json, leaf, expected);
    let text = || match json {
        Json::Str(t) => Some(t.as_str()),
        _ => None,
    };
    let number = || match json {
        Json::Number(t) => Some(t.as_str()),
        _ => None,
    };
    Ok(match (leaf.physical, &leaf.logical) {
        (_, L::Unknown) => return Err(wrong("null (it is UNKNOWN)")),
        (P::Boolean, _) => match json {
            Json::Bool(b) => Field::Bool(*b),
            _ => return Err(wrong("true or false")),
        },
        (
            P::Int32 | P::Int64,
            L::Integer {
                bits,
                signed: false,
            },
        ) => {
            let max = u64::MAX >> (64 - u32::from(*bits).clamp(1, 64));
            Field::UInt(
                number()
                    .and_then(|t| t.parse().ok())
                    .filter(|v| *v <= max)
                    .ok_or_else(|| wrong(&format!("an integer from 0 to {max}")))?,
            )
        }
        (P::Int32 | P::Int64, L::Date | L::Time { .. } | L::Timestamp { .. }) => {
            temporal(json, leaf)?
        }
        (_, L::Decimal { scale, precision }) => {
            let t = text().or_else(number).ok_or_else(|| wrong("a decimal"))?;
            decimal(t, *scale, *precision).map_err(|why| wrong(&format!("a decimal ({why})")))?
        }
        (P::Int32 | P::Int64, logical) => {
            let bits = match (logical, leaf.physical) {
                (L::Integer { bits, .. }, _) => u32::from(*bits).clamp(1, 64),
                (_, P::Int32) => 32,
                _ => 64,
            };
            let (min, max) = (i64::MIN >> (64 - bits), i64::MAX >> (64 - bits));
            Field::Int(
                number()
                    .and_then(|t| t.parse().ok())
                    .filter(|v| (min..=max).contains(v))
                    .ok_or_else(|| wrong(&format!("an integer from {min} to {max}")))?,
            )
        }
        (P::Int96, logical) => Field::Timestamp {
            value: text()
                .and_then(|t| timestamp(t, TimeUnit::Nanos))
                .ok_or_else(|| wrong("a timestamp YYYY-MM-DDTHH:MM:SS.fffffffff"))?,
            unit: TimeUnit::Nanos,
            // An ORC timestamp with local time zone.
            utc: matches!(logical, L::Timestamp { utc: true, .. }),
        },
        (P::Float, _) => Field::Float(
            float(json, |t| t.parse::<f32>().ok()).ok_or_else(|| wrong("a FLOAT number"))?,
        ),
        (P::Double, _) => Field::Double(
            float(json, |t| t.parse::<f64>().ok()).ok_or_else(|| wrong("a DOUBLE number"))?,
        ),
        (P::ByteArray | P::FixedLenByteArray, L::String | L::Enum | L::Json) => {
            Field::Str(text().ok_or_else(|| wrong("a string"))?.to_owned())
        }
        (P::FixedLenByteArray, L::Uuid) => Field::Uuid(
            text()
                .and_then(uuid)
                .ok_or_else(|| wrong("a UUID 8-4-4-4-12"))?,
        ),
        (P::FixedLenByteArray, L::Float16) => {
            let value = float(json, |t| t.parse::<f64>().ok().map(half::f16::from_f64))
                .ok_or_else(|| wrong("a FLOAT16 number"))?;
            Field::Float16(value.to_bits())
        }
        (P::ByteArray | P::FixedLenByteArray, _) => Field::Bytes(
            text()
                .and_then(|t| base64::engine::general_purpose::STANDARD.decode(t).ok())
                .ok_or_else(|| wrong("padded base64"))?,
        ),
    })
}

/// A DATE, TIME or TIMESTAMP: its text, or a number of its units.
fn temporal(json: &Json, leaf: &Leaf) -> Result<Field, String> {
    let count = |json: &Json| match json {
        Json::Number(t) => t.parse::<i64>().ok(),
        _ => None,
    };
    let text = match json {
        Json::Str(t) => Some(t.as_str()),
        _ => None,
    };
    match leaf.logical {
        LogicalType::Time { unit, .. } => {
            let value = text
                .map_or_else(|| count(json), |t| time_of_day(t, unit, true))
                .filter(|v| (0..=86_400 * unit.per_second()).contains(v));
            Ok(Field::Time {
                value: value
                    .ok_or_else(|| wrong(json, leaf, &format!("a time {}", time_pattern(unit))))?,
                unit,
            })
        }
        LogicalType::Timestamp { unit, utc } => {
            let value = text
                .map_or_else(|| count(json).map(i128::from), |t| timestamp(t, unit))
                .filter(|v| i64::try_from(*v).is_ok());
            Ok(Field::Timestamp {
                value: value.ok_or_else(|| {
                    let pattern = time_pattern(unit);
                    wrong(json, leaf, &format!("a timestamp YYYY-MM-DDT{pattern}"))
                })?,
                unit,
                utc,
            })
        }
        _ => {
            let days = match text {
                Some(t) => date(t).and_then(|d| i32::try_from(d).ok()),
                None => count(json).and_then(|d| i32::try_from(d).ok()),
            };
            Ok(Field::Date(
                days.ok_or_else(|| wrong(json, leaf, "a date YYYY-MM-DD"))?,
            ))
        }
    }
}

/// A float: a number (finite where its text is), or `"NaN"`, `"Infinity"`,
/// `"-Infinity"`.
fn float<T: Float>(json: &Json, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
    match json {
        Json::Number(t) => parse(t).filter(|v| !v.infinite()),
        Json::Str(t) => match t.as_str() {
            "NaN" => Some(T::NAN),
            "Infinity" => Some(T::INFINITY),
            "-Infinity" => Some(T::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// What [`float`] needs of a float type.
trait Float: Copy {
    const NAN: Self;
    const INFINITY: Self;
    const NEG_INFINITY: Self;
    fn infinite(self) -> bool;
}

macro_rules! float_impl {
    ($($t:ty),*) => {$(
        impl Float for $t {
            const NAN: Self = <$t>::NAN;
            const INFINITY: Self = <$t>::INFINITY;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            fn infinite(self) -> bool {
                self.is_infinite()
            }
        }
    )*};
}

float_impl!(f32, f64, half::f16);

/// The text of a time of day in `unit`.
fn time_pattern(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Millis => "HH:MM:SS.fff",
        TimeUnit::Micros => "HH:MM:SS.ffffff",
        TimeUnit::Nanos => "HH:MM:SS.fffffffff",
    }
}

/// `n` ASCII digits as a number.
fn digits(text: &str) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Days since 1970-01-01 of `YYYY-MM-DD` (proleptic Gregorian; a year outside 0..=9999
/// with its sign, `+290000-12-30`, as the contract writes it).
fn date(text: &str) -> Option<i64> {
    let (sign, rest) = match text.as_bytes().first() {
        Some(b'+') => (1, text.get(1..)?),
        Some(b'-') => (-1, text.get(1..)?),
        _ => (0, text),
    };
    let mut parts = rest.splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if (sign == 0 && y.len() != 4) || y.len() < 4 || y.len() > 9 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let year = digits(y)? * if sign < 0 { -1 } else { 1 };
    let (month, day) = (digits(m)?, digits(d)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if !(1..=days_in_month).contains(&day) {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `HH:MM:SS` with an optional fraction of up to the unit's digits, in `unit`s since
/// midnight; `24:00:00` only when `end_of_day` may be.
fn time_of_day(text: &str, unit: TimeUnit, end_of_day: bool) -> Option<i64> {
    let (hms, fraction) = match text.split_once('.') {
        Some((hms, f)) => (hms, Some(f)),
        None => (text, None),
    };
    let mut parts = hms.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || h.len() != 2 || m.len() != 2 || s.len() != 2 {
        return None;
    }
    let (h, m, s) = (digits(h)?, digits(m)?, digits(s)?);
    if m > 59 || s > 59 || h > 24 || (h == 24 && (!end_of_day || m > 0 || s > 0)) {
        return None;
    }
    let per_second = unit.per_second();
    let fraction = match fraction {
        None => 0,
        Some(f) if f.is_empty() || f.len() > unit.digits() => return None,
        Some(f) => {
            let scale = 10_i64.pow(u32::try_from(unit.digits() - f.len()).ok()?);
            digits(f)? * scale
        }
    };
    if h == 24 && fraction > 0 {
        return None;
    }
    Some((h * 3600 + m * 60 + s) * per_second + fraction)
}

/// `YYYY-MM-DDTHH:MM:SS[.f][Z]` (or a space for the `T`) in `unit`s since the epoch.
fn timestamp(text: &str, unit: TimeUnit) -> Option<i128> {
    let text = text.strip_suffix('Z').unwrap_or(text);
    let split = text.rfind(['T', ' '])?;
    let (day, time) = (text.get(..split)?, text.get(split + 1..)?);
    let days = i128::from(date(day)?);
    let of_day = i128::from(time_of_day(time, unit, false)?);
    Some(days * 86_400 * i128::from(unit.per_second()) + of_day)
}

/// The 16 bytes of a UUID's canonical text (either case).
fn uuid(text: &str) -> Option<[u8; 16]> {
    let bytes = text.as_bytes();
    if bytes.len() != 36 || [8, 13, 18, 23].iter().any(|&i| bytes.get(i) != Some(&b'-')) {
        return None;
    }
    let hex: Vec<u8> = bytes.iter().copied().filter(|&b| b != b'-').collect();
    let mut out = [0; 16];
    for (byte, pair) in out.iter_mut().zip(hex.chunks(2)) {
        let pair = std::str::from_utf8(pair).ok()?;
        if !pair.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        *byte = u8::from_str_radix(pair, 16).ok()?;
    }
    (hex.len() == 32).then_some(out)
}

/// A decimal of `scale` digits after the point (fewer are padded with zeros, more must
/// be zeros) and at most `precision` in all.
fn decimal(text: &str, scale: i32, precision: i32) -> Result<Field, String> {
    let scale_digits = usize::try_from(scale).map_err(|_| "a negative scale".to_owned())?;
    let (negative, magnitude) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..).unwrap_or_default()),
        Some(b'+') => (false, text.get(1..).unwrap_or_default()),
        _ => (false, text),
    };
    let (int, fraction) = magnitude.split_once('.').unwrap_or((magnitude, ""));
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
        || (magnitude.contains('.') && fraction.is_empty())
    {
        return Err("plain notation: digits, an optional point and fraction".into());
    }
    let (kept, dropped) = fraction.split_at(fraction.len().min(scale_digits));
    if dropped.bytes().any(|b| b != b'0') {
        return Err(format!("more than {scale} digits after the point"));
    }
    let mut unscaled = format!("{int}{kept}{}", "0".repeat(scale_digits - kept.len()));
    let significant = unscaled.trim_start_matches('0').len();
    if i64::try_from(significant).unwrap_or(i64::MAX) > i64::from(precision) {
        return Err(format!("more than {precision} digits"));
    }
    unscaled.drain(..unscaled.len() - significant.max(1));
    let scale = scale.unsigned_abs();
    match unscaled.parse::<i128>() {
        Ok(v) => Ok(Field::Decimal {
            unscaled: if negative { -v } else { v },
            scale,
        }),
        Err(_) => Ok(Field::WideDecimal {
            unscaled: twos_complement(negative, &unscaled),
            scale,
        }),
    }
}

/// The big-endian two's complement bytes of a decimal number's digits.
fn twos_complement(negative: bool, digits: &str) -> Vec<u8> {
    let mut bytes: Vec<u8> = vec![0];
    for d in digits.bytes() {
        let mut carry = u32::from(d - b'0');
        for b in bytes.iter_mut().rev() {
            let v = u32::from(*b) * 10 + carry;
            // The low byte; the rest carries.
            #[allow(clippy::cast_possible_truncation)]
            {
                *b = v as u8;
            }
            carry = v >> 8;
        }
        while carry > 0 {
            #[allow(clippy::cast_possible_truncation)]
            bytes.insert(0, carry as u8);
            carry >>= 8;
        }
    }
    if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        bytes.insert(0, 0);
    }
    if negative {
        for b in &mut bytes {
            *b = !*b;
        }
        for b in bytes.iter_mut().rev() {
            *b = b.wrapping_add(1);
            if *b != 0 {
                break;
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(physical: PhysicalType, logical: LogicalType) -> Leaf {
        Leaf {
            physical,
            logical,
            orc: None,
        }
    }

    fn read(text: &str, physical: PhysicalType, logical: LogicalType) -> Result<Field, String> {
        scalar(&json::parse(text).unwrap(), &leaf(physical, logical))
    }

    fn decimal_type(scale: i32, precision: i32) -> LogicalType {
        LogicalType::Decimal { scale, precision }
    }

    fn dec(unscaled: i128, scale: u32) -> Field {
        Field::Decimal { unscaled, scale }
    }

    #[test]
    fn decimals_and_integers_read_back() {
        use PhysicalType as P;
        let cases = [
            ("\"-1.50\"", P::Int32, decimal_type(2, 9), dec(-150, 2)),
            ("1.5", P::Int64, decimal_type(3, 9), dec(1500, 3)),
            ("\"0.000\"", P::ByteArray, decimal_type(3, 3), dec(0, 3)),
            (
                "\"-0.5\"",
                P::FixedLenByteArray,
                decimal_type(1, 38),
                dec(-5, 1),
            ),
        ];
        for (text, physical, logical, expected) in cases {
            assert_eq!(read(text, physical, logical), Ok(expected), "{text}");
        }
        assert!(read("\"1.25\"", P::Int32, decimal_type(1, 9)).is_err());
        assert!(read("\"1000\"", P::Int32, decimal_type(0, 3)).is_err());
        assert!(read("\"1e3\"", P::Int32, decimal_type(0, 9)).is_err());
        let int8 = LogicalType::Integer {
            bits: 8,
            signed: true,
        };
        let uint16 = LogicalType::Integer {
            bits: 16,
            signed: false,
        };
        let uint32 = LogicalType::Integer {
            bits: 32,
            signed: false,
        };
        let uint64 = LogicalType::Integer {
            bits: 64,
            signed: false,
        };
        assert_eq!(read("-128", P::Int32, int8.clone()), Ok(Field::Int(-128)));
        assert_eq!(
            read("4294967295", P::Int32, uint32.clone()),
            Ok(Field::UInt(u64::from(u32::MAX)))
        );
        assert_eq!(
            read("18446744073709551615", P::Int64, uint64),
            Ok(Field::UInt(u64::MAX))
        );
        for (text, physical, logical) in [
            ("128", P::Int32, int8.clone()),
            ("2147483648", P::Int32, LogicalType::None),
            ("4294967296", P::Int32, uint32),
            ("-1", P::Int32, uint16),
            ("1.0", P::Int64, LogicalType::None),
        ] {
            assert!(read(text, physical, logical).is_err(), "{text}");
        }
        assert_eq!(
            read("128", P::Int32, int8),
            Err("a number \"128\" where INT32 (INTEGER(8,true)) expects an integer from -128 to 127".into())
        );
        assert_eq!(
            read("\"x\"", P::Int64, LogicalType::None),
            Err("a string \"x\" where INT64 expects an integer from -9223372036854775808 to 9223372036854775807".into())
        );
    }

    #[test]
    fn dates_times_and_timestamps_read_back() {
        use PhysicalType as P;
        use TimeUnit as U;
        let ts = |unit, utc| LogicalType::Timestamp { unit, utc };
        let time = |unit| LogicalType::Time { unit, utc: true };
        let stamp = |value, unit, utc| Field::Timestamp { value, unit, utc };
        let cases = [
            (
                "\"1970-01-01\"",
                P::Int32,
                LogicalType::Date,
                Field::Date(0),
            ),
            (
                "\"1969-12-31\"",
                P::Int32,
                LogicalType::Date,
                Field::Date(-1),
            ),
            (
                "\"2024-01-01\"",
                P::Int32,
                LogicalType::Date,
                Field::Date(19_723),
            ),
            ("19723", P::Int32, LogicalType::Date, Field::Date(19_723)),
            (
                "\"01:02:03.004\"",
                P::Int32,
                time(U::Millis),
                Field::Time {
                    value: 3_723_004,
                    unit: U::Millis,
                },
            ),
            (
                "\"24:00:00.000000\"",
                P::Int64,
                time(U::Micros),
                Field::Time {
                    value: 86_400_000_000,
                    unit: U::Micros,
                },
            ),
            (
                "\"1969-12-31T23:59:59.999999Z\"",
                P::Int64,
                ts(U::Micros, true),
                stamp(-1, U::Micros, true),
            ),
            (
                "\"1970-01-01 00:00:01.5\"",
                P::Int64,
                ts(U::Millis, false),
                stamp(1500, U::Millis, false),
            ),
            (
                "\"2262-04-11T23:47:16.854775808\"",
                P::Int96,
                LogicalType::None,
                stamp(i128::from(i64::MAX) + 1, U::Nanos, false),
            ),
        ];
        for (text, physical, logical, expected) in cases {
            assert_eq!(read(text, physical, logical), Ok(expected), "{text}");
        }
        assert!(
            read(
                "\"+290000-12-30T23:00:00.000000000\"",
                P::Int96,
                LogicalType::None
            )
            .is_ok()
        );
        for (text, physical, logical) in [
            ("\"2024-02-30\"", P::Int32, LogicalType::Date),
            ("\"2023-02-29\"", P::Int32, LogicalType::Date),
            ("\"24-01-01\"", P::Int32, LogicalType::Date),
            ("\"24:00:01.000\"", P::Int32, time(U::Millis)),
            ("\"00:00:00.0001\"", P::Int32, time(U::Millis)),
            ("\"2024-01-01T24:00:00\"", P::Int64, ts(U::Millis, true)),
            ("\"2262-04-12T00:00:00\"", P::Int64, ts(U::Nanos, true)),
        ] {
            assert!(read(text, physical, logical).is_err(), "{text}");
        }
    }

    #[test]
    fn floats_and_byte_arrays_read_back() {
        use PhysicalType as P;
        assert!(
            matches!(read("\"NaN\"", P::Double, LogicalType::None), Ok(Field::Double(v)) if v.is_nan())
        );
        assert_eq!(
            read("\"-Infinity\"", P::Float, LogicalType::None),
            Ok(Field::Float(f32::NEG_INFINITY))
        );
        assert_eq!(
            read("1.1", P::Float, LogicalType::None),
            Ok(Field::Float(1.1))
        );
        assert_eq!(
            read("2", P::Double, LogicalType::None),
            Ok(Field::Double(2.0))
        );
        assert!(read("1e300", P::Float, LogicalType::None).is_err());
        assert!(read("\"1.5\"", P::Double, LogicalType::None).is_err());
        assert_eq!(
            read("0.1", P::FixedLenByteArray, LogicalType::Float16),
            Ok(Field::Float16(half::f16::from_f32(0.1).to_bits()))
        );
        assert_eq!(
            read("\"cGFycXVldA==\"", P::ByteArray, LogicalType::None),
            Ok(Field::Bytes(b"parquet".to_vec()))
        );
        assert!(read("\"cGFycXVldA\"", P::ByteArray, LogicalType::None).is_err());
        assert_eq!(
            read(
                "\"00112233-4455-6677-8899-AABBCCDDEEFF\"",
                P::FixedLenByteArray,
                LogicalType::Uuid
            ),
            Ok(Field::Uuid(
                *b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff"
            ))
        );
        assert!(
            read(
                "\"00112233445566778899aabbccddeeff\"",
                P::FixedLenByteArray,
                LogicalType::Uuid
            )
            .is_err()
        );
        assert_eq!(
            read("\"é\"", P::ByteArray, LogicalType::String),
            Ok(Field::Str("é".into()))
        );
        assert!(read("1", P::ByteArray, LogicalType::String).is_err());
        let unknown = Shape::Leaf(leaf(P::ByteArray, LogicalType::Unknown));
        assert!(matches!(field(&Json::Null, &unknown), Ok(Field::Null)));
        assert!(read("1", P::Int32, LogicalType::Unknown).is_err());
    }

    #[test]
    fn wide_decimals_are_twos_complement() {
        let digits = "340282366920938463463374607431768211457"; // 2^128 + 1
        let Field::WideDecimal { unscaled, scale } = decimal(digits, 0, 40).unwrap() else {
            panic!()
        };
        assert_eq!(scale, 0);
        let mut expected = vec![0; 17];
        expected[0] = 1;
        expected[16] = 1;
        assert_eq!(unscaled, expected);
        let Field::WideDecimal { unscaled, .. } = decimal(&format!("-{digits}"), 0, 40).unwrap()
        else {
            panic!()
        };
        let negated: Vec<u8> = {
            let mut n: Vec<u8> = expected.iter().map(|b| !b).collect();
            n[16] = n[16].wrapping_add(1);
            n
        };
        assert_eq!(unscaled, negated);
        assert_eq!(twos_complement(false, "128"), vec![0, 128]);
        assert_eq!(twos_complement(true, "128"), vec![0xFF, 0x80]);
    }
}
