//! A fuzz target whose body is `../bodies/orc_recover.rs`, shared with
//! the replay test `crates/orc-file/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/orc_recover.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
