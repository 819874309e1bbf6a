//! A fuzz target whose body is `../bodies/bloom.rs`, shared with
//! the replay test `crates/parquet-bloom/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/bloom.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
