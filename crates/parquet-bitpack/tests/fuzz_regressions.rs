//! The regressions of this crate's fuzz targets, replayed: every input committed under
//! `fuzz/regressions/<target>/` runs through the target's own body (`fuzz/bodies/`).
//! `cargo xtask fuzz` copies there whatever input makes a target fail.

#[path = "../../../fuzz/replay.rs"]
pub mod replay;

#[path = "../../../fuzz/bodies/bitpack_bit_packed.rs"]
pub mod bitpack_bit_packed;

#[path = "../../../fuzz/bodies/bitpack_unpack.rs"]
pub mod bitpack_unpack;

#[test]
fn bitpack_bit_packed() {
    replay::replay("bitpack_bit_packed", bitpack_bit_packed::run);
}

#[test]
fn bitpack_unpack() {
    replay::replay("bitpack_unpack", bitpack_unpack::run);
}
