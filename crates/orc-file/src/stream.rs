//! ORC's generic compression: streams cut into independently compressed chunks
//! (specification, "Compression").
//!
//! With a codec, every stream (and the footer and metadata sections) is a sequence of
//! chunks, each a 3-byte header and its bytes:
//!
//! ```text
//! stream = chunk*
//! chunk  = header(3 bytes, little-endian: length * 2 + isOriginal) bytes(length)
//! ```
//!
//! `bytes` is the codec's compression of at most `compressionBlockSize` bytes, or, when
//! `isOriginal` is set, those bytes themselves (a chunk that did not shrink). Each chunk
//! is compressed on its own, so decoding can start at any chunk header. Without a codec
//! (`NONE`) a stream is its bytes, with no headers.
//!
//! | [`OrcCompression`] | chunk bytes | codec |
//! |---|---|---|
//! | `NONE` | no chunks | - |
//! | `ZLIB` | raw DEFLATE (RFC 1951), no zlib header | [`Codec::Deflate`] |
//! | `SNAPPY` | one raw Snappy block | [`Codec::Snappy`] |
//! | `LZO` | one bare LZO1X block | [`Codec::LzoRaw`] |
//! | `LZ4` | one raw LZ4 block | [`Codec::Lz4Raw`] |
//! | `ZSTD` | one Zstandard frame | [`Codec::Zstd`] |
//!
//! # Positions
//!
//! A row index records where each row group starts in each stream. In a compressed
//! stream that takes two numbers: the offset of a chunk's header within the stream, and
//! the number of decompressed bytes of that chunk to skip. [`ChunkDecoder::decode_stream`]
//! and [`ChunkEncoder::encode_stream`] both fill a table of chunk starts, one
//! `(compressed offset, uncompressed offset)` pair per chunk plus a last pair for the end
//! of the stream; [`seek_offset`] turns a recorded position into an offset in the decoded
//! stream and [`position_of`] turns an offset in the uncompressed stream into a position.
//!
//! With `NONE` a position has a single number, the byte offset in the stream, which is
//! already the offset in the decoded stream: the table is left empty and the reader and
//! writer take that one number as it is ([`OrcCompression::is_compressed`] tells which
//! case applies; Apache ORC writes one number, not two, for uncompressed streams).
//!
//! ```
//! use orc_file::OrcCompression;
//! use orc_file::stream::{ChunkDecoder, ChunkEncoder, position_of, seek_offset};
//! # if !OrcCompression::Zlib.is_enabled() { return Ok(()); }
//!
//! let data: Vec<u8> = (0..100_000_u32).flat_map(|i| (i / 7).to_le_bytes()).collect();
//!
//! // Chunks of at most 64 KiB of uncompressed bytes.
//! let mut encoder = ChunkEncoder::new(OrcCompression::Zlib, None, 65_536)?;
//! let (mut stream, mut written) = (Vec::new(), Vec::new());
//! encoder.encode_stream(&data, &mut stream, &mut written)?;
//! assert!(stream.len() < data.len() / 4);
//!
//! let mut decoder = ChunkDecoder::new(OrcCompression::Zlib, 65_536)?;
//! let (mut decoded, mut read) = (Vec::new(), Vec::new());
//! decoder.decode_stream(&stream, &mut decoded, &mut read)?;
//! assert_eq!(decoded, data);
//! assert_eq!(read, written);
//!
//! // The writer records a row group starting at byte 300,000 as a position...
//! let (chunk, within) = position_of(&written, 300_000);
//! assert_eq!(within, 300_000 - 4 * 65_536);
//! // ...which the reader maps back.
//! assert_eq!(seek_offset(&read, chunk, within)?, 300_000);
//! # Ok::<(), orc_file::Error>(())
//! ```
//!
//! # Limits
//!
//! The block size bounds every chunk: an original chunk longer than it is an error, and
//! a compressed chunk is decompressed with the block size as a cap
//! ([`Decompressor::decompress_up_to`]), so a chunk that expands further is an error
//! found without holding more than the block size for it. Memory for a whole stream
//! follows what its chunks really decompress to: at most the block size for every 3
//! bytes of input, and in practice the codecs' own ratio bounds (see the
//! `parquet_compress` docs on decompression bombs). A reader that cannot bound what it
//! needs of a stream decodes it a chunk at a time instead
//! ([`ChunkDecoder::decode_chunk`], with [`chunk_offsets`] to seek), as orc-file's own
//! reader does for every stream whose size the stripe's rows do not bound.

use std::borrow::Cow;
use std::fmt;

use parquet_compress::{Codec, Compression, Compressor, Decompressor};

use crate::error::{Compressing as _, Error, ErrorKind, Result};
use crate::proto::CompressionKind;

/// The length of a chunk header.
const HEADER_LEN: usize = 3;

/// The largest chunk length a header can hold: 23 bits.
pub const MAX_CHUNK_LEN: usize = (1 << 23) - 1;

// Error messages give the range.
const _: () = assert!(MAX_CHUNK_LEN == 8_388_607);

/// The generic compression of an ORC file: the postscript's `CompressionKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrcCompression {
    /// No compression: streams are their bytes, without chunk headers.
    None,
    /// Raw DEFLATE.
    Zlib,
    /// Snappy.
    Snappy,
    /// LZO1X.
    Lzo,
    /// LZ4, one block per chunk.
    Lz4,
    /// Zstandard.
    Zstd,
}

impl OrcCompression {
    /// Every kind, in the order of their numbers.
    pub const ALL: [Self; 6] = [
        Self::None,
        Self::Zlib,
        Self::Snappy,
        Self::Lzo,
        Self::Lz4,
        Self::Zstd,
    ];

    /// The kind of a `PostScript.compression` value.
    ///
    /// It takes the raw number, not [`CompressionKind`]: prost's accessor
    /// (`PostScript::compression()`) reads a number it does not know as `NONE`, which
    /// would take compressed streams for plain ones. An absent field is `NONE`
    /// (`unwrap_or(0)`).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] for `BROTLI` (ORC 2.x) and for numbers the format does not
    /// define.
    pub fn from_proto(kind: i32) -> Result<Self> {
        match CompressionKind::try_from(kind) {
            Ok(CompressionKind::None) => Ok(Self::None),
            Ok(CompressionKind::Zlib) => Ok(Self::Zlib),
            Ok(CompressionKind::Snappy) => Ok(Self::Snappy),
            Ok(CompressionKind::Lzo) => Ok(Self::Lzo),
            Ok(CompressionKind::Lz4) => Ok(Self::Lz4),
            Ok(CompressionKind::Zstd) => Ok(Self::Zstd),
            Ok(CompressionKind::Brotli) => Err(Error::unsupported("BROTLI compression", None)),
            Err(_) => Err(Error::unsupported(
                "compression kind",
                Some(i64::from(kind)),
            )),
        }
    }

    /// The postscript's `CompressionKind` of this kind.
    pub const fn to_proto(self) -> CompressionKind {
        match self {
            Self::None => CompressionKind::None,
            Self::Zlib => CompressionKind::Zlib,
            Self::Snappy => CompressionKind::Snappy,
            Self::Lzo => CompressionKind::Lzo,
            Self::Lz4 => CompressionKind::Lz4,
            Self::Zstd => CompressionKind::Zstd,
        }
    }

    /// The name ORC gives the kind: `"NONE"`, `"ZLIB"`, `"SNAPPY"`, `"LZO"`, `"LZ4"`,
    /// `"ZSTD"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "NONE",
            Self::Zlib => "ZLIB",
            Self::Snappy => "SNAPPY",
            Self::Lzo => "LZO",
            Self::Lz4 => "LZ4",
            Self::Zstd => "ZSTD",
        }
    }

    /// The codec of the chunks' bytes ([`Codec::Uncompressed`] for `NONE`).
    pub const fn codec(self) -> Codec {
        match self {
            Self::None => Codec::Uncompressed,
            Self::Zlib => Codec::Deflate,
            Self::Snappy => Codec::Snappy,
            Self::Lzo => Codec::LzoRaw,
            Self::Lz4 => Codec::Lz4Raw,
            Self::Zstd => Codec::Zstd,
        }
    }

    /// Whether streams are cut into chunks with headers (every kind but `NONE`), and so
    /// whether a row-index position of a stream has two numbers (chunk start, offset in
    /// the chunk) rather than one (offset in the stream).
    pub const fn is_compressed(self) -> bool {
        !matches!(self, Self::None)
    }

    /// Whether this build can compress and decompress the kind (the cargo features
    /// `zlib`, `snappy`, `lzo`, `lz4`, `zstd`).
    pub const fn is_enabled(self) -> bool {
        self.codec().is_enabled()
    }

    /// [`ErrorKind::CodecDisabled`] when this build lacks the codec.
    fn check_enabled(self) -> Result<()> {
        if self.is_enabled() {
            return Ok(());
        }
        let feature = match self {
            Self::Zlib => "zlib",
            Self::Snappy => "snappy",
            Self::Lzo => "lzo",
            Self::Lz4 => "lz4",
            Self::None | Self::Zstd => "zstd` or `pure-rust",
        };
        Err(ErrorKind::CodecDisabled {
            codec: self.name(),
            feature,
        }
        .into())
    }
}

impl fmt::Display for OrcCompression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a chunk header: `(length, is_original)`.
fn read_header(header: [u8; HEADER_LEN]) -> (usize, bool) {
    let [b0, b1, b2] = header;
    let value = u32::from(b0) | u32::from(b1) << 8 | u32::from(b2) << 16;
    ((value >> 1) as usize, value & 1 == 1)
}

/// Writes a chunk header; `len` must be at most [`MAX_CHUNK_LEN`].
fn write_header(len: usize, original: bool) -> [u8; HEADER_LEN] {
    debug_assert!(len <= MAX_CHUNK_LEN);
    let value = (len << 1) | usize::from(original);
    let [b0, b1, b2, ..] = value.to_le_bytes();
    [b0, b1, b2]
}

/// `usize` to `u64`, which cannot lose bits on the platforms Rust supports.
#[allow(clippy::cast_possible_truncation)]
const fn to_u64(n: usize) -> u64 {
    n as u64
}

/// Decodes compressed streams: reads the chunk headers and decompresses each chunk,
/// keeping the codec's context between chunks and streams.
#[derive(Debug)]
pub struct ChunkDecoder {
    compression: OrcCompression,
    block_size: usize,
    decompressor: Decompressor,
    max_output: usize,
    stop_after: usize,
}

impl ChunkDecoder {
    /// A decoder for `kind` with the postscript's `compressionBlockSize`, the most any
    /// chunk may hold (ignored for `NONE`).
    ///
    /// # Errors
    ///
    /// - [`ErrorKind::CodecDisabled`] when this build lacks the codec;
    /// - [`ErrorKind::Unsupported`] when the block size does
    ///   not fit in memory addresses;
    /// - [`ErrorKind::Invalid`] for a block size of 0 with a codec.
    pub fn new(kind: OrcCompression, block_size: u64) -> Result<Self> {
        kind.check_enabled()?;
        let block_size = usize::try_from(block_size).map_err(|_| {
            Error::unsupported(
                "compression block size",
                Some(i64::try_from(block_size).unwrap_or(i64::MAX)),
            )
        })?;
        if block_size == 0 && kind.is_compressed() {
            return Err(Error::invalid(
                "compression block size of a compressed file",
                0,
            ));
        }
        Ok(Self {
            compression: kind,
            block_size,
            decompressor: Decompressor::new(),
            max_output: usize::MAX,
            stop_after: usize::MAX,
        })
    }

    /// Sets the most bytes a stream may decompress to (unbounded by default): a stream
    /// of more is [`ErrorKind::LimitExceeded`] once its chunks pass it.
    pub fn set_max_output(&mut self, bytes: usize) {
        self.max_output = bytes;
    }

    /// The most bytes a stream may decompress to.
    pub const fn max_output(&self) -> usize {
        self.max_output
    }

    /// Stops decompressing a stream once this many bytes are out (unbounded by default):
    /// the chunks after are left alone, as when a reader knows how many bytes its values
    /// can take at most. The table of chunk starts then ends at the last chunk decoded.
    pub fn set_stop_after(&mut self, bytes: usize) {
        self.stop_after = bytes;
    }

    /// The compression kind.
    pub const fn compression(&self) -> OrcCompression {
        self.compression
    }

    /// The block size: the most bytes a chunk may hold or decompress to.
    pub const fn block_size(&self) -> usize {
        self.block_size
    }

    /// Decompresses a whole stream (a sequence of chunks) into `out`, which is cleared
    /// first.
    ///
    /// `chunk_starts` is cleared and filled with, for each chunk, the offset of its
    /// header in `input` and the offset of its first decompressed byte in `out`, and
    /// then one last pair for the end of the stream, `(input.len(), out.len())`: the
    /// table [`seek_offset`] reads. (An empty stream gives `[(0, 0)]`.) With `NONE`,
    /// `input` is copied and `chunk_starts` is left empty: positions are offsets in the
    /// stream (see the [module docs](self)); [`ChunkDecoder::decode_stream_cow`] borrows
    /// instead of copying.
    ///
    /// # Errors
    ///
    /// - [`ErrorKind::Decode`] with [`Truncated`](parquet_core::Error::Truncated) for a
    ///   header or chunk cut short, and with
    ///   [`LimitExceeded`](parquet_core::Error::LimitExceeded) for an original chunk
    ///   longer than the block size;
    /// - [`ErrorKind::Decompress`] for a chunk that does not decompress, or that decompresses
    ///   to more than the block size ([`TooLong`](parquet_compress::Error::TooLong)).
    ///
    /// On error, `out` and `chunk_starts` hold what was decoded before the bad chunk.
    pub fn decode_stream(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        chunk_starts: &mut Vec<(u64, u64)>,
    ) -> Result<()> {
        out.clear();
        chunk_starts.clear();
        if !self.compression.is_compressed() {
            out.extend_from_slice(input);
            return Ok(());
        }
        self.decode_chunks(input, out, chunk_starts)
    }

    /// [`ChunkDecoder::decode_stream`] that borrows `input` when the stream is not
    /// compressed (`NONE`) and returns the decoded stream.
    ///
    /// # Errors
    ///
    /// As [`ChunkDecoder::decode_stream`].
    pub fn decode_stream_cow<'a>(
        &mut self,
        input: &'a [u8],
        chunk_starts: &mut Vec<(u64, u64)>,
    ) -> Result<Cow<'a, [u8]>> {
        chunk_starts.clear();
        if !self.compression.is_compressed() {
            return Ok(Cow::Borrowed(input));
        }
        let mut out = Vec::new();
        self.decode_chunks(input, &mut out, chunk_starts)?;
        Ok(Cow::Owned(out))
    }

    /// Decodes the chunks of `input` onto the end of `out` (empty on entry).
    fn decode_chunks(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        chunk_starts: &mut Vec<(u64, u64)>,
    ) -> Result<()> {
        let mut pos = 0;
        while pos < input.len() {
            chunk_starts.push((to_u64(pos), to_u64(out.len())));
            pos = self.decode_chunk(input, pos, out)?;
            if out.len() > self.max_output {
                return Err(Error::limit(
                    "decompressed bytes of a stream",
                    to_u64(out.len()),
                    to_u64(self.max_output),
                ));
            }
            if out.len() >= self.stop_after {
                break;
            }
        }
        chunk_starts.push((to_u64(pos), to_u64(out.len())));
        Ok(())
    }

    /// Decodes the one chunk whose header is at `pos` in the compressed stream `input`
    /// onto the end of `out`, and returns the offset of the next chunk's header: a
    /// stream decoded a chunk at a time, holding no more than the caller keeps. (Only
    /// for a compressed stream: a `NONE` stream has no chunks.)
    ///
    /// # Errors
    ///
    /// As [`ChunkDecoder::decode_stream`], for this chunk.
    pub fn decode_chunk(&mut self, input: &[u8], pos: usize, out: &mut Vec<u8>) -> Result<usize> {
        let (start, len, original) = chunk_at(input, pos)?;
        let chunk = input.get(start..start + len).unwrap_or_default();
        if original {
            if len > self.block_size {
                return Err(parquet_core::Error::LimitExceeded {
                    what: "ORC original chunk length (compression block size)",
                    requested: to_u64(len),
                    limit: to_u64(self.block_size),
                }
                .into());
            }
            out.extend_from_slice(chunk);
        } else {
            // Room for what the chunk likely holds (a block, or less for a small chunk),
            // doubling as the stream grows, rather than a reallocation (and a copy of
            // all decoded so far) per chunk.
            let likely = self.block_size.min(len.saturating_mul(64).max(4096));
            if out.capacity() - out.len() < likely {
                out.reserve(likely.max(out.len()));
            }
            self.decompressor.decompress_up_to(
                self.compression.codec(),
                chunk,
                self.block_size,
                out,
            )?;
        }
        Ok(start + len)
    }
}

/// The chunk whose header is at `pos` in `input`: where its bytes start, their length,
/// and whether they are original (not compressed); an error when the header or the
/// bytes are cut short.
fn chunk_at(input: &[u8], pos: usize) -> Result<(usize, usize, bool)> {
    let Some(&header) = input.get(pos..).and_then(|rest| rest.first_chunk()) else {
        return Err(parquet_core::Error::truncated(
            "ORC compression chunk header",
            pos,
            HEADER_LEN,
            input.len().saturating_sub(pos),
        )
        .into());
    };
    let (len, original) = read_header(header);
    let start = pos + HEADER_LEN;
    if input.len() - start < len {
        return Err(parquet_core::Error::truncated(
            "ORC compression chunk",
            start,
            len,
            input.len() - start,
        )
        .into());
    }
    Ok((start, len, original))
}

/// The offsets of the chunk headers of the compressed stream `input`, and its end, read
/// from the headers alone (nothing is decompressed): where a row-index position may
/// point.
///
/// # Errors
///
/// A header or chunk cut short, as [`ChunkDecoder::decode_stream`] finds it.
pub fn chunk_offsets(input: &[u8]) -> Result<Vec<u64>> {
    let mut offsets = Vec::new();
    let mut pos = 0;
    while pos < input.len() {
        offsets.push(to_u64(pos));
        let (start, len, _) = chunk_at(input, pos)?;
        pos = start + len;
    }
    offsets.push(to_u64(pos));
    Ok(offsets)
}

/// Maps a row-index position of a compressed stream, `(compressed, within)`, to an
/// offset in the decoded stream, given the `chunk_starts` that
/// [`ChunkDecoder::decode_stream`] filled.
///
/// `compressed` must be the offset of a chunk header (or the end of the stream) and
/// `within` at most the chunk's decompressed length (a position at the very end of a
/// chunk, or `(end of stream, 0)`, is where a row group that adds no bytes starts).
/// Positions of `NONE` streams have one number, the offset itself: do not call this for
/// them.
///
/// # Errors
///
/// [`ErrorKind::Invalid`] when `compressed` is not a chunk start or the end of the
/// stream, [`ErrorKind::OutOfBounds`] when `within` is past the chunk's end.
pub fn seek_offset(chunk_starts: &[(u64, u64)], compressed: u64, within: u64) -> Result<usize> {
    let index = chunk_starts
        .binary_search_by_key(&compressed, |&(chunk, _)| chunk)
        .map_err(|_| {
            Error::invalid(
                "row index position: compressed offset, not the start of a compression chunk",
                compressed,
            )
        })?;
    let start = chunk_starts.get(index).map_or(0, |&(_, start)| start);
    // The end of the stream is a chunk of no bytes.
    let end = chunk_starts.get(index + 1).map_or(start, |&(_, end)| end);
    let chunk_len = end.saturating_sub(start);
    if within > chunk_len {
        return Err(Error::out_of_bounds(
            "row index position",
            (within, 0),
            "the decompressed compression chunk",
            chunk_len,
        )
        .at_offset(compressed));
    }
    start
        .checked_add(within)
        .and_then(|offset| usize::try_from(offset).ok())
        .ok_or_else(|| {
            Error::unsupported(
                "row index position past this platform's memory",
                i64::try_from(within).ok(),
            )
        })
}

/// Compresses streams into chunks, keeping the codec's context between chunks and
/// streams.
#[derive(Debug)]
pub struct ChunkEncoder {
    compression: OrcCompression,
    block_size: usize,
    compressor: Compressor,
}

impl ChunkEncoder {
    /// An encoder for `compression` at `level` (`None` for the codec's default; only
    /// `ZLIB`, 0 to 9, and `ZSTD`, -131072 to 22, have levels), cutting streams into
    /// chunks of at most `block_size` uncompressed bytes: the postscript's
    /// `compressionBlockSize` (Apache ORC's default is 256 KiB).
    ///
    /// # Errors
    ///
    /// - [`ErrorKind::CodecDisabled`] when this build lacks the codec;
    /// - [`ErrorKind::Compress`] for a level outside the codec's range, or a level for a
    ///   codec that has none;
    /// - [`ErrorKind::InvalidInput`] for a block size of 0 or above [`MAX_CHUNK_LEN`] (the
    ///   most a chunk header can hold) with a codec.
    pub fn new(compression: OrcCompression, level: Option<i32>, block_size: usize) -> Result<Self> {
        compression.check_enabled()?;
        let codec = compression.codec();
        let setting = match level {
            Some(level) => Compression::with_level(codec, level).compressing()?,
            None => Compression::new(codec),
        };
        if compression.is_compressed() && !(1..=MAX_CHUNK_LEN).contains(&block_size) {
            return Err(ErrorKind::InvalidInput {
                what: "compression block size out of range (1 to 8388607)",
                kind: None,
                value: Some(block_size as i128),
                slot: None,
            }
            .into());
        }
        Ok(Self {
            compression,
            block_size,
            compressor: Compressor::new(setting),
        })
    }

    /// The compression kind.
    pub const fn compression(&self) -> OrcCompression {
        self.compression
    }

    /// The block size: the most uncompressed bytes in a chunk.
    pub const fn block_size(&self) -> usize {
        self.block_size
    }

    /// Compresses `input`, a whole uncompressed stream, into chunks of at most the block
    /// size of uncompressed bytes each, and appends them to `out`. A chunk that does not
    /// shrink is stored original (its header's flag set), as Apache ORC does.
    ///
    /// `chunk_starts` is cleared and filled with, for each chunk, the offset of its
    /// header relative to the stream's start (`out.len()` on entry) and the offset of
    /// its first byte in `input`, and then `(stream length, input.len())` for the end:
    /// the table [`position_of`] reads, the same that [`ChunkDecoder::decode_stream`]
    /// builds from the stream. With `NONE`, `input` is appended as it is and
    /// `chunk_starts` is left empty: positions are offsets in `input`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Compress`] if the codec fails. On error, `out` keeps what was appended
    /// before the failing chunk.
    pub fn encode_stream(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        chunk_starts: &mut Vec<(u64, u64)>,
    ) -> Result<()> {
        chunk_starts.clear();
        if !self.compression.is_compressed() {
            out.extend_from_slice(input);
            return Ok(());
        }
        let base = out.len();
        let mut consumed = 0;
        for chunk in input.chunks(self.block_size) {
            let header_at = out.len();
            chunk_starts.push((to_u64(header_at - base), to_u64(consumed)));
            out.extend_from_slice(&[0; HEADER_LEN]);
            self.compressor.compress(chunk, out).compressing()?;
            let compressed_len = out.len() - header_at - HEADER_LEN;
            let header = if compressed_len < chunk.len() {
                write_header(compressed_len, false)
            } else {
                out.truncate(header_at + HEADER_LEN);
                out.extend_from_slice(chunk);
                write_header(chunk.len(), true)
            };
            if let Some(slot) = out.get_mut(header_at..header_at + HEADER_LEN) {
                slot.copy_from_slice(&header);
            }
            consumed += chunk.len();
        }
        chunk_starts.push((to_u64(out.len() - base), to_u64(consumed)));
        Ok(())
    }
}

/// Turns an offset in an uncompressed stream into a row-index position, `(offset of the
/// chunk header in the compressed stream, offset within that chunk's uncompressed
/// bytes)`, given the `chunk_starts` that [`ChunkEncoder::encode_stream`] filled.
///
/// An offset on a chunk boundary is the start of the next chunk (`within` 0), and the
/// end of the stream is `(compressed length, 0)`, as Apache ORC's writer records them.
/// An empty table (a `NONE` stream) gives `(0, uncompressed)`; an offset past the end
/// gives the end of the stream and the excess as `within`, which [`seek_offset`]
/// rejects.
pub fn position_of(chunk_starts: &[(u64, u64)], uncompressed: u64) -> (u64, u64) {
    let after = chunk_starts.partition_point(|&(_, start)| start <= uncompressed);
    match after
        .checked_sub(1)
        .and_then(|index| chunk_starts.get(index))
    {
        Some(&(compressed, start)) => (compressed, uncompressed.saturating_sub(start)),
        None => (0, uncompressed),
    }
}

#[cfg(test)]
mod tests;
