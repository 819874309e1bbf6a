//! The split-block Bloom filters of column chunks: read (and decrypted) from a source.

use bytes::Bytes;
use parquet_bloom::Sbbf;
use parquet_crypto::{Module, ModuleCipher};
use parquet_thrift as thrift;

use crate::error::{Context, Crypto as _, Decoding as _, Error, ErrorKind, Result};
use crate::io::Source;

/// The most bytes a Bloom filter header takes: its four fields are a few bytes each.
const MAX_HEADER: u64 = 64;

/// Where a chunk's filter is, and how to decrypt it.
pub(crate) struct Location<'a> {
    /// The file offset of the filter's header.
    pub(crate) offset: u64,
    /// The end of the file's data: no filter byte lies past it.
    pub(crate) data_end: u64,
    /// The chunk's cipher, with its row group's ordinal and column's index.
    pub(crate) cipher: Option<(&'a ModuleCipher, usize, usize)>,
}

/// Reads the Bloom filter at `at`.
///
/// # Errors
///
/// A filter outside the file's data, a header that does not decode (or decrypt), an
/// algorithm, hash or compression other than the split-block, XXH64 and uncompressed
/// that the format defines, or a bitset of an invalid size.
pub(crate) fn read(source: &impl Source, at: &Location<'_>) -> Result<Sbbf> {
    let (offset, end) = (at.offset, at.data_end);
    if offset >= end {
        return Err(ErrorKind::OutOfBounds {
            what: "Bloom filter",
            start: offset,
            len: 0,
            within: "the file's data",
            end,
        }
        .into());
    }
    let read = |at: u64, len: u64| -> Result<Bytes> {
        let len = len.min(end.saturating_sub(at));
        #[allow(clippy::cast_possible_truncation)] // bounded by the file's length
        Ok(source.read_at(at, len as usize)?)
    };
    // What the header says, checked before the bitset is read.
    let size = |header: &thrift::BloomFilterHeader| -> Result<usize> {
        let known = matches!(header.algorithm, thrift::BloomFilterAlgorithm::Block(_))
            && matches!(header.hash, thrift::BloomFilterHash::XxHash(_))
            && matches!(
                header.compression,
                thrift::BloomFilterCompression::Uncompressed(_)
            );
        if !known {
            return Err(Error::unsupported(
                "Bloom filter algorithm, hash or compression",
                None,
            ));
        }
        Sbbf::validate_num_bytes(header.num_bytes.into()).decoding("Bloom filter size")
    };
    let (num_bytes, bitset) = match at.cipher {
        None => {
            let head = read(offset, MAX_HEADER)?;
            let (header, used) = thrift::BloomFilterHeader::read_from(&head)
                .decoding("Bloom filter header")
                .at_offset(offset)?;
            let num_bytes = size(&header)?;
            // `read` stops at the end of the file's data: a shorter bitset is an error
            // below.
            (num_bytes, read(offset + used as u64, num_bytes as u64)?)
        }
        Some((cipher, row_group, column)) => {
            let module = |at: u64| -> Result<Bytes> {
                let len = read(at, 4)?;
                let len: [u8; 4] = len[..].try_into().map_err(|_| {
                    Error::from(ErrorKind::OutOfBounds {
                        what: "encrypted Bloom filter",
                        start: at,
                        len: 4,
                        within: "the file's data",
                        end,
                    })
                })?;
                read(at, 4 + u64::from(u32::from_le_bytes(len)))
            };
            let head = module(offset)?;
            let mut plain = Vec::new();
            cipher
                .decrypt(
                    Module::BloomFilterHeader { row_group, column },
                    &head,
                    &mut plain,
                )
                .crypto("decrypting a Bloom filter header")?;
            let (header, _) = thrift::BloomFilterHeader::read_from(&plain)
                .decoding("Bloom filter header")
                .at_offset(offset)?;
            let num_bytes = size(&header)?;
            let body = module(offset + head.len() as u64)?;
            let mut bitset = Vec::new();
            cipher
                .decrypt(
                    Module::BloomFilterBitset { row_group, column },
                    &body,
                    &mut bitset,
                )
                .crypto("decrypting a Bloom filter bitset")?;
            (num_bytes, bitset.into())
        }
    };
    if bitset.len() != num_bytes {
        return Err(Error::mismatch(
            "bytes of the Bloom filter's bitset",
            num_bytes as u64,
            bitset.len() as u64,
        ));
    }
    Sbbf::try_from_bitset(&bitset).decoding("Bloom filter bitset")
}
