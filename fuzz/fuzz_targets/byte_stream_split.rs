//! A fuzz target whose body is `../bodies/byte_stream_split.rs`, shared with
//! the replay test `crates/parquet-byte-stream-split/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/byte_stream_split.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
