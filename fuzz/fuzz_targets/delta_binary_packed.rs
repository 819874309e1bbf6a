//! A fuzz target whose body is `../bodies/delta_binary_packed.rs`, shared with
//! the replay test `crates/parquet-delta/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/delta_binary_packed.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
