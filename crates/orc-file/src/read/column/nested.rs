//! Lists, maps, structs and unions: columns whose values are other columns' values.
//! A list or a map holds a length per value (LENGTH) and its children the elements; a
//! struct holds its fields' values in the same slots; a union holds a tag per value
//! (DATA) and each alternative the values of the slots whose tag names it.

use super::{Bytes8, ColumnDecoder, Ints, Positions, empty_vector, fill, short, spread};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::proto::RowIndex;
use crate::vector::{Vector, VectorData};

/// A list column.
pub(super) struct List {
    lengths: Ints,
    pub(super) elements: Box<ColumnDecoder>,
    scratch: Vec<i64>,
}

impl List {
    pub(super) fn new(lengths: Ints, elements: ColumnDecoder) -> Self {
        Self {
            lengths,
            elements: Box::new(elements),
            scratch: Vec::new(),
        }
    }

    /// Reads `count` lists of `column` for the `n` slots (`present` marks the slots that
    /// get them), and their elements.
    pub(super) fn read(
        &mut self,
        n: usize,
        count: usize,
        present: Option<&[bool]>,
        column: u32,
        limits: &Limits,
        out: &mut Vector,
    ) -> Result<()> {
        let offsets = read_offsets(
            &mut self.lengths,
            &mut self.scratch,
            n,
            count,
            present,
            column,
            limits,
        )?;
        let total = offsets.last().copied().unwrap_or(0);
        let (offs, child) = list_parts(out);
        *offs = offsets;
        self.elements.next(total, None, child)
    }

    pub(super) fn seek<'i>(
        &mut self,
        p: &mut Positions<'_>,
        group: usize,
        indexes: &dyn Fn(u32) -> Option<&'i RowIndex>,
    ) -> Result<()> {
        self.lengths.seek(p)?;
        self.elements.seek(group, indexes)
    }
}

/// A map column.
pub(super) struct Map {
    lengths: Ints,
    pub(super) keys: Box<ColumnDecoder>,
    pub(super) values: Box<ColumnDecoder>,
    scratch: Vec<i64>,
}

impl Map {
    pub(super) fn new(lengths: Ints, keys: ColumnDecoder, values: ColumnDecoder) -> Self {
        Self {
            lengths,
            keys: Box::new(keys),
            values: Box::new(values),
            scratch: Vec::new(),
        }
    }

    /// Reads `count` maps of `column` for the `n` slots (`present` marks the slots that
    /// get them), and their keys and values.
    pub(super) fn read(
        &mut self,
        n: usize,
        count: usize,
        present: Option<&[bool]>,
        column: u32,
        limits: &Limits,
        out: &mut Vector,
    ) -> Result<()> {
        let offsets = read_offsets(
            &mut self.lengths,
            &mut self.scratch,
            n,
            count,
            present,
            column,
            limits,
        )?;
        let total = offsets.last().copied().unwrap_or(0);
        let (offs, k, v) = map_parts(out);
        *offs = offsets;
        self.keys.next(total, None, k)?;
        self.values.next(total, None, v)
    }

    pub(super) fn seek<'i>(
        &mut self,
        p: &mut Positions<'_>,
        group: usize,
        indexes: &dyn Fn(u32) -> Option<&'i RowIndex>,
    ) -> Result<()> {
        self.lengths.seek(p)?;
        self.keys.seek(group, indexes)?;
        self.values.seek(group, indexes)
    }
}

/// Reads the `n` slots of a struct (`present` marks the slots that hold one): each of
/// `fields` reads the same slots.
pub(super) fn read_struct(
    fields: &mut [ColumnDecoder],
    n: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    let vectors = match &mut out.data {
        VectorData::Struct { len, fields } => {
            *len = n;
            fields
        }
        other => {
            *other = VectorData::Struct {
                len: n,
                fields: Vec::new(),
            };
            let VectorData::Struct { fields, .. } = other else {
                unreachable!()
            };
            fields
        }
    };
    vectors.resize_with(fields.len(), empty_vector);
    for (field, vector) in fields.iter_mut().zip(vectors.iter_mut()) {
        field.next(n, present, vector)?;
    }
    Ok(())
}

/// A union column.
pub(super) struct Union {
    tags: Bytes8,
    pub(super) alternatives: Vec<ColumnDecoder>,
}

impl Union {
    pub(super) const fn new(tags: Bytes8, alternatives: Vec<ColumnDecoder>) -> Self {
        Self { tags, alternatives }
    }

    /// Reads `count` tags for the `n` slots (`present` marks the slots that get them),
    /// and each alternative's values.
    pub(super) fn read(
        &mut self,
        n: usize,
        count: usize,
        present: Option<&[bool]>,
        out: &mut Vector,
    ) -> Result<()> {
        let Self { tags, alternatives } = self;
        let mut raw = Vec::new();
        let got = fill(&mut raw, count, |out| tags.decode(out))?;
        if got < count {
            return Err(short("DATA", count, got));
        }
        if let Some(&bad) = raw.iter().find(|&&t| usize::from(t) >= alternatives.len()) {
            return Err(Error::out_of_range(
                "union tag",
                u64::from(bad),
                alternatives.len() as u64,
            )
            .in_stream("DATA"));
        }
        let (out_tags, vectors) = union_parts(out);
        out_tags.clear();
        out_tags.extend_from_slice(&raw);
        spread(out_tags, present, 0);
        vectors.resize_with(alternatives.len(), empty_vector);
        let mut chosen = Vec::with_capacity(n);
        for (tag, (alternative, vector)) in
            alternatives.iter_mut().zip(vectors.iter_mut()).enumerate()
        {
            chosen.clear();
            chosen.extend((0..n).map(|i| {
                present.is_none_or(|p| p.get(i).copied().unwrap_or(false))
                    && usize::from(out_tags.get(i).copied().unwrap_or(0)) == tag
            }));
            alternative.next(n, Some(&chosen), vector)?;
        }
        Ok(())
    }

    pub(super) fn seek<'i>(
        &mut self,
        p: &mut Positions<'_>,
        group: usize,
        indexes: &dyn Fn(u32) -> Option<&'i RowIndex>,
    ) -> Result<()> {
        self.tags.seek(p)?;
        for alternative in &mut self.alternatives {
            alternative.seek(group, indexes)?;
        }
        Ok(())
    }
}

fn list_parts(out: &mut Vector) -> (&mut Vec<usize>, &mut Vector) {
    if !matches!(out.data, VectorData::List { .. }) {
        out.data = VectorData::List {
            offsets: Vec::new(),
            elements: Box::new(empty_vector()),
        };
    }
    let VectorData::List { offsets, elements } = &mut out.data else {
        unreachable!()
    };
    (offsets, elements)
}

fn map_parts(out: &mut Vector) -> (&mut Vec<usize>, &mut Vector, &mut Vector) {
    if !matches!(out.data, VectorData::Map { .. }) {
        out.data = VectorData::Map {
            offsets: Vec::new(),
            keys: Box::new(empty_vector()),
            values: Box::new(empty_vector()),
        };
    }
    let VectorData::Map {
        offsets,
        keys,
        values,
    } = &mut out.data
    else {
        unreachable!()
    };
    (offsets, keys, values)
}

fn union_parts(out: &mut Vector) -> (&mut Vec<u8>, &mut Vec<Vector>) {
    if !matches!(out.data, VectorData::Union { .. }) {
        out.data = VectorData::Union {
            tags: Vec::new(),
            alternatives: Vec::new(),
        };
    }
    let VectorData::Union { tags, alternatives } = &mut out.data else {
        unreachable!()
    };
    (tags, alternatives)
}

/// The offsets of `n` list or map slots from `count` lengths, within `limits`.
fn read_offsets(
    lengths: &mut Ints,
    scratch: &mut Vec<i64>,
    n: usize,
    count: usize,
    present: Option<&[bool]>,
    column: u32,
    limits: &Limits,
) -> Result<Vec<usize>> {
    let got = fill(scratch, count, |out| lengths.decode(out))?;
    if got < count {
        return Err(short("LENGTH", count, got).at_column(column));
    }
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0usize);
    let mut total = 0usize;
    let mut lens = scratch.iter();
    for i in 0..n {
        if present.is_none_or(|p| p.get(i).copied().unwrap_or(false)) {
            let len = lens.next().copied().unwrap_or(0);
            let len = usize::try_from(len).map_err(|_| {
                Error::invalid("list or map length", len)
                    .at_column(column)
                    .in_stream("LENGTH")
            })?;
            if len > limits.max_record_values() {
                return Err(Error::limit(
                    "values under one list or map of one row (max_record_values)",
                    len as u64,
                    limits.max_record_values() as u64,
                )
                .at_column(column));
            }
            total = total.saturating_add(len);
            if total > limits.max_batch_values() {
                return Err(Error::limit(
                    "values under the lists or maps of one batch (max_batch_values)",
                    total as u64,
                    limits.max_batch_values() as u64,
                )
                .at_column(column));
            }
        }
        offsets.push(total);
    }
    Ok(offsets)
}
