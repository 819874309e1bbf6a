//! `cargo xtask interop [FILTER...]`: both directions between us and pyarrow, `DuckDB` and
//! polars, on the files whose names contain one of the filters (all without filters).
//!
//! The read side, here: files written by pyarrow, `DuckDB` and polars
//! (`xtask/python/fixtures.py`, into `<target>/interop/fixtures`), read by
//! `pqkit cat --format jsonl` and compared row by row with pyarrow's rows, as `conformance`
//! compares the corpus. The encrypted fixtures (listed with their keys in the fixtures'
//! `encrypted.json`) are compared with the rows of their plaintext twins. The fixtures that
//! pyarrow refuses are listed in [`EXPECTED_REFUSALS`], with what is expected of them
//! instead. The fixtures are made again only when the script or the pinned versions change.
//!
//! The write side, in [`written`]: files that parquet-file's `FileWriter` writes (named
//! `ours-*.parquet`, into `<target>/interop/written`, every run), read by each peer and by
//! pqkit and compared row by row with the rows written; their statistics, page indexes
//! and Bloom filters checked through the peers; the refusals pinned in its own
//! `EXPECTED_REFUSALS`. Both sides count in one tally.
//!
//! ORC, in [`orc`]: the files that pyarrow.orc and pyorc write, read by pqkit, and the
//! files that `pqkit convert` writes (`ours-*.orc`), read by pyarrow.orc and pyorc.

use crate::python::{Python, read};
use crate::rows::{self, Expected, Pqkit, Reference, Refusal, Tally};
use crate::{orc, recovery, written};
use crate::{root, run as run_command, target_dir};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

const DELTA_33_BITS: &str = "DuckDB's PARQUET_VERSION V2 computes the DELTA_BINARY_PACKED \
     deltas of INT32 in 64 bits: the extremes side by side give a minimum delta of \
     -(2^32 - 1) and 33-bit miniblocks, where the spec wraps deltas in 32 bits; pyarrow \
     reads the minimum delta as a 32-bit zigzag varint and stops";
const NULL_ARRAYS: &str = "DuckDB writes a NULL fixed-size array of n values as n level \
     entries, n - 1 of them continuing a list that is not there (rep 0, 1, 1 and def 0, 0, 0 \
     for a NULL INTEGER[3]); pyarrow counts them as list values";

/// The fixtures that pyarrow refuses. A refusal not listed here, one that says something
/// else, or a listed fixture that pyarrow reads, fails the run: each is news.
const EXPECTED_REFUSALS: &[Refusal] = &[
    Refusal {
        file: "duckdb-int32-full-range-v2.parquet",
        why: DELTA_33_BITS,
        pyarrow_says: "InitBlock EOF",
        expected: Expected::DuckDbRows,
    },
    Refusal {
        file: "duckdb-null-arrays-v1.parquet",
        why: NULL_ARRAYS,
        pyarrow_says: "larger than values array",
        expected: Expected::DuckDbRows,
    },
    Refusal {
        file: "duckdb-null-arrays-v2.parquet",
        why: NULL_ARRAYS,
        pyarrow_says: "larger than values array",
        expected: Expected::DuckDbRows,
    },
    Refusal {
        file: "duckdb-null-arrays-nested-v1.parquet",
        why: NULL_ARRAYS,
        pyarrow_says: "larger than values array",
        expected: Expected::DuckDbRows,
    },
    Refusal {
        file: "duckdb-null-arrays-nested-v2.parquet",
        why: NULL_ARRAYS,
        pyarrow_says: "larger than values array",
        expected: Expected::DuckDbRows,
    },
    Refusal {
        file: "pyarrow-int96-julian-day-zero.parquet",
        why: "pyarrow reads every INT96 of Julian day 0 as the epoch, whatever its time of \
              day (it takes it for the zeros of a null slot)",
        pyarrow_says: "an INT96 of Julian day 0",
        // rows.py takes no INT96 rows from DuckDB, which keeps only microseconds: Spark's
        // rule worked by hand. Julian day 0 is 4714-11-24 BC (proleptic Gregorian, the
        // ISO year -4713), and the fixture's times of day are 0, 1 ms, noon and the last
        // millisecond.
        expected: Expected::Rows(concat!(
            "{\"int96\":\"-4713-11-24T00:00:00.000000000\"}\n",
            "{\"int96\":\"-4713-11-24T00:00:00.001000000\"}\n",
            "{\"int96\":\"-4713-11-24T12:00:00.000000000\"}\n",
            "{\"int96\":\"-4713-11-24T23:59:59.999000000\"}\n",
            "{\"int96\":null}\n",
        )),
    },
];

/// The listed refusal of the fixture `name`, if any.
fn refusal(name: &str) -> Option<&'static Refusal> {
    EXPECTED_REFUSALS.iter().find(|r| r.file == name)
}

/// An encrypted fixture: the options that decrypt it, and the plaintext file of its rows.
pub(crate) struct Encrypted {
    pub(crate) file: PathBuf,
    pub(crate) args: Vec<String>,
    pub(crate) reference: PathBuf,
}

pub(crate) fn run(filters: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let root = root();
    let target = target_dir(&root)?;
    let python = Python::setup(&root, &target)?;
    let pqkit = Pqkit::locate(&root, &target)?;
    let mut tally = Tally::default();
    let read = read_side(&root, &target, &python, &pqkit, filters, &mut tally)?;
    let orc_read = orc::read_side(&root, &target, &python, &pqkit, filters, &mut tally)?;
    let written = written::run(&python, &pqkit, &target, filters, &mut tally)?;
    let orc_written = orc::write_side(&python, &pqkit, &target, filters, &mut tally)?;
    let recovered = recovery::run(
        &python,
        &pqkit,
        &target,
        &crate::corpus_dir(&root),
        filters,
        &mut tally,
    )?;
    if read + orc_read + written + orc_written + recovered == 0 {
        return Err(format!(
            "no fixture and no file we write matches {}",
            filters.join(" ")
        ));
    }
    println!(
        "interop: {read} Parquet and {orc_read} ORC files by the peers, {written} Parquet and \
         {orc_written} ORC files by us, {recovered} files cut short and recovered, in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    tally.finish(
        "interop",
        "files a peer refuses or misreads, as the lists of refusals and orc/pins.rs say",
    )
}

/// The read side: the peers' fixtures read by pqkit; the number of files checked.
fn read_side(
    root: &Path,
    target: &Path,
    python: &Python,
    pqkit: &Pqkit,
    filters: &[String],
    tally: &mut Tally,
) -> Result<usize, String> {
    let dir = target.join("interop");
    let fixtures = dir.join("fixtures");
    generate(root, python, &dir, &fixtures)?;

    let all = rows::list(&fixtures, &[".parquet"])?;
    let selected = |path: &PathBuf| {
        let name = rows::file_name(path);
        filters.is_empty() || filters.iter().any(|f| name.contains(f))
    };
    let plain: Vec<PathBuf> = all.iter().filter(|p| selected(p)).cloned().collect();
    let encrypted: Vec<Encrypted> = encrypted(&fixtures)?
        .into_iter()
        .filter(|e| selected(&e.file))
        .collect();
    if filters.is_empty() {
        check_listed(tally, &all);
    }
    if plain.is_empty() && encrypted.is_empty() {
        return Ok(0);
    }

    // One run of rows.py for the selected files and the twins of the encrypted ones, and
    // one with DuckDB for those of them that pyarrow refuses as EXPECTED_REFUSALS says.
    let mut needed = plain.clone();
    needed.extend(encrypted.iter().map(|e| e.reference.clone()));
    needed.sort();
    needed.dedup();
    let by_pyarrow: BTreeMap<PathBuf, Reference> = needed
        .iter()
        .cloned()
        .zip(rows::references(python, &needed, &dir.join("reference"))?)
        .collect();
    let refused: Vec<PathBuf> = by_pyarrow
        .iter()
        .filter(|(file, reference)| {
            matches!(reference, Reference::Refused(_))
                && refusal(&rows::file_name(file))
                    .is_some_and(|r| r.expected == Expected::DuckDbRows)
        })
        .map(|(file, _)| file.clone())
        .collect();
    let by_duckdb: BTreeMap<PathBuf, Reference> = refused
        .iter()
        .cloned()
        .zip(rows::duckdb_references(
            python,
            &refused,
            &dir.join("reference-duckdb"),
        )?)
        .collect();

    let checks = plain.iter().map(|file| (file, &[][..], file)).chain(
        encrypted
            .iter()
            .map(|e| (&e.file, &e.args[..], &e.reference)),
    );
    let mut count = 0;
    for (file, args, reference) in checks {
        count += 1;
        let name = rows::file_name(file);
        let twin = rows::file_name(reference);
        match expected_rows(&twin, &by_pyarrow[reference], by_duckdb.get(reference)) {
            Ok((expected, None)) => tally.record(&name, rows::check(pqkit, file, args, expected)),
            Ok((expected, Some(refusal))) => {
                let source = match refusal.expected {
                    Expected::DuckDbRows => "as DuckDB reads it",
                    _ => "as EXPECTED_REFUSALS pins them",
                };
                match rows::check(pqkit, file, args, expected) {
                    Ok(count) => tally.pass(
                        &name,
                        &format!("{count} rows, {source}; pyarrow refuses it, as listed"),
                    ),
                    Err(reason) => tally.fail(
                        &name,
                        &format!(
                            "{reason}\n      (rows {source}; pyarrow refuses it: {})",
                            refusal.why
                        ),
                    ),
                }
            }
            Err(reason) if twin == name => tally.fail(&name, &reason),
            Err(reason) => tally.fail(&name, &format!("its twin {twin}: {reason}")),
        }
    }
    Ok(count)
}

/// The rows that pqkit must print for the fixture `name`: pyarrow's, or when pyarrow
/// refuses it as [`EXPECTED_REFUSALS`] says, `DuckDB`'s or the pinned ones, with the
/// refusal; or why there are none.
fn expected_rows<'a>(
    name: &str,
    pyarrow: &'a Reference,
    duckdb: Option<&'a Reference>,
) -> Result<(&'a str, Option<&'static Refusal>), String> {
    match (pyarrow, refusal(name)) {
        (Reference::Fault(last), _) => Err(format!("rows.py failed: {last}")),
        (Reference::Rows(rows), None) => Ok((rows, None)),
        (Reference::Rows(rows), Some(_)) => Err(format!(
            "pyarrow now reads it ({} rows): take it off EXPECTED_REFUSALS",
            rows.lines().count()
        )),
        (Reference::Refused(said), None) => Err(format!(
            "pyarrow refuses it, and EXPECTED_REFUSALS does not list it: {said}"
        )),
        (Reference::Refused(said), Some(refusal)) if !said.contains(refusal.pyarrow_says) => {
            Err(format!(
                "pyarrow refuses it without saying {:?}, as EXPECTED_REFUSALS expects: {said}",
                refusal.pyarrow_says
            ))
        }
        (Reference::Refused(_), Some(refusal)) => match (refusal.expected, duckdb) {
            (Expected::DuckDbRows, Some(Reference::Rows(rows))) => Ok((rows, Some(refusal))),
            (Expected::DuckDbRows, Some(Reference::Refused(said))) => {
                Err(format!("pyarrow and DuckDB both refuse it: {said}"))
            }
            (Expected::DuckDbRows, Some(Reference::Fault(last))) => {
                Err(format!("rows.py --duckdb failed: {last}"))
            }
            (Expected::DuckDbRows, None) => Err("DuckDB's rows were not made".to_owned()),
            (Expected::Rows(rows), _) => Ok((rows, Some(refusal))),
            (Expected::Error(_), _) => {
                Err("interop expects rows of what pyarrow refuses, not an error".to_owned())
            }
        },
    }
}

/// Fails each name of [`EXPECTED_REFUSALS`] that is not a fixture.
fn check_listed(tally: &mut Tally, fixtures: &[PathBuf]) {
    let listed = EXPECTED_REFUSALS
        .iter()
        .map(|r| (r.file, "EXPECTED_REFUSALS"));
    rows::fail_unlisted(tally, fixtures, listed, "fixtures.py does not write it");
}

/// Writes the fixtures unless the stamp says that the same script and versions wrote them.
pub(crate) fn generate(
    root: &Path,
    python: &Python,
    dir: &Path,
    fixtures: &Path,
) -> Result<(), String> {
    let xtask = root.join("xtask");
    let stamp = dir.join("fixtures.stamp");
    let scripts = xtask.join("python");
    let stamp_text = read(&scripts.join("fixtures.py"))?
        + &read(&scripts.join("values.py"))?
        + &read(&xtask.join("requirements.txt"))?;
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
pub(crate) fn encrypted(fixtures: &Path) -> Result<Vec<Encrypted>, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Reference {
        Reference::Rows(text.to_owned())
    }

    fn refused(said: &str) -> Reference {
        Reference::Refused(said.to_owned())
    }

    #[test]
    fn listed_refusals_are_distinct_fixtures() {
        for (i, refusal) in EXPECTED_REFUSALS.iter().enumerate() {
            assert!(refusal.file.ends_with(".parquet"), "{}", refusal.file);
            assert!(!refusal.pyarrow_says.is_empty() && !refusal.why.is_empty());
            assert!(
                EXPECTED_REFUSALS[..i]
                    .iter()
                    .all(|r| r.file != refusal.file),
                "{} listed twice",
                refusal.file
            );
        }
    }

    #[test]
    fn pyarrow_rows_unless_listed() {
        let pyarrow = rows("{\"a\":1}\n");
        assert_eq!(
            expected_rows("x.parquet", &pyarrow, None),
            Ok(("{\"a\":1}\n", None))
        );
        let err = expected_rows("x.parquet", &refused("OSError: no"), None).unwrap_err();
        assert!(err.contains("EXPECTED_REFUSALS does not list it"), "{err}");
        let err = expected_rows("x.parquet", &Reference::Fault("E".to_owned()), None).unwrap_err();
        assert_eq!(err, "rows.py failed: E");
    }

    #[test]
    fn listed_refusals_take_duckdb_rows() {
        let listed = &EXPECTED_REFUSALS[0];
        let said = format!("OSError: {}", listed.pyarrow_says);
        let duckdb = rows("{\"a\":2}\n");
        assert_eq!(
            expected_rows(listed.file, &refused(&said), Some(&duckdb))
                .map(|(rows, refusal)| (rows, refusal.map(|r| r.why))),
            Ok(("{\"a\":2}\n", Some(listed.why)))
        );
        // A stale entry: pyarrow reads the file now.
        let err = expected_rows(listed.file, &rows("{}\n"), Some(&duckdb)).unwrap_err();
        assert!(err.contains("take it off EXPECTED_REFUSALS"), "{err}");
        // Refused for another reason than the listed one.
        let err = expected_rows(listed.file, &refused("other"), Some(&duckdb)).unwrap_err();
        assert!(err.contains("without saying"), "{err}");
        // DuckDB refuses it too, or its rows could not be mapped.
        let err = expected_rows(listed.file, &refused(&said), Some(&refused("E"))).unwrap_err();
        assert!(err.contains("both refuse"), "{err}");
        let fault = Reference::Fault("F".to_owned());
        let err = expected_rows(listed.file, &refused(&said), Some(&fault)).unwrap_err();
        assert!(err.contains("--duckdb failed: F"), "{err}");
    }

    #[test]
    fn stale_list_entries_fail() {
        let all: Vec<PathBuf> = EXPECTED_REFUSALS
            .iter()
            .map(|r| PathBuf::from(r.file))
            .collect();
        let mut tally = Tally::default();
        check_listed(&mut tally, &all);
        assert!(tally.finish("all listed", "").is_ok());
        let mut tally = Tally::default();
        check_listed(&mut tally, &all[1..]);
        let err = tally.finish("one missing", "").unwrap_err();
        assert!(err.ends_with(EXPECTED_REFUSALS[0].file), "{err}");
    }
}
