//! Column batches: the values of a number of rows, one vector per column, with a slot
//! per row (nulls included), as Apache ORC's `VectorizedRowBatch` and Arrow arrays hold
//! them. The reader fills them and the writer takes them.

use parquet_core::ByteArrayBatch;

/// The rows of a batch: one vector per top-level column of the (projected) schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    /// The number of rows.
    pub num_rows: usize,
    /// The top-level columns, in schema order (only the projected ones when reading).
    pub columns: Vec<Vector>,
}

/// One column's values for a number of slots.
///
/// A null slot is `false` in `present`; its place in the data holds a filler (zero,
/// an empty byte string, an empty list, a struct whose fields are null). Children of a
/// struct, a union and a map, and a list's elements, are vectors of their own.
#[derive(Debug, Clone, PartialEq)]
pub struct Vector {
    /// Whether each slot holds a value; `None` when every slot does.
    pub present: Option<Vec<bool>>,
    /// The values.
    pub data: VectorData,
}

/// The values of a [`Vector`], by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum VectorData {
    /// boolean.
    Boolean(Vec<bool>),
    /// tinyint, smallint, int, bigint, and date (days since 1970-01-01).
    Int(Vec<i64>),
    /// float.
    Float(Vec<f32>),
    /// double.
    Double(Vec<f64>),
    /// string, char, varchar and binary.
    Bytes(ByteArrayBatch),
    /// timestamp: seconds since 1970-01-01T00:00:00 (wall clock for `timestamp`, UTC
    /// for `timestamp with local time zone`) and nanoseconds `0..1_000_000_000` within
    /// that second.
    Timestamp {
        /// Whole seconds, rounded toward negative infinity.
        seconds: Vec<i64>,
        /// Nanoseconds within the second.
        nanos: Vec<u32>,
    },
    /// decimal: unscaled values and, per value, the scale (for a decimal with a declared
    /// scale, every value has it).
    Decimal {
        /// The unscaled integers.
        values: Vec<i128>,
        /// The digits after the point, per value.
        scales: Vec<u32>,
    },
    /// array: slot `i` holds `elements[offsets[i]..offsets[i + 1]]`.
    List {
        /// One more than the slots; a null slot has an empty range.
        offsets: Vec<usize>,
        /// The elements of every list, one after the other.
        elements: Box<Vector>,
    },
    /// map: slot `i` holds the pairs `offsets[i]..offsets[i + 1]` of `keys` and `values`.
    Map {
        /// One more than the slots.
        offsets: Vec<usize>,
        /// The keys of every map, one after the other.
        keys: Box<Vector>,
        /// Their values.
        values: Box<Vector>,
    },
    /// struct: one vector per field, each with a slot per struct slot (null where the
    /// struct is null).
    Struct {
        /// The number of slots (a struct without fields has no other record of it).
        len: usize,
        /// The fields, in schema order.
        fields: Vec<Vector>,
    },
    /// uniontype: per slot the tag of the alternative, and one vector per alternative
    /// with a slot per union slot (null where another alternative is chosen).
    Union {
        /// The alternative of each slot (0 for a null slot).
        tags: Vec<u8>,
        /// The alternatives.
        alternatives: Vec<Vector>,
    },
}

impl Vector {
    /// A vector without nulls.
    pub fn new(data: VectorData) -> Self {
        Self {
            present: None,
            data,
        }
    }

    /// A vector with a presence mask.
    pub fn with_present(data: VectorData, present: Vec<bool>) -> Self {
        Self {
            present: Some(present),
            data,
        }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        match &self.data {
            VectorData::Boolean(v) => v.len(),
            VectorData::Int(v) => v.len(),
            VectorData::Float(v) => v.len(),
            VectorData::Double(v) => v.len(),
            VectorData::Bytes(v) => v.len(),
            VectorData::Timestamp { seconds, .. } => seconds.len(),
            VectorData::Decimal { values, .. } => values.len(),
            VectorData::List { offsets, .. } | VectorData::Map { offsets, .. } => {
                offsets.len().saturating_sub(1)
            }
            VectorData::Struct { len, .. } => *len,
            VectorData::Union { tags, .. } => tags.len(),
        }
    }

    /// Whether the vector has no slots.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether slot `i` holds a value.
    pub fn is_present(&self, i: usize) -> bool {
        self.present
            .as_ref()
            .is_none_or(|p| p.get(i).copied().unwrap_or(false))
    }
}
