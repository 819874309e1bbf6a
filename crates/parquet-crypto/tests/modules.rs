//! Round trips, authentication failures, truncation and AAD layouts, through the public API.

// Test code: helpers panic on anything unexpected, like the tests that call them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use parquet_core::Error as CoreError;
use parquet_crypto::{
    AadMode, Algorithm, Decrypted, Error, FOOTER_SIGNATURE_LEN, FixedKey, Key, KeyMap,
    KeyRetriever, MAX_ORDINAL, Module, ModuleCipher, ModuleType, decrypt_footer,
    decrypt_footer_or_without_aad, decrypt_footer_without_aad, encrypt_footer,
    encrypt_footer_without_aad, file_aad, sign_footer, verify_footer_signature,
};
use proptest::prelude::*;

const FOOTER_KEY: &[u8; 16] = b"0123456789012345";
const COLUMN_KEY: &[u8; 16] = b"1234567890123450";
const FILE_AAD: &[u8] = b"tester\x3f\x1a\x3c\xe0\x19\x90\xc1\xd8";

fn key(bytes: &[u8]) -> Key {
    Key::try_new(bytes).unwrap()
}

fn gcm(bytes: &[u8]) -> ModuleCipher {
    ModuleCipher::new(&key(bytes), Algorithm::AesGcmV1, FILE_AAD)
}

fn auth(module: ModuleType) -> Error {
    Error::Authentication { module }
}

/// Every kind of module, at the given ordinals (the page ordinal where the kind has one).
fn all_modules(row_group: usize, column: usize, page: usize) -> [Module; 10] {
    [
        Module::Footer,
        Module::ColumnMetaData { row_group, column },
        Module::DataPage {
            row_group,
            column,
            page,
        },
        Module::DictionaryPage { row_group, column },
        Module::DataPageHeader {
            row_group,
            column,
            page,
        },
        Module::DictionaryPageHeader { row_group, column },
        Module::ColumnIndex { row_group, column },
        Module::OffsetIndex { row_group, column },
        Module::BloomFilterHeader { row_group, column },
        Module::BloomFilterBitset { row_group, column },
    ]
}

// ---------------------------------------------------------------------------------------
// AAD layout

#[test]
fn aad_layout_literals() {
    let file_aad = b"P\xaa\xbb";
    let cases: [(Module, &[u8]); 10] = [
        (Module::Footer, b"P\xaa\xbb\x00"),
        (
            Module::ColumnMetaData {
                row_group: 1,
                column: 2,
            },
            b"P\xaa\xbb\x01\x01\x00\x02\x00",
        ),
        (
            Module::DataPage {
                row_group: 0x0102,
                column: 0x0304,
                page: 0x0506,
            },
            b"P\xaa\xbb\x02\x02\x01\x04\x03\x06\x05",
        ),
        (
            Module::DictionaryPage {
                row_group: 0,
                column: 7,
            },
            b"P\xaa\xbb\x03\x00\x00\x07\x00",
        ),
        (
            Module::DataPageHeader {
                row_group: 3,
                column: 0,
                page: 32767,
            },
            b"P\xaa\xbb\x04\x03\x00\x00\x00\xff\x7f",
        ),
        (
            Module::DictionaryPageHeader {
                row_group: 256,
                column: 1,
            },
            b"P\xaa\xbb\x05\x00\x01\x01\x00",
        ),
        (
            Module::ColumnIndex {
                row_group: 0,
                column: 5,
            },
            b"P\xaa\xbb\x06\x00\x00\x05\x00",
        ),
        (
            Module::OffsetIndex {
                row_group: 0,
                column: 5,
            },
            b"P\xaa\xbb\x07\x00\x00\x05\x00",
        ),
        (
            Module::BloomFilterHeader {
                row_group: 9,
                column: 10,
            },
            b"P\xaa\xbb\x08\x09\x00\x0a\x00",
        ),
        (
            Module::BloomFilterBitset {
                row_group: 9,
                column: 10,
            },
            b"P\xaa\xbb\x09\x09\x00\x0a\x00",
        ),
    ];
    for (module, expected) in cases {
        assert_eq!(module.aad(file_aad).unwrap(), expected, "{module}");
        let mut out = b"kept".to_vec();
        module.write_aad(file_aad, &mut out).unwrap();
        assert_eq!(&out[..4], b"kept");
        assert_eq!(&out[4..], expected);
    }
}

#[test]
fn module_type_bytes_and_names() {
    for (i, module) in all_modules(0, 0, 0).into_iter().enumerate() {
        assert_eq!(usize::from(module.module_type().as_u8()), i);
        assert_eq!(module.aad(b"").unwrap()[0], module.module_type().as_u8());
    }
    assert_eq!(ModuleType::DataPageHeader.to_string(), "Data PageHeader");
    assert_eq!(
        Module::DataPage {
            row_group: 1,
            column: 2,
            page: 3
        }
        .to_string(),
        "Data Page (row group 1, column 2, page 3)"
    );
    assert_eq!(Module::Footer.to_string(), "Footer");
}

#[test]
fn ordinals_above_i16_max_are_errors() {
    let limit = |what, requested| {
        Error::Core(CoreError::LimitExceeded {
            what,
            requested,
            limit: 32767,
        })
    };
    assert_eq!(MAX_ORDINAL, 32767);
    let ok = Module::DataPage {
        row_group: MAX_ORDINAL,
        column: MAX_ORDINAL,
        page: MAX_ORDINAL,
    };
    assert!(ok.aad(b"").is_ok());
    let cases = [
        (
            Module::DataPage {
                row_group: 32768,
                column: 0,
                page: 0,
            },
            limit("row group ordinal", 32768),
        ),
        (
            Module::ColumnIndex {
                row_group: 0,
                column: 65535,
            },
            limit("column ordinal", 65535),
        ),
        (
            Module::DataPageHeader {
                row_group: 0,
                column: 0,
                page: usize::MAX,
            },
            limit("page ordinal", u64::MAX),
        ),
    ];
    for (module, error) in cases {
        assert_eq!(module.aad(b"").unwrap_err(), error);
        let mut out = b"kept".to_vec();
        assert_eq!(module.write_aad(b"", &mut out).unwrap_err(), error);
        assert_eq!(out, b"kept");
        for algorithm in [Algorithm::AesGcmV1, Algorithm::AesGcmCtrV1] {
            let cipher = ModuleCipher::new(&key(COLUMN_KEY), algorithm, FILE_AAD);
            assert_eq!(cipher.encrypt(module, b"x", &mut out).unwrap_err(), error);
            assert_eq!(out, b"kept");
            let mut valid = Vec::new();
            cipher.encrypt(Module::Footer, b"x", &mut valid).unwrap();
            assert_eq!(cipher.decrypt(module, &valid, &mut out).unwrap_err(), error);
            assert_eq!(out, b"kept");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Framing and round trips

#[test]
fn framing_lengths_and_which_modules_use_ctr() {
    let plaintext = [0x42; 100];
    for module in all_modules(1, 2, 3) {
        for algorithm in [Algorithm::AesGcmV1, Algorithm::AesGcmCtrV1] {
            let cipher = ModuleCipher::new(&key(COLUMN_KEY), algorithm, FILE_AAD);
            let mut out = vec![0xee; 5];
            cipher.encrypt(module, &plaintext, &mut out).unwrap();
            assert_eq!(out[..5], [0xee; 5], "encrypt appends");
            let ctr = algorithm == Algorithm::AesGcmCtrV1 && module.is_page();
            assert_eq!(algorithm.uses_ctr(module), ctr);
            let overhead = if ctr { 16 } else { 32 };
            assert_eq!(algorithm.overhead(module), overhead);
            assert_eq!(out.len() - 5, 100 + overhead, "{algorithm:?} {module}");
            let length = u32::from_le_bytes(out[5..9].try_into().unwrap());
            assert_eq!(length as usize, 100 + overhead - 4);
            assert_eq!(cipher.plaintext_len(module, &out[5..]).unwrap(), 100);
        }
    }
}

#[test]
fn fresh_nonce_for_every_module() {
    let cipher = gcm(COLUMN_KEY);
    let mut nonces = std::collections::HashSet::new();
    for _ in 0..1000 {
        let mut out = Vec::new();
        cipher.encrypt(Module::Footer, b"same", &mut out).unwrap();
        assert!(nonces.insert(out[4..16].to_vec()), "nonce repeated");
    }
    let sig1 = sign_footer(&key(FOOTER_KEY), FILE_AAD, b"footer").unwrap();
    let sig2 = sign_footer(&key(FOOTER_KEY), FILE_AAD, b"footer").unwrap();
    assert_ne!(sig1, sig2);
}

fn module_strategy() -> impl Strategy<Value = Module> {
    (
        0..10usize,
        0..=MAX_ORDINAL,
        0..=MAX_ORDINAL,
        0..=MAX_ORDINAL,
    )
        .prop_map(|(kind, row_group, column, page)| all_modules(row_group, column, page)[kind])
}

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 16),
        prop::collection::vec(any::<u8>(), 24),
        prop::collection::vec(any::<u8>(), 32),
    ]
}

fn algorithm_strategy() -> impl Strategy<Value = Algorithm> {
    prop_oneof![Just(Algorithm::AesGcmV1), Just(Algorithm::AesGcmCtrV1)]
}

proptest! {
    #[test]
    fn round_trip(
        key_bytes in key_strategy(),
        algorithm in algorithm_strategy(),
        module in module_strategy(),
        file_aad in prop::collection::vec(any::<u8>(), 0..100),
        plaintext in prop::collection::vec(any::<u8>(), 0..3000),
        trailing in prop::collection::vec(any::<u8>(), 0..20),
    ) {
        let cipher = ModuleCipher::new(&key(&key_bytes), algorithm, &file_aad);
        let mut file = b"before".to_vec();
        cipher.encrypt(module, &plaintext, &mut file).unwrap();
        let module_len = file.len() - 6;
        prop_assert_eq!(module_len, plaintext.len() + algorithm.overhead(module));
        file.extend_from_slice(&trailing);
        let input = &file[6..];

        let mut out = b"prefix".to_vec();
        prop_assert_eq!(cipher.decrypt(module, input, &mut out).unwrap(), module_len);
        prop_assert_eq!(&out[..6], b"prefix");
        prop_assert_eq!(&out[6..], &plaintext[..]);

        let mut slice = vec![0xaa; plaintext.len() + 7];
        let decrypted = cipher.decrypt_into(module, input, &mut slice).unwrap();
        prop_assert_eq!(decrypted, Decrypted { consumed: module_len, plaintext_len: plaintext.len() });
        prop_assert_eq!(&slice[..plaintext.len()], &plaintext[..]);
        prop_assert_eq!(&slice[plaintext.len()..], &[0xaa; 7]);
    }

    #[test]
    fn every_truncation_is_an_error(
        algorithm in algorithm_strategy(),
        module in module_strategy(),
        plaintext in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let cipher = ModuleCipher::new(&key(COLUMN_KEY), algorithm, FILE_AAD);
        let mut encrypted = Vec::new();
        cipher.encrypt(module, &plaintext, &mut encrypted).unwrap();
        for len in 0..encrypted.len() {
            let mut out = Vec::new();
            let error = cipher.decrypt(module, &encrypted[..len], &mut out).unwrap_err();
            prop_assert!(matches!(error, Error::Core(CoreError::Truncated { .. })), "{error}");
            prop_assert!(out.is_empty());
            prop_assert!(cipher.decrypt_into(module, &encrypted[..len], &mut [0; 300]).is_err());
            prop_assert!(cipher.plaintext_len(module, &encrypted[..len]).is_err());
        }
    }

    /// A flipped bit anywhere in a GCM module (length field, nonce, ciphertext, tag) is an
    /// error, never plaintext.
    #[test]
    fn gcm_bit_flips_are_errors(
        algorithm in algorithm_strategy(),
        module in module_strategy(),
        plaintext in prop::collection::vec(any::<u8>(), 0..300),
        position in any::<prop::sample::Index>(),
        bit in 0..8u8,
    ) {
        prop_assume!(!algorithm.uses_ctr(module));
        let cipher = ModuleCipher::new(&key(COLUMN_KEY), algorithm, FILE_AAD);
        let mut encrypted = Vec::new();
        cipher.encrypt(module, &plaintext, &mut encrypted).unwrap();
        let position = position.index(encrypted.len());
        encrypted[position] ^= 1 << bit;
        let mut out = Vec::new();
        let error = cipher.decrypt(module, &encrypted, &mut out).unwrap_err();
        prop_assert!(out.is_empty());
        if position >= 4 {
            prop_assert_eq!(error, auth(module.module_type()));
        }
    }

    /// Arbitrary bytes never panic and never allocate past the input.
    #[test]
    fn arbitrary_input_never_panics(
        algorithm in algorithm_strategy(),
        module in module_strategy(),
        input in prop::collection::vec(any::<u8>(), 0..100),
    ) {
        let cipher = ModuleCipher::new(&key(COLUMN_KEY), algorithm, FILE_AAD);
        let mut out = Vec::new();
        if let Ok(consumed) = cipher.decrypt(module, &input, &mut out) {
            prop_assert!(consumed <= input.len());
            prop_assert!(out.len() < input.len());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Authentication failures

#[test]
fn wrong_key_is_an_authentication_error() {
    let header = Module::DictionaryPageHeader {
        row_group: 0,
        column: 4,
    };
    let mut encrypted = Vec::new();
    gcm(COLUMN_KEY)
        .encrypt(header, b"header", &mut encrypted)
        .unwrap();
    for wrong in [
        &b"1234567890123451"[..],
        &[0x31; 24],
        &[0x31; 32],
        FOOTER_KEY,
    ] {
        let mut out = Vec::new();
        assert_eq!(
            gcm(wrong).decrypt(header, &encrypted, &mut out),
            Err(auth(ModuleType::DictionaryPageHeader))
        );
        assert!(out.is_empty());
        let mut slice = [0x55; 10];
        assert_eq!(
            gcm(wrong).decrypt_into(header, &encrypted, &mut slice),
            Err(auth(ModuleType::DictionaryPageHeader))
        );
        assert_eq!(slice, [0x55; 10], "nothing written on failure");
    }
}

#[test]
fn wrong_file_aad_is_an_authentication_error() {
    let column = Module::ColumnMetaData {
        row_group: 0,
        column: 5,
    };
    let mut encrypted = Vec::new();
    gcm(COLUMN_KEY)
        .encrypt(column, b"ColumnMetaData", &mut encrypted)
        .unwrap();
    // Without the AAD prefix, with another prefix, with another file's unique part.
    for file_aad in [
        &FILE_AAD[6..],
        b"testeR\x3f\x1a\x3c\xe0\x19\x90\xc1\xd8",
        b"tester\x3f\x1a\x3c\xe0\x19\x90\xc1\xd9",
        b"",
    ] {
        let cipher = ModuleCipher::new(&key(COLUMN_KEY), Algorithm::AesGcmV1, file_aad);
        assert_eq!(
            cipher.decrypt(column, &encrypted, &mut Vec::new()),
            Err(auth(ModuleType::ColumnMetaData))
        );
    }
}

#[test]
fn swapped_modules_are_authentication_errors() {
    let cipher = gcm(COLUMN_KEY);
    let written = Module::DataPage {
        row_group: 1,
        column: 2,
        page: 3,
    };
    let mut encrypted = Vec::new();
    cipher.encrypt(written, b"page 3", &mut encrypted).unwrap();
    let elsewhere = [
        Module::DataPage {
            row_group: 1,
            column: 2,
            page: 4,
        },
        Module::DataPage {
            row_group: 0,
            column: 2,
            page: 3,
        },
        Module::DataPage {
            row_group: 1,
            column: 3,
            page: 3,
        },
        Module::DataPageHeader {
            row_group: 1,
            column: 2,
            page: 3,
        },
        Module::DictionaryPage {
            row_group: 1,
            column: 2,
        },
    ];
    for module in elsewhere {
        assert_eq!(
            cipher.decrypt(module, &encrypted, &mut Vec::new()),
            Err(auth(module.module_type())),
            "{module}"
        );
    }
    // Two modules swapped in place: each fails where the other belongs.
    let a = Module::OffsetIndex {
        row_group: 0,
        column: 0,
    };
    let b = Module::OffsetIndex {
        row_group: 0,
        column: 1,
    };
    let (mut ea, mut eb) = (Vec::new(), Vec::new());
    cipher.encrypt(a, b"index a", &mut ea).unwrap();
    cipher.encrypt(b, b"index b", &mut eb).unwrap();
    assert_eq!(
        cipher.decrypt(a, &eb, &mut Vec::new()),
        Err(auth(ModuleType::OffsetIndex))
    );
    assert_eq!(
        cipher.decrypt(b, &ea, &mut Vec::new()),
        Err(auth(ModuleType::OffsetIndex))
    );
}

/// Under `AES_GCM_CTR_V1`, page bodies carry no tag: tampering and wrong keys go unnoticed
/// by the page itself. The page headers, which are GCM, are what a reader authenticates.
#[test]
fn ctr_pages_are_not_authenticated_but_their_headers_are() {
    let cipher = ModuleCipher::new(&key(COLUMN_KEY), Algorithm::AesGcmCtrV1, FILE_AAD);
    let page = Module::DataPage {
        row_group: 0,
        column: 0,
        page: 0,
    };
    let mut encrypted = Vec::new();
    cipher.encrypt(page, b"page bytes", &mut encrypted).unwrap();
    encrypted[20] ^= 1;
    let mut out = Vec::new();
    cipher.decrypt(page, &encrypted, &mut out).unwrap();
    assert_eq!(out, b"page!bytes");

    let header = Module::DataPageHeader {
        row_group: 0,
        column: 0,
        page: 0,
    };
    let mut encrypted = Vec::new();
    cipher.encrypt(header, b"header", &mut encrypted).unwrap();
    let wrong = ModuleCipher::new(&key(FOOTER_KEY), Algorithm::AesGcmCtrV1, FILE_AAD);
    assert_eq!(
        wrong.decrypt(header, &encrypted, &mut Vec::new()),
        Err(auth(ModuleType::DataPageHeader))
    );
}

#[test]
fn output_too_small() {
    let cipher = gcm(COLUMN_KEY);
    let mut encrypted = Vec::new();
    cipher
        .encrypt(Module::Footer, b"twelve bytes", &mut encrypted)
        .unwrap();
    assert_eq!(
        cipher.decrypt_into(Module::Footer, &encrypted, &mut [0; 11]),
        Err(Error::OutputTooSmall {
            needed: 12,
            available: 11
        })
    );
}

#[test]
fn length_field_checked_before_allocation() {
    let cipher = gcm(COLUMN_KEY);
    let mut input = u32::MAX.to_le_bytes().to_vec();
    input.extend_from_slice(&[0; 40]);
    assert_eq!(
        cipher.decrypt(Module::Footer, &input, &mut Vec::new()),
        Err(Error::Core(CoreError::Truncated {
            what: "encrypted module",
            offset: 4,
            needed: u32::MAX as usize,
            available: 40
        }))
    );
}

// ---------------------------------------------------------------------------------------
// Footer

#[test]
fn footer_round_trip_and_failures() {
    let footer_key = key(FOOTER_KEY);
    let mut tail = b"FileCryptoMetaData".to_vec();
    encrypt_footer(&footer_key, FILE_AAD, b"FileMetaData bytes", &mut tail).unwrap();
    let module = &tail[18..];
    assert_eq!(module.len(), 18 + 32);
    assert_eq!(
        decrypt_footer(&footer_key, FILE_AAD, module).unwrap(),
        b"FileMetaData bytes"
    );
    let footer_error = Err(auth(ModuleType::Footer));
    assert_eq!(
        decrypt_footer(&key(COLUMN_KEY), FILE_AAD, module),
        footer_error
    );
    assert_eq!(
        decrypt_footer(&footer_key, &FILE_AAD[6..], module),
        footer_error
    );
    // A footer is not a column's metadata.
    assert_eq!(
        gcm(FOOTER_KEY).decrypt(
            Module::ColumnMetaData {
                row_group: 0,
                column: 0
            },
            module,
            &mut Vec::new()
        ),
        Err(auth(ModuleType::ColumnMetaData))
    );
    let mut longer = module.to_vec();
    longer.push(0);
    assert_eq!(
        decrypt_footer(&footer_key, FILE_AAD, &longer),
        Err(Error::Core(CoreError::Invalid {
            what: "bytes after the footer module",
            offset: 50,
            value: 1
        }))
    );
    assert!(matches!(
        decrypt_footer(&footer_key, FILE_AAD, &module[..49]),
        Err(Error::Core(CoreError::Truncated { .. }))
    ));
}

#[test]
fn footer_signature() {
    let footer_key = key(FOOTER_KEY);
    let footer = b"\x15\x04 a plaintext FileMetaData".to_vec();
    let signature = sign_footer(&footer_key, FILE_AAD, &footer).unwrap();
    assert_eq!(signature.len(), FOOTER_SIGNATURE_LEN);
    verify_footer_signature(&footer_key, FILE_AAD, &footer, &signature).unwrap();

    // The signature is the nonce and tag of the footer's GCM footer module.
    let mut module = Vec::new();
    encrypt_footer(&footer_key, FILE_AAD, &footer, &mut module).unwrap();
    let mut reencrypted_signature = [0; 28];
    reencrypted_signature[..12].copy_from_slice(&module[4..16]);
    reencrypted_signature[12..].copy_from_slice(&module[module.len() - 16..]);
    verify_footer_signature(&footer_key, FILE_AAD, &footer, &reencrypted_signature).unwrap();

    let failed = Err(auth(ModuleType::Footer));
    for i in 0..footer.len() {
        let mut altered = footer.clone();
        altered[i] ^= 0x80;
        assert_eq!(
            verify_footer_signature(&footer_key, FILE_AAD, &altered, &signature),
            failed
        );
    }
    for i in 0..FOOTER_SIGNATURE_LEN {
        let mut altered = signature;
        altered[i] ^= 1;
        assert_eq!(
            verify_footer_signature(&footer_key, FILE_AAD, &footer, &altered),
            failed
        );
    }
    assert_eq!(
        verify_footer_signature(&key(COLUMN_KEY), FILE_AAD, &footer, &signature),
        failed
    );
    assert_eq!(
        verify_footer_signature(&footer_key, b"", &footer, &signature),
        failed
    );
    assert_eq!(
        verify_footer_signature(&footer_key, FILE_AAD, &footer[1..], &signature),
        failed
    );
}

// ---------------------------------------------------------------------------------------
// Keys

#[test]
fn key_lengths() {
    for len in [16, 24, 32] {
        let k = key(&vec![1; len]);
        assert_eq!(k.as_bytes(), vec![1; len]);
        assert_eq!(k.bits() as usize, len * 8);
    }
    for len in [0, 1, 15, 17, 23, 25, 31, 33, 64] {
        assert_eq!(
            Key::try_new(&vec![1; len]),
            Err(Error::KeyLength { len }),
            "{len}"
        );
    }
    assert_eq!(Key::from([9; 24]), key(&[9; 24]));
    assert_ne!(Key::from([9; 16]), key(&[8; 16]));
    assert_eq!(Key::try_from(&[3; 32][..]).unwrap().bits(), 256);
    let debug = format!("{:?}", key(FOOTER_KEY));
    assert!(!debug.contains("48"), "{debug}");
    assert_eq!(debug, "Key { bits: 128, .. }");
}

#[test]
fn key_retrievers() {
    let map: KeyMap = [
        ("kf", key(FOOTER_KEY)),
        ("kc1", key(COLUMN_KEY)),
        ("kc2", key(b"1234567890123451")),
    ]
    .into_iter()
    .collect();
    assert_eq!(map.len(), 3);
    assert_eq!(map.retrieve_key(b"kf").unwrap(), key(FOOTER_KEY));
    assert_eq!(
        map.retrieve_key(b"kc2").unwrap().as_bytes(),
        b"1234567890123451"
    );
    assert_eq!(
        map.retrieve_key(b"kc3"),
        Err(Error::KeyNotFound {
            key_metadata: b"kc3".to_vec()
        })
    );
    assert_eq!(
        map.retrieve_key(b"\x00k").unwrap_err().to_string(),
        "no key for key metadata \"\\x00k\""
    );
    assert!(!format!("{map:?}").contains("0123"));

    let mut empty = KeyMap::new();
    assert!(empty.is_empty());
    assert_eq!(empty.insert(b"id".to_vec(), key(FOOTER_KEY)), None);
    assert!(empty.insert("id", key(COLUMN_KEY)).is_some());

    let fixed = FixedKey::new(key(COLUMN_KEY));
    assert_eq!(fixed.retrieve_key(b"").unwrap(), key(COLUMN_KEY));
    assert_eq!(fixed.retrieve_key(b"anything").unwrap(), key(COLUMN_KEY));

    // Retrievers work as trait objects, as a reader holds them.
    let retrievers: [&dyn KeyRetriever; 2] = [&map, &fixed];
    for retriever in retrievers {
        assert_eq!(retriever.retrieve_key(b"kc1").unwrap(), key(COLUMN_KEY));
    }
}

#[test]
fn file_aad_is_prefix_then_unique() {
    assert_eq!(file_aad(b"", b"\x01\x02"), b"\x01\x02");
    assert_eq!(file_aad(b"tester", b"\x01"), b"tester\x01");
    let a = parquet_crypto::new_aad_file_unique().unwrap();
    let b = parquet_crypto::new_aad_file_unique().unwrap();
    assert_ne!(a, b);
}

// ---------------------------------------------------------------------------------------
// Modules without AAD (DuckDB 2.0)

// Test case 2 of the GCM specification ("The Galois/Counter Mode of Operation", by
// McGrew and Viega): a zero 128-bit key, a zero nonce and 16 zero bytes, with an empty
// AAD, framed as a module: length 12 + 16 + 16, nonce, ciphertext, tag.
const EMPTY_AAD_MODULE: [u8; 48] = [
    44, 0, 0, 0, // length
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // nonce
    0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92, 0xf3, 0x28, 0xc2, 0xb9, 0x71, 0xb2, 0xfe,
    0x78, // ciphertext
    0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec, 0x13, 0xbd, 0xf5, 0x3a, 0x67, 0xb2, 0x12, 0x57, 0xbd,
    0xdf, // tag
];

#[test]
fn a_module_with_an_empty_aad_decrypts_without_aad_only() {
    let zero = key(&[0; 16]);
    // As a footer: with no AAD it decrypts; with the specification's (here the module
    // type alone, 0x00, for a file without AAD prefix or file unique) it does not.
    assert_eq!(
        decrypt_footer_without_aad(&zero, &EMPTY_AAD_MODULE),
        Ok(vec![0; 16])
    );
    assert_eq!(
        decrypt_footer(&zero, &file_aad(b"", b""), &EMPTY_AAD_MODULE),
        Err(auth(ModuleType::Footer))
    );
    assert_eq!(
        decrypt_footer_or_without_aad(&zero, &file_aad(b"", b""), &EMPTY_AAD_MODULE),
        Ok((vec![0; 16], AadMode::Empty))
    );
    // As any GCM module, wherever it is said to be.
    for algorithm in [Algorithm::AesGcmV1, Algorithm::AesGcmCtrV1] {
        let without = ModuleCipher::without_aad(&zero, algorithm);
        let spec = ModuleCipher::new(&zero, algorithm, b"");
        for module in all_modules(3, 7, 11) {
            if algorithm.uses_ctr(module) {
                continue;
            }
            let mut out = vec![1];
            assert_eq!(without.decrypt(module, &EMPTY_AAD_MODULE, &mut out), Ok(48));
            assert_eq!(out, [[1].as_slice(), &[0; 16]].concat());
            let mut slice = [9; 20];
            assert_eq!(
                without.decrypt_into(module, &EMPTY_AAD_MODULE, &mut slice),
                Ok(Decrypted {
                    consumed: 48,
                    plaintext_len: 16
                })
            );
            assert_eq!(slice[..16], [0; 16]);
            assert_eq!(without.plaintext_len(module, &EMPTY_AAD_MODULE), Ok(16));
            let mut out = Vec::new();
            assert_eq!(
                spec.decrypt(module, &EMPTY_AAD_MODULE, &mut out),
                Err(auth(module.module_type())),
                "{module:?}"
            );
            assert!(out.is_empty());
        }
    }
}

#[test]
fn modules_without_aad_round_trip_and_are_not_spec_modules() {
    for key_bytes in [
        &b"0123456789012345"[..],
        b"012345678901234567890123",
        b"01234567890123456789012345678901",
    ] {
        let column_key = key(key_bytes);
        for algorithm in [Algorithm::AesGcmV1, Algorithm::AesGcmCtrV1] {
            let without = ModuleCipher::without_aad(&column_key, algorithm);
            assert_eq!(without.aad_mode(), AadMode::Empty);
            assert_eq!(without.file_aad(), b"");
            // With the file AAD of a file that has no AAD prefix and no file unique, and
            // with a real one.
            let specs = [
                ModuleCipher::new(&column_key, algorithm, b""),
                ModuleCipher::new(&column_key, algorithm, FILE_AAD),
            ];
            assert_eq!(specs[0].aad_mode(), AadMode::Spec);
            for module in all_modules(0, 1, 2) {
                let plaintext = format!("{module:?} plaintext").into_bytes();
                let mut encrypted = Vec::new();
                without.encrypt(module, &plaintext, &mut encrypted).unwrap();
                let mut out = Vec::new();
                assert_eq!(
                    without.decrypt(module, &encrypted, &mut out),
                    Ok(encrypted.len())
                );
                assert_eq!(out, plaintext);
                // No AAD binds it to its place: read as another module, it still
                // decrypts (when the other module is also GCM).
                let elsewhere = all_modules(5, 6, 7)[1];
                if !algorithm.uses_ctr(module) {
                    let mut out = Vec::new();
                    without.decrypt(elsewhere, &encrypted, &mut out).unwrap();
                    assert_eq!(out, plaintext);
                }
                for spec in &specs {
                    let mut spec_encrypted = Vec::new();
                    spec.encrypt(module, &plaintext, &mut spec_encrypted)
                        .unwrap();
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    if algorithm.uses_ctr(module) {
                        // CTR page bodies have no AAD in either mode.
                        spec.decrypt(module, &encrypted, &mut a).unwrap();
                        without.decrypt(module, &spec_encrypted, &mut b).unwrap();
                        assert_eq!((&a, &b), (&plaintext, &plaintext));
                    } else {
                        let error = auth(module.module_type());
                        let d = spec.decrypt(module, &encrypted, &mut a);
                        assert_eq!(d.unwrap_err(), error);
                        let d = without.decrypt(module, &spec_encrypted, &mut b);
                        assert_eq!(d.unwrap_err(), error);
                        let mut slice = vec![7; plaintext.len()];
                        let d = spec.decrypt_into(module, &encrypted, &mut slice);
                        assert_eq!(d.unwrap_err(), error);
                        let d = without.decrypt_into(module, &spec_encrypted, &mut slice);
                        assert_eq!(d.unwrap_err(), error);
                        assert!(a.is_empty() && b.is_empty() && slice.iter().all(|&x| x == 7));
                    }
                }
            }
        }
    }
}

#[test]
fn footers_without_aad() {
    let footer_key = key(FOOTER_KEY);
    let mut duckdb = Vec::new();
    encrypt_footer_without_aad(&footer_key, b"FileMetaData", &mut duckdb).unwrap();
    assert_eq!(
        decrypt_footer_without_aad(&footer_key, &duckdb).unwrap(),
        b"FileMetaData"
    );
    for file_aad in [&b""[..], FILE_AAD] {
        assert_eq!(
            decrypt_footer(&footer_key, file_aad, &duckdb),
            Err(auth(ModuleType::Footer))
        );
        assert_eq!(
            decrypt_footer_or_without_aad(&footer_key, file_aad, &duckdb),
            Ok((b"FileMetaData".to_vec(), AadMode::Empty))
        );
        // The specification's footer: read the specification's way first.
        let mut spec = Vec::new();
        encrypt_footer(&footer_key, file_aad, b"FileMetaData", &mut spec).unwrap();
        assert_eq!(
            decrypt_footer_without_aad(&footer_key, &spec),
            Err(auth(ModuleType::Footer))
        );
        assert_eq!(
            decrypt_footer_or_without_aad(&footer_key, file_aad, &spec),
            Ok((b"FileMetaData".to_vec(), AadMode::Spec))
        );
    }
    // A wrong key fails both ways, with the error of the specification's way; framing
    // errors are not retried.
    assert_eq!(
        decrypt_footer_or_without_aad(&key(COLUMN_KEY), FILE_AAD, &duckdb),
        Err(auth(ModuleType::Footer))
    );
    assert!(matches!(
        decrypt_footer_or_without_aad(&footer_key, FILE_AAD, &duckdb[..20]),
        Err(Error::Core(CoreError::Truncated { .. }))
    ));
    let mut longer = duckdb.clone();
    longer.push(0);
    assert!(matches!(
        decrypt_footer_without_aad(&footer_key, &longer),
        Err(Error::Core(CoreError::Invalid { .. }))
    ));
}
