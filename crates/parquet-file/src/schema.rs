//! The schema tree, rebuilt from the footer's flat, depth-first list of schema elements,
//! with each leaf column's path, levels and logical type.

use std::fmt;

use parquet_thrift::{
    ConvertedType, FieldRepetitionType, SchemaElement, TimeUnit as ThriftUnit, Type,
};

use crate::error::{Error, Result};

/// The deepest nesting a schema may have. Each level of nesting costs a definition or
/// repetition level; real schemas stay far below this.
pub const MAX_DEPTH: usize = 64;

/// How often a field occurs in its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Exactly once.
    Required,
    /// Zero or one time.
    Optional,
    /// Any number of times.
    Repeated,
}

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
}

/// What a field's values mean: the logical type annotation, or the legacy converted type
/// mapped to its logical equivalent when the element has no logical type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum LogicalType {
    /// No annotation: the physical type is the meaning.
    #[default]
    None,
    /// UTF-8 text.
    String,
    /// An enum's name, as text.
    Enum,
    /// A JSON document, as text.
    Json,
    /// A BSON document.
    Bson,
    /// A 16-byte UUID.
    Uuid,
    /// An IEEE 754 half-precision float in a 2-byte FIXED_LEN_BYTE_ARRAY.
    Float16,
    /// A decimal number: an unscaled integer and a scale.
    Decimal {
        /// Digits after the point.
        scale: i32,
        /// Digits in all.
        precision: i32,
    },
    /// Days since the Unix epoch.
    Date,
    /// Time of day.
    Time {
        /// The unit.
        unit: TimeUnit,
        /// Whether the time is in UTC.
        utc: bool,
    },
    /// A point in time.
    Timestamp {
        /// The unit.
        unit: TimeUnit,
        /// Whether the value counts from the Unix epoch in UTC (an instant) rather than
        /// being a local date and time.
        utc: bool,
    },
    /// An integer of a given width and signedness.
    Integer {
        /// 8, 16, 32 or 64.
        bits: u8,
        /// Whether the integer is signed.
        signed: bool,
    },
    /// The legacy INTERVAL: months, days and milliseconds in a 12-byte array.
    Interval,
    /// A list (on a group).
    List,
    /// A map (on a group).
    Map,
    /// A field that is always null.
    Unknown,
    /// Another annotation (VARIANT, GEOMETRY, GEOGRAPHY, or one newer than this reader):
    /// the values are read as their physical type.
    Other,
}

impl LogicalType {
    fn from_element(element: &SchemaElement<'_>) -> Self {
        use parquet_thrift::LogicalType as L;
        let unit = |unit: &ThriftUnit| match unit {
            ThriftUnit::Millis(_) => TimeUnit::Millis,
            ThriftUnit::Micros(_) => TimeUnit::Micros,
            _ => TimeUnit::Nanos,
        };
        if let Some(logical) = &element.logical_type {
            return match logical {
                L::String(_) => Self::String,
                L::Map(_) => Self::Map,
                L::List(_) => Self::List,
                L::Enum(_) => Self::Enum,
                L::Decimal(d) => Self::Decimal {
                    scale: d.scale,
                    precision: d.precision,
                },
                L::Date(_) => Self::Date,
                L::Time(t) if !matches!(t.unit, ThriftUnit::Unrecognized(_)) => Self::Time {
                    unit: unit(&t.unit),
                    utc: t.is_adjusted_to_utc,
                },
                L::Timestamp(t) if !matches!(t.unit, ThriftUnit::Unrecognized(_)) => {
                    Self::Timestamp {
                        unit: unit(&t.unit),
                        utc: t.is_adjusted_to_utc,
                    }
                }
                L::Integer(i) => match u8::try_from(i.bit_width) {
                    Ok(bits @ (8 | 16 | 32 | 64)) => Self::Integer {
                        bits,
                        signed: i.is_signed,
                    },
                    _ => Self::Other,
                },
                L::Unknown(_) => Self::Unknown,
                L::Json(_) => Self::Json,
                L::Bson(_) => Self::Bson,
                L::Uuid(_) => Self::Uuid,
                L::Float16(_) => Self::Float16,
                _ => Self::Other,
            };
        }
        let Some(converted) = element.converted_type else {
            return Self::None;
        };
        let int = |bits, signed| Self::Integer { bits, signed };
        match converted {
            ConvertedType::UTF8 => Self::String,
            ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE => Self::Map,
            ConvertedType::LIST => Self::List,
            ConvertedType::ENUM => Self::Enum,
            ConvertedType::DECIMAL => Self::Decimal {
                scale: element.scale.unwrap_or(0),
                precision: element.precision.unwrap_or(0),
            },
            ConvertedType::DATE => Self::Date,
            ConvertedType::TIME_MILLIS => Self::Time {
                unit: TimeUnit::Millis,
                utc: true,
            },
            ConvertedType::TIME_MICROS => Self::Time {
                unit: TimeUnit::Micros,
                utc: true,
            },
            ConvertedType::TIMESTAMP_MILLIS => Self::Timestamp {
                unit: TimeUnit::Millis,
                utc: true,
            },
            ConvertedType::TIMESTAMP_MICROS => Self::Timestamp {
                unit: TimeUnit::Micros,
                utc: true,
            },
            ConvertedType::UINT_8 => int(8, false),
            ConvertedType::UINT_16 => int(16, false),
            ConvertedType::UINT_32 => int(32, false),
            ConvertedType::UINT_64 => int(64, false),
            ConvertedType::INT_8 => int(8, true),
            ConvertedType::INT_16 => int(16, true),
            ConvertedType::INT_32 => int(32, true),
            ConvertedType::INT_64 => int(64, true),
            ConvertedType::JSON => Self::Json,
            ConvertedType::BSON => Self::Bson,
            ConvertedType::INTERVAL => Self::Interval,
            _ => Self::Other,
        }
    }

    /// Whether the annotation can apply to a leaf of `physical` type (of `length` bytes
    /// for FIXED_LEN_BYTE_ARRAY). Annotations that cannot are ignored by the reader
    /// rather than trusted, except DECIMAL, whose misuse is an error.
    fn fits(self, physical: Type, length: usize) -> bool {
        match self {
            Self::None | Self::Unknown | Self::Other => true,
            Self::String | Self::Enum | Self::Json | Self::Bson => physical == Type::BYTE_ARRAY,
            Self::Uuid => physical == Type::FIXED_LEN_BYTE_ARRAY && length == 16,
            Self::Float16 => physical == Type::FIXED_LEN_BYTE_ARRAY && length == 2,
            Self::Interval => physical == Type::FIXED_LEN_BYTE_ARRAY && length == 12,
            Self::Decimal { .. } => matches!(
                physical,
                Type::INT32 | Type::INT64 | Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY
            ),
            Self::Date => physical == Type::INT32,
            Self::Time { unit, .. } => {
                physical
                    == if unit == TimeUnit::Millis {
                        Type::INT32
                    } else {
                        Type::INT64
                    }
            }
            Self::Timestamp { .. } => physical == Type::INT64,
            Self::Integer { bits, .. } => {
                physical == if bits == 64 { Type::INT64 } else { Type::INT32 }
            }
            Self::List | Self::Map => false,
        }
    }
}

/// A column's path from the root: the names of the fields on the way to the leaf.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnPath(pub Vec<String>);

impl ColumnPath {
    /// The path's parts.
    pub fn parts(&self) -> &[String] {
        &self.0
    }

    /// Whether the path starts with `prefix` (a whole-part prefix: `a.b` starts `a.b.c`
    /// but not `a.bc`).
    pub fn starts_with(&self, prefix: &[&str]) -> bool {
        prefix.len() <= self.0.len() && self.0.iter().zip(prefix).all(|(a, b)| a == b)
    }
}

impl fmt::Display for ColumnPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join("."))
    }
}

/// A field of the schema: a group or a primitive (leaf).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The field's name.
    pub name: String,
    /// How often the field occurs (the root is `Required`).
    pub repetition: Repetition,
    /// The logical type (or the converted type mapped to one).
    pub logical_type: LogicalType,
    /// The legacy converted type, as written.
    pub converted_type: Option<ConvertedType>,
    /// The field id, when the writer gave one.
    pub field_id: Option<i32>,
    /// The definition level of a present value of this field: how many optional or
    /// repeated fields are on the path from the root, this one included.
    pub def_level: u16,
    /// The repetition level of this field: how many repeated fields are on the path.
    pub rep_level: u16,
    /// The parent node's index (`None` for the root).
    pub parent: Option<usize>,
    /// What the field holds.
    pub kind: NodeKind,
}

/// A group's children, or a leaf's column.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A group of fields.
    Group {
        /// Indices of the child nodes, in order.
        children: Vec<usize>,
    },
    /// A leaf: one column.
    Primitive {
        /// The index of the column in [`Schema::columns`].
        column: usize,
    },
}

/// A leaf column: everything the reader needs to decode and interpret its values.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnDescriptor {
    /// The path from the root.
    pub path: ColumnPath,
    /// The path as one dotted string.
    pub name: String,
    /// The physical type.
    pub physical_type: Type,
    /// The length of a FIXED_LEN_BYTE_ARRAY value (0 for other types).
    pub type_length: usize,
    /// The logical type (or converted type mapped to one); `None` when the annotation does
    /// not fit the physical type.
    pub logical_type: LogicalType,
    /// The largest definition level: a value is present (not null) at this level.
    pub max_def_level: u16,
    /// The largest repetition level.
    pub max_rep_level: u16,
    /// The index of the leaf's node in [`Schema::nodes`].
    pub node: usize,
}

/// The schema: a tree of [`Node`]s whose root is node 0, and its leaves as
/// [`ColumnDescriptor`]s in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    nodes: Vec<Node>,
    columns: Vec<ColumnDescriptor>,
}

fn invalid(index: usize, what: impl fmt::Display) -> Error {
    Error::invalid(format!("invalid schema element {index}: {what}"))
}

impl Schema {
    /// Rebuilds the tree from the flat list of a footer, and checks it: child counts that
    /// add up exactly, a depth of at most [`MAX_DEPTH`], a physical type on every leaf, a
    /// length on every FIXED_LEN_BYTE_ARRAY, no group without children (but the root),
    /// distinct names among siblings, and DECIMAL scales and precisions that fit their
    /// physical type.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) naming the element that breaks a
    /// rule.
    #[allow(clippy::too_many_lines)] // one pass over the list, with a check per rule
    pub fn try_from_elements(elements: &[SchemaElement<'_>]) -> Result<Self> {
        let Some(root) = elements.first() else {
            return Err(Error::invalid("empty schema: no root element"));
        };
        let root_children = usize::try_from(root.num_children.unwrap_or(0))
            .map_err(|_| invalid(0, "negative number of children"))?;
        if root_children > elements.len() - 1 {
            return Err(invalid(
                0,
                format_args!(
                    "{root_children} children, but only {} elements follow",
                    elements.len() - 1
                ),
            ));
        }
        let mut nodes = Vec::with_capacity(elements.len());
        let mut columns = Vec::new();
        nodes.push(Node {
            name: root.name.to_string(),
            repetition: Repetition::Required,
            logical_type: LogicalType::None,
            converted_type: root.converted_type,
            field_id: root.field_id,
            def_level: 0,
            rep_level: 0,
            parent: None,
            kind: NodeKind::Group {
                children: Vec::with_capacity(root_children),
            },
        });
        // (node index, children still to come)
        let mut stack: Vec<(usize, usize)> = vec![(0, root_children)];
        let mut next = 1;
        while let Some(&mut (parent, ref mut remaining)) = stack.last_mut() {
            if *remaining == 0 {
                stack.pop();
                continue;
            }
            *remaining -= 1;
            let index = next;
            let Some(element) = elements.get(index) else {
                return Err(invalid(
                    index,
                    format_args!(
                        "missing: the schema ends inside group {:?}",
                        nodes[parent].name
                    ),
                ));
            };
            next += 1;
            if stack.len() > MAX_DEPTH {
                return Err(invalid(
                    index,
                    format_args!("nested deeper than {MAX_DEPTH} levels"),
                ));
            }
            let repetition = match element.repetition_type {
                Some(FieldRepetitionType::OPTIONAL) => Repetition::Optional,
                Some(FieldRepetitionType::REPEATED) => Repetition::Repeated,
                Some(FieldRepetitionType::REQUIRED) | None => Repetition::Required,
                Some(other) => {
                    return Err(invalid(
                        index,
                        format_args!("unknown repetition type {}", other.0),
                    ));
                }
            };
            let parent_node = &nodes[parent];
            let def_level = parent_node.def_level + u16::from(repetition != Repetition::Required);
            let rep_level = parent_node.rep_level + u16::from(repetition == Repetition::Repeated);
            let NodeKind::Group { children } = &parent_node.kind else {
                unreachable!("only groups are pushed on the stack")
            };
            if children.iter().any(|&c| nodes[c].name == element.name) {
                return Err(invalid(
                    index,
                    format_args!("a second field named {:?} in the same group", element.name),
                ));
            }
            let num_children = element.num_children.unwrap_or(0);
            let mut logical_type = LogicalType::from_element(element);
            let kind = if num_children > 0
                || (element.type_.is_none() && element.num_children.is_some())
            {
                let count = usize::try_from(num_children).unwrap_or(0);
                if count == 0 {
                    return Err(invalid(
                        index,
                        format_args!("group {:?} has no fields", element.name),
                    ));
                }
                if count > elements.len() - next {
                    return Err(invalid(
                        index,
                        format_args!(
                            "{count} children, but only {} elements follow",
                            elements.len() - next
                        ),
                    ));
                }
                stack.push((index, count));
                NodeKind::Group {
                    children: Vec::with_capacity(count),
                }
            } else {
                let Some(physical_type) = element.type_ else {
                    return Err(invalid(
                        index,
                        format_args!("leaf {:?} has no physical type", element.name),
                    ));
                };
                if physical_type.name().is_none() {
                    return Err(invalid(
                        index,
                        format_args!("unknown physical type {}", physical_type.0),
                    ));
                }
                let type_length = if physical_type == Type::FIXED_LEN_BYTE_ARRAY {
                    usize::try_from(element.type_length.unwrap_or(-1)).map_err(|_| {
                        invalid(index, "FIXED_LEN_BYTE_ARRAY without a valid type_length")
                    })?
                } else {
                    0
                };
                if let LogicalType::Decimal { scale, precision } = logical_type {
                    check_decimal(index, physical_type, type_length, scale, precision)?;
                }
                if !logical_type.fits(physical_type, type_length) {
                    logical_type = LogicalType::None;
                }
                let column = columns.len();
                let mut path: Vec<String> = Vec::with_capacity(stack.len());
                let mut at = Some(parent);
                while let Some(n) = at.filter(|&n| n != 0) {
                    path.push(nodes[n].name.clone());
                    at = nodes[n].parent;
                }
                path.reverse();
                path.push(element.name.to_string());
                let path = ColumnPath(path);
                columns.push(ColumnDescriptor {
                    name: path.to_string(),
                    path,
                    physical_type,
                    type_length,
                    logical_type,
                    max_def_level: def_level,
                    max_rep_level: rep_level,
                    node: index,
                });
                NodeKind::Primitive { column }
            };
            if let NodeKind::Group { children } = &mut nodes[parent].kind {
                children.push(index);
            }
            nodes.push(Node {
                name: element.name.to_string(),
                repetition,
                logical_type,
                converted_type: element.converted_type,
                field_id: element.field_id,
                def_level,
                rep_level,
                parent: Some(parent),
                kind,
            });
        }
        if next != elements.len() {
            return Err(invalid(
                next,
                format_args!(
                    "{} elements after the end of the root's fields",
                    elements.len() - next
                ),
            ));
        }
        Ok(Self { nodes, columns })
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Every node, the root first, in the footer's depth-first order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node at `index`.
    pub fn node(&self, index: usize) -> &Node {
        &self.nodes[index]
    }

    /// The children of a node (empty for a leaf).
    pub fn children(&self, index: usize) -> &[usize] {
        match &self.nodes[index].kind {
            NodeKind::Group { children } => children,
            NodeKind::Primitive { .. } => &[],
        }
    }

    /// The leaf columns in file order.
    pub fn columns(&self) -> &[ColumnDescriptor] {
        &self.columns
    }

    /// The leaf column at `index`.
    pub fn column(&self, index: usize) -> &ColumnDescriptor {
        &self.columns[index]
    }

    /// The index of the column whose dotted path is `path`.
    pub fn column_index(&self, path: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == path)
    }

    /// The leaf columns under the field at `path` (dotted; a leaf's own path selects it,
    /// a group's path every leaf under it), in file order.
    pub fn columns_under(&self, path: &str) -> Vec<usize> {
        let parts: Vec<&str> = path.split('.').collect();
        self.columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.path.starts_with(&parts))
            .map(|(i, _)| i)
            .collect()
    }

    /// The leaf columns under node `index`, in file order.
    pub fn leaves_of(&self, index: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![index];
        while let Some(n) = stack.pop() {
            match &self.nodes[n].kind {
                NodeKind::Primitive { column } => out.push(*column),
                NodeKind::Group { children } => stack.extend(children.iter().rev()),
            }
        }
        out
    }
}

fn check_decimal(
    index: usize,
    physical: Type,
    length: usize,
    scale: i32,
    precision: i32,
) -> Result<()> {
    let max_precision = match physical {
        Type::INT32 => 9,
        Type::INT64 => 18,
        // floor(log10(2^(8n - 1) - 1)) for n bytes, capped where the formula stops
        // mattering (no value that wide is ever exactly representable anyway).
        Type::FIXED_LEN_BYTE_ARRAY => {
            let bits = (length.min(4096) * 8).saturating_sub(1);
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            let digits = (bits as f64 * std::f64::consts::LOG10_2).floor() as i32;
            digits
        }
        _ => i32::MAX,
    };
    if precision < 1 || precision > max_precision {
        return Err(invalid(
            index,
            format_args!(
                "DECIMAL precision {precision} does not fit {physical}{}",
                if physical == Type::FIXED_LEN_BYTE_ARRAY {
                    format!("({length})")
                } else {
                    String::new()
                }
            ),
        ));
    }
    if scale < 0 || scale > precision {
        return Err(invalid(
            index,
            format_args!("DECIMAL scale {scale} outside 0..={precision}"),
        ));
    }
    Ok(())
}

impl fmt::Display for Schema {
    /// The schema in the message syntax of parquet-format (`message schema { ... }`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn annotation(node: &Node, physical: Option<Type>) -> String {
            let t = match node.logical_type {
                LogicalType::None => return String::new(),
                LogicalType::String => "STRING".to_owned(),
                LogicalType::Enum => "ENUM".to_owned(),
                LogicalType::Json => "JSON".to_owned(),
                LogicalType::Bson => "BSON".to_owned(),
                LogicalType::Uuid => "UUID".to_owned(),
                LogicalType::Float16 => "FLOAT16".to_owned(),
                LogicalType::Decimal { scale, precision } => {
                    format!("DECIMAL({precision},{scale})")
                }
                LogicalType::Date => "DATE".to_owned(),
                LogicalType::Time { unit, utc } => format!("TIME({unit:?},{utc})").to_uppercase(),
                LogicalType::Timestamp { unit, utc } => {
                    format!("TIMESTAMP({unit:?},{utc})").to_uppercase()
                }
                LogicalType::Integer { bits, signed } => {
                    format!("INTEGER({bits},{signed})").to_uppercase()
                }
                LogicalType::Interval => "INTERVAL".to_owned(),
                LogicalType::List => "LIST".to_owned(),
                LogicalType::Map => "MAP".to_owned(),
                LogicalType::Unknown => "UNKNOWN".to_owned(),
                LogicalType::Other => match (node.converted_type, physical) {
                    (Some(c), _) => c.name().unwrap_or("OTHER").to_owned(),
                    _ => "OTHER".to_owned(),
                },
            };
            format!(" ({t})")
        }
        fn write(
            schema: &Schema,
            f: &mut fmt::Formatter<'_>,
            index: usize,
            indent: usize,
        ) -> fmt::Result {
            let node = schema.node(index);
            let repetition = match node.repetition {
                Repetition::Required => "required",
                Repetition::Optional => "optional",
                Repetition::Repeated => "repeated",
            };
            let pad = "  ".repeat(indent);
            match &node.kind {
                NodeKind::Group { children } => {
                    writeln!(
                        f,
                        "{pad}{repetition} group {}{} {{",
                        node.name,
                        annotation(node, None)
                    )?;
                    for &child in children {
                        write(schema, f, child, indent + 1)?;
                    }
                    writeln!(f, "{pad}}}")
                }
                NodeKind::Primitive { column } => {
                    let c = schema.column(*column);
                    let name = c.physical_type.name().unwrap_or("?");
                    let physical = if c.physical_type == Type::FIXED_LEN_BYTE_ARRAY {
                        format!("fixed_len_byte_array({})", c.type_length)
                    } else {
                        name.to_lowercase()
                    };
                    writeln!(
                        f,
                        "{pad}{repetition} {physical} {}{};",
                        node.name,
                        annotation(node, Some(c.physical_type))
                    )
                }
            }
        }
        writeln!(f, "message {} {{", self.root().name)?;
        for &child in self.children(0) {
            write(self, f, child, 1)?;
        }
        writeln!(f, "}}")
    }
}
