//! Batches of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values: one data buffer, no
//! allocation per value.

use crate::error::{Error, Result};

/// The bytes past the end of a dictionary's data that let
/// [`ByteArrayBatch::extend_gathered`] copy each short value as this many bytes.
pub const GATHER_SLACK: usize = 16;

/// Variable-length byte arrays as `len + 1` offsets into one data buffer (the layout
/// of an Arrow binary array with 32-bit offsets): value `i` is
/// `data[offsets[i]..offsets[i + 1]]`.
///
/// A batch holds at most `u32::MAX` bytes; pushes beyond that are an error.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ByteArrayBatch {
    offsets: Vec<u32>,
    data: Vec<u8>,
}

impl Default for ByteArrayBatch {
    fn default() -> Self {
        Self::new()
    }
}

impl ByteArrayBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self {
            offsets: vec![0],
            data: Vec::new(),
        }
    }

    /// An empty batch with room for `values` values of `bytes` bytes in all.
    pub fn with_capacity(values: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(values.saturating_add(1));
        offsets.push(0);
        Self {
            offsets,
            data: Vec::with_capacity(bytes),
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether the batch holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes every value, keeping the allocations.
    pub fn clear(&mut self) {
        self.offsets.truncate(1);
        self.data.clear();
    }

    /// Keeps the first `len` values (all of them when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            self.offsets.truncate(len + 1);
            let end = self.offsets.last().map_or(0, |&o| o as usize);
            self.data.truncate(end);
        }
    }

    /// Reserves room for `values` more values of `bytes` more bytes.
    pub fn reserve(&mut self, values: usize, bytes: usize) {
        self.offsets.reserve(values);
        self.data.reserve(bytes);
    }

    /// The `len + 1` offsets, starting at 0.
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// All values' bytes, back to back.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The `len + 1` offsets and the values' bytes, taken out of the batch.
    pub fn into_parts(self) -> (Vec<u32>, Vec<u8>) {
        (self.offsets, self.data)
    }

    /// Value `index`, if there is one.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&[u8]> {
        let start = *self.offsets.get(index)? as usize;
        let end = *self.offsets.get(index + 1)? as usize;
        self.data.get(start..end)
    }

    /// The last value, if any.
    pub fn last(&self) -> Option<&[u8]> {
        self.len().checked_sub(1).and_then(|index| self.get(index))
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + DoubleEndedIterator + '_ {
        // `windows(2)` yields slices of exactly two offsets.
        #[allow(clippy::indexing_slicing)]
        self.offsets.windows(2).map(|pair| {
            self.data
                .get(pair[0] as usize..pair[1] as usize)
                .unwrap_or_default()
        })
    }

    /// Appends a value.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] when the batch would exceed `u32::MAX` bytes.
    #[inline]
    pub fn push(&mut self, value: &[u8]) -> Result<()> {
        let end = self.end_after(value.len())?;
        self.data.extend_from_slice(value);
        self.offsets.push(end);
        Ok(())
    }

    /// Appends the value `prefix` followed by `suffix`.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] when the batch would exceed `u32::MAX` bytes.
    #[inline]
    pub fn push_parts(&mut self, prefix: &[u8], suffix: &[u8]) -> Result<()> {
        let end = self.end_after(prefix.len().saturating_add(suffix.len()))?;
        self.data.extend_from_slice(prefix);
        self.data.extend_from_slice(suffix);
        self.offsets.push(end);
        Ok(())
    }

    /// Appends the value made of the first `prefix_len` bytes of the last value followed
    /// by `suffix`: front compression, as DELTA_BYTE_ARRAY stores values.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] when the batch is empty or its last value is shorter than
    /// `prefix_len`; [`Error::LimitExceeded`] when the batch would exceed `u32::MAX` bytes.
    #[inline]
    pub fn push_prefixed(&mut self, prefix_len: usize, suffix: &[u8]) -> Result<()> {
        // Where the last value starts: `offsets.len() - 2`, in bounds when it exists.
        #[allow(clippy::indexing_slicing)]
        let last = self
            .offsets
            .len()
            .checked_sub(2)
            .map_or(0, |i| self.offsets[i]) as usize;
        let last_len = self.data.len() - last;
        if self.is_empty() || prefix_len > last_len {
            return Err(Error::OutOfRange {
                what: "prefix length",
                value: prefix_len as u64,
                bound: if self.is_empty() {
                    0
                } else {
                    last_len as u64 + 1
                },
            });
        }
        let end = self.end_after(prefix_len + suffix.len())?;
        self.data.extend_from_within(last..last + prefix_len);
        self.data.extend_from_slice(suffix);
        self.offsets.push(end);
        Ok(())
    }

    /// Appends `lengths.len()` values whose bytes are `data`, cut at the given lengths.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when the lengths do not add up to `data.len()`;
    /// [`Error::LimitExceeded`] when the batch would exceed `u32::MAX` bytes.
    pub fn extend_from_lengths(&mut self, lengths: &[u32], data: &[u8]) -> Result<()> {
        let base = self.end_after(0)?;
        self.end_after(data.len())?;
        let total = lengths
            .iter()
            .fold(0u64, |sum, &length| sum.saturating_add(u64::from(length)));
        if total != data.len() as u64 {
            return Err(Error::invalid(
                "byte array lengths (sum differs from data length)",
                0,
                total,
            ));
        }
        // Every running end stays within `base + data.len()`, which fits in a u32.
        let mut end = base;
        self.offsets.extend(lengths.iter().map(|&length| {
            end += length;
            end
        }));
        self.data.extend_from_slice(data);
        Ok(())
    }

    /// Appends the values of `entries` at `indices`, in order. `padded` is `entries`'
    /// data followed by at least [`GATHER_SLACK`] bytes (any): values of up to that many
    /// bytes are then copied as that many, without a call to `memcpy` each (without the
    /// slack, each is copied exactly, the same values more slowly).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for an index at or past `entries.len()` (nothing is
    /// appended then); [`Error::LimitExceeded`] when the batch would exceed `u32::MAX`
    /// bytes.
    pub fn extend_gathered(
        &mut self,
        entries: &ByteArrayBatch,
        padded: &[u8],
        indices: &[u32],
    ) -> Result<()> {
        let offsets = entries.offsets();
        let range = |index: u32| {
            let i = index as usize;
            match (offsets.get(i), offsets.get(i + 1)) {
                (Some(&start), Some(&end)) => Ok((start as usize, end as usize)),
                _ => Err(Error::OutOfRange {
                    what: "dictionary index",
                    value: index.into(),
                    bound: entries.len() as u64,
                }),
            }
        };
        let mut total = 0usize;
        for &index in indices {
            let (start, end) = range(index)?;
            total = total.saturating_add(end - start);
        }
        self.end_after(total)?;
        let at = self.data.len();
        self.data.resize(at + total + GATHER_SLACK, 0);
        let mut end = at;
        let data = &mut self.data;
        self.offsets.extend(indices.iter().map(|&index| {
            // Every index was checked in the first pass.
            let (start, stop) = range(index).unwrap_or((0, 0));
            let len = stop - start;
            // Arrays of a size known at compile time: a move of two registers.
            let short = padded
                .get(start..)
                .and_then(<[u8]>::first_chunk::<GATHER_SLACK>)
                .filter(|_| len <= GATHER_SLACK);
            match short {
                Some(from) => {
                    if let Some(to) = data
                        .get_mut(end..)
                        .and_then(<[u8]>::first_chunk_mut::<GATHER_SLACK>)
                    {
                        *to = *from;
                    }
                }
                None => {
                    if let (Some(from), Some(to)) =
                        (entries.data.get(start..stop), data.get_mut(end..end + len))
                    {
                        to.copy_from_slice(from);
                    }
                }
            }
            end += len;
            // At most `at + total`, which `end_after` found to fit in a u32.
            #[allow(clippy::cast_possible_truncation)]
            let offset = end as u32;
            offset
        }));
        self.data.truncate(at + total);
        Ok(())
    }

    #[inline]
    fn end_after(&self, added: usize) -> Result<u32> {
        let requested = self.data.len().saturating_add(added);
        u32::try_from(requested).map_err(|_| Error::LimitExceeded {
            what: "byte array batch size",
            requested: requested as u64,
            limit: u64::from(u32::MAX),
        })
    }
}

impl core::fmt::Debug for ByteArrayBatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|v| core::str::from_utf8(v).map_err(|_| v)))
            .finish()
    }
}

impl<V: AsRef<[u8]>> FromIterator<V> for ByteArrayBatch {
    /// Collects values into a batch.
    ///
    /// # Panics
    ///
    /// When the values add up to more than `u32::MAX` bytes.
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        let mut batch = Self::new();
        for value in iter {
            #[allow(clippy::expect_used)]
            batch
                .push(value.as_ref())
                .expect("a ByteArrayBatch holds at most u32::MAX bytes");
        }
        batch
    }
}

/// Fixed-length byte arrays, `width` bytes each, back to back in one buffer.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct FixedLenByteArrayBatch {
    width: usize,
    len: usize,
    data: Vec<u8>,
}

impl FixedLenByteArrayBatch {
    /// An empty batch of `width`-byte values.
    pub const fn new(width: usize) -> Self {
        Self {
            width,
            len: 0,
            data: Vec::new(),
        }
    }

    /// An empty batch with room for `values` values.
    pub fn with_capacity(width: usize, values: usize) -> Self {
        Self {
            width,
            len: 0,
            data: Vec::with_capacity(width.saturating_mul(values)),
        }
    }

    /// A batch holding `data` cut into `width`-byte values.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `data.len()` is not a multiple of `width`, or `width` is 0
    /// and `data` is not empty.
    pub fn from_bytes(width: usize, data: Vec<u8>) -> Result<Self> {
        let mut batch = Self::new(width);
        batch.check_whole(data.len())?;
        batch.len = data.len().checked_div(width).unwrap_or(0);
        batch.data = data;
        Ok(batch)
    }

    /// The width and the values' bytes, back to back, taken out of the batch.
    pub fn into_parts(self) -> (usize, Vec<u8>) {
        (self.width, self.data)
    }

    /// Bytes per value.
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Number of values.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the batch holds no values.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All values' bytes, back to back.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Removes every value, keeping the allocation.
    pub fn clear(&mut self) {
        self.len = 0;
        self.data.clear();
    }

    /// Keeps the first `len` values (all of them when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
        self.data.truncate(self.len * self.width);
    }

    /// Value `index`, if there is one.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&[u8]> {
        if index >= self.len {
            return None;
        }
        let start = index * self.width;
        self.data.get(start..start + self.width)
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        (0..self.len).map(|index| self.get(index).unwrap_or_default())
    }

    /// Appends a value.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `value` is not `width` bytes long.
    #[inline]
    pub fn push(&mut self, value: &[u8]) -> Result<()> {
        if value.len() != self.width {
            return Err(Error::invalid(
                "fixed-length byte array length",
                0,
                value.len() as u64,
            ));
        }
        self.data.extend_from_slice(value);
        self.len += 1;
        Ok(())
    }

    /// Appends the values held back to back in `bytes`.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `bytes.len()` is not a multiple of `width`, or `width` is
    /// 0 and `bytes` is not empty.
    pub fn extend_from_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.check_whole(bytes.len())?;
        self.data.extend_from_slice(bytes);
        self.len += bytes.len().checked_div(self.width).unwrap_or(0);
        Ok(())
    }

    /// Appends `count` zeroed values and returns their bytes, for a decoder to fill.
    pub fn extend_zeroed(&mut self, count: usize) -> &mut [u8] {
        let start = self.data.len();
        self.data.resize(start + count * self.width, 0);
        self.len += count;
        // `start` was the length before the resize, which only grew the data.
        #[allow(clippy::indexing_slicing)]
        &mut self.data[start..]
    }

    fn check_whole(&self, bytes: usize) -> Result<()> {
        let whole = if self.width == 0 {
            bytes == 0
        } else {
            bytes.is_multiple_of(self.width)
        };
        if whole {
            Ok(())
        } else {
            Err(Error::invalid(
                "fixed-length byte array data length",
                0,
                bytes as u64,
            ))
        }
    }
}

impl core::fmt::Debug for FixedLenByteArrayBatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FixedLenByteArrayBatch")
            .field("width", &self.width)
            .field("len", &self.len)
            .field("values", &self.iter().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn gathered_values_are_the_entries_at_the_indices(
            entries in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..30),
            picks in proptest::collection::vec(any::<u32>(), 0..200),
            slack in prop_oneof![Just(0usize), Just(GATHER_SLACK)],
        ) {
            let entries: ByteArrayBatch = entries.iter().collect();
            let count = u32::try_from(entries.len()).unwrap();
            let indices: Vec<u32> = picks.iter().map(|p| p % count).collect();
            let mut padded = entries.data().to_vec();
            padded.resize(padded.len() + slack, 0xAA);
            let mut out = ByteArrayBatch::new();
            out.push(b"before").unwrap();
            out.extend_gathered(&entries, &padded, &indices).unwrap();
            let mut expected = ByteArrayBatch::new();
            expected.push(b"before").unwrap();
            for &i in &indices {
                expected.push(entries.get(i as usize).unwrap()).unwrap();
            }
            prop_assert_eq!(out, expected);
        }
    }

    #[test]
    fn an_index_out_of_range_appends_nothing() {
        let entries: ByteArrayBatch = [b"a".as_slice(), b"bc"].into_iter().collect();
        let mut out = ByteArrayBatch::new();
        assert!(
            out.extend_gathered(&entries, entries.data(), &[1, 0, 2])
                .is_err()
        );
        assert!(out.is_empty() && out.data().is_empty());
    }

    use super::*;

    #[test]
    fn byte_array_batch() {
        let mut batch: ByteArrayBatch = ["axis", "axle"].into_iter().collect();
        batch.push_prefixed(0, b"babble").unwrap();
        batch.push_prefixed(3, b"yhood").unwrap();
        batch.push_parts(b"", b"").unwrap();
        let values: Vec<&[u8]> = batch.iter().collect();
        assert_eq!(values, [&b"axis"[..], b"axle", b"babble", b"babyhood", b""]);
        assert_eq!(batch.offsets(), &[0, 4, 8, 14, 22, 22]);
        assert_eq!(batch.last(), Some(&b""[..]));
        assert_eq!(batch.get(5), None);
        assert!(batch.push_prefixed(1, b"x").is_err());
        batch.clear();
        assert!(batch.is_empty());
        assert!(batch.push_prefixed(0, b"x").is_err());
    }

    #[test]
    fn extend_from_lengths_checks_the_sum() {
        let mut batch = ByteArrayBatch::new();
        batch
            .extend_from_lengths(&[5, 5, 6, 6], b"HelloWorldFoobarABCDEF")
            .unwrap();
        assert_eq!(batch.get(2), Some(&b"Foobar"[..]));
        assert!(batch.extend_from_lengths(&[1, 2], b"abcd").is_err());
        assert!(
            batch
                .extend_from_lengths(&[u32::MAX, u32::MAX, 2], b"ab")
                .is_err()
        );
        assert_eq!(batch.len(), 4);
        assert_eq!(batch.offsets().len(), 5);
    }

    #[test]
    fn fixed_len_batch() {
        let mut batch = FixedLenByteArrayBatch::new(2);
        batch.push(b"ab").unwrap();
        assert!(batch.push(b"abc").is_err());
        batch.extend_from_bytes(b"cdef").unwrap();
        assert!(batch.extend_from_bytes(b"g").is_err());
        batch.extend_zeroed(1).copy_from_slice(b"gh");
        assert_eq!(
            batch.iter().collect::<Vec<_>>(),
            [b"ab", b"cd", b"ef", b"gh"]
        );
        assert_eq!(batch.get(4), None);
        let empty = FixedLenByteArrayBatch::from_bytes(0, Vec::new()).unwrap();
        assert!(empty.is_empty());
        assert!(FixedLenByteArrayBatch::from_bytes(0, vec![1]).is_err());
    }
}
