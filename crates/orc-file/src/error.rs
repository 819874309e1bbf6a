//! The error type of the crate: what went wrong ([`ErrorKind`]), and where in the file
//! ([`Location`]).

use std::fmt;
use std::io;

/// Where in a file an error happened: as much of stripe, column, stream and file offset
/// as applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The stripe's ordinal.
    pub stripe: Option<usize>,
    /// The column's id (0 is the root struct; ids follow the schema in pre-order).
    pub column: Option<u32>,
    /// The kind of the stream being read (`DATA`, `LENGTH`, …).
    pub stream: Option<&'static str>,
    /// The file offset of the structure being read (a stripe, a stream, the tail).
    pub offset: Option<u64>,
}

impl Location {
    fn is_empty(&self) -> bool {
        self.stripe.is_none()
            && self.column.is_none()
            && self.stream.is_none()
            && self.offset.is_none()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(stripe) = self.stripe {
            write!(f, "stripe {stripe}")?;
            sep = ", ";
        }
        if let Some(column) = self.column {
            write!(f, "{sep}column {column}")?;
            sep = ", ";
        }
        if let Some(stream) = self.stream {
            write!(f, "{sep}stream {stream}")?;
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
/// [`Location`] of the [`Error`] says where. Errors of the codec layers are kept whole as
/// the [source](std::error::Error::source): [`ErrorKind::Decode`] for the encodings
/// (run-length encodings, compression chunk framing), [`ErrorKind::Decompress`] and
/// [`ErrorKind::Compress`] for the codecs, [`ErrorKind::Proto`] for the protobuf
/// metadata.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading or writing the underlying file failed.
    #[error("I/O error: {source}")]
    Io {
        /// The source's or sink's error.
        #[source]
        source: io::Error,
    },
    /// Bytes that do not decode: a truncated or malformed encoding or compression chunk.
    #[error("{what}: {source}")]
    Decode {
        /// What was being decoded.
        what: &'static str,
        /// The decoder's error.
        #[source]
        source: parquet_core::Error,
    },
    /// A compression chunk that does not decompress.
    #[error("compression chunk does not decompress: {source}")]
    Decompress {
        /// The codec's error.
        #[source]
        source: parquet_compress::Error,
    },
    /// A stream that does not compress (a level the codec does not have, a codec that
    /// fails).
    #[error("a stream does not compress: {source}")]
    Compress {
        /// The codec's error.
        #[source]
        source: parquet_compress::Error,
    },
    /// Protobuf metadata (postscript, footer, metadata, stripe footer, row index) that
    /// does not decode.
    #[error("malformed protobuf metadata: the {what} does not decode: {source}")]
    Proto {
        /// The message.
        what: &'static str,
        /// Prost's error.
        #[source]
        source: prost::DecodeError,
    },
    /// Not an ORC file: no `ORC` magic where the format puts it.
    #[error(
        "not an ORC file: {what}{}",
        found.as_deref().map_or_else(String::new, |f| format!(" \"{}\"", f.escape_ascii()))
    )]
    NotOrc {
        /// What was looked at.
        what: &'static str,
        /// The bytes found there, when there are any.
        found: Option<Box<[u8]>>,
    },
    /// A count, size, id or offset in the file outside what the format allows (a
    /// postscript length of 0, an unknown encoding, a union tag past the alternatives).
    #[error("invalid {what}: {value}")]
    Invalid {
        /// The field.
        what: &'static str,
        /// Its value.
        value: i64,
    },
    /// A structure that does not fit in what holds it: a stream past its stripe, a
    /// stripe past the file's data, a footer longer than the file.
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
    /// An index past what it indexes: a dictionary id past the dictionary's entries, a
    /// union tag past the alternatives.
    #[error("{what} {index} is out of range: there are {count}")]
    OutOfRange {
        /// What indexes.
        what: &'static str,
        /// The index.
        index: u64,
        /// How many there are.
        count: u64,
    },
    /// Two things that must agree do not: counts of values, rows, types or columns.
    #[error("{what}: expected {expected}, found {found}")]
    Mismatch {
        /// What disagrees.
        what: &'static str,
        /// The count that the other things say.
        expected: u64,
        /// The count found.
        found: u64,
    },
    /// A structure that starts before the one before it ends: stripes that overlap or
    /// are out of order.
    #[error(
        "{what} at {start} starts before the end of the {what} before it, at {previous_end}: \
         they overlap or are out of order"
    )]
    Overlap {
        /// The structure.
        what: &'static str,
        /// Its offset.
        start: u64,
        /// The end of the one before it.
        previous_end: u64,
    },
    /// A stream that ends before the values its column needs (or that a row-index
    /// position skips).
    #[error("the stream ends after {found} of {expected} {what}")]
    ShortStream {
        /// What was counted.
        what: &'static str,
        /// How many are needed.
        expected: u64,
        /// How many the stream holds.
        found: u64,
    },
    /// A dictionary that claims more entries than its bytes can hold (entries are
    /// distinct: all but one take a byte at least).
    #[error("a dictionary of {entries} entries in {bytes} bytes")]
    DictionaryTooLarge {
        /// The entries claimed.
        entries: u64,
        /// The bytes of the dictionary's data.
        bytes: u64,
    },
    /// A decimal of the file that does not fit the scale it is read at.
    #[error(
        "decimal {} does not fit scale {scale}",
        crate::statistics::decimal_text(*unscaled, *value_scale)
    )]
    DecimalDoesNotFit {
        /// The value's unscaled digits.
        unscaled: i128,
        /// The value's scale.
        value_scale: u32,
        /// The scale it is read at.
        scale: u32,
    },
    /// A type of the footer with another number of subtypes than its kind has.
    #[error("a {kind} type with {found} subtypes, not {expected}")]
    Subtypes {
        /// The type's kind.
        kind: &'static str,
        /// The subtypes the kind has.
        expected: u64,
        /// The subtypes the type lists.
        found: u64,
    },
    /// A type of another kind than the format allows where it is: a root type that is
    /// not a struct, a dictionary encoding of a column that is not a string.
    #[error("{what} is {found}, not {expected}")]
    WrongType {
        /// What has the type.
        what: &'static str,
        /// The kind (or kinds) allowed.
        expected: &'static str,
        /// The kind found.
        found: &'static str,
    },
    /// More of something than what it is for: statistics of more stripes than the file
    /// has, row-index entries for more groups of rows than the stripe has.
    #[error("{what}: {found}, more than {max}")]
    TooMany {
        /// What is counted, and what bounds it.
        what: &'static str,
        /// How many there are.
        found: u64,
        /// The most there may be.
        max: u64,
    },
    /// A rule of the format broken in a way no single value shows: a protobuf group, a
    /// row-index entry missing, a stream that ends short.
    #[error("malformed ORC file: {what}")]
    Malformed {
        /// The rule broken.
        what: &'static str,
    },
    /// A count or size past a limit of the [`Limits`](crate::Limits) the file was read
    /// with (or one of the format's).
    #[error("{limit} exceeded: {value} > {max}")]
    LimitExceeded {
        /// The limit.
        limit: &'static str,
        /// The count or size found.
        value: u64,
        /// The largest accepted.
        max: u64,
    },
    /// Something the format allows that this crate does not implement: a type kind, a
    /// compression kind, a block size past the platform's memory.
    #[error("unsupported {what}{}", value.map_or_else(String::new, |v| format!(" {v}")))]
    Unsupported {
        /// The feature.
        what: &'static str,
        /// Its number in the file, when it has one.
        value: Option<i64>,
    },
    /// A codec that this build of the crate was compiled without.
    #[error("unsupported {codec} compression: orc-file was built without its `{feature}` feature")]
    CodecDisabled {
        /// The codec's name.
        codec: &'static str,
        /// The cargo feature that enables it.
        feature: &'static str,
    },
    /// A writer time zone that the bundled time zone database does not know.
    #[error("unsupported writer time zone: {source}")]
    TimeZone {
        /// The time zone database's error (which names the zone).
        #[source]
        source: jiff::Error,
    },
    /// A value of a string, char or varchar column that is not UTF-8.
    #[error("a {what} value that is not UTF-8: {source}")]
    Utf8 {
        /// The column's type kind.
        what: &'static str,
        /// Where the bytes stop being UTF-8.
        #[source]
        source: std::str::Utf8Error,
    },
    /// A stripe that the file does not have.
    #[error("stripe {index} does not exist: the file has {count}")]
    NoSuchStripe {
        /// The stripe asked for.
        index: usize,
        /// The number of stripes.
        count: usize,
    },
    /// A column, by name, that the schema does not have.
    #[error("no column {name:?} in the schema")]
    NoSuchColumn {
        /// The name asked for.
        name: Box<str>,
    },
    /// Type text in Hive's syntax that does not parse
    /// ([`TypeDescription::parse`](crate::TypeDescription::parse)).
    #[error("type string, at offset {offset}: expected {expected}")]
    Syntax {
        /// The byte offset in the text.
        offset: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// Input a writer (or a schema constructor) cannot take as given: a setting out of
    /// range, a batch or row that does not match the schema, a value that does not fit
    /// its column (the [`Location`]'s column says which).
    #[error(
        "invalid input: {}{what}{}{}",
        slot.map_or_else(String::new, |s| format!("slot {s}: ")),
        value.map_or_else(String::new, |v| format!(": {v}")),
        kind.map_or_else(String::new, |k| format!(" ({k})"))
    )]
    InvalidInput {
        /// What is wrong.
        what: &'static str,
        /// The type kind of the column (or of the type) the input was for, when it was
        /// for one.
        kind: Option<&'static str>,
        /// The value, count or setting that does not fit, when it is a number.
        value: Option<i128>,
        /// The slot of the vector (or the element of the list or map) that holds it.
        slot: Option<usize>,
    },
    /// A decimal type whose precision or scale is out of range.
    #[error(
        "invalid input: decimal({precision},{scale}): precision must be 1 to 38 and scale at \
         most precision"
    )]
    InvalidDecimal {
        /// The precision.
        precision: u32,
        /// The scale.
        scale: u32,
    },
    /// A string a writer was given with more characters than its char or varchar column
    /// holds.
    #[error(
        "invalid input: a string of {length} characters for a {kind}({max}) column (at most {max})"
    )]
    TooLong {
        /// The column's type kind (`char`, `varchar`).
        kind: &'static str,
        /// The string's length, in characters.
        length: u64,
        /// The column's maximum length.
        max: u64,
    },
    /// Two counts of the input a writer was given that must agree do not (columns of a
    /// batch and of the schema, keys and values of a map vector).
    #[error("invalid input: {what}: expected {expected}, found {found}")]
    InputMismatch {
        /// What disagrees.
        what: &'static str,
        /// The count the schema (or the other part) says.
        expected: u64,
        /// The count given.
        found: u64,
    },
    /// A decimal a writer was given that its column cannot hold.
    #[error(
        "invalid input: {}{} does not fit {}",
        slot.map_or_else(String::new, |s| format!("slot {s}: ")),
        crate::statistics::decimal_text(*unscaled, *value_scale),
        precision.zip(*scale).map_or_else(
            || "a decimal without precision (at most 38 digits and a scale of 38)".to_owned(),
            |(p, s)| format!("decimal({p},{s})")
        )
    )]
    DecimalOutOfRange {
        /// The value's unscaled digits.
        unscaled: i128,
        /// The value's scale.
        value_scale: u32,
        /// The column's precision (`None` for a decimal without one).
        precision: Option<u32>,
        /// The column's scale (`None` for a decimal without one).
        scale: Option<u32>,
        /// The slot of the vector that holds it, when it comes from a batch.
        slot: Option<usize>,
    },
    /// A value a writer was given of another type than its column's.
    #[error(
        "invalid input: {}{found} for a {expected} column",
        slot.map_or_else(String::new, |s| format!("slot {s}: "))
    )]
    WrongInputType {
        /// The column's type kind.
        expected: &'static str,
        /// What was given: a kind of value (`a string`) or vector data (`Int data`).
        found: &'static str,
        /// The element of the list or map that holds it, when it is in one.
        slot: Option<usize>,
    },
    /// A field of a row (or of a group in it) that its struct type does not have.
    #[error("invalid input: a field {name:?} that the struct type does not have")]
    NoSuchField {
        /// The field's name.
        name: Box<str>,
    },
    /// A writer that an earlier error left unable to go on (an error of its sink, a
    /// stripe that failed): it writes nothing more, footer included.
    #[error("the writer failed earlier and cannot go on")]
    WriterFailed,
    /// A file to [`recover`](crate::recover::recover) with neither a tail nor an
    /// intermediate footer that reads, and no file given to be like it.
    #[error("neither a tail nor an intermediate footer reads: give a file written as this one was")]
    SchemaNeeded,
}

impl ErrorKind {
    /// Whether the error is the caller's (a stripe or column that does not exist, type
    /// text that does not parse, input a writer refuses) rather than the file's.
    pub fn is_argument(&self) -> bool {
        matches!(
            self,
            Self::NoSuchStripe { .. }
                | Self::NoSuchColumn { .. }
                | Self::Syntax { .. }
                | Self::SchemaNeeded
                | Self::WriterFailed
        ) || self.is_input()
    }

    /// Whether the error is input a writer refuses: a setting out of range, a batch, row
    /// or value that does not fit the schema.
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            Self::InvalidInput { .. }
                | Self::InvalidDecimal { .. }
                | Self::InputMismatch { .. }
                | Self::DecimalOutOfRange { .. }
                | Self::WrongInputType { .. }
                | Self::NoSuchField { .. }
                | Self::TooLong { .. }
        )
    }
}

/// An error while reading or writing an ORC file: an [`ErrorKind`] and the [`Location`]
/// it happened at.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    location: Box<Location>,
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// What went wrong, owned.
    pub fn into_kind(self) -> ErrorKind {
        self.kind
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
    pub(crate) fn invalid(what: &'static str, value: impl TryInto<i64>) -> Self {
        let value = value.try_into().unwrap_or(i64::MAX);
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

    /// An [`ErrorKind::OutOfBounds`] error.
    pub(crate) fn out_of_bounds(
        what: &'static str,
        (start, len): (u64, u64),
        within: &'static str,
        end: u64,
    ) -> Self {
        ErrorKind::OutOfBounds {
            what,
            start,
            len,
            within,
            end,
        }
        .into()
    }

    /// An [`ErrorKind::OutOfRange`] error.
    pub(crate) fn out_of_range(what: &'static str, index: u64, count: u64) -> Self {
        ErrorKind::OutOfRange { what, index, count }.into()
    }

    /// An [`ErrorKind::TooMany`] error.
    pub(crate) fn too_many(what: &'static str, found: u64, max: u64) -> Self {
        ErrorKind::TooMany { what, found, max }.into()
    }

    /// An [`ErrorKind::Unsupported`] error.
    pub(crate) fn unsupported(what: &'static str, value: Option<i64>) -> Self {
        ErrorKind::Unsupported { what, value }.into()
    }

    /// An [`ErrorKind::InvalidInput`] error with nothing but what is wrong.
    pub(crate) fn input(what: &'static str) -> Self {
        Self::input_value(what, None::<i64>)
    }

    /// An [`ErrorKind::InvalidInput`] error about a number.
    pub(crate) fn input_value(what: &'static str, value: Option<impl Into<i128>>) -> Self {
        ErrorKind::InvalidInput {
            what,
            kind: None,
            value: value.map(Into::into),
            slot: None,
        }
        .into()
    }

    /// An [`ErrorKind::InputMismatch`] error.
    pub(crate) fn input_mismatch(what: &'static str, expected: u64, found: u64) -> Self {
        ErrorKind::InputMismatch {
            what,
            expected,
            found,
        }
        .into()
    }

    /// An [`ErrorKind::LimitExceeded`] error.
    pub(crate) fn limit(limit: &'static str, value: u64, max: u64) -> Self {
        ErrorKind::LimitExceeded { limit, value, max }.into()
    }

    /// Fills in the stripe, unless already known.
    #[must_use]
    pub(crate) fn at_stripe(mut self, stripe: usize) -> Self {
        self.location.stripe.get_or_insert(stripe);
        self
    }

    /// Fills in the column, unless already known.
    #[must_use]
    pub(crate) fn at_column(mut self, column: u32) -> Self {
        self.location.column.get_or_insert(column);
        self
    }

    /// Fills in the stream, unless already known.
    #[must_use]
    pub(crate) fn in_stream(mut self, stream: &'static str) -> Self {
        self.location.stream.get_or_insert(stream);
        self
    }

    /// Fills in the offset, unless already known.
    #[must_use]
    pub(crate) fn at_offset(mut self, offset: u64) -> Self {
        self.location.offset.get_or_insert(offset);
        self
    }

    /// Fills in the slot of an input error, unless already known.
    #[must_use]
    pub(crate) fn at_slot(mut self, at: usize) -> Self {
        if let ErrorKind::InvalidInput { slot, .. }
        | ErrorKind::DecimalOutOfRange { slot, .. }
        | ErrorKind::WrongInputType { slot, .. } = &mut self.kind
        {
            slot.get_or_insert(at);
        }
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

impl From<parquet_core::Error> for Error {
    /// An [`ErrorKind::Decode`] of `malformed data` (the crate names what was decoded
    /// where it knows better).
    fn from(source: parquet_core::Error) -> Self {
        Self::decode("malformed data", source)
    }
}

impl From<parquet_compress::Error> for Error {
    /// An [`ErrorKind::Decompress`].
    fn from(source: parquet_compress::Error) -> Self {
        ErrorKind::Decompress { source }.into()
    }
}

impl From<prost::DecodeError> for Error {
    /// An [`ErrorKind::Proto`] of a `message` (the crate names which where it knows).
    fn from(source: prost::DecodeError) -> Self {
        ErrorKind::Proto {
            what: "message",
            source,
        }
        .into()
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
    fn at_stripe(self, stripe: usize) -> Result<T>;
    fn at_column(self, column: u32) -> Result<T>;
    fn in_stream(self, stream: &'static str) -> Result<T>;
    fn at_offset(self, offset: u64) -> Result<T>;
}

impl<T> Context<T> for Result<T> {
    fn at_stripe(self, stripe: usize) -> Result<T> {
        self.map_err(|e| e.at_stripe(stripe))
    }
    fn at_column(self, column: u32) -> Result<T> {
        self.map_err(|e| e.at_column(column))
    }
    fn in_stream(self, stream: &'static str) -> Result<T> {
        self.map_err(|e| e.in_stream(stream))
    }
    fn at_offset(self, offset: u64) -> Result<T> {
        self.map_err(|e| e.at_offset(offset))
    }
}

/// Names what a codec crate's error was decoding: `.decoding("dictionary lengths")`.
pub(crate) trait Decoding<T> {
    fn decoding(self, what: &'static str) -> Result<T>;
}

impl<T> Decoding<T> for Result<T, parquet_core::Error> {
    fn decoding(self, what: &'static str) -> Result<T> {
        self.map_err(|source| Error::decode(what, source))
    }
}

/// Names the protobuf message that does not decode: `.proto("footer")`.
pub(crate) trait ProtoContext<T> {
    fn proto(self, what: &'static str) -> Result<T>;
}

impl<T> ProtoContext<T> for Result<T, prost::DecodeError> {
    fn proto(self, what: &'static str) -> Result<T> {
        self.map_err(|source| ErrorKind::Proto { what, source }.into())
    }
}

/// Marks a codec crate's error as the writer's: `.compressing()`.
pub(crate) trait Compressing<T> {
    fn compressing(self) -> Result<T>;
}

impl<T> Compressing<T> for Result<T, parquet_compress::Error> {
    fn compressing(self) -> Result<T> {
        self.map_err(|source| ErrorKind::Compress { source }.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_what_went_wrong_and_where() {
        assert_eq!(
            Error::malformed("a protobuf group, which ORC never uses").to_string(),
            "malformed ORC file: a protobuf group, which ORC never uses"
        );
        assert_eq!(
            Error::unsupported("compression kind", Some(7)).to_string(),
            "unsupported compression kind 7"
        );
        assert_eq!(
            Error::input_value("compression block size out of range", Some(0)).to_string(),
            "invalid input: compression block size out of range: 0"
        );
        let decode = Error::from(parquet_core::Error::truncated("chunk", 4, 3, 1))
            .at_stripe(3)
            .at_column(5)
            .in_stream("DATA")
            .at_offset(1234);
        assert_eq!(
            decode.to_string(),
            "stripe 3, column 5, stream DATA, offset 1234: malformed data: truncated chunk \
             at offset 4: need 3 bytes, 1 available"
        );
        assert!(matches!(decode.kind(), ErrorKind::Decode { .. }));
        // The innermost location wins.
        let inner = Error::limit("max_batch_bytes", 2, 1)
            .at_column(4)
            .at_column(1);
        assert_eq!(inner.location().column, Some(4));
        assert_eq!(
            inner.to_string(),
            "column 4: max_batch_bytes exceeded: 2 > 1"
        );
        let slot = ErrorKind::InvalidInput {
            what: "a value out of range",
            kind: Some("tinyint"),
            value: Some(300),
            slot: Some(2),
        };
        assert_eq!(
            Error::from(slot).at_column(1).to_string(),
            "column 1: invalid input: slot 2: a value out of range: 300 (tinyint)"
        );
        let not_orc = ErrorKind::NotOrc {
            what: "postscript magic",
            found: Some(b"PAR".as_slice().into()),
        };
        assert_eq!(
            not_orc.to_string(),
            "not an ORC file: postscript magic \"PAR\""
        );
    }

    #[test]
    fn sources_are_kept() {
        use std::error::Error as _;
        let io = Error::from(io::Error::other("disk"));
        assert_eq!(
            io.source().map(ToString::to_string).as_deref(),
            Some("disk")
        );
        assert!(matches!(io.into_kind(), ErrorKind::Io { .. }));
    }
}
