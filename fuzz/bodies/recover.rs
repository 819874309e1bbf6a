//! Arbitrary bytes recovered as a Parquet file cut short (`parquet_file::recover`):
//! from its own footer or checkpoints, and by a scan of its pages with a fixed schema.
//! Any error is fine; a recovery that succeeds must give a file that opens and whose
//! every row group reads whole, with the rows it says.
//!
//! Shared by the fuzz target `recover` and by the replay test
//! `crates/parquet-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/recover/` through [`run`].

#![allow(clippy::expect_used)] // A failed expectation is a finding.

use parquet_file::recover::{RecoverOptions, recover};
use parquet_file::{Bytes, FileReader, Limits, ReadOptions, Schema};

/// The schema the seeds were written with (`id`, `name`, `tags`).
const SCHEMA: &str = "message m {
    required int64 id;
    optional binary name (STRING);
    optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
}";

/// Runs one input.
///
/// # Panics
///
/// When a recovered file does not read as the recovery says: a finding.
pub fn run(data: &[u8]) {
    // Limits small enough that a few bytes claiming billions cannot make a run slow.
    let limits = Limits::default()
        .with_max_record_values(1 << 16)
        .with_max_decompressed_page_size(1 << 20);
    let source = Bytes::copy_from_slice(data);
    let schema = Schema::parse(SCHEMA).expect("the schema parses");
    for options in [
        RecoverOptions::new().with_limits(limits),
        RecoverOptions::new()
            .with_limits(limits)
            .with_schema(schema),
    ] {
        let Ok(recovery) = recover(&source, &options) else {
            continue;
        };
        let mut file = Vec::new();
        recovery
            .write_to(&source, &mut file)
            .expect("a recovery writes");
        assert_eq!(file.len() as u64, recovery.len());
        let reader = FileReader::with_options(file, ReadOptions::new().with_limits(limits))
            .expect("a recovered file opens");
        assert_eq!(reader.metadata().num_rows(), recovery.metadata().num_rows());
        let mut rows = 0_u64;
        for row in reader.rows() {
            row.expect("every row of a recovered file reads");
            rows += 1;
        }
        assert_eq!(rows, recovery.metadata().num_rows());
    }
}
