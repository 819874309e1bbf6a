//! [`SmallList`]: a Thrift list that keeps a few elements inline.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut};

use parquet_core::Result;

use crate::compact::{FieldType, Reader, Writer};
use crate::value::{IntoOwned, ReadThrift, ThriftType, WriteThrift, check_type, write_list};

/// A list that holds up to `N` elements inline and more in a `Vec`.
///
/// The short lists that every column chunk carries (its encodings, its path in the
/// schema, its page encoding stats) use it, so that reading a footer does not allocate
/// for each of them. It dereferences to a slice; build one from a `Vec`, an array or an
/// iterator.
///
/// ```
/// use parquet_thrift::{Encoding, SmallList};
///
/// let mut encodings: SmallList<Encoding, 4> = [Encoding::PLAIN, Encoding::RLE].into();
/// encodings.push(Encoding::RLE_DICTIONARY);
/// assert_eq!(encodings.len(), 3);
/// assert!(encodings.is_inline());
/// assert_eq!(encodings[2], Encoding::RLE_DICTIONARY);
/// assert_eq!(encodings, vec![Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY]);
/// ```
#[derive(Clone)]
pub struct SmallList<T, const N: usize> {
    repr: Repr<T, N>,
}

#[derive(Clone)]
enum Repr<T, const N: usize> {
    /// `items[..len]` are the elements; the rest hold defaults or former elements.
    Inline {
        len: u8,
        items: [T; N],
    },
    Heap(Vec<T>),
}

impl<T, const N: usize> SmallList<T, N> {
    const FITS: () = assert!(
        N <= u8::MAX as usize,
        "SmallList holds at most 255 elements inline"
    );

    /// Whether the elements are held inline (not in a `Vec`).
    pub const fn is_inline(&self) -> bool {
        matches!(self.repr, Repr::Inline { .. })
    }

    /// The elements.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match &self.repr {
            Repr::Inline { len, items } => items.get(..usize::from(*len)).unwrap_or_default(),
            Repr::Heap(vec) => vec,
        }
    }

    /// The elements, mutable.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.repr {
            Repr::Inline { len, items } => items.get_mut(..usize::from(*len)).unwrap_or_default(),
            Repr::Heap(vec) => vec,
        }
    }

    /// The elements in a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        match self.repr {
            Repr::Inline { len, items } => items.into_iter().take(usize::from(len)).collect(),
            Repr::Heap(vec) => vec,
        }
    }
}

impl<T: Default, const N: usize> SmallList<T, N> {
    /// An empty list.
    pub fn new() -> Self {
        let () = Self::FITS;
        Self {
            repr: Repr::Inline {
                len: 0,
                items: core::array::from_fn(|_| T::default()),
            },
        }
    }

    /// Appends an element, moving the elements to a `Vec` when there are more than `N`.
    pub fn push(&mut self, value: T) {
        match &mut self.repr {
            Repr::Inline { len, items } => {
                if let Some(slot) = items.get_mut(usize::from(*len)) {
                    *slot = value;
                    *len += 1;
                } else {
                    let mut vec = Vec::with_capacity(N * 2 + 1);
                    vec.extend(items.iter_mut().map(core::mem::take));
                    vec.push(value);
                    self.repr = Repr::Heap(vec);
                }
            }
            Repr::Heap(vec) => vec.push(value),
        }
    }
}

impl<T: Default, const N: usize> Default for SmallList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> Deref for SmallList<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T, const N: usize> DerefMut for SmallList<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T, const N: usize> AsRef<[T]> for SmallList<T, N> {
    fn as_ref(&self) -> &[T] {
        self.as_slice()
    }
}

/// Takes the `Vec` as it is (its elements stay on the heap).
impl<T, const N: usize> From<Vec<T>> for SmallList<T, N> {
    fn from(vec: Vec<T>) -> Self {
        Self {
            repr: Repr::Heap(vec),
        }
    }
}

impl<T: Default, const N: usize, const M: usize> From<[T; M]> for SmallList<T, N> {
    fn from(array: [T; M]) -> Self {
        array.into_iter().collect()
    }
}

impl<T: Default, const N: usize> FromIterator<T> for SmallList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = Self::new();
        for value in iter {
            list.push(value);
        }
        list
    }
}

impl<'l, T, const N: usize> IntoIterator for &'l SmallList<T, N> {
    type Item = &'l T;
    type IntoIter = core::slice::Iter<'l, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for SmallList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: PartialEq, const N: usize> PartialEq for SmallList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, const N: usize> Eq for SmallList<T, N> {}

impl<T: PartialEq, const N: usize> PartialEq<Vec<T>> for SmallList<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T]> for SmallList<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Hash, const N: usize> Hash for SmallList<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: ThriftType, const N: usize> ThriftType for SmallList<T, N> {
    const FIELD_TYPE: FieldType = FieldType::List;
}

impl<'a, T: ReadThrift<'a> + Default, const N: usize> SmallList<T, N> {
    /// Replaces the elements with those of the list named `what` that `reader` is at,
    /// reusing the inline storage when they fit.
    fn read_elements(&mut self, reader: &mut Reader<'a>, what: &'static str) -> Result<()> {
        let () = Self::FITS;
        let size = reader.read_list_size(T::FIELD_TYPE, T::MIN_SIZE, what)?;
        let inline_len = match u8::try_from(size) {
            Ok(len) if size <= N => len,
            _ => {
                *self = Self::from(T::read_list(reader, size, what)?);
                return Ok(());
            }
        };
        if !self.is_inline() {
            *self = Self::new();
        }
        if let Repr::Inline { len, items } = &mut self.repr {
            *len = 0;
            for item in items.iter_mut().take(size) {
                *item = T::read_named(reader, what)?;
            }
            *len = inline_len;
        }
        Ok(())
    }
}

impl<'a, T: ReadThrift<'a> + Default, const N: usize> ReadThrift<'a> for SmallList<T, N> {
    #[inline]
    fn read(reader: &mut Reader<'a>) -> Result<Self> {
        Self::read_named(reader, "list")
    }

    #[inline]
    fn read_named(reader: &mut Reader<'a>, what: &'static str) -> Result<Self> {
        let mut list = Self::new();
        list.read_elements(reader, what)?;
        Ok(list)
    }

    #[inline]
    fn read_in_place(&mut self, reader: &mut Reader<'a>) -> Result<()> {
        self.read_elements(reader, "list")
    }

    #[inline]
    fn read_field_in_place(
        &mut self,
        reader: &mut Reader<'a>,
        field_type: FieldType,
        what: &'static str,
    ) -> Result<()> {
        check_type(reader, field_type, FieldType::List, what)?;
        self.read_elements(reader, what)
    }

    #[inline]
    fn read_optional_field_in_place(
        slot: &mut Option<Self>,
        reader: &mut Reader<'a>,
        field_type: FieldType,
        what: &'static str,
    ) -> Result<()> {
        check_type(reader, field_type, FieldType::List, what)?;
        slot.get_or_insert_with(Self::new)
            .read_elements(reader, what)
    }
}

impl<T: WriteThrift, const N: usize> WriteThrift for SmallList<T, N> {
    fn write(&self, writer: &mut Writer<'_>) -> Result<()> {
        write_list(self, writer)
    }
}

impl<T: IntoOwned, const N: usize> IntoOwned for SmallList<T, N> {
    type Owned = SmallList<T::Owned, N>;

    fn into_owned(self) -> Self::Owned {
        SmallList {
            repr: match self.repr {
                Repr::Inline { len, items } => Repr::Inline {
                    len,
                    items: items.map(IntoOwned::into_owned),
                },
                Repr::Heap(vec) => Repr::Heap(vec.into_owned()),
            },
        }
    }
}
