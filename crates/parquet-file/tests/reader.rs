//! The reader on the sample files of `testdata/` and on hand-made schemas and statistics:
//! rows, column batches of whole records, row selections through the page index, the
//! checks of schemas and indexes, and bit flips and truncations that must give errors,
//! never panics.

#![allow(clippy::unwrap_used, clippy::single_range_in_vec_init)] // Row selections of one range.

mod support;

use std::sync::Arc;

use bytes::Bytes;
use parquet_file::{
    BoundaryOrder, ColumnBatch, ColumnPath, ColumnStatistics, ColumnValues, ErrorKind, Field,
    FileReader, Limits, Literal, LiteralExt, LogicalType, OffsetIndex, Op, Predicate, PredicateExt,
    Projection, Row, RowSelection, Schema, Source, Statistics,
};
use parquet_thrift as thrift;
use support::{group, leaf, root};
use thrift::{ConvertedType, FieldRepetitionType as Rep, SchemaElement, Type};

const EXAMPLE: &[u8] = include_bytes!("../../../testdata/example.parquet");
const PAGES: &[u8] = include_bytes!("../../../testdata/pages.parquet");

fn schema(elements: &[SchemaElement<'static>]) -> parquet_file::Result<Schema> {
    Schema::try_from_elements(elements, &Limits::default())
}

#[test]
fn schema_levels_paths_and_legacy_types() {
    let mut list = group("tags", Rep::OPTIONAL, 1);
    list.converted_type = Some(ConvertedType::LIST);
    let mut text = leaf("element", Rep::OPTIONAL, Type::BYTE_ARRAY);
    text.converted_type = Some(ConvertedType::UTF8);
    let elements = [
        root(2),
        leaf("id", Rep::REQUIRED, Type::INT64),
        list,
        group("list", Rep::REPEATED, 1),
        text,
    ];
    let schema = schema(&elements).unwrap();
    let columns = schema.columns();
    assert_eq!(columns.len(), 2);
    assert_eq!(columns[0].path, ColumnPath::from("id"));
    assert_eq!((columns[0].max_def_level, columns[0].max_rep_level), (0, 0));
    let tags = ColumnPath::new(["tags", "list", "element"]);
    assert_eq!(columns[1].path, tags);
    assert_eq!((columns[1].max_def_level, columns[1].max_rep_level), (3, 1));
    assert_eq!(columns[1].logical_type, LogicalType::String);
    assert_eq!(schema.nodes()[2].logical_type, LogicalType::List);
    assert_eq!(schema.columns_under(&"tags".into()), vec![1]);
    assert_eq!(schema.column_index(&tags), Some(1));
    assert!(schema.columns_under(&"tag".into()).is_empty());
    assert!(schema.column(2).is_err());
    assert_eq!(
        schema.to_string(),
        "message schema {\n  required int64 id;\n  optional group tags (LIST) {\n    repeated group list {\n      optional byte_array element (STRING);\n    }\n  }\n}\n"
    );
    // Back to the footer's list: the same schema, the logical type written beside the
    // converted one.
    let written = schema.to_elements();
    assert_eq!(written[2].converted_type, Some(ConvertedType::LIST));
    assert!(matches!(
        written[2].logical_type,
        Some(thrift::LogicalType::List(_))
    ));
    assert_eq!(
        Schema::try_from_elements(&written, &Limits::default()).unwrap(),
        schema
    );
}

#[test]
fn schema_errors_name_the_element() {
    let error = |elements: &[SchemaElement<'static>]| schema(elements).unwrap_err();
    let rule = |e: parquet_file::Error| match e.kind() {
        ErrorKind::Schema { element, what, .. } => (*element, *what),
        other => panic!("{other}"),
    };
    assert!(matches!(error(&[]).kind(), ErrorKind::Malformed { .. }));
    assert_eq!(
        rule(error(&[root(2), leaf("a", Rep::OPTIONAL, Type::INT32)])),
        (0, "more children than elements follow")
    );
    assert_eq!(
        rule(error(&[
            root(1),
            leaf("a", Rep::OPTIONAL, Type::INT32),
            leaf("b", Rep::OPTIONAL, Type::INT32)
        ])),
        (2, "an element after the end of the root's fields")
    );
    assert_eq!(
        rule(error(&[
            root(2),
            leaf("a", Rep::OPTIONAL, Type::INT32),
            leaf("a", Rep::OPTIONAL, Type::INT64)
        ])),
        (2, "a second field of the same name in its group")
    );
    assert_eq!(
        rule(error(&[root(1), group("g", Rep::OPTIONAL, 0)])),
        (1, "a group without fields")
    );
    let mut untyped = leaf("u", Rep::OPTIONAL, Type::INT32);
    untyped.type_ = None;
    assert_eq!(
        rule(error(&[root(1), untyped])),
        (1, "a leaf without a physical type")
    );
    assert_eq!(
        rule(error(&[
            root(1),
            leaf("f", Rep::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY)
        ])),
        (1, "a FIXED_LEN_BYTE_ARRAY without a valid type_length")
    );
    let mut decimal = leaf("d", Rep::OPTIONAL, Type::INT32);
    decimal.logical_type = Some(thrift::LogicalType::Decimal(thrift::DecimalType {
        scale: 2,
        precision: 10,
    }));
    assert_eq!(
        rule(error(&[root(1), decimal])),
        (1, "a DECIMAL precision that does not fit its physical type")
    );
    // A chain of groups one deeper than the limit.
    let mut deep: Vec<SchemaElement<'static>> = vec![root(1)];
    deep.extend((0..64).map(|_| group("g", Rep::OPTIONAL, 1)));
    deep.push(leaf("x", Rep::OPTIONAL, Type::INT32));
    assert!(matches!(
        error(&deep).kind(),
        ErrorKind::LimitExceeded {
            limit: "schema depth",
            value: 65,
            max: 64
        }
    ));
}

#[test]
fn wide_schemas_build_in_linear_time() {
    // 200,000 siblings: a pairwise check of names would take minutes.
    let mut elements = vec![root(200_000)];
    let names: Vec<&'static str> = (0..200_000)
        .map(|i| &*Box::leak(format!("c{i}").into_boxed_str()))
        .collect();
    elements.extend(names.iter().map(|n| leaf(n, Rep::OPTIONAL, Type::INT32)));
    let started = std::time::Instant::now();
    let schema = schema(&elements).unwrap();
    assert_eq!(schema.columns().len(), 200_000);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    let limits = Limits::default().with_max_schema_elements(1000);
    let e = Schema::try_from_elements(&elements, &limits).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::LimitExceeded {
            limit: "schema elements",
            ..
        }
    ));
}

fn int_column(
    logical: Option<thrift::LogicalType<'static>>,
    converted: Option<ConvertedType>,
) -> parquet_file::ColumnDescriptor {
    let mut element = leaf("v", Rep::OPTIONAL, Type::INT32);
    element.logical_type = logical;
    element.converted_type = converted;
    schema(&[root(1), element]).unwrap().columns()[0].clone()
}

#[test]
fn statistics_trust_only_safe_bounds() {
    let signed = int_column(None, None);
    let unsigned = int_column(None, Some(ConvertedType::UINT_32));
    let legacy = Statistics {
        min: Some(Bytes::copy_from_slice(&(-5_i32).to_le_bytes())),
        max: Some(Bytes::copy_from_slice(&7_i32.to_le_bytes())),
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
        min_value: Some(Bytes::copy_from_slice(&1_i32.to_le_bytes())),
        max_value: Some(Bytes::copy_from_slice(&(-1_i32).to_le_bytes())),
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
    let schema = schema(&[root(1), leaf("f", Rep::OPTIONAL, Type::DOUBLE)]).unwrap();
    let column = &schema.columns()[0];
    let stats = |min: f64, max: f64| Statistics {
        min_value: Some(Bytes::copy_from_slice(&min.to_le_bytes())),
        max_value: Some(Bytes::copy_from_slice(&max.to_le_bytes())),
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

#[test]
fn predicates_match_rows() {
    let r = Row::new(vec![
        (Arc::from("id"), Field::Int(12)),
        (Arc::from("name"), Field::Str("x".into())),
        (
            Arc::from("price"),
            Field::Decimal {
                unscaled: 150,
                scale: 2,
            },
        ),
        (
            Arc::from("address"),
            Field::Group(vec![(Arc::from("city"), Field::Null)]),
        ),
        (Arc::from("a.b"), Field::Int(1)),
    ]);
    let city = ColumnPath::new(["address", "city"]);
    assert!(Predicate::compare("id", Op::Eq, 12).matches(&r));
    assert!(
        Predicate::compare("id", Op::Ge, 10)
            .and(Predicate::compare("name", Op::Eq, "x"))
            .matches(&r)
    );
    assert!(
        Predicate::compare("id", Op::Lt, 0)
            .or(Predicate::compare("name", Op::Ne, "y"))
            .matches(&r)
    );
    assert!(Predicate::compare("id", Op::Gt, 12).negate().matches(&r));
    assert!(
        Predicate::compare("price", Op::Gt, 1.4)
            .and(Predicate::compare("price", Op::Lt, 2))
            .matches(&r)
    );
    assert!(
        Predicate::is_null(city)
            .and(Predicate::is_not_null("address"))
            .matches(&r)
    );
    assert!(!Predicate::compare("name", Op::Eq, 12).matches(&r));
    assert!(!Predicate::compare("missing", Op::Eq, 1).matches(&r));
    // A field named `a.b` is not `b` inside `a`.
    assert!(Predicate::compare("a.b", Op::Eq, 1).matches(&r));
    assert!(!Predicate::compare(ColumnPath::new(["a", "b"]), Op::Eq, 1).matches(&r));
    let column = int_column(None, None);
    assert_eq!(
        Literal::Int(7).plain_bytes(&column),
        Some(7_i32.to_le_bytes().to_vec())
    );
    assert_eq!(Literal::Int(1 << 40).plain_bytes(&column), None);
    let decimal = int_column(
        Some(thrift::LogicalType::Decimal(thrift::DecimalType {
            scale: 2,
            precision: 9,
        })),
        None,
    );
    assert_eq!(Literal::Int(7).plain_bytes(&decimal), None);
}

/// Reads everything: footer, every page of every chunk, Bloom filters, rows; and
/// verifies the file when `verify`.
fn read_everything(bytes: Bytes, verify: bool) -> parquet_file::Result<usize> {
    let reader = FileReader::open(bytes)?;
    for g in 0..reader.num_row_groups() {
        for c in 0..reader.schema().columns().len() {
            reader.bloom_filter(g, c)?;
            reader.offset_index(g, c)?;
            reader.column_index(g, c)?;
        }
    }
    let mut rows = 0;
    for r in reader.rows() {
        r?;
        rows += 1;
    }
    if verify {
        let verification = reader.verify()?;
        assert_eq!(verification.rows, rows as u64);
    }
    Ok(rows)
}

#[test]
fn sample_file_reads_whole() {
    assert_eq!(
        read_everything(Bytes::from_static(EXAMPLE), true).unwrap(),
        40
    );
}

#[test]
fn every_truncation_is_an_error() {
    for len in 0..EXAMPLE.len() {
        assert!(
            read_everything(Bytes::copy_from_slice(&EXAMPLE[..len]), false).is_err(),
            "{len}"
        );
    }
}

#[test]
fn bit_flips_never_panic() {
    // Every byte of the file, one bit each (which bit varies with the offset). The CRCs
    // catch most flips in pages; flips in the footer and headers hit the decoders. One
    // in eight is verified too.
    for at in 0..EXAMPLE.len() {
        let mut bytes = EXAMPLE.to_vec();
        bytes[at] ^= 1 << (at % 8);
        let _ = read_everything(Bytes::from(bytes), at % 8 == 0);
    }
}

#[test]
fn arguments_out_of_range_are_errors() {
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let no_group = |e: parquet_file::Error| {
        assert!(
            matches!(e.kind(), ErrorKind::NoSuchRowGroup { index: 9, count: 2 }),
            "{e}"
        );
        assert!(e.kind().is_argument());
    };
    let no_column = |e: parquet_file::Error| {
        assert!(
            matches!(e.kind(), ErrorKind::NoSuchColumn { index: 99, .. }),
            "{e}"
        );
        assert!(e.kind().is_argument());
    };
    no_group(reader.offset_index(9, 0).unwrap_err());
    no_column(reader.column_index(0, 99).unwrap_err());
    no_group(reader.bloom_filter(9, 0).unwrap_err());
    no_column(reader.column_chunk(0, 99).unwrap_err());
    no_group(reader.metadata().column_chunk_metadata(9, 0).unwrap_err());
    no_group(
        Predicate::compare("id", Op::Eq, 1)
            .might_match(&reader, 9)
            .unwrap_err(),
    );
    no_group(
        reader
            .rows_with(Projection::all().row_groups([9]))
            .unwrap_err(),
    );
    let e = reader
        .rows_with(Projection::all().columns(["nope"]))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnknownPath { .. }), "{e}");
}

fn all_rows(reader: &FileReader<Bytes>) -> Vec<Row> {
    reader.rows().map(Result::unwrap).collect()
}

#[test]
fn page_index_decodes() {
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let offsets = reader.offset_index(1, 0).unwrap().unwrap();
    let firsts: Vec<u64> = offsets
        .page_locations
        .iter()
        .map(|l| l.first_row_index)
        .collect();
    assert_eq!(firsts, (0..10).map(|i| i * 50).collect::<Vec<_>>());
    let stats = reader.column_index(1, 0).unwrap().unwrap();
    assert_eq!(stats.boundary_order, BoundaryOrder::Ascending);
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

fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |bound| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    }
}

#[test]
fn row_selections_read_the_same_rows_as_a_full_read() {
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let all = all_rows(&reader);
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
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
fn record_batches_match_rows_at_every_batch_size() {
    // Every column of both row groups, read in batches of 1, 7, 64 and 10,000 records
    // with a skip between batches: the same values as read whole.
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    for g in 0..2 {
        for c in 0..reader.schema().columns().len() {
            let column = reader.schema().column(c).unwrap();
            let mut whole = ColumnBatch::new(column);
            let mut chunk = reader.column_chunk(g, c).unwrap();
            while chunk.read_records(100_000, &mut whole).unwrap() > 0 {}
            assert_eq!(whole.num_records(), 500);
            for size in [1, 7, 64, 10_000] {
                let mut chunk = reader.column_chunk(g, c).unwrap();
                let mut batch = ColumnBatch::new(column);
                let mut records = 0;
                loop {
                    let n = chunk.read_records(size, &mut batch).unwrap();
                    if n == 0 {
                        break;
                    }
                    assert!(n <= size);
                    records += n;
                    // Whole records: a batch never ends inside one.
                    assert!(batch.rep_levels().first().is_none_or(|&l| l == 0));
                }
                assert_eq!(records, 500);
                assert_eq!(batch, whole, "row group {g}, column {c}, batches of {size}");
            }
            // Skipping lands on the same records as reading.
            let mut chunk = reader.column_chunk(g, c).unwrap();
            assert_eq!(chunk.skip_records(123).unwrap(), 123);
            assert_eq!(chunk.row(), 123);
            let mut rest = ColumnBatch::new(column);
            assert_eq!(chunk.read_records(1000, &mut rest).unwrap(), 377);
            assert_eq!(chunk.skip_records(5).unwrap(), 0);
        }
    }
}

#[test]
fn selected_rows_skip_the_other_pages() {
    // Break the first data page of "id" in row group 1: a full read fails on its
    // checksum, a read of rows beyond it never touches it.
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let page = reader.offset_index(1, 0).unwrap().unwrap().page_locations[0];
    let mut bytes = PAGES.to_vec();
    let at = usize::try_from(page.offset + u64::from(page.compressed_page_size) - 1).unwrap();
    bytes[at] ^= 0xff;
    let broken = FileReader::open(Bytes::from(bytes)).unwrap();
    let error = broken.rows().find_map(Result::err).unwrap();
    assert!(
        matches!(error.kind(), ErrorKind::Checksum { .. }),
        "{error}"
    );
    assert_eq!(error.location().row_group, Some(1));
    assert_eq!(error.location().column, Some(ColumnPath::from("id")));

    let predicate =
        Predicate::compare("id", Op::Ge, 720).and(Predicate::compare("id", Op::Lt, 730));
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

/// A file in memory that records the ranges read from it.
struct Counting {
    bytes: Bytes,
    reads: std::cell::RefCell<Vec<std::ops::Range<u64>>>,
}

impl Counting {
    fn new(bytes: &'static [u8]) -> Self {
        Self {
            bytes: Bytes::from_static(bytes),
            reads: std::cell::RefCell::default(),
        }
    }

    fn bytes_read(&self) -> u64 {
        self.reads.borrow().iter().map(|r| r.end - r.start).sum()
    }
}

impl Source for Counting {
    fn len(&self) -> std::io::Result<u64> {
        Ok(self.bytes.len() as u64)
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Bytes> {
        self.reads.borrow_mut().push(offset..offset + len as u64);
        self.bytes.read_at(offset, len)
    }
}

#[test]
fn selected_rows_read_only_their_pages() {
    let reader = FileReader::open(Counting::new(PAGES)).unwrap();
    let chunks: u64 = reader.metadata().row_groups()[1]
        .columns()
        .iter()
        .map(|c| c.metadata().unwrap().total_compressed_size())
        .sum();
    let rows = |projection| {
        let before = reader.source().bytes_read();
        let n = reader
            .rows_with(projection)
            .unwrap()
            .map(Result::unwrap)
            .count();
        (n, reader.source().bytes_read() - before)
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
fn chunk_ranges_are_what_chunk_readers_read() {
    let reader = FileReader::open(Counting::new(PAGES)).unwrap();
    let rows = RowSelection::from_ranges([200..250, 499..500]);
    let mut sizes = Vec::new();
    for selection in [None, Some(&rows)] {
        let ranges = reader.column_chunk_ranges(1, 0, selection).unwrap();
        reader.source().reads.borrow_mut().clear();
        match selection {
            Some(rows) => reader.column_chunk_selected(1, 0, rows),
            None => reader.column_chunk(1, 0),
        }
        .unwrap();
        // A selected read reads the offset index first, then the ranges.
        let reads = reader.source().reads.take();
        assert!(reads.ends_with(&ranges), "{reads:?} after {ranges:?}");
        assert_eq!(reads.len() - ranges.len(), usize::from(selection.is_some()));
        sizes.push(ranges.iter().map(|r| r.end - r.start).sum::<u64>());
    }
    let whole = reader.metadata().row_groups()[1].columns()[0]
        .metadata()
        .unwrap()
        .total_compressed_size();
    assert_eq!(sizes[0], whole);
    assert!(sizes[1] * 2 < whole, "{sizes:?}");
}

#[test]
fn column_batches_of_selected_rows() {
    // An engine's use: the rows 200..250 and 499 of "id" in row group 1, the reader
    // seeking from page to page by itself.
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let rows = RowSelection::from_ranges([200..250, 499..500]);
    let mut chunk = reader.column_chunk_selected(1, 0, &rows).unwrap();
    let mut batch = ColumnBatch::new(chunk.column());
    assert_eq!(chunk.read_records(30, &mut batch).unwrap(), 30);
    assert_eq!(chunk.read_records(100, &mut batch).unwrap(), 21);
    assert_eq!(chunk.read_records(100, &mut batch).unwrap(), 0);
    let mut expected: Vec<i64> = (700..750).collect();
    expected.push(999);
    assert_eq!(batch.values(), &ColumnValues::Int64(expected));
}

#[test]
fn offset_index_checks() {
    let index = |pages: &[(i64, i32, i64)]| {
        let mut bytes = Vec::new();
        thrift::OffsetIndex {
            page_locations: pages
                .iter()
                .map(
                    |&(offset, compressed_page_size, first_row_index)| thrift::PageLocation {
                        offset,
                        compressed_page_size,
                        first_row_index,
                    },
                )
                .collect(),
            unencoded_byte_array_data_bytes: None,
        }
        .write_to(&mut bytes)
        .unwrap();
        bytes
    };
    let check =
        |pages: &[(i64, i32, i64)], rows| OffsetIndex::decode(&index(pages), 100..200, rows);
    let index = check(&[(100, 50, 0), (150, 50, 10)], 20).unwrap();
    let locations: Vec<_> = index
        .page_locations
        .iter()
        .map(|l| (l.offset, l.compressed_page_size, l.first_row_index))
        .collect();
    assert_eq!(locations, [(100, 50, 0), (150, 50, 10)]);
    assert!(check(&[], 0).unwrap().page_locations.is_empty());
    // No pages for rows; a page outside the chunk; overlapping pages; rows going back,
    // not starting at 0 or past the row group: each names the entry at fault.
    let outside = "offset index entry (outside its column chunk, or negative)";
    let order = "offset index entry (out of order, or past the row group's rows)";
    for (pages, rows, rule, entry) in [
        (&[(100, 101, 0)][..], 20, outside, 0),
        (&[(90, 10, 0)][..], 20, outside, 0),
        (&[(100, 60, 0), (150, 50, 10)][..], 20, order, 1),
        (
            &[(100, 50, 0), (150, 25, 5), (175, 10, 4)][..],
            20,
            order,
            2,
        ),
        (&[(100, 50, 1)][..], 20, order, 0),
        (&[(100, 50, 0), (150, 50, 21)][..], 20, order, 1),
        (&[(-1, 50, 0)][..], 20, outside, 0),
        (&[(100, -5, 0)][..], 20, outside, 0),
    ] {
        let e = check(pages, rows).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Invalid { what, value } if *what == rule && *value == entry),
            "{pages:?}: {e}"
        );
    }
    let e = check(&[], 1).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Mismatch {
                expected: 1,
                found: 0,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn row_selections_combine() {
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let selection = |p: Predicate, g: usize| p.row_selection(&reader, g).unwrap();
    let id = |op, v: i64| Predicate::compare("id", op, v);
    assert_eq!(
        selection(id(Op::Lt, 60).or(id(Op::Ge, 480)), 0).ranges(),
        &[0..100, 450..500]
    );
    assert_eq!(
        selection(id(Op::Lt, 60).and(id(Op::Ge, 40)), 0).ranges(),
        &[0..100]
    );
    assert_eq!(selection(id(Op::Lt, 60).negate(), 0).ranges(), &[0..500]);
    assert_eq!(
        selection(Predicate::is_null("maybe"), 0).ranges(),
        &[200..400]
    );
    assert!(selection(id(Op::Gt, 1000), 1).is_empty());
    // A repeated column, and a column with no index here, select everything.
    let tags = ColumnPath::new(["tags", "list", "element"]);
    assert_eq!(
        selection(Predicate::compare(tags, Op::Eq, "t9"), 0).ranges(),
        &[0..500]
    );
}

#[test]
fn page_index_bit_flips_never_panic() {
    // Every byte of the indexes and the footer, every seventh of the pages (whose
    // flips the checksums mostly catch).
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    let first_index = reader.metadata().row_groups()[0].columns()[0]
        .column_index_location()
        .unwrap()
        .offset;
    let first_index = usize::try_from(first_index).unwrap();
    let predicate = Predicate::compare("id", Op::Ge, 120)
        .and(Predicate::is_null("maybe"))
        .or(Predicate::compare("group", Op::Eq, "g7"));
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

#[test]
fn sample_files_verify() {
    for bytes in [EXAMPLE, PAGES] {
        let reader = FileReader::open(Bytes::from_static(bytes)).unwrap();
        let verification = reader.verify().unwrap();
        assert!(verification.is_ok(), "{:#?}", verification.disagreements);
        assert!(verification.pages > 0);
    }
}

#[test]
fn selections_that_end_with_a_page() {
    // For every column of both row groups, the rows of each page alone: the reader holds
    // that page only, and its end is not the chunk's (a repeated column looks past a
    // page's end for the rest of its last record).
    let reader = FileReader::open(Bytes::from_static(PAGES)).unwrap();
    for g in 0..2 {
        for c in 0..reader.schema().columns().len() {
            let Some(offsets) = reader.offset_index(g, c).unwrap() else {
                continue;
            };
            let column = reader.schema().column(c).unwrap();
            for page in offsets.page_rows(500) {
                let rows = RowSelection::from_ranges([page.clone()]);
                let mut chunk = reader.column_chunk_selected(g, c, &rows).unwrap();
                let mut batch = ColumnBatch::new(column);
                let n = chunk.read_records(1000, &mut batch).unwrap();
                assert_eq!(n as u64, page.end - page.start, "{g} {c} {page:?}");
                assert_eq!(chunk.read_records(1000, &mut batch).unwrap(), 0);
            }
        }
    }
}
