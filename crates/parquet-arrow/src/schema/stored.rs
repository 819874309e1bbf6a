//! The Arrow schema stored in a file's key-value metadata under `ARROW:schema`: an Arrow
//! IPC schema message (continuation marker, little-endian length, flatbuffer),
//! base64-encoded, as arrow-rs and pyarrow write it.

use arrow_schema::{ArrowError, Schema};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// The key-value metadata key of the stored Arrow schema.
pub const ARROW_SCHEMA_META_KEY: &str = "ARROW:schema";

/// `schema` as the value of [`ARROW_SCHEMA_META_KEY`].
pub fn encode_arrow_schema(schema: &Schema) -> String {
    let options = arrow_ipc::writer::IpcWriteOptions::default();
    let mut tracker = arrow_ipc::writer::DictionaryTracker::new(true);
    let message = arrow_ipc::writer::IpcDataGenerator::default()
        .schema_to_bytes_with_dictionary_tracker(schema, &mut tracker, &options)
        .ipc_message;
    let mut bytes = Vec::with_capacity(message.len() + 8);
    bytes.extend_from_slice(&[0xFF; 4]);
    // A schema message is a few bytes per field: far from 4 GiB.
    #[allow(clippy::cast_possible_truncation)]
    bytes.extend_from_slice(&(message.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&message);
    STANDARD.encode(bytes)
}

/// The schema stored as `value` (with or without the continuation marker).
///
/// # Errors
///
/// Text that is not base64, or bytes that are not an IPC schema message.
pub fn decode_arrow_schema(value: &str) -> Result<Schema, ArrowError> {
    let bytes = STANDARD
        .decode(value.trim())
        .map_err(|e| ArrowError::ParseError(format!("ARROW:schema is not base64: {e}")))?;
    arrow_ipc::convert::try_schema_from_ipc_buffer(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::{DataType, Field, TimeUnit};

    #[test]
    fn round_trips() {
        let schema = Schema::new(vec![
            Field::new("a", DataType::LargeUtf8, true),
            Field::new(
                "t",
                DataType::Timestamp(TimeUnit::Millisecond, Some("Europe/Paris".into())),
                false,
            ),
            Field::new_dictionary("d", DataType::Int32, DataType::Utf8, true),
        ]);
        let decoded = decode_arrow_schema(&encode_arrow_schema(&schema)).unwrap();
        assert_eq!(decoded, schema);
    }

    #[test]
    fn refuses_garbage() {
        assert!(decode_arrow_schema("not base64!").is_err());
        assert!(
            decode_arrow_schema(&STANDARD.encode([0xFF, 0xFF, 0xFF, 0xFF, 9, 0, 0, 0, 1])).is_err()
        );
        assert!(decode_arrow_schema("").is_err());
    }
}
