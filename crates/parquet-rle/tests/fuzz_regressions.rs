//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/rle_decode.rs"]
pub mod rle_decode;

#[test]
fn rle_decode() {
    replay::replay("rle_decode", rle_decode::run);
}
