//! The footers, page headers, page indexes and Bloom filter headers of the real files in
//! `../shared/corpus/parquet-testing` (`cargo xtask corpus` runs these tests, with
//! `PARQUET_KIT_CORPUS` pointing at the corpus).
// A test binary: its helpers may panic, and it reports what it found.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use parquet_thrift::{
    BloomFilterHeader, ColumnIndex, FileMetaData, OffsetIndex, PageHeader, PageType,
};

fn corpus() -> PathBuf {
    let Some(dir) = std::env::var_os("PARQUET_KIT_CORPUS") else {
        panic!("PARQUET_KIT_CORPUS is not set: run these tests with `cargo xtask corpus`")
    };
    PathBuf::from(dir)
}

/// The `*.parquet` files of `parquet-testing/<dir>` (not the `.parquet.encrypted` ones,
/// whose footers are encrypted), with their bytes.
fn files(dir: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus().join("parquet-testing").join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "parquet"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .parquet files in {}", dir.display());
    paths
        .into_iter()
        .map(|path| (name(&path), std::fs::read(&path).unwrap()))
        .collect()
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The Thrift footer: before the last 8 bytes, a 4-byte little-endian length and "PAR1".
fn footer(file: &[u8]) -> Option<&[u8]> {
    let (rest, tail) = file.split_at_checked(file.len().checked_sub(8)?)?;
    if &tail[4..] != b"PAR1" {
        return None;
    }
    let len = u32::from_le_bytes(tail[..4].try_into().unwrap()) as usize;
    rest.get(rest.len().checked_sub(len)?..)
}

/// Decodes `bytes` as a `T` that takes all of them, and re-encodes it: returns whether
/// the bytes came back identical (otherwise they must decode to an equal value).
macro_rules! round_trip {
    ($ty:ident, $bytes:expr, $what:expr) => {{
        let bytes: &[u8] = $bytes;
        let (value, len) = $ty::read_from(bytes).unwrap_or_else(|e| panic!("{}: {}", $what, e));
        assert_eq!(len, bytes.len(), "{}: trailing bytes", $what);
        let mut again = Vec::new();
        value.write_to(&mut again).unwrap();
        if again == bytes {
            true
        } else {
            let (reread, _) = $ty::read_from(&again).unwrap();
            assert_eq!(reread, value, "{}: re-encoded differently", $what);
            false
        }
    }};
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn footers_round_trip() {
    let (mut identical, mut equal) = (Vec::new(), Vec::new());
    for (name, file) in files("data") {
        let footer = footer(&file).unwrap_or_else(|| panic!("{name}: no footer"));
        if round_trip!(FileMetaData, footer, name) {
            identical.push(name);
        } else {
            equal.push(name);
        }
    }
    println!(
        "{} footers re-encoded byte for byte; {} to bytes that decode equal: {equal:?}",
        identical.len(),
        equal.len()
    );
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn truncated_footers_are_errors() {
    for (name, file) in files("data") {
        let footer = footer(&file).unwrap();
        for end in 0..footer.len() {
            assert!(
                FileMetaData::read_from(&footer[..end]).is_err(),
                "{name}: the first {end} of {} bytes decoded",
                footer.len()
            );
        }
    }
}

/// Walks the pages of every column chunk, from the dictionary page (or the first data
/// page) to the end of the chunk, reading each page header and skipping the page.
#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn page_headers() {
    let (mut files_read, mut pages, mut identical) = (0, 0, 0);
    let mut types = std::collections::BTreeMap::new();
    for (name, file) in files("data") {
        let (metadata, _) = FileMetaData::read_from(footer(&file).unwrap()).unwrap();
        for (g, row_group) in metadata.row_groups.iter().enumerate() {
            for (c, chunk) in row_group.columns.iter().enumerate() {
                let meta = chunk.meta_data.as_ref().unwrap();
                let what = format!("{name}, row group {g}, column {c}");
                // The chunk starts at its first page: the dictionary page if it has one.
                // Some writers put 0 for "no dictionary page", and one writes a data page
                // offset of 0 for a chunk with no data pages.
                let start = [meta.dictionary_page_offset, Some(meta.data_page_offset)]
                    .into_iter()
                    .flatten()
                    .filter(|&offset| offset >= 4)
                    .min()
                    .unwrap();
                let start = usize::try_from(start).unwrap();
                let end = start + usize::try_from(meta.total_compressed_size).unwrap();
                let mut at = start;
                let mut values = 0;
                while at < end.min(file.len()) {
                    let bytes = &file[at..];
                    let (header, len) = PageHeader::read_from(bytes)
                        .unwrap_or_else(|e| panic!("{what}, page at {at}: {e}"));
                    if round_trip!(PageHeader, &bytes[..len], what) {
                        identical += 1;
                    }
                    *types.entry(header.type_).or_insert(0) += 1;
                    values += i64::from(match header.type_ {
                        PageType::DATA_PAGE => header.data_page_header.unwrap().num_values,
                        PageType::DATA_PAGE_V2 => header.data_page_header_v2.unwrap().num_values,
                        _ => 0,
                    });
                    pages += 1;
                    at += len + usize::try_from(header.compressed_page_size).unwrap();
                }
                assert_eq!(values, meta.num_values, "{what}: values in the pages");
            }
        }
        files_read += 1;
    }
    println!(
        "{pages} page headers in {files_read} files ({identical} re-encoded byte for byte): \
         {types:?}"
    );
    assert!(pages > 1000);
}

/// Reads the column and offset indexes and the Bloom filter headers the footers point to.
#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn page_indexes_and_bloom_filters() {
    let (mut column_indexes, mut offset_indexes, mut bloom_filters) = (0, 0, 0);
    for (name, file) in files("data") {
        let (metadata, _) = FileMetaData::read_from(footer(&file).unwrap()).unwrap();
        let range = |offset: Option<i64>, length: Option<i32>| {
            let start = usize::try_from(offset?).ok()?;
            let end = start + usize::try_from(length?).ok()?;
            file.get(start..end)
        };
        for chunk in metadata.row_groups.iter().flat_map(|g| &g.columns) {
            let what = format!(
                "{name}, {:?}",
                chunk.meta_data.as_ref().map(|m| &m.path_in_schema)
            );
            if let Some(bytes) = range(chunk.column_index_offset, chunk.column_index_length) {
                round_trip!(ColumnIndex, bytes, what);
                column_indexes += 1;
            }
            if let Some(bytes) = range(chunk.offset_index_offset, chunk.offset_index_length) {
                round_trip!(OffsetIndex, bytes, what);
                offset_indexes += 1;
            }
            let meta = chunk.meta_data.as_ref().unwrap();
            if let Some(offset) = meta.bloom_filter_offset {
                let bytes = &file[usize::try_from(offset).unwrap()..];
                let (header, len) = BloomFilterHeader::read_from(bytes).unwrap();
                assert!(header.num_bytes > 0, "{what}");
                round_trip!(BloomFilterHeader, &bytes[..len], what);
                bloom_filters += 1;
            }
        }
    }
    println!(
        "{column_indexes} column indexes, {offset_indexes} offset indexes, \
         {bloom_filters} Bloom filter headers"
    );
    assert!(column_indexes > 0 && offset_indexes > 0 && bloom_filters > 0);
}

/// The files of `bad_data`: their footers decode or fail, without panicking.
#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn bad_data_footers_decode_or_fail() {
    for (name, file) in files("bad_data") {
        match footer(&file).map(FileMetaData::read_from) {
            Some(Ok(_)) => println!("{name}: footer decodes"),
            Some(Err(e)) => println!("{name}: {e}"),
            None => println!("{name}: no footer"),
        }
    }
}
