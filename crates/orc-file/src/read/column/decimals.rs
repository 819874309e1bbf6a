//! Decimals: unbounded zigzag varints (DATA) and the scale of each (SECONDARY, signed).

use super::{Ints, Positions, Raw, fill, short, spread};
use crate::error::{Error, ErrorKind, Result};
use crate::vector::{Vector, VectorData};

/// A decimal column.
pub(super) struct Decimal {
    data: Raw,
    scales: Ints,
    /// The column's declared scale, to which every value is brought.
    scale: Option<u32>,
    scratch: Vec<i64>,
}

impl Decimal {
    pub(super) const fn new(data: Raw, scales: Ints, scale: Option<u32>) -> Self {
        Self {
            data,
            scales,
            scale,
            scratch: Vec::new(),
        }
    }

    /// Reads `count` values of `column` into `out`, spread over the slots `present` marks.
    pub(super) fn read(
        &mut self,
        count: usize,
        present: Option<&[bool]>,
        column: u32,
        out: &mut Vector,
    ) -> Result<()> {
        let Self {
            data,
            scales,
            scale,
            scratch,
        } = self;
        let got = fill(scratch, count, |out| scales.decode(out))?;
        if got < count {
            return Err(short("SECONDARY", count, got));
        }
        let (values, out_scales) = match &mut out.data {
            VectorData::Decimal { values, scales } => (values, scales),
            other => {
                *other = VectorData::Decimal {
                    values: Vec::new(),
                    scales: Vec::new(),
                };
                let VectorData::Decimal { values, scales } = other else {
                    unreachable!()
                };
                (values, scales)
            }
        };
        values.clear();
        out_scales.clear();
        data.ensure(count.saturating_mul(MAX_VARINT_LEN))?;
        for &value_scale in scratch.iter() {
            let unscaled = read_varint_i128(data, column)?;
            let value_scale = u32::try_from(value_scale)
                .ok()
                .filter(|&s| s <= 38)
                .ok_or_else(|| {
                    Error::invalid("decimal scale", value_scale).in_stream("SECONDARY")
                })?;
            let (v, s) = match *scale {
                Some(target) => (
                    rescale(unscaled, value_scale, target).ok_or_else(|| {
                        ErrorKind::DecimalDoesNotFit {
                            unscaled,
                            value_scale,
                            scale: target,
                        }
                    })?,
                    target,
                ),
                None => (unscaled, value_scale),
            };
            values.push(v);
            out_scales.push(s);
        }
        spread(values, present, 0);
        spread(out_scales, present, scale.unwrap_or(0));
        Ok(())
    }

    pub(super) fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.data.seek(p)?;
        self.scales.seek(p)
    }
}

/// The most bytes of a decimal's varint: 128 bits in groups of 7.
const MAX_VARINT_LEN: usize = 128_usize.div_ceil(7);

/// Reads one unbounded zigzag base-128 varint as an `i128`.
fn read_varint_i128(data: &mut Raw, column: u32) -> Result<i128> {
    let mut value: u128 = 0;
    let mut shift = 0u32;
    loop {
        let byte = *data.bytes.get(data.pos).ok_or_else(|| {
            Error::malformed("the stream ends inside a decimal")
                .at_column(column)
                .in_stream("DATA")
        })?;
        data.pos += 1;
        let bits = u128::from(byte & 0x7f);
        if shift >= 128 || (shift > 121 && bits >> (128 - shift) != 0) {
            return Err(Error::unsupported("decimal wider than 128 bits", None)
                .at_column(column)
                .in_stream("DATA"));
        }
        value |= bits << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            break;
        }
    }
    Ok((value >> 1).cast_signed() ^ -((value & 1).cast_signed()))
}

/// `unscaled * 10^-from` brought to `to` digits after the point (rounding half away from
/// zero when digits are dropped, as Hive does).
pub(crate) fn rescale(unscaled: i128, from: u32, to: u32) -> Option<i128> {
    if from == to {
        return Some(unscaled);
    }
    if to > from {
        return unscaled.checked_mul(10i128.checked_pow(to - from)?);
    }
    let divisor = 10i128.checked_pow(from - to)?;
    let quotient = unscaled / divisor;
    let remainder = unscaled % divisor;
    if remainder.unsigned_abs() * 2 >= divisor.unsigned_abs() {
        Some(quotient + unscaled.signum())
    } else {
        Some(quotient)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rescale_rounds_half_away_from_zero() {
        assert_eq!(rescale(12345, 2, 4), Some(1_234_500));
        assert_eq!(rescale(12345, 3, 1), Some(123));
        assert_eq!(rescale(12355, 3, 1), Some(124));
        assert_eq!(rescale(-12355, 3, 1), Some(-124));
        assert_eq!(rescale(i128::MAX, 0, 2), None);
    }
}
