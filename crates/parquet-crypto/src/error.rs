//! The error type of this crate.

use crate::ModuleType;

/// What went wrong while encrypting, decrypting, signing or looking up a key.
///
/// Malformed input (a module shorter than its length field says, a length below the
/// framing overhead) and out-of-range ordinals are the cases shared with every
/// parquet-kit crate, wrapped in [`Error::Core`]. A module that decrypts but does not
/// authenticate is [`Error::Authentication`]: a wrong key, a wrong AAD (a module moved to
/// another place in the file or to another file, a missing or wrong AAD prefix) and
/// altered bytes all look the same to AES-GCM, and none of them ever yields plaintext.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A truncated or malformed module, or an ordinal or length over its limit.
    #[error(transparent)]
    Core(#[from] parquet_core::Error),
    /// The GCM tag of a module, or the signature of a plaintext footer, did not verify.
    #[error("authentication failed for a {module} module: wrong key, wrong AAD, or altered bytes")]
    Authentication {
        /// The kind of module that failed.
        module: ModuleType,
    },
    /// A key that is not 16, 24 or 32 bytes long.
    #[error("invalid AES key length: {len} bytes (must be 16, 24 or 32)")]
    KeyLength {
        /// The length given.
        len: usize,
    },
    /// A [`KeyRetriever`](crate::KeyRetriever) has no key for this key metadata.
    #[error("no key for key metadata \"{}\"", key_metadata.escape_ascii())]
    KeyNotFound {
        /// The key metadata (for the retrievers of this crate, the key id).
        key_metadata: Vec<u8>,
    },
    /// A [`KeyRetriever`](crate::KeyRetriever) failed for another reason, such as an
    /// unreachable key management service.
    #[error("key retrieval failed: {message}")]
    KeyRetrieval {
        /// What the retriever reported.
        message: String,
    },
    /// A caller's output buffer cannot hold the plaintext of a module.
    #[error("output buffer too small: need {needed} bytes, {available} available")]
    OutputTooSmall {
        /// The plaintext length of the module.
        needed: usize,
        /// The length of the buffer given.
        available: usize,
    },
    /// The operating system's random number generator failed to produce a nonce.
    #[error("the operating system's random number generator failed: {message}")]
    Random {
        /// What the generator reported.
        message: String,
    },
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;
