//! `pqkit` as its users run it: output, exit status and messages.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name)
}

fn pqkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqkit"))
        .args(args)
        .output()
        .expect("pqkit runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

#[test]
fn cat_jsonl_is_pyarrows_rows() {
    let file = testdata("example.parquet");
    let output = pqkit(&["cat", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = std::fs::read_to_string(testdata("example.jsonl")).unwrap();
    assert_eq!(stdout(&output), expected);
}

#[test]
fn cat_projects_limits_and_filters() {
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let output = pqkit(&["cat", file, "--columns", "name,id", "--limit", "2"]);
    assert_eq!(
        stdout(&output),
        "{\"id\":0,\"name\":\"name 0\"}\n{\"id\":1,\"name\":\"name 1\"}\n"
    );
    let output = pqkit(&[
        "cat",
        file,
        "--columns",
        "id",
        "--where",
        "id > 36 or address.city = \"city 0\" and id < 4",
    ]);
    // Row 3 has a null address, so no city.
    assert_eq!(
        stdout(&output),
        "{\"id\":0}\n{\"id\":37}\n{\"id\":38}\n{\"id\":39}\n"
    );
    // A filter on a field that is not shown inside a shown group: it is not shown either.
    let output = pqkit(&[
        "cat",
        file,
        "--columns",
        "address.city",
        "--where",
        "address.zip > 0",
        "--limit",
        "2",
    ]);
    assert_eq!(
        stdout(&output),
        "{\"address\":{\"city\":\"city 0\"}}\n{\"address\":{\"city\":\"city 1\"}}\n"
    );
    let output = pqkit(&[
        "cat",
        file,
        "--format",
        "csv",
        "--columns",
        "id,score,tags",
        "--limit",
        "2",
    ]);
    assert_eq!(
        stdout(&output),
        "id,score,tags\n0,,\n1,1.25,\"[\"\"t0\"\"]\"\n"
    );
    let output = pqkit(&[
        "cat",
        file,
        "--format",
        "table",
        "--columns",
        "id,name",
        "--limit",
        "1",
    ]);
    assert_eq!(stdout(&output), "id | name\n---+-------\n0  | name 0\n");
}

#[test]
fn verify_schema_meta_pages() {
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let output = pqkit(&["verify", file]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("ok: 40 rows, 2 row groups, 11 columns"));
    let output = pqkit(&["schema", file]);
    assert!(stdout(&output).contains("optional fixed_len_byte_array(4) price (DECIMAL(9,2));"));
    let output = pqkit(&["meta", file, "--json"]);
    let json = stdout(&output);
    assert!(json.contains("\"num_rows\":40"), "{json}");
    assert!(json.contains("\"min\":0,\"max\":24"), "{json}");
    let output = pqkit(&["meta", file]);
    assert!(
        stdout(&output).contains("statistics: min=\"-5.00\" max=\"19.24\""),
        "{}",
        stdout(&output)
    );
    let output = pqkit(&["pages", file, "--column", "id"]);
    let text = stdout(&output);
    assert!(text.contains("row group 1, column id:"), "{text}");
    assert!(text.contains("crc="), "{text}");
    assert!(
        text.contains("page index: offset index yes, column index yes (ASCENDING)"),
        "{text}"
    );
    assert!(
        text.contains(" first_row=0 min=25 max=39 nulls=0"),
        "{text}"
    );
}

#[test]
fn pages_and_where_use_the_page_index() {
    let file = testdata("pages.parquet");
    let file = file.to_str().unwrap();
    let output = pqkit(&["pages", file, "--column", "id"]);
    let text = stdout(&output);
    assert!(
        text.contains("page 4: at 3876 size=166 first_row=200 min=700 max=749 nulls=0"),
        "{text}"
    );
    let output = pqkit(&["cat", file]);
    assert_eq!(
        stdout(&output),
        std::fs::read_to_string(testdata("pages.jsonl")).unwrap()
    );
    // Through the page index, and equal to filtering every row.
    let output = pqkit(&[
        "cat",
        file,
        "--where",
        "id >= 720 and id < 723 or maybe is null and id < 203",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let ids = ["720", "721", "722", "200", "201", "202"];
    let expected: Vec<&str> = include_str!("../../../testdata/pages.jsonl")
        .lines()
        .filter(|l| {
            ids.iter()
                .any(|id| l.starts_with(&format!("{{\"id\":{id},")))
        })
        .collect();
    let text = stdout(&output);
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn exit_status_and_messages() {
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    // Bad usage: 2.
    assert_eq!(pqkit(&["cat"]).status.code(), Some(2));
    assert_eq!(
        pqkit(&["cat", file, "--format", "xml"]).status.code(),
        Some(2)
    );
    let output = pqkit(&["cat", file, "--columns", "nope"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "pqkit: --columns: no field \"nope\" in the schema\n"
    );
    assert_eq!(
        pqkit(&["cat", file, "--where", "id >"]).status.code(),
        Some(2)
    );
    assert_eq!(
        pqkit(&["cat", file, "--footer-key", "xyz"]).status.code(),
        Some(2)
    );
    // A bad file: 1, one line on stderr.
    let dir = std::env::temp_dir().join(format!("pqkit-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = std::fs::read(file).unwrap();
    for (name, content) in [
        ("truncated.parquet", bytes[..bytes.len() / 2].to_vec()),
        ("empty.parquet", Vec::new()),
        ("flipped.parquet", {
            let mut b = bytes.clone();
            b[200] ^= 0x55;
            b
        }),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let output = pqkit(&["verify", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let message = stderr(&output);
        // The file, then where in it.
        assert!(
            message.starts_with(&format!("pqkit: {}: ", path.display()))
                && message.lines().count() == 1,
            "{name}: {message}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let output = pqkit(&["cat", "/nonexistent/file.parquet"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with("pqkit: /nonexistent/file.parquet: cannot open: "));
}
