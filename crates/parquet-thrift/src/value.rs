//! The traits every Thrift type implements, and their implementations for the Thrift
//! base types (`bool`, `byte`, `i16`, `i32`, `i64`, `double`, `binary`, `string`) and
//! `list<T>`.

use std::borrow::Cow;

use parquet_core::{Error, Result};

use crate::compact::{FieldType, Reader, Writer};

/// What a Thrift type looks like on the wire.
pub trait ThriftType {
    /// The compact type code of a field or element of this type (for `bool`,
    /// [`FieldType::BooleanTrue`]).
    const FIELD_TYPE: FieldType;

    /// The fewest bytes a value of this type takes as a list element: for a struct, its
    /// stop byte and a header and the smallest value of each required field. A list's
    /// declared size is checked against it before anything is allocated.
    const MIN_SIZE: usize = Self::FIELD_TYPE.min_element_size();
}

/// The fewest bytes a required field of type `T` takes in its struct: its header, and its
/// value unless it is a boolean (whose value is in the header).
pub(crate) const fn min_field_size<T: ThriftType>() -> usize {
    if T::FIELD_TYPE.is_bool() {
        1
    } else {
        1 + T::MIN_SIZE
    }
}

/// A Thrift type that can be read from the compact protocol, borrowing from input `'a`.
///
/// Only [`read`](Self::read) is required. Structs also override the `_in_place` methods
/// and [`read_list`](Self::read_list), so that a struct inside a list or another struct is
/// decoded where it will stay instead of being moved there.
pub trait ReadThrift<'a>: ThriftType + Sized {
    /// Reads a value: a whole struct, or a base-type value as it appears in a list.
    ///
    /// # Errors
    ///
    /// Any [`Error`] of the [`Reader`], and [`Error::Invalid`] for a struct without one
    /// of its required fields or a union without exactly one member.
    fn read(reader: &mut Reader<'a>) -> Result<Self>;

    /// Replaces `self` with the value read, reusing its place.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read); `self` is then left with some value.
    #[inline]
    fn read_in_place(&mut self, reader: &mut Reader<'a>) -> Result<()> {
        *self = Self::read(reader)?;
        Ok(())
    }

    /// Reads a value like [`read`](Self::read), naming it `what` in errors (a field or
    /// list of a struct); structs name their own fields instead.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read).
    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        let _ = what;
        Self::read(reader)
    }

    /// Reads the value of struct field `what`, whose header announced `field_type`.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] when `field_type` is not this type's, and as
    /// [`read`](Self::read).
    #[inline]
    fn read_field(
        reader: &mut Reader<'a>,
        field_type: FieldType,
        what: &'static str,
    ) -> Result<Self> {
        check_type(reader, field_type, Self::FIELD_TYPE, what)?;
        Self::read_named(reader, what)
    }

    /// Reads the value of required struct field `what` into `self`.
    ///
    /// # Errors
    ///
    /// As [`read_field`](Self::read_field).
    #[inline]
    fn read_field_in_place(
        &mut self,
        reader: &mut Reader<'a>,
        field_type: FieldType,
        what: &'static str,
    ) -> Result<()> {
        *self = Self::read_field(reader, field_type, what)?;
        Ok(())
    }

    /// Reads the value of optional struct field `what` into `slot`.
    ///
    /// # Errors
    ///
    /// As [`read_field`](Self::read_field).
    #[inline]
    fn read_optional_field_in_place(
        slot: &mut Option<Self>,
        reader: &mut Reader<'a>,
        field_type: FieldType,
        what: &'static str,
    ) -> Result<()> {
        *slot = Some(Self::read_field(reader, field_type, what)?);
        Ok(())
    }

    /// Reads the `size` elements of a list named `what` whose header has been read (and
    /// `size` checked against the bytes left).
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read).
    #[inline]
    fn read_list(reader: &mut Reader<'a>, size: usize, what: &'static str) -> Result<Vec<Self>> {
        let mut list = Vec::with_capacity(initial_capacity::<Self>(size));
        for _ in 0..size {
            list.push(Self::read_named(reader, what)?);
        }
        Ok(list)
    }

    /// Reads a value from the start of `input` and returns it with the number of bytes it
    /// took.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read).
    fn read_from(input: &'a [u8]) -> Result<(Self, usize)> {
        let mut reader = Reader::new(input);
        let value = Self::read(&mut reader)?;
        Ok((value, reader.position()))
    }
}

/// The most memory a list reserves on the word of its header, before its elements are
/// read: beyond that, it grows as elements are actually decoded.
pub(crate) const MAX_RESERVATION: usize = 16 << 20;

/// The capacity to reserve for a list of `size` elements of type `T` (`size` having been
/// checked against the bytes left).
#[inline]
pub(crate) const fn initial_capacity<T>(size: usize) -> usize {
    let cap = MAX_RESERVATION
        / if size_of::<T>() == 0 {
            1
        } else {
            size_of::<T>()
        };
    if size < cap { size } else { cap }
}

/// A field of type `found` where one of `expected` was declared.
#[inline]
pub(crate) fn check_type(
    reader: &Reader<'_>,
    found: FieldType,
    expected: FieldType,
    what: &'static str,
) -> Result<()> {
    if found as u8 == expected as u8 {
        Ok(())
    } else {
        Err(wrong_type(reader, found, what))
    }
}

#[cold]
#[inline(never)]
fn wrong_type(reader: &Reader<'_>, found: FieldType, what: &'static str) -> Error {
    // The header byte is just behind the reader (or behind a long-form id).
    Error::invalid(
        what,
        reader.position().saturating_sub(1),
        found.code().into(),
    )
}

/// A Thrift type that can be written with the compact protocol.
pub trait WriteThrift: ThriftType {
    /// Writes a value: a whole struct, or a base-type value as it appears in a list.
    ///
    /// # Errors
    ///
    /// [`Error::LimitExceeded`] for a binary, string or list longer than `i32::MAX`,
    /// which Thrift cannot hold.
    fn write(&self, writer: &mut Writer<'_>) -> Result<()>;

    /// Writes this value as field `id` of a struct whose previous field was `last_id`.
    ///
    /// # Errors
    ///
    /// As [`write`](Self::write).
    #[inline]
    fn write_field(&self, writer: &mut Writer<'_>, id: i16, last_id: i16) -> Result<()> {
        writer.write_field_header(Self::FIELD_TYPE, id, last_id);
        self.write(writer)
    }

    /// Appends this value to `out`; on error, `out` is left as it was.
    ///
    /// # Errors
    ///
    /// As [`write`](Self::write).
    fn write_to(&self, out: &mut Vec<u8>) -> Result<()> {
        let len = out.len();
        let result = self.write(&mut Writer::new(out));
        if result.is_err() {
            out.truncate(len);
        }
        result
    }
}

/// Conversion of a value that may borrow from its input into one that owns its data.
pub trait IntoOwned {
    /// The owning type (for the Parquet structures, the same type with `'static`).
    type Owned: 'static;

    /// Copies whatever is borrowed.
    fn into_owned(self) -> Self::Owned;
}

macro_rules! base_type {
    ($($ty:ty: $field_type:ident, $read:ident, $write:ident, $name:literal;)*) => {$(
        impl ThriftType for $ty {
            const FIELD_TYPE: FieldType = FieldType::$field_type;
        }

        impl<'a> ReadThrift<'a> for $ty {
            #[inline]
            fn read(reader: &mut Reader<'a>) -> Result<Self> {
                reader.$read($name)
            }

            #[inline]
            fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
                reader.$read(what)
            }
        }

        impl WriteThrift for $ty {
            #[inline]
            fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
                writer.$write(*self);
                Ok(())
            }
        }

        impl IntoOwned for $ty {
            type Owned = Self;

            #[inline]
            fn into_owned(self) -> Self {
                self
            }
        }
    )*};
}

base_type! {
    i8: Byte, read_i8, write_i8, "i8";
    i16: I16, read_i16, write_i16, "i16";
    i32: I32, read_i32, write_i32, "i32";
    i64: I64, read_i64, write_i64, "i64";
    f64: Double, read_double, write_double, "double";
}

impl ThriftType for bool {
    const FIELD_TYPE: FieldType = FieldType::BooleanTrue;
}

/// As a list element a boolean is a byte; as a struct field it lives in the header.
impl<'a> ReadThrift<'a> for bool {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        reader.read_bool("bool")
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        reader.read_bool(what)
    }

    #[inline]
    fn read_field(
        reader: &mut Reader<'a>,
        field_type: FieldType,
        what: &'static str,
    ) -> Result<Self> {
        match field_type {
            FieldType::BooleanTrue => Ok(true),
            FieldType::BooleanFalse => Ok(false),
            other => Err(wrong_type(reader, other, what)),
        }
    }
}

impl WriteThrift for bool {
    #[inline]
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        writer.write_bool(*self);
        Ok(())
    }

    #[inline]
    fn write_field(&self, writer: &mut Writer<'_>, id: i16, last_id: i16) -> Result<()> {
        writer.write_bool_field(id, last_id, *self);
        Ok(())
    }
}

impl IntoOwned for bool {
    type Owned = Self;

    #[inline]
    fn into_owned(self) -> Self {
        self
    }
}

impl ThriftType for Cow<'_, [u8]> {
    const FIELD_TYPE: FieldType = FieldType::Binary;
}

impl<'a> ReadThrift<'a> for Cow<'a, [u8]> {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        reader.read_binary("binary").map(Cow::Borrowed)
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        reader.read_binary(what).map(Cow::Borrowed)
    }
}

impl WriteThrift for Cow<'_, [u8]> {
    #[inline]
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        writer.write_binary(self)
    }
}

impl IntoOwned for Cow<'_, [u8]> {
    type Owned = Cow<'static, [u8]>;

    fn into_owned(self) -> Cow<'static, [u8]> {
        Cow::Owned(Cow::into_owned(self))
    }
}

impl ThriftType for Cow<'_, str> {
    const FIELD_TYPE: FieldType = FieldType::Binary;
}

impl<'a> ReadThrift<'a> for Cow<'a, str> {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        reader.read_string("string").map(Cow::Borrowed)
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        reader.read_string(what).map(Cow::Borrowed)
    }
}

impl WriteThrift for Cow<'_, str> {
    #[inline]
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        writer.write_string(self)
    }
}

impl IntoOwned for Cow<'_, str> {
    type Owned = Cow<'static, str>;

    fn into_owned(self) -> Cow<'static, str> {
        Cow::Owned(Cow::into_owned(self))
    }
}

impl ThriftType for &[u8] {
    const FIELD_TYPE: FieldType = FieldType::Binary;
}

impl<'a> ReadThrift<'a> for &'a [u8] {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        reader.read_binary("binary")
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        reader.read_binary(what)
    }
}

impl WriteThrift for &[u8] {
    #[inline]
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        writer.write_binary(self)
    }
}

impl ThriftType for &str {
    const FIELD_TYPE: FieldType = FieldType::Binary;
}

impl<'a> ReadThrift<'a> for &'a str {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        reader.read_string("string")
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        reader.read_string(what)
    }
}

impl WriteThrift for &str {
    #[inline]
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        writer.write_string(self)
    }
}

impl<T: ThriftType> ThriftType for Vec<T> {
    const FIELD_TYPE: FieldType = FieldType::List;
}

impl<'a, T: ReadThrift<'a>> ReadThrift<'a> for Vec<T> {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        Self::read_named(reader, "list")
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        // The size has been checked against the bytes left: a valid input of the same
        // length could make us allocate as much.
        let size = reader.read_list_size(T::FIELD_TYPE, T::MIN_SIZE, what)?;
        T::read_list(reader, size, what)
    }
}

impl<T: WriteThrift> WriteThrift for Vec<T> {
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        write_list(self, writer)
    }
}

/// Writes `elements` as a list: its header, then each element.
pub(crate) fn write_list<T: WriteThrift>(elements: &[T], writer: &mut Writer<'_>) -> Result<()> {
    writer.write_list_header(T::FIELD_TYPE, elements.len())?;
    for element in elements {
        element.write(writer)?;
    }
    Ok(())
}

impl<T: IntoOwned> IntoOwned for Vec<T> {
    type Owned = Vec<T::Owned>;

    fn into_owned(self) -> Self::Owned {
        self.into_iter().map(IntoOwned::into_owned).collect()
    }
}

impl<T: ThriftType> ThriftType for Box<T> {
    const FIELD_TYPE: FieldType = T::FIELD_TYPE;
    const MIN_SIZE: usize = T::MIN_SIZE;
}

/// Boxes hold the large members that are seldom present, to keep their parents small.
impl<'a, T: ReadThrift<'a>> ReadThrift<'a> for Box<T> {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        T::read(reader).map(Box::new)
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        T::read_named(reader, what).map(Box::new)
    }

    #[inline]
    fn read_field(
        reader: &mut Reader<'a>,
        field_type: FieldType,
        what: &'static str,
    ) -> Result<Self> {
        T::read_field(reader, field_type, what).map(Box::new)
    }
}

impl<T: WriteThrift> WriteThrift for Box<T> {
    #[inline]
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        T::write(self, writer)
    }

    #[inline]
    fn write_field(&self, writer: &mut Writer<'_>, id: i16, last_id: i16) -> Result<()> {
        T::write_field(self, writer, id, last_id)
    }
}

impl<T: IntoOwned> IntoOwned for Box<T> {
    type Owned = Box<T::Owned>;

    fn into_owned(self) -> Self::Owned {
        Box::new(T::into_owned(*self))
    }
}

impl<T: IntoOwned> IntoOwned for Option<T> {
    type Owned = Option<T::Owned>;

    #[inline]
    fn into_owned(self) -> Self::Owned {
        self.map(IntoOwned::into_owned)
    }
}
