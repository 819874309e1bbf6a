//! What the tests of `pqkit` share: running it, and a directory of their own.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // Each test file uses some.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub(crate) fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name)
}

/// The command that runs pqkit with `args`, for a test to give its input, environment
/// or directory before [`run`]ning it.
pub(crate) fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pqkit"));
    command.args(args);
    command
}

pub(crate) fn pqkit(args: &[&str]) -> Output {
    run(&mut command(args))
}

/// Runs pqkit with `input` on its standard input.
pub(crate) fn pqkit_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pqkit runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread, so that output filling its pipe cannot stall the input.
    let writer = std::thread::spawn(move || {
        // pqkit may stop reading early (and refuse the rest): not the test's failure.
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("pqkit runs");
    writer.join().unwrap();
    devices_untouched();
    output
}

/// Runs a pqkit `command`, then checks that no device was replaced.
pub(crate) fn run(command: &mut Command) -> Output {
    let output = command.output().expect("pqkit runs");
    devices_untouched();
    output
}

/// Fails when /dev/null is no longer a character device: after every command a test
/// runs, so that a command renaming a file over a device (which pqkit once did to
/// /dev/stdout) fails the suite wherever it happens. Only looked at, never written.
pub(crate) fn devices_untouched() {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let null = std::fs::symlink_metadata("/dev/null").expect("/dev/null exists");
        assert!(
            null.file_type().is_char_device(),
            "/dev/null is no longer a character device: {null:?}"
        );
    }
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
