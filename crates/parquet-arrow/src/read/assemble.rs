//! Arrow arrays from the levels of leaf columns: a struct's validity, a list's offsets
//! and validity, and a leaf's slots, each from the definition and repetition levels of
//! the leaves under it (the Dremel algorithm, in reverse).

use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, LargeListArray, LargeListViewArray, ListArray,
    ListViewArray, MapArray, StructArray,
};
use arrow_buffer::{BooleanBuffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use parquet_file::{ColumnBatch, ColumnDescriptor};

use super::dictionary::{DictionaryCache, indices_array};
use super::leaf::leaf_array;
use crate::error::{Result, invalid, unsupported};
use crate::schema::{ArrowShape, ShapeKind};

/// A leaf column's batch of records, read for one batch of rows.
pub(crate) struct LeafBatch {
    pub(crate) column: ColumnDescriptor,
    pub(crate) batch: ColumnBatch,
    /// The column chunk's dictionary as an Arrow array, when the batch keeps dictionary
    /// indices.
    pub(crate) dictionary: DictionaryCache,
}

impl LeafBatch {
    fn def(&self, entry: usize) -> u16 {
        self.batch.def_levels().get(entry).copied().unwrap_or(0)
    }
}

/// The level entries of a leaf that start the slots of a field's array.
pub(crate) enum Slots {
    /// Entries `0..n`, one per slot.
    Dense(usize),
    /// These entries, in order (an entry repeats where a null fixed-size list holds
    /// null elements).
    Entries(Vec<usize>),
}

impl Slots {
    fn len(&self) -> usize {
        match self {
            Self::Dense(n) => *n,
            Self::Entries(e) => e.len(),
        }
    }

    fn entry(&self, slot: usize) -> usize {
        match self {
            Self::Dense(_) => slot,
            Self::Entries(e) => e.get(slot).copied().unwrap_or(usize::MAX),
        }
    }

    /// The slots of the records of `leaf`: its entries with repetition level 0.
    pub(crate) fn records(leaf: &LeafBatch) -> Self {
        if leaf.column.max_rep_level == 0 {
            Self::Dense(leaf.batch.num_levels())
        } else {
            Self::Entries(
                leaf.batch
                    .rep_levels()
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &r)| (r == 0).then_some(i))
                    .collect(),
            )
        }
    }
}

/// The validity of the slots of `leaf`: valid where the definition level reaches `def`;
/// `None` when every slot is.
fn validity(leaf: &LeafBatch, slots: &Slots, def: u16) -> Option<NullBuffer> {
    let levels = leaf.batch.def_levels();
    if def == 0 || levels.is_empty() {
        return None;
    }
    let valid = match slots {
        // Most often nothing is null: one pass over the levels says so.
        Slots::Dense(n) if levels.len() == *n && levels.iter().all(|&d| d >= def) => return None,
        Slots::Dense(n) => {
            BooleanBuffer::collect_bool(*n, |i| levels.get(i).is_some_and(|&d| d >= def))
        }
        Slots::Entries(e) => BooleanBuffer::collect_bool(e.len(), |i| leaf.def(e[i]) >= def),
    };
    Some(NullBuffer::new(valid)).filter(|n| n.null_count() > 0)
}

/// The array of `shape` over `slots` (one per leaf of `leaves`, which are the shape's).
pub(crate) fn build(
    shape: &ArrowShape,
    leaves: &mut [LeafBatch],
    slots: Vec<Slots>,
) -> Result<ArrayRef> {
    let len = slots.first().map_or(0, Slots::len);
    match &shape.kind {
        ShapeKind::Leaf { .. } => {
            let (Some(leaf), Some(slots)) = (leaves.first_mut(), slots.first()) else {
                return Err(unsupported("a leaf without its column"));
            };
            let nulls = validity(leaf, slots, leaf.column.max_def_level);
            let target = shape.field.data_type();
            if let Some(indices) = leaf.batch.take_dictionary_indices() {
                let cache = &mut leaf.dictionary;
                return indices_array(indices, cache, &leaf.column, target, nulls, len);
            }
            let values = leaf.batch.take_values();
            leaf_array(values, &leaf.column, target, nulls, len)
        }
        ShapeKind::Struct { def, children } => {
            let nulls = match (shape.field.is_nullable(), leaves.first(), slots.first()) {
                (true, Some(leaf), Some(s)) => validity(leaf, s, *def),
                _ => None,
            };
            let DataType::Struct(fields) = shape.field.data_type() else {
                return Err(unsupported("a struct shape of another type"));
            };
            let arrays = build_children(children, leaves, slots)?;
            Ok(Arc::new(StructArray::try_new_with_length(
                fields.clone(),
                arrays,
                nulls,
                len,
            )?))
        }
        ShapeKind::List {
            def,
            elem_def,
            rep,
            child,
        } => {
            let fixed = match shape.field.data_type() {
                DataType::FixedSizeList(_, n) => Some(usize::try_from(*n).unwrap_or(0)),
                _ => None,
            };
            let mut offsets = Vec::new();
            let mut child_slots = Vec::with_capacity(leaves.len());
            for (i, (leaf, s)) in leaves.iter().zip(&slots).enumerate() {
                let (o, c) = elements(leaf, s, *def, *elem_def, *rep, fixed)?;
                if i == 0 {
                    offsets = o;
                } else if o != offsets {
                    return Err(invalid(format!(
                        "columns {} and {}: lists whose lengths differ",
                        leaves[0].column.path, leaf.column.path
                    )));
                }
                child_slots.push(c);
            }
            let nulls = match (shape.field.is_nullable(), leaves.first(), slots.first()) {
                (true, Some(leaf), Some(s)) => validity(leaf, s, *def),
                _ => None,
            };
            let values = build(child, leaves, child_slots)?;
            list_array(
                shape.field.data_type(),
                shape.field.name(),
                offsets,
                values,
                nulls,
                fixed,
            )
        }
    }
}

/// The arrays of a struct's `children`, each over its own leaves' slots.
fn build_children(
    children: &[ArrowShape],
    mut leaves: &mut [LeafBatch],
    slots: Vec<Slots>,
) -> Result<Vec<ArrayRef>> {
    let mut slots = slots.into_iter();
    let mut arrays = Vec::with_capacity(children.len());
    let mut columns = Vec::new();
    for child in children {
        columns.clear();
        child.columns(&mut columns);
        let n = columns.len();
        if leaves.len() < n {
            return Err(unsupported("a struct with fewer columns than its fields"));
        }
        let (mine, rest) = std::mem::take(&mut leaves).split_at_mut(n);
        leaves = rest;
        arrays.push(build(child, mine, slots.by_ref().take(n).collect())?);
    }
    Ok(arrays)
}

/// The offsets of the lists in `slots` of `leaf` (valid at `def`, non-empty at
/// `elem_def`, an element at each entry of repetition level `rep`), and the slots of
/// their elements. For a fixed-size list of `n`, each list must have `n` elements, and a
/// null one gets `n` null elements.
fn elements(
    leaf: &LeafBatch,
    slots: &Slots,
    def: u16,
    elem_def: u16,
    rep: u16,
    fixed: Option<usize>,
) -> Result<(Vec<usize>, Slots)> {
    let reps = leaf.batch.rep_levels();
    let mut offsets = Vec::with_capacity(slots.len() + 1);
    let mut children = Vec::with_capacity(reps.len());
    offsets.push(0);
    for slot in 0..slots.len() {
        let e = slots.entry(slot);
        let d = leaf.def(e);
        let start = children.len();
        if d >= elem_def {
            children.push(e);
            let mut j = e + 1;
            while let Some(&r) = reps.get(j) {
                if r < rep {
                    break;
                }
                if r == rep {
                    children.push(j);
                }
                j += 1;
            }
        }
        if let Some(n) = fixed {
            let count = children.len() - start;
            if d < def && count == 0 {
                children.extend(std::iter::repeat_n(e, n));
            } else if count != n {
                return Err(invalid(format!(
                    "column {}: a list of {count} elements for a fixed-size list of {n}",
                    leaf.column.path
                )));
            }
        }
        offsets.push(children.len());
    }
    Ok((offsets, Slots::Entries(children)))
}

fn list_array(
    data_type: &DataType,
    name: &str,
    offsets: Vec<usize>,
    values: ArrayRef,
    nulls: Option<NullBuffer>,
    fixed: Option<usize>,
) -> Result<ArrayRef> {
    let too_long = || {
        invalid(format!(
            "{name}: more list elements than 32-bit offsets hold"
        ))
    };
    Ok(match data_type {
        DataType::List(field) => {
            let offsets = offsets
                .into_iter()
                .map(i32::try_from)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| too_long())?;
            Arc::new(ListArray::try_new(
                Arc::clone(field),
                OffsetBuffer::new(ScalarBuffer::from(offsets)),
                values,
                nulls,
            )?)
        }
        DataType::LargeList(field) => {
            let offsets = offsets
                .into_iter()
                .map(i64::try_from)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| too_long())?;
            Arc::new(LargeListArray::try_new(
                Arc::clone(field),
                OffsetBuffer::new(ScalarBuffer::from(offsets)),
                values,
                nulls,
            )?)
        }
        DataType::ListView(field) => {
            let list = list_array(
                &DataType::List(Arc::clone(field)),
                name,
                offsets,
                values,
                nulls,
                fixed,
            )?;
            let list = list
                .as_any()
                .downcast_ref::<ListArray>()
                .ok_or_else(|| unsupported("a list view"))?;
            Arc::new(ListViewArray::from(list.clone()))
        }
        DataType::LargeListView(field) => {
            let list = list_array(
                &DataType::LargeList(Arc::clone(field)),
                name,
                offsets,
                values,
                nulls,
                fixed,
            )?;
            let list = list
                .as_any()
                .downcast_ref::<LargeListArray>()
                .ok_or_else(|| unsupported("a list view"))?;
            Arc::new(LargeListViewArray::from(list.clone()))
        }
        DataType::FixedSizeList(field, n) => {
            let len = offsets.len().saturating_sub(1);
            debug_assert!(fixed.is_some());
            Arc::new(FixedSizeListArray::try_new_with_length(
                Arc::clone(field),
                *n,
                values,
                nulls,
                len,
            )?)
        }
        DataType::Map(field, sorted) => {
            let offsets = offsets
                .into_iter()
                .map(i32::try_from)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| too_long())?;
            let entries = values
                .as_any()
                .downcast_ref::<StructArray>()
                .ok_or_else(|| unsupported("map entries that are not a struct"))?
                .clone();
            Arc::new(MapArray::try_new(
                Arc::clone(field),
                OffsetBuffer::new(ScalarBuffer::from(offsets)),
                entries,
                nulls,
                *sorted,
            )?)
        }
        other => return Err(unsupported(format!("a list read as {other}"))),
    })
}
