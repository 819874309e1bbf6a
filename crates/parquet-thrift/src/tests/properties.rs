//! Property tests: arbitrary and mutated bytes decode or fail cleanly; arbitrary
//! structures round-trip.

use std::borrow::Cow;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::encode;
use crate::compact::{FieldType, Reader};
use crate::*;

/// Decodes `$bytes` as a `$ty`; when that succeeds, the value must re-encode to bytes
/// that decode to a value that encodes the same (compared through the encoding, as NaN
/// doubles are not equal to themselves).
macro_rules! decode_or_fail {
    ($ty:ident, $bytes:expr) => {
        if let Ok((value, len)) = $ty::read_from($bytes) {
            prop_assert!(len <= $bytes.len());
            let again = encode(&value);
            let (reread, reread_len) = $ty::read_from(&again).unwrap();
            prop_assert_eq!(reread_len, again.len());
            prop_assert_eq!(encode(&reread), again);
        }
    };
}

fn any_bytes_as_every_type(bytes: &[u8]) -> Result<(), TestCaseError> {
    decode_or_fail!(FileMetaData, bytes);
    decode_or_fail!(PageHeader, bytes);
    decode_or_fail!(ColumnIndex, bytes);
    decode_or_fail!(OffsetIndex, bytes);
    decode_or_fail!(ColumnMetaData, bytes);
    decode_or_fail!(ColumnChunk, bytes);
    decode_or_fail!(RowGroup, bytes);
    decode_or_fail!(SchemaElement, bytes);
    decode_or_fail!(LogicalType, bytes);
    decode_or_fail!(Statistics, bytes);
    decode_or_fail!(BloomFilterHeader, bytes);
    decode_or_fail!(FileCryptoMetaData, bytes);
    decode_or_fail!(GeospatialStatistics, bytes);
    let _ = Reader::new(bytes).skip_field(FieldType::Struct);
    let _ = Reader::new(bytes).skip_field(FieldType::List);
    let _ = Reader::new(bytes).skip_field(FieldType::Map);
    Ok(())
}

fn binary() -> impl Strategy<Value = Cow<'static, [u8]>> {
    vec(any::<u8>(), 0..20).prop_map(Cow::Owned)
}

fn statistics() -> impl Strategy<Value = Statistics<'static>> {
    (
        (
            option::of(binary()),
            option::of(binary()),
            any::<Option<i64>>(),
        ),
        (
            any::<Option<i64>>(),
            option::of(binary()),
            option::of(binary()),
        ),
        (
            any::<Option<bool>>(),
            any::<Option<bool>>(),
            any::<Option<i64>>(),
        ),
    )
        .prop_map(
            |(
                (max, min, null_count),
                (distinct_count, max_value, min_value),
                (is_max_value_exact, is_min_value_exact, nan_count),
            )| Statistics {
                max,
                min,
                null_count,
                distinct_count,
                max_value,
                min_value,
                is_max_value_exact,
                is_min_value_exact,
                nan_count,
            },
        )
}

fn page_header() -> impl Strategy<Value = PageHeader<'static>> {
    (
        any::<i32>(),
        any::<i32>(),
        any::<i32>(),
        any::<Option<i32>>(),
        option::of((any::<[i32; 4]>(), option::of(statistics()))),
        option::of((any::<[i32; 2]>(), any::<Option<bool>>())),
        option::of((
            any::<[i32; 6]>(),
            any::<Option<bool>>(),
            option::of(statistics()),
        )),
    )
        .prop_map(
            |(type_, uncompressed, compressed, crc, v1, dictionary, v2)| PageHeader {
                type_: PageType(type_),
                uncompressed_page_size: uncompressed,
                compressed_page_size: compressed,
                crc,
                data_page_header: v1.map(|([n, e, d, r], statistics)| DataPageHeader {
                    num_values: n,
                    encoding: Encoding(e),
                    definition_level_encoding: Encoding(d),
                    repetition_level_encoding: Encoding(r),
                    statistics,
                }),
                index_page_header: None,
                dictionary_page_header: dictionary.map(|([n, e], is_sorted)| {
                    DictionaryPageHeader {
                        num_values: n,
                        encoding: Encoding(e),
                        is_sorted,
                    }
                }),
                data_page_header_v2: v2.map(|([a, b, c, d, e, f], is_compressed, statistics)| {
                    DataPageHeaderV2 {
                        num_values: a,
                        num_nulls: b,
                        num_rows: c,
                        encoding: Encoding(d),
                        definition_levels_byte_length: e,
                        repetition_levels_byte_length: f,
                        is_compressed,
                        statistics,
                    }
                }),
            },
        )
}

fn column_index() -> impl Strategy<Value = ColumnIndex<'static>> {
    (0usize..40).prop_flat_map(|pages| {
        (
            vec(any::<bool>(), pages),
            vec(binary(), pages),
            vec(binary(), pages),
            any::<i32>(),
            option::of(vec(any::<i64>(), pages)),
            option::of(vec(any::<i64>(), 0..80)),
        )
            .prop_map(
                |(null_pages, min_values, max_values, order, null_counts, histograms)| {
                    ColumnIndex {
                        null_pages,
                        min_values,
                        max_values,
                        boundary_order: BoundaryOrder(order),
                        null_counts,
                        repetition_level_histograms: histograms.clone(),
                        definition_level_histograms: histograms,
                        nan_counts: None,
                    }
                },
            )
    })
}

fn schema_element() -> impl Strategy<Value = SchemaElement<'static>> {
    (
        ".{0,12}",
        any::<Option<i32>>(),
        any::<Option<i32>>(),
        prop_oneof![
            Just(None),
            Just(Some(LogicalType::String(StringType {}))),
            (any::<i32>(), any::<i32>()).prop_map(|(scale, precision)| Some(LogicalType::Decimal(
                DecimalType { scale, precision }
            ))),
            (any::<bool>(), 0u8..3).prop_map(|(utc, unit)| Some(LogicalType::Timestamp(
                TimestampType {
                    is_adjusted_to_utc: utc,
                    unit: match unit {
                        0 => TimeUnit::Millis(MilliSeconds {}),
                        1 => TimeUnit::Micros(MicroSeconds {}),
                        _ => TimeUnit::Nanos(NanoSeconds {}),
                    },
                }
            ))),
            option::of(".{0,8}").prop_map(|crs| Some(LogicalType::Geography(GeographyType {
                crs: crs.map(Cow::Owned),
                algorithm: None,
            }))),
        ],
    )
        .prop_map(|(name, type_, num_children, logical_type)| SchemaElement {
            type_: type_.map(Type),
            name: Cow::Owned(name),
            num_children,
            logical_type,
            ..SchemaElement::default()
        })
}

proptest! {
    #[test]
    fn arbitrary_bytes_decode_or_fail(bytes in vec(any::<u8>(), 0..600)) {
        any_bytes_as_every_type(&bytes)?;
    }

    #[test]
    fn bytes_that_look_like_thrift_decode_or_fail(
        // Mostly small field headers, list headers and stop bytes.
        bytes in vec(prop_oneof![
            4 => (0u8..16).prop_map(|t| 0x10 | t),
            2 => (0u8..16).prop_map(|t| (t << 4) | 0x0c),
            2 => Just(0u8),
            1 => Just(0xf9u8),
            1 => any::<u8>(),
        ], 0..400)
    ) {
        any_bytes_as_every_type(&bytes)?;
    }

    #[test]
    fn mutated_footers_decode_or_fail(
        changes in vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let bytes = encode(&footer());
        let mut mutated = bytes.clone();
        for (at, byte) in changes {
            let at = at.index(mutated.len());
            mutated[at] = byte;
        }
        any_bytes_as_every_type(&mutated)?;
        any_bytes_as_every_type(&mutated[..cut.index(mutated.len())])?;
    }

    #[test]
    fn page_headers_round_trip(header in page_header()) {
        let bytes = encode(&header);
        let (read, len) = PageHeader::read_from(&bytes).unwrap();
        prop_assert_eq!(len, bytes.len());
        prop_assert_eq!(&read, &header);
        prop_assert_eq!(encode(&read), bytes.clone());
        for end in 0..bytes.len() {
            prop_assert!(PageHeader::read_from(&bytes[..end]).is_err());
        }
    }

    #[test]
    fn column_indexes_round_trip(index in column_index()) {
        let bytes = encode(&index);
        let (read, len) = ColumnIndex::read_from(&bytes).unwrap();
        prop_assert_eq!(len, bytes.len());
        prop_assert_eq!(read, index);
    }

    #[test]
    fn schemas_round_trip(schema in vec(schema_element(), 0..20), num_rows: i64) {
        let footer = FileMetaData { schema, num_rows, ..FileMetaData::default() };
        let bytes = encode(&footer);
        let (read, len) = FileMetaData::read_from(&bytes).unwrap();
        prop_assert_eq!(len, bytes.len());
        prop_assert_eq!(read, footer);
    }
}

/// A small footer with a bit of everything, to mutate.
fn footer() -> FileMetaData<'static> {
    let chunk = ColumnChunk {
        meta_data: Some(ColumnMetaData {
            type_: Type::INT64,
            encodings: [Encoding::PLAIN, Encoding::RLE].into(),
            path_in_schema: [Cow::Borrowed("a")].into(),
            num_values: 1000,
            data_page_offset: 4,
            statistics: Some(Statistics {
                min_value: Some(Cow::Borrowed(&[1, 0, 0, 0, 0, 0, 0, 0])),
                max_value: Some(Cow::Borrowed(&[9, 0, 0, 0, 0, 0, 0, 0])),
                null_count: Some(0),
                ..Statistics::default()
            }),
            encoding_stats: Some(
                [PageEncodingStats {
                    page_type: PageType::DATA_PAGE,
                    encoding: Encoding::PLAIN,
                    count: 1,
                }]
                .into(),
            ),
            ..ColumnMetaData::default()
        }),
        ..ColumnChunk::default()
    };
    FileMetaData {
        version: 1,
        schema: vec![
            SchemaElement {
                name: Cow::Borrowed("schema"),
                num_children: Some(1),
                ..SchemaElement::default()
            },
            SchemaElement {
                type_: Some(Type::INT64),
                name: Cow::Borrowed("a"),
                logical_type: Some(LogicalType::Timestamp(TimestampType {
                    is_adjusted_to_utc: true,
                    unit: TimeUnit::Micros(MicroSeconds {}),
                })),
                ..SchemaElement::default()
            },
        ],
        num_rows: 1000,
        row_groups: vec![RowGroup {
            columns: vec![chunk.clone(), chunk],
            num_rows: 1000,
            ..RowGroup::default()
        }],
        created_by: Some(Cow::Borrowed("tests")),
        column_orders: Some(vec![ColumnOrder::TypeOrder(TypeDefinedOrder {})]),
        ..FileMetaData::default()
    }
}
