//! The decoders of one data page, kept between calls so that a page is read in batches
//! the caller sizes: the level decoders and the value decoder, borrowing the page's bytes,
//! which the [`PageCursor`] owns beside them.

use std::sync::Arc;

use parquet_core::{FixedWidth, Int96, PhysicalType};
use parquet_delta::binary_packed::Integer;
use parquet_dictionary::{
    ByteArrayDictionary, Dictionary, FixedLenByteArrayDictionary, IndexDecoder,
};
use parquet_plain::PlainType;

use super::Kept;
use crate::error::{Decoding as _, Error, Result};
use crate::metadata::Encoding;
use crate::page::{DataPage, Levels, level_width};
use crate::schema::ColumnDescriptor;
use crate::value::ColumnValues;

/// How many values a decoder appends per step: output grows with what the page actually
/// decodes to, never with the counts a header claims.
pub(crate) const STEP: usize = 64 * 1024;

/// The dictionary of a column chunk.
#[derive(Debug)]
pub(crate) enum Dict {
    Int32(Dictionary<i32>),
    Int64(Dictionary<i64>),
    Int96(Dictionary<Int96>),
    Float(Dictionary<f32>),
    Double(Dictionary<f64>),
    /// Shared with the batches that keep indices into it.
    ByteArray(Arc<ByteArrayDictionary>),
    Fixed(FixedLenByteArrayDictionary),
}

/// A fixed-width value type a dictionary can hold.
pub(crate) trait DictValue: Copy + Sized {
    /// The dictionary, when it holds values of this type.
    fn of(dict: &Dict) -> Option<&Dictionary<Self>>;
}

macro_rules! dict_values {
    ($($ty:ty => $variant:ident,)*) => {$(
        impl DictValue for $ty {
            fn of(dict: &Dict) -> Option<&Dictionary<Self>> {
                match dict {
                    Dict::$variant(d) => Some(d),
                    _ => None,
                }
            }
        }
    )*};
}

dict_values! {
    i32 => Int32,
    i64 => Int64,
    Int96 => Int96,
    f32 => Float,
    f64 => Double,
}

/// The dictionary a dictionary-encoded page needs.
fn dictionary<T: DictValue>(dict: Option<&Dict>) -> Result<&Dictionary<T>> {
    dict.and_then(T::of)
        .ok_or_else(|| Error::malformed("a dictionary-encoded page without a dictionary page"))
}

impl Dict {
    /// The dictionary of a dictionary page's entries.
    pub(crate) fn read(column: &ColumnDescriptor, data: &[u8], num_values: usize) -> Result<Self> {
        let what = "dictionary page";
        Ok(match column.physical_type {
            PhysicalType::Int32 => {
                Self::Int32(Dictionary::try_from_page(data, num_values).decoding(what)?)
            }
            PhysicalType::Int64 => {
                Self::Int64(Dictionary::try_from_page(data, num_values).decoding(what)?)
            }
            PhysicalType::Int96 => {
                Self::Int96(Dictionary::try_from_page(data, num_values).decoding(what)?)
            }
            PhysicalType::Float => {
                Self::Float(Dictionary::try_from_page(data, num_values).decoding(what)?)
            }
            PhysicalType::Double => {
                Self::Double(Dictionary::try_from_page(data, num_values).decoding(what)?)
            }
            PhysicalType::ByteArray => Self::ByteArray(Arc::new(
                ByteArrayDictionary::try_from_page(data, num_values).decoding(what)?,
            )),
            PhysicalType::FixedLenByteArray => Self::Fixed(
                FixedLenByteArrayDictionary::try_from_page(data, column.type_length, num_values)
                    .decoding(what)?,
            ),
            PhysicalType::Boolean => {
                return Err(Error::malformed("a dictionary page in a BOOLEAN column"));
            }
        })
    }
}

/// Which levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LevelKind {
    Repetition,
    Definition,
}

impl LevelKind {
    /// What a decoding error is in.
    const fn what(self) -> &'static str {
        match self {
            Self::Repetition => "repetition levels",
            Self::Definition => "definition levels",
        }
    }

    /// What a level above the column's maximum is.
    const fn above(self) -> &'static str {
        match self {
            Self::Repetition => "repetition level, above the column's maximum",
            Self::Definition => "definition level, above the column's maximum",
        }
    }
}

/// The levels of a page, encoded.
enum Encoded<'a> {
    /// The column has no such levels (its maximum is 0): every level is 0.
    None,
    Rle(parquet_rle::Decoder<'a>),
    BitPacked(parquet_bitpack::bit_packed::Decoder<'a>),
}

/// The decoder of one kind of levels of a page, checking each level against the column's
/// maximum.
pub(crate) struct LevelDecoder<'a> {
    kind: LevelKind,
    max: u16,
    levels: Encoded<'a>,
}

impl<'a> LevelDecoder<'a> {
    fn try_new(levels: &'a Levels, kind: LevelKind, max: u16, num_values: usize) -> Result<Self> {
        let what = kind.what();
        let width = level_width(max);
        let levels = if max == 0 {
            Encoded::None
        } else if levels.encoding == Encoding::BitPacked {
            Encoded::BitPacked(
                parquet_bitpack::bit_packed::Decoder::try_new(&levels.data, width, num_values)
                    .decoding(what)?,
            )
        } else {
            Encoded::Rle(parquet_rle::Decoder::try_new(&levels.data, width).decoding(what)?)
        };
        Ok(Self { kind, max, levels })
    }

    /// Appends exactly `n` levels to `out` (none for a column without such levels) and
    /// returns how many equal the maximum (the non-null entries of definition levels: all
    /// `n` for a column without them).
    fn decode(&mut self, out: &mut Vec<u16>, n: usize) -> Result<usize> {
        let (start, what) = (out.len(), self.kind.what());
        match &mut self.levels {
            Encoded::None => return Ok(n),
            Encoded::Rle(d) => fill(out, n, what, |chunk| d.decode(chunk))?,
            Encoded::BitPacked(d) => fill(out, n, what, |chunk| d.decode(chunk))?,
        }
        // Passes the compiler vectorises: the highest level (the one at fault found only
        // on error), and the levels at the maximum.
        let (max, new) = (self.max, out.get(start..).unwrap_or_default());
        if new.iter().copied().max().is_some_and(|l| l > max)
            && let Some(&bad) = new.iter().find(|&&l| l > max)
        {
            return Err(Error::invalid(self.kind.above(), bad.into()));
        }
        Ok(new.iter().filter(|&&l| l == max).count())
    }

    /// Consumes exactly `n` levels and returns how many equal the maximum (the non-null
    /// entries of definition levels); in time proportional to the runs, not the levels,
    /// for RLE.
    fn count_max(&mut self, n: usize) -> Result<usize> {
        let (max, what) = (self.max, self.kind.what());
        let mut count = 0;
        let mut above = None;
        let got = match &mut self.levels {
            Encoded::None => return Ok(n),
            Encoded::Rle(d) => d
                .for_each_run(n, |run| {
                    let mut tally = |value: u32, len: usize| match u16::try_from(value) {
                        Ok(v) if v == max => count += len,
                        Ok(v) if v < max => {}
                        _ => above = Some(value),
                    };
                    match run {
                        parquet_rle::Run::Repeated { value, len } => tally(value, len),
                        parquet_rle::Run::Packed(values) => {
                            for &v in values {
                                tally(v, 1);
                            }
                        }
                    }
                    Ok(())
                })
                .decoding(what)?,
            Encoded::BitPacked(d) => {
                let mut scratch = vec![0_u16; n.min(STEP)];
                let mut done = 0;
                while done < n {
                    let step = (n - done).min(STEP);
                    let chunk = scratch.get_mut(..step).unwrap_or_default();
                    let got = d.decode(chunk).decoding(what)?;
                    for &v in chunk.get(..got).unwrap_or_default() {
                        match v.cmp(&max) {
                            std::cmp::Ordering::Equal => count += 1,
                            std::cmp::Ordering::Greater => above = Some(v.into()),
                            std::cmp::Ordering::Less => {}
                        }
                    }
                    done += got;
                    if got == 0 {
                        break;
                    }
                }
                done
            }
        };
        if let Some(bad) = above {
            return Err(Error::invalid(self.kind.above(), bad.into()));
        }
        if got == n {
            Ok(count)
        } else {
            Err(Error::mismatch(what, n as u64, got as u64))
        }
    }
}

/// Appends exactly `n` values to `out` from `decode`, growing `out` a step at a time so
/// that its size follows what is decoded rather than what a header says.
pub(crate) fn fill<T: Default + Clone>(
    out: &mut Vec<T>,
    n: usize,
    what: &'static str,
    mut decode: impl FnMut(&mut [T]) -> parquet_core::Result<usize>,
) -> Result<()> {
    let mut done = 0;
    while done < n {
        let step = (n - done).min(STEP);
        let start = out.len();
        out.resize(start + step, T::default());
        let got = decode(out.get_mut(start..).unwrap_or_default()).decoding(what)?;
        out.truncate(start + got);
        if got == 0 {
            return Err(Error::mismatch(what, n as u64, done as u64));
        }
        done += got;
    }
    Ok(())
}

/// As [`fill`], for batches that decoders append to themselves.
fn fill_batch(
    n: usize,
    what: &'static str,
    mut decode: impl FnMut(usize) -> parquet_core::Result<usize>,
) -> Result<()> {
    let mut done = 0;
    while done < n {
        let got = decode((n - done).min(STEP)).decoding(what)?;
        if got == 0 {
            return Err(Error::mismatch(what, n as u64, done as u64));
        }
        done += got;
    }
    Ok(())
}

/// Skips exactly `n` values with `skip`.
fn skip_exactly(
    n: usize,
    what: &'static str,
    mut skip: impl FnMut(usize) -> parquet_core::Result<usize>,
) -> Result<()> {
    let got = skip(n).decoding(what)?;
    if got == n {
        Ok(())
    } else {
        Err(Error::mismatch(what, n as u64, got as u64))
    }
}

/// A value decoder of a fixed-width integer column.
#[allow(clippy::large_enum_variant)] // one per page, in the page's cursor on the heap
pub(crate) enum Ints<'a, T: PlainType + Integer> {
    Plain(parquet_plain::Decoder<'a, T>),
    Dict(IndexDecoder<'a>),
    Delta(parquet_delta::binary_packed::Decoder<'a, T>),
    Split(parquet_byte_stream_split::Decoder<'a>),
}

/// A value decoder of a floating-point column (or INT96, which has no split).
pub(crate) enum Floats<'a, T: PlainType> {
    Plain(parquet_plain::Decoder<'a, T>),
    Dict(IndexDecoder<'a>),
    Split(parquet_byte_stream_split::Decoder<'a>),
}

/// The value decoder of a page.
#[allow(clippy::large_enum_variant)] // one per page, in the page's cursor on the heap
pub(crate) enum ValueDecoder<'a> {
    BoolPlain(parquet_plain::Decoder<'a, bool>),
    BoolRle(parquet_rle::Decoder<'a>),
    Int32(Ints<'a, i32>),
    Int64(Ints<'a, i64>),
    Int96(Floats<'a, Int96>),
    Float(Floats<'a, f32>),
    Double(Floats<'a, f64>),
    BytesPlain(parquet_plain::byte_array::Decoder<'a>),
    BytesDict(IndexDecoder<'a>),
    BytesDeltaLength(parquet_delta::length_byte_array::Decoder<'a>),
    BytesDelta(parquet_delta::byte_array::Decoder<'a>),
    FixedPlain(parquet_plain::fixed_len_byte_array::Decoder<'a>),
    FixedDict(IndexDecoder<'a>),
    FixedDelta(parquet_delta::byte_array::Decoder<'a>),
    FixedSplit(parquet_byte_stream_split::Decoder<'a>),
}

const WHAT: &str = "page values";

fn unsupported(encoding: Encoding) -> Error {
    Error::unsupported(
        "encoding for the column's physical type",
        match encoding {
            Encoding::Unknown(n) => Some(n.into()),
            // The numbers of parquet.thrift.
            known => Some(known.to_thrift().0.into()),
        },
    )
}

fn plain<T: PlainType>(data: &[u8], size: usize) -> Result<parquet_plain::Decoder<'_, T>> {
    // As many values as the data holds: the levels say how many are read.
    parquet_plain::Decoder::try_new(data, data.len() / size).decoding(WHAT)
}

fn split(data: &[u8], width: usize) -> Result<parquet_byte_stream_split::Decoder<'_>> {
    parquet_byte_stream_split::Decoder::try_new(data, width).decoding(WHAT)
}

fn index(data: &[u8]) -> Result<IndexDecoder<'_>> {
    IndexDecoder::try_new(data).decoding(WHAT)
}

impl<'a> ValueDecoder<'a> {
    /// The decoder of `page`'s values, for a column of `column`'s type.
    fn try_new(page: &'a DataPage, column: &ColumnDescriptor) -> Result<Self> {
        use Encoding as E;
        let data = &page.values[..];
        let encoding = page.encoding;
        let dict = matches!(encoding, E::PlainDictionary | E::RleDictionary);
        Ok(match column.physical_type {
            PhysicalType::Boolean => match encoding {
                E::Plain => Self::BoolPlain(
                    parquet_plain::Decoder::try_new(
                        data,
                        page.num_values.min(data.len().saturating_mul(8)),
                    )
                    .decoding(WHAT)?,
                ),
                E::Rle => Self::BoolRle(
                    parquet_rle::Decoder::try_new_length_prefixed(data, 1)
                        .decoding(WHAT)?
                        .0,
                ),
                other => return Err(unsupported(other)),
            },
            PhysicalType::Int32 => Self::Int32(match encoding {
                E::Plain => Ints::Plain(plain(data, 4)?),
                _ if dict => Ints::Dict(index(data)?),
                E::DeltaBinaryPacked => Ints::Delta(
                    parquet_delta::binary_packed::Decoder::try_new(data).decoding(WHAT)?,
                ),
                E::ByteStreamSplit => Ints::Split(split(data, 4)?),
                other => return Err(unsupported(other)),
            }),
            PhysicalType::Int64 => Self::Int64(match encoding {
                E::Plain => Ints::Plain(plain(data, 8)?),
                _ if dict => Ints::Dict(index(data)?),
                E::DeltaBinaryPacked => Ints::Delta(
                    parquet_delta::binary_packed::Decoder::try_new(data).decoding(WHAT)?,
                ),
                E::ByteStreamSplit => Ints::Split(split(data, 8)?),
                other => return Err(unsupported(other)),
            }),
            PhysicalType::Int96 => Self::Int96(match encoding {
                E::Plain => Floats::Plain(plain(data, 12)?),
                _ if dict => Floats::Dict(index(data)?),
                other => return Err(unsupported(other)),
            }),
            PhysicalType::Float => Self::Float(match encoding {
                E::Plain => Floats::Plain(plain(data, 4)?),
                _ if dict => Floats::Dict(index(data)?),
                E::ByteStreamSplit => Floats::Split(split(data, 4)?),
                other => return Err(unsupported(other)),
            }),
            PhysicalType::Double => Self::Double(match encoding {
                E::Plain => Floats::Plain(plain(data, 8)?),
                _ if dict => Floats::Dict(index(data)?),
                E::ByteStreamSplit => Floats::Split(split(data, 8)?),
                other => return Err(unsupported(other)),
            }),
            PhysicalType::ByteArray => match encoding {
                E::Plain => Self::BytesPlain(
                    parquet_plain::byte_array::Decoder::try_new(
                        data,
                        page.num_values.min(data.len() / 4),
                    )
                    .decoding(WHAT)?,
                ),
                _ if dict => Self::BytesDict(index(data)?),
                E::DeltaLengthByteArray => Self::BytesDeltaLength(
                    parquet_delta::length_byte_array::Decoder::try_new(data).decoding(WHAT)?,
                ),
                E::DeltaByteArray => Self::BytesDelta(
                    parquet_delta::byte_array::Decoder::try_new(data).decoding(WHAT)?,
                ),
                other => return Err(unsupported(other)),
            },
            PhysicalType::FixedLenByteArray => match encoding {
                E::Plain => Self::FixedPlain(
                    parquet_plain::fixed_len_byte_array::Decoder::try_new(
                        data,
                        column.type_length,
                        data.len().checked_div(column.type_length).unwrap_or(0),
                    )
                    .decoding(WHAT)?,
                ),
                _ if dict => Self::FixedDict(index(data)?),
                E::DeltaByteArray => Self::FixedDelta(
                    parquet_delta::byte_array::Decoder::try_new(data).decoding(WHAT)?,
                ),
                E::ByteStreamSplit => Self::FixedSplit(split(data, column.type_length)?),
                other => return Err(unsupported(other)),
            },
        })
    }

    /// Values left to decode, for the encodings whose count the data fixes
    /// (BYTE_STREAM_SPLIT, where the count sets the streams' stride).
    fn split_remaining(&self) -> Option<usize> {
        match self {
            Self::Int32(Ints::Split(d))
            | Self::Int64(Ints::Split(d))
            | Self::Float(Floats::Split(d))
            | Self::Double(Floats::Split(d))
            | Self::FixedSplit(d) => Some(d.remaining()),
            _ => None,
        }
    }

    /// Appends exactly `n` values to `out`, looking dictionary indices up in `dict`, or
    /// their indices to `kept` when it takes them.
    fn decode(
        &mut self,
        n: usize,
        dict: Option<&Dict>,
        out: &mut ColumnValues,
        kept: &mut Kept,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        if kept.keep || kept.dictionary.is_some() {
            if let (Self::BytesDict(d), Some(Dict::ByteArray(dict))) = (&mut *self, dict)
                && kept.accepts(dict, out)
            {
                return kept.decode(dict, n, WHAT, |c| d.decode_indices(c));
            }
            kept.materialise(out)?;
        }
        let no_dict = || Error::malformed("a dictionary-encoded page without a dictionary page");
        match (self, out) {
            (Self::BoolPlain(d), ColumnValues::Boolean(out)) => fill(out, n, WHAT, |c| d.decode(c)),
            (Self::BoolRle(d), ColumnValues::Boolean(out)) => {
                fill(out, n, WHAT, |c| d.decode_bools(c))
            }
            (Self::Int32(d), ColumnValues::Int32(out)) => d.decode(n, dict, out),
            (Self::Int64(d), ColumnValues::Int64(out)) => d.decode(n, dict, out),
            (Self::Int96(d), ColumnValues::Int96(out)) => d.decode(n, dict, out),
            (Self::Float(d), ColumnValues::Float(out)) => d.decode(n, dict, out),
            (Self::Double(d), ColumnValues::Double(out)) => d.decode(n, dict, out),
            (Self::BytesPlain(d), ColumnValues::ByteArray(out)) => {
                fill_batch(n, WHAT, |max| d.decode(out, max))
            }
            (Self::BytesDict(d), ColumnValues::ByteArray(out)) => {
                let Some(Dict::ByteArray(dict)) = dict else {
                    return Err(no_dict());
                };
                fill_batch(n, WHAT, |max| d.gather_byte_arrays(dict, out, max))
            }
            (Self::BytesDeltaLength(d), ColumnValues::ByteArray(out)) => {
                fill_batch(n, WHAT, |max| d.decode(out, max))
            }
            (Self::BytesDelta(d), ColumnValues::ByteArray(out)) => {
                fill_batch(n, WHAT, |max| d.decode(out, max))
            }
            (Self::FixedPlain(d), ColumnValues::FixedLenByteArray(out)) => {
                fill_batch(n, WHAT, |max| d.decode(out, max))
            }
            (Self::FixedDict(d), ColumnValues::FixedLenByteArray(out)) => {
                let Some(Dict::Fixed(dict)) = dict else {
                    return Err(no_dict());
                };
                fill_batch(n, WHAT, |max| d.gather_fixed_len(dict, out, max))
            }
            (Self::FixedDelta(d), ColumnValues::FixedLenByteArray(out)) => {
                fill_batch(n, WHAT, |max| d.decode_fixed(out, max))
            }
            (Self::FixedSplit(d), ColumnValues::FixedLenByteArray(out)) => {
                fill_batch(n, WHAT, |max| d.decode_batch(out, max))
            }
            _ => Err(Error::malformed(
                "a batch of another physical type than the column's",
            )),
        }
    }

    /// Skips exactly `n` values.
    fn skip(&mut self, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        match self {
            Self::BoolPlain(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::BoolRle(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::Int32(d) => d.skip(n),
            Self::Int64(d) => d.skip(n),
            Self::Int96(d) => d.skip(n),
            Self::Float(d) => d.skip(n),
            Self::Double(d) => d.skip(n),
            Self::BytesPlain(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::BytesDict(d) | Self::FixedDict(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::BytesDeltaLength(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::BytesDelta(d) | Self::FixedDelta(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::FixedPlain(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::FixedSplit(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
        }
    }
}

impl<T: PlainType + Integer + FixedWidth + DictValue> Ints<'_, T> {
    fn decode(&mut self, n: usize, dict: Option<&Dict>, out: &mut Vec<T>) -> Result<()> {
        match self {
            Self::Plain(d) => fill_batch(n, WHAT, |max| d.decode_extend(out, max)),
            Self::Dict(d) => {
                let dict = dictionary(dict)?;
                fill(out, n, WHAT, |c| d.gather(dict, c))
            }
            Self::Delta(d) => fill(out, n, WHAT, |c| d.decode(c)),
            Self::Split(d) => fill(out, n, WHAT, |c| d.decode(c)),
        }
    }

    fn skip(&mut self, n: usize) -> Result<()> {
        match self {
            Self::Plain(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::Dict(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::Delta(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::Split(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
        }
    }
}

impl<T: PlainType + FixedWidth + DictValue> Floats<'_, T> {
    fn decode(&mut self, n: usize, dict: Option<&Dict>, out: &mut Vec<T>) -> Result<()> {
        match self {
            Self::Plain(d) => fill_batch(n, WHAT, |max| d.decode_extend(out, max)),
            Self::Dict(d) => {
                let dict = dictionary(dict)?;
                fill(out, n, WHAT, |c| d.gather(dict, c))
            }
            Self::Split(d) => fill(out, n, WHAT, |c| d.decode(c)),
        }
    }

    fn skip(&mut self, n: usize) -> Result<()> {
        match self {
            Self::Plain(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::Dict(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
            Self::Split(d) => skip_exactly(n, WHAT, |n| d.skip(n)),
        }
    }
}

/// The decoders of a data page, and levels decoded ahead of the values (for repeated
/// columns, to find where records end).
pub(crate) struct Decoders<'a> {
    rep: LevelDecoder<'a>,
    def: LevelDecoder<'a>,
    values: ValueDecoder<'a>,
    /// Level entries not yet decoded.
    levels_left: usize,
    /// Levels decoded but not yet consumed, from `ahead_pos` on (repeated columns only).
    rep_ahead: Vec<u16>,
    def_ahead: Vec<u16>,
    ahead_pos: usize,
    /// Nulls counted so far, for the v2 header's check.
    nulls: usize,
}

self_cell::self_cell!(
    /// A data page and its decoders.
    pub(crate) struct PageCursor {
        owner: DataPage,
        #[not_covariant]
        dependent: Decoders,
    }
);

/// Where a read within a page stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Before a record that was not asked for (the page has more).
    Boundary,
    /// At the end of the page.
    PageEnd,
}

/// What reading or skipping within a page did.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Progress {
    /// Records started.
    pub(crate) records: usize,
    /// Level entries consumed.
    pub(crate) levels: usize,
    pub(crate) stop: Stop,
}

/// The size of the record being read, across pages, against its limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RecordSize {
    /// Level entries of the record so far.
    pub(crate) values: usize,
    /// The most a record may have.
    pub(crate) max: usize,
}

/// The column's levels and values, and where to put them.
pub(crate) struct Target<'b> {
    pub(crate) rep: &'b mut Vec<u16>,
    pub(crate) def: &'b mut Vec<u16>,
    pub(crate) values: &'b mut ColumnValues,
    pub(crate) kept: &'b mut Kept,
}

impl PageCursor {
    /// The cursor of `page`, for `column`.
    pub(crate) fn open(page: DataPage, column: &ColumnDescriptor) -> Result<Self> {
        Self::try_new(page, |page| {
            let n = page.num_values;
            let values = ValueDecoder::try_new(page, column)?;
            if let (Some(held), Some(nulls)) = (values.split_remaining(), page.num_nulls)
                && n.checked_sub(nulls) != Some(held)
            {
                return Err(Error::mismatch(
                    "BYTE_STREAM_SPLIT values of a data page v2, by its header",
                    n.saturating_sub(nulls) as u64,
                    held as u64,
                ));
            }
            Ok(Decoders {
                rep: LevelDecoder::try_new(
                    &page.rep_levels,
                    LevelKind::Repetition,
                    column.max_rep_level,
                    n,
                )?,
                def: LevelDecoder::try_new(
                    &page.def_levels,
                    LevelKind::Definition,
                    column.max_def_level,
                    n,
                )?,
                values,
                levels_left: n,
                rep_ahead: Vec::new(),
                def_ahead: Vec::new(),
                ahead_pos: 0,
                nulls: 0,
            })
        })
    }

    /// The page.
    pub(crate) fn page(&self) -> &DataPage {
        self.borrow_owner()
    }

    /// The repetition level of the next entry, when there is one (decoding ahead).
    pub(crate) fn peek_rep(&mut self) -> Result<Option<u16>> {
        self.with_dependent_mut(|_, d| {
            if d.ahead_pos == d.rep_ahead.len() && !d.refill()? {
                return Ok(None);
            }
            Ok(d.rep_ahead.get(d.ahead_pos).copied())
        })
    }

    /// Reads up to `max_records` records into `out` (when given; skips them otherwise),
    /// stopping before a record past `max_records`, or after `budget` level entries at
    /// a record's end, or at the page's end.
    #[allow(clippy::too_many_arguments)] // the reader's state, passed down
    pub(crate) fn read(
        &mut self,
        column: &ColumnDescriptor,
        dict: Option<&Dict>,
        max_records: usize,
        budget: usize,
        record: &mut RecordSize,
        out: Option<Target<'_>>,
    ) -> Result<Progress> {
        self.with_dependent_mut(|page, d| {
            let progress = if column.max_rep_level == 0 {
                d.read_flat(dict, max_records, out)?
            } else {
                d.read_repeated(column, dict, max_records, budget, record, out)?
            };
            if progress.stop == Stop::PageEnd
                && let Some(nulls) = page.num_nulls
                && nulls != d.nulls
            {
                return Err(Error::mismatch(
                    "nulls of a data page v2, by its header",
                    nulls as u64,
                    d.nulls as u64,
                ));
            }
            if progress.stop == Stop::PageEnd
                && let Some(held) = d.values.split_remaining()
                && held != 0
            {
                return Err(Error::mismatch(
                    "BYTE_STREAM_SPLIT values left at the end of the page",
                    0,
                    held as u64,
                ));
            }
            Ok(progress)
        })
    }
}

impl Decoders<'_> {
    /// Non-null entries among `def` (all of them for a required column).
    fn non_null(def: &[u16], n: usize, max_def: u16) -> usize {
        if max_def == 0 {
            n
        } else {
            def.iter().filter(|&&l| l == max_def).count()
        }
    }

    /// An unrepeated column: one record per level entry.
    fn read_flat(
        &mut self,
        dict: Option<&Dict>,
        max_records: usize,
        out: Option<Target<'_>>,
    ) -> Result<Progress> {
        let n = max_records.min(self.levels_left);
        let non_null = if let Some(out) = out {
            let non_null = self.def.decode(out.def, n)?;
            self.values.decode(non_null, dict, out.values, out.kept)?;
            non_null
        } else {
            let non_null = self.def.count_max(n)?;
            self.values.skip(non_null)?;
            non_null
        };
        self.nulls += n - non_null;
        self.levels_left -= n;
        Ok(Progress {
            records: n,
            levels: n,
            stop: if self.levels_left == 0 {
                Stop::PageEnd
            } else {
                Stop::Boundary
            },
        })
    }

    /// Decodes the next step of levels ahead; false at the page's end.
    fn refill(&mut self) -> Result<bool> {
        if self.levels_left == 0 {
            return Ok(false);
        }
        let n = self.levels_left.min(STEP);
        self.rep_ahead.clear();
        self.def_ahead.clear();
        self.ahead_pos = 0;
        self.rep.decode(&mut self.rep_ahead, n)?;
        // A repeated column has definition levels too: its repeated field counts in them.
        self.def.decode(&mut self.def_ahead, n)?;
        self.levels_left -= n;
        Ok(true)
    }

    /// A repeated column: records end where a repetition level of 0 starts the next.
    fn read_repeated(
        &mut self,
        column: &ColumnDescriptor,
        dict: Option<&Dict>,
        max_records: usize,
        budget: usize,
        record: &mut RecordSize,
        mut out: Option<Target<'_>>,
    ) -> Result<Progress> {
        let max_def = column.max_def_level;
        let mut records = 0;
        let mut levels = 0;
        loop {
            if self.ahead_pos == self.rep_ahead.len() && !self.refill()? {
                return Ok(Progress {
                    records,
                    levels,
                    stop: Stop::PageEnd,
                });
            }
            let start = self.ahead_pos;
            let rep = self.rep_ahead.get(start..).unwrap_or_default();
            let mut end = start;
            let mut stopped = false;
            for &level in rep {
                if level == 0 {
                    if records == max_records || (records > 0 && levels + (end - start) >= budget) {
                        stopped = true;
                        break;
                    }
                    records += 1;
                    record.values = 0;
                }
                record.values += 1;
                if record.values > record.max {
                    return Err(Error::limit(
                        "values in one record of a column",
                        record.values as u64,
                        record.max as u64,
                    ));
                }
                end += 1;
            }
            let n = end - start;
            let def = self.def_ahead.get(start..end).unwrap_or_default();
            let non_null = Self::non_null(def, n, max_def);
            match &mut out {
                Some(out) => {
                    out.rep
                        .extend_from_slice(self.rep_ahead.get(start..end).unwrap_or_default());
                    out.def.extend_from_slice(def);
                    self.values.decode(non_null, dict, out.values, out.kept)?;
                }
                None => self.values.skip(non_null)?,
            }
            self.nulls += n - non_null;
            self.ahead_pos = end;
            levels += n;
            if stopped {
                return Ok(Progress {
                    records,
                    levels,
                    stop: Stop::Boundary,
                });
            }
        }
    }
}
