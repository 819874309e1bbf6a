use super::*;
use parquet_core::{Cursor, varint, zigzag};
use proptest::prelude::*;

/// Decodes everything `input` holds, at most `cap` values, as `Decoder` must.
pub(crate) fn decode_all<T: Integer>(input: &[u8], cap: usize) -> Result<Vec<T>> {
    let mut decoder = Decoder::<T>::try_new(input)?;
    let mut out = vec![T::default(); decoder.remaining().min(cap)];
    let n = decoder.decode(&mut out)?;
    assert_eq!(n, out.len());
    Ok(out)
}

/// A plain reading of the specification, value by value and bit by bit: the reference
/// the decoder is tested against. Values are returned as their low `bits` bits.
fn reference(input: &[u8], bits: u8, cap: usize) -> Result<Vec<u64>> {
    let mask = u64::MAX >> (64 - bits);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // modulo 2^64
    let values = reference_exact(input, cap)?
        .iter()
        .map(|&value| value as u64 & mask)
        .collect();
    Ok(values)
}

/// [`reference`], with the values exact: the first value plus the sums of the min deltas
/// and the deltas (read as unsigned), in 128 bits (as lengths are taken).
pub(crate) fn reference_exact(input: &[u8], cap: usize) -> Result<Vec<i128>> {
    let mut c = Cursor::new(input);
    let block_size = c.read_uleb128_u32("block size")? as usize;
    let miniblocks = c.read_uleb128_u32("miniblock count")? as usize;
    let total = usize::try_from(c.read_uleb128_u64("total")?).unwrap();
    let first = i128::from(c.read_zigzag_i64("first")?);
    if block_size == 0
        || !block_size.is_multiple_of(128)
        || miniblocks == 0
        || !block_size.is_multiple_of(miniblocks)
        || !(block_size / miniblocks).is_multiple_of(32)
    {
        return Err(Error::invalid("shape", 0, 0));
    }
    let miniblock_len = block_size / miniblocks;
    let want = total.min(cap);
    let mut values = Vec::new();
    let mut last = first;
    if want > 0 {
        values.push(first);
    }
    while values.len() < want {
        let min_delta = i128::from(c.read_zigzag_i64("min delta")?);
        let widths = c.read_bytes(miniblocks, "widths")?;
        for &width in widths {
            if values.len() == want {
                break;
            }
            // Any width up to 64 is well defined modulo 2^bits.
            if width > 64 {
                return Err(Error::invalid("width", 0, width.into()));
            }
            let body = c.read_bytes(miniblock_len * usize::from(width) / 8, "miniblock")?;
            for i in 0..miniblock_len {
                if values.len() == want {
                    break;
                }
                let mut delta = 0u64;
                for b in 0..usize::from(width) {
                    let k = i * usize::from(width) + b;
                    delta |= u64::from(body[k / 8] >> (k % 8) & 1) << b;
                }
                last = last.wrapping_add(min_delta).wrapping_add(delta.into());
                values.push(last);
            }
        }
    }
    Ok(values)
}

fn header(block: u64, miniblocks: u64, total: u64, first: i64) -> Vec<u8> {
    let mut out = Vec::new();
    varint::encode_u64(block, &mut out);
    varint::encode_u64(miniblocks, &mut out);
    varint::encode_u64(total, &mut out);
    varint::encode_u64(zigzag::encode_i64(first), &mut out);
    out
}

/// A stream of `total` values (at most 33) in blocks of 128 in 4 miniblocks: the header,
/// then one block whose first miniblock holds `deltas` (minus `min_delta`) at `width`
/// bits, padded with zeros to 32.
pub(crate) fn one_block(
    total: u64,
    first: i64,
    min_delta: i64,
    width: u8,
    deltas: &[u64],
) -> Vec<u8> {
    let mut out = header(128, 4, total, first);
    if total > 1 {
        varint::encode_u64(zigzag::encode_i64(min_delta), &mut out);
        out.extend_from_slice(&[width, 0, 0, 0]);
        let mut deltas = deltas.to_vec();
        deltas.resize(32, 0);
        parquet_bitpack::pack(width, &deltas, &mut out);
    }
    out
}

// -------------------------------------------------------------------------------------
// The specification's examples, bit for bit, through the small-block path.

#[test]
fn spec_example_1() {
    let values = [1i32, 2, 3, 4, 5];
    // header: 8 (block size), 1 (miniblock count), 5 (value count), 1 (first value)
    // block: 1 (minimum delta), 0 (bitwidth), (no data needed for bitwidth 0)
    let expected = [8, 1, 5, 2, 2, 0];
    let mut encoded = Vec::new();
    encode(&values, Params::small(8, 1), &mut encoded);
    assert_eq!(encoded, expected);

    let mut decoder = Decoder::<i32>::try_new_small(&expected).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(expected.len()));
    let mut out = [0; 8];
    assert_eq!(decoder.decode(&mut out), Ok(5));
    assert_eq!(out[..5], values);
}

#[test]
fn spec_example_2() {
    let values = [7i64, 5, 3, 1, 2, 3, 4, 5];
    // header: 8 (block size), 1 (miniblock count), 8 (value count), 7 (first value)
    // block: -2 (minimum delta), 2 (bitwidth), 0,0,0,3,3,3,3 packed on 2 bits, LSB
    // first, padded to the miniblock's 8 values.
    let expected = [8, 1, 8, 14, 3, 2, 0b1100_0000, 0b0011_1111];
    let mut encoded = Vec::new();
    encode(&values, Params::small(8, 1), &mut encoded);
    assert_eq!(encoded, expected);

    let mut decoder = Decoder::<i64>::try_new_small(&expected).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(expected.len()));
    let mut out = [0; 3];
    assert_eq!(decoder.decode(&mut out), Ok(3));
    assert_eq!(out, [7, 5, 3]);
    assert_eq!(decoder.skip(2), Ok(2));
    assert_eq!(decoder.decode(&mut out), Ok(3));
    assert_eq!(out, [3, 4, 5]);
    assert_eq!(decoder.decode(&mut out), Ok(0));
}

#[test]
fn public_decoder_rejects_small_blocks() {
    for (input, what, offset, value) in [
        (&[8, 1, 5, 2, 2, 0][..], "block size", 0, 8),
        (&[0, 1, 0, 0][..], "block size", 0, 0),
        (&[0x80, 0x01, 0, 0, 0][..], "miniblock count", 2, 0),
        (&[0x80, 0x01, 3, 0, 0][..], "miniblock count", 2, 3),
        // 128 / 8 = 16 values per miniblock: not a multiple of 32.
        (&[0x80, 0x01, 8, 0, 0][..], "miniblock count", 2, 8),
        (
            &[0x80, 0x01, 0x80, 0x01, 0, 0][..],
            "miniblock count",
            2,
            128,
        ),
    ] {
        match Decoder::<i32>::try_new(input) {
            Err(Error::Invalid {
                what: w,
                offset: o,
                value: v,
            }) => {
                assert!(w.starts_with(what), "{w}");
                assert_eq!((o, v), (offset, value));
            }
            other => panic!("{input:?}: {other:?}"),
        }
    }
    assert!(Params::new(8, 1).is_err());
    assert!(Params::new(128, 8).is_err());
    assert!(Params::new(0, 1).is_err());
    assert!(Params::new(128, 0).is_err());
    assert_eq!(Params::new(256, 8).unwrap().miniblock_len(), 32);
    assert_eq!(Params::default().miniblock_len(), 32);
}

#[test]
fn header_errors() {
    assert_eq!(
        Decoder::<i32>::try_new(&[0x80, 0x01, 4, 2]).unwrap_err(),
        Error::truncated("first value", 4, 1, 0)
    );
    assert!(matches!(
        Decoder::<i64>::try_new(&[]),
        Err(Error::Truncated {
            what: "block size",
            ..
        })
    ));
    // An empty stream still has a first value; it has no blocks.
    let mut decoder = Decoder::<i64>::try_new(&[0x80, 0x01, 4, 0, 0, 99]).unwrap();
    assert!(decoder.is_empty());
    assert_eq!(decoder.encoded_len(), Ok(5));
    assert_eq!(decoder.decode(&mut [0; 4]), Ok(0));
    assert_eq!(decoder.skip(4), Ok(0));
}

#[test]
fn single_value_has_no_blocks() {
    let mut encoded = Vec::new();
    encode(&[-42i32], Params::default(), &mut encoded);
    assert_eq!(encoded, [0x80, 0x01, 4, 1, 83]);
    let decoder = Decoder::<i32>::try_new(&encoded).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(5));
    assert_eq!(decode_all::<i32>(&encoded, 10), Ok(vec![-42]));
}

// -------------------------------------------------------------------------------------
// What readers must accept, and what they must not.

/// 33 values in blocks of 128 (4 miniblocks of 32): one block, one miniblock used.
fn one_miniblock(first: i64, min_delta: i64, width: u8, body: &[u8], unused: [u8; 3]) -> Vec<u8> {
    let mut out = header(128, 4, 33, first);
    varint::encode_u64(zigzag::encode_i64(min_delta), &mut out);
    out.push(width);
    out.extend_from_slice(&unused);
    out.extend_from_slice(body);
    out
}

#[test]
fn unused_miniblock_widths_and_padding_may_hold_anything() {
    // 3 values in a miniblock of 32 at width 8: 29 padding bytes of garbage.
    let mut body = vec![0xa5; 32];
    body[..3].copy_from_slice(&[0, 1, 2]);
    let mut input = header(128, 4, 4, 10);
    input.extend_from_slice(&[2, 8, 0xff, 0x41, 0x99]);
    input.extend_from_slice(&body);
    input.extend_from_slice(b"next");
    let decoder = Decoder::<i32>::try_new(&input).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(input.len() - 4));
    assert_eq!(decode_all::<i32>(&input, 100), Ok(vec![10, 11, 13, 16]));
    assert_eq!(decode_all::<i64>(&input, 100), Ok(vec![10, 11, 13, 16]));

    // Unused miniblocks whose widths equal the used one's: their bodies are still absent.
    let mut input = header(128, 4, 4, 10);
    input.extend_from_slice(&[2, 8, 8, 8, 8]);
    input.extend_from_slice(&body);
    let decoder = Decoder::<i32>::try_new(&input).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(input.len()));
    assert_eq!(decode_all::<i32>(&input, 100), Ok(vec![10, 11, 13, 16]));
    let mut decoder = Decoder::<i64>::try_new(&input).unwrap();
    assert_eq!(decoder.skip(100), Ok(4));
}

#[test]
fn miniblocks_of_one_width_decode_as_one() {
    // 4 miniblocks of 32 at width 4 and a fifth at width 5: the first four are unpacked
    // together, in every way of cutting the output.
    let values: Vec<i32> = (0..161).map(|i| (i * 7) % 16 + i / 160 * 31).collect();
    let mut encoded = Vec::new();
    encode(&values, Params::default(), &mut encoded);
    for batch in [1, 31, 32, 33, 64, 100, 128, 161] {
        let mut decoder = Decoder::<i32>::try_new(&encoded).unwrap();
        let mut out = vec![0; batch];
        let mut all = Vec::new();
        while decoder.remaining() > 0 {
            let n = decoder.decode(&mut out).unwrap();
            all.extend_from_slice(&out[..n]);
        }
        assert_eq!(all, values);
    }
}

#[test]
fn wide_bit_widths_are_errors_only_where_read() {
    // Width 33 is fine for INT64, and for INT32 too (taken modulo 2^32, PARQUET-2435).
    let body = [0u8; 33 * 4];
    let input = one_miniblock(0, 0, 33, &body, [0; 3]);
    assert_eq!(decode_all::<i64>(&input, 100), Ok(vec![0; 33]));
    assert_eq!(decode_all::<i32>(&input, 100), Ok(vec![0; 33]));
    assert_eq!(
        Decoder::<i32>::try_new(&input).unwrap().encoded_len(),
        Ok(input.len())
    );
    // Width 65 is for neither.
    let input = one_miniblock(0, 0, 65, &[0; 65 * 4], [0; 3]);
    let widths_at = header(128, 4, 33, 0).len() + 1;
    let invalid = Error::invalid("miniblock bit width", widths_at, 65);
    assert_eq!(decode_all::<i64>(&input, 100), Err(invalid.clone()));
    assert_eq!(decode_all::<i32>(&input, 100), Err(invalid.clone()));
    assert_eq!(
        Decoder::<i32>::try_new(&input).unwrap().encoded_len(),
        Err(invalid.clone())
    );
    assert_eq!(
        Decoder::<i32>::try_new(&input).unwrap().skip(100),
        Err(invalid)
    );
    // The first value alone needs no miniblock.
    assert_eq!(decode_all::<i32>(&input, 1), Ok(vec![0]));
    let input = one_miniblock(0, 0, 0, &[], [200, 255, 65]);
    assert_eq!(decode_all::<i64>(&input, 100), Ok(vec![0; 33]));
    assert_eq!(decode_all::<i32>(&input, 100), Ok(vec![0; 33]));
}

// DuckDB (`PARQUET_VERSION V2`) writes INT32 columns with deltas computed in 64 bits:
// `i32::MIN` next to `i32::MAX` takes a min delta of -(2^32 - 1) and a miniblock of
// width 33. PARQUET-2435: readers decode it modulo 2^32.
const INT32_WIDTH_33: [u8; 4 + 5 + 5 + 4 + 132] = {
    let mut bytes = [0u8; 4 + 5 + 5 + 4 + 132];
    let head: [u8; 43] = [
        0x80, 0x01, 4, 7, // blocks of 128 in 4 miniblocks, 7 values
        0xff, 0xff, 0xff, 0xff, 0x0f, // first value i32::MIN: zigzag 2^32 - 1
        0xfd, 0xff, 0xff, 0xff, 0x1f, // min delta -(2^32 - 1): zigzag 2^33 - 3
        33, 0, 0, 0, // bit widths: one miniblock used, 33 bits wide
        // The deltas minus the min delta, 33 bits each, LSB first: 2^33 - 2, 0,
        // 2^33 - 2, 2^31, 2^32 - 2, 2^32 + 7; then 26 zeros of padding (132 bytes).
        0xfe, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00, 0xf8, 0xff, 0xff, 0xff, 0x07, 0x00, 0x00,
        0x00, 0xe4, 0xff, 0xff, 0xff, 0xef, 0x00, 0x00, 0x00, 0x20,
    ];
    let mut i = 0;
    while i < head.len() {
        bytes[i] = head[i];
        i += 1;
    }
    bytes
};

#[test]
fn int32_miniblocks_wider_than_32_bits_wrap() {
    let values = [i32::MIN, i32::MAX, i32::MIN, i32::MAX, 0, -1, 7];
    let input = INT32_WIDTH_33;
    // As INT64, the same bytes are the values, unwrapped…
    let wide: Vec<i64> = values.iter().map(|&v| i64::from(v)).collect();
    assert_eq!(decode_all::<i64>(&input, 100), Ok(wide));
    // …and as INT32, the values modulo 2^32.
    assert_eq!(decode_all::<i32>(&input, 100), Ok(values.to_vec()));
    let decoder = Decoder::<i32>::try_new(&input).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(input.len()));

    // Skipping into, within and out of the wide miniblock.
    for skip in 0..=values.len() {
        let mut decoder = Decoder::<i32>::try_new(&input).unwrap();
        assert_eq!(decoder.skip(skip), Ok(skip));
        let mut out = [0; 10];
        assert_eq!(decoder.decode(&mut out), Ok(values.len() - skip));
        assert_eq!(out[..values.len() - skip], values[skip..]);
    }
    let mut decoder = Decoder::<i32>::try_new(&input).unwrap();
    let mut out = [0; 2];
    assert_eq!(decoder.decode(&mut out), Ok(2));
    assert_eq!(decoder.skip(3), Ok(3));
    assert_eq!(decoder.decode(&mut out), Ok(2));
    assert_eq!(out, [-1, 7]);

    // Cut short, it is an error.
    assert_eq!(
        decode_all::<i32>(&input[..input.len() - 1], 100),
        Err(Error::truncated("miniblock", 18, 132, 131))
    );
}

// Encodes INT32 values as a writer that computes deltas in 64 bits does (DuckDB): min
// deltas and bit widths from the unwrapped differences, up to 33 bits.
fn encode_with_64_bit_deltas(values: &[i32], params: Params, out: &mut Vec<u8>) {
    let first = values.first().map_or(0, |&v| i64::from(v));
    out.extend_from_slice(&header(
        params.block_size() as u64,
        params.miniblocks() as u64,
        values.len() as u64,
        first,
    ));
    let deltas: Vec<i64> = values
        .windows(2)
        .map(|pair| i64::from(pair[1]) - i64::from(pair[0]))
        .collect();
    for block in deltas.chunks(params.block_size()) {
        let min_delta = *block.iter().min().unwrap();
        varint::encode_u64(zigzag::encode_i64(min_delta), out);
        let miniblocks: Vec<Vec<u64>> = block
            .chunks(params.miniblock_len())
            .map(|m| m.iter().map(|&d| (d - min_delta).cast_unsigned()).collect())
            .collect();
        let widths: Vec<u8> = miniblocks
            .iter()
            .map(|m| {
                let max = m.iter().copied().max().unwrap();
                u8::try_from(64 - max.leading_zeros()).unwrap()
            })
            .collect();
        for index in 0..params.miniblocks() {
            out.push(widths.get(index).copied().unwrap_or(0));
        }
        for (mut miniblock, width) in miniblocks.into_iter().zip(widths) {
            miniblock.resize(params.miniblock_len(), 0);
            parquet_bitpack::pack(width, &miniblock, out);
        }
    }
}

#[test]
fn the_64_bit_delta_writer_is_as_described() {
    let mut encoded = Vec::new();
    encode_with_64_bit_deltas(
        &[i32::MIN, i32::MAX, i32::MIN, i32::MAX, 0, -1, 7],
        Params::default(),
        &mut encoded,
    );
    assert_eq!(encoded, INT32_WIDTH_33);
}

#[test]
fn int32_reads_64_bit_header_values_and_wraps() {
    // A writer that computed INT32 deltas in 64 bits: the min delta of i32::MAX →
    // i32::MIN is -(2^32 - 1), which wraps to +1.
    let input = one_miniblock(i64::from(i32::MAX), -(1 << 32) + 1, 0, &[], [0; 3]);
    let values = decode_all::<i32>(&input, 3).unwrap();
    assert_eq!(values, [i32::MAX, i32::MIN, i32::MIN + 1]);
    // A first value outside the i32 range keeps its low 32 bits.
    let input = one_miniblock((1 << 32) + 5, 1, 0, &[], [0; 3]);
    assert_eq!(decode_all::<i32>(&input, 2), Ok(vec![5, 6]));
}

#[test]
fn wrapping_extremes_round_trip() {
    let values = [i64::MIN, i64::MAX, i64::MIN, 0, -1, i64::MAX, i64::MIN];
    let mut encoded = Vec::new();
    encode(&values, Params::default(), &mut encoded);
    assert_eq!(decode_all::<i64>(&encoded, 100), Ok(values.to_vec()));
    let values = [i32::MIN, i32::MAX, i32::MIN, 0, -1, i32::MAX, i32::MIN];
    let mut encoded = Vec::new();
    encode(&values, Params::default(), &mut encoded);
    // INT32 widths never exceed 32: after the header (4 + 5 bytes) and the min delta
    // (i32::MIN, 5 bytes).
    assert_eq!(encoded[14..18], [32, 0, 0, 0]);
    assert_eq!(decode_all::<i32>(&encoded, 100), Ok(values.to_vec()));
}

#[test]
fn counts_beyond_the_blocks_are_truncation_errors() {
    // One more value than the block holds.
    let mut input = header(128, 4, 130, 0);
    input.extend_from_slice(&[2, 0, 0, 0, 0]);
    let mut decoder = Decoder::<i64>::try_new(&input).unwrap();
    let mut out = [0; 200];
    assert!(matches!(
        decoder.decode(&mut out),
        Err(Error::Truncated {
            what: "min delta",
            ..
        })
    ));
    assert!(decoder.encoded_len().is_err());

    // A count of 2^60 and blocks of 2^31 values at width 0: decode is bounded by the
    // output, skip by the input.
    let mut input = header(1 << 31, 1, 1 << 60, 3);
    for _ in 0..100 {
        input.extend_from_slice(&[2, 0]); // min delta 1, width 0
    }
    let mut decoder = Decoder::<i64>::try_new(&input).unwrap();
    assert_eq!(decoder.decode(&mut out), Ok(200));
    assert_eq!(out[..3], [3, 4, 5]);
    assert!(decoder.skip(usize::MAX).is_err());
    assert!(
        Decoder::<i64>::try_new(&input)
            .unwrap()
            .encoded_len()
            .is_err()
    );
}

/// A header claiming `total` values in blocks of `block_size` in one miniblock, then
/// `blocks` blocks of bit width 0 and min delta `min_delta`: a few bytes per block,
/// whatever its size.
fn zero_width_blocks(
    block_size: u64,
    total: u64,
    first: i64,
    min_delta: i64,
    blocks: usize,
) -> Vec<u8> {
    let mut input = header(block_size, 1, total, first);
    for _ in 0..blocks {
        varint::encode_u64(zigzag::encode_i64(min_delta), &mut input);
        input.push(0);
    }
    input
}

#[test]
fn skipping_zero_width_miniblocks_takes_time_bounded_by_the_input() {
    // 2^31 - 1 values in one block of 2^31 (12 bytes): skipped in constant time.
    let input = zero_width_blocks(1 << 31, (1 << 31) - 1, 0, 1, 1);
    let mut decoder = Decoder::<i32>::try_new(&input).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(input.len()));
    assert_eq!(decoder.skip((1 << 31) - 2), Ok((1 << 31) - 2));
    let mut out = [0; 4];
    assert_eq!(decoder.decode(&mut out), Ok(1));
    assert_eq!(out[0], i32::MAX - 1);
    let mut decoder = Decoder::<i64>::try_new(&input).unwrap();
    assert_eq!(decoder.skip(usize::MAX), Ok((1 << 31) - 1));
    assert_eq!(decoder.remaining(), 0);

    // 2^44 values in 4096 blocks of 2^32 - 128 (a unit of time per value would take
    // hours), and a count of 2^62 beyond them.
    let block = (1u64 << 32) - 128;
    let input = zero_width_blocks(block, 4096 * block + 1, -5, -3, 4096);
    let mut decoder = Decoder::<i64>::try_new(&input).unwrap();
    assert_eq!(decoder.encoded_len(), Ok(input.len()));
    let all = usize::try_from(4096 * block).unwrap();
    assert_eq!(decoder.skip(all - 1), Ok(all - 1));
    let mut out = [0; 4];
    assert_eq!(decoder.decode(&mut out), Ok(2));
    let last = -5 - 3 * i64::try_from(all).unwrap();
    assert_eq!(out[..2], [last + 3, last]);
    let input = zero_width_blocks(block, 1 << 62, 0, 0, 4096);
    let mut decoder = Decoder::<i32>::try_new(&input).unwrap();
    assert!(matches!(
        decoder.skip(usize::MAX),
        Err(Error::Truncated {
            what: "min delta",
            ..
        })
    ));
    // The first value and 4096 blocks of deltas were skipped.
    assert_eq!(decoder.remaining(), (1 << 62) - all - 1);
}

#[test]
fn truncated_miniblock_reports_where() {
    let body = [0u8; 3 * 4];
    let input = one_miniblock(0, 0, 3, &body[..10], [0; 3]);
    let at = input.len() - 10;
    assert_eq!(
        decode_all::<i32>(&input, 100),
        Err(Error::truncated("miniblock", at, 12, 10))
    );
}

#[test]
fn streaming_encoder_matches_encode() {
    let values: Vec<i64> = (0..1000).map(|i| (i * i) % 977 - 400).collect();
    let mut one_shot = Vec::new();
    encode(&values, Params::new(256, 2).unwrap(), &mut one_shot);
    let mut encoder = Encoder::new(Params::new(256, 2).unwrap());
    encoder.extend(&values[..500]);
    for &value in &values[500..] {
        encoder.push(value);
    }
    assert_eq!(encoder.len(), 1000);
    let mut streamed = vec![0xee];
    encoder.finish(&mut streamed);
    assert_eq!(streamed[1..], one_shot);
    assert!(encoder.is_empty());
    let mut again = Vec::new();
    encoder.extend(&values);
    encoder.finish(&mut again);
    assert_eq!(again, one_shot);
}

// -------------------------------------------------------------------------------------
// Properties.

/// Block shapes a writer may choose: blocks of 128, 256 or 384 values, in any number of
/// miniblocks of a multiple of 32.
fn params() -> impl Strategy<Value = Params> {
    (1usize..=3, 0usize..8).prop_map(|(blocks, pick)| {
        let block_size = 128 * blocks;
        let counts: Vec<usize> = (1..=block_size / 32)
            .filter(|&m| (block_size / 32) % m == 0)
            .collect();
        Params::new(block_size, counts[pick % counts.len()]).unwrap()
    })
}

/// Values of one shape: random, runs, sorted, alternating extremes, narrow steps, constant.
fn values(max_len: usize) -> impl Strategy<Value = Vec<i64>> {
    (0usize..max_len, 0u8..6, any::<i64>()).prop_flat_map(|(len, shape, seed)| {
        prop::collection::vec(any::<i64>(), len).prop_map(move |raw| match shape {
            0 => raw,
            1 => raw.iter().map(|v| seed.wrapping_add((v % 3) / 2)).collect(),
            2 => {
                let mut sorted = raw;
                sorted.sort_unstable();
                sorted
            }
            3 => raw
                .iter()
                .map(|v| [i64::MIN, i64::MAX, 0, -1][usize::from(v.to_le_bytes()[0] % 4)])
                .collect(),
            4 => raw
                .iter()
                .scan(seed, |acc, v| {
                    *acc = acc.wrapping_add(1000 + v % 8);
                    Some(*acc)
                })
                .collect(),
            _ => vec![seed; len],
        })
    })
}

/// Decode and skip steps: `(skip?, count)`.
fn steps() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), 0usize..300), 1..20)
}

fn check_round_trip<T: Integer>(
    values: &[T],
    params: Params,
    steps: &[(bool, usize)],
) -> Result<(), TestCaseError> {
    let mut encoded = Vec::new();
    encode(values, params, &mut encoded);
    encoded.extend_from_slice(b"tail");
    let mut decoder = Decoder::<T>::try_new(&encoded).unwrap();
    prop_assert_eq!(decoder.encoded_len(), Ok(encoded.len() - 4));
    prop_assert_eq!(decoder.len(), values.len());
    let mut at = 0;
    let mut out = [T::default(); 300];
    for &(skip, count) in steps.iter().cycle().take(steps.len() * 8) {
        let expected = count.min(values.len() - at);
        if skip {
            prop_assert_eq!(decoder.skip(count), Ok(expected));
        } else {
            prop_assert_eq!(decoder.decode(&mut out[..count]), Ok(expected));
            prop_assert_eq!(&out[..expected], &values[at..at + expected]);
        }
        at += expected;
        prop_assert_eq!(decoder.remaining(), values.len() - at);
    }
    let rest = decoder.remaining();
    let mut tail = vec![T::default(); rest];
    prop_assert_eq!(decoder.decode(&mut tail), Ok(rest));
    prop_assert_eq!(&tail[..], &values[at..]);
    Ok(())
}

proptest! {
    #[test]
    fn round_trip_i64(values in values(700), params in params(), steps in steps()) {
        check_round_trip(&values, params, &steps)?;
    }

    #[test]
    fn round_trip_i32(values in values(700), params in params(), steps in steps()) {
        #[allow(clippy::cast_possible_truncation)]
        let values: Vec<i32> = values.iter().map(|&v| v as i32).collect();
        check_round_trip(&values, params, &steps)?;
    }

    /// INT32 values encoded with deltas computed in 64 bits (bit widths up to 33) decode
    /// to the values, in any steps of decoding and skipping.
    #[test]
    fn round_trip_i32_with_64_bit_deltas(
        values in values(700),
        params in params(),
        steps in steps(),
        extremes in any::<bool>(),
    ) {
        #[allow(clippy::cast_possible_truncation)]
        let values: Vec<i32> = values
            .iter()
            .map(|&v| if extremes && v % 3 != 0 {
                [i32::MIN, i32::MAX][usize::from(v % 3 == 1)]
            } else {
                v as i32
            })
            .collect();
        let mut encoded = Vec::new();
        encode_with_64_bit_deltas(&values, params, &mut encoded);
        let mut decoder = Decoder::<i32>::try_new(&encoded).unwrap();
        prop_assert_eq!(decoder.encoded_len(), Ok(encoded.len()));
        let mut at = 0;
        let mut out = [0i32; 300];
        for &(skip, count) in steps.iter().cycle().take(steps.len() * 8) {
            let expected = count.min(values.len() - at);
            if skip {
                prop_assert_eq!(decoder.skip(count), Ok(expected));
            } else {
                prop_assert_eq!(decoder.decode(&mut out[..count]), Ok(expected));
                prop_assert_eq!(&out[..expected], &values[at..at + expected]);
            }
            at += expected;
        }
        let mut tail = vec![0; values.len() - at];
        prop_assert_eq!(decoder.decode(&mut tail), Ok(tail.len()));
        prop_assert_eq!(&tail[..], &values[at..]);
        check_against_reference(&encoded)?;
    }

    #[test]
    fn encodings_match_the_reference(values in values(700), params in params()) {
        let mut encoded = Vec::new();
        encode(&values, params, &mut encoded);
        let expected: Vec<u64> = values.iter().map(|&v| v.cast_unsigned()).collect();
        prop_assert_eq!(reference(&encoded, 64, usize::MAX), Ok(expected));
    }

    /// Every strict prefix of an encoding fails (the last miniblock that holds values is
    /// always whole), without panicking.
    #[test]
    fn truncations_fail(values in values(300), params in params()) {
        let mut encoded = Vec::new();
        encode(&values, params, &mut encoded);
        for len in 0..encoded.len() {
            let prefix = &encoded[..len];
            prop_assert!(decode_all::<i64>(prefix, usize::MAX).is_err());
            if let Ok(decoder) = Decoder::<i64>::try_new(prefix) {
                prop_assert!(decoder.encoded_len().is_err());
                prop_assert!(decoder.clone().skip(usize::MAX).is_err());
            }
        }
    }

    /// Flipped bits decode as the reference decodes them: the same values, or an error.
    #[test]
    fn bit_flips_agree_with_the_reference(
        values in values(700),
        params in params(),
        flips in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let mut encoded = Vec::new();
        encode(&values, params, &mut encoded);
        for flip in flips {
            let bit = flip.index(encoded.len() * 8);
            encoded[bit / 8] ^= 1 << (bit % 8);
        }
        check_against_reference(&encoded)?;
    }

    #[test]
    fn arbitrary_bytes_agree_with_the_reference(
        mut input in prop::collection::vec(any::<u8>(), 0..400),
        shape in 0u8..3,
    ) {
        // Give most inputs a plausible header so that the blocks get exercised.
        let prefix: &[u8] = match shape {
            0 => &[0x80, 0x01, 4],
            1 => &[0x80, 0x02, 1],
            _ => &[],
        };
        input.splice(0..0, prefix.iter().copied());
        check_against_reference(&input)?;
    }
}

/// Decodes `input` as both types, in one call, in steps and skipping, and checks the
/// results against the reference.
fn check_against_reference(input: &[u8]) -> Result<(), TestCaseError> {
    const CAP: usize = 5000;
    for bits in [32u8, 64] {
        let ours: Result<Vec<u64>> = if bits == 32 {
            decode_all::<i32>(input, CAP)
                .map(|v| v.iter().map(|&x| u64::from(x.cast_unsigned())).collect())
        } else {
            decode_all::<i64>(input, CAP).map(|v| v.iter().map(|&x| x.cast_unsigned()).collect())
        };
        let theirs = reference(input, bits, CAP);
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?} vs {:?}", ours, theirs);
        if let (Ok(ours), Ok(theirs)) = (&ours, &theirs) {
            prop_assert_eq!(ours, theirs);
        }
    }
    // Small steps and skips never panic and end.
    if let Ok(mut decoder) = Decoder::<i64>::try_new(input) {
        let _ = decoder.encoded_len();
        let mut out = [0i64; 7];
        for _ in 0..100 {
            if decoder.decode(&mut out).is_err() || decoder.skip(13).is_err() {
                break;
            }
        }
        let _ = decoder.skip(usize::MAX);
    }
    Ok(())
}
