//! DELTA_BYTE_ARRAY of arbitrary bytes, as BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, with a
//! small output budget: no call appends much more than the budget.
//!
//! Shared by the fuzz target `delta_byte_array` and by the replay test
//! `crates/parquet-delta/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/delta_byte_array/` through [`run`].
//! It uses only crates that this test can use.

use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch};
use parquet_delta::byte_array::Decoder;

const BUDGET: usize = 1 << 16;

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Ok(decoder) = Decoder::try_new(data) else {
        return;
    };
    let mut decoder = decoder.with_byte_budget(BUDGET);
    let mut fixed = decoder.clone();
    let mut batch = ByteArrayBatch::new();
    while let Ok(n @ 1..) = decoder.decode(&mut batch, 1000) {
        // One value may exceed the budget on its own, but it is no longer than the input.
        assert!(batch.data().len() <= BUDGET + data.len());
        assert!(n <= 1000);
        batch.clear();
        let _ = decoder.skip(3);
    }
    let width = usize::from(data.first().copied().unwrap_or(0) % 17);
    let mut out = FixedLenByteArrayBatch::new(width);
    while let Ok(1..) = fixed.decode_fixed(&mut out, 100) {
        assert_eq!(out.data().len(), out.len() * width);
        out.clear();
    }
}
