//! Recovery of ORC files that lost their tail: a writer that died before
//! [`finish`](crate::OrcWriter::finish), a partial upload, a damaged end.
//!
//! [`recover`] finds every stripe that can be proven whole and gives a [`Recovery`]: the
//! bytes of the source that hold them and a tail (footer, postscript) for them
//! ([`Recovery::write_to`]). The stripes come from, in order of preference:
//!
//! 1. the file's own tail, when it reads (the file is then intact, unless a stripe does
//!    not decode);
//! 2. the last intermediate footer that reads: a whole tail of the stripes so far, which
//!    Apache ORC's writers write on request (`Writer.writeIntermediateFooter` in Java;
//!    [`WriterOptions::checkpoint_every`](crate::WriterOptions::checkpoint_every) here)
//!    and after which the next stripes follow. ORC Java's `orc-tools meta --recover`
//!    truncates a file at such a footer; so does this, when nothing after it is kept;
//! 3. a scan of the stripes after it (or after the header, given a file written as this
//!    one was by [`RecoverOptions::with_like`]): a stripe's streams are sequences of
//!    compression chunks, so the scan walks chunk headers from the stripe's start until
//!    one decodes as a stripe footer whose streams fill exactly the bytes walked; its
//!    rows are those its root column's row index counts. A compressed file with a row
//!    index is needed (a file without a codec has no chunk headers to walk).
//!
//! Every stripe kept is decoded whole, as a file of that one stripe; the first that does
//! not decode ends the recovery. Nothing is invented: the stripes kept are byte for byte
//! the source's, and what follows the last of them is reported ([`Recovery::dropped`]).
//! A tail written anew has no statistics (neither the file's nor the stripes'), so that
//! no reader skips a stripe by statistics the recovery cannot vouch for.

use std::fmt;

use bytes::Bytes;
use parquet_core::io::{Sink, Source, Spliced};
use prost::Message;

use crate::error::{Error, ErrorKind, Result};
use crate::proto;
use crate::read::{OrcReader, ReadOptions};
use crate::stream::{ChunkDecoder, ChunkEncoder, OrcCompression};

/// The most chunks a stripe footer is read from.
const FOOTER_CHUNKS: usize = 8;

/// How [`recover`] reads a file whose tail is lost.
#[derive(Debug, Clone, Default)]
pub struct RecoverOptions {
    like: Option<Like>,
}

/// What a file written as the one recovered was tells of it: its tail but the stripes.
#[derive(Debug, Clone)]
struct Like {
    types: Vec<proto::Type>,
    compression: OrcCompression,
    block_size: u64,
    row_index_stride: u32,
    version: Vec<u32>,
    writer_version: u32,
    writer: Option<u32>,
    calendar: proto::CalendarKind,
    metadata: Vec<proto::UserMetadataItem>,
}

impl Like {
    fn of<S: Source>(reader: &OrcReader<S>) -> Self {
        let version = reader.version();
        Self {
            types: reader.schema().to_proto(),
            compression: reader.compression(),
            block_size: reader.compression_block_size(),
            row_index_stride: reader.row_index_stride(),
            version: vec![version.major, version.minor],
            writer_version: reader.writer_version(),
            writer: reader.writer(),
            calendar: reader.calendar(),
            metadata: reader
                .user_metadata()
                .map(|(name, value)| proto::UserMetadataItem {
                    name: Some(name.to_owned()),
                    value: Some(value.to_vec()),
                })
                .collect(),
        }
    }

    /// A tail (empty metadata, footer, postscript, its length) for `stripes`, of a file
    /// whose content ends at `content_length`.
    fn tail(&self, stripes: &[proto::StripeInformation], content_length: u64) -> Result<Bytes> {
        let rows = stripes.iter().map(|s| s.number_of_rows.unwrap_or(0)).sum();
        let footer = proto::Footer {
            header_length: Some(3),
            content_length: Some(content_length),
            stripes: stripes.to_vec(),
            types: self.types.clone(),
            metadata: self.metadata.clone(),
            number_of_rows: Some(rows),
            statistics: Vec::new(),
            row_index_stride: Some(self.row_index_stride),
            writer: self.writer,
            encryption: None,
            calendar: Some(self.calendar as i32),
            software_version: None,
        };
        let block_size = usize::try_from(self.block_size).map_err(|_| {
            Error::unsupported(
                "compression block size",
                Some(i64::try_from(self.block_size).unwrap_or(i64::MAX)),
            )
        })?;
        let mut encoder = ChunkEncoder::new(self.compression, None, block_size)?;
        let mut tail = Vec::new();
        encoder.encode_stream(&footer.encode_to_vec(), &mut tail, &mut Vec::new())?;
        let postscript = proto::PostScript {
            footer_length: Some(tail.len() as u64),
            compression: Some(self.compression.to_proto() as i32),
            compression_block_size: Some(self.block_size),
            version: self.version.clone(),
            metadata_length: Some(0),
            writer_version: Some(self.writer_version),
            stripe_statistics_length: None,
            magic: Some("ORC".to_owned()),
        };
        let postscript = postscript.encode_to_vec();
        let length = u8::try_from(postscript.len()).map_err(|_| {
            Error::limit(
                "postscript size (a byte counts it)",
                postscript.len() as u64,
                255,
            )
        })?;
        tail.extend_from_slice(&postscript);
        tail.push(length);
        Ok(tail.into())
    }
}

impl RecoverOptions {
    /// Only the file's own tail or an intermediate footer gives its schema.
    pub fn new() -> Self {
        Self::default()
    }

    /// A file written as this one was (by the same writer, with the same schema and
    /// codec): its schema, codec, block size, row index stride, version and user
    /// metadata, for a scan from the start.
    #[must_use]
    pub fn with_like<S: Source>(mut self, reader: &OrcReader<S>) -> Self {
        self.like = Some(Like::of(reader));
        self
    }
}

/// Where a stripe kept was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// In the file's tail.
    Footer,
    /// In the intermediate footer whose tail ends at this offset.
    Checkpoint(u64),
    /// By scanning.
    Scan,
}

/// Why the bytes after the last stripe kept were not kept.
#[derive(Debug)]
#[non_exhaustive]
pub enum DropReason {
    /// The source ends inside the stripe (or intermediate footer) that starts at this
    /// offset.
    EndsInStripe(u64),
    /// Bytes that are no stripe and no intermediate footer: damage, or a tail that does
    /// not read.
    Unrecognized,
    /// Stripes cannot be scanned for: the file has no codec (so no chunk headers to walk)
    /// or no row index (so no count of rows), or nothing told its schema and codec.
    NotScanned(&'static str),
    /// A stripe that does not decode.
    Damaged(Error),
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EndsInStripe(offset) => {
                write!(f, "the file ends inside the stripe (or footer) at {offset}")
            }
            Self::Unrecognized => f.write_str(
                "bytes that are no stripe or intermediate footer (a tail that does not read, or damage)",
            ),
            Self::NotScanned(why) => write!(f, "not scanned for stripes: {why}"),
            Self::Damaged(e) => write!(f, "a stripe that does not decode: {e}"),
        }
    }
}

/// What follows the last stripe kept.
#[derive(Debug)]
pub struct Dropped {
    /// Where it starts.
    pub offset: u64,
    /// Its length, to the end of the source.
    pub len: u64,
    /// Why it was not kept.
    pub reason: DropReason,
}

/// What [`recover`] found: the stripes kept, with a tail for them.
#[derive(Debug)]
pub struct Recovery {
    found: Vec<Found>,
    num_rows: u64,
    data_end: u64,
    tail: Bytes,
    dropped: Option<Dropped>,
    intact: bool,
}

impl Recovery {
    /// Whether the source's own tail reads and every stripe decodes: the recovered file
    /// is the source, byte for byte.
    pub fn is_intact(&self) -> bool {
        self.intact
    }

    /// Where each stripe kept was found.
    pub fn found(&self) -> &[Found] {
        &self.found
    }

    /// The rows of the stripes kept.
    pub fn num_rows(&self) -> u64 {
        self.num_rows
    }

    /// What follows the last stripe kept, and why it was not kept; `None` when nothing
    /// does.
    pub fn dropped(&self) -> Option<&Dropped> {
        self.dropped.as_ref()
    }

    /// The bytes of the source the recovered file starts with.
    pub fn data_end(&self) -> u64 {
        self.data_end
    }

    /// The length of the recovered file.
    pub fn len(&self) -> u64 {
        self.data_end + self.tail.len() as u64
    }

    /// Whether the recovered file is empty (never: it has a header and a tail).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Writes the recovered file to `sink`: the first [`data_end`](Self::data_end) bytes
    /// of `source` (the source `recover` was given), then the tail. Does not finish the
    /// sink. Gives the bytes written.
    ///
    /// # Errors
    ///
    /// A read error of the source, or the sink's error.
    pub fn write_to<S: Source, K: Sink>(&self, source: &S, sink: &mut K) -> Result<u64> {
        let spliced = Spliced::new(source, self.data_end, self.tail.clone());
        Ok(spliced.write_to(sink)?)
    }
}

/// A tail found in the source: where it starts and ends, what it says.
struct Tail {
    start: u64,
    end: u64,
    like: Like,
    stripes: Vec<proto::StripeInformation>,
}

/// Finds every stripe of `source` that can be proven whole (see the [module
/// docs](self)).
///
/// # Errors
///
/// A source that does not start with `ORC` ([`ErrorKind::NotOrc`]); a file with neither
/// a tail nor an intermediate footer that reads and no file given to be like it
/// ([`ErrorKind::SchemaNeeded`]); a read error of the source.
pub fn recover<S: Source>(source: &S, options: &RecoverOptions) -> Result<Recovery> {
    let len = source.len()?;
    let header = if len < 3 {
        Bytes::new()
    } else {
        source.read_at(0, 3)?
    };
    if header.as_ref() != b"ORC" {
        return Err(ErrorKind::NotOrc {
            what: "it does not start with \"ORC\" but with",
            found: Some(header.as_ref().into()),
        }
        .into());
    }
    // The file's own tail (found whether or not its postscript has the magic, which Hive
    // 0.11's may lack), else the last intermediate footer.
    if let Some(own) = tail_ending_at(source, len) {
        let kept = decoding(source, &own.like, &own.stripes);
        if kept.ok == own.stripes.len() {
            return Ok(Recovery {
                found: vec![Found::Footer; kept.ok],
                num_rows: rows(&own.stripes),
                data_end: len,
                tail: Bytes::new(),
                dropped: None,
                intact: true,
            });
        }
        return finish(
            source,
            &own.like,
            own.stripes.get(..kept.ok).unwrap_or_default(),
            vec![Found::Footer; kept.ok],
            len,
            kept.error.map(DropReason::Damaged),
        );
    }
    let tails = find_tails(source, len)?;
    let base = tails.last();
    let like = base
        .map(|t| &t.like)
        .or(options.like.as_ref())
        .ok_or_else(|| Error::from(ErrorKind::SchemaNeeded))?;
    let mut stripes = Vec::new();
    let mut found = Vec::new();
    let mut start = 3;
    if let Some(tail) = base {
        let kept = decoding(source, like, &tail.stripes);
        stripes.extend_from_slice(tail.stripes.get(..kept.ok).unwrap_or_default());
        found.resize(kept.ok, Found::Checkpoint(tail.end));
        if let Some(error) = kept.error {
            return finish(
                source,
                like,
                &stripes,
                found,
                len,
                Some(DropReason::Damaged(error)),
            );
        }
        start = tail.end;
    }
    let (scanned, reason) = if can_scan(like) {
        scan(source, like, &tails, start, len)?
    } else {
        (Vec::new(), Some(DropReason::NotScanned(why_not(like))))
    };
    if scanned.is_empty()
        && let Some(tail) = base
    {
        // Nothing follows: the intermediate footer, as written, is the file.
        let dropped = (tail.end < len).then(|| Dropped {
            offset: tail.end,
            len: len - tail.end,
            reason: reason.unwrap_or(DropReason::Unrecognized),
        });
        return Ok(Recovery {
            found,
            num_rows: rows(&stripes),
            data_end: tail.end,
            tail: Bytes::new(),
            dropped,
            intact: false,
        });
    }
    found.extend(std::iter::repeat_n(Found::Scan, scanned.len()));
    stripes.extend(scanned);
    finish(source, like, &stripes, found, len, reason)
}

/// The recovery of `stripes`, with a tail written anew after the last of them.
fn finish<S: Source>(
    source: &S,
    like: &Like,
    stripes: &[proto::StripeInformation],
    found: Vec<Found>,
    len: u64,
    reason: Option<DropReason>,
) -> Result<Recovery> {
    let data_end = stripes.last().map_or(3, stripe_end);
    let tail = like.tail(stripes, data_end)?;
    // The whole file reads (each stripe was decoded alone).
    OrcReader::open(Spliced::new(source, data_end, tail.clone()))?;
    let dropped = (data_end < len).then(|| Dropped {
        offset: data_end,
        len: len - data_end,
        reason: reason.unwrap_or(DropReason::Unrecognized),
    });
    Ok(Recovery {
        found,
        num_rows: rows(stripes),
        data_end,
        tail,
        dropped,
        intact: false,
    })
}

fn rows(stripes: &[proto::StripeInformation]) -> u64 {
    stripes.iter().map(|s| s.number_of_rows.unwrap_or(0)).sum()
}

fn stripe_end(s: &proto::StripeInformation) -> u64 {
    s.offset.unwrap_or(0)
        + s.index_length.unwrap_or(0)
        + s.data_length.unwrap_or(0)
        + s.footer_length.unwrap_or(0)
}

fn can_scan(like: &Like) -> bool {
    like.compression.is_compressed() && like.row_index_stride > 0
}

fn why_not(like: &Like) -> &'static str {
    if like.compression.is_compressed() {
        "the file has no row index to count a stripe's rows by"
    } else {
        "the file has no codec, so no chunk headers to find a stripe's end by"
    }
}

/// How many of `stripes`, in order, decode; the error of the first that does not.
struct Decoded {
    ok: usize,
    error: Option<Error>,
}

fn decoding<S: Source>(source: &S, like: &Like, stripes: &[proto::StripeInformation]) -> Decoded {
    for (i, stripe) in stripes.iter().enumerate() {
        if let Err(error) = decode_stripe(source, like, stripe) {
            return Decoded {
                ok: i,
                error: Some(error),
            };
        }
    }
    Decoded {
        ok: stripes.len(),
        error: None,
    }
}

/// Decodes `stripe` whole, as the one stripe of a file with `like`'s tail.
fn decode_stripe<S: Source>(
    source: &S,
    like: &Like,
    stripe: &proto::StripeInformation,
) -> Result<()> {
    let end = stripe_end(stripe);
    let tail = like.tail(std::slice::from_ref(stripe), end)?;
    let reader = OrcReader::open(Spliced::new(source, end, tail))?;
    let mut rows = 0;
    for batch in reader.batches(ReadOptions::default())? {
        rows += batch?.num_rows as u64;
    }
    let claimed = stripe.number_of_rows.unwrap_or(0);
    if rows != claimed {
        return Err(Error::mismatch("rows of the stripe", claimed, rows)
            .at_offset(stripe.offset.unwrap_or(0)));
    }
    Ok(())
}

/// Every tail in the source that reads: a postscript ending in its magic `ORC` and its
/// length byte, whose footer and stripes read from the bytes before it. In file order.
fn find_tails<S: Source>(source: &S, len: u64) -> Result<Vec<Tail>> {
    const STEP: u64 = 8 << 20;
    // The end of a postscript: its magic, field 8000 (`ORC`, length-delimited: the tag
    // 0x82 0xF4 0x03 and the length 3), the last field, then the postscript's length.
    const MAGIC: [u8; 7] = [0x82, 0xF4, 0x03, 0x03, b'O', b'R', b'C'];
    let mut tails = Vec::new();
    let mut offset = 0;
    while offset < len {
        // Overlapping by 7 bytes, so that a magic across two reads is seen once.
        let read = (len - offset).min(STEP + 7);
        #[allow(clippy::cast_possible_truncation)] // at most STEP + 7
        let bytes = source.read_at(offset, read as usize)?;
        for (i, window) in bytes.windows(8).enumerate() {
            if window.get(..7) == Some(MAGIC.as_slice())
                && let Some(tail) = tail_ending_at(source, offset + i as u64 + 8)
            {
                tails.push(tail);
            }
        }
        offset += STEP;
    }
    Ok(tails)
}

/// The tail that ends at `end`, if one reads there.
fn tail_ending_at<S: Source>(source: &S, end: u64) -> Option<Tail> {
    let reader = OrcReader::open(Spliced::new(source, end, Bytes::new())).ok()?;
    let like = Like::of(&reader);
    let stripes: Vec<proto::StripeInformation> = reader
        .stripes()
        .iter()
        .map(|s| proto::StripeInformation {
            offset: Some(s.offset),
            index_length: Some(s.index_length),
            data_length: Some(s.data_length),
            footer_length: Some(s.footer_length),
            number_of_rows: Some(s.num_rows),
            encrypt_stripe_id: None,
            encrypted_local_keys: Vec::new(),
        })
        .collect();
    // The tail starts where the content ends: after the last stripe, or the header.
    let start = stripes.last().map_or(3, stripe_end);
    Some(Tail {
        start,
        end,
        like,
        stripes,
    })
}

/// Scans for stripes from `start`: each is decoded before the next is looked for. The
/// stripes found, and why the scan stopped before the end of the source.
fn scan<S: Source>(
    source: &S,
    like: &Like,
    tails: &[Tail],
    mut start: u64,
    len: u64,
) -> Result<(Vec<proto::StripeInformation>, Option<DropReason>)> {
    let mut found = Vec::new();
    let columns = like.types.len();
    let mut decoder = ChunkDecoder::new(like.compression, like.block_size)?;
    loop {
        // Intermediate footers between stripes are passed over.
        while let Some(tail) = tails.iter().find(|t| t.start == start) {
            start = tail.end;
        }
        if start >= len {
            return Ok((found, None));
        }
        let stripe = match stripe_at(source, &mut decoder, columns, start, len)? {
            Ok(stripe) => stripe,
            Err(reason) => return Ok((found, Some(reason))),
        };
        if let Err(error) = decode_stripe(source, like, &stripe) {
            return Ok((found, Some(DropReason::Damaged(error))));
        }
        start = stripe_end(&stripe);
        found.push(stripe);
    }
}

/// The chunk header at `bytes[at..]`: the chunk's length and whether it is stored
/// original.
fn chunk_header(bytes: &[u8], at: usize) -> Option<(u64, bool)> {
    let &[a, b, c] = bytes.get(at..at.checked_add(3)?)? else {
        return None;
    };
    let value = u32::from(a) | u32::from(b) << 8 | u32::from(c) << 16;
    Some((u64::from(value >> 1), value & 1 == 1))
}

/// The stripe that starts at `start`: its chunks walked until a stripe footer whose
/// streams fill the bytes before it.
fn stripe_at<S: Source>(
    source: &S,
    decoder: &mut ChunkDecoder,
    columns: usize,
    start: u64,
    len: u64,
) -> Result<std::result::Result<proto::StripeInformation, DropReason>> {
    let block = decoder.block_size() as u64;
    let mut at = start;
    // The chunk starts walked, for a footer of several chunks.
    let mut out = Vec::new();
    let mut starts = Vec::new();
    while at < len {
        if let Some(stripe) = footer_at(
            source,
            decoder,
            columns,
            start,
            at,
            len,
            &mut out,
            &mut starts,
        )? {
            return Ok(Ok(stripe));
        }
        let header = source.read_at(at, 3.min(usize::try_from(len - at).unwrap_or(3)))?;
        let Some((chunk, _)) = chunk_header(&header, 0) else {
            return Ok(Err(DropReason::EndsInStripe(start)));
        };
        if chunk > block || (chunk == 0 && at == start) {
            return Ok(Err(DropReason::Unrecognized));
        }
        at += 3 + chunk;
    }
    Ok(Err(DropReason::EndsInStripe(start)))
}

/// The stripe that starts at `start` whose footer is at `at`, if the chunks there decode
/// as a stripe footer whose streams fill `start..at` and whose encodings are one per
/// column.
#[allow(clippy::too_many_arguments)]
fn footer_at<S: Source>(
    source: &S,
    decoder: &mut ChunkDecoder,
    columns: usize,
    start: u64,
    at: u64,
    len: u64,
    out: &mut Vec<u8>,
    starts: &mut Vec<(u64, u64)>,
) -> Result<Option<proto::StripeInformation>> {
    let block = decoder.block_size() as u64;
    let mut end = at;
    for _ in 0..FOOTER_CHUNKS {
        let header = source.read_at(end, 3.min(usize::try_from(len - end).unwrap_or(3)))?;
        let Some((chunk, _)) = chunk_header(&header, 0) else {
            return Ok(None);
        };
        if chunk > block || end + 3 + chunk > len {
            return Ok(None);
        }
        end += 3 + chunk;
        #[allow(clippy::cast_possible_truncation)] // at most FOOTER_CHUNKS blocks
        let bytes = source.read_at(at, (end - at) as usize)?;
        if decoder.decode_stream(&bytes, out, starts).is_err() {
            return Ok(None);
        }
        // A stripe footer starts with its first stream (field 1, length-delimited).
        if out.first() != Some(&0x0A) {
            return Ok(None);
        }
        let Ok(footer) = proto::StripeFooter::decode(out.as_slice()) else {
            continue;
        };
        let streams = footer
            .streams
            .iter()
            .map(|s| s.length.unwrap_or(0))
            .sum::<u64>();
        let fits = streams == at - start
            && footer.columns.len() == columns
            && !footer.streams.is_empty()
            && footer
                .streams
                .iter()
                .all(|s| s.column.is_some_and(|c| (c as usize) < columns));
        if !fits {
            continue;
        }
        let index_length = footer
            .streams
            .iter()
            .filter(|s| {
                matches!(
                    s.kind.and_then(|k| proto::stream::Kind::try_from(k).ok()),
                    Some(
                        proto::stream::Kind::RowIndex
                            | proto::stream::Kind::BloomFilter
                            | proto::stream::Kind::BloomFilterUtf8
                    )
                )
            })
            .map(|s| s.length.unwrap_or(0))
            .sum::<u64>();
        let Some(rows) = root_rows(source, decoder, &footer, start)? else {
            return Ok(None);
        };
        return Ok(Some(proto::StripeInformation {
            offset: Some(start),
            index_length: Some(index_length),
            data_length: Some(streams - index_length),
            footer_length: Some(end - at),
            number_of_rows: Some(rows),
            encrypt_stripe_id: None,
            encrypted_local_keys: Vec::new(),
        }));
    }
    Ok(None)
}

/// The rows of the stripe at `start` with `footer`: the values its root column's row
/// index counts.
fn root_rows<S: Source>(
    source: &S,
    decoder: &mut ChunkDecoder,
    footer: &proto::StripeFooter,
    start: u64,
) -> Result<Option<u64>> {
    let mut offset = start;
    for stream in &footer.streams {
        let length = stream.length.unwrap_or(0);
        let is_root_index =
            stream.column == Some(0) && stream.kind == Some(proto::stream::Kind::RowIndex as i32);
        if is_root_index {
            let bytes = source.read_at(offset, usize::try_from(length).unwrap_or(usize::MAX))?;
            let mut out = Vec::new();
            if decoder
                .decode_stream(&bytes, &mut out, &mut Vec::new())
                .is_err()
            {
                return Ok(None);
            }
            let Ok(index) = proto::RowIndex::decode(out.as_slice()) else {
                return Ok(None);
            };
            let rows = index
                .entry
                .iter()
                .map(|e| e.statistics.as_ref().and_then(|s| s.number_of_values))
                .sum::<Option<u64>>();
            return Ok(rows.filter(|&r| r > 0));
        }
        offset += length;
    }
    Ok(None)
}
