//! ORC byte RLE and boolean RLE of arbitrary bytes: decoding in batches, skipping then
//! decoding, and re-encoding what decoded all agree.
//!
//! Shared by the fuzz target `orc_byte_rle` and by the replay test
//! `crates/orc-file/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/orc_byte_rle/` through [`run`].
//! It uses only crates that this test can use.

use orc_file::rle::{boolean, byte};

/// Runs one input: a selector byte (the batch size), then the stream.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let batch = usize::from(selector) + 1;

    // Byte RLE: a run of 130 values takes 2 bytes.
    let mut bytes = Vec::new();
    if decode_all(
        &mut byte::Decoder::new(input),
        &mut bytes,
        batch,
        byte::Decoder::decode,
    ) {
        assert!(bytes.len() <= input.len() * 65);
        let skip = usize::from(selector) * 7 % (bytes.len() + 1);
        let mut decoder = byte::Decoder::new(input);
        assert_eq!(decoder.skip(skip), Ok(skip));
        let mut rest = vec![0u8; bytes.len() - skip + 1];
        assert_eq!(decoder.decode(&mut rest), Ok(bytes.len() - skip));
        assert_eq!(rest[..bytes.len() - skip], bytes[skip..]);
        let again = encode_bytes(&bytes);
        let mut round = vec![0u8; bytes.len() + 1];
        assert_eq!(
            byte::Decoder::new(&again[..]).decode(&mut round),
            Ok(bytes.len())
        );
        assert_eq!(round[..bytes.len()], bytes[..]);
    }

    // Boolean RLE over the same bytes.
    let mut bools = Vec::new();
    if decode_all(
        &mut boolean::Decoder::new(input),
        &mut bools,
        batch,
        boolean::Decoder::decode,
    ) {
        assert_eq!(bools.len(), bytes.len() * 8);
        let skip = usize::from(selector) * 13 % (bools.len() + 1);
        let mut decoder = boolean::Decoder::new(input);
        assert_eq!(decoder.skip(skip), Ok(skip));
        let mut rest = vec![false; bools.len() - skip + 1];
        assert_eq!(decoder.decode(&mut rest), Ok(bools.len() - skip));
        assert_eq!(rest[..bools.len() - skip], bools[skip..]);
        let mut encoder = boolean::Encoder::new();
        encoder.extend(&bools);
        // Whole bytes of booleans encode as those bytes do.
        assert_eq!(encoder.finish(), encode_bytes(&bytes));
    }
}

/// Decodes everything in batches of `batch`; false on an error.
fn decode_all<D, T: Copy + Default>(
    decoder: &mut D,
    out: &mut Vec<T>,
    batch: usize,
    decode: fn(&mut D, &mut [T]) -> parquet_core::Result<usize>,
) -> bool {
    let mut buffer = vec![T::default(); batch];
    loop {
        match decode(decoder, &mut buffer) {
            Ok(n) => {
                out.extend_from_slice(&buffer[..n]);
                if n < batch {
                    return true;
                }
            }
            Err(_) => return false,
        }
    }
}

/// The byte RLE encoding of `bytes`.
fn encode_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = byte::Encoder::new();
    encoder.extend(bytes);
    encoder.finish()
}
