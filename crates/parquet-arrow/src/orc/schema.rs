//! The Arrow types of ORC types, as Arrow C++ (and so pyarrow) reads them.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit, UnionFields};
use orc_file::{Kind, TypeDescription};

use crate::error::{Error, Result, unsupported};

/// The precision and scale Arrow C++ gives a decimal without them (ORC v0, Hive 0.11):
/// its values are brought to 6 digits after the point.
pub(super) const UNBOUNDED_DECIMAL: (u8, i8) = (38, 6);

/// The most alternatives an Arrow union holds (type codes 0 to 127).
const MAX_UNION_ALTERNATIVES: usize = 128;

/// The Arrow schema of an ORC file's type (a struct of the top-level columns), as Arrow
/// C++ maps it (pyarrow's `pyarrow.orc`):
///
/// | ORC | Arrow |
/// |---|---|
/// | boolean | `Boolean` |
/// | tinyint, smallint, int, bigint | `Int8`, `Int16`, `Int32`, `Int64` |
/// | float, double | `Float32`, `Float64` |
/// | string, varchar(n), char(n) | `Utf8` (a char's values padded as stored) |
/// | binary | `Binary` |
/// | timestamp | `Timestamp(Nanosecond, None)` (the writer's wall clock) |
/// | timestamp with local time zone | `Timestamp(Nanosecond, "UTC")` |
/// | date | `Date32` |
/// | decimal(p,s) | `Decimal128(p, s)` |
/// | decimal (ORC v0, no precision) | `Decimal128(38, 6)` |
/// | array\<T\> | `List` of a field `item` |
/// | map\<K,V\> | `Map` of `entries` (not null): `key` (not null) and `value`, unsorted |
/// | struct\<...\> | `Struct` |
/// | uniontype\<...\> | sparse `Union` of fields `_union_0`, `_union_1`, ... with type codes 0, 1, ... |
///
/// Every other field is nullable. A type's attributes are its field's metadata.
///
/// # Errors
///
/// [`Error::Argument`] when `t` is not a struct, [`Error::Unsupported`] for a union of
/// more than 128 alternatives.
pub fn orc_to_arrow_schema(t: &TypeDescription) -> Result<Schema> {
    Ok(Schema::new(top_fields(t, None)?))
}

/// The Arrow fields of the top-level columns of `root` that `selected` (by column id)
/// keeps: all when `None`.
pub(super) fn top_fields(root: &TypeDescription, selected: Option<&[bool]>) -> Result<Vec<Field>> {
    if root.kind() != Kind::Struct {
        return Err(Error::Argument(format!(
            "the ORC type {root} is not a struct of columns"
        )));
    }
    struct_fields(root, selected)
}

fn struct_fields(t: &TypeDescription, selected: Option<&[bool]>) -> Result<Vec<Field>> {
    t.fields()
        .filter(|(_, c)| is_selected(selected, c.id()))
        .map(|(name, c)| arrow_field(name, c, selected))
        .collect()
}

/// Whether column `id` is selected (every column is when `selected` is `None`).
pub(super) fn is_selected(selected: Option<&[bool]>, id: u32) -> bool {
    selected.is_none_or(|s| {
        usize::try_from(id)
            .ok()
            .and_then(|i| s.get(i))
            .copied()
            .unwrap_or(false)
    })
}

/// The nullable Arrow field `name` of type `t`, with its attributes as metadata.
pub(super) fn arrow_field(
    name: &str,
    t: &TypeDescription,
    selected: Option<&[bool]>,
) -> Result<Field> {
    let field = Field::new(name, arrow_type(t, selected)?, true);
    Ok(with_attributes(field, t))
}

fn with_attributes(field: Field, t: &TypeDescription) -> Field {
    if t.attributes().is_empty() {
        return field;
    }
    let metadata: HashMap<String, String> = t.attributes().iter().cloned().collect();
    field.with_metadata(metadata)
}

/// The Arrow type of `t`; of a struct, only its selected fields.
pub(super) fn arrow_type(t: &TypeDescription, selected: Option<&[bool]>) -> Result<DataType> {
    Ok(match t.kind() {
        Kind::Boolean => DataType::Boolean,
        Kind::Byte => DataType::Int8,
        Kind::Short => DataType::Int16,
        Kind::Int => DataType::Int32,
        Kind::Long => DataType::Int64,
        Kind::Float => DataType::Float32,
        Kind::Double => DataType::Float64,
        Kind::String | Kind::Varchar | Kind::Char => DataType::Utf8,
        Kind::Binary => DataType::Binary,
        Kind::Timestamp => DataType::Timestamp(TimeUnit::Nanosecond, None),
        Kind::TimestampInstant => DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        Kind::Date => DataType::Date32,
        Kind::Decimal => {
            let (precision, scale) = decimal_of(t)?;
            DataType::Decimal128(precision, scale)
        }
        Kind::List => DataType::List(Arc::new(list_item(t)?)),
        Kind::Map => {
            let (entries, _) = map_entries(t)?;
            DataType::Map(Arc::new(entries), false)
        }
        Kind::Struct => DataType::Struct(Fields::from(struct_fields(t, selected)?)),
        Kind::Union => DataType::Union(union_fields(t)?, arrow_schema::UnionMode::Sparse),
    })
}

/// The precision and scale of a decimal column in Arrow.
pub(super) fn decimal_of(t: &TypeDescription) -> Result<(u8, i8)> {
    match (t.precision(), t.scale()) {
        (Some(p), Some(s)) => {
            let precision = u8::try_from(p).ok().filter(|p| (1..=38).contains(p));
            let scale = i8::try_from(s)
                .ok()
                .filter(|&s| s >= 0 && u32::from(s.unsigned_abs()) <= p);
            precision.zip(scale).ok_or_else(|| {
                unsupported(format!("decimal({p},{s}) does not fit Arrow's Decimal128"))
            })
        }
        _ => Ok(UNBOUNDED_DECIMAL),
    }
}

/// A list's `item` field.
pub(super) fn list_item(t: &TypeDescription) -> Result<Field> {
    let [element] = t.children() else {
        return Err(Error::Invalid(format!(
            "the list type {t} has no single element type"
        )));
    };
    arrow_field("item", element, None)
}

/// A map's `entries` field and its struct's fields (`key` not null, `value`).
pub(super) fn map_entries(t: &TypeDescription) -> Result<(Field, Fields)> {
    let [key, value] = t.children() else {
        return Err(Error::Invalid(format!(
            "the map type {t} has no key and value types"
        )));
    };
    let key = arrow_field("key", key, None)?.with_nullable(false);
    let value = arrow_field("value", value, None)?;
    let fields = Fields::from(vec![key, value]);
    let entries = Field::new("entries", DataType::Struct(fields.clone()), false);
    Ok((entries, fields))
}

/// A union's fields `_union_0`, `_union_1`, ..., with type codes 0, 1, ...
pub(super) fn union_fields(t: &TypeDescription) -> Result<UnionFields> {
    let alternatives = t.children();
    if alternatives.len() > MAX_UNION_ALTERNATIVES {
        return Err(unsupported(format!(
            "a uniontype of {} alternatives: an Arrow union holds at most {MAX_UNION_ALTERNATIVES}",
            alternatives.len()
        )));
    }
    let fields = alternatives
        .iter()
        .enumerate()
        .map(|(k, c)| arrow_field(&format!("_union_{k}"), c, None))
        .collect::<Result<Vec<_>>>()?;
    // At most 128 alternatives: the codes are 0..=127.
    let codes = (0..=i8::MAX).take(fields.len());
    Ok(UnionFields::try_new(codes, fields)?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn every_kind_as_pyarrow_reads_it() {
        let t = TypeDescription::parse(
            "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,\
             str:string,vc:varchar(5),ch:char(3),bin:binary,ts:timestamp,\
             tsl:timestamp with local time zone,dt:date,dec:decimal(10,2),\
             lst:array<int>,m:map<string,int>,st:struct<a:int>,u:uniontype<int,string>>",
        )
        .unwrap();
        let schema = orc_to_arrow_schema(&t).unwrap();
        let types: Vec<String> = schema
            .fields()
            .iter()
            .map(|f| f.data_type().to_string())
            .collect();
        let item = |dt: DataType| Arc::new(Field::new("item", dt, true));
        assert_eq!(
            schema.field(15).data_type(),
            &DataType::List(item(DataType::Int32))
        );
        assert!(schema.fields().iter().all(|f| f.is_nullable()));
        assert_eq!(
            types[..15],
            [
                "Boolean",
                "Int8",
                "Int16",
                "Int32",
                "Int64",
                "Float32",
                "Float64",
                "Utf8",
                "Utf8",
                "Utf8",
                "Binary",
                "Timestamp(ns)",
                "Timestamp(ns, \"UTC\")",
                "Date32",
                "Decimal128(10, 2)",
            ]
        );
        let DataType::Map(entries, false) = schema.field(16).data_type() else {
            panic!("{}", types[16]);
        };
        assert_eq!(entries.name(), "entries");
        assert!(!entries.is_nullable());
        let DataType::Struct(kv) = entries.data_type() else {
            panic!()
        };
        assert_eq!((kv[0].name().as_str(), kv[0].is_nullable()), ("key", false));
        assert_eq!(
            (kv[1].name().as_str(), kv[1].is_nullable()),
            ("value", true)
        );
        let DataType::Union(fields, arrow_schema::UnionMode::Sparse) = schema.field(18).data_type()
        else {
            panic!("{}", types[18]);
        };
        let names: Vec<(i8, &str)> = fields.iter().map(|(c, f)| (c, f.name().as_str())).collect();
        assert_eq!(names, [(0, "_union_0"), (1, "_union_1")]);
    }

    #[test]
    fn decimal_without_precision_is_38_6() {
        let t = TypeDescription::struct_of([("d", TypeDescription::unbounded_decimal())]);
        let schema = orc_to_arrow_schema(&t).unwrap();
        assert_eq!(schema.field(0).data_type(), &DataType::Decimal128(38, 6));
    }

    #[test]
    fn attributes_are_field_metadata() {
        let int = TypeDescription::primitive(Kind::Int).unwrap();
        let t = TypeDescription::struct_of([(
            "l",
            TypeDescription::list(int.with_attribute("k", "v")),
        )]);
        let schema = orc_to_arrow_schema(&t).unwrap();
        let DataType::List(item) = schema.field(0).data_type() else {
            panic!()
        };
        assert_eq!(item.metadata().get("k").map(String::as_str), Some("v"));
    }

    #[test]
    fn not_a_struct() {
        let t = TypeDescription::primitive(Kind::Int).unwrap();
        assert!(matches!(orc_to_arrow_schema(&t), Err(Error::Argument(_))));
    }
}
