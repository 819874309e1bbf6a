//! The error type of the crate.

use std::io;

/// What went wrong while reading or writing an ORC file.
///
/// Errors of the codec layers are kept whole: [`Error::Decode`] for the encodings
/// (run-length encodings, compression chunk framing), [`Error::Compress`] for the
/// codecs, [`Error::Proto`] for the protobuf metadata. The other variants describe the
/// file's structure ([`Error::Format`]), what this crate does not handle
/// ([`Error::Unsupported`]) and what a writer was asked to do that the schema does not
/// allow ([`Error::InvalidInput`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bytes that do not decode: a truncated or malformed encoding or compression chunk.
    #[error("malformed data: {0}")]
    Decode(#[from] parquet_core::Error),
    /// A chunk that does not decompress, or a codec that this build does not have.
    #[error("compression: {0}")]
    Compress(#[from] parquet_compress::Error),
    /// Protobuf metadata (postscript, footer, stripe footer, index) that does not decode.
    #[error("malformed protobuf metadata: {0}")]
    Proto(#[from] prost::DecodeError),
    /// A file whose structure breaks the format: bad magic, a bad postscript, a stream
    /// past its stripe, a row-index position that points nowhere.
    #[error("malformed ORC file: {what}")]
    Format {
        /// What is wrong.
        what: String,
    },
    /// Valid data, or a request, that this crate does not handle.
    #[error("unsupported {what}")]
    Unsupported {
        /// What is not supported.
        what: String,
    },
    /// A value or setting handed to the writer that does not fit: a value that does not
    /// match the schema, a block size out of range.
    #[error("invalid input: {what}")]
    InvalidInput {
        /// What is wrong.
        what: String,
    },
    /// A file that asks for more than a limit allows: more bytes of strings in one batch
    /// than a batch holds, a metadata section larger than the limit.
    #[error("{what} exceeds the limit: {requested} > {limit}")]
    LimitExceeded {
        /// What the limit bounds.
        what: &'static str,
        /// What the file asks for.
        requested: u64,
        /// The limit.
        limit: u64,
    },
    /// Reading or writing the underlying file failed.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

impl Error {
    /// Shorthand for [`Error::Format`].
    pub fn format(what: impl Into<String>) -> Self {
        Self::Format { what: what.into() }
    }

    /// Shorthand for [`Error::Unsupported`].
    pub fn unsupported(what: impl Into<String>) -> Self {
        Self::Unsupported { what: what.into() }
    }

    /// Shorthand for [`Error::InvalidInput`].
    pub fn invalid_input(what: impl Into<String>) -> Self {
        Self::InvalidInput { what: what.into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_what_went_wrong() {
        assert_eq!(
            Error::format("bad magic").to_string(),
            "malformed ORC file: bad magic"
        );
        assert_eq!(
            Error::unsupported("BROTLI compression").to_string(),
            "unsupported BROTLI compression"
        );
        assert_eq!(
            Error::invalid_input("block size 0").to_string(),
            "invalid input: block size 0"
        );
        let decode = Error::from(parquet_core::Error::truncated("chunk", 4, 3, 1));
        assert_eq!(
            decode.to_string(),
            "malformed data: truncated chunk at offset 4: need 3 bytes, 1 available"
        );
        assert!(matches!(decode, Error::Decode(_)));
    }

    #[test]
    fn sources_are_kept() {
        use std::error::Error as _;
        let io = Error::from(io::Error::other("disk"));
        assert_eq!(
            io.source().map(ToString::to_string).as_deref(),
            Some("disk")
        );
    }
}
