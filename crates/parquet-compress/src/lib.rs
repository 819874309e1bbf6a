//! Every compression codec of Parquet (parquet-format.txt, "7.1 - Compression";
//! `CompressionCodec` in parquet.thrift), both directions, plus the raw DEFLATE and bare
//! LZO1X framings that ORC uses:
//!
//! | [`Codec`] | format | backend (cargo feature) |
//! |---|---|---|
//! | `Uncompressed` | the bytes as they are | - |
//! | `Snappy` | raw Snappy block | `snap`, pure Rust (`snappy`) |
//! | `Gzip` | RFC 1952 gzip; a page of several members decompresses whole | `flate2` on `zlib-rs`, pure Rust (`gzip`) |
//! | `Lzo` | LZO1X in Hadoop block framing; a bare stream is read too | this crate's own compressor (no M1 matches, which Apache ORC's decoder misreads) and decoder, pure Rust (`lzo`) |
//! | `Brotli` | RFC 7932 Brotli | `brotli`, pure Rust (`brotli`) |
//! | `Lz4` (deprecated) | LZ4 blocks in Hadoop framing; a bare block is read too | `lz4_flex`, pure Rust (`lz4`) |
//! | `Zstd` | RFC 8878 Zstandard | `zstd`, the C library (`zstd`), or `ruzstd`, pure Rust (`ruzstd`) |
//! | `Lz4Raw` | one LZ4 block | `lz4_flex` (`lz4`) |
//! | `Deflate` | RFC 1951 raw DEFLATE: ORC's `ZLIB` | `flate2` on `zlib-rs` (`deflate`) |
//! | `LzoRaw` | one LZO1X stream: ORC's `LZO` | as `Lzo` (`lzo`) |
//!
//! The deprecated LZ4 is read as Arrow C++ and arrow-rs read it: first as Hadoop framing
//! (blocks of a big-endian `u32` decompressed size and chunks of a big-endian `u32`
//! compressed size and an LZ4 block, as parquet-java writes through Hadoop's
//! `Lz4Codec`), and, when that does not fit, as one bare LZ4 block (as parquet-cpp
//! before Arrow 1.0 wrote). It is written in Hadoop framing, in blocks of at most
//! 128 KiB so that Hadoop's 256 KiB buffers hold every chunk. LZO is framed the same way
//! (parquet-java writes it through hadoop-lzo).
//!
//! - [`compress`] and [`decompress`] do one page; [`Compressor`] and [`Decompressor`]
//!   keep their working memory (zstd and DEFLATE contexts, hash tables) between pages.
//! - [`Compression`] is a codec with a level: GZIP and DEFLATE 0..=9 (default 6), BROTLI
//!   0..=11 (default 3), ZSTD -131072..=22 (default 3).
//! - [`Codec::from_parquet`] and [`Codec::from_orc`] map the numbers in file metadata.
//!
//! ```
//! use parquet_compress::{Codec, Compression, Compressor, Error, compress, decompress};
//! # if !(Codec::Snappy.is_enabled() && Codec::Zstd.is_enabled()) { return Ok(()); }
//!
//! // A PLAIN-encoded INT64 page.
//! let page: Vec<u8> = (0..10_000_i64).flat_map(|i| (i / 3).to_le_bytes()).collect();
//!
//! let mut compressed = Vec::new();
//! compress(Codec::Snappy, &page, &mut compressed)?;
//! let mut out = Vec::new();
//! decompress(Codec::Snappy, &compressed, page.len(), &mut out)?;
//! assert_eq!(out, page);
//!
//! // With a level, and a context kept for the next pages.
//! let mut zstd = Compressor::new(Compression::with_level(Codec::Zstd, 9)?);
//! compressed.clear();
//! zstd.compress(&page, &mut compressed)?;
//! assert!(compressed.len() < page.len() / 4);
//!
//! // A page header that understates the size: an error, not a larger allocation.
//! let mut small = Vec::new();
//! assert_eq!(
//!     decompress(Codec::Zstd, &compressed, 1000, &mut small),
//!     Err(Error::TooLong { codec: Codec::Zstd, limit: 1000 }),
//! );
//! assert!(small.capacity() <= 1000);
//! # Ok::<(), Error>(())
//! ```
//!
//! # Decompression bombs
//!
//! Decompression takes the size the output must have (Parquet's page headers record
//! it) or, for ORC's chunks, the most it may have, and never writes past it: the output
//! `Vec` grows by at most that many bytes of capacity, data that would expand further is
//! [`Error::TooLong`], and data that expands to less than expected is
//! [`Error::TooShort`]. A size in a page header is a claim, not a fact, and so are the
//! sizes inside the compressed stream (Snappy's length preamble, Hadoop block headers,
//! zstd's frame content sizes, gzip's ISIZE): they are checked, and none makes the
//! output take more memory than the input can justify.
//!
//! - Before allocating, checks that need no decompression reject an impossible size:
//!   Snappy's preamble and zstd's frame content sizes must match it exactly (the
//!   decoders enforce them) and be no more than the block or the frames can hold
//!   (Snappy 22:1, ZSTD 32768:1), and `expected_len` must not exceed what the input
//!   could expand to at the codec's best ratio (DEFLATE 1032:1, LZ4 and LZO 255:1, ZSTD
//!   32768:1), so a 100-byte page that claims 2 GiB fails with [`Error::LimitExceeded`]
//!   without allocating 2 GiB.
//! - GZIP, DEFLATE, BROTLI and ZSTD frames without a content size, whose output only
//!   decoding tells, get room that grows as the decoder fills it: it starts at
//!   `min(size, 32 * input length + 64 KiB)` (or at the spare capacity the `Vec` already
//!   has) and doubles up to the size, so memory follows what the data decompresses to:
//!   a 1 KiB Brotli page that claims 1 GiB costs about 100 KiB, not 1 GiB. A page that
//!   compresses less than 32:1 fits the first room. (ZSTD decodes into one slice: when
//!   the data outgrows it, it starts over in four times the room, so that the work lost
//!   stays below a third of the last attempt's.) Brotli's decoder's own memory is
//!   bounded by the format's 16 MiB window (large-window streams are rejected).
//! - The other codecs decode into room for the whole size at once, which the checks
//!   above bound by the input's length.
//!
//! Every codec reads an empty input as zero bytes: some writers store an empty page
//! (for instance a data page v2 of only nulls) as no bytes rather than as the codec's
//! encoding of nothing.
//!
//! # Errors and panics
//!
//! Nothing panics on any input bytes. Malformed data is [`Error::Corrupt`] (with the
//! backend's static description), or [`Error::Truncated`] / [`Error::Invalid`] with an
//! offset for the framing this crate parses itself (gzip member headers, Hadoop
//! blocks). A gzip member's CRC-32 and length are checked; LZO and LZ4 blocks, Snappy
//! and ZSTD frames without checksums carry no check of their contents, so a flipped bit
//! can decompress to wrong bytes of the right length. A codec whose feature is off is
//! [`Error::Unsupported`], naming the feature. Errors allocate nothing.
//!
//! # Features
//!
//! All on by default: `snappy`, `gzip`, `deflate`, `lzo`, `brotli`, `lz4`, `zstd`.
//! Each brings in one codec (two for `lz4` and `lzo`); a codec that is off is an
//! [`Error::Unsupported`] at run time, and [`Codec::is_enabled`] tells which are on.
//!
//! ZSTD has two backends: `zstd`, the reference C library (compiled by `zstd-sys`), the
//! fastest, and `ruzstd`, pure Rust, which decodes everything but encodes only at its
//! "Fastest" level (about zstd's 1) whatever level is asked for. With both, `zstd` is
//! used. A build with no C code at all is `--no-default-features --features pure-rust`
//! (every codec, ZSTD through `ruzstd`).
//!
//! The crate itself has no `unsafe` code.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

#[cfg(feature = "brotli")]
mod brotli;
mod codec;
mod compress;
mod compression;
mod decompress;
mod error;
#[cfg(any(feature = "gzip", feature = "deflate"))]
mod flate;
#[cfg(any(feature = "lz4", feature = "lzo"))]
mod hadoop;
#[cfg(feature = "lz4")]
mod lz4;
#[cfg(feature = "lzo")]
mod lzo;
mod output;
#[cfg(feature = "snappy")]
mod snappy;
#[cfg(any(feature = "zstd", feature = "ruzstd"))]
mod zstd;

pub use codec::Codec;
pub use compress::{Compressor, compress};
pub use compression::Compression;
pub use decompress::{Decompressor, decompress};
pub use error::{Error, Result};
