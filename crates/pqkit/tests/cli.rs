//! `pqkit` as its users run it: output, exit status and messages.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.

mod common;

use std::path::Path;

use common::{TempDir, cat, ok, pqkit, stderr, stdout, testdata};

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

/// A schema with every logical type and the nested shapes (a map of lists, a list of
/// structs of lists, a legacy repeated field, a map without values), and rows of it as
/// `cat` prints them.
const ALL_TYPES_SCHEMA: &str = "message all {
  required int64 id;
  optional int32 i8 (INTEGER(8,true));
  optional int64 u64 (INTEGER(64,false));
  optional float f;
  optional double d;
  optional fixed_len_byte_array(2) h (FLOAT16);
  optional int32 d32 (DECIMAL(9,2));
  optional int64 d64 (DECIMAL(18,4));
  optional fixed_len_byte_array(16) d128 (DECIMAL(38,3));
  optional byte_array dwide (DECIMAL(50,1));
  optional int32 day (DATE);
  optional int32 tms (TIME(MILLIS,true));
  optional int64 tus (TIME(MICROS,false));
  optional int64 tns (TIME(NANOS,true));
  optional int64 tsms (TIMESTAMP(MILLIS,true));
  optional int64 tsns (TIMESTAMP(NANOS,false));
  optional int96 legacy;
  optional fixed_len_byte_array(16) u (UUID);
  optional byte_array raw;
  optional byte_array e (ENUM);
  optional byte_array j (JSON);
  optional boolean b;
  optional group m (MAP) {
    repeated group key_value {
      required byte_array key (STRING);
      optional group value (LIST) {
        repeated group list {
          optional int32 element;
        }
      }
    }
  }
  optional group ls (LIST) {
    repeated group list {
      optional group element {
        optional byte_array name (STRING);
        optional group inner (LIST) {
          repeated group list {
            required double element;
          }
        }
      }
    }
  }
  repeated int32 legacy_list;
  optional group keys (MAP) {
    repeated group key_value {
      required int32 key;
    }
  }
}
";

const ALL_TYPES_ROWS: &str = r#"{"id":0,"i8":-128,"u64":18446744073709551615,"f":1.1,"d":-2.5e-300,"h":0.1,"d32":"-1.50","d64":"12345678901234.5678","d128":"-99999999999999999999999999999999999.999","dwide":"1234567890123456789012345678901234567890123456789.0","day":"2024-02-29","tms":"01:02:03.004","tus":"23:59:59.999999","tns":"24:00:00.000000000","tsms":"1969-12-31T23:59:59.999Z","tsns":"2262-04-11T23:47:16.854775807","legacy":"1970-01-01T00:00:01.000000001","u":"00112233-4455-6677-8899-aabbccddeeff","raw":"cGFycXVldA==","e":"RED","j":"{\"a\":1}","b":true,"m":[{"key":"a","value":[1,null,3]},{"key":"b","value":null},{"key":"c","value":[]}],"ls":[{"name":"x","inner":[1.5,2.0]},null,{"name":null,"inner":null},{"name":"y","inner":[]}],"legacy_list":[1,2,3],"keys":[1,2]}
{"id":1,"i8":127,"u64":0,"f":"NaN","d":"-Infinity","h":"Infinity","d32":"0.00","d64":null,"d128":"0.001","dwide":"-0.5","day":null,"tms":null,"tus":null,"tns":null,"tsms":null,"tsns":null,"legacy":"+290000-12-30T23:00:00.000000000","u":null,"raw":"AA==","e":null,"j":null,"b":false,"m":[],"ls":[],"legacy_list":[],"keys":[]}
{"id":2,"i8":null,"u64":null,"f":null,"d":null,"h":null,"d32":null,"d64":null,"d128":null,"dwide":null,"day":"-4713-11-26","tms":null,"tus":null,"tns":null,"tsms":null,"tsns":null,"legacy":null,"u":null,"raw":null,"e":null,"j":null,"b":null,"m":null,"ls":null,"legacy_list":[],"keys":null}
"#;

/// A Parquet file of [`ALL_TYPES_ROWS`], written by `convert`.
fn all_types_file(dir: &TempDir) -> String {
    let (schema, rows, file) = (
        dir.path("all.schema"),
        dir.path("all.jsonl"),
        dir.path("all.parquet"),
    );
    std::fs::write(&schema, ALL_TYPES_SCHEMA).unwrap();
    std::fs::write(&rows, ALL_TYPES_ROWS).unwrap();
    ok(&["convert", &rows, &file, "--schema", &schema]);
    file
}

/// Settings of `rewrite`, each of which must keep the rows.
const REWRITE_SETTINGS: &[&[&str]] = &[
    &[],
    &[
        "--compression",
        "zstd:9",
        "--page-version",
        "2",
        "--row-group-rows",
        "7",
    ],
    &[
        "--compression",
        "gzip:1",
        "--page-rows",
        "3",
        "--dictionary",
        "off",
    ],
    &[
        "--compression",
        "uncompressed",
        "--page-bytes",
        "64",
        "--no-crc",
    ],
    &[
        "--compression",
        "lz4_raw",
        "--statistics",
        "none",
        "--no-page-index",
    ],
    &[
        "--compression",
        "brotli",
        "--statistics",
        "chunk",
        "--row-group-rows",
        "1",
    ],
    &[
        "--compression",
        "lz4",
        "--bloom",
        "id",
        "--bloom",
        "id:1000",
    ],
    &[
        "--compression",
        "lzo",
        "--encoding",
        "id:delta_binary_packed",
    ],
    &[
        "--compression",
        "snappy",
        "--encoding",
        "id:plain_dictionary",
    ],
];

#[test]
fn rewrite_keeps_the_rows_of_every_file() {
    let dir = TempDir::new("rewrite-rows");
    let nested = all_types_file(&dir);
    assert_eq!(cat(&nested, &[]), ALL_TYPES_ROWS);
    let files = [
        testdata("example.parquet").to_str().unwrap().to_owned(),
        testdata("pages.parquet").to_str().unwrap().to_owned(),
        nested,
    ];
    let out = dir.path("out.parquet");
    for file in &files {
        let rows = cat(file, &[]);
        for settings in REWRITE_SETTINGS {
            let mut args = vec!["rewrite", file, &out];
            args.extend_from_slice(settings);
            ok(&args);
            assert_eq!(cat(&out, &[]), rows, "{file} {settings:?}");
            assert!(
                ok(&["verify", &out]).starts_with("ok: "),
                "{file} {settings:?}"
            );
        }
    }
    // Only the files written are left: no temporary ones.
    assert_eq!(
        dir.files(),
        ["all.jsonl", "all.parquet", "all.schema", "out.parquet"]
    );
}

#[test]
fn rewrite_applies_its_settings_and_keeps_the_metadata() {
    let dir = TempDir::new("rewrite-settings");
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let out = dir.path("out.parquet");
    ok(&[
        "rewrite",
        file,
        &out,
        "--compression",
        "zstd:9",
        "--row-group-rows",
        "15",
        "--encoding",
        "id:delta_binary_packed",
        "--encoding",
        "name:delta_byte_array",
        "--encoding",
        "score:byte_stream_split",
        "--bloom",
        "address.zip:100",
    ]);
    let meta = ok(&["meta", &out]);
    assert!(meta.contains("created by: parquet-kit version"), "{meta}");
    assert!(meta.contains("row groups: 3"), "{meta}");
    assert!(meta.contains("metadata: ARROW:schema = "), "{meta}");
    assert!(
        meta.contains("id: INT64 ZSTD [DELTA_BINARY_PACKED,RLE]"),
        "{meta}"
    );
    assert!(
        meta.contains("name: BYTE_ARRAY (STRING) ZSTD [DELTA_BYTE_ARRAY,RLE]"),
        "{meta}"
    );
    assert!(
        meta.contains("score: DOUBLE ZSTD [BYTE_STREAM_SPLIT,RLE]"),
        "{meta}"
    );
    assert_eq!(ok(&["schema", &out]), ok(&["schema", file]));
    assert_eq!(
        ok(&["bloom", &out, "address.zip", "10001"]),
        "row group 0: might contain 10001\n\
         row group 1: does not contain 10001\n\
         row group 2: does not contain 10001\n"
    );
    assert!(ok(&["bloom", &out, "id", "1"]).starts_with("row group 0: no Bloom filter"));
    // Pages of at most 5 rows, version 2.
    ok(&[
        "rewrite",
        file,
        &out,
        "--page-rows",
        "5",
        "--page-version",
        "2",
    ]);
    let pages = ok(&["pages", &out, "--column", "id"]);
    assert_eq!(pages.matches("DATA_PAGE_V2").count(), 8, "{pages}");
    // In place: the input is read whole before it is replaced.
    let copy = dir.path("copy.parquet");
    std::fs::copy(file, &copy).unwrap();
    ok(&["rewrite", &copy, &copy, "--compression", "gzip"]);
    assert_eq!(cat(&copy, &[]), cat(file, &[]));
    assert!(ok(&["meta", &copy]).contains("GZIP"));
}

#[test]
fn rewrite_refuses_bad_flags_with_exit_status_2() {
    let dir = TempDir::new("rewrite-flags");
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let out = dir.path("out.parquet");
    let refused = |args: &[&str]| {
        let mut all = vec!["rewrite", file, &out];
        all.extend_from_slice(args);
        let output = pqkit(&all);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        stderr(&output)
    };
    assert!(
        refused(&["--compression", "zstd:99"])
            .contains("invalid value 'zstd:99' for '--compression <CODEC[:LEVEL]>'"),
    );
    assert!(refused(&["--compression", "snappy:1"]).contains("the codec has none"),);
    assert!(refused(&["--compression", "zip"]).contains("\"zip\" is not a codec"));
    assert!(refused(&["--encoding", "id:fancy"]).contains("\"fancy\" is not an encoding"));
    assert!(refused(&["--page-version", "3"]).contains("--page-version"));
    assert!(refused(&["--row-group-rows", "0"]).contains("a whole number above 0"));
    assert!(refused(&["--dictionary", "maybe"]).contains("--dictionary"));
    assert!(refused(&["--statistics", "all"]).contains("--statistics"));
    assert!(refused(&["--plaintext-footer"]).contains("--encrypt-footer-key"));
    assert_eq!(
        refused(&["--encoding", "nope:plain"]),
        "pqkit: --encoding: no field \"nope\" in the schema\n"
    );
    assert_eq!(
        refused(&["--encoding", "tags:plain"]),
        "pqkit: --encoding: \"tags\" is not a leaf column; its leaves: tags.list.element\n"
    );
    assert!(
        refused(&["--encoding", "id:delta_length_byte_array"]).contains(
            "column id: cannot write: DELTA_LENGTH_BYTE_ARRAY does not encode INT64 values"
        ),
    );
    assert_eq!(
        refused(&["--bloom", "attrs.key_value.key:0"]),
        "error: invalid value 'attrs.key_value.key:0' for '--bloom <COLUMN[:NDV]>': \"0\" is not a number of distinct values above 0\n\nFor more information, try '--help'.\n"
    );
    assert_eq!(
        refused(&["--encrypt-footer-key", "xyz"]),
        "pqkit: --encrypt-footer-key: \"xyz\" is not an even number of hex digits\n"
    );
    // Nothing written.
    assert!(dir.files().is_empty(), "{:?}", dir.files());
    // A file that cannot be read: 1.
    let output = pqkit(&["rewrite", "/nonexistent/in.parquet", &out]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with("pqkit: /nonexistent/in.parquet: cannot open: "));
    let output = pqkit(&["rewrite", file, "/nonexistent/out.parquet"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "pqkit: /nonexistent/out.parquet: no directory /nonexistent to write it in\n"
    );
}

const FOOTER_KEY: &str = "00112233445566778899aabbccddeeff";
const COLUMN_KEY: &str = "ffeeddccbbaa99887766554433221100";

#[test]
fn rewrite_encrypts_what_cat_reads_back_with_the_keys() {
    let dir = TempDir::new("rewrite-encrypt");
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let rows = cat(file, &[]);
    let out = dir.path("encrypted.parquet");
    let name_key = format!("name:{COLUMN_KEY}");
    let city_key = format!("address.city:{COLUMN_KEY}");
    for algorithm in ["gcm", "ctr"] {
        ok(&[
            "rewrite",
            file,
            &out,
            "--encrypt-footer-key",
            FOOTER_KEY,
            "--encrypt-column-key",
            &name_key,
            "--encrypt-column-key",
            &city_key,
            "--algorithm",
            algorithm,
            "--encrypt-aad-prefix",
            "example",
        ]);
        assert_eq!(
            std::fs::read(&out).unwrap()[..4],
            *b"PARE",
            "an encrypted footer"
        );
        let keys = [
            "--footer-key",
            FOOTER_KEY,
            "--column-key",
            &name_key,
            "--column-key",
            &city_key,
        ];
        assert_eq!(cat(&out, &keys), rows, "{algorithm}");
        assert!(
            ok(&[
                "verify",
                &out,
                "--footer-key",
                FOOTER_KEY,
                "--column-key",
                &name_key,
                "--column-key",
                &city_key
            ])
            .contains("footer encrypted")
        );
        // Without the keys: no rows.
        let output = pqkit(&["cat", &out]);
        assert!(!output.status.success());
        assert_eq!(
            stderr(&output),
            "pqkit: encrypted with a key the reader was not given: the footer key\n"
        );
        let output = pqkit(&["cat", &out, "--footer-key", FOOTER_KEY]);
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains("column name"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn rewrite_signs_a_plaintext_footer_and_binds_an_aad_prefix() {
    let dir = TempDir::new("rewrite-plaintext-footer");
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let rows = cat(file, &[]);
    let out = dir.path("encrypted.parquet");
    // A signed plaintext footer: the schema is readable without keys.
    ok(&[
        "rewrite",
        file,
        &out,
        "--encrypt-footer-key",
        FOOTER_KEY,
        "--plaintext-footer",
    ]);
    assert_eq!(std::fs::read(&out).unwrap()[..4], *b"PAR1");
    assert_eq!(ok(&["schema", &out]), ok(&["schema", file]));
    assert_eq!(cat(&out, &["--footer-key", FOOTER_KEY]), rows);
    // An AAD prefix that readers must supply.
    ok(&[
        "rewrite",
        file,
        &out,
        "--encrypt-footer-key",
        FOOTER_KEY,
        "--encrypt-aad-prefix",
        "secret",
        "--no-store-aad-prefix",
    ]);
    assert!(
        !pqkit(&["cat", &out, "--footer-key", FOOTER_KEY])
            .status
            .success()
    );
    assert_eq!(
        cat(
            &out,
            &["--footer-key", FOOTER_KEY, "--aad-prefix", "secret"]
        ),
        rows
    );
    // And back to plaintext, reading with the keys.
    let plain = dir.path("plain.parquet");
    ok(&[
        "rewrite",
        &out,
        &plain,
        "--footer-key",
        FOOTER_KEY,
        "--aad-prefix",
        "secret",
    ]);
    assert_eq!(cat(&plain, &[]), rows);
}

#[test]
fn convert_round_trips_through_jsonl_and_csv() {
    let dir = TempDir::new("convert-round-trip");
    for name in ["example", "pages"] {
        let file = testdata(&format!("{name}.parquet"));
        let file = file.to_str().unwrap();
        let rows = cat(file, &[]);
        assert_eq!(
            rows,
            std::fs::read_to_string(testdata(&format!("{name}.jsonl"))).unwrap()
        );
        let schema = dir.path("schema.txt");
        std::fs::write(&schema, ok(&["schema", file])).unwrap();
        let (jsonl, csv) = (dir.path("rows.jsonl"), dir.path("rows.csv"));
        let (back, again) = (dir.path("back.parquet"), dir.path("again.jsonl"));
        // Parquet to JSON Lines is `cat`.
        ok(&["convert", file, &jsonl]);
        assert_eq!(std::fs::read_to_string(&jsonl).unwrap(), rows, "{name}");
        // And back, with the file's schema and with one inferred: the same rows.
        for schema_args in [vec!["--schema", schema.as_str()], vec![]] {
            let mut args = vec!["convert", &jsonl, &back];
            args.extend_from_slice(&schema_args);
            ok(&args);
            ok(&["convert", &back, &again]);
            assert_eq!(
                std::fs::read_to_string(&again).unwrap(),
                rows,
                "{name} {schema_args:?}"
            );
        }
        // Through CSV, with the schema.
        ok(&["convert", file, &csv]);
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            ok(&["cat", file, "--format", "csv"])
        );
        ok(&[
            "convert",
            &csv,
            &back,
            "--schema",
            &schema,
            "--compression",
            "zstd",
        ]);
        assert_eq!(cat(&back, &[]), rows, "{name} through CSV");
    }
    // Every type, through JSON Lines (and CSV, but for the empty byte array, which CSV
    // writes as it writes a null).
    let file = all_types_file(&dir);
    let (schema, csv, back) = (
        dir.path("all.schema"),
        dir.path("all.csv"),
        dir.path("back.parquet"),
    );
    ok(&["convert", &file, &csv]);
    ok(&["convert", &csv, &back, "--schema", &schema]);
    assert_eq!(cat(&back, &[]), ALL_TYPES_ROWS);
    // Formats by flag, whatever the extensions.
    let (text, binary) = (dir.path("rows.txt"), dir.path("rows.bin"));
    std::fs::write(&text, ALL_TYPES_ROWS).unwrap();
    ok(&[
        "convert", &text, &binary, "--from", "jsonl", "--to", "parquet", "--schema", &schema,
    ]);
    assert_eq!(cat(&binary, &[]), ALL_TYPES_ROWS);
}

#[test]
fn convert_infers_a_schema_and_prints_it() {
    let dir = TempDir::new("convert-infer");
    let jsonl = dir.path("in.jsonl");
    std::fs::write(
        &jsonl,
        "{\"id\": 1, \"score\": 2, \"ok\": true, \"name\": \"a\", \"tags\": [\"x\"], \"at\": {\"lat\": 1.5}}\n\
         \n\
         {\"id\": 2, \"score\": 2.5, \"ok\": null, \"name\": null, \"tags\": [], \"extra\": null}\n",
    )
    .unwrap();
    let schema = "message schema {
  optional int64 id;
  optional double score;
  optional boolean ok;
  optional byte_array name (STRING);
  optional group tags (LIST) {
    repeated group list {
      optional byte_array element (STRING);
    }
  }
  optional group at {
    optional double lat;
  }
  optional byte_array extra (STRING);
}
";
    assert_eq!(ok(&["convert", &jsonl, "--print-schema"]), schema);
    let out = dir.path("out.parquet");
    ok(&["convert", &jsonl, &out]);
    assert_eq!(ok(&["schema", &out]), schema);
    assert_eq!(
        cat(&out, &[]),
        "{\"id\":1,\"score\":2.0,\"ok\":true,\"name\":\"a\",\"tags\":[\"x\"],\"at\":{\"lat\":1.5},\"extra\":null}\n\
         {\"id\":2,\"score\":2.5,\"ok\":null,\"name\":null,\"tags\":[],\"at\":null,\"extra\":null}\n"
    );
    // From the first row only, the second one does not fit.
    let output = pqkit(&["convert", &jsonl, &out, "--infer-rows", "1"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {jsonl}: line 3: field score: a number \"2.5\" where INT64 expects an integer from -9223372036854775808 to 9223372036854775807\n"
        )
    );
    // CSV: scalars, a column of mixed kinds a string.
    let csv = dir.path("in.csv");
    std::fs::write(&csv, "n,x,flag,label\r\n1,1.5,true,a\r\n2,,false,3\r\n").unwrap();
    assert_eq!(
        ok(&["convert", &csv, "--print-schema"]),
        "message schema {
  optional int64 n;
  optional double x;
  optional boolean flag;
  optional byte_array label (STRING);
}
"
    );
    let jsonl_out = dir.path("out.jsonl");
    ok(&["convert", &csv, &jsonl_out]);
    assert_eq!(
        std::fs::read_to_string(&jsonl_out).unwrap(),
        "{\"n\":1,\"x\":1.5,\"flag\":true,\"label\":\"a\"}\n{\"n\":2,\"x\":null,\"flag\":false,\"label\":\"3\"}\n"
    );
    // A Parquet file's own schema.
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    assert_eq!(
        ok(&["convert", file, "--print-schema"]),
        ok(&["schema", file])
    );
}

#[test]
fn convert_names_what_is_wrong() {
    let dir = TempDir::new("convert-errors");
    let out = dir.path("out.parquet");
    let fails = |name: &str, content: &str, extra: &[&str], code: i32| {
        let input = dir.path(name);
        std::fs::write(&input, content).unwrap();
        let mut args = vec!["convert", input.as_str(), out.as_str()];
        args.extend_from_slice(extra);
        let output = pqkit(&args);
        assert_eq!(
            output.status.code(),
            Some(code),
            "{name}: {}",
            stderr(&output)
        );
        stderr(&output).replace(&format!("{}/", dir.0.display()), "")
    };
    assert_eq!(
        fails("a.jsonl", "{\"a\": 1}\n{\"a\": 2,\n", &[], 1),
        "pqkit: a.jsonl: line 2: not JSON: expected a key at column 9, found the end\n"
    );
    assert_eq!(
        fails("b.jsonl", "{\"a\": 1}\n[1]\n", &[], 1),
        "pqkit: b.jsonl: line 2: an array where a row is an object (JSON Lines: one object per line)\n"
    );
    assert_eq!(
        fails("c.jsonl", "{\"a\": 1}\n{\"a\": \"x\"}\n", &[], 1),
        "pqkit: c.jsonl: line 2: field a holds a string here and an integer in earlier rows; give the schema with --schema\n"
    );
    let schema = dir.path("s.schema");
    std::fs::write(
        &schema,
        "message m { required int32 a (INTEGER(8,true)); optional int32 d (DATE); }",
    )
    .unwrap();
    let with_schema = ["--schema", schema.as_str()];
    assert_eq!(
        fails("d.jsonl", "{\"a\": 1}\n{\"a\": 300}\n", &with_schema, 1),
        "pqkit: d.jsonl: line 2: field a: a number \"300\" where INT32 (INTEGER(8,true)) expects an integer from -128 to 127\n"
    );
    assert_eq!(
        fails(
            "e.jsonl",
            "{\"a\": 1, \"d\": \"2024-02-30\"}\n",
            &with_schema,
            1
        ),
        "pqkit: e.jsonl: line 1: field d: a string \"2024-02-30\" where INT32 (DATE) expects a date YYYY-MM-DD\n"
    );
    assert!(
        fails("f.jsonl", "{\"d\": null}\n", &with_schema, 1)
            .starts_with("pqkit: f.jsonl: line 1: ")
    );
    assert_eq!(
        fails("g.csv", "a,d\n1,2024-01-01\n2\n", &with_schema, 1),
        "pqkit: g.csv: line 3: 1 field where the header has 2\n"
    );
    assert_eq!(
        fails("h.csv", "a,z\n1,2\n", &with_schema, 1),
        "pqkit: h.csv: the header names \"z\", which the schema does not have\n"
    );
    assert_eq!(
        fails("i.jsonl", "", &[], 1),
        "pqkit: i.jsonl: no fields to infer a schema from; give one with --schema\n"
    );
    // Bad usage: 2.
    assert_eq!(
        fails("j.txt", "", &[], 2),
        "pqkit: j.txt: the extension is not .jsonl, .json, .csv, .parquet or .orc; give --from\n"
    );
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let jsonl = dir.path("out.jsonl");
    let output = pqkit(&["convert", file, &jsonl, "--compression", "zstd"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "pqkit: --compression is for Parquet output\n"
    );
    let output = pqkit(&["convert", file, &out, "--schema", &schema]);
    assert_eq!(output.status.code(), Some(2));
    let broken = dir.path("broken.schema");
    std::fs::write(&broken, "message m {").unwrap();
    let input = dir.path("a.jsonl");
    let output = pqkit(&["convert", &input, &out, "--schema", &broken]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with(&format!("pqkit: --schema {broken}: ")));
    assert_eq!(pqkit(&["convert", file]).status.code(), Some(2));
    // Nothing was written.
    assert!(!Path::new(&out).exists());
    assert!(!Path::new(&jsonl).exists());
}

#[test]
fn rewrite_writes_every_timestamp_in_the_unit_asked_for() {
    let dir = TempDir::new("rewrite-timestamps");
    let file = testdata("example.parquet");
    let file = file.to_str().unwrap();
    let rows = cat(file, &[]);
    let out = dir.path("out.parquet");
    ok(&["rewrite", file, &out, "--timestamp-unit", "ns"]);
    assert!(ok(&["schema", &out]).contains("optional int64 created (TIMESTAMP(NANOS,true));"));
    // The same instants, shown to the nanosecond.
    assert_eq!(
        cat(&out, &[]),
        rows.replace("Z\",\"tags\"", "000Z\",\"tags\"")
    );
    ok(&["rewrite", &out, &out, "--timestamp-unit", "us"]);
    assert_eq!(cat(&out, &[]), rows);
    // INT96 and every unit at once; a value with digits below the unit is refused.
    let all = all_types_file(&dir);
    let output = pqkit(&["rewrite", &all, &out, "--timestamp-unit", "us"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {all}: column tsns: timestamp \"2262-04-11T23:47:16.854775807\" has digits \
             below microseconds; give --timestamp-unit ns to keep them\n"
        )
    );
    // And INT96 past 64-bit nanoseconds too.
    let output = pqkit(&["rewrite", &all, &out, "--timestamp-unit", "ns"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("column legacy: timestamp \"+290000-12-30T23:00:00.000000000\" is past 64 bits in nanoseconds"),
        "{}",
        stderr(&output)
    );
}
