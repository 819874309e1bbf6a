//! Decoding and encoding 1 Mi values of the RLE/bit-packing hybrid: runs and bit-packed
//! values at several widths, definition levels, dictionary gathers, skips, and encoding.
#![allow(missing_docs, clippy::unwrap_used, clippy::cast_possible_truncation)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_rle::{Decoder, Encoder, encode};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1 << 20;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `N` values of `width` bits in runs of `run` equal values (`run == 1`: random).
fn values(width: u8, run: usize) -> Vec<u32> {
    let mask = u32::MAX.checked_shr(32 - u32::from(width)).unwrap_or(0);
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ u64::from(width));
    let mut values = Vec::with_capacity(N);
    while values.len() < N {
        let value = (rng.next() >> 32) as u32 & mask;
        values.extend(std::iter::repeat_n(value, run.min(N - values.len())));
    }
    values
}

/// Definition levels (bit width 1) with `percent`% nulls.
fn levels(percent: u64) -> Vec<u16> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..N)
        .map(|_| u16::from(rng.next() % 100 >= percent))
        .collect()
}

fn encoded<T: Copy + Into<u32>>(values: &[T], width: u8) -> Vec<u8> {
    let mut bytes = Vec::new();
    encode(values, width, &mut bytes);
    bytes
}

fn decode(c: &mut Criterion) {
    let mut out = vec![0u32; N];
    let mut group = c.benchmark_group("decode_bit_packed");
    group.throughput(Throughput::Elements(N as u64));
    for width in [1u8, 2, 3, 5, 8, 12, 16, 20, 32] {
        let bytes = encoded(&values(width, 1), width);
        group.bench_with_input(BenchmarkId::from_parameter(width), &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder = Decoder::try_new(black_box(bytes), width).unwrap();
                assert_eq!(decoder.decode(&mut out).unwrap(), N);
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("decode_runs");
    group.throughput(Throughput::Elements(N as u64));
    for width in [1u8, 8, 20] {
        for run in [8, 64, 1000] {
            let bytes = encoded(&values(width, run), width);
            let id = BenchmarkId::new(format!("width {width}"), format!("run {run}"));
            group.bench_with_input(id, &bytes, |b, bytes| {
                b.iter(|| {
                    let mut decoder = Decoder::try_new(black_box(bytes), width).unwrap();
                    assert_eq!(decoder.decode(&mut out).unwrap(), N);
                });
            });
        }
    }
    group.finish();
}

fn levels_and_booleans(c: &mut Criterion) {
    let mut group = c.benchmark_group("levels");
    group.throughput(Throughput::Elements(N as u64));
    let mut out = vec![0u16; N];
    let mut bools = vec![false; N];
    for percent in [0, 1, 50] {
        let bytes = encoded(&levels(percent), 1);
        let id = BenchmarkId::new("u16", format!("{percent}% nulls"));
        group.bench_with_input(id, &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder = Decoder::try_new(black_box(bytes), 1).unwrap();
                assert_eq!(decoder.decode(&mut out).unwrap(), N);
            });
        });
        let id = BenchmarkId::new("bool", format!("{percent}% false"));
        group.bench_with_input(id, &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder = Decoder::try_new(black_box(bytes), 1).unwrap();
                assert_eq!(decoder.decode_bools(&mut bools).unwrap(), N);
            });
        });
    }
    group.finish();
}

fn gather_type<T: Copy + Default>(c: &mut Criterion, name: &str, make: impl Fn(u32) -> T) {
    let mut group = c.benchmark_group(format!("gather_{name}"));
    group.throughput(Throughput::Elements(N as u64));
    let mut out = vec![T::default(); N];
    for bits in [4u8, 10, 16] {
        let dict: Vec<T> = (0..1u32 << bits).map(&make).collect();
        for run in [1, 64] {
            let bytes = encoded(&values(bits, run), bits);
            let shape = if run == 1 { "random" } else { "runs 64" };
            let id = BenchmarkId::new(format!("dict 2^{bits}"), shape);
            group.bench_with_input(id, &bytes, |b, bytes| {
                b.iter(|| {
                    let mut decoder = Decoder::try_new(black_box(bytes), bits).unwrap();
                    assert_eq!(decoder.gather(&dict, &mut out).unwrap(), N);
                });
            });
        }
    }
    group.finish();
}

fn gather(c: &mut Criterion) {
    gather_type(c, "i32", |i| i.wrapping_mul(2_654_435_761).cast_signed());
    gather_type(c, "i64", |i| i64::from(i) << 20);
}

fn skip(c: &mut Criterion) {
    let mut group = c.benchmark_group("skip_100_read_100");
    group.throughput(Throughput::Elements(N as u64));
    let mut out = [0u32; 100];
    for (width, run) in [(1u8, 1), (8, 1), (8, 64), (17, 1)] {
        let bytes = encoded(&values(width, run), width);
        let id = BenchmarkId::new(format!("width {width}"), format!("run {run}"));
        group.bench_with_input(id, &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder = Decoder::try_new(black_box(bytes), width).unwrap();
                for _ in 0..N / 200 {
                    decoder.skip(100).unwrap();
                    decoder.decode(&mut out).unwrap();
                }
            });
        });
    }
    group.finish();
}

fn encoding(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode");
    group.throughput(Throughput::Elements(N as u64));
    let mut out = Vec::with_capacity(N * 4);
    for (width, run) in [(1u8, 1), (8, 1), (20, 1), (8, 8), (8, 64), (8, 1000)] {
        let input = values(width, run);
        let id = BenchmarkId::new(format!("width {width}"), format!("run {run}"));
        group.bench_with_input(id, &input, |b, input| {
            b.iter(|| {
                out.clear();
                encode(black_box(input), width, &mut out);
            });
        });
    }
    for percent in [1, 50] {
        let input = levels(percent);
        let id = BenchmarkId::new("levels", format!("{percent}% nulls"));
        group.bench_with_input(id, &input, |b, input| {
            b.iter(|| {
                out.clear();
                encode(black_box(input), 1, &mut out);
            });
        });
    }
    let input = values(8, 1);
    group.bench_function("put one by one, width 8", |b| {
        b.iter(|| {
            let mut encoder = Encoder::new(8);
            for &value in black_box(&input) {
                encoder.put(value);
            }
            out.clear();
            encoder.finish(&mut out);
        });
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = decode, levels_and_booleans, gather, skip, encoding
}
criterion_main!(benches);
