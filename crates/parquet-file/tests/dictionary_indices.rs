//! Batches that keep dictionary indices (`ColumnBatch::keep_dictionary`): the same values
//! and levels as batches that gather the entries, across dictionary pages, a PLAIN
//! fallback page and batches that straddle them, with nulls and repeated columns.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)] // Small test files.

mod support;

use std::sync::Arc;

use bytes::Bytes;
use parquet_file::{
    ByteArrayBatch, ByteArrayDictionary, ColumnBatch, ColumnValues, ErrorKind, FileReader,
    FileWriter, PhysicalType, Repetition, Schema, SchemaField, WriterOptions,
};
use parquet_thrift as thrift;
use support::{Chunk, File, Page, leaf, levels, root};
use thrift::{Encoding, FieldRepetitionType as Rep, Type};

/// What a read of one batch gave: its values gathered, its levels and counts, and the
/// dictionary when it kept indices.
#[derive(Debug, PartialEq)]
struct Read {
    values: ByteArrayBatch,
    def: Vec<u16>,
    rep: Vec<u16>,
    levels: usize,
    records: usize,
}

/// Reads column `c` of every row group of `file` in batches of `size` records, with
/// `keep` on or off; the batches, and the dictionaries of those that kept indices.
fn read(
    file: &Bytes,
    c: usize,
    size: usize,
    keep: bool,
) -> (Vec<Read>, Vec<Option<Arc<ByteArrayDictionary>>>) {
    let reader = FileReader::open(file.clone()).unwrap();
    let column = reader.schema().column(c).unwrap();
    let mut batch = ColumnBatch::new(column);
    batch.keep_dictionary(keep);
    assert_eq!(batch.keeps_dictionary(), keep);
    let mut reads = Vec::new();
    let mut kept = Vec::new();
    for g in 0..reader.num_row_groups() {
        let mut chunk = reader.column_chunk(g, c).unwrap();
        loop {
            batch.clear();
            if chunk.read_records(size, &mut batch).unwrap() == 0 {
                break;
            }
            let num_values = batch.num_values();
            let (values, dictionary) = match batch.take_dictionary_indices() {
                Some(indices) => {
                    assert!(keep);
                    assert!(batch.values().is_empty());
                    assert_eq!(indices.len(), num_values);
                    (
                        indices.gather().unwrap(),
                        Some(Arc::clone(indices.dictionary())),
                    )
                }
                None => match batch.values() {
                    ColumnValues::ByteArray(v) => (v.clone(), None),
                    other => panic!("{other:?}"),
                },
            };
            assert_eq!(values.len(), num_values);
            reads.push(Read {
                values,
                def: batch.def_levels().to_vec(),
                rep: batch.rep_levels().to_vec(),
                levels: batch.num_levels(),
                records: batch.num_records(),
            });
            kept.push(dictionary);
        }
    }
    (reads, kept)
}

/// PLAIN byte arrays.
fn plain(values: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        out.extend((v.len() as u32).to_le_bytes());
        out.extend_from_slice(v);
    }
    out
}

/// An index page of `indices` at `width` bits.
fn index_page(indices: &[u32], width: u8) -> Vec<u8> {
    let mut encoder = parquet_rle::Encoder::new(width);
    encoder.extend(indices);
    let mut out = vec![width];
    encoder.finish(&mut out);
    out
}

const ENTRIES: [&[u8]; 4] = [b"a", b"bb", b"an entry longer than twelve bytes", b""];

/// A v1 page of an optional column: `def` levels, and `values` encoded after them.
fn page(def: &[u16], encoding: Encoding, values: Vec<u8>) -> Page {
    let mut body = levels(def, 1);
    body.extend(values);
    Page::v1(def.len() as i32, encoding, body)
}

/// An optional BYTE_ARRAY column of 40 rows with a null in every third: two
/// dictionary-encoded pages, a PLAIN page (a writer's fallback), and a dictionary-encoded
/// page again.
fn hand_made(last_index: u32) -> Bytes {
    let def: Vec<u16> = (0..10).map(|i| u16::from(i % 3 != 0)).collect();
    let present = def.iter().filter(|&&d| d == 1).count();
    let indices =
        |offset: u32| -> Vec<u32> { (0..present as u32).map(|i| (i + offset) % 4).collect() };
    let mut last = indices(3);
    *last.last_mut().unwrap() = last_index;
    let plain_values: Vec<&[u8]> = (0..present).map(|i| ENTRIES[(i + 1) % 4]).collect();
    let pages = vec![
        Page::dictionary(4, plain(&ENTRIES)),
        page(&def, Encoding::RLE_DICTIONARY, index_page(&indices(0), 2)),
        page(&def, Encoding::RLE_DICTIONARY, index_page(&indices(1), 2)),
        page(&def, Encoding::PLAIN, plain(&plain_values)),
        page(&def, Encoding::RLE_DICTIONARY, index_page(&last, 3)),
    ];
    Bytes::from(
        File {
            schema: vec![root(1), leaf("s", Rep::OPTIONAL, Type::BYTE_ARRAY)],
            row_groups: vec![(40, vec![Chunk::new(Type::BYTE_ARRAY, pages)])],
            ..File::default()
        }
        .write(),
    )
}

#[test]
fn kept_indices_read_as_gathered_values_across_a_plain_fallback() {
    let file = hand_made(2);
    for size in 1..=41 {
        let (gathered, none) = read(&file, 0, size, false);
        assert!(none.iter().all(Option::is_none));
        let (kept, dictionaries) = read(&file, 0, size, true);
        assert_eq!(kept, gathered, "batches of {size}");
        // A batch with values from the dictionary pages only keeps indices; one with
        // values of the PLAIN page (rows 20 to 29) holds values; every batch's
        // dictionary is the chunk's one.
        let mut start = 0;
        for (read, dictionary) in kept.iter().zip(&dictionaries) {
            let end = start + read.records;
            let plain = (start.max(20)..end.min(30)).any(|row| (row - 20) % 3 != 0);
            let has_values = !read.values.is_empty();
            assert_eq!(
                dictionary.is_some(),
                has_values && !plain,
                "rows {start}..{end} of batches of {size}"
            );
            start = end;
        }
        if let Some(first) = dictionaries.iter().flatten().next() {
            assert!(dictionaries.iter().flatten().all(|d| Arc::ptr_eq(d, first)));
            assert_eq!(first.len(), 4);
        } else {
            assert!(size > 20, "batches of {size}");
        }
    }
}

#[test]
fn kept_indices_out_of_range_are_the_gather_error() {
    let file = hand_made(4);
    for keep in [false, true] {
        let reader = FileReader::open(file.clone()).unwrap();
        let mut batch = ColumnBatch::new(reader.schema().column(0).unwrap());
        batch.keep_dictionary(keep);
        let mut chunk = reader.column_chunk(0, 0).unwrap();
        // The first three pages read; the error is in the last one.
        assert_eq!(chunk.read_records(30, &mut batch).unwrap(), 30);
        batch.clear();
        let error = chunk.read_records(10, &mut batch).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                ErrorKind::Decode {
                    source: parquet_core::Error::OutOfRange {
                        what: "dictionary index",
                        value: 4,
                        bound: 4,
                    },
                    ..
                }
            ),
            "keep {keep}: {error}"
        );
    }
}

#[test]
fn clearing_drops_kept_indices() {
    let file = hand_made(2);
    let reader = FileReader::open(file).unwrap();
    let mut batch = ColumnBatch::new(reader.schema().column(0).unwrap());
    batch.keep_dictionary(true);
    let mut chunk = reader.column_chunk(0, 0).unwrap();
    assert_eq!(chunk.read_records(10, &mut batch).unwrap(), 10);
    assert_eq!(batch.num_values(), 6);
    batch.clear();
    assert_eq!(batch.num_values(), 0);
    assert!(batch.take_dictionary_indices().is_none());
    // `take_values` empties the batch, indices included.
    assert_eq!(chunk.read_records(10, &mut batch).unwrap(), 10);
    assert!(batch.take_values().is_empty());
    assert_eq!((batch.num_values(), batch.num_levels()), (0, 0));
    assert!(batch.take_dictionary_indices().is_none());
}

#[test]
fn only_byte_array_batches_keep_indices() {
    let schema =
        Schema::try_new("schema", [SchemaField::required("i", PhysicalType::Int32)]).unwrap();
    let mut batch = ColumnBatch::new(schema.column(0).unwrap());
    batch.keep_dictionary(true);
    assert!(!batch.keeps_dictionary());
}

/// Strings of up to `distinct` values, with nulls, in an optional column and a list.
fn written(rows: usize, distinct: usize, options: WriterOptions) -> Bytes {
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::optional("s", PhysicalType::ByteArray),
            SchemaField::list(
                "l",
                Repetition::Optional,
                SchemaField::optional("element", PhysicalType::ByteArray),
            ),
        ],
    )
    .unwrap();
    // New values a few at a time: the dictionary fills after some pages.
    let value = |i: usize| format!("value number {}", (i / 8) % distinct);
    let mut strings = ByteArrayBatch::new();
    let mut def = Vec::new();
    for i in 0..rows {
        if i % 5 == 3 {
            def.push(0);
        } else {
            def.push(1);
            strings.push(value(i).as_bytes()).unwrap();
        }
    }
    let s = ColumnBatch::try_new(
        schema.column(0).unwrap(),
        ColumnValues::ByteArray(strings),
        def,
        Vec::new(),
    )
    .unwrap();
    // Lists of 0 to 3 elements, some null, some with null elements.
    let (mut elements, mut def, mut rep) = (ByteArrayBatch::new(), Vec::new(), Vec::new());
    for i in 0..rows {
        match i % 6 {
            0 => {
                def.push(0);
                rep.push(0);
            }
            1 => {
                def.push(1);
                rep.push(0);
            }
            n => {
                for e in 0..n - 1 {
                    rep.push(u16::from(e > 0));
                    if (i + e) % 4 == 0 {
                        def.push(2);
                    } else {
                        def.push(3);
                        elements.push(value(i + e).as_bytes()).unwrap();
                    }
                }
            }
        }
    }
    let l = ColumnBatch::try_new(
        schema.column(1).unwrap(),
        ColumnValues::ByteArray(elements),
        def,
        rep,
    )
    .unwrap();
    let mut writer = FileWriter::new(Vec::new(), schema, options).unwrap();
    writer.write_batches(&[s, l]).unwrap();
    writer.finish().unwrap();
    Bytes::from(writer.into_inner())
}

#[test]
fn written_files_with_a_dictionary_fallback_read_the_same_kept() {
    // A dictionary page that fills after a few pages: the rest of each chunk is PLAIN.
    let options = WriterOptions::new()
        .with_dictionary_page_bytes(2000)
        .with_page_rows(300)
        .with_row_group_rows(2500);
    let file = written(6000, 400, options);
    let reader = FileReader::open(file.clone()).unwrap();
    assert_eq!(reader.num_row_groups(), 3);
    for c in 0..2 {
        for size in [1, 299, 300, 301, 1000, 3000] {
            let (gathered, _) = read(&file, c, size, false);
            let (kept, dictionaries) = read(&file, c, size, true);
            assert_eq!(kept, gathered, "column {c}, batches of {size}");
            // The two dictionary-encoded pages of each chunk fill whole batches
            // of up to 300 rows.
            assert!(
                size > 300 || dictionaries.iter().any(Option::is_some),
                "column {c}, batches of {size}"
            );
            assert!(
                kept.iter()
                    .zip(&dictionaries)
                    .any(|(r, d)| d.is_none() && !r.values.is_empty())
            );
        }
    }
}
