//! Varint and GroupVarInt decoding, in values/s.
#![allow(missing_docs, clippy::unwrap_used, clippy::cast_possible_truncation)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet_core::{Cursor, group_var_int, varint};
use std::hint::black_box;

const N: usize = 1 << 16;

/// Values of mixed magnitude: mostly small, sometimes wide.
fn values() -> Vec<u64> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    (0..N)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state >> (state % 64)
        })
        .collect()
}

fn varints(c: &mut Criterion) {
    let values = values();
    let mut encoded = Vec::new();
    for &v in &values {
        varint::encode_u64(v, &mut encoded);
    }
    let mut group = c.benchmark_group("varint");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("decode_u64", |b| {
        b.iter(|| {
            let mut cursor = Cursor::new(black_box(&encoded));
            let mut sum = 0u64;
            for _ in 0..N {
                sum = sum.wrapping_add(cursor.read_uleb128_u64("value").unwrap());
            }
            sum
        });
    });
    group.bench_function("encode_u64", |b| {
        let mut out = Vec::with_capacity(encoded.len());
        b.iter(|| {
            out.clear();
            for &v in black_box(&values) {
                varint::encode_u64(v, &mut out);
            }
        });
    });
    group.finish();
}

fn group_var_ints(c: &mut Criterion) {
    let values: Vec<i32> = values().iter().map(|&v| v as i32).collect();
    let mut encoded = Vec::new();
    group_var_int::encode(&values, &mut encoded);
    let mut out = vec![0i32; N];
    let mut group = c.benchmark_group("group_var_int");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("decode_i32", |b| {
        b.iter(|| group_var_int::decode(black_box(&encoded), &mut out).unwrap());
    });
    group.finish();
}

criterion_group!(benches, varints, group_var_ints);
criterion_main!(benches);
