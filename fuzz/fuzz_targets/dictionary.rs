//! A fuzz target whose body is `../bodies/dictionary.rs`, shared with
//! the replay test `crates/parquet-dictionary/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/dictionary.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
