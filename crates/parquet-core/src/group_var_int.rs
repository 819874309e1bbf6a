//! GroupVarInt, from the first draft of the Parquet encodings (later editions dropped it).
//!
//! ```text
//! int32-stream := int32-group*      // 4 values per group
//! int32-group  := <header: 1 byte> <value>{4}
//! int64-stream := int64-group*      // 5 values per group
//! int64-group  := <header: 2 bytes> <value>{5}
//! value        := 1 to 4 (int32) or 1 to 8 (int64) little-endian bytes
//! ```
//!
//! The header holds, for each value in order from its most significant bits down, the
//! value's byte length minus one: 2 bits per value for INT32 (`0b00101101` means lengths
//! 1, 3, 4, 2), 3 bits per value for INT64 in a big-endian 16-bit header whose top bit is
//! unused (written as zero, ignored on read). Values are the two's-complement bit patterns
//! with leading zero bytes dropped, so a negative value always takes the full width. A
//! last, incomplete group is padded with zeros; the number of values is not stored, so the
//! decoder is told it.

use crate::error::{Error, Result};

mod sealed {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}

/// The two integer types GroupVarInt encodes: `i32` and `i64`.
pub trait GroupVarInt: Copy + Default + sealed::Sealed {
    /// Values per group.
    const GROUP: usize;
    /// Header bytes per group.
    const HEADER: usize;
    /// Header bits per value.
    const CODE_BITS: u32;
    /// Width of a value in bytes.
    const WIDTH: usize;
    /// The value's bit pattern, zero-extended.
    fn to_bits(self) -> u64;
    /// The value with bit pattern `bits` (the low `WIDTH` bytes).
    fn from_bits(bits: u64) -> Self;
}

impl GroupVarInt for i32 {
    const GROUP: usize = 4;
    const HEADER: usize = 1;
    const CODE_BITS: u32 = 2;
    const WIDTH: usize = 4;
    fn to_bits(self) -> u64 {
        u64::from(self.cast_unsigned())
    }
    #[allow(clippy::cast_possible_truncation)] // the low 32 bits are the value
    fn from_bits(bits: u64) -> Self {
        (bits as u32).cast_signed()
    }
}

impl GroupVarInt for i64 {
    const GROUP: usize = 5;
    const HEADER: usize = 2;
    const CODE_BITS: u32 = 3;
    const WIDTH: usize = 8;
    fn to_bits(self) -> u64 {
        self.cast_unsigned()
    }
    fn from_bits(bits: u64) -> Self {
        bits.cast_signed()
    }
}

/// Where the length code of the `index`-th value of a group sits in the header.
#[allow(clippy::cast_possible_truncation)] // index < GROUP <= 5
const fn code_shift<T: GroupVarInt>(index: usize) -> u32 {
    T::CODE_BITS * (T::GROUP - 1 - index) as u32
}

/// Appends the GroupVarInt encoding of `values` to `out`, zero-padding the last group.
pub fn encode<T: GroupVarInt>(values: &[T], out: &mut Vec<u8>) {
    for chunk in values.chunks(T::GROUP) {
        let mut group = [0u64; 5];
        for (slot, value) in group.iter_mut().zip(chunk) {
            *slot = value.to_bits();
        }
        // The group, zero-padded to `T::GROUP` values: `T::GROUP <= 5`, `T::HEADER <= 8`
        // and `byte_len(_) <= 8`, so the slices below are in bounds.
        #[allow(clippy::indexing_slicing)]
        {
            let group = &group[..T::GROUP];
            let mut header = 0u64;
            for (index, &bits) in group.iter().enumerate() {
                let len = byte_len(bits);
                header |= ((len - 1) as u64) << code_shift::<T>(index);
            }
            out.extend_from_slice(&header.to_be_bytes()[8 - T::HEADER..]);
            for &bits in group {
                out.extend_from_slice(&bits.to_le_bytes()[..byte_len(bits)]);
            }
        }
    }
}

/// Bytes needed for `bits`, at least one.
const fn byte_len(bits: u64) -> usize {
    let used = 64 - (bits | 1).leading_zeros() as usize;
    used.div_ceil(8)
}

/// Decodes a GroupVarInt stream of a known number of values.
#[derive(Debug, Clone)]
pub struct Decoder<'a, T: GroupVarInt> {
    input: &'a [u8],
    position: usize,
    remaining: usize,
    group: [T; 5],
    group_next: usize,
    group_len: usize,
}

impl<'a, T: GroupVarInt> Decoder<'a, T> {
    /// A decoder of `num_values` values from `input`.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when `input` is too short to hold `num_values` values even at
    /// one byte each.
    pub fn try_new(input: &'a [u8], num_values: usize) -> Result<Self> {
        let groups = num_values.div_ceil(T::GROUP);
        let min_bytes = groups.saturating_mul(T::HEADER + T::GROUP);
        if min_bytes > input.len() {
            return Err(Error::truncated(
                "GroupVarInt values",
                0,
                min_bytes,
                input.len(),
            ));
        }
        Ok(Self {
            input,
            position: 0,
            remaining: num_values,
            group: [T::default(); 5],
            group_next: 0,
            group_len: 0,
        })
    }

    /// Values not yet decoded.
    pub const fn remaining(&self) -> usize {
        self.remaining
    }

    /// Bytes of the input consumed so far (whole groups).
    pub const fn bytes_read(&self) -> usize {
        self.position
    }

    /// Decodes up to `out.len()` values into `out` and returns how many it wrote.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when a group runs past the end of the input.
    pub fn decode(&mut self, out: &mut [T]) -> Result<usize> {
        let wanted = out.len().min(self.remaining);
        let mut written = 0;
        while written < wanted {
            if self.group_next == self.group_len {
                self.read_group()?;
            }
            let take = (self.group_len - self.group_next).min(wanted - written);
            // `group_next < group_len <= self.group.len()` once a group is read, and
            // `take` is at most what is left of the group and of `out[..wanted]`.
            #[allow(clippy::indexing_slicing)]
            out[written..written + take]
                .copy_from_slice(&self.group[self.group_next..self.group_next + take]);
            self.group_next += take;
            written += take;
        }
        self.remaining -= written;
        Ok(written)
    }

    /// Skips up to `n` values and returns how many it skipped.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode`].
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let mut scratch = [T::default(); 64];
        let mut skipped = 0;
        while skipped < n {
            let step = (n - skipped).min(scratch.len());
            #[allow(clippy::indexing_slicing)] // `step <= scratch.len()`, the `min` above
            let got = self.decode(&mut scratch[..step])?;
            if got == 0 {
                break;
            }
            skipped += got;
        }
        Ok(skipped)
    }

    fn read_group(&mut self) -> Result<()> {
        let start = self.position;
        let rest = self.input.get(start..).unwrap_or_default();
        let Some(header_bytes) = rest.get(..T::HEADER) else {
            return Err(Error::truncated(
                "GroupVarInt header",
                start,
                T::HEADER,
                rest.len(),
            ));
        };
        let header = header_bytes
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        let mut offset = T::HEADER;
        let code_mask = (1u64 << T::CODE_BITS) - 1;
        for (index, slot) in self.group.iter_mut().take(T::GROUP).enumerate() {
            // A code is at most 3 bits: the cast cannot truncate.
            #[allow(clippy::cast_possible_truncation)]
            let len = ((header >> code_shift::<T>(index)) & code_mask) as usize + 1;
            let Some(bytes) = rest.get(offset..offset + len) else {
                return Err(Error::truncated(
                    "GroupVarInt value",
                    start + offset,
                    len,
                    rest.len().saturating_sub(offset),
                ));
            };
            let mut le = [0u8; 8];
            #[allow(clippy::indexing_slicing)] // `len <= 8`: a 3-bit code plus one
            le[..len].copy_from_slice(bytes);
            *slot = T::from_bits(u64::from_le_bytes(le));
            offset += len;
        }
        self.position = start + offset;
        self.group_next = 0;
        self.group_len = T::GROUP;
        Ok(())
    }
}

/// Decodes exactly `out.len()` values from `input` and returns the bytes consumed.
///
/// # Errors
///
/// As [`Decoder::try_new`] and [`Decoder::decode`].
pub fn decode<T: GroupVarInt>(input: &[u8], out: &mut [T]) -> Result<usize> {
    let mut decoder = Decoder::try_new(input, out.len())?;
    decoder.decode(out)?;
    Ok(decoder.bytes_read())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The draft's example: header `0b00101101` announces lengths 1, 3, 4 and 2, the
    /// group takes 1 + (1 + 3 + 4 + 2) = 11 bytes and the values start at offsets 1, 2,
    /// 5 and 9 with maxima 0xFF, 0xFFFFFF, 0xFFFFFFFF and 0xFFFF.
    #[test]
    fn draft_example_header() {
        let values = [
            0xFF_u32.cast_signed(),
            0x00FF_FFFF,
            u32::MAX.cast_signed(),
            0xFFFF,
        ];
        let mut out = Vec::new();
        encode(&values, &mut out);
        assert_eq!(out.len(), 11);
        assert_eq!(out[0], 0b0010_1101);
        assert_eq!(out[1], 0xFF);
        assert_eq!(&out[2..5], &[0xFF; 3]);
        assert_eq!(&out[5..9], &[0xFF; 4]);
        assert_eq!(&out[9..11], &[0xFF; 2]);
        let mut decoded = [0; 4];
        assert_eq!(decode(&out, &mut decoded), Ok(11));
        assert_eq!(decoded, values);
    }

    /// (1, 2, 3, 4, 5) is written as if it were (1, 2, 3, 4, 5, 0, 0, 0).
    #[test]
    fn last_group_is_zero_padded() {
        let mut out = Vec::new();
        encode(&[1, 2, 3, 4, 5], &mut out);
        assert_eq!(out, [0, 1, 2, 3, 4, 0, 5, 0, 0, 0]);
        let mut decoded = [0i32; 5];
        assert_eq!(decode(&out, &mut decoded), Ok(10));
        assert_eq!(decoded, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn int64_header_layout() {
        // Lengths 1, 2, 8, 3, 1: codes 0, 1, 7, 2, 0 from bit 14 down, top bit unused.
        let values = [5_i64, 0x1234, -1, 0x01_0000, 0];
        let mut out = Vec::new();
        encode(&values, &mut out);
        let header = u16::from_be_bytes([out[0], out[1]]);
        assert_eq!(header, 0b0_000_001_111_010_000);
        assert_eq!(out.len(), 2 + 1 + 2 + 8 + 3 + 1);
        let mut decoded = [0i64; 5];
        assert_eq!(decode(&out, &mut decoded), Ok(out.len()));
        assert_eq!(decoded, values);
    }

    #[test]
    fn truncated_input_is_an_error() {
        let mut out = Vec::new();
        encode(&[i32::MIN, 7, -3, 1 << 20, 9], &mut out);
        let mut decoded = [0; 5];
        for len in 0..out.len() {
            assert!(
                decode(&out[..len], &mut decoded).is_err(),
                "prefix of {len} bytes"
            );
        }
        assert!(Decoder::<i64>::try_new(&[], usize::MAX).is_err());
    }

    #[test]
    fn streaming_decode_and_skip() {
        let values: Vec<i64> = (0..23).map(|i| i * 1_000_003 - 7).collect();
        let mut out = Vec::new();
        encode(&values, &mut out);
        let mut decoder = Decoder::try_new(&out, values.len()).unwrap();
        let mut head = [0; 3];
        assert_eq!(decoder.decode(&mut head), Ok(3));
        assert_eq!(decoder.skip(6), Ok(6));
        let mut rest = vec![0; 100];
        assert_eq!(decoder.decode(&mut rest), Ok(14));
        assert_eq!(&head, &values[..3]);
        assert_eq!(&rest[..14], &values[9..]);
        assert_eq!(decoder.remaining(), 0);
        assert_eq!(decoder.bytes_read(), out.len());
    }

    proptest! {
        #[test]
        fn round_trip_i32(values: Vec<i32>) {
            let mut out = Vec::new();
            encode(&values, &mut out);
            let mut decoded = vec![0; values.len()];
            prop_assert_eq!(decode(&out, &mut decoded), Ok(out.len()));
            prop_assert_eq!(decoded, values);
        }

        #[test]
        fn round_trip_i64(values in prop::collection::vec(any::<i64>().prop_map(|v| v >> (v & 63)), 0..200)) {
            let mut out = Vec::new();
            encode(&values, &mut out);
            let mut decoded = vec![0; values.len()];
            prop_assert_eq!(decode(&out, &mut decoded), Ok(out.len()));
            prop_assert_eq!(decoded, values);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes: Vec<u8>, n in 0usize..100) {
            let mut out = vec![0i64; n];
            let _ = decode(&bytes, &mut out);
            let mut out = vec![0i32; n];
            let _ = decode(&bytes, &mut out);
        }
    }
}
