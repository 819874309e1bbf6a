//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/thrift_metadata.rs"]
#[allow(clippy::unwrap_used)] // the target's checks
pub mod thrift_metadata;

#[test]
fn thrift_metadata() {
    replay::replay("thrift_metadata", thrift_metadata::run);
}
