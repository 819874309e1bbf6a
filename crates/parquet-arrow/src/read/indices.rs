//! The dictionary indices of dictionary-encoded pages as Arrow arrays over the column
//! chunk's dictionary: the keys of a dictionary array or the views of a view array over
//! its entries converted once, or the strings and binaries gathered from it.

use std::sync::Arc;

use arrow_array::types::{
    ArrowDictionaryKeyType, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, UInt32Array};
use arrow_array::{ArrayRef, BinaryViewArray, DictionaryArray, PrimitiveArray, StringViewArray};
use arrow_buffer::{ArrowNativeType as _, Buffer, NullBuffer, ScalarBuffer};
use arrow_schema::DataType;
use arrow_select::take::{TakeOptions, take};
use parquet_file::{ByteArrayDictionary, ColumnDescriptor, ColumnValues, DictionaryIndices};

use super::leaf::{check_count, leaf_array, make_view, spread};
use crate::error::{Result, invalid, unsupported};

/// Whether a leaf of `target` type is built from dictionary indices, when its column
/// chunk's pages are dictionary-encoded: a string, binary or view array, or a dictionary
/// of strings or binaries.
pub(crate) fn from_indices(target: &DataType) -> bool {
    match target {
        DataType::Dictionary(key, value) => {
            key.is_dictionary_key_type()
                && matches!(
                    **value,
                    DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary
                )
        }
        DataType::Utf8
        | DataType::LargeUtf8
        | DataType::Binary
        | DataType::LargeBinary
        | DataType::Utf8View
        | DataType::BinaryView => true,
        _ => false,
    }
}

/// The entries of a column chunk's dictionary as an Arrow array, built for the first
/// batch with indices into it and shared by the others.
#[derive(Debug, Default)]
pub(crate) struct DictionaryCache {
    /// The dictionary, and its entries as the values of a dictionary array or as a view
    /// array; `None` when they cannot be (more entries than the keys index, offsets or
    /// strings that do not fit the type): the indices are then gathered.
    built: Option<(Arc<ByteArrayDictionary>, Option<ArrayRef>)>,
}

impl DictionaryCache {
    /// The array of `dictionary`'s entries for `target`, built when the dictionary is
    /// not the one built last.
    fn entries(
        &mut self,
        dictionary: &Arc<ByteArrayDictionary>,
        column: &ColumnDescriptor,
        target: &DataType,
    ) -> Option<ArrayRef> {
        match &self.built {
            Some((built, array)) if Arc::ptr_eq(built, dictionary) => array.clone(),
            _ => {
                let array = build_entries(dictionary, column, target);
                self.built = Some((Arc::clone(dictionary), array.clone()));
                array
            }
        }
    }
}

/// `dictionary`'s entries as the values of a `target` dictionary array, or as a `target`
/// view array; `None` when they do not fit it, or for other types.
fn build_entries(
    dictionary: &ByteArrayDictionary,
    column: &ColumnDescriptor,
    target: &DataType,
) -> Option<ArrayRef> {
    let entries = dictionary.entries();
    match target {
        DataType::Dictionary(key, value) => {
            let last = entries.len().saturating_sub(1);
            if !key_fits(key, last) {
                return None;
            }
            let values = ColumnValues::ByteArray(entries.clone());
            leaf_array(values, column, value, None, entries.len()).ok()
        }
        DataType::Utf8View | DataType::BinaryView => {
            let views: Vec<u128> = entries
                .offsets()
                .windows(2)
                .map(|w| {
                    let bytes = entries
                        .data()
                        .get(w[0] as usize..w[1] as usize)
                        .unwrap_or_default();
                    make_view(bytes, w[0])
                })
                .collect();
            let views = ScalarBuffer::from(views);
            let buffers = vec![Buffer::from(entries.data())];
            // Strings are checked to be UTF-8 here, once for the dictionary.
            Some(if *target == DataType::Utf8View {
                Arc::new(StringViewArray::try_new(views, buffers, None).ok()?)
            } else {
                Arc::new(BinaryViewArray::try_new(views, buffers, None).ok()?)
            })
        }
        _ => None,
    }
}

/// Whether keys of type `key` index entry `index`.
fn key_fits(key: &DataType, index: usize) -> bool {
    let max = match key {
        DataType::Int8 => i8::MAX as usize,
        DataType::Int16 => i16::MAX as usize,
        DataType::UInt8 => u8::MAX.into(),
        DataType::UInt16 => u16::MAX.into(),
        DataType::Int32 => i32::MAX.unsigned_abs() as usize,
        DataType::UInt32 | DataType::Int64 | DataType::UInt64 => usize::MAX,
        _ => return false,
    };
    index <= max
}

/// The array of `target` type (see [`from_indices`]) of the values `indices` hold, in
/// the slots of `nulls` (`len` slots; all valid when `None`): the keys of a dictionary
/// array or the views of a view array, over the entries built once for the column
/// chunk's dictionary in `cache`; or, for strings and binaries and where the entries do
/// not fit the type, the values gathered and read as values are.
pub(crate) fn indices_array(
    indices: DictionaryIndices,
    cache: &mut DictionaryCache,
    column: &ColumnDescriptor,
    target: &DataType,
    nulls: Option<NullBuffer>,
    len: usize,
) -> Result<ArrayRef> {
    check_count(column, indices.len(), nulls.as_ref(), len)?;
    if matches!(
        target,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary
    ) {
        // The entries copied out at once (short ones without a call to `memcpy` each),
        // strings checked as UTF-8 again in one pass with the batch: cheaper than taking
        // them one by one from entries checked once.
        let values = ColumnValues::ByteArray(indices.gather()?);
        return leaf_array(values, column, target, nulls, len);
    }
    let Some(entries) = cache.entries(indices.dictionary(), column, target) else {
        let values = ColumnValues::ByteArray(indices.gather()?);
        return leaf_array(values, column, target, nulls, len);
    };
    let (_, indices) = indices.into_parts();
    let DataType::Dictionary(key, _) = target else {
        // The entries at the indices: views whose bytes stay in the one buffer.
        let indices = UInt32Array::new(
            ScalarBuffer::from(spread(indices, nulls.as_ref(), len)),
            nulls,
        );
        let options = TakeOptions { check_bounds: true };
        return Ok(take(&entries, &indices, Some(options))?);
    };
    match **key {
        DataType::Int8 => keyed_by::<Int8Type>(indices, entries, nulls, len),
        DataType::Int16 => keyed_by::<Int16Type>(indices, entries, nulls, len),
        DataType::Int32 => keyed_by::<Int32Type>(indices, entries, nulls, len),
        DataType::Int64 => keyed_by::<Int64Type>(indices, entries, nulls, len),
        DataType::UInt8 => keyed_by::<UInt8Type>(indices, entries, nulls, len),
        DataType::UInt16 => keyed_by::<UInt16Type>(indices, entries, nulls, len),
        DataType::UInt32 => keyed_by::<UInt32Type>(indices, entries, nulls, len),
        DataType::UInt64 => keyed_by::<UInt64Type>(indices, entries, nulls, len),
        ref other => Err(unsupported(format!("dictionary keys of {other}"))),
    }
}

/// A dictionary array of `values` whose keys are `indices` spread over `nulls`.
fn keyed_by<K: ArrowDictionaryKeyType>(
    indices: Vec<u32>,
    values: ArrayRef,
    nulls: Option<NullBuffer>,
    len: usize,
) -> Result<ArrayRef> {
    let keys = indices
        .into_iter()
        .map(|i| K::Native::from_usize(i as usize))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            invalid(format!(
                "{} entries for {} keys",
                values.len(),
                K::DATA_TYPE
            ))
        })?;
    let keys = spread(keys, nulls.as_ref(), len);
    let keys = PrimitiveArray::<K>::try_new(keys.into(), nulls)?;
    Ok(Arc::new(DictionaryArray::<K>::try_new(keys, values)?))
}
