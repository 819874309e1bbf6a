//! Dremel shredding: rows of [`Field`]s into the values and levels of each leaf column,
//! by the same plan that assembles them when reading (so what is written reads back as
//! it was given).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use parquet_core::Int96;

use super::{Assembly, Plan, Row};
use crate::column::ColumnBatch;
use crate::error::{Error, Result};
use crate::schema::{ColumnDescriptor, LogicalType, Schema};
use crate::value::{ColumnValues, Field};

/// Shreds rows of one schema into one [`ColumnBatch`] per leaf column.
#[derive(Debug, Clone)]
pub(crate) struct Shredder {
    plan: Vec<(Arc<str>, Plan)>,
    columns: Vec<ColumnDescriptor>,
}

/// Where one level entry goes.
#[derive(Clone, Copy)]
struct Entry {
    def: u16,
    rep: u16,
}

impl Shredder {
    pub(crate) fn new(schema: &Schema) -> Self {
        let all: Vec<usize> = (0..schema.columns().len()).collect();
        Self {
            plan: Assembly::new(schema, &all).plan,
            columns: schema.columns().to_vec(),
        }
    }

    /// Empty batches, one per leaf column.
    pub(crate) fn batches(&self) -> Vec<ColumnBatch> {
        self.columns.iter().map(ColumnBatch::new).collect()
    }

    /// Appends `row` to `batches`. On error the batches are as they were.
    pub(crate) fn shred(&self, row: &Row, batches: &mut [ColumnBatch]) -> Result<()> {
        let marks: Vec<_> = batches.iter().map(ColumnBatch::mark).collect();
        let entry = Entry { def: 0, rep: 0 };
        let result = self.shred_fields(&self.plan, row.fields(), entry, batches, "schema");
        if result.is_err() {
            for (batch, mark) in batches.iter_mut().zip(marks) {
                batch.truncate(mark);
            }
        }
        result
    }

    /// Shreds `field` (`None` when absent) by `plan`, its parent present at `at.def`.
    fn shred_field(
        &self,
        plan: &Plan,
        field: Option<&Field>,
        at: Entry,
        batches: &mut [ColumnBatch],
    ) -> Result<()> {
        let field = field.filter(|f| !matches!(f, Field::Null));
        match plan {
            Plan::Primitive(leaf) => {
                let (Some(column), Some(batch)) = (self.columns.get(*leaf), batches.get_mut(*leaf))
                else {
                    return Ok(());
                };
                let Some(field) = field else {
                    return Err(Error::input(format!(
                        "no value for the required field {}",
                        column.path
                    )));
                };
                push_value(batch.values_mut(), column, field)?;
                batch.push_level(column, at.def, at.rep);
                Ok(())
            }
            Plan::Optional { def, inner, .. } => match field {
                None => self.nulls(
                    inner,
                    Entry {
                        def: *def,
                        rep: at.rep,
                    },
                    batches,
                ),
                Some(field) => self.shred_field(
                    inner,
                    Some(field),
                    Entry {
                        def: def + 1,
                        rep: at.rep,
                    },
                    batches,
                ),
            },
            Plan::Group(fields) => {
                let children = match field {
                    Some(Field::Group(children)) => children.as_slice(),
                    Some(other) => return Err(mismatch(other, "a group")),
                    None => &[],
                };
                self.shred_fields(fields, children, at, batches, "group")
            }
            Plan::Repeated { def, rep, inner } => {
                let items: Vec<&Field> = match field {
                    Some(Field::List(items)) => items.iter().collect(),
                    // A map read without values is a list of its keys.
                    Some(Field::Map(pairs)) => pairs.iter().map(|(k, _)| k).collect(),
                    Some(other) => return Err(mismatch(other, "a list")),
                    None => Vec::new(),
                };
                self.repeat(
                    plan,
                    (*def, *rep),
                    at,
                    &items,
                    batches,
                    |item, entry, batches| self.shred_field(inner, Some(item), entry, batches),
                )
            }
            Plan::KeyValue {
                def,
                rep,
                key,
                value,
            } => {
                let pairs = match field {
                    Some(Field::Map(pairs)) => pairs.as_slice(),
                    Some(other) => return Err(mismatch(other, "a map")),
                    None => &[],
                };
                self.repeat(
                    plan,
                    (*def, *rep),
                    at,
                    pairs,
                    batches,
                    |(k, v), entry, batches| {
                        self.shred_field(key, Some(k), entry, batches)?;
                        match value {
                            Some(value) => self.shred_field(value, Some(v), entry, batches),
                            None => Ok(()),
                        }
                    },
                )
            }
        }
    }

    /// Shreds the `given` fields of a row or group (`what`) by the `plans` of its
    /// schema's fields, matched by name; a plan's field not given is null, a given field
    /// without a plan an error. Fields given in the schema's order (as readers make
    /// them) are matched in one pass; others by a map, so that a row of 200,000 fields
    /// costs no more than 200,000 lookups either way.
    fn shred_fields(
        &self,
        plans: &[(Arc<str>, Plan)],
        given: &[(Arc<str>, Field)],
        at: Entry,
        batches: &mut [ColumnBatch],
        what: &str,
    ) -> Result<()> {
        // Whether `given` is the plans' fields in their order, some perhaps left out.
        let mut matched = 0;
        for (name, _) in plans {
            if given.get(matched).is_some_and(|(n, _)| n == name) {
                matched += 1;
            }
        }
        if matched == given.len() {
            let mut given = given.iter().peekable();
            return plans.iter().try_for_each(|(name, plan)| {
                let field = given.next_if(|(n, _)| n == name).map(|(_, f)| f);
                self.shred_field(plan, field, at, batches)
            });
        }
        let known: HashSet<&str> = plans.iter().map(|(name, _)| &**name).collect();
        if let Some((name, _)) = given.iter().find(|(name, _)| !known.contains(&**name)) {
            return Err(Error::input(format!(
                "a field {name:?} that the {what} does not have"
            )));
        }
        // The first of fields given twice is taken, as a row's `get` takes it.
        let mut by_name = HashMap::with_capacity(given.len());
        for (name, field) in given {
            by_name.entry(&**name).or_insert(field);
        }
        plans.iter().try_for_each(|(name, plan)| {
            let field = by_name.get(&**name).copied();
            self.shred_field(plan, field, at, batches)
        })
    }

    /// Shreds the elements of a list or map (`plan`, whose repeated field is defined
    /// above `def` and repeats above `rep`) with `each`; an empty or null one is an entry
    /// without a value.
    fn repeat<T>(
        &self,
        plan: &Plan,
        (def, rep): (u16, u16),
        at: Entry,
        items: &[T],
        batches: &mut [ColumnBatch],
        each: impl Fn(&T, Entry, &mut [ColumnBatch]) -> Result<()>,
    ) -> Result<()> {
        if items.is_empty() {
            return self.nulls(plan, Entry { def, rep: at.rep }, batches);
        }
        for (i, item) in items.iter().enumerate() {
            let entry = Entry {
                def: def + 1,
                rep: if i == 0 { at.rep } else { rep + 1 },
            };
            each(item, entry, batches)?;
        }
        Ok(())
    }

    /// One entry without a value in every leaf under `plan`.
    fn nulls(&self, plan: &Plan, at: Entry, batches: &mut [ColumnBatch]) -> Result<()> {
        plan.for_each_leaf(&mut |leaf| {
            if let (Some(column), Some(batch)) = (self.columns.get(leaf), batches.get_mut(leaf)) {
                batch.push_level(column, at.def, at.rep);
            }
            Ok(())
        })
    }
}

impl ColumnBatch {
    /// Appends one record of a column that is neither repeated nor under a group that
    /// may be null (a top-level field of a flat schema): `field`, or a null
    /// ([`Field::Null`]), stored as [`FileWriter::write_row`](crate::FileWriter::write_row)
    /// stores that field of a row, without building the row. A column's batch built so
    /// goes to [`FileWriter::write_batches`](crate::FileWriter::write_batches) with the
    /// other columns' of as many records.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) for a repeated or
    /// nested column, a null for a required column, or a value the column does not
    /// store; nothing is appended then.
    pub fn push_field(&mut self, column: &ColumnDescriptor, field: &Field) -> Result<()> {
        if column.max_rep_level > 0 || column.max_def_level > 1 {
            return Err(Error::input(format!(
                "push_field takes a column neither repeated nor nested, not {}",
                column.path
            )));
        }
        if matches!(field, Field::Null) {
            if column.max_def_level == 0 {
                return Err(Error::input(format!(
                    "no value for the required field {}",
                    column.path
                )));
            }
            self.push_level(column, 0, 0);
        } else {
            push_value(self.values_mut(), column, field)?;
            self.push_level(column, column.max_def_level, 0);
        }
        Ok(())
    }
}

/// A field's kind with its article, for errors.
fn kind(field: &Field) -> &'static str {
    match field {
        Field::Null => "null",
        Field::Bool(_) => "a boolean",
        Field::Int(_) => "an integer",
        Field::UInt(_) => "an unsigned integer",
        Field::Float(_) => "a float",
        Field::Double(_) => "a double",
        Field::Float16(_) => "a float16",
        Field::Decimal { .. } | Field::WideDecimal { .. } => "a decimal",
        Field::Date(_) => "a date",
        Field::Time { .. } => "a time",
        Field::Timestamp { .. } => "a timestamp",
        Field::Str(_) => "a string",
        Field::Bytes(_) => "a byte array",
        Field::Uuid(_) => "a UUID",
        Field::List(_) => "a list",
        Field::Map(_) => "a map",
        Field::Group(_) => "a group",
    }
}

fn mismatch(field: &Field, expected: &str) -> Error {
    Error::input(format!("{} where the schema has {expected}", kind(field)))
}

/// Appends `field` to `values` as `column`'s physical type stores it.
fn push_value(values: &mut ColumnValues, column: &ColumnDescriptor, field: &Field) -> Result<()> {
    let refuse = || {
        Error::input(format!(
            "{} does not fit the column {} ({}{})",
            kind(field),
            column.path,
            column.physical_type,
            match column.logical_type {
                LogicalType::None => String::new(),
                ref logical => format!(" {logical}"),
            }
        ))
    };
    let logical = &column.logical_type;
    let push_bytes = |v: &mut dyn FnMut(&[u8]) -> parquet_core::Result<()>, bytes: &[u8]| {
        v(bytes).map_err(|e| Error::input(format!("{}: {e}", column.path)))
    };
    match (values, field) {
        (ColumnValues::Boolean(v), Field::Bool(b)) => v.push(*b),
        (ColumnValues::Int32(v), _) => v.push(int32(field, logical).ok_or_else(refuse)?),
        (ColumnValues::Int64(v), _) => v.push(int64(field, logical).ok_or_else(refuse)?),
        (ColumnValues::Int96(v), Field::Timestamp { value, unit, .. }) => v.push(
            value
                .checked_mul(i128::from(1_000_000_000 / unit.per_second()))
                .and_then(int96)
                .ok_or_else(refuse)?,
        ),
        (ColumnValues::Float(v), Field::Float(f)) => v.push(*f),
        (ColumnValues::Double(v), Field::Double(f)) => v.push(*f),
        (ColumnValues::ByteArray(v), _) => {
            let bytes = bytes(field, logical, None).ok_or_else(refuse)?;
            push_bytes(&mut |b| v.push(b), &bytes)?;
        }
        (ColumnValues::FixedLenByteArray(v), _) => {
            let width = column.type_length;
            let bytes = bytes(field, logical, Some(width))
                .filter(|b| b.len() == width)
                .ok_or_else(refuse)?;
            push_bytes(&mut |b| v.push(b), &bytes)?;
        }
        _ => return Err(refuse()),
    }
    Ok(())
}

/// Whether a decimal of scale `scale` fits the column's.
fn same_scale(scale: u32, logical: &LogicalType) -> bool {
    matches!(logical, LogicalType::Decimal { scale: s, .. } if i64::from(scale) == i64::from(*s))
}

/// The INT32 that stores `field` under `logical`.
fn int32(field: &Field, logical: &LogicalType) -> Option<i32> {
    let value = match (field, logical) {
        (Field::Int(i), LogicalType::Integer { bits, signed: true }) => fits_signed(*i, *bits)?,
        (
            Field::UInt(u),
            LogicalType::Integer {
                bits,
                signed: false,
            },
        ) => fits_unsigned(*u, *bits)?,
        (Field::Int(i), LogicalType::None) => *i,
        (Field::Date(d), LogicalType::Date) => i64::from(*d),
        (Field::Time { value, unit }, LogicalType::Time { unit: u, .. }) if unit == u => *value,
        (Field::Decimal { unscaled, scale }, _) if same_scale(*scale, logical) => {
            i64::try_from(*unscaled).ok()?
        }
        _ => return None,
    };
    i32::try_from(value).ok()
}

/// The INT64 that stores `field` under `logical`.
fn int64(field: &Field, logical: &LogicalType) -> Option<i64> {
    match (field, logical) {
        (Field::Int(i), LogicalType::None | LogicalType::Integer { signed: true, .. }) => Some(*i),
        (Field::UInt(u), LogicalType::Integer { signed: false, .. }) => Some(u.cast_signed()),
        (Field::Time { value, unit }, LogicalType::Time { unit: u, .. }) if unit == u => {
            Some(*value)
        }
        (Field::Timestamp { value, unit, .. }, LogicalType::Timestamp { unit: u, .. })
            if unit == u =>
        {
            i64::try_from(*value).ok()
        }
        (Field::Decimal { unscaled, scale }, _) if same_scale(*scale, logical) => {
            i64::try_from(*unscaled).ok()
        }
        _ => None,
    }
}

/// The bytes that store `field` under `logical` (`width` of them for a fixed length).
fn bytes(field: &Field, logical: &LogicalType, width: Option<usize>) -> Option<Vec<u8>> {
    let fit = |bytes: Vec<u8>| match width {
        Some(width) => sign_extend(&bytes, width),
        None => Some(bytes),
    };
    match field {
        Field::Str(s) => Some(s.as_bytes().to_vec()),
        Field::Bytes(b) => Some(b.clone()),
        Field::Uuid(u) if width.is_some() => Some(u.to_vec()),
        Field::Float16(bits) if width.is_some() => Some(bits.to_le_bytes().to_vec()),
        Field::Decimal { unscaled, scale } if same_scale(*scale, logical) => {
            fit(minimal_be(*unscaled))
        }
        Field::WideDecimal { unscaled, scale } if same_scale(*scale, logical) => {
            fit(unscaled.clone())
        }
        _ => None,
    }
}

fn fits_signed(value: i64, bits: u8) -> Option<i64> {
    let shift = 64 - u32::from(bits);
    (value << shift >> shift == value).then_some(value)
}

/// An unsigned value of `bits` bits as the signed integer that stores it.
fn fits_unsigned(value: u64, bits: u8) -> Option<i64> {
    if bits < 64 && value >> bits != 0 {
        return None;
    }
    // UINT_32 is stored as the INT32 of the same bits.
    Some(match bits {
        32 => i64::from(u32::try_from(value).ok()?.cast_signed()),
        64 => value.cast_signed(),
        _ => i64::try_from(value).ok()?,
    })
}

/// The fewest big-endian two's complement bytes of `value`.
fn minimal_be(value: i128) -> Vec<u8> {
    let bytes = value.to_be_bytes();
    let negative = value < 0;
    let fill = if negative { 0xFF } else { 0 };
    let mut start = 0;
    while start < 15
        && bytes.get(start) == Some(&fill)
        && bytes
            .get(start + 1)
            .is_some_and(|b| (b & 0x80 != 0) == negative)
    {
        start += 1;
    }
    bytes.get(start..).unwrap_or_default().to_vec()
}

/// `bytes` (big-endian two's complement) widened or narrowed to `width` bytes, when the
/// value fits.
fn sign_extend(bytes: &[u8], width: usize) -> Option<Vec<u8>> {
    let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let fill = if negative { 0xFF } else { 0 };
    if bytes.len() <= width {
        let mut out = vec![fill; width - bytes.len()];
        out.extend_from_slice(bytes);
        return Some(out);
    }
    let (high, tail) = bytes.split_at(bytes.len() - width);
    let sign_kept = tail.first().is_some_and(|b| (b & 0x80 != 0) == negative);
    (high.iter().all(|&b| b == fill) && sign_kept).then(|| tail.to_vec())
}

/// An INT96 timestamp of `nanos` since the epoch.
fn int96(nanos: i128) -> Option<Int96> {
    const NANOS_PER_DAY: i128 = 86_400_000_000_000;
    const JULIAN_EPOCH: i128 = 2_440_588;
    let day = nanos.div_euclid(NANOS_PER_DAY) + JULIAN_EPOCH;
    let of_day = nanos.rem_euclid(NANOS_PER_DAY);
    Some(Int96::from_timestamp_parts(
        i64::try_from(of_day).ok()?,
        i32::try_from(day).ok()?,
    ))
}
