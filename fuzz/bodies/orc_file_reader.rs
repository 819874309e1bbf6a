//! Arbitrary bytes read as a whole ORC file: the tail, every stripe footer, the stripe
//! statistics, every row of every column in batches of several sizes, each top-level
//! column alone, and the rows a predicate on the first column keeps. Any outcome but a
//! panic (or an allocation past the fuzzer's limit) is fine; a read that succeeds must
//! give no more rows than the stripes hold.
//!
//! Shared by the fuzz target `orc_file_reader` and by the replay test
//! `crates/orc-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/orc_file_reader/` through [`run`].

use orc_file::{Batch, OrcReader, ReadOptions};
use parquet_core::{Op, Predicate};

/// The most rows read per pass: a few bytes may claim billions of rows that no stream
/// backs (a struct without fields), which is slow rather than wrong.
const MAX_ROWS: usize = 1 << 16;

/// Runs one input.
///
/// # Panics
///
/// When more rows are read than the stripes hold: a finding.
pub fn run(data: &[u8]) {
    let Ok(reader) = OrcReader::open(bytes::Bytes::copy_from_slice(data)) else {
        return;
    };
    let claimed: u64 = reader.stripes().iter().map(|s| s.num_rows).sum();
    for stripe in 0..reader.stripes().len().min(64) {
        let _ = reader.stripe_footer(stripe);
    }
    let _ = reader.stripe_statistics_proto();
    let _ = reader.schema().to_string();

    read(&reader, ReadOptions::default().with_batch_size(7), claimed);
    read(
        &reader,
        ReadOptions::default().with_batch_size(1000),
        claimed,
    );
    let names: Vec<String> = reader.schema().field_names().to_vec();
    for name in names.iter().take(8) {
        read(
            &reader,
            ReadOptions::default().with_projection([name.clone()]),
            claimed,
        );
    }
    if let Some(first) = names.first() {
        let predicate = Predicate::compare(first.as_str(), Op::Ge, 0);
        read(
            &reader,
            ReadOptions::default().with_predicate(predicate),
            claimed,
        );
    }
    if let Ok(rows) = reader.rows(ReadOptions::default()) {
        for row in rows.take(MAX_ROWS) {
            if row.is_err() {
                break;
            }
        }
    }
}

fn read<S: parquet_core::io::Source>(reader: &OrcReader<S>, options: ReadOptions, claimed: u64) {
    let Ok(mut batches) = reader.batches(options) else {
        return;
    };
    let mut batch = Batch::default();
    let mut rows = 0usize;
    while let Ok(true) = batches.next_into(&mut batch) {
        rows += batch.num_rows;
        assert!(
            rows as u64 <= claimed,
            "{rows} rows read from stripes of {claimed}"
        );
        if rows > MAX_ROWS {
            break;
        }
    }
}
