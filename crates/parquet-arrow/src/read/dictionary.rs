//! Byte arrays as Arrow dictionary arrays: each distinct value once, and a key per slot.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, DictionaryArray, PrimitiveArray, UInt32Array};
use arrow_array::{GenericByteArray, types::ByteArrayType};
use arrow_buffer::ArrowNativeType as _;
use arrow_schema::DataType;
use hashbrown::HashMap;

use crate::error::{Result, invalid, unsupported};

/// `values` (a string or binary array) dictionary-encoded with keys of type `key`.
pub(crate) fn encode(values: &ArrayRef, key: &DataType) -> Result<ArrayRef> {
    match values.data_type() {
        DataType::Utf8 => by_key(values.as_string::<i32>(), key),
        DataType::LargeUtf8 => by_key(values.as_string::<i64>(), key),
        DataType::Binary => by_key(values.as_binary::<i32>(), key),
        DataType::LargeBinary => by_key(values.as_binary::<i64>(), key),
        other => Err(unsupported(format!("a dictionary of {other}"))),
    }
}

fn by_key<T: ByteArrayType>(values: &GenericByteArray<T>, key: &DataType) -> Result<ArrayRef> {
    match key {
        DataType::Int8 => keyed::<Int8Type, T>(values),
        DataType::Int16 => keyed::<Int16Type, T>(values),
        DataType::Int32 => keyed::<Int32Type, T>(values),
        DataType::Int64 => keyed::<Int64Type, T>(values),
        DataType::UInt8 => keyed::<UInt8Type, T>(values),
        DataType::UInt16 => keyed::<UInt16Type, T>(values),
        DataType::UInt32 => keyed::<UInt32Type, T>(values),
        DataType::UInt64 => keyed::<UInt64Type, T>(values),
        other => Err(unsupported(format!("dictionary keys of {other}"))),
    }
}

fn keyed<K: ArrowDictionaryKeyType, T: ByteArrayType>(
    values: &GenericByteArray<T>,
) -> Result<ArrayRef> {
    let (indices, distinct) = distinct(values);
    let keys = indices
        .iter()
        .map(|&i| K::Native::from_usize(i as usize))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            invalid(format!(
                "{} distinct values for {} keys",
                distinct.len(),
                K::DATA_TYPE
            ))
        })?;
    let keys = PrimitiveArray::<K>::try_new(keys.into(), values.nulls().cloned())?;
    Ok(Arc::new(DictionaryArray::<K>::try_new(keys, distinct)?))
}

/// A key per slot (0 in the null ones) and the distinct values, in order of first sight.
fn distinct<T: ByteArrayType>(values: &GenericByteArray<T>) -> (Vec<u32>, ArrayRef) {
    let mut seen: HashMap<&[u8], u32> = HashMap::new();
    let mut order: Vec<usize> = Vec::new();
    let mut keys = Vec::with_capacity(values.len());
    for i in 0..values.len() {
        if values.is_null(i) {
            keys.push(0);
            continue;
        }
        let bytes: &[u8] = values.value(i).as_ref();
        // Fewer distinct values than slots, and slots fit 32 bits in one batch.
        #[allow(clippy::cast_possible_truncation)]
        let next = order.len() as u32;
        let key = *seen.entry(bytes).or_insert_with(|| {
            order.push(i);
            next
        });
        keys.push(key);
    }
    let take =
        UInt32Array::from_iter_values(order.iter().map(|&i| u32::try_from(i).unwrap_or(u32::MAX)));
    let distinct = gather(values, &take);
    (keys, distinct)
}

/// The values of `values` at `indices`.
fn gather<T: ByteArrayType>(values: &GenericByteArray<T>, indices: &UInt32Array) -> ArrayRef {
    let picked: GenericByteArray<T> = indices
        .values()
        .iter()
        .map(|&i| Some(values.value(i as usize)))
        .collect();
    Arc::new(picked)
}
