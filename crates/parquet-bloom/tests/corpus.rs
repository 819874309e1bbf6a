//! The Bloom filter that parquet-java wrote to `parquet-testing/data/bloom_filter.xxhash.bin`
//! after inserting "hello", "parquet", "bloom" and "filter". Run with `cargo xtask corpus`.

use parquet_bloom::{Sbbf, sizing};
use parquet_thrift::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
    SplitBlockAlgorithm, Uncompressed, XxHash,
};
use std::path::PathBuf;

const INSERTED: [&str; 4] = ["hello", "parquet", "bloom", "filter"];

fn corpus_file(relative: &str) -> Vec<u8> {
    let root = std::env::var_os("PARQUET_KIT_CORPUS").unwrap_or_else(|| {
        panic!(
            "PARQUET_KIT_CORPUS is not set: run `cargo xtask corpus`, or set it to ../shared/corpus"
        )
    });
    let path = PathBuf::from(root).join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The file: a thrift compact `BloomFilterHeader`, then the bitset. Returns the bitset,
/// after checking the header: `numBytes` 1024, the split-block algorithm, xxHash64, no
/// compression, and nothing after the bitset.
fn bitset(file: &[u8]) -> &[u8] {
    let (header, header_len) = BloomFilterHeader::read_from(file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        header,
        BloomFilterHeader {
            num_bytes: 1024,
            algorithm: BloomFilterAlgorithm::Block(SplitBlockAlgorithm {}),
            hash: BloomFilterHash::XxHash(XxHash {}),
            compression: BloomFilterCompression::Uncompressed(Uncompressed {}),
        }
    );
    // The header holds nothing else: written again, it gives back the same bytes.
    let mut written = Vec::new();
    header
        .write_to(&mut written)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written, file[..header_len], "header bytes");
    let num_bytes =
        Sbbf::validate_num_bytes(header.num_bytes.into()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(file.len(), header_len + num_bytes, "header and bitset");
    &file[header_len..]
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn parquet_java_filter() {
    let file = corpus_file("parquet-testing/data/bloom_filter.xxhash.bin");
    let bitset = bitset(&file);
    let filter = Sbbf::try_from_bitset(bitset).unwrap();
    assert_eq!((filter.num_bytes(), filter.num_blocks()), (1024, 32));

    for value in INSERTED {
        assert!(filter.check(value), "{value:?} was inserted");
    }
    // Four values set at most 32 bits (fewer if two land in one block and share a bit).
    assert!(filter.count_ones() <= 32 && filter.count_ones() >= 8);

    // Inserting the same four strings into an empty filter of the same size gives the
    // same bytes: same hash, block choice, salt and byte order as parquet-java.
    let mut ours = Sbbf::new(1024).unwrap();
    for value in INSERTED {
        ours.insert(value);
    }
    assert_eq!(ours.to_bitset(), bitset);

    // 1000 other strings: a probe of a block holding k values succeeds with probability
    // (1 - (31/32)^k)^8, about 1e-12 for k = 1, so essentially never.
    let expected = sizing::expected_fpp(1024, 4);
    assert!(expected < 1e-10, "{expected}");
    let probes = 1000_u32;
    let hits = (0..probes)
        .filter(|i| filter.check(format!("not-inserted-{i}").as_str()))
        .count();
    // At most one hit: the chance of two or more is below (probes * expected)^2.
    let mean = f64::from(probes) * expected;
    assert!(
        hits <= 1,
        "{hits} false positives in {probes}, expected {mean:e}"
    );
}
