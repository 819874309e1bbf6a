//! Values: a column's physical values ([`ColumnValues`]), and what one of them means under
//! the column's logical type ([`Field`]).

mod field;

use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96, PhysicalType};

pub(crate) use field::Converter;
pub use field::Field;

/// The values of a column, typed by its physical type. Nulls have no entry: where the
/// values are is told by the definition levels.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnValues {
    /// BOOLEAN.
    Boolean(Vec<bool>),
    /// INT32.
    Int32(Vec<i32>),
    /// INT64.
    Int64(Vec<i64>),
    /// INT96.
    Int96(Vec<Int96>),
    /// FLOAT.
    Float(Vec<f32>),
    /// DOUBLE.
    Double(Vec<f64>),
    /// BYTE_ARRAY.
    ByteArray(ByteArrayBatch),
    /// FIXED_LEN_BYTE_ARRAY.
    FixedLenByteArray(FixedLenByteArrayBatch),
}

impl ColumnValues {
    /// Empty values of `physical` type (`type_length` bytes each for
    /// FIXED_LEN_BYTE_ARRAY).
    pub fn new(physical: PhysicalType, type_length: usize) -> Self {
        match physical {
            PhysicalType::Boolean => Self::Boolean(Vec::new()),
            PhysicalType::Int32 => Self::Int32(Vec::new()),
            PhysicalType::Int64 => Self::Int64(Vec::new()),
            PhysicalType::Int96 => Self::Int96(Vec::new()),
            PhysicalType::Float => Self::Float(Vec::new()),
            PhysicalType::Double => Self::Double(Vec::new()),
            PhysicalType::ByteArray => Self::ByteArray(ByteArrayBatch::new()),
            PhysicalType::FixedLenByteArray => {
                Self::FixedLenByteArray(FixedLenByteArrayBatch::with_capacity(type_length, 0))
            }
        }
    }

    /// Empty values of the same type, with room for as many values (and bytes) as these
    /// have.
    pub(crate) fn empty_like(&self) -> Self {
        match self {
            Self::Boolean(v) => Self::Boolean(Vec::with_capacity(v.len())),
            Self::Int32(v) => Self::Int32(Vec::with_capacity(v.len())),
            Self::Int64(v) => Self::Int64(Vec::with_capacity(v.len())),
            Self::Int96(v) => Self::Int96(Vec::with_capacity(v.len())),
            Self::Float(v) => Self::Float(Vec::with_capacity(v.len())),
            Self::Double(v) => Self::Double(Vec::with_capacity(v.len())),
            Self::ByteArray(v) => {
                Self::ByteArray(ByteArrayBatch::with_capacity(v.len(), v.data().len()))
            }
            Self::FixedLenByteArray(v) => {
                Self::FixedLenByteArray(FixedLenByteArrayBatch::with_capacity(v.width(), v.len()))
            }
        }
    }

    /// The physical type of the values.
    pub fn physical_type(&self) -> PhysicalType {
        match self {
            Self::Boolean(_) => PhysicalType::Boolean,
            Self::Int32(_) => PhysicalType::Int32,
            Self::Int64(_) => PhysicalType::Int64,
            Self::Int96(_) => PhysicalType::Int96,
            Self::Float(_) => PhysicalType::Float,
            Self::Double(_) => PhysicalType::Double,
            Self::ByteArray(_) => PhysicalType::ByteArray,
            Self::FixedLenByteArray(_) => PhysicalType::FixedLenByteArray,
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Self::Boolean(v) => v.len(),
            Self::Int32(v) => v.len(),
            Self::Int64(v) => v.len(),
            Self::Int96(v) => v.len(),
            Self::Float(v) => v.len(),
            Self::Double(v) => v.len(),
            Self::ByteArray(v) => v.len(),
            Self::FixedLenByteArray(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match self {
            Self::Boolean(v) => v.truncate(len),
            Self::Int32(v) => v.truncate(len),
            Self::Int64(v) => v.truncate(len),
            Self::Int96(v) => v.truncate(len),
            Self::Float(v) => v.truncate(len),
            Self::Double(v) => v.truncate(len),
            Self::ByteArray(v) => v.truncate(len),
            Self::FixedLenByteArray(v) => v.truncate(len),
        }
    }

    /// Removes every value, keeping the memory.
    pub fn clear(&mut self) {
        match self {
            Self::Boolean(v) => v.clear(),
            Self::Int32(v) => v.clear(),
            Self::Int64(v) => v.clear(),
            Self::Int96(v) => v.clear(),
            Self::Float(v) => v.clear(),
            Self::Double(v) => v.clear(),
            Self::ByteArray(v) => v.clear(),
            Self::FixedLenByteArray(v) => v.clear(),
        }
    }
}
