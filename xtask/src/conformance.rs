//! `cargo xtask conformance [FILTER...]`: every file of parquet-testing's `data/`, read by
//! `pqkit cat --format jsonl` and compared row by row with the reference (pyarrow's rows,
//! by `xtask/python/rows.py`; for the `*.parquet.encrypted` files the formula of
//! `../shared/corpus/README.md`); every file of `bad_data/` must make pqkit fail cleanly.
//! The corpus's ORC files (`orc/...`) likewise, in [`orc::Corpus`].

use crate::orc;
use crate::python::Python;
use crate::rows::{self, Expected, Pqkit, Reference, Refusal, Tally};
use crate::{corpus_dir, output, root, target_dir};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The files of `data/` that pyarrow refuses, why, and what is expected of pqkit instead.
/// A refusal not listed here, one that says something else, or a listed file that
/// pyarrow reads, fails the run: each is news.
const EXPECTED_REFUSALS: &[Refusal] = &[
    Refusal {
        file: "datapage_v1-corrupt-checksum.parquet",
        why: "a data page's CRC does not match its bytes (rows.py has pyarrow verify page checksums)",
        pyarrow_says: "CRC checksum verification failed",
        expected: Expected::Error("page checksum mismatch"),
    },
    Refusal {
        file: "incorrect_map_schema.parquet",
        why: "its MAP's key field is OPTIONAL (as Presto wrote it); Arrow requires REQUIRED keys",
        pyarrow_says: "Map keys must be annotated as required",
        // As DuckDB reads it: {'parent': 'another', 'name': 'report'}. pyarrow cannot read
        // even its schema, which rows.py --duckdb needs, so the row is written out here.
        expected: Expected::Rows(
            "{\"my_map\":[{\"key\":\"parent\",\"value\":\"another\"},{\"key\":\"name\",\"value\":\"report\"}]}\n",
        ),
    },
];

/// The keys of the encrypted files (`data/README.md`): the footer key, and the column keys
/// by column path, given to pqkit as hex of their ASCII bytes.
const FOOTER_KEY: &[u8] = b"0123456789012345";
const COLUMN_KEYS: &[(&str, &[u8])] = &[
    ("double_field", b"1234567890123450"),
    ("float_field", b"1234567890123451"),
];

/// How each encrypted file is opened: whether its columns have keys of their own (all but
/// `uniform_encryption`, where the footer key encrypts everything), and the AAD prefix the
/// reader must supply (the `_aad` file stores its prefix, `tester`, in the file).
const ENCRYPTED: &[(&str, bool, Option<&str>)] = &[
    ("encrypt_columns_and_footer.parquet.encrypted", true, None),
    (
        "encrypt_columns_and_footer_aad.parquet.encrypted",
        true,
        None,
    ),
    (
        "encrypt_columns_and_footer_ctr.parquet.encrypted",
        true,
        None,
    ),
    (
        "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        true,
        Some("tester"),
    ),
    (
        "encrypt_columns_plaintext_footer.parquet.encrypted",
        true,
        None,
    ),
    ("uniform_encryption.parquet.encrypted", false, None),
];

pub(crate) fn run(filters: &[String]) -> Result<(), String> {
    let root = root();
    let orc = orc::Corpus::select(&corpus_dir(&root), filters)?;
    let corpus = corpus_dir(&root).join("parquet-testing");
    let corpus = std::fs::canonicalize(&corpus).unwrap_or(corpus);
    let selected = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let data = rows::list(&corpus.join("data"), &[".parquet", ".parquet.encrypted"])?;
    let data: Vec<PathBuf> = data
        .into_iter()
        .filter(|p| selected(&rows::file_name(p)))
        .collect();
    let bad = rows::list(&corpus.join("bad_data"), &[".parquet"])?;
    let bad: Vec<PathBuf> = bad
        .into_iter()
        .filter(|p| selected(&format!("bad_data/{}", rows::file_name(p))))
        .collect();
    if data.is_empty() && bad.is_empty() && orc.is_empty() {
        return Err(format!("no corpus file matches {}", filters.join(" ")));
    }

    let target = target_dir(&root)?;
    let python = Python::setup(&root, &target)?;
    let (encrypted, plain): (Vec<PathBuf>, Vec<PathBuf>) = data
        .iter()
        .cloned()
        .partition(|p| rows::file_name(p).ends_with(".encrypted"));
    let references = rows::references(&python, &plain, &target.join("conformance"))?;
    let encrypted_rows = if encrypted.is_empty() {
        String::new()
    } else {
        output(python.script("rows.py").arg("--encrypted-testing"))?
    };
    let pqkit = Pqkit::locate(&root, &target)?;

    let mut tally = Tally::default();
    if filters.is_empty() {
        check_listed(&mut tally, &data);
    }
    for (file, reference) in plain.iter().zip(&references) {
        check_plain(&mut tally, &pqkit, file, reference)?;
    }
    for file in &encrypted {
        let name = rows::file_name(file);
        match decryption_args(&name) {
            Some(args) => tally.record(&name, rows::check(&pqkit, file, &args, &encrypted_rows)),
            None => tally.fail(&name, "no keys known for it: add it to ENCRYPTED"),
        }
    }
    for file in &bad {
        let name = format!("bad_data/{}", rows::file_name(file));
        rows::check_rejected(&mut tally, &pqkit, file, &name)?;
    }
    orc.check(&python, &pqkit, &target, &mut tally)?;
    tally.finish(
        "conformance",
        "files pyarrow refuses or misreads, as EXPECTED_REFUSALS and orc/pins.rs say",
    )
}

fn check_plain(
    tally: &mut Tally,
    pqkit: &Pqkit,
    file: &Path,
    reference: &Reference,
) -> Result<(), String> {
    let name = rows::file_name(file);
    let refusal = EXPECTED_REFUSALS.iter().find(|r| r.file == name);
    match (reference, refusal) {
        (Reference::Fault(last), _) => tally.fail(&name, &format!("rows.py failed: {last}")),
        (Reference::Rows(expected), None) => {
            tally.record(&name, rows::check(pqkit, file, &[], expected));
        }
        (Reference::Rows(expected), Some(_)) => tally.fail(
            &name,
            &format!(
                "pyarrow now reads it ({} rows): take it off EXPECTED_REFUSALS",
                expected.lines().count()
            ),
        ),
        (Reference::Refused(said), None) => tally.fail(
            &name,
            &format!("pyarrow refuses it, and EXPECTED_REFUSALS does not list it: {said}"),
        ),
        (Reference::Refused(said), Some(refusal)) if !said.contains(refusal.pyarrow_says) => {
            tally.fail(
                &name,
                &format!(
                    "pyarrow refuses it without saying {:?}, as EXPECTED_REFUSALS expects: {said}",
                    refusal.pyarrow_says
                ),
            );
        }
        (Reference::Refused(said), Some(refusal)) => {
            tally.pinned(&format!(
                "REFUSED-BY-PYARROW {name}: {}; pyarrow: {said}",
                refusal.why
            ));
            match refusal.expected {
                Expected::Rows(rows) => tally.record(&name, rows::check(pqkit, file, &[], rows)),
                Expected::Error(message) => {
                    let did = pqkit.cat(file, &[])?;
                    if did.code == Some(1) && did.error.contains(message) {
                        tally.pass(&name, &format!("rejected: {message}"));
                    } else {
                        tally.fail(
                            &name,
                            &format!("pqkit should exit 1 saying {message:?}: {}", did.describe()),
                        );
                    }
                }
                Expected::DuckDbRows => tally.fail(
                    &name,
                    "conformance pins rows or an error; DuckDB's rows are interop's",
                ),
            }
        }
    }
    Ok(())
}

/// Fails each name of `EXPECTED_REFUSALS` and `ENCRYPTED` that is not a file of `data`.
fn check_listed(tally: &mut Tally, data: &[PathBuf]) {
    let listed = EXPECTED_REFUSALS
        .iter()
        .map(|r| (r.file, "EXPECTED_REFUSALS"))
        .chain(ENCRYPTED.iter().map(|&(name, ..)| (name, "ENCRYPTED")));
    rows::fail_unlisted(tally, data, listed, "not in the corpus");
}

/// The decryption options of an encrypted file of the corpus, or `None` when unknown.
fn decryption_args(name: &str) -> Option<Vec<String>> {
    let &(_, column_keys, aad_prefix) = ENCRYPTED.iter().find(|(n, ..)| *n == name)?;
    let mut args = vec!["--footer-key".to_owned(), hex(FOOTER_KEY)];
    if column_keys {
        for (column, key) in COLUMN_KEYS {
            args.push("--column-key".to_owned());
            args.push(format!("{column}:{}", hex(key)));
        }
    }
    if let Some(prefix) = aad_prefix {
        args.push("--aad-prefix".to_owned());
        args.push(prefix.to_owned());
    }
    Some(args)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_hex_of_their_ascii_bytes() {
        assert_eq!(hex(FOOTER_KEY), "30313233343536373839303132333435");
        let args =
            decryption_args("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted")
                .unwrap();
        assert_eq!(
            args,
            [
                "--footer-key",
                "30313233343536373839303132333435",
                "--column-key",
                "double_field:31323334353637383930313233343530",
                "--column-key",
                "float_field:31323334353637383930313233343531",
                "--aad-prefix",
                "tester",
            ]
        );
        assert_eq!(
            decryption_args("uniform_encryption.parquet.encrypted")
                .unwrap()
                .len(),
            2
        );
        assert_eq!(decryption_args("other.parquet.encrypted"), None);
    }

    #[test]
    fn stale_list_entries_fail() {
        let listed: Vec<PathBuf> = EXPECTED_REFUSALS
            .iter()
            .map(|r| PathBuf::from(r.file))
            .chain(ENCRYPTED.iter().map(|(name, ..)| PathBuf::from(name)))
            .collect();
        let mut tally = Tally::default();
        check_listed(&mut tally, &listed);
        assert!(tally.finish("all listed", "").is_ok());
        let mut tally = Tally::default();
        check_listed(&mut tally, &listed[1..]);
        let err = tally.finish("one missing", "").unwrap_err();
        assert!(err.ends_with(EXPECTED_REFUSALS[0].file), "{err}");
    }
}
