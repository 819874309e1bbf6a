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
    DecryptionOptions, ErrorKind, Field, FileReader, FooterProtection, Key, KeyMap, Projection,
    ReadOptions, RowSelection,
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
    let rows = reader.rows()?.collect::<Result<Vec<_>, _>>()?;
    // Not the footer's `num_rows`: parquet-rs 0.3 wrote 0 there.
    let expected: i64 = reader
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows)
        .sum();
    assert_eq!(rows.len() as i64, expected, "{}", path.display());
    Ok(rows)
}

/// Files of `data/` that are broken on purpose, and what must be said about them.
/// (`nation.dict-malformed.parquet`, whose chunk sizes leave out the dictionary page
/// header, reads: old parquet-mr wrote such sizes, and the reader allows for them.)
const BROKEN_DATA: [(&str, &str); 1] = [
    // Its page bytes were altered after the CRC was computed.
    (
        "datapage_v1-corrupt-checksum.parquet",
        "page checksum mismatch",
    ),
];

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn every_data_file_reads() {
    for path in files("data", ".parquet") {
        let name = path.file_name().unwrap().to_str().unwrap();
        let result = read_all(&path, ReadOptions::new());
        match BROKEN_DATA.iter().find(|(n, _)| *n == name) {
            Some((_, message)) => {
                let error = result.expect_err(name).to_string();
                assert!(error.contains(message), "{name}: {error}");
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
        let all: Vec<_> = reader.rows().unwrap().map(Result::unwrap).collect();
        let mut projection = Projection::all();
        let mut expected = Vec::new();
        let mut base = 0;
        for g in 0..reader.num_row_groups() {
            let rows = u64::try_from(reader.metadata().row_groups()[g].num_rows).unwrap();
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
    assert!(matches!(e.kind(), ErrorKind::Argument(_)), "{e}");
    // A wrong footer key: authentication fails.
    let wrong = DecryptionOptions::new().with_footer_key(key(b"1234567890123450"));
    let e = FileReader::with_options(
        File::open(&path).unwrap(),
        ReadOptions::new().with_decryption(wrong),
    )
    .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Crypto(_)), "{e}");
    // A right footer key but a wrong column key: the column fails, not the file.
    let options = DecryptionOptions::new()
        .with_footer_key(key(b"0123456789012345"))
        .with_column_key("double_field", key(b"1234567890123451"))
        .with_column_key("float_field", key(b"1234567890123451"));
    let e = read_all(&path, ReadOptions::new().with_decryption(options)).unwrap_err();
    assert!(e.to_string().contains("authentication failed"), "{e}");
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
        reader.metadata().footer_protection(),
        FooterProtection::SignatureVerified
    );
    let reader = FileReader::open(File::open(&path).unwrap()).unwrap();
    assert_eq!(
        reader.metadata().footer_protection(),
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
    assert!(e.to_string().contains("supply it"), "{e}");
}

/// Every file of `bad_data/`, and the error it must give.
const BAD_DATA: [(&str, &str); 5] = [
    ("ARROW-GH-41317.parquet", "invalid ColumnMetaData.encodings"),
    (
        "ARROW-GH-41321.parquet",
        "definition levels: truncated run header",
    ),
    (
        "ARROW-RS-GH-6229-DICTHEADER.parquet",
        // Its chunk runs into the footer; its dictionary page's count is negative too.
        "column chunk at offset 129 of 322 bytes is not inside the file's data",
    ),
    (
        "ARROW-RS-GH-6229-LEVELS.parquet",
        "repetition levels: the page ends after 1 of its 21 values",
    ),
    (
        "PARQUET-1481.parquet",
        "invalid schema element 1: unknown physical type -7",
    ),
];

#[test]
#[ignore = "needs ../shared/corpus: run `cargo xtask corpus`"]
fn every_bad_file_gives_its_error() {
    let bad = files("bad_data", ".parquet");
    for path in &bad {
        let name = path.file_name().unwrap().to_str().unwrap();
        let Some((_, message)) = BAD_DATA.iter().find(|(n, _)| *n == name) else {
            panic!("{name} in bad_data has no test of its error: add it to BAD_DATA");
        };
        let error = read_all(path, ReadOptions::new())
            .expect_err(name)
            .to_string();
        assert!(error.contains(message), "{name}: {error}");
    }
    assert_eq!(
        bad.len(),
        BAD_DATA.len(),
        "a file of BAD_DATA is gone from bad_data"
    );
}
