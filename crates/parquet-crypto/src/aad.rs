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

use crate::{ModuleType, Result};
use std::fmt;

/// The largest row group, column or page ordinal: ordinals are written as a little-endian
/// `i16`, and negative ordinals do not exist.
pub const MAX_ORDINAL: usize = 32_767;

const _: () = assert!(
    (MAX_ORDINAL + 1).is_power_of_two(),
    "Module::try_suffix checks an OR"
);

/// The length of the `aad_file_unique` this crate generates ([`new_aad_file_unique`]), the
/// length parquet-java and Arrow C++ use too.
pub const AAD_FILE_UNIQUE_LEN: usize = 8;

/// The longest AAD suffix: module type and three ordinals.
const MAX_SUFFIX_LEN: usize = 7;

/// The bytes a [`Suffix`] is kept in: [`MAX_SUFFIX_LEN`], rounded up to a `u64`.
const SUFFIX_BYTES: usize = 8;

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

    /// The row group, column and page ordinals that go into the AAD suffix, and how many
    /// of them the module type has (0, 2 or 3); the ones it does not have are 0.
    const fn ordinals(self) -> ([usize; 3], usize) {
        match self {
            Self::Footer => ([0; 3], 0),
            Self::DataPage {
                row_group,
                column,
                page,
            }
            | Self::DataPageHeader {
                row_group,
                column,
                page,
            } => ([row_group, column, page], 3),
            Self::ColumnMetaData { row_group, column }
            | Self::DictionaryPage { row_group, column }
            | Self::DictionaryPageHeader { row_group, column }
            | Self::ColumnIndex { row_group, column }
            | Self::OffsetIndex { row_group, column }
            | Self::BloomFilterHeader { row_group, column }
            | Self::BloomFilterBitset { row_group, column } => ([row_group, column, 0], 2),
        }
    }

    /// The AAD suffix: module type, then the ordinals this module type has.
    #[inline]
    pub(crate) fn suffix(self) -> Result<Suffix> {
        self.try_suffix().ok_or_else(|| self.ordinal_error())
    }

    /// [`suffix`](Self::suffix), `None` for an ordinal above [`MAX_ORDINAL`]: small
    /// enough to come back in registers.
    #[inline]
    fn try_suffix(self) -> Option<Suffix> {
        let ([r, c, p], count) = self.ordinals();
        // MAX_ORDINAL is 2^15 - 1: all three are at most that if their OR is.
        if r | c | p > MAX_ORDINAL {
            return None;
        }
        // Each ordinal an i16 of at most MAX_ORDINAL, little-endian: its two low bytes,
        // packed after the type byte into a little-endian u64 (an absent one is 0 and
        // falls outside `len`). The length goes in the top byte, which no suffix reaches.
        let len = 1 + 2 * count;
        Some(Suffix(
            u64::from(self.module_type().as_u8())
                | (r as u64) << 8
                | (c as u64) << 24
                | (p as u64) << 40
                | (len as u64) << 56,
        ))
    }

    /// The error for the first ordinal above [`MAX_ORDINAL`].
    #[cold]
    fn ordinal_error(self) -> crate::Error {
        // An ordinal the module type does not have is 0, never over the limit.
        let (what, ordinal) = ["row group ordinal", "column ordinal", "page ordinal"]
            .into_iter()
            .zip(self.ordinals().0)
            .find(|&(_, ordinal)| ordinal > MAX_ORDINAL)
            .unwrap_or(("ordinal", 0));
        parquet_core::Error::LimitExceeded {
            what,
            requested: ordinal as u64,
            limit: MAX_ORDINAL as u64,
        }
        .into()
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
        #[allow(clippy::indexing_slicing)] // `suffix.len() <= MAX_SUFFIX_LEN < SUFFIX_BYTES`
        out.extend_from_slice(&suffix.bytes()[..suffix.len()]);
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

    /// Checks the ordinals, as building the AAD would: for CTR modules, which have none.
    pub(crate) fn check_ordinals(self) -> Result<()> {
        self.suffix().map(drop)
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.module_type().name())?;
        match self.ordinals() {
            ([row_group, column, page], 3) => {
                write!(f, " (row group {row_group}, column {column}, page {page})")
            }
            ([row_group, column, _], 2) => write!(f, " (row group {row_group}, column {column})"),
            _ => Ok(()),
        }
    }
}

/// An AAD suffix of at most [`MAX_SUFFIX_LEN`] bytes, in the low bytes of a little-endian
/// `u64` whose top byte is the length: one register.
#[derive(Clone, Copy)]
pub(crate) struct Suffix(u64);

impl Suffix {
    /// At most [`MAX_SUFFIX_LEN`], below [`SUFFIX_BYTES`]: `Module::try_suffix` writes
    /// `1 + 2 * count` for at most 3 ordinals.
    fn len(self) -> usize {
        (self.0 >> 56) as usize
    }

    /// The suffix, then its length and zeros: only the first [`len`](Self::len) count.
    fn bytes(self) -> [u8; SUFFIX_BYTES] {
        self.0.to_le_bytes()
    }
}

/// The file AAD of a [`ModuleCipher`](crate::ModuleCipher), and what each module's AAD is
/// built on: every module's AAD is the file AAD followed by a suffix of at most 7 bytes.
#[derive(Clone)]
pub(crate) struct FileAad {
    bytes: Box<[u8]>,
    /// `bytes` followed by zeros, when the longest module AAD fits: each module's AAD is
    /// then a copy of this fixed-size array with the suffix written in, on the stack.
    inline: Option<[u8; INLINE_AAD]>,
}

/// The inline copy of a file AAD, and the longest module AAD built from it: enough for
/// an AAD prefix of up to 48 bytes and an 8-byte `aad_file_unique`.
const INLINE_AAD: usize = 64;

/// The longest module AAD built on the stack from the file AAD's bytes; a longer one is
/// built on the heap, one allocation per module.
const STACK_AAD: usize = 256;

impl FileAad {
    pub(crate) fn new(file_aad: &[u8]) -> Self {
        let inline = (file_aad.len() + SUFFIX_BYTES <= INLINE_AAD).then(|| {
            let mut inline = [0; INLINE_AAD];
            #[allow(clippy::indexing_slicing)] // `file_aad.len() < INLINE_AAD`, checked above
            inline[..file_aad.len()].copy_from_slice(file_aad);
            inline
        });
        Self {
            bytes: file_aad.into(),
            inline,
        }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Calls `f` with a module's AAD: this file AAD followed by the module's `suffix`
    /// (see [`Module::suffix`]).
    #[inline]
    pub(crate) fn with_aad<R>(&self, suffix: Suffix, f: impl FnOnce(&[u8]) -> R) -> R {
        let prefix = self.bytes.len();
        let len = prefix + suffix.len();
        // An inline copy exists only when `prefix + SUFFIX_BYTES <= INLINE_AAD` (`new`), and
        // `len <= prefix + SUFFIX_BYTES`.
        #[allow(clippy::indexing_slicing)]
        if let Some(inline) = &self.inline {
            let mut aad = *inline;
            aad[prefix..prefix + SUFFIX_BYTES].copy_from_slice(&suffix.bytes());
            f(&aad[..len])
        } else {
            self.with_long_aad(suffix, f)
        }
    }

    /// [`with_aad`](Self::with_aad) for a file AAD too long to be kept inline: out of
    /// line, so that the short case's stack frame stays small.
    #[inline(never)]
    fn with_long_aad<R>(&self, suffix: Suffix, f: impl FnOnce(&[u8]) -> R) -> R {
        let prefix = self.bytes.len();
        let len = prefix + suffix.len();
        // `prefix <= len <= STACK_AAD` in the first branch; `suffix.len() < SUFFIX_BYTES`.
        #[allow(clippy::indexing_slicing)]
        if len <= STACK_AAD {
            let mut aad = [0; STACK_AAD];
            aad[..prefix].copy_from_slice(&self.bytes);
            aad[prefix..len].copy_from_slice(&suffix.bytes()[..suffix.len()]);
            f(&aad[..len])
        } else {
            let mut aad = Vec::with_capacity(len);
            aad.extend_from_slice(&self.bytes);
            aad.extend_from_slice(&suffix.bytes()[..suffix.len()]);
            f(&aad)
        }
    }
}

/// How a [`ModuleCipher`](crate::ModuleCipher) builds the AAD of each GCM module.
///
/// A reader that does not know which a file uses tries [`Spec`](Self::Spec) first and,
/// when the footer fails to authenticate, [`Empty`](Self::Empty) (see
/// [`decrypt_footer_or_without_aad`](crate::decrypt_footer_or_without_aad)), then
/// decrypts the rest of the file the way the footer authenticated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum AadMode {
    /// The specification's: the file AAD, the module type and the module's ordinals
    /// ([`Module::aad`]). Every module is bound to its place in its file.
    #[default]
    Spec,
    /// No AAD at all: every module is encrypted with an empty AAD. Not the
    /// specification's, but what `DuckDB` 2.0 writes (its `FileCryptoMetaData` has neither
    /// `aad_prefix` nor `aad_file_unique`, and it encrypts the footer, the page headers,
    /// the pages and the column metadata with an empty AAD). Such modules are not bound
    /// to their place: a module swapped with another of the same key still authenticates.
    /// For reading such files; a writer should not choose it.
    Empty,
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
