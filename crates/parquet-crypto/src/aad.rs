//! Module AADs (parquet-format.txt 7.3, section 4.4 "Additional Authenticated Data").
//!
//! ```text
//! module AAD    := file AAD, AAD suffix
//! file AAD      := AAD prefix (optional, user's), aad_file_unique (random, per file)
//! AAD suffix    := module type: 1 byte
//!                  [row group ordinal: i16 LE] [column ordinal: i16 LE] [page ordinal: i16 LE]
//! ```
//!
//! | module                 | type | row group | column | page |
//! |------------------------|------|-----------|--------|------|
//! | `Footer`               | 0    | no        | no     | no   |
//! | `ColumnMetaData`       | 1    | yes       | yes    | no   |
//! | `DataPage`             | 2    | yes       | yes    | yes  |
//! | `DictionaryPage`       | 3    | yes       | yes    | no   |
//! | `DataPageHeader`       | 4    | yes       | yes    | yes  |
//! | `DictionaryPageHeader` | 5    | yes       | yes    | no   |
//! | `ColumnIndex`          | 6    | yes       | yes    | no   |
//! | `OffsetIndex`          | 7    | yes       | yes    | no   |
//! | `BloomFilterHeader`    | 8    | yes       | yes    | no   |
//! | `BloomFilterBitset`    | 9    | yes       | yes    | no   |

use crate::Result;
use std::fmt;

/// The largest row group, column or page ordinal: ordinals are written as a little-endian
/// `i16`, and negative ordinals do not exist.
pub const MAX_ORDINAL: usize = 32_767;

/// The length of the `aad_file_unique` this crate generates ([`new_aad_file_unique`]), the
/// length parquet-java and Arrow C++ use too.
pub const AAD_FILE_UNIQUE_LEN: usize = 8;

/// The longest AAD suffix: module type and three ordinals.
const MAX_SUFFIX_LEN: usize = 7;

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

/// A module and its place in the file: everything its AAD suffix is made of.
///
/// Ordinals count from 0: `row_group` is the row group's position in the file (the
/// `RowGroup.ordinal` field), `column` the column chunk's position in its row group, and
/// `page` the data page's position among the data pages of its column chunk (a
/// dictionary page is not counted). Each must be at most [`MAX_ORDINAL`].
///
/// ```
/// use parquet_crypto::Module;
///
/// let file_aad = b"tester\x01\x02";
/// let page = Module::DataPage { row_group: 1, column: 2, page: 3 };
/// assert_eq!(
///     page.aad(file_aad)?,
///     b"tester\x01\x02\x02\x01\x00\x02\x00\x03\x00",
/// );
/// assert_eq!(Module::Footer.aad(file_aad)?, b"tester\x01\x02\x00");
/// # Ok::<(), parquet_crypto::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Module {
    /// The file footer.
    Footer,
    /// The separately encrypted `ColumnMetaData` of a column chunk.
    ColumnMetaData {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
    },
    /// The body of a data page.
    DataPage {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
        /// Data page ordinal within the column chunk.
        page: usize,
    },
    /// The body of a dictionary page.
    DictionaryPage {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
    },
    /// The header of a data page.
    DataPageHeader {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
        /// Data page ordinal within the column chunk.
        page: usize,
    },
    /// The header of a dictionary page.
    DictionaryPageHeader {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
    },
    /// The column index of a column chunk.
    ColumnIndex {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
    },
    /// The offset index of a column chunk.
    OffsetIndex {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
    },
    /// The header of a column chunk's Bloom filter.
    BloomFilterHeader {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
    },
    /// The bitset of a column chunk's Bloom filter.
    BloomFilterBitset {
        /// Row group ordinal.
        row_group: usize,
        /// Column ordinal.
        column: usize,
    },
}

impl Module {
    /// The kind of module.
    pub const fn module_type(self) -> ModuleType {
        match self {
            Self::Footer => ModuleType::Footer,
            Self::ColumnMetaData { .. } => ModuleType::ColumnMetaData,
            Self::DataPage { .. } => ModuleType::DataPage,
            Self::DictionaryPage { .. } => ModuleType::DictionaryPage,
            Self::DataPageHeader { .. } => ModuleType::DataPageHeader,
            Self::DictionaryPageHeader { .. } => ModuleType::DictionaryPageHeader,
            Self::ColumnIndex { .. } => ModuleType::ColumnIndex,
            Self::OffsetIndex { .. } => ModuleType::OffsetIndex,
            Self::BloomFilterHeader { .. } => ModuleType::BloomFilterHeader,
            Self::BloomFilterBitset { .. } => ModuleType::BloomFilterBitset,
        }
    }

    /// Whether this is a page body (data or dictionary): the modules that
    /// `AES_GCM_CTR_V1` encrypts with CTR instead of GCM.
    pub const fn is_page(self) -> bool {
        matches!(self, Self::DataPage { .. } | Self::DictionaryPage { .. })
    }

    /// The row group, column and page ordinals that go into the AAD suffix.
    const fn ordinals(self) -> (Option<usize>, Option<usize>, Option<usize>) {
        match self {
            Self::Footer => (None, None, None),
            Self::DataPage {
                row_group,
                column,
                page,
            }
            | Self::DataPageHeader {
                row_group,
                column,
                page,
            } => (Some(row_group), Some(column), Some(page)),
            Self::ColumnMetaData { row_group, column }
            | Self::DictionaryPage { row_group, column }
            | Self::DictionaryPageHeader { row_group, column }
            | Self::ColumnIndex { row_group, column }
            | Self::OffsetIndex { row_group, column }
            | Self::BloomFilterHeader { row_group, column }
            | Self::BloomFilterBitset { row_group, column } => {
                (Some(row_group), Some(column), None)
            }
        }
    }

    /// The AAD suffix: module type, then the ordinals this module type has.
    fn suffix(self) -> Result<Suffix> {
        let mut suffix = Suffix {
            bytes: [0; MAX_SUFFIX_LEN],
            len: 1,
        };
        suffix.bytes[0] = self.module_type().as_u8();
        let (row_group, column, page) = self.ordinals();
        for (what, ordinal) in [
            ("row group ordinal", row_group),
            ("column ordinal", column),
            ("page ordinal", page),
        ] {
            let Some(ordinal) = ordinal else { continue };
            let ordinal =
                i16::try_from(ordinal).map_err(|_| parquet_core::Error::LimitExceeded {
                    what,
                    requested: ordinal as u64,
                    limit: MAX_ORDINAL as u64,
                })?;
            suffix.bytes[suffix.len..suffix.len + 2].copy_from_slice(&ordinal.to_le_bytes());
            suffix.len += 2;
        }
        Ok(suffix)
    }

    /// Appends this module's AAD, `file_aad` followed by the AAD suffix, to `out`.
    ///
    /// # Errors
    ///
    /// [`parquet_core::Error::LimitExceeded`] (in [`Error::Core`](crate::Error::Core)) for
    /// an ordinal above [`MAX_ORDINAL`]; `out` is then left as it was.
    pub fn write_aad(self, file_aad: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let suffix = self.suffix()?;
        out.extend_from_slice(file_aad);
        out.extend_from_slice(suffix.as_slice());
        Ok(())
    }

    /// This module's AAD: `file_aad` followed by the AAD suffix.
    ///
    /// # Errors
    ///
    /// As [`write_aad`](Self::write_aad).
    pub fn aad(self, file_aad: &[u8]) -> Result<Vec<u8>> {
        let mut aad = Vec::with_capacity(file_aad.len() + MAX_SUFFIX_LEN);
        self.write_aad(file_aad, &mut aad)?;
        Ok(aad)
    }

    /// Calls `f` with this module's AAD, built on the stack when it is short (as it is
    /// for an AAD prefix of up to 49 bytes and an 8-byte `aad_file_unique`).
    pub(crate) fn with_aad<R>(self, file_aad: &[u8], f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        const STACK: usize = 64;
        let suffix = self.suffix()?;
        let len = file_aad.len() + suffix.len;
        if len <= STACK {
            let mut aad = [0; STACK];
            aad[..file_aad.len()].copy_from_slice(file_aad);
            aad[file_aad.len()..len].copy_from_slice(suffix.as_slice());
            Ok(f(&aad[..len]))
        } else {
            let mut aad = Vec::with_capacity(len);
            aad.extend_from_slice(file_aad);
            aad.extend_from_slice(suffix.as_slice());
            Ok(f(&aad))
        }
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.module_type().name())?;
        match self.ordinals() {
            (Some(row_group), Some(column), Some(page)) => {
                write!(f, " (row group {row_group}, column {column}, page {page})")
            }
            (Some(row_group), Some(column), None) => {
                write!(f, " (row group {row_group}, column {column})")
            }
            _ => Ok(()),
        }
    }
}

/// An AAD suffix: at most [`MAX_SUFFIX_LEN`] bytes.
struct Suffix {
    bytes: [u8; MAX_SUFFIX_LEN],
    len: usize,
}

impl Suffix {
    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The file AAD: the AAD prefix (empty when the file has none) followed by the file's
/// `aad_file_unique`.
///
/// ```
/// assert_eq!(parquet_crypto::file_aad(b"tester", &[1, 2]), b"tester\x01\x02");
/// ```
pub fn file_aad(aad_prefix: &[u8], aad_file_unique: &[u8]) -> Vec<u8> {
    [aad_prefix, aad_file_unique].concat()
}

/// A fresh random `aad_file_unique` for a new file, from the operating system's generator.
///
/// # Errors
///
/// [`Error::Random`](crate::Error::Random) when the generator fails.
pub fn new_aad_file_unique() -> Result<[u8; AAD_FILE_UNIQUE_LEN]> {
    let mut unique = [0; AAD_FILE_UNIQUE_LEN];
    crate::fill_random(&mut unique)?;
    Ok(unique)
}
