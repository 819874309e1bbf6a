//! What the statistics of a column chunk must say, from the values written: the bounds
//! by the column's sort order (NaN left out, a zero minimum written as -0 and a zero
//! maximum as +0, as parquet.thrift asks), the count of level entries without a value,
//! the distinct values; and the comparison with what pyarrow's `metadata` reads
//! (`peers.py`: `min_raw` and `max_raw`, the physical values).

use super::data::{DecimalStore, Leaf, LeafValues};
use parquet_file::Field;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// A physical value as pyarrow's `min_raw` gives it, made comparable: integers (DECIMALs
/// of any physical type by their unscaled value), floats (by bits: -0 is not +0), bytes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Raw {
    Bool(bool),
    Int(i128),
    Float(f64),
    Bytes(Vec<u8>),
}

impl Raw {
    fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Float(a), Self::Float(b)) => a.to_bits() == b.to_bits(),
            _ => self == other,
        }
    }
}

/// The physical value of `field` in a `leaf` column, and a key that sorts it by the
/// column's sort order (`None`: NaN, never a bound).
fn physical(leaf: Leaf, field: &Field) -> Option<(Raw, SortKey)> {
    let int = |v: i128| Some((Raw::Int(v), SortKey::Int(v)));
    match field {
        Field::Bool(b) => Some((Raw::Bool(*b), SortKey::Int(i128::from(*b)))),
        Field::Int(v) => int(i128::from(*v)),
        Field::UInt(u) => {
            // Stored as the signed integer of the same bits; sorted unsigned.
            let stored = match leaf {
                Leaf::Int { bits: 64, .. } => i128::from(u.cast_signed()),
                _ => i128::from(u32::try_from(*u).unwrap_or(0).cast_signed()),
            };
            Some((Raw::Int(stored), SortKey::Int(i128::from(*u))))
        }
        Field::Date(d) => int(i128::from(*d)),
        Field::Time { value, .. } => int(i128::from(*value)),
        Field::Timestamp { value, .. } => int(*value),
        Field::Decimal { unscaled, .. } => int(*unscaled),
        Field::Float(f) => float(f64::from(*f)),
        Field::Double(f) => float(*f),
        Field::Float16(bits) => {
            let value = half::f16::from_bits(*bits).to_f64();
            if value.is_nan() {
                return None;
            }
            Some((
                Raw::Bytes(bits.to_le_bytes().to_vec()),
                SortKey::Float(value),
            ))
        }
        Field::Str(s) => Some(bytes(s.as_bytes())),
        Field::Bytes(b) => Some(bytes(b)),
        Field::Uuid(u) => Some(bytes(u)),
        _ => None,
    }
}

fn float(value: f64) -> Option<(Raw, SortKey)> {
    (!value.is_nan()).then_some((Raw::Float(value), SortKey::Float(value)))
}

fn bytes(b: &[u8]) -> (Raw, SortKey) {
    (Raw::Bytes(b.to_vec()), SortKey::Bytes(b.to_vec()))
}

#[derive(Debug, Clone, PartialEq, PartialOrd)]
enum SortKey {
    Int(i128),
    Float(f64),
    Bytes(Vec<u8>),
}

/// A zero bound as parquet.thrift wants it: -0 for a minimum, +0 for a maximum.
fn signed_zero(raw: Raw, minimum: bool) -> Raw {
    match raw {
        // A float pattern compares with `==`: it matches both zeros.
        Raw::Float(0.0) => Raw::Float(if minimum { -0.0 } else { 0.0 }),
        Raw::Bytes(b) if b.len() == 2 && (b == [0, 0] || b == [0, 0x80]) => {
            Raw::Bytes(if minimum { vec![0, 0x80] } else { vec![0, 0] })
        }
        other => other,
    }
}

/// The bounds of `values` in a `leaf` column, or `None` when it has none (no value but
/// NaN, or INT96, whose order is undefined).
fn bounds(leaf: Leaf, values: &[Field]) -> Option<(Raw, Raw)> {
    if leaf == Leaf::Int96 {
        return None;
    }
    let mut keyed: Vec<(Raw, SortKey)> = values.iter().filter_map(|v| physical(leaf, v)).collect();
    let order =
        |a: &(Raw, SortKey), b: &(Raw, SortKey)| a.1.partial_cmp(&b.1).unwrap_or(Ordering::Equal);
    keyed.sort_by(order);
    let min = keyed.first()?.0.clone();
    let max = keyed.last()?.0.clone();
    Some((signed_zero(min, true), signed_zero(max, false)))
}

/// A bound as pyarrow reads it (`peers.py`'s JSON of `min_raw`), as a [`Raw`] of `leaf`.
fn read_bound(leaf: Leaf, value: &Value) -> Result<Raw, String> {
    let bad = || format!("a bound pyarrow gave as {value}");
    Ok(match value {
        Value::Bool(b) => Raw::Bool(*b),
        Value::Number(n) => Raw::Int(
            n.as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from))
                .ok_or_else(bad)?,
        ),
        Value::String(s) => Raw::Float(match s.as_str() {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            _ => return Err(bad()),
        }),
        Value::Object(map) => {
            if let Some(text) = map.get("float").and_then(Value::as_str) {
                Raw::Float(text.parse().map_err(|_| bad())?)
            } else if let Some(text) = map.get("base64").and_then(Value::as_str) {
                let bytes = super::json::unbase64(text).ok_or_else(bad)?;
                match leaf {
                    Leaf::Decimal {
                        store: DecimalStore::Fixed(_) | DecimalStore::Bytes,
                        ..
                    } => Raw::Int(be_integer(&bytes).ok_or_else(bad)?),
                    _ => Raw::Bytes(bytes),
                }
            } else {
                return Err(bad());
            }
        }
        _ => return Err(bad()),
    })
}

/// A big-endian two's complement integer of up to 16 bytes.
fn be_integer(bytes: &[u8]) -> Option<i128> {
    if bytes.is_empty() || bytes.len() > 16 {
        return None;
    }
    let fill = if bytes[0] & 0x80 != 0 { 0xFF } else { 0 };
    let mut word = [fill; 16];
    word[16 - bytes.len()..].copy_from_slice(bytes);
    Some(i128::from_be_bytes(word))
}

/// What the statistics of one chunk must say.
pub(crate) struct Expected<'a> {
    pub(crate) leaf: Leaf,
    pub(crate) values: &'a LeafValues,
    /// Whether the chunk must have a distinct count: the writer was asked for them, and
    /// the chunk is wholly dictionary-encoded (FLOAT and DOUBLE aside, whose dictionary
    /// entries are bit patterns rather than values). A chunk may have one otherwise,
    /// when it was asked for, but then it must be right too.
    pub(crate) distinct_count: Option<bool>,
    /// The length bounds of byte arrays were truncated to, if they were.
    pub(crate) truncate: Option<usize>,
}

/// Whether a leaf's bounds are byte arrays compared as unsigned bytes, which a writer
/// may truncate (a FIXED_LEN_BYTE_ARRAY bound must keep its length: parquet.thrift wants
/// bounds that are valid values of the column's type).
fn truncatable(leaf: Leaf) -> bool {
    matches!(
        leaf,
        Leaf::Str | Leaf::Words | Leaf::SerialKey | Leaf::Binary | Leaf::Enum | Leaf::Json
    )
}

/// Whether `got` may stand for the bound `want` (`minimum` or not): the same, or, where
/// `want` is longer than `truncate` bytes, a bound of at most that length on the right
/// side of it.
fn fits(want: &Raw, got: &Raw, minimum: bool, truncate: Option<usize>) -> bool {
    match (want, got, truncate) {
        (Raw::Bytes(w), Raw::Bytes(g), Some(length)) if w.len() > length => {
            g.len() <= length && if minimum { g <= w } else { g >= w }
        }
        _ => got.same(want),
    }
}

/// Compares pyarrow's statistics of a chunk (`peers.py`'s `"statistics"`) with what the
/// values say; what differs.
pub(crate) fn compare(expected: &Expected<'_>, read: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let nulls = read["null_count"].as_u64();
    if nulls != Some(expected.values.nulls) {
        problems.push(format!(
            "null_count {nulls:?}, the data has {} level entries without a value",
            expected.values.nulls
        ));
    }
    let has_min_max = read["has_min_max"].as_bool().unwrap_or(false);
    let truncate = expected.truncate.filter(|_| truncatable(expected.leaf));
    match bounds(expected.leaf, &expected.values.values) {
        None if has_min_max => problems.push(format!(
            "bounds {} .. {} where the data has none (INT96, or nothing but NaN and nulls)",
            read["min"], read["max"]
        )),
        None => {}
        // A maximum whose kept bytes are all 0xFF cannot be rounded up: left out.
        Some((_, Raw::Bytes(max)))
            if !has_min_max
                && truncate
                    .is_some_and(|l| max.len() > l && max.iter().take(l).all(|&b| b == 0xFF)) => {}
        Some(_) if !has_min_max => problems.push("no bounds".to_owned()),
        Some((min, max)) => {
            for (which, want) in [("min", min), ("max", max)] {
                match read_bound(expected.leaf, &read[which]) {
                    Ok(got) if fits(&want, &got, which == "min", truncate) => {}
                    Ok(got) => problems.push(format!("{which} {got:?}, the data's is {want:?}")),
                    Err(e) => problems.push(format!("{which}: {e}")),
                }
            }
        }
    }
    let distinct = distinct(expected.leaf, &expected.values.values);
    match (read["distinct_count"].as_u64(), expected.distinct_count) {
        (Some(count), None) => {
            problems.push(format!("a distinct_count ({count}) that was not asked for"));
        }
        (Some(count), Some(_)) if distinct != Some(count) => problems.push(format!(
            "distinct_count {count}, the data has {distinct:?} distinct values"
        )),
        (None, Some(true)) => problems.push(format!(
            "no distinct_count, though asked for and the chunk is dictionary-encoded \
             ({distinct:?} distinct values)"
        )),
        _ => {}
    }
    problems
}

/// The distinct non-null values, for the types whose dictionary entries are distinct
/// values (not FLOAT or DOUBLE).
fn distinct(leaf: Leaf, values: &[Field]) -> Option<u64> {
    if matches!(leaf, Leaf::Float | Leaf::Double) {
        return None;
    }
    let set: BTreeSet<String> = values.iter().map(|v| format!("{v:?}")).collect();
    u64::try_from(set.len()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_the_sort_order() {
        let floats = [Field::Float(f32::NAN), Field::Float(0.0), Field::Float(3.0)];
        assert_eq!(
            bounds(Leaf::Float, &floats),
            Some((Raw::Float(-0.0), Raw::Float(3.0)))
        );
        let unsigned = [Field::UInt(1), Field::UInt(u64::from(u32::MAX))];
        assert_eq!(
            bounds(
                Leaf::Int {
                    bits: 32,
                    signed: false
                },
                &unsigned
            ),
            Some((Raw::Int(1), Raw::Int(-1)))
        );
        let text = [
            Field::Str("b".into()),
            Field::Str("é".into()),
            Field::Str("a".into()),
        ];
        assert_eq!(
            bounds(Leaf::Str, &text),
            Some((
                Raw::Bytes(b"a".to_vec()),
                Raw::Bytes("é".as_bytes().to_vec())
            ))
        );
        assert_eq!(bounds(Leaf::Int96, &[Field::Int(1)]), None);
        assert_eq!(be_integer(&[0xFF, 0x38]), Some(-200));
    }

    #[test]
    fn pyarrows_statistics_are_compared_with_the_data() {
        let values = LeafValues {
            values: vec![Field::Str("b".into()), Field::Str("abcdefghij".into())],
            nulls: 2,
        };
        let expected = |truncate| Expected {
            leaf: Leaf::Str,
            values: &values,
            distinct_count: None,
            truncate,
        };
        let read = |min: &str, max: &str, nulls: u64| {
            serde_json::json!({
                "has_min_max": true,
                "min": {"base64": super::super::json::base64(min.as_bytes())},
                "max": {"base64": super::super::json::base64(max.as_bytes())},
                "null_count": nulls,
                "distinct_count": null,
            })
        };
        assert!(compare(&expected(None), &read("abcdefghij", "b", 2)).is_empty());
        let problems = compare(&expected(None), &read("abcdefghij", "b", 3));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(compare(&expected(None), &read("abc", "b", 2)).len(), 1);
        // Truncated to 3 bytes: a shorter lower bound is right, a longer one is not.
        assert!(compare(&expected(Some(3)), &read("abc", "b", 2)).is_empty());
        assert_eq!(compare(&expected(Some(3)), &read("abcd", "b", 2)).len(), 1);
        assert_eq!(compare(&expected(Some(3)), &read("abd", "b", 2)).len(), 1);
    }
}
