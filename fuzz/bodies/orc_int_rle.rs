//! ORC integer RLE (version 1 or 2) of arbitrary bytes, signed and unsigned: decoding in
//! batches, skipping then decoding, and re-encoding what decoded (in both versions) all
//! agree.
//!
//! Shared by the fuzz targets `orc_int_rle_v1` and `orc_int_rle_v2` and by the replay test
//! `crates/orc-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/orc_int_rle_v1/` and `fuzz/regressions/orc_int_rle_v2/` through [`run`]
//! with their version.
//! It uses only crates that this test can use.

use orc_file::rle::{Sign, Version, int};

/// Values decoded at most: a few bytes can hold runs of hundreds of values.
const MAX_VALUES: usize = 1 << 16;

/// Runs one input: a selector byte (bit 0: signed; the rest: the batch size), then the
/// stream.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8], version: Version) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let sign = if selector & 1 == 1 {
        Sign::Signed
    } else {
        Sign::Unsigned
    };
    let batch = usize::from(selector >> 1) * 5 + 1;

    let mut decoder = int::Decoder::new(input, version, sign);
    let mut values = Vec::new();
    let mut buffer = vec![0i64; batch];
    while values.len() < MAX_VALUES {
        let Ok(n) = decoder.decode(&mut buffer) else {
            return;
        };
        values.extend_from_slice(&buffer[..n]);
        if n < batch {
            break;
        }
    }

    // Skipping then decoding lands on the same values.
    let skip = usize::from(selector).wrapping_mul(37) % (values.len() + 1);
    let mut skipper = int::Decoder::new(input, version, sign);
    assert_eq!(skipper.skip(skip), Ok(skip));
    let mut rest = vec![0i64; values.len() - skip];
    assert_eq!(skipper.decode(&mut rest), Ok(rest.len()));
    assert_eq!(rest[..], values[skip..]);

    // What decoded re-encodes, in either version, to the same values.
    for version in [Version::V1, Version::V2] {
        let mut encoder = int::Encoder::new(version, sign);
        encoder.extend(&values);
        let bytes = encoder.finish();
        let mut again = vec![0i64; values.len() + 1];
        assert_eq!(
            int::Decoder::new(&bytes[..], version, sign).decode(&mut again),
            Ok(values.len())
        );
        assert_eq!(again[..values.len()], values[..]);
    }
}
