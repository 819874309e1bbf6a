//! ULEB128 and the cursor's reads: any bytes give a value or an error.
//!
//! Shared by the fuzz target `core_varint` and by the replay test
//! `crates/parquet-core/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/core_varint/` through [`run`].
//! It uses only crates that this test can use.

use parquet_core::{Cursor, varint};

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    if let Ok((value, len)) = varint::decode_u64(data) {
        // Decoding is strict: only the canonical encoding is accepted.
        let mut canonical = Vec::new();
        varint::encode_u64(value, &mut canonical);
        assert_eq!(&data[..len], &canonical[..]);
    }
    let _ = varint::decode_u32(data);
    let mut cursor = Cursor::new(data);
    while !cursor.is_empty() {
        let before = cursor.position();
        let step = cursor.read_u8("selector").unwrap_or(0) % 4;
        let ok = match step {
            0 => cursor.read_zigzag_i32("i32").is_ok(),
            1 => cursor.read_zigzag_i64("i64").is_ok(),
            2 => cursor.read_u32("u32").is_ok(),
            _ => cursor.read_bytes(usize::from(step) * 3, "bytes").is_ok(),
        };
        assert!(cursor.position() > before);
        if !ok {
            break;
        }
    }
}
