//! AES-GCM module decryption against what arrow-rs runs: its `RingGcmBlockDecryptor`
//! (crate-private) copies the ciphertext and calls ring's `LessSafeKey::open_in_place`,
//! which is what the arrow-rs side does here. arrow-rs has no AES_GCM_CTR_V1, so CTR
//! pages have no row.

use crate::Bench;
use parquet_crypto::{Algorithm, Key, Module, ModuleCipher};
use ring::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use std::hint::black_box;

const KEY: &[u8; 16] = b"0123456789012345";
const FILE_AAD: &[u8] = b"file-aad";

pub fn run(bench: &mut Bench) {
    for (name, module, len) in [
        (
            "AES-GCM decrypt, 1 MiB data page",
            Module::DataPage {
                row_group: 0,
                column: 3,
                page: 7,
            },
            1 << 20,
        ),
        (
            "AES-GCM decrypt, 100-byte page header",
            Module::DataPageHeader {
                row_group: 0,
                column: 3,
                page: 7,
            },
            100,
        ),
    ] {
        if bench.wanted(name) {
            decrypt(bench, name, module, len);
        }
    }
}

fn decrypt(bench: &mut Bench, name: &str, module: Module, len: usize) {
    let key = Key::try_new(KEY).unwrap();
    let cipher = ModuleCipher::new(&key, Algorithm::AesGcmV1, FILE_AAD);
    let plaintext: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
    let mut encrypted = Vec::new();
    cipher.encrypt(module, &plaintext, &mut encrypted).unwrap();
    let aad = module.aad(FILE_AAD).unwrap();
    let ring_key = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, KEY).unwrap());
    let ring_decrypt = |module_bytes: &[u8]| -> Vec<u8> {
        let mut buffer = module_bytes[16..].to_vec();
        let nonce = Nonce::try_assume_unique_for_key(&module_bytes[4..16]).unwrap();
        let plain = ring_key
            .open_in_place(nonce, Aad::from(&aad), &mut buffer)
            .unwrap()
            .len();
        buffer.truncate(plain);
        buffer
    };
    assert_eq!(ring_decrypt(&encrypted), plaintext);
    let mut ours = Vec::with_capacity(len);
    assert_eq!(
        cipher.decrypt(module, &encrypted, &mut ours),
        Ok(encrypted.len())
    );
    assert_eq!(ours, plaintext);
    bench.run(
        name,
        1,
        len,
        &mut || {
            ours.clear();
            cipher
                .decrypt(module, black_box(&encrypted), &mut ours)
                .unwrap();
        },
        &mut || {
            black_box(ring_decrypt(black_box(&encrypted)));
        },
    );
}
