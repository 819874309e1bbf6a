//! PLAIN of arbitrary bytes as every physical type: batch decoding agrees with borrowing
//! and skipping, and counts from the "page header" never over-allocate.
//!
//! Shared by the fuzz target `plain` and by the replay test
//! `crates/parquet-plain/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/plain/` through [`run`].
//! It uses only crates that this test can use.

use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
use parquet_plain::{Decoder, PlainType, byte_array, fixed_len_byte_array};

fn fixed<T: PlainType>(input: &[u8], count: usize) {
    let Ok(mut decoder) = Decoder::<T>::try_new(input, count) else {
        return;
    };
    let mut out = vec![T::default(); 37];
    while let Ok(n @ 1..) = decoder.decode(&mut out) {
        assert!(n <= out.len());
        let _ = decoder.skip(n / 2);
    }
    assert_eq!(decoder.remaining(), 0);
}

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    // Counts well beyond what the input holds must fail before allocating.
    let count = usize::from(selector) << (selector % 24);
    fixed::<bool>(input, count);
    fixed::<i32>(input, count);
    fixed::<i64>(input, count);
    fixed::<Int96>(input, count);
    fixed::<f32>(input, count);
    fixed::<f64>(input, count);

    if let Ok(decoder) = byte_array::Decoder::try_new(input, count) {
        let mut copying = decoder.clone();
        let mut batch = ByteArrayBatch::new();
        while let Ok(1..) = copying.decode(&mut batch, 13) {}
        let borrowed: Vec<&[u8]> = decoder.into_iter().map_while(Result::ok).collect();
        assert!(batch.iter().eq(borrowed.iter().copied()));
    }

    let width = usize::from(selector % 20);
    if let Ok(mut decoder) = fixed_len_byte_array::Decoder::try_new(input, width, count) {
        let mut batch = FixedLenByteArrayBatch::new(width);
        while let Ok(1..) = decoder.decode(&mut batch, 7) {
            let _ = decoder.skip(1);
        }
    }
}
