//! Every enabled codec round-trips empty, tiny, incompressible, highly compressible and
//! page-like inputs, at its default level and at the ends of its level range.
// Test helpers outside `#[test]` fns; the walkers cast sizes they have just read.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use parquet_compress::{Codec, Compression, Compressor, Decompressor, compress, decompress};
use proptest::prelude::*;

fn enabled() -> impl Iterator<Item = Codec> {
    Codec::ALL.into_iter().filter(|codec| codec.is_enabled())
}

/// Compresses with `compression`, then decompresses through every entry point.
fn round_trip(compression: Compression, data: &[u8]) {
    let codec = compression.codec();
    let mut compressed = vec![0xAA; 3];
    compress(compression, data, &mut compressed).unwrap();
    assert_eq!(compressed[..3], [0xAA; 3], "{codec}: compress appends");
    let compressed = &compressed[3..];

    let mut out = vec![0x55; 5];
    decompress(codec, compressed, data.len(), &mut out).unwrap();
    assert_eq!(out[..5], [0x55; 5], "{codec}: decompress appends");
    assert!(out[5..] == *data, "{codec}: {} bytes differ", data.len());

    let mut decompressor = Decompressor::new();
    let mut out = Vec::new();
    let written = decompressor
        .decompress_up_to(codec, compressed, data.len() + 100, &mut out)
        .unwrap();
    assert_eq!(written, data.len(), "{codec}");
    assert!(out == data, "{codec}: decompress_up_to");

    let mut slice = vec![0; data.len() + 7];
    let written = decompressor
        .decompress_into(codec, compressed, &mut slice)
        .unwrap();
    assert!(slice[..written] == *data, "{codec}: decompress_into");
}

fn round_trip_all(data: &[u8]) {
    for codec in enabled() {
        round_trip(Compression::new(codec), data);
    }
}

/// `n` PLAIN INT64 values: timestamps in seconds with repeats.
fn int64_page(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| (1_593_604_800_i64 + (i as i64 / 3) * 7).to_le_bytes())
        .collect()
}

#[test]
fn empty_and_tiny() {
    round_trip_all(b"");
    round_trip_all(b"a");
    round_trip_all(b"ab");
    round_trip_all(b"abcabcabcabcabc");
    round_trip_all(&[0; 17]);
}

#[test]
fn pages_across_hadoop_blocks() {
    // LZ4 and LZO write Hadoop blocks of 128 KiB: cross two boundaries.
    let page = int64_page(40_000);
    assert!(page.len() > 2 * 128 * 1024);
    round_trip_all(&page);
    let exact = int64_page(2 * 128 * 1024 / 8);
    round_trip_all(&exact);
}

#[test]
fn levels_at_the_ends_of_their_ranges() {
    let page = int64_page(5000);
    for codec in enabled() {
        let Some(levels) = codec.levels() else {
            continue;
        };
        for level in [*levels.start(), -1, 0, 1, *levels.end()] {
            if levels.contains(&level) {
                round_trip(Compression::with_level(codec, level).unwrap(), &page);
            }
        }
    }
}

#[test]
fn a_compressor_is_reused_across_pages() {
    for codec in enabled() {
        let mut compressor = Compressor::new(codec);
        let mut decompressor = Decompressor::new();
        for page in [
            int64_page(1000),
            Vec::new(),
            b"x".repeat(100_000),
            int64_page(10),
        ] {
            let mut compressed = Vec::new();
            compressor.compress(&page, &mut compressed).unwrap();
            let mut out = Vec::new();
            decompressor
                .decompress(codec, &compressed, page.len(), &mut out)
                .unwrap();
            assert!(out == page, "{codec}");
        }
    }
}

#[test]
fn compressible_pages_shrink() {
    let page = int64_page(20_000);
    for codec in enabled() {
        if codec == Codec::Uncompressed {
            continue;
        }
        let mut compressed = Vec::new();
        compress(codec, &page, &mut compressed).unwrap();
        assert!(
            compressed.len() < page.len() / 3,
            "{codec}: {} of {}",
            compressed.len(),
            page.len()
        );
    }
}

fn runs() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((any::<u8>(), 1..3000_usize), 0..40).prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(b, n)| std::iter::repeat_n(b, n))
            .collect()
    })
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    let words = prop::sample::select(vec![
        "id",
        "value",
        "parquet",
        "page",
        "null",
        "2024-01-01",
        "abc",
        "def",
        "\n",
        " ",
    ]);
    prop::collection::vec(words, 0..3000).prop_map(|w| w.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tiny(data in prop::collection::vec(any::<u8>(), 0..24)) {
        round_trip_all(&data);
    }

    #[test]
    fn incompressible(data in prop::collection::vec(any::<u8>(), 0..40_000)) {
        round_trip_all(&data);
    }

    #[test]
    fn highly_compressible(data in runs()) {
        round_trip_all(&data);
    }

    #[test]
    fn text_like(data in text()) {
        round_trip_all(&data);
    }

    #[test]
    fn int64_like(n in 0..20_000_usize) {
        round_trip_all(&int64_page(n));
    }
}
