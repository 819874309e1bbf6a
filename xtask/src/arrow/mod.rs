//! `cargo xtask arrow [FILTER...]`: parquet-arrow's record batches against pyarrow's tables,
//! both ways, on the files whose names contain one of the filters (all without).
//!
//! The read side: every Parquet file of the corpus's `parquet-testing/data` (not the
//! `*.parquet.encrypted` ones: pyarrow reads encrypted files only through a key management
//! client, with key metadata in its own format, which they do not have) and of the interop
//! fixtures (`<target>/interop/fixtures`, made by `cargo xtask interop`'s script when
//! missing; the encrypted fixtures with their keys, against the table of their plaintext
//! twins), every ORC file of the corpus's `orc/` (not `corrupt/`) and of the ORC interop
//! fixtures, and pyarrow's own Parquet files of a table of every Arrow type it writes
//! (`xtask/python/arrow_tables.py`). For each, pyarrow's table (`pq.read_table`,
//! `pyarrow.orc.read_table`) written as an Arrow IPC file is the reference, and the
//! batches of `ParquetRecordBatchReader` or `OrcRecordBatchReader` (of at most 1000 rows;
//! again of at most 7 rows for files of at most 20,000 rows), put together, must equal it
//! column for column: each field's name, data type (with the nested fields' names,
//! nullability and metadata), nullability and metadata, and each column's values (see
//! [`compare`]; the schemas' own metadata is not compared). Where pyarrow refuses a file,
//! or reads one that we refuse on purpose, [`pins::FILES`] says what we do instead; where
//! we read a column as another field than pyarrow, on purpose or as a known bug of our
//! reader, [`pins::COLUMNS`] pins both fields, and the values must still be the same.
//!
//! The write side, in [`written`]: each table pyarrow read (not of the encrypted twins),
//! and the tables of every type, written by `ArrowWriter` with the default options into
//! `<target>/arrow/written/ours-*.parquet`, must read back in pyarrow as written, but
//! where pyarrow reads its own file of the table otherwise too (pinned in
//! [`pins::WRITTEN`] for the tables of every type); [`pins::WRITER_REFUSALS`] lists the
//! tables that Parquet cannot hold. One Python process makes the tables of each side.

mod compare;
mod pins;
mod written;

use crate::python::Python;
use crate::rows::{self, Tally, truncate};
use crate::{corpus_dir, interop, orc, root, target_dir};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::Field;
use compare::{Table, differences, same_values};
use parquet_arrow::{OrcRecordBatchReaderBuilder, ParquetRecordBatchReaderBuilder};
use parquet_file::{DecryptionOptions, Key, ReadOptions};
use pins::{Ours, Pyarrow};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

/// The most rows of a batch of the reading compared with pyarrow's table.
const BATCH_SIZE: usize = 1000;
/// The most rows of a batch of the second reading, of the files of at most
/// [`SECOND_READING_ROWS`] rows: its batches must make the same table.
const SMALL_BATCH_SIZE: usize = 7;
const SECOND_READING_ROWS: usize = 20_000;

/// The tables that `arrow_tables.py --tables DIR` writes into DIR (`<name>.arrow`), with
/// pyarrow's own Parquet files of each (`pyarrow-<name>.parquet`, and without the stored
/// Arrow schema `pyarrow-<name>-no-arrow-schema.parquet`), which the read side reads: every
/// type, and apart from it the types our reader cannot read yet (see `arrow_tables.py`).
const TABLES: [&str; 2] = ["all-types", "decimal32-64"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Parquet,
    Orc,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Self::Parquet => "parquet",
            Self::Orc => "orc",
        }
    }
}

/// A file of the read side.
struct Input {
    /// Its name in the tally: its file name, `orc/<name>` for the corpus's ORC files.
    name: String,
    path: PathBuf,
    format: Format,
    /// The file whose pyarrow table is the reference: the file itself, or the plaintext
    /// twin of an encrypted fixture.
    reference: PathBuf,
    /// The keys of an encrypted fixture.
    decryption: Option<DecryptionOptions>,
}

pub(crate) fn run(filters: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let root = root();
    let target = target_dir(&root)?;
    let python = Python::setup(&root, &target)?;
    let dir = target.join("arrow");
    let tables = dir.join("tables");
    let inputs = inputs(&root, &target, &python, &tables)?;
    let selected = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let mut tally = Tally::default();
    if filters.is_empty() {
        check_listed(&mut tally, &inputs);
    }
    let chosen: Vec<&Input> = inputs.iter().filter(|i| selected(&i.name)).collect();
    let sources: Vec<String> = TABLES
        .iter()
        .map(|t| format!("{t}.arrow"))
        .filter(|t| selected(t))
        .collect();
    if chosen.is_empty() && sources.is_empty() {
        return Err(format!("no file matches {}", filters.join(" ")));
    }

    // pyarrow's tables of the files chosen (or of their twins).
    let mut jobs: Vec<Job> = chosen
        .iter()
        .map(|i| Job {
            file: i.reference.clone(),
            format: i.format,
            own: None,
        })
        .collect();
    jobs.sort_by(|a, b| a.file.cmp(&b.file));
    jobs.dedup_by(|a, b| a.file == b.file);
    let reference = dir.join("reference");
    pyarrow_tables(&python, &jobs, &reference, Some(&tables))?;

    let written_dir = dir.join("written");
    clear(&written_dir)?;
    let mut written = Vec::new();
    let mut shown = vec![0; pins::COLUMNS.len()];
    for input in &chosen {
        let table = check_input(&mut tally, input, &reference, &mut shown);
        if let (Some(table), None) = (table, &input.decryption) {
            let source = reference.join(format!("{}.arrow", rows::file_name(&input.reference)));
            written.extend(written::write(
                &mut tally,
                &input.name,
                &table,
                source,
                &written_dir,
            ));
        }
    }
    for name in &sources {
        let source = tables.join(name);
        match Table::read_ipc(&source) {
            Ok(table) => {
                written.extend(written::write(
                    &mut tally,
                    name,
                    &table,
                    source,
                    &written_dir,
                ));
            }
            Err(e) => tally.fail(name, &e),
        }
    }
    check_column_pins(&mut tally, &shown, filters.is_empty());
    let all = filters.is_empty();
    written::read_back(&python, &written, &dir.join("back"), all, &mut tally)?;

    let orc = chosen.iter().filter(|i| i.format == Format::Orc).count();
    println!(
        "arrow: {} Parquet and {orc} ORC files read, {} Parquet files written, in {:.0} s",
        chosen.len() - orc,
        written.len(),
        started.elapsed().as_secs_f64()
    );
    tally.finish(
        "arrow",
        "files pyarrow refuses or reads otherwise, as arrow/pins.rs says",
    )
}

/// Every file of the read side, the fixtures made where missing.
fn inputs(
    root: &Path,
    target: &Path,
    python: &Python,
    tables: &Path,
) -> Result<Vec<Input>, String> {
    let corpus = corpus_dir(root);
    let corpus = std::fs::canonicalize(&corpus).unwrap_or(corpus);
    let interop = target.join("interop");
    let fixtures = interop.join("fixtures");
    interop::generate(root, python, &interop, &fixtures)?;
    let orc_fixtures = interop.join("orc-fixtures");
    orc::generate_fixtures(root, python, &interop, &orc_fixtures)?;

    let plain = |name: String, path: PathBuf, format: Format| Input {
        name,
        reference: path.clone(),
        path,
        format,
        decryption: None,
    };
    let mut inputs = Vec::new();
    for path in rows::list(&corpus.join("parquet-testing").join("data"), &[".parquet"])? {
        inputs.push(plain(rows::file_name(&path), path, Format::Parquet));
    }
    for path in rows::list(&fixtures, &[".parquet"])? {
        inputs.push(plain(rows::file_name(&path), path, Format::Parquet));
    }
    for encrypted in interop::encrypted(&fixtures)? {
        inputs.push(Input {
            name: rows::file_name(&encrypted.file),
            decryption: Some(decryption(&encrypted.args)?),
            path: encrypted.file,
            format: Format::Parquet,
            reference: encrypted.reference,
        });
    }
    for table in TABLES {
        for name in [
            format!("pyarrow-{table}.parquet"),
            format!("pyarrow-{table}-no-arrow-schema.parquet"),
        ] {
            let path = tables.join(&name);
            inputs.push(plain(name, path, Format::Parquet));
        }
    }
    for path in rows::list(&corpus.join("orc"), &[".orc"])? {
        let name = format!("orc/{}", rows::file_name(&path));
        inputs.push(plain(name, path, Format::Orc));
    }
    for path in rows::list(&orc_fixtures, &[".orc"])? {
        inputs.push(plain(rows::file_name(&path), path, Format::Orc));
    }
    // arrow_tables.py names its tables by the files' names.
    let mut names: Vec<(String, &Path)> = inputs
        .iter()
        .map(|i| (rows::file_name(&i.reference), i.reference.as_path()))
        .collect();
    names.sort();
    names.dedup();
    if let Some(pair) = names.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!(
            "two files named {}: {} and {}",
            pair[0].0,
            pair[0].1.display(),
            pair[1].1.display()
        ));
    }
    Ok(inputs)
}

/// The keys of an encrypted fixture, from the `pqkit cat` options of `encrypted.json`.
fn decryption(args: &[String]) -> Result<DecryptionOptions, String> {
    let key = |hex: &str| -> Result<Key, String> {
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| {
                hex.get(i..i + 2)
                    .and_then(|b| u8::from_str_radix(b, 16).ok())
                    .ok_or_else(|| format!("encrypted.json: a key is not hex: {hex}"))
            })
            .collect::<Result<Vec<u8>, String>>()?;
        Key::try_new(&bytes).map_err(|e| format!("encrypted.json: {e}"))
    };
    let mut options = DecryptionOptions::new();
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| format!("encrypted.json: {flag} without a value"))?;
        options = match flag.as_str() {
            "--footer-key" => options.with_footer_key(key(value)?),
            "--column-key" => {
                let (path, hex) = value
                    .split_once(':')
                    .ok_or_else(|| format!("encrypted.json: {value} is not PATH:HEX"))?;
                options.with_column_key(parquet_file::ColumnPath::new(path.split('.')), key(hex)?)
            }
            "--aad-prefix" => options.with_aad_prefix(value.as_bytes().to_vec()),
            other => return Err(format!("encrypted.json: unknown option {other}")),
        };
    }
    Ok(options)
}

/// Fails each file of [`pins::FILES`], and each name of the files of [`pins::COLUMNS`],
/// that is not a file of the read side.
fn check_listed(tally: &mut Tally, inputs: &[Input]) {
    let names: Vec<&str> = inputs.iter().map(|i| i.name.as_str()).collect();
    let listed = pins::FILES.iter().map(|p| (p.file, "FILES")).chain(
        pins::COLUMNS
            .iter()
            .flat_map(|p| p.files.iter().map(|f| (*f, "COLUMNS"))),
    );
    for (pattern, list) in listed {
        if !names.iter().any(|n| pins::matches(pattern, n)) {
            tally.fail(
                pattern,
                &format!("listed in arrow/pins.rs {list}, but no file of the read side"),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// pyarrow's tables

/// What pyarrow made of a file.
enum Outcome {
    /// Its table, as an Arrow IPC file.
    Table(PathBuf),
    /// pyarrow refused the file: what it said.
    Refused(String),
    /// `arrow_tables.py` failed: the last line of its traceback.
    Fault(String),
    /// pyarrow aborted the process: how it ended and what it printed last.
    Crashed(String),
}

impl Outcome {
    /// What pyarrow did, in a few words.
    fn describe(&self) -> String {
        match self {
            Self::Table(_) => "reads it".to_owned(),
            Self::Refused(said) => format!("refuses it: {said}"),
            Self::Fault(last) => format!("reads it, but arrow_tables.py failed: {last}"),
            Self::Crashed(crash) => format!("aborts on it: {crash}"),
        }
    }
}

/// What `arrow_tables.py` is asked of one file.
struct Job {
    file: PathBuf,
    format: Format,
    /// For a file we wrote, the Arrow IPC file of the table written: pyarrow writes it to
    /// Parquet itself and reads that back too (`<name>.own.arrow`).
    own: Option<PathBuf>,
}

/// pyarrow's table of `file`, as [`pyarrow_tables`] left it in `out`.
fn outcome(out: &Path, file: &Path) -> Outcome {
    let name = rows::file_name(file);
    let path = |suffix: &str| out.join(format!("{name}{suffix}"));
    if path(".arrow").exists() {
        return Outcome::Table(path(".arrow"));
    }
    if let Ok(said) = std::fs::read_to_string(path(".error")) {
        return Outcome::Refused(said.trim_end().to_owned());
    }
    if let Ok(fault) = std::fs::read_to_string(path(".fault")) {
        return Outcome::Fault(fault.lines().last().unwrap_or("").to_owned());
    }
    match std::fs::read_to_string(path(".crash")) {
        Ok(crash) => Outcome::Crashed(crash.trim_end().to_owned()),
        Err(_) => Outcome::Fault("arrow_tables.py wrote no outcome".to_owned()),
    }
}

/// Runs `arrow_tables.py` on `jobs` (and with `tables`, has it write the tables of
/// [`TABLES`] there first), into `out` (emptied first). A process that dies (Arrow C++
/// aborts on some files) is started again past the job it died on, whose `<name>.crash`
/// then holds how it ended and what it printed last.
fn pyarrow_tables(
    python: &Python,
    jobs: &[Job],
    out: &Path,
    tables: Option<&Path>,
) -> Result<(), String> {
    clear(out)?;
    let mut rest = jobs;
    let mut tables = tables;
    for attempt in 0.. {
        if rest.is_empty() && tables.is_none() {
            break;
        }
        let path = out.join(format!("jobs-{attempt}.json"));
        let values: Vec<serde_json::Value> = rest
            .iter()
            .map(|job| {
                serde_json::json!({"file": job.file, "format": job.format.name(), "own": job.own})
            })
            .collect();
        let text = serde_json::to_string(&values).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let log = out.join(format!("arrow-tables-{attempt}.log"));
        let stderr = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let mut command: Command = python.script("arrow_tables.py");
        command.arg(&path).arg(out).stderr(stderr);
        if let Some(dir) = tables.take() {
            command.arg("--tables").arg(dir);
        }
        let status = command
            .status()
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        if status.success() {
            break;
        }
        let tail = {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(3)..].join(" | ")
        };
        let step = |file: &Path| {
            std::fs::read_to_string(out.join(format!("{}.step", rows::file_name(file)))).ok()
        };
        let Some(at) = rest
            .iter()
            .position(|job| step(&job.file).as_deref() != Some("done"))
        else {
            return Err(format!("{command:?} failed with {status}: {tail}"));
        };
        if step(&rest[at].file).is_none() {
            // Dead before it began the job: the script's fault, not pyarrow's.
            return Err(format!("{command:?} failed with {status}: {tail}"));
        }
        let crash = out.join(format!("{}.crash", rows::file_name(&rest[at].file)));
        std::fs::write(&crash, format!("{status}: {tail}"))
            .map_err(|e| format!("{}: {e}", crash.display()))?;
        rest = &rest[at + 1..];
    }
    Ok(())
}

/// Empties (or makes) the directory `dir`.
fn clear(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

// ---------------------------------------------------------------------------------------
// The read side

/// Checks our reading of `input` against pyarrow's table in `reference`, or against what
/// [`pins::FILES`] pins, counting in `shown` the pins of [`pins::COLUMNS`] that apply;
/// pyarrow's table, if it read one, for the write side.
fn check_input(
    tally: &mut Tally,
    input: &Input,
    reference: &Path,
    shown: &mut [usize],
) -> Option<Table> {
    let name = &input.name;
    let outcome = outcome(reference, &input.reference);
    let pin = pins::file_pin(name);
    if let Some(pin) = pin {
        tally.pinned(&format!(
            "PINNED {name} ({}): {}",
            pin.kind.label(),
            pin.why
        ));
    }
    let twin = if input.reference == input.path {
        String::new()
    } else {
        format!(
            " (of its plaintext twin {})",
            rows::file_name(&input.reference)
        )
    };
    let expected = match (&outcome, pin.map(|p| p.pyarrow)) {
        (Outcome::Table(path), None | Some(Pyarrow::Reads)) => match Table::read_ipc(path) {
            Ok(table) => Some(table),
            Err(e) => {
                tally.fail(name, &format!("pyarrow's table{twin}: {e}"));
                return None;
            }
        },
        (Outcome::Refused(said), Some(Pyarrow::Refuses(says))) if said.contains(says) => None,
        (_, None) => {
            let did = outcome.describe();
            tally.fail(
                name,
                &format!("pyarrow{twin} {did}, and arrow/pins.rs does not list it"),
            );
            return None;
        }
        (_, Some(pinned)) => {
            let did = outcome.describe();
            tally.fail(
                name,
                &format!("pyarrow {did}, where arrow/pins.rs expects {pinned:?}: update the pin"),
            );
            return None;
        }
    };
    let ours = read_ours(input, BATCH_SIZE);
    match (pin.map(|p| p.ours), ours, &expected) {
        (None, Ok(ours), Some(expected)) => match judge_columns(name, expected, &ours, shown) {
            Ok(pinned) => {
                if !pinned.is_empty() {
                    tally.pinned(&format!("PINNED {name}: columns {}", pinned.join(", ")));
                }
                match second_reading(input, &ours) {
                    Ok(note) => tally.pass(
                        name,
                        &format!(
                            "{} rows, {} columns{note}, as pyarrow reads them{twin}{}",
                            ours.rows(),
                            ours.all.num_columns(),
                            if pinned.is_empty() {
                                ""
                            } else {
                                ", but as pinned"
                            }
                        ),
                    ),
                    Err(e) => tally.fail(name, &e),
                }
            }
            Err(problems) => tally.fail(
                name,
                &format!("{problems}\n      (against pyarrow's table{twin})"),
            ),
        },
        (Some(Ours::Error(says)), Err(e), _) if e.contains(says) => {
            tally.pass(
                name,
                &format!("our reader refuses it, as pinned: {}", truncate(&e, 160)),
            );
        }
        (Some(Ours::Reads { rows, fields }), Ok(ours), None)
            if ours.rows() == rows && fields_text(&ours.all) == fields =>
        {
            tally.pass(name, &format!("{rows} rows of the fields pinned"));
        }
        (Some(pinned), Ok(ours), _) => tally.fail(
            name,
            &format!(
                "we read {} rows of {}, where arrow/pins.rs expects {pinned:?}",
                ours.rows(),
                fields_text(&ours.all)
            ),
        ),
        (_, Err(e), _) => tally.fail(name, &format!("our reader: {e}")),
        (None, Ok(_), None) => tally.fail(name, "no reference and no pin"),
    }
    expected
}

/// The fields of `batch` as [`pins::Ours::Reads`] spells them.
fn fields_text(batch: &RecordBatch) -> String {
    let fields: Vec<String> = batch
        .schema_ref()
        .fields()
        .iter()
        .map(|f| format!("{}: {}", f.name(), pins::describe(f)))
        .collect();
    fields.join(", ")
}

/// Our table of the file `name` against pyarrow's: the columns that differ as
/// [`pins::COLUMNS`] pins them (each counted in `shown`), or the problems.
fn judge_columns(
    name: &str,
    expected: &Table,
    ours: &Table,
    shown: &mut [usize],
) -> Result<Vec<String>, String> {
    let mut pinned = Vec::new();
    let mut problems = Vec::new();
    for difference in differences(&expected.all, &ours.all, "ours") {
        let Some((column, (i, pin))) = difference
            .column
            .as_deref()
            .and_then(|c| Some((c, pins::column_pin(name, c)?)))
        else {
            problems.push(difference.to_string());
            continue;
        };
        match pinned_column(pin, expected, ours) {
            Ok(()) => {
                shown[i] += 1;
                pinned.push(format!("{column} ({})", pins::COLUMNS[i].kind.label()));
            }
            Err(e) => problems.push(format!("column {column:?}: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(pinned)
    } else {
        Err(problems.join("\n      "))
    }
}

/// A column that [`pins::COLUMNS`] pins: the fields must be the ones pinned, and the
/// values the same.
fn pinned_column(pin: &pins::Column, expected: &Table, ours: &Table) -> Result<(), String> {
    let (want_field, want) = column_of(&expected.all, pin.name)?;
    let (got_field, got) = column_of(&ours.all, pin.name)?;
    let (ours_is, pyarrow_is) = (pins::describe(&got_field), pins::describe(&want_field));
    if ours_is != pin.ours || pyarrow_is != pin.pyarrow {
        return Err(format!(
            "ours is {ours_is} and pyarrow's {pyarrow_is}, where arrow/pins.rs expects {} and {}",
            pin.ours, pin.pyarrow
        ));
    }
    if !same_values(&got, &want) {
        return Err(format!(
            "ours is {ours_is} and pyarrow's {pyarrow_is}, as pinned, but the values differ"
        ));
    }
    Ok(())
}

/// The field and the values of the column `name` of `batch`.
fn column_of(batch: &RecordBatch, name: &str) -> Result<(Field, ArrayRef), String> {
    let i = batch
        .schema_ref()
        .index_of(name)
        .map_err(|e| e.to_string())?;
    Ok((
        batch.schema_ref().field(i).clone(),
        Arc::clone(batch.column(i)),
    ))
}

/// Fails each pin of [`pins::COLUMNS`] that no file showed (`shown` counts them); prints
/// the others with their reasons.
fn check_column_pins(tally: &mut Tally, shown: &[usize], all: bool) {
    for (pin, &count) in pins::COLUMNS.iter().zip(shown) {
        let columns: Vec<&str> = pin.columns.iter().map(|c| c.name).collect();
        let what = format!("columns {} of {}", columns.join(" "), pin.files.join(" "));
        if count > 0 {
            println!(
                "PINNED {what} ({}), {count} times: {}",
                pin.kind.label(),
                pin.why
            );
        } else if all {
            tally.fail(
                &format!("arrow/pins.rs COLUMNS {what}"),
                "no file shows it: take it off",
            );
        }
    }
}

/// Our reader's table of `input`, its batches of at most `batch_size` rows.
fn read_ours(input: &Input, batch_size: usize) -> Result<Table, String> {
    let file =
        std::fs::File::open(&input.path).map_err(|e| format!("{}: {e}", input.path.display()))?;
    let read = || -> Result<Table, String> {
        let (schema, batches) = match input.format {
            Format::Parquet => {
                let mut options = ReadOptions::new();
                if let Some(decryption) = &input.decryption {
                    options = options.with_decryption(decryption.clone());
                }
                let reader = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options)
                    .and_then(|b| b.with_batch_size(batch_size).build())
                    .map_err(|e| e.to_string())?;
                let schema = arrow_array::RecordBatchReader::schema(&reader);
                (schema, reader.collect::<Result<Vec<_>, _>>())
            }
            Format::Orc => {
                let reader = OrcRecordBatchReaderBuilder::try_new(file)
                    .and_then(|b| b.with_batch_size(batch_size).build())
                    .map_err(|e| e.to_string())?;
                let schema = arrow_array::RecordBatchReader::schema(&reader);
                (schema, reader.collect::<Result<Vec<_>, _>>())
            }
        };
        let batches = batches.map_err(|e| e.to_string())?;
        if let Some(batch) = batches.iter().find(|b| b.num_rows() > batch_size) {
            return Err(format!(
                "a batch of {} rows, where at most {batch_size} were asked",
                batch.num_rows()
            ));
        }
        if let Some(batch) = batches.iter().find(|b| b.schema() != schema) {
            return Err(format!(
                "a batch of schema {}, where the reader's is {schema}",
                batch.schema()
            ));
        }
        Table::new(&schema, batches)
    };
    catch_unwind(AssertUnwindSafe(read)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        Err(format!("panicked: {message}"))
    })
}

/// Reads a small file again in batches of [`SMALL_BATCH_SIZE`] rows, which must make the
/// same table as `first`; a note for the tally.
fn second_reading(input: &Input, first: &Table) -> Result<String, String> {
    if first.rows() > SECOND_READING_ROWS {
        return Ok(String::new());
    }
    let again = read_ours(input, SMALL_BATCH_SIZE)
        .map_err(|e| format!("in batches of {SMALL_BATCH_SIZE} rows: {e}"))?;
    let found = differences(&first.all, &again.all, "ours");
    if found.is_empty() {
        Ok(format!(
            " (also in {} batches of {SMALL_BATCH_SIZE})",
            again.batches.len()
        ))
    } else {
        let lines: Vec<String> = found.iter().map(ToString::to_string).collect();
        Err(format!(
            "in batches of {SMALL_BATCH_SIZE} rows, not the table of batches of {BATCH_SIZE}: {}",
            lines.join("\n      ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decryption_options_from_pqkit_arguments() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let hex = "30313233343536373839303132333435";
        assert!(decryption(&args(&["--footer-key", hex])).is_ok());
        let column = format!("a.b:{hex}");
        assert!(decryption(&args(&["--column-key", &column, "--aad-prefix", "x"])).is_ok());
        assert!(decryption(&args(&["--footer-key", "3x"])).is_err());
        assert!(decryption(&args(&["--footer-key", "3031"])).is_err());
        assert!(decryption(&args(&["--footer-key"])).is_err());
        assert!(decryption(&args(&["--other", "1"])).is_err());
    }
}
