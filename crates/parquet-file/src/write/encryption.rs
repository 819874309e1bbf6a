//! Writing encrypted files: [`EncryptionOptions`] and the ciphers they make.

use std::collections::{HashMap, HashSet};
use std::fmt;

use parquet_crypto::{Algorithm, Key, ModuleCipher};

use crate::error::{Crypto as _, Error, Result};
use crate::path::ColumnPath;
use crate::schema::Schema;

/// How a file is encrypted (Parquet modular encryption, AES-GCM or AES-GCM-CTR).
///
/// Every column is encrypted with the footer key unless it has a key of its own
/// ([`with_column_key`](Self::with_column_key)) or is left in plaintext
/// ([`with_plaintext_column`](Self::with_plaintext_column)). The footer is encrypted
/// (the file starts and ends with `PARE`), or kept in plaintext and signed
/// ([`with_plaintext_footer`](Self::with_plaintext_footer)), readable by readers without
/// keys for what is not encrypted. Pages, page headers, column metadata, column and
/// offset indexes and Bloom filters of encrypted columns are all encrypted.
///
/// ```
/// use parquet_crypto::{Algorithm, Key};
/// use parquet_file::EncryptionOptions;
///
/// let options = EncryptionOptions::new(Key::try_new(b"0123456789012345")?)
///     .with_algorithm(Algorithm::AesGcmCtrV1)
///     .with_footer_key_metadata(b"kf".to_vec())
///     .with_column_key("ssn", Key::try_new(b"1234567890123450")?, Some(b"kc1".to_vec()))
///     .with_plaintext_column("country")
///     .with_aad_prefix(b"customers-2026".to_vec(), false);
/// # Ok::<(), parquet_crypto::Error>(())
/// ```
#[derive(Clone)]
pub struct EncryptionOptions {
    pub(crate) algorithm: Algorithm,
    pub(crate) footer_key: Key,
    pub(crate) footer_key_metadata: Option<Vec<u8>>,
    pub(crate) plaintext_footer: bool,
    pub(crate) column_keys: HashMap<ColumnPath, (Key, Option<Vec<u8>>)>,
    pub(crate) plaintext_columns: HashSet<ColumnPath>,
    pub(crate) aad_prefix: Option<Vec<u8>>,
    pub(crate) store_aad_prefix: bool,
    pub(crate) empty_aad: bool,
}

impl fmt::Debug for EncryptionOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncryptionOptions")
            .field("algorithm", &self.algorithm)
            .field("footer_key", &"..")
            .field("footer_key_metadata", &self.footer_key_metadata)
            .field("plaintext_footer", &self.plaintext_footer)
            .field("column_keys", &self.column_keys.keys().collect::<Vec<_>>())
            .field("plaintext_columns", &self.plaintext_columns)
            .field("aad_prefix", &self.aad_prefix)
            .field("store_aad_prefix", &self.store_aad_prefix)
            .field("empty_aad", &self.empty_aad)
            .finish()
    }
}

impl PartialEq for EncryptionOptions {
    fn eq(&self, other: &Self) -> bool {
        let keys = |o: &Self| {
            o.column_keys
                .iter()
                .map(|(p, (k, m))| (p.clone(), (k.as_bytes().to_vec(), m.clone())))
                .collect::<HashMap<_, _>>()
        };
        self.algorithm == other.algorithm
            && self.footer_key.as_bytes() == other.footer_key.as_bytes()
            && self.footer_key_metadata == other.footer_key_metadata
            && self.plaintext_footer == other.plaintext_footer
            && keys(self) == keys(other)
            && self.plaintext_columns == other.plaintext_columns
            && self.aad_prefix == other.aad_prefix
            && self.store_aad_prefix == other.store_aad_prefix
            && self.empty_aad == other.empty_aad
    }
}

impl EncryptionOptions {
    /// Every column and the footer encrypted with `footer_key`, by AES_GCM_V1.
    pub fn new(footer_key: Key) -> Self {
        Self {
            algorithm: Algorithm::AesGcmV1,
            footer_key,
            footer_key_metadata: None,
            plaintext_footer: false,
            column_keys: HashMap::new(),
            plaintext_columns: HashSet::new(),
            aad_prefix: None,
            store_aad_prefix: true,
            empty_aad: false,
        }
    }

    /// The algorithm: AES_GCM_V1 (every module authenticated) or AES_GCM_CTR_V1 (page
    /// bodies by CTR, faster and not authenticated).
    #[must_use]
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// What a reader's key retriever is given to find the footer key (a key id).
    #[must_use]
    pub fn with_footer_key_metadata(mut self, metadata: Vec<u8>) -> Self {
        self.footer_key_metadata = Some(metadata);
        self
    }

    /// Keeps the footer in plaintext, signed with the footer key: readers without keys
    /// read the schema and the plaintext columns.
    #[must_use]
    pub fn with_plaintext_footer(mut self, plaintext: bool) -> Self {
        self.plaintext_footer = plaintext;
        self
    }

    /// Encrypts the leaf column at `path` with `key`; `metadata` is what a reader's key
    /// retriever is given to find it.
    #[must_use]
    pub fn with_column_key(
        mut self,
        path: impl Into<ColumnPath>,
        key: Key,
        metadata: Option<Vec<u8>>,
    ) -> Self {
        self.column_keys.insert(path.into(), (key, metadata));
        self
    }

    /// Leaves the leaf column at `path` in plaintext.
    #[must_use]
    pub fn with_plaintext_column(mut self, path: impl Into<ColumnPath>) -> Self {
        self.plaintext_columns.insert(path.into());
        self
    }

    /// Writes the file as DuckDB does: no `aad_file_unique`, every module authenticated
    /// with an empty AAD rather than the specification's (which binds each module to its
    /// file and its place in it), and page headers giving sizes before encryption.
    /// Readers that follow the specification refuse such files (ours reads both). An
    /// AAD prefix is then ignored; the footer must be encrypted.
    ///
    /// DuckDB 2.0 reads uniform AES_GCM_V1 files of either layout, when each column chunk
    /// is one version 1 data page (as DuckDB writes them; give the writer a page size
    /// above the row group's), and refuses column keys, plaintext footers, AAD prefixes
    /// and AES_GCM_CTR_V1 (measured by `cargo xtask interop ours-`).
    #[must_use]
    pub fn with_empty_aad(mut self, empty: bool) -> Self {
        self.empty_aad = empty;
        self
    }

    /// An AAD prefix (a file name, say) that binds the file's modules to it; stored in
    /// the file, or (`store` false) to be supplied by its readers.
    #[must_use]
    pub fn with_aad_prefix(mut self, prefix: Vec<u8>, store: bool) -> Self {
        self.aad_prefix = Some(prefix);
        self.store_aad_prefix = store;
        self
    }
}

/// How one column is encrypted.
pub(crate) enum ColumnCrypto {
    Plaintext,
    FooterKey(ModuleCipher),
    ColumnKey {
        cipher: ModuleCipher,
        key_metadata: Option<Vec<u8>>,
    },
}

impl ColumnCrypto {
    pub(crate) fn cipher(&self) -> Option<&ModuleCipher> {
        match self {
            Self::Plaintext => None,
            Self::FooterKey(cipher) | Self::ColumnKey { cipher, .. } => Some(cipher),
        }
    }
}

/// The ciphers of a file being written.
pub(crate) struct FileEncryption {
    pub options: EncryptionOptions,
    pub aad_file_unique: Vec<u8>,
    pub file_aad: Vec<u8>,
    pub columns: Vec<ColumnCrypto>,
}

impl FileEncryption {
    /// The ciphers of a new file of `schema`, with a fresh `aad_file_unique`.
    pub(crate) fn new(options: &EncryptionOptions, schema: &Schema) -> Result<Self> {
        for path in options.column_keys.keys().chain(&options.plaintext_columns) {
            if schema.column_index(path).is_none() {
                return Err(Error::input(format!(
                    "encryption options for {path}, which is not a leaf column"
                )));
            }
        }
        if let Some(path) = options
            .plaintext_columns
            .iter()
            .find(|p| options.column_keys.contains_key(*p))
        {
            return Err(Error::input(format!(
                "column {path} is both in plaintext and given a key"
            )));
        }
        if options.empty_aad && options.plaintext_footer {
            return Err(Error::input(
                "an empty AAD (DuckDB's way) with a plaintext footer, which DuckDB never \
                 writes and readers cannot tell from the specification's",
            ));
        }
        let aad_file_unique = if options.empty_aad {
            Vec::new()
        } else {
            parquet_crypto::new_aad_file_unique()
                .crypto("a random aad_file_unique")?
                .to_vec()
        };
        let prefix = options.aad_prefix.as_deref().unwrap_or_default();
        let file_aad = parquet_crypto::file_aad(prefix, &aad_file_unique);
        let cipher = |key: &Key| {
            if options.empty_aad {
                ModuleCipher::without_aad(key, options.algorithm)
            } else {
                ModuleCipher::new(key, options.algorithm, &file_aad)
            }
        };
        let footer = cipher(&options.footer_key);
        let columns = schema
            .columns()
            .iter()
            .map(|column| {
                if options.plaintext_columns.contains(&column.path) {
                    ColumnCrypto::Plaintext
                } else if let Some((key, metadata)) = options.column_keys.get(&column.path) {
                    ColumnCrypto::ColumnKey {
                        cipher: cipher(key),
                        key_metadata: metadata.clone(),
                    }
                } else {
                    ColumnCrypto::FooterKey(footer.clone())
                }
            })
            .collect();
        Ok(Self {
            options: options.clone(),
            aad_file_unique,
            file_aad,
            columns,
        })
    }

    /// The algorithm as parquet.thrift stores it.
    pub(crate) fn algorithm(&self) -> parquet_thrift::EncryptionAlgorithm<'_> {
        use std::borrow::Cow;
        let prefix = self
            .options
            .aad_prefix
            .as_deref()
            .filter(|_| !self.options.empty_aad);
        let stored_prefix = prefix
            .filter(|_| self.options.store_aad_prefix)
            .map(Cow::Borrowed);
        let supply = (prefix.is_some() && !self.options.store_aad_prefix).then_some(true);
        let unique =
            (!self.options.empty_aad).then_some(Cow::Borrowed(self.aad_file_unique.as_slice()));
        match self.options.algorithm {
            Algorithm::AesGcmV1 => {
                parquet_thrift::EncryptionAlgorithm::AesGcmV1(parquet_thrift::AesGcmV1 {
                    aad_prefix: stored_prefix,
                    aad_file_unique: unique,
                    supply_aad_prefix: supply,
                })
            }
            Algorithm::AesGcmCtrV1 => {
                parquet_thrift::EncryptionAlgorithm::AesGcmCtrV1(parquet_thrift::AesGcmCtrV1 {
                    aad_prefix: stored_prefix,
                    aad_file_unique: unique,
                    supply_aad_prefix: supply,
                })
            }
        }
    }
}
