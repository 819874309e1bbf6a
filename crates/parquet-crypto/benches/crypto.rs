//! Module encryption and decryption, in bytes/s: 1 MiB pages under GCM (`AES_GCM_V1`) and
//! CTR (`AES_GCM_CTR_V1`), and 100-byte modules (page headers) under GCM, each with a
//! 128- and a 256-bit key. Encryption includes drawing the nonce from the operating system.
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
        "AES-NI: {}, PCLMULQDQ: {} (the aes and ghash crates detect these at run time)",
        std::arch::is_x86_feature_detected!("aes"),
        std::arch::is_x86_feature_detected!("pclmulqdq"),
    );
}

fn modules(c: &mut Criterion) {
    report_hardware();
    let file_aad = b"tester\x01\x02\x03\x04\x05\x06\x07\x08";
    for (len, what, module) in [(1 << 20, "page 1 MiB", PAGE), (100, "header 100 B", HEADER)] {
        let plaintext = data(len);
        let mut group = c.benchmark_group(what);
        group.throughput(Throughput::Bytes(len as u64));
        for key_len in [16, 32] {
            let key = Key::try_new(&data(key_len)).unwrap();
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
                let mut decrypted = vec![0; len];
                group.bench_function(BenchmarkId::new("decrypt", &id), |b| {
                    b.iter(|| {
                        cipher
                            .decrypt_into(module, black_box(&encrypted), &mut decrypted)
                            .unwrap()
                    });
                });
                assert_eq!(decrypted, plaintext);
            }
        }
        group.finish();
    }
}

criterion_group!(benches, modules);
criterion_main!(benches);
