//! One writer per column of the schema (by column id): its streams' encoders, its
//! statistics at the three levels, and its row index entries for the stripe.
//!
//! Values reach a column as runs of slots of its vector, `(start, end)`: all slots of
//! the rows being written for a top-level column, the slots of non-null parents for a
//! struct's fields, of the matching tag for a union's alternatives, and the element
//! ranges of non-null lists and maps. Batches are checked before they get here
//! ([`super::validate`]); anything that still does not match is skipped, never a
//! panic.

use crate::proto;
use crate::proto::stream::Kind as StreamKind;
use crate::rle::{self, Sign, boolean, byte, int};
use crate::schema::{Kind, TypeDescription};
use crate::statistics::StatisticsBuilder;
use crate::vector::{Vector, VectorData};

/// Seconds from 1970-01-01 to 2015-01-01, the base of timestamps in files.
pub(crate) const TIMESTAMP_BASE_SECONDS: i64 = 1_420_070_400;

/// What the columns need to know of the writer's settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context {
    /// The integer RLE of the file version.
    pub(crate) rle: rle::Version,
    /// Whether the file is version 0.11.
    pub(crate) v0: bool,
    /// Whether row-index positions are recorded.
    pub(crate) build_index: bool,
    /// The dictionary ratio threshold.
    pub(crate) dictionary_threshold: f64,
    /// The offset from UTC, in seconds, of the zone the file's `timestamp` wall clocks
    /// are in (the stripes' writer time zone; 0 in version 0.11, which records none).
    pub(crate) writer_offset: i64,
}

/// A row-index position of one stream, with the offset into the uncompressed stream
/// (the writer maps it to a chunk position when it compresses the stream) and the
/// encoder's pending counts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Position {
    /// The stream.
    pub(crate) kind: StreamKind,
    /// The offset in the uncompressed stream.
    pub(crate) offset: u64,
    /// Values (and bits) still pending in the run-length encoder.
    pub(crate) extra: [u64; 2],
    /// How many of `extra` count.
    pub(crate) extras: usize,
}

impl Position {
    fn raw(kind: StreamKind, offset: usize) -> Self {
        Self {
            kind,
            offset: offset as u64,
            extra: [0; 2],
            extras: 0,
        }
    }

    fn rle(kind: StreamKind, (offset, pending): (u64, u64)) -> Self {
        Self {
            kind,
            offset,
            extra: [pending, 0],
            extras: 1,
        }
    }

    fn boolean(kind: StreamKind, (offset, pending, bits): (u64, u64, u64)) -> Self {
        Self {
            kind,
            offset,
            extra: [pending, bits],
            extras: 2,
        }
    }
}

/// A row index entry before its positions are mapped to compressed chunks.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The positions, in the order Apache ORC records them (PRESENT first).
    pub(crate) positions: Vec<Position>,
    /// The row group's statistics.
    pub(crate) statistics: proto::ColumnStatistics,
}

/// What a column hands over at the end of a stripe.
#[derive(Debug)]
pub(crate) struct ColumnStripe {
    /// The streams, in kind order, uncompressed.
    pub(crate) streams: Vec<(StreamKind, Vec<u8>)>,
    /// The column encoding.
    pub(crate) encoding: proto::ColumnEncoding,
    /// The row index entries.
    pub(crate) entries: Vec<Entry>,
    /// Whether the PRESENT stream was left out (no nulls): its positions go too.
    pub(crate) present_dropped: bool,
}

/// The dictionary of a string column's stripe: its entries back to back, numbered in
/// the order they came, with no allocation per entry.
type Dictionary = parquet_dictionary::ByteArrayBuilder;

/// A dictionary without limits of its own: a stripe's is judged by its ratio to the
/// values, and its memory counted in the stripe's size.
fn new_dictionary() -> Dictionary {
    Dictionary::new(parquet_dictionary::Limits {
        max_entries: u32::MAX as usize,
        max_bytes: usize::MAX,
    })
}

/// How a string column's stripe is being encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StringMode {
    /// Values go to the dictionary until the ratio is checked.
    Undecided,
    /// Dictionary encoding for this stripe.
    Dictionary,
    /// Direct encoding for this stripe.
    Direct,
}

#[derive(Debug)]
struct StringColumn {
    mode: StringMode,
    /// The mode each stripe starts in.
    initial: StringMode,
    dictionary: Dictionary,
    dictionary_bytes: usize,
    /// Dictionary ids of the non-null values (in insertion numbering) not yet written.
    rows: Vec<u32>,
    /// Where each row group whose ids are in `rows` starts in it.
    group_starts: Vec<usize>,
    /// The first entry whose DATA positions are still to come.
    first_pending_entry: usize,
    data: Vec<u8>,
    lengths: int::Encoder,
}

#[derive(Debug)]
enum Data {
    None,
    Boolean(boolean::Encoder),
    Byte(byte::Encoder),
    Int(int::Encoder),
    Float(Vec<u8>),
    String(Box<StringColumn>),
    Binary {
        data: Vec<u8>,
        lengths: int::Encoder,
    },
    Timestamp {
        seconds: int::Encoder,
        nanos: int::Encoder,
    },
    Decimal {
        data: Vec<u8>,
        scales: int::Encoder,
    },
    Length(int::Encoder),
    Union(byte::Encoder),
}

/// The writer of one column.
#[derive(Debug)]
pub(crate) struct ColumnState {
    kind: Kind,
    /// char and varchar: the length, and whether to pad (char).
    text_length: Option<(usize, bool)>,
    /// A decimal's declared precision and scale.
    decimal: Option<(u32, u32)>,
    present: boolean::Encoder,
    has_nulls: bool,
    data: Data,
    group: StatisticsBuilder,
    stripe: StatisticsBuilder,
    file: StatisticsBuilder,
    entries: Vec<Entry>,
    start: Vec<Position>,
    /// Scratch for char and varchar values.
    scratch: Vec<u8>,
}

impl ColumnState {
    /// The writers of every column of `schema`, by column id.
    pub(crate) fn for_schema(schema: &TypeDescription, ctx: &Context) -> Vec<Self> {
        schema
            .preorder()
            .into_iter()
            .map(|t| Self::new(t, ctx))
            .collect()
    }

    fn new(t: &TypeDescription, ctx: &Context) -> Self {
        let int = |sign| int::Encoder::new(ctx.rle, sign);
        let data = match t.kind() {
            Kind::Boolean => Data::Boolean(boolean::Encoder::new()),
            Kind::Byte => Data::Byte(byte::Encoder::new()),
            Kind::Short | Kind::Int | Kind::Long | Kind::Date => Data::Int(int(Sign::Signed)),
            Kind::Float | Kind::Double => Data::Float(Vec::new()),
            Kind::String | Kind::Char | Kind::Varchar => {
                let initial = if ctx.dictionary_threshold <= 0.0 {
                    StringMode::Direct
                } else {
                    StringMode::Undecided
                };
                Data::String(Box::new(StringColumn {
                    mode: initial,
                    initial,
                    dictionary: new_dictionary(),
                    dictionary_bytes: 0,
                    rows: Vec::new(),
                    group_starts: Vec::new(),
                    first_pending_entry: 0,
                    data: Vec::new(),
                    lengths: int(Sign::Unsigned),
                }))
            }
            Kind::Binary => Data::Binary {
                data: Vec::new(),
                lengths: int(Sign::Unsigned),
            },
            Kind::Timestamp | Kind::TimestampInstant => Data::Timestamp {
                seconds: int(Sign::Signed),
                nanos: int(Sign::Unsigned),
            },
            Kind::Decimal => Data::Decimal {
                data: Vec::new(),
                scales: int(Sign::Signed),
            },
            Kind::List | Kind::Map => Data::Length(int(Sign::Unsigned)),
            Kind::Union => Data::Union(byte::Encoder::new()),
            Kind::Struct => Data::None,
        };
        let text_length = match t.kind() {
            Kind::Char => Some((t.max_length().unwrap_or(1) as usize, true)),
            Kind::Varchar => Some((t.max_length().unwrap_or(u32::MAX) as usize, false)),
            _ => None,
        };
        let decimal = t.precision().zip(t.scale());
        let mut state = Self {
            kind: t.kind(),
            text_length,
            decimal,
            present: boolean::Encoder::new(),
            has_nulls: false,
            data,
            group: StatisticsBuilder::new(t),
            stripe: StatisticsBuilder::new(t),
            file: StatisticsBuilder::new(t),
            entries: Vec::new(),
            start: Vec::new(),
            scratch: Vec::new(),
        };
        state.record_start(ctx);
        state
    }

    /// Records the positions of every stream at the start of a row group.
    fn record_start(&mut self, ctx: &Context) {
        if !ctx.build_index {
            return;
        }
        self.start.clear();
        self.start.push(Position::boolean(
            StreamKind::Present,
            self.present.position(),
        ));
        let start = &mut self.start;
        match &mut self.data {
            Data::None => {}
            Data::Boolean(e) => start.push(Position::boolean(StreamKind::Data, e.position())),
            Data::Byte(e) | Data::Union(e) => {
                start.push(Position::rle(StreamKind::Data, e.position()));
            }
            Data::Int(e) => start.push(Position::rle(StreamKind::Data, e.position())),
            Data::Float(buf) => start.push(Position::raw(StreamKind::Data, buf.len())),
            Data::String(s) => match s.mode {
                StringMode::Direct => {
                    start.push(Position::raw(StreamKind::Data, s.data.len()));
                    start.push(Position::rle(StreamKind::Length, s.lengths.position()));
                }
                StringMode::Undecided | StringMode::Dictionary => s.group_starts.push(s.rows.len()),
            },
            Data::Binary { data, lengths } => {
                start.push(Position::raw(StreamKind::Data, data.len()));
                start.push(Position::rle(StreamKind::Length, lengths.position()));
            }
            Data::Timestamp { seconds, nanos } => {
                start.push(Position::rle(StreamKind::Data, seconds.position()));
                start.push(Position::rle(StreamKind::Secondary, nanos.position()));
            }
            Data::Decimal { data, scales } => {
                start.push(Position::raw(StreamKind::Data, data.len()));
                start.push(Position::rle(StreamKind::Secondary, scales.position()));
            }
            Data::Length(e) => start.push(Position::rle(StreamKind::Length, e.position())),
        }
    }

    /// Closes the current row group: its statistics and start positions become an
    /// entry, and the next group starts. The first group of a stripe settles a string
    /// column's encoding.
    pub(crate) fn finish_row_group(&mut self, ctx: &Context) {
        self.stripe.merge(&self.group);
        self.entries.push(Entry {
            positions: std::mem::take(&mut self.start),
            statistics: self.group.build().to_proto(),
        });
        self.group.reset();
        if let Data::String(s) = &mut self.data
            && s.mode == StringMode::Undecided
        {
            s.decide(ctx, &mut self.entries);
        }
        self.record_start(ctx);
    }

    /// The bytes the column holds for the stripe so far, as Java estimates them (a
    /// dictionary counts its bytes and 4 bytes per value).
    pub(crate) fn estimated_size(&self) -> usize {
        self.present.estimated_size()
            + match &self.data {
                Data::None => 0,
                Data::Boolean(e) => e.estimated_size(),
                Data::Byte(e) | Data::Union(e) => e.estimated_size(),
                Data::Int(e) | Data::Length(e) => e.estimated_size(),
                Data::Float(buf) => buf.len(),
                Data::String(s) => {
                    s.data.len()
                        + s.lengths.estimated_size()
                        + s.dictionary_bytes
                        + 4 * s.rows.len()
                }
                Data::Binary { data, lengths } => data.len() + lengths.estimated_size(),
                Data::Timestamp { seconds, nanos } => {
                    seconds.estimated_size() + nanos.estimated_size()
                }
                Data::Decimal { data, scales } => data.len() + scales.estimated_size(),
            }
    }

    /// Ends the stripe: the encoded streams, the encoding and the row index entries.
    /// Statistics of a row group still open (no row index) move to the stripe's.
    pub(crate) fn take_stripe(&mut self, ctx: &Context) -> ColumnStripe {
        if !ctx.build_index {
            self.stripe.merge(&self.group);
            self.group.reset();
        }
        let direct = match ctx.rle {
            rle::Version::V1 => proto::column_encoding::Kind::Direct,
            rle::Version::V2 => proto::column_encoding::Kind::DirectV2,
        };
        let mut encoding = proto::ColumnEncoding {
            kind: Some(direct as i32),
            dictionary_size: None,
            bloom_encoding: None,
        };
        let mut streams = Vec::with_capacity(4);
        let present = self.present.finish();
        let present_dropped = !self.has_nulls;
        if self.has_nulls {
            streams.push((StreamKind::Present, present));
        }
        self.has_nulls = false;
        let plain_direct = Some(proto::column_encoding::Kind::Direct as i32);
        match &mut self.data {
            Data::None => encoding.kind = plain_direct,
            Data::Boolean(e) => {
                encoding.kind = plain_direct;
                streams.push((StreamKind::Data, e.finish()));
            }
            Data::Byte(e) | Data::Union(e) => {
                encoding.kind = plain_direct;
                streams.push((StreamKind::Data, e.finish()));
            }
            Data::Float(buf) => {
                encoding.kind = plain_direct;
                streams.push((StreamKind::Data, std::mem::take(buf)));
            }
            Data::Int(e) => streams.push((StreamKind::Data, e.finish())),
            Data::Length(e) => streams.push((StreamKind::Length, e.finish())),
            Data::Binary { data, lengths } => {
                streams.push((StreamKind::Data, std::mem::take(data)));
                streams.push((StreamKind::Length, lengths.finish()));
            }
            Data::Timestamp { seconds, nanos } => {
                streams.push((StreamKind::Data, seconds.finish()));
                streams.push((StreamKind::Secondary, nanos.finish()));
            }
            Data::Decimal { data, scales } => {
                streams.push((StreamKind::Data, std::mem::take(data)));
                streams.push((StreamKind::Secondary, scales.finish()));
            }
            Data::String(s) => {
                if s.mode == StringMode::Undecided {
                    s.decide(ctx, &mut self.entries);
                }
                if s.mode == StringMode::Dictionary {
                    let (ids, dictionary, lengths, size) =
                        s.finish_dictionary(ctx, &mut self.entries);
                    encoding.kind = Some(match ctx.rle {
                        rle::Version::V1 => proto::column_encoding::Kind::Dictionary,
                        rle::Version::V2 => proto::column_encoding::Kind::DictionaryV2,
                    } as i32);
                    encoding.dictionary_size = Some(size);
                    streams.push((StreamKind::Data, ids));
                    streams.push((StreamKind::Length, lengths));
                    streams.push((StreamKind::DictionaryData, dictionary));
                } else {
                    streams.push((StreamKind::Data, std::mem::take(&mut s.data)));
                    streams.push((StreamKind::Length, s.lengths.finish()));
                }
                s.mode = s.initial;
                s.first_pending_entry = 0;
                s.group_starts.clear();
            }
        }
        let entries = std::mem::take(&mut self.entries);
        self.record_start(ctx);
        ColumnStripe {
            streams,
            encoding,
            entries,
            present_dropped,
        }
    }

    /// The stripe's statistics, with the bytes its streams took on disk; they join the
    /// file's, and the next stripe starts empty.
    pub(crate) fn finish_stripe_statistics(
        &mut self,
        bytes_on_disk: u64,
    ) -> proto::ColumnStatistics {
        self.stripe.add_bytes_on_disk(bytes_on_disk);
        let out = self.stripe.build().to_proto();
        self.file.merge(&self.stripe);
        self.stripe.reset();
        out
    }

    /// The file's statistics so far.
    pub(crate) fn file_statistics(&self) -> proto::ColumnStatistics {
        self.file.build().to_proto()
    }

    /// Writes the presence of the slots in `runs`; returns how many are present.
    fn write_present(&mut self, present: Option<&[bool]>, runs: &[(usize, usize)]) -> usize {
        let total: usize = runs.iter().map(|&(a, b)| b - a).sum();
        let count = match present {
            None => {
                const TRUES: [bool; 256] = [true; 256];
                let mut left = total;
                while left > 0 {
                    let n = left.min(TRUES.len());
                    self.present.extend(TRUES.get(..n).unwrap_or_default());
                    left -= n;
                }
                total
            }
            Some(p) => {
                let mut count = 0;
                for &(a, b) in runs {
                    let slice = p.get(a..b).unwrap_or_default();
                    self.present.extend(slice);
                    count += slice.iter().filter(|&&x| x).count();
                }
                count
            }
        };
        self.group.add_values(count as u64);
        if count < total {
            self.group.set_null();
            self.has_nulls = true;
        }
        count
    }
}

impl StringColumn {
    /// Adds a non-null value.
    #[inline]
    fn push(&mut self, value: &[u8]) {
        if self.mode == StringMode::Direct {
            self.data.extend_from_slice(value);
            self.lengths.push(len_i64(value.len()));
            return;
        }
        let entries = self.dictionary.len();
        // `None` only past 2^32 - 1 entries, more than a stripe's values can number.
        let id = self.dictionary.insert(value).unwrap_or(u32::MAX);
        if self.dictionary.len() > entries {
            self.dictionary_bytes += value.len() + 32;
        }
        self.rows.push(id);
    }

    /// Chooses dictionary or direct encoding for the stripe as Java does: the
    /// dictionary stays when its size is at most the threshold times the values.
    fn decide(&mut self, ctx: &Context, entries: &mut [Entry]) {
        #[allow(clippy::cast_precision_loss)] // Java compares floats too
        let ratio = if self.rows.is_empty() {
            0.0
        } else {
            self.dictionary.len() as f32 / self.rows.len() as f32
        };
        if f64::from(ratio) <= ctx.dictionary_threshold {
            self.mode = StringMode::Dictionary;
        } else {
            self.go_direct(ctx, entries);
        }
    }

    /// Writes the values held in the dictionary as direct values, recording the DATA
    /// and LENGTH positions of the row groups they start, and goes on direct.
    fn go_direct(&mut self, ctx: &Context, entries: &mut [Entry]) {
        let by_id = self.dictionary.entries();
        let mut starts = self.group_starts.iter().copied().peekable();
        let mut entry_index = self.first_pending_entry;
        let mut record = |data: &Vec<u8>, lengths: &int::Encoder, at: usize| {
            while starts.next_if(|&s| s == at).is_some() {
                if ctx.build_index
                    && let Some(entry) = entries.get_mut(entry_index)
                {
                    entry
                        .positions
                        .push(Position::raw(StreamKind::Data, data.len()));
                    entry
                        .positions
                        .push(Position::rle(StreamKind::Length, lengths.position()));
                }
                entry_index += 1;
            }
        };
        for (i, &id) in self.rows.iter().enumerate() {
            record(&self.data, &self.lengths, i);
            let value = by_id.get(id as usize).unwrap_or_default();
            self.data.extend_from_slice(value);
            self.lengths.push(len_i64(value.len()));
        }
        record(&self.data, &self.lengths, self.rows.len());
        self.dictionary.clear();
        self.dictionary_bytes = 0;
        self.rows.clear();
        self.group_starts.clear();
        self.first_pending_entry = entry_index;
        self.mode = StringMode::Direct;
    }

    /// Sorts the dictionary and encodes the stripe's DATA (ids), `DICTIONARY_DATA` and
    /// LENGTH streams, recording the DATA positions of the row groups.
    fn finish_dictionary(
        &mut self,
        ctx: &Context,
        entries: &mut [Entry],
    ) -> (Vec<u8>, Vec<u8>, Vec<u8>, u32) {
        let entries_by_id = self.dictionary.entries();
        #[allow(clippy::cast_possible_truncation)] // fewer than 2^32 entries
        let mut sorted: Vec<(&[u8], u32)> = (0..entries_by_id.len())
            .map(|id| (entries_by_id.get(id).unwrap_or_default(), id as u32))
            .collect();
        sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut rank = vec![0u32; sorted.len()];
        let total: usize = sorted.iter().map(|(k, _)| k.len()).sum();
        let mut dictionary = Vec::with_capacity(total);
        for (r, &(key, id)) in sorted.iter().enumerate() {
            if let Some(slot) = rank.get_mut(id as usize) {
                #[allow(clippy::cast_possible_truncation)] // fewer than 2^32 entries
                {
                    *slot = r as u32;
                }
            }
            dictionary.extend_from_slice(key);
            self.lengths.push(len_i64(key.len()));
        }
        #[allow(clippy::cast_possible_truncation)]
        let size = sorted.len() as u32;
        drop(sorted);
        let mut ids = int::Encoder::new(ctx.rle, Sign::Unsigned);
        let mut starts = self.group_starts.iter().copied().peekable();
        let mut entry_index = self.first_pending_entry;
        let mut record = |ids: &int::Encoder, at: usize| {
            while starts.next_if(|&s| s == at).is_some() {
                if ctx.build_index
                    && let Some(entry) = entries.get_mut(entry_index)
                {
                    entry
                        .positions
                        .push(Position::rle(StreamKind::Data, ids.position()));
                }
                entry_index += 1;
            }
        };
        for (i, &id) in self.rows.iter().enumerate() {
            record(&ids, i);
            ids.push(i64::from(rank.get(id as usize).copied().unwrap_or(0)));
        }
        record(&ids, self.rows.len());
        self.dictionary.clear();
        self.dictionary_bytes = 0;
        self.rows.clear();
        (ids.finish(), dictionary, self.lengths.finish(), size)
    }
}

/// A length as the `i64` the integer encoders take.
fn len_i64(len: usize) -> i64 {
    i64::try_from(len).unwrap_or(i64::MAX)
}

/// Runs of the slots of `runs` that are present.
fn present_runs(present: Option<&[bool]>, runs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let Some(p) = present else {
        return runs.to_vec();
    };
    let mut out = Vec::new();
    for &(a, b) in runs {
        let mut start = None;
        for i in a..b {
            let here = p.get(i).copied().unwrap_or(false);
            match (here, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    out.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push((s, b));
        }
    }
    out
}

/// Calls `f` with each present slot of `runs`.
#[inline]
fn for_each_present(present: Option<&[bool]>, runs: &[(usize, usize)], mut f: impl FnMut(usize)) {
    for &(a, b) in runs {
        match present {
            None => (a..b).for_each(&mut f),
            Some(p) => {
                for (i, &here) in p.get(a..b).unwrap_or_default().iter().enumerate() {
                    if here {
                        f(a + i);
                    }
                }
            }
        }
    }
}

/// The element runs of the present lists (or maps) among `runs`.
fn element_runs(offsets: &[usize], runs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(runs.len());
    for &(a, b) in runs {
        let (Some(&start), Some(&end)) = (offsets.get(a), offsets.get(b)) else {
            continue;
        };
        if start < end {
            match out.last_mut() {
                Some(last) if last.1 == start => last.1 = end,
                _ => out.push((start, end)),
            }
        }
    }
    out
}

/// `value` cut to `length` characters, and padded to it with spaces for char.
fn fit_text<'a>(value: &'a [u8], length: usize, pad: bool, scratch: &'a mut Vec<u8>) -> &'a [u8] {
    let mut chars = 0;
    for (i, &b) in value.iter().enumerate() {
        if b & 0xc0 != 0x80 {
            if chars == length {
                return value.get(..i).unwrap_or(value);
            }
            chars += 1;
        }
    }
    if pad && chars < length {
        scratch.clear();
        scratch.extend_from_slice(value);
        scratch.resize(value.len() + (length - chars), b' ');
        return scratch;
    }
    value
}

/// `unscaled * 10^-scale` at scale `to` (exact: checked before).
pub(crate) fn rescale_exact(unscaled: i128, scale: u32, to: u32) -> Option<i128> {
    if scale <= to {
        crate::statistics::rescale(unscaled, to - scale)
    } else {
        let p = 10i128.checked_pow(scale - to)?;
        (unscaled % p == 0).then(|| unscaled / p)
    }
}

/// Appends `value` as an unbounded zigzag base-128 varint, as Java's
/// `SerializationUtils.writeBigInteger` writes decimals.
fn write_big_varint(out: &mut Vec<u8>, value: i128) {
    let mut v = ((value << 1) ^ (value >> 127)).cast_unsigned();
    while v >= 0x80 {
        #[allow(clippy::cast_possible_truncation)] // the low 7 bits
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    #[allow(clippy::cast_possible_truncation)] // below 0x80
    out.push(v as u8);
}

/// Java's `formatNanos`: trailing decimal zeros removed and their count (less one) in
/// the low three bits, when there are at least two.
pub(crate) fn encode_nanos(nanos: u32) -> u64 {
    if nanos == 0 {
        return 0;
    }
    if !nanos.is_multiple_of(100) {
        return u64::from(nanos) << 3;
    }
    let mut n = nanos / 100;
    let mut zeros = 1;
    while n.is_multiple_of(10) && zeros < 7 {
        n /= 10;
        zeros += 1;
    }
    u64::from(n) << 3 | zeros
}

/// The seconds a file stores for a wall clock of `seconds` (floored) and `nanos` since
/// 1970 in a zone `offset` seconds ahead of UTC, relative to 2015-01-01 00:00:00 of that
/// zone, as ORC Java stores them: the seconds of the UTC instant's milliseconds truncated
/// toward zero, so that an instant before 1970 (UTC) with a millisecond or more in its
/// fraction stores one second more, which readers take back off when the stored seconds
/// plus the zone's base (the UTC seconds) are negative. An instant in [-1 s, 0) UTC with
/// such a fraction stores second 0, which no reader takes back: the format's limit.
pub(crate) fn file_seconds(seconds: i64, nanos: u32, offset: i64) -> i64 {
    let truncated = if seconds < offset && nanos >= 1_000_000 {
        seconds + 1
    } else {
        seconds
    };
    // (truncated - offset) UTC seconds less the zone's base, 2015-01-01 at that offset.
    truncated - TIMESTAMP_BASE_SECONDS
}

/// Counts `rows` rows in the root struct (column 0), which is never null.
pub(crate) fn write_root(cols: &mut [ColumnState], rows: usize) {
    if let Some(root) = cols.first_mut() {
        root.write_present(None, &[(0, rows)]);
    }
}

/// Writes the slots `runs` of `v`, a vector of type `t`, and its children.
pub(crate) fn write_column(
    cols: &mut [ColumnState],
    t: &TypeDescription,
    v: &Vector,
    runs: &[(usize, usize)],
    ctx: &Context,
) {
    if let Some(col) = cols.get_mut(t.id() as usize) {
        col.write_values(v, runs, ctx);
    }
    write_children(cols, t, v, runs, ctx);
}

impl ColumnState {
    /// Writes the presence and the values of the slots `runs` of `v`.
    #[allow(clippy::too_many_lines)] // one arm per kind
    fn write_values(&mut self, v: &Vector, runs: &[(usize, usize)], ctx: &Context) {
        let present = v.present.as_deref();
        self.write_present(present, runs);
        let Self {
            kind,
            text_length,
            decimal,
            data,
            group,
            scratch,
            ..
        } = self;
        match (data, &v.data) {
            (Data::Boolean(e), VectorData::Boolean(values)) => {
                let mut trues = 0;
                for_each_present(present, runs, |i| {
                    let value = values.get(i).copied().unwrap_or(false);
                    trues += u64::from(value);
                    e.push(value);
                });
                group.update_booleans(trues);
            }
            (Data::Byte(e), VectorData::Int(values)) => for_each_present(present, runs, |i| {
                let value = values.get(i).copied().unwrap_or(0);
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // -128..=127
                e.push(value as i8 as u8);
                group.update_integer(value);
            }),
            (Data::Int(e), VectorData::Int(values)) => {
                let is_date = *kind == Kind::Date;
                if present.is_none() {
                    for &(a, b) in runs {
                        let slice = values.get(a..b).unwrap_or_default();
                        e.extend(slice);
                        if is_date {
                            for &value in slice {
                                #[allow(clippy::cast_possible_truncation)] // checked
                                group.update_date(value as i32);
                            }
                        } else {
                            for &value in slice {
                                group.update_integer(value);
                            }
                        }
                    }
                } else {
                    for_each_present(present, runs, |i| {
                        let value = values.get(i).copied().unwrap_or(0);
                        e.push(value);
                        if is_date {
                            #[allow(clippy::cast_possible_truncation)] // checked
                            group.update_date(value as i32);
                        } else {
                            group.update_integer(value);
                        }
                    });
                }
            }
            (Data::Float(buf), VectorData::Float(values)) => for_each_present(present, runs, |i| {
                let value = values.get(i).copied().unwrap_or(0.0);
                buf.extend_from_slice(&value.to_le_bytes());
                group.update_double(f64::from(value));
            }),
            (Data::Float(buf), VectorData::Double(values)) => {
                for_each_present(present, runs, |i| {
                    let value = values.get(i).copied().unwrap_or(0.0);
                    buf.extend_from_slice(&value.to_le_bytes());
                    group.update_double(value);
                });
            }
            (Data::String(s), VectorData::Bytes(values)) => for_each_present(present, runs, |i| {
                let raw = values.get(i).unwrap_or_default();
                let value = match *text_length {
                    Some((length, pad)) => fit_text(raw, length, pad, scratch),
                    None => raw,
                };
                s.push(value);
                group.update_string(value);
            }),
            (Data::Binary { data, lengths }, VectorData::Bytes(values)) => {
                for_each_present(present, runs, |i| {
                    let value = values.get(i).unwrap_or_default();
                    data.extend_from_slice(value);
                    lengths.push(len_i64(value.len()));
                    group.update_binary(value.len());
                });
            }
            (
                Data::Timestamp { seconds, nanos },
                VectorData::Timestamp {
                    seconds: s,
                    nanos: n,
                },
            ) => {
                // A `timestamp with local time zone` is an instant, in UTC whatever the
                // stripes' zone.
                let offset = if *kind == Kind::Timestamp {
                    ctx.writer_offset
                } else {
                    0
                };
                for_each_present(present, runs, |i| {
                    let secs = s.get(i).copied().unwrap_or(0);
                    let ns = n.get(i).copied().unwrap_or(0);
                    seconds.push(file_seconds(secs, ns, offset));
                    nanos.push(encode_nanos(ns).cast_signed());
                    group.update_timestamp(secs * 1000 + i64::from(ns / 1_000_000), ns % 1_000_000);
                });
            }
            (Data::Decimal { data, scales }, VectorData::Decimal { values, scales: s }) => {
                let v0 = ctx.v0;
                let declared = *decimal;
                for_each_present(present, runs, |i| {
                    let unscaled = values.get(i).copied().unwrap_or(0);
                    let scale = s.get(i).copied().unwrap_or(0);
                    let normalized = match declared {
                        Some((_, to)) => (rescale_exact(unscaled, scale, to).unwrap_or(0), to),
                        None => (unscaled, scale),
                    };
                    let written = if v0 { (unscaled, scale) } else { normalized };
                    write_big_varint(data, written.0);
                    scales.push(i64::from(written.1));
                    group.update_decimal(normalized.0, normalized.1);
                });
            }
            (
                Data::Length(e),
                VectorData::List { offsets, .. } | VectorData::Map { offsets, .. },
            ) => {
                for_each_present(present, runs, |i| {
                    let len = match (offsets.get(i), offsets.get(i + 1)) {
                        (Some(&a), Some(&b)) => b.saturating_sub(a),
                        _ => 0,
                    };
                    e.push(len_i64(len));
                    group.update_collection(len as u64);
                });
            }
            (Data::Union(e), VectorData::Union { tags, .. }) => {
                for_each_present(present, runs, |i| {
                    e.push(tags.get(i).copied().unwrap_or(0));
                });
            }
            _ => {}
        }
    }
}

/// Writes the children of the slots `runs` of `v`: the fields of present structs, the
/// alternatives of present unions by tag, the elements of present lists and maps.
fn write_children(
    cols: &mut [ColumnState],
    t: &TypeDescription,
    v: &Vector,
    runs: &[(usize, usize)],
    ctx: &Context,
) {
    let present = v.present.as_deref();
    match &v.data {
        VectorData::Struct { fields, .. } => {
            let child_runs = present_runs(present, runs);
            for (child, field) in t.children().iter().zip(fields) {
                write_column(cols, child, field, &child_runs, ctx);
            }
        }
        VectorData::Union { tags, alternatives } => {
            let live = present_runs(present, runs);
            for (tag, (child, alternative)) in t.children().iter().zip(alternatives).enumerate() {
                let mut tag_runs = Vec::new();
                for &(a, b) in &live {
                    let mut start = None;
                    for i in a..b {
                        let here = tags.get(i).is_some_and(|&x| usize::from(x) == tag);
                        match (here, start) {
                            (true, None) => start = Some(i),
                            (false, Some(s)) => {
                                tag_runs.push((s, i));
                                start = None;
                            }
                            _ => {}
                        }
                    }
                    if let Some(s) = start {
                        tag_runs.push((s, b));
                    }
                }
                write_column(cols, child, alternative, &tag_runs, ctx);
            }
        }
        VectorData::List { offsets, elements } => {
            let runs = element_runs(offsets, &present_runs(present, runs));
            if let Some(child) = t.children().first() {
                write_column(cols, child, elements, &runs, ctx);
            }
        }
        VectorData::Map {
            offsets,
            keys,
            values,
        } => {
            let runs = element_runs(offsets, &present_runs(present, runs));
            if let [key_type, value_type] = t.children() {
                write_column(cols, key_type, keys, &runs, ctx);
                write_column(cols, value_type, values, &runs, ctx);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nanos_drop_trailing_zeros_as_the_spec_says() {
        // "1000 nanoseconds would be serialized as 0x0a and 100000 would be serialized
        // as 0x0c"
        assert_eq!(encode_nanos(1000), 0x0a);
        assert_eq!(encode_nanos(100_000), 0x0c);
        assert_eq!(encode_nanos(0), 0);
        assert_eq!(encode_nanos(123), 123 << 3);
        assert_eq!(encode_nanos(500_000_000), (5 << 3) | 7);
        assert_eq!(encode_nanos(999_999_999), 999_999_999 << 3);
    }

    /// What ORC Java's `TimestampTreeWriter` stores for the instant `utc_nanos` in a zone
    /// `offset` seconds ahead of UTC: `vec.time` (milliseconds, floored) / 1000, which
    /// truncates toward zero, less 2015-01-01 00:00:00 of the zone.
    fn java_stored(utc_nanos: i128, offset: i64) -> i64 {
        let millis = i64::try_from(utc_nanos.div_euclid(1_000_000)).unwrap();
        millis / 1000 - (TIMESTAMP_BASE_SECONDS - offset)
    }

    #[test]
    fn negative_timestamps_store_truncated_seconds() {
        // 1969-12-31 23:59:58.5 is second -2 plus half a second; Java stores -1.
        assert_eq!(
            file_seconds(-2, 500_000_000, 0),
            -1 - TIMESTAMP_BASE_SECONDS
        );
        // Less than a millisecond of fraction: the floor.
        assert_eq!(file_seconds(-2, 999, 0), -2 - TIMESTAMP_BASE_SECONDS);
        assert_eq!(file_seconds(1_420_070_400, 5, 0), 0);
    }

    #[test]
    fn seconds_are_truncated_by_the_sign_of_the_utc_instant() {
        // Instants around 1970-01-01T00:00:00Z and the zone's midnight, in every fixed
        // zone the writer takes (Etc/GMT+12 to Etc/GMT-14).
        for hours in -12_i64..=14 {
            let offset = hours * 3600;
            for utc_second in [-7200, -3601, -3600, -1801, -2, -1, 0, 1, 1799, 3599, 3600] {
                for nanos in [0_u32, 1, 999_999, 1_000_000, 500_000_000, 999_999_999] {
                    let utc = i128::from(utc_second) * 1_000_000_000 + i128::from(nanos);
                    let wall = utc_second + offset;
                    assert_eq!(
                        file_seconds(wall, nanos, offset),
                        java_stored(utc, offset),
                        "{utc_second} s + {nanos} ns UTC at {hours} h"
                    );
                }
            }
        }
    }

    #[test]
    fn big_varints_zigzag() {
        let mut out = Vec::new();
        for v in [0i128, -1, 1, -2, 63, -64, 64] {
            write_big_varint(&mut out, v);
        }
        assert_eq!(out, [0, 1, 2, 3, 126, 127, 0x80, 0x01]);
        out.clear();
        write_big_varint(&mut out, i128::MAX);
        assert_eq!(out.len(), 19);
    }

    #[test]
    fn char_and_varchar_fit() {
        let mut scratch = Vec::new();
        assert_eq!(
            fit_text("héllo".as_bytes(), 3, false, &mut scratch),
            "hél".as_bytes()
        );
        assert_eq!(fit_text(b"ab", 4, true, &mut scratch), b"ab  ");
        assert_eq!(fit_text(b"ab", 4, false, &mut scratch), b"ab");
        assert_eq!(
            fit_text("éé".as_bytes(), 2, true, &mut scratch),
            "éé".as_bytes()
        );
    }

    #[test]
    fn runs_follow_presence_and_offsets() {
        let p = [true, false, false, true, true, false];
        assert_eq!(present_runs(Some(&p), &[(0, 6)]), [(0, 1), (3, 5)]);
        assert_eq!(present_runs(Some(&p), &[(1, 4)]), [(3, 4)]);
        assert_eq!(present_runs(None, &[(2, 4)]), [(2, 4)]);
        let offsets = [0, 2, 2, 5, 9];
        // Adjacent element ranges merge.
        assert_eq!(element_runs(&offsets, &[(0, 1), (2, 4)]), [(0, 9)]);
        assert_eq!(element_runs(&offsets, &[(0, 1), (3, 4)]), [(0, 2), (5, 9)]);
        assert_eq!(element_runs(&offsets, &[(1, 2)]), []);
    }

    #[test]
    fn decimals_rescale_exactly() {
        assert_eq!(rescale_exact(15, 1, 3), Some(1500));
        assert_eq!(rescale_exact(1500, 3, 1), Some(15));
        assert_eq!(rescale_exact(1501, 3, 1), None);
    }
}
