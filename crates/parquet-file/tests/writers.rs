//! Files that other writers really make, each built here by hand as that writer lays it
//! out, and read as that writer's own reader (or Arrow) reads it.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation
)]

mod support;

use std::borrow::Cow;

use bytes::Bytes;
use parquet_core::{varint, zigzag};
use parquet_file::{
    ColumnPath, DecryptionOptions, Disagreement, EdgeInterpolation, ErrorKind, Field, FileReader,
    Key, LogicalType, Predicate, PredicateExt, ReadOptions, Row, TimeUnit,
};
use parquet_thrift as thrift;
use support::{Chunk, Encryption, File, Page, group, leaf, levels, plain_i32, root};
use thrift::{ConvertedType, Encoding, FieldRepetitionType as Rep, Type};

fn rows(bytes: Vec<u8>) -> parquet_file::Result<Vec<Row>> {
    FileReader::open(Bytes::from(bytes))?.rows().collect()
}

fn first(row: &Row) -> &Field {
    &row.fields()[0].1
}

fn ints(values: &[i64]) -> Field {
    Field::List(values.iter().map(|&v| Field::Int(v)).collect())
}

/// A v1 page body: repetition levels, definition levels, values.
fn body(rep: &[u16], max_rep: u16, def: &[u16], max_def: u16, values: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    if max_rep > 0 {
        out.extend(levels(rep, max_rep));
    }
    if max_def > 0 {
        out.extend(levels(def, max_def));
    }
    out.extend_from_slice(values);
    out
}

#[test]
fn avro_list_of_lists_is_a_list_of_lists() {
    // parquet-java's Avro writer, for `array<array<int>>` (old list structure):
    // optional group a (LIST) { repeated group array (LIST) { repeated int32 array; } }
    let mut a = group("a", Rep::OPTIONAL, 1);
    a.converted_type = Some(ConvertedType::LIST);
    let mut array = group("array", Rep::REPEATED, 1);
    array.converted_type = Some(ConvertedType::LIST);
    let schema = vec![root(1), a, array, leaf("array", Rep::REPEATED, Type::INT32)];
    // [[1, 2], [3, 4]], null, [], [[]]
    let rep = [0, 2, 1, 2, 0, 0, 0];
    let def = [3, 3, 3, 3, 0, 1, 2];
    let page = Page::v1(
        7,
        Encoding::PLAIN,
        body(&rep, 2, &def, 3, &plain_i32(&[1, 2, 3, 4])),
    );
    let file = File {
        schema,
        row_groups: vec![(4, vec![Chunk::new(Type::INT32, vec![page])])],
        ..File::default()
    };
    let rows = rows(file.write()).unwrap();
    let got: Vec<&Field> = rows.iter().map(first).collect();
    assert_eq!(
        got,
        [
            &Field::List(vec![ints(&[1, 2]), ints(&[3, 4])]),
            &Field::Null,
            &Field::List(vec![]),
            &Field::List(vec![Field::List(vec![])]),
        ]
    );
}

#[test]
fn null_counts_of_a_repeated_leaf_skip_no_row_group() {
    // A list of required ints whose chunk counts no null element: its rows are still
    // null (no list), empty, or without the path a row reads, so `IsNull` keeps the
    // row group, as its rows match.
    let mut a = group("a", Rep::OPTIONAL, 1);
    a.converted_type = Some(ConvertedType::LIST);
    let schema = vec![
        root(1),
        a,
        group("list", Rep::REPEATED, 1),
        leaf("element", Rep::REQUIRED, Type::INT32),
    ];
    // [1, 2], null, []
    let page = Page::v1(
        4,
        Encoding::PLAIN,
        body(&[0, 1, 0, 0], 1, &[2, 2, 0, 1], 2, &plain_i32(&[1, 2])),
    );
    let mut chunk = Chunk::new(Type::INT32, vec![page]);
    chunk.statistics = Some(thrift::Statistics {
        null_count: Some(0),
        ..thrift::Statistics::default()
    });
    let file = File {
        schema,
        row_groups: vec![(3, vec![chunk])],
        ..File::default()
    };
    let reader = FileReader::open(Bytes::from(file.write())).unwrap();
    let is_null = Predicate::is_null(ColumnPath::from(["a", "list", "element"]));
    assert!(is_null.might_match(&reader, 0).unwrap());
    let rows: Vec<Row> = reader.rows().collect::<Result<_, _>>().unwrap();
    assert!(rows.iter().all(|r| is_null.matches(r)));
}

#[test]
fn map_without_values_is_a_list_of_keys() {
    // optional group m (MAP) { repeated group key_value { required binary key (UTF8); } }
    let mut m = group("m", Rep::OPTIONAL, 1);
    m.converted_type = Some(ConvertedType::MAP);
    let mut key = leaf("key", Rep::REQUIRED, Type::BYTE_ARRAY);
    key.converted_type = Some(ConvertedType::UTF8);
    let schema = vec![root(1), m, group("key_value", Rep::REPEATED, 1), key];
    let mut values = Vec::new();
    parquet_plain::byte_array::encode(&["a", "b"], &mut values).unwrap();
    // {a, b}, null, {}
    let page = Page::v1(
        4,
        Encoding::PLAIN,
        body(&[0, 1, 0, 0], 1, &[2, 2, 0, 1], 2, &values),
    );
    let file = File {
        schema,
        row_groups: vec![(3, vec![Chunk::new(Type::BYTE_ARRAY, vec![page])])],
        ..File::default()
    };
    let rows = rows(file.write()).unwrap();
    let got: Vec<&Field> = rows.iter().map(first).collect();
    let text = |s: &str| Field::Str(s.to_owned());
    assert_eq!(
        got,
        [
            &Field::List(vec![text("a"), text("b")]),
            &Field::Null,
            &Field::List(vec![])
        ]
    );
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The INT96 Spark writes for `micros` after the epoch (`DateTimeUtils.toJulianDay`): in
/// 64-bit arithmetic that wraps (past the year 290,000 or so), `/` and `%` truncating.
fn spark_int96(micros: i64) -> [u8; 12] {
    const MICROS_PER_DAY: i64 = 86_400_000_000;
    let julian = micros.wrapping_add(2_440_588 * MICROS_PER_DAY);
    let day = (julian / MICROS_PER_DAY) as i32;
    let nanos = julian % MICROS_PER_DAY * 1000;
    let mut out = [0; 12];
    out[..8].copy_from_slice(&nanos.to_le_bytes());
    out[8..].copy_from_slice(&day.to_le_bytes());
    out
}

#[test]
fn spark_int96_reads_as_spark_reads_it() {
    // 290000-12-31T01:00:00+02:00, as Spark writes it: its Julian microseconds wrap.
    let micros = (days_from_civil(290_000, 12, 30) * 86_400 + 23 * 3600) * 1_000_000;
    let schema = vec![root(1), leaf("ts", Rep::REQUIRED, Type::INT96)];
    let page = Page::v1(1, Encoding::PLAIN, spark_int96(micros).to_vec());
    let file = File {
        schema,
        row_groups: vec![(1, vec![Chunk::new(Type::INT96, vec![page])])],
        ..File::default()
    };
    let rows = rows(file.write()).unwrap();
    assert_eq!(
        first(&rows[0]),
        &Field::Timestamp {
            value: i128::from(micros) * 1000,
            unit: TimeUnit::Nanos,
            utc: false
        }
    );
}

#[test]
fn time_outside_the_day_is_an_error() {
    let mut t = leaf("t", Rep::REQUIRED, Type::INT32);
    t.converted_type = Some(ConvertedType::TIME_MILLIS);
    let file = |value: i32| File {
        schema: vec![root(1), t.clone()],
        row_groups: vec![(
            1,
            vec![Chunk::new(
                Type::INT32,
                vec![Page::v1(1, Encoding::PLAIN, plain_i32(&[value]))],
            )],
        )],
        ..File::default()
    };
    let end_of_day = rows(file(86_400_000).write()).unwrap();
    assert_eq!(
        first(&end_of_day[0]),
        &Field::Time {
            value: 86_400_000,
            unit: TimeUnit::Millis
        }
    );
    for bad in [-1999, 86_400_001] {
        let e = rows(file(bad).write()).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::InvalidValue { .. }),
            "{bad}: {e}"
        );
        assert_eq!(e.location().column, Some(ColumnPath::from("t")));
    }
}

#[test]
fn duckdb_int32_deltas_of_33_bits() {
    // DuckDB's PARQUET_VERSION V2 computes INT32 deltas in 64 bits: the full range needs
    // miniblocks of width 33 (PARQUET-2435). One block of 128 values in 4 miniblocks.
    let values = [i32::MIN, i32::MAX, 0, -1, i32::MIN];
    let deltas: Vec<i64> = values
        .windows(2)
        .map(|w| i64::from(w[1]) - i64::from(w[0]))
        .collect();
    let min = *deltas.iter().min().unwrap();
    let mut page = Vec::new();
    for header in [
        128,
        4,
        values.len() as u64,
        u64::from(zigzag::encode_i32(values[0])),
        zigzag::encode_i64(min),
    ] {
        varint::encode_u64(header, &mut page);
    }
    page.extend_from_slice(&[33, 0, 0, 0]);
    let mut relative: Vec<u64> = deltas.iter().map(|d| (d - min).cast_unsigned()).collect();
    relative.resize(32, 0);
    parquet_bitpack::pack(33, &relative, &mut page);
    let file = File {
        schema: vec![root(1), leaf("i", Rep::REQUIRED, Type::INT32)],
        row_groups: vec![(
            5,
            vec![Chunk::new(
                Type::INT32,
                vec![Page::v1(5, Encoding::DELTA_BINARY_PACKED, page)],
            )],
        )],
        ..File::default()
    };
    let rows = rows(file.write()).unwrap();
    let got: Vec<&Field> = rows.iter().map(first).collect();
    let expected: Vec<Field> = values.iter().map(|&v| Field::Int(v.into())).collect();
    assert_eq!(got, expected.iter().collect::<Vec<_>>());
}

#[test]
fn delta_length_of_2_to_the_62_is_an_error() {
    // One value whose length (the lengths' first value) is 2^62.
    let mut page = Vec::new();
    varint::encode_u64(128, &mut page);
    varint::encode_u64(4, &mut page);
    varint::encode_u64(1, &mut page);
    varint::encode_u64(1 << 63, &mut page); // zigzag(2^62)
    page.extend_from_slice(b"abc");
    let file = File {
        schema: vec![root(1), leaf("s", Rep::REQUIRED, Type::BYTE_ARRAY)],
        row_groups: vec![(
            1,
            vec![Chunk::new(
                Type::BYTE_ARRAY,
                vec![Page::v1(1, Encoding::DELTA_LENGTH_BYTE_ARRAY, page)],
            )],
        )],
        ..File::default()
    };
    let e = rows(file.write()).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Decode {
                what: "page values",
                ..
            }
        ),
        "{e}"
    );
}

fn encrypted_file(aad_file_unique: Option<Vec<u8>>, crc: bool) -> (File, Key) {
    let key = Key::try_new(b"0123456789012345").unwrap();
    let mut chunk = Chunk::new(
        Type::INT32,
        vec![Page::v1(3, Encoding::PLAIN, plain_i32(&[7, 8, 9]))],
    );
    chunk.crc = crc;
    let file = File {
        schema: vec![root(1), leaf("x", Rep::REQUIRED, Type::INT32)],
        row_groups: vec![(3, vec![chunk])],
        encryption: Some(Encryption {
            key: key.clone(),
            algorithm: parquet_crypto::Algorithm::AesGcmV1,
            aad_file_unique,
        }),
        ..File::default()
    };
    (file, key)
}

fn read_encrypted(bytes: Vec<u8>, key: &Key) -> parquet_file::Result<Vec<Row>> {
    let options =
        ReadOptions::new().with_decryption(DecryptionOptions::new().with_footer_key(key.clone()));
    FileReader::with_options(Bytes::from(bytes), options)?
        .rows()
        .collect()
}

#[test]
fn parquet_java_checksums_of_encrypted_pages() {
    // parquet-java computes a page's CRC over the page as stored: after compression and
    // encryption (length, nonce, ciphertext, tag).
    let (file, key) = encrypted_file(Some(b"unique".to_vec()), true);
    let bytes = file.write();
    let rows = read_encrypted(bytes.clone(), &key).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(first(&rows[2]), &Field::Int(9));
    // A flipped byte of the stored page (the last of its one page's body: the GCM tag)
    // is a checksum mismatch, found before decryption would find it.
    let options =
        ReadOptions::new().with_decryption(DecryptionOptions::new().with_footer_key(key.clone()));
    let reader = FileReader::with_options(Bytes::from(bytes.clone()), options).unwrap();
    let meta = reader.metadata().row_groups()[0].columns()[0]
        .metadata()
        .unwrap();
    let end = meta.data_page_offset() + meta.total_compressed_size();
    let mut flipped = bytes;
    flipped[usize::try_from(end).unwrap() - 1] ^= 1;
    let e = read_encrypted(flipped, &key).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Checksum { .. }), "{e}");
}

#[test]
fn duckdb_encryption_without_aad_file_unique() {
    // DuckDB stores no aad_file_unique, authenticates every module with an empty AAD,
    // gives page sizes before encryption and marks no column as encrypted.
    let (file, key) = encrypted_file(None, false);
    let rows = read_encrypted(file.write(), &key).unwrap();
    let got: Vec<&Field> = rows.iter().map(first).collect();
    assert_eq!(got, [&Field::Int(7), &Field::Int(8), &Field::Int(9)]);
}

#[test]
fn duckdb_null_fixed_size_arrays() {
    // DuckDB writes a NULL INTEGER[3] as three entries, two of them repeating inside the
    // array that is not there; DuckDB reads them as one null.
    let mut arr = group("arr", Rep::OPTIONAL, 1);
    arr.converted_type = Some(ConvertedType::LIST);
    let schema = vec![
        root(1),
        arr,
        group("list", Rep::REPEATED, 1),
        leaf("element", Rep::OPTIONAL, Type::INT32),
    ];
    let rep = [0, 1, 1, 0, 1, 1];
    let def = [0, 0, 0, 3, 2, 3];
    let page = Page::v1(
        6,
        Encoding::PLAIN,
        body(&rep, 1, &def, 3, &plain_i32(&[1, 3])),
    );
    let file = File {
        schema: schema.clone(),
        row_groups: vec![(2, vec![Chunk::new(Type::INT32, vec![page])])],
        ..File::default()
    };
    let rows = rows(file.write()).unwrap();
    let got: Vec<&Field> = rows.iter().map(first).collect();
    assert_eq!(
        got,
        [
            &Field::Null,
            &Field::List(vec![Field::Int(1), Field::Null, Field::Int(3)])
        ]
    );
    // A value inside the null array is not DuckDB's layout: an error, not a lost value.
    let page = Page::v1(
        3,
        Encoding::PLAIN,
        body(&[0, 1, 1], 1, &[0, 3, 0], 3, &plain_i32(&[5])),
    );
    let file = File {
        schema,
        row_groups: vec![(1, vec![Chunk::new(Type::INT32, vec![page])])],
        ..File::default()
    };
    let e = self::rows(file.write()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Malformed { .. }), "{e}");
}

fn min_max(min: i32, max: i32) -> (Cow<'static, [u8]>, Cow<'static, [u8]>) {
    (
        Cow::Owned(min.to_le_bytes().to_vec()),
        Cow::Owned(max.to_le_bytes().to_vec()),
    )
}

#[test]
fn a_lying_page_index_fails_verification() {
    let pages = vec![
        Page::v1(3, Encoding::PLAIN, plain_i32(&[1, 2, 3])),
        Page::v1(3, Encoding::PLAIN, plain_i32(&[4, 5, 6])),
        Page::v1(3, Encoding::PLAIN, plain_i32(&[7, 8, 9])),
    ];
    let mut chunk = Chunk::new(Type::INT32, pages);
    chunk.offset_index = true;
    let (p0, p1) = (min_max(7, 9), min_max(4, 6));
    chunk.column_index = Some(thrift::ColumnIndex {
        // Page 2 claims to hold nothing but nulls; page 0 claims 7..=9.
        null_pages: vec![false, false, true],
        min_values: vec![p0.0, p1.0, Cow::Borrowed(&[])],
        max_values: vec![p0.1, p1.1, Cow::Borrowed(&[])],
        boundary_order: thrift::BoundaryOrder::ASCENDING,
        null_counts: Some(vec![0, 0, 3]),
        ..thrift::ColumnIndex::default()
    });
    let file = File {
        schema: vec![root(1), leaf("x", Rep::REQUIRED, Type::INT32)],
        row_groups: vec![(9, vec![chunk])],
        ..File::default()
    };
    let reader = FileReader::open(Bytes::from(file.write())).unwrap();
    let verification = reader.verify().unwrap();
    let found: Vec<String> = verification
        .disagreements
        .iter()
        .map(ToString::to_string)
        .collect();
    let has = |f: &dyn Fn(&Disagreement) -> bool| verification.disagreements.iter().any(f);
    assert!(
        has(&|d| matches!(
            d,
            Disagreement::Statistics {
                page: Some(0),
                what: "minimum above a value",
                ..
            }
        )),
        "{found:#?}"
    );
    assert!(
        has(&|d| matches!(
            d,
            Disagreement::Statistics {
                page: Some(2),
                what: "null page",
                ..
            }
        )),
        "{found:#?}"
    );
    assert!(
        has(&|d| matches!(
            d,
            Disagreement::Statistics {
                page: Some(2),
                what: "null count",
                ..
            }
        )),
        "{found:#?}"
    );
    assert!(
        has(&|d| matches!(d, Disagreement::BoundaryOrder { page: 1, .. })),
        "{found:#?}"
    );
    assert_eq!(verification.rows, 9);
}

#[test]
fn a_lying_offset_index_fails_verification() {
    let pages = vec![
        Page::v1(2, Encoding::PLAIN, plain_i32(&[1, 2])),
        Page::v1(2, Encoding::PLAIN, plain_i32(&[3, 4])),
    ];
    let mut chunk = Chunk::new(Type::INT32, pages);
    chunk.offset_index = true;
    chunk.offset_index_edit = Some(|locations| locations[1].first_row_index = 1);
    let file = File {
        schema: vec![root(1), leaf("x", Rep::REQUIRED, Type::INT32)],
        row_groups: vec![(4, vec![chunk])],
        ..File::default()
    };
    let reader = FileReader::open(Bytes::from(file.write())).unwrap();
    let verification = reader.verify().unwrap();
    assert_eq!(
        verification.disagreements,
        [Disagreement::OffsetIndexEntry {
            row_group: 0,
            column: ColumnPath::from("x"),
            page: 1,
            field: "first_row_index",
            index: 1,
            actual: 2,
        }]
    );
}

#[test]
fn newer_logical_types_are_recognised() {
    let mut geometry = leaf("geometry", Rep::OPTIONAL, Type::BYTE_ARRAY);
    geometry.logical_type = Some(thrift::LogicalType::Geometry(thrift::GeometryType {
        crs: Some(Cow::Borrowed("OGC:CRS84")),
    }));
    let mut geography = leaf("geography", Rep::OPTIONAL, Type::BYTE_ARRAY);
    geography.logical_type = Some(thrift::LogicalType::Geography(thrift::GeographyType {
        crs: None,
        algorithm: Some(thrift::EdgeInterpolationAlgorithm::KARNEY),
    }));
    let mut variant = group("variant", Rep::OPTIONAL, 2);
    variant.logical_type = Some(thrift::LogicalType::Variant(thrift::VariantType {
        specification_version: Some(1),
    }));
    let schema = vec![
        root(3),
        geometry,
        geography,
        variant,
        leaf("metadata", Rep::REQUIRED, Type::BYTE_ARRAY),
        leaf("value", Rep::REQUIRED, Type::BYTE_ARRAY),
    ];
    let empty = || Chunk::new(Type::BYTE_ARRAY, vec![]);
    let mut chunk = empty();
    chunk.geospatial = Some(thrift::GeospatialStatistics {
        bbox: Some(thrift::BoundingBox {
            xmin: -1.0,
            xmax: 2.0,
            ymin: -3.0,
            ymax: 4.0,
            ..thrift::BoundingBox::default()
        }),
        geospatial_types: Some(vec![1, 3]),
    });
    let file = File {
        schema,
        row_groups: vec![(0, vec![chunk, empty(), empty(), empty()])],
        ..File::default()
    };
    let reader = FileReader::open(Bytes::from(file.write())).unwrap();
    let schema = reader.schema();
    assert_eq!(
        schema.columns()[0].logical_type,
        LogicalType::Geometry {
            crs: Some("OGC:CRS84".into())
        }
    );
    assert_eq!(
        schema.columns()[1].logical_type,
        LogicalType::Geography {
            crs: None,
            algorithm: Some(EdgeInterpolation::Karney)
        }
    );
    assert_eq!(
        schema.nodes()[3].logical_type,
        LogicalType::Variant {
            specification_version: Some(1)
        }
    );
    assert_eq!(
        schema.to_string(),
        "message schema {\n  optional byte_array geometry (GEOMETRY(OGC:CRS84));\n  optional byte_array geography (GEOGRAPHY(OGC:CRS84,KARNEY));\n  optional group variant (VARIANT(1)) {\n    required byte_array metadata;\n    required byte_array value;\n  }\n}\n"
    );
    let geo = reader
        .metadata()
        .column_chunk_metadata(0, 0)
        .unwrap()
        .geospatial_statistics()
        .unwrap();
    assert_eq!(geo.geospatial_types.as_deref(), Some(&[1, 3][..]));
    assert_eq!(geo.bbox.unwrap().ymax.to_bits(), 4.0_f64.to_bits());
}
