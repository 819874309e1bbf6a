//! The DELTA_LENGTH_BYTE_ARRAY encoder.

use crate::binary_packed::{self, Params};
use parquet_core::{ByteArrayBatch, Error, Result};

/// Appends the DELTA_LENGTH_BYTE_ARRAY encoding of `values` to `out`, the lengths in
/// blocks of the shape `params` gives.
///
/// # Errors
///
/// [`Error::LimitExceeded`] for a value longer than `i32::MAX` bytes; `out` is then left
/// as it was.
pub fn encode<'v, I>(values: I, params: Params, out: &mut Vec<u8>) -> Result<()>
where
    I: IntoIterator<Item = &'v [u8]>,
{
    let mut encoder = Encoder::new(params);
    for value in values {
        encoder.push(value)?;
    }
    encoder.finish(out);
    Ok(())
}

/// Appends the DELTA_LENGTH_BYTE_ARRAY encoding of the values of `batch` to `out`, the
/// lengths in blocks of the shape `params` gives. The bytes are copied once, straight
/// from the batch.
///
/// # Errors
///
/// [`Error::LimitExceeded`] for a value longer than `i32::MAX` bytes; `out` is then left
/// as it was.
pub fn encode_batch(batch: &ByteArrayBatch, params: Params, out: &mut Vec<u8>) -> Result<()> {
    let mut lengths = binary_packed::Encoder::new(params);
    for pair in batch.offsets().windows(2) {
        #[allow(clippy::indexing_slicing)] // `windows(2)` yields slices of exactly two
        lengths.push(length(pair[1] as usize - pair[0] as usize)?);
    }
    lengths.finish(out);
    out.extend_from_slice(batch.data());
    Ok(())
}

/// Encodes values as they come: the lengths one block at a time, the bytes into a
/// buffer.
#[derive(Debug, Clone, Default)]
pub struct Encoder {
    lengths: binary_packed::Encoder<i32>,
    data: Vec<u8>,
}

impl Encoder {
    /// An encoder writing the lengths in blocks of the shape `params` gives.
    pub fn new(params: Params) -> Self {
        Self {
            lengths: binary_packed::Encoder::new(params),
            data: Vec::new(),
        }
    }

    /// Values pushed since the last [`Encoder::finish`].
    pub const fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether no value was pushed since the last [`Encoder::finish`].
    pub const fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Bytes of the values pushed since the last [`Encoder::finish`].
    pub fn data_len(&self) -> usize {
        self.data.len()
    }

    /// Adds a value.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] for a value longer than `i32::MAX` bytes, which is not
    /// added.
    #[inline]
    pub fn push(&mut self, value: &[u8]) -> Result<()> {
        self.lengths.push(length(value.len())?);
        self.data.extend_from_slice(value);
        Ok(())
    }

    /// Appends the encoding of every value pushed to `out`, and empties the encoder for
    /// another run (keeping its allocations).
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        self.lengths.finish(out);
        out.extend_from_slice(&self.data);
        self.data.clear();
    }
}

/// A value's length as the INT32 the format stores.
#[inline]
pub(crate) fn length(len: usize) -> Result<i32> {
    i32::try_from(len).map_err(|_| Error::LimitExceeded {
        what: "byte array length",
        requested: len as u64,
        limit: i32::MAX as u64,
    })
}
