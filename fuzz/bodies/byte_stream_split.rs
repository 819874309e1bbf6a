//! BYTE_STREAM_SPLIT of arbitrary bytes at any width: typed, raw and batch decoding agree,
//! and re-encoding gives the input back.
//!
//! Shared by the fuzz target `byte_stream_split` and by the replay test
//! `crates/parquet-byte-stream-split/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/byte_stream_split/` through [`run`].
//! It uses only crates that this test can use.

use parquet_byte_stream_split::{Decoder, encode_bytes};
use parquet_core::FixedLenByteArrayBatch;

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let width = usize::from(selector % 20);
    let Ok(decoder) = Decoder::try_new(input, width) else {
        return;
    };
    let mut raw = vec![0u8; decoder.len() * width];
    assert_eq!(decoder.clone().decode_bytes(&mut raw), Ok(decoder.len()));
    let mut encoded = Vec::new();
    encode_bytes(&raw, width, &mut encoded).unwrap();
    assert_eq!(encoded, input);

    let mut batch = FixedLenByteArrayBatch::new(width);
    let mut batches = decoder.clone();
    while let Ok(1..) = batches.decode_batch(&mut batch, 1 + usize::from(selector)) {}
    assert_eq!(batch.data(), &raw[..]);

    match width {
        4 => {
            let mut floats = vec![0f32; decoder.len()];
            decoder.clone().decode(&mut floats).unwrap();
            assert!(
                floats
                    .iter()
                    .zip(raw.chunks_exact(4))
                    .all(|(f, b)| f.to_le_bytes() == b)
            );
        }
        8 => {
            let mut ints = vec![0i64; decoder.len()];
            let mut skipping = decoder.clone();
            let skipped = skipping.skip(3).unwrap();
            let n = skipping.decode(&mut ints).unwrap();
            assert_eq!(skipped + n, decoder.len());
        }
        _ => {}
    }
}
