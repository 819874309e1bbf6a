//! The footer: encrypted (parquet-format.txt 7.3, section 5.4, files ending in `PARE`) or
//! plaintext and signed (section 5.5, files ending in `PAR1`).
//!
//! ```text
//! encrypted footer file tail := FileCryptoMetaData (thrift, plaintext),
//!                               footer module (GCM, AAD = file AAD, 0x00),
//!                               length of both: u32 LE, "PARE"
//! signed footer file tail    := FileMetaData (thrift, plaintext),
//!                               signature := nonce: 12 bytes, tag: 16 bytes,
//!                               length of both: u32 LE, "PAR1"
//! ```
//!
//! The signature is the nonce and tag of the GCM encryption of the serialized
//! `FileMetaData` with the footer key and the footer AAD; the ciphertext is thrown away.
//! Both layouts use GCM under either algorithm. Reading `FileCryptoMetaData` and
//! `FileMetaData` is the thrift crate's business; here are the cryptographic steps.

use crate::cipher::{NONCE_LEN, TAG_LEN};
use crate::{Algorithm, Error, Key, Module, ModuleCipher, ModuleType, Result};

/// The length of a plaintext footer's signature: a 12-byte nonce and a 16-byte tag.
pub const FOOTER_SIGNATURE_LEN: usize = NONCE_LEN + TAG_LEN;

fn footer_cipher(key: &Key, file_aad: &[u8]) -> ModuleCipher {
    ModuleCipher::new(key, Algorithm::AesGcmV1, file_aad)
}

/// Appends the serialized `FileMetaData` in `footer`, encrypted as a footer module with a
/// fresh nonce, to `out`.
///
/// # Errors
///
/// As [`ModuleCipher::encrypt`].
pub fn encrypt_footer(key: &Key, file_aad: &[u8], footer: &[u8], out: &mut Vec<u8>) -> Result<()> {
    footer_cipher(key, file_aad).encrypt(Module::Footer, footer, out)
}

/// Decrypts the footer module `module` (the bytes after `FileCryptoMetaData`, up to the
/// footer length field) and returns the serialized `FileMetaData`.
///
/// # Errors
///
/// As [`ModuleCipher::decrypt`] (a wrong footer key or file AAD is
/// [`Error::Authentication`]), and [`parquet_core::Error::Invalid`] (in [`Error::Core`])
/// when bytes follow the module.
pub fn decrypt_footer(key: &Key, file_aad: &[u8], module: &[u8]) -> Result<Vec<u8>> {
    let mut footer = Vec::new();
    let consumed = footer_cipher(key, file_aad).decrypt(Module::Footer, module, &mut footer)?;
    if consumed != module.len() {
        return Err(parquet_core::Error::Invalid {
            what: "bytes after the footer module",
            offset: consumed,
            value: (module.len() - consumed) as u64,
        }
        .into());
    }
    Ok(footer)
}

/// The signature of a plaintext footer: a fresh nonce and the GCM tag of the serialized
/// `FileMetaData` in `footer` under the footer key and the footer AAD. A writer appends it
/// right after the footer.
///
/// # Errors
///
/// [`Error::Random`] if the operating system cannot produce a nonce.
pub fn sign_footer(
    key: &Key,
    file_aad: &[u8],
    footer: &[u8],
) -> Result<[u8; FOOTER_SIGNATURE_LEN]> {
    let mut nonce = [0; NONCE_LEN];
    crate::fill_random(&mut nonce)?;
    let tag = footer_cipher(key, file_aad).gcm_tag(Module::Footer, &nonce, footer)?;
    let mut signature = [0; FOOTER_SIGNATURE_LEN];
    signature[..NONCE_LEN].copy_from_slice(&nonce);
    signature[NONCE_LEN..].copy_from_slice(&tag);
    Ok(signature)
}

/// Checks the signature of a plaintext footer: recomputes the GCM tag of `footer` with the
/// signature's nonce and compares it, in constant time, with the signature's tag.
///
/// # Errors
///
/// [`Error::Authentication`] (for [`ModuleType::Footer`]) when the footer, the key or the
/// file AAD is not the one that was signed.
pub fn verify_footer_signature(
    key: &Key,
    file_aad: &[u8],
    footer: &[u8],
    signature: &[u8; FOOTER_SIGNATURE_LEN],
) -> Result<()> {
    let (nonce, tag) = signature.split_at(NONCE_LEN);
    let nonce: &[u8; NONCE_LEN] = nonce.try_into().map_err(|_| mismatch())?;
    let expected = footer_cipher(key, file_aad).gcm_tag(Module::Footer, nonce, footer)?;
    if crate::constant_time_eq(&expected, tag) {
        Ok(())
    } else {
        Err(mismatch())
    }
}

fn mismatch() -> Error {
    Error::Authentication {
        module: ModuleType::Footer,
    }
}
