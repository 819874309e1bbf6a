//! AES-GCM and AES-CTR for one key, and the module framing of parquet-format.txt 7.3,
//! section 5.1 "Encrypted module serialization":
//!
//! ```text
//! GCM module := length: u32 LE (= 12 + n + 16), nonce: 12 bytes, ciphertext: n bytes,
//!               tag: 16 bytes
//! CTR module := length: u32 LE (= 12 + n), nonce: 12 bytes, ciphertext: n bytes
//! CTR IV     := nonce, 0x00 0x00 0x00 0x01   (a 32-bit big-endian counter starting at 1)
//! ```

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

/// The keyed AES block cipher, once for GCM (with its GHASH key) and once for CTR.
#[derive(Clone)]
enum Keyed {
    Aes128(Box<AesGcm<Aes128, U12>>, Box<Aes128>),
    Aes192(Box<AesGcm<Aes192, U12>>, Box<Aes192>),
    Aes256(Box<AesGcm<Aes256, U12>>, Box<Aes256>),
}

/// Runs `$body` with `$gcm` and `$aes` bound to the ciphers of whichever key size.
macro_rules! with_keyed {
    ($keyed:expr, |$gcm:ident, $aes:ident| $body:expr) => {
        match $keyed {
            Keyed::Aes128($gcm, $aes) => $body,
            Keyed::Aes192($gcm, $aes) => $body,
            Keyed::Aes256($gcm, $aes) => $body,
        }
    };
}

/// AES with one key, expanded once, for GCM and CTR modules.
#[derive(Clone)]
pub(crate) struct Cipher {
    keyed: Keyed,
}

impl Cipher {
    pub(crate) fn new(key: &Key) -> Self {
        fn pair<C: KeyInit + Clone>(aes: C) -> (Box<AesGcm<C, U12>>, Box<C>)
        where
            AesGcm<C, U12>: From<C>,
        {
            (Box::new(AesGcm::from(aes.clone())), Box::new(aes))
        }
        let keyed = match key.typed_bytes() {
            KeyBytes::Aes128(bytes) => {
                let (gcm, aes) = pair(Aes128::new(bytes.into()));
                Keyed::Aes128(gcm, aes)
            }
            KeyBytes::Aes192(bytes) => {
                let (gcm, aes) = pair(Aes192::new(bytes.into()));
                Keyed::Aes192(gcm, aes)
            }
            KeyBytes::Aes256(bytes) => {
                let (gcm, aes) = pair(Aes256::new(bytes.into()));
                Keyed::Aes256(gcm, aes)
            }
        };
        Self { keyed }
    }

    /// GCM-encrypts `plaintext` into `out` (of the same length) and returns the tag.
    fn gcm_encrypt(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<[u8; TAG_LEN]> {
        let buffer = InOutBuf::new(plaintext, out).map_err(|_| internal_error())?;
        let tag = with_keyed!(&self.keyed, |gcm, _aes| gcm.encrypt_inout_detached(
            nonce.into(),
            aad,
            buffer
        ))
        .map_err(|_| internal_error())?;
        Ok(tag.into())
    }

    /// GCM-decrypts `ciphertext` into `out` (of the same length) if `tag` verifies;
    /// otherwise leaves `out` untouched and returns `false`.
    fn gcm_decrypt(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8; TAG_LEN],
        out: &mut [u8],
    ) -> Result<bool> {
        let buffer = InOutBuf::new(ciphertext, out).map_err(|_| internal_error())?;
        Ok(with_keyed!(&self.keyed, |gcm, _aes| gcm
            .decrypt_inout_detached(nonce.into(), aad, buffer, tag.into())
            .is_ok()))
    }

    /// XORs `input` with the CTR keystream from `iv` into `out` (of the same length).
    fn ctr_apply(&self, iv: &[u8; 16], input: &[u8], out: &mut [u8]) -> Result<()> {
        let buffer = InOutBuf::new(input, out).map_err(|_| internal_error())?;
        with_keyed!(&self.keyed, |_gcm, aes| {
            let core = CtrCore::<_, Ctr32BE>::inner_iv_init(&**aes, iv.into());
            StreamCipherCoreWrapper::from_core(core)
                .try_apply_keystream_inout(buffer)
                .map_err(|_| internal_error())
        })
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
        let start = out.len();
        out.reserve(GCM_MODULE_OVERHEAD + plaintext.len());
        out.extend_from_slice(&length.to_le_bytes());
        out.extend_from_slice(nonce);
        let body = out.len();
        out.resize(body + plaintext.len(), 0);
        match self.gcm_encrypt(nonce, aad, plaintext, &mut out[body..]) {
            Ok(tag) => {
                out.extend_from_slice(&tag);
                Ok(())
            }
            Err(error) => {
                out.truncate(start);
                Err(error)
            }
        }
    }

    /// Appends a CTR module of `plaintext` under `nonce` to `out`.
    pub(crate) fn encrypt_ctr_with_nonce(
        &self,
        nonce: &[u8; NONCE_LEN],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let length = module_length(plaintext.len(), NONCE_LEN)?;
        let start = out.len();
        out.reserve(CTR_MODULE_OVERHEAD + plaintext.len());
        out.extend_from_slice(&length.to_le_bytes());
        out.extend_from_slice(nonce);
        let body = out.len();
        out.resize(body + plaintext.len(), 0);
        if let Err(error) = self.ctr_apply(&ctr_iv(nonce), plaintext, &mut out[body..]) {
            out.truncate(start);
            return Err(error);
        }
        Ok(())
    }

    /// Decrypts the GCM module at the start of `input` into `out`, which must be exactly
    /// the plaintext's length (see [`Frame::plaintext_len`]).
    pub(crate) fn decrypt_gcm(
        &self,
        frame: &Frame<'_>,
        aad: &[u8],
        module: ModuleType,
        out: &mut [u8],
    ) -> Result<()> {
        let (ciphertext, tag) = frame
            .body
            .split_last_chunk::<TAG_LEN>()
            .ok_or_else(|| short_module(frame.body.len(), "GCM module length"))?;
        if self.gcm_decrypt(&frame.nonce, aad, ciphertext, tag, out)? {
            Ok(())
        } else {
            Err(Error::Authentication { module })
        }
    }

    /// Decrypts the CTR module at the start of `input` into `out`, which must be exactly
    /// the plaintext's length.
    pub(crate) fn decrypt_ctr(&self, frame: &Frame<'_>, out: &mut [u8]) -> Result<()> {
        self.ctr_apply(&ctr_iv(&frame.nonce), frame.body, out)
    }

    /// The GCM tag of `plaintext` under `nonce` and `aad`, computed without keeping the
    /// ciphertext (it goes to a scratch buffer): how a plaintext footer is signed.
    pub(crate) fn gcm_tag(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<[u8; TAG_LEN]> {
        let mut scratch = vec![0; plaintext.len()];
        self.gcm_encrypt(nonce, aad, plaintext, &mut scratch)
    }

    /// The key size in bits.
    pub(crate) fn bits(&self) -> u32 {
        match self.keyed {
            Keyed::Aes128(..) => 128,
            Keyed::Aes192(..) => 192,
            Keyed::Aes256(..) => 256,
        }
    }

    /// Raw AES-CTR with a full 16-byte initial counter block, for known-answer tests.
    #[cfg(test)]
    pub(crate) fn ctr_raw(&self, iv: &[u8; 16], input: &[u8]) -> Vec<u8> {
        let mut out = vec![0; input.len()];
        self.ctr_apply(iv, input, &mut out).unwrap();
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
        let mut out = vec![0; plaintext.len()];
        let tag = self.gcm_encrypt(nonce, aad, plaintext, &mut out).unwrap();
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
            consumed: LENGTH_LEN + length,
        })
    }

    /// The plaintext length of a module with a tag of `tag_len` bytes.
    pub(crate) fn plaintext_len(&self, tag_len: usize) -> usize {
        self.body.len() - tag_len
    }
}

#[cfg(test)]
mod tests;
