//! `convert`: rows from JSON Lines, CSV, Parquet or ORC to any of them, a row at a time.
//!
//! Parquet and ORC rows print as `cat` prints them (the rows contract, or its CSV
//! cells); JSON Lines and CSV are read by a schema (given, or inferred from the first
//! rows) into the values the contract prints, and written by `FileWriter::write_row` or
//! `OrcWriter::write_row`. Rows go between Parquet and ORC by the type mapping of
//! [`orc_convert`](crate::orc_convert).

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use orc_file::{Kind, OrcWriter, ReadOptions, TypeDescription};
use parquet_file::{
    ColumnBatch, ErrorKind, Field, FileWriter, Projection, Row, RowIter, Schema, TimeUnit,
};

use crate::commands::Printer;
use crate::contract::Rows;
use crate::infer::Inference;
use crate::input::{self, Data, Input, Text, is_dash};
use crate::json::{self, Json};
use crate::orc::OrcFile;
use crate::orc_convert::{
    GivenSchema, OrcWriteArgs, is_input_error, orc_type_of, parquet_schema_of, parse_schema,
    row_to_orc, row_to_parquet, to_parquet,
};
use crate::output::{self, Output, Writer};
use crate::progress::Progress;
use crate::timestamps;
use crate::write_args::{WriteArgs, positive};
use crate::{Failure, FileFormat, Format, KeyArgs, Opened, csv};

/// The arguments of `convert`.
#[derive(Debug, Clone, Args)]
pub(crate) struct ConvertArgs {
    /// The file to read (`-`: standard input): JSON Lines (.jsonl, .json), CSV with a
    /// header line (.csv), Parquet or ORC (known by their first bytes, `PAR1` and `ORC`).
    input: PathBuf,
    /// The file to write (`-`: standard output), in the format of its extension
    /// (.jsonl, .json, .csv, .parquet, .orc). A regular file is replaced once written
    /// whole; a device or a FIFO is written where it is.
    #[arg(required_unless_present = "print_schema")]
    output: Option<PathBuf>,
    /// The input's format, whatever its name or first bytes.
    #[arg(long, value_enum, value_name = "FORMAT")]
    from: Option<FileFormat>,
    /// The output's format, for standard output or a name without one of the
    /// extensions (which it may not contradict).
    #[arg(long, value_enum, value_name = "FORMAT")]
    to: Option<FileFormat>,
    /// The schema of JSON Lines or CSV input: message-type text, or an ORC type string
    /// (`struct<a:int,...>`), as `pqkit schema` prints them of Parquet and ORC files
    /// (`-`: standard input). Without it, a schema is inferred from the first rows.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// Prints the schema and exits: the output's (given `OUTPUT` or `--to`), else the
    /// input's (inferred, given, or the file's).
    #[arg(long)]
    print_schema: bool,
    /// Writes an ORC uniontype to Parquet as a group of `tag` and one field per
    /// alternative, `_union_0`, `_union_1`, … (only the tag's set); without it, a
    /// uniontype cannot go to Parquet.
    #[arg(long)]
    union_as_struct: bool,
    /// The rows of JSON Lines or CSV input that a schema is inferred from.
    #[arg(long, value_name = "N", default_value = "1000", value_parser = positive)]
    infer_rows: usize,
    // The input's keys first, under "Options": the writer's flags have headings.
    #[command(flatten)]
    keys: KeyArgs,
    #[command(flatten)]
    write: WriteArgs,
    #[command(flatten)]
    orc: OrcWriteArgs,
}

/// The output's format: `--to`, or what the output's name says (which `--to` may not
/// contradict).
fn output_format(args: &ConvertArgs) -> Result<Option<FileFormat>, Failure> {
    let Some(path) = args.output.as_deref() else {
        return Ok(args.to);
    };
    let named = if is_dash(path) {
        None
    } else {
        FileFormat::of_name(path)
    };
    match (args.to, named) {
        (Some(to), Some(named)) if to != named => Err(Failure::Usage(format!(
            "{}: the name says {named} and --to says {to}; name the file for what it holds",
            path.display()
        ))),
        (Some(format), _) | (None, Some(format)) => Ok(Some(format)),
        (None, None) if is_dash(path) => Err(Failure::Usage(
            "standard output: give --to, as there is no extension to tell the format by".into(),
        )),
        (None, None) => Err(Failure::Usage(format!(
            "{}: the extension is not .jsonl, .json, .csv, .parquet or .orc; give --to",
            path.display()
        ))),
    }
}

/// Refuses the flags of a writer other than the output's (`to`).
fn writer_flags_fit(args: &ConvertArgs, to: Option<FileFormat>) -> Result<(), Failure> {
    if to == Some(FileFormat::Orc)
        && let Some(flag) = args.write.first_parquet_only()
    {
        return Err(Failure::Usage(format!("{flag} is for Parquet output")));
    }
    if !matches!(to, Some(FileFormat::Parquet | FileFormat::Orc))
        && let Some(flag) = args.write.first_given()
    {
        let output = if flag == "--checkpoint-every" {
            "Parquet and ORC output"
        } else {
            "Parquet output"
        };
        return Err(Failure::Usage(format!("{flag} is for {output}")));
    }
    if to != Some(FileFormat::Orc)
        && let Some(flag) = args.orc.first_given()
    {
        return Err(Failure::Usage(format!("{flag} is for ORC output")));
    }
    Ok(())
}

/// The input's format: `--from`, or what its first bytes say of Parquet and ORC, or what
/// its name says.
fn input_format(args: &ConvertArgs, input: &mut Input) -> Result<FileFormat, Failure> {
    if let Some(from) = args.from {
        return Ok(from);
    }
    if let Some(format) = input.magic().map_err(|f| f.in_context(input.name()))? {
        return Ok(format);
    }
    if is_dash(&args.input) {
        return Err(Failure::Usage(
            "standard input is not Parquet or ORC (by its first bytes); give --from jsonl or \
             --from csv"
                .into(),
        ));
    }
    FileFormat::of_name(&args.input).ok_or_else(|| {
        Failure::Usage(format!(
            "{}: the extension is not .jsonl, .json, .csv, .parquet or .orc; give --from",
            args.input.display()
        ))
    })
}

/// Where a row came from, for messages.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// A line of text, from 1.
    Line(u64),
    /// A row of a Parquet file, from 0.
    Row(u64),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Line(n) => write!(f, "line {n}"),
            Self::Row(n) => write!(f, "row {n}"),
        }
    }
}

/// A numbered line's JSON object.
type Numbered = (u64, Vec<(String, Json)>);

/// JSON Lines, an object at a time.
struct JsonLines<R> {
    input: R,
    text: String,
    line: u64,
    /// Objects read ahead (to infer a schema from), not yet taken.
    ahead: VecDeque<Numbered>,
}

impl<R: BufRead> JsonLines<R> {
    fn next(&mut self) -> Result<Option<Numbered>, String> {
        if let Some(ahead) = self.ahead.pop_front() {
            return Ok(Some(ahead));
        }
        loop {
            self.text.clear();
            let n = self
                .input
                .read_line(&mut self.text)
                .map_err(|e| format!("line {}: {e}", self.line + 1))?;
            if n == 0 {
                return Ok(None);
            }
            self.line += 1;
            let text = self
                .text
                .trim_start_matches('\u{feff}')
                .trim_end_matches(['\n', '\r']);
            if text.trim().is_empty() {
                continue;
            }
            return match json::parse(text) {
                Ok(Json::Object(object)) => Ok(Some((self.line, object))),
                Ok(other) => Err(format!(
                    "line {}: {} where a row is an object (JSON Lines: one object per line)",
                    self.line,
                    other.kind()
                )),
                Err(e) => Err(format!("line {}: {e}", self.line)),
            };
        }
    }

    /// Infers a schema from the first `rows` objects (kept to be read again).
    fn infer(&mut self, rows: usize) -> Result<Schema, String> {
        let mut inference = Inference::json();
        let mut ahead = VecDeque::new();
        while ahead.len() < rows {
            let Some((line, object)) = self.next()? else {
                break;
            };
            inference
                .add_object(&object)
                .map_err(|e| format!("line {line}: {e}"))?;
            ahead.push_back((line, object));
        }
        self.ahead = ahead;
        inference.schema()
    }
}

/// CSV records after the header.
struct CsvRecords<R> {
    reader: csv::Reader<R>,
    header: Vec<String>,
    ahead: VecDeque<(u64, Vec<String>)>,
}

impl<R: BufRead> CsvRecords<R> {
    fn new(input: R) -> Result<Self, String> {
        let mut reader = csv::Reader::new(input);
        let mut header = Vec::new();
        reader.next_record(&mut header)?;
        Ok(Self {
            reader,
            header,
            ahead: VecDeque::new(),
        })
    }

    fn next(&mut self) -> Result<Option<(u64, Vec<String>)>, String> {
        if let Some(ahead) = self.ahead.pop_front() {
            return Ok(Some(ahead));
        }
        let mut fields = Vec::with_capacity(self.header.len());
        loop {
            let Some(line) = self.reader.next_record(&mut fields)? else {
                return Ok(None);
            };
            // An empty line: a row only of a one-column file (whose only value is null).
            if self.header.len() > 1 && fields.len() == 1 && fields.iter().all(String::is_empty) {
                continue;
            }
            return Ok(Some((line, fields)));
        }
    }

    /// Infers a schema from the first `rows` records (kept to be read again).
    fn infer(&mut self, rows: usize) -> Result<Schema, String> {
        let mut inference = Inference::csv(&self.header);
        let mut ahead = VecDeque::new();
        while ahead.len() < rows {
            let Some((line, cells)) = self.next()? else {
                break;
            };
            inference.add_cells(&cells);
            ahead.push_back((line, cells));
        }
        self.ahead = ahead;
        inference.schema()
    }
}

/// Where rows come from.
enum Source<'r> {
    Parquet {
        rows: RowIter<'r, Data>,
        done: u64,
    },
    Orc {
        rows: Box<orc_file::Rows<'r, Data>>,
        done: u64,
    },
    Jsonl {
        lines: JsonLines<Text>,
        rows: Rows,
    },
    Csv {
        records: CsvRecords<Text>,
        columns: Vec<usize>,
        rows: Rows,
    },
}

impl Source<'_> {
    /// The next row and where it came from. Errors name the input (`name`).
    fn next(&mut self, name: &str) -> Result<Option<(Row, Place)>, Failure> {
        let bad = |e: String| Failure::File(format!("{name}: {e}"));
        match self {
            Self::Parquet { rows, done } => {
                let Some(row) = rows.next() else {
                    return Ok(None);
                };
                let row = row.map_err(|e| Failure::from(e).in_context(name))?;
                *done += 1;
                Ok(Some((row, Place::Row(*done - 1))))
            }
            Self::Orc { rows, done } => {
                let Some(row) = rows.next() else {
                    return Ok(None);
                };
                let row = row.map_err(|e| Failure::from(e).in_context(name))?;
                *done += 1;
                Ok(Some((row, Place::Row(*done - 1))))
            }
            Self::Jsonl { lines, rows } => {
                let Some((line, object)) = lines.next().map_err(bad)? else {
                    return Ok(None);
                };
                let row = rows
                    .row_of_json(&object)
                    .map_err(|e| bad(format!("line {line}: {e}")))?;
                Ok(Some((row, Place::Line(line))))
            }
            Self::Csv {
                records,
                columns,
                rows,
            } => {
                let Some((line, cells)) = records.next().map_err(bad)? else {
                    return Ok(None);
                };
                let row = rows
                    .row_of_cells(columns, &cells)
                    .map_err(|e| bad(format!("line {line}: {e}")))?;
                Ok(Some((row, Place::Line(line))))
            }
        }
    }
}

/// Where rows go.
enum Sink {
    Parquet(Box<FileWriter<BufWriter<Writer>>>),
    Orc(Box<OrcWriter<BufWriter<Writer>>>),
    Text(Printer, BufWriter<Writer>),
}

/// The schema of the rows: they are Parquet's values or ORC's.
enum RowSchema {
    Parquet(Arc<Schema>),
    Orc(TypeDescription),
}

impl RowSchema {
    /// The schema of rows read from JSON Lines or CSV by `given` (or inferred).
    fn of(given: GivenSchema) -> Self {
        match given {
            GivenSchema::Parquet(schema) => Self::Parquet(Arc::new(schema)),
            GivenSchema::Orc(t) => Self::Orc(t),
        }
    }

    /// The builder of rows from JSON Lines or CSV.
    fn rows(&self) -> Rows {
        match self {
            Self::Parquet(schema) => Rows::new(schema),
            Self::Orc(t) => Rows::orc(t),
        }
    }
}

/// How a row is carried to the output's format.
enum Carry {
    /// As it is.
    Same,
    /// Parquet values to ORC's, of this type.
    ToOrc(TypeDescription),
    /// ORC values (of this type) to Parquet's.
    ToParquet(TypeDescription),
}

/// The schema `--schema` gives, read from its file (`-`: standard input).
fn read_schema(path: &Path, input: &Path) -> Result<GivenSchema, Failure> {
    let shown = input::shown(path);
    let text = if is_dash(path) {
        if is_dash(input) {
            return Err(Failure::Usage(
                "--schema - and the input - cannot both be standard input".into(),
            ));
        }
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| Failure::File(format!("{shown}: cannot read: {e}")))?;
    parse_schema(&text).map_err(|e| Failure::Usage(format!("--schema {shown}: {e}")))
}

/// Runs `convert` (with Parquet and ORC that is not a regular file held in memory up to
/// `limit` bytes); the schema goes to `out` with `--print-schema`.
///
/// # Errors
///
/// Bad usage, or a file that cannot be read or written (or holds a row that does not
/// fit the schema), named in the message.
pub(crate) fn convert(args: &ConvertArgs, limit: u64, out: &mut impl Write) -> Result<(), Failure> {
    if let Some(path) = &args.output {
        output::not_a_directory(path)?;
    }
    let to = output_format(args)?;
    let writes = args.output.is_some() && !args.print_schema;
    if writes {
        writer_flags_fit(args, to)?;
    }
    let mut input =
        Input::open(&args.input).map_err(|f| f.in_context(&input::shown(&args.input)))?;
    let from = input_format(args, &mut input)?;
    if from.is_binary() && args.schema.is_some() {
        return Err(Failure::Usage(format!(
            "--schema is for JSON Lines or CSV input: {} file has its own",
            if from == FileFormat::Orc {
                "an ORC"
            } else {
                "a Parquet"
            }
        )));
    }
    let given = args
        .schema
        .as_deref()
        .map(|schema| read_schema(schema, &args.input))
        .transpose()?;
    // The output is checked, and opened, before any work.
    let output = match (args.output.as_deref(), to) {
        (Some(path), Some(to)) if writes => Some(Output::create(path, to, Some(&input))?),
        _ => None,
    };
    let name = input.name().to_owned();
    let job = Job {
        args,
        input: &name,
        to,
        output,
    };
    let bad = |e: String| Failure::File(format!("{name}: {e}"));
    match from {
        FileFormat::Parquet | FileFormat::Orc => {
            let opened =
                crate::open_as(input, from, &args.keys, limit).map_err(|f| f.in_context(&name))?;
            match opened {
                Opened::Parquet(reader) => {
                    let rows = reader
                        .rows_with(Projection::all())
                        .map_err(|e| Failure::from(e).in_context(&name))?;
                    let source = Source::Parquet { rows, done: 0 };
                    let total = reader.metadata().num_rows();
                    let schema = RowSchema::Parquet(Arc::clone(reader.schema()));
                    job.run(source, &schema, Some(total), out)
                }
                Opened::Orc(reader) => {
                    if writes && to == Some(FileFormat::Parquet) && is_flat(reader.schema()) {
                        return job.run_orc_columns(&reader);
                    }
                    let rows = reader
                        .rows(ReadOptions::default())
                        .map_err(|e| Failure::from(e).in_context(&name))?;
                    let source = Source::Orc {
                        rows: Box::new(rows),
                        done: 0,
                    };
                    let schema = RowSchema::Orc(reader.schema().clone());
                    job.run(source, &schema, Some(reader.num_rows()), out)
                }
            }
        }
        FileFormat::Jsonl => {
            let mut lines = JsonLines {
                input: input.into_text(),
                text: String::new(),
                line: 0,
                ahead: VecDeque::new(),
            };
            let schema = match given {
                Some(schema) => RowSchema::of(schema),
                None => RowSchema::Parquet(Arc::new(lines.infer(args.infer_rows).map_err(bad)?)),
            };
            let rows = schema.rows();
            let source = Source::Jsonl { lines, rows };
            job.run(source, &schema, None, out)
        }
        FileFormat::Csv => {
            let mut records = CsvRecords::new(input.into_text()).map_err(bad)?;
            let schema = match given {
                Some(schema) => RowSchema::of(schema),
                None => RowSchema::Parquet(Arc::new(records.infer(args.infer_rows).map_err(bad)?)),
            };
            let rows = schema.rows();
            let columns = rows.csv_columns(&records.header).map_err(bad)?;
            let source = Source::Csv {
                records,
                columns,
                rows,
            };
            job.run(source, &schema, None, out)
        }
    }
}

/// A conversion under way: its arguments, the input's name, and the output (when it
/// writes one rather than printing a schema), opened.
struct Job<'a> {
    args: &'a ConvertArgs,
    input: &'a str,
    to: Option<FileFormat>,
    output: Option<(Output, Writer)>,
}

/// The writer of the output (`shown`) in format `to`, of rows of `schema`.
fn open_sink(
    args: &ConvertArgs,
    shown: &str,
    to: FileFormat,
    schema: &RowSchema,
    output: Writer,
) -> Result<Sink, Failure> {
    let writing = |e: parquet_file::Error| Failure::from(e).in_context(shown);
    let orc_writing = |e: orc_file::Error| Failure::from(e).in_context(shown);
    Ok(match (to, schema) {
        (FileFormat::Parquet, RowSchema::Parquet(schema)) => {
            let options = args.write.options(schema)?;
            let writer = FileWriter::new(BufWriter::new(output), Arc::clone(schema), options)
                .map_err(writing)?;
            Sink::Parquet(Box::new(writer))
        }
        (FileFormat::Orc, RowSchema::Orc(t)) => {
            let options = args
                .orc
                .options()
                .checkpoint_every(args.write.checkpoint_every().unwrap_or(0));
            let writer = OrcWriter::new(BufWriter::new(output), t.clone(), options).map_err(
                |e| match e {
                    // A setting that does not fit the file (a timestamp with local time
                    // zone in version 0.11, a block size out of range).
                    e if e.kind().is_input() => Failure::Usage(format!("{shown}: {e}")),
                    e => orc_writing(e),
                },
            )?;
            Sink::Orc(Box::new(writer))
        }
        (FileFormat::Jsonl, _) => Sink::Text(Printer::new(Format::Jsonl), BufWriter::new(output)),
        (FileFormat::Csv, _) => Sink::Text(Printer::new(Format::Csv), BufWriter::new(output)),
        // The output schema is of the output's format.
        (FileFormat::Parquet | FileFormat::Orc, _) => {
            return Err(Failure::File(format!("{shown}: no schema for the output")));
        }
    })
}

/// The schema of the output in format `to` of rows of `schema` from `input`, how rows
/// are carried to it, and the unit its timestamps are written in (when they change).
fn output_schema(
    args: &ConvertArgs,
    input: &str,
    schema: &RowSchema,
    to: Option<FileFormat>,
) -> Result<(RowSchema, Carry, Option<TimeUnit>), Failure> {
    let mapping = |e: String| Failure::File(format!("{input}: {e}"));
    if args.union_as_struct
        && !(matches!(schema, RowSchema::Orc(_)) && to == Some(FileFormat::Parquet))
    {
        return Err(Failure::Usage(
            "--union-as-struct is for ORC rows written to Parquet".into(),
        ));
    }
    let (output_schema, carry) = match (to, schema) {
        (Some(FileFormat::Parquet), RowSchema::Orc(t)) => (
            RowSchema::Parquet(Arc::new(
                parquet_schema_of(t, args.union_as_struct).map_err(mapping)?,
            )),
            Carry::ToParquet(t.clone()),
        ),
        (Some(FileFormat::Orc), RowSchema::Parquet(schema)) => {
            let t = orc_type_of(&Rows::new(schema), args.orc.version()).map_err(mapping)?;
            (RowSchema::Orc(t.clone()), Carry::ToOrc(t))
        }
        (_, RowSchema::Parquet(schema)) => (RowSchema::Parquet(Arc::clone(schema)), Carry::Same),
        (_, RowSchema::Orc(t)) => (RowSchema::Orc(t.clone()), Carry::Same),
    };
    // Timestamps in the unit asked for, or ORC's in microseconds (see `timestamps`).
    let unit = match (to, &output_schema) {
        (Some(FileFormat::Parquet), RowSchema::Parquet(_)) => args
            .write
            .timestamp_unit()
            .or(matches!(schema, RowSchema::Orc(_)).then_some(TimeUnit::Micros)),
        _ => None,
    };
    Ok(match (output_schema, unit) {
        (RowSchema::Parquet(parquet), Some(unit)) => (
            RowSchema::Parquet(Arc::new(timestamps::schema(&parquet, unit)?)),
            carry,
            Some(unit),
        ),
        (output_schema, unit) => (output_schema, carry, unit),
    })
}

impl Job<'_> {
    /// Moves the rows of `source` (of `schema`, `total` of them when known) to the
    /// output (or prints the schema).
    fn run(
        self,
        mut source: Source<'_>,
        schema: &RowSchema,
        total: Option<u64>,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        let Self {
            args,
            input,
            to,
            output,
        } = self;
        let (output_schema, carry, unit) = output_schema(args, input, schema, to)?;
        let (Some((output, writer)), Some(to)) = (output, to) else {
            match &output_schema {
                RowSchema::Parquet(schema) => write!(out, "{schema}")?,
                RowSchema::Orc(t) => writeln!(out, "{t}")?,
            }
            return Ok(());
        };
        let shown = output.shown().to_owned();
        let shown = shown.as_str();
        let writing = |e: parquet_file::Error| Failure::from(e).in_context(shown);
        let orc_writing = |e: orc_file::Error| Failure::from(e).in_context(shown);
        let mut sink = open_sink(args, shown, to, &output_schema, writer)?;
        let mut progress = Progress::new(total);
        let mut done = 0_u64;
        while let Some((row, place)) = source.next(input)? {
            let bad_row = |e: String| Failure::File(format!("{input}: {place}: {e}"));
            let row = match &carry {
                Carry::Same => row,
                Carry::ToOrc(t) => row_to_orc(row, t).map_err(bad_row)?,
                Carry::ToParquet(t) => row_to_parquet(row, t).map_err(bad_row)?,
            };
            let row = match unit {
                Some(unit) => timestamps::row(row, unit).map_err(bad_row)?,
                None => row,
            };
            match &mut sink {
                Sink::Parquet(writer) => writer.write_row(&row).map_err(|e| {
                    if matches!(e.kind(), ErrorKind::InvalidInput { .. }) {
                        bad_row(e.to_string())
                    } else {
                        writing(e)
                    }
                })?,
                Sink::Orc(writer) => writer.write_row(&row).map_err(|e| {
                    if is_input_error(&e) {
                        bad_row(crate::orc::row_error(&e, writer.schema()))
                    } else {
                        orc_writing(e)
                    }
                })?,
                Sink::Text(printer, text) => {
                    let fields: Vec<(&str, &Field)> =
                        row.fields().iter().map(|(n, f)| (&**n, f)).collect();
                    printer
                        .row(&fields, text)
                        .map_err(|f| f.in_context(shown))?;
                }
            }
            done += 1;
            progress.update(done);
        }
        drop(progress);
        close(sink, output, done)
    }

    /// Converts the ORC file `reader` of a flat schema (see [`is_flat`]) to Parquet a
    /// batch of column vectors at a time: each value goes straight into its column's
    /// batch, converted as a row's would be, without building rows.
    fn run_orc_columns(self, reader: &OrcFile) -> Result<(), Failure> {
        let Self {
            args,
            input,
            to,
            output,
        } = self;
        let t = reader.schema();
        let schema = RowSchema::Orc(t.clone());
        let (RowSchema::Parquet(parquet), _, unit) = output_schema(args, input, &schema, to)?
        else {
            return Err(Failure::File(format!("{input}: no Parquet schema for it")));
        };
        let Some((output, writer)) = output else {
            return Ok(());
        };
        let shown = output.shown().to_owned();
        let writing = |e: parquet_file::Error| Failure::from(e).in_context(&shown);
        let mut sink = open_sink(
            args,
            &shown,
            FileFormat::Parquet,
            &RowSchema::Parquet(Arc::clone(&parquet)),
            writer,
        )?;
        let Sink::Parquet(writer) = &mut sink else {
            return Err(Failure::File(format!("{shown}: not a Parquet writer")));
        };
        let columns = parquet.columns();
        let mut progress = Progress::new(Some(reader.num_rows()));
        let mut done = 0_u64;
        let mut batches: Vec<ColumnBatch> = columns.iter().map(ColumnBatch::new).collect();
        for batch in reader.batches(ReadOptions::default())? {
            let batch = batch.map_err(|e| Failure::from(e).in_context(input))?;
            for (((name, child), vector), (out, column)) in t
                .fields()
                .zip(&batch.columns)
                .zip(batches.iter_mut().zip(columns))
            {
                // Only decimals change on their way to Parquet, and timestamps to another
                // unit: the other values go as they are read.
                let rescaled = child.kind() == Kind::Decimal;
                let retimed = unit
                    .filter(|_| matches!(child.kind(), Kind::Timestamp | Kind::TimestampInstant));
                for i in 0..batch.num_rows {
                    let bad_row = |e: String| {
                        Failure::File(format!("{input}: row {}: field {name}{e}", done + i as u64))
                    };
                    let field = vector
                        .field(child, i)
                        .map_err(|e| Failure::from(e).in_context(input))?;
                    let field = if rescaled {
                        to_parquet(field, child).map_err(bad_row)?
                    } else {
                        field
                    };
                    let field = match retimed {
                        Some(unit) => timestamps::value(field, unit).map_err(bad_row)?,
                        None => field,
                    };
                    out.push_field(column, &field)
                        .map_err(|e| bad_row(format!(": {e}")))?;
                }
            }
            writer.write_batches(&batches).map_err(writing)?;
            for out in &mut batches {
                out.clear();
            }
            done += batch.num_rows as u64;
            progress.update(done);
        }
        drop(progress);
        close(sink, output, done)
    }
}

/// Finishes the output `sink` of `output` after `done` rows, and puts it in place.
fn close(sink: Sink, output: Output, done: u64) -> Result<(), Failure> {
    let shown = output.shown().to_owned();
    let shown = shown.as_str();
    let writing = |e: parquet_file::Error| Failure::from(e).in_context(shown);
    let orc_writing = |e: orc_file::Error| Failure::from(e).in_context(shown);
    let flushing = |e: std::io::IntoInnerError<BufWriter<Writer>>| {
        Failure::from(e.into_error()).in_context(shown)
    };
    let writer = match sink {
        Sink::Parquet(mut writer) => {
            writer.finish().map_err(writing)?;
            writer.into_inner().into_inner().map_err(flushing)?
        }
        Sink::Orc(writer) => writer
            .finish()
            .map_err(orc_writing)?
            .into_inner()
            .map_err(flushing)?,
        Sink::Text(printer, mut text) => {
            printer.finish(&mut text).map_err(|f| f.in_context(shown))?;
            text.into_inner().map_err(flushing)?
        }
    };
    output.commit(writer, done)
}

/// Whether every field of the ORC struct `t` is a primitive (no struct, list, map or
/// uniontype): a file that `convert` takes to Parquet a column at a time.
fn is_flat(t: &TypeDescription) -> bool {
    t.children().iter().all(|child| {
        !matches!(
            child.kind(),
            Kind::Struct | Kind::List | Kind::Map | Kind::Union
        )
    })
}
