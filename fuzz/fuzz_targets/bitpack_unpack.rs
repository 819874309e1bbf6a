//! A fuzz target whose body is `../bodies/bitpack_unpack.rs`, shared with
//! the replay test `crates/parquet-bitpack/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/bitpack_unpack.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
