//! The error type of the file reader: what went wrong, and where in the file.

use std::fmt;
use std::io;

/// Where in a file an error happened: as much of row group, column and page as applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The row group's ordinal.
    pub row_group: Option<usize>,
    /// The column's dotted path.
    pub column: Option<String>,
    /// The file offset of the page (or other structure) being read.
    pub offset: Option<u64>,
}

impl Location {
    fn is_empty(&self) -> bool {
        self.row_group.is_none() && self.column.is_none() && self.offset.is_none()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(row_group) = self.row_group {
            write!(f, "row group {row_group}")?;
            sep = ", ";
        }
        if let Some(column) = &self.column {
            write!(f, "{sep}column {column}")?;
            sep = ", ";
        }
        if let Some(offset) = self.offset {
            write!(f, "{sep}offset {offset}")?;
        }
        Ok(())
    }
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading from the source failed.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
    /// Bytes that do not decode: a truncated or malformed structure or encoding.
    #[error(transparent)]
    Decode(#[from] parquet_core::Error),
    /// A page that does not decompress.
    #[error(transparent)]
    Decompress(#[from] parquet_compress::Error),
    /// A module that does not decrypt or authenticate, or a key that cannot be found.
    #[error(transparent)]
    Crypto(#[from] parquet_crypto::Error),
    /// A file whose structure breaks the format's rules: bad magic, a schema whose child
    /// counts do not add up, a page that does not fit its chunk, counts that disagree.
    #[error("{0}")]
    Invalid(String),
    /// A page whose CRC32 does not match its bytes.
    #[error("page checksum mismatch: header says {expected:#010x}, page has {actual:#010x}")]
    Checksum {
        /// The CRC in the page header.
        expected: u32,
        /// The CRC of the page bytes.
        actual: u32,
    },
    /// Something the format allows that this reader does not implement, or a codec whose
    /// cargo feature is off.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A caller's request that does not fit the file: an unknown column path, a row group
    /// that does not exist.
    #[error("{0}")]
    Argument(String),
}

/// An error while reading a Parquet file: an [`ErrorKind`] and the [`Location`] it
/// happened at.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    location: Box<Location>,
}

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Where it went wrong.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// An [`ErrorKind::Invalid`] error.
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        ErrorKind::Invalid(message.into()).into()
    }

    /// An [`ErrorKind::Unsupported`] error.
    pub(crate) fn unsupported(message: impl Into<String>) -> Self {
        ErrorKind::Unsupported(message.into()).into()
    }

    /// An [`ErrorKind::Argument`] error.
    pub(crate) fn argument(message: impl Into<String>) -> Self {
        ErrorKind::Argument(message.into()).into()
    }

    /// Fills in the row group, unless already known.
    #[must_use]
    pub(crate) fn in_row_group(mut self, row_group: usize) -> Self {
        self.location.row_group.get_or_insert(row_group);
        self
    }

    /// Fills in the column, unless already known.
    #[must_use]
    pub(crate) fn in_column(mut self, column: &str) -> Self {
        if self.location.column.is_none() {
            self.location.column = Some(column.to_owned());
        }
        self
    }

    /// Fills in the offset, unless already known.
    #[must_use]
    pub(crate) fn at_offset(mut self, offset: u64) -> Self {
        self.location.offset.get_or_insert(offset);
        self
    }
}

impl<E: Into<ErrorKind>> From<E> for Error {
    fn from(kind: E) -> Self {
        Self {
            kind: kind.into(),
            location: Box::default(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.location, self.kind)
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

/// Adds location context to a `Result`'s error.
pub(crate) trait Context<T> {
    fn in_row_group(self, row_group: usize) -> Result<T>;
    fn in_column(self, column: &str) -> Result<T>;
    fn at_offset(self, offset: u64) -> Result<T>;
}

impl<T, E: Into<Error>> Context<T> for Result<T, E> {
    fn in_row_group(self, row_group: usize) -> Result<T> {
        self.map_err(|e| e.into().in_row_group(row_group))
    }
    fn in_column(self, column: &str) -> Result<T> {
        self.map_err(|e| e.into().in_column(column))
    }
    fn at_offset(self, offset: u64) -> Result<T> {
        self.map_err(|e| e.into().at_offset(offset))
    }
}
