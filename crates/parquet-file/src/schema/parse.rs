//! The message-type syntax of parquet-format, read: what [`Schema`]'s `Display` (and
//! `pqkit schema`) prints, and what parquet-java's `MessageTypeParser` takes.
//!
//! ```text
//! message schema {
//!   required int64 id;
//!   optional binary name (STRING) = 7;
//!   required fixed_len_byte_array(16) key (UUID);
//!   optional group tags (LIST) {
//!     repeated group list {
//!       optional binary element (UTF8);
//!     }
//!   }
//! }
//! ```
//!
//! Keywords, types and annotations are read in any case, a BYTE_ARRAY as parquet-java
//! writes it (`binary`) or as `Display` does (`byte_array`); an annotation is a logical type
//! (`DECIMAL(9,2)`, `TIMESTAMP(MICROS,true)`, `GEOGRAPHY(OGC:CRS84,KARNEY)`) or a legacy
//! converted type (`UTF8`, `TIMESTAMP_MILLIS`, `MAP_KEY_VALUE`); `= n` gives a field id.
//! Names are the words between the separators (whitespace and `{ } ( ) ; , =`).

use parquet_core::PhysicalType;

use super::build::SchemaField;
use super::{ConvertedType, EdgeInterpolation, LogicalType, Repetition, Schema, TimeUnit};
use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;

impl Schema {
    /// Reads a schema in the message-type syntax (see the module docs of
    /// `schema::parse`), checked as [`Schema::try_new`] checks a built one.
    ///
    /// ```
    /// use parquet_file::Schema;
    ///
    /// let text = "message m {\n  optional byte_array s (STRING);\n  required int32 i;\n}\n";
    /// let schema = Schema::parse(text).unwrap();
    /// assert_eq!(schema.to_string(), text);
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Syntax`] with the line and column (from 1) of text that does not parse;
    /// the errors of [`Schema::try_new`] for a schema that parses but breaks a rule.
    pub fn parse(text: &str) -> Result<Self> {
        let mut parser = Parser {
            text,
            pos: 0,
            depth: 0,
            max_depth: Limits::default().max_schema_depth(),
        };
        parser.keyword("message")?;
        // Some writers leave the root unnamed.
        let name = if parser.peek() == Some('{') {
            ""
        } else {
            parser.word("the message's name")?
        };
        parser.expect('{')?;
        let fields = parser.fields()?;
        parser.eat(';');
        if parser.peek().is_some() {
            return Err(parser.error("text after the message's closing brace"));
        }
        Self::try_new(name, fields)
    }
}

/// The characters that end a word.
const SEPARATORS: &str = "{}();,=";

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    /// Groups open around the current position, at most `max_depth` (the schema depth
    /// limit, checked before recursing rather than after).
    depth: usize,
    max_depth: usize,
}

impl<'t> Parser<'t> {
    /// The fields of a group, up to and including its closing brace.
    fn fields(&mut self) -> Result<Vec<SchemaField>> {
        let mut fields = Vec::new();
        while !self.eat('}') {
            if self.peek().is_none() {
                return Err(self.error("the text ends inside a group"));
            }
            fields.push(self.field()?);
        }
        Ok(fields)
    }

    fn field(&mut self) -> Result<SchemaField> {
        let word = self.word("a repetition")?;
        let repetition = [
            Repetition::Required,
            Repetition::Optional,
            Repetition::Repeated,
        ]
        .into_iter()
        .find(|r| word.eq_ignore_ascii_case(r.name()))
        .ok_or_else(|| self.error("a repetition (required, optional or repeated)"))?;
        let kind = self.word("a type")?.to_ascii_lowercase();
        let physical = match kind.as_str() {
            "group" => None,
            "boolean" => Some(PhysicalType::Boolean),
            "int32" => Some(PhysicalType::Int32),
            "int64" => Some(PhysicalType::Int64),
            "int96" => Some(PhysicalType::Int96),
            "float" => Some(PhysicalType::Float),
            "double" => Some(PhysicalType::Double),
            "binary" | "byte_array" => Some(PhysicalType::ByteArray),
            "fixed_len_byte_array" => Some(PhysicalType::FixedLenByteArray),
            _ => return Err(self.error("a type (group or a physical type)")),
        };
        let length = if physical == Some(PhysicalType::FixedLenByteArray) {
            self.expect('(')?;
            let length = self.number("the length of a fixed_len_byte_array")?;
            self.expect(')')?;
            Some(length)
        } else {
            None
        };
        let name = self.word("a field name")?;
        let mut field = match (physical, length) {
            (None, _) => SchemaField::group(name, repetition, []),
            (Some(_), Some(length)) => SchemaField::fixed_len_byte_array(name, repetition, length),
            (Some(physical), None) => SchemaField::primitive(name, repetition, physical),
        };
        if self.eat('(') {
            field = self.annotation(field)?;
            self.expect(')')?;
        }
        if self.eat('=') {
            let id = self.number("a field id")?;
            let id = i32::try_from(id).map_err(|_| self.error("a field id below 2^31"))?;
            field = field.with_field_id(id);
        }
        if physical.is_none() {
            self.expect('{')?;
            self.depth += 1;
            if self.depth > self.max_depth {
                return Err(Error::limit(
                    "schema depth",
                    self.depth as u64,
                    self.max_depth as u64,
                ));
            }
            let fields = self.fields()?;
            self.depth -= 1;
            field = field.with_fields(fields);
            self.eat(';');
        } else {
            self.expect(';')?;
        }
        Ok(field)
    }

    /// The annotation after a field's name (its opening parenthesis read), applied.
    fn annotation(&mut self, field: SchemaField) -> Result<SchemaField> {
        let at = self.pos;
        let name = self.word("an annotation")?.to_ascii_uppercase();
        let args = if self.eat('(') {
            self.arguments()?
        } else {
            Vec::new()
        };
        let fail = |what| self.error_at(at, what);
        let logical = match (name.as_str(), args.as_slice()) {
            ("STRING", []) => LogicalType::String,
            ("ENUM", []) => LogicalType::Enum,
            ("JSON", []) => LogicalType::Json,
            ("BSON", []) => LogicalType::Bson,
            ("UUID", []) => LogicalType::Uuid,
            ("FLOAT16", []) => LogicalType::Float16,
            ("DATE", []) => LogicalType::Date,
            ("INTERVAL", []) => LogicalType::Interval,
            ("LIST", []) => LogicalType::List,
            ("MAP", []) => LogicalType::Map,
            ("UNKNOWN", []) => LogicalType::Unknown,
            ("FILE", []) => LogicalType::File,
            ("DECIMAL", [precision, scale]) => LogicalType::Decimal {
                precision: integer(precision).ok_or_else(|| fail("a DECIMAL precision"))?,
                scale: integer(scale).ok_or_else(|| fail("a DECIMAL scale"))?,
            },
            ("TIME", [unit, utc]) => LogicalType::Time {
                unit: time_unit(unit).ok_or_else(|| fail("a unit: MILLIS, MICROS or NANOS"))?,
                utc: boolean(utc).ok_or_else(|| fail("true or false"))?,
            },
            ("TIMESTAMP", [unit, utc]) => LogicalType::Timestamp {
                unit: time_unit(unit).ok_or_else(|| fail("a unit: MILLIS, MICROS or NANOS"))?,
                utc: boolean(utc).ok_or_else(|| fail("true or false"))?,
            },
            ("INTEGER", [bits, signed]) => LogicalType::Integer {
                bits: integer(bits).ok_or_else(|| fail("a bit width: 8, 16, 32 or 64"))?,
                signed: boolean(signed).ok_or_else(|| fail("true or false"))?,
            },
            ("VARIANT", []) => LogicalType::Variant {
                specification_version: None,
            },
            ("VARIANT", [version]) => LogicalType::Variant {
                specification_version: Some(
                    integer(version).ok_or_else(|| fail("a Variant specification version"))?,
                ),
            },
            ("GEOMETRY", []) => LogicalType::Geometry { crs: None },
            ("GEOMETRY", [crs]) => LogicalType::Geometry {
                crs: Some((*crs).to_owned()),
            },
            ("GEOGRAPHY", []) => LogicalType::Geography {
                crs: None,
                algorithm: None,
            },
            ("GEOGRAPHY", [crs, rest @ ..]) if rest.len() <= 1 => LogicalType::Geography {
                crs: Some((*crs).to_owned()),
                algorithm: match rest {
                    [algorithm] => Some(
                        edge_interpolation(algorithm)
                            .ok_or_else(|| fail("an edge interpolation algorithm"))?,
                    ),
                    _ => None,
                },
            },
            (converted, []) => {
                let converted = ConvertedType::from_name(converted)
                    .ok_or_else(|| fail("a logical or converted type"))?;
                return Ok(field.with_converted_type(converted));
            }
            _ => return Err(fail("the arguments of the annotation")),
        };
        Ok(field.with_logical_type(logical))
    }

    /// The comma-separated arguments of an annotation, up to and including the closing
    /// parenthesis, as text (a CRS may hold any character but those).
    fn arguments(&mut self) -> Result<Vec<&'t str>> {
        let rest = &self.text[self.pos..];
        let Some(end) = rest.find(')') else {
            return Err(self.error("an annotation without its closing parenthesis"));
        };
        self.pos += end + 1;
        Ok(rest[..end].split(',').map(str::trim).collect())
    }

    /// Skips whitespace; the next character.
    fn peek(&mut self) -> Option<char> {
        let rest = &self.text[self.pos..];
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
        trimmed.chars().next()
    }

    /// Consumes `c` if it comes next.
    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.pos += c.len_utf8();
        }
        found
    }

    fn expect(&mut self, c: char) -> Result<()> {
        if self.eat(c) {
            return Ok(());
        }
        Err(self.error(match c {
            '{' => "an opening brace",
            '}' => "a closing brace",
            '(' => "an opening parenthesis",
            ')' => "a closing parenthesis",
            ';' => "a semicolon",
            _ => "a separator",
        }))
    }

    /// The next word, which `what` names for the error when there is none.
    fn word(&mut self, what: &'static str) -> Result<&'t str> {
        self.peek();
        let rest = &self.text[self.pos..];
        let end = rest
            .find(|c: char| c.is_whitespace() || SEPARATORS.contains(c))
            .unwrap_or(rest.len());
        if end == 0 {
            return Err(self.error(what));
        }
        self.pos += end;
        Ok(&rest[..end])
    }

    fn keyword(&mut self, keyword: &'static str) -> Result<()> {
        let at = self.pos;
        match self.word(keyword) {
            Ok(word) if word.eq_ignore_ascii_case(keyword) => Ok(()),
            _ => Err(self.error_at(at, keyword)),
        }
    }

    fn number(&mut self, what: &'static str) -> Result<usize> {
        let at = self.pos;
        self.word(what)?
            .parse()
            .map_err(|_| self.error_at(at, what))
    }

    /// An error at the current position: `what` was expected there.
    fn error(&self, what: &'static str) -> Error {
        self.error_at(self.pos, what)
    }

    fn error_at(&self, at: usize, what: &'static str) -> Error {
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rfind('\n').map_or(before, |n| &before[n + 1..]);
        ErrorKind::Syntax {
            line,
            column: column.chars().count() + 1,
            expected: what,
        }
        .into()
    }
}

fn integer<T: std::str::FromStr>(text: &str) -> Option<T> {
    text.parse().ok()
}

fn boolean(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn time_unit(text: &str) -> Option<TimeUnit> {
    [TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos]
        .into_iter()
        .find(|unit| text.eq_ignore_ascii_case(unit.name()))
}

fn edge_interpolation(text: &str) -> Option<EdgeInterpolation> {
    use EdgeInterpolation as E;
    [E::Spherical, E::Vincenty, E::Thomas, E::Andoyer, E::Karney]
        .into_iter()
        .find(|algorithm| text.eq_ignore_ascii_case(&algorithm.name()))
}
