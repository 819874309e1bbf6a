//! The write side of `cargo xtask interop`: files that parquet-file's `FileWriter` writes
//! (`cases.rs` says which: every physical and main logical type, nullable and required,
//! nested shapes with nulls at every level, every encoding, codec and page version,
//! statistics, page indexes, Bloom filters, encryption), each read by pyarrow, `DuckDB`
//! and polars (`xtask/python/peers.py`) and by pqkit, and compared row for row with the
//! rows written, as the rows contract prints them (`json.rs`, from the values given to
//! the writer).
//!
//! Besides the rows: pyarrow's view of the statistics (bounds, null counts, distinct
//! counts) must be what the data says (`statistics.rs`), and its flags of column
//! indexes, offset indexes and Bloom filters what the options asked for; the sorted
//! table's files (sorted columns, many pages and row groups) are filtered by each peer
//! (pyarrow with `read_table(filters=)`, which skips row groups by their statistics;
//! `DuckDB` with `WHERE`; polars with `filter`) and must give the rows the filter
//! selects; Bloom filters must hold
//! every value of their chunk, both as our reader probes them (hashing the PLAIN bytes
//! itself) and as `DuckDB`'s `parquet_bloom_probe` does, and must exclude most values
//! that are not there. Our reader also verifies each file (checksums, statistics, page
//! indexes, Bloom filters against the data).
//!
//! A file that a peer cannot read although the format allows it is listed, with what the
//! peer says, in [`EXPECTED_REFUSALS`]; every other refusal, a listed one that says
//! something else, and a listed file that the peer reads fail the run.

mod cases;
mod data;
pub(crate) mod json;
mod refusals;
mod statistics;

use crate::python::{Python, read};
use crate::rows::{self, Pqkit, Reference, Tally};
use cases::{COLUMN_KEYS, Crypto, Setup, Stats, Values};
use data::{Leaf, Rng, Spec, Table};
use parquet_file::{
    Bytes, ColumnBatch, ColumnPath, ColumnValues, DecryptionOptions, Field, FileReader, FileWriter,
    Key, PhysicalType, ReadOptions, Row, Schema, WriterOptions,
};
use refusals::{EXPECTED_REFUSALS, PEERS, WRITER_BUGS, refusal, writer_bug};
use serde_json::{Value, json};
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

/// A table's schema, rows, and the rows as the rows contract prints them.
struct Prepared {
    specs: Vec<Spec>,
    schema: Arc<Schema>,
    rows: Vec<Row>,
    expected: String,
    /// Each leaf column's path and type.
    leaves: Vec<(ColumnPath, Leaf)>,
    /// A plaintext file of the schema and no rows, from which peers.py reads the schema
    /// of the encrypted files.
    schema_file: PathBuf,
}

impl Prepared {
    fn new(table: Table, dir: &Path) -> Result<Self, String> {
        let specs = table.specs();
        let schema = Arc::new(table.schema()?);
        let rows = table.generate();
        let expected = rows.iter().map(|r| json::row(r) + "\n").collect();
        let mut types = Vec::new();
        for spec in &specs {
            spec.leaf_types(&mut types);
        }
        let leaves = schema
            .columns()
            .iter()
            .zip(types)
            .map(|(column, leaf)| (column.path.clone(), leaf))
            .collect();
        let schema_file = dir.join(format!("schema-{}.parquet", table.name()));
        let mut writer = FileWriter::new(Vec::new(), schema.clone(), WriterOptions::new())
            .map_err(|e| format!("{}: {e}", schema_file.display()))?;
        writer
            .finish()
            .map_err(|e| format!("{}: {e}", schema_file.display()))?;
        std::fs::write(&schema_file, writer.into_inner())
            .map_err(|e| format!("{}: {e}", schema_file.display()))?;
        Ok(Self {
            specs,
            schema,
            rows,
            expected,
            leaves,
            schema_file,
        })
    }
}

/// A file written, and the rows of each of its row groups.
struct Written {
    setup: Setup,
    name: String,
    path: PathBuf,
    group_rows: Vec<usize>,
}

impl Written {
    /// The rows the file holds: its table's, or none.
    fn rows<'a>(&self, prepared: &'a Prepared) -> &'a [Row] {
        if self.setup.empty {
            &[]
        } else {
            &prepared.rows
        }
    }

    /// The rows the file holds, as the rows contract prints them.
    fn expected<'a>(&self, prepared: &'a Prepared) -> &'a str {
        if self.setup.empty {
            ""
        } else {
            &prepared.expected
        }
    }
}

/// Writes the files of `cases.rs` whose names contain one of `filters` (all without
/// filters) into `<target>/interop/written`, has the peers read them, and records each
/// file's outcome in `tally`; the number of files.
pub(crate) fn run(
    python: &Python,
    pqkit: &Pqkit,
    target: &Path,
    filters: &[String],
    tally: &mut Tally,
) -> Result<usize, String> {
    let started = Instant::now();
    let dir = target.join("interop").join("written");
    let files = dir.join("files");
    let out = dir.join("peers");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for d in [&files, &out] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let setups: Vec<Setup> = cases::all()
        .into_iter()
        .filter(|s| {
            let name = s.file_name();
            filters.is_empty() || filters.iter().any(|f| name.contains(f))
        })
        .collect();
    if filters.is_empty() {
        check_listed(tally, &setups);
    }
    if setups.is_empty() {
        return Ok(0);
    }

    let mut tables: BTreeMap<Table, Prepared> = BTreeMap::new();
    let mut written = Vec::new();
    for setup in setups {
        if let Entry::Vacant(entry) = tables.entry(setup.table) {
            entry.insert(Prepared::new(setup.table, &dir)?);
        }
        let prepared = &tables[&setup.table];
        let name = setup.file_name();
        let path = files.join(&name);
        match write(&setup, prepared, &path) {
            Ok(group_rows) => written.push(Written {
                setup,
                name,
                path,
                group_rows,
            }),
            Err(e) => tally.fail(&name, &format!("FileWriter: {e}")),
        }
    }
    println!(
        "interop: wrote {} files with FileWriter in {:.1} s",
        written.len(),
        started.elapsed().as_secs_f64()
    );

    let reading = Instant::now();
    let jobs: Vec<(String, Value)> = written
        .iter()
        .map(|w| (w.name.clone(), job(w, &tables[&w.setup.table])))
        .collect();
    run_peers(python, &jobs, &dir, &out)?;
    println!(
        "interop: pyarrow, DuckDB and polars read them in {:.1} s",
        reading.elapsed().as_secs_f64()
    );
    for w in &written {
        let prepared = &tables[&w.setup.table];
        let mut check = Check::default();
        check_file(w, prepared, pqkit, &out, &mut check);
        if check.problems.is_empty() {
            tally.pass(&w.name, &check.notes.join("; "));
        } else {
            tally.fail(&w.name, &check.problems.join("\n      "));
        }
    }
    Ok(written.len())
}

/// Fails each file of [`EXPECTED_REFUSALS`] and [`WRITER_BUGS`] that `cases.rs` does not
/// write.
fn check_listed(tally: &mut Tally, setups: &[Setup]) {
    let files: Vec<PathBuf> = setups
        .iter()
        .map(|s| PathBuf::from(s.file_name()))
        .collect();
    let listed = EXPECTED_REFUSALS
        .iter()
        .flat_map(|r| {
            r.files
                .iter()
                .map(|f| (*f, "the write side's EXPECTED_REFUSALS"))
        })
        .chain(WRITER_BUGS.iter().map(|b| (b.file, "WRITER_BUGS")));
    rows::fail_unlisted(tally, &files, listed, "cases.rs does not write it");
}

/// Writes the file of `setup`; the rows of each row group.
fn write(setup: &Setup, prepared: &Prepared, path: &Path) -> Result<Vec<usize>, String> {
    let options = setup.options(&prepared.leaves)?;
    let mut writer =
        FileWriter::new(Vec::new(), prepared.schema.clone(), options).map_err(|e| e.to_string())?;
    let rows = if setup.empty { &[][..] } else { &prepared.rows };
    for row in rows {
        writer.write_row(row).map_err(|e| e.to_string())?;
    }
    let metadata = writer.finish().map_err(|e| e.to_string())?;
    std::fs::write(path, writer.into_inner()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(metadata
        .row_groups()
        .iter()
        .map(|g| usize::try_from(g.num_rows()).unwrap_or(0))
        .collect())
}

// ---------------------------------------------------------------------------------------
// What the peers are asked

/// The keys of an encrypted file, as peers.py takes them.
fn keys(crypto: Crypto) -> Value {
    let text = |key: &[u8]| String::from_utf8_lossy(key).into_owned();
    let columns: serde_json::Map<String, Value> = if crypto.column_keys() {
        COLUMN_KEYS
            .iter()
            .map(|(path, key)| ((*path).to_owned(), Value::from(text(key))))
            .collect()
    } else {
        serde_json::Map::new()
    };
    json!({
        "footer": text(crypto.footer_key()),
        "columns": columns,
        "aad_prefix": crypto.supplied_prefix(),
    })
}

/// pqkit's options to decrypt a file.
fn key_args(crypto: Option<Crypto>) -> Vec<String> {
    let Some(crypto) = crypto else {
        return Vec::new();
    };
    let hex = |key: &[u8]| {
        key.iter().fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    };
    let mut args = vec!["--footer-key".to_owned(), hex(crypto.footer_key())];
    if crypto.column_keys() {
        for (path, key) in COLUMN_KEYS {
            args.push("--column-key".to_owned());
            args.push(format!("{path}:{}", hex(key)));
        }
    }
    if let Some(prefix) = crypto.supplied_prefix() {
        args.push("--aad-prefix".to_owned());
        args.push(prefix.to_owned());
    }
    args
}

/// A condition of a filter: a column, an operator, a literal.
type Condition = (&'static str, &'static str, Literal);

/// A literal of a filter.
#[derive(Debug, Clone, Copy)]
enum Literal {
    Int(i64),
    Str(&'static str),
    /// Days since the epoch.
    Day(i32),
}

/// The filters of the sorted table's files: ranges of the sorted columns (which
/// statistics and page indexes serve) and an equality on an unsorted one.
const FILTERS: &[&[Condition]] = &[
    &[
        ("id", ">=", Literal::Int(1234)),
        ("id", "<", Literal::Int(1300)),
    ],
    &[("key", "==", Literal::Str("k000777"))],
    &[
        ("day", ">=", Literal::Day(17_100)),
        ("day", "<", Literal::Day(17_103)),
    ],
    &[
        ("word", "==", Literal::Str("日本語")),
        ("id", ">", Literal::Int(1500)),
    ],
];

fn literal_json(literal: Literal) -> Value {
    match literal {
        Literal::Int(i) => Value::from(i),
        Literal::Str(s) => Value::from(s),
        Literal::Day(d) => json!({ "date": json::date(i128::from(d)) }),
    }
}

/// Whether `row` passes all of `conditions` (a null passes none).
fn passes(row: &Row, conditions: &[Condition]) -> bool {
    conditions.iter().all(|(column, op, literal)| {
        let ordering = match (row.get(column), literal) {
            (Some(Field::Int(v)), Literal::Int(l)) => v.cmp(l),
            (Some(Field::Str(v)), Literal::Str(l)) => v.as_str().cmp(l),
            (Some(Field::Date(v)), Literal::Day(l)) => v.cmp(l),
            _ => return false,
        };
        match *op {
            "==" => ordering.is_eq(),
            "<" => ordering.is_lt(),
            "<=" => ordering.is_le(),
            ">" => ordering.is_gt(),
            ">=" => ordering.is_ge(),
            _ => false,
        }
    })
}

/// The top-level columns whose Bloom filters `DuckDB` probes, with values as
/// `parquet_bloom_probe` takes them.
const PROBED: &[&str] = &["int32", "int64", "string", "words", "id", "key", "word"];

/// Values to probe the Bloom filter of `column` with: some that are in the file, then
/// some that are not.
fn probes(rows: &[Row], column: &str) -> (Vec<Value>, Vec<Value>) {
    let mut present: Vec<Value> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut kind = None;
    for row in rows {
        let value = match row.get(column) {
            Some(Field::Int(i)) => Value::from(*i),
            Some(Field::Str(s)) => Value::from(s.as_str()),
            _ => continue,
        };
        kind = Some(value.is_string());
        if seen.insert(value.to_string()) && present.len() < 8 {
            present.push(value);
        }
    }
    let absent = (0..16)
        .map(|i| match kind {
            Some(true) => Value::from(format!("absent-{i}")),
            _ => Value::from(1_000_003 * (i + 7) + 123_456_789),
        })
        .filter(|v| !seen.contains(&v.to_string()))
        .collect();
    (present, absent)
}

/// What peers.py is asked to do with a file.
fn job(w: &Written, prepared: &Prepared) -> Value {
    let setup = &w.setup;
    let mut job = json!({
        "file": w.path,
        "schema": if setup.crypto.is_some() { &prepared.schema_file } else { &w.path },
        "peers": PEERS.iter().map(|p| p.name()).collect::<Vec<_>>(),
        "keys": setup.crypto.map(keys),
        "statistics": setup.crypto.is_none(),
    });
    if setup.table == Table::Sorted {
        job["filters"] = FILTERS
            .iter()
            .map(|conditions| {
                conditions
                    .iter()
                    .map(|(c, op, l)| json!([c, op, literal_json(*l)]))
                    .collect::<Value>()
            })
            .collect();
    }
    if setup.bloom && setup.crypto.is_none() {
        let mut bloom = Vec::new();
        for spec in prepared.specs.iter().filter(|s| PROBED.contains(&s.name)) {
            let (present, absent) = probes(&prepared.rows, spec.name);
            for value in present.into_iter().chain(absent) {
                bloom.push(json!([spec.name, value]));
            }
        }
        if !bloom.is_empty() {
            job["bloom"] = Value::from(bloom);
        }
    }
    job
}

/// Runs peers.py on `jobs` (each with its file's name), in two processes (the machines
/// have two cores), their standard error (where polars prints its panics) in
/// `peers-<n>-<attempt>.log`. A process that dies (Arrow C++ aborts on some input) is
/// started again past the job it died on, whose `<name>.crash` then says at which step,
/// and what the process printed last.
fn run_peers(
    python: &Python,
    jobs: &[(String, Value)],
    dir: &Path,
    out: &Path,
) -> Result<(), String> {
    std::thread::scope(|scope| {
        let halves: Vec<_> = (0..2)
            .map(|half| {
                let mine: Vec<&(String, Value)> = jobs.iter().skip(half).step_by(2).collect();
                scope.spawn(move || run_half(python, half, &mine, dir, out))
            })
            .collect();
        halves.into_iter().try_for_each(|h| {
            h.join()
                .unwrap_or_else(|_| Err("a thread running peers.py panicked".to_owned()))
        })
    })
}

/// One process of [`run_peers`], started again after each job it dies on.
fn run_half(
    python: &Python,
    half: usize,
    jobs: &[&(String, Value)],
    dir: &Path,
    out: &Path,
) -> Result<(), String> {
    let mut rest = jobs;
    for attempt in 0.. {
        if rest.is_empty() {
            break;
        }
        let path = dir.join(format!("jobs-{half}-{attempt}.json"));
        let values: Vec<&Value> = rest.iter().map(|(_, job)| job).collect();
        let text = serde_json::to_string(&values).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let log = dir.join(format!("peers-{half}-{attempt}.log"));
        let stderr = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let mut command: Command = python.script("peers.py");
        command
            .arg(&path)
            .arg(out)
            .env("RUST_BACKTRACE", "0")
            // peers.py imports rows.py: no __pycache__ in the source tree.
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .stderr(stderr);
        let status = command
            .status()
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        if status.success() {
            break;
        }
        let tail = {
            let text = read(&log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(3)..].join(" | ")
        };
        let step = |name: &str| read(&out.join(format!("{name}.step"))).ok();
        let Some(at) = rest
            .iter()
            .position(|(name, _)| step(name).as_deref() != Some("done"))
        else {
            return Err(format!("{command:?} failed with {status}: {tail}"));
        };
        let name = &rest[at].0;
        let Some(step) = step(name) else {
            // Dead before it began the job: the script's fault, not a peer's.
            return Err(format!("{command:?} failed with {status}: {tail}"));
        };
        let crash = out.join(format!("{name}.crash"));
        std::fs::write(&crash, format!("{step} ({status}): {tail}"))
            .map_err(|e| format!("{}: {e}", crash.display()))?;
        rest = &rest[at + 1..];
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Checking a file

/// What was found on one file.
#[derive(Default)]
struct Check {
    notes: Vec<String>,
    problems: Vec<String>,
}

/// What a peer made of a file (or of a filter on it): `<base>.jsonl`, `.error`, `.fault`.
fn outcome(base: &Path) -> Reference {
    let with = |suffix: &str| {
        let mut path = base.as_os_str().to_owned();
        path.push(suffix);
        PathBuf::from(path)
    };
    if let Ok(rows) = std::fs::read_to_string(with(".jsonl")) {
        return Reference::Rows(rows);
    }
    if let Ok(said) = std::fs::read_to_string(with(".error")) {
        return Reference::Refused(said.trim_end().to_owned());
    }
    match std::fs::read_to_string(with(".fault")) {
        Ok(fault) => Reference::Fault(fault.lines().last().unwrap_or("").to_owned()),
        Err(_) => Reference::Fault("peers.py wrote nothing".to_owned()),
    }
}

/// Every check of a file: by our reader, by the peers (rows, filters, metadata, Bloom
/// filter probes).
fn check_file(w: &Written, prepared: &Prepared, pqkit: &Pqkit, out: &Path, check: &mut Check) {
    check_ours(w, prepared, pqkit, check);
    check_crash(w, out, check);
    check_rows(w, prepared, out, check);
    if w.setup.table == Table::Sorted {
        check_filters(w, prepared, out, check);
    }
    let statistics = out.join(format!("{}.statistics.json", w.name));
    if w.setup.crypto.is_none() && writer_bug(&w.name).is_none() {
        match read(&statistics).and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string())) {
            Ok(metadata) => check_metadata(w, prepared, &metadata, check),
            Err(e) => check.problems.push(format!("pyarrow's metadata: {e}")),
        }
    }
    if w.setup.bloom
        && w.setup.crypto.is_none()
        && prepared.specs.iter().any(|s| PROBED.contains(&s.name))
    {
        check_probes(w, prepared, out, check);
    }
}

/// Our reader: pqkit's rows, the file verified by pqkit (checksums, statistics, page
/// indexes, Bloom filters against the data), and the Bloom filters probed.
fn check_ours(w: &Written, prepared: &Prepared, pqkit: &Pqkit, check: &mut Check) {
    let rows = w.rows(prepared).len();
    match rows::check(
        pqkit,
        &w.path,
        &key_args(w.setup.crypto),
        w.expected(prepared),
    ) {
        Ok(_) => check.notes.push(format!("{rows} rows by pqkit")),
        Err(e) => check.problems.push(format!("pqkit: {e}")),
    }
    let mut args = vec![OsString::from("verify"), w.path.clone().into()];
    args.extend(key_args(w.setup.crypto).into_iter().map(OsString::from));
    match pqkit.run(&args) {
        Ok(output) if output.code == Some(0) => check.notes.push("verified by pqkit".to_owned()),
        Ok(output) => check
            .problems
            .push(format!("pqkit verify: {}", output.describe())),
        Err(e) => check.problems.push(format!("pqkit verify: {e}")),
    }
    if w.setup.bloom
        && let Err(e) = bloom_filters(w, check)
    {
        check.problems.push(format!("our reader: {e}"));
    }
}

/// A peer that aborted peers.py on the file, as it must where [`WRITER_BUGS`] says so.
fn check_crash(w: &Written, out: &Path, check: &mut Check) {
    let crash = read(&out.join(format!("{}.crash", w.name))).ok();
    match (crash, writer_bug(&w.name)) {
        (Some(crash), Some(bug)) if crash.starts_with(bug.step) && crash.contains(bug.says) => {
            check
                .notes
                .push(format!("{} aborts, as WRITER_BUGS pins", bug.step));
        }
        (Some(crash), Some(bug)) => check.problems.push(format!(
            "peers.py died while {crash}, where WRITER_BUGS expects {:?} while {}",
            bug.says, bug.step
        )),
        (Some(crash), None) => check.problems.push(format!("peers.py died while {crash}")),
        (None, Some(bug)) => check.problems.push(format!(
            "the writer bug pinned in WRITER_BUGS no longer shows: take it off ({})",
            bug.bug
        )),
        (None, None) => {}
    }
}

/// Each peer's rows, equal to those written, or refused or misread as
/// [`EXPECTED_REFUSALS`] says.
fn check_rows(w: &Written, prepared: &Prepared, out: &Path, check: &mut Check) {
    let mut read_by = Vec::new();
    for peer in PEERS {
        let base = out.join(format!("{}.{}", w.name, peer.name()));
        match (outcome(&base), refusal(&w.name, peer)) {
            (Reference::Rows(got), None) => match rows::compare(w.expected(prepared), &got) {
                Ok(_) => read_by.push(peer.name()),
                Err(e) => check.problems.push(format!("{}: {e}", peer.name())),
            },
            (Reference::Rows(got), Some(r)) => match rows::compare(w.expected(prepared), &got) {
                Ok(_) => check.problems.push(format!(
                    "{} now reads it: take it off the write side's EXPECTED_REFUSALS \
                     (which says: {})",
                    peer.name(),
                    r.why
                )),
                Err(e) if e.contains(r.says) => {
                    check
                        .notes
                        .push(format!("{} misreads it, as listed", peer.name()));
                }
                Err(e) => check.problems.push(format!(
                    "{} misreads it otherwise than EXPECTED_REFUSALS says ({:?}): {e}",
                    peer.name(),
                    r.says
                )),
            },
            (Reference::Refused(said), None) => check.problems.push(format!(
                "{} refuses it, and EXPECTED_REFUSALS does not list it: {said}",
                peer.name()
            )),
            (Reference::Refused(said), Some(r)) if !said.contains(r.says) => {
                check.problems.push(format!(
                    "{} refuses it without saying {:?}, as EXPECTED_REFUSALS expects \
                     ({}): {said}",
                    peer.name(),
                    r.says,
                    r.why
                ));
            }
            (Reference::Refused(_), Some(_)) => {
                check
                    .notes
                    .push(format!("{} refuses it, as listed", peer.name()));
            }
            (Reference::Fault(last), _) => check
                .problems
                .push(format!("peers.py failed on {}: {last}", peer.name())),
        }
    }
    if !read_by.is_empty() {
        check.notes.push(format!("equal by {}", read_by.join(", ")));
    }
}

/// Each filter of [`FILTERS`], by each peer that reads the file.
fn check_filters(w: &Written, prepared: &Prepared, out: &Path, check: &mut Check) {
    let mut selected = 0;
    for (i, conditions) in FILTERS.iter().enumerate() {
        let expected: String = prepared
            .rows
            .iter()
            .filter(|r| passes(r, conditions))
            .map(|r| json::row(r) + "\n")
            .collect();
        selected += expected.lines().count();
        for peer in PEERS.into_iter().filter(|p| refusal(&w.name, *p).is_none()) {
            let base = out.join(format!("{}.filter-{i}.{}", w.name, peer.name()));
            let problem = match outcome(&base) {
                Reference::Rows(got) => rows::compare(&expected, &got).err(),
                Reference::Refused(said) => Some(format!("refused: {said}")),
                Reference::Fault(last) => Some(format!("peers.py failed: {last}")),
            };
            if let Some(problem) = problem {
                check.problems.push(format!(
                    "{} filtered by {conditions:?}: {problem}",
                    peer.name()
                ));
            }
        }
    }
    check.notes.push(format!(
        "{} filters selecting {selected} rows",
        FILTERS.len()
    ));
}

/// pyarrow's view of the metadata (`peers.py`'s statistics) against the data and the
/// options.
fn check_metadata(w: &Written, prepared: &Prepared, metadata: &Value, check: &mut Check) {
    let Some(groups) = metadata["row_groups"].as_array() else {
        check
            .problems
            .push("pyarrow's metadata: no row groups".to_owned());
        return;
    };
    check_footer(w, metadata, check);
    let setup = &w.setup;
    if groups.len() != w.group_rows.len() {
        check.problems.push(format!(
            "pyarrow reads {} row groups, the writer wrote {}",
            groups.len(),
            w.group_rows.len()
        ));
        return;
    }
    let mut start = 0;
    let mut chunks = 0;
    for (g, (group, &n)) in groups.iter().zip(&w.group_rows).enumerate() {
        let slice = w.rows(prepared).get(start..start + n).unwrap_or_default();
        start += n;
        if group["num_rows"].as_u64() != u64::try_from(n).ok() {
            check.problems.push(format!(
                "row group {g}: pyarrow reads {} rows, the writer wrote {n}",
                group["num_rows"]
            ));
        }
        let values = data::leaf_values(&prepared.specs, slice);
        let columns = group["columns"].as_array().map_or(&[][..], Vec::as_slice);
        for (c, (column, ((path, leaf), values))) in columns
            .iter()
            .zip(prepared.leaves.iter().zip(&values))
            .enumerate()
        {
            let mut problems = Vec::new();
            let flag = |name: &str| column[name].as_bool().unwrap_or(false);
            if flag("has_offset_index") != setup.page_index {
                problems.push(format!("has_offset_index {}", flag("has_offset_index")));
            }
            // INT96 has no column index: its order is undefined, so its pages have no
            // bounds.
            let column_index =
                setup.page_index && setup.statistics == Stats::Page && *leaf != Leaf::Int96;
            if flag("has_column_index") != column_index {
                problems.push(format!("has_column_index {}", flag("has_column_index")));
            }
            // No filter for BOOLEAN: two values need none.
            let bloom = setup.bloom && leaf.physical() != PhysicalType::Boolean;
            if flag("has_bloom_filter") != bloom {
                problems.push(format!("has_bloom_filter {}", flag("has_bloom_filter")));
            }
            match (&column["statistics"], setup.statistics) {
                (Value::Null, Stats::None) => {}
                (Value::Null, _) => problems.push("no statistics".to_owned()),
                (read, Stats::None) => problems.push(format!("statistics {read}")),
                (read, _) => problems.extend(statistics::compare(
                    &statistics::Expected {
                        leaf: *leaf,
                        values,
                        distinct_count: setup.distinct_count.then_some(
                            matches!(setup.values, Values::Dictionary | Values::LegacyDictionary)
                                && !matches!(leaf, Leaf::Float | Leaf::Double | Leaf::Bool),
                        ),
                        truncate: setup.truncate.then_some(cases::TRUNCATED),
                    },
                    read,
                )),
            }
            if column["path"].as_str() != Some(path.to_string().as_str()) {
                problems.push(format!("path {}", column["path"]));
            }
            for problem in problems {
                check
                    .problems
                    .push(format!("row group {g} column {c} ({path}): {problem}"));
            }
            chunks += 1;
        }
    }
    check
        .notes
        .push(format!("metadata of {chunks} chunks as pyarrow reads it"));
}

/// The key-value metadata and the sorting columns of each row group, as pyarrow reads
/// them: those of the sorted table's files, none in the others.
fn check_footer(w: &Written, metadata: &Value, check: &mut Check) {
    let sorted = w.setup.table == Table::Sorted;
    let (key, value) = cases::KEY_VALUE;
    let key_value = &metadata["key_value"];
    if sorted && key_value[key].as_str() != Some(value) {
        check.problems.push(format!(
            "key-value metadata {key_value}, without {key}: {value}"
        ));
    }
    let sorting = if sorted {
        json!([[0, false, false]])
    } else {
        json!([])
    };
    for (g, group) in metadata["row_groups"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .enumerate()
    {
        if group["sorting_columns"] != sorting {
            check.problems.push(format!(
                "row group {g}: sorting columns {}, where the writer was given {sorting}",
                group["sorting_columns"]
            ));
        }
    }
}

/// `DuckDB`'s `parquet_bloom_probe` of the values of [`probes`]: a value in a row group is
/// never excluded from it, and most of those that are nowhere are excluded.
fn check_probes(w: &Written, prepared: &Prepared, out: &Path, check: &mut Check) {
    let path = out.join(format!("{}.bloom.json", w.name));
    let probed: Value =
        match read(&path).and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string())) {
            Ok(probed) => probed,
            Err(e) => {
                check
                    .problems
                    .push(format!("DuckDB's Bloom filter probes: {e}"));
                return;
            }
        };
    let mut groups = Vec::new();
    let mut start = 0;
    for &n in &w.group_rows {
        groups.push(w.rows(prepared).get(start..start + n).unwrap_or_default());
        start += n;
    }
    let (mut absent, mut excluded) = (0, 0);
    for probe in probed.as_array().map_or(&[][..], Vec::as_slice) {
        let (column, value) = (probe[0].as_str().unwrap_or(""), &probe[1]);
        let results = probe[2].as_array().map_or(&[][..], Vec::as_slice);
        if results.len() != groups.len() {
            check.problems.push(format!(
                "DuckDB probes {column} = {value} in {} row groups of {}",
                results.len(),
                groups.len()
            ));
            continue;
        }
        for (g, (result, rows)) in results.iter().zip(&groups).enumerate() {
            let here = rows.iter().any(|r| match (r.get(column), value) {
                (Some(Field::Int(i)), Value::Number(n)) => n.as_i64() == Some(*i),
                (Some(Field::Str(s)), Value::String(v)) => s == v,
                _ => false,
            });
            let is_excluded = result.as_bool() == Some(true);
            if here && is_excluded {
                check.problems.push(format!(
                    "DuckDB's parquet_bloom_probe excludes {column} = {value} from row group {g}, which holds it"
                ));
            }
            if !w
                .rows(prepared)
                .iter()
                .any(|r| match (r.get(column), value) {
                    (Some(Field::Int(i)), Value::Number(n)) => n.as_i64() == Some(*i),
                    (Some(Field::Str(s)), Value::String(v)) => s == v,
                    _ => false,
                })
            {
                absent += 1;
                excluded += usize::from(is_excluded);
            }
        }
    }
    if absent == 0 || excluded * 2 < absent {
        check.problems.push(format!(
            "DuckDB's parquet_bloom_probe excludes {excluded} of {absent} probes of values absent from the file"
        ));
    } else {
        check.notes.push(format!(
            "DuckDB's Bloom filter probes exclude {excluded} of {absent} absent values"
        ));
    }
}

/// Each Bloom filter, as our reader reads it, probed with the PLAIN bytes of its chunk's
/// values (hashed by the filter's own code, not by the writer's) and of values not there.
fn bloom_filters(w: &Written, check: &mut Check) -> Result<(), String> {
    let bytes = std::fs::read(&w.path).map_err(|e| format!("{}: {e}", w.path.display()))?;
    let mut options = ReadOptions::new().verify_checksums(true);
    if let Some(crypto) = w.setup.crypto {
        let key = |k: &[u8]| Key::try_new(k).map_err(|e| e.to_string());
        let mut decryption = DecryptionOptions::new().with_footer_key(key(crypto.footer_key())?);
        if crypto.column_keys() {
            for (path, k) in COLUMN_KEYS {
                decryption = decryption.with_column_key(*path, key(k)?);
            }
        }
        if let Some(prefix) = crypto.supplied_prefix() {
            decryption = decryption.with_aad_prefix(prefix.as_bytes().to_vec());
        }
        options = options.with_decryption(decryption);
    }
    let reader =
        FileReader::with_options(Bytes::from(bytes), options).map_err(|e| e.to_string())?;
    let (mut filters, mut absent, mut positives) = (0, 0, 0);
    let mut rng = Rng::new(7);
    for g in 0..reader.num_row_groups() {
        for (c, column) in reader.schema().columns().iter().enumerate() {
            let filter = reader.bloom_filter(g, c).map_err(|e| e.to_string())?;
            let Some(filter) = filter.filter(|_| column.physical_type != PhysicalType::Boolean)
            else {
                if column.physical_type == PhysicalType::Boolean {
                    continue;
                }
                check.problems.push(format!(
                    "row group {g}: no Bloom filter for {}",
                    column.path
                ));
                continue;
            };
            filters += 1;
            let mut batch = ColumnBatch::new(column);
            let mut chunk = reader.column_chunk(g, c).map_err(|e| e.to_string())?;
            while chunk
                .read_records(1 << 16, &mut batch)
                .map_err(|e| e.to_string())?
                > 0
            {}
            let present = plain_values(batch.values());
            let set: BTreeSet<&Vec<u8>> = present.iter().collect();
            if let Some(missing) = present.iter().find(|v| !filter.check(&v[..])) {
                check.problems.push(format!(
                    "row group {g}: the Bloom filter of {} lacks the value of PLAIN bytes {missing:?}",
                    column.path
                ));
            }
            let width = present.first().map_or(8, Vec::len);
            for _ in 0..64 {
                let probe: Vec<u8> = (0..width).map(|_| rng.next().to_le_bytes()[0]).collect();
                if !set.contains(&probe) {
                    absent += 1;
                    positives += usize::from(filter.check(&probe[..]));
                }
            }
        }
    }
    if positives * 5 > absent {
        check.problems.push(format!(
            "the Bloom filters hold {positives} of {absent} random values not in their chunks"
        ));
    }
    check.notes.push(format!(
        "{filters} Bloom filters hold their values and {positives} of {absent} others"
    ));
    Ok(())
}

/// The PLAIN bytes of each value (a byte array without its length).
fn plain_values(values: &ColumnValues) -> Vec<Vec<u8>> {
    match values {
        ColumnValues::Boolean(v) => v.iter().map(|b| vec![u8::from(*b)]).collect(),
        ColumnValues::Int32(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::Int64(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::Int96(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::Float(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::Double(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::ByteArray(v) => v.iter().map(<[u8]>::to_vec).collect(),
        ColumnValues::FixedLenByteArray(v) => v.iter().map(<[u8]>::to_vec).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_refusals_are_written_files() {
        let names: BTreeSet<String> = cases::all().iter().map(Setup::file_name).collect();
        for (i, r) in EXPECTED_REFUSALS.iter().enumerate() {
            assert!(!r.says.is_empty() && !r.why.is_empty());
            for file in r.files {
                assert!(names.contains(*file), "{file} is not written");
                assert!(
                    EXPECTED_REFUSALS[..i]
                        .iter()
                        .all(|o| o.peer != r.peer || !o.files.contains(file)),
                    "{file} listed twice for {:?}",
                    r.peer
                );
            }
        }
    }

    #[test]
    fn tables_shred_and_print() {
        for table in [
            Table::Flat,
            Table::Nested,
            Table::Sorted,
            Table::FlbaOptional,
        ] {
            let schema = table.schema().unwrap();
            let mut writer = FileWriter::new(Vec::new(), schema, WriterOptions::new()).unwrap();
            for row in table.generate() {
                writer.write_row(&row).unwrap();
                assert!(json::row(&row).starts_with('{'));
            }
            writer.finish().unwrap();
        }
    }

    #[test]
    fn filters_select_rows() {
        let rows = Table::Sorted.generate();
        for conditions in FILTERS {
            let n = rows.iter().filter(|r| passes(r, conditions)).count();
            assert!(n > 0 && n < rows.len(), "{conditions:?} selects {n}");
        }
    }
}
