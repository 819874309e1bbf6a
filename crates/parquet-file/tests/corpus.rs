//! The real files of `../shared/corpus/parquet-testing`: every readable file reads, every
//! encrypted file decrypts to the rows of the corpus README's formula, every file of
//! `bad_data` gives its error. Run with `cargo xtask corpus`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test helpers outside `#[test]` fns.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation
)] // Row numbers of small files.

use std::fs::File;
use std::path::PathBuf;

use parquet_file::{
    DecryptionOptions, ErrorKind, Field, FileMetaData, FileReader, FooterProtection, Key, KeyMap,
    Projection, ReadOptions, RowGroupMetaData, RowSelection, Schema,
};

fn corpus(relative: &str) -> PathBuf {
    let root = std::env::var_os("PARQUET_KIT_CORPUS").unwrap_or_else(|| {
        panic!(
            "PARQUET_KIT_CORPUS is not set: run `cargo xtask corpus`, or set it to ../shared/corpus"
        )
    });
    PathBuf::from(root).join("parquet-testing").join(relative)
}

fn files(dir: &str, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
}

fn read_all(
    path: &PathBuf,
    options: ReadOptions,
) -> Result<Vec<parquet_file::Row>, parquet_file::Error> {
    let reader = FileReader::with_options(File::open(path).unwrap(), options)?;
    for g in 0..reader.num_row_groups() {
        for c in 0..reader.schema().columns().len() {
            let offsets = reader.offset_index(g, c)?;
            if let (Some(o), Some(s)) = (offsets, reader.column_index(g, c)?) {
                assert_eq!(o.page_locations.len(), s.pages.len(), "{}", path.display());
            }
        }
    }
    let rows = reader.rows().collect::<Result<Vec<_>, _>>()?;
    // Not the footer's `num_rows`: parquet-rs 0.3 wrote 0 there.
    let expected: u64 = reader
        .metadata()
        .row_groups()
        .iter()
        .map(RowGroupMetaData::num_rows)
        .sum();
    assert_eq!(rows.len() as u64, expected, "{}", path.display());
    Ok(rows)
}

/// A file's name and whether an error is the one it must give.
type Expected = (&'static str, fn(&ErrorKind) -> bool);

/// Files of `data/` that are broken on purpose, and the error each must give.
/// (`nation.dict-malformed.parquet`, whose chunk sizes leave out the dictionary page
/// header, reads: old parquet-mr wrote such sizes, and the reader allows for them.)
const BROKEN_DATA: [Expected; 1] = [
    // Its page bytes were altered after the CRC was computed.
    ("datapage_v1-corrupt-checksum.parquet", |e| {
        matches!(e, ErrorKind::Checksum { .. })
    }),
];

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn every_data_file_reads() {
    for path in files("data", ".parquet") {
        let name = path.file_name().unwrap().to_str().unwrap();
        let result = read_all(&path, ReadOptions::new());
        match BROKEN_DATA.iter().find(|(n, _)| *n == name) {
            Some((_, expected)) => {
                let error = result.expect_err(name);
                assert!(expected(error.kind()), "{name}: {error}");
            }
            None => {
                result.unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
    }
}

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn row_selections_read_the_rows_of_a_full_read() {
    // Every third run of 7 rows, in every row group of every readable file: through
    // the offset index where the file has one.
    let mut with_index = 0;
    for path in files("data", ".parquet") {
        let name = path.file_name().unwrap().to_str().unwrap();
        if BROKEN_DATA.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let reader = FileReader::open(File::open(&path).unwrap()).unwrap();
        let all: Vec<_> = reader.rows().map(Result::unwrap).collect();
        let mut projection = Projection::all();
        let mut expected = Vec::new();
        let mut base = 0;
        for g in 0..reader.num_row_groups() {
            let rows = reader.metadata().row_groups()[g].num_rows();
            let selection = RowSelection::from_ranges((0..rows).step_by(21).map(|s| s + 5..s + 12));
            let selection = selection.intersect(&RowSelection::all(rows));
            for r in selection.ranges() {
                expected.extend_from_slice(&all[base + r.start as usize..base + r.end as usize]);
            }
            base += rows as usize;
            projection = projection.select_rows(g, selection);
            if reader.offset_index(g, 0).unwrap().is_some() {
                with_index += 1;
            }
        }
        let got: Vec<_> = reader
            .rows_with(projection)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Compared as text: NaN is not equal to itself.
        assert_eq!(format!("{got:?}"), format!("{expected:?}"), "{name}");
    }
    assert!(
        with_index > 10,
        "{with_index} row groups with an offset index"
    );
}

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn corrupt_checksum_reads_with_checks_off() {
    let path = corpus("data/datapage_v1-corrupt-checksum.parquet");
    read_all(&path, ReadOptions::new().verify_checksums(false)).unwrap();
}

fn key(text: &[u8]) -> Key {
    Key::try_new(text).unwrap()
}

fn keys_by_id() -> KeyMap {
    KeyMap::new()
        .with("kf", key(b"0123456789012345"))
        .with("kc1", key(b"1234567890123450"))
        .with("kc2", key(b"1234567890123451"))
}

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn encrypted_files_hold_the_formulas_rows() {
    let encrypted = files("data", ".parquet.encrypted");
    assert_eq!(encrypted.len(), 6);
    for path in encrypted {
        let name = path.file_name().unwrap().to_str().unwrap();
        let mut decryption = DecryptionOptions::new().with_key_retriever(keys_by_id());
        if name.contains("aad") {
            decryption = decryption.with_aad_prefix(b"tester".to_vec());
        }
        let rows = read_all(&path, ReadOptions::new().with_decryption(decryption))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rows.len(), 50, "{name}");
        for (i, row) in rows.iter().enumerate() {
            let n = i as i64;
            assert_eq!(
                row.get("boolean_field"),
                Some(&Field::Bool(i % 2 == 0)),
                "{name} {i}"
            );
            assert_eq!(
                row.get("double_field"),
                Some(&Field::Double(n as f64 * 1.111_111_1)),
                "{name} {i}"
            );
            assert_eq!(
                row.get("float_field"),
                Some(&Field::Float(n as f32 * 1.1)),
                "{name} {i}"
            );
            let list = Field::List(vec![
                Field::Int(2 * n * 1_000_000_000_000),
                Field::Int((2 * n + 1) * 1_000_000_000_000),
            ]);
            assert!(
                row.fields().iter().any(|(_, f)| *f == list),
                "{name} {i}: {row:?}"
            );
        }
    }
}

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn encryption_failures_are_errors() {
    let path = corpus("data/encrypt_columns_and_footer.parquet.encrypted");
    // No key: a usage error, naming what is missing.
    let e = FileReader::open(File::open(&path).unwrap()).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::MissingKey {
                what: "the footer key"
            }
        ),
        "{e}"
    );
    // A wrong footer key: authentication fails.
    let wrong = DecryptionOptions::new().with_footer_key(key(b"1234567890123450"));
    let e = FileReader::with_options(
        File::open(&path).unwrap(),
        ReadOptions::new().with_decryption(wrong),
    )
    .unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Crypto {
                source: parquet_crypto::Error::Authentication { .. },
                ..
            }
        ),
        "{e}"
    );
    // A right footer key but a wrong column key: the column fails, not the file.
    let options = DecryptionOptions::new()
        .with_footer_key(key(b"0123456789012345"))
        .with_column_key("double_field", key(b"1234567890123451"))
        .with_column_key("float_field", key(b"1234567890123451"));
    let e = read_all(&path, ReadOptions::new().with_decryption(options)).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Crypto {
                source: parquet_crypto::Error::Authentication { .. },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        e.location().column,
        Some(parquet_file::ColumnPath::from("double_field")),
        "{e}"
    );
    // A plaintext footer: its signature is verified with the footer key, and the
    // plaintext columns read without any key.
    let path = corpus("data/encrypt_columns_plaintext_footer.parquet.encrypted");
    let options = DecryptionOptions::new().with_key_retriever(keys_by_id());
    let reader = FileReader::with_options(
        File::open(&path).unwrap(),
        ReadOptions::new().with_decryption(options),
    )
    .unwrap();
    assert_eq!(
        reader.footer_protection(),
        FooterProtection::SignatureVerified
    );
    let reader = FileReader::open(File::open(&path).unwrap()).unwrap();
    assert_eq!(
        reader.footer_protection(),
        FooterProtection::SignatureNotVerified
    );
    let rows = reader
        .rows_with(Projection::all().columns(["boolean_field"]))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    assert_eq!(rows.len(), 50);
    // An AAD prefix the file needs but does not store.
    let path = corpus("data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
    let options = DecryptionOptions::new().with_key_retriever(keys_by_id());
    let e = FileReader::with_options(
        File::open(&path).unwrap(),
        ReadOptions::new().with_decryption(options),
    )
    .unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::MissingKey {
                what: "the AAD prefix, which the file does not store"
            }
        ),
        "{e}"
    );
}

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn a_key_the_retriever_fails_to_give_fails_its_column_with_its_error() {
    let path = corpus("data/encrypt_columns_and_footer.parquet.encrypted");
    let without_kc1 = KeyMap::new()
        .with("kf", key(b"0123456789012345"))
        .with("kc2", key(b"1234567890123451"));
    let options = ReadOptions::new()
        .with_decryption(DecryptionOptions::new().with_key_retriever(without_kc1));
    let reader = FileReader::with_options(File::open(&path).unwrap(), options).unwrap();
    let read = |column: &str| {
        reader
            .rows_with(Projection::all().columns([column]))?
            .collect::<Result<Vec<_>, _>>()
    };
    assert_eq!(read("float_field").unwrap().len(), 50);
    let e = read("double_field").unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Crypto {
                what: "retrieving the column's key",
                ..
            }
        ),
        "{e}"
    );
}

/// Every file of `bad_data/`, and the error it must give.
const BAD_DATA: [Expected; 5] = [
    ("ARROW-GH-41317.parquet", |e| {
        matches!(
            e,
            ErrorKind::Decode {
                what: "footer",
                source: parquet_core::Error::Invalid {
                    what: "ColumnMetaData.encodings",
                    ..
                },
            }
        )
    }),
    ("ARROW-GH-41321.parquet", |e| {
        matches!(
            e,
            ErrorKind::Decode {
                what: "page values",
                source: parquet_core::Error::Invalid { .. },
            }
        )
    }),
    // Its chunk runs into the footer; its dictionary page's count is negative too.
    ("ARROW-RS-GH-6229-DICTHEADER.parquet", |e| {
        matches!(
            e,
            ErrorKind::OutOfBounds {
                what: "column chunk",
                start: 129,
                len: 322,
                ..
            }
        )
    }),
    ("ARROW-RS-GH-6229-LEVELS.parquet", |e| {
        matches!(
            e,
            ErrorKind::Mismatch {
                what: "values in the page, at most the chunk's values left",
                expected: 1,
                found: 21,
            }
        )
    }),
    ("PARQUET-1481.parquet", |e| {
        matches!(
            e,
            ErrorKind::Schema {
                element: 1,
                what: "an unknown physical type",
                ..
            }
        )
    }),
];

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn every_bad_file_gives_its_error() {
    let bad = files("bad_data", ".parquet");
    for path in &bad {
        let name = path.file_name().unwrap().to_str().unwrap();
        let Some((_, expected)) = BAD_DATA.iter().find(|(n, _)| *n == name) else {
            panic!("{name} in bad_data has no test of its error: add it to BAD_DATA");
        };
        let error = read_all(path, ReadOptions::new()).expect_err(name);
        assert!(expected(error.kind()), "{name}: {error}");
    }
    assert_eq!(
        bad.len(),
        BAD_DATA.len(),
        "a file of BAD_DATA is gone from bad_data"
    );
}

/// Files whose metadata this reader cannot write back whole, and why.
const LOSSY_METADATA: [&str; 1] = [
    // A logical type newer than this reader: its annotation is not written back.
    "unknown-logical-type.parquet",
];

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn metadata_converts_to_thrift_and_back_unchanged() {
    let thrift_round_trip = |metadata: &FileMetaData| {
        let mut bytes = Vec::new();
        metadata.to_thrift().write_to(&mut bytes).unwrap();
        FileMetaData::decode(&bytes).unwrap()
    };
    let mut lossy = Vec::new();
    for path in files("data", ".parquet") {
        let name = path.file_name().unwrap().to_str().unwrap();
        let reader = FileReader::open(File::open(&path).unwrap()).unwrap();
        let metadata = reader.metadata();
        let again = thrift_round_trip(metadata);
        if **metadata != again {
            lossy.push(name.to_owned());
        }
        // What is written back reads back the same.
        assert_eq!(thrift_round_trip(&again), again, "{name}");
    }
    assert_eq!(
        lossy, LOSSY_METADATA,
        "files whose metadata changes on the way"
    );
}

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn every_schema_prints_as_text_that_parses_back() {
    for path in files("data", ".parquet") {
        let name = path.file_name().unwrap().to_str().unwrap();
        let reader = FileReader::open(File::open(&path).unwrap()).unwrap();
        let text = reader.schema().to_string();
        match Schema::parse(&text) {
            Ok(parsed) => {
                assert_eq!(parsed.to_string(), text, "{name}");
                assert_eq!(parsed.columns().len(), reader.schema().columns().len());
            }
            Err(e) => assert!(
                UNPARSABLE_SCHEMAS
                    .iter()
                    .any(|(file, expected)| *file == name && expected(e.kind())),
                "{name}: {e}\n{text}"
            ),
        }
    }
}

/// Schemas of `data/` that read but whose text `Schema::parse` refuses, and why.
const UNPARSABLE_SCHEMAS: [Expected; 2] = [
    // Hive's legacy map, whose key is optional: a reader takes it, a writer may not.
    ("incorrect_map_schema.parquet", |e| {
        matches!(
            e,
            ErrorKind::Schema {
                element: 1,
                what: "a MAP whose key is not required",
                ..
            }
        )
    }),
    // Names with spaces, which the message-type syntax cannot hold.
    ("unknown-logical-type.parquet", |e| {
        matches!(
            e,
            ErrorKind::Syntax {
                line: 2,
                column: 30,
                expected: "a semicolon"
            }
        )
    }),
];

/// Files of `data/` whose metadata contradicts their values, and what `verify` must say.
const CONTRADICTIONS: [(&str, usize); 2] = [
    // parquet-java's checksum tests write pages without statistics; their column index
    // then marks every page a null page, though every page holds values.
    ("datapage_v1-snappy-compressed-checksum.parquet", 4),
    ("datapage_v1-uncompressed-checksum.parquet", 4),
];

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn every_data_file_verifies() {
    for path in files("data", ".parquet") {
        let name = path.file_name().unwrap().to_str().unwrap();
        if BROKEN_DATA.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let reader = FileReader::open(File::open(&path).unwrap()).unwrap();
        let verification = reader.verify().unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = CONTRADICTIONS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, count)| *count);
        assert_eq!(
            verification.disagreements.len(),
            expected,
            "{name}: {:#?}",
            verification.disagreements
        );
        for d in &verification.disagreements {
            assert!(
                matches!(
                    d,
                    parquet_file::Disagreement::Statistics {
                        what: "null page",
                        ..
                    }
                ),
                "{name}: {d}"
            );
        }
    }
}
