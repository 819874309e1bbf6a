//! A checked little-endian cursor over a borrowed byte slice.
//!
//! Every read is a `try` read: it either returns the value and advances, or returns an
//! error naming what was being read, where, and how many bytes were missing, and leaves
//! the cursor where it was.

use crate::error::{Error, Result};
use crate::{varint, zigzag};

/// Reads little-endian values, varints and sub-slices from a byte slice.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    input: &'a [u8],
    position: usize,
    base: usize,
}

macro_rules! read_le {
    ($($name:ident: $ty:ty),* $(,)?) => {
        $(
            #[doc = concat!("Reads a little-endian `", stringify!($ty), "`.")]
            ///
            /// # Errors
            ///
            /// [`Error::Truncated`] when too few bytes remain.
            #[inline]
            pub fn $name(&mut self, what: &'static str) -> Result<$ty> {
                self.read_array(what).map(<$ty>::from_le_bytes)
            }
        )*
    };
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `input`.
    pub const fn new(input: &'a [u8]) -> Self {
        Self {
            input,
            position: 0,
            base: 0,
        }
    }

    /// A cursor at the start of `input` whose errors report offsets `base` bytes further on,
    /// for a slice cut out of a larger buffer.
    pub const fn with_base(input: &'a [u8], base: usize) -> Self {
        Self {
            input,
            position: 0,
            base,
        }
    }

    /// Bytes read so far.
    pub const fn position(&self) -> usize {
        self.position
    }

    /// Offset of the next byte as reported in errors (`base + position`).
    pub const fn offset(&self) -> usize {
        self.base.saturating_add(self.position)
    }

    /// Bytes not yet read.
    pub const fn remaining(&self) -> usize {
        self.input.len() - self.position
    }

    /// Whether every byte has been read.
    pub const fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The bytes not yet read.
    pub fn rest(&self) -> &'a [u8] {
        // `position <= input.len()` is an invariant of every method.
        self.input.get(self.position..).unwrap_or_default()
    }

    /// The error for needing `needed` bytes of `what` at the current position.
    pub const fn truncated(&self, what: &'static str, needed: usize) -> Error {
        Error::truncated(what, self.offset(), needed, self.remaining())
    }

    /// The error for an invalid `what` that starts at the current position.
    pub const fn invalid(&self, what: &'static str, value: u64) -> Error {
        Error::invalid(what, self.offset(), value)
    }

    /// Reads `len` bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when fewer than `len` bytes remain.
    #[inline]
    pub fn read_bytes(&mut self, len: usize, what: &'static str) -> Result<&'a [u8]> {
        let end = self
            .position
            .checked_add(len)
            .filter(|&end| end <= self.input.len());
        match end.and_then(|end| self.input.get(self.position..end).map(|bytes| (bytes, end))) {
            Some((bytes, end)) => {
                self.position = end;
                Ok(bytes)
            }
            None => Err(self.truncated(what, len)),
        }
    }

    /// Skips `len` bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when fewer than `len` bytes remain.
    pub fn skip(&mut self, len: usize, what: &'static str) -> Result<()> {
        self.read_bytes(len, what).map(|_| ())
    }

    /// Reads `N` bytes as an array.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when fewer than `N` bytes remain.
    #[inline]
    pub fn read_array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        let bytes = self.read_bytes(N, what)?;
        let mut array = [0; N];
        array.copy_from_slice(bytes);
        Ok(array)
    }

    /// Reads one byte.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input.
    #[inline]
    pub fn read_u8(&mut self, what: &'static str) -> Result<u8> {
        self.read_array::<1>(what).map(|[byte]| byte)
    }

    read_le! {
        read_u16: u16,
        read_u32: u32,
        read_u64: u64,
        read_i16: i16,
        read_i32: i32,
        read_i64: i64,
        read_f32: f32,
        read_f64: f64,
    }

    /// Reads a ULEB128 `u32`.
    ///
    /// # Errors
    ///
    /// As [`varint::decode_u32`], with offsets relative to the cursor's input.
    #[inline]
    pub fn read_uleb128_u32(&mut self, what: &'static str) -> Result<u32> {
        let (value, len) =
            varint::decode_u32(self.rest()).map_err(|e| self.varint_error(e, what))?;
        self.position += len;
        Ok(value)
    }

    /// Reads a ULEB128 `u64`.
    ///
    /// # Errors
    ///
    /// As [`varint::decode_u64`], with offsets relative to the cursor's input.
    #[inline]
    pub fn read_uleb128_u64(&mut self, what: &'static str) -> Result<u64> {
        let (value, len) =
            varint::decode_u64(self.rest()).map_err(|e| self.varint_error(e, what))?;
        self.position += len;
        Ok(value)
    }

    /// Reads a zigzag ULEB128 `i32`.
    ///
    /// # Errors
    ///
    /// As [`Cursor::read_uleb128_u32`].
    #[inline]
    pub fn read_zigzag_i32(&mut self, what: &'static str) -> Result<i32> {
        self.read_uleb128_u32(what).map(zigzag::decode_i32)
    }

    /// Reads a zigzag ULEB128 `i64`.
    ///
    /// # Errors
    ///
    /// As [`Cursor::read_uleb128_u64`].
    #[inline]
    pub fn read_zigzag_i64(&mut self, what: &'static str) -> Result<i64> {
        self.read_uleb128_u64(what).map(zigzag::decode_i64)
    }

    #[cold]
    fn varint_error(&self, error: Error, what: &'static str) -> Error {
        match error.shifted(self.offset()) {
            Error::Truncated {
                offset,
                needed,
                available,
                ..
            } => Error::Truncated {
                what,
                offset,
                needed,
                available,
            },
            Error::Invalid { offset, value, .. } => Error::Invalid {
                what,
                offset,
                value,
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_values() {
        let bytes = [
            1, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xac, 0x02, 0x03,
        ];
        let mut cursor = Cursor::new(&bytes);
        assert_eq!(cursor.read_u16("a"), Ok(1));
        assert_eq!(cursor.read_u32("b"), Ok(2));
        assert_eq!(cursor.read_i64("c"), Ok(-1));
        assert_eq!(cursor.read_uleb128_u32("d"), Ok(300));
        assert_eq!(cursor.read_zigzag_i32("e"), Ok(-2));
        assert!(cursor.is_empty());
        assert_eq!(cursor.position(), bytes.len());
    }

    #[test]
    fn errors_say_what_and_where_and_do_not_advance() {
        let bytes = [7, 8, 9];
        let mut cursor = Cursor::with_base(&bytes, 100);
        assert_eq!(cursor.read_u8("tag"), Ok(7));
        assert_eq!(
            cursor.read_u32("length"),
            Err(Error::Truncated {
                what: "length",
                offset: 101,
                needed: 4,
                available: 2
            })
        );
        assert_eq!(cursor.position(), 1);
        assert_eq!(
            cursor.read_bytes(usize::MAX, "blob"),
            Err(Error::truncated("blob", 101, usize::MAX, 2))
        );
        assert_eq!(cursor.rest(), &[8, 9]);
    }

    #[test]
    fn varint_errors_name_the_field() {
        let mut cursor = Cursor::with_base(&[0x80, 0x80], 10);
        assert_eq!(
            cursor.read_uleb128_u64("value count"),
            Err(Error::Truncated {
                what: "value count",
                offset: 10,
                needed: 3,
                available: 2
            })
        );
        let mut cursor = Cursor::new(&[5, 0x80, 0x00]);
        cursor.skip(1, "x").unwrap();
        assert_eq!(
            cursor.read_uleb128_u32("block size"),
            Err(Error::invalid("block size", 2, 0))
        );
    }
}
