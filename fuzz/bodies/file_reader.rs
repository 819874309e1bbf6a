//! Arbitrary bytes read as a whole Parquet file: the footer, every column chunk in small
//! batches of records with skips between them, every Bloom filter and page index, every
//! row, the rows of every other run of 8 through the offset index, and a verification.
//! Any outcome but a panic (or an allocation past the fuzzer's limit) is fine; the rows
//! read must agree with the row groups' counts.
//!
//! Shared by the fuzz target `file_reader` and by the replay test
//! `crates/parquet-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/file_reader/` through [`run`].

use parquet_file::{
    Bytes, ColumnBatch, FileReader, Limits, Projection, ReadOptions, RowGroupMetaData, RowSelection,
};

/// Runs one input.
///
/// # Panics
///
/// When the rows read disagree with the row groups' counts: a finding.
pub fn run(data: &[u8]) {
    // Limits small enough that a few bytes claiming billions cannot make a run slow.
    let limits = Limits::default()
        .with_max_record_values(1 << 16)
        .with_max_decompressed_page_size(1 << 24);
    let options = ReadOptions::new().with_limits(limits);
    let Ok(reader) = FileReader::with_options(Bytes::copy_from_slice(data), options) else {
        return;
    };
    let schema = reader.schema();
    let row_groups: Vec<u64> = reader
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows().min(1 << 20))
        .collect();
    for g in 0..row_groups.len() {
        for (c, column) in schema.columns().iter().enumerate() {
            let _ = reader.bloom_filter(g, c);
            let _ = reader.offset_index(g, c);
            let _ = reader.column_index(g, c);
            let Ok(mut chunk) = reader.column_chunk(g, c) else {
                continue;
            };
            let mut batch = ColumnBatch::new(column);
            // Batches of 1, 2, 3, ... records, each followed by a skip of as many, up to a
            // bounded number of records.
            let mut records = 0;
            for size in 1..64 {
                match chunk.read_records(size, &mut batch) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => records += n,
                }
                batch.clear();
                if chunk.skip_records(size).is_err() || records > 1 << 16 {
                    break;
                }
            }
        }
    }
    let mut projection = Projection::all();
    for (g, &rows) in row_groups.iter().enumerate() {
        let runs = (0..rows).step_by(16).map(|s| s..s + 8);
        projection = projection.select_rows(g, RowSelection::from_ranges(runs));
    }
    if let Ok(rows) = reader.rows_with(projection) {
        rows.take(1 << 16).take_while(Result::is_ok).for_each(drop);
    }
    let expected: u64 = reader
        .metadata()
        .row_groups()
        .iter()
        .map(RowGroupMetaData::num_rows)
        .sum();
    if expected > 1 << 16 {
        // A claim of many rows: reading them all is the caller's choice, not a finding.
        return;
    }
    let mut count = 0_u64;
    for row in reader.rows() {
        if row.is_err() {
            return;
        }
        count += 1;
    }
    assert_eq!(count, expected);
    let _ = reader.verify();
}
