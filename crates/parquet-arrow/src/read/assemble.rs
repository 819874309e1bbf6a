//! Arrow arrays from the levels of leaf columns: a struct's validity, a list's offsets
//! and validity, and a leaf's slots, each from the definition and repetition levels of
//! the leaves under it (the Dremel algorithm, in reverse).
//!
//! The slots of a field are most often a filter of its leaf's level entries: those whose
//! repetition level is at most the field's and whose definition level reaches the one
//! its parent list holds elements at. Each array then comes of one pass over the levels.
//! A fixed-size list holding null lists repeats entries, and names its slots one by one.

use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, LargeListArray, LargeListViewArray, ListArray,
    ListViewArray, MapArray, OffsetSizeTrait, StructArray,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use parquet_file::{ColumnBatch, ColumnDescriptor};

use super::indices::{DictionaryCache, indices_array};
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

    /// The number of level entries that may start a slot.
    fn entries(&self) -> usize {
        if self.column.max_rep_level == 0 {
            self.batch.num_levels()
        } else {
            self.batch.rep_levels().len()
        }
    }

    /// The repetition and definition levels, one each per level entry (an empty slice
    /// where the column has no such levels), when they are that.
    fn levels(&self) -> Option<(&[u16], &[u16])> {
        let n = self.batch.num_levels();
        let (reps, defs) = (self.batch.rep_levels(), self.batch.def_levels());
        let reps_fit = reps.len() == n || (reps.is_empty() && self.column.max_rep_level == 0);
        let defs_fit = defs.len() == n || (defs.is_empty() && self.column.max_def_level == 0);
        (reps_fit && defs_fit).then_some((reps, defs))
    }
}

/// The level entries of a leaf that start the slots of a field's array.
pub(crate) enum Slots {
    /// The entries whose repetition level is at most `rep` and whose definition level
    /// reaches `def`, in order: `len` of them.
    Levels { rep: u16, def: u16, len: usize },
    /// These entries, in order (an entry repeats where a null fixed-size list holds
    /// null elements).
    Entries(Vec<usize>),
}

impl Slots {
    fn len(&self) -> usize {
        match self {
            Self::Levels { len, .. } => *len,
            Self::Entries(e) => e.len(),
        }
    }

    /// The slots of the records of `leaf`: its entries with repetition level 0.
    pub(crate) fn records(leaf: &LeafBatch) -> Self {
        let len = if leaf.column.max_rep_level == 0 {
            leaf.batch.num_levels()
        } else {
            leaf.batch.rep_levels().iter().filter(|&&r| r == 0).count()
        };
        Self::Levels {
            rep: 0,
            def: 0,
            len,
        }
    }

    /// The entries of these slots of `leaf`, one by one.
    fn entries(&self, leaf: &LeafBatch) -> Vec<usize> {
        match self {
            Self::Entries(e) => e.clone(),
            Self::Levels { rep, def, len } => {
                let reps = leaf.batch.rep_levels();
                let mut out = Vec::with_capacity(*len);
                out.extend(
                    (0..leaf.entries()).filter(|&e| {
                        reps.get(e).copied().unwrap_or(0) <= *rep && leaf.def(e) >= *def
                    }),
                );
                out
            }
        }
    }
}

/// The bits of up to 64 flags (each 0 or 1), the first lowest.
#[inline]
fn pack(flags: &[u8; 64]) -> u64 {
    // Multiplying 8 flags, one per byte, by this gathers them in the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    flags.chunks_exact(8).enumerate().fold(0, |m, (i, bytes)| {
        let mut eight = [0; 8];
        eight.copy_from_slice(bytes);
        m | ((u64::from_le_bytes(eight).wrapping_mul(GATHER) >> 56) << (8 * i))
    })
}

/// For 64 flags (each 0 or 1), the number set before each, and the number set.
#[inline]
fn exclusive_sums(flags: &[u8; 64]) -> ([u8; 64], u8) {
    // Multiplying 8 flags, one per byte, by this sums each byte and those below it.
    const SUM: u64 = 0x0101_0101_0101_0101;
    let mut sums = [0; 64];
    let mut total = 0u8;
    for (to, from) in sums.chunks_exact_mut(8).zip(flags.chunks_exact(8)) {
        let mut eight = [0; 8];
        eight.copy_from_slice(from);
        let flags = u64::from_le_bytes(eight);
        let inclusive = flags.wrapping_mul(SUM);
        // No byte exceeds 64: no carry between bytes.
        let before = inclusive - flags + u64::from(total) * SUM;
        to.copy_from_slice(&before.to_le_bytes());
        total += inclusive.to_le_bytes()[7];
    }
    (sums, total)
}

/// The bits of `f` of up to 64 levels, the first lowest.
#[inline]
fn mask(levels: &[u16], f: impl Fn(u16) -> bool) -> u64 {
    let mut flags = [0; 64];
    for (flag, &l) in flags.iter_mut().zip(levels) {
        *flag = u8::from(f(l));
    }
    pack(&flags)
}

/// The bits of `f` of up to 64 entries of two level slices, the first lowest.
#[inline]
fn mask2(reps: &[u16], defs: &[u16], f: impl Fn(u16, u16) -> bool) -> u64 {
    let mut flags = [0; 64];
    for (flag, (&r, &d)) in flags.iter_mut().zip(reps.iter().zip(defs)) {
        *flag = u8::from(f(r, d));
    }
    pack(&flags)
}

/// The number of levels in a chunk of at most 64.
fn chunk(levels: &[u16]) -> u32 {
    u32::try_from(levels.len()).unwrap_or(64).min(64)
}

/// Validity bits appended in runs, 64 to a word.
struct Bits {
    words: Vec<u64>,
    word: u64,
    len: usize,
}

impl Bits {
    fn with_capacity(len: usize) -> Self {
        Self {
            words: Vec::with_capacity(len.div_ceil(64)),
            word: 0,
            len: 0,
        }
    }

    /// Appends the low `n` (1 to 64) bits of `bits`, whose other bits are clear.
    #[inline]
    fn append(&mut self, bits: u64, n: u32) {
        #[allow(clippy::cast_possible_truncation)]
        let used = (self.len & 63) as u32;
        self.word |= bits << used;
        if used + n >= 64 {
            self.words.push(self.word);
            self.word = if used == 0 { 0 } else { bits >> (64 - used) };
        }
        self.len += n as usize;
    }

    /// Appends the bits of `bits` where `keep` has its bits set, in order, of the low
    /// `n` (1 to 64).
    #[inline]
    fn append_kept(&mut self, bits: u64, keep: u64, n: u32) {
        let all = u64::MAX >> (64 - n);
        let mut holes = !keep & all;
        let mut bits = bits & keep & all;
        let mut kept = n;
        // Most slots are kept: each hole, from the highest, shifts the bits above it.
        while holes != 0 {
            let hole = holes.ilog2();
            let below = (1u64 << hole) - 1;
            bits = (bits & below) | ((bits >> 1) & !below);
            holes &= below;
            kept -= 1;
        }
        if kept > 0 {
            self.append(bits, kept);
        }
    }

    /// The nulls, `None` when every slot is valid.
    fn finish(mut self) -> Option<NullBuffer> {
        if self.len & 63 != 0 {
            self.words.push(self.word);
        }
        null_buffer(self.words, self.len)
    }
}

/// The nulls of `len` slots whose validity bits are `words`; `None` when every slot is
/// valid.
fn null_buffer(words: Vec<u64>, len: usize) -> Option<NullBuffer> {
    let bits = BooleanBuffer::new(Buffer::from_vec(words), 0, len);
    Some(NullBuffer::new(bits)).filter(|n| n.null_count() > 0)
}

/// The validity of the slots of `leaf`: valid where the definition level reaches `def`;
/// `None` when every slot is.
// `&` over `&&`: both sides are cheap, and no branch on either vectorizes.
#[allow(clippy::needless_bitwise_bool)]
fn validity(leaf: &LeafBatch, slots: &Slots, def: u16) -> Result<Option<NullBuffer>> {
    let levels = leaf.batch.def_levels();
    if def == 0 || levels.is_empty() || slots.len() == 0 {
        return Ok(None);
    }
    let (rep, slot_def, len) = match slots {
        Slots::Levels { rep, def, len } => (*rep, *def, *len),
        Slots::Entries(e) => {
            let valid = BooleanBuffer::collect_bool(e.len(), |i| leaf.def(e[i]) >= def);
            return Ok(Some(NullBuffer::new(valid)).filter(|n| n.null_count() > 0));
        }
    };
    let Some((reps, defs)) = leaf.levels() else {
        return validity(leaf, &Slots::Entries(slots.entries(leaf)), def);
    };
    // Most often nothing is null: a value for every entry says so (every entry is at
    // the column's maximum level), and otherwise one pass over the levels.
    if leaf.batch.num_values() == defs.len() || defs.iter().all(|&d| d >= def) {
        return Ok(None);
    }
    if slot_def == 0 && rep >= leaf.column.max_rep_level && defs.len() == len {
        // A slot at each entry.
        let words = defs.chunks(64).map(|d| mask(d, |d| d >= def)).collect();
        return Ok(null_buffer(words, len));
    }
    // A valid slot is one: its definition level reaches both.
    let valid_def = def.max(slot_def);
    let mut bits = Bits::with_capacity(len);
    if rep >= leaf.column.max_rep_level {
        for defs in defs.chunks(64) {
            let slots = mask(defs, |d| d >= slot_def);
            bits.append_kept(mask(defs, |d| d >= valid_def), slots, chunk(defs));
        }
    } else {
        for (reps, defs) in reps.chunks(64).zip(defs.chunks(64)) {
            let slots = mask2(reps, defs, |r, d| (r <= rep) & (d >= slot_def));
            bits.append_kept(mask(defs, |d| d >= valid_def), slots, chunk(defs));
        }
    }
    if bits.len != len {
        return Err(invalid(format!(
            "column {}: {} slots where the levels above give {len}",
            leaf.column.path, bits.len
        )));
    }
    Ok(bits.finish())
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
            let nulls = validity(leaf, slots, leaf.column.max_def_level)?;
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
                (true, Some(leaf), Some(s)) => validity(leaf, s, *def)?,
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
            let list = List {
                def: *def,
                elem_def: *elem_def,
                rep: *rep,
                nullable: shape.field.is_nullable(),
            };
            let data_type = shape.field.data_type();
            let fixed = match data_type {
                DataType::FixedSizeList(_, n) => Some(usize::try_from(*n).unwrap_or(0)),
                _ => None,
            };
            let quick = match data_type {
                DataType::List(_) | DataType::ListView(_) | DataType::Map(..) => list
                    .offsets::<i32>(leaves, &slots)?
                    .map(|(o, n, c)| (Offsets::Narrow(o), n, c)),
                DataType::LargeList(_) | DataType::LargeListView(_) => list
                    .offsets::<i64>(leaves, &slots)?
                    .map(|(o, n, c)| (Offsets::Wide(o), n, c)),
                _ => None,
            };
            let (offsets, nulls, child_slots) = match quick {
                Some(quick) => quick,
                None => list.entries(leaves, &slots, fixed)?,
            };
            let values = build(child, leaves, child_slots)?;
            list_array(data_type, shape.field.name(), offsets, values, nulls)
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

/// A list's offsets, in the width of its Arrow type, or as counts.
enum Offsets {
    Counts(Vec<usize>),
    Narrow(Vec<i32>),
    Wide(Vec<i64>),
}

impl Offsets {
    /// The number of lists.
    fn lists(&self) -> usize {
        match self {
            Self::Counts(o) => o.len(),
            Self::Narrow(o) => o.len(),
            Self::Wide(o) => o.len(),
        }
        .saturating_sub(1)
    }

    fn narrow(self) -> Option<Vec<i32>> {
        match self {
            Self::Narrow(o) => Some(o),
            Self::Counts(o) => o.into_iter().map(|o| i32::try_from(o).ok()).collect(),
            Self::Wide(o) => o.into_iter().map(|o| i32::try_from(o).ok()).collect(),
        }
    }

    fn wide(self) -> Option<Vec<i64>> {
        match self {
            Self::Wide(o) => Some(o),
            Self::Counts(o) => o.into_iter().map(|o| i64::try_from(o).ok()).collect(),
            Self::Narrow(o) => Some(o.into_iter().map(i64::from).collect()),
        }
    }
}

/// The offsets and validity of a list, with the slots of its elements.
type Lists = (Offsets, Option<NullBuffer>, Vec<Slots>);

/// [`Lists`] with offsets of one width.
type Offsetted<O> = (Vec<O>, Option<NullBuffer>, Vec<Slots>);

/// A list or map: valid where the definition level reaches `def`, holding elements where
/// it reaches `elem_def`; an element starts at each entry whose repetition level is
/// `rep` (or less, the first of a list).
#[derive(Clone, Copy)]
struct List {
    def: u16,
    elem_def: u16,
    rep: u16,
    nullable: bool,
}

impl List {
    /// The offsets, validity and element slots of the lists over `slots`, each a filter
    /// of its leaf's entries, in one pass over the levels of the first leaf; the other
    /// leaves must have the same lists. `None` where the slots or levels are not such.
    fn offsets<O: OffsetSizeTrait>(
        self,
        leaves: &[LeafBatch],
        slots: &[Slots],
    ) -> Result<Option<Offsetted<O>>> {
        let Some((Slots::Levels { rep, def, len }, first)) = slots.first().zip(leaves.first())
        else {
            return Ok(None);
        };
        let parent = (*rep, *def, *len);
        let usable = |leaf: &LeafBatch, slots: &Slots| {
            let fits = O::from_usize(leaf.batch.num_levels()).is_some();
            let same =
                matches!(slots, Slots::Levels { rep, def, len } if (*rep, *def, *len) == parent);
            fits && same && leaf.levels().is_some()
        };
        if parent.0 >= self.rep || !leaves.iter().zip(slots).all(|(l, s)| usable(l, s)) {
            return Ok(None);
        }
        let Some((offsets, nulls, count)) = self.pass::<O>(first, parent, self.nullable)? else {
            return Ok(None);
        };
        let mut children = Vec::with_capacity(leaves.len());
        children.push(Slots::Levels {
            rep: self.rep,
            def: self.elem_def,
            len: count,
        });
        for leaf in leaves.iter().skip(1) {
            if !self.same_lists(first, leaf) {
                let theirs = self.pass::<O>(leaf, parent, false)?;
                if theirs.is_none_or(|(o, _, _)| o != offsets) {
                    return Err(invalid(format!(
                        "columns {} and {}: lists whose lengths differ",
                        first.column.path, leaf.column.path
                    )));
                }
            }
            children.push(Slots::Levels {
                rep: self.rep,
                def: self.elem_def,
                len: count,
            });
        }
        Ok(Some((offsets, nulls, children)))
    }

    /// One pass over the levels of `leaf`: the offsets of the lists at the entries of
    /// `parent` (repetition level at most `rep`, definition level reaching `def`, `len`
    /// of them), their validity when `nullable`, and the number of elements. `None`
    /// where the levels are not one per entry.
    #[allow(clippy::type_complexity, clippy::needless_bitwise_bool)]
    fn pass<O: OffsetSizeTrait>(
        self,
        leaf: &LeafBatch,
        (rep, def, len): (u16, u16, usize),
        nullable: bool,
    ) -> Result<Option<(Vec<O>, Option<NullBuffer>, usize)>> {
        let Some((reps, defs)) = leaf.levels() else {
            return Ok(None);
        };
        if reps.is_empty() || defs.is_empty() {
            return Ok(None);
        }
        let mut offsets = Vec::with_capacity(len + 1);
        let mut bits = Bits::with_capacity(if nullable { len } else { 0 });
        let valid_def = self.def.max(def);
        let mut count = 0usize;
        // 64 entries at a time: which start a list, which are elements, and the offset
        // of each list the elements before it.
        for (reps, defs) in reps.chunks(64).zip(defs.chunks(64)) {
            let starts = mask2(reps, defs, |r, d| (r <= rep) & (d >= def));
            let mut elements = [0; 64];
            for (e, (&r, &d)) in elements.iter_mut().zip(reps.iter().zip(defs)) {
                *e = u8::from((r <= self.rep) & (d >= self.elem_def));
            }
            let (before, total) = exclusive_sums(&elements);
            let valid = if nullable {
                mask(defs, |d| d >= valid_def)
            } else {
                0
            };
            let (mut left, mut word, mut bit) = (starts, 0u64, 0u32);
            while left != 0 {
                let at = left.trailing_zeros();
                let before = before.get(at as usize).copied().unwrap_or(0);
                offsets.push(O::usize_as(count + usize::from(before)));
                word |= ((valid >> at) & 1) << bit;
                bit += 1;
                left &= left - 1;
            }
            if nullable && bit > 0 {
                bits.append(word, bit);
            }
            count += usize::from(total);
        }
        offsets.push(O::usize_as(count));
        if offsets.len() != len + 1 || offsets.first().is_some_and(|o| o.as_usize() != 0) {
            return Err(invalid(format!(
                "column {}: {} lists where the levels above give {len}, or elements before \
                 the first",
                leaf.column.path,
                offsets.len() - 1
            )));
        }
        let nulls = if nullable && self.def > 0 {
            bits.finish()
        } else {
            None
        };
        Ok(Some((offsets, nulls, count)))
    }

    /// Whether `other` has the lists of `first` (both with levels one per entry): the
    /// same repetition levels, and definition levels that agree up to the elements.
    fn same_lists(self, first: &LeafBatch, other: &LeafBatch) -> bool {
        let (Some((reps, defs)), Some((other_reps, other_defs))) = (first.levels(), other.levels())
        else {
            return false;
        };
        if reps != other_reps || defs.len() != other_defs.len() {
            return false;
        }
        let at = self.elem_def;
        defs.chunks(1024)
            .zip(other_defs.chunks(1024))
            .all(|(a, b)| {
                a.iter()
                    .zip(b)
                    .fold(true, |same, (&a, &b)| same & (a.min(at) == b.min(at)))
            })
    }

    /// The offsets, validity and element slots of the lists over `slots`, entry by
    /// entry (for a fixed-size list of `fixed`, or slots that are not a filter).
    fn entries(self, leaves: &[LeafBatch], slots: &[Slots], fixed: Option<usize>) -> Result<Lists> {
        let mut offsets = Vec::new();
        let mut child_slots = Vec::with_capacity(leaves.len());
        for (i, (leaf, s)) in leaves.iter().zip(slots).enumerate() {
            let (o, c) = self.elements(leaf, &s.entries(leaf), fixed)?;
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
        let nulls = match (self.nullable, leaves.first(), slots.first()) {
            (true, Some(leaf), Some(s)) => validity(leaf, s, self.def)?,
            _ => None,
        };
        Ok((Offsets::Counts(offsets), nulls, child_slots))
    }

    /// The offsets of the lists at `entries` of `leaf`, and the slots of their elements.
    /// For a fixed-size list of `n`, each list must have `n` elements, and a null one
    /// gets `n` null elements.
    fn elements(
        self,
        leaf: &LeafBatch,
        entries: &[usize],
        fixed: Option<usize>,
    ) -> Result<(Vec<usize>, Slots)> {
        let reps = leaf.batch.rep_levels();
        let mut offsets = Vec::with_capacity(entries.len() + 1);
        let mut children = Vec::with_capacity(reps.len());
        offsets.push(0);
        for &e in entries {
            let d = leaf.def(e);
            let start = children.len();
            if d >= self.elem_def {
                children.push(e);
                let mut j = e + 1;
                while let Some(&r) = reps.get(j) {
                    if r < self.rep {
                        break;
                    }
                    if r == self.rep {
                        children.push(j);
                    }
                    j += 1;
                }
            }
            if let Some(n) = fixed {
                let count = children.len() - start;
                if d < self.def && count == 0 {
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
}

fn list_array(
    data_type: &DataType,
    name: &str,
    offsets: Offsets,
    values: ArrayRef,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef> {
    let too_long = || {
        invalid(format!(
            "{name}: more list elements than 32-bit offsets hold"
        ))
    };
    Ok(match data_type {
        DataType::List(field) | DataType::ListView(field) => {
            let offsets = offsets.narrow().ok_or_else(too_long)?;
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            let list = ListArray::try_new(Arc::clone(field), offsets, values, nulls)?;
            if matches!(data_type, DataType::ListView(_)) {
                Arc::new(ListViewArray::from(list))
            } else {
                Arc::new(list)
            }
        }
        DataType::LargeList(field) | DataType::LargeListView(field) => {
            let offsets = offsets.wide().ok_or_else(too_long)?;
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            let list = LargeListArray::try_new(Arc::clone(field), offsets, values, nulls)?;
            if matches!(data_type, DataType::LargeListView(_)) {
                Arc::new(LargeListViewArray::from(list))
            } else {
                Arc::new(list)
            }
        }
        DataType::FixedSizeList(field, n) => {
            let len = offsets.lists();
            Arc::new(FixedSizeListArray::try_new_with_length(
                Arc::clone(field),
                *n,
                values,
                nulls,
                len,
            )?)
        }
        DataType::Map(field, sorted) => {
            let offsets = offsets.narrow().ok_or_else(too_long)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn masks_and_sums_match_the_flags(flags in proptest::collection::vec(any::<bool>(), 64)) {
            let bytes: [u8; 64] = std::array::from_fn(|i| u8::from(flags[i]));
            let packed = pack(&bytes);
            let (before, total) = exclusive_sums(&bytes);
            let mut seen = 0;
            for (i, &f) in flags.iter().enumerate() {
                prop_assert_eq!((packed >> i) & 1 == 1, f);
                prop_assert_eq!(usize::from(before[i]), seen);
                seen += usize::from(f);
            }
            prop_assert_eq!(usize::from(total), seen);
        }

        #[test]
        fn kept_bits_are_appended_in_order(
            chunks in proptest::collection::vec((any::<u64>(), any::<u64>(), 1u32..=64), 0..8),
        ) {
            let mut bits = Bits::with_capacity(0);
            let mut expected = Vec::new();
            for &(valid, keep, n) in &chunks {
                bits.append_kept(valid, keep, n);
                for i in 0..n {
                    if (keep >> i) & 1 == 1 {
                        expected.push((valid >> i) & 1 == 1);
                    }
                }
            }
            prop_assert_eq!(bits.len, expected.len());
            let got: Vec<bool> = match bits.finish() {
                Some(nulls) => nulls.iter().collect(),
                None => vec![true; expected.len()],
            };
            prop_assert_eq!(got, expected);
        }
    }
}
