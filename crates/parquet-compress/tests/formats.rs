//! The wire formats: codec numbers, gzip members, the Hadoop framing of LZ4 and LZO
//! with its bare-block fallback, raw DEFLATE, Snappy and Zstandard frames, and what a
//! build without a codec's feature says.
// Test helpers outside `#[test]` fns; test data is made with truncating casts.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use parquet_compress::{Codec, Compression, Compressor, Decompressor, Error, compress, decompress};

fn decompressed(codec: Codec, input: &[u8], expected: usize) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    decompress(codec, input, expected, &mut out).map(|()| out)
}

fn compressed(codec: Codec, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    compress(codec, data, &mut out).unwrap();
    out
}

#[test]
fn parquet_and_orc_numbers() {
    for id in 0..=7 {
        let codec = Codec::from_parquet(id).unwrap();
        assert_eq!(codec.parquet_id(), Some(id));
        assert_eq!(Codec::try_from(id), Ok(codec));
    }
    assert_eq!(
        Codec::from_parquet(8),
        Err(Error::UnknownCodec {
            format: "Parquet",
            id: 8
        })
    );
    assert_eq!(
        Codec::from_parquet(-1).unwrap_err().to_string(),
        "unknown Parquet compression codec -1"
    );
    for kind in 0..=5 {
        assert_eq!(Codec::from_orc(kind).unwrap().orc_id(), Some(kind));
    }
    assert!(Codec::from_orc(6).is_err());
    assert_eq!(Codec::from_orc(1), Ok(Codec::Deflate));
    assert_eq!(Codec::from_orc(3), Ok(Codec::LzoRaw));
    assert_eq!(Codec::from_orc(4), Ok(Codec::Lz4Raw));
    assert_eq!(Codec::Deflate.parquet_id(), None);
    assert_eq!(Codec::Lz4.orc_id(), None);
    assert_eq!(Codec::Lz4Raw.to_string(), "LZ4_RAW");
    let names: Vec<_> = Codec::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "UNCOMPRESSED",
            "SNAPPY",
            "GZIP",
            "LZO",
            "BROTLI",
            "LZ4",
            "ZSTD",
            "LZ4_RAW",
            "DEFLATE",
            "LZO_RAW"
        ]
    );
}

#[test]
fn levels_are_checked() {
    assert_eq!(
        Compression::with_level(Codec::Brotli, 12),
        Err(Error::InvalidLevel {
            codec: Codec::Brotli,
            level: 12,
            min: 0,
            max: 11
        })
    );
    assert_eq!(
        Compression::with_level(Codec::Zstd, 23)
            .unwrap_err()
            .to_string(),
        "ZSTD compression level 23 is outside -131072..=22"
    );
    assert!(matches!(
        Compression::with_level(Codec::Lz4Raw, 1),
        Err(Error::Unsupported { .. })
    ));
    assert_eq!(Compression::new(Codec::Snappy).level(), None);
    assert_eq!(Compression::new(Codec::Deflate).level(), Some(6));
    assert_eq!(Compression::default().codec(), Codec::Uncompressed);
    let compressor = Compressor::new(Compression::with_level(Codec::Zstd, -5).unwrap());
    assert_eq!(compressor.compression().level(), Some(-5));
}

#[test]
fn empty_input_is_an_empty_page_for_every_codec() {
    let mut decompressor = Decompressor::new();
    for codec in Codec::ALL.into_iter().filter(|c| c.is_enabled()) {
        let mut out = Vec::new();
        decompressor.decompress(codec, &[], 0, &mut out).unwrap();
        assert!(out.is_empty());
        assert_eq!(
            decompressor.decompress(codec, &[], 1, &mut out),
            Err(Error::TooShort {
                codec,
                expected: 1,
                found: 0
            })
        );
    }
}

#[test]
fn disabled_codecs_name_their_feature() {
    // Meaningful in builds without default features, e.g.
    // `cargo test -p parquet-compress --no-default-features --features snappy`.
    for codec in Codec::ALL.into_iter().filter(|c| !c.is_enabled()) {
        let feature = codec.feature().unwrap();
        let mut out = Vec::new();
        let error = compress(codec, b"data", &mut out).unwrap_err();
        let Error::Unsupported { what } = error else {
            panic!("{codec}: {error}");
        };
        assert!(what.contains(&format!("`{feature}`")), "{codec}: {what}");
        assert!(what.contains(codec.name()), "{codec}: {what}");
        assert_eq!(decompress(codec, b"data", 4, &mut out), Err(error.clone()));
        assert_eq!(decompress(codec, b"", 0, &mut out), Err(error));
        assert!(out.is_empty());
    }
}

#[test]
fn uncompressed_is_a_copy() {
    assert_eq!(compressed(Codec::Uncompressed, b"abc"), b"abc");
    assert_eq!(
        decompressed(Codec::Uncompressed, b"abc", 3).unwrap(),
        b"abc"
    );
    assert_eq!(
        decompressed(Codec::Uncompressed, b"abc", 4),
        Err(Error::TooShort {
            codec: Codec::Uncompressed,
            expected: 4,
            found: 3
        })
    );
}

#[cfg(feature = "snappy")]
mod snappy {
    use super::*;

    #[test]
    fn raw_block_format() {
        // No stream identifier or framing: a varint length, then tags.
        assert_eq!(compressed(Codec::Snappy, b""), [0]);
        assert_eq!(compressed(Codec::Snappy, b"a"), [1, 0, b'a']);
        // A literal of 3, then a 1-byte-offset copy of 9 bytes from offset 3.
        let block = [12, 2 << 2, b'a', b'b', b'c', 0b101 << 2 | 1, 3];
        assert_eq!(
            decompressed(Codec::Snappy, &block, 12).unwrap(),
            b"abcabcabcabc"
        );
    }
}

#[cfg(any(feature = "gzip", feature = "deflate"))]
mod flate {
    use std::io::{Read, Write};

    use flate2::Compression as Level;
    #[cfg(feature = "deflate")]
    use flate2::read::DeflateDecoder;
    #[cfg(feature = "gzip")]
    use flate2::read::MultiGzDecoder;
    use flate2::write::DeflateEncoder;
    #[cfg(feature = "gzip")]
    use flate2::write::GzEncoder;

    use super::*;

    #[cfg(feature = "gzip")]
    fn gzip_member(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Level::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn deflate_stream(data: &[u8]) -> Vec<u8> {
        let mut encoder = DeflateEncoder::new(Vec::new(), Level::best());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn several_members_are_one_page() {
        let first: Vec<u8> = (0..300_u64).flat_map(u64::to_le_bytes).collect();
        let second: Vec<u8> = (300..513_u64).flat_map(u64::to_le_bytes).collect();
        let mut page = gzip_member(&first);
        page.extend_from_slice(&gzip_member(&second));
        page.extend_from_slice(&gzip_member(b""));
        let out = decompressed(Codec::Gzip, &page, first.len() + second.len()).unwrap();
        assert_eq!(out[..first.len()], first);
        assert_eq!(out[first.len()..], second);
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn header_fields_are_skipped() {
        let mut encoder = flate2::GzBuilder::new()
            .filename("page.bin")
            .comment("a comment")
            .extra(vec![1, 2, 3, 4])
            .mtime(1_700_000_000)
            .write(Vec::new(), Level::fast());
        encoder.write_all(b"hello, gzip").unwrap();
        let member = encoder.finish().unwrap();
        assert_eq!(member[3], 0x04 | 0x08 | 0x10);
        assert_eq!(
            decompressed(Codec::Gzip, &member, 11).unwrap(),
            b"hello, gzip"
        );
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn header_crc_is_checked() {
        let data = b"header crc";
        let mut member = vec![0x1f, 0x8b, 8, 0x02, 0, 0, 0, 0, 0, 0xff];
        let mut crc = flate2::Crc::new();
        crc.update(&member);
        member.extend_from_slice(&(crc.sum() as u16).to_le_bytes());
        member.extend_from_slice(&deflate_stream(data));
        let mut crc = flate2::Crc::new();
        crc.update(data);
        member.extend_from_slice(&crc.sum().to_le_bytes());
        member.extend_from_slice(&10_u32.to_le_bytes());
        assert_eq!(decompressed(Codec::Gzip, &member, 10).unwrap(), data);
        member[10] ^= 1;
        assert!(matches!(
            decompressed(Codec::Gzip, &member, 10),
            Err(Error::Invalid {
                what: "gzip header CRC-16",
                offset: 10,
                ..
            })
        ));
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn members_are_checked() {
        let member = gzip_member(b"checked member");
        let len = member.len();

        let mut bad_crc = member.clone();
        bad_crc[len - 5] ^= 0x10;
        assert_eq!(
            decompressed(Codec::Gzip, &bad_crc, 14),
            Err(Error::Corrupt {
                codec: Codec::Gzip,
                what: "CRC-32 mismatch"
            })
        );

        let mut two = member.clone();
        two.extend_from_slice(b"garbage after the member");
        assert!(matches!(
            decompressed(Codec::Gzip, &two, 14),
            Err(Error::Invalid { what: "gzip magic", offset, .. }) if offset == len
        ));

        assert_eq!(
            decompressed(Codec::Gzip, &member[..len - 3], 14),
            Err(Error::Truncated {
                what: "gzip member trailer",
                offset: len - 8,
                needed: 8,
                available: 5
            })
        );
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn gzip_written_here_reads_elsewhere() {
        let data = b"written by parquet-compress, read by flate2 ".repeat(50);
        for level in [0, 1, 6, 9] {
            let mut page = Vec::new();
            compress(
                Compression::with_level(Codec::Gzip, level).unwrap(),
                &data,
                &mut page,
            )
            .unwrap();
            let mut out = Vec::new();
            MultiGzDecoder::new(&page[..])
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, data);
        }
    }

    #[cfg(feature = "deflate")]
    #[test]
    fn raw_deflate_both_ways() {
        let data = b"ORC's ZLIB is raw DEFLATE, with no zlib header ".repeat(40);
        let theirs = deflate_stream(&data);
        assert_eq!(
            decompressed(Codec::Deflate, &theirs, data.len()).unwrap(),
            data
        );

        let ours = compressed(Codec::Deflate, &data);
        // No zlib header (0x78 ..) and no gzip magic.
        assert_ne!(ours[0], 0x78);
        assert_ne!(ours[..2], [0x1f, 0x8b]);
        let mut out = Vec::new();
        DeflateDecoder::new(&ours[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, data);

        // An ORC chunk: decompressed size unknown, bounded by the compression block size.
        let mut out = Vec::new();
        let written = Decompressor::new()
            .decompress_up_to(Codec::Deflate, &theirs, 256 * 1024, &mut out)
            .unwrap();
        assert_eq!(written, data.len());
        assert_eq!(out, data);
    }
}

/// The Hadoop framing around bare blocks, for tests.
#[cfg(any(feature = "lz4", feature = "lzo"))]
fn framed(blocks: &[(usize, &[&[u8]])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (len, chunks) in blocks {
        out.extend_from_slice(&u32::try_from(*len).unwrap().to_be_bytes());
        for chunk in *chunks {
            out.extend_from_slice(&u32::try_from(chunk.len()).unwrap().to_be_bytes());
            out.extend_from_slice(chunk);
        }
    }
    out
}

#[cfg(feature = "lz4")]
mod lz4 {
    use lz4_flex::block;

    use super::*;

    fn page(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i / 10 % 251) as u8).collect()
    }

    #[test]
    fn hadoop_framing_is_written_in_128_kib_blocks() {
        let data = page(300 * 1024);
        let framed = compressed(Codec::Lz4, &data);
        let mut at = 0;
        let mut blocks = Vec::new();
        while at < framed.len() {
            let len = u32::from_be_bytes(framed[at..at + 4].try_into().unwrap()) as usize;
            let compressed =
                u32::from_be_bytes(framed[at + 4..at + 8].try_into().unwrap()) as usize;
            let chunk = &framed[at + 8..at + 8 + compressed];
            blocks.extend_from_slice(&block::decompress(chunk, len).unwrap());
            assert!(len <= 128 * 1024);
            at += 8 + compressed;
        }
        assert_eq!(at, framed.len());
        assert_eq!(blocks, data);
        assert!(compressed(Codec::Lz4, b"").is_empty());
    }

    #[test]
    fn hadoop_blocks_of_several_chunks() {
        // Hadoop's own writer splits a block into chunks of its buffer size.
        let data = page(50_000);
        let (a, b) = data.split_at(20_000);
        let (c, d) = (block::compress(a), block::compress(b));
        let input = framed(&[(data.len(), &[&c, &d])]);
        assert_eq!(decompressed(Codec::Lz4, &input, data.len()).unwrap(), data);
        // Several blocks of one chunk each, as Arrow writes.
        let input = framed(&[(a.len(), &[&c]), (b.len(), &[&d])]);
        assert_eq!(decompressed(Codec::Lz4, &input, data.len()).unwrap(), data);
        // Arrow's encoding of an empty page: an empty block with one chunk.
        let empty = block::compress(b"");
        assert_eq!(
            decompressed(Codec::Lz4, &framed(&[(0, &[&empty])]), 0).unwrap(),
            b""
        );
    }

    #[test]
    fn a_bare_block_is_read_when_the_framing_does_not_fit() {
        // What parquet-cpp before Arrow 1.0 wrote for LZ4.
        let data = page(10_000);
        let bare = block::compress(&data);
        assert_eq!(decompressed(Codec::Lz4, &bare, data.len()).unwrap(), data);
        assert_eq!(
            decompressed(Codec::Lz4Raw, &bare, data.len()).unwrap(),
            data
        );
        // LZ4_RAW is a bare block: what lz4_flex writes, and what it reads back.
        let ours = compressed(Codec::Lz4Raw, &data);
        assert_eq!(block::decompress(&ours, data.len()).unwrap(), data);
        // A framed page is not a bare block.
        let framed = compressed(Codec::Lz4, &data);
        assert!(decompressed(Codec::Lz4Raw, &framed, data.len()).is_err());
    }

    #[test]
    fn a_framed_page_with_a_wrong_size_is_an_error() {
        let data = page(1000);
        let framed = compressed(Codec::Lz4, &data);
        assert_eq!(
            decompressed(Codec::Lz4, &framed, 1001),
            Err(Error::TooShort {
                codec: Codec::Lz4,
                expected: 1001,
                found: 1000
            })
        );
        let mut truncated = framed.clone();
        truncated.truncate(framed.len() - 1);
        assert_eq!(
            decompressed(Codec::Lz4, &truncated, 1000),
            Err(Error::Truncated {
                what: "Hadoop chunk",
                offset: 8,
                needed: framed.len() - 8,
                available: framed.len() - 9
            })
        );
    }
}

#[cfg(feature = "lzo")]
mod lzo {
    use super::*;

    #[test]
    fn hadoop_framing_and_bare_streams() {
        let data: Vec<u8> = (0..200_000_u32).map(|i| (i / 7 % 13) as u8).collect();
        let framed = compressed(Codec::Lzo, &data);
        assert_eq!(
            u32::from_be_bytes(framed[..4].try_into().unwrap()),
            128 * 1024
        );
        assert_eq!(decompressed(Codec::Lzo, &framed, data.len()).unwrap(), data);

        let bare = compressed(Codec::LzoRaw, &data);
        assert_eq!(
            decompressed(Codec::LzoRaw, &bare, data.len()).unwrap(),
            data
        );
        assert_eq!(decompressed(Codec::Lzo, &bare, data.len()).unwrap(), data);
        assert_eq!(compressed(Codec::LzoRaw, b""), [0x11, 0, 0]);
        assert!(compressed(Codec::Lzo, b"").is_empty());

        let (a, b) = data.split_at(70_000);
        let (a, b) = (compressed(Codec::LzoRaw, a), compressed(Codec::LzoRaw, b));
        let input = framed_blocks(data.len(), &a, &b);
        assert_eq!(decompressed(Codec::Lzo, &input, data.len()).unwrap(), data);
    }

    fn framed_blocks(len: usize, a: &[u8], b: &[u8]) -> Vec<u8> {
        framed(&[(len, &[a, b])])
    }
}

#[cfg(feature = "brotli")]
#[test]
fn brotli_streams_end_where_they_end() {
    let data = b"brotli ".repeat(1000);
    let mut stream = compressed(Codec::Brotli, &data);
    assert_eq!(
        decompressed(Codec::Brotli, &stream, data.len()).unwrap(),
        data
    );
    stream.push(0);
    assert_eq!(
        decompressed(Codec::Brotli, &stream, data.len()),
        Err(Error::Corrupt {
            codec: Codec::Brotli,
            what: "bytes after the end of the Brotli stream"
        })
    );
}

#[cfg(any(feature = "zstd", feature = "ruzstd"))]
#[test]
fn zstd_frames_and_skippable_frames() {
    let (a, b) = (b"first frame ".repeat(100), b"second frame ".repeat(100));
    let mut page = compressed(Codec::Zstd, &a);
    // A skippable frame: magic 0x184D2A50..5F, a 4-byte length, that many bytes.
    page.extend_from_slice(&0x184D_2A53_u32.to_le_bytes());
    page.extend_from_slice(&3_u32.to_le_bytes());
    page.extend_from_slice(b"xyz");
    page.extend_from_slice(&compressed(Codec::Zstd, &b));
    let out = decompressed(Codec::Zstd, &page, a.len() + b.len()).unwrap();
    assert_eq!(out, [a, b].concat());
}
