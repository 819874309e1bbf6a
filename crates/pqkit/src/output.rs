//! Outputs: where `convert` and `rewrite` write, checked before the work starts.
//!
//! - `-` is standard output.
//! - A regular file, or a name not taken yet, is written beside its place and renamed
//!   into it once whole, flushed and synced (its directory synced after): a failed or
//!   interrupted run leaves what was there as it was, and the output may be the input.
//!   The new file keeps the old one's mode and, where the system allows, its owner and
//!   group; a file the user may not write is refused. On Linux the file being written
//!   has no name until it is whole (`O_TMPFILE`), so not even `kill -9` leaves it
//!   behind; elsewhere, or with `PQKIT_NO_TMPFILE` set, it is `.NAME.pqkit-PID.tmp`,
//!   removed on every error and on SIGINT, SIGTERM and SIGHUP.
//! - Anything else (a character or block device, a FIFO, `/dev/stdout`, `/dev/fd/N`)
//!   is written where it is, in one pass, and never replaced.
//! - A symbolic link is followed, and what it leads to is written as above.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::input::{Input, file_of, is_dash};
use crate::signals::with_temporary;
use crate::{Failure, FileFormat, size};

/// Symbolic links followed at most, as Linux does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// An output being written.
pub(crate) struct Output {
    /// The output as messages name it: its path, or "standard output".
    shown: String,
    /// How a file is replaced; `None` for an output written where it is.
    replace: Option<Replace>,
    started: Instant,
}

/// A regular file being replaced (or created) by rename.
struct Replace {
    /// The file replaced: the end of any symbolic links.
    target: PathBuf,
    /// Its directory, which holds the temporary file.
    dir: PathBuf,
    temp: Temp,
}

/// The file being written in place of [`Replace::target`].
enum Temp {
    /// Without a name until it is whole (`O_TMPFILE`).
    #[cfg(target_os = "linux")]
    Unnamed,
    /// Named, and removed unless renamed.
    Named(PathBuf),
    /// Renamed into place.
    Placed,
}

/// What an output writes to, counting the bytes.
pub(crate) struct Writer {
    file: File,
    written: u64,
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Where an output path leads.
enum Place {
    /// A regular file (`existing`), or a name not taken yet, in `dir`.
    File {
        target: PathBuf,
        dir: PathBuf,
        existing: Option<Box<Metadata>>,
    },
    /// Something written where it is, opened.
    Direct(File),
}

impl Output {
    /// Checks the output `path` (`-`: standard output) for a file of `format` and opens
    /// what is written; `input`, when given, is an input the output may not be.
    ///
    /// # Errors
    ///
    /// Bad usage for a directory, the input itself, or a binary format to a terminal; a
    /// file error for a missing directory, a file the user may not write, a place where
    /// no file can be created.
    pub(crate) fn create(
        path: &Path,
        format: FileFormat,
        input: Option<&Input>,
    ) -> Result<(Self, Writer), Failure> {
        let started = Instant::now();
        let shown = if is_dash(path) {
            "standard output".to_owned()
        } else {
            path.display().to_string()
        };
        let writer = |file| Writer { file, written: 0 };
        match place(path, &shown)? {
            Place::Direct(file) => {
                if format.is_binary() && file.is_terminal() {
                    return Err(Failure::Usage(format!(
                        "{shown} is a terminal, and {format} is binary: redirect it to a file \
                         or a pipe, or give a file name"
                    )));
                }
                let output = Self {
                    shown,
                    replace: None,
                    started,
                };
                Ok((output, writer(file)))
            }
            Place::File {
                target,
                dir,
                existing,
            } => {
                if let Some(existing) = &existing {
                    if input.is_some_and(|input| same_file(existing, input.metadata())) {
                        return Err(Failure::Usage(format!(
                            "{shown} is the input: write to another file"
                        )));
                    }
                    writable(&target).map_err(|e| {
                        Failure::File(format!("{shown}: not writable, so not replaced: {e}"))
                    })?;
                }
                let name = target.file_name().unwrap_or_default().to_owned();
                let (temp, file) = create_temp(&dir, &name).map_err(|e| {
                    Failure::File(format!(
                        "{shown}: cannot create a file in {}: {e}",
                        dir.display()
                    ))
                })?;
                // Made before anything else can fail, so that a failure removes the file.
                let output = Self {
                    shown,
                    replace: Some(Replace { target, dir, temp }),
                    started,
                };
                if let Some(existing) = &existing {
                    keep_owner_and_mode(&file, existing).map_err(|e| {
                        Failure::File(format!("{}: cannot keep its mode: {e}", output.shown))
                    })?;
                }
                Ok((output, writer(file)))
            }
        }
    }

    /// The output as messages name it: its path, or "standard output".
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }

    /// Puts the output, written whole (`rows` rows), in its place; says what was
    /// written when standard error is a terminal.
    ///
    /// # Errors
    ///
    /// A file error when the output cannot be synced or put in its place: what was
    /// there before is then left as it was.
    pub(crate) fn commit(mut self, writer: Writer, rows: u64) -> Result<(), Failure> {
        let Writer { file, written } = writer;
        let shown = self.shown.clone();
        let failed = |e: io::Error| Failure::from(e).in_context(&format!("{shown}: cannot write"));
        match &mut self.replace {
            Some(replace) => {
                file.sync_all().map_err(failed)?;
                replace.put(&file).map_err(failed)?;
                sync_dir(&replace.dir).map_err(failed)?;
            }
            None => sync_storage(&file).map_err(failed)?,
        }
        drop(file);
        if io::stderr().is_terminal() {
            let line = summary(rows, written, &self.shown, self.started.elapsed());
            let _ = writeln!(io::stderr(), "{line}");
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(Replace {
            temp: Temp::Named(path),
            ..
        }) = &self.replace
        {
            with_temporary(|temporary| {
                let _ = fs::remove_file(path);
                temporary.retain(|p| p != path);
            });
        }
    }
}

impl Replace {
    /// Renames the temporary file, synced, over the target.
    fn put(&mut self, file: &File) -> io::Result<()> {
        // Only a regular file is replaced, even one that became something else meanwhile.
        if let Ok(now) = fs::symlink_metadata(&self.target)
            && !now.is_file()
        {
            return Err(io::Error::other(
                "it is no longer a regular file, so it is left as it is",
            ));
        }
        with_temporary(|temporary| {
            let named = match &self.temp {
                Temp::Named(path) => path.clone(),
                #[cfg(target_os = "linux")]
                Temp::Unnamed => {
                    let path = link_unnamed(file, &self.dir, self.target.file_name())?;
                    temporary.push(path.clone());
                    self.temp = Temp::Named(path.clone());
                    path
                }
                Temp::Placed => return Ok(()),
            };
            fs::rename(&named, &self.target)?;
            temporary.retain(|p| p != &named);
            self.temp = Temp::Placed;
            Ok(())
        })
    }
}

/// Refuses an output `path` that names a directory (checked first, as such a name has
/// no extension to tell a format by).
///
/// # Errors
///
/// Bad usage for a directory.
pub(crate) fn not_a_directory(path: &Path) -> Result<(), Failure> {
    if is_dash(path) || !(path.is_dir() || path.as_os_str().as_encoded_bytes().ends_with(b"/")) {
        return Ok(());
    }
    Err(directory(&path.display().to_string()))
}

fn directory(shown: &str) -> Failure {
    Failure::Usage(format!("{shown} is a directory: give a file name in it"))
}

/// Where the output `path` (named `shown`) leads, following symbolic links.
fn place(path: &Path, shown: &str) -> Result<Place, Failure> {
    let direct = |file: io::Result<File>| {
        file.map(Place::Direct)
            .map_err(|e| Failure::File(format!("{shown}: cannot write: {e}")))
    };
    if is_dash(path) {
        return direct(file_of(&io::stdout()));
    }
    not_a_directory(path)?;
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        let Some(name) = path.file_name().map(OsStr::to_owned) else {
            return Err(directory(shown));
        };
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let dir = match fs::canonicalize(parent) {
            Ok(dir) if dir.is_dir() => dir,
            Ok(_) => {
                return Err(Failure::File(format!(
                    "{shown}: {} is not a directory",
                    parent.display()
                )));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(Failure::File(format!(
                    "{shown}: no directory {} to write it in",
                    parent.display()
                )));
            }
            Err(e) => {
                return Err(Failure::File(format!(
                    "{shown}: cannot write in {}: {e}",
                    parent.display()
                )));
            }
        };
        let at = dir.join(&name);
        // `/dev/stdout`, `/dev/fd/N` and the like lead to /proc, whose links name open
        // files rather than paths.
        if dir.starts_with("/proc") {
            return direct(open_process_file(&at, &dir, &name));
        }
        match fs::symlink_metadata(&at) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Place::File {
                    target: at,
                    dir,
                    existing: None,
                });
            }
            Err(e) => return Err(Failure::File(format!("{shown}: cannot write: {e}"))),
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&at)
                    .map_err(|e| Failure::File(format!("{shown}: cannot follow: {e}")))?;
                // An absolute link replaces the directory.
                path = dir.join(link);
            }
            Ok(m) if m.is_dir() => return Err(directory(shown)),
            Ok(m) if m.is_file() => {
                return Ok(Place::File {
                    target: at,
                    dir,
                    existing: Some(Box::new(m)),
                });
            }
            Ok(_) => return direct(open_direct(&at)),
        }
    }
    Err(Failure::File(format!(
        "{shown}: more than {MAX_LINKS} symbolic links"
    )))
}

/// A device, a FIFO or a socket, opened to be written where it is.
fn open_direct(path: &Path) -> io::Result<File> {
    // Truncation is a no-op on devices and FIFOs, and is what `>` does to a file
    // reached through /proc/self/fd.
    OpenOptions::new().write(true).truncate(true).open(path)
}

/// `name` in the /proc directory `dir`: this process's own standard output and error
/// (where `/dev/stdout` and `/dev/stderr` lead) as the open files they are, so that
/// output appended to a file (`>>`) is appended; anything else opened.
fn open_process_file(at: &Path, dir: &Path, name: &OsStr) -> io::Result<File> {
    let own = Path::new("/proc").join(std::process::id().to_string());
    if dir.starts_with(&own) && dir.ends_with("fd") {
        match name.to_str() {
            Some("1") => return file_of(&io::stdout()),
            Some("2") => return file_of(&io::stderr()),
            _ => {}
        }
    }
    open_direct(at)
}

/// The file written in place of `dir`'s file `name`.
fn create_temp(dir: &Path, name: &OsStr) -> io::Result<(Temp, File)> {
    #[cfg(target_os = "linux")]
    if std::env::var_os("PQKIT_NO_TMPFILE").is_none() && Path::new("/proc/self/fd").is_dir() {
        use rustix::fs::{CWD, Mode, OFlags, openat};
        use rustix::io::Errno;
        let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
        match openat(CWD, dir, flags, Mode::from_raw_mode(0o666)) {
            Ok(fd) => return Ok((Temp::Unnamed, File::from(fd))),
            // A filesystem without unnamed files: a named one, then.
            Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL) => {}
            Err(e) => return Err(e.into()),
        }
    }
    with_temporary(|temporary| {
        let (path, file) = fresh_name(dir, name, |path| {
            OpenOptions::new().write(true).create_new(true).open(path)
        })?;
        temporary.push(path.clone());
        Ok((Temp::Named(path), file))
    })
}

/// Gives the unnamed `file` a temporary name in `dir`, where its target is named `name`.
#[cfg(target_os = "linux")]
fn link_unnamed(file: &File, dir: &Path, name: Option<&OsStr>) -> io::Result<PathBuf> {
    use rustix::fs::{AtFlags, CWD, linkat};
    use std::os::fd::AsRawFd as _;
    let from = format!("/proc/self/fd/{}", file.as_raw_fd());
    let name = name.unwrap_or_default();
    let (path, ()) = fresh_name(dir, name, |path| {
        linkat(CWD, from.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW).map_err(io::Error::from)
    })?;
    Ok(path)
}

/// Creates `.NAME.pqkit-PID.tmp` in `dir` with `create`, or the first of
/// `.NAME.pqkit-PID-2.tmp`, … that is free.
fn fresh_name<T>(
    dir: &Path,
    name: &OsStr,
    mut create: impl FnMut(&Path) -> io::Result<T>,
) -> io::Result<(PathBuf, T)> {
    let pid = std::process::id();
    for attempt in 1..=100 {
        let mut temp = OsString::from(".");
        temp.push(name);
        temp.push(if attempt == 1 {
            format!(".pqkit-{pid}.tmp")
        } else {
            format!(".pqkit-{pid}-{attempt}.tmp")
        });
        let path = dir.join(temp);
        match create(&path) {
            Ok(created) => return Ok((path, created)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary file",
    ))
}

#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &Metadata, _: &Metadata) -> bool {
    false
}

/// Whether this process may write the file at `path` (by its effective user, as an
/// open would be judged).
#[cfg(unix)]
fn writable(path: &Path) -> io::Result<()> {
    use rustix::fs::{Access, AtFlags, CWD, accessat};
    Ok(accessat(CWD, path, Access::WRITE_OK, AtFlags::EACCESS)?)
}

#[cfg(not(unix))]
fn writable(path: &Path) -> io::Result<()> {
    if fs::metadata(path)?.permissions().readonly() {
        return Err(io::ErrorKind::PermissionDenied.into());
    }
    Ok(())
}

/// Gives `file` the mode of the file it replaces, and its owner and group where allowed
/// (the owner only to root, the group to its members).
#[cfg(unix)]
fn keep_owner_and_mode(file: &File, old: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _, fchown};
    if fchown(file, Some(old.uid()), Some(old.gid())).is_err() {
        let _ = fchown(file, None, Some(old.gid()));
    }
    // After the owner: a change of owner clears the set-user-ID and set-group-ID bits.
    file.set_permissions(fs::Permissions::from_mode(old.mode() & 0o7777))
}

#[cfg(not(unix))]
fn keep_owner_and_mode(_: &File, _: &Metadata) -> io::Result<()> {
    Ok(())
}

/// Syncs the directory `dir`, so that a rename in it survives a power loss.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_: &Path) -> io::Result<()> {
    Ok(())
}

/// Syncs an output written where it is, when it is storage (a regular file behind
/// `/dev/stdout`, a block device); pipes and terminals have nothing to sync.
fn sync_storage(file: &File) -> io::Result<()> {
    let kind = file.metadata()?.file_type();
    #[cfg(unix)]
    let block = std::os::unix::fs::FileTypeExt::is_block_device(&kind);
    #[cfg(not(unix))]
    let block = false;
    if kind.is_file() || block {
        file.sync_all()?;
    }
    Ok(())
}

/// The line that says what was written: `pqkit: wrote 1,000 rows, 1.5 MiB, to
/// out.parquet in 0.4 s`.
fn summary(rows: u64, bytes: u64, shown: &str, elapsed: Duration) -> String {
    let digits = rows.to_string();
    let mut grouped = String::with_capacity(digits.len() * 4 / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let noun = if rows == 1 { "row" } else { "rows" };
    format!(
        "pqkit: wrote {grouped} {noun}, {}, to {shown} in {:.1} s",
        size::show(bytes),
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_says_rows_bytes_place_and_time() {
        let second = Duration::from_millis(1250);
        assert_eq!(
            summary(1_234_567, 3 << 20, "out.parquet", second),
            "pqkit: wrote 1,234,567 rows, 3 MiB, to out.parquet in 1.2 s"
        );
        assert_eq!(
            summary(1, 10, "standard output", second),
            "pqkit: wrote 1 row, 10 bytes, to standard output in 1.2 s"
        );
        assert_eq!(
            summary(999, 0, "x", Duration::ZERO),
            "pqkit: wrote 999 rows, 0 bytes, to x in 0.0 s"
        );
        assert_eq!(
            summary(1000, 0, "x", Duration::ZERO),
            "pqkit: wrote 1,000 rows, 0 bytes, to x in 0.0 s"
        );
    }
}
