//! LSB-first unpacking at any width into every value type, checked against packing.
//!
//! Shared by the fuzz target `bitpack_unpack` and by the replay test
//! `crates/parquet-bitpack/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/bitpack_unpack/` through [`run`].
//! It uses only crates that this test can use.

use parquet_bitpack::{pack, unpack};

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let width = selector % 72;
    let count = input.len() * 8 / usize::from(width.max(1)) + usize::from(selector >> 7);
    let mut out = vec![0u64; count];
    if let Ok(used) = unpack(width, input, &mut out) {
        let mut repacked = Vec::new();
        pack(width, &out, &mut repacked);
        assert_eq!(repacked.len(), used);
        // Bits past the last value in the last byte are padding.
        let full = count * usize::from(width) / 8;
        assert_eq!(repacked[..full], input[..full]);
    }
    let _ = unpack(width, input, &mut vec![0u32; count]);
    let _ = unpack(width, input, &mut vec![0u16; count]);
    let _ = unpack(width, input, &mut vec![0u8; count]);
}
