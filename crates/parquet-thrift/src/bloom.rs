//! The header of a Bloom filter.

use crate::macros::{thrift_struct, thrift_union};

thrift_struct! {
    /// The split-block Bloom filter algorithm.
    pub struct SplitBlockAlgorithm {}
}

thrift_union! {
    /// The algorithm that sets a Bloom filter's bits.
    #[derive(Eq, Hash)]
    pub enum BloomFilterAlgorithm {
        /// Split blocks of eight 32-bit words.
        1: BLOCK => Block(SplitBlockAlgorithm),
    }
}

thrift_struct! {
    /// The 64-bit xxHash, seed 0.
    pub struct XxHash {}
}

thrift_union! {
    /// The hash of the PLAIN-encoded values that a Bloom filter records.
    #[derive(Eq, Hash)]
    pub enum BloomFilterHash {
        /// xxHash64.
        1: XXHASH => XxHash(XxHash),
    }
}

thrift_struct! {
    /// No compression.
    pub struct Uncompressed {}
}

thrift_union! {
    /// The compression of a Bloom filter's bitset.
    #[derive(Eq, Hash)]
    pub enum BloomFilterCompression {
        /// Not compressed.
        1: UNCOMPRESSED => Uncompressed(Uncompressed),
    }
}

thrift_struct! {
    /// The header in front of a Bloom filter's bitset.
    #[derive(Eq, Hash)]
    pub struct BloomFilterHeader {
        /// The size of the bitset in bytes.
        1: required num_bytes: i32,
        /// The algorithm.
        2: required algorithm: BloomFilterAlgorithm,
        /// The hash.
        3: required hash: BloomFilterHash,
        /// The compression of the bitset.
        4: required compression: BloomFilterCompression,
    }
}
