//! Schemas built in code and parsed from the message-type syntax: their shapes, levels,
//! annotations and converted types, and the rules a writer's schema must keep.

#![allow(clippy::unwrap_used, clippy::too_many_lines)] // Tables of cases.

use parquet_file::{
    ConvertedType, EdgeInterpolation, ErrorKind, Limits, LogicalType, PhysicalType, Repetition,
    Schema, SchemaField, TimeUnit,
};
use parquet_thrift as thrift;

/// Every annotation on a field it applies to.
fn every_annotation() -> Vec<SchemaField> {
    use LogicalType as L;
    use PhysicalType as P;
    let opt = |name: &str, physical, logical| {
        SchemaField::optional(name, physical).with_logical_type(logical)
    };
    let fixed = |name: &str, length, logical| {
        SchemaField::fixed_len_byte_array(name, Repetition::Optional, length)
            .with_logical_type(logical)
    };
    let mut fields = vec![
        SchemaField::required("plain", P::Boolean),
        SchemaField::optional("int96", P::Int96),
        opt("string", P::ByteArray, L::String),
        opt("enum", P::ByteArray, L::Enum),
        opt("json", P::ByteArray, L::Json),
        opt("bson", P::ByteArray, L::Bson),
        fixed("uuid", 16, L::Uuid),
        fixed("float16", 2, L::Float16),
        fixed("interval", 12, L::Interval),
        opt(
            "decimal32",
            P::Int32,
            L::Decimal {
                scale: 2,
                precision: 9,
            },
        ),
        opt(
            "decimal64",
            P::Int64,
            L::Decimal {
                scale: 0,
                precision: 18,
            },
        ),
        fixed(
            "decimal_fixed",
            16,
            L::Decimal {
                scale: 10,
                precision: 38,
            },
        ),
        opt(
            "decimal_bytes",
            P::ByteArray,
            L::Decimal {
                scale: 3,
                precision: 50,
            },
        ),
        opt("date", P::Int32, L::Date),
        opt("unknown", P::Int32, L::Unknown),
        opt("geometry", P::ByteArray, L::Geometry { crs: None }),
        opt(
            "geometry_crs",
            P::ByteArray,
            L::Geometry {
                crs: Some("srid:4326".into()),
            },
        ),
        opt(
            "geography",
            P::ByteArray,
            L::Geography {
                crs: Some("OGC:CRS84".into()),
                algorithm: Some(EdgeInterpolation::Karney),
            },
        ),
    ];
    for (unit, physical) in [
        (TimeUnit::Millis, P::Int32),
        (TimeUnit::Micros, P::Int64),
        (TimeUnit::Nanos, P::Int64),
    ] {
        for utc in [true, false] {
            let name = format!("time_{}_{utc}", unit.name());
            fields.push(opt(&name, physical, L::Time { unit, utc }));
            let name = format!("timestamp_{}_{utc}", unit.name());
            fields.push(opt(&name, P::Int64, L::Timestamp { unit, utc }));
        }
    }
    for bits in [8, 16, 32, 64] {
        for signed in [true, false] {
            let physical = if bits == 64 { P::Int64 } else { P::Int32 };
            fields.push(opt(
                &format!("int{bits}_{signed}"),
                physical,
                L::Integer { bits, signed },
            ));
        }
    }
    fields.push(
        SchemaField::group(
            "variant",
            Repetition::Optional,
            [
                SchemaField::required("metadata", P::ByteArray),
                SchemaField::required("value", P::ByteArray),
            ],
        )
        .with_logical_type(L::Variant {
            specification_version: Some(1),
        }),
    );
    fields
}

fn element<'s>(
    elements: &'s [thrift::SchemaElement<'s>],
    name: &str,
) -> &'s thrift::SchemaElement<'s> {
    elements.iter().find(|e| e.name == name).unwrap()
}

#[test]
fn every_annotation_builds_with_its_converted_twin() {
    let schema = Schema::try_new("schema", every_annotation()).unwrap();
    for column in schema.columns() {
        let node = &schema.nodes()[column.node];
        assert_eq!(column.logical_type, node.logical_type, "{}", column.path);
    }
    let elements = schema.to_elements();
    let converted = |name| element(&elements, name).converted_type;
    assert_eq!(converted("string"), Some(thrift::ConvertedType::UTF8));
    assert_eq!(converted("decimal32"), Some(thrift::ConvertedType::DECIMAL));
    assert_eq!(
        converted("time_MILLIS_true"),
        Some(thrift::ConvertedType::TIME_MILLIS)
    );
    assert_eq!(
        converted("timestamp_MICROS_true"),
        Some(thrift::ConvertedType::TIMESTAMP_MICROS)
    );
    assert_eq!(converted("int8_false"), Some(thrift::ConvertedType::UINT_8));
    assert_eq!(converted("interval"), Some(thrift::ConvertedType::INTERVAL));
    // A local time or timestamp has no twin: TIMESTAMP_MICROS would tell an old reader
    // it is in UTC.
    assert_eq!(converted("time_MILLIS_false"), None);
    assert_eq!(converted("timestamp_MICROS_false"), None);
    assert_eq!(converted("uuid"), None);
    assert_eq!(converted("time_NANOS_true"), None);
    assert_eq!(converted("plain"), None);
    let decimal = element(&elements, "decimal_fixed");
    assert_eq!(
        (decimal.scale, decimal.precision, decimal.type_length),
        (Some(10), Some(38), Some(16))
    );
    // INTERVAL has no logical type in parquet.thrift: only its converted type is written.
    assert!(element(&elements, "interval").logical_type.is_none());
    assert!(element(&elements, "geography").logical_type.is_some());
}

#[test]
fn lists_and_maps_take_the_three_level_shape() {
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::list(
                "ints",
                Repetition::Optional,
                SchemaField::optional("anything", PhysicalType::Int32),
            ),
            SchemaField::map(
                "counts",
                Repetition::Required,
                SchemaField::required("k", PhysicalType::ByteArray)
                    .with_logical_type(LogicalType::String),
                Some(SchemaField::list(
                    "v",
                    Repetition::Optional,
                    SchemaField::required("x", PhysicalType::Int64),
                )),
            ),
            SchemaField::map(
                "set",
                Repetition::Optional,
                SchemaField::required("k", PhysicalType::Int32),
                None,
            ),
        ],
    )
    .unwrap();
    let columns: Vec<_> = schema
        .columns()
        .iter()
        .map(|c| (c.path.to_string(), c.max_def_level, c.max_rep_level))
        .collect();
    assert_eq!(
        columns,
        [
            ("ints.list.element".to_owned(), 3, 1),
            ("counts.key_value.key".to_owned(), 1, 1),
            ("counts.key_value.value.list.element".to_owned(), 3, 2),
            ("set.key_value.key".to_owned(), 2, 1),
        ]
    );
    let elements = schema.to_elements();
    assert_eq!(
        element(&elements, "ints").converted_type,
        Some(thrift::ConvertedType::LIST)
    );
    assert_eq!(
        element(&elements, "counts").converted_type,
        Some(thrift::ConvertedType::MAP)
    );
    assert_eq!(element(&elements, "key_value").converted_type, None);
}

#[test]
fn converted_types_alone_or_beside_their_logical_type() {
    let schema = Schema::try_new(
        "schema",
        [
            SchemaField::optional("legacy", PhysicalType::ByteArray)
                .with_converted_type(ConvertedType::Utf8),
            SchemaField::optional("both", PhysicalType::Int32)
                .with_logical_type(LogicalType::Date)
                .with_converted_type(ConvertedType::Date),
            SchemaField::optional("id", PhysicalType::Int32).with_field_id(42),
            // As Arrow C++ before 0.15 and Spark wrote local timestamps.
            SchemaField::optional("local", PhysicalType::Int64)
                .with_logical_type(LogicalType::Timestamp {
                    unit: TimeUnit::Millis,
                    utc: false,
                })
                .with_converted_type(ConvertedType::TimestampMillis),
        ],
    )
    .unwrap();
    assert_eq!(schema.columns()[0].logical_type, LogicalType::String);
    let elements = schema.to_elements();
    assert_eq!(
        element(&elements, "legacy").converted_type,
        Some(thrift::ConvertedType::UTF8)
    );
    assert_eq!(
        element(&elements, "both").converted_type,
        Some(thrift::ConvertedType::DATE)
    );
    assert_eq!(element(&elements, "id").field_id, Some(42));
    assert_eq!(
        element(&elements, "local").converted_type,
        Some(thrift::ConvertedType::TIMESTAMP_MILLIS)
    );
}

/// The rule a schema of one field breaks, by the error it builds to.
fn refusal(field: SchemaField) -> &'static str {
    let e = Schema::try_new("schema", [field]).unwrap_err();
    match e.kind() {
        ErrorKind::Schema { what, .. } => what,
        other => panic!("{other:?}"),
    }
}

#[test]
fn what_a_writer_may_not_write_is_refused() {
    use LogicalType as L;
    use PhysicalType as P;
    let cases = [
        (
            SchemaField::required("", P::Int32),
            "a field without a name",
        ),
        (
            SchemaField::required("s", P::Int32).with_logical_type(L::String),
            "an annotation that does not apply to the physical type",
        ),
        (
            SchemaField::fixed_len_byte_array("u", Repetition::Required, 8)
                .with_logical_type(L::Uuid),
            "an annotation that does not apply to the physical type",
        ),
        (
            SchemaField::required("d", P::Int32).with_logical_type(L::Decimal {
                scale: 0,
                precision: 10,
            }),
            "a DECIMAL precision that does not fit its physical type",
        ),
        (
            SchemaField::required("d", P::Int64).with_logical_type(L::Decimal {
                scale: 5,
                precision: 4,
            }),
            "a DECIMAL scale outside 0 to its precision",
        ),
        (
            SchemaField::required("d", P::Int32).with_converted_type(ConvertedType::Decimal),
            "a DECIMAL converted type without the DECIMAL logical type",
        ),
        (
            SchemaField::required("t", P::Int64)
                .with_logical_type(L::Timestamp {
                    unit: TimeUnit::Micros,
                    utc: true,
                })
                .with_converted_type(ConvertedType::TimestampMillis),
            "a converted type that contradicts the logical type",
        ),
        (
            SchemaField::fixed_len_byte_array("f", Repetition::Required, 0),
            "a FIXED_LEN_BYTE_ARRAY of length 0",
        ),
        (
            SchemaField::group(
                "g",
                Repetition::Required,
                [SchemaField::required("a", P::Int32)],
            )
            .with_logical_type(L::String),
            "an annotation that does not apply to a group",
        ),
        (
            SchemaField::required("l", P::Int32).with_logical_type(L::List),
            "an annotation that does not apply to the physical type",
        ),
        (
            SchemaField::list(
                "l",
                Repetition::Optional,
                SchemaField::repeated("e", P::Int32),
            ),
            "a LIST whose element is repeated",
        ),
        (
            SchemaField::group(
                "l",
                Repetition::Optional,
                [SchemaField::required("e", P::Int32)],
            )
            .with_logical_type(L::List),
            "a LIST whose field is not repeated",
        ),
        (
            SchemaField::map(
                "m",
                Repetition::Optional,
                SchemaField::optional("k", P::Int32),
                None,
            ),
            "a MAP whose key is not required",
        ),
        (
            SchemaField::group("g", Repetition::Optional, []),
            "a group without fields",
        ),
        (
            SchemaField::group(
                "g",
                Repetition::Optional,
                [
                    SchemaField::required("a", P::Int32),
                    SchemaField::optional("a", P::Int64),
                ],
            ),
            "a second field of the same name in its group",
        ),
    ];
    for (field, what) in cases {
        let name = field.name().to_owned();
        assert_eq!(refusal(field), what, "{name}");
    }
}

#[test]
fn printed_schemas_parse_back() {
    let built = Schema::try_new("schema", every_annotation()).unwrap();
    let text = built.to_string();
    let parsed = Schema::parse(&text).unwrap();
    assert_eq!(parsed.to_string(), text);
    assert_eq!(parsed.columns(), built.columns());
}

#[test]
fn parquet_java_text_parses() {
    let text = "
        message spark_schema {
          REQUIRED INT64 id = 1;
          optional binary name (UTF8) = 2;
          optional group tags (LIST) = 3 {
            repeated group list {
              optional binary element (STRING);
            }
          }
          optional group props (MAP) {
            repeated group key_value (MAP_KEY_VALUE) {
              required binary key (UTF8);
              optional int32 value (INTEGER(16, false));
            }
          }
          optional fixed_len_byte_array(16) amount (DECIMAL(38,9));
          optional int64 at (TIMESTAMP(NANOS,false));
        }";
    let schema = Schema::parse(text).unwrap();
    let columns: Vec<_> = schema
        .columns()
        .iter()
        .map(|c| (c.path.to_string(), c.logical_type.clone()))
        .collect();
    assert_eq!(
        columns,
        [
            ("id".to_owned(), LogicalType::None),
            ("name".to_owned(), LogicalType::String),
            ("tags.list.element".to_owned(), LogicalType::String),
            ("props.key_value.key".to_owned(), LogicalType::String),
            (
                "props.key_value.value".to_owned(),
                LogicalType::Integer {
                    bits: 16,
                    signed: false
                }
            ),
            (
                "amount".to_owned(),
                LogicalType::Decimal {
                    scale: 9,
                    precision: 38
                }
            ),
            (
                "at".to_owned(),
                LogicalType::Timestamp {
                    unit: TimeUnit::Nanos,
                    utc: false
                }
            ),
        ]
    );
    let ids: Vec<_> = schema.nodes().iter().map(|n| n.field_id).collect();
    assert_eq!(&ids[..4], [None, Some(1), Some(2), Some(3)]);
    // MAP_KEY_VALUE is written as it was given, without a logical type.
    let elements = schema.to_elements();
    let key_value = element(&elements, "key_value");
    assert_eq!(
        key_value.converted_type,
        Some(thrift::ConvertedType::MAP_KEY_VALUE)
    );
    assert!(key_value.logical_type.is_none());
}

#[test]
fn text_that_does_not_parse_says_where() {
    let cases = [
        ("", (1, 1), "message"),
        ("message m", (1, 10), "an opening brace"),
        ("message m {\n  required int32 a\n}", (3, 1), "a semicolon"),
        (
            "message m {\n  sometimes int32 a;\n}",
            (2, 12),
            "a repetition (required, optional or repeated)",
        ),
        (
            "message m {\n  required integer a;\n}",
            (2, 19),
            "a type (group or a physical type)",
        ),
        (
            "message m {\n  required int32 a (NOPE);\n}",
            (2, 21),
            "a logical or converted type",
        ),
        (
            "message m {\n  required int32 a (INTEGER(8));\n}",
            (2, 21),
            "the arguments of the annotation",
        ),
        (
            "message m {\n  required int64 a (TIME(SECONDS,true));\n}",
            (2, 21),
            "a unit: MILLIS, MICROS or NANOS",
        ),
        (
            "message m {\n  required fixed_len_byte_array(x) a;\n}",
            (2, 33),
            "the length of a fixed_len_byte_array",
        ),
        (
            "message m {\n  required int32 a;\n",
            (3, 1),
            "the text ends inside a group",
        ),
        (
            "message m {\n  required int32 a;\n}\nmore",
            (4, 1),
            "text after the message's closing brace",
        ),
    ];
    for (text, (line, column), expected) in cases {
        let e = Schema::parse(text).unwrap_err();
        assert!(e.kind().is_argument(), "{e}");
        let ErrorKind::Syntax {
            line: l,
            column: c,
            expected: x,
        } = e.kind()
        else {
            panic!("{text:?}: {e}");
        };
        assert_eq!((*l, *c, *x), (line, column, expected), "{text:?}");
    }
    // Text that parses into a schema that breaks a rule.
    let e = Schema::parse("message m { required int32 s (STRING); }").unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Schema { element: 1, .. }),
        "{e}"
    );
}

#[test]
fn depth_past_the_limit_is_refused_before_recursing() {
    // A built tree is as deep as its builder made it (and dropped recursively, so not
    // too deep for a test's stack): refused at depth 65.
    let mut field = SchemaField::required("leaf", PhysicalType::Int32);
    for _ in 0..1_000 {
        field = SchemaField::group("g", Repetition::Required, [field]);
    }
    let e = Schema::try_new("schema", [field]).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::LimitExceeded {
                limit: "schema depth",
                value: 65,
                max: 64
            }
        ),
        "{e}"
    );
    // Text nests as deep as it likes: the parser stops at depth 65, before it recurses
    // further.
    let depth = 100_000;
    let text = "message m {".to_owned()
        + &"required group g {".repeat(depth)
        + "required int32 leaf;"
        + &"}".repeat(depth + 1);
    let e = Schema::parse(&text).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::LimitExceeded {
                limit: "schema depth",
                value: 65,
                max: 64
            }
        ),
        "{e}"
    );
}

#[test]
fn levels_past_65535_are_refused_whatever_the_depth_limit() {
    let optional = |name: &str, children: Option<i32>| thrift::SchemaElement {
        name: name.to_owned().into(),
        repetition_type: Some(thrift::FieldRepetitionType::OPTIONAL),
        num_children: children,
        type_: children.is_none().then_some(thrift::Type::INT32),
        ..thrift::SchemaElement::default()
    };
    let mut elements = vec![thrift::SchemaElement {
        name: "schema".into(),
        num_children: Some(1),
        ..thrift::SchemaElement::default()
    }];
    elements.extend((0..70_000).map(|_| optional("g", Some(1))));
    elements.push(optional("leaf", None));
    let limits = Limits::default().with_max_schema_depth(usize::MAX);
    let e = Schema::try_from_elements(&elements, &limits).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Schema {
                element: 65_536,
                what: "a level past 65535",
                ..
            }
        ),
        "{e}"
    );
}
