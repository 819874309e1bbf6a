//! The enums of `parquet.thrift`.

use crate::macros::thrift_enum;

thrift_enum! {
    /// The physical types: how values are stored, before any logical annotation.
    pub enum Type {
        /// One bit per value in PLAIN.
        0: BOOLEAN,
        /// 32-bit signed integers.
        1: INT32,
        /// 64-bit signed integers.
        2: INT64,
        /// 96-bit values, used by legacy writers for timestamps (deprecated).
        3: INT96,
        /// IEEE 754 single precision.
        4: FLOAT,
        /// IEEE 754 double precision.
        5: DOUBLE,
        /// Byte arrays of any length.
        6: BYTE_ARRAY,
        /// Byte arrays of the length given by `SchemaElement::type_length`.
        7: FIXED_LEN_BYTE_ARRAY,
    }
}

thrift_enum! {
    /// The legacy annotations of a schema element, superseded by [`LogicalType`](crate::LogicalType).
    pub enum ConvertedType {
        /// UTF-8 text in a BYTE_ARRAY.
        0: UTF8,
        /// A map: an optional group holding a repeated key/value group.
        1: MAP,
        /// The repeated key/value group inside a map.
        2: MAP_KEY_VALUE,
        /// A list: an optional group holding a repeated field.
        3: LIST,
        /// An enum stored as a BYTE_ARRAY.
        4: ENUM,
        /// A decimal; scale and precision are in the schema element.
        5: DECIMAL,
        /// Days since the Unix epoch, in an INT32.
        6: DATE,
        /// Milliseconds since midnight, in an INT32.
        7: TIME_MILLIS,
        /// Microseconds since midnight, in an INT64.
        8: TIME_MICROS,
        /// Milliseconds since the Unix epoch, in an INT64.
        9: TIMESTAMP_MILLIS,
        /// Microseconds since the Unix epoch, in an INT64.
        10: TIMESTAMP_MICROS,
        /// An unsigned 8-bit integer, in an INT32.
        11: UINT_8,
        /// An unsigned 16-bit integer, in an INT32.
        12: UINT_16,
        /// An unsigned 32-bit integer, in an INT32.
        13: UINT_32,
        /// An unsigned 64-bit integer, in an INT64.
        14: UINT_64,
        /// A signed 8-bit integer, in an INT32.
        15: INT_8,
        /// A signed 16-bit integer, in an INT32.
        16: INT_16,
        /// A signed 32-bit integer, in an INT32.
        17: INT_32,
        /// A signed 64-bit integer, in an INT64.
        18: INT_64,
        /// A JSON document in UTF-8 text.
        19: JSON,
        /// A BSON document in a BYTE_ARRAY.
        20: BSON,
        /// Months, days and milliseconds as three little-endian `u32` in a 12-byte
        /// FIXED_LEN_BYTE_ARRAY.
        21: INTERVAL,
    }
}

thrift_enum! {
    /// How often a schema field occurs in its parent.
    pub enum FieldRepetitionType {
        /// Exactly once; never null.
        0: REQUIRED,
        /// Zero or one time: may be null.
        1: OPTIONAL,
        /// Zero or more times.
        2: REPEATED,
    }
}

thrift_enum! {
    /// The algorithm that interpolates the edges of a GEOGRAPHY value.
    pub enum EdgeInterpolationAlgorithm {
        /// Great circles on a sphere (the default).
        0: SPHERICAL,
        /// Vincenty's geodesics.
        1: VINCENTY,
        /// Thomas' geodesics.
        2: THOMAS,
        /// Andoyer's geodesics.
        3: ANDOYER,
        /// Karney's geodesics.
        4: KARNEY,
    }
}

thrift_enum! {
    /// The encodings of values and levels (parquet-encodings.txt).
    pub enum Encoding {
        /// The plain encoding of each physical type.
        0: PLAIN,
        /// Dictionary encoding, the dictionary in PLAIN (deprecated: RLE_DICTIONARY for
        /// data pages, PLAIN for dictionary pages).
        2: PLAIN_DICTIONARY,
        /// The RLE/bit-packing hybrid, for levels and booleans.
        3: RLE,
        /// The deprecated MSB-first bit packing of levels.
        4: BIT_PACKED,
        /// Delta encoding of INT32 and INT64.
        5: DELTA_BINARY_PACKED,
        /// Delta-encoded lengths followed by the bytes of BYTE_ARRAY values.
        6: DELTA_LENGTH_BYTE_ARRAY,
        /// Prefix (front) compression of byte arrays.
        7: DELTA_BYTE_ARRAY,
        /// Dictionary indices in the RLE/bit-packing hybrid.
        8: RLE_DICTIONARY,
        /// The bytes of fixed-width values split into one stream per byte position.
        9: BYTE_STREAM_SPLIT,
        /// Adaptive lossless floating-point compression.
        10: ALP,
    }
}

thrift_enum! {
    /// The compression codecs of pages.
    pub enum CompressionCodec {
        /// No compression.
        0: UNCOMPRESSED,
        /// Snappy, raw (no framing).
        1: SNAPPY,
        /// GZIP (RFC 1952).
        2: GZIP,
        /// LZO.
        3: LZO,
        /// Brotli.
        4: BROTLI,
        /// LZ4 with the Hadoop framing (deprecated).
        5: LZ4,
        /// Zstandard.
        6: ZSTD,
        /// LZ4 block format without framing.
        7: LZ4_RAW,
    }
}

thrift_enum! {
    /// The kinds of page.
    pub enum PageType {
        /// A data page (version 1 header).
        0: DATA_PAGE,
        /// An index page.
        1: INDEX_PAGE,
        /// A dictionary page.
        2: DICTIONARY_PAGE,
        /// A data page (version 2 header: levels outside the compressed section).
        3: DATA_PAGE_V2,
    }
}

thrift_enum! {
    /// Whether the bounds of a column index are ordered, and how.
    pub enum BoundaryOrder {
        /// No order.
        0: UNORDERED,
        /// Both `min_values` and `max_values` ascend.
        1: ASCENDING,
        /// Both `min_values` and `max_values` descend.
        2: DESCENDING,
    }
}
