//! `cargo xtask interop [FILTER...]`: files written by pyarrow, `DuckDB` and polars
//! (`xtask/python/fixtures.py`, into `<target>/interop/fixtures`), read by
//! `pqkit cat --format jsonl` and compared row by row with pyarrow's rows, as `conformance`
//! compares the corpus. The encrypted fixtures (listed with their keys in the fixtures'
//! `encrypted.json`) are compared with the rows of their plaintext twins. The fixtures are
//! made again only when the script or the pinned versions change.

use crate::python::{Python, read};
use crate::rows::{self, Pqkit, Reference, Tally};
use crate::{root, run as run_command, target_dir};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// An encrypted fixture: the options that decrypt it, and the plaintext file of its rows.
struct Encrypted {
    file: PathBuf,
    args: Vec<String>,
    reference: PathBuf,
}

pub(crate) fn run(filters: &[String]) -> Result<(), String> {
    let root = root();
    let target = target_dir(&root)?;
    let python = Python::setup(&root, &target)?;
    let dir = target.join("interop");
    let fixtures = dir.join("fixtures");
    generate(&root, &python, &dir, &fixtures)?;

    let selected = |path: &PathBuf| {
        let name = rows::file_name(path);
        filters.is_empty() || filters.iter().any(|f| name.contains(f))
    };
    let plain: Vec<PathBuf> = rows::list(&fixtures, &[".parquet"])?
        .into_iter()
        .filter(selected)
        .collect();
    let encrypted: Vec<Encrypted> = encrypted(&fixtures)?
        .into_iter()
        .filter(|e| selected(&e.file))
        .collect();
    if plain.is_empty() && encrypted.is_empty() {
        return Err(format!("no fixture matches {}", filters.join(" ")));
    }

    // One run of rows.py for the selected files and the twins of the encrypted ones.
    let mut needed = plain.clone();
    needed.extend(encrypted.iter().map(|e| e.reference.clone()));
    needed.sort();
    needed.dedup();
    let references: BTreeMap<PathBuf, Reference> = needed
        .iter()
        .cloned()
        .zip(rows::references(&python, &needed, &dir.join("reference"))?)
        .collect();
    let pqkit = Pqkit::locate(&root, &target)?;

    let mut tally = Tally::default();
    let checks = plain.iter().map(|file| (file, &[][..], file)).chain(
        encrypted
            .iter()
            .map(|e| (&e.file, &e.args[..], &e.reference)),
    );
    for (file, args, reference) in checks {
        let name = rows::file_name(file);
        match &references[reference] {
            Reference::Rows(expected) => {
                tally.record(&name, rows::check(&pqkit, file, args, expected));
            }
            Reference::Fault(last) => tally.fail(&name, &format!("rows.py failed: {last}")),
            Reference::Refused(said) => {
                tally.fail(
                    &name,
                    &format!("pyarrow cannot read {}: {said}", rows::file_name(reference)),
                );
            }
        }
    }
    tally.finish("interop", "")
}

/// Writes the fixtures unless the stamp says that the same script and versions wrote them.
fn generate(root: &Path, python: &Python, dir: &Path, fixtures: &Path) -> Result<(), String> {
    let xtask = root.join("xtask");
    let stamp = dir.join("fixtures.stamp");
    let stamp_text =
        read(&xtask.join("python").join("fixtures.py"))? + &read(&xtask.join("requirements.txt"))?;
    if fixtures.is_dir() && std::fs::read_to_string(&stamp).is_ok_and(|text| text == stamp_text) {
        return Ok(());
    }
    let started = Instant::now();
    println!("interop: writing fixtures into {}", fixtures.display());
    if fixtures.exists() {
        std::fs::remove_dir_all(fixtures).map_err(|e| format!("{}: {e}", fixtures.display()))?;
    }
    run_command(python.script("fixtures.py").arg(fixtures))?;
    std::fs::write(&stamp, stamp_text).map_err(|e| format!("{}: {e}", stamp.display()))?;
    println!(
        "interop: fixtures written in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The encrypted fixtures, from `encrypted.json`:
/// `{"<file>": {"reference": "<plaintext twin>", "args": [...]}}`.
fn encrypted(fixtures: &Path) -> Result<Vec<Encrypted>, String> {
    let path = fixtures.join("encrypted.json");
    let manifest: Value =
        serde_json::from_str(&read(&path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let entries = manifest
        .as_object()
        .ok_or_else(|| format!("{}: not an object", path.display()))?;
    entries
        .iter()
        .map(|(name, entry)| {
            let bad = || {
                format!(
                    "{}: {name}: needs \"reference\" and \"args\"",
                    path.display()
                )
            };
            let reference = entry["reference"].as_str().ok_or_else(bad)?;
            let args = entry["args"]
                .as_array()
                .ok_or_else(bad)?
                .iter()
                .map(|arg| arg.as_str().map(str::to_owned).ok_or_else(bad))
                .collect::<Result<_, _>>()?;
            Ok(Encrypted {
                file: fixtures.join(name),
                args,
                reference: fixtures.join(reference),
            })
        })
        .collect()
}
