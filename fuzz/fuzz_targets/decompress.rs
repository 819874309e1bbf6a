//! Arbitrary bytes through every codec's decompressor: an error or exactly the expected
//! size, never more output than asked for, and compressing what came out round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use parquet_compress::{Codec, Decompressor, compress};

fuzz_target!(|data: &[u8]| {
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
});
