//! The schema in the message-type syntax of parquet-format (`message schema { ... }`).

use std::fmt;

use parquet_core::PhysicalType;

use super::{ConvertedType, EdgeInterpolation, LogicalType, Node, NodeKind, Schema};

impl fmt::Display for LogicalType {
    /// The annotation as the message-type syntax writes it: `STRING`, `DECIMAL(9,2)`,
    /// `TIMESTAMP(MICROS,true)`, `GEOGRAPHY(OGC:CRS84,KARNEY)`; empty for no annotation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::None => Ok(()),
            Self::String => f.write_str("STRING"),
            Self::Enum => f.write_str("ENUM"),
            Self::Json => f.write_str("JSON"),
            Self::Bson => f.write_str("BSON"),
            Self::Uuid => f.write_str("UUID"),
            Self::Float16 => f.write_str("FLOAT16"),
            Self::Decimal { scale, precision } => write!(f, "DECIMAL({precision},{scale})"),
            Self::Date => f.write_str("DATE"),
            Self::Time { unit, utc } => write!(f, "TIME({},{utc})", unit.name()),
            Self::Timestamp { unit, utc } => write!(f, "TIMESTAMP({},{utc})", unit.name()),
            Self::Integer { bits, signed } => write!(f, "INTEGER({bits},{signed})"),
            Self::Interval => f.write_str("INTERVAL"),
            Self::List => f.write_str("LIST"),
            Self::Map => f.write_str("MAP"),
            Self::Unknown => f.write_str("UNKNOWN"),
            Self::Variant {
                specification_version: None,
            } => f.write_str("VARIANT"),
            Self::Variant {
                specification_version: Some(v),
            } => write!(f, "VARIANT({v})"),
            Self::Geometry { crs: None } => f.write_str("GEOMETRY"),
            Self::Geometry { crs: Some(crs) } => write!(f, "GEOMETRY({crs})"),
            Self::Geography {
                crs: None,
                algorithm: None,
            } => f.write_str("GEOGRAPHY"),
            Self::Geography {
                crs: Some(crs),
                algorithm: None,
            } => write!(f, "GEOGRAPHY({crs})"),
            Self::Geography { crs, algorithm } => write!(
                f,
                "GEOGRAPHY({},{})",
                crs.as_deref().unwrap_or("OGC:CRS84"),
                algorithm.map_or("SPHERICAL".into(), EdgeInterpolation::name)
            ),
            Self::File => f.write_str("FILE"),
            Self::Other => f.write_str("OTHER"),
        }
    }
}

/// ` (ANNOTATION)`, or nothing for a field without one.
fn annotation(node: &Node) -> String {
    match (&node.logical_type, node.converted_type) {
        (LogicalType::None, _) => String::new(),
        // The legacy mark of a map's repeated group, which the reader takes as a MAP.
        (_, Some(ConvertedType::MapKeyValue)) => " (MAP_KEY_VALUE)".to_owned(),
        // An annotation this reader does not know: the converted type, when written.
        (LogicalType::Other, Some(converted)) => format!(" ({})", converted.name()),
        (logical, _) => format!(" ({logical})"),
    }
}

fn write_node(
    schema: &Schema,
    f: &mut fmt::Formatter<'_>,
    index: usize,
    indent: usize,
) -> fmt::Result {
    let Some(node) = schema.node(index) else {
        return Ok(());
    };
    let pad = "  ".repeat(indent);
    let repetition = node.repetition.name();
    match &node.kind {
        NodeKind::Group { children } => {
            writeln!(
                f,
                "{pad}{repetition} group {}{} {{",
                node.name,
                annotation(node)
            )?;
            for &child in children {
                write_node(schema, f, child, indent + 1)?;
            }
            writeln!(f, "{pad}}}")
        }
        NodeKind::Primitive { column } => {
            let Ok(c) = schema.column(*column) else {
                return Ok(());
            };
            let physical = if c.physical_type == PhysicalType::FixedLenByteArray {
                format!("fixed_len_byte_array({})", c.type_length)
            } else {
                c.physical_type.to_string().to_lowercase()
            };
            writeln!(
                f,
                "{pad}{repetition} {physical} {}{};",
                node.name,
                annotation(node)
            )
        }
    }
}

impl fmt::Display for Schema {
    /// The schema in the message syntax of parquet-format (`message schema { ... }`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "message {} {{", self.root().name)?;
        for &child in self.children(0) {
            write_node(self, f, child, 1)?;
        }
        writeln!(f, "}}")
    }
}
