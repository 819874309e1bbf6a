//! The kinds of module (parquet-format.txt 7.3, section 4.4): the first byte of a
//! module's AAD suffix, and what an [`Error::Authentication`](crate::Error::Authentication)
//! names. Both the AADs and the errors use it, so it depends on neither.

use std::fmt;

/// The kinds of module, with the module type byte of their AAD as discriminant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ModuleType {
    /// The file footer, `FileMetaData`.
    Footer = 0,
    /// A `ColumnMetaData` serialized and encrypted on its own, with a column key.
    ColumnMetaData = 1,
    /// The (compressed) body of a data page.
    DataPage = 2,
    /// The (compressed) body of a dictionary page.
    DictionaryPage = 3,
    /// The `PageHeader` of a data page.
    DataPageHeader = 4,
    /// The `PageHeader` of a dictionary page.
    DictionaryPageHeader = 5,
    /// A `ColumnIndex`.
    ColumnIndex = 6,
    /// An `OffsetIndex`.
    OffsetIndex = 7,
    /// A `BloomFilterHeader`.
    BloomFilterHeader = 8,
    /// The bitset of a Bloom filter.
    BloomFilterBitset = 9,
}

impl ModuleType {
    /// The module type byte of the AAD suffix.
    pub const fn as_u8(self) -> u8 {
        self as u8
    }

    /// The spec's name for the module type.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Footer => "Footer",
            Self::ColumnMetaData => "ColumnMetaData",
            Self::DataPage => "Data Page",
            Self::DictionaryPage => "Dictionary Page",
            Self::DataPageHeader => "Data PageHeader",
            Self::DictionaryPageHeader => "Dictionary PageHeader",
            Self::ColumnIndex => "ColumnIndex",
            Self::OffsetIndex => "OffsetIndex",
            Self::BloomFilterHeader => "BloomFilter Header",
            Self::BloomFilterBitset => "BloomFilter Bitset",
        }
    }
}

impl fmt::Display for ModuleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
