//! `pqkit`: inspect, verify, read, rewrite and convert Parquet and ORC files.
//!
//! A file is read as ORC when it starts with `ORC`, as Parquet otherwise, whatever its
//! name.
//!
//! Exit status: 0 on success, 1 for a file that cannot be read or written, 2 for bad
//! usage. Messages go to standard error, one line each (and a progress line, for long
//! `rewrite` and `convert` runs on a terminal).

mod commands;
mod contract;
mod convert;
mod csv;
mod filter;
mod format;
mod infer;
mod json;
mod orc;
mod orc_convert;
mod output;
mod progress;
mod rewrite;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use parquet_file::{ColumnPath, DecryptionOptions, Key, ReadOptions};

/// Inspect, verify, read, rewrite and convert Parquet and ORC files.
#[derive(Debug, Parser)]
#[command(name = "pqkit", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the schema (of an ORC file: its type string and its tree of columns).
    Schema {
        /// The Parquet or ORC file.
        file: PathBuf,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Print the metadata: row groups, column chunks, encodings, codecs, sizes,
    /// statistics (of an ORC file: stripes, streams, encodings, statistics).
    Meta {
        /// The Parquet or ORC file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Print the page headers of each column chunk, and its column and offset index.
    Pages {
        /// The Parquet file.
        file: PathBuf,
        /// Only the column at this dotted path.
        #[arg(long)]
        column: Option<String>,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Print the rows.
    Cat {
        /// The Parquet or ORC file.
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
        /// The Parquet file.
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
        /// The Parquet or ORC file.
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
    /// Names the file a file failure is about.
    fn in_file(self, path: &Path) -> Self {
        self.in_context(&path.display().to_string())
    }

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

fn open(path: &Path, keys: &KeyArgs) -> Result<commands::Reader, Failure> {
    let options = keys.options()?;
    let file = std::fs::File::open(path).map_err(|e| Failure::File(format!("cannot open: {e}")))?;
    Ok(parquet_file::FileReader::with_options(file, options)?)
}

fn run(cli: Cli, out: &mut impl std::io::Write) -> Result<(), Failure> {
    let path = match &cli.command {
        Command::Schema { file, .. }
        | Command::Meta { file, .. }
        | Command::Pages { file, .. }
        | Command::Cat { file, .. }
        | Command::Bloom { file, .. }
        | Command::Verify { file, .. } => Some(file.clone()),
        // These read one file and write another: their messages name the one they are
        // about.
        Command::Rewrite(_) | Command::Convert(_) => None,
    };
    run_command(cli, out).map_err(|f| match &path {
        Some(path) => f.in_file(path),
        None => f,
    })
}

/// The ORC file at `path`, when it is one (by its first bytes); `None` for a Parquet
/// file (or anything else, which the Parquet reader then names).
pub(crate) fn orc_file(path: &Path, keys: &KeyArgs) -> Result<Option<orc::OrcFile>, Failure> {
    if !orc::is_orc(path)? {
        return Ok(None);
    }
    if let Some(flag) = keys.first_given() {
        return Err(Failure::Usage(format!(
            "{flag} is for encrypted Parquet files; {} is ORC",
            path.display()
        )));
    }
    orc::open(path).map(Some)
}

/// The error of a Parquet-only command on an ORC file.
fn parquet_only(command: &str, path: &Path, instead: &str) -> Result<(), Failure> {
    if orc::is_orc(path)? {
        return Err(Failure::Usage(format!(
            "{command} is for Parquet files and {} is ORC: {instead}",
            path.display()
        )));
    }
    Ok(())
}

fn run_command(cli: Cli, out: &mut impl std::io::Write) -> Result<(), Failure> {
    match cli.command {
        Command::Schema { file, keys } => match orc_file(&file, &keys)? {
            Some(reader) => orc::schema(&reader, out),
            None => commands::schema(&open(&file, &keys)?, out),
        },
        Command::Meta { file, json, keys } => match orc_file(&file, &keys)? {
            Some(reader) => orc::meta(&reader, json, out),
            None => commands::meta(&open(&file, &keys)?, json, out),
        },
        Command::Pages { file, column, keys } => {
            parquet_only(
                "pages",
                &file,
                "its stripes and streams are what `pqkit meta` prints",
            )?;
            commands::pages(&open(&file, &keys)?, column.as_deref(), out)
        }
        Command::Cat {
            file,
            format,
            columns,
            limit,
            filter,
            keys,
        } => {
            if let Some(reader) = orc_file(&file, &keys)? {
                return orc::cat(&reader, format, columns, limit, filter.as_deref(), out);
            }
            let reader = open(&file, &keys)?;
            commands::cat(&reader, format, columns, limit, filter.as_deref(), out)
        }
        Command::Bloom {
            file,
            column,
            value,
            keys,
        } => {
            parquet_only("bloom", &file, "orc-file does not read ORC's Bloom filters")?;
            commands::bloom(&open(&file, &keys)?, &column, &value, out)
        }
        Command::Verify { file, keys } => match orc_file(&file, &keys)? {
            Some(reader) => orc::verify(&reader, out),
            None => commands::verify(&open(&file, &keys)?, out),
        },
        Command::Rewrite(args) => rewrite::rewrite(&args),
        Command::Convert(args) => convert::convert(&args, out),
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
