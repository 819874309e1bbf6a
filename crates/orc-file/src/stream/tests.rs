#![allow(clippy::cast_possible_truncation)]

use proptest::prelude::*;

use super::*;

/// The kinds this build has, `NONE` included.
fn enabled() -> Vec<OrcCompression> {
    OrcCompression::ALL
        .into_iter()
        .filter(|kind| kind.is_enabled())
        .collect()
}

/// The compressed kinds this build has.
fn codecs() -> Vec<OrcCompression> {
    enabled()
        .into_iter()
        .filter(|kind| kind.is_compressed())
        .collect()
}

/// Bytes that compress well: small integers, little-endian.
fn compressible(len: usize) -> Vec<u8> {
    (0..len).map(|i| ((i / 16) % 7) as u8).collect()
}

/// Bytes that do not compress: a xorshift sequence.
fn noise(len: usize) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect()
}

fn encode(kind: OrcCompression, block: usize, data: &[u8]) -> (Vec<u8>, Vec<(u64, u64)>) {
    let mut encoder = ChunkEncoder::new(kind, None, block).unwrap();
    let (mut out, mut starts) = (Vec::new(), Vec::new());
    encoder.encode_stream(data, &mut out, &mut starts).unwrap();
    (out, starts)
}

/// A decoded stream and its chunk starts.
type Decoded = (Vec<u8>, Vec<(u64, u64)>);

fn decode(kind: OrcCompression, block: u64, stream: &[u8]) -> Result<Decoded> {
    let mut decoder = ChunkDecoder::new(kind, block)?;
    let (mut out, mut starts) = (Vec::new(), Vec::new());
    decoder.decode_stream(stream, &mut out, &mut starts)?;
    Ok((out, starts))
}

/// The headers of a stream: `(offset, length, is_original)`.
fn headers(stream: &[u8]) -> Vec<(usize, usize, bool)> {
    let mut pos = 0;
    let mut found = Vec::new();
    while pos < stream.len() {
        let (len, original) = read_header(stream[pos..pos + 3].try_into().unwrap());
        found.push((pos, len, original));
        pos += 3 + len;
    }
    assert_eq!(pos, stream.len());
    found
}

#[test]
fn spec_header_examples() {
    // "the header for a chunk that compressed to 100,000 bytes would be [0x40, 0x0d,
    // 0x03]. The header for 5 bytes that did not compress would be [0x0b, 0x00, 0x00]."
    assert_eq!(write_header(100_000, false), [0x40, 0x0d, 0x03]);
    assert_eq!(write_header(5, true), [0x0b, 0x00, 0x00]);
    assert_eq!(read_header([0x40, 0x0d, 0x03]), (100_000, false));
    assert_eq!(read_header([0x0b, 0x00, 0x00]), (5, true));
    assert_eq!(read_header([0xff, 0xff, 0xff]), (MAX_CHUNK_LEN, true));
    assert_eq!(write_header(MAX_CHUNK_LEN, false), [0xfe, 0xff, 0xff]);
}

#[test]
fn spec_original_chunk_decodes_with_every_codec() {
    // Five bytes that did not compress, then a second original chunk of three.
    let stream = [
        0x0b, 0x00, 0x00, b'h', b'e', b'l', b'l', b'o', 0x07, 0x00, 0x00, 1, 2, 3,
    ];
    for kind in codecs() {
        let (out, starts) = decode(kind, 262_144, &stream).unwrap();
        assert_eq!(out, b"hello\x01\x02\x03", "{kind}");
        assert_eq!(starts, [(0, 0), (8, 5), (14, 8)], "{kind}");
    }
}

#[test]
fn round_trips_every_codec_and_size() {
    let block = 1000;
    for kind in enabled() {
        for len in [0, 1, 2, 999, 1000, 1001, 2000, 5500] {
            for data in [compressible(len), noise(len)] {
                let (stream, written) = encode(kind, block, &data);
                let (out, read) = decode(kind, block as u64, &stream).unwrap();
                assert_eq!(out, data, "{kind} {len}");
                assert_eq!(read, written, "{kind} {len}");
                if !kind.is_compressed() {
                    assert_eq!(stream, data);
                    assert!(written.is_empty());
                    continue;
                }
                // One chunk per block, then the end.
                assert_eq!(written.len(), len.div_ceil(block) + 1, "{kind} {len}");
                assert_eq!(*written.last().unwrap(), (stream.len() as u64, len as u64));
                let header_offsets: Vec<_> = headers(&stream).iter().map(|h| h.0 as u64).collect();
                let starts: Vec<_> = written.iter().map(|w| w.0).collect();
                assert_eq!(header_offsets, starts[..starts.len() - 1], "{kind} {len}");
            }
        }
    }
}

#[test]
fn chunks_that_do_not_shrink_are_stored_original() {
    for kind in codecs() {
        let (stream, _) = encode(kind, 4096, &noise(10_000));
        let found = headers(&stream);
        assert_eq!(found.len(), 3);
        assert!(found.iter().all(|&(_, _, original)| original), "{kind}");
        assert_eq!(stream.len(), 10_000 + 3 * 3, "{kind}");
        assert_eq!(stream[3..3 + 4096], noise(10_000)[..4096]);

        let (stream, _) = encode(kind, 4096, &compressible(10_000));
        let found = headers(&stream);
        assert!(found.iter().all(|&(_, _, original)| !original), "{kind}");
        assert!(stream.len() < 10_000 / 4, "{kind}: {}", stream.len());
    }
}

#[test]
fn a_mix_of_original_and_compressed_chunks() {
    for kind in codecs() {
        let data = [compressible(3000), noise(3000), compressible(3000)].concat();
        let (stream, written) = encode(kind, 3000, &data);
        let flags: Vec<_> = headers(&stream).iter().map(|h| h.2).collect();
        assert_eq!(flags, [false, true, false], "{kind}");
        let (out, read) = decode(kind, 3000, &stream).unwrap();
        assert_eq!(out, data);
        assert_eq!(read, written);
    }
}

#[test]
fn encode_appends_with_offsets_relative_to_the_stream() {
    for kind in codecs() {
        let data = compressible(2500);
        let mut encoder = ChunkEncoder::new(kind, None, 1000).unwrap();
        let mut out = b"previous stream".to_vec();
        let mut starts = vec![(99, 99)];
        encoder.encode_stream(&data, &mut out, &mut starts).unwrap();
        assert_eq!(&out[..15], b"previous stream");
        let (alone, alone_starts) = encode(kind, 1000, &data);
        assert_eq!(out[15..], alone);
        assert_eq!(starts, alone_starts, "cleared, relative to the stream");
        assert_eq!(starts[0], (0, 0));
    }
}

#[test]
fn levels() {
    if OrcCompression::Zlib.is_enabled() {
        let data = compressible(50_000);
        let (fast, _) = {
            let mut encoder = ChunkEncoder::new(OrcCompression::Zlib, Some(1), 65_536).unwrap();
            let (mut out, mut starts) = (Vec::new(), Vec::new());
            encoder.encode_stream(&data, &mut out, &mut starts).unwrap();
            (out, starts)
        };
        assert_eq!(decode(OrcCompression::Zlib, 65_536, &fast).unwrap().0, data);
        assert!(matches!(
            ChunkEncoder::new(OrcCompression::Zlib, Some(10), 65_536).map_err(Error::into_kind),
            Err(ErrorKind::Compress {
                source: parquet_compress::Error::InvalidLevel { level: 10, .. }
            })
        ));
    }
    if OrcCompression::Zstd.is_enabled() {
        assert!(ChunkEncoder::new(OrcCompression::Zstd, Some(19), 65_536).is_ok());
    }
    for kind in [
        OrcCompression::Snappy,
        OrcCompression::Lz4,
        OrcCompression::None,
    ] {
        if kind.is_enabled() {
            assert!(matches!(
                ChunkEncoder::new(kind, Some(1), 65_536).map_err(Error::into_kind),
                Err(ErrorKind::Compress {
                    source: parquet_compress::Error::Unsupported { .. }
                })
            ));
        }
    }
}

#[test]
fn block_sizes_out_of_range() {
    for kind in codecs() {
        for block in [0, MAX_CHUNK_LEN + 1] {
            assert!(
                matches!(
                    ChunkEncoder::new(kind, None, block).map_err(Error::into_kind),
                    Err(ErrorKind::InvalidInput { value: Some(v), .. }) if v == block as i128
                ),
                "{kind} {block}"
            );
        }
        assert!(ChunkEncoder::new(kind, None, MAX_CHUNK_LEN).is_ok());
        assert!(matches!(
            ChunkDecoder::new(kind, 0).map_err(Error::into_kind),
            Err(ErrorKind::Invalid { value: 0, .. })
        ));
    }
    // NONE has no chunks: the block size is not used.
    assert!(ChunkEncoder::new(OrcCompression::None, None, 0).is_ok());
    assert!(ChunkDecoder::new(OrcCompression::None, 0).is_ok());
}

#[test]
fn a_chunk_at_the_header_limit() {
    // A block size of 2^23 - 1 fills a header's 23 bits. (LZ4 is the fastest codec to
    // give up on 8 MiB of noise.)
    let codecs = codecs();
    let Some(&kind) = codecs
        .iter()
        .find(|&&kind| kind == OrcCompression::Lz4)
        .or(codecs.first())
    else {
        return;
    };
    let data = noise(MAX_CHUNK_LEN + 10);
    let (stream, written) = encode(kind, MAX_CHUNK_LEN, &data);
    assert_eq!(stream[..3], [0xff, 0xff, 0xff]);
    assert_eq!(written[1].1, MAX_CHUNK_LEN as u64);
    assert_eq!(decode(kind, MAX_CHUNK_LEN as u64, &stream).unwrap().0, data);
}

#[test]
fn original_chunk_longer_than_the_block_size() {
    for kind in codecs() {
        let mut stream = write_header(6, true).to_vec();
        stream.extend_from_slice(b"abcdef");
        assert_eq!(decode(kind, 6, &stream).unwrap().0, b"abcdef");
        let error = decode(kind, 5, &stream).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::Decode {
                    source: parquet_core::Error::LimitExceeded {
                        requested: 6,
                        limit: 5,
                        ..
                    },
                    ..
                }
            ),
            "{kind}: {error}"
        );
    }
}

#[test]
fn compressed_chunk_that_expands_past_the_block_size() {
    // A writer with a block size of 1 MiB, a reader told 64 KiB: each codec's
    // one-chunk stream must fail, with no more than the block size held for it.
    let block = 65_536;
    for kind in codecs() {
        let data = compressible(1 << 20);
        let mut compressed = Vec::new();
        Compressor::new(kind.codec())
            .compress(&data, &mut compressed)
            .unwrap();
        assert!(compressed.len() < MAX_CHUNK_LEN);
        let mut stream = write_header(compressed.len(), false).to_vec();
        stream.extend_from_slice(&compressed);

        let mut decoder = ChunkDecoder::new(kind, block as u64).unwrap();
        let (mut out, mut starts) = (Vec::new(), Vec::new());
        let error = decoder
            .decode_stream(&stream, &mut out, &mut starts)
            .unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::Decompress {
                    source: parquet_compress::Error::TooLong { limit, .. }
                } if *limit == block
            ),
            "{kind}: {error}"
        );
        assert!(out.is_empty());
        assert!(out.capacity() <= block, "{kind}: {}", out.capacity());

        // With the writer's block size it decodes.
        let (back, _) = decode(kind, 1 << 20, &stream).unwrap();
        assert_eq!(back, data, "{kind}");
    }
}

#[test]
fn truncated_headers_and_chunks() {
    for kind in codecs() {
        for partial in [&[0x0b][..], &[0x0b, 0x00]] {
            let mut stream = vec![0x03, 0x00, 0x00, 7];
            stream.extend_from_slice(partial);
            let error = decode(kind, 100, &stream).unwrap_err();
            assert!(
                matches!(
                    error.kind(),
                    ErrorKind::Decode {
                        source: parquet_core::Error::Truncated {
                            offset: 4,
                            needed: 3,
                            ..
                        },
                        ..
                    }
                ),
                "{kind}: {error}"
            );
        }
        let stream = [0x0b, 0x00, 0x00, 1, 2, 3];
        let error = decode(kind, 100, &stream).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::Decode {
                    source: parquet_core::Error::Truncated {
                        offset: 3,
                        needed: 5,
                        available: 3,
                        ..
                    },
                    ..
                }
            ),
            "{kind}: {error}"
        );
    }
}

#[test]
fn every_prefix_and_bit_flip_is_handled() {
    for kind in codecs() {
        let data = [compressible(700), noise(300), compressible(500)].concat();
        let (stream, written) = encode(kind, 512, &data);
        let boundaries: Vec<_> = written.iter().map(|w| w.0 as usize).collect();
        for len in 0..stream.len() {
            let result = decode(kind, 512, &stream[..len]);
            // A prefix that ends on a chunk boundary is a shorter stream.
            assert_eq!(
                result.is_ok(),
                boundaries.contains(&len),
                "{kind} prefix {len}"
            );
        }
        for i in 0..stream.len() {
            for bit in [0x01, 0x80] {
                let mut flipped = stream.clone();
                flipped[i] ^= bit;
                if let Ok((out, _)) = decode(kind, 512, &flipped) {
                    // Nothing longer than the chunks can hold.
                    assert!(out.len() <= 512 * (flipped.len() / 3 + 1));
                }
            }
        }
    }
}

#[test]
fn empty_chunks_and_streams() {
    for kind in codecs() {
        let (out, starts) = decode(kind, 100, &[]).unwrap();
        assert!(out.is_empty());
        assert_eq!(starts, [(0, 0)]);
        assert_eq!(seek_offset(&starts, 0, 0).unwrap(), 0);

        // An empty original chunk, then "ab", then another empty one.
        let stream = [0x01, 0, 0, 0x05, 0, 0, b'a', b'b', 0x01, 0, 0];
        let (out, starts) = decode(kind, 100, &stream).unwrap();
        assert_eq!(out, b"ab");
        assert_eq!(starts, [(0, 0), (3, 0), (8, 2), (11, 2)]);
        assert_eq!(seek_offset(&starts, 0, 0).unwrap(), 0);
        assert!(seek_offset(&starts, 0, 1).is_err());
        assert_eq!(seek_offset(&starts, 3, 2).unwrap(), 2);
        assert_eq!(seek_offset(&starts, 11, 0).unwrap(), 2);

        let (stream, starts) = encode(kind, 100, &[]);
        assert!(stream.is_empty());
        assert_eq!(starts, [(0, 0)]);
        assert_eq!(position_of(&starts, 0), (0, 0));
    }
}

#[test]
fn none_has_no_chunks() {
    let data = noise(1000);
    let mut decoder = ChunkDecoder::new(OrcCompression::None, 10).unwrap();
    let (mut out, mut starts) = (vec![1, 2, 3], vec![(1, 1)]);
    decoder.decode_stream(&data, &mut out, &mut starts).unwrap();
    assert_eq!(out, data);
    assert!(starts.is_empty());
    let cow = decoder.decode_stream_cow(&data, &mut starts).unwrap();
    assert!(matches!(cow, Cow::Borrowed(bytes) if bytes.as_ptr() == data.as_ptr()));
    assert_eq!(position_of(&[], 700), (0, 700));
}

#[test]
fn decode_stream_cow_owns_decompressed_streams() {
    for kind in codecs() {
        let data = compressible(3000);
        let (stream, written) = encode(kind, 1000, &data);
        let mut decoder = ChunkDecoder::new(kind, 1000).unwrap();
        let mut starts = Vec::new();
        let cow = decoder.decode_stream_cow(&stream, &mut starts).unwrap();
        assert!(matches!(&cow, Cow::Owned(bytes) if *bytes == data));
        assert_eq!(starts, written);
        // The context is reused for the next stream.
        let cow = decoder.decode_stream_cow(&stream, &mut starts).unwrap();
        assert_eq!(&*cow, &data[..]);
    }
}

#[test]
fn positions_at_boundaries_and_the_end() {
    let Some(kind) = codecs().into_iter().next() else {
        return;
    };
    let data = compressible(2500);
    let (stream, starts) = encode(kind, 1000, &data);
    let second = starts[1].0;
    let third = starts[2].0;
    assert_eq!(position_of(&starts, 0), (0, 0));
    assert_eq!(position_of(&starts, 999), (0, 999));
    // A boundary is the next chunk's start, as Apache ORC's writer records it.
    assert_eq!(position_of(&starts, 1000), (second, 0));
    assert_eq!(position_of(&starts, 2499), (third, 499));
    assert_eq!(position_of(&starts, 2500), (stream.len() as u64, 0));
    assert_eq!(position_of(&starts, 2600), (stream.len() as u64, 100));

    let (_, read) = decode(kind, 1000, &stream).unwrap();
    assert_eq!(seek_offset(&read, 0, 0).unwrap(), 0);
    assert_eq!(seek_offset(&read, second, 0).unwrap(), 1000);
    // The end of a chunk is the same place as the next one's start.
    assert_eq!(seek_offset(&read, 0, 1000).unwrap(), 1000);
    assert_eq!(seek_offset(&read, third, 500).unwrap(), 2500);
    assert_eq!(seek_offset(&read, stream.len() as u64, 0).unwrap(), 2500);

    for (compressed, within) in [
        (0, 1001),
        (third, 501),
        (stream.len() as u64, 1),
        (1, 0),
        (second + 1, 0),
        (stream.len() as u64 + 3, 0),
        (u64::MAX, u64::MAX),
    ] {
        let error = seek_offset(&read, compressed, within).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::Invalid { .. } | ErrorKind::OutOfBounds { .. }
            ),
            "({compressed}, {within}): {error}"
        );
    }
    assert!(seek_offset(&[], 0, 0).is_err());
}

#[test]
fn compression_kinds() {
    for (number, kind) in OrcCompression::ALL.into_iter().enumerate() {
        let number = i32::try_from(number).unwrap();
        assert_eq!(OrcCompression::from_proto(number).unwrap(), kind);
        assert_eq!(kind.to_proto() as i32, number);
        assert_eq!(kind.to_proto().as_str_name(), kind.name());
        assert_eq!(kind.to_string(), kind.name());
        assert_eq!(
            Codec::from_orc(u32::try_from(number).unwrap()).unwrap(),
            kind.codec()
        );
    }
    assert_eq!(OrcCompression::Zlib.to_string(), "ZLIB");
    assert!(!OrcCompression::None.is_compressed());
    assert!(OrcCompression::Lzo.is_compressed());
    for number in [6, 7, -1, i32::MAX] {
        let error = OrcCompression::from_proto(number).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::Unsupported { .. }),
            "{number}"
        );
    }
    assert_eq!(
        OrcCompression::from_proto(6).unwrap_err().to_string(),
        "unsupported BROTLI compression"
    );
}

#[test]
fn disabled_codecs_are_unsupported() {
    // Only a build without some codec feature has any.
    for kind in OrcCompression::ALL
        .into_iter()
        .filter(|kind| !kind.is_enabled())
    {
        let error = ChunkDecoder::new(kind, 1000).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::CodecDisabled { codec, .. } if *codec == kind.name()),
            "{kind}: {error}"
        );
        assert!(matches!(
            ChunkEncoder::new(kind, None, 1000).map_err(Error::into_kind),
            Err(ErrorKind::CodecDisabled { .. })
        ));
    }
}

proptest! {
    #[test]
    fn round_trip_and_positions(
        data in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..4000),
            proptest::collection::vec(0..3_u8, 0..4000),
        ],
        block in 1..1500_usize,
        offsets in proptest::collection::vec(any::<prop::sample::Index>(), 1..8),
    ) {
        for kind in codecs() {
            let (stream, written) = encode(kind, block, &data);
            let (out, read) = decode(kind, block as u64, &stream).unwrap();
            prop_assert_eq!(&out, &data);
            prop_assert_eq!(&read, &written);
            for offset in &offsets {
                let offset = offset.index(data.len() + 1) as u64;
                let (compressed, within) = position_of(&written, offset);
                prop_assert!(within < block as u64 || within == 0);
                prop_assert_eq!(seek_offset(&read, compressed, within).unwrap() as u64, offset);
            }
        }
    }

    #[test]
    fn arbitrary_streams_do_not_panic(
        stream in proptest::collection::vec(any::<u8>(), 0..600),
        block in 1..2000_u64,
    ) {
        for kind in codecs() {
            if let Ok((out, starts)) = decode(kind, block, &stream) {
                prop_assert_eq!(starts.last().copied(), Some((stream.len() as u64, out.len() as u64)));
                prop_assert!(out.len() as u64 <= block * starts.len() as u64);
            }
        }
    }
}

#[test]
fn a_stream_decoded_a_chunk_at_a_time_is_the_stream() {
    for kind in codecs() {
        let mut data = compressible(300_000);
        data.extend(noise(100_000));
        let mut encoder = ChunkEncoder::new(kind, None, 65_536).unwrap();
        let (mut stream, mut written) = (Vec::new(), Vec::new());
        encoder
            .encode_stream(&data, &mut stream, &mut written)
            .unwrap();
        let offsets = chunk_offsets(&stream).unwrap();
        let expected: Vec<u64> = written.iter().map(|&(chunk, _)| chunk).collect();
        assert_eq!(offsets, expected, "{kind}");

        let mut decoder = ChunkDecoder::new(kind, 65_536).unwrap();
        let (mut out, mut pos) = (Vec::new(), 0);
        for pair in written.windows(2) {
            assert_eq!(pos as u64, pair[0].0, "{kind}");
            pos = decoder.decode_chunk(&stream, pos, &mut out).unwrap();
            assert_eq!(out.len() as u64, pair[1].1, "{kind}");
        }
        assert_eq!(pos, stream.len(), "{kind}");
        assert_eq!(out, data, "{kind}");

        // A chunk cut short is an error, from its header alone.
        let cut = &stream[..stream.len() - 1];
        assert!(chunk_offsets(cut).is_err(), "{kind}");
        let last = usize::try_from(written[written.len() - 2].0).unwrap();
        assert!(decoder.decode_chunk(cut, last, &mut out).is_err(), "{kind}");
    }
}
