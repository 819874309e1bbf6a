//! BYTE_STREAM_SPLIT against arrow-rs's decoder, for FLOAT and DOUBLE.

use crate::{Bench, N, arrow_decode, arrow_decoder};
use bytes::Bytes;
use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::data_type::{DataType, DoubleType, FloatType};
use parquet_core::FixedWidth;
use parquet_kit_compare::Rng;
use std::hint::black_box;

pub fn run(bench: &mut Bench) {
    let mut rng = Rng::new(0xB5B5_0000_1111_2222);
    let floats: Vec<f32> = (0..N).map(|_| rng.next_u64() as f32 / 3.0).collect();
    let doubles: Vec<f64> = (0..N).map(|_| rng.next_u64() as f64 / 3.0).collect();
    let detect = Kernels::Detect;
    decode::<FloatType>(
        bench,
        "BYTE_STREAM_SPLIT f32",
        PhysicalType::FLOAT,
        &floats,
        detect,
    );
    decode::<DoubleType>(
        bench,
        "BYTE_STREAM_SPLIT f64",
        PhysicalType::DOUBLE,
        &doubles,
        detect,
    );
    // What a CPU without AVX2 runs.
    let name = "BYTE_STREAM_SPLIT f32, portable kernels";
    decode::<FloatType>(bench, name, PhysicalType::FLOAT, &floats, Kernels::Portable);
}

/// Which build of parquet-kit's kernels to measure.
#[derive(Clone, Copy)]
enum Kernels {
    Detect,
    Portable,
}

fn decode<T>(
    bench: &mut Bench,
    name: &str,
    physical: PhysicalType,
    values: &[T::T],
    kernels: Kernels,
) where
    T: DataType,
    T::T: FixedWidth,
{
    if !bench.wanted(name) {
        return;
    }
    let mut page = Vec::new();
    parquet_byte_stream_split::encode(values, &mut page);
    let bytes = Bytes::from(page.clone());
    let mut ours = vec![T::T::default(); N];
    let mut theirs = vec![T::T::default(); N];
    let mut arrow = arrow_decoder::<T>(physical, -1, Encoding::BYTE_STREAM_SPLIT);
    assert_eq!(arrow_decode(&mut *arrow, &bytes, &mut theirs), N);
    let width = T::T::SIZE;
    parquet_byte_stream_split::Decoder::try_new(&page, width)
        .unwrap()
        .decode(&mut ours)
        .unwrap();
    let bits = |v: &[T::T]| {
        v.iter()
            .map(|x| x.to_le_bytes().as_ref().to_vec())
            .collect::<Vec<_>>()
    };
    assert!(bits(&ours) == bits(values) && bits(&theirs) == bits(values));
    bench.run(
        name,
        N,
        page.len(),
        &mut || {
            let page = black_box(&page);
            let mut decoder = match kernels {
                Kernels::Detect => parquet_byte_stream_split::Decoder::try_new(page, width),
                Kernels::Portable => parquet_byte_stream_split::portable::decoder(page, width),
            }
            .unwrap();
            decoder.decode(&mut ours).unwrap();
        },
        &mut || {
            arrow_decode(&mut *arrow, black_box(&bytes), &mut theirs);
        },
    );
}
