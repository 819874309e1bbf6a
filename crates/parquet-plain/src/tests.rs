use super::*;
use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96, PhysicalType};
use proptest::prelude::*;

/// Decodes every value of a PLAIN run in batches of the given sizes (cycled), with a
/// skip of `skip` values first, and checks the count bookkeeping on the way.
fn decode_in_batches<T: PlainType>(page: &[u8], len: usize, batches: &[usize]) -> Vec<T> {
    let mut decoder = Decoder::<T>::try_new(page, len).unwrap();
    assert_eq!(decoder.encoded_len(), T::encoded_len(len));
    let mut values = Vec::new();
    for &batch in batches.iter().cycle() {
        if decoder.remaining() == 0 {
            break;
        }
        let mut out = vec![T::default(); batch];
        let before = decoder.remaining();
        let n = decoder.decode(&mut out).unwrap();
        assert_eq!(n, batch.min(before));
        assert_eq!(decoder.remaining(), before - n);
        values.extend_from_slice(&out[..n]);
    }
    assert_eq!(decoder.decode(&mut [T::default(); 4]), Ok(0));
    values
}

fn round_trip<T: PlainType>(values: &[T], batches: &[usize]) -> Result<(), TestCaseError> {
    let mut page = vec![0xa5];
    encode(values, &mut page);
    let page = &page[1..];
    prop_assert_eq!(page.len(), T::encoded_len(values.len()));
    let back = decode_in_batches::<T>(page, values.len(), batches);
    // Compare bit patterns (NaN payloads and -0.0 must survive) by encoding again.
    prop_assert_eq!(back.len(), values.len());
    let mut again = Vec::new();
    encode(&back, &mut again);
    prop_assert_eq!(&again[..], page);

    // Skipping lands on the same values as decoding.
    for skip in [0, 1, 7, 8, 9, 33, values.len()] {
        let mut decoder = Decoder::<T>::try_new(page, values.len()).unwrap();
        let skipped = decoder.skip(skip).unwrap();
        prop_assert_eq!(skipped, skip.min(values.len()));
        let mut rest = vec![T::default(); values.len() - skipped];
        prop_assert_eq!(decoder.decode(&mut rest), Ok(rest.len()));
        let (mut again, mut expected) = (Vec::new(), Vec::new());
        encode(&rest, &mut again);
        encode(&values[skipped..], &mut expected);
        prop_assert_eq!(again, expected, "{}", skipped);
    }

    // Any shorter input is rejected up front.
    if !page.is_empty() {
        let short = &page[..page.len() - 1];
        let result = Decoder::<T>::try_new(short, values.len()).map(|_| ());
        let expected = Err(Error::truncated(T::WHAT, 0, page.len(), short.len()));
        prop_assert_eq!(result, expected);
    }
    Ok(())
}

#[test]
fn fixed_width_bytes_are_little_endian() {
    let mut page = Vec::new();
    encode(&[1i32, -1, i32::MIN], &mut page);
    assert_eq!(
        page,
        [1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x80],
        "INT32: 4 bytes little endian"
    );

    let mut page = Vec::new();
    encode(&[0x0102_0304_0506_0708_i64], &mut page);
    assert_eq!(
        page,
        [8, 7, 6, 5, 4, 3, 2, 1],
        "INT64: 8 bytes little endian"
    );

    let mut page = Vec::new();
    encode(&[1.0f32, -0.0], &mut page);
    assert_eq!(
        page,
        [0, 0, 0x80, 0x3f, 0, 0, 0, 0x80],
        "FLOAT: 4 bytes IEEE little endian"
    );

    let mut page = Vec::new();
    encode(&[1.0f64], &mut page);
    assert_eq!(
        page,
        [0, 0, 0, 0, 0, 0, 0xf0, 0x3f],
        "DOUBLE: 8 bytes IEEE little endian"
    );

    let int96 = Int96::from_timestamp_parts(0x0102_0304_0506_0708, 0x0a0b_0c0d);
    let mut page = Vec::new();
    encode(&[int96], &mut page);
    assert_eq!(
        page,
        [8, 7, 6, 5, 4, 3, 2, 1, 0x0d, 0x0c, 0x0b, 0x0a],
        "INT96: 12 bytes little endian"
    );

    let mut decoder = Decoder::<Int96>::try_new(&page, 1).unwrap();
    let mut out = [Int96::default()];
    assert_eq!(decoder.decode(&mut out), Ok(1));
    assert_eq!(out, [int96]);

    let bytes = [0x00, 0x00, 0xc0, 0x7f, 0x01, 0x00, 0x80, 0x7f];
    let mut decoder = Decoder::<f32>::try_new(&bytes, 2).unwrap();
    let mut out = [0.0f32; 2];
    decoder.decode(&mut out).unwrap();
    assert_eq!(
        out.map(f32::to_bits),
        [0x7fc0_0000, 0x7f80_0001],
        "quiet and signalling NaN bit patterns survive"
    );
}

#[test]
fn booleans_are_bit_packed_lsb_first() {
    let values = [
        true, false, true, true, false, false, false, false, // 0b0000_1101
        false, true, // 0b10, padded with zeros
    ];
    let mut page = Vec::new();
    encode(&values, &mut page);
    assert_eq!(page, [0b0000_1101, 0b0000_0010]);

    // Batches that start in the middle of a byte.
    let back = decode_in_batches::<bool>(&page, values.len(), &[3, 1, 5, 1]);
    assert_eq!(back, values);

    // Padding bits are ignored, and values may end mid-byte.
    let mut decoder = Decoder::<bool>::try_new(&[0xff, 0xff], 9).unwrap();
    assert_eq!(decoder.encoded_len(), 2);
    let mut out = [false; 16];
    assert_eq!(decoder.decode(&mut out), Ok(9));
    assert_eq!(out.iter().filter(|&&b| b).count(), 9);
    assert_eq!(
        Decoder::<bool>::try_new(&[0xff], 9).unwrap_err(),
        Error::truncated("PLAIN BOOLEAN values", 0, 2, 1)
    );
}

#[test]
fn byte_arrays_are_length_prefixed() {
    let mut page = Vec::new();
    byte_array::encode(&["Hello", "", "World!"], &mut page).unwrap();
    assert_eq!(
        page,
        b"\x05\x00\x00\x00Hello\x00\x00\x00\x00\x06\x00\x00\x00World!"
    );

    let mut decoder = byte_array::Decoder::try_new(&page, 3).unwrap();
    let mut batch = ByteArrayBatch::new();
    assert_eq!(decoder.decode(&mut batch, 2), Ok(2));
    assert_eq!(decoder.position(), 13);
    assert_eq!(decoder.decode(&mut batch, 2), Ok(1));
    assert_eq!(decoder.decode(&mut batch, 2), Ok(0));
    assert_eq!(batch.offsets(), [0, 5, 5, 11]);
    assert_eq!(batch.data(), b"HelloWorld!");
    assert_eq!(decoder.position(), page.len());

    let mut encoded_batch = Vec::new();
    byte_array::encode_batch(&batch, &mut encoded_batch);
    assert_eq!(encoded_batch, page);

    let mut decoder = byte_array::Decoder::try_new(&page, 3).unwrap();
    assert_eq!(decoder.skip(2), Ok(2));
    assert_eq!(decoder.next_value(), Ok(Some(&b"World!"[..])));
    assert_eq!(decoder.next_value(), Ok(None));
}

#[test]
fn byte_array_errors_say_what_and_where() {
    // Fewer bytes than even the lengths of the promised values.
    assert_eq!(
        byte_array::Decoder::try_new(&[0; 7], 2).unwrap_err(),
        Error::truncated("PLAIN BYTE_ARRAY values", 0, 8, 7)
    );
    assert!(byte_array::Decoder::try_new(&[], usize::MAX).is_err());

    // A length that lies: 0x10 bytes promised, 3 present.
    let page = b"\x01\x00\x00\x00a\x10\x00\x00\x00abc";
    let mut decoder = byte_array::Decoder::try_new(page, 2).unwrap();
    let mut batch = ByteArrayBatch::new();
    assert_eq!(
        decoder.decode(&mut batch, 10),
        Err(Error::truncated("BYTE_ARRAY value", 9, 16, 3))
    );
    // The value before the bad one was kept, and the decoder is finished.
    assert_eq!(batch.iter().collect::<Vec<_>>(), [b"a"]);
    assert_eq!(decoder.remaining(), 0);
    assert_eq!(decoder.next_value(), Ok(None));

    // A length cut short.
    let page = b"\x02\x00\x00\x00ab\x00\x00";
    let mut decoder = byte_array::Decoder::try_new(page, 2).unwrap();
    assert_eq!(
        decoder.skip(5),
        Err(Error::truncated("BYTE_ARRAY length", 6, 4, 2))
    );
    assert_eq!(decoder.position(), 6);

    // As an iterator: the values, the error, then nothing.
    let page = b"\x01\x00\x00\x00a\xff\xff\xff\xffabc";
    let decoder = byte_array::Decoder::try_new(page, 2).unwrap();
    let results: Vec<_> = decoder.into_iter().collect();
    assert_eq!(
        results,
        [
            Ok(&b"a"[..]),
            Err(Error::truncated("BYTE_ARRAY value", 9, 0xffff_ffff, 3))
        ]
    );
}

#[test]
fn fixed_len_byte_arrays_are_back_to_back() {
    let mut batch = FixedLenByteArrayBatch::new(3);
    batch.push(b"abc").unwrap();
    batch.push(b"def").unwrap();
    let mut page = Vec::new();
    fixed_len_byte_array::encode(&batch, &mut page);
    assert_eq!(page, b"abcdef");
    assert_eq!(
        fixed_len_byte_array::encode_values(3, &["abc", "de"], &mut page),
        Err(Error::invalid("FIXED_LEN_BYTE_ARRAY value length", 0, 2))
    );
    assert_eq!(
        page, b"abcdef",
        "a failed encode leaves the output as it was"
    );

    let mut decoder = fixed_len_byte_array::Decoder::try_new(b"abcdefg", 3, 2).unwrap();
    assert_eq!(decoder.encoded_len(), 6);
    assert_eq!(decoder.clone().into_iter().len(), 2);
    let mut out = FixedLenByteArrayBatch::new(3);
    assert_eq!(decoder.decode(&mut out, 1), Ok(1));
    assert_eq!(decoder.next_value(), Some(&b"def"[..]));
    assert_eq!(decoder.next_value(), None);
    assert_eq!(decoder.decode(&mut out, 1), Ok(0));
    assert_eq!(out.data(), b"abc");

    let mut decoder = fixed_len_byte_array::Decoder::try_new(b"abcdef", 3, 2).unwrap();
    assert_eq!(
        decoder.decode(&mut FixedLenByteArrayBatch::new(2), 1),
        Err(Error::invalid("output batch width", 0, 2))
    );
    assert_eq!(decoder.skip(1), Ok(1));
    assert_eq!(decoder.into_iter().collect::<Vec<_>>(), [b"def"]);

    assert_eq!(
        fixed_len_byte_array::Decoder::try_new(b"abcdef", 4, 2).unwrap_err(),
        Error::truncated("PLAIN FIXED_LEN_BYTE_ARRAY values", 0, 8, 6)
    );
    assert_eq!(
        fixed_len_byte_array::Decoder::try_new(b"", 0, 2).unwrap_err(),
        Error::invalid("FIXED_LEN_BYTE_ARRAY width", 0, 0)
    );
    assert!(fixed_len_byte_array::Decoder::try_new(b"", usize::MAX, 2).is_err());
}

#[test]
fn counts_that_lie_are_rejected_before_any_allocation() {
    assert_eq!(
        Decoder::<i64>::try_new(&[0; 8], usize::MAX).unwrap_err(),
        Error::truncated("PLAIN INT64 values", 0, usize::MAX, 8)
    );
    assert!(Decoder::<bool>::try_new(&[0; 8], usize::MAX).is_err());
    assert!(Decoder::<Int96>::try_new(&[0; 23], 2).is_err());
    assert_eq!(<f32 as PlainType>::PHYSICAL_TYPE, PhysicalType::Float);
    assert_eq!(<bool as PlainType>::PHYSICAL_TYPE, PhysicalType::Boolean);
}

/// Floats of every shape, as bit patterns: random, extremes, NaNs, zeros of both signs.
fn f64_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        Just(f64::NAN.to_bits()),
        Just(0x7ff0_0000_0000_0001), // signalling NaN
        Just(0xfff8_0000_0000_0000), // negative quiet NaN
        Just((-0.0f64).to_bits()),
        Just(0),
        Just(f64::INFINITY.to_bits()),
        Just(f64::NEG_INFINITY.to_bits()),
        Just(f64::MIN_POSITIVE.to_bits()),
        Just(1), // smallest subnormal
        Just(f64::MAX.to_bits()),
    ]
}

fn f32_bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        Just(f32::NAN.to_bits()),
        Just(0x7f80_0001),
        Just(0xffc0_0000),
        Just((-0.0f32).to_bits()),
        Just(0),
        Just(f32::INFINITY.to_bits()),
        Just(f32::NEG_INFINITY.to_bits()),
        Just(1),
        Just(f32::MAX.to_bits()),
    ]
}

fn int_extremes<T: Arbitrary + Copy + 'static>(extremes: &'static [T]) -> impl Strategy<Value = T> {
    prop_oneof![any::<T>(), prop::sample::select(extremes)]
}

fn batches() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..100, 1..5)
}

/// Byte arrays of every shape: empty, short, long; random or repeated bytes.
fn byte_arrays() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..16),
        2 => prop::collection::vec(any::<u8>(), 16..70),
        1 => Just(Vec::new()),
        1 => prop::collection::vec(any::<u8>(), 100..3000),
        1 => (0usize..5000, any::<u8>()).prop_map(|(len, byte)| vec![byte; len]),
    ];
    prop::collection::vec(value, 0..150)
}

proptest! {
    #[test]
    fn round_trip_i32(values in prop::collection::vec(int_extremes(&[0, 1, -1, i32::MIN, i32::MAX]), 0..300), batches in batches()) {
        round_trip(&values, &batches)?;
    }

    #[test]
    fn round_trip_i64(values in prop::collection::vec(int_extremes(&[0, 1, -1, i64::MIN, i64::MAX]), 0..300), batches in batches()) {
        round_trip(&values, &batches)?;
    }

    #[test]
    fn round_trip_f32(bits in prop::collection::vec(f32_bits(), 0..300), batches in batches()) {
        let values: Vec<f32> = bits.into_iter().map(f32::from_bits).collect();
        round_trip(&values, &batches)?;
    }

    #[test]
    fn round_trip_f64(bits in prop::collection::vec(f64_bits(), 0..300), batches in batches()) {
        let values: Vec<f64> = bits.into_iter().map(f64::from_bits).collect();
        round_trip(&values, &batches)?;
    }

    #[test]
    fn round_trip_int96(bytes in prop::collection::vec(any::<[u8; 12]>(), 0..100), batches in batches()) {
        let values: Vec<Int96> = bytes.into_iter().map(Int96::from_le_bytes).collect();
        round_trip(&values, &batches)?;
    }

    #[test]
    fn round_trip_bool(
        values in prop_oneof![
            prop::collection::vec(any::<bool>(), 0..1200),
            (0usize..1200, any::<bool>()).prop_map(|(len, value)| vec![value; len]),
        ],
        batches in batches(),
    ) {
        round_trip(&values, &batches)?;
        // Padding bits are zero.
        let mut page = Vec::new();
        encode(&values, &mut page);
        if values.len() % 8 != 0 {
            prop_assert_eq!(page.last().unwrap() >> (values.len() % 8), 0);
        }
    }

    #[test]
    fn round_trip_byte_array(values in byte_arrays(), max in 1usize..70, skip in 0usize..70) {
        let mut page = Vec::new();
        byte_array::encode(&values, &mut page)?;

        let mut decoder = byte_array::Decoder::try_new(&page, values.len())?;
        let mut batch = ByteArrayBatch::new();
        while decoder.remaining() > 0 {
            let before = batch.len();
            let appended = decoder.decode(&mut batch, max)?;
            prop_assert_eq!(appended, batch.len() - before);
        }
        prop_assert_eq!(batch.iter().collect::<Vec<_>>(), values.iter().map(Vec::as_slice).collect::<Vec<_>>());
        prop_assert_eq!(decoder.position(), page.len());

        let borrowed: Vec<&[u8]> = byte_array::Decoder::try_new(&page, values.len())?.into_iter().collect::<Result<_>>()?;
        prop_assert_eq!(&borrowed, &batch.iter().collect::<Vec<_>>());

        let mut from_batch = Vec::new();
        byte_array::encode_batch(&batch, &mut from_batch);
        prop_assert_eq!(&from_batch, &page);

        let mut decoder = byte_array::Decoder::try_new(&page, values.len())?;
        let skipped = decoder.skip(skip)?;
        prop_assert_eq!(skipped, skip.min(values.len()));
        prop_assert_eq!(decoder.next_value()?, values.get(skipped).map(Vec::as_slice));
    }

    #[test]
    fn round_trip_fixed_len_byte_array(width in 1usize..40, raw in prop::collection::vec(any::<u8>(), 0..2000), max in 1usize..50, skip in 0usize..50) {
        let raw = &raw[..raw.len() / width * width];
        let values: Vec<&[u8]> = raw.chunks_exact(width).collect();
        let mut page = Vec::new();
        fixed_len_byte_array::encode_values(width, &values, &mut page)?;
        prop_assert_eq!(&page[..], raw);

        let mut decoder = fixed_len_byte_array::Decoder::try_new(&page, width, values.len())?;
        let mut batch = FixedLenByteArrayBatch::new(width);
        while decoder.remaining() > 0 {
            decoder.decode(&mut batch, max)?;
        }
        prop_assert_eq!(batch.data(), raw);

        let mut decoder = fixed_len_byte_array::Decoder::try_new(&page, width, values.len())?;
        let skipped = decoder.skip(skip)?;
        prop_assert_eq!(decoder.into_iter().collect::<Vec<_>>(), &values[skipped..]);
    }

    /// Every prefix of a valid page: rejected up front or decoded to an error, never a
    /// panic; and values decoded before the error are the right ones.
    #[test]
    fn truncated_byte_arrays_are_errors(values in byte_arrays(), cut in any::<prop::sample::Index>()) {
        let mut page = Vec::new();
        byte_array::encode(&values, &mut page)?;
        let cut = cut.index(page.len() + 1);
        if cut == page.len() {
            return Ok(());
        }
        let Ok(mut decoder) = byte_array::Decoder::try_new(&page[..cut], values.len()) else {
            return Ok(());
        };
        let mut batch = ByteArrayBatch::new();
        let result = decoder.decode(&mut batch, usize::MAX);
        prop_assert!(matches!(result, Err(Error::Truncated { .. })), "{:?}", result);
        prop_assert_eq!(batch.iter().collect::<Vec<_>>(), values[..batch.len()].iter().map(Vec::as_slice).collect::<Vec<_>>());
    }

    /// Flipped bits in a page give the same values, other values, or an error: never a
    /// panic, and never a value that reaches outside the input.
    #[test]
    fn flipped_bits_never_panic(values in byte_arrays(), flips in prop::collection::vec(any::<prop::sample::Index>(), 1..4)) {
        let mut page = Vec::new();
        byte_array::encode(&values, &mut page)?;
        if page.is_empty() {
            return Ok(());
        }
        for flip in flips {
            let bit = flip.index(page.len() * 8);
            page[bit / 8] ^= 1 << (bit % 8);
        }
        let mut decoder = byte_array::Decoder::try_new(&page, values.len())?;
        let mut batch = ByteArrayBatch::new();
        let _ = decoder.decode(&mut batch, usize::MAX);
        prop_assert!(batch.data().len() <= page.len());
        let mut decoder = byte_array::Decoder::try_new(&page, values.len())?;
        let _ = decoder.skip(usize::MAX);
    }

    #[test]
    fn arbitrary_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200), count in 0usize..300, width in 0usize..20) {
        if let Ok(mut decoder) = byte_array::Decoder::try_new(&bytes, count) {
            let _ = decoder.decode(&mut ByteArrayBatch::new(), count);
        }
        if let Ok(mut decoder) = fixed_len_byte_array::Decoder::try_new(&bytes, width, count) {
            let _ = decoder.decode(&mut FixedLenByteArrayBatch::new(width), count);
        }
        if let Ok(mut decoder) = Decoder::<bool>::try_new(&bytes, count) {
            let _ = decoder.decode(&mut vec![false; count]);
        }
        if let Ok(mut decoder) = Decoder::<Int96>::try_new(&bytes, count) {
            let _ = decoder.decode(&mut vec![Int96::default(); count]);
        }
    }
}
