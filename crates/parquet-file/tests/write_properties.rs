//! Property test of the writer: random schemas (up to 4 fields nested up to 4 deep, every
//! physical type and every logical type that holds values but VARIANT and the geospatial
//! ones, nulls at every level) × every encoding valid for each column, dictionary or not
//! × every codec × page v1 and v2 × legacy encodings × statistics, page index, CRC and
//! Bloom filter settings × encryption on or off (either algorithm, either footer, keys per
//! column), each file checked by the reader's verification and read back equal to the rows
//! written.
//!
//! The cases are made from random bytes by the body of the `file_writer` fuzz target,
//! which this test shares (`fuzz/bodies/file_writer.rs`).

#[path = "../../../fuzz/bodies/file_writer.rs"]
pub mod file_writer;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn what_is_written_reads_back(data in prop::collection::vec(any::<u8>(), 0..3000)) {
        file_writer::run(&data);
    }
}
