//! `rewrite`: a Parquet file written again with other settings, column batch by column
//! batch: each row group of the input is read a batch of records at a time from every
//! leaf column in step, and the batches written as they are, so memory holds a batch
//! and the row group being written, never the file. The rows, the schema and the
//! key-value metadata are kept; the writer cuts its own row groups.

use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use parquet_file::{ColumnBatch, FileWriter};

use crate::input::{self, Input, is_dash};
use crate::output::{self, Output};
use crate::progress::Progress;
use crate::timestamps::{self, Converter};
use crate::write_args::WriteArgs;
use crate::{Failure, FileFormat, KeyArgs};

/// Records read from each column at a time.
const BATCH_RECORDS: usize = 65_536;

/// The arguments of `rewrite`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RewriteArgs {
    /// The Parquet file to read (`-`: standard input).
    input: PathBuf,
    /// The Parquet file to write (`-`: standard output). A regular file is replaced once
    /// written whole (it may be the input); a device or a FIFO is written where it is.
    output: PathBuf,
    // The input's keys first, under "Options": the writer's flags have headings.
    #[command(flatten)]
    keys: KeyArgs,
    #[command(flatten)]
    write: WriteArgs,
}

/// Runs `rewrite` (with input that is not a regular file held in memory up to `limit`
/// bytes).
///
/// # Errors
///
/// Bad usage (a flag that does not fit the file, an output named for another format),
/// or a file that cannot be read or written, named in the message.
pub(crate) fn rewrite(args: &RewriteArgs, limit: u64) -> Result<(), Failure> {
    output::not_a_directory(&args.output)?;
    if let Some(named) = FileFormat::of_name(&args.output).filter(|&f| f != FileFormat::Parquet)
        && !is_dash(&args.output)
    {
        return Err(Failure::Usage(format!(
            "{}: rewrite writes Parquet, and the name says {named}; name it .parquet, or \
             use convert",
            args.output.display()
        )));
    }
    let name = input::shown(&args.input);
    let reading = |e: parquet_file::Error| Failure::from(e).in_context(&name);
    let mut input = Input::open(&args.input).map_err(|f| f.in_context(&name))?;
    if input.magic().map_err(|f| f.in_context(&name))? == Some(FileFormat::Orc) {
        return Err(Failure::Usage(format!(
            "rewrite is for Parquet files and {name} is ORC: use convert"
        )));
    }
    // The output is checked, and opened, before the input is read.
    let (output, sink) = Output::create(&args.output, FileFormat::Parquet, None)?;
    let reader = crate::open_parquet(input, &args.keys, limit).map_err(|f| f.in_context(&name))?;
    let read_schema = reader.schema();
    let schema = match args.write.timestamp_unit() {
        Some(unit) => Arc::new(timestamps::schema(read_schema, unit)?),
        None => Arc::clone(read_schema),
    };
    let converters = Converter::of(read_schema, &schema);
    let mut options = args.write.options(&schema)?;
    for kv in reader.metadata().key_value_metadata() {
        options = options.with_key_value(kv.key.clone(), kv.value.clone());
    }
    let shown = output.shown().to_owned();
    let writing = |e: parquet_file::Error| Failure::from(e).in_context(&shown);
    let mut writer = FileWriter::new(BufWriter::new(sink), schema, options).map_err(writing)?;
    let columns = reader.schema().columns();
    let mut batches: Vec<ColumnBatch> = columns.iter().map(ColumnBatch::new).collect();
    let mut progress = Progress::new(Some(reader.metadata().num_rows()));
    let mut done = 0_u64;
    for group in 0..reader.num_row_groups() {
        let mut chunks = (0..columns.len())
            .map(|c| reader.column_chunk(group, c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(reading)?;
        loop {
            let records = read_in_step(group, &mut chunks, &mut batches, &name)?;
            if records == 0 {
                break;
            }
            // Timestamp columns in the unit asked for, swapped in for the write.
            let mut read = Vec::new();
            for (c, converter) in converters.iter().enumerate() {
                if let (Some(converter), Some(batch)) = (converter, batches.get_mut(c)) {
                    let converted = converter.convert(batch).map_err(|f| f.in_context(&name))?;
                    read.push((c, std::mem::replace(batch, converted)));
                }
            }
            let written = writer.write_batches(&batches).map_err(writing);
            for (c, batch) in read {
                if let Some(slot) = batches.get_mut(c) {
                    *slot = batch;
                }
            }
            written?;
            done += records as u64;
            progress.update(done);
        }
    }
    writer.finish().map_err(writing)?;
    let sink = writer
        .into_inner()
        .into_inner()
        .map_err(|e| Failure::from(e.into_error()).in_context(&shown))?;
    drop(progress);
    output.commit(sink, done)
}

/// Reads the next batch of records of every column of row group `group` into
/// `batches`; the number of records, the same in every column.
fn read_in_step(
    group: usize,
    chunks: &mut [parquet_file::ColumnChunkReader],
    batches: &mut [ColumnBatch],
    input: &str,
) -> Result<usize, Failure> {
    let mut counts = Vec::with_capacity(chunks.len());
    for (chunk, batch) in chunks.iter_mut().zip(batches.iter_mut()) {
        batch.clear();
        let n = chunk
            .read_records(BATCH_RECORDS, batch)
            .map_err(|e| Failure::from(e).in_context(input))?;
        counts.push(n);
    }
    let first = counts.first().copied().unwrap_or(0);
    if let Some(c) = counts.iter().position(|&n| n != first) {
        let name = |c: usize| {
            chunks
                .get(c)
                .map_or_else(String::new, |chunk| chunk.column().path.to_string())
        };
        return Err(Failure::File(format!(
            "row group {group}: column {} has {first} more records where column {} has {}",
            name(0),
            name(c),
            counts.get(c).copied().unwrap_or(0)
        ))
        .in_context(input));
    }
    Ok(first)
}
