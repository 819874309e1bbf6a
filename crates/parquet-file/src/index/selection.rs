//! Row selections: which rows of a row group to read.

use std::ops::Range;

/// The rows of a row group to read: sorted, disjoint, non-adjacent ranges of row
/// indexes within the row group.
///
/// ```
/// use parquet_file::RowSelection;
///
/// let a = RowSelection::from_ranges([0..10, 20..30]);
/// let b = RowSelection::from_ranges([5..25]);
/// assert_eq!(a.intersect(&b).ranges(), &[5..10, 20..25]);
/// assert_eq!(a.union(&b).ranges(), &[0..30]);
/// assert_eq!(a.next_selected(12), Some(20));
/// assert_eq!(a.run_end(21), Some(30));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowSelection {
    ranges: Vec<Range<u64>>,
}

impl RowSelection {
    /// The first `rows` rows.
    pub fn all(rows: u64) -> Self {
        Self::from_ranges(std::iter::once(0..rows))
    }

    /// These ranges, in any order, overlapping or not (empty ones are dropped).
    pub fn from_ranges(ranges: impl IntoIterator<Item = Range<u64>>) -> Self {
        let mut ranges: Vec<Range<u64>> = ranges.into_iter().filter(|r| r.start < r.end).collect();
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Self { ranges: merged }
    }

    /// The ranges selected.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// The number of rows selected.
    pub fn row_count(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether no row is selected.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The rows in both selections.
    #[must_use]
    pub fn intersect(&self, other: &Self) -> Self {
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while let (Some(a), Some(b)) = (self.ranges.get(i), other.ranges.get(j)) {
            let start = a.start.max(b.start);
            let end = a.end.min(b.end);
            if start < end {
                out.push(start..end);
            }
            if a.end < b.end {
                i += 1;
            } else {
                j += 1;
            }
        }
        Self::from_ranges(out)
    }

    /// The rows in either selection.
    #[must_use]
    pub fn union(&self, other: &Self) -> Self {
        Self::from_ranges(self.ranges.iter().chain(&other.ranges).cloned())
    }

    /// The first selected row at or after `row`.
    pub fn next_selected(&self, row: u64) -> Option<u64> {
        let i = self.ranges.partition_point(|r| r.end <= row);
        self.ranges.get(i).map(|r| r.start.max(row))
    }

    /// The end of the range that holds `row`, when it is selected.
    pub fn run_end(&self, row: u64) -> Option<u64> {
        let i = self.ranges.partition_point(|r| r.end <= row);
        self.ranges.get(i).filter(|r| r.start <= row).map(|r| r.end)
    }
}
