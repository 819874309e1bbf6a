//! The deprecated BIT_PACKED encoding (parquet-encodings.txt, "Bit-packed (Deprecated)"):
//! values back to back at a fixed width, packed from the most significant bit of each
//! byte down, the last byte padded with zero bits. Old writers used it for repetition and
//! definition levels; the number of values comes from the page header.
//!
//! ```text
//! bit-packed := <value: width bits, most significant bit first>* <zero padding to a byte>
//! ```
//!
//! ```
//! use parquet_bitpack::bit_packed;
//!
//! // The spec's example: 0 through 7 at bit width 3.
//! let mut packed = Vec::new();
//! bit_packed::encode(3, &[0u16, 1, 2, 3, 4, 5, 6, 7], &mut packed);
//! assert_eq!(packed, [0b0000_0101, 0b0011_1001, 0b0111_0111]);
//!
//! let mut decoder = bit_packed::Decoder::try_new(&packed, 3, 8)?;
//! let mut levels = [0u16; 8];
//! assert_eq!(decoder.decode(&mut levels)?, 8);
//! assert_eq!(levels, [0, 1, 2, 3, 4, 5, 6, 7]);
//! # Ok::<(), parquet_bitpack::Error>(())
//! ```

use crate::{Error, Packable, Result, packed_len};

/// Appends `values` packed MSB-first at `width` bits to `out`.
///
/// # Panics
///
/// When `width` exceeds `T::MAX_WIDTH`.
pub fn encode<T: Packable>(width: u8, values: &[T], out: &mut Vec<u8>) {
    assert!(
        width <= T::MAX_WIDTH,
        "bit width {width} exceeds {}",
        T::MAX_WIDTH
    );
    if width == 0 {
        return;
    }
    out.reserve(packed_len(values.len(), width));
    let mask = u64::MAX >> (64 - u32::from(width));
    let mut pending: u128 = 0;
    let mut bits = 0u32;
    for value in values {
        pending = (pending << width) | u128::from(value.to_u64() & mask);
        bits += u32::from(width);
        while bits >= 8 {
            bits -= 8;
            #[allow(clippy::cast_possible_truncation)] // one byte at a time
            out.push((pending >> bits) as u8);
        }
    }
    if bits > 0 {
        #[allow(clippy::cast_possible_truncation)] // fewer than 8 bits remain
        out.push((pending << (8 - bits)) as u8);
    }
}

/// Decodes a BIT_PACKED run of a known number of values.
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    input: &'a [u8],
    width: u8,
    next: usize,
    len: usize,
}

impl<'a> Decoder<'a> {
    /// A decoder of `num_values` values of `width` bits from the start of `input`.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `width` exceeds 64; [`Error::Truncated`] when `input` is
    /// shorter than `num_values` values.
    pub fn try_new(input: &'a [u8], width: u8, num_values: usize) -> Result<Self> {
        if width > 64 {
            return Err(Error::invalid("bit width", 0, width.into()));
        }
        let needed = packed_len(num_values, width);
        let Some(input) = input.get(..needed) else {
            return Err(Error::truncated(
                "bit-packed levels",
                0,
                needed,
                input.len(),
            ));
        };
        Ok(Self {
            input,
            width,
            next: 0,
            len: num_values,
        })
    }

    /// Bytes the whole run takes, where the data after it starts.
    pub const fn encoded_len(&self) -> usize {
        self.input.len()
    }

    /// Values not yet decoded.
    pub const fn remaining(&self) -> usize {
        self.len - self.next
    }

    /// Decodes up to `out.len()` values and returns how many it wrote.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when the width exceeds `T::MAX_WIDTH`.
    pub fn decode<T: Packable>(&mut self, out: &mut [T]) -> Result<usize> {
        if self.width > T::MAX_WIDTH {
            return Err(Error::invalid("bit width", 0, self.width.into()));
        }
        let count = out.len().min(self.remaining());
        #[allow(clippy::indexing_slicing)] // `count <= out.len()`, the `min` above
        let out = &mut out[..count];
        if self.width == 0 {
            out.fill(T::default());
        } else {
            let width = usize::from(self.width);
            let mask = u128::from(u64::MAX >> (64 - width));
            for (index, slot) in (self.next..).zip(out.iter_mut()) {
                let bit = index * width;
                let window = self.window(bit / 8);
                let value = (window >> (128 - bit % 8 - width)) & mask;
                // `value` has at most `width` <= 64 bits.
                #[allow(clippy::cast_possible_truncation)]
                {
                    *slot = T::from_u64(value as u64);
                }
            }
        }
        self.next += count;
        Ok(count)
    }

    /// Skips up to `n` values and returns how many it skipped.
    pub fn skip(&mut self, n: usize) -> usize {
        let count = n.min(self.remaining());
        self.next += count;
        count
    }

    /// 16 bytes from `byte` on, big-endian, zero past the end of the run.
    #[inline]
    fn window(&self, byte: usize) -> u128 {
        let mut bytes = [0u8; 16];
        let available = self.input.get(byte..).unwrap_or_default();
        let take = available.len().min(16);
        #[allow(clippy::indexing_slicing)] // `take` is at most both lengths, the `min` above
        bytes[..take].copy_from_slice(&available[..take]);
        u128::from_be_bytes(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bit-by-bit reference: bit `k` of the stream is bit `7 - k % 8` of byte `k / 8`.
    fn reference(width: u8, values: &[u64]) -> Vec<u8> {
        let mut out = vec![0u8; packed_len(values.len(), width)];
        let mut k = 0;
        for &value in values {
            for b in (0..width).rev() {
                if value >> b & 1 == 1 {
                    out[k / 8] |= 0x80 >> (k % 8);
                }
                k += 1;
            }
        }
        out
    }

    #[test]
    fn spec_example_bytes() {
        let mut packed = Vec::new();
        encode(3, &[0u32, 1, 2, 3, 4, 5, 6, 7], &mut packed);
        assert_eq!(packed, [0x05, 0x39, 0x77]);
        // The spec's other example: 30 values at 2 bits take 8 bytes.
        let mut packed = Vec::new();
        encode(2, &[3u8; 30], &mut packed);
        assert_eq!(packed.len(), 8);
        assert_eq!(packed[7], 0b1111_0000);
    }

    #[test]
    fn errors() {
        assert!(Decoder::try_new(&[0; 3], 3, 9).is_err());
        assert!(Decoder::try_new(&[0; 3], 65, 1).is_err());
        let mut decoder = Decoder::try_new(&[0xff; 4], 9, 3).unwrap();
        assert!(decoder.decode(&mut [0u8; 3]).is_err());
        assert_eq!(decoder.decode(&mut [0u16; 5]), Ok(3));
        assert_eq!(decoder.encoded_len(), 4);
    }

    proptest! {
        #[test]
        fn round_trip(width in 0u8..=64, raw in prop::collection::vec(any::<u64>(), 0..100), split in 0usize..100) {
            let mask = if width == 0 { 0 } else { u64::MAX >> (64 - width) };
            let values: Vec<u64> = raw.iter().map(|v| v & mask).collect();
            let mut packed = Vec::new();
            encode(width, &values, &mut packed);
            prop_assert_eq!(&packed, &reference(width, &values));
            let mut decoder = Decoder::try_new(&packed, width, values.len()).unwrap();
            let mut out = vec![0u64; values.len()];
            let split = split.min(values.len());
            prop_assert_eq!(decoder.decode(&mut out[..split]), Ok(split));
            prop_assert_eq!(decoder.decode(&mut out[split..]), Ok(values.len() - split));
            prop_assert_eq!(out, values);
            prop_assert_eq!(decoder.remaining(), 0);
        }
    }
}
