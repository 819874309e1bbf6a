//! Schemas built in code: [`SchemaField`]s, flattened into the footer's schema elements and
//! read back by [`Schema::try_from_elements`], so that a built schema passes every check a
//! read one does, and a few more that only a writer can be held to.

use std::borrow::Cow;

use parquet_core::PhysicalType;
use parquet_thrift as thrift;

use super::{
    ConvertedType, LogicalType, Repetition, Schema, check_decimal, schema_error, thrift_type,
};
use crate::error::{Error, Result};
use crate::limits::Limits;

/// A field of a schema being built: a primitive (leaf) or a group of fields, with its name,
/// repetition and annotation.
///
/// ```
/// use parquet_file::{LogicalType, PhysicalType, Repetition, Schema, SchemaField, TimeUnit};
///
/// let schema = Schema::try_new(
///     "trip",
///     [
///         SchemaField::required("id", PhysicalType::Int64),
///         SchemaField::optional("driver", PhysicalType::ByteArray)
///             .with_logical_type(LogicalType::String),
///         SchemaField::required("at", PhysicalType::Int64).with_logical_type(
///             LogicalType::Timestamp { unit: TimeUnit::Micros, utc: true },
///         ),
///         SchemaField::list(
///             "stops",
///             Repetition::Optional,
///             SchemaField::required("stop", PhysicalType::Int32),
///         ),
///     ],
/// )
/// .unwrap();
/// assert_eq!(schema.columns().len(), 4);
/// assert_eq!(schema.columns()[3].path.to_string(), "stops.list.element");
/// assert_eq!(schema.columns()[3].max_rep_level, 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaField {
    name: String,
    repetition: Repetition,
    kind: Kind,
    logical_type: LogicalType,
    converted_type: ConvertedChoice,
    field_id: Option<i32>,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Primitive {
        physical: PhysicalType,
        type_length: usize,
    },
    Group(Vec<SchemaField>),
}

/// Which converted type a field is written with.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ConvertedChoice {
    /// The logical type's twin, when parquet.thrift defines one.
    Twin,
    /// This one (checked against the logical type).
    Given(ConvertedType),
}

impl SchemaField {
    /// A primitive field of `physical` type (for FIXED_LEN_BYTE_ARRAY, see
    /// [`fixed_len_byte_array`](Self::fixed_len_byte_array)).
    pub fn primitive(
        name: impl Into<String>,
        repetition: Repetition,
        physical: PhysicalType,
    ) -> Self {
        Self::new(
            name,
            repetition,
            Kind::Primitive {
                physical,
                type_length: 0,
            },
        )
    }

    /// A required primitive field.
    pub fn required(name: impl Into<String>, physical: PhysicalType) -> Self {
        Self::primitive(name, Repetition::Required, physical)
    }

    /// An optional primitive field.
    pub fn optional(name: impl Into<String>, physical: PhysicalType) -> Self {
        Self::primitive(name, Repetition::Optional, physical)
    }

    /// A repeated primitive field (a legacy one-level list; prefer [`list`](Self::list)).
    pub fn repeated(name: impl Into<String>, physical: PhysicalType) -> Self {
        Self::primitive(name, Repetition::Repeated, physical)
    }

    /// A FIXED_LEN_BYTE_ARRAY field of `length` bytes per value.
    pub fn fixed_len_byte_array(
        name: impl Into<String>,
        repetition: Repetition,
        length: usize,
    ) -> Self {
        Self::new(
            name,
            repetition,
            Kind::Primitive {
                physical: PhysicalType::FixedLenByteArray,
                type_length: length,
            },
        )
    }

    /// A group of `fields` (a struct), in order.
    pub fn group(
        name: impl Into<String>,
        repetition: Repetition,
        fields: impl IntoIterator<Item = SchemaField>,
    ) -> Self {
        Self::new(name, repetition, Kind::Group(fields.into_iter().collect()))
    }

    /// A LIST of `element` in the three-level form that parquet-format requires of
    /// writers: `<repetition> group <name> (LIST) { repeated group list { <element> } }`,
    /// the element renamed `element`. Its repetition says whether elements can be null
    /// (optional) or not (required); a repeated element is an error when built.
    pub fn list(name: impl Into<String>, repetition: Repetition, element: SchemaField) -> Self {
        let list = Self::group("list", Repetition::Repeated, [element.renamed("element")]);
        Self::group(name, repetition, [list]).with_logical_type(LogicalType::List)
    }

    /// A MAP from `key` (which must be required) to `value` (optional or required, or
    /// none for a set of keys), in the form parquet-format requires of writers:
    /// `<repetition> group <name> (MAP) { repeated group key_value { <key>; <value>; } }`,
    /// the fields renamed `key` and `value`.
    pub fn map(
        name: impl Into<String>,
        repetition: Repetition,
        key: SchemaField,
        value: Option<SchemaField>,
    ) -> Self {
        let mut fields = vec![key.renamed("key")];
        fields.extend(value.map(|v| v.renamed("value")));
        let key_value = Self::group("key_value", Repetition::Repeated, fields);
        Self::group(name, repetition, [key_value]).with_logical_type(LogicalType::Map)
    }

    /// The field annotated with `logical_type`, written with the converted type
    /// parquet.thrift pairs with it (if any), as parquet-java and Arrow C++ write them.
    #[must_use]
    pub fn with_logical_type(mut self, logical_type: LogicalType) -> Self {
        self.logical_type = logical_type;
        self
    }

    /// The field written with this converted type: alone (for readers that predate
    /// logical types, the logical type then being the one it stands for), or beside a
    /// logical type it must agree with. A DECIMAL needs its logical type, which carries
    /// its scale and precision. (A field with a logical type and no converted type
    /// gets its twin, where parquet.thrift defines one.)
    #[must_use]
    pub fn with_converted_type(mut self, converted_type: ConvertedType) -> Self {
        self.converted_type = ConvertedChoice::Given(converted_type);
        self
    }

    /// The field with a field id (as Iceberg and Arrow's schema conversion assign them).
    #[must_use]
    pub fn with_field_id(mut self, id: i32) -> Self {
        self.field_id = Some(id);
        self
    }

    /// The field's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn new(name: impl Into<String>, repetition: Repetition, kind: Kind) -> Self {
        Self {
            name: name.into(),
            repetition,
            kind,
            logical_type: LogicalType::None,
            converted_type: ConvertedChoice::Twin,
            field_id: None,
        }
    }

    /// The group with these fields instead of its own (for the parser, which reads a
    /// group's annotation before its fields).
    pub(super) fn with_fields(mut self, fields: Vec<SchemaField>) -> Self {
        self.kind = Kind::Group(fields);
        self
    }

    fn renamed(mut self, name: &str) -> Self {
        name.clone_into(&mut self.name);
        self
    }

    /// The converted type to write: the one given (checked against the logical type), or
    /// the logical type's twin.
    fn written_converted_type(&self) -> Result<Option<ConvertedType>, &'static str> {
        let given = match self.converted_type {
            ConvertedChoice::Twin => return Ok(self.logical_type.converted_type()),
            ConvertedChoice::Given(given) => given,
        };
        match (given, &self.logical_type) {
            (ConvertedType::Decimal, logical)
                if !matches!(logical, LogicalType::Decimal { .. }) =>
            {
                Err("a DECIMAL converted type without the DECIMAL logical type")
            }
            (ConvertedType::Unknown(_), _) => Err("a converted type unknown to parquet.thrift"),
            (given, LogicalType::None) => Ok(Some(given)),
            (given, logical) if logical.converted_type() == Some(given) => Ok(Some(given)),
            // Older writers (Arrow C++ before 0.15, Spark) paired TIMESTAMP_MILLIS and the
            // others with local times too; a schema copied from their files keeps it.
            (given, logical) if utc_twin(logical) == Some(given) => Ok(Some(given)),
            _ => Err("a converted type that contradicts the logical type"),
        }
    }

    /// Appends the field's schema elements, depth first, checking what the reader would
    /// let pass but a writer must not write. `depth` is the field's (1 for a top-level
    /// one), checked before going deeper.
    fn flatten(
        &self,
        elements: &mut Vec<thrift::SchemaElement<'static>>,
        depth: usize,
        limits: &Limits,
    ) -> Result<()> {
        if depth > limits.max_schema_depth() {
            return Err(Error::limit(
                "schema depth",
                depth as u64,
                limits.max_schema_depth() as u64,
            ));
        }
        let index = elements.len();
        let fail = |what| schema_error(index, &self.name, what);
        if self.name.is_empty() {
            return Err(fail("a field without a name"));
        }
        let converted = self.written_converted_type().map_err(fail)?;
        // What the field means: MAP_KEY_VALUE, the legacy mark of a map's repeated group,
        // adds nothing to check.
        let meaning = match (&self.logical_type, converted) {
            (LogicalType::None, Some(ConvertedType::MapKeyValue)) => LogicalType::None,
            (LogicalType::None, Some(converted)) => converted.logical(None, None),
            (logical, _) => logical.clone(),
        };
        if matches!(meaning, LogicalType::Other) {
            return Err(fail("an annotation this library cannot write"));
        }
        let (scale, precision) = match meaning {
            LogicalType::Decimal { scale, precision } => (Some(scale), Some(precision)),
            _ => (None, None),
        };
        let mut element = thrift::SchemaElement {
            repetition_type: Some(self.repetition.to_thrift()),
            name: Cow::Owned(self.name.clone()),
            converted_type: converted.map(ConvertedType::to_thrift),
            scale,
            precision,
            field_id: self.field_id,
            logical_type: self.logical_type.to_thrift(),
            ..thrift::SchemaElement::default()
        };
        match &self.kind {
            Kind::Primitive {
                physical,
                type_length,
            } => {
                let fixed = *physical == PhysicalType::FixedLenByteArray;
                if fixed && *type_length == 0 {
                    return Err(fail("a FIXED_LEN_BYTE_ARRAY of length 0"));
                }
                let Ok(length) = i32::try_from(*type_length) else {
                    return Err(fail("a FIXED_LEN_BYTE_ARRAY longer than 2^31 - 1 bytes"));
                };
                if let LogicalType::Decimal { scale, precision } = meaning {
                    check_decimal(*physical, *type_length, scale, precision).map_err(fail)?;
                }
                if !meaning.fits(*physical, *type_length) {
                    return Err(fail(
                        "an annotation that does not apply to the physical type",
                    ));
                }
                element.type_ = Some(thrift_type(*physical));
                element.type_length = fixed.then_some(length);
                elements.push(element);
            }
            Kind::Group(fields) => {
                if !matches!(
                    meaning,
                    LogicalType::None
                        | LogicalType::List
                        | LogicalType::Map
                        | LogicalType::Variant { .. }
                ) {
                    return Err(fail("an annotation that does not apply to a group"));
                }
                if meaning == LogicalType::List {
                    check_list(fields).map_err(fail)?;
                }
                if meaning == LogicalType::Map {
                    check_map(fields).map_err(fail)?;
                }
                let Ok(count) = i32::try_from(fields.len()) else {
                    return Err(fail("a group of more than 2^31 - 1 fields"));
                };
                element.num_children = Some(count);
                elements.push(element);
                for field in fields {
                    field.flatten(elements, depth + 1, limits)?;
                }
            }
        }
        Ok(())
    }
}

/// A LIST group holds one repeated field, whose element is not itself repeated.
/// The converted type of a TIME or TIMESTAMP as if it were adjusted to UTC.
fn utc_twin(logical: &LogicalType) -> Option<ConvertedType> {
    match *logical {
        LogicalType::Time { unit, .. } => LogicalType::Time { unit, utc: true },
        LogicalType::Timestamp { unit, .. } => LogicalType::Timestamp { unit, utc: true },
        _ => return None,
    }
    .converted_type()
}

fn check_list(fields: &[SchemaField]) -> Result<(), &'static str> {
    let [repeated] = fields else {
        return Err("a LIST that does not hold exactly one field");
    };
    if repeated.repetition != Repetition::Repeated {
        return Err("a LIST whose field is not repeated");
    }
    if let Kind::Group(inner) = &repeated.kind
        && let [element] = inner.as_slice()
        && element.repetition == Repetition::Repeated
    {
        return Err("a LIST whose element is repeated");
    }
    Ok(())
}

/// A MAP group holds one repeated group of a required key and at most one value.
fn check_map(fields: &[SchemaField]) -> Result<(), &'static str> {
    let [key_value] = fields else {
        return Err("a MAP that does not hold exactly one field");
    };
    let Kind::Group(entries) = &key_value.kind else {
        return Err("a MAP whose field is not a group");
    };
    if key_value.repetition != Repetition::Repeated {
        return Err("a MAP whose key-value group is not repeated");
    }
    match entries.as_slice() {
        [key] | [key, _] if key.repetition == Repetition::Required => Ok(()),
        [_] | [_, _] => Err("a MAP whose key is not required"),
        _ => Err("a MAP whose key-value group holds more than a key and a value"),
    }
}

impl Schema {
    /// The schema of a message named `name` (`schema`, by the convention of most writers)
    /// with these top-level fields, checked as a footer's schema is when read (names
    /// unique among siblings, groups not empty, the default [`Limits`] of depth and
    /// width), and as a writer must be: every annotation applies to its field (a STRING is
    /// a BYTE_ARRAY, a UUID 16 bytes, a DECIMAL's precision fits its type), LIST and MAP
    /// groups have the shape parquet-format gives them, converted types agree with the
    /// logical types they stand beside.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Schema`](crate::ErrorKind::Schema) naming the element (its position
    /// in the depth-first list, the root being 0) and the rule it breaks, or
    /// [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded).
    pub fn try_new(
        name: impl Into<String>,
        fields: impl IntoIterator<Item = SchemaField>,
    ) -> Result<Self> {
        let fields: Vec<_> = fields.into_iter().collect();
        let mut elements = vec![thrift::SchemaElement {
            name: Cow::Owned(name.into()),
            num_children: Some(i32::try_from(fields.len()).unwrap_or(i32::MAX)),
            ..thrift::SchemaElement::default()
        }];
        let limits = Limits::default();
        for field in &fields {
            field.flatten(&mut elements, 1, &limits)?;
        }
        Self::try_from_elements(&elements, &limits)
    }
}
