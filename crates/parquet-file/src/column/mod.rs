//! One column chunk: its values and levels, read in record-sized batches
//! ([`ColumnChunkReader`] into a [`ColumnBatch`]).

mod decode;
mod reader;

use std::sync::Arc;

use parquet_core::ByteArrayBatch;
use parquet_dictionary::ByteArrayDictionary;

pub use reader::ColumnChunkReader;
pub(crate) use reader::{ChunkSelection, PageSpan};

use crate::error::{Decoding as _, Error, Result};
use crate::schema::ColumnDescriptor;
use crate::value::ColumnValues;

/// Records that readers of every value of a byte-array column (`verify`, the rows) read
/// at once: a value is as long as the file says (a dictionary entry of 60 KB under 64 Ki
/// indices would be 4 GB in one batch of 64 Ki records), so a batch of these is bounded
/// by the longest value the file holds.
pub(crate) const BYTE_ARRAY_RECORDS: usize = 256;

/// Whether `column` holds byte arrays, whose batches [`BYTE_ARRAY_RECORDS`] bounds.
pub(crate) fn holds_byte_arrays(column: &ColumnDescriptor) -> bool {
    matches!(
        column.physical_type,
        parquet_core::PhysicalType::ByteArray | parquet_core::PhysicalType::FixedLenByteArray
    )
}

/// A batch of one column: whole records' values, and their levels (empty when the
/// column's largest level is 0).
///
/// Reused between reads: [`ColumnChunkReader::read_records`] appends to it, and
/// [`clear`](Self::clear) empties it keeping its memory.
///
/// A batch of a BYTE_ARRAY column can hold the dictionary indices of
/// dictionary-encoded pages in place of their values
/// ([`keep_dictionary`](Self::keep_dictionary)).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnBatch {
    values: ColumnValues,
    kept: Kept,
    def_levels: Vec<u16>,
    rep_levels: Vec<u16>,
    num_levels: usize,
    num_records: usize,
}

/// The values of a batch kept as dictionary indices: exactly one of these and the
/// batch's [`ColumnValues`] holds values.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Kept {
    /// Whether dictionary-encoded values are kept as indices.
    keep: bool,
    /// The dictionary of the indices; `None` when the batch holds none.
    dictionary: Option<Arc<ByteArrayDictionary>>,
    indices: Vec<u32>,
}

impl Kept {
    /// Whether the next `dictionary`-encoded values can be kept as indices, beside
    /// `values` (none, or only indices into the same dictionary).
    pub(crate) fn accepts(
        &self,
        dictionary: &Arc<ByteArrayDictionary>,
        values: &ColumnValues,
    ) -> bool {
        self.keep
            && values.is_empty()
            && self
                .dictionary
                .as_ref()
                .is_none_or(|d| Arc::ptr_eq(d, dictionary))
    }

    /// Appends `n` indices into `dictionary` with `decode` (as
    /// [`IndexDecoder::decode_indices`](parquet_dictionary::IndexDecoder::decode_indices)),
    /// checking each against the dictionary's length.
    pub(crate) fn decode(
        &mut self,
        dictionary: &Arc<ByteArrayDictionary>,
        n: usize,
        what: &'static str,
        decode: impl FnMut(&mut [u32]) -> parquet_core::Result<usize>,
    ) -> Result<()> {
        let start = self.indices.len();
        decode::fill(&mut self.indices, n, what, decode)?;
        let len = dictionary.len();
        let new = self.indices.get(start..).unwrap_or_default();
        // A pass the compiler vectorises; the first index out of range only on error.
        if new.iter().copied().max().is_some_and(|i| i as usize >= len)
            && let Some(&bad) = new.iter().find(|&&i| i as usize >= len)
        {
            return Err(out_of_range(bad, len)).decoding(what);
        }
        if self.dictionary.is_none() {
            self.dictionary = Some(Arc::clone(dictionary));
        }
        Ok(())
    }

    /// Moves the indices held into `values` (which holds none) as the entries they
    /// index, so that values of another encoding can follow.
    pub(crate) fn materialise(&mut self, values: &mut ColumnValues) -> Result<()> {
        let Some(dictionary) = self.dictionary.take() else {
            return Ok(());
        };
        let ColumnValues::ByteArray(out) = values else {
            return Err(Error::malformed(
                "a batch of another physical type than the column's",
            ));
        };
        gather(&dictionary, &self.indices, out)?;
        self.indices.clear();
        Ok(())
    }

    fn len(&self) -> usize {
        self.indices.len()
    }

    fn clear(&mut self) {
        self.dictionary = None;
        self.indices.clear();
    }
}

/// The error of an index at or past a dictionary's `len` entries.
fn out_of_range(index: u32, len: usize) -> parquet_core::Error {
    parquet_core::Error::OutOfRange {
        what: "dictionary index",
        value: index.into(),
        bound: len as u64,
    }
}

/// Appends the entries of `dictionary` at `indices` to `out`.
fn gather(
    dictionary: &ByteArrayDictionary,
    indices: &[u32],
    out: &mut ByteArrayBatch,
) -> Result<()> {
    dictionary
        .gather(indices, out)
        .decoding("dictionary values")
}

/// The values of a batch of a BYTE_ARRAY column kept as indices into the column chunk's
/// dictionary (see [`ColumnBatch::keep_dictionary`]): one index per non-null value, each
/// checked to be below the dictionary's length.
#[derive(Debug, Clone, PartialEq)]
pub struct DictionaryIndices {
    dictionary: Arc<ByteArrayDictionary>,
    indices: Vec<u32>,
}

impl DictionaryIndices {
    /// The dictionary, shared by every batch read from the same dictionary page: the
    /// same `Arc` (by [`Arc::ptr_eq`]) for the same page.
    pub fn dictionary(&self) -> &Arc<ByteArrayDictionary> {
        &self.dictionary
    }

    /// The indices into [`dictionary`](Self::dictionary), one per non-null value.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// The dictionary and the indices.
    pub fn into_parts(self) -> (Arc<ByteArrayDictionary>, Vec<u32>) {
        (self.dictionary, self.indices)
    }

    /// The values: the dictionary's entries at the indices, copied.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Decode`](crate::ErrorKind::Decode) when the values exceed the
    /// `u32::MAX` bytes of a [`ByteArrayBatch`].
    pub fn gather(&self) -> Result<ByteArrayBatch> {
        let mut out = ByteArrayBatch::new();
        gather(&self.dictionary, &self.indices, &mut out)?;
        Ok(out)
    }
}

impl ColumnBatch {
    /// An empty batch for `column`.
    pub fn new(column: &ColumnDescriptor) -> Self {
        Self {
            values: ColumnValues::new(column.physical_type, column.type_length),
            kept: Kept::default(),
            def_levels: Vec::new(),
            rep_levels: Vec::new(),
            num_levels: 0,
            num_records: 0,
        }
    }

    /// A batch to write: `values` (the non-null ones) and their levels, checked against
    /// `column`: values of its physical type (and width), as many as the definition
    /// levels at the maximum, levels up to the column's maxima, no levels where the
    /// column has none, and a first repetition level of 0.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the rule broken.
    pub fn try_new(
        column: &ColumnDescriptor,
        values: ColumnValues,
        def_levels: Vec<u16>,
        rep_levels: Vec<u16>,
    ) -> Result<Self> {
        let num_levels = if column.max_def_level > 0 {
            def_levels.len()
        } else if column.max_rep_level > 0 {
            rep_levels.len()
        } else {
            values.len()
        };
        let num_records = if column.max_rep_level > 0 {
            rep_levels.iter().filter(|&&r| r == 0).count()
        } else {
            num_levels
        };
        let batch = Self {
            values,
            kept: Kept::default(),
            def_levels,
            rep_levels,
            num_levels,
            num_records,
        };
        batch.check(column)?;
        Ok(batch)
    }

    /// Checks the batch against `column` (see [`try_new`](Self::try_new)).
    pub(crate) fn check(&self, column: &ColumnDescriptor) -> Result<()> {
        let fail = |what: String| Err(Error::input(what));
        if self.values.physical_type() != column.physical_type {
            return fail(format!(
                "{:?} values for a {:?} column",
                self.values.physical_type(),
                column.physical_type
            ));
        }
        if let ColumnValues::FixedLenByteArray(v) = &self.values
            && v.width() != column.type_length
        {
            return fail(format!(
                "values of {} bytes for a FIXED_LEN_BYTE_ARRAY({})",
                v.width(),
                column.type_length
            ));
        }
        for (levels, max, what) in [
            (&self.def_levels, column.max_def_level, "definition"),
            (&self.rep_levels, column.max_rep_level, "repetition"),
        ] {
            if max == 0 && !levels.is_empty() {
                return fail(format!("{what} levels for a column that has none"));
            }
            if max > 0 && levels.len() != self.num_levels {
                return fail(format!(
                    "{} {what} levels where there are {} level entries",
                    levels.len(),
                    self.num_levels
                ));
            }
            // A pass the compiler vectorises; the first level past `max` only on error.
            if levels.iter().copied().max().is_some_and(|l| l > max)
                && let Some((i, level)) = levels.iter().enumerate().find(|(_, l)| **l > max)
            {
                return fail(format!(
                    "{what} level {level} at entry {i}, past the maximum {max}"
                ));
            }
        }
        if self.rep_levels.first().is_some_and(|&r| r != 0) {
            return fail("a first repetition level that is not 0".to_owned());
        }
        let present = if column.max_def_level > 0 {
            self.def_levels
                .iter()
                .filter(|&&d| d == column.max_def_level)
                .count()
        } else {
            self.num_levels
        };
        if present != self.num_values() {
            return fail(format!(
                "{} values where the definition levels say {present}",
                self.num_values()
            ));
        }
        Ok(())
    }

    /// Where the batch ends now, to [`truncate`](Self::truncate) back to.
    pub(crate) fn mark(&self) -> (usize, usize, usize, usize, usize) {
        (
            self.num_values(),
            self.def_levels.len(),
            self.rep_levels.len(),
            self.num_levels,
            self.num_records,
        )
    }

    /// Drops what was appended since `mark`.
    pub(crate) fn truncate(&mut self, mark: (usize, usize, usize, usize, usize)) {
        let (values, def, rep, levels, records) = mark;
        if self.kept.dictionary.is_some() {
            self.kept.indices.truncate(values);
        } else {
            self.values.truncate(values);
        }
        self.def_levels.truncate(def);
        self.rep_levels.truncate(rep);
        self.num_levels = levels;
        self.num_records = records;
    }

    /// The values, to append to (with [`push_level`](Self::push_level) for each).
    pub(crate) fn values_mut(&mut self) -> &mut ColumnValues {
        &mut self.values
    }

    /// Appends a level entry of `column`.
    pub(crate) fn push_level(&mut self, column: &ColumnDescriptor, def: u16, rep: u16) {
        if column.max_def_level > 0 {
            self.def_levels.push(def);
        }
        if column.max_rep_level > 0 {
            self.rep_levels.push(rep);
        }
        self.num_levels += 1;
        if rep == 0 {
            self.num_records += 1;
        }
    }

    /// The non-null values (none when they are held as dictionary indices: see
    /// [`keep_dictionary`](Self::keep_dictionary)).
    pub fn values(&self) -> &ColumnValues {
        &self.values
    }

    /// The number of non-null values, held as values or as dictionary indices.
    pub fn num_values(&self) -> usize {
        self.values.len() + self.kept.len()
    }

    /// Whether reads keep the values of dictionary-encoded pages as indices into the
    /// column chunk's dictionary rather than copying the entries they index (off by
    /// default); only a BYTE_ARRAY column's batch keeps them, others ignore this.
    ///
    /// While on, a read that starts the batch on a dictionary-encoded page holds its
    /// values as indices, taken with
    /// [`take_dictionary_indices`](Self::take_dictionary_indices), and
    /// [`values`](Self::values) is empty. A batch holds values one way only: when a page
    /// of another encoding (the writer's fallback from a full dictionary) or of another
    /// dictionary follows within the batch, the indices held become values and the
    /// batch goes on with values, as when off.
    pub fn keep_dictionary(&mut self, keep: bool) {
        self.kept.keep =
            keep && self.values.physical_type() == parquet_core::PhysicalType::ByteArray;
    }

    /// Whether the batch keeps dictionary indices (see
    /// [`keep_dictionary`](Self::keep_dictionary)).
    pub fn keeps_dictionary(&self) -> bool {
        self.kept.keep
    }

    /// The values held as dictionary indices, taken out of the batch (which keeps its
    /// levels); `None` when the batch holds its values as [`values`](Self::values).
    pub fn take_dictionary_indices(&mut self) -> Option<DictionaryIndices> {
        let dictionary = self.kept.dictionary.take()?;
        let fresh = Vec::with_capacity(self.kept.indices.capacity());
        let indices = std::mem::replace(&mut self.kept.indices, fresh);
        Some(DictionaryIndices {
            dictionary,
            indices,
        })
    }

    /// The definition levels, one per level entry (empty for a required column whose
    /// ancestors are all required).
    pub fn def_levels(&self) -> &[u16] {
        &self.def_levels
    }

    /// The repetition levels, one per level entry (empty for an unrepeated column).
    pub fn rep_levels(&self) -> &[u16] {
        &self.rep_levels
    }

    /// The number of level entries: values plus nulls (for a required, unrepeated column,
    /// the number of values).
    pub fn num_levels(&self) -> usize {
        self.num_levels
    }

    /// The number of records (rows).
    pub fn num_records(&self) -> usize {
        self.num_records
    }

    /// The values, taken out of the batch (without those held as dictionary indices:
    /// take them first).
    pub fn into_values(self) -> ColumnValues {
        self.values
    }

    /// Empties the batch, keeping the memory of its levels and giving away its values
    /// (to keep them without a copy, as Arrow arrays do); the next values go to fresh
    /// memory of the same capacity. Values held as dictionary indices are dropped: take
    /// them first with [`take_dictionary_indices`](Self::take_dictionary_indices).
    pub fn take_values(&mut self) -> ColumnValues {
        let fresh = self.values.empty_like();
        let values = std::mem::replace(&mut self.values, fresh);
        self.clear();
        values
    }

    /// Empties the batch, keeping its memory.
    pub fn clear(&mut self) {
        self.values.clear();
        self.kept.clear();
        self.def_levels.clear();
        self.rep_levels.clear();
        self.num_levels = 0;
        self.num_records = 0;
    }
}
