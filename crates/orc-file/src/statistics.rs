//! Column statistics, typed: what the footer (per file), the metadata section (per
//! stripe) and the row index (per row group) record about a column's values
//! (specification, "Column Statistics").
//!
//! [`ColumnStatistics`] reads and writes the protobuf `ColumnStatistics`; the writer
//! gathers them with accumulators that make the choices Apache ORC's Java writer
//! (`ColumnStatisticsImpl`) makes:
//!
//! | type | statistics |
//! |---|---|
//! | boolean | the count of `true` values |
//! | tinyint .. bigint | minimum, maximum, sum (absent once the sum overflows 64 bits) |
//! | float, double | minimum, maximum (NaN left out), sum (absent when not finite) |
//! | string, char, varchar | minimum, maximum, sum of the lengths in bytes; a value longer than 1024 bytes is recorded as a lower bound (truncated at a character boundary) or an upper bound (truncated, its last character incremented), as ORC-203 does |
//! | binary | sum of the lengths |
//! | date | minimum, maximum (days since 1970-01-01) |
//! | timestamp | minimum and maximum in milliseconds since 1970-01-01 (UTC-based, ORC-135), and the sub-millisecond nanoseconds of each |
//! | decimal | minimum, maximum, sum as decimal strings without trailing zeros (Hive's `HiveDecimal` text); the sum is absent once it needs more than 18 digits (precision up to 18) or 38 |
//! | array, map | minimum, maximum and total number of children |
//! | struct, uniontype | only the counts |
//!
//! Every column has the number of non-null values and whether it has nulls; stripe and
//! file statistics also have the bytes the column's data streams take on disk.

use std::cmp::Ordering;
use std::fmt;

use crate::proto;
use crate::schema::{Kind, TypeDescription};

/// The statistics of a column over a file, a stripe or a row group.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnStatistics {
    /// The number of non-null values.
    pub number_of_values: u64,
    /// Whether there are nulls (`None` when the file does not say: writers before Hive
    /// 1.1.0).
    pub has_null: Option<bool>,
    /// The bytes of the column's streams on disk, when recorded (stripe and file
    /// statistics of recent writers).
    pub bytes_on_disk: Option<u64>,
    /// The statistics that depend on the type.
    pub typed: TypedStatistics,
}

/// The statistics of a column that depend on its type. An absent field is one the
/// writer did not record (no values, or an overflow).
#[derive(Debug, Clone, PartialEq)]
pub enum TypedStatistics {
    /// Nothing beyond the counts (struct, uniontype, or no typed statistics recorded).
    None,
    /// boolean.
    Boolean {
        /// The number of `true` values.
        true_count: u64,
    },
    /// tinyint, smallint, int, bigint.
    Integer {
        /// The smallest value.
        min: Option<i64>,
        /// The largest value.
        max: Option<i64>,
        /// The sum; `None` when it overflowed 64 bits.
        sum: Option<i64>,
    },
    /// float, double.
    Double {
        /// The smallest value.
        min: Option<f64>,
        /// The largest value.
        max: Option<f64>,
        /// The sum.
        sum: Option<f64>,
    },
    /// string, char, varchar.
    String {
        /// The smallest value.
        min: Option<String>,
        /// The largest value.
        max: Option<String>,
        /// A value at most the smallest, recorded instead of `min` when the smallest is
        /// longer than 1024 bytes (its prefix).
        lower_bound: Option<String>,
        /// A value at least the largest, recorded instead of `max` when the largest is
        /// longer than 1024 bytes (its prefix with the last character incremented).
        upper_bound: Option<String>,
        /// The total length of the values in bytes.
        sum: Option<i64>,
    },
    /// binary.
    Binary {
        /// The total length of the values in bytes.
        sum: Option<i64>,
    },
    /// date: days since 1970-01-01.
    Date {
        /// The earliest date.
        min: Option<i32>,
        /// The latest date.
        max: Option<i32>,
    },
    /// timestamp and timestamp with local time zone.
    Timestamp {
        /// The earliest value in milliseconds since 1970-01-01 in the writer's local
        /// time (files written before ORC-135).
        min_millis: Option<i64>,
        /// The latest value, as `min_millis`.
        max_millis: Option<i64>,
        /// The earliest value in milliseconds since 1970-01-01T00:00:00 UTC (ORC-135):
        /// for `timestamp`, the wall clock read as UTC.
        min_utc_millis: Option<i64>,
        /// The latest value, as `min_utc_millis`.
        max_utc_millis: Option<i64>,
        /// The nanoseconds within the millisecond of the earliest value (0 to 999,999;
        /// `None` when not recorded: 0).
        min_nanos: Option<u32>,
        /// The nanoseconds within the millisecond of the latest value (`None` when not
        /// recorded: 999,999, the most the milliseconds allow).
        max_nanos: Option<u32>,
    },
    /// decimal, as decimal strings (`"-12.5"`).
    Decimal {
        /// The smallest value.
        min: Option<String>,
        /// The largest value.
        max: Option<String>,
        /// The sum; `None` when it overflowed.
        sum: Option<String>,
    },
    /// array and map: the number of elements or entries of each value.
    Collection {
        /// The fewest children of a value.
        min_children: Option<u64>,
        /// The most children of a value.
        max_children: Option<u64>,
        /// The children of all values.
        total_children: Option<u64>,
    },
}

impl ColumnStatistics {
    /// The statistics of a protobuf `ColumnStatistics`. The typed part is the first
    /// typed message present (a valid file has at most one).
    pub fn from_proto(p: &proto::ColumnStatistics) -> Self {
        let typed = if let Some(s) = &p.int_statistics {
            TypedStatistics::Integer {
                min: s.minimum,
                max: s.maximum,
                sum: s.sum,
            }
        } else if let Some(s) = &p.double_statistics {
            TypedStatistics::Double {
                min: s.minimum,
                max: s.maximum,
                sum: s.sum,
            }
        } else if let Some(s) = &p.string_statistics {
            TypedStatistics::String {
                min: s.minimum.clone(),
                max: s.maximum.clone(),
                lower_bound: s.lower_bound.clone(),
                upper_bound: s.upper_bound.clone(),
                sum: s.sum,
            }
        } else if let Some(s) = &p.bucket_statistics {
            TypedStatistics::Boolean {
                true_count: s.count.first().copied().unwrap_or(0),
            }
        } else if let Some(s) = &p.decimal_statistics {
            TypedStatistics::Decimal {
                min: s.minimum.clone(),
                max: s.maximum.clone(),
                sum: s.sum.clone(),
            }
        } else if let Some(s) = &p.date_statistics {
            TypedStatistics::Date {
                min: s.minimum,
                max: s.maximum,
            }
        } else if let Some(s) = &p.binary_statistics {
            TypedStatistics::Binary { sum: s.sum }
        } else if let Some(s) = &p.timestamp_statistics {
            // Java stores the sub-millisecond nanoseconds plus one, so that 0 means
            // "not recorded".
            let nanos = |n: Option<i32>| {
                n.and_then(|n| u32::try_from(n).ok())
                    .filter(|n| (1..=1_000_000).contains(n))
                    .map(|n| n - 1)
            };
            TypedStatistics::Timestamp {
                min_millis: s.minimum,
                max_millis: s.maximum,
                min_utc_millis: s.minimum_utc,
                max_utc_millis: s.maximum_utc,
                min_nanos: nanos(s.minimum_nanos),
                max_nanos: nanos(s.maximum_nanos),
            }
        } else if let Some(s) = &p.collection_statistics {
            TypedStatistics::Collection {
                min_children: s.min_children,
                max_children: s.max_children,
                total_children: s.total_children,
            }
        } else {
            TypedStatistics::None
        };
        Self {
            number_of_values: p.number_of_values.unwrap_or(0),
            has_null: p.has_null,
            bytes_on_disk: p.bytes_on_disk,
            typed,
        }
    }

    /// The protobuf `ColumnStatistics` of these statistics.
    pub fn to_proto(&self) -> proto::ColumnStatistics {
        let mut p = proto::ColumnStatistics {
            number_of_values: Some(self.number_of_values),
            has_null: self.has_null,
            bytes_on_disk: self.bytes_on_disk,
            ..proto::ColumnStatistics::default()
        };
        match &self.typed {
            TypedStatistics::None => {}
            TypedStatistics::Boolean { true_count } => {
                p.bucket_statistics = Some(proto::BucketStatistics {
                    count: vec![*true_count],
                });
            }
            &TypedStatistics::Integer { min, max, sum } => {
                p.int_statistics = Some(proto::IntegerStatistics {
                    minimum: min,
                    maximum: max,
                    sum,
                });
            }
            &TypedStatistics::Double { min, max, sum } => {
                p.double_statistics = Some(proto::DoubleStatistics {
                    minimum: min,
                    maximum: max,
                    sum,
                });
            }
            TypedStatistics::String {
                min,
                max,
                lower_bound,
                upper_bound,
                sum,
            } => {
                p.string_statistics = Some(proto::StringStatistics {
                    minimum: min.clone(),
                    maximum: max.clone(),
                    sum: *sum,
                    lower_bound: lower_bound.clone(),
                    upper_bound: upper_bound.clone(),
                });
            }
            &TypedStatistics::Binary { sum } => {
                p.binary_statistics = Some(proto::BinaryStatistics { sum });
            }
            &TypedStatistics::Date { min, max } => {
                p.date_statistics = Some(proto::DateStatistics {
                    minimum: min,
                    maximum: max,
                });
            }
            &TypedStatistics::Timestamp {
                min_millis,
                max_millis,
                min_utc_millis,
                max_utc_millis,
                min_nanos,
                max_nanos,
            } => {
                let nanos = |n: Option<u32>| {
                    n.filter(|&n| n < 1_000_000)
                        .and_then(|n| i32::try_from(n + 1).ok())
                };
                p.timestamp_statistics = Some(proto::TimestampStatistics {
                    minimum: min_millis,
                    maximum: max_millis,
                    minimum_utc: min_utc_millis,
                    maximum_utc: max_utc_millis,
                    minimum_nanos: nanos(min_nanos),
                    maximum_nanos: nanos(max_nanos),
                });
            }
            TypedStatistics::Decimal { min, max, sum } => {
                p.decimal_statistics = Some(proto::DecimalStatistics {
                    minimum: min.clone(),
                    maximum: max.clone(),
                    sum: sum.clone(),
                });
            }
            &TypedStatistics::Collection {
                min_children,
                max_children,
                total_children,
            } => {
                p.collection_statistics = Some(proto::CollectionStatistics {
                    min_children,
                    max_children,
                    total_children,
                });
            }
        }
        p
    }
}

/// One line, as Apache ORC's `orc-tools meta` prints statistics:
/// `count: 3 hasNull: true min: 1 max: 7 sum: 12`.
impl fmt::Display for ColumnStatistics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "count: {}", self.number_of_values)?;
        if let Some(has_null) = self.has_null {
            write!(f, " hasNull: {has_null}")?;
        }
        if let Some(bytes) = self.bytes_on_disk {
            write!(f, " bytesOnDisk: {bytes}")?;
        }
        match &self.typed {
            TypedStatistics::None => Ok(()),
            TypedStatistics::Boolean { true_count } => write!(f, " true: {true_count}"),
            TypedStatistics::Integer { min, max, sum } => {
                opt(f, "min", *min)?;
                opt(f, "max", *max)?;
                opt(f, "sum", *sum)
            }
            TypedStatistics::Double { min, max, sum } => {
                opt(f, "min", *min)?;
                opt(f, "max", *max)?;
                opt(f, "sum", *sum)
            }
            TypedStatistics::String {
                min,
                max,
                lower_bound,
                upper_bound,
                sum,
            } => {
                opt(f, "min", min.as_deref().map(Quoted))?;
                opt(f, "lower", lower_bound.as_deref().map(Quoted))?;
                opt(f, "max", max.as_deref().map(Quoted))?;
                opt(f, "upper", upper_bound.as_deref().map(Quoted))?;
                opt(f, "sum", *sum)
            }
            TypedStatistics::Binary { sum } => opt(f, "sum", *sum),
            TypedStatistics::Date { min, max } => {
                opt(f, "min", min.map(DateText))?;
                opt(f, "max", max.map(DateText))
            }
            TypedStatistics::Timestamp {
                min_millis,
                max_millis,
                min_utc_millis,
                max_utc_millis,
                min_nanos,
                max_nanos,
            } => {
                if min_utc_millis.is_some() || max_utc_millis.is_some() {
                    opt(
                        f,
                        "min",
                        min_utc_millis.map(|m| TimestampText(m, min_nanos.unwrap_or(0))),
                    )?;
                    opt(
                        f,
                        "max",
                        max_utc_millis.map(|m| TimestampText(m, max_nanos.unwrap_or(999_999))),
                    )
                } else {
                    opt(f, "min (local)", min_millis.map(|m| TimestampText(m, 0)))?;
                    opt(
                        f,
                        "max (local)",
                        max_millis.map(|m| TimestampText(m, 999_999)),
                    )
                }
            }
            TypedStatistics::Decimal { min, max, sum } => {
                opt(f, "min", min.as_deref())?;
                opt(f, "max", max.as_deref())?;
                opt(f, "sum", sum.as_deref())
            }
            TypedStatistics::Collection {
                min_children,
                max_children,
                total_children,
            } => {
                opt(f, "minChildren", *min_children)?;
                opt(f, "maxChildren", *max_children)?;
                opt(f, "totalChildren", *total_children)
            }
        }
    }
}

/// Writes ` name: value` when there is a value.
fn opt<T: fmt::Display>(f: &mut fmt::Formatter<'_>, name: &str, value: Option<T>) -> fmt::Result {
    match value {
        Some(value) => write!(f, " {name}: {value}"),
        None => Ok(()),
    }
}

/// A string in double quotes, escaped as Rust's `Debug` escapes it.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// Days since 1970-01-01 as `YYYY-MM-DD`.
struct DateText(i32);

impl fmt::Display for DateText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = civil_from_days(i64::from(self.0));
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// Milliseconds since 1970-01-01T00:00:00 and nanoseconds within the millisecond as
/// `YYYY-MM-DD HH:MM:SS.fffffffff`.
struct TimestampText(i64, u32);

impl fmt::Display for TimestampText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.0.div_euclid(1000);
        let millis = self.0.rem_euclid(1000);
        let (y, m, d) = civil_from_days(seconds.div_euclid(86_400));
        let time = seconds.rem_euclid(86_400);
        let nanos = millis * 1_000_000 + i64::from(self.1.min(999_999));
        write!(
            f,
            "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{nanos:09}",
            time / 3600,
            time / 60 % 60,
            time % 60
        )
    }
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 1..=12, 1..=31
    (y, m as u32, d as u32)
}

// ---------------------------------------------------------------------------------
// Accumulators for the writer.
// ---------------------------------------------------------------------------------

/// The most bytes of a string recorded as a minimum or maximum (Java's
/// `MAX_BYTES_RECORDED`).
pub(crate) const MAX_STRING_BYTES: usize = 1024;

/// The largest decimal sum kept for a column of precision 18 or less (Java's
/// `Decimal64StatisticsImpl`): 18 nines.
const MAX_DECIMAL64: i128 = 999_999_999_999_999_999;

/// The largest decimal of 38 digits.
pub(crate) const MAX_DECIMAL128: i128 = 99_999_999_999_999_999_999_999_999_999_999_999_999;

/// Gathers the statistics of one column over a row group, a stripe or the file, as
/// Apache ORC's `ColumnStatisticsImpl` does.
#[derive(Debug, Clone)]
pub(crate) struct StatisticsBuilder {
    count: u64,
    has_null: bool,
    bytes_on_disk: u64,
    typed: TypedBuilder,
}

#[derive(Debug, Clone)]
enum TypedBuilder {
    None,
    Boolean {
        true_count: u64,
    },
    Integer {
        /// `(min, max)` once a value was seen.
        range: Option<(i64, i64)>,
        /// `None` once the sum overflowed.
        sum: Option<i64>,
    },
    Double {
        /// `(min, max)` of the non-NaN values.
        range: Option<(f64, f64)>,
        sum: f64,
    },
    String(Box<StringBuilder>),
    Binary {
        sum: i64,
    },
    Date {
        range: Option<(i32, i32)>,
    },
    Timestamp {
        /// `(millis, nanos within the millisecond)` of the earliest and latest values.
        range: Option<((i64, u32), (i64, u32))>,
    },
    Decimal(DecimalBuilder),
    Collection {
        range: Option<(u64, u64)>,
        total: u64,
    },
}

/// String minimum and maximum: the bytes, and whether they are a truncated bound.
#[derive(Debug, Clone, Default)]
struct StringBuilder {
    seen: bool,
    min: Vec<u8>,
    max: Vec<u8>,
    min_is_bound: bool,
    max_is_bound: bool,
    sum: i64,
}

/// Decimal minimum, maximum and sum as `(unscaled, scale)`.
#[derive(Debug, Clone)]
struct DecimalBuilder {
    range: Option<((i128, u32), (i128, u32))>,
    /// `None` once the sum overflowed.
    sum: Option<(i128, u32)>,
    /// The largest magnitude the sum may reach.
    sum_limit: i128,
}

impl StatisticsBuilder {
    /// Empty statistics for a column of type `t`.
    pub(crate) fn new(t: &TypeDescription) -> Self {
        let typed = match t.kind() {
            Kind::Boolean => TypedBuilder::Boolean { true_count: 0 },
            Kind::Byte | Kind::Short | Kind::Int | Kind::Long => TypedBuilder::Integer {
                range: None,
                sum: Some(0),
            },
            Kind::Float | Kind::Double => TypedBuilder::Double {
                range: None,
                sum: 0.0,
            },
            Kind::String | Kind::Varchar | Kind::Char => TypedBuilder::String(Box::default()),
            Kind::Binary => TypedBuilder::Binary { sum: 0 },
            Kind::Date => TypedBuilder::Date { range: None },
            Kind::Timestamp | Kind::TimestampInstant => TypedBuilder::Timestamp { range: None },
            Kind::Decimal => TypedBuilder::Decimal(DecimalBuilder {
                range: None,
                sum: Some((0, t.scale().unwrap_or(0))),
                sum_limit: if t.precision().is_some_and(|p| p <= 18) {
                    MAX_DECIMAL64
                } else {
                    MAX_DECIMAL128
                },
            }),
            Kind::List | Kind::Map => TypedBuilder::Collection {
                range: None,
                total: 0,
            },
            Kind::Struct | Kind::Union => TypedBuilder::None,
        };
        Self {
            count: 0,
            has_null: false,
            bytes_on_disk: 0,
            typed,
        }
    }

    /// Counts `n` non-null values (their typed statistics are added separately).
    #[inline]
    pub(crate) fn add_values(&mut self, n: u64) {
        self.count += n;
    }

    /// Records that there are nulls.
    #[inline]
    pub(crate) fn set_null(&mut self) {
        self.has_null = true;
    }

    /// Adds the bytes the column's streams take on disk.
    pub(crate) fn add_bytes_on_disk(&mut self, bytes: u64) {
        self.bytes_on_disk += bytes;
    }

    /// The number of non-null values so far.
    #[cfg(test)]
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Adds boolean values.
    pub(crate) fn update_booleans(&mut self, true_count: u64) {
        if let TypedBuilder::Boolean { true_count: t } = &mut self.typed {
            *t += true_count;
        }
    }

    /// Adds an integer.
    #[inline]
    pub(crate) fn update_integer(&mut self, value: i64) {
        if let TypedBuilder::Integer { range, sum } = &mut self.typed {
            *range = Some(match *range {
                Some((min, max)) => (min.min(value), max.max(value)),
                None => (value, value),
            });
            *sum = sum.and_then(|s| s.checked_add(value));
        }
    }

    /// Adds a float or double.
    #[inline]
    pub(crate) fn update_double(&mut self, value: f64) {
        if let TypedBuilder::Double { range, sum } = &mut self.typed {
            if !value.is_nan() {
                *range = Some(match *range {
                    Some((min, max)) => (min.min(value), max.max(value)),
                    None => (value, value),
                });
            }
            *sum += value;
        }
    }

    /// Adds a string (valid UTF-8).
    #[inline]
    pub(crate) fn update_string(&mut self, value: &[u8]) {
        if let TypedBuilder::String(s) = &mut self.typed {
            s.update(value);
        }
    }

    /// Adds a binary value's length.
    #[inline]
    pub(crate) fn update_binary(&mut self, len: usize) {
        if let TypedBuilder::Binary { sum } = &mut self.typed {
            *sum = sum.saturating_add(i64::try_from(len).unwrap_or(i64::MAX));
        }
    }

    /// Adds a date.
    #[inline]
    pub(crate) fn update_date(&mut self, days: i32) {
        if let TypedBuilder::Date { range } = &mut self.typed {
            *range = Some(match *range {
                Some((min, max)) => (min.min(days), max.max(days)),
                None => (days, days),
            });
        }
    }

    /// Adds a timestamp: milliseconds since 1970-01-01T00:00:00 (floored) and the
    /// nanoseconds within that millisecond.
    #[inline]
    pub(crate) fn update_timestamp(&mut self, millis: i64, nanos: u32) {
        if let TypedBuilder::Timestamp { range } = &mut self.typed {
            let value = (millis, nanos);
            *range = Some(match *range {
                Some((min, max)) => (min.min(value), max.max(value)),
                None => (value, value),
            });
        }
    }

    /// Adds a decimal.
    #[inline]
    pub(crate) fn update_decimal(&mut self, unscaled: i128, scale: u32) {
        if let TypedBuilder::Decimal(d) = &mut self.typed {
            let value = (unscaled, scale);
            d.range = Some(match d.range {
                Some((min, max)) => (
                    if cmp_decimal(value, min) == Ordering::Less {
                        value
                    } else {
                        min
                    },
                    if cmp_decimal(value, max) == Ordering::Greater {
                        value
                    } else {
                        max
                    },
                ),
                None => (value, value),
            });
            d.sum = d
                .sum
                .and_then(|sum| add_decimal(sum, value))
                .filter(|&(s, _)| s.unsigned_abs() <= d.sum_limit.unsigned_abs());
        }
    }

    /// Adds the number of children of a list or map value.
    #[inline]
    pub(crate) fn update_collection(&mut self, children: u64) {
        if let TypedBuilder::Collection { range, total } = &mut self.typed {
            *range = Some(match *range {
                Some((min, max)) => (min.min(children), max.max(children)),
                None => (children, children),
            });
            *total += children;
        }
    }

    /// Adds `other` (statistics of the same column) to these.
    pub(crate) fn merge(&mut self, other: &Self) {
        self.count += other.count;
        self.has_null |= other.has_null;
        self.bytes_on_disk += other.bytes_on_disk;
        match (&mut self.typed, &other.typed) {
            (TypedBuilder::Boolean { true_count }, TypedBuilder::Boolean { true_count: o }) => {
                *true_count += o;
            }
            (TypedBuilder::Integer { range, sum }, TypedBuilder::Integer { range: r, sum: s }) => {
                *range = merge_range(*range, *r);
                *sum = match (*sum, *s) {
                    (Some(a), Some(b)) => a.checked_add(b),
                    _ => None,
                };
            }
            (
                TypedBuilder::Double { range, sum },
                TypedBuilder::Double {
                    range: other_range,
                    sum: other_sum,
                },
            ) => {
                *range = match (*range, *other_range) {
                    (Some((min, max)), Some((other_min, other_max))) => {
                        Some((min.min(other_min), max.max(other_max)))
                    }
                    (mine, theirs) => mine.or(theirs),
                };
                *sum += other_sum;
            }
            (TypedBuilder::String(a), TypedBuilder::String(b)) => a.merge(b),
            (TypedBuilder::Binary { sum }, TypedBuilder::Binary { sum: s }) => {
                *sum = sum.saturating_add(*s);
            }
            (TypedBuilder::Date { range }, TypedBuilder::Date { range: r }) => {
                *range = merge_range(*range, *r);
            }
            (TypedBuilder::Timestamp { range }, TypedBuilder::Timestamp { range: r }) => {
                *range = merge_range(*range, *r);
            }
            (TypedBuilder::Decimal(a), TypedBuilder::Decimal(b)) => {
                a.range = match (a.range, b.range) {
                    (Some((min, max)), Some((c, d))) => Some((
                        if cmp_decimal(c, min) == Ordering::Less {
                            c
                        } else {
                            min
                        },
                        if cmp_decimal(d, max) == Ordering::Greater {
                            d
                        } else {
                            max
                        },
                    )),
                    (x, y) => x.or(y),
                };
                a.sum = match (a.sum, b.sum) {
                    (Some(x), Some(y)) => add_decimal(x, y)
                        .filter(|&(s, _)| s.unsigned_abs() <= a.sum_limit.unsigned_abs()),
                    _ => None,
                };
            }
            (
                TypedBuilder::Collection { range, total },
                TypedBuilder::Collection { range: r, total: t },
            ) => {
                *range = merge_range(*range, *r);
                *total += t;
            }
            _ => {}
        }
    }

    /// Empties the statistics, keeping the kind (and string buffers).
    pub(crate) fn reset(&mut self) {
        self.count = 0;
        self.has_null = false;
        self.bytes_on_disk = 0;
        match &mut self.typed {
            TypedBuilder::None => {}
            TypedBuilder::Boolean { true_count } => *true_count = 0,
            TypedBuilder::Integer { range, sum } => {
                *range = None;
                *sum = Some(0);
            }
            TypedBuilder::Double { range, sum } => {
                *range = None;
                *sum = 0.0;
            }
            TypedBuilder::String(s) => {
                s.seen = false;
                s.min.clear();
                s.max.clear();
                s.min_is_bound = false;
                s.max_is_bound = false;
                s.sum = 0;
            }
            TypedBuilder::Binary { sum } => *sum = 0,
            TypedBuilder::Date { range } => *range = None,
            TypedBuilder::Timestamp { range } => *range = None,
            TypedBuilder::Decimal(d) => {
                d.range = None;
                d.sum = Some((0, d.sum.map_or(0, |(_, scale)| scale)));
            }
            TypedBuilder::Collection { range, total } => {
                *range = None;
                *total = 0;
            }
        }
    }

    /// The statistics gathered, as Java serializes them: the counts always, `hasNull`
    /// always, `bytesOnDisk` when not 0, and the typed message always (with its fields
    /// only when there are values).
    pub(crate) fn build(&self) -> ColumnStatistics {
        let has_values = self.count > 0;
        let typed = match &self.typed {
            TypedBuilder::None => TypedStatistics::None,
            &TypedBuilder::Boolean { true_count } => TypedStatistics::Boolean { true_count },
            &TypedBuilder::Integer { range, sum } => TypedStatistics::Integer {
                min: range.map(|r| r.0),
                max: range.map(|r| r.1),
                sum,
            },
            &TypedBuilder::Double { range, sum } => TypedStatistics::Double {
                min: range.map(|r| r.0),
                max: range.map(|r| r.1),
                sum: Some(sum).filter(|s| s.is_finite()),
            },
            TypedBuilder::String(s) => {
                let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                let seen = s.seen && has_values;
                let (min, lower_bound) = match (seen, s.min_is_bound) {
                    (false, _) => (None, None),
                    (true, false) => (Some(text(&s.min)), None),
                    (true, true) => (None, Some(text(&s.min))),
                };
                let (max, upper_bound) = match (seen, s.max_is_bound) {
                    (false, _) => (None, None),
                    (true, false) => (Some(text(&s.max)), None),
                    // An empty upper bound: no bound exists (every character maximal).
                    (true, true) if s.max.is_empty() => (None, None),
                    (true, true) => (None, Some(text(&s.max))),
                };
                TypedStatistics::String {
                    min,
                    max,
                    lower_bound,
                    upper_bound,
                    sum: seen.then_some(s.sum),
                }
            }
            &TypedBuilder::Binary { sum } => TypedStatistics::Binary { sum: Some(sum) },
            &TypedBuilder::Date { range } => TypedStatistics::Date {
                min: range.map(|r| r.0),
                max: range.map(|r| r.1),
            },
            &TypedBuilder::Timestamp { range } => match range {
                Some(((min, min_nanos), (max, max_nanos))) => TypedStatistics::Timestamp {
                    min_millis: None,
                    max_millis: None,
                    min_utc_millis: Some(min),
                    max_utc_millis: Some(max),
                    min_nanos: Some(min_nanos).filter(|&n| n != 0),
                    max_nanos: Some(max_nanos).filter(|&n| n != 999_999),
                },
                None => TypedStatistics::Timestamp {
                    min_millis: None,
                    max_millis: None,
                    min_utc_millis: None,
                    max_utc_millis: None,
                    min_nanos: None,
                    max_nanos: None,
                },
            },
            TypedBuilder::Decimal(d) => TypedStatistics::Decimal {
                min: d.range.map(|(min, _)| decimal_text(min.0, min.1)),
                max: d.range.map(|(_, max)| decimal_text(max.0, max.1)),
                sum: d.sum.map(|(s, scale)| decimal_text(s, scale)),
            },
            &TypedBuilder::Collection { range, total } => TypedStatistics::Collection {
                min_children: range.map(|r| r.0),
                max_children: range.map(|r| r.1),
                total_children: Some(total).filter(|&t| t != 0),
            },
        };
        ColumnStatistics {
            number_of_values: self.count,
            has_null: Some(self.has_null),
            bytes_on_disk: Some(self.bytes_on_disk).filter(|&b| b != 0),
            typed,
        }
    }
}

fn merge_range<T: Ord + Copy>(a: Option<(T, T)>, b: Option<(T, T)>) -> Option<(T, T)> {
    match (a, b) {
        (Some((a0, a1)), Some((b0, b1))) => Some((a0.min(b0), a1.max(b1))),
        (a, b) => a.or(b),
    }
}

impl StringBuilder {
    #[inline]
    fn update(&mut self, value: &[u8]) {
        if !self.seen {
            self.seen = true;
            set_lower(&mut self.min, &mut self.min_is_bound, value);
            set_upper(&mut self.max, &mut self.max_is_bound, value);
        } else if self.min.as_slice() > value {
            set_lower(&mut self.min, &mut self.min_is_bound, value);
        } else if self.max.as_slice() < value {
            set_upper(&mut self.max, &mut self.max_is_bound, value);
        }
        self.sum = self
            .sum
            .saturating_add(i64::try_from(value.len()).unwrap_or(i64::MAX));
    }

    fn merge(&mut self, other: &Self) {
        if other.seen {
            if self.seen {
                if self.min > other.min {
                    self.min.clone_from(&other.min);
                    self.min_is_bound = other.min_is_bound;
                }
                if self.max < other.max {
                    self.max.clone_from(&other.max);
                    self.max_is_bound = other.max_is_bound;
                }
            } else {
                self.seen = true;
                self.min.clone_from(&other.min);
                self.max.clone_from(&other.max);
                self.min_is_bound = other.min_is_bound;
                self.max_is_bound = other.max_is_bound;
            }
        }
        self.sum = self.sum.saturating_add(other.sum);
    }
}

/// The longest prefix of `value` that ends on a character boundary and has at most
/// [`MAX_STRING_BYTES`] bytes.
fn truncated_prefix(value: &[u8]) -> &[u8] {
    let mut end = MAX_STRING_BYTES.min(value.len());
    // Back up over continuation bytes (0b10xx_xxxx) to the start of a character.
    while end > 0 && end < value.len() && value.get(end).is_some_and(|&b| b & 0xc0 == 0x80) {
        end -= 1;
    }
    value.get(..end).unwrap_or_default()
}

/// Records `value` as a minimum: whole, or truncated as a lower bound.
fn set_lower(slot: &mut Vec<u8>, is_bound: &mut bool, value: &[u8]) {
    slot.clear();
    if value.len() > MAX_STRING_BYTES {
        slot.extend_from_slice(truncated_prefix(value));
        *is_bound = true;
    } else {
        slot.extend_from_slice(value);
        *is_bound = false;
    }
}

/// Records `value` as a maximum: whole, or as an upper bound: truncated, with its last
/// character incremented (empty when no bound exists).
fn set_upper(slot: &mut Vec<u8>, is_bound: &mut bool, value: &[u8]) {
    slot.clear();
    if value.len() <= MAX_STRING_BYTES {
        slot.extend_from_slice(value);
        *is_bound = false;
        return;
    }
    *is_bound = true;
    let prefix = String::from_utf8_lossy(truncated_prefix(value));
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match u32::from(last) + 1 {
            0xd800 => Some('\u{e000}'),
            n => char::from_u32(n),
        };
        if let Some(next) = next {
            chars.push(next);
            let text: String = chars.into_iter().collect();
            slot.extend_from_slice(text.as_bytes());
            return;
        }
        // The largest character: increment the one before it instead.
    }
}

/// Compares decimals of any scales.
pub(crate) fn cmp_decimal(a: (i128, u32), b: (i128, u32)) -> Ordering {
    let ((av, as_), (bv, bs)) = (a, b);
    match as_.cmp(&bs) {
        Ordering::Equal => av.cmp(&bv),
        Ordering::Less => match rescale(av, bs - as_) {
            Some(av) => av.cmp(&bv),
            // |av| * 10^k is past the i128 range, so past |bv|: the sign decides.
            None => av.cmp(&0),
        },
        Ordering::Greater => match rescale(bv, as_ - bs) {
            Some(bv) => av.cmp(&bv),
            None => 0.cmp(&bv),
        },
    }
}

/// `value * 10^digits`, if it fits.
pub(crate) fn rescale(value: i128, digits: u32) -> Option<i128> {
    10i128
        .checked_pow(digits)
        .and_then(|p| value.checked_mul(p))
}

/// The sum of two decimals at the larger of their scales, if it fits.
fn add_decimal(a: (i128, u32), b: (i128, u32)) -> Option<(i128, u32)> {
    let scale = a.1.max(b.1);
    let x = rescale(a.0, scale - a.1)?;
    let y = rescale(b.0, scale - b.1)?;
    Some((x.checked_add(y)?, scale))
}

/// A decimal as Hive's `HiveDecimal.toString` writes it: plain notation, no trailing
/// zeros after the point (`"1.5"`, `"-0.25"`, `"100"`).
pub(crate) fn decimal_text(unscaled: i128, scale: u32) -> String {
    let digits = unscaled.unsigned_abs().to_string();
    let scale = scale as usize;
    let mut out = String::with_capacity(digits.len() + scale + 3);
    if unscaled < 0 {
        out.push('-');
    }
    if scale == 0 {
        out.push_str(&digits);
        return out;
    }
    let (int_part, frac_part) = if digits.len() > scale {
        digits.split_at(digits.len() - scale)
    } else {
        ("", digits.as_str())
    };
    if int_part.is_empty() {
        out.push('0');
    } else {
        out.push_str(int_part);
    }
    let frac = format!("{frac_part:0>scale$}");
    let frac = frac.trim_end_matches('0');
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    if out == "-0" {
        out.remove(0);
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn builder(t: &str) -> StatisticsBuilder {
        StatisticsBuilder::new(&TypeDescription::parse(t).unwrap())
    }

    #[test]
    fn integer_sum_overflow_drops_the_sum() {
        let mut s = builder("bigint");
        for v in [5, -3, 12] {
            s.add_values(1);
            s.update_integer(v);
        }
        assert_eq!(
            s.build().typed,
            TypedStatistics::Integer {
                min: Some(-3),
                max: Some(12),
                sum: Some(14)
            }
        );
        s.update_integer(i64::MAX);
        let TypedStatistics::Integer { sum, max, .. } = s.build().typed else {
            panic!()
        };
        assert_eq!((sum, max), (None, Some(i64::MAX)));
        // Merging into statistics without a sum keeps no sum.
        let mut t = builder("bigint");
        t.update_integer(1);
        t.merge(&s);
        assert!(matches!(
            t.build().typed,
            TypedStatistics::Integer { sum: None, .. }
        ));
    }

    #[test]
    fn doubles_leave_nan_out_of_min_and_max() {
        let mut s = builder("double");
        for v in [f64::NAN, 2.5, -1.0] {
            s.add_values(1);
            s.update_double(v);
        }
        let TypedStatistics::Double { min, max, sum } = s.build().typed else {
            panic!()
        };
        assert_eq!((min, max), (Some(-1.0), Some(2.5)));
        assert_eq!(sum, None, "a NaN sum is not recorded");
    }

    #[test]
    fn long_strings_become_bounds() {
        let long_a = "a".repeat(2000);
        let mut s = builder("string");
        s.add_values(2);
        s.update_string(long_a.as_bytes());
        s.update_string(b"b");
        let TypedStatistics::String {
            min,
            max,
            lower_bound,
            upper_bound,
            sum,
        } = s.build().typed
        else {
            panic!()
        };
        assert_eq!(min, None);
        assert_eq!(lower_bound.as_deref(), Some("a".repeat(1024).as_str()));
        assert_eq!(max.as_deref(), Some("b"));
        assert_eq!(upper_bound, None);
        assert_eq!(sum, Some(2001));

        // An upper bound: the prefix with its last character incremented; a character
        // cut at byte 1024 is left out whole.
        let long = format!("{}é{}", "z".repeat(1023), "x".repeat(10));
        let mut s = builder("string");
        s.add_values(1);
        s.update_string(long.as_bytes());
        let TypedStatistics::String {
            upper_bound,
            lower_bound,
            ..
        } = s.build().typed
        else {
            panic!()
        };
        assert_eq!(lower_bound.as_deref(), Some("z".repeat(1023).as_str()));
        assert_eq!(
            upper_bound.as_deref(),
            Some(format!("{}{{", "z".repeat(1022)).as_str())
        );
    }

    #[test]
    fn decimal_statistics_are_hive_text() {
        assert_eq!(decimal_text(150, 2), "1.5");
        assert_eq!(decimal_text(-25, 2), "-0.25");
        assert_eq!(decimal_text(100, 0), "100");
        assert_eq!(decimal_text(0, 3), "0");
        assert_eq!(decimal_text(-1, 5), "-0.00001");
        let mut s = builder("decimal(10,2)");
        for v in [150, -25, 1000] {
            s.add_values(1);
            s.update_decimal(v, 2);
        }
        assert_eq!(
            s.build().typed,
            TypedStatistics::Decimal {
                min: Some("-0.25".into()),
                max: Some("10".into()),
                sum: Some("11.25".into())
            }
        );
        // Precision up to 18: the sum stops at 18 digits.
        let mut s = builder("decimal(18,0)");
        s.update_decimal(MAX_DECIMAL64, 0);
        s.update_decimal(1, 0);
        assert!(matches!(
            s.build().typed,
            TypedStatistics::Decimal { sum: None, .. }
        ));
    }

    #[test]
    fn decimals_of_different_scales_compare_by_value() {
        assert_eq!(cmp_decimal((15, 1), (150, 2)), Ordering::Equal);
        assert_eq!(cmp_decimal((1, 0), (99, 2)), Ordering::Greater);
        assert_eq!(cmp_decimal((-1, 0), (i128::MAX, 38)), Ordering::Less);
        assert_eq!(cmp_decimal((i128::MAX / 10, 0), (5, 30)), Ordering::Greater);
    }

    #[test]
    fn timestamps_keep_nanos_as_java_does() {
        let mut s = builder("timestamp");
        s.add_values(3);
        s.update_timestamp(1000, 5);
        s.update_timestamp(1000, 3);
        s.update_timestamp(2000, 999_999);
        let stats = s.build();
        assert_eq!(
            stats.typed,
            TypedStatistics::Timestamp {
                min_millis: None,
                max_millis: None,
                min_utc_millis: Some(1000),
                max_utc_millis: Some(2000),
                min_nanos: Some(3),
                max_nanos: None,
            }
        );
        let p = stats.to_proto();
        let ts = p.timestamp_statistics.unwrap();
        assert_eq!((ts.minimum_nanos, ts.maximum_nanos), (Some(4), None));
        assert_eq!(ColumnStatistics::from_proto(&stats.to_proto()), stats);
    }

    #[test]
    fn proto_round_trip_and_display() {
        let stats = ColumnStatistics {
            number_of_values: 3,
            has_null: Some(true),
            bytes_on_disk: Some(40),
            typed: TypedStatistics::Date {
                min: Some(0),
                max: Some(19_000),
            },
        };
        assert_eq!(ColumnStatistics::from_proto(&stats.to_proto()), stats);
        assert_eq!(
            stats.to_string(),
            "count: 3 hasNull: true bytesOnDisk: 40 min: 1970-01-01 max: 2022-01-08"
        );
        let ts = ColumnStatistics {
            number_of_values: 1,
            has_null: Some(false),
            bytes_on_disk: None,
            typed: TypedStatistics::Timestamp {
                min_millis: None,
                max_millis: None,
                min_utc_millis: Some(-1),
                max_utc_millis: Some(1_420_070_400_123),
                min_nanos: Some(456),
                max_nanos: Some(7),
            },
        };
        assert_eq!(
            ts.to_string(),
            "count: 1 hasNull: false min: 1969-12-31 23:59:59.999000456 \
             max: 2015-01-01 00:00:00.123000007"
        );
        let none = ColumnStatistics::from_proto(&proto::ColumnStatistics::default());
        assert_eq!(none.typed, TypedStatistics::None);
        assert_eq!(none.to_string(), "count: 0");
    }

    #[test]
    fn collections_count_children() {
        let mut s = builder("array<int>");
        for n in [3, 0, 5] {
            s.add_values(1);
            s.update_collection(n);
        }
        assert_eq!(
            s.build().typed,
            TypedStatistics::Collection {
                min_children: Some(0),
                max_children: Some(5),
                total_children: Some(8)
            }
        );
        let mut merged = builder("array<int>");
        merged.merge(&s);
        merged.merge(&s);
        assert_eq!(merged.count(), 6);
        s.reset();
        assert_eq!(s.count(), 0);
        assert!(matches!(
            s.build().typed,
            TypedStatistics::Collection {
                min_children: None,
                ..
            }
        ));
    }
}
