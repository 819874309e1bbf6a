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
    if !matches!(out.data, VectorData::Float(_)) {
        out.data = VectorData::Float(Vec::new());
    }
    match &mut out.data {
        VectorData::Float(values) => read_le(data, count, present, values, f32::from_le_bytes),
        _ => Ok(()),
    }
}

/// Reads `count` doubles into `out`, spread over the slots `present` marks.
pub(super) fn read_doubles(
    data: &mut Raw,
    count: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    if !matches!(out.data, VectorData::Double(_)) {
        out.data = VectorData::Double(Vec::new());
    }
    match &mut out.data {
        VectorData::Double(values) => read_le(data, count, present, values, f64::from_le_bytes),
        _ => Ok(()),
    }
}

/// Reads `count` little-endian values of `N` bytes into `values`, spread over the slots
/// `present` marks.
fn read_le<T: Copy + Default, const N: usize>(
    data: &mut Raw,
    count: usize,
    present: Option<&[bool]>,
    values: &mut Vec<T>,
    from_le: fn([u8; N]) -> T,
) -> Result<()> {
    let bytes = data.take(count.saturating_mul(N), "DATA")?;
    values.clear();
    values.extend(bytes.as_chunks::<N>().0.iter().map(|c| from_le(*c)));
    spread(values, present, T::default());
    Ok(())
}
