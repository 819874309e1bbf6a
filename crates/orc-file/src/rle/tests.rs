//! Tests of the shared helpers.

use super::*;

#[test]
fn spec_varints() {
    // orc-v1.md, "Base 128 Varint".
    let cases: [(u64, &[u8]); 8] = [
        (0, &[0x00]),
        (1, &[0x01]),
        (127, &[0x7f]),
        (128, &[0x80, 0x01]),
        (129, &[0x81, 0x01]),
        (16_383, &[0xff, 0x7f]),
        (16_384, &[0x80, 0x80, 0x01]),
        (16_385, &[0x81, 0x80, 0x01]),
    ];
    for (value, bytes) in cases {
        let mut out = Vec::new();
        varint::encode_u64(value, &mut out);
        assert_eq!(out, bytes);
        let mut pos = 0;
        assert_eq!(read_varint(bytes, &mut pos, "v"), Ok(value));
        assert_eq!(pos, bytes.len());
    }
    let mut out = Vec::new();
    varint::encode_u64(u64::MAX, &mut out);
    assert_eq!(out.len(), MAX_VARINT_LEN);
    assert_eq!(read_varint(&out, &mut 0, "v"), Ok(u64::MAX));
}

#[test]
fn spec_zigzag() {
    // orc-v1.md's zigzag is parquet-core's.
    for (signed, unsigned) in [(0, 0), (-1, 1), (1, 2), (-2, 3), (2, 4)] {
        assert_eq!(zigzag::encode_i64(signed), unsigned);
        assert_eq!(zigzag::decode_i64(unsigned), signed);
    }
    assert_eq!(zigzag::decode_i64(zigzag::encode_i64(i64::MIN)), i64::MIN);
    assert_eq!(zigzag::decode_i64(zigzag::encode_i64(i64::MAX)), i64::MAX);
}

#[test]
fn varint_errors() {
    assert!(matches!(
        read_varint(&[0x80, 0x80], &mut 0, "v"),
        Err(Error::Truncated { offset: 0, .. })
    ));
    assert!(matches!(
        read_varint(&[], &mut 0, "v"),
        Err(Error::Truncated { .. })
    ));
    let eleven = [0xff; 11];
    assert!(matches!(
        read_varint(&eleven, &mut 0, "v"),
        Err(Error::Invalid { .. })
    ));
    // Ten bytes, bits past the 64th dropped, as Java does.
    let ten = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f];
    assert_eq!(read_varint(&ten, &mut 0, "v"), Ok(u64::MAX));
}

#[test]
fn varint_fast_path_agrees_with_the_slow_one() {
    let mut seed = 0x0123_4567_89ab_cdefu64;
    for shift in 0..64 {
        for _ in 0..50 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let value = seed >> shift;
            let mut bytes = Vec::new();
            varint::encode_u64(value, &mut bytes);
            let len = bytes.len();
            // With and without bytes after it (the fast path needs 10).
            for tail in [0usize, 1, 9] {
                let mut input = bytes.clone();
                input.extend(std::iter::repeat_n(0xffu8, tail));
                let mut pos = 0;
                assert_eq!(read_varint(&input, &mut pos, "v"), Ok(value));
                assert_eq!(pos, len);
                let mut pos = 0;
                assert_eq!(read_varint_slow(&input, &mut pos, "v"), Ok(value));
                assert_eq!(pos, len);
            }
        }
    }
    // A zero last group and a varint at an offset.
    let input = [0x05, 0x81, 0x80, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
    let mut pos = 1;
    assert_eq!(read_varint(&input, &mut pos, "v"), Ok(1));
    assert_eq!(pos, 4);
}
