//! What `conformance` and `interop` share: the reference rows that `xtask/python/rows.py`
//! makes with pyarrow (or `DuckDB`, for files that pyarrow refuses), running
//! `pqkit cat --format jsonl`, comparing the two row by row, and the tally of files that
//! passed and failed.

use crate::python::{Python, read};
use crate::{cargo, run};
use serde_json::Value;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What is expected of pqkit on a file that pyarrow refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expected {
    /// These rows, as JSONL.
    Rows(&'static str),
    /// Exit status 1, with this in its message.
    Error(&'static str),
    /// The rows that `DuckDB`'s `read_parquet` reads (`rows.py --duckdb`).
    DuckDbRows,
}

/// A file that pyarrow refuses: why, a part of what pyarrow says (so that a refusal for
/// another reason is not taken for this one), and what is expected of pqkit instead.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) file: &'static str,
    pub(crate) why: &'static str,
    pub(crate) pyarrow_says: &'static str,
    pub(crate) expected: Expected,
}

/// Fails each listed name (with the list it is in) that is not one of `files`: a stale
/// entry would otherwise never be looked at. `absent` says where it should have been.
pub(crate) fn fail_unlisted<'a>(
    tally: &mut Tally,
    files: &[PathBuf],
    listed: impl IntoIterator<Item = (&'a str, &'a str)>,
    absent: &str,
) {
    let names: Vec<String> = files.iter().map(|p| file_name(p)).collect();
    for (name, list) in listed {
        if !names.iter().any(|n| n == name) {
            tally.fail(name, &format!("listed in {list}, but {absent}"));
        }
    }
}

/// How long one `pqkit cat` may take before it counts as hanging.
const PQKIT_TIMEOUT: Duration = Duration::from_secs(120);

/// What the reader (pyarrow, or `DuckDB`) made of a file.
pub(crate) enum Reference {
    /// The rows, as JSONL by the rows contract.
    Rows(String),
    /// The reader refused the file: what it said.
    Refused(String),
    /// `rows.py` failed to map what the reader read (a bug of the script, or a value the
    /// reader cannot give exactly): the last line of its traceback.
    Fault(String),
}

/// The references of `files` by pyarrow, in their order, written by one run of `rows.py`
/// into `out` (`<name>.jsonl`, `.error` or `.fault`; the files' names must differ).
pub(crate) fn references(
    python: &Python,
    files: &[PathBuf],
    out: &Path,
) -> Result<Vec<Reference>, String> {
    references_by(python, &[], files, out)
}

/// The references of `files` by `DuckDB`'s `read_parquet` (`rows.py --duckdb`), as
/// [`references`] writes pyarrow's.
pub(crate) fn duckdb_references(
    python: &Python,
    files: &[PathBuf],
    out: &Path,
) -> Result<Vec<Reference>, String> {
    references_by(python, &["--duckdb"], files, out)
}

fn references_by(
    python: &Python,
    reader: &[&str],
    files: &[PathBuf],
    out: &Path,
) -> Result<Vec<Reference>, String> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    run(python
        .script("rows.py")
        .args(reader)
        .arg("--out")
        .arg(out)
        .args(files))?;
    files
        .iter()
        .map(|file| {
            let name = file_name(file);
            let rows = out.join(format!("{name}.jsonl"));
            if rows.exists() {
                return read(&rows).map(Reference::Rows);
            }
            let error = out.join(format!("{name}.error"));
            if error.exists() {
                return Ok(Reference::Refused(read(&error)?.trim_end().to_owned()));
            }
            let fault = read(&out.join(format!("{name}.fault")))?;
            let last = fault.lines().last().unwrap_or("").to_owned();
            Ok(Reference::Fault(last))
        })
        .collect()
}

/// The files of `dir` whose names end with one of `suffixes`, sorted.
pub(crate) fn list(dir: &Path, suffixes: &[&str]) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let name = file_name(&path);
        if suffixes.iter().any(|s| name.ends_with(s)) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The last component of `path`, for messages and reference names.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

// ---------------------------------------------------------------------------------------
// pqkit

/// The `pqkit` binary under test.
pub(crate) struct Pqkit(PathBuf);

/// What one `pqkit cat` did.
pub(crate) struct Output {
    /// Its exit code; `None` when a signal ended it or it ran out of time.
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    /// The first line of its standard error.
    pub(crate) error: String,
    pub(crate) timed_out: bool,
}

impl Output {
    /// How it ended, in a few words: `exit 1: <first line of stderr>`.
    pub(crate) fn describe(&self) -> String {
        let end = match (self.timed_out, self.code) {
            (true, _) => format!("no answer in {} s", PQKIT_TIMEOUT.as_secs()),
            (false, Some(code)) => format!("exit {code}"),
            (false, None) => "killed by a signal".to_owned(),
        };
        if self.error.is_empty() {
            end
        } else {
            format!("{end}: {}", truncate(&self.error, 200))
        }
    }
}

impl Pqkit {
    /// The binary named by `PQKIT`, or `cargo build --release -p pqkit`'s.
    pub(crate) fn locate(root: &Path, target: &Path) -> Result<Self, String> {
        if let Some(binary) = std::env::var_os("PQKIT") {
            println!("pqkit: {} (from PQKIT)", Path::new(&binary).display());
            return Ok(Pqkit(binary.into()));
        }
        run(Command::new(cargo()).current_dir(root).args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "pqkit",
        ]))?;
        Ok(Pqkit(target.join("release").join("pqkit")))
    }

    /// `pqkit cat FILE --format jsonl ARGS...`.
    pub(crate) fn cat(&self, file: &Path, args: &[String]) -> Result<Output, String> {
        let mut all = vec![OsString::from("cat"), file.into()];
        all.extend(["--format", "jsonl"].map(OsString::from));
        all.extend(args.iter().map(OsString::from));
        self.run(&all)
    }

    /// `pqkit ARGS...`, within [`PQKIT_TIMEOUT`].
    pub(crate) fn run(&self, args: &[OsString]) -> Result<Output, String> {
        let mut child = Command::new(&self.0)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.0.display()))?;
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let deadline = Instant::now() + PQKIT_TIMEOUT;
        let mut timed_out = false;
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break status;
            }
            if Instant::now() > deadline {
                timed_out = true;
                // It may have ended meanwhile; `wait` reaps it either way.
                let _ = child.kill();
                break child.wait().map_err(|e| e.to_string())?;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let stdout = stdout.join().unwrap_or_default();
        let stderr = stderr.join().unwrap_or_default();
        Ok(Output {
            code: status.code(),
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            error: String::from_utf8_lossy(&stderr)
                .lines()
                .next()
                .unwrap_or("")
                .to_owned(),
            timed_out,
        })
    }
}

/// Reads a child's pipe to its end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

// ---------------------------------------------------------------------------------------
// Comparing rows

/// Compares `pqkit cat` with a file's expected rows; the rows compared, or what differs.
pub(crate) fn check(
    pqkit: &Pqkit,
    file: &Path,
    args: &[String],
    expected: &str,
) -> Result<usize, String> {
    let output = pqkit.cat(file, args)?;
    if output.code != Some(0) {
        return Err(format!("pqkit: {}", output.describe()));
    }
    compare(expected, &output.stdout)
}

/// A malformed file passes when pqkit rejects it: exit status 1 and a message. `name`
/// names it in the tally.
pub(crate) fn check_rejected(
    tally: &mut Tally,
    pqkit: &Pqkit,
    file: &Path,
    name: &str,
) -> Result<(), String> {
    let did = pqkit.cat(file, &[])?;
    match did.code {
        Some(1) if !did.error.is_empty() => {
            tally.pass(name, &format!("rejected: {}", truncate(&did.error, 120)));
        }
        Some(0) => tally.fail(
            name,
            &format!(
                "pqkit read a malformed file without error ({} rows)",
                did.stdout.lines().count()
            ),
        ),
        _ => tally.fail(
            name,
            &format!("pqkit should exit 1 with a message: {}", did.describe()),
        ),
    }
    Ok(())
}

/// Compares JSONL texts row by row: the number of rows, or the first difference. Lines of
/// the same text are equal; only the others are parsed and compared as values.
pub(crate) fn compare(expected: &str, actual: &str) -> Result<usize, String> {
    compare_as(expected, actual, "pqkit")
}

/// [`compare`], with `who` (at most 8 characters) named as the reader of `actual`.
pub(crate) fn compare_as(expected: &str, actual: &str, who: &str) -> Result<usize, String> {
    let expected: Vec<&str> = expected.lines().collect();
    let actual: Vec<&str> = actual.lines().collect();
    for (index, (want, got)) in expected.iter().zip(&actual).enumerate() {
        if want == got {
            continue;
        }
        let want_value: Value = serde_json::from_str(want).map_err(|e| {
            format!(
                "reference row {index} is not JSON ({e}): {}",
                truncate(want, 200)
            )
        })?;
        let got_value: Value = serde_json::from_str(got)
            .map_err(|e| format!("row {index} is not JSON ({e}): {}", truncate(got, 200)))?;
        if let Some(at) = difference(&want_value, &got_value) {
            return Err(format!(
                "row {index} differs at {}:\n      expected {}\n      {who:<8} {}",
                if at.is_empty() { "the row" } else { &at },
                truncate(want, 300),
                truncate(got, 300)
            ));
        }
    }
    if expected.len() != actual.len() {
        let first_extra = expected.len().min(actual.len());
        let (which, line) = if actual.len() > expected.len() {
            (format!("{who}'s"), actual[first_extra])
        } else {
            ("the expected".to_owned(), expected[first_extra])
        };
        let verb = if who == "pqkit" { "printed" } else { "read" };
        return Err(format!(
            "{who} {verb} {} rows, expected {}; {which} row {first_extra}: {}",
            actual.len(),
            expected.len(),
            truncate(line, 200)
        ));
    }
    Ok(expected.len())
}

/// Where two JSON values differ (`.a[2].b`, empty for the values themselves), or `None`
/// when they are equal: numbers by value (integers exactly, otherwise as the same f64),
/// objects with the same keys in the same order.
pub(crate) fn difference(want: &Value, got: &Value) -> Option<String> {
    match (want, got) {
        (Value::Number(a), Value::Number(b)) => (!same_number(a, b)).then(String::new),
        (Value::Array(a), Value::Array(b)) => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if let Some(at) = difference(x, y) {
                    return Some(format!("[{i}]{at}"));
                }
            }
            (a.len() != b.len()).then(|| format!(" (length {}, expected {})", b.len(), a.len()))
        }
        (Value::Object(a), Value::Object(b)) => {
            for ((ka, x), (kb, y)) in a.iter().zip(b) {
                if ka != kb {
                    return Some(format!(" (key {kb:?} where {ka:?} was expected)"));
                }
                if let Some(at) = difference(x, y) {
                    return Some(format!(".{ka}{at}"));
                }
            }
            (a.len() != b.len()).then(|| format!(" ({} keys, expected {})", b.len(), a.len()))
        }
        _ => (want != got).then(String::new),
    }
}

fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    let integer = |n: &serde_json::Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => x == y,
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.to_bits() == y.to_bits() || same_float32_tie(a, b, x, y),
            _ => false,
        },
    }
}

/// Whether two texts are the two shortest forms of one FLOAT (float32) that lies halfway
/// between them, as `1361.9062` and `1361.9063` are of 1361.90625: numpy breaks such a
/// tie to the even digit, Rust's formatting away from zero, and both read back as the
/// same float32. Only texts of at most 9 significant digits (a float32's shortest form
/// never needs more) that differ in their last digit by one count.
fn same_float32_tie(a: &serde_json::Number, b: &serde_json::Number, x: f64, y: f64) -> bool {
    #[allow(clippy::cast_possible_truncation)]
    let same = (x as f32).to_bits() == (y as f32).to_bits();
    let digits = |n: &serde_json::Number| {
        let text = n.to_string();
        let mantissa = text.split(['e', 'E']).next().unwrap_or("").to_owned();
        mantissa
            .trim_start_matches(['-', '0', '.'])
            .replace('.', "")
    };
    let (da, db) = (digits(a), digits(b));
    let last = |d: &str| d.bytes().last().map(i32::from);
    same && da.len() <= 9
        && da.len() == db.len()
        && da[..da.len().saturating_sub(1)] == db[..db.len().saturating_sub(1)]
        && matches!((last(&da), last(&db)), (Some(end_a), Some(end_b)) if (end_a - end_b).abs() == 1)
}

/// At most `max` characters of `text`, with `…` when cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------
// The tally

/// Files passed, failed and set aside, printed one line each as they are decided.
#[derive(Default)]
pub(crate) struct Tally {
    passed: usize,
    failed: Vec<String>,
    /// Files checked against a pinned outcome rather than a reader's rows (counted in
    /// `passed` or `failed` too).
    pinned: usize,
}

impl Tally {
    pub(crate) fn pass(&mut self, name: &str, detail: &str) {
        println!("PASS {name} ({detail})");
        self.passed += 1;
    }

    pub(crate) fn fail(&mut self, name: &str, reason: &str) {
        println!("FAIL {name}: {reason}");
        self.failed.push(name.to_owned());
    }

    /// Says why a file is checked against a pinned outcome, which `pass`, `fail` or
    /// `record` then counts.
    pub(crate) fn pinned(&mut self, line: &str) {
        println!("{line}");
        self.pinned += 1;
    }

    /// Records a comparison's outcome.
    pub(crate) fn record(&mut self, name: &str, outcome: Result<usize, String>) {
        match outcome {
            Ok(rows) => self.pass(name, &format!("{rows} rows")),
            Err(reason) => self.fail(name, &reason),
        }
    }

    /// Prints the closing line, `what: N passed, M failed[ (K against a pinned outcome:
    /// pinned_are)]`; an error when any file failed.
    pub(crate) fn finish(self, what: &str, pinned_are: &str) -> Result<(), String> {
        let pinned = if self.pinned > 0 {
            format!(" ({} against a pinned outcome: {pinned_are})", self.pinned)
        } else {
            String::new()
        };
        println!(
            "{what}: {} passed, {} failed{pinned}",
            self.passed,
            self.failed.len()
        );
        if self.failed.is_empty() {
            Ok(())
        } else {
            Err(format!("{what}: failed: {}", self.failed.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        assert_eq!(compare("{\"a\":3}\n", "{\"a\":3.0}\n"), Ok(1));
        assert_eq!(compare("{\"a\":0.1}\n", "{\"a\":1e-1}\n"), Ok(1));
        assert_eq!(
            compare(
                "{\"a\":18446744073709551615}",
                "{\"a\":18446744073709551615}"
            ),
            Ok(1)
        );
        // Integers exactly: these two are the same f64.
        assert!(compare("{\"a\":9007199254740993}", "{\"a\":9007199254740992}").is_err());
        // The shortest form of a float's own width: 0.1f32 printed as f64 is another number.
        assert!(compare("{\"a\":0.1}", "{\"a\":0.10000000149011612}").is_err());
        assert!(compare("{\"a\":-0.0}", "{\"a\":0.0}").is_err());
        assert!(compare("{\"a\":\"NaN\"}", "{\"a\":null}").is_err());
        // The two shortest forms of a float32 halfway between them (numpy's and Rust's).
        assert_eq!(compare("{\"a\":1361.9062}", "{\"a\":1361.9063}"), Ok(1));
        // Not a tie: two float32s apart, or a longer difference.
        assert!(compare("{\"a\":1361.9062}", "{\"a\":1361.9064}").is_err());
        assert!(compare("{\"a\":1361.9062}", "{\"a\":1361.9072}").is_err());
    }

    #[test]
    fn differences_name_their_place() {
        let err = compare("{\"a\":[1,{\"b\":2}]}", "{\"a\":[1,{\"b\":3}]}").unwrap_err();
        assert!(err.starts_with("row 0 differs at .a[1].b:"), "{err}");
        let err = compare("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}").unwrap_err();
        assert!(err.contains("key \"b\" where \"a\" was expected"), "{err}");
        let err = compare("{\"a\":[1,2]}", "{\"a\":[1]}").unwrap_err();
        assert!(err.contains(".a (length 1, expected 2)"), "{err}");
        let err = compare("{\"a\":1}\n{\"a\":2}\n", "{\"a\":1}\n").unwrap_err();
        assert!(err.starts_with("pqkit printed 1 rows, expected 2"), "{err}");
        let err = compare("{\"a\":1}\n", "{\"a\":1\n").unwrap_err();
        assert!(err.starts_with("row 0 is not JSON"), "{err}");
    }

    #[test]
    fn truncation_keeps_characters_whole() {
        assert_eq!(truncate("日本語", 2), "日本…");
        assert_eq!(truncate("abc", 3), "abc");
    }
}
