//! `--timestamp-unit`: every timestamp written to Parquet in one unit, as pyarrow's
//! `coerce_timestamps` writes them. TIMESTAMP columns of any unit and INT96 columns become
//! INT64 TIMESTAMP in that unit (an INT96 not adjusted to UTC, as it is read); a value with
//! digits below the unit, or past 64 bits in it, is an error naming it: nothing is
//! rounded away.
//!
//! Spark reads TIMESTAMP(MILLIS) and TIMESTAMP(MICROS) and by default refuses
//! TIMESTAMP(NANOS), which is also limited to the years 1677 to 2262: so ORC's
//! nanosecond timestamps go to Parquet in microseconds unless the flag says otherwise.

use clap::ValueEnum;
use parquet_file::{
    ColumnBatch, ColumnDescriptor, ColumnValues, Field, LogicalType, PhysicalType, Row, Schema,
    TimeUnit,
};

use crate::Failure;

/// The units of `--timestamp-unit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Unit {
    /// Milliseconds.
    Ms,
    /// Microseconds.
    Us,
    /// Nanoseconds.
    Ns,
}

impl From<Unit> for TimeUnit {
    fn from(unit: Unit) -> Self {
        match unit {
            Unit::Ms => Self::Millis,
            Unit::Us => Self::Micros,
            Unit::Ns => Self::Nanos,
        }
    }
}

/// The flag's spelling of `unit`.
fn flag(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Millis => "ms",
        TimeUnit::Micros => "us",
        TimeUnit::Nanos => "ns",
    }
}

fn name(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Millis => "milliseconds",
        TimeUnit::Micros => "microseconds",
        TimeUnit::Nanos => "nanoseconds",
    }
}

/// Why a timestamp does not go to another unit.
#[derive(Debug, PartialEq, Eq)]
enum Lost {
    /// It has digits below the unit.
    Digits,
    /// It is past 64 bits in the unit.
    Range,
}

/// What is wrong with the timestamp `value` (of `from` units) in `to` units, and what
/// to give instead.
fn lost(value: i128, from: TimeUnit, utc: bool, to: TimeUnit, why: &Lost) -> String {
    let mut text = String::new();
    crate::format::json(
        &Field::Timestamp {
            value,
            unit: from,
            utc,
        },
        &mut text,
    );
    match why {
        Lost::Digits => format!(
            "timestamp {text} has digits below {}; give --timestamp-unit {} to keep them",
            name(to),
            flag(from)
        ),
        Lost::Range => format!(
            "timestamp {text} is past 64 bits in {}; give --timestamp-unit {}",
            name(to),
            flag(from)
        ),
    }
}

fn per_second(unit: TimeUnit) -> i128 {
    match unit {
        TimeUnit::Millis => 1_000,
        TimeUnit::Micros => 1_000_000,
        TimeUnit::Nanos => 1_000_000_000,
    }
}

/// The type of `column` in `unit`: `None` when it is not a timestamp, or already one in
/// that unit.
fn retyped(column: &ColumnDescriptor, unit: TimeUnit) -> Option<LogicalType> {
    let utc = match (column.physical_type, &column.logical_type) {
        (PhysicalType::Int96, _) => false,
        (PhysicalType::Int64, &LogicalType::Timestamp { unit: from, utc }) if from != unit => utc,
        _ => return None,
    };
    Some(LogicalType::Timestamp { unit, utc })
}

/// `schema` with its timestamp columns in `unit`.
///
/// # Errors
///
/// None in practice: the schema is `schema` but for those columns' types.
pub(crate) fn schema(schema: &Schema, unit: TimeUnit) -> Result<Schema, Failure> {
    let changed = schema
        .columns()
        .iter()
        .enumerate()
        .filter_map(|(c, column)| Some((c, PhysicalType::Int64, retyped(column, unit)?)));
    Ok(schema.with_column_types(changed)?)
}

/// `value`, counted in `from` units, counted in `to` (within 64 bits).
fn rescale(value: i128, from: TimeUnit, to: TimeUnit) -> Result<i64, Lost> {
    let (from, to) = (per_second(from), per_second(to));
    let scaled = if to >= from {
        value.checked_mul(to / from)
    } else if value % (from / to) == 0 {
        Some(value / (from / to))
    } else {
        return Err(Lost::Digits);
    };
    scaled
        .and_then(|v| i64::try_from(v).ok())
        .ok_or(Lost::Range)
}

/// `row` with every timestamp in `unit`.
///
/// # Errors
///
/// A timestamp with digits below the unit, or past 64 bits in it, named with its field.
pub(crate) fn row(row: Row, unit: TimeUnit) -> Result<Row, String> {
    row.into_fields()
        .into_iter()
        .map(|(name, field)| {
            let field = value(field, unit).map_err(|e| format!("field {name}{e}"))?;
            Ok((name, field))
        })
        .collect::<Result<Vec<_>, String>>()
        .map(Row::new)
}

/// `field` with every timestamp in it in `to` units; errors go after the field's path.
pub(crate) fn value(field: Field, to: TimeUnit) -> Result<Field, String> {
    Ok(match field {
        Field::Timestamp { value, unit, utc } => {
            let scaled = rescale(value, unit, to)
                .map_err(|why| format!(": {}", lost(value, unit, utc, to, &why)))?;
            Field::Timestamp {
                value: scaled.into(),
                unit: to,
                utc,
            }
        }
        Field::List(items) => Field::List(
            items
                .into_iter()
                .enumerate()
                .map(|(i, f)| value(f, to).map_err(|e| format!("[{i}]{e}")))
                .collect::<Result<_, _>>()?,
        ),
        Field::Map(pairs) => Field::Map(
            pairs
                .into_iter()
                .map(|(k, v)| Ok((value(k, to)?, value(v, to)?)))
                .collect::<Result<_, String>>()?,
        ),
        Field::Group(fields) => Field::Group(
            fields
                .into_iter()
                .map(|(name, f)| {
                    let f = value(f, to).map_err(|e| format!(".{name}{e}"))?;
                    Ok((name, f))
                })
                .collect::<Result<_, String>>()?,
        ),
        other => other,
    })
}

/// A column's batches, converted to the column's type in the retyped schema.
pub(crate) struct Converter {
    /// The column as read.
    from: ColumnDescriptor,
    /// The column as written.
    to: ColumnDescriptor,
}

impl Converter {
    /// The converters of the columns of `read` that `written` (from [`schema`]) retypes.
    pub(crate) fn of(read: &Schema, written: &Schema) -> Vec<Option<Self>> {
        read.columns()
            .iter()
            .zip(written.columns())
            .map(|(from, to)| {
                (from.physical_type != to.physical_type || from.logical_type != to.logical_type)
                    .then(|| Self {
                        from: from.clone(),
                        to: to.clone(),
                    })
            })
            .collect()
    }

    /// `batch` (of the column as read) as a batch of the column as written; `batch` is
    /// left without its values, to be cleared and read into again.
    ///
    /// # Errors
    ///
    /// A value with digits below the unit, or past 64 bits in it.
    pub(crate) fn convert(&self, batch: &mut ColumnBatch) -> Result<ColumnBatch, Failure> {
        let LogicalType::Timestamp { unit: to, .. } = self.to.logical_type else {
            return Err(Failure::File(format!(
                "column {}: not a timestamp",
                self.to.path
            )));
        };
        let def = batch.def_levels().to_vec();
        let rep = batch.rep_levels().to_vec();
        let values: Vec<(i128, TimeUnit)> = match batch.take_values() {
            ColumnValues::Int96(v) => v
                .iter()
                .map(|t| (t.to_spark_nanos(), TimeUnit::Nanos))
                .collect(),
            ColumnValues::Int64(v) => {
                let LogicalType::Timestamp { unit, .. } = self.from.logical_type else {
                    return Err(Failure::File(format!(
                        "column {}: not a timestamp",
                        self.from.path
                    )));
                };
                v.into_iter().map(|x| (i128::from(x), unit)).collect()
            }
            _ => {
                return Err(Failure::File(format!(
                    "column {}: not a timestamp",
                    self.from.path
                )));
            }
        };
        let converted = values
            .into_iter()
            .map(|(value, from)| {
                rescale(value, from, to).map_err(|why| {
                    Failure::File(format!(
                        "column {}: {}",
                        self.from.path,
                        lost(value, from, false, to, &why)
                    ))
                })
            })
            .collect::<Result<Vec<i64>, Failure>>()?;
        Ok(ColumnBatch::try_new(
            &self.to,
            ColumnValues::Int64(converted),
            def,
            rep,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_scale_exactly_or_not_at_all() {
        let (ms, us, ns) = (TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos);
        assert_eq!(rescale(1_500, ms, us), Ok(1_500_000));
        assert_eq!(rescale(-2_000_000_000, ns, us), Ok(-2_000_000));
        assert_eq!(rescale(-2_000_000_001, ns, us), Err(Lost::Digits));
        assert_eq!(rescale(i128::from(i64::MAX), ms, ns), Err(Lost::Range));
        // A nanosecond timestamp of the year 3000, past 64-bit nanoseconds, fits microseconds.
        let year_3000 = 32_503_680_000_000_000_000_i128;
        assert!(i64::try_from(year_3000).is_err());
        assert_eq!(rescale(year_3000, ns, us), Ok(32_503_680_000_000_000));
    }

    #[test]
    fn schemas_retype_timestamps_and_int96() {
        let schema = Schema::parse(
            "message m { optional int96 legacy; optional int64 ns (TIMESTAMP(NANOS,true)); \
             optional int64 us (TIMESTAMP(MICROS,false)); required int64 id; }",
        )
        .unwrap();
        let us = schema.clone();
        let retyped = super::schema(&us, TimeUnit::Micros).unwrap();
        let types: Vec<_> = retyped
            .columns()
            .iter()
            .map(|c| (c.physical_type, c.logical_type.clone()))
            .collect();
        let micros = |utc| LogicalType::Timestamp {
            unit: TimeUnit::Micros,
            utc,
        };
        assert_eq!(
            types,
            [
                (PhysicalType::Int64, micros(false)),
                (PhysicalType::Int64, micros(true)),
                (PhysicalType::Int64, micros(false)),
                (PhysicalType::Int64, LogicalType::None),
            ]
        );
        let converters = Converter::of(&schema, &retyped);
        let which: Vec<bool> = converters.iter().map(Option::is_some).collect();
        assert_eq!(which, [true, true, false, false]);
    }

    #[test]
    fn rows_name_the_value_that_does_not_fit() {
        let row = Row::new(vec![(
            "t".into(),
            Field::List(vec![Field::Timestamp {
                value: 1_000_000_001,
                unit: TimeUnit::Nanos,
                utc: true,
            }]),
        )]);
        let error = super::row(row, TimeUnit::Micros).unwrap_err();
        assert_eq!(
            error,
            "field t[0]: timestamp \"1970-01-01T00:00:01.000000001Z\" has digits below \
             microseconds; give --timestamp-unit ns to keep them"
        );
    }
}
