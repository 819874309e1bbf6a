//! Decompression never writes or allocates past the caller's size: data that expands
//! further is an error, data that expands to less is an error, and sizes written inside
//! the stream are not trusted.
#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.

use parquet_compress::{Codec, Decompressor, Error, compress, decompress};

fn enabled() -> impl Iterator<Item = Codec> {
    Codec::ALL.into_iter().filter(|codec| codec.is_enabled())
}

fn compressed(codec: Codec, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    compress(codec, data, &mut out).unwrap();
    out
}

/// Decompresses into a `Vec` that already holds 5 bytes, checks the call fails, leaves
/// the 5 bytes alone, and grows the capacity by at most `expected`. Returns the error.
fn fails_within(codec: Codec, input: &[u8], expected: usize) -> Error {
    let mut out = Vec::with_capacity(5);
    out.extend_from_slice(b"12345");
    let before = out.capacity();
    let error = decompress(codec, input, expected, &mut out)
        .expect_err(&format!("{codec}: {expected} bytes expected"));
    assert_eq!(out, b"12345", "{codec}");
    assert!(
        out.capacity() - before <= expected,
        "{codec}: grew by {} for {expected}",
        out.capacity() - before,
    );
    error
}

#[test]
fn a_megabyte_of_zeros_does_not_fit_less() {
    let zeros = vec![0; 1 << 20];
    for codec in enabled() {
        let input = compressed(codec, &zeros);
        for expected in [0, 1, 1000, 65_536, zeros.len() - 1] {
            let error = fails_within(codec, &input, expected);
            assert_eq!(
                error,
                Error::TooLong {
                    codec,
                    limit: expected
                },
                "{codec}: {expected}",
            );
        }
    }
}

#[test]
fn data_shorter_than_expected_is_an_error() {
    let data = b"short page ".repeat(100);
    for codec in enabled() {
        let input = compressed(codec, &data);
        for expected in [data.len() + 1, data.len() + 1000] {
            let error = fails_within(codec, &input, expected);
            assert!(
                matches!(
                    error,
                    Error::TooShort { found, .. } if found == data.len()
                ) || matches!(error, Error::LimitExceeded { .. }),
                "{codec}: {error}",
            );
        }
    }
}

#[test]
fn an_impossible_size_is_refused_before_allocating() {
    // Every codec but Brotli bounds what a small input can become, so a page header that
    // claims 2 GiB for a kilobyte is refused without allocating.
    for codec in enabled().filter(|&codec| codec != Codec::Brotli) {
        let input = compressed(codec, &[7; 1000]);
        let mut out = Vec::new();
        let error = decompress(codec, &input, 1 << 31, &mut out).unwrap_err();
        assert_eq!(out.capacity(), 0, "{codec}");
        assert!(
            matches!(
                error,
                Error::LimitExceeded { .. } | Error::TooShort { found: 1000, .. }
            ),
            "{codec}: {error}",
        );
    }
}

#[test]
fn up_to_allocates_no_more_than_the_input_can_justify() {
    for codec in enabled().filter(|&codec| codec != Codec::Brotli) {
        let input = compressed(codec, b"tiny");
        let mut out = Vec::new();
        let written = Decompressor::new()
            .decompress_up_to(codec, &input, 1 << 30, &mut out)
            .unwrap();
        assert_eq!(out, b"tiny");
        assert_eq!(written, 4);
        assert!(out.capacity() < 1 << 20, "{codec}: {}", out.capacity());
    }
}

#[test]
fn up_to_stops_at_its_limit() {
    let data = vec![9; 100_000];
    for codec in enabled() {
        let input = compressed(codec, &data);
        let mut out = Vec::new();
        let error = Decompressor::new()
            .decompress_up_to(codec, &input, 99_999, &mut out)
            .unwrap_err();
        assert_eq!(
            error,
            Error::TooLong {
                codec,
                limit: 99_999
            }
        );
        assert!(out.is_empty());
        assert!(out.capacity() <= 99_999);
    }
}

#[test]
fn into_a_slice_stops_at_its_end() {
    let data = vec![3; 10_000];
    for codec in enabled() {
        let input = compressed(codec, &data);
        let mut out = vec![0; 9_999];
        let error = Decompressor::new()
            .decompress_into(codec, &input, &mut out)
            .unwrap_err();
        assert_eq!(
            error,
            Error::TooLong {
                codec,
                limit: 9_999
            },
        );
    }
}

#[cfg(feature = "snappy")]
#[test]
fn snappy_preamble_is_checked_before_decoding() {
    let mut input = compressed(Codec::Snappy, &[1; 1000]);
    // The preamble says 1000 (0xe8 0x07): the page header's 10 is refused at once.
    assert_eq!(input[..2], [0xe8, 0x07]);
    assert_eq!(
        fails_within(Codec::Snappy, &input, 10),
        Error::TooLong {
            codec: Codec::Snappy,
            limit: 10
        },
    );
    // A preamble that understates the data: the decoder stops at it.
    input[..2].copy_from_slice(&[10, 0x80]);
    input.remove(1);
    assert!(matches!(
        fails_within(Codec::Snappy, &input, 10),
        Error::Corrupt { .. }
    ));
}

#[cfg(feature = "lz4")]
#[test]
fn hadoop_headers_are_not_trusted() {
    // A Hadoop block that claims 10 bytes around an LZ4 block of a megabyte.
    let block = lz4_flex::block::compress(&vec![0; 1 << 20]);
    let mut input = Vec::new();
    input.extend_from_slice(&10_u32.to_be_bytes());
    input.extend_from_slice(&u32::try_from(block.len()).unwrap().to_be_bytes());
    input.extend_from_slice(&block);
    let error = fails_within(Codec::Lz4, &input, 10);
    assert!(matches!(error, Error::Corrupt { .. }), "{error}");

    // A header that claims 4 GiB for the same block, with 1000 bytes expected.
    input[..4].copy_from_slice(&u32::MAX.to_be_bytes());
    let error = fails_within(Codec::Lz4, &input, 1000);
    assert_eq!(
        error,
        Error::TooLong {
            codec: Codec::Lz4,
            limit: 1000
        }
    );
}

#[cfg(feature = "gzip")]
#[test]
fn gzip_isize_is_not_trusted() {
    let mut input = compressed(Codec::Gzip, &vec![0; 1 << 20]);
    // ISIZE claims 10 bytes.
    let len = input.len();
    input[len - 4..].copy_from_slice(&10_u32.to_le_bytes());
    assert_eq!(
        fails_within(Codec::Gzip, &input, 10),
        Error::TooLong {
            codec: Codec::Gzip,
            limit: 10
        },
    );
}

#[cfg(feature = "zstd")]
#[test]
fn zstd_without_content_size_is_bounded_by_the_output() {
    // A frame without a content size (zstd's streaming encoder leaves it out).
    let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    encoder.include_contentsize(false).unwrap();
    std::io::Write::write_all(&mut encoder, &vec![5; 1 << 20]).unwrap();
    let input = encoder.finish().unwrap();
    assert_eq!(
        fails_within(Codec::Zstd, &input, 4096),
        Error::TooLong {
            codec: Codec::Zstd,
            limit: 4096
        },
    );
    let mut out = Vec::new();
    decompress(Codec::Zstd, &input, 1 << 20, &mut out).unwrap();
    assert_eq!(out, vec![5; 1 << 20]);
}
