//! Encrypting and decrypting modules with one key.

use crate::aad::{AadMode, FileAad, Suffix};
use crate::cipher::{
    Backend, CTR_MODULE_OVERHEAD, Cipher, Frame, GCM_MODULE_OVERHEAD, NONCE_LEN, TAG_LEN,
};
use crate::{Error, Key, Module, Result};
use std::fmt;

/// The encryption algorithms of parquet-format.txt 7.3, section 4.2: the
/// `EncryptionAlgorithm` union of the file metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// `AES_GCM_V1`: every module is encrypted and authenticated with AES-GCM.
    AesGcmV1,
    /// `AES_GCM_CTR_V1`: page bodies are encrypted with AES-CTR, without authentication;
    /// every other module (page headers included) with AES-GCM.
    AesGcmCtrV1,
}

impl Algorithm {
    /// Whether this algorithm encrypts `module` with CTR (page bodies under
    /// [`AesGcmCtrV1`](Self::AesGcmCtrV1)) rather than GCM.
    pub const fn uses_ctr(self, module: Module) -> bool {
        matches!(self, Self::AesGcmCtrV1) && module.is_page()
    }

    /// The bytes that encryption adds to a module: length field and nonce, and for GCM
    /// the tag (32 bytes for GCM, 16 for CTR).
    pub const fn overhead(self, module: Module) -> usize {
        if self.uses_ctr(module) {
            CTR_MODULE_OVERHEAD
        } else {
            GCM_MODULE_OVERHEAD
        }
    }
}

/// What a decryption into a caller's slice did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decrypted {
    /// The bytes of input the module took, its length field included: where the next
    /// structure starts.
    pub consumed: usize,
    /// The plaintext length, written to the front of the caller's slice.
    pub plaintext_len: usize,
}

/// Encrypts and decrypts the modules of one file with one key (the footer key or one
/// column's key): the AES key schedule and GHASH key are computed once, here.
///
/// Encryption draws a fresh 12-byte nonce from the operating system for every module and
/// appends the framed module to a caller's `Vec`. Decryption reads one module from the
/// start of a slice, checks its length field against the input before allocating or
/// decrypting anything, and for GCM verifies the tag before writing any plaintext.
///
/// ```
/// use parquet_crypto::{Algorithm, Error, Key, Module, ModuleCipher, ModuleType, file_aad};
///
/// let key = Key::try_new(b"1234567890123450")?;
/// let file_aad = file_aad(b"", &parquet_crypto::new_aad_file_unique()?);
/// let column = ModuleCipher::new(&key, Algorithm::AesGcmV1, &file_aad);
///
/// let header = Module::DataPageHeader { row_group: 0, column: 5, page: 0 };
/// let mut file = Vec::new();
/// column.encrypt(header, b"a thrift PageHeader", &mut file)?;
///
/// let mut plaintext = Vec::new();
/// assert_eq!(column.decrypt(header, &file, &mut plaintext)?, file.len());
/// assert_eq!(plaintext, b"a thrift PageHeader");
///
/// // The same bytes read as the header of another page do not authenticate.
/// let moved = Module::DataPageHeader { row_group: 0, column: 5, page: 1 };
/// assert_eq!(
///     column.decrypt(moved, &file, &mut plaintext),
///     Err(Error::Authentication { module: ModuleType::DataPageHeader }),
/// );
/// # Ok::<(), parquet_crypto::Error>(())
/// ```
#[derive(Clone)]
pub struct ModuleCipher {
    cipher: Cipher,
    algorithm: Algorithm,
    file_aad: FileAad,
    aad_mode: AadMode,
}

impl ModuleCipher {
    /// A cipher for the modules of the file whose file AAD (AAD prefix followed by
    /// `aad_file_unique`, see [`file_aad`](crate::file_aad)) is `file_aad`: each GCM
    /// module's AAD is the specification's ([`AadMode::Spec`]).
    pub fn new(key: &Key, algorithm: Algorithm, file_aad: &[u8]) -> Self {
        Self::with_backend(key, algorithm, file_aad, Backend::PREFERRED)
    }

    /// A cipher whose GCM modules have no AAD at all ([`AadMode::Empty`]), as `DuckDB`
    /// 2.0 writes them: not the specification's, and not bound to their place in the
    /// file. For reading such files, after their footer has authenticated only without
    /// an AAD (see [`decrypt_footer_or_without_aad`](crate::decrypt_footer_or_without_aad));
    /// encrypting with it is for tests and symmetry.
    ///
    /// ```
    /// use parquet_crypto::{Algorithm, AadMode, Error, Key, Module, ModuleCipher, file_aad};
    ///
    /// let key = Key::try_new(b"1234567890123450")?;
    /// let duckdb = ModuleCipher::without_aad(&key, Algorithm::AesGcmV1);
    /// assert_eq!(duckdb.aad_mode(), AadMode::Empty);
    /// let header = Module::DataPageHeader { row_group: 0, column: 1, page: 0 };
    /// let mut file = Vec::new();
    /// duckdb.encrypt(header, b"a thrift PageHeader", &mut file)?;
    ///
    /// // The specification's AAD (here of a file without AAD prefix or file unique: the
    /// // module type and ordinals) does not authenticate it; no AAD does, whatever the
    /// // module is read as.
    /// let spec = ModuleCipher::new(&key, Algorithm::AesGcmV1, &file_aad(b"", b""));
    /// let mut plaintext = Vec::new();
    /// assert!(matches!(spec.decrypt(header, &file, &mut plaintext), Err(Error::Authentication { .. })));
    /// let elsewhere = Module::DataPageHeader { row_group: 3, column: 2, page: 9 };
    /// duckdb.decrypt(elsewhere, &file, &mut plaintext)?;
    /// assert_eq!(plaintext, b"a thrift PageHeader");
    /// # Ok::<(), parquet_crypto::Error>(())
    /// ```
    pub fn without_aad(key: &Key, algorithm: Algorithm) -> Self {
        Self::with_aad_mode(key, algorithm, &[], AadMode::Empty, Backend::PREFERRED)
    }

    /// [`new`](Self::new) with GCM on `backend` where the key size allows it: for tests
    /// that hold the backends against each other.
    pub(crate) fn with_backend(
        key: &Key,
        algorithm: Algorithm,
        file_aad: &[u8],
        backend: Backend,
    ) -> Self {
        Self::with_aad_mode(key, algorithm, file_aad, AadMode::Spec, backend)
    }

    pub(crate) fn with_aad_mode(
        key: &Key,
        algorithm: Algorithm,
        file_aad: &[u8],
        aad_mode: AadMode,
        backend: Backend,
    ) -> Self {
        Self {
            cipher: Cipher::with_backend(key, algorithm == Algorithm::AesGcmCtrV1, backend),
            algorithm,
            file_aad: FileAad::new(file_aad),
            aad_mode,
        }
    }

    /// How the AAD of each GCM module is built.
    pub fn aad_mode(&self) -> AadMode {
        self.aad_mode
    }

    /// Calls `f` with the AAD of the module whose AAD suffix (module type and ordinals)
    /// is `suffix`: the file AAD and the suffix, or nothing under [`AadMode::Empty`].
    #[inline]
    fn with_aad<R>(&self, suffix: Suffix, f: impl FnOnce(&[u8]) -> R) -> R {
        match self.aad_mode {
            AadMode::Spec => self.file_aad.with_aad(suffix, f),
            AadMode::Empty => f(&[]),
        }
    }

    /// The backend that runs this cipher's GCM.
    #[cfg(test)]
    pub(crate) fn backend(&self) -> Backend {
        self.cipher.backend()
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The file AAD (empty for a cipher [`without_aad`](Self::without_aad)).
    pub fn file_aad(&self) -> &[u8] {
        self.file_aad.as_bytes()
    }

    /// Appends `module`, encrypted from `plaintext` with a fresh random nonce, to `out`:
    /// length, nonce, ciphertext and (for GCM) tag.
    ///
    /// # Errors
    ///
    /// [`parquet_core::Error::LimitExceeded`] (in [`Error::Core`]) for an ordinal above
    /// [`MAX_ORDINAL`](crate::MAX_ORDINAL) or a plaintext too long for the 4-byte length
    /// field; [`Error::Random`] if the operating system cannot produce a nonce. `out` is
    /// left as it was on error.
    pub fn encrypt(&self, module: Module, plaintext: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let mut nonce = [0; NONCE_LEN];
        crate::fill_random(&mut nonce)?;
        self.encrypt_with_nonce(module, &nonce, plaintext, out)
    }

    /// [`encrypt`](Self::encrypt) with a given nonce: for tests.
    pub(crate) fn encrypt_with_nonce(
        &self,
        module: Module,
        nonce: &[u8; NONCE_LEN],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        if self.algorithm.uses_ctr(module) {
            // The AAD is not used by CTR, but its ordinals are checked all the same.
            module.check_ordinals()?;
            self.cipher.encrypt_ctr_with_nonce(nonce, plaintext, out)
        } else {
            self.with_aad(module.suffix()?, |aad| {
                self.cipher
                    .encrypt_gcm_with_nonce(nonce, aad, plaintext, out)
            })
        }
    }

    /// Decrypts the module at the start of `input`, appends its plaintext to `out`, and
    /// returns the bytes of input it took (its length field included). Bytes after the
    /// module are not looked at.
    ///
    /// # Errors
    ///
    /// - [`Error::Authentication`] when the GCM tag does not verify: wrong key, wrong file
    ///   AAD, wrong `module` (a module moved from elsewhere), altered bytes. CTR modules
    ///   carry no tag and cannot fail this way; see the crate docs.
    /// - [`parquet_core::Error::Truncated`] for input shorter than its length field says,
    ///   [`parquet_core::Error::Invalid`] for a length below the framing overhead (both in
    ///   [`Error::Core`]), and the ordinal limit of [`encrypt`](Self::encrypt).
    ///
    /// `out` is left as it was on error: no unauthenticated plaintext is released.
    pub fn decrypt(&self, module: Module, input: &[u8], out: &mut Vec<u8>) -> Result<usize> {
        if self.algorithm.uses_ctr(module) {
            let frame = Frame::read(input, 0)?;
            module.check_ordinals()?;
            self.cipher.decrypt_ctr_append(&frame, out)?;
            Ok(frame.consumed)
        } else {
            let frame = Frame::read(input, TAG_LEN)?;
            let suffix = module.suffix()?;
            // Not `module` itself into the closure: copying the 32-byte enum costs more
            // than the rest of this function on a short module.
            let module_type = module.module_type();
            self.with_aad(suffix, |aad| {
                self.cipher
                    .decrypt_gcm_append(&frame, aad, module_type, out)
            })?;
            Ok(frame.consumed)
        }
    }

    /// Decrypts the module at the start of `input` into the front of `out`, which must
    /// hold at least its plaintext (see [`plaintext_len`](Self::plaintext_len)).
    ///
    /// # Errors
    ///
    /// As [`decrypt`](Self::decrypt), and [`Error::OutputTooSmall`]. On an authentication
    /// error `out` is not written to.
    ///
    /// With the `ring` feature a GCM module costs one copy more here than through
    /// [`decrypt`](Self::decrypt) into a reused `Vec`: ring decrypts in place, before it
    /// knows whether the tag verifies, so the plaintext is made in a scratch copy of the
    /// ciphertext and copied out.
    pub fn decrypt_into(&self, module: Module, input: &[u8], out: &mut [u8]) -> Result<Decrypted> {
        let frame = Frame::read(input, self.tag_len(module))?;
        let len = frame.plaintext_len();
        let available = out.len();
        let out = out.get_mut(..len).ok_or(Error::OutputTooSmall {
            needed: len,
            available,
        })?;
        self.decrypt_frame(module, &frame, out)?;
        Ok(Decrypted {
            consumed: frame.consumed,
            plaintext_len: len,
        })
    }

    /// The plaintext length of the module at the start of `input`, from its length field.
    ///
    /// # Errors
    ///
    /// The framing errors of [`decrypt`](Self::decrypt).
    pub fn plaintext_len(&self, module: Module, input: &[u8]) -> Result<usize> {
        Ok(Frame::read(input, self.tag_len(module))?.plaintext_len())
    }

    /// The length of `module`'s tag: 0 for CTR, [`TAG_LEN`] for GCM.
    fn tag_len(&self, module: Module) -> usize {
        if self.algorithm.uses_ctr(module) {
            0
        } else {
            TAG_LEN
        }
    }

    fn decrypt_frame(&self, module: Module, frame: &Frame<'_>, out: &mut [u8]) -> Result<()> {
        if self.algorithm.uses_ctr(module) {
            module.check_ordinals()?;
            self.cipher.decrypt_ctr(frame, out)
        } else {
            let suffix = module.suffix()?;
            let module_type = module.module_type();
            self.with_aad(suffix, |aad| {
                self.cipher.decrypt_gcm(frame, aad, module_type, out)
            })
        }
    }

    /// The GCM tag of `plaintext` as `module`, under `nonce`: the footer signature.
    pub(crate) fn gcm_tag(
        &self,
        module: Module,
        nonce: &[u8; NONCE_LEN],
        plaintext: &[u8],
    ) -> Result<[u8; TAG_LEN]> {
        self.with_aad(module.suffix()?, |aad| {
            self.cipher.gcm_tag(nonce, aad, plaintext)
        })
    }
}

impl fmt::Debug for ModuleCipher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModuleCipher")
            .field("algorithm", &self.algorithm)
            .field("key_bits", &self.cipher.bits())
            .field("gcm", &self.cipher.backend().name())
            .field("file_aad", &self.file_aad().escape_ascii().to_string())
            .field("aad_mode", &self.aad_mode)
            .finish()
    }
}
