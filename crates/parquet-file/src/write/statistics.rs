//! Statistics a writer gathers: bounds of values in the column's order (NaNs left out,
//! zeros signed as parquet.thrift asks), counts of nulls and NaNs, and their truncation
//! for long byte arrays.

use std::cmp::Ordering;

use half::f16;
use parquet_core::PhysicalType;

use super::slice;
use crate::metadata::{SortOrder, sort_order};
use crate::schema::{ColumnDescriptor, LogicalType};
use crate::value::ColumnValues;

/// How a column's values compare for statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Integers, signed; booleans false before true.
    Signed,
    /// Integers, unsigned.
    Unsigned,
    /// FLOAT and DOUBLE, NaN left out.
    Float,
    /// FLOAT16 in a `FIXED_LEN_BYTE_ARRAY(2)`, NaN left out.
    Float16,
    /// Byte arrays, lexicographically by unsigned bytes.
    Bytes,
    /// Big-endian two's complement integers of any length (DECIMAL).
    SignedBytes,
    /// No order (INT96, INTERVAL): no bounds are written.
    Undefined,
}

impl Order {
    pub(crate) fn of(column: &ColumnDescriptor) -> Self {
        use PhysicalType as P;
        match (
            sort_order(column),
            column.physical_type,
            &column.logical_type,
        ) {
            (SortOrder::Undefined, ..) => Self::Undefined,
            (_, P::Float | P::Double, _) => Self::Float,
            (_, P::FixedLenByteArray, LogicalType::Float16) => Self::Float16,
            (SortOrder::Signed, P::ByteArray | P::FixedLenByteArray, _) => Self::SignedBytes,
            (SortOrder::Unsigned, P::ByteArray | P::FixedLenByteArray, _) => Self::Bytes,
            (SortOrder::Unsigned, ..) => Self::Unsigned,
            (SortOrder::Signed, ..) => Self::Signed,
        }
    }

    /// Whether NaNs are counted and left out of the bounds.
    pub(crate) fn has_nan(self) -> bool {
        matches!(self, Self::Float | Self::Float16)
    }
}

/// A bound: one value of the column, typed by its physical type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bound {
    Bool(bool),
    Int32(i32),
    Int64(i64),
    Float(f32),
    Double(f64),
    Bytes(Vec<u8>),
}

impl Bound {
    /// The bound PLAIN-encoded, as statistics store it (a byte array without its length).
    pub(crate) fn encode(&self) -> Vec<u8> {
        match self {
            Self::Bool(v) => vec![u8::from(*v)],
            Self::Int32(v) => v.to_le_bytes().to_vec(),
            Self::Int64(v) => v.to_le_bytes().to_vec(),
            Self::Float(v) => v.to_le_bytes().to_vec(),
            Self::Double(v) => v.to_le_bytes().to_vec(),
            Self::Bytes(v) => v.clone(),
        }
    }
}

/// Compares two bounds of a column in `order`.
pub(crate) fn compare(a: &Bound, b: &Bound, order: Order) -> Ordering {
    match (a, b) {
        (Bound::Bool(a), Bound::Bool(b)) => a.cmp(b),
        (Bound::Int32(a), Bound::Int32(b)) => match order {
            Order::Unsigned => a.cast_unsigned().cmp(&b.cast_unsigned()),
            _ => a.cmp(b),
        },
        (Bound::Int64(a), Bound::Int64(b)) => match order {
            Order::Unsigned => a.cast_unsigned().cmp(&b.cast_unsigned()),
            _ => a.cmp(b),
        },
        (Bound::Float(a), Bound::Float(b)) => a.total_cmp(b),
        (Bound::Double(a), Bound::Double(b)) => a.total_cmp(b),
        (Bound::Bytes(a), Bound::Bytes(b)) => compare_bytes(a, b, order),
        _ => Ordering::Equal,
    }
}

fn compare_bytes(a: &[u8], b: &[u8], order: Order) -> Ordering {
    match order {
        Order::SignedBytes => compare_signed_be(a, b),
        Order::Float16 => half_of(a).total_cmp(&half_of(b)),
        _ => a.cmp(b),
    }
}

fn half_of(bytes: &[u8]) -> f16 {
    match bytes {
        [lo, hi] => f16::from_le_bytes([*lo, *hi]),
        _ => f16::NAN,
    }
}

/// Compares big-endian two's complement integers of any lengths.
fn compare_signed_be(a: &[u8], b: &[u8]) -> Ordering {
    let negative = |v: &[u8]| v.first().is_some_and(|&b| b & 0x80 != 0);
    let (na, nb) = (negative(a), negative(b));
    if na != nb {
        return if na {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // Same sign: extend the shorter with its sign byte, then compare as unsigned.
    let fill = if na { 0xFF } else { 0 };
    let len = a.len().max(b.len());
    let byte = |v: &[u8], i: usize| {
        let pad = len - v.len();
        i.checked_sub(pad)
            .and_then(|i| v.get(i).copied())
            .unwrap_or(fill)
    };
    (0..len)
        .map(|i| byte(a, i).cmp(&byte(b, i)))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The bounds and counts of some values of a column.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Accumulator {
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub null_count: u64,
    pub nan_count: u64,
}

impl Accumulator {
    /// Takes in the values `values[range]`.
    pub(crate) fn update(
        &mut self,
        values: &ColumnValues,
        range: std::ops::Range<usize>,
        order: Order,
    ) {
        if order == Order::Undefined || range.is_empty() {
            return;
        }
        let found = match values {
            ColumnValues::Boolean(v) => {
                bounds_by(slice(v, range), Ord::cmp).map(|(a, b)| (Bound::Bool(a), Bound::Bool(b)))
            }
            ColumnValues::Int32(v) => int_bounds(slice(v, range), order, |x| x.cast_unsigned())
                .map(|(a, b)| (Bound::Int32(a), Bound::Int32(b))),
            ColumnValues::Int64(v) => int_bounds(slice(v, range), order, |x| x.cast_unsigned())
                .map(|(a, b)| (Bound::Int64(a), Bound::Int64(b))),
            ColumnValues::Float(v) => {
                let v = slice(v, range);
                self.nan_count += v.iter().filter(|x| x.is_nan()).count() as u64;
                float_bounds(v).map(|(a, b)| (Bound::Float(a), Bound::Float(b)))
            }
            ColumnValues::Double(v) => {
                let v = slice(v, range);
                self.nan_count += v.iter().filter(|x| x.is_nan()).count() as u64;
                float_bounds(v).map(|(a, b)| (Bound::Double(a), Bound::Double(b)))
            }
            ColumnValues::Int96(_) => None,
            ColumnValues::ByteArray(v) => self.bytes_bounds(range.filter_map(|i| v.get(i)), order),
            ColumnValues::FixedLenByteArray(v) => {
                self.bytes_bounds(range.filter_map(|i| v.get(i)), order)
            }
        };
        if let Some((min, max)) = found {
            self.merge_bounds(min, max, order);
        }
    }

    /// Takes in byte-array values in an order without NaN ([`Order::Bytes`] or
    /// [`Order::SignedBytes`]): any values that bound the ones to take in, such as their
    /// distinct values.
    pub(crate) fn update_bytes<'a>(
        &mut self,
        values: impl Iterator<Item = &'a [u8]>,
        order: Order,
    ) {
        if let Some((min, max)) = self.bytes_bounds(values, order) {
            self.merge_bounds(min, max, order);
        }
    }

    fn bytes_bounds<'a>(
        &mut self,
        values: impl Iterator<Item = &'a [u8]>,
        order: Order,
    ) -> Option<(Bound, Bound)> {
        // The order chosen once, not per value.
        let found = match order {
            Order::Float16 => {
                let mut nans = 0;
                let numbers = values.filter(|v| {
                    let nan = half_of(v).is_nan();
                    nans += u64::from(nan);
                    !nan
                });
                let found = min_max_by(numbers, |a, b| half_of(a).total_cmp(&half_of(b)).is_lt());
                self.nan_count += nans;
                found
            }
            Order::SignedBytes => min_max_by(values, |a, b| compare_signed_be(a, b).is_lt()),
            _ => min_max_by(values, |a, b| a < b),
        };
        found.map(|(min, max)| (Bound::Bytes(min.to_vec()), Bound::Bytes(max.to_vec())))
    }

    /// Widens the bounds to take in `min` and `max`.
    pub(crate) fn merge_bounds(&mut self, min: Bound, max: Bound, order: Order) {
        if self
            .min
            .as_ref()
            .is_none_or(|m| compare(&min, m, order).is_lt())
        {
            self.min = Some(min);
        }
        if self
            .max
            .as_ref()
            .is_none_or(|m| compare(&max, m, order).is_gt())
        {
            self.max = Some(max);
        }
    }

    /// Takes in another accumulator's bounds and counts.
    pub(crate) fn merge(&mut self, other: &Self, order: Order) {
        if let (Some(min), Some(max)) = (&other.min, &other.max) {
            self.merge_bounds(min.clone(), max.clone(), order);
        }
        self.null_count += other.null_count;
        self.nan_count += other.nan_count;
    }

    /// The bounds to write: zeros signed as parquet.thrift asks (`-0.0` for a minimum,
    /// `+0.0` for a maximum).
    pub(crate) fn signed_zero_bounds(&self, order: Order) -> Option<(Bound, Bound)> {
        let (mut min, mut max) = (self.min.clone()?, self.max.clone()?);
        match (&mut min, &mut max) {
            (Bound::Float(a), Bound::Float(b)) => {
                if *a == 0.0 {
                    *a = -0.0;
                }
                if *b == 0.0 {
                    *b = 0.0;
                }
            }
            (Bound::Double(a), Bound::Double(b)) => {
                if *a == 0.0 {
                    *a = -0.0;
                }
                if *b == 0.0 {
                    *b = 0.0;
                }
            }
            (Bound::Bytes(a), Bound::Bytes(b)) if order == Order::Float16 => {
                if half_of(a) == f16::ZERO {
                    *a = f16::NEG_ZERO.to_le_bytes().to_vec();
                }
                if half_of(b) == f16::ZERO {
                    *b = f16::ZERO.to_le_bytes().to_vec();
                }
            }
            _ => {}
        }
        Some((min, max))
    }
}

/// The smallest and largest integers, signed or (by `unsigned`) unsigned.
fn int_bounds<T: Ord + Copy, U: Ord>(
    values: &[T],
    order: Order,
    unsigned: impl Fn(&T) -> U,
) -> Option<(T, T)> {
    if order == Order::Unsigned {
        let min = values.iter().min_by_key(|x| unsigned(x))?;
        let max = values.iter().max_by_key(|x| unsigned(x))?;
        Some((*min, *max))
    } else {
        Some((*values.iter().min()?, *values.iter().max()?))
    }
}

fn bounds_by<T: Copy>(values: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Option<(T, T)> {
    min_max_by(values.iter().copied(), |a, b| cmp(&a, &b).is_lt())
}

/// The smallest and largest of `values`, NaN left out (zeros of either sign equal): in
/// eight lanes, which the compiler vectorises (a NaN is never below nor above a bound).
fn float_bounds<T: Copy + PartialOrd>(values: &[T]) -> Option<(T, T)> {
    const LANES: usize = 8;
    #[allow(clippy::eq_op)] // Only NaN differs from itself.
    let first = *values.iter().find(|&x| x == x)?;
    let (mut min, mut max) = ([first; LANES], [first; LANES]);
    let mut chunks = values.chunks_exact(LANES);
    for chunk in &mut chunks {
        for ((&v, lo), hi) in chunk.iter().zip(&mut min).zip(&mut max) {
            if v < *lo {
                *lo = v;
            }
            if v > *hi {
                *hi = v;
            }
        }
    }
    let (mut lo, mut hi) = (first, first);
    for &v in chunks.remainder().iter().chain(&min).chain(&max) {
        if v < lo {
            lo = v;
        }
        if v > hi {
            hi = v;
        }
    }
    Some((lo, hi))
}

/// The smallest and largest of `values` by `less`: a value below the minimum is not
/// compared with the maximum.
#[inline]
fn min_max_by<T: Copy>(
    mut values: impl Iterator<Item = T>,
    less: impl Fn(T, T) -> bool,
) -> Option<(T, T)> {
    let first = values.next()?;
    let (mut min, mut max) = (first, first);
    for value in values {
        if less(value, min) {
            min = value;
        } else if less(max, value) {
            max = value;
        }
    }
    Some((min, max))
}

/// A lower bound of at most `length` bytes: a prefix of `value` (for text, cut at a
/// character boundary). Whether it is `value` itself.
pub(crate) fn truncate_min(mut value: Vec<u8>, length: usize, text: bool) -> (Vec<u8>, bool) {
    if value.len() <= length {
        return (value, true);
    }
    let mut cut = length;
    if text {
        while cut > 0 && !is_char_boundary(&value, cut) {
            cut -= 1;
        }
    }
    value.truncate(cut);
    (value, false)
}

/// An upper bound of at most `length` bytes: a prefix of `value` with its last byte (for
/// text, its last character) incremented; `None` when no prefix can be (all `0xFF`).
/// Whether it is `value` itself.
pub(crate) fn truncate_max(value: Vec<u8>, length: usize, text: bool) -> Option<(Vec<u8>, bool)> {
    if value.len() <= length {
        return Some((value, true));
    }
    if text {
        let Ok(text) = std::str::from_utf8(&value) else {
            return truncate_max(value, length, false);
        };
        let mut prefix: Vec<char> = Vec::new();
        let mut len = 0;
        for c in text.chars() {
            if len + c.len_utf8() > length {
                break;
            }
            len += c.len_utf8();
            prefix.push(c);
        }
        while let Some(last) = prefix.pop() {
            if let Some(next) = next_char(last) {
                prefix.push(next);
                let bound: String = prefix.into_iter().collect();
                return Some((bound.into_bytes(), false));
            }
        }
        return None;
    }
    let mut prefix = value;
    prefix.truncate(length);
    while let Some(last) = prefix.pop() {
        if last < 0xFF {
            prefix.push(last + 1);
            return Some((prefix, false));
        }
    }
    None
}

fn is_char_boundary(bytes: &[u8], index: usize) -> bool {
    // Not a continuation byte (0b10xx_xxxx).
    bytes.get(index).is_none_or(|&b| !(0x80..0xC0).contains(&b))
}

/// The next Unicode scalar value (past the surrogates).
fn next_char(c: char) -> Option<char> {
    let next = u32::from(c) + 1;
    char::from_u32(next).or_else(|| char::from_u32(0xE000).filter(|_| next <= 0xE000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_big_endian_integers_compare_by_value() {
        assert!(compare_signed_be(&[0xFF], &[0x00]).is_lt());
        assert!(compare_signed_be(&[0x00, 0x80], &[0x7F]).is_gt());
        assert!(compare_signed_be(&[0xFF, 0x7F], &[0x80]).is_lt()); // -129 < -128
        assert_eq!(compare_signed_be(&[0xFF, 0xFF], &[0xFF]), Ordering::Equal);
    }

    #[test]
    fn float_bounds_leave_out_nan_in_every_lane() {
        let mut values: Vec<f64> = (0..37).map(|i| f64::from((i * 17) % 37) - 18.0).collect();
        for nan_at in [0, 5, 8, 36] {
            values[nan_at] = f64::NAN;
        }
        let numbers = values.iter().copied().filter(|v| !v.is_nan());
        let min = numbers.clone().fold(f64::INFINITY, f64::min);
        let max = numbers.fold(f64::NEG_INFINITY, f64::max);
        for len in [1, 2, 9, 16, 17, 37] {
            let v = &values[..len];
            let expected =
                v.iter()
                    .copied()
                    .filter(|v| !v.is_nan())
                    .fold(None, |b: Option<(f64, f64)>, x| {
                        Some(b.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))))
                    });
            assert_eq!(float_bounds(v), expected, "{len}");
        }
        assert_eq!(float_bounds(&values), Some((min, max)));
        assert_eq!(float_bounds(&[f32::NAN; 10]), None);
        assert_eq!(float_bounds::<f32>(&[]), None);
    }

    #[test]
    fn truncated_bounds_enclose_the_value() {
        assert_eq!(
            truncate_min(b"abcdef".to_vec(), 3, false),
            (b"abc".to_vec(), false)
        );
        assert_eq!(
            truncate_max(b"abcdef".to_vec(), 3, false),
            Some((b"abd".to_vec(), false))
        );
        assert_eq!(
            truncate_max(b"ab\xFF\xFF".to_vec(), 3, false),
            Some((b"ac".to_vec(), false))
        );
        assert_eq!(truncate_max(vec![0xFF; 4], 3, false), None);
        assert_eq!(
            truncate_max(b"ab".to_vec(), 3, false),
            Some((b"ab".to_vec(), true))
        );
        // Text is cut at a character and rounded up by a character.
        let text = "aé€z".as_bytes().to_vec();
        assert_eq!(
            truncate_min(text.clone(), 4, true),
            ("aé".as_bytes().to_vec(), false)
        );
        assert_eq!(
            truncate_max(text, 4, true),
            Some(("aê".as_bytes().to_vec(), false))
        );
        let max = truncate_max("a\u{D7FF}b".as_bytes().to_vec(), 4, true).unwrap();
        assert_eq!(max.0, "a\u{E000}".as_bytes());
    }
}
