//! The deprecated MSB-first BIT_PACKED encoding: decode, then re-encode to the same bytes.
//!
//! Shared by the fuzz target `bitpack_bit_packed` and by the replay test
//! `crates/parquet-bitpack/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/bitpack_bit_packed/` through [`run`].
//! It uses only crates that this test can use.

use parquet_bitpack::{bit_packed, packed_len};

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let width = selector % 70;
    let count = (input.len() * 8)
        .checked_div(usize::from(width))
        .unwrap_or(input.len());
    let Ok(mut decoder) = bit_packed::Decoder::try_new(input, width, count) else {
        return;
    };
    let mut values = vec![0u64; count];
    let _ = decoder.skip(0);
    if decoder.decode(&mut values) == Ok(count) {
        let mut encoded = Vec::new();
        bit_packed::encode(width, &values, &mut encoded);
        assert_eq!(encoded.len(), packed_len(count, width));
    }
}
