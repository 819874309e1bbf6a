//! Every structure of parquet.thrift, round-tripped; forward compatibility; errors.

use std::borrow::Cow;

use super::{encode, round_trip};
use crate::compact::{FieldType, Reader, Writer};
use crate::*;

fn b(bytes: &'static [u8]) -> Cow<'static, [u8]> {
    Cow::Borrowed(bytes)
}

fn s(text: &'static str) -> Cow<'static, str> {
    Cow::Borrowed(text)
}

fn statistics() -> Statistics<'static> {
    Statistics {
        max: Some(b(b"\x07\0\0\0")),
        min: Some(b(b"\x01\0\0\0")),
        null_count: Some(0),
        distinct_count: Some(7),
        max_value: Some(b(b"\x07\0\0\0")),
        min_value: Some(b(b"")),
        is_max_value_exact: Some(true),
        is_min_value_exact: Some(false),
        nan_count: Some(i64::MAX),
    }
}

fn every_logical_type() -> Vec<LogicalType<'static>> {
    let utc = |unit| TimestampType {
        is_adjusted_to_utc: true,
        unit,
    };
    vec![
        LogicalType::String(StringType {}),
        LogicalType::Map(MapType {}),
        LogicalType::List(ListType {}),
        LogicalType::Enum(EnumType {}),
        LogicalType::Decimal(DecimalType {
            scale: 2,
            precision: 38,
        }),
        LogicalType::Date(DateType {}),
        LogicalType::Time(TimeType {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Millis(MilliSeconds {}),
        }),
        LogicalType::Timestamp(utc(TimeUnit::Micros(MicroSeconds {}))),
        LogicalType::Timestamp(utc(TimeUnit::Nanos(NanoSeconds {}))),
        LogicalType::Integer(IntType {
            bit_width: 8,
            is_signed: false,
        }),
        LogicalType::Integer(IntType {
            bit_width: 64,
            is_signed: true,
        }),
        LogicalType::Unknown(NullType {}),
        LogicalType::Json(JsonType {}),
        LogicalType::Bson(BsonType {}),
        LogicalType::Uuid(UuidType {}),
        LogicalType::Float16(Float16Type {}),
        LogicalType::Variant(VariantType {
            specification_version: Some(1),
        }),
        LogicalType::Variant(VariantType::default()),
        LogicalType::Geometry(GeometryType { crs: None }),
        LogicalType::Geometry(GeometryType {
            crs: Some(s("OGC:CRS84")),
        }),
        LogicalType::Geography(GeographyType {
            crs: Some(s("srid:4326")),
            algorithm: Some(EdgeInterpolationAlgorithm::KARNEY),
        }),
        LogicalType::File(FileType {}),
    ]
}

fn schema() -> Vec<SchemaElement<'static>> {
    let mut schema = vec![SchemaElement {
        name: s("root"),
        num_children: Some(i32::try_from(every_logical_type().len()).unwrap() + 1),
        ..SchemaElement::default()
    }];
    for (i, logical_type) in every_logical_type().into_iter().enumerate() {
        schema.push(SchemaElement {
            type_: Some(Type::BYTE_ARRAY),
            repetition_type: Some(FieldRepetitionType::OPTIONAL),
            name: Cow::Owned(format!("c{i}")),
            field_id: Some(i32::try_from(i).unwrap()),
            logical_type: Some(logical_type),
            ..SchemaElement::default()
        });
    }
    schema.push(SchemaElement {
        type_: Some(Type::FIXED_LEN_BYTE_ARRAY),
        type_length: Some(16),
        repetition_type: Some(FieldRepetitionType::REQUIRED),
        name: s("legacy decimal"),
        num_children: None,
        converted_type: Some(ConvertedType::DECIMAL),
        scale: Some(-3),
        precision: Some(30),
        field_id: Some(-1),
        logical_type: None,
    });
    schema
}

fn column_meta_data() -> ColumnMetaData<'static> {
    ColumnMetaData {
        type_: Type::INT32,
        encodings: [
            Encoding::PLAIN,
            Encoding::RLE,
            Encoding::BIT_PACKED,
            Encoding(77),
        ]
        .into(),
        path_in_schema: [s("a"), s("b"), s("c")].into(),
        codec: CompressionCodec::ZSTD,
        num_values: 1 << 40,
        total_uncompressed_size: 123_456_789,
        total_compressed_size: 12_345,
        key_value_metadata: Some(vec![
            KeyValue {
                key: s("k"),
                value: Some(s("v")),
            },
            KeyValue {
                key: s("no value"),
                value: None,
            },
        ]),
        data_page_offset: 4,
        index_page_offset: Some(5),
        dictionary_page_offset: Some(0),
        statistics: Some(statistics()),
        encoding_stats: Some(
            [
                PageType::DATA_PAGE,
                PageType::DICTIONARY_PAGE,
                PageType::DATA_PAGE_V2,
                PageType(9),
            ]
            .into_iter()
            .map(|page_type| PageEncodingStats {
                page_type,
                encoding: Encoding::RLE_DICTIONARY,
                count: -1,
            })
            .collect(),
        ),
        bloom_filter_offset: Some(99),
        bloom_filter_length: Some(1024),
        size_statistics: Some(Box::new(SizeStatistics {
            unencoded_byte_array_data_bytes: Some(10),
            repetition_level_histogram: Some([1, 2].into()),
            definition_level_histogram: Some(vec![1, 2, 3, 4].into()),
        })),
        geospatial_statistics: Some(Box::new(GeospatialStatistics {
            bbox: Some(BoundingBox {
                xmin: -180.0,
                xmax: 180.0,
                ymin: -90.0,
                ymax: 90.0,
                zmin: Some(0.5),
                zmax: None,
                mmin: Some(f64::MIN_POSITIVE),
                mmax: Some(f64::INFINITY),
            }),
            geospatial_types: Some(vec![1, 3, 1001]),
        })),
    }
}

fn column_chunks(count: usize) -> Vec<ColumnChunk<'static>> {
    (0..count)
        .map(|i| ColumnChunk {
            file_path: (i == 1).then(|| s("elsewhere.parquet")),
            file_offset: i64::try_from(i).unwrap(),
            meta_data: Some(column_meta_data()),
            offset_index_offset: Some(1000),
            offset_index_length: Some(10),
            column_index_offset: Some(2000),
            column_index_length: Some(20),
            crypto_metadata: match i % 3 {
                0 => None,
                1 => Some(Box::new(ColumnCryptoMetaData::EncryptionWithFooterKey(
                    EncryptionWithFooterKey {},
                ))),
                _ => Some(Box::new(ColumnCryptoMetaData::EncryptionWithColumnKey(
                    EncryptionWithColumnKey {
                        path_in_schema: vec![s("a"), s("b")],
                        key_metadata: Some(b(b"key")),
                    },
                ))),
            },
            encrypted_column_metadata: (i == 2).then(|| b(b"\0\x01\x02")),
        })
        .collect()
}

/// A footer with every field of every structure it can hold set, and 20 columns in a
/// row group, so that lists take the long form.
fn full_file_metadata() -> FileMetaData<'static> {
    FileMetaData {
        version: 2,
        schema: schema(),
        num_rows: 1_000_000,
        row_groups: vec![
            RowGroup {
                columns: column_chunks(20),
                total_byte_size: 1 << 33,
                num_rows: 500_000,
                sorting_columns: Some(vec![
                    SortingColumn {
                        column_idx: 0,
                        descending: true,
                        nulls_first: false,
                    },
                    SortingColumn {
                        column_idx: 3,
                        descending: false,
                        nulls_first: true,
                    },
                ]),
                file_offset: Some(4),
                total_compressed_size: Some(1 << 20),
                ordinal: Some(0),
            },
            RowGroup {
                columns: column_chunks(1),
                total_byte_size: 0,
                num_rows: 0,
                sorting_columns: None,
                file_offset: None,
                total_compressed_size: None,
                ordinal: Some(i16::MIN),
            },
        ],
        key_value_metadata: Some(vec![KeyValue {
            key: s("ARROW:schema"),
            value: Some(s("/////w==")),
        }]),
        created_by: Some(s("parquet-kit tests")),
        column_orders: Some(vec![
            ColumnOrder::TypeOrder(TypeDefinedOrder {}),
            ColumnOrder::Ieee754TotalOrder(Ieee754TotalOrder {}),
            ColumnOrder::Int96TimestampOrder(Int96TimestampOrder {}),
        ]),
        encryption_algorithm: Some(EncryptionAlgorithm::AesGcmV1(AesGcmV1 {
            aad_prefix: Some(b(b"prefix")),
            aad_file_unique: Some(b(b"unique")),
            supply_aad_prefix: Some(false),
        })),
        footer_signing_key_metadata: Some(b(b"signing key")),
    }
}

#[test]
fn file_metadata_round_trips() {
    let bytes = round_trip!(FileMetaData, full_file_metadata());
    // Everything borrowed from the input is borrowed, not copied.
    let (read, _) = FileMetaData::read_from(&bytes).unwrap();
    assert!(matches!(read.created_by, Some(Cow::Borrowed(_))));
    let chunk = &read.row_groups[0].columns[0];
    let meta_data = chunk.meta_data.as_ref().unwrap();
    assert!(matches!(meta_data.path_in_schema[0], Cow::Borrowed("a")));
    assert!(matches!(
        meta_data.statistics.as_ref().unwrap().max,
        Some(Cow::Borrowed(b"\x07\0\0\0"))
    ));
    // Three path elements do not fit inline: they went to the heap, and compare equal.
    assert!(!meta_data.path_in_schema.is_inline());
    assert!(meta_data.encodings.is_inline());
    // `into_owned` frees the structure from its input.
    let owned: FileMetaData<'static> = read.into_owned();
    drop(bytes);
    assert_eq!(owned, full_file_metadata());
    assert!(matches!(owned.created_by, Some(Cow::Owned(_))));

    // The smallest footer.
    round_trip!(FileMetaData, FileMetaData::default());
}

#[test]
fn every_logical_type_round_trips() {
    for logical_type in every_logical_type() {
        let bytes = round_trip!(LogicalType, logical_type.clone());
        assert!(logical_type.name().is_some());
        // As a field of a schema element, too.
        let element = SchemaElement {
            name: s("x"),
            logical_type: Some(logical_type),
            ..SchemaElement::default()
        };
        let element_bytes = round_trip!(SchemaElement, element);
        assert!(element_bytes.windows(bytes.len()).any(|w| w == bytes));
    }
}

#[test]
fn page_headers_round_trip() {
    let data_page = PageHeader {
        type_: PageType::DATA_PAGE,
        uncompressed_page_size: 100,
        compressed_page_size: 50,
        crc: Some(i32::MIN),
        data_page_header: Some(DataPageHeader {
            num_values: 10,
            encoding: Encoding::PLAIN,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::BIT_PACKED,
            statistics: Some(statistics()),
        }),
        ..PageHeader::default()
    };
    round_trip!(PageHeader, data_page);
    for is_sorted in [None, Some(true), Some(false)] {
        round_trip!(
            PageHeader,
            PageHeader {
                type_: PageType::DICTIONARY_PAGE,
                uncompressed_page_size: 8,
                compressed_page_size: 8,
                dictionary_page_header: Some(DictionaryPageHeader {
                    num_values: 2,
                    encoding: Encoding::PLAIN_DICTIONARY,
                    is_sorted,
                }),
                ..PageHeader::default()
            }
        );
    }
    for is_compressed in [None, Some(true), Some(false)] {
        round_trip!(
            PageHeader,
            PageHeader {
                type_: PageType::DATA_PAGE_V2,
                uncompressed_page_size: 0,
                compressed_page_size: 0,
                crc: None,
                data_page_header_v2: Some(DataPageHeaderV2 {
                    num_values: 3,
                    num_nulls: 1,
                    num_rows: 2,
                    encoding: Encoding::DELTA_BYTE_ARRAY,
                    definition_levels_byte_length: 4,
                    repetition_levels_byte_length: 0,
                    is_compressed,
                    statistics: Some(Statistics::default()),
                }),
                ..PageHeader::default()
            }
        );
    }
    round_trip!(
        PageHeader,
        PageHeader {
            type_: PageType::INDEX_PAGE,
            index_page_header: Some(IndexPageHeader {}),
            ..PageHeader::default()
        }
    );
}

#[test]
fn page_index_round_trips() {
    let pages = 20;
    round_trip!(
        ColumnIndex,
        ColumnIndex {
            null_pages: (0..pages).map(|i| i % 3 == 0).collect(),
            min_values: (0..pages)
                .map(|i| Cow::Owned(vec![i; usize::from(i)]))
                .collect(),
            max_values: (0..pages).map(|_| b(b"zz")).collect(),
            boundary_order: BoundaryOrder::ASCENDING,
            null_counts: Some((0..i64::from(pages)).collect()),
            repetition_level_histograms: Some(vec![]),
            definition_level_histograms: Some(vec![1, 2, 3]),
            nan_counts: Some(vec![0; 20]),
        }
    );
    round_trip!(ColumnIndex, ColumnIndex::default());
    round_trip!(
        OffsetIndex static,
        OffsetIndex {
            page_locations: (0..pages)
                .map(|i| PageLocation {
                    offset: i64::from(i) * 1000,
                    compressed_page_size: 1000,
                    first_row_index: i64::from(i) * 100,
                })
                .collect(),
            unencoded_byte_array_data_bytes: Some(vec![5; 20]),
        }
    );
}

#[test]
fn bloom_filter_and_crypto_round_trip() {
    let header = BloomFilterHeader {
        num_bytes: 1 << 20,
        algorithm: BloomFilterAlgorithm::Block(SplitBlockAlgorithm {}),
        hash: BloomFilterHash::XxHash(XxHash {}),
        compression: BloomFilterCompression::Uncompressed(Uncompressed {}),
    };
    let bytes = round_trip!(BloomFilterHeader static, header.clone());
    // What parquet-mr writes: each union holds an empty struct.
    assert_eq!(
        bytes,
        [
            0x15, 0x80, 0x80, 0x80, 0x01, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
            0x1c, 0x00, 0x00, 0x00
        ]
    );
    for algorithm in [
        EncryptionAlgorithm::AesGcmV1(AesGcmV1::default()),
        EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1 {
            aad_prefix: None,
            aad_file_unique: Some(b(b"\x01\x02")),
            supply_aad_prefix: Some(true),
        }),
    ] {
        round_trip!(
            FileCryptoMetaData,
            FileCryptoMetaData {
                encryption_algorithm: algorithm,
                key_metadata: Some(b(b"kms")),
            }
        );
    }
}

#[test]
fn enums() {
    assert_eq!(Encoding::RLE_DICTIONARY.0, 8);
    assert_eq!(Encoding::RLE_DICTIONARY.name(), Some("RLE_DICTIONARY"));
    assert_eq!(Encoding(1).name(), None);
    assert!(!Encoding(1).is_known());
    assert_eq!(format!("{:?}", Encoding::ALP), "ALP");
    assert_eq!(format!("{:?}", Encoding(42)), "Encoding(42)");
    assert_eq!(format!("{}", CompressionCodec::LZ4_RAW), "LZ4_RAW");
    assert_eq!(format!("{}", CompressionCodec(-3)), "-3");
    assert_eq!(ConvertedType::KNOWN.len(), 22);
    assert_eq!(Type::KNOWN.last(), Some(&Type::FIXED_LEN_BYTE_ARRAY));
    assert_eq!(i32::from(BoundaryOrder::DESCENDING), 2);
    assert_eq!(PageType::from(3), PageType::DATA_PAGE_V2);
    assert_eq!(
        EdgeInterpolationAlgorithm::default(),
        EdgeInterpolationAlgorithm::SPHERICAL
    );
    assert_eq!(
        FieldRepetitionType::KNOWN,
        [
            FieldRepetitionType::REQUIRED,
            FieldRepetitionType::OPTIONAL,
            FieldRepetitionType::REPEATED
        ]
    );
    for (i, value) in Encoding::KNOWN.iter().enumerate() {
        assert!(value.is_known());
        if let Some(next) = Encoding::KNOWN.get(i + 1) {
            assert!(value < next);
        }
    }
}

#[test]
fn unknown_enum_values_are_kept() {
    // A new encoding, codec, page type and repetition (VECTOR, 3), read and written back.
    let chunk = ColumnMetaData {
        type_: Type(8),
        encodings: [Encoding(11), Encoding(-1)].into(),
        codec: CompressionCodec(8),
        encoding_stats: Some(
            [PageEncodingStats {
                page_type: PageType(4),
                encoding: Encoding(12),
                count: 1,
            }]
            .into(),
        ),
        ..ColumnMetaData::default()
    };
    let bytes = round_trip!(ColumnMetaData, chunk);
    let (read, _) = ColumnMetaData::read_from(&bytes).unwrap();
    assert_eq!(read.encodings[0], Encoding(11));
    assert_eq!(read.codec.name(), None);
    round_trip!(
        SchemaElement,
        SchemaElement {
            name: s("v"),
            repetition_type: Some(FieldRepetitionType(3)),
            converted_type: Some(ConvertedType(22)),
            ..SchemaElement::default()
        }
    );
}

/// `bytes` (an encoded struct) with the fields written by `extra` inserted before its
/// stop byte, their headers relative to `last_id`.
fn with_fields(bytes: &[u8], extra: impl FnOnce(&mut Writer<'_>)) -> Vec<u8> {
    let mut out = bytes[..bytes.len() - 1].to_vec();
    extra(&mut Writer::new(&mut out));
    out.push(0);
    out
}

#[test]
fn unknown_fields_are_skipped() {
    let header = PageHeader {
        type_: PageType::DATA_PAGE,
        uncompressed_page_size: 100,
        compressed_page_size: 50,
        crc: Some(7),
        data_page_header: Some(DataPageHeader {
            num_values: 10,
            encoding: Encoding::PLAIN,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::RLE,
            statistics: None,
        }),
        ..PageHeader::default()
    };
    let bytes = encode(&header);
    // One unknown field of every type at the end, the struct one nested and holding a
    // list of structs and a map.
    let mut extended = with_fields(&bytes, |w| {
        w.write_bool_field(20, 5, true);
        w.write_bool_field(21, 20, false);
        w.write_field_header(FieldType::Byte, 22, 21);
        w.write_i8(1);
        w.write_field_header(FieldType::I16, 23, 22);
        w.write_i16(-2);
        w.write_field_header(FieldType::I32, 24, 23);
        w.write_i32(3);
        w.write_field_header(FieldType::I64, 25, 24);
        w.write_i64(-4);
        w.write_field_header(FieldType::Double, 26, 25);
        w.write_double(5.0);
        w.write_field_header(FieldType::Binary, 27, 26);
        w.write_binary(b"six").unwrap();
        w.write_field_header(FieldType::Uuid, 28, 27);
        w.write_uuid(&[7; 16]);
        w.write_field_header(FieldType::Set, 29, 28);
        w.write_set_header(FieldType::I32, 2).unwrap();
        w.write_i32(8);
        w.write_i32(9);
        w.write_field_header(FieldType::Struct, 1000, 29);
        {
            w.write_field_header(FieldType::List, 1, 0);
            w.write_list_header(FieldType::Struct, 2).unwrap();
            w.write_stop();
            w.write_field_header(FieldType::Map, 3, 0);
            w.write_map_header(FieldType::Binary, FieldType::Struct, 1)
                .unwrap();
            w.write_binary(b"k").unwrap();
            w.write_bool_field(1, 0, true);
            w.write_stop();
            w.write_stop();
            w.write_field_header(FieldType::Map, 2, 1);
            w.write_map_header(FieldType::I32, FieldType::I32, 0)
                .unwrap();
            w.write_stop();
        }
    });
    let (read, len) = PageHeader::read_from(&extended).unwrap();
    assert_eq!((read, len), (header.clone(), extended.len()));
    // Every prefix of it is still an error.
    for end in 0..extended.len() {
        assert!(PageHeader::read_from(&extended[..end]).is_err());
    }

    // An unknown field in the middle (between fields 3 and 4), with a long header, and
    // one inside the nested data page header.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.write_field_header(FieldType::I32, 1, 0);
    w.write_i32(0);
    w.write_field_header(FieldType::I32, 2, 1);
    w.write_i32(100);
    w.write_field_header(FieldType::I32, 3, 2);
    w.write_i32(50);
    w.write_field_header(FieldType::Binary, 3000, 3);
    w.write_binary(b"from the future").unwrap();
    w.write_field_header(FieldType::I32, 4, 3000);
    w.write_i32(7);
    w.write_field_header(FieldType::Struct, 5, 4);
    for (id, value) in [(1, 10), (2, 0), (3, 3), (4, 3)] {
        w.write_field_header(FieldType::I32, id, id - 1);
        w.write_i32(value);
    }
    w.write_field_header(FieldType::List, 9, 4);
    w.write_list_header(FieldType::Double, 1).unwrap();
    w.write_double(0.0);
    w.write_stop();
    w.write_stop();
    assert_eq!(PageHeader::read_from(&out).unwrap().0, header);

    // Fields in reverse order, all with long headers, read the same.
    extended.clear();
    let mut w = Writer::new(&mut extended);
    w.write_field_header(FieldType::Struct, 5, 0);
    for (id, value) in [(4, 3), (3, 3), (2, 0), (1, 10)] {
        w.write_field_header(FieldType::I32, id, 10);
        w.write_i32(value);
    }
    w.write_stop();
    for (id, value) in [(4, 7), (3, 50), (2, 100), (1, 0)] {
        w.write_field_header(FieldType::I32, id, 5);
        w.write_i32(value);
    }
    w.write_stop();
    assert_eq!(PageHeader::read_from(&extended).unwrap().0, header);
}

#[test]
fn repeated_fields_take_the_last_value() {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.write_field_header(FieldType::Binary, 1, 0);
    w.write_binary(b"first").unwrap();
    w.write_field_header(FieldType::Binary, 2, 1);
    w.write_binary(b"value").unwrap();
    w.write_field_header(FieldType::Binary, 1, 2);
    w.write_binary(b"second").unwrap();
    w.write_stop();
    assert_eq!(
        KeyValue::read_from(&out).unwrap().0,
        KeyValue {
            key: s("second"),
            value: Some(s("value")),
        }
    );
    // A nested struct given twice is replaced, not merged.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    for (id, last, value) in [(1, 0, 0), (2, 1, 0), (3, 2, 0)] {
        w.write_field_header(FieldType::I32, id, last);
        w.write_i32(value);
    }
    w.write_field_header(FieldType::Struct, 7, 3);
    w.write_field_header(FieldType::I32, 1, 0);
    w.write_i32(1);
    w.write_field_header(FieldType::I32, 2, 1);
    w.write_i32(0);
    w.write_bool_field(3, 2, true);
    w.write_stop();
    w.write_field_header(FieldType::Struct, 7, 7);
    w.write_field_header(FieldType::I32, 1, 0);
    w.write_i32(2);
    w.write_field_header(FieldType::I32, 2, 1);
    w.write_i32(0);
    w.write_stop();
    w.write_stop();
    let (header, _) = PageHeader::read_from(&out).unwrap();
    assert_eq!(
        header.dictionary_page_header,
        Some(DictionaryPageHeader {
            num_values: 2,
            encoding: Encoding::PLAIN,
            is_sorted: None,
        })
    );
    // A base-type field given twice, the second time with a long header.
    let (stats, _) = SizeStatistics::read_from(&[0x16, 0x0a, 0x06, 0x02, 0x0c, 0x00]).unwrap();
    assert_eq!(stats.unencoded_byte_array_data_bytes, Some(6));
}

#[test]
fn unknown_union_members_are_kept() {
    // A logical type from the future, member 30, holding a struct with a string and a
    // nested struct; and column orders and encryption algorithms with new members.
    let mut member = Vec::new();
    let mut w = Writer::new(&mut member);
    w.write_field_header(FieldType::Binary, 1, 0);
    w.write_binary(b"collation: en_US").unwrap();
    w.write_field_header(FieldType::Struct, 2, 1);
    w.write_bool_field(1, 0, false);
    w.write_stop();
    w.write_stop();
    let mut bytes = vec![0x0c, 0x3c];
    bytes.extend_from_slice(&member);
    bytes.push(0x00);
    let expected = LogicalType::Unrecognized(UnrecognizedMember {
        id: 30,
        field_type: FieldType::Struct,
        value: member,
    });
    super::check_decoding::<LogicalType<'_>>(&bytes, &expected);
    assert_eq!(expected.field_id(), 30);
    assert_eq!(expected.name(), None);

    // Inside a schema element and a footer, next to known members.
    let element = SchemaElement {
        name: s("future"),
        logical_type: Some(expected.clone()),
        ..SchemaElement::default()
    };
    round_trip!(SchemaElement, element);
    let footer = FileMetaData {
        column_orders: Some(vec![
            ColumnOrder::TypeOrder(TypeDefinedOrder {}),
            ColumnOrder::Unrecognized(UnrecognizedMember {
                id: 4,
                field_type: FieldType::Struct,
                value: vec![0],
            }),
        ]),
        encryption_algorithm: Some(EncryptionAlgorithm::Unrecognized(UnrecognizedMember {
            id: 3,
            field_type: FieldType::BooleanTrue,
            value: vec![],
        })),
        ..FileMetaData::default()
    };
    round_trip!(FileMetaData, footer);
    round_trip!(
        TimeUnit static,
        TimeUnit::Unrecognized(UnrecognizedMember {
            id: 4,
            field_type: FieldType::I32,
            value: vec![0x02],
        })
    );
}

#[test]
fn unions_hold_exactly_one_member() {
    assert_eq!(
        LogicalType::read_from(&[0x00]),
        Err(Error::invalid("LogicalType without a member", 0, 0))
    );
    assert_eq!(
        TimeUnit::read_from(&[0x1c, 0x00, 0x1c, 0x00, 0x00]),
        Err(Error::invalid("TimeUnit with more than one member", 0, 2))
    );
    // The error names the union even inside a struct, with the union's offset.
    let bytes = [0x11, 0x1c, 0x00, 0x00];
    assert_eq!(
        TimestampType::read_from(&bytes),
        Err(Error::invalid("TimeUnit without a member", 2, 0))
    );
    assert_eq!(
        TimeUnit::read_from(&[0x1c, 0x00, 0x00]).unwrap().0,
        TimeUnit::Millis(MilliSeconds {})
    );
}

#[test]
fn missing_required_fields_are_named() {
    // A page header with its type and uncompressed size only.
    let bytes = [0x15, 0x00, 0x15, 0x02, 0x00];
    let error = PageHeader::read_from(&bytes).unwrap_err();
    assert_eq!(
        error,
        Error::invalid(
            "PageHeader without required field compressed_page_size",
            0,
            3
        )
    );
    assert_eq!(
        error.to_string(),
        "invalid PageHeader without required field compressed_page_size at offset 0: 3"
    );
    // Nested: a key/value pair without its key, third in a list at offset 5 of the
    // struct that holds it.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.write_field_header(FieldType::List, 8, 0);
    w.write_list_header(FieldType::Struct, 1).unwrap();
    w.write_field_header(FieldType::Binary, 2, 0);
    w.write_binary(b"v").unwrap();
    w.write_stop();
    w.write_stop();
    assert_eq!(
        ColumnMetaData::read_from(&out),
        Err(Error::invalid("KeyValue without required field key", 2, 1))
    );
    // Empty input.
    assert_eq!(
        FileMetaData::read_from(&[]),
        Err(Error::truncated("FileMetaData field header", 0, 1, 0))
    );
}

#[test]
fn fields_of_another_type_are_skipped() {
    // As Thrift's own readers do: some writers reuse field ids (one writes a list of
    // structs as ColumnMetaData field 15, declared `i32 bloom_filter_length`).
    let mut bytes = encode(&ColumnMetaData::default());
    let stop = bytes.pop();
    let mut w = Writer::new(&mut bytes);
    w.write_field_header(FieldType::List, 15, 9);
    w.write_list_header(FieldType::Struct, 1).unwrap();
    w.write_field_header(FieldType::I64, 2, 0);
    w.write_i64(22);
    w.write_stop();
    bytes.extend(stop);
    assert_eq!(
        ColumnMetaData::read_from(&bytes).unwrap().0,
        ColumnMetaData::default()
    );
    // A required field skipped that way is missing: PageHeader.uncompressed_page_size as
    // an i64, SortingColumn.descending as an i32.
    assert_eq!(
        PageHeader::read_from(&[0x15, 0x00, 0x16, 0x02, 0x15, 0x04, 0x00]),
        Err(Error::invalid(
            "PageHeader without required field uncompressed_page_size",
            0,
            2
        ))
    );
    assert_eq!(
        SortingColumn::read_from(&[0x15, 0x00, 0x15, 0x02, 0x11, 0x00]),
        Err(Error::invalid(
            "SortingColumn without required field descending",
            0,
            2
        ))
    );
    // A union member of another type is kept, unrecognized.
    let (order, _) = ColumnOrder::read_from(&[0x15, 0x02, 0x00]).unwrap();
    assert_eq!(
        order,
        ColumnOrder::Unrecognized(UnrecognizedMember {
            id: 1,
            field_type: FieldType::I32,
            value: vec![0x02],
        })
    );
    // Within a list, elements of another type than declared are an error.
    assert_eq!(
        ColumnMetaData::read_from(&[0x15, 0x00, 0x19, 0x16, 0x00]),
        Err(Error::invalid("ColumnMetaData.encodings", 3, 0x16))
    );
}

#[test]
fn strings_must_be_utf8() {
    let bytes = [0x48, 0x03, b'a', 0xc3, 0x28, 0x00];
    assert_eq!(
        SchemaElement::read_from(&bytes),
        Err(Error::invalid("SchemaElement.name", 1, 1))
    );
    // Binary fields take any bytes.
    assert!(Statistics::read_from(&[0x18, 0x02, 0xc3, 0x28, 0x00]).is_ok());
}

#[test]
fn deep_nesting_is_rejected() {
    // An unknown field of a page header holding 100 nested structs.
    let header = PageHeader::default();
    let mut bytes = encode(&header);
    bytes.pop();
    let mut w = Writer::new(&mut bytes);
    w.write_field_header(FieldType::Struct, 20, 3);
    for _ in 0..99 {
        w.write_field_header(FieldType::Struct, 1, 0);
    }
    for _ in 0..101 {
        w.write_stop();
    }
    assert_eq!(
        PageHeader::read_from(&bytes),
        Err(Error::LimitExceeded {
            what: "thrift nesting depth",
            requested: 65,
            limit: 64
        })
    );
    let mut reader = Reader::with_max_depth(&bytes, 101);
    assert_eq!(PageHeader::read(&mut reader), Ok(header));
    assert_eq!(reader.remaining(), 0);
}

#[test]
fn booleans_both_ways() {
    for (descending, nulls_first) in [(true, true), (true, false), (false, true), (false, false)] {
        let column = SortingColumn {
            column_idx: 1,
            descending,
            nulls_first,
        };
        let bytes = round_trip!(SortingColumn static, column);
        let code = |value| if value { 1 } else { 2 };
        assert_eq!(
            bytes,
            [
                0x15,
                0x02,
                0x10 | code(descending),
                0x10 | code(nulls_first),
                0x00
            ]
        );
    }
}

#[test]
fn reading_in_place_reuses_the_value() {
    let first = PageHeader {
        type_: PageType::DATA_PAGE,
        crc: Some(1),
        data_page_header: Some(DataPageHeader::default()),
        ..PageHeader::default()
    };
    let second = PageHeader {
        type_: PageType::DICTIONARY_PAGE,
        dictionary_page_header: Some(DictionaryPageHeader::default()),
        ..PageHeader::default()
    };
    let mut bytes = encode(&first);
    bytes.extend_from_slice(&encode(&second));
    let mut reader = Reader::new(&bytes);
    let mut header = PageHeader::default();
    header.read_in_place(&mut reader).unwrap();
    assert_eq!(header, first);
    header.read_in_place(&mut reader).unwrap();
    assert_eq!(header, second);
    assert_eq!(reader.remaining(), 0);
}

#[test]
fn small_lists() {
    let mut list: SmallList<Cow<'_, str>, 1> = SmallList::new();
    assert!(list.is_empty() && list.is_inline());
    list.push(s("a"));
    assert!(list.is_inline());
    list.push(s("b"));
    assert!(!list.is_inline());
    assert_eq!(list, vec![s("a"), s("b")]);
    let heap: SmallList<Cow<'_, str>, 1> = vec![s("a"), s("b")].into();
    assert_eq!(list, heap);
    assert_eq!(format!("{list:?}"), r#"["a", "b"]"#);
    assert_eq!(list.clone().into_vec(), vec![s("a"), s("b")]);
    list.as_mut_slice()[0] = s("z");
    assert_eq!(&*list, &[s("z"), s("b")][..]);
    // Read from the wire whether or not the elements fit inline.
    for n in 0..6 {
        let value: SmallList<i64, 3> = (0..n).collect();
        let bytes = encode(&value);
        assert_eq!(SmallList::<i64, 3>::read_from(&bytes).unwrap().0, value);
        assert_eq!(Vec::<i64>::read_from(&bytes).unwrap().0, value.into_vec());
    }
}
