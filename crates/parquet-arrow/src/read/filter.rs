//! Filters of decoded rows: a [`Predicate`] evaluated on a batch's arrays (with the
//! meaning [`Predicate::matches`] gives it on rows), and the caller's [`RowFilter`].

use std::cmp::Ordering;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Date64Type, Decimal32Type, Decimal64Type, Decimal128Type,
    Decimal256Type, DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType,
    DurationSecondType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type,
    Int64Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, BooleanArray, RecordBatch};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_schema::{ArrowError, DataType, FieldRef, TimeUnit};
use parquet_file::{Literal, Op, Predicate};
use std::sync::Arc;

use super::ProjectionMask;
use crate::error::{Error, Result};

/// A test of the rows of a decoded batch: true keeps a row, false or null drops it.
pub trait ArrowPredicate: Send {
    /// The rows of `batch` (the columns of the filter's projection) to keep.
    ///
    /// # Errors
    ///
    /// Whatever the test fails with; the reader returns it.
    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError>;
}

impl<F> ArrowPredicate for F
where
    F: FnMut(RecordBatch) -> Result<BooleanArray, ArrowError> + Send,
{
    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError> {
        self(batch)
    }
}

/// A filter of rows evaluated on each decoded batch, given the columns of its projection
/// (read even when the output does not have them).
pub struct RowFilter {
    pub(crate) projection: ProjectionMask,
    pub(crate) predicate: Box<dyn ArrowPredicate>,
}

impl RowFilter {
    /// A filter that shows `predicate` the columns of `projection`.
    pub fn new(projection: ProjectionMask, predicate: impl ArrowPredicate + 'static) -> Self {
        Self {
            projection,
            predicate: Box::new(predicate),
        }
    }
}

impl std::fmt::Debug for RowFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowFilter")
            .field("projection", &self.projection)
            .finish_non_exhaustive()
    }
}

/// The rows of `batch` where `predicate` holds.
pub(crate) fn evaluate(predicate: &Predicate, batch: &RecordBatch) -> Result<BooleanArray> {
    Ok(BooleanArray::new(holds(predicate, batch)?, None))
}

fn holds(predicate: &Predicate, batch: &RecordBatch) -> Result<BooleanBuffer> {
    Ok(match predicate {
        Predicate::And(a, b) => &holds(a, batch)? & &holds(b, batch)?,
        Predicate::Or(a, b) => &holds(a, batch)? | &holds(b, batch)?,
        Predicate::Not(a) => !&holds(a, batch)?,
        Predicate::IsNull { column, negated } => {
            let (_, nulls, _) = find(batch, column.parts())?;
            let valid = nulls.map_or_else(
                || BooleanBuffer::new_set(batch.num_rows()),
                |n| n.inner().clone(),
            );
            if *negated { valid } else { !&valid }
        }
        Predicate::Compare {
            column,
            op,
            literal,
        } => {
            let (array, nulls, field) = find(batch, column.parts())?;
            // A UUID compares with nothing, as in a row.
            let holds = if field.extension_type_name() == Some("arrow.uuid") {
                BooleanBuffer::new_unset(array.len())
            } else {
                compare(&array, *op, literal)?
            };
            match nulls {
                Some(n) => &holds & n.inner(),
                None => holds,
            }
        }
    })
}

/// The array at `path` (through structs), and where it or a struct around it is null.
fn find(batch: &RecordBatch, path: &[String]) -> Result<(ArrayRef, Option<NullBuffer>, FieldRef)> {
    let missing = || Error::Argument(format!("no column {} in the batch", path.join(".")));
    let (first, rest) = path.split_first().ok_or_else(missing)?;
    let schema = batch.schema();
    let (index, field) = schema.fields().find(first).ok_or_else(missing)?;
    let mut field = Arc::clone(field);
    let mut array = Arc::clone(batch.column(index));
    let mut nulls = array.logical_nulls();
    for name in rest {
        let (Some(s), DataType::Struct(fields)) = (array.as_struct_opt(), field.data_type()) else {
            return Err(missing());
        };
        let (index, child_field) = fields.find(name).ok_or_else(missing)?;
        let child = Arc::clone(s.column(index));
        nulls = NullBuffer::union(nulls.as_ref(), child.logical_nulls().as_ref());
        field = Arc::clone(child_field);
        array = child;
    }
    Ok((array, nulls, field))
}

/// How the decimal `unscaled` of `scale` compares to `literal`, as
/// [`compare_field`](parquet_core::filter::compare_field) compares a decimal: exactly
/// against an integer, as a float against a float.
fn decimal(unscaled: Option<i128>, scale: i8, literal: &Literal) -> Option<Ordering> {
    let unscaled = unscaled?;
    let scale = u32::try_from(scale).ok()?;
    match literal {
        Literal::Int(l) => 10_i128
            .checked_pow(scale)
            .and_then(|p| l.checked_mul(p))
            .map(|scaled| unscaled.cmp(&scaled)),
        #[allow(clippy::cast_precision_loss)]
        Literal::Float(f) => {
            (unscaled as f64 / 10_f64.powi(i32::try_from(scale).ok()?)).partial_cmp(f)
        }
        _ => None,
    }
}

/// Where `array`'s values compare to `literal` as `op` says (nulls aside).
#[allow(clippy::too_many_lines)]
fn compare(array: &ArrayRef, op: Op, literal: &Literal) -> Result<BooleanBuffer> {
    let n = array.len();
    let by = |f: &dyn Fn(usize) -> Option<Ordering>| {
        BooleanBuffer::collect_bool(n, |i| f(i).is_some_and(|o| op.holds(o)))
    };
    let number = |value: f64| match literal {
        Literal::Int(i) => {
            #[allow(clippy::cast_precision_loss)]
            let l = *i as f64;
            value.partial_cmp(&l)
        }
        Literal::Float(f) => value.partial_cmp(f),
        _ => None,
    };
    Ok(match array.data_type() {
        DataType::Int8 => ints::<Int8Type>(array, literal, true, op),
        DataType::Int16 => ints::<Int16Type>(array, literal, true, op),
        DataType::Int32 => ints::<Int32Type>(array, literal, true, op),
        DataType::Int64 => ints::<Int64Type>(array, literal, true, op),
        DataType::UInt8 => ints::<UInt8Type>(array, literal, true, op),
        DataType::UInt16 => ints::<UInt16Type>(array, literal, true, op),
        DataType::UInt32 => ints::<UInt32Type>(array, literal, true, op),
        DataType::UInt64 => ints::<UInt64Type>(array, literal, true, op),
        DataType::Date32 => ints::<Date32Type>(array, literal, false, op),
        DataType::Date64 => ints::<Date64Type>(array, literal, false, op),
        DataType::Time32(TimeUnit::Second) => ints::<Time32SecondType>(array, literal, false, op),
        DataType::Time32(_) => ints::<Time32MillisecondType>(array, literal, false, op),
        DataType::Time64(TimeUnit::Nanosecond) => {
            ints::<Time64NanosecondType>(array, literal, false, op)
        }
        DataType::Time64(_) => ints::<Time64MicrosecondType>(array, literal, false, op),
        DataType::Timestamp(unit, _) => match unit {
            TimeUnit::Second => ints::<TimestampSecondType>(array, literal, false, op),
            TimeUnit::Millisecond => ints::<TimestampMillisecondType>(array, literal, false, op),
            TimeUnit::Microsecond => ints::<TimestampMicrosecondType>(array, literal, false, op),
            TimeUnit::Nanosecond => ints::<TimestampNanosecondType>(array, literal, false, op),
        },
        DataType::Duration(unit) => match unit {
            TimeUnit::Second => ints::<DurationSecondType>(array, literal, true, op),
            TimeUnit::Millisecond => ints::<DurationMillisecondType>(array, literal, true, op),
            TimeUnit::Microsecond => ints::<DurationMicrosecondType>(array, literal, true, op),
            TimeUnit::Nanosecond => ints::<DurationNanosecondType>(array, literal, true, op),
        },
        DataType::Float16 => {
            let v = array.as_primitive::<Float16Type>().values();
            by(&|i| number(f64::from(v[i])))
        }
        DataType::Float32 => {
            let v = array.as_primitive::<Float32Type>().values();
            by(&|i| number(f64::from(v[i])))
        }
        DataType::Float64 => {
            let v = array.as_primitive::<Float64Type>().values();
            by(&|i| number(v[i]))
        }
        DataType::Decimal32(_, scale) => {
            let v = array.as_primitive::<Decimal32Type>().values();
            by(&|i| decimal(Some(i128::from(v[i])), *scale, literal))
        }
        DataType::Decimal64(_, scale) => {
            let v = array.as_primitive::<Decimal64Type>().values();
            by(&|i| decimal(Some(i128::from(v[i])), *scale, literal))
        }
        DataType::Decimal128(_, scale) => {
            let v = array.as_primitive::<Decimal128Type>().values();
            by(&|i| decimal(Some(v[i]), *scale, literal))
        }
        DataType::Decimal256(_, scale) => {
            let v = array.as_primitive::<Decimal256Type>().values();
            // Past 128 bits, as a float: far beyond any literal's exact range anyway.
            by(&|i| match v[i].to_i128() {
                Some(x) => decimal(Some(x), *scale, literal),
                None => number(
                    v[i].to_string().parse::<f64>().unwrap_or(f64::NAN)
                        / 10_f64.powi(i32::from(*scale)),
                ),
            })
        }
        DataType::FixedSizeBinary(_) => {
            let Literal::Str(l) = literal else {
                return Ok(BooleanBuffer::new_unset(n));
            };
            let v = array.as_fixed_size_binary();
            by(&|i| Some(v.value(i).cmp(l.as_bytes())))
        }
        DataType::Boolean => {
            let v = array.as_boolean();
            by(&|i| match literal {
                Literal::Bool(l) => Some(v.value(i).cmp(l)),
                _ => None,
            })
        }
        DataType::Utf8
        | DataType::LargeUtf8
        | DataType::Utf8View
        | DataType::Binary
        | DataType::LargeBinary
        | DataType::BinaryView => {
            let Literal::Str(l) = literal else {
                return Ok(BooleanBuffer::new_unset(n));
            };
            let l = l.as_bytes();
            match array.data_type() {
                DataType::Utf8 => {
                    let v = array.as_string::<i32>();
                    by(&|i| Some(v.value(i).as_bytes().cmp(l)))
                }
                DataType::LargeUtf8 => {
                    let v = array.as_string::<i64>();
                    by(&|i| Some(v.value(i).as_bytes().cmp(l)))
                }
                DataType::Utf8View => {
                    let v = array.as_string_view();
                    by(&|i| Some(v.value(i).as_bytes().cmp(l)))
                }
                DataType::Binary => {
                    let v = array.as_binary::<i32>();
                    by(&|i| Some(v.value(i).cmp(l)))
                }
                DataType::LargeBinary => {
                    let v = array.as_binary::<i64>();
                    by(&|i| Some(v.value(i).cmp(l)))
                }
                _ => {
                    let v = array.as_binary_view();
                    by(&|i| Some(v.value(i).cmp(l)))
                }
            }
        }
        DataType::Dictionary(..) => {
            let dictionary = array.as_any_dictionary();
            let on_values = compare(dictionary.values(), op, literal)?;
            let keys = dictionary.normalized_keys();
            BooleanBuffer::collect_bool(n, |i| {
                keys.get(i)
                    .is_some_and(|&k| k < on_values.len() && on_values.value(k))
            })
        }
        _ => BooleanBuffer::new_unset(n),
    })
}

// Integers, and counts of days or units of time: against an integer literal exactly,
// against a float as numbers (only plain integers).
fn ints<T: ArrowPrimitiveType>(
    array: &ArrayRef,
    literal: &Literal,
    numeric: bool,
    op: Op,
) -> BooleanBuffer
where
    T::Native: Into<i128>,
{
    let values = array.as_primitive::<T>().values();
    BooleanBuffer::collect_bool(values.len(), |i| {
        let v: i128 = values[i].into();
        let ordering = match literal {
            Literal::Int(l) => Some(v.cmp(l)),
            #[allow(clippy::cast_precision_loss)]
            Literal::Float(f) if numeric => (v as f64).partial_cmp(f),
            _ => None,
        };
        ordering.is_some_and(|o| op.holds(o))
    })
}
