//! Reading the footer: magic, length, decryption or signature check, then the
//! [`FileMetaData`] and the ciphers of the file's column chunks.

use std::sync::Arc;

use bytes::Bytes;
use parquet_thrift as thrift;

use super::crypto::{ChunkCipher, DecryptionOptions, FileDecryptor};
use super::{EncryptionAlgorithm, FileMetaData};
use crate::error::{Context, Crypto as _, Decoding as _, Error, ErrorKind, Result};
use crate::io::Source;
use crate::limits::Limits;
use crate::schema::Schema;

/// The magic bytes of a file with a plaintext footer.
pub const MAGIC: &[u8; 4] = b"PAR1";
/// The magic bytes of a file with an encrypted footer.
pub const MAGIC_ENCRYPTED: &[u8; 4] = b"PARE";

/// How a file protects its footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FooterProtection {
    /// A plain file: no encryption.
    None,
    /// An encrypted footer (`PARE`), decrypted and authenticated with the footer key.
    Encrypted,
    /// A plaintext footer whose signature was verified with the footer key.
    SignatureVerified,
    /// A plaintext footer with a signature that was not verified (no footer key was
    /// given, or verification was turned off).
    SignatureNotVerified,
}

/// A file's footer, read and checked: its metadata, where it lies, how it is protected,
/// and the cipher of each column chunk.
pub(crate) struct Footer {
    pub(crate) metadata: Arc<FileMetaData>,
    pub(crate) protection: FooterProtection,
    /// The footer's length (the bytes before the final length and magic).
    pub(crate) len: u64,
    /// The file's length.
    pub(crate) file_len: u64,
    /// Per row group, per column; empty for a file without encryption.
    ciphers: Vec<Vec<ChunkCipher>>,
}

/// The first 4 bytes of `bytes` (zero-padded).
fn four(bytes: &[u8]) -> [u8; 4] {
    let mut out = [0; 4];
    for (o, b) in out.iter_mut().zip(bytes) {
        *o = *b;
    }
    out
}

impl Footer {
    /// Reads and checks the footer of `source`.
    ///
    /// # Errors
    ///
    /// A file too short to hold a footer, bad magic, a footer length past the start of
    /// the file or past `limits`, a footer that does not decode, decrypt or
    /// authenticate, a schema that breaks the format's rules, or row groups whose
    /// column count differs from the schema's.
    #[allow(clippy::too_many_lines)] // the two footer layouts, step by step
    pub(crate) fn read(
        source: &impl Source,
        options: &DecryptionOptions,
        limits: &Limits,
    ) -> Result<Self> {
        let file_len = source.len()?;
        if file_len < 12 {
            return Err(ErrorKind::OutOfBounds {
                what: "magic numbers and footer length",
                start: 0,
                len: 12,
                within: "the file",
                end: file_len,
            }
            .into());
        }
        let head = source.read_at(0, 4)?;
        let tail = source.read_at(file_len - 8, 8)?;
        let magic = four(tail.get(4..).unwrap_or_default());
        if magic != *MAGIC && magic != *MAGIC_ENCRYPTED {
            return Err(ErrorKind::NotParquet {
                what: "the last 4 bytes",
                found: magic,
            }
            .into());
        }
        if four(&head) != magic {
            return Err(ErrorKind::NotParquet {
                what: "the first 4 bytes (unlike the last)",
                found: four(&head),
            }
            .into());
        }
        let footer_len = u64::from(u32::from_le_bytes(four(&tail)));
        if footer_len > limits.max_footer_size() {
            return Err(Error::limit(
                "footer size",
                footer_len,
                limits.max_footer_size(),
            ));
        }
        let footer_start = (file_len - 8).checked_sub(footer_len).filter(|&s| s >= 4);
        let Some(footer_start) = footer_start else {
            return Err(ErrorKind::OutOfBounds {
                what: "footer",
                start: 0,
                len: footer_len,
                within: "the bytes between the magic numbers",
                end: file_len - 12,
            }
            .into());
        };
        // At most `u32::MAX`, and inside the file.
        #[allow(clippy::cast_possible_truncation)]
        let footer = source.read_at(footer_start, footer_len as usize)?;
        // The decrypted footer: the metadata is decoded from it, or from `footer` itself,
        // borrowing its bytes.
        let mut plaintext = Bytes::new();
        let (file, protection, decryptor) = if magic == *MAGIC_ENCRYPTED {
            let (crypto, used) = thrift::FileCryptoMetaData::read_from(&footer)
                .decoding("file crypto metadata")
                .at_offset(footer_start)?;
            let algorithm = EncryptionAlgorithm::from_thrift(&crypto.encryption_algorithm)?;
            let mut decryptor = FileDecryptor::new(&algorithm, options, false)?;
            let Some(key) = options.footer_key(crypto.key_metadata.as_deref())? else {
                return Err(ErrorKind::MissingKey {
                    what: "the footer key",
                }
                .into());
            };
            let module = footer.get(used..).unwrap_or_default();
            let module_offset = footer_start + used as u64;
            plaintext = decryptor
                .decrypt_footer(&key, module)
                .at_offset(module_offset)?
                .into();
            decryptor.set_footer_key(key);
            let (file, _) = thrift::FileMetaData::read_from(&plaintext)
                .decoding("footer")
                .at_offset(footer_start)?;
            (file, FooterProtection::Encrypted, Some(decryptor))
        } else {
            // A footer without encryption, read in one pass (the reference path below
            // reads every other, and reports the errors).
            if let Some(metadata) = super::decode::plain_footer(&footer, limits) {
                return Ok(Self {
                    metadata: Arc::new(metadata),
                    protection: FooterProtection::None,
                    len: footer_len,
                    file_len,
                    ciphers: Vec::new(),
                });
            }
            let (file, used) = thrift::FileMetaData::read_from(&footer)
                .decoding("footer")
                .at_offset(footer_start)?;
            match &file.encryption_algorithm {
                None => (file, FooterProtection::None, None),
                Some(algorithm) => {
                    let algorithm = EncryptionAlgorithm::from_thrift(algorithm)?;
                    let mut decryptor = FileDecryptor::new(&algorithm, options, true)?;
                    // Without the AAD prefix nothing encrypted can be checked or read.
                    let key = if decryptor.without_prefix() {
                        None
                    } else {
                        options.footer_key(file.footer_signing_key_metadata.as_deref())?
                    };
                    let protection = match key {
                        Some(key) if options.verifies_signature() => {
                            let signature = footer.get(used..).unwrap_or_default();
                            let signature = signature.try_into().map_err(|_| {
                                Error::mismatch(
                                    "bytes of the footer signature",
                                    parquet_crypto::FOOTER_SIGNATURE_LEN as u64,
                                    signature.len() as u64,
                                )
                            })?;
                            parquet_crypto::verify_footer_signature(
                                &key,
                                decryptor.file_aad(),
                                footer.get(..used).unwrap_or_default(),
                                signature,
                            )
                            .crypto("verifying the footer signature")
                            .at_offset(footer_start)?;
                            decryptor.set_footer_key(key);
                            FooterProtection::SignatureVerified
                        }
                        Some(key) => {
                            decryptor.set_footer_key(key);
                            FooterProtection::SignatureNotVerified
                        }
                        None => FooterProtection::SignatureNotVerified,
                    };
                    (file, protection, Some(decryptor))
                }
            }
        };
        let schema = Schema::try_from_elements(&file.schema, limits)?;
        let buf = if plaintext.is_empty() {
            &footer
        } else {
            &plaintext
        };
        let (metadata, ciphers) =
            FileMetaData::from_thrift(&file, buf, schema, decryptor.as_ref())?;
        Ok(Self {
            metadata: Arc::new(metadata),
            protection,
            len: footer_len,
            file_len,
            ciphers,
        })
    }

    /// The end of the column data: the offset of the footer (for an encrypted footer, of
    /// its crypto metadata).
    pub(crate) fn data_end(&self) -> u64 {
        self.file_len - 8 - self.len
    }

    /// The cipher of a column chunk (plaintext for a file without encryption, and for
    /// the plaintext columns of an encrypted one).
    pub(crate) fn cipher(&self, row_group: usize, column: usize) -> &ChunkCipher {
        static PLAINTEXT: ChunkCipher = ChunkCipher::Plaintext;
        self.ciphers
            .get(row_group)
            .and_then(|row| row.get(column))
            .unwrap_or(&PLAINTEXT)
    }
}
