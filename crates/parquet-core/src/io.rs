//! Where files come from and go to, for the Parquet and ORC readers and writers:
//! positioned reads ([`Source`]) and appends ([`Sink`]).

use std::fs::File;
use std::io::{self, Write};

use bytes::Bytes;

/// A random-access source of bytes: a file, a memory map, an in-memory buffer, or
/// anything else that can read a range at an offset (an object store client, say).
///
/// The reader asks for whole structures at once (the footer, one column chunk, one page
/// index), never for more bytes than [`Source::len`] says the source holds, and checks
/// every offset and length from the file against that length before reading.
///
/// ```
/// use bytes::Bytes;
/// use parquet_core::io::Source;
///
/// let source = Bytes::from_static(b"PAR1...PAR1");
/// assert_eq!(Source::len(&source)?, 11);
/// assert_eq!(source.read_at(7, 4)?, Bytes::from_static(b"PAR1"));
/// // A memory map (from the memmap2 crate, say) is a `Bytes` too:
/// // `Bytes::from_owner(unsafe { memmap2::Mmap::map(&file)? })`.
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait Source {
    /// The length of the source in bytes.
    ///
    /// # Errors
    ///
    /// Whatever the underlying source reports.
    fn len(&self) -> io::Result<u64>;

    /// Whether the source is empty.
    ///
    /// # Errors
    ///
    /// Whatever the underlying source reports.
    fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// `len` bytes starting at `offset`.
    ///
    /// # Errors
    ///
    /// An [`io::ErrorKind::UnexpectedEof`] error when the range is not inside the
    /// source, or whatever the underlying source reports.
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes>;
}

fn out_of_bounds(offset: u64, len: usize, size: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!("read of {len} bytes at offset {offset} is past the end ({size} bytes)"),
    )
}

impl Source for Bytes {
    fn len(&self) -> io::Result<u64> {
        Ok(self.as_ref().len() as u64)
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        let size = self.as_ref().len();
        usize::try_from(offset)
            .ok()
            .and_then(|start| Some(start..start.checked_add(len)?))
            .filter(|range| range.end <= size)
            .map(|range| self.slice(range))
            .ok_or_else(|| out_of_bounds(offset, len, size as u64))
    }
}

impl Source for Vec<u8> {
    fn len(&self) -> io::Result<u64> {
        Ok(self.as_slice().len() as u64)
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        usize::try_from(offset)
            .ok()
            .and_then(|start| self.get(start..start.checked_add(len)?))
            .map(Bytes::copy_from_slice)
            .ok_or_else(|| out_of_bounds(offset, len, self.as_slice().len() as u64))
    }
}

impl Source for File {
    fn len(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        let size = Source::len(self)?;
        if offset.checked_add(len as u64).is_none_or(|end| end > size) {
            return Err(out_of_bounds(offset, len, size));
        }
        let mut buf = vec![0; len];
        read_exact_at(self, &mut buf, offset)?;
        Ok(Bytes::from(buf))
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

impl<S: Source + ?Sized> Source for &S {
    fn len(&self) -> io::Result<u64> {
        (**self).len()
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        (**self).read_at(offset, len)
    }
}

impl<S: Source + ?Sized> Source for std::sync::Arc<S> {
    fn len(&self) -> io::Result<u64> {
        (**self).len()
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        (**self).read_at(offset, len)
    }
}

/// The first `data_end` bytes of a source followed by `tail`: a file rebuilt from
/// another (a recovered file read before it is written, or a file cut at a footer it
/// holds).
///
/// ```
/// use bytes::Bytes;
/// use parquet_core::io::{Source, Spliced};
///
/// let source = Bytes::from_static(b"PAR1 data, then damage");
/// let spliced = Spliced::new(&source, 10, Bytes::from_static(b" and a footer"));
/// assert_eq!(Source::len(&spliced)?, 23);
/// assert_eq!(spliced.read_at(5, 10)?, Bytes::from_static(b"data, and "));
/// assert_eq!(spliced.read_at(0, 4)?, Bytes::from_static(b"PAR1"));
/// assert_eq!(spliced.read_at(12, 11)?, Bytes::from_static(b"nd a footer"));
/// assert!(spliced.read_at(12, 12).is_err());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Spliced<'a, S: ?Sized> {
    source: &'a S,
    data_end: u64,
    tail: Bytes,
}

impl<'a, S: Source + ?Sized> Spliced<'a, S> {
    /// The first `data_end` bytes of `source` (which must hold them), then `tail`.
    pub fn new(source: &'a S, data_end: u64, tail: Bytes) -> Self {
        Self {
            source,
            data_end,
            tail,
        }
    }

    /// Appends the whole of it to `sink`, reading the source 8 MiB at a time; does not
    /// finish the sink. Gives the bytes written.
    ///
    /// # Errors
    ///
    /// A read error of the source, or the sink's error.
    pub fn write_to<K: Sink + ?Sized>(&self, sink: &mut K) -> io::Result<u64> {
        const STEP: u64 = 8 << 20;
        let mut offset = 0;
        while offset < self.data_end {
            let len = (self.data_end - offset).min(STEP);
            #[allow(clippy::cast_possible_truncation)] // at most STEP
            let bytes = self.source.read_at(offset, len as usize)?;
            sink.write_all(&bytes)?;
            offset += len;
        }
        sink.write_all(&self.tail)?;
        Ok(self.data_end + self.tail.len() as u64)
    }
}

impl<S: Source + ?Sized> Source for Spliced<'_, S> {
    fn len(&self) -> io::Result<u64> {
        Ok(self.data_end + self.tail.len() as u64)
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        let size = self.data_end + self.tail.len() as u64;
        let end = offset
            .checked_add(len as u64)
            .filter(|&end| end <= size)
            .ok_or_else(|| out_of_bounds(offset, len, size))?;
        #[allow(clippy::cast_possible_truncation)] // inside the tail, which is in memory
        let in_tail = |at: u64| (at - self.data_end) as usize;
        if end <= self.data_end {
            return self.source.read_at(offset, len);
        }
        if offset >= self.data_end {
            return Ok(self.tail.slice(in_tail(offset)..in_tail(end)));
        }
        #[allow(clippy::cast_possible_truncation)] // less than `len`
        let head = self
            .source
            .read_at(offset, (self.data_end - offset) as usize)?;
        let mut joined = Vec::with_capacity(len);
        joined.extend_from_slice(&head);
        joined.extend_from_slice(self.tail.get(..in_tail(end)).unwrap_or_default());
        Ok(joined.into())
    }
}

/// Where a writer puts a file: bytes appended in order, never rewritten, so that a file can
/// go straight to a socket or an object store's multipart upload.
///
/// Every [`Write`] is a sink: a [`File`], a `Vec<u8>`, a `BufWriter`, standard output.
/// Something that is not a `Write` (an asynchronous upload, say) implements this instead.
///
/// ```
/// use parquet_core::io::Sink;
///
/// let mut sink = Vec::new();
/// Sink::write_all(&mut sink, b"PAR1")?;
/// sink.finish()?;
/// assert_eq!(sink, b"PAR1");
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait Sink {
    /// Appends `bytes`.
    ///
    /// # Errors
    ///
    /// Whatever the underlying sink reports.
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()>;

    /// Called once after the footer: the file is complete (flush buffers, complete an
    /// upload).
    ///
    /// # Errors
    ///
    /// Whatever the underlying sink reports.
    fn finish(&mut self) -> io::Result<()>;
}

impl<W: Write> Sink for W {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        Write::write_all(self, bytes)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.flush()
    }
}
