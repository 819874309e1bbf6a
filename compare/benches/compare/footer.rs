//! Footer decoding: `parquet_thrift::FileMetaData::read_from` against arrow-rs's
//! `ParquetMetaDataReader::decode_metadata`, on the Thrift bytes of a wide table's footer
//! (1,000 and 10,000 columns x 10 row groups, with statistics, encoding stats, page
//! index offsets and column orders). Both are checked to agree on offsets and statistics.

use crate::Bench;
use parquet::file::metadata::ParquetMetaDataReader;
use parquet_thrift::FileMetaData;
use std::hint::black_box;

// The same footer as parquet-thrift's own benchmark.
#[path = "../../../crates/parquet-thrift/benches/shared/wide_footer.rs"]
mod wide_footer;
use wide_footer::wide_footer;

const ROW_GROUPS: usize = 10;

pub fn run(bench: &mut Bench) {
    for columns in [1_000, 10_000] {
        let name = format!("footer decode, {columns} columns x {ROW_GROUPS} row groups");
        if bench.wanted(&name) {
            decode(bench, &name, columns);
        }
    }
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
