//! Hand-made files of under 64 KiB that claim far more than they hold (5 rows backed by
//! 500 MiB of compressed zeros, in streams of every kind; 2^31 rows of runs): each read holds less than 64 MiB
//! at once, measured by parquet-thrift's counting allocator.
//!
//! The allocator is the one `unsafe` item of these tests: it forwards every call to the
//! system allocator unchanged.
#![allow(unsafe_code, clippy::unwrap_used, clippy::cast_possible_truncation)]

#[path = "../../parquet-thrift/tests/counting/mod.rs"]
mod counting;

use std::time::Instant;

use orc_file::proto::{self, column_encoding::Kind as Encoding, stream::Kind as StreamKind};
use orc_file::stream::ChunkEncoder;
use orc_file::{Batch, ErrorKind, OrcCompression, OrcReader, ReadOptions, TypeDescription};
use prost::Message;

/// The most memory a hostile file may cost.
const BOUND: usize = 64 << 20;

/// The compression block size of the files: Apache ORC's Java writer's.
const BLOCK: usize = 256 << 10;

/// Runs `f` and returns the most bytes this thread held above what it held before.
fn peak(f: impl FnOnce()) -> usize {
    let started = Instant::now();
    let held = counting::peak_allocation(f);
    eprintln!(
        "  took {:.3} s, held {held} bytes",
        started.elapsed().as_secs_f64()
    );
    held
}

/// A ZSTD file of one stripe of `rows` rows of `schema` (top-level columns without
/// nulls or a row index), whose column 1 has the stream `data` and `encodings` (the
/// root's first).
fn file(schema: &str, data: &[u8], encodings: &[Encoding], rows: u64) -> Vec<u8> {
    file_of(schema, &[(1, StreamKind::Data, data)], encodings, rows, &[])
}

/// A ZSTD file of one stripe of `rows` rows of `schema`, with `streams` (column, kind,
/// bytes before compression), column `encodings` (the root's first; a dictionary holds
/// one entry) and the metadata section `metadata` (none when empty).
fn file_of(
    schema: &str,
    streams: &[(u32, StreamKind, &[u8])],
    encodings: &[Encoding],
    rows: u64,
    metadata: &[u8],
) -> Vec<u8> {
    let mut encoder = ChunkEncoder::new(OrcCompression::Zstd, None, BLOCK).unwrap();
    let mut compress = |bytes: &[u8]| {
        let mut out = Vec::new();
        encoder
            .encode_stream(bytes, &mut out, &mut Vec::new())
            .unwrap();
        out
    };
    let streams: Vec<(u32, StreamKind, Vec<u8>)> = streams
        .iter()
        .map(|&(column, kind, bytes)| (column, kind, compress(bytes)))
        .collect();
    let data_length: usize = streams.iter().map(|(_, _, s)| s.len()).sum();
    let stripe_footer = compress(
        &proto::StripeFooter {
            streams: streams
                .iter()
                .map(|(column, kind, bytes)| proto::Stream {
                    kind: Some(*kind as i32),
                    column: Some(*column),
                    length: Some(bytes.len() as u64),
                })
                .collect(),
            columns: encodings
                .iter()
                .map(|&k| proto::ColumnEncoding {
                    kind: Some(k as i32),
                    // The dictionaries of these files hold one entry.
                    dictionary_size: matches!(k, Encoding::Dictionary | Encoding::DictionaryV2)
                        .then_some(1),
                    ..proto::ColumnEncoding::default()
                })
                .collect(),
            writer_timezone: Some("UTC".into()),
            encryption: Vec::new(),
        }
        .encode_to_vec(),
    );
    let mut out = b"ORC".to_vec();
    for (_, _, bytes) in &streams {
        out.extend_from_slice(bytes);
    }
    out.extend_from_slice(&stripe_footer);
    let metadata = if metadata.is_empty() {
        Vec::new()
    } else {
        compress(metadata)
    };
    out.extend_from_slice(&metadata);
    let footer = compress(
        &proto::Footer {
            header_length: Some(3),
            content_length: Some((out.len() - metadata.len()) as u64),
            stripes: vec![proto::StripeInformation {
                offset: Some(3),
                index_length: Some(0),
                data_length: Some(data_length as u64),
                footer_length: Some(stripe_footer.len() as u64),
                number_of_rows: Some(rows),
                ..proto::StripeInformation::default()
            }],
            types: TypeDescription::parse(schema).unwrap().to_proto(),
            number_of_rows: Some(rows),
            row_index_stride: Some(0),
            ..proto::Footer::default()
        }
        .encode_to_vec(),
    );
    out.extend_from_slice(&footer);
    let postscript = proto::PostScript {
        footer_length: Some(footer.len() as u64),
        compression: Some(proto::CompressionKind::Zstd as i32),
        compression_block_size: Some(BLOCK as u64),
        version: vec![0, 12],
        metadata_length: Some(metadata.len() as u64),
        writer_version: Some(9),
        magic: Some("ORC".into()),
        ..proto::PostScript::default()
    }
    .encode_to_vec();
    out.extend_from_slice(&postscript);
    out.push(postscript.len() as u8);
    assert!(out.len() < 64 << 10, "{} bytes", out.len());
    out
}

/// The streams of a hand-made file: column, kind, bytes before compression.
type Streams<'a> = Vec<(u32, StreamKind, &'a [u8])>;

/// The first batch of `rows` rows of `file`, and the values of its first column.
fn first_batch(file: Vec<u8>, rows: usize) -> Batch {
    let reader = OrcReader::open(file).unwrap();
    let options = ReadOptions::default().with_batch_size(rows);
    reader.batches(options).unwrap().next().unwrap().unwrap()
}

#[test]
fn five_rows_backed_by_500_mib_of_zeros_decompress_what_they_need() {
    // An RLE v2 short repeat of 5 (1 byte wide), then zeros: 500 MiB in 2,000 chunks,
    // which the reader once decompressed whole for 5 rows.
    let mut data = vec![0_u8; 2000 * BLOCK];
    data[..2].copy_from_slice(&[0b0000_0010, 7]);
    let bytes = file(
        "struct<a:bigint>",
        &data,
        &[Encoding::Direct, Encoding::DirectV2],
        5,
    );
    drop(data);
    let held = peak(|| {
        let reader = OrcReader::open(bytes).unwrap();
        let rows = reader
            .rows(ReadOptions::default())
            .unwrap()
            .map(|r| r.unwrap().fields()[0].1.clone())
            .collect::<Vec<_>>();
        assert_eq!(rows, vec![parquet_core::Field::Int(-4); 5]);
    });
    assert!(held < BOUND, "{held} bytes");
}

#[test]
fn runs_of_2_to_the_31_rows_are_read_a_batch_at_a_time() {
    let rows = 1_u64 << 31;
    // bigint: RLE v2 DELTA runs of 512 values (0 to 511, a fixed delta of 1).
    let delta = [0xC1_u8, 0xFF, 0x00, 0x02].repeat((rows / 512) as usize);
    // boolean: byte-RLE runs of 130 bytes of 0xAA (1,040 values each).
    let booleans = [0x7F_u8, 0xAA].repeat((rows / 1040) as usize);
    let cases = [
        ("struct<a:bigint>", delta, Encoding::DirectV2, rows),
        (
            "struct<b:boolean>",
            booleans,
            Encoding::Direct,
            rows / 1040 * 1040,
        ),
    ];
    for (schema, data, encoding, rows) in cases {
        eprintln!("{schema}");
        let bytes = file(schema, &data, &[Encoding::Direct, encoding], rows);
        drop(data);
        let held = peak(|| {
            let batch = first_batch(bytes, 1024);
            assert_eq!(batch.num_rows, 1024);
        });
        assert!(held < BOUND, "{schema}: {held} bytes");
    }
}

#[test]
fn one_row_of_2_to_the_26_list_elements_is_refused_before_they_are_read() {
    // One list (RLE v1 literal: its length, 2^26) of 2^26 zeros (RLE v1 runs of 128):
    // true, and 2.5 GB once read whole into rows.
    let elements = 1_u64 << 26;
    let lengths = [0xFF, 0x80, 0x80, 0x80, 0x20];
    let zeros = [0x7D_u8, 0x00, 0x00].repeat((elements / 128) as usize);
    let bytes = file_of(
        "struct<l:array<bigint>>",
        &[
            (1, StreamKind::Length, &lengths),
            (2, StreamKind::Data, &zeros),
        ],
        &[Encoding::Direct, Encoding::Direct, Encoding::Direct],
        1,
        &[],
    );
    drop(zeros);
    let held = peak(|| {
        let reader = OrcReader::open(bytes).unwrap();
        let error = reader
            .rows(ReadOptions::default())
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::LimitExceeded {
                    limit: "values under one list or map of one row (max_record_values)",
                    value: 67_108_864,
                    max: 1_048_576,
                }
            ),
            "{error}"
        );
        assert_eq!(error.location().column, Some(1), "{error}");
    });
    assert!(held < BOUND, "{held} bytes");
}

#[test]
fn a_metadata_section_of_a_million_stripes_is_refused_before_it_is_decoded() {
    // Statistics for a million stripes (each of one empty column statistics) in a
    // file of one stripe: 4 MB that decoded whole once took hundreds of megabytes.
    let metadata = [0x0A_u8, 0x02, 0x0A, 0x00].repeat(1_000_000);
    let bytes = file_of(
        "struct<a:bigint>",
        &[(1, StreamKind::Data, &[0x00, 0x07])],
        &[Encoding::Direct, Encoding::Direct],
        3,
        &metadata,
    );
    let held = peak(|| {
        let reader = OrcReader::open(bytes).unwrap();
        let error = reader.stripe_statistics().unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::TooMany {
                    found: 1_000_000,
                    max: 1,
                    ..
                }
            ),
            "{error}"
        );
        assert!(error.location().offset.is_some(), "{error}");
    });
    assert!(held < BOUND, "{held} bytes");
    // One stripe's statistics of a million columns, for a schema of two.
    let mut metadata = vec![0x0A, 0x80, 0x89, 0x7A];
    metadata.extend([0x0A_u8, 0x00].repeat(1_000_000));
    let bytes = file_of(
        "struct<a:bigint>",
        &[(1, StreamKind::Data, &[0x00, 0x07])],
        &[Encoding::Direct, Encoding::Direct],
        3,
        &metadata,
    );
    let reader = OrcReader::open(bytes).unwrap();
    let error = reader.stripe_statistics().unwrap_err();
    assert!(
        matches!(
            error.kind(),
            ErrorKind::TooMany {
                found: 1_000_000,
                max: 2,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.location().stripe, Some(0), "{error}");
}

#[test]
fn a_64_mib_dictionary_entry_under_100_000_rows_costs_its_size_once_per_batch() {
    // One entry of 2^26 bytes, and 100,352 ids of it (RLE v2 fixed-delta runs of 512
    // zeros): 6.5 TB if every row held its copy at once.
    let rows = 196 * 512;
    let entry = vec![b'x'; 1 << 26];
    // RLE v2: one value, 2^26, as a fixed delta of length 1.
    let length = [0xC0, 0x00, 0x80, 0x80, 0x80, 0x20, 0x00];
    let ids = [0xC1_u8, 0xFF, 0x00, 0x00].repeat(196);
    let bytes = file_of(
        "struct<s:string>",
        &[
            (1, StreamKind::Data, &ids),
            (1, StreamKind::Length, &length),
            (1, StreamKind::DictionaryData, &entry),
        ],
        &[Encoding::Direct, Encoding::DictionaryV2],
        rows,
        &[],
    );
    drop(entry);
    let held = peak(|| {
        let reader = OrcReader::open(bytes).unwrap();
        // As `cat --limit 10` reads it: a row at a time.
        let mut read = 0;
        for row in reader.rows(ReadOptions::default()).unwrap().take(10) {
            let row = row.unwrap();
            let parquet_core::Field::Str(s) = &row.fields()[0].1 else {
                panic!("{row:?}");
            };
            assert_eq!(s.len(), 1 << 26);
            read += 1;
        }
        assert_eq!(read, 10);
    });
    assert!(held < 256 << 20, "{held} bytes");
}

#[test]
fn five_values_of_unbounded_streams_backed_by_500_mib_of_zeros_decompress_what_they_need() {
    // Streams whose size the rows do not bound: a direct string's DATA (5 one-byte
    // strings), a decimal's DATA (5 varints of 0), and a nested column's (a struct's
    // bigint): each 500 MiB of zeros, which the reader once decompressed whole.
    let zeros = vec![0_u8; 2000 * BLOCK];
    let mut repeat = zeros.clone();
    // RLE v2: a short repeat of 5 (1 byte wide), then zeros.
    repeat[..2].copy_from_slice(&[0b0000_0010, 7]);
    let lengths = [0b0000_0010_u8, 1];
    let scales = [0b0000_0010_u8, 4];
    let cases: [(&str, Streams, &[Encoding]); 3] = [
        (
            "struct<s:string>",
            vec![
                (1, StreamKind::Data, &zeros),
                (1, StreamKind::Length, &lengths),
            ],
            &[Encoding::Direct, Encoding::DirectV2],
        ),
        (
            "struct<d:decimal(10,2)>",
            vec![
                (1, StreamKind::Data, &zeros),
                (1, StreamKind::Secondary, &scales),
            ],
            &[Encoding::Direct, Encoding::DirectV2],
        ),
        (
            "struct<t:struct<a:bigint>>",
            vec![(2, StreamKind::Data, &repeat)],
            &[Encoding::Direct, Encoding::Direct, Encoding::DirectV2],
        ),
    ];
    for (schema, streams, encodings) in cases {
        eprintln!("{schema}");
        let bytes = file_of(schema, &streams, encodings, 5, &[]);
        let held = peak(|| {
            let batch = first_batch(bytes, 5);
            assert_eq!(batch.num_rows, 5);
        });
        assert!(held < BOUND, "{schema}: {held} bytes");
    }
}
