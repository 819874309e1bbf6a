//! A fuzz target whose body is `../bodies/rle_decode.rs`, shared with
//! the replay test `crates/parquet-rle/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/rle_decode.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
