//! Recovery in `cargo xtask interop`: Parquet and ORC files cut short at [`CUTS`] points
//! each, rebuilt by `pqkit recover`, and read back by pyarrow
//! (`xtask/python/recovery.py`).
//!
//! The files: field.py's realistic flat and nested tables written in row groups of
//! 2,000 rows by pyarrow, `DuckDB` and polars (their default settings otherwise); the
//! pyarrow ones rewritten by `pqkit rewrite` in row groups of 2,000, without and with
//! checkpoints (`--checkpoint-every 3`); a file of the corpus that arrow-rs wrote
//! (`DataFusion`'s, 50 row groups); and as ORC, written by pyarrow.orc (Apache ORC's C++
//! writer, small stripes) and by `pqkit convert`, without and with intermediate footers
//! (`--checkpoint-every 3`). [`recover_cuts`] takes other writers'
//! files too (the Spark harness gives it parquet-java's and ORC Java's).
//!
//! Each cut file is recovered with the source as `--like` (as a user gives a sibling
//! file), but a file with checkpoints, recovered without it (its checkpoints give the
//! schema) unless the cut comes before its first one. The recovered file must keep
//! exactly the row groups (stripes) that end before the cut (the largest number the cut
//! allows), and pyarrow must read it as the source's first row groups (stripes), value
//! for value. Each file's line says, per cut, what was kept of what the cut allows.

use crate::python::{Python, read};
use crate::rows::{Pqkit, Tally};
use orc_file::OrcReader;
use parquet_file::FileReader;
use serde_json::{Value, json};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Cut points per file.
const CUTS: usize = 20;

/// The corpus's file of another writer (arrow-rs, through `DataFusion`), under
/// `parquet-testing/data/`.
const CORPUS_FILE: &str = "geospatial/geography-points.parquet";

/// A file to cut, and how `pqkit recover` is given its schema.
pub(crate) struct Source {
    pub(crate) path: PathBuf,
    /// Whether it has checkpoints (recovered without `--like` where one precedes the cut).
    pub(crate) checkpoints: bool,
}

/// Runs the recovery checks of `interop` on the files whose names contain a filter (all
/// without filters); the number of files checked.
pub(crate) fn run(
    python: &Python,
    pqkit: &Pqkit,
    target: &Path,
    corpus: &Path,
    filters: &[String],
    tally: &mut Tally,
) -> Result<usize, String> {
    let selected = |name: &str| {
        filters.is_empty()
            || filters
                .iter()
                .any(|f| format!("recover-{name}").contains(f))
    };
    let started = Instant::now();
    let dir = target.join("interop").join("recovery");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let sources_dir = dir.join("sources");
    std::fs::create_dir_all(&sources_dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    crate::run(python.script("recovery.py").arg("write").arg(&sources_dir))?;
    let mut sources = Vec::new();
    for table in ["flat", "nested"] {
        for writer in ["pyarrow", "duckdb", "polars"] {
            sources.push(Source {
                path: sources_dir.join(format!("{table}-{writer}.parquet")),
                checkpoints: false,
            });
        }
        let from = sources_dir.join(format!("{table}-pyarrow.parquet"));
        for checkpoints in [false, true] {
            let name = if checkpoints {
                format!("{table}-ours-checkpoints.parquet")
            } else {
                format!("{table}-ours.parquet")
            };
            let path = sources_dir.join(name);
            let mut args: Vec<OsString> = vec!["rewrite".into(), from.clone().into()];
            args.push(path.clone().into());
            args.extend(["--row-group-rows", "2000"].map(OsString::from));
            if checkpoints {
                args.extend(["--checkpoint-every", "3"].map(OsString::from));
            }
            let output = pqkit.run(&args)?;
            if output.code != Some(0) {
                return Err(format!("pqkit rewrite: {}", output.describe()));
            }
            sources.push(Source { path, checkpoints });
        }
        sources.push(Source {
            path: sources_dir.join(format!("{table}-pyarrow.orc")),
            checkpoints: false,
        });
        for checkpoints in [false, true] {
            let name = if checkpoints {
                format!("{table}-ours-checkpoints.orc")
            } else {
                format!("{table}-ours.orc")
            };
            let path = sources_dir.join(name);
            let mut args: Vec<OsString> = vec!["convert".into(), from.clone().into()];
            args.push(path.clone().into());
            args.extend(
                ["--stripe-size", "65536", "--row-index-stride", "1000"].map(OsString::from),
            );
            if checkpoints {
                args.extend(["--checkpoint-every", "3"].map(OsString::from));
            }
            let output = pqkit.run(&args)?;
            if output.code != Some(0) {
                return Err(format!("pqkit convert: {}", output.describe()));
            }
            sources.push(Source { path, checkpoints });
        }
    }
    let corpus_file = corpus.join("parquet-testing/data").join(CORPUS_FILE);
    if corpus_file.exists() {
        sources.push(Source {
            path: corpus_file,
            checkpoints: false,
        });
    }
    sources.retain(|s| selected(&crate::rows::file_name(&s.path)));
    let checked = recover_cuts(python, pqkit, &sources, &dir, tally)?;
    println!(
        "interop: {checked} files cut at {CUTS} points each and recovered in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(checked)
}

/// What one cut gave.
struct Cut {
    at: u64,
    /// The row groups that end before the cut.
    allowed: usize,
    /// The recovered file, once `pqkit recover` wrote it.
    recovered: Option<PathBuf>,
    /// What went wrong, when something did.
    problem: Option<String>,
    kept: Option<usize>,
}

/// Cuts each of `sources` at [`CUTS`] points, recovers each cut into `dir`, and has
/// pyarrow read the recovered files; tallies one line per source. The number of sources.
pub(crate) fn recover_cuts(
    python: &Python,
    pqkit: &Pqkit,
    sources: &[Source],
    dir: &Path,
    tally: &mut Tally,
) -> Result<usize, String> {
    let cuts_dir = dir.join("cuts");
    std::fs::create_dir_all(&cuts_dir).map_err(|e| format!("{}: {e}", cuts_dir.display()))?;
    let mut all: Vec<(String, Vec<Cut>)> = Vec::new();
    let mut jobs = Vec::new();
    for source in sources {
        let name = crate::rows::file_name(&source.path);
        let cuts = match cut_and_recover(pqkit, source, &name, &cuts_dir) {
            Ok(cuts) => cuts,
            Err(e) => {
                tally.fail(&format!("recover-{name}"), &e);
                continue;
            }
        };
        for cut in &cuts {
            if let Some(recovered) = &cut.recovered {
                jobs.push(json!({"source": source.path, "recovered": recovered}));
            }
        }
        all.push((name, cuts));
    }
    let jobs_path = dir.join("jobs.json");
    let out_path = dir.join("checked.json");
    std::fs::write(&jobs_path, Value::Array(jobs).to_string())
        .map_err(|e| format!("{}: {e}", jobs_path.display()))?;
    crate::run(
        python
            .script("recovery.py")
            .arg("check")
            .arg(&jobs_path)
            .arg(&out_path),
    )?;
    let checked: Vec<Value> = serde_json::from_str(&read(&out_path)?)
        .map_err(|e| format!("{}: {e}", out_path.display()))?;
    let mut results = checked.into_iter();
    for (name, mut cuts) in all {
        for cut in cuts.iter_mut().filter(|c| c.recovered.is_some()) {
            let result = results.next().unwrap_or(Value::Null);
            if let Some(error) = result["error"].as_str() {
                cut.problem = Some(format!("pyarrow: {error}"));
            } else if result["row_groups"].as_u64() != cut.kept.map(|k| k as u64) {
                cut.problem = Some(format!("pyarrow reads {} row groups", result["row_groups"]));
            }
        }
        let summary = cuts
            .iter()
            .map(|c| match c.kept {
                Some(kept) => format!("{}:{kept}/{}", c.at, c.allowed),
                None => format!("{}:-/{}", c.at, c.allowed),
            })
            .collect::<Vec<_>>()
            .join(" ");
        let problems: Vec<String> = cuts
            .iter()
            .filter_map(|c| c.problem.as_ref().map(|p| format!("cut at {}: {p}", c.at)))
            .collect();
        let label = format!("recover-{name}");
        if problems.is_empty() {
            tally.pass(
                &label,
                &format!("cut at byte: kept/whole before the cut: {summary}"),
            );
        } else {
            tally.fail(&label, &problems.join("\n      "));
        }
    }
    Ok(sources.len())
}

/// Cuts `source` at [`CUTS`] points and recovers each cut with `pqkit recover`.
fn cut_and_recover(
    pqkit: &Pqkit,
    source: &Source,
    name: &str,
    dir: &Path,
) -> Result<Vec<Cut>, String> {
    let bytes = std::fs::read(&source.path).map_err(|e| format!("{name}: {e}"))?;
    let orc = source
        .path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("orc"));
    let ends = if orc {
        stripe_ends(&bytes)
    } else {
        row_group_ends(&bytes)
    }
    .map_err(|e| format!("{name}: {e}"))?;
    let len = bytes.len() as u64;
    let mut cuts = Vec::with_capacity(CUTS);
    let mut random = Random::new(name);
    let mut points: Vec<u64> = (0..CUTS).map(|_| 4 + random.below(len - 4)).collect();
    points.sort_unstable();
    for at in points {
        let allowed = ends.iter().take_while(|&&end| end <= at).count();
        let cut_path = dir.join(format!("{name}.cut-{at}"));
        let extension = if orc { "orc" } else { "parquet" };
        let recovered = dir.join(format!("{name}.recovered-{at}.{extension}"));
        #[allow(clippy::cast_possible_truncation)] // below the length of `bytes`
        std::fs::write(&cut_path, &bytes[..at as usize])
            .map_err(|e| format!("{}: {e}", cut_path.display()))?;
        let mut args: Vec<OsString> = vec!["recover".into(), cut_path.clone().into()];
        args.push(recovered.clone().into());
        let mut output = pqkit.run(&args)?;
        if !source.checkpoints || output.code == Some(2) {
            // Without checkpoints (or before the first), the schema comes from a sibling.
            args.extend([OsString::from("--like"), source.path.clone().into()]);
            output = pqkit.run(&args)?;
        }
        let _ = std::fs::remove_file(&cut_path);
        let mut cut = Cut {
            at,
            allowed,
            recovered: None,
            problem: None,
            kept: None,
        };
        if output.code == Some(0) {
            let kept = std::fs::read(&recovered)
                .map_err(|e| e.to_string())
                .and_then(|b| {
                    if orc {
                        stripe_ends(&b).map(|e| e.len())
                    } else {
                        row_group_ends(&b).map(|e| e.len())
                    }
                });
            match kept {
                Ok(kept) => {
                    cut.kept = Some(kept);
                    cut.recovered = Some(recovered);
                    if kept != allowed {
                        cut.problem = Some(format!(
                            "kept {kept} row groups of the {allowed} whole before it"
                        ));
                    }
                }
                Err(e) => cut.problem = Some(format!("the recovered file does not open: {e}")),
            }
        } else {
            cut.problem = Some(format!("pqkit recover: {}", output.describe()));
        }
        cuts.push(cut);
    }
    Ok(cuts)
}

/// Where each row group of a Parquet file ends.
fn row_group_ends(bytes: &[u8]) -> Result<Vec<u64>, String> {
    let reader = FileReader::open(bytes.to_vec()).map_err(|e| e.to_string())?;
    Ok(reader
        .metadata()
        .row_groups()
        .iter()
        .map(|group| {
            group
                .columns()
                .iter()
                .filter_map(|c| c.metadata())
                .map(|m| {
                    m.dictionary_page_offset()
                        .unwrap_or(m.data_page_offset())
                        .min(m.data_page_offset())
                        + m.total_compressed_size()
                })
                .max()
                .unwrap_or(0)
        })
        .collect())
}

/// Where each stripe of an ORC file ends.
fn stripe_ends(bytes: &[u8]) -> Result<Vec<u64>, String> {
    let reader = OrcReader::open(bytes.to_vec()).map_err(|e| e.to_string())?;
    Ok(reader
        .stripes()
        .iter()
        .map(|s| s.offset + s.index_length + s.data_length + s.footer_length)
        .collect())
}

/// `SplitMix64`, seeded by a file's name: the same cuts on every run.
struct Random(u64);

impl Random {
    fn new(name: &str) -> Self {
        Self(name.bytes().fold(0x9E37_79B9_7F4A_7C15, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
        }))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (above 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}
