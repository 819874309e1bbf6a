//! Dictionary pages and index pages of arbitrary bytes: gathers return values of the
//! dictionary or an error, for every container.
//!
//! Shared by the fuzz target `dictionary` and by the replay test
//! `crates/parquet-dictionary/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/dictionary/` through [`run`].
//! It uses only crates that this test can use.

use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch};
use parquet_dictionary::{
    ByteArrayDictionary, Dictionary, FixedLenByteArrayDictionary, IndexDecoder,
};

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let split = usize::from(selector).min(rest.len());
    let (dictionary_page, index_page) = rest.split_at(split);
    let entries = usize::from(selector % 32);
    let Ok(decoder) = IndexDecoder::try_new(index_page) else {
        return;
    };

    if let Ok(dictionary) = Dictionary::<i32>::try_from_page(dictionary_page, entries) {
        let mut out = [0i32; 200];
        if let Ok(n) = decoder.clone().gather(&dictionary, &mut out) {
            assert!(out[..n].iter().all(|v| dictionary.entries().contains(v)));
        }
    }
    if let Ok(dictionary) = ByteArrayDictionary::try_from_page(dictionary_page, entries) {
        let mut out = ByteArrayBatch::new();
        if decoder
            .clone()
            .gather_byte_arrays(&dictionary, &mut out, 200)
            .is_ok()
        {
            assert!(
                out.iter()
                    .all(|v| dictionary.entries().iter().any(|e| e == v))
            );
        }
    }
    let width = usize::from(selector % 5) + 1;
    if let Ok(dictionary) =
        FixedLenByteArrayDictionary::try_from_page(dictionary_page, width, entries)
    {
        let mut out = FixedLenByteArrayBatch::new(width);
        let _ = decoder.clone().gather_fixed_len(&dictionary, &mut out, 200);
    }
    let mut indices = [0u32; 64];
    let _ = decoder.clone().decode_indices(&mut indices);
}
