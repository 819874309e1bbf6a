//! Column decoders: one per column of the read schema, each over its stripe's streams,
//! filling [`Vector`]s a batch at a time.
//!
//! A decoder is asked for `n` slots and the parent's presence mask: a slot where the
//! parent is null is null without reading anything (ORC stores a child's values, and its
//! PRESENT bits, only for the rows where its parent holds a value), the PRESENT stream
//! says which of the others hold a value, and only those are read from the data
//! streams.

use bytes::Bytes;
use parquet_core::ByteArrayBatch;

use crate::calendar;
use crate::error::{Context as _, Decoding as _, Error, ErrorKind, Result};
use crate::limits::Limits;
use crate::proto::RowIndex;
use crate::proto::column_encoding::Kind as EncodingKind;
use crate::proto::stream::Kind as StreamKind;
use crate::rle::{self, Sign, boolean, byte, int};
use crate::schema::{Kind, TypeDescription};
use crate::vector::{Vector, VectorData};

use super::stripe::{Stream, StripeStreams};

/// Seconds from 1970-01-01 to 2015-01-01, ORC's timestamp base.
pub(crate) const TIMESTAMP_BASE: i64 = 1_420_070_400;

/// A decoder for one column and its children.
pub(crate) struct ColumnDecoder {
    column: u32,
    present: Option<Bools>,
    kind: Decoder,
    /// Scratch: the presence of this batch's slots.
    mask: Vec<bool>,
    /// The most a batch of the column may hold.
    limits: Limits,
}

enum Decoder {
    Boolean(Bools),
    Byte(Bytes8),
    Int(Ints),
    /// Days of the hybrid Julian/Gregorian calendar, read as proleptic Gregorian days.
    HybridDate(Ints),
    Float(Raw),
    Double(Raw),
    Direct {
        data: Raw,
        lengths: Ints,
        scratch: Vec<i64>,
        /// The byte length of each slot.
        widths: Vec<u32>,
    },
    Dictionary {
        entries: ByteArrayBatch,
        ids: Ints,
        scratch: Vec<i64>,
        /// The bytes of the longest entry.
        longest: usize,
    },
    Timestamp {
        seconds: Ints,
        nanos: Ints,
        zone: Zone,
        /// Whether the seconds count in the hybrid Julian/Gregorian calendar.
        hybrid: bool,
        scratch: Vec<i64>,
    },
    Decimal {
        data: Raw,
        scales: Ints,
        /// The column's declared scale, to which every value is brought.
        scale: Option<u32>,
        scratch: Vec<i64>,
    },
    List {
        lengths: Ints,
        elements: Box<ColumnDecoder>,
        scratch: Vec<i64>,
    },
    Map {
        lengths: Ints,
        keys: Box<ColumnDecoder>,
        values: Box<ColumnDecoder>,
        scratch: Vec<i64>,
    },
    Struct(Vec<ColumnDecoder>),
    Union {
        tags: Bytes8,
        alternatives: Vec<ColumnDecoder>,
    },
}

/// The positions of one row-index entry, read in stream order.
pub(crate) struct Positions<'a> {
    values: &'a [u64],
    next: usize,
    column: u32,
}

impl<'a> Positions<'a> {
    pub(crate) fn new(values: &'a [u64], column: u32) -> Self {
        Self {
            values,
            next: 0,
            column,
        }
    }

    fn next(&mut self) -> Result<u64> {
        let value = self.values.get(self.next).copied().ok_or_else(|| {
            Error::invalid(
                "number of positions of a row-index entry (too few)",
                self.values.len(),
            )
            .at_column(self.column)
        })?;
        self.next += 1;
        Ok(value)
    }

    fn count(&mut self) -> Result<usize> {
        let value = self.next()?;
        usize::try_from(value)
            .map_err(|_| Error::invalid("row-index position", value).at_column(self.column))
    }
}

impl Stream {
    /// The stream from the place a row-index position names (a chunk and an offset in
    /// it, or, uncompressed, an offset).
    fn at(&self, p: &mut Positions<'_>) -> Result<Bytes> {
        let at = self.seek_to(p);
        self.said(at)
    }

    /// `result` of decoding this stream's `what`, the error saying what and which stream.
    fn decoded<T>(&self, result: parquet_core::Result<T>, what: &'static str) -> Result<T> {
        self.said(result.decoding(what))
    }

    /// `result`, its error saying which stream (when it is known).
    fn said<T>(&self, result: Result<T>) -> Result<T> {
        match self.kind {
            Some(kind) => result.in_stream(kind),
            None => result,
        }
    }

    fn seek_to(&self, p: &mut Positions<'_>) -> Result<Bytes> {
        let offset = if self.compressed {
            let chunk = p.next()?;
            let within = p.next()?;
            crate::stream::seek_offset(&self.starts, chunk, within)?
        } else {
            p.count()?
        };
        if offset > self.bytes.len() {
            return Err(Error::out_of_bounds(
                "row-index position",
                (offset as u64, 0),
                "the stream",
                self.bytes.len() as u64,
            )
            .at_column(p.column));
        }
        Ok(self.bytes.slice(offset..))
    }
}

/// Checks that a seek skipped the `n` values its position names.
fn skip_exact(skipped: usize, n: usize, column: u32) -> Result<()> {
    if skipped < n {
        return Err(Error::from(ErrorKind::ShortStream {
            what: "values a row-index position skips",
            expected: n as u64,
            found: skipped as u64,
        })
        .at_column(column));
    }
    Ok(())
}

/// What the run-length decoders decode, as errors say.
const INT_RLE: &str = "integer run-length encoding";
const BYTE_RLE: &str = "byte run-length encoding";
const BOOLEAN_RLE: &str = "boolean run-length encoding";

/// An integer RLE stream.
struct Ints {
    stream: Stream,
    decoder: int::Decoder<Bytes>,
    version: rle::Version,
    sign: Sign,
}

impl Ints {
    fn new(stream: Stream, version: rle::Version, sign: Sign) -> Self {
        Self {
            decoder: int::Decoder::new(stream.bytes.clone(), version, sign),
            stream,
            version,
            sign,
        }
    }

    fn decode(&mut self, out: &mut [i64]) -> Result<usize> {
        let decoded = self.decoder.decode(out);
        self.stream.decoded(decoded, INT_RLE)
    }

    fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.decoder = int::Decoder::new(self.stream.at(p)?, self.version, self.sign);
        let n = p.count()?;
        let skipped = self.decoder.skip(n);
        skip_exact(self.stream.decoded(skipped, INT_RLE)?, n, p.column)
    }
}

/// A byte RLE stream.
struct Bytes8 {
    stream: Stream,
    decoder: byte::Decoder<Bytes>,
}

impl Bytes8 {
    fn new(stream: Stream) -> Self {
        Self {
            decoder: byte::Decoder::new(stream.bytes.clone()),
            stream,
        }
    }

    fn decode(&mut self, out: &mut [u8]) -> Result<usize> {
        let decoded = self.decoder.decode(out);
        self.stream.decoded(decoded, BYTE_RLE)
    }

    fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.decoder = byte::Decoder::new(self.stream.at(p)?);
        let n = p.count()?;
        let skipped = self.decoder.skip(n);
        skip_exact(self.stream.decoded(skipped, BYTE_RLE)?, n, p.column)
    }
}

/// A boolean RLE stream.
struct Bools {
    stream: Stream,
    decoder: boolean::Decoder<Bytes>,
}

impl Bools {
    fn new(stream: Stream) -> Self {
        Self {
            decoder: boolean::Decoder::new(stream.bytes.clone()),
            stream,
        }
    }

    fn decode(&mut self, out: &mut [bool]) -> Result<usize> {
        let decoded = self.decoder.decode(out);
        self.stream.decoded(decoded, BOOLEAN_RLE)
    }

    fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.decoder = boolean::Decoder::new(self.stream.at(p)?);
        // Bytes of the byte RLE to skip, then bits of the next byte.
        let bytes = p.count()?;
        let bits = p.count()?;
        let n = bytes.saturating_mul(8).saturating_add(bits);
        let skipped = self.decoder.skip(n);
        skip_exact(self.stream.decoded(skipped, BOOLEAN_RLE)?, n, p.column)
    }
}

/// Bytes read front to back: float, double and decimal data, direct string data.
struct Raw {
    stream: Stream,
    bytes: Bytes,
    pos: usize,
}

impl Raw {
    fn new(stream: Stream) -> Self {
        Self {
            bytes: stream.bytes.clone(),
            stream,
            pos: 0,
        }
    }

    fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.bytes = self.stream.at(p)?;
        self.pos = 0;
        Ok(())
    }

    fn take(&mut self, len: usize, stream: &'static str) -> Result<&[u8]> {
        let end = self
            .pos
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| {
                Error::out_of_bounds(
                    "values",
                    (self.pos as u64, len as u64),
                    "the stream",
                    self.bytes.len() as u64,
                )
                .in_stream(stream)
            })?;
        let out = self.bytes.get(self.pos..end).unwrap_or_default();
        self.pos = end;
        Ok(out)
    }
}

/// The error of a dictionary encoding for a column of `kind`, which is not a string.
fn dictionary_of(kind: Kind) -> Error {
    ErrorKind::WrongType {
        what: "a column of a dictionary encoding",
        expected: "string, varchar or char",
        found: kind.name(),
    }
    .into()
}

impl ColumnDecoder {
    /// The decoder of `column` (a type of the file's schema) over the stripe's streams,
    /// with only the columns `selected` says (by column id) among its descendants.
    pub(crate) fn new(
        column: &TypeDescription,
        selected: &[bool],
        streams: &mut StripeStreams,
    ) -> Result<Self> {
        Self::build(column, selected, streams).at_column(column.id())
    }

    fn build(
        column: &TypeDescription,
        selected: &[bool],
        streams: &mut StripeStreams,
    ) -> Result<Self> {
        let id = column.id();
        let encoding = streams.encoding(id)?;
        let version = match encoding {
            EncodingKind::Direct | EncodingKind::Dictionary => rle::Version::V1,
            EncodingKind::DirectV2 | EncodingKind::DictionaryV2 => rle::Version::V2,
        };
        let dictionary = matches!(
            encoding,
            EncodingKind::Dictionary | EncodingKind::DictionaryV2
        );
        let kind = column.kind();
        if dictionary && !matches!(kind, Kind::String | Kind::Varchar | Kind::Char) {
            return Err(dictionary_of(kind));
        }
        let present = streams.take(id, StreamKind::Present).map(Bools::new);
        let int = |streams: &mut StripeStreams, stream, sign| {
            Ints::new(streams.require(id, stream), version, sign)
        };
        let raw = |streams: &mut StripeStreams, stream| Raw::new(streams.require(id, stream));
        let decoder = match kind {
            Kind::Boolean => Decoder::Boolean(Bools::new(streams.require(id, StreamKind::Data))),
            Kind::Byte => Decoder::Byte(Bytes8::new(streams.require(id, StreamKind::Data))),
            Kind::Date if streams.hybrid_calendar => {
                Decoder::HybridDate(int(streams, StreamKind::Data, Sign::Signed))
            }
            Kind::Short | Kind::Int | Kind::Long | Kind::Date => {
                Decoder::Int(int(streams, StreamKind::Data, Sign::Signed))
            }
            Kind::Float => Decoder::Float(raw(streams, StreamKind::Data)),
            Kind::Double => Decoder::Double(raw(streams, StreamKind::Data)),
            Kind::String | Kind::Varchar | Kind::Char | Kind::Binary if dictionary => {
                let size = streams.dictionary_size(id)?;
                let data = streams.require(id, StreamKind::DictionaryData);
                let lengths = streams.require(id, StreamKind::Length);
                let entries = read_dictionary(id, size, &data.bytes, lengths.bytes, version)?;
                Decoder::Dictionary {
                    longest: longest_entry(&entries),
                    entries,
                    ids: int(streams, StreamKind::Data, Sign::Unsigned),
                    scratch: Vec::new(),
                }
            }
            Kind::String | Kind::Varchar | Kind::Char | Kind::Binary => Decoder::Direct {
                data: raw(streams, StreamKind::Data),
                lengths: int(streams, StreamKind::Length, Sign::Unsigned),
                scratch: Vec::new(),
                widths: Vec::new(),
            },
            Kind::Timestamp | Kind::TimestampInstant => Decoder::Timestamp {
                seconds: int(streams, StreamKind::Data, Sign::Signed),
                nanos: int(streams, StreamKind::Secondary, Sign::Unsigned),
                zone: match (kind, streams.timezone.as_deref()) {
                    (Kind::Timestamp, Some(name)) => Zone::new(name)?,
                    _ => Zone::Utc,
                },
                hybrid: streams.hybrid_calendar,
                scratch: Vec::new(),
            },
            Kind::Decimal => Decoder::Decimal {
                data: raw(streams, StreamKind::Data),
                scales: int(streams, StreamKind::Secondary, Sign::Signed),
                scale: column.scale(),
                scratch: Vec::new(),
            },
            Kind::List => Decoder::List {
                lengths: int(streams, StreamKind::Length, Sign::Unsigned),
                elements: Box::new(Self::child(column, 0, selected, streams)?),
                scratch: Vec::new(),
            },
            Kind::Map => Decoder::Map {
                lengths: int(streams, StreamKind::Length, Sign::Unsigned),
                keys: Box::new(Self::child(column, 0, selected, streams)?),
                values: Box::new(Self::child(column, 1, selected, streams)?),
                scratch: Vec::new(),
            },
            Kind::Struct => Decoder::Struct(
                column
                    .children()
                    .iter()
                    .filter(|c| selected.get(c.id() as usize).copied().unwrap_or(false))
                    .map(|c| Self::new(c, selected, streams))
                    .collect::<Result<_>>()?,
            ),
            Kind::Union => Decoder::Union {
                tags: Bytes8::new(streams.require(id, StreamKind::Data)),
                alternatives: (0..column.children().len())
                    .map(|i| Self::child(column, i, selected, streams))
                    .collect::<Result<_>>()?,
            },
        };
        Ok(Self {
            column: id,
            present,
            kind: decoder,
            mask: Vec::new(),
            limits: streams.limits,
        })
    }

    /// A child that the parent needs whole (a list's elements, a map's keys and values,
    /// a union's alternatives): its subtree is read as far as it is selected.
    fn child(
        parent: &TypeDescription,
        index: usize,
        selected: &[bool],
        streams: &mut StripeStreams,
    ) -> Result<Self> {
        let child = parent
            .children()
            .get(index)
            .ok_or_else(|| Error::invalid("child of the column", index).at_column(parent.id()))?;
        Self::new(child, selected, streams)
    }

    /// How many of the next `n` rows (at least one) a batch of this top-level column
    /// can take within [`Limits::max_batch_bytes`] of strings or binaries: fewer than
    /// `n` only when long values would pass it, so that a batch of values of megabytes
    /// is cut short rather than refused. Strings are looked ahead (on copies of the
    /// decoders) only when the longest dictionary entry, or the bytes left in the
    /// stream, could pass the budget; a malformed stream is left to [`Self::next`].
    pub(crate) fn rows_within_budget(&self, n: usize) -> usize {
        let budget = self.limits.max_batch_bytes();
        let peeked = match &self.kind {
            Decoder::Dictionary {
                entries,
                ids,
                longest,
                ..
            } if longest.saturating_mul(n) > budget => self.peek(n, ids).map(|(present, ids)| {
                let widths = ids.iter().map(|&id| {
                    usize::try_from(id)
                        .ok()
                        .and_then(|id| entries.get(id))
                        .map_or(0, <[u8]>::len)
                });
                (present, widths.collect::<Vec<_>>())
            }),
            Decoder::Direct { data, lengths, .. }
                if data.bytes.len().saturating_sub(data.pos) > budget =>
            {
                self.peek(n, lengths).map(|(present, lengths)| {
                    let widths = lengths
                        .iter()
                        .map(|&len| usize::try_from(len).unwrap_or(usize::MAX));
                    (present, widths.collect())
                })
            }
            _ => None,
        };
        let Some((present, widths)) = peeked else {
            return n;
        };
        // The widths are the present rows' only: the others take none.
        let mut widths = widths.into_iter();
        let mut total = 0usize;
        for row in 0..n {
            if present.as_ref().is_none_or(|p| p.get(row) == Some(&true)) {
                total = total.saturating_add(widths.next().unwrap_or(0));
                if total > budget {
                    // A row whose value alone passes it is a batch of its own.
                    return row.max(1);
                }
            }
        }
        n
    }

    /// The presence of the next `n` rows (`None`: all present) and the values `ints`
    /// holds for the present ones, decoded from copies of the decoders; `None` when the
    /// streams do not hold them.
    fn peek(&self, n: usize, ints: &Ints) -> Option<(Option<Vec<bool>>, Vec<i64>)> {
        let present = match &self.present {
            None => None,
            Some(present) => {
                let mut bits = Vec::new();
                let mut decoder = present.decoder.clone();
                let got = fill(&mut bits, n, |out| Ok(decoder.decode(out)?)).ok()?;
                if got < n {
                    return None;
                }
                Some(bits)
            }
        };
        let count = present
            .as_ref()
            .map_or(n, |bits| bits.iter().filter(|&&b| b).count());
        let mut values = Vec::new();
        let mut decoder = ints.decoder.clone();
        let got = fill(&mut values, count, |out| Ok(decoder.decode(out)?)).ok()?;
        (got == count).then_some((present, values))
    }

    /// Fills `out` with `n` slots; `parent` says which slots the parent holds (all when
    /// `None`).
    pub(crate) fn next(
        &mut self,
        n: usize,
        parent: Option<&[bool]>,
        out: &mut Vector,
    ) -> Result<()> {
        // Which slots hold a value.
        let mut mask = std::mem::take(&mut self.mask);
        let has_nulls = self
            .read_mask(n, parent, &mut mask)
            .at_column(self.column)?;
        let count = if has_nulls {
            mask.iter().filter(|&&p| p).count()
        } else {
            n
        };
        let present = if has_nulls { Some(&mask[..]) } else { None };
        let result = self
            .read_values(n, count, present, out)
            .at_column(self.column);
        if has_nulls {
            match &mut out.present {
                Some(p) => {
                    p.clear();
                    p.extend_from_slice(&mask);
                }
                p @ None => *p = Some(mask.clone()),
            }
        } else {
            out.present = None;
        }
        self.mask = mask;
        result
    }

    /// Reads the presence of `n` slots into `mask`; whether any is null.
    fn read_mask(
        &mut self,
        n: usize,
        parent: Option<&[bool]>,
        mask: &mut Vec<bool>,
    ) -> Result<bool> {
        mask.clear();
        match (parent, &mut self.present) {
            (None, None) => Ok(false),
            (None, Some(present)) => {
                let got = fill(mask, n, |out| present.decode(out))?;
                if got < n {
                    return Err(self.short("PRESENT", n, got));
                }
                Ok(mask.contains(&false))
            }
            (Some(parent), None) => {
                mask.extend_from_slice(parent.get(..n).unwrap_or(parent));
                Ok(mask.contains(&false))
            }
            (Some(parent), Some(present)) => {
                let wanted = parent.iter().take(n).filter(|&&p| p).count();
                let got = fill(mask, wanted, |out| present.decode(out))?;
                if got < wanted {
                    return Err(self.short("PRESENT", wanted, got));
                }
                // Spread the bits over the parent's present slots.
                let mut bits = std::mem::take(mask);
                mask.reserve(n);
                let mut next = bits.iter();
                for &p in parent.iter().take(n) {
                    mask.push(p && next.next().copied().unwrap_or(false));
                }
                bits.clear();
                Ok(mask.contains(&false))
            }
        }
    }

    fn short(&self, stream: &'static str, wanted: usize, got: usize) -> Error {
        short(stream, wanted, got).at_column(self.column)
    }

    /// Reads `count` values for the `n` slots (`present` marks the slots that get them).
    #[allow(clippy::too_many_lines)]
    fn read_values(
        &mut self,
        n: usize,
        count: usize,
        present: Option<&[bool]>,
        out: &mut Vector,
    ) -> Result<()> {
        let column = self.column;
        match &mut self.kind {
            Decoder::Boolean(data) => {
                let values = reuse_bools(out);
                let got = fill(values, count, |out| data.decode(out))?;
                if got < count {
                    return Err(short("DATA", count, got));
                }
                spread(values, present, false);
            }
            Decoder::Byte(data) => {
                let values = reuse_ints(out);
                let mut bytes = Vec::new();
                let got = fill(&mut bytes, count, |out| data.decode(out))?;
                if got < count {
                    return Err(short("DATA", count, got));
                }
                values.clear();
                values.extend(bytes.iter().map(|&b| i64::from(b.cast_signed())));
                spread(values, present, 0);
            }
            Decoder::Int(data) => {
                let values = reuse_ints(out);
                let got = fill(values, count, |out| data.decode(out))?;
                if got < count {
                    return Err(short("DATA", count, got));
                }
                spread(values, present, 0);
            }
            Decoder::HybridDate(data) => {
                let values = reuse_ints(out);
                let got = fill(values, count, |out| data.decode(out))?;
                if got < count {
                    return Err(short("DATA", count, got));
                }
                for day in values.iter_mut() {
                    *day = calendar::hybrid_day(*day);
                }
                spread(values, present, 0);
            }
            Decoder::Float(data) => {
                let values = match &mut out.data {
                    VectorData::Float(v) => v,
                    other => {
                        *other = VectorData::Float(Vec::new());
                        let VectorData::Float(v) = other else {
                            unreachable!()
                        };
                        v
                    }
                };
                let bytes = data.take(count * 4, "DATA")?;
                values.clear();
                values.extend(
                    bytes
                        .as_chunks::<4>()
                        .0
                        .iter()
                        .map(|c| f32::from_le_bytes(*c)),
                );
                spread(values, present, 0.0);
            }
            Decoder::Double(data) => {
                let values = match &mut out.data {
                    VectorData::Double(v) => v,
                    other => {
                        *other = VectorData::Double(Vec::new());
                        let VectorData::Double(v) = other else {
                            unreachable!()
                        };
                        v
                    }
                };
                let bytes = data.take(count * 8, "DATA")?;
                values.clear();
                values.extend(
                    bytes
                        .as_chunks::<8>()
                        .0
                        .iter()
                        .map(|c| f64::from_le_bytes(*c)),
                );
                spread(values, present, 0.0);
            }
            Decoder::Direct {
                data,
                lengths,
                scratch,
                widths,
            } => {
                let got = fill(scratch, count, |out| lengths.decode(out))?;
                if got < count {
                    return Err(short("LENGTH", count, got));
                }
                let total = scratch.iter().try_fold(0u64, |sum, &len| {
                    u64::try_from(len).ok().and_then(|len| sum.checked_add(len))
                });
                let total = total.and_then(|t| usize::try_from(t).ok()).ok_or_else(|| {
                    Error::malformed("a string length that is negative or too large")
                        .in_stream("LENGTH")
                })?;
                check_batch_bytes(count, total, &self.limits)?;
                let bytes = data.take(total, "DATA")?;
                // The values are one run of bytes: cut it by the lengths, a null slot
                // taking none, in one copy.
                widths.clear();
                let mut lens = scratch.iter();
                for i in 0..n {
                    let width = if present.is_none_or(|p| p.get(i).copied().unwrap_or(false)) {
                        let len = lens.next().copied().unwrap_or(0);
                        u32::try_from(len)
                            .map_err(|_| Error::invalid("string length", len).in_stream("LENGTH"))?
                    } else {
                        0
                    };
                    widths.push(width);
                }
                let values = reuse_bytes(out);
                values.extend_from_lengths(widths, bytes)?;
            }
            Decoder::Dictionary {
                entries,
                ids,
                scratch,
                ..
            } => {
                let got = fill(scratch, count, |out| ids.decode(out))?;
                if got < count {
                    return Err(short("DATA", count, got));
                }
                // Check the ids and size the output once, then copy.
                let bound = entries.len() as u64;
                let mut total = 0usize;
                for &id in scratch.iter() {
                    let entry = u64::try_from(id)
                        .ok()
                        .filter(|&id| id < bound)
                        .and_then(|id| usize::try_from(id).ok())
                        .and_then(|id| entries.get(id))
                        .ok_or_else(|| {
                            Error::out_of_range(
                                "dictionary id",
                                u64::try_from(id).unwrap_or(u64::MAX),
                                bound,
                            )
                            .in_stream("DATA")
                        })?;
                    total = total.saturating_add(entry.len());
                }
                check_batch_bytes(count, total, &self.limits)?;
                let values = reuse_bytes(out);
                values.reserve(n, total);
                let entry = |id: i64| {
                    usize::try_from(id)
                        .ok()
                        .and_then(|id| entries.get(id))
                        .unwrap_or_default()
                };
                match present {
                    None => {
                        for &id in scratch.iter() {
                            values.push(entry(id))?;
                        }
                    }
                    Some(present) => {
                        let mut ids = scratch.iter();
                        for &p in present {
                            let value = if p {
                                entry(ids.next().copied().unwrap_or(0))
                            } else {
                                &[]
                            };
                            values.push(value)?;
                        }
                    }
                }
            }
            Decoder::Timestamp {
                seconds,
                nanos,
                zone,
                hybrid,
                scratch,
            } => {
                let (secs, ns) = match &mut out.data {
                    VectorData::Timestamp { seconds, nanos } => (seconds, nanos),
                    other => {
                        *other = VectorData::Timestamp {
                            seconds: Vec::new(),
                            nanos: Vec::new(),
                        };
                        let VectorData::Timestamp { seconds, nanos } = other else {
                            unreachable!()
                        };
                        (seconds, nanos)
                    }
                };
                let got = fill(secs, count, |out| seconds.decode(out))?;
                if got < count {
                    return Err(short("DATA", count, got));
                }
                let got = fill(scratch, count, |out| nanos.decode(out))?;
                if got < count {
                    return Err(short("SECONDARY", count, got));
                }
                ns.clear();
                for (s, &encoded) in secs.iter_mut().zip(scratch.iter()) {
                    let nano = decode_nanos(encoded).ok_or_else(|| {
                        Error::invalid("encoded nanoseconds", encoded).in_stream("SECONDARY")
                    })?;
                    // Apache ORC's writers take the seconds of the UTC instant's
                    // milliseconds truncated toward zero: before 1970 (UTC), a time with
                    // a fraction of a millisecond or more stores one second too many,
                    // which ORC Java's reader (and the C++ reader since ORC-763) takes
                    // back when the UTC seconds are negative and the nanoseconds above
                    // 999_999; so does this one, before the zone's offset and the
                    // calendar (whose cutover may lie in that second) are applied.
                    // Arrow's writer stores the fraction of such a time negative instead
                    // (-1 ns as 0 s and -1 ns), which adds up as it is.
                    let mut utc = zone.utc_seconds(*s);
                    if utc < 0 && nano > 999_999 {
                        utc -= 1;
                    }
                    let mut second = zone.wall_clock(utc);
                    if *hybrid {
                        second = calendar::hybrid_seconds(second);
                    }
                    let (second, nano) = if nano < 0 {
                        (second.wrapping_sub(1), nano + 1_000_000_000)
                    } else {
                        (second, nano)
                    };
                    *s = second;
                    // In 0..1e9 by now.
                    ns.push(u32::try_from(nano).unwrap_or(0));
                }
                spread(secs, present, 0);
                spread(ns, present, 0);
            }
            Decoder::Decimal {
                data,
                scales,
                scale,
                scratch,
            } => {
                let got = fill(scratch, count, |out| scales.decode(out))?;
                if got < count {
                    return Err(short("SECONDARY", count, got));
                }
                let (values, out_scales) = match &mut out.data {
                    VectorData::Decimal { values, scales } => (values, scales),
                    other => {
                        *other = VectorData::Decimal {
                            values: Vec::new(),
                            scales: Vec::new(),
                        };
                        let VectorData::Decimal { values, scales } = other else {
                            unreachable!()
                        };
                        (values, scales)
                    }
                };
                values.clear();
                out_scales.clear();
                for &value_scale in scratch.iter() {
                    let unscaled = read_varint_i128(data, column)?;
                    let value_scale = u32::try_from(value_scale)
                        .ok()
                        .filter(|&s| s <= 38)
                        .ok_or_else(|| {
                            Error::invalid("decimal scale", value_scale).in_stream("SECONDARY")
                        })?;
                    let (v, s) = match *scale {
                        Some(target) => (
                            rescale(unscaled, value_scale, target).ok_or_else(|| {
                                ErrorKind::DecimalDoesNotFit {
                                    unscaled,
                                    value_scale,
                                    scale: target,
                                }
                            })?,
                            target,
                        ),
                        None => (unscaled, value_scale),
                    };
                    values.push(v);
                    out_scales.push(s);
                }
                spread(values, present, 0);
                spread(out_scales, present, scale.unwrap_or(0));
            }
            Decoder::List {
                lengths,
                elements,
                scratch,
            } => {
                let offsets =
                    read_offsets(lengths, scratch, n, count, present, column, &self.limits)?;
                let total = offsets.last().copied().unwrap_or(0);
                let (offs, child) = list_parts(out);
                *offs = offsets;
                elements.next(total, None, child)?;
            }
            Decoder::Map {
                lengths,
                keys,
                values,
                scratch,
            } => {
                let offsets =
                    read_offsets(lengths, scratch, n, count, present, column, &self.limits)?;
                let total = offsets.last().copied().unwrap_or(0);
                let (offs, k, v) = map_parts(out);
                *offs = offsets;
                keys.next(total, None, k)?;
                values.next(total, None, v)?;
            }
            Decoder::Struct(fields) => {
                let vectors = match &mut out.data {
                    VectorData::Struct { len, fields } => {
                        *len = n;
                        fields
                    }
                    other => {
                        *other = VectorData::Struct {
                            len: n,
                            fields: Vec::new(),
                        };
                        let VectorData::Struct { fields, .. } = other else {
                            unreachable!()
                        };
                        fields
                    }
                };
                vectors.resize_with(fields.len(), empty_vector);
                for (field, vector) in fields.iter_mut().zip(vectors.iter_mut()) {
                    field.next(n, present, vector)?;
                }
            }
            Decoder::Union { tags, alternatives } => {
                let mut raw = Vec::new();
                let got = fill(&mut raw, count, |out| tags.decode(out))?;
                if got < count {
                    return Err(short("DATA", count, got));
                }
                if let Some(&bad) = raw.iter().find(|&&t| usize::from(t) >= alternatives.len()) {
                    return Err(Error::out_of_range(
                        "union tag",
                        u64::from(bad),
                        alternatives.len() as u64,
                    )
                    .in_stream("DATA"));
                }
                let (out_tags, vectors) = union_parts(out);
                out_tags.clear();
                out_tags.extend_from_slice(&raw);
                spread(out_tags, present, 0);
                vectors.resize_with(alternatives.len(), empty_vector);
                let mut chosen = Vec::with_capacity(n);
                for (tag, (alternative, vector)) in
                    alternatives.iter_mut().zip(vectors.iter_mut()).enumerate()
                {
                    chosen.clear();
                    chosen.extend((0..n).map(|i| {
                        present.is_none_or(|p| p.get(i).copied().unwrap_or(false))
                            && usize::from(out_tags.get(i).copied().unwrap_or(0)) == tag
                    }));
                    alternative.next(n, Some(&chosen), vector)?;
                }
            }
        }
        Ok(())
    }

    /// Moves to the row group whose row-index entries `indexes` gives (by column id),
    /// `group` of the stripe.
    pub(crate) fn seek<'i>(
        &mut self,
        group: usize,
        indexes: &dyn Fn(u32) -> Option<&'i RowIndex>,
    ) -> Result<()> {
        let column = self.column;
        self.seek_group(group, indexes).at_column(column)
    }

    fn seek_group<'i>(
        &mut self,
        group: usize,
        indexes: &dyn Fn(u32) -> Option<&'i RowIndex>,
    ) -> Result<()> {
        let column = self.column;
        let entry = indexes(column)
            .and_then(|index| index.entry.get(group))
            .ok_or_else(|| {
                Error::invalid("row group without a row-index entry", group).at_column(column)
            })?;
        let mut p = Positions::new(&entry.positions, column);
        if let Some(present) = &mut self.present {
            present.seek(&mut p)?;
        }
        match &mut self.kind {
            Decoder::Boolean(data) => data.seek(&mut p)?,
            Decoder::Byte(data) => data.seek(&mut p)?,
            Decoder::Int(data) | Decoder::HybridDate(data) => data.seek(&mut p)?,
            Decoder::Float(data) | Decoder::Double(data) => data.seek(&mut p)?,
            Decoder::Direct { data, lengths, .. } => {
                data.seek(&mut p)?;
                lengths.seek(&mut p)?;
            }
            Decoder::Dictionary { ids, .. } => ids.seek(&mut p)?,
            Decoder::Timestamp { seconds, nanos, .. } => {
                seconds.seek(&mut p)?;
                nanos.seek(&mut p)?;
            }
            Decoder::Decimal { data, scales, .. } => {
                data.seek(&mut p)?;
                scales.seek(&mut p)?;
            }
            Decoder::List {
                lengths, elements, ..
            } => {
                lengths.seek(&mut p)?;
                elements.seek(group, indexes)?;
            }
            Decoder::Map {
                lengths,
                keys,
                values,
                ..
            } => {
                lengths.seek(&mut p)?;
                keys.seek(group, indexes)?;
                values.seek(group, indexes)?;
            }
            Decoder::Struct(fields) => {
                for field in fields {
                    field.seek(group, indexes)?;
                }
            }
            Decoder::Union { tags, alternatives } => {
                tags.seek(&mut p)?;
                for alternative in alternatives {
                    alternative.seek(group, indexes)?;
                }
            }
        }
        Ok(())
    }

    /// Every column id this decoder reads (its own and its children's).
    pub(crate) fn columns(&self, out: &mut Vec<u32>) {
        out.push(self.column);
        match &self.kind {
            Decoder::List { elements, .. } => elements.columns(out),
            Decoder::Map { keys, values, .. } => {
                keys.columns(out);
                values.columns(out);
            }
            Decoder::Struct(fields) => fields.iter().for_each(|f| f.columns(out)),
            Decoder::Union { alternatives, .. } => alternatives.iter().for_each(|a| a.columns(out)),
            _ => {}
        }
    }
}

/// How the seconds of a timestamp column become a wall-clock time: ORC counts them from
/// 2015-01-01 00:00:00 in the writer's time zone (the stripe footer's, UTC when it names
/// none, and always UTC for `timestamp with local time zone`).
///
/// Before a zone's first transition (its local mean time, such as -7:52:58 for
/// `America/Los_Angeles` before 1883), ORC Java and the C++ reader use the offset the
/// zone takes at that transition (-8:00): so does this reader.
enum Zone {
    Utc,
    Named {
        zone: jiff::tz::TimeZone,
        /// 2015-01-01 00:00:00 in the zone, in seconds from the epoch.
        base: i64,
        /// The zone's first transition, in seconds from the epoch, and the offset it
        /// takes then, in seconds; `None` for a zone without transitions.
        first: Option<(i64, i64)>,
    },
}

impl Zone {
    fn new(name: &str) -> Result<Self> {
        if matches!(name, "UTC" | "GMT" | "Etc/UTC" | "Etc/GMT" | "Z" | "") {
            return Ok(Self::Utc);
        }
        let zone =
            jiff::tz::TimeZone::get(name).map_err(|source| ErrorKind::TimeZone { source })?;
        let base = jiff::civil::date(2015, 1, 1)
            .at(0, 0, 0, 0)
            .to_zoned(zone.clone())
            .map_err(|source| ErrorKind::TimeZone { source })?
            .timestamp()
            .as_second();
        let first = zone
            .following(jiff::Timestamp::MIN)
            .next()
            .map(|t| (t.timestamp().as_second(), i64::from(t.offset().seconds())));
        Ok(Self::Named { zone, base, first })
    }

    /// The seconds from 1970-01-01 00:00:00 UTC of a stored value, as the writer took
    /// them (truncated toward zero; see the decoder): the stored seconds plus 2015-01-01
    /// 00:00:00 of the writer's zone.
    fn utc_seconds(&self, stored: i64) -> i64 {
        match self {
            Self::Utc => stored.wrapping_add(TIMESTAMP_BASE),
            Self::Named { base, .. } => stored.wrapping_add(*base),
        }
    }

    /// The wall-clock seconds (as if in UTC) of the instant `utc` (seconds from the
    /// epoch) in the writer's zone, as Apache ORC's readers show it.
    fn wall_clock(&self, utc: i64) -> i64 {
        match self {
            Self::Utc => utc,
            Self::Named { zone, first, .. } => {
                let offset = match first {
                    Some((at, offset)) if utc < *at => *offset,
                    _ => offset_at(zone, utc),
                };
                utc.wrapping_add(offset)
            }
        }
    }
}

/// Seconds in 400 years of the Gregorian calendar: 146,097 days, a whole number of weeks,
/// after which the calendar, and so a zone's rules past its last transition (the `TZif`
/// footer's POSIX TZ string: a day of a week of a month, at a time), repeat.
const GREGORIAN_CYCLE_SECONDS: i64 = 146_097 * 86_400;

/// The offset of `zone` at `utc` seconds from the epoch. jiff's instants end 26 hours
/// short of the years -9999 and 9999 (so that every offset keeps them in its civil
/// range): an instant past them takes the offset of the same moment a whole number of
/// 400-year cycles closer, where the zone's last rules hold the same.
fn offset_at(zone: &jiff::tz::TimeZone, utc: i64) -> i64 {
    let (min, max) = (
        jiff::Timestamp::MIN.as_second(),
        jiff::Timestamp::MAX.as_second(),
    );
    let cycles = if utc > max {
        (i128::from(utc) - i128::from(max)).div_euclid(i128::from(GREGORIAN_CYCLE_SECONDS)) + 1
    } else if utc < min {
        -((i128::from(min) - i128::from(utc)).div_euclid(i128::from(GREGORIAN_CYCLE_SECONDS)) + 1)
    } else {
        0
    };
    let within = i128::from(utc) - cycles * i128::from(GREGORIAN_CYCLE_SECONDS);
    i64::try_from(within)
        .ok()
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .map_or(0, |t| i64::from(zone.to_offset(t).seconds()))
}

/// An empty vector to be filled.
pub(crate) fn empty_vector() -> Vector {
    Vector::new(VectorData::Int(Vec::new()))
}

/// Decodes `count` values into `out` (its old values overwritten), growing it only as
/// values are decoded, so that a count no stream backs allocates little; returns how
/// many were decoded (fewer than `count` when the stream ends).
fn fill<T: Copy + Default>(
    out: &mut Vec<T>,
    count: usize,
    mut decode: impl FnMut(&mut [T]) -> Result<usize>,
) -> Result<usize> {
    // The slots `out` already has cost nothing more; past them, it grows by at most as
    // much as was decoded so far.
    let mut step = count.clamp(1, 1 << 16).max(out.len().min(count));
    let mut filled = 0;
    while filled < count {
        let want = (count - filled).min(step);
        let end = filled + want;
        if out.len() < end {
            out.resize(end, T::default());
        }
        let got = decode(out.get_mut(filled..end).unwrap_or_default())?;
        filled += got;
        if got < want {
            break;
        }
        step = step.saturating_mul(2);
    }
    out.truncate(filled);
    Ok(filled)
}

/// Moves the first `values.len()` values to the present slots of `present` (in order),
/// filling the others with `fill`.
fn spread<T: Copy>(values: &mut Vec<T>, present: Option<&[bool]>, fill: T) {
    let Some(present) = present else {
        return;
    };
    let count = values.len();
    values.resize(present.len(), fill);
    // From the back, each present slot takes the last value not yet moved: a value
    // moves to its slot or past it, never onto one still to be read.
    let mut src = count;
    for (i, &p) in present.iter().enumerate().rev() {
        let value = if p {
            src = src.saturating_sub(1);
            values.get(src).copied().unwrap_or(fill)
        } else {
            fill
        };
        if let Some(slot) = values.get_mut(i) {
            *slot = value;
        }
    }
}

fn reuse_bools(out: &mut Vector) -> &mut Vec<bool> {
    if !matches!(out.data, VectorData::Boolean(_)) {
        out.data = VectorData::Boolean(Vec::new());
    }
    let VectorData::Boolean(v) = &mut out.data else {
        unreachable!()
    };
    v
}

fn reuse_ints(out: &mut Vector) -> &mut Vec<i64> {
    if !matches!(out.data, VectorData::Int(_)) {
        out.data = VectorData::Int(Vec::new());
    }
    let VectorData::Int(v) = &mut out.data else {
        unreachable!()
    };
    v
}

fn reuse_bytes(out: &mut Vector) -> &mut ByteArrayBatch {
    if !matches!(out.data, VectorData::Bytes(_)) {
        out.data = VectorData::Bytes(ByteArrayBatch::new());
    }
    let VectorData::Bytes(v) = &mut out.data else {
        unreachable!()
    };
    v.clear();
    v
}

fn list_parts(out: &mut Vector) -> (&mut Vec<usize>, &mut Vector) {
    if !matches!(out.data, VectorData::List { .. }) {
        out.data = VectorData::List {
            offsets: Vec::new(),
            elements: Box::new(empty_vector()),
        };
    }
    let VectorData::List { offsets, elements } = &mut out.data else {
        unreachable!()
    };
    (offsets, elements)
}

fn map_parts(out: &mut Vector) -> (&mut Vec<usize>, &mut Vector, &mut Vector) {
    if !matches!(out.data, VectorData::Map { .. }) {
        out.data = VectorData::Map {
            offsets: Vec::new(),
            keys: Box::new(empty_vector()),
            values: Box::new(empty_vector()),
        };
    }
    let VectorData::Map {
        offsets,
        keys,
        values,
    } = &mut out.data
    else {
        unreachable!()
    };
    (offsets, keys, values)
}

fn union_parts(out: &mut Vector) -> (&mut Vec<u8>, &mut Vec<Vector>) {
    if !matches!(out.data, VectorData::Union { .. }) {
        out.data = VectorData::Union {
            tags: Vec::new(),
            alternatives: Vec::new(),
        };
    }
    let VectorData::Union { tags, alternatives } = &mut out.data else {
        unreachable!()
    };
    (tags, alternatives)
}

/// A stream that ends after `got` of the `wanted` values.
fn short(stream: &'static str, wanted: usize, got: usize) -> Error {
    Error::from(ErrorKind::ShortStream {
        what: "values",
        expected: wanted as u64,
        found: got as u64,
    })
    .in_stream(stream)
}

/// The offsets of `n` list or map slots from `count` lengths, within `limits`.
fn read_offsets(
    lengths: &mut Ints,
    scratch: &mut Vec<i64>,
    n: usize,
    count: usize,
    present: Option<&[bool]>,
    column: u32,
    limits: &Limits,
) -> Result<Vec<usize>> {
    let got = fill(scratch, count, |out| lengths.decode(out))?;
    if got < count {
        return Err(short("LENGTH", count, got).at_column(column));
    }
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0usize);
    let mut total = 0usize;
    let mut lens = scratch.iter();
    for i in 0..n {
        if present.is_none_or(|p| p.get(i).copied().unwrap_or(false)) {
            let len = lens.next().copied().unwrap_or(0);
            let len = usize::try_from(len).map_err(|_| {
                Error::invalid("list or map length", len)
                    .at_column(column)
                    .in_stream("LENGTH")
            })?;
            if len > limits.max_record_values() {
                return Err(Error::limit(
                    "values under one list or map of one row (max_record_values)",
                    len as u64,
                    limits.max_record_values() as u64,
                )
                .at_column(column));
            }
            total = total.saturating_add(len);
            if total > limits.max_batch_values() {
                return Err(Error::limit(
                    "values under the lists or maps of one batch (max_batch_values)",
                    total as u64,
                    limits.max_batch_values() as u64,
                )
                .at_column(column));
            }
        }
        offsets.push(total);
    }
    Ok(offsets)
}

/// [`ErrorKind::LimitExceeded`] when `count` values (more than one) of a column's batch
/// would hold `total` bytes of strings or binaries, past [`Limits::max_batch_bytes`].
/// One value is read whatever its size: its bytes are in memory already (in the stream
/// or the dictionary), and it costs them once more.
fn check_batch_bytes(count: usize, total: usize, limits: &Limits) -> Result<()> {
    if count > 1 && total > limits.max_batch_bytes() {
        return Err(Error::limit(
            "bytes of strings or binaries in one batch of a column (max_batch_bytes)",
            total as u64,
            limits.max_batch_bytes() as u64,
        ));
    }
    Ok(())
}

/// Decodes ORC's nanosecond encoding: the low 3 bits `z` say that the value was
/// divided by `10^(z + 1)` to drop trailing zeros. The value is signed, as Apache ORC's
/// C++ reader takes it (Arrow's writer stores negative fractions before 1970), and
/// within a second either way.
pub(crate) fn decode_nanos(encoded: i64) -> Option<i64> {
    let zeros = u32::try_from(encoded & 7).unwrap_or(0);
    let mut value = encoded >> 3;
    if zeros != 0 {
        value = value.checked_mul(10i64.pow(zeros + 1))?;
    }
    (value.abs() < 1_000_000_000).then_some(value)
}

/// Reads one unbounded zigzag base-128 varint as an `i128`.
fn read_varint_i128(data: &mut Raw, column: u32) -> Result<i128> {
    let mut value: u128 = 0;
    let mut shift = 0u32;
    loop {
        let byte = *data.bytes.get(data.pos).ok_or_else(|| {
            Error::malformed("the stream ends inside a decimal")
                .at_column(column)
                .in_stream("DATA")
        })?;
        data.pos += 1;
        let bits = u128::from(byte & 0x7f);
        if shift >= 128 || (shift > 121 && bits >> (128 - shift) != 0) {
            return Err(Error::unsupported("decimal wider than 128 bits", None)
                .at_column(column)
                .in_stream("DATA"));
        }
        value |= bits << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            break;
        }
    }
    Ok((value >> 1).cast_signed() ^ -((value & 1).cast_signed()))
}

/// `unscaled * 10^-from` brought to `to` digits after the point (rounding half away from
/// zero when digits are dropped, as Hive does).
pub(crate) fn rescale(unscaled: i128, from: u32, to: u32) -> Option<i128> {
    if from == to {
        return Some(unscaled);
    }
    if to > from {
        return unscaled.checked_mul(10i128.checked_pow(to - from)?);
    }
    let divisor = 10i128.checked_pow(from - to)?;
    let quotient = unscaled / divisor;
    let remainder = unscaled % divisor;
    if remainder.unsigned_abs() * 2 >= divisor.unsigned_abs() {
        Some(quotient + unscaled.signum())
    } else {
        Some(quotient)
    }
}

/// The dictionary of a string column: `size` entries whose lengths are in `lengths`
/// and bytes in `data`.
/// The bytes of the longest of `entries`.
fn longest_entry(entries: &ByteArrayBatch) -> usize {
    let offsets = entries.offsets();
    let lengths = offsets.iter().zip(offsets.iter().skip(1));
    lengths
        .map(|(a, b)| b.saturating_sub(*a) as usize)
        .max()
        .unwrap_or(0)
}

fn read_dictionary(
    column: u32,
    size: u32,
    data: &[u8],
    lengths: Bytes,
    version: rle::Version,
) -> Result<ByteArrayBatch> {
    let size = size as usize;
    // Entries are distinct, so all but one (the empty string) take a byte at least: a
    // larger claim cannot be true and must not size an allocation.
    if size > data.len() + 1 {
        return Err(Error::from(ErrorKind::DictionaryTooLarge {
            entries: size as u64,
            bytes: data.len() as u64,
        })
        .at_column(column));
    }
    let mut lens = vec![0i64; size];
    let got = int::Decoder::new(lengths, version, Sign::Unsigned)
        .decode(&mut lens)
        .decoding("dictionary lengths")
        .at_column(column)
        .in_stream("LENGTH")?;
    if got < size {
        return Err(short("LENGTH", size, got).at_column(column));
    }
    let mut entries = ByteArrayBatch::with_capacity(size, data.len());
    let mut start = 0usize;
    for &len in &lens {
        let end = usize::try_from(len)
            .ok()
            .and_then(|len| start.checked_add(len))
            .filter(|&end| end <= data.len())
            .ok_or_else(|| {
                Error::out_of_bounds(
                    "dictionary entry",
                    (start as u64, u64::try_from(len).unwrap_or(u64::MAX)),
                    "the stream",
                    data.len() as u64,
                )
                .at_column(column)
                .in_stream("DICTIONARY_DATA")
            })?;
        entries.push(data.get(start..end).unwrap_or_default())?;
        start = end;
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {

    #[test]
    fn times_before_a_zones_first_transition_take_its_first_offset() {
        let zone = Zone::new("America/Los_Angeles").unwrap();
        let Zone::Named { base, first, .. } = &zone else {
            panic!("a named zone");
        };
        // 1883-11-18 12:07:02 local mean time, when Los Angeles took -8:00.
        assert_eq!(*first, Some((-2_717_640_000, -8 * 3600)));
        // 1800-01-01 08:00:00 UTC is 00:00:00 at -8:00 (at -7:52:58 it would be 00:07:02).
        let instant = -5_364_633_600;
        assert_eq!(zone.utc_seconds(instant - base), instant);
        assert_eq!(zone.wall_clock(instant), instant - 8 * 3600);
        // After it, the zone's own rules: 2020-07-01 12:00:00 UTC, in summer time.
        let summer = 1_593_604_800;
        assert_eq!(zone.wall_clock(summer), summer - 7 * 3600);
    }
    use super::*;

    #[test]
    fn zones_keep_their_last_rules_to_the_end_of_9999() {
        let zone = Zone::new("America/Los_Angeles").unwrap();
        let last = jiff::Timestamp::MAX.as_second();
        // 9999-12-31 23:59:59 UTC, past jiff's last instant (9999-12-30 22:00:00 UTC):
        // Pacific Standard Time, as on every 31 December.
        let end = 253_402_300_799;
        assert!(end > last);
        assert_eq!(zone.wall_clock(end), end - 8 * 3600);
        assert_eq!(zone.wall_clock(last + 1), last + 1 - 8 * 3600);
        // 400 years on, past any calendar's use, the rules still hold: summer time in
        // July of 10399 (1 July 10399 12:00 UTC).
        let july = 266_009_184_000 + 12 * 3600;
        assert_eq!(zone.wall_clock(july), july - 7 * 3600);
        // A zone without transitions keeps its offset before jiff's first instant too.
        let tokyo_like = Zone::new("Etc/GMT-9").unwrap();
        let first = jiff::Timestamp::MIN.as_second();
        assert_eq!(tokyo_like.wall_clock(first - 10), first - 10 + 9 * 3600);
        assert_eq!(
            tokyo_like.wall_clock(i64::MAX - 86_400),
            i64::MAX - 86_400 + 9 * 3600
        );
    }

    #[test]
    fn nanos_drop_trailing_zeros() {
        assert_eq!(decode_nanos(0), Some(0));
        assert_eq!(decode_nanos(1000 << 3), Some(1000));
        // 1000 as "1, 3 zeros": z = 2 means 10^3.
        assert_eq!(decode_nanos((1 << 3) | 2), Some(1000));
        assert_eq!(decode_nanos(123_456_789 << 3), Some(123_456_789));
        assert_eq!(decode_nanos((5 << 3) | 7), Some(500_000_000));
        assert_eq!(decode_nanos((10 << 3) | 7), None);
        // Negative, as Arrow writes the fraction of a time before 1970.
        assert_eq!(decode_nanos(-1 << 3), Some(-1));
        assert_eq!(decode_nanos((-5 << 3) | 7), Some(-500_000_000));
        assert_eq!(decode_nanos(-10 << 3 | 7), None);
    }

    #[test]
    fn rescale_rounds_half_away_from_zero() {
        assert_eq!(rescale(12345, 2, 4), Some(1_234_500));
        assert_eq!(rescale(12345, 3, 1), Some(123));
        assert_eq!(rescale(12355, 3, 1), Some(124));
        assert_eq!(rescale(-12355, 3, 1), Some(-124));
        assert_eq!(rescale(i128::MAX, 0, 2), None);
    }

    #[test]
    fn spread_moves_values_to_present_slots() {
        let mut v = vec![1, 2, 3];
        spread(&mut v, Some(&[false, true, true, false, true]), 0);
        assert_eq!(v, [0, 1, 2, 0, 3]);
    }
}
