//! AES keys and their retrieval from `key_metadata`.

use crate::{Error, Result};
use std::collections::HashMap;
use std::fmt;
use zeroize::Zeroize;

/// An AES key of 128, 192 or 256 bits.
///
/// The length is checked when the key is made, so every operation of this crate can take
/// any `Key`. The bytes are overwritten with zeros when the key is dropped (best effort:
/// a value that the compiler moved may leave copies behind), and `Debug` shows the key
/// size, never the bytes.
///
/// ```
/// use parquet_crypto::{Error, Key};
///
/// let key = Key::try_new(b"0123456789012345")?;
/// assert_eq!(key.bits(), 128);
/// assert_eq!(format!("{key:?}"), "Key { bits: 128, .. }");
/// assert_eq!(Key::try_new(b"short"), Err(Error::KeyLength { len: 5 }));
/// # Ok::<(), parquet_crypto::Error>(())
/// ```
#[derive(Clone)]
pub struct Key {
    bytes: KeyBytes,
}

/// The key bytes, typed by size so that the ciphers take them without a length check.
#[derive(Clone)]
pub(crate) enum KeyBytes {
    Aes128([u8; 16]),
    Aes192([u8; 24]),
    Aes256([u8; 32]),
}

impl Key {
    /// A key from its bytes: 16, 24 or 32 of them.
    ///
    /// # Errors
    ///
    /// [`Error::KeyLength`] for any other length.
    pub fn try_new(bytes: &[u8]) -> Result<Self> {
        let bytes = if let Ok(bytes) = <[u8; 16]>::try_from(bytes) {
            KeyBytes::Aes128(bytes)
        } else if let Ok(bytes) = <[u8; 24]>::try_from(bytes) {
            KeyBytes::Aes192(bytes)
        } else if let Ok(bytes) = <[u8; 32]>::try_from(bytes) {
            KeyBytes::Aes256(bytes)
        } else {
            return Err(Error::KeyLength { len: bytes.len() });
        };
        Ok(Self { bytes })
    }

    /// The key bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.bytes {
            KeyBytes::Aes128(bytes) => bytes,
            KeyBytes::Aes192(bytes) => bytes,
            KeyBytes::Aes256(bytes) => bytes,
        }
    }

    /// The key size in bits: 128, 192 or 256.
    pub fn bits(&self) -> u32 {
        match self.bytes {
            KeyBytes::Aes128(_) => 128,
            KeyBytes::Aes192(_) => 192,
            KeyBytes::Aes256(_) => 256,
        }
    }

    pub(crate) fn typed_bytes(&self) -> &KeyBytes {
        &self.bytes
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        match &mut self.bytes {
            KeyBytes::Aes128(bytes) => bytes.zeroize(),
            KeyBytes::Aes192(bytes) => bytes.zeroize(),
            KeyBytes::Aes256(bytes) => bytes.zeroize(),
        }
    }
}

/// Compares in constant time: as long as the two keys have the same length, the time
/// taken does not depend on where they differ.
impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        crate::constant_time_eq(self.as_bytes(), other.as_bytes())
    }
}

impl Eq for Key {}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Key")
            .field("bits", &self.bits())
            .finish_non_exhaustive()
    }
}

impl TryFrom<&[u8]> for Key {
    type Error = Error;

    fn try_from(bytes: &[u8]) -> Result<Self> {
        Self::try_new(bytes)
    }
}

macro_rules! key_from_array {
    ($($n:literal => $variant:ident),*) => {$(
        impl From<[u8; $n]> for Key {
            fn from(bytes: [u8; $n]) -> Self {
                Self { bytes: KeyBytes::$variant(bytes) }
            }
        }
    )*};
}
key_from_array!(16 => Aes128, 24 => Aes192, 32 => Aes256);

/// Finds the key for a `key_metadata` byte string, as stored in a file for the footer key
/// (`FileCryptoMetaData.key_metadata`, `FileMetaData.footer_signing_key_metadata`) and for
/// each column key (`EncryptionWithColumnKey.key_metadata`).
///
/// What the metadata holds is up to the writer: a key id such as `"kf"`, a wrapped key and
/// the id of its master key, or nothing at all when the reader is handed its keys. The
/// implementations here are [`KeyMap`] (key ids to keys), [`FixedKey`] (one key whatever
/// the metadata) and any closure `Fn(&[u8]) -> Result<Key>`, which is where a key
/// management service plugs in.
///
/// ```
/// use parquet_crypto::{Error, Key, KeyMap, KeyRetriever};
///
/// let keys = KeyMap::new()
///     .with("kf", Key::try_new(b"0123456789012345")?)
///     .with("kc1", Key::try_new(b"1234567890123450")?);
/// assert_eq!(keys.retrieve_key(b"kc1")?.as_bytes(), b"1234567890123450");
/// assert_eq!(
///     keys.retrieve_key(b"kc9").unwrap_err().to_string(),
///     "no key for key metadata \"kc9\"",
/// );
///
/// // A closure is a retriever too.
/// let kms = |metadata: &[u8]| match metadata {
///     b"kf" => Key::try_new(b"0123456789012345"),
///     _ => Err(Error::KeyRetrieval { message: "unknown key".into() }),
/// };
/// assert_eq!(kms.retrieve_key(b"kf")?.bits(), 128);
/// # Ok::<(), parquet_crypto::Error>(())
/// ```
pub trait KeyRetriever {
    /// The key that `key_metadata` identifies.
    ///
    /// # Errors
    ///
    /// [`Error::KeyNotFound`] when the retriever knows no such key, or whatever else the
    /// retriever reports (typically [`Error::KeyRetrieval`]).
    fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Key>;
}

impl<F> KeyRetriever for F
where
    F: Fn(&[u8]) -> Result<Key>,
{
    fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Key> {
        self(key_metadata)
    }
}

/// A retriever that returns the same key for any key metadata: for a reader that is handed
/// its keys, or a file whose key metadata is empty.
#[derive(Clone, Debug)]
pub struct FixedKey {
    key: Key,
}

impl FixedKey {
    /// A retriever that always returns `key`.
    pub fn new(key: Key) -> Self {
        Self { key }
    }
}

impl KeyRetriever for FixedKey {
    fn retrieve_key(&self, _key_metadata: &[u8]) -> Result<Key> {
        Ok(self.key.clone())
    }
}

/// An in-memory map from key metadata (typically a key id such as `"kc1"`) to keys.
#[derive(Clone, Default)]
pub struct KeyMap {
    keys: HashMap<Vec<u8>, Key>,
}

impl KeyMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `key` under `key_metadata`, returning the key it replaces.
    pub fn insert(&mut self, key_metadata: impl Into<Vec<u8>>, key: Key) -> Option<Key> {
        self.keys.insert(key_metadata.into(), key)
    }

    /// The map with `key` added under `key_metadata`.
    #[must_use]
    pub fn with(mut self, key_metadata: impl Into<Vec<u8>>, key: Key) -> Self {
        self.insert(key_metadata, key);
        self
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the map holds no key.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

impl KeyRetriever for KeyMap {
    fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Key> {
        self.keys
            .get(key_metadata)
            .cloned()
            .ok_or_else(|| Error::KeyNotFound {
                key_metadata: key_metadata.to_vec(),
            })
    }
}

impl<M: Into<Vec<u8>>> FromIterator<(M, Key)> for KeyMap {
    fn from_iter<I: IntoIterator<Item = (M, Key)>>(iter: I) -> Self {
        Self {
            keys: iter.into_iter().map(|(m, k)| (m.into(), k)).collect(),
        }
    }
}

impl fmt::Debug for KeyMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                self.keys
                    .iter()
                    .map(|(m, k)| (m.escape_ascii().to_string(), k)),
            )
            .finish()
    }
}
