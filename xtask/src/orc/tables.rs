//! The tables that the ORC write side has `pqkit convert` write: an ORC type, and rows
//! from fixed seeds, printed by the rows contract (`written::json`) into the JSON Lines
//! that pqkit converts and that every reader must give back.
//!
//! Every primitive type has its extremes in the first rows of a column, then random
//! values; nullable slots are null in about one in seven (nineteen in twenty in the
//! null-heavy table), lists and maps empty in about one in six.
//!
//! Left out of the values, because the format cannot say them: timestamps in the second
//! before 1970 with a fraction (ORC stores the seconds truncated toward zero, and every
//! reader takes 1969-12-31T23:59:59.5 so stored for 1970-01-01T00:00:00.5); char values
//! shorter than their length (the writers pad them). Left out because a reader cannot
//! give them back: timestamps outside the years 1677 to 2262 (pyarrow's nanoseconds),
//! duplicate map keys (pyorc's dicts), and among the values of a union alternative, a
//! null inside a list or struct (pyorc reads it as a null union; at the top level the
//! misreadings are pinned).

use parquet_file::{Field, Row, TimeUnit};
use std::sync::Arc;

/// A table of the write side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Table {
    /// Every primitive type, with low- and high-cardinality strings.
    Flat,
    /// Lists, maps and structs nested in each other.
    Nested,
    /// Unions: null unions, alternatives holding null, every kind of alternative.
    Unions,
    /// A union inside a struct with nulls.
    UnionInStruct,
    /// Nineteen nulls in twenty, and columns of nulls only.
    Nulls,
    /// 20,000 rows, for several stripes and row groups.
    Stripes,
    /// `timestamp with local time zone`.
    Instant,
}

impl Table {
    /// The table's name in the files' names.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Flat => "flat",
            Self::Nested => "nested",
            Self::Unions => "unions",
            Self::UnionInStruct => "union-in-struct",
            Self::Nulls => "nulls",
            Self::Stripes => "stripes",
            Self::Instant => "instant",
        }
    }

    /// The table's ORC type, as `pqkit convert --schema` takes it.
    pub(crate) fn orc_type(self) -> &'static str {
        match self {
            Self::Flat => {
                "struct<b:boolean,i8:tinyint,i16:smallint,i32:int,i64:bigint,f32:float,\
                 f64:double,s:string,low:string,high:string,c:char(6),vc:varchar(10),\
                 bin:binary,d:date,ts:timestamp,dec_4_2:decimal(4,2),dec_18_6:decimal(18,6),\
                 dec_38_10:decimal(38,10),dec_38_0:decimal(38,0)>"
            }
            Self::Nested => {
                "struct<li:array<int>,lls:array<array<string>>,ls:array<struct<a:int,b:string>>,\
                 sl:struct<x:array<bigint>,y:string>,ss:struct<inner:struct<z:double>,w:smallint>,\
                 msi:map<string,int>,mil:map<int,array<string>>,lm:array<map<string,int>>,\
                 mdt:map<date,timestamp>,ld:array<decimal(7,3)>,lb:array<binary>,\
                 lbool:array<boolean>>"
            }
            Self::Unions => {
                "struct<u_null:uniontype<int,string,double>,u_tagged:uniontype<int,string,double>,\
                 u_rich:uniontype<boolean,binary,decimal(10,2),date,timestamp,array<int>,\
                 map<string,int>>,lu:array<uniontype<int,string>>,id:int>"
            }
            Self::UnionInStruct => "struct<s:struct<u:uniontype<bigint,string>,x:int>>",
            Self::Nulls => {
                "struct<i:int,s:string,d:double,ts:timestamp,dec:decimal(10,2),bin:binary,\
                 l:array<int>,m:map<string,int>,st:struct<a:int,b:string>,all_i:bigint,\
                 all_s:string,all_l:array<string>,all_st:struct<a:int>,all_m:map<int,int>>"
            }
            Self::Stripes => {
                "struct<id:bigint,low:string,high:string,x:double,ts:timestamp,\
                 tags:array<string>,kv:map<string,int>>"
            }
            Self::Instant => {
                "struct<tsl:timestamp with local time zone,ts:timestamp,\
                 l:array<timestamp with local time zone>>"
            }
        }
    }

    /// The table's rows.
    pub(crate) fn rows(self) -> Vec<Row> {
        let (n, seed) = match self {
            Self::Flat => (2000, 1),
            Self::Nested => (2000, 2),
            Self::Unions => (2000, 3),
            Self::UnionInStruct => (500, 4),
            Self::Nulls => (2000, 5),
            Self::Stripes => (20_000, 6),
            Self::Instant => (1000, 7),
        };
        let mut g = Gen::new(seed);
        let columns: Vec<(&str, Vec<Field>)> = match self {
            Self::Flat => flat(&mut g, n),
            Self::Nested => nested(&mut g, n),
            Self::Unions => unions(&mut g, n),
            Self::UnionInStruct => vec![(
                "s",
                g.column(n, NULLS, &[], |g| {
                    let u = if g.below(2) == 0 {
                        union(0, Field::Int(g.int(i64::MIN, i64::MAX)))
                    } else {
                        union(1, Field::Str(g.text(12)))
                    };
                    group(&[("u", u), ("x", Field::Int(g.int(-9, 9)))])
                }),
            )],
            Self::Nulls => null_heavy(&mut g, n),
            Self::Stripes => stripes(&mut g, n),
            Self::Instant => instant(&mut g, n),
        };
        rows_of(columns, n)
    }
}

/// Percent of nullable slots that are null.
const NULLS: u64 = 14;

/// Nanoseconds a second.
const NS: i64 = 1_000_000_000;

/// The timestamps of Arrow's 64-bit nanoseconds: about 1685 to 2255.
const TS_RANGE: i64 = 9_000_000_000_000_000_000;

/// The columns as rows.
fn rows_of(columns: Vec<(&str, Vec<Field>)>, n: usize) -> Vec<Row> {
    let names: Vec<Arc<str>> = columns.iter().map(|(name, _)| Arc::from(*name)).collect();
    let mut values: Vec<std::vec::IntoIter<Field>> =
        columns.into_iter().map(|(_, v)| v.into_iter()).collect();
    (0..n)
        .map(|_| {
            Row::new(
                names
                    .iter()
                    .zip(values.iter_mut())
                    .map(|(name, column)| (name.clone(), column.next().unwrap_or(Field::Null)))
                    .collect(),
            )
        })
        .collect()
}

fn group(fields: &[(&str, Field)]) -> Field {
    Field::Group(
        fields
            .iter()
            .map(|(name, value)| (Arc::from(*name), value.clone()))
            .collect(),
    )
}

fn union(tag: i64, value: Field) -> Field {
    group(&[("tag", Field::Int(tag)), ("value", value)])
}

fn timestamp(nanos: i64, utc: bool) -> Field {
    Field::Timestamp {
        value: i128::from(nanos),
        unit: TimeUnit::Nanos,
        utc,
    }
}

fn decimal(unscaled: i128, scale: u32) -> Field {
    Field::Decimal { unscaled, scale }
}

/// A deterministic generator of values (a 64-bit LCG, its high bits).
struct Gen(u64);

impl Gen {
    fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    fn next(&mut self) -> u64 {
        let mut step = || {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 32
        };
        (step() << 32) | step()
    }

    /// A value in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A value in `low..=high`.
    fn wide(&mut self, low: i128, high: i128) -> i128 {
        let span = high.wrapping_sub(low).cast_unsigned().wrapping_add(1);
        let bits = (u128::from(self.next()) << 64) | u128::from(self.next());
        low.wrapping_add(bits.checked_rem(span).unwrap_or(bits).cast_signed())
    }

    fn int(&mut self, low: i64, high: i64) -> i64 {
        i64::try_from(self.wide(i128::from(low), i128::from(high))).unwrap_or(low)
    }

    fn len(&mut self, most: u64) -> usize {
        usize::try_from(self.below(most + 1)).unwrap_or(0)
    }

    /// A uniform value in `-1000..1000`, in steps of 1/1024.
    fn real(&mut self) -> f64 {
        let steps = self.int(-1_024_000, 1_024_000);
        f64::from(i32::try_from(steps).unwrap_or(0)) / 1024.0 + 0.1
    }

    /// Text of up to `most` characters, some of them beyond ASCII.
    fn text(&mut self, most: u64) -> String {
        let n = self.len(most);
        (0..n).map(|_| self.char()).collect()
    }

    fn char(&mut self) -> char {
        const CHARS: [char; 14] = [
            'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', ' ', 'é', '日', '🦀',
        ];
        CHARS[usize::try_from(self.below(14)).unwrap_or(0)]
    }

    fn bytes(&mut self, most: u64) -> Vec<u8> {
        let n = self.len(most);
        (0..n).map(|_| self.next().to_le_bytes()[0]).collect()
    }

    /// A timestamp's nanoseconds: within Arrow's range, never in the second before 1970.
    fn nanos(&mut self) -> i64 {
        loop {
            let t = self.int(-TS_RANGE, TS_RANGE);
            if !(-NS < t && t < 0) {
                return t;
            }
        }
    }

    /// Days of the years about -200 to 10200.
    fn days(&mut self) -> i32 {
        i32::try_from(self.int(-800_000, 3_000_000)).unwrap_or(0)
    }

    /// `n` values: `head` first, then `make`'s, null in `nulls` percent of them.
    fn column(
        &mut self,
        n: usize,
        nulls: u64,
        head: &[Field],
        mut make: impl FnMut(&mut Self) -> Field,
    ) -> Vec<Field> {
        (0..n)
            .map(|i| match head.get(i) {
                Some(value) => value.clone(),
                None if self.chance(nulls) => Field::Null,
                None => make(self),
            })
            .collect()
    }

    /// A list of up to `most` of `make`'s values; empty in about one in six.
    fn list(&mut self, most: u64, mut make: impl FnMut(&mut Self) -> Field) -> Field {
        let n = if self.chance(17) { 0 } else { self.len(most) };
        Field::List((0..n).map(|_| make(self)).collect())
    }

    /// `make`'s value, or null in `nulls` percent.
    fn maybe(&mut self, nulls: u64, make: impl FnOnce(&mut Self) -> Field) -> Field {
        if self.chance(nulls) {
            Field::Null
        } else {
            make(self)
        }
    }
}

/// Whether `value` has two shortest decimal forms, as -1361.90625 has (-1361.9062 and
/// -1361.9063): numpy, which maps the readers' values, takes the even one; Rust's
/// formatting, which prints ours, the one away from zero. The tables hold none (the
/// fixture pyarrow-float-ties.orc has them).
fn is_tie(value: f32) -> bool {
    let digits = |text: &str| -> String {
        let mantissa = text.split('e').next().unwrap_or("");
        let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        all.trim_start_matches('0').trim_end_matches('0').to_owned()
    };
    let shortest = digits(&format!("{value:e}"));
    let exact = digits(&format!("{:.60e}", f64::from(value)));
    value.is_finite() && exact.len() == shortest.len() + 1 && exact.ends_with('5')
}

fn ints(values: &[i64]) -> Vec<Field> {
    values.iter().map(|&v| Field::Int(v)).collect()
}

#[allow(clippy::too_many_lines)] // one column a type
fn flat(g: &mut Gen, n: usize) -> Vec<(&'static str, Vec<Field>)> {
    let f32s: Vec<Field> = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        0.0,
        f32::from_bits(1),
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-7,
        0.1,
        123_456.79,
    ]
    .map(Field::Float)
    .to_vec();
    let f64s: Vec<Field> = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        0.0,
        f64::from_bits(1),
        f64::MAX,
        f64::MIN_POSITIVE,
        1e-7,
        0.1,
        123_456_789.0,
    ]
    .map(Field::Double)
    .to_vec();
    let words: Vec<Field> = [
        "",
        "ünïcödé",
        "日本語",
        "emoji 🦀",
        "quote \" and \\ back",
        "tab\tnew\nline",
        "\u{1}",
    ]
    .map(|s| Field::Str(s.to_owned()))
    .to_vec();
    let low = ["alpha", "beta", "gamma", "delta", "", "ε", "zeta", "eta"];
    let timestamps: Vec<Field> = [
        -TS_RANGE,
        TS_RANGE,
        0,
        -NS,
        -NS - 1,
        -NS - 999_999,
        -NS - 1_000_000,
        -2 * NS + 1,
        -86_400 * NS * 36_525 - 123_456_789,
        1_420_070_400 * NS,
        1_420_070_400 * NS - 1,
        1_420_070_400 * NS + 1,
        NS - 1,
    ]
    .map(|t| timestamp(t, false))
    .to_vec();
    let dates: Vec<Field> = [-719_162, 2_932_896, -1_000_000, 3_000_000, 0, -1, -141_427]
        .map(Field::Date)
        .to_vec();
    let p38 = 10_i128.pow(38) - 1;
    vec![
        ("b", g.column(n, NULLS, &[], |g| Field::Bool(g.chance(50)))),
        (
            "i8",
            g.column(n, NULLS, &ints(&[-128, 127, 0]), |g| {
                Field::Int(g.int(-128, 127))
            }),
        ),
        (
            "i16",
            g.column(n, NULLS, &ints(&[-32_768, 32_767, 0]), |g| {
                Field::Int(g.int(-32_768, 32_767))
            }),
        ),
        (
            "i32",
            g.column(
                n,
                NULLS,
                &ints(&[i32::MIN.into(), i32::MAX.into(), 0]),
                |g| Field::Int(g.int(i32::MIN.into(), i32::MAX.into())),
            ),
        ),
        (
            "i64",
            g.column(n, NULLS, &ints(&[i64::MIN, i64::MAX, 0]), |g| {
                Field::Int(g.int(i64::MIN, i64::MAX))
            }),
        ),
        (
            "f32",
            g.column(n, NULLS, &f32s, |g| {
                #[allow(clippy::cast_possible_truncation)]
                let f = g.real() as f32;
                Field::Float(if is_tie(f) { f.next_up() } else { f })
            }),
        ),
        (
            "f64",
            g.column(n, NULLS, &f64s, |g| Field::Double(g.real())),
        ),
        ("s", g.column(n, NULLS, &words, |g| Field::Str(g.text(12)))),
        (
            "low",
            g.column(n, NULLS, &[], |g| {
                Field::Str(low[usize::try_from(g.below(8)).unwrap_or(0)].to_owned())
            }),
        ),
        ("high", {
            let mut i = 0;
            g.column(n, NULLS, &[], |g| {
                i += 1;
                Field::Str(format!("{i}-{}", g.text(8)))
            })
        }),
        (
            "c",
            g.column(n, NULLS, &[], |g| {
                Field::Str((0..6).map(|_| g.char()).collect())
            }),
        ),
        ("vc", g.column(n, NULLS, &[], |g| Field::Str(g.text(10)))),
        (
            "bin",
            g.column(n, NULLS, &[Field::Bytes(Vec::new())], |g| {
                Field::Bytes(g.bytes(20))
            }),
        ),
        ("d", g.column(n, NULLS, &dates, |g| Field::Date(g.days()))),
        (
            "ts",
            g.column(n, NULLS, &timestamps, |g| timestamp(g.nanos(), false)),
        ),
        (
            "dec_4_2",
            g.column(
                n,
                NULLS,
                &[decimal(9999, 2), decimal(-9999, 2), decimal(0, 2)],
                |g| decimal(g.wide(-9999, 9999), 2),
            ),
        ),
        ("dec_18_6", {
            let p = 10_i128.pow(18) - 1;
            g.column(
                n,
                NULLS,
                &[decimal(p, 6), decimal(-p, 6), decimal(0, 6)],
                |g| decimal(g.wide(-p, p), 6),
            )
        }),
        (
            "dec_38_10",
            g.column(
                n,
                NULLS,
                &[decimal(p38, 10), decimal(-p38, 10), decimal(1, 10)],
                |g| decimal(g.wide(-p38, p38), 10),
            ),
        ),
        (
            "dec_38_0",
            g.column(
                n,
                NULLS,
                &[decimal(p38, 0), decimal(-p38, 0), decimal(0, 0)],
                |g| decimal(g.wide(-p38, p38), 0),
            ),
        ),
    ]
}

#[allow(clippy::too_many_lines)] // one column a shape
fn nested(g: &mut Gen, n: usize) -> Vec<(&'static str, Vec<Field>)> {
    let int = |g: &mut Gen| g.maybe(NULLS, |g| Field::Int(g.int(-1000, 1000)));
    let text = |g: &mut Gen| g.maybe(NULLS, |g| Field::Str(g.text(8)));
    let pairs = |g: &mut Gen, most: u64| {
        let k = g.len(most);
        Field::Map(
            (0..k)
                .map(|j| (Field::Str(format!("k{j}")), int(g)))
                .collect(),
        )
    };
    vec![
        ("li", g.column(n, NULLS, &[], |g| g.list(5, int))),
        (
            "lls",
            g.column(n, NULLS, &[], |g| {
                g.list(4, |g| g.maybe(NULLS, |g| g.list(3, text)))
            }),
        ),
        (
            "ls",
            g.column(n, NULLS, &[], |g| {
                g.list(4, |g| {
                    g.maybe(10, |g| {
                        let a = int(g);
                        let b = text(g);
                        group(&[("a", a), ("b", b)])
                    })
                })
            }),
        ),
        (
            "sl",
            g.column(n, NULLS, &[], |g| {
                let x = g.maybe(NULLS, |g| {
                    g.list(5, |g| {
                        g.maybe(NULLS, |g| Field::Int(g.int(i64::MIN, i64::MAX)))
                    })
                });
                let y = text(g);
                group(&[("x", x), ("y", y)])
            }),
        ),
        (
            "ss",
            g.column(n, NULLS, &[], |g| {
                let inner = g.maybe(NULLS, |g| {
                    let z = g.maybe(NULLS, |g| Field::Double(g.real()));
                    group(&[("z", z)])
                });
                let w = g.maybe(NULLS, |g| Field::Int(g.int(-32_768, 32_767)));
                group(&[("inner", inner), ("w", w)])
            }),
        ),
        (
            "msi",
            g.column(n, NULLS, &[], |g| {
                if g.chance(17) {
                    Field::Map(Vec::new())
                } else {
                    pairs(g, 5)
                }
            }),
        ),
        (
            "mil",
            g.column(n, NULLS, &[], |g| {
                let k = if g.chance(17) { 0 } else { g.len(4) };
                Field::Map(
                    (0..k)
                        .map(|j| {
                            let key = Field::Int(i64::try_from(j).unwrap_or(0) * 7 - 10);
                            (key, g.maybe(NULLS, |g| g.list(3, text)))
                        })
                        .collect(),
                )
            }),
        ),
        (
            "lm",
            g.column(n, NULLS, &[], |g| {
                g.list(3, |g| g.maybe(NULLS, |g| pairs(g, 3)))
            }),
        ),
        (
            "mdt",
            g.column(n, NULLS, &[], |g| {
                let k = if g.chance(17) { 0 } else { g.len(4) };
                let first = g.days();
                Field::Map(
                    (0..k)
                        .map(|j| {
                            let day = first + i32::try_from(j).unwrap_or(0) * 31;
                            (
                                Field::Date(day),
                                g.maybe(NULLS, |g| timestamp(g.nanos(), false)),
                            )
                        })
                        .collect(),
                )
            }),
        ),
        (
            "ld",
            g.column(n, NULLS, &[], |g| {
                g.list(4, |g| {
                    g.maybe(NULLS, |g| decimal(g.wide(-9_999_999, 9_999_999), 3))
                })
            }),
        ),
        (
            "lb",
            g.column(n, NULLS, &[], |g| {
                g.list(3, |g| g.maybe(NULLS, |g| Field::Bytes(g.bytes(6))))
            }),
        ),
        (
            "lbool",
            g.column(n, NULLS, &[], |g| {
                g.list(9, |g| g.maybe(NULLS, |g| Field::Bool(g.chance(50))))
            }),
        ),
    ]
}

/// One of three alternatives: int, string, double.
fn small_union(g: &mut Gen, value_nulls: u64) -> Field {
    let tag = g.below(3);
    let value = g.maybe(value_nulls, |g| match tag {
        0 => Field::Int(g.int(i32::MIN.into(), i32::MAX.into())),
        1 => Field::Str(g.text(10)),
        _ => Field::Double(g.real()),
    });
    union(i64::try_from(tag).unwrap_or(0), value)
}

fn unions(g: &mut Gen, n: usize) -> Vec<(&'static str, Vec<Field>)> {
    let mut id = 0;
    vec![
        ("u_null", g.column(n, NULLS, &[], |g| small_union(g, 0))),
        ("u_tagged", g.column(n, 0, &[], |g| small_union(g, NULLS))),
        (
            "u_rich",
            g.column(n, NULLS, &[], |g| {
                let tag = g.below(7);
                let value = match tag {
                    0 => Field::Bool(g.chance(50)),
                    1 => Field::Bytes(g.bytes(8)),
                    2 => decimal(g.wide(-9_999_999_999, 9_999_999_999), 2),
                    3 => Field::Date(g.days()),
                    4 => timestamp(g.nanos(), false),
                    5 => g.list(4, |g| g.maybe(NULLS, |g| Field::Int(g.int(0, 99)))),
                    _ => {
                        let k = g.len(3);
                        Field::Map(
                            (0..k)
                                .map(|j| {
                                    let v = g.maybe(NULLS, |g| Field::Int(g.int(0, 9)));
                                    (Field::Str(format!("k{j}")), v)
                                })
                                .collect(),
                        )
                    }
                };
                union(i64::try_from(tag).unwrap_or(0), value)
            }),
        ),
        (
            "lu",
            g.column(n, NULLS, &[], |g| {
                g.list(4, |g| {
                    if g.chance(50) {
                        union(0, Field::Int(g.int(-100, 100)))
                    } else {
                        union(1, Field::Str(g.text(6)))
                    }
                })
            }),
        ),
        (
            "id",
            g.column(n, 0, &[], |_| {
                id += 1;
                Field::Int(id)
            }),
        ),
    ]
}

fn null_heavy(g: &mut Gen, n: usize) -> Vec<(&'static str, Vec<Field>)> {
    const MOST: u64 = 95;
    vec![
        (
            "i",
            g.column(n, MOST, &[], |g| {
                Field::Int(g.int(i32::MIN.into(), i32::MAX.into()))
            }),
        ),
        ("s", g.column(n, MOST, &[], |g| Field::Str(g.text(10)))),
        ("d", g.column(n, MOST, &[], |g| Field::Double(g.real()))),
        (
            "ts",
            g.column(n, MOST, &[], |g| timestamp(g.nanos(), false)),
        ),
        (
            "dec",
            g.column(n, MOST, &[], |g| {
                decimal(g.wide(-9_999_999_999, 9_999_999_999), 2)
            }),
        ),
        ("bin", g.column(n, MOST, &[], |g| Field::Bytes(g.bytes(10)))),
        (
            "l",
            g.column(n, MOST, &[], |g| {
                g.list(5, |g| g.maybe(MOST, |g| Field::Int(g.int(-9, 9))))
            }),
        ),
        (
            "m",
            g.column(n, MOST, &[], |g| {
                let k = g.len(3);
                Field::Map(
                    (0..k)
                        .map(|j| {
                            (
                                Field::Str(format!("k{j}")),
                                g.maybe(MOST, |g| Field::Int(g.int(0, 9))),
                            )
                        })
                        .collect(),
                )
            }),
        ),
        (
            "st",
            g.column(n, MOST, &[], |g| {
                let a = g.maybe(MOST, |g| Field::Int(g.int(0, 9)));
                let b = g.maybe(MOST, |g| Field::Str(g.text(4)));
                group(&[("a", a), ("b", b)])
            }),
        ),
        ("all_i", vec![Field::Null; n]),
        ("all_s", vec![Field::Null; n]),
        ("all_l", vec![Field::Null; n]),
        ("all_st", vec![Field::Null; n]),
        ("all_m", vec![Field::Null; n]),
    ]
}

fn stripes(g: &mut Gen, n: usize) -> Vec<(&'static str, Vec<Field>)> {
    let low = ["north", "south", "east", "west", "up", "down", "in", "out"];
    let pick = |g: &mut Gen| Field::Str(low[usize::try_from(g.below(8)).unwrap_or(0)].to_owned());
    let mut id = -1;
    let mut serial = 0;
    vec![
        (
            "id",
            g.column(n, 0, &[], |_| {
                id += 1;
                Field::Int(id)
            }),
        ),
        ("low", g.column(n, NULLS, &[], pick)),
        (
            "high",
            g.column(n, NULLS, &[], |g| {
                serial += 1;
                Field::Str(format!("h{serial}-{}", g.next() % 1_000_000))
            }),
        ),
        ("x", g.column(n, NULLS, &[], |g| Field::Double(g.real()))),
        (
            "ts",
            g.column(n, NULLS, &[], |g| timestamp(g.nanos(), false)),
        ),
        (
            "tags",
            g.column(n, NULLS, &[], |g| g.list(4, |g| g.maybe(NULLS, pick))),
        ),
        (
            "kv",
            g.column(n, NULLS, &[], |g| {
                let k = g.len(3);
                Field::Map(
                    (0..k)
                        .map(|j| {
                            (
                                Field::Str(format!("k{j}")),
                                g.maybe(NULLS, |g| Field::Int(g.int(0, 99))),
                            )
                        })
                        .collect(),
                )
            }),
        ),
    ]
}

fn instant(g: &mut Gen, n: usize) -> Vec<(&'static str, Vec<Field>)> {
    let head: Vec<Field> = [-TS_RANGE, TS_RANGE, 0, -NS - 1, 1_420_070_400 * NS]
        .map(|t| timestamp(t, true))
        .to_vec();
    vec![
        (
            "tsl",
            g.column(n, NULLS, &head, |g| timestamp(g.nanos(), true)),
        ),
        (
            "ts",
            g.column(n, NULLS, &[], |g| timestamp(g.nanos(), false)),
        ),
        (
            "l",
            g.column(n, NULLS, &[], |g| {
                g.list(3, |g| g.maybe(NULLS, |g| timestamp(g.nanos(), true)))
            }),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_deterministic_and_full() {
        for table in [
            Table::Flat,
            Table::Nested,
            Table::Unions,
            Table::Nulls,
            Table::Instant,
        ] {
            let rows = table.rows();
            let text = |rows: &[Row]| {
                rows.iter()
                    .map(crate::written::json::row)
                    .collect::<Vec<_>>()
            };
            // As text: NaN is not equal to itself.
            assert_eq!(text(&rows), text(&table.rows()), "{table:?}");
            let fields = table.orc_type().matches(':').count();
            assert!(rows[0].fields().len() <= fields, "{table:?}");
            assert!(
                rows.iter()
                    .all(|r| r.fields().len() == rows[0].fields().len())
            );
        }
    }

    #[test]
    fn unions_hold_both_nulls_apart() {
        let rows = Table::Unions.rows();
        let null_unions = rows
            .iter()
            .filter(|r| r.get("u_null") == Some(&Field::Null))
            .count();
        let tagged_nulls = rows
            .iter()
            .filter(|r| matches!(r.get("u_tagged"), Some(Field::Group(f)) if f[1].1 == Field::Null))
            .count();
        assert!(null_unions > 100 && tagged_nulls > 100);
        assert!(rows.iter().all(|r| r.get("u_tagged") != Some(&Field::Null)));
    }

    #[test]
    fn ties_are_told() {
        assert!(is_tie(-43_581.0 / 32.0));
        assert!(is_tie(32_769.0 / 32.0));
        assert!(!is_tie(0.156_25));
        assert!(!is_tie(0.1));
        assert!(!is_tie(f32::NAN));
        let rows = Table::Flat.rows();
        assert!(
            rows.iter()
                .all(|r| !matches!(r.get("f32"), Some(Field::Float(f)) if is_tie(*f)))
        );
    }

    #[test]
    fn no_timestamp_in_the_second_before_1970() {
        let mut g = Gen::new(9);
        assert!((0..10_000).map(|_| g.nanos()).all(|t| !(-NS < t && t < 0)));
    }
}
