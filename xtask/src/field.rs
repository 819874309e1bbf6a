//! `cargo xtask bench field [--smoke] [--rows N] [--rounds R] [FILTER...]`: parquet-kit
//! against the field, in one run.
//!
//! 1. `xtask/python/field.py generate` makes the realistic tables and has pyarrow, DuckDB
//!    and polars write them (Parquet with their defaults and common settings; ORC by
//!    pyarrow) into `<target>/field/files/`, with each table as an Arrow IPC reference.
//!    The files are kept, and made again only when the rows asked for or the script
//!    change (`files/stamp`).
//! 2. The `field` rows of `compare/` (`compare/benches/compare/field.rs`): parquet-kit
//!    (serial and parallel), arrow-rs and the codec floor reading each Parquet file from
//!    memory; parquet-kit's and arrow-rs's `ArrowWriter`s writing each table; parquet-kit
//!    and orc-rust reading each ORC file. Every reader's output is checked against the
//!    reference first.
//! 3. `field.py read`, `write` and `orc`: pyarrow, polars and DuckDB (one thread and
//!    their default threads) reading and writing the same files and tables, pyarrow.orc
//!    and pyorc reading the ORC files, each checked against the reference first.
//!    The Rust half also measures the peak heap of each of its readers and writers
//!    (`memory.csv`).
//! 4. The medians of both halves, merged into the tables of BENCHMARKS.md's "parquet-kit
//!    against the field", printed and written to `<target>/field/field.md`.
//!
//! Filters keep the files and tables whose names contain one of them. `--smoke` is CI's
//! run: 20,000 rows, one round, and the Rust half built without optimisation (reusing
//! the dev build of `compare/` that CI's encryption test makes), so that the harness and
//! its checks cannot rot; its times mean nothing.

use crate::python::Python;
use crate::{cargo, root, run, target_dir};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// The flat table's rows by default (the other tables scale from it).
const ROWS: usize = 4_000_000;

/// The options of a run.
struct Options {
    smoke: bool,
    rows: usize,
    rounds: usize,
    filters: Vec<String>,
}

fn options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        smoke: false,
        rows: ROWS,
        rounds: 5,
        filters: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> Result<usize, String> {
            args.next()
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("bench field: {what} takes a number above 0"))
        };
        match arg.as_str() {
            "--smoke" => {
                options.smoke = true;
                options.rows = 20_000;
                options.rounds = 1;
            }
            "--rows" => options.rows = number("--rows")?,
            "--rounds" => options.rounds = number("--rounds")?,
            flag if flag.starts_with("--") => {
                return Err(format!("bench field: unknown option {flag}"));
            }
            filter => options.filters.push(filter.to_owned()),
        }
    }
    Ok(options)
}

pub(crate) fn run_field(args: &[String]) -> Result<(), String> {
    let options = options(args)?;
    let root = root();
    let target = target_dir(&root)?;
    let python = Python::setup(&root, &target)?;
    let dir = target.join(if options.smoke {
        "field-smoke"
    } else {
        "field"
    });
    generate(&python, &root, &dir, options.rows)?;

    let rounds = options.rounds.to_string();
    let filter = options.filters.join(",");
    let mut bench = Command::new(cargo());
    bench
        .current_dir(root.join("compare"))
        .env("COMPARE_FIELD_DIR", &dir)
        .env("COMPARE_FIELD_ROUNDS", &rounds)
        .env("COMPARE_FIELD_FILTER", &filter)
        .args(["bench", "--locked", "--bench", "compare"]);
    if options.smoke {
        bench.args(["--profile", "dev"]);
    }
    run(bench.args(["--", "field"]))?;

    for command in ["read", "write", "orc"] {
        let mut peers = python.script("field.py");
        peers.arg(command).arg(&dir).args(["--rounds", &rounds]);
        if !options.filters.is_empty() {
            peers.arg("--filter").args(&options.filters);
        }
        run(&mut peers)?;
    }

    let report = report(&dir, options.smoke)?;
    let path = dir.join("field.md");
    std::fs::write(&path, &report).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("{report}");
    println!("(also in {})", path.display());
    Ok(())
}

/// Makes the files of `rows` rows in `dir/files`, unless they are there from the same
/// rows and script.
fn generate(python: &Python, root: &Path, dir: &Path, rows: usize) -> Result<(), String> {
    let files = dir.join("files");
    let script = root.join("xtask").join("python").join("field.py");
    let script = std::fs::read(&script).map_err(|e| format!("{}: {e}", script.display()))?;
    let stamp_text = format!("rows {rows}, field.py {:016x}\n", fnv(&script));
    let stamp = files.join("stamp");
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == stamp_text) {
        println!("field: the files in {} are up to date", files.display());
        return Ok(());
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    run(python
        .script("field.py")
        .arg("generate")
        .arg(dir)
        .args(["--rows", &rows.to_string()]))?;
    std::fs::write(&stamp, stamp_text).map_err(|e| format!("{}: {e}", stamp.display()))
}

/// FNV-1a, to tell one version of the script from another.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Medians by row (a file, or a table and codec), then by reader or writer; and the
/// bytes of each row and writer, where a CSV gives them.
#[derive(Default)]
struct Medians {
    ms: BTreeMap<String, BTreeMap<String, f64>>,
    bytes: BTreeMap<(String, String), u64>,
}

impl Medians {
    /// Adds a CSV of `row,who,median_ms[,bytes|rounds]` (a header line first), whose
    /// row is the first field, or the first two joined by `-` when `joined`.
    fn add(&mut self, path: &Path, joined: bool) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
        let bytes_at = header.iter().position(|&h| h == "bytes");
        for line in lines {
            let fields: Vec<&str> = line.split(',').collect();
            let (row, rest) = if joined {
                let [table, codec, rest @ ..] = fields.as_slice() else {
                    return Err(format!("{}: {line:?}", path.display()));
                };
                (format!("{table}-{codec}"), rest)
            } else {
                let [file, rest @ ..] = fields.as_slice() else {
                    return Err(format!("{}: {line:?}", path.display()));
                };
                ((*file).to_owned(), rest)
            };
            let [who, ms, ..] = rest else {
                return Err(format!("{}: {line:?}", path.display()));
            };
            let ms: f64 = ms
                .parse()
                .map_err(|e| format!("{}: {line:?}: {e}", path.display()))?;
            self.ms
                .entry(row.clone())
                .or_default()
                .insert((*who).to_owned(), ms);
            if let Some(bytes) = bytes_at
                .and_then(|at| fields.get(at))
                .and_then(|b| b.parse().ok())
            {
                self.bytes.insert((row, (*who).to_owned()), bytes);
            }
        }
        Ok(())
    }
}

/// The tables of the report, from the CSVs in `dir`.
fn report(dir: &Path, smoke: bool) -> Result<String, String> {
    let mut reads = Medians::default();
    reads.add(&dir.join("reads.csv"), false)?;
    reads.add(&dir.join("peer-reads.csv"), false)?;
    let mut writes = Medians::default();
    writes.add(&dir.join("writes.csv"), false)?;
    writes.add(&dir.join("peer-writes.csv"), true)?;
    let mut orc = Medians::default();
    orc.add(&dir.join("orc.csv"), false)?;
    orc.add(&dir.join("peer-orc.csv"), false)?;

    let mut out = String::new();
    if smoke {
        out.push_str(
            "A smoke run (debug build, tiny files, one round): the times mean nothing.\n\n",
        );
    }
    read_table(&mut out, &reads);
    write_table(&mut out, &writes);
    orc_table(&mut out, &orc);
    memory_tables(&mut out, &dir.join("memory.csv"))?;
    Ok(out)
}

/// `bytes` in MB.
#[allow(clippy::cast_precision_loss)] // far below 2^52 bytes
fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// `ms` as the table shows it.
fn ms(ms: Option<f64>) -> String {
    ms.map_or_else(|| "-".to_owned(), |ms| format!("{ms:.0}"))
}

/// `a / b` as the table shows it (above 1: the second is slower).
fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "-".to_owned(),
    }
}

/// The fastest of `who` in `row`.
fn fastest(row: &BTreeMap<String, f64>, who: &[&str]) -> Option<(String, f64)> {
    who.iter()
        .filter_map(|w| row.get(*w).map(|&t| ((*w).to_owned(), t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

fn read_table(out: &mut String, reads: &Medians) {
    out.push_str(
        "Reads, median ms (from memory for parquet-kit and arrow-rs, from the page cache for \
         the others; ratios above 1: parquet-kit is faster):\n\n\
         | file | MB | parquet-kit | parallel | arrow-rs | pyarrow 1t | pyarrow | polars 1t | \
         polars | DuckDB 1t | DuckDB | floor | vs arrow-rs | vs fastest 1-thread peer | \
         parallel vs fastest peer | / floor |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (file, row) in &reads.ms {
        let get = |who: &str| row.get(who).copied();
        let ours = get("parquet-kit");
        let parallel = get("parquet-kit-parallel");
        let single = fastest(row, &["pyarrow-1", "polars-1", "duckdb-1"]);
        let all = fastest(row, &["pyarrow-all", "polars-all", "duckdb-all"]);
        let mb = reads
            .bytes
            .get(&(file.clone(), "parquet-kit".to_owned()))
            .map_or_else(|| "-".to_owned(), |&b| format!("{:.0}", mb(b)));
        let floor = get("floor").filter(|&f| f > 0.0);
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "| {file} | {mb} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            ms(ours),
            ms(parallel),
            ms(get("arrow-rs")),
            ms(get("pyarrow-1")),
            ms(get("pyarrow-all")),
            ms(get("polars-1")),
            ms(get("polars-all")),
            ms(get("duckdb-1")),
            ms(get("duckdb-all")),
            ms(floor),
            ratio(get("arrow-rs"), ours),
            single.map_or_else(
                || "-".to_owned(),
                |(who, t)| format!("{} ({who})", ratio(Some(t), ours))
            ),
            all.map_or_else(
                || "-".to_owned(),
                |(who, t)| format!("{} ({who})", ratio(Some(t), parallel))
            ),
            ratio(ours, floor),
        );
    }
    out.push('\n');
}

fn write_table(out: &mut String, writes: &Medians) {
    out.push_str(
        "Writes of each reference table, median ms and MB written (into memory for \
         parquet-kit and arrow-rs, to a file for the others):\n\n\
         | table, codec | parquet-kit | parallel | arrow-rs | pyarrow | polars | DuckDB 1t | \
         DuckDB | vs arrow-rs | vs fastest 1-thread peer | parallel vs fastest peer |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (what, row) in &writes.ms {
        let cell = |who: &str| {
            let t = row.get(who).copied();
            let mb = writes
                .bytes
                .get(&(what.clone(), who.to_owned()))
                .map(|&b| format!(" ({:.1} MB)", mb(b)))
                .unwrap_or_default();
            format!("{}{mb}", ms(t))
        };
        let ours = row.get("parquet-kit").copied();
        let parallel = row.get("parquet-kit-parallel").copied();
        // pyarrow and polars write with one thread; DuckDB with one or all.
        let single = fastest(row, &["pyarrow", "polars", "duckdb-1"]);
        let all = fastest(row, &["pyarrow", "polars", "duckdb-all"]);
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "| {what} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell("parquet-kit"),
            ms(parallel),
            cell("arrow-rs"),
            cell("pyarrow"),
            cell("polars"),
            cell("duckdb-1"),
            cell("duckdb-all"),
            ratio(row.get("arrow-rs").copied(), ours),
            single.map_or_else(
                || "-".to_owned(),
                |(who, t)| format!("{} ({who})", ratio(Some(t), ours))
            ),
            all.map_or_else(
                || "-".to_owned(),
                |(who, t)| format!("{} ({who})", ratio(Some(t), parallel))
            ),
        );
    }
    out.push('\n');
}

fn orc_table(out: &mut String, orc: &Medians) {
    out.push_str(
        "ORC reads, median ms:\n\n\
         | file | parquet-kit | orc-rust | pyarrow.orc | pyorc | vs orc-rust | vs pyarrow.orc |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (file, row) in &orc.ms {
        let get = |who: &str| row.get(who).copied();
        let ours = get("parquet-kit");
        let pyorc = fastest(row, &["pyorc-iter", "pyorc-read"]).map(|(_, t)| t);
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "| {file} | {} | {} | {} | {} | {} | {} |",
            ms(ours),
            ms(get("orc-rust")),
            ms(get("pyarrow.orc")),
            ms(pyorc),
            ratio(get("orc-rust"), ours),
            ratio(get("pyarrow.orc"), ours),
        );
    }
}

/// The peak heap of each read and write (`memory.csv`: `what,row,who,peak_bytes`), as
/// two tables.
fn memory_tables(out: &mut String, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // By kind (`read`, `write`), then row, then reader or writer.
    let mut peaks: BTreeMap<&str, BTreeMap<&str, BTreeMap<&str, u64>>> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let [what, row, who, bytes] = line.split(',').collect::<Vec<_>>()[..] else {
            return Err(format!("{}: {line:?}", path.display()));
        };
        let bytes = bytes
            .parse()
            .map_err(|e| format!("{}: {line:?}: {e}", path.display()))?;
        peaks
            .entry(what)
            .or_default()
            .entry(row)
            .or_default()
            .insert(who, bytes);
    }
    let cell = |row: &BTreeMap<&str, u64>, who: &str| {
        row.get(who)
            .map_or_else(|| "-".to_owned(), |&b| format!("{:.1}", mb(b)))
    };
    #[allow(clippy::cast_precision_loss)] // far below 2^52 bytes
    let share = |row: &BTreeMap<&str, u64>, of: &str| {
        ratio(
            row.get("parquet-kit").map(|&b| b as f64),
            row.get(of).map(|&b| b as f64),
        )
    };
    out.push_str(
        "\nPeak heap of a read, MB (one run each, above the file's bytes, every batch dropped \
         as it comes; ratios below 1: parquet-kit holds less):\n\n\
         | file | parquet-kit | parallel | arrow-rs | parquet-kit / arrow-rs |\n\
         |---|---:|---:|---:|---:|\n",
    );
    for (file, row) in peaks.get("read").into_iter().flatten() {
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "| {file} | {} | {} | {} | {} |",
            cell(row, "parquet-kit"),
            cell(row, "parquet-kit-parallel"),
            cell(row, "arrow-rs"),
            share(row, "arrow-rs"),
        );
    }
    out.push_str(
        "\nPeak heap of a write, MB (one run each, above the table's batches and an output \
         buffer already large enough); the bound: one row group of our file's pages as \
         stored plus its largest column chunk decompressed:\n\n\
         | table, codec | parquet-kit | parallel | arrow-rs | bound | parquet-kit / bound | \
         parquet-kit / arrow-rs |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (what, row) in peaks.get("write").into_iter().flatten() {
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "| {what} | {} | {} | {} | {} | {} | {} |",
            cell(row, "parquet-kit"),
            cell(row, "parquet-kit-parallel"),
            cell(row, "arrow-rs"),
            cell(row, "bound"),
            share(row, "bound"),
            share(row, "arrow-rs"),
        );
    }
    Ok(())
}
