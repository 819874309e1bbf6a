//! The encrypted files of parquet-testing (written by Arrow C++), read with the keys its
//! README gives: footers decrypted or their signatures verified, and every module of every
//! encrypted column chunk (column metadata, page headers, pages, column and offset
//! indexes) decrypted with the AAD of its place in the file.
//!
//! Run with `cargo xtask corpus`, which sets `PARQUET_KIT_CORPUS` to `../shared/corpus`.
//! The thrift compact walker below is test-only and knows just enough of the protocol to
//! find the fields these tests need; the real one is the thrift crate's.

// Test code: helpers panic on anything unexpected, like the tests that call them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation
)]

use parquet_crypto::{
    Algorithm, Error, FOOTER_SIGNATURE_LEN, FixedKey, Key, KeyMap, KeyRetriever, Module,
    ModuleCipher, ModuleType, decrypt_footer, file_aad, verify_footer_signature,
};
use std::path::PathBuf;

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

// ---------------------------------------------------------------------------------------
// A test-only thrift compact protocol walker: every value into a small tree.

#[derive(Debug)]
enum Value<'a> {
    Bool(bool),
    Int(i64),
    Double,
    Binary(&'a [u8]),
    List(Vec<Value<'a>>),
    Struct(Struct<'a>),
}

#[derive(Debug)]
struct Struct<'a>(Vec<(i16, Value<'a>)>);

impl<'a> Struct<'a> {
    fn get(&self, id: i16) -> Option<&Value<'a>> {
        self.0.iter().find(|(i, _)| *i == id).map(|(_, v)| v)
    }
    fn int(&self, id: i16) -> Option<i64> {
        match self.get(id)? {
            Value::Int(v) => Some(*v),
            other => panic!("field {id} is not an integer: {other:?}"),
        }
    }
    fn bool(&self, id: i16) -> Option<bool> {
        match self.get(id)? {
            Value::Bool(v) => Some(*v),
            other => panic!("field {id} is not a bool: {other:?}"),
        }
    }
    fn binary(&self, id: i16) -> Option<&'a [u8]> {
        match self.get(id)? {
            Value::Binary(v) => Some(v),
            other => panic!("field {id} is not binary: {other:?}"),
        }
    }
    fn strukt(&self, id: i16) -> Option<&Struct<'a>> {
        match self.get(id)? {
            Value::Struct(v) => Some(v),
            other => panic!("field {id} is not a struct: {other:?}"),
        }
    }
    fn list(&self, id: i16) -> Option<&[Value<'a>]> {
        match self.get(id)? {
            Value::List(v) => Some(v),
            other => panic!("field {id} is not a list: {other:?}"),
        }
    }
    /// The one set field of a union, with its id.
    fn union(&self) -> (i16, &Struct<'a>) {
        match &self.0[..] {
            [(id, Value::Struct(s))] => (*id, s),
            other => panic!("not a union of structs: {other:?}"),
        }
    }
}

struct Walker<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Walker<'a> {
    /// Reads one struct from the start of `bytes`; returns it and the bytes it took.
    fn parse(bytes: &'a [u8]) -> (Struct<'a>, usize) {
        let mut walker = Walker { bytes, pos: 0 };
        let s = walker.read_struct();
        (s, walker.pos)
    }

    fn byte(&mut self) -> u8 {
        let b = self.bytes[self.pos];
        self.pos += 1;
        b
    }

    fn varint(&mut self) -> u64 {
        let mut value = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte();
            value |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return value;
            }
        }
        panic!("varint too long at {}", self.pos)
    }

    fn zigzag(&mut self) -> i64 {
        let v = self.varint();
        (v >> 1) as i64 ^ -((v & 1) as i64)
    }

    fn read_struct(&mut self) -> Struct<'a> {
        let mut fields = Vec::new();
        let mut last = 0i16;
        loop {
            let header = self.byte();
            if header == 0 {
                return Struct(fields);
            }
            let delta = i16::from(header >> 4);
            let id = if delta == 0 {
                i16::try_from(self.zigzag()).unwrap()
            } else {
                last + delta
            };
            last = id;
            let value = match header & 0x0f {
                1 => Value::Bool(true),
                2 => Value::Bool(false),
                kind => self.read_value(kind),
            };
            fields.push((id, value));
        }
    }

    fn read_value(&mut self, kind: u8) -> Value<'a> {
        match kind {
            1 | 2 => Value::Bool(self.byte() == 1), // inside a list: one byte
            3 => Value::Int(i64::from(self.byte() as i8)),
            4..=6 => Value::Int(self.zigzag()),
            7 => {
                self.pos += 8; // a double: not needed here
                Value::Double
            }
            8 => {
                let len = usize::try_from(self.varint()).unwrap();
                let value = &self.bytes[self.pos..self.pos + len];
                self.pos += len;
                Value::Binary(value)
            }
            9 | 10 => {
                let header = self.byte();
                let mut len = usize::from(header >> 4);
                if len == 15 {
                    len = usize::try_from(self.varint()).unwrap();
                }
                Value::List((0..len).map(|_| self.read_value(header & 0x0f)).collect())
            }
            12 => Value::Struct(self.read_struct()),
            other => panic!("thrift type {other} at {} is not needed here", self.pos),
        }
    }
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

/// An `EncryptionAlgorithm` union, read.
#[derive(Debug)]
struct EncryptionAlgorithm<'a> {
    algorithm: Algorithm,
    aad_prefix: Option<&'a [u8]>,
    aad_file_unique: &'a [u8],
    supply_aad_prefix: bool,
}

fn encryption_algorithm<'a>(union: &Struct<'a>) -> EncryptionAlgorithm<'a> {
    let (id, params) = union.union();
    EncryptionAlgorithm {
        algorithm: match id {
            1 => Algorithm::AesGcmV1,
            2 => Algorithm::AesGcmCtrV1,
            other => panic!("unknown encryption algorithm {other}"),
        },
        aad_prefix: params.binary(1),
        aad_file_unique: params.binary(2).expect("aad_file_unique"),
        supply_aad_prefix: params.bool(3).unwrap_or(false),
    }
}

/// A file with an encrypted footer (`PARE`): its algorithm, footer key metadata and the
/// footer module.
fn encrypted_footer_file(file: &[u8]) -> (EncryptionAlgorithm<'_>, &[u8], &[u8]) {
    let (region, magic) = tail(file);
    assert_eq!(magic, b"PARE");
    let (crypto_metadata, used) = Walker::parse(region);
    let algorithm = encryption_algorithm(crypto_metadata.strukt(1).unwrap());
    let key_metadata = crypto_metadata.binary(2).expect("key_metadata");
    (algorithm, key_metadata, &region[used..])
}

/// Checks that `plaintext` is a whole thrift `FileMetaData` of the 50-row test files.
fn check_file_metadata(plaintext: &[u8]) {
    // Field 1 (delta 1), type i32 (5): `version`.
    assert_eq!(plaintext[0], 0x15, "FileMetaData opens with field 1, i32");
    let (metadata, used) = Walker::parse(plaintext);
    assert_eq!(used, plaintext.len());
    assert_eq!(metadata.int(3), Some(50), "num_rows");
    assert_eq!(metadata.list(4).unwrap().len(), 1, "one row group");
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

#[allow(clippy::too_many_lines)]
fn check_columns(
    file: &[u8],
    metadata: &[u8],
    algorithm: Algorithm,
    file_aad: &[u8],
    footer_key: &Key,
    keys: &dyn KeyRetriever,
) -> Seen {
    let (metadata, _) = Walker::parse(metadata);
    let row_groups = metadata.list(4).unwrap();
    let mut seen = Seen::default();
    for (row_group, rg) in row_groups.iter().enumerate() {
        let Value::Struct(rg) = rg else { panic!() };
        assert_eq!(rg.int(7), Some(row_group as i64), "RowGroup.ordinal");
        for (column, chunk) in rg.list(1).unwrap().iter().enumerate() {
            let Value::Struct(chunk) = chunk else {
                panic!()
            };
            let Some(crypto) = chunk.strukt(8) else {
                continue; // a plaintext column
            };
            seen.columns += 1;
            let (kind, with_key) = crypto.union();
            let decrypted: Vec<u8>;
            let parsed: Struct<'_>;
            let (key, column_metadata) = if kind == 2 {
                // EncryptionWithColumnKey: its own key, and its ColumnMetaData encrypted
                // with it.
                let key = keys.retrieve_key(with_key.binary(2).unwrap()).unwrap();
                let cipher = ModuleCipher::new(&key, algorithm, file_aad);
                let encrypted = chunk.binary(9).expect("encrypted_column_metadata");
                let mut plaintext = Vec::new();
                let module = Module::ColumnMetaData { row_group, column };
                assert_eq!(
                    cipher.decrypt(module, encrypted, &mut plaintext).unwrap(),
                    encrypted.len()
                );
                // The footer key does not open it.
                assert_eq!(
                    ModuleCipher::new(footer_key, algorithm, file_aad).decrypt(
                        module,
                        encrypted,
                        &mut Vec::new()
                    ),
                    Err(Error::Authentication {
                        module: ModuleType::ColumnMetaData
                    })
                );
                decrypted = plaintext;
                parsed = Walker::parse(&decrypted).0;
                (key, &parsed)
            } else {
                // EncryptionWithFooterKey: the ColumnMetaData is in the footer.
                (footer_key.clone(), chunk.strukt(3).expect("meta_data"))
            };
            let cipher = ModuleCipher::new(&key, algorithm, file_aad);
            let physical_type = column_metadata.int(1).unwrap();
            let codec = column_metadata.int(4).unwrap();
            let dictionary_offset = column_metadata.int(11);
            let data_offset = column_metadata.int(9).unwrap();
            let start = usize::try_from(dictionary_offset.unwrap_or(data_offset)).unwrap();
            let end = start + usize::try_from(column_metadata.int(7).unwrap()).unwrap();

            let mut pos = start;
            let mut page = 0;
            let mut first_data_page = None;
            while pos < end {
                let dictionary = pos == start && dictionary_offset.is_some();
                let header_module = if dictionary {
                    Module::DictionaryPageHeader { row_group, column }
                } else {
                    Module::DataPageHeader {
                        row_group,
                        column,
                        page,
                    }
                };
                let mut header = Vec::new();
                let used = cipher
                    .decrypt(header_module, &file[pos..end], &mut header)
                    .unwrap_or_else(|e| panic!("{header_module}: {e}"));
                if !dictionary && page == 0 {
                    first_data_page = Some(pos);
                    // The header of page 0 read as page 1's does not authenticate.
                    let moved = Module::DataPageHeader {
                        row_group,
                        column,
                        page: 1,
                    };
                    assert_eq!(
                        cipher.decrypt(moved, &file[pos..end], &mut Vec::new()),
                        Err(Error::Authentication {
                            module: ModuleType::DataPageHeader
                        })
                    );
                }
                pos += used;
                let (header, _) = Walker::parse(&header);
                let page_type = header.int(1).unwrap();
                assert_eq!(page_type, if dictionary { 2 } else { 0 }, "page type");
                let uncompressed = usize::try_from(header.int(2).unwrap()).unwrap();
                let compressed = usize::try_from(header.int(3).unwrap()).unwrap();

                let page_module = if dictionary {
                    Module::DictionaryPage { row_group, column }
                } else {
                    Module::DataPage {
                        row_group,
                        column,
                        page,
                    }
                };
                let mut body = Vec::new();
                let used = cipher
                    .decrypt(page_module, &file[pos..end], &mut body)
                    .unwrap_or_else(|e| panic!("{page_module}: {e}"));
                // The header's compressed size counts the whole module.
                assert_eq!(used, compressed, "{page_module}");
                assert_eq!(used, body.len() + algorithm.overhead(page_module));
                pos += used;
                assert_eq!(codec, 1, "SNAPPY");
                check_snappy_page(&body, uncompressed, dictionary && physical_type == 4);
                if dictionary {
                    seen.dictionary_pages += 1;
                } else {
                    seen.data_pages += 1;
                    page += 1;
                }
            }
            assert_eq!(pos, end);

            // The column and offset indexes.
            for (offset_field, module) in [
                (4, Module::OffsetIndex { row_group, column }),
                (6, Module::ColumnIndex { row_group, column }),
            ] {
                let Some(offset) = chunk.int(offset_field) else {
                    continue;
                };
                let offset = usize::try_from(offset).unwrap();
                let len = usize::try_from(chunk.int(offset_field + 1).unwrap()).unwrap();
                let mut index = Vec::new();
                let used = cipher
                    .decrypt(module, &file[offset..offset + len], &mut index)
                    .unwrap_or_else(|e| panic!("{module}: {e}"));
                assert_eq!(used, len);
                let (index, _) = Walker::parse(&index);
                if module.module_type() == ModuleType::OffsetIndex {
                    // The first PageLocation points at the first data page.
                    let Value::Struct(location) = &index.list(1).unwrap()[0] else {
                        panic!()
                    };
                    assert_eq!(
                        location.int(1).map(|o| usize::try_from(o).unwrap()),
                        first_data_page
                    );
                } else {
                    assert_eq!(index.list(1).unwrap().len(), page, "null_pages");
                }
                seen.indexes += 1;
            }
        }
    }
    seen
}

/// Checks a decrypted page body: SNAPPY, whose stream opens with the uncompressed length
/// as a varint; for the FLOAT dictionary pages, the one literal holds the 50 values
/// `i * 1.1f`.
fn check_snappy_page(body: &[u8], uncompressed: usize, float_dictionary: bool) {
    let mut walker = Walker {
        bytes: body,
        pos: 0,
    };
    assert_eq!(walker.varint(), uncompressed as u64, "snappy length");
    if float_dictionary {
        let tag = walker.byte();
        assert_eq!(tag, 60 << 2, "a literal with a 1-byte length");
        let len = usize::from(walker.byte()) + 1;
        assert_eq!(len, 200);
        let values: Vec<f32> = body[walker.pos..walker.pos + len]
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
    check_file_metadata(&footer);

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
        &footer,
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
        check_file_metadata(&footer);

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
            &footer,
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
    check_file_metadata(&footer);
    let seen = check_columns(
        &file,
        &footer,
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
    let (metadata, used) = Walker::parse(region);
    let (footer, signature) = region.split_at(used);
    let signature: &[u8; FOOTER_SIGNATURE_LEN] = signature.try_into().unwrap();
    check_file_metadata(footer);

    // FileMetaData.encryption_algorithm (8) and footer_signing_key_metadata (9).
    let algorithm = encryption_algorithm(metadata.strukt(8).unwrap());
    assert_eq!(algorithm.algorithm, Algorithm::AesGcmV1);
    assert_eq!(algorithm.aad_prefix, None);
    let key_metadata = metadata.binary(9).unwrap();
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
    let seen = check_columns(&file, footer, algorithm.algorithm, &aad, &footer_key, &keys);
    assert_eq!(seen.columns, 2);
    assert_eq!(seen.data_pages, 2);
}
