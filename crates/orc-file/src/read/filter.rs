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
    range_might_hold(min.as_ref(), max.as_ref(), op, literal)
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
            // NaN bounds say nothing.
            let f = |v: Option<f64>| v.filter(|v| !v.is_nan()).map(Field::Double);
            (f(d.minimum), f(d.maximum))
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
