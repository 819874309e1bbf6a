//! Whole-file reads: every column of every row group of a 10-million-row file decoded
//! into column batches, parquet-kit's `FileReader` + `ColumnChunkReader::read_records`
//! against arrow-rs's low-level `SerializedFileReader` + typed `ColumnReader::read_records`
//! (`file read 10M: ...`), and against arrow-rs's arrow reader,
//! `ParquetRecordBatchReaderBuilder` into 64 Ki-row `RecordBatch`es
//! (`file read 10M (vs arrow RecordBatch): ...`), the path most arrow-rs users take.
//!
//! The file has five required columns:
//!
//! - `sorted`: INT64, `1.7e12 + 3 i + jitter` with jitter in 0..3, so ascending;
//! - `random`: INT64, uniform over all 64 bits;
//! - `double`: DOUBLE, prices of 0.00 to 999.99 rounded to cents (100,000 distinct
//!   values, so a row group's dictionary of 800 KB fits arrow-rs's 1 MiB dictionary page
//!   limit, and BYTE_STREAM_SPLIT sees real doubles with some redundancy);
//! - `low_card`: BYTE_ARRAY (UTF8), 100 distinct lowercase words of 5 to 15 bytes;
//! - `high_card`: BYTE_ARRAY (UTF8), `user-` and 5 to 25 random hex digits: mostly unique.
//!
//! Each encoding scheme is written with every codec (UNCOMPRESSED, SNAPPY, ZSTD at
//! arrow-rs's default level 1) by arrow-rs's own low-level writer
//! (`SerializedFileWriter`, data page v1, its default page limits of 1 MiB and 20,000
//! rows, row groups of 1 Mi rows):
//!
//! - `PLAIN`: every column PLAIN.
//! - `dictionary`: dictionary enabled for every column, as arrow-rs writes it: RLE_DICTIONARY
//!   until a chunk's dictionary passes 1 MiB, then PLAIN. So `low_card` and `double` are
//!   dictionary-encoded throughout, `sorted` and `random` only for about their first
//!   128 Ki values of each row group, `high_card` for about its first 40 Ki.
//! - `DELTA`: DELTA_BINARY_PACKED for the INT64 columns; BYTE_STREAM_SPLIT for `double`
//!   (DOUBLE has no delta encoding); DELTA_LENGTH_BYTE_ARRAY for `low_card` and
//!   DELTA_BYTE_ARRAY (prefix-compressed) for `high_card`.
//! - `BYTE_STREAM_SPLIT`: BYTE_STREAM_SPLIT for the INT64 and DOUBLE columns; PLAIN for
//!   the strings, which cannot be BYTE_STREAM_SPLIT.
//!
//! Each file is generated in memory (a `Bytes`), measured and dropped before the next.
//! Both sides open the file (parse its footer) inside the timed closure, and each reuses
//! its buffers (one `ColumnBatch` per column for parquet-kit; one `Vec` per physical type
//! for arrow-rs's column readers; both read 64 Ki records at a time) across runs, clearing
//! them after each batch. arrow-rs's arrow reader allocates its arrays anew, and
//! validates the strings as UTF-8 (with `simdutf8`, its default), which the column batches
//! of neither low-level reader do. parquet-kit verifies page CRCs when a page carries one;
//! arrow-rs 60.1 writes none.
//!
//! A row's values are rows x 5 columns; its output bytes are 8 per INT64 or DOUBLE value,
//! 4 per string (an offset) and the string bytes. Before timing, each reader's values are
//! checked against what was written: per column the count, a wrapping sum, the string
//! bytes and an order-dependent hash.
//!
//! A run takes 0.1 to 1 s, so each sample is one run, and these rows measure
//! `COMPARE_FILE_ROUNDS` rounds (default: `COMPARE_ROUNDS`, at most 5), which keeps
//! `cargo bench --bench compare -- "file read"` near ten minutes on two cores.
//! `COMPARE_FILE_ROWS` (default 10,000,000) scales the file down for quick runs.

use crate::Bench;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type as ArrowF64, Int64Type as ArrowI64};
use arrow_array::{Array, RecordBatch};
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::reader::ColumnReader;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader as _;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use parquet_file::{ColumnBatch, ColumnValues, FileReader};
use parquet_kit_compare::Rng;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// The columns, in schema order.
pub(crate) const COLUMNS: [&str; 5] = ["sorted", "random", "double", "low_card", "high_card"];

/// Rows per row group: arrow-rs's default maximum.
pub(crate) const ROW_GROUP: usize = 1024 * 1024;

/// Records per `read_records` call of arrow-rs's column readers, and rows per
/// `RecordBatch` of its arrow reader.
pub(crate) const BATCH: usize = 64 * 1024;

/// How each column is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scheme {
    Plain,
    Dictionary,
    Delta,
    ByteStreamSplit,
}

impl Scheme {
    pub(crate) const ALL: [Self; 4] = [
        Self::Plain,
        Self::Dictionary,
        Self::Delta,
        Self::ByteStreamSplit,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Plain => "PLAIN",
            Self::Dictionary => "dictionary",
            Self::Delta => "DELTA",
            Self::ByteStreamSplit => "BYTE_STREAM_SPLIT",
        }
    }

    /// The encoding of each column, or `None` for dictionary encoding.
    pub(crate) fn encodings(self) -> Option<[Encoding; 5]> {
        match self {
            Self::Plain => Some([Encoding::PLAIN; 5]),
            Self::Dictionary => None,
            Self::Delta => Some([
                Encoding::DELTA_BINARY_PACKED,
                Encoding::DELTA_BINARY_PACKED,
                Encoding::BYTE_STREAM_SPLIT,
                Encoding::DELTA_LENGTH_BYTE_ARRAY,
                Encoding::DELTA_BYTE_ARRAY,
            ]),
            Self::ByteStreamSplit => Some([
                Encoding::BYTE_STREAM_SPLIT,
                Encoding::BYTE_STREAM_SPLIT,
                Encoding::BYTE_STREAM_SPLIT,
                Encoding::PLAIN,
                Encoding::PLAIN,
            ]),
        }
    }
}

/// The codecs, with their names: ZSTD at arrow-rs's default level, 1.
pub(crate) fn codecs() -> [(&'static str, Compression); 3] {
    [
        ("UNCOMPRESSED", Compression::UNCOMPRESSED),
        ("SNAPPY", Compression::SNAPPY),
        ("ZSTD", Compression::ZSTD(ZstdLevel::default())),
    ]
}

/// Rows of the file (`COMPARE_FILE_ROWS`, default 10,000,000), and how row names say it.
pub(crate) fn file_rows() -> (usize, String) {
    let rows = std::env::var("COMPARE_FILE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000_usize)
        .max(1);
    let label = match rows {
        r if r % 1_000_000 == 0 => format!("{}M", r / 1_000_000),
        r if r % 1_000 == 0 => format!("{}k", r / 1_000),
        r => r.to_string(),
    };
    (rows, label)
}

pub fn run(bench: &mut Bench) {
    let (rows, label) = file_rows();
    let mut data = None;
    for scheme in Scheme::ALL {
        for (codec_name, codec) in codecs() {
            let columns = format!("file read {label}: {}, {codec_name}", scheme.name());
            let batches = format!(
                "file read {label} (vs arrow RecordBatch): {}, {codec_name}",
                scheme.name()
            );
            if !bench.wanted(&columns) && !bench.wanted(&batches) {
                continue;
            }
            let data = data.get_or_insert_with(|| Data::generate(rows));
            let start = Instant::now();
            let file = write_file(data, scheme, codec);
            eprintln!(
                "{}, {codec_name}: {:.1} MB, {:.2} bytes/row, written in {:.1} s; {}",
                scheme.name(),
                file.len() as f64 / 1e6,
                file.len() as f64 / rows as f64,
                start.elapsed().as_secs_f64(),
                encodings(&file),
            );
            check(&file, data);
            if bench.wanted(&columns) {
                against_columns(bench, &columns, &file, data);
            }
            if bench.wanted(&batches) {
                against_record_batches(bench, &batches, &file, data);
            }
        }
    }
}

/// The file's columns, as written.
pub(crate) struct Data {
    pub(crate) rows: usize,
    pub(crate) sorted: Vec<i64>,
    pub(crate) random: Vec<i64>,
    pub(crate) double: Vec<f64>,
    /// The 100 distinct values of `low_card`.
    pub(crate) words: Vec<ByteArray>,
    /// `low_card`, as indices into `words`.
    pub(crate) low_card: Vec<u8>,
    /// `high_card`: `high_card_offsets[i]..high_card_offsets[i + 1]` of `high_card`.
    pub(crate) high_card: Bytes,
    pub(crate) high_card_offsets: Vec<usize>,
}

impl Data {
    pub(crate) fn generate(rows: usize) -> Self {
        let mut rng = Rng::new(0xF11E_F11E);
        let sorted = (0..rows as i64)
            .map(|i| 1_700_000_000_000 + 3 * i + rng.below(3) as i64)
            .collect();
        let random = (0..rows).map(|_| rng.next_u64() as i64).collect();
        let double = (0..rows)
            .map(|_| rng.below(100_000) as f64 / 100.0)
            .collect();
        let words = (0..100)
            .map(|_| {
                let len = 5 + rng.below(11) as usize;
                let word: Vec<u8> = (0..len).map(|_| b'a' + rng.below(26) as u8).collect();
                ByteArray::from(word)
            })
            .collect();
        let low_card = (0..rows).map(|_| rng.below(100) as u8).collect();
        let mut high_card = Vec::with_capacity(rows * 20);
        let mut high_card_offsets = Vec::with_capacity(rows + 1);
        high_card_offsets.push(0);
        for _ in 0..rows {
            high_card.extend_from_slice(b"user-");
            for _ in 0..5 + rng.below(21) {
                high_card.push(b"0123456789abcdef"[rng.below(16) as usize]);
            }
            high_card_offsets.push(high_card.len());
        }
        Self {
            rows,
            sorted,
            random,
            double,
            words,
            low_card,
            high_card: Bytes::from(high_card),
            high_card_offsets,
        }
    }

    /// The checksums of the columns.
    pub(crate) fn checksums(&self) -> [Checksum; 5] {
        let mut sums = [Checksum::default(); 5];
        self.sorted.iter().for_each(|&v| sums[0].int(v as u64));
        self.random.iter().for_each(|&v| sums[1].int(v as u64));
        self.double.iter().for_each(|&v| sums[2].int(v.to_bits()));
        for &i in &self.low_card {
            sums[3].bytes(self.words[i as usize].data());
        }
        for w in self.high_card_offsets.windows(2) {
            sums[4].bytes(&self.high_card[w[0]..w[1]]);
        }
        sums
    }

    /// Bytes of decoded output: 8 per number, 4 (an offset) plus the bytes per string.
    pub(crate) fn output_bytes(&self) -> usize {
        let words: usize = self
            .low_card
            .iter()
            .map(|&i| self.words[i as usize].len())
            .sum();
        self.rows * (3 * 8 + 2 * 4) + words + self.high_card.len()
    }
}

/// Writes `data` with arrow-rs's low-level writer, in row groups of [`ROW_GROUP`] rows.
pub(crate) fn write_file(data: &Data, scheme: Scheme, codec: Compression) -> Bytes {
    let schema = parse_message_type(
        "message file_read {
            required int64 sorted;
            required int64 random;
            required double double;
            required binary low_card (UTF8);
            required binary high_card (UTF8);
        }",
    )
    .unwrap();
    let mut properties = WriterProperties::builder()
        .set_compression(codec)
        .set_dictionary_enabled(scheme == Scheme::Dictionary);
    for (column, encoding) in COLUMNS.iter().zip(scheme.encodings().into_iter().flatten()) {
        properties = properties.set_column_encoding(ColumnPath::from(*column), encoding);
    }
    let mut writer =
        SerializedFileWriter::new(Vec::new(), Arc::new(schema), Arc::new(properties.build()))
            .unwrap();
    for start in (0..data.rows).step_by(ROW_GROUP) {
        let end = (start + ROW_GROUP).min(data.rows);
        let mut group = writer.next_row_group().unwrap();

        let mut column = group.next_column().unwrap().unwrap();
        let writer = column.typed::<Int64Type>();
        writer
            .write_batch(&data.sorted[start..end], None, None)
            .unwrap();
        column.close().unwrap();

        let mut column = group.next_column().unwrap().unwrap();
        let writer = column.typed::<Int64Type>();
        writer
            .write_batch(&data.random[start..end], None, None)
            .unwrap();
        column.close().unwrap();

        let mut column = group.next_column().unwrap().unwrap();
        let writer = column.typed::<DoubleType>();
        writer
            .write_batch(&data.double[start..end], None, None)
            .unwrap();
        column.close().unwrap();

        let low_card: Vec<ByteArray> = data.low_card[start..end]
            .iter()
            .map(|&i| data.words[i as usize].clone())
            .collect();
        let mut column = group.next_column().unwrap().unwrap();
        let writer = column.typed::<ByteArrayType>();
        writer.write_batch(&low_card, None, None).unwrap();
        column.close().unwrap();

        let high_card: Vec<ByteArray> = data.high_card_offsets[start..=end]
            .windows(2)
            .map(|w| ByteArray::from(data.high_card.slice(w[0]..w[1])))
            .collect();
        let mut column = group.next_column().unwrap().unwrap();
        let writer = column.typed::<ByteArrayType>();
        writer.write_batch(&high_card, None, None).unwrap();
        column.close().unwrap();

        assert!(group.next_column().unwrap().is_none());
        group.close().unwrap();
    }
    Bytes::from(writer.into_inner().unwrap())
}

/// The value encodings of each column chunk of row group 0, as the footer lists them.
pub(crate) fn encodings(file: &Bytes) -> String {
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let group = reader.metadata().row_group(0);
    COLUMNS
        .iter()
        .zip(group.columns())
        .map(|(name, chunk)| {
            let encodings: Vec<String> = chunk
                .encodings()
                .filter(|e| *e != Encoding::RLE)
                .map(|e| e.to_string())
                .collect();
            format!("{name} {}", encodings.join("+"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Per-column count, wrapping sum, string bytes and an order-dependent hash.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checksum {
    count: u64,
    sum: u64,
    bytes: u64,
    hash: u64,
}

impl Checksum {
    fn mix(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x0000_0100_0000_01b3);
    }

    pub(crate) fn int(&mut self, value: u64) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(value);
        self.mix(value);
    }

    pub(crate) fn bytes(&mut self, value: &[u8]) {
        self.count += 1;
        self.bytes += value.len() as u64;
        self.mix(value.len() as u64);
        for chunk in value.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
    }
}

/// Checks that all three readers read back what was written.
pub(crate) fn check(file: &Bytes, data: &Data) {
    let expected = data.checksums();
    let mut sums = [Checksum::default(); 5];
    let reader = FileReader::open(file.clone()).unwrap();
    let mut batches = ours_batches(&reader);
    read_ours(file, &mut batches, Some(&mut sums));
    assert_eq!(sums, expected, "parquet-kit");
    let mut sums = [Checksum::default(); 5];
    read_columns(file, &mut ArrowBuffers::default(), Some(&mut sums));
    assert_eq!(sums, expected, "arrow-rs column readers");
    let mut sums = [Checksum::default(); 5];
    read_record_batches(file, Some(&mut sums));
    assert_eq!(sums, expected, "arrow-rs RecordBatches");
}

/// One empty batch per column of the file `reader` reads.
fn ours_batches(reader: &FileReader<Bytes>) -> Vec<ColumnBatch> {
    reader
        .schema()
        .columns()
        .iter()
        .map(ColumnBatch::new)
        .collect()
}

/// parquet-kit: opens `file` and reads every column chunk [`BATCH`] records at a time
/// into `batches`, clearing each after its batch; adds the values to `sums` when given.
fn read_ours(file: &Bytes, batches: &mut [ColumnBatch], mut sums: Option<&mut [Checksum; 5]>) {
    let reader = FileReader::open(file.clone()).unwrap();
    for group in 0..reader.num_row_groups() {
        for (column, batch) in batches.iter_mut().enumerate() {
            let mut chunk = reader.column_chunk(group, column).unwrap();
            while chunk.read_records(BATCH, batch).unwrap() > 0 {
                if let Some(sums) = sums.as_deref_mut() {
                    let sum = &mut sums[column];
                    match batch.values() {
                        ColumnValues::Int64(v) => v.iter().for_each(|&v| sum.int(v as u64)),
                        ColumnValues::Double(v) => v.iter().for_each(|&v| sum.int(v.to_bits())),
                        ColumnValues::ByteArray(v) => v.iter().for_each(|v| sum.bytes(v)),
                        other => panic!("unexpected values {other:?}"),
                    }
                }
                black_box(batch.values());
                batch.clear();
            }
        }
    }
}

/// The reused value buffers of arrow-rs's column readers.
#[derive(Default)]
struct ArrowBuffers {
    ints: Vec<i64>,
    doubles: Vec<f64>,
    strings: Vec<ByteArray>,
}

/// arrow-rs's column readers: opens `file` and reads every column chunk [`BATCH`]
/// records at a time into `buffers`, clearing them after each batch; adds the values to
/// `sums` when given.
fn read_columns(file: &Bytes, buffers: &mut ArrowBuffers, mut sums: Option<&mut [Checksum; 5]>) {
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    for group in 0..reader.num_row_groups() {
        let group = reader.get_row_group(group).unwrap();
        for column in 0..group.num_columns() {
            let mut sum = sums.as_deref_mut().map(|sums| &mut sums[column]);
            match group.get_column_reader(column).unwrap() {
                ColumnReader::Int64ColumnReader(mut r) => loop {
                    let out = &mut buffers.ints;
                    let (records, _, _) = r.read_records(BATCH, None, None, out).unwrap();
                    if records == 0 {
                        break;
                    }
                    if let Some(sum) = sum.as_deref_mut() {
                        out.iter().for_each(|&v| sum.int(v as u64));
                    }
                    black_box(&out);
                    out.clear();
                },
                ColumnReader::DoubleColumnReader(mut r) => loop {
                    let out = &mut buffers.doubles;
                    let (records, _, _) = r.read_records(BATCH, None, None, out).unwrap();
                    if records == 0 {
                        break;
                    }
                    if let Some(sum) = sum.as_deref_mut() {
                        out.iter().for_each(|&v| sum.int(v.to_bits()));
                    }
                    black_box(&out);
                    out.clear();
                },
                ColumnReader::ByteArrayColumnReader(mut r) => loop {
                    let out = &mut buffers.strings;
                    let (records, _, _) = r.read_records(BATCH, None, None, out).unwrap();
                    if records == 0 {
                        break;
                    }
                    if let Some(sum) = sum.as_deref_mut() {
                        out.iter().for_each(|v| sum.bytes(v.data()));
                    }
                    black_box(&out);
                    out.clear();
                },
                _ => panic!("unexpected column type"),
            }
        }
    }
}

/// arrow-rs's arrow reader: opens `file` and reads it into [`BATCH`]-row
/// `RecordBatch`es; adds the values to `sums` when given.
pub(crate) fn read_record_batches(file: &Bytes, mut sums: Option<&mut [Checksum; 5]>) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build()
        .unwrap();
    for batch in reader {
        let batch: RecordBatch = batch.unwrap();
        if let Some(sums) = sums.as_deref_mut() {
            sum_batch(&batch, sums);
        }
        black_box(batch);
    }
}

/// Adds the values of a `RecordBatch` of the file's columns to `sums`.
pub(crate) fn sum_batch(batch: &RecordBatch, sums: &mut [Checksum; 5]) {
    for (column, (sum, array)) in sums.iter_mut().zip(batch.columns()).enumerate() {
        assert_eq!(array.null_count(), 0);
        match column {
            0 | 1 => array
                .as_primitive::<ArrowI64>()
                .values()
                .iter()
                .for_each(|&v| sum.int(v as u64)),
            2 => array
                .as_primitive::<ArrowF64>()
                .values()
                .iter()
                .for_each(|&v| sum.int(v.to_bits())),
            _ => array
                .as_string::<i32>()
                .iter()
                .for_each(|v| sum.bytes(v.unwrap().as_bytes())),
        }
    }
}

/// Rounds for these rows: `COMPARE_FILE_ROUNDS`, or `default` but at most 5.
pub(crate) fn rounds_for_files(default: usize) -> usize {
    std::env::var("COMPARE_FILE_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default.min(5))
        .max(1)
}

/// Measures a row with [`rounds_for_files`] rounds.
pub(crate) fn run_row(
    bench: &mut Bench,
    name: &str,
    data: &Data,
    ours: &mut dyn FnMut(),
    theirs: &mut dyn FnMut(),
) {
    let settings = bench.settings;
    bench.settings.rounds = rounds_for_files(settings.rounds);
    bench.run(
        name,
        data.rows * COLUMNS.len(),
        data.output_bytes(),
        ours,
        theirs,
    );
    bench.settings = settings;
}

fn against_columns(bench: &mut Bench, name: &str, file: &Bytes, data: &Data) {
    let mut batches = ours_batches(&FileReader::open(file.clone()).unwrap());
    let mut buffers = ArrowBuffers::default();
    run_row(
        bench,
        name,
        data,
        &mut || read_ours(black_box(file), &mut batches, None),
        &mut || read_columns(black_box(file), &mut buffers, None),
    );
}

fn against_record_batches(bench: &mut Bench, name: &str, file: &Bytes, data: &Data) {
    let mut batches = ours_batches(&FileReader::open(file.clone()).unwrap());
    run_row(
        bench,
        name,
        data,
        &mut || read_ours(black_box(file), &mut batches, None),
        &mut || read_record_batches(black_box(file), None),
    );
}
