//! The nested table of the `arrow read ...: nested, ...` and `arrow write ...: nested, ...`
//! rows: `COMPARE_FILE_ROWS` rows (default 10,000,000) of four columns, generated
//! deterministically into [`BATCH`]-row `RecordBatch`es:
//!
//! - `id`: non-nullable INT64, the row number;
//! - `ints`: nullable `list<int64>`: a tenth of the lists null, a tenth empty, the rest
//!   of 1 to 8 elements, a tenth of them null, the others below 100,000;
//! - `point`: nullable `struct<a: int32, b: utf8>`: a tenth of the structs null; `a`
//!   (below 1,000) and `b` (one of 100 words of 5 to 15 letters) each null a fifth of
//!   the time in the others;
//! - `items`: non-nullable `list<struct<x: double, y: utf8>>` of 0 to 3 non-null
//!   elements (`x` prices in cents below 1,000, `y` `item-` and 1 to 5 hex digits).
//!
//! Its file is written by arrow-rs's `ArrowWriter` with its defaults (dictionary on, data
//! pages of 1 MiB, page statistics), the codec of the row, and row groups of
//! [`ROW_GROUP`] rows. A row's values are the levels of every leaf column (a null or
//! empty list counts one, as the column chunks' `num_values` count them); its bytes are
//! those of the arrays' value and offset buffers (validity bitmaps not counted).

use crate::file_read::{BATCH, ROW_GROUP};
use arrow_array::{
    Array, ArrayRef, Float64Array, Int32Array, Int64Array, ListArray, RecordBatch, StringArray,
    StructArray, make_array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader as _;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet_kit_compare::Rng;
use std::sync::Arc;

/// The nested table, as written.
pub(crate) struct Nested {
    /// The rows, in [`BATCH`]-row batches.
    pub(crate) batches: Vec<RecordBatch>,
    /// Levels of every leaf column: `id`, `ints.item`, `point.a`, `point.b`, `items.x`,
    /// `items.y`.
    pub(crate) values: usize,
    /// Bytes of the arrays' value and offset buffers.
    pub(crate) bytes: usize,
}

impl Nested {
    pub(crate) fn generate(rows: usize) -> Self {
        let mut rng = Rng::new(0x0E57_ED00);
        let words: Vec<String> = (0..100)
            .map(|_| {
                let len = 5 + rng.below(11) as usize;
                (0..len)
                    .map(|_| (b'a' + rng.below(26) as u8) as char)
                    .collect()
            })
            .collect();
        let mut values = 0;
        let batches: Vec<RecordBatch> = (0..rows)
            .step_by(BATCH)
            .map(|start| {
                let len = BATCH.min(rows - start);
                let (batch, levels) = batch(&mut rng, &words, start, len);
                values += levels;
                batch
            })
            .collect();
        let bytes = batches
            .iter()
            .flat_map(RecordBatch::columns)
            .map(|array| buffer_bytes(array.as_ref()))
            .sum();
        Self {
            batches,
            values,
            bytes,
        }
    }
}

/// Rows `start..start + len` of the table, and their leaf levels.
fn batch(rng: &mut Rng, words: &[String], start: usize, len: usize) -> (RecordBatch, usize) {
    // One level per row for each of the six leaves, and one more per list element past
    // the first.
    let mut levels = 6 * len;
    let id = Int64Array::from_iter_values(start as i64..(start + len) as i64);

    let mut offsets = vec![0_i32];
    let mut lists_valid = Vec::with_capacity(len);
    let mut ints = Vec::new();
    let mut ints_valid = Vec::new();
    for _ in 0..len {
        match rng.below(10) {
            0 => lists_valid.push(false),
            1 => lists_valid.push(true),
            _ => {
                let n = 1 + rng.below(8) as usize;
                for _ in 0..n {
                    let valid = rng.below(10) != 0;
                    ints.push(if valid { rng.below(100_000) as i64 } else { 0 });
                    ints_valid.push(valid);
                }
                levels += n - 1;
                lists_valid.push(true);
            }
        }
        offsets.push(ints.len() as i32);
    }
    let ints = ListArray::new(
        Arc::new(Field::new("item", DataType::Int64, true)),
        OffsetBuffer::new(offsets.into()),
        Arc::new(Int64Array::new(ints.into(), Some(ints_valid.into()))),
        Some(NullBuffer::from(lists_valid)),
    );

    let mut points_valid = Vec::with_capacity(len);
    let mut a = Vec::with_capacity(len);
    let mut b = Vec::with_capacity(len);
    for _ in 0..len {
        let valid = rng.below(10) != 0;
        points_valid.push(valid);
        if valid {
            a.push((rng.below(5) != 0).then(|| rng.below(1000) as i32));
            b.push((rng.below(5) != 0).then(|| words[rng.below(100) as usize].as_str()));
        } else {
            a.push(None);
            b.push(None);
        }
    }
    let point = StructArray::new(
        Fields::from(vec![
            Field::new("a", DataType::Int32, true),
            Field::new("b", DataType::Utf8, true),
        ]),
        vec![
            Arc::new(Int32Array::from(a)) as ArrayRef,
            Arc::new(StringArray::from(b)),
        ],
        Some(NullBuffer::from(points_valid)),
    );

    let mut offsets = vec![0_i32];
    let mut x = Vec::new();
    let mut y = Vec::new();
    for _ in 0..len {
        let n = rng.below(4) as usize;
        for _ in 0..n {
            x.push(rng.below(100_000) as f64 / 100.0);
            let digits = 1 + rng.below(5) as u32;
            y.push(format!("item-{:x}", rng.below(16_u64.pow(digits))));
        }
        levels += 2 * n.saturating_sub(1);
        offsets.push(x.len() as i32);
    }
    let item = Fields::from(vec![
        Field::new("x", DataType::Float64, false),
        Field::new("y", DataType::Utf8, false),
    ]);
    let items = StructArray::new(
        item.clone(),
        vec![
            Arc::new(Float64Array::from(x)) as ArrayRef,
            Arc::new(StringArray::from_iter_values(y)),
        ],
        None,
    );
    let items = ListArray::new(
        Arc::new(Field::new("item", DataType::Struct(item), false)),
        OffsetBuffer::new(offsets.into()),
        Arc::new(items),
        None,
    );

    let columns: [(&str, ArrayRef, bool); 4] = [
        ("id", Arc::new(id), false),
        ("ints", Arc::new(ints), true),
        ("point", Arc::new(point), true),
        ("items", Arc::new(items), false),
    ];
    (
        RecordBatch::try_from_iter_with_nullable(columns).unwrap(),
        levels,
    )
}

/// Bytes of the value and offset buffers of `array` and its children.
fn buffer_bytes(array: &dyn Array) -> usize {
    let data = array.to_data();
    let own: usize = data.buffers().iter().map(|b| b.len()).sum();
    let children: usize = data
        .child_data()
        .iter()
        .map(|child| buffer_bytes(make_array(child.clone()).as_ref()))
        .sum();
    own + children
}

/// Writes `nested` with arrow-rs's `ArrowWriter`, its defaults but `codec` and row groups
/// of [`ROW_GROUP`] rows.
pub(crate) fn write_nested(nested: &Nested, codec: Compression) -> Bytes {
    let properties = WriterProperties::builder()
        .set_compression(codec)
        .set_max_row_group_row_count(Some(ROW_GROUP))
        .build();
    let schema = nested.batches[0].schema();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema, Some(properties)).unwrap();
    for batch in &nested.batches {
        writer.write(batch).unwrap();
    }
    Bytes::from(writer.into_inner().unwrap())
}

/// The levels of every column chunk of `file`, as its footer counts them, and its
/// number of row groups.
pub(crate) fn leaf_values(file: &Bytes) -> (usize, usize) {
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let groups = reader.metadata().row_groups();
    let values = groups
        .iter()
        .flat_map(|group| group.columns())
        .map(|chunk| chunk.num_values() as usize)
        .sum();
    (values, groups.len())
}
