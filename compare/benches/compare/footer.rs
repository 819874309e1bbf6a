//! Footer decoding: `parquet_thrift::FileMetaData::read_from` against arrow-rs's
//! `ParquetMetaDataReader::decode_metadata`, on the Thrift bytes of a wide table's footer
//! (1,000 and 10,000 columns x 10 row groups, with statistics, encoding stats, page
//! index offsets and column orders). Both are checked to agree on offsets and statistics.

use crate::Bench;
use parquet::file::metadata::ParquetMetaDataReader;
use parquet_kit_compare::Rng;
use parquet_thrift::{
    ColumnChunk, ColumnMetaData, ColumnOrder, CompressionCodec, ConvertedType, Encoding,
    FieldRepetitionType, FileMetaData, KeyValue, LogicalType, PageEncodingStats, PageType,
    RowGroup, SchemaElement, Statistics, StringType, Type, TypeDefinedOrder,
};
use std::borrow::Cow;
use std::hint::black_box;

const ROW_GROUPS: usize = 10;

pub fn run(bench: &mut Bench) {
    for columns in [1_000, 10_000] {
        let name = format!("footer decode, {columns} columns x {ROW_GROUPS} row groups");
        if bench.wanted(&name) {
            decode(bench, &name, columns);
        }
    }
}

fn decode(bench: &mut Bench, name: &str, columns: usize) {
    let footer = wide_footer(columns, ROW_GROUPS);
    let mut bytes = Vec::new();
    footer.write_to(&mut bytes).unwrap();
    let (ours, len) = FileMetaData::read_from(&bytes).unwrap();
    assert_eq!((&ours, len), (&footer, bytes.len()));
    let theirs = ParquetMetaDataReader::decode_metadata(&bytes).unwrap();
    assert_eq!(theirs.num_row_groups(), ours.row_groups.len());
    assert_eq!(theirs.file_metadata().num_rows(), ours.num_rows);
    assert_eq!(theirs.file_metadata().schema_descr().num_columns(), columns);
    for (g, group) in ours.row_groups.iter().enumerate() {
        for (c, chunk) in group.columns.iter().enumerate() {
            let meta = chunk.meta_data.as_ref().unwrap();
            let their_chunk = theirs.row_group(g).column(c);
            assert_eq!(their_chunk.data_page_offset(), meta.data_page_offset);
            assert_eq!(
                their_chunk.dictionary_page_offset(),
                meta.dictionary_page_offset
            );
            let stats = meta.statistics.as_ref().unwrap();
            let their_stats = their_chunk.statistics().unwrap();
            assert_eq!(their_stats.min_bytes_opt(), stats.min_value.as_deref());
            assert_eq!(their_stats.max_bytes_opt(), stats.max_value.as_deref());
        }
    }
    bench.run(
        name,
        columns * ROW_GROUPS,
        bytes.len(),
        &mut || {
            drop(black_box(
                FileMetaData::read_from(black_box(&bytes)).unwrap(),
            ))
        },
        &mut || {
            drop(black_box(
                ParquetMetaDataReader::decode_metadata(black_box(&bytes)).unwrap(),
            ))
        },
    );
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
            let min = (rng.next_u64() % 1_000_000) as i64;
            let max = min + (rng.next_u64() % 1_000_000) as i64;
            (min.to_le_bytes().into(), max.to_le_bytes().into())
        }
        Type::DOUBLE => {
            let min = f64::from((rng.next_u64() % 1000) as u32) / 7.0;
            (min.to_le_bytes().into(), (min * 3.0).to_le_bytes().into())
        }
        Type::INT32 => {
            let min = (rng.next_u64() % 1000) as i32;
            (min.to_le_bytes().into(), (min + 500).to_le_bytes().into())
        }
        _ => (
            format!("aardvark_{}", rng.next_u64() % 1000).into_bytes(),
            format!("zebra_{}", rng.next_u64() % 1000).into_bytes(),
        ),
    }
}

/// Column chunk `i`, dictionary encoded, whose pages start at `*offset`.
fn column_chunk(rng: &mut Rng, i: usize, offset: &mut i64) -> ColumnChunk<'static> {
    let physical = TYPES[i % TYPES.len()];
    let (min, max) = bounds(rng, physical);
    let dictionary = *offset;
    let compressed = 1000 + (rng.next_u64() % 100_000) as i64;
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
                null_count: Some((rng.next_u64() % 100) as i64),
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
fn wide_footer(columns: usize, row_groups: usize) -> FileMetaData<'static> {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
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
