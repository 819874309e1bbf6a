//! Floats and doubles: little-endian IEEE 754 values, front to back in the DATA stream.

use super::{Raw, spread};
use crate::error::Result;
use crate::vector::{Vector, VectorData};

/// Reads `count` floats into `out`, spread over the slots `present` marks.
pub(super) fn read_floats(
    data: &mut Raw,
    count: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    let values = match &mut out.data {
        VectorData::Float(v) => v,
        other => {
            *other = VectorData::Float(Vec::new());
            let VectorData::Float(v) = other else {
                unreachable!()
            };
            v
        }
    };
    let bytes = data.take(count * 4, "DATA")?;
    values.clear();
    values.extend(
        bytes
            .as_chunks::<4>()
            .0
            .iter()
            .map(|c| f32::from_le_bytes(*c)),
    );
    spread(values, present, 0.0);
    Ok(())
}

/// Reads `count` doubles into `out`, spread over the slots `present` marks.
pub(super) fn read_doubles(
    data: &mut Raw,
    count: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    let values = match &mut out.data {
        VectorData::Double(v) => v,
        other => {
            *other = VectorData::Double(Vec::new());
            let VectorData::Double(v) = other else {
                unreachable!()
            };
            v
        }
    };
    let bytes = data.take(count * 8, "DATA")?;
    values.clear();
    values.extend(
        bytes
            .as_chunks::<8>()
            .0
            .iter()
            .map(|c| f64::from_le_bytes(*c)),
    );
    spread(values, present, 0.0);
    Ok(())
}
