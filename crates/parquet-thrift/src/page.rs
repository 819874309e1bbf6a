//! Page headers.

use crate::enums::{Encoding, PageType};
use crate::macros::thrift_struct;
use crate::statistics::Statistics;

thrift_struct! {
    /// The header of a version 1 data page.
    #[derive(Eq, Hash)]
    pub struct DataPageHeader<'a> {
        /// The number of values, nulls included.
        1: required num_values: i32,
        /// The encoding of the values.
        2: required encoding: Encoding,
        /// The encoding of the definition levels.
        3: required definition_level_encoding: Encoding,
        /// The encoding of the repetition levels.
        4: required repetition_level_encoding: Encoding,
        /// Statistics of the page.
        5: optional statistics: Statistics<'a>,
    }
}

thrift_struct! {
    /// The header of an index page (no fields yet).
    pub struct IndexPageHeader {}
}

thrift_struct! {
    /// The header of a dictionary page, which comes first in its column chunk.
    #[derive(Eq, Hash)]
    pub struct DictionaryPageHeader {
        /// The number of entries.
        1: required num_values: i32,
        /// The encoding of the entries.
        2: required encoding: Encoding,
        /// Whether the entries are sorted in ascending order.
        3: optional is_sorted: bool,
    }
}

thrift_struct! {
    /// The header of a version 2 data page, whose levels are stored uncompressed ahead of
    /// the (possibly compressed) values.
    #[derive(Eq, Hash)]
    pub struct DataPageHeaderV2<'a> {
        /// The number of values, nulls included.
        1: required num_values: i32,
        /// The number of nulls.
        2: required num_nulls: i32,
        /// The number of rows; pages begin at row boundaries.
        3: required num_rows: i32,
        /// The encoding of the values.
        4: required encoding: Encoding,
        /// The length of the definition levels (RLE hybrid without length prefix).
        5: required definition_levels_byte_length: i32,
        /// The length of the repetition levels (RLE hybrid without length prefix).
        6: required repetition_levels_byte_length: i32,
        /// Whether the values section is compressed; true when absent.
        7: optional is_compressed: bool,
        /// Statistics of the page.
        8: optional statistics: Statistics<'a>,
    }
}

thrift_struct! {
    /// The header in front of every page.
    #[derive(Eq, Hash)]
    pub struct PageHeader<'a> {
        /// The kind of page, which says which of the headers below is set.
        1: required type_: PageType,
        /// The size of the page after this header, uncompressed.
        2: required uncompressed_page_size: i32,
        /// The size of the page after this header, as stored (compressed, and encrypted if
        /// it is).
        3: required compressed_page_size: i32,
        /// The CRC-32 of the page as stored, this header excluded.
        4: optional crc: i32,
        /// For a version 1 data page.
        5: optional data_page_header: DataPageHeader<'a>,
        /// For an index page.
        6: optional index_page_header: IndexPageHeader,
        /// For a dictionary page.
        7: optional dictionary_page_header: DictionaryPageHeader,
        /// For a version 2 data page.
        8: optional data_page_header_v2: DataPageHeaderV2<'a>,
    }
}
