//! The writer's bytes checked against the format with no reader in between: footer, page
//! headers, checksums, offset and column index entries, and Bloom filter bits decoded
//! from the file with parquet-thrift and compared with what the data written says.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)] // Small test files.

use parquet_bloom::Sbbf;
use parquet_file::{
    BloomFilterOptions, ByteArrayBatch, ColumnBatch, ColumnValues, FileWriter, LogicalType,
    PhysicalType, Schema, SchemaField, WriterOptions,
};
use parquet_thrift as thrift;

const ROWS: usize = 1000;
const PAGE_ROWS: usize = 100;

/// A file of an INT64 column `id` (0..1000) and an optional STRING `name` (`n{id % 37}`,
/// null every 10th row), 100 rows a page.
fn file() -> Vec<u8> {
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::required("id", PhysicalType::Int64),
            SchemaField::optional("name", PhysicalType::ByteArray)
                .with_logical_type(LogicalType::String),
        ],
    )
    .unwrap();
    let ids = ColumnValues::Int64((0..ROWS as i64).collect());
    let def: Vec<u16> = (0..ROWS).map(|i| u16::from(i % 10 != 0)).collect();
    let mut names = ByteArrayBatch::new();
    for i in (0..ROWS).filter(|i| i % 10 != 0) {
        names.push(format!("n{}", i % 37).as_bytes()).unwrap();
    }
    let batches = [
        ColumnBatch::try_new(&schema.columns()[0], ids, vec![], vec![]).unwrap(),
        ColumnBatch::try_new(
            &schema.columns()[1],
            ColumnValues::ByteArray(names),
            def,
            vec![],
        )
        .unwrap(),
    ];
    let options = WriterOptions::new()
        .with_page_rows(PAGE_ROWS)
        .with_dictionary(false)
        .with_bloom_filter(Some(BloomFilterOptions::default()));
    let mut writer = FileWriter::new(Vec::new(), schema, options).unwrap();
    writer.write_batches(&batches).unwrap();
    writer.finish().unwrap();
    writer.into_inner()
}

fn footer(file: &[u8]) -> thrift::FileMetaData<'_> {
    assert_eq!(&file[..4], b"PAR1");
    assert_eq!(&file[file.len() - 4..], b"PAR1");
    let len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
    let start = file.len() - 8 - len as usize;
    thrift::FileMetaData::read_from(&file[start..file.len() - 8])
        .unwrap()
        .0
}

#[test]
fn pages_their_checksums_and_the_offset_index_agree_with_the_bytes() {
    let file = file();
    let footer = footer(&file);
    assert_eq!(footer.num_rows, ROWS as i64);
    let group = &footer.row_groups[0];
    for chunk in &group.columns {
        let meta = chunk.meta_data.as_ref().unwrap();
        let offsets = thrift::OffsetIndex::read_from(
            &file[chunk.offset_index_offset.unwrap() as usize..]
                [..chunk.offset_index_length.unwrap() as usize],
        )
        .unwrap()
        .0;
        assert_eq!(offsets.page_locations.len(), ROWS / PAGE_ROWS);
        // Walk the chunk page by page from its first data page: each header's CRC is the
        // CRC32 of the page as stored; each page is where the offset index says.
        let mut at = meta.data_page_offset as usize;
        let end = at + meta.total_compressed_size as usize;
        for (i, location) in offsets.page_locations.iter().enumerate() {
            let (header, header_len) = thrift::PageHeader::read_from(&file[at..]).unwrap();
            let body = &file[at + header_len..][..header.compressed_page_size as usize];
            assert_eq!(header.crc, Some(crc32fast::hash(body).cast_signed()));
            assert_eq!(location.offset, at as i64);
            assert_eq!(
                location.compressed_page_size as usize,
                header_len + body.len()
            );
            assert_eq!(location.first_row_index, (i * PAGE_ROWS) as i64);
            assert_eq!(
                header.data_page_header.as_ref().unwrap().num_values,
                PAGE_ROWS as i32
            );
            at += header_len + body.len();
        }
        assert_eq!(at, end, "the pages fill the chunk");
    }
}

#[test]
fn column_index_bounds_are_each_pages() {
    let file = file();
    let footer = footer(&file);
    let chunk = &footer.row_groups[0].columns[0];
    let index = thrift::ColumnIndex::read_from(
        &file[chunk.column_index_offset.unwrap() as usize..]
            [..chunk.column_index_length.unwrap() as usize],
    )
    .unwrap()
    .0;
    assert_eq!(index.boundary_order, thrift::BoundaryOrder::ASCENDING);
    for page in 0..ROWS / PAGE_ROWS {
        let min = (page * PAGE_ROWS) as i64;
        assert_eq!(&*index.min_values[page], &min.to_le_bytes());
        assert_eq!(
            &*index.max_values[page],
            &(min + PAGE_ROWS as i64 - 1).to_le_bytes()
        );
        assert!(!index.null_pages[page]);
        assert_eq!(index.null_counts.as_ref().unwrap()[page], 0);
    }
    // The names: 10 nulls a page, bounds the smallest and largest text of the page.
    let chunk = &footer.row_groups[0].columns[1];
    let index = thrift::ColumnIndex::read_from(
        &file[chunk.column_index_offset.unwrap() as usize..]
            [..chunk.column_index_length.unwrap() as usize],
    )
    .unwrap()
    .0;
    for page in 0..ROWS / PAGE_ROWS {
        let names: Vec<String> = (page * PAGE_ROWS..(page + 1) * PAGE_ROWS)
            .filter(|i| i % 10 != 0)
            .map(|i| format!("n{}", i % 37))
            .collect();
        assert_eq!(
            &*index.min_values[page],
            names.iter().min().unwrap().as_bytes()
        );
        assert_eq!(
            &*index.max_values[page],
            names.iter().max().unwrap().as_bytes()
        );
        assert_eq!(index.null_counts.as_ref().unwrap()[page], 10);
        let histogram = index.definition_level_histograms.as_ref().unwrap();
        assert_eq!(&histogram[page * 2..page * 2 + 2], &[10, 90]);
    }
}

#[test]
fn bloom_filter_bits_hold_every_value() {
    let file = file();
    let footer = footer(&file);
    for (c, chunk) in footer.row_groups[0].columns.iter().enumerate() {
        let meta = chunk.meta_data.as_ref().unwrap();
        let start = meta.bloom_filter_offset.unwrap() as usize;
        let bytes = &file[start..][..meta.bloom_filter_length.unwrap() as usize];
        let (header, header_len) = thrift::BloomFilterHeader::read_from(bytes).unwrap();
        assert_eq!(bytes.len(), header_len + header.num_bytes as usize);
        let filter = Sbbf::try_from_bitset(&bytes[header_len..]).unwrap();
        let mut absent = 0;
        for i in 0..ROWS {
            if c == 0 {
                assert!(filter.check(&(i as i64)));
                absent += usize::from(filter.check(&((i + ROWS) as i64)));
            } else {
                assert!(filter.check(format!("n{}", i % 37).as_str()));
                absent += usize::from(filter.check(format!("m{i}").as_str()));
            }
        }
        // Sized for the distinct values at 5% false positives.
        assert!(absent < ROWS / 10, "{absent} false positives of {ROWS}");
    }
}
