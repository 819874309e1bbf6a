use super::*;
use crate::binary_packed::{self, Params};
use parquet_core::{ByteArrayBatch, Error, Result, varint, zigzag};
use proptest::prelude::*;

/// The specification's example: DeltaEncoding(5, 5, 6, 6), then the bytes.
const SPEC_EXAMPLE: &[u8] = &[
    0x80, 0x01, 4, 4, 10, // header: blocks of 128 in 4 miniblocks, 4 values, first 5
    0,  // min delta 0 (the deltas are 0, 1, 0)
    1, 0, 0, 0, // bit widths: one miniblock used, at 1 bit
    0b010, 0, 0, 0, // 0, 1, 0, padded to 32 values
    b'H', b'e', b'l', b'l', b'o', b'W', b'o', b'r', b'l', b'd', b'F', b'o', b'o', b'b', b'a', b'r',
    b'A', b'B', b'C', b'D', b'E', b'F',
];

const SPEC_VALUES: [&[u8]; 4] = [b"Hello", b"World", b"Foobar", b"ABCDEF"];

#[test]
fn spec_example() {
    let mut encoded = Vec::new();
    encode(SPEC_VALUES, Params::default(), &mut encoded).unwrap();
    assert_eq!(encoded, SPEC_EXAMPLE);
    let batch: ByteArrayBatch = SPEC_VALUES.into_iter().collect();
    let mut from_batch = Vec::new();
    encode_batch(&batch, Params::default(), &mut from_batch).unwrap();
    assert_eq!(from_batch, SPEC_EXAMPLE);

    let mut decoder = Decoder::try_new(SPEC_EXAMPLE).unwrap();
    assert_eq!(decoder.len(), 4);
    assert_eq!(decoder.encoded_len(), SPEC_EXAMPLE.len());
    let mut out = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut out, 10), Ok(4));
    assert_eq!(out, batch);

    let mut decoder = Decoder::try_new(SPEC_EXAMPLE).unwrap();
    assert_eq!(decoder.skip(1), Ok(1));
    assert_eq!(decoder.next_value(), Ok(Some(&b"World"[..])));
    let mut out = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut out, 1), Ok(1));
    assert_eq!(
        decoder.values().collect::<Result<Vec<_>>>(),
        Ok(vec![&b"ABCDEF"[..]])
    );
    assert_eq!(out.get(0), Some(&b"Foobar"[..]));
}

fn lengths(values: &[i32], params: Params) -> Vec<u8> {
    let mut out = Vec::new();
    binary_packed::encode(values, params, &mut out);
    out
}

#[test]
fn negative_lengths_are_errors() {
    let mut input = lengths(&[3, -1, 2], Params::default());
    input.extend_from_slice(b"abcdefgh");
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid {
            what: "byte array length (negative)",
            value: u64::MAX,
            ..
        })
    ));
}

#[test]
fn lengths_past_the_data_are_errors_and_data_after_is_ignored() {
    let mut input = lengths(&[3, 4], Params::default());
    let start = input.len();
    input.extend_from_slice(b"abcdef");
    assert_eq!(
        Decoder::try_new(&input).unwrap_err(),
        Error::truncated("byte array data", start, 7, 6)
    );
    input.extend_from_slice(b"g and more");
    let decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(decoder.encoded_len(), start + 7);
    assert_eq!(
        decoder.clone().values().collect::<Result<Vec<_>>>(),
        Ok(vec![&b"abc"[..], b"defg"])
    );
}

/// 2^50 lengths in blocks of 2^31 at bit width 0: 2^19 blocks of 2 bytes.
fn huge(first: i64, min_delta: i64) -> Vec<u8> {
    let mut input = Vec::new();
    for value in [1 << 31, 1, 1 << 50] {
        varint::encode_u64(value, &mut input);
    }
    varint::encode_u64(zigzag::encode_i64(first), &mut input);
    for _ in 0..(1 << 19) {
        varint::encode_u64(zigzag::encode_i64(min_delta), &mut input);
        input.push(0);
    }
    input
}

#[test]
fn checking_takes_time_bounded_by_the_input() {
    let input = huge(0, 0);
    let mut decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(decoder.remaining(), 1 << 50);
    assert_eq!(decoder.encoded_len(), input.len());
    let mut out = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut out, 1000), Ok(1000));
    assert_eq!(out.data(), b"");
    assert_eq!(decoder.skip(1 << 40), Ok(1 << 40));

    // Lengths of 1: their sum overflows the data at once.
    assert!(matches!(
        Decoder::try_new(&huge(1, 0)),
        Err(Error::Truncated {
            what: "byte array data",
            ..
        })
    ));
    // Lengths growing by one: more than the data, and past i32::MAX, negative.
    assert!(Decoder::try_new(&huge(0, 1)).is_err());
    // Lengths falling by one from 0 are negative.
    assert!(matches!(
        Decoder::try_new(&huge(0, -1)),
        Err(Error::Invalid { .. })
    ));
    // A run that wraps past i32::MAX into negative lengths.
    let mut input = Vec::new();
    for value in [128, 4, 100] {
        varint::encode_u64(value, &mut input);
    }
    varint::encode_u64(zigzag::encode_i64(i64::from(i32::MAX) - 10), &mut input);
    input.extend_from_slice(&[2, 0, 0, 0, 0]);
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid { .. })
    ));
}

/// Lengths are taken exactly, not modulo 2^32 as INT32 values are: a length whose low 32
/// bits would do is still an error, wherever its excess comes from.
#[test]
fn lengths_outside_the_i32_range_are_errors() {
    use binary_packed::tests::one_block;
    let above =
        |at: usize, value: u64| Error::invalid("byte array length (above i32::MAX)", at, value);
    let negative = |at: usize, value: i64| {
        Error::invalid("byte array length (negative)", at, value.cast_unsigned())
    };
    let with_data = |mut lengths: Vec<u8>| {
        lengths.extend_from_slice(b"abcdefghijklmnop");
        lengths
    };
    // A first value of 2^62 (whose low 32 bits are 0): its header is 4 + 10 bytes.
    let input = with_data(one_block(1, 1 << 62, 0, 0, &[]));
    assert_eq!(Decoder::try_new(&input).unwrap_err(), above(14, 1 << 62));
    // A first value of 2^32 + 3 (low 32 bits: 3).
    let input = with_data(one_block(1, (1 << 32) + 3, 0, 0, &[]));
    assert_eq!(
        Decoder::try_new(&input).unwrap_err(),
        above(9, (1 << 32) + 3)
    );
    // A min delta of 2^62 in a miniblock of width 0: 0, then 2^62.
    let input = with_data(one_block(2, 0, 1 << 62, 0, &[]));
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid {
            what: "byte array length (above i32::MAX)",
            value: 0x4000_0000_0000_0000,
            ..
        })
    ));
    // A delta of 2^62 in a miniblock of width 63: 0, then 2^62.
    let input = with_data(one_block(2, 0, 0, 63, &[1 << 62]));
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid {
            what: "byte array length (above i32::MAX)",
            value: 0x4000_0000_0000_0000,
            ..
        })
    ));
    // A delta of 2^32 + 1 in a miniblock of width 33: 2, then 2^32 + 3 (low bits 3).
    let input = with_data(one_block(2, 2, 0, 33, &[(1 << 32) + 1]));
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid {
            what: "byte array length (above i32::MAX)",
            value: 0x1_0000_0003,
            ..
        })
    ));
    // A min delta of -2^32 and a delta of 2^32 + 1 (sum 1) keep the length in range, at
    // any width: 2, then 3.
    let input = with_data(one_block(2, 2, -(1 << 32), 33, &[(1 << 32) + 1]));
    let decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(
        decoder.clone().values().collect::<Result<Vec<_>>>(),
        Ok(vec![&b"ab"[..], b"cde"])
    );
    // 5, then 5 + (2^63 - 1) + (2^63 + 4) = 2^64 + 8: 8 modulo 2^64 (and 2^32), which
    // INT32 values may be but a length may not.
    let lengths = one_block(2, 5, i64::MAX, 64, &[(1 << 63) + 4]);
    assert_eq!(
        binary_packed::tests::decode_all::<i32>(&lengths, 10),
        Ok(vec![5, 8])
    );
    assert_eq!(
        binary_packed::tests::decode_all::<i64>(&lengths, 10),
        Ok(vec![5, 8])
    );
    assert!(matches!(
        Decoder::try_new(&with_data(lengths)),
        Err(Error::Invalid {
            what: "byte array length (above i32::MAX)",
            value: 0x7fff_ffff_ffff_ffff,
            ..
        })
    ));
    // 5, then 5 + (-2^63) + 2^32 = -(2^63 - 2^32 - 5): negative, however wide.
    let input = with_data(one_block(2, 5, i64::MIN, 33, &[1 << 32]));
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid {
            what: "byte array length (negative)",
            ..
        })
    ));
    // 0, then 0 + (-2^32) + 2^32 + 2^31: 2^31, one past i32::MAX.
    let input = with_data(one_block(2, 0, -(1 << 32), 34, &[(1 << 32) + (1 << 31)]));
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid {
            what: "byte array length (above i32::MAX)",
            value: 0x8000_0000,
            ..
        })
    ));
    // A negative first value whose low 32 bits are positive.
    let input = with_data(one_block(1, -(1 << 32) + 3, 0, 0, &[]));
    assert_eq!(
        Decoder::try_new(&input).unwrap_err(),
        negative(9, -(1 << 32) + 3)
    );
    // i32::MAX itself is a length, but not backed by the data.
    let input = with_data(one_block(1, i32::MAX.into(), 0, 0, &[]));
    assert_eq!(
        Decoder::try_new(&input).unwrap_err(),
        Error::truncated("byte array data", 9, i32::MAX as usize, 16)
    );
}

/// Skipping and decoding after `try_new` see the same lengths as it checked.
#[test]
fn lengths_in_range_from_wide_miniblocks_decode_and_skip() {
    use binary_packed::tests::one_block;
    // 1, then +2, +3, ... with a min delta of -2^40 and deltas of 2^40 + k (width 41).
    let deltas: Vec<u64> = (2..=33).map(|k| (1 << 40) + k).collect();
    let lengths: Vec<usize> = (0..33).map(|i| 1 + (i * (i + 3)) / 2).collect();
    let mut input = one_block(33, 1, -(1 << 40), 41, &deltas);
    #[allow(clippy::cast_possible_truncation)]
    let data: Vec<u8> = (0..lengths.iter().sum::<usize>())
        .map(|i| (i % 251) as u8)
        .collect();
    input.extend_from_slice(&data);
    let mut decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(decoder.encoded_len(), input.len());
    let mut out = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut out, 3), Ok(3));
    assert_eq!(decoder.skip(20), Ok(20));
    assert_eq!(decoder.decode(&mut out, 100), Ok(10));
    let got: Vec<usize> = out.iter().map(<[u8]>::len).collect();
    let mut expected = lengths[..3].to_vec();
    expected.extend_from_slice(&lengths[23..]);
    assert_eq!(got, expected);
    let start: usize = lengths[..23].iter().sum();
    assert_eq!(out.get(3).unwrap(), &data[start..start + lengths[23]]);
}

#[test]
fn huge_counts_of_empty_values_take_time_bounded_by_the_input() {
    // 2^31 - 1 empty values in one miniblock of width 0: 14 bytes.
    let input = [
        0x80, 0x80, 0x80, 0x80, 0x08, 1, 0xff, 0xff, 0xff, 0xff, 0x07, 0, 0, 0,
    ];
    let mut decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(decoder.remaining(), (1 << 31) - 1);
    assert_eq!(decoder.encoded_len(), input.len());
    assert_eq!(decoder.skip((1 << 31) - 2), Ok((1 << 31) - 2));
    assert_eq!(decoder.next_value(), Ok(Some(&b""[..])));
    assert_eq!(decoder.next_value(), Ok(None));
    // 2^44 of them, in 4096 blocks of 2^32 - 128.
    let mut input = Vec::new();
    for value in [(1 << 32) - 128, 1, 4096 * ((1 << 32) - 128) + 1, 0] {
        varint::encode_u64(value, &mut input);
    }
    for _ in 0..4096 {
        input.extend_from_slice(&[0, 0]);
    }
    let mut decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(decoder.skip(usize::MAX), Ok(4096 * ((1 << 32) - 128) + 1));
}

#[test]
fn value_longer_than_i32_is_refused() {
    assert_eq!(
        length(1 << 31),
        Err(Error::LimitExceeded {
            what: "byte array length",
            requested: 1 << 31,
            limit: i32::MAX as u64,
        })
    );
}

// -------------------------------------------------------------------------------------
// Properties.

/// Byte arrays of one shape: empty, short random, long random, repeated, mixed.
pub(crate) fn byte_arrays(max_len: usize) -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(any::<u8>(), 0..8),
        prop::collection::vec(any::<u8>(), 0..100),
        prop::collection::vec(0u8..3, 0..12),
    ];
    (prop::collection::vec(value, 0..max_len), 0u8..3).prop_map(|(mut values, shape)| {
        match shape {
            0 => values.sort(),
            1 => {
                if let Some(first) = values.first().cloned() {
                    for (i, v) in values.iter_mut().enumerate() {
                        if i % 3 != 0 {
                            v.clone_from(&first);
                        }
                    }
                }
            }
            _ => {}
        }
        values
    })
}

pub(crate) fn params() -> impl Strategy<Value = Params> {
    prop_oneof![
        Just(Params::default()),
        Just(Params::new(128, 1).unwrap()),
        Just(Params::new(256, 8).unwrap()),
        Just(Params::new(384, 3).unwrap()),
    ]
}

/// Steps: 0 decode, 1 skip, 2 borrow one at a time, 3 borrow a batch; with a count.
pub(crate) fn steps() -> impl Strategy<Value = Vec<(u8, usize)>> {
    prop::collection::vec((0u8..4, 0usize..200), 1..20)
}

proptest! {
    #[test]
    fn round_trip(values in byte_arrays(400), params in params(), steps in steps()) {
        let mut encoded = Vec::new();
        encode(values.iter().map(Vec::as_slice), params, &mut encoded).unwrap();
        let batch: ByteArrayBatch = values.iter().collect();
        let mut from_batch = Vec::new();
        encode_batch(&batch, params, &mut from_batch).unwrap();
        prop_assert_eq!(&from_batch, &encoded);
        let mut streaming = Encoder::new(params);
        for value in &values {
            streaming.push(value).unwrap();
        }
        prop_assert_eq!(streaming.data_len(), batch.data().len());
        let mut streamed = Vec::new();
        streaming.finish(&mut streamed);
        prop_assert_eq!(&streamed, &encoded);

        let len = encoded.len();
        encoded.extend_from_slice(b"tail");
        let mut decoder = Decoder::try_new(&encoded).unwrap();
        prop_assert_eq!(decoder.encoded_len(), len);
        let mut at = 0;
        let mut out = ByteArrayBatch::new();
        for &(step, count) in steps.iter().cycle().take(steps.len() * 8) {
            let expected = count.min(values.len() - at);
            match step {
                0 => {
                    out.clear();
                    prop_assert_eq!(decoder.decode(&mut out, count), Ok(expected));
                    prop_assert!(out.iter().eq(values[at..at + expected].iter().map(Vec::as_slice)));
                }
                1 => prop_assert_eq!(decoder.skip(count), Ok(expected)),
                3 => {
                    let mut borrowed = vec![&b"before"[..]];
                    prop_assert_eq!(decoder.decode_borrowed(&mut borrowed, count), Ok(expected));
                    prop_assert!(borrowed[1..].iter().copied().eq(values[at..at + expected].iter().map(Vec::as_slice)));
                }
                _ => {
                    for value in &values[at..at + expected] {
                        prop_assert_eq!(decoder.next_value(), Ok(Some(value.as_slice())));
                    }
                }
            }
            at += expected;
            prop_assert_eq!(decoder.remaining(), values.len() - at);
        }
        prop_assert!(decoder.values().map(Result::unwrap).eq(values[at..].iter().map(Vec::as_slice)));
        prop_assert_eq!(decoder.next_value(), Ok(None));
    }

    /// Every strict prefix of an encoding is refused up front.
    #[test]
    fn truncations_fail(values in byte_arrays(60), params in params()) {
        let mut encoded = Vec::new();
        encode(values.iter().map(Vec::as_slice), params, &mut encoded).unwrap();
        for len in 0..encoded.len() {
            prop_assert!(Decoder::try_new(&encoded[..len]).is_err());
        }
    }

    #[test]
    fn bit_flips_agree_with_the_reference(
        values in byte_arrays(400),
        flips in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let mut encoded = Vec::new();
        encode(values.iter().map(Vec::as_slice), Params::default(), &mut encoded).unwrap();
        for flip in flips {
            let bit = flip.index(encoded.len() * 8);
            encoded[bit / 8] ^= 1 << (bit % 8);
        }
        check_against_reference(&encoded)?;
    }

    #[test]
    fn arbitrary_bytes_agree_with_the_reference(
        mut input in prop::collection::vec(any::<u8>(), 0..400),
        plausible: bool,
    ) {
        if plausible {
            input.splice(0..0, [0x80, 0x01, 4]);
        }
        check_against_reference(&input)?;
    }
}

/// A plain reading: all lengths (at most `cap`), then the values cut from the data.
fn reference(input: &[u8], cap: usize) -> Result<Vec<&[u8]>> {
    let decoder = binary_packed::Decoder::<i32>::try_new(input)?;
    let mut data = &input[decoder.encoded_len()?..];
    // Lengths are exact, not modulo 2^32.
    let lengths = binary_packed::tests::reference_exact(input, usize::MAX)?;
    let mut values = Vec::new();
    for &length in &lengths {
        let length = i32::try_from(length).map_err(|_| Error::invalid("length", 0, 0))?;
        let length = usize::try_from(length).map_err(|_| Error::invalid("length", 0, 0))?;
        let (value, rest) = data
            .split_at_checked(length)
            .ok_or(Error::truncated("data", 0, 0, 0))?;
        if values.len() < cap {
            values.push(value);
        }
        data = rest;
    }
    Ok(values)
}

fn check_against_reference(input: &[u8]) -> Result<(), TestCaseError> {
    const CAP: usize = 5000;
    let theirs = match binary_packed::Decoder::<i32>::try_new(input) {
        // The reference materializes every length: only for modest counts.
        Ok(lengths) if lengths.len() > 100_000 => None,
        _ => Some(reference(input, CAP)),
    };
    let ours = Decoder::try_new(input).map(|mut decoder| {
        let mut out = ByteArrayBatch::new();
        decoder.decode(&mut out, CAP).unwrap();
        out
    });
    if let Some(theirs) = theirs {
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?} vs {:?}", ours, theirs);
        if let (Ok(ours), Ok(theirs)) = (&ours, &theirs) {
            prop_assert!(ours.iter().eq(theirs.iter().copied()));
        }
    }
    if let Ok(mut decoder) = Decoder::try_new(input) {
        for _ in 0..100 {
            if !matches!(decoder.next_value(), Ok(Some(_))) || decoder.skip(7).is_err() {
                break;
            }
        }
    }
    Ok(())
}
