//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body
//! (`fuzz/bodies/<target>.rs`). `cargo xtask fuzz` copies there whatever input makes
//! the target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/orc_file_reader.rs"]
pub mod orc_file_reader;

#[path = "../../../fuzz/bodies/orc_byte_rle.rs"]
pub mod orc_byte_rle;

#[path = "../../../fuzz/bodies/orc_int_rle_v1.rs"]
pub mod orc_int_rle_v1;

#[path = "../../../fuzz/bodies/orc_int_rle_v2.rs"]
pub mod orc_int_rle_v2;

#[test]
fn orc_file_reader() {
    replay::replay("orc_file_reader", orc_file_reader::run);
}

#[test]
fn orc_byte_rle() {
    replay::replay("orc_byte_rle", orc_byte_rle::run);
}

#[test]
fn orc_int_rle_v1() {
    replay::replay("orc_int_rle_v1", orc_int_rle_v1::run);
}

#[test]
fn orc_int_rle_v2() {
    replay::replay("orc_int_rle_v2", orc_int_rle_v2::run);
}
