//! The encrypted files of parquet-testing (written by Arrow C++), read with the keys its
//! README gives: footers decrypted or their signatures verified, and every module of every
//! encrypted column chunk (column metadata, page headers, pages, column and offset
//! indexes) decrypted with the AAD of its place in the file.
//!
//! Run with `cargo xtask corpus`, which sets `PARQUET_KIT_CORPUS` to `../shared/corpus`.
//! The Thrift structures are read with `parquet-thrift`, a dev-dependency only.

// Test code: helpers panic on anything unexpected, like the tests that call them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::borrow::Cow;
use std::fmt::Display;
use std::path::PathBuf;

use parquet_core::Cursor;
use parquet_crypto::{
    Algorithm, Error, FOOTER_SIGNATURE_LEN, FixedKey, Key, KeyMap, KeyRetriever, Module,
    ModuleCipher, ModuleType, decrypt_footer, file_aad, verify_footer_signature,
};
use parquet_thrift::{
    ColumnChunk, ColumnCryptoMetaData, ColumnIndex, ColumnMetaData, CompressionCodec,
    EncryptionAlgorithm, FileCryptoMetaData, FileMetaData, OffsetIndex, PageHeader, PageType,
    ReadThrift, Type,
};

fn read(name: &str) -> Vec<u8> {
    let corpus = std::env::var_os("PARQUET_KIT_CORPUS").unwrap_or_else(|| {
        panic!("PARQUET_KIT_CORPUS is not set: run `cargo xtask corpus` (it points it at ../shared/corpus)")
    });
    let path = PathBuf::from(corpus)
        .join("parquet-testing")
        .join("data")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn keys() -> KeyMap {
    KeyMap::new()
        .with("kf", Key::try_new(b"0123456789012345").unwrap())
        .with("kc1", Key::try_new(b"1234567890123450").unwrap())
        .with("kc2", Key::try_new(b"1234567890123451").unwrap())
}

/// Reads one `T` from the start of `bytes`, which it must fill exactly.
fn read_whole<'a, T: ReadThrift<'a>>(bytes: &'a [u8], what: impl Display) -> T {
    let (value, used) = T::read_from(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(used, bytes.len(), "{what}: bytes after the structure");
    value
}

// ---------------------------------------------------------------------------------------
// The file tail and the encryption algorithm

/// The footer region (between the footer length field and the last magic) and the magic.
fn tail(file: &[u8]) -> (&[u8], &[u8]) {
    let (rest, magic) = file.split_at(file.len() - 4);
    let (rest, len) = rest.split_at(rest.len() - 4);
    let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
    assert_eq!(&file[..4], magic, "magic at both ends");
    (&rest[rest.len() - len..], magic)
}

/// A binary field read from a file: the reader borrows it from the file's bytes.
fn borrowed<'a>(value: &Cow<'a, [u8]>) -> &'a [u8] {
    match value {
        Cow::Borrowed(bytes) => bytes,
        Cow::Owned(_) => panic!("a binary field read from a slice is borrowed"),
    }
}

/// An `EncryptionAlgorithm` union, read.
#[derive(Debug)]
struct AlgorithmParams<'a> {
    algorithm: Algorithm,
    aad_prefix: Option<&'a [u8]>,
    aad_file_unique: &'a [u8],
    supply_aad_prefix: bool,
}

fn encryption_algorithm<'a>(union: &EncryptionAlgorithm<'a>) -> AlgorithmParams<'a> {
    // The two members have the same fields.
    let (algorithm, aad_prefix, aad_file_unique, supply_aad_prefix) = match union {
        EncryptionAlgorithm::AesGcmV1(params) => (
            Algorithm::AesGcmV1,
            &params.aad_prefix,
            &params.aad_file_unique,
            params.supply_aad_prefix,
        ),
        EncryptionAlgorithm::AesGcmCtrV1(params) => (
            Algorithm::AesGcmCtrV1,
            &params.aad_prefix,
            &params.aad_file_unique,
            params.supply_aad_prefix,
        ),
        other => panic!("unknown encryption algorithm {}", other.field_id()),
    };
    AlgorithmParams {
        algorithm,
        aad_prefix: aad_prefix.as_ref().map(borrowed),
        aad_file_unique: borrowed(aad_file_unique.as_ref().expect("aad_file_unique")),
        supply_aad_prefix: supply_aad_prefix.unwrap_or(false),
    }
}

/// A file with an encrypted footer (`PARE`): its algorithm, footer key metadata and the
/// footer module.
fn encrypted_footer_file(file: &[u8]) -> (AlgorithmParams<'_>, &[u8], &[u8]) {
    let (region, magic) = tail(file);
    assert_eq!(magic, b"PARE");
    let (crypto_metadata, used) =
        FileCryptoMetaData::read_from(region).unwrap_or_else(|e| panic!("{e}"));
    let algorithm = encryption_algorithm(&crypto_metadata.encryption_algorithm);
    let key_metadata = borrowed(crypto_metadata.key_metadata.as_ref().expect("key_metadata"));
    (algorithm, key_metadata, &region[used..])
}

/// Reads `plaintext` as a whole thrift `FileMetaData` of the 50-row test files: one row
/// group, which holds the 8 columns of the schema.
fn check_file_metadata(plaintext: &[u8]) -> FileMetaData<'_> {
    // Field 1 (delta 1), type i32 (5): `version`.
    assert_eq!(plaintext[0], 0x15, "FileMetaData opens with field 1, i32");
    let metadata = read_whole::<FileMetaData>(plaintext, "footer");
    assert_eq!(metadata.num_rows, 50, "num_rows");
    assert_eq!(metadata.row_groups.len(), 1, "one row group");
    let row_group = &metadata.row_groups[0];
    assert_eq!(row_group.num_rows, 50, "RowGroup.num_rows");
    let leaves = metadata.schema.iter().filter(|e| e.num_children.is_none());
    assert_eq!(
        row_group.columns.len(),
        leaves.count(),
        "one chunk per leaf"
    );
    assert_eq!(row_group.columns.len(), 8);
    metadata
}

// ---------------------------------------------------------------------------------------
// Column chunks: every encrypted module, at its place

/// What reading the encrypted columns of a file found.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    columns: usize,
    dictionary_pages: usize,
    data_pages: usize,
    indexes: usize,
}

/// Reads every encrypted column chunk of a file whose footer is `metadata`: decrypts the
/// `ColumnMetaData` of the chunks with a column key (which the footer key must not open),
/// then every page header and page, and the column and offset indexes.
fn check_columns(
    file: &[u8],
    metadata: &FileMetaData<'_>,
    algorithm: Algorithm,
    file_aad: &[u8],
    footer_key: &Key,
    keys: &dyn KeyRetriever,
) -> Seen {
    let file = EncryptedFile {
        bytes: file,
        algorithm,
        file_aad,
        footer_key,
        keys,
        // A plaintext footer says how the file is encrypted; an encrypted one need not.
        plaintext_footer: metadata.encryption_algorithm.is_some(),
    };
    let mut seen = Seen::default();
    for (row_group, rg) in metadata.row_groups.iter().enumerate() {
        assert_eq!(
            rg.ordinal.map(usize::try_from),
            Some(Ok(row_group)),
            "RowGroup.ordinal"
        );
        for (column, chunk) in rg.columns.iter().enumerate() {
            let Some(crypto) = chunk.crypto_metadata.as_deref() else {
                assert!(chunk.meta_data.is_some(), "a plaintext column's meta_data");
                continue;
            };
            seen.columns += 1;
            let (key, column_metadata) = file.column_metadata(chunk, crypto, row_group, column);
            let cipher = ModuleCipher::new(&key, algorithm, file_aad);
            let (dictionary_pages, data_pages) =
                file.check_pages(&cipher, &column_metadata, row_group, column);
            seen.dictionary_pages += dictionary_pages;
            seen.data_pages += data_pages.len();
            seen.indexes += file.check_indexes(&cipher, chunk, row_group, column, &data_pages);
        }
    }
    seen
}

/// An encrypted file being read, with what decrypting its modules takes.
struct EncryptedFile<'a> {
    bytes: &'a [u8],
    algorithm: Algorithm,
    file_aad: &'a [u8],
    footer_key: &'a Key,
    keys: &'a dyn KeyRetriever,
    plaintext_footer: bool,
}

impl EncryptedFile<'_> {
    /// The key of a column chunk and its `ColumnMetaData`: the footer key and the footer's
    /// copy, or the column's own key and the copy encrypted with it.
    fn column_metadata<'m>(
        &self,
        chunk: &ColumnChunk<'m>,
        crypto: &ColumnCryptoMetaData<'_>,
        row_group: usize,
        column: usize,
    ) -> (Key, ColumnMetaData<'m>) {
        let with_key = match crypto {
            ColumnCryptoMetaData::EncryptionWithColumnKey(with_key) => with_key,
            ColumnCryptoMetaData::EncryptionWithFooterKey(_) => {
                return (
                    self.footer_key.clone(),
                    chunk.meta_data.clone().expect("meta_data"),
                );
            }
            other => panic!("unknown column encryption {}", other.field_id()),
        };
        let key = self
            .keys
            .retrieve_key(with_key.key_metadata.as_deref().unwrap())
            .unwrap();
        let cipher = ModuleCipher::new(&key, self.algorithm, self.file_aad);
        let encrypted = chunk
            .encrypted_column_metadata
            .as_deref()
            .expect("encrypted_column_metadata");
        let mut plaintext = Vec::new();
        let module = Module::ColumnMetaData { row_group, column };
        assert_eq!(
            cipher.decrypt(module, encrypted, &mut plaintext).unwrap(),
            encrypted.len()
        );
        // The footer key does not open it.
        assert_eq!(
            ModuleCipher::new(self.footer_key, self.algorithm, self.file_aad).decrypt(
                module,
                encrypted,
                &mut Vec::new()
            ),
            Err(Error::Authentication {
                module: ModuleType::ColumnMetaData
            })
        );
        let column_metadata = read_whole::<ColumnMetaData>(&plaintext, module).into_owned();
        assert_eq!(
            column_metadata.path_in_schema[..],
            with_key.path_in_schema[..],
            "{module}: path_in_schema"
        );
        // An encrypted footer leaves it out; a plaintext footer keeps a copy without the
        // statistics.
        if self.plaintext_footer {
            let stripped = ColumnMetaData {
                statistics: None,
                encoding_stats: None,
                ..column_metadata.clone()
            };
            assert_eq!(chunk.meta_data.as_ref(), Some(&stripped), "{module}");
        } else {
            assert_eq!(chunk.meta_data, None, "{module}");
        }
        (key, column_metadata)
    }

    /// Decrypts the pages of a column chunk, header and body, from its first page (the
    /// dictionary page if it has one) to its end. Returns the number of dictionary pages,
    /// and where each data page starts and its size, header included.
    fn check_pages(
        &self,
        cipher: &ModuleCipher,
        metadata: &ColumnMetaData<'_>,
        row_group: usize,
        column: usize,
    ) -> (usize, Vec<(usize, usize)>) {
        assert_eq!(metadata.codec, CompressionCodec::SNAPPY);
        let float = metadata.type_ == Type::FLOAT;
        let dictionary_offset = metadata.dictionary_page_offset;
        let start =
            usize::try_from(dictionary_offset.unwrap_or(metadata.data_page_offset)).unwrap();
        let end = start + usize::try_from(metadata.total_compressed_size).unwrap();
        let chunk = &self.bytes[..end];

        let mut pos = start;
        let mut num_values = 0;
        let mut dictionary_pages = 0;
        let mut data_pages = Vec::new();
        while pos < end {
            let page = data_pages.len();
            let dictionary = pos == start && dictionary_offset.is_some();
            let (header_module, page_module) = if dictionary {
                (
                    Module::DictionaryPageHeader { row_group, column },
                    Module::DictionaryPage { row_group, column },
                )
            } else {
                (
                    Module::DataPageHeader {
                        row_group,
                        column,
                        page,
                    },
                    Module::DataPage {
                        row_group,
                        column,
                        page,
                    },
                )
            };
            let page_start = pos;
            let mut header = Vec::new();
            let used = cipher
                .decrypt(header_module, &chunk[pos..], &mut header)
                .unwrap_or_else(|e| panic!("{header_module}: {e}"));
            if !dictionary && page == 0 {
                // The header of page 0 read as page 1's does not authenticate.
                let moved = Module::DataPageHeader {
                    row_group,
                    column,
                    page: 1,
                };
                assert_eq!(
                    cipher.decrypt(moved, &chunk[pos..], &mut Vec::new()),
                    Err(Error::Authentication {
                        module: ModuleType::DataPageHeader
                    })
                );
            }
            pos += used;
            let header = read_whole::<PageHeader>(&header, header_module);
            if dictionary {
                assert_eq!(header.type_, PageType::DICTIONARY_PAGE, "page type");
                let dictionary = header.dictionary_page_header.as_ref().unwrap();
                assert!(dictionary.num_values > 0, "{header_module}: num_values");
            } else {
                assert_eq!(header.type_, PageType::DATA_PAGE, "page type");
                num_values += i64::from(header.data_page_header.as_ref().unwrap().num_values);
            }
            let uncompressed = usize::try_from(header.uncompressed_page_size).unwrap();
            let compressed = usize::try_from(header.compressed_page_size).unwrap();

            let mut body = Vec::new();
            let used = cipher
                .decrypt(page_module, &chunk[pos..], &mut body)
                .unwrap_or_else(|e| panic!("{page_module}: {e}"));
            // The header's compressed size counts the whole module.
            assert_eq!(used, compressed, "{page_module}");
            assert_eq!(used, body.len() + self.algorithm.overhead(page_module));
            pos += used;
            check_snappy_page(&body, uncompressed, dictionary && float);
            if dictionary {
                dictionary_pages += 1;
            } else {
                data_pages.push((page_start, pos - page_start));
            }
        }
        assert_eq!(pos, end);
        assert_eq!(num_values, metadata.num_values, "values of the data pages");
        (dictionary_pages, data_pages)
    }

    /// Decrypts the offset index and column index of a column chunk, if it has them, and
    /// checks them against its data pages (where each starts, and its size). Returns how
    /// many there were.
    fn check_indexes(
        &self,
        cipher: &ModuleCipher,
        chunk: &ColumnChunk<'_>,
        row_group: usize,
        column: usize,
        data_pages: &[(usize, usize)],
    ) -> usize {
        let mut indexes = 0;
        for (location, module) in [
            (
                chunk.offset_index_offset.zip(chunk.offset_index_length),
                Module::OffsetIndex { row_group, column },
            ),
            (
                chunk.column_index_offset.zip(chunk.column_index_length),
                Module::ColumnIndex { row_group, column },
            ),
        ] {
            let Some((offset, len)) = location else {
                continue;
            };
            let offset = usize::try_from(offset).unwrap();
            let len = usize::try_from(len).unwrap();
            let mut index = Vec::new();
            let used = cipher
                .decrypt(module, &self.bytes[offset..offset + len], &mut index)
                .unwrap_or_else(|e| panic!("{module}: {e}"));
            assert_eq!(used, len);
            if module.module_type() == ModuleType::OffsetIndex {
                // One PageLocation per data page, each where the page is.
                let index = read_whole::<OffsetIndex>(&index, module);
                let locations: Vec<(usize, usize)> = index
                    .page_locations
                    .iter()
                    .map(|location| {
                        (
                            usize::try_from(location.offset).unwrap(),
                            usize::try_from(location.compressed_page_size).unwrap(),
                        )
                    })
                    .collect();
                assert_eq!(locations, data_pages, "{module}");
                assert_eq!(index.page_locations[0].first_row_index, 0);
            } else {
                let index = read_whole::<ColumnIndex>(&index, module);
                let pages = data_pages.len();
                assert_eq!(index.null_pages.len(), pages, "{module}: null_pages");
                assert_eq!(index.min_values.len(), pages, "{module}: min_values");
                assert_eq!(index.max_values.len(), pages, "{module}: max_values");
            }
            indexes += 1;
        }
        indexes
    }
}

/// Checks a decrypted page body: SNAPPY, whose stream opens with the uncompressed length
/// as a varint; for the FLOAT dictionary pages, the one literal holds the 50 values
/// `i * 1.1f`.
fn check_snappy_page(body: &[u8], uncompressed: usize, float_dictionary: bool) {
    let mut cursor = Cursor::new(body);
    let length = cursor.read_uleb128_u64("snappy length").unwrap();
    assert_eq!(length, uncompressed as u64, "snappy length");
    if float_dictionary {
        let tag = cursor.read_u8("snappy tag").unwrap();
        assert_eq!(tag, 60 << 2, "a literal with a 1-byte length");
        let len = usize::from(cursor.read_u8("literal length").unwrap()) + 1;
        assert_eq!(len, 200);
        let values: Vec<f32> = cursor
            .read_bytes(len, "literal")
            .unwrap()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        let expected: Vec<f32> = (0..50u8).map(|i| f32::from(i) * 1.1).collect();
        assert_eq!(values, expected);
    }
}

// ---------------------------------------------------------------------------------------
// The files

/// An encrypted-footer file without AAD prefix: footer, wrong key, wrong AAD, columns.
fn check_encrypted_footer_file(name: &str, expected: Algorithm) {
    let file = read(name);
    let (algorithm, key_metadata, module) = encrypted_footer_file(&file);
    assert_eq!(algorithm.algorithm, expected);
    assert_eq!(algorithm.aad_prefix, None);
    assert!(!algorithm.supply_aad_prefix);
    assert_eq!(key_metadata, b"kf");
    let keys = keys();
    let footer_key = keys.retrieve_key(key_metadata).unwrap();
    let aad = file_aad(b"", algorithm.aad_file_unique);

    let footer = decrypt_footer(&footer_key, &aad, module).unwrap();
    let metadata = check_file_metadata(&footer);

    let failed = Err(Error::Authentication {
        module: ModuleType::Footer,
    });
    let column_key = keys.retrieve_key(b"kc1").unwrap();
    assert_eq!(decrypt_footer(&column_key, &aad, module), failed);
    assert_eq!(
        decrypt_footer(
            &footer_key,
            &file_aad(b"tester", algorithm.aad_file_unique),
            module
        ),
        failed
    );
    let mut other_unique = algorithm.aad_file_unique.to_vec();
    other_unique[0] ^= 1;
    assert_eq!(decrypt_footer(&footer_key, &other_unique, module), failed);
    let mut altered = module.to_vec();
    altered[40] ^= 4;
    assert_eq!(decrypt_footer(&footer_key, &aad, &altered), failed);

    let seen = check_columns(
        &file,
        &metadata,
        algorithm.algorithm,
        &aad,
        &footer_key,
        &keys,
    );
    assert_eq!(
        seen,
        Seen {
            columns: 2,
            dictionary_pages: 2,
            data_pages: 2,
            indexes: 4
        }
    );
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn encrypted_footer_gcm() {
    check_encrypted_footer_file(
        "encrypt_columns_and_footer.parquet.encrypted",
        Algorithm::AesGcmV1,
    );
}

#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn encrypted_footer_gcm_ctr() {
    check_encrypted_footer_file(
        "encrypt_columns_and_footer_ctr.parquet.encrypted",
        Algorithm::AesGcmCtrV1,
    );
}

/// The two files written with the AAD prefix "tester": one stores it, one asks the reader
/// to supply it.
#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn aad_prefix_files() {
    let keys = keys();
    let footer_key = keys.retrieve_key(b"kf").unwrap();
    for (name, stored) in [
        ("encrypt_columns_and_footer_aad.parquet.encrypted", true),
        (
            "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
            false,
        ),
    ] {
        let file = read(name);
        let (algorithm, key_metadata, module) = encrypted_footer_file(&file);
        assert_eq!(key_metadata, b"kf");
        assert_eq!(algorithm.algorithm, Algorithm::AesGcmV1);
        if stored {
            assert_eq!(algorithm.aad_prefix, Some(&b"tester"[..]));
            assert!(!algorithm.supply_aad_prefix);
        } else {
            assert_eq!(algorithm.aad_prefix, None);
            assert!(algorithm.supply_aad_prefix);
        }
        let aad = file_aad(b"tester", algorithm.aad_file_unique);
        let footer = decrypt_footer(&footer_key, &aad, module).unwrap();
        let metadata = check_file_metadata(&footer);

        // Without the prefix, or with another, nothing decrypts.
        for wrong in [
            file_aad(b"", algorithm.aad_file_unique),
            file_aad(b"testers", algorithm.aad_file_unique),
        ] {
            assert_eq!(
                decrypt_footer(&footer_key, &wrong, module),
                Err(Error::Authentication {
                    module: ModuleType::Footer
                })
            );
        }
        let seen = check_columns(
            &file,
            &metadata,
            algorithm.algorithm,
            &aad,
            &footer_key,
            &keys,
        );
        assert_eq!(seen.columns, 2);
        assert_eq!(seen.data_pages, 2);
    }
}

/// Every column encrypted with the footer key, handed to the reader directly.
#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn uniform_encryption() {
    let file = read("uniform_encryption.parquet.encrypted");
    let (algorithm, key_metadata, module) = encrypted_footer_file(&file);
    assert_eq!(key_metadata, b"kf");
    let retriever = FixedKey::new(Key::try_new(b"0123456789012345").unwrap());
    let footer_key = retriever.retrieve_key(key_metadata).unwrap();
    let aad = file_aad(b"", algorithm.aad_file_unique);
    let footer = decrypt_footer(&footer_key, &aad, module).unwrap();
    let metadata = check_file_metadata(&footer);
    let seen = check_columns(
        &file,
        &metadata,
        algorithm.algorithm,
        &aad,
        &footer_key,
        &retriever,
    );
    assert_eq!(seen.columns, 8);
    // An offset index for each column, a column index for all but INT96 (no statistics).
    assert_eq!(seen.indexes, 15);
}

/// A plaintext footer (`PAR1`) signed with the footer key: `FileMetaData`, then the
/// 28-byte signature.
#[test]
#[ignore = "needs ../shared/corpus: cargo xtask corpus"]
fn plaintext_footer_signature() {
    let file = read("encrypt_columns_plaintext_footer.parquet.encrypted");
    let (region, magic) = tail(&file);
    assert_eq!(magic, b"PAR1");
    let (_, used) = FileMetaData::read_from(region).unwrap();
    let (footer, signature) = region.split_at(used);
    let signature: &[u8; FOOTER_SIGNATURE_LEN] = signature.try_into().unwrap();
    let metadata = check_file_metadata(footer);

    // FileMetaData.encryption_algorithm (8) and footer_signing_key_metadata (9).
    let algorithm = encryption_algorithm(metadata.encryption_algorithm.as_ref().unwrap());
    assert_eq!(algorithm.algorithm, Algorithm::AesGcmV1);
    assert_eq!(algorithm.aad_prefix, None);
    let key_metadata = metadata.footer_signing_key_metadata.as_deref().unwrap();
    assert_eq!(key_metadata, b"kf");
    let keys = keys();
    let footer_key = keys.retrieve_key(key_metadata).unwrap();
    let aad = file_aad(b"", algorithm.aad_file_unique);

    verify_footer_signature(&footer_key, &aad, footer, signature).unwrap();

    let failed = Err(Error::Authentication {
        module: ModuleType::Footer,
    });
    for i in [0, footer.len() / 2, footer.len() - 1] {
        let mut altered = footer.to_vec();
        altered[i] ^= 1;
        assert_eq!(
            verify_footer_signature(&footer_key, &aad, &altered, signature),
            failed
        );
    }
    let mut altered = *signature;
    altered[27] ^= 0x10;
    assert_eq!(
        verify_footer_signature(&footer_key, &aad, footer, &altered),
        failed
    );
    let column_key = keys.retrieve_key(b"kc1").unwrap();
    assert_eq!(
        verify_footer_signature(&column_key, &aad, footer, signature),
        failed
    );
    assert_eq!(
        verify_footer_signature(
            &footer_key,
            &file_aad(b"tester", algorithm.aad_file_unique),
            footer,
            signature
        ),
        failed
    );

    // The encrypted columns of a plaintext-footer file carry their real ColumnMetaData
    // encrypted with the column key.
    let seen = check_columns(
        &file,
        &metadata,
        algorithm.algorithm,
        &aad,
        &footer_key,
        &keys,
    );
    assert_eq!(seen.columns, 2);
    assert_eq!(seen.data_pages, 2);
}
