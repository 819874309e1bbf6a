//! parquet-kit against the field: whole files that pyarrow, DuckDB and polars write with
//! their defaults and common settings, on realistic tables (`xtask/python/field.py
//! generate`: a flat table of ids, quantities, prices, a nullable float, a decimal, a date,
//! a timestamp, a boolean and strings of low and high cardinality; a nested table of
//! lists and a struct with a list, nulls at every level; tables of 50, 120 and 500
//! columns). `cargo xtask bench field` runs this beside the Python peers and prints one
//! table; this module is its Rust half, and runs only when `COMPARE_FIELD_DIR` names the
//! directory the generator made.
//!
//! - `field read: FILE`: every `files/*.parquet` read from memory into 8192-row
//!   `RecordBatch`es by parquet-arrow serially (`parquet-kit`) and with
//!   `with_parallelism(cores)` (`parquet-kit-parallel`), by arrow-rs's
//!   `ParquetRecordBatchReaderBuilder` (`arrow-rs`), each at its defaults, the footer
//!   parsed inside the timed run; and the codec floor (`floor`): every page's stored bytes
//!   decompressed with parquet-compress into one reused buffer, the page list made before
//!   timing, so nothing but the codec (none for an uncompressed file). Before timing, each
//!   reader's batches, cast to the types of the reference table (`files/TABLE.arrow`, the
//!   table the peers wrote), must equal it.
//! - `field write: TABLE, CODEC`: the reference table's batches written into a reused
//!   buffer by parquet-arrow's `ArrowWriter` (`parquet-kit`, and with
//!   `with_parallel_encoding`, `parquet-kit-parallel`, which must write the same bytes)
//!   and arrow-rs's, each at its defaults but for the codec (SNAPPY, or ZSTD at level 1);
//!   the bytes written beside the times. Both files must read back (by arrow-rs) to the
//!   table.
//! - `field orc read: FILE`: every `files/*.orc` read from memory into 8192-row batches by
//!   parquet-arrow's ORC reader (`parquet-kit`) and by orc-rust (`orc-rust`), each checked
//!   against the reference table first (ORC's timestamps have no zone: compared as UTC).
//!
//! - Memory: the peak heap of one run of each reader and writer above what it was given
//!   (the file's bytes, the table's batches, an output buffer already large enough), with
//!   every batch dropped as it comes, counted by the allocator of parquet-thrift's tests
//!   (`tests/counting`, its count of every thread); for
//!   a write, beside the most that one row group of encoded pages plus its largest column
//!   chunk (decompressed) take in our file, the bound issue 20 sets. To `memory.csv`
//!   (`what,row,who,peak_bytes`).
//!
//! `COMPARE_FIELD_FILTER` (comma-separated) keeps the files and tables whose names
//! contain one of its parts. Each sample is one whole read or write; readers run in an order rotated each round,
//! after one warm-up run each, for `COMPARE_FIELD_ROUNDS` rounds (default 5). The medians
//! go to `reads.csv`, `writes.csv` and `orc.csv` in the directory (`file,reader,median_ms,
//! bytes`), which the xtask merges with the peers' times. Before this module writes
//! anything, it writes each reference table with parquet-arrow's `ArrowWriter` at its
//! defaults as `files/TABLE-parquet-kit.parquet`, the row of our own writer.

use crate::Bench;
use crate::counting::process_peak_allocation as peak_during;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, SchemaRef};
use bytes::Bytes;
use parquet_compress::{Codec, Decompressor};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Rows per batch, for every reader (arrow-rs's default).
const BATCH: usize = 8192;

pub fn run(bench: &mut Bench) {
    let Some(dir) = std::env::var_os("COMPARE_FIELD_DIR").map(PathBuf::from) else {
        if bench.wanted("field read: ") {
            eprintln!(
                "field: skipped, as COMPARE_FIELD_DIR is not set (`cargo xtask bench field`)"
            );
        }
        return;
    };
    let rounds = std::env::var("COMPARE_FIELD_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5_usize)
        .max(1);
    let filters: Vec<String> = std::env::var("COMPARE_FIELD_FILTER")
        .unwrap_or_default()
        .split(',')
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let files = dir.join("files");
    let tables = references(&files);
    write_our_files(&files, &tables);
    let mut memory = Csv::new(dir.join("memory.csv"), "what,row,who,peak_bytes");
    reads(bench, &dir, &tables, rounds, &wanted, &mut memory);
    writes(bench, &dir, &tables, rounds, &wanted, &mut memory);
    orc_reads(bench, &dir, &tables, rounds, &wanted);
}

/// A reference table, as the peers were given it.
struct Table {
    name: String,
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
    /// The batches as one.
    whole: RecordBatch,
}

/// The tables of `files/*.arrow`, by name.
fn references(files: &Path) -> Vec<Table> {
    let mut tables = Vec::new();
    for path in sorted(files, "arrow") {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let file = std::fs::File::open(&path).unwrap();
        let reader = arrow_ipc::reader::FileReader::try_new(file, None).unwrap();
        let schema = reader.schema();
        let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
        let whole = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
        tables.push(Table {
            name,
            schema,
            batches,
            whole,
        });
    }
    tables
}

/// The files of `dir` with `extension`, by name.
fn sorted(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    paths.sort();
    paths
}

/// The table a file holds: its name up to the first `-`.
fn table_of<'t>(tables: &'t [Table], path: &Path) -> Option<&'t Table> {
    let name = path.file_name()?.to_str()?;
    let table = name.split(['-', '.']).next()?;
    tables.iter().find(|t| t.name == table)
}

/// Writes `TABLE-parquet-kit.parquet` for each table, with parquet-arrow's defaults.
fn write_our_files(files: &Path, tables: &[Table]) {
    for table in tables {
        let path = files.join(format!("{}-parquet-kit.parquet", table.name));
        let mut out = Vec::new();
        write_ours(&mut out, table, None);
        std::fs::write(&path, out).unwrap();
    }
}

/// Runs each of `runs` once to warm up, then `rounds` times in an order rotated each
/// round; the median time of each, in ms.
fn interleaved(rounds: usize, runs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    for run in runs.iter_mut() {
        run();
    }
    let mut times = vec![Vec::with_capacity(rounds); runs.len()];
    for round in 0..rounds {
        for k in 0..runs.len() {
            let i = (k + round) % runs.len();
            let start = Instant::now();
            runs[i]();
            times[i].push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect()
}

/// A CSV of medians, written out as it grows.
struct Csv {
    path: PathBuf,
    text: String,
}

impl Csv {
    fn new(path: PathBuf, header: &str) -> Self {
        Self {
            path,
            text: format!("{header}\n"),
        }
    }

    fn row(&mut self, fields: &[&dyn std::fmt::Display]) {
        let line: Vec<String> = fields.iter().map(ToString::to_string).collect();
        writeln!(self.text, "{}", line.join(",")).unwrap();
        std::fs::write(&self.path, &self.text).unwrap();
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

/// Whether a file or table is to be measured, by `COMPARE_FIELD_FILTER`.
type Wanted<'a> = dyn Fn(&str) -> bool + 'a;

fn reads(
    bench: &mut Bench,
    dir: &Path,
    tables: &[Table],
    rounds: usize,
    wanted: &Wanted,
    memory: &mut Csv,
) {
    let mut csv = Csv::new(dir.join("reads.csv"), "file,reader,median_ms,bytes");
    for path in sorted(&dir.join("files"), "parquet") {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !bench.wanted(&format!("field read: {name}")) || !wanted(&name) {
            continue;
        }
        let Some(table) = table_of(tables, &path) else {
            eprintln!("field read: {name}: no reference table, skipped");
            continue;
        };
        let file = Bytes::from(std::fs::read(&path).unwrap());
        let parallel = cores();
        for (who, batches) in [
            ("parquet-kit", collect(|f| read_ours(&file, 1, f))),
            (
                "parquet-kit-parallel",
                collect(|f| read_ours(&file, parallel, f)),
            ),
            ("arrow-rs", collect(|f| read_theirs(&file, f))),
        ] {
            same_as_reference(&format!("{name}, {who}"), &batches, table);
        }
        let peaks = [
            peak_during(|| read_ours(&file, 1, &mut drop)),
            peak_during(|| read_ours(&file, parallel, &mut drop)),
            peak_during(|| read_theirs(&file, &mut drop)),
        ];
        for (who, peak) in ["parquet-kit", "parquet-kit-parallel", "arrow-rs"]
            .iter()
            .zip(peaks)
        {
            memory.row(&[&"read", &name, who, &peak]);
        }
        let pages = Pages::of(&file);
        let mut scratch = Vec::new();
        let mut decompressor = Decompressor::new();
        let medians = interleaved(
            rounds,
            &mut [
                &mut || read_ours(black_box(&file), 1, &mut |b| drop(black_box(b))),
                &mut || read_ours(black_box(&file), parallel, &mut |b| drop(black_box(b))),
                &mut || read_theirs(black_box(&file), &mut |b| drop(black_box(b))),
                &mut || pages.decompress(&mut decompressor, &mut scratch),
            ],
        );
        // No floor for a file without compressed pages: nothing to decompress.
        let readers = ["parquet-kit", "parquet-kit-parallel", "arrow-rs", "floor"];
        let measured = if pages.pages.is_empty() { 3 } else { 4 };
        for (reader, median) in readers.iter().zip(&medians).take(measured) {
            csv.row(&[&name, reader, &format!("{median:.3}"), &file.len()]);
        }
        let line = format!(
            "field read: {name} ({:.1} MB): parquet-kit {:.1} ms, parallel({parallel}) {:.1} ms, \
             arrow-rs {:.1} ms ({:.2}x), floor {:.1} ms; peak heap {:.1} / {:.1} / {:.1} MB",
            file.len() as f64 / 1e6,
            medians[0],
            medians[1],
            medians[2],
            medians[2] / medians[0],
            medians[3],
            peaks[0] as f64 / 1e6,
            peaks[1] as f64 / 1e6,
            peaks[2] as f64 / 1e6,
        );
        eprintln!("{line}");
        bench.notes.push(line);
    }
}

/// The batches `read` hands over.
fn collect(read: impl FnOnce(&mut dyn FnMut(RecordBatch))) -> Vec<RecordBatch> {
    let mut batches = Vec::new();
    read(&mut |b| batches.push(b));
    batches
}

/// parquet-arrow: opens `file` and reads it into [`BATCH`]-row batches, `parallelism`
/// row groups (and columns) at a time, handing each to `f`.
fn read_ours(file: &Bytes, parallelism: usize, f: &mut dyn FnMut(RecordBatch)) {
    let reader = parquet_arrow::ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .with_parallelism(parallelism)
        .build()
        .unwrap();
    for batch in reader {
        f(batch.unwrap());
    }
}

/// arrow-rs: opens `file` and reads it into [`BATCH`]-row batches, handing each to `f`.
fn read_theirs(file: &Bytes, f: &mut dyn FnMut(RecordBatch)) {
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

/// Panics, saying where, unless `batches`, cast to the reference's types, are the
/// reference table.
fn same_as_reference(who: &str, batches: &[RecordBatch], table: &Table) {
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, table.whole.num_rows(), "{who}: rows");
    let Some(first) = batches.first() else {
        return;
    };
    let read = arrow_select::concat::concat_batches(&first.schema(), batches).unwrap();
    assert_eq!(
        read.num_columns(),
        table.whole.num_columns(),
        "{who}: columns"
    );
    for (c, field) in table.schema.fields().iter().enumerate() {
        let want = table.whole.column(c);
        let got = as_type(read.column(c), field.data_type())
            .unwrap_or_else(|e| panic!("{who}: column {}: {e}", field.name()));
        if &got == want {
            continue;
        }
        let row = (0..rows)
            .find(|&r| got.slice(r, 1) != want.slice(r, 1))
            .unwrap_or(0);
        panic!(
            "{who}: column {} differs from the reference, first at row {row}: read {:?}, \
             expected {:?}",
            field.name(),
            got.slice(row, 1),
            want.slice(row, 1)
        );
    }
}

/// `array` cast to `to` (a timestamp without a zone taken as UTC, as ORC stores them).
fn as_type(array: &ArrayRef, to: &DataType) -> Result<ArrayRef, String> {
    if array.data_type() == to {
        return Ok(array.clone());
    }
    let array = match (array.data_type(), to) {
        (DataType::Timestamp(unit, None), DataType::Timestamp(_, Some(_))) => {
            let utc = DataType::Timestamp(*unit, Some("UTC".into()));
            arrow_cast::cast(array, &utc).map_err(|e| e.to_string())?
        }
        _ => array.clone(),
    };
    arrow_cast::cast(&array, to)
        .map_err(|e| format!("read as {}, cannot be cast to {to}: {e}", array.data_type()))
}

/// The stored pages of a file: each page's codec, bytes and uncompressed size.
struct Pages {
    pages: Vec<(Codec, Bytes, usize)>,
}

impl Pages {
    /// Walks the page headers of every column chunk.
    fn of(file: &Bytes) -> Self {
        let reader = parquet_file::FileReader::open(file.clone()).unwrap();
        let mut pages = Vec::new();
        for group in reader.metadata().row_groups() {
            for chunk in group.columns() {
                let meta = chunk.metadata().unwrap();
                let start = meta
                    .dictionary_page_offset()
                    .unwrap_or(meta.data_page_offset());
                let start = usize::try_from(start).unwrap();
                let end = start + usize::try_from(meta.total_compressed_size()).unwrap();
                let mut at = start;
                while at < end {
                    let (header, len) = parquet_thrift::PageHeader::read_from(&file[at..]).unwrap();
                    let body = at + len;
                    let stored = usize::try_from(header.compressed_page_size).unwrap();
                    let size = usize::try_from(header.uncompressed_page_size).unwrap();
                    // A version 2 page's levels are stored as they are.
                    let (skip, compressed) =
                        header.data_page_header_v2.as_ref().map_or((0, true), |v2| {
                            let levels =
                                v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
                            (
                                usize::try_from(levels).unwrap(),
                                v2.is_compressed.unwrap_or(true),
                            )
                        });
                    if compressed && meta.codec() != Codec::Uncompressed {
                        pages.push((
                            meta.codec(),
                            file.slice(body + skip..body + stored),
                            size - skip,
                        ));
                    }
                    at = body + stored;
                }
            }
        }
        Self { pages }
    }

    /// Decompresses every page into `scratch`.
    fn decompress(&self, decompressor: &mut Decompressor, scratch: &mut Vec<u8>) {
        for (codec, stored, size) in &self.pages {
            if scratch.len() < *size {
                scratch.resize(*size, 0);
            }
            let n = decompressor
                .decompress_into(*codec, stored, &mut scratch[..*size])
                .unwrap();
            black_box(n);
        }
    }
}

/// The codecs of the write rows: name, parquet-kit's, arrow-rs's.
fn write_codecs() -> [(
    &'static str,
    parquet_file::Compression,
    parquet::basic::Compression,
); 2] {
    [
        (
            "snappy",
            parquet_file::Codec::Snappy.into(),
            parquet::basic::Compression::SNAPPY,
        ),
        (
            "zstd",
            parquet_file::Compression::with_level(parquet_file::Codec::Zstd, 1).unwrap(),
            parquet::basic::Compression::ZSTD(parquet::basic::ZstdLevel::try_new(1).unwrap()),
        ),
    ]
}

fn writes(
    bench: &mut Bench,
    dir: &Path,
    tables: &[Table],
    rounds: usize,
    wanted: &Wanted,
    memory: &mut Csv,
) {
    let mut csv = Csv::new(dir.join("writes.csv"), "file,writer,median_ms,bytes");
    for table in tables {
        for (codec, ours, theirs) in write_codecs() {
            let what = format!("{}, {codec}", table.name);
            if !bench.wanted(&format!("field write: {what}")) || !wanted(&table.name) {
                continue;
            }
            let ours = parquet_file::WriterOptions::new().with_compression(ours);
            let theirs = parquet::file::properties::WriterProperties::builder()
                .set_compression(theirs)
                .build();
            let (mut ours_out, mut theirs_out) = (Vec::new(), Vec::new());
            write_ours(&mut ours_out, table, Some(ours.clone()));
            write_theirs(&mut theirs_out, table, theirs.clone());
            for (who, out) in [("parquet-kit", &ours_out), ("arrow-rs", &theirs_out)] {
                let file = Bytes::from(out.clone());
                let batches = collect(|f| read_theirs(&file, f));
                same_as_reference(&format!("{what}: {who}'s file"), &batches, table);
            }
            let parallel = ours.clone().with_parallel_encoding(true);
            let mut parallel_out = Vec::new();
            let medians = interleaved(
                rounds,
                &mut [
                    &mut || write_ours(&mut ours_out, table, Some(ours.clone())),
                    &mut || write_ours(&mut parallel_out, table, Some(parallel.clone())),
                    &mut || write_theirs(&mut theirs_out, table, theirs.clone()),
                ],
            );
            assert!(
                parallel_out == ours_out,
                "{what}: parallel encoding wrote another file"
            );
            // Each output buffer is already as large as its file: rewriting it allocates
            // nothing, so the peak is the writer's own.
            let peaks = [
                peak_during(|| write_ours(&mut ours_out, table, Some(ours.clone()))),
                peak_during(|| write_ours(&mut parallel_out, table, Some(parallel.clone()))),
                peak_during(|| write_theirs(&mut theirs_out, table, theirs.clone())),
                row_group_bound(&ours_out),
            ];
            let row = what.replace(", ", "-");
            for (who, peak) in ["parquet-kit", "parquet-kit-parallel", "arrow-rs", "bound"]
                .iter()
                .zip(peaks)
            {
                memory.row(&[&"write", &row, who, &peak]);
            }
            let sizes = [ours_out.len(), parallel_out.len(), theirs_out.len()];
            let writers = ["parquet-kit", "parquet-kit-parallel", "arrow-rs"];
            for ((writer, median), size) in writers.iter().zip(&medians).zip(sizes) {
                csv.row(&[
                    &what.replace(", ", "-"),
                    writer,
                    &format!("{median:.3}"),
                    &size,
                ]);
            }
            let line = format!(
                "field write: {what}: parquet-kit {:.1} ms ({:.1} MB), parallel {:.1} ms, \
                 arrow-rs {:.1} ms ({:.1} MB): {:.2}x; peak heap {:.1} / {:.1} / {:.1} MB, \
                 bound {:.1} MB",
                medians[0],
                sizes[0] as f64 / 1e6,
                medians[1],
                medians[2],
                sizes[2] as f64 / 1e6,
                medians[2] / medians[0],
                peaks[0] as f64 / 1e6,
                peaks[1] as f64 / 1e6,
                peaks[2] as f64 / 1e6,
                peaks[3] as f64 / 1e6,
            );
            eprintln!("{line}");
            bench.notes.push(line);
        }
    }
}

/// What a writer of `file` must hold at least, as issue 20 bounds it: one row group of
/// encoded pages (as stored) plus the column being encoded (its chunk's pages
/// decompressed), at the largest row group.
fn row_group_bound(file: &[u8]) -> usize {
    let reader = parquet_file::FileReader::open(Bytes::copy_from_slice(file)).unwrap();
    let bound = reader.metadata().row_groups().iter().map(|group| {
        let chunks = group.columns().iter().map(|c| c.metadata().unwrap());
        let stored: u64 = chunks.clone().map(|c| c.total_compressed_size()).sum();
        let column = chunks.map(|c| c.total_uncompressed_size()).max();
        stored + column.unwrap_or(0)
    });
    usize::try_from(bound.max().unwrap_or(0)).unwrap()
}

/// parquet-arrow's `ArrowWriter`: `table` into `out` (cleared first).
fn write_ours(out: &mut Vec<u8>, table: &Table, options: Option<parquet_file::WriterOptions>) {
    out.clear();
    let mut writer =
        parquet_arrow::ArrowWriter::try_new(&mut *out, table.schema.clone(), options).unwrap();
    for batch in &table.batches {
        writer.write(batch).unwrap();
    }
    writer.close().unwrap();
}

/// arrow-rs's `ArrowWriter`: `table` into `out` (cleared first).
fn write_theirs(
    out: &mut Vec<u8>,
    table: &Table,
    properties: parquet::file::properties::WriterProperties,
) {
    out.clear();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(&mut *out, table.schema.clone(), Some(properties))
            .unwrap();
    for batch in &table.batches {
        writer.write(batch).unwrap();
    }
    writer.close().unwrap();
}

fn orc_reads(bench: &mut Bench, dir: &Path, tables: &[Table], rounds: usize, wanted: &Wanted) {
    let mut csv = Csv::new(dir.join("orc.csv"), "file,reader,median_ms,bytes");
    for path in sorted(&dir.join("files"), "orc") {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !bench.wanted(&format!("field orc read: {name}")) || !wanted(&name) {
            continue;
        }
        let Some(table) = table_of(tables, &path) else {
            eprintln!("field orc read: {name}: no reference table, skipped");
            continue;
        };
        let file = Bytes::from(std::fs::read(&path).unwrap());
        same_as_reference(
            &format!("{name}, parquet-kit"),
            &collect(|f| read_orc_ours(&file, f)),
            table,
        );
        check_orc_rust(&name, &file, table);
        let medians = interleaved(
            rounds,
            &mut [
                &mut || read_orc_ours(black_box(&file), &mut |b| drop(black_box(b))),
                &mut || {
                    read_orc_rust(black_box(&file), &mut |rows| {
                        black_box(rows);
                    })
                },
            ],
        );
        for (reader, median) in ["parquet-kit", "orc-rust"].iter().zip(&medians) {
            csv.row(&[&name, reader, &format!("{median:.3}"), &file.len()]);
        }
        let line = format!(
            "field orc read: {name}: parquet-kit {:.1} ms, orc-rust {:.1} ms ({:.2}x)",
            medians[0],
            medians[1],
            medians[1] / medians[0]
        );
        eprintln!("{line}");
        bench.notes.push(line);
    }
}

/// parquet-arrow's ORC reader: `file` into [`BATCH`]-row batches.
fn read_orc_ours(file: &Bytes, f: &mut dyn FnMut(RecordBatch)) {
    let reader = parquet_arrow::OrcRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build()
        .unwrap();
    for batch in reader {
        f(batch.unwrap());
    }
}

/// orc-rust: `file` into [`BATCH`]-row batches of its own Arrow version, handing each
/// batch's row count to `f`.
fn read_orc_rust(file: &Bytes, f: &mut dyn FnMut(usize)) {
    let reader = orc_rust::ArrowReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build();
    for batch in reader {
        let batch = batch.unwrap();
        f(black_box(&batch).num_rows());
    }
}

/// Checks orc-rust's read of `file` against the reference, through Arrow IPC (its
/// batches are of another Arrow version): written as an IPC stream by its arrow, read
/// back by ours.
fn check_orc_rust(name: &str, file: &Bytes, table: &Table) {
    let reader = orc_rust::ArrowReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build();
    let schema = arrow_array_orc::RecordBatchReader::schema(&reader);
    let mut stream = Vec::new();
    {
        let mut writer =
            arrow_ipc_orc::writer::StreamWriter::try_new(&mut stream, &schema).unwrap();
        for batch in reader {
            writer.write(&batch.unwrap()).unwrap();
        }
        writer.finish().unwrap();
    }
    let batches: Vec<RecordBatch> =
        arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(stream), None)
            .unwrap()
            .map(Result::unwrap)
            .collect();
    same_as_reference(&format!("{name}, orc-rust"), &batches, table);
}
