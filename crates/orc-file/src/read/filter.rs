//! Predicates ([`Predicate`], the same values as Parquet's) judged on ORC statistics:
//! whether a stripe or a row group (an entry of the row index) might hold a matching row.
//!
//! Only columns reached through structs from the root are judged; a column under a
//! list, map or union, a timestamp, or a column without statistics, never rules a
//! stripe or row group out.

use parquet_core::filter::{Literal, Op, Predicate, range_might_hold};
use parquet_core::{ColumnPath, Field};

use crate::proto;
use crate::schema::{Kind, TypeDescription};

/// What a predicate's column is: its id, its type, and whether a struct lies above it
/// (whose nulls the column's own statistics do not count).
pub(crate) struct Target<'a> {
    id: u32,
    column: &'a TypeDescription,
    under_struct: bool,
}

/// The column a path names, when statistics can judge it.
pub(crate) fn target<'a>(schema: &'a TypeDescription, path: &ColumnPath) -> Option<Target<'a>> {
    let mut t = schema;
    let mut under_struct = false;
    for (depth, part) in path.parts().iter().enumerate() {
        if t.kind() != Kind::Struct {
            return None;
        }
        under_struct |= depth > 0;
        t = t.field(part)?;
    }
    Some(Target {
        id: t.id(),
        column: t,
        under_struct,
    })
}

/// The column ids the predicate's judgeable columns have.
pub(crate) fn columns(schema: &TypeDescription, predicate: &Predicate) -> Vec<u32> {
    let mut ids: Vec<u32> = predicate
        .columns()
        .into_iter()
        .filter_map(|path| target(schema, path).map(|t| t.id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The statistics of a file whose dates count in the hybrid Julian/Gregorian calendar
/// (see [`crate::calendar`]) with their dates as the proleptic ones they name.
pub(crate) fn in_proleptic_dates(mut s: proto::ColumnStatistics) -> proto::ColumnStatistics {
    if let Some(d) = &mut s.date_statistics {
        let day = |v: i32| i32::try_from(crate::calendar::hybrid_day(i64::from(v))).unwrap_or(v);
        d.minimum = d.minimum.map(day);
        d.maximum = d.maximum.map(day);
    }
    s
}

/// Whether a part of the file whose statistics are `stats` (by column id) might hold a
/// row matching `predicate`; `rows` is the part's row count.
pub(crate) fn might_match(
    predicate: &Predicate,
    schema: &TypeDescription,
    stats: &dyn Fn(u32) -> Option<proto::ColumnStatistics>,
    rows: u64,
) -> bool {
    match predicate {
        Predicate::And(a, b) => {
            might_match(a, schema, stats, rows) && might_match(b, schema, stats, rows)
        }
        Predicate::Or(a, b) => {
            might_match(a, schema, stats, rows) || might_match(b, schema, stats, rows)
        }
        Predicate::Not(_) => true,
        Predicate::IsNull { column, negated } => {
            let Some(t) = target(schema, column) else {
                return true;
            };
            let Some(s) = stats(t.id) else {
                return true;
            };
            if *negated {
                // `is not null`: some value is present.
                s.number_of_values.is_none_or(|n| n > 0)
            } else if t.under_struct {
                true
            } else {
                // ORC v0 statistics have no `hasNull`: fewer values than rows say it.
                s.has_null
                    .unwrap_or_else(|| s.number_of_values.is_none_or(|n| n < rows))
            }
        }
        Predicate::Compare {
            column,
            op,
            literal,
        } => {
            let Some(t) = target(schema, column) else {
                return true;
            };
            let Some(s) = stats(t.id) else {
                return true;
            };
            if s.number_of_values == Some(0) {
                // Only nulls: no comparison holds.
                return false;
            }
            compare_might_hold(t.column, &s, *op, literal)
        }
    }
}

fn compare_might_hold(
    column: &TypeDescription,
    s: &proto::ColumnStatistics,
    op: Op,
    literal: &Literal,
) -> bool {
    let (min, max) = bounds(column, s);
    if min.is_none() && max.is_none() {
        return true;
    }
    // Statistics that cannot be true (a minimum above the maximum) judge nothing.
    if let (Some(min), Some(max)) = (&min, &max)
        && above(min, max)
    {
        return true;
    }
    range_might_hold(min.as_ref(), max.as_ref(), op, literal)
}

/// Whether `a` is above `b`, two bounds of one column's statistics (`false` for values
/// this cannot order).
fn above(a: &Field, b: &Field) -> bool {
    match (a, b) {
        (Field::Int(a), Field::Int(b)) => a > b,
        (Field::Double(a), Field::Double(b)) => a > b,
        (Field::Str(a), Field::Str(b)) => a > b,
        (Field::Date(a), Field::Date(b)) => a > b,
        (Field::Bool(a), Field::Bool(b)) => a > b,
        (
            Field::Decimal {
                unscaled: a,
                scale: sa,
            },
            Field::Decimal {
                unscaled: b,
                scale: sb,
            },
        ) => {
            // Both at the larger scale, when that fits.
            let at = |v: i128, from: u32, to: u32| {
                10i128.checked_pow(to - from).and_then(|f| v.checked_mul(f))
            };
            let scale = (*sa).max(*sb);
            match (at(*a, *sa, scale), at(*b, *sb, scale)) {
                (Some(a), Some(b)) => a > b,
                _ => false,
            }
        }
        _ => false,
    }
}

/// The least and greatest values the statistics record, as fields.
fn bounds(column: &TypeDescription, s: &proto::ColumnStatistics) -> (Option<Field>, Option<Field>) {
    match column.kind() {
        Kind::Byte | Kind::Short | Kind::Int | Kind::Long => {
            s.int_statistics.as_ref().map_or((None, None), |i| {
                (i.minimum.map(Field::Int), i.maximum.map(Field::Int))
            })
        }
        Kind::Float | Kind::Double => s.double_statistics.as_ref().map_or((None, None), |d| {
            // A float column's bounds may be the values as the writer was given them,
            // before their rounding to float (Apache ORC's C++ writer records those): the
            // bounds are widened to hold the rounded values as well.
            let float = column.kind() == Kind::Float;
            #[allow(clippy::cast_possible_truncation)] // the rounding is the point
            let rounded = |v: f64| if float { f64::from(v as f32) } else { v };
            // NaN bounds say nothing.
            let f = |v: Option<f64>, pick: fn(f64, f64) -> f64| {
                v.filter(|v| !v.is_nan())
                    .map(|v| Field::Double(pick(v, rounded(v))))
            };
            (f(d.minimum, f64::min), f(d.maximum, f64::max))
        }),
        Kind::String | Kind::Varchar | Kind::Char => {
            s.string_statistics.as_ref().map_or((None, None), |t| {
                let min = t.minimum.clone().or_else(|| t.lower_bound.clone());
                let max = t.maximum.clone().or_else(|| t.upper_bound.clone());
                (min.map(Field::Str), max.map(Field::Str))
            })
        }
        Kind::Date => s.date_statistics.as_ref().map_or((None, None), |d| {
            (d.minimum.map(Field::Date), d.maximum.map(Field::Date))
        }),
        Kind::Decimal => s.decimal_statistics.as_ref().map_or((None, None), |d| {
            (
                d.minimum.as_deref().and_then(parse_decimal),
                d.maximum.as_deref().and_then(parse_decimal),
            )
        }),
        Kind::Boolean => s.bucket_statistics.as_ref().map_or((None, None), |b| {
            let trues = b.count.first().copied();
            let values = s.number_of_values;
            match (trues, values) {
                (Some(0), _) => (Some(Field::Bool(false)), Some(Field::Bool(false))),
                (Some(t), Some(v)) if t == v => (Some(Field::Bool(true)), Some(Field::Bool(true))),
                (Some(_), Some(_)) => (Some(Field::Bool(false)), Some(Field::Bool(true))),
                _ => (None, None),
            }
        }),
        _ => (None, None),
    }
}

/// A decimal in plain notation (`-12.340`) as an unscaled integer and a scale.
pub(crate) fn parse_decimal(text: &str) -> Option<Field> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut unscaled: i128 = 0;
    for c in whole.chars().chain(fraction.chars()) {
        let d = c.to_digit(10)?;
        unscaled = unscaled.checked_mul(10)?.checked_add(i128::from(d))?;
    }
    Some(Field::Decimal {
        unscaled: if negative { -unscaled } else { unscaled },
        scale: u32::try_from(fraction.len()).ok()?,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn int_stats(min: i64, max: i64, values: u64, has_null: bool) -> proto::ColumnStatistics {
        proto::ColumnStatistics {
            number_of_values: Some(values),
            has_null: Some(has_null),
            int_statistics: Some(proto::IntegerStatistics {
                minimum: Some(min),
                maximum: Some(max),
                sum: None,
            }),
            ..Default::default()
        }
    }

    #[test]
    fn integer_ranges_rule_parts_out() {
        let schema =
            TypeDescription::parse("struct<id:bigint,name:string,s:struct<x:int>,l:array<int>>")
                .unwrap();
        let stats = |id: u32| (id == 1).then(|| int_stats(10, 20, 100, false));
        let judge = |p: Predicate| might_match(&p, &schema, &stats, 100);
        assert!(judge(Predicate::compare("id", Op::Eq, 15)));
        assert!(!judge(Predicate::compare("id", Op::Eq, 25)));
        assert!(!judge(Predicate::compare("id", Op::Lt, 10)));
        assert!(judge(Predicate::compare("id", Op::Le, 10)));
        assert!(!judge(Predicate::is_null("id")));
        assert!(judge(Predicate::is_not_null("id")));
        assert!(!judge(
            Predicate::compare("id", Op::Gt, 30).or(Predicate::compare("id", Op::Lt, 5))
        ));
        // Columns without statistics, or under a list, rule nothing out.
        assert!(judge(Predicate::compare("name", Op::Eq, "x")));
        assert!(judge(Predicate::compare(ColumnPath::new(["l"]), Op::Eq, 1)));
        assert!(judge(Predicate::compare("id", Op::Eq, 25).negate()));
    }

    #[test]
    fn a_float_columns_bounds_hold_its_values_rounded_to_float() {
        let schema = TypeDescription::parse("struct<f:float,d:double>").unwrap();
        // Apache ORC's C++ writer records the double it was given as the float column's
        // least value; the column holds that value rounded to float, which is less.
        let given = -2_575.113_265_379_345_6_f64;
        #[allow(clippy::cast_possible_truncation)]
        let stored = f64::from(given as f32);
        assert!(stored < given);
        let stats = |id: u32| {
            (id > 0).then(|| proto::ColumnStatistics {
                number_of_values: Some(10),
                double_statistics: Some(proto::DoubleStatistics {
                    minimum: Some(given),
                    maximum: Some(0.0),
                    sum: None,
                }),
                ..Default::default()
            })
        };
        let judge = |p: Predicate| might_match(&p, &schema, &stats, 10);
        assert!(judge(Predicate::compare("f", Op::Le, stored)));
        assert!(!judge(Predicate::compare("f", Op::Lt, stored)));
        // A double column's bounds are its values'.
        assert!(!judge(Predicate::compare("d", Op::Le, stored)));
    }

    #[test]
    fn statistics_that_cannot_be_true_rule_nothing_out() {
        let schema = TypeDescription::parse("struct<id:bigint,d:decimal(9,2)>").unwrap();
        // A minimum above the maximum: no value can lie between them, yet rows exist.
        let stats = |id: u32| match id {
            1 => Some(int_stats(20, 10, 100, false)),
            2 => Some(proto::ColumnStatistics {
                number_of_values: Some(100),
                decimal_statistics: Some(proto::DecimalStatistics {
                    minimum: Some("3.5".into()),
                    maximum: Some("-1.25".into()),
                    sum: None,
                }),
                ..Default::default()
            }),
            _ => None,
        };
        let judge = |p: Predicate| might_match(&p, &schema, &stats, 100);
        for value in [5, 15, 25] {
            assert!(judge(Predicate::compare("id", Op::Eq, value)), "{value}");
        }
        assert!(judge(Predicate::compare("d", Op::Gt, 100)));
        assert!(above(
            &Field::Decimal {
                unscaled: 350,
                scale: 2
            },
            &Field::Decimal {
                unscaled: -125,
                scale: 2
            }
        ));
        assert!(!above(
            &Field::Decimal {
                unscaled: 35,
                scale: 1
            },
            &Field::Decimal {
                unscaled: 350,
                scale: 2
            }
        ));
    }

    #[test]
    fn hybrid_dates_in_statistics_are_the_dates_they_name() {
        // A day before the cutover moves to the date it names; one after stays.
        let stats = proto::ColumnStatistics {
            date_statistics: Some(proto::DateStatistics {
                minimum: Some(-200_000),
                maximum: Some(0),
            }),
            ..Default::default()
        };
        let rebased = in_proleptic_dates(stats).date_statistics.unwrap();
        assert_eq!(
            rebased.minimum,
            Some(i32::try_from(crate::calendar::hybrid_day(-200_000)).unwrap())
        );
        assert_ne!(rebased.minimum, Some(-200_000));
        assert_eq!(rebased.maximum, Some(0));
    }

    #[test]
    fn decimals_parse() {
        assert_eq!(
            parse_decimal("-12.340"),
            Some(Field::Decimal {
                unscaled: -12340,
                scale: 3
            })
        );
        assert_eq!(
            parse_decimal("7"),
            Some(Field::Decimal {
                unscaled: 7,
                scale: 0
            })
        );
        assert_eq!(parse_decimal("1e5"), None);
        assert_eq!(parse_decimal(""), None);
    }
}
