//! `pqkit`: inspect, verify, read, rewrite and convert Parquet and ORC files.
//!
//! A file is read as ORC when it starts with `ORC`, as Parquet otherwise, whatever its
//! name. `-` is standard input as an input and standard output as an output; inputs
//! are opened once, and outputs are checked before the work starts and never replace
//! anything but a regular file ([`output`]).
//!
//! Exit status: 0 on success, 1 for a file that cannot be read or written, 2 for bad
//! usage; a run ended by SIGINT, SIGTERM or SIGHUP dies of it (130, 143, 129 in a shell)
//! once its temporary file is removed. Messages go to standard error, one line each
//! (and on a terminal a progress line for long `rewrite` and `convert` runs, and a
//! line saying what they wrote).

mod commands;
mod contract;
mod convert;
mod csv;
mod filter;
mod format;
mod infer;
mod input;
mod json;
mod orc;
mod orc_convert;
mod output;
mod progress;
mod recover;
mod rewrite;
mod signals;
mod size;
mod timestamps;
mod write_args;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use orc_file::OrcReader;
use parquet_file::{ColumnPath, DecryptionOptions, FileReader, Key, ReadOptions};

use crate::input::Input;

/// Inspect, verify, read, rewrite and convert Parquet and ORC files.
#[derive(Debug, Parser)]
#[command(name = "pqkit", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Parquet and ORC input that is not a regular file (a pipe, `-`) is read into
    /// memory, at most this much of it: a number of bytes, or with K, M, G or T (powers
    /// of 1024).
    #[arg(long, global = true, value_name = "SIZE", default_value = "2G", value_parser = size::parse)]
    pipe_limit: u64,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the schema (of an ORC file: its type string and its tree of columns).
    Schema {
        /// The Parquet or ORC file (`-`: standard input).
        file: PathBuf,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Print the metadata: row groups, column chunks, encodings, codecs, sizes,
    /// statistics (of an ORC file: stripes, streams, encodings, statistics).
    Meta {
        /// The Parquet or ORC file (`-`: standard input).
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Print the page headers of each column chunk, and its column and offset index.
    Pages {
        /// The Parquet file (`-`: standard input).
        file: PathBuf,
        /// Only the column at this dotted path.
        #[arg(long)]
        column: Option<String>,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Print the rows.
    Cat {
        /// The Parquet or ORC file (`-`: standard input).
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Jsonl)]
        format: Format,
        /// Only these fields (comma-separated dotted paths).
        #[arg(long, value_delimiter = ',')]
        columns: Option<Vec<String>>,
        /// At most this many rows.
        #[arg(long)]
        limit: Option<u64>,
        /// Only rows where this holds, e.g. `id >= 10 and name = "x"`.
        #[arg(long = "where")]
        filter: Option<String>,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Whether a column chunk's Bloom filter might contain a value, per row group.
    Bloom {
        /// The Parquet file (`-`: standard input).
        file: PathBuf,
        /// The column's dotted path.
        column: String,
        /// The value, as text (parsed by the column's type).
        value: String,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Decode everything, check every checksum and signature (of an ORC file: every
    /// row, the row counts and the statistics); exit 1 on any problem.
    Verify {
        /// The Parquet or ORC file (`-`: standard input).
        file: PathBuf,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Write a Parquet file again with other settings (codec, encodings, page and row
    /// group sizes, statistics, indexes, Bloom filters, encryption): the same rows,
    /// schema and key-value metadata.
    Rewrite(rewrite::RewriteArgs),
    /// Convert rows between JSON Lines, CSV, Parquet and ORC, by the rows contract.
    Convert(convert::ConvertArgs),
    /// Write a Parquet or ORC file whose tail is lost or damaged (a writer that died, a
    /// partial upload) again with every row group or stripe that can be proven whole:
    /// from its footer, else its last checkpoint (`--checkpoint-every`; an ORC
    /// intermediate footer), else by scanning it with the schema of `--schema` or
    /// `--like`. Says what it kept and what it dropped.
    Recover(recover::RecoverArgs),
}

/// The output formats of `cat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One JSON object per row (the rows contract).
    Jsonl,
    /// Comma-separated values with a header line.
    Csv,
    /// An aligned text table.
    Table,
}

/// The formats of the files `convert` reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FileFormat {
    /// JSON Lines: one object per line, values by the rows contract.
    Jsonl,
    /// Comma-separated values with a header line.
    Csv,
    /// Parquet.
    Parquet,
    /// ORC.
    Orc,
}

impl FileFormat {
    /// The format a file's name says: `.jsonl` or `.json`, `.csv`, `.parquet`, `.orc`.
    pub(crate) fn of_name(path: &Path) -> Option<Self> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "jsonl" | "json" => Some(Self::Jsonl),
            "csv" => Some(Self::Csv),
            "parquet" => Some(Self::Parquet),
            "orc" => Some(Self::Orc),
            _ => None,
        }
    }

    /// Whether files of the format are binary (not for a terminal).
    pub(crate) fn is_binary(self) -> bool {
        matches!(self, Self::Parquet | Self::Orc)
    }
}

impl std::fmt::Display for FileFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Jsonl => "JSON Lines",
            Self::Csv => "CSV",
            Self::Parquet => "Parquet",
            Self::Orc => "ORC",
        })
    }
}

/// Keys for encrypted files.
#[derive(Debug, Clone, Args)]
struct KeyArgs {
    /// The footer key, in hex.
    #[arg(long, value_name = "HEX", global = true)]
    footer_key: Option<String>,
    /// A column key: the column's path (names separated by dots) and the key in hex
    /// (repeatable).
    #[arg(long, value_name = "PATH:HEX", global = true)]
    column_key: Vec<String>,
    /// The AAD prefix the file was written with, for files that do not store it.
    #[arg(long, value_name = "TEXT", global = true)]
    aad_prefix: Option<String>,
}

/// An error of `pqkit`: bad usage (exit status 2) or a file that cannot be read (1).
#[derive(Debug)]
pub(crate) enum Failure {
    /// Bad usage: a malformed argument, an unknown column.
    Usage(String),
    /// The file cannot be read, or is broken.
    File(String),
    /// Standard output was closed (`pqkit cat … | head`): not an error.
    Closed,
}

impl Failure {
    /// Names where in the file a file failure is (`stripe 2`).
    fn in_context(self, context: &str) -> Self {
        match self {
            Self::File(m) => Self::File(format!("{context}: {m}")),
            other => other,
        }
    }
}

impl From<parquet_file::Error> for Failure {
    fn from(e: parquet_file::Error) -> Self {
        if e.kind().is_argument() {
            Self::Usage(e.to_string())
        } else {
            Self::File(e.to_string())
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Self::Closed
        } else {
            Self::File(e.to_string())
        }
    }
}

fn hex(text: &str, what: &str) -> Result<Vec<u8>, Failure> {
    let bad = || {
        Failure::Usage(format!(
            "{what}: {text:?} is not an even number of hex digits"
        ))
    };
    if !text.len().is_multiple_of(2) {
        return Err(bad());
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or_else(bad)
        })
        .collect()
}

fn key(text: &str, what: &str) -> Result<Key, Failure> {
    Key::try_new(&hex(text, what)?).map_err(|e| Failure::Usage(format!("{what}: {e}")))
}

impl KeyArgs {
    /// The first key flag given, when any is (for an ORC file, where none applies).
    fn first_given(&self) -> Option<&'static str> {
        if self.footer_key.is_some() {
            Some("--footer-key")
        } else if !self.column_key.is_empty() {
            Some("--column-key")
        } else {
            self.aad_prefix.as_ref().map(|_| "--aad-prefix")
        }
    }

    fn options(&self) -> Result<ReadOptions, Failure> {
        let mut decryption = DecryptionOptions::new();
        if let Some(footer) = &self.footer_key {
            decryption = decryption.with_footer_key(key(footer, "--footer-key")?);
        }
        for column in &self.column_key {
            let Some((path, hex)) = column.rsplit_once(':') else {
                return Err(Failure::Usage(format!(
                    "--column-key: {column:?} is not PATH:HEX"
                )));
            };
            // Names are separated by dots here: the key's column is a leaf of the file.
            let path = ColumnPath::new(path.split('.'));
            decryption = decryption.with_column_key(path, key(hex, "--column-key")?);
        }
        if let Some(prefix) = &self.aad_prefix {
            decryption = decryption.with_aad_prefix(prefix.as_bytes().to_vec());
        }
        Ok(ReadOptions::new().with_decryption(decryption))
    }
}

/// A Parquet or ORC file, opened.
pub(crate) enum Opened {
    Parquet(Box<commands::Reader>),
    Orc(Box<orc::OrcFile>),
}

/// Opens `input` as ORC when its first bytes say so, else as Parquet (whose reader then
/// names what is wrong with anything else); a stream is read into memory, at most
/// `limit` bytes of it.
///
/// # Errors
///
/// Bad usage for a key given for an ORC file; a file error (not naming the input) for
/// an input that cannot be read or opened.
pub(crate) fn open(mut input: Input, keys: &KeyArgs, limit: u64) -> Result<Opened, Failure> {
    let format = match input.magic()? {
        Some(FileFormat::Orc) => FileFormat::Orc,
        _ => FileFormat::Parquet,
    };
    open_as(input, format, keys, limit)
}

/// Opens `input` as ORC or as Parquet (`format`); a stream is read into memory, at most
/// `limit` bytes of it.
///
/// # Errors
///
/// As [`open`].
pub(crate) fn open_as(
    input: Input,
    format: FileFormat,
    keys: &KeyArgs,
    limit: u64,
) -> Result<Opened, Failure> {
    if format != FileFormat::Orc {
        return Ok(Opened::Parquet(Box::new(open_parquet(input, keys, limit)?)));
    }
    if let Some(flag) = keys.first_given() {
        return Err(Failure::Usage(format!(
            "{flag} is for encrypted Parquet files; {} is ORC",
            input.name()
        )));
    }
    Ok(Opened::Orc(Box::new(OrcReader::open(
        input.into_data(limit)?,
    )?)))
}

/// Opens `input` as Parquet, with the keys given; a stream is read into memory, at most
/// `limit` bytes of it.
///
/// # Errors
///
/// As [`open`].
pub(crate) fn open_parquet(
    input: Input,
    keys: &KeyArgs,
    limit: u64,
) -> Result<commands::Reader, Failure> {
    let options = keys.options()?;
    Ok(FileReader::with_options(input.into_data(limit)?, options)?)
}

impl Command {
    /// The one file a reading command reads, and its keys; `None` for `rewrite` and
    /// `convert`.
    fn input(&self) -> Option<(&Path, &KeyArgs)> {
        match self {
            Self::Schema { file, keys }
            | Self::Meta { file, keys, .. }
            | Self::Pages { file, keys, .. }
            | Self::Cat { file, keys, .. }
            | Self::Bloom { file, keys, .. }
            | Self::Verify { file, keys } => Some((file, keys)),
            Self::Rewrite(_) | Self::Convert(_) | Self::Recover(_) => None,
        }
    }
}

fn run(cli: Cli, out: &mut impl std::io::Write) -> Result<(), Failure> {
    let limit = cli.pipe_limit;
    let Some((path, keys)) = cli.command.input() else {
        // These read one file and write another: their messages name the one they are
        // about.
        return match &cli.command {
            Command::Convert(args) => convert::convert(args, limit, out),
            Command::Rewrite(args) => rewrite::rewrite(args, limit),
            Command::Recover(args) => recover::recover(args, limit),
            _ => Ok(()),
        };
    };
    let name = input::shown(path);
    let opened = Input::open(path)
        .and_then(|input| open(input, keys, limit))
        .map_err(|f| f.in_context(&name))?;
    run_command(cli.command, opened, &name, out).map_err(|f| f.in_context(&name))
}

/// The error of a Parquet-only command on an ORC file.
fn parquet_only(
    opened: Opened,
    command: &str,
    name: &str,
    instead: &str,
) -> Result<commands::Reader, Failure> {
    match opened {
        Opened::Parquet(reader) => Ok(*reader),
        Opened::Orc(_) => Err(Failure::Usage(format!(
            "{command} is for Parquet files and {name} is ORC: {instead}"
        ))),
    }
}

fn run_command(
    command: Command,
    opened: Opened,
    name: &str,
    out: &mut impl std::io::Write,
) -> Result<(), Failure> {
    match (command, opened) {
        (Command::Schema { .. }, Opened::Orc(reader)) => orc::schema(&reader, out),
        (Command::Schema { .. }, Opened::Parquet(reader)) => commands::schema(&reader, out),
        (Command::Meta { json, .. }, Opened::Orc(reader)) => orc::meta(&reader, json, out),
        (Command::Meta { json, .. }, Opened::Parquet(reader)) => commands::meta(&reader, json, out),
        (Command::Pages { column, .. }, opened) => {
            let reader = parquet_only(
                opened,
                "pages",
                name,
                "its stripes and streams are what `pqkit meta` prints",
            )?;
            commands::pages(&reader, column.as_deref(), out)
        }
        (
            Command::Cat {
                format,
                columns,
                limit,
                filter,
                ..
            },
            opened,
        ) => match opened {
            Opened::Orc(reader) => {
                orc::cat(&reader, format, columns, limit, filter.as_deref(), out)
            }
            Opened::Parquet(reader) => {
                commands::cat(&reader, format, columns, limit, filter.as_deref(), out)
            }
        },
        (Command::Bloom { column, value, .. }, opened) => {
            let reader = parquet_only(
                opened,
                "bloom",
                name,
                "orc-file does not read ORC's Bloom filters",
            )?;
            commands::bloom(&reader, &column, &value, out)
        }
        (Command::Verify { .. }, Opened::Orc(reader)) => orc::verify(&reader, out),
        (Command::Verify { .. }, Opened::Parquet(reader)) => commands::verify(&reader, out),
        // None of these opens a file here.
        (Command::Rewrite(_) | Command::Convert(_) | Command::Recover(_), _) => Ok(()),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(cli, &mut out);
    let flushed = out.flush();
    match result.and(flushed.map_err(Failure::from)) {
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(failure) => fail(&failure),
    }
}

fn fail(failure: &Failure) -> ExitCode {
    let (message, code) = match failure {
        Failure::Usage(m) => (m.as_str(), 2),
        Failure::File(m) => (m.as_str(), 1),
        Failure::Closed => return ExitCode::SUCCESS,
    };
    let line = message.replace('\n', " ");
    let _ = writeln!(std::io::stderr(), "pqkit: {line}");
    ExitCode::from(code)
}
