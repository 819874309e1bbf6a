//! The regressions of this crate's fuzz target, replayed: every input committed under
//! `fuzz/regressions/file_reader/` runs through the target's own body
//! (`fuzz/bodies/file_reader.rs`). `cargo xtask fuzz` copies there whatever input makes
//! the target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/file_reader.rs"]
pub mod file_reader;

#[test]
fn file_reader() {
    replay::replay("file_reader", file_reader::run);
}
