use super::*;
use parquet_core::Int96;
use proptest::prelude::*;

/// The definition, one byte at a time: byte `j` of value `i` goes to `j * N + i`.
fn reference_encode(bytes: &[u8], width: usize) -> Vec<u8> {
    let n = bytes.len() / width;
    let mut out = vec![0; bytes.len()];
    for i in 0..n {
        for j in 0..width {
            out[j * n + i] = bytes[i * width + j];
        }
    }
    out
}

fn reference_decode(page: &[u8], width: usize) -> Vec<u8> {
    let n = page.len() / width;
    let mut out = vec![0; page.len()];
    for i in 0..n {
        for j in 0..width {
            out[i * width + j] = page[j * n + i];
        }
    }
    out
}

/// Decodes raw bytes in batches of the given sizes (cycled), after skipping `skip`.
fn decode_bytes_in_batches(page: &[u8], width: usize, skip: usize, batches: &[usize]) -> Vec<u8> {
    let mut decoder = Decoder::try_new(page, width).unwrap();
    assert_eq!(decoder.skip(skip), Ok(skip.min(decoder.len())));
    let mut out = Vec::new();
    for &batch in batches.iter().cycle() {
        if decoder.remaining() == 0 {
            break;
        }
        let mut buffer = vec![0; batch * width];
        let n = decoder.decode_bytes(&mut buffer).unwrap();
        out.extend_from_slice(&buffer[..n * width]);
    }
    out
}

#[test]
fn spec_example() {
    let values = [
        0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6,
    ];
    let expected = [
        0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6,
    ];
    let mut page = Vec::new();
    encode_bytes(&values, 4, &mut page).unwrap();
    assert_eq!(page, expected);

    // The same as FLOAT values, whose bytes are the example's (little endian).
    let floats = values
        .as_chunks::<4>()
        .0
        .iter()
        .map(|bytes| f32::from_le_bytes(*bytes))
        .collect::<Vec<_>>();
    let mut page = Vec::new();
    encode(&floats, &mut page);
    assert_eq!(page, expected);

    let mut decoder = Decoder::try_new(&expected, 4).unwrap();
    assert_eq!(decoder.len(), 3);
    let mut out = [0.0f32; 3];
    assert_eq!(decoder.decode(&mut out), Ok(3));
    let bits: Vec<u32> = floats.iter().map(|v| v.to_bits()).collect();
    assert_eq!(out.map(f32::to_bits), bits[..]);

    let mut decoder = Decoder::try_new(&expected, 4).unwrap();
    let mut bytes = [0; 12];
    assert_eq!(decoder.decode_bytes(&mut bytes), Ok(3));
    assert_eq!(bytes, values);

    let mut decoder = Decoder::try_new(&expected, 4).unwrap();
    let mut batch = FixedLenByteArrayBatch::new(4);
    assert_eq!(decoder.decode_batch(&mut batch, 2), Ok(2));
    assert_eq!(decoder.decode_batch(&mut batch, 2), Ok(1));
    assert_eq!(batch.data(), values);
    let mut page = Vec::new();
    encode_batch(&batch, &mut page);
    assert_eq!(page, expected);
}

#[test]
fn errors() {
    assert_eq!(
        Decoder::try_new(&[0; 13], 4).unwrap_err(),
        Error::invalid(
            "BYTE_STREAM_SPLIT data length (not a multiple of the value width)",
            0,
            13
        )
    );
    assert_eq!(
        Decoder::try_new(&[], 0).unwrap_err(),
        Error::invalid("BYTE_STREAM_SPLIT value width", 0, 0)
    );
    let mut decoder = Decoder::try_new(&[0; 16], 4).unwrap();
    assert_eq!(
        decoder.decode(&mut [0.0f64; 2]),
        Err(Error::invalid("output value width", 0, 8))
    );
    assert_eq!(
        decoder.decode_batch(&mut FixedLenByteArrayBatch::new(8), 2),
        Err(Error::invalid("output batch width", 0, 8))
    );
    assert_eq!(decoder.remaining(), 4, "a failed call consumes nothing");

    let mut page = vec![1, 2];
    assert!(encode_bytes(&[0; 7], 2, &mut page).is_err());
    assert!(encode_bytes(&[0; 7], 0, &mut page).is_err());
    assert_eq!(encode_bytes(&[], 0, &mut page), Ok(()));
    assert_eq!(page, [1, 2], "a failed encode leaves the output as it was");

    // An output shorter than a value, or than the data, takes what fits.
    let mut decoder = Decoder::try_new(&[0; 16], 4).unwrap();
    assert_eq!(decoder.decode_bytes(&mut [0; 3]), Ok(0));
    assert_eq!(decoder.decode_bytes(&mut [0; 9]), Ok(2));
    assert_eq!(decoder.skip(5), Ok(2));
    assert_eq!(decoder.decode(&mut [0i32; 4]), Ok(0));
    assert!(Decoder::try_new(&[], 3).unwrap().is_empty());

    // A batch of width 0 holds no values, and encodes to nothing.
    let mut page = Vec::new();
    encode_batch(&FixedLenByteArrayBatch::new(0), &mut page);
    assert!(page.is_empty());

    // Empty data divides into values of any width, however wide: nothing to do.
    let huge = usize::MAX;
    let mut decoder = Decoder::try_new(&[], huge).unwrap();
    assert_eq!(decoder.decode_bytes(&mut [0; 8]), Ok(0));
    assert_eq!(
        decoder.decode_batch(&mut FixedLenByteArrayBatch::new(huge), 8),
        Ok(0)
    );
    assert_eq!(encode_bytes(&[], huge, &mut page), Ok(()));
    encode_batch(&FixedLenByteArrayBatch::new(huge), &mut page);
    assert!(page.is_empty());
}

#[test]
fn every_width_matches_the_reference() {
    // Deterministic coverage of each kernel, with whole blocks, partial blocks and batch
    // boundaries in the middle of blocks.
    for width in 1..=33 {
        for n in [0, 1, 63, 64, 65, 200, 1000] {
            let bytes: Vec<u8> = (0..n * width)
                .map(|i| usize::to_le_bytes(i * 131 + i / 7)[0])
                .collect();
            let mut page = Vec::new();
            encode_bytes(&bytes, width, &mut page).unwrap();
            assert_eq!(
                page,
                reference_encode(&bytes, width),
                "width {width}, {n} values"
            );
            let mut portable_page = Vec::new();
            portable::encode_bytes(&bytes, width, &mut portable_page).unwrap();
            assert_eq!(portable_page, page, "width {width}, {n} values");
            let mut out = vec![0; bytes.len()];
            portable::decoder(&page, width)
                .unwrap()
                .decode_bytes(&mut out)
                .unwrap();
            assert_eq!(out, bytes, "width {width}, {n} values");
            for (skip, batches) in [(0, &[n.max(1)][..]), (3, &[1, 64, 7, 100]), (70, &[65])] {
                let decoded = decode_bytes_in_batches(&page, width, skip, batches);
                assert_eq!(
                    decoded,
                    bytes[(skip.min(n) * width)..],
                    "width {width}, {n} values, skip {skip}"
                );
            }
        }
    }
}

fn typed_round_trip<T: FixedWidth>(
    values: &[T],
    skip: usize,
    batch: usize,
) -> Result<(), TestCaseError> {
    let mut page = Vec::new();
    encode(values, &mut page);
    let mut bytes = Vec::new();
    T::extend_le_bytes(values, &mut bytes);
    prop_assert_eq!(&page, &reference_encode(&bytes, T::SIZE));

    let mut decoder = Decoder::try_new(&page, T::SIZE)?;
    prop_assert_eq!(decoder.len(), values.len());
    let skipped = decoder.skip(skip)?;
    let mut out = Vec::new();
    let mut buffer = vec![T::default(); batch];
    while decoder.remaining() > 0 {
        let n = decoder.decode(&mut buffer)?;
        out.extend_from_slice(&buffer[..n]);
    }
    // Compare bit patterns, so that NaN payloads and -0.0 count.
    let mut out_bytes = Vec::new();
    T::extend_le_bytes(&out, &mut out_bytes);
    prop_assert_eq!(&out_bytes[..], &bytes[skipped * T::SIZE..]);
    Ok(())
}

/// Floats of every shape, as bit patterns: random, NaNs, zeros of both signs, extremes.
fn f64_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        Just(f64::NAN.to_bits()),
        Just(0x7ff0_0000_0000_0001),
        Just(0xfff8_0000_0000_0000),
        Just((-0.0f64).to_bits()),
        Just(0),
        Just(f64::INFINITY.to_bits()),
        Just(f64::NEG_INFINITY.to_bits()),
        Just(1),
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

/// The build chosen at run time (AVX2 on most x86-64 CPUs) against the portable build,
/// in every kernel: typed and raw, joining and splitting, from any offset.
fn fast_equals_portable<T: FixedWidth>(bytes: &[u8], skip: usize) -> Result<(), TestCaseError> {
    let mut values = vec![T::default(); bytes.len() / T::SIZE];
    T::slice_from_le_bytes(bytes, &mut values);
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    encode(&values, &mut fast);
    portable::encode(&values, &mut slow);
    prop_assert_eq!(&fast, &slow);

    let mut fast_decoder = Decoder::try_new(&fast, T::SIZE)?;
    let mut slow_decoder = portable::decoder(&fast, T::SIZE)?;
    fast_decoder.skip(skip)?;
    slow_decoder.skip(skip)?;
    let mut fast_out = vec![T::default(); values.len()];
    let mut slow_out = vec![T::default(); values.len()];
    let n = fast_decoder.clone().decode(&mut fast_out)?;
    prop_assert_eq!(slow_decoder.clone().decode(&mut slow_out)?, n);
    let (mut fast_bytes, mut slow_bytes) = (Vec::new(), Vec::new());
    T::extend_le_bytes(&fast_out[..n], &mut fast_bytes);
    T::extend_le_bytes(&slow_out[..n], &mut slow_bytes);
    prop_assert_eq!(&fast_bytes, &slow_bytes);
    prop_assert_eq!(&fast_bytes[..], &bytes[skip.min(values.len()) * T::SIZE..]);

    let mut fast_raw = vec![0; bytes.len()];
    let mut slow_raw = vec![0; bytes.len()];
    fast_decoder.decode_bytes(&mut fast_raw)?;
    slow_decoder.decode_bytes(&mut slow_raw)?;
    prop_assert_eq!(fast_raw, slow_raw);
    Ok(())
}

proptest! {
    #[test]
    fn fast_kernels_equal_portable(bytes in prop::collection::vec(any::<u8>(), 0..2000), skip in 0usize..130) {
        fast_equals_portable::<f32>(&bytes[..bytes.len() / 4 * 4], skip)?;
        fast_equals_portable::<i32>(&bytes[..bytes.len() / 4 * 4], skip)?;
        fast_equals_portable::<f64>(&bytes[..bytes.len() / 8 * 8], skip)?;
        fast_equals_portable::<i64>(&bytes[..bytes.len() / 8 * 8], skip)?;
        for width in [2, 16] {
            let bytes = &bytes[..bytes.len() / width * width];
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            encode_bytes(bytes, width, &mut fast)?;
            portable::encode_bytes(bytes, width, &mut slow)?;
            prop_assert_eq!(&fast, &slow);
            let mut fast_out = FixedLenByteArrayBatch::new(width);
            let mut slow_out = FixedLenByteArrayBatch::new(width);
            let mut fast_decoder = Decoder::try_new(&fast, width)?;
            let mut slow_decoder = portable::decoder(&fast, width)?;
            fast_decoder.skip(skip)?;
            slow_decoder.skip(skip)?;
            fast_decoder.decode_batch(&mut fast_out, usize::MAX)?;
            slow_decoder.decode_batch(&mut slow_out, usize::MAX)?;
            prop_assert_eq!(fast_out.data(), slow_out.data());
            prop_assert_eq!(fast_out.data(), &bytes[skip.min(bytes.len() / width) * width..]);
        }
    }

    #[test]
    fn round_trip_f32(bits in prop::collection::vec(f32_bits(), 0..500), skip in 0usize..100, batch in 1usize..200) {
        let values: Vec<f32> = bits.into_iter().map(f32::from_bits).collect();
        typed_round_trip(&values, skip, batch)?;
    }

    #[test]
    fn round_trip_f64(bits in prop::collection::vec(f64_bits(), 0..500), skip in 0usize..100, batch in 1usize..200) {
        let values: Vec<f64> = bits.into_iter().map(f64::from_bits).collect();
        typed_round_trip(&values, skip, batch)?;
    }

    #[test]
    fn round_trip_i32(values in prop::collection::vec(prop_oneof![any::<i32>(), Just(i32::MIN), Just(i32::MAX), Just(0), Just(-1)], 0..500), skip in 0usize..100, batch in 1usize..200) {
        typed_round_trip(&values, skip, batch)?;
    }

    #[test]
    fn round_trip_i64(values in prop::collection::vec(prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX), Just(0), Just(-1)], 0..500), skip in 0usize..100, batch in 1usize..200) {
        typed_round_trip(&values, skip, batch)?;
    }

    #[test]
    fn round_trip_int96(bytes in prop::collection::vec(any::<[u8; 12]>(), 0..200), skip in 0usize..100, batch in 1usize..200) {
        let values: Vec<Int96> = bytes.into_iter().map(Int96::from_le_bytes).collect();
        typed_round_trip(&values, skip, batch)?;
    }

    #[test]
    fn round_trip_fixed_len_byte_array(
        width in prop_oneof![Just(2usize), Just(16), 1usize..40],
        raw in prop::collection::vec(any::<u8>(), 0..3000),
        skip in 0usize..100,
        max in 1usize..200,
    ) {
        let raw = &raw[..raw.len() / width * width];
        let batch = FixedLenByteArrayBatch::from_bytes(width, raw.to_vec())?;
        let mut page = Vec::new();
        encode_batch(&batch, &mut page);
        prop_assert_eq!(&page, &reference_encode(raw, width));
        prop_assert_eq!(&reference_decode(&page, width), raw);

        let mut decoder = Decoder::try_new(&page, width)?;
        let skipped = decoder.skip(skip)?;
        let mut out = FixedLenByteArrayBatch::new(width);
        while decoder.remaining() > 0 {
            decoder.decode_batch(&mut out, max)?;
        }
        prop_assert_eq!(out.data(), &raw[skipped * width..]);
    }

    /// Any bytes at any width: an error or values, never a panic; a flipped bit in the
    /// data changes exactly one byte of one value.
    #[test]
    fn arbitrary_input_never_panics(page in prop::collection::vec(any::<u8>(), 0..600), width in 0usize..40, bit in any::<prop::sample::Index>()) {
        let Ok(mut decoder) = Decoder::try_new(&page, width) else {
            prop_assert!(width == 0 || page.len() % width != 0);
            return Ok(());
        };
        let mut out = vec![0; page.len()];
        prop_assert_eq!(decoder.decode_bytes(&mut out)?, page.len() / width);
        let _ = decoder.decode(&mut [0.0f32; 8]);
        if !page.is_empty() {
            let bit = bit.index(page.len() * 8);
            let mut flipped = page.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            let mut flipped_out = vec![0; page.len()];
            Decoder::try_new(&flipped, width)?.decode_bytes(&mut flipped_out)?;
            let differing: Vec<usize> = (0..out.len()).filter(|&i| out[i] != flipped_out[i]).collect();
            let n = page.len() / width;
            let (stream, index) = (bit / 8 / n, bit / 8 % n);
            prop_assert_eq!(differing, [index * width + stream]);
        }
    }
}
