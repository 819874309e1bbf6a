//! A fuzz target whose body is `../bodies/decompress.rs`, shared with
//! the replay test `crates/parquet-compress/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/decompress.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
