//! Module encryption and decryption, in bytes/s: 1 MiB pages under GCM (`AES_GCM_V1`) and
//! CTR (`AES_GCM_CTR_V1`), and 100-byte modules (page headers) under GCM, each with a
//! 128- and a 256-bit key. Encryption includes drawing the nonce from the operating system.
//! Decryption both ways: `decrypt` appending to a reused `Vec`, and `decrypt_into` a
//! slice. With the `ring` feature, GCM rows also run ring itself the way arrow-rs does
//! (a copy of the ciphertext, then `LessSafeKey::open_in_place`) as the reference; run
//! with `--no-default-features` for the pure-Rust backend.
#![allow(missing_docs, clippy::unwrap_used, clippy::print_stderr)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parquet_crypto::{Algorithm, Key, Module, ModuleCipher};
use std::hint::black_box;

const PAGE: Module = Module::DataPage {
    row_group: 0,
    column: 3,
    page: 7,
};
const HEADER: Module = Module::DataPageHeader {
    row_group: 0,
    column: 3,
    page: 7,
};

fn data(len: usize) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect()
}

fn report_hardware() {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    eprintln!(
        "AES-NI: {}, PCLMULQDQ: {}, VAES: {}, VPCLMULQDQ: {} (detected at run time); GCM \
         backend for 128/256-bit keys: {}",
        std::arch::is_x86_feature_detected!("aes"),
        std::arch::is_x86_feature_detected!("pclmulqdq"),
        std::arch::is_x86_feature_detected!("vaes"),
        std::arch::is_x86_feature_detected!("vpclmulqdq"),
        if cfg!(feature = "ring") {
            "ring"
        } else {
            "RustCrypto"
        },
    );
}

/// ring's decryption of a GCM module as arrow-rs does it: a copy of nonce-less module
/// (ciphertext and tag), opened in place.
#[cfg(feature = "ring")]
fn ring_reference(key: &[u8], aad: Vec<u8>) -> impl Fn(&[u8]) -> Vec<u8> {
    use ring::aead::{AES_128_GCM, AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
    let algorithm = if key.len() == 16 {
        &AES_128_GCM
    } else {
        &AES_256_GCM
    };
    let key = LessSafeKey::new(UnboundKey::new(algorithm, key).unwrap());
    move |module: &[u8]| {
        let mut buffer = module[16..].to_vec();
        let nonce = Nonce::try_assume_unique_for_key(&module[4..16]).unwrap();
        let len = key
            .open_in_place(nonce, Aad::from(&aad), &mut buffer)
            .unwrap()
            .len();
        buffer.truncate(len);
        buffer
    }
}

fn modules(c: &mut Criterion) {
    report_hardware();
    let file_aad = b"tester\x01\x02\x03\x04\x05\x06\x07\x08";
    for (len, what, module) in [(1 << 20, "page 1 MiB", PAGE), (100, "header 100 B", HEADER)] {
        let plaintext = data(len);
        let mut group = c.benchmark_group(what);
        group.throughput(Throughput::Bytes(len as u64));
        for key_len in [16, 32] {
            let key_bytes = data(key_len);
            let key = Key::try_new(&key_bytes).unwrap();
            for (mode, algorithm) in [
                ("gcm", Algorithm::AesGcmV1),
                ("ctr", Algorithm::AesGcmCtrV1),
            ] {
                if mode == "ctr" && !module.is_page() {
                    continue; // headers are GCM under both algorithms
                }
                let cipher = ModuleCipher::new(&key, algorithm, file_aad);
                let id = format!("{mode}/aes{}", key_len * 8);
                let mut encrypted = Vec::with_capacity(len + 32);
                group.bench_function(BenchmarkId::new("encrypt", &id), |b| {
                    b.iter(|| {
                        encrypted.clear();
                        cipher
                            .encrypt(module, black_box(&plaintext), &mut encrypted)
                            .unwrap();
                    });
                });
                encrypted.clear();
                cipher.encrypt(module, &plaintext, &mut encrypted).unwrap();
                // Checked before, not after, the timed runs: a filter can skip those.
                let mut decrypted = Vec::with_capacity(len);
                cipher.decrypt(module, &encrypted, &mut decrypted).unwrap();
                assert_eq!(decrypted, plaintext);
                group.bench_function(BenchmarkId::new("decrypt", &id), |b| {
                    b.iter(|| {
                        decrypted.clear();
                        cipher
                            .decrypt(module, black_box(&encrypted), &mut decrypted)
                            .unwrap()
                    });
                });
                let mut slice = vec![0; len];
                cipher.decrypt_into(module, &encrypted, &mut slice).unwrap();
                assert_eq!(slice, plaintext);
                group.bench_function(BenchmarkId::new("decrypt_into", &id), |b| {
                    b.iter(|| {
                        cipher
                            .decrypt_into(module, black_box(&encrypted), &mut slice)
                            .unwrap()
                    });
                });
                #[cfg(feature = "ring")]
                if mode == "gcm" {
                    let reference = ring_reference(&key_bytes, module.aad(file_aad).unwrap());
                    assert_eq!(reference(&encrypted), plaintext);
                    group.bench_function(BenchmarkId::new("ring (arrow-rs)", &id), |b| {
                        b.iter(|| reference(black_box(&encrypted)));
                    });
                }
            }
        }
        group.finish();
    }
}

criterion_group!(benches, modules);
criterion_main!(benches);
