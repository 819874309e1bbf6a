use super::*;
use crate::binary_packed::{self, Params};
use crate::length_byte_array::tests::{byte_arrays, params};
use parquet_core::{ByteArrayBatch, Error, FixedLenByteArrayBatch, Result, varint};
use proptest::prelude::*;

/// The specification's example: "axis", "axle", "babble", "babyhood".
#[rustfmt::skip]
const SPEC_EXAMPLE: &[u8] = &[
    // DeltaEncoding(0, 2, 0, 3), the prefix lengths
    0x80, 0x01, 4, 4, 0, // header: 4 values, first 0
    3, // min delta -2 (the deltas are 2, -2, 3)
    3, 0, 0, 0, // bit widths
    0b0100_0100, 0b0000_0001, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 4, 0, 5 at 3 bits
    // DeltaEncoding(4, 2, 6, 5), the suffix lengths
    0x80, 0x01, 4, 4, 8, // header: 4 values, first 4
    3, // min delta -2 (the deltas are -2, 4, -1)
    3, 0, 0, 0, // bit widths
    0b0111_0000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 0, 6, 1 at 3 bits
    b'a', b'x', b'i', b's', b'l', b'e', b'b', b'a', b'b', b'b', b'l', b'e', b'y', b'h', b'o',
    b'o', b'd',
];

const SPEC_VALUES: [&[u8]; 4] = [b"axis", b"axle", b"babble", b"babyhood"];

#[test]
fn spec_example() {
    let mut encoded = Vec::new();
    encode(SPEC_VALUES, Params::default(), &mut encoded).unwrap();
    assert_eq!(encoded, SPEC_EXAMPLE);
    let mut streaming = Encoder::default();
    for value in SPEC_VALUES {
        streaming.push(value).unwrap();
    }
    let mut streamed = Vec::new();
    streaming.finish(&mut streamed);
    assert_eq!(streamed, SPEC_EXAMPLE);

    let mut decoder = Decoder::try_new(SPEC_EXAMPLE).unwrap();
    assert_eq!(decoder.len(), 4);
    assert_eq!(decoder.encoded_len(), SPEC_EXAMPLE.len());
    let mut out = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut out, 2), Ok(2));
    assert_eq!(decoder.skip(1), Ok(1));
    assert_eq!(decoder.decode(&mut out, 2), Ok(1));
    let values: Vec<&[u8]> = out.iter().collect();
    assert_eq!(values, [&b"axis"[..], b"axle", b"babyhood"]);
}

#[test]
fn fixed_len_byte_arrays() {
    let batch = FixedLenByteArrayBatch::from_bytes(4, b"axisaxlebabyboom".to_vec()).unwrap();
    let mut encoded = Vec::new();
    encode_fixed(&batch, Params::default(), &mut encoded).unwrap();
    assert!(encoded.ends_with(b"axislebabyoom"));

    let mut out = FixedLenByteArrayBatch::new(4);
    let mut decoder = Decoder::try_new(&encoded).unwrap();
    assert_eq!(decoder.decode_fixed(&mut out, 10), Ok(4));
    assert_eq!(out, batch);

    // Values of another width are errors.
    let mut out = FixedLenByteArrayBatch::new(3);
    let mut decoder = Decoder::try_new(&encoded).unwrap();
    assert!(matches!(
        decoder.decode_fixed(&mut out, 10),
        Err(Error::Invalid {
            what: "fixed-length byte array length",
            value: 4,
            ..
        })
    ));
    let mut encoded = Vec::new();
    encode([&b"abc"[..], b"abcd"], Params::default(), &mut encoded).unwrap();
    let mut decoder = Decoder::try_new(&encoded).unwrap();
    assert_eq!(decoder.decode_fixed(&mut out, 1), Ok(1));
    assert!(decoder.decode_fixed(&mut out, 10).is_err());
}

/// Prefix and suffix streams written separately.
fn raw(prefixes: &[i32], suffixes: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    binary_packed::encode(prefixes, Params::default(), &mut out);
    crate::length_byte_array::encode(suffixes.iter().copied(), Params::default(), &mut out)
        .unwrap();
    out
}

#[test]
fn prefix_errors() {
    let prefix_error = |input: &[u8]| {
        let mut decoder = Decoder::try_new(input).unwrap();
        let mut out = ByteArrayBatch::new();
        let result = decoder.decode(&mut out, 10);
        (result, out.len())
    };
    // A first value cannot share a prefix.
    let (result, len) = prefix_error(&raw(&[1], &[b"x"]));
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (longer than the previous value)",
            value: 1,
            ..
        })
    ));
    assert_eq!(len, 0);
    // A prefix longer than the previous value, after good values.
    let (result, len) = prefix_error(&raw(&[0, 2, 4], &[b"ab", b"c", b"d"]));
    assert!(matches!(result, Err(Error::Invalid { value: 4, .. })));
    assert_eq!(len, 2);
    // …and after a run of values without prefix.
    let (result, len) = prefix_error(&raw(&[0, 0, 0, 9, 0], &[b"ab", b"c", b"d", b"e", b"f"]));
    assert!(matches!(result, Err(Error::Invalid { value: 9, .. })));
    assert_eq!(len, 3);
    // Negative prefixes.
    let (result, len) = prefix_error(&raw(&[0, -1], &[b"ab", b"c"]));
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (negative)",
            ..
        })
    ));
    assert_eq!(len, 1);
    // Skipping checks them too.
    let input = raw(&[0, 3], &[b"ab", b"c"]);
    let mut decoder = Decoder::try_new(&input).unwrap();
    assert!(decoder.skip(2).is_err());
}

/// Prefix (and suffix) lengths are taken exactly, not modulo 2^32: a prefix of 2^32 is
/// not 0.
#[test]
fn lengths_outside_the_i32_range_are_errors() {
    use binary_packed::tests::one_block;
    let with_suffixes = |mut prefixes: Vec<u8>| {
        crate::length_byte_array::encode([&b"ab"[..], b"c"], Params::default(), &mut prefixes)
            .unwrap();
        prefixes
    };
    let decode = |input: &[u8]| {
        let mut decoder = Decoder::try_new(input).unwrap();
        let mut out = ByteArrayBatch::new();
        let result = decoder.decode(&mut out, 10);
        let skipped = Decoder::try_new(input).unwrap().skip(2);
        (result, out.len(), skipped)
    };
    // 0, then 2^32 (low bits 0): the first value stays, the second is an error.
    let input = with_suffixes(one_block(2, 0, 1 << 32, 0, &[]));
    let (result, len, skipped) = decode(&input);
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (above i32::MAX)",
            value: 0x1_0000_0000,
            ..
        })
    ));
    assert_eq!(len, 1);
    assert!(skipped.is_err());
    // 0, then 2^32 + 1 (low bits 1, which the first value's length would allow).
    let input = with_suffixes(one_block(2, 0, 0, 33, &[(1 << 32) + 1]));
    let (result, len, skipped) = decode(&input);
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (above i32::MAX)",
            value: 0x1_0000_0001,
            ..
        })
    ));
    assert_eq!(len, 1);
    assert!(skipped.is_err());
    // 0, then 0 + (2^63 - 1) + (2^63 + 2) = 2^64 + 1: 1 modulo 2^64.
    let input = with_suffixes(one_block(2, 0, i64::MAX, 64, &[(1 << 63) + 2]));
    let (result, len, skipped) = decode(&input);
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (above i32::MAX)",
            ..
        })
    ));
    assert_eq!(len, 1);
    assert!(skipped.is_err());
    // 0, then 0 + (2^63 - 1), then 2^64 - 2 (saturated): the second is an error.
    let input = with_suffixes(one_block(2, 0, i64::MAX, 0, &[]));
    let (result, len, skipped) = decode(&input);
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (above i32::MAX)",
            value: 0x7fff_ffff_ffff_ffff,
            ..
        })
    ));
    assert_eq!(len, 1);
    assert!(skipped.is_err());
    // 0, then -2^32 + 1 (low bits 1).
    let input = with_suffixes(one_block(2, 0, -(1 << 32) + 1, 0, &[]));
    let (result, len, skipped) = decode(&input);
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (negative)",
            ..
        })
    ));
    assert_eq!(len, 1);
    assert!(skipped.is_err());
    // A first prefix of 2^62.
    let input = with_suffixes(one_block(2, 1 << 62, 0, 0, &[]));
    let (result, len, _) = decode(&input);
    assert!(matches!(
        result,
        Err(Error::Invalid {
            what: "prefix length (above i32::MAX)",
            value: 0x4000_0000_0000_0000,
            ..
        })
    ));
    assert_eq!(len, 0);
    // The same prefixes in range decode: "ab", then "a" + "c".
    let input = with_suffixes(one_block(2, 0, -(1 << 32), 33, &[(1 << 32) + 1]));
    let (result, len, skipped) = decode(&input);
    assert_eq!((result, len, skipped), (Ok(2), 2, Ok(2)));

    // Suffix lengths: a first suffix length of 2^32 + 2 (low bits 2) fails up front.
    let mut input = Vec::new();
    binary_packed::encode(&[0i32, 0], Params::default(), &mut input);
    input.extend_from_slice(&one_block(2, (1 << 32) + 2, -(1 << 32) - 1, 0, &[]));
    input.extend_from_slice(b"abc");
    assert!(matches!(
        Decoder::try_new(&input),
        Err(Error::Invalid {
            what: "byte array length (above i32::MAX)",
            value: 0x1_0000_0002,
            ..
        })
    ));
}

#[test]
fn huge_counts_of_empty_values_take_time_bounded_by_the_input() {
    // 2^31 - 1 empty values: prefix lengths and suffix lengths all 0, each in one
    // miniblock of width 0 (14 bytes).
    let zeros = [
        0x80, 0x80, 0x80, 0x80, 0x08, 1, 0xff, 0xff, 0xff, 0xff, 0x07, 0, 0, 0,
    ];
    let input = [zeros, zeros].concat();
    let mut decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(decoder.remaining(), (1 << 31) - 1);
    assert_eq!(decoder.skip((1 << 31) - 2), Ok((1 << 31) - 2));
    let mut out = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut out, 10), Ok(1));
    assert_eq!(out.get(0), Some(&b""[..]));
    // 2^44 of them, in 4096 blocks of 2^32 - 128 each.
    let mut lengths = Vec::new();
    for value in [(1 << 32) - 128, 1, 4096 * ((1 << 32) - 128) + 1, 0] {
        varint::encode_u64(value, &mut lengths);
    }
    for _ in 0..4096 {
        lengths.extend_from_slice(&[0, 0]);
    }
    let input = [&lengths[..], &lengths[..]].concat();
    let mut decoder = Decoder::try_new(&input).unwrap();
    assert_eq!(decoder.skip(usize::MAX), Ok(4096 * ((1 << 32) - 128) + 1));
}

/// Skipping runs of values that repeat a prefix of the value before (the runs that skip
/// in constant time) leaves the decoder where skipping one by one does.
#[test]
fn skipping_repeats_agrees_with_decoding() {
    let mut values: Vec<&[u8]> = vec![b"abcdef"];
    values.extend(std::iter::repeat_n(&b"abcdef"[..], 1000));
    values.extend(std::iter::repeat_n(&b"abc"[..], 1000));
    values.push(b"abx");
    values.extend(std::iter::repeat_n(&b""[..], 700));
    values.push(b"y");
    let mut encoded = Vec::new();
    encode(values.iter().copied(), Params::default(), &mut encoded).unwrap();
    for skip in [
        0, 1, 2, 127, 128, 129, 999, 1000, 1001, 1500, 2000, 2001, 2002, 2500, 2702,
    ] {
        let mut decoder = Decoder::try_new(&encoded).unwrap();
        assert_eq!(decoder.skip(skip), Ok(skip));
        let mut out = ByteArrayBatch::new();
        while decoder.remaining() > 0 {
            decoder.decode(&mut out, 100).unwrap();
        }
        assert!(out.iter().eq(values[skip..].iter().copied()), "{skip}");
        // In two steps.
        let mut decoder = Decoder::try_new(&encoded).unwrap();
        assert_eq!(decoder.skip(skip / 2), Ok(skip / 2));
        assert_eq!(decoder.skip(skip - skip / 2), Ok(skip - skip / 2));
        let mut out = ByteArrayBatch::new();
        assert_eq!(
            decoder.decode(&mut out, 1),
            Ok(usize::from(skip < values.len()))
        );
        assert!(
            out.iter().eq(values[skip..].iter().copied().take(1)),
            "{skip}"
        );
    }
}

#[test]
fn counts_must_agree() {
    let input = raw(&[0, 0, 0], &[b"a", b"b"]);
    let start = {
        let mut lengths = Vec::new();
        binary_packed::encode(&[0i32, 0, 0], Params::default(), &mut lengths);
        lengths.len()
    };
    assert_eq!(
        Decoder::try_new(&input).unwrap_err(),
        Error::invalid("suffix count (differs from the prefix count)", start, 2)
    );
}

#[test]
fn suffix_errors_report_offsets_in_the_whole_input() {
    let mut input = raw(&[0, 0], &[b"ab", b"cd"]);
    input.pop();
    let data_at = input.len() - 3;
    assert_eq!(
        Decoder::try_new(&input).unwrap_err(),
        Error::truncated("byte array data", data_at, 4, 3)
    );
}

#[test]
fn the_byte_budget_bounds_each_call() {
    // One value of 1000 bytes, then 999 values that repeat it whole: 1 MB out of about
    // 2 kB in.
    let long = vec![b'z'; 1000];
    let mut prefixes = vec![1000; 1000];
    prefixes[0] = 0;
    let mut suffixes: Vec<&[u8]> = vec![b""; 1000];
    suffixes[0] = &long;
    let input = raw(&prefixes, &suffixes);
    assert!(input.len() < 2000);

    let mut decoder = Decoder::try_new(&input).unwrap().with_byte_budget(10_500);
    assert_eq!(decoder.byte_budget(), 10_500);
    let mut out = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut out, usize::MAX), Ok(10));
    assert_eq!(out.data().len(), 10_000);
    assert_eq!(decoder.skip(5), Ok(5));
    out.clear();
    assert_eq!(decoder.decode(&mut out, 3), Ok(3));
    assert!(out.iter().all(|value| value == long));

    // A value larger than the budget still comes out, alone.
    let mut decoder = Decoder::try_new(&input).unwrap().with_byte_budget(10);
    let mut total = 0;
    while decoder.remaining() > 0 {
        out.clear();
        assert_eq!(decoder.decode(&mut out, 100), Ok(1));
        total += 1;
    }
    assert_eq!(total, 1000);

    let mut fixed = FixedLenByteArrayBatch::new(1000);
    let mut decoder = Decoder::try_new(&input).unwrap().with_byte_budget(2500);
    assert_eq!(decoder.decode_fixed(&mut fixed, 100), Ok(2));
    assert_eq!(decoder.decode_fixed(&mut fixed, 100), Ok(2));
    assert_eq!(fixed.len(), 4);
    assert_eq!(
        Decoder::try_new(&input).unwrap().byte_budget(),
        DEFAULT_BYTE_BUDGET
    );
}

// -------------------------------------------------------------------------------------
// Properties.

/// Byte arrays that share prefixes: sorted words over a small alphabet.
fn shared_prefixes() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(b'a'..b'e', 0..20), 0..400).prop_map(
        |mut values| {
            values.sort();
            values
        },
    )
}

fn values() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop_oneof![byte_arrays(400), shared_prefixes()]
}

/// Steps: 0 decode, 1 skip; with a count and a byte budget.
fn steps() -> impl Strategy<Value = Vec<(u8, usize, usize)>> {
    prop::collection::vec((0u8..2, 0usize..200, 1usize..2000), 1..20)
}

proptest! {
    #[test]
    fn round_trip(values in values(), params in params(), steps in steps()) {
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
        prop_assert_eq!(streaming.len(), values.len());
        let mut streamed = Vec::new();
        streaming.finish(&mut streamed);
        prop_assert_eq!(&streamed, &encoded);

        let len = encoded.len();
        encoded.extend_from_slice(b"tail");
        let mut decoder = Decoder::try_new(&encoded).unwrap();
        prop_assert_eq!(decoder.encoded_len(), len);
        let mut at = 0;
        let mut out = ByteArrayBatch::new();
        for &(step, count, budget) in steps.iter().cycle().take(steps.len() * 8) {
            if step == 1 {
                let expected = count.min(values.len() - at);
                prop_assert_eq!(decoder.skip(count), Ok(expected));
                at += expected;
            } else {
                decoder = decoder.with_byte_budget(budget);
                out.clear();
                let n = decoder.decode(&mut out, count).unwrap();
                prop_assert!(n <= count.min(values.len() - at));
                prop_assert!(n > 0 || count == 0 || at == values.len());
                prop_assert!(n <= 1 || out.data().len() <= budget);
                // Stopped short only for the budget.
                if n < count.min(values.len() - at) {
                    prop_assert!(out.data().len() + values[at + n].len() > budget);
                }
                prop_assert!(out.iter().eq(values[at..at + n].iter().map(Vec::as_slice)));
                at += n;
            }
            prop_assert_eq!(decoder.remaining(), values.len() - at);
        }
        let mut decoder = decoder.with_byte_budget(usize::MAX);
        out.clear();
        prop_assert_eq!(decoder.decode(&mut out, usize::MAX), Ok(values.len() - at));
        prop_assert!(out.iter().eq(values[at..].iter().map(Vec::as_slice)));
    }

    #[test]
    fn fixed_round_trip(
        width in 0usize..12,
        raw in prop::collection::vec(0u8..3, 0..2000),
        params in params(),
        steps in steps(),
    ) {
        let len = raw.len().checked_div(width).map_or(raw.len() % 50, |n| n * width);
        let batch = if width == 0 {
            let mut batch = FixedLenByteArrayBatch::new(0);
            for _ in 0..len {
                batch.push(b"").unwrap();
            }
            batch
        } else {
            FixedLenByteArrayBatch::from_bytes(width, raw[..len].to_vec()).unwrap()
        };
        let mut encoded = Vec::new();
        encode_fixed(&batch, params, &mut encoded).unwrap();
        let mut decoder = Decoder::try_new(&encoded).unwrap();
        let mut out = FixedLenByteArrayBatch::new(width);
        let mut at = 0;
        for &(step, count, _) in &steps {
            if step == 1 {
                let n = decoder.skip(count).unwrap();
                for index in at..at + n {
                    out.push(batch.get(index).unwrap()).unwrap();
                }
                at += n;
            } else {
                at += decoder.decode_fixed(&mut out, count).unwrap();
            }
        }
        at += decoder.decode_fixed(&mut out, usize::MAX).unwrap();
        prop_assert_eq!(at, batch.len());
        prop_assert_eq!(out, batch);
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
        values in values(),
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

/// A plain reading: the prefix lengths, then the suffixes, then the values one by one.
fn reference(input: &[u8], cap: usize) -> Result<Vec<Vec<u8>>> {
    let prefixes = binary_packed::Decoder::<i32>::try_new(input)?;
    let start = prefixes.encoded_len()?;
    // Prefix lengths are exact, not modulo 2^32.
    let prefixes = binary_packed::tests::reference_exact(input, usize::MAX)?;
    let mut suffixes = crate::length_byte_array::Decoder::try_new(&input[start..])?;
    if suffixes.len() != prefixes.len() {
        return Err(Error::invalid("count", 0, 0));
    }
    let mut values: Vec<Vec<u8>> = Vec::new();
    let mut previous = Vec::new();
    for &prefix in prefixes.iter().take(cap) {
        let prefix = i32::try_from(prefix).map_err(|_| Error::invalid("prefix", 0, 0))?;
        let prefix = usize::try_from(prefix).map_err(|_| Error::invalid("prefix", 0, 0))?;
        let suffix = suffixes.next_value()?.unwrap();
        if prefix > previous.len() {
            return Err(Error::invalid("prefix", 0, 0));
        }
        previous.truncate(prefix);
        previous.extend_from_slice(suffix);
        values.push(previous.clone());
    }
    Ok(values)
}

fn check_against_reference(input: &[u8]) -> Result<(), TestCaseError> {
    const CAP: usize = 2000;
    let theirs = match binary_packed::Decoder::<i32>::try_new(input) {
        // The reference materializes every prefix length: only for modest counts.
        Ok(prefixes) if prefixes.len() > 100_000 => None,
        _ => Some(reference(input, CAP)),
    };
    let ours = Decoder::try_new(input).and_then(|decoder| {
        let mut decoder = decoder.with_byte_budget(1 << 20);
        let mut out = ByteArrayBatch::new();
        while out.len() < CAP.min(decoder.len()) {
            let want = CAP - out.len();
            assert!(decoder.decode(&mut out, want)? > 0);
        }
        Ok(out)
    });
    if let Some(theirs) = theirs {
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?} vs {:?}", ours, theirs);
        if let (Ok(ours), Ok(theirs)) = (&ours, &theirs) {
            prop_assert!(ours.iter().eq(theirs.iter().map(Vec::as_slice)));
        }
    }
    if let Ok(decoder) = Decoder::try_new(input) {
        let mut decoder = decoder.with_byte_budget(1000);
        let mut out = ByteArrayBatch::new();
        let mut fixed = FixedLenByteArrayBatch::new(3);
        for _ in 0..50 {
            out.clear();
            if decoder.decode(&mut out, 5).is_err()
                || decoder.skip(3).is_err()
                || decoder.decode_fixed(&mut fixed, 2).is_err()
            {
                break;
            }
        }
    }
    Ok(())
}
