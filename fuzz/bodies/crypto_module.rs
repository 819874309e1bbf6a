//! Decrypting arbitrary bytes as a module, under both algorithms: an error, never a panic
//! and never an allocation from the module's length field; and a module made here round
//! trips.
//!
//! Shared by the fuzz target `crypto_module` and by the replay test
//! `crates/parquet-crypto/tests/fuzz_regressions.rs`, which runs every input of
//! `fuzz/regressions/crypto_module/` through [`run`].
//! It uses only crates that this test can use.

use parquet_crypto::{Algorithm, Key, Module, ModuleCipher, decrypt_footer};

/// Runs one input.
///
/// # Panics
///
/// When the input breaks a property this target checks: a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let key = Key::try_new(&[7u8; 16]).unwrap();
    let algorithm = if selector & 1 == 0 {
        Algorithm::AesGcmV1
    } else {
        Algorithm::AesGcmCtrV1
    };
    let cipher = ModuleCipher::new(&key, algorithm, b"fuzz");
    let page = usize::from(selector >> 1);
    let module = Module::DataPage {
        row_group: 0,
        column: 1,
        page,
    };
    let mut out = Vec::new();
    if let Ok(used) = cipher.decrypt(module, input, &mut out) {
        // Without a tag, CTR decrypts any well-framed bytes; GCM cannot authenticate them.
        assert_eq!(algorithm, Algorithm::AesGcmCtrV1);
        assert!(used <= input.len());
    }
    assert!(decrypt_footer(&key, b"fuzz", input).is_err());
    let _ = cipher.decrypt(
        Module::ColumnMetaData {
            row_group: page,
            column: 0,
        },
        input,
        &mut out,
    );

    let mut encrypted = Vec::new();
    cipher.encrypt(module, input, &mut encrypted).unwrap();
    let mut plain = Vec::new();
    assert_eq!(
        cipher.decrypt(module, &encrypted, &mut plain),
        Ok(encrypted.len())
    );
    assert_eq!(plain, input);
}
