//! Whole-file writes of Arrow `RecordBatch`es: parquet-arrow's `ArrowWriter` against
//! arrow-rs's `ArrowWriter`, writing the same batches into memory
//! (`arrow write {rows}: {scheme}, {codec}`).
//!
//! - The flat schemes (`PLAIN`, `dictionary`, `DELTA`, `BYTE_STREAM_SPLIT`): the
//!   10-million-row table of `file_read.rs` as the `RecordBatch`es of the
//!   `file write ... (vs ArrowWriter)` rows (64 Ki rows, `Int64Array`, `Float64Array`,
//!   `StringArray`), each column encoded as the scheme says.
//! - `nested`: the nested table of [`nested`](crate::nested) (lists with null and empty
//!   lists and null elements, a nullable struct, a list of structs), dictionary on for
//!   every column (both writers' default).
//!
//! The codecs are those of the reads: UNCOMPRESSED, SNAPPY, ZSTD (level 1). Both sides get
//! the settings of the `file write` rows (see `file_write.rs`), spelled out on both:
//! data pages of 1 MiB and at most 20,000 rows, version 1 data pages, a 1 MiB dictionary
//! page limit, row groups of 1 Mi rows, statistics per page (in data page headers too)
//! truncated to 64 bytes, a column and offset index, size statistics, no Bloom filters,
//! no page CRCs. Both store the Arrow schema (`ARROW:schema`).
//!
//! The batches are made once, before timing. Each writer writes into a `Vec<u8>` of its
//! own, cleared and reused across runs; the timed closure includes creating the writer
//! and finishing the file. Before timing, both files are read back by arrow-rs's arrow
//! reader and must give the batches written, column by column, but for the names of list
//! elements (parquet-arrow names them `element` in the Parquet schema, as the format and
//! pyarrow do, and arrow-rs's reader takes that name over the stored Arrow schema's). The
//! value encodings of each column over all row groups are printed; they must be the same
//! in both files for the flat schemes, and a warning says so when they differ for
//! `nested`. Values and bytes as the reads count them (see `arrow_read.rs`).
//! Rounds as the reads: `COMPARE_FILE_ROUNDS`.

use crate::Bench;
use crate::arrow_read::{read_theirs, same_batches};
use crate::file_read::{Data, Scheme, file_rows, rounds_for_files};
use crate::file_write::{codecs, ours_options, record_batches, theirs_properties};
use crate::nested::Nested;
use arrow_array::{Array, RecordBatch, make_array};
use arrow_data::ArrayData;
use arrow_schema::DataType;
use bytes::Bytes;
use parquet::basic::Encoding;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader as _;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet_file::WriterOptions;
use std::collections::BTreeSet;
use std::hint::black_box;
use std::sync::Arc;

/// The input of the rows of one scheme.
struct Input {
    batches: Vec<RecordBatch>,
    values: usize,
    bytes: usize,
}

pub fn run(bench: &mut Bench) {
    let (rows, label) = file_rows();
    let mut data = None;
    let mut flat = None;
    let mut nested = None;
    // `None`: the nested table.
    let schemes = Scheme::ALL.map(Some).into_iter().chain([None]);
    for scheme in schemes {
        if scheme.is_none() {
            // The flat inputs are done with.
            (data, flat) = (None, None);
        }
        let codecs = codecs()
            .into_iter()
            .filter(|c| matches!(c.name, "UNCOMPRESSED" | "SNAPPY" | "ZSTD"));
        for codec in codecs {
            let what = format!("{}, {}", scheme.map_or("nested", Scheme::name), codec.name);
            let name = format!("arrow write {label}: {what}");
            if !bench.wanted(&name) {
                continue;
            }
            let input: &Input = match scheme {
                Some(_) => flat.get_or_insert_with(|| {
                    let data = data.get_or_insert_with(|| Data::generate(rows));
                    Input {
                        batches: record_batches(data),
                        values: rows * 5,
                        bytes: data.output_bytes(),
                    }
                }),
                None => nested.get_or_insert_with(|| {
                    let nested = Nested::generate(rows);
                    Input {
                        values: nested.values,
                        bytes: nested.bytes,
                        batches: nested.batches,
                    }
                }),
            };
            // The nested table: dictionary on, no encodings named.
            let scheme_or_default = scheme.unwrap_or(Scheme::Dictionary);
            let options = ours_options(scheme_or_default, codec.ours, false);
            let properties = theirs_properties(scheme_or_default, codec.theirs);

            let mut ours_out = Vec::new();
            let mut theirs_out = Vec::new();
            write_ours(&mut ours_out, &options, &input.batches);
            write_theirs(&mut theirs_out, &properties, &input.batches);
            let ours_file = Bytes::from(std::mem::take(&mut ours_out));
            let theirs_file = Bytes::from(std::mem::take(&mut theirs_out));
            eprintln!(
                "arrow write {what}: parquet-arrow {:.1} MB, arrow-rs {:.1} MB",
                ours_file.len() as f64 / 1e6,
                theirs_file.len() as f64 / 1e6,
            );
            for (who, file) in [("parquet-arrow", &ours_file), ("arrow-rs", &theirs_file)] {
                let mut read = Vec::new();
                read_theirs(file, &mut |b| read.push(named_as(b, &input.batches[0])));
                same_batches(
                    &format!("{what}: {who}'s file read by arrow-rs"),
                    &read,
                    &input.batches,
                );
            }
            let ours_encodings = encodings(&ours_file);
            let theirs_encodings = encodings(&theirs_file);
            eprintln!(
                "arrow write {what}: parquet-arrow {}",
                show(&ours_encodings)
            );
            eprintln!(
                "arrow write {what}: arrow-rs      {}",
                show(&theirs_encodings)
            );
            // The paths differ in the names of list elements (`element`, `item`).
            let same_encodings = ours_encodings
                .iter()
                .map(|c| &c.1)
                .eq(theirs_encodings.iter().map(|c| &c.1));
            if scheme.is_some() {
                assert!(
                    same_encodings,
                    "{what}: the encodings of parquet-arrow's and arrow-rs's files"
                );
            } else if !same_encodings {
                eprintln!("arrow write {what}: WARNING: the two files' encodings differ");
            }
            drop((ours_file, theirs_file));

            let rounds = bench.settings.rounds;
            bench.settings.rounds = rounds_for_files(rounds);
            bench.run(
                &name,
                input.values,
                input.bytes,
                &mut || write_ours(&mut ours_out, &options, &input.batches),
                &mut || write_theirs(&mut theirs_out, &properties, &input.batches),
            );
            bench.settings.rounds = rounds;
        }
    }
}

/// parquet-arrow: writes the whole file into `out`.
fn write_ours(out: &mut Vec<u8>, options: &WriterOptions, batches: &[RecordBatch]) {
    out.clear();
    let mut writer =
        parquet_arrow::ArrowWriter::try_new(&mut *out, batches[0].schema(), Some(options.clone()))
            .unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    black_box(writer.finish().unwrap());
}

/// arrow-rs: writes the whole file into `out`.
fn write_theirs(out: &mut Vec<u8>, properties: &WriterProperties, batches: &[RecordBatch]) {
    out.clear();
    let mut writer = parquet::arrow::ArrowWriter::try_new(
        &mut *out,
        batches[0].schema(),
        Some(properties.clone()),
    )
    .unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    black_box(writer.close().unwrap());
}

/// `read` with the names of list elements of `written`: parquet-arrow names them
/// `element` in the Parquet schema, as the format and pyarrow do, arrow-rs after the
/// Arrow field (`item`), and arrow-rs's reader takes the Parquet schema's name. Any other
/// difference of type stays, for [`same_batches`] to report.
fn named_as(read: RecordBatch, written: &RecordBatch) -> RecordBatch {
    let columns = read
        .columns()
        .iter()
        .zip(written.columns())
        .map(|(read, written)| {
            let (from, to) = (read.data_type(), written.data_type());
            if from == to || !same_but_list_names(from, to) {
                Arc::clone(read)
            } else {
                make_array(with_type(read.to_data(), to))
            }
        })
        .collect();
    RecordBatch::try_new(written.schema(), columns).unwrap_or(read)
}

/// Whether `a` and `b` differ at most in the names of list elements.
fn same_but_list_names(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
        (DataType::List(a), DataType::List(b)) => {
            a.is_nullable() == b.is_nullable() && same_but_list_names(a.data_type(), b.data_type())
        }
        (DataType::Struct(a), DataType::Struct(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|(a, b)| {
                    a.name() == b.name()
                        && a.is_nullable() == b.is_nullable()
                        && same_but_list_names(a.data_type(), b.data_type())
                })
        }
        _ => a == b,
    }
}

/// `data` as `data_type`, which differs from its type at most in names of list elements.
fn with_type(data: ArrayData, data_type: &DataType) -> ArrayData {
    let children = match data_type {
        DataType::List(field) => vec![with_type(data.child_data()[0].clone(), field.data_type())],
        DataType::Struct(fields) => data
            .child_data()
            .iter()
            .zip(fields)
            .map(|(child, field)| with_type(child.clone(), field.data_type()))
            .collect(),
        _ => data.child_data().to_vec(),
    };
    data.into_builder()
        .data_type(data_type.clone())
        .child_data(children)
        .build()
        .unwrap()
}

/// Per leaf column, its path and the value encodings of its chunks (levels aside) over
/// all row groups.
fn encodings(file: &Bytes) -> Vec<(String, BTreeSet<String>)> {
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let metadata = reader.metadata();
    let columns = metadata.file_metadata().schema_descr().columns();
    columns
        .iter()
        .enumerate()
        .map(|(c, column)| {
            let encodings = metadata
                .row_groups()
                .iter()
                .flat_map(|group| group.column(c).encodings())
                .filter(|e| *e != Encoding::RLE)
                .map(|e| e.to_string())
                .collect();
            (column.path().string(), encodings)
        })
        .collect()
}

fn show(encodings: &[(String, BTreeSet<String>)]) -> String {
    encodings
        .iter()
        .map(|(path, e)| format!("{path} {}", e.iter().cloned().collect::<Vec<_>>().join("+")))
        .collect::<Vec<_>>()
        .join(", ")
}
