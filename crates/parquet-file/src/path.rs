//! Column paths: the names of the fields from the root to a field, one name per level
//! (defined in [`parquet_core::filter`], shared with the ORC reader).

pub use parquet_core::filter::ColumnPath;
