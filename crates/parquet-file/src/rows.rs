//! The row API: leaf columns' levels assembled into records (Dremel), with the
//! backward-compatibility rules of the logical types spec for LIST and MAP.

use std::collections::BTreeMap;
use std::sync::Arc;

use parquet_thrift::PageLocation;

use crate::column::{ColumnBatch, ColumnChunkReader};
use crate::error::{Context, Error, Result};
use crate::field::{Converter, Field};
use crate::page_index::RowSelection;
use crate::reader::FileReader;
use crate::schema::{LogicalType, NodeKind, Repetition, Schema};
use crate::source::Source;

/// Which columns and row groups to read.
#[derive(Debug, Clone, Default)]
pub struct Projection {
    columns: Option<Vec<String>>,
    row_groups: Option<Vec<usize>>,
    selections: BTreeMap<usize, RowSelection>,
}

impl Projection {
    /// Every column of every row group.
    pub fn all() -> Self {
        Self::default()
    }

    /// Only the fields at these dotted paths (a group's path selects everything under
    /// it). The rows keep the schema's order of fields.
    #[must_use]
    pub fn columns<I, P>(mut self, paths: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: Into<String>,
    {
        self.columns = Some(paths.into_iter().map(Into::into).collect());
        self
    }

    /// Only these row groups, in this order.
    #[must_use]
    pub fn row_groups(mut self, row_groups: impl IntoIterator<Item = usize>) -> Self {
        self.row_groups = Some(row_groups.into_iter().collect());
        self
    }

    /// Within row group `row_group`, only the rows of `rows`. Where a column chunk has
    /// an offset index, the pages without a selected row are neither read nor decoded;
    /// elsewhere the rows are decoded and dropped.
    #[must_use]
    pub fn select_rows(mut self, row_group: usize, rows: RowSelection) -> Self {
        self.selections.insert(row_group, rows);
        self
    }

    /// The leaf columns selected, in file order.
    ///
    /// # Errors
    ///
    /// A path that selects no column.
    pub fn leaves(&self, schema: &Schema) -> Result<Vec<usize>> {
        let Some(paths) = &self.columns else {
            return Ok((0..schema.columns().len()).collect());
        };
        let mut leaves = Vec::new();
        for path in paths {
            let under = schema.columns_under(path);
            if under.is_empty() {
                return Err(Error::argument(format!("no column {path:?} in the schema")));
            }
            leaves.extend(under);
        }
        leaves.sort_unstable();
        leaves.dedup();
        Ok(leaves)
    }
}

/// A row: its top-level fields by name, in schema order.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    fields: Vec<(Arc<str>, Field)>,
}

impl Row {
    #[cfg(test)]
    pub(crate) fn from_fields(fields: Vec<(Arc<str>, Field)>) -> Self {
        Self { fields }
    }

    /// The fields and their names.
    pub fn fields(&self) -> &[(Arc<str>, Field)] {
        &self.fields
    }

    /// The fields, owned.
    pub fn into_fields(self) -> Vec<(Arc<str>, Field)> {
        self.fields
    }

    /// The field named `name`.
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, f)| f)
    }
}

/// One leaf column being consumed level by level.
struct Leaf {
    reader: ColumnChunkReader,
    batch: ColumnBatch,
    converter: Converter,
    max_def: u16,
    max_rep: u16,
    /// The next level entry of `batch`.
    pos: usize,
    /// The next value of `batch`.
    value: usize,
    done: bool,
    /// The row (within the row group) that starts at `pos`, when `pos` is on a record's
    /// first entry.
    row: u64,
    /// The ordinal of the next data page `reader` reads.
    next_page: usize,
    /// The chunk's page locations, when rows are selected and it has an offset index.
    pages: Option<Vec<PageLocation>>,
}

impl Leaf {
    /// Makes sure `pos` is on a level entry, reading pages as needed; false at the end
    /// of the chunk.
    fn ensure(&mut self) -> Result<bool> {
        while self.pos >= self.batch.num_levels {
            if self.done {
                return Ok(false);
            }
            self.batch.clear();
            self.pos = 0;
            self.value = 0;
            if self.reader.read_page(&mut self.batch)?.is_none() {
                self.done = true;
            } else {
                self.next_page += 1;
            }
        }
        Ok(true)
    }

    /// Moves to the first entry of row `target`, at or after the current row: skipping
    /// the pages before it through the offset index, then the records before it.
    fn seek_row(&mut self, target: u64) -> Result<()> {
        if self.row >= target {
            return Ok(());
        }
        if let Some(pages) = &self.pages {
            let p = pages
                .partition_point(|l| l.first_row_index.cast_unsigned() <= target)
                .saturating_sub(1);
            if let Some(location) = pages.get(p).filter(|_| p >= self.next_page) {
                self.reader.seek_page(p, location)?;
                self.row = location.first_row_index.cast_unsigned();
                self.next_page = p;
                self.batch.clear();
                self.pos = 0;
                self.value = 0;
                self.done = false;
            }
        }
        while self.row < target {
            // A record: its first entry, then every entry that repeats into it.
            self.skip()?;
            while self.pos < self.batch.num_levels && self.rep() != 0 {
                self.skip()?;
            }
            self.row += 1;
        }
        Ok(())
    }

    fn def(&self) -> u16 {
        if self.max_def == 0 {
            0
        } else {
            self.batch.def_levels.get(self.pos).copied().unwrap_or(0)
        }
    }

    fn rep(&self) -> u16 {
        if self.max_rep == 0 {
            0
        } else {
            self.batch.rep_levels.get(self.pos).copied().unwrap_or(0)
        }
    }

    fn check(&mut self) -> Result<()> {
        if self.ensure()? {
            Ok(())
        } else {
            Err(Error::invalid(
                "the column chunk has fewer values than its row group has rows",
            ))
            .in_column(&self.reader.column().name)
        }
    }

    /// Consumes the current level entry, returning its value (or null).
    fn read(&mut self) -> Result<Field> {
        self.check()?;
        let field = if self.def() == self.max_def {
            let field = self
                .converter
                .convert(&self.batch.values, self.value)
                .in_column(&self.reader.column().name)?;
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
enum Node {
    /// A leaf: index into the leaves.
    Primitive(usize),
    /// An optional field, present when the definition level is above `def`.
    Optional { def: u16, inner: Box<Node> },
    /// A group's fields.
    Group(Vec<(Arc<str>, Node)>),
    /// A list whose elements exist when the definition level is above `def` and go on
    /// while the repetition level is above `rep`.
    Repeated {
        def: u16,
        rep: u16,
        inner: Box<Node>,
    },
    /// A map's key/value pairs, counted as a list's elements are.
    KeyValue {
        def: u16,
        rep: u16,
        key: Box<Node>,
        value: Option<Box<Node>>,
    },
}

impl Node {
    fn first_leaf(&self) -> usize {
        match self {
            Self::Primitive(leaf) => *leaf,
            Self::Optional { inner, .. } | Self::Repeated { inner, .. } => inner.first_leaf(),
            Self::Group(fields) => fields[0].1.first_leaf(),
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

    /// Consumes one entry of every leaf under this node.
    fn skip(&self, leaves: &mut [Leaf]) -> Result<()> {
        self.for_each_leaf(&mut |leaf| leaves[leaf].skip())
    }

    fn read(&self, leaves: &mut [Leaf]) -> Result<Field> {
        match self {
            Self::Primitive(leaf) => leaves[*leaf].read(),
            Self::Optional { def, inner } => {
                let first = &mut leaves[inner.first_leaf()];
                first.check()?;
                if first.def() > *def {
                    inner.read(leaves)
                } else {
                    inner.skip(leaves)?;
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
                    |leaves| inner.skip(leaves),
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
                    key.skip(leaves)?;
                    value.as_ref().map_or(Ok(()), |v| v.skip(leaves))
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
    leaves[first].check()?;
    if leaves[first].def() <= def {
        return skip(leaves);
    }
    loop {
        element(leaves)?;
        let leaf = &mut leaves[first];
        if !leaf.ensure()? || leaf.rep() <= rep {
            return Ok(());
        }
    }
}

/// Builds the assembly plan of the fields under `schema`'s root that have a selected
/// leaf. `leaf_of` maps a column index to its position among the selected leaves.
struct Planner<'a> {
    schema: &'a Schema,
    leaf_of: Vec<Option<usize>>,
}

impl Planner<'_> {
    fn selected(&self, node: usize) -> bool {
        self.schema
            .leaves_of(node)
            .iter()
            .any(|&c| self.leaf_of[c].is_some())
    }

    /// A field as its parent sees it: wrapped by its repetition.
    fn field(&self, index: usize) -> Node {
        let node = self.schema.node(index);
        match node.repetition {
            Repetition::Required => self.base(index),
            Repetition::Optional => Node::Optional {
                def: node.def_level - 1,
                inner: Box::new(self.base(index)),
            },
            // A repeated field without LIST or MAP around it: a list of required elements.
            Repetition::Repeated => Node::Repeated {
                def: node.def_level - 1,
                rep: node.rep_level - 1,
                inner: Box::new(self.base(index)),
            },
        }
    }

    /// A field's value, present.
    fn base(&self, index: usize) -> Node {
        let node = self.schema.node(index);
        match &node.kind {
            NodeKind::Primitive { column } => {
                Node::Primitive(self.leaf_of[*column].unwrap_or(usize::MAX))
            }
            NodeKind::Group { children } => {
                let is_map = node.logical_type == LogicalType::Map;
                if (node.logical_type == LogicalType::List || is_map) && children.len() == 1 {
                    let repeated = children[0];
                    if self.schema.node(repeated).repetition == Repetition::Repeated {
                        if is_map && let Some(map) = self.map(repeated) {
                            return map;
                        }
                        return self.list(index, repeated);
                    }
                }
                Node::Group(self.group(children))
            }
        }
    }

    /// The selected fields among `children`, by name.
    fn group(&self, children: &[usize]) -> Vec<(Arc<str>, Node)> {
        children
            .iter()
            .filter(|&&c| self.selected(c))
            .map(|&c| (Arc::from(self.schema.node(c).name.as_str()), self.field(c)))
            .collect()
    }

    /// A LIST-annotated group `list` whose only child is the repeated field `repeated`.
    fn list(&self, list: usize, repeated: usize) -> Node {
        let r = self.schema.node(repeated);
        let element = match &r.kind {
            // Two-level: the repeated field is the element.
            NodeKind::Primitive { .. } => self.base(repeated),
            NodeKind::Group { children } => {
                let legacy_name =
                    r.name == "array" || r.name == format!("{}_tuple", self.schema.node(list).name);
                if children.len() == 1 && !legacy_name {
                    // Three-level: the repeated group wraps the element.
                    self.field(children[0])
                } else {
                    Node::Group(self.group(children))
                }
            }
        };
        Node::Repeated {
            def: r.def_level - 1,
            rep: r.rep_level - 1,
            inner: Box::new(element),
        }
    }

    /// A MAP-annotated group's repeated key/value group, when it has that shape.
    fn map(&self, repeated: usize) -> Option<Node> {
        let r = self.schema.node(repeated);
        let NodeKind::Group { children } = &r.kind else {
            return None;
        };
        let (key, value) = match children.as_slice() {
            [key] => (*key, None),
            [key, value] => (*key, Some(*value)),
            _ => return None,
        };
        // The key is always read (see `map_keys_above`); the value when selected.
        let value = value
            .filter(|&v| self.selected(v))
            .map(|v| Box::new(self.field(v)));
        Some(Node::KeyValue {
            def: r.def_level - 1,
            rep: r.rep_level - 1,
            key: Box::new(self.field(key)),
            value,
        })
    }
}

/// The rows of a file, row group by row group.
pub struct RowIter<'r, S> {
    reader: &'r FileReader<S>,
    /// The selected leaf columns, in file order.
    columns: Vec<usize>,
    plan: Vec<(Arc<str>, Node)>,
    row_groups: Vec<usize>,
    next_row_group: usize,
    leaves: Vec<Leaf>,
    selections: BTreeMap<usize, RowSelection>,
    /// Rows left in the current row group.
    remaining: u64,
    row_group: usize,
    /// The rows of the current row group to read, when not all of them.
    selection: Option<RowSelection>,
    /// The next row of the current row group.
    row: u64,
    failed: bool,
}

impl<S> std::fmt::Debug for RowIter<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowIter")
            .field("columns", &self.columns)
            .field("row_group", &self.row_group)
            .field("remaining", &self.remaining)
            .finish_non_exhaustive()
    }
}

impl<'r, S: Source> RowIter<'r, S> {
    pub(crate) fn new(reader: &'r FileReader<S>, projection: Projection) -> Result<Self> {
        let schema = reader.schema();
        let mut selected = vec![false; schema.columns().len()];
        for c in projection.leaves(schema)? {
            selected[c] = true;
            // A map's keys carry the map's levels: reading any part of a map reads them.
            for key in map_keys_above(schema, c) {
                selected[key] = true;
            }
        }
        let columns: Vec<usize> = (0..selected.len()).filter(|&c| selected[c]).collect();
        let mut leaf_of = vec![None; selected.len()];
        for (i, &c) in columns.iter().enumerate() {
            leaf_of[c] = Some(i);
        }
        let planner = Planner { schema, leaf_of };
        let plan = planner.group(schema.children(0));
        let row_groups = match projection.row_groups {
            Some(groups) => {
                if let Some(&bad) = groups.iter().find(|&&g| g >= reader.num_row_groups()) {
                    return Err(Error::argument(format!(
                        "row group {bad} does not exist: the file has {}",
                        reader.num_row_groups()
                    )));
                }
                groups
            }
            None => (0..reader.num_row_groups()).collect(),
        };
        Ok(Self {
            reader,
            columns,
            plan,
            row_groups,
            next_row_group: 0,
            leaves: Vec::new(),
            selections: projection.selections,
            remaining: 0,
            row_group: 0,
            selection: None,
            row: 0,
            failed: false,
        })
    }

    fn start_row_group(&mut self, row_group: usize) -> Result<()> {
        let schema = self.reader.schema();
        let rows =
            u64::try_from(self.reader.metadata().row_groups()[row_group].num_rows).unwrap_or(0);
        let all = RowSelection::all(rows);
        self.selection = self
            .selections
            .get(&row_group)
            .map(|s| s.intersect(&all))
            .filter(|s| *s != all);
        self.leaves.clear();
        for &c in &self.columns {
            let descriptor = schema.column(c);
            let offsets = match self.selection {
                Some(_) => self.reader.offset_index(row_group, c)?,
                None => None,
            };
            // Only the pages holding selected rows, when the chunk has an offset index.
            let reader = match (&self.selection, &offsets) {
                (Some(rows), Some(offsets)) => {
                    self.reader.column_chunk_rows(row_group, c, offsets, rows)?
                }
                _ => self.reader.column_chunk(row_group, c)?,
            };
            self.leaves.push(Leaf {
                reader,
                batch: ColumnBatch::new(descriptor)?,
                converter: Converter::new(descriptor),
                max_def: descriptor.max_def_level,
                max_rep: descriptor.max_rep_level,
                pos: 0,
                value: 0,
                done: false,
                row: 0,
                next_page: 0,
                pages: offsets.map(|index| index.page_locations),
            });
        }
        if self.selection.is_none() {
            for leaf in &mut self.leaves {
                leaf.ensure()
                    .in_row_group(row_group)
                    .in_column(&leaf.reader.column().name)?;
            }
        }
        self.remaining = self
            .selection
            .as_ref()
            .map_or(rows, RowSelection::row_count);
        self.row_group = row_group;
        self.row = 0;
        Ok(())
    }

    /// Checks that every leaf ended with the row group.
    fn finish_row_group(&mut self) -> Result<()> {
        for leaf in &mut self.leaves {
            if leaf.ensure()? {
                return Err(Error::invalid(
                    "the column chunk has more values than its row group has rows",
                ))
                .in_column(&leaf.reader.column().name);
            }
        }
        Ok(())
    }

    fn next_row(&mut self) -> Result<Option<Row>> {
        while self.remaining == 0 {
            if !self.leaves.is_empty() {
                // With rows selected, the leaves may stop before their chunks' ends.
                if self.selection.is_none() {
                    self.finish_row_group().in_row_group(self.row_group)?;
                }
                self.leaves.clear();
            }
            let Some(&row_group) = self.row_groups.get(self.next_row_group) else {
                return Ok(None);
            };
            self.next_row_group += 1;
            self.start_row_group(row_group).in_row_group(row_group)?;
        }
        self.remaining -= 1;
        if let Some(selection) = &self.selection {
            // `remaining` counts the selected rows from `row` on: there is a next one.
            let target = selection.next_selected(self.row).unwrap_or(self.row);
            for leaf in &mut self.leaves {
                leaf.seek_row(target)
                    .in_row_group(self.row_group)
                    .in_column(&leaf.reader.column().name)?;
            }
            self.row = target;
        }
        let mut fields = Vec::with_capacity(self.plan.len());
        for (name, node) in &self.plan {
            let field = node.read(&mut self.leaves).in_row_group(self.row_group)?;
            fields.push((Arc::clone(name), field));
        }
        // A record ends where the next entry of every leaf has repetition level 0.
        for leaf in &self.leaves {
            if leaf.pos < leaf.batch.num_levels && leaf.rep() != 0 {
                return Err(Error::invalid(
                    "a record's repeated values do not line up across its columns",
                ))
                .in_row_group(self.row_group)
                .in_column(&leaf.reader.column().name);
            }
        }
        self.row += 1;
        for leaf in &mut self.leaves {
            leaf.row += 1;
        }
        Ok(Some(Row { fields }))
    }
}

/// The leaves of the keys of every map that column `column` is inside.
fn map_keys_above(schema: &Schema, column: usize) -> Vec<usize> {
    let mut keys = Vec::new();
    let mut at = schema.column(column).node;
    while let Some(parent) = schema.node(at).parent {
        let p = schema.node(parent);
        if p.logical_type == LogicalType::Map
            && schema.node(at).repetition == Repetition::Repeated
            && let Some(&key) = schema.children(at).first()
        {
            keys.extend(schema.leaves_of(key));
        }
        at = parent;
    }
    keys
}

impl<S: Source> Iterator for RowIter<'_, S> {
    type Item = Result<Row>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_row() {
            Ok(row) => row.map(Ok),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}
