//! What to read: the columns ([`ProjectionMask`]), and the row groups and rows of each
//! (a plan from the row groups asked for, the rows selected, the predicate's statistics,
//! and the offset and limit).

use parquet_file::{
    ColumnPath, FileReader, Predicate, PredicateExt as _, RowSelection, Schema, Source,
};

use super::GroupPlan;
use crate::error::{Error, Result};

/// The columns to read: top-level fields by name, fields at paths (a group's path
/// selects everything under it), or leaves by their index among the file's columns.
/// A struct keeps only its selected fields; a map is read whole.
#[derive(Debug, Clone, Default)]
pub struct ProjectionMask {
    paths: Option<Vec<ColumnPath>>,
    leaves: Option<Vec<usize>>,
}

impl ProjectionMask {
    /// Every column.
    pub fn all() -> Self {
        Self::default()
    }

    /// The top-level fields named `names` (a dot is part of a name).
    pub fn columns<I, P>(names: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: AsRef<str>,
    {
        Self::paths(names.into_iter().map(|n| ColumnPath::new([n.as_ref()])))
    }

    /// The fields at `paths`.
    pub fn paths(paths: impl IntoIterator<Item = ColumnPath>) -> Self {
        Self {
            paths: Some(paths.into_iter().collect()),
            leaves: None,
        }
    }

    /// The leaf columns of these indices (in [`Schema::columns`] order).
    pub fn leaves(leaves: impl IntoIterator<Item = usize>) -> Self {
        Self {
            paths: None,
            leaves: Some(leaves.into_iter().collect()),
        }
    }

    /// One flag per column of `schema`: whether it is selected.
    pub(crate) fn selected(&self, schema: &Schema) -> Result<Vec<bool>> {
        let n = schema.columns().len();
        if self.paths.is_none() && self.leaves.is_none() {
            return Ok(vec![true; n]);
        }
        let mut selected = vec![false; n];
        for path in self.paths.iter().flatten() {
            let under = schema.columns_under(path);
            if under.is_empty() {
                return Err(Error::Argument(format!("no column {path}")));
            }
            for c in under {
                selected[c] = true;
            }
        }
        for &leaf in self.leaves.iter().flatten() {
            *selected
                .get_mut(leaf)
                .ok_or_else(|| Error::Argument(format!("leaf {leaf} of {n} columns")))? = true;
        }
        Ok(selected)
    }
}

/// The row groups to read and their rows: `selection` counts rows over `row_groups` one
/// after another; `predicate` skips row groups and pages; `offset_limit` (when the rows
/// are not filtered after reading) trims the rows from the front and the back.
pub(crate) fn plan<S: Source>(
    reader: &FileReader<S>,
    row_groups: &[usize],
    selection: Option<&RowSelection>,
    predicate: Option<&Predicate>,
    offset_limit: Option<(usize, Option<usize>)>,
) -> Result<Vec<GroupPlan>> {
    let mut plans = Vec::with_capacity(row_groups.len());
    let mut start = 0u64;
    for &row_group in row_groups {
        let num_rows = reader.metadata().row_group(row_group)?.num_rows();
        let mut rows = selection.map(|s| {
            RowSelection::from_ranges(s.ranges().iter().filter_map(|r| {
                let lo = r.start.max(start);
                let hi = r.end.min(start + num_rows);
                (lo < hi).then(|| lo - start..hi - start)
            }))
        });
        start += num_rows;
        if let Some(predicate) = predicate {
            if !predicate.might_match(reader, row_group)? {
                continue;
            }
            let pages = predicate.row_selection(reader, row_group)?;
            if pages.row_count() < num_rows {
                rows = Some(match rows {
                    Some(r) => r.intersect(&pages),
                    None => pages,
                });
            }
        }
        if rows.as_ref().is_some_and(RowSelection::is_empty) {
            continue;
        }
        plans.push(GroupPlan {
            row_group,
            rows,
            num_rows,
        });
    }
    if let Some((offset, limit)) = offset_limit {
        trim(&mut plans, offset as u64, limit.map(|l| l as u64));
    }
    Ok(plans)
}

/// Drops the first `offset` rows of the plans, and those after `limit` more.
fn trim(plans: &mut Vec<GroupPlan>, mut offset: u64, mut limit: Option<u64>) {
    plans.retain_mut(|plan| {
        let ranges = match &plan.rows {
            Some(rows) => rows.ranges().to_vec(),
            None => std::iter::once(0..plan.num_rows).collect(),
        };
        let mut kept = Vec::new();
        for mut range in ranges {
            let skip = offset.min(range.end - range.start);
            offset -= skip;
            range.start += skip;
            if let Some(limit) = &mut limit {
                let take = (*limit).min(range.end - range.start);
                *limit -= take;
                range.end = range.start + take;
            }
            if range.start < range.end {
                kept.push(range);
            }
        }
        if kept.is_empty() {
            return false;
        }
        if !(kept.len() == 1 && kept[0] == (0..plan.num_rows)) {
            plan.rows = Some(RowSelection::from_ranges(kept));
        }
        true
    });
}
