//! `cargo xtask fuzz`.

use crate::{root, run as run_command};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut seconds = 10u64;
    let mut only = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let value = args.next().ok_or("--seconds needs a value")?;
                seconds = value
                    .parse()
                    .map_err(|_| format!("--seconds: not a number: {value}"))?;
            }
            target if !target.starts_with('-') => only.push(target.to_owned()),
            other => return Err(format!("unknown option {other}")),
        }
    }

    let root = root();
    let fuzz_dir = root.join("fuzz");
    let cargo_fuzz = cargo_fuzz(&root)?;
    let nightly = Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .output()
        .is_ok_and(|output| output.status.success());
    let sanitizer: &[&str] = if nightly {
        &[]
    } else {
        &["--sanitizer", "none"]
    };
    let toolchain = if nightly { "nightly" } else { "stable" };
    println!(
        "fuzz: {toolchain} toolchain{}",
        if nightly {
            ", AddressSanitizer"
        } else {
            ", no sanitizer"
        }
    );

    let fuzz = |args: &[&str]| {
        let mut command = Command::new(&cargo_fuzz);
        command
            .current_dir(&fuzz_dir)
            .env("RUSTUP_TOOLCHAIN", toolchain)
            .args(args);
        command
    };

    let listed = fuzz(&["list"])
        .output()
        .map_err(|e| format!("cargo fuzz list: {e}"))?;
    let all: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    if let Some(unknown) = only.iter().find(|t| !all.contains(t)) {
        return Err(format!(
            "no fuzz target named {unknown}; targets: {}",
            all.join(", ")
        ));
    }
    let targets = if only.is_empty() { all } else { only };

    run_command(fuzz(&["build"]).args(sanitizer))?;
    println!("fuzz: {} targets, {seconds} s each", targets.len());
    let logs = root.join("target").join("fuzz-logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let mut failed = Vec::new();
    for target in &targets {
        let mut command = fuzz(&["run", target]);
        command.args(sanitizer);
        if !run_target(&mut command, &fuzz_dir, &logs, target, seconds)? {
            failed.push(target.clone());
        }
    }
    println!("fuzz: {} targets, {} failed", targets.len(), failed.len());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("fuzz targets failed: {}", failed.join(", ")))
    }
}

/// Targets seeded from a directory of the repository: the file reader starts from the
/// sample files of `testdata/`, rather than from nothing.
const SHARED_SEEDS: &[(&str, &str)] = &[("file_reader", "testdata")];

/// Runs one target for `seconds`, its output in `logs/<target>.log`; prints a line, and
/// the log's tail when it fails. Returns whether it passed.
fn run_target(
    command: &mut Command,
    fuzz_dir: &Path,
    logs: &Path,
    target: &str,
    seconds: u64,
) -> Result<bool, String> {
    let corpus = fuzz_dir.join("corpus").join(target);
    std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    command.arg(&corpus);
    let seeds = fuzz_dir.join("seeds").join(target);
    if seeds.is_dir() {
        command.arg(&seeds);
    }
    // The committed regressions are seeds too: the fuzzer starts from what once failed.
    let regressions = fuzz_dir.join("regressions").join(target);
    if regressions.is_dir() {
        command.arg(&regressions);
    }
    // Read-only seed directories of the project's own files (libFuzzer adds new inputs to
    // the first directory only).
    for (t, dir) in SHARED_SEEDS {
        if *t == target {
            command.arg(fuzz_dir.join("..").join(dir));
        }
    }
    command.args([
        "--",
        &format!("-max_total_time={seconds}"),
        "-rss_limit_mb=2048",
        // No decoder may allocate more than its input justifies: 64 MiB is far beyond
        // what a few kilobytes of fuzz input can need.
        "-malloc_limit_mb=64",
        "-timeout=10",
        "-print_final_stats=0",
    ]);
    let log_path = logs.join(format!("{target}.log"));
    let log =
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let log_err = log
        .try_clone()
        .map_err(|e| format!("{}: {e}", log_path.display()))?;
    command.stdout(log).stderr(log_err);
    let artifacts = fuzz_dir.join("artifacts").join(target);
    let before = artifact_files(&artifacts);
    let status = command
        .status()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let text = std::fs::read_to_string(&log_path).unwrap_or_default();
    let kept = keep_new_artifacts(&artifacts, &before, &regressions)?;
    if status.success() {
        let runs = text
            .lines()
            .rev()
            .find(|line| line.starts_with("Done "))
            .unwrap_or("");
        println!("fuzz: {target}: ok ({runs})");
        return Ok(true);
    }
    let lines: Vec<&str> = text.lines().collect();
    for line in &lines[lines.len().saturating_sub(40)..] {
        println!("    {line}");
    }
    println!(
        "fuzz: {target}: FAILED ({status}); full log in {}",
        log_path.display()
    );
    for file in &kept {
        println!(
            "fuzz: {target}: the failing input is now {}: commit it, and the crate's \
             tests/fuzz_regressions.rs replays it",
            Path::new("fuzz")
                .join(file.strip_prefix(fuzz_dir).unwrap_or(file))
                .display()
        );
    }
    Ok(false)
}

/// The inputs libFuzzer writes when a target fails (`crash-…`, `timeout-…`, `oom-…`,
/// `leak-…`), in the target's artifacts directory.
fn artifact_files(dir: &Path) -> BTreeSet<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|path| {
                    path.file_name().is_some_and(|name| {
                        let name = name.to_string_lossy();
                        ["crash-", "timeout-", "oom-", "leak-"]
                            .iter()
                            .any(|kind| name.starts_with(kind))
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Copies the artifacts of `dir` that were not in `before` into `regressions`, where the
/// replay tests find them; returns the copies.
fn keep_new_artifacts(
    dir: &Path,
    before: &BTreeSet<PathBuf>,
    regressions: &Path,
) -> Result<Vec<PathBuf>, String> {
    let mut kept = Vec::new();
    for artifact in artifact_files(dir).difference(before) {
        let Some(name) = artifact.file_name() else {
            continue;
        };
        std::fs::create_dir_all(regressions)
            .map_err(|e| format!("{}: {e}", regressions.display()))?;
        let copy = regressions.join(name);
        std::fs::copy(artifact, &copy)
            .map_err(|e| format!("{} -> {}: {e}", artifact.display(), copy.display()))?;
        kept.push(copy);
    }
    Ok(kept)
}

/// `cargo-fuzz` from the `PATH`, or installed into `target/xtask-tools`.
fn cargo_fuzz(root: &Path) -> Result<PathBuf, String> {
    let on_path = Command::new("cargo-fuzz").arg("--version").output();
    if on_path.is_ok_and(|output| output.status.success()) {
        return Ok(PathBuf::from("cargo-fuzz"));
    }
    let tools = root.join("target").join("xtask-tools");
    let binary = tools.join("bin").join("cargo-fuzz");
    if !binary.exists() {
        println!("fuzz: installing cargo-fuzz into {}", tools.display());
        run_command(
            Command::new("cargo")
                .args([
                    "install",
                    "cargo-fuzz",
                    "--locked",
                    "--version",
                    "0.13.2",
                    "--root",
                ])
                .arg(&tools),
        )?;
    }
    Ok(binary)
}
