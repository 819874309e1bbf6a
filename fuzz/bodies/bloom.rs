//! A Bloom filter bitset of arbitrary bytes: any valid length is a filter, and whatever is
//! inserted is then found (no false negatives).
//!
//! Shared by the fuzz target `bloom` and by the replay test
//! `crates/parquet-bloom/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/bloom/` through [`run`].
//! It uses only crates that this test can use.

use parquet_bloom::Sbbf;

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Ok(mut filter) = Sbbf::try_from_bitset(data) else {
        return;
    };
    assert_eq!(filter.num_bytes(), data.len());
    let hashes: Vec<u64> = data
        .chunks(8)
        .map(|c| c.iter().fold(0u64, |h, &b| h.rotate_left(8) ^ u64::from(b)))
        .collect();
    let before: Vec<bool> = hashes.iter().map(|&h| filter.check_hash(h)).collect();
    filter.insert_hashes(&hashes);
    assert!(hashes.iter().all(|&h| filter.check_hash(h)));
    assert!(filter.check_any(&hashes) || hashes.is_empty());
    // Inserting only sets bits: what was found before is still found.
    assert!(
        hashes
            .iter()
            .zip(before)
            .all(|(&h, b)| !b || filter.check_hash(h))
    );
    assert_eq!(filter.to_bitset().len(), data.len());
}
