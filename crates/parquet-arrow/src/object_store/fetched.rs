//! The bytes of an object fetched so far: a [`Source`] that the synchronous reader reads
//! from memory, and that says which bytes it was asked for and did not hold.

use std::collections::BTreeMap;
use std::io;
use std::ops::Range;
use std::sync::{Mutex, PoisonError, RwLock};

use parquet_file::{Bytes, Source};

/// Ranges of an object held in memory, and the object's length: a [`Source`] over which
/// a [`ParquetRecordBatchReaderBuilder`](crate::ParquetRecordBatchReaderBuilder) reads
/// what [`ParquetObjectBuilder`](super::ParquetObjectBuilder) fetched.
///
/// A read inside one fetched range is a slice of it (no copy); one that spans adjacent
/// fetched ranges is copied; one that touches a byte not fetched is an
/// [`io::Error`] ("not fetched"), never a request.
#[derive(Debug)]
pub struct FetchedBytes {
    len: u64,
    location: String,
    /// Disjoint ranges by their start.
    ranges: RwLock<BTreeMap<u64, Bytes>>,
    /// The parts of reads that were not held, since the last `take_misses`.
    misses: Mutex<Vec<Range<u64>>>,
}

impl FetchedBytes {
    /// Nothing held yet of an object of `len` bytes at `location` (for messages).
    pub(super) fn new(len: u64, location: String) -> Self {
        Self {
            len,
            location,
            ranges: RwLock::new(BTreeMap::new()),
            misses: Mutex::new(Vec::new()),
        }
    }

    /// The bytes held, in all.
    pub fn fetched_len(&self) -> u64 {
        let ranges = self.ranges.read().unwrap_or_else(PoisonError::into_inner);
        ranges.values().map(|b| b.len() as u64).sum()
    }

    /// The ranges held, in order (adjacent ones apart when fetched apart).
    pub fn fetched_ranges(&self) -> Vec<Range<u64>> {
        let ranges = self.ranges.read().unwrap_or_else(PoisonError::into_inner);
        ranges
            .iter()
            .map(|(&start, b)| start..start + b.len() as u64)
            .collect()
    }

    /// Appends to `out` the parts of `range` (clamped to the object) not held.
    pub(super) fn missing(&self, range: Range<u64>, out: &mut Vec<Range<u64>>) {
        let ranges = self.ranges.read().unwrap_or_else(PoisonError::into_inner);
        missing_in(&ranges, range.start..range.end.min(self.len), out);
    }

    /// Holds `bytes`, fetched from `offset`: the parts not held already.
    pub(super) fn insert(&self, offset: u64, bytes: &Bytes) {
        let end = offset + bytes.len() as u64;
        let mut ranges = self.ranges.write().unwrap_or_else(PoisonError::into_inner);
        let mut parts = Vec::new();
        missing_in(&ranges, offset..end, &mut parts);
        for part in parts {
            // Inside `bytes`, which is in memory.
            #[allow(clippy::cast_possible_truncation)]
            let slice = bytes.slice((part.start - offset) as usize..(part.end - offset) as usize);
            ranges.insert(part.start, slice);
        }
    }

    /// The parts of reads not held since the last call.
    pub(super) fn take_misses(&self) -> Vec<Range<u64>> {
        std::mem::take(&mut *self.misses.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Appends to `out` the parts of `range` that no range of `ranges` holds.
fn missing_in(ranges: &BTreeMap<u64, Bytes>, range: Range<u64>, out: &mut Vec<Range<u64>>) {
    if range.start >= range.end {
        return;
    }
    let mut at = range.start;
    if let Some((&start, bytes)) = ranges.range(..=range.start).next_back() {
        at = at.max(start + bytes.len() as u64);
    }
    for (&start, bytes) in ranges.range(range.start..range.end) {
        if at >= range.end {
            break;
        }
        if start > at {
            out.push(at..start);
        }
        at = at.max(start + bytes.len() as u64);
    }
    if at < range.end {
        out.push(at..range.end);
    }
}

impl Source for FetchedBytes {
    fn len(&self) -> io::Result<u64> {
        Ok(self.len)
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        let end = offset
            .checked_add(len as u64)
            .filter(|&end| end <= self.len)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "read of {len} bytes at offset {offset} is past the end ({} bytes)",
                        self.len
                    ),
                )
            })?;
        if len == 0 {
            return Ok(Bytes::new());
        }
        let ranges = self.ranges.read().unwrap_or_else(PoisonError::into_inner);
        let mut parts = Vec::new();
        missing_in(&ranges, offset..end, &mut parts);
        if !parts.is_empty() {
            drop(ranges);
            self.misses
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend(parts);
            return Err(io::Error::other(format!(
                "bytes {offset}..{end} of {} were not fetched",
                self.location
            )));
        }
        // Every byte is held: by the range starting at or before `offset` (offsets below
        // are inside it or inside `offset..end`, which is `len` bytes), and by the ones
        // after it when the read spans several.
        let first = ranges.range(..=offset).next_back();
        #[allow(clippy::cast_possible_truncation)]
        if let Some((&start, bytes)) = first
            && start + bytes.len() as u64 >= end
        {
            return Ok(bytes.slice((offset - start) as usize..(end - start) as usize));
        }
        let first = first.map_or(offset, |(&start, _)| start);
        let mut out = Vec::with_capacity(len);
        for (&start, bytes) in ranges.range(first..end) {
            let from = offset.max(start);
            let to = end.min(start + bytes.len() as u64);
            #[allow(clippy::cast_possible_truncation)]
            out.extend_from_slice(&bytes[(from - start) as usize..(to - start) as usize]);
        }
        Ok(Bytes::from(out))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

    use super::*;

    fn fetched(len: u64, parts: &[Range<u64>]) -> FetchedBytes {
        let source = FetchedBytes::new(len, "x".to_owned());
        let all: Vec<u8> = (0..len).map(|i| i as u8).collect();
        for part in parts {
            let bytes = Bytes::copy_from_slice(&all[part.start as usize..part.end as usize]);
            source.insert(part.start, &bytes);
        }
        source
    }

    #[test]
    fn reads_inside_and_across_ranges() {
        let source = fetched(100, &[10..20, 20..30, 40..50]);
        assert_eq!(&source.read_at(12, 5).unwrap()[..], &[12, 13, 14, 15, 16]);
        let across = source.read_at(15, 10).unwrap();
        assert_eq!(across.to_vec(), (15..25).collect::<Vec<u8>>());
        assert_eq!(source.read_at(30, 0).unwrap().len(), 0);
        assert!(source.take_misses().is_empty());
    }

    #[test]
    fn a_miss_is_an_error_and_recorded() {
        let source = fetched(100, &[10..20, 40..50]);
        let err = source.read_at(15, 30).unwrap_err();
        assert!(err.to_string().contains("not fetched"), "{err}");
        assert_eq!(source.take_misses(), vec![20..40]);
        assert!(source.take_misses().is_empty());
        assert!(source.read_at(0, 1).is_err());
        assert_eq!(source.take_misses(), vec![0..1]);
        let past = source.read_at(95, 10).unwrap_err();
        assert_eq!(past.kind(), io::ErrorKind::UnexpectedEof);
        assert!(source.read_at(u64::MAX, 2).is_err());
    }

    #[test]
    fn inserts_keep_ranges_disjoint() {
        let source = fetched(100, &[10..20, 30..40, 0..50]);
        assert_eq!(
            source.fetched_ranges(),
            vec![0..10, 10..20, 20..30, 30..40, 40..50]
        );
        assert_eq!(source.fetched_len(), 50);
        assert_eq!(
            source.read_at(5, 40).unwrap().to_vec(),
            (5..45).collect::<Vec<u8>>()
        );
        let mut out = Vec::new();
        source.missing(45..120, &mut out);
        assert_eq!(out, vec![50..100]);
        source.missing(120..130, &mut out);
        source.missing(60..60, &mut out);
        assert_eq!(out, vec![50..100]);
    }
}
