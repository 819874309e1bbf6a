//! AES-GCM and AES-CTR for one key, and the module framing of parquet-format.txt 7.3,
//! section 5.1 "Encrypted module serialization":
//!
//! ```text
//! GCM module := length: u32 LE (= 12 + n + 16), nonce: 12 bytes, ciphertext: n bytes,
//!               tag: 16 bytes
//! CTR module := length: u32 LE (= 12 + n), nonce: 12 bytes, ciphertext: n bytes
//! CTR IV     := nonce, 0x00 0x00 0x00 0x01   (a 32-bit big-endian counter starting at 1)
//! ```
//!
//! GCM runs on one of two backends, chosen per key when the cipher is made ([`Backend`]):
//! ring (feature `ring`; 128- and 256-bit keys), or `RustCrypto`'s `aes-gcm` (192-bit keys,
//! and every key without the feature). CTR is always `RustCrypto`'s `ctr` over `aes`: ring
//! has no raw CTR mode.
//!
//! The two differ in one way that shows here: ring works in place only, and writes the
//! plaintext before it knows whether the tag verifies (it zeroes it when it does not),
//! while `RustCrypto` checks the tag first and decrypts from one buffer into another. So
//! with ring, decryption into a `Vec` appends the ciphertext and decrypts it there, and
//! decryption into a caller's slice, which must be left as it was when the tag fails, goes
//! through a scratch copy; with `RustCrypto`, both decrypt straight into the output.

use crate::key::KeyBytes;
use crate::{Error, Key, ModuleType, Result};
use aes::cipher::consts::U12;
use aes::{Aes128, Aes192, Aes256};
use aes_gcm::aead::AeadInOut;
use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::{AesGcm, KeyInit};
use ctr::cipher::{InnerIvInit, StreamCipher, StreamCipherCoreWrapper};
use ctr::{CtrCore, flavors::Ctr32BE};
use parquet_core::Error as CoreError;

/// The length of the length field that opens every module.
pub const LENGTH_LEN: usize = 4;
/// The length of a nonce.
pub const NONCE_LEN: usize = 12;
/// The length of a GCM authentication tag.
pub const TAG_LEN: usize = 16;
/// The bytes a GCM module adds to its plaintext: length, nonce and tag.
pub const GCM_MODULE_OVERHEAD: usize = LENGTH_LEN + NONCE_LEN + TAG_LEN;
/// The bytes a CTR module adds to its plaintext: length and nonce.
pub const CTR_MODULE_OVERHEAD: usize = LENGTH_LEN + NONCE_LEN;

#[cfg(feature = "ring")]
mod ring_gcm;

/// The implementations of AES-GCM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// ring (`BoringSSL`'s assembly, encryption and authentication fused in one pass): 128-
    /// and 256-bit keys.
    #[cfg(feature = "ring")]
    Ring,
    /// `RustCrypto`'s `aes-gcm` (AES-NI for CTR, then CLMUL for GHASH, in two passes):
    /// every key size.
    RustCrypto,
}

impl Backend {
    /// The backend a cipher uses when the key size leaves the choice.
    #[cfg(feature = "ring")]
    pub(crate) const PREFERRED: Self = Self::Ring;
    /// The backend a cipher uses when the key size leaves the choice.
    #[cfg(not(feature = "ring"))]
    pub(crate) const PREFERRED: Self = Self::RustCrypto;

    /// The name `Debug` shows.
    pub(crate) fn name(self) -> &'static str {
        match self {
            #[cfg(feature = "ring")]
            Self::Ring => "ring",
            Self::RustCrypto => "RustCrypto",
        }
    }
}

/// AES-GCM with one key: the AES key schedule and the GHASH key, computed once.
#[derive(Clone)]
enum Gcm {
    #[cfg(feature = "ring")]
    Ring(ring_gcm::RingGcm),
    RustCrypto(RustCryptoGcm),
}

impl Gcm {
    /// `backend` for a 128- or 256-bit key; `RustCrypto` for a 192-bit one.
    fn new(key: &KeyBytes, backend: Backend) -> Self {
        #[cfg(feature = "ring")]
        if backend == Backend::Ring
            && let Some(gcm) = ring_gcm::RingGcm::new(key)
        {
            return Self::Ring(gcm);
        }
        #[cfg(not(feature = "ring"))]
        let Backend::RustCrypto = backend;
        Self::RustCrypto(RustCryptoGcm::new(key))
    }

    fn backend(&self) -> Backend {
        match self {
            #[cfg(feature = "ring")]
            Self::Ring(_) => Backend::Ring,
            Self::RustCrypto(_) => Backend::RustCrypto,
        }
    }

    /// Encrypts `in_out` in place and returns the tag.
    fn seal_in_place(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; TAG_LEN]> {
        match self {
            #[cfg(feature = "ring")]
            Self::Ring(gcm) => gcm.seal_in_place(nonce, aad, in_out),
            Self::RustCrypto(gcm) => gcm.seal_in_place(nonce, aad, in_out),
        }
    }

    /// Appends the ciphertext of `plaintext`, then its tag, to `out`. On error `out` may
    /// have grown; the caller truncates it.
    fn seal_append(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        match self {
            #[cfg(feature = "ring")]
            Self::Ring(gcm) => gcm.seal_append(nonce, aad, plaintext, out),
            Self::RustCrypto(gcm) => gcm.seal_append(nonce, aad, plaintext, out),
        }
    }

    /// Appends the plaintext of `ciphertext` to `out` if `tag` verifies, and returns
    /// whether it did. When it does not (or on error), `out` may have grown by bytes that
    /// are not plaintext; the caller truncates it.
    #[inline]
    fn open_append(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8; TAG_LEN],
        out: &mut Vec<u8>,
    ) -> Result<bool> {
        match self {
            #[cfg(feature = "ring")]
            Self::Ring(gcm) => Ok(gcm.open_append(nonce, aad, ciphertext, tag, out)),
            Self::RustCrypto(gcm) => gcm.open_append(nonce, aad, ciphertext, tag, out),
        }
    }

    /// Decrypts `ciphertext` into `out` (of the same length) if `tag` verifies, and returns
    /// whether it did; `out` is not written to when it does not.
    fn open(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8; TAG_LEN],
        out: &mut [u8],
    ) -> Result<bool> {
        match self {
            #[cfg(feature = "ring")]
            Self::Ring(gcm) => Ok(gcm.open(nonce, aad, ciphertext, tag, out)),
            Self::RustCrypto(gcm) => gcm.open(nonce, aad, ciphertext, tag, out),
        }
    }
}

/// `RustCrypto`'s AES-GCM, for each key size. It checks the tag before it decrypts, and
/// decrypts from one buffer into another or in place.
#[derive(Clone)]
enum RustCryptoGcm {
    Aes128(Box<AesGcm<Aes128, U12>>),
    Aes192(Box<AesGcm<Aes192, U12>>),
    Aes256(Box<AesGcm<Aes256, U12>>),
}

/// Runs `$body` with `$gcm` bound to the cipher of whichever key size.
macro_rules! with_aes_gcm {
    ($gcm_enum:expr, |$gcm:ident| $body:expr) => {
        match $gcm_enum {
            RustCryptoGcm::Aes128($gcm) => $body,
            RustCryptoGcm::Aes192($gcm) => $body,
            RustCryptoGcm::Aes256($gcm) => $body,
        }
    };
}

impl RustCryptoGcm {
    fn new(key: &KeyBytes) -> Self {
        match key {
            KeyBytes::Aes128(bytes) => Self::Aes128(Box::new(AesGcm::new(bytes.into()))),
            KeyBytes::Aes192(bytes) => Self::Aes192(Box::new(AesGcm::new(bytes.into()))),
            KeyBytes::Aes256(bytes) => Self::Aes256(Box::new(AesGcm::new(bytes.into()))),
        }
    }

    fn seal_in_place(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; TAG_LEN]> {
        with_aes_gcm!(self, |gcm| gcm
            .encrypt_inout_detached(nonce.into(), aad, in_out.into())
            .map(Into::into)
            .map_err(|_| internal_error()))
    }

    /// Out of place, into zeros appended to `out`: a write of the output, where appending
    /// the plaintext to encrypt it in place would read it too.
    fn seal_append(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let start = out.len();
        out.resize(start + plaintext.len(), 0);
        #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
        let buffer = InOutBuf::new(plaintext, &mut out[start..]).map_err(|_| internal_error())?;
        let tag = with_aes_gcm!(self, |gcm| gcm
            .encrypt_inout_detached(nonce.into(), aad, buffer)
            .map_err(|_| internal_error()))?;
        out.extend_from_slice(&tag);
        Ok(())
    }

    /// Out of place, as [`seal_append`](Self::seal_append).
    fn open_append(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8; TAG_LEN],
        out: &mut Vec<u8>,
    ) -> Result<bool> {
        let start = out.len();
        out.resize(start + ciphertext.len(), 0);
        #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
        self.open(nonce, aad, ciphertext, tag, &mut out[start..])
    }

    fn open(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8; TAG_LEN],
        out: &mut [u8],
    ) -> Result<bool> {
        let buffer = InOutBuf::new(ciphertext, out).map_err(|_| internal_error())?;
        Ok(with_aes_gcm!(self, |gcm| gcm
            .decrypt_inout_detached(nonce.into(), aad, buffer, tag.into())
            .is_ok()))
    }
}

/// The AES block cipher, for CTR.
#[derive(Clone)]
enum Ctr {
    Aes128(Box<Aes128>),
    Aes192(Box<Aes192>),
    Aes256(Box<Aes256>),
}

impl Ctr {
    fn new(key: &KeyBytes) -> Self {
        match key {
            KeyBytes::Aes128(bytes) => Self::Aes128(Box::new(Aes128::new(bytes.into()))),
            KeyBytes::Aes192(bytes) => Self::Aes192(Box::new(Aes192::new(bytes.into()))),
            KeyBytes::Aes256(bytes) => Self::Aes256(Box::new(Aes256::new(bytes.into()))),
        }
    }

    /// XORs the keystream from `iv` into `buffer`.
    fn apply(&self, iv: &[u8; 16], buffer: InOutBuf<'_, '_, u8>) -> Result<()> {
        fn apply<C>(aes: &C, iv: &[u8; 16], buffer: InOutBuf<'_, '_, u8>) -> Result<()>
        where
            C: aes::cipher::BlockCipherEncrypt<BlockSize = aes::cipher::consts::U16>,
        {
            let core = CtrCore::<_, Ctr32BE>::inner_iv_init(aes, iv.into());
            StreamCipherCoreWrapper::from_core(core)
                .try_apply_keystream_inout(buffer)
                .map_err(|_| internal_error())
        }
        match self {
            Self::Aes128(aes) => apply(&**aes, iv, buffer),
            Self::Aes192(aes) => apply(&**aes, iv, buffer),
            Self::Aes256(aes) => apply(&**aes, iv, buffer),
        }
    }
}

/// AES with one key, expanded once, for GCM and (when asked for) CTR modules.
#[derive(Clone)]
pub(crate) struct Cipher {
    gcm: Gcm,
    /// Only for `AES_GCM_CTR_V1`.
    ctr: Option<Ctr>,
    bits: u32,
}

impl Cipher {
    /// GCM with `key` on `backend` where the key size allows it (a 192-bit key is always
    /// `RustCrypto`'s), and CTR too if `with_ctr`. Both key schedules are computed here,
    /// once.
    pub(crate) fn with_backend(key: &Key, with_ctr: bool, backend: Backend) -> Self {
        let bytes = key.typed_bytes();
        Self {
            gcm: Gcm::new(bytes, backend),
            ctr: with_ctr.then(|| Ctr::new(bytes)),
            bits: key.bits(),
        }
    }

    /// The backend that runs GCM.
    pub(crate) fn backend(&self) -> Backend {
        self.gcm.backend()
    }

    /// XORs the CTR keystream from `iv` into `buffer`.
    fn ctr_apply(&self, iv: &[u8; 16], buffer: InOutBuf<'_, '_, u8>) -> Result<()> {
        // A cipher made without CTR is never asked for it.
        self.ctr
            .as_ref()
            .ok_or_else(internal_error)?
            .apply(iv, buffer)
    }

    /// Appends a GCM module of `plaintext` under `nonce` and `aad` to `out`.
    pub(crate) fn encrypt_gcm_with_nonce(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let length = module_length(plaintext.len(), NONCE_LEN + TAG_LEN)?;
        append_or_restore(out, |out| {
            out.reserve(GCM_MODULE_OVERHEAD + plaintext.len());
            out.extend_from_slice(&length.to_le_bytes());
            out.extend_from_slice(nonce);
            self.gcm.seal_append(nonce, aad, plaintext, out)
        })
    }

    /// Appends a CTR module of `plaintext` under `nonce` to `out`.
    pub(crate) fn encrypt_ctr_with_nonce(
        &self,
        nonce: &[u8; NONCE_LEN],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let length = module_length(plaintext.len(), NONCE_LEN)?;
        append_or_restore(out, |out| {
            out.reserve(CTR_MODULE_OVERHEAD + plaintext.len());
            out.extend_from_slice(&length.to_le_bytes());
            out.extend_from_slice(nonce);
            let body = out.len();
            out.resize(body + plaintext.len(), 0);
            #[allow(clippy::indexing_slicing)] // `body` was the length before the resize
            let buffer =
                InOutBuf::new(plaintext, &mut out[body..]).map_err(|_| internal_error())?;
            self.ctr_apply(&ctr_iv(nonce), buffer)
        })
    }

    /// Decrypts the GCM module `frame` into `out`, which must be exactly the plaintext's
    /// length (see [`Frame::plaintext_len`]), and leaves `out` as it was if the tag does
    /// not verify.
    pub(crate) fn decrypt_gcm(
        &self,
        frame: &Frame<'_>,
        aad: &[u8],
        module: ModuleType,
        out: &mut [u8],
    ) -> Result<()> {
        let (ciphertext, tag) = frame.ciphertext_and_tag()?;
        authenticated(
            self.gcm.open(&frame.nonce, aad, ciphertext, tag, out)?,
            module,
        )
    }

    /// Decrypts the GCM module `frame` and appends its plaintext to `out`; leaves `out` as
    /// it was (its length, that is) if the tag does not verify.
    #[inline]
    pub(crate) fn decrypt_gcm_append(
        &self,
        frame: &Frame<'_>,
        aad: &[u8],
        module: ModuleType,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let (ciphertext, tag) = frame.ciphertext_and_tag()?;
        append_or_restore(out, |out| {
            authenticated(
                self.gcm
                    .open_append(&frame.nonce, aad, ciphertext, tag, out)?,
                module,
            )
        })
    }

    /// Decrypts the CTR module `frame` into `out`, which must be exactly the plaintext's
    /// length.
    pub(crate) fn decrypt_ctr(&self, frame: &Frame<'_>, out: &mut [u8]) -> Result<()> {
        let buffer = InOutBuf::new(frame.body, out).map_err(|_| internal_error())?;
        self.ctr_apply(&ctr_iv(&frame.nonce), buffer)
    }

    /// Decrypts the CTR module `frame` and appends its plaintext to `out`.
    pub(crate) fn decrypt_ctr_append(&self, frame: &Frame<'_>, out: &mut Vec<u8>) -> Result<()> {
        append_or_restore(out, |out| {
            let start = out.len();
            out.resize(start + frame.body.len(), 0);
            #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
            self.decrypt_ctr(frame, &mut out[start..])
        })
    }

    /// The GCM tag of `plaintext` under `nonce` and `aad`, computed without keeping the
    /// ciphertext (it goes to a scratch copy of the plaintext): how a plaintext footer is
    /// signed.
    pub(crate) fn gcm_tag(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<[u8; TAG_LEN]> {
        let mut scratch = plaintext.to_vec();
        self.gcm.seal_in_place(nonce, aad, &mut scratch)
    }

    /// The key size in bits.
    pub(crate) fn bits(&self) -> u32 {
        self.bits
    }

    /// Raw AES-CTR with a full 16-byte initial counter block, for known-answer tests.
    #[cfg(test)]
    pub(crate) fn ctr_raw(&self, iv: &[u8; 16], input: &[u8]) -> Vec<u8> {
        let mut out = vec![0; input.len()];
        let buffer = InOutBuf::new(input, &mut out).unwrap();
        self.ctr_apply(iv, buffer).unwrap();
        out
    }

    /// Raw AES-GCM (ciphertext, tag), for known-answer tests.
    #[cfg(test)]
    pub(crate) fn gcm_raw(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
    ) -> (Vec<u8>, [u8; TAG_LEN]) {
        let mut out = plaintext.to_vec();
        let tag = self.gcm.seal_in_place(nonce, aad, &mut out).unwrap();
        (out, tag)
    }
}

/// The CTR initial counter block of a module: its nonce, then the 32-bit big-endian
/// counter 1 ("the first 31 bits of the initial counter field are set to 0, the last bit
/// is set to 1").
fn ctr_iv(nonce: &[u8; NONCE_LEN]) -> [u8; 16] {
    let mut iv = [0; 16];
    iv[..NONCE_LEN].copy_from_slice(nonce);
    iv[15] = 1;
    iv
}

/// Runs `append`, which appends to `out`, and cuts `out` back to its length before when
/// it fails: no part of a module, and no plaintext whose tag did not verify, is left
/// behind.
#[inline]
fn append_or_restore(
    out: &mut Vec<u8>,
    append: impl FnOnce(&mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    let start = out.len();
    let result = append(out);
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// `Ok` when a GCM tag verified, the authentication error for `module` when not.
fn authenticated(verified: bool, module: ModuleType) -> Result<()> {
    if verified {
        Ok(())
    } else {
        Err(Error::Authentication { module })
    }
}

/// The length field of a module whose plaintext is `plaintext_len` bytes and whose
/// framing adds `framing` bytes after the length field.
fn module_length(plaintext_len: usize, framing: usize) -> Result<u32> {
    let limit = u32::MAX as usize - framing;
    if plaintext_len > limit {
        return Err(CoreError::LimitExceeded {
            what: "module plaintext length",
            requested: plaintext_len as u64,
            limit: limit as u64,
        }
        .into());
    }
    // Checked just above.
    #[allow(clippy::cast_possible_truncation)]
    Ok((plaintext_len + framing) as u32)
}

/// An error that cannot happen: the buffers handed to the ciphers are sized here, and
/// modules (at most 4 GiB) stay far below the limits of GCM and of the 32-bit CTR counter
/// (64 GiB). Reported rather than panicking all the same.
fn internal_error() -> Error {
    CoreError::Unsupported {
        what: "cipher buffer (internal error)",
    }
    .into()
}

fn short_module(length: usize, what: &'static str) -> Error {
    CoreError::Invalid {
        what,
        offset: 0,
        value: length as u64,
    }
    .into()
}

/// One module's framing, read and checked: no allocation, nothing decrypted.
pub(crate) struct Frame<'a> {
    /// The nonce.
    nonce: [u8; NONCE_LEN],
    /// Ciphertext, followed by the tag for GCM.
    body: &'a [u8],
    /// The length of the tag at the end of `body`: [`TAG_LEN`] for GCM, 0 for CTR.
    tag_len: usize,
    /// Bytes of input the module takes, length field included.
    pub(crate) consumed: usize,
}

impl<'a> Frame<'a> {
    /// Reads the length field and nonce of the module at the start of `input`, checking
    /// that the input holds the whole module and that it is long enough for its framing
    /// (`tag_len` is 16 for GCM, 0 for CTR).
    pub(crate) fn read(input: &'a [u8], tag_len: usize) -> Result<Self> {
        let Some((length, rest)) = input.split_first_chunk::<LENGTH_LEN>() else {
            return Err(CoreError::truncated("module length", 0, LENGTH_LEN, input.len()).into());
        };
        let length = u32::from_le_bytes(*length);
        let Ok(length) = usize::try_from(length) else {
            return Err(CoreError::LimitExceeded {
                what: "module length",
                requested: u64::from(length),
                limit: usize::MAX as u64,
            }
            .into());
        };
        if length < NONCE_LEN + tag_len {
            let what = if tag_len == 0 {
                "CTR module length"
            } else {
                "GCM module length"
            };
            return Err(short_module(length, what));
        }
        let Some(module) = rest.get(..length) else {
            return Err(
                CoreError::truncated("encrypted module", LENGTH_LEN, length, rest.len()).into(),
            );
        };
        let Some((nonce, body)) = module.split_first_chunk::<NONCE_LEN>() else {
            return Err(short_module(length, "module length"));
        };
        Ok(Self {
            nonce: *nonce,
            body,
            tag_len,
            consumed: LENGTH_LEN + length,
        })
    }

    /// The ciphertext and tag of a GCM module.
    fn ciphertext_and_tag(&self) -> Result<(&'a [u8], &'a [u8; TAG_LEN])> {
        self.body
            .split_last_chunk::<TAG_LEN>()
            .ok_or_else(|| short_module(self.body.len(), "GCM module length"))
    }

    /// The plaintext length: the body without the tag, which [`read`](Self::read) has
    /// checked it holds.
    pub(crate) fn plaintext_len(&self) -> usize {
        self.body.len() - self.tag_len
    }
}

#[cfg(test)]
mod tests;
