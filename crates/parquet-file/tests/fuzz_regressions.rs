//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body
//! (`fuzz/bodies/<target>.rs`). `cargo xtask fuzz` copies there whatever input makes
//! the target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/file_reader.rs"]
pub mod file_reader;

#[path = "../../../fuzz/bodies/file_writer.rs"]
pub mod file_writer;

#[path = "../../../fuzz/bodies/schema_parse.rs"]
pub mod schema_parse;

#[path = "../../../fuzz/bodies/recover.rs"]
pub mod recover;

#[test]
fn file_reader() {
    replay::replay("file_reader", file_reader::run);
}

#[test]
fn file_writer() {
    replay::replay("file_writer", file_writer::run);
}

#[test]
fn schema_parse() {
    replay::replay("schema_parse", schema_parse::run);
}

#[test]
fn recover() {
    replay::replay("recover", recover::run);
}
