//! The footer: magic, length, decryption or signature check, `FileMetaData`, schema.

use std::sync::Arc;

use parquet_crypto::{Module, ModuleCipher};
use parquet_thrift::{
    ColumnChunk, ColumnCryptoMetaData, ColumnMetaData, FileCryptoMetaData, FileMetaData, RowGroup,
};

use crate::decryption::{DecryptionOptions, FileCrypto};
use crate::error::{Context, Error, Result};
use crate::schema::Schema;
use crate::source::Source;
use crate::statistics::ColumnStatistics;

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

/// How one column chunk is protected, and the cipher to read it with.
#[derive(Clone)]
pub(crate) enum ChunkCipher {
    Plaintext,
    Cipher(Arc<ModuleCipher>),
    /// Encrypted with a key the reader does not have: the message says which.
    NoKey(String),
}

/// The metadata of a file: its decoded footer, schema and encryption state.
pub struct ParquetMetaData {
    file: FileMetaData<'static>,
    schema: Arc<Schema>,
    protection: FooterProtection,
    footer_len: u64,
    file_len: u64,
    crypto: Option<FileCrypto>,
    /// Per row group, per column.
    ciphers: Vec<Vec<ChunkCipher>>,
}

impl std::fmt::Debug for ParquetMetaData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetMetaData")
            .field("file", &self.file)
            .field("protection", &self.protection)
            .finish_non_exhaustive()
    }
}

impl ParquetMetaData {
    /// Reads and checks the footer of `source`.
    ///
    /// # Errors
    ///
    /// A file too short to hold a footer, bad magic, a footer length past the start of
    /// the file, a footer that does not decode, decrypt or authenticate, a schema that
    /// breaks the format's rules, or row groups whose column count differs from the
    /// schema's.
    pub fn read(source: &impl Source, options: &DecryptionOptions) -> Result<Self> {
        let file_len = source.len()?;
        if file_len < 12 {
            return Err(Error::invalid(format!(
                "not a Parquet file: {file_len} bytes, fewer than the 12 of the magic and footer length"
            )));
        }
        let head = source.read_at(0, 4)?;
        let tail = source.read_at(file_len - 8, 8)?;
        let magic = &tail[4..8];
        if magic != MAGIC && magic != MAGIC_ENCRYPTED {
            return Err(Error::invalid(format!(
                "not a Parquet file: the last 4 bytes are {:?}, not \"PAR1\" or \"PARE\"",
                magic.escape_ascii().to_string()
            )));
        }
        if head.as_ref() != magic {
            return Err(Error::invalid(format!(
                "not a Parquet file: it starts with {:?} but ends with {:?}",
                head.escape_ascii().to_string(),
                magic.escape_ascii().to_string()
            )));
        }
        let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
        if footer_len > file_len - 12 {
            return Err(Error::invalid(format!(
                "footer length {footer_len} is more than the {} bytes between the magic numbers",
                file_len - 12
            )));
        }
        let footer_start = file_len - 8 - footer_len;
        #[allow(clippy::cast_possible_truncation)] // at most u32::MAX
        let footer = source.read_at(footer_start, footer_len as usize)?;
        let (file, protection, crypto) = if magic == MAGIC_ENCRYPTED {
            let (crypto_meta, used) =
                FileCryptoMetaData::read_from(&footer).at_offset(footer_start)?;
            let crypto = FileCrypto::new(&crypto_meta.encryption_algorithm, options)?;
            let Some(key) = options.footer_key(crypto_meta.key_metadata.as_deref())? else {
                return Err(Error::argument(
                    "the footer is encrypted: a footer key is needed",
                ));
            };
            let plaintext = parquet_crypto::decrypt_footer(&key, &crypto.file_aad, &footer[used..])
                .at_offset(footer_start + used as u64)?;
            let (file, _) = FileMetaData::read_from(&plaintext).at_offset(footer_start)?;
            let crypto = crypto.with_footer_key(key);
            (file.into_owned(), FooterProtection::Encrypted, Some(crypto))
        } else {
            let (file, used) = FileMetaData::read_from(&footer).at_offset(footer_start)?;
            match &file.encryption_algorithm {
                None => (file.into_owned(), FooterProtection::None, None),
                Some(algorithm) => {
                    let mut crypto = FileCrypto::new(algorithm, options)?;
                    let key = options.footer_key(file.footer_signing_key_metadata.as_deref())?;
                    let protection = match key {
                        Some(key) if options.verifies_signature() => {
                            let signature = footer[used..].try_into().map_err(|_| {
                                Error::invalid(format!(
                                    "signed footer: {} bytes after the metadata, not the 28 of a signature",
                                    footer.len() - used
                                ))
                            })?;
                            parquet_crypto::verify_footer_signature(
                                &key,
                                &crypto.file_aad,
                                &footer[..used],
                                signature,
                            )
                            .at_offset(footer_start)?;
                            crypto = crypto.with_footer_key(key);
                            FooterProtection::SignatureVerified
                        }
                        Some(key) => {
                            crypto = crypto.with_footer_key(key);
                            FooterProtection::SignatureNotVerified
                        }
                        None => FooterProtection::SignatureNotVerified,
                    };
                    (file.into_owned(), protection, Some(crypto))
                }
            }
        };
        Self::new(file, protection, crypto, options, footer_len, file_len)
    }

    fn new(
        mut file: FileMetaData<'static>,
        protection: FooterProtection,
        crypto: Option<FileCrypto>,
        options: &DecryptionOptions,
        footer_len: u64,
        file_len: u64,
    ) -> Result<Self> {
        let schema = Schema::try_from_elements(&file.schema)?;
        let num_columns = schema.columns().len();
        if file.num_rows < 0 {
            return Err(Error::invalid(format!(
                "negative number of rows: {}",
                file.num_rows
            )));
        }
        let mut ciphers = Vec::with_capacity(file.row_groups.len());
        for (index, row_group) in file.row_groups.iter_mut().enumerate() {
            if row_group.columns.len() != num_columns {
                return Err(Error::invalid(format!(
                    "{} column chunks, but the schema has {num_columns} columns",
                    row_group.columns.len()
                ))
                .in_row_group(index));
            }
            if row_group.num_rows < 0 {
                return Err(Error::invalid(format!(
                    "negative number of rows: {}",
                    row_group.num_rows
                ))
                .in_row_group(index));
            }
            let ordinal = module_ordinal(row_group, index);
            let mut row_ciphers = Vec::with_capacity(num_columns);
            for (column, chunk) in row_group.columns.iter_mut().enumerate() {
                let name = &schema.column(column).name;
                let cipher = chunk_cipher(chunk, crypto.as_ref(), options, name);
                if let ChunkCipher::Cipher(cipher) = &cipher {
                    decrypt_column_metadata(chunk, cipher, ordinal, column)
                        .in_row_group(index)
                        .in_column(name)?;
                }
                row_ciphers.push(cipher);
            }
            ciphers.push(row_ciphers);
        }
        Ok(Self {
            file,
            schema: Arc::new(schema),
            protection,
            footer_len,
            file_len,
            crypto,
            ciphers,
        })
    }

    /// The decoded `FileMetaData`.
    pub fn file_metadata(&self) -> &FileMetaData<'static> {
        &self.file
    }

    /// The schema.
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// The row groups.
    pub fn row_groups(&self) -> &[RowGroup<'static>] {
        &self.file.row_groups
    }

    /// The number of rows in the file.
    pub fn num_rows(&self) -> i64 {
        self.file.num_rows
    }

    /// How the footer is protected.
    pub fn footer_protection(&self) -> FooterProtection {
        self.protection
    }

    /// The length of the footer (the bytes before the final length and magic).
    pub fn footer_len(&self) -> u64 {
        self.footer_len
    }

    /// The length of the file.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// The end of the column data: the offset of the footer (for an encrypted footer, of
    /// its crypto metadata).
    pub fn data_end(&self) -> u64 {
        self.file_len - 8 - self.footer_len
    }

    /// Whether the writer is a parquet-mr older than 1.2.9 (or one that gives no
    /// version), whose column chunk sizes leave out the dictionary page header
    /// (PARQUET-816, IMPALA-694).
    pub fn understates_chunk_sizes(&self) -> bool {
        self.file
            .created_by
            .as_deref()
            .is_some_and(parquet_mr_before_1_2_9)
    }

    /// Whether the file is encrypted (its footer, or some of its columns).
    pub fn is_encrypted(&self) -> bool {
        self.crypto.is_some()
    }

    /// The decoded statistics of a column chunk, when it has statistics.
    ///
    /// # Errors
    ///
    /// As [`ParquetMetaData::column_metadata`].
    pub fn column_statistics(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Option<ColumnStatistics>> {
        let meta = self.column_metadata(row_group, column)?;
        let order = self.file.column_orders.as_ref().and_then(|o| o.get(column));
        Ok(meta
            .statistics
            .as_ref()
            .map(|s| ColumnStatistics::decode(self.schema.column(column), order, s)))
    }

    /// The ordinal a row group's modules are encrypted with.
    pub(crate) fn row_group_ordinal(&self, index: usize) -> usize {
        module_ordinal(&self.file.row_groups[index], index)
    }

    pub(crate) fn cipher(&self, row_group: usize, column: usize) -> &ChunkCipher {
        &self.ciphers[row_group][column]
    }

    /// The metadata of a column chunk.
    ///
    /// # Errors
    ///
    /// When the chunk has none (it is encrypted with a key the reader does not have, or
    /// the writer left it out).
    pub fn column_metadata(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<&ColumnMetaData<'static>> {
        let chunk = &self.file.row_groups[row_group].columns[column];
        match (&chunk.meta_data, &self.ciphers[row_group][column]) {
            (_, ChunkCipher::NoKey(message)) => Err(Error::argument(message.clone())),
            (Some(meta), _) => Ok(meta),
            (None, _) => Err(Error::invalid("column chunk without metadata")),
        }
        .in_row_group(row_group)
        .in_column(&self.schema.column(column).name)
    }
}

/// Whether `created_by` names parquet-mr before 1.2.9: "parquet-mr version 1.2.8 (build
/// ...)", or a bare "parquet-mr".
pub(crate) fn parquet_mr_before_1_2_9(created_by: &str) -> bool {
    let Some(rest) = created_by.strip_prefix("parquet-mr") else {
        return false;
    };
    let version: Vec<u32> = rest
        .trim_start()
        .strip_prefix("version ")
        .and_then(|v| v.split([' ', '-']).next())
        .map(|v| v.split('.').map_while(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    version < vec![1, 2, 9]
}

/// The ordinal in the AADs of row group `index`'s modules: its `ordinal` field when the
/// writer set one, else its position.
fn module_ordinal(row_group: &RowGroup<'_>, index: usize) -> usize {
    row_group
        .ordinal
        .map_or(index, |o| usize::try_from(o).unwrap_or(index))
}

fn chunk_cipher(
    chunk: &ColumnChunk<'_>,
    crypto: Option<&FileCrypto>,
    options: &DecryptionOptions,
    name: &str,
) -> ChunkCipher {
    let (Some(crypto), Some(meta)) = (crypto, chunk.crypto_metadata.as_deref()) else {
        return ChunkCipher::Plaintext;
    };
    let key = match meta {
        ColumnCryptoMetaData::EncryptionWithFooterKey(_) => Ok(crypto.footer_key.clone()),
        ColumnCryptoMetaData::EncryptionWithColumnKey(c) => {
            options.column_key(name, c.key_metadata.as_deref())
        }
        ColumnCryptoMetaData::Unrecognized(m) => {
            return ChunkCipher::NoKey(format!(
                "column encrypted in an unknown way (field id {})",
                m.id
            ));
        }
        _ => {
            return ChunkCipher::NoKey("column encrypted in an unknown way".into());
        }
    };
    match key {
        Ok(Some(key)) => ChunkCipher::Cipher(Arc::new(crypto.cipher(&key))),
        Ok(None) => ChunkCipher::NoKey(format!("column {name} is encrypted: its key is needed")),
        Err(e) => ChunkCipher::NoKey(format!("column {name} is encrypted: {e}")),
    }
}

/// Replaces the chunk's plaintext metadata (absent, or stripped by a plaintext-footer
/// writer) with the decrypted `encrypted_column_metadata`, when there is one.
fn decrypt_column_metadata(
    chunk: &mut ColumnChunk<'static>,
    cipher: &ModuleCipher,
    row_group: usize,
    column: usize,
) -> Result<()> {
    let Some(encrypted) = chunk.encrypted_column_metadata.as_deref() else {
        return Ok(());
    };
    let mut plaintext = Vec::new();
    cipher.decrypt(
        Module::ColumnMetaData { row_group, column },
        encrypted,
        &mut plaintext,
    )?;
    let (meta, _) = ColumnMetaData::read_from(&plaintext)?;
    chunk.meta_data = Some(meta.into_owned());
    Ok(())
}
