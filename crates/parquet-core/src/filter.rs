//! Row filters as values: a [`Predicate`] of comparisons ([`Op`]) of fields, named by
//! their [`ColumnPath`], with [`Literal`]s, evaluated on [`Row`]s ([`Predicate::matches`])
//! and on the ranges of column statistics ([`range_might_hold`]), the same way for the
//! Parquet and ORC readers.
//!
//! Comparisons of a null, or of values of different kinds (a string with a number), are
//! false.

use std::cmp::Ordering;
use std::fmt;

use crate::{Field, Row};

/// A field's path from the schema's root: the name of each field on the way, in order.
///
/// A path is a list of names, not a dotted string, so a field named `a.b` is never taken
/// for the field `b` inside `a`:
///
/// ```
/// use parquet_core::ColumnPath;
///
/// let nested = ColumnPath::new(["a", "b"]);
/// let dotted = ColumnPath::from("a.b");
/// assert_ne!(nested, dotted);
/// assert_eq!(nested.to_string(), "a.b");
/// assert_eq!(dotted.to_string(), "`a.b`");
/// assert!(ColumnPath::new(["a", "b", "c"]).starts_with(&nested));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnPath(Vec<String>);

impl ColumnPath {
    /// The path of these names, outermost first.
    pub fn new<I, S>(parts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self(parts.into_iter().map(Into::into).collect())
    }

    /// The names, outermost first.
    pub fn parts(&self) -> &[String] {
        &self.0
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the path has no name (the root's path).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `prefix` names this field or one of its ancestors (whole names: `a.b`
    /// starts `a.b.c`, not `a.bc`).
    pub fn starts_with(&self, prefix: &ColumnPath) -> bool {
        self.0.starts_with(&prefix.0)
    }

    /// The path one level deeper.
    #[must_use]
    pub fn child(&self, name: &str) -> Self {
        let mut parts = Vec::with_capacity(self.0.len() + 1);
        parts.extend_from_slice(&self.0);
        parts.push(name.to_owned());
        Self(parts)
    }
}

impl From<&str> for ColumnPath {
    /// The path of one top-level field (the text is one name, dots and all).
    fn from(name: &str) -> Self {
        Self(vec![name.to_owned()])
    }
}

impl From<String> for ColumnPath {
    /// The path of one top-level field.
    fn from(name: String) -> Self {
        Self(vec![name])
    }
}

impl From<&[&str]> for ColumnPath {
    fn from(parts: &[&str]) -> Self {
        Self::new(parts.iter().copied())
    }
}

impl<const N: usize> From<[&str; N]> for ColumnPath {
    fn from(parts: [&str; N]) -> Self {
        Self::new(parts)
    }
}

impl From<Vec<String>> for ColumnPath {
    fn from(parts: Vec<String>) -> Self {
        Self(parts)
    }
}

impl fmt::Display for ColumnPath {
    /// The names joined by dots; a name that holds a dot (or is empty) is written between
    /// backquotes, so that the text names one path only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            if part.is_empty() || part.contains(['.', '`']) {
                write!(f, "`{}`", part.replace('`', "``"))?;
            } else {
                f.write_str(part)?;
            }
        }
        Ok(())
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Op {
    /// Whether a field that compares with the literal as `ordering` satisfies
    /// `field op literal`.
    pub const fn holds(self, ordering: Ordering) -> bool {
        match self {
            Self::Eq => ordering.is_eq(),
            Self::Ne => ordering.is_ne(),
            Self::Lt => ordering.is_lt(),
            Self::Le => ordering.is_le(),
            Self::Gt => ordering.is_gt(),
            Self::Ge => ordering.is_ge(),
        }
    }
}

/// A value a field is compared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// An integer.
    Int(i128),
    /// A number with a fraction or exponent.
    Float(f64),
    /// Text (compared with strings, and with byte arrays by their bytes).
    Str(String),
    /// `true` or `false`.
    Bool(bool),
}

impl From<i64> for Literal {
    fn from(v: i64) -> Self {
        Self::Int(v.into())
    }
}

impl From<i32> for Literal {
    fn from(v: i32) -> Self {
        Self::Int(v.into())
    }
}

impl From<f64> for Literal {
    fn from(v: f64) -> Self {
        Self::Float(v)
    }
}

impl From<&str> for Literal {
    fn from(v: &str) -> Self {
        Self::Str(v.to_owned())
    }
}

impl From<String> for Literal {
    fn from(v: String) -> Self {
        Self::Str(v)
    }
}

impl From<bool> for Literal {
    fn from(v: bool) -> Self {
        Self::Bool(v)
    }
}

/// A predicate on rows, built as a value:
///
/// ```
/// use parquet_core::{ColumnPath, Op, Predicate};
///
/// let p = Predicate::compare("id", Op::Ge, 10)
///     .and(Predicate::compare("name", Op::Eq, "x").or(Predicate::is_null("score")));
/// assert_eq!(p.columns(), [&ColumnPath::from("id"), &"name".into(), &"score".into()]);
/// ```
///
/// Comparisons of a null, or of values of different kinds (a string with a number), are
/// false.
#[derive(Debug, Clone, PartialEq)]
pub enum Predicate {
    /// Both hold.
    And(Box<Predicate>, Box<Predicate>),
    /// Either holds.
    Or(Box<Predicate>, Box<Predicate>),
    /// It does not hold.
    Not(Box<Predicate>),
    /// `column op literal`.
    Compare {
        /// The field's path.
        column: ColumnPath,
        /// The operator.
        op: Op,
        /// The value compared with.
        literal: Literal,
    },
    /// `column is null` (or `is not null` when `negated`).
    IsNull {
        /// The field's path.
        column: ColumnPath,
        /// Whether this is `is not null`.
        negated: bool,
    },
}

impl Predicate {
    /// `column op literal`.
    pub fn compare(column: impl Into<ColumnPath>, op: Op, literal: impl Into<Literal>) -> Self {
        Self::Compare {
            column: column.into(),
            op,
            literal: literal.into(),
        }
    }

    /// `column is null`.
    pub fn is_null(column: impl Into<ColumnPath>) -> Self {
        Self::IsNull {
            column: column.into(),
            negated: false,
        }
    }

    /// `column is not null`.
    pub fn is_not_null(column: impl Into<ColumnPath>) -> Self {
        Self::IsNull {
            column: column.into(),
            negated: true,
        }
    }

    /// Both this and `other`.
    #[must_use]
    pub fn and(self, other: Self) -> Self {
        Self::And(Box::new(self), Box::new(other))
    }

    /// This or `other`.
    #[must_use]
    pub fn or(self, other: Self) -> Self {
        Self::Or(Box::new(self), Box::new(other))
    }

    /// Not this.
    #[must_use]
    pub fn negate(self) -> Self {
        Self::Not(Box::new(self))
    }

    /// The paths the predicate reads, in order of appearance.
    pub fn columns(&self) -> Vec<&ColumnPath> {
        match self {
            Self::And(a, b) | Self::Or(a, b) => {
                let mut paths = a.columns();
                paths.extend(b.columns());
                paths
            }
            Self::Not(a) => a.columns(),
            Self::Compare { column, .. } | Self::IsNull { column, .. } => vec![column],
        }
    }

    /// Whether `row` satisfies the predicate.
    pub fn matches(&self, row: &Row) -> bool {
        match self {
            Self::And(a, b) => a.matches(row) && b.matches(row),
            Self::Or(a, b) => a.matches(row) || b.matches(row),
            Self::Not(a) => !a.matches(row),
            Self::IsNull { column, negated } => {
                let null = row
                    .get_path(column.parts())
                    .is_none_or(|f| *f == Field::Null);
                null != *negated
            }
            Self::Compare {
                column,
                op,
                literal,
            } => row
                .get_path(column.parts())
                .and_then(|f| compare_field(f, literal))
                .is_some_and(|ordering| op.holds(ordering)),
        }
    }
}

/// How `field` compares with `literal`, when they are of comparable kinds: `None` for a
/// null, a list, map or group, values of different kinds (a string with a number), or a
/// NaN.
///
/// Numbers compare by value across kinds (an integer with a float literal, a DECIMAL with
/// an integer exactly); DATE, TIME and TIMESTAMP compare their stored count with an
/// integer literal; byte arrays compare their bytes with a string literal's.
///
/// ```
/// use std::cmp::Ordering;
/// use parquet_core::Field;
/// use parquet_core::filter::{Literal, compare_field};
///
/// assert_eq!(compare_field(&Field::Int(3), &Literal::Float(2.5)), Some(Ordering::Greater));
/// let price = Field::Decimal { unscaled: 1250, scale: 2 };
/// assert_eq!(compare_field(&price, &Literal::Int(12)), Some(Ordering::Greater));
/// assert_eq!(compare_field(&Field::Str("a".into()), &Literal::Int(1)), None);
/// ```
#[allow(clippy::cast_precision_loss)]
pub fn compare_field(field: &Field, literal: &Literal) -> Option<Ordering> {
    let number = |value: f64| match literal {
        Literal::Int(i) => value.partial_cmp(&(*i as f64)),
        Literal::Float(f) => value.partial_cmp(f),
        _ => None,
    };
    match field {
        Field::Int(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => number(*v as f64),
        },
        Field::UInt(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => number(*v as f64),
        },
        Field::Float(v) => number(f64::from(*v)),
        Field::Double(v) => number(*v),
        Field::Float16(bits) => number(f16_to_f64(*bits)),
        Field::Decimal { unscaled, scale } => match literal {
            Literal::Int(i) => 10_i128
                .checked_pow(*scale)
                .and_then(|p| i.checked_mul(p))
                .map(|scaled| unscaled.cmp(&scaled)),
            _ => number(*unscaled as f64 / 10_f64.powi(i32::try_from(*scale).ok()?)),
        },
        Field::Date(v) => match literal {
            Literal::Int(i) => Some(i128::from(*v).cmp(i)),
            _ => None,
        },
        Field::Time { value, .. } => match literal {
            Literal::Int(i) => Some(i128::from(*value).cmp(i)),
            _ => None,
        },
        Field::Timestamp { value, .. } => match literal {
            Literal::Int(i) => Some(value.cmp(i)),
            _ => None,
        },
        Field::Str(s) => match literal {
            Literal::Str(l) => Some(s.as_str().cmp(l.as_str())),
            _ => None,
        },
        Field::Bytes(b) => match literal {
            Literal::Str(l) => Some(b.as_slice().cmp(l.as_bytes())),
            _ => None,
        },
        Field::Bool(b) => match literal {
            Literal::Bool(l) => Some(b.cmp(l)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a column whose values lie in `[min, max]` might hold a value satisfying
/// `value op literal`: false only when the bounds rule every such value out. A bound that
/// is missing, or that does not compare with `literal` (see [`compare_field`]), rules
/// nothing out.
///
/// This is how statistics skip row groups, pages and stripes:
///
/// ```
/// use parquet_core::Field;
/// use parquet_core::filter::{Literal, Op, range_might_hold};
///
/// let (min, max) = (Field::Int(10), Field::Int(20));
/// assert!(range_might_hold(Some(&min), Some(&max), Op::Eq, &Literal::Int(15)));
/// assert!(!range_might_hold(Some(&min), Some(&max), Op::Gt, &Literal::Int(20)));
/// assert!(range_might_hold(None, Some(&max), Op::Lt, &Literal::Int(5)));
/// ```
pub fn range_might_hold(
    min: Option<&Field>,
    max: Option<&Field>,
    op: Op,
    literal: &Literal,
) -> bool {
    let lo = min.and_then(|m| compare_field(m, literal));
    let hi = max.and_then(|m| compare_field(m, literal));
    match op {
        Op::Eq => lo.is_none_or(Ordering::is_le) && hi.is_none_or(Ordering::is_ge),
        Op::Ne => !(lo == Some(Ordering::Equal) && hi == Some(Ordering::Equal)),
        Op::Lt => lo.is_none_or(Ordering::is_lt),
        Op::Le => lo.is_none_or(Ordering::is_le),
        Op::Gt => hi.is_none_or(Ordering::is_gt),
        Op::Ge => hi.is_none_or(Ordering::is_ge),
    }
}

/// The value of IEEE 754 half-precision `bits` (exactly: every half is a double).
fn f16_to_f64(bits: u16) -> f64 {
    let sign = u64::from(bits >> 15) << 63;
    let exponent = (bits >> 10) & 0x1f;
    let mantissa = u64::from(bits & 0x3ff);
    let magnitude = match exponent {
        // Zero and subnormals: mantissa × 2^-24 (exact: the division is by a power of 2).
        0 => f64::from(bits & 0x3ff) / f64::from(1_u32 << 24),
        // Infinity (mantissa 0) and NaN (its payload kept in the top mantissa bits).
        0x1f => f64::from_bits((0x7ff << 52) | (mantissa << 42)),
        // Normal: rebias the exponent from 15 to 1023, widen the mantissa from 10 to 52 bits.
        _ => f64::from_bits(((u64::from(exponent) + 1023 - 15) << 52) | (mantissa << 42)),
    };
    f64::from_bits(magnitude.to_bits() | sign)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::TimeUnit;

    #[test]
    fn f16_values() {
        let cases: [(u16, f64); 14] = [
            (0x0000, 0.0),
            (0x3c00, 1.0),
            (0xc000, -2.0),
            (0x3555, 0.333_251_953_125),
            (0x7bff, 65504.0),
            (0xfbff, -65504.0),
            (0x0400, 6.103_515_625e-5),         // smallest normal, 2^-14
            (0x03ff, 6.097_555_160_522_461e-5), // largest subnormal, 1023 × 2^-24
            (0x0001, 5.960_464_477_539_063e-8), // smallest subnormal, 2^-24
            (0x8001, -5.960_464_477_539_063e-8),
            (0x3800, 0.5),
            (0x4248, 3.140_625),
            (0x7c00, f64::INFINITY),
            (0xfc00, f64::NEG_INFINITY),
        ];
        for (bits, value) in cases {
            assert_eq!(f16_to_f64(bits).to_bits(), value.to_bits(), "{bits:#06x}");
        }
        let negative_zero = f16_to_f64(0x8000);
        assert!(negative_zero == 0.0 && negative_zero.is_sign_negative());
        for nan in [0x7c01, 0x7e00, 0xfe00, 0x7fff] {
            assert!(f16_to_f64(nan).is_nan(), "{nan:#06x}");
        }
        assert!(f16_to_f64(0xfe00).is_sign_negative());
    }

    #[test]
    fn f16_round_trips_through_f32() {
        // Every finite half is exactly an f32 too: widening to f32 and then to f64 must
        // give the same double, and the f32 must narrow back to the same bits.
        for bits in 0..=u16::MAX {
            let value = f16_to_f64(bits);
            if value.is_nan() {
                continue;
            }
            #[allow(clippy::cast_possible_truncation)]
            let single = value as f32;
            assert_eq!(f64::from(single).to_bits(), value.to_bits(), "{bits:#06x}");
        }
        // Monotone: the positive halves in bit order are increasing values.
        let mut previous = f16_to_f64(0);
        for bits in 1..0x7c01_u16 {
            let value = f16_to_f64(bits);
            assert!(value > previous, "{bits:#06x}");
            previous = value;
        }
    }

    #[test]
    fn column_paths() {
        let path = ColumnPath::new(["a", "b"]);
        assert_eq!(path.len(), 2);
        assert!(!path.is_empty() && ColumnPath::default().is_empty());
        assert_eq!(path.child("c"), ColumnPath::from(["a", "b", "c"]));
        assert!(path.child("c").starts_with(&path));
        assert!(!ColumnPath::new(["a", "bc"]).starts_with(&path));
        assert_eq!(ColumnPath::from(&["x", "y"][..]).parts(), ["x", "y"]);
        assert_eq!(ColumnPath::from(vec!["x".to_owned()]), "x".into());
        assert_eq!(ColumnPath::new(["", "a`b", "c"]).to_string(), "``.`a``b`.c");
    }

    #[test]
    fn comparisons_across_kinds() {
        let cmp = compare_field;
        assert_eq!(
            cmp(&Field::Int(-1), &Literal::Int(-1)),
            Some(Ordering::Equal)
        );
        assert_eq!(
            cmp(&Field::UInt(u64::MAX), &Literal::Int(i128::from(i64::MAX))),
            Some(Ordering::Greater)
        );
        assert_eq!(
            cmp(&Field::Float(1.5), &Literal::Int(2)),
            Some(Ordering::Less)
        );
        assert_eq!(cmp(&Field::Double(f64::NAN), &Literal::Int(2)), None);
        assert_eq!(
            cmp(&Field::Float16(0x3e00), &Literal::Float(1.5)),
            Some(Ordering::Equal)
        );
        let decimal = Field::Decimal {
            unscaled: -1205,
            scale: 2,
        };
        assert_eq!(cmp(&decimal, &Literal::Int(-12)), Some(Ordering::Less));
        assert_eq!(
            cmp(&decimal, &Literal::Float(-12.05)),
            Some(Ordering::Equal)
        );
        let huge_scale = Field::Decimal {
            unscaled: 1,
            scale: 60,
        };
        assert_eq!(cmp(&huge_scale, &Literal::Int(0)), None);
        assert_eq!(cmp(&Field::Date(3), &Literal::Int(4)), Some(Ordering::Less));
        assert_eq!(cmp(&Field::Date(3), &Literal::Float(4.0)), None);
        let time = Field::Time {
            value: 7,
            unit: TimeUnit::Millis,
        };
        assert_eq!(cmp(&time, &Literal::Int(7)), Some(Ordering::Equal));
        let timestamp = Field::Timestamp {
            value: 1 << 70,
            unit: TimeUnit::Nanos,
            utc: true,
        };
        assert_eq!(cmp(&timestamp, &Literal::Int(1)), Some(Ordering::Greater));
        assert_eq!(
            cmp(&Field::Str("b".into()), &"a".into()),
            Some(Ordering::Greater)
        );
        assert_eq!(cmp(&Field::Str("b".into()), &Literal::Int(1)), None);
        assert_eq!(
            cmp(&Field::Bytes(b"a".to_vec()), &"ab".into()),
            Some(Ordering::Less)
        );
        assert_eq!(
            cmp(&Field::Bool(true), &false.into()),
            Some(Ordering::Greater)
        );
        assert_eq!(cmp(&Field::Bool(true), &Literal::Int(1)), None);
        assert_eq!(cmp(&Field::Null, &Literal::Int(1)), None);
        assert_eq!(cmp(&Field::List(vec![]), &Literal::Int(1)), None);
    }

    #[test]
    fn ops_hold() {
        let all = [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge];
        let holding = |ordering| all.map(|op| op.holds(ordering));
        assert_eq!(
            holding(Ordering::Less),
            [false, true, true, true, false, false]
        );
        assert_eq!(
            holding(Ordering::Equal),
            [true, false, false, true, false, true]
        );
        assert_eq!(
            holding(Ordering::Greater),
            [false, true, false, false, true, true]
        );
    }

    #[test]
    fn ranges() {
        let (ten, twenty) = (Field::Int(10), Field::Int(20));
        let might = |op, v: i64| range_might_hold(Some(&ten), Some(&twenty), op, &v.into());
        assert!(might(Op::Eq, 10) && might(Op::Eq, 20) && !might(Op::Eq, 9) && !might(Op::Eq, 21));
        assert!(!might(Op::Lt, 10) && might(Op::Lt, 11));
        assert!(!might(Op::Le, 9) && might(Op::Le, 10));
        assert!(!might(Op::Gt, 20) && might(Op::Gt, 19));
        assert!(!might(Op::Ge, 21) && might(Op::Ge, 20));
        assert!(might(Op::Ne, 10));
        assert!(!range_might_hold(
            Some(&ten),
            Some(&ten),
            Op::Ne,
            &10.into()
        ));
        // Missing or incomparable bounds rule nothing out.
        assert!(range_might_hold(None, None, Op::Eq, &5.into()));
        assert!(range_might_hold(Some(&ten), None, Op::Gt, &100.into()));
        assert!(!range_might_hold(Some(&ten), None, Op::Lt, &5.into()));
        assert!(range_might_hold(
            Some(&ten),
            Some(&twenty),
            Op::Eq,
            &"x".into()
        ));
    }

    #[test]
    fn predicates_on_rows() {
        let row = Row::new(vec![
            (Arc::from("id"), Field::Int(12)),
            (Arc::from("name"), Field::Str("x".into())),
            (
                Arc::from("address"),
                Field::Group(vec![(Arc::from("city"), Field::Null)]),
            ),
            (Arc::from("a.b"), Field::Int(1)),
        ]);
        let city = ColumnPath::new(["address", "city"]);
        assert!(Predicate::compare("id", Op::Eq, 12).matches(&row));
        assert!(
            Predicate::compare("id", Op::Ge, 10)
                .and(Predicate::compare("name", Op::Eq, "x"))
                .matches(&row)
        );
        assert!(
            !Predicate::compare("id", Op::Lt, 0)
                .or(Predicate::compare("name", Op::Ne, "x"))
                .matches(&row)
        );
        assert!(Predicate::compare("id", Op::Gt, 12).negate().matches(&row));
        assert!(Predicate::is_null(city.clone()).matches(&row));
        assert!(!Predicate::is_not_null(city.clone()).matches(&row));
        assert!(Predicate::is_null("missing").matches(&row));
        assert!(!Predicate::compare(city.clone(), Op::Eq, 1).matches(&row));
        assert!(!Predicate::compare("name", Op::Eq, 12).matches(&row));
        assert!(Predicate::compare("a.b", Op::Eq, 1).matches(&row));
        assert!(!Predicate::compare(ColumnPath::new(["a", "b"]), Op::Eq, 1).matches(&row));
        let p = Predicate::is_null(city.clone()).or(Predicate::compare("id", Op::Eq, 1).negate());
        assert_eq!(p.columns(), [&city, &"id".into()]);
    }

    #[test]
    fn literals_from_values() {
        assert_eq!(Literal::from(3_i32), Literal::Int(3));
        assert_eq!(Literal::from(-3_i64), Literal::Int(-3));
        assert_eq!(Literal::from(0.5), Literal::Float(0.5));
        assert_eq!(Literal::from("s"), Literal::Str("s".into()));
        assert_eq!(Literal::from(String::from("t")), Literal::Str("t".into()));
        assert_eq!(Literal::from(true), Literal::Bool(true));
    }
}
