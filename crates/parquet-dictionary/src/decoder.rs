//! Dictionaries read from dictionary pages, and index pages gathered through them.

use crate::builder::DictionaryValue;
use parquet_core::{ByteArrayBatch, Error, FixedLenByteArrayBatch, GATHER_SLACK, Result};
use parquet_plain::PlainType;
use parquet_rle::Run;

/// The dictionary of a column chunk of BOOLEAN, INT32, INT64, INT96, FLOAT or DOUBLE values.
#[derive(Debug, Clone, PartialEq)]
pub struct Dictionary<T> {
    entries: Vec<T>,
}

impl<T: PlainType> Dictionary<T> {
    /// Reads the `num_entries` PLAIN entries of a dictionary page.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the page is shorter than `num_entries` entries (checked
    /// before anything is allocated).
    pub fn try_from_page(page: &[u8], num_entries: usize) -> Result<Self> {
        let mut decoder = parquet_plain::Decoder::<T>::try_new(page, num_entries)?;
        let mut entries = vec![T::default(); num_entries];
        decoder.decode(&mut entries)?;
        Ok(Self { entries })
    }

    /// The entries, in index order.
    pub fn entries(&self) -> &[T] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the dictionary has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<T: DictionaryValue> From<Vec<T>> for Dictionary<T> {
    fn from(entries: Vec<T>) -> Self {
        Self { entries }
    }
}

/// Most bytes one [`IndexDecoder::gather_byte_arrays`] call appends: a few bytes of
/// indices can repeat a long entry millions of times, so a call may return fewer values
/// than asked for (at least one) to stay within this budget.
pub const GATHER_BYTE_BUDGET: usize = 64 << 20;

/// The dictionary of a column chunk of BYTE_ARRAY values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteArrayDictionary {
    entries: ByteArrayBatch,
    /// The entries' data and [`GATHER_SLACK`] bytes more, for [`Self::gather`].
    padded: Vec<u8>,
    /// Length of the longest entry.
    longest: usize,
}

impl ByteArrayDictionary {
    /// Reads the `num_entries` PLAIN entries of a dictionary page.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the page ends before `num_entries` entries.
    pub fn try_from_page(page: &[u8], num_entries: usize) -> Result<Self> {
        let mut decoder = parquet_plain::byte_array::Decoder::try_new(page, num_entries)?;
        let mut entries = ByteArrayBatch::new();
        decoder.decode(&mut entries, num_entries)?;
        Ok(Self::from(entries))
    }

    /// The entries, in index order.
    pub fn entries(&self) -> &ByteArrayBatch {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the dictionary has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Appends the entries at `indices` to `out`, in order; short entries are copied
    /// without a call to `memcpy` each.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for an index at or past the dictionary's length (nothing is
    /// appended then); [`Error::LimitExceeded`] when `out` would exceed the `u32::MAX`
    /// bytes of a batch.
    pub fn gather(&self, indices: &[u32], out: &mut ByteArrayBatch) -> Result<()> {
        out.extend_gathered(&self.entries, &self.padded, indices)
    }
}

impl From<ByteArrayBatch> for ByteArrayDictionary {
    fn from(entries: ByteArrayBatch) -> Self {
        let longest = entries.iter().map(<[u8]>::len).max().unwrap_or(0);
        let mut padded = Vec::with_capacity(entries.data().len() + GATHER_SLACK);
        padded.extend_from_slice(entries.data());
        padded.resize(entries.data().len() + GATHER_SLACK, 0);
        Self {
            entries,
            padded,
            longest,
        }
    }
}

/// The dictionary of a column chunk of FIXED_LEN_BYTE_ARRAY values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedLenByteArrayDictionary {
    entries: FixedLenByteArrayBatch,
}

impl FixedLenByteArrayDictionary {
    /// Reads the `num_entries` PLAIN entries, `width` bytes each, of a dictionary page.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the page is shorter than `num_entries` entries (checked
    /// before anything is allocated).
    pub fn try_from_page(page: &[u8], width: usize, num_entries: usize) -> Result<Self> {
        let mut decoder =
            parquet_plain::fixed_len_byte_array::Decoder::try_new(page, width, num_entries)?;
        let mut entries = FixedLenByteArrayBatch::with_capacity(width, num_entries);
        decoder.decode(&mut entries, num_entries)?;
        Ok(Self { entries })
    }

    /// The entries, in index order.
    pub fn entries(&self) -> &FixedLenByteArrayBatch {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the dictionary has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl From<FixedLenByteArrayBatch> for FixedLenByteArrayDictionary {
    fn from(entries: FixedLenByteArrayBatch) -> Self {
        Self { entries }
    }
}

/// Reads the indices of a dictionary-encoded data page (RLE_DICTIONARY or
/// PLAIN_DICTIONARY) and gathers the values they point to.
///
/// The stream carries no value count: each call decodes up to what it is asked for and
/// stops early only at the end of the input.
#[derive(Debug, Clone)]
pub struct IndexDecoder<'a> {
    indices: parquet_rle::Decoder<'a>,
}

fn out_of_range(index: u32, len: usize) -> Error {
    Error::OutOfRange {
        what: "dictionary index",
        value: index.into(),
        bound: len as u64,
    }
}

impl<'a> IndexDecoder<'a> {
    /// A decoder of the index page `input`: its bit width byte, then the indices.
    /// An empty input (a page whose values are all null) decodes to nothing.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when the bit width exceeds 32.
    pub fn try_new(input: &'a [u8]) -> Result<Self> {
        let (width, data) = input
            .split_first()
            .map_or((0, input), |(&width, data)| (width, data));
        let indices = parquet_rle::Decoder::try_new(data, width).map_err(|e| e.shifted(1))?;
        Ok(Self { indices })
    }

    /// The bit width of the indices.
    pub const fn bit_width(&self) -> u8 {
        self.indices.bit_width()
    }

    /// Decodes up to `out.len()` indices without looking them up.
    ///
    /// # Errors
    ///
    /// As [`parquet_rle::Decoder::decode`].
    pub fn decode_indices(&mut self, out: &mut [u32]) -> Result<usize> {
        self.indices.decode(out)
    }

    /// Skips up to `n` values.
    ///
    /// # Errors
    ///
    /// As [`parquet_rle::Decoder::skip`].
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        self.indices.skip(n)
    }

    /// Decodes up to `out.len()` values of `dictionary` into `out` and returns how many it
    /// wrote.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for an index at or past the dictionary's length; as
    /// [`parquet_rle::Decoder::decode`] for a malformed page.
    #[inline]
    pub fn gather<T: Copy>(&mut self, dictionary: &Dictionary<T>, out: &mut [T]) -> Result<usize> {
        self.indices.gather(&dictionary.entries, out)
    }

    /// Appends up to `max` values of `dictionary` to `out` and returns how many it
    /// appended: fewer than `max` at the end of the input, or when more would take the
    /// call past [`GATHER_BYTE_BUDGET`] bytes (at least one value is always appended).
    ///
    /// # Errors
    ///
    /// As [`IndexDecoder::gather`]; [`Error::LimitExceeded`] when `out` would exceed the
    /// `u32::MAX` bytes of a batch.
    pub fn gather_byte_arrays(
        &mut self,
        dictionary: &ByteArrayDictionary,
        out: &mut ByteArrayBatch,
        max: usize,
    ) -> Result<usize> {
        let max = max.min((GATHER_BYTE_BUDGET / dictionary.longest.max(1)).max(1));
        // The indices a block at a time, each block's entries gathered at once.
        let mut indices = [0u32; 1024];
        let mut done = 0;
        while done < max {
            let block = indices
                .get_mut(..(max - done).min(1024))
                .unwrap_or_default();
            let n = self.indices.decode(block)?;
            if n == 0 {
                break;
            }
            dictionary.gather(block.get(..n).unwrap_or_default(), out)?;
            done += n;
        }
        Ok(done)
    }

    /// Appends up to `max` values of `dictionary` to `out` and returns how many it
    /// appended.
    ///
    /// # Errors
    ///
    /// As [`IndexDecoder::gather`]; [`Error::Invalid`] when `out` holds values of another
    /// width than the dictionary.
    pub fn gather_fixed_len(
        &mut self,
        dictionary: &FixedLenByteArrayDictionary,
        out: &mut FixedLenByteArrayBatch,
        max: usize,
    ) -> Result<usize> {
        let entries = &dictionary.entries;
        if out.width() != entries.width() {
            return Err(Error::invalid(
                "fixed-length byte array width",
                0,
                out.width() as u64,
            ));
        }
        let entry = |index: u32| {
            entries
                .get(index as usize)
                .ok_or_else(|| out_of_range(index, entries.len()))
        };
        self.indices.for_each_run(max, |run| {
            match run {
                Run::Repeated { value, len } => {
                    let value = entry(value)?;
                    let start = out.extend_zeroed(len);
                    for chunk in start.chunks_exact_mut(value.len().max(1)) {
                        chunk.copy_from_slice(value);
                    }
                }
                Run::Packed(indices) => {
                    for &index in indices {
                        out.push(entry(index)?)?;
                    }
                }
            }
            Ok(())
        })
    }
}
