//! Known-answer tests: AES-GCM from the test cases of the GCM specification (as used by
//! NIST's validation), AES-CTR from NIST SP 800-38A, appendix F.5; every GCM test through
//! each backend this build has. Then the backends held against each other: the same
//! modules for the same nonce, each decrypting the other's.

use super::*;
use crate::{Algorithm, Module, ModuleCipher};
use proptest::prelude::*;

fn hex(s: &str) -> Vec<u8> {
    assert_eq!(s.len() % 2, 0);
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Every GCM backend of this build.
const BACKENDS: &[Backend] = &[
    Backend::RustCrypto,
    #[cfg(feature = "ring")]
    Backend::Ring,
];

/// A cipher (GCM and CTR) for `key` on each backend, checking that each got the backend
/// it asked for, or `RustCrypto` for a 192-bit key.
fn ciphers(key: &[u8]) -> Vec<Cipher> {
    let key = Key::try_new(key).unwrap();
    BACKENDS
        .iter()
        .map(|&backend| {
            let cipher = Cipher::with_backend(&key, true, backend);
            let expected = if key.bits() == 192 {
                Backend::RustCrypto
            } else {
                backend
            };
            assert_eq!(cipher.backend(), expected, "{}-bit key", key.bits());
            cipher
        })
        .collect()
}

fn cipher(key: &str) -> Cipher {
    Cipher::with_backend(&Key::try_new(&hex(key)).unwrap(), true, Backend::PREFERRED)
}

const GCM_KEY: &str = "feffe9928665731c6d6a8f9467308308";
const GCM_IV: &str = "cafebabefacedbaddecaf888";
const GCM_AAD: &str = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
const GCM_PLAINTEXT: &str = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
                             1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";

/// (key, AAD, ciphertext, tag): test cases 4, 10 and 16, one per key size, all with the
/// same nonce, AAD and 60-byte plaintext.
const GCM_CASES: [(&str, &str, &str); 3] = [
    (
        GCM_KEY,
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
         21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
        "5bc94fbc3221a5db94fae95ae7121a47",
    ),
    (
        "feffe9928665731c6d6a8f9467308308feffe9928665731c",
        "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c\
         7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
        "2519498e80f1478f37ba55bd6d27618c",
    ),
    (
        "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa\
         8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
        "76fc6ece0f4e1768cddf8853bb2d551b",
    ),
];

#[test]
fn gcm_known_answers_each_key_size() {
    let nonce: [u8; 12] = hex(GCM_IV).try_into().unwrap();
    for ((key, ciphertext, tag), cipher) in GCM_CASES
        .into_iter()
        .flat_map(|case| ciphers(&hex(case.0)).into_iter().map(move |c| (case, c)))
    {
        let (ct, t) = cipher.gcm_raw(&nonce, &hex(GCM_AAD), &hex(GCM_PLAINTEXT));
        assert_eq!(ct, hex(ciphertext), "key {key}");
        assert_eq!(t.to_vec(), hex(tag), "key {key}");

        // The same as a framed module, and back.
        let mut module = Vec::new();
        cipher
            .encrypt_gcm_with_nonce(&nonce, &hex(GCM_AAD), &hex(GCM_PLAINTEXT), &mut module)
            .unwrap();
        assert_eq!(module[..4], (12 + 60 + 16u32).to_le_bytes());
        assert_eq!(module[4..16], nonce);
        assert_eq!(module[16..76], hex(ciphertext));
        assert_eq!(module[76..], hex(tag));
        let frame = Frame::read(&module, TAG_LEN).unwrap();
        assert_eq!(frame.consumed, module.len());
        let mut out = vec![0; frame.plaintext_len()];
        cipher
            .decrypt_gcm(&frame, &hex(GCM_AAD), ModuleType::Footer, &mut out)
            .unwrap();
        assert_eq!(out, hex(GCM_PLAINTEXT));
        let mut appended = b"before".to_vec();
        cipher
            .decrypt_gcm_append(&frame, &hex(GCM_AAD), ModuleType::Footer, &mut appended)
            .unwrap();
        assert_eq!(appended[..6], *b"before");
        assert_eq!(appended[6..], hex(GCM_PLAINTEXT));
    }
}

/// Test cases 1/2, 7/8 and 13/14: zero key, zero nonce, no AAD, empty and one-block
/// plaintexts.
#[test]
fn gcm_known_answers_zero_key() {
    let cases = [
        (
            16,
            "58e2fccefa7e3061367f1d57a4e7455a",
            "0388dace60b6a392f328c2b971b2fe78",
            "ab6e47d42cec13bdf53a67b21257bddf",
        ),
        (
            24,
            "cd33b28ac773f74ba00ed1f312572435",
            "98e7247c07f0fe411c267e4384b0f600",
            "2ff58d80033927ab8ef4d4587514f0fb",
        ),
        (
            32,
            "530f8afbc74536b9a963b4f1c4cb738b",
            "cea7403d4d606b6e074ec5d3baf39d18",
            "d0d1c8a799996bf0265b98b5d48ab919",
        ),
    ];
    for ((len, empty_tag, block, block_tag), cipher) in cases.into_iter().flat_map(|case| {
        ciphers(&vec![0; case.0])
            .into_iter()
            .map(move |c| (case, c))
    }) {
        let (ct, tag) = cipher.gcm_raw(&[0; 12], &[], &[]);
        assert!(ct.is_empty());
        assert_eq!(tag.to_vec(), hex(empty_tag), "{len}-byte key");
        let (ct, tag) = cipher.gcm_raw(&[0; 12], &[], &[0; 16]);
        assert_eq!(ct, hex(block), "{len}-byte key");
        assert_eq!(tag.to_vec(), hex(block_tag), "{len}-byte key");
    }
}

const CTR_IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
const CTR_PLAINTEXT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                             30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

/// F.5.1 CTR-AES128, F.5.3 CTR-AES192, F.5.5 CTR-AES256 (the counter's low 32 bits run
/// from 0xfcfdfeff over a byte boundary, which a 32-bit counter handles like a 128-bit
/// one).
#[test]
fn ctr_known_answers_each_key_size() {
    let cases = [
        (
            "2b7e151628aed2a6abf7158809cf4f3c",
            "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
             5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
        ),
        (
            "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
            "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94\
             1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",
        ),
        (
            "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
            "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5\
             2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
        ),
    ];
    let iv: [u8; 16] = hex(CTR_IV).try_into().unwrap();
    for (key, ciphertext) in cases {
        let cipher = cipher(key);
        assert_eq!(
            cipher.ctr_raw(&iv, &hex(CTR_PLAINTEXT)),
            hex(ciphertext),
            "key {key}"
        );
        // Decryption is the same operation; partial blocks too.
        assert_eq!(
            cipher.ctr_raw(&iv, &hex(ciphertext)[..37]),
            hex(CTR_PLAINTEXT)[..37]
        );
    }
}

/// A Parquet CTR module's IV is the nonce followed by the counter 1, the block GCM uses
/// for its tag mask, so the CTR keystream from its second block on is GCM's keystream:
/// CTR(0^16 || P)[16..] == GCM(P).ciphertext under the same nonce.
#[test]
fn ctr_module_counter_starts_at_one() {
    let plaintext: Vec<u8> = (0..100u8).collect();
    for cipher in [16, 24, 32]
        .into_iter()
        .flat_map(|len| ciphers(&vec![7; len]))
    {
        let nonce = [0x5a; 12];
        let mut module = Vec::new();
        let mut padded = vec![0; 16];
        padded.extend_from_slice(&plaintext);
        cipher
            .encrypt_ctr_with_nonce(&nonce, &padded, &mut module)
            .unwrap();
        assert_eq!(module[..4], (12 + 116u32).to_le_bytes());
        assert_eq!(module[4..16], nonce);
        let (gcm_ciphertext, _) = cipher.gcm_raw(&nonce, b"", &plaintext);
        assert_eq!(module[32..], gcm_ciphertext[..]);

        let mut iv = [0; 16];
        iv[..12].copy_from_slice(&nonce);
        iv[15] = 1;
        assert_eq!(module[16..], cipher.ctr_raw(&iv, &padded)[..]);
    }
}

#[test]
fn frame_errors() {
    // Fewer than 4 bytes: no length field.
    assert_eq!(
        Frame::read(&[1, 0], TAG_LEN).err(),
        Some(CoreError::truncated("module length", 0, 4, 2).into())
    );
    // A length below the framing.
    assert_eq!(
        Frame::read(&[27, 0, 0, 0], TAG_LEN).err(),
        Some(
            CoreError::Invalid {
                what: "GCM module length",
                offset: 0,
                value: 27
            }
            .into()
        )
    );
    assert_eq!(
        Frame::read(&[11, 0, 0, 0], 0).err(),
        Some(
            CoreError::Invalid {
                what: "CTR module length",
                offset: 0,
                value: 11
            }
            .into()
        )
    );
    // A length beyond the input: reported before anything is allocated.
    assert_eq!(
        Frame::read(&[0xff, 0xff, 0xff, 0xff, 0, 0], TAG_LEN).err(),
        Some(CoreError::truncated("encrypted module", 4, u32::MAX as usize, 2).into())
    );
    // An empty plaintext is fine.
    let frame = Frame::read(&[12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9], 0).unwrap();
    assert_eq!(frame.consumed, 16);
    assert_eq!(frame.plaintext_len(), 0);
}

// ---------------------------------------------------------------------------------------
// The backends against each other

/// A cipher that is not ring's and one that is (the preferred one, which is `RustCrypto`'s
/// too without the `ring` feature: the test then holds `RustCrypto` against itself).
fn backend_pair(key: &Key, algorithm: Algorithm, file_aad: &[u8]) -> [ModuleCipher; 2] {
    let rust_crypto = ModuleCipher::with_backend(key, algorithm, file_aad, Backend::RustCrypto);
    let preferred = ModuleCipher::new(key, algorithm, file_aad);
    assert_eq!(rust_crypto.backend(), Backend::RustCrypto);
    if key.bits() != 192 {
        assert_eq!(preferred.backend(), Backend::PREFERRED);
    }
    [rust_crypto, preferred]
}

#[test]
fn ring_is_the_preferred_backend_with_the_feature() {
    #[cfg(feature = "ring")]
    assert_eq!(Backend::PREFERRED, Backend::Ring);
    #[cfg(not(feature = "ring"))]
    assert_eq!(Backend::PREFERRED, Backend::RustCrypto);

    let cipher = ModuleCipher::new(&Key::try_new(&[1; 24]).unwrap(), Algorithm::AesGcmV1, b"");
    assert_eq!(cipher.backend(), Backend::RustCrypto, "192 bits");
    assert!(format!("{cipher:?}").contains("gcm: \"RustCrypto\""));
    for len in [16, 32] {
        let key = Key::try_new(&vec![1; len]).unwrap();
        let cipher = ModuleCipher::new(&key, Algorithm::AesGcmV1, b"");
        assert_eq!(cipher.backend(), Backend::PREFERRED, "{len}-byte key");
        let name = Backend::PREFERRED.name();
        assert!(format!("{cipher:?}").contains(&format!("gcm: \"{name}\"")));
    }
}

/// The module AAD is held against [`Module::aad`] by every test that decrypts; here at
/// the lengths where it moves from the inline copy to the stack and from the stack to
/// the heap.
#[test]
fn module_aad_at_every_file_aad_length_boundary() {
    let key = Key::try_new(&[9; 16]).unwrap();
    let module = Module::DataPageHeader {
        row_group: 0x1234,
        column: 0x0102,
        page: 0x7fff,
    };
    let bytes: Vec<u8> = (0..300u16).map(|i| (i * 13).to_le_bytes()[0]).collect();
    for len in [0, 1, 8, 55, 56, 57, 58, 63, 64, 65, 248, 249, 250, 256, 300] {
        let file_aad = &bytes[..len];
        // Encrypted with the AAD as `Module::aad` spells it, decrypted by a module cipher.
        let mut encrypted = Vec::new();
        Cipher::with_backend(&key, false, Backend::PREFERRED)
            .encrypt_gcm_with_nonce(
                &[3; NONCE_LEN],
                &module.aad(file_aad).unwrap(),
                b"header",
                &mut encrypted,
            )
            .unwrap();
        let cipher = ModuleCipher::new(&key, Algorithm::AesGcmV1, file_aad);
        let mut out = Vec::new();
        cipher
            .decrypt(module, &encrypted, &mut out)
            .unwrap_or_else(|e| panic!("file AAD of {len} bytes: {e}"));
        assert_eq!(out, b"header");
        let mut again = Vec::new();
        cipher
            .encrypt_with_nonce(module, &[3; NONCE_LEN], b"header", &mut again)
            .unwrap();
        assert_eq!(again, encrypted, "file AAD of {len} bytes");
        assert_eq!(cipher.file_aad(), file_aad);
    }
}

fn same_modules_both_ways(
    key: &[u8],
    algorithm: Algorithm,
    file_aad: &[u8],
    module: Module,
    nonce: [u8; NONCE_LEN],
    plaintext: &[u8],
) -> std::result::Result<(), TestCaseError> {
    let key = Key::try_new(key).unwrap();
    let ciphers = backend_pair(&key, algorithm, file_aad);
    let modules: Vec<Vec<u8>> = ciphers
        .iter()
        .map(|cipher| {
            let mut out = b"prefix".to_vec();
            cipher
                .encrypt_with_nonce(module, &nonce, plaintext, &mut out)
                .unwrap();
            out.split_off(6)
        })
        .collect();
    prop_assert_eq!(
        &modules[0],
        &modules[1],
        "the same module from both backends"
    );
    prop_assert_eq!(
        modules[0].len(),
        plaintext.len() + algorithm.overhead(module)
    );
    for (decrypting, cipher) in ciphers.iter().enumerate() {
        for encrypted in &modules {
            let mut out = b"x".to_vec();
            prop_assert_eq!(
                cipher.decrypt(module, encrypted, &mut out),
                Ok(encrypted.len())
            );
            prop_assert_eq!(&out[1..], plaintext, "decrypt, backend {}", decrypting);
            let mut slice = vec![0x55; plaintext.len() + 3];
            prop_assert_eq!(
                cipher.decrypt_into(module, encrypted, &mut slice),
                Ok(crate::Decrypted {
                    consumed: encrypted.len(),
                    plaintext_len: plaintext.len()
                })
            );
            prop_assert_eq!(&slice[..plaintext.len()], plaintext);
            prop_assert_eq!(&slice[plaintext.len()..], &[0x55; 3]);
        }
        // Altered bytes fail the same way on either backend, leaving the output as it was.
        if !algorithm.uses_ctr(module) {
            let mut altered = modules[0].clone();
            let last = altered.len() - 1;
            altered[last] ^= 1;
            let failed = Error::Authentication {
                module: module.module_type(),
            };
            let mut out = b"x".to_vec();
            prop_assert_eq!(
                cipher.decrypt(module, &altered, &mut out),
                Err(failed.clone())
            );
            prop_assert_eq!(&out, b"x");
            let mut slice = vec![0x55; plaintext.len()];
            prop_assert_eq!(
                cipher.decrypt_into(module, &altered, &mut slice),
                Err(failed)
            );
            prop_assert!(
                slice.iter().all(|&b| b == 0x55),
                "nothing written on failure"
            );
        }
    }
    // The footer signature: the same tag from both.
    let tags: Vec<_> = ciphers
        .iter()
        .map(|cipher| cipher.gcm_tag(module, &nonce, plaintext))
        .collect();
    prop_assert!(tags[0].is_ok(), "{:?}", tags[0]);
    prop_assert_eq!(&tags[0], &tags[1]);
    Ok(())
}

#[test]
fn backends_give_the_same_modules_at_128_and_256_bits() {
    let plaintext: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 253) as u8).collect();
    let modules = [
        Module::Footer,
        Module::DataPageHeader {
            row_group: 1,
            column: 2,
            page: 3,
        },
        Module::DataPage {
            row_group: 1,
            column: 2,
            page: 3,
        },
    ];
    // Lengths around the block size, the stack scratch buffers of ring's decryption into
    // a slice (128 and 1024 bytes), and ring's bulk kernels.
    let lens = [
        0,
        1,
        15,
        16,
        17,
        100,
        128,
        129,
        1024,
        1025,
        4096 + 3,
        70_000,
    ];
    let long_aad = [0xa5; 300];
    for key_len in [16, 32] {
        for algorithm in [Algorithm::AesGcmV1, Algorithm::AesGcmCtrV1] {
            for (i, module) in modules.into_iter().enumerate() {
                for (j, len) in lens.into_iter().enumerate() {
                    let file_aad: &[u8] = if j % 2 == 0 {
                        b"tester\x01\x02"
                    } else {
                        &long_aad
                    };
                    let nonce = [u8::try_from(i * 16 + j).unwrap(); NONCE_LEN];
                    same_modules_both_ways(
                        &vec![0x42; key_len],
                        algorithm,
                        file_aad,
                        module,
                        nonce,
                        &plaintext[..len],
                    )
                    .unwrap();
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn backends_agree_on_anything(
        key in prop_oneof![
            prop::collection::vec(any::<u8>(), 16),
            prop::collection::vec(any::<u8>(), 32),
        ],
        file_aad in prop::collection::vec(any::<u8>(), 0..100),
        nonce in any::<[u8; NONCE_LEN]>(),
        plaintext in prop::collection::vec(any::<u8>(), 0..2000),
        ctr in any::<bool>(),
        page in any::<bool>(),
    ) {
        let algorithm = if ctr { Algorithm::AesGcmCtrV1 } else { Algorithm::AesGcmV1 };
        let module = if page {
            Module::DataPage { row_group: 0, column: 1, page: 2 }
        } else {
            Module::ColumnMetaData { row_group: 0, column: 1 }
        };
        same_modules_both_ways(&key, algorithm, &file_aad, module, nonce, &plaintext)?;
    }
}
