//! The footer: [`FileMetaData`], its row groups, column chunks and column orders.

use std::borrow::Cow;

use crate::crypto::{ColumnCryptoMetaData, EncryptionAlgorithm};
use crate::enums::{CompressionCodec, Encoding, PageType, Type};
use crate::macros::{thrift_struct, thrift_union};
use crate::schema::SchemaElement;
use crate::small_list::SmallList;
use crate::statistics::{GeospatialStatistics, SizeStatistics, Statistics};

thrift_struct! {
    /// A key and an optional value of application metadata.
    #[derive(Eq, Hash)]
    pub struct KeyValue<'a> {
        /// The key.
        1: required key: Cow<'a, str>,
        /// The value.
        2: optional value: Cow<'a, str>,
    }
}

thrift_struct! {
    /// A column that the rows of a row group are sorted by.
    #[derive(Eq, Hash)]
    pub struct SortingColumn {
        /// The index of the column in the row group.
        1: required column_idx: i32,
        /// Whether the order is descending.
        2: required descending: bool,
        /// Whether nulls come first.
        3: required nulls_first: bool,
    }
}

thrift_struct! {
    /// How many pages of a column chunk have a given type and encoding.
    #[derive(Eq, Hash)]
    pub struct PageEncodingStats {
        /// The page type.
        1: required page_type: PageType,
        /// The encoding of the pages.
        2: required encoding: Encoding,
        /// The number of such pages.
        3: required count: i32,
    }
}

thrift_struct! {
    /// The metadata of a column chunk.
    pub struct ColumnMetaData<'a> {
        /// The physical type.
        1: required type_: Type,
        /// Every encoding used in the chunk.
        2: required encodings: SmallList<Encoding, 4>,
        /// The column's path in the schema.
        3: required path_in_schema: SmallList<Cow<'a, str>, 1>,
        /// The compression codec of the pages.
        4: required codec: CompressionCodec,
        /// The number of values, nulls included.
        5: required num_values: i64,
        /// The size of all pages uncompressed, headers included.
        6: required total_uncompressed_size: i64,
        /// The size of all pages as stored, headers included.
        7: required total_compressed_size: i64,
        /// Application metadata.
        8: optional key_value_metadata: Vec<KeyValue<'a>>,
        /// The offset of the first data page.
        9: required data_page_offset: i64,
        /// The offset of the root index page.
        10: optional index_page_offset: i64,
        /// The offset of the dictionary page.
        11: optional dictionary_page_offset: i64,
        /// Statistics of the chunk.
        12: optional statistics: Statistics<'a>,
        /// How many pages have each type and encoding.
        13: optional encoding_stats: SmallList<PageEncodingStats, 3>,
        /// The offset of the Bloom filter.
        14: optional bloom_filter_offset: i64,
        /// The size of the Bloom filter, header included.
        15: optional bloom_filter_length: i32,
        /// Size statistics of the chunk.
        16: optional size_statistics: Box<SizeStatistics>,
        /// Geospatial statistics of the chunk.
        17: optional geospatial_statistics: Box<GeospatialStatistics>,
    }
}

thrift_struct! {
    /// A column chunk: where its metadata is, and that metadata.
    pub struct ColumnChunk<'a> {
        /// The file that holds the chunk, when not this one (summary files only).
        1: optional file_path: Cow<'a, str>,
        /// Deprecated; writers set 0.
        2: required file_offset: i64,
        /// The chunk's metadata (required in practice).
        3: optional meta_data: ColumnMetaData<'a>,
        /// The offset of the chunk's offset index.
        4: optional offset_index_offset: i64,
        /// The size of the chunk's offset index.
        5: optional offset_index_length: i32,
        /// The offset of the chunk's column index.
        6: optional column_index_offset: i64,
        /// The size of the chunk's column index.
        7: optional column_index_length: i32,
        /// How the chunk is encrypted.
        8: optional crypto_metadata: Box<ColumnCryptoMetaData<'a>>,
        /// The chunk's metadata, encrypted with the column key.
        9: optional encrypted_column_metadata: Cow<'a, [u8]>,
    }
}

thrift_struct! {
    /// A row group: one column chunk per leaf column.
    pub struct RowGroup<'a> {
        /// The column chunks, in schema order.
        1: required columns: Vec<ColumnChunk<'a>>,
        /// The size of the column data uncompressed.
        2: required total_byte_size: i64,
        /// The number of rows.
        3: required num_rows: i64,
        /// The columns the rows are sorted by.
        4: optional sorting_columns: Vec<SortingColumn>,
        /// The offset of the first page.
        5: optional file_offset: i64,
        /// The size of the column data as stored.
        6: optional total_compressed_size: i64,
        /// The ordinal of the row group in the file.
        7: optional ordinal: i16,
    }
}

thrift_struct! {
    /// The order defined by the physical or logical type.
    pub struct TypeDefinedOrder {}
}

thrift_struct! {
    /// The IEEE 754 totalOrder of floating-point values.
    pub struct Ieee754TotalOrder {}
}

thrift_struct! {
    /// The chronological order of INT96 timestamps.
    pub struct Int96TimestampOrder {}
}

thrift_union! {
    /// The order of the `min_value` and `max_value` statistics and of the column index
    /// bounds of a column.
    #[derive(Eq, Hash)]
    pub enum ColumnOrder {
        /// The order of the logical type, or of the physical type without one.
        1: TYPE_ORDER => TypeOrder(TypeDefinedOrder),
        /// IEEE 754 totalOrder.
        2: IEEE_754_TOTAL_ORDER => Ieee754TotalOrder(Ieee754TotalOrder),
        /// Chronological order of INT96 timestamps.
        3: INT96_TIMESTAMP_ORDER => Int96TimestampOrder(Int96TimestampOrder),
    }
}

thrift_struct! {
    /// The file metadata in the footer.
    pub struct FileMetaData<'a> {
        /// The format version (1; readers take 2 alike).
        1: required version: i32,
        /// The schema tree, flattened depth first; the first element is the root.
        2: required schema: Vec<SchemaElement<'a>>,
        /// The number of rows.
        3: required num_rows: i64,
        /// The row groups.
        4: required row_groups: Vec<RowGroup<'a>>,
        /// Application metadata.
        5: optional key_value_metadata: Vec<KeyValue<'a>>,
        /// The application that wrote the file (`<name> version <version> (build <hash>)`).
        6: optional created_by: Cow<'a, str>,
        /// The order of each leaf column's statistics, in schema order.
        7: optional column_orders: Vec<ColumnOrder>,
        /// For encrypted files with a plaintext footer, the encryption algorithm.
        8: optional encryption_algorithm: EncryptionAlgorithm<'a>,
        /// For encrypted files with a plaintext footer, what the key retriever needs to
        /// find the footer signing key.
        9: optional footer_signing_key_metadata: Cow<'a, [u8]>,
    }
}
