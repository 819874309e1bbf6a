//! The RLE/bit-packing hybrid against arrow-rs's `RleDecoder`: definition levels, and
//! dictionary indices in bit-packed runs and in RLE runs.

use crate::{Bench, N};
use bytes::Bytes;
use parquet::encodings::rle::RleDecoder;
use parquet::util::bit_util::BitPacking;
use parquet_kit_compare::Rng;
use std::hint::black_box;

pub fn run(bench: &mut Bench) {
    let mut rng = Rng::new(0x5DEE_CE66_D1CE_4E5B);
    // Definition levels (bit width 1) of a column with half its values null.
    let levels: Vec<u16> = (0..N).map(|_| (rng.next_u64() & 1) as u16).collect();
    decode::<u16, i16>(bench, "RLE hybrid, levels with 50% nulls (u16)", 1, &levels);
    // Indices into a dictionary of 2^10 entries: random (bit-packed runs), then in runs of
    // 64 equal values (RLE runs).
    let random: Vec<u32> = (0..N).map(|_| rng.below(1 << 10) as u32).collect();
    decode::<u32, i32>(
        bench,
        "RLE hybrid, bit-packed indices, width 10 (u32)",
        10,
        &random,
    );
    let runs: Vec<u32> = (0..N / 64)
        .flat_map(|_| std::iter::repeat_n(rng.below(1 << 10) as u32, 64))
        .collect();
    decode::<u32, i32>(bench, "RLE hybrid, runs of 64, width 10 (u32)", 10, &runs);
}

/// Decodes `values`, encoded at `width`, into `T` (ours: `u16` for levels, `u32` for
/// indices) and `A` (arrow-rs's own types for them: `i16` and `i32`).
fn decode<T, A>(bench: &mut Bench, name: &str, width: u8, values: &[T])
where
    T: parquet_bitpack::Packable + TryFrom<u32> + Into<u32> + PartialEq + std::fmt::Debug,
    A: BitPacking + Clone + Default + Into<i64> + Copy,
{
    if !bench.wanted(name) {
        return;
    }
    let mut encoded = Vec::new();
    parquet_rle::encode(values, width, &mut encoded);
    let bytes = Bytes::from(encoded.clone());
    let mut ours = vec![T::default(); N];
    let mut theirs = vec![A::default(); N];
    assert_eq!(
        parquet_rle::Decoder::try_new(&encoded, width)
            .unwrap()
            .decode(&mut ours)
            .unwrap(),
        N
    );
    let mut arrow = RleDecoder::new(width);
    arrow.set_data(bytes.clone()).unwrap();
    assert_eq!(arrow.get_batch(&mut theirs).unwrap(), N);
    assert_eq!(ours, values);
    assert!(
        theirs
            .iter()
            .zip(values)
            .all(|(&t, &v)| t.into() == i64::from(v.into()))
    );
    bench.run(
        name,
        N,
        N * size_of::<T>(),
        &mut || {
            let mut decoder = parquet_rle::Decoder::try_new(black_box(&encoded), width).unwrap();
            decoder.decode(&mut ours).unwrap();
        },
        &mut || {
            let mut decoder = RleDecoder::new(width);
            decoder.set_data(black_box(bytes.clone())).unwrap();
            decoder.get_batch(&mut theirs).unwrap();
        },
    );
}
