//! Reading encrypted files: the keys a reader is given, and the ciphers of a file.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use parquet_crypto::{Algorithm, Key, KeyRetriever, ModuleCipher};
use parquet_thrift::EncryptionAlgorithm;

use crate::error::{Error, Result};

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
    column_keys: HashMap<String, Key>,
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

    /// The key of the column at the dotted `path`.
    #[must_use]
    pub fn with_column_key(mut self, path: impl Into<String>, key: Key) -> Self {
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
    }

    pub(crate) fn column_key(
        &self,
        path: &str,
        key_metadata: Option<&[u8]>,
    ) -> Result<Option<Key>> {
        self.key(self.column_keys.get(path), key_metadata)
    }

    fn key(&self, given: Option<&Key>, key_metadata: Option<&[u8]>) -> Result<Option<Key>> {
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

/// The algorithm and file AAD of an encrypted file, from its `EncryptionAlgorithm`.
pub(crate) struct FileCrypto {
    pub(crate) algorithm: Algorithm,
    pub(crate) file_aad: Vec<u8>,
    /// The footer key, once found: columns encrypted with the footer key use it.
    pub(crate) footer_key: Option<Key>,
}

impl FileCrypto {
    pub(crate) fn new(
        algorithm: &EncryptionAlgorithm<'_>,
        options: &DecryptionOptions,
    ) -> Result<Self> {
        let (algorithm, params) = match algorithm {
            EncryptionAlgorithm::AesGcmV1(p) => (
                Algorithm::AesGcmV1,
                (
                    p.aad_prefix.as_deref(),
                    p.aad_file_unique.as_deref(),
                    p.supply_aad_prefix,
                ),
            ),
            EncryptionAlgorithm::AesGcmCtrV1(p) => (
                Algorithm::AesGcmCtrV1,
                (
                    p.aad_prefix.as_deref(),
                    p.aad_file_unique.as_deref(),
                    p.supply_aad_prefix,
                ),
            ),
            EncryptionAlgorithm::Unrecognized(member) => {
                return Err(Error::unsupported(format!(
                    "encryption algorithm with field id {}",
                    member.id
                )));
            }
            _ => return Err(Error::unsupported("encryption algorithm")),
        };
        let (stored_prefix, file_unique, supply) = params;
        let prefix = match (&options.aad_prefix, stored_prefix) {
            (Some(given), Some(stored)) if given.as_slice() != stored => {
                return Err(Error::invalid(
                    "the AAD prefix given does not match the one stored in the file",
                ));
            }
            (Some(given), _) => given.as_slice(),
            (None, Some(stored)) => stored,
            (None, None) if supply == Some(true) => {
                return Err(Error::argument(
                    "the file was encrypted with an AAD prefix that it does not store: supply it",
                ));
            }
            (None, None) => &[],
        };
        Ok(Self {
            algorithm,
            file_aad: parquet_crypto::file_aad(prefix, file_unique.unwrap_or_default()),
            footer_key: None,
        })
    }

    pub(crate) fn with_footer_key(mut self, key: Key) -> Self {
        self.footer_key = Some(key);
        self
    }

    pub(crate) fn cipher(&self, key: &Key) -> ModuleCipher {
        ModuleCipher::new(key, self.algorithm, &self.file_aad)
    }
}
