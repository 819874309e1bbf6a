//! Limits that keep the memory and time of reading bounded when a file's counts and sizes
//! are larger than any real file needs: a file past one is an
//! [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) naming the limit.

/// The largest sizes and counts a reader accepts from a file.
///
/// Sizes in a file are claims: the reader never allocates from a size it has not checked
/// against the bytes that back it. These limits bound what real bytes can still cost: a
/// page that truly decompresses to gigabytes, a record of millions of values expressed as
/// one run of a few bytes, a footer of millions of columns.
///
/// ```
/// use parquet_file::{Limits, ReadOptions};
///
/// let limits = Limits::default().with_max_decompressed_page_size(64 << 20);
/// assert_eq!(limits.max_page_size(), 1 << 30);
/// let options = ReadOptions::new().with_limits(limits);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::struct_field_names)] // every limit is a maximum
pub struct Limits {
    max_footer_size: u64,
    max_schema_depth: usize,
    max_schema_elements: usize,
    max_page_size: usize,
    max_decompressed_page_size: usize,
    max_dictionary_size: usize,
    max_record_values: usize,
}

impl Default for Limits {
    /// - footer: 256 MiB;
    /// - schema: 64 levels of nesting, 1,000,000 elements;
    /// - page: 1 GiB as stored, 1 GiB decompressed;
    /// - dictionary page: 1 GiB decompressed;
    /// - record: 1,048,576 values (level entries: values and nulls) in one record of one
    ///   column.
    fn default() -> Self {
        Self {
            max_footer_size: 256 << 20,
            max_schema_depth: 64,
            max_schema_elements: 1_000_000,
            max_page_size: 1 << 30,
            max_decompressed_page_size: 1 << 30,
            max_dictionary_size: 1 << 30,
            max_record_values: 1 << 20,
        }
    }
}

impl Limits {
    parquet_core::limit_accessors!(
        /// The largest footer (`FileMetaData`, or crypto metadata and encrypted footer),
        /// in bytes.
        max_footer_size, with_max_footer_size: u64;
        /// The deepest nesting of the schema (the root's children are at depth 1).
        max_schema_depth, with_max_schema_depth: usize;
        /// The most schema elements (fields at every level, the root included).
        max_schema_elements, with_max_schema_elements: usize;
        /// The largest page as stored (compressed, encrypted), in bytes.
        max_page_size, with_max_page_size: usize;
        /// The largest data page once decompressed, in bytes.
        max_decompressed_page_size, with_max_decompressed_page_size: usize;
        /// The largest dictionary page once decompressed, in bytes.
        max_dictionary_size, with_max_dictionary_size: usize;
        /// The most values (level entries: values and nulls) in one record of one column.
        /// A record is never split between batches, so this bounds a batch of one record.
        max_record_values, with_max_record_values: usize
    );
}
