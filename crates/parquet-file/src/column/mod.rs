//! One column chunk: its values and levels, read in record-sized batches
//! ([`ColumnChunkReader`] into a [`ColumnBatch`]).

mod decode;
mod reader;

pub use reader::ColumnChunkReader;
pub(crate) use reader::{ChunkSelection, PageSpan};

use crate::error::{Error, Result};
use crate::schema::ColumnDescriptor;
use crate::value::ColumnValues;

/// A batch of one column: whole records' values, and their levels (empty when the
/// column's largest level is 0).
///
/// Reused between reads: [`ColumnChunkReader::read_records`] appends to it, and
/// [`clear`](Self::clear) empties it keeping its memory.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnBatch {
    values: ColumnValues,
    def_levels: Vec<u16>,
    rep_levels: Vec<u16>,
    num_levels: usize,
    num_records: usize,
}

impl ColumnBatch {
    /// An empty batch for `column`.
    pub fn new(column: &ColumnDescriptor) -> Self {
        Self {
            values: ColumnValues::new(column.physical_type, column.type_length),
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
            if let Some((i, level)) = levels.iter().enumerate().find(|(_, l)| **l > max) {
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
        if present != self.values.len() {
            return fail(format!(
                "{} values where the definition levels say {present}",
                self.values.len()
            ));
        }
        Ok(())
    }

    /// Where the batch ends now, to [`truncate`](Self::truncate) back to.
    pub(crate) fn mark(&self) -> (usize, usize, usize, usize, usize) {
        (
            self.values.len(),
            self.def_levels.len(),
            self.rep_levels.len(),
            self.num_levels,
            self.num_records,
        )
    }

    /// Drops what was appended since `mark`.
    pub(crate) fn truncate(&mut self, mark: (usize, usize, usize, usize, usize)) {
        let (values, def, rep, levels, records) = mark;
        self.values.truncate(values);
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

    /// The non-null values.
    pub fn values(&self) -> &ColumnValues {
        &self.values
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

    /// The values, taken out of the batch.
    pub fn into_values(self) -> ColumnValues {
        self.values
    }

    /// Empties the batch, keeping the memory of its levels and giving away its values
    /// (to keep them without a copy, as Arrow arrays do); the next values go to fresh
    /// memory of the same capacity.
    pub fn take_values(&mut self) -> ColumnValues {
        let fresh = self.values.empty_like();
        let values = std::mem::replace(&mut self.values, fresh);
        self.clear();
        values
    }

    /// Empties the batch, keeping its memory.
    pub fn clear(&mut self) {
        self.values.clear();
        self.def_levels.clear();
        self.rep_levels.clear();
        self.num_levels = 0;
        self.num_records = 0;
    }
}
