//! A fuzz target whose body is `../bodies/delta_length_byte_array.rs`, shared with
//! the replay test `crates/parquet-delta/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/delta_length_byte_array.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
