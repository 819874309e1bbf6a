//! `cargo xtask spark [FILTER...]`: Apache Spark (pyspark 4.0.1: parquet-java 1.15.2 and
//! ORC Java 2.1.3) both ways, on the files whose names contain one of the filters (all
//! without filters), in one Spark session (`xtask/python/spark.py`, into
//! `<target>/spark`).
//!
//! Spark writes, pqkit reads: a table of every Spark type with nulls in every column,
//! dates and instants from the year 1 to 9999 (and around 1582-10-15 and Los Angeles's
//! 1883 change from local mean time), written by Spark as Parquet (INT96, the default;
//! TIMESTAMP(MICROS) and (MILLIS); the legacy format; v2 pages; every codec; no
//! dictionary; small pages and row groups; Bloom filters; dates and timestamps rebased
//! LEGACY) and as ORC (every codec, Hive 0.11's version, a writer time zone of
//! `America/Los_Angeles`, Bloom filters, a stripe row count): `pqkit cat --format jsonl`
//! must print the rows Spark reads back from the file, mapped by the rows contract, but
//! where [`PINS`] says the contract prints the file's values otherwise, and the values
//! of [`MISREADINGS`] that a format cannot hold; `pqkit verify` must find the file sound
//! but for [`VERIFY_PINS`]; and `pqkit bloom` must find every value of a column that
//! Spark wrote a Bloom filter of.
//!
//! pqkit writes, Spark reads: the rows of `spark-default.parquet` as pqkit prints them,
//! converted back to Parquet with the schema `pqkit schema` prints of it; that file
//! rewritten by `pqkit rewrite` (zstd, v2 pages, no dictionary, Bloom filters) and
//! converted to ORC ([`OURS`]); Spark reads each with its vectorized reader and without,
//! whole and with filters pushed down, and must read the rows it read from
//! `spark-default.parquet` (and those of them that pass the filter), but where [`PINS`]
//! and [`MISREADINGS`] say otherwise.
//!
//! Spark's files cut short: the files of [`RECOVERED`] cut at 20 points each and
//! rebuilt by `pqkit recover` (as `cargo xtask interop` does the other writers' files),
//! which must keep every row group or stripe whole before the cut, read back by pyarrow
//! as Spark's file's first ones.

use crate::python::{Python, read};
use crate::recovery;
use crate::rows::{self, Pqkit, Tally};
use crate::{root, target_dir};
use serde_json::Value;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Stdio};
use std::time::Instant;

/// What spark.py prints when it has written its files and waits for ours.
const WAITING: &str = "spark.py: waiting for the files pqkit writes";

/// The Spark files that pqkit converts and rewrites (spark.py writes them whatever the
/// filters).
const SPARK_PARQUET: &str = "spark-default.parquet";
const SPARK_ORC: &str = "spark-zlib.orc";

// ---------------------------------------------------------------------------------------
// Pins

/// Who reads: pqkit a file Spark wrote, or Spark a file pqkit wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    Pqkit,
    Spark,
}

/// How a value of Spark's view (by its Spark type: an instant with `Z`, six fraction
/// digits) becomes what the reader prints of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    /// An instant `…ffffffZ` as its UTC wall clock in nanoseconds, `…ffffff000`.
    UtcNanoseconds,
    /// An instant `…ffffffZ` as `…fffZ` (the digits dropped must be zeros).
    Milliseconds,
    /// An instant as the wall clock of the ORC writer's time zone in nanoseconds, as Spark
    /// renders it in that zone (`<file>.wall.jsonl`).
    WriterWallClock,
    /// A wall clock `…ffffff` as its count of microseconds since 1970-01-01T00:00:00.
    Microseconds,
    /// A wall clock `…ffffff` as an instant, `…ffffffZ`.
    Instant,
    /// A date, or the date of a timestamp, before 1582-10-15 taken as a date of the Julian
    /// calendar and printed as the proleptic Gregorian date of that day.
    JulianAsGregorian,
}

/// A column whose values the reader prints otherwise than Spark's view of them, by
/// design.
#[derive(Debug)]
struct Pin {
    files: &'static [&'static str],
    reader: Reader,
    column: &'static str,
    /// Applied in order.
    how: &'static [How],
    why: &'static str,
}

/// A value that the reader cannot read as Spark's view has it, by a limit of the format
/// or of the reader: where Spark's view, after [`PINS`], is `expected`, the reader
/// prints `reads`.
#[derive(Debug)]
struct Misreading {
    files: &'static [&'static str],
    reader: Reader,
    column: &'static str,
    expected: &'static str,
    reads: &'static str,
    /// Whose limit, in a few words.
    whose: &'static str,
    why: &'static str,
}

/// A disagreement that `pqkit verify` reports on a Spark file: a part of its line.
#[derive(Debug)]
struct VerifyPin {
    files: &'static [&'static str],
    says: &'static str,
    /// Whose habit or limit, in a few words.
    whose: &'static str,
    why: &'static str,
}

/// Spark's Parquet files with INT96 timestamps (Spark's default `outputTimestampType`).
const INT96_FILES: &[&str] = &[
    "spark-default.parquet",
    "spark-legacy-format.parquet",
    "spark-v2.parquet",
    "spark-v2-zstd.parquet",
    "spark-uncompressed.parquet",
    "spark-gzip.parquet",
    "spark-zstd.parquet",
    "spark-lz4raw.parquet",
    "spark-lz4.parquet",
    "spark-no-dictionary.parquet",
    "spark-small-pages.parquet",
    "spark-bloom.parquet",
];
const LEGACY_FILES: &[&str] = &["spark-legacy-rebase.parquet", "spark-legacy-int96.parquet"];
const ORC_FILES: &[&str] = &[
    "spark-none.orc",
    "spark-snappy.orc",
    "spark-zlib.orc",
    "spark-zstd.orc",
    "spark-lz4.orc",
    "spark-lzo.orc",
    "spark-hive11.orc",
    "spark-bloom.orc",
    "spark-small-stripes.orc",
    "spark-los-angeles.orc",
];
/// Our ORC files converted from Parquet.
const OURS_ORC_FROM_PARQUET: &[&str] = &["ours.orc", "ours-hive11.orc", "ours-small-stripes.orc"];

const INT96: &str = "Spark reads an INT96 as an instant; the rows contract prints an INT96 \
     as a TIMESTAMP in nanoseconds not adjusted to UTC (DESIGN.md): the same instant's UTC \
     wall clock, without Z";
const JULIAN: &str = "LEGACY rebasing writes the days of the hybrid Julian/Gregorian \
     calendar and says so in the key-value metadata (org.apache.spark.legacyDateTime, and \
     org.apache.spark.legacyINT96 for INT96), which Spark's reader alone heeds; pqkit, \
     like parquet-java and pyarrow, reads DATE and TIMESTAMP as the Parquet format defines \
     them, days of the proleptic Gregorian calendar: a date before 1582-10-15 that Spark \
     wrote as the Julian date it names is printed as the Gregorian date of that day \
     (Spark's 1172-04-11 is 1172-04-18). TIMESTAMP_NTZ is never rebased";

/// The values that pqkit prints of Spark's files, and Spark reads of ours, otherwise than
/// Spark's view of them, by design.
const PINS: &[Pin] = &[
    Pin {
        files: INT96_FILES,
        reader: Reader::Pqkit,
        column: "ts",
        how: &[How::UtcNanoseconds],
        why: INT96,
    },
    Pin {
        files: &["spark-timestamp-millis.parquet"],
        reader: Reader::Pqkit,
        column: "ts",
        how: &[How::Milliseconds],
        why: "the contract prints a TIMESTAMP's fraction in the digits of its unit (Spark \
              drops the microseconds it cannot write to TIMESTAMP(MILLIS))",
    },
    Pin {
        files: LEGACY_FILES,
        reader: Reader::Pqkit,
        column: "d",
        how: &[How::JulianAsGregorian],
        why: JULIAN,
    },
    Pin {
        files: &["spark-legacy-rebase.parquet"],
        reader: Reader::Pqkit,
        column: "ts",
        how: &[How::JulianAsGregorian],
        why: JULIAN,
    },
    Pin {
        files: &["spark-legacy-int96.parquet"],
        reader: Reader::Pqkit,
        column: "ts",
        how: &[How::JulianAsGregorian, How::UtcNanoseconds],
        why: JULIAN,
    },
    Pin {
        files: ORC_FILES,
        reader: Reader::Pqkit,
        column: "ts",
        how: &[How::WriterWallClock],
        why: "Spark writes a TimestampType to ORC as a `timestamp`, the wall clock of the \
              writer's time zone (the JVM's default zone, not the session's), which the \
              contract prints in nanoseconds without Z; Spark reads it back as the instant \
              of that wall clock in that zone",
    },
    Pin {
        files: ORC_FILES,
        reader: Reader::Pqkit,
        column: "ntz",
        how: &[How::Microseconds],
        why: "Spark writes a TimestampNTZ to ORC as a bigint of microseconds with the type \
              attribute spark.sql.catalyst.type=timestamp_ntz, which only Spark heeds: the \
              contract prints an ORC bigint",
    },
    Pin {
        files: OURS_ORC_FROM_PARQUET,
        reader: Reader::Spark,
        column: "ntz",
        how: &[How::Instant],
        why: "pqkit writes a TIMESTAMP(MICROS, false) to ORC as a `timestamp` (a wall clock) \
              without Spark's type attribute: Spark reads an ORC `timestamp` as a \
              TimestampType, the instant of that wall clock in the JVM's time zone (UTC)",
    },
];

/// The ORC files we write from Spark's rows (whose row 8 holds
/// 1969-12-31T23:59:59.999999Z in `ts`, and that wall clock in `ntz`).
const OURS_ORC: &[&str] = &[
    "ours.orc",
    "ours-hive11.orc",
    "ours-small-stripes.orc",
    "ours-from-orc.orc",
];

const LAST_SECOND_OF_1969: &str = "ORC stores the seconds of a timestamp's UTC instant \
     truncated toward zero (from its milliseconds, as ORC Java writes them), and readers \
     (ORC Java, the C++ reader since ORC-763, pqkit) take one second off when those seconds \
     are negative and the fraction is a millisecond or more; an instant in [-1 s, 0) UTC \
     with such a fraction stores second 0, which no reader takes back: ORC Java writes \
     1969-12-31T23:59:59.999999Z so and reads it as 1970-01-01T00:00:00.999999Z, as Spark \
     reads its own spark-*.orc (ours-from-orc.orc is converted from spark-zlib.orc, which \
     already holds it so) and the files pqkit writes (orc-file's writer documents it)";

/// Values that a reader reads otherwise than Spark's view of them (after [`PINS`]): the
/// limits of a format or of a peer, with the reason (a bug of pqkit is fixed, not
/// pinned).
const MISREADINGS: &[Misreading] = &[
    Misreading {
        files: OURS_ORC,
        reader: Reader::Spark,
        column: "ts",
        expected: "1969-12-31T23:59:59.999999Z",
        reads: "1970-01-01T00:00:00.999999Z",
        whose: "the ORC format's limit",
        why: LAST_SECOND_OF_1969,
    },
    Misreading {
        files: OURS_ORC_FROM_PARQUET,
        reader: Reader::Spark,
        column: "ntz",
        expected: "1969-12-31T23:59:59.999999Z",
        reads: "1970-01-01T00:00:00.999999Z",
        whose: "the ORC format's limit",
        why: LAST_SECOND_OF_1969,
    },
];

/// The disagreements that `pqkit verify` reports on Spark's files (none: what Apache
/// ORC's writers are known to record otherwise than the values say, harmlessly, is a
/// note of `pqkit verify`, not a disagreement).
const VERIFY_PINS: &[VerifyPin] = &[];

/// The columns of `spark-bloom.parquet` that Spark writes Bloom filters of.
const BLOOM_COLUMNS: &[&str] = &["i32", "s"];

/// A filter that Spark must push down into a file we write so far that its scan puts out
/// `scanned` rows (of 300), with either reader.
#[derive(Debug)]
struct Skip {
    file: &'static str,
    filter: &'static str,
    scanned: std::ops::RangeInclusive<u64>,
    by: &'static str,
}

/// What Spark must skip of our files (`i32` rises with the row but for rows 0 and 1,
/// which hold its least and greatest values, so that `i32 >= 1000000` matches row 1 and
/// 42 of rows 250..300; `s` and the values of `i32 = …` are in one row each; 12345 and
/// 'absent' lie between the least and the greatest value of their column, in no row):
/// `ours-rewrite-no-dictionary.parquet`, without dictionaries or Bloom filters, is
/// scanned whole for them, so that no row scanned of the others is the work of their
/// dictionaries and Bloom filters.
const SKIPS: &[Skip] = &[
    Skip {
        file: "ours-rewrite-no-dictionary.parquet",
        filter: "i32 = 12345",
        scanned: 300..=300,
        by: "nothing (no dictionary, no Bloom filter)",
    },
    Skip {
        file: "ours-small-groups.parquet",
        filter: "i32 >= 1000000",
        scanned: 0..=60,
        by: "the row groups' statistics (50 rows each) and the column index (pages of 10 \
             rows): rows 250..300 and the page of rows 0..10, which holds i32's greatest \
             value (row 1)",
    },
    Skip {
        file: "ours-small-groups.parquet",
        filter: "i32 = -1479986",
        scanned: 0..=10,
        by: "the column index (pages of 10 rows)",
    },
    Skip {
        file: "ours-small-groups.parquet",
        filter: "s = '日本語'",
        scanned: 0..=10,
        by: "the column index (pages of 10 rows)",
    },
    Skip {
        file: "ours-small-stripes.orc",
        filter: "i32 >= 1000000",
        scanned: 0..=100,
        by: "the statistics of its stripes and row groups (50 rows each): rows 250..300 \
             and rows 0..50, which hold i32's greatest value (row 1)",
    },
    Skip {
        file: "ours-small-stripes.orc",
        filter: "i32 = -1479986",
        scanned: 0..=50,
        by: "the row index (row groups of 50 rows)",
    },
    Skip {
        file: "ours-from-jsonl.parquet",
        filter: "i32 = 12345",
        scanned: 0..=0,
        by: "the dictionary of i32 (parquet-java's dictionary filter)",
    },
    Skip {
        file: "ours-from-jsonl.parquet",
        filter: "s = 'absent'",
        scanned: 0..=0,
        by: "the dictionary of s (parquet-java's dictionary filter)",
    },
    Skip {
        file: "ours-rewrite-bloom.parquet",
        filter: "i32 = 12345",
        scanned: 0..=0,
        by: "the Bloom filter of i32",
    },
    Skip {
        file: "ours-rewrite-bloom.parquet",
        filter: "s = 'absent'",
        scanned: 0..=0,
        by: "the Bloom filter of s",
    },
];

// ---------------------------------------------------------------------------------------
// The files we write

/// What a file we write is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    /// The rows of `spark-default.parquet` as pqkit must print them (Spark's, with
    /// [`PINS`]), with the schema `pqkit schema` prints of it: `pqkit convert`.
    Rows,
    /// `spark-default.parquet`: `pqkit rewrite` to Parquet, `pqkit convert` to ORC.
    SparkParquet,
    /// `spark-zlib.orc`: `pqkit convert`.
    SparkOrc,
}

/// A file that pqkit writes for Spark to read.
#[derive(Debug)]
struct Ours {
    name: &'static str,
    input: Input,
    args: &'static [&'static str],
}

const OURS: &[Ours] = &[
    Ours {
        name: "ours-from-jsonl.parquet",
        input: Input::Rows,
        args: &[],
    },
    Ours {
        name: "ours-small-groups.parquet",
        input: Input::Rows,
        args: &["--row-group-rows", "50", "--page-rows", "10"],
    },
    Ours {
        name: "ours-rewrite-zstd.parquet",
        input: Input::SparkParquet,
        args: &["--compression", "zstd"],
    },
    Ours {
        name: "ours-rewrite-v2.parquet",
        input: Input::SparkParquet,
        args: &["--page-version", "2"],
    },
    Ours {
        name: "ours-rewrite-no-dictionary.parquet",
        input: Input::SparkParquet,
        args: &["--dictionary", "off"],
    },
    Ours {
        name: "ours-rewrite-bloom.parquet",
        input: Input::SparkParquet,
        // Without dictionaries, which parquet-java's dictionary filter would skip by.
        args: &["--dictionary", "off", "--bloom", "i32", "--bloom", "s"],
    },
    Ours {
        name: "ours.orc",
        input: Input::SparkParquet,
        args: &[],
    },
    Ours {
        name: "ours-hive11.orc",
        input: Input::SparkParquet,
        args: &["--orc-version", "0.11", "--orc-compression", "snappy"],
    },
    Ours {
        name: "ours-small-stripes.orc",
        input: Input::SparkParquet,
        args: &["--stripe-size", "4096", "--row-index-stride", "50"],
    },
    Ours {
        name: "ours-from-orc.orc",
        input: Input::SparkOrc,
        args: &[],
    },
];

// ---------------------------------------------------------------------------------------
// The run

pub(crate) fn run(filters: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let root = root();
    let target = target_dir(&root)?;
    let python = Python::setup(&root, &target)?;
    let pqkit = Pqkit::locate(&root, &target)?;
    let dir = target.join("spark");
    let selected = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let mut tally = Tally::default();

    let mut spark = Spark::start(&python, &dir, filters)?;
    let written = spark.written()?;
    if filters.is_empty() {
        check_listed(&mut tally, &written);
    }
    let mut checked = Vec::new();
    for file in written.iter().filter(|f| selected(&f.name)) {
        checked.push(file.name.clone());
        check_spark_file(&pqkit, &dir, file, &mut tally)?;
    }
    let read = checked.len();
    // Spark's files cut short and recovered (recovery.rs), as interop does the others'.
    let sources: Vec<recovery::Source> = RECOVERED
        .iter()
        .filter(|name| {
            selected(name)
                && written
                    .iter()
                    .any(|w| w.name == **name && w.error.is_none())
        })
        .map(|name| recovery::Source {
            path: dir.join("spark").join(name),
            checkpoints: false,
        })
        .collect();
    if !sources.is_empty() {
        recovery::recover_cuts(&python, &pqkit, &sources, &dir.join("recovery"), &mut tally)?;
    }
    let made = make_ours(&pqkit, &dir, &written, &selected, &mut tally)?;
    spark.read(&made)?;
    let mut reads = 0;
    if !made.is_empty() {
        reads = check_spark_reads(&dir, &made, &mut tally)?;
    }
    if read + made.len() == 0 {
        return Err(format!(
            "no file Spark writes and none we write matches {}",
            filters.join(" ")
        ));
    }
    checked.extend(made.iter().cloned());
    explain(&checked);
    println!(
        "spark: {read} files by Spark read by pqkit, {} files by pqkit read by Spark {reads} \
         times, in {:.0} s",
        made.len(),
        started.elapsed().as_secs_f64()
    );
    tally.finish(
        "spark",
        "limits of the format or of the peer, as MISREADINGS and VERIFY_PINS of spark.rs say",
    )
}

/// Spark's files that are cut at 20 points each and recovered by `pqkit recover`
/// (`recovery::recover_cuts`): parquet-java's in ten row groups, one with Bloom filters
/// after its row group, one of v2 pages; ORC Java's.
const RECOVERED: &[&str] = &[
    "spark-small-pages.parquet",
    "spark-bloom.parquet",
    "spark-v2-zstd.parquet",
    "spark-zlib.orc",
];

/// spark.py, running: one Spark session for both directions.
struct Spark {
    child: Child,
    stdout: std::io::Lines<BufReader<ChildStdout>>,
    dir: PathBuf,
}

impl Spark {
    fn start(python: &Python, dir: &Path, filters: &[String]) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut child = python
            .script("spark.py")
            .arg(dir)
            .args(filters)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start spark.py: {e}"))?;
        let stdout = child.stdout.take().ok_or("spark.py: no standard output")?;
        Ok(Spark {
            child,
            stdout: BufReader::new(stdout).lines(),
            dir: dir.to_owned(),
        })
    }

    /// Prints what spark.py says until `until` (or its end); whether it came.
    fn echo(&mut self, until: Option<&str>) -> Result<bool, String> {
        for line in self.stdout.by_ref() {
            let line = line.map_err(|e| format!("spark.py: {e}"))?;
            if until == Some(line.as_str()) {
                return Ok(true);
            }
            println!("{line}");
        }
        Ok(false)
    }

    /// The files Spark wrote, once it has written them.
    fn written(&mut self) -> Result<Vec<Written>, String> {
        if !self.echo(Some(WAITING))? {
            let status = self.child.wait().map_err(|e| e.to_string())?;
            return Err(format!(
                "spark.py ended ({status}) before writing its files"
            ));
        }
        let path = self.dir.join("spark.json");
        let manifest: Value =
            serde_json::from_str(&read(&path)?).map_err(|e| format!("{}: {e}", path.display()))?;
        manifest["files"]
            .as_array()
            .ok_or_else(|| format!("{}: no \"files\"", path.display()))?
            .iter()
            .map(|entry| {
                Written::parse(entry).ok_or_else(|| format!("{}: {entry}", path.display()))
            })
            .collect()
    }

    /// Has Spark read the files we made (none: it stops), and waits for its end.
    fn read(mut self, made: &[String]) -> Result<(), String> {
        let mut stdin = self
            .child
            .stdin
            .take()
            .ok_or("spark.py: no standard input")?;
        if !made.is_empty() {
            let path = self.dir.join("ours.json");
            let list = serde_json::json!({ "files": made });
            std::fs::write(&path, list.to_string())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            stdin
                .write_all(b"read\n")
                .map_err(|e| format!("spark.py: {e}"))?;
        }
        drop(stdin);
        self.echo(None)?;
        let status = self.child.wait().map_err(|e| e.to_string())?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("spark.py failed with {status}"))
        }
    }
}

/// A file that Spark wrote, as `spark.json` lists it.
struct Written {
    name: String,
    checks: String,
    /// What Spark recorded in it: key-value metadata, or ORC's calendar and writer zone.
    metadata: String,
    /// What Spark said when it could not write or read it back.
    error: Option<String>,
}

impl Written {
    fn parse(entry: &Value) -> Option<Self> {
        let metadata = entry["metadata"].as_object().map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        });
        Some(Written {
            name: entry["file"].as_str()?.to_owned(),
            checks: entry["checks"].as_str()?.to_owned(),
            metadata: metadata.unwrap_or_default(),
            error: entry["error"].as_str().map(str::to_owned),
        })
    }
}

/// Prints why each misreading and disagreement pinned for the `checked` files is.
fn explain(checked: &[String]) {
    let applies = |files: &[&str]| files.iter().any(|f| checked.iter().any(|c| c == f));
    let mut whys: Vec<(&str, &str)> = Vec::new();
    let misread = MISREADINGS.iter().map(|m| (m.files, m.whose, m.why));
    let verify = VERIFY_PINS.iter().map(|v| (v.files, v.whose, v.why));
    for (files, whose, why) in misread.chain(verify) {
        if applies(files) && !whys.iter().any(|(_, w)| *w == why) {
            whys.push((whose, why));
        }
    }
    for (whose, why) in whys {
        println!("PINNED ({whose}): {why}");
    }
}

/// Fails each file that a pin names and Spark does not write (or pqkit does not).
fn check_listed(tally: &mut Tally, written: &[Written]) {
    let mut files: Vec<PathBuf> = written.iter().map(|w| PathBuf::from(&w.name)).collect();
    files.extend(OURS.iter().map(|o| PathBuf::from(o.name)));
    let listed = PINS
        .iter()
        .flat_map(|p| p.files.iter().map(|f| (*f, "PINS")))
        .chain(
            MISREADINGS
                .iter()
                .flat_map(|m| m.files.iter().map(|f| (*f, "MISREADINGS"))),
        )
        .chain(
            VERIFY_PINS
                .iter()
                .flat_map(|v| v.files.iter().map(|f| (*f, "VERIFY_PINS"))),
        );
    let mut seen = std::collections::BTreeSet::new();
    let listed: Vec<_> = listed.filter(|entry| seen.insert(*entry)).collect();
    rows::fail_unlisted(tally, &files, listed, "neither Spark nor pqkit writes it");
}

// ---------------------------------------------------------------------------------------
// Spark writes, pqkit reads

fn check_spark_file(
    pqkit: &Pqkit,
    dir: &Path,
    file: &Written,
    tally: &mut Tally,
) -> Result<(), String> {
    let name = &file.name;
    if let Some(error) = &file.error {
        tally.fail(name, &format!("Spark ({}): {error}", file.checks));
        return Ok(());
    }
    let path = dir.join("spark").join(name);
    let expected = read(&dir.join("expected").join(format!("{name}.jsonl")))?;
    let wall_path = dir.join("expected").join(format!("{name}.wall.jsonl"));
    let wall = if wall_path.exists() {
        Some(read(&wall_path)?)
    } else {
        None
    };
    let view = View::new(Reader::Pqkit, name, true);
    let mut notes = Vec::new();
    let mut pinned = view.misread();
    let outcome = (|| {
        let expected = view.apply(&expected, wall.as_deref())?;
        let rows = rows::check(pqkit, &path, &[], &expected).map_err(|e| e + &view.reasons())?;
        notes.push(format!("{rows} rows"));
        notes.extend(view.notes());
        notes.push(verify(pqkit, &path, name, &mut pinned)?);
        if name == "spark-bloom.parquet" {
            notes.push(bloom(pqkit, &path, &expected)?);
        }
        Ok::<_, String>(())
    })();
    if !file.metadata.is_empty() {
        notes.push(format!("Spark recorded {}", file.metadata));
    }
    if !pinned.is_empty() {
        tally.pinned(&format!("PINNED {name}: {}", pinned.join("; ")));
    }
    match outcome {
        Ok(()) => tally.pass(name, &format!("{}: {}", file.checks, notes.join("; "))),
        Err(reason) => tally.fail(name, &format!("{}: {reason}", file.checks)),
    }
    Ok(())
}

/// `pqkit verify`: sound, or only the disagreements of [`VERIFY_PINS`] (each pinned one
/// showing); a note for the tally.
fn verify(
    pqkit: &Pqkit,
    path: &Path,
    name: &str,
    pinned: &mut Vec<String>,
) -> Result<String, String> {
    let output = pqkit.run(&[OsString::from("verify"), path.into()])?;
    let pins: Vec<&VerifyPin> = VERIFY_PINS
        .iter()
        .filter(|p| p.files.contains(&name))
        .collect();
    let disagreements: Vec<&str> = output
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("disagreement: "))
        .collect();
    let notes = output
        .stdout
        .lines()
        .filter(|l| l.starts_with("note: "))
        .count();
    match output.code {
        Some(0) if pins.is_empty() && notes == 0 => return Ok("verify: sound".to_owned()),
        Some(0) if pins.is_empty() => {
            return Ok(format!(
                "verify: sound, with {notes} notes of writers' known habits"
            ));
        }
        Some(0) => {
            return Err(format!(
                "pqkit verify finds it sound, where VERIFY_PINS expects {:?}",
                pins[0].says
            ));
        }
        Some(1) if !disagreements.is_empty() => {}
        _ => return Err(format!("pqkit verify: {}", output.describe())),
    }
    if let Some(line) = disagreements
        .iter()
        .find(|line| !pins.iter().any(|p| line.contains(p.says)))
    {
        return Err(format!("pqkit verify: {line}"));
    }
    if let Some(pin) = pins
        .iter()
        .find(|p| !disagreements.iter().any(|line| line.contains(p.says)))
    {
        return Err(format!(
            "pqkit verify no longer says {:?}: take it off VERIFY_PINS",
            pin.says
        ));
    }
    for pin in &pins {
        pinned.push(format!("pqkit verify says {:?} ({})", pin.says, pin.whose));
    }
    Ok(format!(
        "verify: {} disagreements, as VERIFY_PINS says",
        disagreements.len()
    ))
}

/// `pqkit bloom` on every value of the columns of [`BLOOM_COLUMNS`] (in one row group):
/// each must be one that the filter might contain.
fn bloom(pqkit: &Pqkit, path: &Path, expected: &str) -> Result<String, String> {
    let mut probes = 0;
    for column in BLOOM_COLUMNS {
        let mut values: Vec<String> = Vec::new();
        for line in expected.lines() {
            let row: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
            match &row[*column] {
                Value::Null => {}
                Value::String(s) => values.push(s.clone()),
                other => values.push(other.to_string()),
            }
        }
        values.sort();
        values.dedup();
        for value in values {
            let args = [
                "bloom".into(),
                path.into(),
                (*column).into(),
                "--".into(),
                value.clone().into(),
            ];
            let output = pqkit.run(&args)?;
            if output.code != Some(0)
                || output.stdout != format!("row group 0: might contain {value}\n")
            {
                return Err(format!(
                    "pqkit bloom {column} {value:?}: {} {:?}",
                    output.describe(),
                    output.stdout
                ));
            }
            probes += 1;
        }
    }
    Ok(format!(
        "pqkit bloom finds all {probes} values of {}",
        BLOOM_COLUMNS.join(" and ")
    ))
}

// ---------------------------------------------------------------------------------------
// pqkit writes, Spark reads

/// Writes the files of [`OURS`] that the filters select into `<dir>/ours`; their names.
fn make_ours(
    pqkit: &Pqkit,
    dir: &Path,
    written: &[Written],
    selected: &dyn Fn(&str) -> bool,
    tally: &mut Tally,
) -> Result<Vec<String>, String> {
    let wanted: Vec<&Ours> = OURS.iter().filter(|o| selected(o.name)).collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let ours = dir.join("ours");
    if ours.exists() {
        std::fs::remove_dir_all(&ours).map_err(|e| format!("{}: {e}", ours.display()))?;
    }
    std::fs::create_dir_all(&ours).map_err(|e| format!("{}: {e}", ours.display()))?;
    let spark = dir.join("spark");
    let spark_parquet = spark.join(SPARK_PARQUET);
    let spark_orc = spark.join(SPARK_ORC);
    for source in [SPARK_PARQUET, SPARK_ORC] {
        if let Some(w) = written
            .iter()
            .find(|w| w.name == source && w.error.is_some())
        {
            for o in &wanted {
                tally.fail(
                    o.name,
                    &format!("Spark did not write {source}: {:?}", w.error),
                );
            }
            return Ok(Vec::new());
        }
    }

    // The rows as pqkit must print them, and the schema pqkit prints.
    let expected = read(&dir.join("expected").join(format!("{SPARK_PARQUET}.jsonl")))?;
    let rows_text = View::new(Reader::Pqkit, SPARK_PARQUET, true).apply(&expected, None)?;
    let rows_path = ours.join(format!("{SPARK_PARQUET}.jsonl"));
    std::fs::write(&rows_path, rows_text).map_err(|e| format!("{}: {e}", rows_path.display()))?;
    let schema = pqkit.run(&["schema".into(), spark_parquet.clone().into()])?;
    if schema.code != Some(0) {
        return Err(format!(
            "pqkit schema {SPARK_PARQUET}: {}",
            schema.describe()
        ));
    }
    let schema_path = ours.join("schema.txt");
    std::fs::write(&schema_path, &schema.stdout)
        .map_err(|e| format!("{}: {e}", schema_path.display()))?;

    let started = Instant::now();
    let mut made = Vec::new();
    for o in wanted {
        let out = ours.join(o.name);
        let mut args: Vec<OsString> = match o.input {
            Input::Rows => vec![
                "convert".into(),
                rows_path.clone().into(),
                out.into(),
                "--schema".into(),
                schema_path.clone().into(),
            ],
            Input::SparkParquet if o.name.ends_with(".parquet") => {
                vec!["rewrite".into(), spark_parquet.clone().into(), out.into()]
            }
            Input::SparkParquet => {
                vec!["convert".into(), spark_parquet.clone().into(), out.into()]
            }
            Input::SparkOrc => vec!["convert".into(), spark_orc.clone().into(), out.into()],
        };
        args.extend(o.args.iter().map(OsString::from));
        let output = pqkit.run(&args)?;
        if output.code == Some(0) {
            made.push(o.name.to_owned());
        } else {
            tally.fail(o.name, &format!("pqkit: {}", output.describe()));
        }
    }
    println!(
        "spark: pqkit wrote {} files in {:.1} s",
        made.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(made)
}

/// Compares what Spark read of each file we made (`read.json`) with the rows expected,
/// and what its scans skipped with [`SKIPS`]; the number of reads.
fn check_spark_reads(dir: &Path, made: &[String], tally: &mut Tally) -> Result<usize, String> {
    let path = dir.join("read.json");
    let reads: Value =
        serde_json::from_str(&read(&path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let reads = reads
        .as_array()
        .ok_or_else(|| format!("{}: not a list", path.display()))?;
    let read_dir = dir.join("read");
    let all_rows = read(&dir.join("expected").join(format!("{SPARK_PARQUET}.jsonl")))?;
    let mut count = 0;
    for name in made {
        let mine: Vec<&Value> = reads.iter().filter(|r| r["file"] == **name).collect();
        if mine.is_empty() {
            tally.fail(name, "Spark did not read it");
        }
        for skip in SKIPS.iter().filter(|s| s.file == name) {
            if !mine.iter().any(|r| r["filter"] == skip.filter) {
                tally.fail(
                    name,
                    &format!(
                        "SKIPS names {:?}, which Spark did not read it with",
                        skip.filter
                    ),
                );
            }
        }
        for entry in mine {
            count += 1;
            let reader = entry["reader"].as_str().unwrap_or("?");
            let filter = entry["filter"].as_str();
            let label = match filter {
                Some(filter) => format!("{name} [Spark {reader}, where {filter}]"),
                None => format!("{name} [Spark {reader}]"),
            };
            if let Some(error) = entry["error"].as_str() {
                tally.fail(&label, &format!("Spark: {error}"));
                continue;
            }
            let expected = match entry["expected"].as_str() {
                Some(file) => read(&read_dir.join(file))?,
                None => all_rows.clone(),
            };
            let actual = read(&read_dir.join(entry["rows"].as_str().unwrap_or("?")))?;
            let view = View::new(Reader::Spark, name, filter.is_none());
            let misread = view.misread();
            if !misread.is_empty() && filter.is_none() {
                tally.pinned(&format!("PINNED {label}: {}", misread.join("; ")));
            }
            let scanned = entry["scanned"].as_u64().unwrap_or(u64::MAX);
            let skip = SKIPS
                .iter()
                .find(|s| s.file == name && filter == Some(s.filter));
            let outcome = view
                .apply(&expected, None)
                .and_then(|expected| rows::compare_as(&expected, &actual, "spark"))
                .map_err(|reason| reason + &view.reasons())
                .and_then(|rows| match skip {
                    Some(skip) if !skip.scanned.contains(&scanned) => Err(format!(
                        "{rows} rows, but its scan put out {scanned}, where SKIPS expects \
                         {:?}, skipped by {}",
                        skip.scanned, skip.by
                    )),
                    _ => Ok(rows),
                });
            match outcome {
                Ok(rows) => {
                    let mut notes = vec![format!("{rows} rows")];
                    if filter.is_some() {
                        notes.push(format!("{scanned} scanned"));
                    }
                    if let Some(skip) = skip {
                        notes.push(format!("skipped by {}", skip.by));
                    }
                    notes.extend(view.notes());
                    tally.pass(&label, &notes.join("; "));
                }
                Err(reason) => tally.fail(&label, &reason),
            }
        }
    }
    Ok(count)
}

// ---------------------------------------------------------------------------------------
// Spark's view, as the reader prints it

/// The pins of one file for one reader.
struct View {
    pins: Vec<&'static Pin>,
    misreadings: Vec<&'static Misreading>,
    /// Whether the rows are all the file's (not filtered): each pin must change a value,
    /// and each misreading show.
    all_rows: bool,
}

impl View {
    fn new(reader: Reader, name: &str, all_rows: bool) -> Self {
        View {
            pins: PINS
                .iter()
                .filter(|p| p.reader == reader && p.files.contains(&name))
                .collect(),
            misreadings: MISREADINGS
                .iter()
                .filter(|m| m.reader == reader && m.files.contains(&name))
                .collect(),
            all_rows,
        }
    }

    /// What the pins make of the file's rows, for the tally.
    fn notes(&self) -> Vec<String> {
        let pins = self
            .pins
            .iter()
            .map(|p| format!("{} {:?}", p.column, p.how))
            .collect::<Vec<_>>();
        if pins.is_empty() {
            Vec::new()
        } else {
            vec![format!("as PINS says: {}", pins.join(", "))]
        }
    }

    /// Why the pins are, for a failure's message.
    fn reasons(&self) -> String {
        let lines: Vec<String> = self
            .pins
            .iter()
            .map(|p| format!("\n      (pinned: {} {:?}: {})", p.column, p.how, p.why))
            .collect();
        lines.concat()
    }

    /// The misreadings expected, for the tally's PINNED line.
    fn misread(&self) -> Vec<String> {
        self.misreadings
            .iter()
            .map(|m| {
                format!(
                    "{} {} read as {} ({})",
                    m.column, m.expected, m.reads, m.whose
                )
            })
            .collect()
    }

    /// Spark's view (`expected`, JSONL) with the pins applied; `wall` the rows of
    /// [`How::WriterWallClock`]. A pin that changes nothing in all rows, or a misreading
    /// that does not show in them, is an error.
    fn apply(&self, expected: &str, wall: Option<&str>) -> Result<String, String> {
        let wall: Vec<Value> = match wall {
            Some(text) => text
                .lines()
                .map(serde_json::from_str)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("wall clocks: {e}"))?,
            None => Vec::new(),
        };
        let mut changed = vec![0_usize; self.pins.len()];
        let mut shown = vec![0_usize; self.misreadings.len()];
        let mut out = String::with_capacity(expected.len());
        for (index, line) in expected.lines().enumerate() {
            let mut row: Value =
                serde_json::from_str(line).map_err(|e| format!("expected row {index}: {e}"))?;
            let mut touched = false;
            for (pin, count) in self.pins.iter().zip(&mut changed) {
                let Some(Value::String(text)) = row.get(pin.column) else {
                    continue;
                };
                let mut value = Value::String(text.clone());
                for how in pin.how {
                    value = convert(*how, &value, wall.get(index).map(|w| &w[pin.column]))
                        .map_err(|e| format!("row {index}, {}: {e}", pin.column))?;
                }
                if row[pin.column] != value {
                    row[pin.column] = value;
                    *count += 1;
                    touched = true;
                }
            }
            for (m, count) in self.misreadings.iter().zip(&mut shown) {
                if row.get(m.column).and_then(Value::as_str) == Some(m.expected) {
                    row[m.column] = Value::String(m.reads.to_owned());
                    *count += 1;
                    touched = true;
                }
            }
            if touched {
                out.push_str(&row.to_string());
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
        if self.all_rows
            && let Some((pin, _)) = self.pins.iter().zip(&changed).find(|(_, n)| **n == 0)
        {
            return Err(format!(
                "the pin of {} ({:?}) changes none of its values: take it off PINS",
                pin.column, pin.how
            ));
        }
        if self.all_rows
            && let Some((m, _)) = self.misreadings.iter().zip(&shown).find(|(_, n)| **n == 0)
        {
            return Err(format!(
                "no {} is {}, as MISREADINGS expects: take it off",
                m.column, m.expected
            ));
        }
        Ok(out)
    }
}

/// One step of a pin on a value (a string of Spark's view).
fn convert(how: How, value: &Value, wall: Option<&Value>) -> Result<Value, String> {
    let text = value.as_str().ok_or("not a string")?;
    let instant = |text: &str| {
        text.strip_suffix('Z')
            .filter(|t| fraction(t).is_some_and(|f| f.len() == 6))
            .map(str::to_owned)
            .ok_or_else(|| format!("{text:?} is not an instant with six fraction digits"))
    };
    Ok(Value::String(match how {
        How::UtcNanoseconds => instant(text)? + "000",
        How::Milliseconds => {
            let clock = instant(text)?;
            let kept = clock
                .strip_suffix("000")
                .ok_or_else(|| format!("{text:?} has digits below milliseconds"))?;
            format!("{kept}Z")
        }
        How::WriterWallClock => {
            instant(text)?;
            let clock = wall
                .and_then(Value::as_str)
                .ok_or("no wall clock of the writer's zone")?;
            format!("{clock}000")
        }
        How::Microseconds => return microseconds(text).map(Value::from),
        How::Instant => {
            microseconds(text)?;
            format!("{text}Z")
        }
        How::JulianAsGregorian => julian_as_gregorian(text)?,
    }))
}

/// The fraction digits of a wall clock `…HH:MM:SS.ffffff`.
fn fraction(text: &str) -> Option<&str> {
    let (_, digits) = text.rsplit_once('.')?;
    digits.bytes().all(|b| b.is_ascii_digit()).then_some(digits)
}

/// `YYYY-MM-DD` at the start of `text`, and the rest.
fn date(text: &str) -> Result<((i64, i64, i64), &str), String> {
    let bad = || format!("{text:?} does not start with a date YYYY-MM-DD");
    let head = text.get(..10).ok_or_else(bad)?;
    let number = |range: std::ops::Range<usize>| head[range].parse::<i64>().map_err(|_| bad());
    if head.as_bytes()[4] != b'-' || head.as_bytes()[7] != b'-' {
        return Err(bad());
    }
    Ok(((number(0..4)?, number(5..7)?, number(8..10)?), &text[10..]))
}

/// A wall clock `YYYY-MM-DDTHH:MM:SS.ffffff` as microseconds since 1970-01-01T00:00:00.
fn microseconds(text: &str) -> Result<i64, String> {
    let bad = || format!("{text:?} is not a wall clock YYYY-MM-DDTHH:MM:SS.ffffff");
    let ((year, month, day), rest) = date(text)?;
    let clock = rest.strip_prefix('T').ok_or_else(bad)?;
    if clock.len() != 15 || fraction(clock).is_none_or(|f| f.len() != 6) {
        return Err(bad());
    }
    let field = |range: std::ops::Range<usize>| clock[range].parse::<i64>().map_err(|_| bad());
    let seconds = field(0..2)? * 3600 + field(3..5)? * 60 + field(6..8)?;
    Ok((days_from_civil(year, month, day) * 86_400 + seconds) * 1_000_000 + field(9..15)?)
}

/// A date (or timestamp text) before 1582-10-15 read as a Julian date, printed as the
/// proleptic Gregorian date of that day; a later one as it is.
fn julian_as_gregorian(text: &str) -> Result<String, String> {
    let ((year, month, day), rest) = date(text)?;
    if (year, month, day) >= (1582, 10, 15) {
        return Ok(text.to_owned());
    }
    // The Julian day number of a Julian calendar date (valid from 4800 BC).
    let a = (14 - month) / 12;
    let y = year + 4800 - a;
    let m = month + 12 * a - 3;
    let julian_day = day + (153 * m + 2) / 5 + 365 * y + y / 4 - 32_083;
    let (year, month, day) = civil_from_days(julian_day - 2_440_588);
    let year = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else {
        format!("{year:+05}")
    };
    Ok(format!("{year}-{month:02}-{day:02}{rest}"))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(how: How, value: &str) -> Result<Value, String> {
        convert(how, &Value::String(value.to_owned()), None)
    }

    #[test]
    fn instants_as_the_contract_prints_them() {
        let ts = "1172-04-11T01:02:03.123456Z";
        assert_eq!(
            text(How::UtcNanoseconds, ts),
            Ok(Value::from("1172-04-11T01:02:03.123456000"))
        );
        assert!(text(How::Milliseconds, ts).is_err());
        assert_eq!(
            text(How::Milliseconds, "1970-01-01T00:00:00.123000Z"),
            Ok(Value::from("1970-01-01T00:00:00.123Z"))
        );
        assert!(text(How::UtcNanoseconds, "1970-01-01T00:00:00.000000").is_err());
        assert_eq!(
            text(How::Microseconds, "1969-12-31T23:59:59.999999"),
            Ok(Value::from(-1))
        );
        assert_eq!(
            text(How::Microseconds, "0001-01-01T00:00:00.000000"),
            Ok(Value::from(-62_135_596_800_000_000_i64))
        );
        assert_eq!(
            text(How::Instant, "2020-03-08T10:30:00.000000"),
            Ok(Value::from("2020-03-08T10:30:00.000000Z"))
        );
        let wall = Value::from("1172-04-10T17:09:05.123456");
        assert_eq!(
            convert(How::WriterWallClock, &Value::from(ts), Some(&wall)),
            Ok(Value::from("1172-04-10T17:09:05.123456000"))
        );
    }

    #[test]
    fn julian_dates_as_gregorian() {
        let cases = [
            ("0001-01-01", "0000-12-30"),
            ("1172-04-11", "1172-04-18"),
            ("0040-12-26T14:24:44.938280Z", "0040-12-24T14:24:44.938280Z"),
            ("1582-10-04T23:59:59.999999Z", "1582-10-14T23:59:59.999999Z"),
            ("1582-10-15", "1582-10-15"),
            ("2000-02-29", "2000-02-29"),
        ];
        for (julian, gregorian) in cases {
            assert_eq!(
                julian_as_gregorian(julian).as_deref(),
                Ok(gregorian),
                "{julian}"
            );
        }
    }

    #[test]
    fn calendar_round_trip() {
        for days in [-719_162, -141_427, -1, 0, 18_329, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(-719_162), (1, 1, 1));
    }

    #[test]
    fn pins_are_distinct_and_explained() {
        for (i, pin) in PINS.iter().enumerate() {
            assert!(!pin.how.is_empty() && !pin.why.is_empty());
            for file in pin.files {
                assert!(
                    PINS[..i].iter().all(|p| p.column != pin.column
                        || p.reader != pin.reader
                        || !p.files.contains(file)),
                    "{file} {} pinned twice",
                    pin.column
                );
            }
        }
        for m in MISREADINGS {
            assert!(m.expected != m.reads && !m.why.is_empty());
        }
    }

    #[test]
    fn a_pin_that_changes_nothing_is_stale() {
        let view = View::new(Reader::Pqkit, "spark-timestamp-millis.parquet", true);
        let rows = "{\"ts\":\"1970-01-01T00:00:00.123000Z\"}\n";
        assert_eq!(
            view.apply(rows, None).as_deref(),
            Ok("{\"ts\":\"1970-01-01T00:00:00.123Z\"}\n")
        );
        assert!(view.apply("{\"ts\":null}\n", None).is_err());
    }
}
