//! The block of a split-block Bloom filter: 256 bits as eight 32-bit words, each a tiny
//! Bloom filter of its own with one hash function (parquet-format.txt, "6 - Bloom
//! Filter", "Technical Approach").
//!
//! ```text
//! salt[8] = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
//!            0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}
//! mask(x):           word i has the single bit (x * salt[i]) >> 27 set   (u32 product)
//! block_insert(b, x): b |= mask(x)
//! block_check(b, x):  (b & mask(x)) == mask(x)
//! ```

/// The eight odd constants that turn one 32-bit key into one bit per word.
pub const SALT: [u32; 8] = [
    0x47b6_137b,
    0x4497_4d91,
    0x8824_ad5b,
    0xa2b7_289d,
    0x7054_95c7,
    0x2df1_424b,
    0x9efc_4947,
    0x5c6b_fb31,
];

/// Bytes in a block.
pub const BLOCK_BYTES: usize = 32;

/// One 256-bit block: eight 32-bit words, word `i` stored on disk as bytes `4 * i ..
/// 4 * i + 4`, little-endian.
///
/// Aligned to 32 bytes, so that a block never straddles two cache lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct Block([u32; 8]);

impl Block {
    /// The block with no bit set.
    pub const EMPTY: Self = Self([0; 8]);

    /// The block with these words.
    pub const fn from_words(words: [u32; 8]) -> Self {
        Self(words)
    }

    /// The eight words.
    pub const fn words(&self) -> [u32; 8] {
        self.0
    }

    /// The block stored as these 32 bytes.
    pub fn from_le_bytes(bytes: [u8; BLOCK_BYTES]) -> Self {
        let mut words = [0; 8];
        for (word, chunk) in words.iter_mut().zip(bytes.as_chunks::<4>().0) {
            *word = u32::from_le_bytes(*chunk);
        }
        Self(words)
    }

    /// The 32 bytes that store the block.
    pub fn to_le_bytes(&self) -> [u8; BLOCK_BYTES] {
        let mut bytes = [0; BLOCK_BYTES];
        for (chunk, word) in bytes.chunks_exact_mut(4).zip(self.0) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        bytes
    }

    /// The spec's `mask(x)`: the block in which word `i` has only bit
    /// `(x * SALT[i]) >> 27` set (the product keeps its low 32 bits).
    // Inlined into each kernel so that it is compiled with the kernel's target features.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn mask(key: u32) -> Self {
        let mut words = [0; 8];
        for (word, salt) in words.iter_mut().zip(SALT) {
            *word = 1 << (key.wrapping_mul(salt) >> 27);
        }
        Self(words)
    }

    /// The spec's `block_insert`: sets the bits of `mask(key)`.
    // Inlined into each kernel so that it is compiled with the kernel's target features.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn insert(&mut self, key: u32) {
        let mask = Self::mask(key);
        for (word, bit) in self.0.iter_mut().zip(mask.0) {
            *word |= bit;
        }
    }

    /// The spec's `block_check`: whether every bit of `mask(key)` is set. Branch-free.
    // Inlined into each kernel so that it is compiled with the kernel's target features.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn check(&self, key: u32) -> bool {
        let mask = Self::mask(key);
        let mut missing = 0;
        for (word, bit) in self.0.iter().zip(mask.0) {
            missing |= bit & !word;
        }
        missing == 0
    }

    /// Bits set in the block.
    pub const fn count_ones(&self) -> u32 {
        let mut ones = 0;
        let mut i = 0;
        while i < 8 {
            #[allow(clippy::indexing_slicing)] // `i < 8`, the number of words
            {
                ones += self.0[i].count_ones();
            }
            i += 1;
        }
        ones
    }
}
