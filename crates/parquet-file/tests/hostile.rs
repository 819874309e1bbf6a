//! Hostile files of under 1 KiB whose headers claim 2^31 values: each reads (as much as
//! a test asks for) or fails, with the memory this thread holds staying under 64 MiB,
//! measured by parquet-thrift's counting allocator.
//!
//! The allocator is the one `unsafe` item of this crate's tests: it forwards every call
//! to the system allocator unchanged.
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

#[path = "../../parquet-thrift/tests/counting/mod.rs"]
mod counting;
mod support;

use std::time::Instant;

use bytes::Bytes;
use parquet_file::{ColumnBatch, ColumnValues, ErrorKind, Field, FileReader, Limits, ReadOptions};
use parquet_thrift as thrift;
use support::{Chunk, File, Page, group, index_run, leaf, root, run};
use thrift::{ConvertedType, Encoding, FieldRepetitionType as Rep, Type};

/// The most memory a hostile file may cost.
const BOUND: usize = 64 << 20;

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

const CLAIM: i32 = i32::MAX;

fn write(file: &File) -> Bytes {
    let bytes = file.write();
    assert!(bytes.len() < 1024, "{} bytes", bytes.len());
    Bytes::from(bytes)
}

/// A required INT32 column of `claim` rows: one dictionary entry, and one data page of
/// one RLE run of index 0 (`optional`: and one run of definition level 1).
fn dictionary_file(optional: bool, claim: i32) -> File {
    let mut body = Vec::new();
    if optional {
        body.extend(run(1, claim as usize, 1));
    }
    body.extend(index_run(0, claim as usize, 1));
    let pages = vec![
        Page::dictionary(1, 42_i32.to_le_bytes().to_vec()),
        Page::v1(claim, Encoding::RLE_DICTIONARY, body),
    ];
    let rep = if optional {
        Rep::OPTIONAL
    } else {
        Rep::REQUIRED
    };
    File {
        schema: vec![root(1), leaf("x", rep, Type::INT32)],
        row_groups: vec![(i64::from(claim), vec![Chunk::new(Type::INT32, pages)])],
        ..File::default()
    }
}

/// Reads 65,536 records, skips the rest, and checks the end: what a reader that wants
/// one batch and a count does.
fn batch_skip_end(bytes: Bytes) -> parquet_file::Result<(ColumnBatch, usize)> {
    let reader = FileReader::open(bytes)?;
    let mut chunk = reader.column_chunk(0, 0)?;
    let mut batch = ColumnBatch::new(reader.schema().column(0)?);
    assert_eq!(chunk.read_records(65_536, &mut batch)?, 65_536);
    let skipped = chunk.skip_records(usize::MAX)?;
    assert_eq!(chunk.read_records(10, &mut batch)?, 0);
    Ok((batch, skipped))
}

#[test]
fn a_run_of_2_to_the_31_dictionary_indices() {
    for optional in [false, true] {
        eprintln!("optional: {optional}");
        let bytes = write(&dictionary_file(optional, CLAIM));
        let held = peak(|| {
            let (batch, skipped) = batch_skip_end(bytes.clone()).unwrap();
            assert_eq!(skipped, CLAIM as usize - 65_536);
            assert_eq!(batch.values(), &ColumnValues::Int32(vec![42; 65_536]));
            // The row API, for the first thousand rows.
            let reader = FileReader::open(bytes.clone()).unwrap();
            let rows: Vec<_> = reader.rows().take(1000).collect::<Result<_, _>>().unwrap();
            assert!(rows.iter().all(|r| r.fields()[0].1 == Field::Int(42)));
        });
        assert!(held < BOUND, "{held} bytes");
    }
}

#[test]
fn a_record_of_2_to_the_31_values() {
    // list<int>: one record whose list has CLAIM elements, every one a dictionary index.
    let mut list = group("list", Rep::OPTIONAL, 1);
    list.converted_type = Some(ConvertedType::LIST);
    let schema = vec![
        root(1),
        list,
        group("list", Rep::REPEATED, 1),
        leaf("element", Rep::REQUIRED, Type::INT32),
    ];
    let mut rep = parquet_rle::Encoder::new(1);
    rep.put_run(0, 1);
    rep.put_run(1, CLAIM as usize - 1);
    let mut body = Vec::new();
    rep.finish_length_prefixed(&mut body).unwrap();
    body.extend(run(2, CLAIM as usize, 2));
    body.extend(index_run(0, CLAIM as usize, 1));
    let pages = vec![
        Page::dictionary(1, 7_i32.to_le_bytes().to_vec()),
        Page::v1(CLAIM, Encoding::RLE_DICTIONARY, body),
    ];
    let bytes = write(&File {
        schema,
        row_groups: vec![(1, vec![Chunk::new(Type::INT32, pages)])],
        ..File::default()
    });
    let held = peak(|| {
        let reader = FileReader::open(bytes.clone()).unwrap();
        let e = reader.rows().next().unwrap().unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::LimitExceeded {
                    limit: "values in one record of a column",
                    ..
                }
            ),
            "{e}"
        );
        // The limit is the caller's to raise: a smaller one fails sooner.
        let options =
            ReadOptions::new().with_limits(Limits::default().with_max_record_values(1000));
        let reader = FileReader::with_options(bytes.clone(), options).unwrap();
        let mut chunk = reader.column_chunk(0, 0).unwrap();
        let mut batch = ColumnBatch::new(reader.schema().column(0).unwrap());
        let e = chunk.read_records(1, &mut batch).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::LimitExceeded { max: 1000, .. }),
            "{e}"
        );
    });
    assert!(held < BOUND, "{held} bytes");
}

#[test]
fn pages_that_claim_more_than_their_chunk_or_row_group() {
    // The chunk says 10 values, its page 2^31 - 1; then the chunk agrees with its page,
    // and only the row group has 10 rows.
    let cases = [
        (
            Some(10),
            "values in the page, at most the chunk's values left",
        ),
        (None, "rows in the page, at most the row group's rows left"),
    ];
    for (chunk_values, rule) in cases {
        let mut file = dictionary_file(false, CLAIM);
        file.row_groups[0].0 = 10;
        if chunk_values.is_some() {
            file.row_groups[0].1[0].num_values = chunk_values;
        }
        let bytes = write(&file);
        let held = peak(|| {
            let e = batch_skip_end(bytes).unwrap_err();
            assert!(
                matches!(
                    e.kind(),
                    ErrorKind::Mismatch { what, expected: 10, .. } if *what == rule
                ),
                "{e}"
            );
        });
        assert!(held < BOUND, "{rule}: {held} bytes");
    }
}

/// An INT64 column of `claim` rows: one DELTA_BINARY_PACKED block of 2^31 deltas in
/// one miniblock of width 0, every value 5.
fn delta_file(claim: i32) -> File {
    let mut page = Vec::new();
    for v in [1_u64 << 31, 1, claim as u64, 10, 0] {
        parquet_core::varint::encode_u64(v, &mut page);
    }
    page.push(0); // the miniblock's width
    File {
        schema: vec![root(1), leaf("x", Rep::REQUIRED, Type::INT64)],
        row_groups: vec![(
            i64::from(claim),
            vec![Chunk::new(
                Type::INT64,
                vec![Page::v1(claim, Encoding::DELTA_BINARY_PACKED, page)],
            )],
        )],
        ..File::default()
    }
}

#[test]
fn a_delta_block_of_2_to_the_31_values() {
    let bytes = write(&delta_file(CLAIM));
    let held = peak(|| {
        // Every value is the first, 5: the block's zero-width miniblock is read a batch
        // at a time, and the rest skipped without decoding.
        let (batch, _) = batch_skip_end(bytes).unwrap();
        assert_eq!(batch.values(), &ColumnValues::Int64(vec![5; 65_536]));
    });
    assert!(held < BOUND, "{held} bytes");
}

#[test]
fn pages_that_claim_to_decompress_to_gigabytes() {
    use parquet_compress::Codec;
    // GZIP says its size in its trailer; BROTLI does not say it at all.
    let cases = [
        (
            Codec::Gzip,
            thrift::CompressionCodec::GZIP,
            512 << 20,
            false,
        ),
        (
            Codec::Brotli,
            thrift::CompressionCodec::BROTLI,
            512 << 20,
            false,
        ),
        (
            Codec::Brotli,
            thrift::CompressionCodec::BROTLI,
            i32::MAX,
            true,
        ),
    ];
    for (codec, id, claim, limit) in cases {
        eprintln!("{codec}, {claim} bytes");
        let mut compressed = Vec::new();
        parquet_compress::compress(codec, &[0; 40], &mut compressed).unwrap();
        let mut page = Page::v1(10, Encoding::PLAIN, compressed);
        page.header.uncompressed_page_size = claim;
        let mut chunk = Chunk::new(Type::INT32, vec![page]);
        chunk.codec = id;
        let bytes = write(&File {
            schema: vec![root(1), leaf("x", Rep::REQUIRED, Type::INT32)],
            row_groups: vec![(10, vec![chunk])],
            ..File::default()
        });
        let held = peak(|| {
            let e = batch_skip_end(bytes).unwrap_err();
            if limit {
                assert!(
                    matches!(
                        e.kind(),
                        ErrorKind::LimitExceeded {
                            limit: "decompressed page size",
                            ..
                        }
                    ),
                    "{e}"
                );
            } else {
                assert!(matches!(e.kind(), ErrorKind::Decompress { .. }), "{e}");
            }
        });
        assert!(held < BOUND, "{claim}: {held} bytes");
    }
}

#[test]
fn verify_and_rows_of_a_long_entry_under_many_indices() {
    // One 60,000-byte dictionary entry under 5,000 indices: 300 MB of values, read a
    // batch at a time by `verify` (which checks every value) and by the rows.
    const ROWS: u16 = 5_000;
    let entry = vec![b'x'; 60_000];
    let mut dictionary = (entry.len() as u32).to_le_bytes().to_vec();
    dictionary.extend_from_slice(&entry);
    let pages = vec![
        Page::dictionary(1, dictionary),
        Page::v1(
            ROWS.into(),
            Encoding::RLE_DICTIONARY,
            index_run(0, ROWS.into(), 1),
        ),
    ];
    // Larger than `write`'s 1 KiB: the entry itself is stored.
    let bytes = Bytes::from(
        File {
            schema: vec![root(1), leaf("s", Rep::REQUIRED, Type::BYTE_ARRAY)],
            row_groups: vec![(ROWS.into(), vec![Chunk::new(Type::BYTE_ARRAY, pages)])],
            ..File::default()
        }
        .write(),
    );
    let held = peak(|| {
        let reader = FileReader::open(bytes.clone()).unwrap();
        let verification = reader.verify().unwrap();
        assert_eq!(verification.rows, u64::from(ROWS));
        assert!(verification.is_ok(), "{:?}", verification.disagreements);
    });
    assert!(held < BOUND, "{held} bytes");
}

/// An optional INT32 column of `claim` rows, every one null: one RLE run of definition
/// level 0.
fn nulls_file(claim: i32) -> File {
    let pages = vec![Page::v1(claim, Encoding::PLAIN, run(0, claim as usize, 1))];
    File {
        schema: vec![root(1), leaf("x", Rep::OPTIONAL, Type::INT32)],
        row_groups: vec![(i64::from(claim), vec![Chunk::new(Type::INT32, pages)])],
        ..File::default()
    }
}

/// A BYTE_ARRAY column of `rows` DELTA_BYTE_ARRAY values, each the whole of the one
/// before it: one `len`-byte suffix, then prefixes of `len` bytes.
fn prefix_bomb(rows: usize, len: i32) -> Bytes {
    let params = parquet_delta::binary_packed::Params::default();
    let mut page = Vec::new();
    let mut prefixes = vec![len; rows];
    prefixes[0] = 0;
    parquet_delta::binary_packed::encode(&prefixes, params, &mut page);
    let mut suffixes = vec![0; rows];
    suffixes[0] = len;
    parquet_delta::binary_packed::encode(&suffixes, params, &mut page);
    page.extend(std::iter::repeat_n(b'x', len as usize));
    let pages = vec![Page::v1(rows as i32, Encoding::DELTA_BYTE_ARRAY, page)];
    Bytes::from(
        File {
            schema: vec![root(1), leaf("s", Rep::REQUIRED, Type::BYTE_ARRAY)],
            row_groups: vec![(rows as i64, vec![Chunk::new(Type::BYTE_ARRAY, pages)])],
            ..File::default()
        }
        .write(),
    )
}

#[test]
fn verify_reads_each_chunk_once_in_bounded_batches() {
    // Runs of 2^22 values (2^31 in the closing measurements, with the release build:
    // 1 to 3 s, under 6 MB): verify's time follows the values, at a few nanoseconds
    // each, and its memory a batch.
    const RUN: i32 = 1 << 22;
    let files = [
        ("dictionary indices", write(&dictionary_file(false, RUN))),
        (
            "dictionary indices and levels",
            write(&dictionary_file(true, RUN)),
        ),
        ("a delta block", write(&delta_file(RUN))),
        ("nulls", write(&nulls_file(RUN))),
        // 6 GB of values in 60 KB: each the whole of the one before it.
        ("DELTA_BYTE_ARRAY prefixes", prefix_bomb(100_000, 60_000)),
    ];
    for (what, bytes) in files {
        eprintln!("{what}");
        let reader = FileReader::open(bytes).unwrap();
        let rows = reader.metadata().num_rows();
        let held = peak(|| {
            let verification = reader.verify().unwrap();
            assert!(
                verification.is_ok(),
                "{what}: {:?}",
                verification.disagreements
            );
            assert_eq!(verification.rows, rows, "{what}");
        });
        assert!(held < BOUND, "{what}: {held} bytes");
    }
}

#[test]
fn verify_counts_each_chunks_records_against_its_row_group() {
    // The row group says 10 more rows than its one chunk holds: without assembling
    // rows, verify still fails the file.
    let mut file = dictionary_file(true, 1000);
    file.row_groups[0].0 = 1010;
    let reader = FileReader::open(write(&file)).unwrap();
    let e = reader.verify().unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Mismatch {
                expected: 1010,
                found: 1000,
                ..
            }
        ),
        "{e}"
    );
}
