//! Reading the split-block Bloom filters of column chunks.

use parquet_bloom::Sbbf;
use parquet_crypto::Module;
use parquet_thrift::{
    BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
};

use crate::error::{Context, Error, Result};
use crate::metadata::ChunkCipher;
use crate::reader::FileReader;
use crate::source::Source;

/// The most bytes a Bloom filter header takes: its four fields are a few bytes each.
const MAX_HEADER: u64 = 64;

impl<S: Source> FileReader<S> {
    /// The Bloom filter of a column chunk, or `None` when the chunk has none.
    ///
    /// # Errors
    ///
    /// A filter outside the file, a header that does not decode (or decrypt), an
    /// algorithm, hash or compression other than the split-block, XXH64 and
    /// uncompressed that the format defines, or a bitset of an invalid size.
    pub fn bloom_filter(&self, row_group: usize, column: usize) -> Result<Option<Sbbf>> {
        let name = self.schema().column(column).name.clone();
        self.read_bloom(row_group, column)
            .in_row_group(row_group)
            .in_column(&name)
    }

    fn read_bloom(&self, row_group: usize, column: usize) -> Result<Option<Sbbf>> {
        let meta = self.metadata().column_metadata(row_group, column)?;
        let Some(offset) = meta.bloom_filter_offset else {
            return Ok(None);
        };
        let offset = u64::try_from(offset)
            .map_err(|_| Error::invalid(format!("negative Bloom filter offset {offset}")))?;
        let end = self.metadata().data_end();
        if offset >= end {
            return Err(Error::invalid(format!(
                "Bloom filter offset {offset} is past the file's data"
            )));
        }
        let read = |at: u64, len: u64| -> Result<bytes::Bytes> {
            let len = len.min(end.saturating_sub(at));
            #[allow(clippy::cast_possible_truncation)] // bounded by the file's length
            Ok(self.source().read_at(at, len as usize)?)
        };
        let (header, bitset) = match self.metadata().cipher(row_group, column) {
            ChunkCipher::Plaintext => {
                let head = read(offset, MAX_HEADER)?;
                let (header, used) = BloomFilterHeader::read_from(&head).at_offset(offset)?;
                // `read` stops at the end of the file's data; the size is checked below.
                let len = u64::try_from(header.num_bytes).unwrap_or(0);
                (header, read(offset + used as u64, len)?)
            }
            ChunkCipher::NoKey(message) => return Err(Error::argument(message.clone())),
            ChunkCipher::Cipher(cipher) => {
                let ordinal = self.metadata().row_group_ordinal(row_group);
                let module = |at: u64| -> Result<bytes::Bytes> {
                    let len = read(at, 4)?;
                    let len: [u8; 4] = len[..]
                        .try_into()
                        .map_err(|_| Error::invalid("truncated encrypted Bloom filter"))?;
                    read(at, 4 + u64::from(u32::from_le_bytes(len)))
                };
                let head = module(offset)?;
                let mut plain = Vec::new();
                cipher.decrypt(
                    Module::BloomFilterHeader {
                        row_group: ordinal,
                        column,
                    },
                    &head,
                    &mut plain,
                )?;
                let (header, _) = BloomFilterHeader::read_from(&plain).at_offset(offset)?;
                let at = offset + head.len() as u64;
                let body = module(at)?;
                let mut bitset = Vec::new();
                cipher.decrypt(
                    Module::BloomFilterBitset {
                        row_group: ordinal,
                        column,
                    },
                    &body,
                    &mut bitset,
                )?;
                (header, bitset.into())
            }
        };
        check_header(&header)?;
        let num_bytes = Sbbf::validate_num_bytes(header.num_bytes.into())?;
        if bitset.len() != num_bytes {
            return Err(Error::invalid(format!(
                "Bloom filter of {num_bytes} bytes, but only {} in the file",
                bitset.len()
            )));
        }
        Ok(Some(Sbbf::try_from_bitset(&bitset)?))
    }
}

fn check_header(header: &BloomFilterHeader) -> Result<()> {
    let known = matches!(header.algorithm, BloomFilterAlgorithm::Block(_))
        && matches!(header.hash, BloomFilterHash::XxHash(_))
        && matches!(header.compression, BloomFilterCompression::Uncompressed(_));
    if known {
        Ok(())
    } else {
        Err(Error::unsupported(
            "a Bloom filter algorithm, hash or compression newer than this reader",
        ))
    }
}
