//! The ORC read side of `interop`: files that pyarrow.orc and pyorc write
//! (`xtask/python/orc_fixtures.py`, into `<target>/interop/orc-fixtures`: both file
//! versions, every codec they write, dictionary and direct strings, several stripes,
//! Bloom filters, every type, nesting, unions, null-heavy and empty files), read by
//! `pqkit cat --format jsonl` and compared row by row with pyarrow's rows, or pyorc's
//! where `pins::FIXTURES` pins what pyarrow does otherwise; the other reader must give
//! the same rows, or deviate as pinned. The fixtures are made again only when the
//! scripts that make them or the pinned versions change.

use super::{Job, Outcome, READERS, judge, outcome, pins, read_all, reference};
use crate::python::{Python, read};
use crate::rows::{self, Pqkit, Tally};
use crate::run as run_command;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The read side: the ORC fixtures whose names contain one of `filters` (all without),
/// read by pqkit; the number of files checked.
pub(crate) fn read_side(
    root: &Path,
    target: &Path,
    python: &Python,
    pqkit: &Pqkit,
    filters: &[String],
    tally: &mut Tally,
) -> Result<usize, String> {
    let dir = target.join("interop");
    let fixtures = dir.join("orc-fixtures");
    generate(root, python, &dir, &fixtures)?;
    let all = rows::list(&fixtures, &[".orc"])?;
    if filters.is_empty() {
        let listed = pins::files(pins::FIXTURES).map(|f| (f, "orc/pins.rs FIXTURES"));
        rows::fail_unlisted(tally, &all, listed, "orc_fixtures.py does not write it");
    }
    let selected: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| {
            let name = rows::file_name(p);
            filters.is_empty() || filters.iter().any(|f| name.contains(f))
        })
        .collect();
    if selected.is_empty() {
        return Ok(0);
    }
    let out = dir.join("orc-reference");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let jobs: Vec<Job> = selected
        .iter()
        .map(|file| Job {
            file: file.clone(),
            jsn: None,
            seek: Vec::new(),
        })
        .collect();
    read_all(python, &READERS, &jobs, &out.join("jobs"), &out)?;
    for file in &selected {
        check_fixture(tally, pqkit, file, &out);
    }
    Ok(selected.len())
}

/// One fixture: the readers against each other, pqkit against the reference.
fn check_fixture(tally: &mut Tally, pqkit: &Pqkit, file: &Path, out: &Path) {
    let name = rows::file_name(file);
    let outcomes: Vec<(super::Reader, Outcome)> = READERS
        .iter()
        .map(|&reader| (reader, outcome(out, &name, reader.name())))
        .collect();
    let (by, expected) = match reference(&name, &outcomes, pins::FIXTURES) {
        Ok(found) => found,
        Err(e) => {
            tally.fail(&name, &e);
            return;
        }
    };
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    match rows::check(pqkit, file, &[], expected) {
        Ok(count) => notes.push(format!("{count} rows, as {} reads them", by.name())),
        Err(e) => problems.push(format!("{e}\n      (the rows as {} reads them)", by.name())),
    }
    match verify(pqkit, file) {
        Ok(note) => notes.push(note),
        Err(problem) => problems.push(problem),
    }
    for (reader, outcome) in outcomes.iter().filter(|(reader, _)| *reader != by) {
        let pin = pins::find(pins::FIXTURES, &name, *reader);
        if let Some(pin) = pin {
            tally.pinned(&format!(
                "PINNED {name}: {} is expected to {}: {}",
                reader.name(),
                pin.deviation.describe(),
                pin.why
            ));
        }
        match judge(reader.name(), expected, outcome, pin) {
            Ok(note) => notes.push(note),
            Err(problem) => problems.push(problem),
        }
    }
    if problems.is_empty() {
        tally.pass(&name, &notes.join("; "));
    } else {
        tally.fail(&name, &problems.join("\n      "));
    }
}

/// `pqkit verify` of a peer's file: sound (the notes of writers' known habits aside),
/// its row counts, statistics and row index positions agreeing with its values.
fn verify(pqkit: &Pqkit, file: &Path) -> Result<String, String> {
    let output = pqkit.run(&[OsString::from("verify"), file.into()])?;
    if output.code != Some(0) {
        return Err(format!("pqkit verify: {}", output.describe()));
    }
    let notes = output
        .stdout
        .lines()
        .filter(|l| l.starts_with("note: "))
        .count();
    Ok(match notes {
        0 => "verify: sound".to_owned(),
        n => format!("verify: sound, with {n} notes of writers' known habits"),
    })
}

/// Writes the fixtures unless the stamp says that the same scripts and versions wrote them.
pub(crate) fn generate(
    root: &Path,
    python: &Python,
    dir: &Path,
    fixtures: &Path,
) -> Result<(), String> {
    let xtask = root.join("xtask");
    let scripts = xtask.join("python");
    let stamp = dir.join("orc-fixtures.stamp");
    let mut stamp_text = read(&xtask.join("requirements.txt"))?;
    for script in ["orc_fixtures.py", "orc_pyorc.py", "values.py"] {
        stamp_text += &read(&scripts.join(script))?;
    }
    if fixtures.is_dir() && std::fs::read_to_string(&stamp).is_ok_and(|text| text == stamp_text) {
        return Ok(());
    }
    let started = Instant::now();
    println!("interop: writing ORC fixtures into {}", fixtures.display());
    if fixtures.exists() {
        std::fs::remove_dir_all(fixtures).map_err(|e| format!("{}: {e}", fixtures.display()))?;
    }
    run_command(python.script("orc_fixtures.py").arg(fixtures))?;
    std::fs::write(&stamp, stamp_text).map_err(|e| format!("{}: {e}", stamp.display()))?;
    println!(
        "interop: ORC fixtures written in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
