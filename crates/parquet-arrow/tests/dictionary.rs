//! Dictionary-encoded string and binary columns read as Arrow dictionary and view arrays
//! from their dictionary indices: the same values as written, across dictionary pages, a
//! PLAIN fallback page, nulls, lists, row groups and batches that straddle pages; the
//! dictionary's entries converted once per column chunk and shared by its batches.

#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)] // Small test files.

mod common;

use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringViewBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int8Type, Int32Type, UInt16Type};
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, DictionaryArray, LargeStringArray, RecordBatch,
    StringArray, StringViewArray,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet_arrow::ParquetRecordBatchReaderBuilder;
use parquet_file::{Bytes, ColumnBatch, FileReader, RowSelection, WriterOptions};

use common::write;

/// Rows of the test files.
const ROWS: usize = 3000;

/// The value of row `i`, or `None` for a null: new values a few rows at a time, short
/// and long ones (views inline and by offset).
fn value(i: usize) -> Option<String> {
    (i % 7 != 3).then(|| {
        if i.is_multiple_of(2) {
            format!("a value longer than twelve bytes {}", i / 3)
        } else {
            format!("v{}", i / 3)
        }
    })
}

/// The values of a string or binary array of any layout, as bytes.
fn texts(array: &dyn Array) -> Vec<Option<Vec<u8>>> {
    let at = |i: usize, bytes: &dyn Fn(usize) -> Vec<u8>| array.is_valid(i).then(|| bytes(i));
    let n = array.len();
    match array.data_type() {
        DataType::Dictionary(..) => {
            let dictionary = array.as_any_dictionary();
            let values = texts(dictionary.values().as_ref());
            if values.is_empty() {
                return vec![None; n];
            }
            let keys = dictionary.normalized_keys();
            (0..n)
                .map(|i| at(i, &|i| values[keys[i]].clone().unwrap()))
                .collect()
        }
        DataType::Utf8 => (0..n)
            .map(|i| at(i, &|i| array.as_string::<i32>().value(i).into()))
            .collect(),
        DataType::LargeUtf8 => (0..n)
            .map(|i| at(i, &|i| array.as_string::<i64>().value(i).into()))
            .collect(),
        DataType::Binary => (0..n)
            .map(|i| at(i, &|i| array.as_binary::<i32>().value(i).into()))
            .collect(),
        DataType::Utf8View => (0..n)
            .map(|i| at(i, &|i| array.as_string_view().value(i).into()))
            .collect(),
        DataType::BinaryView => (0..n)
            .map(|i| at(i, &|i| array.as_binary_view().value(i).into()))
            .collect(),
        DataType::List(_) => {
            let list = array.as_list::<i32>();
            (0..n)
                .flat_map(|i| {
                    if list.is_valid(i) {
                        texts(list.value(i).as_ref())
                    } else {
                        vec![Some(b"<null list>".to_vec())]
                    }
                })
                .collect()
        }
        other => panic!("{other}"),
    }
}

/// A file whose string columns are dictionary-encoded until the dictionary page passes
/// 3000 bytes (a few pages into each row group), then PLAIN; pages of 100 rows, row
/// groups of 1200.
fn fallback_file() -> (SchemaRef, RecordBatch, Bytes) {
    let values: Vec<Option<String>> = (0..ROWS).map(value).collect();
    let mut list = ListBuilder::new(StringViewBuilder::new());
    for (i, v) in values.iter().enumerate() {
        if i % 11 == 5 {
            list.append_null();
        } else {
            list.values().append_option(v.as_deref());
            list.values().append_option(value(i + 1).as_deref());
            list.append(true);
        }
    }
    let list = list.finish();
    let schema = Arc::new(Schema::new(vec![
        Field::new_dictionary("d32", DataType::Int32, DataType::Utf8, true),
        Field::new_dictionary("d16", DataType::UInt16, DataType::Binary, true),
        Field::new("view", DataType::Utf8View, true),
        Field::new("bview", DataType::BinaryView, true),
        Field::new("list", list.data_type().clone(), true),
        Field::new("utf8", DataType::Utf8, true),
        Field::new("large", DataType::LargeUtf8, true),
        Field::new("binary", DataType::Binary, true),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(
            values
                .iter()
                .map(Option::as_deref)
                .collect::<DictionaryArray<Int32Type>>(),
        ),
        Arc::new(DictionaryArray::<UInt16Type>::new(
            (0..ROWS).map(|i| value(i).map(|_| i as u16)).collect(),
            Arc::new(
                values
                    .iter()
                    .map(|v| Some(v.as_ref().map_or(&b""[..], String::as_bytes)))
                    .collect::<BinaryArray>(),
            ),
        )),
        Arc::new(StringViewArray::from(values.clone())),
        Arc::new(
            values
                .iter()
                .map(|v| v.as_deref().map(str::as_bytes))
                .collect::<BinaryViewArray>(),
        ),
        Arc::new(list),
        Arc::new(StringArray::from(values.clone())),
        Arc::new(LargeStringArray::from(values.clone())),
        Arc::new(
            values
                .iter()
                .map(|v| v.as_deref().map(str::as_bytes))
                .collect::<BinaryArray>(),
        ),
    ];
    let batch = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let options = WriterOptions::new()
        .with_dictionary_page_bytes(3000)
        .with_page_rows(100)
        .with_row_group_rows(1200);
    let file = write(&schema, std::slice::from_ref(&batch), Some(options));
    (schema, batch, file)
}

/// The bytes of the dictionary of column `c` in row group `g`.
fn dictionary_bytes(file: &Bytes, g: usize, c: usize) -> usize {
    let reader = FileReader::open(file.clone()).unwrap();
    let mut batch = ColumnBatch::new(reader.schema().column(c).unwrap());
    batch.keep_dictionary(true);
    let mut chunk = reader.column_chunk(g, c).unwrap();
    chunk.read_records(50, &mut batch).unwrap();
    let indices = batch.take_dictionary_indices().unwrap();
    indices.dictionary().entries().data().len()
}

#[test]
fn dictionary_and_view_arrays_from_indices_read_as_written() {
    let (schema, written, file) = fallback_file();
    let reader = FileReader::open(file.clone()).unwrap();
    assert_eq!(reader.num_row_groups(), 3);
    for size in [1, 99, 100, 101, 250, 1000, 5000] {
        let builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
        let batches: Vec<RecordBatch> = builder
            .with_batch_size(size)
            .build()
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (c, field) in schema.fields().iter().enumerate() {
            let mut read = Vec::new();
            for batch in &batches {
                if c != 4 {
                    assert_eq!(batch.column(c).data_type(), field.data_type());
                }
                read.extend(texts(batch.column(c).as_ref()));
            }
            assert_eq!(
                read,
                texts(written.column(c).as_ref()),
                "{}, batches of {size}",
                field.name()
            );
        }
    }
}

#[test]
fn batches_of_a_chunk_share_its_dictionary() {
    let (_, _, file) = fallback_file();
    // Batches of 25 rows: the first page of each row group is dictionary-encoded.
    let batches: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(25)
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let per_group = 48;
    for g in 0..3 {
        let first = &batches[g * per_group];
        let second = &batches[g * per_group + 1];
        // The dictionary's values: one array, shared.
        for c in 0..2 {
            let a = first.column(c).as_any_dictionary();
            let b = second.column(c).as_any_dictionary();
            assert!(
                Arc::ptr_eq(a.values(), b.values()),
                "row group {g}, column {c}"
            );
            assert!(a.values().len() > 50);
        }
        // Views into the dictionary's bytes: one buffer, the dictionary's.
        let bytes = dictionary_bytes(&file, g, 2);
        for batch in [first, second] {
            let view = batch.column(2).as_string_view();
            assert_eq!(view.data_buffers().len(), 1);
            assert_eq!(view.data_buffers()[0].len(), bytes);
            let binary = batch.column(3).as_binary_view();
            assert_eq!(binary.data_buffers().len(), 1);
            assert_eq!(binary.data_buffers()[0].len(), bytes);
            let own: usize = (0..view.len())
                .filter(|&i| view.is_valid(i))
                .map(|i| view.value(i).len())
                .sum();
            assert_ne!(own, bytes);
        }
        assert!(
            first.column(2).as_string_view().data_buffers()[0]
                .ptr_eq(&second.column(2).as_string_view().data_buffers()[0])
        );
        // Another row group, another dictionary.
        if g > 0 {
            let before = batches[(g - 1) * per_group].column(0).as_any_dictionary();
            let now = first.column(0).as_any_dictionary();
            assert!(!Arc::ptr_eq(before.values(), now.values()));
        }
    }
}

#[test]
fn selected_rows_of_dictionary_columns() {
    let (schema, written, file) = fallback_file();
    let selection = RowSelection::from_ranges([150..420, 1190..1210, 2900..3000]);
    let batches: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_row_selection(selection)
        .with_batch_size(64)
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let rows: Vec<usize> = (150..420).chain(1190..1210).chain(2900..3000).collect();
    for c in 0..4 {
        let all = texts(written.column(c).as_ref());
        let expected: Vec<_> = rows.iter().map(|&r| all[r].clone()).collect();
        let read: Vec<_> = batches
            .iter()
            .flat_map(|b| texts(b.column(c).as_ref()))
            .collect();
        assert_eq!(read, expected, "{}", schema.field(c).name());
    }
}

#[test]
fn more_entries_than_the_keys_index_are_read_by_value() {
    // Batches of 100 rows with 100 distinct values each, 200 in all: the column chunk's
    // dictionary has more entries than Int8 keys index, each batch read fewer.
    let schema = Arc::new(Schema::new(vec![Field::new_dictionary(
        "d8",
        DataType::Int8,
        DataType::Utf8,
        true,
    )]));
    let value = |i: usize| (i % 9 != 4).then(|| format!("key {}", i % 200));
    let batches: Vec<RecordBatch> = (0..20)
        .map(|b| {
            let keys: DictionaryArray<Int8Type> = (b * 100..b * 100 + 100)
                .map(&value)
                .collect::<Vec<_>>()
                .iter()
                .map(Option::as_deref)
                .collect();
            RecordBatch::try_new(schema.clone(), vec![Arc::new(keys)]).unwrap()
        })
        .collect();
    let options = WriterOptions::new()
        .with_page_rows(100)
        .with_row_group_rows(1000);
    let file = write(&schema, &batches, Some(options));
    let expected: Vec<_> = (0..2000)
        .map(|i| value(i).map(String::into_bytes))
        .collect();
    for size in [1, 64, 99, 128] {
        let read: Vec<_> = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_batch_size(size)
            .build()
            .unwrap()
            .flat_map(|b| {
                let b = b.unwrap();
                assert_eq!(b.column(0).data_type(), schema.field(0).data_type());
                texts(b.column(0).as_ref())
            })
            .collect();
        assert_eq!(read, expected, "batches of {size}");
    }
}
