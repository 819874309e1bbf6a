//! Timestamps: seconds from 2015-01-01 in the writer's time zone (DATA, signed) and
//! nanoseconds with their trailing zeros dropped (SECONDARY, unsigned).

use super::{Ints, Positions, fill, short, spread};
use crate::calendar;
use crate::error::{Error, ErrorKind, Result};
use crate::vector::{Vector, VectorData};

/// Seconds from 1970-01-01 to 2015-01-01, ORC's timestamp base.
pub(crate) const TIMESTAMP_BASE: i64 = 1_420_070_400;

/// A timestamp column (with or without a local time zone).
pub(super) struct Timestamp {
    seconds: Ints,
    nanos: Ints,
    zone: Zone,
    /// Whether the seconds count in the hybrid Julian/Gregorian calendar.
    hybrid: bool,
    scratch: Vec<i64>,
}

impl Timestamp {
    /// The decoder of `seconds` and `nanos` written in the zone `zone` (UTC when `None`).
    pub(super) fn new(
        seconds: Ints,
        nanos: Ints,
        zone: Option<&str>,
        hybrid: bool,
    ) -> Result<Self> {
        Ok(Self {
            seconds,
            nanos,
            zone: match zone {
                Some(name) => Zone::new(name)?,
                None => Zone::Utc,
            },
            hybrid,
            scratch: Vec::new(),
        })
    }

    /// Reads `count` values into `out`, spread over the slots `present` marks.
    pub(super) fn read(
        &mut self,
        count: usize,
        present: Option<&[bool]>,
        out: &mut Vector,
    ) -> Result<()> {
        let Self {
            seconds,
            nanos,
            zone,
            hybrid,
            scratch,
        } = self;
        let (secs, ns) = match &mut out.data {
            VectorData::Timestamp { seconds, nanos } => (seconds, nanos),
            other => {
                *other = VectorData::Timestamp {
                    seconds: Vec::new(),
                    nanos: Vec::new(),
                };
                let VectorData::Timestamp { seconds, nanos } = other else {
                    unreachable!()
                };
                (seconds, nanos)
            }
        };
        let got = fill(secs, count, |out| seconds.decode(out))?;
        if got < count {
            return Err(short("DATA", count, got));
        }
        let got = fill(scratch, count, |out| nanos.decode(out))?;
        if got < count {
            return Err(short("SECONDARY", count, got));
        }
        ns.clear();
        for (s, &encoded) in secs.iter_mut().zip(scratch.iter()) {
            let nano = decode_nanos(encoded).ok_or_else(|| {
                Error::invalid("encoded nanoseconds", encoded).in_stream("SECONDARY")
            })?;
            // Apache ORC's writers take the seconds of the UTC instant's
            // milliseconds truncated toward zero: before 1970 (UTC), a time with
            // a fraction of a millisecond or more stores one second too many,
            // which ORC Java's reader (and the C++ reader since ORC-763) takes
            // back when the UTC seconds are negative and the nanoseconds above
            // 999_999; so does this one, before the zone's offset and the
            // calendar (whose cutover may lie in that second) are applied.
            // Arrow's writer stores the fraction of such a time negative instead
            // (-1 ns as 0 s and -1 ns), which adds up as it is.
            let mut utc = zone.utc_seconds(*s);
            if utc < 0 && nano > 999_999 {
                utc -= 1;
            }
            let mut second = zone.wall_clock(utc);
            if *hybrid {
                second = calendar::hybrid_seconds(second);
            }
            let (second, nano) = if nano < 0 {
                (second.wrapping_sub(1), nano + 1_000_000_000)
            } else {
                (second, nano)
            };
            *s = second;
            // In 0..1e9 by now.
            ns.push(u32::try_from(nano).unwrap_or(0));
        }
        spread(secs, present, 0);
        spread(ns, present, 0);
        Ok(())
    }

    pub(super) fn seek(&mut self, p: &mut Positions<'_>) -> Result<()> {
        self.seconds.seek(p)?;
        self.nanos.seek(p)
    }
}

/// How the seconds of a timestamp column become a wall-clock time: ORC counts them from
/// 2015-01-01 00:00:00 in the writer's time zone (the stripe footer's, UTC when it names
/// none, and always UTC for `timestamp with local time zone`).
///
/// Before a zone's first transition (its local mean time, such as -7:52:58 for
/// `America/Los_Angeles` before 1883), ORC Java and the C++ reader use the offset the
/// zone takes at that transition (-8:00): so does this reader.
enum Zone {
    Utc,
    Named {
        zone: jiff::tz::TimeZone,
        /// 2015-01-01 00:00:00 in the zone, in seconds from the epoch.
        base: i64,
        /// The zone's first transition, in seconds from the epoch, and the offset it
        /// takes then, in seconds; `None` for a zone without transitions.
        first: Option<(i64, i64)>,
    },
}

impl Zone {
    fn new(name: &str) -> Result<Self> {
        if matches!(name, "UTC" | "GMT" | "Etc/UTC" | "Etc/GMT" | "Z" | "") {
            return Ok(Self::Utc);
        }
        let zone =
            jiff::tz::TimeZone::get(name).map_err(|source| ErrorKind::TimeZone { source })?;
        let base = jiff::civil::date(2015, 1, 1)
            .at(0, 0, 0, 0)
            .to_zoned(zone.clone())
            .map_err(|source| ErrorKind::TimeZone { source })?
            .timestamp()
            .as_second();
        let first = zone
            .following(jiff::Timestamp::MIN)
            .next()
            .map(|t| (t.timestamp().as_second(), i64::from(t.offset().seconds())));
        Ok(Self::Named { zone, base, first })
    }

    /// The seconds from 1970-01-01 00:00:00 UTC of a stored value, as the writer took
    /// them (truncated toward zero; see the decoder): the stored seconds plus 2015-01-01
    /// 00:00:00 of the writer's zone.
    fn utc_seconds(&self, stored: i64) -> i64 {
        match self {
            Self::Utc => stored.wrapping_add(TIMESTAMP_BASE),
            Self::Named { base, .. } => stored.wrapping_add(*base),
        }
    }

    /// The wall-clock seconds (as if in UTC) of the instant `utc` (seconds from the
    /// epoch) in the writer's zone, as Apache ORC's readers show it.
    fn wall_clock(&self, utc: i64) -> i64 {
        match self {
            Self::Utc => utc,
            Self::Named { zone, first, .. } => {
                let offset = match first {
                    Some((at, offset)) if utc < *at => *offset,
                    _ => offset_at(zone, utc),
                };
                utc.wrapping_add(offset)
            }
        }
    }
}

/// Seconds in 400 years of the Gregorian calendar: 146,097 days, a whole number of weeks,
/// after which the calendar, and so a zone's rules past its last transition (the `TZif`
/// footer's POSIX TZ string: a day of a week of a month, at a time), repeat.
const GREGORIAN_CYCLE_SECONDS: i64 = 146_097 * 86_400;

/// The offset of `zone` at `utc` seconds from the epoch. jiff's instants end 26 hours
/// short of the years -9999 and 9999 (so that every offset keeps them in its civil
/// range): an instant past them takes the offset of the same moment a whole number of
/// 400-year cycles closer, where the zone's last rules hold the same.
fn offset_at(zone: &jiff::tz::TimeZone, utc: i64) -> i64 {
    let (min, max) = (
        jiff::Timestamp::MIN.as_second(),
        jiff::Timestamp::MAX.as_second(),
    );
    let cycles = if utc > max {
        (i128::from(utc) - i128::from(max)).div_euclid(i128::from(GREGORIAN_CYCLE_SECONDS)) + 1
    } else if utc < min {
        -((i128::from(min) - i128::from(utc)).div_euclid(i128::from(GREGORIAN_CYCLE_SECONDS)) + 1)
    } else {
        0
    };
    let within = i128::from(utc) - cycles * i128::from(GREGORIAN_CYCLE_SECONDS);
    i64::try_from(within)
        .ok()
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .map_or(0, |t| i64::from(zone.to_offset(t).seconds()))
}

/// Decodes ORC's nanosecond encoding: the low 3 bits `z` say that the value was
/// divided by `10^(z + 1)` to drop trailing zeros. The value is signed, as Apache ORC's
/// C++ reader takes it (Arrow's writer stores negative fractions before 1970), and
/// within a second either way.
pub(crate) fn decode_nanos(encoded: i64) -> Option<i64> {
    let zeros = u32::try_from(encoded & 7).unwrap_or(0);
    let mut value = encoded >> 3;
    if zeros != 0 {
        value = value.checked_mul(10i64.pow(zeros + 1))?;
    }
    (value.abs() < 1_000_000_000).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_before_a_zones_first_transition_take_its_first_offset() {
        let zone = Zone::new("America/Los_Angeles").unwrap();
        let Zone::Named { base, first, .. } = &zone else {
            panic!("a named zone");
        };
        // 1883-11-18 12:07:02 local mean time, when Los Angeles took -8:00.
        assert_eq!(*first, Some((-2_717_640_000, -8 * 3600)));
        // 1800-01-01 08:00:00 UTC is 00:00:00 at -8:00 (at -7:52:58 it would be 00:07:02).
        let instant = -5_364_633_600;
        assert_eq!(zone.utc_seconds(instant - base), instant);
        assert_eq!(zone.wall_clock(instant), instant - 8 * 3600);
        // After it, the zone's own rules: 2020-07-01 12:00:00 UTC, in summer time.
        let summer = 1_593_604_800;
        assert_eq!(zone.wall_clock(summer), summer - 7 * 3600);
    }

    #[test]
    fn zones_keep_their_last_rules_to_the_end_of_9999() {
        let zone = Zone::new("America/Los_Angeles").unwrap();
        let last = jiff::Timestamp::MAX.as_second();
        // 9999-12-31 23:59:59 UTC, past jiff's last instant (9999-12-30 22:00:00 UTC):
        // Pacific Standard Time, as on every 31 December.
        let end = 253_402_300_799;
        assert!(end > last);
        assert_eq!(zone.wall_clock(end), end - 8 * 3600);
        assert_eq!(zone.wall_clock(last + 1), last + 1 - 8 * 3600);
        // 400 years on, past any calendar's use, the rules still hold: summer time in
        // July of 10399 (1 July 10399 12:00 UTC).
        let july = 266_009_184_000 + 12 * 3600;
        assert_eq!(zone.wall_clock(july), july - 7 * 3600);
        // A zone without transitions keeps its offset before jiff's first instant too.
        let tokyo_like = Zone::new("Etc/GMT-9").unwrap();
        let first = jiff::Timestamp::MIN.as_second();
        assert_eq!(tokyo_like.wall_clock(first - 10), first - 10 + 9 * 3600);
        assert_eq!(
            tokyo_like.wall_clock(i64::MAX - 86_400),
            i64::MAX - 86_400 + 9 * 3600
        );
    }

    #[test]
    fn nanos_drop_trailing_zeros() {
        assert_eq!(decode_nanos(0), Some(0));
        assert_eq!(decode_nanos(1000 << 3), Some(1000));
        // 1000 as "1, 3 zeros": z = 2 means 10^3.
        assert_eq!(decode_nanos((1 << 3) | 2), Some(1000));
        assert_eq!(decode_nanos(123_456_789 << 3), Some(123_456_789));
        assert_eq!(decode_nanos((5 << 3) | 7), Some(500_000_000));
        assert_eq!(decode_nanos((10 << 3) | 7), None);
        // Negative, as Arrow writes the fraction of a time before 1970.
        assert_eq!(decode_nanos(-1 << 3), Some(-1));
        assert_eq!(decode_nanos((-5 << 3) | 7), Some(-500_000_000));
        assert_eq!(decode_nanos(-10 << 3 | 7), None);
    }
}
