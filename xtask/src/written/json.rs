//! The rows contract of DESIGN.md (what `pqkit cat --format jsonl` prints), applied to
//! the [`Field`]s the write side wrote: the rows every reader must give back. Written
//! here from the contract, not taken from pqkit, so that our reader is checked too.

use parquet_file::{Field, Row, TimeUnit};
use std::fmt::Write as _;

/// One JSONL line (no newline) of `row`.
pub(crate) fn row(row: &Row) -> String {
    let mut out = String::new();
    object(row.fields().iter().map(|(k, v)| (&**k, v)), &mut out);
    out
}

fn object<'a>(fields: impl Iterator<Item = (&'a str, &'a Field)>, out: &mut String) {
    out.push('{');
    for (i, (name, field)) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(name, out);
        out.push(':');
        value(field, out);
    }
    out.push('}');
}

/// Appends the JSON of `field`.
pub(crate) fn value(field: &Field, out: &mut String) {
    match field {
        Field::Null => out.push_str("null"),
        Field::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Field::Int(i) => push(out, i),
        Field::UInt(u) => push(out, u),
        Field::Float(f) => float(
            f.is_nan(),
            f.is_infinite(),
            *f < 0.0,
            &format!("{f:e}"),
            out,
        ),
        Field::Double(f) => float(
            f.is_nan(),
            f.is_infinite(),
            *f < 0.0,
            &format!("{f:e}"),
            out,
        ),
        Field::Float16(bits) => {
            let half = half::f16::from_bits(*bits);
            float(
                half.is_nan(),
                half.is_infinite(),
                half.is_sign_negative(),
                &shortest_half(half),
                out,
            );
        }
        Field::Decimal { unscaled, scale } => string(&decimal(*unscaled, *scale), out),
        Field::WideDecimal { .. } => out.push_str("\"(no wide decimals here)\""),
        Field::Date(days) => string(&date(i128::from(*days)), out),
        Field::Time { value, unit } => {
            let per = i128::from(unit.per_second());
            let value = i128::from(*value);
            string(&clock(value / per, value % per, *unit), out);
        }
        Field::Timestamp { value, unit, utc } => {
            string(&timestamp(*value, *unit, *utc), out);
        }
        Field::Str(s) => string(s, out),
        Field::Bytes(b) => string(&base64(b), out),
        Field::Uuid(u) => string(&uuid(u), out),
        Field::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                value(item, out);
            }
            out.push(']');
        }
        Field::Map(pairs) => {
            out.push('[');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                object([("key", k), ("value", v)].into_iter(), out);
            }
            out.push(']');
        }
        Field::Group(fields) => object(fields.iter().map(|(k, v)| (&**k, v)), out),
    }
}

fn push(out: &mut String, value: impl std::fmt::Display) {
    let _ = write!(out, "{value}");
}

/// A float: `"NaN"`, `"Infinity"`, `"-Infinity"`, or its shortest round-trip digits
/// (`shortest`, in Rust's `{:e}` form), printed as Python's `repr` and numpy print them
/// (`1e-07`, `123.5`, `1.5e+300`): the same number whatever the form, but the same text
/// as the peers' rows lets the comparison skip parsing most lines.
fn float(nan: bool, infinite: bool, negative: bool, shortest: &str, out: &mut String) {
    if nan {
        out.push_str("\"NaN\"");
    } else if infinite {
        out.push_str(if negative {
            "\"-Infinity\""
        } else {
            "\"Infinity\""
        });
    } else {
        out.push_str(&python_form(shortest));
    }
}

/// Python's `repr` of a float from its shortest digits in Rust's `{:e}` form
/// (`-1.25e-7`): positional for exponents from -4 to 15, `.0` on whole numbers,
/// otherwise scientific with a signed exponent of at least two digits.
fn python_form(scientific: &str) -> String {
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((scientific, "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let n = i64::try_from(digits.len()).unwrap_or(1);
    if (-4..16).contains(&exponent) {
        let body = if exponent >= n - 1 {
            let zeros = usize::try_from(exponent - (n - 1)).unwrap_or(0);
            format!("{digits}{}.0", "0".repeat(zeros))
        } else if exponent >= 0 {
            let (whole, fraction) = digits.split_at(usize::try_from(exponent + 1).unwrap_or(0));
            format!("{whole}.{fraction}")
        } else {
            let zeros = usize::try_from(-exponent - 1).unwrap_or(0);
            format!("0.{}{digits}", "0".repeat(zeros))
        };
        format!("{sign}{body}")
    } else {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let point = if rest.is_empty() { "" } else { "." };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        format!(
            "{sign}{first}{point}{rest}e{exponent_sign}{:02}",
            exponent.unsigned_abs()
        )
    }
}

/// The fewest significant digits that read back as `half` (rounded to the nearest
/// half-precision value), as numpy prints a float16.
fn shortest_half(half: half::f16) -> String {
    let wide = half.to_f64();
    for digits in 0..6 {
        let text = format!("{wide:.digits$e}");
        if text
            .parse::<f64>()
            .is_ok_and(|v| half::f16::from_f64(v).to_bits() == half.to_bits())
        {
            return text;
        }
    }
    wide.to_string()
}

/// A JSON string.
fn string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A DECIMAL: plain notation, exactly `scale` digits after the point.
fn decimal(unscaled: i128, scale: u32) -> String {
    let digits = unscaled.unsigned_abs().to_string();
    let scale = usize::try_from(scale).unwrap_or(0);
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (whole, fraction) = padded.split_at(padded.len() - scale);
    let sign = if unscaled < 0 { "-" } else { "" };
    if scale == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// `YYYY-MM-DD` of days since 1970-01-01 (proleptic Gregorian); a sign on years outside
/// 0 to 9999.
pub(crate) fn date(days: i128) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i128::from(month <= 2);
    if (0..=9999).contains(&year) {
        format!("{year:04}-{month:02}-{day:02}")
    } else {
        format!("{year:+05}-{month:02}-{day:02}")
    }
}

/// `HH:MM:SS.fff` (3, 6 or 9 digits by unit).
fn clock(seconds_of_day: i128, fraction: i128, unit: TimeUnit) -> String {
    let digits = unit.digits();
    format!(
        "{:02}:{:02}:{:02}.{fraction:0digits$}",
        seconds_of_day / 3600,
        seconds_of_day / 60 % 60,
        seconds_of_day % 60
    )
}

/// A TIMESTAMP of `value` units since the epoch; `Z` when adjusted to UTC.
fn timestamp(value: i128, unit: TimeUnit, utc: bool) -> String {
    let per = i128::from(unit.per_second());
    let seconds = value.div_euclid(per);
    let fraction = value.rem_euclid(per);
    let days = seconds.div_euclid(86_400);
    let text = format!(
        "{}T{}",
        date(days),
        clock(seconds.rem_euclid(86_400), fraction, unit)
    );
    if utc { text + "Z" } else { text }
}

/// Standard base64, padded.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of standard padded base64 text, or `None` when it is not that.
pub(crate) fn unbase64(text: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    };
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let padding = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        let mut n = 0;
        for &c in &chunk[..4 - padding] {
            n = (n << 6) | digit(c)?;
        }
        n <<= 6 * padding;
        let [_, a, b, c] = n.to_be_bytes();
        out.extend_from_slice(&[a, b, c][..3 - padding]);
    }
    Some(out)
}

/// The canonical lowercase `8-4-4-4-12` form.
fn uuid(bytes: &[u8; 16]) -> String {
    let mut out = String::new();
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(field: &Field) -> String {
        let mut out = String::new();
        value(field, &mut out);
        out
    }

    #[test]
    fn scalars_follow_the_contract() {
        assert_eq!(json(&Field::Float(0.1)), "0.1");
        assert_eq!(json(&Field::Float(-0.0)), "-0.0");
        assert_eq!(json(&Field::Float(1e-7)), "1e-07");
        assert_eq!(json(&Field::Float(f32::MAX)), "3.4028235e+38");
        assert_eq!(json(&Field::Double(123.5)), "123.5");
        assert_eq!(json(&Field::Double(1e16)), "1e+16");
        assert_eq!(json(&Field::Double(1234.0)), "1234.0");
        assert_eq!(json(&Field::Double(0.0001)), "0.0001");
        assert_eq!(json(&Field::Double(-1.5e300)), "-1.5e+300");
        assert_eq!(json(&Field::Double(5e-324)), "5e-324");
        assert_eq!(json(&Field::Double(f64::NAN)), "\"NaN\"");
        assert_eq!(json(&Field::Double(f64::NEG_INFINITY)), "\"-Infinity\"");
        assert_eq!(json(&Field::Float16(0x2E66)), "0.1");
        assert_eq!(json(&Field::Float16(0x7BFF)), "65500.0");
        assert_eq!(json(&Field::Float16(0x8000)), "-0.0");
        assert_eq!(json(&Field::Float16(0x0001)), "6e-08");
        let decimal = |unscaled, scale| json(&Field::Decimal { unscaled, scale });
        assert_eq!(decimal(-150, 2), "\"-1.50\"");
        assert_eq!(decimal(0, 3), "\"0.000\"");
        assert_eq!(decimal(7, 0), "\"7\"");
        assert_eq!(json(&Field::Date(-719_162)), "\"0001-01-01\"");
        assert_eq!(json(&Field::Date(2_932_896)), "\"9999-12-31\"");
        assert_eq!(json(&Field::Date(-719_529)), "\"-0001-12-31\"");
        let ts = Field::Timestamp {
            value: -1,
            unit: TimeUnit::Millis,
            utc: true,
        };
        assert_eq!(json(&ts), "\"1969-12-31T23:59:59.999Z\"");
        let time = Field::Time {
            value: 86_399_999_999,
            unit: TimeUnit::Micros,
        };
        assert_eq!(json(&time), "\"23:59:59.999999\"");
        assert_eq!(json(&Field::Bytes(b"ab".to_vec())), "\"YWI=\"");
        assert_eq!(json(&Field::Bytes(b"abc".to_vec())), "\"YWJj\"");
        assert_eq!(json(&Field::Bytes(b"a".to_vec())), "\"YQ==\"");
        for bytes in [&b""[..], b"a", b"ab", b"abc", b"\xFF\x00\x80\x7F"] {
            assert_eq!(unbase64(&base64(bytes)).as_deref(), Some(bytes));
        }
        assert_eq!(
            json(&Field::Uuid(*b"0123456789abcdef")),
            "\"30313233-3435-3637-3839-616263646566\""
        );
        assert_eq!(
            json(&Field::Str("a\"\n\u{1}".into())),
            "\"a\\\"\\n\\u0001\""
        );
    }
}
