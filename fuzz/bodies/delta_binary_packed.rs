//! DELTA_BINARY_PACKED of arbitrary bytes, as INT32 and INT64: decode, skip and the end
//! offset agree and stay inside the input.
//!
//! Shared by the fuzz target `delta_binary_packed` and by the replay test
//! `crates/parquet-delta/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/delta_binary_packed/` through [`run`].
//! It uses only crates that this test can use.

use parquet_delta::binary_packed::{Decoder, Integer};

fn check<T: Integer + Default + Copy>(data: &[u8], batch: usize) {
    let Ok(mut decoder) = Decoder::<T>::try_new(data) else {
        return;
    };
    let end = decoder.encoded_len();
    let mut out = vec![T::default(); batch];
    let mut done = 0usize;
    // A few bytes may declare billions of zero-width deltas; what a caller decodes is its
    // own choice, so stop after a bounded amount.
    while done < 1 << 16 {
        let before = decoder.remaining();
        let step = if done.is_multiple_of(2) {
            decoder.decode(&mut out)
        } else {
            decoder.skip(batch)
        };
        match step {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                assert!(n <= batch && decoder.remaining() == before - n);
                done += n;
            }
        }
    }
    if let Ok(end) = end {
        assert!(end <= data.len());
    }
}

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let batch = 1 + usize::from(data.first().copied().unwrap_or(0));
    check::<i32>(data, batch);
    check::<i64>(data, batch);
}
