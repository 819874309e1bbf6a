//! PLAIN FIXED_LEN_BYTE_ARRAY: the values' bytes back to back, `type_length` bytes each
//! (the width comes from the schema).
//!
//! ```text
//! fixed-len-byte-array-values := <value: type_length bytes>*
//! ```
//!
//! ```
//! use parquet_core::FixedLenByteArrayBatch;
//! use parquet_plain::fixed_len_byte_array;
//!
//! let mut page = Vec::new();
//! fixed_len_byte_array::encode_values(2, &[[0xab, 0xcd], [0x01, 0x02]], &mut page)?;
//! assert_eq!(page, [0xab, 0xcd, 0x01, 0x02]);
//!
//! let mut decoder = fixed_len_byte_array::Decoder::try_new(&page, 2, 2)?;
//! assert_eq!(decoder.next_value(), Some(&[0xab, 0xcd][..])); // borrowed from `page`
//! let mut batch = FixedLenByteArrayBatch::new(2);
//! assert_eq!(decoder.decode(&mut batch, 10)?, 1);
//! assert_eq!(batch.data(), [0x01, 0x02]);
//! # Ok::<(), parquet_plain::Error>(())
//! ```

use core::iter::FusedIterator;

use parquet_core::{Error, FixedLenByteArrayBatch, Result};

/// Appends the PLAIN encoding of the values of `batch` to `out`: their bytes.
pub fn encode(batch: &FixedLenByteArrayBatch, out: &mut Vec<u8>) {
    out.extend_from_slice(batch.data());
}

/// Appends the PLAIN encoding of `values`, each `width` bytes long, to `out`.
///
/// # Errors
///
/// [`Error::Invalid`] when a value is not `width` bytes long; `out` is then left as it
/// was.
pub fn encode_values<V: AsRef<[u8]>>(width: usize, values: &[V], out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    out.reserve(width.saturating_mul(values.len()));
    for value in values {
        let value = value.as_ref();
        if value.len() != width {
            out.truncate(start);
            return Err(Error::invalid(
                "FIXED_LEN_BYTE_ARRAY value length",
                0,
                value.len() as u64,
            ));
        }
        out.extend_from_slice(value);
    }
    Ok(())
}

/// Decodes a PLAIN run of a known number of FIXED_LEN_BYTE_ARRAY values: into a
/// [`FixedLenByteArrayBatch`] in batches, or borrowed from the input with
/// [`Decoder::next_value`] or, through [`IntoIterator`], as an [`Iterator`] of `&[u8]`.
///
/// The input is validated once, in [`Decoder::try_new`].
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    /// The run's bytes, exactly `width * len` of them.
    input: &'a [u8],
    width: usize,
    /// Values decoded or skipped so far.
    next: usize,
    /// Values in the run.
    len: usize,
}

impl<'a> Decoder<'a> {
    /// A decoder of `num_values` values of `width` bytes from the start of `input`; bytes
    /// after them are ignored (see [`Decoder::encoded_len`]).
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `width` is 0 (the schema's `type_length` must be
    /// positive); [`Error::Truncated`] when `input` is shorter than `num_values` values.
    pub fn try_new(input: &'a [u8], width: usize, num_values: usize) -> Result<Self> {
        if width == 0 {
            return Err(Error::invalid("FIXED_LEN_BYTE_ARRAY width", 0, 0));
        }
        let needed = width.saturating_mul(num_values);
        match input.get(..needed) {
            Some(input) => Ok(Self {
                input,
                width,
                next: 0,
                len: num_values,
            }),
            None => Err(Error::truncated(
                "PLAIN FIXED_LEN_BYTE_ARRAY values",
                0,
                needed,
                input.len(),
            )),
        }
    }

    /// Bytes per value.
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Values not yet decoded or skipped.
    #[inline]
    pub const fn remaining(&self) -> usize {
        self.len - self.next
    }

    /// Bytes the whole run takes: where the data after it starts in the input.
    pub const fn encoded_len(&self) -> usize {
        self.input.len()
    }

    /// The next value, borrowed from the input, or `None` at the end of the run.
    #[inline]
    pub fn next_value(&mut self) -> Option<&'a [u8]> {
        let value = self.next_values(1);
        (!value.is_empty()).then_some(value)
    }

    /// The bytes of the next `n` values (fewer at the end of the run), back to back and
    /// borrowed from the input.
    #[inline]
    pub fn next_values(&mut self, n: usize) -> &'a [u8] {
        let count = n.min(self.remaining());
        let start = self.next * self.width;
        self.next += count;
        self.input
            .get(start..start + count * self.width)
            .unwrap_or_default()
    }

    /// Appends up to `max` values to `out` and returns how many it appended: `max`, or
    /// fewer at the end of the run.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `out` holds values of another width.
    #[inline]
    pub fn decode(&mut self, out: &mut FixedLenByteArrayBatch, max: usize) -> Result<usize> {
        if out.width() != self.width {
            return Err(Error::invalid("output batch width", 0, out.width() as u64));
        }
        let bytes = self.next_values(max);
        out.extend_from_bytes(bytes)?;
        Ok(bytes.len() / self.width)
    }

    /// Skips up to `n` values and returns how many it skipped.
    ///
    /// # Errors
    ///
    /// None: the input was validated by [`Decoder::try_new`].
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let count = n.min(self.remaining());
        self.next += count;
        Ok(count)
    }
}

impl<'a> IntoIterator for Decoder<'a> {
    type Item = &'a [u8];
    type IntoIter = Values<'a>;

    /// The remaining values, borrowed from the input.
    fn into_iter(self) -> Values<'a> {
        Values { decoder: self }
    }
}

/// The values of a [`Decoder`], borrowed from its input.
#[derive(Debug, Clone)]
pub struct Values<'a> {
    decoder: Decoder<'a>,
}

impl<'a> Iterator for Values<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.decoder.next_value()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.decoder.remaining(), Some(self.decoder.remaining()))
    }
}

impl ExactSizeIterator for Values<'_> {}

impl FusedIterator for Values<'_> {}
