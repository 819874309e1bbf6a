//! The footer of a wide table, for the footer benchmarks of parquet-thrift and of the
//! arrow-rs comparison (`compare/`, which includes this file by path), so that both
//! measure the same bytes.

use std::borrow::Cow;

use parquet_thrift::{
    ColumnChunk, ColumnMetaData, ColumnOrder, CompressionCodec, ConvertedType, Encoding,
    FieldRepetitionType, FileMetaData, KeyValue, LogicalType, PageEncodingStats, PageType,
    RowGroup, SchemaElement, Statistics, StringType, Type, TypeDefinedOrder,
};

/// xorshift64: the same footer on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const TYPES: [Type; 4] = [Type::INT64, Type::BYTE_ARRAY, Type::DOUBLE, Type::INT32];

/// The schema of a wide table: INT64, string, DOUBLE and INT32 columns in turn, all
/// optional.
fn schema(columns: usize) -> Vec<SchemaElement<'static>> {
    let root = SchemaElement {
        name: Cow::Borrowed("schema"),
        num_children: Some(columns as i32),
        ..SchemaElement::default()
    };
    let leaves = (0..columns).map(|i| {
        let physical = TYPES[i % TYPES.len()];
        let string = physical == Type::BYTE_ARRAY;
        SchemaElement {
            type_: Some(physical),
            repetition_type: Some(FieldRepetitionType::OPTIONAL),
            name: Cow::Owned(format!("column_{i}")),
            converted_type: string.then_some(ConvertedType::UTF8),
            field_id: Some(i as i32),
            logical_type: string.then_some(LogicalType::String(StringType {})),
            ..SchemaElement::default()
        }
    });
    std::iter::once(root).chain(leaves).collect()
}

/// Plausible PLAIN-encoded bounds of a column of type `physical`.
fn bounds(rng: &mut Rng, physical: Type) -> (Vec<u8>, Vec<u8>) {
    match physical {
        Type::INT64 => {
            let min = (rng.next() % 1_000_000) as i64;
            let max = min + (rng.next() % 1_000_000) as i64;
            (min.to_le_bytes().into(), max.to_le_bytes().into())
        }
        Type::DOUBLE => {
            let min = f64::from((rng.next() % 1000) as u32) / 7.0;
            (min.to_le_bytes().into(), (min * 3.0).to_le_bytes().into())
        }
        Type::INT32 => {
            let min = (rng.next() % 1000) as i32;
            (min.to_le_bytes().into(), (min + 500).to_le_bytes().into())
        }
        _ => (
            format!("aardvark_{}", rng.next() % 1000).into_bytes(),
            format!("zebra_{}", rng.next() % 1000).into_bytes(),
        ),
    }
}

/// Column chunk `i`, dictionary encoded, whose pages start at `*offset`.
fn column_chunk(rng: &mut Rng, i: usize, offset: &mut i64) -> ColumnChunk<'static> {
    let physical = TYPES[i % TYPES.len()];
    let (min, max) = bounds(rng, physical);
    let dictionary = *offset;
    let compressed = 1000 + (rng.next() % 100_000) as i64;
    *offset += compressed;
    let legacy = physical != Type::BYTE_ARRAY;
    ColumnChunk {
        meta_data: Some(ColumnMetaData {
            type_: physical,
            encodings: [Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY].into(),
            path_in_schema: [Cow::Owned(format!("column_{i}"))].into(),
            codec: CompressionCodec::SNAPPY,
            num_values: 100_000,
            total_uncompressed_size: compressed * 2,
            total_compressed_size: compressed,
            data_page_offset: dictionary + 200,
            dictionary_page_offset: Some(dictionary),
            statistics: Some(Statistics {
                max: legacy.then(|| Cow::Owned(max.clone())),
                min: legacy.then(|| Cow::Owned(min.clone())),
                null_count: Some((rng.next() % 100) as i64),
                max_value: Some(Cow::Owned(max)),
                min_value: Some(Cow::Owned(min)),
                is_max_value_exact: Some(true),
                is_min_value_exact: Some(true),
                ..Statistics::default()
            }),
            encoding_stats: Some(
                [
                    PageEncodingStats {
                        page_type: PageType::DICTIONARY_PAGE,
                        encoding: Encoding::PLAIN,
                        count: 1,
                    },
                    PageEncodingStats {
                        page_type: PageType::DATA_PAGE,
                        encoding: Encoding::RLE_DICTIONARY,
                        count: 10,
                    },
                ]
                .into(),
            ),
            ..ColumnMetaData::default()
        }),
        offset_index_offset: Some(1_000_000_000 + i as i64 * 100),
        offset_index_length: Some(100),
        column_index_offset: Some(2_000_000_000 + i as i64 * 100),
        column_index_length: Some(100),
        ..ColumnChunk::default()
    }
}

/// A footer like a writer of a wide table produces: `columns` columns of four types in
/// turn, all optional and dictionary encoded, with chunk statistics, encoding stats,
/// page index offsets and column orders.
pub(crate) fn wide_footer(columns: usize, row_groups: usize) -> FileMetaData<'static> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut offset = 4i64;
    let row_groups = (0..row_groups)
        .map(|ordinal| {
            let start = offset;
            let columns = (0..columns)
                .map(|i| column_chunk(&mut rng, i, &mut offset))
                .collect();
            RowGroup {
                columns,
                total_byte_size: (offset - start) * 2,
                num_rows: 100_000,
                file_offset: Some(start),
                total_compressed_size: Some(offset - start),
                ordinal: Some(ordinal as i16),
                ..RowGroup::default()
            }
        })
        .collect::<Vec<_>>();
    FileMetaData {
        version: 1,
        schema: schema(columns),
        num_rows: 100_000 * row_groups.len() as i64,
        row_groups,
        key_value_metadata: Some(vec![KeyValue {
            key: Cow::Borrowed("writer.note"),
            value: Some(Cow::Borrowed("a wide table for the footer benchmark")),
        }]),
        created_by: Some(Cow::Borrowed("parquet-kit footer bench")),
        column_orders: Some(vec![ColumnOrder::TypeOrder(TypeDefinedOrder {}); columns]),
        ..FileMetaData::default()
    }
}
