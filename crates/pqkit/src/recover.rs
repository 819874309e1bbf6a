//! `recover`: a Parquet or ORC file whose tail is lost or damaged (a writer that died
//! before its footer, a partial upload) written again with every row group or stripe
//! that can be proven whole, by [`parquet_file::recover()`] or [`orc_file::recover::recover()`]: the
//! bytes that hold them as they are, and a footer for them. What was kept and what was
//! dropped is said on standard error.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use orc_file::OrcReader;
use orc_file::recover as orc;
use parquet_file::recover::{self as parquet, RecoverOptions};
use parquet_file::{ErrorKind, FileReader, Schema};

use crate::input::{self, Data, Input, is_dash};
use crate::output::{self, Output, Writer};
use crate::size;
use crate::{Failure, FileFormat};

/// The arguments of `recover`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RecoverArgs {
    /// The damaged or unfinished Parquet or ORC file (`-`: standard input).
    input: PathBuf,
    /// The file to write (`-`: standard output); without it, `recover` only says what it
    /// would keep. A regular file is replaced once written whole (it may be the input).
    output: Option<PathBuf>,
    /// The schema a Parquet file was written with, as text (as `pqkit schema` prints it),
    /// for a file with neither a footer nor a checkpoint that reads.
    #[arg(long, value_name = "FILE", conflicts_with = "like")]
    schema: Option<PathBuf>,
    /// A file written as this one was (the same writer, schema and codec): its schema,
    /// codecs and metadata, for a file with neither a footer nor a checkpoint (an ORC
    /// intermediate footer) that reads.
    #[arg(long, value_name = "FILE")]
    like: Option<PathBuf>,
}

/// Runs `recover` (with input that is not a regular file held in memory up to `limit`
/// bytes).
///
/// # Errors
///
/// Bad usage (an output named for another format, a schema that does not parse, a flag
/// for the other format), or a file that cannot be read or written, named in the
/// message.
pub(crate) fn recover(args: &RecoverArgs, limit: u64) -> Result<(), Failure> {
    let name = input::shown(&args.input);
    let mut input = Input::open(&args.input).map_err(|f| f.in_context(&name))?;
    let format = match input.magic().map_err(|f| f.in_context(&name))? {
        Some(FileFormat::Orc) => FileFormat::Orc,
        _ => FileFormat::Parquet,
    };
    if let Some(path) = &args.output {
        output::not_a_directory(path)?;
        if let Some(named) = FileFormat::of_name(path).filter(|&f| f != format)
            && !is_dash(path)
        {
            return Err(Failure::Usage(format!(
                "{}: {name} is {format}, and the name says {named}; name it .{}",
                path.display(),
                if format == FileFormat::Orc {
                    "orc"
                } else {
                    "parquet"
                }
            )));
        }
    }
    if format == FileFormat::Orc && args.schema.is_some() {
        return Err(Failure::Usage(format!(
            "--schema is for Parquet files and {name} is ORC: give --like OTHER.orc"
        )));
    }
    // The output is checked, and opened, before the input is read.
    let output = match &args.output {
        Some(path) => Some(Output::create(path, format, None)?),
        None => None,
    };
    let data = input.into_data(limit).map_err(|f| f.in_context(&name))?;
    let (summary, rows) = match format {
        FileFormat::Orc => recover_orc(args, &name, &data, limit, output)?,
        _ => recover_parquet(args, &name, &data, limit, output)?,
    };
    eprint!("{summary}");
    match rows {
        Some((output, sink, rows)) => output.commit(sink, rows),
        None => Ok(()),
    }
}

/// An output written, its rows.
type Written = Option<(Output, Writer, u64)>;

fn recover_parquet(
    args: &RecoverArgs,
    name: &str,
    data: &Data,
    limit: u64,
    output: Option<(Output, Writer)>,
) -> Result<(String, Written), Failure> {
    let options = parquet_options(args, limit)?;
    let recovery = parquet::recover(data, &options).map_err(|e| {
        if matches!(e.kind(), ErrorKind::SchemaNeeded) {
            Failure::Usage(format!(
                "{name}: {e}: give it with --schema FILE or --like OTHER.parquet"
            ))
        } else {
            Failure::from(e).in_context(name)
        }
    })?;
    let metadata = recovery.metadata();
    let summary = Summary {
        name,
        unit: "row group",
        found_by: "scanning their pages",
        kept: metadata.row_groups().len(),
        rows: metadata.num_rows(),
        intact: recovery.is_intact(),
        data_end: recovery.data_end(),
        from_footer: count(recovery.found(), |f| *f == parquet::Found::Footer),
        checkpoint: recovery.found().iter().find_map(|f| match f {
            parquet::Found::Checkpoint(at) => Some(("checkpoint at byte", *at)),
            _ => None,
        }),
        checkpointed: count(recovery.found(), |f| {
            matches!(f, parquet::Found::Checkpoint(_))
        }),
        scanned: count(recovery.found(), |f| *f == parquet::Found::Scan),
        dropped: recovery
            .dropped()
            .map(|d| (d.offset, d.len, d.reason.to_string())),
        lacks: recovery.found().contains(&parquet::Found::Scan).then_some(
            "the row groups found by scanning have no statistics, page indexes or Bloom filters",
        ),
    }
    .to_string();
    let written = write(output, metadata.num_rows(), |sink| {
        recovery.write_to(data, sink)
    })?;
    Ok((summary, written))
}

fn recover_orc(
    args: &RecoverArgs,
    name: &str,
    data: &Data,
    limit: u64,
    output: Option<(Output, Writer)>,
) -> Result<(String, Written), Failure> {
    let mut options = orc::RecoverOptions::new();
    if let Some(path) = &args.like {
        let context = format!("--like {}", input::shown(path));
        let like = Input::open(path)
            .and_then(|input| input.into_data(limit))
            .and_then(|data| OrcReader::open(data).map_err(Failure::from))
            .map_err(|f| f.in_context(&context))?;
        options = options.with_like(&like);
    }
    let recovery = orc::recover(data, &options).map_err(|e| match e {
        e if matches!(e.kind(), orc_file::ErrorKind::SchemaNeeded) => {
            Failure::Usage(format!("{name}: {e}: give it with --like OTHER.orc"))
        }
        other => Failure::from(other).in_context(name),
    })?;
    let rebuilt = !recovery.is_intact() && recovery.len() > recovery.data_end();
    let summary = Summary {
        name,
        unit: "stripe",
        found_by: "walking their chunks",
        kept: recovery.found().len(),
        rows: recovery.num_rows(),
        intact: recovery.is_intact(),
        data_end: recovery.data_end(),
        from_footer: count(recovery.found(), |f| *f == orc::Found::Footer),
        checkpoint: recovery.found().iter().find_map(|f| match f {
            orc::Found::Checkpoint(end) => Some(("intermediate footer ending at byte", *end)),
            _ => None,
        }),
        checkpointed: count(recovery.found(), |f| matches!(f, orc::Found::Checkpoint(_))),
        scanned: count(recovery.found(), |f| *f == orc::Found::Scan),
        dropped: recovery
            .dropped()
            .map(|d| (d.offset, d.len, d.reason.to_string())),
        lacks: rebuilt.then_some("the footer written anew has no statistics"),
    }
    .to_string();
    let written = write(output, recovery.num_rows(), |sink| {
        recovery.write_to(data, sink)
    })?;
    Ok((summary, written))
}

/// Writes a recovered file of `rows` rows to `output`, when there is one.
fn write<E: Into<Failure>>(
    output: Option<(Output, Writer)>,
    rows: u64,
    write_to: impl FnOnce(&mut Writer) -> Result<u64, E>,
) -> Result<Written, Failure> {
    let Some((output, mut sink)) = output else {
        return Ok(None);
    };
    write_to(&mut sink).map_err(|e| e.into().in_context(output.shown()))?;
    Ok(Some((output, sink, rows)))
}

/// The options of the flags: the schema of `--schema`, or the metadata of `--like`.
fn parquet_options(args: &RecoverArgs, limit: u64) -> Result<RecoverOptions, Failure> {
    let options = RecoverOptions::new();
    if let Some(path) = &args.schema {
        let shown = input::shown(path);
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::File(format!("--schema {shown}: {e}")))?;
        let schema =
            Schema::parse(&text).map_err(|e| Failure::Usage(format!("--schema {shown}: {e}")))?;
        return Ok(options.with_schema(schema));
    }
    if let Some(path) = &args.like {
        let shown = input::shown(path);
        let data = Input::open(path)
            .and_then(|input| input.into_data(limit))
            .map_err(|f| f.in_context(&format!("--like {shown}")))?;
        let reader = FileReader::open(data)
            .map_err(|e| Failure::from(e).in_context(&format!("--like {shown}")))?;
        return Ok(options.with_like(Arc::clone(reader.metadata())));
    }
    Ok(options)
}

/// What a recovery kept of an input, and what it dropped.
struct Summary<'a> {
    name: &'a str,
    /// What the file is made of: `row group`, `stripe`.
    unit: &'static str,
    /// How the scan finds them.
    found_by: &'static str,
    kept: usize,
    rows: u64,
    intact: bool,
    data_end: u64,
    from_footer: usize,
    /// What the checkpoint is called, and where it is.
    checkpoint: Option<(&'static str, u64)>,
    checkpointed: usize,
    scanned: usize,
    /// Where, how long, why.
    dropped: Option<(u64, u64, String)>,
    /// What the file written lacks, when anything.
    lacks: Option<&'static str>,
}

impl std::fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.name;
        let kept = things(self.kept as u64, self.unit);
        let rows = things(self.rows, "row");
        if self.intact {
            return writeln!(
                f,
                "{name}: intact: its footer reads and its {kept} ({rows}) decode"
            );
        }
        let mut sources = Vec::new();
        if self.from_footer > 0 {
            sources.push(format!("{} from its footer", self.from_footer));
        }
        if let Some((what, at)) = self.checkpoint {
            sources.push(format!("{} from the {what} {at}", self.checkpointed));
        }
        if self.scanned > 0 {
            sources.push(format!("{} by {}", self.scanned, self.found_by));
        }
        let mut line = format!("{name}: kept {kept}, {rows}, {}", size::show(self.data_end));
        if !sources.is_empty() {
            let _ = write!(line, " ({})", sources.join(", "));
        }
        writeln!(f, "{line}")?;
        if let Some((offset, len, reason)) = &self.dropped {
            writeln!(
                f,
                "{name}: dropped {} from byte {offset}: {reason}",
                size::show(*len)
            )?;
        }
        if let Some(lacks) = self.lacks {
            writeln!(f, "{name}: {lacks}")?;
        }
        Ok(())
    }
}

/// `n` things: `1 row`, `2 rows`.
fn things(n: u64, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

fn count<F>(found: &[F], which: impl Fn(&F) -> bool) -> usize {
    found.iter().filter(|f| which(f)).count()
}
