//! The ORC files of the corpus (`../shared/corpus/orc`, named `orc/<file>` here), read by
//! `pqkit cat --format jsonl` and compared row by row with the reference: the rows of the
//! file's Apache ORC JSON dump (`expected/<name>.jsn.gz`, by Apache ORC's Java tools) where
//! it has one, mapped by the file's types, else pyarrow.orc's rows. Where both exist,
//! pyarrow's rows must equal the dump's, but for what `pins::CORPUS` pins. Every file of
//! `corrupt/` must make pqkit fail cleanly (exit 1 with a message).

use super::{Job, Reader, judge, outcome, pins, read_all, rows_of};
use crate::python::Python;
use crate::rows::{self, Pqkit, Tally};
use std::path::{Path, PathBuf};

/// The corpus's ORC files that the filters select.
pub(crate) struct Corpus {
    dir: PathBuf,
    files: Vec<PathBuf>,
    corrupt: Vec<PathBuf>,
    /// Every file of the corpus (not only those selected), when all are checked: the
    /// names of [`pins::CORPUS`] must be among them.
    all: Option<Vec<PathBuf>>,
}

impl Corpus {
    /// The files of `<corpus>/orc` and `<corpus>/orc/corrupt` whose names
    /// (`orc/<file>`, `orc/corrupt/<file>`) contain one of `filters` (all without).
    pub(crate) fn select(corpus: &Path, filters: &[String]) -> Result<Self, String> {
        let dir = corpus.join("orc");
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let selected = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
        let all = rows::list(&dir, &[".orc"])?;
        let files = all.iter().filter(|p| selected(&name(p))).cloned().collect();
        let corrupt = rows::list(&dir.join("corrupt"), &[".orc"])?
            .into_iter()
            .filter(|p| selected(&corrupt_name(p)))
            .collect();
        Ok(Self {
            dir,
            files,
            corrupt,
            all: filters.is_empty().then_some(all),
        })
    }

    /// Whether no file is selected.
    pub(crate) fn is_empty(&self) -> bool {
        self.files.is_empty() && self.corrupt.is_empty()
    }

    /// Checks the selected files, recording each in `tally`.
    pub(crate) fn check(
        &self,
        python: &Python,
        pqkit: &Pqkit,
        target: &Path,
        tally: &mut Tally,
    ) -> Result<(), String> {
        if let Some(all) = &self.all {
            let listed = pins::files(pins::CORPUS).map(|f| (f, "orc/pins.rs CORPUS"));
            rows::fail_unlisted(tally, all, listed, "not in the corpus's orc/");
        }
        let jobs: Vec<Job> = self
            .files
            .iter()
            .map(|file| Job {
                file: file.clone(),
                jsn: Some(self.jsn(file)).filter(|p| p.exists()),
                seek: Vec::new(),
            })
            .collect();
        let out = target.join("conformance").join("orc");
        if out.exists() {
            std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        }
        // pyarrow only: pyorc would take minutes over the 1.9 million rows of
        // demo-11-zlib.orc, and the interop fixtures compare the two readers.
        read_all(python, &[Reader::Pyarrow], &jobs, &out.join("jobs"), &out)?;
        for job in &jobs {
            check_file(tally, pqkit, job, &out);
        }
        for file in &self.corrupt {
            rows::check_rejected(tally, pqkit, file, &corrupt_name(file))?;
        }
        Ok(())
    }

    /// The JSON dump of `file`'s rows: `expected/<name without .orc>.jsn.gz`.
    fn jsn(&self, file: &Path) -> PathBuf {
        let file_name = rows::file_name(file);
        let stem = file_name.strip_suffix(".orc").unwrap_or(&file_name);
        self.dir.join("expected").join(format!("{stem}.jsn.gz"))
    }
}

fn name(file: &Path) -> String {
    format!("orc/{}", rows::file_name(file))
}

fn corrupt_name(file: &Path) -> String {
    format!("orc/corrupt/{}", rows::file_name(file))
}

/// One file: pqkit against the reference, and pyarrow against the JSON dump.
fn check_file(tally: &mut Tally, pqkit: &Pqkit, job: &Job, out: &Path) {
    let file_name = rows::file_name(&job.file);
    let name = name(&job.file);
    let pyarrow = outcome(out, &file_name, Reader::Pyarrow.name());
    let pin = pins::find(pins::CORPUS, &file_name, Reader::Pyarrow);
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    let reference = if job.jsn.is_some() {
        let jsn = outcome(out, &file_name, "jsn");
        match rows_of(&jsn, "the JSON dump") {
            Ok(rows) => {
                match judge("pyarrow", rows, &pyarrow, pin) {
                    Ok(note) => notes.push(note),
                    Err(problem) => problems.push(problem),
                }
                notes.insert(0, "as the JSON dump has them".to_owned());
                Some(rows.to_owned())
            }
            Err(e) => {
                problems.push(e);
                None
            }
        }
    } else if pin.is_some() {
        problems.push("pinned in CORPUS, but it has no JSON dump to compare with".to_owned());
        None
    } else {
        match rows_of(&pyarrow, "pyarrow") {
            Ok(rows) => {
                notes.push("as pyarrow reads them".to_owned());
                Some(rows.to_owned())
            }
            Err(e) => {
                problems.push(e);
                None
            }
        }
    };
    if let Some(pin) = pin {
        tally.pinned(&format!(
            "PINNED {name}: pyarrow is expected to {}: {}",
            pin.deviation.describe(),
            pin.why
        ));
    }
    if let Some(reference) = reference {
        match rows::check(pqkit, &job.file, &[], &reference) {
            Ok(count) => notes.insert(0, format!("{count} rows")),
            Err(e) => problems.insert(0, e),
        }
    }
    if problems.is_empty() {
        tally.pass(&name, &notes.join(", "));
    } else {
        tally.fail(&name, &problems.join("\n      "));
    }
}
