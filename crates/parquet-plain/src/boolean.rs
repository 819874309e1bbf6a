//! PLAIN BOOLEAN: one bit per value, least significant bit first (the LSB-first packing
//! of `parquet-bitpack` at width 1), the last byte padded with zero bits.

use parquet_core::PhysicalType;

use crate::primitive::{PlainType, sealed};

/// Values converted at a time between `bool` and the `u8` the bit-packing kernels use:
/// a multiple of their 32-value block, small enough for the stack.
const CHUNK: usize = 256;

impl sealed::Sealed for bool {
    const WHAT: &'static str = "PLAIN BOOLEAN values";

    #[inline]
    fn decode_at(input: &[u8], first: usize, out: &mut [Self]) {
        // Values up to the next byte boundary, one bit at a time.
        let head = ((8 - first % 8) % 8).min(out.len());
        let (head_out, out) = out.split_at_mut(head);
        if let Some(&byte) = input.get(first / 8) {
            for (bit, value) in (first % 8..).zip(head_out) {
                *value = byte >> bit & 1 == 1;
            }
        }
        // The rest from a byte boundary, through the width-1 unpacking kernel.
        let bytes = input.get((first + head) / 8..).unwrap_or_default();
        let mut bits = [0u8; CHUNK];
        for (out, bytes) in out.chunks_mut(CHUNK).zip(bytes.chunks(CHUNK / 8)) {
            #[allow(clippy::indexing_slicing)] // a chunk holds at most `CHUNK = bits.len()`
            let bits = &mut bits[..out.len()];
            // Cannot fail: width 1 fits `u8`, and `bytes` holds `out.len()` bits by the
            // caller's guarantee.
            let unpacked = parquet_bitpack::unpack(1, bytes, bits);
            debug_assert!(unpacked.is_ok(), "{unpacked:?}");
            for (value, &bit) in out.iter_mut().zip(bits.iter()) {
                *value = bit != 0;
            }
        }
    }
}

impl PlainType for bool {
    const PHYSICAL_TYPE: PhysicalType = PhysicalType::Boolean;

    #[inline]
    fn encoded_len(count: usize) -> usize {
        count.div_ceil(8)
    }

    fn encode(values: &[Self], out: &mut Vec<u8>) {
        out.reserve(Self::encoded_len(values.len()));
        let mut bits = [0u8; CHUNK];
        for values in values.chunks(CHUNK) {
            #[allow(clippy::indexing_slicing)] // a chunk holds at most `CHUNK = bits.len()`
            let bits = &mut bits[..values.len()];
            for (bit, &value) in bits.iter_mut().zip(values) {
                *bit = u8::from(value);
            }
            // Every chunk but the last is a whole number of bytes, so the packed
            // chunks join up.
            parquet_bitpack::pack(1, bits, out);
        }
    }
}
