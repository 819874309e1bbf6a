//! Dates and timestamps by the footer's calendar and the stripes' writer time zone, as
//! ORC Java reads them: a file that says `JULIAN_GREGORIAN` (Spark's) holds days of the
//! hybrid calendar, read as the dates they name; a zone's local mean time before its
//! first transition is its first standard offset.

#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

use bytes::Bytes;
use orc_file::rle::{Sign, int_v2};
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
    let out = in_los_angeles(&bytes);
    assert_eq!(read(out), [(day, day * 86_400 + 43_200)]);
}

/// `bytes`, a file of one stripe written in `Etc/GMT+8`, with its stripe's writer time
/// zone `America/Los_Angeles`, which was at -8:00 on 1 January 2015 too (and so has the
/// same base): the file as ORC Java writes those wall clocks in Los Angeles.
fn in_los_angeles(bytes: &[u8]) -> Vec<u8> {
    let reader = OrcReader::open(Bytes::copy_from_slice(bytes)).unwrap();
    let stripe = reader.stripes()[0];
    let at = (stripe.offset + stripe.index_length + stripe.data_length) as usize;
    let end = at + stripe.footer_length as usize;
    let mut footer = proto::StripeFooter::decode(&bytes[at..end]).unwrap();
    assert_eq!(footer.writer_timezone.as_deref(), Some("Etc/GMT+8"));
    footer.writer_timezone = Some("America/Los_Angeles".into());
    let encoded = footer.encode_to_vec();
    let grown = encoded.len() - (end - at);
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(&encoded);
    out.extend_from_slice(&bytes[end..]);
    shift_tail(&out, at, grown)
}

/// An uncompressed file of one timestamp column with these wall clocks (seconds since
/// 1970-01-01T00:00:00, nanoseconds).
fn timestamps(values: &[(i64, u32)], options: WriterOptions) -> Vec<u8> {
    let schema = TypeDescription::parse("struct<t:timestamp>").unwrap();
    let options = options.compression(OrcCompression::None);
    let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
    for &(second, nano) in values {
        let value = i128::from(second) * 1_000_000_000 + i128::from(nano);
        let row = Row::new(vec![(
            "t".into(),
            Field::Timestamp {
                value,
                unit: TimeUnit::Nanos,
                utc: false,
            },
        )]);
        writer.write_row(&row).unwrap();
    }
    writer.finish().unwrap()
}

/// The wall clocks of [`timestamps`]' file.
fn read_timestamps(bytes: Vec<u8>) -> Vec<(i64, u32)> {
    let reader = OrcReader::open(Bytes::from(bytes)).unwrap();
    reader
        .rows(ReadOptions::default())
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            let Field::Timestamp { value, .. } = row.fields()[0].1 else {
                panic!("{row:?}")
            };
            (
                value.div_euclid(1_000_000_000) as i64,
                value.rem_euclid(1_000_000_000) as u32,
            )
        })
        .collect()
}

/// The seconds stored in the DATA stream of [`timestamps`]' file.
fn stored_seconds(bytes: &[u8]) -> Vec<i64> {
    let reader = OrcReader::open(Bytes::copy_from_slice(bytes)).unwrap();
    let footer = reader.stripe_footer(0).unwrap();
    let data = footer
        .streams
        .iter()
        .find(|s| s.column == 1 && s.kind == proto::stream::Kind::Data as i32)
        .unwrap();
    let stream = &bytes[data.offset as usize..(data.offset + data.length) as usize];
    let mut out = vec![0; reader.num_rows() as usize];
    let got = int_v2::Decoder::new(stream, Sign::Signed)
        .decode(&mut out)
        .unwrap();
    assert_eq!(got, out.len());
    out
}

/// 2015-01-01 00:00:00 UTC, from which ORC counts a timestamp's seconds.
const BASE: i64 = 1_420_070_400;

/// The seconds ORC Java's writer stores for the UTC instant `second` + `nano` in a zone
/// `offset` seconds ahead of UTC: the instant's milliseconds (floored, as
/// `Timestamp.getTime()` gives them) divided by 1000, which truncates toward zero, less
/// 2015-01-01 00:00:00 of the zone.
fn java_stored(second: i64, nano: u32, offset: i64) -> i64 {
    (second * 1000 + i64::from(nano / 1_000_000)) / 1000 - (BASE - offset)
}

#[test]
fn the_last_julian_second_keeps_its_day() {
    // 1582-10-04T23:59:59.999999 of Spark's hybrid calendar, stored (truncated toward
    // zero) as the first second of 1582-10-15: the second taken back before the
    // calendar is applied, so that it is the Julian 1582-10-04 (not 1582-10-14).
    let last = (julian(1582, 10, 4) * 86_400 + 86_399, 999_999_000);
    // Other times before 1970 with a fraction, and their proleptic reading.
    let earlier = (julian(1172, 4, 11) * 86_400 + 3_723, 500_000_000);
    let bytes = timestamps(&[last, earlier], WriterOptions::default());
    assert_eq!(
        stored_seconds(&bytes),
        [
            java_stored(last.0, last.1, 0),
            java_stored(earlier.0, earlier.1, 0)
        ]
    );
    assert_eq!(
        stored_seconds(&bytes)[0],
        days(1582, 10, 15) * 86_400 - BASE
    );
    let hybrid = with_calendar(&bytes, proto::CalendarKind::JulianGregorian);
    assert_eq!(
        read_timestamps(hybrid),
        [
            (days(1582, 10, 4) * 86_400 + 86_399, 999_999_000),
            (days(1172, 4, 11) * 86_400 + 3_723, 500_000_000),
        ]
    );
    // Proleptic: as written.
    assert_eq!(read_timestamps(bytes), [last, earlier]);
}

#[test]
fn the_second_taken_back_goes_by_the_utc_instant() {
    // Wall clocks of Los Angeles (-8:00 in winter) around 1970-01-01T00:00:00Z, the
    // times ORC Java writes and reads in that zone, and how it reads them back.
    let pst = -8 * 3600;
    let cases: [((i64, u32), (i64, u32)); 5] = [
        // 1970-01-01T00:00:00.5Z: UTC seconds 0, no second to take back, though the
        // wall clock is before 1970.
        ((pst, 500_000_000), (pst, 500_000_000)),
        // 1969-12-31T23:59:58.5Z: stored as -1 UTC, read as -2 + 0.5.
        ((pst - 2, 500_000_000), (pst - 2, 500_000_000)),
        // Less than a millisecond of fraction: stored floored.
        ((pst - 1, 999_999), (pst - 1, 999_999)),
        // 1969-12-31T23:59:59.999999Z: Java stores second 0 (truncated) and reads
        // 1970-01-01T00:00:00.999999Z back, as Spark does; the format cannot hold it.
        ((pst - 1, 999_999_000), (pst, 999_999_000)),
        // 1969-12-31T22:59:58.75Z: stored as -3601 UTC, read as -3602 + 0.75.
        ((pst - 3_602, 750_000_000), (pst - 3_602, 750_000_000)),
    ];
    let written: Vec<(i64, u32)> = cases.iter().map(|c| c.0).collect();
    let bytes = timestamps(
        &written,
        WriterOptions::default().writer_timezone("Etc/GMT+8"),
    );
    let java: Vec<i64> = written
        .iter()
        .map(|&(wall, nano)| java_stored(wall - pst, nano, pst))
        .collect();
    assert_eq!(stored_seconds(&bytes), java);
    let expected: Vec<(i64, u32)> = cases.iter().map(|c| c.1).collect();
    assert_eq!(read_timestamps(bytes.clone()), expected);
    assert_eq!(read_timestamps(in_los_angeles(&bytes)), expected);
    // And a zone ahead of UTC: 1970-01-01T00:30:00.5 at +1:00 is 1969-12-31T23:30:00.5Z,
    // a wall clock after 1970 whose UTC seconds are truncated; 00:59:59.999999 at +1:00
    // is 1969-12-31T23:59:59.999999Z, which reads back a second late.
    let bytes = timestamps(
        &[(1_800, 500_000_000), (3_599, 999_999_000)],
        WriterOptions::default().writer_timezone("Etc/GMT-1"),
    );
    assert_eq!(
        stored_seconds(&bytes),
        [
            java_stored(1_800 - 3_600, 500_000_000, 3_600),
            java_stored(-1, 999_999_000, 3_600)
        ]
    );
    assert_eq!(
        read_timestamps(bytes),
        [(1_800, 500_000_000), (3_600, 999_999_000)]
    );
}

#[test]
fn los_angeles_keeps_its_offset_to_the_end_of_9999() {
    // 9999-12-31T23:59:59.999999Z and 9999-12-30T12:00:00Z (before jiff's last
    // instant), as ORC Java writes and reads them in Los Angeles: 8 hours behind.
    let end = days(9999, 12, 31) * 86_400 + 86_399 - 8 * 3600;
    let noon = days(9999, 12, 30) * 86_400 + 43_200 - 8 * 3600;
    let values = [(end, 999_999_000), (noon, 0)];
    let bytes = timestamps(
        &values,
        WriterOptions::default().writer_timezone("Etc/GMT+8"),
    );
    assert_eq!(read_timestamps(in_los_angeles(&bytes)), values);
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
