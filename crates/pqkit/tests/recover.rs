//! `pqkit recover` and `--checkpoint-every`: files cut short are written again with the
//! row groups that can be proven whole, and the command says what it kept and dropped.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.

mod common;

use std::fmt::Write as _;
use std::fs;

use parquet_file::FileReader;

use common::{TempDir, cat, ok, pqkit, pqkit_with_input, stderr};

/// 1,000 rows as JSON Lines: an id, a name of 7 values, a nullable amount.
fn rows() -> String {
    let mut text = String::new();
    for i in 0..1_000 {
        let amount = if i % 5 == 0 {
            "null".to_owned()
        } else {
            format!("{}.5", i * 3)
        };
        let _ = writeln!(
            text,
            r#"{{"id":{i},"name":"name {}","amount":{amount}}}"#,
            i % 7
        );
    }
    text
}

/// A Parquet file of [`rows`] in row groups of 100 rows, with `extra` flags; its path.
fn written(dir: &TempDir, name: &str, extra: &[&str]) -> String {
    let jsonl = dir.path("rows.jsonl");
    fs::write(&jsonl, rows()).unwrap();
    let path = dir.path(name);
    let mut args = vec!["convert", &jsonl, &path, "--row-group-rows", "100"];
    args.extend_from_slice(extra);
    ok(&args);
    path
}

/// The first `len` bytes of `path`, as a file `name`; its path.
fn cut(dir: &TempDir, path: &str, len: usize, name: &str) -> String {
    let bytes = fs::read(path).unwrap();
    let out = dir.path(name);
    fs::write(&out, &bytes[..len]).unwrap();
    out
}

/// The first `n` lines of `text`.
fn first_lines(text: &str, n: usize) -> String {
    text.split_inclusive('\n').take(n).collect()
}

#[test]
fn checkpoints_keep_files_readable_and_recover_what_they_cover() {
    let dir = TempDir::new("recover-checkpoints");
    let plain = written(&dir, "plain.parquet", &[]);
    let checked = written(&dir, "checked.parquet", &["--checkpoint-every", "3"]);
    // The same rows either way; the checkpoints cost bytes between row groups.
    assert_eq!(cat(&checked, &[]), cat(&plain, &[]));
    assert!(fs::metadata(&checked).unwrap().len() > fs::metadata(&plain).unwrap().len());
    assert!(ok(&["verify", &checked]).starts_with("ok: 1000 rows, 10 row groups"));

    // Cut inside row group 8 (of 10): 7 were whole, 6 of them in the checkpoint after
    // row group 6.
    let reader = FileReader::open(fs::read(&checked).unwrap()).unwrap();
    let first = reader.metadata().row_groups()[7].columns()[0]
        .metadata()
        .unwrap();
    let start = first
        .dictionary_page_offset()
        .unwrap_or(first.data_page_offset());
    let len = usize::try_from(start).unwrap() + 10;
    let broken = cut(&dir, &checked, len, "broken.parquet");
    let out = dir.path("out.parquet");
    let output = pqkit(&["recover", &broken, &out]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("kept 7 row groups, 700 rows")
            && said.contains("6 from the checkpoint at byte")
            && said.contains("1 by scanning their pages")
            && said.contains("dropped"),
        "{said}"
    );
    assert_eq!(cat(&out, &[]), first_lines(&cat(&plain, &[]), 700));
    assert!(ok(&["verify", &out]).starts_with("ok: 700 rows, 7 row groups"));
}

#[test]
fn without_checkpoints_the_schema_is_needed() {
    let dir = TempDir::new("recover-schema");
    let plain = written(&dir, "plain.parquet", &[]);
    let len = usize::try_from(fs::metadata(&plain).unwrap().len()).unwrap() - 9;
    let broken = cut(&dir, &plain, len, "broken.parquet");
    let output = pqkit(&["recover", &broken, &dir.path("none.parquet")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--schema FILE or --like OTHER.parquet"),
        "{}",
        stderr(&output)
    );
    // Nothing is left behind where the output would have been.
    assert!(
        !dir.files().iter().any(|f| f.contains("none")),
        "{:?}",
        dir.files()
    );

    // The schema as `pqkit schema` prints it, or a sibling file.
    let schema = dir.path("schema.txt");
    fs::write(&schema, ok(&["schema", &plain])).unwrap();
    let all = cat(&plain, &[]);
    for flag in [["--schema", &schema], ["--like", &plain]] {
        let out = dir.path("out.parquet");
        let output = pqkit(&["recover", &broken, &out, flag[0], flag[1]]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            stderr(&output).contains("kept 10 row groups, 1000 rows"),
            "{flag:?}: {}",
            stderr(&output)
        );
        assert_eq!(cat(&out, &[]), all, "{flag:?}");
    }
}

#[test]
fn intact_files_are_said_to_be_and_a_pipe_is_read_whole() {
    let dir = TempDir::new("recover-intact");
    let plain = written(&dir, "plain.parquet", &[]);
    let output = pqkit(&["recover", &plain]);
    assert!(output.status.success());
    assert!(
        stderr(&output).contains("intact: its footer reads and its 10 row groups (1000 rows)"),
        "{}",
        stderr(&output)
    );
    // From standard input to standard output: the same bytes.
    let bytes = fs::read(&plain).unwrap();
    let output = pqkit_with_input(&["recover", "-", "-"], &bytes);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(output.stdout, bytes);
}

#[test]
fn recover_refuses_what_it_cannot_do_before_writing() {
    let dir = TempDir::new("recover-refuses");
    let plain = written(&dir, "plain.parquet", &[]);
    for (args, says) in [
        (
            vec!["recover", &plain, "x.orc"],
            "is Parquet, and the name says ORC; name it .parquet",
        ),
        (
            vec![
                "recover",
                &plain,
                "x.parquet",
                "--schema",
                "a",
                "--like",
                "b",
            ],
            "cannot be used with",
        ),
        (
            vec!["convert", &plain, "y.parquet", "--checkpoint-every", "0"],
            "--checkpoint-every",
        ),
        (
            vec!["convert", &plain, "y.csv", "--checkpoint-every", "2"],
            "--checkpoint-every is for Parquet and ORC output",
        ),
        (
            vec![
                "convert",
                &plain,
                "y.orc",
                "--checkpoint-every",
                "2",
                "--no-crc",
            ],
            "--no-crc is for Parquet output",
        ),
    ] {
        let output = pqkit(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(says),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let text = dir.path("text.jsonl");
    fs::write(&text, rows()).unwrap();
    let output = pqkit(&["recover", &text]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("not a Parquet file"),
        "{}",
        stderr(&output)
    );
    assert_eq!(dir.files(), ["plain.parquet", "rows.jsonl", "text.jsonl"]);
}

#[test]
fn orc_files_cut_short_keep_their_whole_stripes() {
    let dir = TempDir::new("recover-orc");
    let jsonl = dir.path("rows.jsonl");
    fs::write(&jsonl, rows()).unwrap();
    let orc = dir.path("rows.orc");
    ok(&[
        "convert",
        &jsonl,
        &orc,
        "--stripe-size",
        "4000",
        "--orc-block-size",
        "2048",
        "--row-index-stride",
        "50",
    ]);
    let reader = orc_file::OrcReader::open(fs::read(&orc).unwrap()).unwrap();
    let stripes = reader.stripes().to_vec();
    assert!(stripes.len() >= 4, "{} stripes", stripes.len());
    // Cut inside the fourth stripe: three are whole.
    let fourth = stripes[3];
    let len = usize::try_from(fourth.offset + fourth.index_length).unwrap();
    let broken = cut(&dir, &orc, len, "broken.orc");

    let output = pqkit(&["recover", &broken, &dir.path("none.orc")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("give it with --like OTHER.orc"),
        "{}",
        stderr(&output)
    );
    let output = pqkit(&["recover", &broken, "--schema", &jsonl]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--schema is for Parquet files"),
        "{}",
        stderr(&output)
    );

    let out = dir.path("out.orc");
    let output = pqkit(&["recover", &broken, &out, "--like", &orc]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows: u64 = stripes[..3].iter().map(|s| s.num_rows).sum();
    let said = stderr(&output);
    assert!(
        said.contains(&format!("kept 3 stripes, {rows} rows"))
            && said.contains("3 by walking their chunks")
            && said.contains("no statistics"),
        "{said}"
    );
    let all = cat(&orc, &[]);
    assert_eq!(
        cat(&out, &[]),
        first_lines(&all, usize::try_from(rows).unwrap())
    );
    assert!(ok(&["verify", &out]).starts_with("ok"), "verify");

    // With intermediate footers (after every second stripe), no sibling is needed: the
    // last footer before the cut gives the schema, and the cut stripe is dropped.
    let checked = dir.path("checked.orc");
    ok(&[
        "convert",
        &jsonl,
        &checked,
        "--stripe-size",
        "4000",
        "--orc-block-size",
        "2048",
        "--row-index-stride",
        "50",
        "--checkpoint-every",
        "2",
    ]);
    assert_eq!(cat(&checked, &[]), all);
    let stripes = orc_file::OrcReader::open(fs::read(&checked).unwrap())
        .unwrap()
        .stripes()
        .to_vec();
    let fifth = stripes[4];
    let len = usize::try_from(fifth.offset + 5).unwrap();
    let broken = cut(&dir, &checked, len, "broken-checked.orc");
    let out = dir.path("out-checked.orc");
    let output = pqkit(&["recover", &broken, &out]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows: u64 = stripes[..4].iter().map(|s| s.num_rows).sum();
    let said = stderr(&output);
    assert!(
        said.contains(&format!("kept 4 stripes, {rows} rows"))
            && said.contains("4 from the intermediate footer ending at byte"),
        "{said}"
    );
    // The source up to that footer, as written.
    let recovered = fs::read(&out).unwrap();
    assert_eq!(recovered, fs::read(&broken).unwrap()[..recovered.len()]);
    assert_eq!(
        cat(&out, &[]),
        first_lines(&all, usize::try_from(rows).unwrap())
    );
}
