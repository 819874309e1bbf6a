//! DELTA_LENGTH_BYTE_ARRAY of arbitrary bytes: copied and borrowed values agree.
//!
//! Shared by the fuzz target `delta_length_byte_array` and by the replay test
//! `crates/parquet-delta/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/delta_length_byte_array/` through [`run`].
//! It uses only crates that this test can use.

use parquet_core::ByteArrayBatch;
use parquet_delta::length_byte_array::Decoder;

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Ok(mut copying) = Decoder::try_new(data) else {
        return;
    };
    let mut borrowing = copying.clone();
    assert!(copying.encoded_len() <= data.len());
    let mut batch = ByteArrayBatch::new();
    let mut borrowed = Vec::new();
    let max = 1 + usize::from(data.first().copied().unwrap_or(0) % 64);
    // A few bytes may declare billions of empty values; what a caller decodes is its own
    // choice, so stop after a bounded amount.
    while batch.len() < 1 << 16 {
        let copied = copying.decode(&mut batch, max);
        let lent = borrowing.decode_borrowed(&mut borrowed, max);
        assert_eq!(copied.is_ok(), lent.is_ok());
        match copied {
            Ok(0) | Err(_) => break,
            Ok(n) => assert_eq!(Ok(n), lent),
        }
        let _ = copying.skip(1);
        let _ = borrowing.skip(1);
    }
    assert!(batch.iter().eq(borrowed.iter().copied()));
}
