//! Real pages from `../shared/corpus`, run by `cargo xtask corpus` (which sets
//! `PARQUET_KIT_CORPUS`); `cargo test` skips them.
//!
//! Parquet: every page of a file, found with `parquet-thrift` (a dev-dependency only):
//! the footer's `FileMetaData` gives each column chunk's `ColumnMetaData`, whose codec,
//! offsets and `total_compressed_size` delimit a run of pages, each a `PageHeader` followed
//! by its body. In a data page v2 the levels stay uncompressed ahead of the values, which
//! are compressed unless `is_compressed` says otherwise.
//!
//! ORC: every compression chunk of every stripe, and the file metadata and footer. Each
//! is a 3-byte little-endian header (`length * 2 + is_original`) and the chunk, which
//! decompresses to at most the postscript's compression block size.
// Test helpers outside `#[test]` fns; they cast sizes they have just read.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::PathBuf;

use parquet_compress::{Codec, Decompressor};
use parquet_thrift::{ColumnMetaData, FileMetaData, PageHeader, PageType};

fn corpus() -> PathBuf {
    let dir = std::env::var_os("PARQUET_KIT_CORPUS")
        .expect("PARQUET_KIT_CORPUS is not set: run these tests with `cargo xtask corpus`");
    PathBuf::from(dir)
}

fn read(path: &str) -> Vec<u8> {
    let path = corpus().join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The footer of a Parquet file: the `FileMetaData` before the last 8 bytes (its 4-byte
/// little-endian length and "PAR1"), which it must fill exactly.
fn footer(file: &[u8]) -> FileMetaData<'_> {
    assert_eq!(file[..4], *b"PAR1", "leading magic");
    let (rest, tail) = file.split_at(file.len() - 8);
    assert_eq!(tail[4..], *b"PAR1", "trailing magic");
    let len = u32::from_le_bytes(tail[..4].try_into().unwrap()) as usize;
    let (metadata, used) = FileMetaData::read_from(&rest[rest.len() - len..])
        .unwrap_or_else(|e| panic!("footer: {e}"));
    assert_eq!(used, len, "the footer is one FileMetaData");
    metadata
}

/// A page of a column chunk: where its header starts, the header and its length, and the
/// body as stored.
struct Page<'a> {
    offset: usize,
    header: PageHeader<'a>,
    header_len: usize,
    body: &'a [u8],
}

/// The pages of a column chunk: from its first page (the dictionary page if it has one;
/// some writers put 0 for "none") to the end of its `total_compressed_size`, which the
/// pages must fill exactly.
fn pages<'a>(file: &'a [u8], meta: &ColumnMetaData<'_>) -> Vec<Page<'a>> {
    let start = meta
        .dictionary_page_offset
        .filter(|&offset| offset > 0)
        .unwrap_or(meta.data_page_offset);
    let start = usize::try_from(start).unwrap();
    let end = start + usize::try_from(meta.total_compressed_size).unwrap();
    let mut pages = Vec::new();
    let mut pos = start;
    while pos < end {
        let (header, len) = PageHeader::read_from(&file[pos..end])
            .unwrap_or_else(|e| panic!("page header at {pos}: {e}"));
        let body_start = pos + len;
        let body_len = usize::try_from(header.compressed_page_size).unwrap();
        let body = &file[body_start..body_start + body_len];
        pages.push(Page {
            offset: pos,
            header,
            header_len: len,
            body,
        });
        pos = body_start + body_len;
    }
    assert_eq!(pos, end, "pages end where the column chunk ends");
    pages
}

/// The bytes of uncompressed levels ahead of the values of a page (data page v2 only),
/// and whether the values are compressed.
fn levels(header: &PageHeader<'_>) -> (usize, bool) {
    header.data_page_header_v2.as_ref().map_or((0, true), |v2| {
        let levels = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
        (
            usize::try_from(levels).unwrap(),
            v2.is_compressed.unwrap_or(true),
        )
    })
}

/// The number of values of a data page, or `None` for another kind of page. The page's
/// type must match the header it carries.
fn data_page_values(header: &PageHeader<'_>) -> Option<i64> {
    match header.type_ {
        PageType::DATA_PAGE => Some(header.data_page_header.as_ref().unwrap().num_values),
        PageType::DATA_PAGE_V2 => Some(header.data_page_header_v2.as_ref().unwrap().num_values),
        PageType::DICTIONARY_PAGE => {
            assert!(header.dictionary_page_header.is_some());
            None
        }
        other => panic!("page type {}", other.0),
    }
    .map(i64::from)
}

/// A Parquet file, decompressed: the rows its footer records, and every page (for v2 pages,
/// the levels then the values) with its header.
struct Decompressed {
    num_rows: i64,
    pages: Vec<(PageHeader<'static>, Vec<u8>)>,
}

/// Decompresses every page of a Parquet file, whose column chunks must all use `codec`.
/// Checks on the way that each chunk has a dictionary page first or none, that its data
/// pages hold its `num_values` and that its page headers and uncompressed pages add up to
/// its `total_uncompressed_size`; and that the row groups hold the file's rows.
fn parquet_pages(path: &str, codec: Codec) -> Decompressed {
    let file = read(path);
    let metadata = footer(&file);
    assert!(!metadata.row_groups.is_empty(), "{path}");
    assert_eq!(
        metadata.row_groups.iter().map(|g| g.num_rows).sum::<i64>(),
        metadata.num_rows,
        "{path}: rows of the row groups"
    );
    let mut decompressor = Decompressor::new();
    let mut out = Vec::new();
    for (g, row_group) in metadata.row_groups.iter().enumerate() {
        assert!(!row_group.columns.is_empty(), "{path}");
        for (c, chunk) in row_group.columns.iter().enumerate() {
            let what = format!("{path}, row group {g}, column {c}");
            let meta = chunk.meta_data.as_ref().expect("meta_data");
            assert_eq!(Codec::from_parquet(meta.codec.0), Ok(codec), "{what}");
            let (mut values, mut uncompressed_size) = (0, 0);
            for (i, page) in pages(&file, meta).into_iter().enumerate() {
                let Page {
                    offset,
                    header,
                    header_len,
                    body,
                } = page;
                match data_page_values(&header) {
                    Some(n) => values += n,
                    None => assert_eq!(i, 0, "{what}: a dictionary page comes first"),
                }
                let (levels, compressed) = levels(&header);
                let uncompressed = usize::try_from(header.uncompressed_page_size).unwrap();
                uncompressed_size += header_len + uncompressed;
                let mut page = body[..levels].to_vec();
                if compressed {
                    decompressor
                        .decompress(codec, &body[levels..], uncompressed - levels, &mut page)
                        .unwrap_or_else(|e| panic!("{what}: page at {offset}: {e}"));
                } else {
                    page.extend_from_slice(&body[levels..]);
                }
                assert_eq!(page.len(), uncompressed, "{what}: page at {offset}");
                out.push((header.into_owned(), page));
            }
            assert_eq!(values, meta.num_values, "{what}: values of the data pages");
            assert_eq!(
                i64::try_from(uncompressed_size).unwrap(),
                meta.total_uncompressed_size,
                "{what}: total_uncompressed_size"
            );
        }
    }
    Decompressed {
        num_rows: metadata.num_rows,
        pages: out,
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The four rows of the LZ4 files of parquet-testing: c0 INT64 1593604800 and
/// 1593604801, c1 BYTE_ARRAY "abc" and "def", v11 DOUBLE 42.0, 7.7 and 42.125.
fn has_the_lz4_files_rows(file: &Decompressed) {
    assert_eq!(file.num_rows, 4);
    let all: Vec<u8> = file
        .pages
        .iter()
        .flat_map(|(_, page)| page.clone())
        .collect();
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

/// Whether the first page of a Parquet file's first column chunk has a body that opens
/// with a Hadoop LZ4 block header: the page's uncompressed size, big-endian.
fn first_page_has_hadoop_framing(path: &str) -> bool {
    let file = read(path);
    let metadata = footer(&file);
    let meta = metadata.row_groups[0].columns[0]
        .meta_data
        .as_ref()
        .unwrap();
    let pages = pages(&file, meta);
    let page = &pages[0];
    u32::from_be_bytes(page.body[..4].try_into().unwrap())
        == u32::try_from(page.header.uncompressed_page_size).unwrap()
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn hadoop_lz4() {
    let path = "parquet-testing/data/hadoop_lz4_compressed.parquet";
    // Its first page's body starts with a Hadoop block header: the page's size.
    assert!(first_page_has_hadoop_framing(path));
    let file = parquet_pages(path, Codec::Lz4);
    assert_eq!(file.pages.len(), 6);
    has_the_lz4_files_rows(&file);
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn non_hadoop_lz4_falls_back_to_a_bare_block() {
    let path = "parquet-testing/data/non_hadoop_lz4_compressed.parquet";
    // Its first page's body is a bare LZ4 block, not Hadoop framing.
    assert!(!first_page_has_hadoop_framing(path));
    has_the_lz4_files_rows(&parquet_pages(path, Codec::Lz4));
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn lz4_raw() {
    let file = parquet_pages(
        "parquet-testing/data/lz4_raw_compressed.parquet",
        Codec::Lz4Raw,
    );
    has_the_lz4_files_rows(&file);
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn concatenated_gzip_members() {
    let file = parquet_pages(
        "parquet-testing/data/concatenated_gzip_members.parquet",
        Codec::Gzip,
    );
    assert_eq!(file.num_rows, 513);
    assert_eq!(file.pages.len(), 1);
    let (header, page) = &file.pages[0];
    assert_eq!(header.type_, PageType::DATA_PAGE_V2);
    let v2 = header.data_page_header_v2.as_ref().unwrap();
    assert_eq!((v2.num_values, v2.num_nulls, v2.num_rows), (513, 0, 513));
    // 513 UINT64 values, 1 to 513, after the levels.
    let values = &page[levels(header).0..];
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
        let file = parquet_pages(&format!("parquet-testing/data/{path}"), Codec::Snappy);
        assert!(!file.pages.is_empty(), "{path}");
    }
    let file = parquet_pages(
        "parquet-testing/data/byte_stream_split.zstd.parquet",
        Codec::Zstd,
    );
    assert!(!file.pages.is_empty());
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
