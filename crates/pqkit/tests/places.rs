//! Where `pqkit` reads and writes: `-`, pipes, FIFOs, devices, symbolic links, files it
//! may or may not write, and what is left when a run fails or is killed. Devices and
//! FIFOs are twins made in a test's own directory (`mknod`, `mkfifo`), never the real
//! ones under /dev.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.

mod common;

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use common::{TempDir, cat, command, ok, pqkit, pqkit_with_input, run, stderr, stdout, testdata};

fn example() -> String {
    testdata("example.parquet").to_str().unwrap().to_owned()
}

/// What `cat --format csv` prints of the example file: what `convert … --to csv`
/// writes.
fn example_csv() -> String {
    ok(&["cat", &example(), "--format", "csv"])
}

fn mkfifo(path: &str) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {path}");
}

/// A twin of /dev/null (character device 1:3) at `path`, when this user may make
/// devices (root, as in CI); `false`, with a message, when not.
fn null_twin(path: &str) -> bool {
    let made = Command::new("mknod")
        .args([path, "c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("skipped: mknod needs root (CAP_MKNOD); the CI runs this as root");
    }
    made
}

/// Reads the FIFO at `path` to its end, on a thread.
fn read_fifo(path: &str) -> JoinHandle<Vec<u8>> {
    let path = path.to_owned();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        File::open(path).unwrap().read_to_end(&mut bytes).unwrap();
        bytes
    })
}

/// Writes `bytes` to the FIFO at `path`, on a thread.
fn write_fifo(path: &str, bytes: Vec<u8>) -> JoinHandle<()> {
    let path = path.to_owned();
    thread::spawn(move || {
        OpenOptions::new()
            .write(true)
            .open(path)
            .unwrap()
            .write_all(&bytes)
            .unwrap();
    })
}

/// The device number and inode of what is at `path` (not following a link), and its
/// kind: what must be the same after pqkit wrote to it.
fn identity(path: &str) -> (u64, u64, u32) {
    let m = fs::symlink_metadata(path).unwrap();
    (m.dev(), m.ino(), m.mode() & 0o170_000)
}

fn mode(path: &str) -> u32 {
    fs::metadata(path).unwrap().mode() & 0o7777
}

#[test]
fn a_device_is_written_where_it_is_never_replaced() {
    let dir = TempDir::new("places-device");
    let null = dir.path("null");
    if !null_twin(&null) {
        return;
    }
    let link = dir.path("link-to-null.csv");
    std::os::unix::fs::symlink(&null, &link).unwrap();
    let before = (identity(&null), identity(&link));
    let file = example();
    for args in [
        vec!["convert", &file, &null, "--to", "csv"],
        vec!["convert", &file, &null, "--to", "jsonl"],
        vec!["convert", &file, &null, "--to", "parquet"],
        vec!["convert", &file, &null, "--to", "orc"],
        vec!["rewrite", &file, &null],
        vec!["convert", &file, &link],
    ] {
        let output = pqkit(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_eq!((identity(&null), identity(&link)), before, "{args:?}");
    }
    assert!(fs::metadata(&null).unwrap().file_type().is_char_device());
    // Nothing beside it either: no temporary file was made for a device.
    assert_eq!(dir.files(), ["link-to-null.csv", "null"]);
}

#[test]
fn a_fifo_is_written_in_one_pass() {
    let dir = TempDir::new("places-fifo-out");
    let fifo = dir.path("out.fifo");
    mkfifo(&fifo);
    let before = identity(&fifo);
    let reader = read_fifo(&fifo);
    ok(&["convert", &example(), &fifo, "--to", "csv"]);
    assert_eq!(
        String::from_utf8(reader.join().unwrap()).unwrap(),
        example_csv()
    );
    assert_eq!(identity(&fifo), before);
    // A Parquet file through a FIFO is whole.
    let reader = read_fifo(&fifo);
    ok(&["rewrite", &example(), &fifo, "--compression", "zstd"]);
    let copy = dir.path("copy.parquet");
    fs::write(&copy, reader.join().unwrap()).unwrap();
    assert_eq!(cat(&copy, &[]), cat(&example(), &[]));
    assert_eq!(identity(&fifo), before);
    assert_eq!(dir.files(), ["copy.parquet", "out.fifo"]);
}

#[test]
fn dev_stdout_is_standard_output_itself() {
    // /dev/stdout is a link to /proc/self/fd/1; this twin is one too.
    let dir = TempDir::new("places-stdout");
    let twin = dir.path("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &twin).unwrap();
    let before = identity(&twin);
    let output = pqkit(&["convert", &example(), &twin, "--to", "csv"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), example_csv());
    assert_eq!(identity(&twin), before);
    // Standard output open for appending (`>> log`) is appended to, not overwritten.
    let log = dir.path("log.csv");
    fs::write(&log, "before\n").unwrap();
    let append = OpenOptions::new().append(true).open(&log).unwrap();
    let output = run(command(&["convert", &example(), &twin, "--to", "csv"]).stdout(append));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        format!("before\n{}", example_csv())
    );
    assert_eq!(identity(&twin), before);
    assert_eq!(dir.files(), ["log.csv", "stdout"]);
}

#[test]
fn dash_is_standard_input_and_output_and_never_a_file() {
    let dir = TempDir::new("places-dash");
    let file = example();
    let in_dir = |args: &[&str]| run(command(args).current_dir(&dir.0));
    let output = in_dir(&["convert", &file, "-", "--to", "csv"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), example_csv());
    // Without --to, standard output has no extension to tell a format by.
    let output = in_dir(&["convert", &file, "-"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "pqkit: standard output: give --to, as there is no extension to tell the format by\n"
    );
    // Parquet from a pipe, for every reading command.
    let bytes = fs::read(&file).unwrap();
    let piped = |args: &[&str]| {
        let output = pqkit_with_input(args, &bytes);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        stdout(&output)
    };
    assert_eq!(piped(&["cat", "-"]), cat(&file, &[]));
    assert_eq!(piped(&["schema", "-"]), ok(&["schema", &file]));
    assert_eq!(piped(&["meta", "-"]), ok(&["meta", &file]));
    assert_eq!(piped(&["verify", "-"]), ok(&["verify", &file]));
    assert_eq!(piped(&["pages", "-"]), ok(&["pages", &file]));
    assert_eq!(
        piped(&["bloom", "-", "id", "3"]),
        ok(&["bloom", &file, "id", "3"])
    );
    assert_eq!(
        piped(&["convert", "-", "-", "--to", "jsonl"]),
        cat(&file, &[])
    );
    // Parquet through `rewrite - -`, read back from a pipe.
    let rewritten = pqkit_with_input(&["rewrite", "-", "-", "--compression", "gzip"], &bytes);
    assert!(rewritten.status.success(), "{}", stderr(&rewritten));
    let output = pqkit_with_input(&["cat", "-"], &rewritten.stdout);
    assert_eq!(stdout(&output), cat(&file, &[]));
    // ORC from a pipe.
    let orc = dir.path("example.orc");
    ok(&["convert", &file, &orc]);
    let orc_bytes = fs::read(&orc).unwrap();
    let output = pqkit_with_input(&["cat", "-"], &orc_bytes);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), cat(&orc, &[]));
    let output = pqkit_with_input(&["convert", "-", "-", "--to", "csv"], &orc_bytes);
    assert_eq!(stdout(&output), ok(&["cat", &orc, "--format", "csv"]));
    // Text from a pipe needs --from: its first bytes are not Parquet's or ORC's.
    let csv = example_csv();
    let output = pqkit_with_input(&["convert", "-", "-", "--to", "jsonl"], csv.as_bytes());
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "pqkit: standard input is not Parquet or ORC (by its first bytes); give --from jsonl or --from csv\n"
    );
    let schema = dir.path("schema.txt");
    fs::write(&schema, ok(&["schema", &file])).unwrap();
    let output = pqkit_with_input(
        &[
            "convert", "-", "-", "--from", "csv", "--to", "jsonl", "--schema", &schema,
        ],
        csv.as_bytes(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), cat(&file, &[]));
    // `--schema -` reads the schema from standard input.
    let out = dir.path("back.parquet");
    let csv_file = dir.path("rows.csv");
    fs::write(&csv_file, &csv).unwrap();
    let output = pqkit_with_input(
        &["convert", &csv_file, &out, "--schema", "-"],
        ok(&["schema", &file]).as_bytes(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(cat(&out, &[]), cat(&file, &[]));
    // Standard input that is a regular file is read where it lies.
    let output = run(command(&["cat", "-"]).stdin(File::open(&file).unwrap()));
    assert_eq!(stdout(&output), cat(&file, &[]));
    // No command made a file named `-`.
    assert!(!dir.0.join("-").exists());
    assert!(!Path::new("-").exists());
}

#[test]
fn a_pipe_is_read_into_memory_up_to_the_limit() {
    let bytes = fs::read(example()).unwrap();
    let output = pqkit_with_input(&["cat", "-", "--pipe-limit", "1K"], &bytes);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "pqkit: standard input: more than 1 KiB and not a regular file: Parquet and ORC are \
         read out of order, so such an input is held in memory, up to --pipe-limit; give a \
         file, or a larger --pipe-limit\n"
    );
    let limit = bytes.len().to_string();
    let output = pqkit_with_input(&["cat", "-", "--pipe-limit", &limit], &bytes);
    assert!(output.status.success(), "{}", stderr(&output));
    // An empty pipe is named as such, not as a footer out of place.
    let output = pqkit_with_input(&["verify", "-"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "pqkit: standard input: empty (0 bytes): not a Parquet or ORC file\n"
    );
    let output = pqkit(&["cat", "-", "--pipe-limit", "lots"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_fifo_input_is_opened_once_and_loses_nothing() {
    let dir = TempDir::new("places-fifo-in");
    let fifo = dir.path("in.csv");
    mkfifo(&fifo);
    // Larger than a pipe's buffer: a second opening would lose the first bytes.
    let mut csv = String::from("id,name\n");
    for i in 0..20_000 {
        writeln!(csv, "{i},name {i}").unwrap();
    }
    let out = dir.path("out.jsonl");
    let writer = write_fifo(&fifo, csv.clone().into_bytes());
    ok(&["convert", &fifo, &out]);
    writer.join().unwrap();
    let rows = fs::read_to_string(&out).unwrap();
    assert_eq!(rows.lines().count(), 20_000);
    assert_eq!(rows.lines().next(), Some(r#"{"id":0,"name":"name 0"}"#));
    assert_eq!(
        rows.lines().last(),
        Some(r#"{"id":19999,"name":"name 19999"}"#)
    );
    // A small one does not hang.
    let writer = write_fifo(&fifo, b"id\n7\n".to_vec());
    let child = command(&["convert", &fifo, &out])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_at_most(child, Duration::from_secs(30));
    writer.join().unwrap();
    assert!(status.success());
    assert_eq!(fs::read_to_string(&out).unwrap(), "{\"id\":7}\n");
    // Parquet through a FIFO.
    let parquet_fifo = dir.path("in.parquet");
    mkfifo(&parquet_fifo);
    let writer = write_fifo(&parquet_fifo, fs::read(example()).unwrap());
    assert_eq!(cat(&parquet_fifo, &[]), cat(&example(), &[]));
    writer.join().unwrap();
}

/// Waits for `child`, killing it (and failing) past `limit`.
fn wait_at_most(mut child: Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            panic!("pqkit still ran after {limit:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_symbolic_link_is_followed_and_its_target_replaced() {
    let dir = TempDir::new("places-link");
    fs::create_dir(dir.0.join("real")).unwrap();
    let target = dir.path("real/rows.csv");
    fs::write(&target, "old\n").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    // A relative link, resolved from its own directory.
    let link = dir.path("rows.csv");
    std::os::unix::fs::symlink("real/rows.csv", &link).unwrap();
    let before = identity(&link);
    ok(&["convert", &example(), &link]);
    assert_eq!(identity(&link), before);
    assert_eq!(fs::read_to_string(&target).unwrap(), example_csv());
    assert_eq!(mode(&target), 0o640);
    // A link to a file not there yet: the file is made.
    let dangling = dir.path("new.csv");
    std::os::unix::fs::symlink(dir.path("real/new.csv"), &dangling).unwrap();
    ok(&["convert", &example(), &dangling]);
    assert!(fs::symlink_metadata(&dangling).unwrap().is_symlink());
    assert_eq!(
        fs::read_to_string(dir.path("real/new.csv")).unwrap(),
        example_csv()
    );
    // A loop of links is refused.
    std::os::unix::fs::symlink(dir.path("b.csv"), dir.path("a.csv")).unwrap();
    std::os::unix::fs::symlink(dir.path("a.csv"), dir.path("b.csv")).unwrap();
    let output = pqkit(&["convert", &example(), &dir.path("a.csv")]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("more than 40 symbolic links"));
}

fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// `args` run as the user nobody (with `setpriv`, as root), when that can be done here.
fn as_nobody(args: &[&str]) -> Option<std::process::Output> {
    if !is_root() {
        return None;
    }
    let nobody = || {
        let mut command = Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(env!("CARGO_BIN_EXE_pqkit"));
        command
    };
    if !nobody()
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("skipped: setpriv cannot run pqkit as nobody here");
        return None;
    }
    Some(run(nobody().args(args)))
}

#[test]
fn an_existing_file_keeps_its_mode_and_owner() {
    let dir = TempDir::new("places-mode");
    let out = dir.path("out.parquet");
    fs::write(&out, "old").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
    let owner = if is_root() {
        std::os::unix::fs::chown(&out, Some(65534), Some(65534)).unwrap();
        (65534, 65534)
    } else {
        let m = fs::metadata(&out).unwrap();
        (m.uid(), m.gid())
    };
    ok(&["rewrite", &example(), &out]);
    let m = fs::metadata(&out).unwrap();
    assert_eq!(
        (m.mode() & 0o7777, m.uid(), m.gid()),
        (0o640, owner.0, owner.1)
    );
    assert_eq!(cat(&out, &[]), cat(&example(), &[]));
    // A new file gets the usual mode (0666 less the umask) and this user.
    let new = dir.path("new.parquet");
    ok(&["rewrite", &example(), &new]);
    assert_eq!(
        fs::metadata(&new).unwrap().uid(),
        fs::metadata("/proc/self").unwrap().uid()
    );
}

#[test]
fn a_file_the_user_may_not_write_is_refused_before_the_work() {
    let dir = TempDir::new("places-read-only");
    let out = dir.path("out.csv");
    fs::write(&out, "old\n").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o444)).unwrap();
    if is_root() {
        // Root may write any file: replaced, and still read-only.
        ok(&["convert", &example(), &out]);
        assert_eq!(fs::read_to_string(&out).unwrap(), example_csv());
        assert_eq!(mode(&out), 0o444);
        fs::write(&out, "old\n").unwrap();
        // The directory open to all, so that only the file's mode stops nobody.
        fs::set_permissions(&dir.0, fs::Permissions::from_mode(0o777)).unwrap();
    }
    let refused = if is_root() {
        as_nobody(&["convert", &example(), &out])
    } else {
        Some(pqkit(&["convert", &example(), &out]))
    };
    let Some(output) = refused else {
        return;
    };
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        format!("pqkit: {out}: not writable, so not replaced: Permission denied (os error 13)\n")
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(mode(&out), 0o444);
    // A directory where no file can be made.
    let locked = dir.path("locked");
    fs::create_dir(&locked).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
    let inside = format!("{locked}/out.csv");
    let output = if is_root() {
        as_nobody(&["convert", &example(), &inside]).unwrap()
    } else {
        pqkit(&["convert", &example(), &inside])
    };
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {inside}: cannot create a file in {locked}: Permission denied (os error 13)\n"
        )
    );
    assert!(!Path::new(&inside).exists());
}

#[test]
fn the_output_is_checked_before_the_work() {
    let dir = TempDir::new("places-checks");
    let file = example();
    let fails = |args: &[&str], code: i32| {
        let output = pqkit(args);
        assert_eq!(
            output.status.code(),
            Some(code),
            "{args:?}: {}",
            stderr(&output)
        );
        stderr(&output).replace(&format!("{}/", dir.0.display()), "")
    };
    let sub = dir.path("sub");
    fs::create_dir(&sub).unwrap();
    assert_eq!(
        fails(&["convert", &file, &sub], 2),
        "pqkit: sub is a directory: give a file name in it\n"
    );
    assert_eq!(
        fails(&["rewrite", &file, &format!("{sub}/")], 2),
        "pqkit: sub/ is a directory: give a file name in it\n"
    );
    assert_eq!(
        fails(&["convert", &file, &dir.path("none/out.csv")], 1),
        "pqkit: none/out.csv: no directory none to write it in\n"
    );
    // OUT = IN: convert refuses, rewrite replaces the input once it has read it.
    let copy = dir.path("copy.parquet");
    fs::copy(&file, &copy).unwrap();
    assert_eq!(
        fails(&["convert", &copy, &copy], 2),
        "pqkit: copy.parquet is the input: write to another file\n"
    );
    let link = dir.path("link.parquet");
    std::os::unix::fs::symlink(&copy, &link).unwrap();
    assert_eq!(
        fails(&["convert", &copy, &link, "--compression", "zstd"], 2),
        "pqkit: link.parquet is the input: write to another file\n"
    );
    ok(&["rewrite", &copy, &copy, "--compression", "zstd"]);
    assert!(ok(&["meta", &copy]).contains("ZSTD"));
    assert_eq!(cat(&copy, &[]), cat(&file, &[]));
    // An extension that contradicts what is written.
    assert_eq!(
        fails(&["rewrite", &file, &dir.path("y.orc")], 2),
        "pqkit: y.orc: rewrite writes Parquet, and the name says ORC; name it .parquet, or use convert\n"
    );
    assert_eq!(
        fails(
            &["convert", &file, &dir.path("y.csv"), "--to", "parquet"],
            2
        ),
        "pqkit: y.csv: the name says CSV and --to says Parquet; name the file for what it holds\n"
    );
    // ORC in, for rewrite.
    let orc = dir.path("x.orc");
    ok(&["convert", &file, &orc]);
    assert_eq!(
        fails(&["rewrite", &orc, &dir.path("y.parquet")], 2),
        "pqkit: rewrite is for Parquet files and x.orc is ORC: use convert\n"
    );
    // Nothing else was made.
    assert_eq!(
        dir.files(),
        ["copy.parquet", "link.parquet", "sub", "x.orc"]
    );
}

/// A conversion that waits for its input: a CSV header and two rows written to the FIFO
/// `fifo`, its writing end then held open until the sender returned is dropped.
fn stalled_conversion(
    fifo: &str,
    out: &str,
    named: bool,
) -> (Child, std::sync::mpsc::Sender<()>, JoinHandle<()>) {
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let path = fifo.to_owned();
    let writer = thread::spawn(move || {
        let mut file = OpenOptions::new().write(true).open(path).unwrap();
        file.write_all(b"id,name\n1,a\n2,b\n").unwrap();
        // Until the test is done: the conversion stays under way.
        let _ = wait.recv();
    });
    let mut conversion = command(&["convert", fifo, out, "--infer-rows", "1"]);
    if named {
        conversion.env("PQKIT_NO_TMPFILE", "1");
    }
    let child = conversion.stderr(Stdio::piped()).spawn().unwrap();
    (child, done, writer)
}

/// Waits until the process `pid` has a file open for writing in `dir` (its output).
fn wait_for_output(pid: u32, dir: &Path) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        let fds = fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten();
        if fds
            .flatten()
            .filter_map(|fd| fs::read_link(fd.path()).ok())
            .any(|target| target.starts_with(dir) && !target.ends_with("in.csv"))
        {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
    panic!("pqkit {pid} never opened its output");
}

/// Whether this process ignores `signal` (so that pqkit, started from it, would too).
fn ignored_here(signal: i32) -> bool {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let mask = status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .map(|mask| u64::from_str_radix(mask.trim(), 16).unwrap())
        .unwrap();
    mask >> (signal - 1) & 1 == 1
}

#[test]
fn a_signal_leaves_the_old_output_and_no_temporary_file() {
    let dir = TempDir::new("places-signal");
    let fifo = dir.path("in.csv");
    mkfifo(&fifo);
    let out = dir.path("out.parquet");
    for named in [true, false] {
        for (signal, name) in [(2, "INT"), (15, "TERM"), (1, "HUP"), (9, "KILL")] {
            // A named temporary file cannot outlive SIGKILL's removal: only unnamed ones
            // leave nothing behind then.
            if named && signal == 9 {
                continue;
            }
            // pqkit keeps a signal it was started ignoring (nohup) ignored.
            if ignored_here(signal) {
                eprintln!("skipped SIG{name}: this test runs with it ignored");
                continue;
            }
            fs::write(&out, "old").unwrap();
            let (child, done, writer) = stalled_conversion(&fifo, &out, named);
            wait_for_output(child.id(), &dir.0);
            if named {
                assert!(
                    dir.files()
                        .iter()
                        .any(|f| f.starts_with(".out.parquet.pqkit-")),
                    "{:?}",
                    dir.files()
                );
            }
            let killed = Command::new("kill")
                .args([&format!("-{name}"), &child.id().to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
            let output = child.wait_with_output().unwrap();
            drop(done);
            writer.join().unwrap();
            assert_eq!(
                output.status.signal(),
                Some(signal),
                "SIG{name}, named {named}: {output:?}"
            );
            assert_eq!(fs::read_to_string(&out).unwrap(), "old", "SIG{name}");
            assert_eq!(
                dir.files(),
                ["in.csv", "out.parquet"],
                "SIG{name}, named {named}"
            );
        }
    }
}

#[test]
fn a_failed_run_leaves_the_old_output_and_no_temporary_file() {
    let dir = TempDir::new("places-failure");
    let out = dir.path("out.parquet");
    fs::write(&out, "old").unwrap();
    let input = dir.path("in.jsonl");
    fs::write(&input, "{\"a\": 1}\n{\"a\": 2}\n{\"a\": \"x\"}\n").unwrap();
    for named in [true, false] {
        let mut conversion = command(&["convert", &input, &out, "--infer-rows", "1"]);
        if named {
            conversion.env("PQKIT_NO_TMPFILE", "1");
        }
        let output = run(&mut conversion);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert_eq!(fs::read_to_string(&out).unwrap(), "old");
        assert_eq!(dir.files(), ["in.jsonl", "out.parquet"]);
    }
    // And one that succeeds with a named temporary file puts it in place.
    let good = dir.path("good.jsonl");
    fs::write(&good, "{\"a\": 1}\n").unwrap();
    ok_with_named_temp(&["convert", &good, &out]);
    assert_eq!(cat(&out, &[]), "{\"a\":1}\n");
    assert_eq!(dir.files(), ["good.jsonl", "in.jsonl", "out.parquet"]);
}

fn ok_with_named_temp(args: &[&str]) {
    let output = run(command(args).env("PQKIT_NO_TMPFILE", "1"));
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
}

/// Runs `args` on a terminal (with `script`); what the terminal showed, and the exit
/// status. `None`, with a message, where `script` is missing.
fn on_a_terminal(dir: &TempDir, args: &[&str]) -> Option<(String, i32)> {
    let mut line = shell_quote(env!("CARGO_BIN_EXE_pqkit"));
    for arg in args {
        line.push(' ');
        line.push_str(&shell_quote(arg));
    }
    let typescript = dir.path("typescript");
    let output = Command::new("script")
        .args(["--quiet", "--return", "--command", &line, &typescript])
        .stdin(Stdio::null())
        .output();
    let Ok(output) = output else {
        eprintln!("skipped: no `script` to give pqkit a terminal");
        return None;
    };
    let shown = String::from_utf8_lossy(&output.stdout).replace("\r\n", "\n");
    fs::remove_file(&typescript).unwrap();
    Some((shown, output.status.code().unwrap_or(-1)))
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[test]
fn a_terminal_gets_no_binary_and_a_line_on_what_was_written() {
    let dir = TempDir::new("places-terminal");
    let Some((shown, code)) = on_a_terminal(&dir, &["convert", &example(), "-", "--to", "parquet"])
    else {
        return;
    };
    assert_eq!(code, 2, "{shown}");
    assert_eq!(
        shown,
        "pqkit: standard output is a terminal, and Parquet is binary: redirect it to a file or a pipe, or give a file name\n"
    );
    let (shown, code) = on_a_terminal(&dir, &["rewrite", &example(), "-"]).unwrap();
    assert_eq!(code, 2, "{shown}");
    // Text is fine, and so is a file: a line says what was written.
    let out = dir.path("out.orc");
    let (shown, code) = on_a_terminal(&dir, &["convert", &example(), &out]).unwrap();
    assert_eq!(code, 0, "{shown}");
    // `pqkit: wrote 40 rows, 2.9 KiB, to …/out.orc in 0.0 s`
    let size = shown
        .strip_prefix("pqkit: wrote 40 rows, ")
        .and_then(|rest| rest.split_once(&format!(", to {out} in ")))
        .map(|(size, _)| size);
    assert!(
        size.is_some_and(|size| size.ends_with(" KiB") || size.ends_with(" bytes")),
        "{shown}"
    );
    assert!(shown.ends_with(" s\n"), "{shown}");
    let (shown, code) =
        on_a_terminal(&dir, &["convert", &example(), "-", "--to", "jsonl"]).unwrap();
    assert_eq!(code, 0);
    assert!(shown.starts_with(&cat(&example(), &[])), "{shown}");
    assert!(
        shown.contains("pqkit: wrote 40 rows, ") && shown.contains(" to standard output in "),
        "{shown}"
    );
}
