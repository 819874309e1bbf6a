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

use crate::aad::AadMode;
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
    decrypt_footer_with(&footer_cipher(key, file_aad), module)
}

/// Appends the serialized `FileMetaData` in `footer`, encrypted as a footer module with
/// no AAD at all ([`AadMode::Empty`], as `DuckDB` 2.0 writes it), to `out`: for tests, and
/// the counterpart of [`decrypt_footer_without_aad`]. Writers should use
/// [`encrypt_footer`].
///
/// # Errors
///
/// As [`ModuleCipher::encrypt`].
pub fn encrypt_footer_without_aad(key: &Key, footer: &[u8], out: &mut Vec<u8>) -> Result<()> {
    ModuleCipher::without_aad(key, Algorithm::AesGcmV1).encrypt(Module::Footer, footer, out)
}

/// Decrypts a footer module encrypted with no AAD at all ([`AadMode::Empty`]): what
/// `DuckDB` 2.0 writes, whose `FileCryptoMetaData` has neither `aad_prefix` nor
/// `aad_file_unique`. The rest of such a file decrypts with
/// [`ModuleCipher::without_aad`].
///
/// # Errors
///
/// As [`decrypt_footer`].
pub fn decrypt_footer_without_aad(key: &Key, module: &[u8]) -> Result<Vec<u8>> {
    decrypt_footer_with(&ModuleCipher::without_aad(key, Algorithm::AesGcmV1), module)
}

/// Decrypts the footer module with the specification's AAD ([`decrypt_footer`]) or,
/// when that does not authenticate, with none ([`decrypt_footer_without_aad`]), and
/// says which did: a reader then decrypts the file's other modules the same way
/// ([`ModuleCipher::new`] or [`ModuleCipher::without_aad`]).
///
/// ```
/// use parquet_crypto::{AadMode, Key, decrypt_footer_or_without_aad, encrypt_footer,
///     encrypt_footer_without_aad, file_aad};
///
/// let key = Key::try_new(b"0123456789012345")?;
/// let file_aad = file_aad(b"", b"");
/// let mut spec = Vec::new();
/// encrypt_footer(&key, &file_aad, b"FileMetaData", &mut spec)?;
/// let mut duckdb = Vec::new();
/// encrypt_footer_without_aad(&key, b"FileMetaData", &mut duckdb)?;
///
/// assert_eq!(decrypt_footer_or_without_aad(&key, &file_aad, &spec)?.1, AadMode::Spec);
/// let (footer, mode) = decrypt_footer_or_without_aad(&key, &file_aad, &duckdb)?;
/// assert_eq!((&footer[..], mode), (&b"FileMetaData"[..], AadMode::Empty));
/// # Ok::<(), parquet_crypto::Error>(())
/// ```
///
/// # Errors
///
/// As [`decrypt_footer`]: when neither authenticates, the error of the specification's
/// AAD ([`Error::Authentication`], a wrong key most likely).
pub fn decrypt_footer_or_without_aad(
    key: &Key,
    file_aad: &[u8],
    module: &[u8],
) -> Result<(Vec<u8>, AadMode)> {
    match decrypt_footer(key, file_aad, module) {
        Ok(footer) => Ok((footer, AadMode::Spec)),
        Err(error @ Error::Authentication { .. }) => decrypt_footer_without_aad(key, module)
            .map(|footer| (footer, AadMode::Empty))
            .map_err(|_| error),
        Err(error) => Err(error),
    }
}

/// Decrypts the footer module `module` with `cipher`, which must take all of it.
fn decrypt_footer_with(cipher: &ModuleCipher, module: &[u8]) -> Result<Vec<u8>> {
    let mut footer = Vec::new();
    let consumed = cipher.decrypt(Module::Footer, module, &mut footer)?;
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
