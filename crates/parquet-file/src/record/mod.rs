//! Records: leaf columns' levels assembled into rows (the Dremel algorithm), with the
//! backward-compatibility rules of the logical types spec for LIST and MAP.

mod shred;

pub use parquet_core::Row;

pub(crate) use shred::Shredder;

use std::sync::Arc;

use crate::column::{BYTE_ARRAY_RECORDS, ColumnBatch, ColumnChunkReader, holds_byte_arrays};
use crate::error::{Context, Error, Result};
use crate::schema::{LogicalType, NodeKind, Repetition, Schema};
use crate::value::{Converter, Field};

/// Records a leaf reads at a time.
const BATCH_RECORDS: usize = 1024;

/// One leaf column being consumed level entry by level entry.
pub(crate) struct Leaf {
    reader: ColumnChunkReader,
    batch: ColumnBatch,
    /// Records read at once.
    step: usize,
    converter: Converter,
    max_def: u16,
    max_rep: u16,
    /// The next level entry of `batch`.
    pos: usize,
    /// The next value of `batch`.
    value: usize,
    done: bool,
}

impl Leaf {
    pub(crate) fn new(reader: ColumnChunkReader) -> Self {
        let column = reader.column();
        Self {
            batch: ColumnBatch::new(column),
            step: if holds_byte_arrays(column) {
                BYTE_ARRAY_RECORDS
            } else {
                BATCH_RECORDS
            },
            converter: Converter::new(column),
            max_def: column.max_def_level,
            max_rep: column.max_rep_level,
            reader,
            pos: 0,
            value: 0,
            done: false,
        }
    }

    /// The column chunk reader.
    pub(crate) fn reader(&self) -> &ColumnChunkReader {
        &self.reader
    }

    /// Makes sure `pos` is on a level entry, reading records as needed; false at the end
    /// of the chunk (or of its rows selected).
    pub(crate) fn ensure(&mut self) -> Result<bool> {
        while self.pos >= self.batch.num_levels() {
            if self.done {
                return Ok(false);
            }
            self.batch.clear();
            self.pos = 0;
            self.value = 0;
            if self.reader.read_records(self.step, &mut self.batch)? == 0 {
                self.done = true;
            }
        }
        Ok(true)
    }

    fn def(&self) -> u16 {
        if self.max_def == 0 {
            0
        } else {
            self.batch.def_levels().get(self.pos).copied().unwrap_or(0)
        }
    }

    /// The repetition level of the current entry.
    pub(crate) fn rep(&self) -> u16 {
        if self.max_rep == 0 {
            0
        } else {
            self.batch.rep_levels().get(self.pos).copied().unwrap_or(0)
        }
    }

    /// Whether the current entry continues a record (its repetition level is not 0).
    pub(crate) fn continues_record(&self) -> bool {
        self.continues_above(0)
    }

    /// Whether the current entry repeats at a level above `rep`.
    fn continues_above(&self, rep: u16) -> bool {
        self.pos < self.batch.num_levels() && self.rep() > rep
    }

    fn check(&mut self) -> Result<()> {
        if self.ensure()? {
            Ok(())
        } else {
            Err(Error::malformed(
                "a column chunk with fewer records than its row group has rows",
            ))
            .in_column(&self.reader.column().path)
        }
    }

    /// Consumes the current level entry, returning its value (or null).
    fn read(&mut self) -> Result<Field> {
        self.check()?;
        let field = if self.def() == self.max_def {
            let field = self
                .converter
                .convert(self.batch.values(), self.value)
                .in_column(&self.reader.column().path)?;
            self.value += 1;
            field
        } else {
            Field::Null
        };
        self.pos += 1;
        self.ensure()?;
        Ok(field)
    }

    /// Consumes the current level entry, which stands for a null or empty ancestor.
    fn skip(&mut self) -> Result<()> {
        self.check()?;
        if self.def() == self.max_def {
            self.value += 1;
        }
        self.pos += 1;
        self.ensure()?;
        Ok(())
    }
}

/// How to assemble one field from the leaves.
#[derive(Debug, Clone)]
enum Plan {
    /// A leaf: index into the leaves.
    Primitive(usize),
    /// An optional field, present when the definition level is above `def`; its own
    /// repetition level is `rep`.
    Optional {
        def: u16,
        rep: u16,
        inner: Box<Plan>,
    },
    /// A group's fields.
    Group(Vec<(Arc<str>, Plan)>),
    /// A list whose elements exist when the definition level is above `def` and go on
    /// while the repetition level is above `rep`.
    Repeated {
        def: u16,
        rep: u16,
        inner: Box<Plan>,
    },
    /// A map's key/value pairs, counted as a list's elements are.
    KeyValue {
        def: u16,
        rep: u16,
        key: Box<Plan>,
        value: Option<Box<Plan>>,
    },
}

impl Plan {
    fn first_leaf(&self) -> usize {
        match self {
            Self::Primitive(leaf) => *leaf,
            Self::Optional { inner, .. } | Self::Repeated { inner, .. } => inner.first_leaf(),
            Self::Group(fields) => fields.first().map_or(usize::MAX, |f| f.1.first_leaf()),
            Self::KeyValue { key, .. } => key.first_leaf(),
        }
    }

    fn for_each_leaf(&self, f: &mut impl FnMut(usize) -> Result<()>) -> Result<()> {
        match self {
            Self::Primitive(leaf) => f(*leaf),
            Self::Optional { inner, .. } | Self::Repeated { inner, .. } => inner.for_each_leaf(f),
            Self::Group(fields) => fields.iter().try_for_each(|(_, n)| n.for_each_leaf(f)),
            Self::KeyValue { key, value, .. } => {
                key.for_each_leaf(f)?;
                value.as_ref().map_or(Ok(()), |v| v.for_each_leaf(f))
            }
        }
    }

    /// Consumes the entry of every leaf under this field, which is null (or an empty
    /// list) at definition level `def` and repetition level `rep`.
    ///
    /// The entries that follow it and repeat inside it (a repetition level above `rep`)
    /// cannot exist by the format's rules, but DuckDB writes them for a NULL fixed-size
    /// array: one entry per slot of an array that is not there. They are consumed too,
    /// as DuckDB reads them, when they hold no value.
    fn skip(&self, leaves: &mut [Leaf], def: u16, rep: u16) -> Result<()> {
        self.for_each_leaf(&mut |leaf| {
            let leaf = leaf_mut(leaves, leaf)?;
            leaf.skip()?;
            while leaf.continues_above(rep) {
                if leaf.def() > def {
                    return Err(Error::malformed(
                        "a value repeated inside a null or empty field",
                    ))
                    .in_column(&leaf.reader.column().path);
                }
                leaf.skip()?;
            }
            Ok(())
        })
    }

    fn read(&self, leaves: &mut [Leaf]) -> Result<Field> {
        match self {
            Self::Primitive(leaf) => leaf_mut(leaves, *leaf)?.read(),
            Self::Optional { def, rep, inner } => {
                let first = leaf_mut(leaves, inner.first_leaf())?;
                first.check()?;
                if first.def() > *def {
                    inner.read(leaves)
                } else {
                    inner.skip(leaves, *def, *rep)?;
                    Ok(Field::Null)
                }
            }
            Self::Group(fields) => fields
                .iter()
                .map(|(name, node)| Ok((Arc::clone(name), node.read(leaves)?)))
                .collect::<Result<_>>()
                .map(Field::Group),
            Self::Repeated { def, rep, inner } => {
                let mut elements = Vec::new();
                repeat(
                    leaves,
                    inner.first_leaf(),
                    *def,
                    *rep,
                    |leaves| inner.skip(leaves, *def, *rep),
                    |leaves| {
                        elements.push(inner.read(leaves)?);
                        Ok(())
                    },
                )?;
                Ok(Field::List(elements))
            }
            Self::KeyValue {
                def,
                rep,
                key,
                value,
            } => {
                let mut pairs = Vec::new();
                let skip = |leaves: &mut [Leaf]| {
                    key.skip(leaves, *def, *rep)?;
                    value
                        .as_ref()
                        .map_or(Ok(()), |v| v.skip(leaves, *def, *rep))
                };
                repeat(leaves, key.first_leaf(), *def, *rep, skip, |leaves| {
                    let k = key.read(leaves)?;
                    let v = match value {
                        Some(v) => v.read(leaves)?,
                        None => Field::Null,
                    };
                    pairs.push((k, v));
                    Ok(())
                })?;
                Ok(Field::Map(pairs))
            }
        }
    }
}

fn leaf_mut(leaves: &mut [Leaf], leaf: usize) -> Result<&mut Leaf> {
    leaves
        .get_mut(leaf)
        .ok_or_else(|| Error::malformed("an assembly plan without the leaf it reads"))
}

/// Reads the elements of one list: while the first leaf says an element exists (its
/// definition level is above `def`), read one; stop when the next entry's repetition
/// level is not above `rep` (it starts another list).
fn repeat(
    leaves: &mut [Leaf],
    first: usize,
    def: u16,
    rep: u16,
    skip: impl FnOnce(&mut [Leaf]) -> Result<()>,
    mut element: impl FnMut(&mut [Leaf]) -> Result<()>,
) -> Result<()> {
    let leaf = leaf_mut(leaves, first)?;
    leaf.check()?;
    if leaf.def() <= def {
        return skip(leaves);
    }
    loop {
        element(leaves)?;
        let leaf = leaf_mut(leaves, first)?;
        if !leaf.ensure()? || leaf.rep() <= rep {
            return Ok(());
        }
    }
}

/// How to assemble the rows of some of a schema's leaf columns.
#[derive(Debug, Clone)]
pub(crate) struct Assembly {
    /// The leaf columns read, in file order.
    columns: Vec<usize>,
    plan: Vec<(Arc<str>, Plan)>,
}

impl Assembly {
    /// The assembly of the fields that have a leaf among `selected` (column indices),
    /// plus the keys of every map whose values are selected (a map's keys carry its
    /// levels).
    pub(crate) fn new(schema: &Schema, selected: &[usize]) -> Self {
        let mut wanted = vec![false; schema.columns().len()];
        for &c in selected {
            if let Some(w) = wanted.get_mut(c) {
                *w = true;
            }
            for key in map_keys_above(schema, c) {
                if let Some(w) = wanted.get_mut(key) {
                    *w = true;
                }
            }
        }
        let columns: Vec<usize> = wanted
            .iter()
            .enumerate()
            .filter_map(|(c, &w)| w.then_some(c))
            .collect();
        let mut leaf_of = vec![None; wanted.len()];
        for (i, &c) in columns.iter().enumerate() {
            if let Some(l) = leaf_of.get_mut(c) {
                *l = Some(i);
            }
        }
        // Whether each node has a leaf read: children follow their parents in the
        // footer's depth-first order, so one pass from the end marks every ancestor.
        let mut has_leaf = vec![false; schema.nodes().len()];
        for (i, node) in schema.nodes().iter().enumerate().rev() {
            let leaf = match node.kind {
                NodeKind::Primitive { column } => leaf_of.get(column).is_some_and(Option::is_some),
                NodeKind::Group { .. } => has_leaf.get(i).copied().unwrap_or(false),
            };
            if let Some(h) = has_leaf.get_mut(i) {
                *h = leaf;
            }
            if leaf && let Some(h) = node.parent.and_then(|p| has_leaf.get_mut(p)) {
                *h = true;
            }
        }
        let planner = Planner {
            schema,
            leaf_of,
            has_leaf,
        };
        Self {
            plan: planner.group(schema.children(0)),
            columns,
        }
    }

    /// The leaf columns read, in file order: the leaves of [`read`](Self::read) are their
    /// readers, in this order.
    pub(crate) fn columns(&self) -> &[usize] {
        &self.columns
    }

    /// Assembles the next row from `leaves`.
    pub(crate) fn read(&self, leaves: &mut [Leaf]) -> Result<Row> {
        let mut fields = Vec::with_capacity(self.plan.len());
        for (name, plan) in &self.plan {
            fields.push((Arc::clone(name), plan.read(leaves)?));
        }
        // A record ends where the next entry of every leaf has repetition level 0.
        if let Some(leaf) = leaves.iter().find(|l| l.continues_record()) {
            return Err(Error::malformed(
                "a record's repeated values that do not line up across its columns",
            ))
            .in_column(&leaf.reader.column().path);
        }
        Ok(Row::new(fields))
    }
}

/// Builds the assembly plan of the fields under a schema's root that have a selected
/// leaf.
struct Planner<'a> {
    schema: &'a Schema,
    /// A column's position among the leaves read.
    leaf_of: Vec<Option<usize>>,
    /// Whether a node has a leaf read.
    has_leaf: Vec<bool>,
}

impl Planner<'_> {
    fn selected(&self, node: usize) -> bool {
        self.has_leaf.get(node).copied().unwrap_or(false)
    }

    fn name(&self, node: usize) -> Arc<str> {
        Arc::from(self.schema.node(node).map_or("", |n| n.name.as_str()))
    }

    /// A field as its parent sees it: wrapped by its repetition.
    fn field(&self, index: usize) -> Plan {
        let Some(node) = self.schema.node(index) else {
            return Plan::Group(Vec::new());
        };
        match node.repetition {
            Repetition::Required => self.base(index),
            Repetition::Optional => Plan::Optional {
                def: node.def_level - 1,
                rep: node.rep_level,
                inner: Box::new(self.base(index)),
            },
            // A repeated field without LIST or MAP around it: a list of required elements.
            Repetition::Repeated => Plan::Repeated {
                def: node.def_level - 1,
                rep: node.rep_level - 1,
                inner: Box::new(self.base(index)),
            },
        }
    }

    /// A field's value, present.
    fn base(&self, index: usize) -> Plan {
        let Some(node) = self.schema.node(index) else {
            return Plan::Group(Vec::new());
        };
        match &node.kind {
            NodeKind::Primitive { column } => Plan::Primitive(
                self.leaf_of
                    .get(*column)
                    .copied()
                    .flatten()
                    .unwrap_or(usize::MAX),
            ),
            NodeKind::Group { children } => {
                let is_map = node.logical_type == LogicalType::Map;
                if let [repeated] = children.as_slice()
                    && (node.logical_type == LogicalType::List || is_map)
                    && self
                        .schema
                        .node(*repeated)
                        .is_some_and(|r| r.repetition == Repetition::Repeated)
                {
                    if is_map && let Some(map) = self.map(*repeated) {
                        return map;
                    }
                    return self.list(index, *repeated);
                }
                Plan::Group(self.group(children))
            }
        }
    }

    /// The selected fields among `children`, by name.
    fn group(&self, children: &[usize]) -> Vec<(Arc<str>, Plan)> {
        children
            .iter()
            .filter(|&&c| self.selected(c))
            .map(|&c| (self.name(c), self.field(c)))
            .collect()
    }

    /// A LIST-annotated group `list` whose only child is the repeated field `repeated`,
    /// by the backward-compatibility rules of LogicalTypes.md.
    fn list(&self, list: usize, repeated: usize) -> Plan {
        let (Some(r), Some(l)) = (self.schema.node(repeated), self.schema.node(list)) else {
            return Plan::Group(Vec::new());
        };
        let element = match &r.kind {
            // Two-level: the repeated field is the element.
            NodeKind::Primitive { .. } => self.base(repeated),
            NodeKind::Group { children } => {
                let legacy_name = r.name == "array" || r.name == format!("{}_tuple", l.name);
                match children.as_slice() {
                    // Three-level: the repeated group wraps the element.
                    [element] if !legacy_name => self.field(*element),
                    // Two-level: the repeated group is the element, with whatever
                    // annotation it has (a LIST of LISTs, as parquet-java's Avro writer
                    // writes `array<array<int>>`).
                    _ => self.base(repeated),
                }
            }
        };
        Plan::Repeated {
            def: r.def_level - 1,
            rep: r.rep_level - 1,
            inner: Box::new(element),
        }
    }

    /// A MAP-annotated group's repeated key/value group, when it has that shape. A
    /// key/value group without a value is a list of its keys, as Arrow reads it.
    fn map(&self, repeated: usize) -> Option<Plan> {
        let r = self.schema.node(repeated)?;
        let NodeKind::Group { children } = &r.kind else {
            return None;
        };
        let (def, rep) = (r.def_level - 1, r.rep_level - 1);
        match children.as_slice() {
            [key] => Some(Plan::Repeated {
                def,
                rep,
                inner: Box::new(self.field(*key)),
            }),
            [key, value] => Some(Plan::KeyValue {
                def,
                rep,
                // The key is always read (see `map_keys_above`); the value when selected.
                key: Box::new(self.field(*key)),
                value: self.selected(*value).then(|| Box::new(self.field(*value))),
            }),
            _ => None,
        }
    }
}

/// The leaves of the keys of every map that column `column` is inside.
fn map_keys_above(schema: &Schema, column: usize) -> Vec<usize> {
    let mut keys = Vec::new();
    let Ok(descriptor) = schema.column(column) else {
        return keys;
    };
    let mut at = descriptor.node;
    while let Some(parent) = schema.node(at).and_then(|n| n.parent) {
        if schema
            .node(parent)
            .is_some_and(|p| p.logical_type == LogicalType::Map)
            && schema
                .node(at)
                .is_some_and(|n| n.repetition == Repetition::Repeated)
            && let Some(&key) = schema.children(at).first()
        {
            keys.extend(schema.leaves_of(key));
        }
        at = parent;
    }
    keys
}
