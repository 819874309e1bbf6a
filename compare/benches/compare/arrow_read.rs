//! Whole-file reads into Arrow `RecordBatch`es: parquet-arrow's
//! `ParquetRecordBatchReaderBuilder` against arrow-rs's, both into [`BATCH`]-row batches.
//! Both open the file inside the timed closure, allocate their arrays anew and validate
//! the strings as UTF-8.
//!
//! - `arrow read {rows}: {scheme}, {codec}`: the 10-million-row files of `file read`
//!   (every encoding scheme and codec; see [`file_read`](crate::file_read)), in row
//!   groups of 1 Mi rows (so 10 row groups at 10 million rows, one at a million or less).
//! - `arrow read {rows}: nested, {codec}`: the nested table of [`nested`](crate::nested)
//!   (lists with null and empty lists and null elements, a nullable struct, a list of
//!   structs), written by arrow-rs's `ArrowWriter`, in row groups of 1 Mi rows.
//! - `arrow read parallel {rows}: ...`: the same files, parquet-arrow decoding row groups
//!   on rayon's thread pool (`with_parallelism(COMPARE_PARALLELISM)`, default: the
//!   available cores, as many as rayon's threads) against arrow-rs's serial reader.
//!
//! Before timing, every reader's batches are checked: the flat files' values against what
//! was written (the checksums of `file_read`), the nested file's batches equal, column by
//! column, to the batches written (so to each other), for parquet-arrow both serial and
//! parallel. Values are rows x 5 columns for the flat files and the leaf levels for the
//! nested one (see `nested`); rounds as `file read` (`COMPARE_FILE_ROUNDS`).
//!
//! With `COMPARE_DUMP_DIR=/path`, each file is written there before its rows are timed
//! (`{rows}-{scheme}-{codec}.parquet`), and `/path/parquet-kit.csv` lists, per file,
//! the median times of these rows (`parquet_kit_ms`, `parquet_kit_parallel_ms`,
//! `arrow_rs_ms`), for `compare/pyarrow_read.py` to set beside pyarrow's:
//!
//! ```sh
//! cd compare && COMPARE_DUMP_DIR=/tmp/arrow-files cargo bench --bench compare -- "arrow read"
//! target/xtask-venv/bin/python compare/pyarrow_read.py /tmp/arrow-files
//! ```

use crate::Bench;
use crate::file_read::{
    BATCH, Checksum, Data, Scheme, codecs, file_rows, read_record_batches, rounds_for_files,
    sum_batch, write_file,
};
use crate::nested::{Nested, leaf_values, write_nested};
use arrow_array::RecordBatch;
use bytes::Bytes;
use parquet_arrow::ParquetRecordBatchReaderBuilder;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;

pub fn run(bench: &mut Bench) {
    let (rows, label) = file_rows();
    let parallelism = parallelism();
    let mut dump = Dump::from_env();
    let mut data = None;
    let mut announced = false;
    for scheme in Scheme::ALL {
        for (codec_name, codec) in codecs() {
            let what = format!("{}, {codec_name}", scheme.name());
            let serial = format!("arrow read {label}: {what}");
            let parallel = format!("arrow read parallel {label}: {what}");
            if !bench.wanted(&serial) && !bench.wanted(&parallel) {
                continue;
            }
            let data = data.get_or_insert_with(|| Data::generate(rows));
            let file = write_file(data, scheme, codec);
            check(&file, data, parallelism);
            let (_, groups) = leaf_values(&file);
            if !announced {
                announced = true;
                eprintln!(
                    "arrow read: {groups} row groups per file, parallel rows decode \
                     {parallelism} at a time on {} rayon threads",
                    rayon_threads()
                );
            }
            let file_name = format!("{label}-{}-{codec_name}.parquet", scheme.name());
            let values = rows * 5;
            let bytes = data.output_bytes();
            let mut timing = Timing::new(&file_name, rows, values);
            if let Some(dump) = &dump {
                dump.file(&file_name, &file);
            }
            if let Some(row) = run_row(
                bench,
                &serial,
                values,
                bytes,
                &mut || read_flat(black_box(&file), 1, None),
                &mut || read_record_batches(black_box(&file), None),
            ) {
                timing.ours = Some(row.0);
                timing.theirs = Some(row.1);
            }
            if let Some(row) = run_row(
                bench,
                &parallel,
                values,
                bytes,
                &mut || read_flat(black_box(&file), parallelism, None),
                &mut || read_record_batches(black_box(&file), None),
            ) {
                timing.ours_parallel = Some(row.0);
                timing.theirs.get_or_insert(row.1);
            }
            if let Some(dump) = &mut dump {
                dump.record(timing, parallelism);
            }
        }
    }
    let mut nested = None;
    for (codec_name, codec) in codecs() {
        let serial = format!("arrow read {label}: nested, {codec_name}");
        let parallel = format!("arrow read parallel {label}: nested, {codec_name}");
        if !bench.wanted(&serial) && !bench.wanted(&parallel) {
            continue;
        }
        let nested = nested.get_or_insert_with(|| Nested::generate(rows));
        let file = write_nested(nested, codec);
        let (values, groups) = leaf_values(&file);
        eprintln!(
            "nested, {codec_name}: {:.1} MB, {groups} row groups, {values} leaf values",
            file.len() as f64 / 1e6
        );
        assert_eq!(values, nested.values, "the leaf levels of the nested file");
        check_nested(&file, nested, parallelism);
        let file_name = format!("{label}-nested-{codec_name}.parquet");
        let mut timing = Timing::new(&file_name, rows, values);
        if let Some(dump) = &dump {
            dump.file(&file_name, &file);
        }
        if let Some(row) = run_row(
            bench,
            &serial,
            values,
            nested.bytes,
            &mut || read_ours(black_box(&file), 1, &mut |b| drop(black_box(b))),
            &mut || read_theirs(black_box(&file), &mut |b| drop(black_box(b))),
        ) {
            timing.ours = Some(row.0);
            timing.theirs = Some(row.1);
        }
        if let Some(row) = run_row(
            bench,
            &parallel,
            values,
            nested.bytes,
            &mut || read_ours(black_box(&file), parallelism, &mut |b| drop(black_box(b))),
            &mut || read_theirs(black_box(&file), &mut |b| drop(black_box(b))),
        ) {
            timing.ours_parallel = Some(row.0);
            timing.theirs.get_or_insert(row.1);
        }
        if let Some(dump) = &mut dump {
            dump.record(timing, parallelism);
        }
    }
}

/// Row groups the parallel rows decode at a time: `COMPARE_PARALLELISM`, or the
/// available cores.
fn parallelism() -> usize {
    std::env::var("COMPARE_PARALLELISM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, usize::from))
        .max(1)
}

/// Threads of rayon's global pool (its `RAYON_NUM_THREADS`, or the available cores).
fn rayon_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Measures a row of `values` and `bytes` with [`rounds_for_files`] rounds; gives
/// its median times in ms, ours and arrow-rs's, when it ran.
fn run_row(
    bench: &mut Bench,
    name: &str,
    values: usize,
    bytes: usize,
    ours: &mut dyn FnMut(),
    theirs: &mut dyn FnMut(),
) -> Option<(f64, f64)> {
    if !bench.wanted(name) {
        return None;
    }
    let settings = bench.settings;
    bench.settings.rounds = rounds_for_files(settings.rounds);
    bench.run(name, values, bytes, ours, theirs);
    bench.settings = settings;
    let row = bench.rows.last()?;
    Some((row.ours.as_secs_f64() * 1e3, row.theirs.as_secs_f64() * 1e3))
}

/// parquet-arrow: opens `file` and reads it into [`BATCH`]-row `RecordBatch`es,
/// `parallelism` row groups at a time, handing each to `f`.
pub(crate) fn read_ours(file: &Bytes, parallelism: usize, f: &mut dyn FnMut(RecordBatch)) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .with_parallelism(parallelism)
        .build()
        .unwrap();
    for batch in reader {
        f(batch.unwrap());
    }
}

/// arrow-rs: opens `file` and reads it into [`BATCH`]-row `RecordBatch`es, handing each
/// to `f`.
pub(crate) fn read_theirs(file: &Bytes, f: &mut dyn FnMut(RecordBatch)) {
    let reader =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_batch_size(BATCH)
            .build()
            .unwrap();
    for batch in reader {
        f(batch.unwrap());
    }
}

/// [`read_ours`] of a flat file, adding the values to `sums` when given.
fn read_flat(file: &Bytes, parallelism: usize, mut sums: Option<&mut [Checksum; 5]>) {
    read_ours(file, parallelism, &mut |batch| {
        if let Some(sums) = sums.as_deref_mut() {
            sum_batch(&batch, sums);
        }
        black_box(batch);
    });
}

/// Checks that both readers, ours serial and parallel, read back what was written.
fn check(file: &Bytes, data: &Data, parallelism: usize) {
    let expected = data.checksums();
    for parallelism in [1, parallelism] {
        let mut sums = [Checksum::default(); 5];
        read_flat(file, parallelism, Some(&mut sums));
        assert_eq!(sums, expected, "parquet-arrow, parallelism {parallelism}");
    }
    let mut sums = [Checksum::default(); 5];
    read_record_batches(file, Some(&mut sums));
    assert_eq!(sums, expected, "arrow-rs RecordBatches");
}

/// Checks that both readers, ours serial and parallel, read the nested file into the
/// batches written.
fn check_nested(file: &Bytes, nested: &Nested, parallelism: usize) {
    let mut theirs = Vec::new();
    read_theirs(file, &mut |b| theirs.push(b));
    same_batches("arrow-rs", &theirs, &nested.batches);
    drop(theirs);
    for parallelism in [1, parallelism] {
        let mut ours = Vec::new();
        read_ours(file, parallelism, &mut |b| ours.push(b));
        same_batches(
            &format!("parquet-arrow, parallelism {parallelism}"),
            &ours,
            &nested.batches,
        );
    }
}

/// Panics, saying where, unless `read` holds the batches `written`, column by column.
pub(crate) fn same_batches(who: &str, read: &[RecordBatch], written: &[RecordBatch]) {
    assert_eq!(read.len(), written.len(), "{who}: batches read");
    for (i, (read, written)) in read.iter().zip(written).enumerate() {
        assert_eq!(
            read.num_rows(),
            written.num_rows(),
            "{who}: rows of batch {i}"
        );
        let columns = read.columns().iter().zip(written.columns());
        for (c, (read_column, written_column)) in columns.enumerate() {
            if read_column == written_column {
                continue;
            }
            let name = written.schema().field(c).name().clone();
            assert_eq!(
                read_column.data_type(),
                written_column.data_type(),
                "{who}: type of column {name}"
            );
            let row = (0..read.num_rows())
                .find(|&r| read_column.slice(r, 1) != written_column.slice(r, 1))
                .unwrap_or(0);
            panic!(
                "{who}: batch {i}, column {name} differs from what was written, first at \
                 row {row}: read {:?}, written {:?}",
                read_column.slice(row, 1),
                written_column.slice(row, 1)
            );
        }
    }
}

/// One file's median times, for `COMPARE_DUMP_DIR`.
struct Timing {
    file: String,
    rows: usize,
    values: usize,
    ours: Option<f64>,
    ours_parallel: Option<f64>,
    theirs: Option<f64>,
}

impl Timing {
    fn new(file: &str, rows: usize, values: usize) -> Self {
        Self {
            file: file.to_owned(),
            rows,
            values,
            ours: None,
            ours_parallel: None,
            theirs: None,
        }
    }
}

/// The directory of `COMPARE_DUMP_DIR`: the files measured, and the times of their rows
/// in `parquet-kit.csv`.
struct Dump {
    dir: PathBuf,
    csv: String,
}

impl Dump {
    const CSV_HEADER: &str =
        "file,rows,values,parquet_kit_ms,parquet_kit_parallel_ms,arrow_rs_ms,parallelism\n";

    fn from_env() -> Option<Self> {
        let dir = PathBuf::from(std::env::var_os("COMPARE_DUMP_DIR")?);
        std::fs::create_dir_all(&dir).unwrap();
        // A relative path is relative to `compare/`, where the bench runs: say where.
        let dir = dir.canonicalize().unwrap();
        eprintln!("arrow read: writing the files and parquet-kit.csv to {dir:?}");
        Some(Self {
            dir,
            csv: Self::CSV_HEADER.to_owned(),
        })
    }

    /// Writes `file` as `name`.
    fn file(&self, name: &str, file: &[u8]) {
        std::fs::write(self.dir.join(name), file).unwrap();
    }

    /// Adds a file's times to `parquet-kit.csv`, and writes it out.
    fn record(&mut self, timing: Timing, parallelism: usize) {
        let ms = |t: Option<f64>| t.map(|t| format!("{t:.3}")).unwrap_or_default();
        writeln!(
            self.csv,
            "{},{},{},{},{},{},{parallelism}",
            timing.file,
            timing.rows,
            timing.values,
            ms(timing.ours),
            ms(timing.ours_parallel),
            ms(timing.theirs),
        )
        .unwrap();
        std::fs::write(self.dir.join("parquet-kit.csv"), &self.csv).unwrap();
    }
}
