//! DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY against arrow-rs's
//! `DeltaBitPackDecoder`, `DeltaLengthByteArrayDecoder` and `DeltaByteArrayDecoder`.
//!
//! arrow-rs decodes byte arrays to `ByteArray`s that share the input buffer, copying no
//! bytes; parquet-kit is measured both copying into a `ByteArrayBatch` (one data buffer,
//! ready for use) and, for DELTA_LENGTH_BYTE_ARRAY, borrowing slices of the input.

use crate::{Bench, N, arrow_decode};
use bytes::Bytes;
use parquet::data_type::{ByteArray, ByteArrayType, DataType, Int32Type, Int64Type};
use parquet::encodings::decoding::{
    Decoder, DeltaBitPackDecoder, DeltaByteArrayDecoder, DeltaLengthByteArrayDecoder,
};
use parquet_core::ByteArrayBatch;
use parquet_delta::binary_packed::{self, Integer, Params};
use parquet_delta::{byte_array, length_byte_array};
use parquet_kit_compare::Rng;
use std::hint::black_box;

pub fn run(bench: &mut Bench) {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let random32: Vec<i32> = (0..N).map(|_| rng.next_u64() as i32).collect();
    let narrow32: Vec<i32> = (0..N).map(|_| rng.below(1024) as i32).collect();
    let mut t = 1_700_000_000_i64;
    let timestamps: Vec<i64> = (0..N)
        .map(|_| {
            t += 1000 + rng.below(100) as i64;
            t
        })
        .collect();
    let random64: Vec<i64> = (0..N).map(|_| rng.next_u64() as i64).collect();
    let arrow32 = DeltaBitPackDecoder::<Int32Type>::new;
    let arrow64 = DeltaBitPackDecoder::<Int64Type>::new;
    integers(
        bench,
        "DELTA_BINARY_PACKED i32 random",
        &random32,
        arrow32(),
    );
    integers(
        bench,
        "DELTA_BINARY_PACKED i32 narrow",
        &narrow32,
        arrow32(),
    );
    integers(
        bench,
        "DELTA_BINARY_PACKED i64 random",
        &random64,
        arrow64(),
    );
    integers(
        bench,
        "DELTA_BINARY_PACKED i64 timestamps",
        &timestamps,
        arrow64(),
    );

    let word = |rng: &mut Rng, len: u64| -> Vec<u8> {
        (0..len).map(|_| b'a' + rng.below(26) as u8).collect()
    };
    let short: Vec<Vec<u8>> = (0..N)
        .map(|_| {
            let len = rng.below(16);
            word(&mut rng, len)
        })
        .collect();
    let long: Vec<Vec<u8>> = (0..N)
        .map(|_| {
            let len = 64 + rng.below(192);
            word(&mut rng, len)
        })
        .collect();
    let mut urls: Vec<Vec<u8>> = (0..N)
        .map(|_| {
            format!(
                "https://example.com/users/{:08}/items/{}",
                rng.below(200_000),
                rng.below(1000)
            )
            .into_bytes()
        })
        .collect();
    urls.sort();
    length_byte_arrays(bench, "short strings", &short);
    length_byte_arrays(bench, "long strings", &long);
    front_compressed(bench, "short strings", &short);
    front_compressed(bench, "sorted URLs", &urls);
}

fn integers<T>(bench: &mut Bench, name: &str, values: &[T::T], mut arrow: impl Decoder<T>)
where
    T: DataType,
    T::T: Integer + Copy + Default + PartialEq + std::fmt::Debug,
{
    if !bench.wanted(name) {
        return;
    }
    let mut encoded = Vec::new();
    binary_packed::encode(values, Params::default(), &mut encoded);
    let bytes = Bytes::from(encoded.clone());
    let mut ours = vec![T::T::default(); N];
    let mut theirs = vec![T::T::default(); N];
    assert_eq!(arrow_decode(&mut arrow, &bytes, &mut theirs), N);
    binary_packed::Decoder::<T::T>::try_new(&encoded)
        .unwrap()
        .decode(&mut ours)
        .unwrap();
    assert_eq!(ours, values);
    assert_eq!(theirs, values);
    bench.run(
        name,
        N,
        N * size_of::<T::T>(),
        &mut || {
            let mut decoder = binary_packed::Decoder::<T::T>::try_new(black_box(&encoded)).unwrap();
            decoder.decode(&mut ours).unwrap();
        },
        &mut || {
            arrow_decode(&mut arrow, black_box(&bytes), &mut theirs);
        },
    );
}

fn length_byte_arrays(bench: &mut Bench, shape: &str, values: &[Vec<u8>]) {
    let copy = format!("DELTA_LENGTH_BYTE_ARRAY {shape}, into a batch");
    let borrow = format!("DELTA_LENGTH_BYTE_ARRAY {shape}, borrowed");
    if !bench.wanted(&copy) && !bench.wanted(&borrow) {
        return;
    }
    let total: usize = values.iter().map(Vec::len).sum();
    let mut encoded = Vec::new();
    length_byte_array::encode(
        values.iter().map(Vec::as_slice),
        Params::default(),
        &mut encoded,
    )
    .unwrap();
    let bytes = Bytes::from(encoded.clone());
    let mut arrow = DeltaLengthByteArrayDecoder::<ByteArrayType>::new();
    let mut theirs = vec![ByteArray::new(); N];
    assert_eq!(arrow_decode(&mut arrow, &bytes, &mut theirs), N);
    assert!(
        theirs
            .iter()
            .map(ByteArray::data)
            .eq(values.iter().map(Vec::as_slice))
    );
    let mut batch = ByteArrayBatch::with_capacity(N, total);
    length_byte_array::Decoder::try_new(&encoded)
        .unwrap()
        .decode(&mut batch, N)
        .unwrap();
    assert!(batch.iter().eq(values.iter().map(Vec::as_slice)));
    let mut theirs_run = || {
        arrow_decode(&mut arrow, black_box(&bytes), &mut theirs);
    };
    bench.run(
        &copy,
        N,
        total + 4 * N,
        &mut || {
            batch.clear();
            length_byte_array::Decoder::try_new(black_box(&encoded))
                .unwrap()
                .decode(&mut batch, N)
                .unwrap();
        },
        &mut theirs_run,
    );
    let mut borrowed: Vec<&[u8]> = Vec::with_capacity(N);
    bench.run(
        &borrow,
        N,
        16 * N,
        &mut || {
            borrowed.clear();
            length_byte_array::Decoder::try_new(black_box(&encoded))
                .unwrap()
                .decode_borrowed(&mut borrowed, N)
                .unwrap();
        },
        &mut theirs_run,
    );
}

fn front_compressed(bench: &mut Bench, shape: &str, values: &[Vec<u8>]) {
    let name = format!("DELTA_BYTE_ARRAY {shape}, into a batch");
    if !bench.wanted(&name) {
        return;
    }
    let total: usize = values.iter().map(Vec::len).sum();
    let mut encoded = Vec::new();
    byte_array::encode(
        values.iter().map(Vec::as_slice),
        Params::default(),
        &mut encoded,
    )
    .unwrap();
    let bytes = Bytes::from(encoded.clone());
    let mut arrow = DeltaByteArrayDecoder::<ByteArrayType>::new();
    let mut theirs = vec![ByteArray::new(); N];
    assert_eq!(arrow_decode(&mut arrow, &bytes, &mut theirs), N);
    assert!(
        theirs
            .iter()
            .map(ByteArray::data)
            .eq(values.iter().map(Vec::as_slice))
    );
    let mut batch = ByteArrayBatch::with_capacity(N, total);
    let mut decoder = byte_array::Decoder::try_new(&encoded).unwrap();
    while decoder.decode(&mut batch, N).unwrap() > 0 {}
    assert!(batch.iter().eq(values.iter().map(Vec::as_slice)));
    bench.run(
        &name,
        N,
        total + 4 * N,
        &mut || {
            batch.clear();
            let mut decoder = byte_array::Decoder::try_new(black_box(&encoded)).unwrap();
            while decoder.decode(&mut batch, N).unwrap() > 0 {}
        },
        &mut || {
            arrow_decode(&mut arrow, black_box(&bytes), &mut theirs);
        },
    );
}
