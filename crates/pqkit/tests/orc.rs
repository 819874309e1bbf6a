//! `pqkit` on ORC files: files written here by `orc-file`'s writer, read by `cat`,
//! `schema`, `meta` and `verify`, and converted to and from Parquet, JSON Lines and CSV.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.

mod common;

use std::sync::Arc;

use common::{TempDir, cat, ok, pqkit, stderr, stdout, testdata};
use orc_file::{OrcCompression, OrcVersion, OrcWriter, TypeDescription, WriterOptions};
use parquet_file::{Field, Row, TimeUnit};

/// Every ORC type, nested ones and a uniontype among them.
const SCHEMA: &str = "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,\
str:string,v:varchar(5),c:char(3),bin:binary,day:date,ts:timestamp,\
inst:timestamp with local time zone,dec:decimal(10,2),big:decimal(38,5),a:array<int>,\
m:map<string,array<double>>,st:struct<x:int,y:struct<z:string>>,u:uniontype<int,string>>";

/// The rows of [`rows`] as `cat` prints them.
const ROWS: &str = r#"{"b":true,"t":-128,"s":32767,"i":-2147483648,"l":9223372036854775807,"f":1.5,"d":-2.5e-300,"str":"héllo","v":"abcde","c":"ab ","bin":"AAEC/w==","day":"2024-02-29","ts":"2024-01-01T12:34:56.123456789","inst":"1969-12-30T23:59:59.999999999Z","dec":"-12345678.90","big":"123456789012345678901234567890123.12345","a":[1,null,3],"m":[{"key":"k","value":[1.5,null]},{"key":"e","value":[]}],"st":{"x":1,"y":{"z":"w"}},"u":{"tag":0,"value":7}}
{"b":false,"t":127,"s":-32768,"i":2147483647,"l":-9223372036854775808,"f":"NaN","d":"-Infinity","str":"","v":"","c":"xyz","bin":"","day":"1969-12-31","ts":"1969-12-31T23:59:59.000000001","inst":"2262-04-11T23:47:16.854775807Z","dec":"0.00","big":"-0.00001","a":[],"m":[],"st":{"x":null,"y":null},"u":{"tag":1,"value":"s"}}
{"b":null,"t":null,"s":null,"i":null,"l":null,"f":null,"d":null,"str":null,"v":null,"c":null,"bin":null,"day":null,"ts":null,"inst":null,"dec":null,"big":null,"a":null,"m":null,"st":null,"u":null}
"#;

/// The schema without `inst`, which ORC 0.11 lacks.
fn schema(version: OrcVersion) -> TypeDescription {
    let text = match version {
        OrcVersion::V0_11 => SCHEMA.replace("inst:timestamp with local time zone,", ""),
        OrcVersion::V0_12 => SCHEMA.to_owned(),
    };
    TypeDescription::parse(&text).unwrap()
}

/// [`ROWS`] without `inst` for ORC 0.11.
fn expected(version: OrcVersion) -> String {
    match version {
        OrcVersion::V0_11 => {
            let mut rows = String::new();
            for l in ROWS.lines() {
                let start = l.find(",\"inst\":").unwrap();
                let end = l.find(",\"dec\":").unwrap();
                rows.push_str(&l[..start]);
                rows.push_str(&l[end..]);
                rows.push('\n');
            }
            rows
        }
        OrcVersion::V0_12 => ROWS.to_owned(),
    }
}

fn group(fields: Vec<(&str, Field)>) -> Field {
    Field::Group(fields.into_iter().map(|(n, f)| (Arc::from(n), f)).collect())
}

fn text(s: &str) -> Field {
    Field::Str(s.into())
}

fn nanos(value: i128, utc: bool) -> Field {
    Field::Timestamp {
        value,
        unit: TimeUnit::Nanos,
        utc,
    }
}

/// The first row of [`ROWS`].
fn first_row() -> Vec<(&'static str, Field)> {
    vec![
        ("b", Field::Bool(true)),
        ("t", Field::Int(-128)),
        ("s", Field::Int(32767)),
        ("i", Field::Int(i64::from(i32::MIN))),
        ("l", Field::Int(i64::MAX)),
        ("f", Field::Float(1.5)),
        ("d", Field::Double(-2.5e-300)),
        ("str", text("héllo")),
        ("v", text("abcde")),
        // Padded to its length, as char is.
        ("c", text("ab")),
        ("bin", Field::Bytes(vec![0, 1, 2, 255])),
        ("day", Field::Date(19_782)),
        ("ts", nanos(1_704_112_496_123_456_789, false)),
        ("inst", nanos(-86_400_000_000_001, true)),
        (
            "dec",
            Field::Decimal {
                unscaled: -1_234_567_890,
                scale: 2,
            },
        ),
        (
            "big",
            Field::Decimal {
                unscaled: 12_345_678_901_234_567_890_123_456_789_012_312_345,
                scale: 5,
            },
        ),
        (
            "a",
            Field::List(vec![Field::Int(1), Field::Null, Field::Int(3)]),
        ),
        (
            "m",
            Field::Map(vec![
                (
                    text("k"),
                    Field::List(vec![Field::Double(1.5), Field::Null]),
                ),
                (text("e"), Field::List(vec![])),
            ]),
        ),
        (
            "st",
            group(vec![
                ("x", Field::Int(1)),
                ("y", group(vec![("z", text("w"))])),
            ]),
        ),
        (
            "u",
            group(vec![("tag", Field::Int(0)), ("value", Field::Int(7))]),
        ),
    ]
}

/// The second row of [`ROWS`].
fn second_row() -> Vec<(&'static str, Field)> {
    vec![
        ("b", Field::Bool(false)),
        ("t", Field::Int(127)),
        ("s", Field::Int(-32768)),
        ("i", Field::Int(i64::from(i32::MAX))),
        ("l", Field::Int(i64::MIN)),
        ("f", Field::Float(f32::NAN)),
        ("d", Field::Double(f64::NEG_INFINITY)),
        ("str", text("")),
        ("v", text("")),
        ("c", text("xyz")),
        ("bin", Field::Bytes(vec![])),
        ("day", Field::Date(-1)),
        ("ts", nanos(-999_999_999, false)),
        ("inst", nanos(i128::from(i64::MAX), true)),
        (
            "dec",
            Field::Decimal {
                unscaled: 0,
                scale: 2,
            },
        ),
        (
            "big",
            Field::Decimal {
                unscaled: -1,
                scale: 5,
            },
        ),
        ("a", Field::List(vec![])),
        ("m", Field::Map(vec![])),
        ("st", group(vec![("x", Field::Null), ("y", Field::Null)])),
        (
            "u",
            group(vec![("tag", Field::Int(1)), ("value", text("s"))]),
        ),
    ]
}

/// The rows of [`ROWS`], as the writer takes them.
fn rows(version: OrcVersion) -> Vec<Row> {
    let (first, second) = (first_row(), second_row());
    let third: Vec<(&str, Field)> = first.iter().map(|(n, _)| (*n, Field::Null)).collect();
    [first, second, third]
        .into_iter()
        .map(|fields| {
            Row::new(
                fields
                    .into_iter()
                    .filter(|(n, _)| version == OrcVersion::V0_12 || *n != "inst")
                    .map(|(n, f)| (Arc::from(n), f))
                    .collect(),
            )
        })
        .collect()
}

/// Writes `rows` of `schema` to `path` with `options`, and user metadata.
fn write(path: &str, schema: TypeDescription, options: WriterOptions, rows: &[Row]) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut writer = OrcWriter::new(file, schema, options).unwrap();
    for row in rows {
        writer.write_row(row).unwrap();
    }
    writer.add_user_metadata("origin", b"pqkit test".to_vec());
    writer.add_user_metadata("raw", vec![0xff, 0]);
    writer.finish().unwrap();
}

/// The file of [`ROWS`] in `version` and `compression`.
fn all_types(
    dir: &TempDir,
    name: &str,
    version: OrcVersion,
    compression: OrcCompression,
) -> String {
    let path = dir.path(name);
    let options = WriterOptions::default()
        .version(version)
        .compression(compression);
    write(&path, schema(version), options, &rows(version));
    path
}

#[test]
fn cat_prints_orc_rows_by_the_rows_contract() {
    let dir = TempDir::new("orc-cat");
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        for compression in OrcCompression::ALL {
            let file = all_types(&dir, "all.orc", version, compression);
            let label = format!("{version} {compression}");
            assert_eq!(cat(&file, &[]), expected(version), "{label}");
            assert_eq!(
                ok(&["verify", &file]),
                format!(
                    "ok: 3 rows, 1 stripes, {} columns; ORC {version} {compression}; 2 sets of statistics (file and stripes) agree with the values; the row index of 1 row group agrees\n",
                    schema(version).column_count()
                ),
                "{label}"
            );
        }
    }
    let file = all_types(&dir, "all.orc", OrcVersion::V0_12, OrcCompression::Zlib);
    // CSV: scalars as their text, nested values as JSON, nulls empty.
    let csv = ok(&[
        "cat",
        &file,
        "--format",
        "csv",
        "--columns",
        "t,str,bin,inst,u",
    ]);
    assert_eq!(
        csv,
        "t,str,bin,inst,u\n\
         -128,héllo,AAEC/w==,1969-12-30T23:59:59.999999999Z,\"{\"\"tag\"\":0,\"\"value\"\":7}\"\n\
         127,,,2262-04-11T23:47:16.854775807Z,\"{\"\"tag\"\":1,\"\"value\"\":\"\"s\"\"}\"\n\
         ,,,,\n"
    );
    let table = ok(&[
        "cat",
        &file,
        "--format",
        "table",
        "--columns",
        "t,c",
        "--limit",
        "2",
    ]);
    assert_eq!(table, "t    | c\n-----+----\n-128 | ab\n127  | xyz\n");
}

#[test]
fn cat_projects_limits_and_filters_orc_rows() {
    let dir = TempDir::new("orc-filter");
    let file = all_types(&dir, "all.orc", OrcVersion::V0_12, OrcCompression::Snappy);
    assert_eq!(
        cat(&file, &["--columns", "st.y.z,t", "--limit", "2"]),
        "{\"t\":-128,\"st\":{\"y\":{\"z\":\"w\"}}}\n{\"t\":127,\"st\":{\"y\":null}}\n"
    );
    // A filter on fields not shown.
    assert_eq!(
        cat(
            &file,
            &["--columns", "i", "--where", "st.x is null and b = false"]
        ),
        "{\"i\":2147483647}\n"
    );
    assert_eq!(
        cat(
            &file,
            &["--columns", "str", "--where", "str >= 'a' or dec < 0"]
        ),
        "{\"str\":\"héllo\"}\n"
    );
    assert_eq!(
        cat(&file, &["--where", "l is null", "--columns", "b"]),
        "{\"b\":null}\n"
    );
    // Several stripes and row groups, which the filter's statistics skip: the same rows
    // as filtering every row.
    let many = dir.path("many.orc");
    let rows: Vec<Row> = (0..5000)
        .map(|i| {
            Row::new(vec![
                (Arc::from("id"), Field::Int(i)),
                (Arc::from("name"), text(&format!("name {}", i % 7))),
            ])
        })
        .collect();
    let options = WriterOptions::default()
        .stripe_size(4096)
        .row_index_stride(100);
    write(
        &many,
        TypeDescription::parse("struct<id:bigint,name:string>").unwrap(),
        options,
        &rows,
    );
    let meta = ok(&["meta", &many]);
    assert!(meta.contains("stripe 1: "), "{meta}");
    let filtered = cat(&many, &["--where", "id >= 2345 and id < 2348 or id = 4999"]);
    assert_eq!(
        filtered,
        "{\"id\":2345,\"name\":\"name 0\"}\n{\"id\":2346,\"name\":\"name 1\"}\n\
         {\"id\":2347,\"name\":\"name 2\"}\n{\"id\":4999,\"name\":\"name 1\"}\n"
    );
    let all = cat(&many, &[]);
    assert_eq!(all.lines().count(), 5000);
    let by_name: Vec<&str> = all.lines().filter(|l| l.ends_with("\"name 6\"}")).collect();
    assert_eq!(
        cat(&many, &["--where", "name = 'name 6'"])
            .lines()
            .collect::<Vec<_>>(),
        by_name
    );
    assert!(ok(&["verify", &many]).starts_with("ok: 5000 rows, "));
    // Bad usage: 2.
    let output = pqkit(&["cat", &file, "--columns", "st.q"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "pqkit: --columns: no field \"st.q\" in the schema\n"
    );
    assert_eq!(
        pqkit(&["cat", &file, "--where", "u.tag = 1"]).status.code(),
        Some(2)
    );
}

#[test]
fn schema_and_meta_of_orc_files() {
    let dir = TempDir::new("orc-meta");
    let file = all_types(&dir, "all.orc", OrcVersion::V0_12, OrcCompression::Zstd);
    assert_eq!(
        ok(&["schema", &file]),
        format!(
            "{SCHEMA}
0 struct
  1 b: boolean
  2 t: tinyint
  3 s: smallint
  4 i: int
  5 l: bigint
  6 f: float
  7 d: double
  8 str: string
  9 v: varchar(5)
  10 c: char(3)
  11 bin: binary
  12 day: date
  13 ts: timestamp
  14 inst: timestamp with local time zone
  15 dec: decimal(10,2)
  16 big: decimal(38,5)
  17 a: array
    18 element: int
  19 m: map
    20 key: string
    21 value: array
      22 element: double
  23 st: struct
    24 x: int
    25 y: struct
      26 z: string
  27 u: uniontype
    28 _union_0: int
    29 _union_1: string
"
        )
    );
    let meta = ok(&["meta", &file]);
    for line in [
        "format: ORC 0.12\n",
        "compression: ZSTD, block size 262144\n",
        "rows: 3\n",
        "row index stride: 10000\n",
        "user metadata:\n  \"origin\" = \"pqkit test\"\n  \"raw\" = base64:/wA=\n",
        ", 3 rows, writer time zone UTC\n",
        "  stream ROW_INDEX of column 0: ",
        "  stream DATA of column 18 (a.element): ",
        "  stream SECONDARY of column 15 (dec): ",
        "  encoding of column 0: DIRECT\n",
        "  encoding of column 5 (l): DIRECT_V2\n",
        "  statistics of column 2 (t): count: 2 hasNull: true",
        "file statistics:\n  column 0: count: 3 hasNull: false\n",
        "  column 2 (t): count: 2 hasNull: true bytesOnDisk: ",
        " min: -128 max: 127 sum: -1\n",
        "  column 28 (u._union_0): count: 1 hasNull: false",
    ] {
        assert!(meta.contains(line), "{line:?} in {meta}");
    }
    let json = ok(&["meta", &file, "--json"]);
    for part in [
        "{\"format\":\"ORC\",\"version\":\"0.12\",",
        "\"compression\":\"ZSTD\",\"compression_block_size\":262144,\"num_rows\":3,\"row_index_stride\":10000,",
        "{\"column\":27,\"name\":\"u\",\"type\":\"uniontype<int,string>\"}",
        "\"user_metadata\":[{\"key\":\"origin\",\"value\":\"pqkit test\",\"base64\":\"cHFraXQgdGVzdA==\"},{\"key\":\"raw\",\"value\":null,\"base64\":\"/wA=\"}]",
        "\"writer_timezone\":\"UTC\",\"streams\":[{\"column\":0,\"kind\":\"ROW_INDEX\",",
        "{\"column\":5,\"kind\":\"DIRECT_V2\",\"dictionary_size\":null}",
        "{\"column\":2,\"count\":2,\"has_null\":true,\"bytes_on_disk\":",
        ",\"min\":-128,\"max\":127,\"sum\":-1}",
        ",\"min\":\"1969-12-31\",\"max\":\"2024-02-29\"}",
        ",\"min\":\"1969-12-31T23:59:59.000000001\",\"max\":\"2024-01-01T12:34:56.123456789\"}",
        ",\"min\":\"\",\"max\":\"héllo\",\"lower_bound\":null,\"upper_bound\":null,\"sum\":6}",
        ",\"min_children\":0,\"max_children\":3,\"total_children\":3}",
    ] {
        assert!(json.contains(part), "{part:?} in {json}");
    }
    assert!(json.ends_with("]}\n"), "{json}");
    // ORC has no pages or Parquet Bloom filters to show.
    for (args, message) in [
        (
            vec!["pages", file.as_str()],
            format!(
                "pqkit: pages is for Parquet files and {file} is ORC: its stripes and streams are what `pqkit meta` prints\n"
            ),
        ),
        (
            vec!["bloom", file.as_str(), "t", "1"],
            format!(
                "pqkit: bloom is for Parquet files and {file} is ORC: orc-file does not read ORC's Bloom filters\n"
            ),
        ),
        (
            vec!["cat", file.as_str(), "--footer-key", "00"],
            format!("pqkit: --footer-key is for encrypted Parquet files; {file} is ORC\n"),
        ),
    ] {
        let output = pqkit(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&output), message);
    }
}

/// `bytes` with the last `from` before `end` replaced by `to` (of the same length).
fn patch(bytes: &mut [u8], end: usize, from: &[u8], to: &[u8]) {
    let at = bytes[..end]
        .windows(from.len())
        .rposition(|w| w == from)
        .expect("the bytes to patch");
    bytes[at..at + to.len()].copy_from_slice(to);
}

#[test]
fn verify_checks_each_row_group_by_its_row_index() {
    let dir = TempDir::new("orc-verify-index");
    let good = dir.path("good.orc");
    // 2,500 rows in row groups of 1,000: 0 to 999, 1,000 to 1,999, 2,000 to 2,499.
    let rows: Vec<Row> = (0..2500)
        .map(|v| Row::new(vec![(Arc::from("id"), Field::Int(v))]))
        .collect();
    let options = WriterOptions::default()
        .compression(OrcCompression::None)
        .row_index_stride(1000);
    let schema = TypeDescription::parse("struct<id:bigint>").unwrap();
    write(&good, schema, options, &rows);
    assert_eq!(
        ok(&["verify", &good]),
        "ok: 2500 rows, 1 stripes, 2 columns; ORC 0.12 NONE; 2 sets of statistics (file and \
         stripes) agree with the values; the row indexes of 3 row groups agree\n"
    );
    // The second group's maximum in the row index (1,999: zigzag 3998, 10 9E 1F) made
    // 2,001 (10 A2 1F): nothing else of the file says 1,999.
    let mut bytes = std::fs::read(&good).unwrap();
    let end = bytes.len();
    patch(&mut bytes, end, &[0x10, 0x9E, 0x1F], &[0x10, 0xA2, 0x1F]);
    let bad = dir.path("bad-index.orc");
    std::fs::write(&bad, &bytes).unwrap();
    let output = pqkit(&["verify", &bad]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {bad}: stripe 0, row group 1, column 1 (id): the statistics' max is 2001, \
             the values' 1999\n"
        )
    );
    // The second group's row index positions in the id column (uncompressed: the RLE
    // run's offset, then the values of it to skip) made to skip one value fewer: a
    // reader seeking there would start at 999.
    let mut bytes = std::fs::read(&good).unwrap();
    let reader = orc_file::OrcReader::open(bytes.clone()).unwrap();
    let indexes = reader.row_indexes(0).unwrap();
    let (_, index) = indexes.iter().find(|(column, _)| *column == 1).unwrap();
    let positions = &index.entry[1].positions;
    let varints = |values: &[u64]| {
        let mut out = Vec::new();
        for &v in values {
            let mut v = v;
            while v >= 0x80 {
                out.push(u8::try_from(v & 0x7F).unwrap() | 0x80);
                v >>= 7;
            }
            out.push(u8::try_from(v).unwrap());
        }
        out
    };
    let mut fewer = positions.clone();
    *fewer.last_mut().unwrap() -= 1;
    let (from, to) = (varints(positions), varints(&fewer));
    assert_eq!(from.len(), to.len(), "{positions:?}");
    let end = bytes.len();
    patch(&mut bytes, end, &from, &to);
    let bad = dir.path("bad-positions.orc");
    std::fs::write(&bad, &bytes).unwrap();
    let output = pqkit(&["verify", &bad]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {bad}: stripe 0, row group 1: the row index positions do not lead to the \
             group's first row (id: Int(999), not Int(1000))\n"
        )
    );
}

#[test]
fn verify_reports_orc_files_that_disagree_with_themselves() {
    let dir = TempDir::new("orc-verify");
    let good = dir.path("good.orc");
    let rows: Vec<Row> = [1000, 1000, 1200]
        .into_iter()
        .map(|v| Row::new(vec![(Arc::from("id"), Field::Int(v))]))
        .collect();
    let options = WriterOptions::default().compression(OrcCompression::None);
    write(
        &good,
        TypeDescription::parse("struct<id:bigint>").unwrap(),
        options,
        &rows,
    );
    assert!(ok(&["verify", &good]).starts_with("ok: 3 rows, 1 stripes, 2 columns"));
    let bytes = std::fs::read(&good).unwrap();
    // The footer's (uncompressed) statistics of `id`: minimum 1000 (zigzag varint D0 0F
    // after the tag 08) made 1001 (D2 0F).
    let postscript = usize::from(*bytes.last().unwrap());
    let footer_end = bytes.len() - 1 - postscript;
    let mut bad_min = bytes.clone();
    patch(
        &mut bad_min,
        footer_end,
        &[0x08, 0xD0, 0x0F],
        &[0x08, 0xD2, 0x0F],
    );
    let path = dir.path("bad-min.orc");
    std::fs::write(&path, &bad_min).unwrap();
    let output = pqkit(&["verify", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {path}: file, column 1 (id): the statistics' min is 1001, the values' 1000\n"
        )
    );
    // The count of values (3, tag 08 of ColumnStatistics) made 4, with the maximum
    // (1200: zigzag 2400, 10 E0 12) made 1100 (10 98 11): two problems, one on standard
    // output.
    let mut bad = bytes.clone();
    patch(
        &mut bad,
        footer_end,
        &[0x10, 0xE0, 0x12],
        &[0x10, 0x98, 0x11],
    );
    patch(
        &mut bad,
        footer_end,
        &[0x08, 0x03, 0x12],
        &[0x08, 0x04, 0x12],
    );
    let path = dir.path("bad-count.orc");
    std::fs::write(&path, &bad).unwrap();
    let output = pqkit(&["verify", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {path}: file, column 1 (id): the statistics' count is 4, the values' 3 (and 1 more, listed on standard output)\n"
        )
    );
    assert_eq!(
        stdout(&output),
        "disagreement: file, column 1 (id): the statistics' max is 1100, the values' 1200\n"
    );
    // Broken files: exit status 1, one line naming the file.
    for (name, content) in [
        ("truncated.orc", bytes[..bytes.len() / 2].to_vec()),
        ("short.orc", b"ORC".to_vec()),
        ("no-tail.orc", {
            let mut b = bytes.clone();
            let last = b.len() - 1;
            b[last] = 0xff;
            b
        }),
    ] {
        let path = dir.path(name);
        std::fs::write(&path, content).unwrap();
        for command in ["verify", "cat", "meta", "schema"] {
            let output = pqkit(&[command, &path]);
            assert_eq!(output.status.code(), Some(1), "{name} {command}");
            let message = stderr(&output);
            assert!(
                message.starts_with(&format!("pqkit: {path}: ")) && message.lines().count() == 1,
                "{name} {command}: {message}"
            );
        }
    }
}

#[test]
fn verify_judges_a_hybrid_calendar_files_dates_as_they_are_read() {
    // Days of the hybrid Julian/Gregorian calendar, as Spark and ORC Java write them in
    // a file that says JULIAN_GREGORIAN: 0001-01-01 (-719164, which is -719162
    // proleptic), 1582-10-04 (the day before the cutover), 1970-01-01. The statistics
    // hold the stored days; the values are read as the dates they name.
    let dir = TempDir::new("orc-verify-hybrid");
    let path = dir.path("proleptic.orc");
    let rows: Vec<Row> = [-719_164, -141_428, 0]
        .into_iter()
        .map(|d| Row::new(vec![(Arc::from("d"), Field::Date(d))]))
        .collect();
    let options = WriterOptions::default().compression(OrcCompression::None);
    let schema = TypeDescription::parse("struct<d:date>").unwrap();
    write(&path, schema, options, &rows);
    assert!(ok(&["verify", &path]).starts_with("ok: 3 rows"));
    // The footer's calendar (tag 11, 0x58) made JULIAN_GREGORIAN (1) from
    // PROLEPTIC_GREGORIAN (2).
    let mut bytes = std::fs::read(&path).unwrap();
    let footer_end = bytes.len() - 1 - usize::from(*bytes.last().unwrap());
    patch(&mut bytes, footer_end, &[0x58, 0x02], &[0x58, 0x01]);
    let hybrid = dir.path("hybrid.orc");
    std::fs::write(&hybrid, &bytes).unwrap();
    assert_eq!(
        cat(&hybrid, &[]),
        "{\"d\":\"0001-01-01\"}\n{\"d\":\"1582-10-04\"}\n{\"d\":\"1970-01-01\"}\n"
    );
    assert!(ok(&["verify", &hybrid]).starts_with(
        "ok: 3 rows, 1 stripes, 2 columns; ORC 0.12 NONE; 2 sets of statistics (file and \
         stripes) agree with the values"
    ));
    // A statistic that the values contradict in either calendar still fails: the file's
    // greatest day, 0 (sint32 zigzag 00 after the tag 10), made 1 (zigzag 02), judged
    // as the same day in both.
    patch(&mut bytes, footer_end, &[0x10, 0x00], &[0x10, 0x02]);
    std::fs::write(&hybrid, &bytes).unwrap();
    let output = pqkit(&["verify", &hybrid]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {hybrid}: file, column 1 (d): the statistics' max is 1970-01-02, the values' \
             1970-01-01\n"
        )
    );
}

#[test]
fn files_are_known_by_their_first_bytes() {
    let dir = TempDir::new("orc-magic");
    // An ORC file named .parquet, and one named .jsonl.
    let orc = all_types(&dir, "rows.parquet", OrcVersion::V0_12, OrcCompression::Lz4);
    assert_eq!(cat(&orc, &[]), ROWS);
    assert!(ok(&["schema", &orc]).starts_with("struct<b:boolean,"));
    assert!(ok(&["verify", &orc]).starts_with("ok: 3 rows, 1 stripes"));
    let named_jsonl = dir.path("rows.jsonl");
    std::fs::copy(&orc, &named_jsonl).unwrap();
    let out = dir.path("out.json");
    ok(&["convert", &named_jsonl, &out]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), ROWS);
    // A Parquet file named .orc.
    let parquet = dir.path("example.orc");
    std::fs::copy(testdata("example.parquet"), &parquet).unwrap();
    assert_eq!(
        cat(&parquet, &[]),
        std::fs::read_to_string(testdata("example.jsonl")).unwrap()
    );
    assert!(ok(&["verify", &parquet]).starts_with("ok: 40 rows, 2 row groups"));
}

/// The Parquet schema that ORC's types map to, and rows of it: Parquet to ORC and back
/// keeps both.
const PARQUET_SCHEMA: &str = "message schema {
  optional boolean b;
  optional int32 t (INTEGER(8,true));
  optional int32 s (INTEGER(16,true));
  optional int32 i;
  optional int64 l;
  optional float f;
  optional double d;
  optional byte_array str (STRING);
  optional byte_array bin;
  optional int32 day (DATE);
  optional int64 ts (TIMESTAMP(NANOS,false));
  optional int64 inst (TIMESTAMP(NANOS,true));
  optional fixed_len_byte_array(5) dec (DECIMAL(10,2));
  optional fixed_len_byte_array(16) big (DECIMAL(38,5));
  optional group a (LIST) {
    repeated group list {
      optional int32 element;
    }
  }
  optional group m (MAP) {
    repeated group key_value {
      required byte_array key (STRING);
      optional group value (LIST) {
        repeated group list {
          optional double element;
        }
      }
    }
  }
  optional group st {
    optional int32 x;
    optional group y {
      optional byte_array z (STRING);
    }
  }
}
";

/// Rows of [`PARQUET_SCHEMA`]: [`ROWS`] without the char, varchar and uniontype.
fn parquet_rows() -> String {
    let mut rows = String::new();
    for l in ROWS.lines() {
        let l = l.replace(",\"v\":\"abcde\",\"c\":\"ab \"", "");
        let l = l.replace(",\"v\":\"\",\"c\":\"xyz\"", "");
        let l = l.replace(",\"v\":null,\"c\":null", "");
        let u = l.find(",\"u\":").unwrap();
        rows.push_str(&l[..u]);
        rows.push_str("}\n");
    }
    rows
}

#[test]
fn convert_parquet_to_orc_and_back_keeps_rows_and_schema() {
    let dir = TempDir::new("orc-parquet");
    let (schema, jsonl, parquet) = (
        dir.path("schema.txt"),
        dir.path("rows.jsonl"),
        dir.path("rows.parquet"),
    );
    let rows = parquet_rows();
    std::fs::write(&schema, PARQUET_SCHEMA).unwrap();
    std::fs::write(&jsonl, &rows).unwrap();
    ok(&["convert", &jsonl, &parquet, "--schema", &schema]);
    assert_eq!(cat(&parquet, &[]), rows);
    let orc_type = "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,\
                    str:string,bin:binary,day:date,ts:timestamp,\
                    inst:timestamp with local time zone,dec:decimal(10,2),big:decimal(38,5),\
                    a:array<int>,m:map<string,array<double>>,st:struct<x:int,y:struct<z:string>>>\n";
    assert_eq!(
        ok(&["convert", &parquet, "--to", "orc", "--print-schema"]),
        orc_type
    );
    let (orc, back) = (dir.path("rows.orc"), dir.path("back.parquet"));
    for settings in [
        &["--orc-version", "0.12"][..],
        &["--orc-version", "0.11", "--orc-compression", "snappy"],
        &["--orc-compression", "zstd:3", "--row-index-stride", "1"],
        &["--orc-compression", "none", "--stripe-size", "1"],
        &["--orc-compression", "zlib:9", "--orc-block-size", "64"],
    ] {
        let mut args = vec!["convert", &parquet, &orc];
        args.extend_from_slice(settings);
        ok(&args);
        let v11 = settings.contains(&"0.11");
        // ORC 0.11 has no timestamp with local time zone: the instants are timestamps.
        let orc_rows = if v11 {
            rows.replace("Z\",\"dec\"", "\",\"dec\"")
        } else {
            rows.clone()
        };
        assert_eq!(cat(&orc, &[]), orc_rows, "{settings:?}");
        assert!(
            ok(&["verify", &orc]).starts_with("ok: 3 rows, "),
            "{settings:?}"
        );
        // Nanoseconds kept only when asked for: by default they go to microseconds,
        // and a value with digits below them is refused, not rounded.
        let output = pqkit(&["convert", &orc, &back]);
        assert_eq!(output.status.code(), Some(1));
        assert!(
            stderr(&output).contains(
                "row 0: field ts: timestamp \"2024-01-01T12:34:56.123456789\" has digits below \
                 microseconds; give --timestamp-unit ns to keep them"
            ),
            "{}",
            stderr(&output)
        );
        ok(&["convert", &orc, &back, "--timestamp-unit", "ns"]);
        assert_eq!(cat(&back, &[]), orc_rows, "{settings:?}");
        if !v11 {
            assert_eq!(ok(&["schema", &back]), PARQUET_SCHEMA);
        }
    }
    let meta = ok(&["meta", &orc]);
    for line in [
        "format: ORC 0.12\n",
        "compression: ZLIB, block size 64\n",
        "rows: 3\n",
        "row index stride: 10000\n",
    ] {
        assert!(meta.contains(line), "{line:?} in {meta}");
    }
    // testdata's example: its MICROS timestamps become ORC's nanoseconds, and go back to
    // Parquet in microseconds (by default, and as asked).
    let example = testdata("example.parquet");
    let example = example.to_str().unwrap();
    ok(&["convert", example, &orc]);
    let original = std::fs::read_to_string(testdata("example.jsonl")).unwrap();
    let in_nanos = original.replace("Z\",\"tags\"", "000Z\",\"tags\"");
    assert_eq!(cat(&orc, &[]), in_nanos);
    ok(&["convert", &orc, &back]);
    assert_eq!(cat(&back, &[]), original);
    assert!(ok(&["schema", &back]).contains("(TIMESTAMP(MICROS,true))"));
    ok(&["convert", &orc, &back, "--timestamp-unit", "ms"]);
    assert!(ok(&["schema", &back]).contains("(TIMESTAMP(MILLIS,true))"));
}

#[test]
fn convert_takes_a_flat_orc_file_to_parquet_a_column_at_a_time_as_rows_would_go() {
    // A file of every primitive type (a batch of vectors at a time, straight into the
    // Parquet columns) against the same columns among nested ones (a row at a time).
    let dir = TempDir::new("orc-flat");
    let nested = ["a", "m", "st", "u"];
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let all = all_types(&dir, "all.orc", version, OrcCompression::Zstd);
        let flat_type = TypeDescription::struct_of(
            schema(version)
                .fields()
                .filter(|(name, _)| !nested.contains(name))
                .map(|(name, t)| (name, t.clone())),
        );
        let names: Vec<String> = flat_type.field_names().to_vec();
        let flat_rows: Vec<Row> = rows(version)
            .into_iter()
            .map(|row| {
                let fields = row.into_fields().into_iter();
                Row::new(fields.filter(|(n, _)| !nested.contains(&&**n)).collect())
            })
            .collect();
        let flat = dir.path("flat.orc");
        write(
            &flat,
            flat_type,
            WriterOptions::default().version(version),
            &flat_rows,
        );
        let (from_flat, from_all) = (dir.path("flat.parquet"), dir.path("all.parquet"));
        // Nanoseconds refused in microseconds, with the same words.
        let refused = |input: &str, out: &str| {
            let output = pqkit(&["convert", input, out, "--union-as-struct"]);
            assert_eq!(output.status.code(), Some(1), "{input}");
            stderr(&output).replacen(input, "IN", 1)
        };
        let message = refused(&flat, &from_flat);
        assert!(message.contains("row 0: field ts: timestamp"), "{message}");
        assert_eq!(message, refused(&all, &from_all));
        ok(&["convert", &flat, &from_flat, "--timestamp-unit", "ns"]);
        ok(&[
            "convert",
            &all,
            &from_all,
            "--timestamp-unit",
            "ns",
            "--union-as-struct",
        ]);
        assert_eq!(
            cat(&from_flat, &[]),
            cat(&from_all, &["--columns", &names.join(",")]),
            "{version}"
        );
        assert_eq!(cat(&from_flat, &[]), cat(&flat, &[]), "{version}");
    }
}

#[test]
fn convert_json_lines_and_csv_to_orc_and_back() {
    let dir = TempDir::new("orc-jsonl");
    let (schema, jsonl, orc, again) = (
        dir.path("schema.txt"),
        dir.path("rows.jsonl"),
        dir.path("rows.orc"),
        dir.path("again.jsonl"),
    );
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        let rows = expected(version);
        // The type string, or all that `pqkit schema` prints.
        let source = all_types(&dir, "source.orc", version, OrcCompression::Zlib);
        let type_string = format!("{}\n", self::schema(version));
        for schema_text in [type_string, ok(&["schema", &source])] {
            std::fs::write(&schema, schema_text).unwrap();
            std::fs::write(&jsonl, &rows).unwrap();
            ok(&[
                "convert",
                &jsonl,
                &orc,
                "--schema",
                &schema,
                "--orc-version",
                &version.to_string(),
            ]);
            assert_eq!(cat(&orc, &[]), rows, "{version}");
            assert_eq!(ok(&["schema", &orc]), ok(&["schema", &source]));
            ok(&["convert", &orc, &again]);
            assert_eq!(std::fs::read_to_string(&again).unwrap(), rows);
        }
        // Through CSV (whose empty cells are nulls: the empty string, varchar and binary
        // read back as nulls).
        let csv = dir.path("rows.csv");
        ok(&["convert", &orc, &csv]);
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            ok(&["cat", &orc, "--format", "csv"])
        );
        ok(&[
            "convert",
            &csv,
            &orc,
            "--schema",
            &schema,
            "--orc-version",
            &version.to_string(),
        ]);
        let nulls = rows.replace("\"str\":\"\",\"v\":\"\"", "\"str\":null,\"v\":null");
        let nulls = nulls.replace("\"bin\":\"\"", "\"bin\":null");
        assert_eq!(cat(&orc, &[]), nulls, "{version} through CSV");
    }
    // Without a schema: the one inferred, as ORC types.
    std::fs::write(
        &jsonl,
        "{\"id\": 1, \"score\": 2.5, \"ok\": true, \"tags\": [\"x\"], \"at\": {\"lat\": 1.5}}\n\
         {\"id\": 2, \"score\": null, \"ok\": null, \"tags\": [], \"at\": null}\n",
    )
    .unwrap();
    assert_eq!(
        ok(&["convert", &jsonl, "--to", "orc", "--print-schema"]),
        "struct<id:bigint,score:double,ok:boolean,tags:array<string>,at:struct<lat:double>>\n"
    );
    ok(&["convert", &jsonl, &orc]);
    assert_eq!(
        cat(&orc, &[]),
        "{\"id\":1,\"score\":2.5,\"ok\":true,\"tags\":[\"x\"],\"at\":{\"lat\":1.5}}\n\
         {\"id\":2,\"score\":null,\"ok\":null,\"tags\":[],\"at\":null}\n"
    );
    // A value its ORC type refuses names the line and field.
    std::fs::write(&schema, "struct<t:tinyint,v:varchar(2)>").unwrap();
    std::fs::write(
        &jsonl,
        "{\"t\": 1, \"v\": \"ab\"}\n{\"t\": 1, \"v\": \"abc\"}\n",
    )
    .unwrap();
    let output = pqkit(&["convert", &jsonl, &orc, "--schema", &schema]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {jsonl}: line 2: field `v`: invalid input: a string of 3 characters for a varchar(2) column (at most 2)\n"
        )
    );
    std::fs::write(&jsonl, "{\"t\": 300}\n").unwrap();
    let output = pqkit(&["convert", &jsonl, &orc, "--schema", &schema]);
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {jsonl}: line 1: field t: a number \"300\" where tinyint expects an integer from -128 to 127\n"
        )
    );
}

#[test]
fn convert_widens_parquet_types_that_orc_lacks() {
    let dir = TempDir::new("orc-widen");
    let (schema, jsonl, parquet, orc) = (
        dir.path("schema.txt"),
        dir.path("rows.jsonl"),
        dir.path("rows.parquet"),
        dir.path("rows.orc"),
    );
    std::fs::write(
        &schema,
        "message m {
  optional int32 u8 (INTEGER(8,false));
  optional int32 u16 (INTEGER(16,false));
  optional int32 u32 (INTEGER(32,false));
  optional int64 u64 (INTEGER(64,false));
  optional fixed_len_byte_array(2) h (FLOAT16);
  optional fixed_len_byte_array(16) id (UUID);
  optional byte_array e (ENUM);
  optional byte_array j (JSON);
  optional byte_array doc (BSON);
  optional int96 legacy;
  optional int64 ms (TIMESTAMP(MILLIS,true));
  optional int64 us (TIMESTAMP(MICROS,false));
  repeated int32 old_list;
  optional group keys (MAP) {
    repeated group key_value {
      required int32 key;
    }
  }
}",
    )
    .unwrap();
    std::fs::write(
        &jsonl,
        "{\"u8\": 255, \"u16\": 65535, \"u32\": 4294967295, \"u64\": 18446744073709551615, \"h\": 0.5, \"id\": \"00112233-4455-6677-8899-aabbccddeeff\", \"e\": \"RED\", \"j\": \"{}\", \"doc\": \"AA==\", \"legacy\": \"+290000-12-30T23:00:00.000000000\", \"ms\": \"2024-01-01T00:00:00.001Z\", \"us\": \"1900-01-01T00:00:00.000001\", \"old_list\": [1, 2], \"keys\": [3]}\n",
    )
    .unwrap();
    ok(&["convert", &jsonl, &parquet, "--schema", &schema]);
    assert_eq!(
        ok(&["convert", &parquet, &orc, "--print-schema"]),
        "struct<u8:smallint,u16:int,u32:bigint,u64:decimal(20,0),h:float,id:binary,e:string,\
         j:string,doc:binary,legacy:timestamp,ms:timestamp with local time zone,us:timestamp,\
         old_list:array<int>,keys:array<int>>\n"
    );
    ok(&["convert", &parquet, &orc]);
    assert_eq!(
        cat(&orc, &[]),
        "{\"u8\":255,\"u16\":65535,\"u32\":4294967295,\"u64\":\"18446744073709551615\",\"h\":0.5,\
         \"id\":\"ABEiM0RVZneImaq7zN3u/w==\",\"e\":\"RED\",\"j\":\"{}\",\"doc\":\"AA==\",\
         \"legacy\":\"+290000-12-30T23:00:00.000000000\",\"ms\":\"2024-01-01T00:00:00.001000000Z\",\
         \"us\":\"1900-01-01T00:00:00.000001000\",\"old_list\":[1,2],\"keys\":[3]}\n"
    );
    assert!(ok(&["verify", &orc]).starts_with("ok: 1 rows, "));
    // TIME has no ORC type; nor has a DECIMAL of more than 38 digits.
    for (field, message) in [
        (
            "optional int32 t (TIME(MILLIS,true));",
            "field t: TIME(MILLIS,true) has no ORC type (Arrow's ORC writer refuses TIME too)",
        ),
        (
            "optional byte_array w (DECIMAL(40,2));",
            "field w: DECIMAL(40,2) has more digits than an ORC decimal's 38",
        ),
    ] {
        std::fs::write(&schema, format!("message m {{ {field} }}")).unwrap();
        std::fs::write(&jsonl, "{}\n").unwrap();
        ok(&["convert", &jsonl, &parquet, "--schema", &schema]);
        let output = pqkit(&["convert", &parquet, &orc]);
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(stderr(&output), format!("pqkit: {parquet}: {message}\n"));
    }
}

#[test]
fn convert_writes_a_union_to_parquet_only_as_a_struct() {
    let dir = TempDir::new("orc-union");
    let file = all_types(&dir, "all.orc", OrcVersion::V0_12, OrcCompression::Zlib);
    let parquet = dir.path("all.parquet");
    let output = pqkit(&["convert", &file, &parquet]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "pqkit: {file}: field u: uniontype<int,string> has no Parquet type; give --union-as-struct to write it as a group of `tag` and `_union_0`, `_union_1`, …\n"
        )
    );
    ok(&[
        "convert",
        &file,
        &parquet,
        "--union-as-struct",
        "--timestamp-unit",
        "ns",
    ]);
    let schema = ok(&["schema", &parquet]);
    assert!(
        schema.ends_with(
            "  optional group u {
    optional int32 tag (INTEGER(8,true));
    optional int32 _union_0;
    optional byte_array _union_1 (STRING);
  }
}
"
        ),
        "{schema}"
    );
    let unions: Vec<String> = cat(&parquet, &["--columns", "u"])
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(
        unions,
        [
            "{\"u\":{\"tag\":0,\"_union_0\":7,\"_union_1\":null}}",
            "{\"u\":{\"tag\":1,\"_union_0\":null,\"_union_1\":\"s\"}}",
            "{\"u\":null}",
        ]
    );
    // The other fields as they were (char and varchar are strings).
    let rest = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l[..l.find(",\"u\":").unwrap()].to_owned())
            .collect()
    };
    assert_eq!(rest(&cat(&parquet, &[])), rest(ROWS));
    // Only for ORC rows going to Parquet.
    let jsonl = dir.path("all.jsonl");
    let output = pqkit(&["convert", &file, &jsonl, "--union-as-struct"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "pqkit: --union-as-struct is for ORC rows written to Parquet\n"
    );
}

#[test]
fn convert_refuses_flags_for_the_other_format() {
    let dir = TempDir::new("orc-flags");
    let file = all_types(&dir, "all.orc", OrcVersion::V0_12, OrcCompression::Zlib);
    let example = testdata("example.parquet");
    let example = example.to_str().unwrap();
    let (orc, parquet) = (dir.path("out.orc"), dir.path("out.parquet"));
    for (args, message) in [
        (
            vec!["convert", &file, &parquet, "--orc-version", "0.11"],
            "pqkit: --orc-version is for ORC output\n".to_owned(),
        ),
        (
            vec!["convert", example, &orc, "--compression", "zstd"],
            "pqkit: --compression is for Parquet output\n".to_owned(),
        ),
        (
            vec!["convert", &file, &orc, "--schema", &file],
            "pqkit: --schema is for JSON Lines or CSV input: an ORC file has its own\n".to_owned(),
        ),
        (
            vec!["convert", &file, &orc, "--orc-version", "0.11"],
            format!(
                "pqkit: {orc}: invalid input: timestamp with local time zone needs ORC version \
                 0.12\n"
            ),
        ),
    ] {
        let output = pqkit(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&output), message, "{args:?}");
    }
    for bad in [
        &["--orc-version", "0.13"][..],
        &["--orc-compression", "brotli"],
        &["--orc-compression", "snappy:1"],
        &["--stripe-size", "0"],
    ] {
        let mut args = vec!["convert", example, &orc];
        args.extend_from_slice(bad);
        assert_eq!(pqkit(&args).status.code(), Some(2), "{bad:?}");
    }
    // Nothing was written.
    assert_eq!(dir.files(), ["all.orc"]);
}
