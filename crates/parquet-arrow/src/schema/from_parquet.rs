//! The Arrow schema of a Parquet schema, as arrow-rs and pyarrow map it, with the stored
//! `ARROW:schema` (when present and it fits) choosing among the Arrow types a Parquet
//! type can be read as.

use std::sync::Arc;

use arrow_schema::{DataType, Field, FieldRef, Fields, Schema as ArrowSchema, TimeUnit};
use parquet_file::{
    ColumnDescriptor, KeyValue, LogicalType, Node, NodeKind, PhysicalType, Repetition, Schema,
    TimeUnit as ParquetTimeUnit,
};

use super::stored::{ARROW_SCHEMA_META_KEY, decode_arrow_schema};
use crate::error::{Result, unsupported};

/// The field metadata key of a Parquet field id, as arrow-rs and pyarrow name it.
pub(crate) const FIELD_ID_KEY: &str = "PARQUET:field_id";

/// The Arrow schema of a Parquet file's `schema`, honouring the `ARROW:schema` of its
/// `key_value` metadata where it names a type the Parquet type can be read as (large,
/// view and dictionary strings, time zones, durations, fixed-size lists, ...). The other
/// key-value pairs become the schema's metadata.
///
/// # Errors
///
/// A Parquet type that has no Arrow type (such as INTERVAL in a byte array of another
/// width).
pub fn parquet_to_arrow_schema(
    schema: &Schema,
    key_value: Option<&[KeyValue]>,
) -> Result<ArrowSchema> {
    let all = vec![true; schema.columns().len()];
    let shapes = shape_of(schema, &all, key_value)?;
    Ok(schema_of(&shapes, key_value))
}

/// The Arrow schema of `shapes`, with the file's key-value metadata (and the stored
/// schema's own metadata).
pub(crate) fn schema_of(shapes: &[ArrowShape], key_value: Option<&[KeyValue]>) -> ArrowSchema {
    let mut metadata = stored_schema(key_value)
        .map(|s| s.metadata)
        .unwrap_or_default();
    for kv in key_value.unwrap_or_default() {
        if kv.key != ARROW_SCHEMA_META_KEY
            && let Some(value) = &kv.value
            && !metadata.contains_key(&kv.key)
        {
            metadata.insert(kv.key.clone(), value.clone());
        }
    }
    ArrowSchema::new_with_metadata(
        shapes
            .iter()
            .map(|s| Arc::clone(&s.field))
            .collect::<Fields>(),
        metadata,
    )
}

/// How one Arrow field is read: its field, and where its validity, offsets and values
/// come from in the leaves' levels.
#[derive(Debug, Clone)]
pub(crate) struct ArrowShape {
    /// The Arrow field (its data type says which array to build).
    pub(crate) field: FieldRef,
    /// The leaves it is read from.
    pub(crate) kind: ShapeKind,
}

/// The shape of a field's levels.
#[derive(Debug, Clone)]
pub(crate) enum ShapeKind {
    /// A leaf column (index in the Parquet schema's columns): a value where the
    /// definition level is its maximum.
    Leaf { column: usize },
    /// A struct: valid where the definition level reaches `def`.
    Struct { def: u16, children: Vec<ArrowShape> },
    /// A list or map: valid where the definition level reaches `def`, holding elements
    /// where it reaches `elem_def`; an element starts at each entry whose repetition
    /// level is `rep`.
    List {
        def: u16,
        elem_def: u16,
        rep: u16,
        child: Box<ArrowShape>,
    },
}

impl ArrowShape {
    /// The leaf columns under this field, in file order.
    pub(crate) fn columns(&self, out: &mut Vec<usize>) {
        match &self.kind {
            ShapeKind::Leaf { column } => out.push(*column),
            ShapeKind::Struct { children, .. } => {
                for child in children {
                    child.columns(out);
                }
            }
            ShapeKind::List { child, .. } => child.columns(out),
        }
    }
}

/// The stored Arrow schema of `key_value`, when there is one that decodes.
fn stored_schema(key_value: Option<&[KeyValue]>) -> Option<ArrowSchema> {
    let value = key_value?
        .iter()
        .find(|kv| kv.key == ARROW_SCHEMA_META_KEY)?
        .value
        .as_deref()?;
    // A stored schema that does not decode is ignored, as arrow-rs and pyarrow do: the
    // Parquet schema alone still reads the file.
    decode_arrow_schema(value).ok()
}

/// The shapes of the top-level fields of `schema` that have a leaf among `selected`
/// (one flag per column), with the types of the stored schema of `key_value` where they
/// fit. A struct keeps only its children with selected leaves; a map is read whole.
pub(crate) fn shape_of(
    schema: &Schema,
    selected: &[bool],
    key_value: Option<&[KeyValue]>,
) -> Result<Vec<ArrowShape>> {
    let stored = stored_schema(key_value);
    // Children follow their parents in the footer's depth-first order: one pass from the
    // end marks the ancestors of the selected leaves, one from the start everything
    // under a marked map.
    let nodes = schema.nodes();
    let mut wanted = vec![false; nodes.len()];
    for (i, node) in nodes.iter().enumerate().rev() {
        let leaf = matches!(node.kind, NodeKind::Primitive { column } if selected.get(column).copied().unwrap_or(false));
        let here = leaf || wanted.get(i).copied().unwrap_or(false);
        if let Some(w) = wanted.get_mut(i) {
            *w = here;
        }
        if here && let Some(w) = node.parent.and_then(|p| wanted.get_mut(p)) {
            *w = true;
        }
    }
    let mut whole = vec![false; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        let under = node
            .parent
            .is_some_and(|p| whole.get(p).copied().unwrap_or(false));
        let here = wanted.get(i).copied().unwrap_or(false);
        if let (Some(w), Some(h)) = (wanted.get_mut(i), whole.get_mut(i)) {
            *w = here || under;
            *h = under || (here && node.logical_type == LogicalType::Map);
        }
    }
    let mapper = Mapper { schema, wanted };
    let hints: Option<&Fields> = stored.as_ref().map(ArrowSchema::fields);
    schema
        .children(0)
        .iter()
        .filter(|&&c| mapper.wanted[c])
        .map(|&c| {
            let node = mapper.node(c)?;
            let hint = hints.and_then(|h| find(h, &node.name));
            mapper.field(c, hint)
        })
        .collect()
}

/// The field named `name` of `fields`.
fn find<'a>(fields: &'a Fields, name: &str) -> Option<&'a FieldRef> {
    fields.iter().find(|f| f.name() == name)
}

struct Mapper<'a> {
    schema: &'a Schema,
    /// Whether a node has a selected leaf.
    wanted: Vec<bool>,
}

impl Mapper<'_> {
    fn node(&self, index: usize) -> Result<&Node> {
        self.schema
            .node(index)
            .ok_or_else(|| unsupported(format!("schema node {index} is missing")))
    }

    /// A field as its parent sees it: a repeated field outside LIST and MAP is a list of
    /// its (required) values.
    fn field(&self, index: usize, hint: Option<&FieldRef>) -> Result<ArrowShape> {
        let node = self.node(index)?;
        if node.repetition == Repetition::Repeated {
            let element_hint = hint.and_then(|h| list_child(h.data_type()));
            let element = self.base(index, &node.name, false, element_hint)?;
            return Ok(Self::list_shape(
                &node.name,
                node,
                node.def_level - 1,
                node,
                element,
                hint,
                false,
            ));
        }
        self.base(
            index,
            &node.name,
            node.repetition == Repetition::Optional,
            hint,
        )
    }

    /// A field's value, named `name`, nullable or not.
    fn base(
        &self,
        index: usize,
        name: &str,
        nullable: bool,
        hint: Option<&FieldRef>,
    ) -> Result<ArrowShape> {
        let node = self.node(index)?;
        let children = match &node.kind {
            NodeKind::Primitive { column } => {
                let descriptor = self.schema.column(*column)?;
                let natural = leaf_type(descriptor)?;
                let data_type = match hint {
                    Some(h) if leaf_hint_fits(&natural, h.data_type()) => {
                        hinted_type(&natural, h.data_type())
                    }
                    _ => natural,
                };
                let mut field = make_field(name, data_type, nullable, node, hint);
                if hint.is_none()
                    && let Some(extension) = extension_name(&descriptor.logical_type)
                {
                    let mut f = field.as_ref().clone();
                    f.metadata_mut()
                        .insert(EXTENSION_NAME_KEY.to_owned(), extension.to_owned());
                    f.metadata_mut()
                        .insert(EXTENSION_METADATA_KEY.to_owned(), String::new());
                    field = Arc::new(f);
                }
                return Ok(ArrowShape {
                    field,
                    kind: ShapeKind::Leaf { column: *column },
                });
            }
            NodeKind::Group { children } => children,
        };
        let is_map = node.logical_type == LogicalType::Map;
        if let [repeated] = children.as_slice()
            && (node.logical_type == LogicalType::List || is_map)
            && let Ok(r) = self.node(*repeated)
            && r.repetition == Repetition::Repeated
        {
            if is_map && let Some(map) = self.map(node, name, nullable, *repeated, hint)? {
                return Ok(map);
            }
            return self.list(node, name, nullable, *repeated, hint);
        }
        let hint_fields = hint.and_then(|h| match h.data_type() {
            DataType::Struct(fields) => Some(fields),
            _ => None,
        });
        let children = children
            .iter()
            .filter(|&&c| self.wanted.get(c).copied().unwrap_or(false))
            .map(|&c| {
                let child = self.node(c)?;
                self.field(c, hint_fields.and_then(|f| find(f, &child.name)))
            })
            .collect::<Result<Vec<_>>>()?;
        let fields: Fields = children.iter().map(|c| Arc::clone(&c.field)).collect();
        Ok(ArrowShape {
            field: make_field(name, DataType::Struct(fields), nullable, node, hint),
            kind: ShapeKind::Struct {
                def: node.def_level,
                children,
            },
        })
    }

    /// A LIST-annotated group `list` around the repeated field `repeated`, by the
    /// backward-compatibility rules of LogicalTypes.md (as parquet-file assembles rows).
    fn list(
        &self,
        list: &Node,
        name: &str,
        nullable: bool,
        repeated: usize,
        hint: Option<&FieldRef>,
    ) -> Result<ArrowShape> {
        let r = self.node(repeated)?;
        let element_hint = hint.and_then(|h| list_child(h.data_type()));
        let element = match &r.kind {
            NodeKind::Primitive { .. } => self.base(repeated, &r.name, false, element_hint)?,
            NodeKind::Group { children } => {
                let legacy_name = r.name == "array" || r.name == format!("{}_tuple", list.name);
                match children.as_slice() {
                    [element] if !legacy_name => self.field(*element, element_hint)?,
                    _ => self.base(repeated, &r.name, false, element_hint)?,
                }
            }
        };
        Ok(Self::list_shape(
            name,
            list,
            list.def_level,
            r,
            element,
            hint,
            nullable,
        ))
    }

    /// A MAP-annotated group's key/value group `repeated`, when it has that shape; a
    /// key/value group of one field is a list of its keys, as Arrow reads it.
    fn map(
        &self,
        map: &Node,
        name: &str,
        nullable: bool,
        repeated: usize,
        hint: Option<&FieldRef>,
    ) -> Result<Option<ArrowShape>> {
        let r = self.node(repeated)?;
        let NodeKind::Group { children } = &r.kind else {
            return Ok(None);
        };
        let (key, value) = match children.as_slice() {
            [key] => {
                let key = self.field(*key, hint.and_then(|h| list_child(h.data_type())))?;
                return Ok(Some(Self::list_shape(
                    name,
                    map,
                    map.def_level,
                    r,
                    key,
                    hint,
                    nullable,
                )));
            }
            [key, value] => (*key, *value),
            _ => return Ok(None),
        };
        let hint_entries = hint.and_then(|h| match h.data_type() {
            DataType::Map(entries, _) => match entries.data_type() {
                DataType::Struct(f) if f.len() == 2 => Some(f),
                _ => None,
            },
            _ => None,
        });
        let key = self.field(key, hint_entries.map(|f| &f[0]))?;
        let value = self.field(value, hint_entries.map(|f| &f[1]))?;
        // A map's keys are never null in Arrow.
        let key = ArrowShape {
            field: Arc::new(key.field.as_ref().clone().with_nullable(false)),
            ..key
        };
        let fields: Fields = [&key, &value].map(|s| Arc::clone(&s.field)).into();
        let entries = ArrowShape {
            // Named after the map, as pyarrow names it, whatever a stored schema says.
            field: Arc::new(Field::new(&map.name, DataType::Struct(fields), false)),
            kind: ShapeKind::Struct {
                def: r.def_level,
                children: vec![key, value],
            },
        };
        let sorted = hint.is_some_and(|h| matches!(h.data_type(), DataType::Map(_, true)));
        let data_type = DataType::Map(Arc::clone(&entries.field), sorted);
        Ok(Some(ArrowShape {
            field: make_field(name, data_type, nullable, map, hint),
            kind: ShapeKind::List {
                def: map.def_level,
                elem_def: r.def_level,
                rep: r.rep_level,
                child: Box::new(entries),
            },
        }))
    }

    /// A list field around `element`: `outer` is the node that names it (the LIST group,
    /// or the repeated field itself), valid at `def`; `r` the repeated node.
    #[allow(clippy::too_many_arguments)]
    fn list_shape(
        name: &str,
        outer: &Node,
        def: u16,
        r: &Node,
        element: ArrowShape,
        hint: Option<&FieldRef>,
        nullable: bool,
    ) -> ArrowShape {
        let child = Arc::clone(&element.field);
        let data_type = match hint.map(|h| h.data_type()) {
            Some(DataType::LargeList(_)) => DataType::LargeList(child),
            Some(DataType::ListView(_)) => DataType::ListView(child),
            Some(DataType::LargeListView(_)) => DataType::LargeListView(child),
            Some(DataType::FixedSizeList(_, n)) if *n >= 0 => DataType::FixedSizeList(child, *n),
            _ => DataType::List(child),
        };
        ArrowShape {
            field: make_field(name, data_type, nullable, outer, hint),
            kind: ShapeKind::List {
                def,
                elem_def: r.def_level,
                rep: r.rep_level,
                child: Box::new(element),
            },
        }
    }
}

/// The element field of a list type.
fn list_child(data_type: &DataType) -> Option<&FieldRef> {
    match data_type {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::FixedSizeList(f, _)
        | DataType::ListView(f)
        | DataType::LargeListView(f) => Some(f),
        _ => None,
    }
}

/// An Arrow field of `node`: its field id as metadata, and the stored field's metadata.
fn make_field(
    name: &str,
    data_type: DataType,
    nullable: bool,
    node: &Node,
    hint: Option<&FieldRef>,
) -> FieldRef {
    let mut metadata = hint.map(|h| h.metadata().clone()).unwrap_or_default();
    if let Some(id) = node.field_id {
        metadata.insert(FIELD_ID_KEY.to_owned(), id.to_string());
    }
    Arc::new(Field::new(name, data_type, nullable).with_metadata(metadata))
}

/// The Arrow type of a leaf column, as pyarrow reads it without a stored schema.
pub(crate) fn leaf_type(column: &ColumnDescriptor) -> Result<DataType> {
    use PhysicalType as P;
    let unit = |u: ParquetTimeUnit| match u {
        ParquetTimeUnit::Millis => TimeUnit::Millisecond,
        ParquetTimeUnit::Micros => TimeUnit::Microsecond,
        ParquetTimeUnit::Nanos => TimeUnit::Nanosecond,
    };
    let decimal = |precision: i32, scale: i32| -> Result<DataType> {
        let p = u8::try_from(precision)
            .ok()
            .filter(|p| (1..=76).contains(p))
            .ok_or_else(|| unsupported(format!("DECIMAL of precision {precision}")))?;
        let s =
            i8::try_from(scale).map_err(|_| unsupported(format!("DECIMAL of scale {scale}")))?;
        Ok(if p <= 38 {
            DataType::Decimal128(p, s)
        } else {
            DataType::Decimal256(p, s)
        })
    };
    Ok(match (column.physical_type, &column.logical_type) {
        (_, LogicalType::Unknown) => DataType::Null,
        (P::Boolean, _) => DataType::Boolean,
        (
            P::Int32 | P::Int64 | P::FixedLenByteArray | P::ByteArray,
            LogicalType::Decimal { scale, precision },
        ) => decimal(*precision, *scale)?,
        (P::Int32, LogicalType::Integer { bits, signed }) => match (bits, signed) {
            (8, true) => DataType::Int8,
            (16, true) => DataType::Int16,
            (8, false) => DataType::UInt8,
            (16, false) => DataType::UInt16,
            (32, false) => DataType::UInt32,
            _ => DataType::Int32,
        },
        (P::Int32, LogicalType::Date) => DataType::Date32,
        (
            P::Int32,
            LogicalType::Time {
                unit: ParquetTimeUnit::Millis,
                ..
            },
        ) => DataType::Time32(TimeUnit::Millisecond),
        (P::Int32, _) => DataType::Int32,
        (
            P::Int64,
            LogicalType::Integer {
                bits: 64,
                signed: false,
            },
        ) => DataType::UInt64,
        (P::Int64, LogicalType::Time { unit: u, .. }) if *u != ParquetTimeUnit::Millis => {
            DataType::Time64(unit(*u))
        }
        (P::Int64, LogicalType::Timestamp { unit: u, utc }) => {
            DataType::Timestamp(unit(*u), utc.then(|| "UTC".into()))
        }
        (P::Int64, _) => DataType::Int64,
        (P::Int96, _) => DataType::Timestamp(TimeUnit::Nanosecond, None),
        (P::Float, _) => DataType::Float32,
        (P::Double, _) => DataType::Float64,
        // ENUM is bytes to pyarrow (arrow-rs reads text).
        (P::ByteArray, LogicalType::String | LogicalType::Json) => DataType::Utf8,
        (P::ByteArray, _) => DataType::Binary,
        (P::FixedLenByteArray, LogicalType::Float16) if column.type_length == 2 => {
            DataType::Float16
        }
        (P::FixedLenByteArray, _) => {
            let width = i32::try_from(column.type_length).map_err(|_| {
                unsupported(format!("FIXED_LEN_BYTE_ARRAY({})", column.type_length))
            })?;
            DataType::FixedSizeBinary(width)
        }
    })
}

/// The field metadata keys of an Arrow extension type.
const EXTENSION_NAME_KEY: &str = "ARROW:extension:name";
const EXTENSION_METADATA_KEY: &str = "ARROW:extension:metadata";

/// The Arrow extension type pyarrow reads a logical type as (without a stored schema).
fn extension_name(logical: &LogicalType) -> Option<&'static str> {
    match logical {
        LogicalType::Uuid => Some("arrow.uuid"),
        LogicalType::Json => Some("arrow.json"),
        _ => None,
    }
}

/// The type a leaf read as `natural` is given when the stored type `hint` fits it, as
/// pyarrow gives it: a timestamp keeps the file's unit and takes the stored time zone;
/// Date64 and Time32 seconds stay as stored (Date32, Time32 milliseconds); a dictionary
/// holds 32-bit strings and binaries.
fn hinted_type(natural: &DataType, hint: &DataType) -> DataType {
    use DataType as D;
    match (natural, hint) {
        // An instant in UTC takes the stored zone (pyarrow's "UTC" when there is none);
        // a local date and time (and INT96) stays without one.
        (D::Timestamp(unit, Some(utc)), D::Timestamp(_, tz)) => {
            D::Timestamp(*unit, Some(tz.clone().unwrap_or_else(|| utc.clone())))
        }
        (D::Timestamp(..), D::Timestamp(..))
        | (D::Date32, D::Date64)
        | (D::Time32(_), D::Time32(_)) => natural.clone(),
        (_, D::Dictionary(key, value)) => {
            let value = match value.as_ref() {
                D::LargeUtf8 => D::Utf8,
                D::LargeBinary => D::Binary,
                other => other.clone(),
            };
            D::Dictionary(key.clone(), Box::new(value))
        }
        _ => hint.clone(),
    }
}

/// Whether a leaf read as `natural` can be given the stored type `hint`.
fn leaf_hint_fits(natural: &DataType, hint: &DataType) -> bool {
    use DataType as D;
    if natural == hint {
        return true;
    }
    match (natural, hint) {
        (D::Utf8, D::LargeUtf8 | D::Utf8View)
        | (D::Binary, D::LargeBinary | D::BinaryView)
        | (D::Int32, D::Date32 | D::Time32(_))
        | (D::Date32, D::Date64)
        | (D::Time32(TimeUnit::Millisecond), D::Time32(TimeUnit::Second))
        | (D::Timestamp(..), D::Timestamp(..))
        | (D::Int64, D::Duration(_) | D::Date64)
        | (D::Int64 | D::Time64(_), D::Time64(_))
        | (D::FixedSizeBinary(2), D::Float16) => true,
        (D::Decimal128(p, s) | D::Decimal256(p, s), hint) => match hint {
            D::Decimal32(hp, hs)
            | D::Decimal64(hp, hs)
            | D::Decimal128(hp, hs)
            | D::Decimal256(hp, hs) => hp == p && hs == s,
            _ => false,
        },
        (D::Utf8 | D::Binary, D::Dictionary(key, value)) => {
            key.is_dictionary_key_type()
                && matches!(
                    (natural, value.as_ref()),
                    (D::Utf8, D::Utf8 | D::LargeUtf8) | (D::Binary, D::Binary | D::LargeBinary)
                )
        }
        _ => false,
    }
}
