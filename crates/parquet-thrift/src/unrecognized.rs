//! Union members this crate does not know, kept as the bytes they were read from.

use parquet_core::Result;

use crate::compact::{FieldHeader, FieldType, Reader, Writer};

/// A union member this crate does not know (say, a logical type added to Parquet after
/// this crate was written): its field id, its type and the compact encoding of its value,
/// so that it can be written back unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnrecognizedMember {
    /// The member's field id.
    pub id: i16,
    /// The type of its value (for a boolean, the value itself).
    pub field_type: FieldType,
    /// The compact encoding of its value (for a struct, its fields and the stop byte).
    pub value: Vec<u8>,
}

impl UnrecognizedMember {
    /// Reads the value of the field whose header is `header`, keeping a copy of its bytes.
    ///
    /// # Errors
    ///
    /// As [`Reader::skip_field`].
    pub fn read(reader: &mut Reader<'_>, header: FieldHeader) -> Result<Self> {
        let value = reader.skip_field_raw(header.field_type)?.to_vec();
        Ok(Self {
            id: header.id,
            field_type: header.field_type,
            value,
        })
    }

    /// Writes the member as the only field of its union.
    pub fn write(&self, writer: &mut Writer<'_>) {
        writer.write_field_header(self.field_type, self.id, 0);
        writer.write_raw(&self.value);
    }
}
