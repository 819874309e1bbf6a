//! Big-endian, MSB-first bit packing, as RLE v2 stores DIRECT, `PATCHED_BASE` and DELTA
//! values (Java's `SerializationUtils.writeInts` / `readInts`):
//!
//! ```text
//! packed := <value: width bits, most significant bit first>* <zero padding to a byte>
//! ```
//!
//! Unpacking is specialised per width: eight values at width `W` take exactly `W` bytes,
//! so the input is read as `[u8; W]` groups whose eight values sit at constant bit
//! offsets, and byte-aligned widths are read as big-endian integers of `W / 8` bytes.

/// Bytes that `count` values of `width` bits take, padded to a byte.
#[inline]
pub(crate) const fn packed_len(count: usize, width: u32) -> usize {
    // `count <= 512` and `width <= 64` for every caller, so this cannot overflow; the
    // saturation keeps that true for any caller.
    count.saturating_mul(width as usize).div_ceil(8)
}

/// Unpacks `out.len()` values of `width` bits (1 to 64) from the start of `input`, as the
/// `u64` bit patterns of the `i64`s written.
///
/// `input` should hold [`packed_len`]`(out.len(), width)` bytes; values past its end read
/// as zero bits (callers check the length first: this never panics either way).
pub(crate) fn unpack(input: &[u8], width: u32, out: &mut [i64]) {
    unpack_as::<false>(input, width, out);
}

/// [`unpack`], then zigzag-decoded, in one pass.
pub(crate) fn unpack_zigzag(input: &[u8], width: u32, out: &mut [i64]) {
    unpack_as::<true>(input, width, out);
}

/// A value's bits as the `i64` written: zigzag-decoded when `Z`.
#[inline(always)]
#[allow(clippy::inline_always)] // part of every kernel's inner loop
const fn finish<const Z: bool>(bits: u64) -> i64 {
    if Z {
        (bits >> 1).cast_signed() ^ -(bits & 1).cast_signed()
    } else {
        bits.cast_signed()
    }
}

fn unpack_as<const Z: bool>(input: &[u8], width: u32, out: &mut [i64]) {
    match width {
        1 => unpack_groups::<Z, 1>(input, out),
        2 => unpack_groups::<Z, 2>(input, out),
        3 => unpack_groups::<Z, 3>(input, out),
        4 => unpack_groups::<Z, 4>(input, out),
        5 => unpack_groups::<Z, 5>(input, out),
        6 => unpack_groups::<Z, 6>(input, out),
        7 => unpack_groups::<Z, 7>(input, out),
        8 => unpack_u8::<Z>(input, out),
        9 => unpack_groups::<Z, 9>(input, out),
        10 => unpack_groups::<Z, 10>(input, out),
        11 => unpack_groups::<Z, 11>(input, out),
        12 => unpack_groups::<Z, 12>(input, out),
        13 => unpack_groups::<Z, 13>(input, out),
        14 => unpack_groups::<Z, 14>(input, out),
        15 => unpack_groups::<Z, 15>(input, out),
        16 => unpack_bytes::<Z, 2>(input, out),
        17 => unpack_groups::<Z, 17>(input, out),
        18 => unpack_groups::<Z, 18>(input, out),
        19 => unpack_groups::<Z, 19>(input, out),
        20 => unpack_groups::<Z, 20>(input, out),
        21 => unpack_groups::<Z, 21>(input, out),
        22 => unpack_groups::<Z, 22>(input, out),
        23 => unpack_groups::<Z, 23>(input, out),
        24 => unpack_bytes::<Z, 3>(input, out),
        26 => unpack_groups::<Z, 26>(input, out),
        28 => unpack_groups::<Z, 28>(input, out),
        30 => unpack_groups::<Z, 30>(input, out),
        32 => unpack_bytes::<Z, 4>(input, out),
        40 => unpack_bytes::<Z, 5>(input, out),
        48 => unpack_bytes::<Z, 6>(input, out),
        56 => unpack_bytes::<Z, 7>(input, out),
        64 => unpack_bytes::<Z, 8>(input, out),
        // No width of the 5-bit table is left; widths outside it, one value at a time.
        _ => unpack_any::<Z>(input, width, out),
    }
}

/// Values of one byte each: a loop the compiler vectorises.
#[inline]
fn unpack_u8<const Z: bool>(input: &[u8], out: &mut [i64]) {
    let count = out.len().min(input.len());
    let (out, rest) = out.split_at_mut(count);
    for (slot, &byte) in out.iter_mut().zip(input.get(..count).unwrap_or_default()) {
        *slot = finish::<Z>(u64::from(byte));
    }
    rest.fill(0);
}

/// Values of `B` whole bytes each.
#[inline]
fn unpack_bytes<const Z: bool, const B: usize>(input: &[u8], out: &mut [i64]) {
    let (chunks, _) = input.as_chunks::<B>();
    let count = out.len().min(chunks.len());
    let (out, rest) = out.split_at_mut(count);
    // Equal lengths, so the loop has no bounds checks and vectorises where it can.
    for (slot, chunk) in out.iter_mut().zip(chunks.get(..count).unwrap_or_default()) {
        // A constant-size copy: one load and a byte swap.
        let mut bytes = [0u8; 8];
        if let Some(low) = bytes.get_mut(8 - B..) {
            low.copy_from_slice(chunk);
        }
        *slot = finish::<Z>(u64::from_be_bytes(bytes));
    }
    // Only when `input` is short: see `unpack`.
    rest.fill(0);
}

/// Widths up to 56 bits: eight values are exactly `W` bytes.
#[inline]
fn unpack_groups<const Z: bool, const W: usize>(input: &[u8], out: &mut [i64]) {
    let (groups, tail) = input.as_chunks::<W>();
    let (whole, last) = out.as_chunks_mut::<8>();
    let mut done = 0;
    for (values, group) in whole.iter_mut().zip(groups) {
        unpack_group::<Z, W>(group, values);
        done += 1;
    }
    // The last, partial group (fewer than eight values, or a short input): pad it with
    // zero bytes.
    let mut padded = [0u8; W];
    let mut source = groups.get(done).map_or(tail, |group| group.as_slice());
    for values in whole
        .iter_mut()
        .skip(done)
        .map(<[i64; 8]>::as_mut_slice)
        .chain([last])
    {
        let take = source.len().min(W);
        padded.fill(0);
        if let (Some(dst), Some(src)) = (padded.get_mut(..take), source.get(..take)) {
            dst.copy_from_slice(src);
        }
        source = source.get(take..).unwrap_or_default();
        let mut group = [0i64; 8];
        unpack_group::<Z, W>(&padded, &mut group);
        for (slot, value) in values.iter_mut().zip(group) {
            *slot = value;
        }
    }
}

/// Eight values of `W` bits from `W` bytes. Every offset is a constant once `W` is, so
/// this compiles to straight-line loads, shifts and masks.
#[allow(clippy::inline_always)] // the offsets fold into constants only when inlined
#[inline(always)]
fn unpack_group<const Z: bool, const W: usize>(group: &[u8; W], out: &mut [i64; 8]) {
    let mask = u64::MAX >> (64 - W);
    for (k, slot) in out.iter_mut().enumerate() {
        let first_bit = k * W;
        let last_bit = first_bit + W - 1;
        let mut window = 0u64;
        for index in first_bit / 8..=last_bit / 8 {
            window = window << 8 | u64::from(group.get(index).copied().unwrap_or(0));
        }
        *slot = finish::<Z>((window >> (7 - last_bit % 8)) & mask);
    }
}

/// Any width from 1 to 64, one value at a time.
fn unpack_any<const Z: bool>(input: &[u8], width: u32, out: &mut [i64]) {
    let width = width.clamp(1, 64);
    let mask = u64::MAX >> (64 - width);
    let mut bit = 0usize;
    for slot in out {
        let byte = bit / 8;
        // 16 bytes from `byte` on, zero past the end: enough for 64 bits at any offset.
        let mut window = [0u8; 16];
        let available = input.get(byte..).unwrap_or_default();
        let take = available.len().min(16);
        if let (Some(dst), Some(src)) = (window.get_mut(..take), available.get(..take)) {
            dst.copy_from_slice(src);
        }
        let window = u128::from_be_bytes(window);
        // The value's bits end `128 - bit % 8 - width` bits above the window's bottom.
        #[allow(clippy::cast_possible_truncation)] // below 8
        let shift = 128 - (bit % 8) as u32 - width;
        #[allow(clippy::cast_possible_truncation)] // masked to `width <= 64` bits
        let value = (window >> shift) as u64 & mask;
        *slot = finish::<Z>(value);
        bit += width as usize;
    }
}

/// Appends `values`, each cut to its low `width` bits (1 to 64), packed MSB-first.
pub(crate) fn pack(values: &[i64], width: u32, out: &mut Vec<u8>) {
    let width = width.clamp(1, 64);
    out.reserve(packed_len(values.len(), width));
    if width.is_multiple_of(8) {
        let bytes = (width / 8) as usize;
        for &value in values {
            let be = value.to_be_bytes();
            out.extend_from_slice(be.get(8 - bytes..).unwrap_or_default());
        }
        return;
    }
    let mask = u64::MAX >> (64 - width);
    let mut pending: u128 = 0;
    let mut bits = 0u32;
    for &value in values {
        pending = (pending << width) | u128::from(value.cast_unsigned() & mask);
        bits += width;
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bit-by-bit reference: bit `k` of the stream is bit `7 - k % 8` of byte `k / 8`.
    fn reference_pack(width: u32, values: &[u64]) -> Vec<u8> {
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
    fn every_width_against_the_reference() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for width in 1..=64u32 {
            for count in [0usize, 1, 7, 8, 9, 15, 16, 17, 63, 64, 100, 511, 512] {
                let mask = u64::MAX >> (64 - width);
                let values: Vec<u64> = (0..count)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        seed & mask
                    })
                    .collect();
                let signed: Vec<i64> = values.iter().map(|v| v.cast_signed()).collect();
                let mut packed = Vec::new();
                pack(&signed, width, &mut packed);
                assert_eq!(
                    packed,
                    reference_pack(width, &values),
                    "width {width} count {count}"
                );
                let mut out = vec![-1i64; count];
                unpack(&packed, width, &mut out);
                assert_eq!(out, signed, "width {width} count {count}");
                let mut any = vec![-1i64; count];
                unpack_any::<false>(&packed, width, &mut any);
                assert_eq!(any, signed, "width {width} count {count}");
                let zigzagged: Vec<i64> = values
                    .iter()
                    .map(|&v| (v >> 1).cast_signed() ^ -(v & 1).cast_signed())
                    .collect();
                let mut out = vec![-1i64; count];
                unpack_zigzag(&packed, width, &mut out);
                assert_eq!(out, zigzagged, "width {width} count {count}");
            }
        }
    }

    #[test]
    fn short_input_reads_zeros() {
        for width in 1..=64u32 {
            let mut out = vec![-1i64; 20];
            unpack(&[0xff; 3], width, &mut out);
            let ones = (24 / width) as usize;
            assert!(out[..ones.min(20)].iter().all(|&v| v != 0), "width {width}");
            assert!(
                out[(24usize.div_ceil(width as usize)).min(20)..]
                    .iter()
                    .all(|&v| v == 0)
            );
        }
    }

    proptest! {
        #[test]
        fn round_trip(width in 1u32..=64, raw in prop::collection::vec(any::<u64>(), 0..600)) {
            let mask = u64::MAX >> (64 - width);
            let values: Vec<i64> = raw.iter().map(|v| (v & mask).cast_signed()).collect();
            let mut packed = Vec::new();
            pack(&values, width, &mut packed);
            prop_assert_eq!(packed.len(), packed_len(values.len(), width));
            let mut out = vec![0i64; values.len()];
            unpack(&packed, width, &mut out);
            prop_assert_eq!(out, values);
        }
    }
}
