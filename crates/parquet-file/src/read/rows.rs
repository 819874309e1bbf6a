//! The row API: [`Projection`]s and the [`RowIter`] that reads them.

use std::collections::BTreeMap;

use crate::error::{Context, ErrorKind, Result};
use crate::index::RowSelection;
use crate::io::Source;
use crate::path::ColumnPath;
use crate::record::{Assembly, Leaf, Row};
use crate::schema::Schema;

use super::FileReader;

/// Which columns, row groups and rows to read.
///
/// ```
/// use parquet_file::{ColumnPath, Projection, RowSelection};
///
/// let projection = Projection::all()
///     .columns(["id", "name"])
///     .columns_at([ColumnPath::new(["address", "city"])])
///     .row_groups([0])
///     .select_rows(0, RowSelection::from_ranges([10..20]));
/// # let _ = projection;
/// ```
#[derive(Debug, Clone, Default)]
pub struct Projection {
    columns: Option<Vec<ColumnPath>>,
    row_groups: Option<Vec<usize>>,
    selections: BTreeMap<usize, RowSelection>,
}

impl Projection {
    /// Every column of every row group.
    pub fn all() -> Self {
        Self::default()
    }

    /// Only these top-level fields (by name: a dot is part of the name), and those of
    /// [`columns_at`](Self::columns_at). The rows keep the schema's order of fields.
    #[must_use]
    pub fn columns<I, P>(self, names: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: AsRef<str>,
    {
        self.columns_at(names.into_iter().map(|n| ColumnPath::from(n.as_ref())))
    }

    /// Only the fields at these paths (a group's path selects everything under it), and
    /// those of [`columns`](Self::columns).
    #[must_use]
    pub fn columns_at(mut self, paths: impl IntoIterator<Item = ColumnPath>) -> Self {
        self.columns.get_or_insert_with(Vec::new).extend(paths);
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
    /// elsewhere the rows are skipped.
    #[must_use]
    pub fn select_rows(mut self, row_group: usize, rows: RowSelection) -> Self {
        self.selections.insert(row_group, rows);
        self
    }

    /// The leaf columns selected, in file order.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownPath`] for a path that names no field.
    pub fn leaves(&self, schema: &Schema) -> Result<Vec<usize>> {
        let Some(paths) = &self.columns else {
            return Ok((0..schema.columns().len()).collect());
        };
        let mut leaves = Vec::new();
        for path in paths {
            let under = schema.columns_under(path);
            if under.is_empty() {
                return Err(ErrorKind::UnknownPath { path: path.clone() }.into());
            }
            leaves.extend(under);
        }
        leaves.sort_unstable();
        leaves.dedup();
        Ok(leaves)
    }
}

/// The rows of a file, row group by row group.
pub struct RowIter<'r, S> {
    reader: &'r FileReader<S>,
    assembly: Assembly,
    row_groups: Vec<usize>,
    next_row_group: usize,
    leaves: Vec<Leaf>,
    selections: BTreeMap<usize, RowSelection>,
    /// Rows left to read in the current row group.
    remaining: u64,
    row_group: usize,
    failed: bool,
}

impl<S> std::fmt::Debug for RowIter<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowIter")
            .field("columns", &self.assembly.columns())
            .field("row_group", &self.row_group)
            .field("remaining", &self.remaining)
            .finish_non_exhaustive()
    }
}

impl<'r, S: Source> RowIter<'r, S> {
    /// Every row, every column.
    pub(crate) fn all(reader: &'r FileReader<S>) -> Self {
        let schema = reader.schema();
        let columns: Vec<usize> = (0..schema.columns().len()).collect();
        Self {
            reader,
            assembly: Assembly::new(schema, &columns),
            row_groups: (0..reader.num_row_groups()).collect(),
            next_row_group: 0,
            leaves: Vec::new(),
            selections: BTreeMap::new(),
            remaining: 0,
            row_group: 0,
            failed: false,
        }
    }

    pub(crate) fn new(reader: &'r FileReader<S>, projection: Projection) -> Result<Self> {
        let schema = reader.schema();
        let selected = projection.leaves(schema)?;
        let row_groups = match projection.row_groups {
            Some(groups) => {
                for &g in &groups {
                    reader.metadata().row_group(g)?;
                }
                groups
            }
            None => (0..reader.num_row_groups()).collect(),
        };
        Ok(Self {
            assembly: Assembly::new(schema, &selected),
            row_groups,
            selections: projection.selections,
            ..Self::all(reader)
        })
    }

    fn start_row_group(&mut self, row_group: usize) -> Result<()> {
        let rows = self.reader.metadata().row_group(row_group)?.num_rows();
        let selection = self.selections.get(&row_group);
        self.leaves.clear();
        for &c in self.assembly.columns() {
            let reader = match selection {
                Some(rows) => self.reader.column_chunk_selected(row_group, c, rows)?,
                None => self.reader.column_chunk(row_group, c)?,
            };
            self.leaves.push(Leaf::new(reader));
        }
        self.remaining =
            selection.map_or(rows, |s| s.intersect(&RowSelection::all(rows)).row_count());
        self.row_group = row_group;
        Ok(())
    }

    /// Checks that every leaf ended with the row group's rows read.
    fn finish_row_group(&mut self) -> Result<()> {
        for leaf in &mut self.leaves {
            if leaf.ensure()? {
                return Err(crate::Error::malformed(
                    "a column chunk with more records than its row group has rows",
                ))
                .in_column(&leaf.reader().column().path);
            }
        }
        Ok(())
    }

    fn next_row(&mut self) -> Result<Option<Row>> {
        while self.remaining == 0 {
            if !self.leaves.is_empty() {
                self.finish_row_group().in_row_group(self.row_group)?;
                self.leaves.clear();
            }
            let Some(&row_group) = self.row_groups.get(self.next_row_group) else {
                return Ok(None);
            };
            self.next_row_group += 1;
            self.start_row_group(row_group).in_row_group(row_group)?;
        }
        self.remaining -= 1;
        self.assembly
            .read(&mut self.leaves)
            .in_row_group(self.row_group)
            .map(Some)
    }
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
