//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body
//! (`fuzz/bodies/<target>.rs`). `cargo xtask fuzz` copies there whatever input makes
//! the target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/orc_file_reader.rs"]
pub mod orc_file_reader;

#[test]
fn orc_file_reader() {
    replay::replay("orc_file_reader", orc_file_reader::run);
}
