//! A leaf column's values as an Arrow array of the type chosen for it: the physical
//! values converted (widened, narrowed, rescaled, decoded), and spread over the slots
//! where nulls are. Buffers the values arrive in are kept, not copied, where the Arrow
//! layout is the same.

use std::sync::Arc;

use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Date64Type, Decimal32Type, Decimal64Type, Decimal128Type,
    Decimal256Type, DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType,
    DurationSecondType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type,
    Int64Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    ArrayRef, BinaryArray, BinaryViewArray, BooleanArray, FixedSizeBinaryArray, LargeBinaryArray,
    LargeStringArray, NullArray, PrimitiveArray, StringArray, StringViewArray,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer, i256};
use arrow_schema::{DataType, TimeUnit};
use half::f16;
use parquet_file::{ColumnDescriptor, ColumnValues, LogicalType, TimeUnit as ParquetTimeUnit};

use crate::error::{Result, invalid, unsupported};

/// The array of `target` type holding `values` (the non-null ones, in order) in the
/// slots of `nulls` (`len` slots; all valid when `None`).
pub(crate) fn leaf_array(
    values: ColumnValues,
    column: &ColumnDescriptor,
    target: &DataType,
    nulls: Option<NullBuffer>,
    len: usize,
) -> Result<ArrayRef> {
    check_count(column, values.len(), nulls.as_ref(), len)?;
    if *target == DataType::Null {
        return Ok(Arc::new(NullArray::new(len)));
    }
    let leaf = Leaf {
        column,
        target,
        nulls,
        len,
    };
    match values {
        ColumnValues::Boolean(v) => leaf.boolean(v),
        ColumnValues::Int32(v) => leaf.int32(v),
        ColumnValues::Int64(v) => leaf.int64(v),
        ColumnValues::Int96(v) => {
            let nanos = v
                .iter()
                .map(|t| {
                    i64::try_from(t.to_unix_nanos()).map_err(|_| {
                        invalid(format!(
                            "column {}: INT96 {t:?} is past the nanosecond range",
                            column.path
                        ))
                    })
                })
                .collect::<Result<Vec<i64>>>()?;
            leaf.timestamp(nanos, TimeUnit::Nanosecond)
        }
        ColumnValues::Float(v) => leaf.primitive::<Float32Type>(v),
        ColumnValues::Double(v) => leaf.primitive::<Float64Type>(v),
        ColumnValues::ByteArray(v) => {
            let (offsets, data) = v.into_parts();
            leaf.bytes(offsets, data)
        }
        ColumnValues::FixedLenByteArray(v) => {
            let (width, data) = v.into_parts();
            leaf.fixed(width, data)
        }
    }
}

/// Checks that `count` values fill the non-null slots of `nulls` (`len` slots).
pub(crate) fn check_count(
    column: &ColumnDescriptor,
    count: usize,
    nulls: Option<&NullBuffer>,
    len: usize,
) -> Result<()> {
    let valid = len - nulls.map_or(0, NullBuffer::null_count);
    if count != valid {
        return Err(invalid(format!(
            "column {}: {count} values for {valid} non-null slots",
            column.path
        )));
    }
    Ok(())
}

struct Leaf<'a> {
    column: &'a ColumnDescriptor,
    target: &'a DataType,
    nulls: Option<NullBuffer>,
    len: usize,
}

impl Leaf<'_> {
    fn mismatch(&self) -> crate::Error {
        unsupported(format!(
            "column {} ({:?}, {:?}) read as {}",
            self.column.path, self.column.physical_type, self.column.logical_type, self.target
        ))
    }

    /// `dense` spread over the slots, as an array of `T` with the target type.
    fn primitive<T: ArrowPrimitiveType>(self, dense: Vec<T::Native>) -> Result<ArrayRef> {
        let values = spread(dense, self.nulls.as_ref(), self.len);
        let array = PrimitiveArray::<T>::try_new(ScalarBuffer::from(values), self.nulls)?;
        let array = if T::DATA_TYPE == *self.target {
            array
        } else {
            array.with_data_type(self.target.clone())
        };
        Ok(Arc::new(array))
    }

    #[allow(clippy::unnecessary_wraps)]
    fn boolean(self, dense: Vec<bool>) -> Result<ArrayRef> {
        let values = pack_bools(&spread(dense, self.nulls.as_ref(), self.len));
        Ok(Arc::new(BooleanArray::new(values, self.nulls)))
    }

    fn int32(self, v: Vec<i32>) -> Result<ArrayRef> {
        // Narrowing keeps the low bits, as arrow-rs and pyarrow read an out-of-range value.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        match self.target {
            DataType::Int32 => self.primitive::<Int32Type>(v),
            DataType::Int8 => self.primitive::<Int8Type>(v.iter().map(|&x| x as i8).collect()),
            DataType::Int16 => self.primitive::<Int16Type>(v.iter().map(|&x| x as i16).collect()),
            DataType::UInt8 => self.primitive::<UInt8Type>(v.iter().map(|&x| x as u8).collect()),
            DataType::UInt16 => self.primitive::<UInt16Type>(v.iter().map(|&x| x as u16).collect()),
            DataType::UInt32 => self.primitive::<UInt32Type>(bytemuck::cast_vec(v)),
            DataType::Date32 => self.primitive::<Date32Type>(v),
            DataType::Date64 => {
                self.primitive::<Date64Type>(v.iter().map(|&d| i64::from(d) * 86_400_000).collect())
            }
            DataType::Time32(TimeUnit::Millisecond) => self.primitive::<Time32MillisecondType>(v),
            DataType::Time32(TimeUnit::Second) => {
                self.primitive::<Time32SecondType>(v.iter().map(|&t| t / 1000).collect())
            }
            DataType::Decimal32(..) => self.primitive::<Decimal32Type>(v),
            DataType::Decimal64(..) => {
                self.primitive::<Decimal64Type>(v.iter().map(|&x| i64::from(x)).collect())
            }
            DataType::Decimal128(..) => {
                self.primitive::<Decimal128Type>(v.iter().map(|&x| i128::from(x)).collect())
            }
            DataType::Decimal256(..) => {
                self.primitive::<Decimal256Type>(v.iter().map(|&x| i256::from(x)).collect())
            }
            _ => Err(self.mismatch()),
        }
    }

    fn int64(self, v: Vec<i64>) -> Result<ArrayRef> {
        #[allow(clippy::cast_possible_truncation)]
        match self.target {
            DataType::Int64 => self.primitive::<Int64Type>(v),
            DataType::UInt64 => self.primitive::<UInt64Type>(bytemuck::cast_vec(v)),
            DataType::Timestamp(..) => {
                let unit = match self.column.logical_type {
                    LogicalType::Timestamp { unit, .. } => arrow_unit(unit),
                    // An INT64 without the annotation, stored for Arrow: in the stored unit.
                    _ => match self.target {
                        DataType::Timestamp(unit, _) => *unit,
                        _ => return Err(self.mismatch()),
                    },
                };
                self.timestamp(v, unit)
            }
            DataType::Time64(unit) => {
                let from = match self.column.logical_type {
                    LogicalType::Time { unit, .. } => arrow_unit(unit),
                    _ => *unit,
                };
                let v = rescale(v, from, *unit, self.column)?;
                match unit {
                    TimeUnit::Nanosecond => self.primitive::<Time64NanosecondType>(v),
                    _ => self.primitive::<Time64MicrosecondType>(v),
                }
            }
            DataType::Duration(unit) => match unit {
                TimeUnit::Second => self.primitive::<DurationSecondType>(v),
                TimeUnit::Millisecond => self.primitive::<DurationMillisecondType>(v),
                TimeUnit::Microsecond => self.primitive::<DurationMicrosecondType>(v),
                TimeUnit::Nanosecond => self.primitive::<DurationNanosecondType>(v),
            },
            DataType::Date64 => self.primitive::<Date64Type>(v),
            DataType::Decimal64(..) => self.primitive::<Decimal64Type>(v),
            DataType::Decimal32(..) => {
                self.primitive::<Decimal32Type>(v.iter().map(|&x| x as i32).collect())
            }
            DataType::Decimal128(..) => {
                self.primitive::<Decimal128Type>(v.iter().map(|&x| i128::from(x)).collect())
            }
            DataType::Decimal256(..) => {
                self.primitive::<Decimal256Type>(v.iter().map(|&x| i256::from(x)).collect())
            }
            _ => Err(self.mismatch()),
        }
    }

    /// Points in time counted in `from` units, as the target's timestamps.
    fn timestamp(self, v: Vec<i64>, from: TimeUnit) -> Result<ArrayRef> {
        let DataType::Timestamp(unit, _) = self.target else {
            return Err(self.mismatch());
        };
        let v = rescale(v, from, *unit, self.column)?;
        match unit {
            TimeUnit::Second => self.primitive::<TimestampSecondType>(v),
            TimeUnit::Millisecond => self.primitive::<TimestampMillisecondType>(v),
            TimeUnit::Microsecond => self.primitive::<TimestampMicrosecondType>(v),
            TimeUnit::Nanosecond => self.primitive::<TimestampNanosecondType>(v),
        }
    }

    fn bytes(self, offsets: Vec<u32>, data: Vec<u8>) -> Result<ArrayRef> {
        match self.target {
            DataType::Utf8 | DataType::Binary => {
                let offsets = self.offsets_i32(offsets)?;
                let data = Buffer::from_vec(data);
                Ok(if *self.target == DataType::Utf8 {
                    Arc::new(StringArray::try_new(offsets, data, self.nulls)?)
                } else {
                    Arc::new(BinaryArray::try_new(offsets, data, self.nulls)?)
                })
            }
            DataType::LargeUtf8 | DataType::LargeBinary => {
                let wide: Vec<i64> = spread_offsets(&offsets, self.nulls.as_ref(), self.len)
                    .map(i64::from)
                    .collect();
                let offsets = OffsetBuffer::new(ScalarBuffer::from(wide));
                let data = Buffer::from_vec(data);
                Ok(if *self.target == DataType::LargeUtf8 {
                    Arc::new(LargeStringArray::try_new(offsets, data, self.nulls)?)
                } else {
                    Arc::new(LargeBinaryArray::try_new(offsets, data, self.nulls)?)
                })
            }
            DataType::Utf8View | DataType::BinaryView => self.views(offsets, data),
            DataType::Dictionary(key, value) => {
                let values = Leaf {
                    target: value,
                    nulls: self.nulls.clone(),
                    ..self
                }
                .bytes(offsets, data)?;
                crate::read::dictionary::encode(&values, key)
            }
            DataType::Decimal32(..)
            | DataType::Decimal64(..)
            | DataType::Decimal128(..)
            | DataType::Decimal256(..) => {
                let values = ByteValues::new(&offsets, &data);
                self.decimal(values.iter())
            }
            _ => Err(self.mismatch()),
        }
    }

    /// The offsets of the slots: a null slot repeats the offset before it. Offsets past
    /// 2 GiB do not fit a 32-bit array.
    fn offsets_i32(&self, offsets: Vec<u32>) -> Result<OffsetBuffer<i32>> {
        if offsets.last().is_some_and(|&o| i32::try_from(o).is_err()) {
            return Err(invalid(format!(
                "column {}: more than 2 GiB of bytes in one batch for a 32-bit {} array; \
                 read it as a large type or with a smaller batch size",
                self.column.path, self.target
            )));
        }
        let spread: Vec<i32> = if self.nulls.is_none() {
            bytemuck::cast_vec(offsets)
        } else {
            #[allow(clippy::cast_possible_wrap)]
            spread_offsets(&offsets, self.nulls.as_ref(), self.len)
                .map(|o| o as i32)
                .collect()
        };
        Ok(OffsetBuffer::new(ScalarBuffer::from(spread)))
    }

    /// View arrays over the one data buffer the values arrived in: values of up to 12
    /// bytes inline, longer ones by offset. Strings are checked as UTF-8 in one pass
    /// over the buffer (as a string array), not value by value.
    fn views(self, offsets: Vec<u32>, data: Vec<u8>) -> Result<ArrayRef> {
        let fits_i32 = offsets.last().is_none_or(|&o| i32::try_from(o).is_ok());
        if *self.target == DataType::Utf8View && fits_i32 {
            let offsets = self.offsets_i32(offsets)?;
            let strings = StringArray::try_new(offsets, Buffer::from_vec(data), self.nulls)?;
            return Ok(Arc::new(StringViewArray::from(&strings)));
        }
        let mut views = Vec::with_capacity(self.len);
        let mut value = offsets.windows(2);
        let mut next = || -> u128 {
            let Some(&[start, end]) = value.next() else {
                return 0;
            };
            let bytes = data.get(start as usize..end as usize).unwrap_or_default();
            make_view(bytes, start)
        };
        match &self.nulls {
            None => views.extend((0..self.len).map(|_| next())),
            Some(nulls) => views.extend(nulls.iter().map(|v| if v { next() } else { 0 })),
        }
        let buffers = vec![Buffer::from_vec(data)];
        let views = ScalarBuffer::from(views);
        Ok(if *self.target == DataType::Utf8View {
            Arc::new(StringViewArray::try_new(views, buffers, self.nulls)?)
        } else {
            Arc::new(BinaryViewArray::try_new(views, buffers, self.nulls)?)
        })
    }

    fn fixed(self, width: usize, data: Vec<u8>) -> Result<ArrayRef> {
        match self.target {
            DataType::FixedSizeBinary(w) if usize::try_from(*w).ok() == Some(width) => {
                let data = match &self.nulls {
                    None => data,
                    Some(nulls) => {
                        let mut out = vec![0u8; self.len * width];
                        let mut from = data.chunks_exact(width.max(1));
                        for (slot, to) in out.chunks_exact_mut(width.max(1)).enumerate() {
                            if nulls.is_valid(slot)
                                && let Some(v) = from.next()
                            {
                                to.copy_from_slice(v);
                            }
                        }
                        out
                    }
                };
                Ok(Arc::new(FixedSizeBinaryArray::try_new(
                    *w,
                    Buffer::from_vec(data),
                    self.nulls,
                )?))
            }
            DataType::Float16 if width == 2 => {
                let v = data
                    .chunks_exact(2)
                    .map(|b| f16::from_le_bytes([b[0], b[1]]))
                    .collect();
                self.primitive::<Float16Type>(v)
            }
            DataType::Decimal32(..)
            | DataType::Decimal64(..)
            | DataType::Decimal128(..)
            | DataType::Decimal256(..) => self.decimal_fixed(width, &data),
            _ => Err(self.mismatch()),
        }
    }

    /// Big-endian two's-complement integers as the target decimal type.
    fn decimal<'b>(self, values: impl Iterator<Item = &'b [u8]>) -> Result<ArrayRef> {
        fn ints<'b, const N: usize, T>(
            values: impl Iterator<Item = &'b [u8]>,
            from: fn([u8; N]) -> T,
            path: &parquet_file::ColumnPath,
        ) -> Result<Vec<T>> {
            values
                .map(|b| be_int::<N>(b).map(from))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| invalid(format!("column {path}: a decimal wider than {N} bytes")))
        }
        let path = &self.column.path.clone();
        match self.target {
            DataType::Decimal32(..) => {
                self.primitive::<Decimal32Type>(ints::<4, _>(values, i32::from_be_bytes, path)?)
            }
            DataType::Decimal64(..) => {
                self.primitive::<Decimal64Type>(ints::<8, _>(values, i64::from_be_bytes, path)?)
            }
            DataType::Decimal128(..) => {
                self.primitive::<Decimal128Type>(ints::<16, _>(values, i128::from_be_bytes, path)?)
            }
            _ => {
                self.primitive::<Decimal256Type>(ints::<32, _>(values, i256::from_be_bytes, path)?)
            }
        }
    }
}

impl Leaf<'_> {
    /// Big-endian two's-complement integers of `width` bytes each as the target decimal
    /// type: for the widths writers use, a loop whose width the compiler knows.
    fn decimal_fixed(self, width: usize, data: &[u8]) -> Result<ArrayRef> {
        /// `data` as integers of the widths listed (the others by `be_int`).
        macro_rules! by_width {
            ($n:literal, $from:expr, [$($w:literal)*]) => {
                match width {
                    $($w => Some(fixed_be::<$w, $n, _>(data, $from)),)*
                    _ => None,
                }
            };
        }
        match self.target {
            DataType::Decimal32(..) => {
                if let Some(v) = by_width!(4, i32::from_be_bytes, [1 2 3 4]) {
                    return self.primitive::<Decimal32Type>(v);
                }
            }
            DataType::Decimal64(..) => {
                if let Some(v) = by_width!(8, i64::from_be_bytes, [1 2 3 4 5 6 7 8]) {
                    return self.primitive::<Decimal64Type>(v);
                }
            }
            DataType::Decimal128(..) => {
                let widths = by_width!(
                    16,
                    i128::from_be_bytes,
                    [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16]
                );
                if let Some(v) = widths {
                    return self.primitive::<Decimal128Type>(v);
                }
            }
            _ => {}
        }
        self.decimal(data.chunks_exact(width.max(1)))
    }
}

/// `data` as big-endian two's-complement integers of `W` bytes each, sign-extended to
/// `N` bytes and converted by `from`.
fn fixed_be<const W: usize, const N: usize, T>(data: &[u8], from: fn([u8; N]) -> T) -> Vec<T> {
    let (values, _) = data.as_chunks::<W>();
    values
        .iter()
        .map(|value| {
            let fill = if value.first().is_some_and(|b| b & 0x80 != 0) {
                0xFF
            } else {
                0
            };
            let mut out = [fill; N];
            if let Some(low) = out.get_mut(N - W..) {
                low.copy_from_slice(value);
            }
            from(out)
        })
        .collect()
}

/// A big-endian two's-complement integer of up to `N` bytes, sign-extended to `N`.
fn be_int<const N: usize>(bytes: &[u8]) -> Option<[u8; N]> {
    if bytes.len() > N {
        return None;
    }
    let fill = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        0xFF
    } else {
        0
    };
    let mut out = [fill; N];
    out[N - bytes.len()..].copy_from_slice(bytes);
    Some(out)
}

/// The values of a byte-array batch, by their offsets.
struct ByteValues<'a> {
    offsets: &'a [u32],
    data: &'a [u8],
}

impl<'a> ByteValues<'a> {
    fn new(offsets: &'a [u32], data: &'a [u8]) -> Self {
        Self { offsets, data }
    }

    fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.offsets.windows(2).map(|w| {
            self.data
                .get(w[0] as usize..w[1] as usize)
                .unwrap_or_default()
        })
    }
}

/// The Arrow view of `bytes`, found at `offset` of buffer 0.
pub(crate) fn make_view(bytes: &[u8], offset: u32) -> u128 {
    // A value's length fits its batch's 32-bit offsets.
    #[allow(clippy::cast_possible_truncation)]
    let len = bytes.len() as u32;
    if bytes.len() <= 12 {
        let mut view = [0u8; 16];
        view[..4].copy_from_slice(&len.to_le_bytes());
        view[4..4 + bytes.len()].copy_from_slice(bytes);
        u128::from_le_bytes(view)
    } else {
        let prefix = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        u128::from(len) | (u128::from(prefix) << 32) | (u128::from(offset) << 96)
    }
}

/// `dense` values spread over `len` slots, with the default value in the null ones.
/// Booleans as bits, least significant first: eight at a time, by one multiplication
/// that gathers the low bit of each of eight bytes into the top byte.
fn pack_bools(bools: &[bool]) -> BooleanBuffer {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let eight =
        |bytes: &[bool; 8]| u64::from_le_bytes(bytes.map(u8::from)).wrapping_mul(GATHER) >> 56;
    let (words, rest) = bools.as_chunks::<64>();
    let mut packed: Vec<u64> = words
        .iter()
        .map(|word| {
            let (bytes, _) = word.as_chunks::<8>();
            bytes
                .iter()
                .enumerate()
                .fold(0, |acc, (i, bytes)| acc | eight(bytes) << (8 * i))
        })
        .collect();
    if !rest.is_empty() {
        let last = rest
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| acc | u64::from(b) << i);
        packed.push(last);
    }
    BooleanBuffer::new(Buffer::from_vec(packed), 0, bools.len())
}

pub(crate) fn spread<T: Copy + Default>(
    dense: Vec<T>,
    nulls: Option<&NullBuffer>,
    len: usize,
) -> Vec<T> {
    let Some(nulls) = nulls else {
        return dense;
    };
    let mut out = Vec::with_capacity(len);
    let mut taken = 0;
    // 64 slots at a time: runs of valid or null slots copied or filled whole, others
    // slot by slot.
    let mut fill = |valid: u64, slots: usize| {
        let all = u64::MAX >> (64 - slots);
        let valid = valid & all;
        if valid == all {
            let run = dense.get(taken..taken + slots).unwrap_or_default();
            out.extend_from_slice(run);
            taken += slots;
        } else if valid == 0 {
            out.resize(out.len() + slots, T::default());
        } else {
            let from = dense.get(taken..).unwrap_or_default();
            let mut block = [T::default(); 64];
            let mut next = 0;
            if let Some(from) = from.first_chunk::<64>() {
                // Without a branch: a null slot takes the next value too (Arrow leaves a
                // null slot's value unspecified), and `next` stays within the 64.
                for (slot, to) in block.iter_mut().enumerate() {
                    *to = from.get(next.min(63)).copied().unwrap_or_default();
                    next += usize::from((valid >> slot) & 1 != 0);
                }
            } else {
                for (slot, to) in block.iter_mut().enumerate() {
                    let is_valid = (valid >> slot) & 1 != 0;
                    let value = from.get(next).copied().unwrap_or_default();
                    *to = if is_valid { value } else { T::default() };
                    next += usize::from(is_valid);
                }
            }
            out.extend_from_slice(block.get(..slots).unwrap_or_default());
            taken += next;
        }
    };
    let chunks = nulls.inner().bit_chunks();
    for valid in &chunks {
        fill(valid, 64);
    }
    if chunks.remainder_len() > 0 {
        fill(chunks.remainder_bits(), chunks.remainder_len());
    }
    out.resize(len, T::default());
    out
}

/// The `len + 1` offsets of the slots, from the offsets of the non-null values: a null
/// slot repeats the offset before it.
fn spread_offsets<'a>(
    offsets: &'a [u32],
    nulls: Option<&'a NullBuffer>,
    len: usize,
) -> impl Iterator<Item = u32> + 'a {
    let mut value = 0;
    let first = offsets.first().copied().unwrap_or(0);
    std::iter::once(first).chain((0..len).map(move |slot| {
        if nulls.is_none_or(|n| n.is_valid(slot)) {
            value += 1;
        }
        offsets.get(value).copied().unwrap_or(0)
    }))
}

fn arrow_unit(unit: ParquetTimeUnit) -> TimeUnit {
    match unit {
        ParquetTimeUnit::Millis => TimeUnit::Millisecond,
        ParquetTimeUnit::Micros => TimeUnit::Microsecond,
        ParquetTimeUnit::Nanos => TimeUnit::Nanosecond,
    }
}

/// `v` counted in `from` units, counted in `to` units (a coarser unit truncates, as
/// pyarrow casts; a finer one must not overflow).
fn rescale(
    mut v: Vec<i64>,
    from: TimeUnit,
    to: TimeUnit,
    column: &ColumnDescriptor,
) -> Result<Vec<i64>> {
    let exponent = |u: TimeUnit| match u {
        TimeUnit::Second => 0i32,
        TimeUnit::Millisecond => 3,
        TimeUnit::Microsecond => 6,
        TimeUnit::Nanosecond => 9,
    };
    let shift = exponent(to) - exponent(from);
    let factor = 10i64.pow(shift.unsigned_abs());
    if shift > 0 {
        for x in &mut v {
            *x = x.checked_mul(factor).ok_or_else(|| {
                invalid(format!(
                    "column {}: {x} does not fit in {to:?}",
                    column.path
                ))
            })?;
        }
    } else if shift < 0 {
        for x in &mut v {
            *x /= factor;
        }
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Booleans of every length up to 200, in a pattern without a period of 8 or 64.
    fn booleans() -> impl Iterator<Item = Vec<bool>> {
        (0..200).map(|len| (0..len).map(|i: usize| (i * 7 + i / 3) % 5 < 2).collect())
    }

    #[test]
    fn booleans_pack_as_arrow_packs_them() {
        for bools in booleans() {
            assert_eq!(pack_bools(&bools), BooleanBuffer::from(bools.as_slice()));
        }
    }

    #[test]
    fn fixed_width_decimals_sign_extend_as_any_width_does() {
        let data: Vec<u8> = (0..96u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(11))
            .collect();
        let any_width = |width: usize| -> Vec<i128> {
            data.chunks_exact(width)
                .map(|b| i128::from_be_bytes(be_int::<16>(b).unwrap()))
                .collect()
        };
        assert_eq!(
            fixed_be::<1, 16, _>(&data, i128::from_be_bytes),
            any_width(1)
        );
        assert_eq!(
            fixed_be::<6, 16, _>(&data, i128::from_be_bytes),
            any_width(6)
        );
        assert_eq!(
            fixed_be::<16, 16, _>(&data, i128::from_be_bytes),
            any_width(16)
        );
        assert!(any_width(6).iter().any(|&v| v < 0) && any_width(6).iter().any(|&v| v > 0));
    }

    #[test]
    fn values_spread_to_the_valid_slots() {
        for validity in booleans() {
            let len = validity.len();
            let valid = validity.iter().filter(|&&v| v).count();
            let dense: Vec<u32> = (0..u32::try_from(valid).unwrap()).collect();
            let nulls = NullBuffer::from(validity.clone());
            let spread = spread(dense.clone(), Some(&nulls), len);
            assert_eq!(spread.len(), len);
            let valid: Vec<u32> = spread
                .iter()
                .zip(&validity)
                .filter_map(|(&v, &valid)| valid.then_some(v))
                .collect();
            assert_eq!(valid, dense, "{validity:?}");
        }
    }
}
