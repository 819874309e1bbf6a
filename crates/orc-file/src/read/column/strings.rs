//! Strings, varchars, chars and binaries: DIRECT (the values' bytes in DATA, their
//! lengths in LENGTH) and DICTIONARY (the entries in `DICTIONARY_DATA` and LENGTH, an id
//! per value in DATA).

use parquet_core::ByteArrayBatch;

use super::{Ints, Positions, Raw, fill, short};
use crate::error::{Context as _, Error, ErrorKind, Result};
use crate::limits::Limits;
use crate::proto::stream::Kind as StreamKind;
use crate::read::stripe::StripeStreams;
use crate::rle::{self, Sign};
use crate::vector::{Vector, VectorData};

/// A DIRECT string column.
pub(super) struct Direct {
    pub(super) data: Raw,
    pub(super) lengths: Ints,
    scratch: Vec<i64>,
    /// The byte length of each slot.
    widths: Vec<u32>,
}

impl Direct {
    pub(super) const fn new(data: Raw, lengths: Ints) -> Self {
        Self {
            data,
            lengths,
            scratch: Vec::new(),
            widths: Vec::new(),
        }
    }

    /// Reads `count` values for the `n` slots (`present` marks the slots that get them).
    pub(super) fn read(
        &mut self,
        n: usize,
        count: usize,
        present: Option<&[bool]>,
        limits: &Limits,
        out: &mut Vector,
    ) -> Result<()> {
        let Self {
            data,
            lengths,
            scratch,
            widths,
        } = self;
        let got = fill(scratch, count, |out| lengths.decode(out))?;
        if got < count {
            return Err(short("LENGTH", count, got));
        }
        let total = scratch.iter().try_fold(0u64, |sum, &len| {
            u64::try_from(len).ok().and_then(|len| sum.checked_add(len))
        });
        let total = total.and_then(|t| usize::try_from(t).ok()).ok_or_else(|| {
            Error::malformed("a string length that is negative or too large").in_stream("LENGTH")
        })?;
        check_batch_bytes(count, total, limits)?;
        let bytes = data.take(total, "DATA")?;
        // The values are one run of bytes: cut it by the lengths, a null slot taking none,
        // in one copy.
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
        Ok(())
    }

    pub(super) fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.data.seek(p)?;
        self.lengths.seek(p)
    }
}

/// A DICTIONARY string column.
pub(super) struct Dictionary {
    pub(super) entries: ByteArrayBatch,
    pub(super) ids: Ints,
    scratch: Vec<i64>,
    /// The bytes of the longest entry.
    pub(super) longest: usize,
}

impl Dictionary {
    /// The dictionary of column `id` and the decoder of its ids.
    pub(super) fn new(id: u32, streams: &mut StripeStreams, version: rle::Version) -> Result<Self> {
        let size = streams.dictionary_size(id)?;
        let mut data = Raw::new(streams.require(id, StreamKind::DictionaryData));
        let mut lengths = Ints::new(
            streams.require(id, StreamKind::Length),
            version,
            Sign::Unsigned,
        );
        let entries = read_dictionary(size, &mut data, &mut lengths).at_column(id)?;
        Ok(Self {
            longest: longest_entry(&entries),
            entries,
            ids: Ints::new(
                streams.require(id, StreamKind::Data),
                version,
                Sign::Unsigned,
            ),
            scratch: Vec::new(),
        })
    }

    /// Reads `count` values for the `n` slots (`present` marks the slots that get them).
    pub(super) fn read(
        &mut self,
        n: usize,
        count: usize,
        present: Option<&[bool]>,
        limits: &Limits,
        out: &mut Vector,
    ) -> Result<()> {
        let Self {
            entries,
            ids,
            scratch,
            ..
        } = self;
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
        check_batch_bytes(count, total, limits)?;
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
        Ok(())
    }

    pub(super) fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.ids.seek(p)
    }
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

/// The bytes of the longest of `entries`.
fn longest_entry(entries: &ByteArrayBatch) -> usize {
    let offsets = entries.offsets();
    let lengths = offsets.iter().zip(offsets.iter().skip(1));
    lengths
        .map(|(a, b)| b.saturating_sub(*a) as usize)
        .max()
        .unwrap_or(0)
}

/// The dictionary of a string column: `size` entries whose lengths are in `lengths`
/// and bytes in `data`, read a step at a time: what it holds is the entries' bytes,
/// whatever `size` claims.
fn read_dictionary(size: u32, data: &mut Raw, lengths: &mut Ints) -> Result<ByteArrayBatch> {
    let size = size as usize;
    let mut entries = ByteArrayBatch::new();
    let (mut lens, mut widths) = (Vec::new(), Vec::new());
    while entries.len() < size {
        let want = (size - entries.len()).min(1 << 12);
        let got = fill(&mut lens, want, |out| lengths.decode(out))?;
        if got < want {
            return Err(short("LENGTH", size, entries.len() + got));
        }
        widths.clear();
        let mut bytes = 0usize;
        for &len in &lens {
            let width = u32::try_from(len)
                .map_err(|_| Error::invalid("dictionary entry length", len).in_stream("LENGTH"))?;
            widths.push(width);
            bytes = bytes.saturating_add(width as usize);
        }
        entries.extend_from_lengths(&widths, data.take(bytes, "DICTIONARY_DATA")?)?;
        // Entries are distinct, so all but one (the empty string) take a byte at least:
        // more cannot be true, and must not grow the dictionary's offsets.
        if entries.len() > entries.data().len() + 1 {
            return Err(ErrorKind::DictionaryTooLarge {
                entries: size as u64,
                bytes: entries.data().len() as u64,
            }
            .into());
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::stripe::Stream;
    use crate::rle::int_v2;
    use bytes::Bytes;

    fn stream(bytes: Vec<u8>) -> Stream {
        Stream::whole(Bytes::from(bytes))
    }

    #[test]
    fn a_dictionary_of_more_empty_entries_than_its_bytes_allow_is_refused() {
        // 2^31 entries claimed, lengths that go on (10,000 zeros), no bytes: entries are
        // distinct, so no more than one can be empty.
        let mut encoder = int_v2::Encoder::new(Sign::Unsigned);
        encoder.extend(&vec![0; 10_000]);
        let mut lengths = Ints::new(stream(encoder.finish()), rle::Version::V2, Sign::Unsigned);
        let mut data = Raw::new(stream(Vec::new()));
        let error = read_dictionary(1 << 31, &mut data, &mut lengths).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::DictionaryTooLarge {
                    entries: 2_147_483_648,
                    bytes: 0
                }
            ),
            "{error}"
        );
    }

    #[test]
    fn a_dictionary_is_its_entries() {
        let mut encoder = int_v2::Encoder::new(Sign::Unsigned);
        encoder.extend(&[0, 3, 1]);
        let mut lengths = Ints::new(stream(encoder.finish()), rle::Version::V2, Sign::Unsigned);
        let mut data = Raw::new(stream(b"abcd".to_vec()));
        let entries = read_dictionary(3, &mut data, &mut lengths).unwrap();
        let entries: Vec<&[u8]> = entries.iter().collect();
        assert_eq!(entries, [&b""[..], b"abc", b"d"]);
    }
}
