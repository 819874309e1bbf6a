//! The three macros that turn one field list into a Rust type, its reader and its writer:
//! [`thrift_struct!`], [`thrift_enum!`] and [`thrift_union!`].
//!
//! Each takes the Thrift definition almost as `parquet.thrift` writes it, with doc comments
//! that are forwarded to the generated items:
//!
//! ```text
//! thrift_struct! {
//!     /// doc
//!     pub struct PageHeader<'a> {          // `<'a>` when a field borrows from the input
//!         /// doc
//!         1: required type_: PageType,
//!         4: optional crc: i32,
//!         5: optional data_page_header: DataPageHeader<'a>,
//!     }
//! }
//! thrift_enum! {
//!     pub enum PageType { /// doc
//!                         0: DATA_PAGE, … }
//! }
//! thrift_union! {
//!     pub enum TimeUnit { /// doc
//!                         1: MILLIS => Millis(MilliSeconds), … }
//! }
//! ```
//!
//! A struct gets public fields (optional ones as `Option`), `Default`, and:
//!
//! - a reader that decodes in place (into a default value, a list's new element or an
//!   `Option` set to a default), first matching the fields that come in declaration
//!   order with short headers by their header byte, then any others in a general loop
//!   that skips unknown ids and fields of another type than declared; required fields
//!   are tracked in a bitmask (ids below 64), and a missing one is an [`Error::Invalid`]
//!   naming the struct and the field, whose value is the field id;
//! - a writer that writes the fields in declaration order, short headers where the id
//!   delta allows;
//! - `IntoOwned`, `ThriftType` (with the struct's smallest encoding, `MIN_SIZE`), and
//!   inherent `read_from`, `write_to` and `into_owned`.
//!
//! An enum becomes an `i32` newtype with one associated constant per known value, so
//! that values this crate does not know are kept and written back unchanged. A union gets
//! its variants plus `Unrecognized(UnrecognizedMember)`, which keeps the raw bytes of a
//! member this crate does not know (or of a known id but another type), so that it too
//! is written back unchanged.
//!
//! [`Error::Invalid`]: parquet_core::Error::Invalid

/// Defines a Thrift struct: the Rust struct, its reader and its writer.
macro_rules! thrift_struct {
    // An empty struct: read by skipping whatever fields a newer writer put in it.
    (
        $(#[$meta:meta])*
        pub struct $name:ident {}
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct $name {}

        impl $crate::ThriftType for $name {
            const FIELD_TYPE: $crate::compact::FieldType = $crate::compact::FieldType::Struct;
        }

        impl<'a> $crate::ReadThrift<'a> for $name {
            #[inline]
            fn read(reader: &mut $crate::compact::Reader<'a>) -> $crate::Result<Self> {
                reader.skip_field($crate::compact::FieldType::Struct)?;
                Ok(Self {})
            }
        }

        impl $crate::WriteThrift for $name {
            #[inline]
            fn write(&self, writer: &mut $crate::compact::Writer<'_>) -> $crate::Result<()> {
                writer.write_stop();
                Ok(())
            }
        }

        impl $crate::IntoOwned for $name {
            type Owned = Self;

            #[inline]
            fn into_owned(self) -> Self {
                self
            }
        }

        $crate::macros::thrift_struct!(@inherent $name);
    };

    (
        $(#[$meta:meta])*
        pub struct $name:ident $(<$lt:lifetime>)? {
            $(
                $(#[$field_meta:meta])*
                $id:literal : $req:ident $field:ident : $ty:ty
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name $(<$lt>)? {
            $(
                $(#[$field_meta])*
                pub $field: $crate::macros::thrift_struct!(@type $req $ty),
            )+
        }

        impl $(<$lt>)? $crate::ThriftType for $name $(<$lt>)? {
            const FIELD_TYPE: $crate::compact::FieldType = $crate::compact::FieldType::Struct;
            const MIN_SIZE: usize =
                1 $(+ $crate::macros::thrift_struct!(@min_size $req $ty))+;
        }

        impl<'a> $name $(<$lt>)? {
            /// Reads the fields of this struct, which holds its default, from `reader`.
            fn read_fields(&mut self, reader: &mut $crate::compact::Reader<'a>) -> $crate::Result<()> {
                const REQUIRED: u64 = 0 $(| $crate::macros::thrift_struct!(@bit $req $id))+;
                #[allow(unused_variables)] // when no field is required
                let start = reader.position();
                reader.enter()?;
                let mut seen = 0u64;
                let mut last_id = 0i16;
                // Fast path: the fields that come in declaration (id) order with short
                // headers, as writers emit them, each recognised by its header byte alone.
                $(
                    if let Some(field_type) = reader.next_field_is(last_id, $id, <$ty as $crate::ThriftType>::FIELD_TYPE) {
                        $crate::macros::thrift_struct!(
                            @read $req self.$field, $ty, reader, field_type,
                            concat!(stringify!($name), ".", stringify!($field))
                        );
                        seen |= 1 << $id;
                        last_id = $id;
                    }
                )+
                // Whatever is left: unknown fields, fields out of order, long headers.
                while let Some(header) = reader
                    .read_field_header(&mut last_id, concat!(stringify!($name), " field header"))?
                {
                    match header.id {
                        $(
                            // A field whose type is not the declared one is skipped, as
                            // Thrift's own readers do (some writers reuse ids).
                            $id if header.field_type.matches(<$ty as $crate::ThriftType>::FIELD_TYPE) => {
                                $crate::macros::thrift_struct!(
                                    @read $req self.$field, $ty, reader, header.field_type,
                                    concat!(stringify!($name), ".", stringify!($field))
                                );
                                seen |= 1 << $id;
                            }
                        )+
                        _ => reader.skip_field(header.field_type)?,
                    }
                }
                reader.leave();
                if $crate::macros::lacks(seen, REQUIRED) {
                    $( $crate::macros::thrift_struct!(@check $req seen, $name, $field, $id, start); )+
                }
                Ok(())
            }
        }

        impl<'a> $crate::ReadThrift<'a> for $name $(<$lt>)? {
            #[inline]
            fn read(reader: &mut $crate::compact::Reader<'a>) -> $crate::Result<Self> {
                let mut value = Self::default();
                value.read_fields(reader)?;
                Ok(value)
            }

            #[inline]
            fn read_in_place(&mut self, reader: &mut $crate::compact::Reader<'a>) -> $crate::Result<()> {
                *self = Self::default();
                self.read_fields(reader)
            }

            #[inline]
            fn read_field_in_place(
                &mut self,
                reader: &mut $crate::compact::Reader<'a>,
                field_type: $crate::compact::FieldType,
                what: &'static str,
            ) -> $crate::Result<()> {
                $crate::value::check_type(reader, field_type, $crate::compact::FieldType::Struct, what)?;
                self.read_in_place(reader)
            }

            #[inline]
            fn read_optional_field_in_place(
                slot: &mut Option<Self>,
                reader: &mut $crate::compact::Reader<'a>,
                field_type: $crate::compact::FieldType,
                what: &'static str,
            ) -> $crate::Result<()> {
                $crate::value::check_type(reader, field_type, $crate::compact::FieldType::Struct, what)?;
                slot.insert(Self::default()).read_fields(reader)
            }

            fn read_list(
                reader: &mut $crate::compact::Reader<'a>,
                size: usize,
                _what: &'static str,
            ) -> $crate::Result<Vec<Self>> {
                let mut list: Vec<Self> = Vec::with_capacity($crate::value::initial_capacity::<Self>(size));
                for _ in 0..size {
                    list.push(Self::default());
                    if let Some(element) = list.last_mut() {
                        element.read_fields(reader)?;
                    }
                }
                Ok(list)
            }
        }

        impl $(<$lt>)? $crate::WriteThrift for $name $(<$lt>)? {
            #[allow(unused_assignments)]
            fn write(&self, writer: &mut $crate::compact::Writer<'_>) -> $crate::Result<()> {
                let mut last_id = 0i16;
                $( $crate::macros::thrift_struct!(@write $req self.$field, writer, last_id, $id); )+
                writer.write_stop();
                Ok(())
            }
        }

        impl $(<$lt>)? $crate::IntoOwned for $name $(<$lt>)? {
            type Owned = $crate::macros::thrift_struct!(@static $name $(<$lt>)?);

            fn into_owned(self) -> Self::Owned {
                $name {
                    $( $field: $crate::IntoOwned::into_owned(self.$field), )+
                }
            }
        }

        $crate::macros::thrift_struct!(@inherent $name $(<$lt>)?);
    };

    (@type required $ty:ty) => { $ty };
    (@type optional $ty:ty) => { Option<$ty> };

    (@min_size required $ty:ty) => { $crate::value::min_field_size::<$ty>() };
    (@min_size optional $ty:ty) => { 0 };

    (@bit required $id:literal) => { (1u64 << $id) };
    (@bit optional $id:literal) => { 0 };

    (@read required $slot:expr, $ty:ty, $reader:ident, $field_type:expr, $what:expr) => {
        <$ty as $crate::ReadThrift<'a>>::read_field_in_place(&mut $slot, $reader, $field_type, $what)?
    };
    (@read optional $slot:expr, $ty:ty, $reader:ident, $field_type:expr, $what:expr) => {
        <$ty as $crate::ReadThrift<'a>>::read_optional_field_in_place(
            &mut $slot, $reader, $field_type, $what,
        )?
    };

    (@check required $seen:ident, $name:ident, $field:ident, $id:literal, $start:ident) => {
        if $seen & (1u64 << $id) == 0 {
            return Err($crate::Error::invalid(
                concat!(stringify!($name), " without required field ", stringify!($field)),
                $start,
                $id,
            ));
        }
    };
    (@check optional $seen:ident, $name:ident, $field:ident, $id:literal, $start:ident) => {};

    (@write required $value:expr, $writer:ident, $last:ident, $id:literal) => {
        $crate::WriteThrift::write_field(&$value, $writer, $id, $last)?;
        $last = $id;
    };
    (@write optional $value:expr, $writer:ident, $last:ident, $id:literal) => {
        if let Some(value) = &$value {
            $crate::WriteThrift::write_field(value, $writer, $id, $last)?;
            $last = $id;
        }
    };

    (@static $name:ident <$lt:lifetime>) => { $name<'static> };
    (@static $name:ident) => { $name };

    (@inherent $name:ident $(<$lt:lifetime>)?) => {
        impl<'a> $name $(<$lt>)? {
            #[doc = concat!(
                "Reads a `", stringify!($name), "` from the start of `input` and returns it \
                 with the number of bytes it took.\n\n",
                "# Errors\n\n",
                "Any error of the compact-protocol reader (truncated, malformed or too deeply \
                 nested input), or a missing required field.",
            )]
            pub fn read_from(input: &'a [u8]) -> $crate::Result<(Self, usize)> {
                <Self as $crate::ReadThrift<'a>>::read_from(input)
            }

            #[doc = concat!(
                "Appends the compact encoding of this `", stringify!($name), "` to `out`.\n\n",
                "# Errors\n\n",
                "[`Error::LimitExceeded`](crate::Error::LimitExceeded) for a binary, string \
                 or list longer than `i32::MAX`; `out` is then left as it was.",
            )]
            pub fn write_to(&self, out: &mut Vec<u8>) -> $crate::Result<()> {
                <Self as $crate::WriteThrift>::write_to(self, out)
            }

            #[doc = concat!(
                "This `", stringify!($name), "` with everything it borrows copied, \
                 free of the input's lifetime.",
            )]
            pub fn into_owned(self) -> <Self as $crate::IntoOwned>::Owned {
                <Self as $crate::IntoOwned>::into_owned(self)
            }
        }
    };
}

/// Defines a Thrift enum: an `i32` newtype with one associated constant per known value,
/// so that values this crate does not know are kept as they are.
macro_rules! thrift_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$value_meta:meta])*
                $value:literal : $thrift:ident
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        ///
        /// An `i32` newtype: the known values are associated constants named as in
        /// `parquet.thrift`, and any other value (from a newer writer) is kept as it is and
        /// written back unchanged. Constants can be used as patterns:
        ///
        /// ```
        #[doc = concat!("use parquet_thrift::", stringify!($name), ";")]
        ///
        #[doc = concat!("fn describe(value: ", stringify!($name), ") -> String {")]
        ///     match value {
        #[doc = concat!(
            "        ", stringify!($name), "::", $crate::macros::first!($($thrift),+),
            " => \"the first\".to_owned(),"
        )]
        ///         other => match other.name() {
        ///             Some(name) => name.to_owned(),
        ///             None => format!("unknown {}", other.0),
        ///         },
        ///     }
        /// }
        #[doc = concat!(
            "assert_eq!(describe(", stringify!($name), "(1000)), \"unknown 1000\");"
        )]
        /// ```
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub i32);

        impl $name {
            $(
                $(#[$value_meta])*
                #[doc = concat!("\n\nThe value ", stringify!($value), ".")]
                pub const $thrift: Self = Self($value);
            )+

            /// Every value this crate knows, in increasing order.
            pub const KNOWN: &'static [Self] = &[$(Self::$thrift),+];

            /// The name `parquet.thrift` gives this value, or `None` for a value this crate
            /// does not know.
            pub const fn name(self) -> Option<&'static str> {
                match self.0 {
                    $($value => Some(stringify!($thrift)),)+
                    _ => None,
                }
            }

            /// Whether this crate knows this value.
            pub const fn is_known(self) -> bool {
                self.name().is_some()
            }
        }

        impl From<i32> for $name {
            #[inline]
            fn from(value: i32) -> Self {
                Self(value)
            }
        }

        impl From<$name> for i32 {
            #[inline]
            fn from(value: $name) -> Self {
                value.0
            }
        }

        /// `NAME` for a known value, `Name(n)` for another.
        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.name() {
                    Some(name) => f.write_str(name),
                    None => write!(f, concat!(stringify!($name), "({})"), self.0),
                }
            }
        }

        /// `NAME` for a known value, the number for another.
        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.name() {
                    Some(name) => f.write_str(name),
                    None => write!(f, "{}", self.0),
                }
            }
        }

        impl $crate::ThriftType for $name {
            const FIELD_TYPE: $crate::compact::FieldType = $crate::compact::FieldType::I32;
        }

        impl<'a> $crate::ReadThrift<'a> for $name {
            #[inline]
            fn read(reader: &mut $crate::compact::Reader<'a>) -> $crate::Result<Self> {
                reader.read_i32(stringify!($name)).map(Self)
            }

            #[inline]
            fn read_named(
                reader: &mut $crate::compact::Reader<'a>,
                what: &'static str,
            ) -> $crate::Result<Self> {
                reader.read_i32(what).map(Self)
            }
        }

        impl $crate::WriteThrift for $name {
            #[inline]
            fn write(&self, writer: &mut $crate::compact::Writer<'_>) -> $crate::Result<()> {
                writer.write_i32(self.0);
                Ok(())
            }
        }

        impl $crate::IntoOwned for $name {
            type Owned = Self;

            #[inline]
            fn into_owned(self) -> Self {
                self
            }
        }
    };
}

/// Whether `seen` lacks one of the bits of `required`.
#[inline(always)]
#[allow(clippy::inline_always)] // one test in each generated reader
pub(crate) const fn lacks(seen: u64, required: u64) -> bool {
    seen & required != required
}

/// The first of a list of identifiers, stringified.
macro_rules! first {
    ($first:ident $(, $rest:ident)*) => {
        stringify!($first)
    };
}

/// Defines a Thrift union: a Rust enum with one variant per member plus
/// `Unrecognized(UnrecognizedMember)` for members this crate does not know.
macro_rules! thrift_union {
    (
        $(#[$meta:meta])*
        pub enum $name:ident $(<$lt:lifetime>)? {
            $(
                $(#[$variant_meta:meta])*
                $id:literal : $thrift:ident => $variant:ident($ty:ty)
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        ///
        /// A member this crate does not know is kept, with its encoded bytes, as
        /// `Unrecognized`, and written back unchanged.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum $name $(<$lt>)? {
            $(
                $(#[$variant_meta])*
                #[doc = concat!("\n\nMember ", stringify!($id), ", `", stringify!($thrift), "`.")]
                $variant($ty),
            )+
            /// A member this crate does not know.
            Unrecognized($crate::UnrecognizedMember),
        }

        impl $(<$lt>)? $name $(<$lt>)? {
            /// The field id of the member held.
            pub const fn field_id(&self) -> i16 {
                match self {
                    $(Self::$variant(_) => $id,)+
                    Self::Unrecognized(member) => member.id,
                }
            }

            /// The name `parquet.thrift` gives the member held, or `None` for one this
            /// crate does not know.
            pub const fn name(&self) -> Option<&'static str> {
                match self {
                    $(Self::$variant(_) => Some(stringify!($thrift)),)+
                    Self::Unrecognized(_) => None,
                }
            }
        }

        /// The first member, with its default value (a placeholder for structs that are
        /// decoded in place).
        impl $(<$lt>)? Default for $name $(<$lt>)? {
            fn default() -> Self {
                $crate::macros::thrift_union!(@default $($variant),+)
            }
        }

        impl $(<$lt>)? $crate::ThriftType for $name $(<$lt>)? {
            const FIELD_TYPE: $crate::compact::FieldType = $crate::compact::FieldType::Struct;
            /// A member's header, its value (a boolean member has none) and the stop byte.
            const MIN_SIZE: usize = 2;
        }

        impl<'a> $crate::ReadThrift<'a> for $name $(<$lt>)? {
            fn read(reader: &mut $crate::compact::Reader<'a>) -> $crate::Result<Self> {
                let start = reader.position();
                reader.enter()?;
                let mut value = None;
                let mut last_id = 0i16;
                while let Some(header) = reader
                    .read_field_header(&mut last_id, concat!(stringify!($name), " field header"))?
                {
                    let member = match header.id {
                        $(
                            $id if header.field_type.matches(<$ty as $crate::ThriftType>::FIELD_TYPE) => Self::$variant(<$ty as $crate::ReadThrift<'a>>::read_field(
                                reader,
                                header.field_type,
                                concat!(stringify!($name), ".", stringify!($thrift)),
                            )?),
                        )+
                        _ => Self::Unrecognized($crate::UnrecognizedMember::read(reader, header)?),
                    };
                    if value.is_some() {
                        return Err($crate::Error::invalid(
                            concat!(stringify!($name), " with more than one member"),
                            start,
                            header.id.unsigned_abs().into(),
                        ));
                    }
                    value = Some(member);
                }
                reader.leave();
                match value {
                    Some(value) => Ok(value),
                    None => Err($crate::Error::invalid(
                        concat!(stringify!($name), " without a member"),
                        start,
                        0,
                    )),
                }
            }
        }

        impl $(<$lt>)? $crate::WriteThrift for $name $(<$lt>)? {
            fn write(&self, writer: &mut $crate::compact::Writer<'_>) -> $crate::Result<()> {
                match self {
                    $(Self::$variant(value) => $crate::WriteThrift::write_field(value, writer, $id, 0)?,)+
                    Self::Unrecognized(member) => member.write(writer),
                }
                writer.write_stop();
                Ok(())
            }
        }

        impl $(<$lt>)? $crate::IntoOwned for $name $(<$lt>)? {
            type Owned = $crate::macros::thrift_struct!(@static $name $(<$lt>)?);

            fn into_owned(self) -> Self::Owned {
                match self {
                    $(Self::$variant(value) => $name::$variant($crate::IntoOwned::into_owned(value)),)+
                    Self::Unrecognized(member) => $name::Unrecognized(member),
                }
            }
        }

        $crate::macros::thrift_struct!(@inherent $name $(<$lt>)?);
    };

    (@default $first:ident $(, $rest:ident)*) => {
        Self::$first(Default::default())
    };
}

pub(crate) use {first, thrift_enum, thrift_struct, thrift_union};
