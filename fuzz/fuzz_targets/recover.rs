//! A fuzz target whose body is `../bodies/recover.rs`, shared with
//! the replay test `crates/parquet-file/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/recover.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
