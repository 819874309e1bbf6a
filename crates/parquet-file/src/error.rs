//! The error type of the file crate: what went wrong ([`ErrorKind`]), and where in the
//! file ([`Location`]).

use std::fmt;
use std::io;

use crate::path::ColumnPath;

/// Where in a file an error happened: as much of row group, column and file offset as
/// applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The row group's ordinal.
    pub row_group: Option<usize>,
    /// The column's path.
    pub column: Option<ColumnPath>,
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
///
/// The variants say what was read (`what`) and the values that broke a rule; the
/// [`Location`] of the [`Error`] says where. Errors of the codec, compression and
/// cryptography crates are kept whole as the [source](std::error::Error::source).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading from the source failed.
    #[error("I/O error: {source}")]
    Io {
        /// The source's error.
        #[source]
        source: io::Error,
    },
    /// Bytes that do not decode: a truncated or malformed Thrift structure or encoding.
    #[error("{what}: {source}")]
    Decode {
        /// What was being decoded.
        what: &'static str,
        /// The decoder's error.
        #[source]
        source: parquet_core::Error,
    },
    /// A page that does not decompress.
    #[error("page does not decompress: {source}")]
    Decompress {
        /// The codec's error.
        #[source]
        source: parquet_compress::Error,
    },
    /// A module that does not decrypt or authenticate, or a key that cannot be found.
    #[error("{what}: {source}")]
    Crypto {
        /// The module or key.
        what: &'static str,
        /// The cryptography crate's error.
        #[source]
        source: parquet_crypto::Error,
    },
    /// A page whose CRC32 does not match its bytes as stored.
    #[error("page checksum mismatch: header says {expected:#010x}, page has {actual:#010x}")]
    Checksum {
        /// The CRC in the page header.
        expected: u32,
        /// The CRC of the page bytes.
        actual: u32,
    },
    /// Not a Parquet file: no `PAR1` or `PARE` magic where the format puts it.
    #[error("not a Parquet file: {what} are \"{}\"", found.escape_ascii())]
    NotParquet {
        /// What was looked at.
        what: &'static str,
        /// The bytes found there.
        found: [u8; 4],
    },
    /// A count, size or offset in the file outside what the format allows (a negative
    /// size, an unknown repetition type).
    #[error("invalid {what}: {value}")]
    Invalid {
        /// The field.
        what: &'static str,
        /// Its value.
        value: i64,
    },
    /// A structure that does not fit in what holds it: a page past its column chunk, a
    /// chunk past the file's data.
    #[error("{what} of {len} bytes at {start} is not inside {within} ({end} bytes)")]
    OutOfBounds {
        /// The structure.
        what: &'static str,
        /// Where it starts, relative to what holds it.
        start: u64,
        /// Its length.
        len: u64,
        /// What holds it.
        within: &'static str,
        /// The length of what holds it (or its end offset).
        end: u64,
    },
    /// Two things that must agree do not: counts of values, rows or pages.
    #[error("{what}: expected {expected}, found {found}")]
    Mismatch {
        /// What disagrees.
        what: &'static str,
        /// The count that the other things say.
        expected: u64,
        /// The count found.
        found: u64,
    },
    /// A rule of the format broken in a way no single value shows: a dictionary page
    /// after a data page, a data page without a header.
    #[error("{what}")]
    Malformed {
        /// The rule broken.
        what: &'static str,
    },
    /// A schema element that breaks a rule of the format.
    #[error("schema element {element} ({name:?}): {what}")]
    Schema {
        /// The element's position in the footer's list.
        element: usize,
        /// Its name.
        name: String,
        /// The rule broken.
        what: &'static str,
    },
    /// A count or size past a limit of the [`Limits`](crate::Limits) the file was read
    /// with.
    #[error("{limit} exceeded: {value} > {max}")]
    LimitExceeded {
        /// The limit.
        limit: &'static str,
        /// The count or size found.
        value: u64,
        /// The largest accepted.
        max: u64,
    },
    /// Something the format allows that this reader does not implement: an encoding for
    /// a type, a Bloom filter algorithm, a codec whose cargo feature is off.
    #[error("unsupported {what}{}", value.map_or_else(String::new, |v| format!(" {v}")))]
    Unsupported {
        /// The feature.
        what: &'static str,
        /// Its number in the file, when it has one.
        value: Option<i64>,
    },
    /// A key the reader needs but was not given (the footer key, a column's key).
    #[error("encrypted with a key the reader was not given: {what}")]
    MissingKey {
        /// Which key.
        what: &'static str,
    },
    /// A row group that the file does not have.
    #[error("row group {index} does not exist: the file has {count}")]
    NoSuchRowGroup {
        /// The row group asked for.
        index: usize,
        /// The number of row groups.
        count: usize,
    },
    /// A leaf column that the schema does not have.
    #[error("column {index} does not exist: the schema has {count} leaf columns")]
    NoSuchColumn {
        /// The column asked for.
        index: usize,
        /// The number of leaf columns.
        count: usize,
    },
    /// A path that names no field of the schema.
    #[error("no field {path} in the schema")]
    UnknownPath {
        /// The path asked for.
        path: ColumnPath,
    },
    /// A value of a column's physical type that its logical type does not allow (a
    /// STRING that is not UTF-8, a TIME outside the day).
    #[error("{what}")]
    InvalidValue {
        /// What is wrong with it.
        what: &'static str,
    },
    /// Input a writer cannot write as given: a batch whose values and levels disagree,
    /// a level past the column's maximum, levels that contradict the schema, a value
    /// that does not fit the column's type, a record without a required field.
    #[error("cannot write: {what}")]
    InvalidInput {
        /// What is wrong with it.
        what: String,
    },
    /// A writer that was finished, or that an earlier error left unable to go on (an
    /// error of its sink, a failed row group): it writes nothing more, footer included.
    #[error("the writer is {}", if *failed { "stopped by an earlier error" } else { "finished" })]
    WriterClosed {
        /// Whether an error stopped it (rather than [`finish`](crate::FileWriter::finish)).
        failed: bool,
    },
    /// A page that does not compress (a codec whose cargo feature is off, a level the
    /// codec does not have).
    #[error("page does not compress: {source}")]
    Compress {
        /// The codec's error.
        #[source]
        source: parquet_compress::Error,
    },
    /// Schema text in the message-type syntax that does not parse
    /// ([`Schema::parse`](crate::Schema::parse)).
    #[error("schema text, line {line}, column {column}: expected {expected}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// The column, in characters from 1.
        column: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// A file to [`recover`](crate::recover()) with neither a footer nor a checkpoint
    /// that reads, and no schema given to scan its pages by.
    #[error(
        "neither a footer nor a checkpoint reads: the schema the file was written with is needed"
    )]
    SchemaNeeded,
}

impl ErrorKind {
    /// Whether the error is the caller's (a row group, column or path that does not exist,
    /// a key not given, input a writer refuses) rather than the file's.
    pub fn is_argument(&self) -> bool {
        matches!(
            self,
            Self::NoSuchRowGroup { .. }
                | Self::NoSuchColumn { .. }
                | Self::UnknownPath { .. }
                | Self::MissingKey { .. }
                | Self::Syntax { .. }
                | Self::SchemaNeeded
                | Self::InvalidInput { .. }
                | Self::WriterClosed { .. }
        )
    }
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

    /// An [`ErrorKind::Decode`] error.
    pub(crate) fn decode(what: &'static str, source: parquet_core::Error) -> Self {
        ErrorKind::Decode { what, source }.into()
    }

    /// An [`ErrorKind::Invalid`] error.
    pub(crate) fn invalid(what: &'static str, value: i64) -> Self {
        ErrorKind::Invalid { what, value }.into()
    }

    /// An [`ErrorKind::Malformed`] error.
    pub(crate) fn malformed(what: &'static str) -> Self {
        ErrorKind::Malformed { what }.into()
    }

    /// An [`ErrorKind::Mismatch`] error.
    pub(crate) fn mismatch(what: &'static str, expected: u64, found: u64) -> Self {
        ErrorKind::Mismatch {
            what,
            expected,
            found,
        }
        .into()
    }

    /// An [`ErrorKind::Unsupported`] error.
    pub(crate) fn unsupported(what: &'static str, value: Option<i64>) -> Self {
        ErrorKind::Unsupported { what, value }.into()
    }

    /// An [`ErrorKind::InvalidInput`] error.
    pub(crate) fn input(what: impl Into<String>) -> Self {
        ErrorKind::InvalidInput { what: what.into() }.into()
    }

    /// An [`ErrorKind::LimitExceeded`] error.
    pub(crate) fn limit(limit: &'static str, value: u64, max: u64) -> Self {
        ErrorKind::LimitExceeded { limit, value, max }.into()
    }

    /// Fills in the row group, unless already known.
    #[must_use]
    pub(crate) fn in_row_group(mut self, row_group: usize) -> Self {
        self.location.row_group.get_or_insert(row_group);
        self
    }

    /// Fills in the column, unless already known.
    #[must_use]
    pub(crate) fn in_column(mut self, column: &ColumnPath) -> Self {
        if self.location.column.is_none() {
            self.location.column = Some(column.clone());
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

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Self {
            kind,
            location: Box::default(),
        }
    }
}

impl From<io::Error> for Error {
    fn from(source: io::Error) -> Self {
        ErrorKind::Io { source }.into()
    }
}

impl From<parquet_compress::Error> for Error {
    fn from(source: parquet_compress::Error) -> Self {
        ErrorKind::Decompress { source }.into()
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
    fn in_column(self, column: &ColumnPath) -> Result<T>;
    fn at_offset(self, offset: u64) -> Result<T>;
}

impl<T> Context<T> for Result<T> {
    fn in_row_group(self, row_group: usize) -> Result<T> {
        self.map_err(|e| e.in_row_group(row_group))
    }
    fn in_column(self, column: &ColumnPath) -> Result<T> {
        self.map_err(|e| e.in_column(column))
    }
    fn at_offset(self, offset: u64) -> Result<T> {
        self.map_err(|e| e.at_offset(offset))
    }
}

/// Names what a codec crate's error was decoding: `.decoding("page header")`.
pub(crate) trait Decoding<T> {
    fn decoding(self, what: &'static str) -> Result<T>;
}

impl<T> Decoding<T> for Result<T, parquet_core::Error> {
    fn decoding(self, what: &'static str) -> Result<T> {
        self.map_err(|source| Error::decode(what, source))
    }
}

/// Names what a cryptography error was about: `.crypto("footer")`.
pub(crate) trait Crypto<T> {
    fn crypto(self, what: &'static str) -> Result<T>;
}

impl<T> Crypto<T> for Result<T, parquet_crypto::Error> {
    fn crypto(self, what: &'static str) -> Result<T> {
        self.map_err(|source| ErrorKind::Crypto { what, source }.into())
    }
}
