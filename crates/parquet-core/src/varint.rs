//! ULEB128 varints, as Parquet's encodings and the Thrift compact protocol use them.
//!
//! ```text
//! varint := byte* last-byte    // each byte carries 7 bits, least significant group first
//! byte      := 1xxxxxxx         // continuation bit set
//! last-byte := 0xxxxxxx
//! ```
//!
//! Decoding is strict: a varint longer than its type allows (more than 5 bytes for
//! `u32`, 10 for `u64`), one padded with a trailing zero group (`0x80 0x00`), or one
//! whose value does not fit the type is an [`Error::Invalid`].

use crate::error::{Error, Result};

/// Longest ULEB128 encoding of a `u32`.
pub const MAX_LEN_U32: usize = 5;
/// Longest ULEB128 encoding of a `u64`.
pub const MAX_LEN_U64: usize = 10;

/// Appends the ULEB128 encoding of `value` to `out`.
#[inline]
pub fn encode_u64(value: u64, out: &mut Vec<u8>) {
    let mut buf = [0u8; MAX_LEN_U64];
    let len = write_u64(value, &mut buf);
    // `write_u64` counts one byte per slot of `buf` it writes: `len <= buf.len()`.
    #[allow(clippy::indexing_slicing)]
    out.extend_from_slice(&buf[..len]);
}

/// Appends the ULEB128 encoding of `value` to `out`.
pub fn encode_u32(value: u32, out: &mut Vec<u8>) {
    encode_u64(u64::from(value), out);
}

/// Writes the ULEB128 encoding of `value` to the start of `buf` and returns its length.
#[inline]
pub fn write_u64(mut value: u64, buf: &mut [u8; MAX_LEN_U64]) -> usize {
    let mut len = 0;
    for slot in buf.iter_mut() {
        let group = (value & 0x7f) as u8;
        value >>= 7;
        len += 1;
        if value == 0 {
            *slot = group;
            break;
        }
        *slot = group | 0x80;
    }
    len
}

/// Number of bytes the ULEB128 encoding of `value` takes.
pub const fn encoded_len(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Decodes a ULEB128 `u32` from the start of `input`, returning it and the bytes it took.
///
/// # Errors
///
/// [`Error::Truncated`] when `input` ends inside the varint; [`Error::Invalid`] when it
/// is overlong or does not fit in 32 bits.
#[inline]
pub fn decode_u32(input: &[u8]) -> Result<(u32, usize)> {
    let (value, len) = decode(input, 32)?;
    // `decode` has checked that `value` fits in 32 bits.
    #[allow(clippy::cast_possible_truncation)]
    Ok((value as u32, len))
}

/// Decodes a ULEB128 `u64` from the start of `input`, returning it and the bytes it took.
///
/// # Errors
///
/// [`Error::Truncated`] when `input` ends inside the varint; [`Error::Invalid`] when it
/// is overlong or does not fit in 64 bits.
#[inline]
pub fn decode_u64(input: &[u8]) -> Result<(u64, usize)> {
    decode(input, 64)
}

#[inline]
fn decode(input: &[u8], bits: u32) -> Result<(u64, usize)> {
    match input.first() {
        Some(&byte) if byte < 0x80 => Ok((u64::from(byte), 1)),
        _ => decode_multi(input, bits),
    }
}

fn decode_multi(input: &[u8], bits: u32) -> Result<(u64, usize)> {
    let max_len = bits.div_ceil(7) as usize;
    let mut value = 0u64;
    let mut shift = 0u32;
    for (index, &byte) in input.iter().enumerate().take(max_len) {
        let group = u64::from(byte & 0x7f);
        if index + 1 == max_len {
            if byte & 0x80 != 0 {
                return Err(Error::invalid(
                    "varint (longer than its type allows)",
                    index,
                    byte.into(),
                ));
            }
            if group >> (bits - shift) != 0 {
                return Err(Error::invalid(
                    "varint (value does not fit its type)",
                    index,
                    byte.into(),
                ));
            }
        }
        value |= group << shift;
        if byte & 0x80 == 0 {
            if byte == 0 && index > 0 {
                return Err(Error::invalid(
                    "varint (overlong: trailing zero group)",
                    index,
                    0,
                ));
            }
            return Ok((value, index + 1));
        }
        shift += 7;
    }
    Err(Error::truncated("varint", 0, input.len() + 1, input.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_encodings() {
        let cases: [(u64, &[u8]); 6] = [
            (0, &[0x00]),
            (1, &[0x01]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (300, &[0xac, 0x02]),
            (624_485, &[0xe5, 0x8e, 0x26]),
        ];
        for (value, bytes) in cases {
            let mut out = Vec::new();
            encode_u64(value, &mut out);
            assert_eq!(out, bytes);
            assert_eq!(encoded_len(value), bytes.len());
            assert_eq!(decode_u64(bytes), Ok((value, bytes.len())));
        }
    }

    #[test]
    fn extremes() {
        let mut out = Vec::new();
        encode_u32(u32::MAX, &mut out);
        assert_eq!(out, [0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert_eq!(decode_u32(&out), Ok((u32::MAX, 5)));
        out.clear();
        encode_u64(u64::MAX, &mut out);
        assert_eq!(out.len(), MAX_LEN_U64);
        assert_eq!(out[9], 0x01);
        assert_eq!(decode_u64(&out), Ok((u64::MAX, 10)));
    }

    #[test]
    fn overflowing_is_an_error() {
        // 2^32 does not fit a u32.
        assert!(matches!(
            decode_u32(&[0x80, 0x80, 0x80, 0x80, 0x10]),
            Err(Error::Invalid { offset: 4, .. })
        ));
        // 2^64 does not fit a u64.
        let mut too_big = [0xff_u8; 10];
        too_big[9] = 0x02;
        assert!(matches!(
            decode_u64(&too_big),
            Err(Error::Invalid { offset: 9, .. })
        ));
    }

    #[test]
    fn overlong_is_an_error() {
        // Six bytes for a u32, eleven for a u64.
        assert!(matches!(
            decode_u32(&[0x81, 0x80, 0x80, 0x80, 0x80, 0x00]),
            Err(Error::Invalid { .. })
        ));
        assert!(matches!(
            decode_u64(&[0x81; 11]),
            Err(Error::Invalid { .. })
        ));
        // A trailing zero group: zero in two bytes, one in three.
        assert!(matches!(
            decode_u32(&[0x80, 0x00]),
            Err(Error::Invalid { offset: 1, .. })
        ));
        assert!(matches!(
            decode_u64(&[0x81, 0x80, 0x00]),
            Err(Error::Invalid { offset: 2, .. })
        ));
    }

    #[test]
    fn truncated_is_an_error() {
        assert_eq!(decode_u32(&[]), Err(Error::truncated("varint", 0, 1, 0)));
        assert_eq!(
            decode_u64(&[0x80, 0x80]),
            Err(Error::truncated("varint", 0, 3, 2))
        );
    }

    proptest! {
        #[test]
        fn round_trip_u64(value: u64, tail: Vec<u8>) {
            let mut out = Vec::new();
            encode_u64(value, &mut out);
            prop_assert_eq!(out.len(), encoded_len(value));
            out.extend_from_slice(&tail);
            prop_assert_eq!(decode_u64(&out), Ok((value, encoded_len(value))));
        }

        #[test]
        fn round_trip_u32(value: u32) {
            let mut out = Vec::new();
            encode_u32(value, &mut out);
            prop_assert_eq!(decode_u32(&out), Ok((value, out.len())));
        }

        #[test]
        fn any_bytes_decode_or_fail_cleanly(bytes: Vec<u8>) {
            if let Ok((value, len)) = decode_u64(&bytes) {
                let mut out = Vec::new();
                encode_u64(value, &mut out);
                // Strict decoding means only the canonical form is accepted.
                prop_assert_eq!(&bytes[..len], &out[..]);
            }
            let _ = decode_u32(&bytes);
        }
    }
}
