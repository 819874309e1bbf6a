//! Truncated, bit-flipped and arbitrary inputs give errors, never panics, and never grow
//! the output past the caller's size.
#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.

use parquet_compress::{Codec, Decompressor, Error, compress};
use proptest::prelude::*;

fn enabled() -> impl Iterator<Item = Codec> {
    Codec::ALL.into_iter().filter(|codec| codec.is_enabled())
}

/// A page of text and numbers that every codec compresses.
fn page() -> Vec<u8> {
    let mut page = Vec::new();
    for i in 0..400_u32 {
        page.extend_from_slice(format!("row {i}: value {} ", i * 7 % 13).as_bytes());
        page.extend_from_slice(&(i / 4).to_le_bytes());
    }
    page
}

fn compressed(codec: Codec, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    compress(codec, data, &mut out).unwrap();
    out
}

/// Decompresses, checking the output bound; returns the result.
fn decompress_checked(
    decompressor: &mut Decompressor,
    codec: Codec,
    input: &[u8],
    expected: usize,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let result = decompressor.decompress(codec, input, expected, &mut out);
    assert!(out.capacity() <= expected, "{codec}");
    match result {
        Ok(()) => {
            assert_eq!(out.len(), expected, "{codec}");
            Ok(out)
        }
        Err(error) => {
            assert!(out.is_empty(), "{codec}");
            Err(error)
        }
    }
}

#[test]
fn every_truncation_fails() {
    let page = page();
    let mut decompressor = Decompressor::new();
    for codec in enabled() {
        let input = compressed(codec, &page);
        let step = (input.len() / 300).max(1);
        for len in (0..input.len())
            .step_by(step)
            .chain(input.len() - 8..input.len())
        {
            let result = decompress_checked(&mut decompressor, codec, &input[..len], page.len());
            assert!(result.is_err(), "{codec}: cut to {len} of {}", input.len());
        }
    }
}

#[test]
fn every_single_bit_flip_fails_or_keeps_the_size() {
    // Codecs without a checksum can decode a flipped literal to a wrong byte; what
    // matters is that nothing panics and the output stays within its size. Gzip checks
    // a CRC-32, so every flip after the 10-byte member header (whose time stamp, XFL,
    // OS and FTEXT bits mean nothing to a reader) must be an error.
    let page = page();
    let mut decompressor = Decompressor::new();
    for codec in enabled() {
        let input = compressed(codec, &page);
        let step = (input.len() / 200).max(1);
        for at in (0..input.len()).step_by(step) {
            for bit in [0, 3, 7] {
                let mut flipped = input.clone();
                flipped[at] ^= 1 << bit;
                let result = decompress_checked(&mut decompressor, codec, &flipped, page.len());
                match codec {
                    Codec::Gzip if at >= 10 => {
                        assert!(result.is_err(), "{codec}: bit {bit} of byte {at}");
                    }
                    Codec::Uncompressed => assert_ne!(result.unwrap(), page),
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn errors_say_what_and_where() {
    let mut decompressor = Decompressor::new();
    if Codec::Gzip.is_enabled() {
        let mut out = Vec::new();
        assert_eq!(
            decompressor.decompress(Codec::Gzip, b"PAR1 not gzip", 13, &mut out),
            Err(Error::Invalid {
                what: "gzip magic",
                offset: 0,
                value: 0x5041,
            }),
        );
        assert_eq!(
            decompressor
                .decompress(Codec::Gzip, b"PAR1 not gzip", 13, &mut out)
                .unwrap_err()
                .to_string(),
            "invalid gzip magic at offset 0: 20545",
        );
    }
    if Codec::Zstd.is_enabled() {
        let error = decompressor
            .decompress(Codec::Zstd, b"not a zstd frame", 100, &mut Vec::new())
            .unwrap_err();
        assert!(
            matches!(
                error,
                Error::Corrupt {
                    codec: Codec::Zstd,
                    ..
                }
            ),
            "{error}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(
        input in prop::collection::vec(any::<u8>(), 0..600),
        expected in 0..20_000_usize,
    ) {
        let mut decompressor = Decompressor::new();
        for codec in enabled() {
            let _ = decompress_checked(&mut decompressor, codec, &input, expected);
            let mut out = Vec::new();
            let _ = decompressor.decompress_up_to(codec, &input, expected, &mut out);
            prop_assert!(out.capacity() <= expected);
        }
    }

    #[test]
    fn flipped_and_cut_pages_never_panic(
        at in any::<prop::sample::Index>(),
        bit in 0..8_u8,
        cut in any::<prop::sample::Index>(),
    ) {
        let page = page();
        let mut decompressor = Decompressor::new();
        for codec in enabled() {
            let mut input = compressed(codec, &page);
            let at = at.index(input.len());
            input[at] ^= 1 << bit;
            let _ = decompress_checked(&mut decompressor, codec, &input, page.len());
            input.truncate(cut.index(input.len()));
            let _ = decompress_checked(&mut decompressor, codec, &input, page.len());
        }
    }

    /// Garbage after a complete stream is an error. Not for LZ4 blocks, where a zero
    /// byte is a valid empty last sequence, nor the Hadoop framings, where garbage that
    /// parses as more blocks is more data.
    #[test]
    fn trailing_garbage_fails(garbage in prop::collection::vec(any::<u8>(), 1..16)) {
        let page = page();
        let mut decompressor = Decompressor::new();
        let strict = [Codec::Lz4Raw, Codec::Lz4, Codec::Lzo];
        for codec in enabled().filter(|codec| !strict.contains(codec)) {
            let mut input = compressed(codec, &page);
            input.extend_from_slice(&garbage);
            let result = decompress_checked(&mut decompressor, codec, &input, page.len());
            prop_assert!(result.is_err(), "{}", codec);
        }
    }
}
