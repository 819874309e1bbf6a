//! Sizes in bytes, as flags take them (`2G`, `512MiB`, `100000`) and as messages show
//! them (`2 GiB`, `1.5 MiB`, `812 bytes`). Units are powers of 1024.

const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];

/// A size: a whole number of bytes, or one followed by `K`, `M`, `G` or `T` (with an
/// optional `i` and `B`, in any case).
///
/// # Errors
///
/// Text that is not such a size, or one past `u64`.
pub(crate) fn parse(text: &str) -> Result<u64, String> {
    let bad = || format!("{text:?} is not a size: a number of bytes, or one with K, M, G or T");
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u64 = number.parse().map_err(|_| bad())?;
    let unit = unit.trim().to_ascii_lowercase();
    let unit = unit.trim_end_matches('b').trim_end_matches('i');
    let shift = match unit {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{text:?} is past the largest size"))
}

/// `bytes` for a person: exact below a KiB, else to one decimal in the largest unit
/// that fits (`1.5 MiB`), without the decimal when it is 0 (`2 GiB`).
pub(crate) fn show(bytes: u64) -> String {
    if bytes < 1024 {
        return if bytes == 1 {
            "1 byte".into()
        } else {
            format!("{bytes} bytes")
        };
    }
    let mut unit = 0;
    loop {
        let divisor = 1_u128 << (10 * (unit + 1));
        // Tenths of the unit, rounded to the nearest.
        let tenths = (u128::from(bytes) * 10 + divisor / 2) / divisor;
        let name = UNITS.get(unit).copied().unwrap_or("TiB");
        if tenths < 10 * 1024 || unit + 1 == UNITS.len() {
            let (whole, tenth) = (tenths / 10, tenths % 10);
            return if tenth == 0 {
                format!("{whole} {name}")
            } else {
                format!("{whole}.{tenth} {name}")
            };
        }
        unit += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_and_without_units() {
        assert_eq!(parse("0"), Ok(0));
        assert_eq!(parse("100000"), Ok(100_000));
        assert_eq!(parse("2G"), Ok(2 << 30));
        assert_eq!(parse("2GiB"), Ok(2 << 30));
        assert_eq!(parse("512mb"), Ok(512 << 20));
        assert_eq!(parse("64 KiB"), Ok(64 << 10));
        assert_eq!(parse("3t"), Ok(3 << 40));
        assert!(parse("").is_err());
        assert!(parse("G").is_err());
        assert!(parse("1.5G").is_err());
        assert!(parse("-1").is_err());
        assert!(parse("2X").is_err());
        assert!(parse("99999999999T").is_err());
    }

    #[test]
    fn sizes_show_in_the_largest_unit() {
        assert_eq!(show(0), "0 bytes");
        assert_eq!(show(1), "1 byte");
        assert_eq!(show(1023), "1023 bytes");
        assert_eq!(show(1024), "1 KiB");
        assert_eq!(show(1536), "1.5 KiB");
        assert_eq!(show(2 << 30), "2 GiB");
        assert_eq!(show(3 << 39), "1.5 TiB");
        assert_eq!(show((1 << 20) - 1), "1 MiB");
        assert_eq!(show(12_345_678), "11.8 MiB");
        assert_eq!(show(u64::MAX), "16777216 TiB");
    }
}
