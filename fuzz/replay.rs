//! Fuzz regressions replayed as tests: each crate's `tests/fuzz_regressions.rs` includes
//! this file and the bodies of its fuzz targets (`fuzz/bodies/`) by path, and runs every
//! input committed under `fuzz/regressions/<target>/` through the target's body, with
//! the memory bound libFuzzer runs it under.

use std::panic;
use std::path::Path;

// The counting allocator of parquet-thrift's allocation tests: the replay's global
// allocator, so that an input that once made a decoder reserve gigabytes fails here too
// (Linux hands out untouched memory lazily, so it would otherwise pass).
#[allow(unsafe_code)]
#[path = "../crates/parquet-thrift/tests/counting/mod.rs"]
mod counting;

/// The most one input may hold at once: `cargo xtask fuzz` runs libFuzzer with
/// `-malloc_limit_mb=64`.
const MAX_PEAK: usize = 64 << 20;

/// Runs every file of `fuzz/regressions/<target>/` through `run`, the target's body.
///
/// # Panics
///
/// When the directory is missing or holds no file (a replay that finds nothing must not
/// pass), or when any input panics or holds more than [`MAX_PEAK`] bytes at once: all
/// are run, and the failing ones named.
pub fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/regressions")
        .join(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: every fuzz target keeps at least one regression input",
            dir.display()
        )
    });
    let mut files: Vec<_> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{}: no regression inputs; every fuzz target keeps at least one",
        dir.display()
    );
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut outcome = Ok(());
        let peak = counting::peak_allocation(|| outcome = panic::catch_unwind(|| run(&data)));
        if outcome.is_err() {
            failed.push(file.display().to_string());
        } else if peak > MAX_PEAK {
            failed.push(format!("{} (held {peak} bytes)", file.display()));
        }
    }
    assert!(
        failed.is_empty(),
        "{target}: {} of {} regression inputs fail: {}",
        failed.len(),
        files.len(),
        failed.join(", ")
    );
}
