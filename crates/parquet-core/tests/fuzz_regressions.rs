//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/core_group_var_int.rs"]
pub mod core_group_var_int;

#[path = "../../../fuzz/bodies/core_varint.rs"]
pub mod core_varint;

#[test]
fn core_group_var_int() {
    replay::replay("core_group_var_int", core_group_var_int::run);
}

#[test]
fn core_varint() {
    replay::replay("core_varint", core_varint::run);
}
