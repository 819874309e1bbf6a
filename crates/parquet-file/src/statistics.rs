//! Statistics decoded to typed min and max values, trusted only where their sort order
//! makes them safe.

use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
use parquet_thrift::{ColumnOrder, Statistics, Type};

use crate::column::ColumnValues;
use crate::field::{Converter, Field};
use crate::schema::{ColumnDescriptor, LogicalType};

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
    match (column.physical_type, column.logical_type) {
        (_, LogicalType::Integer { signed: false, .. }) => SortOrder::Unsigned,
        (_, LogicalType::Interval) | (Type::INT96, _) => SortOrder::Undefined,
        (
            Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY,
            LogicalType::Decimal { .. } | LogicalType::Float16,
        ) => SortOrder::Signed,
        (Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY, _) => SortOrder::Unsigned,
        _ => SortOrder::Signed,
    }
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
        order: Option<&ColumnOrder>,
        stats: &Statistics<'_>,
    ) -> Self {
        let count = |v: Option<i64>| v.and_then(|v| u64::try_from(v).ok());
        let mut out = Self {
            null_count: count(stats.null_count),
            distinct_count: count(stats.distinct_count),
            nan_count: count(stats.nan_count),
            min_exact: stats.is_min_value_exact,
            max_exact: stats.is_max_value_exact,
            ..Self::default()
        };
        let sort = sort_order(column);
        if sort == SortOrder::Undefined {
            return out;
        }
        let known_order = !matches!(order, Some(ColumnOrder::Unrecognized(_)));
        let total_order = matches!(order, Some(ColumnOrder::Ieee754TotalOrder(_)));
        let (min, max) = if known_order && (stats.min_value.is_some() || stats.max_value.is_some())
        {
            (stats.min_value.as_deref(), stats.max_value.as_deref())
        } else if sort == SortOrder::Signed
            && !matches!(
                column.physical_type,
                Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY
            )
        {
            (stats.min.as_deref(), stats.max.as_deref())
        } else {
            (None, None)
        };
        out.min = min.and_then(|b| decode_value(column, b));
        out.max = max.and_then(|b| decode_value(column, b));
        if !total_order {
            let nan = |f: &Option<Field>| match f {
                Some(Field::Float(v)) => v.is_nan(),
                Some(Field::Double(v)) => v.is_nan(),
                Some(Field::Float16(bits)) => half::f16::from_bits(*bits).is_nan(),
                _ => false,
            };
            if nan(&out.min) || nan(&out.max) {
                out.min = None;
                out.max = None;
            }
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

/// One PLAIN-encoded value (byte arrays without their length) as a [`Field`].
pub fn decode_value(column: &ColumnDescriptor, bytes: &[u8]) -> Option<Field> {
    let values = match column.physical_type {
        Type::BOOLEAN => ColumnValues::Boolean(vec![*bytes.first()? != 0]),
        Type::INT32 => ColumnValues::Int32(vec![i32::from_le_bytes(bytes.try_into().ok()?)]),
        Type::INT64 => ColumnValues::Int64(vec![i64::from_le_bytes(bytes.try_into().ok()?)]),
        Type::INT96 => ColumnValues::Int96(vec![Int96::from_le_bytes(bytes.try_into().ok()?)]),
        Type::FLOAT => ColumnValues::Float(vec![f32::from_le_bytes(bytes.try_into().ok()?)]),
        Type::DOUBLE => ColumnValues::Double(vec![f64::from_le_bytes(bytes.try_into().ok()?)]),
        Type::BYTE_ARRAY => {
            let mut batch = ByteArrayBatch::new();
            batch.push(bytes).ok()?;
            ColumnValues::ByteArray(batch)
        }
        Type::FIXED_LEN_BYTE_ARRAY => {
            // Truncated bounds of FIXED_LEN_BYTE_ARRAY are not values of the column.
            if bytes.len() != column.type_length {
                return None;
            }
            ColumnValues::FixedLenByteArray(
                FixedLenByteArrayBatch::from_bytes(column.type_length, bytes.to_vec()).ok()?,
            )
        }
        _ => return None,
    };
    Converter::new(column).convert(&values, 0).ok()
}
