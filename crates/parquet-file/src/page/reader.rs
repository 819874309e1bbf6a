//! Reading the pages of one column chunk.

use std::sync::Arc;

use bytes::{Buf, Bytes};
use parquet_compress::{Codec, Decompressor};
use parquet_crypto::{Module, ModuleCipher};
use parquet_thrift as thrift;

use super::{DataPage, DictionaryPageHeader, Levels, Page, PageHeader, PageKind};
use crate::error::{Context, Crypto as _, Decoding as _, Error, ErrorKind, Result};
use crate::limits::Limits;
use crate::metadata::Encoding;

/// What a page reader needs to know about its column chunk.
#[derive(Clone)]
pub(crate) struct ChunkInfo {
    pub(crate) codec: Codec,
    /// The chunk's values (level entries), by its metadata.
    pub(crate) num_values: u64,
    /// The rows of its row group.
    pub(crate) num_rows: u64,
    pub(crate) max_def_level: u16,
    pub(crate) max_rep_level: u16,
    pub(crate) cipher: Option<Arc<ModuleCipher>>,
    pub(crate) row_group_ordinal: usize,
    pub(crate) column_ordinal: usize,
    pub(crate) verify_checksums: bool,
    /// Whether the chunk starts with a dictionary page (its metadata has a dictionary
    /// page offset): needed to pick the AAD of an encrypted first page header.
    pub(crate) has_dictionary: bool,
    pub(crate) limits: Limits,
}

/// A page whose header is read (and decrypted) and whose body is not yet touched.
#[derive(Debug, Clone)]
pub(crate) struct RawPage {
    pub(crate) header: PageHeader,
    /// The body as stored: compressed, and encrypted for an encrypted chunk.
    body: Bytes,
    /// The file offset of the header.
    pub(crate) offset: u64,
    /// The page's ordinal among the chunk's data pages (for a data page's AAD).
    ordinal: usize,
}

/// Reads the pages of one column chunk, held in memory, one at a time.
///
/// The chunk is held whole, or (for a row selection) in parts: what precedes its first
/// data page, and the pages holding selected rows. Reading stops at the end of a part;
/// [`seek`](Self::seek) moves to another.
///
/// Each data page's counts are checked against what remains of its chunk and row group
/// before its body is touched: a page that claims more values than its chunk has left,
/// or more rows than its row group has left, is an error.
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
    /// The level entries of the data pages read so far, when read from the start.
    values_read: Option<u64>,
    /// The rows before the next data page, when known.
    rows_read: Option<u64>,
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

impl PageReader {
    /// A reader of the parts of a chunk that starts at file offset `start`.
    pub(crate) fn new(mut parts: Vec<(u64, Bytes)>, start: u64, info: ChunkInfo) -> Self {
        if parts.is_empty() {
            parts.push((start, Bytes::new()));
        }
        Self {
            parts,
            part: 0,
            pos: 0,
            start,
            info,
            values_read: Some(0),
            rows_read: Some(0),
            data_pages: 0,
            dictionary_seen: false,
            decompressor: Decompressor::new(),
            scratch: Vec::new(),
        }
    }

    /// The file offset of the next page header.
    pub fn offset(&self) -> u64 {
        self.parts.get(self.part).map_or(self.start, |p| p.0) + self.pos as u64
    }

    /// The part being read.
    fn data(&self) -> &[u8] {
        self.parts.get(self.part).map_or(&[], |p| &p.1)
    }

    /// The rest of the part being read.
    fn rest(&self) -> Bytes {
        self.parts
            .get(self.part)
            .and_then(|p| p.1.get(self.pos..).map(|_| p.1.slice(self.pos..)))
            .unwrap_or_default()
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
        let rest = self.rest();
        let (header, _) = thrift::PageHeader::read_from(&rest)
            .decoding("page header")
            .at_offset(self.start)?;
        Ok(header.type_ == thrift::PageType::DICTIONARY_PAGE)
    }

    /// Moves to the data page whose header is at file offset `offset`, the `ordinal`th
    /// data page of the chunk (counting from 0, as the offset index does), whose first
    /// row is `first_row`: the next [`next_page`](Self::next_page) reads it.
    /// Decryption needs the ordinal.
    ///
    /// # Errors
    ///
    /// An offset outside the parts of the chunk read.
    pub fn seek(&mut self, offset: u64, ordinal: usize, first_row: u64) -> Result<()> {
        let found = self
            .parts
            .iter()
            .enumerate()
            .find_map(|(part, (base, data))| {
                let pos = usize::try_from(offset.checked_sub(*base)?).ok()?;
                (pos < data.len()).then_some((part, pos))
            });
        let Some((part, pos)) = found else {
            return Err(ErrorKind::OutOfBounds {
                what: "page",
                start: offset,
                len: 0,
                within: "the column chunk's bytes read",
                end: self.start,
            }
            .into());
        };
        self.part = part;
        self.pos = pos;
        self.data_pages = ordinal;
        self.values_read = None;
        self.rows_read = Some(first_row);
        Ok(())
    }

    /// Whether the reader has reached the end of the chunk (or of the run of pages read).
    fn at_end(&self) -> bool {
        self.pos >= self.data().len()
            || self
                .values_read
                .is_some_and(|read| read >= self.info.num_values)
    }

    /// The next page's header and stored body, or `None` at the end of the chunk (or of
    /// the run of pages read). The page's counts are checked, its body is not decrypted,
    /// checked or decompressed.
    pub(crate) fn next_raw(&mut self) -> Result<Option<RawPage>> {
        if self.at_end() {
            return Ok(None);
        }
        let offset = self.offset();
        self.read_raw(offset).at_offset(offset).map(Some)
    }

    fn read_raw(&mut self, offset: u64) -> Result<RawPage> {
        let rest = self.rest();
        let (header, header_len) = self.read_header(&rest)?;
        let limits = &self.info.limits;
        if header.compressed_size > limits.max_page_size() {
            return Err(Error::limit(
                "page size",
                header.compressed_size as u64,
                limits.max_page_size() as u64,
            ));
        }
        let body_end = header_len
            .checked_add(self.stored_size(&header, rest.get(header_len..)))
            .filter(|&end| end <= rest.len())
            .ok_or_else(|| ErrorKind::OutOfBounds {
                what: "page",
                start: offset - self.start,
                len: (header_len + header.compressed_size) as u64,
                within: "its column chunk",
                end: (rest.len() as u64) + (offset - self.start),
            })?;
        self.pos += body_end;
        let body = rest.slice(header_len..body_end);
        let ordinal = self.data_pages;
        match &header.kind {
            PageKind::Dictionary(_) => {
                if self.dictionary_seen || self.data_pages > 0 {
                    return Err(Error::malformed(
                        "a dictionary page that is not the chunk's first page",
                    ));
                }
                self.dictionary_seen = true;
                if header.uncompressed_size > limits.max_dictionary_size() {
                    return Err(Error::limit(
                        "dictionary page size",
                        header.uncompressed_size as u64,
                        limits.max_dictionary_size() as u64,
                    ));
                }
            }
            PageKind::Data(_) | PageKind::DataV2(_) => {
                self.data_pages += 1;
                if header.uncompressed_size > limits.max_decompressed_page_size() {
                    return Err(Error::limit(
                        "decompressed page size",
                        header.uncompressed_size as u64,
                        limits.max_decompressed_page_size() as u64,
                    ));
                }
                self.count(&header)?;
            }
            PageKind::Index | PageKind::Unknown(_) => {}
        }
        Ok(RawPage {
            header,
            body,
            offset,
            ordinal,
        })
    }

    /// Checks a data page's counts against what remains of the chunk and row group, and
    /// counts them.
    fn count(&mut self, header: &PageHeader) -> Result<()> {
        let values = header.num_values().unwrap_or(0) as u64;
        let rows = match &header.kind {
            PageKind::DataV2(h) => Some(h.num_rows as u64),
            // An unrepeated column has one level entry per row.
            _ if self.info.max_rep_level == 0 => Some(values),
            _ => None,
        };
        if let Some(read) = self.values_read {
            let left = self.info.num_values.saturating_sub(read);
            if values > left {
                return Err(Error::mismatch(
                    "values in the page, at most the chunk's values left",
                    left,
                    values,
                ));
            }
            self.values_read = Some(read + values);
        }
        match (self.rows_read, rows) {
            (Some(read), Some(rows)) => {
                let left = self.info.num_rows.saturating_sub(read);
                if rows > left {
                    return Err(Error::mismatch(
                        "rows in the page, at most the row group's rows left",
                        left,
                        rows,
                    ));
                }
                self.rows_read = Some(read + rows);
            }
            (_, None) => self.rows_read = None,
            (None, Some(_)) => {}
        }
        Ok(())
    }

    /// The next page, or `None` at the end of the chunk (or of the run of pages read). Index
    /// pages and pages of unknown types are skipped.
    ///
    /// # Errors
    ///
    /// A header that does not decode or decrypt, a page that runs past the chunk or
    /// claims more values or rows than are left, a checksum mismatch, a page that does
    /// not decrypt or decompress, levels that do not fit the page.
    pub fn next_page(&mut self) -> Result<Option<Page>> {
        while let Some(raw) = self.next_raw()? {
            let offset = raw.offset;
            if let Some(page) = self.decode(raw).at_offset(offset)? {
                return Ok(Some(page));
            }
        }
        Ok(None)
    }

    /// The headers of the pages, each with its file offset, to the end of the chunk;
    /// bodies are not touched.
    ///
    /// # Errors
    ///
    /// As [`next_page`](Self::next_page), for headers.
    pub fn next_header(&mut self) -> Result<Option<(PageHeader, u64)>> {
        Ok(self.next_raw()?.map(|raw| (raw.header, raw.offset)))
    }

    /// The data pages read so far (by [`next_raw`](Self::next_raw), skipped or not), or
    /// since a seek: the ordinal of the next one.
    pub(crate) fn data_pages(&self) -> usize {
        self.data_pages
    }

    /// Checks, decrypts and decompresses a page read by [`next_raw`](Self::next_raw):
    /// `None` for the page types that are skipped.
    pub(crate) fn decode(&mut self, raw: RawPage) -> Result<Option<Page>> {
        let RawPage {
            header,
            body,
            offset,
            ordinal,
        } = raw;
        let (row_group, column) = (self.info.row_group_ordinal, self.info.column_ordinal);
        let module = match header.kind {
            PageKind::Dictionary(_) => Module::DictionaryPage { row_group, column },
            PageKind::Data(_) | PageKind::DataV2(_) => Module::DataPage {
                row_group,
                column,
                page: ordinal,
            },
            PageKind::Index | PageKind::Unknown(_) => return Ok(None),
        };
        self.verify_crc(header.crc, &body)?;
        let body = self.decrypt_body(body, module)?;
        Ok(Some(match header.kind {
            PageKind::Dictionary(dict) => Page::Dictionary {
                data: self.decompress(&body, header.uncompressed_size)?,
                header: dict,
                offset,
            },
            PageKind::Data(h) => {
                let mut data = self.decompress(&body, header.uncompressed_size)?;
                let rep_levels = split_levels(
                    &mut data,
                    h.rep_level_encoding,
                    self.info.max_rep_level,
                    h.num_values,
                    "repetition levels",
                )?;
                let def_levels = split_levels(
                    &mut data,
                    h.def_level_encoding,
                    self.info.max_def_level,
                    h.num_values,
                    "definition levels",
                )?;
                Page::Data(DataPage {
                    num_values: h.num_values,
                    num_rows: None,
                    num_nulls: None,
                    encoding: h.encoding,
                    rep_levels,
                    def_levels,
                    values: data,
                    offset,
                })
            }
            PageKind::DataV2(h) => {
                let levels_len = h
                    .rep_levels_len
                    .checked_add(h.def_levels_len)
                    .filter(|&l| l <= body.len() && l <= header.uncompressed_size)
                    .ok_or_else(|| ErrorKind::OutOfBounds {
                        what: "levels of a data page v2",
                        start: 0,
                        len: (h.rep_levels_len as u64).saturating_add(h.def_levels_len as u64),
                        within: "the page",
                        end: body.len() as u64,
                    })?;
                let values = body.slice(levels_len..);
                let values = if h.is_compressed {
                    self.decompress(&values, header.uncompressed_size - levels_len)?
                } else {
                    values
                };
                let levels = |range: std::ops::Range<usize>, max: u16| Levels {
                    encoding: Encoding::Rle,
                    data: if max == 0 {
                        Bytes::new()
                    } else {
                        body.slice(range)
                    },
                };
                Page::Data(DataPage {
                    num_values: h.num_values,
                    num_rows: Some(h.num_rows),
                    num_nulls: Some(h.num_nulls),
                    encoding: h.encoding,
                    rep_levels: levels(0..h.rep_levels_len, self.info.max_rep_level),
                    def_levels: levels(h.rep_levels_len..levels_len, self.info.max_def_level),
                    values,
                    offset,
                })
            }
            PageKind::Index | PageKind::Unknown(_) => return Ok(None),
        }))
    }

    /// The bytes a page's body takes in the file: its header's compressed size, which
    /// counts the encryption's framing, but for DuckDB's files (their modules
    /// authenticated with an empty AAD), whose headers give the size before encryption:
    /// there, the body module's own length field says.
    fn stored_size(&self, header: &PageHeader, body: Option<&[u8]>) -> usize {
        let duckdb = self
            .info
            .cipher
            .as_ref()
            .is_some_and(|c| c.aad_mode() == parquet_crypto::AadMode::Empty);
        match body.and_then(|b| b.first_chunk::<4>()) {
            Some(length) if duckdb => usize::try_from(u32::from_le_bytes(*length))
                .map_or(usize::MAX, |l| l.saturating_add(4)),
            _ => header.compressed_size,
        }
    }

    fn read_header(&mut self, rest: &Bytes) -> Result<(PageHeader, usize)> {
        let Some(cipher) = &self.info.cipher else {
            let (header, len) = thrift::PageHeader::read_from(rest).decoding("page header")?;
            return Ok((PageHeader::from_thrift(&header, rest)?, len));
        };
        let (row_group, column) = (self.info.row_group_ordinal, self.info.column_ordinal);
        // A dictionary page, when the chunk has one, is its first page.
        let module = if self.at_start() && self.info.has_dictionary {
            Module::DictionaryPageHeader { row_group, column }
        } else {
            Module::DataPageHeader {
                row_group,
                column,
                page: self.data_pages,
            }
        };
        self.scratch.clear();
        let used = cipher
            .decrypt(module, rest, &mut self.scratch)
            .crypto("decrypting a page header")?;
        let plain = Bytes::copy_from_slice(&self.scratch);
        let (header, _) = thrift::PageHeader::read_from(&plain).decoding("page header")?;
        Ok((PageHeader::from_thrift(&header, &plain)?, used))
    }

    fn decrypt_body(&self, body: Bytes, module: Module) -> Result<Bytes> {
        let Some(cipher) = &self.info.cipher else {
            return Ok(body);
        };
        let mut out = Vec::new();
        let used = cipher
            .decrypt(module, &body, &mut out)
            .crypto("decrypting a page")?;
        if used != body.len() {
            return Err(Error::mismatch(
                "bytes of the encrypted page, by its module's length field",
                body.len() as u64,
                used as u64,
            ));
        }
        Ok(Bytes::from(out))
    }

    /// Checks the CRC32 of a page's bytes as stored: after compression and encryption,
    /// as parquet.thrift defines it (and parquet-java writes it).
    fn verify_crc(&self, crc: Option<u32>, stored: &[u8]) -> Result<()> {
        let Some(expected) = crc.filter(|_| self.info.verify_checksums) else {
            return Ok(());
        };
        let actual = crc32fast::hash(stored);
        if actual == expected {
            Ok(())
        } else {
            Err(ErrorKind::Checksum { expected, actual }.into())
        }
    }

    fn decompress(&mut self, body: &Bytes, uncompressed: usize) -> Result<Bytes> {
        if self.info.codec == Codec::Uncompressed && body.len() == uncompressed {
            // Without a copy; a size that disagrees is the decompressor's error below.
            return Ok(body.clone());
        }
        let mut out = Vec::new();
        self.decompressor
            .decompress(self.info.codec, body, uncompressed, &mut out)?;
        Ok(Bytes::from(out))
    }
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
    what: &'static str,
) -> Result<Levels> {
    if max == 0 {
        return Ok(Levels {
            encoding: Encoding::Rle,
            data: Bytes::new(),
        });
    }
    let (start, len) = match encoding {
        Encoding::Rle => {
            let (levels, _) = parquet_rle::split_length_prefixed(data).decoding(what)?;
            (4, levels.len())
        }
        Encoding::BitPacked => {
            let len = parquet_bitpack::packed_len(num_values, level_width(max));
            if len > data.len() {
                return Err(ErrorKind::OutOfBounds {
                    what,
                    start: 0,
                    len: len as u64,
                    within: "the page",
                    end: data.len() as u64,
                }
                .into());
            }
            (0, len)
        }
        Encoding::Unknown(n) => return Err(Error::unsupported("level encoding", Some(n.into()))),
        _ => return Err(Error::unsupported("level encoding", None)),
    };
    let levels = data.slice(start..start + len);
    data.advance(start + len);
    Ok(Levels {
        encoding,
        data: levels,
    })
}

impl PageReader {
    /// The dictionary page's header and entries, when the next page is the chunk's
    /// dictionary page.
    pub(crate) fn read_dictionary(&mut self) -> Result<Option<(DictionaryPageHeader, Bytes)>> {
        if !self.dictionary_next()? {
            return Ok(None);
        }
        match self.next_page()? {
            Some(Page::Dictionary { data, header, .. }) => Ok(Some((header, data))),
            _ => Err(Error::malformed(
                "the chunk's first page is not its dictionary",
            )),
        }
    }
}
