//! The ORC batches a reader turns into record batches: `orc-file`'s, owning their
//! `OrcReader`, read stripe by stripe as the record batches are asked for.

use orc_file::{Batch, OrcReader, ReadOptions};
use parquet_core::io::Source;

use crate::error::Result;

/// The ORC batches of one read.
pub(super) struct OrcBatches<S: 'static> {
    batches: orc_file::Batches<'static, S>,
}

impl<S: Source + 'static> OrcBatches<S> {
    /// The batches `options` selects from `reader`.
    pub(super) fn new(reader: OrcReader<S>, options: ReadOptions) -> Result<Self> {
        Ok(Self {
            batches: reader.into_batches(options)?,
        })
    }

    /// Fills `batch` with the next rows, reusing its buffers; `false` at the end.
    pub(super) fn next_into(&mut self, batch: &mut Batch) -> Result<bool> {
        Ok(self.batches.next_into(batch)?)
    }
}
