//! Every codec, compress and decompress, on 64 KiB and 1 MiB pages of two kinds of
//! Parquet page data: PLAIN INT64 timestamps (sorted, with repeats and jitter) and
//! PLAIN BYTE_ARRAY text (length-prefixed words). Throughput is in uncompressed bytes.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss
)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_compress::{Codec, Compressor, Decompressor};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// PLAIN INT64: millisecond timestamps, each repeated 1 to 4 times, rising by 0 to 999.
fn int64_page(len: usize) -> Vec<u8> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut page = Vec::with_capacity(len);
    let mut ts = 1_700_000_000_000_i64;
    while page.len() < len {
        for _ in 0..=rng.next() % 4 {
            page.extend_from_slice(&ts.to_le_bytes());
        }
        ts += (rng.next() % 1000) as i64;
    }
    page.truncate(len);
    page
}

/// PLAIN BYTE_ARRAY: words of a small vocabulary, each with its 4-byte length.
fn text_page(len: usize) -> Vec<u8> {
    const WORDS: [&str; 24] = [
        "the",
        "parquet",
        "page",
        "column",
        "of",
        "and",
        "value",
        "null",
        "row",
        "group",
        "compression",
        "a",
        "in",
        "is",
        "dictionary",
        "encoding",
        "to",
        "file",
        "data",
        "2024-01-15",
        "Berlin",
        "user_4821",
        "OK",
        "error: timeout",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut page = Vec::with_capacity(len);
    while page.len() < len {
        let word = WORDS[(rng.next() % WORDS.len() as u64) as usize];
        page.extend_from_slice(&(word.len() as u32).to_le_bytes());
        page.extend_from_slice(word.as_bytes());
    }
    page.truncate(len);
    page
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = Vec::new();
    for (size, len) in [("64KiB", 64 << 10), ("1MiB", 1 << 20)] {
        inputs.push((format!("int64/{size}"), int64_page(len)));
        inputs.push((format!("text/{size}"), text_page(len)));
    }
    inputs
}

fn codecs() -> impl Iterator<Item = Codec> {
    Codec::ALL
        .into_iter()
        .filter(|&codec| codec.is_enabled() && codec != Codec::Uncompressed)
}

fn compress(c: &mut Criterion) {
    let inputs = inputs();
    for codec in codecs() {
        let mut group = c.benchmark_group(format!("compress/{codec}"));
        let mut compressor = Compressor::new(codec);
        let mut out = Vec::new();
        for (name, page) in &inputs {
            out.clear();
            compressor.compress(page, &mut out).unwrap();
            eprintln!(
                "{codec} {name}: {} -> {} bytes ({:.1}%)",
                page.len(),
                out.len(),
                100.0 * out.len() as f64 / page.len() as f64
            );
            group.throughput(Throughput::Bytes(page.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(name), page, |b, page| {
                b.iter(|| {
                    out.clear();
                    compressor.compress(black_box(page), &mut out).unwrap();
                });
            });
        }
        group.finish();
    }
}

fn decompress(c: &mut Criterion) {
    let inputs = inputs();
    for codec in codecs() {
        let mut group = c.benchmark_group(format!("decompress/{codec}"));
        let mut compressor = Compressor::new(codec);
        let mut decompressor = Decompressor::new();
        let mut out = Vec::new();
        for (name, page) in &inputs {
            let mut compressed = Vec::new();
            compressor.compress(page, &mut compressed).unwrap();
            out.clear();
            decompressor
                .decompress(codec, &compressed, page.len(), &mut out)
                .unwrap();
            assert!(out == *page, "{codec} {name}");
            group.throughput(Throughput::Bytes(page.len() as u64));
            group.bench_with_input(
                BenchmarkId::from_parameter(name),
                &compressed,
                |b, input| {
                    b.iter(|| {
                        out.clear();
                        decompressor
                            .decompress(codec, black_box(input), page.len(), &mut out)
                            .unwrap();
                    });
                },
            );
        }
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = compress, decompress
}
criterion_main!(benches);
