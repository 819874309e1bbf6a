//! PLAIN against arrow-rs's `PlainDecoder`: INT32, INT64, DOUBLE, and short strings (into
//! a batch, and borrowed; arrow-rs hands out `ByteArray`s sharing the input, copying no
//! bytes).

use crate::{Bench, N, arrow_decode, arrow_decoder};
use bytes::Bytes;
use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType, DataType, DoubleType, Int32Type, Int64Type};
use parquet_core::ByteArrayBatch;
use parquet_kit_compare::Rng;
use parquet_plain::PlainType;
use std::hint::black_box;

pub fn run(bench: &mut Bench) {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    let ints: Vec<i32> = (0..N).map(|_| rng.next_u64() as i32).collect();
    let longs: Vec<i64> = (0..N).map(|_| rng.next_u64() as i64).collect();
    let doubles: Vec<f64> = (0..N).map(|_| rng.next_u64() as f64 / 7.0).collect();
    fixed::<Int32Type>(bench, "PLAIN i32", PhysicalType::INT32, &ints);
    fixed::<Int64Type>(bench, "PLAIN i64", PhysicalType::INT64, &longs);
    fixed::<DoubleType>(bench, "PLAIN f64", PhysicalType::DOUBLE, &doubles);
    let strings: Vec<Vec<u8>> = (0..N)
        .map(|_| {
            let len = rng.below(17);
            (0..len).map(|_| b'a' + rng.below(26) as u8).collect()
        })
        .collect();
    byte_arrays(bench, "short strings", &strings);
}

fn fixed<T>(bench: &mut Bench, name: &str, physical: PhysicalType, values: &[T::T])
where
    T: DataType,
    T::T: PlainType,
{
    if !bench.wanted(name) {
        return;
    }
    let mut page = Vec::new();
    parquet_plain::encode(values, &mut page);
    let bytes = Bytes::from(page.clone());
    let mut ours = vec![T::T::default(); N];
    let mut theirs = vec![T::T::default(); N];
    let mut arrow = arrow_decoder::<T>(physical, -1, Encoding::PLAIN);
    assert_eq!(arrow_decode(&mut *arrow, &bytes, &mut theirs), N);
    parquet_plain::Decoder::<T::T>::try_new(&page, N)
        .unwrap()
        .decode(&mut ours)
        .unwrap();
    assert!(ours == values && theirs == values);
    bench.run(
        name,
        N,
        page.len(),
        &mut || {
            parquet_plain::Decoder::<T::T>::try_new(black_box(&page), N)
                .unwrap()
                .decode(&mut ours)
                .unwrap();
        },
        &mut || {
            arrow_decode(&mut *arrow, black_box(&bytes), &mut theirs);
        },
    );
}

fn byte_arrays(bench: &mut Bench, shape: &str, values: &[Vec<u8>]) {
    let copy = format!("PLAIN {shape}, into a batch");
    let borrow = format!("PLAIN {shape}, borrowed");
    if !bench.wanted(&copy) && !bench.wanted(&borrow) {
        return;
    }
    let mut page = Vec::new();
    parquet_plain::byte_array::encode(values, &mut page).unwrap();
    let bytes = Bytes::from(page.clone());
    let total: usize = values.iter().map(Vec::len).sum();
    let mut batch = ByteArrayBatch::with_capacity(N, total);
    let mut theirs = vec![ByteArray::new(); N];
    let mut arrow = arrow_decoder::<ByteArrayType>(PhysicalType::BYTE_ARRAY, -1, Encoding::PLAIN);
    assert_eq!(arrow_decode(&mut *arrow, &bytes, &mut theirs), N);
    parquet_plain::byte_array::Decoder::try_new(&page, N)
        .unwrap()
        .decode(&mut batch, N)
        .unwrap();
    assert!(batch.iter().eq(values.iter().map(Vec::as_slice)));
    assert!(
        theirs
            .iter()
            .map(ByteArray::data)
            .eq(values.iter().map(Vec::as_slice))
    );
    let mut theirs_run = || {
        arrow_decode(&mut *arrow, black_box(&bytes), &mut theirs);
    };
    bench.run(
        &copy,
        N,
        total + 4 * N,
        &mut || {
            batch.clear();
            parquet_plain::byte_array::Decoder::try_new(black_box(&page), N)
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
            let mut decoder =
                parquet_plain::byte_array::Decoder::try_new(black_box(&page), N).unwrap();
            while let Some(value) = decoder.next_value().unwrap() {
                borrowed.push(value);
            }
        },
        &mut theirs_run,
    );
}
