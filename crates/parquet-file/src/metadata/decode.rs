//! Reading a plaintext footer straight into this crate's metadata types, in one pass and
//! without building parquet-thrift's structs first: column chunks are decoded in place,
//! their encodings and page encoding stats kept inline, their `path_in_schema` checked
//! against the schema rather than stored, and their statistics checked and kept as the
//! footer's bytes, decoded when first asked for.
//!
//! This is the path of files without encryption (no `encryption_algorithm`, no column
//! crypto metadata). Anything else, and any footer this path cannot read, goes to the
//! reference path, parquet-thrift's decoder and the `from_thrift` conversions, which then
//! gives the answer, error included. So this path has to agree with the reference on the
//! footers it accepts, and to accept none that the reference rejects: it reads every
//! field as parquet-thrift does (fields of another type than declared and unknown fields
//! skipped, a later field of the same id replacing an earlier one, required fields
//! required, the same nesting limit) and makes every check the conversions make.

use bytes::Bytes;
use parquet_thrift::compact::{FieldType, Reader};
use parquet_thrift::{self as thrift, ReadThrift, SmallList, ThriftType};

use super::{
    ChunkStatistics, ColumnChunk, ColumnChunkMetaData, ColumnOrder, Encoding, FileMetaData,
    GeospatialStatistics, IndexLocation, KeyValue, Offset, PackedLocation, PageEncodingStats,
    RareParts, RawStatistics, RowGroupMetaData, SizeStatistics, SortingColumn, codec, unsigned,
};
use crate::limits::Limits;
use crate::schema::{self, ColumnDescriptor, Schema};

/// Why the fast path gave up: the footer is for the reference path (encryption, an
/// unusual layout, or an error, which the reference reports).
struct Fallback;

impl From<thrift::Error> for Fallback {
    fn from(_: thrift::Error) -> Self {
        Self
    }
}

impl From<crate::Error> for Fallback {
    fn from(_: crate::Error) -> Self {
        Self
    }
}

type Fast<T> = Result<T, Fallback>;

/// `value`, or the fallback when a required field is missing.
fn required<T>(value: Option<T>) -> Fast<T> {
    value.ok_or(Fallback)
}

/// The metadata of the plaintext footer `buf` (which starts with its `FileMetaData`),
/// with its schema checked against `limits`; `None` when the reference path is to read
/// it.
pub(super) fn plain_footer(buf: &Bytes, limits: &Limits) -> Option<FileMetaData> {
    file_metadata(&mut Reader::new(buf), buf, limits).ok()
}

fn file_metadata(reader: &mut Reader<'_>, buf: &Bytes, limits: &Limits) -> Fast<FileMetaData> {
    const WHAT: &str = "FileMetaData";
    reader.enter()?;
    let mut version = None;
    let mut schema: Option<Schema> = None;
    let mut num_rows = None;
    let mut row_groups: Option<Vec<RowGroupMetaData>> = None;
    let mut key_value_metadata = None;
    let mut created_by = None;
    let mut column_orders = None;
    let mut last_id = 0;
    while let Some(header) = reader.read_field_header(&mut last_id, WHAT)? {
        let t = header.field_type;
        match (header.id, t) {
            (1, FieldType::I32) => version = Some(reader.read_i32(WHAT)?),
            // A second schema or list of row groups: for the reference path.
            (2, FieldType::List) if schema.is_none() => {
                let elements = Vec::<thrift::SchemaElement<'_>>::read_field(reader, t, WHAT)?;
                schema = Some(Schema::try_from_elements(&elements, limits)?);
            }
            (3, FieldType::I64) => num_rows = Some(reader.read_i64(WHAT)?),
            // Row groups before the schema: for the reference path.
            (4, FieldType::List) if row_groups.is_none() => {
                let columns = schema.as_ref().ok_or(Fallback)?.columns();
                row_groups = Some(read_row_groups(reader, buf, columns)?);
            }
            (5, FieldType::List) => {
                let kvs = Vec::<thrift::KeyValue<'_>>::read_field(reader, t, WHAT)?;
                key_value_metadata = Some(kvs.iter().map(KeyValue::from_thrift).collect());
            }
            (6, FieldType::Binary) => created_by = Some(reader.read_string(WHAT)?.to_owned()),
            (7, FieldType::List) => {
                let orders = Vec::<thrift::ColumnOrder>::read_field(reader, t, WHAT)?;
                column_orders = Some(orders.iter().map(ColumnOrder::from_thrift).collect());
            }
            // An encrypted file's footer, or a repeated schema or row group list.
            (2 | 4 | 8 | 9, _) => return Err(Fallback),
            _ => reader.skip_field(t)?,
        }
    }
    reader.leave();
    let (version, schema) = (required(version)?, required(schema)?);
    let (num_rows, row_groups) = (required(num_rows)?, required(row_groups)?);
    Ok(FileMetaData {
        version,
        num_rows: unsigned(num_rows, "number of rows")?,
        created_by,
        key_value_metadata: key_value_metadata.unwrap_or_default(),
        schema: std::sync::Arc::new(schema),
        row_groups,
        column_orders,
        encryption_algorithm: None,
        footer_signing_key_metadata: None,
    })
}

/// The list of row groups, each of one chunk per column of `columns`.
fn read_row_groups(
    reader: &mut Reader<'_>,
    buf: &Bytes,
    columns: &[ColumnDescriptor],
) -> Fast<Vec<RowGroupMetaData>> {
    let size = reader.read_list_size(
        FieldType::Struct,
        thrift::RowGroup::MIN_SIZE,
        "FileMetaData.row_groups",
    )?;
    // Each takes at least `MIN_SIZE` bytes, which the size was checked against.
    let mut groups = Vec::with_capacity(size);
    for _ in 0..size {
        groups.push(row_group(reader, buf, columns)?);
    }
    Ok(groups)
}

fn row_group(
    reader: &mut Reader<'_>,
    buf: &Bytes,
    descriptors: &[ColumnDescriptor],
) -> Fast<RowGroupMetaData> {
    const WHAT: &str = "RowGroup";
    reader.enter()?;
    let mut columns: Option<Vec<ColumnChunk>> = None;
    let mut total_byte_size = None;
    let mut num_rows = None;
    let mut sorting_columns = None;
    let mut file_offset = None;
    let mut total_compressed_size = None;
    let mut ordinal = None;
    let mut last_id = 0;
    while let Some(header) = reader.read_field_header(&mut last_id, WHAT)? {
        let t = header.field_type;
        match (header.id, t) {
            (1, FieldType::List) => {
                let size = reader.read_list_size(
                    FieldType::Struct,
                    thrift::ColumnChunk::MIN_SIZE,
                    "RowGroup.columns",
                )?;
                // As many chunks as the schema has leaves (else the reference reports it).
                if size != descriptors.len() {
                    return Err(Fallback);
                }
                let mut chunks = Vec::with_capacity(size);
                for descriptor in descriptors {
                    chunks.push(column_chunk(reader, buf, descriptor)?);
                }
                columns = Some(chunks);
            }
            (2, FieldType::I64) => total_byte_size = Some(reader.read_i64(WHAT)?),
            (3, FieldType::I64) => num_rows = Some(reader.read_i64(WHAT)?),
            (4, FieldType::List) => {
                let sorting = Vec::<thrift::SortingColumn>::read_field(reader, t, WHAT)?;
                sorting_columns = Some(sorting);
            }
            (5, FieldType::I64) => file_offset = Some(reader.read_i64(WHAT)?),
            (6, FieldType::I64) => total_compressed_size = Some(reader.read_i64(WHAT)?),
            (7, FieldType::I16) => ordinal = Some(reader.read_i16(WHAT)?),
            _ => reader.skip_field(t)?,
        }
    }
    reader.leave();
    let columns = required(columns)?;
    let total_byte_size = required(total_byte_size)?;
    let num_rows = unsigned(required(num_rows)?, "number of rows")?;
    Ok(RowGroupMetaData {
        num_rows,
        total_byte_size,
        total_compressed_size,
        file_offset,
        ordinal,
        sorting_columns: sorting_columns
            .iter()
            .flatten()
            .filter_map(|s| {
                Some(SortingColumn {
                    column: usize::try_from(s.column_idx).ok()?,
                    descending: s.descending,
                    nulls_first: s.nulls_first,
                })
            })
            .collect(),
        columns,
    })
}

fn column_chunk(
    reader: &mut Reader<'_>,
    buf: &Bytes,
    descriptor: &ColumnDescriptor,
) -> Fast<ColumnChunk> {
    const WHAT: &str = "ColumnChunk";
    reader.enter()?;
    let mut file_path = None;
    let mut file_offset = None;
    let mut metadata = None;
    let (mut offset_index_offset, mut offset_index_length) = (None, None);
    let (mut column_index_offset, mut column_index_length) = (None, None);
    let mut last_id = 0;
    while let Some(header) = reader.read_field_header(&mut last_id, WHAT)? {
        let t = header.field_type;
        match (header.id, t) {
            (1, FieldType::Binary) => file_path = Some(reader.read_string(WHAT)?),
            (2, FieldType::I64) => file_offset = Some(reader.read_i64(WHAT)?),
            (3, FieldType::Struct) => metadata = Some(column_metadata(reader, buf, descriptor)?),
            (4, FieldType::I64) => offset_index_offset = Some(reader.read_i64(WHAT)?),
            (5, FieldType::I32) => offset_index_length = Some(reader.read_i32(WHAT)?),
            (6, FieldType::I64) => column_index_offset = Some(reader.read_i64(WHAT)?),
            (7, FieldType::I32) => column_index_length = Some(reader.read_i32(WHAT)?),
            // Column crypto metadata, or encrypted column metadata.
            (8 | 9, _) => return Err(Fallback),
            _ => reader.skip_field(t)?,
        }
    }
    reader.leave();
    Ok(ColumnChunk {
        file_path: file_path.map(Box::from),
        file_offset: required(file_offset)?,
        offset_index: PackedLocation::new(IndexLocation::from_thrift(
            offset_index_offset,
            offset_index_length,
            "offset index location",
        )?),
        column_index: PackedLocation::new(IndexLocation::from_thrift(
            column_index_offset,
            column_index_length,
            "column index location",
        )?),
        encryption: None,
        encrypted_metadata: None,
        metadata,
    })
}

/// The required fields of a `ColumnMetaData`, by id.
const COLUMN_METADATA_REQUIRED: u32 =
    1 << 1 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 5 | 1 << 6 | 1 << 7 | 1 << 9;

#[allow(clippy::too_many_lines)] // one arm per field, then the conversion
fn column_metadata(
    reader: &mut Reader<'_>,
    buf: &Bytes,
    descriptor: &ColumnDescriptor,
) -> Fast<ColumnChunkMetaData> {
    const WHAT: &str = "ColumnMetaData";
    reader.enter()?;
    let mut seen = 0u32;
    let mut physical = thrift::Type::default();
    let mut encodings = SmallList::<Encoding, 4>::new();
    let mut codec_id = thrift::CompressionCodec::default();
    let (mut num_values, mut uncompressed, mut compressed, mut data_page_offset) = (0, 0, 0, 0);
    let mut key_value_metadata = Vec::new();
    let mut index_page_offset = None;
    let mut dictionary_page_offset = None;
    let mut statistics = None;
    let mut encoding_stats = None;
    let mut bloom_filter_offset = None;
    let mut bloom_filter_length = None;
    let mut size_statistics = None;
    let mut geospatial_statistics = None;
    let mut last_id = 0;
    while let Some(header) = reader.read_field_header(&mut last_id, WHAT)? {
        let t = header.field_type;
        let id = header.id;
        match (id, t) {
            (1, FieldType::I32) => physical = thrift::Type(reader.read_i32(WHAT)?),
            (2, FieldType::List) => {
                let size = reader.read_list_size(FieldType::I32, 1, WHAT)?;
                encodings = SmallList::new();
                for _ in 0..size {
                    let encoding = thrift::Encoding(reader.read_i32(WHAT)?);
                    encodings.push(Encoding::from_thrift(encoding));
                }
            }
            (3, FieldType::List) => {
                // Not kept (the schema gives the path), but read as the reference does:
                // a list of UTF-8 strings.
                let size = reader.read_list_size(FieldType::Binary, 1, WHAT)?;
                let parts = descriptor.path.parts();
                for i in 0..size {
                    let part = reader.read_binary(WHAT)?;
                    if parts.get(i).map(String::as_bytes) != Some(part) {
                        std::str::from_utf8(part).map_err(|_| Fallback)?;
                    }
                }
            }
            (4, FieldType::I32) => codec_id = thrift::CompressionCodec(reader.read_i32(WHAT)?),
            (5, FieldType::I64) => num_values = reader.read_i64(WHAT)?,
            (6, FieldType::I64) => uncompressed = reader.read_i64(WHAT)?,
            (7, FieldType::I64) => compressed = reader.read_i64(WHAT)?,
            (8, FieldType::List) => {
                let kvs = Vec::<thrift::KeyValue<'_>>::read_field(reader, t, WHAT)?;
                key_value_metadata = kvs.iter().map(KeyValue::from_thrift).collect();
            }
            (9, FieldType::I64) => data_page_offset = reader.read_i64(WHAT)?,
            (10, FieldType::I64) => index_page_offset = Some(reader.read_i64(WHAT)?),
            (11, FieldType::I64) => dictionary_page_offset = Some(reader.read_i64(WHAT)?),
            (12, FieldType::Struct) => {
                let start = reader.position();
                RawStatistics::read(reader)?;
                statistics = Some(ChunkStatistics::lazy(buf.slice(start..reader.position())));
            }
            (13, FieldType::List) => {
                let size = reader.read_list_size(
                    FieldType::Struct,
                    thrift::PageEncodingStats::MIN_SIZE,
                    WHAT,
                )?;
                let mut stats = SmallList::<PageEncodingStats, 3>::new();
                for _ in 0..size {
                    stats.push(page_encoding_stats(reader)?);
                }
                encoding_stats = Some(stats);
            }
            (14, FieldType::I64) => bloom_filter_offset = Some(reader.read_i64(WHAT)?),
            (15, FieldType::I32) => bloom_filter_length = Some(reader.read_i32(WHAT)?),
            (16, FieldType::Struct) => {
                let s = thrift::SizeStatistics::read_field(reader, t, WHAT)?;
                size_statistics = Some(Box::new(SizeStatistics::from_thrift(&s)));
            }
            (17, FieldType::Struct) => {
                let s = thrift::GeospatialStatistics::read_field(reader, t, WHAT)?;
                geospatial_statistics = Some(GeospatialStatistics::from_thrift(&s));
            }
            _ => {
                reader.skip_field(t)?;
                continue;
            }
        }
        // Only ids 1 to 17 get here.
        seen |= 1 << id;
    }
    reader.leave();
    if seen & COLUMN_METADATA_REQUIRED != COLUMN_METADATA_REQUIRED {
        return Err(Fallback);
    }
    // The checks of `ColumnChunkMetaData::from_thrift`.
    Ok(ColumnChunkMetaData {
        physical_type: schema::physical_type(physical).ok_or(Fallback)?,
        encodings,
        codec: codec(codec_id)?,
        num_values: unsigned(num_values, "number of values")?,
        total_uncompressed_size: unsigned(uncompressed, "total uncompressed size")?,
        total_compressed_size: unsigned(compressed, "total compressed size")?,
        data_page_offset: unsigned(data_page_offset, "data page offset")?,
        // Some writers store 0 for "none".
        dictionary_page_offset: Offset::new(match dictionary_page_offset {
            Some(0) | None => None,
            Some(offset) => Some(unsigned(offset, "dictionary page offset")?),
        }),
        statistics,
        encoding_stats,
        bloom_filter_offset: Offset::new(
            bloom_filter_offset
                .map(|o| unsigned(o, "Bloom filter offset"))
                .transpose()?,
        ),
        bloom_filter_length: bloom_filter_length
            .map(|l| u32::try_from(l).map_err(|_| Fallback))
            .transpose()?,
        size_statistics,
        rare: RareParts::new(key_value_metadata, index_page_offset, geospatial_statistics),
    })
}

fn page_encoding_stats(reader: &mut Reader<'_>) -> Fast<PageEncodingStats> {
    const WHAT: &str = "PageEncodingStats";
    reader.enter()?;
    let (mut page_type, mut encoding, mut count) = (None, None, None);
    let mut last_id = 0;
    while let Some(header) = reader.read_field_header(&mut last_id, WHAT)? {
        match (header.id, header.field_type) {
            (1, FieldType::I32) => page_type = Some(reader.read_i32(WHAT)?),
            (2, FieldType::I32) => encoding = Some(reader.read_i32(WHAT)?),
            (3, FieldType::I32) => count = Some(reader.read_i32(WHAT)?),
            (_, t) => reader.skip_field(t)?,
        }
    }
    reader.leave();
    Ok(PageEncodingStats {
        page_type: required(page_type)?,
        encoding: Encoding::from_thrift(thrift::Encoding(required(encoding)?)),
        count: required(count)?,
    })
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use bytes::Bytes;
    use parquet_thrift as thrift;
    use proptest::prelude::*;

    use super::plain_footer;
    use crate::error::Decoding as _;
    use crate::limits::Limits;
    use crate::metadata::FileMetaData;
    use crate::schema::Schema;

    /// The reference path: parquet-thrift's decoder, then the conversions.
    fn reference(buf: &Bytes) -> crate::Result<FileMetaData> {
        let (file, _) = thrift::FileMetaData::read_from(buf).decoding("footer")?;
        let schema = Schema::try_from_elements(&file.schema, &Limits::default())?;
        Ok(FileMetaData::from_thrift(&file, buf, schema, None)?.0)
    }

    /// A footer with every field the fast path reads: a nested schema, chunk metadata
    /// with statistics, encoding stats, key-value metadata, size and geospatial
    /// statistics, Bloom filter and index locations, sorting columns, column orders.
    #[allow(clippy::too_many_lines)] // one footer, field by field
    fn footer(groups: usize) -> Vec<u8> {
        use thrift::{FieldRepetitionType as R, Type as T};
        let element =
            |name: &'static str, t: Option<T>, children: Option<i32>| thrift::SchemaElement {
                name: Cow::Borrowed(name),
                type_: t,
                num_children: children,
                repetition_type: Some(R::OPTIONAL),
                ..thrift::SchemaElement::default()
            };
        let schema = vec![
            element("schema", None, Some(2)),
            element("a", Some(T::INT64), None),
            element("s", None, Some(1)),
            element("b", Some(T::BYTE_ARRAY), None),
        ];
        let chunk = |c: usize, g: usize| {
            let path: &[&'static str] = if c == 0 { &["a"] } else { &["s", "b"] };
            let n = i64::try_from(c + 10 * g).unwrap();
            thrift::ColumnChunk {
                file_offset: n,
                file_path: (c == 1 && g == 1).then_some(Cow::Borrowed("other.parquet")),
                meta_data: Some(thrift::ColumnMetaData {
                    type_: if c == 0 { T::INT64 } else { T::BYTE_ARRAY },
                    encodings: [thrift::Encoding::PLAIN, thrift::Encoding(99)].into(),
                    path_in_schema: path.iter().map(|p| Cow::Borrowed(*p)).collect(),
                    codec: thrift::CompressionCodec::SNAPPY,
                    num_values: 100 + n,
                    total_uncompressed_size: 2000,
                    total_compressed_size: 1000,
                    key_value_metadata: (c == 1).then(|| {
                        vec![thrift::KeyValue {
                            key: Cow::Borrowed("k"),
                            value: Some(Cow::Borrowed("v")),
                        }]
                    }),
                    data_page_offset: 4 + n,
                    index_page_offset: (g == 0).then_some(7),
                    dictionary_page_offset: Some(if c == 0 { 0 } else { 4 }),
                    statistics: Some(thrift::Statistics {
                        max: Some(Cow::Owned(vec![9; 8])),
                        min_value: Some(Cow::Owned(vec![1; 8])),
                        max_value: Some(Cow::Owned(vec![9; 8])),
                        null_count: Some(n),
                        distinct_count: Some(-1),
                        is_max_value_exact: Some(c == 0),
                        is_min_value_exact: Some(false),
                        nan_count: Some(0),
                        ..thrift::Statistics::default()
                    }),
                    encoding_stats: Some(
                        [thrift::PageEncodingStats {
                            page_type: thrift::PageType::DATA_PAGE,
                            encoding: thrift::Encoding::PLAIN,
                            count: 3,
                        }]
                        .into(),
                    ),
                    bloom_filter_offset: Some(5000),
                    bloom_filter_length: Some(32),
                    size_statistics: Some(Box::new(thrift::SizeStatistics {
                        unencoded_byte_array_data_bytes: Some(12),
                        repetition_level_histogram: Some([5, 6].into()),
                        definition_level_histogram: None,
                    })),
                    geospatial_statistics: (c == 1).then(|| {
                        Box::new(thrift::GeospatialStatistics {
                            bbox: None,
                            geospatial_types: Some(vec![1, 2]),
                        })
                    }),
                }),
                offset_index_offset: Some(6000 + n),
                offset_index_length: Some(10),
                column_index_offset: (g == 0).then_some(7000),
                column_index_length: (g == 0).then_some(20),
                ..thrift::ColumnChunk::default()
            }
        };
        let file = thrift::FileMetaData {
            version: 2,
            schema,
            num_rows: 200,
            row_groups: (0..groups)
                .map(|g| thrift::RowGroup {
                    columns: (0..2).map(|c| chunk(c, g)).collect(),
                    total_byte_size: 4000,
                    num_rows: 100,
                    sorting_columns: Some(vec![thrift::SortingColumn {
                        column_idx: 1,
                        descending: true,
                        nulls_first: false,
                    }]),
                    file_offset: Some(4),
                    total_compressed_size: Some(2000),
                    ordinal: i16::try_from(g).ok(),
                })
                .collect(),
            key_value_metadata: Some(vec![thrift::KeyValue {
                key: Cow::Borrowed("key"),
                value: None,
            }]),
            created_by: Some(Cow::Borrowed("parquet-kit test")),
            column_orders: Some(vec![
                thrift::ColumnOrder::TypeOrder(thrift::TypeDefinedOrder {}),
                thrift::ColumnOrder::Ieee754TotalOrder(thrift::Ieee754TotalOrder {}),
            ]),
            ..thrift::FileMetaData::default()
        };
        let mut bytes = Vec::new();
        file.write_to(&mut bytes).unwrap();
        bytes
    }

    #[test]
    fn reads_as_the_reference_does() {
        let buf = Bytes::from(footer(2));
        let fast = plain_footer(&buf, &Limits::default()).expect("a plain footer");
        let reference = reference(&buf).unwrap();
        assert_eq!(fast, reference);
        let meta = fast.column_chunk_metadata(1, 1).unwrap();
        assert_eq!(meta.statistics().unwrap().null_count, Some(11));
        assert_eq!(meta.statistics().unwrap().distinct_count, None);
        assert_eq!(
            meta.statistics().unwrap().min_value.as_deref(),
            Some(&[1; 8][..])
        );
        assert_eq!(
            fast.row_groups()[1].columns()[1].file_path(),
            Some("other.parquet")
        );
        // It writes back to a footer that reads the same (less what the model drops: a
        // negative count, a dictionary page offset of 0, the root's repetition).
        let mut again = Vec::new();
        fast.to_thrift().write_to(&mut again).unwrap();
        assert_ne!(again, buf);
        assert_eq!(
            plain_footer(&Bytes::from(again), &Limits::default()).unwrap(),
            fast
        );
    }

    #[test]
    fn leaves_encrypted_and_wrong_footers_to_the_reference() {
        let original = footer(1);
        let mut file = thrift::FileMetaData::read_from(&original).unwrap().0;
        file.encryption_algorithm = Some(thrift::EncryptionAlgorithm::AesGcmV1(
            thrift::AesGcmV1::default(),
        ));
        let mut bytes = Vec::new();
        file.write_to(&mut bytes).unwrap();
        assert!(plain_footer(&Bytes::from(bytes), &Limits::default()).is_none());

        // A path that is not UTF-8: the reference rejects it, and so does the fast path.
        let mut file = thrift::FileMetaData::read_from(&original).unwrap().0;
        let meta = file.row_groups[0].columns[0].meta_data.as_mut().unwrap();
        meta.path_in_schema = [Cow::Borrowed("\u{e9}")].into();
        let mut bytes = Vec::new();
        file.write_to(&mut bytes).unwrap();
        let at = bytes
            .windows(2)
            .position(|w| w == "\u{e9}".as_bytes())
            .unwrap();
        bytes[at + 1] = 0xff;
        let buf = Bytes::from(bytes);
        assert!(plain_footer(&buf, &Limits::default()).is_none());
        assert!(reference(&buf).is_err());
    }

    proptest! {
        /// On damaged footers, the fast path accepts only what the reference accepts,
        /// and reads it the same.
        #[test]
        fn accepts_only_what_the_reference_accepts(
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
            cut in any::<prop::sample::Index>(),
            truncate in any::<bool>(),
        ) {
            let mut bytes = footer(2);
            for (at, byte) in flips {
                let i = at.index(bytes.len());
                bytes[i] = byte;
            }
            if truncate {
                bytes.truncate(cut.index(bytes.len()));
            }
            let buf = Bytes::from(bytes);
            if let Some(fast) = plain_footer(&buf, &Limits::default()) {
                let reference = reference(&buf);
                prop_assert!(reference.is_ok(), "the reference rejects: {:?}", reference.err());
                prop_assert_eq!(fast, reference.unwrap());
            }
        }
    }
}
