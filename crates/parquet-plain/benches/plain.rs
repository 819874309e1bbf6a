//! Decoding and encoding 1 Mi PLAIN values of each physical type, beside a `memcpy` of
//! the same output bytes. Throughput is reported in values/s and in bytes/s of decoded
//! output (for byte arrays, of the page).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
use parquet_plain::{Decoder, PlainType, byte_array, encode, fixed_len_byte_array};
use std::hint::black_box;

const N: usize = 1 << 20;

fn random(seed: u64) -> impl Iterator<Item = u64> {
    let mut state = seed | 1;
    core::iter::repeat_with(move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    })
}

fn throughput(values: usize, bytes: usize) -> Throughput {
    Throughput::ElementsAndBytes {
        elements: values as u64,
        bytes: bytes as u64,
    }
}

fn bench_fixed<T: PlainType>(c: &mut Criterion, name: &str, values: &[T], size: usize) {
    let mut page = Vec::new();
    encode(values, &mut page);
    let mut out = vec![T::default(); values.len()];

    let mut group = c.benchmark_group("plain_decode");
    group.throughput(throughput(values.len(), values.len() * size));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut decoder = Decoder::<T>::try_new(black_box(&page), N).unwrap();
            decoder.decode(&mut out).unwrap()
        });
    });
    group.finish();

    let mut group = c.benchmark_group("plain_encode");
    group.throughput(throughput(values.len(), values.len() * size));
    let mut encoded = Vec::with_capacity(page.len());
    group.bench_function(name, |b| {
        b.iter(|| {
            encoded.clear();
            encode(black_box(values), &mut encoded);
        });
    });
    group.finish();
}

fn bench_byte_arrays(c: &mut Criterion, name: &str, max_len: u64) {
    let data: Vec<u8> = random(7)
        .take(N * max_len as usize / 2 + 8)
        .map(|v| v as u8)
        .collect();
    let mut start = 0;
    let values: Vec<&[u8]> = random(11)
        .take(N)
        .map(|v| {
            let len = (v % (max_len + 1)) as usize;
            let value = &data[start % (data.len() - len)..][..len];
            start += 13;
            value
        })
        .collect();
    let mut page = Vec::new();
    byte_array::encode(&values, &mut page).unwrap();

    let mut group = c.benchmark_group("plain_decode");
    group.throughput(throughput(N, page.len()));
    let mut batch = ByteArrayBatch::with_capacity(N, page.len());
    group.bench_function(BenchmarkId::new(name, "batch"), |b| {
        b.iter(|| {
            batch.clear();
            let mut decoder = byte_array::Decoder::try_new(black_box(&page), N).unwrap();
            decoder.decode(&mut batch, N).unwrap()
        });
    });
    group.bench_function(BenchmarkId::new(name, "borrow"), |b| {
        b.iter(|| {
            let mut decoder = byte_array::Decoder::try_new(black_box(&page), N).unwrap();
            let mut total = 0;
            while let Some(value) = decoder.next_value().unwrap() {
                total += black_box(value).len();
            }
            total
        });
    });
    group.finish();

    let mut group = c.benchmark_group("plain_encode");
    group.throughput(throughput(N, page.len()));
    let mut encoded = Vec::with_capacity(page.len());
    group.bench_function(name, |b| {
        b.iter(|| {
            encoded.clear();
            byte_array::encode(black_box(&values), &mut encoded).unwrap();
        });
    });
    group.finish();
}

fn plain(c: &mut Criterion) {
    let i32s: Vec<i32> = random(1).take(N).map(|v| v as i32).collect();
    let i64s: Vec<i64> = random(2).take(N).map(|v| v as i64).collect();
    let f32s: Vec<f32> = random(3)
        .take(N)
        .map(|v| f32::from_bits(v as u32))
        .collect();
    let f64s: Vec<f64> = random(4).take(N).map(f64::from_bits).collect();
    let int96s: Vec<Int96> = random(5)
        .take(N)
        .map(|v| Int96::from_unix_nanos(v as i64 >> 8))
        .collect();
    let bools: Vec<bool> = random(6).take(N).map(|v| v & 1 == 1).collect();
    bench_fixed(c, "i32", &i32s, 4);
    bench_fixed(c, "i64", &i64s, 8);
    bench_fixed(c, "f32", &f32s, 4);
    bench_fixed(c, "f64", &f64s, 8);
    bench_fixed(c, "int96", &int96s, 12);
    bench_fixed(c, "bool", &bools, 1);

    let page: Vec<u8> = random(8).take(N * 16).map(|v| v as u8).collect();
    let mut group = c.benchmark_group("plain_decode");
    group.throughput(throughput(N, page.len()));
    let mut batch = FixedLenByteArrayBatch::with_capacity(16, N);
    group.bench_function("flba16", |b| {
        b.iter(|| {
            batch.clear();
            let mut decoder =
                fixed_len_byte_array::Decoder::try_new(black_box(&page), 16, N).unwrap();
            decoder.decode(&mut batch, N).unwrap()
        });
    });
    group.finish();

    bench_byte_arrays(c, "byte_array_0_16", 16);
    bench_byte_arrays(c, "byte_array_0_200", 200);

    let mut group = c.benchmark_group("memcpy");
    for bytes in [N, 4 * N, 8 * N] {
        let source = vec![7u8; bytes];
        let mut target = vec![0u8; bytes];
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(format!("{} MiB", bytes >> 20), |b| {
            b.iter(|| target.copy_from_slice(black_box(&source)));
        });
    }
    group.finish();
}

criterion_group!(benches, plain);
criterion_main!(benches);
