//! The schema: [`SchemaElement`] and the [`LogicalType`] annotations.

use std::borrow::Cow;

use crate::enums::{ConvertedType, EdgeInterpolationAlgorithm, FieldRepetitionType, Type};
use crate::macros::{thrift_struct, thrift_union};

thrift_struct! {
    /// The STRING annotation: UTF-8 text in a BYTE_ARRAY.
    pub struct StringType {}
}

thrift_struct! {
    /// The UUID annotation: a FIXED_LEN_BYTE_ARRAY of 16 bytes, the raw UUID.
    pub struct UuidType {}
}

thrift_struct! {
    /// The MAP annotation of a group.
    pub struct MapType {}
}

thrift_struct! {
    /// The LIST annotation of a group.
    pub struct ListType {}
}

thrift_struct! {
    /// The ENUM annotation: UTF-8 text in a BYTE_ARRAY.
    pub struct EnumType {}
}

thrift_struct! {
    /// The DATE annotation: days since the Unix epoch in an INT32.
    pub struct DateType {}
}

thrift_struct! {
    /// The FLOAT16 annotation: a FIXED_LEN_BYTE_ARRAY of 2 bytes, an IEEE half float.
    pub struct Float16Type {}
}

thrift_struct! {
    /// The UNKNOWN annotation: a column that holds only nulls.
    pub struct NullType {}
}

thrift_struct! {
    /// The DECIMAL annotation: an unscaled integer and a power of ten.
    #[derive(Eq, Hash)]
    pub struct DecimalType {
        /// Digits after the decimal point (0 ≤ scale ≤ precision).
        1: required scale: i32,
        /// Total number of digits (positive).
        2: required precision: i32,
    }
}

thrift_struct! {
    /// The unit of milliseconds.
    pub struct MilliSeconds {}
}

thrift_struct! {
    /// The unit of microseconds.
    pub struct MicroSeconds {}
}

thrift_struct! {
    /// The unit of nanoseconds.
    pub struct NanoSeconds {}
}

thrift_union! {
    /// The unit of a TIME or TIMESTAMP annotation.
    #[derive(Eq, Hash)]
    pub enum TimeUnit {
        /// Milliseconds.
        1: MILLIS => Millis(MilliSeconds),
        /// Microseconds.
        2: MICROS => Micros(MicroSeconds),
        /// Nanoseconds.
        3: NANOS => Nanos(NanoSeconds),
    }
}

thrift_struct! {
    /// The TIMESTAMP annotation of an INT64.
    #[derive(Eq, Hash)]
    pub struct TimestampType {
        /// Whether values are instants in UTC (true) or local date-times (false).
        1: required is_adjusted_to_utc: bool,
        /// The unit of the values.
        2: required unit: TimeUnit,
    }
}

thrift_struct! {
    /// The TIME annotation: an INT32 of milliseconds, or an INT64 of micro- or nanoseconds.
    #[derive(Eq, Hash)]
    pub struct TimeType {
        /// Whether values are times in UTC (true) or local times (false).
        1: required is_adjusted_to_utc: bool,
        /// The unit of the values.
        2: required unit: TimeUnit,
    }
}

thrift_struct! {
    /// The INTEGER annotation of an INT32 or INT64.
    #[derive(Eq, Hash)]
    pub struct IntType {
        /// 8, 16, 32 or 64.
        1: required bit_width: i8,
        /// Whether the values are signed.
        2: required is_signed: bool,
    }
}

thrift_struct! {
    /// The JSON annotation: a JSON document in UTF-8 text.
    pub struct JsonType {}
}

thrift_struct! {
    /// The BSON annotation: a BSON document in a BYTE_ARRAY.
    pub struct BsonType {}
}

thrift_struct! {
    /// The VARIANT annotation of a group.
    #[derive(Eq, Hash)]
    pub struct VariantType {
        /// The version of the variant specification the values were written with.
        1: optional specification_version: i8,
    }
}

thrift_struct! {
    /// The GEOMETRY annotation: Well-Known Binary with planar edges.
    #[derive(Eq, Hash)]
    pub struct GeometryType<'a> {
        /// The coordinate reference system; `OGC:CRS84` when absent.
        1: optional crs: Cow<'a, str>,
    }
}

thrift_struct! {
    /// The GEOGRAPHY annotation: Well-Known Binary with edges interpolated on the
    /// ellipsoid or sphere.
    #[derive(Eq, Hash)]
    pub struct GeographyType<'a> {
        /// The geographic coordinate reference system; `OGC:CRS84` when absent.
        1: optional crs: Cow<'a, str>,
        /// The edge interpolation; SPHERICAL when absent.
        2: optional algorithm: EdgeInterpolationAlgorithm,
    }
}

thrift_struct! {
    /// The FILE annotation.
    pub struct FileType {}
}

thrift_union! {
    /// The logical type of a schema element, which supersedes [`ConvertedType`].
    #[derive(Eq, Hash)]
    pub enum LogicalType<'a> {
        /// UTF-8 text (converted type UTF8).
        1: STRING => String(StringType),
        /// A map (converted type MAP).
        2: MAP => Map(MapType),
        /// A list (converted type LIST).
        3: LIST => List(ListType),
        /// An enum (converted type ENUM).
        4: ENUM => Enum(EnumType),
        /// A decimal (converted type DECIMAL).
        5: DECIMAL => Decimal(DecimalType),
        /// A date (converted type DATE).
        6: DATE => Date(DateType),
        /// A time of day.
        7: TIME => Time(TimeType),
        /// An instant or local date-time.
        8: TIMESTAMP => Timestamp(TimestampType),
        /// An integer of a given width and signedness.
        10: INTEGER => Integer(IntType),
        /// Only nulls.
        11: UNKNOWN => Unknown(NullType),
        /// A JSON document.
        12: JSON => Json(JsonType),
        /// A BSON document.
        13: BSON => Bson(BsonType),
        /// A UUID.
        14: UUID => Uuid(UuidType),
        /// A half-precision float.
        15: FLOAT16 => Float16(Float16Type),
        /// A semi-structured variant.
        16: VARIANT => Variant(VariantType),
        /// A planar geometry.
        17: GEOMETRY => Geometry(GeometryType<'a>),
        /// A geography on the ellipsoid or sphere.
        18: GEOGRAPHY => Geography(GeographyType<'a>),
        /// A file.
        19: FILE => File(FileType),
    }
}

thrift_struct! {
    /// One node of the schema tree, which the footer flattens depth first: a group
    /// (`num_children` set, no `type_`) or a leaf column (`type_` set).
    #[derive(Eq, Hash)]
    pub struct SchemaElement<'a> {
        /// The physical type of a leaf; absent for a group.
        1: optional type_: Type,
        /// For FIXED_LEN_BYTE_ARRAY, the length of each value in bytes.
        2: optional type_length: i32,
        /// How often the field occurs; absent for the root.
        3: optional repetition_type: FieldRepetitionType,
        /// The field's name.
        4: required name: Cow<'a, str>,
        /// For a group, the number of children that follow it.
        5: optional num_children: i32,
        /// The legacy annotation.
        6: optional converted_type: ConvertedType,
        /// For the legacy DECIMAL annotation, the scale.
        7: optional scale: i32,
        /// For the legacy DECIMAL annotation, the precision.
        8: optional precision: i32,
        /// The field id of the schema this one was converted from.
        9: optional field_id: i32,
        /// The logical type.
        10: optional logical_type: LogicalType<'a>,
    }
}
