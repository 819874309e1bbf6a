//! Whole ORC file reads: every row of a 10-million-row ORC file, orc-file's
//! `OrcReader::batches` (`next_into` one reused `Batch`) against orc-rust's synchronous
//! `ArrowReaderBuilder` (`orc read 10M: ZLIB`, `... ZSTD`, `... NONE`); and the same files
//! one column at a time, both readers with a projection of that column
//! (`orc column 10M: ZSTD, double`, ...), to tell where the time goes.
//!
//! The file has the five columns of the Parquet whole-file reads (`file_read.rs`, the same
//! generator and values): `sorted` and `random` (bigint), `double` (double), `low_card`
//! (string, 100 distinct words) and `high_card` (string, mostly unique). It is written once
//! per codec into `<target>/orc-bench/` and kept there for later runs (its values are
//! checked on every run, and a file that does not check out is written again):
//!
//! - by pyarrow (Apache ORC's C++ writer) when a Python with `pyarrow.orc` is found
//!   (`ORC_BENCH_PYTHON`, else `xtask-venv/bin/python` in this bench's target directory or
//!   in the main workspace's `target/`, the environment `cargo xtask interop` makes):
//!   `pyarrow.orc.write_table` with file version 0.12 (RLE v2), its default stripe size
//!   (64 MiB), compression block (64 KiB) and row index stride (10,000), and
//!   `dictionary_key_size_threshold=0.8` (Apache ORC Java's default; pyarrow's own default
//!   of 0 turns dictionaries off), so that `low_card` is DICTIONARY_V2 and `high_card`
//!   DIRECT_V2;
//! - otherwise (or with `ORC_BENCH_PYTHON` set but empty) by orc-file's own `OrcWriter`,
//!   with the same settings, from batches of 64 Ki rows. The file names and the bench's
//!   stderr say which writer made them; stderr also gives each file's size, stripes and
//!   column encodings.
//!
//! Each file is read into memory once (a `Bytes`) and both readers read it from there; both
//! parse the file's tail inside the timed run, and both read 8192 rows at a time (orc-rust's
//! default batch size). orc-file fills one `Batch` reused across batches and runs;
//! orc-rust builds a new `RecordBatch` per batch (arrays allocated anew, strings validated
//! as UTF-8, dictionary strings cast from a `DictionaryArray` to a `StringArray`).
//!
//! Before timing, both readers' values are checked against what was written: per column
//! the count, a wrapping sum of the integers (of the doubles' bits), the string bytes and
//! an order-dependent hash. Rounds: `COMPARE_FILE_ROUNDS`, default `COMPARE_ROUNDS` but at
//! most 5, like the Parquet file rows; `COMPARE_FILE_ROWS` scales the file down.
//!
//! When pyarrow is there, the notes after the table add pyarrow's own read of the same file
//! (`pyarrow.orc.ORCFile(path).read()` with `set_cpu_count(1)` and
//! `set_io_thread_count(1)`, from the page cache, median of as many runs as rounds, at
//! least 5), timed right after each row.

use crate::Bench;
use crate::file_read::{COLUMNS, Checksum, Data, file_rows, rounds_for_files};
use arrow_array_orc::cast::AsArray;
use arrow_array_orc::types::{Float64Type, Int64Type};
use arrow_array_orc::{Array, RecordBatch};
use arrow_schema_orc::DataType;
use bytes::Bytes;
use orc_file::{
    Batch, OrcReader, OrcVersion, OrcWriter, ReadOptions, TypeDescription, Vector, VectorData,
    WriterOptions,
};
use orc_rust::ArrowReaderBuilder;
use orc_rust::projection::ProjectionMask;
use parquet_core::ByteArrayBatch;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Rows per batch, both readers: orc-rust's default.
const BATCH: usize = 8192;

/// The codecs: the name rows give them, pyarrow's name for them, orc-file's.
const CODECS: [(&str, &str, orc_file::OrcCompression); 3] = [
    ("ZLIB", "zlib", orc_file::OrcCompression::Zlib),
    ("ZSTD", "zstd", orc_file::OrcCompression::Zstd),
    ("NONE", "uncompressed", orc_file::OrcCompression::None),
];

/// Writes the table pyarrow reads from standard input to one file per `compression=path`
/// argument.
const WRITE_SCRIPT: &str = r#"
import sys
import numpy as np
import pyarrow as pa
import pyarrow.orc as orc

rows = int(sys.argv[1])
stdin = sys.stdin.buffer

def exactly(n):
    b = stdin.read(n)
    assert len(b) == n, (len(b), n)
    return b

def numbers(dtype):
    return pa.array(np.frombuffer(exactly(rows * 8), dtype=dtype))

def strings():
    size = int.from_bytes(exactly(8), "little")
    offsets = exactly((rows + 1) * 4)
    data = exactly(size)
    return pa.StringArray.from_buffers(rows, pa.py_buffer(offsets), pa.py_buffer(data))

table = pa.table({
    "sorted": numbers("<i8"),
    "random": numbers("<i8"),
    "double": numbers("<f8"),
    "low_card": strings(),
    "high_card": strings(),
})
for job in sys.argv[2:]:
    compression, path = job.split("=", 1)
    orc.write_table(table, path, compression=compression, file_version="0.12",
                    dictionary_key_size_threshold=0.8)
"#;

/// Times pyarrow's single-threaded read of a file: prints the median seconds.
const TIME_SCRIPT: &str = r"
import statistics, sys, time
import pyarrow as pa
import pyarrow.orc as orc

pa.set_cpu_count(1)
pa.set_io_thread_count(1)
path, runs = sys.argv[1], int(sys.argv[2])
orc.ORCFile(path).read()
times = []
for _ in range(runs):
    start = time.perf_counter()
    table = orc.ORCFile(path).read()
    times.append(time.perf_counter() - start)
    del table
print(statistics.median(times))
";

/// The name of the whole-file row of `codec`, and of its one-column rows.
fn row_names(label: &str, codec: &str) -> (String, [String; 5]) {
    (
        format!("orc read {label}: {codec}"),
        COLUMNS.map(|column| format!("orc column {label}: {codec}, {column}")),
    )
}

pub fn run(bench: &mut Bench) {
    let (rows, label) = file_rows();
    let wanted: Vec<_> = CODECS
        .iter()
        .filter(|(name, ..)| {
            let (whole, columns) = row_names(&label, name);
            bench.wanted(&whole) || columns.iter().any(|c| bench.wanted(c))
        })
        .collect();
    if wanted.is_empty() {
        return;
    }
    let data = Data::generate(rows);
    let expected = data.checksums();
    let dir = target_dir().join("orc-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let python = python();
    let writer = if python.is_some() {
        "pyarrow"
    } else {
        "orc-file"
    };
    let path = |codec: &str| dir.join(format!("{label}-{}-{writer}.orc", codec.to_lowercase()));

    // Write the files that are missing or do not check out, all in one go.
    let stale: Vec<_> = wanted
        .iter()
        .filter(|(name, ..)| checksums_ours(&path(name)) != expected)
        .copied()
        .collect();
    if !stale.is_empty() {
        let start = Instant::now();
        match &python {
            Some(python) => write_with_pyarrow(python, &data, &stale, &path),
            None => {
                for (name, _, codec) in &stale {
                    write_with_orc_file(&data, *codec, &path(name));
                }
            }
        }
        eprintln!(
            "orc read: wrote {} file(s) with {writer} in {:.1} s",
            stale.len(),
            start.elapsed().as_secs_f64()
        );
    }

    // Bytes of decoded output per column: 8 per number, 4 (an offset) plus the bytes per
    // string.
    let low_card: usize = data
        .low_card
        .iter()
        .map(|&i| data.words[i as usize].len())
        .sum();
    let column_bytes = [
        rows * 8,
        rows * 8,
        rows * 8,
        rows * 4 + low_card,
        rows * 4 + data.high_card.len(),
    ];

    let settings = bench.settings;
    bench.settings.rounds = rounds_for_files(settings.rounds);
    let rounds = bench.settings.rounds;
    for (name, _, _) in wanted {
        let (whole, columns) = row_names(&label, name);
        let path = path(name);
        let file = Bytes::from(std::fs::read(&path).unwrap());
        eprintln!(
            "{}: {:.1} MB, {:.2} bytes/row, written by {writer}; {}",
            path.display(),
            file.len() as f64 / 1e6,
            file.len() as f64 / rows as f64,
            describe(&file),
        );
        let mut sums_ours = sums();
        let mut batch = Batch::default();
        assert_eq!(
            read_ours(&file, None, &mut batch, Some(&mut sums_ours)),
            rows
        );
        assert_eq!(sums_ours, expected, "orc-file, {name}");
        let mut sums_theirs = sums();
        assert_eq!(read_theirs(&file, None, Some(&mut sums_theirs)), rows);
        assert_eq!(sums_theirs, expected, "orc-rust, {name}");

        if bench.wanted(&whole) {
            bench.run(
                &whole,
                rows * COLUMNS.len(),
                data.output_bytes(),
                &mut || {
                    read_ours(black_box(&file), None, &mut batch, None);
                },
                &mut || {
                    read_theirs(black_box(&file), None, None);
                },
            );
            let measured = bench.rows.last().unwrap();
            let (ours, theirs) = (measured.ours.as_secs_f64(), measured.theirs.as_secs_f64());
            let mut note = format!(
                "{whole} ({:.1} MB, written by {writer}): orc-file {:.0} ms ({:.1} M rows/s), \
                 orc-rust {:.0} ms ({:.1} M rows/s), median ratio orc-file/orc-rust time {:.2}",
                file.len() as f64 / 1e6,
                ours * 1e3,
                rows as f64 / ours / 1e6,
                theirs * 1e3,
                rows as f64 / theirs / 1e6,
                1.0 / measured.speedup,
            );
            if let Some(python) = &python {
                let runs = rounds.max(5);
                let seconds = time_pyarrow(python, &path, runs);
                note.push_str(&format!(
                    "; pyarrow.orc single-threaded {:.0} ms ({:.1} M rows/s, median of {runs} runs)",
                    seconds * 1e3,
                    rows as f64 / seconds / 1e6,
                ));
            }
            eprintln!("{note}");
            bench.notes.push(note);
        }

        for (column, row) in columns.iter().enumerate() {
            if !bench.wanted(row) {
                continue;
            }
            let mut sums = [Checksum::default()];
            let mut batch = Batch::default();
            assert_eq!(
                read_ours(&file, Some(column), &mut batch, Some(&mut sums)),
                rows
            );
            assert_eq!(sums[0], expected[column], "orc-file, {row}");
            let mut sums = [Checksum::default()];
            assert_eq!(read_theirs(&file, Some(column), Some(&mut sums)), rows);
            assert_eq!(sums[0], expected[column], "orc-rust, {row}");
            bench.run(
                row,
                rows,
                column_bytes[column],
                &mut || {
                    read_ours(black_box(&file), Some(column), &mut batch, None);
                },
                &mut || {
                    read_theirs(black_box(&file), Some(column), None);
                },
            );
        }
    }
    bench.settings = settings;
}

fn sums() -> [Checksum; 5] {
    [Checksum::default(); 5]
}

/// The checksums of the file at `path` as orc-file reads it, or all zero when it cannot
/// read it.
fn checksums_ours(path: &Path) -> [Checksum; 5] {
    let mut sums = sums();
    if let Ok(file) = std::fs::read(path) {
        read_ours(
            &Bytes::from(file),
            None,
            &mut Batch::default(),
            Some(&mut sums),
        );
    }
    sums
}

/// orc-file: opens `file` and reads all of it (or only the column `only`), [`BATCH`] rows
/// at a time into `batch`; adds the values to `sums` (one per column read) when given.
/// Returns the rows read; 0 when the file cannot be read and `sums` is given (the check of
/// a kept file).
fn read_ours(
    file: &Bytes,
    only: Option<usize>,
    batch: &mut Batch,
    mut sums: Option<&mut [Checksum]>,
) -> usize {
    let checking = sums.is_some();
    let reader = match OrcReader::open(file.clone()) {
        Ok(reader) => reader,
        Err(e) if checking => {
            eprintln!("orc-file cannot open the file: {e}");
            return 0;
        }
        Err(e) => panic!("{e}"),
    };
    let mut options = ReadOptions::default().with_batch_size(BATCH);
    if let Some(column) = only {
        options = options.with_projection([COLUMNS[column]]);
    }
    let mut batches = reader.batches(options).unwrap();
    let mut rows = 0;
    loop {
        match batches.next_into(batch) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) if checking => {
                eprintln!("orc-file cannot read the file: {e}");
                return 0;
            }
            Err(e) => panic!("{e}"),
        }
        rows += batch.num_rows;
        if let Some(sums) = sums.as_deref_mut() {
            assert_eq!(batch.columns.len(), sums.len());
            for (sum, vector) in sums.iter_mut().zip(&batch.columns) {
                assert!(vector.present.as_ref().is_none_or(|p| p.iter().all(|&p| p)));
                match &vector.data {
                    VectorData::Int(v) => {
                        assert_eq!(v.len(), batch.num_rows);
                        v.iter().for_each(|&v| sum.int(v as u64));
                    }
                    VectorData::Double(v) => {
                        assert_eq!(v.len(), batch.num_rows);
                        v.iter().for_each(|&v| sum.int(v.to_bits()));
                    }
                    VectorData::Bytes(v) => {
                        assert_eq!(v.len(), batch.num_rows);
                        v.iter().for_each(|v| sum.bytes(v));
                    }
                    other => panic!("unexpected vector {other:?}"),
                }
            }
        }
        black_box(&*batch);
    }
    rows
}

/// orc-rust: opens `file` and reads all of it (or only the column `only`) into
/// [`BATCH`]-row `RecordBatch`es; adds the values to `sums` (one per column read) when
/// given. Returns the rows read.
fn read_theirs(file: &Bytes, only: Option<usize>, mut sums: Option<&mut [Checksum]>) -> usize {
    let mut builder = ArrowReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH);
    if let Some(column) = only {
        let projection = ProjectionMask::named_roots(
            builder.file_metadata().root_data_type(),
            &[COLUMNS[column]],
        );
        builder = builder.with_projection(projection);
    }
    let mut rows = 0;
    for batch in builder.build() {
        let batch: RecordBatch = batch.unwrap();
        rows += batch.num_rows();
        if let Some(sums) = sums.as_deref_mut() {
            assert_eq!(batch.num_columns(), sums.len());
            for (sum, array) in sums.iter_mut().zip(batch.columns()) {
                assert_eq!(array.null_count(), 0);
                match array.data_type() {
                    DataType::Int64 => array
                        .as_primitive::<Int64Type>()
                        .values()
                        .iter()
                        .for_each(|&v| sum.int(v as u64)),
                    DataType::Float64 => array
                        .as_primitive::<Float64Type>()
                        .values()
                        .iter()
                        .for_each(|&v| sum.int(v.to_bits())),
                    DataType::Utf8 => array
                        .as_string::<i32>()
                        .iter()
                        .for_each(|v| sum.bytes(v.unwrap().as_bytes())),
                    other => panic!("unexpected array of {other}"),
                }
            }
        }
        black_box(batch);
    }
    rows
}

/// Stripes, then each column's encoding in the first stripe, as orc-file reads them.
fn describe(file: &Bytes) -> String {
    let reader = OrcReader::open(file.clone()).unwrap();
    let footer = reader.stripe_footer(0).unwrap();
    let encodings: Vec<String> = COLUMNS
        .iter()
        .zip(footer.encodings.iter().skip(1))
        .map(|(name, e)| format!("{name} {}", e.kind().as_str_name()))
        .collect();
    format!(
        "version {}, {:?}, {} stripes; stripe 0: {}",
        reader.version(),
        reader.compression(),
        reader.stripes().len(),
        encodings.join(", ")
    )
}

/// The target directory of this bench: `CARGO_TARGET_DIR`, else the one its executable is
/// in (`<target>/release/deps/compare-...`).
fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .nth(3)
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf)
}

/// A Python with `pyarrow.orc`: `ORC_BENCH_PYTHON` (set but empty: none), else the
/// xtask's virtual environment.
fn python() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("ORC_BENCH_PYTHON") {
        Some(python) if python.is_empty() => Vec::new(),
        Some(python) => vec![PathBuf::from(python)],
        None => vec![
            target_dir().join("xtask-venv/bin/python"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/xtask-venv/bin/python"),
        ],
    };
    let found = candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import pyarrow.orc"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    match &found {
        Some(python) => eprintln!("orc read: pyarrow from {}", python.display()),
        None => eprintln!("orc read: no Python with pyarrow.orc; orc-file writes the files"),
    }
    found
}

/// Writes the `codecs`' files with pyarrow, handing it the columns on standard input.
fn write_with_pyarrow(
    python: &Path,
    data: &Data,
    codecs: &[&(&str, &str, orc_file::OrcCompression)],
    path: &dyn Fn(&str) -> PathBuf,
) {
    let mut child = Command::new(python)
        .arg("-c")
        .arg(WRITE_SCRIPT)
        .arg(data.rows.to_string())
        .args(
            codecs
                .iter()
                .map(|(name, pyarrow, _)| format!("{pyarrow}={}", path(name).display())),
        )
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = std::io::BufWriter::new(child.stdin.take().unwrap());
    for column in [&data.sorted, &data.random] {
        column
            .iter()
            .try_for_each(|v| stdin.write_all(&v.to_le_bytes()))
            .unwrap();
    }
    data.double
        .iter()
        .try_for_each(|v| stdin.write_all(&v.to_le_bytes()))
        .unwrap();
    let mut strings = |values: &mut dyn Iterator<Item = &[u8]>| {
        let mut offsets = vec![0_i32];
        let mut bytes = Vec::new();
        for v in values {
            bytes.extend_from_slice(v);
            offsets.push(i32::try_from(bytes.len()).unwrap());
        }
        stdin
            .write_all(&(bytes.len() as u64).to_le_bytes())
            .unwrap();
        offsets
            .iter()
            .try_for_each(|o| stdin.write_all(&o.to_le_bytes()))
            .unwrap();
        stdin.write_all(&bytes).unwrap();
    };
    strings(&mut data.low_card.iter().map(|&i| data.words[i as usize].data()));
    strings(
        &mut data
            .high_card_offsets
            .windows(2)
            .map(|w| &data.high_card[w[0]..w[1]]),
    );
    stdin.flush().unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "pyarrow could not write the files");
}

/// Writes `data` with orc-file's writer, with the settings pyarrow is given, in batches
/// of 64 Ki rows.
fn write_with_orc_file(data: &Data, codec: orc_file::OrcCompression, path: &Path) {
    let schema = TypeDescription::parse(
        "struct<sorted:bigint,random:bigint,double:double,low_card:string,high_card:string>",
    )
    .unwrap();
    let options = WriterOptions::new()
        .version(OrcVersion::V0_12)
        .compression(codec)
        .compression_block_size(64 * 1024)
        .stripe_size(64 * 1024 * 1024)
        .row_index_stride(10_000)
        .dictionary_key_size_threshold(0.8);
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut writer = OrcWriter::new(file, schema, options).unwrap();
    let vector = |data| Vector {
        present: None,
        data,
    };
    for start in (0..data.rows).step_by(64 * 1024) {
        let end = (start + 64 * 1024).min(data.rows);
        let mut low_card = ByteArrayBatch::new();
        for &i in &data.low_card[start..end] {
            low_card.push(data.words[i as usize].data()).unwrap();
        }
        let mut high_card = ByteArrayBatch::new();
        for w in data.high_card_offsets[start..=end].windows(2) {
            high_card.push(&data.high_card[w[0]..w[1]]).unwrap();
        }
        let batch = Batch {
            num_rows: end - start,
            columns: vec![
                vector(VectorData::Int(data.sorted[start..end].to_vec())),
                vector(VectorData::Int(data.random[start..end].to_vec())),
                vector(VectorData::Double(data.double[start..end].to_vec())),
                vector(VectorData::Bytes(low_card)),
                vector(VectorData::Bytes(high_card)),
            ],
        };
        writer.write_batch(&batch).unwrap();
    }
    writer.finish().unwrap().flush().unwrap();
}

/// pyarrow's median time over `runs` reads of the file at `path`, single-threaded.
fn time_pyarrow(python: &Path, path: &Path, runs: usize) -> f64 {
    let output = Command::new(python)
        .arg("-c")
        .arg(TIME_SCRIPT)
        .arg(path)
        .arg(runs.to_string())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "pyarrow: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}
