//! Dictionary building and gathering, in values/s.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_core::ByteArrayBatch;
use parquet_dictionary::{
    Builder, ByteArrayBuilder, ByteArrayDictionary, Dictionary, IndexDecoder, Limits,
    encode_indices,
};
use std::hint::black_box;

const N: usize = 1 << 20;

fn indices(entries: usize) -> Vec<u32> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    (0..N)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % entries as u64) as u32
        })
        .collect()
}

fn gather(c: &mut Criterion) {
    let mut group = c.benchmark_group("gather");
    group.throughput(Throughput::Elements(N as u64));
    for bits in [4u32, 8, 12, 16] {
        let entries = 1usize << bits;
        let mut page = Vec::new();
        encode_indices(&indices(entries), entries, &mut page);
        let ints = Dictionary::from((0..entries as i64).map(|i| i * 7919).collect::<Vec<_>>());
        let mut out = vec![0i64; N];
        group.bench_with_input(BenchmarkId::new("i64", entries), &page, |b, page| {
            b.iter(|| {
                IndexDecoder::try_new(black_box(page))
                    .unwrap()
                    .gather(&ints, &mut out)
                    .unwrap()
            });
        });
        let strings = ByteArrayDictionary::from(
            (0..entries)
                .map(|i| format!("value-{i:08}"))
                .collect::<ByteArrayBatch>(),
        );
        let mut batch = ByteArrayBatch::with_capacity(N, N * 14);
        group.bench_with_input(BenchmarkId::new("strings", entries), &page, |b, page| {
            b.iter(|| {
                batch.clear();
                IndexDecoder::try_new(black_box(page))
                    .unwrap()
                    .gather_byte_arrays(&strings, &mut batch, N)
                    .unwrap()
            });
        });
    }
    group.finish();
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group.throughput(Throughput::Elements(N as u64));
    let keys = indices(1 << 12);
    let ints: Vec<i64> = keys.iter().map(|&k| i64::from(k) * 7919).collect();
    let strings: Vec<String> = keys.iter().map(|k| format!("value-{k:08}")).collect();
    let mut out = Vec::with_capacity(N);
    group.bench_function("i64, 4096 distinct", |b| {
        b.iter(|| {
            out.clear();
            let mut builder = Builder::<i64>::new(Limits::default());
            let _ = builder.intern(black_box(&ints), &mut out);
        });
    });
    group.bench_function("strings, 4096 distinct", |b| {
        b.iter(|| {
            out.clear();
            let mut builder = ByteArrayBuilder::new(Limits::default());
            let _ = builder.intern(black_box(&strings).iter().map(String::as_bytes), &mut out);
        });
    });
    group.finish();
}

criterion_group!(benches, gather, build);
criterion_main!(benches);
