//! The page index: [`ColumnIndex`] and [`OffsetIndex`].

use std::borrow::Cow;

use crate::enums::BoundaryOrder;
use crate::macros::thrift_struct;

thrift_struct! {
    /// Where a data page is and which rows it starts with.
    #[derive(Eq, Hash)]
    pub struct PageLocation {
        /// The offset of the page (its header) in the file.
        1: required offset: i64,
        /// The size of the page, header included.
        2: required compressed_page_size: i32,
        /// The index, within the row group, of the page's first row.
        3: required first_row_index: i64,
    }
}

thrift_struct! {
    /// The locations of the data pages of a column chunk.
    #[derive(Eq, Hash)]
    pub struct OffsetIndex {
        /// One entry per data page, by increasing offset.
        1: required page_locations: Vec<PageLocation>,
        /// For BYTE_ARRAY columns, the unencoded bytes of each page.
        2: optional unencoded_byte_array_data_bytes: Vec<i64>,
    }
}

thrift_struct! {
    /// Per-page statistics of a column chunk, in the order of its [`OffsetIndex`].
    #[derive(Eq, Hash)]
    pub struct ColumnIndex<'a> {
        /// Whether each page holds only nulls (its bounds are then empty).
        1: required null_pages: Vec<bool>,
        /// The lower bound of each page.
        2: required min_values: Vec<Cow<'a, [u8]>>,
        /// The upper bound of each page.
        3: required max_values: Vec<Cow<'a, [u8]>>,
        /// Whether the bounds are ordered.
        4: required boundary_order: BoundaryOrder,
        /// The number of nulls of each page.
        5: optional null_counts: Vec<i64>,
        /// The repetition level histograms of the pages, concatenated.
        6: optional repetition_level_histograms: Vec<i64>,
        /// The definition level histograms of the pages, concatenated.
        7: optional definition_level_histograms: Vec<i64>,
        /// For floating-point columns, the number of NaNs of each page.
        8: optional nan_counts: Vec<i64>,
    }
}
