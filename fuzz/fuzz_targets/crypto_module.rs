//! A fuzz target whose body is `../bodies/crypto_module.rs`, shared with
//! the replay test `crates/parquet-crypto/tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../bodies/crypto_module.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
