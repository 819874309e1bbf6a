//! Dates and timestamps by the footer's calendar and the stripes' writer time zone, as
//! ORC Java reads them: a file that says `JULIAN_GREGORIAN` (Spark's) holds days of the
//! hybrid calendar, read as the dates they name; a zone's local mean time before its
//! first transition is its first standard offset.

#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

use bytes::Bytes;
use orc_file::{
    OrcCompression, OrcReader, OrcWriter, ReadOptions, TypeDescription, WriterOptions, proto,
};
use parquet_core::{Field, Row, TimeUnit};
use prost::Message;

/// Days from 1970-01-01 to a proleptic Gregorian date.
fn days(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// The hybrid calendar's day of a Julian calendar date, as Spark and ORC Java write it.
fn julian(year: i64, month: i64, day: i64) -> i64 {
    let a = (14 - month) / 12;
    let y = year + 4800 - a;
    let m = month + 12 * a - 3;
    day + (153 * m + 2) / 5 + 365 * y + y.div_euclid(4) - 32_083 - 2_440_588
}

/// An uncompressed file of a date and a timestamp column, with these days (and the
/// timestamps at noon of them).
fn file(stored_days: &[i64], options: WriterOptions) -> Vec<u8> {
    let schema = TypeDescription::parse("struct<d:date,t:timestamp>").unwrap();
    let mut writer = OrcWriter::new(
        Vec::new(),
        schema,
        options.compression(OrcCompression::None),
    )
    .unwrap();
    for &day in stored_days {
        let row = Row::new(vec![
            ("d".into(), Field::Date(day as i32)),
            (
                "t".into(),
                Field::Timestamp {
                    value: i128::from(day * 86_400 + 43_200) * 1_000_000_000,
                    unit: TimeUnit::Nanos,
                    utc: false,
                },
            ),
        ]);
        writer.write_row(&row).unwrap();
    }
    writer.finish().unwrap()
}

/// `bytes` with its footer's calendar set to `calendar`.
fn with_calendar(bytes: &[u8], calendar: proto::CalendarKind) -> Vec<u8> {
    let ps_len = *bytes.last().unwrap() as usize;
    let ps_start = bytes.len() - 1 - ps_len;
    let ps = proto::PostScript::decode(&bytes[ps_start..bytes.len() - 1]).unwrap();
    let footer_start = ps_start - ps.footer_length.unwrap() as usize;
    let mut footer = proto::Footer::decode(&bytes[footer_start..ps_start]).unwrap();
    footer.calendar = Some(calendar as i32);
    let footer = footer.encode_to_vec();
    let mut out = bytes[..footer_start].to_vec();
    out.extend_from_slice(&footer);
    let ps = proto::PostScript {
        footer_length: Some(footer.len() as u64),
        ..ps
    }
    .encode_to_vec();
    out.extend_from_slice(&ps);
    out.push(u8::try_from(ps.len()).unwrap());
    out
}

/// Each row's date (days) and timestamp (seconds).
fn read(bytes: Vec<u8>) -> Vec<(i64, i64)> {
    let reader = OrcReader::open(Bytes::from(bytes)).unwrap();
    reader
        .rows(ReadOptions::default())
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            let fields = row.fields();
            let Field::Date(day) = fields[0].1 else {
                panic!("{row:?}")
            };
            let Field::Timestamp { value, .. } = fields[1].1 else {
                panic!("{row:?}")
            };
            (i64::from(day), (value / 1_000_000_000) as i64)
        })
        .collect()
}

#[test]
fn the_writer_says_proleptic_gregorian() {
    let bytes = file(&[0], WriterOptions::default());
    let reader = OrcReader::open(Bytes::from(bytes)).unwrap();
    assert_eq!(reader.calendar(), proto::CalendarKind::ProlepticGregorian);
}

#[test]
fn hybrid_days_are_read_as_the_dates_they_name() {
    // Spark's 1172-04-11 and 0001-01-01 (read as 1172-04-18 and 0000-12-30 when the
    // calendar was ignored), the day before the cutover, the cutover, and today.
    let stored = [
        julian(1172, 4, 11),
        julian(1, 1, 1),
        julian(1582, 10, 4),
        days(1582, 10, 15),
        days(2026, 11, 27),
    ];
    let expected = [
        days(1172, 4, 11),
        days(1, 1, 1),
        days(1582, 10, 4),
        days(1582, 10, 15),
        days(2026, 11, 27),
    ];
    let bytes = file(&stored, WriterOptions::default());
    let hybrid = read(with_calendar(&bytes, proto::CalendarKind::JulianGregorian));
    for ((day, second), want) in hybrid.iter().zip(expected) {
        assert_eq!(*day, want);
        assert_eq!(*second, want * 86_400 + 43_200);
    }
    // Proleptic, or no calendar named (Apache ORC's C++ writer): the days as stored.
    for calendar in [
        proto::CalendarKind::ProlepticGregorian,
        proto::CalendarKind::UnknownCalendar,
    ] {
        let rows = read(with_calendar(&bytes, calendar));
        let days: Vec<i64> = rows.iter().map(|r| r.0).collect();
        assert_eq!(days, stored, "{calendar:?}");
    }
}

#[test]
fn before_a_zones_first_transition_its_first_standard_offset_counts() {
    // Stored in a fixed zone, read as if the stripes said America/Los_Angeles: 1800-01-01
    // 12:00:00 at -8:00, as ORC Java and the C++ reader read it (not at -7:52:58).
    let day = days(1800, 1, 1);
    let bytes = file(
        &[day],
        WriterOptions::default().writer_timezone("Etc/GMT+8"),
    );
    let reader = OrcReader::open(Bytes::copy_from_slice(&bytes)).unwrap();
    let stripe = reader.stripes()[0];
    let at = (stripe.offset + stripe.index_length + stripe.data_length) as usize;
    let end = at + stripe.footer_length as usize;
    let mut footer = proto::StripeFooter::decode(&bytes[at..end]).unwrap();
    assert_eq!(footer.writer_timezone.as_deref(), Some("Etc/GMT+8"));
    // The zone's name, the same length, so that nothing else moves.
    footer.writer_timezone = Some("America/Los_Angeles".into());
    let encoded = footer.encode_to_vec();
    let grown = encoded.len() - (end - at);
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(&encoded);
    out.extend_from_slice(&bytes[end..]);
    let out = shift_tail(&out, at, grown);
    assert_eq!(read(out), [(day, day * 86_400 + 43_200)]);
}

/// A file whose first (and only) stripe's footer at `at` grew by `grown` bytes: the
/// file footer's record of it updated.
fn shift_tail(bytes: &[u8], _at: usize, grown: usize) -> Vec<u8> {
    let ps_len = *bytes.last().unwrap() as usize;
    let ps_start = bytes.len() - 1 - ps_len;
    let ps = proto::PostScript::decode(&bytes[ps_start..bytes.len() - 1]).unwrap();
    let footer_start = ps_start - ps.footer_length.unwrap() as usize;
    let mut footer = proto::Footer::decode(&bytes[footer_start..ps_start]).unwrap();
    let stripe = &mut footer.stripes[0];
    stripe.footer_length = Some(stripe.footer_length.unwrap() + grown as u64);
    footer.content_length = footer.content_length.map(|l| l + grown as u64);
    let footer = footer.encode_to_vec();
    let mut out = bytes[..footer_start].to_vec();
    out.extend_from_slice(&footer);
    let ps = proto::PostScript {
        footer_length: Some(footer.len() as u64),
        ..ps
    }
    .encode_to_vec();
    out.extend_from_slice(&ps);
    out.push(u8::try_from(ps.len()).unwrap());
    out
}
