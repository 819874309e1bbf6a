//! Tables compared column for column: each field (name, data type with the names,
//! nullability and metadata of nested fields, nullability, metadata) and each column's
//! values, as Arrow's `ArrayData` equality has them (logical: offsets and buffers may
//! differ where the values do not; floats by their bits). The schemas' own metadata is not
//! compared: pyarrow keeps what the file stores there (`pandas`, ORC user metadata).

use crate::rows::truncate;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Date64Type, DurationMicrosecondType, DurationMillisecondType,
    DurationNanosecondType, DurationSecondType, Time32MillisecondType, Time32SecondType,
    Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{Array, ArrayRef, ListViewArray, RecordBatch, make_array};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, FieldRef, SchemaRef, TimeUnit};
use std::path::Path;
use std::sync::Arc;

/// A table: its schema, the batches it came in, and all of them as one batch.
pub(crate) struct Table {
    pub(crate) batches: Vec<RecordBatch>,
    pub(crate) all: RecordBatch,
}

impl Table {
    /// The table of `batches` of `schema`.
    pub(crate) fn new(schema: &SchemaRef, batches: Vec<RecordBatch>) -> Result<Self, String> {
        let all = arrow_select::concat::concat_batches(schema, &batches)
            .map_err(|e| format!("cannot concatenate the batches: {e}"))?;
        Ok(Self { batches, all })
    }

    /// The table of an Arrow IPC file.
    pub(crate) fn read_ipc(path: &Path) -> Result<Self, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let reader = arrow_ipc::reader::FileReader::try_new_buffered(file, None)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let schema = reader.schema();
        let batches = reader
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Self::new(&schema, batches)
    }

    /// The number of rows.
    pub(crate) fn rows(&self) -> usize {
        self.all.num_rows()
    }
}

/// How a table differs from the expected one: in a column (by the expected table's name
/// of it), or as a whole (`column` is `None`).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Difference {
    pub(crate) column: Option<String>,
    pub(crate) what: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.column {
            Some(column) => write!(f, "column {column:?}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// The differences of `actual` (read by `who`) from `expected`: none when they are equal.
/// Columns that differ in number or rows that differ in count are one difference of the
/// whole; otherwise each column's first difference: its field, or else its first row that
/// differs, both values shown.
pub(crate) fn differences(
    expected: &RecordBatch,
    actual: &RecordBatch,
    who: &str,
) -> Vec<Difference> {
    let whole = |what: String| vec![Difference { column: None, what }];
    let names = |batch: &RecordBatch| {
        let names: Vec<&str> = batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        names.join(", ")
    };
    if expected.num_columns() != actual.num_columns() {
        return whole(format!(
            "{} columns ({}), expected {} ({})",
            actual.num_columns(),
            truncate(&names(actual), 200),
            expected.num_columns(),
            truncate(&names(expected), 200)
        ));
    }
    if expected.num_rows() != actual.num_rows() {
        return whole(format!(
            "{who} has {} rows, expected {}",
            actual.num_rows(),
            expected.num_rows()
        ));
    }
    let fields = expected
        .schema_ref()
        .fields()
        .iter()
        .zip(actual.schema_ref().fields());
    fields
        .zip(expected.columns().iter().zip(actual.columns()))
        .filter_map(|((want, got), (a, b))| {
            column(want, got, a, b, who).map(|what| Difference {
                column: Some(want.name().clone()),
                what,
            })
        })
        .collect()
}

/// The first difference of a column from the expected one, if any.
fn column(
    want: &Field,
    got: &Field,
    expected: &ArrayRef,
    actual: &ArrayRef,
    who: &str,
) -> Option<String> {
    if let Some(field) = field(want, got, who) {
        return Some(field);
    }
    if expected.to_data() == actual.to_data() {
        return None;
    }
    let row = (0..expected.len())
        .find(|&i| expected.slice(i, 1).to_data() != actual.slice(i, 1).to_data());
    Some(match row {
        Some(i) => format!(
            "row {i}: {who} {}, expected {}",
            one_row(actual, i),
            one_row(expected, i)
        ),
        None => "the values differ, though every row is equal".to_owned(),
    })
}

/// How `got` differs from the field `want`, if it does.
fn field(want: &Field, got: &Field, who: &str) -> Option<String> {
    if want.name() != got.name() {
        Some(format!("{who} names it {:?}", got.name()))
    } else if want.data_type() != got.data_type() {
        Some(format!(
            "{who} reads type {}, expected {}",
            got.data_type(),
            want.data_type()
        ))
    } else if want.is_nullable() != got.is_nullable() {
        Some(format!(
            "{who} has it {}, expected {}",
            nullability(got),
            nullability(want)
        ))
    } else if want.metadata() != got.metadata() {
        Some(format!(
            "{who} has field metadata {:?}, expected {:?}",
            got.metadata(),
            want.metadata()
        ))
    } else {
        None
    }
}

fn nullability(field: &Field) -> &'static str {
    if field.is_nullable() {
        "nullable"
    } else {
        "non-nullable"
    }
}

/// Row `i` of `array`, as Arrow's debug format prints a one-row slice, on one line.
fn one_row(array: &ArrayRef, i: usize) -> String {
    let text = format!("{:?}", array.slice(i, 1));
    truncate(&text.split_whitespace().collect::<Vec<_>>().join(" "), 300)
}

/// Whether two columns, maybe of different types, hold the same values: the same instants,
/// dates, times or durations in any units; the same strings, of any width, in a dictionary
/// or not; or the same layout under other names of nested fields (a map's entries, a
/// list's element).
pub(crate) fn same_values(a: &ArrayRef, b: &ArrayRef) -> bool {
    if a.data_type() == b.data_type() {
        return a.to_data() == b.to_data();
    }
    if let (Some(x), Some(y)) = (nanoseconds(a), nanoseconds(b)) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (texts(a), texts(b)) {
        return x == y;
    }
    let b = match (a.data_type(), b.data_type()) {
        (DataType::ListView(_), DataType::List(_)) => {
            Arc::new(ListViewArray::from(b.as_list::<i32>().clone())) as ArrayRef
        }
        (DataType::List(_), DataType::ListView(_)) => return same_values(b, a),
        _ => Arc::clone(b),
    };
    retyped(b.to_data(), a.data_type())
        .is_some_and(|data| make_array(data).to_data() == a.to_data())
}

/// `data` as of the type `to`, which may name its nested fields otherwise (and differ in
/// nothing else, or this is `None`).
fn retyped(data: ArrayData, to: &DataType) -> Option<ArrayData> {
    let children: Vec<&DataType> = match to {
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => vec![f.data_type()],
        DataType::Struct(fields) => fields.iter().map(|f| f.data_type()).collect(),
        DataType::Dictionary(_, values) => vec![values],
        _ => Vec::new(),
    };
    if children.len() != data.child_data().len() {
        return None;
    }
    let child_data = data
        .child_data()
        .iter()
        .zip(children)
        .map(|(child, to)| retyped(child.clone(), to))
        .collect::<Option<Vec<_>>>()?;
    data.into_builder()
        .data_type(to.clone())
        .child_data(child_data)
        .build()
        .ok()
}

/// `data_type` with the fields of its lists and maps (at any depth) named alike: what
/// differs but in those names differs in this.
pub(crate) fn without_item_names(data_type: &DataType) -> DataType {
    let renamed = |f: &FieldRef| {
        Arc::new(
            Field::new("", without_item_names(f.data_type()), f.is_nullable())
                .with_metadata(f.metadata().clone()),
        )
    };
    match data_type {
        DataType::List(f) => DataType::List(renamed(f)),
        DataType::LargeList(f) => DataType::LargeList(renamed(f)),
        DataType::ListView(f) => DataType::ListView(renamed(f)),
        DataType::LargeListView(f) => DataType::LargeListView(renamed(f)),
        DataType::FixedSizeList(f, n) => DataType::FixedSizeList(renamed(f), *n),
        DataType::Map(f, sorted) => DataType::Map(renamed(f), *sorted),
        DataType::Struct(fields) => DataType::Struct(
            fields
                .iter()
                .map(|f| {
                    Arc::new(
                        Field::new(f.name(), without_item_names(f.data_type()), f.is_nullable())
                            .with_metadata(f.metadata().clone()),
                    )
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The values of a temporal column as nanoseconds (days as their midnights).
fn nanoseconds(array: &dyn Array) -> Option<Vec<Option<i128>>> {
    fn counts<T: ArrowPrimitiveType>(array: &dyn Array, scale: i128) -> Vec<Option<i128>>
    where
        T::Native: Into<i128>,
    {
        array
            .as_primitive::<T>()
            .iter()
            .map(|v| v.map(|v| v.into() * scale))
            .collect()
    }
    let per = |unit: &TimeUnit| match unit {
        TimeUnit::Second => 1_000_000_000,
        TimeUnit::Millisecond => 1_000_000,
        TimeUnit::Microsecond => 1_000,
        TimeUnit::Nanosecond => 1,
    };
    Some(match array.data_type() {
        DataType::Date32 => counts::<Date32Type>(array, 86_400 * 1_000_000_000),
        DataType::Date64 => counts::<Date64Type>(array, 1_000_000),
        DataType::Time32(unit @ TimeUnit::Second) => counts::<Time32SecondType>(array, per(unit)),
        DataType::Time32(unit) => counts::<Time32MillisecondType>(array, per(unit)),
        DataType::Time64(unit @ TimeUnit::Microsecond) => {
            counts::<Time64MicrosecondType>(array, per(unit))
        }
        DataType::Time64(unit) => counts::<Time64NanosecondType>(array, per(unit)),
        DataType::Timestamp(unit, _) => match unit {
            TimeUnit::Second => counts::<TimestampSecondType>(array, per(unit)),
            TimeUnit::Millisecond => counts::<TimestampMillisecondType>(array, per(unit)),
            TimeUnit::Microsecond => counts::<TimestampMicrosecondType>(array, per(unit)),
            TimeUnit::Nanosecond => counts::<TimestampNanosecondType>(array, per(unit)),
        },
        DataType::Duration(unit) => match unit {
            TimeUnit::Second => counts::<DurationSecondType>(array, per(unit)),
            TimeUnit::Millisecond => counts::<DurationMillisecondType>(array, per(unit)),
            TimeUnit::Microsecond => counts::<DurationMicrosecondType>(array, per(unit)),
            TimeUnit::Nanosecond => counts::<DurationNanosecondType>(array, per(unit)),
        },
        _ => return None,
    })
}

/// The values of a column of strings (`Utf8`, `LargeUtf8`, `Utf8View`, or a dictionary of
/// them).
fn texts(array: &dyn Array) -> Option<Vec<Option<String>>> {
    let own = |v: Option<&str>| v.map(str::to_owned);
    match array.data_type() {
        DataType::Utf8 => Some(array.as_string::<i32>().iter().map(own).collect()),
        DataType::LargeUtf8 => Some(array.as_string::<i64>().iter().map(own).collect()),
        DataType::Utf8View => Some(array.as_string_view().iter().map(own).collect()),
        DataType::Dictionary(..) => {
            let dictionary = array.as_any_dictionary_opt()?;
            let values = texts(dictionary.values().as_ref())?;
            let keys = if values.is_empty() {
                vec![0; array.len()]
            } else {
                dictionary.normalized_keys()
            };
            Some(
                keys.iter()
                    .enumerate()
                    .map(|(i, &k)| {
                        if array.is_null(i) {
                            None
                        } else {
                            values.get(k).cloned().flatten()
                        }
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Int32Array, Int64Array, StringArray};

    fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
        RecordBatch::try_from_iter(columns).unwrap()
    }

    #[test]
    fn equal_tables_have_no_differences() {
        let a: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None, Some(3)]));
        let t = batch(vec![("a", a)]);
        assert_eq!(differences(&t, &t.clone(), "ours"), []);
    }

    #[test]
    fn differences_name_the_column_and_the_row() {
        let a: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None, Some(3)]));
        let b: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None, Some(4)]));
        let s: ArrayRef = Arc::new(StringArray::from(vec!["x", "y", "z"]));
        let want = batch(vec![("a", Arc::clone(&a)), ("s", Arc::clone(&s))]);
        let got = batch(vec![("a", b), ("s", s)]);
        let found = differences(&want, &got, "ours");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].column.as_deref(), Some("a"));
        assert!(
            found[0].what.starts_with("row 2: ours "),
            "{}",
            found[0].what
        );
        assert!(found[0].what.contains('4') && found[0].what.contains('3'));

        let wide: ArrayRef = Arc::new(Int64Array::from(vec![1, 2, 3]));
        let found = differences(&batch(vec![("a", a)]), &batch(vec![("a", wide)]), "ours");
        assert_eq!(found[0].what, "ours reads type Int64, expected Int32");
    }

    #[test]
    fn values_compare_across_units_and_string_widths() {
        use arrow_array::types::Int32Type;
        use arrow_array::{
            Date32Array, Date64Array, DictionaryArray, LargeStringArray, TimestampMillisecondArray,
            TimestampSecondArray,
        };
        let days: ArrayRef = Arc::new(Date32Array::from(vec![Some(1), None, Some(-3)]));
        let ms: ArrayRef = Arc::new(Date64Array::from(vec![
            Some(86_400_000),
            None,
            Some(-3 * 86_400_000),
        ]));
        assert!(same_values(&days, &ms));
        let off: ArrayRef = Arc::new(Date64Array::from(vec![Some(86_400_001), None, Some(0)]));
        assert!(!same_values(&days, &off));
        let s: ArrayRef = Arc::new(TimestampSecondArray::from(vec![Some(2), Some(-1)]));
        let m: ArrayRef = Arc::new(TimestampMillisecondArray::from(vec![
            Some(2000),
            Some(-1000),
        ]));
        assert!(same_values(&s, &m));
        let small: DictionaryArray<Int32Type> =
            vec![Some("a"), None, Some("b")].into_iter().collect();
        let large: ArrayRef = Arc::new(LargeStringArray::from(vec![Some("a"), None, Some("b")]));
        assert!(same_values(&(Arc::new(small) as ArrayRef), &large));
        assert!(!same_values(&days, &large));
    }

    #[test]
    fn item_names_are_set_aside() {
        let list = |name: &str| DataType::List(Arc::new(Field::new(name, DataType::Int32, true)));
        assert_eq!(
            without_item_names(&list("item")),
            without_item_names(&list("element"))
        );
        let strukt =
            |name: &str| DataType::Struct(vec![Field::new(name, list("item"), true)].into());
        assert_eq!(
            without_item_names(&strukt("a")),
            without_item_names(&strukt("a"))
        );
        assert_ne!(
            without_item_names(&strukt("a")),
            without_item_names(&strukt("b"))
        );
        let not_null = DataType::List(Arc::new(Field::new("item", DataType::Int32, false)));
        assert_ne!(
            without_item_names(&list("item")),
            without_item_names(&not_null)
        );
    }

    #[test]
    fn whole_table_differences() {
        let a: ArrayRef = Arc::new(Int32Array::from(vec![1, 2]));
        let short: ArrayRef = Arc::new(Int32Array::from(vec![1]));
        let found = differences(
            &batch(vec![("a", a.clone())]),
            &batch(vec![("a", short)]),
            "pyarrow",
        );
        assert_eq!(found[0].what, "pyarrow has 1 rows, expected 2");
        let found = differences(
            &batch(vec![("a", a.clone())]),
            &batch(vec![("a", a.clone()), ("b", a)]),
            "ours",
        );
        assert!(found[0].column.is_none());
        assert!(found[0].what.starts_with("2 columns (a, b), expected 1"));
    }
}
