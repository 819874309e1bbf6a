//! Logical and converted types: what a field's physical values mean.

use std::borrow::Cow;

use parquet_core::PhysicalType;
pub use parquet_core::TimeUnit;
use parquet_thrift as thrift;

fn time_unit_from_thrift(unit: &thrift::TimeUnit) -> Option<TimeUnit> {
    match unit {
        thrift::TimeUnit::Millis(_) => Some(TimeUnit::Millis),
        thrift::TimeUnit::Micros(_) => Some(TimeUnit::Micros),
        thrift::TimeUnit::Nanos(_) => Some(TimeUnit::Nanos),
        _ => None,
    }
}

fn time_unit_to_thrift(unit: TimeUnit) -> thrift::TimeUnit {
    match unit {
        TimeUnit::Millis => thrift::TimeUnit::Millis(thrift::MilliSeconds {}),
        TimeUnit::Micros => thrift::TimeUnit::Micros(thrift::MicroSeconds {}),
        TimeUnit::Nanos => thrift::TimeUnit::Nanos(thrift::NanoSeconds {}),
    }
}

/// How the edges of a GEOGRAPHY's shapes run between their vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeInterpolation {
    /// Great circles on a sphere (the default when a file gives none).
    Spherical,
    /// Geodesics on an ellipsoid, by Vincenty's formulae.
    Vincenty,
    /// By Thomas's formulae.
    Thomas,
    /// By Andoyer's formulae.
    Andoyer,
    /// By Karney's algorithm.
    Karney,
    /// A value newer than this reader.
    Unknown(i32),
}

impl EdgeInterpolation {
    /// The algorithm's name as parquet.thrift spells it.
    pub fn name(self) -> Cow<'static, str> {
        match self {
            Self::Spherical => "SPHERICAL".into(),
            Self::Vincenty => "VINCENTY".into(),
            Self::Thomas => "THOMAS".into(),
            Self::Andoyer => "ANDOYER".into(),
            Self::Karney => "KARNEY".into(),
            Self::Unknown(n) => format!("EdgeInterpolationAlgorithm({n})").into(),
        }
    }

    fn from_thrift(algorithm: thrift::EdgeInterpolationAlgorithm) -> Self {
        use thrift::EdgeInterpolationAlgorithm as A;
        match algorithm {
            A::SPHERICAL => Self::Spherical,
            A::VINCENTY => Self::Vincenty,
            A::THOMAS => Self::Thomas,
            A::ANDOYER => Self::Andoyer,
            A::KARNEY => Self::Karney,
            other => Self::Unknown(other.0),
        }
    }

    fn to_thrift(self) -> thrift::EdgeInterpolationAlgorithm {
        use thrift::EdgeInterpolationAlgorithm as A;
        match self {
            Self::Spherical => A::SPHERICAL,
            Self::Vincenty => A::VINCENTY,
            Self::Thomas => A::THOMAS,
            Self::Andoyer => A::ANDOYER,
            Self::Karney => A::KARNEY,
            Self::Unknown(n) => A(n),
        }
    }
}

/// What a field's values mean: the logical type annotation, or the legacy converted type
/// mapped to its logical equivalent when the element has no logical type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum LogicalType {
    /// No annotation: the physical type is the meaning.
    #[default]
    None,
    /// UTF-8 text.
    String,
    /// An enum's name, as text.
    Enum,
    /// A JSON document, as text.
    Json,
    /// A BSON document.
    Bson,
    /// A 16-byte UUID.
    Uuid,
    /// An IEEE 754 half-precision float in a 2-byte FIXED_LEN_BYTE_ARRAY.
    Float16,
    /// A decimal number: an unscaled integer and a scale.
    Decimal {
        /// Digits after the point.
        scale: i32,
        /// Digits in all.
        precision: i32,
    },
    /// Days since the Unix epoch.
    Date,
    /// Time of day.
    Time {
        /// The unit.
        unit: TimeUnit,
        /// Whether the time is in UTC.
        utc: bool,
    },
    /// A point in time.
    Timestamp {
        /// The unit.
        unit: TimeUnit,
        /// Whether the value counts from the Unix epoch in UTC (an instant) rather than
        /// being a local date and time.
        utc: bool,
    },
    /// An integer of a given width and signedness.
    Integer {
        /// 8, 16, 32 or 64.
        bits: u8,
        /// Whether the integer is signed.
        signed: bool,
    },
    /// The legacy INTERVAL: months, days and milliseconds in a 12-byte array.
    Interval,
    /// A list (on a group).
    List,
    /// A map (on a group).
    Map,
    /// A field that is always null.
    Unknown,
    /// A semi-structured VARIANT value (on a group of `metadata` and `value` byte
    /// arrays, and optionally shredded fields).
    Variant {
        /// The version of the Variant specification the values follow.
        specification_version: Option<i8>,
    },
    /// Shapes in Well-Known Binary with planar edges.
    Geometry {
        /// The coordinate reference system (`OGC:CRS84` when not given).
        crs: Option<String>,
    },
    /// Shapes in Well-Known Binary on the globe.
    Geography {
        /// The coordinate reference system (`OGC:CRS84` when not given).
        crs: Option<String>,
        /// How edges run between vertices (spherical when not given).
        algorithm: Option<EdgeInterpolation>,
    },
    /// The FILE annotation of parquet.thrift.
    File,
    /// An annotation newer than this reader, or one whose parameters it does not
    /// understand: the values are read as their physical type.
    Other,
}

impl LogicalType {
    /// The logical type of a schema element: its `logicalType`, or else its converted
    /// type mapped to the logical type it stands for.
    pub(crate) fn from_element(element: &thrift::SchemaElement<'_>) -> Self {
        use thrift::LogicalType as L;
        if let Some(logical) = &element.logical_type {
            return match logical {
                L::String(_) => Self::String,
                L::Map(_) => Self::Map,
                L::List(_) => Self::List,
                L::Enum(_) => Self::Enum,
                L::Decimal(d) => Self::Decimal {
                    scale: d.scale,
                    precision: d.precision,
                },
                L::Date(_) => Self::Date,
                L::Time(t) => {
                    time_unit_from_thrift(&t.unit).map_or(Self::Other, |unit| Self::Time {
                        unit,
                        utc: t.is_adjusted_to_utc,
                    })
                }
                L::Timestamp(t) => {
                    time_unit_from_thrift(&t.unit).map_or(Self::Other, |unit| Self::Timestamp {
                        unit,
                        utc: t.is_adjusted_to_utc,
                    })
                }
                L::Integer(i) => match u8::try_from(i.bit_width) {
                    Ok(bits @ (8 | 16 | 32 | 64)) => Self::Integer {
                        bits,
                        signed: i.is_signed,
                    },
                    _ => Self::Other,
                },
                L::Unknown(_) => Self::Unknown,
                L::Json(_) => Self::Json,
                L::Bson(_) => Self::Bson,
                L::Uuid(_) => Self::Uuid,
                L::Float16(_) => Self::Float16,
                L::Variant(v) => Self::Variant {
                    specification_version: v.specification_version,
                },
                L::Geometry(g) => Self::Geometry {
                    crs: g.crs.as_deref().map(str::to_owned),
                },
                L::Geography(g) => Self::Geography {
                    crs: g.crs.as_deref().map(str::to_owned),
                    algorithm: g.algorithm.map(EdgeInterpolation::from_thrift),
                },
                L::File(_) => Self::File,
                _ => Self::Other,
            };
        }
        let Some(converted) = element.converted_type else {
            return Self::None;
        };
        ConvertedType::from_thrift(converted).logical(element.scale, element.precision)
    }

    /// The logical type as parquet.thrift writes it (`None` for no annotation and for
    /// [`LogicalType::Other`], which this reader cannot write back).
    pub(crate) fn to_thrift(&self) -> Option<thrift::LogicalType<'static>> {
        use thrift::LogicalType as L;
        Some(match self {
            Self::None | Self::Interval | Self::Other => return None,
            Self::String => L::String(thrift::StringType {}),
            Self::Enum => L::Enum(thrift::EnumType {}),
            Self::Json => L::Json(thrift::JsonType {}),
            Self::Bson => L::Bson(thrift::BsonType {}),
            Self::Uuid => L::Uuid(thrift::UuidType {}),
            Self::Float16 => L::Float16(thrift::Float16Type {}),
            Self::Decimal { scale, precision } => L::Decimal(thrift::DecimalType {
                scale: *scale,
                precision: *precision,
            }),
            Self::Date => L::Date(thrift::DateType {}),
            Self::Time { unit, utc } => L::Time(thrift::TimeType {
                is_adjusted_to_utc: *utc,
                unit: time_unit_to_thrift(*unit),
            }),
            Self::Timestamp { unit, utc } => L::Timestamp(thrift::TimestampType {
                is_adjusted_to_utc: *utc,
                unit: time_unit_to_thrift(*unit),
            }),
            Self::Integer { bits, signed } => L::Integer(thrift::IntType {
                bit_width: i8::try_from(*bits).unwrap_or(i8::MAX),
                is_signed: *signed,
            }),
            Self::List => L::List(thrift::ListType {}),
            Self::Map => L::Map(thrift::MapType {}),
            Self::Unknown => L::Unknown(thrift::NullType {}),
            Self::Variant {
                specification_version,
            } => L::Variant(thrift::VariantType {
                specification_version: *specification_version,
            }),
            Self::Geometry { crs } => L::Geometry(thrift::GeometryType {
                crs: crs.clone().map(Cow::Owned),
            }),
            Self::Geography { crs, algorithm } => L::Geography(thrift::GeographyType {
                crs: crs.clone().map(Cow::Owned),
                algorithm: algorithm.map(EdgeInterpolation::to_thrift),
            }),
            Self::File => L::File(thrift::FileType {}),
        })
    }

    /// Whether the annotation can apply to a leaf of `physical` type (of `length` bytes
    /// for FIXED_LEN_BYTE_ARRAY). Annotations that cannot are ignored by the reader
    /// rather than trusted, except DECIMAL, whose misuse is an error.
    pub(crate) fn fits(&self, physical: PhysicalType, length: usize) -> bool {
        use PhysicalType as P;
        match self {
            Self::None | Self::Unknown | Self::Other | Self::File => true,
            Self::String
            | Self::Enum
            | Self::Json
            | Self::Bson
            | Self::Geometry { .. }
            | Self::Geography { .. } => physical == P::ByteArray,
            Self::Uuid => physical == P::FixedLenByteArray && length == 16,
            Self::Float16 => physical == P::FixedLenByteArray && length == 2,
            Self::Interval => physical == P::FixedLenByteArray && length == 12,
            Self::Decimal { .. } => matches!(
                physical,
                P::Int32 | P::Int64 | P::ByteArray | P::FixedLenByteArray
            ),
            Self::Date => physical == P::Int32,
            Self::Time { unit, .. } => {
                physical
                    == if *unit == TimeUnit::Millis {
                        P::Int32
                    } else {
                        P::Int64
                    }
            }
            Self::Timestamp { .. } => physical == P::Int64,
            Self::Integer { bits, .. } => match bits {
                8 | 16 | 32 => physical == P::Int32,
                64 => physical == P::Int64,
                _ => false,
            },
            Self::List | Self::Map | Self::Variant { .. } => false,
        }
    }

    /// The converted type parquet.thrift pairs with this logical type, when it has one
    /// (what parquet-java and Arrow C++ write beside the logical type). TIME and
    /// TIMESTAMP have one only when adjusted to UTC: `TIME_MILLIS` and the others mean
    /// UTC to a reader that knows only converted types.
    pub fn converted_type(&self) -> Option<ConvertedType> {
        use ConvertedType as C;
        Some(match self {
            Self::Time { utc: false, .. } | Self::Timestamp { utc: false, .. } => return None,
            Self::String => C::Utf8,
            Self::Enum => C::Enum,
            Self::Json => C::Json,
            Self::Bson => C::Bson,
            Self::Decimal { .. } => C::Decimal,
            Self::Date => C::Date,
            Self::Time {
                unit: TimeUnit::Millis,
                ..
            } => C::TimeMillis,
            Self::Time {
                unit: TimeUnit::Micros,
                ..
            } => C::TimeMicros,
            Self::Timestamp {
                unit: TimeUnit::Millis,
                ..
            } => C::TimestampMillis,
            Self::Timestamp {
                unit: TimeUnit::Micros,
                ..
            } => C::TimestampMicros,
            Self::Integer { bits, signed } => match (bits, signed) {
                (8, true) => C::Int8,
                (16, true) => C::Int16,
                (32, true) => C::Int32,
                (64, true) => C::Int64,
                (8, false) => C::UInt8,
                (16, false) => C::UInt16,
                (32, false) => C::UInt32,
                (64, false) => C::UInt64,
                _ => return None,
            },
            Self::Interval => C::Interval,
            Self::List => C::List,
            Self::Map => C::Map,
            _ => return None,
        })
    }
}

/// The legacy converted types of parquet.thrift, as a file writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // The names are parquet.thrift's.
pub enum ConvertedType {
    Utf8,
    Map,
    MapKeyValue,
    List,
    Enum,
    Decimal,
    Date,
    TimeMillis,
    TimeMicros,
    TimestampMillis,
    TimestampMicros,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Int8,
    Int16,
    Int32,
    Int64,
    Json,
    Bson,
    Interval,
    /// A value newer than this reader.
    Unknown(i32),
}

macro_rules! converted_types {
    ($($variant:ident = $thrift:ident,)*) => {
        impl ConvertedType {
            pub(crate) fn from_thrift(converted: thrift::ConvertedType) -> Self {
                match converted {
                    $(thrift::ConvertedType::$thrift => Self::$variant,)*
                    other => Self::Unknown(other.0),
                }
            }

            pub(crate) fn to_thrift(self) -> thrift::ConvertedType {
                match self {
                    $(Self::$variant => thrift::ConvertedType::$thrift,)*
                    Self::Unknown(n) => thrift::ConvertedType(n),
                }
            }

            /// The type named `name` as parquet.thrift spells it (`UTF8`,
            /// `TIMESTAMP_MILLIS`), in any case.
            pub fn from_name(name: &str) -> Option<Self> {
                $(if name.eq_ignore_ascii_case(stringify!($thrift)) {
                    return Some(Self::$variant);
                })*
                None
            }

            /// The type's name as parquet.thrift spells it (`UTF8`, `TIMESTAMP_MILLIS`).
            pub fn name(self) -> Cow<'static, str> {
                match self {
                    $(Self::$variant => stringify!($thrift).into(),)*
                    Self::Unknown(n) => format!("ConvertedType({n})").into(),
                }
            }
        }
    };
}

converted_types! {
    Utf8 = UTF8,
    Map = MAP,
    MapKeyValue = MAP_KEY_VALUE,
    List = LIST,
    Enum = ENUM,
    Decimal = DECIMAL,
    Date = DATE,
    TimeMillis = TIME_MILLIS,
    TimeMicros = TIME_MICROS,
    TimestampMillis = TIMESTAMP_MILLIS,
    TimestampMicros = TIMESTAMP_MICROS,
    UInt8 = UINT_8,
    UInt16 = UINT_16,
    UInt32 = UINT_32,
    UInt64 = UINT_64,
    Int8 = INT_8,
    Int16 = INT_16,
    Int32 = INT_32,
    Int64 = INT_64,
    Json = JSON,
    Bson = BSON,
    Interval = INTERVAL,
}

impl ConvertedType {
    /// The logical type this converted type stands for (`scale` and `precision` are the
    /// element's, for DECIMAL).
    pub(crate) fn logical(self, scale: Option<i32>, precision: Option<i32>) -> LogicalType {
        use LogicalType as L;
        let int = |bits, signed| L::Integer { bits, signed };
        match self {
            Self::Utf8 => L::String,
            Self::Map | Self::MapKeyValue => L::Map,
            Self::List => L::List,
            Self::Enum => L::Enum,
            Self::Decimal => L::Decimal {
                scale: scale.unwrap_or(0),
                precision: precision.unwrap_or(0),
            },
            Self::Date => L::Date,
            Self::TimeMillis => L::Time {
                unit: TimeUnit::Millis,
                utc: true,
            },
            Self::TimeMicros => L::Time {
                unit: TimeUnit::Micros,
                utc: true,
            },
            Self::TimestampMillis => L::Timestamp {
                unit: TimeUnit::Millis,
                utc: true,
            },
            Self::TimestampMicros => L::Timestamp {
                unit: TimeUnit::Micros,
                utc: true,
            },
            Self::UInt8 => int(8, false),
            Self::UInt16 => int(16, false),
            Self::UInt32 => int(32, false),
            Self::UInt64 => int(64, false),
            Self::Int8 => int(8, true),
            Self::Int16 => int(16, true),
            Self::Int32 => int(32, true),
            Self::Int64 => int(64, true),
            Self::Json => L::Json,
            Self::Bson => L::Bson,
            Self::Interval => L::Interval,
            Self::Unknown(_) => L::Other,
        }
    }
}
