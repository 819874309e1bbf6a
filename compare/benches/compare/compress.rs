//! Page decompression against arrow-rs's codecs (`create_codec`), on the same compressed
//! bytes (arrow-rs's own output, so each row also checks that parquet-kit reads it), with
//! the uncompressed size known as a page header gives it. Both crates use the same
//! backends (snap, flate2 on zlib-rs, brotli, lz4_flex, the zstd C library), so these rows
//! measure what each adds around them: parquet-kit's output cap and checks.
//!
//! arrow-rs writes the deprecated LZ4 as one Hadoop block per page; parquet-kit writes
//! blocks of at most 128 KiB, as Hadoop's own decompressor requires, which arrow-rs 60.1
//! cannot read back past the first block (its frame loop compares the bytes left with the
//! previous frame's size), hence arrow-rs's output here.

use crate::Bench;
use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use parquet::compression::{CodecOptions, create_codec};
use parquet_compress::{Codec, Decompressor};
use parquet_kit_compare::Rng;
use std::hint::black_box;

const PAGE: usize = 1 << 20;

pub fn run(bench: &mut Bench) {
    // A page of PLAIN INT64 values with some repetition and small deltas, and text.
    let mut rng = Rng::new(0xC0DE_C0DE);
    let mut page = Vec::with_capacity(PAGE);
    let mut value = 1_700_000_000_000_i64;
    while page.len() < PAGE / 2 {
        value += rng.below(1000) as i64;
        page.extend_from_slice(&value.to_le_bytes());
    }
    let words = [
        "parquet",
        "column",
        "page",
        "row",
        "group",
        "dictionary",
        "value",
        "null",
    ];
    while page.len() < PAGE {
        page.extend_from_slice(words[rng.below(8) as usize].as_bytes());
        page.push(b' ');
    }
    page.truncate(PAGE);
    for (codec, theirs) in [
        (Codec::Snappy, Compression::SNAPPY),
        (Codec::Gzip, Compression::GZIP(GzipLevel::default())),
        (Codec::Brotli, Compression::BROTLI(BrotliLevel::default())),
        (Codec::Lz4, Compression::LZ4),
        (Codec::Zstd, Compression::ZSTD(ZstdLevel::default())),
        (Codec::Lz4Raw, Compression::LZ4_RAW),
    ] {
        let name = format!("decompress {}, 1 MiB page", codec.name());
        if bench.wanted(&name) {
            decompress(bench, &name, codec, theirs, &page);
        }
    }
}

fn decompress(bench: &mut Bench, name: &str, codec: Codec, theirs: Compression, page: &[u8]) {
    let mut arrow = create_codec(theirs, &CodecOptions::default())
        .unwrap()
        .unwrap();
    let mut compressed = Vec::new();
    arrow.compress(page, &mut compressed).unwrap();
    let mut decompressor = Decompressor::new();
    let mut ours = Vec::with_capacity(PAGE);
    let mut theirs_out = Vec::with_capacity(PAGE);
    decompressor
        .decompress(codec, &compressed, PAGE, &mut ours)
        .unwrap();
    arrow
        .decompress(&compressed, &mut theirs_out, Some(PAGE))
        .unwrap();
    assert!(ours == page && theirs_out == page);
    bench.run(
        name,
        1,
        PAGE,
        &mut || {
            ours.clear();
            decompressor
                .decompress(codec, black_box(&compressed), PAGE, &mut ours)
                .unwrap();
        },
        &mut || {
            theirs_out.clear();
            arrow
                .decompress(black_box(&compressed), &mut theirs_out, Some(PAGE))
                .unwrap();
        },
    );
}
