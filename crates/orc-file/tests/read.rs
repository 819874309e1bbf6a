//! The reader on files the writer makes: every type and codec read back equal, and
//! projections and predicates (stripes and row groups skipped, the rest found by
//! seeking with the row index) give exactly the rows of the parts they keep.

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss,
    clippy::cast_lossless,
    clippy::similar_names
)]

use std::sync::Arc;

use bytes::Bytes;
use orc_file::{
    OrcCompression, OrcReader, OrcVersion, OrcWriter, ReadOptions, TypeDescription, WriterOptions,
};
use parquet_core::{Field, Op, Predicate, Row, TimeUnit};

const SCHEMA: &str = "struct<id:bigint,flag:boolean,tiny:tinyint,small:smallint,int:int,\
                      f:float,d:double,s:string,low:string,v:varchar(20),bin:binary,\
                      ts:timestamp,day:date,dec:decimal(12,3),\
                      l:array<int>,m:map<string,double>,st:struct<a:int,b:string>,\
                      u:uniontype<int,string>>";

/// A deterministic pseudo-random sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn name(s: &str) -> Arc<str> {
    Arc::from(s)
}

/// Row `i`: nulls in every column now and then, and a run of all-null rows.
fn row(i: u64, rng: &mut Rng) -> Row {
    let mut null = |p: u64| (400..450).contains(&i) || rng.below(100) < p;
    let mut fields = vec![(name("id"), Field::Int(i as i64))];
    let mut put = |n: &str, null_p: bool, f: Field| {
        fields.push((name(n), if null_p { Field::Null } else { f }));
    };
    put("flag", null(10), Field::Bool(i.is_multiple_of(3)));
    put("tiny", null(5), Field::Int((i % 256) as i64 - 128));
    put("small", null(5), Field::Int((i * 7 % 65536) as i64 - 32768));
    put(
        "int",
        null(5),
        Field::Int((i as i64 * 7919) % 1_000_000 - 500_000),
    );
    put("f", null(5), Field::Float(i as f32 / 4.0));
    put("d", null(5), Field::Double(i as f64 * -1.5));
    put(
        "s",
        null(5),
        Field::Str(format!("value {i} {}", "x".repeat((i % 13) as usize))),
    );
    put(
        "low",
        null(20),
        Field::Str(["red", "green", "blue"][(i % 3) as usize].to_owned()),
    );
    put("v", null(5), Field::Str(format!("v{}", i % 1000)));
    put(
        "bin",
        null(5),
        Field::Bytes(i.to_le_bytes()[..(i % 8) as usize].to_vec()),
    );
    put(
        "ts",
        null(5),
        Field::Timestamp {
            value: (i as i128 - 2500) * 86_400_123_456_789,
            unit: TimeUnit::Nanos,
            utc: false,
        },
    );
    put("day", null(5), Field::Date(i as i32 - 2000));
    put(
        "dec",
        null(5),
        Field::Decimal {
            unscaled: i as i128 * 1001 - 77_777,
            scale: 3,
        },
    );
    let list = (0..i % 4)
        .map(|j| {
            if j == 2 {
                Field::Null
            } else {
                Field::Int(j as i64)
            }
        })
        .collect();
    put("l", null(10), Field::List(list));
    let map = (0..i % 3)
        .map(|j| (Field::Str(format!("k{j}")), Field::Double(j as f64)))
        .collect();
    put("m", null(10), Field::Map(map));
    put(
        "st",
        null(10),
        Field::Group(vec![
            (
                name("a"),
                if i.is_multiple_of(5) {
                    Field::Null
                } else {
                    Field::Int(i as i64)
                },
            ),
            (name("b"), Field::Str(format!("b{}", i % 17))),
        ]),
    );
    let u = if i.is_multiple_of(2) {
        Field::Group(vec![
            (name("tag"), Field::Int(0)),
            (name("value"), Field::Int(i as i64)),
        ])
    } else {
        Field::Group(vec![
            (name("tag"), Field::Int(1)),
            (name("value"), Field::Str(format!("u{i}"))),
        ])
    };
    put("u", null(10), u);
    Row::new(fields)
}

fn rows(count: u64) -> Vec<Row> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..count).map(|i| row(i, &mut rng)).collect()
}

fn write(rows: &[Row], options: WriterOptions) -> Bytes {
    let schema = TypeDescription::parse(SCHEMA).unwrap();
    let mut writer = OrcWriter::new(Vec::new(), schema, options).unwrap();
    for row in rows {
        writer.write_row(row).unwrap();
    }
    Bytes::from(writer.finish().unwrap())
}

fn read(bytes: &Bytes, options: ReadOptions) -> Vec<Row> {
    OrcReader::open(bytes.clone())
        .unwrap()
        .rows(options)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Small stripes and row groups, and chunks smaller than both, so that seeks land in
/// the middle of chunks and runs.
fn options(version: OrcVersion, compression: OrcCompression) -> WriterOptions {
    WriterOptions::default()
        .version(version)
        .compression(compression)
        .compression_block_size(4096)
        .stripe_size(200_000)
        .row_index_stride(300)
}

#[test]
fn every_type_and_codec_reads_back() {
    let input = rows(3000);
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        for compression in OrcCompression::ALL.into_iter().filter(|c| c.is_enabled()) {
            let bytes = write(&input, options(version, compression));
            let reader = OrcReader::open(bytes.clone()).unwrap();
            assert!(
                reader.stripes().len() > 1,
                "{version} {compression}: one stripe"
            );
            assert_eq!(
                read(&bytes, ReadOptions::default().with_batch_size(333)),
                input,
                "{version} {compression}"
            );
        }
    }
}

#[test]
fn projections_read_only_their_columns() {
    let input = rows(1000);
    let bytes = write(&input, options(OrcVersion::V0_12, OrcCompression::Zlib));
    let got = read(
        &bytes,
        ReadOptions::default().with_projection(["st.b", "id", "u"]),
    );
    assert_eq!(got.len(), input.len());
    for (got, want) in got.iter().zip(&input) {
        let names: Vec<&str> = got.fields().iter().map(|(n, _)| &**n).collect();
        assert_eq!(names, ["id", "st", "u"]);
        assert_eq!(got.get("id"), want.get("id"));
        assert_eq!(got.get("u"), want.get("u"));
        let b = want.get_path(&["st".to_owned(), "b".to_owned()]);
        match got.get("st") {
            Some(Field::Group(fields)) => {
                assert_eq!(fields.len(), 1);
                assert_eq!(Some(&fields[0].1), b);
            }
            other => assert_eq!(other, Some(&Field::Null)),
        }
    }
    let reader = OrcReader::open(bytes).unwrap();
    assert!(
        reader
            .rows(ReadOptions::default().with_projection(["nope"]))
            .is_err()
    );
}

/// The rows of the row groups (of `stride` rows, per stripe) that hold a row matching
/// `keep`, as a reader that skips the others must return them.
fn expected_groups(
    input: &[Row],
    stripes: &[u64],
    stride: u64,
    keep: impl Fn(&Row) -> bool,
) -> Vec<Row> {
    let mut out = Vec::new();
    let mut start = 0;
    for &rows in stripes {
        let stripe = &input[start as usize..(start + rows) as usize];
        for group in stripe.chunks(stride as usize) {
            if group.iter().any(&keep) {
                out.extend_from_slice(group);
            }
        }
        start += rows;
    }
    out
}

#[test]
fn predicates_skip_stripes_and_row_groups_and_seek_to_the_rest() {
    let input = rows(3000);
    for version in [OrcVersion::V0_11, OrcVersion::V0_12] {
        for compression in [
            OrcCompression::None,
            OrcCompression::Zlib,
            OrcCompression::Zstd,
        ] {
            if !compression.is_enabled() {
                continue;
            }
            let bytes = write(&input, options(version, compression));
            let reader = OrcReader::open(bytes.clone()).unwrap();
            let stripes: Vec<u64> = reader.stripes().iter().map(|s| s.num_rows).collect();
            let cases = [
                Predicate::compare("id", Op::Ge, 2500),
                Predicate::compare("id", Op::Lt, 700).or(Predicate::compare("id", Op::Eq, 1800)),
                Predicate::compare("id", Op::Gt, 650).and(Predicate::compare("id", Op::Le, 1250)),
                Predicate::compare("int", Op::Gt, 499_000),
            ];
            for predicate in cases {
                let want = expected_groups(&input, &stripes, 300, |r| predicate.matches(r));
                let got = read(
                    &bytes,
                    ReadOptions::default()
                        .with_predicate(predicate.clone())
                        .with_batch_size(128),
                );
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{version} {compression} {predicate:?}"
                );
                assert!(
                    got == want,
                    "{version} {compression} {predicate:?}: rows differ"
                );
            }
            // Nothing matches: nothing is read.
            let none = Predicate::compare("id", Op::Gt, 1_000_000);
            assert!(read(&bytes, ReadOptions::default().with_predicate(none)).is_empty());
            // Columns the statistics cannot judge keep every row.
            let unjudged = Predicate::compare(parquet_core::ColumnPath::new(["l"]), Op::Eq, 1);
            assert_eq!(
                read(&bytes, ReadOptions::default().with_predicate(unjudged)).len(),
                input.len()
            );
        }
    }
}

#[test]
fn statistics_describe_the_values() {
    let input = rows(1000);
    let bytes = write(&input, options(OrcVersion::V0_12, OrcCompression::Snappy));
    let reader = OrcReader::open(bytes).unwrap();
    let file = reader.file_statistics();
    assert_eq!(file.len(), reader.schema().column_count());
    // The id column: every value, none null.
    assert_eq!(file[1].number_of_values, 1000);
    let stripes = reader.stripe_statistics().unwrap();
    assert_eq!(stripes.len(), reader.stripes().len());
    let per_stripe: u64 = stripes.iter().map(|s| s[1].number_of_values).sum();
    assert_eq!(per_stripe, 1000);
}
