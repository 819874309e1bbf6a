//! The schema tree, rebuilt from the footer's flat, depth-first list of schema elements
//! (and written back to one), with each leaf column's path, levels and logical type.

mod build;
mod display;
mod logical;
mod parse;

use std::borrow::Cow;

use hashbrown::HashSet;
use parquet_core::PhysicalType;
use parquet_thrift as thrift;

use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;
use crate::path::ColumnPath;

pub use build::SchemaField;
pub use logical::{ConvertedType, EdgeInterpolation, LogicalType, TimeUnit};

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

impl Repetition {
    /// The repetition's name in the message-type syntax: `required`, `optional`,
    /// `repeated`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Required => "required",
            Self::Optional => "optional",
            Self::Repeated => "repeated",
        }
    }

    pub(crate) fn to_thrift(self) -> thrift::FieldRepetitionType {
        match self {
            Self::Required => thrift::FieldRepetitionType::REQUIRED,
            Self::Optional => thrift::FieldRepetitionType::OPTIONAL,
            Self::Repeated => thrift::FieldRepetitionType::REPEATED,
        }
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
    /// The physical type.
    pub physical_type: PhysicalType,
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

/// The physical type of parquet.thrift's `Type`, when it is one of the eight.
pub(crate) fn physical_type(t: thrift::Type) -> Option<PhysicalType> {
    use thrift::Type as T;
    Some(match t {
        T::BOOLEAN => PhysicalType::Boolean,
        T::INT32 => PhysicalType::Int32,
        T::INT64 => PhysicalType::Int64,
        T::INT96 => PhysicalType::Int96,
        T::FLOAT => PhysicalType::Float,
        T::DOUBLE => PhysicalType::Double,
        T::BYTE_ARRAY => PhysicalType::ByteArray,
        T::FIXED_LEN_BYTE_ARRAY => PhysicalType::FixedLenByteArray,
        _ => return None,
    })
}

/// parquet.thrift's `Type` of a physical type.
pub(crate) fn thrift_type(t: PhysicalType) -> thrift::Type {
    // The enum's discriminants are parquet.thrift's numbers.
    thrift::Type(i32::from(t as u8))
}

/// An error in schema element `element`.
fn schema_error(element: usize, name: &str, what: &'static str) -> Error {
    ErrorKind::Schema {
        element,
        name: name.to_owned(),
        what,
    }
    .into()
}

/// A group being filled while the flat list is read.
struct Open<'e> {
    node: usize,
    remaining: usize,
    names: HashSet<&'e str>,
}

impl Schema {
    /// Rebuilds the tree from the flat list of a footer, and checks it: child counts that
    /// add up exactly, a depth and a number of elements within `limits`, a physical type
    /// on every leaf, a length on every FIXED_LEN_BYTE_ARRAY, no group without children
    /// (but the root), distinct names among siblings, and DECIMAL scales and precisions
    /// that fit their physical type. Takes time linear in the number of elements.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Schema`] naming the element that breaks a rule, or
    /// [`ErrorKind::LimitExceeded`].
    #[allow(clippy::too_many_lines)] // one pass over the list, with a check per rule
    pub fn try_from_elements(
        elements: &[thrift::SchemaElement<'_>],
        limits: &Limits,
    ) -> Result<Self> {
        let Some(root) = elements.first() else {
            return Err(Error::malformed("empty schema: no root element"));
        };
        if elements.len() > limits.max_schema_elements() {
            return Err(Error::limit(
                "schema elements",
                elements.len() as u64,
                limits.max_schema_elements() as u64,
            ));
        }
        let root_children = usize::try_from(root.num_children.unwrap_or(0))
            .map_err(|_| schema_error(0, &root.name, "negative number of children"))?;
        if root_children > elements.len() - 1 {
            return Err(schema_error(
                0,
                &root.name,
                "more children than elements follow",
            ));
        }
        let mut nodes = Vec::with_capacity(elements.len());
        let mut columns = Vec::new();
        nodes.push(Node {
            name: root.name.to_string(),
            repetition: Repetition::Required,
            logical_type: LogicalType::None,
            converted_type: root.converted_type.map(ConvertedType::from_thrift),
            field_id: root.field_id,
            def_level: 0,
            rep_level: 0,
            parent: None,
            kind: NodeKind::Group {
                children: Vec::with_capacity(root_children),
            },
        });
        let mut stack = vec![Open {
            node: 0,
            remaining: root_children,
            // At most the elements that follow (checked above), so sized at once: a
            // wide table's names are not rehashed as they come. (Groups below the root
            // reserve less, as lying counts of nested groups could add up.)
            names: HashSet::with_capacity(root_children),
        }];
        let mut next = 1;
        while let Some(open) = stack.last_mut() {
            if open.remaining == 0 {
                stack.pop();
                continue;
            }
            open.remaining -= 1;
            let parent = open.node;
            let index = next;
            let Some(element) = elements.get(index) else {
                // The child counts were checked against the elements that follow.
                return Err(Error::malformed("the schema ends inside a group"));
            };
            next += 1;
            let name = &element.name;
            if !open.names.insert(name) {
                return Err(schema_error(
                    index,
                    name,
                    "a second field of the same name in its group",
                ));
            }
            if stack.len() > limits.max_schema_depth() {
                return Err(Error::limit(
                    "schema depth",
                    stack.len() as u64,
                    limits.max_schema_depth() as u64,
                ));
            }
            let repetition = match element.repetition_type {
                Some(thrift::FieldRepetitionType::OPTIONAL) => Repetition::Optional,
                Some(thrift::FieldRepetitionType::REPEATED) => Repetition::Repeated,
                Some(thrift::FieldRepetitionType::REQUIRED) | None => Repetition::Required,
                Some(_) => return Err(schema_error(index, name, "unknown repetition type")),
            };
            let (parent_def, parent_rep) = nodes
                .get(parent)
                .map_or((0, 0), |p: &Node| (p.def_level, p.rep_level));
            // Within the default depth limit, levels stay far below 2^16; a caller's limit
            // may allow deeper schemas than levels can count.
            let (Some(def_level), Some(rep_level)) = (
                parent_def.checked_add(u16::from(repetition != Repetition::Required)),
                parent_rep.checked_add(u16::from(repetition == Repetition::Repeated)),
            ) else {
                return Err(schema_error(index, name, "a level past 65535"));
            };
            let num_children = element.num_children.unwrap_or(0);
            let mut logical_type = LogicalType::from_element(element);
            let kind = if num_children > 0
                || (element.type_.is_none() && element.num_children.is_some())
            {
                let count = usize::try_from(num_children).unwrap_or(0);
                if count == 0 {
                    return Err(schema_error(index, name, "a group without fields"));
                }
                if count > elements.len() - next {
                    return Err(schema_error(
                        index,
                        name,
                        "more children than elements follow",
                    ));
                }
                stack.push(Open {
                    node: index,
                    remaining: count,
                    names: HashSet::with_capacity(count.min(1024)),
                });
                NodeKind::Group {
                    children: Vec::with_capacity(count.min(1024)),
                }
            } else {
                let Some(physical) = element.type_ else {
                    return Err(schema_error(index, name, "a leaf without a physical type"));
                };
                let Some(physical) = physical_type(physical) else {
                    return Err(schema_error(index, name, "an unknown physical type"));
                };
                let type_length = if physical == PhysicalType::FixedLenByteArray {
                    usize::try_from(element.type_length.unwrap_or(-1)).map_err(|_| {
                        schema_error(
                            index,
                            name,
                            "a FIXED_LEN_BYTE_ARRAY without a valid type_length",
                        )
                    })?
                } else {
                    0
                };
                if let LogicalType::Decimal { scale, precision } = logical_type {
                    check_decimal(physical, type_length, scale, precision)
                        .map_err(|what| schema_error(index, name, what))?;
                }
                if !logical_type.fits(physical, type_length) {
                    logical_type = LogicalType::None;
                }
                let column = columns.len();
                let mut path: Vec<String> = Vec::with_capacity(stack.len() + 1);
                let mut at = Some(parent);
                while let Some(n) = at.filter(|&n| n != 0) {
                    let Some(node) = nodes.get(n) else { break };
                    path.push(node.name.clone());
                    at = node.parent;
                }
                path.reverse();
                path.push(name.to_string());
                columns.push(ColumnDescriptor {
                    path: ColumnPath::from(path),
                    physical_type: physical,
                    type_length,
                    logical_type: logical_type.clone(),
                    max_def_level: def_level,
                    max_rep_level: rep_level,
                    node: index,
                });
                NodeKind::Primitive { column }
            };
            if let Some(Node {
                kind: NodeKind::Group { children },
                ..
            }) = nodes.get_mut(parent)
            {
                children.push(index);
            }
            nodes.push(Node {
                name: name.to_string(),
                repetition,
                logical_type,
                converted_type: element.converted_type.map(ConvertedType::from_thrift),
                field_id: element.field_id,
                def_level,
                rep_level,
                parent: Some(parent),
                kind,
            });
        }
        if next != elements.len() {
            return Err(schema_error(
                next,
                elements.get(next).map_or("", |e| &e.name),
                "an element after the end of the root's fields",
            ));
        }
        Ok(Self { nodes, columns })
    }

    /// The flat, depth-first list of schema elements that a footer stores, with the
    /// converted type each node was read with (or, for a node without one, the twin of
    /// its logical type).
    pub fn to_elements(&self) -> Vec<thrift::SchemaElement<'_>> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let column = match node.kind {
                    NodeKind::Primitive { column } => self.columns.get(column),
                    NodeKind::Group { .. } => None,
                };
                let num_children = match &node.kind {
                    NodeKind::Group { children } => i32::try_from(children.len()).ok(),
                    NodeKind::Primitive { .. } => None,
                };
                let (scale, precision) = match node.logical_type {
                    LogicalType::Decimal { scale, precision } => (Some(scale), Some(precision)),
                    _ => (None, None),
                };
                thrift::SchemaElement {
                    type_: column.map(|c| thrift_type(c.physical_type)),
                    type_length: column
                        .filter(|c| c.physical_type == PhysicalType::FixedLenByteArray)
                        .and_then(|c| i32::try_from(c.type_length).ok()),
                    repetition_type: (i != 0).then(|| node.repetition.to_thrift()),
                    name: Cow::Borrowed(node.name.as_str()),
                    num_children,
                    converted_type: node
                        .converted_type
                        .or_else(|| node.logical_type.converted_type())
                        .map(ConvertedType::to_thrift),
                    scale,
                    precision,
                    field_id: node.field_id,
                    // MAP_KEY_VALUE stands for no logical type: the reader's MAP is its own.
                    logical_type: if node.converted_type == Some(ConvertedType::MapKeyValue) {
                        None
                    } else {
                        node.logical_type.to_thrift()
                    },
                }
            })
            .collect()
    }

    /// This schema with leaf columns retyped: each `(column, physical, logical)` gives a
    /// column's index, its new physical type (not FIXED_LEN_BYTE_ARRAY) and its logical
    /// type, whose twin becomes its converted type. Every other field is as it was.
    ///
    /// ```
    /// use parquet_file::{LogicalType, PhysicalType, Schema, TimeUnit};
    ///
    /// let schema = Schema::parse("message m { optional int96 ts; required int32 id; }")?;
    /// let micros = LogicalType::Timestamp { unit: TimeUnit::Micros, utc: false };
    /// let retyped = schema.with_column_types([(0, PhysicalType::Int64, micros.clone())])?;
    /// assert_eq!(retyped.column(0)?.physical_type, PhysicalType::Int64);
    /// assert_eq!(retyped.column(0)?.logical_type, micros);
    /// assert_eq!(retyped.column(1)?, schema.column(1)?);
    /// # Ok::<(), parquet_file::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) for a column past the
    /// schema's or a FIXED_LEN_BYTE_ARRAY type; [`ErrorKind::Schema`] for a logical type
    /// that does not fit its physical type.
    pub fn with_column_types(
        &self,
        types: impl IntoIterator<Item = (usize, PhysicalType, LogicalType)>,
    ) -> Result<Self> {
        let mut elements = self.to_elements();
        for (column, physical, logical) in types {
            if physical == PhysicalType::FixedLenByteArray {
                return Err(Error::input(
                    "a column retyped to FIXED_LEN_BYTE_ARRAY, which needs a length",
                ));
            }
            let node = self.columns.get(column).map(|c| c.node).ok_or_else(|| {
                Error::input(format!(
                    "column {column} of a schema of {}",
                    self.columns.len()
                ))
            })?;
            if let Some(element) = elements.get_mut(node) {
                element.type_ = Some(thrift_type(physical));
                element.type_length = None;
                element.converted_type = logical.converted_type().map(ConvertedType::to_thrift);
                element.logical_type = logical.to_thrift();
                element.scale = None;
                element.precision = None;
                if let LogicalType::Decimal { scale, precision } = logical {
                    (element.scale, element.precision) = (Some(scale), Some(precision));
                }
            }
        }
        // The same tree: only limits it already met apply.
        let limits = Limits::default()
            .with_max_schema_elements(elements.len().max(1))
            .with_max_schema_depth(usize::MAX);
        Self::try_from_elements(&elements, &limits)
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        // The schema always has its root: `try_from_elements` refuses an empty list.
        #[allow(clippy::indexing_slicing)]
        &self.nodes[0]
    }

    /// Every node, the root first, in the footer's depth-first order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node at `index`, when there is one.
    pub fn node(&self, index: usize) -> Option<&Node> {
        self.nodes.get(index)
    }

    /// The children of a node (empty for a leaf or a node that does not exist).
    pub fn children(&self, index: usize) -> &[usize] {
        match self.nodes.get(index).map(|n| &n.kind) {
            Some(NodeKind::Group { children }) => children,
            _ => &[],
        }
    }

    /// The leaf columns in file order.
    pub fn columns(&self) -> &[ColumnDescriptor] {
        &self.columns
    }

    /// The leaf column at `index`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchColumn`] when the schema has no such column.
    pub fn column(&self, index: usize) -> Result<&ColumnDescriptor> {
        self.columns.get(index).ok_or_else(|| {
            ErrorKind::NoSuchColumn {
                index,
                count: self.columns.len(),
            }
            .into()
        })
    }

    /// The index of the leaf column at `path`.
    pub fn column_index(&self, path: &ColumnPath) -> Option<usize> {
        self.columns.iter().position(|c| c.path == *path)
    }

    /// The index of the node at `path` (the root for an empty path).
    pub fn node_index(&self, path: &ColumnPath) -> Option<usize> {
        let mut at = 0;
        for part in path.parts() {
            at = *self
                .children(at)
                .iter()
                .find(|&&c| self.nodes.get(c).is_some_and(|n| n.name == *part))?;
        }
        Some(at)
    }

    /// The path of node `index` (empty for the root).
    pub fn node_path(&self, index: usize) -> ColumnPath {
        let mut names = Vec::new();
        let mut at = Some(index);
        while let Some(node) = at.filter(|&n| n != 0).and_then(|n| self.nodes.get(n)) {
            names.push(node.name.clone());
            at = node.parent;
        }
        names.reverse();
        ColumnPath::from(names)
    }

    /// The leaf columns under the field at `path` (a leaf's own path selects it, a
    /// group's path every leaf under it), in file order; empty when no field is there.
    pub fn columns_under(&self, path: &ColumnPath) -> Vec<usize> {
        self.node_index(path)
            .map_or_else(Vec::new, |node| self.leaves_of(node))
    }

    /// The leaf columns under node `index`, in file order.
    pub fn leaves_of(&self, index: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![index];
        while let Some(n) = stack.pop() {
            match self.nodes.get(n).map(|n| &n.kind) {
                Some(NodeKind::Primitive { column }) => out.push(*column),
                Some(NodeKind::Group { children }) => stack.extend(children.iter().rev()),
                None => {}
            }
        }
        out
    }
}

/// Checks a DECIMAL's precision and scale against its physical type.
fn check_decimal(
    physical: PhysicalType,
    length: usize,
    scale: i32,
    precision: i32,
) -> std::result::Result<(), &'static str> {
    let max_precision = match physical {
        PhysicalType::Int32 => 9,
        PhysicalType::Int64 => 18,
        // floor(log10(2^(8n - 1) - 1)) for n bytes, capped where the formula stops
        // mattering (no value that wide is ever exactly representable anyway).
        PhysicalType::FixedLenByteArray => {
            let bits = (length.min(4096) * 8).saturating_sub(1);
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            let digits = (bits as f64 * std::f64::consts::LOG10_2).floor() as i32;
            digits
        }
        _ => i32::MAX,
    };
    if precision < 1 || precision > max_precision {
        return Err("a DECIMAL precision that does not fit its physical type");
    }
    if scale < 0 || scale > precision {
        return Err("a DECIMAL scale outside 0 to its precision");
    }
    Ok(())
}
