//! The error type shared by every parquet-kit codec crate.

/// What went wrong while decoding (or, rarely, encoding) Parquet data.
///
/// Errors allocate nothing: `what` names the structure being read, offsets are
/// byte positions relative to the start of the input handed to the decoder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input ended before a structure was complete.
    #[error("truncated {what} at offset {offset}: need {needed} bytes, {available} available")]
    Truncated {
        /// The structure that was being read.
        what: &'static str,
        /// Where it starts in the input.
        offset: usize,
        /// Bytes the structure needs.
        needed: usize,
        /// Bytes left in the input.
        available: usize,
    },
    /// A field holds a value the format does not allow.
    #[error("invalid {what} at offset {offset}: {value}")]
    Invalid {
        /// The field that was being read.
        what: &'static str,
        /// Where it starts in the input.
        offset: usize,
        /// The offending value (for wide or signed values, its bit pattern truncated to 64 bits).
        value: u64,
    },
    /// An index, such as a dictionary index, is outside the range it refers to.
    #[error("{what} {value} out of range: must be below {bound}")]
    OutOfRange {
        /// What the index refers to.
        what: &'static str,
        /// The index found.
        value: u64,
        /// The exclusive upper bound.
        bound: u64,
    },
    /// A count or size is larger than a limit that protects memory or time.
    #[error("{what} exceeds limit: {requested} > {limit}")]
    LimitExceeded {
        /// The count or size.
        what: &'static str,
        /// What the input or caller asked for.
        requested: u64,
        /// The largest value accepted.
        limit: u64,
    },
    /// Valid data that this build does not handle.
    #[error("unsupported {what}")]
    Unsupported {
        /// The feature that is not supported.
        what: &'static str,
    },
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

impl Error {
    /// Shorthand for [`Error::Truncated`].
    pub const fn truncated(
        what: &'static str,
        offset: usize,
        needed: usize,
        available: usize,
    ) -> Self {
        Self::Truncated {
            what,
            offset,
            needed,
            available,
        }
    }

    /// Shorthand for [`Error::Invalid`].
    pub const fn invalid(what: &'static str, offset: usize, value: u64) -> Self {
        Self::Invalid {
            what,
            offset,
            value,
        }
    }

    /// Returns the same error with its offset moved by `base` bytes, for a decoder
    /// that hands a sub-slice to another and reports positions in its own input.
    #[must_use]
    pub const fn shifted(self, base: usize) -> Self {
        match self {
            Self::Truncated {
                what,
                offset,
                needed,
                available,
            } => Self::Truncated {
                what,
                offset: offset.saturating_add(base),
                needed,
                available,
            },
            Self::Invalid {
                what,
                offset,
                value,
            } => Self::Invalid {
                what,
                offset: offset.saturating_add(base),
                value,
            },
            other => other,
        }
    }
}
