//! The Thrift compact protocol: a zero-copy [`Reader`] over a byte slice and a [`Writer`]
//! that appends to a `Vec<u8>`.
//!
//! The grammar implemented here (from the Thrift compact protocol specification; `varint`
//! is ULEB128, `zigzag` maps 0, -1, 1, -2, … to 0, 1, 2, 3, …):
//!
//! ```text
//! struct        := field* stop
//! stop          := 0b0000_0000
//! field         := short-header value | long-header value
//! short-header  := dddd tttt                 // id = previous id + dddd (1..=15)
//! long-header   := 0000 tttt zigzag-varint   // the id as an i16
//! tttt          := 1 BOOLEAN_TRUE | 2 BOOLEAN_FALSE | 3 BYTE | 4 I16 | 5 I32 | 6 I64
//!                | 7 DOUBLE | 8 BINARY | 9 LIST | 10 SET | 11 MAP | 12 STRUCT | 13 UUID
//! value         := (nothing, for a boolean field: its value is in tttt)
//!                | byte                      // BYTE
//!                | zigzag-varint             // I16, I32, I64
//!                | 8 bytes, little endian    // DOUBLE
//!                | varint-length bytes       // BINARY (and strings, UTF-8)
//!                | list | map | struct
//!                | 16 bytes                  // UUID
//! list, set     := ssss tttt element*        // ssss = size 0..=14
//!                | 1111 tttt varint-size element*
//! element       := value, except that a boolean is one byte (1 true; 2 or 0 false)
//! map           := 0                         // the empty map
//!                | varint-size kkkk vvvv (key value)*
//! ```
//!
//! A field's id is relative to the previous field of the same struct (0 at the start of
//! each struct), so nested structs do not disturb their parent's ids.
//!
//! The [`Writer`] writes what Thrift's own writers write (short headers whenever the id
//! delta allows, short list sizes below 15, element type 1 and values 1 and 2 for
//! booleans). The [`Reader`] also accepts what they accept: any byte of type 0 as the
//! stop, long forms where short ones would do, boolean elements of type 1 or 2 and
//! value 0 for false, and the header byte 0 for an empty list.
//!
//! # Limits
//!
//! The [`Reader`] never trusts a count: a list, set or map whose declared size could not
//! fit in the bytes left (every element takes at least one byte, a `double` eight, a
//! struct read by [`ReadThrift`](crate::ReadThrift) its required fields) is an error
//! before anything is allocated, and nesting of structs, lists and maps deeper than
//! [`DEFAULT_MAX_DEPTH`] (or the limit given to [`Reader::with_max_depth`]) is an
//! [`Error::LimitExceeded`]. Varints are strict: overlong or overflowing ones are errors.

// The few `#[inline(always)]` below are on the per-field paths of the generated readers:
// measured on a wide footer, leaving them to the inliner costs about a fifth more time.
#![allow(clippy::inline_always)]

use parquet_core::{Error, Result, varint, zigzag};

/// The nesting depth (of structs, lists and maps) a [`Reader`] accepts by default.
pub const DEFAULT_MAX_DEPTH: u32 = 64;

/// The type of a compact-protocol value, as carried in field headers and collection
/// headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FieldType {
    /// A boolean: as a field, `true` (code 1); as a list element type, any boolean.
    BooleanTrue = 1,
    /// A boolean field whose value is `false` (code 2).
    BooleanFalse = 2,
    /// An `i8` (`byte`), one byte.
    Byte = 3,
    /// An `i16`, a zigzag varint.
    I16 = 4,
    /// An `i32`, a zigzag varint.
    I32 = 5,
    /// An `i64`, a zigzag varint.
    I64 = 6,
    /// A `double`, eight bytes little endian.
    Double = 7,
    /// A `binary` or `string`, a varint length and the bytes.
    Binary = 8,
    /// A `list`.
    List = 9,
    /// A `set`, encoded like a list.
    Set = 10,
    /// A `map`.
    Map = 11,
    /// A `struct` (or `union`), closed by a stop byte.
    Struct = 12,
    /// A `uuid`, sixteen bytes.
    Uuid = 13,
}

impl FieldType {
    /// The type with compact code `code` (1..=13), or `None`.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            1 => Self::BooleanTrue,
            2 => Self::BooleanFalse,
            3 => Self::Byte,
            4 => Self::I16,
            5 => Self::I32,
            6 => Self::I64,
            7 => Self::Double,
            8 => Self::Binary,
            9 => Self::List,
            10 => Self::Set,
            11 => Self::Map,
            12 => Self::Struct,
            13 => Self::Uuid,
            _ => return None,
        })
    }

    /// The compact code of this type.
    #[inline]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Whether this is one of the two boolean codes.
    #[inline]
    pub const fn is_bool(self) -> bool {
        matches!(self, Self::BooleanTrue | Self::BooleanFalse)
    }

    /// Whether a value of this type may stand where one of `expected` is wanted: the
    /// same type, or either boolean code for a boolean.
    #[inline]
    pub const fn matches(self, expected: Self) -> bool {
        self as u8 == expected as u8 || (self.is_bool() && expected.is_bool())
    }

    /// The fewest bytes a value of this type takes as a list, set or map element.
    #[inline]
    pub const fn min_element_size(self) -> usize {
        match self {
            Self::Double => 8,
            Self::Uuid => 16,
            _ => 1,
        }
    }
}

/// The header of a struct field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldHeader {
    /// The field id.
    pub id: i16,
    /// The type of the value that follows (for a boolean field, the value itself).
    pub field_type: FieldType,
}

/// The header of a list or set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListHeader {
    /// The type of every element; `None` only for the header byte `0`, an empty list whose
    /// writer left the element type out.
    pub element_type: Option<FieldType>,
    /// The number of elements, already checked against the bytes left.
    pub size: usize,
}

/// The header of a map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapHeader {
    /// The type of every key; `None` for the empty map.
    pub key_type: Option<FieldType>,
    /// The type of every value; `None` for the empty map.
    pub value_type: Option<FieldType>,
    /// The number of entries, already checked against the bytes left.
    pub size: usize,
}

/// Reads compact-protocol values from a borrowed byte slice.
///
/// Binary values and strings are returned as sub-slices of the input. Every read either
/// returns a value and advances, or returns an [`Error`] whose offset is relative to the
/// start of the input; after an error the reader's position is unspecified.
///
/// ```
/// use parquet_thrift::compact::{FieldType, Reader};
///
/// // A struct with field 1 = i32 -3 (short header, delta 1), field 2 = true,
/// // and field 300 = "hi" (long header), then the stop byte.
/// let bytes = [0x15, 0x05, 0x11, 0x08, 0xd8, 0x04, 0x02, b'h', b'i', 0x00];
/// let mut reader = Reader::new(&bytes);
/// let mut last = 0;
/// let header = reader.read_field_header(&mut last, "example")?.unwrap();
/// assert_eq!((header.id, header.field_type), (1, FieldType::I32));
/// assert_eq!(reader.read_i32("example.a")?, -3);
/// let header = reader.read_field_header(&mut last, "example")?.unwrap();
/// assert_eq!((header.id, header.field_type), (2, FieldType::BooleanTrue));
/// let header = reader.read_field_header(&mut last, "example")?.unwrap();
/// assert_eq!(header.id, 300);
/// assert_eq!(reader.read_string("example.c")?, "hi");
/// assert_eq!(reader.read_field_header(&mut last, "example")?, None);
/// assert_eq!(reader.remaining(), 0);
/// # Ok::<(), parquet_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    input: &'a [u8],
    position: usize,
    depth: u32,
    max_depth: u32,
}

/// Maps an error of `parquet_core::varint` (whose offsets are relative to the varint) to
/// one that names `what` and points into the reader's input.
#[cold]
#[inline(never)]
fn varint_error(error: Error, what: &'static str, position: usize) -> Error {
    match error {
        Error::Truncated {
            needed, available, ..
        } => Error::truncated(what, position, needed, available),
        other => other.shifted(position),
    }
}

/// Decodes a varint of two to `MAX_LEN` bytes (5 for 32 bits, 10 for 64) from the start
/// of `bytes`, strictly as `parquet_core::varint` does: returns the value and its length,
/// or a length of 0 when the varint is truncated, overlong or does not fit. Kept out of
/// line, and returning in two registers, so that the inlined one-byte case stays small.
#[inline(never)]
fn decode_varint_multi<const MAX_LEN: usize>(bytes: &[u8]) -> (u64, usize) {
    // With eight bytes in hand (anywhere but the last few bytes of the input), a varint
    // of up to eight bytes is decoded from one word, without a loop.
    if let Some(window) = bytes.first_chunk::<8>() {
        let word = u64::from_le_bytes(*window);
        let ends = !word & 0x8080_8080_8080_8080;
        if ends != 0 {
            let index = (ends.trailing_zeros() / 8) as usize;
            if index >= MAX_LEN {
                return (0, 0);
            }
            // Keep the varint's bytes and gather their 7-bit groups: pairs into 14 bits,
            // pairs of those into 28, then the two halves.
            let data = word & (u64::MAX >> (56 - 8 * index));
            let mut value = data & 0x7f7f_7f7f_7f7f_7f7f;
            value = ((value & 0x7f00_7f00_7f00_7f00) >> 1) | (value & 0x007f_007f_007f_007f);
            value = ((value & 0x3fff_0000_3fff_0000) >> 2) | (value & 0x0000_3fff_0000_3fff);
            value = ((value & 0x0fff_ffff_0000_0000) >> 4) | (value & 0x0000_0000_0fff_ffff);
            #[allow(clippy::cast_possible_truncation)] // the byte at `index`
            let last = (data >> (8 * index)) as u8;
            return finish_varint::<MAX_LEN>(value, last, index);
        }
    }
    let mut value = 0u64;
    for (index, &byte) in bytes.iter().take(MAX_LEN).enumerate() {
        value |= u64::from(byte & 0x7f) << (7 * index);
        if byte < 0x80 {
            return finish_varint::<MAX_LEN>(value, byte, index);
        }
    }
    (0, 0)
}

/// Checks the last byte (`byte`, at `index`) of a varint: it must carry bits (no trailing
/// zero group), and the value must fit its type.
#[inline(always)]
fn finish_varint<const MAX_LEN: usize>(value: u64, byte: u8, index: usize) -> (u64, usize) {
    let overlong = byte == 0 && index > 0;
    // 5 groups hold 35 bits for a u32, 10 groups 70 bits for a u64.
    let overflow = index + 1 == MAX_LEN
        && if MAX_LEN == varint::MAX_LEN_U32 {
            byte >> 4 != 0
        } else {
            byte >> 1 != 0
        };
    if overlong || overflow {
        (0, 0)
    } else {
        (value, index + 1)
    }
}

impl<'a> Reader<'a> {
    /// A reader at the start of `input`, with the [`DEFAULT_MAX_DEPTH`] nesting limit.
    pub const fn new(input: &'a [u8]) -> Self {
        Self::with_max_depth(input, DEFAULT_MAX_DEPTH)
    }

    /// A reader at the start of `input` that accepts structs, lists and maps nested at
    /// most `max_depth` deep.
    pub const fn with_max_depth(input: &'a [u8], max_depth: u32) -> Self {
        Self {
            input,
            position: 0,
            depth: 0,
            max_depth,
        }
    }

    /// Bytes read so far.
    #[inline]
    pub const fn position(&self) -> usize {
        self.position
    }

    /// Bytes not yet read.
    #[inline]
    pub const fn remaining(&self) -> usize {
        self.input.len() - self.position
    }

    /// The bytes not yet read.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        // `position <= input.len()` is an invariant of every method.
        self.input.get(self.position..).unwrap_or_default()
    }

    /// The whole input.
    pub const fn input(&self) -> &'a [u8] {
        self.input
    }

    /// How many structs, lists and maps are open.
    pub const fn depth(&self) -> u32 {
        self.depth
    }

    #[cold]
    #[inline(never)]
    fn truncated(&self, what: &'static str, needed: usize) -> Error {
        Error::truncated(what, self.position, needed, self.remaining())
    }

    /// Opens a struct, list or map: one level deeper.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] when that is deeper than the reader's limit.
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(self.too_deep());
        }
        self.depth += 1;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> Error {
        Error::LimitExceeded {
            what: "thrift nesting depth",
            requested: u64::from(self.depth) + 1,
            limit: u64::from(self.max_depth),
        }
    }

    /// Closes what [`enter`](Self::enter) opened.
    #[inline]
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Reads one byte.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input.
    #[inline(always)]
    pub fn read_byte(&mut self, what: &'static str) -> Result<u8> {
        if let Some(&byte) = self.input.get(self.position) {
            self.position += 1;
            Ok(byte)
        } else {
            Err(self.truncated(what, 1))
        }
    }

    /// Reads `len` bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when fewer remain.
    #[inline]
    pub fn read_bytes(&mut self, len: usize, what: &'static str) -> Result<&'a [u8]> {
        if len <= self.remaining() {
            let start = self.position;
            self.position += len;
            Ok(self.input.get(start..self.position).unwrap_or_default())
        } else {
            Err(self.truncated(what, len))
        }
    }

    /// Reads a ULEB128 varint of at most `MAX_LEN` bytes (5 for 32 bits, 10 for 64).
    #[inline(always)]
    fn read_varint<const MAX_LEN: usize>(&mut self, what: &'static str) -> Result<u64> {
        if let Some(&byte) = self.input.get(self.position)
            && byte < 0x80
        {
            self.position += 1;
            return Ok(u64::from(byte));
        }
        match decode_varint_multi::<MAX_LEN>(self.rest()) {
            (value, len) if len != 0 => {
                self.position += len;
                Ok(value)
            }
            _ => Err(self.bad_varint(what, MAX_LEN)),
        }
    }

    /// Reads a ULEB128 varint of at most 32 bits.
    #[inline(always)]
    fn read_varint_u32(&mut self, what: &'static str) -> Result<u32> {
        // `decode_varint_multi` has checked that the value fits in 32 bits.
        #[allow(clippy::cast_possible_truncation)]
        self.read_varint::<{ varint::MAX_LEN_U32 }>(what)
            .map(|value| value as u32)
    }

    /// Reads a ULEB128 varint of at most 64 bits.
    #[inline(always)]
    fn read_varint_u64(&mut self, what: &'static str) -> Result<u64> {
        self.read_varint::<{ varint::MAX_LEN_U64 }>(what)
    }

    /// The error for the bad varint of at most `max_len` bytes at the reader's position,
    /// as `parquet_core::varint` describes it.
    #[cold]
    #[inline(never)]
    fn bad_varint(&self, what: &'static str, max_len: usize) -> Error {
        let decoded = if max_len == varint::MAX_LEN_U32 {
            varint::decode_u32(self.rest()).map(|_| ())
        } else {
            varint::decode_u64(self.rest()).map(|_| ())
        };
        match decoded {
            Err(error) => varint_error(error, what, self.position),
            Ok(()) => Error::invalid(what, self.position, 0),
        }
    }

    /// Reads a varint size (of a list, map or binary), which Thrift holds in an `i32`.
    #[inline]
    fn read_size(&mut self, what: &'static str) -> Result<usize> {
        let start = self.position;
        let size = self.read_varint_u32(what)?;
        if size > i32::MAX as u32 {
            return Err(Error::invalid(what, start, size.into()));
        }
        Ok(size as usize)
    }

    /// Reads an `i8` (Thrift `byte`).
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input.
    #[inline]
    pub fn read_i8(&mut self, what: &'static str) -> Result<i8> {
        self.read_byte(what).map(u8::cast_signed)
    }

    /// Reads an `i16`, a zigzag varint.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input; [`Error::Invalid`] for a malformed
    /// varint or a value outside the `i16` range.
    #[inline]
    pub fn read_i16(&mut self, what: &'static str) -> Result<i16> {
        let start = self.position;
        let value = zigzag::decode_i32(self.read_varint_u32(what)?);
        i16::try_from(value)
            .map_err(|_| Error::invalid(what, start, i64::from(value).cast_unsigned()))
    }

    /// Reads an `i32`, a zigzag varint.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input; [`Error::Invalid`] for a malformed
    /// varint.
    #[inline]
    pub fn read_i32(&mut self, what: &'static str) -> Result<i32> {
        self.read_varint_u32(what).map(zigzag::decode_i32)
    }

    /// Reads an `i64`, a zigzag varint.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input; [`Error::Invalid`] for a malformed
    /// varint.
    #[inline]
    pub fn read_i64(&mut self, what: &'static str) -> Result<i64> {
        self.read_varint_u64(what).map(zigzag::decode_i64)
    }

    /// Reads a `double`, eight bytes little endian.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when fewer than eight bytes remain.
    #[inline]
    pub fn read_double(&mut self, what: &'static str) -> Result<f64> {
        let bytes = self.read_bytes(8, what)?;
        let mut array = [0u8; 8];
        array.copy_from_slice(bytes);
        Ok(f64::from_le_bytes(array))
    }

    /// Reads a `uuid`, sixteen bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when fewer than sixteen bytes remain.
    pub fn read_uuid(&mut self, what: &'static str) -> Result<[u8; 16]> {
        let bytes = self.read_bytes(16, what)?;
        let mut array = [0u8; 16];
        array.copy_from_slice(bytes);
        Ok(array)
    }

    /// Reads a `binary`, borrowed from the input.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the input ends before the bytes do; [`Error::Invalid`]
    /// for a malformed length.
    #[inline]
    pub fn read_binary(&mut self, what: &'static str) -> Result<&'a [u8]> {
        let len = self.read_size(what)?;
        self.read_bytes(len, what)
    }

    /// Reads a `string`, borrowed from the input.
    ///
    /// # Errors
    ///
    /// As [`read_binary`](Self::read_binary), and [`Error::Invalid`] (whose value is the
    /// length of the valid prefix) when the bytes are not UTF-8.
    #[inline]
    pub fn read_string(&mut self, what: &'static str) -> Result<&'a str> {
        let start = self.position;
        let bytes = self.read_binary(what)?;
        core::str::from_utf8(bytes).map_err(|e| Error::invalid(what, start, e.valid_up_to() as u64))
    }

    /// Reads a boolean list element: one byte, 1 for true, 2 (or 0, as some writers have
    /// it) for false.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input; [`Error::Invalid`] for another byte.
    #[inline]
    pub fn read_bool(&mut self, what: &'static str) -> Result<bool> {
        match self.read_byte(what)? {
            1 => Ok(true),
            0 | 2 => Ok(false),
            other => Err(Error::invalid(what, self.position - 1, other.into())),
        }
    }

    /// Reads a field header, or `None` at the stop byte that closes a struct. `last_id` is
    /// the id of the previous field of the same struct (0 before the first) and is updated.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] at the end of the input; [`Error::Invalid`] for an unknown type
    /// code or an id that overflows `i16`.
    #[inline(always)]
    pub fn read_field_header(
        &mut self,
        last_id: &mut i16,
        what: &'static str,
    ) -> Result<Option<FieldHeader>> {
        let byte = self.read_byte(what)?;
        let code = byte & 0x0f;
        if code == 0 {
            // Thrift's own readers take any byte with type 0 as the stop.
            return Ok(None);
        }
        let Some(field_type) = FieldType::from_code(code) else {
            return Err(Error::invalid(what, self.position - 1, byte.into()));
        };
        let delta = byte >> 4;
        let id = if delta == 0 {
            self.read_long_field_id(what)?
        } else {
            match last_id.checked_add(i16::from(delta)) {
                Some(id) => id,
                None => return Err(Error::invalid(what, self.position - 1, byte.into())),
            }
        };
        *last_id = id;
        Ok(Some(FieldHeader { id, field_type }))
    }

    /// If the next byte is the short header of field `id` of type `expected` (either
    /// boolean code for a boolean) after field `last_id`, consumes it and returns the type
    /// it holds; otherwise leaves the reader as it is.
    #[inline(always)]
    pub(crate) fn next_field_is(
        &mut self,
        last_id: i16,
        id: i16,
        expected: FieldType,
    ) -> Option<FieldType> {
        let &byte = self.input.get(self.position)?;
        let delta = u8::try_from(id.wrapping_sub(last_id))
            .ok()
            .filter(|delta| (1..=15).contains(delta))?;
        let header = (delta << 4) | expected.code();
        let field_type = if byte == header {
            expected
        } else if expected.is_bool() && byte == (delta << 4) | FieldType::BooleanFalse.code() {
            FieldType::BooleanFalse
        } else {
            return None;
        };
        self.position += 1;
        Some(field_type)
    }

    /// The id of a long-form field header, which writers use rarely.
    #[cold]
    #[inline(never)]
    fn read_long_field_id(&mut self, what: &'static str) -> Result<i16> {
        self.read_i16(what)
    }

    /// Reads the header of a list or set, checking that its size could fit in the bytes
    /// left.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the input ends or cannot hold `size` elements;
    /// [`Error::Invalid`] for an unknown element type or a size above `i32::MAX`.
    pub fn read_list_header(&mut self, what: &'static str) -> Result<ListHeader> {
        let (start, byte, size) = self.read_list_byte(what)?;
        let code = byte & 0x0f;
        let element_type = if code == 0 && size == 0 {
            None
        } else {
            match FieldType::from_code(code) {
                Some(element_type) => Some(element_type),
                None => return Err(Error::invalid(what, start, byte.into())),
            }
        };
        self.check_elements(
            size,
            element_type.map_or(1, FieldType::min_element_size),
            what,
        )?;
        Ok(ListHeader { element_type, size })
    }

    /// Reads the header of a list whose elements should be of type `expected`, each at
    /// least `min_size` bytes long, and returns its size, checked against the bytes left.
    ///
    /// # Errors
    ///
    /// As [`read_list_header`](Self::read_list_header), and [`Error::Invalid`] when the
    /// element type is not `expected`.
    #[inline(always)]
    pub fn read_list_size(
        &mut self,
        expected: FieldType,
        min_size: usize,
        what: &'static str,
    ) -> Result<usize> {
        let (start, byte, size) = self.read_list_byte(what)?;
        let code = byte & 0x0f;
        let matches = match FieldType::from_code(code) {
            Some(found) => found.matches(expected),
            None => code == 0 && size == 0,
        };
        if !matches {
            return Err(Error::invalid(what, start, byte.into()));
        }
        self.check_elements(size, min_size.max(1), what)?;
        Ok(size)
    }

    /// The first byte of a list header (with its position) and the list's size, from
    /// the byte's high nibble or the varint after it.
    #[inline(always)]
    fn read_list_byte(&mut self, what: &'static str) -> Result<(usize, u8, usize)> {
        let start = self.position;
        let byte = self.read_byte(what)?;
        let size = match byte >> 4 {
            15 => self.read_size(what)?,
            short => usize::from(short),
        };
        Ok((start, byte, size))
    }

    /// Checks that `size` elements of at least `min_size` bytes each fit in what is left.
    #[inline(always)]
    fn check_elements(&self, size: usize, min_size: usize, what: &'static str) -> Result<()> {
        match size.checked_mul(min_size) {
            Some(needed) if needed <= self.remaining() => Ok(()),
            needed => Err(self.truncated(what, needed.unwrap_or(usize::MAX))),
        }
    }

    /// Reads the header of a map, checking that its size could fit in the bytes left.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the input ends or cannot hold `size` entries;
    /// [`Error::Invalid`] for an unknown key or value type or a size above `i32::MAX`.
    pub fn read_map_header(&mut self, what: &'static str) -> Result<MapHeader> {
        let size = self.read_size(what)?;
        if size == 0 {
            return Ok(MapHeader {
                key_type: None,
                value_type: None,
                size,
            });
        }
        let start = self.position;
        let byte = self.read_byte(what)?;
        let (Some(key_type), Some(value_type)) = (
            FieldType::from_code(byte >> 4),
            FieldType::from_code(byte & 0x0f),
        ) else {
            return Err(Error::invalid(what, start, byte.into()));
        };
        let entry = key_type.min_element_size() + value_type.min_element_size();
        self.check_elements(size, entry, what)?;
        Ok(MapHeader {
            key_type: Some(key_type),
            value_type: Some(value_type),
            size,
        })
    }

    /// Skips the value of a struct field of type `field_type` (nothing for a boolean),
    /// whatever it holds, within the nesting limit.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`], [`Error::Invalid`] or [`Error::LimitExceeded`] when the value
    /// is cut short, malformed or nested too deep.
    pub fn skip_field(&mut self, field_type: FieldType) -> Result<()> {
        self.skip(field_type, false)
    }

    /// Skips a list, set or map element of type `element_type` (one byte for a boolean).
    ///
    /// # Errors
    ///
    /// As [`skip_field`](Self::skip_field).
    pub fn skip_element(&mut self, element_type: FieldType) -> Result<()> {
        self.skip(element_type, true)
    }

    /// Skips the value of a struct field like [`skip_field`](Self::skip_field) and returns
    /// the bytes it took.
    ///
    /// # Errors
    ///
    /// As [`skip_field`](Self::skip_field).
    pub fn skip_field_raw(&mut self, field_type: FieldType) -> Result<&'a [u8]> {
        let start = self.position;
        self.skip_field(field_type)?;
        Ok(self.input.get(start..self.position).unwrap_or_default())
    }

    fn skip(&mut self, field_type: FieldType, element: bool) -> Result<()> {
        const WHAT: &str = "skipped thrift value";
        match field_type {
            FieldType::BooleanTrue | FieldType::BooleanFalse => {
                if element {
                    self.read_bool(WHAT)?;
                }
            }
            FieldType::Byte => {
                self.read_byte(WHAT)?;
            }
            FieldType::I16 => {
                self.read_i16(WHAT)?;
            }
            FieldType::I32 => {
                self.read_varint_u32(WHAT)?;
            }
            FieldType::I64 => {
                self.read_varint_u64(WHAT)?;
            }
            FieldType::Double => {
                self.read_bytes(8, WHAT)?;
            }
            FieldType::Uuid => {
                self.read_bytes(16, WHAT)?;
            }
            FieldType::Binary => {
                self.read_binary(WHAT)?;
            }
            FieldType::Struct => {
                self.enter()?;
                let mut last_id = 0;
                while let Some(header) = self.read_field_header(&mut last_id, WHAT)? {
                    self.skip(header.field_type, false)?;
                }
                self.leave();
            }
            FieldType::List | FieldType::Set => {
                self.enter()?;
                let header = self.read_list_header(WHAT)?;
                if let Some(element_type) = header.element_type {
                    self.skip_elements(element_type, header.size)?;
                }
                self.leave();
            }
            FieldType::Map => {
                self.enter()?;
                let header = self.read_map_header(WHAT)?;
                if let (Some(key_type), Some(value_type)) = (header.key_type, header.value_type) {
                    for _ in 0..header.size {
                        self.skip(key_type, true)?;
                        self.skip(value_type, true)?;
                    }
                }
                self.leave();
            }
        }
        Ok(())
    }

    fn skip_elements(&mut self, element_type: FieldType, size: usize) -> Result<()> {
        const WHAT: &str = "skipped thrift list";
        match element_type {
            // Fixed sizes: one check for the lot (`size` has been checked against the
            // bytes left with these very sizes).
            FieldType::Byte | FieldType::Double | FieldType::Uuid => {
                self.read_bytes(size * element_type.min_element_size(), WHAT)?;
            }
            _ => {
                for _ in 0..size {
                    self.skip(element_type, true)?;
                }
            }
        }
        Ok(())
    }
}

/// Appends compact-protocol values to a `Vec<u8>`.
///
/// Field ids are written relative to the previous field of the same struct, which the
/// caller passes in (`last_id`, 0 for the first field).
///
/// ```
/// use parquet_thrift::compact::{FieldType, Writer};
///
/// let mut out = Vec::new();
/// let mut writer = Writer::new(&mut out);
/// writer.write_field_header(FieldType::I32, 1, 0);
/// writer.write_i32(-3);
/// writer.write_bool_field(2, 1, true);
/// writer.write_field_header(FieldType::Binary, 300, 2);
/// writer.write_binary(b"hi")?;
/// writer.write_stop();
/// assert_eq!(out, [0x15, 0x05, 0x11, 0x08, 0xd8, 0x04, 0x02, b'h', b'i', 0x00]);
/// # Ok::<(), parquet_core::Error>(())
/// ```
#[derive(Debug)]
pub struct Writer<'o> {
    out: &'o mut Vec<u8>,
}

impl<'o> Writer<'o> {
    /// A writer that appends to `out`.
    pub const fn new(out: &'o mut Vec<u8>) -> Self {
        Self { out }
    }

    /// The output so far (including what was in it before).
    pub fn output(&self) -> &[u8] {
        self.out
    }

    /// Appends bytes that already are a compact encoding, such as a value returned by
    /// [`Reader::skip_field_raw`].
    pub fn write_raw(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    #[inline]
    fn write_varint(&mut self, value: u64) {
        if let Ok(byte @ 0..0x80) = u8::try_from(value) {
            self.out.push(byte);
        } else {
            varint::encode_u64(value, self.out);
        }
    }

    /// Writes a field header: the short form when `id` is 1 to 15 more than `last_id`,
    /// the long form otherwise.
    #[inline]
    pub fn write_field_header(&mut self, field_type: FieldType, id: i16, last_id: i16) {
        if let Ok(delta @ 1..=15) = u8::try_from(i32::from(id) - i32::from(last_id)) {
            self.out.push((delta << 4) | field_type.code());
        } else {
            self.out.push(field_type.code());
            self.write_i16(id);
        }
    }

    /// Writes a boolean field: its header, which carries the value.
    #[inline]
    pub fn write_bool_field(&mut self, id: i16, last_id: i16, value: bool) {
        let field_type = if value {
            FieldType::BooleanTrue
        } else {
            FieldType::BooleanFalse
        };
        self.write_field_header(field_type, id, last_id);
    }

    /// Writes the stop byte that closes a struct.
    #[inline]
    pub fn write_stop(&mut self) {
        self.out.push(0);
    }

    /// Writes one byte.
    #[inline]
    pub fn write_byte(&mut self, value: u8) {
        self.out.push(value);
    }

    /// Writes an `i8` (Thrift `byte`).
    #[inline]
    pub fn write_i8(&mut self, value: i8) {
        self.out.push(value.cast_unsigned());
    }

    /// Writes an `i16`, a zigzag varint.
    #[inline]
    pub fn write_i16(&mut self, value: i16) {
        self.write_varint(zigzag::encode_i32(value.into()).into());
    }

    /// Writes an `i32`, a zigzag varint.
    #[inline]
    pub fn write_i32(&mut self, value: i32) {
        self.write_varint(zigzag::encode_i32(value).into());
    }

    /// Writes an `i64`, a zigzag varint.
    #[inline]
    pub fn write_i64(&mut self, value: i64) {
        self.write_varint(zigzag::encode_i64(value));
    }

    /// Writes a `double`, eight bytes little endian.
    #[inline]
    pub fn write_double(&mut self, value: f64) {
        self.out.extend_from_slice(&value.to_le_bytes());
    }

    /// Writes a `uuid`, sixteen bytes.
    pub fn write_uuid(&mut self, value: &[u8; 16]) {
        self.out.extend_from_slice(value);
    }

    /// Writes a boolean list element: 1 for true, 2 for false.
    #[inline]
    pub fn write_bool(&mut self, value: bool) {
        self.out.push(if value { 1 } else { 2 });
    }

    /// Checks a size against the `i32` that Thrift keeps sizes in.
    #[inline]
    fn check_size(size: usize, what: &'static str) -> Result<u64> {
        match i32::try_from(size) {
            Ok(size) => Ok(size.unsigned_abs().into()),
            Err(_) => Err(Error::LimitExceeded {
                what,
                requested: size as u64,
                limit: i32::MAX as u64,
            }),
        }
    }

    /// Writes a `binary`: its varint length and the bytes.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] (writing nothing) for more than `i32::MAX` bytes.
    #[inline]
    pub fn write_binary(&mut self, value: &[u8]) -> Result<()> {
        let len = Self::check_size(value.len(), "thrift binary length")?;
        self.write_varint(len);
        self.out.extend_from_slice(value);
        Ok(())
    }

    /// Writes a `string`.
    ///
    /// # Errors
    ///
    /// As [`write_binary`](Self::write_binary).
    #[inline]
    pub fn write_string(&mut self, value: &str) -> Result<()> {
        self.write_binary(value.as_bytes())
    }

    /// Writes the header of a list of `size` elements of type `element_type` (for
    /// booleans, [`FieldType::BooleanTrue`] is written, as Thrift's own writers do).
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] (writing nothing) for more than `i32::MAX` elements.
    #[inline]
    pub fn write_list_header(&mut self, element_type: FieldType, size: usize) -> Result<()> {
        let size = Self::check_size(size, "thrift list size")?;
        let code = element_code(element_type);
        if let Ok(short @ 0..15) = u8::try_from(size) {
            self.out.push((short << 4) | code);
        } else {
            self.out.push(0xf0 | code);
            self.write_varint(size);
        }
        Ok(())
    }

    /// Writes the header of a set, which is that of a list.
    ///
    /// # Errors
    ///
    /// As [`write_list_header`](Self::write_list_header).
    pub fn write_set_header(&mut self, element_type: FieldType, size: usize) -> Result<()> {
        self.write_list_header(element_type, size)
    }

    /// Writes the header of a map of `size` entries (a single 0 byte when empty).
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] (writing nothing) for more than `i32::MAX` entries.
    pub fn write_map_header(
        &mut self,
        key_type: FieldType,
        value_type: FieldType,
        size: usize,
    ) -> Result<()> {
        let size = Self::check_size(size, "thrift map size")?;
        self.write_varint(size);
        if size > 0 {
            self.out
                .push((element_code(key_type) << 4) | element_code(value_type));
        }
        Ok(())
    }
}

/// The code a collection header gives elements of `element_type`: for booleans,
/// [`FieldType::BooleanTrue`], as Thrift's own writers write.
const fn element_code(element_type: FieldType) -> u8 {
    if element_type.is_bool() {
        FieldType::BooleanTrue.code()
    } else {
        element_type.code()
    }
}
