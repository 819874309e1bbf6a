//! Definition and repetition levels of Arrow arrays (Dremel shredding), computed a
//! batch at a time.
//!
//! Each leaf column of the Parquet schema is reached from a top-level Arrow column by a
//! [`LeafPath`]: the nodes on the way (struct fields, lists, maps) and the leaf. A node
//! adds a definition level when it is optional (a nullable Arrow field) and when it is
//! repeated (a list or map: present and not empty), and a repetition level when it is
//! repeated. For every row the levels say how deep the value is defined, and where a
//! list continues; the leaf values to store are those of the entries defined all the way
//! down, given as ranges of positions in the leaf array.
//!
//! Columns without a list are computed from the null bitmaps alone (one level entry per
//! row). Columns under a list keep one entry per level entry, expanded list by list:
//! its repetition level, the definition level where it stopped, and its position in the
//! current array while it is still defined.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, FixedSizeListArray, GenericListArray, GenericListViewArray, OffsetSizeTrait,
};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Schema};
use parquet_file::Repetition;

use crate::error::{Error, Result, invalid, unsupported};
use crate::schema::repetition;

/// How a node of a leaf's path leads to the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Into child `i` of a struct.
    Struct(usize),
    /// Into the elements of a list (`List`, `LargeList`, `ListView`, `LargeListView`,
    /// `FixedSizeList`): a repeated level.
    List,
    /// Into the keys (0) or values (1) of a map's entries: a repeated level.
    Map(usize),
    /// The leaf: its values are stored.
    Leaf,
}

/// A node of a leaf's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathNode {
    /// Whether the node is optional: its nulls end a value's definition there.
    pub optional: bool,
    /// Where it leads.
    pub step: Step,
}

/// The way from a top-level Arrow column to one Parquet leaf column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LeafPath {
    /// The index of the top-level column in the batch.
    pub column: usize,
    /// The nodes from the top-level column to the leaf (the last one).
    pub nodes: Vec<PathNode>,
    /// The largest definition level.
    pub max_def: u16,
    /// The largest repetition level.
    pub max_rep: u16,
    /// The deepest list (node index) this leaf shares with the leaf before it: the
    /// entries expanded through it can be taken from that leaf.
    pub resume: Option<usize>,
    /// The deepest list (node index) this leaf shares with the leaf after it: the
    /// entries expanded through the lists up to it are kept for that leaf.
    pub save_through: Option<usize>,
}

/// The leaf paths of `schema`, in the order of the Parquet schema's leaf columns.
pub(crate) fn leaf_paths(schema: &Schema) -> Result<Vec<LeafPath>> {
    let mut paths = Vec::new();
    let mut prefix = Vec::new();
    for (column, field) in schema.fields().iter().enumerate() {
        let optional = repetition(field) == Repetition::Optional;
        walk(field, optional, column, &mut prefix, &mut paths)?;
    }
    for i in 1..paths.len() {
        let (before, after) = paths.split_at_mut(i);
        if let (Some(prev), Some(this)) = (before.last_mut(), after.first_mut())
            && prev.column == this.column
        {
            let shared = shared_list(&prev.nodes, &this.nodes);
            prev.save_through = shared;
            this.resume = shared;
        }
    }
    Ok(paths)
}

/// The deepest list or map (node index) two paths from the same column both go through,
/// with the same nodes before it: their entries are the same up to it.
fn shared_list(a: &[PathNode], b: &[PathNode]) -> Option<usize> {
    let mut shared = None;
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        let repeated = matches!(x.step, Step::List | Step::Map(_));
        if x == y {
            if repeated {
                shared = Some(j);
            }
            continue;
        }
        // The keys and the values of a map part after its entries are expanded.
        if matches!((x.step, y.step), (Step::Map(_), Step::Map(_))) && x.optional == y.optional {
            shared = Some(j);
        }
        break;
    }
    shared
}

fn walk(
    field: &Field,
    optional: bool,
    column: usize,
    prefix: &mut Vec<PathNode>,
    paths: &mut Vec<LeafPath>,
) -> Result<()> {
    let mut descend = |step, child: &Field, child_optional, prefix: &mut Vec<PathNode>| {
        prefix.push(PathNode { optional, step });
        let walked = walk(child, child_optional, column, prefix, paths);
        prefix.pop();
        walked
    };
    match field.data_type() {
        DataType::Struct(fields) => {
            for (i, child) in fields.iter().enumerate() {
                let child_optional = repetition(child) == Repetition::Optional;
                descend(Step::Struct(i), child, child_optional, prefix)?;
            }
        }
        DataType::List(element)
        | DataType::LargeList(element)
        | DataType::ListView(element)
        | DataType::LargeListView(element)
        | DataType::FixedSizeList(element, _) => {
            let child_optional = repetition(element) == Repetition::Optional;
            descend(Step::List, element, child_optional, prefix)?;
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return Err(unsupported(format!(
                    "map field {} whose entries are not a struct",
                    field.name()
                )));
            };
            for (i, child) in kv.iter().enumerate().take(2) {
                // A map's key is required, whatever Arrow says.
                let child_optional = i == 1 && repetition(child) == Repetition::Optional;
                descend(Step::Map(i), child, child_optional, prefix)?;
            }
        }
        _ => {
            let mut nodes = prefix.clone();
            nodes.push(PathNode {
                optional,
                step: Step::Leaf,
            });
            let max_rep = nodes
                .iter()
                .filter(|n| matches!(n.step, Step::List | Step::Map(_)))
                .count();
            let max_def = nodes.iter().filter(|n| n.optional).count() + max_rep;
            paths.push(LeafPath {
                column,
                nodes,
                max_def: u16::try_from(max_def).map_err(|_| unsupported("nesting this deep"))?,
                max_rep: u16::try_from(max_rep).map_err(|_| unsupported("nesting this deep"))?,
                resume: None,
                save_through: None,
            });
        }
    }
    Ok(())
}

/// The mark of a level entry whose value is no longer defined: this bit, with the
/// definition level where it stopped in the low bits. An entry still defined holds its
/// position in the current array instead.
const ENDED: usize = 1 << (usize::BITS - 1);

/// The definition level of a position where a required node is null and its parents
/// are not: refused if an entry points at it.
const REFUSED: u16 = u16::MAX;

/// The levels of one leaf column of a batch, and where its values are.
///
/// Buffers are reused from leaf to leaf and batch to batch; the entries expanded through
/// the lists of one leaf are kept for the next leaf under the same lists (the fields of
/// a struct in a list), which takes them instead of expanding the lists again.
#[derive(Debug, Default)]
pub(crate) struct Levels {
    /// Per level entry: its position in the current array, or [`ENDED`] and its
    /// definition level.
    slots: Vec<usize>,
    rep: Vec<u16>,
    /// Scratch for expanding a list level.
    next_slots: Vec<usize>,
    next_rep: Vec<u16>,
    /// The positions in the leaf array of the values to store, in order.
    ranges: Vec<Range<usize>>,
    /// Below the last list: the definition level of each position of the window.
    chain_def: Vec<u16>,
    /// The batch being shredded (counted), so that kept entries are used only within it.
    batch: u64,
    /// Per repetition level (from 1), the entries as expanded through that list.
    kept: Vec<Kept>,
}

/// Entries kept after a list's expansion, for the next leaf under it.
#[derive(Debug, Default)]
struct Kept {
    batch: u64,
    column: usize,
    slots: Vec<usize>,
    rep: Vec<u16>,
    /// The definition level of the entries still defined, after the list.
    level: u16,
}

/// What [`Levels::compute`] gives: the leaf array, and the column's levels (empty when
/// its largest level is 0).
pub(crate) struct Shredded<'a> {
    pub leaf: &'a dyn Array,
    pub def: Vec<u16>,
    pub rep: Vec<u16>,
}

impl Levels {
    /// The positions in the leaf array of the values to store, from the last
    /// [`compute`](Self::compute).
    pub(crate) fn ranges(&self) -> &[Range<usize>] {
        &self.ranges
    }

    /// Computes the levels of the leaf `path` leads to in `array` (the top-level column).
    ///
    /// # Errors
    ///
    /// [`Error::Argument`] for a null in a non-nullable field where its parents are
    /// defined; [`Error::Invalid`] for offsets outside their array.
    pub(crate) fn compute<'a>(
        &mut self,
        array: &'a dyn Array,
        path: &LeafPath,
    ) -> Result<Shredded<'a>> {
        self.ranges.clear();
        if path.max_rep == 0 {
            self.compute_flat(array, path)
        } else {
            self.compute_repeated(array, path)
        }
    }

    /// A column without lists: one level entry per row.
    fn compute_flat<'a>(&mut self, array: &'a dyn Array, path: &LeafPath) -> Result<Shredded<'a>> {
        let rows = array.len();
        // Each node's nulls and the definition level of a value defined there.
        let mut nodes: Vec<(Option<NullBuffer>, bool, u16)> = Vec::with_capacity(path.nodes.len());
        let mut current = array;
        let mut level = 0u16;
        let mut leaf = array;
        for node in &path.nodes {
            let nulls = match node.step {
                Step::Leaf => current.logical_nulls(),
                _ => current.nulls().cloned(),
            }
            .filter(|n| n.null_count() > 0);
            if node.optional {
                level += 1;
            }
            nodes.push((nulls, node.optional, level));
            match node.step {
                Step::Struct(_) => current = descend(current, node.step)?,
                Step::Leaf => leaf = current,
                Step::List | Step::Map(_) => return Err(invalid("a list in a flat column")),
            }
        }
        // A required node may only be null where a parent is.
        let mut parents: Option<NullBuffer> = None;
        for (nulls, optional, _) in &nodes {
            if let Some(nulls) = nulls {
                if !*optional && !parents.as_ref().is_some_and(|p| p.contains(nulls)) {
                    return Err(null_in_required());
                }
                parents = NullBuffer::union(parents.as_ref(), Some(nulls));
            }
        }
        match &parents {
            None => self.ranges.push(0..rows),
            Some(all) => self.ranges.extend(all.valid_slices().map(|(s, e)| s..e)),
        }
        let mut def = Vec::new();
        if path.max_def > 0 {
            let mut with_nulls = nodes.iter().filter(|(nulls, ..)| nulls.is_some());
            match (with_nulls.next(), with_nulls.next()) {
                (None, _) => def.resize(rows, path.max_def),
                (Some((Some(nulls), _, level)), None) => {
                    def_from_bits(nulls, path.max_def, level - 1, &mut def);
                }
                _ => {
                    def.resize(rows, path.max_def);
                    // Innermost first, so that the outermost null sets the level.
                    for (nulls, optional, level) in nodes.iter().rev() {
                        if let (Some(nulls), true) = (nulls, optional) {
                            for_each_null(nulls, |i| {
                                if let Some(d) = def.get_mut(i) {
                                    *d = level - 1;
                                }
                            });
                        }
                    }
                }
            }
        }
        Ok(Shredded {
            leaf,
            def,
            rep: Vec::new(),
        })
    }

    /// A column under one or more lists: entries expanded list by list.
    fn compute_repeated<'a>(
        &mut self,
        array: &'a dyn Array,
        path: &LeafPath,
    ) -> Result<Shredded<'a>> {
        let mut current = array;
        // The definition level of the entries still defined, and the repetition level
        // of the lists passed.
        let mut level = 0u16;
        let mut rep_level = 0u16;
        let mut start = 0;
        if let Some(k) = path.resume {
            let depth = path
                .nodes
                .iter()
                .take(k + 1)
                .filter(|n| matches!(n.step, Step::List | Step::Map(_)))
                .count();
            if let Some(kept) = self
                .kept
                .get(depth.wrapping_sub(1))
                .filter(|kept| kept.batch == self.batch && kept.column == path.column)
            {
                for node in path.nodes.iter().take(k + 1) {
                    current = descend(current, node.step)?;
                }
                self.slots.clone_from(&kept.slots);
                self.rep.clone_from(&kept.rep);
                level = kept.level;
                rep_level = u16::try_from(depth).unwrap_or(u16::MAX);
                start = k + 1;
            }
        }
        if start == 0 {
            self.slots.clear();
            self.slots.extend(0..array.len());
            self.rep.clear();
            self.rep.resize(array.len(), 0);
        }
        // Lists (and what lies above and between them) entry by entry.
        let last = path
            .nodes
            .iter()
            .rposition(|n| matches!(n.step, Step::List | Step::Map(_)))
            .ok_or_else(|| invalid("a repeated column without a list"))?;
        for (j, node) in path.nodes.iter().enumerate().take(last + 1).skip(start) {
            if let Some(nulls) = current.nulls().filter(|n| n.null_count() > 0) {
                self.apply_nulls(nulls, node.optional, level)?;
            }
            if node.optional {
                level += 1;
            }
            match node.step {
                Step::Struct(_) => current = descend(current, node.step)?,
                Step::List | Step::Map(_) => {
                    rep_level += 1;
                    self.expand_lists(current, level, rep_level)?;
                    level += 1;
                    if path.save_through.is_some_and(|s| j <= s) {
                        self.keep(usize::from(rep_level - 1), path.column, level);
                    }
                    current = descend(current, node.step)?;
                }
                Step::Leaf => return Err(invalid("a leaf above a list")),
            }
        }
        // Below the last list, the levels of the positions the entries point at, in
        // one pass over the window of positions they span; then each entry's.
        let (lo, hi) = self.slots.iter().fold((usize::MAX, 0), |(lo, hi), &s| {
            let live = s & ENDED == 0;
            (
                lo.min(if live { s } else { usize::MAX }),
                hi.max(if live { s + 1 } else { 0 }),
            )
        });
        let lo = lo.min(hi);
        let chain = path.nodes.get(last + 1..).unwrap_or_default();
        let leaf = self.chain_levels(current, chain, level, path.max_def, lo..hi)?;
        let def = self.entry_levels(lo, path.max_def)?;
        Ok(Shredded {
            leaf,
            def,
            rep: std::mem::take(&mut self.rep),
        })
    }

    /// The definition level of each entry (the level below the last list of the
    /// positions it points at, from `chain_def` whose window starts at `lo`), and the
    /// ranges of positions whose values are defined.
    fn entry_levels(&mut self, lo: usize, max_def: u16) -> Result<Vec<u16>> {
        let chain_def = &self.chain_def;
        let mut refused = false;
        let mut def = Vec::with_capacity(self.slots.len());
        let (mut start, mut end) = (0, 0);
        for &s in &self.slots {
            let d = if s & ENDED == 0 {
                chain_def
                    .get(s.wrapping_sub(lo))
                    .copied()
                    .unwrap_or(REFUSED)
            } else {
                // The low bits hold a definition level, a u16 below `max_def`.
                #[allow(clippy::cast_possible_truncation)]
                let level = s as u16;
                level
            };
            refused |= d == REFUSED;
            def.push(d);
            if d == max_def {
                if s != end {
                    if end > start {
                        self.ranges.push(start..end);
                    }
                    start = s;
                }
                end = s + 1;
            }
        }
        if refused {
            return Err(null_in_required());
        }
        if end > start {
            self.ranges.push(start..end);
        }
        Ok(def)
    }

    /// The definition levels of positions `window` of `array` through the nodes `chain`
    /// (structs down to the leaf, no list), into `chain_def`: `max_def` where the leaf
    /// is defined, the level below the outermost null node otherwise, [`REFUSED`] where
    /// a required node is null under defined parents. `level` is the definition level of
    /// `array`'s entries. Gives the leaf array.
    fn chain_levels<'a>(
        &mut self,
        array: &'a dyn Array,
        chain: &[PathNode],
        mut level: u16,
        max_def: u16,
        window: Range<usize>,
    ) -> Result<&'a dyn Array> {
        let (lo, len) = (window.start, window.len());
        let mut current = array;
        let mut leaf = None;
        let mut nodes = Vec::with_capacity(chain.len());
        for node in chain {
            if current.len() < window.end {
                return Err(invalid("list offsets out of bounds"));
            }
            let nulls = match node.step {
                Step::Leaf => current.slice(lo, len).logical_nulls(),
                _ => current.nulls().map(|n| n.slice(lo, len)),
            }
            .filter(|n| n.null_count() > 0);
            if node.optional {
                level += 1;
            }
            nodes.push((nulls, node.optional, level));
            match node.step {
                Step::Struct(_) => current = descend(current, node.step)?,
                Step::Leaf => leaf = Some(current),
                Step::List | Step::Map(_) => return Err(invalid("a list below the last list")),
            }
        }
        let leaf = leaf.ok_or_else(|| invalid("a path without a leaf"))?;
        let def = &mut self.chain_def;
        def.clear();
        let mut with_nulls = nodes.iter().filter(|(nulls, ..)| nulls.is_some());
        match (with_nulls.next(), with_nulls.next()) {
            (None, _) => def.resize(len, max_def),
            (Some((Some(nulls), true, level)), None) => {
                def_from_bits(nulls, max_def, level - 1, def);
            }
            _ => {
                def.resize(len, max_def);
                // Innermost first, so that the outermost null sets the level.
                for (nulls, optional, level) in nodes.iter().rev() {
                    if let Some(nulls) = nulls {
                        let at = if *optional { level - 1 } else { REFUSED };
                        for_each_null(nulls, |i| {
                            if let Some(d) = def.get_mut(i) {
                                *d = at;
                            }
                        });
                    }
                }
            }
        }
        Ok(leaf)
    }

    /// Starts a batch: entries kept from the last one are no longer used.
    pub(crate) fn start_batch(&mut self) {
        self.batch += 1;
    }

    /// Keeps the entries, as expanded through the list of repetition level `depth + 1`.
    fn keep(&mut self, depth: usize, column: usize, level: u16) {
        if self.kept.len() <= depth {
            self.kept.resize_with(depth + 1, Kept::default);
        }
        if let Some(kept) = self.kept.get_mut(depth) {
            kept.batch = self.batch;
            kept.column = column;
            kept.slots.clone_from(&self.slots);
            kept.rep.clone_from(&self.rep);
            kept.level = level;
        }
    }

    /// Ends the entries that are null in `nulls` at definition level `level` (or refuses
    /// them, for a required node).
    #[allow(clippy::needless_bitwise_bool)] // Branch-free on purpose.
    fn apply_nulls(&mut self, nulls: &NullBuffer, optional: bool, level: u16) -> Result<()> {
        let bits = nulls.inner();
        let (bytes, offset, len) = (bits.values(), bits.offset(), bits.len());
        let ended = ENDED | usize::from(level);
        // Branch-free: nulls fall anywhere.
        let (mut outside, mut null) = (false, false);
        for slot in &mut self.slots {
            let s = *slot;
            let live = s & ENDED == 0;
            let at = s.wrapping_add(offset);
            let byte = bytes.get(at >> 3).copied().unwrap_or(0);
            let valid = (byte >> (at & 7)) & 1 == 1;
            outside |= live & (s >= len);
            null |= live & !valid;
            *slot = if live & !valid { ended } else { s };
        }
        if outside {
            return Err(invalid("list offsets out of bounds"));
        }
        if null && !optional {
            return Err(null_in_required());
        }
        Ok(())
    }

    /// Expands the entries through the list or map array `array`, whose entries are
    /// defined at `level` and which repeats at `rep_level`.
    fn expand_lists(&mut self, array: &dyn Array, level: u16, rep_level: u16) -> Result<()> {
        fn offsets<O: OffsetSizeTrait>(offsets: &[O], i: usize) -> Option<Range<usize>> {
            let start = offsets.get(i)?.as_usize();
            let end = offsets.get(i + 1)?.as_usize();
            (start <= end).then_some(start..end)
        }
        fn views<O: OffsetSizeTrait>(offsets: &[O], sizes: &[O], i: usize) -> Option<Range<usize>> {
            let start = offsets.get(i)?.as_usize();
            Some(start..start.checked_add(sizes.get(i)?.as_usize())?)
        }
        let not_a_list = || invalid("a list field whose array is not a list");
        match array.data_type() {
            DataType::List(_) => {
                let list = array.as_list_opt::<i32>().ok_or_else(not_a_list)?;
                let o = list.value_offsets();
                self.expand(level, rep_level, list.values().len(), |i| offsets(o, i))
            }
            DataType::LargeList(_) => {
                let list = array.as_list_opt::<i64>().ok_or_else(not_a_list)?;
                let o = list.value_offsets();
                self.expand(level, rep_level, list.values().len(), |i| offsets(o, i))
            }
            DataType::ListView(_) => {
                let list = array.as_list_view_opt::<i32>().ok_or_else(not_a_list)?;
                let (o, s) = (list.value_offsets(), list.value_sizes());
                self.expand(level, rep_level, list.values().len(), |i| views(o, s, i))
            }
            DataType::LargeListView(_) => {
                let list = array.as_list_view_opt::<i64>().ok_or_else(not_a_list)?;
                let (o, s) = (list.value_offsets(), list.value_sizes());
                self.expand(level, rep_level, list.values().len(), |i| views(o, s, i))
            }
            DataType::FixedSizeList(_, _) => {
                let list = array.as_fixed_size_list_opt().ok_or_else(not_a_list)?;
                let size = usize::try_from(list.value_length()).map_err(|_| not_a_list())?;
                let len = list.len();
                self.expand(level, rep_level, list.values().len(), |i| {
                    (i < len).then(|| i * size..(i + 1) * size)
                })
            }
            DataType::Map(_, _) => {
                let map = array.as_map_opt().ok_or_else(not_a_list)?;
                let o = map.value_offsets();
                self.expand(level, rep_level, map.entries().len(), |i| offsets(o, i))
            }
            _ => Err(not_a_list()),
        }
    }

    /// Expands every entry still defined into one entry per element of its list
    /// (`range_of` its position), the first keeping the entry's repetition level and the
    /// others repeating at `rep_level`; an empty list ends its entry at `level`.
    /// `elements` (the length of the lists' values) sizes the buffers.
    fn expand(
        &mut self,
        level: u16,
        rep_level: u16,
        elements: usize,
        range_of: impl Fn(usize) -> Option<Range<usize>>,
    ) -> Result<()> {
        self.next_slots.clear();
        self.next_rep.clear();
        // Room for the elements between the first entry's and the last's: of a slice of a
        // list array, whose values are the whole array's, far fewer than `elements` (the
        // vectors grow if views out of order need more).
        let live = |s: &&usize| *s & ENDED == 0;
        let first = self.slots.iter().find(live).and_then(|&s| range_of(s));
        let last = self
            .slots
            .iter()
            .rev()
            .find(live)
            .and_then(|&s| range_of(s));
        let spanned = match (first, last) {
            (Some(first), Some(last)) => last.end.saturating_sub(first.start),
            _ => 0,
        };
        let room = self.slots.len().saturating_add(elements.min(spanned));
        self.next_slots.reserve(room);
        self.next_rep.reserve(room);
        let empty = ENDED | usize::from(level);
        for (&s, &r) in self.slots.iter().zip(&self.rep) {
            if s & ENDED != 0 {
                self.next_slots.push(s);
                self.next_rep.push(r);
                continue;
            }
            let range = range_of(s).ok_or_else(|| invalid("list offsets out of bounds"))?;
            self.next_rep.push(r);
            match range.len() {
                0 => self.next_slots.push(empty),
                1 => self.next_slots.push(range.start),
                // Short lists element by element: cheaper than a bulk extend's set-up.
                n @ 2..=8 => {
                    for i in range {
                        self.next_slots.push(i);
                    }
                    for _ in 1..n {
                        self.next_rep.push(rep_level);
                    }
                }
                n => {
                    self.next_rep.extend(std::iter::repeat_n(rep_level, n - 1));
                    self.next_slots.extend(range);
                }
            }
        }
        std::mem::swap(&mut self.slots, &mut self.next_slots);
        std::mem::swap(&mut self.rep, &mut self.next_rep);
        Ok(())
    }
}

/// The array `step` leads to from `array`.
fn descend(array: &dyn Array, step: Step) -> Result<&dyn Array> {
    let child = match (step, array.data_type()) {
        (Step::Struct(i), _) => array.as_struct_opt().and_then(|s| s.columns().get(i)),
        (Step::List, DataType::List(_)) => array.as_list_opt::<i32>().map(GenericListArray::values),
        (Step::List, DataType::LargeList(_)) => {
            array.as_list_opt::<i64>().map(GenericListArray::values)
        }
        (Step::List, DataType::ListView(_)) => array
            .as_list_view_opt::<i32>()
            .map(GenericListViewArray::values),
        (Step::List, DataType::LargeListView(_)) => array
            .as_list_view_opt::<i64>()
            .map(GenericListViewArray::values),
        (Step::List, DataType::FixedSizeList(..)) => array
            .as_fixed_size_list_opt()
            .map(FixedSizeListArray::values),
        (Step::Map(i), _) => array
            .as_map_opt()
            .and_then(|m| m.entries().columns().get(i)),
        _ => None,
    };
    child
        .map(AsRef::as_ref)
        .ok_or_else(|| invalid("an array that does not have the shape of its field"))
}

fn null_in_required() -> Error {
    Error::Argument("a null in a non-nullable field".into())
}

/// Calls `f` with the position of every null, in order.
fn for_each_null(nulls: &NullBuffer, mut f: impl FnMut(usize)) {
    let len = nulls.len();
    for (chunk, bits) in nulls.inner().bit_chunks().iter_padded().enumerate() {
        let mut missing = !bits;
        let base = chunk * 64;
        while missing != 0 {
            let i = base + missing.trailing_zeros() as usize;
            if i >= len {
                break;
            }
            f(i);
            missing &= missing - 1;
        }
    }
}

/// Appends one definition level per bit: `present` where valid, `absent` where null.
fn def_from_bits(nulls: &NullBuffer, present: u16, absent: u16, def: &mut Vec<u16>) {
    let len = nulls.len();
    def.reserve(len);
    let table = [absent, present];
    for bits in nulls.inner().bit_chunks().iter_padded() {
        let take = (len - def.len()).min(64);
        def.extend((0..take).map(|b| table[usize::from((bits >> b) & 1 == 1)]));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use arrow_array::builder::{Int32Builder, ListBuilder, MapBuilder, StringBuilder};
    use arrow_array::{ArrayRef, Int32Array, ListArray, StringArray, StructArray};
    use arrow_buffer::{BooleanBuffer, OffsetBuffer};
    use arrow_schema::Fields;
    use std::sync::Arc;

    /// Per leaf: definition levels, repetition levels, value ranges.
    type Got = Vec<(Vec<u16>, Vec<u16>, Vec<(usize, usize)>)>;

    fn levels(field: Field, array: &dyn Array) -> Got {
        let schema = Schema::new(vec![field]);
        let mut levels = Levels::default();
        leaf_paths(&schema)
            .unwrap()
            .iter()
            .map(|path| {
                let s = levels.compute(array, path).unwrap();
                (
                    s.def,
                    s.rep,
                    levels.ranges().iter().map(|r| (r.start, r.end)).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn paths_count_levels() {
        let schema = Schema::new(vec![
            Field::new("a", DataType::Int32, false),
            Field::new_list("l", Field::new("item", DataType::Int32, true), true),
            Field::new_struct(
                "s",
                vec![Field::new_list(
                    "l",
                    Field::new("item", DataType::Int32, false),
                    false,
                )],
                true,
            ),
        ]);
        let paths = leaf_paths(&schema).unwrap();
        let levels: Vec<_> = paths
            .iter()
            .map(|p| (p.column, p.max_def, p.max_rep))
            .collect();
        assert_eq!(levels, [(0, 0, 0), (1, 3, 1), (2, 2, 1)]);
    }

    #[test]
    fn flat_nullable() {
        let array = Int32Array::from(vec![Some(1), None, Some(3), None]);
        let got = levels(Field::new("a", DataType::Int32, true), &array);
        assert_eq!(got, [(vec![1, 0, 1, 0], vec![], vec![(0, 1), (2, 3)])]);
        let required = Int32Array::from(vec![1, 2, 3]);
        let got = levels(Field::new("a", DataType::Int32, false), &required);
        assert_eq!(got, [(vec![], vec![], vec![(0, 3)])]);
    }

    #[test]
    fn flat_sliced_with_many_nulls() {
        // 200 values, every third null, sliced past the first chunk of bits.
        let array = (0..200)
            .map(|i| (i % 3 != 0).then_some(i))
            .collect::<Int32Array>();
        let sliced = array.slice(67, 70);
        let got = levels(Field::new("a", DataType::Int32, true), &sliced);
        let expected: Vec<u16> = (67..137).map(|i| u16::from(i % 3 != 0)).collect();
        assert_eq!(got[0].0, expected);
        let values: usize = got[0].2.iter().map(|(s, e)| e - s).sum();
        assert_eq!(values, expected.iter().filter(|&&d| d == 1).count());
    }

    #[test]
    fn struct_nulls_over_child_nulls() {
        // s: struct<a: int32 nullable> nullable; rows: {1}, {null}, null, {4}.
        let a: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None, Some(3), Some(4)]));
        let field = Field::new("a", DataType::Int32, true);
        let s = StructArray::new(
            Fields::from(vec![field.clone()]),
            vec![a],
            Some(NullBuffer::new(BooleanBuffer::from(vec![
                true, true, false, true,
            ]))),
        );
        let got = levels(Field::new("s", s.data_type().clone(), true), &s);
        assert_eq!(got, [(vec![2, 1, 0, 2], vec![], vec![(0, 1), (3, 4)])]);
    }

    #[test]
    fn required_child_null_under_null_parent_is_fine() {
        let a: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None]));
        let field = Field::new("a", DataType::Int32, false);
        let s = StructArray::new(
            Fields::from(vec![field]),
            vec![a],
            Some(NullBuffer::new(BooleanBuffer::from(vec![true, false]))),
        );
        let got = levels(Field::new("s", s.data_type().clone(), true), &s);
        assert_eq!(got, [(vec![1, 0], vec![], vec![(0, 1)])]);
        // Not when the parent is there (an array of a nullable child, written as a
        // schema whose child is not).
        let a: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None]));
        let s = StructArray::new(
            Fields::from(vec![Field::new("a", DataType::Int32, true)]),
            vec![a],
            None,
        );
        let required =
            DataType::Struct(Fields::from(vec![Field::new("a", DataType::Int32, false)]));
        let schema = Schema::new(vec![Field::new("s", required, true)]);
        let path = &leaf_paths(&schema).unwrap()[0];
        assert!(matches!(
            Levels::default().compute(&s, path),
            Err(Error::Argument(_))
        ));
    }

    #[test]
    fn list_levels() {
        // [[1, null], null, [], [4]]: optional list of optional int.
        let mut builder = ListBuilder::new(Int32Builder::new());
        builder.values().append_value(1);
        builder.values().append_null();
        builder.append(true);
        builder.append(false);
        builder.append(true);
        builder.values().append_value(4);
        builder.append(true);
        let list = builder.finish();
        let field = Field::new("l", list.data_type().clone(), true);
        let got = levels(field.clone(), &list);
        assert_eq!(
            got,
            [(
                vec![3, 2, 0, 1, 3],
                vec![0, 1, 0, 0, 0],
                vec![(0, 1), (2, 3)]
            )]
        );
        // Sliced: [null, [], [4]].
        let got = levels(field, &list.slice(1, 3));
        assert_eq!(got, [(vec![0, 1, 3], vec![0, 0, 0], vec![(2, 3)])]);
    }

    #[test]
    fn nested_lists() {
        // [[[1], []], [[2, 3]]] as list<list<int32 not null> not null> not null.
        let inner = ListArray::new(
            Arc::new(Field::new("item", DataType::Int32, false)),
            OffsetBuffer::from_lengths([1, 0, 2]),
            Arc::new(Int32Array::from(vec![1, 2, 3])),
            None,
        );
        let inner_field = Field::new("item", inner.data_type().clone(), false);
        let outer = ListArray::new(
            Arc::new(inner_field),
            OffsetBuffer::from_lengths([2, 1]),
            Arc::new(inner),
            None,
        );
        let got = levels(Field::new("l", outer.data_type().clone(), false), &outer);
        assert_eq!(got, [(vec![2, 1, 2, 2], vec![0, 1, 0, 2], vec![(0, 3)])]);
    }

    #[test]
    fn map_levels() {
        // [{a: 1, b: null}, null, {}]
        let mut builder = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
        builder.keys().append_value("a");
        builder.values().append_value(1);
        builder.keys().append_value("b");
        builder.values().append_null();
        builder.append(true).unwrap();
        builder.append(false).unwrap();
        builder.append(true).unwrap();
        let map = builder.finish();
        let got = levels(Field::new("m", map.data_type().clone(), true), &map);
        assert_eq!(
            got,
            [
                (vec![2, 2, 0, 1], vec![0, 1, 0, 0], vec![(0, 2)]),
                (vec![3, 2, 0, 1], vec![0, 1, 0, 0], vec![(0, 1)]),
            ]
        );
    }

    #[test]
    fn shared_lists_give_what_fresh_ones_do() {
        // m: map<utf8, list<struct<a: int32, b: list<int32>, c: utf8>>>, nulls everywhere.
        let inner_fields = Fields::from(vec![
            Field::new("a", DataType::Int32, true),
            Field::new_list("b", Field::new("item", DataType::Int32, true), true),
            Field::new("c", DataType::Utf8, true),
        ]);
        let elements = StructArray::new(
            inner_fields.clone(),
            vec![
                Arc::new(
                    (0..12)
                        .map(|i| (i % 3 != 0).then_some(i))
                        .collect::<Int32Array>(),
                ),
                Arc::new(ListArray::new(
                    Arc::new(Field::new("item", DataType::Int32, true)),
                    OffsetBuffer::from_lengths((0..12).map(|i| i % 3)),
                    Arc::new(
                        (0..12)
                            .map(|i| (i % 4 != 1).then_some(i))
                            .collect::<Int32Array>(),
                    ),
                    Some((0..12).map(|i| i % 5 != 2).collect()),
                )),
                Arc::new(
                    (0..12)
                        .map(|i| (i % 2 == 0).then(|| format!("{i}")))
                        .collect::<StringArray>(),
                ),
            ],
            Some((0..12).map(|i| i % 7 != 3).collect()),
        );
        let values = ListArray::new(
            Arc::new(Field::new("item", DataType::Struct(inner_fields), true)),
            OffsetBuffer::from_lengths([3, 0, 4, 1, 4]),
            Arc::new(elements),
            Some(vec![true, true, false, true, true].into()),
        );
        let entries = StructArray::new(
            Fields::from(vec![
                Field::new("key", DataType::Utf8, false),
                Field::new("value", values.data_type().clone(), true),
            ]),
            vec![
                Arc::new(StringArray::from_iter_values([
                    "k0", "k1", "k2", "k3", "k4",
                ])),
                Arc::new(values),
            ],
            None,
        );
        let map = arrow_array::MapArray::new(
            Arc::new(Field::new("entries", entries.data_type().clone(), false)),
            OffsetBuffer::from_lengths([2, 0, 3]),
            entries,
            Some(vec![true, false, true].into()),
            false,
        );
        let schema = Schema::new(vec![Field::new("m", map.data_type().clone(), true)]);
        let paths = leaf_paths(&schema).unwrap();
        assert_eq!(paths.len(), 4);
        assert!(paths.iter().skip(1).all(|p| p.resume.is_some()));
        let mut shared = Levels::default();
        shared.start_batch();
        for path in &paths {
            let s = shared.compute(&map, path).unwrap();
            let (def, rep, ranges) = (s.def, s.rep, shared.ranges().to_vec());
            let alone = LeafPath {
                resume: None,
                save_through: None,
                ..path.clone()
            };
            let mut fresh = Levels::default();
            let f = fresh.compute(&map, &alone).unwrap();
            assert_eq!((def, rep, ranges), (f.def, f.rep, fresh.ranges().to_vec()));
        }
    }

    #[test]
    fn required_nulls_in_lists_only_where_masked() {
        // The array: list<struct<a: int32>> with a null `a` at positions 1 (struct null),
        // 3 (under a null list whose range still covers it) and 5 (defined parents).
        let elements = |nulls_at: &[usize]| {
            let a: Int32Array = (0..6)
                .map(|i| (!nulls_at.contains(&i)).then_some(i32::try_from(i).unwrap()))
                .collect();
            StructArray::new(
                Fields::from(vec![Field::new("a", DataType::Int32, true)]),
                vec![Arc::new(a)],
                Some(vec![true, false, true, true, true, true].into()),
            )
        };
        let list = |elements: StructArray| {
            ListArray::new(
                Arc::new(Field::new("item", elements.data_type().clone(), true)),
                OffsetBuffer::from_lengths([3, 1, 2]),
                Arc::new(elements),
                Some(vec![true, false, true].into()),
            )
        };
        // The schema says `a` is required.
        let required =
            DataType::Struct(Fields::from(vec![Field::new("a", DataType::Int32, false)]));
        let field = Field::new_list("l", Field::new("item", required, true), true);
        let schema = Schema::new(vec![field]);
        let path = &leaf_paths(&schema).unwrap()[0];
        let masked = list(elements(&[1, 3]));
        let s = Levels::default().compute(&masked, path).unwrap();
        assert_eq!(s.def, [3, 2, 3, 0, 3, 3]);
        assert_eq!(s.rep, [0, 1, 1, 0, 0, 1]);
        let unmasked = list(elements(&[1, 3, 5]));
        assert!(matches!(
            Levels::default().compute(&unmasked, path),
            Err(Error::Argument(_))
        ));
    }

    #[test]
    fn bits_helpers() {
        let nulls = (0..130).map(|i| i % 7 != 3).collect::<NullBuffer>();
        let nulls = nulls.slice(5, 120);
        let mut seen = Vec::new();
        for_each_null(&nulls, |i| seen.push(i));
        let expected: Vec<usize> = (0..120).filter(|i| (i + 5) % 7 == 3).collect();
        assert_eq!(seen, expected);
        let mut def = Vec::new();
        def_from_bits(&nulls, 2, 1, &mut def);
        let expected: Vec<u16> = (0..120)
            .map(|i| if (i + 5) % 7 == 3 { 1 } else { 2 })
            .collect();
        assert_eq!(def, expected);
    }
}
