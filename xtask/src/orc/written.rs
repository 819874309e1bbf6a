//! The ORC write side of `interop`: files that `pqkit convert` writes from the JSON Lines
//! of the tables of `tables.rs` (`ours-*.orc`, into `<target>/interop/orc-written`, every
//! run): both file versions, every codec, compression levels and small compression
//! chunks, several stripes with a small row index stride, every type, nesting, unions,
//! null-heavy and empty files. Each is read by pyarrow.orc and pyorc (`orc_rows.py`) and
//! by pqkit, and compared row for row with the rows written; pyorc's view of the footer
//! (version, codec, rows, stripes, row index stride) must be what was asked, and
//! where a table has several stripes, pyorc seeks to rows through the row index and must
//! find the rows written there. What a reader does otherwise is pinned in
//! `pins::WRITTEN`.

use super::tables::Table;
use super::{Job, Outcome, READERS, Reader, judge, outcome, pins, read_all, rows_of};
use crate::python::{Python, read};
use crate::rows::{self, Pqkit, Tally};
use crate::written::json;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// An ORC file version, as `--orc-version` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    /// 0.11: integer RLE version 1, DIRECT and DICTIONARY.
    V0,
    /// 0.12: integer RLE version 2, `DIRECT_V2` and `DICTIONARY_V2`.
    V1,
}

impl Version {
    fn flag(self) -> &'static str {
        match self {
            Self::V0 => "0.11",
            Self::V1 => "0.12",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::V0 => "v0",
            Self::V1 => "v1",
        }
    }
}

/// Every ORC codec, as `--orc-compression` takes them.
const CODECS: [&str; 6] = ["none", "zlib", "snappy", "lzo", "lz4", "zstd"];

/// The rows of a row group in the files of [`Table::Stripes`].
const STRIDE: usize = 1000;

/// One file to write.
#[derive(Debug, Clone)]
struct Setup {
    table: Table,
    version: Version,
    codec: &'static str,
    /// What sets the file apart in its name, beyond table, codec and version.
    variant: &'static str,
    /// More options of `pqkit convert`.
    options: &'static [&'static str],
    /// No rows: the table's type only.
    empty: bool,
    /// `pqkit convert` must refuse to write the file, saying this.
    refused: Option<&'static str>,
}

impl Setup {
    fn new(table: Table, version: Version, codec: &'static str) -> Self {
        Self {
            table,
            version,
            codec,
            variant: "",
            options: &[],
            empty: false,
            refused: None,
        }
    }

    /// `ours-<table>[-<codec>][-<variant>]-<version>.orc`.
    fn file_name(&self) -> String {
        let mut name = format!(
            "ours-{}",
            if self.empty {
                "empty"
            } else {
                self.table.name()
            }
        );
        if matches!(self.table, Table::Flat | Table::Nested) && !self.empty {
            name = format!("{name}-{}", self.codec_name());
        }
        if !self.variant.is_empty() {
            name = format!("{name}-{}", self.variant);
        }
        format!("{name}-{}.orc", self.version.label())
    }

    /// The codec, without its level.
    fn codec_name(&self) -> &'static str {
        self.codec.split(':').next().unwrap_or(self.codec)
    }

    /// The codec's name in Apache ORC's `CompressionKind`, as pyorc names it.
    fn kind_name(&self) -> String {
        self.codec_name().to_ascii_uppercase()
    }

    /// The rows pyorc is asked to seek to: the first rows of row groups, the last of
    /// one, and rows within them. (Apache ORC 2.3.1 fails to skip string values that are
    /// all empty, "lastBuffer_ is null": the strings of [`Table::Stripes`] never are.)
    fn seeks(&self, rows: usize) -> Vec<usize> {
        if self.table != Table::Stripes || self.empty {
            return Vec::new();
        }
        [
            0,
            37,
            STRIDE - 1,
            STRIDE,
            STRIDE + 1,
            7 * STRIDE + 500,
            rows / 2,
            rows - 1,
        ]
        .into_iter()
        .filter(|&r| r < rows)
        .collect()
    }
}

/// Every file the write side writes.
fn setups() -> Vec<Setup> {
    let mut all = Vec::new();
    for version in [Version::V0, Version::V1] {
        for codec in CODECS {
            all.push(Setup::new(Table::Flat, version, codec));
            all.push(Setup::new(Table::Nested, version, codec));
        }
        all.push(Setup::new(Table::Unions, version, "zlib"));
        all.push(Setup::new(Table::Nulls, version, "zstd"));
        all.push(Setup {
            empty: true,
            ..Setup::new(Table::Flat, version, "none")
        });
        all.push(Setup {
            options: &[
                "--stripe-size",
                "65536",
                "--row-index-stride",
                "1000",
                "--orc-block-size",
                "4096",
            ],
            ..Setup::new(
                Table::Stripes,
                version,
                if version == Version::V0 {
                    "zlib"
                } else {
                    "zstd"
                },
            )
        });
        all.push(Setup {
            // Hive 0.11 has no such type: pqkit refuses rather than write another.
            refused: (version == Version::V0)
                .then_some("timestamp with local time zone needs ORC version 0.12"),
            ..Setup::new(Table::Instant, version, "snappy")
        });
    }
    all.push(Setup::new(Table::UnionInStruct, Version::V1, "zlib"));
    all.push(Setup {
        variant: "level-19",
        ..Setup::new(Table::Flat, Version::V1, "zstd:19")
    });
    all.push(Setup {
        variant: "level-9",
        ..Setup::new(Table::Flat, Version::V0, "zlib:9")
    });
    all.push(Setup {
        variant: "small-chunks",
        options: &["--orc-block-size", "1024"],
        ..Setup::new(Table::Nested, Version::V1, "snappy")
    });
    all
}

/// A table's input: its rows as the rows contract prints them (what every reader must
/// give back), in a JSON Lines file, and its type in a schema file.
struct Input {
    expected: String,
    rows: usize,
    jsonl: PathBuf,
    schema: PathBuf,
}

impl Input {
    fn new(table: Table, dir: &Path) -> Result<Self, String> {
        let rows = table.rows();
        let expected: String = rows.iter().map(|r| json::row(r) + "\n").collect();
        let jsonl = dir.join(format!("input-{}.jsonl", table.name()));
        let schema = dir.join(format!("schema-{}.txt", table.name()));
        std::fs::write(&jsonl, &expected).map_err(|e| format!("{}: {e}", jsonl.display()))?;
        std::fs::write(&schema, format!("{}\n", table.orc_type()))
            .map_err(|e| format!("{}: {e}", schema.display()))?;
        Ok(Self {
            expected,
            rows: rows.len(),
            jsonl,
            schema,
        })
    }
}

/// A file written.
struct Written {
    setup: Setup,
    name: String,
    path: PathBuf,
}

/// Writes the files whose names contain one of `filters` (all without), has the readers
/// read them, and records each file's outcome in `tally`; the number of files.
pub(crate) fn write_side(
    python: &Python,
    pqkit: &Pqkit,
    target: &Path,
    filters: &[String],
    tally: &mut Tally,
) -> Result<usize, String> {
    let started = Instant::now();
    let dir = target.join("interop").join("orc-written");
    let files = dir.join("files");
    let out = dir.join("readers");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&files).map_err(|e| format!("{}: {e}", files.display()))?;
    let all = setups();
    if filters.is_empty() {
        let names: Vec<PathBuf> = all.iter().map(|s| PathBuf::from(s.file_name())).collect();
        let listed = pins::files(pins::WRITTEN).map(|f| (f, "orc/pins.rs WRITTEN"));
        rows::fail_unlisted(tally, &names, listed, "orc/written.rs does not write it");
    }
    let selected: Vec<Setup> = all
        .into_iter()
        .filter(|s| {
            let name = s.file_name();
            filters.is_empty() || filters.iter().any(|f| name.contains(f))
        })
        .collect();
    if selected.is_empty() {
        return Ok(0);
    }

    let mut inputs: BTreeMap<Table, Input> = BTreeMap::new();
    let mut written = Vec::new();
    for setup in selected {
        let name = setup.file_name();
        match (
            write(&setup, &mut inputs, &dir, &files, pqkit),
            setup.refused,
        ) {
            (Ok(path), None) => written.push(Written { setup, name, path }),
            (Err(e), None) => tally.fail(&name, &e),
            (Ok(_), Some(says)) => tally.fail(
                &name,
                &format!("pqkit convert wrote it, where it is expected to refuse saying {says:?}"),
            ),
            (Err(e), Some(says)) if e.contains(says) => {
                tally.pinned(&format!("PINNED {name}: pqkit convert refuses it: {says}"));
                tally.pass(&name, "pqkit convert refuses it, as expected");
            }
            (Err(e), Some(says)) => tally.fail(
                &name,
                &format!("{e}\n      (where it is expected to refuse saying {says:?})"),
            ),
        }
    }
    println!(
        "interop: pqkit convert wrote {} ORC files in {:.1} s",
        written.len(),
        started.elapsed().as_secs_f64()
    );

    let reading = Instant::now();
    let jobs: Vec<Job> = written
        .iter()
        .map(|w| Job {
            file: w.path.clone(),
            jsn: None,
            seek: w.setup.seeks(inputs[&w.setup.table].rows),
        })
        .collect();
    read_all(python, &READERS, &jobs, &dir.join("jobs"), &out)?;
    println!(
        "interop: pyarrow and pyorc read them in {:.1} s",
        reading.elapsed().as_secs_f64()
    );
    for (w, job) in written.iter().zip(&jobs) {
        check_file(tally, pqkit, w, &inputs[&w.setup.table], &job.seek, &out);
    }
    Ok(written.len())
}

/// Writes the file of `setup` with `pqkit convert` (its table's input made once, into
/// `dir`); its path, or what went wrong.
fn write(
    setup: &Setup,
    inputs: &mut BTreeMap<Table, Input>,
    dir: &Path,
    files: &Path,
    pqkit: &Pqkit,
) -> Result<PathBuf, String> {
    if let std::collections::btree_map::Entry::Vacant(entry) = inputs.entry(setup.table) {
        entry.insert(Input::new(setup.table, dir)?);
    }
    let input = &inputs[&setup.table];
    let jsonl = if setup.empty {
        let empty = dir.join("input-empty.jsonl");
        std::fs::write(&empty, "").map_err(|e| format!("{}: {e}", empty.display()))?;
        empty
    } else {
        input.jsonl.clone()
    };
    let path = files.join(setup.file_name());
    let mut args: Vec<OsString> = vec![
        "convert".into(),
        jsonl.into(),
        path.clone().into(),
        "--schema".into(),
        input.schema.clone().into(),
        "--orc-version".into(),
        setup.version.flag().into(),
        "--orc-compression".into(),
        setup.codec.into(),
    ];
    args.extend(setup.options.iter().map(OsString::from));
    match pqkit.run(&args) {
        Ok(did) if did.code == Some(0) => Ok(path),
        Ok(did) => Err(format!("pqkit convert: {}", did.describe())),
        Err(e) => Err(format!("pqkit convert: {e}")),
    }
}

/// Every check of a file written: pqkit's rows, each reader's, pyarrow's view of the
/// footer, pyorc's seeks.
fn check_file(
    tally: &mut Tally,
    pqkit: &Pqkit,
    w: &Written,
    input: &Input,
    seeks: &[usize],
    out: &Path,
) {
    let (expected, rows) = if w.setup.empty {
        ("", 0)
    } else {
        (input.expected.as_str(), input.rows)
    };
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    match rows::check(pqkit, &w.path, &[], expected) {
        Ok(count) => notes.push(format!("{count} rows by pqkit")),
        Err(e) => problems.push(format!("pqkit: {e}")),
    }
    for reader in READERS {
        let pin = pins::find(pins::WRITTEN, &w.name, reader);
        if let Some(pin) = pin {
            tally.pinned(&format!(
                "PINNED {}: {} is expected to {}: {}",
                w.name,
                reader.name(),
                pin.deviation.describe(),
                pin.why
            ));
        }
        let outcome = outcome(out, &w.name, reader.name());
        match judge(reader.name(), expected, &outcome, pin) {
            Ok(note) => notes.push(note),
            Err(problem) => problems.push(problem),
        }
        if reader == Reader::Pyorc && !matches!(outcome, Outcome::Crashed(_)) {
            check_footer(w, rows, out, &mut notes, &mut problems);
        }
    }
    if !seeks.is_empty() {
        check_seeks(w, seeks, expected, out, &mut notes, &mut problems);
    }
    if matches!(w.setup.table, Table::Flat | Table::Stripes) && !w.setup.empty {
        match check_encodings(w, pqkit) {
            Ok(note) => notes.push(note),
            Err(problem) => problems.push(problem),
        }
    }
    if problems.is_empty() {
        tally.pass(&w.name, &notes.join("; "));
    } else {
        tally.fail(&w.name, &problems.join("\n      "));
    }
}

/// pyorc's view of the postscript and footer: the version, codec and rows written; a row
/// index entry every [`STRIDE`] rows and several stripes where asked, else the writer's
/// defaults (10,000 rows, one stripe).
fn check_footer(
    w: &Written,
    rows: usize,
    out: &Path,
    notes: &mut Vec<String>,
    problems: &mut Vec<String>,
) {
    let path = out.join(format!("{}.pyorc.meta.json", w.name));
    let meta: Value =
        match read(&path).and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string())) {
            Ok(meta) => meta,
            Err(e) => {
                problems.push(format!("pyorc's footer: {e}"));
                return;
            }
        };
    let stripes = w.setup.table == Table::Stripes;
    let mut wrong = Vec::new();
    let mut expect = |key: &str, want: Value| {
        if meta[key] != want {
            wrong.push(format!("{key} {}, not {want}", meta[key]));
        }
    };
    expect("file_version", Value::from(w.setup.version.flag()));
    expect("compression", Value::from(w.setup.kind_name()));
    expect("nrows", Value::from(rows));
    expect(
        "row_index_stride",
        Value::from(if stripes { STRIDE } else { 10_000 }),
    );
    let nstripes = meta["nstripes"].as_u64().unwrap_or(0);
    if stripes && nstripes < 2 {
        wrong.push(format!(
            "{nstripes} stripes, where 20,000 rows in 64 KiB stripes make more"
        ));
    }
    if !stripes && !w.setup.empty && nstripes != 1 {
        wrong.push(format!("{nstripes} stripes, not 1"));
    }
    if wrong.is_empty() {
        notes.push(format!("pyorc reads the footer right, stripes: {nstripes}"));
    } else {
        problems.push(format!("pyorc reads the footer so: {}", wrong.join(", ")));
    }
}

/// The encodings of the string columns `low` (8 distinct values) and `high` (all
/// distinct) in every stripe, as `pqkit meta --json` reads the stripe footers: dictionary
/// and direct, of the RLE version of the file version; so that both ways of writing
/// strings are what the readers read.
fn check_encodings(w: &Written, pqkit: &Pqkit) -> Result<String, String> {
    let args: Vec<OsString> = vec!["meta".into(), "--json".into(), w.path.clone().into()];
    let did = pqkit.run(&args)?;
    if did.code != Some(0) {
        return Err(format!("pqkit meta: {}", did.describe()));
    }
    let meta: Value =
        serde_json::from_str(&did.stdout).map_err(|e| format!("pqkit meta --json: {e}"))?;
    let column = |name: &str| {
        meta["columns"]
            .as_array()
            .and_then(|columns| columns.iter().find(|c| c["name"] == name))
            .and_then(|c| c["column"].as_u64())
    };
    let suffix = if w.setup.version == Version::V1 {
        "_V2"
    } else {
        ""
    };
    let stripes = meta["stripes"].as_array().map_or(&[][..], Vec::as_slice);
    for (name, kind) in [("low", "DICTIONARY"), ("high", "DIRECT")] {
        let id = column(name).ok_or_else(|| format!("pqkit meta: no column {name}"))?;
        let want = format!("{kind}{suffix}");
        for (i, stripe) in stripes.iter().enumerate() {
            let encodings = stripe["encodings"]
                .as_array()
                .map_or(&[][..], Vec::as_slice);
            let got = encodings
                .iter()
                .find(|e| e["column"].as_u64() == Some(id))
                .map(|e| e["kind"].clone());
            if got.as_ref().and_then(Value::as_str) != Some(want.as_str()) {
                return Err(format!(
                    "stripe {i}: column {name} encoded {}, where {want} was expected",
                    got.unwrap_or(Value::Null)
                ));
            }
        }
    }
    Ok(format!(
        "strings DICTIONARY{suffix} and DIRECT{suffix} in every stripe"
    ))
}

/// The rows pyorc reads after seeking to rows through the row index.
fn check_seeks(
    w: &Written,
    seeks: &[usize],
    expected: &str,
    out: &Path,
    notes: &mut Vec<String>,
    problems: &mut Vec<String>,
) {
    let lines: Vec<&str> = expected.lines().collect();
    let want: String = seeks.iter().fold(String::new(), |mut want, &r| {
        want.push_str(lines.get(r).copied().unwrap_or(""));
        want.push('\n');
        want
    });
    let seek = outcome(out, &w.name, "pyorc.seek");
    match rows_of(&seek, "pyorc seeking").and_then(|got| rows::compare_as(&want, got, "pyorc")) {
        Ok(_) => notes.push(format!(
            "pyorc seeks to {} rows through the row index",
            seeks.len()
        )),
        Err(e) => problems.push(format!("pyorc seeking to rows {seeks:?}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_pinned_files_written() {
        let names: Vec<String> = setups().iter().map(Setup::file_name).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} twice");
            assert!(
                name.starts_with("ours-")
                    && Path::new(name).extension().is_some_and(|e| e == "orc"),
                "{name}"
            );
        }
        for file in pins::files(pins::WRITTEN) {
            assert!(names.iter().any(|n| n == file), "{file} is not written");
        }
        assert!(names.contains(&"ours-flat-lzo-v0.orc".to_owned()));
        assert!(names.contains(&"ours-empty-v1.orc".to_owned()));
        assert!(names.contains(&"ours-flat-zstd-level-19-v1.orc".to_owned()));
    }

    #[test]
    fn seeks_stay_within_the_rows() {
        let setup = Setup::new(Table::Stripes, Version::V1, "zstd");
        let seeks = setup.seeks(20_000);
        assert!(seeks.contains(&STRIDE) && seeks.iter().all(|&r| r < 20_000));
        assert!(
            Setup::new(Table::Flat, Version::V1, "zstd")
                .seeks(2000)
                .is_empty()
        );
    }
}
