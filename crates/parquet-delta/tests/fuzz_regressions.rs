//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/delta_binary_packed.rs"]
pub mod delta_binary_packed;

#[path = "../../../fuzz/bodies/delta_byte_array.rs"]
pub mod delta_byte_array;

#[path = "../../../fuzz/bodies/delta_length_byte_array.rs"]
pub mod delta_length_byte_array;

#[test]
fn delta_binary_packed() {
    replay::replay("delta_binary_packed", delta_binary_packed::run);
}

#[test]
fn delta_byte_array() {
    replay::replay("delta_byte_array", delta_byte_array::run);
}

#[test]
fn delta_length_byte_array() {
    replay::replay("delta_length_byte_array", delta_length_byte_array::run);
}
