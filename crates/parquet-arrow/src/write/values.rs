//! Leaf values of Arrow arrays as Parquet physical values, gathered from ranges of
//! positions (the values [`Levels`](super::levels::Levels) found defined).
//!
//! One loop per Arrow type and range, monomorphised: a copy for the types stored as they
//! are, a conversion for the others (narrow and unsigned integers, seconds, Date64, decimals,
//! Float16), byte arrays appended a run of values at a time.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, BinaryType, BinaryViewType, ByteArrayType, ByteViewType, Date32Type,
    Date64Type, Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type,
    DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType, DurationSecondType,
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    LargeBinaryType, LargeUtf8Type, StringViewType, Time32MillisecondType, Time32SecondType,
    Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type, Utf8Type,
};
use arrow_array::{Array, ArrowPrimitiveType};
use arrow_buffer::ArrowNativeType;
use arrow_schema::{DataType, TimeUnit};
use parquet_file::{ByteArrayBatch, ColumnValues, FixedLenByteArrayBatch};

use crate::error::{Error, invalid, unsupported};

/// Why values could not be gathered.
#[derive(Debug)]
pub(crate) enum GatherError {
    /// The byte arrays exceed what one batch holds (4 GiB): write fewer rows at a time.
    TooLarge,
    /// Anything else.
    Failed(Error),
}

impl From<Error> for GatherError {
    fn from(error: Error) -> Self {
        Self::Failed(error)
    }
}

type Result<T, E = GatherError> = std::result::Result<T, E>;

/// Buffers reused between gathers.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    lengths: Vec<u32>,
    ranges: Vec<Range<usize>>,
}

fn mismatch() -> GatherError {
    invalid("an array whose type differs from its column's").into()
}

fn out_of_bounds() -> GatherError {
    invalid("a value position outside its array").into()
}

/// Appends the values of `array` at `ranges` to `out`, converted to the physical type of
/// the column that `array`'s type maps to (`out` is of that type).
#[allow(clippy::too_many_lines)] // One arm per Arrow type.
pub(crate) fn gather(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut ColumnValues,
    scratch: &mut Scratch,
) -> Result<()> {
    use ColumnValues as V;
    match (array.data_type(), out) {
        (DataType::Null, _) => {
            if ranges.iter().any(|r| !r.is_empty()) {
                return Err(invalid("a value in a Null array").into());
            }
        }
        (DataType::Boolean, V::Boolean(out)) => {
            let values = array.as_boolean_opt().ok_or_else(mismatch)?.values();
            out.reserve(count(ranges));
            for r in ranges {
                if r.end > values.len() {
                    return Err(out_of_bounds());
                }
                out.extend(r.clone().map(|i| values.value(i)));
            }
        }
        (DataType::Int8, V::Int32(out)) => convert::<Int8Type, _>(array, ranges, out, i32::from)?,
        (DataType::Int16, V::Int32(out)) => convert::<Int16Type, _>(array, ranges, out, i32::from)?,
        (DataType::Int32, V::Int32(out)) => copy::<Int32Type>(array, ranges, out)?,
        (DataType::UInt8, V::Int32(out)) => convert::<UInt8Type, _>(array, ranges, out, i32::from)?,
        (DataType::UInt16, V::Int32(out)) => {
            convert::<UInt16Type, _>(array, ranges, out, i32::from)?;
        }
        (DataType::UInt32, V::Int32(out)) => {
            convert::<UInt32Type, _>(array, ranges, out, u32::cast_signed)?;
        }
        (DataType::Int64, V::Int64(out)) => copy::<Int64Type>(array, ranges, out)?,
        (DataType::UInt64, V::Int64(out)) => {
            convert::<UInt64Type, _>(array, ranges, out, u64::cast_signed)?;
        }
        (DataType::Float32, V::Float(out)) => copy::<Float32Type>(array, ranges, out)?,
        (DataType::Float64, V::Double(out)) => copy::<Float64Type>(array, ranges, out)?,
        (DataType::Float16, V::FixedLenByteArray(out)) => {
            fixed::<Float16Type, 2>(array, ranges, out, |v| Some(v.to_bits().to_le_bytes()))?;
        }
        (DataType::Date32, V::Int32(out)) => copy::<Date32Type>(array, ranges, out)?,
        (DataType::Date64, V::Int32(out)) => {
            // Days, as Arrow C++ casts: milliseconds divided, towards zero.
            checked::<Date64Type, _>(array, ranges, out, |v| i32::try_from(v / 86_400_000).ok())?;
        }
        (DataType::Time32(TimeUnit::Second), V::Int32(out)) => {
            checked::<Time32SecondType, _>(array, ranges, out, |v| v.checked_mul(1000))?;
        }
        (DataType::Time32(TimeUnit::Millisecond), V::Int32(out)) => {
            copy::<Time32MillisecondType>(array, ranges, out)?;
        }
        (DataType::Time64(TimeUnit::Microsecond), V::Int64(out)) => {
            copy::<Time64MicrosecondType>(array, ranges, out)?;
        }
        (DataType::Time64(TimeUnit::Nanosecond), V::Int64(out)) => {
            copy::<Time64NanosecondType>(array, ranges, out)?;
        }
        (DataType::Timestamp(unit, _), V::Int64(out)) => match unit {
            TimeUnit::Second => {
                checked::<TimestampSecondType, _>(array, ranges, out, |v| v.checked_mul(1000))?;
            }
            TimeUnit::Millisecond => copy::<TimestampMillisecondType>(array, ranges, out)?,
            TimeUnit::Microsecond => copy::<TimestampMicrosecondType>(array, ranges, out)?,
            TimeUnit::Nanosecond => copy::<TimestampNanosecondType>(array, ranges, out)?,
        },
        (DataType::Duration(unit), V::Int64(out)) => match unit {
            TimeUnit::Second => copy::<DurationSecondType>(array, ranges, out)?,
            TimeUnit::Millisecond => copy::<DurationMillisecondType>(array, ranges, out)?,
            TimeUnit::Microsecond => copy::<DurationMicrosecondType>(array, ranges, out)?,
            TimeUnit::Nanosecond => copy::<DurationNanosecondType>(array, ranges, out)?,
        },
        (DataType::Decimal32(..), V::FixedLenByteArray(out)) => {
            decimal::<Decimal32Type, 4>(array, ranges, out, i32::to_be_bytes)?;
        }
        (DataType::Decimal64(..), V::FixedLenByteArray(out)) => {
            decimal::<Decimal64Type, 8>(array, ranges, out, i64::to_be_bytes)?;
        }
        (DataType::Decimal128(..), V::FixedLenByteArray(out)) => {
            decimal::<Decimal128Type, 16>(array, ranges, out, i128::to_be_bytes)?;
        }
        (DataType::Decimal256(..), V::FixedLenByteArray(out)) => {
            decimal::<Decimal256Type, 32>(array, ranges, out, arrow_buffer::i256::to_be_bytes)?;
        }
        (DataType::Utf8, V::ByteArray(out)) => bytes::<Utf8Type>(array, ranges, out, scratch)?,
        (DataType::LargeUtf8, V::ByteArray(out)) => {
            bytes::<LargeUtf8Type>(array, ranges, out, scratch)?;
        }
        (DataType::Binary, V::ByteArray(out)) => bytes::<BinaryType>(array, ranges, out, scratch)?,
        (DataType::LargeBinary, V::ByteArray(out)) => {
            bytes::<LargeBinaryType>(array, ranges, out, scratch)?;
        }
        (DataType::Utf8View, V::ByteArray(out)) => views::<StringViewType>(array, ranges, out)?,
        (DataType::BinaryView, V::ByteArray(out)) => views::<BinaryViewType>(array, ranges, out)?,
        (DataType::FixedSizeBinary(_), V::FixedLenByteArray(out)) => {
            let array = array.as_fixed_size_binary_opt().ok_or_else(mismatch)?;
            let width = array.value_size();
            if width != out.width() {
                return Err(mismatch());
            }
            let data = array.value_data();
            for r in ranges {
                let bytes = data
                    .get(r.start * width..r.end * width)
                    .ok_or_else(out_of_bounds)?;
                out.extend_from_bytes(bytes).map_err(|_| mismatch())?;
            }
        }
        (DataType::Dictionary(key, _), out) => match key.as_ref() {
            DataType::Int8 => dictionary::<Int8Type>(array, ranges, out, scratch)?,
            DataType::Int16 => dictionary::<Int16Type>(array, ranges, out, scratch)?,
            DataType::Int32 => dictionary::<Int32Type>(array, ranges, out, scratch)?,
            DataType::Int64 => dictionary::<Int64Type>(array, ranges, out, scratch)?,
            DataType::UInt8 => dictionary::<UInt8Type>(array, ranges, out, scratch)?,
            DataType::UInt16 => dictionary::<UInt16Type>(array, ranges, out, scratch)?,
            DataType::UInt32 => dictionary::<UInt32Type>(array, ranges, out, scratch)?,
            DataType::UInt64 => dictionary::<UInt64Type>(array, ranges, out, scratch)?,
            other => return Err(unsupported(format!("dictionary keys of type {other}")).into()),
        },
        (data_type, _) => {
            return Err(unsupported(format!("writing values of type {data_type}")).into());
        }
    }
    Ok(())
}

fn count(ranges: &[Range<usize>]) -> usize {
    ranges.iter().map(ExactSizeIterator::len).sum()
}

fn primitive_values<T: ArrowPrimitiveType>(array: &dyn Array) -> Result<&[T::Native]> {
    Ok(array.as_primitive_opt::<T>().ok_or_else(mismatch)?.values())
}

/// Values stored as they are: one copy per range.
fn copy<T: ArrowPrimitiveType>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut Vec<T::Native>,
) -> Result<()> {
    let values = primitive_values::<T>(array)?;
    if let [range] = ranges {
        let run = values.get(range.clone()).ok_or_else(out_of_bounds)?;
        out.extend_from_slice(run);
        return Ok(());
    }
    out.reserve(count(ranges));
    for r in ranges {
        out.extend_from_slice(values.get(r.clone()).ok_or_else(out_of_bounds)?);
    }
    Ok(())
}

/// Values converted by `f`, which cannot fail.
fn convert<T: ArrowPrimitiveType, U>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut Vec<U>,
    f: impl Fn(T::Native) -> U,
) -> Result<()> {
    let values = primitive_values::<T>(array)?;
    out.reserve(count(ranges));
    for r in ranges {
        let run = values.get(r.clone()).ok_or_else(out_of_bounds)?;
        out.extend(run.iter().map(|&v| f(v)));
    }
    Ok(())
}

/// Values converted by `f`, which fails for values out of the physical type's range.
fn checked<T: ArrowPrimitiveType, U: Default>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut Vec<U>,
    f: impl Fn(T::Native) -> Option<U>,
) -> Result<()> {
    let values = primitive_values::<T>(array)?;
    out.reserve(count(ranges));
    let mut fits = true;
    for r in ranges {
        let run = values.get(r.clone()).ok_or_else(out_of_bounds)?;
        out.extend(run.iter().map(|&v| {
            let converted = f(v);
            fits &= converted.is_some();
            converted.unwrap_or_default()
        }));
    }
    if fits {
        Ok(())
    } else {
        Err(Error::Argument(format!(
            "a {} value out of the range of its Parquet type",
            array.data_type()
        ))
        .into())
    }
}

/// Values as `N`-byte arrays given by `f` (none for a value that does not fit).
fn fixed<T: ArrowPrimitiveType, const N: usize>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut FixedLenByteArrayBatch,
    f: impl Fn(T::Native) -> Option<[u8; N]>,
) -> Result<()> {
    let values = primitive_values::<T>(array)?;
    if out.width() != N {
        return Err(mismatch());
    }
    let mut fits = true;
    for r in ranges {
        let run = values.get(r.clone()).ok_or_else(out_of_bounds)?;
        let dst = out.extend_zeroed(run.len());
        for (dst, &v) in dst.chunks_exact_mut(N).zip(run) {
            let bytes = f(v);
            fits &= bytes.is_some();
            dst.copy_from_slice(&bytes.unwrap_or([0; N]));
        }
    }
    if fits {
        Ok(())
    } else {
        Err(Error::Argument("a value that does not fit its Parquet type".into()).into())
    }
}

/// Decimals as big-endian two's complement of the column's width (`N` bytes or fewer,
/// the leading bytes dropped when they only extend the sign).
fn decimal<T: ArrowPrimitiveType, const N: usize>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut FixedLenByteArrayBatch,
    be: impl Fn(T::Native) -> [u8; N],
) -> Result<()> {
    let width = out.width();
    if width == 0 || width > N {
        return Err(mismatch());
    }
    let values = primitive_values::<T>(array)?;
    let drop = N - width;
    let mut fits = true;
    for r in ranges {
        let run = values.get(r.clone()).ok_or_else(out_of_bounds)?;
        let dst = out.extend_zeroed(run.len());
        for (dst, &v) in dst.chunks_exact_mut(width).zip(run) {
            let bytes = be(v);
            let (head, tail) = bytes.split_at(drop);
            let sign = if tail.first().is_some_and(|b| b & 0x80 != 0) {
                0xFF
            } else {
                0
            };
            fits &= head.iter().all(|&b| b == sign);
            dst.copy_from_slice(tail);
        }
    }
    if fits {
        Ok(())
    } else {
        Err(Error::Argument(format!(
            "a {} value with more digits than its precision",
            array.data_type()
        ))
        .into())
    }
}

/// Byte arrays with offsets: a run of values appended at once (its bytes copied whole).
fn bytes<T: ByteArrayType>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut ByteArrayBatch,
    scratch: &mut Scratch,
) -> Result<()> {
    let array = array.as_bytes_opt::<T>().ok_or_else(mismatch)?;
    let offsets = array.value_offsets();
    let data = array.value_data();
    let bounds = |r: &Range<usize>| -> Result<(usize, usize)> {
        match (offsets.get(r.start), offsets.get(r.end)) {
            (Some(start), Some(end)) if start <= end => Ok((start.as_usize(), end.as_usize())),
            _ => Err(out_of_bounds()),
        }
    };
    let mut total = 0usize;
    for r in ranges {
        let (start, end) = bounds(r)?;
        total = total.saturating_add(end - start);
    }
    if out.data().len().saturating_add(total) > u32::MAX as usize {
        return Err(GatherError::TooLarge);
    }
    out.reserve(count(ranges), total);
    for r in ranges {
        let (start, end) = bounds(r)?;
        let run = data.get(start..end).ok_or_else(out_of_bounds)?;
        if r.len() == 1 {
            out.push(run).map_err(|_| GatherError::TooLarge)?;
            continue;
        }
        let window = offsets.get(r.start..=r.end).ok_or_else(out_of_bounds)?;
        scratch.lengths.clear();
        scratch.lengths.extend(window.windows(2).map(|w| {
            // Within a run shorter than 4 GiB (checked above).
            let [a, b] = [w.first(), w.last()].map(|o| o.map_or(0, |o| o.as_usize()));
            u32::try_from(b - a).unwrap_or(u32::MAX)
        }));
        out.extend_from_lengths(&scratch.lengths, run)
            .map_err(|_| GatherError::TooLarge)?;
    }
    Ok(())
}

/// Byte arrays held in views: one value at a time.
fn views<T: ByteViewType>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut ByteArrayBatch,
) -> Result<()> {
    let array = array.as_byte_view_opt::<T>().ok_or_else(mismatch)?;
    let lengths = array.views();
    let mut total = 0usize;
    for r in ranges {
        let views = lengths.get(r.clone()).ok_or_else(out_of_bounds)?;
        // A view's low 32 bits are the value's length.
        #[allow(clippy::cast_possible_truncation)]
        let bytes: usize = views.iter().map(|&v| v as u32 as usize).sum();
        total = total.saturating_add(bytes);
    }
    if out.data().len().saturating_add(total) > u32::MAX as usize {
        return Err(GatherError::TooLarge);
    }
    out.reserve(count(ranges), total);
    for r in ranges {
        for i in r.clone() {
            let value: &[u8] = array.value(i).as_ref();
            out.push(value).map_err(|_| GatherError::TooLarge)?;
        }
    }
    Ok(())
}

/// A dictionary array's values: its keys turned into runs of positions in its values,
/// gathered from there.
fn dictionary<K: ArrowDictionaryKeyType>(
    array: &dyn Array,
    ranges: &[Range<usize>],
    out: &mut ColumnValues,
    scratch: &mut Scratch,
) -> Result<()> {
    let array = array.as_dictionary_opt::<K>().ok_or_else(mismatch)?;
    let keys = array.keys().values();
    let mut value_ranges = std::mem::take(&mut scratch.ranges);
    value_ranges.clear();
    for r in ranges {
        for &key in keys.get(r.clone()).ok_or_else(out_of_bounds)? {
            let k = key.as_usize();
            match value_ranges.last_mut() {
                Some(last) if last.end == k => last.end += 1,
                _ => value_ranges.push(k..k + 1),
            }
        }
    }
    let result = gather(array.values().as_ref(), &value_ranges, out, scratch);
    scratch.ranges = value_ranges;
    result
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::single_range_in_vec_init)] // Ranges of positions.
mod tests {
    use super::*;
    use arrow_array::{
        Decimal128Array, DictionaryArray, Int8Array, LargeStringArray, StringArray,
        StringViewArray, UInt32Array,
    };
    use parquet_file::PhysicalType;

    fn gathered(array: &dyn Array, ranges: &[Range<usize>], values: ColumnValues) -> ColumnValues {
        let mut out = values;
        gather(array, ranges, &mut out, &mut Scratch::default()).unwrap();
        out
    }

    #[test]
    fn integers_convert() {
        let a = Int8Array::from(vec![-1, 2, 3, -128]);
        let got = gathered(&a, &[0..2, 3..4], ColumnValues::Int32(vec![]));
        assert_eq!(got, ColumnValues::Int32(vec![-1, 2, -128]));
        let u = UInt32Array::from(vec![u32::MAX, 7]);
        let got = gathered(&u, &[0..2], ColumnValues::Int32(vec![]));
        assert_eq!(got, ColumnValues::Int32(vec![-1, 7]));
    }

    #[test]
    fn strings_by_runs_and_singles() {
        let a = StringArray::from(vec!["ab", "", "cde", "f", "gh"]).slice(1, 4);
        for values in [
            ColumnValues::ByteArray(ByteArrayBatch::new()),
            ColumnValues::new(PhysicalType::ByteArray, 0),
        ] {
            let got = gathered(&a, &[0..2, 3..4], values);
            let expected: ByteArrayBatch = ["", "cde", "gh"].into_iter().collect();
            assert_eq!(got, ColumnValues::ByteArray(expected));
        }
        let large = LargeStringArray::from(vec!["x", "yy", "zzz"]);
        let got = gathered(
            &large,
            &[1..3],
            ColumnValues::ByteArray(ByteArrayBatch::new()),
        );
        let expected: ByteArrayBatch = ["yy", "zzz"].into_iter().collect();
        assert_eq!(got, ColumnValues::ByteArray(expected));
        let views = StringViewArray::from(vec!["a string longer than twelve bytes", "b"]);
        let got = gathered(
            &views,
            &[0..2],
            ColumnValues::ByteArray(ByteArrayBatch::new()),
        );
        let expected: ByteArrayBatch = ["a string longer than twelve bytes", "b"]
            .into_iter()
            .collect();
        assert_eq!(got, ColumnValues::ByteArray(expected));
    }

    #[test]
    fn decimals_narrow_and_refuse_what_does_not_fit() {
        let a = Decimal128Array::from(vec![1, -1, 8_388_607, -8_388_608])
            .with_precision_and_scale(6, 0)
            .unwrap();
        let got = gathered(
            &a,
            &[0..4],
            ColumnValues::FixedLenByteArray(FixedLenByteArrayBatch::new(3)),
        );
        let ColumnValues::FixedLenByteArray(got) = got else {
            panic!()
        };
        assert_eq!(
            got.data(),
            [0, 0, 1, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0x80, 0, 0]
        );
        let big = Decimal128Array::from(vec![8_388_608]);
        let mut out = ColumnValues::FixedLenByteArray(FixedLenByteArrayBatch::new(3));
        assert!(matches!(
            gather(&big, &[0..1], &mut out, &mut Scratch::default()),
            Err(GatherError::Failed(Error::Argument(_)))
        ));
    }

    #[test]
    fn dictionaries_gather_their_values() {
        let d: DictionaryArray<Int8Type> = vec!["b", "a", "b", "c"].into_iter().collect();
        let got = gathered(
            &d,
            &[0..2, 3..4],
            ColumnValues::ByteArray(ByteArrayBatch::new()),
        );
        let expected: ByteArrayBatch = ["b", "a", "c"].into_iter().collect();
        assert_eq!(got, ColumnValues::ByteArray(expected));
    }

    #[test]
    fn seconds_overflow_is_an_error() {
        let t = arrow_array::Time32SecondArray::from(vec![i32::MAX]);
        let mut out = ColumnValues::Int32(vec![]);
        assert!(matches!(
            gather(&t, &[0..1], &mut out, &mut Scratch::default()),
            Err(GatherError::Failed(Error::Argument(_)))
        ));
    }
}
