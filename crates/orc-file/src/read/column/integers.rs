//! Booleans, bytes, integers and dates: one run-length encoded DATA stream each.

use super::{Bools, Bytes8, Ints, fill, reuse_ints, short, spread};
use crate::calendar;
use crate::error::Result;
use crate::vector::{Vector, VectorData};

/// Reads `count` booleans into `out`, spread over the slots `present` marks.
pub(super) fn read_booleans(
    data: &mut Bools,
    count: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    let values = reuse_bools(out);
    let got = fill(values, count, |out| data.decode(out))?;
    if got < count {
        return Err(short("DATA", count, got));
    }
    spread(values, present, false);
    Ok(())
}

/// Reads `count` bytes (tinyints) into `out` as integers.
pub(super) fn read_bytes(
    data: &mut Bytes8,
    count: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    let values = reuse_ints(out);
    let mut bytes = Vec::new();
    let got = fill(&mut bytes, count, |out| data.decode(out))?;
    if got < count {
        return Err(short("DATA", count, got));
    }
    values.clear();
    values.extend(bytes.iter().map(|&b| i64::from(b.cast_signed())));
    spread(values, present, 0);
    Ok(())
}

/// Reads `count` integers (smallints, ints, bigints, proleptic Gregorian dates) into
/// `out`.
pub(super) fn read_ints(
    data: &mut Ints,
    count: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    let values = reuse_ints(out);
    let got = fill(values, count, |out| data.decode(out))?;
    if got < count {
        return Err(short("DATA", count, got));
    }
    spread(values, present, 0);
    Ok(())
}

/// Reads `count` days of the hybrid Julian/Gregorian calendar into `out`, as proleptic
/// Gregorian days.
pub(super) fn read_hybrid_dates(
    data: &mut Ints,
    count: usize,
    present: Option<&[bool]>,
    out: &mut Vector,
) -> Result<()> {
    read_ints(data, count, present, out)?;
    // Null slots hold 0, 1970-01-01, the same day in both calendars.
    for day in reuse_ints(out).iter_mut() {
        *day = calendar::hybrid_day(*day);
    }
    Ok(())
}

fn reuse_bools(out: &mut Vector) -> &mut Vec<bool> {
    if !matches!(out.data, VectorData::Boolean(_)) {
        out.data = VectorData::Boolean(Vec::new());
    }
    let VectorData::Boolean(v) = &mut out.data else {
        unreachable!()
    };
    v
}
