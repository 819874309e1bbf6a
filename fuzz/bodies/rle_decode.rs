//! The RLE/bit-packing hybrid of arbitrary bytes at any width: every way of decoding it
//! agrees on the values, and skipping agrees with decoding.
//!
//! Shared by the fuzz target `rle_decode` and by the replay test
//! `crates/parquet-rle/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/rle_decode/` through [`run`].
//! It uses only crates that this test can use.

use parquet_rle::{Decoder, Run};

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let width = selector % 34;
    let Ok(decoder) = Decoder::try_new(input, width) else {
        return;
    };

    let mut values = [0u32; 300];
    let result = decoder.clone().decode(&mut values);

    // The run visitor sees the same values.
    let mut visited = Vec::new();
    let _ = decoder.clone().for_each_run(300, |run| {
        match run {
            Run::Repeated { value, len } => visited.extend(std::iter::repeat_n(value, len)),
            Run::Packed(packed) => visited.extend_from_slice(packed),
        }
        Ok(())
    });
    if let Ok(n) = result {
        assert_eq!(&visited[..n], &values[..n]);
        // Gathering from the identity dictionary gives the indices back.
        let dict: Vec<u32> = (0..(1u32 << width.min(10))).collect();
        let mut gathered = [0u32; 300];
        if let Ok(g) = decoder.clone().gather(&dict, &mut gathered) {
            assert_eq!(&gathered[..g], &values[..g]);
        }
        // Skipping then decoding lands on the same values.
        let skip = usize::from(selector) % (n + 1);
        let mut after_skip = decoder.clone();
        if after_skip.skip(skip) == Ok(skip) {
            let mut rest = [0u32; 300];
            if let Ok(r) = after_skip.decode(&mut rest[..n - skip]) {
                assert_eq!(&rest[..r], &values[skip..skip + r]);
            }
        }
    }
    let _ = decoder.clone().decode(&mut [0u16; 100]);
    let _ = decoder.clone().decode_bools(&mut [false; 100]);
}
