//! The Thrift compact protocol and every structure of `parquet.thrift`: file metadata
//! (the footer), page headers, the page index, Bloom filter headers and encryption
//! metadata (parquet-format.txt, "Metadata"; the field list is
//! `spec/parquet-thrift-fields.txt`).
//!
//! - [`compact`]: the protocol itself, a zero-copy [`compact::Reader`] over a byte slice
//!   (with nesting and size limits, and skipping of any value it does not know) and a
//!   [`compact::Writer`] that appends to a `Vec<u8>`;
//! - one Rust type per Thrift enum, struct and union, each generated from one field list
//!   (by the crate's `thrift_enum!`, `thrift_struct!` and `thrift_union!` macros) with its
//!   reader and its writer: [`ReadThrift`] and [`WriteThrift`] for every type, and
//!   inherent `read_from`, `write_to` and `into_owned` on every struct and union. Names
//!   are Rust's: `FileMetaData::num_rows`, `SchemaElement::type_` for `type`,
//!   `TimestampType::is_adjusted_to_utc` for `isAdjustedToUTC`.
//!
//! ```
//! use std::borrow::Cow;
//! use parquet_thrift::{DataPageHeader, Encoding, PageHeader, PageType, Statistics};
//!
//! let header = PageHeader {
//!     type_: PageType::DATA_PAGE,
//!     uncompressed_page_size: 1024,
//!     compressed_page_size: 512,
//!     crc: Some(0x1234_5678),
//!     data_page_header: Some(DataPageHeader {
//!         num_values: 100,
//!         encoding: Encoding::RLE_DICTIONARY,
//!         definition_level_encoding: Encoding::RLE,
//!         repetition_level_encoding: Encoding::RLE,
//!         statistics: Some(Statistics {
//!             null_count: Some(3),
//!             min_value: Some(Cow::Borrowed(b"apple")),
//!             max_value: Some(Cow::Borrowed(b"pear")),
//!             ..Statistics::default()
//!         }),
//!     }),
//!     ..PageHeader::default()
//! };
//! let mut bytes = Vec::new();
//! header.write_to(&mut bytes)?;
//! bytes.extend_from_slice(b"...the page itself...");
//!
//! // Reading returns the header and its length; binary fields borrow from `bytes`.
//! let (read, len) = PageHeader::read_from(&bytes)?;
//! assert_eq!(read, header);
//! assert_eq!(&bytes[len..], b"...the page itself...");
//! let statistics = read.data_page_header.as_ref().and_then(|h| h.statistics.as_ref());
//! assert!(matches!(statistics.unwrap().min_value, Some(Cow::Borrowed(b"apple"))));
//! // `into_owned` copies what is borrowed, for a header that outlives its input.
//! let owned: PageHeader<'static> = read.into_owned();
//! assert_eq!(owned, header);
//!
//! // Truncated input is an error that says what was being read and where.
//! let error = PageHeader::read_from(&bytes[..len - 3]).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "truncated Statistics field header at offset 40: need 1 bytes, 0 available",
//! );
//! # Ok::<(), parquet_thrift::Error>(())
//! ```
//!
//! # Forward compatibility
//!
//! - Fields with ids this crate does not know are skipped, whatever they hold. So are
//!   fields whose type is not the declared one, as Thrift's own readers do (a writer
//!   found in the wild reuses `ColumnMetaData` field 15 for a list).
//! - Thrift enums are `i32` newtypes whose known values are associated constants named
//!   as in `parquet.thrift` (`Encoding::RLE_DICTIONARY`, `PageType::DATA_PAGE`), usable
//!   as patterns. A value this crate does not know (a new [`Encoding`],
//!   [`CompressionCodec`], [`PageType`] …) is simply kept, `Encoding(11)`, and written
//!   back unchanged; its `name()` is `None`.
//! - A union member this crate does not know (a new [`LogicalType`], [`ColumnOrder`],
//!   [`EncryptionAlgorithm`] …) is kept as the union's `Unrecognized` variant, an
//!   [`UnrecognizedMember`] that holds its field id, its type and its encoded bytes, and
//!   is written back unchanged. (The variant is not called `Unknown` because
//!   `LogicalType::Unknown` is Parquet's own name for the all-null annotation.)
//!
//! # Borrowing, defaults and lists
//!
//! Binary fields are `Cow<'a, [u8]>` and strings `Cow<'a, str>`: borrowed from the input
//! when read (strings are checked to be UTF-8; invalid UTF-8 is an error), owned or
//! borrowed as the caller likes when written. `into_owned` turns any structure into its
//! `'static` form.
//!
//! Every struct implements `Default` (enums are 0, a union holds its first member with
//! its default), which is handy with `..Default::default()` and lets the readers decode
//! structs where they will stay ([`ReadThrift::read_in_place`]); a required field that
//! the input lacks is still an error.
//!
//! Lists are `Vec`s, except the short ones that every column chunk carries (its
//! encodings, path, page encoding stats and level histograms): those are [`SmallList`]s,
//! which keep a few elements inline and dereference to slices.
//!
//! # Errors, panics and allocation
//!
//! Reading returns [`Error`] (the error type shared by the parquet-kit codec crates) for
//! any input it cannot decode, with offsets relative to the start of the input:
//! [`Error::Truncated`] when the input ends early, [`Error::Invalid`] for a malformed
//! value (an overlong varint, an unknown type code, invalid UTF-8, list elements of
//! another type than declared), a union without exactly one member, or a struct without
//! one of its required fields (the error names the struct and the field; its value is
//! the field id), and [`Error::LimitExceeded`] for structs, lists and maps nested deeper
//! than the reader's limit (64 by default). No input makes a reader panic or loop
//! without end.
//!
//! A list's declared size is checked against the bytes left, counting the fewest bytes
//! an element can take (for a struct, its stop byte and its required fields), before
//! anything is allocated; and no list reserves more than 16 MiB on its header's word.
//! Memory is thus bounded by the input's length: at most about 170 bytes per input byte
//! (for a list of three-byte column chunks), which a valid input of that length can ask
//! for anyway.
//!
//! Writing appends to a caller's `Vec<u8>` and returns [`Error::LimitExceeded`] only for
//! a binary, string or list longer than `i32::MAX`, which Thrift cannot hold; `write_to`
//! then leaves the output as it was.
//!
//! # Speed
//!
//! Decoding a footer allocates nothing per column chunk (strings and binaries are
//! borrowed, short lists inline) and moves no struct after decoding it: list elements
//! and nested structs are decoded in place. Fields that come in declaration order with
//! short headers, as writers emit them, are each recognised by one comparison of their
//! header byte; anything else goes through the general loop. Varints are decoded a word
//! at a time. On a footer of 1,000 columns × 10 row groups with statistics
//! (`benches/footer.rs`), decoding takes about 0.65 to 0.8 of the time that arrow-rs'
//! `parquet` 60.1 takes for the same bytes, and 0.7 of its instructions.
//!
//! # Features
//!
//! None. `#![forbid(unsafe_code)]`.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

pub mod compact;
mod macros;

mod bloom;
mod crypto;
mod enums;
mod metadata;
mod page;
mod page_index;
mod schema;
mod small_list;
mod statistics;
mod unrecognized;
mod value;

pub use parquet_core::{Error, Result};

pub use bloom::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
    SplitBlockAlgorithm, Uncompressed, XxHash,
};
pub use crypto::{
    AesGcmCtrV1, AesGcmV1, ColumnCryptoMetaData, EncryptionAlgorithm, EncryptionWithColumnKey,
    EncryptionWithFooterKey, FileCryptoMetaData,
};
pub use enums::{
    BoundaryOrder, CompressionCodec, ConvertedType, EdgeInterpolationAlgorithm, Encoding,
    FieldRepetitionType, PageType, Type,
};
pub use metadata::{
    ColumnChunk, ColumnMetaData, ColumnOrder, FileMetaData, Ieee754TotalOrder, Int96TimestampOrder,
    KeyValue, PageEncodingStats, RowGroup, SortingColumn, TypeDefinedOrder,
};
pub use page::{
    DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, IndexPageHeader, PageHeader,
};
pub use page_index::{ColumnIndex, OffsetIndex, PageLocation};
pub use schema::{
    BsonType, DateType, DecimalType, EnumType, FileType, Float16Type, GeographyType, GeometryType,
    IntType, JsonType, ListType, LogicalType, MapType, MicroSeconds, MilliSeconds, NanoSeconds,
    NullType, SchemaElement, StringType, TimeType, TimeUnit, TimestampType, UuidType, VariantType,
};
pub use small_list::SmallList;
pub use statistics::{BoundingBox, GeospatialStatistics, SizeStatistics, Statistics};
pub use unrecognized::UnrecognizedMember;
pub use value::{IntoOwned, ReadThrift, ThriftType, WriteThrift};

#[cfg(test)]
mod tests;
