//! Decoding (and encoding) 1 Mi values of each delta encoding, on the data shapes of the
//! design's workloads, beside a `memcpy` of the same output bytes.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_core::ByteArrayBatch;
use parquet_delta::binary_packed::{self, Params};
use parquet_delta::{byte_array, length_byte_array};
use std::hint::black_box;

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

fn integers(shape: &str) -> Vec<i64> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    match shape {
        "random" => (0..N).map(|_| rng.next() as i64).collect(),
        "narrow" => (0..N).map(|_| (rng.next() % 1024) as i64).collect(),
        "constant" => vec![42; N],
        _ => {
            let mut t = 1_700_000_000_000i64;
            (0..N)
                .map(|_| {
                    t += 1000 + (rng.next() % 100) as i64;
                    t
                })
                .collect()
        }
    }
}

fn strings(shape: &str) -> Vec<Vec<u8>> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut word =
        |len: usize| -> Vec<u8> { (0..len).map(|_| b'a' + (rng.next() % 26) as u8).collect() };
    match shape {
        "short" => (0..N).map(|i| word(i * 7 % 16)).collect(),
        "long" => (0..N).map(|i| word(64 + i * 61 % 192)).collect(),
        _ => {
            let mut values: Vec<Vec<u8>> = (0..N)
                .map(|i| {
                    format!(
                        "https://example.com/users/{:08}/items/{}",
                        i * 7919 % 200_000,
                        i % 1000
                    )
                    .into_bytes()
                })
                .collect();
            values.sort();
            values
        }
    }
}

const SHAPES: [&str; 4] = ["random", "narrow", "constant", "timestamps"];

fn binary_packed(c: &mut Criterion) {
    let mut group = c.benchmark_group("binary_packed_decode");
    group.throughput(Throughput::Elements(N as u64));
    group.sample_size(20);
    let mut out32 = vec![0i32; N];
    let mut out64 = vec![0i64; N];
    for shape in SHAPES {
        let values = integers(shape);
        let narrow: Vec<i32> = values.iter().map(|&v| v as i32).collect();
        let mut encoded32 = Vec::new();
        binary_packed::encode(&narrow, Params::default(), &mut encoded32);
        let mut encoded64 = Vec::new();
        binary_packed::encode(&values, Params::default(), &mut encoded64);
        group.bench_with_input(BenchmarkId::new("i32", shape), &encoded32, |b, input| {
            b.iter(|| {
                let mut decoder = binary_packed::Decoder::<i32>::try_new(black_box(input)).unwrap();
                decoder.decode(&mut out32).unwrap()
            });
        });
        group.bench_with_input(BenchmarkId::new("i64", shape), &encoded64, |b, input| {
            b.iter(|| {
                let mut decoder = binary_packed::Decoder::<i64>::try_new(black_box(input)).unwrap();
                decoder.decode(&mut out64).unwrap()
            });
        });
        group.bench_with_input(
            BenchmarkId::new("i64 skip", shape),
            &encoded64,
            |b, input| {
                b.iter(|| {
                    let mut decoder =
                        binary_packed::Decoder::<i64>::try_new(black_box(input)).unwrap();
                    decoder.skip(N).unwrap()
                });
            },
        );
    }
    group.finish();

    let mut group = c.benchmark_group("binary_packed_encode");
    group.throughput(Throughput::Elements(N as u64));
    group.sample_size(10);
    let mut encoded = Vec::new();
    for shape in ["random", "timestamps"] {
        let values = integers(shape);
        group.bench_with_input(BenchmarkId::new("i64", shape), &values, |b, values| {
            b.iter(|| {
                encoded.clear();
                binary_packed::encode(black_box(values), Params::default(), &mut encoded);
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("memcpy");
    let source = vec![7u64; N];
    let mut target = vec![0u64; N];
    group.throughput(Throughput::Bytes((N * 8) as u64));
    group.bench_function("8 MiB", |b| {
        b.iter(|| target.copy_from_slice(black_box(&source)));
    });
    group.finish();
}

fn byte_arrays(c: &mut Criterion) {
    let mut group = c.benchmark_group("length_byte_array_decode");
    group.sample_size(10);
    let mut batch = ByteArrayBatch::new();
    for shape in ["short", "long"] {
        let values = strings(shape);
        let bytes: usize = values.iter().map(Vec::len).sum();
        let mut encoded = Vec::new();
        length_byte_array::encode(
            values.iter().map(Vec::as_slice),
            Params::default(),
            &mut encoded,
        )
        .unwrap();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_with_input(BenchmarkId::new("copy", shape), &encoded, |b, input| {
            b.iter(|| {
                batch.clear();
                let mut decoder = length_byte_array::Decoder::try_new(black_box(input)).unwrap();
                decoder.decode(&mut batch, N).unwrap()
            });
        });
        group.bench_with_input(BenchmarkId::new("borrow", shape), &encoded, |b, input| {
            let mut borrowed = Vec::with_capacity(N);
            b.iter(|| {
                borrowed.clear();
                let mut decoder = length_byte_array::Decoder::try_new(black_box(input)).unwrap();
                decoder.decode_borrowed(&mut borrowed, N).unwrap()
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("byte_array_decode");
    group.sample_size(10);
    for shape in ["short", "long", "prefixes"] {
        let values = strings(shape);
        let bytes: usize = values.iter().map(Vec::len).sum();
        let mut encoded = Vec::new();
        byte_array::encode(
            values.iter().map(Vec::as_slice),
            Params::default(),
            &mut encoded,
        )
        .unwrap();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_with_input(BenchmarkId::new("decode", shape), &encoded, |b, input| {
            b.iter(|| {
                batch.clear();
                let mut decoder = byte_array::Decoder::try_new(black_box(input)).unwrap();
                while decoder.remaining() > 0 {
                    decoder.decode(&mut batch, N).unwrap();
                }
            });
        });
        let mut out = Vec::new();
        group.bench_with_input(BenchmarkId::new("encode", shape), &values, |b, values| {
            b.iter(|| {
                out.clear();
                byte_array::encode(
                    values.iter().map(Vec::as_slice),
                    Params::default(),
                    &mut out,
                )
                .unwrap();
            });
        });
    }
    group.finish();
}

criterion_group!(benches, binary_packed, byte_arrays);
criterion_main!(benches);
