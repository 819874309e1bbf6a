//! GroupVarInt decoding of arbitrary bytes, for INT32 and INT64.
//!
//! Shared by the fuzz target `core_group_var_int` and by the replay test
//! `crates/parquet-core/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/core_group_var_int/` through [`run`].
//! It uses only crates that this test can use.

use parquet_core::group_var_int::Decoder;

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&count, input)) = data.split_first() else {
        return;
    };
    let count = usize::from(count) * 3;
    let mut out32 = vec![0i32; 17];
    if let Ok(mut decoder) = Decoder::<i32>::try_new(input, count) {
        while let Ok(n @ 1..) = decoder.decode(&mut out32) {
            assert!(n <= out32.len());
        }
    }
    let mut out64 = vec![0i64; 23];
    if let Ok(mut decoder) = Decoder::<i64>::try_new(input, count) {
        let _ = decoder.skip(count / 2);
        while let Ok(n @ 1..) = decoder.decode(&mut out64) {
            assert!(n <= out64.len());
        }
    }
}
