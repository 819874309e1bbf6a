//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body
//! (`fuzz/bodies/<target>.rs`). `cargo xtask fuzz` copies there whatever input makes
//! the target fail.

use orc_file::rle::Version;

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/orc_file_reader.rs"]
pub mod orc_file_reader;

#[path = "../../../fuzz/bodies/orc_writer.rs"]
pub mod orc_writer;

#[path = "../../../fuzz/bodies/orc_recover.rs"]
pub mod orc_recover;

#[path = "../../../fuzz/bodies/orc_byte_rle.rs"]
pub mod orc_byte_rle;

#[path = "../../../fuzz/bodies/orc_int_rle.rs"]
pub mod orc_int_rle;

#[test]
fn orc_file_reader() {
    replay::replay("orc_file_reader", orc_file_reader::run);
}

#[test]
fn orc_writer() {
    replay::replay("orc_writer", orc_writer::run);
}

#[test]
fn orc_recover() {
    replay::replay("orc_recover", orc_recover::run);
}

#[test]
fn orc_byte_rle() {
    replay::replay("orc_byte_rle", orc_byte_rle::run);
}

#[test]
fn orc_int_rle_v1() {
    replay::replay("orc_int_rle_v1", |data| {
        orc_int_rle::run(data, Version::V1);
    });
}

#[test]
fn orc_int_rle_v2() {
    replay::replay("orc_int_rle_v2", |data| {
        orc_int_rle::run(data, Version::V2);
    });
}
