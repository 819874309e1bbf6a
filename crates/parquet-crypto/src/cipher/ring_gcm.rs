//! AES-GCM through ring (feature `ring`): `BoringSSL`'s assembly, which encrypts and
//! authenticates in one pass (AES-NI with CLMUL, or VAES with VPCLMULQDQ, chosen at run
//! time), for 128- and 256-bit keys; ring has no 192-bit GCM.
//!
//! ring's `LessSafeKey` takes any nonce, as Parquet needs (its nonces are random and
//! stored in the module), and works in place only: decryption writes the plaintext over
//! the ciphertext, and zeroes it when the tag does not verify.

use super::{NONCE_LEN, TAG_LEN, internal_error};
use crate::Result;
use crate::key::KeyBytes;
use ring::aead::{AES_128_GCM, AES_256_GCM, Aad, LessSafeKey, Nonce, Tag, UnboundKey};

/// The sizes of the scratch buffers on the stack that [`RingGcm::open`] decrypts short
/// modules in (page headers fit the first, most other metadata modules the second): each
/// is zeroed before use, so the short ones do not pay for the long one.
const SHORT_SCRATCH: usize = 128;
const LONG_SCRATCH: usize = 1024;

/// An expanded AES-GCM key: AES round keys and the GHASH key table. Unlike `RustCrypto`'s,
/// ring's key schedules are not zeroed when dropped.
#[derive(Clone)]
pub(super) struct RingGcm(Box<LessSafeKey>);

impl RingGcm {
    /// The key, expanded; `None` for a 192-bit key.
    pub(super) fn new(key: &KeyBytes) -> Option<Self> {
        let (algorithm, bytes): (_, &[u8]) = match key {
            KeyBytes::Aes128(bytes) => (&AES_128_GCM, bytes),
            KeyBytes::Aes192(_) => return None,
            KeyBytes::Aes256(bytes) => (&AES_256_GCM, bytes),
        };
        // ring refuses only a key whose length is not its algorithm's, which the typed
        // bytes rule out; the caller falls back to RustCrypto all the same.
        let key = UnboundKey::new(algorithm, bytes).ok()?;
        Some(Self(Box::new(LessSafeKey::new(key))))
    }

    /// Encrypts `in_out` in place and returns the tag.
    pub(super) fn seal_in_place(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; TAG_LEN]> {
        let tag = self
            .0
            .seal_in_place_separate_tag(
                Nonce::assume_unique_for_key(*nonce),
                Aad::from(aad),
                in_out,
            )
            .map_err(|_| internal_error())?;
        let mut bytes = [0; TAG_LEN];
        bytes.copy_from_slice(tag.as_ref());
        Ok(bytes)
    }

    /// Appends the ciphertext of `plaintext` and its tag to `out`: appends the plaintext
    /// and encrypts it there.
    pub(super) fn seal_append(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let start = out.len();
        out.extend_from_slice(plaintext);
        #[allow(clippy::indexing_slicing)] // `start` was the length before the append
        let tag = self.seal_in_place(nonce, aad, &mut out[start..])?;
        out.extend_from_slice(&tag);
        Ok(())
    }

    /// Appends the ciphertext to `out` and decrypts it there; returns whether `tag`
    /// verified. When it did not, ring has zeroed the appended bytes, which the caller
    /// truncates away.
    #[inline]
    pub(super) fn open_append(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8; TAG_LEN],
        out: &mut Vec<u8>,
    ) -> bool {
        let start = out.len();
        out.extend_from_slice(ciphertext);
        #[allow(clippy::indexing_slicing)] // `start` was the length before the append
        self.open_in_place(nonce, aad, tag, &mut out[start..])
    }

    /// Decrypts `in_out` in place if `tag` verifies, and returns whether it did; when it
    /// does not, ring has zeroed `in_out`.
    #[inline]
    fn open_in_place(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        tag: &[u8; TAG_LEN],
        in_out: &mut [u8],
    ) -> bool {
        self.0
            .open_in_place_separate_tag(
                Nonce::assume_unique_for_key(*nonce),
                Aad::from(aad),
                Tag::from(*tag),
                in_out,
                0..,
            )
            .is_ok()
    }

    /// Decrypts `ciphertext` into `out` (of the same length) if `tag` verifies, and returns
    /// whether it did, leaving `out` untouched when it does not. ring has no decryption
    /// from one buffer into another, so this goes through a scratch copy of the
    /// ciphertext, on the stack when it is short.
    pub(super) fn open(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8; TAG_LEN],
        out: &mut [u8],
    ) -> bool {
        let len = ciphertext.len();
        let mut open = |scratch: &mut [u8]| {
            let verified = self.open_in_place(nonce, aad, tag, scratch);
            if verified {
                out.copy_from_slice(scratch);
            }
            verified
        };
        // Each scratch array is used only for a `len` it holds.
        #[allow(clippy::indexing_slicing)]
        if len <= SHORT_SCRATCH {
            let mut scratch = [0; SHORT_SCRATCH];
            scratch[..len].copy_from_slice(ciphertext);
            open(&mut scratch[..len])
        } else if len <= LONG_SCRATCH {
            let mut scratch = [0; LONG_SCRATCH];
            scratch[..len].copy_from_slice(ciphertext);
            open(&mut scratch[..len])
        } else {
            open(&mut ciphertext.to_vec())
        }
    }
}
