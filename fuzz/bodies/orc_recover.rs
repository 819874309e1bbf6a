//! Arbitrary bytes recovered as an ORC file cut short (`orc_file::recover`): from its
//! own tail or intermediate footers, and by walking its stripes' chunks, told what the
//! file is like by a small file of the seeds' schema (ZLIB, a row index every 2 rows).
//! Any error is fine; a recovery that succeeds must give a file that opens and whose
//! every row reads, as many as the recovery says.
//!
//! Shared by the fuzz target `orc_recover` and by the replay test
//! `crates/orc-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/orc_recover/` through [`run`].

#![allow(clippy::expect_used)] // A failed expectation is a finding.

use std::sync::OnceLock;

use orc_file::recover::{RecoverOptions, recover};
use orc_file::{OrcReader, OrcWriter, ReadOptions, TypeDescription, WriterOptions};
use parquet_core::{Field, Row};

/// The schema the seeds were written with.
const SCHEMA: &str = "struct<id:bigint,name:string,tags:array<string>>";

/// A file like the seeds: its tail tells the codec, block size and row index stride.
fn like() -> &'static OrcReader<Vec<u8>> {
    static LIKE: OnceLock<OrcReader<Vec<u8>>> = OnceLock::new();
    LIKE.get_or_init(|| {
        let schema = TypeDescription::parse(SCHEMA).expect("the schema parses");
        let options = WriterOptions::default()
            .compression_block_size(64)
            .row_index_stride(2);
        let mut writer = OrcWriter::new(Vec::new(), schema, options).expect("a writer");
        let row = Row::new(vec![
            ("id".into(), Field::Int(1)),
            ("name".into(), Field::Str("a".into())),
            ("tags".into(), Field::List(vec![Field::Null])),
        ]);
        writer.write_row(&row).expect("a row");
        OrcReader::open(writer.finish().expect("a file")).expect("the file opens")
    })
}

/// The most rows read back: a few bytes may claim billions of rows.
const MAX_ROWS: u64 = 1 << 16;

/// Runs one input.
///
/// # Panics
///
/// When a recovered file does not read as the recovery says: a finding.
pub fn run(data: &[u8]) {
    let source = data.to_vec();
    for options in [
        RecoverOptions::new(),
        RecoverOptions::new().with_like(like()),
    ] {
        let Ok(recovery) = recover(&source, &options) else {
            continue;
        };
        let mut file = Vec::new();
        recovery
            .write_to(&source, &mut file)
            .expect("a recovery writes");
        assert_eq!(file.len() as u64, recovery.len());
        let reader = OrcReader::open(file).expect("a recovered file opens");
        assert_eq!(reader.num_rows(), recovery.num_rows());
        if recovery.num_rows() > MAX_ROWS {
            continue;
        }
        let mut rows = 0;
        for batch in reader.batches(ReadOptions::default()).expect("batches") {
            rows += batch.expect("every row of a recovered file reads").num_rows as u64;
        }
        assert_eq!(rows, recovery.num_rows());
    }
}
