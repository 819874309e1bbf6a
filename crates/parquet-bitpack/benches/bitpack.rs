//! Unpacking and packing 1 Mi values at each width, with the kernels chosen at run time
//! and with the portable build, beside a `memcpy` of the same output bytes.
#![allow(missing_docs, clippy::unwrap_used, clippy::cast_possible_truncation)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_bitpack::{BLOCK_LEN, Packable, pack_blocks, portable, unpack_blocks};
use std::hint::black_box;

const N: usize = 1 << 20;

fn values(width: u8) -> Vec<[u32; BLOCK_LEN]> {
    let mask = if width == 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    };
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut block = [0u32; BLOCK_LEN];
    (0..N / BLOCK_LEN)
        .map(|_| {
            for v in &mut block {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *v = (state as u32) & mask;
            }
            block
        })
        .collect()
}

fn bench_type<T: Packable>(c: &mut Criterion, name: &str, widths: &[u8]) {
    let mut group = c.benchmark_group(format!("unpack_{name}"));
    group.throughput(Throughput::Elements(N as u64));
    let mut out = vec![[T::default(); BLOCK_LEN]; N / BLOCK_LEN];
    for &width in widths {
        let mut packed = Vec::new();
        pack_blocks(width.min(32), &values(width.min(32)), &mut packed);
        packed.resize(N / 8 * usize::from(width), 0x5a);
        group.bench_with_input(BenchmarkId::new("dispatch", width), &packed, |b, packed| {
            b.iter(|| unpack_blocks(width, black_box(packed), &mut out).unwrap());
        });
        group.bench_with_input(BenchmarkId::new("portable", width), &packed, |b, packed| {
            b.iter(|| portable::unpack_blocks(width, black_box(packed), &mut out).unwrap());
        });
    }
    group.finish();
}

fn unpack(c: &mut Criterion) {
    bench_type::<u32>(c, "u32", &[1, 2, 3, 4, 5, 7, 8, 12, 16, 20, 24, 31, 32]);
    bench_type::<u16>(c, "u16", &[1, 3, 8, 16]);
    bench_type::<u64>(c, "u64", &[8, 20, 33, 47, 64]);

    let mut group = c.benchmark_group("memcpy");
    let source = vec![7u32; N];
    let mut target = vec![0u32; N];
    group.throughput(Throughput::Bytes((N * 4) as u64));
    group.bench_function("4 MiB", |b| {
        b.iter(|| target.copy_from_slice(black_box(&source)));
    });
    group.finish();
}

fn pack(c: &mut Criterion) {
    let mut group = c.benchmark_group("pack_u32");
    group.throughput(Throughput::Elements(N as u64));
    let mut out = Vec::with_capacity(N * 4);
    for width in [1u8, 3, 8, 17, 32] {
        let input = values(width);
        group.bench_with_input(BenchmarkId::new("dispatch", width), &input, |b, input| {
            b.iter(|| {
                out.clear();
                pack_blocks(width, black_box(input), &mut out);
            });
        });
        group.bench_with_input(BenchmarkId::new("portable", width), &input, |b, input| {
            b.iter(|| {
                out.clear();
                portable::pack_blocks(width, black_box(input), &mut out);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, unpack, pack);
criterion_main!(benches);
