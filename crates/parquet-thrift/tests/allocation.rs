//! What reading allocates, measured by a global allocator that counts the bytes each
//! thread holds: never more than a small multiple of the input's length, and nothing at
//! all for a list header that claims more elements than the input could hold.
//!
//! The allocator is the one `unsafe` item of this crate's tests: it forwards every call
//! to the system allocator unchanged.
#![allow(unsafe_code)]

mod counting;

use counting::peak_allocation;
use parquet_thrift::compact::{FieldType, Reader};
use parquet_thrift::{
    BloomFilterHeader, ColumnChunk, ColumnIndex, ColumnMetaData, FileCryptoMetaData, FileMetaData,
    OffsetIndex, PageHeader, ReadThrift, RowGroup, SchemaElement,
};
use proptest::prelude::*;

/// Reads `bytes` as each top-level structure and returns the most any of them allocated.
fn worst_allocation(bytes: &[u8]) -> usize {
    macro_rules! peak {
        ($($ty:ident),*) => {
            [$(peak_allocation(|| drop($ty::read_from(bytes)))),*]
        };
    }
    let structures = peak!(
        FileMetaData,
        PageHeader,
        ColumnIndex,
        OffsetIndex,
        ColumnChunk,
        ColumnMetaData,
        RowGroup,
        SchemaElement,
        BloomFilterHeader,
        FileCryptoMetaData
    );
    let skip = peak_allocation(|| drop(Reader::new(bytes).skip_field(FieldType::Struct)));
    structures.into_iter().chain([skip]).max().unwrap_or(0)
}

/// A struct takes at least one byte, and the largest (a column chunk, about 500 bytes
/// in memory) at least three: no input makes a reader hold more than 256 bytes per byte.
fn bound(input_len: usize) -> usize {
    256 * input_len + 1024
}

#[test]
fn lying_list_headers_allocate_nothing() {
    // A footer whose row group list claims 2^31 - 1 elements, then a column chunk list
    // claiming as much, each with ten bytes left.
    let mut footer = vec![0x15, 0x02, 0x39, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07];
    footer.extend_from_slice(&[0; 10]);
    assert_eq!(
        peak_allocation(|| assert!(FileMetaData::read_from(&footer).is_err())),
        0
    );
    let mut chunks = vec![0xfc, 0xff, 0xff, 0xff, 0xff, 0x07];
    chunks.extend_from_slice(&[0; 10]);
    assert_eq!(
        peak_allocation(|| assert!(Vec::<ColumnChunk>::read_from(&chunks).is_err())),
        0
    );
    // Three-byte column chunks: four of them do not fit in ten bytes.
    chunks[..2].copy_from_slice(&[0x4c, 0x00]);
    assert_eq!(
        peak_allocation(|| assert!(Vec::<ColumnChunk>::read_from(&chunks[..11]).is_err())),
        0
    );
}

#[test]
fn the_largest_honest_input_stays_within_the_bound() {
    // As many minimal column chunks (`file_offset: 0`) as fit: the most memory per byte.
    let mut bytes = vec![0xfc, 0xe8, 0x07];
    for _ in 0..1000 {
        bytes.extend_from_slice(&[0x26, 0x00, 0x00]);
    }
    let peak = peak_allocation(|| {
        let (chunks, _) = Vec::<ColumnChunk>::read_from(&bytes).unwrap();
        assert_eq!(chunks.len(), 1000);
    });
    assert!(
        peak <= bound(bytes.len()),
        "{peak} bytes for {}",
        bytes.len()
    );
}

proptest! {
    #[test]
    fn arbitrary_bytes_allocate_in_proportion(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let peak = worst_allocation(&bytes);
        prop_assert!(peak <= bound(bytes.len()), "{} bytes for {}", peak, bytes.len());
    }

    #[test]
    fn headers_claiming_many_elements_allocate_in_proportion(
        element in prop::sample::select(vec![0x1c_u8, 0x1c, 0x18, 0x15, 0x16, 0x19, 0x11]),
        size in 15u32..u32::MAX,
        body in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        // A footer: version, then a list of schema elements of the given element type
        // and size, then arbitrary bytes.
        let mut bytes = vec![0x15, 0x02, 0x19, 0xf0 | (element & 0x0f)];
        let mut size = size;
        while size >= 0x80 {
            bytes.push(u8::try_from(size & 0x7f).unwrap() | 0x80);
            size >>= 7;
        }
        bytes.push(u8::try_from(size).unwrap());
        bytes.extend_from_slice(&body);
        let peak = worst_allocation(&bytes);
        prop_assert!(peak <= bound(bytes.len()), "{} bytes for {}", peak, bytes.len());
    }
}
