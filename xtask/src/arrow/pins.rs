//! Where pyarrow's tables are not the reference, pinned: files that pyarrow refuses, or
//! that we refuse where pyarrow reads them ([`FILES`]); columns that we read as other
//! fields than pyarrow does ([`COLUMNS`]), on purpose or as known bugs of our reader to
//! fix; tables our writer refuses ([`WRITER_REFUSALS`]); and the columns of the table of
//! every type that pyarrow reads back from our file as other types, as it reads its own
//! file ([`WRITTEN`]). A deviation not listed fails the run, and so does a listed one that
//! no longer shows or shows otherwise: each is news.
//!
//! Fields are pinned as [`describe`] prints them: the data type as Arrow prints it,
//! ` non-null` when not nullable, and the field's metadata in key order.

use arrow_schema::Field;

/// Why a deviation is pinned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// pyarrow cannot read the file (or we cannot tell what it should read).
    Pyarrow,
    /// We read otherwise on purpose.
    OnPurpose,
}

impl Kind {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Pyarrow => "pyarrow cannot tell",
            Self::OnPurpose => "on purpose",
        }
    }
}

/// What pyarrow does with a file that [`FILES`] pins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pyarrow {
    /// It reads the file (but we do not).
    Reads,
    /// It refuses the file, saying this.
    Refuses(&'static str),
}

/// What we do with a file that [`FILES`] pins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ours {
    /// Our reader fails, saying this.
    Error(&'static str),
    /// Our reader reads this many rows of these fields (as [`describe`] prints each, after
    /// its name and `: `, joined by `, `): what pyarrow cannot tell us.
    Reads { rows: usize, fields: &'static str },
}

/// A file of the read side where pyarrow's table is not the reference.
#[derive(Debug)]
pub(crate) struct FilePin {
    pub(crate) file: &'static str,
    pub(crate) pyarrow: Pyarrow,
    pub(crate) ours: Ours,
    pub(crate) kind: Kind,
    pub(crate) why: &'static str,
}

/// The pin of the file `name` (as the tally names it) in [`FILES`], if any.
pub(crate) fn file_pin(name: &str) -> Option<&'static FilePin> {
    FILES.iter().find(|p| p.file == name)
}

const NULL_ARRAYS: &str = "DuckDB writes a NULL fixed-size array of n values as n level \
     entries, n - 1 of them continuing a list that is not there; pyarrow counts them as list \
     values and refuses the file; we read the rows DuckDB reads (interop.rs checks them)";
const NULL_ARRAYS_NESTED: &str = "id: Int64, list_array: List(List(Int32, field: 'element'), \
     field: 'element'), struct_array: Struct(\"a\": List(Int64, field: 'element'), \"b\": \
     Int64), array_array: List(List(Int32, field: 'element'), field: 'element'), map_array: \
     Map(\"map_array\": non-null Struct(\"key\": non-null Int64, \"value\": List(Int32, \
     field: 'element')), unsorted)";
const INT96_RANGE: &str = "an INT96 outside the years 1677 to 2262 does not fit \
     Timestamp(ns): pyarrow (and arrow-rs) wrap it silently, our reader refuses the file";

/// The files of the read side that pyarrow refuses, or reads where we refuse them.
pub(crate) const FILES: &[FilePin] = &[
    FilePin {
        file: "datapage_v1-corrupt-checksum.parquet",
        pyarrow: Pyarrow::Reads,
        ours: Ours::Error("page checksum mismatch"),
        kind: Kind::OnPurpose,
        why: "a data page's CRC does not match its bytes: we verify page checksums by \
              default, pyarrow does not (unless asked to)",
    },
    FilePin {
        file: "incorrect_map_schema.parquet",
        pyarrow: Pyarrow::Refuses("Map keys must be annotated as required"),
        ours: Ours::Reads {
            rows: 1,
            fields: "my_map: Map(\"my_map\": non-null Struct(\"key\": non-null Utf8, \
                     \"value\": Utf8), unsorted)",
        },
        kind: Kind::Pyarrow,
        why: "its MAP's key field is OPTIONAL (as Presto wrote it); pyarrow requires \
              REQUIRED keys, we read it as DuckDB does",
    },
    FilePin {
        file: "duckdb-int32-full-range-v2.parquet",
        pyarrow: Pyarrow::Refuses("InitBlock EOF"),
        ours: Ours::Reads {
            rows: 1000,
            fields: "id: Int64, integer: Int32, uinteger: UInt32",
        },
        kind: Kind::Pyarrow,
        why: "DuckDB's PARQUET_VERSION V2 computes the DELTA_BINARY_PACKED deltas of INT32 \
              in 64 bits (33-bit miniblocks); pyarrow stops there, we read the rows DuckDB \
              reads (interop.rs checks them)",
    },
    FilePin {
        file: "duckdb-null-arrays-v1.parquet",
        pyarrow: Pyarrow::Refuses("larger than values array"),
        ours: Ours::Reads {
            rows: 1000,
            fields: "id: Int64, array_int: List(Int32, field: 'element'), array_varchar: \
                     List(Utf8, field: 'element')",
        },
        kind: Kind::Pyarrow,
        why: NULL_ARRAYS,
    },
    FilePin {
        file: "duckdb-null-arrays-v2.parquet",
        pyarrow: Pyarrow::Refuses("larger than values array"),
        ours: Ours::Reads {
            rows: 1000,
            fields: "id: Int64, array_int: List(Int32, field: 'element'), array_varchar: \
                     List(Utf8, field: 'element')",
        },
        kind: Kind::Pyarrow,
        why: NULL_ARRAYS,
    },
    FilePin {
        file: "duckdb-null-arrays-nested-v1.parquet",
        pyarrow: Pyarrow::Refuses("larger than values array"),
        ours: Ours::Reads {
            rows: 1000,
            fields: NULL_ARRAYS_NESTED,
        },
        kind: Kind::Pyarrow,
        why: NULL_ARRAYS,
    },
    FilePin {
        file: "duckdb-null-arrays-nested-v2.parquet",
        pyarrow: Pyarrow::Refuses("larger than values array"),
        ours: Ours::Reads {
            rows: 1000,
            fields: NULL_ARRAYS_NESTED,
        },
        kind: Kind::Pyarrow,
        why: NULL_ARRAYS,
    },
    FilePin {
        file: "pyarrow-int96.parquet",
        pyarrow: Pyarrow::Reads,
        ours: Ours::Error("is past the nanosecond range"),
        kind: Kind::OnPurpose,
        why: INT96_RANGE,
    },
    FilePin {
        file: "pyarrow-int96-v2.parquet",
        pyarrow: Pyarrow::Reads,
        ours: Ours::Error("is past the nanosecond range"),
        kind: Kind::OnPurpose,
        why: INT96_RANGE,
    },
    FilePin {
        file: "pyarrow-int96-julian-days.parquet",
        pyarrow: Pyarrow::Reads,
        ours: Ours::Error("is past the nanosecond range"),
        kind: Kind::OnPurpose,
        why: INT96_RANGE,
    },
    FilePin {
        file: "pyarrow-int96-julian-day-zero.parquet",
        pyarrow: Pyarrow::Reads,
        ours: Ours::Error("is past the nanosecond range"),
        kind: Kind::OnPurpose,
        why: INT96_RANGE,
    },
    FilePin {
        file: "pyorc-timestamps-wide.orc",
        pyarrow: Pyarrow::Refuses("is out of range for nanosecond resolution"),
        ours: Ours::Error("out of the range of 64-bit nanoseconds"),
        kind: Kind::Pyarrow,
        why: "timestamps of the years 1 to 9999 do not fit Timestamp(ns), which Arrow C++ \
              reads ORC's timestamps as: pyarrow refuses the file, and so do we",
    },
];

/// A column that we read as another field than pyarrow does: our field and pyarrow's, as
/// [`describe`] prints them.
#[derive(Debug)]
pub(crate) struct Column {
    pub(crate) name: &'static str,
    pub(crate) ours: &'static str,
    pub(crate) pyarrow: &'static str,
}

/// Columns that we read as other fields than pyarrow does, in the files named in `files`
/// (a name ending with `*` names those that begin with the rest); the values must be the
/// same values. Where several pins name a column of a file, the first applies.
#[derive(Debug)]
pub(crate) struct ColumnPin {
    pub(crate) files: &'static [&'static str],
    pub(crate) columns: &'static [Column],
    pub(crate) kind: Kind,
    pub(crate) why: &'static str,
}

/// Whether the pattern `pattern` (a name, or a beginning followed by `*`) names `file`.
pub(crate) fn matches(pattern: &str, file: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(start) => file.starts_with(start),
        None => file == pattern,
    }
}

/// The pin of the column `column` of the file `file` in [`COLUMNS`]: its index there, and
/// the fields it pins.
pub(crate) fn column_pin(file: &str, column: &str) -> Option<(usize, &'static Column)> {
    first_pin(COLUMNS, file, column)
}

/// The first pin of `pins` naming the column `column` of the file `file`: its index in
/// `pins`, and the fields it pins.
fn first_pin<'a>(pins: &'a [ColumnPin], file: &str, column: &str) -> Option<(usize, &'a Column)> {
    pins.iter().enumerate().find_map(|(i, pin)| {
        if !pin.files.iter().any(|f| matches(f, file)) {
            return None;
        }
        pin.columns
            .iter()
            .find(|c| c.name == column)
            .map(|c| (i, c))
    })
}

/// The columns that we read as other fields than pyarrow does (none now: a column
/// that differs is a failure unless pinned here with the reason).
pub(crate) const COLUMNS: &[ColumnPin] = &[];

/// A table our writer refuses, saying this.
#[derive(Debug)]
pub(crate) struct WriterRefusal {
    pub(crate) files: &'static [&'static str],
    pub(crate) says: &'static str,
    pub(crate) why: &'static str,
}

/// The refusal of our writer pinned for the written file `name`, if any.
pub(crate) fn writer_refusal(name: &str) -> Option<&'static WriterRefusal> {
    WRITER_REFUSALS
        .iter()
        .find(|p| p.files.iter().any(|f| matches(f, name)))
}

/// The tables (by the names of the files we would write) that our writer refuses.
pub(crate) const WRITER_REFUSALS: &[WriterRefusal] = &[WriterRefusal {
    files: &[
        "ours-TestOrcFile.testUnionAndTimestamp.orc.parquet",
        "ours-pyarrow-unions-*",
        "ours-pyorc-unions.orc.parquet",
    ],
    says: "unsupported: Union(",
    why: "Parquet has no union type (nor does pyarrow write one)",
}];

/// A column of a file we write that pyarrow reads back with another field (as [`describe`]
/// prints it), exactly as it reads the column of its own file of the table.
#[derive(Debug)]
pub(crate) struct WrittenPin {
    pub(crate) file: &'static str,
    pub(crate) column: &'static str,
    pub(crate) pyarrow: &'static str,
    pub(crate) why: &'static str,
}

/// The pin of the column `column` of the written file `file`, if any.
pub(crate) fn written_pin(file: &str, column: &str) -> Option<&'static WrittenPin> {
    WRITTEN
        .iter()
        .find(|p| p.file == file && p.column == column)
}

const ALL_TYPES: &str = "ours-all-types.parquet";

/// The columns of the files we write that pyarrow does not read back as written (but for
/// the names of list elements and map entries).
pub(crate) const WRITTEN: &[WrittenPin] = &[
    WrittenPin {
        file: ALL_TYPES,
        column: "date64",
        pyarrow: "Date32",
        why: "Parquet's DATE is days: pyarrow reads Date64 as Date32, though ARROW:schema says \
              Date64",
    },
    WrittenPin {
        file: ALL_TYPES,
        column: "time32_s",
        pyarrow: "Time32(ms)",
        why: "Parquet's TIME has no seconds: pyarrow reads Time32(s), stored as milliseconds, \
              as Time32(ms)",
    },
    WrittenPin {
        file: ALL_TYPES,
        column: "timestamp_s",
        pyarrow: "Timestamp(ms)",
        why: "Parquet's TIMESTAMP has no seconds: pyarrow reads Timestamp(s), stored as \
              milliseconds, as Timestamp(ms)",
    },
    WrittenPin {
        file: ALL_TYPES,
        column: "timestamp_s_utc",
        pyarrow: "Timestamp(ms, \"UTC\")",
        why: "Parquet's TIMESTAMP has no seconds: pyarrow reads Timestamp(s, \"UTC\"), stored \
              as milliseconds, as Timestamp(ms, \"UTC\")",
    },
    WrittenPin {
        file: ALL_TYPES,
        column: "dictionary_int8_large_string",
        pyarrow: "Dictionary(Int8, Utf8)",
        why: "pyarrow reads a dictionary of large strings as a dictionary of strings",
    },
    WrittenPin {
        file: ALL_TYPES,
        column: "dictionary_int64",
        pyarrow: "Int64",
        why: "pyarrow restores dictionaries of strings and binaries only: a dictionary of \
              Int64 reads as Int64",
    },
];

/// A field as pins spell it: its data type as Arrow prints it, ` non-null` when it is not
/// nullable, and its metadata in key order (`{key=value, ...}`). The name is left out.
pub(crate) fn describe(field: &Field) -> String {
    let mut text = field.data_type().to_string();
    if !field.is_nullable() {
        text.push_str(" non-null");
    }
    if !field.metadata().is_empty() {
        let mut pairs: Vec<String> = field
            .metadata()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        pairs.sort();
        text = format!("{text} {{{}}}", pairs.join(", "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::DataType;

    #[test]
    fn pins_are_distinct_and_say_why() {
        for (i, pin) in FILES.iter().enumerate() {
            assert!(!pin.why.is_empty(), "{}", pin.file);
            assert!(
                FILES[..i].iter().all(|p| p.file != pin.file),
                "{} pinned twice",
                pin.file
            );
        }
        for pin in COLUMNS {
            assert!(!pin.why.is_empty() && !pin.columns.is_empty());
            for (i, c) in pin.columns.iter().enumerate() {
                assert_ne!(c.ours, c.pyarrow, "{}", c.name);
                assert!(
                    pin.columns[..i].iter().all(|d| d.name != c.name),
                    "{}",
                    c.name
                );
            }
        }
        for (i, pin) in WRITTEN.iter().enumerate() {
            assert!(pin.file.starts_with("ours-") && !pin.why.is_empty());
            assert!(
                WRITTEN[..i]
                    .iter()
                    .all(|p| (p.file, p.column) != (pin.file, pin.column)),
                "{} {} pinned twice",
                pin.file,
                pin.column
            );
        }
    }

    #[test]
    fn patterns_name_files() {
        const fn column(pyarrow: &'static str) -> Column {
            Column {
                name: "timestamp_s",
                ours: "Timestamp(s)",
                pyarrow,
            }
        }
        const MICROS: &[Column] = &[column("Timestamp(µs)")];
        const MILLIS: &[Column] = &[column("Timestamp(ms)")];
        assert!(matches("pyarrow-flat-*", "pyarrow-flat-zstd-v1.parquet"));
        assert!(!matches("pyarrow-flat-*", "pyarrow-nested-zstd-v1.parquet"));
        assert!(matches("a.parquet", "a.parquet"));
        assert!(!matches("a.parquet", "a.parquet2"));
        let pins = [
            ColumnPin {
                files: &["pyarrow-flat-format-1.0.parquet"],
                columns: MICROS,
                kind: Kind::OnPurpose,
                why: "format 1.0 has no milliseconds",
            },
            ColumnPin {
                files: &["pyarrow-flat-*"],
                columns: MILLIS,
                kind: Kind::OnPurpose,
                why: "Parquet has no seconds",
            },
        ];
        let pin = |file, column| first_pin(&pins, file, column).map(|(i, c)| (i, c.pyarrow));
        assert_eq!(
            pin("pyarrow-flat-zstd-v1.parquet", "timestamp_s"),
            Some((1, "Timestamp(ms)"))
        );
        assert_eq!(
            pin("pyarrow-flat-format-1.0.parquet", "timestamp_s"),
            Some((0, "Timestamp(µs)"))
        );
        assert_eq!(pin("pyarrow-flat-zstd-v1.parquet", "date32"), None);
        assert_eq!(pin("pyarrow-nested-zstd-v1.parquet", "timestamp_s"), None);
    }

    #[test]
    fn fields_are_described_with_sorted_metadata() {
        let metadata = [
            ("ARROW:extension:name", "arrow.uuid"),
            ("ARROW:extension:metadata", ""),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()));
        let field = Field::new("u", DataType::FixedSizeBinary(16), false).with_metadata(
            metadata
                .into_iter()
                .collect::<std::collections::HashMap<_, _>>(),
        );
        assert_eq!(
            describe(&field),
            "FixedSizeBinary(16) non-null {ARROW:extension:metadata=, \
             ARROW:extension:name=arrow.uuid}"
        );
    }
}
