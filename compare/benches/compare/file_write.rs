//! Whole-file writes: the 10-million-row table of the whole-file reads (`file_read.rs`: the
//! same five required columns and values) written into memory, parquet-kit's
//! `FileWriter::write_batches` against arrow-rs's low-level `SerializedFileWriter` (typed
//! `ColumnWriter::write_batch`; `file write 10M: ...`) and against its arrow writer,
//! `ArrowWriter::write` of `RecordBatch`es (`file write 10M (vs ArrowWriter): ...`), the
//! path most arrow-rs users take.
//!
//! Every encoding scheme of the reads (`PLAIN`, `dictionary`, `DELTA`, `BYTE_STREAM_SPLIT`;
//! see `file_read.rs`) with the codecs UNCOMPRESSED, SNAPPY, ZSTD (level 1, arrow-rs's
//! default; parquet-kit's own default is 3) and LZ4_RAW, and the default scheme,
//! `dictionary`, with GZIP too (level 6, both defaults): a GZIP write spends nearly all
//! its time in the same DEFLATE code on both sides (9 s per 10M-row file), and three
//! more schemes of it would add 20 minutes to the run for rows near 1.0.
//!
//! Both sides are given the same settings, spelled out on both even where they are the
//! default: data pages of 1 MiB and at most 20,000 rows, version 1 data pages, a 1 MiB
//! dictionary page limit (falling back to PLAIN), row groups of 1 Mi rows (parquet-kit's
//! 128 MiB row group limit lifted, as arrow-rs has none), statistics per page with bounds
//! truncated to 64 bytes, a column and offset index, size statistics, no Bloom filters.
//! (arrow-rs checks its row limit after each mini-batch of 1,024 values, so its pages
//! hold 20,480 rows where parquet-kit's hold 20,000: its files have 2% fewer pages.)
//! Two defaults differ and are aligned: arrow-rs writes no statistics into data page
//! headers unless asked (`set_write_page_header_statistics(true)` here, as parquet-kit
//! writes them with page statistics), and arrow-rs writes no page CRCs, so parquet-kit's
//! are off (`with_crc(false)`) in these rows. The rows `file write 10M (ours with page
//! CRCs): ..., UNCOMPRESSED` measure parquet-kit with its default CRCs on against the
//! same `SerializedFileWriter`: UNCOMPRESSED has the largest pages, so the most to check.
//!
//! The input is prepared before timing, in batches of 64 Ki rows: for parquet-kit one
//! `ColumnBatch` per column (numbers in a `Vec`, strings as a `ByteArrayBatch`, offsets
//! and one data buffer); for arrow-rs's column writers, the numbers as slices of the
//! generated `Vec`s and the strings as `Vec<ByteArray>` (each a slice of a shared
//! `Bytes`); for its arrow writer, `RecordBatch`es of `Int64Array`, `Float64Array` and
//! `StringArray`. Each writer writes into a `Vec<u8>` of its own, cleared and reused
//! across runs (so no run pays for fresh pages of memory), and the timed closure includes
//! creating the writer and finishing the file (footer and page indexes).
//!
//! Before timing, each file is read back by parquet-kit's reader and both arrow-rs
//! readers and checked against the generated values (the checksums of `file_read.rs`);
//! the value encodings of each column must be the same in every writer's file, and the
//! data pages per column are printed. Each file's size is printed, and a table of sizes
//! follows the results. A row's values are rows x 5
//! columns; its bytes (the GB/s column) are those of the input as the reads count their
//! output: 8 per number, 4 per string (an offset) and the string bytes. Rounds as the
//! reads: `COMPARE_FILE_ROUNDS` (default `COMPARE_ROUNDS`, at most 5); a sample is one
//! whole write. `COMPARE_FILE_ROWS` scales the table down.

use crate::Bench;
use crate::file_read::{
    BATCH, COLUMNS, Data, ROW_GROUP, Scheme, check, encodings, file_rows, rounds_for_files,
};
use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, GzipLevel, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DataType, DoubleType, Int64Type};
use parquet::file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::{ColumnPath, Type};
use parquet_file::{
    ByteArrayBatch, Codec, ColumnBatch, ColumnOptions, ColumnValues, FileWriter, PageVersion,
    Schema, StatisticsLevel, WriterOptions,
};
use std::collections::BTreeSet;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// The schema of the file, as both sides parse it.
const SCHEMA: &str = "message file_write {
    required int64 sorted;
    required int64 random;
    required double double;
    required binary low_card (UTF8);
    required binary high_card (UTF8);
}";

/// Data page limits, the dictionary page limit and the truncation of bounds.
const PAGE_BYTES: usize = 1 << 20;
const PAGE_ROWS: usize = 20_000;
const DICTIONARY_PAGE_BYTES: usize = 1 << 20;
const TRUNCATE: usize = 64;

/// A codec as both sides name it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Codecs {
    pub(crate) name: &'static str,
    pub(crate) ours: parquet_compress::Compression,
    pub(crate) theirs: Compression,
}

pub(crate) fn codecs() -> [Codecs; 5] {
    let ours = |codec: Codec, level: Option<i32>| match level {
        Some(level) => parquet_compress::Compression::with_level(codec, level).unwrap(),
        None => parquet_compress::Compression::new(codec),
    };
    [
        Codecs {
            name: "UNCOMPRESSED",
            ours: ours(Codec::Uncompressed, None),
            theirs: Compression::UNCOMPRESSED,
        },
        Codecs {
            name: "SNAPPY",
            ours: ours(Codec::Snappy, None),
            theirs: Compression::SNAPPY,
        },
        Codecs {
            name: "ZSTD",
            ours: ours(Codec::Zstd, Some(1)),
            theirs: Compression::ZSTD(ZstdLevel::try_new(1).unwrap()),
        },
        Codecs {
            name: "LZ4_RAW",
            ours: ours(Codec::Lz4Raw, None),
            theirs: Compression::LZ4_RAW,
        },
        Codecs {
            name: "GZIP",
            ours: ours(Codec::Gzip, Some(6)),
            theirs: Compression::GZIP(GzipLevel::try_new(6).unwrap()),
        },
    ]
}

/// parquet-kit's encoding of the same name.
fn ours_encoding(encoding: Encoding) -> parquet_file::Encoding {
    match encoding {
        Encoding::PLAIN => parquet_file::Encoding::Plain,
        Encoding::DELTA_BINARY_PACKED => parquet_file::Encoding::DeltaBinaryPacked,
        Encoding::DELTA_LENGTH_BYTE_ARRAY => parquet_file::Encoding::DeltaLengthByteArray,
        Encoding::DELTA_BYTE_ARRAY => parquet_file::Encoding::DeltaByteArray,
        Encoding::BYTE_STREAM_SPLIT => parquet_file::Encoding::ByteStreamSplit,
        other => panic!("no such scheme encoding {other}"),
    }
}

/// parquet-kit's options for `scheme` and `codec`, page CRCs on or off.
pub(crate) fn ours_options(
    scheme: Scheme,
    codec: parquet_compress::Compression,
    crc: bool,
) -> WriterOptions {
    let mut options = WriterOptions::new()
        .with_compression(codec)
        .with_dictionary(scheme == Scheme::Dictionary)
        .with_dictionary_page_bytes(DICTIONARY_PAGE_BYTES)
        .with_page_version(PageVersion::V1)
        .with_page_bytes(PAGE_BYTES)
        .with_page_rows(PAGE_ROWS)
        .with_row_group_rows(ROW_GROUP)
        .with_row_group_bytes(usize::MAX)
        .with_statistics(StatisticsLevel::Page)
        .with_truncate_length(Some(TRUNCATE))
        .with_size_statistics(true)
        .with_page_index(true)
        .with_bloom_filter(None)
        .with_crc(crc);
    for (column, encoding) in COLUMNS.iter().zip(scheme.encodings().into_iter().flatten()) {
        options = options.with_column(
            *column,
            ColumnOptions {
                encoding: Some(ours_encoding(encoding)),
                ..ColumnOptions::default()
            },
        );
    }
    options
}

/// arrow-rs's properties for `scheme` and `codec`.
pub(crate) fn theirs_properties(scheme: Scheme, codec: Compression) -> WriterProperties {
    let mut properties = WriterProperties::builder()
        .set_compression(codec)
        .set_dictionary_enabled(scheme == Scheme::Dictionary)
        .set_dictionary_page_size_limit(DICTIONARY_PAGE_BYTES)
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_data_page_size_limit(PAGE_BYTES)
        .set_data_page_row_count_limit(PAGE_ROWS)
        .set_max_row_group_row_count(Some(ROW_GROUP))
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_write_page_header_statistics(true)
        .set_statistics_truncate_length(Some(TRUNCATE))
        .set_column_index_truncate_length(Some(TRUNCATE))
        .set_offset_index_disabled(false)
        .set_bloom_filter_enabled(false);
    for (column, encoding) in COLUMNS.iter().zip(scheme.encodings().into_iter().flatten()) {
        properties = properties.set_column_encoding(ColumnPath::from(*column), encoding);
    }
    properties.build()
}

/// parquet-kit's input: per 64 Ki-row batch, one `ColumnBatch` per column.
fn ours_batches(data: &Data, schema: &Schema) -> Vec<Vec<ColumnBatch>> {
    let columns = schema.columns();
    (0..data.rows)
        .step_by(BATCH)
        .map(|start| {
            let end = (start + BATCH).min(data.rows);
            let mut low_card = ByteArrayBatch::new();
            for &i in &data.low_card[start..end] {
                low_card.push(data.words[i as usize].data()).unwrap();
            }
            let mut high_card = ByteArrayBatch::new();
            for w in data.high_card_offsets[start..=end].windows(2) {
                high_card.push(&data.high_card[w[0]..w[1]]).unwrap();
            }
            [
                ColumnValues::Int64(data.sorted[start..end].to_vec()),
                ColumnValues::Int64(data.random[start..end].to_vec()),
                ColumnValues::Double(data.double[start..end].to_vec()),
                ColumnValues::ByteArray(low_card),
                ColumnValues::ByteArray(high_card),
            ]
            .into_iter()
            .zip(columns)
            .map(|(values, column)| {
                ColumnBatch::try_new(column, values, Vec::new(), Vec::new()).unwrap()
            })
            .collect()
        })
        .collect()
}

/// The string columns as arrow-rs's column writers take them.
struct ArrowStrings {
    low_card: Vec<ByteArray>,
    high_card: Vec<ByteArray>,
}

impl ArrowStrings {
    fn new(data: &Data) -> Self {
        Self {
            low_card: data
                .low_card
                .iter()
                .map(|&i| data.words[i as usize].clone())
                .collect(),
            high_card: data
                .high_card_offsets
                .windows(2)
                .map(|w| ByteArray::from(data.high_card.slice(w[0]..w[1])))
                .collect(),
        }
    }
}

/// arrow-rs's arrow writer's input: 64 Ki-row `RecordBatch`es.
pub(crate) fn record_batches(data: &Data) -> Vec<RecordBatch> {
    fn text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).unwrap()
    }
    (0..data.rows)
        .step_by(BATCH)
        .map(|start| {
            let end = (start + BATCH).min(data.rows);
            let low_card = StringArray::from_iter_values(
                data.low_card[start..end]
                    .iter()
                    .map(|&i| text(data.words[i as usize].data())),
            );
            let high_card = StringArray::from_iter_values(
                data.high_card_offsets[start..=end]
                    .windows(2)
                    .map(|w| text(&data.high_card[w[0]..w[1]])),
            );
            let columns: [ArrayRef; 5] = [
                Arc::new(Int64Array::from(data.sorted[start..end].to_vec())),
                Arc::new(Int64Array::from(data.random[start..end].to_vec())),
                Arc::new(Float64Array::from(data.double[start..end].to_vec())),
                Arc::new(low_card),
                Arc::new(high_card),
            ];
            // No nulls: every field is non-nullable, so every column is required.
            RecordBatch::try_from_iter(COLUMNS.into_iter().zip(columns)).unwrap()
        })
        .collect()
}

/// parquet-kit: writes the whole file into `out`.
fn write_ours(
    out: &mut Vec<u8>,
    schema: &Arc<Schema>,
    options: &WriterOptions,
    batches: &[Vec<ColumnBatch>],
) {
    out.clear();
    let mut writer = FileWriter::new(&mut *out, Arc::clone(schema), options.clone()).unwrap();
    for batch in batches {
        writer.write_batches(batch).unwrap();
    }
    black_box(writer.finish().unwrap());
}

/// arrow-rs's column writers: write the whole file into `out`, a row group at a time,
/// each column's chunk [`BATCH`] values per `write_batch`.
fn write_columns(
    out: &mut Vec<u8>,
    schema: &Arc<Type>,
    properties: &Arc<WriterProperties>,
    data: &Data,
    strings: &ArrowStrings,
) {
    fn column<T: DataType>(
        group: &mut SerializedRowGroupWriter<'_, &mut Vec<u8>>,
        values: &[T::T],
    ) {
        let mut column = group.next_column().unwrap().unwrap();
        let writer = column.typed::<T>();
        for chunk in values.chunks(BATCH) {
            writer.write_batch(chunk, None, None).unwrap();
        }
        column.close().unwrap();
    }
    out.clear();
    let mut writer =
        SerializedFileWriter::new(&mut *out, Arc::clone(schema), Arc::clone(properties)).unwrap();
    for start in (0..data.rows).step_by(ROW_GROUP) {
        let end = (start + ROW_GROUP).min(data.rows);
        let mut group = writer.next_row_group().unwrap();
        column::<Int64Type>(&mut group, &data.sorted[start..end]);
        column::<Int64Type>(&mut group, &data.random[start..end]);
        column::<DoubleType>(&mut group, &data.double[start..end]);
        column::<ByteArrayType>(&mut group, &strings.low_card[start..end]);
        column::<ByteArrayType>(&mut group, &strings.high_card[start..end]);
        assert!(group.next_column().unwrap().is_none());
        group.close().unwrap();
    }
    black_box(writer.close().unwrap());
}

/// arrow-rs's arrow writer: writes the whole file into `out`.
fn write_record_batches(out: &mut Vec<u8>, properties: &WriterProperties, batches: &[RecordBatch]) {
    out.clear();
    let mut writer =
        ArrowWriter::try_new(&mut *out, batches[0].schema(), Some(properties.clone())).unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    black_box(writer.close().unwrap());
}

/// Per column, the value encodings of the file's chunks (levels aside), over all row
/// groups, and its number of data pages.
fn layout(file: &[u8]) -> Vec<(BTreeSet<String>, usize)> {
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Required)
        .parse_and_finish(&Bytes::copy_from_slice(file))
        .unwrap();
    (0..COLUMNS.len())
        .map(|c| {
            let mut encodings = BTreeSet::new();
            let mut pages = 0;
            for (g, group) in metadata.row_groups().iter().enumerate() {
                encodings.extend(
                    group
                        .column(c)
                        .encodings()
                        .filter(|e| *e != Encoding::RLE)
                        .map(|e| e.to_string()),
                );
                pages += metadata
                    .page_index_for_row_group(g)
                    .page_locations(c)
                    .unwrap()
                    .len();
            }
            (encodings, pages)
        })
        .collect()
}

/// The inputs of every writer, made when a row first needs them.
#[derive(Default)]
struct Inputs {
    data: Option<Data>,
    ours: Option<Vec<Vec<ColumnBatch>>>,
    strings: Option<ArrowStrings>,
    batches: Option<Vec<RecordBatch>>,
}

pub fn run(bench: &mut Bench) {
    let (rows, label) = file_rows();
    let ours_schema = Arc::new(Schema::parse(SCHEMA).unwrap());
    let theirs_schema = Arc::new(parse_message_type(SCHEMA).unwrap());
    let mut inputs = Inputs::default();
    let mut sizes = Vec::new();
    for scheme in Scheme::ALL {
        for codec in codecs() {
            let what = format!("{}, {}", scheme.name(), codec.name);
            let columns = format!("file write {label}: {what}");
            let arrow = format!("file write {label} (vs ArrowWriter): {what}");
            let crc = format!("file write {label} (ours with page CRCs): {what}");
            if codec.name == "GZIP" && scheme != Scheme::Dictionary {
                continue;
            }
            let crc_wanted = codec.name == "UNCOMPRESSED" && bench.wanted(&crc);
            if !bench.wanted(&columns) && !bench.wanted(&arrow) && !crc_wanted {
                continue;
            }
            let data = inputs.data.get_or_insert_with(|| Data::generate(rows));
            let ours_input = inputs
                .ours
                .get_or_insert_with(|| ours_batches(data, &ours_schema));
            let strings = inputs
                .strings
                .get_or_insert_with(|| ArrowStrings::new(data));
            let options = ours_options(scheme, codec.ours, false);
            let properties = theirs_properties(scheme, codec.theirs);
            let properties_arc = Arc::new(properties.clone());

            let mut ours_out = Vec::new();
            let mut columns_out = Vec::new();
            let mut arrow_out = Vec::new();
            let timed = |f: &mut dyn FnMut()| {
                let start = Instant::now();
                f();
                start.elapsed().as_secs_f64()
            };
            let t_ours = timed(&mut || {
                write_ours(&mut ours_out, &ours_schema, &options, ours_input);
            });
            let t_columns = timed(&mut || {
                write_columns(
                    &mut columns_out,
                    &theirs_schema,
                    &properties_arc,
                    data,
                    strings,
                );
            });
            let mut row_sizes = vec![
                ("parquet-kit", ours_out.len(), t_ours),
                ("SerializedFileWriter", columns_out.len(), t_columns),
            ];
            let batches = if bench.wanted(&arrow) {
                let batches = inputs.batches.get_or_insert_with(|| record_batches(data));
                let t_arrow = timed(&mut || {
                    write_record_batches(&mut arrow_out, &properties, batches);
                });
                row_sizes.push(("ArrowWriter", arrow_out.len(), t_arrow));
                Some(&*batches)
            } else {
                None
            };
            for (writer, size, seconds) in &row_sizes {
                eprintln!(
                    "{what}: {writer} {:.1} MB, {:.2} bytes/row, first write {seconds:.1} s",
                    *size as f64 / 1e6,
                    *size as f64 / rows as f64,
                );
            }
            // Every file reads back to what was written, in the same layout.
            let ours_file = Bytes::from(std::mem::take(&mut ours_out));
            check(&ours_file, data);
            let columns_file = Bytes::from(std::mem::take(&mut columns_out));
            check(&columns_file, data);
            eprintln!("{what}: parquet-kit {}", encodings(&ours_file));
            eprintln!("{what}: arrow-rs     {}", encodings(&columns_file));
            let ours_layout = layout(&ours_file);
            let columns_layout = layout(&columns_file);
            eprintln!(
                "{what}: data pages per column, parquet-kit {:?}, arrow-rs {:?}",
                ours_layout.iter().map(|l| l.1).collect::<Vec<_>>(),
                columns_layout.iter().map(|l| l.1).collect::<Vec<_>>(),
            );
            assert_eq!(
                ours_layout.iter().map(|l| &l.0).collect::<Vec<_>>(),
                columns_layout.iter().map(|l| &l.0).collect::<Vec<_>>(),
                "{what}: the encodings of parquet-kit's and arrow-rs's files"
            );
            if batches.is_some() {
                let arrow_file = Bytes::from(std::mem::take(&mut arrow_out));
                check(&arrow_file, data);
                assert_eq!(
                    layout(&arrow_file).iter().map(|l| &l.0).collect::<Vec<_>>(),
                    columns_layout.iter().map(|l| &l.0).collect::<Vec<_>>(),
                    "{what}: the encodings of arrow-rs's two writers' files"
                );
            }
            drop((ours_file, columns_file));
            sizes.push(format!(
                "| {what} | {} | {:.4} |",
                row_sizes
                    .iter()
                    .map(|(_, size, _)| format!("{:.2}", *size as f64 / 1e6))
                    .chain((row_sizes.len() < 3).then(|| "-".to_owned()))
                    .collect::<Vec<_>>()
                    .join(" | "),
                row_sizes[0].1 as f64 / row_sizes[1].1 as f64,
            ));

            let rounds = bench.settings.rounds;
            bench.settings.rounds = rounds_for_files(rounds);
            let values = data.rows * COLUMNS.len();
            let bytes = data.output_bytes();
            bench.run(
                &columns,
                values,
                bytes,
                &mut || write_ours(&mut ours_out, &ours_schema, &options, ours_input),
                &mut || {
                    write_columns(
                        &mut columns_out,
                        &theirs_schema,
                        &properties_arc,
                        data,
                        strings,
                    );
                },
            );
            if let Some(batches) = batches {
                bench.run(
                    &arrow,
                    values,
                    bytes,
                    &mut || write_ours(&mut ours_out, &ours_schema, &options, ours_input),
                    &mut || write_record_batches(&mut arrow_out, &properties, batches),
                );
            }
            if crc_wanted {
                let with_crc = ours_options(scheme, codec.ours, true);
                write_ours(&mut ours_out, &ours_schema, &with_crc, ours_input);
                let file = Bytes::from(std::mem::take(&mut ours_out));
                eprintln!(
                    "{what}: parquet-kit with page CRCs {:.1} MB",
                    file.len() as f64 / 1e6
                );
                check(&file, data);
                drop(file);
                bench.run(
                    &crc,
                    values,
                    bytes,
                    &mut || write_ours(&mut ours_out, &ours_schema, &with_crc, ours_input),
                    &mut || {
                        write_columns(
                            &mut columns_out,
                            &theirs_schema,
                            &properties_arc,
                            data,
                            strings,
                        );
                    },
                );
            }
            bench.settings.rounds = rounds;
        }
    }
    if !sizes.is_empty() {
        bench.notes.push(format!(
            "File sizes, MB ({label} rows):\n\n\
             | file | parquet-kit | arrow-rs SerializedFileWriter | arrow-rs ArrowWriter | \
             parquet-kit / SerializedFileWriter |\n\
             |---|---:|---:|---:|---:|\n{}",
            sizes.join("\n")
        ));
    }
}
