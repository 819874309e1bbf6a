//! Arrow schemas of Parquet schemas and back, and the `ARROW:schema` stored in files.

mod from_parquet;
mod stored;
mod to_parquet;

pub use from_parquet::parquet_to_arrow_schema;
pub(crate) use from_parquet::{ArrowShape, ShapeKind, schema_of, shape_of};
pub use stored::{ARROW_SCHEMA_META_KEY, decode_arrow_schema, encode_arrow_schema};
pub use to_parquet::arrow_to_parquet_schema;
pub(crate) use to_parquet::repetition;
