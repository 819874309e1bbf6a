//! A fuzz target whose body is `../bodies/orc_int_rle.rs` (version 1), shared with
//! the replay test `crates/orc-file/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/orc_int_rle.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data, orc_file::rle::Version::V1));
