//! A fuzz target whose body is `../bodies/core_varint.rs`, shared with
//! the replay test `crates/parquet-core/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/core_varint.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
