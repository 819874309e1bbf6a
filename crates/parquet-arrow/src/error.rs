//! The error type of the Arrow bridge.

use arrow_schema::ArrowError;

/// What went wrong between a file and Arrow.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The Parquet file could not be read or written.
    #[error(transparent)]
    Parquet(#[from] parquet_file::Error),
    /// The ORC file could not be read or written.
    #[error(transparent)]
    Orc(#[from] orc_file::Error),
    /// An Arrow array or schema could not be built or read.
    #[error(transparent)]
    Arrow(#[from] ArrowError),
    /// A file's type that has no Arrow type, or an Arrow type that the file cannot hold.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Values the file claims that do not fit together (levels that do not line up,
    /// text that is not UTF-8, offsets past 2 GiB in a 32-bit array).
    #[error("invalid data: {0}")]
    Invalid(String),
    /// An argument of the caller that cannot be used (a column that is not there).
    #[error("invalid argument: {0}")]
    Argument(String),
}

/// The result type of the Arrow bridge.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<Error> for ArrowError {
    fn from(error: Error) -> Self {
        match error {
            Error::Arrow(e) => e,
            other => ArrowError::ExternalError(Box::new(other)),
        }
    }
}

pub(crate) fn invalid(what: impl Into<String>) -> Error {
    Error::Invalid(what.into())
}

pub(crate) fn unsupported(what: impl Into<String>) -> Error {
    Error::Unsupported(what.into())
}
