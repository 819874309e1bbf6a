//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/plain.rs"]
pub mod plain;

#[test]
fn plain() {
    replay::replay("plain", plain::run);
}
