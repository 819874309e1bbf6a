//! ORC integer RLE, versions 1 and 2: orc-file's decoders against orc-rust's.
//!
//! orc-rust's RLE decoders are private (`mod encoding` in its `lib.rs`), so its side of
//! every row reads a one-column ORC file whose only stream is the encoded bytes: a
//! `bigint` column, no nulls (so no PRESENT stream), no compression, one stripe without
//! index streams, its DATA stream exactly the bytes orc-file's encoder made (RLE v1 in a
//! version 0.11 file with DIRECT encoding, RLE v2 in a 0.12 file with DIRECT_V2). The file
//! is built here from orc-file's protobuf messages.
//!
//! Two rows per workload and version:
//!
//! - `orc RLE vN <workload>, one-column file`: like for like, both read that file through
//!   their file readers, 8192 rows at a time (orc-file: `OrcReader::batches` with
//!   `next_into` one reused `Batch`; orc-rust: `ArrowReaderBuilder`, a new `Int64Array` per
//!   batch), the file's tail parsed inside the timed run;
//! - `orc RLE vN <workload>, orc-file decoder alone vs orc-rust file`: orc-file's
//!   `int_vN::Decoder::decode` of all values in one call into a reused slice, against the
//!   same orc-rust file read: how much of orc-file's file read is the kernel, and an upper
//!   bound on orc-rust's kernel time.
//!
//! Workloads, 1 Mi signed values each (a bigint column's DATA stream is signed), encoded
//! by orc-file's encoders, which make Apache ORC Java's choices:
//!
//! - `runs`: runs of 20 to 200 equal values below 2^20;
//! - `small random`: random values in -64..64 (7 bits zigzagged);
//! - `32-bit random`: random `i32`s;
//! - `deltas`: ascending, steps of 1 to 100 (timestamps-like);
//! - `patched`: values below 2^8 with one in 64 an outlier below 2^40, the shape for
//!   which RLE v2 writes PATCHED_BASE runs.
//!
//! The stderr line of each workload gives the encoded size and, for v2, its mix of run
//! kinds. Before timing, the decoder, orc-file's reader and orc-rust's reader are checked
//! to give back exactly the values encoded.

use crate::{Bench, N};
use arrow_array_orc::Array;
use arrow_array_orc::cast::AsArray;
use arrow_array_orc::types::Int64Type;
use bytes::Bytes;
use orc_file::proto;
use orc_file::rle::{Sign, int_v1, int_v2};
use orc_file::{Batch, OrcReader, ReadOptions, VectorData};
use orc_rust::ArrowReaderBuilder;
use parquet_kit_compare::Rng;
use prost::Message;
use std::hint::black_box;

/// Rows per batch of both file readers: orc-rust's default.
const BATCH: usize = 8192;

pub fn run(bench: &mut Bench) {
    let mut rng = Rng::new(0x0DC0_11EC_7ED0_0001);
    let mut runs = Vec::with_capacity(N);
    while runs.len() < N {
        let value = rng.below(1 << 20) as i64;
        let len = 20 + rng.below(181) as usize;
        runs.extend(std::iter::repeat_n(value, len.min(N - runs.len())));
    }
    let small: Vec<i64> = (0..N).map(|_| rng.below(128) as i64 - 64).collect();
    let random32: Vec<i64> = (0..N).map(|_| i64::from(rng.next_u64() as i32)).collect();
    let mut at = 1_700_000_000_000_i64;
    let deltas: Vec<i64> = (0..N)
        .map(|_| {
            at += 1 + rng.below(100) as i64;
            at
        })
        .collect();
    let patched: Vec<i64> = (0..N)
        .map(|_| {
            if rng.below(64) == 0 {
                rng.below(1 << 40) as i64
            } else {
                rng.below(1 << 8) as i64
            }
        })
        .collect();
    for (name, values) in [
        ("runs", &runs),
        ("small random", &small),
        ("32-bit random", &random32),
        ("deltas", &deltas),
        ("patched", &patched),
    ] {
        for version in [1, 2] {
            workload(bench, version, name, values);
        }
    }
}

fn workload(bench: &mut Bench, version: u8, name: &str, values: &[i64]) {
    let file_row = format!("orc RLE v{version} {name}, one-column file");
    let kernel_row = format!("orc RLE v{version} {name}, orc-file decoder alone vs orc-rust file");
    if !bench.wanted(&file_row) && !bench.wanted(&kernel_row) {
        return;
    }
    let encoded = if version == 1 {
        let mut encoder = int_v1::Encoder::new(Sign::Signed);
        encoder.extend(values);
        encoder.finish()
    } else {
        let mut encoder = int_v2::Encoder::new(Sign::Signed);
        encoder.extend(values);
        encoder.finish()
    };
    let file = one_column_file(&encoded, values.len(), version);
    eprintln!(
        "orc RLE v{version} {name}: {} bytes, {:.2} bits/value{}",
        encoded.len(),
        encoded.len() as f64 * 8.0 / values.len() as f64,
        if version == 2 {
            format!("; runs {}", v2_runs(&encoded))
        } else {
            String::new()
        }
    );

    let mut out = vec![0_i64; values.len()];
    assert_eq!(decode(version, &encoded, &mut out), values.len());
    assert_eq!(out, values, "orc-file decoder, v{version} {name}");
    let mut batch = Batch::default();
    let mut read = Vec::with_capacity(values.len());
    read_ours(&file, &mut batch, Some(&mut read));
    assert_eq!(read, values, "orc-file reader, v{version} {name}");
    read.clear();
    read_theirs(&file, Some(&mut read));
    assert_eq!(read, values, "orc-rust reader, v{version} {name}");

    let bytes = values.len() * 8;
    bench.run(
        &file_row,
        values.len(),
        bytes,
        &mut || read_ours(black_box(&file), &mut batch, None),
        &mut || read_theirs(black_box(&file), None),
    );
    bench.run(
        &kernel_row,
        values.len(),
        bytes,
        &mut || {
            decode(version, black_box(&encoded), &mut out);
            black_box(&out);
        },
        &mut || read_theirs(black_box(&file), None),
    );
}

/// orc-file's decoder of `version`: decodes `encoded` into `out`.
fn decode(version: u8, encoded: &[u8], out: &mut [i64]) -> usize {
    if version == 1 {
        int_v1::Decoder::new(encoded, Sign::Signed)
            .decode(out)
            .unwrap()
    } else {
        int_v2::Decoder::new(encoded, Sign::Signed)
            .decode(out)
            .unwrap()
    }
}

/// orc-file's reader: all of `file`, [`BATCH`] rows at a time into `batch`; appends the
/// values to `values` when given.
fn read_ours(file: &Bytes, batch: &mut Batch, mut values: Option<&mut Vec<i64>>) {
    let reader = OrcReader::open(file.clone()).unwrap();
    let mut batches = reader
        .batches(ReadOptions::default().with_batch_size(BATCH))
        .unwrap();
    while batches.next_into(batch).unwrap() {
        if let Some(values) = values.as_deref_mut() {
            let [column] = batch.columns.as_slice() else {
                panic!("{} columns", batch.columns.len());
            };
            assert!(column.present.is_none());
            let VectorData::Int(v) = &column.data else {
                panic!("not integers");
            };
            assert_eq!(v.len(), batch.num_rows);
            values.extend_from_slice(v);
        }
        black_box(&*batch);
    }
}

/// orc-rust's reader: all of `file` in [`BATCH`]-row `RecordBatch`es; appends the values
/// to `values` when given.
fn read_theirs(file: &Bytes, mut values: Option<&mut Vec<i64>>) {
    let reader = ArrowReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build();
    for batch in reader {
        let batch = batch.unwrap();
        if let Some(values) = values.as_deref_mut() {
            let array = batch.column(0);
            assert_eq!(array.null_count(), 0);
            values.extend_from_slice(array.as_primitive::<Int64Type>().values());
        }
        black_box(batch);
    }
}

/// An ORC file of one `bigint` column `v`, `rows` rows without nulls in one uncompressed
/// stripe whose only stream is DATA = `data`, integer RLE `version` (1: file version 0.11,
/// DIRECT; 2: 0.12, DIRECT_V2).
fn one_column_file(data: &[u8], rows: usize, version: u8) -> Bytes {
    let encoding = if version == 1 {
        proto::column_encoding::Kind::Direct
    } else {
        proto::column_encoding::Kind::DirectV2
    };
    let stripe_footer = proto::StripeFooter {
        streams: vec![proto::Stream {
            kind: Some(proto::stream::Kind::Data as i32),
            column: Some(1),
            length: Some(data.len() as u64),
        }],
        columns: vec![
            proto::ColumnEncoding {
                kind: Some(proto::column_encoding::Kind::Direct as i32),
                ..Default::default()
            },
            proto::ColumnEncoding {
                kind: Some(encoding as i32),
                ..Default::default()
            },
        ],
        writer_timezone: (version == 2).then(|| "UTC".to_owned()),
        ..Default::default()
    }
    .encode_to_vec();
    let mut file = b"ORC".to_vec();
    file.extend_from_slice(data);
    file.extend_from_slice(&stripe_footer);
    let footer = proto::Footer {
        header_length: Some(3),
        content_length: Some(file.len() as u64 - 3),
        stripes: vec![proto::StripeInformation {
            offset: Some(3),
            index_length: Some(0),
            data_length: Some(data.len() as u64),
            footer_length: Some(stripe_footer.len() as u64),
            number_of_rows: Some(rows as u64),
            ..Default::default()
        }],
        types: vec![
            proto::Type {
                kind: Some(proto::r#type::Kind::Struct as i32),
                subtypes: vec![1],
                field_names: vec!["v".to_owned()],
                ..Default::default()
            },
            proto::Type {
                kind: Some(proto::r#type::Kind::Long as i32),
                ..Default::default()
            },
        ],
        number_of_rows: Some(rows as u64),
        row_index_stride: Some(0),
        ..Default::default()
    }
    .encode_to_vec();
    file.extend_from_slice(&footer);
    let postscript = proto::PostScript {
        footer_length: Some(footer.len() as u64),
        compression: Some(proto::CompressionKind::None as i32),
        compression_block_size: Some(256 * 1024),
        version: if version == 1 {
            vec![0, 11]
        } else {
            vec![0, 12]
        },
        metadata_length: Some(0),
        writer_version: Some(1),
        magic: Some("ORC".to_owned()),
        ..Default::default()
    }
    .encode_to_vec();
    file.extend_from_slice(&postscript);
    file.push(u8::try_from(postscript.len()).unwrap());
    Bytes::from(file)
}

/// The bits of a 5-bit RLE v2 width code.
fn width(code: u8) -> usize {
    match code {
        0..=23 => usize::from(code) + 1,
        24 => 26,
        25 => 28,
        26 => 30,
        27 => 32,
        28 => 40,
        29 => 48,
        30 => 56,
        _ => 64,
    }
}

/// The width Java's `closestFixedBits` rounds `bits` up to.
fn closest_fixed(bits: usize) -> usize {
    match bits {
        0..=24 => bits.max(1),
        25..=26 => 26,
        27..=28 => 28,
        29..=30 => 30,
        31..=32 => 32,
        33..=40 => 40,
        41..=48 => 48,
        49..=56 => 56,
        _ => 64,
    }
}

/// How many runs of each kind an RLE v2 stream holds (walking its headers).
fn v2_runs(bytes: &[u8]) -> String {
    let varint = |at: &mut usize| {
        while bytes[*at] & 0x80 != 0 {
            *at += 1;
        }
        *at += 1;
    };
    let mut counts = [0_usize; 4];
    let mut at = 0;
    while at < bytes.len() {
        let first = bytes[at];
        let kind = usize::from(first >> 6);
        counts[kind] += 1;
        let length = ((usize::from(first) & 1) << 8
            | usize::from(bytes.get(at + 1).copied().unwrap_or(0)))
            + 1;
        match kind {
            0 => at += 1 + usize::from((first >> 3) & 7) + 1,
            1 => at += 2 + (length * width((first >> 1) & 0x1f)).div_ceil(8),
            2 => {
                let third = bytes[at + 2];
                let fourth = bytes[at + 3];
                let base = usize::from(third >> 5) + 1;
                let patch_width = width(third & 0x1f);
                let gap_width = usize::from(fourth >> 5) + 1;
                let patches = usize::from(fourth & 0x1f);
                at += 4 + base + (length * width((first >> 1) & 0x1f)).div_ceil(8);
                at += (patches * closest_fixed(gap_width + patch_width)).div_ceil(8);
            }
            _ => {
                let code = (first >> 1) & 0x1f;
                at += 2;
                varint(&mut at);
                varint(&mut at);
                if code != 0 {
                    at += ((length - 2) * width(code)).div_ceil(8);
                }
            }
        }
    }
    format!(
        "SHORT_REPEAT {}, DIRECT {}, PATCHED_BASE {}, DELTA {}",
        counts[0], counts[1], counts[2], counts[3]
    )
}
