//! The DELTA_BYTE_ARRAY encoder.

use crate::binary_packed::{self, Params};
use crate::length_byte_array::{self, length};
use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Result};

/// Appends the DELTA_BYTE_ARRAY encoding of `values` to `out`, the prefix and suffix
/// lengths in blocks of the shape `params` gives.
///
/// # Errors
///
/// [`Error::LimitExceeded`](parquet_core::Error::LimitExceeded) for a value longer than
/// `i32::MAX` bytes; `out` is then left as it was.
pub fn encode<'v, I>(values: I, params: Params, out: &mut Vec<u8>) -> Result<()>
where
    I: IntoIterator<Item = &'v [u8]>,
{
    let mut prefixes = binary_packed::Encoder::new(params);
    let mut suffixes = length_byte_array::Encoder::new(params);
    let mut previous: &[u8] = &[];
    for value in values {
        length(value.len())?;
        let prefix = common_prefix_len(previous, value);
        // Not longer than the value, whose length fits in an i32.
        prefixes.push(length(prefix)?);
        #[allow(clippy::indexing_slicing)] // a prefix of `value`: `prefix <= value.len()`
        suffixes.push(&value[prefix..])?;
        previous = value;
    }
    prefixes.finish(out);
    suffixes.finish(out);
    Ok(())
}

/// Appends the DELTA_BYTE_ARRAY encoding of the values of `batch` to `out`.
///
/// # Errors
///
/// As [`encode`].
pub fn encode_batch(batch: &ByteArrayBatch, params: Params, out: &mut Vec<u8>) -> Result<()> {
    encode(batch.iter(), params, out)
}

/// Appends the DELTA_BYTE_ARRAY encoding of the FIXED_LEN_BYTE_ARRAY values of `batch`
/// to `out`.
///
/// # Errors
///
/// As [`encode`].
pub fn encode_fixed(
    batch: &FixedLenByteArrayBatch,
    params: Params,
    out: &mut Vec<u8>,
) -> Result<()> {
    encode(batch.iter(), params, out)
}

/// Encodes values as they come, keeping a copy of the previous one.
#[derive(Debug, Clone, Default)]
pub struct Encoder {
    prefixes: binary_packed::Encoder<i32>,
    suffixes: length_byte_array::Encoder,
    previous: Vec<u8>,
}

impl Encoder {
    /// An encoder writing the prefix and suffix lengths in blocks of the shape `params`
    /// gives.
    pub fn new(params: Params) -> Self {
        Self {
            prefixes: binary_packed::Encoder::new(params),
            suffixes: length_byte_array::Encoder::new(params),
            previous: Vec::new(),
        }
    }

    /// Values pushed since the last [`Encoder::finish`].
    pub const fn len(&self) -> usize {
        self.prefixes.len()
    }

    /// Whether no value was pushed since the last [`Encoder::finish`].
    pub const fn is_empty(&self) -> bool {
        self.prefixes.is_empty()
    }

    /// Adds a value.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`](parquet_core::Error::LimitExceeded) for a value longer
    /// than `i32::MAX` bytes, which is not added.
    pub fn push(&mut self, value: &[u8]) -> Result<()> {
        length(value.len())?;
        let prefix = common_prefix_len(&self.previous, value);
        #[allow(clippy::indexing_slicing)] // a prefix of `value`: `prefix <= value.len()`
        let suffix = &value[prefix..];
        self.prefixes.push(length(prefix)?);
        self.suffixes.push(suffix)?;
        self.previous.truncate(prefix);
        self.previous.extend_from_slice(suffix);
        Ok(())
    }

    /// Appends the encoding of every value pushed to `out`, and empties the encoder for
    /// another run (keeping its allocations).
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        self.prefixes.finish(out);
        self.suffixes.finish(out);
        self.previous.clear();
    }
}

/// The length of the longest common prefix of `a` and `b`, eight bytes at a time.
fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let (a_words, _) = a.as_chunks::<8>();
    let (b_words, _) = b.as_chunks::<8>();
    let mut same = 0;
    for (x, y) in a_words.iter().zip(b_words) {
        let diff = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if diff != 0 {
            return same + (diff.trailing_zeros() / 8) as usize;
        }
        same += 8;
    }
    // The rest of the shorter one: fewer than 8 bytes.
    same + a
        .iter()
        .zip(b)
        .skip(same)
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::common_prefix_len;

    #[test]
    fn common_prefix() {
        assert_eq!(common_prefix_len(b"", b"abc"), 0);
        assert_eq!(common_prefix_len(b"axis", b"axle"), 2);
        assert_eq!(common_prefix_len(b"babble", b"babyhood"), 3);
        assert_eq!(
            common_prefix_len(b"0123456789abcdef!", b"0123456789abcdef?"),
            16
        );
        assert_eq!(common_prefix_len(b"0123456789", b"0123456789abc"), 10);
        assert_eq!(common_prefix_len(b"01234567x9", b"01234567y9"), 8);
    }
}
