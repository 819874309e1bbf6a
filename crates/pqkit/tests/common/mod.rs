//! What the tests of `pqkit` share: running it, and a directory of their own.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // Each test file uses some.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name)
}

pub(crate) fn pqkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqkit"))
        .args(args)
        .output()
        .expect("pqkit runs")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// A directory of its own for a test, removed when dropped.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    pub(crate) fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("pqkit-cli-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    pub(crate) fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }

    /// The names of the files in the directory, sorted.
    pub(crate) fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs pqkit, which must succeed; its standard output.
pub(crate) fn ok(args: &[&str]) -> String {
    let output = pqkit(args);
    assert!(
        output.status.success(),
        "pqkit {args:?}: {}",
        stderr(&output)
    );
    stdout(&output)
}

/// What `pqkit cat` prints of `file` (with these extra arguments).
pub(crate) fn cat(file: &str, extra: &[&str]) -> String {
    let mut args = vec!["cat", file];
    args.extend_from_slice(extra);
    ok(&args)
}
