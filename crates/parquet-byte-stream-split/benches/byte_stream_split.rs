//! Decoding and encoding 1 Mi BYTE_STREAM_SPLIT values of each width, with the kernels
//! chosen at run time and with the portable build, beside a `memcpy` of the same output
//! bytes. Throughput is reported in values/s and in bytes/s of decoded output.
#![allow(missing_docs, clippy::unwrap_used, clippy::cast_possible_truncation)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet_byte_stream_split::{Decoder, encode, encode_bytes, portable};
use parquet_core::{FixedLenByteArrayBatch, FixedWidth};
use std::hint::black_box;

const N: usize = 1 << 20;

fn random_bytes(len: usize) -> Vec<u8> {
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect()
}

fn throughput(width: usize) -> Throughput {
    Throughput::ElementsAndBytes {
        elements: N as u64,
        bytes: (N * width) as u64,
    }
}

fn bench_typed<T: FixedWidth>(c: &mut Criterion, name: &str) {
    let raw = random_bytes(N * T::SIZE);
    let mut values = vec![T::default(); N];
    T::slice_from_le_bytes(&raw, &mut values);
    let mut page = Vec::new();
    encode(&values, &mut page);

    let mut group = c.benchmark_group("bss_decode");
    group.throughput(throughput(T::SIZE));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut decoder = Decoder::try_new(black_box(&page), T::SIZE).unwrap();
            decoder.decode(&mut values).unwrap()
        });
    });
    group.bench_function(format!("{name}_portable"), |b| {
        b.iter(|| {
            let mut decoder = portable::decoder(black_box(&page), T::SIZE).unwrap();
            decoder.decode(&mut values).unwrap()
        });
    });
    group.finish();

    let mut group = c.benchmark_group("bss_encode");
    group.throughput(throughput(T::SIZE));
    let mut encoded = Vec::with_capacity(page.len());
    group.bench_function(name, |b| {
        b.iter(|| {
            encoded.clear();
            encode(black_box(&values), &mut encoded);
        });
    });
    group.bench_function(format!("{name}_portable"), |b| {
        b.iter(|| {
            encoded.clear();
            portable::encode(black_box(&values), &mut encoded);
        });
    });
    group.finish();
}

fn bench_bytes(c: &mut Criterion, width: usize) {
    let raw = random_bytes(N * width);
    let mut page = Vec::new();
    encode_bytes(&raw, width, &mut page).unwrap();
    let mut out = vec![0; raw.len()];
    let mut batch = FixedLenByteArrayBatch::with_capacity(width, N);

    let mut group = c.benchmark_group("bss_decode");
    group.throughput(throughput(width));
    group.bench_function(format!("bytes_{width}"), |b| {
        b.iter(|| {
            let mut decoder = Decoder::try_new(black_box(&page), width).unwrap();
            decoder.decode_bytes(&mut out).unwrap()
        });
    });
    group.bench_function(format!("batch_{width}"), |b| {
        b.iter(|| {
            batch.clear();
            let mut decoder = Decoder::try_new(black_box(&page), width).unwrap();
            decoder.decode_batch(&mut batch, N).unwrap()
        });
    });
    group.finish();

    let mut group = c.benchmark_group("bss_encode");
    group.throughput(throughput(width));
    let mut encoded = Vec::with_capacity(page.len());
    group.bench_function(format!("bytes_{width}"), |b| {
        b.iter(|| {
            encoded.clear();
            encode_bytes(black_box(&raw), width, &mut encoded).unwrap();
        });
    });
    group.finish();
}

fn byte_stream_split(c: &mut Criterion) {
    bench_typed::<f32>(c, "f32");
    bench_typed::<f64>(c, "f64");
    for width in [2, 16, 12, 3] {
        bench_bytes(c, width);
    }

    let mut group = c.benchmark_group("memcpy");
    for bytes in [4 * N, 8 * N, 16 * N] {
        let source = vec![7u8; bytes];
        let mut target = vec![0u8; bytes];
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(format!("{} MiB", bytes >> 20), |b| {
            b.iter(|| target.copy_from_slice(black_box(&source)));
        });
    }
    group.finish();
}

criterion_group!(benches, byte_stream_split);
criterion_main!(benches);
