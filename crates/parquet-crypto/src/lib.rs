//! Parquet modular encryption (parquet-format.txt 7.3, "Parquet Modular Encryption"; the
//! upstream `Encryption.md`): the cryptographic layer under an encrypted Parquet file.
//!
//! - Algorithms ([`Algorithm`]): `AES_GCM_V1` (every module AES-GCM) and `AES_GCM_CTR_V1`
//!   (page bodies AES-CTR, every other module AES-GCM), with 128-, 192- and 256-bit
//!   [`Key`]s.
//! - Module AADs ([`Module`], [`ModuleType`], [`file_aad`]): file AAD (AAD prefix and
//!   `aad_file_unique`), module type byte, then the row group, column and page ordinals
//!   (little-endian `i16`) that the module type has.
//! - Module framing ([`ModuleCipher`]): `length: u32 LE, nonce: 12 bytes, ciphertext,
//!   tag: 16 bytes` for GCM, the same without the tag for CTR, whose 16-byte IV is the
//!   nonce followed by a 32-bit big-endian counter starting at 1.
//! - The footer: [`encrypt_footer`] and [`decrypt_footer`] for files ending in `PARE`,
//!   [`sign_footer`] and [`verify_footer_signature`] for encrypted files with a plaintext
//!   footer.
//! - Key retrieval ([`KeyRetriever`]): from the `key_metadata` stored in the file, through
//!   a [`KeyMap`] of key ids, a [`FixedKey`] or a closure.
//! - Files without module AADs ([`AadMode`]): `DuckDB` 2.0 encrypts every module (footer,
//!   page headers, pages, column metadata) with an empty AAD, not the specification's.
//!   [`decrypt_footer_or_without_aad`] tries the specification's footer AAD and then none,
//!   and says which authenticated; [`ModuleCipher::without_aad`] then decrypts the other
//!   modules of such a file ([`decrypt_footer_without_aad`] and
//!   [`encrypt_footer_without_aad`] do the footer alone). Without AADs, modules are not
//!   bound to their place in the file: see the security notes.
//!
//! Where modules sit in a file, and the thrift structures that describe them
//! (`FileCryptoMetaData`, `EncryptionAlgorithm`, `ColumnCryptoMetaData`), belong to the
//! thrift and file crates.
//!
//! ```
//! use parquet_crypto::{
//!     Algorithm, Error, Key, KeyMap, KeyRetriever, Module, ModuleCipher, ModuleType,
//!     decrypt_footer, encrypt_footer, file_aad, new_aad_file_unique,
//! };
//!
//! // Writer: one file AAD for the file, one cipher per key.
//! let keys = KeyMap::new()
//!     .with("kf", Key::try_new(b"0123456789012345")?)
//!     .with("kc1", Key::try_new(b"1234567890123450")?);
//! let file_aad = file_aad(b"tester", &new_aad_file_unique()?);
//! let column = ModuleCipher::new(&keys.retrieve_key(b"kc1")?, Algorithm::AesGcmCtrV1, &file_aad);
//!
//! let mut file = Vec::new();
//! let header = Module::DataPageHeader { row_group: 0, column: 1, page: 0 };
//! let page = Module::DataPage { row_group: 0, column: 1, page: 0 };
//! column.encrypt(header, b"page header", &mut file)?;
//! column.encrypt(page, b"page data", &mut file)?; // CTR: no tag
//! let footer_start = file.len();
//! encrypt_footer(&keys.retrieve_key(b"kf")?, &file_aad, b"FileMetaData", &mut file)?;
//!
//! // Reader: modules one after another, each from the start of the rest of the input.
//! let mut plaintext = Vec::new();
//! let used = column.decrypt(header, &file, &mut plaintext)?;
//! column.decrypt(page, &file[used..], &mut plaintext)?;
//! assert_eq!(plaintext, b"page headerpage data");
//! let footer = decrypt_footer(&keys.retrieve_key(b"kf")?, &file_aad, &file[footer_start..])?;
//! assert_eq!(footer, b"FileMetaData");
//!
//! // A wrong key does not give garbage: it gives an error.
//! let wrong = Key::try_new(b"1234567890123451")?;
//! assert_eq!(
//!     decrypt_footer(&wrong, &file_aad, &file[footer_start..]),
//!     Err(Error::Authentication { module: ModuleType::Footer }),
//! );
//! # Ok::<(), parquet_crypto::Error>(())
//! ```
//!
//! # Wire format
//!
//! ```text
//! GCM module   := length: u32 LE (= 12 + n + 16), nonce: 12 bytes, ciphertext: n bytes,
//!                 tag: 16 bytes
//! CTR module   := length: u32 LE (= 12 + n), nonce: 12 bytes, ciphertext: n bytes
//! CTR IV       := nonce, counter: u32 BE starting at 1 (0x00 0x00 0x00 0x01)
//! module AAD   := AAD prefix, aad_file_unique, module type: u8,
//!                 [row group ordinal: i16 LE, column ordinal: i16 LE, [page ordinal: i16 LE]]
//!                 (AadMode::Spec; under AadMode::Empty, DuckDB 2.0's, no bytes at all)
//! signature    := nonce: 12 bytes, tag: 16 bytes   (GCM of the plaintext footer, AAD of
//!                                                   the Footer module)
//! ```
//!
//! | module                 | type | row group | column | page | `AES_GCM_CTR_V1` |
//! |------------------------|------|-----------|--------|------|------------------|
//! | `Footer`               | 0    | no        | no     | no   | GCM              |
//! | `ColumnMetaData`       | 1    | yes       | yes    | no   | GCM              |
//! | `DataPage`             | 2    | yes       | yes    | yes  | CTR              |
//! | `DictionaryPage`       | 3    | yes       | yes    | no   | CTR              |
//! | `DataPageHeader`       | 4    | yes       | yes    | yes  | GCM              |
//! | `DictionaryPageHeader` | 5    | yes       | yes    | no   | GCM              |
//! | `ColumnIndex`          | 6    | yes       | yes    | no   | GCM              |
//! | `OffsetIndex`          | 7    | yes       | yes    | no   | GCM              |
//! | `BloomFilterHeader`    | 8    | yes       | yes    | no   | GCM              |
//! | `BloomFilterBitset`    | 9    | yes       | yes    | no   | GCM              |
//!
//! Under `AES_GCM_V1` every module is GCM. The page ordinal counts the data pages of a
//! column chunk from 0, the dictionary page not included.
//!
//! # Errors and panics
//!
//! Every fallible operation returns this crate's [`Error`]: malformed framing (a module
//! shorter than its length field says, a length below the framing overhead) and limits
//! (ordinals above [`MAX_ORDINAL`], modules over 4 GiB) are the [`parquet_core::Error`]
//! cases, wrapped; a GCM tag or footer signature that does not verify is
//! [`Error::Authentication`]. Nothing panics on any input. Decryption checks a module's
//! length field against the input before it allocates or decrypts, so a module cannot
//! make it allocate more than the input's length, and it releases no plaintext of a GCM
//! module whose tag fails: the caller's `Vec` or slice is left as it was.
//!
//! # Security notes
//!
//! - **Nonces.** Every encrypted module and every footer signature gets a fresh 12-byte
//!   nonce from the operating system's random generator (the RBG-based construction of
//!   NIST SP 800-38D, section 8.2.2, which the spec prescribes). Random 96-bit nonces stay
//!   safe for up to 2^32 modules per key; a writer that encrypts more than that with one
//!   key should rotate keys. There is no way to pass a nonce in.
//! - **CTR modules are not authenticated.** Under `AES_GCM_CTR_V1` page bodies carry no
//!   tag, so [`ModuleCipher::decrypt`] of a page cannot tell a wrong key or altered page
//!   bytes from the real thing: it returns garbage, not an error. In the file format the
//!   integrity of such a file rests on its GCM modules, which this crate does check: each
//!   page is read through its page header, a GCM module under the same column key whose
//!   AAD names the same row group, column and page, so a wrong key, or a page moved
//!   together with its header, fails at the header; and the header holds the page's
//!   sizes (and, if the writer set it, its CRC), which a reader should check against the
//!   page. What CTR cannot catch is page bytes altered or replaced while their header
//!   stays (a CRC in the header catches accidental damage, not a deliberate change: CRC32
//!   is linear, like CTR); a reader that needs that guarantee should require `AES_GCM_V1`
//!   files. Every GCM module, under either algorithm, is authenticated together with its
//!   AAD: a module moved to another place in the file, or to another file, fails to
//!   decrypt.
//! - **Files without AADs** ([`AadMode::Empty`], `DuckDB` 2.0's) lose that last guarantee:
//!   a GCM module is authenticated but not bound to its place, so modules under one key
//!   can be swapped, reordered or taken from another such file without an error. A
//!   reader should fall back to this mode only for files that need it (their footer
//!   authenticates only without an AAD) and keep to the mode of the footer for the rest
//!   of the file; writers should not use it.
//! - **Keys** are zeroed when dropped, on a best-effort basis: the [`Key`] bytes, and the
//!   expanded AES key schedules and GHASH keys of the `RustCrypto` ciphers. ring's
//!   expanded keys (GCM with 128- and 256-bit keys under the `ring` feature) are not: ring
//!   offers no way to. A user who needs that builds without the feature. Tags and
//!   signatures are compared in constant time.
//! - **Hardware.** ring uses AES-NI with CLMUL (and VAES with VPCLMULQDQ where the CPU has
//!   them) on x86-64, and the `ARMv8` AES and PMULL instructions on `AArch64`; the `aes`
//!   crate uses AES-NI or the `ARMv8` AES instructions, and GHASH carry-less
//!   multiplication likewise. All are detected at run time; without them, both fall back
//!   to constant-time software implementations.
//!
//! # Features
//!
//! - **`ring`** (default): AES-GCM with 128- and 256-bit keys through
//!   [ring](https://docs.rs/ring) 0.17, whose assembly (from `BoringSSL`) encrypts and
//!   authenticates in one pass: about 3x the speed of `RustCrypto`'s two-pass `aes-gcm` on
//!   x86-64, and what the arrow-rs `parquet` crate decrypts with. ring's build script
//!   compiles C and assembly, so it needs a C compiler for the target.
//! - Without it (`--no-default-features`), the crate is pure Rust: every cipher is
//!   `RustCrypto`'s (`aes`, `aes-gcm`, `ctr`).
//!
//! The two produce the same bytes (tested against each other and against the same
//! known-answer vectors), so a file written with one reads with the other.
//!
//! | work                                          | `ring` (default) | without      |
//! |-----------------------------------------------|------------------|--------------|
//! | GCM modules, footer, signature: 128, 256 bits | ring             | `RustCrypto` |
//! | GCM modules, footer, signature: 192 bits      | `RustCrypto`     | `RustCrypto` |
//! | CTR page bodies (`AES_GCM_CTR_V1`), any key   | `RustCrypto`     | `RustCrypto` |
//!
//! ring has no 192-bit GCM and no raw CTR mode. Key schedules are computed once, when a
//! [`ModuleCipher`] is made (and once per call of the footer functions, which take a
//! [`Key`]); the CTR schedule only for `AES_GCM_CTR_V1`.
//!
//! # Performance
//!
//! [`ModuleCipher::decrypt`] into a reused `Vec` is the fastest way to read: it appends
//! the ciphertext to the `Vec` and decrypts it there, in place, one copy in all (ring
//! decrypts in place only). [`ModuleCipher::decrypt_into`] promises to leave the
//! caller's slice untouched when a tag fails, and ring writes plaintext before it knows,
//! so with ring it decrypts in a scratch copy and copies the plaintext out: one copy more.
//! A module's AAD is built on the stack when the file AAD is at most 249 bytes long; a
//! longer one costs an allocation per module. Encryption asks the operating system for a
//! nonce for every module (one system call), which dominates the cost of encrypting a
//! short module.
//!
//! This crate is `#![forbid(unsafe_code)]`: the assembly and intrinsics are the cipher
//! crates'.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

mod aad;
mod cipher;
mod error;
mod footer;
mod key;
mod module;
mod module_type;

pub use aad::{AAD_FILE_UNIQUE_LEN, AadMode, MAX_ORDINAL, Module, file_aad, new_aad_file_unique};
pub use cipher::{CTR_MODULE_OVERHEAD, GCM_MODULE_OVERHEAD, LENGTH_LEN, NONCE_LEN, TAG_LEN};
pub use error::{Error, Result};
pub use footer::{
    FOOTER_SIGNATURE_LEN, decrypt_footer, decrypt_footer_or_without_aad,
    decrypt_footer_without_aad, encrypt_footer, encrypt_footer_without_aad, sign_footer,
    verify_footer_signature,
};
pub use key::{FixedKey, Key, KeyMap, KeyRetriever};
pub use module::{Algorithm, Decrypted, ModuleCipher};
pub use module_type::ModuleType;

/// Fills `bytes` from the operating system's random generator.
fn fill_random(bytes: &mut [u8]) -> Result<()> {
    getrandom::fill(bytes).map_err(|error| Error::Random {
        message: error.to_string(),
    })
}

/// Whether `a` and `b` are equal, in time that depends on their lengths only.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let difference = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    // Keep the compiler from turning the fold into an early exit.
    core::hint::black_box(difference) == 0
}
