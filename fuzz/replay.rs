//! Fuzz regressions replayed as tests: each crate's `tests/fuzz_regressions.rs` includes
//! this file and the bodies of its fuzz targets (`fuzz/bodies/`) by path, and runs every
//! input committed under `fuzz/regressions/<target>/` through the target's body.

use std::panic;
use std::path::Path;

/// Runs every file of `fuzz/regressions/<target>/` through `run`, the target's body.
///
/// # Panics
///
/// When the directory is missing or holds no file (a replay that finds nothing must not
/// pass), or when any input panics: all are run, and the failing ones named.
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
        if panic::catch_unwind(|| run(&data)).is_err() {
            failed.push(file.display().to_string());
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
