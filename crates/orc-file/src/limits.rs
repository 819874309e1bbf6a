//! Limits that keep the memory and time of reading bounded when a file's counts and sizes
//! are larger than any real file needs: a file past one is an
//! [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) naming the limit.

/// The largest sizes and counts a reader accepts from a file, named as
/// `parquet_file::Limits` names the limits that mean the same.
///
/// Sizes in a file are claims: the reader never allocates from a size it has not checked
/// against the bytes that back it. These limits bound what real bytes can still cost: a
/// compression block that truly inflates to a gigabyte, a list of millions of elements
/// expressed as one run of a few bytes, a dictionary entry of megabytes that every row
/// repeats, a footer of millions of stripes.
///
/// ```
/// use orc_file::{Limits, ReadOptions};
///
/// let limits = Limits::default().with_max_batch_bytes(16 << 20);
/// assert_eq!(limits.max_block_size(), 64 << 20);
/// let options = ReadOptions::default().with_limits(limits);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::struct_field_names)] // every limit is a maximum
pub struct Limits {
    max_footer_size: u64,
    max_block_size: u64,
    max_stripes: usize,
    max_batch_bytes: usize,
    max_batch_values: usize,
    max_record_values: usize,
}

impl Default for Limits {
    /// - footer, metadata section and each stripe footer: 256 MiB, stored and
    ///   decompressed;
    /// - compression block: 64 MiB (Apache ORC's writers use 64 KiB and 256 KiB);
    /// - stripes: 1,000,000;
    /// - one column's batch: 64 MiB of strings and binaries (batches are cut short to
    ///   stay within it), 16,777,216 values under its lists and maps;
    /// - one row of one column: 1,048,576 values under its lists and maps.
    fn default() -> Self {
        Self {
            max_footer_size: 256 << 20,
            max_block_size: 64 << 20,
            max_stripes: 1_000_000,
            max_batch_bytes: 64 << 20,
            max_batch_values: 1 << 24,
            max_record_values: 1 << 20,
        }
    }
}

impl Limits {
    parquet_core::limit_accessors!(
        /// The largest footer, metadata section or stripe footer, in bytes, as stored
        /// and once decompressed.
        max_footer_size, with_max_footer_size: u64;
        /// The largest compression block size a postscript may give, in bytes: the most
        /// one compression chunk inflates to.
        max_block_size, with_max_block_size: u64;
        /// The most stripes a footer may list.
        max_stripes, with_max_stripes: usize;
        /// The most bytes of strings or binaries one column's batch may hold: a batch of
        /// a top-level column ends early rather than pass it (a row whose value alone
        /// passes it is a batch of its own, costing its size once); values under a list
        /// or map that would pass it are [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded).
        max_batch_bytes, with_max_batch_bytes: usize;
        /// The most values under the lists and maps of one column's batch, at each level
        /// of nesting.
        max_batch_values, with_max_batch_values: usize;
        /// The most values under one list or map of one row: the elements, or the
        /// entries, of one slot.
        max_record_values, with_max_record_values: usize
    );
}
