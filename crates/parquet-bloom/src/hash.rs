//! The hash of a value for a Bloom filter: XXH64 (xxHash specification 0.1.1) with seed 0
//! over the value's PLAIN encoding.
//!
//! | physical type | bytes hashed |
//! |---|---|
//! | INT32 | 4 bytes, little-endian |
//! | INT64 | 8 bytes, little-endian |
//! | INT96 | its 12 bytes |
//! | FLOAT | the 4 bytes of its IEEE 754 bit pattern, little-endian |
//! | DOUBLE | the 8 bytes of its IEEE 754 bit pattern, little-endian |
//! | BYTE_ARRAY | its bytes, *without* the 4-byte length that PLAIN puts before them |
//! | FIXED_LEN_BYTE_ARRAY | its bytes |
//! | BOOLEAN | none: Parquet defines no Bloom filter for BOOLEAN columns |
//!
//! The fixed-width hashes are `const fn`s specialised for their exact length (4, 8 or 12
//! bytes), equal to the general XXH64 of those bytes but without its loops; byte arrays
//! shorter than 32 bytes take XXH64's short path inline, longer ones go through
//! [`xxhash_rust`]. The tests hold all of them to the reference implementation. The batch
//! functions append one hash per value to a caller's `Vec<u64>`, so that a writer can hash
//! a batch once and hand the hashes to
//! [`Sbbf::insert_hashes`](crate::Sbbf::insert_hashes), or to more than one filter.
//!
//! # Floating-point values
//!
//! Floats hash their bit pattern, as the PLAIN encoding stores it, so values that compare
//! equal may hash differently: `0.0` and `-0.0` are two values for a Bloom filter, and so
//! is each NaN payload. A reader looking for "= 0.0" has to probe both zeros; one looking
//! for NaN can only probe the patterns it knows writers use (Rust's and Java's canonical
//! NaN are `0x7fc0_0000` and `0x7ff8_0000_0000_0000`). Writers do not normalise them.
//!
//! # BOOLEAN
//!
//! The Parquet format defines Bloom filters for every physical type but BOOLEAN (whose two
//! values min/max statistics already answer), and parquet-java refuses to build one, so
//! `bool` does not implement [`PlainHash`]: a writer cannot build, nor a reader probe, a
//! filter that no other implementation would write.
//!
//! ```
//! use parquet_bloom::hash::{self, PlainHash};
//!
//! assert_eq!(hash::hash_bytes(b""), 0xef46_db37_51d8_e999);
//! assert_eq!(7_i64.plain_hash(), hash::hash_bytes(&7_i64.to_le_bytes()));
//! assert_eq!("hello".plain_hash(), hash::hash_bytes(b"hello"));
//!
//! let mut hashes = Vec::new();
//! hash::hash_values(&[1_i32, 2, 3], &mut hashes);
//! assert_eq!(hashes, [hash::hash_i32(1), hash::hash_i32(2), hash::hash_i32(3)]);
//! ```

use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};

/// The XXH64 seed of Parquet's Bloom filters.
pub const SEED: u64 = 0;

const PRIME_1: u64 = 0x9E37_79B1_85EB_CA87;
const PRIME_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const PRIME_3: u64 = 0x1656_67B1_9E37_79F9;
const PRIME_4: u64 = 0x85EB_CA77_C2B2_AE63;
const PRIME_5: u64 = 0x27D4_EB2F_1656_67C5;

/// XXH64 with seed 0 of `bytes`: the Bloom filter hash of a BYTE_ARRAY or
/// FIXED_LEN_BYTE_ARRAY value.
///
/// Inputs shorter than 32 bytes, most strings, take XXH64's short path inline; longer
/// ones go through [`xxhash_rust`].
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    if bytes.len() >= 32 {
        return xxhash_rust::xxh64::xxh64(bytes, SEED);
    }
    // Below 32: the conversion is exact.
    let mut acc = short_start(bytes.len() as u64);
    let mut lanes = bytes.chunks_exact(8);
    for lane in &mut lanes {
        let mut word = [0; 8];
        word.copy_from_slice(lane);
        acc = short_lane_8(acc, u64::from_le_bytes(word));
    }
    let mut rest = lanes.remainder();
    if let Some((lane, tail)) = rest.split_first_chunk::<4>() {
        acc = short_lane_4(acc, u32::from_le_bytes(*lane));
        rest = tail;
    }
    for &byte in rest {
        acc = short_lane_1(acc, byte);
    }
    avalanche(acc)
}

/// The steps of XXH64 for an input shorter than 32 bytes, seed 0: the accumulator
/// starts at `PRIME_5 + length`, then takes 8-byte lanes, then at most one 4-byte lane.
const fn short_start(len: u64) -> u64 {
    SEED.wrapping_add(PRIME_5).wrapping_add(len)
}

const fn short_lane_8(acc: u64, lane: u64) -> u64 {
    let k = lane
        .wrapping_mul(PRIME_2)
        .rotate_left(31)
        .wrapping_mul(PRIME_1);
    (acc ^ k)
        .rotate_left(27)
        .wrapping_mul(PRIME_1)
        .wrapping_add(PRIME_4)
}

const fn short_lane_4(acc: u64, lane: u32) -> u64 {
    (acc ^ (lane as u64).wrapping_mul(PRIME_1))
        .rotate_left(23)
        .wrapping_mul(PRIME_2)
        .wrapping_add(PRIME_3)
}

const fn short_lane_1(acc: u64, byte: u8) -> u64 {
    (acc ^ (byte as u64).wrapping_mul(PRIME_5))
        .rotate_left(11)
        .wrapping_mul(PRIME_1)
}

const fn avalanche(mut acc: u64) -> u64 {
    acc ^= acc >> 33;
    acc = acc.wrapping_mul(PRIME_2);
    acc ^= acc >> 29;
    acc = acc.wrapping_mul(PRIME_3);
    acc ^ (acc >> 32)
}

/// The hash of an INT32 value (also of a `UINT_32`-annotated one, through its bits).
#[inline]
pub const fn hash_i32(value: i32) -> u64 {
    avalanche(short_lane_4(short_start(4), value.cast_unsigned()))
}

/// The hash of an INT64 value (also of a `UINT_64`-annotated one, through its bits).
#[inline]
pub const fn hash_i64(value: i64) -> u64 {
    avalanche(short_lane_8(short_start(8), value.cast_unsigned()))
}

const fn hash_u32(value: u32) -> u64 {
    hash_i32(value.cast_signed())
}

const fn hash_u64(value: u64) -> u64 {
    hash_i64(value.cast_signed())
}

/// The hash of a FLOAT value: of its IEEE 754 bit pattern (see the [module
/// docs](self#floating-point-values) on `-0.0` and NaN).
#[inline]
pub const fn hash_f32(value: f32) -> u64 {
    hash_i32(value.to_bits().cast_signed())
}

/// The hash of a DOUBLE value: of its IEEE 754 bit pattern (see the [module
/// docs](self#floating-point-values) on `-0.0` and NaN).
#[inline]
pub const fn hash_f64(value: f64) -> u64 {
    hash_i64(value.to_bits().cast_signed())
}

/// The hash of an INT96 value: of its 12 bytes.
#[inline]
pub const fn hash_int96(value: Int96) -> u64 {
    let bytes = value.to_le_bytes();
    let low = u64::from_le_bytes([
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
    ]);
    let high = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    avalanche(short_lane_4(short_lane_8(short_start(12), low), high))
}

/// A value that a Bloom filter can hold: it hashes its PLAIN encoding, as the [module
/// docs](self) describe.
///
/// Implemented for the Rust types of Parquet's physical types but BOOLEAN: `i32` and
/// `u32` (INT32), `i64` and `u64` (INT64), [`Int96`], `f32` (FLOAT), `f64` (DOUBLE), and
/// the byte types `[u8]`, `[u8; N]`, `str`, `Vec<u8>` and `String` (BYTE_ARRAY and
/// FIXED_LEN_BYTE_ARRAY: the bytes, no length prefix). References hash as what they
/// refer to.
pub trait PlainHash {
    /// XXH64 with seed 0 of the value's PLAIN encoding (without the length of a byte
    /// array).
    fn plain_hash(&self) -> u64;
}

macro_rules! plain_hash_via {
    ($($ty:ty => $function:path;)*) => {$(
        impl PlainHash for $ty {
            #[inline]
            fn plain_hash(&self) -> u64 {
                $function(*self)
            }
        }
    )*};
}

plain_hash_via! {
    i32 => hash_i32;
    u32 => hash_u32;
    i64 => hash_i64;
    u64 => hash_u64;
    f32 => hash_f32;
    f64 => hash_f64;
    Int96 => hash_int96;
}

impl PlainHash for [u8] {
    #[inline]
    fn plain_hash(&self) -> u64 {
        hash_bytes(self)
    }
}

impl<const N: usize> PlainHash for [u8; N] {
    #[inline]
    fn plain_hash(&self) -> u64 {
        hash_bytes(self)
    }
}

impl PlainHash for str {
    #[inline]
    fn plain_hash(&self) -> u64 {
        hash_bytes(self.as_bytes())
    }
}

impl PlainHash for Vec<u8> {
    #[inline]
    fn plain_hash(&self) -> u64 {
        hash_bytes(self)
    }
}

impl PlainHash for String {
    #[inline]
    fn plain_hash(&self) -> u64 {
        hash_bytes(self.as_bytes())
    }
}

impl<T: PlainHash + ?Sized> PlainHash for &T {
    #[inline]
    fn plain_hash(&self) -> u64 {
        (**self).plain_hash()
    }
}

/// Appends the hash of each of `values` to `out`.
pub fn hash_values<T: PlainHash>(values: &[T], out: &mut Vec<u64>) {
    out.extend(values.iter().map(PlainHash::plain_hash));
}

/// Appends the hash of each BYTE_ARRAY value of `batch` to `out`.
pub fn hash_byte_arrays(batch: &ByteArrayBatch, out: &mut Vec<u64>) {
    out.extend(batch.iter().map(hash_bytes));
}

/// Appends the hash of each FIXED_LEN_BYTE_ARRAY value of `batch` to `out`.
pub fn hash_fixed_len_byte_arrays(batch: &FixedLenByteArrayBatch, out: &mut Vec<u64>) {
    out.extend(batch.iter().map(hash_bytes));
}
