//! `recover`: a Parquet file whose tail is lost or damaged (a writer that died before
//! its footer, a partial upload) written again with every row group that can be proven
//! whole, by [`parquet_file::recover`]: the bytes of those row groups as they are, and a
//! footer for them. What was kept and what was dropped is said on standard error.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use parquet_file::recover::{Found, RecoverOptions, Recovery, recover as recover_parquet};
use parquet_file::{ErrorKind, FileReader, Schema};

use crate::input::{self, Input, is_dash};
use crate::output::{self, Output};
use crate::size;
use crate::{Failure, FileFormat};

/// The arguments of `recover`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RecoverArgs {
    /// The damaged or unfinished Parquet file (`-`: standard input).
    input: PathBuf,
    /// The file to write (`-`: standard output); without it, `recover` only says what it
    /// would keep. A regular file is replaced once written whole (it may be the input).
    output: Option<PathBuf>,
    /// The schema the file was written with, as text (as `pqkit schema` prints it), for
    /// a file with neither a footer nor a checkpoint that reads.
    #[arg(long, value_name = "FILE", conflicts_with = "like")]
    schema: Option<PathBuf>,
    /// A Parquet file written as this one was (the same writer and schema): its schema,
    /// codecs, `created_by` and key-value metadata, for a file with neither a footer nor
    /// a checkpoint that reads.
    #[arg(long, value_name = "FILE")]
    like: Option<PathBuf>,
}

/// Runs `recover` (with input that is not a regular file held in memory up to `limit`
/// bytes).
///
/// # Errors
///
/// Bad usage (an ORC input, an output named for another format, a schema that does not
/// parse), or a file that cannot be read or written, named in the message.
pub(crate) fn recover(args: &RecoverArgs, limit: u64) -> Result<(), Failure> {
    if let Some(path) = &args.output {
        output::not_a_directory(path)?;
        if let Some(named) = FileFormat::of_name(path).filter(|&f| f != FileFormat::Parquet)
            && !is_dash(path)
        {
            return Err(Failure::Usage(format!(
                "{}: recover writes Parquet, and the name says {named}; name it .parquet",
                path.display()
            )));
        }
    }
    let options = options(args, limit)?;
    let name = input::shown(&args.input);
    let mut input = Input::open(&args.input).map_err(|f| f.in_context(&name))?;
    if input.magic().map_err(|f| f.in_context(&name))? == Some(FileFormat::Orc) {
        return Err(Failure::Usage(format!(
            "recover is for Parquet files and {name} is ORC"
        )));
    }
    // The output is checked, and opened, before the input is read.
    let output = match &args.output {
        Some(path) => Some(Output::create(path, FileFormat::Parquet, None)?),
        None => None,
    };
    let data = input.into_data(limit).map_err(|f| f.in_context(&name))?;
    let recovery = recover_parquet(&data, &options).map_err(|e| {
        if matches!(e.kind(), ErrorKind::SchemaNeeded) {
            Failure::Usage(format!(
                "{name}: {e}: give it with --schema FILE or --like OTHER.parquet"
            ))
        } else {
            Failure::from(e).in_context(&name)
        }
    })?;
    eprint!("{}", report(&name, &recovery));
    let Some((output, mut sink)) = output else {
        return Ok(());
    };
    recovery
        .write_to(&data, &mut sink)
        .map_err(|e| Failure::from(e).in_context(output.shown()))?;
    output.commit(sink, recovery.metadata().num_rows())
}

/// The options of the flags: the schema of `--schema`, or the metadata of `--like`.
fn options(args: &RecoverArgs, limit: u64) -> Result<RecoverOptions, Failure> {
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

/// What `recovery` kept of the input `name`, and what it dropped, in lines.
fn report(name: &str, recovery: &Recovery) -> String {
    let metadata = recovery.metadata();
    let groups = metadata.row_groups().len();
    let mut text = String::new();
    if recovery.is_intact() {
        let _ = writeln!(
            text,
            "{name}: intact: its footer reads and its {} ({}) decode",
            things(groups as u64, "row group"),
            things(metadata.num_rows(), "row")
        );
        return text;
    }
    let from_footer = count(recovery.found(), |f| f == Found::Footer);
    let scanned = count(recovery.found(), |f| f == Found::Scan);
    let checkpoint = recovery.found().iter().find_map(|f| match f {
        Found::Checkpoint(offset) => Some(*offset),
        _ => None,
    });
    let mut sources = Vec::new();
    if from_footer > 0 {
        sources.push(format!("{from_footer} from its footer"));
    }
    if let Some(offset) = checkpoint {
        let n = count(recovery.found(), |f| matches!(f, Found::Checkpoint(_)));
        sources.push(format!("{n} from the checkpoint at byte {offset}"));
    }
    if scanned > 0 {
        sources.push(format!("{scanned} by scanning their pages"));
    }
    let _ = write!(
        text,
        "{name}: kept {}, {}, {}",
        things(groups as u64, "row group"),
        things(metadata.num_rows(), "row"),
        size::show(recovery.data_end())
    );
    if !sources.is_empty() {
        let _ = write!(text, " ({})", sources.join(", "));
    }
    text.push('\n');
    if let Some(dropped) = recovery.dropped() {
        let _ = writeln!(
            text,
            "{name}: dropped {} from byte {}: {}",
            size::show(dropped.len),
            dropped.offset,
            dropped.reason
        );
    }
    if scanned > 0 {
        let _ = writeln!(
            text,
            "{name}: the row groups found by scanning have no statistics, page indexes or Bloom filters"
        );
    }
    text
}

/// `n` things: `1 row`, `2 rows`.
fn things(n: u64, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

fn count(found: &[Found], which: impl Fn(Found) -> bool) -> usize {
    found.iter().filter(|&&f| which(f)).count()
}
