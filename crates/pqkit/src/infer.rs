//! A schema inferred from the first rows of JSON Lines or CSV text: every field
//! optional; integers INT64 (past its range, DOUBLE), other numbers DOUBLE, booleans
//! BOOLEAN, strings BYTE_ARRAY (STRING); from JSON, objects groups and arrays LISTs.
//!
//! A field of JSON that holds values of two kinds (a number and a string, say) is an
//! error: no type keeps both, and the schema is then better given. A CSV cell is text
//! either way, so a CSV column of mixed kinds is a STRING.

use parquet_file::{LogicalType, PhysicalType, Repetition, Schema, SchemaField};

use crate::json::{self, Json, NumberKind};

/// What a field has held so far.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// Only nulls.
    Null,
    Bool,
    Int,
    Double,
    /// `"NaN"`, `"Infinity"` or `"-Infinity"`: a double among numbers, else a string.
    NotANumber,
    Str,
    Object(Vec<(String, Kind)>),
    Array(Box<Kind>),
}

impl Kind {
    fn describe(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "a boolean",
            Self::Int => "an integer",
            Self::Double => "a number",
            Self::NotANumber | Self::Str => "a string",
            Self::Object(_) => "an object",
            Self::Array(_) => "an array",
        }
    }

    fn of_json(json: &Json) -> Self {
        match json {
            Json::Null => Self::Null,
            Json::Bool(_) => Self::Bool,
            Json::Number(t) => number(t),
            Json::Str(s) if matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity") => {
                Self::NotANumber
            }
            Json::Str(_) => Self::Str,
            Json::Array(items) => {
                let mut element = Self::Null;
                for item in items {
                    // Conflicts inside an array are found when it is merged; the first
                    // kind of an array's elements stands for it here.
                    if merge(&mut element, Self::of_json(item), false).is_err() {
                        break;
                    }
                }
                Self::Array(Box::new(element))
            }
            Json::Object(fields) => Self::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), Self::of_json(v)))
                    .collect(),
            ),
        }
    }

    fn of_cell(cell: &str) -> Self {
        match cell {
            "" => Self::Null,
            "true" | "false" => Self::Bool,
            "NaN" | "Infinity" | "-Infinity" | "\"NaN\"" | "\"Infinity\"" | "\"-Infinity\"" => {
                Self::NotANumber
            }
            _ if json::number_kind(cell).is_some() => number(cell),
            _ => Self::Str,
        }
    }
}

fn number(text: &str) -> Kind {
    match json::number_kind(text) {
        Some(NumberKind::Integer) if text.parse::<i64>().is_ok() => Kind::Int,
        _ => Kind::Double,
    }
}

/// Merges what a field holds in one more row into what it held before; the kind that
/// does not fit, when one does not (or, with `widen`, a string instead).
fn merge(old: &mut Kind, new: Kind, widen: bool) -> Result<(), (Kind, Kind)> {
    use Kind as K;
    match (&mut *old, new) {
        (_, K::Null)
        | (K::Bool, K::Bool)
        | (K::Int, K::Int)
        | (K::Double, K::Int | K::Double | K::NotANumber)
        | (K::NotANumber, K::NotANumber)
        | (K::Str, K::Str | K::NotANumber) => {}
        (K::Null, new) => *old = new,
        (K::Int, K::Double | K::NotANumber) | (K::NotANumber, K::Int | K::Double) => {
            *old = K::Double;
        }
        (K::NotANumber, K::Str) => *old = K::Str,
        (K::Object(fields), K::Object(new_fields)) => {
            for (name, kind) in new_fields {
                match fields.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, k)) => merge(k, kind, widen)?,
                    None => fields.push((name, kind)),
                }
            }
        }
        (K::Array(element), K::Array(new_element)) => merge(element, *new_element, widen)?,
        (_, _) if widen => *old = K::Str,
        (old, new) => return Err((old.clone(), new)),
    }
    Ok(())
}

/// A schema inferred from rows, one at a time.
#[derive(Debug, Default)]
pub(crate) struct Inference {
    fields: Vec<(String, Kind)>,
}

impl Inference {
    /// An inference from JSON objects.
    pub(crate) fn json() -> Self {
        Self::default()
    }

    /// An inference from CSV records under `header`.
    pub(crate) fn csv(header: &[String]) -> Self {
        Self {
            fields: header.iter().map(|n| (n.clone(), Kind::Null)).collect(),
        }
    }

    /// Takes in a JSON object.
    ///
    /// # Errors
    ///
    /// A field holding another kind of value than in earlier rows.
    pub(crate) fn add_object(&mut self, object: &[(String, Json)]) -> Result<(), String> {
        let mut top = Kind::Object(std::mem::take(&mut self.fields));
        let result = merge_named(&mut top, object);
        if let Kind::Object(fields) = top {
            self.fields = fields;
        }
        result
    }

    /// Takes in CSV cells, in the order of the header. A CSV cell is text either way, so
    /// a column of mixed kinds is a string.
    pub(crate) fn add_cells(&mut self, cells: &[String]) {
        for ((_, kind), cell) in self.fields.iter_mut().zip(cells) {
            // With `widen`, merging never fails.
            let _ = merge(kind, Kind::of_cell(cell), true);
        }
    }

    /// The schema of the rows taken in.
    ///
    /// # Errors
    ///
    /// No fields at all, or a field that was always an empty object.
    pub(crate) fn schema(&self) -> Result<Schema, String> {
        if self.fields.is_empty() {
            return Err("no fields to infer a schema from; give one with --schema".into());
        }
        let fields = self
            .fields
            .iter()
            .map(|(name, kind)| schema_field(name, kind, name))
            .collect::<Result<Vec<_>, _>>()?;
        Schema::try_new("schema", fields).map_err(|e| format!("the inferred schema: {e}"))
    }
}

/// Merges an object's fields into `top` (an object), naming the field that conflicts.
fn merge_named(top: &mut Kind, object: &[(String, Json)]) -> Result<(), String> {
    let new = Kind::Object(
        object
            .iter()
            .map(|(k, v)| (k.clone(), Kind::of_json(v)))
            .collect(),
    );
    let mut probe = top.clone();
    if merge(&mut probe, new.clone(), false).is_ok() {
        *top = probe;
        return Ok(());
    }
    // Find the field: merge one at a time, descending into the one that fails.
    Err(conflict(top, new, ""))
}

/// The message for the first field of `new` that does not fit `old`.
fn conflict(old: &Kind, new: Kind, path: &str) -> String {
    let here = |old: &Kind, new: &Kind| {
        format!(
            "field {}holds {} here and {} in earlier rows; give the schema with --schema",
            if path.is_empty() {
                String::new()
            } else {
                format!("{path} ")
            },
            new.describe(),
            old.describe()
        )
    };
    match (old, new) {
        (Kind::Object(fields), Kind::Object(new_fields)) => {
            for (name, kind) in new_fields {
                if let Some((_, k)) = fields.iter().find(|(n, _)| *n == name) {
                    let mut probe = k.clone();
                    if merge(&mut probe, kind.clone(), false).is_err() {
                        let path = if path.is_empty() {
                            name
                        } else {
                            format!("{path}.{name}")
                        };
                        return conflict(k, kind, &path);
                    }
                }
            }
            here(old, &Kind::Object(Vec::new()))
        }
        (Kind::Array(element), Kind::Array(new_element)) => {
            conflict(element, *new_element, &format!("{path}[]"))
        }
        (old, new) => here(old, &new),
    }
}

/// The optional field `name` of `kind`; `path` names it in errors.
fn schema_field(name: &str, kind: &Kind, path: &str) -> Result<SchemaField, String> {
    let string = || {
        SchemaField::optional(name, PhysicalType::ByteArray).with_logical_type(LogicalType::String)
    };
    Ok(match kind {
        Kind::Null | Kind::Str | Kind::NotANumber => string(),
        Kind::Bool => SchemaField::optional(name, PhysicalType::Boolean),
        Kind::Int => SchemaField::optional(name, PhysicalType::Int64),
        Kind::Double => SchemaField::optional(name, PhysicalType::Double),
        Kind::Array(element) => SchemaField::list(
            name,
            Repetition::Optional,
            schema_field("element", element, &format!("{path}[]"))?,
        ),
        Kind::Object(fields) if fields.is_empty() => {
            return Err(format!(
                "field {path} is always an empty object, which no Parquet group can be; give the schema with --schema"
            ));
        }
        Kind::Object(fields) => SchemaField::group(
            name,
            Repetition::Optional,
            fields
                .iter()
                .map(|(n, k)| schema_field(n, k, &format!("{path}.{n}")))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infer(lines: &[&str]) -> Result<String, String> {
        let mut inference = Inference::json();
        for line in lines {
            let Json::Object(object) = json::parse(line).unwrap() else {
                panic!()
            };
            inference.add_object(&object)?;
        }
        inference.schema().map(|s| s.to_string())
    }

    #[test]
    fn json_kinds_become_types() {
        let schema = infer(&[
            r#"{"i": 1, "f": 2, "b": true, "s": "x", "n": null, "o": {"a": 1}, "l": [1, 2.5], "e": []}"#,
            r#"{"f": 2.5, "o": {"b": "y"}, "l": null, "nan": "NaN"}"#,
            r#"{"nan": 1, "big": 18446744073709551615, "ll": [[{"x": 1}]]}"#,
        ])
        .unwrap();
        assert_eq!(
            schema,
            "message schema {
  optional int64 i;
  optional double f;
  optional boolean b;
  optional byte_array s (STRING);
  optional byte_array n (STRING);
  optional group o {
    optional int64 a;
    optional byte_array b (STRING);
  }
  optional group l (LIST) {
    repeated group list {
      optional double element;
    }
  }
  optional group e (LIST) {
    repeated group list {
      optional byte_array element (STRING);
    }
  }
  optional double nan;
  optional double big;
  optional group ll (LIST) {
    repeated group list {
      optional group element (LIST) {
        repeated group list {
          optional group element {
            optional int64 x;
          }
        }
      }
    }
  }
}
"
        );
        // Parses back as it prints.
        assert_eq!(Schema::parse(&schema).unwrap().to_string(), schema);
    }

    #[test]
    fn json_conflicts_name_the_field() {
        assert_eq!(
            infer(&[r#"{"a": {"b": 1}}"#, r#"{"a": {"b": "x"}}"#]).unwrap_err(),
            "field a.b holds a string here and an integer in earlier rows; give the schema with --schema"
        );
        assert_eq!(
            infer(&[r#"{"a": [1]}"#, r#"{"a": [{"x": 1}]}"#]).unwrap_err(),
            "field a[] holds an object here and an integer in earlier rows; give the schema with --schema"
        );
        assert!(
            infer(&[r#"{"a": {}}"#])
                .unwrap_err()
                .contains("always an empty object")
        );
        assert!(infer(&[]).is_err());
    }

    #[test]
    fn csv_columns_of_mixed_kinds_are_strings() {
        let header: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let mut inference = Inference::csv(&header);
        for row in [
            ["1", "1", "true", "", "\"NaN\""],
            ["x", "2.5", "false", "", "3"],
        ] {
            inference.add_cells(&row.map(String::from));
        }
        assert_eq!(
            inference.schema().unwrap().to_string(),
            "message schema {
  optional byte_array a (STRING);
  optional double b;
  optional boolean c;
  optional byte_array d (STRING);
  optional double e;
}
"
        );
    }
}
