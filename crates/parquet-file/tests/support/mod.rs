//! Hand-made Parquet files for tests: pages given as header and body, laid out in column
//! chunks and row groups with a footer, optionally with page indexes and encryption, so
//! that a test can build exactly the file another writer makes (or a hostile one).

#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::missing_panics_doc
)] // Each test file uses part of it.
#![allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)] // Small test files.

use std::borrow::Cow;

use parquet_crypto::{Algorithm, Key, Module, ModuleCipher};
use parquet_thrift as thrift;
use thrift::{Encoding, FieldRepetitionType as Rep, SchemaElement, Type};

/// A page: its header (its compressed size, and CRC when asked, set by the builder) and
/// its body.
#[derive(Debug, Clone)]
pub struct Page {
    pub header: thrift::PageHeader<'static>,
    pub body: Vec<u8>,
}

impl Page {
    /// A data page v1 of `num_values` level entries whose body (levels, then values) is
    /// `body`, uncompressed.
    pub fn v1(num_values: i32, encoding: Encoding, body: Vec<u8>) -> Self {
        Self {
            header: thrift::PageHeader {
                type_: thrift::PageType::DATA_PAGE,
                uncompressed_page_size: body.len() as i32,
                compressed_page_size: body.len() as i32,
                data_page_header: Some(thrift::DataPageHeader {
                    num_values,
                    encoding,
                    definition_level_encoding: Encoding::RLE,
                    repetition_level_encoding: Encoding::RLE,
                    statistics: None,
                }),
                ..thrift::PageHeader::default()
            },
            body,
        }
    }

    /// A dictionary page of `num_values` PLAIN entries.
    pub fn dictionary(num_values: i32, body: Vec<u8>) -> Self {
        Self {
            header: thrift::PageHeader {
                type_: thrift::PageType::DICTIONARY_PAGE,
                uncompressed_page_size: body.len() as i32,
                compressed_page_size: body.len() as i32,
                dictionary_page_header: Some(thrift::DictionaryPageHeader {
                    num_values,
                    encoding: Encoding::PLAIN,
                    is_sorted: None,
                }),
                ..thrift::PageHeader::default()
            },
            body,
        }
    }

    /// Whether this is a data page.
    fn is_data(&self) -> bool {
        self.header.type_ != thrift::PageType::DICTIONARY_PAGE
    }
}

/// RLE hybrid levels with their 4-byte length, as a v1 page stores them.
pub fn levels(values: &[u16], max: u16) -> Vec<u8> {
    let width = (u16::BITS - max.leading_zeros()) as u8;
    let mut out = Vec::new();
    parquet_rle::encode_length_prefixed(values, width, &mut out).unwrap();
    out
}

/// One RLE run of `len` copies of `value` at `width` bits, with the 4-byte length.
pub fn run(value: u32, len: usize, width: u8) -> Vec<u8> {
    let mut encoder = parquet_rle::Encoder::new(width);
    encoder.put_run(value, len);
    let mut out = Vec::new();
    encoder.finish_length_prefixed(&mut out).unwrap();
    out
}

/// One RLE run of `len` dictionary indices `index`, as an RLE_DICTIONARY page stores it
/// (bit width byte, then the hybrid without length).
pub fn index_run(index: u32, len: usize, width: u8) -> Vec<u8> {
    let mut encoder = parquet_rle::Encoder::new(width);
    encoder.put_run(index, len);
    let mut out = vec![width];
    encoder.finish(&mut out);
    out
}

/// PLAIN INT32 values.
pub fn plain_i32(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A column chunk: its pages, what its metadata claims, and its indexes.
#[derive(Debug, Clone)]
pub struct Chunk {
    pub pages: Vec<Page>,
    /// The `num_values` of its metadata (by default, the sum of its pages').
    pub num_values: Option<i64>,
    pub physical_type: Type,
    /// Write an offset index of the pages' true locations.
    pub offset_index: bool,
    /// Write this column index.
    pub column_index: Option<thrift::ColumnIndex<'static>>,
    /// Page checksums: CRC32 of each page's body as stored.
    pub crc: bool,
    /// Changes the true page locations before the offset index is written.
    pub offset_index_edit: Option<fn(&mut [thrift::PageLocation])>,
    /// Statistics for its metadata.
    pub statistics: Option<thrift::Statistics<'static>>,
    /// Geospatial statistics for its metadata.
    pub geospatial: Option<thrift::GeospatialStatistics>,
    /// The codec its metadata names (the pages are given as stored).
    pub codec: thrift::CompressionCodec,
}

impl Chunk {
    pub fn new(physical_type: Type, pages: Vec<Page>) -> Self {
        Self {
            pages,
            num_values: None,
            physical_type,
            offset_index: false,
            column_index: None,
            crc: false,
            offset_index_edit: None,
            statistics: None,
            geospatial: None,
            codec: thrift::CompressionCodec::UNCOMPRESSED,
        }
    }
}

/// How a file is encrypted: every column with the footer key, an encrypted footer.
#[derive(Clone)]
pub struct Encryption {
    pub key: Key,
    pub algorithm: Algorithm,
    /// The `aad_file_unique` stored; `None` writes the file as DuckDB does: no
    /// `aad_file_unique`, every module authenticated with an empty AAD, page headers
    /// giving the size before encryption, no column saying it is encrypted.
    pub aad_file_unique: Option<Vec<u8>>,
}

/// A whole file.
#[derive(Clone, Default)]
pub struct File {
    pub schema: Vec<SchemaElement<'static>>,
    /// Row groups: their claimed rows and their chunks, one per leaf.
    pub row_groups: Vec<(i64, Vec<Chunk>)>,
    pub created_by: Option<&'static str>,
    pub encryption: Option<Encryption>,
}

pub fn root(children: i32) -> SchemaElement<'static> {
    SchemaElement {
        name: Cow::Borrowed("schema"),
        num_children: Some(children),
        ..SchemaElement::default()
    }
}

pub fn group(name: &'static str, rep: Rep, children: i32) -> SchemaElement<'static> {
    SchemaElement {
        name: Cow::Borrowed(name),
        repetition_type: Some(rep),
        num_children: Some(children),
        ..SchemaElement::default()
    }
}

pub fn leaf(name: &'static str, rep: Rep, physical: Type) -> SchemaElement<'static> {
    SchemaElement {
        name: Cow::Borrowed(name),
        repetition_type: Some(rep),
        type_: Some(physical),
        ..SchemaElement::default()
    }
}

impl File {
    /// The file's bytes.
    #[allow(clippy::too_many_lines)] // pages, chunks, indexes, footer, in file order
    pub fn write(&self) -> Vec<u8> {
        let magic = if self.encryption.is_some() {
            b"PARE"
        } else {
            b"PAR1"
        };
        let mut out = magic.to_vec();
        let cipher = self.encryption.as_ref().map(|e| match &e.aad_file_unique {
            Some(unique) => {
                ModuleCipher::new(&e.key, e.algorithm, &parquet_crypto::file_aad(b"", unique))
            }
            None => ModuleCipher::without_aad(&e.key, e.algorithm),
        });
        let mut row_groups = Vec::new();
        let mut indexes = Vec::new();
        for (g, (rows, chunks)) in self.row_groups.iter().enumerate() {
            let mut columns = Vec::new();
            for (c, chunk) in chunks.iter().enumerate() {
                let start = out.len() as i64;
                let mut dictionary_page_offset = None;
                let mut data_page_offset = None;
                let mut locations = Vec::new();
                let mut first_row = 0;
                let mut values = 0_i64;
                let mut data_pages = 0;
                for page in &chunk.pages {
                    let offset = out.len() as i64;
                    let mut header = page.header.clone();
                    // The page's body or header, encrypted as its module when the column is.
                    let seal = |of_header: bool, bytes: &[u8]| {
                        let Some(cipher) = &cipher else {
                            return bytes.to_vec();
                        };
                        let module = match (page.is_data(), of_header) {
                            (true, false) => Module::DataPage {
                                row_group: g,
                                column: c,
                                page: data_pages,
                            },
                            (true, true) => Module::DataPageHeader {
                                row_group: g,
                                column: c,
                                page: data_pages,
                            },
                            (false, false) => Module::DictionaryPage {
                                row_group: g,
                                column: c,
                            },
                            (false, true) => Module::DictionaryPageHeader {
                                row_group: g,
                                column: c,
                            },
                        };
                        let mut encrypted = Vec::new();
                        cipher.encrypt(module, bytes, &mut encrypted).unwrap();
                        encrypted
                    };
                    let body = seal(false, &page.body);
                    // DuckDB's headers give the size before encryption.
                    let duckdb = self
                        .encryption
                        .as_ref()
                        .is_some_and(|e| e.aad_file_unique.is_none());
                    header.compressed_page_size =
                        if duckdb { page.body.len() } else { body.len() } as i32;
                    if chunk.crc {
                        header.crc = Some(crc32fast::hash(&body) as i32);
                    }
                    let mut header_bytes = Vec::new();
                    header.write_to(&mut header_bytes).unwrap();
                    out.extend_from_slice(&seal(true, &header_bytes));
                    out.extend_from_slice(&body);
                    if page.is_data() {
                        data_page_offset.get_or_insert(offset);
                        let n = header
                            .data_page_header
                            .as_ref()
                            .map(|h| h.num_values)
                            .or(header.data_page_header_v2.as_ref().map(|h| h.num_values))
                            .unwrap_or(0);
                        values += i64::from(n);
                        locations.push(thrift::PageLocation {
                            offset,
                            compressed_page_size: (out.len() as i64 - offset) as i32,
                            first_row_index: first_row,
                        });
                        first_row += i64::from(n);
                        data_pages += 1;
                    } else {
                        dictionary_page_offset = Some(offset);
                    }
                }
                let meta = thrift::ColumnMetaData {
                    type_: chunk.physical_type,
                    encodings: [Encoding::PLAIN, Encoding::RLE].into_iter().collect(),
                    path_in_schema: [Cow::Owned(format!("c{c}"))].into_iter().collect(),
                    codec: chunk.codec,
                    num_values: chunk.num_values.unwrap_or(values),
                    total_uncompressed_size: out.len() as i64 - start,
                    total_compressed_size: out.len() as i64 - start,
                    data_page_offset: data_page_offset.unwrap_or(start),
                    dictionary_page_offset,
                    statistics: chunk.statistics.clone(),
                    geospatial_statistics: chunk.geospatial.clone().map(Box::new),
                    ..thrift::ColumnMetaData::default()
                };
                if let Some(edit) = chunk.offset_index_edit {
                    edit(&mut locations);
                }
                indexes.push((
                    g,
                    c,
                    chunk.offset_index.then_some(locations),
                    chunk.column_index.clone(),
                ));
                columns.push(thrift::ColumnChunk {
                    file_offset: start,
                    meta_data: Some(meta),
                    // DuckDB says of no column that it is encrypted.
                    crypto_metadata: self
                        .encryption
                        .as_ref()
                        .filter(|e| e.aad_file_unique.is_some())
                        .map(|_| {
                            Box::new(thrift::ColumnCryptoMetaData::EncryptionWithFooterKey(
                                thrift::EncryptionWithFooterKey {},
                            ))
                        }),
                    ..thrift::ColumnChunk::default()
                });
            }
            row_groups.push(thrift::RowGroup {
                columns,
                total_byte_size: 0,
                num_rows: *rows,
                ..thrift::RowGroup::default()
            });
        }
        // The page indexes, after the data.
        for (g, c, offsets, column_index) in indexes {
            let chunk = &mut row_groups[g].columns[c];
            if let Some(locations) = offsets {
                let mut bytes = Vec::new();
                thrift::OffsetIndex {
                    page_locations: locations,
                    unencoded_byte_array_data_bytes: None,
                }
                .write_to(&mut bytes)
                .unwrap();
                chunk.offset_index_offset = Some(out.len() as i64);
                chunk.offset_index_length = Some(bytes.len() as i32);
                out.extend_from_slice(&bytes);
            }
            if let Some(index) = column_index {
                let mut bytes = Vec::new();
                index.write_to(&mut bytes).unwrap();
                chunk.column_index_offset = Some(out.len() as i64);
                chunk.column_index_length = Some(bytes.len() as i32);
                out.extend_from_slice(&bytes);
            }
        }
        let metadata = thrift::FileMetaData {
            version: 2,
            schema: self.schema.clone(),
            num_rows: self.row_groups.iter().map(|g| g.0).sum(),
            row_groups,
            created_by: self.created_by.map(Cow::Borrowed),
            ..thrift::FileMetaData::default()
        };
        let mut footer = Vec::new();
        metadata.write_to(&mut footer).unwrap();
        let footer = match &self.encryption {
            Some(e) => {
                let algorithm = thrift::AesGcmV1 {
                    aad_file_unique: e.aad_file_unique.clone().map(Cow::Owned),
                    ..thrift::AesGcmV1::default()
                };
                let crypto = thrift::FileCryptoMetaData {
                    encryption_algorithm: match e.algorithm {
                        Algorithm::AesGcmV1 => thrift::EncryptionAlgorithm::AesGcmV1(algorithm),
                        Algorithm::AesGcmCtrV1 => {
                            thrift::EncryptionAlgorithm::AesGcmCtrV1(thrift::AesGcmCtrV1 {
                                aad_prefix: algorithm.aad_prefix,
                                aad_file_unique: algorithm.aad_file_unique,
                                supply_aad_prefix: algorithm.supply_aad_prefix,
                            })
                        }
                    },
                    key_metadata: None,
                };
                let mut bytes = Vec::new();
                crypto.write_to(&mut bytes).unwrap();
                match &e.aad_file_unique {
                    Some(unique) => parquet_crypto::encrypt_footer(
                        &e.key,
                        &parquet_crypto::file_aad(b"", unique),
                        &footer,
                        &mut bytes,
                    ),
                    None => parquet_crypto::encrypt_footer_without_aad(&e.key, &footer, &mut bytes),
                }
                .unwrap();
                bytes
            }
            None => footer,
        };
        out.extend_from_slice(&footer);
        out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
        out.extend_from_slice(magic);
        out
    }
}
