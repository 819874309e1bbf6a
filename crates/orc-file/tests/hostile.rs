//! Files whose streams claim more than their bytes hold: a list of 2^30 elements, a
//! stripe of 2^40 rows, a dictionary of 2^31 entries. Each read is an error, quickly
//! and without an allocation sized by the claim.

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
use orc_file::proto::stream::Kind as StreamKind;
use orc_file::{
    ErrorKind, Limits, OrcCompression, OrcReader, OrcWriter, ReadOptions, Strings, TypeDescription,
    WriterOptions, proto,
};
use parquet_core::{Field, Row};
use prost::Message;

/// An uncompressed file of `schema` holding `rows`.
fn file(schema: &str, rows: &[Row]) -> Vec<u8> {
    let options = WriterOptions::default().compression(OrcCompression::None);
    let mut writer =
        OrcWriter::new(Vec::new(), TypeDescription::parse(schema).unwrap(), options).unwrap();
    for row in rows {
        writer.write_row(row).unwrap();
    }
    writer.finish().unwrap()
}

/// Where stream `kind` of `column` of the first stripe is.
fn stream(bytes: &[u8], column: u32, kind: StreamKind) -> (usize, usize) {
    let reader = OrcReader::open(Bytes::copy_from_slice(bytes)).unwrap();
    let footer = reader.stripe_footer(0).unwrap();
    let s = footer
        .streams
        .iter()
        .find(|s| s.column == column && s.kind == kind as i32)
        .unwrap();
    (s.offset as usize, s.length as usize)
}

fn read_all(bytes: Vec<u8>) -> Result<usize, orc_file::Error> {
    read_batches_of(bytes, 1024)
}

fn read_batches_of(bytes: Vec<u8>, rows: usize) -> Result<usize, orc_file::Error> {
    let reader = OrcReader::open(Bytes::from(bytes))?;
    let mut n = 0;
    for row in reader.rows(ReadOptions::default().with_batch_size(rows))? {
        row?;
        n += 1;
    }
    Ok(n)
}

fn list_rows() -> Vec<Row> {
    (0..100)
        .map(|i| {
            let len = (i * 7919 % 11) as usize;
            Row::new(vec![(
                Arc::from("l"),
                Field::List(vec![Field::Int(i); len]),
            )])
        })
        .collect()
}

/// An RLE v2 short repeat: an unsigned 4-byte `value`, 3 times.
fn short_repeat(value: u32) -> [u8; 5] {
    let [a, b, c, d] = value.to_be_bytes();
    [0b0001_1000, a, b, c, d]
}

#[test]
fn a_list_of_a_billion_elements_is_refused() {
    let mut bytes = file("struct<l:array<bigint>>", &list_rows());
    let (offset, len) = stream(&bytes, 1, StreamKind::Length);
    assert!(len >= 5, "{len}");
    // Keep the stream's length: the first run claims 2^30 elements, 3 times.
    bytes[offset..offset + 5].copy_from_slice(&short_repeat(1 << 30));
    // Batches of the three rows the first run covers: one list is past the limit of a
    // row, and with that limit raised, three are past that of a batch.
    let error = read_batches_of(bytes.clone(), 3).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            ErrorKind::LimitExceeded {
                limit: "values under one list or map of one row (max_record_values)",
                value: 1_073_741_824,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.location().stripe, Some(0), "{error}");
    assert_eq!(error.location().column, Some(1), "{error}");
    let reader = OrcReader::open(Bytes::from(bytes)).unwrap();
    let limits = Limits::default().with_max_record_values(1 << 30);
    let options = ReadOptions::default()
        .with_batch_size(3)
        .with_limits(limits);
    let error = reader
        .batches(options)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(
            error.kind(),
            ErrorKind::LimitExceeded {
                limit: "values under the lists or maps of one batch (max_batch_values)",
                value: 1_073_741_824,
                max: 16_777_216,
            }
        ),
        "{error}"
    );
}

#[test]
fn a_list_longer_than_its_elements_is_refused() {
    let mut bytes = file("struct<l:array<bigint>>", &list_rows());
    let (offset, _) = stream(&bytes, 1, StreamKind::Length);
    // 2^19 elements in each of three lists, under the limits: the elements' stream runs
    // out long before.
    bytes[offset..offset + 5].copy_from_slice(&short_repeat(1 << 19));
    let error = read_batches_of(bytes, 3).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::ShortStream { .. }),
        "{error}"
    );
    // The elements' column, whose stream runs out.
    assert_eq!(error.location().column, Some(2), "{error}");
    assert_eq!(error.location().stream, Some("DATA"), "{error}");
    assert_eq!(error.location().stripe, Some(0), "{error}");
}

/// `bytes` with its first stripe's footer and its file footer changed by `edit`.
fn rewrite(
    bytes: &[u8],
    edit: impl FnOnce(&mut proto::StripeFooter, &mut proto::Footer),
) -> Vec<u8> {
    let reader = OrcReader::open(Bytes::copy_from_slice(bytes)).unwrap();
    let info = reader.stripes()[0];
    let at = (info.offset + info.index_length + info.data_length) as usize;
    let old_end = at + info.footer_length as usize;
    let ps_len = *bytes.last().unwrap() as usize;
    let ps = proto::PostScript::decode(&bytes[bytes.len() - 1 - ps_len..bytes.len() - 1]).unwrap();
    let footer_start = bytes.len() - 1 - ps_len - ps.footer_length.unwrap() as usize;
    let mut stripe_footer = proto::StripeFooter::decode(&bytes[at..old_end]).unwrap();
    let mut footer = proto::Footer::decode(&bytes[footer_start..bytes.len() - 1 - ps_len]).unwrap();
    edit(&mut stripe_footer, &mut footer);
    let stripe_footer = stripe_footer.encode_to_vec();
    footer.stripes[0].footer_length = Some(stripe_footer.len() as u64);
    // Nothing after the first stripe moves but by the change of its footer's length.
    let shift = stripe_footer.len() as i64 - info.footer_length as i64;
    for s in footer.stripes.iter_mut().skip(1) {
        s.offset = Some((s.offset.unwrap() as i64 + shift) as u64);
    }
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(&stripe_footer);
    out.extend_from_slice(&bytes[old_end..footer_start]);
    let footer = footer.encode_to_vec();
    out.extend_from_slice(&footer);
    let ps = proto::PostScript {
        footer_length: Some(footer.len() as u64),
        ..ps
    }
    .encode_to_vec();
    out.extend_from_slice(&ps);
    out.push(u8::try_from(ps.len()).unwrap());
    out
}

#[test]
fn a_stripe_of_more_rows_than_its_streams_hold_is_refused() {
    let rows: Vec<Row> = (0..100)
        .map(|i| Row::new(vec![(Arc::from("a"), Field::Int(i))]))
        .collect();
    let bytes = file("struct<a:bigint>", &rows);
    assert_eq!(
        read_all(rewrite(&bytes, |_, _| {})).unwrap(),
        100,
        "the rewrite alone changes nothing"
    );
    let claimed = rewrite(&bytes, |_, footer| {
        footer.number_of_rows = Some(1 << 40);
        footer.stripes[0].number_of_rows = Some(1 << 40);
    });
    let error = read_all(claimed).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::ShortStream { .. }),
        "{error}"
    );
}

#[test]
fn a_dictionary_larger_than_its_bytes_is_refused() {
    let rows: Vec<Row> = (0..100)
        .map(|i| {
            Row::new(vec![(
                Arc::from("s"),
                Field::Str(["a", "b"][i % 2].to_owned()),
            )])
        })
        .collect();
    let bytes = file("struct<s:string>", &rows);
    let claimed = rewrite(&bytes, |stripe, _| {
        assert_eq!(
            stripe.columns[1].kind,
            Some(proto::column_encoding::Kind::DictionaryV2 as i32),
            "the writer chose a dictionary"
        );
        stripe.columns[1].dictionary_size = Some(1 << 31);
    });
    // The entries are read a step at a time: the lengths run out after the two there
    // are, before anything is sized by the claim. (Lengths that go on, all 0, would be
    // `DictionaryTooLarge`: entries are distinct, so all but one take a byte.)
    let error = read_all(claimed).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            ErrorKind::ShortStream {
                expected: 2_147_483_648,
                found: 2,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.location().column, Some(1), "{error}");
    assert_eq!(error.location().stream, Some("LENGTH"), "{error}");
}

#[test]
fn batches_of_a_long_entry_repeated_end_at_the_byte_budget() {
    // One 100 KiB dictionary entry under 3,000 rows: 300 MB in a batch of them all.
    let value = "x".repeat(100 << 10);
    let rows: Vec<Row> = (0..3000)
        .map(|i| {
            let s = if i % 10 == 9 {
                Field::Null
            } else {
                Field::Str(value.clone())
            };
            Row::new(vec![("s".into(), s)])
        })
        .collect();
    let bytes = Bytes::from(file("struct<s:string>", &rows));
    let reader = OrcReader::open(bytes).unwrap();
    let encoding = reader.stripe_footer(0).unwrap().encodings[1].kind;
    assert_eq!(
        encoding,
        Some(proto::column_encoding::Kind::DictionaryV2 as i32),
        "the writer chose a dictionary"
    );
    let sizes = |options: ReadOptions| -> Vec<usize> {
        let batches = reader.batches(options).unwrap();
        batches.map(|b| b.unwrap().num_rows).collect()
    };
    let all = ReadOptions::default().with_batch_size(3000);
    // 64 MiB hold 655 values of 100 KiB: 727 or 728 rows with their nulls (a tenth).
    assert_eq!(sizes(all.clone()), [727, 728, 728, 728, 89]);
    // A larger budget takes them all at once; a smaller one a row at a time, since
    // each value alone passes it.
    let larger = Limits::default().with_max_batch_bytes(400 << 20);
    assert_eq!(sizes(all.clone().with_limits(larger)), [3000]);
    let smaller = Limits::default().with_max_batch_bytes(50 << 10);
    assert_eq!(sizes(all.with_limits(smaller)), vec![1; 3000]);
    // The rows read are the rows written.
    let read: Vec<Row> = reader
        .rows(ReadOptions::default())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(read == rows);
}

#[test]
fn batches_of_long_direct_strings_in_a_compressed_stream_end_at_the_byte_budget() {
    // 300 distinct values of 10 KiB, stored directly, ZSTD in chunks of 4 KiB: the
    // stream is decoded a chunk at a time, and the batches still end at the budget.
    let rows: Vec<Row> = (0..300)
        .map(|i| {
            Row::new(vec![(
                "s".into(),
                Field::Str(format!("{i:05}").repeat(2048)),
            )])
        })
        .collect();
    let options = WriterOptions::default()
        .compression(OrcCompression::Zstd)
        .compression_block_size(4096);
    let mut writer = OrcWriter::new(
        Vec::new(),
        TypeDescription::parse("struct<s:string>").unwrap(),
        options,
    )
    .unwrap();
    for row in &rows {
        writer.write_row(row).unwrap();
    }
    let reader = OrcReader::open(Bytes::from(writer.finish().unwrap())).unwrap();
    let encoding = reader.stripe_footer(0).unwrap().encodings[1].kind;
    assert_eq!(
        encoding,
        Some(proto::column_encoding::Kind::DirectV2 as i32),
        "the writer stored the values directly"
    );
    let budget = Limits::default().with_max_batch_bytes(100 << 10);
    let options = ReadOptions::default()
        .with_batch_size(300)
        .with_limits(budget);
    let sizes: Vec<usize> = reader
        .batches(options.clone())
        .unwrap()
        .map(|b| b.unwrap().num_rows)
        .collect();
    // 100 KiB hold 10 values of 10 KiB (10,240 bytes).
    assert_eq!(sizes, vec![10; 30]);
    let read: Vec<Row> = reader.rows(options).unwrap().map(Result::unwrap).collect();
    assert!(read == rows);
}

#[test]
fn strings_under_a_list_past_the_byte_budget_are_refused() {
    let value = Field::Str("y".repeat(1 << 20));
    let rows = vec![Row::new(vec![(
        Arc::from("l"),
        Field::List(vec![value; 100]),
    )])];
    let reader = OrcReader::open(Bytes::from(file("struct<l:array<string>>", &rows))).unwrap();
    let error = reader.rows(ReadOptions::default()).unwrap().next().unwrap();
    let error = error.unwrap_err();
    assert!(
        matches!(
            error.kind(),
            ErrorKind::LimitExceeded {
                limit: "bytes of strings or binaries in one batch of a column (max_batch_bytes)",
                value: 104_857_600,
                max: 67_108_864,
            }
        ),
        "{error}"
    );
}

#[test]
fn stripes_that_overlap_are_refused() {
    let rows: Vec<Row> = (0..10)
        .map(|i| Row::new(vec![("i".into(), Field::Int(i))]))
        .collect();
    let bytes = file("struct<i:int>", &rows);
    // The one stripe listed a million times: the same bytes read again and again.
    let copies = rewrite(&bytes, |_, footer| {
        let stripe = footer.stripes[0].clone();
        footer.stripes = vec![stripe; 1_000_000];
        footer.number_of_rows = Some(10_000_000);
    });
    let Err(error) = OrcReader::open(Bytes::from(copies)) else {
        panic!("a file of overlapping stripes opened");
    };
    assert!(
        matches!(
            error.kind(),
            ErrorKind::Overlap {
                what: "stripe",
                start: 3,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.location().stripe, Some(1), "{error}");
}

#[test]
fn strings_that_are_not_utf8_are_errors_not_replaced() {
    // Distinct values: the writer stores them directly, one run of bytes.
    let rows: Vec<Row> = (0..5)
        .map(|i| Row::new(vec![("s".into(), Field::Str(format!("value {i}")))]))
        .collect();
    let mut bytes = file("struct<s:string>", &rows);
    let (offset, _) = stream(&bytes, 1, StreamKind::Data);
    bytes[offset] = 0xFF;
    let reader = OrcReader::open(Bytes::from(bytes)).unwrap();
    let error = reader
        .rows(ReadOptions::default())
        .unwrap()
        .find_map(Result::err)
        .expect("an error");
    assert!(
        matches!(error.kind(), ErrorKind::Utf8 { what: "string", source } if source.valid_up_to() == 0),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "stripe 0, column 1: a string value that is not UTF-8: invalid utf-8 sequence of 1 \
         bytes from index 0"
    );
    // Read raw, every value is its bytes as stored, the broken one among them.
    let raw: Vec<Row> = reader
        .rows(ReadOptions::default().with_strings(Strings::Raw))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let values: Vec<&Field> = raw.iter().filter_map(|row| row.get("s")).collect();
    assert_eq!(values.len(), 5);
    assert_eq!(values[0], &Field::Bytes(b"\xFFalue 0".to_vec()));
    assert_eq!(values[4], &Field::Bytes(b"value 4".to_vec()));
}
