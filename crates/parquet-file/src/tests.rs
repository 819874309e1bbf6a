//! Unit tests of the reader's parts, and of whole reads of the sample file: every
//! truncation and many bit flips of it give an error or rows, never a panic.

#![allow(clippy::single_range_in_vec_init)] // Row selections of one range.

use std::borrow::Cow;
use std::sync::Arc;

use bytes::Bytes;
use parquet_thrift::{
    ConvertedType, DecimalType, FieldRepetitionType, LogicalType as ThriftLogical, SchemaElement,
    Statistics, Type,
};

use crate::field::{Field, be_i128};
use crate::predicate::{Literal, Predicate};
use crate::rows::Row;
use crate::schema::{LogicalType, MAX_DEPTH, Schema};
use crate::statistics::ColumnStatistics;
use crate::{FileReader, Projection, ReadOptions, RowSelection};

fn group(name: &'static str, rep: FieldRepetitionType, children: i32) -> SchemaElement<'static> {
    SchemaElement {
        name: Cow::Borrowed(name),
        repetition_type: Some(rep),
        num_children: Some(children),
        ..SchemaElement::default()
    }
}

fn leaf(name: &'static str, rep: FieldRepetitionType, physical: Type) -> SchemaElement<'static> {
    SchemaElement {
        name: Cow::Borrowed(name),
        repetition_type: Some(rep),
        type_: Some(physical),
        ..SchemaElement::default()
    }
}

const REQ: FieldRepetitionType = FieldRepetitionType::REQUIRED;
const OPT: FieldRepetitionType = FieldRepetitionType::OPTIONAL;
const REP: FieldRepetitionType = FieldRepetitionType::REPEATED;

#[test]
fn schema_levels_paths_and_legacy_types() {
    let mut list = group("tags", OPT, 1);
    list.converted_type = Some(ConvertedType::LIST);
    let mut text = leaf("element", OPT, Type::BYTE_ARRAY);
    text.converted_type = Some(ConvertedType::UTF8);
    let elements = [
        group("schema", REQ, 2),
        leaf("id", REQ, Type::INT64),
        list,
        group("list", REP, 1),
        text,
    ];
    let schema = Schema::try_from_elements(&elements).unwrap();
    let columns = schema.columns();
    assert_eq!(columns.len(), 2);
    assert_eq!(columns[0].name, "id");
    assert_eq!((columns[0].max_def_level, columns[0].max_rep_level), (0, 0));
    assert_eq!(columns[1].name, "tags.list.element");
    assert_eq!((columns[1].max_def_level, columns[1].max_rep_level), (3, 1));
    assert_eq!(columns[1].logical_type, LogicalType::String);
    assert_eq!(schema.node(2).logical_type, LogicalType::List);
    assert_eq!(schema.columns_under("tags"), vec![1]);
    assert_eq!(schema.column_index("tags.list.element"), Some(1));
    assert!(schema.columns_under("tag").is_empty());
    assert_eq!(
        schema.to_string(),
        "message schema {\n  required int64 id;\n  optional group tags (LIST) {\n    repeated group list {\n      optional byte_array element (STRING);\n    }\n  }\n}\n"
    );
}

#[test]
fn schema_errors_name_the_element() {
    let error = |elements: &[SchemaElement<'static>]| {
        Schema::try_from_elements(elements).unwrap_err().to_string()
    };
    assert_eq!(error(&[]), "empty schema: no root element");
    assert_eq!(
        error(&[group("schema", REQ, 2), leaf("a", OPT, Type::INT32)]),
        "invalid schema element 0: 2 children, but only 1 elements follow"
    );
    assert_eq!(
        error(&[
            group("schema", REQ, 1),
            leaf("a", OPT, Type::INT32),
            leaf("b", OPT, Type::INT32)
        ]),
        "invalid schema element 2: 1 elements after the end of the root's fields"
    );
    assert_eq!(
        error(&[
            group("schema", REQ, 2),
            leaf("a", OPT, Type::INT32),
            leaf("a", OPT, Type::INT64)
        ]),
        "invalid schema element 2: a second field named \"a\" in the same group"
    );
    assert_eq!(
        error(&[group("schema", REQ, 1), group("g", OPT, 0)]),
        "invalid schema element 1: group \"g\" has no fields"
    );
    let mut untyped = leaf("u", OPT, Type::INT32);
    untyped.type_ = None;
    assert_eq!(
        error(&[group("schema", REQ, 1), untyped]),
        "invalid schema element 1: leaf \"u\" has no physical type"
    );
    assert_eq!(
        error(&[
            group("schema", REQ, 1),
            leaf("f", OPT, Type::FIXED_LEN_BYTE_ARRAY)
        ]),
        "invalid schema element 1: FIXED_LEN_BYTE_ARRAY without a valid type_length"
    );
    let mut decimal = leaf("d", OPT, Type::INT32);
    decimal.logical_type = Some(ThriftLogical::Decimal(DecimalType {
        scale: 2,
        precision: 10,
    }));
    assert_eq!(
        error(&[group("schema", REQ, 1), decimal]),
        "invalid schema element 1: DECIMAL precision 10 does not fit INT32"
    );
    // A chain of groups one deeper than the limit.
    let mut deep: Vec<SchemaElement<'static>> = vec![group("schema", REQ, 1)];
    deep.extend((0..=MAX_DEPTH).map(|_| group("g", OPT, 1)));
    deep.push(leaf("x", OPT, Type::INT32));
    assert!(error(&deep).contains(&format!("nested deeper than {MAX_DEPTH} levels")));
}

#[test]
fn old_parquet_mr_chunk_sizes() {
    use crate::metadata::parquet_mr_before_1_2_9 as old;
    assert!(old("parquet-mr"));
    assert!(old("parquet-mr version 1.2.8 (build 1234)"));
    assert!(old("parquet-mr version 1.1.0-SNAPSHOT"));
    assert!(!old("parquet-mr version 1.2.9 (build 1234)"));
    assert!(!old(
        "parquet-mr version 1.10.1 (build a89df8f9932b6ef6633d06069e50c9b7970bebd1)"
    ));
    assert!(!old("parquet-cpp-arrow version 17.0.0"));
    assert!(!old("parquet-rs version 0.3.0"));
}

#[test]
fn decimals_up_to_128_bits_fit_an_i128() {
    assert_eq!(be_i128(&[0xFF, 0x38]), Some(-200));
    assert_eq!(be_i128(&[0x00, 0xC8]), Some(200));
    let mut wide = vec![0xFF; 20];
    wide[19] = 0xFE;
    assert_eq!(be_i128(&wide), Some(-2));
    let mut too_wide = vec![0; 20];
    too_wide[3] = 1;
    assert_eq!(be_i128(&too_wide), None);
    // The sign of the kept bytes must match the dropped ones.
    let mut flipped = vec![0; 17];
    flipped[1] = 0x80;
    assert_eq!(be_i128(&flipped), None);
}

fn int_column(
    logical: Option<ThriftLogical<'static>>,
    converted: Option<ConvertedType>,
) -> crate::ColumnDescriptor {
    let mut element = leaf("v", OPT, Type::INT32);
    element.logical_type = logical;
    element.converted_type = converted;
    let schema = Schema::try_from_elements(&[group("schema", REQ, 1), element]).unwrap();
    schema.column(0).clone()
}

#[test]
fn statistics_trust_only_safe_bounds() {
    let signed = int_column(None, None);
    let unsigned = int_column(None, Some(ConvertedType::UINT_32));
    let legacy = Statistics {
        min: Some(Cow::Owned((-5_i32).to_le_bytes().to_vec())),
        max: Some(Cow::Owned(7_i32.to_le_bytes().to_vec())),
        null_count: Some(2),
        ..Statistics::default()
    };
    let s = ColumnStatistics::decode(&signed, None, &legacy);
    assert_eq!(
        (s.min, s.max, s.null_count),
        (Some(Field::Int(-5)), Some(Field::Int(7)), Some(2))
    );
    // Legacy bounds of an unsigned column were computed with signed order: not trusted.
    let s = ColumnStatistics::decode(&unsigned, None, &legacy);
    assert_eq!((s.min, s.max), (None, None));
    // The new fields are.
    let new = Statistics {
        min_value: Some(Cow::Owned(1_i32.to_le_bytes().to_vec())),
        max_value: Some(Cow::Owned((-1_i32).to_le_bytes().to_vec())),
        ..Statistics::default()
    };
    let s = ColumnStatistics::decode(&unsigned, None, &new);
    assert_eq!(
        (s.min, s.max),
        (Some(Field::UInt(1)), Some(Field::UInt(u64::from(u32::MAX))))
    );
}

#[test]
fn float_statistics_drop_nan_and_sign_zero() {
    let schema =
        Schema::try_from_elements(&[group("schema", REQ, 1), leaf("f", OPT, Type::DOUBLE)])
            .unwrap();
    let column = schema.column(0);
    let stats = |min: f64, max: f64| Statistics {
        min_value: Some(Cow::Owned(min.to_le_bytes().to_vec())),
        max_value: Some(Cow::Owned(max.to_le_bytes().to_vec())),
        ..Statistics::default()
    };
    let s = ColumnStatistics::decode(column, None, &stats(f64::NAN, 3.0));
    assert_eq!((s.min, s.max), (None, None));
    let s = ColumnStatistics::decode(column, None, &stats(0.0, -0.0));
    let (Some(Field::Double(min)), Some(Field::Double(max))) = (s.min, s.max) else {
        panic!("bounds dropped")
    };
    assert!(min == 0.0 && min.is_sign_negative());
    assert!(max == 0.0 && max.is_sign_positive());
}

fn row(fields: Vec<(&str, Field)>) -> Row {
    Row::from_fields(fields.into_iter().map(|(n, f)| (Arc::from(n), f)).collect())
}

#[test]
fn predicates_parse_and_match() {
    let r = row(vec![
        ("id", Field::Int(12)),
        ("name", Field::Str("x".into())),
        (
            "price",
            Field::Decimal {
                unscaled: 150,
                scale: 2,
            },
        ),
        (
            "address",
            Field::Group(vec![(Arc::from("city"), Field::Null)]),
        ),
    ]);
    let holds = |text: &str| Predicate::parse(text).unwrap().matches(&r);
    assert!(holds("id = 12"));
    assert!(holds("id >= 10 and name = \"x\""));
    assert!(holds("id < 0 or name != 'y'"));
    assert!(holds("not (id > 12)"));
    assert!(holds("price > 1.4 and price < 2"));
    assert!(holds("address.city is null and address is not null"));
    assert!(!holds("name = 12"));
    assert!(!holds("missing = 1"));
    for bad in [
        "",
        "id",
        "id =",
        "id = 1 and",
        "(id = 1",
        "id ~ 1",
        "id = \"open",
    ] {
        assert!(Predicate::parse(bad).is_err(), "{bad:?}");
    }
    let column = int_column(None, None);
    assert_eq!(
        Literal::Int(7).plain_bytes(&column),
        Some(7_i32.to_le_bytes().to_vec())
    );
    assert_eq!(Literal::Int(1 << 40).plain_bytes(&column), None);
    let decimal = int_column(
        Some(ThriftLogical::Decimal(DecimalType {
            scale: 2,
            precision: 9,
        })),
        None,
    );
    assert_eq!(Literal::Int(7).plain_bytes(&decimal), None);
}

const EXAMPLE: &[u8] = include_bytes!("../../../testdata/example.parquet");

/// Reads everything: footer, every page of every chunk, Bloom filters, rows.
fn read_everything(bytes: Bytes) -> crate::Result<usize> {
    let reader = FileReader::with_options(bytes, ReadOptions::new())?;
    for g in 0..reader.num_row_groups() {
        for c in 0..reader.schema().columns().len() {
            reader.bloom_filter(g, c)?;
            reader.offset_index(g, c)?;
            reader.column_index(g, c)?;
        }
    }
    let mut rows = 0;
    for r in reader.rows()? {
        r?;
        rows += 1;
    }
    Ok(rows)
}

#[test]
fn sample_file_reads_whole() {
    assert_eq!(read_everything(Bytes::from_static(EXAMPLE)).unwrap(), 40);
}

#[test]
fn every_truncation_is_an_error() {
    for len in 0..EXAMPLE.len() {
        assert!(
            read_everything(Bytes::copy_from_slice(&EXAMPLE[..len])).is_err(),
            "{len}"
        );
    }
}

#[test]
fn bit_flips_never_panic() {
    // Every byte of the file, one bit each (which bit varies with the offset). The CRCs
    // catch most flips in pages; flips in the footer and headers hit the decoders.
    for at in 0..EXAMPLE.len() {
        let mut bytes = EXAMPLE.to_vec();
        bytes[at] ^= 1 << (at % 8);
        let _ = read_everything(Bytes::from(bytes));
    }
}

const PAGES: &[u8] = include_bytes!("../../../testdata/pages.parquet");

fn all_rows(reader: &FileReader<Bytes>) -> Vec<Row> {
    reader.rows().unwrap().map(Result::unwrap).collect()
}

#[test]
fn page_index_decodes() {
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let offsets = reader.offset_index(1, 0).unwrap().unwrap();
    let firsts: Vec<i64> = offsets
        .page_locations
        .iter()
        .map(|l| l.first_row_index)
        .collect();
    assert_eq!(firsts, (0..10).map(|i| i * 50).collect::<Vec<_>>());
    let stats = reader.column_index(1, 0).unwrap().unwrap();
    assert_eq!(
        stats.boundary_order,
        parquet_thrift::BoundaryOrder::ASCENDING
    );
    assert_eq!(stats.pages.len(), 10);
    let page = &stats.pages[4].statistics;
    assert_eq!(
        (page.min.clone(), page.max.clone(), page.null_count),
        (Some(Field::Int(700)), Some(Field::Int(749)), Some(0))
    );
    // "maybe" has 100 nulls in its third page of row group 0.
    let maybe = reader.column_index(0, 2).unwrap().unwrap();
    assert_eq!(maybe.pages[2].statistics.null_count, Some(100));
    assert!(!maybe.pages[2].null_page);
}

#[test]
fn row_selections_read_the_same_rows_as_a_full_read() {
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let all = all_rows(&reader);
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    for _ in 0..200 {
        // A few ranges per row group, sometimes none.
        let mut projection = Projection::all();
        let mut expected = Vec::new();
        for g in 0..2_u64 {
            let ranges: Vec<_> = (0..next(4))
                .map(|_| {
                    let start = next(500);
                    start..(start + 1 + next(120)).min(500)
                })
                .collect();
            let selection = RowSelection::from_ranges(ranges);
            for r in selection.ranges() {
                let base = usize::try_from(g * 500).unwrap();
                let range = usize::try_from(r.start).unwrap()..usize::try_from(r.end).unwrap();
                expected.extend_from_slice(&all[base + range.start..base + range.end]);
            }
            projection = projection.select_rows(usize::try_from(g).unwrap(), selection);
        }
        let got: Vec<Row> = reader
            .rows_with(projection)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(got, expected);
    }
}

#[test]
fn selected_rows_skip_the_other_pages() {
    // Break the first data page of "id" in row group 1: a full read fails on its
    // checksum, a read of rows beyond it never touches it.
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let page = &reader.offset_index(1, 0).unwrap().unwrap().page_locations[0];
    let mut bytes = PAGES.to_vec();
    let at = usize::try_from(page.offset + i64::from(page.compressed_page_size) - 1).unwrap();
    bytes[at] ^= 0xff;
    let broken = FileReader::open(Bytes::from(bytes)).unwrap();
    let error = broken.rows().unwrap().find_map(Result::err).unwrap();
    assert!(error.to_string().contains("checksum"), "{error}");

    let predicate = Predicate::parse("id >= 720 and id < 730").unwrap();
    assert!(!predicate.might_match(&broken, 0).unwrap());
    let selection = predicate.row_selection(&broken, 1).unwrap();
    assert_eq!(selection.ranges(), &[200..250]);
    let projection = Projection::all().row_groups([1]).select_rows(1, selection);
    let rows: Vec<Row> = broken
        .rows_with(projection)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows, all_rows(&reader)[700..750]);
    let matching = rows.iter().filter(|r| predicate.matches(r)).count();
    assert_eq!(matching, 10);
}

/// A file in memory that counts the bytes read from it.
struct Counting {
    bytes: Bytes,
    read: std::cell::Cell<usize>,
}

impl crate::Source for Counting {
    fn len(&self) -> std::io::Result<u64> {
        Ok(self.bytes.len() as u64)
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Bytes> {
        self.read.set(self.read.get() + len);
        self.bytes.read_at(offset, len)
    }
}

#[test]
fn selected_rows_read_only_their_pages() {
    let counting = Counting {
        bytes: Bytes::from_static(PAGES),
        read: std::cell::Cell::new(0),
    };
    let reader = FileReader::open(counting).unwrap();
    let chunks: u64 = reader.metadata().row_groups()[1]
        .columns
        .iter()
        .map(|c| {
            c.meta_data
                .as_ref()
                .unwrap()
                .total_compressed_size
                .cast_unsigned()
        })
        .sum();
    let rows = |projection| {
        let before = reader.source().read.get();
        let n = reader
            .rows_with(projection)
            .unwrap()
            .map(Result::unwrap)
            .count();
        (n, (reader.source().read.get() - before) as u64)
    };
    let (n, whole) = rows(Projection::all().row_groups([1]));
    assert_eq!((n, whole), (500, chunks));
    // Rows 200..210 of row group 1, then its last row: the page index and a few pages.
    let selection = RowSelection::from_ranges([200..210, 499..500]);
    let (n, read) = rows(Projection::all().row_groups([1]).select_rows(1, selection));
    assert_eq!(n, 11);
    assert!(read * 2 < whole, "{read} bytes of {whole}");
}

#[test]
fn column_batches_of_selected_pages() {
    // An engine's use: the pages of "id" in row group 1 that hold rows 200..250.
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let offsets = reader.offset_index(1, 0).unwrap().unwrap();
    let rows = RowSelection::from_ranges([200..250]);
    let mut chunk = reader.column_chunk_rows(1, 0, &offsets, &rows).unwrap();
    chunk.seek_page(4, &offsets.page_locations[4]).unwrap();
    let mut batch = crate::ColumnBatch::new(chunk.column()).unwrap();
    assert_eq!(chunk.read_page(&mut batch).unwrap(), Some(50));
    assert_eq!(
        batch.values,
        crate::ColumnValues::Int64((700..750).collect())
    );
    // The run ends with the page; page 5 was not read.
    assert_eq!(chunk.read_page(&mut batch).unwrap(), None);
    assert!(chunk.seek_page(5, &offsets.page_locations[5]).is_err());
}

#[test]
fn offset_index_checks() {
    use parquet_thrift::{OffsetIndex, PageLocation};
    let index = |pages: &[(i64, i32, i64)]| OffsetIndex {
        page_locations: pages
            .iter()
            .map(
                |&(offset, compressed_page_size, first_row_index)| PageLocation {
                    offset,
                    compressed_page_size,
                    first_row_index,
                },
            )
            .collect(),
        unencoded_byte_array_data_bytes: None,
    };
    let check = |pages: &[(i64, i32, i64)], rows| {
        crate::page_index::check_locations(&index(pages), 100..200, rows)
    };
    check(&[(100, 50, 0), (150, 50, 10)], 20).unwrap();
    check(&[], 0).unwrap();
    // No pages for rows; a page outside the chunk; overlapping pages; rows going back,
    // not starting at 0 or past the row group.
    for (pages, rows) in [
        (&[][..], 1),
        (&[(100, 101, 0)][..], 20),
        (&[(90, 10, 0)][..], 20),
        (&[(100, 60, 0), (150, 50, 10)][..], 20),
        (&[(100, 50, 0), (150, 25, 5), (175, 10, 4)][..], 20),
        (&[(100, 50, 1)][..], 20),
        (&[(100, 50, 0), (150, 50, 21)][..], 20),
        (&[(-1, 50, 0)][..], 20),
        (&[(100, -5, 0)][..], 20),
    ] {
        assert!(check(pages, rows).is_err(), "{pages:?}");
    }
}

#[test]
fn row_selections_combine() {
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let selection = |text: &str, g: usize| {
        Predicate::parse(text)
            .unwrap()
            .row_selection(&reader, g)
            .unwrap()
    };
    assert_eq!(
        selection("id < 60 or id >= 480", 0).ranges(),
        &[0..100, 450..500]
    );
    assert_eq!(selection("id < 60 and id >= 40", 0).ranges(), &[0..100]);
    assert_eq!(selection("not id < 60", 0).ranges(), &[0..500]);
    assert_eq!(selection("maybe is null", 0).ranges(), &[200..400]);
    assert!(selection("id > 1000", 1).is_empty());
    // A repeated column, and a column with no index here, select everything.
    assert_eq!(
        selection("tags.list.element = \"t9\"", 0).ranges(),
        &[0..500]
    );
}

#[test]
fn page_index_bit_flips_never_panic() {
    // Every byte of the indexes and the footer, every seventh of the pages (whose
    // flips the checksums mostly catch).
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let first_index = reader.metadata().row_groups()[0].columns[0]
        .column_index_offset
        .unwrap();
    let first_index = usize::try_from(first_index).unwrap();
    let predicate = Predicate::parse("id >= 120 and maybe is null or group = \"g7\"").unwrap();
    for at in (0..first_index).step_by(7).chain(first_index..PAGES.len()) {
        let mut bytes = PAGES.to_vec();
        bytes[at] ^= 1 << (at % 8);
        let Ok(reader) = FileReader::open(Bytes::from(bytes)) else {
            continue;
        };
        let mut projection = Projection::all();
        for g in 0..reader.num_row_groups() {
            if let Ok(selection) = predicate.row_selection(&reader, g) {
                projection = projection.select_rows(g, selection);
            }
        }
        if let Ok(rows) = reader.rows_with(projection) {
            rows.for_each(drop);
        }
    }
}
