//! Inputs: a path, or `-` for standard input, each opened once.
//!
//! A regular file is read where it lies, by positioned reads, as often as a reader
//! needs. Anything else (a pipe, a FIFO, a character device, a terminal) gives its bytes
//! once, in order: JSON Lines and CSV stream from it, with the first bytes read to tell
//! the format given back to the text reader; Parquet and ORC, whose readers start at
//! the footer and then jump around, are read into memory first, up to `--pipe-limit`.

use std::fs::{File, Metadata};
use std::io::{self, BufReader, Chain, Cursor, Read as _, Seek as _};
use std::path::Path;

use bytes::Bytes;
use parquet_file::Source;

use crate::{Failure, FileFormat};

/// Whether `path` is `-`: standard input as an input, standard output as an output.
pub(crate) fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The input `path` as messages name it: the path, or "standard input" for `-`.
pub(crate) fn shown(path: &Path) -> String {
    if is_dash(path) {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    }
}

/// An input, opened.
pub(crate) struct Input {
    name: String,
    file: File,
    metadata: Metadata,
    /// Whether `file` is a regular file read from its start, so positioned reads work.
    seekable: bool,
    /// The first bytes of a stream, read to tell its format and not yet handed on.
    head: Vec<u8>,
}

/// The bytes of a Parquet or ORC input: the file itself, or a stream read into memory.
pub(crate) enum Data {
    File(File),
    Memory(Bytes),
}

impl Source for Data {
    fn len(&self) -> io::Result<u64> {
        match self {
            Self::File(file) => Source::len(file),
            Self::Memory(bytes) => Source::len(bytes),
        }
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Bytes> {
        match self {
            Self::File(file) => file.read_at(offset, len),
            Self::Memory(bytes) => bytes.read_at(offset, len),
        }
    }
}

/// A text input, read in order: the bytes read to tell its format, then the rest.
pub(crate) type Text = BufReader<Chain<Cursor<Vec<u8>>, File>>;

impl Input {
    /// Opens `path` (`-`: standard input). Nothing is read yet.
    ///
    /// # Errors
    ///
    /// A file error (not naming the input) when it cannot be opened or is a directory.
    pub(crate) fn open(path: &Path) -> Result<Self, Failure> {
        let file = if is_dash(path) {
            file_of(&io::stdin())
        } else {
            File::open(path)
        }
        .map_err(|e| Failure::File(format!("cannot open: {e}")))?;
        let metadata = file
            .metadata()
            .map_err(|e| Failure::File(format!("cannot open: {e}")))?;
        if metadata.is_dir() {
            return Err(Failure::File("is a directory, not a file".into()));
        }
        // Standard input may be a regular file read from elsewhere than its start
        // (`(head -1; pqkit cat -) < x`): what is left of it is a stream.
        let seekable = metadata.is_file() && (&file).stream_position().is_ok_and(|at| at == 0);
        Ok(Self {
            name: shown(path),
            file,
            metadata,
            seekable,
            head: Vec::new(),
        })
    }

    /// The input as messages name it: its path, or "standard input".
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The file's metadata (to tell whether an output is the same file).
    pub(crate) fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// Parquet or ORC, when the first bytes say so: `PAR1` (`PARE` when the footer is
    /// encrypted) or `ORC`.
    ///
    /// # Errors
    ///
    /// A file error when the input cannot be read.
    pub(crate) fn magic(&mut self) -> Result<Option<FileFormat>, Failure> {
        let head = self
            .first_bytes(4)
            .map_err(|e| Failure::File(format!("cannot read: {e}")))?;
        Ok(if head.starts_with(b"ORC") {
            Some(FileFormat::Orc)
        } else if head == b"PAR1" || head == b"PARE" {
            Some(FileFormat::Parquet)
        } else {
            None
        })
    }

    /// Up to `n` first bytes (fewer in a shorter input); a stream keeps them for the
    /// reader that follows.
    fn first_bytes(&mut self, n: usize) -> io::Result<Vec<u8>> {
        if self.seekable {
            let len = Source::len(&self.file)?.min(n as u64);
            // A positioned read: the file's own offset stays at its start.
            return Ok(self
                .file
                .read_at(0, usize::try_from(len).unwrap_or(n))?
                .to_vec());
        }
        if self.head.len() < n {
            let more = (n - self.head.len()) as u64;
            (&self.file).take(more).read_to_end(&mut self.head)?;
        }
        Ok(self.head.clone())
    }

    /// The whole input for a Parquet or ORC reader: a regular file as it is, anything
    /// else read into memory, at most `limit` bytes of it.
    ///
    /// # Errors
    ///
    /// A file error for an empty input, one past `limit`, or one that cannot be read.
    pub(crate) fn into_data(mut self, limit: u64) -> Result<Data, Failure> {
        let empty = || Failure::File("empty (0 bytes): not a Parquet or ORC file".into());
        if self.seekable {
            if self.metadata.len() == 0 {
                return Err(empty());
            }
            return Ok(Data::File(self.file));
        }
        let mut bytes = std::mem::take(&mut self.head);
        let room = limit.saturating_sub(bytes.len() as u64).saturating_add(1);
        (&self.file)
            .take(room)
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::File(format!("cannot read: {e}")))?;
        if bytes.len() as u64 > limit {
            return Err(Failure::File(format!(
                "more than {} and not a regular file: Parquet and ORC are read out of order, \
                 so such an input is held in memory, up to --pipe-limit; give a file, or a \
                 larger --pipe-limit",
                crate::size::show(limit)
            )));
        }
        if bytes.is_empty() {
            return Err(empty());
        }
        Ok(Data::Memory(Bytes::from(bytes)))
    }

    /// The input for a text reader, from its first byte.
    pub(crate) fn into_text(self) -> Text {
        BufReader::with_capacity(1 << 16, Cursor::new(self.head).chain(self.file))
    }
}

/// A standard stream as a file of its own: the same open file, so that reads and
/// writes share its offset (and a file opened for appending is appended to).
#[cfg(unix)]
pub(crate) fn file_of(stream: &impl std::os::fd::AsFd) -> io::Result<File> {
    Ok(File::from(stream.as_fd().try_clone_to_owned()?))
}

/// A standard stream as a file of its own: the same open file, so that reads and
/// writes share its offset (and a file opened for appending is appended to).
#[cfg(windows)]
pub(crate) fn file_of(stream: &impl std::os::windows::io::AsHandle) -> io::Result<File> {
    Ok(File::from(stream.as_handle().try_clone_to_owned()?))
}
