//! The pages of a column chunk: headers read (and decrypted), checksums verified, bodies
//! decrypted and decompressed, levels split from values.

use std::sync::Arc;

use bytes::{Buf, Bytes};
use parquet_compress::{Codec, Decompressor};
use parquet_crypto::{Module, ModuleCipher};
use parquet_thrift::{CompressionCodec, Encoding, PageHeader, PageType};

use crate::error::{Context, Error, ErrorKind, Result};

/// Levels of a data page, still encoded.
#[derive(Debug, Clone)]
pub struct Levels {
    /// RLE (the hybrid without its length prefix) or BIT_PACKED.
    pub encoding: Encoding,
    /// The encoded levels (empty when the column has no such levels).
    pub data: Bytes,
}

/// A decoded page header's worth of one page, ready for value decoding.
#[derive(Debug, Clone)]
pub enum Page {
    /// A dictionary page.
    Dictionary {
        /// The decompressed entries (PLAIN).
        data: Bytes,
        /// The number of entries.
        num_values: usize,
        /// The encoding of the entries (PLAIN or PLAIN_DICTIONARY).
        encoding: Encoding,
        /// The page header, as read (decrypted).
        header: PageHeader<'static>,
        /// The file offset of the page header.
        offset: u64,
    },
    /// A data page (v1 or v2).
    Data(DataPage),
}

/// A data page: levels and values, decompressed.
#[derive(Debug, Clone)]
pub struct DataPage {
    /// The number of values, nulls included (the number of levels).
    pub num_values: usize,
    /// The number of rows, for v2 pages.
    pub num_rows: Option<usize>,
    /// The number of nulls, for v2 pages.
    pub num_nulls: Option<usize>,
    /// The encoding of the values.
    pub encoding: Encoding,
    /// The repetition levels.
    pub rep_levels: Levels,
    /// The definition levels.
    pub def_levels: Levels,
    /// The encoded values.
    pub values: Bytes,
    /// The page header, as read (decrypted).
    pub header: PageHeader<'static>,
    /// The file offset of the page header.
    pub offset: u64,
}

impl DataPage {
    /// Whether this is a v2 page.
    pub fn is_v2(&self) -> bool {
        self.header.type_ == PageType::DATA_PAGE_V2
    }
}

/// What a page reader needs to know about its column chunk.
#[derive(Clone)]
pub(crate) struct ChunkInfo {
    pub(crate) codec: Codec,
    pub(crate) num_values: u64,
    pub(crate) max_def_level: u16,
    pub(crate) max_rep_level: u16,
    pub(crate) cipher: Option<Arc<ModuleCipher>>,
    pub(crate) row_group_ordinal: usize,
    pub(crate) column_ordinal: usize,
    pub(crate) verify_checksums: bool,
    /// Whether the chunk starts with a dictionary page (its metadata has a dictionary
    /// page offset): needed to pick the AAD of an encrypted first page header.
    pub(crate) has_dictionary: bool,
}

impl ChunkInfo {
    /// A chunk without values.
    pub(crate) fn empty(column: &crate::schema::ColumnDescriptor) -> Self {
        Self {
            codec: Codec::Uncompressed,
            num_values: 0,
            max_def_level: column.max_def_level,
            max_rep_level: column.max_rep_level,
            cipher: None,
            row_group_ordinal: 0,
            column_ordinal: 0,
            verify_checksums: false,
            has_dictionary: false,
        }
    }
}

/// The codec of a `CompressionCodec` from the file.
pub(crate) fn codec(codec: CompressionCodec) -> Result<Codec> {
    Ok(Codec::from_parquet(codec.0)?)
}

/// Reads the pages of one column chunk, held in memory, one at a time.
///
/// The chunk is held whole, or (for a row selection, see
/// [`FileReader::column_chunk_rows`](crate::FileReader::column_chunk_rows)) in parts: what
/// precedes its first data page, and the pages holding selected rows. Reading stops at
/// the end of a part; [`seek`](Self::seek) moves to another.
pub struct PageReader {
    /// The parts of the chunk read, with the file offset of each, by offset, none
    /// adjacent to another; never empty.
    parts: Vec<(u64, Bytes)>,
    /// The part being read, and the next page header's position in it.
    part: usize,
    pos: usize,
    /// The file offset of the chunk's first byte.
    start: u64,
    info: ChunkInfo,
    values_read: u64,
    data_pages: usize,
    dictionary_seen: bool,
    decompressor: Decompressor,
    scratch: Vec<u8>,
}

impl std::fmt::Debug for PageReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageReader")
            .field("start", &self.start)
            .field("offset", &self.offset())
            .field("parts", &self.parts.len())
            .finish_non_exhaustive()
    }
}

fn size(value: i32, what: &str) -> Result<usize> {
    usize::try_from(value).map_err(|_| Error::invalid(format!("negative {what}: {value}")))
}

impl PageReader {
    pub(crate) fn new(data: Bytes, base: u64, info: ChunkInfo) -> Self {
        Self::with_parts(vec![(base, data)], base, info)
    }

    /// A reader of the parts of a chunk that starts at file offset `start`.
    pub(crate) fn with_parts(mut parts: Vec<(u64, Bytes)>, start: u64, info: ChunkInfo) -> Self {
        if parts.is_empty() {
            parts.push((start, Bytes::new()));
        }
        Self {
            parts,
            part: 0,
            pos: 0,
            start,
            info,
            values_read: 0,
            data_pages: 0,
            dictionary_seen: false,
            decompressor: Decompressor::new(),
            scratch: Vec::new(),
        }
    }

    /// The file offset of the next page header.
    pub fn offset(&self) -> u64 {
        self.parts[self.part].0 + self.pos as u64
    }

    /// The part being read.
    fn data(&self) -> &Bytes {
        &self.parts[self.part].1
    }

    /// Whether the next page is the chunk's first.
    fn at_start(&self) -> bool {
        self.offset() == self.start
    }

    /// Whether the next page is the chunk's dictionary page.
    pub(crate) fn dictionary_next(&self) -> Result<bool> {
        if !self.at_start() || self.pos >= self.data().len() {
            return Ok(false);
        }
        if self.info.cipher.is_some() {
            // The header cannot be decrypted without knowing which module it is.
            return Ok(self.info.has_dictionary);
        }
        let (header, _) = PageHeader::read_from(&self.data()[self.pos..]).at_offset(self.start)?;
        Ok(header.type_ == PageType::DICTIONARY_PAGE)
    }

    /// Moves to the data page whose header is at file offset `offset`, the `ordinal`th
    /// data page of the chunk (counting from 0, as the offset index does): the next
    /// [`next_page`](Self::next_page) reads it. Decryption needs the ordinal.
    ///
    /// # Errors
    ///
    /// An offset outside the parts of the chunk read.
    pub fn seek(&mut self, offset: u64, ordinal: usize) -> Result<()> {
        let found = self
            .parts
            .iter()
            .enumerate()
            .find_map(|(part, (base, data))| {
                let pos = usize::try_from(offset.checked_sub(*base)?).ok()?;
                (pos < data.len()).then_some((part, pos))
            });
        let Some((part, pos)) = found else {
            return Err(Error::invalid(format!(
                "page offset {offset} is outside the column chunk's bytes read"
            )));
        };
        self.part = part;
        self.pos = pos;
        self.data_pages = ordinal;
        Ok(())
    }

    /// The next page, or `None` at the end of the chunk (or of the run of pages read, for
    /// a chunk read in parts). Index pages and pages of unknown types are skipped.
    ///
    /// # Errors
    ///
    /// A header that does not decode or decrypt, a page that runs past the chunk, a
    /// checksum mismatch, a page that does not decrypt or decompress, levels that do not
    /// fit the page.
    pub fn next_page(&mut self) -> Result<Option<Page>> {
        loop {
            if self.pos >= self.data().len() || self.values_read >= self.info.num_values {
                return Ok(None);
            }
            let offset = self.offset();
            if let Some(page) = self.read_page().at_offset(offset)? {
                return Ok(Some(page));
            }
        }
    }

    fn read_page(&mut self) -> Result<Option<Page>> {
        let offset = self.offset();
        let rest = self.data().slice(self.pos..);
        let (header, header_len) = self.read_header(&rest)?;
        let compressed = size(header.compressed_page_size, "compressed page size")?;
        let uncompressed = size(header.uncompressed_page_size, "uncompressed page size")?;
        let body_start = header_len;
        let body_end = body_start
            .checked_add(compressed)
            .filter(|&end| end <= rest.len())
            .ok_or_else(|| {
                Error::invalid(format!(
                    "page of {compressed} bytes runs past the end of its column chunk ({} bytes left)",
                    rest.len().saturating_sub(body_start)
                ))
            })?;
        self.pos += body_end;
        let body = rest.slice(body_start..body_end);
        match header.type_ {
            PageType::DICTIONARY_PAGE => {
                let Some(dict) = header.dictionary_page_header.clone() else {
                    return Err(Error::invalid(
                        "dictionary page without a dictionary page header",
                    ));
                };
                if self.dictionary_seen || self.data_pages > 0 {
                    return Err(Error::invalid(
                        "a dictionary page that is not the chunk's first page",
                    ));
                }
                self.dictionary_seen = true;
                let num_values = size(dict.num_values, "number of dictionary entries")?;
                let body = self.decrypt_body(
                    body,
                    Module::DictionaryPage {
                        row_group: self.info.row_group_ordinal,
                        column: self.info.column_ordinal,
                    },
                )?;
                self.verify_crc(header.crc, &body)?;
                let data = self.decompress(body, uncompressed)?;
                Ok(Some(Page::Dictionary {
                    data,
                    num_values,
                    encoding: dict.encoding,
                    header,
                    offset,
                }))
            }
            PageType::DATA_PAGE | PageType::DATA_PAGE_V2 => {
                let ordinal = self.data_pages;
                self.data_pages += 1;
                let body = self.decrypt_body(
                    body,
                    Module::DataPage {
                        row_group: self.info.row_group_ordinal,
                        column: self.info.column_ordinal,
                        page: ordinal,
                    },
                )?;
                self.verify_crc(header.crc, &body)?;
                let page = if header.type_ == PageType::DATA_PAGE {
                    self.data_page_v1(header, body, uncompressed, offset)?
                } else {
                    self.data_page_v2(header, &body, uncompressed, offset)?
                };
                self.values_read += page.num_values as u64;
                Ok(Some(Page::Data(page)))
            }
            // Index pages and page types newer than this reader.
            _ => Ok(None),
        }
    }

    fn read_header(&mut self, rest: &Bytes) -> Result<(PageHeader<'static>, usize)> {
        let Some(cipher) = &self.info.cipher else {
            let (header, len) = PageHeader::read_from(rest)?;
            return Ok((header.into_owned(), len));
        };
        // A dictionary page, when the chunk has one, is its first page.
        let module = if self.at_start() && self.info.has_dictionary {
            Module::DictionaryPageHeader {
                row_group: self.info.row_group_ordinal,
                column: self.info.column_ordinal,
            }
        } else {
            Module::DataPageHeader {
                row_group: self.info.row_group_ordinal,
                column: self.info.column_ordinal,
                page: self.data_pages,
            }
        };
        self.scratch.clear();
        let used = cipher.decrypt(module, rest, &mut self.scratch)?;
        let (header, _) = PageHeader::read_from(&self.scratch)?;
        Ok((header.into_owned(), used))
    }

    fn decrypt_body(&self, body: Bytes, module: Module) -> Result<Bytes> {
        let Some(cipher) = &self.info.cipher else {
            return Ok(body);
        };
        let mut out = Vec::new();
        let used = cipher.decrypt(module, &body, &mut out)?;
        if used != body.len() {
            return Err(Error::invalid(format!(
                "encrypted page of {} bytes holds a module of {used}",
                body.len()
            )));
        }
        Ok(Bytes::from(out))
    }

    fn verify_crc(&self, crc: Option<i32>, body: &[u8]) -> Result<()> {
        let Some(expected) = crc.filter(|_| self.info.verify_checksums) else {
            return Ok(());
        };
        #[allow(clippy::cast_sign_loss)]
        let expected = expected as u32;
        let actual = crc32fast::hash(body);
        if actual == expected {
            Ok(())
        } else {
            Err(ErrorKind::Checksum { expected, actual }.into())
        }
    }

    fn decompress(&mut self, body: Bytes, uncompressed: usize) -> Result<Bytes> {
        if self.info.codec == Codec::Uncompressed {
            return Ok(body);
        }
        let mut out = Vec::new();
        self.decompressor
            .decompress(self.info.codec, &body, uncompressed, &mut out)?;
        Ok(Bytes::from(out))
    }

    fn data_page_v1(
        &mut self,
        header: PageHeader<'static>,
        body: Bytes,
        uncompressed: usize,
        offset: u64,
    ) -> Result<DataPage> {
        let Some(h) = &header.data_page_header else {
            return Err(Error::invalid("data page without a data page header"));
        };
        let num_values = size(h.num_values, "number of values")?;
        let mut data = self.decompress(body, uncompressed)?;
        let rep_levels = split_levels(
            &mut data,
            h.repetition_level_encoding,
            self.info.max_rep_level,
            num_values,
        )
        .map_err(|e| levels_error("repetition", &e))?;
        let def_levels = split_levels(
            &mut data,
            h.definition_level_encoding,
            self.info.max_def_level,
            num_values,
        )
        .map_err(|e| levels_error("definition", &e))?;
        let encoding = h.encoding;
        Ok(DataPage {
            num_values,
            num_rows: None,
            num_nulls: None,
            encoding,
            rep_levels,
            def_levels,
            values: data,
            header,
            offset,
        })
    }

    fn data_page_v2(
        &mut self,
        header: PageHeader<'static>,
        body: &Bytes,
        uncompressed: usize,
        offset: u64,
    ) -> Result<DataPage> {
        let Some(h) = &header.data_page_header_v2 else {
            return Err(Error::invalid("data page v2 without a data page header v2"));
        };
        let num_values = size(h.num_values, "number of values")?;
        let rep_len = size(h.repetition_levels_byte_length, "repetition levels length")?;
        let def_len = size(h.definition_levels_byte_length, "definition levels length")?;
        let levels_len = rep_len
            .checked_add(def_len)
            .filter(|&l| l <= body.len() && l <= uncompressed)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "levels of {rep_len} + {def_len} bytes do not fit a page of {} bytes",
                    body.len()
                ))
            })?;
        let rep = body.slice(..rep_len);
        let def = body.slice(rep_len..levels_len);
        let values = body.slice(levels_len..);
        let values = if h.is_compressed.unwrap_or(true) {
            self.decompress(values, uncompressed - levels_len)?
        } else {
            values
        };
        let levels = |data: Bytes, max: u16| Levels {
            encoding: Encoding::RLE,
            data: if max == 0 { Bytes::new() } else { data },
        };
        let num_rows = Some(size(h.num_rows, "number of rows")?);
        let num_nulls = Some(size(h.num_nulls, "number of nulls")?);
        let encoding = h.encoding;
        Ok(DataPage {
            num_values,
            num_rows,
            num_nulls,
            encoding,
            rep_levels: levels(rep, self.info.max_rep_level),
            def_levels: levels(def, self.info.max_def_level),
            values,
            header,
            offset,
        })
    }
}

/// An error in the levels of a page, saying which levels (`"repetition"` or
/// `"definition"`).
pub(crate) fn levels_error(which: &str, e: &Error) -> Error {
    Error::invalid(format!("{which} levels: {e}"))
}

/// The bit width of levels up to `max`.
pub(crate) fn level_width(max: u16) -> u8 {
    #[allow(clippy::cast_possible_truncation)] // at most 16
    let width = (u16::BITS - max.leading_zeros()) as u8;
    width
}

/// Splits the levels of a v1 page off the front of `data`.
fn split_levels(
    data: &mut Bytes,
    encoding: Encoding,
    max: u16,
    num_values: usize,
) -> Result<Levels> {
    if max == 0 {
        return Ok(Levels {
            encoding: Encoding::RLE,
            data: Bytes::new(),
        });
    }
    let len = match encoding {
        Encoding::RLE => {
            let (levels, _) = parquet_rle::split_length_prefixed(data)?;
            let levels = data.slice(4..4 + levels.len());
            data.advance(4 + levels.len());
            return Ok(Levels {
                encoding: Encoding::RLE,
                data: levels,
            });
        }
        Encoding::BIT_PACKED => {
            let len = parquet_bitpack::packed_len(num_values, level_width(max));
            if len > data.len() {
                return Err(Error::invalid(format!(
                    "{num_values} BIT_PACKED levels do not fit the page's {} bytes",
                    data.len()
                )));
            }
            len
        }
        other => {
            return Err(Error::unsupported(format!(
                "level encoding {}",
                other.name().unwrap_or("unknown")
            )));
        }
    };
    let levels = data.slice(..len);
    data.advance(len);
    Ok(Levels {
        encoding: Encoding::BIT_PACKED,
        data: levels,
    })
}
