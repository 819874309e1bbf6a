//! Real pages from `../shared/corpus`, run by `cargo xtask corpus` (which sets
//! `PARQUET_KIT_CORPUS`); `cargo test` skips them.
//!
//! Parquet: every page of a file, found without the thrift crate. A small walker of the
//! thrift compact protocol reads, from the footer's `FileMetaData`, each column chunk's
//! `ColumnMetaData` (codec 4, `total_compressed_size` 7, `data_page_offset` 9,
//! `dictionary_page_offset` 11); the chunk is a run of pages, each a `PageHeader`
//! (type 1, `uncompressed_page_size` 2, `compressed_page_size` 3, and in the
//! `DataPageHeaderV2` of field 8 the level lengths 5 and 6, which stay uncompressed, and
//! `is_compressed` 7) followed by its body.
//!
//! ORC: every compression chunk of every stripe, and the file metadata and footer. Each
//! is a 3-byte little-endian header (`length * 2 + is_original`) and the chunk, which
//! decompresses to at most the postscript's compression block size.
// Test helpers outside `#[test]` fns; the walkers cast sizes they have just read.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use std::path::PathBuf;

use parquet_compress::{Codec, Decompressor};

fn corpus() -> PathBuf {
    let dir = std::env::var_os("PARQUET_KIT_CORPUS")
        .expect("PARQUET_KIT_CORPUS is not set: run these tests with `cargo xtask corpus`");
    PathBuf::from(dir)
}

fn read(path: &str) -> Vec<u8> {
    let path = corpus().join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A cursor over the thrift compact protocol, enough to find a few fields.
struct Thrift<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Thrift<'_> {
    fn byte(&mut self) -> u8 {
        self.pos += 1;
        self.data[self.pos - 1]
    }

    fn varint(&mut self) -> u64 {
        let mut value = 0;
        for shift in (0..64).step_by(7) {
            let byte = self.byte();
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                break;
            }
        }
        value
    }

    fn i64(&mut self) -> i64 {
        let n = self.varint();
        (n >> 1) as i64 ^ -((n & 1) as i64)
    }

    fn i32(&mut self) -> i32 {
        i32::try_from(self.i64()).unwrap()
    }

    /// Calls `element` for each element of a list.
    fn list(&mut self, element: &mut dyn FnMut(&mut Self)) {
        let header = self.byte();
        let len = match header >> 4 {
            15 => self.varint() as usize,
            n => usize::from(n),
        };
        for _ in 0..len {
            element(self);
        }
    }

    /// Calls `field(self, id, type)` for each field of a struct; it returns whether it
    /// read the value, which is skipped otherwise.
    fn walk(&mut self, field: &mut dyn FnMut(&mut Self, i16, u8) -> bool) {
        let mut id = 0_i16;
        loop {
            let header = self.byte();
            if header == 0 {
                return;
            }
            let delta = i16::from(header >> 4);
            id = if delta == 0 {
                self.i32() as i16
            } else {
                id + delta
            };
            let kind = header & 0x0f;
            if !field(self, id, kind) {
                self.skip(kind);
            }
        }
    }

    fn skip(&mut self, kind: u8) {
        match kind {
            1 | 2 => {}
            3 => self.pos += 1,
            4..=6 => {
                self.varint();
            }
            7 => self.pos += 8,
            8 => {
                let len = self.varint() as usize;
                self.pos += len;
            }
            9 | 10 => {
                let header = self.byte();
                let len = match header >> 4 {
                    15 => self.varint() as usize,
                    n => usize::from(n),
                };
                for _ in 0..len {
                    self.skip_element(header & 0x0f);
                }
            }
            11 => {
                let len = self.varint() as usize;
                if len > 0 {
                    let kinds = self.byte();
                    for _ in 0..len {
                        self.skip_element(kinds >> 4);
                        self.skip_element(kinds & 0x0f);
                    }
                }
            }
            12 => self.walk(&mut |_, _, _| false),
            _ => panic!("thrift type {kind} at {}", self.pos),
        }
    }

    /// In lists, sets and maps a boolean takes a byte.
    fn skip_element(&mut self, kind: u8) {
        if kind == 1 || kind == 2 {
            self.pos += 1;
        } else {
            self.skip(kind);
        }
    }
}

#[derive(Debug, Default)]
struct PageHeader {
    kind: i32,
    uncompressed: usize,
    compressed: usize,
    /// Bytes of uncompressed levels before the compressed values (data page v2).
    levels: usize,
    is_compressed: bool,
}

fn page_header(data: &[u8], pos: usize) -> (PageHeader, usize) {
    let mut thrift = Thrift { data, pos };
    let mut header = PageHeader {
        is_compressed: true,
        ..PageHeader::default()
    };
    thrift.walk(&mut |t, id, _| {
        match id {
            1 => header.kind = t.i32(),
            2 => header.uncompressed = usize::try_from(t.i32()).unwrap(),
            3 => header.compressed = usize::try_from(t.i32()).unwrap(),
            8 => t.walk(&mut |t, id, kind| match id {
                5 | 6 => {
                    header.levels += usize::try_from(t.i32()).unwrap();
                    true
                }
                7 => {
                    header.is_compressed = kind == 1;
                    true
                }
                _ => false,
            }),
            _ => return false,
        }
        true
    });
    (header, thrift.pos)
}

/// The column chunks of a Parquet file: (start, length, codec).
fn column_chunks(file: &[u8]) -> Vec<(usize, usize, Codec)> {
    let footer_len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
    let mut thrift = Thrift {
        data: file,
        pos: file.len() - 8 - footer_len as usize,
    };
    let mut chunks = Vec::new();
    // FileMetaData.row_groups (4) -> RowGroup.columns (1) -> ColumnChunk.meta_data (3).
    thrift.walk(&mut |t, id, _| {
        id == 4 && {
            t.list(&mut |t| {
                t.walk(&mut |t, id, _| {
                    id == 1 && {
                        t.list(&mut |t| {
                            t.walk(&mut |t, id, _| {
                                id == 3 && {
                                    chunks.push(column_meta_data(t));
                                    true
                                }
                            });
                        });
                        true
                    }
                });
            });
            true
        }
    });
    chunks
}

fn column_meta_data(t: &mut Thrift<'_>) -> (usize, usize, Codec) {
    let (mut codec, mut len, mut data, mut dictionary) = (0, 0, 0, None);
    t.walk(&mut |t, id, _| {
        match id {
            4 => codec = t.i32(),
            7 => len = t.i64(),
            9 => data = t.i64(),
            11 => dictionary = Some(t.i64()),
            _ => return false,
        }
        true
    });
    let start = dictionary.filter(|&d| d > 0).unwrap_or(data);
    (
        usize::try_from(start).unwrap(),
        usize::try_from(len).unwrap(),
        Codec::from_parquet(codec).unwrap(),
    )
}

/// Decompresses every page of a Parquet file, whose column chunks must all use
/// `codec`; returns the pages (for v2 pages, the levels then the values) and their
/// headers.
fn parquet_pages(path: &str, codec: Codec) -> Vec<(PageHeader, Vec<u8>)> {
    let file = read(path);
    assert_eq!(file[..4], *b"PAR1", "{path}");
    let mut decompressor = Decompressor::new();
    let mut pages = Vec::new();
    let chunks = column_chunks(&file);
    assert!(!chunks.is_empty(), "{path}");
    for (start, len, chunk_codec) in chunks {
        assert_eq!(chunk_codec, codec, "{path}");
        let mut pos = start;
        while pos < start + len {
            let (header, body_start) = page_header(&file, pos);
            assert!(
                (0..=3).contains(&header.kind),
                "{path}: page type {}",
                header.kind
            );
            let body = &file[body_start..body_start + header.compressed];
            let mut page = body[..header.levels].to_vec();
            let values = &body[header.levels..];
            let values_len = header.uncompressed - header.levels;
            if header.is_compressed {
                decompressor
                    .decompress(codec, values, values_len, &mut page)
                    .unwrap_or_else(|e| panic!("{path}: page at {pos}: {e}"));
            } else {
                page.extend_from_slice(values);
            }
            assert_eq!(page.len(), header.uncompressed);
            pages.push((header, page));
            pos = body_start + body.len();
        }
        assert_eq!(
            pos,
            start + len,
            "{path}: pages end where the column chunk ends"
        );
    }
    pages
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The four rows of the LZ4 files of parquet-testing: c0 INT64 1593604800 and
/// 1593604801, c1 BYTE_ARRAY "abc" and "def", v11 DOUBLE 42.0, 7.7 and 42.125.
fn has_the_lz4_files_rows(pages: &[(PageHeader, Vec<u8>)]) {
    let all: Vec<u8> = pages.iter().flat_map(|(_, page)| page.clone()).collect();
    for needle in [
        &1_593_604_800_i64.to_le_bytes()[..],
        &1_593_604_801_i64.to_le_bytes(),
        b"abc",
        b"def",
        &42.0_f64.to_le_bytes(),
        &7.7_f64.to_le_bytes(),
        &42.125_f64.to_le_bytes(),
    ] {
        assert!(contains(&all, needle), "{needle:?}");
    }
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn hadoop_lz4() {
    let file = read("parquet-testing/data/hadoop_lz4_compressed.parquet");
    // Its first page's body starts with a Hadoop block header: the page's size.
    let (header, body) = page_header(&file, 4);
    assert_eq!(
        u32::from_be_bytes(file[body..body + 4].try_into().unwrap()) as usize,
        header.uncompressed
    );
    let pages = parquet_pages(
        "parquet-testing/data/hadoop_lz4_compressed.parquet",
        Codec::Lz4,
    );
    assert_eq!(pages.len(), 6);
    has_the_lz4_files_rows(&pages);
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn non_hadoop_lz4_falls_back_to_a_bare_block() {
    let file = read("parquet-testing/data/non_hadoop_lz4_compressed.parquet");
    // Its first page's body is a bare LZ4 block, not Hadoop framing.
    let (header, body) = page_header(&file, 4);
    assert_ne!(
        u32::from_be_bytes(file[body..body + 4].try_into().unwrap()) as usize,
        header.uncompressed
    );
    let pages = parquet_pages(
        "parquet-testing/data/non_hadoop_lz4_compressed.parquet",
        Codec::Lz4,
    );
    has_the_lz4_files_rows(&pages);
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn lz4_raw() {
    let pages = parquet_pages(
        "parquet-testing/data/lz4_raw_compressed.parquet",
        Codec::Lz4Raw,
    );
    has_the_lz4_files_rows(&pages);
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn concatenated_gzip_members() {
    let pages = parquet_pages(
        "parquet-testing/data/concatenated_gzip_members.parquet",
        Codec::Gzip,
    );
    assert_eq!(pages.len(), 1);
    let (header, page) = &pages[0];
    assert_eq!(header.kind, 3, "a data page v2");
    // 513 UINT64 values, 1 to 513, after the levels.
    let values = &page[header.levels..];
    assert_eq!(values.len(), 513 * 8);
    let expected: Vec<u8> = (1..=513_u64).flat_map(u64::to_le_bytes).collect();
    assert_eq!(values, expected);
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn snappy_and_zstd_files() {
    for path in [
        "alltypes_plain.snappy.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
        "datapage_v2.snappy.parquet",
        "nested_lists.snappy.parquet",
        "nulls.snappy.parquet",
        "rle-dict-snappy-checksum.parquet",
        // Its one data page v2 has no bytes to decompress at all.
        "datapage_v2_empty_datapage.snappy.parquet",
    ] {
        let pages = parquet_pages(&format!("parquet-testing/data/{path}"), Codec::Snappy);
        assert!(!pages.is_empty(), "{path}");
    }
    let pages = parquet_pages(
        "parquet-testing/data/byte_stream_split.zstd.parquet",
        Codec::Zstd,
    );
    assert!(!pages.is_empty());
}

/// Reads a protobuf message's top-level fields: (field number, varint value or
/// length-delimited bytes).
fn protobuf(mut data: &[u8]) -> Vec<(u64, u64, &[u8])> {
    fn varint(data: &mut &[u8]) -> u64 {
        let mut value = 0;
        for shift in (0..64).step_by(7) {
            let byte = data[0];
            *data = &data[1..];
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                break;
            }
        }
        value
    }
    let mut fields = Vec::new();
    while !data.is_empty() {
        let key = varint(&mut data);
        let (number, wire) = (key >> 3, key & 7);
        match wire {
            0 => fields.push((number, varint(&mut data), &[][..])),
            1 | 5 => {
                let len = if wire == 1 { 8 } else { 4 };
                fields.push((number, 0, &data[..len]));
                data = &data[len..];
            }
            2 => {
                let len = varint(&mut data) as usize;
                fields.push((number, len as u64, &data[..len]));
                data = &data[len..];
            }
            _ => panic!("protobuf wire type {wire}"),
        }
    }
    fields
}

/// Decompresses a run of ORC compression chunks.
fn orc_chunks(
    decompressor: &mut Decompressor,
    codec: Codec,
    block: usize,
    mut data: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let header = u32::from_le_bytes([data[0], data[1], data[2], 0]);
        let (len, original) = ((header >> 1) as usize, header & 1 == 1);
        let chunk = &data[3..3 + len];
        if original {
            out.extend_from_slice(chunk);
        } else {
            decompressor
                .decompress_up_to(codec, chunk, block, &mut out)
                .unwrap_or_else(|e| panic!("{codec} chunk of {len}: {e}"));
        }
        data = &data[3 + len..];
    }
    out
}

/// Decompresses an ORC file's metadata, footer and every stripe; returns the number of
/// rows the footer records and the bytes decompressed.
fn orc_file(path: &str, codec: Codec) -> (u64, usize) {
    let file = read(&format!("orc/{path}"));
    let ps_len = usize::from(file[file.len() - 1]);
    let ps = protobuf(&file[file.len() - 1 - ps_len..file.len() - 1]);
    let field = |n| ps.iter().find(|f| f.0 == n).map_or(0, |f| f.1 as usize);
    let (footer_len, kind, block, metadata_len) = (field(1), field(2), field(3), field(5));
    assert_eq!(Codec::from_orc(kind as u32), Ok(codec), "{path}");
    let footer_end = file.len() - 1 - ps_len;
    let footer_start = footer_end - footer_len;
    let mut decompressor = Decompressor::new();
    let metadata = orc_chunks(
        &mut decompressor,
        codec,
        block,
        &file[footer_start - metadata_len..footer_start],
    );
    protobuf(&metadata);
    let footer = orc_chunks(
        &mut decompressor,
        codec,
        block,
        &file[footer_start..footer_end],
    );
    let footer = protobuf(&footer);
    let rows = footer.iter().find(|f| f.0 == 6).map_or(0, |f| f.1);
    let mut total = 0;
    for (_, _, stripe) in footer.iter().filter(|f| f.0 == 3) {
        let stripe = protobuf(stripe);
        let get = |n| stripe.iter().find(|f| f.0 == n).map_or(0, |f| f.1 as usize);
        let (offset, len) = (get(1), get(2) + get(3) + get(4));
        total += orc_chunks(&mut decompressor, codec, block, &file[offset..offset + len]).len();
    }
    (rows, total)
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn orc_zlib_is_raw_deflate() {
    let (rows, total) = orc_file("demo-11-zlib.orc", Codec::Deflate);
    assert_eq!(rows, 1_920_800);
    assert!(total > 1 << 20, "{total}");
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn orc_snappy_lz4_zstd() {
    assert_eq!(
        orc_file("TestOrcFile.testSnappy.orc", Codec::Snappy).0,
        10_000
    );
    assert_eq!(
        orc_file("TestVectorOrcFile.testLz4.orc", Codec::Lz4Raw).0,
        10_000
    );
    assert!(orc_file("TestVectorOrcFile.testZstd.0.12.orc", Codec::Zstd).0 > 0);
}
