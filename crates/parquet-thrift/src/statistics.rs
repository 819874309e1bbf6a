//! Statistics of column chunks and pages.

use std::borrow::Cow;

use crate::macros::thrift_struct;
use crate::small_list::SmallList;

thrift_struct! {
    /// Sizes and level histograms that help a reader estimate the memory a column needs
    /// and prune on nesting.
    #[derive(Eq, Hash)]
    pub struct SizeStatistics {
        /// For BYTE_ARRAY columns, the bytes of the values without their lengths.
        1: optional unencoded_byte_array_data_bytes: i64,
        /// How often each repetition level (0 to the maximum) occurs.
        2: optional repetition_level_histogram: SmallList<i64, 3>,
        /// How often each definition level (0 to the maximum) occurs.
        3: optional definition_level_histogram: SmallList<i64, 3>,
    }
}

thrift_struct! {
    /// A bounding box of GEOMETRY or GEOGRAPHY values, per axis.
    pub struct BoundingBox {
        /// Smallest X (longitude).
        1: required xmin: f64,
        /// Largest X (longitude).
        2: required xmax: f64,
        /// Smallest Y (latitude).
        3: required ymin: f64,
        /// Largest Y (latitude).
        4: required ymax: f64,
        /// Smallest Z, if the values have one.
        5: optional zmin: f64,
        /// Largest Z, if the values have one.
        6: optional zmax: f64,
        /// Smallest M, if the values have one.
        7: optional mmin: f64,
        /// Largest M, if the values have one.
        8: optional mmax: f64,
    }
}

thrift_struct! {
    /// Statistics of GEOMETRY and GEOGRAPHY columns.

    pub struct GeospatialStatistics {
        /// The bounding box of all values.
        1: optional bbox: BoundingBox,
        /// The geospatial type codes of all values (an empty list when unknown).
        2: optional geospatial_types: Vec<i32>,
    }
}

thrift_struct! {
    /// Statistics of a column chunk or page. Values are PLAIN-encoded, without the length
    /// prefix of byte arrays.
    #[derive(Eq, Hash)]
    pub struct Statistics<'a> {
        /// The legacy maximum, by signed comparison (deprecated: `max_value`).
        1: optional max: Cow<'a, [u8]>,
        /// The legacy minimum, by signed comparison (deprecated: `min_value`).
        2: optional min: Cow<'a, [u8]>,
        /// The number of nulls; absent means unknown, not zero.
        3: optional null_count: i64,
        /// The number of distinct values.
        4: optional distinct_count: i64,
        /// An upper bound of the values, in the column's order.
        5: optional max_value: Cow<'a, [u8]>,
        /// A lower bound of the values, in the column's order.
        6: optional min_value: Cow<'a, [u8]>,
        /// Whether `max_value` is a value of the column rather than a bound.
        7: optional is_max_value_exact: bool,
        /// Whether `min_value` is a value of the column rather than a bound.
        8: optional is_min_value_exact: bool,
        /// For floating-point columns, the number of NaNs; absent means there may be some.
        9: optional nan_count: i64,
    }
}
