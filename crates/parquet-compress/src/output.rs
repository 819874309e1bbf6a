//! Room for output in a caller's `Vec<u8>`: bounded room for a compressor to write into,
//! and room for a decompressor that grows as it is filled, so that memory follows what
//! the data decompresses to rather than the size a page header claims.

#[cfg(any(feature = "gzip", feature = "deflate", feature = "brotli"))]
use core::ops::Range;

use crate::error::{Error, Result};

/// Appends the output of `compress_into` to `out`: it is given `bound` bytes of room (at
/// least what it can write) and returns how many it wrote. On error `out` is left
/// longer, for [`Compressor::compress`](crate::Compressor::compress) to cut back.
#[cfg(any(feature = "snappy", feature = "lz4", feature = "zstd"))]
pub(crate) fn append_bounded(
    out: &mut Vec<u8>,
    bound: usize,
    compress_into: impl FnOnce(&mut [u8]) -> Result<usize>,
) -> Result<()> {
    let start = out.len();
    out.resize(start + bound, 0);
    #[allow(clippy::indexing_slicing)] // `start` was the length before the resize
    let written = compress_into(&mut out[start..])?;
    out.truncate(start + written);
    Ok(())
}

/// Makes room for `len` more bytes in `out`: its capacity grows by at most `len`.
pub(crate) fn reserve(out: &mut Vec<u8>, len: usize) -> Result<()> {
    out.try_reserve_exact(len)
        .map_err(|_| Error::LimitExceeded {
            what: "decompressed size (allocation failed)",
            requested: len as u64,
            limit: (out.capacity() - out.len()) as u64,
        })
}

/// Appends `len` zeros to `out`, whose capacity grows by at most `len`.
pub(crate) fn grow(out: &mut Vec<u8>, len: usize) -> Result<()> {
    reserve(out, len)?;
    out.resize(out.len() + len, 0);
    Ok(())
}

/// The room a growing output starts with for an input of `input_len` bytes: 32 times
/// the input plus 64 KiB, which holds the whole of a page that compresses less than
/// 32:1 (so that it is decompressed in one go) and is proportional to the input, not to
/// a size claimed for it.
pub(crate) const fn first_room(input_len: usize) -> usize {
    input_len.saturating_mul(32).saturating_add(64 << 10)
}

/// Where a streaming decoder writes its output: a caller's slice, or a [`Growing`]
/// `Vec`.
#[cfg(any(feature = "gzip", feature = "deflate", feature = "brotli"))]
pub(crate) trait Sink {
    /// The most bytes the output may hold.
    fn limit(&self) -> usize;

    /// Room to write into after the first `written` bytes of output (which are in
    /// place): not empty unless the output holds [`Sink::limit`] bytes.
    fn room(&mut self, written: usize) -> Result<&mut [u8]>;

    /// The output bytes `range` (within what was written).
    #[cfg_attr(not(feature = "gzip"), allow(dead_code))]
    fn written(&self, range: Range<usize>) -> &[u8];
}

#[cfg(any(feature = "gzip", feature = "deflate", feature = "brotli"))]
impl Sink for [u8] {
    fn limit(&self) -> usize {
        self.len()
    }

    fn room(&mut self, written: usize) -> Result<&mut [u8]> {
        Ok(self.get_mut(written..).unwrap_or_default())
    }

    fn written(&self, range: Range<usize>) -> &[u8] {
        self.get(range).unwrap_or_default()
    }
}

pub(crate) use growing::Growing;

/// [`Growing`], in a module of its own so that one attribute says it: a build without the
/// streaming codecs makes one and never grows it.
#[cfg_attr(
    not(any(
        feature = "gzip",
        feature = "deflate",
        feature = "brotli",
        feature = "zstd",
        feature = "ruzstd"
    )),
    allow(dead_code)
)]
mod growing {
    #[cfg(any(feature = "gzip", feature = "deflate", feature = "brotli"))]
    use core::ops::Range;

    #[cfg(any(feature = "gzip", feature = "deflate", feature = "brotli"))]
    use super::Sink;
    use super::grow;
    use crate::error::Result;

    /// Output appended to a `Vec<u8>`, of at most `limit` bytes: zeroed room after the
    /// bytes the `Vec` held, which doubles (up to the limit) each time a decoder has filled
    /// it. The caller cuts the `Vec` back to what was written, or to where it started on
    /// error.
    pub(crate) struct Growing<'a> {
        vec: &'a mut Vec<u8>,
        start: usize,
        limit: usize,
    }

    impl<'a> Growing<'a> {
        /// Output appended to `vec`, of at most `limit` bytes, starting with `first` bytes of
        /// room (or `limit`, if less).
        pub(crate) fn new(vec: &'a mut Vec<u8>, limit: usize, first: usize) -> Result<Self> {
            let start = vec.len();
            grow(vec, first.min(limit))?;
            Ok(Self { vec, start, limit })
        }

        /// Bytes of room, counted from the start of the output.
        fn len(&self) -> usize {
            self.vec.len() - self.start
        }

        /// Doubles the room, up to the limit; `false` when it is at the limit already.
        #[cfg(any(feature = "gzip", feature = "deflate", feature = "brotli"))]
        pub(crate) fn double(&mut self) -> Result<bool> {
            self.multiply(2)
        }

        /// Multiplies the room by `factor`, up to the limit; `false` when it is at the limit
        /// already.
        pub(crate) fn multiply(&mut self, factor: usize) -> Result<bool> {
            let len = self.len();
            if len >= self.limit {
                return Ok(false);
            }
            let target = len.saturating_mul(factor).max(64 << 10).min(self.limit);
            grow(self.vec, target - len)?;
            Ok(true)
        }

        /// All of the room, from the start of the output.
        #[cfg(any(feature = "zstd", feature = "ruzstd"))]
        pub(crate) fn all(&mut self) -> &mut [u8] {
            self.vec.get_mut(self.start..).unwrap_or_default()
        }
    }

    #[cfg(any(feature = "gzip", feature = "deflate", feature = "brotli"))]
    impl Sink for Growing<'_> {
        fn limit(&self) -> usize {
            self.limit
        }

        fn room(&mut self, written: usize) -> Result<&mut [u8]> {
            if written >= self.len() {
                self.double()?;
            }
            Ok(self.vec.get_mut(self.start + written..).unwrap_or_default())
        }

        fn written(&self, range: Range<usize>) -> &[u8] {
            let range = self.start + range.start..self.start + range.end;
            self.vec.get(range).unwrap_or_default()
        }
    }
}
