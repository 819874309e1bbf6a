//! Reading encrypted files: the keys a reader is given, and the ciphers of a file.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use parquet_crypto::{AadMode, Algorithm, Key, KeyRetriever, ModuleCipher};

use super::{ColumnEncryption, EncryptionAlgorithm};
use crate::error::{Crypto as _, Error, ErrorKind, Result};
use crate::path::ColumnPath;

/// The keys for reading encrypted files, and how to find the ones not given.
///
/// Keys are looked up in this order: the footer key or the column's key given here, then
/// the [`KeyRetriever`] with the `key_metadata` the file stores (a key id such as `"kf"`
/// or `"kc1"`, or whatever a key management system put there).
///
/// ```
/// use parquet_crypto::{Key, KeyMap};
/// use parquet_file::DecryptionOptions;
///
/// // Keys handed over directly...
/// let options = DecryptionOptions::new()
///     .with_footer_key(Key::try_new(b"0123456789012345")?)
///     .with_column_key("double_field", Key::try_new(b"1234567890123450")?)
///     .with_aad_prefix(b"tester".to_vec());
/// // ...or found by the key ids in the file.
/// let options = DecryptionOptions::new().with_key_retriever(
///     KeyMap::new()
///         .with("kf", Key::try_new(b"0123456789012345")?)
///         .with("kc1", Key::try_new(b"1234567890123450")?),
/// );
/// # Ok::<(), parquet_crypto::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct DecryptionOptions {
    footer_key: Option<Key>,
    column_keys: HashMap<ColumnPath, Key>,
    retriever: Option<Arc<dyn KeyRetriever + Send + Sync>>,
    aad_prefix: Option<Vec<u8>>,
    skip_signature: bool,
}

impl fmt::Debug for DecryptionOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecryptionOptions")
            .field("footer_key", &self.footer_key.as_ref().map(|_| ".."))
            .field("column_keys", &self.column_keys.keys().collect::<Vec<_>>())
            .field("retriever", &self.retriever.as_ref().map(|_| ".."))
            .field("aad_prefix", &self.aad_prefix)
            .field("skip_signature", &self.skip_signature)
            .finish()
    }
}

impl DecryptionOptions {
    /// No keys: plaintext files and plaintext columns of encrypted files only.
    pub fn new() -> Self {
        Self::default()
    }

    /// The key of the footer (and of the columns encrypted with it).
    #[must_use]
    pub fn with_footer_key(mut self, key: Key) -> Self {
        self.footer_key = Some(key);
        self
    }

    /// The key of the column at `path`.
    #[must_use]
    pub fn with_column_key(mut self, path: impl Into<ColumnPath>, key: Key) -> Self {
        self.column_keys.insert(path.into(), key);
        self
    }

    /// Where to look up keys that were not given, by the key metadata in the file.
    #[must_use]
    pub fn with_key_retriever(
        mut self,
        retriever: impl KeyRetriever + Send + Sync + 'static,
    ) -> Self {
        self.retriever = Some(Arc::new(retriever));
        self
    }

    /// The AAD prefix, for files written with one that they do not store
    /// (`supply_aad_prefix`), or to check the one they store.
    #[must_use]
    pub fn with_aad_prefix(mut self, prefix: Vec<u8>) -> Self {
        self.aad_prefix = Some(prefix);
        self
    }

    /// Do not verify the signature of a signed plaintext footer. Verification is on by
    /// default whenever the footer key is known.
    #[must_use]
    pub fn skip_footer_signature(mut self) -> Self {
        self.skip_signature = true;
        self
    }

    pub(crate) fn verifies_signature(&self) -> bool {
        !self.skip_signature
    }

    pub(crate) fn footer_key(&self, key_metadata: Option<&[u8]>) -> Result<Option<Key>> {
        self.key(self.footer_key.as_ref(), key_metadata)
            .crypto("retrieving the footer key")
    }

    fn key(
        &self,
        given: Option<&Key>,
        key_metadata: Option<&[u8]>,
    ) -> parquet_crypto::Result<Option<Key>> {
        if let Some(key) = given {
            return Ok(Some(key.clone()));
        }
        match &self.retriever {
            Some(retriever) => Ok(Some(
                retriever.retrieve_key(key_metadata.unwrap_or_default())?,
            )),
            None => Ok(None),
        }
    }
}

/// How one column chunk is protected, and the cipher to read it with.
#[derive(Clone)]
pub(crate) enum ChunkCipher {
    Plaintext,
    Cipher(Arc<ModuleCipher>),
    /// Encrypted with a key the reader does not have.
    NoKey,
    /// Encrypted with a key that the [`KeyRetriever`] failed to give.
    KeyError(parquet_crypto::Error),
}

impl ChunkCipher {
    /// The cipher, when the chunk is encrypted.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::MissingKey`] when the chunk is encrypted with a key the reader does
    /// not have, [`ErrorKind::Crypto`] when retrieving it failed.
    pub(crate) fn cipher(&self) -> Result<Option<&Arc<ModuleCipher>>> {
        match self {
            Self::Plaintext => Ok(None),
            Self::Cipher(cipher) => Ok(Some(cipher)),
            Self::NoKey => Err(ErrorKind::MissingKey {
                what: "the column's key",
            }
            .into()),
            Self::KeyError(source) => Err(ErrorKind::Crypto {
                what: "retrieving the column's key",
                source: source.clone(),
            }
            .into()),
        }
    }
}

/// What it takes to decrypt the modules of an encrypted file: its algorithm, how its
/// modules are authenticated, its footer key, and the options to find column keys.
pub(crate) struct FileDecryptor {
    algorithm: Algorithm,
    /// The file AAD: the AAD prefix and `aad_file_unique`.
    file_aad: Vec<u8>,
    /// Whether the modules are authenticated as the format says, or with an empty AAD
    /// (DuckDB's files, which have no `aad_file_unique`).
    aad_mode: AadMode,
    /// Whether the file stores no `aad_file_unique`: then it may be DuckDB's.
    without_unique: bool,
    /// Whether the reader lacks the AAD prefix the file needs supplied: then only its
    /// plaintext columns (of a plaintext footer) can be read.
    without_prefix: bool,
    footer_key: Option<Key>,
    options: DecryptionOptions,
}

impl FileDecryptor {
    /// The decryptor of a file encrypted by `algorithm`, with the AAD prefix the options
    /// give or the file stores. Without a prefix the file needs supplied, the footer of
    /// a file whose footer is in plaintext (`plaintext_footer`) still reads, and its
    /// plaintext columns; its encrypted ones are as if their keys were missing.
    pub(crate) fn new(
        algorithm: &EncryptionAlgorithm,
        options: &DecryptionOptions,
        plaintext_footer: bool,
    ) -> Result<Self> {
        let mut without_prefix = false;
        let prefix = match (&options.aad_prefix, &algorithm.aad_prefix) {
            (Some(given), Some(stored)) if given != stored => {
                return Err(Error::malformed(
                    "the AAD prefix given differs from the one stored in the file",
                ));
            }
            (Some(given), _) => given.as_slice(),
            (None, Some(stored)) => stored.as_slice(),
            (None, None) if algorithm.supply_aad_prefix == Some(true) && plaintext_footer => {
                without_prefix = true;
                &[]
            }
            (None, None) if algorithm.supply_aad_prefix == Some(true) => {
                return Err(ErrorKind::MissingKey {
                    what: "the AAD prefix, which the file does not store",
                }
                .into());
            }
            (None, None) => &[],
        };
        let unique = algorithm.aad_file_unique.as_deref();
        Ok(Self {
            algorithm: algorithm.algorithm,
            file_aad: parquet_crypto::file_aad(prefix, unique.unwrap_or_default()),
            aad_mode: AadMode::Spec,
            without_unique: unique.is_none(),
            without_prefix,
            footer_key: None,
            options: options.clone(),
        })
    }

    /// The file AAD, for verifying a footer signature.
    pub(crate) fn file_aad(&self) -> &[u8] {
        &self.file_aad
    }

    /// Whether the AAD prefix the file needs was not supplied.
    pub(crate) fn without_prefix(&self) -> bool {
        self.without_prefix
    }

    pub(crate) fn set_footer_key(&mut self, key: Key) {
        self.footer_key = Some(key);
    }

    /// Whether the file's modules are authenticated with an empty AAD: a file of DuckDB,
    /// which encrypts every column with the footer key without saying so.
    pub(crate) fn without_aad(&self) -> bool {
        self.aad_mode == AadMode::Empty
    }

    /// A cipher for modules encrypted with `key`.
    pub(crate) fn cipher(&self, key: &Key) -> ModuleCipher {
        match self.aad_mode {
            AadMode::Spec => ModuleCipher::new(key, self.algorithm, &self.file_aad),
            AadMode::Empty => ModuleCipher::without_aad(key, self.algorithm),
        }
    }

    /// Decrypts the footer module (the bytes after `FileCryptoMetaData`) with `key`. A
    /// file without `aad_file_unique` whose footer authenticates only with an empty AAD
    /// is DuckDB's: its other modules are then read the same way.
    pub(crate) fn decrypt_footer(&mut self, key: &Key, module: &[u8]) -> Result<Vec<u8>> {
        let (footer, mode) = if self.without_unique {
            parquet_crypto::decrypt_footer_or_without_aad(key, &self.file_aad, module)
        } else {
            parquet_crypto::decrypt_footer(key, &self.file_aad, module).map(|f| (f, AadMode::Spec))
        }
        .crypto("decrypting the footer")?;
        self.aad_mode = mode;
        Ok(footer)
    }
}

/// The ciphers of a file's column chunks, each made once: one for the footer key, one per
/// column key (found once per column, not once per row group: a [`KeyRetriever`] may ask
/// a key service).
pub(crate) struct ChunkCiphers<'d> {
    decryptor: &'d FileDecryptor,
    footer: Option<ChunkCipher>,
    columns: HashMap<ColumnPath, ChunkCipher>,
}

impl<'d> ChunkCiphers<'d> {
    pub(crate) fn new(decryptor: &'d FileDecryptor) -> Self {
        Self {
            decryptor,
            footer: None,
            columns: HashMap::new(),
        }
    }

    /// The cipher of the chunk of the column at `path`, encrypted as `encryption` says
    /// (`None`: the chunk says nothing of it).
    pub(crate) fn get(
        &mut self,
        encryption: Option<&ColumnEncryption>,
        path: &ColumnPath,
    ) -> ChunkCipher {
        let d = self.decryptor;
        let cipher = |key: parquet_crypto::Result<Option<Key>>| match key {
            Ok(Some(key)) => ChunkCipher::Cipher(Arc::new(d.cipher(&key))),
            Ok(None) => ChunkCipher::NoKey,
            Err(e) => ChunkCipher::KeyError(e),
        };
        match encryption {
            // DuckDB encrypts every column with the footer key, and says so of none.
            None if !d.without_aad() => ChunkCipher::Plaintext,
            Some(_) if d.without_prefix => ChunkCipher::NoKey,
            None | Some(ColumnEncryption::FooterKey) => self
                .footer
                .get_or_insert_with(|| cipher(Ok(d.footer_key.clone())))
                .clone(),
            Some(ColumnEncryption::ColumnKey { key_metadata, .. }) => self
                .columns
                .entry(path.clone())
                .or_insert_with(|| {
                    cipher(
                        d.options
                            .key(d.options.column_keys.get(path), key_metadata.as_deref()),
                    )
                })
                .clone(),
            Some(ColumnEncryption::Unknown) => ChunkCipher::NoKey,
        }
    }
}
