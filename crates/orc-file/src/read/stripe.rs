//! One stripe's streams: where they are, read and decompressed for the selected columns.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use parquet_core::io::Source;
use prost::Message;

use crate::error::{Context as _, Error, ProtoContext as _, Result};
use crate::limits::Limits;
use crate::proto::{self, column_encoding::Kind as EncodingKind, stream::Kind as StreamKind};
use crate::schema::{Kind, TypeDescription};
use crate::stream::ChunkDecoder;

/// Where one stream of a stripe is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamInfo {
    /// The column.
    pub column: u32,
    /// The kind, as the file numbers it (see [`proto::stream::Kind`]).
    pub kind: i32,
    /// Its offset in the file.
    pub offset: u64,
    /// Its length in bytes (compressed).
    pub length: u64,
}

impl StreamInfo {
    /// The kind's name (`PRESENT`, `DATA`, ...), or its number when unknown.
    pub fn kind_name(&self) -> String {
        StreamKind::try_from(self.kind).map_or_else(
            |_| format!("kind {}", self.kind),
            |k| k.as_str_name().to_owned(),
        )
    }

    /// The kind's name (`PRESENT`, `DATA`, ...), or `unknown` when unknown: where an
    /// error says it is.
    fn kind_str(&self) -> &'static str {
        StreamKind::try_from(self.kind).map_or("unknown", |k| k.as_str_name())
    }
}

/// A stripe's footer, decoded: its streams with their places, the encoding of each
/// column, and the writer's time zone.
#[derive(Debug, Clone)]
pub struct StripeFooter {
    /// The streams, in file order.
    pub streams: Vec<StreamInfo>,
    /// The encoding of each column, by column id.
    pub encodings: Vec<proto::ColumnEncoding>,
    /// The writer's time zone (ORC v1; `None` in v0 files).
    pub writer_timezone: Option<String>,
}

impl StripeFooter {
    /// Decodes the footer of the stripe at `offset` whose index and data areas take
    /// `index_length + data_length` bytes, checking every stream lies inside them.
    pub(crate) fn decode(
        bytes: &[u8],
        offset: u64,
        index_length: u64,
        data_length: u64,
        columns: usize,
    ) -> Result<Self> {
        let footer = proto::StripeFooter::decode(bytes)
            .proto("stripe footer")
            .at_offset(offset)?;
        let end = offset
            .checked_add(index_length)
            .and_then(|o| o.checked_add(data_length))
            .ok_or_else(|| {
                Error::malformed("the stripe's index and data areas end past 2^64 bytes")
                    .at_offset(offset)
            })?;
        let mut at = offset;
        let mut streams = Vec::with_capacity(footer.streams.len());
        for s in &footer.streams {
            let length = s.length.unwrap_or(0);
            let next = at
                .checked_add(length)
                .filter(|&n| n <= end)
                .ok_or_else(|| {
                    Error::out_of_bounds(
                        "stream",
                        (at - offset, length),
                        "the stripe's index and data",
                        end - offset,
                    )
                    .at_column(s.column.unwrap_or(0))
                    .in_stream(
                        StreamKind::try_from(s.kind.unwrap_or(-1))
                            .map_or("unknown", |k| k.as_str_name()),
                    )
                    .at_offset(offset)
                })?;
            streams.push(StreamInfo {
                column: s.column.unwrap_or(0),
                kind: s.kind.unwrap_or(-1),
                offset: at,
                length,
            });
            at = next;
        }
        if footer.columns.len() < columns {
            return Err(Error::mismatch(
                "column encodings of the stripe footer",
                columns as u64,
                footer.columns.len() as u64,
            )
            .at_offset(offset));
        }
        Ok(Self {
            streams,
            encodings: footer.columns,
            writer_timezone: footer.writer_timezone,
        })
    }
}

/// A decompressed stream: whole, with where its compression chunks start (to seek in it
/// by row-index positions), or a window at a time.
///
/// A stream whose size the stripe's rows bound (see [`bound`]) is decompressed whole, as
/// far as they can need; any other (direct strings' bytes, decimals, dictionaries, the
/// streams of nested columns) a chunk at a time, as its readers ask for bytes
/// ([`Stream::refill`]), so that it costs what a batch reads from it and a chunk, however
/// much its chunks claim.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stream {
    /// The stream decoded, or the window of it decoded so far and not let go of.
    pub(crate) bytes: Bytes,
    /// For a stream decoded whole: the table of its chunks' starts.
    pub(crate) starts: Vec<(u64, u64)>,
    pub(crate) compressed: bool,
    /// Its kind's name, for errors.
    pub(crate) kind: Option<&'static str>,
    /// For a stream decoded a chunk at a time: its chunks, and how far they are read.
    chunked: Option<Chunked>,
}

/// The chunks of a stream decoded a chunk at a time.
#[derive(Debug, Clone)]
struct Chunked {
    /// The compressed stream.
    raw: Bytes,
    /// The offset in `raw` of the next chunk to decode.
    next: usize,
    /// The decompressor, shared by the streams of a reader.
    chunks: SharedChunks,
    /// The offsets of the chunk headers, and the stream's end.
    offsets: Vec<u64>,
    /// The most bytes a chunk decompresses to.
    block_size: usize,
}

/// A chunk decoder shared by the streams that a reader decodes a chunk at a time (and
/// their copies, looking ahead): one decompression context for them all.
pub(crate) type SharedChunks = Arc<Mutex<ChunkDecoder>>;

impl Stream {
    /// Whether the stream has no more bytes than its window: decoded whole, or every
    /// chunk read.
    pub(crate) fn is_exhausted(&self) -> bool {
        self.chunked.as_ref().is_none_or(|c| c.next >= c.raw.len())
    }

    /// Makes the window hold `need` bytes from `from` (an offset in it) on, or all that
    /// is left of the stream, decoding its next chunks; `true` when it moved, and then
    /// starts at `from` (what came before is let go). A stream decoded whole never moves.
    pub(crate) fn refill(&mut self, from: usize, need: usize) -> Result<bool> {
        let Some(c) = &mut self.chunked else {
            return Ok(false);
        };
        let kept = self.bytes.get(from..).unwrap_or_default();
        if kept.len() >= need || c.next >= c.raw.len() {
            return Ok(false);
        }
        let mut window = Vec::with_capacity(need.min(kept.len() + c.raw.len() - c.next));
        window.extend_from_slice(kept);
        let mut chunks = c.chunks.lock().unwrap_or_else(PoisonError::into_inner);
        // Moved on only once every chunk decodes: a failed refill leaves the stream as
        // it was.
        let mut next = c.next;
        while window.len() < need && next < c.raw.len() {
            next = chunks.decode_chunk(&c.raw, next, &mut window)?;
        }
        c.next = next;
        self.bytes = Bytes::from(window);
        Ok(true)
    }

    /// Whether more than `bytes` may be left of the stream from `from` (an offset in the
    /// window) on: the window's rest, and for each chunk not yet decoded, the most it
    /// decompresses to.
    pub(crate) fn may_hold_more_than(&self, from: usize, bytes: usize) -> bool {
        let rest = self.bytes.len().saturating_sub(from);
        let chunks = self.chunked.as_ref().map_or(0, |c| {
            let next = c.offsets.partition_point(|&o| o < c.next as u64);
            c.offsets.len().saturating_sub(next + 1)
        });
        let block = self.chunked.as_ref().map_or(0, |c| c.block_size);
        rest.saturating_add(chunks.saturating_mul(block)) > bytes
    }

    /// Moves a stream decoded a chunk at a time to the chunk whose header is at
    /// `chunk` (a row-index position), its window starting `within` its decoded bytes;
    /// returns the window.
    pub(crate) fn seek_chunk(&mut self, chunk: u64, within: u64) -> Result<Bytes> {
        let Some(c) = &mut self.chunked else {
            return Err(Error::malformed(
                "a seek in a stream decoded whole by chunks",
            ));
        };
        if c.offsets.binary_search(&chunk).is_err() {
            return Err(Error::invalid(
                "row index position: compressed offset, not the start of a compression chunk",
                chunk,
            ));
        }
        // A chunk offset, so at most the stream's length.
        let mut next = usize::try_from(chunk).unwrap_or(usize::MAX);
        let mut window = Vec::new();
        if next < c.raw.len() {
            let mut chunks = c.chunks.lock().unwrap_or_else(PoisonError::into_inner);
            next = chunks.decode_chunk(&c.raw, next, &mut window)?;
        }
        let within = usize::try_from(within)
            .ok()
            .filter(|&w| w <= window.len())
            .ok_or_else(|| {
                Error::out_of_bounds(
                    "row index position",
                    (within, 0),
                    "the decompressed compression chunk",
                    window.len() as u64,
                )
                .at_offset(chunk)
            })?;
        c.next = next;
        self.bytes = Bytes::from(window).slice(within..);
        Ok(self.bytes.clone())
    }

    /// An uncompressed stream of `bytes`.
    #[cfg(test)]
    pub(crate) fn whole(bytes: Bytes) -> Self {
        Self {
            bytes,
            ..Self::default()
        }
    }

    /// Whether this stream is decoded a chunk at a time.
    pub(crate) const fn is_chunked(&self) -> bool {
        self.chunked.is_some()
    }
}

/// The decompressed streams of the selected columns of one stripe, handed out to the
/// column decoders as they are built, and their row indexes.
pub(crate) struct StripeStreams {
    streams: HashMap<(u32, i32), Stream>,
    encodings: Vec<proto::ColumnEncoding>,
    /// The row index of each selected column that has one, by column id.
    pub(crate) indexes: HashMap<u32, proto::RowIndex>,
    /// The writer's time zone.
    pub(crate) timezone: Option<String>,
    /// Whether days and seconds count in the hybrid Julian/Gregorian calendar.
    pub(crate) hybrid_calendar: bool,
    /// The limits of a batch.
    pub(crate) limits: Limits,
}

impl StripeStreams {
    /// Reads and decompresses the data streams of the `selected` columns, and their row
    /// indexes when `with_index`.
    ///
    /// A stream is decompressed whole only as far as `bound` says its column can need,
    /// by its column and kind ([`bound`] for a stripe): chunks past that hold nothing a
    /// reader reads, however many a file has. A compressed stream without a bound is
    /// decoded a chunk at a time, as its reader asks (see [`Stream`]).
    pub(crate) fn load<S: Source>(
        source: &S,
        footer: &StripeFooter,
        bound: impl Fn(u32, i32) -> Option<usize>,
        selected: &[bool],
        with_index: bool,
        shared: &SharedChunks,
        buffers: &mut Buffers,
    ) -> Result<Self> {
        let mut streams = HashMap::new();
        let mut indexes = HashMap::new();
        // One read for the span of the wanted streams, as they are usually close.
        let wanted: Vec<&StreamInfo> = footer
            .streams
            .iter()
            .filter(|s| {
                selected.get(s.column as usize).copied().unwrap_or(false)
                    && (is_data_stream(s.kind)
                        || (with_index && s.kind == StreamKind::RowIndex as i32))
                    && s.length > 0
            })
            .collect();
        if let (Some(first), Some(last)) = (wanted.first(), wanted.last()) {
            let start = first.offset;
            let end = last.offset + last.length;
            let span = usize::try_from(end - start).map_err(|_| {
                Error::unsupported(
                    "stripe larger than this platform's memory, bytes",
                    i64::try_from(end - start).ok(),
                )
                .at_offset(start)
            })?;
            let bytes = source
                .read_at(start, span)
                .map_err(|e| Error::from(e).at_offset(start))?;
            if bytes.len() != span {
                return Err(Error::mismatch(
                    "bytes read of the stripe's streams",
                    span as u64,
                    bytes.len() as u64,
                )
                .at_offset(start));
            }
            let mut chunks = shared.lock().unwrap_or_else(PoisonError::into_inner);
            for s in wanted {
                // Inside the span read, which fits in memory.
                let from = usize::try_from(s.offset - start).unwrap_or(usize::MAX);
                let to = usize::try_from(s.offset + s.length - start).unwrap_or(usize::MAX);
                let raw = bytes.slice(from.min(to)..to.min(bytes.len()));
                let bound = bound(s.column, s.kind);
                let decoded = if bound.is_none()
                    && chunks.compression().is_compressed()
                    && s.kind != StreamKind::RowIndex as i32
                {
                    // The chunks' headers are read now (nothing is decompressed): a stream
                    // cut short is an error here, as when streams were decoded whole.
                    crate::stream::chunk_offsets(&raw).map(|offsets| Stream {
                        compressed: true,
                        kind: StreamKind::try_from(s.kind).ok().map(|k| k.as_str_name()),
                        chunked: Some(Chunked {
                            raw,
                            next: 0,
                            chunks: Arc::clone(shared),
                            offsets,
                            block_size: chunks.block_size(),
                        }),
                        ..Stream::default()
                    })
                } else {
                    chunks.set_stop_after(bound.unwrap_or(usize::MAX));
                    let decoded = decode(&mut chunks, raw, s.kind, buffers);
                    chunks.set_stop_after(usize::MAX);
                    decoded
                };
                let decoded = decoded
                    .at_column(s.column)
                    .in_stream(s.kind_str())
                    .at_offset(s.offset)?;
                if s.kind == StreamKind::RowIndex as i32 {
                    let index = proto::RowIndex::decode(decoded.bytes.as_ref())
                        .proto("row index")
                        .at_column(s.column)
                        .at_offset(s.offset)?;
                    indexes.insert(s.column, index);
                } else {
                    streams.insert((s.column, s.kind), decoded);
                }
            }
        }
        Ok(Self {
            streams,
            encodings: footer.encodings.clone(),
            indexes,
            timezone: footer.writer_timezone.clone(),
            hybrid_calendar: false,
            limits: Limits::default(),
        })
    }

    /// The encoding of a column.
    pub(crate) fn encoding(&self, column: u32) -> Result<EncodingKind> {
        let encoding = self
            .encodings
            .get(column as usize)
            .ok_or_else(|| Error::malformed("a column without an encoding").at_column(column))?;
        let raw = encoding.kind.unwrap_or(0);
        EncodingKind::try_from(raw)
            .map_err(|_| Error::invalid("column encoding", raw).at_column(column))
    }

    /// The dictionary size of a column.
    pub(crate) fn dictionary_size(&self, column: u32) -> Result<u32> {
        self.encodings
            .get(column as usize)
            .and_then(|e| e.dictionary_size)
            .ok_or_else(|| {
                Error::malformed("a dictionary encoding without a size").at_column(column)
            })
    }

    /// The stream of `column` of `kind`, if the stripe has it.
    pub(crate) fn take(&mut self, column: u32, kind: StreamKind) -> Option<Stream> {
        self.streams.remove(&(column, kind as i32))
    }

    /// The stream of `column` of `kind`: an empty stream when the stripe has none (a
    /// column without values may omit its streams; a reader that needs values from it
    /// then finds it short).
    pub(crate) fn require(&mut self, column: u32, kind: StreamKind) -> Stream {
        self.take(column, kind).unwrap_or_else(|| Stream {
            kind: Some(kind.as_str_name()),
            ..Stream::default()
        })
    }
}

/// The buffers of one stripe's decompressed streams, reused for the next stripe's: memory
/// the process has touched already, rather than fresh pages for every stripe.
#[derive(Default)]
pub(crate) struct Buffers {
    /// The streams handed out for the current stripe.
    used: Vec<Bytes>,
    /// Buffers free for the next streams.
    free: Vec<Vec<u8>>,
}

impl Buffers {
    /// Takes back the buffers of the streams no decoder holds any more.
    pub(crate) fn recycle(&mut self) {
        for bytes in self.used.drain(..) {
            if let Ok(buffer) = bytes.try_into_mut() {
                self.free.push(Vec::from(buffer));
            }
        }
    }
}

/// The most bytes stream `kind` of `column` can need in a stripe of `rows` rows with
/// `footer` (see [`need`]): bounded for the top-level columns of `schema`, whose values
/// are at most the stripe's rows.
pub(crate) fn bound(
    schema: &TypeDescription,
    footer: &StripeFooter,
    rows: u64,
    column: u32,
    kind: i32,
) -> Option<usize> {
    // The children's ids increase (they are numbered in pre-order).
    let children = schema.children();
    let t = children
        .get(children.partition_point(|c| c.id() < column))
        .filter(|c| c.id() == column)?;
    let encoding = footer
        .encodings
        .get(column as usize)
        .and_then(|e| e.kind)
        .and_then(|raw| EncodingKind::try_from(raw).ok());
    need(t.kind(), encoding, kind, rows)
}

/// The most bytes stream `kind` of a top-level column of type `t` (and `encoding`) can
/// need for `rows` values, when its values take a bounded number of bytes each, with
/// room to spare: 32 per integer (a varint of RLE v1 takes at most 10, RLE v2's widest
/// runs 8 and their headers a few), 4 per float, 8 per double, an eighth of a byte per
/// boolean, a byte per byte, a run header in every 128 bytes and 4 KiB; `None` for
/// strings and binaries, whose lengths only their data bounds, for decimals (Hive
/// 0.11's are unbounded varints), and for dictionaries, sized by their entries.
fn need(t: Kind, encoding: Option<EncodingKind>, kind: i32, rows: u64) -> Option<usize> {
    let n = usize::try_from(rows).ok()?;
    let runs = |bytes: usize| bytes.checked_add(bytes / 128)?.checked_add(4096);
    let dictionary = matches!(
        encoding,
        Some(EncodingKind::Dictionary | EncodingKind::DictionaryV2)
    );
    let per_value = match (StreamKind::try_from(kind).ok()?, t) {
        (StreamKind::Present, _) | (StreamKind::Data, Kind::Boolean) => {
            return runs(n.div_ceil(8));
        }
        (StreamKind::Data, Kind::Byte | Kind::Union) => return runs(n),
        (StreamKind::Data, Kind::Float) => 4,
        (StreamKind::Data, Kind::Double) => 8,
        (
            StreamKind::Data,
            Kind::Short
            | Kind::Int
            | Kind::Long
            | Kind::Date
            | Kind::Timestamp
            | Kind::TimestampInstant,
        )
        | (StreamKind::Secondary, Kind::Timestamp | Kind::TimestampInstant | Kind::Decimal)
        | (StreamKind::Length, Kind::List | Kind::Map) => 32,
        // Indices into a dictionary, or the lengths of direct strings and binaries.
        (StreamKind::Data, Kind::String | Kind::Varchar | Kind::Char) if dictionary => 32,
        (StreamKind::Length, Kind::String | Kind::Varchar | Kind::Char | Kind::Binary)
            if !dictionary =>
        {
            32
        }
        _ => return None,
    };
    runs(n.checked_mul(per_value)?)
}

/// Decompresses a stream of `kind` whole; an uncompressed one is used as it is. The
/// buffer of a decompressed stream is taken back for the next stripe.
fn decode(
    chunks: &mut ChunkDecoder,
    raw: Bytes,
    kind: i32,
    buffers: &mut Buffers,
) -> Result<Stream> {
    let mut starts = Vec::new();
    let bytes = if chunks.compression().is_compressed() {
        let mut out = buffers.free.pop().unwrap_or_default();
        chunks.decode_stream(&raw, &mut out, &mut starts)?;
        let bytes = Bytes::from(out);
        buffers.used.push(bytes.clone());
        bytes
    } else {
        raw
    };
    Ok(Stream {
        bytes,
        starts,
        compressed: chunks.compression().is_compressed(),
        kind: StreamKind::try_from(kind).ok().map(|k| k.as_str_name()),
        chunked: None,
    })
}

/// Whether a stream kind holds values (rather than indexes and Bloom filters).
fn is_data_stream(kind: i32) -> bool {
    matches!(
        StreamKind::try_from(kind),
        Ok(StreamKind::Present
            | StreamKind::Data
            | StreamKind::Length
            | StreamKind::DictionaryData
            | StreamKind::Secondary)
    )
}
