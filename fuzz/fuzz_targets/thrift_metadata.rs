//! A fuzz target whose body is `../bodies/thrift_metadata.rs`, shared with
//! the replay test `crates/parquet-thrift/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/thrift_metadata.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
