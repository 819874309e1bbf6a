//! One column chunk: its values and levels, read in record-sized batches
//! ([`ColumnChunkReader`] into a [`ColumnBatch`]).

mod decode;
mod reader;

pub use reader::ColumnChunkReader;
pub(crate) use reader::{ChunkSelection, PageSpan};

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

    /// Empties the batch, keeping its memory.
    pub fn clear(&mut self) {
        self.values.clear();
        self.def_levels.clear();
        self.rep_levels.clear();
        self.num_levels = 0;
        self.num_records = 0;
    }
}
