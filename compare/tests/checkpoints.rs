//! Files that parquet-file's `FileWriter` writes with checkpoints (a footer of the row
//! groups so far between row groups, `WriterOptions::with_checkpoint_every`), read by
//! arrow-rs: the record batches, the row groups selected one by one, and the column and
//! offset indexes must be those of the same rows written without checkpoints. arrow-rs
//! reads the footer and the offsets it gives, never the bytes between column chunks.

use arrow_array::RecordBatch;
use bytes::Bytes;
use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::file::metadata::PageIndexPolicy;
use parquet_file::{BloomFilterOptions, Field, FileReader, FileWriter, Row, Schema, WriterOptions};
use std::sync::Arc;

const SCHEMA: &str = "message checkpoints {
    required int64 id;
    optional binary name (STRING);
    optional double amount;
    optional group tags (LIST) {
        repeated group list {
            optional binary element (STRING);
        }
    }
}";

const ROWS: i64 = 3_000;

fn rows() -> Vec<Row> {
    (0..ROWS)
        .map(|i| {
            let name = if i % 7 == 0 {
                Field::Null
            } else {
                Field::Str(format!("name-{}", i % 97))
            };
            let amount = if i % 5 == 0 {
                Field::Null
            } else {
                #[allow(clippy::cast_precision_loss)] // small
                Field::Double(i as f64 / 4.0)
            };
            let tags = match i % 4 {
                0 => Field::Null,
                1 => Field::List(vec![]),
                k => Field::List(
                    (0..k)
                        .map(|j| {
                            if j == 1 {
                                Field::Null
                            } else {
                                Field::Str(format!("tag-{}", (i + j) % 11))
                            }
                        })
                        .collect(),
                ),
            };
            Row::new(
                ["id", "name", "amount", "tags"]
                    .into_iter()
                    .map(Arc::from)
                    .zip([Field::Int(i), name, amount, tags])
                    .collect(),
            )
        })
        .collect()
}

fn write(checkpoint_every: usize) -> Bytes {
    let options = WriterOptions::new()
        .with_row_group_rows(400)
        .with_page_rows(90)
        .with_bloom_filter(Some(BloomFilterOptions::default()))
        .with_checkpoint_every(checkpoint_every);
    let mut writer = FileWriter::new(Vec::new(), Schema::parse(SCHEMA).unwrap(), options).unwrap();
    for row in rows() {
        writer.write_row(&row).unwrap();
    }
    writer.finish().unwrap();
    Bytes::from(writer.into_inner())
}

/// arrow-rs's batches of `file`, of the row groups `groups` (all when `None`).
fn read(file: &Bytes, groups: Option<Vec<usize>>) -> Vec<RecordBatch> {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
    let mut builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options).unwrap();
    if let Some(groups) = groups {
        builder = builder.with_row_groups(groups);
    }
    builder.build().unwrap().map(Result::unwrap).collect()
}

#[test]
fn arrow_rs_reads_files_with_checkpoints_as_without() {
    let plain = write(0);
    for every in [1, 3] {
        let checked = write(every);
        // The checkpoints are there, and parquet-file reads the file whole.
        assert!(checked.len() > plain.len(), "every {every}");
        let ours = FileReader::open(checked.clone()).unwrap();
        assert_eq!(ours.metadata().num_rows(), ROWS as u64);
        assert!(ours.verify().unwrap().is_ok(), "every {every}");

        assert_eq!(read(&checked, None), read(&plain, None), "every {every}");
        let groups = ours.metadata().row_groups().len();
        assert_eq!(groups, 8);
        for group in 0..groups {
            assert_eq!(
                read(&checked, Some(vec![group])),
                read(&plain, Some(vec![group])),
                "every {every}, row group {group}"
            );
        }
        // The page indexes arrow-rs reads point at the same pages in either file, shifted
        // by the checkpoints before them: the same number of pages, rows and bounds.
        let indexes = |file: &Bytes| {
            let options =
                ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
            let builder =
                ParquetRecordBatchReaderBuilder::try_new_with_options(file.clone(), options)
                    .unwrap();
            let metadata = builder.metadata();
            let columns = metadata.file_metadata().schema_descr().num_columns();
            let mut pages = Vec::new();
            let mut bounds = Vec::new();
            for g in 0..metadata.num_row_groups() {
                let index = metadata.page_index_for_row_group(g);
                for c in 0..columns {
                    let locations = index.page_locations(c).unwrap();
                    pages.push(
                        locations
                            .iter()
                            .map(|p| (p.first_row_index, p.compressed_page_size))
                            .collect::<Vec<_>>(),
                    );
                    bounds.push(format!("{:?}", index.column_index(c).unwrap()));
                }
            }
            (pages, bounds)
        };
        assert_eq!(indexes(&checked), indexes(&plain), "every {every}");
    }
}
