//! `orc_file::recover`: files cut short keep every stripe that ends before the cut,
//! found by their intermediate footers or by walking their chunks, and read back as the
//! source's first stripes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use orc_file::recover::{DropReason, Found, RecoverOptions, recover};
use orc_file::{
    ErrorKind, OrcCompression, OrcReader, OrcWriter, ReadOptions, TypeDescription, WriterOptions,
};
use parquet_core::{Field, Row};

const SCHEMA: &str = "struct<id:bigint,name:string,score:double,tags:array<string>>";
const ROWS: i64 = 6_000;

fn rows() -> Vec<Row> {
    (0..ROWS)
        .map(|i| {
            let name = if i % 9 == 0 {
                Field::Null
            } else {
                Field::Str(format!("name {}", i % 311))
            };
            #[allow(clippy::cast_precision_loss)] // small
            let score = if i % 4 == 0 {
                Field::Null
            } else {
                Field::Double(i as f64 * 1.5)
            };
            let tags = match i % 3 {
                0 => Field::Null,
                1 => Field::List(vec![]),
                _ => Field::List(vec![Field::Str(format!("t{}", i % 17)), Field::Null]),
            };
            Row::new(
                ["id", "name", "score", "tags"]
                    .into_iter()
                    .map(Arc::from)
                    .zip([Field::Int(i), name, score, tags])
                    .collect(),
            )
        })
        .collect()
}

fn options(compression: OrcCompression) -> WriterOptions {
    WriterOptions::default()
        .compression(compression)
        .compression_block_size(4_096)
        .stripe_size(24_000)
        .row_index_stride(500)
}

fn write(options: WriterOptions) -> Vec<u8> {
    let schema = TypeDescription::parse(SCHEMA).unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
    for row in rows() {
        writer.write_row(&row).unwrap();
    }
    writer.finish().unwrap()
}

fn read_rows(bytes: Vec<u8>) -> Vec<Row> {
    OrcReader::open(bytes)
        .unwrap()
        .rows(ReadOptions::default())
        .unwrap()
        .collect::<orc_file::Result<Vec<_>>>()
        .unwrap()
}

/// Where each stripe of `file` ends, and its rows.
fn stripe_ends(file: &[u8]) -> Vec<(u64, u64)> {
    let reader = OrcReader::open(file.to_vec()).unwrap();
    reader
        .stripes()
        .iter()
        .map(|s| {
            (
                s.offset + s.index_length + s.data_length + s.footer_length,
                s.num_rows,
            )
        })
        .collect()
}

fn recovered(cut: &[u8], recovery: &orc_file::recover::Recovery) -> Vec<u8> {
    let mut out = Vec::new();
    recovery.write_to(&cut.to_vec(), &mut out).unwrap();
    assert_eq!(out.len() as u64, recovery.len());
    out
}

#[test]
fn intact_files_are_given_back_whole() {
    let file = write(options(OrcCompression::Zlib));
    let recovery = recover(&file, &RecoverOptions::new()).unwrap();
    assert!(recovery.is_intact());
    assert!(recovery.dropped().is_none());
    assert_eq!(recovery.num_rows(), ROWS as u64);
    assert!(recovery.found().iter().all(|f| *f == Found::Footer));
    assert_eq!(recovered(&file, &recovery), file);
}

#[test]
fn cut_files_keep_every_stripe_before_the_cut() {
    let all = rows();
    for compression in [
        OrcCompression::Zlib,
        OrcCompression::Zstd,
        OrcCompression::Snappy,
    ] {
        if !compression.is_enabled() {
            continue;
        }
        let file = write(options(compression));
        let ends = stripe_ends(&file);
        assert!(ends.len() >= 5, "{compression}: {} stripes", ends.len());
        let like = OrcReader::open(file.clone()).unwrap();
        let with_like = RecoverOptions::new().with_like(&like);
        for k in 1..24 {
            let cut_len = file.len() * k / 24;
            let cut = &file[..cut_len];
            let whole = ends
                .iter()
                .filter(|(end, _)| *end <= cut_len as u64)
                .count();
            let recovery = recover(&cut.to_vec(), &with_like).unwrap();
            let what = format!("{compression}, cut at {cut_len}");
            assert_eq!(recovery.found().len(), whole, "{what}");
            assert!(recovery.found().iter().all(|f| *f == Found::Scan), "{what}");
            let rows: u64 = ends.iter().take(whole).map(|(_, r)| r).sum();
            assert_eq!(recovery.num_rows(), rows, "{what}");
            let dropped = recovery.dropped().expect("the rest is dropped");
            assert_eq!(dropped.offset + dropped.len, cut_len as u64, "{what}");
            let back = read_rows(recovered(cut, &recovery));
            assert_eq!(back, all[..usize::try_from(rows).unwrap()], "{what}");
        }
        // Without a file like it, there is nothing to go on.
        let cut = file[..file.len() - 10].to_vec();
        let error = recover(&cut, &RecoverOptions::new()).unwrap_err();
        assert!(matches!(error.kind(), ErrorKind::SchemaNeeded), "{error}");
    }
}

#[test]
fn files_without_a_codec_or_row_index_are_not_scanned() {
    for options in [
        options(OrcCompression::None),
        options(OrcCompression::Zlib).row_index_stride(0),
    ] {
        let file = write(options);
        let like = OrcReader::open(file.clone()).unwrap();
        let cut = file[..file.len() / 2].to_vec();
        let recovery = recover(&cut, &RecoverOptions::new().with_like(&like)).unwrap();
        assert_eq!(recovery.num_rows(), 0);
        let dropped = recovery.dropped().unwrap();
        assert!(
            matches!(dropped.reason, DropReason::NotScanned(_)),
            "{}",
            dropped.reason
        );
        assert_eq!(read_rows(recovered(&cut, &recovery)), []);
    }
}

#[test]
fn damage_ends_the_scan() {
    let file = write(options(OrcCompression::Zlib));
    let ends = stripe_ends(&file);
    let like = OrcReader::open(file.clone()).unwrap();
    // The first chunk header of the third stripe says more than a block.
    let mut damaged = file[..usize::try_from(ends[4].0).unwrap()].to_vec();
    let third = usize::try_from(ends[1].0).unwrap();
    damaged[third..third + 3].copy_from_slice(&[0xFE, 0xFF, 0x7F]);
    let recovery = recover(&damaged, &RecoverOptions::new().with_like(&like)).unwrap();
    assert_eq!(recovery.found().len(), 2);
    let dropped = recovery.dropped().unwrap();
    assert_eq!(dropped.offset, ends[1].0);
    assert!(
        matches!(dropped.reason, DropReason::Unrecognized),
        "{}",
        dropped.reason
    );
}

#[test]
fn not_orc_is_an_error() {
    let error = recover(&b"PAR1 something".to_vec(), &RecoverOptions::new()).unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::NotOrc { .. }), "{error}");
}

#[test]
fn intermediate_footers_are_read_past_and_recovered_from() {
    let all = rows();
    let plain = write(options(OrcCompression::Zlib));
    let checked = write(options(OrcCompression::Zlib).checkpoint_every(2));
    assert!(checked.len() > plain.len());
    assert_eq!(read_rows(checked.clone()), all);
    let ends = stripe_ends(&checked);
    assert_eq!(ends.len(), stripe_ends(&plain).len());
    // The first intermediate footer follows the second stripe.
    let first_footer = ends[2].0;
    for k in 1..24 {
        let cut_len = checked.len() * k / 24;
        let cut = checked[..cut_len].to_vec();
        let whole = ends
            .iter()
            .filter(|(end, _)| *end <= cut_len as u64)
            .count();
        let what = format!("cut at {cut_len}");
        let recovery = match recover(&cut, &RecoverOptions::new()) {
            Ok(recovery) => recovery,
            Err(error) => {
                // Before the first intermediate footer ends, nothing tells the schema.
                assert!(
                    cut_len < usize::try_from(first_footer).unwrap(),
                    "{what}: {error}"
                );
                assert!(matches!(error.kind(), ErrorKind::SchemaNeeded), "{error}");
                continue;
            }
        };
        assert_eq!(recovery.found().len(), whole, "{what}");
        let checkpointed = recovery
            .found()
            .iter()
            .filter(|f| matches!(f, Found::Checkpoint(_)))
            .count();
        // Every stripe of the last intermediate footer before the cut: one after each
        // second stripe, unless the cut falls inside it.
        let at_least = (whole / 2 * 2).saturating_sub(2);
        assert!(checkpointed >= at_least, "{what}: {:?}", recovery.found());
        let rows: u64 = ends.iter().take(whole).map(|(_, r)| r).sum();
        let back = read_rows(recovered(&cut, &recovery));
        assert_eq!(back, all[..usize::try_from(rows).unwrap()], "{what}");
    }
}

#[test]
fn without_a_codec_the_last_intermediate_footer_is_the_file() {
    let checked = write(options(OrcCompression::None).checkpoint_every(2));
    let ends = stripe_ends(&checked);
    let cut = checked[..usize::try_from(ends[5].0).unwrap() - 7].to_vec();
    let recovery = recover(&cut, &RecoverOptions::new()).unwrap();
    // Stripes 1 to 4, in the footer after the fourth; the fifth is not looked for.
    assert_eq!(recovery.found().len(), 4);
    assert!(matches!(recovery.found()[0], Found::Checkpoint(_)));
    let dropped = recovery.dropped().unwrap();
    assert!(
        matches!(dropped.reason, DropReason::NotScanned(_)),
        "{}",
        dropped.reason
    );
    // The file is the source up to that footer, byte for byte.
    let out = recovered(&cut, &recovery);
    assert_eq!(out, cut[..out.len()]);
    let rows: u64 = ends.iter().take(4).map(|(_, r)| r).sum();
    assert_eq!(read_rows(out).len() as u64, rows);
}

#[test]
fn write_intermediate_footer_gives_a_readable_length() {
    let schema = TypeDescription::parse(SCHEMA).unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, options(OrcCompression::Zstd)).unwrap();
    let all = rows();
    for row in &all[..100] {
        writer.write_row(row).unwrap();
    }
    let len = writer.write_intermediate_footer().unwrap();
    for row in &all[100..300] {
        writer.write_row(row).unwrap();
    }
    let file = writer.finish().unwrap();
    let prefix = file[..usize::try_from(len).unwrap()].to_vec();
    assert_eq!(read_rows(prefix), all[..100]);
    assert_eq!(read_rows(file), all[..300]);
}
