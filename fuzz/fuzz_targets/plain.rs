//! A fuzz target whose body is `../bodies/plain.rs`, shared with
//! the replay test `crates/parquet-plain/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/plain.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
