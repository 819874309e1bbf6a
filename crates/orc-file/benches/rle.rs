//! Decoding 1 Mi values of ORC's integer RLE, versions 1 and 2, for the data shapes
//! that pick each v2 sub-encoding: runs (`SHORT_REPEAT` and fixed DELTA), random small
//! widths and random 32-bit values (DIRECT), timestamps-like deltas (DELTA) and
//! patched-base-shaped data (`PATCHED_BASE`); then byte and boolean RLE, skipping, and
//! encoding.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation
)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use orc_file::rle::{Sign, Version, boolean, byte, int};
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

/// The data shapes, each `N` signed values.
fn shapes() -> Vec<(&'static str, Vec<i64>)> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut runs = Vec::with_capacity(N);
    while runs.len() < N {
        let value = (rng.next() % 1000) as i64;
        let len = 3 + (rng.next() % 60) as usize;
        runs.extend(std::iter::repeat_n(value, len.min(N - runs.len())));
    }
    let small: Vec<i64> = (0..N).map(|_| (rng.next() % 16) as i64).collect();
    let random32: Vec<i64> = (0..N).map(|_| i64::from(rng.next() as i32)).collect();
    // Timestamps in milliseconds, a few seconds apart with jitter.
    let mut now = 1_700_000_000_000i64;
    let deltas: Vec<i64> = (0..N)
        .map(|_| {
            now += 1000 + (rng.next() % 64) as i64;
            now
        })
        .collect();
    // Mostly 10-bit values with a 40-bit outlier now and then.
    let patched: Vec<i64> = (0..N)
        .map(|i| {
            if i % 97 == 13 {
                (rng.next() >> 24) as i64
            } else {
                (rng.next() % 1024) as i64
            }
        })
        .collect();
    vec![
        ("runs", runs),
        ("small_width", small),
        ("random_32", random32),
        ("deltas", deltas),
        ("patched_base", patched),
    ]
}

fn encoded(values: &[i64], version: Version) -> Vec<u8> {
    let mut encoder = int::Encoder::new(version, Sign::Signed);
    encoder.extend(values);
    encoder.finish()
}

fn decode(c: &mut Criterion) {
    let mut out = vec![0i64; N];
    for (version, name) in [(Version::V2, "decode_v2"), (Version::V1, "decode_v1")] {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(N as u64));
        for (shape, values) in shapes() {
            let bytes = encoded(&values, version);
            let mut check = int::Decoder::new(&bytes[..], version, Sign::Signed);
            assert_eq!(check.decode(&mut out).unwrap(), N);
            assert!(out == values);
            group.bench_with_input(BenchmarkId::from_parameter(shape), &bytes, |b, bytes| {
                b.iter(|| {
                    let mut decoder =
                        int::Decoder::new(black_box(&bytes[..]), version, Sign::Signed);
                    assert_eq!(decoder.decode(&mut out).unwrap(), N);
                });
            });
        }
        group.finish();
    }
}

fn decode_batches(c: &mut Criterion) {
    // A reader's batches of 1024, which split runs across calls.
    let mut out = vec![0i64; 1024];
    let mut group = c.benchmark_group("decode_v2_batches_of_1024");
    group.throughput(Throughput::Elements(N as u64));
    for (shape, values) in shapes() {
        let bytes = encoded(&values, Version::V2);
        group.bench_with_input(BenchmarkId::from_parameter(shape), &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder =
                    int::Decoder::new(black_box(&bytes[..]), Version::V2, Sign::Signed);
                let mut total = 0;
                while total < N {
                    total += decoder.decode(&mut out).unwrap();
                }
            });
        });
    }
    group.finish();
}

fn skip(c: &mut Criterion) {
    let mut group = c.benchmark_group("skip_v2");
    group.throughput(Throughput::Elements(N as u64));
    for (shape, values) in shapes() {
        let bytes = encoded(&values, Version::V2);
        group.bench_with_input(BenchmarkId::from_parameter(shape), &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder =
                    int::Decoder::new(black_box(&bytes[..]), Version::V2, Sign::Signed);
                assert_eq!(decoder.skip(N).unwrap(), N);
            });
        });
    }
    group.finish();
}

fn bytes_and_booleans(c: &mut Criterion) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut group = c.benchmark_group("decode_byte_boolean");
    group.throughput(Throughput::Elements(N as u64));

    let random: Vec<u8> = (0..N).map(|_| rng.next() as u8).collect();
    let mut runs = Vec::with_capacity(N);
    while runs.len() < N {
        let len = (rng.next() % 200) as usize;
        runs.extend(std::iter::repeat_n(
            rng.next() as u8,
            len.min(N - runs.len()),
        ));
    }
    let mut out = vec![0u8; N];
    for (shape, values) in [("bytes_random", random), ("bytes_runs", runs)] {
        let mut encoder = byte::Encoder::new();
        encoder.extend(&values);
        let bytes = encoder.finish();
        group.bench_with_input(BenchmarkId::from_parameter(shape), &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder = byte::Decoder::new(black_box(&bytes[..]));
                assert_eq!(decoder.decode(&mut out).unwrap(), N);
            });
        });
    }

    let mut bools = vec![false; N];
    for (shape, percent) in [("booleans_1pct_false", 1), ("booleans_50pct", 50)] {
        let values: Vec<bool> = (0..N).map(|_| rng.next() % 100 >= percent).collect();
        let mut encoder = boolean::Encoder::new();
        encoder.extend(&values);
        let bytes = encoder.finish();
        group.bench_with_input(BenchmarkId::from_parameter(shape), &bytes, |b, bytes| {
            b.iter(|| {
                let mut decoder = boolean::Decoder::new(black_box(&bytes[..]));
                assert_eq!(decoder.decode(&mut bools).unwrap(), N);
            });
        });
    }
    group.finish();
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode_v2");
    group.throughput(Throughput::Elements(N as u64));
    for (shape, values) in shapes() {
        group.bench_with_input(BenchmarkId::from_parameter(shape), &values, |b, values| {
            b.iter(|| encoded(black_box(values), Version::V2).len());
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = decode, decode_batches, skip, bytes_and_booleans, encode
}
criterion_main!(benches);
