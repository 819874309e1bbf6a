//! Footer decoding: `parquet_thrift::FileMetaData::read_from` against arrow-rs's
//! `ParquetMetaDataReader::decode_metadata`, on the Thrift bytes of a wide table's footer
//! (1,000 and 10,000 columns x 10 row groups, with statistics, encoding stats, page
//! index offsets and column orders). Both are checked to agree on offsets and statistics.
//!
//! Footer open (`footer open, 1000 columns x 20 row groups`, `... 100000 columns x 1 row
//! group`, `... 200000 columns x 1 row group`): the whole bytes of a file whose footer is
//! that of such a table ("PAR1", the footer, its 4-byte length, "PAR1"; no column data),
//! opened from memory:
//! `parquet_file::FileReader::open` (which decodes the footer and builds and checks the
//! schema) against arrow-rs's `ParquetMetaDataReader::parse_and_finish` (which decodes
//! it and builds its schema descriptor), page indexes left unread by both. Both are
//! checked to see the same columns and rows.

use crate::Bench;
use bytes::Bytes;
use parquet::file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
use parquet_file::FileReader;
use parquet_thrift::FileMetaData;
use std::hint::black_box;

// The same footer as parquet-thrift's own benchmark.
#[path = "../../../crates/parquet-thrift/benches/shared/wide_footer.rs"]
mod wide_footer;
use wide_footer::wide_footer;

const ROW_GROUPS: usize = 10;

/// Columns and row groups of the footer-open rows.
const OPEN: [(usize, usize); 3] = [(1_000, 20), (100_000, 1), (200_000, 1)];

pub fn run(bench: &mut Bench) {
    for columns in [1_000, 10_000] {
        let name = format!("footer decode, {columns} columns x {ROW_GROUPS} row groups");
        if bench.wanted(&name) {
            decode(bench, &name, columns);
        }
    }
    for (columns, groups) in OPEN {
        let plural = if groups == 1 { "" } else { "s" };
        let name = format!("footer open, {columns} columns x {groups} row group{plural}");
        if bench.wanted(&name) {
            open(bench, &name, columns, groups);
        }
    }
}

/// The whole bytes of a file with the wide footer of `columns` columns and `groups` row
/// groups, and no data: "PAR1", the footer, its length, "PAR1".
fn wide_file(columns: usize, groups: usize) -> Bytes {
    let mut file = b"PAR1".to_vec();
    wide_footer(columns, groups).write_to(&mut file).unwrap();
    let footer_len = u32::try_from(file.len() - 4).unwrap();
    file.extend_from_slice(&footer_len.to_le_bytes());
    file.extend_from_slice(b"PAR1");
    Bytes::from(file)
}

fn arrow_open(file: &Bytes) -> parquet::file::metadata::ParquetMetaData {
    ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Skip)
        .parse_and_finish(file)
        .unwrap()
}

fn open(bench: &mut Bench, name: &str, columns: usize, groups: usize) {
    let file = wide_file(columns, groups);
    let ours = FileReader::open(file.clone()).unwrap();
    let theirs = arrow_open(&file);
    assert_eq!(ours.schema().columns().len(), columns);
    assert_eq!(theirs.file_metadata().schema_descr().num_columns(), columns);
    assert_eq!(ours.num_row_groups(), groups);
    assert_eq!(theirs.num_row_groups(), groups);
    assert_eq!(ours.metadata().row_groups()[0].columns().len(), columns);
    assert_eq!(theirs.row_group(0).num_columns(), columns);
    assert_eq!(
        ours.metadata().row_groups()[0].num_rows(),
        theirs.row_group(0).num_rows().cast_unsigned()
    );
    drop((ours, theirs));
    bench.run(
        name,
        columns * groups,
        file.len(),
        &mut || {
            drop(black_box(
                FileReader::open(black_box(file.clone())).unwrap(),
            ))
        },
        &mut || drop(black_box(arrow_open(black_box(&file)))),
    );
}

fn decode(bench: &mut Bench, name: &str, columns: usize) {
    let footer = wide_footer(columns, ROW_GROUPS);
    let mut bytes = Vec::new();
    footer.write_to(&mut bytes).unwrap();
    let (ours, len) = FileMetaData::read_from(&bytes).unwrap();
    assert_eq!((&ours, len), (&footer, bytes.len()));
    let theirs = ParquetMetaDataReader::decode_metadata(&bytes).unwrap();
    assert_eq!(theirs.num_row_groups(), ours.row_groups.len());
    assert_eq!(theirs.file_metadata().num_rows(), ours.num_rows);
    assert_eq!(theirs.file_metadata().schema_descr().num_columns(), columns);
    for (g, group) in ours.row_groups.iter().enumerate() {
        for (c, chunk) in group.columns.iter().enumerate() {
            let meta = chunk.meta_data.as_ref().unwrap();
            let their_chunk = theirs.row_group(g).column(c);
            assert_eq!(their_chunk.data_page_offset(), meta.data_page_offset);
            assert_eq!(
                their_chunk.dictionary_page_offset(),
                meta.dictionary_page_offset
            );
            let stats = meta.statistics.as_ref().unwrap();
            let their_stats = their_chunk.statistics().unwrap();
            assert_eq!(their_stats.min_bytes_opt(), stats.min_value.as_deref());
            assert_eq!(their_stats.max_bytes_opt(), stats.max_value.as_deref());
        }
    }
    bench.run(
        name,
        columns * ROW_GROUPS,
        bytes.len(),
        &mut || {
            drop(black_box(
                FileMetaData::read_from(black_box(&bytes)).unwrap(),
            ))
        },
        &mut || {
            drop(black_box(
                ParquetMetaDataReader::decode_metadata(black_box(&bytes)).unwrap(),
            ))
        },
    );
}
