//! Arbitrary bytes read as the Thrift structures a reader parses from a file: an error,
//! or a value that re-encodes to bytes that read back equal.
//!
//! Shared by the fuzz target `thrift_metadata` and by the replay test
//! `crates/parquet-thrift/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/thrift_metadata/` through [`run`].
//! It uses only crates that this test can use.

use parquet_thrift::{
    BloomFilterHeader, ColumnIndex, FileCryptoMetaData, FileMetaData, OffsetIndex, PageHeader,
};

macro_rules! check {
    ($type:ident, $data:expr) => {{
        if let Ok((value, used)) = $type::read_from($data) {
            assert!(used <= $data.len());
            let mut bytes = Vec::new();
            value.write_to(&mut bytes).unwrap();
            let (again, again_used) = $type::read_from(&bytes).unwrap();
            assert_eq!(again_used, bytes.len());
            assert_eq!(again, value);
        }
    }};
}

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    match selector % 6 {
        0 => check!(FileMetaData, input),
        1 => check!(PageHeader, input),
        2 => check!(ColumnIndex, input),
        3 => check!(OffsetIndex, input),
        4 => check!(BloomFilterHeader, input),
        _ => check!(FileCryptoMetaData, input),
    }
}
