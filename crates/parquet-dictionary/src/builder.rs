//! Dictionary builders: interning with limits.

use core::hash::{BuildHasher, Hash};
use hashbrown::DefaultHashBuilder;
use hashbrown::hash_table::{Entry, HashTable};
use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
use parquet_plain::PlainType;

/// How large a dictionary may grow before a writer falls back to another encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most entries.
    pub max_entries: usize,
    /// Most bytes of the dictionary page (its PLAIN encoding, before compression).
    pub max_bytes: usize,
}

impl Default for Limits {
    /// 1 MiB of dictionary page, as parquet-java and Arrow default to, and as many
    /// entries as a page header can count (`i32::MAX`).
    fn default() -> Self {
        Self {
            max_entries: i32::MAX as usize,
            max_bytes: 1 << 20,
        }
    }
}

/// What interning a batch of values did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "Intern::Full means the dictionary took only part of the values"]
pub enum Intern {
    /// Every value was interned and has its index.
    Done,
    /// The dictionary is full: the first `interned` values were interned and have their
    /// indices; the next one would have taken the dictionary past its limits. The writer
    /// falls back to another encoding from that value on.
    Full {
        /// Values interned before the dictionary filled up.
        interned: usize,
    },
}

/// One slot of the hash table: an entry's index and hash (kept, so growing the table
/// needs no access to the entries).
#[derive(Clone, Copy)]
struct Slot {
    hash: u64,
    index: u32,
}

/// The hash table shared by the builders: finds an entry equal to a value, or makes room
/// for a new one.
#[derive(Clone, Default)]
struct Table {
    slots: HashTable<Slot>,
    hasher: DefaultHashBuilder,
}

impl Table {
    fn hash<K: Hash + ?Sized>(&self, key: &K) -> u64 {
        self.hasher.hash_one(key)
    }

    /// The entry equal (by `eq`) to the value hashed to `hash`, or the free slot for it.
    #[inline]
    fn lookup(&mut self, hash: u64, eq: impl Fn(u32) -> bool) -> Lookup<'_> {
        match self.slots.entry(
            hash,
            |slot| slot.hash == hash && eq(slot.index),
            |slot| slot.hash,
        ) {
            Entry::Occupied(entry) => Lookup::Found(entry.get().index),
            Entry::Vacant(entry) => Lookup::Vacant(Vacant { entry, hash }),
        }
    }

    fn clear(&mut self) {
        self.slots.clear();
    }
}

/// The result of [`Table::lookup`].
enum Lookup<'a> {
    /// The value is entry `.0`.
    Found(u32),
    /// The value is new; this is where its index goes.
    Vacant(Vacant<'a>),
}

/// A free slot of the table, for a new entry.
struct Vacant<'a> {
    entry: hashbrown::hash_table::VacantEntry<'a, Slot>,
    hash: u64,
}

impl Vacant<'_> {
    fn insert(self, index: u32) -> u32 {
        self.entry.insert(Slot {
            hash: self.hash,
            index,
        });
        index
    }
}

/// Whether a dictionary of `entries` entries and `bytes` PLAIN bytes is within `limits`.
fn within(limits: Limits, entries: usize, bytes: usize) -> bool {
    entries <= limits.max_entries && bytes <= limits.max_bytes && u32::try_from(entries).is_ok()
}

/// Interns a batch with `insert` (one value at a time, returning its index or `None` when
/// the dictionary is full), appending indices.
fn intern_all<V>(
    values: impl IntoIterator<Item = V>,
    indices: &mut Vec<u32>,
    mut insert: impl FnMut(V) -> Option<u32>,
) -> Intern {
    let start = indices.len();
    for value in values {
        match insert(value) {
            Some(index) => indices.push(index),
            None => {
                return Intern::Full {
                    interned: indices.len() - start,
                };
            }
        }
    }
    Intern::Done
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for bool {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for parquet_core::Int96 {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A fixed-size physical type that can be dictionary-encoded: every [`PlainType`], keyed
/// by its bit pattern.
pub trait DictionaryValue: PlainType + sealed::Sealed {
    /// What two values must share to be one dictionary entry: the value itself, or for
    /// floating-point types its bits.
    type Key: Copy + Eq + Hash;
    /// The value's key.
    fn key(self) -> Self::Key;
}

macro_rules! dictionary_value {
    ($($ty:ty => $key:ty, $to_key:expr;)*) => {$(
        impl DictionaryValue for $ty {
            type Key = $key;
            #[inline]
            fn key(self) -> $key {
                let to_key: fn($ty) -> $key = $to_key;
                to_key(self)
            }
        }
    )*};
}

dictionary_value! {
    bool => bool, |v| v;
    i32 => i32, |v| v;
    i64 => i64, |v| v;
    Int96 => Int96, |v| v;
    f32 => u32, f32::to_bits;
    f64 => u64, f64::to_bits;
}

/// One slot of a [`Builder`]'s hash table: an entry's key and index, so that a lookup
/// compares keys without reaching into the entries (one memory access fewer).
#[derive(Clone, Copy)]
struct KeySlot<K> {
    key: K,
    index: u32,
}

/// Builds the dictionary of a column chunk of BOOLEAN, INT32, INT64, INT96, FLOAT or
/// DOUBLE values.
#[derive(Clone)]
pub struct Builder<T: DictionaryValue> {
    entries: Vec<T>,
    slots: HashTable<KeySlot<T::Key>>,
    hasher: DefaultHashBuilder,
    limits: Limits,
}

impl<T: DictionaryValue> Builder<T> {
    /// An empty dictionary that may grow to `limits`.
    pub fn new(limits: Limits) -> Self {
        Self {
            entries: Vec::new(),
            slots: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            limits,
        }
    }

    /// The index of `value`, interning it if it is new; `None` when it is new and the
    /// dictionary has no room for it.
    #[inline]
    pub fn insert(&mut self, value: T) -> Option<u32> {
        let key = value.key();
        let Self {
            entries,
            slots,
            hasher,
            limits,
        } = self;
        let hash = hasher.hash_one(key);
        match slots.entry(
            hash,
            |slot| slot.key == key,
            |slot| hasher.hash_one(slot.key),
        ) {
            Entry::Occupied(entry) => Some(entry.get().index),
            Entry::Vacant(entry) => {
                let len = entries.len() + 1;
                if !within(*limits, len, T::encoded_len(len)) {
                    return None;
                }
                let index = u32::try_from(entries.len()).ok()?;
                entries.push(value);
                entry.insert(KeySlot { key, index });
                Some(index)
            }
        }
    }

    /// Interns `values`, appending their indices to `indices`, until the dictionary is full.
    pub fn intern(&mut self, values: &[T], indices: &mut Vec<u32>) -> Intern {
        intern_all(values.iter().copied(), indices, |value| self.insert(value))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the dictionary has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in index order.
    pub fn entries(&self) -> &[T] {
        &self.entries
    }

    /// Bytes of the dictionary page.
    pub fn page_len(&self) -> usize {
        T::encoded_len(self.entries.len())
    }

    /// Appends the dictionary page (the entries, PLAIN-encoded) to `out`.
    pub fn write_dictionary_page(&self, out: &mut Vec<u8>) {
        T::encode(&self.entries, out);
    }

    /// Empties the dictionary for the next column chunk, keeping its allocations.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.slots.clear();
    }
}

/// Where the entries of a byte-array dictionary live: a [`ByteArrayBatch`] or a
/// [`FixedLenByteArrayBatch`].
trait Entries {
    /// Entry `index`.
    fn entry(&self, index: u32) -> Option<&[u8]>;
    /// Appends an entry; `false` when it does not fit.
    fn append(&mut self, value: &[u8]) -> bool;
    /// Number of entries.
    fn count(&self) -> usize;
    /// Bytes the PLAIN encoding of one more entry of `len` bytes adds.
    fn plain_len(&self, len: usize) -> usize;
}

impl Entries for ByteArrayBatch {
    fn entry(&self, index: u32) -> Option<&[u8]> {
        self.get(index as usize)
    }
    fn append(&mut self, value: &[u8]) -> bool {
        self.push(value).is_ok()
    }
    fn count(&self) -> usize {
        self.len()
    }
    fn plain_len(&self, len: usize) -> usize {
        len.saturating_add(4)
    }
}

impl Entries for FixedLenByteArrayBatch {
    fn entry(&self, index: u32) -> Option<&[u8]> {
        self.get(index as usize)
    }
    fn append(&mut self, value: &[u8]) -> bool {
        self.push(value).is_ok()
    }
    fn count(&self) -> usize {
        self.len()
    }
    fn plain_len(&self, len: usize) -> usize {
        len
    }
}

/// The builder of a byte-array dictionary, over its entry storage.
#[derive(Clone)]
struct BytesBuilder<E> {
    entries: E,
    page_len: usize,
    table: Table,
    limits: Limits,
}

impl<E: Entries> BytesBuilder<E> {
    fn new(entries: E, limits: Limits) -> Self {
        Self {
            entries,
            page_len: 0,
            table: Table::default(),
            limits,
        }
    }

    #[inline]
    fn insert(&mut self, value: &[u8]) -> Option<u32> {
        let Self {
            entries,
            page_len,
            table,
            limits,
        } = self;
        let hash = table.hash(value);
        match table.lookup(hash, |index| entries.entry(index) == Some(value)) {
            Lookup::Found(index) => Some(index),
            Lookup::Vacant(slot) => {
                let len = entries.count() + 1;
                let bytes = page_len.saturating_add(entries.plain_len(value.len()));
                if !within(*limits, len, bytes) {
                    return None;
                }
                let index = u32::try_from(entries.count()).ok()?;
                if !entries.append(value) {
                    return None;
                }
                *page_len = bytes;
                Some(slot.insert(index))
            }
        }
    }

    fn clear(&mut self) {
        self.page_len = 0;
        self.table.clear();
    }
}

/// The methods the byte-array builders share, over their entry type.
macro_rules! bytes_builder_methods {
    ($entries:ty, $write:path) => {
        /// Interns `values`, appending their indices to `indices`, until the dictionary is
        /// full.
        pub fn intern<'v>(
            &mut self,
            values: impl IntoIterator<Item = &'v [u8]>,
            indices: &mut Vec<u32>,
        ) -> Intern {
            intern_all(values, indices, |value| self.insert(value))
        }

        /// Number of entries.
        pub fn len(&self) -> usize {
            self.0.entries.len()
        }

        /// Whether the dictionary has no entries.
        pub fn is_empty(&self) -> bool {
            self.0.entries.is_empty()
        }

        /// The entries, in index order.
        pub fn entries(&self) -> &$entries {
            &self.0.entries
        }

        /// Bytes of the dictionary page.
        pub fn page_len(&self) -> usize {
            self.0.page_len
        }

        /// Appends the dictionary page (the entries, PLAIN-encoded) to `out`.
        pub fn write_dictionary_page(&self, out: &mut Vec<u8>) {
            $write(&self.0.entries, out);
        }

        /// Empties the dictionary for the next column chunk, keeping its allocations.
        pub fn clear(&mut self) {
            self.0.entries.clear();
            self.0.clear();
        }
    };
}

/// Builds the dictionary of a column chunk of BYTE_ARRAY values.
#[derive(Clone)]
pub struct ByteArrayBuilder(BytesBuilder<ByteArrayBatch>);

impl ByteArrayBuilder {
    /// An empty dictionary that may grow to `limits`.
    pub fn new(limits: Limits) -> Self {
        Self(BytesBuilder::new(ByteArrayBatch::new(), limits))
    }

    /// The index of `value`, interning it if it is new; `None` when it is new and the
    /// dictionary has no room for it.
    #[inline]
    pub fn insert(&mut self, value: &[u8]) -> Option<u32> {
        self.0.insert(value)
    }

    bytes_builder_methods!(ByteArrayBatch, parquet_plain::byte_array::encode_batch);
}

impl core::fmt::Debug for ByteArrayBuilder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ByteArrayBuilder")
            .field("entries", &self.len())
            .field("page_len", &self.page_len())
            .finish_non_exhaustive()
    }
}

/// Builds the dictionary of a column chunk of FIXED_LEN_BYTE_ARRAY values.
#[derive(Clone)]
pub struct FixedLenByteArrayBuilder(BytesBuilder<FixedLenByteArrayBatch>);

impl FixedLenByteArrayBuilder {
    /// An empty dictionary of `width`-byte values that may grow to `limits`.
    pub fn new(width: usize, limits: Limits) -> Self {
        Self(BytesBuilder::new(
            FixedLenByteArrayBatch::new(width),
            limits,
        ))
    }

    /// The index of `value`, interning it if it is new; `None` when it is new and the
    /// dictionary has no room for it, or when it is not `width` bytes long (which ends
    /// [`intern`](Self::intern) like a full dictionary does).
    #[inline]
    pub fn insert(&mut self, value: &[u8]) -> Option<u32> {
        if value.len() != self.0.entries.width() {
            return None;
        }
        self.0.insert(value)
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        self.0.entries.width()
    }

    bytes_builder_methods!(
        FixedLenByteArrayBatch,
        parquet_plain::fixed_len_byte_array::encode
    );
}
