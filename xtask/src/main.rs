//! Project automation, run as `cargo xtask <command>`:
//!
//! - `fuzz [--seconds N] [TARGET...]`: builds the cargo-fuzz targets of `fuzz/` and runs
//!   each for N seconds (default 10), with the nightly toolchain and AddressSanitizer when
//!   nightly is installed, otherwise on the default toolchain with `--sanitizer none`.
//!   Installs cargo-fuzz into `target/xtask-tools` when it is not on the `PATH`.
//! - `bench [ARGS...]`: runs the comparison against arrow-rs in `compare/` (a workspace of
//!   its own, so `cargo test` never builds arrow-rs) and prints its table.
//! - `corpus [FILTER]`: runs the tests that read the real files of `../shared/corpus`. They
//!   live in each crate's `tests/corpus.rs`, marked `#[ignore]` so that `cargo test` on a
//!   fresh clone does not need them, and find the corpus through `PARQUET_KIT_CORPUS`.
#![allow(clippy::print_stdout)]

mod fuzz;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("corpus") => corpus(&args[1..]),
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
    "usage: cargo xtask fuzz [--seconds N] [TARGET...] | cargo xtask bench [ARGS...] | \
     cargo xtask corpus [FILTER]"
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

fn bench(args: &[String]) -> Result<(), String> {
    let root = root();
    run(Command::new("cargo")
        .current_dir(root.join("compare"))
        .args(["bench", "--bench", "compare", "--"])
        .args(args))
}

fn corpus(args: &[String]) -> Result<(), String> {
    let root = root();
    let corpus = root.join("..").join("shared").join("corpus");
    if !corpus.is_dir() {
        return Err(format!(
            "no corpus at {}: the tests need ../shared/corpus",
            corpus.display()
        ));
    }
    run(Command::new("cargo")
        .current_dir(&root)
        .env("PARQUET_KIT_CORPUS", &corpus)
        .args(["test", "--workspace", "--test", "corpus", "--", "--ignored"])
        .args(args))
}
