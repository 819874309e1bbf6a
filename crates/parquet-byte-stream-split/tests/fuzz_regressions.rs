//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/byte_stream_split.rs"]
#[allow(clippy::unwrap_used)] // the target's checks
pub mod byte_stream_split;

#[test]
fn byte_stream_split() {
    replay::replay("byte_stream_split", byte_stream_split::run);
}
