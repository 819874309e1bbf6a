//! Bloom filter insert and check at L1-, L2- and DRAM-sized filters, and hashing, in
//! values/s. `runtime` is the build chosen at run time (AVX2 where the CPU has it),
//! `portable` the baseline build every CPU runs.
#![allow(missing_docs, clippy::unwrap_used, clippy::cast_possible_truncation)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_bloom::{Sbbf, hash, portable};
use parquet_core::ByteArrayBatch;
use std::hint::black_box;

const N: usize = 1 << 20;

fn random(n: usize, seed: u64) -> Vec<u64> {
    let mut state = seed | 1;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d)
        })
        .collect()
}

const SIZES: [(&str, usize); 3] = [
    ("4KiB", 4 << 10),
    ("256KiB", 256 << 10),
    ("64MiB", 64 << 20),
];

fn insert(c: &mut Criterion) {
    let mut group = c.benchmark_group("insert");
    group.throughput(Throughput::Elements(N as u64));
    let hashes = random(N, 1);
    for (name, bytes) in SIZES {
        let mut filter = Sbbf::new(bytes).unwrap();
        group.bench_function(BenchmarkId::new("runtime", name), |b| {
            b.iter(|| filter.insert_hashes(black_box(&hashes)));
        });
        group.bench_function(BenchmarkId::new("portable", name), |b| {
            b.iter(|| portable::insert_hashes(&mut filter, black_box(&hashes)));
        });
        group.bench_function(BenchmarkId::new("one_by_one", name), |b| {
            b.iter(|| {
                for &hash in black_box(&hashes) {
                    filter.insert_hash(hash);
                }
            });
        });
    }
    group.finish();
}

fn check(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group.throughput(Throughput::Elements(N as u64));
    let probes = random(N, 2);
    for (name, bytes) in SIZES {
        // Filled to 10 bits per value, a 1% rate.
        let mut filter = Sbbf::new(bytes).unwrap();
        filter.insert_hashes(&random(bytes * 8 / 10, 3));
        let mut found = Vec::with_capacity(N);
        group.bench_function(BenchmarkId::new("runtime", name), |b| {
            b.iter(|| {
                found.clear();
                filter.check_hashes(black_box(&probes), &mut found);
            });
        });
        group.bench_function(BenchmarkId::new("portable", name), |b| {
            b.iter(|| {
                found.clear();
                portable::check_hashes(&filter, black_box(&probes), &mut found);
            });
        });
        group.bench_function(BenchmarkId::new("one_by_one", name), |b| {
            b.iter(|| {
                black_box(&probes)
                    .iter()
                    .filter(|&&hash| filter.check_hash(hash))
                    .count()
            });
        });
    }
    group.finish();
}

fn hashing(c: &mut Criterion) {
    let mut group = c.benchmark_group("hash");
    group.throughput(Throughput::Elements(N as u64));
    let raw = random(N, 4);
    let ints: Vec<i64> = raw.iter().map(|&v| v.cast_signed()).collect();
    let ints32: Vec<i32> = raw.iter().map(|&v| v as i32).collect();
    let mut out = Vec::with_capacity(N);
    group.bench_function("i64", |b| {
        b.iter(|| {
            out.clear();
            hash::hash_values(black_box(&ints), &mut out);
        });
    });
    group.bench_function("i64_generic_xxh64", |b| {
        b.iter(|| {
            out.clear();
            out.extend(
                black_box(&ints)
                    .iter()
                    .map(|v| xxhash_rust::xxh64::xxh64(&v.to_le_bytes(), 0)),
            );
        });
    });
    group.bench_function("i32", |b| {
        b.iter(|| {
            out.clear();
            hash::hash_values(black_box(&ints32), &mut out);
        });
    });
    for (name, min, spread) in [("strings_8_24", 8, 17), ("strings_100", 100, 1)] {
        let batch: ByteArrayBatch = raw
            .iter()
            .map(|&v| {
                let len = min + (v % spread) as usize;
                (0..len)
                    .map(|i| b'a' + ((v >> (i % 60)) % 26) as u8)
                    .collect::<Vec<u8>>()
            })
            .collect();
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                hash::hash_byte_arrays(black_box(&batch), &mut out);
            });
        });
        group.bench_function(format!("{name}_generic_xxh64"), |b| {
            b.iter(|| {
                out.clear();
                out.extend(
                    black_box(&batch)
                        .iter()
                        .map(|value| xxhash_rust::xxh64::xxh64(value, 0)),
                );
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = insert, check, hashing
}
criterion_main!(benches);
