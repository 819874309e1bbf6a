//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/crypto_module.rs"]
#[allow(clippy::unwrap_used)] // the target's checks
pub mod crypto_module;

#[test]
fn crypto_module() {
    replay::replay("crypto_module", crypto_module::run);
}
