//! `rewrite`: a Parquet file written again with other settings, column batch by column
//! batch: each row group of the input is read a batch of records at a time from every
//! leaf column in step, and the batches written as they are, so memory holds a batch
//! and the row group being written, never the file. The rows, the schema and the
//! key-value metadata are kept; the writer cuts its own row groups.

use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use parquet_file::{ColumnBatch, FileWriter};

use crate::output::{OutputFile, WriteArgs};
use crate::progress::Progress;
use crate::{Failure, KeyArgs};

/// Records read from each column at a time.
const BATCH_RECORDS: usize = 65_536;

/// The arguments of `rewrite`.
#[derive(Debug, Clone, Args)]
pub(crate) struct RewriteArgs {
    /// The Parquet file to read.
    input: PathBuf,
    /// The Parquet file to write (replaced once written whole; it may be the input).
    output: PathBuf,
    // The input's keys first, under "Options": the writer's flags have headings.
    #[command(flatten)]
    keys: KeyArgs,
    #[command(flatten)]
    write: WriteArgs,
}

/// Runs `rewrite`.
///
/// # Errors
///
/// Bad usage (a flag that does not fit the file), or a file that cannot be read or
/// written, named in the message.
pub(crate) fn rewrite(args: &RewriteArgs) -> Result<(), Failure> {
    let input = args.input.as_path();
    let reading = |e: parquet_file::Error| Failure::from(e).in_file(input);
    let reader = crate::open(&args.input, &args.keys).map_err(|f| f.in_file(input))?;
    let schema = Arc::clone(reader.schema());
    let mut options = args.write.options(&schema)?;
    for kv in reader.metadata().key_value_metadata() {
        options = options.with_key_value(kv.key.clone(), kv.value.clone());
    }
    let (file, sink) = OutputFile::create(&args.output)?;
    let writing = |e: parquet_file::Error| Failure::from(e).in_file(file.path());
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
            let records = read_in_step(group, &mut chunks, &mut batches, input)?;
            if records == 0 {
                break;
            }
            writer.write_batches(&batches).map_err(writing)?;
            done += records as u64;
            progress.update(done);
        }
    }
    writer.finish().map_err(writing)?;
    writer
        .into_inner()
        .into_inner()
        .map_err(|e| Failure::from(e.into_error()).in_file(file.path()))?;
    drop(progress);
    file.commit()
}

/// Reads the next batch of records of every column of row group `group` into
/// `batches`; the number of records, the same in every column.
fn read_in_step(
    group: usize,
    chunks: &mut [parquet_file::ColumnChunkReader],
    batches: &mut [ColumnBatch],
    input: &Path,
) -> Result<usize, Failure> {
    let mut counts = Vec::with_capacity(chunks.len());
    for (chunk, batch) in chunks.iter_mut().zip(batches.iter_mut()) {
        batch.clear();
        let n = chunk
            .read_records(BATCH_RECORDS, batch)
            .map_err(|e| Failure::from(e).in_file(input))?;
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
        .in_file(input));
    }
    Ok(first)
}
