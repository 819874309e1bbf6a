//! Values as text: the rows contract of `cat --format jsonl`, and the cells of CSV and
//! table output.

use std::fmt::Write as _;

use base64::Engine as _;
use parquet_file::{Field, TimeUnit};

/// Appends `field` as JSON, mapped by the rows contract.
pub(crate) fn json(field: &Field, out: &mut String) {
    match field {
        Field::Null => out.push_str("null"),
        Field::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Field::Int(v) => write_display(out, v),
        Field::UInt(v) => write_display(out, v),
        Field::Float(v) => float(out, f64::from(*v), *v, |v| format!("{v:?}")),
        Field::Double(v) => float(out, *v, *v, |v| format!("{v:?}")),
        Field::Float16(bits) => {
            let v = half::f16::from_bits(*bits);
            float(out, v.to_f64(), v, shortest_f16);
        }
        Field::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json(item, out);
            }
            out.push(']');
        }
        Field::Map(pairs) => {
            out.push('[');
            for (i, (key, value)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"key\":");
                json(key, out);
                out.push_str(",\"value\":");
                json(value, out);
                out.push('}');
            }
            out.push(']');
        }
        Field::Group(fields) => object(fields.iter().map(|(k, v)| (&**k, v)), out),
        scalar => {
            let mut text = String::new();
            text_of(scalar, &mut text);
            string(&text, out);
        }
    }
}

/// Appends a JSON object of `fields`.
pub(crate) fn object<'a>(fields: impl IntoIterator<Item = (&'a str, &'a Field)>, out: &mut String) {
    out.push('{');
    for (i, (name, value)) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(name, out);
        out.push(':');
        json(value, out);
    }
    out.push('}');
}

/// Appends the text of a value as a CSV or table cell shows it: scalars as their text
/// (strings unquoted), nested values as JSON, nulls as nothing.
pub(crate) fn cell(field: &Field, out: &mut String) {
    match field {
        Field::Null => {}
        Field::Str(_)
        | Field::Bytes(_)
        | Field::Decimal { .. }
        | Field::WideDecimal { .. }
        | Field::Date(_)
        | Field::Time { .. }
        | Field::Timestamp { .. }
        | Field::Uuid(_) => text_of(field, out),
        _ => json(field, out),
    }
}

fn write_display(out: &mut String, value: impl std::fmt::Display) {
    let _ = write!(out, "{value}");
}

fn float<T: Copy>(out: &mut String, value: f64, original: T, shortest: impl Fn(T) -> String) {
    if value.is_nan() {
        out.push_str("\"NaN\"");
    } else if value.is_infinite() {
        out.push_str(if value > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        });
    } else {
        out.push_str(&shortest(original));
    }
}

/// The shortest decimal that reads back as the same half-precision value.
fn shortest_f16(value: half::f16) -> String {
    let v = value.to_f64();
    for digits in 0..6 {
        let text = format!("{v:.digits$e}");
        if text.parse::<f64>().map(half::f16::from_f64) == Ok(value) {
            return text
                .parse::<f64>()
                .map_or(text, |exact| format!("{exact:?}"));
        }
    }
    format!("{v:?}")
}

/// The text of a scalar that the rows contract writes as a JSON string.
fn text_of(field: &Field, out: &mut String) {
    match field {
        Field::Str(s) => out.push_str(s),
        Field::Bytes(b) => out.push_str(&base64::engine::general_purpose::STANDARD.encode(b)),
        Field::Decimal { unscaled, scale } => {
            decimal(
                unscaled < &0,
                &unscaled.unsigned_abs().to_string(),
                *scale,
                out,
            );
        }
        Field::WideDecimal { unscaled, scale } => {
            let (negative, digits) = big_digits(unscaled);
            decimal(negative, &digits, *scale, out);
        }
        Field::Date(days) => date(i128::from(*days), out),
        Field::Time { value, unit } => {
            let per_second = unit.per_second();
            let seconds = value.div_euclid(per_second);
            time_of_day(seconds, value.rem_euclid(per_second), *unit, out);
        }
        Field::Timestamp { value, unit, utc } => {
            let per_second = i128::from(unit.per_second());
            let seconds = value.div_euclid(per_second);
            // The second of the day and its fraction are below 86,400 and 10^9.
            #[allow(clippy::cast_possible_truncation)]
            let (second, fraction) = (
                seconds.rem_euclid(86_400) as i64,
                value.rem_euclid(per_second) as i64,
            );
            date(seconds.div_euclid(86_400), out);
            out.push('T');
            time_of_day(second, fraction, *unit, out);
            if *utc {
                out.push('Z');
            }
        }
        Field::Uuid(u) => {
            for (i, byte) in u.iter().enumerate() {
                if matches!(i, 4 | 6 | 8 | 10) {
                    out.push('-');
                }
                let _ = write!(out, "{byte:02x}");
            }
        }
        other => json(other, out),
    }
}

/// The sign and decimal digits of a big-endian two's complement integer of any length.
fn big_digits(bytes: &[u8]) -> (bool, String) {
    let negative = bytes.first().is_some_and(|&b| b & 0x80 != 0);
    let mut magnitude = bytes.to_vec();
    if negative {
        // Two's complement: invert, then add one.
        for b in &mut magnitude {
            *b = !*b;
        }
        for b in magnitude.iter_mut().rev() {
            *b = b.wrapping_add(1);
            if *b != 0 {
                break;
            }
        }
    }
    // Divide by 10^9 until nothing is left, collecting the remainders.
    let mut chunks = Vec::new();
    while magnitude.iter().any(|&b| b != 0) {
        let mut remainder = 0_u64;
        for b in &mut magnitude {
            let value = (remainder << 8) | u64::from(*b);
            // value < 10^9 * 256, so the quotient is below 256.
            #[allow(clippy::cast_possible_truncation)]
            let quotient = (value / 1_000_000_000) as u8;
            *b = quotient;
            remainder = value % 1_000_000_000;
        }
        chunks.push(remainder);
    }
    let mut digits = chunks
        .pop()
        .map_or_else(|| "0".to_owned(), |c| c.to_string());
    for chunk in chunks.iter().rev() {
        let _ = write!(digits, "{chunk:09}");
    }
    (negative, digits)
}

/// Appends a decimal of `digits` (the unscaled magnitude) with `scale` of them after the
/// point.
fn decimal(negative: bool, digits: &str, scale: u32, out: &mut String) {
    if negative {
        out.push('-');
    }
    let scale = scale as usize;
    if scale == 0 {
        out.push_str(digits);
    } else if digits.len() > scale {
        let (int, frac) = digits.split_at(digits.len() - scale);
        let _ = write!(out, "{int}.{frac}");
    } else {
        let _ = write!(out, "0.{}{digits}", "0".repeat(scale - digits.len()));
    }
}

/// `YYYY-MM-DD` of a day count since 1970-01-01 (proleptic Gregorian).
fn date(days: i128, out: &mut String) {
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i128::from(month <= 2);
    if (0..=9999).contains(&year) {
        let _ = write!(out, "{year:04}-{month:02}-{day:02}");
    } else {
        let _ = write!(out, "{year:+05}-{month:02}-{day:02}");
    }
}

fn time_of_day(seconds: i64, fraction: i64, unit: TimeUnit, out: &mut String) {
    let _ = write!(
        out,
        "{:02}:{:02}:{:02}.{fraction:0width$}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        width = unit.digits()
    );
}

/// Appends `s` as a JSON string.
pub(crate) fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(field: &Field) -> String {
        let mut s = String::new();
        json(field, &mut s);
        s
    }

    #[test]
    fn rows_contract_scalars() {
        assert_eq!(
            j(&Field::Decimal {
                unscaled: -150,
                scale: 2
            }),
            "\"-1.50\""
        );
        assert_eq!(
            j(&Field::Decimal {
                unscaled: 0,
                scale: 3
            }),
            "\"0.000\""
        );
        assert_eq!(
            j(&Field::Decimal {
                unscaled: 5,
                scale: 3
            }),
            "\"0.005\""
        );
        assert_eq!(
            j(&Field::Decimal {
                unscaled: 12,
                scale: 0
            }),
            "\"12\""
        );
        assert_eq!(j(&Field::Date(0)), "\"1970-01-01\"");
        assert_eq!(j(&Field::Date(-1)), "\"1969-12-31\"");
        assert_eq!(j(&Field::Date(19_723)), "\"2024-01-01\"");
        assert_eq!(
            j(&Field::Time {
                value: 3_723_004,
                unit: TimeUnit::Millis
            }),
            "\"01:02:03.004\""
        );
        assert_eq!(
            j(&Field::Timestamp {
                value: -1,
                unit: TimeUnit::Micros,
                utc: true
            }),
            "\"1969-12-31T23:59:59.999999Z\""
        );
        assert_eq!(
            j(&Field::Timestamp {
                value: 1_000_000_001,
                unit: TimeUnit::Nanos,
                utc: false
            }),
            "\"1970-01-01T00:00:01.000000001\""
        );
        // Past what 64 bits of nanoseconds hold (INT96 reaches there).
        assert_eq!(
            j(&Field::Timestamp {
                value: i128::from(i64::MAX) + 1,
                unit: TimeUnit::Nanos,
                utc: false
            }),
            "\"2262-04-11T23:47:16.854775808\""
        );
        assert_eq!(j(&Field::Float(1.1)), "1.1");
        assert_eq!(j(&Field::Double(f64::NAN)), "\"NaN\"");
        assert_eq!(j(&Field::Float(f32::NEG_INFINITY)), "\"-Infinity\"");
        assert_eq!(
            j(&Field::Float16(half::f16::from_f32(0.1).to_bits())),
            "0.1"
        );
        assert_eq!(
            j(&Field::Float16(half::f16::from_f32(-2.0).to_bits())),
            "-2.0"
        );
        assert_eq!(j(&Field::Bytes(b"parquet".to_vec())), "\"cGFycXVldA==\"");
        assert_eq!(j(&Field::Str("a\"b\n\u{1}".into())), "\"a\\\"b\\n\\u0001\"");
        assert_eq!(
            j(&Field::Uuid(
                *b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff"
            )),
            "\"00112233-4455-6677-8899-aabbccddeeff\""
        );
        assert_eq!(
            j(&Field::Map(vec![(Field::Str("k".into()), Field::Null)])),
            "[{\"key\":\"k\",\"value\":null}]"
        );
    }

    #[test]
    fn decimals_wider_than_128_bits() {
        // 2^128 + 1 and its negation, 17 bytes of two's complement, scale 3.
        let mut big = vec![0; 17];
        big[0] = 1;
        big[16] = 1;
        assert_eq!(
            j(&Field::WideDecimal {
                unscaled: big.clone(),
                scale: 3
            }),
            "\"340282366920938463463374607431768211.457\""
        );
        let negated: Vec<u8> = {
            let mut n: Vec<u8> = big.iter().map(|b| !b).collect();
            n[16] = n[16].wrapping_add(1);
            n
        };
        assert_eq!(
            j(&Field::WideDecimal {
                unscaled: negated,
                scale: 40
            }),
            "\"-0.0340282366920938463463374607431768211457\""
        );
        assert_eq!(
            j(&Field::WideDecimal {
                unscaled: vec![0; 20],
                scale: 2
            }),
            "\"0.00\""
        );
    }
}
