// Test data is built from small counters and sizes; the casts cannot lose anything that
// matters.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss
)]

use super::*;
use crate::block::{BLOCK_BYTES, Block, SALT};
use crate::hash::{
    hash_byte_arrays, hash_bytes, hash_f32, hash_f64, hash_fixed_len_byte_arrays, hash_i32,
    hash_i64, hash_int96, hash_values,
};
use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// A bit-by-bit reference, written as the spec's pseudocode reads, over the on-disk bytes.

/// Bit `j` of word `i` of block `b` of a bitset, per the on-disk layout: word `i` is
/// little-endian at bytes `32 b + 4 i ..`, so bit `j` is bit `j % 8` of byte `j / 8`.
fn reference_bit(bitset: &[u8], b: usize, i: usize, j: u32) -> bool {
    let byte = bitset[b * 32 + i * 4 + (j / 8) as usize];
    byte >> (j % 8) & 1 == 1
}

fn reference_set_bit(bitset: &mut [u8], b: usize, i: usize, j: u32) {
    bitset[b * 32 + i * 4 + (j / 8) as usize] |= 1 << (j % 8);
}

/// The spec's mask: for each word, the one bit `(x * salt[i]) >> 27` to set.
fn reference_mask(x: u32) -> [u32; 8] {
    let salt: [u32; 8] = [
        0x47b6_137b,
        0x4497_4d91,
        0x8824_ad5b,
        0xa2b7_289d,
        0x7054_95c7,
        0x2df1_424b,
        0x9efc_4947,
        0x5c6b_fb31,
    ];
    let mut bits = [0; 8];
    for i in 0..8 {
        let y = (u64::from(x) * u64::from(salt[i]) % (1 << 32)) as u32;
        bits[i] = y / (1 << 27);
    }
    bits
}

fn reference_block_index(h: u64, z: usize) -> usize {
    (((u128::from(h) >> 32) * z as u128) >> 32) as usize
}

fn reference_insert(bitset: &mut [u8], h: u64) {
    let b = reference_block_index(h, bitset.len() / 32);
    for (i, j) in reference_mask(h as u32).into_iter().enumerate() {
        reference_set_bit(bitset, b, i, j);
    }
}

fn reference_check(bitset: &[u8], h: u64) -> bool {
    let b = reference_block_index(h, bitset.len() / 32);
    for (i, j) in reference_mask(h as u32).into_iter().enumerate() {
        if !reference_bit(bitset, b, i, j) {
            return false;
        }
    }
    true
}

// ---------------------------------------------------------------------------------------
// Blocks.

#[test]
fn salt_is_the_specs() {
    // As the spec writes them.
    #[allow(clippy::unreadable_literal)]
    let spec = [
        0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947,
        0x5c6bfb31,
    ];
    assert_eq!(SALT, spec);
    assert!(SALT.iter().all(|salt| salt % 2 == 1), "the salt is odd");
    assert_eq!(size_of::<Block>(), BLOCK_BYTES);
    assert_eq!(align_of::<Block>(), BLOCK_BYTES);
}

#[test]
fn mask_examples() {
    // x = 0: every product is 0, bit 0 of every word.
    assert_eq!(Block::mask(0).words(), [1; 8]);
    // x = 1: the top five bits of each salt.
    let expected = SALT.map(|salt| 1 << (salt >> 27));
    assert_eq!(Block::mask(1).words(), expected);
    assert_eq!(
        expected,
        [
            1 << 8,
            1 << 8,
            1 << 17,
            1 << 20,
            1 << 14,
            1 << 5,
            1 << 19,
            1 << 11
        ]
    );
}

proptest! {
    #[test]
    fn block_matches_reference(words: [u32; 8], key: u32) {
        let mask = Block::mask(key);
        prop_assert_eq!(mask.count_ones(), 8);
        for (word, bit) in mask.words().into_iter().zip(reference_mask(key)) {
            prop_assert_eq!(word, 1 << bit);
        }

        let block = Block::from_words(words);
        let mut bytes = block.to_le_bytes();
        prop_assert_eq!(Block::from_le_bytes(bytes), block);
        prop_assert_eq!(block.check(key), reference_check(&bytes, u64::from(key)));

        let mut inserted = block;
        inserted.insert(key);
        reference_insert(&mut bytes, u64::from(key));
        prop_assert_eq!(inserted.to_le_bytes(), bytes);
        prop_assert!(inserted.check(key));
    }

    #[test]
    fn filter_matches_reference(
        bitset in (1_usize..=9).prop_flat_map(|z| prop::collection::vec(any::<u8>(), z * 32)),
        hashes in prop::collection::vec(any::<u64>(), 0..64),
    ) {
        let mut filter = Sbbf::try_from_bitset(&bitset).unwrap();
        let mut reference = bitset.clone();
        for &h in &hashes {
            prop_assert_eq!(filter.check_hash(h), reference_check(&reference, h));
            filter.insert_hash(h);
            reference_insert(&mut reference, h);
            prop_assert_eq!(filter.to_bitset(), reference.clone());
        }
    }
}

proptest! {
    /// The build chosen at run time (AVX2 where the CPU has it) against the portable one
    /// and the reference.
    #[test]
    fn builds_agree(
        bitset in (1_usize..=40).prop_flat_map(|z| prop::collection::vec(any::<u8>(), z * 32)),
        hashes in prop::collection::vec(any::<u64>(), 0..200),
    ) {
        let mut fast = Sbbf::try_from_bitset(&bitset).unwrap();
        let mut slow = fast.clone();
        let mut reference = bitset.clone();

        let (mut found_fast, mut found_slow) = (vec![false], vec![false]);
        fast.check_hashes(&hashes, &mut found_fast);
        portable::check_hashes(&slow, &hashes, &mut found_slow);
        let expected: Vec<bool> = hashes.iter().map(|&h| reference_check(&bitset, h)).collect();
        prop_assert_eq!(&found_fast[1..], &expected[..]);
        prop_assert_eq!(&found_slow[1..], &expected[..]);
        prop_assert_eq!(fast.check_any(&hashes), expected.iter().any(|&found| found));
        prop_assert_eq!(portable::check_any(&slow, &hashes), expected.iter().any(|&found| found));

        let (half, rest) = hashes.split_at(hashes.len() / 2);
        fast.insert_hashes(half);
        portable::insert_hashes(&mut slow, half);
        for &h in rest {
            prop_assert_eq!(fast.check_hash(h), portable::check_hash(&slow, h));
            fast.insert_hash(h);
            portable::insert_hash(&mut slow, h);
        }
        for &h in &hashes {
            reference_insert(&mut reference, h);
        }
        prop_assert_eq!(fast.to_bitset(), reference.clone());
        prop_assert_eq!(slow.to_bitset(), reference);
        prop_assert!(hashes.iter().all(|&h| fast.check_hash(h) && portable::check_hash(&slow, h)));
    }
}

#[test]
fn block_index_extremes() {
    // The top 32 bits scale to the block: 0 to the first, all ones to the last.
    let mut filter = Sbbf::new(3 * 32).unwrap();
    filter.insert_hash(0x0000_0000_ffff_ffff);
    filter.insert_hash(0xffff_ffff_0000_0000);
    filter.insert_hash(0x8000_0000_0000_0001);
    let ones: Vec<u32> = filter.blocks().iter().map(Block::count_ones).collect();
    assert_eq!(ones, [8, 8, 8]);
    assert_eq!(filter.blocks()[0], Block::mask(0xffff_ffff));
    assert_eq!(filter.blocks()[1], Block::mask(1));
    assert_eq!(filter.blocks()[2], Block::mask(0));
}

// ---------------------------------------------------------------------------------------
// Hashes.

#[test]
fn xxh64_vectors() {
    // XXH64 with seed 0, as the C reference implementation (libxxhash 0.8.1) gives them;
    // the first four are also published with xxHash and its bindings.
    let cases: [(&[u8], u64); 13] = [
        (b"", 0xef46_db37_51d8_e999),
        (b"a", 0xd24e_c4f1_a98c_6e5b),
        (b"abc", 0x44bc_2cf5_ad77_0999),
        (
            b"Nobody inspects the spammish repetition",
            0xfbce_a83c_8a37_8bf1,
        ),
        (b"hello", 0x26c7_827d_889f_6da3),
        (b"parquet", 0x3c9d_2927_5c52_e429),
        (b"bloom", 0x50c8_fb9e_62db_c53c),
        (b"filter", 0x2a57_36cd_fcd7_a9a1),
        (&[0; 4], 0x3aef_a6fd_5cf2_deb4),
        (&[0; 8], 0x34c9_6acd_cadb_1bbb),
        (&[0xff; 4], 0x7f78_e4bd_a3ad_df93),
        (
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            0x424a_f23f_1f08_dca5,
        ),
        (
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
                65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85,
                86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99,
            ],
            0x6ac1_e580_3216_6597,
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(hash_bytes(bytes), expected, "{bytes:?}");
    }
    // The specialised fixed-width hashes on the same bytes.
    assert_eq!(hash_i32(0), 0x3aef_a6fd_5cf2_deb4);
    assert_eq!(hash_i32(-1), 0x7f78_e4bd_a3ad_df93);
    assert_eq!(hash_f32(0.0), 0x3aef_a6fd_5cf2_deb4);
    assert_eq!(hash_i64(0), 0x34c9_6acd_cadb_1bbb);
    assert_eq!(hash_f64(0.0), 0x34c9_6acd_cadb_1bbb);
    assert_eq!(
        hash_int96(Int96::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])),
        0x424a_f23f_1f08_dca5
    );
    // Const: usable in tables.
    assert_eq!(const { hash_i64(0) }, 0x34c9_6acd_cadb_1bbb);
}

#[test]
fn short_path_every_length() {
    // Every length around the short path's lanes (8, 4, 1 bytes) and its 32-byte limit.
    let bytes: Vec<u8> = (0..=64_u8)
        .map(|i| i.wrapping_mul(151).wrapping_add(7))
        .collect();
    for len in 0..=64 {
        for start in [0, 1] {
            let input = &bytes[start..start + len.min(64 - start)];
            assert_eq!(
                hash_bytes(input),
                xxhash_rust::xxh64::xxh64(input, 0),
                "{} bytes",
                input.len()
            );
        }
    }
}

#[test]
fn floats_hash_their_bits() {
    assert_ne!(hash_f64(0.0), hash_f64(-0.0));
    assert_ne!(hash_f32(0.0), hash_f32(-0.0));
    assert_eq!(hash_f64(f64::NAN), hash_i64(0x7ff8_0000_0000_0000));
    assert_eq!(hash_f32(f32::NAN), hash_i32(0x7fc0_0000));
    assert_ne!(
        hash_f64(f64::NAN),
        hash_f64(f64::from_bits(0x7ff8_0000_0000_0001))
    );
}

proptest! {
    #[test]
    fn fixed_width_hashes_are_xxh64_of_plain(a: i32, b: i64, c: f32, d: f64, e: [u8; 12]) {
        prop_assert_eq!(hash_i32(a), hash_bytes(&a.to_le_bytes()));
        prop_assert_eq!(a.plain_hash(), hash_i32(a));
        prop_assert_eq!(a.cast_unsigned().plain_hash(), hash_i32(a));
        prop_assert_eq!(hash_i64(b), hash_bytes(&b.to_le_bytes()));
        prop_assert_eq!(b.plain_hash(), hash_i64(b));
        prop_assert_eq!(b.cast_unsigned().plain_hash(), hash_i64(b));
        prop_assert_eq!(hash_f32(c), hash_bytes(&c.to_le_bytes()));
        prop_assert_eq!(c.plain_hash(), hash_f32(c));
        prop_assert_eq!(hash_f64(d), hash_bytes(&d.to_le_bytes()));
        prop_assert_eq!(d.plain_hash(), hash_f64(d));
        let int96 = Int96::from_le_bytes(e);
        prop_assert_eq!(hash_int96(int96), hash_bytes(&e));
        prop_assert_eq!(int96.plain_hash(), hash_bytes(&e));
        prop_assert_eq!(e.plain_hash(), hash_bytes(&e));
    }

    #[test]
    fn byte_hashes_agree(bytes in prop::collection::vec(any::<u8>(), 0..100), text in ".{0,20}") {
        let expected = xxhash_rust::xxh64::xxh64(&bytes, 0);
        prop_assert_eq!(hash_bytes(&bytes), expected);
        prop_assert_eq!(bytes.plain_hash(), expected);
        prop_assert_eq!(bytes.as_slice().plain_hash(), expected);
        prop_assert_eq!(PlainHash::plain_hash(&&bytes), expected);
        prop_assert_eq!(text.plain_hash(), hash_bytes(text.as_bytes()));
        prop_assert_eq!(text.as_str().plain_hash(), hash_bytes(text.as_bytes()));
    }

    #[test]
    fn batch_hashes_agree(
        ints in prop::collection::vec(any::<i64>(), 0..50),
        strings in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 0..50),
        fixed in prop::collection::vec(any::<[u8; 6]>(), 0..50),
    ) {
        let mut out = vec![7];
        hash_values(&ints, &mut out);
        let expected: Vec<u64> = ints.iter().map(|&v| hash_i64(v)).collect();
        prop_assert_eq!(&out[1..], &expected[..]);

        let batch: ByteArrayBatch = strings.iter().collect();
        out.clear();
        hash_byte_arrays(&batch, &mut out);
        let expected: Vec<u64> = strings.iter().map(|s| hash_bytes(s)).collect();
        prop_assert_eq!(&out, &expected);

        let batch = FixedLenByteArrayBatch::from_bytes(6, fixed.concat()).unwrap();
        out.clear();
        hash_fixed_len_byte_arrays(&batch, &mut out);
        let expected: Vec<u64> = fixed.iter().map(|s| hash_bytes(s)).collect();
        prop_assert_eq!(out, expected);
    }
}

// ---------------------------------------------------------------------------------------
// The filter.

#[test]
fn bitset_lengths() {
    for bad in [0_i64, 1, 31, 33, 48, -32, i64::MIN] {
        assert_eq!(
            Sbbf::validate_num_bytes(bad),
            Err(Error::invalid(
                "Bloom filter bitset length",
                0,
                bad.cast_unsigned()
            )),
            "{bad}"
        );
    }
    assert_eq!(
        Sbbf::validate_num_bytes(sizing::MAX_BYTES as i64 + 32),
        Err(Error::LimitExceeded {
            what: "Bloom filter bitset length",
            requested: sizing::MAX_BYTES as u64 + 32,
            limit: sizing::MAX_BYTES as u64,
        })
    );
    assert_eq!(Sbbf::validate_num_bytes(32), Ok(32));
    assert_eq!(Sbbf::validate_num_bytes(96), Ok(96));
    assert_eq!(
        Sbbf::validate_num_bytes(sizing::MAX_BYTES as i64),
        Ok(sizing::MAX_BYTES)
    );
    assert!(Sbbf::new(0).is_err());
    assert!(Sbbf::new(usize::MAX).is_err());
    assert!(Sbbf::try_from_bitset(&[0; 33]).is_err());
    assert_eq!(
        Sbbf::try_from_bitset(&[]).unwrap_err().to_string(),
        "invalid Bloom filter bitset length at offset 0: 0"
    );
    let filter = Sbbf::new(96).unwrap();
    assert_eq!(
        (filter.num_bytes(), filter.num_blocks(), filter.count_ones()),
        (96, 3, 0)
    );
    assert_eq!(filter.to_bitset(), [0; 96]);
    assert_eq!(format!("{filter:?}"), "Sbbf { num_bytes: 96, bits_set: 0 }");
}

#[test]
fn typed_helpers() {
    let mut filter = Sbbf::with_ndv_fpp(100, 0.01).unwrap();
    assert_eq!(filter.num_bytes(), 128);
    filter.insert(&1_i32);
    filter.insert(&2_i64);
    filter.insert(&Int96::from_unix_nanos(3));
    filter.insert(&4.5_f32);
    filter.insert(&-0.0_f64);
    filter.insert("six");
    filter.insert(b"seven");
    filter.insert(&b"eight".to_vec());
    filter.insert(&String::from("nine"));
    assert!(filter.check_hash(hash_i32(1)));
    assert!(filter.check(&2_i64) && filter.check(&Int96::from_unix_nanos(3)));
    assert!(filter.check(&4.5_f32) && filter.check(&-0.0_f64));
    assert!(filter.check(&b"six"[..]) && filter.check("seven") && filter.check("eight"));
    assert!(filter.check(&&&"nine"));
    assert!(filter.count_ones() <= 9 * 8);
    let hashes = [hash_i32(1), hash_i64(2), hash_i64(1), hash_bytes(b"ten")];
    let mut found = vec![true];
    filter.check_hashes(&hashes, &mut found);
    // Two inserted, two not (no false positive among them, as it happens).
    assert_eq!(found, [true, true, true, false, false]);
    assert!(filter.check_any(&hashes[1..]));
    assert!(!filter.check_any(&hashes[2..]));
    assert!(!filter.check_any(&[]));
    filter.clear();
    assert_eq!(filter.count_ones(), 0);
    assert!(!filter.check(&1_i32));
}

proptest! {
    #[test]
    fn no_false_negatives(
        num_bytes in (1_usize..=64).prop_map(|blocks| blocks * 32),
        ints in prop::collection::vec(any::<i64>(), 0..300),
        strings in prop::collection::vec(".{0,12}", 0..100),
        floats in prop::collection::vec(any::<f64>(), 0..100),
    ) {
        let mut filter = Sbbf::new(num_bytes).unwrap();
        let mut hashes = Vec::new();
        hash_values(&ints, &mut hashes);
        filter.insert_hashes(&hashes);
        for string in &strings {
            filter.insert(string.as_str());
        }
        for float in &floats {
            filter.insert(float);
        }
        prop_assert!(ints.iter().all(|v| filter.check(v)));
        prop_assert!(strings.iter().all(|v| filter.check(v)));
        prop_assert!(floats.iter().all(|v| filter.check(v)));
        let mut found = Vec::new();
        filter.check_hashes(&hashes, &mut found);
        prop_assert!(found.into_iter().all(|found| found));
        prop_assert!(filter.count_ones() <= 8 * (ints.len() + strings.len() + floats.len()) as u64);

        // Round trip through the bitset.
        let mut bitset = vec![0xAA];
        filter.write_bitset(&mut bitset);
        prop_assert_eq!(bitset.len(), num_bytes + 1);
        let read = Sbbf::try_from_bitset(&bitset[1..]).unwrap();
        prop_assert_eq!(read.to_bitset(), &bitset[1..]);
        prop_assert_eq!(read, filter);
    }

    #[test]
    fn any_bytes_are_a_bitset_or_an_error(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        hashes in prop::collection::vec(any::<u64>(), 0..20),
    ) {
        match Sbbf::try_from_bitset(&bytes) {
            Ok(mut filter) => {
                prop_assert!(!bytes.is_empty() && bytes.len() % 32 == 0);
                prop_assert_eq!(filter.to_bitset(), bytes.clone());
                let mut found = Vec::new();
                filter.check_hashes(&hashes, &mut found);
                for (&hash, found) in hashes.iter().zip(found) {
                    prop_assert_eq!(found, reference_check(&bytes, hash));
                    filter.insert_hash(hash);
                    prop_assert!(filter.check_hash(hash));
                }
            }
            Err(error) => {
                prop_assert!(bytes.is_empty() || bytes.len() % 32 != 0);
                let invalid = matches!(error, Error::Invalid { .. });
                prop_assert!(invalid, "{error}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sizing.

#[test]
fn sizing_examples() {
    use sizing::{MAX_BYTES, MIN_BYTES, optimal_num_bytes};
    // c(0.01) = 9.68 bits: 10,000 values need 12,102 bytes, rounded up to 16 KiB.
    assert_eq!(optimal_num_bytes(10_000, 0.01, MAX_BYTES), Ok(16 << 10));
    // One million values at 1%: 1.21 MB, so 2 MiB ("1.2MB ... one million distinct
    // values" in BloomFilter.md, before rounding).
    assert_eq!(optimal_num_bytes(1_000_000, 0.01, MAX_BYTES), Ok(2 << 20));
    // parquet-java's default maximum of 1 MiB caps it.
    assert_eq!(optimal_num_bytes(1_000_000, 0.01, 1 << 20), Ok(1 << 20));
    assert_eq!(optimal_num_bytes(0, 0.01, MAX_BYTES), Ok(MIN_BYTES));
    assert_eq!(optimal_num_bytes(1, 0.5, MAX_BYTES), Ok(MIN_BYTES));
    assert_eq!(optimal_num_bytes(u64::MAX, 0.01, MAX_BYTES), Ok(MAX_BYTES));
    assert_eq!(
        optimal_num_bytes(u64::MAX, 1e-300, usize::MAX),
        Ok(MAX_BYTES)
    );
    assert_eq!(optimal_num_bytes(1 << 40, 0.01, 3000), Ok(2048));
    assert_eq!(optimal_num_bytes(1 << 40, 0.01, 0), Ok(MIN_BYTES));
    for bad in [0.0, 1.0, -0.5, 1.5, f64::NAN, f64::INFINITY, -0.0] {
        assert_eq!(
            optimal_num_bytes(10, bad, MAX_BYTES),
            Err(Error::invalid(
                "false-positive probability, not in (0, 1), as f64 bits",
                0,
                bad.to_bits()
            )),
            "{bad}"
        );
        assert!(Sbbf::with_ndv_fpp(10, bad).is_err());
    }
    // The formula of BloomFilter.md: c(0.005) is about 11 bits (the file says the
    // optimum, for eight bits per value, is near 0.5% at 11.54 bits).
    let c = sizing::bits_per_value(0.005).unwrap();
    assert!((c - 11.03).abs() < 0.01, "{c}");
    assert!(sizing::bits_per_value(1e-300).unwrap().is_finite());
}

#[test]
fn sizing_by_expected_fpp() {
    use sizing::{MAX_BYTES, MIN_BYTES, expected_fpp, num_bytes_for_expected_fpp};
    assert_eq!(
        sizing::optimal_num_bytes(90_000, 1e-4, MAX_BYTES),
        Ok(256 << 10)
    );
    assert!(expected_fpp(256 << 10, 90_000) > 1.7e-4);
    assert_eq!(
        num_bytes_for_expected_fpp(90_000, 1e-4, MAX_BYTES),
        Ok(512 << 10)
    );
    assert_eq!(
        num_bytes_for_expected_fpp(0, 0.01, MAX_BYTES),
        Ok(MIN_BYTES)
    );
    assert_eq!(num_bytes_for_expected_fpp(u64::MAX, 0.01, 4096), Ok(4096));
    assert!(num_bytes_for_expected_fpp(1, 0.0, MAX_BYTES).is_err());
}

/// The spec's table of bits of space per insert and false-positive probability.
const SPEC_TABLE: [(f64, f64); 5] = [
    (6.0, 0.1),
    (10.5, 0.01),
    (16.9, 0.001),
    (26.4, 0.0001),
    (41.0, 0.00001),
];

/// The false-positive probability the spec's table gives for `bits` per value, between
/// its rows by linear interpolation of the logarithm.
fn spec_table_fpp(bits: f64) -> Option<f64> {
    SPEC_TABLE.windows(2).find_map(|rows| {
        let ((b0, p0), (b1, p1)) = (rows[0], rows[1]);
        (b0..=b1).contains(&bits).then(|| {
            let t = (bits - b0) / (b1 - b0);
            (p0.ln() + t * (p1.ln() - p0.ln())).exp()
        })
    })
}

#[test]
fn expected_fpp_reproduces_the_spec() {
    // "A filter that uses 1024 blocks and has had 26,214 hash values inserted will have a
    // false positive probability of around 1.26%"; twice as many values, 18%; half as
    // many, 0.04%.
    let p = sizing::expected_fpp(1024 * 32, 26_214);
    assert!((p - 0.0126).abs() < 0.0001, "{p}");
    let p = sizing::expected_fpp(1024 * 32, 52_428);
    assert!((p - 0.18).abs() < 0.005, "{p}");
    let p = sizing::expected_fpp(1024 * 32, 13_107);
    assert!((p - 0.0004).abs() < 0.00003, "{p}");
    // The table, on a large filter.
    for (bits, fpp) in SPEC_TABLE {
        let blocks = 1 << 16;
        let ndv = (blocks as f64 * 256.0 / bits) as u64;
        let p = sizing::expected_fpp(blocks * 32, ndv);
        assert!((p / fpp - 1.0).abs() < 0.03, "{bits} bits: {p} vs {fpp}");
    }
    // Edges.
    let one_in_one_block = (1.0_f64 / 32.0).powi(8);
    assert!(sizing::expected_fpp(1 << 20, 0).abs() < f64::MIN_POSITIVE);
    assert!((sizing::expected_fpp(32, 1) - one_in_one_block).abs() < 1e-25);
    assert!((sizing::expected_fpp(0, 1) - one_in_one_block).abs() < 1e-25);
    assert!(sizing::expected_fpp(64, u64::MAX) > 0.999_999);
    assert!(sizing::expected_fpp(1 << 20, 1 << 40) > 0.999_999);
}

/// Distinct pseudo-random `i64`s: splitmix64's finaliser is a bijection of `u64`, so
/// distinct counters give distinct values.
fn distinct_value(counter: u64) -> i64 {
    let mut z = counter.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as i64
}

/// Inserts `ndv` distinct values from counters `base..`, probes `probes` others, and
/// returns the rate of false positives.
fn measured_fpp(filter: &mut Sbbf, base: u64, ndv: u64, probes: u64) -> f64 {
    for i in 0..ndv {
        filter.insert(&distinct_value(base + i));
    }
    let hits = (0..probes)
        .filter(|i| filter.check(&distinct_value(base + ndv + i)))
        .count();
    hits as f64 / probes as f64
}

/// The slack for a measured rate around `p` over `probes` probes: five binomial standard
/// deviations, plus one hit.
fn slack(p: f64, probes: u64) -> f64 {
    5.0 * (p * (1.0 - p) / probes as f64).sqrt() + 1.0 / probes as f64
}

/// The standard deviation of the false-positive rate of one filter of `num_bytes` bytes
/// holding `ndv` values, from filter to filter: the blocks' loads are (nearly) independent
/// Poisson variables, and the rate is the mean of their `z` per-block rates.
fn filter_to_filter_std_dev(num_bytes: usize, ndv: u64) -> f64 {
    let z = (num_bytes / 32) as f64;
    let load = ndv as f64 / z;
    let (mut mean, mut square) = (0.0, 0.0);
    let mut log_pmf = -load;
    for k in 0..(load * 4.0 + 60.0) as u32 {
        if k > 0 {
            log_pmf += (load / f64::from(k)).ln();
        }
        let in_block = (1.0 - (31.0_f64 / 32.0).powi(k as i32)).powi(8);
        mean += log_pmf.exp() * in_block;
        square += log_pmf.exp() * in_block * in_block;
    }
    ((square - mean * mean).max(0.0) / z).sqrt()
}

#[test]
fn spec_example_measured() {
    // The spec's worked example, on real hashes: 1024 blocks.
    let probes = 400_000;
    for (ndv, expected) in [(26_214, 0.0126), (52_428, 0.18), (13_107, 0.0004)] {
        let mut filter = Sbbf::new(1024 * 32).unwrap();
        let p = measured_fpp(&mut filter, ndv << 32, ndv, probes);
        assert!(
            (p - expected).abs() <= 0.1 * expected + slack(expected, probes),
            "{ndv} values: measured {p}, spec {expected}"
        );
    }
}

proptest! {
    #[test]
    fn sizing_is_a_bounded_power_of_two(ndv: u64, fpp in 1e-12_f64..0.999, max_bytes: usize) {
        let bytes = sizing::optimal_num_bytes(ndv, fpp, max_bytes).unwrap();
        prop_assert!(bytes.is_power_of_two());
        prop_assert!((sizing::MIN_BYTES..=sizing::MAX_BYTES).contains(&bytes));
        prop_assert!(bytes <= max_bytes.max(sizing::MIN_BYTES));
        prop_assert!(Sbbf::validate_num_bytes(bytes as i64).is_ok());
        // Enough bits for the formula, unless capped.
        let wanted = ndv as f64 * sizing::bits_per_value(fpp).unwrap() / 8.0;
        let cap = sizing::optimal_num_bytes(u64::MAX, fpp, max_bytes).unwrap();
        prop_assert!(bytes == cap || bytes as f64 >= wanted);
        prop_assert!(bytes == sizing::MIN_BYTES || (bytes / 2) as f64 <= wanted);
    }

    #[test]
    fn sizing_by_expected_fpp_is_minimal(ndv in 0_u64..1 << 24, log10_fpp in -6.0_f64..-0.1, max_bytes in 0_usize..1 << 27) {
        let fpp = 10_f64.powf(log10_fpp);
        let bytes = sizing::num_bytes_for_expected_fpp(ndv, fpp, max_bytes).unwrap();
        prop_assert!(bytes.is_power_of_two());
        prop_assert!(bytes >= sizing::MIN_BYTES && bytes <= max_bytes.max(sizing::MIN_BYTES));
        let limit = sizing::optimal_num_bytes(u64::MAX, fpp, max_bytes).unwrap();
        prop_assert!(bytes == limit || sizing::expected_fpp(bytes, ndv) <= fpp);
        prop_assert!(bytes == sizing::MIN_BYTES || sizing::expected_fpp(bytes / 2, ndv) > fpp);
    }

    #[test]
    fn sizing_is_monotone(
        ndv in 0_u64..1 << 36,
        more in 0_u64..1 << 36,
        fpp in 1e-9_f64..0.999,
        smaller in 0.0_f64..1.0,
        max_bytes in 0_usize..1 << 28,
    ) {
        let bytes = sizing::optimal_num_bytes(ndv, fpp, max_bytes).unwrap();
        prop_assert!(sizing::optimal_num_bytes(ndv + more, fpp, max_bytes).unwrap() >= bytes);
        let fpp_smaller = (fpp * smaller).max(f64::MIN_POSITIVE);
        prop_assert!(sizing::optimal_num_bytes(ndv, fpp_smaller, max_bytes).unwrap() >= bytes);
        prop_assert!(
            sizing::bits_per_value(fpp_smaller).unwrap() >= sizing::bits_per_value(fpp).unwrap()
        );
    }
}

proptest! {
    // Each case inserts up to 100,000 values and probes up to 2,000,000.
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// A filter sized by the formula, holding `ndv` distinct values, has the false-positive
    /// rate that the spec's table gives for its bits per value, and the one that
    /// `expected_fpp` computes.
    #[test]
    fn sized_filters_meet_the_spec_table(
        ndv in 5_000_u64..100_000,
        log10_fpp in -4.3_f64..-1.0,
        base in 0_u64..1 << 40,
    ) {
        let fpp = 10_f64.powf(log10_fpp);
        let num_bytes = sizing::optimal_num_bytes(ndv, fpp, sizing::MAX_BYTES).unwrap();
        let bits = num_bytes as f64 * 8.0 / ndv as f64;
        let expected = sizing::expected_fpp(num_bytes, ndv);
        // Enough probes for about 200 false positives, at least 100,000.
        let probes = ((200.0 / expected) as u64).clamp(100_000, 2_000_000);
        let mut filter = Sbbf::new(num_bytes).unwrap();
        let measured = measured_fpp(&mut filter, base, ndv, probes);
        // The rate varies from filter to filter and from probe set to probe set.
        let spread = 5.0 * filter_to_filter_std_dev(num_bytes, ndv);

        prop_assert!(
            (measured - expected).abs() <= 0.02 * expected + spread + slack(expected, probes),
            "{num_bytes} bytes, {ndv} values ({bits:.1} bits each): measured {measured}, model {expected}"
        );
        if let Some(table) = spec_table_fpp(bits) {
            prop_assert!(
                measured <= 1.2 * table + spread + slack(table, probes)
                    && measured >= table / 1.2 - spread - slack(table, probes),
                "{bits:.1} bits per value: measured {measured}, spec table {table}"
            );
        }
    }
}
