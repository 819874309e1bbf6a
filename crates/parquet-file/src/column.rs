//! Column chunks decoded page by page into typed batches: values plus definition and
//! repetition levels.

use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
use parquet_dictionary::{
    ByteArrayDictionary, Dictionary, FixedLenByteArrayDictionary, IndexDecoder,
};
use parquet_plain::PlainType;
use parquet_thrift::{Encoding, PageLocation, Type};

use crate::error::{Context, Error, Result};
use crate::page::{DataPage, Levels, Page, PageReader, level_width, levels_error};
use crate::schema::ColumnDescriptor;

/// How many values a decoder appends per step: output grows with what the page actually
/// decodes to, never with the counts a header claims.
const STEP: usize = 64 * 1024;

/// The values of a column, typed by its physical type. Nulls have no entry: where the
/// values are is told by the definition levels.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnValues {
    /// BOOLEAN.
    Boolean(Vec<bool>),
    /// INT32.
    Int32(Vec<i32>),
    /// INT64.
    Int64(Vec<i64>),
    /// INT96.
    Int96(Vec<Int96>),
    /// FLOAT.
    Float(Vec<f32>),
    /// DOUBLE.
    Double(Vec<f64>),
    /// BYTE_ARRAY.
    ByteArray(ByteArrayBatch),
    /// FIXED_LEN_BYTE_ARRAY.
    FixedLenByteArray(FixedLenByteArrayBatch),
}

impl ColumnValues {
    /// Empty values for a column of `physical` type (`type_length` bytes for
    /// FIXED_LEN_BYTE_ARRAY).
    ///
    /// # Errors
    ///
    /// An unknown physical type.
    pub fn new(physical: Type, type_length: usize) -> Result<Self> {
        Ok(match physical {
            Type::BOOLEAN => Self::Boolean(Vec::new()),
            Type::INT32 => Self::Int32(Vec::new()),
            Type::INT64 => Self::Int64(Vec::new()),
            Type::INT96 => Self::Int96(Vec::new()),
            Type::FLOAT => Self::Float(Vec::new()),
            Type::DOUBLE => Self::Double(Vec::new()),
            Type::BYTE_ARRAY => Self::ByteArray(ByteArrayBatch::new()),
            Type::FIXED_LEN_BYTE_ARRAY => {
                Self::FixedLenByteArray(FixedLenByteArrayBatch::with_capacity(type_length, 0))
            }
            other => return Err(Error::unsupported(format!("physical type {}", other.0))),
        })
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Self::Boolean(v) => v.len(),
            Self::Int32(v) => v.len(),
            Self::Int64(v) => v.len(),
            Self::Int96(v) => v.len(),
            Self::Float(v) => v.len(),
            Self::Double(v) => v.len(),
            Self::ByteArray(v) => v.len(),
            Self::FixedLenByteArray(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes every value, keeping the memory.
    pub fn clear(&mut self) {
        match self {
            Self::Boolean(v) => v.clear(),
            Self::Int32(v) => v.clear(),
            Self::Int64(v) => v.clear(),
            Self::Int96(v) => v.clear(),
            Self::Float(v) => v.clear(),
            Self::Double(v) => v.clear(),
            Self::ByteArray(v) => v.clear(),
            Self::FixedLenByteArray(v) => v.clear(),
        }
    }
}

/// A batch of one column: its values, and its levels (empty when the column's largest
/// level is 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnBatch {
    /// The non-null values.
    pub values: ColumnValues,
    /// The definition levels, one per value or null (empty for required columns).
    pub def_levels: Vec<u16>,
    /// The repetition levels, one per value or null (empty for unrepeated columns).
    pub rep_levels: Vec<u16>,
    /// The number of level entries: values plus nulls (for a required, unrepeated column,
    /// the number of values).
    pub num_levels: usize,
}

impl ColumnBatch {
    /// An empty batch for `column`.
    ///
    /// # Errors
    ///
    /// An unknown physical type.
    pub fn new(column: &ColumnDescriptor) -> Result<Self> {
        Ok(Self {
            values: ColumnValues::new(column.physical_type, column.type_length)?,
            def_levels: Vec::new(),
            rep_levels: Vec::new(),
            num_levels: 0,
        })
    }

    /// Empties the batch, keeping its memory.
    pub fn clear(&mut self) {
        self.values.clear();
        self.def_levels.clear();
        self.rep_levels.clear();
        self.num_levels = 0;
    }
}

/// The dictionary of a column chunk.
#[derive(Debug)]
enum Dict {
    Int32(Dictionary<i32>),
    Int64(Dictionary<i64>),
    Int96(Dictionary<Int96>),
    Float(Dictionary<f32>),
    Double(Dictionary<f64>),
    ByteArray(ByteArrayDictionary),
    Fixed(FixedLenByteArrayDictionary),
}

/// Reads one column chunk, a data page at a time, into [`ColumnBatch`]es.
#[derive(Debug)]
pub struct ColumnChunkReader {
    pages: PageReader,
    column: ColumnDescriptor,
    dictionary: Option<Dict>,
    /// Whether the next data page must start a record: the chunk's first, and one found
    /// through the offset index.
    starts_record: bool,
}

impl ColumnChunkReader {
    pub(crate) fn new(pages: PageReader, column: ColumnDescriptor) -> Self {
        Self {
            pages,
            column,
            dictionary: None,
            starts_record: true,
        }
    }

    /// The column being read.
    pub fn column(&self) -> &ColumnDescriptor {
        &self.column
    }

    /// The page reader underneath.
    pub fn pages_mut(&mut self) -> &mut PageReader {
        &mut self.pages
    }

    /// Skips to a data page found through the offset index: the page at file offset
    /// `location.offset`, the chunk's `ordinal`th data page. The next
    /// [`read_page`](Self::read_page) decodes it. The dictionary page is read first
    /// when it has not been read yet.
    ///
    /// # Errors
    ///
    /// A dictionary page that does not read, or an offset outside the chunk.
    pub fn seek_page(&mut self, ordinal: usize, location: &PageLocation) -> Result<()> {
        if self.pages.dictionary_next()? {
            match self.pages.next_page()? {
                Some(Page::Dictionary {
                    data, num_values, ..
                }) => self.dictionary = Some(self.read_dictionary(&data, num_values)?),
                _ => {
                    return Err(Error::invalid(
                        "the chunk's first page is not its dictionary",
                    ));
                }
            }
        }
        let offset = u64::try_from(location.offset)
            .map_err(|_| Error::invalid(format!("negative page offset {}", location.offset)))?;
        self.pages.seek(offset, ordinal)?;
        // A page the offset index finds starts a record.
        self.starts_record = true;
        Ok(())
    }

    /// Decodes the next data page and appends its values and levels to `batch`. Returns
    /// the number of levels (values and nulls) appended, or `None` at the end of the
    /// chunk. After an error, `batch` may hold part of the failed page: clear it before
    /// reusing it.
    ///
    /// # Errors
    ///
    /// Any error reading the page (see [`PageReader::next_page`]), levels or values that
    /// do not decode or do not agree in number, a level above the column's maximum, a
    /// dictionary index out of range, or an encoding that does not fit the column.
    pub fn read_page(&mut self, batch: &mut ColumnBatch) -> Result<Option<usize>> {
        loop {
            let Some(page) = self.pages.next_page()? else {
                return Ok(None);
            };
            match page {
                Page::Dictionary {
                    data, num_values, ..
                } => {
                    self.dictionary = Some(self.read_dictionary(&data, num_values)?);
                }
                Page::Data(page) => {
                    let offset = page.offset;
                    return self.decode_page(&page, batch).at_offset(offset).map(Some);
                }
            }
        }
    }

    fn read_dictionary(&self, data: &[u8], num_values: usize) -> Result<Dict> {
        let c = &self.column;
        Ok(match c.physical_type {
            Type::INT32 => Dict::Int32(Dictionary::try_from_page(data, num_values)?),
            Type::INT64 => Dict::Int64(Dictionary::try_from_page(data, num_values)?),
            Type::INT96 => Dict::Int96(Dictionary::try_from_page(data, num_values)?),
            Type::FLOAT => Dict::Float(Dictionary::try_from_page(data, num_values)?),
            Type::DOUBLE => Dict::Double(Dictionary::try_from_page(data, num_values)?),
            Type::BYTE_ARRAY => {
                Dict::ByteArray(ByteArrayDictionary::try_from_page(data, num_values)?)
            }
            Type::FIXED_LEN_BYTE_ARRAY => Dict::Fixed(FixedLenByteArrayDictionary::try_from_page(
                data,
                c.type_length,
                num_values,
            )?),
            _ => return Err(Error::invalid("a dictionary page in a BOOLEAN column")),
        })
    }

    fn decode_page(&mut self, page: &DataPage, batch: &mut ColumnBatch) -> Result<usize> {
        let n = page.num_values;
        let c = &self.column;
        let start = batch.num_levels;
        let rep_start = batch.rep_levels.len();
        decode_levels(&page.rep_levels, c.max_rep_level, n, &mut batch.rep_levels)
            .map_err(|e| levels_error("repetition", &e))?;
        // The chunk starts a record, and so does every v2 page.
        if (self.starts_record || page.is_v2())
            && batch.rep_levels.get(rep_start).is_some_and(|&l| l != 0)
        {
            return Err(Error::invalid(format!(
                "the {} does not start at a record boundary: its first repetition level is not 0",
                if self.starts_record {
                    "column chunk (or page found through the offset index)"
                } else {
                    "data page v2"
                }
            )));
        }
        self.starts_record = false;
        let def_start = batch.def_levels.len();
        decode_levels(&page.def_levels, c.max_def_level, n, &mut batch.def_levels)
            .map_err(|e| levels_error("definition", &e))?;
        let non_null = if c.max_def_level == 0 {
            n
        } else {
            let max = c.max_def_level;
            batch.def_levels[def_start..]
                .iter()
                .filter(|&&l| l == max)
                .count()
        };
        if let Some(nulls) = page.num_nulls
            && nulls.checked_add(non_null) != Some(n)
        {
            return Err(Error::invalid(format!(
                "data page v2 says {nulls} of {n} values are null, its definition levels say {}",
                n - non_null
            )));
        }
        let before = batch.values.len();
        decode_values(
            page,
            non_null,
            self.dictionary.as_ref(),
            c,
            &mut batch.values,
        )?;
        debug_assert_eq!(batch.values.len(), before + non_null);
        batch.num_levels = start + n;
        Ok(n)
    }
}

/// Decodes `n` levels of at most `max` into `out` (nothing when `max` is 0).
fn decode_levels(levels: &Levels, max: u16, n: usize, out: &mut Vec<u16>) -> Result<()> {
    if max == 0 {
        return Ok(());
    }
    let width = level_width(max);
    let start = out.len();
    if levels.encoding == Encoding::BIT_PACKED {
        let mut decoder = parquet_bitpack::bit_packed::Decoder::try_new(&levels.data, width, n)?;
        fill(out, n, |chunk| decoder.decode(chunk))?;
    } else {
        let mut decoder = parquet_rle::Decoder::try_new(&levels.data, width)?;
        fill(out, n, |chunk| decoder.decode(chunk))?;
    }
    if let Some(&bad) = out[start..].iter().find(|&&l| l > max) {
        return Err(Error::invalid(format!(
            "level {bad} above the column's maximum {max}"
        )));
    }
    Ok(())
}

/// Appends exactly `n` values to `out` from `decode`, growing `out` a step at a time so
/// that its size follows what is decoded rather than what a header says.
fn fill<T: Default + Clone>(
    out: &mut Vec<T>,
    n: usize,
    mut decode: impl FnMut(&mut [T]) -> parquet_core::Result<usize>,
) -> Result<()> {
    let mut done = 0;
    while done < n {
        let step = (n - done).min(STEP);
        let start = out.len();
        out.resize(start + step, T::default());
        let got = decode(&mut out[start..])?;
        out.truncate(start + got);
        if got == 0 {
            return Err(Error::invalid(format!(
                "the page ends after {done} of its {n} values"
            )));
        }
        done += got;
    }
    Ok(())
}

/// As [`fill`], for batches that decoders append to themselves.
fn fill_batch(
    n: usize,
    mut decode: impl FnMut(usize) -> parquet_core::Result<usize>,
) -> Result<()> {
    let mut done = 0;
    while done < n {
        let got = decode((n - done).min(STEP))?;
        if got == 0 {
            return Err(Error::invalid(format!(
                "the page ends after {done} of its {n} values"
            )));
        }
        done += got;
    }
    Ok(())
}

fn unsupported(encoding: Encoding, column: &ColumnDescriptor) -> Error {
    Error::invalid(format!(
        "encoding {} for a {} column",
        encoding
            .name()
            .map_or_else(|| encoding.0.to_string(), str::to_owned),
        column.physical_type.name().unwrap_or("?")
    ))
}

fn plain<T: PlainType + Default + Clone>(data: &[u8], n: usize, out: &mut Vec<T>) -> Result<()> {
    let mut decoder = parquet_plain::Decoder::<T>::try_new(data, n)?;
    fill(out, n, |chunk| decoder.decode(chunk))
}

fn gather<T: Copy + Default>(
    data: &[u8],
    n: usize,
    dict: Option<&Dictionary<T>>,
    out: &mut Vec<T>,
) -> Result<()> {
    let dict =
        dict.ok_or_else(|| Error::invalid("dictionary-encoded page without a dictionary page"))?;
    let mut decoder = IndexDecoder::try_new(data)?;
    fill(out, n, |chunk| decoder.gather(dict, chunk))
}

fn bss<T: parquet_core::FixedWidth + Default + Clone>(
    data: &[u8],
    n: usize,
    out: &mut Vec<T>,
) -> Result<()> {
    let mut decoder = parquet_byte_stream_split::Decoder::try_new(data, size_of::<T>())?;
    if decoder.remaining() != n {
        return Err(Error::invalid(format!(
            "BYTE_STREAM_SPLIT data holds {} values, the levels say {n}",
            decoder.remaining()
        )));
    }
    fill(out, n, |chunk| decoder.decode(chunk))
}

fn delta<T>(data: &[u8], n: usize, out: &mut Vec<T>) -> Result<()>
where
    T: parquet_delta::binary_packed::Integer + Default + Clone,
{
    let mut decoder = parquet_delta::binary_packed::Decoder::<T>::try_new(data)?;
    fill(out, n, |chunk| decoder.decode(chunk))
}

macro_rules! fixed {
    ($values:ident, $page:ident, $n:ident, $dict:ident, $column:ident, $variant:ident, [$($extra:tt)*]) => {{
        let data = &$page.values[..];
        let dict = match $dict {
            Some(Dict::$variant(d)) => Some(d),
            _ => None,
        };
        match $page.encoding {
            Encoding::PLAIN => plain(data, $n, $values),
            Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => gather(data, $n, dict, $values),
            $($extra)*
            other => Err(unsupported(other, $column)),
        }
    }};
}

fn decode_values(
    page: &DataPage,
    n: usize,
    dict: Option<&Dict>,
    column: &ColumnDescriptor,
    values: &mut ColumnValues,
) -> Result<()> {
    let data = &page.values[..];
    match values {
        ColumnValues::Boolean(out) => match page.encoding {
            Encoding::PLAIN => plain(data, n, out),
            Encoding::RLE => {
                let (mut decoder, _) = parquet_rle::Decoder::try_new_length_prefixed(data, 1)?;
                fill(out, n, |chunk| decoder.decode_bools(chunk))
            }
            other => Err(unsupported(other, column)),
        },
        ColumnValues::Int32(out) => fixed!(out, page, n, dict, column, Int32, [
            Encoding::DELTA_BINARY_PACKED => delta(data, n, out),
            Encoding::BYTE_STREAM_SPLIT => bss(data, n, out),
        ]),
        ColumnValues::Int64(out) => fixed!(out, page, n, dict, column, Int64, [
            Encoding::DELTA_BINARY_PACKED => delta(data, n, out),
            Encoding::BYTE_STREAM_SPLIT => bss(data, n, out),
        ]),
        ColumnValues::Int96(out) => fixed!(out, page, n, dict, column, Int96, []),
        ColumnValues::Float(out) => fixed!(out, page, n, dict, column, Float, [
            Encoding::BYTE_STREAM_SPLIT => bss(data, n, out),
        ]),
        ColumnValues::Double(out) => fixed!(out, page, n, dict, column, Double, [
            Encoding::BYTE_STREAM_SPLIT => bss(data, n, out),
        ]),
        ColumnValues::ByteArray(out) => match page.encoding {
            Encoding::PLAIN => {
                let mut decoder = parquet_plain::byte_array::Decoder::try_new(data, n)?;
                fill_batch(n, |max| decoder.decode(out, max))
            }
            Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => {
                let Some(Dict::ByteArray(dict)) = dict else {
                    return Err(Error::invalid(
                        "dictionary-encoded page without a dictionary page",
                    ));
                };
                let mut decoder = IndexDecoder::try_new(data)?;
                fill_batch(n, |max| decoder.gather_byte_arrays(dict, out, max))
            }
            Encoding::DELTA_LENGTH_BYTE_ARRAY => {
                let mut decoder = parquet_delta::length_byte_array::Decoder::try_new(data)?;
                fill_batch(n, |max| decoder.decode(out, max))
            }
            Encoding::DELTA_BYTE_ARRAY => {
                let mut decoder = parquet_delta::byte_array::Decoder::try_new(data)?;
                fill_batch(n, |max| decoder.decode(out, max))
            }
            other => Err(unsupported(other, column)),
        },
        ColumnValues::FixedLenByteArray(out) => match page.encoding {
            Encoding::PLAIN => {
                let mut decoder = parquet_plain::fixed_len_byte_array::Decoder::try_new(
                    data,
                    column.type_length,
                    n,
                )?;
                fill_batch(n, |max| decoder.decode(out, max))
            }
            Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => {
                let Some(Dict::Fixed(dict)) = dict else {
                    return Err(Error::invalid(
                        "dictionary-encoded page without a dictionary page",
                    ));
                };
                let mut decoder = IndexDecoder::try_new(data)?;
                fill_batch(n, |max| decoder.gather_fixed_len(dict, out, max))
            }
            Encoding::DELTA_BYTE_ARRAY => {
                let mut decoder = parquet_delta::byte_array::Decoder::try_new(data)?;
                fill_batch(n, |max| decoder.decode_fixed(out, max))
            }
            Encoding::BYTE_STREAM_SPLIT => {
                let mut decoder =
                    parquet_byte_stream_split::Decoder::try_new(data, column.type_length)?;
                fill_batch(n, |max| decoder.decode_batch(out, max))
            }
            other => Err(unsupported(other, column)),
        },
    }
}
