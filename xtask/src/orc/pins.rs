//! What pyarrow.orc and pyorc do with ORC files otherwise than read them right, pinned:
//! the file, the reader, what it does (refuses them saying something, aborts the process,
//! misreads some values in a known way) and why. A deviation not listed fails the run, and
//! so does a listed one that no longer shows or shows otherwise: each is news.
//!
//! Both readers are Apache ORC's C++ reader; what they lose is in the step to Python:
//! Arrow's unions have no validity of their own, so pyarrow reads a null union as its
//! first alternative holding null; pyorc hands a union over as its alternative's value,
//! so an alternative holding null reads as a null union. Neither can tell the two nulls
//! of a union apart: the corpus's JSON dumps (by Apache ORC's Java tools) and the rows we
//! write can.

use super::Reader;
use serde_json::Value;

/// How a reader misreads a union.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Misread {
    /// A null union reads as `{"tag": 0, "value": null}` (pyarrow).
    NullUnionAsFirst,
    /// An alternative holding null, `{"tag": n, "value": null}`, reads as a null union
    /// (pyorc).
    TaggedNullAsNull,
}

impl Misread {
    /// What the reader makes of the reference's `value`, when it misreads it.
    pub(crate) fn misreading(self, value: &Value) -> Option<Value> {
        match self {
            Self::NullUnionAsFirst => value
                .is_null()
                .then(|| serde_json::json!({"tag": 0, "value": null})),
            Self::TaggedNullAsNull => (value.get("tag").is_some_and(Value::is_u64)
                && value.get("value").is_some_and(Value::is_null))
            .then_some(Value::Null),
        }
    }
}

/// What a reader does with a file otherwise than read it right.
#[derive(Debug)]
pub(crate) enum Deviation {
    /// It refuses the file, saying this.
    Refuses(&'static str),
    /// It aborts the process, printing this.
    Aborts(&'static str),
    /// It misreads the unions at these places (`.a.b`) so; all else it reads right.
    Misreads {
        places: &'static [&'static str],
        how: Misread,
    },
}

impl Deviation {
    /// What the reader is expected to do, in a few words.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Refuses(says) => format!("refuse it saying {says:?}"),
            Self::Aborts(says) => format!("abort printing {says:?}"),
            Self::Misreads { places, how } => format!("misread {} as {how:?}", places.join(" ")),
        }
    }
}

/// Files that a reader reads otherwise than right.
#[derive(Debug)]
pub(crate) struct Pin {
    pub(crate) files: &'static [&'static str],
    pub(crate) reader: Reader,
    pub(crate) deviation: Deviation,
    pub(crate) why: &'static str,
}

/// The pin of `file` for `reader` in `pins`, if any.
pub(crate) fn find<'a>(pins: &'a [Pin], file: &str, reader: Reader) -> Option<&'a Pin> {
    pins.iter()
        .find(|p| p.reader == reader && p.files.contains(&file))
}

/// Every file that `pins` names.
pub(crate) fn files(pins: &[Pin]) -> impl Iterator<Item = &'static str> + '_ {
    pins.iter().flat_map(|p| p.files.iter().copied())
}

const NULL_UNION: &str = "Arrow's sparse union has no validity of its own: pyarrow reads a \
     null union as its first alternative holding null";
const TAGGED_NULL: &str = "pyorc hands a union over as its alternative's value, without the \
     tag: an alternative holding null reads as a null union";
const UNION_IN_NULLABLE_STRUCT: &str = "pyarrow builds a union inside a struct with nulls \
     with a validity bitmap, which Arrow's unions cannot have: Arrow C++ aborts the process";
const NANOSECONDS: &str = "pyarrow reads timestamps as 64-bit nanoseconds (the years 1677 to \
     2262): it refuses others";

/// The corpus: pyarrow's rows against those of Apache ORC's JSON dumps, where a file has
/// one (`conformance.rs`).
pub(crate) const CORPUS: &[Pin] = &[Pin {
    files: &["TestOrcFile.testUnionAndTimestamp.orc"],
    reader: Reader::Pyarrow,
    deviation: Deviation::Misreads {
        places: &[".union"],
        how: Misread::NullUnionAsFirst,
    },
    why: NULL_UNION,
}];

/// The files that pyarrow.orc and pyorc write (`fixtures.rs`): pqkit is compared with
/// the other reader's rows.
pub(crate) const FIXTURES: &[Pin] = &[
    Pin {
        files: &["pyarrow-unions-v0.orc", "pyarrow-unions-v1.orc"],
        reader: Reader::Pyorc,
        deviation: Deviation::Misreads {
            places: &[".sparse", ".dense", ".struct_union.u"],
            how: Misread::TaggedNullAsNull,
        },
        why: TAGGED_NULL,
    },
    Pin {
        files: &["pyorc-unions.orc"],
        reader: Reader::Pyarrow,
        deviation: Deviation::Aborts("Check failed: (data_->buffers[0]) == (nullptr)"),
        why: UNION_IN_NULLABLE_STRUCT,
    },
    Pin {
        files: &["pyorc-timestamps-wide.orc"],
        reader: Reader::Pyarrow,
        deviation: Deviation::Refuses("is out of range for nanosecond resolution"),
        why: NANOSECONDS,
    },
];

/// The files we write (`written.rs`): the readers are compared with the rows written.
pub(crate) const WRITTEN: &[Pin] = &[
    Pin {
        files: &["ours-unions-v0.orc", "ours-unions-v1.orc"],
        reader: Reader::Pyarrow,
        deviation: Deviation::Misreads {
            places: &[".u_null", ".u_rich"],
            how: Misread::NullUnionAsFirst,
        },
        why: NULL_UNION,
    },
    Pin {
        files: &["ours-unions-v0.orc", "ours-unions-v1.orc"],
        reader: Reader::Pyorc,
        deviation: Deviation::Misreads {
            places: &[".u_tagged"],
            how: Misread::TaggedNullAsNull,
        },
        why: TAGGED_NULL,
    },
    Pin {
        files: &["ours-union-in-struct-v1.orc"],
        reader: Reader::Pyarrow,
        deviation: Deviation::Aborts("Check failed: (data_->buffers[0]) == (nullptr)"),
        why: UNION_IN_NULLABLE_STRUCT,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misreadings_apply_to_their_values_only() {
        let null = Value::Null;
        let tagged: Value = serde_json::json!({"tag": 2, "value": null});
        let full: Value = serde_json::json!({"tag": 1, "value": 5});
        assert_eq!(
            Misread::NullUnionAsFirst.misreading(&null),
            Some(serde_json::json!({"tag": 0, "value": null}))
        );
        assert_eq!(Misread::NullUnionAsFirst.misreading(&tagged), None);
        assert_eq!(
            Misread::TaggedNullAsNull.misreading(&tagged),
            Some(Value::Null)
        );
        assert_eq!(Misread::TaggedNullAsNull.misreading(&null), None);
        assert_eq!(Misread::TaggedNullAsNull.misreading(&full), None);
    }

    #[test]
    fn every_file_is_pinned_once_a_reader() {
        for pins in [CORPUS, FIXTURES, WRITTEN] {
            for (i, pin) in pins.iter().enumerate() {
                assert!(!pin.why.is_empty());
                for file in pin.files {
                    assert!(
                        std::path::Path::new(file)
                            .extension()
                            .is_some_and(|e| e == "orc"),
                        "{file}"
                    );
                    assert!(
                        pins[..i]
                            .iter()
                            .all(|p| p.reader != pin.reader || !p.files.contains(file)),
                        "{file} pinned twice for {:?}",
                        pin.reader
                    );
                }
            }
        }
    }
}
