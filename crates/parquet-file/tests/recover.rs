//! Checkpoints and recovery: files cut at every kind of point, with and without
//! checkpoints, recover to exactly the row groups the cut left whole.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss
)]

use std::sync::Arc;

use parquet_file::recover::{DropReason, Found, RecoverOptions, recover};
use parquet_file::{
    Codec, ErrorKind, Field, FileMetaData, FileReader, FileWriter, PageVersion, Row, Schema,
    WriterOptions,
};

const SCHEMA: &str = "message m {
    required int64 id;
    optional binary name (STRING);
    optional double score;
    optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
    required int32 day (DATE);
}";

fn row(i: i64) -> Row {
    let name = match i % 7 {
        0 => Field::Null,
        k => Field::Str(format!("name-{}", (i * 31 + k) % 50)),
    };
    let tags = if i % 5 == 0 {
        Field::Null
    } else {
        Field::List(
            (0..i % 4)
                .map(|t| {
                    if t == 2 {
                        Field::Null
                    } else {
                        Field::Str(format!("tag{}", (i + t) % 9))
                    }
                })
                .collect(),
        )
    };
    Row::new(vec![
        (Arc::from("id"), Field::Int(i)),
        (Arc::from("name"), name),
        (
            Arc::from("score"),
            if i % 3 == 0 {
                Field::Null
            } else {
                Field::Double(i as f64 / 8.0)
            },
        ),
        (Arc::from("tags"), tags),
        (Arc::from("day"), Field::Date(19_000 + (i % 400) as i32)),
    ])
}

fn write(rows: i64, options: WriterOptions) -> Vec<u8> {
    let schema = Schema::parse(SCHEMA).unwrap();
    let mut writer = FileWriter::new(Vec::new(), schema, options).unwrap();
    for i in 0..rows {
        writer.write_row(&row(i)).unwrap();
    }
    writer.finish().unwrap();
    writer.into_inner()
}

fn rows_of(file: Vec<u8>) -> Vec<Row> {
    let reader = FileReader::open(file).unwrap();
    reader.rows().map(Result::unwrap).collect()
}

fn small_groups() -> WriterOptions {
    WriterOptions::new()
        .with_row_group_rows(300)
        .with_page_rows(70)
        .with_compression(Codec::Snappy)
}

/// The end of each row group's data (its last chunk's last byte), from the file's own
/// footer, and each row group's rows.
fn group_ends(file: &[u8]) -> Vec<(u64, u64)> {
    let reader = FileReader::open(file.to_vec()).unwrap();
    reader
        .metadata()
        .row_groups()
        .iter()
        .map(|g| {
            let end = g
                .columns()
                .iter()
                .map(|c| {
                    let m = c.metadata().unwrap();
                    m.start() + m.total_compressed_size()
                })
                .max()
                .unwrap();
            (end, g.num_rows())
        })
        .collect()
}

/// The offset of each row group's first page.
fn group_starts(file: &[u8]) -> Vec<u64> {
    let reader = FileReader::open(file.to_vec()).unwrap();
    reader
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.columns()[0].metadata().unwrap().start())
        .collect()
}

/// A file to cut, with what its own footer says of it.
struct Whole {
    file: Vec<u8>,
    /// Each row group's end and rows.
    ends: Vec<(u64, u64)>,
    rows: Vec<Row>,
}

impl Whole {
    fn new(file: Vec<u8>) -> Self {
        Self {
            ends: group_ends(&file),
            rows: rows_of(file.clone()),
            file,
        }
    }

    /// The row groups whole before `cut`.
    fn whole(&self, cut: usize) -> usize {
        self.ends
            .iter()
            .take_while(|(end, _)| *end <= cut as u64)
            .count()
    }

    /// Cuts the file at `cut` bytes, recovers it, and checks that the rows are those of
    /// the whole row groups before the cut, at least `at_least` of them; gives the row
    /// groups kept.
    fn check_cut(&self, cut: usize, options: &RecoverOptions, at_least: usize) -> usize {
        let whole = self.whole(cut);
        let cut_file = self.file[..cut].to_vec();
        let recovery = recover(&cut_file, options).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let kept = recovery.metadata().row_groups().len();
        assert!(
            kept >= at_least && kept <= whole,
            "cut at {cut}: kept {kept} row groups of {whole} whole (at least {at_least}); {:?}",
            recovery.dropped()
        );
        let mut out = Vec::new();
        recovery.write_to(&cut_file, &mut out).unwrap();
        assert_eq!(out.len() as u64, recovery.len());
        let expected: u64 = self.ends.iter().take(kept).map(|(_, rows)| rows).sum();
        let got = rows_of(out);
        assert_eq!(got.len() as u64, expected, "cut at {cut}");
        assert!(got == self.rows[..got.len()], "cut at {cut}: rows differ");
        kept
    }
}

/// Cut points: every row group's end and its neighbours, and points inside.
fn cuts(file: &[u8]) -> Vec<usize> {
    let mut cuts: Vec<usize> = group_ends(file)
        .iter()
        .flat_map(|(end, _)| {
            let end = *end as usize;
            [end - 1, end, end + 9]
        })
        .collect();
    let step = file.len() / 11;
    cuts.extend((1..11).map(|k| k * step + k));
    cuts.extend([5, file.len() - 1, file.len() - 8, file.len() - 12]);
    cuts.retain(|&c| c >= 4 && c <= file.len());
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

#[test]
fn checkpoints_are_invisible_to_readers() {
    let plain = write(2_000, small_groups());
    let checkpointed = write(2_000, small_groups().with_checkpoint_every(2));
    assert!(checkpointed.len() > plain.len());
    assert_eq!(rows_of(plain.clone()), rows_of(checkpointed.clone()));
    let reader = FileReader::open(checkpointed).unwrap();
    assert_eq!(reader.metadata().row_groups().len(), 7);
    assert!(reader.verify().unwrap().is_ok());
}

#[test]
fn checkpoints_refuse_encryption() {
    let key = parquet_file::Key::try_new(&[7; 16]).unwrap();
    let options = small_groups()
        .with_checkpoint_every(1)
        .with_encryption(Some(parquet_file::EncryptionOptions::new(key)));
    let schema = Schema::parse(SCHEMA).unwrap();
    let error = FileWriter::new(Vec::new(), schema, options).err().unwrap();
    assert!(
        matches!(error.kind(), ErrorKind::InvalidInput { .. }),
        "{error}"
    );
}

#[test]
fn intact_files_are_given_back_whole() {
    let file = write(1_000, small_groups());
    let recovery = recover(&file, &RecoverOptions::new()).unwrap();
    assert!(recovery.is_intact());
    assert!(recovery.dropped().is_none());
    assert!(recovery.found().iter().all(|f| *f == Found::Footer));
    let mut out = Vec::new();
    recovery.write_to(&file, &mut out).unwrap();
    assert_eq!(out, file);
}

#[test]
fn cut_files_with_checkpoints_keep_every_checkpointed_row_group() {
    let file = Whole::new(write(3_000, small_groups().with_checkpoint_every(3)));
    assert_eq!(file.ends.len(), 10);
    let starts = group_starts(&file.file);
    for cut in cuts(&file.file) {
        let whole = file.whole(cut);
        // Every row group up to the last checkpoint the cut leaves whole: checkpoints
        // follow row groups 3, 6 and 9, and end where the next row group starts.
        let at_least = (1..=3)
            .map(|k| k * 3)
            .filter(|&k| starts[k] <= cut as u64)
            .max()
            .unwrap_or(0);
        let options = if at_least > 0 {
            RecoverOptions::new()
        } else {
            // No checkpoint to go on: the schema is needed.
            let error = recover(&file.file[..cut].to_vec(), &RecoverOptions::new()).unwrap_err();
            assert!(matches!(error.kind(), ErrorKind::SchemaNeeded), "{error}");
            RecoverOptions::new().with_schema(Schema::parse(SCHEMA).unwrap())
        };
        let kept = file.check_cut(cut, &options, at_least);
        // Scanning after the checkpoint finds every whole row group of this file.
        assert_eq!(kept, whole, "cut at {cut}");
    }
}

#[test]
fn cut_files_without_checkpoints_are_scanned_with_the_schema() {
    for options in [
        small_groups(),
        small_groups()
            .with_page_version(PageVersion::V2)
            .with_compression(Codec::Zstd),
        small_groups()
            .with_dictionary(false)
            .with_compression(Codec::Gzip)
            .with_crc(false),
    ] {
        let file = Whole::new(write(2_500, options));
        let schema = Schema::parse(SCHEMA).unwrap();
        let recover_options = RecoverOptions::new().with_schema(schema);
        let mut most = 0;
        for cut in cuts(&file.file) {
            let kept = file.check_cut(cut, &recover_options, file.whole(cut));
            most = most.max(kept);
        }
        assert_eq!(most, file.ends.len());
    }
}

#[test]
fn a_sibling_file_gives_the_schema_and_codecs() {
    let file = write(2_000, small_groups());
    let sibling = write(10, small_groups());
    let like: Arc<FileMetaData> = Arc::clone(FileReader::open(sibling).unwrap().metadata());
    let ends = group_ends(&file);
    let cut = ends[4].0 as usize + 30;
    let recovery = recover(
        &file[..cut].to_vec(),
        &RecoverOptions::new().with_like(like),
    )
    .unwrap();
    assert_eq!(recovery.metadata().row_groups().len(), 5);
    assert!(recovery.found().iter().all(|f| *f == Found::Scan));
    assert!(matches!(
        recovery.dropped().unwrap().reason,
        DropReason::Unfinished { .. } | DropReason::EndsInPage(_)
    ));
    assert_eq!(
        recovery.metadata().created_by(),
        FileReader::open(file.clone())
            .unwrap()
            .metadata()
            .created_by()
    );
}

#[test]
fn a_damaged_magic_is_recovered_whole() {
    for every in [None, Some(4)] {
        let options = match every {
            Some(n) => small_groups().with_checkpoint_every(n),
            None => small_groups(),
        };
        let mut file = write(2_000, options);
        let last = file.len() - 1;
        file[last] = b'X';
        let recover_options = RecoverOptions::new().with_schema(Schema::parse(SCHEMA).unwrap());
        let recovery = recover(&file, &recover_options).unwrap();
        assert!(!recovery.is_intact());
        assert_eq!(recovery.metadata().row_groups().len(), 7, "{every:?}");
        assert!(matches!(
            recovery.dropped().unwrap().reason,
            DropReason::Unrecognized
        ));
        if every.is_some() {
            assert_eq!(recovery.found()[0], recovery.found()[3]);
            assert!(matches!(recovery.found()[0], Found::Checkpoint(_)));
            assert_eq!(recovery.found()[4], Found::Scan);
        }
        let mut out = Vec::new();
        recovery.write_to(&file, &mut out).unwrap();
        assert_eq!(rows_of(out).len(), 2_000);
    }
}

#[test]
fn without_a_schema_or_checkpoint_there_is_nothing_to_go_on() {
    let file = write(1_000, small_groups());
    let cut = file[..file.len() - 20].to_vec();
    let error = recover(&cut, &RecoverOptions::new()).unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::SchemaNeeded), "{error}");
    let error = recover(&b"ORC not parquet".to_vec(), &RecoverOptions::new()).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::NotParquet { .. }),
        "{error}"
    );
}

/// Two INT64 columns, PLAIN, pages of equal rows: the pages of a row group group into
/// column chunks in two ways (two pages each, or one), and nothing tells which.
#[test]
fn ambiguous_pages_are_not_guessed() {
    let schema = Schema::parse("message m { required int64 a; required int64 b; }").unwrap();
    let options = WriterOptions::new()
        .with_dictionary(false)
        .with_row_group_rows(200)
        .with_page_rows(100);
    let write = |options: WriterOptions| {
        let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
        for i in 0..1_000 {
            writer
                .write_row(&Row::new(vec![
                    (Arc::from("a"), Field::Int(i)),
                    (Arc::from("b"), Field::Int(-i)),
                ]))
                .unwrap();
        }
        writer.finish().unwrap();
        writer.into_inner()
    };
    let file = write(options.clone());
    let cut = file[..file.len() - 100].to_vec();
    let recovery = recover(&cut, &RecoverOptions::new().with_schema(schema.clone())).unwrap();
    assert_eq!(recovery.metadata().row_groups().len(), 0);
    assert!(
        matches!(
            recovery.dropped().unwrap().reason,
            DropReason::Ambiguous { .. }
        ),
        "{:?}",
        recovery.dropped()
    );
    // After a checkpoint, the row groups before it tell the rows of the next.
    let file = write(options.with_checkpoint_every(1));
    let ends = group_ends(&file);
    let cut = ends[1].0 as usize + 100;
    let cut = file[..cut].to_vec();
    let recovery = recover(&cut, &RecoverOptions::new()).unwrap();
    assert_eq!(recovery.metadata().row_groups().len(), 2);
    let rows = rows_of({
        let mut out = Vec::new();
        recovery.write_to(&cut, &mut out).unwrap();
        out
    });
    assert_eq!(rows.len(), 400);
    assert_eq!(rows[399].get("b"), Some(&Field::Int(-399)));
}

#[test]
fn noise_is_an_error_or_an_empty_recovery() {
    let schema = Schema::parse(SCHEMA).unwrap();
    let options = RecoverOptions::new().with_schema(schema);
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for len in [4, 5, 12, 100, 4096] {
        let mut file = b"PAR1".to_vec();
        while file.len() < len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            file.push(state as u8);
        }
        let recovery = recover(&file, &options).unwrap();
        assert_eq!(recovery.metadata().num_rows(), 0);
        let mut out = Vec::new();
        recovery.write_to(&file, &mut out).unwrap();
        assert_eq!(rows_of(out).len(), 0);
    }
}
