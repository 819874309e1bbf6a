//! Column decoders: one per column of the read schema, each over its stripe's streams,
//! filling [`Vector`]s a batch at a time.
//!
//! A decoder is asked for `n` slots and the parent's presence mask: a slot where the
//! parent is null is null without reading anything (ORC stores a child's values, and its
//! PRESENT bits, only for the rows where its parent holds a value), the PRESENT stream
//! says which of the others hold a value, and only those are read from the data
//! streams.
//!
//! This module holds the decoder, its streams and what the families share; each family
//! of types reads its values in a submodule: [`integers`] (booleans, bytes, integers,
//! dates), [`floats`], [`strings`] (DIRECT and DICTIONARY), [`timestamps`],
//! [`decimals`] and [`nested`] (lists, maps, structs, unions).

use bytes::Bytes;

use crate::error::{Context as _, Decoding as _, Error, ErrorKind, Result};
use crate::limits::Limits;
use crate::proto::RowIndex;
use crate::proto::column_encoding::Kind as EncodingKind;
use crate::proto::stream::Kind as StreamKind;
use crate::rle::{self, Sign, boolean, byte, int};
use crate::schema::{Kind, TypeDescription};
use crate::vector::{Vector, VectorData};

use super::stripe::{Stream, StripeStreams};

mod decimals;
mod floats;
mod integers;
mod nested;
mod strings;
mod timestamps;

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

/// The decoder of a column's values, by type family.
enum Decoder {
    Boolean(Bools),
    Byte(Bytes8),
    Int(Ints),
    /// Days of the hybrid Julian/Gregorian calendar, read as proleptic Gregorian days.
    HybridDate(Ints),
    Float(Raw),
    Double(Raw),
    Direct(strings::Direct),
    Dictionary(strings::Dictionary),
    Timestamp(timestamps::Timestamp),
    Decimal(decimals::Decimal),
    List(nested::List),
    Map(nested::Map),
    Struct(Vec<ColumnDecoder>),
    Union(nested::Union),
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
    fn at(&mut self, p: &mut Positions<'_>) -> Result<Bytes> {
        let at = self.seek_to(p);
        self.said(at)
    }

    /// Makes the window hold `need` bytes from `from` on ([`Stream::refill`]), its
    /// error saying which stream.
    fn refilled(&mut self, from: usize, need: usize) -> Result<bool> {
        let moved = self.refill(from, need);
        self.said(moved)
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

    fn seek_to(&mut self, p: &mut Positions<'_>) -> Result<Bytes> {
        if self.is_chunked() {
            let chunk = p.next()?;
            let within = p.next()?;
            return self
                .seek_chunk(chunk, within)
                .map_err(|e| e.at_column(p.column));
        }
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

/// Values of a run-length stream decoded a chunk at a time are decoded (or skipped) at
/// most this many at a time, the window holding [`STEP_BYTES`] past the decoder first.
const STEP: usize = 128;

/// The most bytes [`STEP`] values of any of ORC's run-length encodings can take, with
/// the rest of the run the last of them is in: a value may be a run of its own, the
/// largest run of one value being an RLE v2 `PATCHED_BASE` of 8-byte base, value and
/// 31 patches (268 bytes), and the largest run of all one of 512 such values (4,356
/// bytes).
const STEP_BYTES: usize = STEP * 280 + 8192;

/// A run-length decoder over the bytes of a [`Stream`].
trait RunDecoder {
    type Value;
    fn remaining_input(&self) -> usize;
    fn set_input(&mut self, input: Bytes);
    fn decode(&mut self, out: &mut [Self::Value]) -> parquet_core::Result<usize>;
    fn skip(&mut self, n: usize) -> parquet_core::Result<usize>;
}

macro_rules! run_decoder {
    ($decoder:ty, $value:ty) => {
        impl RunDecoder for $decoder {
            type Value = $value;
            fn remaining_input(&self) -> usize {
                self.remaining_input()
            }
            fn set_input(&mut self, input: Bytes) {
                self.set_input(input);
            }
            fn decode(&mut self, out: &mut [$value]) -> parquet_core::Result<usize> {
                self.decode(out)
            }
            fn skip(&mut self, n: usize) -> parquet_core::Result<usize> {
                self.skip(n)
            }
        }
    };
}

run_decoder!(int::Decoder<Bytes>, i64);
run_decoder!(byte::Decoder<Bytes>, u8);
run_decoder!(boolean::Decoder<Bytes>, bool);

/// Fills `out` from `decoder` over `stream` (what it decodes: `what`): at once from a
/// stream decoded whole, [`STEP`] values at a time from one decoded a chunk at a time,
/// moving the window on before each step. Fewer than `out.len()` only where the stream
/// ends.
fn decode_runs<D: RunDecoder>(
    stream: &mut Stream,
    decoder: &mut D,
    out: &mut [D::Value],
    what: &'static str,
) -> Result<usize> {
    let mut done = 0;
    while done < out.len() {
        let want = if stream.is_chunked() {
            refill_runs(stream, decoder, STEP_BYTES)?;
            (out.len() - done).min(STEP)
        } else {
            out.len() - done
        };
        let step = out.get_mut(done..done + want).unwrap_or_default();
        let got = stream.decoded(decoder.decode(step), what)?;
        done += got;
        // Short: the decoder is at the end of its bytes, and so of the stream, unless
        // more of it is still to be decoded.
        if got < want && stream.is_exhausted() {
            break;
        }
    }
    Ok(done)
}

/// Skips `n` values of `decoder` over `stream`, as [`decode_runs`] decodes them;
/// returns how many it skipped.
fn skip_runs<D: RunDecoder>(
    stream: &mut Stream,
    decoder: &mut D,
    n: usize,
    what: &'static str,
) -> Result<usize> {
    if !stream.is_chunked() {
        return stream.decoded(decoder.skip(n), what);
    }
    let mut done = 0;
    while done < n {
        refill_runs(stream, decoder, STEP_BYTES)?;
        let want = (n - done).min(STEP);
        let got = stream.decoded(decoder.skip(want), what)?;
        done += got;
        if got < want && stream.is_exhausted() {
            break;
        }
    }
    Ok(done)
}

/// The most bytes `values` values of a run-length stream can take, as [`STEP_BYTES`].
const fn runs_need(values: usize) -> usize {
    values
        .saturating_add(STEP)
        .saturating_mul(STEP_BYTES.div_ceil(STEP))
}

/// Moves the window of a stream decoded a chunk at a time on, so that it holds `need`
/// bytes past `decoder` (whose input is the window), and hands the decoder the new
/// window.
fn refill_runs<D: RunDecoder>(stream: &mut Stream, decoder: &mut D, need: usize) -> Result<()> {
    let from = stream.bytes.len().saturating_sub(decoder.remaining_input());
    if stream.refilled(from, need)? {
        decoder.set_input(stream.bytes.clone());
    }
    Ok(())
}

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
        decode_runs(&mut self.stream, &mut self.decoder, out, INT_RLE)
    }

    fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.decoder = int::Decoder::new(self.stream.at(p)?, self.version, self.sign);
        let n = p.count()?;
        let skipped = skip_runs(&mut self.stream, &mut self.decoder, n, INT_RLE)?;
        skip_exact(skipped, n, p.column)
    }

    /// Makes the window hold what `values` more values can take, for a copy of the
    /// decoder to look ahead in.
    fn refill_for(&mut self, values: usize) -> Result<()> {
        refill_runs(&mut self.stream, &mut self.decoder, runs_need(values))
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
        decode_runs(&mut self.stream, &mut self.decoder, out, BYTE_RLE)
    }

    fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.decoder = byte::Decoder::new(self.stream.at(p)?);
        let n = p.count()?;
        let skipped = skip_runs(&mut self.stream, &mut self.decoder, n, BYTE_RLE)?;
        skip_exact(skipped, n, p.column)
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
        decode_runs(&mut self.stream, &mut self.decoder, out, BOOLEAN_RLE)
    }

    fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.decoder = boolean::Decoder::new(self.stream.at(p)?);
        // Bytes of the byte RLE to skip, then bits of the next byte.
        let bytes = p.count()?;
        let bits = p.count()?;
        let n = bytes.saturating_mul(8).saturating_add(bits);
        let skipped = skip_runs(&mut self.stream, &mut self.decoder, n, BOOLEAN_RLE)?;
        skip_exact(skipped, n, p.column)
    }

    /// Makes the window hold what `values` more values can take, for a copy of the
    /// decoder to look ahead in.
    fn refill_for(&mut self, values: usize) -> Result<()> {
        refill_runs(&mut self.stream, &mut self.decoder, runs_need(values))
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

    /// Makes the bytes hold `need` past the position, or all that is left of the
    /// stream: of a stream decoded a chunk at a time, only what is read is decoded.
    fn ensure(&mut self, need: usize) -> Result<()> {
        if self.stream.refilled(self.pos, need)? {
            self.bytes = self.stream.bytes.clone();
            self.pos = 0;
        }
        Ok(())
    }

    /// Whether more than `bytes` may be left to read.
    fn may_hold_more_than(&self, bytes: usize) -> bool {
        if self.stream.is_chunked() {
            // The window is these bytes.
            self.stream.may_hold_more_than(self.pos, bytes)
        } else {
            self.bytes.len().saturating_sub(self.pos) > bytes
        }
    }

    fn take(&mut self, len: usize, stream: &'static str) -> Result<&[u8]> {
        self.ensure(len)?;
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
                Decoder::Dictionary(strings::Dictionary::new(id, streams, version)?)
            }
            Kind::String | Kind::Varchar | Kind::Char | Kind::Binary => {
                Decoder::Direct(strings::Direct::new(
                    raw(streams, StreamKind::Data),
                    int(streams, StreamKind::Length, Sign::Unsigned),
                ))
            }
            Kind::Timestamp | Kind::TimestampInstant => {
                let seconds = int(streams, StreamKind::Data, Sign::Signed);
                let nanos = int(streams, StreamKind::Secondary, Sign::Unsigned);
                let zone = match kind {
                    Kind::Timestamp => streams.timezone.as_deref(),
                    _ => None,
                };
                Decoder::Timestamp(timestamps::Timestamp::new(
                    seconds,
                    nanos,
                    zone,
                    streams.hybrid_calendar,
                )?)
            }
            Kind::Decimal => Decoder::Decimal(decimals::Decimal::new(
                raw(streams, StreamKind::Data),
                int(streams, StreamKind::Secondary, Sign::Signed),
                column.scale(),
            )),
            Kind::List => Decoder::List(nested::List::new(
                int(streams, StreamKind::Length, Sign::Unsigned),
                Self::child(column, 0, selected, streams)?,
            )),
            Kind::Map => Decoder::Map(nested::Map::new(
                int(streams, StreamKind::Length, Sign::Unsigned),
                Self::child(column, 0, selected, streams)?,
                Self::child(column, 1, selected, streams)?,
            )),
            Kind::Struct => Decoder::Struct(
                column
                    .children()
                    .iter()
                    .filter(|c| selected.get(c.id() as usize).copied().unwrap_or(false))
                    .map(|c| Self::new(c, selected, streams))
                    .collect::<Result<_>>()?,
            ),
            Kind::Union => Decoder::Union(nested::Union::new(
                Bytes8::new(streams.require(id, StreamKind::Data)),
                (0..column.children().len())
                    .map(|i| Self::child(column, i, selected, streams))
                    .collect::<Result<_>>()?,
            )),
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
    pub(crate) fn rows_within_budget(&mut self, n: usize) -> usize {
        let budget = self.limits.max_batch_bytes();
        let peeked = match &mut self.kind {
            Decoder::Dictionary(strings::Dictionary {
                entries,
                ids,
                longest,
                ..
            }) if longest.saturating_mul(n) > budget => Self::peek(self.present.as_mut(), n, ids)
                .map(|(present, ids)| {
                    let widths = ids.iter().map(|&id| {
                        usize::try_from(id)
                            .ok()
                            .and_then(|id| entries.get(id))
                            .map_or(0, <[u8]>::len)
                    });
                    (present, widths.collect::<Vec<_>>())
                }),
            Decoder::Direct(strings::Direct { data, lengths, .. })
                if data.may_hold_more_than(budget) =>
            {
                Self::peek(self.present.as_mut(), n, lengths).map(|(present, lengths)| {
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
    fn peek(
        present: Option<&mut Bools>,
        n: usize,
        ints: &mut Ints,
    ) -> Option<(Option<Vec<bool>>, Vec<i64>)> {
        let present = match present {
            None => None,
            Some(present) => {
                // Copies of the decoders look ahead in the windows of their streams.
                present.refill_for(n).ok()?;
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
        ints.refill_for(count).ok()?;
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
    fn read_values(
        &mut self,
        n: usize,
        count: usize,
        present: Option<&[bool]>,
        out: &mut Vector,
    ) -> Result<()> {
        let column = self.column;
        let limits = &self.limits;
        match &mut self.kind {
            Decoder::Boolean(data) => integers::read_booleans(data, count, present, out),
            Decoder::Byte(data) => integers::read_bytes(data, count, present, out),
            Decoder::Int(data) => integers::read_ints(data, count, present, out),
            Decoder::HybridDate(data) => integers::read_hybrid_dates(data, count, present, out),
            Decoder::Float(data) => floats::read_floats(data, count, present, out),
            Decoder::Double(data) => floats::read_doubles(data, count, present, out),
            Decoder::Direct(direct) => direct.read(n, count, present, limits, out),
            Decoder::Dictionary(dictionary) => dictionary.read(n, count, present, limits, out),
            Decoder::Timestamp(timestamp) => timestamp.read(count, present, out),
            Decoder::Decimal(decimal) => decimal.read(count, present, column, out),
            Decoder::List(list) => list.read(n, count, present, column, limits, out),
            Decoder::Map(map) => map.read(n, count, present, column, limits, out),
            Decoder::Struct(fields) => nested::read_struct(fields, n, present, out),
            Decoder::Union(union) => union.read(n, count, present, out),
        }
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
            Decoder::Direct(direct) => direct.seek(&mut p)?,
            Decoder::Dictionary(dictionary) => dictionary.seek(&mut p)?,
            Decoder::Timestamp(timestamp) => timestamp.seek(&mut p)?,
            Decoder::Decimal(decimal) => decimal.seek(&mut p)?,
            Decoder::List(list) => list.seek(&mut p, group, indexes)?,
            Decoder::Map(map) => map.seek(&mut p, group, indexes)?,
            Decoder::Struct(fields) => {
                for field in fields {
                    field.seek(group, indexes)?;
                }
            }
            Decoder::Union(union) => union.seek(&mut p, group, indexes)?,
        }
        Ok(())
    }

    /// Every column id this decoder reads (its own and its children's).
    pub(crate) fn columns(&self, out: &mut Vec<u32>) {
        out.push(self.column);
        match &self.kind {
            Decoder::List(list) => list.elements.columns(out),
            Decoder::Map(map) => {
                map.keys.columns(out);
                map.values.columns(out);
            }
            Decoder::Struct(fields) => fields.iter().for_each(|f| f.columns(out)),
            Decoder::Union(union) => union.alternatives.iter().for_each(|a| a.columns(out)),
            _ => {}
        }
    }
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

fn reuse_ints(out: &mut Vector) -> &mut Vec<i64> {
    if !matches!(out.data, VectorData::Int(_)) {
        out.data = VectorData::Int(Vec::new());
    }
    let VectorData::Int(v) = &mut out.data else {
        unreachable!()
    };
    v
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_moves_values_to_present_slots() {
        let mut v = vec![1, 2, 3];
        spread(&mut v, Some(&[false, true, true, false, true]), 0);
        assert_eq!(v, [0, 1, 2, 0, 3]);
    }
}
