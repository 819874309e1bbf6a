//! Statistics: as stored ([`Statistics`]), and decoded to typed min and max values
//! ([`ColumnStatistics`]), trusted only where their sort order makes them safe.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::OnceLock;

use bytes::Bytes;
use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96, PhysicalType};
use parquet_thrift as thrift;
use parquet_thrift::compact::{FieldType, Reader};

use super::ColumnOrder;
use crate::schema::{ColumnDescriptor, LogicalType};
use crate::value::{ColumnValues, Converter, Field};

/// How the values of a column compare, for statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// As signed numbers (integers, floats, decimals, dates, times, timestamps).
    Signed,
    /// As unsigned numbers, or byte arrays lexicographically by unsigned bytes.
    Unsigned,
    /// No order is defined (INT96, INTERVAL): min and max mean nothing.
    Undefined,
}

/// The sort order of a column's values.
pub fn sort_order(column: &ColumnDescriptor) -> SortOrder {
    use PhysicalType as P;
    match (column.physical_type, &column.logical_type) {
        (_, LogicalType::Integer { signed: false, .. }) => SortOrder::Unsigned,
        (_, LogicalType::Interval) | (P::Int96, _) => SortOrder::Undefined,
        (
            P::ByteArray | P::FixedLenByteArray,
            LogicalType::Decimal { .. } | LogicalType::Float16,
        ) => SortOrder::Signed,
        (P::ByteArray | P::FixedLenByteArray, _) => SortOrder::Unsigned,
        _ => SortOrder::Signed,
    }
}

/// The statistics of a column chunk or page, as stored: PLAIN-encoded bounds (byte
/// arrays without their length; slices of the footer or page header, not copies) and
/// counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statistics {
    /// The lower bound, by the column order.
    pub min_value: Option<Bytes>,
    /// The upper bound, by the column order.
    pub max_value: Option<Bytes>,
    /// The deprecated minimum, by signed comparison.
    pub min: Option<Bytes>,
    /// The deprecated maximum, by signed comparison.
    pub max: Option<Bytes>,
    /// The number of nulls (a negative count in the file is dropped).
    pub null_count: Option<u64>,
    /// The number of distinct values.
    pub distinct_count: Option<u64>,
    /// The number of NaNs.
    pub nan_count: Option<u64>,
    /// Whether `min_value` is a value of the column.
    pub is_min_value_exact: Option<bool>,
    /// Whether `max_value` is a value of the column.
    pub is_max_value_exact: Option<bool>,
}

impl Statistics {
    /// The statistics decoded from `buf`.
    pub(crate) fn from_thrift(s: &thrift::Statistics<'_>, buf: &Bytes) -> Self {
        let count = |v: Option<i64>| v.and_then(|v| u64::try_from(v).ok());
        let bytes = |b: &Option<Cow<'_, [u8]>>| b.as_deref().map(|b| share(buf, b));
        Self {
            min_value: bytes(&s.min_value),
            max_value: bytes(&s.max_value),
            min: bytes(&s.min),
            max: bytes(&s.max),
            null_count: count(s.null_count),
            distinct_count: count(s.distinct_count),
            nan_count: count(s.nan_count),
            is_min_value_exact: s.is_min_value_exact,
            is_max_value_exact: s.is_max_value_exact,
        }
    }

    pub(crate) fn to_thrift(&self) -> thrift::Statistics<'_> {
        let count = |v: Option<u64>| v.map(u64::cast_signed);
        thrift::Statistics {
            max: borrowed(self.max.as_deref()),
            min: borrowed(self.min.as_deref()),
            null_count: count(self.null_count),
            distinct_count: count(self.distinct_count),
            max_value: borrowed(self.max_value.as_deref()),
            min_value: borrowed(self.min_value.as_deref()),
            is_max_value_exact: self.is_max_value_exact,
            is_min_value_exact: self.is_min_value_exact,
            nan_count: count(self.nan_count),
        }
    }
}

/// The fields of a Thrift `Statistics` struct, borrowed from the bytes they were read
/// from: what a footer holds, checked, without building anything.
#[derive(Default)]
pub(crate) struct RawStatistics<'a> {
    max: Option<&'a [u8]>,
    min: Option<&'a [u8]>,
    null_count: Option<i64>,
    distinct_count: Option<i64>,
    max_value: Option<&'a [u8]>,
    min_value: Option<&'a [u8]>,
    is_max_value_exact: Option<bool>,
    is_min_value_exact: Option<bool>,
    nan_count: Option<i64>,
}

impl<'a> RawStatistics<'a> {
    /// Reads the fields of a `Statistics` struct (after its field header, up to and with
    /// its stop byte) as parquet-thrift's reader does: fields of another type than
    /// declared, and unknown ones, are skipped; a later field of the same id wins.
    pub(crate) fn read(reader: &mut Reader<'a>) -> thrift::Result<Self> {
        const WHAT: &str = "Statistics";
        reader.enter()?;
        let mut out = Self::default();
        let mut last_id = 0;
        while let Some(header) = reader.read_field_header(&mut last_id, WHAT)? {
            let t = header.field_type;
            match (header.id, t) {
                (1, FieldType::Binary) => out.max = Some(reader.read_binary(WHAT)?),
                (2, FieldType::Binary) => out.min = Some(reader.read_binary(WHAT)?),
                (3, FieldType::I64) => out.null_count = Some(reader.read_i64(WHAT)?),
                (4, FieldType::I64) => out.distinct_count = Some(reader.read_i64(WHAT)?),
                (5, FieldType::Binary) => out.max_value = Some(reader.read_binary(WHAT)?),
                (6, FieldType::Binary) => out.min_value = Some(reader.read_binary(WHAT)?),
                (7, _) if t.is_bool() => {
                    out.is_max_value_exact = Some(t == FieldType::BooleanTrue);
                }
                (8, _) if t.is_bool() => {
                    out.is_min_value_exact = Some(t == FieldType::BooleanTrue);
                }
                (9, FieldType::I64) => out.nan_count = Some(reader.read_i64(WHAT)?),
                _ => reader.skip_field(t)?,
            }
        }
        reader.leave();
        Ok(out)
    }

    /// The statistics, their bounds slices of `buf` (which holds the bytes they were
    /// read from).
    fn to_statistics(&self, buf: &Bytes) -> Statistics {
        let count = |v: Option<i64>| v.and_then(|v| u64::try_from(v).ok());
        let bytes = |b: Option<&[u8]>| b.map(|b| share(buf, b));
        Statistics {
            min_value: bytes(self.min_value),
            max_value: bytes(self.max_value),
            min: bytes(self.min),
            max: bytes(self.max),
            null_count: count(self.null_count),
            distinct_count: count(self.distinct_count),
            nan_count: count(self.nan_count),
            is_min_value_exact: self.is_min_value_exact,
            is_max_value_exact: self.is_max_value_exact,
        }
    }
}

/// The statistics of a column chunk, decoded on first use: the footer's bytes of its
/// Thrift `Statistics` struct (checked when the footer was read), and what they decode
/// to.
#[derive(Debug, Clone)]
pub(crate) struct ChunkStatistics {
    /// The struct's fields and stop byte, a slice of the footer; empty when `decoded`
    /// was set from the start.
    raw: Bytes,
    decoded: OnceLock<Box<Statistics>>,
}

impl ChunkStatistics {
    /// Statistics already decoded.
    pub(crate) fn decoded(statistics: Statistics) -> Self {
        Self {
            raw: Bytes::new(),
            decoded: OnceLock::from(Box::new(statistics)),
        }
    }

    /// Statistics to decode from `raw` when first asked for: the fields of a Thrift
    /// `Statistics` struct that [`RawStatistics::read`] has read without error.
    pub(crate) fn lazy(raw: Bytes) -> Self {
        Self {
            raw,
            decoded: OnceLock::new(),
        }
    }

    /// The statistics.
    pub(crate) fn get(&self) -> &Statistics {
        self.decoded.get_or_init(|| {
            // The bytes were read without error when the footer was; they read the same.
            let raw = RawStatistics::read(&mut Reader::new(&self.raw));
            debug_assert!(raw.is_ok(), "statistics checked when the footer was read");
            Box::new(raw.map_or_else(|_| Statistics::default(), |r| r.to_statistics(&self.raw)))
        })
    }
}

impl PartialEq for ChunkStatistics {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// `bytes` as a [`Bytes`]: a slice of `buf` (no copy) when it lies in it, a copy otherwise.
pub(crate) fn share(buf: &Bytes, bytes: &[u8]) -> Bytes {
    let start = (bytes.as_ptr() as usize).wrapping_sub(buf.as_ptr() as usize);
    if start <= buf.len() && bytes.len() <= buf.len() - start {
        buf.slice_ref(bytes)
    } else {
        Bytes::copy_from_slice(bytes)
    }
}

fn borrowed(bytes: Option<&[u8]>) -> Option<Cow<'_, [u8]>> {
    bytes.map(Cow::Borrowed)
}

/// The statistics of a column chunk or page, decoded.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColumnStatistics {
    /// The number of nulls.
    pub null_count: Option<u64>,
    /// The number of distinct values.
    pub distinct_count: Option<u64>,
    /// The number of NaNs (floating-point columns).
    pub nan_count: Option<u64>,
    /// The smallest value, when the file gives one that can be trusted.
    pub min: Option<Field>,
    /// The largest value, when the file gives one that can be trusted.
    pub max: Option<Field>,
    /// Whether `min` is a value of the column (rather than a bound below it).
    pub min_exact: Option<bool>,
    /// Whether `max` is a value of the column (rather than a bound above it).
    pub max_exact: Option<bool>,
}

impl ColumnStatistics {
    /// Decodes `stats` of `column`, whose column order is `order`:
    ///
    /// - `min_value` and `max_value` unless the column order is one this reader does not
    ///   know;
    /// - otherwise the deprecated `min` and `max`, only for columns whose order is
    ///   signed and not a byte array (old writers compared those as signed bytes);
    /// - floating-point bounds that are NaN are dropped (unless the order is IEEE 754
    ///   total order), a zero minimum is read as -0.0 and a zero maximum as +0.0, as
    ///   the format requires of readers;
    /// - values that do not decode for the column's type are dropped.
    pub fn decode(
        column: &ColumnDescriptor,
        order: Option<ColumnOrder>,
        stats: &Statistics,
    ) -> Self {
        let mut out = Self {
            null_count: stats.null_count,
            distinct_count: stats.distinct_count,
            nan_count: stats.nan_count,
            min_exact: stats.is_min_value_exact,
            max_exact: stats.is_max_value_exact,
            ..Self::default()
        };
        let sort = sort_order(column);
        if sort == SortOrder::Undefined {
            return out;
        }
        let known_order = order != Some(ColumnOrder::Unknown);
        let total_order = order == Some(ColumnOrder::Ieee754TotalOrder);
        let (min, max) = if known_order && (stats.min_value.is_some() || stats.max_value.is_some())
        {
            (stats.min_value.as_deref(), stats.max_value.as_deref())
        } else if sort == SortOrder::Signed
            && !matches!(
                column.physical_type,
                PhysicalType::ByteArray | PhysicalType::FixedLenByteArray
            )
        {
            (stats.min.as_deref(), stats.max.as_deref())
        } else {
            (None, None)
        };
        out.min = min.and_then(|b| decode_value(column, b));
        out.max = max.and_then(|b| decode_value(column, b));
        if !total_order && (is_nan(out.min.as_ref()) || is_nan(out.max.as_ref())) {
            out.min = None;
            out.max = None;
        }
        match &mut out.min {
            Some(Field::Float(v)) if *v == 0.0 => *v = -0.0,
            Some(Field::Double(v)) if *v == 0.0 => *v = -0.0,
            _ => {}
        }
        match &mut out.max {
            Some(Field::Float(v)) if *v == 0.0 => *v = 0.0,
            Some(Field::Double(v)) if *v == 0.0 => *v = 0.0,
            _ => {}
        }
        out
    }
}

/// Whether `field` is a floating-point NaN.
pub(crate) fn is_nan(field: Option<&Field>) -> bool {
    match field {
        Some(Field::Float(v)) => v.is_nan(),
        Some(Field::Double(v)) => v.is_nan(),
        Some(Field::Float16(bits)) => half::f16::from_bits(*bits).is_nan(),
        _ => false,
    }
}

/// How two values of a column compare by its sort order, or `None` when they cannot be
/// compared (a NaN, values of different kinds, a column without an order).
#[allow(clippy::match_same_arms)] // the same comparison of different types
pub(crate) fn compare_values(a: &Field, b: &Field, order: SortOrder) -> Option<Ordering> {
    if order == SortOrder::Undefined {
        return None;
    }
    match (a, b) {
        (Field::Bool(a), Field::Bool(b)) => Some(a.cmp(b)),
        (Field::Int(a), Field::Int(b)) => Some(a.cmp(b)),
        (Field::UInt(a), Field::UInt(b)) => Some(a.cmp(b)),
        (Field::Float(a), Field::Float(b)) => a.partial_cmp(b),
        (Field::Double(a), Field::Double(b)) => a.partial_cmp(b),
        (Field::Float16(a), Field::Float16(b)) => {
            half::f16::from_bits(*a).partial_cmp(&half::f16::from_bits(*b))
        }
        (
            Field::Decimal {
                unscaled: a,
                scale: sa,
            },
            Field::Decimal {
                unscaled: b,
                scale: sb,
            },
        ) if sa == sb => Some(a.cmp(b)),
        (Field::Date(a), Field::Date(b)) => Some(a.cmp(b)),
        (Field::Time { value: a, .. }, Field::Time { value: b, .. }) => Some(a.cmp(b)),
        (Field::Timestamp { value: a, .. }, Field::Timestamp { value: b, .. }) => Some(a.cmp(b)),
        (Field::Str(a), Field::Str(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (Field::Bytes(a), Field::Bytes(b)) => Some(a.cmp(b)),
        (Field::Uuid(a), Field::Uuid(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// One PLAIN-encoded value (byte arrays without their length) as a [`Field`].
pub fn decode_value(column: &ColumnDescriptor, bytes: &[u8]) -> Option<Field> {
    let values = match column.physical_type {
        PhysicalType::Boolean => ColumnValues::Boolean(vec![*bytes.first()? != 0]),
        PhysicalType::Int32 => {
            ColumnValues::Int32(vec![i32::from_le_bytes(bytes.try_into().ok()?)])
        }
        PhysicalType::Int64 => {
            ColumnValues::Int64(vec![i64::from_le_bytes(bytes.try_into().ok()?)])
        }
        PhysicalType::Int96 => {
            ColumnValues::Int96(vec![Int96::from_le_bytes(bytes.try_into().ok()?)])
        }
        PhysicalType::Float => {
            ColumnValues::Float(vec![f32::from_le_bytes(bytes.try_into().ok()?)])
        }
        PhysicalType::Double => {
            ColumnValues::Double(vec![f64::from_le_bytes(bytes.try_into().ok()?)])
        }
        PhysicalType::ByteArray => {
            let mut batch = ByteArrayBatch::new();
            batch.push(bytes).ok()?;
            ColumnValues::ByteArray(batch)
        }
        PhysicalType::FixedLenByteArray => {
            // Truncated bounds of FIXED_LEN_BYTE_ARRAY are not values of the column.
            if bytes.len() != column.type_length {
                return None;
            }
            ColumnValues::FixedLenByteArray(
                FixedLenByteArrayBatch::from_bytes(column.type_length, bytes.to_vec()).ok()?,
            )
        }
    };
    Converter::new(column).convert(&values, 0).ok()
}
