//! Project automation, run as `cargo xtask <command>`:
//!
//! - `cycles [CRATE...]`: cycles between sibling modules in each crate of `crates/` and
//!   in `xtask` (see `cycles.rs`); fails when there is any.
//! - `fuzz [--seconds N] [TARGET...]`: builds the cargo-fuzz targets of `fuzz/` and runs
//!   each for N seconds (default 10), with the nightly toolchain and AddressSanitizer when
//!   nightly is installed, otherwise on the default toolchain with `--sanitizer none`.
//!   Installs cargo-fuzz into `target/xtask-tools` when it is not on the `PATH`. The
//!   inputs of `fuzz/regressions/<target>/` seed each run, and any input that makes a
//!   target fail (crash, timeout, out of memory) is copied there, to be committed: each
//!   crate's `tests/fuzz_regressions.rs` replays them through the targets' bodies
//!   (`fuzz/bodies/`).
//! - `bench [ARGS...]`: runs the comparison against arrow-rs in `compare/` (a workspace of
//!   its own, so `cargo test` never builds arrow-rs) and prints its table.
//! - `bench field [--smoke] [--rows N] [--rounds R] [FILTER...]`: parquet-kit against the
//!   field: files pyarrow, DuckDB and polars write, read and written by parquet-kit,
//!   arrow-rs, pyarrow, polars and DuckDB, and ORC by orc-rust, pyarrow.orc and pyorc, in
//!   one run and one table (`field.rs`).
//! - `corpus [FILTER]`: runs the tests that read the real files of `../shared/corpus` (or of
//!   the directory `PARQUET_KIT_CORPUS` names). They live in each crate's `tests/corpus.rs`,
//!   marked `#[ignore]` so that `cargo test` on a fresh clone does not need them, and find
//!   the corpus through `PARQUET_KIT_CORPUS`.
//! - `conformance [FILTER...]`: every file of the corpus's `parquet-testing/data` read by
//!   `pqkit cat --format jsonl` and compared row by row with pyarrow's rows mapped by the
//!   rows contract of DESIGN.md (the encrypted files: with the formula of the corpus
//!   README); every file of its `bad_data/` must make pqkit exit 1. Its `orc/` files
//!   likewise, against Apache ORC's JSON dumps of them or pyarrow.orc's rows, and every file
//!   of `orc/corrupt/` must make pqkit exit 1 (`orc/conformance.rs`).
//! - `interop [FILTER...]`: the same comparison on files that pyarrow, `DuckDB` and polars
//!   write into `<target>/interop/fixtures`; and the other way (`written/`): files that
//!   parquet-file's `FileWriter` writes into `<target>/interop/written` (every type,
//!   nesting, encoding, codec, page version, statistics and index setting, Bloom filters,
//!   encryption; `ours-*.parquet`), read by pyarrow, `DuckDB` and polars
//!   (`xtask/python/peers.py`) and by pqkit, and compared row for row with the rows
//!   written; pyarrow's statistics and page-index flags, each peer's filtered rows, and
//!   `DuckDB`'s Bloom filter probes checked against the data. What a peer cannot read is
//!   pinned, with what it says, in `written/refusals.rs`, beside the writer bugs that a
//!   peer shows (`WRITER_BUGS`). ORC both ways (`orc/`): files that pyarrow.orc and pyorc
//!   write, read by pqkit; files that `pqkit convert` writes (`ours-*.orc`), read by
//!   pyarrow.orc and pyorc; what they refuse or misread pinned in `orc/pins.rs`.
//!   Recovery (`recovery.rs`, `recover-*`): Parquet files of pyarrow, `DuckDB`, polars,
//!   ours (with checkpoints and without) and arrow-rs, and ORC files of pyarrow.orc and
//!   ours, cut at 20 points each and rebuilt by `pqkit recover`, which must keep every
//!   row group (stripe) whole before the cut, read by pyarrow as the source's first ones.
//! - `arrow [FILTER...]`: parquet-arrow's record batches of every Parquet and ORC file of
//!   the corpus and of `interop`'s fixtures, and of pyarrow's files of a table of every
//!   Arrow type, against pyarrow's tables of them (as Arrow IPC files), column for column
//!   with exact types; and those tables written by parquet-arrow's `ArrowWriter`, read
//!   back by pyarrow as written (`arrow/`, pins in `arrow/pins.rs`).
//! - `spark [FILTER...]`: Apache Spark (pyspark, in one local session: parquet-java and ORC
//!   Java) both ways (`spark.rs`, `xtask/python/spark.py`, into `<target>/spark`): a table
//!   of every Spark type written by Spark as Parquet and ORC with many settings (INT96 and
//!   TIMESTAMP units, the legacy format, v2 pages, codecs, Bloom filters, LEGACY rebased
//!   dates, Hive 0.11, a writer time zone of `America/Los_Angeles`), read by `pqkit cat` and
//!   compared with the rows Spark reads back, and checked by `pqkit verify`; the rows
//!   converted and rewritten by pqkit, read by Spark (vectorized and not, with filters
//!   pushed down) and compared with the rows Spark read of its own file. What pqkit prints
//!   otherwise by design, and what a format cannot hold, is pinned in `spark.rs`.
//!
//! `conformance`, `interop` and `spark` build pqkit with `cargo build --release -p pqkit`,
//! unless `PQKIT` names a binary; they and `arrow` run Python from a virtual environment in
//! `<target>/xtask-venv` that they create with the versions pinned in
//! `xtask/requirements.txt` (`python3`, or `PYTHON`, makes it; `spark` needs Java 17 or
//! newer on the `PATH`, or `JAVA_HOME`).
#![allow(clippy::print_stdout)]

mod arrow;
mod conformance;
mod cycles;
mod field;
mod fuzz;
mod interop;
mod orc;
mod python;
mod recovery;
mod rows;
mod spark;
mod written;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("cycles") => cycles::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("bench") if args.get(1).is_some_and(|a| a == "field") => field::run_field(&args[2..]),
        Some("bench") => bench(&args[1..]),
        Some("corpus") => corpus(&args[1..]),
        Some("conformance") => conformance::run(&args[1..]),
        Some("interop") => interop::run(&args[1..]),
        Some("arrow") => arrow::run(&args[1..]),
        Some("spark") => spark::run(&args[1..]),
        _ => Err(usage()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> String {
    "usage: cargo xtask cycles [CRATE...] | cargo xtask fuzz [--seconds N] [TARGET...] | \
     cargo xtask bench [ARGS...] | cargo xtask bench field [--smoke] [--rows N] [--rounds R] [FILTER...] | \
     cargo xtask corpus [FILTER] | cargo xtask conformance [FILTER...] | \
     cargo xtask interop [FILTER...] | cargo xtask arrow [FILTER...] | \
     cargo xtask spark [FILTER...]"
        .to_owned()
}

/// The workspace root: the parent of this crate's directory.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Runs `command`, failing with its description when it does not succeed.
fn run(command: &mut Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed with {status}"))
    }
}

/// Runs `command` for its standard output, failing when it does not succeed.
fn output(command: &mut Command) -> Result<String, String> {
    let output = command
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    if output.status.success() {
        String::from_utf8(output.stdout).map_err(|e| format!("{command:?}: {e}"))
    } else {
        Err(format!("{command:?} failed with {}", output.status))
    }
}

/// The cargo running this xtask.
fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The test corpus: `PARQUET_KIT_CORPUS`, or `../shared/corpus` beside the workspace.
fn corpus_dir(root: &Path) -> PathBuf {
    std::env::var_os("PARQUET_KIT_CORPUS").map_or_else(
        || root.join("..").join("shared").join("corpus"),
        PathBuf::from,
    )
}

/// The workspace's target directory, as cargo resolves it (`CARGO_TARGET_DIR`, config).
fn target_dir(root: &Path) -> Result<PathBuf, String> {
    let metadata = output(Command::new(cargo()).current_dir(root).args([
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
    ]))?;
    let metadata: serde_json::Value =
        serde_json::from_str(&metadata).map_err(|e| format!("cargo metadata: {e}"))?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata: no target_directory".to_owned())
}

fn bench(args: &[String]) -> Result<(), String> {
    let root = root();
    run(Command::new(cargo())
        .current_dir(root.join("compare"))
        .args(["bench", "--bench", "compare", "--"])
        .args(args))
}

fn corpus(args: &[String]) -> Result<(), String> {
    let root = root();
    let corpus = corpus_dir(&root);
    if !corpus.is_dir() {
        return Err(format!(
            "no corpus at {}: the tests need ../shared/corpus (or PARQUET_KIT_CORPUS)",
            corpus.display()
        ));
    }
    run(Command::new(cargo())
        .current_dir(&root)
        .env("PARQUET_KIT_CORPUS", &corpus)
        .args(["test", "--workspace", "--test", "corpus", "--", "--ignored"])
        .args(args))
}
