//! What a read needs from the object, found from the footer (and then the page index):
//! the page index and Bloom filters that choose row groups and pages, the column chunks
//! (or their pages) of the row groups read, and the requests that fetch them.

use std::ops::Range;

use parquet_file::{FileReader, Op, Predicate, Schema};

use super::FetchedBytes;
use crate::error::Result;
use crate::read::GroupPlan;

/// The bytes fetched of a Bloom filter whose length the metadata does not give: its
/// header (parquet-file reads at most this much of it first).
const MAX_BLOOM_HEADER: u64 = 64;

type Reader = FileReader<FetchedBytes>;

/// `ranges` as requests: overlapping and touching ranges merged, then neighbours whose
/// gap is at most `gap` bytes merged while the request stays within `max` bytes (a
/// single range longer than `max` is one request). Sorted.
pub(super) fn coalesce(mut ranges: Vec<Range<u64>>, gap: u64, max: u64) -> Vec<Range<u64>> {
    ranges.retain(|r| r.start < r.end);
    ranges.sort_unstable_by_key(|r| r.start);
    let mut union: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match union.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => union.push(range),
        }
    }
    let mut requests: Vec<Range<u64>> = Vec::with_capacity(union.len());
    for range in union {
        match requests.last_mut() {
            Some(last) if range.start - last.end <= gap && range.end - last.start <= max => {
                last.end = range.end;
            }
            _ => requests.push(range),
        }
    }
    requests
}

/// `predicate` judged by statistics alone: an equality becomes the two bounds it implies,
/// which is what the statistics say of it, so that no Bloom filter is read.
pub(super) fn statistics_only(predicate: &Predicate) -> Predicate {
    match predicate {
        Predicate::And(a, b) => statistics_only(a).and(statistics_only(b)),
        Predicate::Or(a, b) => statistics_only(a).or(statistics_only(b)),
        Predicate::Compare {
            column,
            op: Op::Eq,
            literal,
        } => Predicate::compare(column.clone(), Op::Ge, literal.clone()).and(Predicate::compare(
            column.clone(),
            Op::Le,
            literal.clone(),
        )),
        other => other.clone(),
    }
}

/// The column and offset indexes that choosing the pages of `row_groups` reads: the
/// offset index of every column read, and the column index of the predicate's.
pub(super) fn index_ranges(
    reader: &Reader,
    row_groups: &[usize],
    columns: &[usize],
    predicate_columns: &[usize],
    out: &mut Vec<Range<u64>>,
) -> Result<()> {
    let data_end = reader.data_end();
    let mut push = |offset: u64, len: u32| {
        let end = offset.saturating_add(len.into());
        // One outside the data is an error the reader reports when it reads it.
        if offset >= 4 && end <= data_end {
            out.push(offset..end);
        }
    };
    for &row_group in row_groups {
        for &column in columns {
            let chunk = reader.metadata().column_chunk(row_group, column)?;
            if let Some(at) = chunk.offset_index_location() {
                push(at.offset, at.length);
            }
        }
        for &column in predicate_columns {
            let chunk = reader.metadata().column_chunk(row_group, column)?;
            if let Some(at) = chunk.column_index_location() {
                push(at.offset, at.length);
            }
        }
    }
    Ok(())
}

/// The Bloom filters of `row_groups` that `predicate` may read: those of the unrepeated
/// leaves it tests for equality outside a negation.
pub(super) fn bloom_ranges(
    reader: &Reader,
    row_groups: &[usize],
    predicate: &Predicate,
    out: &mut Vec<Range<u64>>,
) {
    let mut leaves = Vec::new();
    equality_leaves(reader.schema(), predicate, &mut leaves);
    let data_end = reader.data_end();
    for &row_group in row_groups {
        for &column in &leaves {
            // A chunk without metadata (or key) is an error the reader reports.
            let Ok(meta) = reader.metadata().column_chunk_metadata(row_group, column) else {
                continue;
            };
            let Some(offset) = meta.bloom_filter_offset() else {
                continue;
            };
            let len = meta
                .bloom_filter_length()
                .map_or(MAX_BLOOM_HEADER, u64::from);
            let end = offset.saturating_add(len).min(data_end);
            if offset < end {
                out.push(offset..end);
            }
        }
    }
}

fn equality_leaves(schema: &Schema, predicate: &Predicate, out: &mut Vec<usize>) {
    match predicate {
        Predicate::And(a, b) | Predicate::Or(a, b) => {
            equality_leaves(schema, a, out);
            equality_leaves(schema, b, out);
        }
        Predicate::Compare {
            column, op: Op::Eq, ..
        } => {
            if let Some(c) = schema.column_index(column)
                && schema.column(c).is_ok_and(|d| d.max_rep_level == 0)
                && !out.contains(&c)
            {
                out.push(c);
            }
        }
        Predicate::Not(_) | Predicate::Compare { .. } | Predicate::IsNull { .. } => {}
    }
}

/// The byte ranges that reading `columns` of the row groups of `plans` reads: each
/// column chunk, or where rows are selected and the chunk has an offset index, what
/// precedes its first data page and the pages holding a selected row.
pub(super) fn data_ranges(
    reader: &Reader,
    plans: &[GroupPlan],
    columns: &[usize],
) -> Result<Vec<Range<u64>>> {
    let mut out = Vec::new();
    for plan in plans {
        for &column in columns {
            out.extend(reader.column_chunk_ranges(plan.row_group, column, plan.rows.as_ref())?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coalesces_by_gap_and_size() {
        let ranges = vec![30..40, 0..10, 12..20, 15..25, 100..110, 50..50];
        assert_eq!(
            coalesce(ranges.clone(), 0, 1000),
            vec![0..10, 12..25, 30..40, 100..110]
        );
        assert_eq!(coalesce(ranges.clone(), 5, 1000), vec![0..40, 100..110]);
        assert_eq!(coalesce(ranges.clone(), 100, 1000), vec![0..110]);
        assert_eq!(coalesce(ranges.clone(), 100, 40), vec![0..40, 100..110]);
        assert_eq!(
            coalesce(vec![0..500, 510..520], 100, 40),
            vec![0..500, 510..520]
        );
        assert!(coalesce(Vec::new(), 1, 1).is_empty());
    }

    #[test]
    fn equality_becomes_bounds() {
        let p = Predicate::compare("a", Op::Eq, 3)
            .or(Predicate::compare("b", Op::Lt, 1).negate())
            .and(Predicate::is_null("c"));
        let expected = Predicate::compare("a", Op::Ge, 3)
            .and(Predicate::compare("a", Op::Le, 3))
            .or(Predicate::compare("b", Op::Lt, 1).negate())
            .and(Predicate::is_null("c"));
        assert_eq!(statistics_only(&p), expected);
    }
}
