//! Decoding and encoding the footer of a wide file: 1,000 columns × 10 row groups, with
//! chunk statistics, encoding stats, page index offsets and column orders (about 1.25 MB
//! of Thrift), beside a `memcpy` of the same bytes.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet_thrift::FileMetaData;

#[path = "shared/wide_footer.rs"]
mod wide_footer;
use wide_footer::wide_footer;

const COLUMNS: usize = 1000;
const ROW_GROUPS: usize = 10;

fn bench(c: &mut Criterion) {
    let footer = wide_footer(COLUMNS, ROW_GROUPS);
    let mut bytes = Vec::new();
    footer.write_to(&mut bytes).unwrap();
    assert_eq!(FileMetaData::read_from(&bytes).unwrap().0, footer);

    let mut group = c.benchmark_group(format!(
        "footer {COLUMNS} columns x {ROW_GROUPS} row groups"
    ));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("decode", |b| {
        b.iter(|| FileMetaData::read_from(black_box(&bytes)).unwrap());
    });
    group.bench_function("decode + into_owned", |b| {
        b.iter(|| {
            FileMetaData::read_from(black_box(&bytes))
                .unwrap()
                .0
                .into_owned()
        });
    });
    let mut out = Vec::with_capacity(bytes.len());
    group.bench_function("encode", |b| {
        b.iter(|| {
            out.clear();
            black_box(&footer).write_to(&mut out).unwrap();
        });
    });
    let mut copy = vec![0u8; bytes.len()];
    group.bench_function("memcpy", |b| {
        b.iter(|| copy.copy_from_slice(black_box(&bytes)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
