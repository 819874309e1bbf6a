//! Arbitrary bytes through every codec's decompressor: an error or exactly the expected
//! size, never more output than asked for, and compressing what came out round-trips.
//!
//! Shared by the fuzz target `decompress` and by the replay test
//! `crates/parquet-compress/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/decompress/` through [`run`].
//! It uses only crates that this test can use.

use parquet_compress::{Codec, Decompressor, compress};

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let codec = Codec::ALL[usize::from(selector) % Codec::ALL.len()];
    let expected = usize::from(selector) * 97;
    let mut decompressor = Decompressor::new();
    let mut out = Vec::new();
    if decompressor
        .decompress(codec, input, expected, &mut out)
        .is_ok()
    {
        assert_eq!(out.len(), expected);
        let mut recompressed = Vec::new();
        compress(codec, &out, &mut recompressed).unwrap();
        let mut again = Vec::new();
        decompressor
            .decompress(codec, &recompressed, expected, &mut again)
            .unwrap();
        assert_eq!(again, out);
    } else {
        assert!(out.is_empty());
    }
    let mut bounded = Vec::new();
    if let Ok(n) = decompressor.decompress_up_to(codec, input, 4096, &mut bounded) {
        assert!(n <= 4096 && bounded.len() == n);
    }
}
