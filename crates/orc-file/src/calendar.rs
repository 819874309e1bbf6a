//! The calendars of ORC dates and timestamps.
//!
//! A file's footer says which calendar its days count in (`calendar`). ORC Java before 1.5
//! and Spark's ORC files (which say `JULIAN_GREGORIAN`) count them in the hybrid calendar
//! of `java.util.GregorianCalendar`: Julian up to 1582-10-04, Gregorian from 1582-10-15
//! on. Arrow, the rows contract and this crate count them in the proleptic Gregorian
//! calendar (`PROLEPTIC_GREGORIAN`, which this crate's writer declares). The two agree
//! from the cutover on; before it, a hybrid day is read as the date it names (the
//! year, month and day of the Julian calendar) in the proleptic calendar, as ORC Java
//! does when asked for proleptic Gregorian values and as Spark rebases them. A file that
//! names no calendar (Apache ORC's C++ writer, older writers) is read as proleptic, as the
//! C++ reader and pyarrow read it.

/// 1582-10-15, the first day of the Gregorian calendar, in days from 1970-01-01: the same
/// day in both calendars.
const CUTOVER: i64 = -141_427;

/// 1970-01-01 as a Julian Day Number.
const EPOCH_JDN: i64 = 2_440_588;

const SECONDS_PER_DAY: i64 = 86_400;

/// The proleptic Gregorian day (from 1970-01-01) of the hybrid calendar's `day`.
pub fn hybrid_day(day: i64) -> i64 {
    // Days past any calendar's use are left as they are (and the arithmetic below
    // cannot overflow).
    if !(-(1 << 40)..CUTOVER).contains(&day) {
        return day;
    }
    let (year, month, day) = julian_date(day.saturating_add(EPOCH_JDN));
    gregorian_days(year, month, day)
}

/// The proleptic Gregorian seconds (from 1970-01-01 00:00:00) of the hybrid calendar's
/// `seconds`: its day as [`hybrid_day`], its time of day kept.
pub fn hybrid_seconds(seconds: i64) -> i64 {
    if seconds >= CUTOVER * SECONDS_PER_DAY {
        return seconds;
    }
    let (day, time) = (
        seconds.div_euclid(SECONDS_PER_DAY),
        seconds.rem_euclid(SECONDS_PER_DAY),
    );
    hybrid_day(day)
        .saturating_mul(SECONDS_PER_DAY)
        .saturating_add(time)
}

/// The Julian calendar's year, month and day of a Julian Day Number (the algorithm of
/// the Calendar FAQ, with floor division so that it holds for every day).
fn julian_date(jdn: i64) -> (i64, i64, i64) {
    let c = jdn + 32_082;
    let d = (4 * c + 3).div_euclid(1461);
    let e = c - (1461 * d).div_euclid(4);
    let m = (5 * e + 2).div_euclid(153);
    let day = e - (153 * m + 2).div_euclid(5) + 1;
    let month = m + 3 - 12 * m.div_euclid(10);
    let year = d - 4800 + m.div_euclid(10);
    (year, month, day)
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard
/// Hinnant's `days_from_civil`).
fn gregorian_days(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calendars_agree_from_the_cutover_on() {
        assert_eq!(gregorian_days(1582, 10, 15), CUTOVER);
        for day in [CUTOVER, 0, 19_000, -100_000] {
            assert_eq!(hybrid_day(day), day);
        }
        // The day before the cutover is 1582-10-04 in the hybrid calendar.
        assert_eq!(hybrid_day(CUTOVER - 1), gregorian_days(1582, 10, 4));
    }

    #[test]
    fn julian_dates_keep_their_names() {
        // Days as ORC Java and Spark write them (hybrid), and the dates they mean.
        let julian_days = |year: i64, month: i64, day: i64| {
            // The hybrid day of a Julian date: its Julian Day Number from the epoch,
            // computed the other way round (Calendar FAQ).
            let a = (14 - month) / 12;
            let y = year + 4800 - a;
            let m = month + 12 * a - 3;
            day + (153 * m + 2) / 5 + 365 * y + y.div_euclid(4) - 32_083 - EPOCH_JDN
        };
        for (year, month, day) in [(1172, 4, 11), (1, 1, 1), (1582, 10, 4), (-44, 3, 15)] {
            let stored = julian_days(year, month, day);
            assert_eq!(julian_date(stored + EPOCH_JDN), (year, month, day));
            assert_eq!(hybrid_day(stored), gregorian_days(year, month, day));
        }
        // The stored days that pqkit read as 1172-04-18 and 0000-12-30.
        assert_eq!(julian_days(1172, 4, 11), gregorian_days(1172, 4, 18));
        assert_eq!(julian_days(1, 1, 1), gregorian_days(0, 12, 30));
    }

    #[test]
    fn timestamps_keep_their_time_of_day() {
        let day = gregorian_days(1000, 1, 1) - 5;
        let stored = day * SECONDS_PER_DAY + 3_723;
        assert_eq!(
            hybrid_seconds(stored),
            hybrid_day(day) * SECONDS_PER_DAY + 3_723
        );
        assert_eq!(hybrid_seconds(0), 0);
        assert_eq!(hybrid_seconds(i64::MIN), hybrid_seconds(i64::MIN));
    }
}
