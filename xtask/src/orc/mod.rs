//! ORC in `conformance` and `interop`: the corpus's ORC files (`conformance.rs`), the files
//! that pyarrow.orc and pyorc write (`fixtures.rs`, the read side) and the files that
//! `pqkit convert` writes (`written.rs` with the tables of `tables.rs`, the write side),
//! each read by `pqkit cat --format jsonl` and compared row by row with the reference.
//!
//! The references come from `xtask/python/orc_rows.py`: pyarrow.orc's and pyorc's
//! readings (both Apache ORC's C++ reader) mapped by the rows contract, and Apache ORC's
//! own JSON dumps of the corpus files. Where a reader refuses a file, aborts on it, or
//! misreads it (both lose something of unions), `pins.rs` says so, and the run checks
//! that it still does exactly that.

mod conformance;
mod fixtures;
mod pins;
mod tables;
mod written;

pub(crate) use conformance::Corpus;
pub(crate) use fixtures::{generate as generate_fixtures, read_side};
pub(crate) use written::write_side;

use crate::python::{Python, read};
use crate::rows::{self, truncate};
use pins::{Deviation, Misread, Pin};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A reader of ORC files besides ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    /// `pyarrow.orc`: Arrow's adapter of Apache ORC's C++ reader.
    Pyarrow,
    /// pyorc: Apache ORC's C++ reader with Python values.
    Pyorc,
}

/// Both readers, the preferred reference first.
pub(crate) const READERS: [Reader; 2] = [Reader::Pyarrow, Reader::Pyorc];

impl Reader {
    /// The reader's name, as `orc_rows.py` knows it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Pyarrow => "pyarrow",
            Self::Pyorc => "pyorc",
        }
    }
}

/// What `orc_rows.py` is asked of one file.
pub(crate) struct Job {
    pub(crate) file: PathBuf,
    /// Apache ORC's JSON dump of the file's rows (pyarrow maps it by the file's types).
    pub(crate) jsn: Option<PathBuf>,
    /// Rows that pyorc reads right after seeking to them (through the row index).
    pub(crate) seek: Vec<usize>,
}

impl Job {
    fn json(&self) -> Value {
        serde_json::json!({
            "file": self.file,
            "jsn": self.jsn,
            "seek": self.seek,
        })
    }
}

/// Runs `orc_rows.py` for each of `readers` on `jobs`, writing into `out`: one process a
/// reader (they bundle Apache ORC's C++ library each), both at once (the machines have
/// two cores). A process that dies (Arrow C++ aborts on some files) is started again past
/// the job it died on, whose `<name>.<reader>.crash` then holds what it printed last.
/// The jobs' files and the processes' logs go into `dir`.
pub(crate) fn read_all(
    python: &Python,
    readers: &[Reader],
    jobs: &[Job],
    dir: &Path,
    out: &Path,
) -> Result<(), String> {
    for d in [dir, out] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    if jobs.is_empty() {
        return Ok(());
    }
    std::thread::scope(|scope| {
        let runs: Vec<_> = readers
            .iter()
            .map(|&reader| scope.spawn(move || read_with(python, reader, jobs, dir, out)))
            .collect();
        runs.into_iter().try_for_each(|run| {
            run.join()
                .unwrap_or_else(|_| Err("a thread running orc_rows.py panicked".to_owned()))
        })
    })
}

/// One reader's processes of [`read_all`].
fn read_with(
    python: &Python,
    reader: Reader,
    jobs: &[Job],
    dir: &Path,
    out: &Path,
) -> Result<(), String> {
    let name = reader.name();
    let mut rest = jobs;
    for attempt in 0.. {
        if rest.is_empty() {
            break;
        }
        let path = dir.join(format!("jobs-{name}-{attempt}.json"));
        let values: Vec<Value> = rest.iter().map(Job::json).collect();
        let text = serde_json::to_string(&values).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let log = dir.join(format!("orc-rows-{name}-{attempt}.log"));
        let stderr = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let mut command: Command = python.script("orc_rows.py");
        command.arg(name).arg(&path).arg(out).stderr(stderr);
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
        let step =
            |job: &Job| read(&out.join(format!("{}.{name}.step", rows::file_name(&job.file)))).ok();
        let Some(at) = rest
            .iter()
            .position(|job| step(job).as_deref() != Some("done"))
        else {
            return Err(format!("{command:?} failed with {status}: {tail}"));
        };
        if step(&rest[at]).is_none() {
            // Dead before it began the job: the script's fault, not the reader's.
            return Err(format!("{command:?} failed with {status}: {tail}"));
        }
        let crash = out.join(format!("{}.{name}.crash", rows::file_name(&rest[at].file)));
        std::fs::write(&crash, format!("{status}: {tail}"))
            .map_err(|e| format!("{}: {e}", crash.display()))?;
        rest = &rest[at + 1..];
    }
    Ok(())
}

/// What a reader made of a file (or of the seeks in it, or of its JSON dump).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The rows, as JSONL by the rows contract.
    Rows(String),
    /// The reader refused the file: what it said.
    Refused(String),
    /// `orc_rows.py` failed: the last line of its traceback.
    Fault(String),
    /// The reader aborted the process: how it ended and what it printed last.
    Crashed(String),
}

/// The outcome `what` (`pyarrow`, `pyorc`, `jsn`, `pyorc.seek`) of the file `name`, as
/// [`read_all`] left it in `out`.
pub(crate) fn outcome(out: &Path, name: &str, what: &str) -> Outcome {
    let file = |suffix: &str| out.join(format!("{name}.{what}{suffix}"));
    if let Ok(rows) = std::fs::read_to_string(file(".jsonl")) {
        return Outcome::Rows(rows);
    }
    if let Ok(said) = std::fs::read_to_string(file(".error")) {
        return Outcome::Refused(said.trim_end().to_owned());
    }
    if let Ok(fault) = std::fs::read_to_string(file(".fault")) {
        return Outcome::Fault(fault.lines().last().unwrap_or("").to_owned());
    }
    let reader = what.split('.').next().unwrap_or(what);
    match std::fs::read_to_string(out.join(format!("{name}.{reader}.crash"))) {
        Ok(crash) => Outcome::Crashed(crash.trim_end().to_owned()),
        Err(_) => Outcome::Fault(format!("orc_rows.py wrote no {what} outcome")),
    }
}

/// The rows of `outcome`, or why there are none.
pub(crate) fn rows_of<'a>(outcome: &'a Outcome, what: &str) -> Result<&'a str, String> {
    match outcome {
        Outcome::Rows(rows) => Ok(rows),
        Outcome::Refused(said) => Err(format!("{what} refuses it: {said}")),
        Outcome::Fault(last) => Err(format!("orc_rows.py failed on {what}: {last}")),
        Outcome::Crashed(crash) => Err(format!("{what} aborts on it: {crash}")),
    }
}

/// Checks what a reader made of a file against the `reference` rows: the same rows, or
/// when `pin` lists the file for the reader, exactly the deviation it pins. A note on
/// what was found, or the problem.
pub(crate) fn judge(
    reader: &str,
    reference: &str,
    outcome: &Outcome,
    pin: Option<&Pin>,
) -> Result<String, String> {
    let Some(pin) = pin else {
        let rows = rows_of(outcome, reader)?;
        return rows::compare_as(reference, rows, reader)
            .map(|_| format!("{reader} agrees"))
            .map_err(|e| format!("{reader}: {e}"));
    };
    let stale = |did: &str| {
        format!(
            "{reader} {did}, where pins.rs expects it to {} ({}); take it off or update it",
            pin.deviation.describe(),
            pin.why
        )
    };
    match (&pin.deviation, outcome) {
        (Deviation::Refuses(says), Outcome::Refused(said)) if said.contains(says) => {
            Ok(format!("{reader} refuses it, as pinned"))
        }
        (Deviation::Aborts(says), Outcome::Crashed(crash)) if crash.contains(says) => {
            Ok(format!("{reader} aborts on it, as pinned"))
        }
        (Deviation::Misreads { places, how }, Outcome::Rows(rows)) => {
            match misread(reference, rows, places, *how) {
                Ok((_, 0)) => Err(stale("reads it right")),
                Ok((_, n)) => Ok(format!("{reader} misreads {n} unions, as pinned")),
                Err(e) => Err(format!("{reader}: {e} ({})", pin.why)),
            }
        }
        (_, Outcome::Fault(last)) => Err(format!("orc_rows.py failed on {reader}: {last}")),
        (_, Outcome::Rows(rows)) => match rows::compare_as(reference, rows, reader) {
            Ok(_) => Err(stale("reads it right")),
            Err(e) => Err(stale(&format!("reads it otherwise: {e}"))),
        },
        (_, Outcome::Refused(said)) => Err(stale(&format!("refuses it: {said}"))),
        (_, Outcome::Crashed(crash)) => Err(stale(&format!("aborts: {crash}"))),
    }
}

/// Compares `other`'s rows with the `reference` where a reader misreads `how` the values
/// at `places` (paths of object keys from the row, `.a.b`): where the reference's value
/// is one that the reader misreads, the reader's must be what it makes of it; all else
/// must be equal. The rows compared and the values misread, or the first difference.
pub(crate) fn misread(
    reference: &str,
    other: &str,
    places: &[&str],
    how: Misread,
) -> Result<(usize, usize), String> {
    let want: Vec<&str> = reference.lines().collect();
    let got: Vec<&str> = other.lines().collect();
    if want.len() != got.len() {
        return Err(format!(
            "{} rows, where the reference has {}",
            got.len(),
            want.len()
        ));
    }
    let mut misread = 0;
    for (index, (w, g)) in want.iter().zip(&got).enumerate() {
        let parse = |text: &str| {
            serde_json::from_str::<Value>(text)
                .map_err(|e| format!("row {index} is not JSON ({e}): {}", truncate(text, 200)))
        };
        let (mut w, mut g) = (parse(w)?, parse(g)?);
        for place in places {
            let (Some(x), Some(y)) = (at(&mut w, place), at(&mut g, place)) else {
                return Err(format!("row {index} has no {place}"));
            };
            if let Some(expected) = how.misreading(x) {
                if *y != expected {
                    return Err(format!(
                        "row {index} at {place}: {y} where the misreading pinned gives {expected} (of {x})"
                    ));
                }
                misread += 1;
                *x = Value::Null;
                *y = Value::Null;
            }
        }
        if let Some(place) = rows::difference(&w, &g) {
            return Err(format!(
                "row {index} differs at {}:\n      expected {}\n      read     {}",
                if place.is_empty() { "the row" } else { &place },
                truncate(&w.to_string(), 300),
                truncate(&g.to_string(), 300)
            ));
        }
    }
    Ok((want.len(), misread))
}

/// The value at `place` (`.a.b`: keys of nested objects) of `row`.
fn at<'a>(row: &'a mut Value, place: &str) -> Option<&'a mut Value> {
    place
        .split('.')
        .skip(1)
        .try_fold(row, |value, key| value.as_object_mut()?.get_mut(key))
}

/// The reference of a file among the readers' outcomes: the first reader (pyarrow, then
/// pyorc) that `pins` does not list for the file, and its rows.
pub(crate) fn reference<'a>(
    name: &str,
    outcomes: &'a [(Reader, Outcome)],
    pins: &[Pin],
) -> Result<(Reader, &'a str), String> {
    let (reader, outcome) = outcomes
        .iter()
        .find(|(reader, _)| pins::find(pins, name, *reader).is_none())
        .ok_or_else(|| "pins.rs lists every reader for it: no reference".to_owned())?;
    Ok((*reader, rows_of(outcome, reader.name())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misreadings_are_checked_where_they_apply() {
        let reference = "{\"u\":null,\"x\":1}\n{\"u\":{\"tag\":1,\"value\":\"a\"},\"x\":2}\n";
        let read = "{\"u\":{\"tag\":0,\"value\":null},\"x\":1}\n{\"u\":{\"tag\":1,\"value\":\"a\"},\"x\":2}\n";
        assert_eq!(
            misread(reference, read, &[".u"], Misread::NullUnionAsFirst),
            Ok((2, 1))
        );
        // A misreading of another kind, or a difference elsewhere, fails.
        let err = misread(reference, read, &[".u"], Misread::TaggedNullAsNull).unwrap_err();
        assert!(err.starts_with("row 0 differs at .u"), "{err}");
        let other = read.replace("\"x\":2", "\"x\":3");
        let err = misread(reference, &other, &[".u"], Misread::NullUnionAsFirst).unwrap_err();
        assert!(err.starts_with("row 1 differs at .x"), "{err}");
        let tagged = "{\"s\":{\"u\":{\"tag\":2,\"value\":null}}}\n";
        assert_eq!(
            misread(
                tagged,
                "{\"s\":{\"u\":null}}\n",
                &[".s.u"],
                Misread::TaggedNullAsNull
            ),
            Ok((1, 1))
        );
        let err = misread(
            tagged,
            "{\"s\":null}\n",
            &[".s.u"],
            Misread::TaggedNullAsNull,
        )
        .unwrap_err();
        assert_eq!(err, "row 0 has no .s.u");
    }

    #[test]
    fn pinned_deviations_must_still_show() {
        let pin = Pin {
            files: &["f.orc"],
            reader: Reader::Pyarrow,
            deviation: Deviation::Refuses("out of range"),
            why: "w",
        };
        let rows = "{\"a\":1}\n";
        assert!(
            judge(
                "pyarrow",
                rows,
                &Outcome::Refused("x: out of range".into()),
                Some(&pin)
            )
            .is_ok()
        );
        let err = judge("pyarrow", rows, &Outcome::Rows(rows.into()), Some(&pin)).unwrap_err();
        assert!(err.contains("reads it right"), "{err}");
        let err = judge(
            "pyarrow",
            rows,
            &Outcome::Refused("other".into()),
            Some(&pin),
        )
        .unwrap_err();
        assert!(err.contains("refuses it: other"), "{err}");
        assert_eq!(
            judge("pyorc", rows, &Outcome::Rows(rows.into()), None),
            Ok("pyorc agrees".to_owned())
        );
        let err = judge("pyorc", rows, &Outcome::Rows("{\"a\":2}\n".into()), None).unwrap_err();
        assert!(err.starts_with("pyorc: row 0 differs at .a"), "{err}");
    }
}
