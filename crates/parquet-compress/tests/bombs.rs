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

/// The room a growing output starts with for an input of `len` bytes (the crate's
/// `first_room`): 32 times the input plus 64 KiB.
fn first_room(len: usize) -> usize {
    32 * len + (64 << 10)
}

/// The most capacity that decompressing `input` (of `codec`) may take for a size it
/// cannot back: for the codecs whose room grows with the data, the first room; for LZ4
/// and LZO, which decode into room for the whole size, their best ratio.
fn room_bound(codec: Codec, input: &[u8]) -> usize {
    match codec {
        Codec::Lz4 | Codec::Lz4Raw | Codec::Lzo | Codec::LzoRaw => 255 * input.len() + 64,
        _ => first_room(input.len()),
    }
}

/// A page header that claims far more than a small page holds: for every codec, the
/// call fails and `out` (which held 5 bytes) takes no more capacity than the input
/// justifies, whatever the claim, up to the largest the codec's best ratio allows.
#[test]
fn claimed_sizes_cost_what_the_input_justifies() {
    // 2000 bytes that hardly compress: 2 MB is within DEFLATE's 1032:1 of them, but far
    // more than the 64 KiB + 32:1 of room that a growing output starts with.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let data: Vec<u8> = (0..2000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[3]
        })
        .collect();
    for codec in enabled() {
        let input = compressed(codec, &data);
        let len = input.len();
        for claim in [
            1 << 30,
            1032 * len,
            255 * len + 64,
            256 << 10,
            data.len() + 1,
        ] {
            let mut out = Vec::with_capacity(5);
            out.extend_from_slice(b"12345");
            let result = decompress(codec, &input, claim, &mut out);
            assert!(result.is_err(), "{codec}: {claim}");
            assert_eq!(out, b"12345", "{codec}");
            let bound = room_bound(codec, &input).min(claim);
            assert!(
                out.capacity() - 5 <= bound,
                "{codec}: {} bytes of room for a claim of {claim} on {len} bytes",
                out.capacity() - 5,
            );
        }
        // The same for `decompress_up_to`, whose limit is a cap, not a size: the room
        // follows the data.
        let mut out = Vec::new();
        let written = Decompressor::new()
            .decompress_up_to(codec, &input, 1 << 30, &mut out)
            .unwrap();
        assert_eq!(written, data.len());
        assert_eq!(out, data);
        assert!(
            out.capacity() <= room_bound(codec, &input),
            "{codec}: {}",
            out.capacity()
        );
    }
}

#[cfg(feature = "brotli")]
#[test]
fn brotli_claims_of_a_gigabyte_cost_kilobytes() {
    // Brotli has no best ratio to refuse a claim by: the room grows with the data.
    let input = compressed(Codec::Brotli, b"tiny");
    let mut out = Vec::new();
    let error = decompress(Codec::Brotli, &input, 1 << 30, &mut out).unwrap_err();
    assert_eq!(
        error,
        Error::TooShort {
            codec: Codec::Brotli,
            expected: 1 << 30,
            found: 4
        }
    );
    assert!(out.is_empty());
    assert!(
        out.capacity() <= first_room(input.len()),
        "{}",
        out.capacity()
    );
    let mut out = Vec::new();
    let written = Decompressor::new()
        .decompress_up_to(Codec::Brotli, &input, 1 << 30, &mut out)
        .unwrap();
    assert_eq!((written, &out[..]), (4, &b"tiny"[..]));
    assert!(
        out.capacity() <= first_room(input.len()),
        "{}",
        out.capacity()
    );
}

/// Data that compresses far better than 32:1 outgrows the first room: the room doubles
/// until it holds the data, which decompresses whole and right; past the size it is
/// still an error.
#[test]
fn growing_room_holds_highly_compressed_data() {
    let mut data = Vec::new();
    for i in 0..(2 << 20) / 64 {
        data.extend_from_slice(&[u8::try_from(i / 2048).unwrap(); 64]);
    }
    for codec in enabled() {
        let input = compressed(codec, &data);
        let mut out = b"12345".to_vec();
        decompress(codec, &input, data.len(), &mut out).unwrap();
        assert!(out[5..] == data[..], "{codec}");
        assert_eq!(&out[..5], b"12345");
        let mut out = Vec::new();
        let written = Decompressor::new()
            .decompress_up_to(codec, &input, data.len() + 1000, &mut out)
            .unwrap();
        assert_eq!(written, data.len(), "{codec}");
        assert!(out == data, "{codec}");
        assert!(out.capacity() <= data.len() + 1000, "{codec}");
        // One byte less room than the data: an error, after the room has grown to it.
        let mut out = b"12345".to_vec();
        assert_eq!(
            decompress(codec, &input, data.len() - 1, &mut out),
            Err(Error::TooLong {
                codec,
                limit: data.len() - 1
            }),
        );
        assert_eq!(out, b"12345");
        let mut out = Vec::new();
        assert_eq!(
            Decompressor::new().decompress_up_to(codec, &input, data.len() - 1, &mut out),
            Err(Error::TooLong {
                codec,
                limit: data.len() - 1
            }),
        );
        assert!(out.is_empty());
    }
}

#[cfg(feature = "gzip")]
#[test]
fn gzip_members_are_checked_across_growing_room() {
    // Several members, each far more compressed than 32:1: their CRCs and lengths are
    // checked over output that moved as the room grew.
    let parts: Vec<Vec<u8>> = (0..5_u8)
        .map(|i| vec![i; 300_000 + usize::from(i)])
        .collect();
    let mut input = Vec::new();
    for part in &parts {
        input.extend_from_slice(&compressed(Codec::Gzip, part));
    }
    let all = parts.concat();
    let mut out = Vec::new();
    decompress(Codec::Gzip, &input, all.len(), &mut out).unwrap();
    assert!(out == all);
    // A flipped byte of the last member's CRC is still found.
    let crc_at = input.len() - 8;
    input[crc_at] ^= 1;
    let mut out = Vec::new();
    assert!(matches!(
        decompress(Codec::Gzip, &input, all.len(), &mut out),
        Err(Error::Corrupt { .. })
    ));
    assert!(out.is_empty());
}

#[cfg(feature = "snappy")]
#[test]
fn snappy_preamble_larger_than_the_block_can_hold_is_refused() {
    // A preamble of 2^30 on a 20-byte block: no block that short makes that much.
    let mut input = vec![0x80, 0x80, 0x80, 0x80, 0x04];
    input.extend_from_slice(&compressed(Codec::Snappy, b"tiny")[1..]);
    let mut out = Vec::new();
    assert!(matches!(
        decompress(Codec::Snappy, &input, 1 << 30, &mut out),
        Err(Error::Corrupt {
            codec: Codec::Snappy,
            ..
        })
    ));
    assert_eq!(out.capacity(), 0);
    assert!(matches!(
        Decompressor::new().decompress_up_to(Codec::Snappy, &input, 1 << 30, &mut out),
        Err(Error::Corrupt { .. })
    ));
    assert_eq!(out.capacity(), 0);
}

#[cfg(any(feature = "zstd", feature = "ruzstd"))]
#[test]
fn zstd_content_size_larger_than_the_frame_can_hold_is_refused() {
    // A frame that declares 2^30 bytes (single segment, 8-byte content size) and holds
    // one RLE block of one byte: 17 bytes cannot make more than 17 * 32 KiB.
    let mut input = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
    input.extend_from_slice(&(1_u64 << 30).to_le_bytes());
    input.extend_from_slice(&[0x0b, 0x00, 0x00, b'x']);
    let mut out = Vec::new();
    let error = decompress(Codec::Zstd, &input, 1 << 30, &mut out).unwrap_err();
    // The pure-Rust backend reads no content sizes up front: its room grows instead.
    assert!(
        matches!(
            error,
            Error::Corrupt { .. } | Error::LimitExceeded { .. } | Error::TooShort { .. }
        ),
        "{error}"
    );
    assert!(
        out.capacity() <= first_room(input.len()),
        "{}",
        out.capacity()
    );
}

#[cfg(feature = "zstd")]
#[test]
fn zstd_without_content_size_grows_with_the_data() {
    let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    encoder.include_contentsize(false).unwrap();
    std::io::Write::write_all(&mut encoder, b"tiny").unwrap();
    let input = encoder.finish().unwrap();
    // Within 32768:1 of the input, but far more than it makes.
    let claim = 32 * 1024 * input.len();
    let mut out = Vec::new();
    assert_eq!(
        decompress(Codec::Zstd, &input, claim, &mut out),
        Err(Error::TooShort {
            codec: Codec::Zstd,
            expected: claim,
            found: 4
        })
    );
    assert!(
        out.capacity() <= first_room(input.len()),
        "{}",
        out.capacity()
    );
}
