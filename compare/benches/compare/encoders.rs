//! Encoders against arrow-rs's: bit packing, the RLE hybrid, PLAIN, the delta encodings,
//! BYTE_STREAM_SPLIT and dictionary building. Each row first checks that parquet-kit's
//! output decodes back to the input with arrow-rs's decoder, so both did the same work.

use crate::dictionary::arrow_dictionary;
use crate::{Bench, N, arrow_decode, arrow_decoder};
use bytes::Bytes;
use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType, DataType, DoubleType, Int64Type};
use parquet::encodings::encoding::{
    ByteStreamSplitEncoder, DeltaBitPackEncoder, DeltaByteArrayEncoder,
    DeltaLengthByteArrayEncoder, DictEncoder, Encoder, PlainEncoder,
};
use parquet::encodings::rle::RleEncoder;
use parquet::schema::types::{ColumnDescriptor, ColumnPath, Type};
use parquet::util::bit_util::{BitReader, BitWriter};
use parquet_core::ByteArrayBatch;
use parquet_delta::binary_packed::Params;
use parquet_dictionary::{Builder, Limits, encode_indices};
use parquet_kit_compare::Rng;
use std::hint::black_box;
use std::sync::Arc;

pub fn run(bench: &mut Bench) {
    let mut rng = Rng::new(0xE4C0_DE00_0000_0001);
    let indices: Vec<u32> = (0..N).map(|_| rng.below(1 << 10) as u32).collect();
    bit_pack(bench, &indices);
    rle(bench, &indices);

    let mut t = 1_700_000_000_000_i64;
    let timestamps: Vec<i64> = (0..N)
        .map(|_| {
            t += 1000 + rng.below(100) as i64;
            t
        })
        .collect();
    let doubles: Vec<f64> = (0..N).map(|_| rng.next_u64() as f64 / 3.0).collect();
    let categories: Vec<i64> = (0..N).map(|_| rng.below(4096) as i64 * 7_919).collect();
    let strings: ByteArrayBatch = (0..N)
        .map(|_| {
            let len = rng.below(17);
            (0..len)
                .map(|_| b'a' + rng.below(26) as u8)
                .collect::<Vec<u8>>()
        })
        .collect();
    let mut urls: Vec<String> = (0..N)
        .map(|_| {
            format!(
                "https://example.com/users/{:08}/items/{}",
                rng.below(200_000),
                rng.below(1000)
            )
        })
        .collect();
    urls.sort();
    let urls: ByteArrayBatch = urls.iter().collect();

    plain_i64(bench, &timestamps);
    byte_arrays(
        bench,
        "PLAIN short strings",
        &strings,
        Encoding::PLAIN,
        |values, out| {
            parquet_plain::byte_array::encode_batch(values, out);
        },
    );
    delta_i64(bench, &timestamps);
    byte_arrays(
        bench,
        "DELTA_LENGTH_BYTE_ARRAY short strings",
        &strings,
        Encoding::DELTA_LENGTH_BYTE_ARRAY,
        |values, out| {
            parquet_delta::length_byte_array::encode_batch(values, Params::default(), out).unwrap();
        },
    );
    byte_arrays(
        bench,
        "DELTA_BYTE_ARRAY sorted URLs",
        &urls,
        Encoding::DELTA_BYTE_ARRAY,
        |values, out| {
            parquet_delta::byte_array::encode_batch(values, Params::default(), out).unwrap();
        },
    );
    byte_stream_split(bench, &doubles);
    dictionary(bench, &categories);
}

/// Runs an encoder row: `ours` and `theirs` each encode the whole input once.
fn row(
    bench: &mut Bench,
    name: &str,
    output_bytes: usize,
    ours: &mut dyn FnMut(),
    theirs: &mut dyn FnMut(),
) {
    bench.run(&format!("encode: {name}"), N, output_bytes, ours, theirs);
}

/// `encoded`, an encoding of `N` values of `physical` type, decoded by arrow-rs.
fn decoded_by_arrow<T: DataType>(
    physical: PhysicalType,
    encoding: Encoding,
    encoded: &[u8],
) -> Vec<T::T> {
    let mut values = vec![T::T::default(); N];
    let mut decoder = arrow_decoder::<T>(physical, -1, encoding);
    let page = Bytes::copy_from_slice(encoded);
    assert_eq!(arrow_decode(&mut *decoder, &page, &mut values), N);
    values
}

/// Encodes `values` with an arrow-rs encoder: the arrow-rs side of the rows whose encoder
/// takes the values as they are.
fn arrow_encode<T: DataType>(encoder: &mut (impl Encoder<T> + ?Sized), values: &[T::T]) {
    encoder.put(values).unwrap();
    black_box(encoder.flush_buffer().unwrap());
}

fn bit_pack(bench: &mut Bench, values: &[u32]) {
    let name = "bit pack u32, width 10";
    if !bench.wanted(&format!("encode: {name}")) {
        return;
    }
    let mut ours = Vec::with_capacity(N * 2);
    parquet_bitpack::pack(10, values, &mut ours);
    let mut check = vec![0u32; N];
    BitReader::new(Bytes::from(ours.clone())).get_batch(&mut check, 10);
    assert_eq!(check, values);
    let len = ours.len();
    row(
        bench,
        name,
        len,
        &mut || {
            ours.clear();
            parquet_bitpack::pack(10, black_box(values), &mut ours);
        },
        &mut || {
            let mut writer = BitWriter::new(len);
            writer.put_batch(black_box(values), 10);
            black_box(writer.consume());
        },
    );
}

fn rle(bench: &mut Bench, values: &[u32]) {
    let name = "RLE hybrid, indices width 10";
    if !bench.wanted(&format!("encode: {name}")) {
        return;
    }
    let mut ours = Vec::new();
    parquet_rle::encode(values, 10, &mut ours);
    let mut check = vec![0u32; N];
    let mut decoder = parquet::encodings::rle::RleDecoder::new(10);
    decoder.set_data(Bytes::from(ours.clone())).unwrap();
    assert_eq!(decoder.get_batch(&mut check).unwrap(), N);
    assert_eq!(check, values);
    let len = ours.len();
    row(
        bench,
        name,
        len,
        &mut || {
            ours.clear();
            parquet_rle::encode(black_box(values), 10, &mut ours);
        },
        &mut || {
            let mut encoder = RleEncoder::new(10, len);
            for &value in black_box(values) {
                encoder.put(value.into());
            }
            black_box(encoder.consume());
        },
    );
}

fn plain_i64(bench: &mut Bench, values: &[i64]) {
    let name = "PLAIN i64";
    if !bench.wanted(&format!("encode: {name}")) {
        return;
    }
    let mut ours = Vec::with_capacity(N * 8);
    parquet_plain::encode(values, &mut ours);
    let check = decoded_by_arrow::<Int64Type>(PhysicalType::INT64, Encoding::PLAIN, &ours);
    assert_eq!(check, values);
    let mut arrow = PlainEncoder::<Int64Type>::new();
    row(
        bench,
        name,
        N * 8,
        &mut || {
            ours.clear();
            parquet_plain::encode(black_box(values), &mut ours);
        },
        &mut || arrow_encode(&mut arrow, black_box(values)),
    );
}

fn delta_i64(bench: &mut Bench, values: &[i64]) {
    let name = "DELTA_BINARY_PACKED i64 timestamps";
    if !bench.wanted(&format!("encode: {name}")) {
        return;
    }
    let mut ours = Vec::new();
    parquet_delta::binary_packed::encode(values, Params::default(), &mut ours);
    let check =
        decoded_by_arrow::<Int64Type>(PhysicalType::INT64, Encoding::DELTA_BINARY_PACKED, &ours);
    assert_eq!(check, values);
    let len = ours.len();
    let mut arrow = DeltaBitPackEncoder::<Int64Type>::new();
    row(
        bench,
        name,
        len,
        &mut || {
            ours.clear();
            parquet_delta::binary_packed::encode(black_box(values), Params::default(), &mut ours);
        },
        &mut || arrow_encode(&mut arrow, black_box(values)),
    );
}

fn byte_arrays(
    bench: &mut Bench,
    name: &str,
    values: &ByteArrayBatch,
    encoding: Encoding,
    mut encode: impl FnMut(&ByteArrayBatch, &mut Vec<u8>),
) {
    if !bench.wanted(&format!("encode: {name}")) {
        return;
    }
    let arrow_values: Vec<ByteArray> = values.iter().map(|v| ByteArray::from(v.to_vec())).collect();
    let mut ours = Vec::new();
    encode(values, &mut ours);
    let check = decoded_by_arrow::<ByteArrayType>(PhysicalType::BYTE_ARRAY, encoding, &ours);
    assert!(check.iter().map(ByteArray::data).eq(values.iter()));
    let mut arrow: Box<dyn Encoder<ByteArrayType>> = match encoding {
        Encoding::PLAIN => Box::new(PlainEncoder::<ByteArrayType>::new()),
        Encoding::DELTA_LENGTH_BYTE_ARRAY => {
            Box::new(DeltaLengthByteArrayEncoder::<ByteArrayType>::new())
        }
        _ => Box::new(DeltaByteArrayEncoder::<ByteArrayType>::new()),
    };
    let len = ours.len();
    row(
        bench,
        name,
        len,
        &mut || {
            ours.clear();
            encode(black_box(values), &mut ours);
        },
        &mut || arrow_encode(&mut *arrow, black_box(arrow_values.as_slice())),
    );
}

fn byte_stream_split(bench: &mut Bench, values: &[f64]) {
    let name = "BYTE_STREAM_SPLIT f64";
    if !bench.wanted(&format!("encode: {name}")) {
        return;
    }
    let mut ours = Vec::with_capacity(N * 8);
    parquet_byte_stream_split::encode(values, &mut ours);
    let check =
        decoded_by_arrow::<DoubleType>(PhysicalType::DOUBLE, Encoding::BYTE_STREAM_SPLIT, &ours);
    assert!(
        check
            .iter()
            .zip(values)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );
    let mut arrow = ByteStreamSplitEncoder::<DoubleType>::new();
    row(
        bench,
        name,
        N * 8,
        &mut || {
            ours.clear();
            parquet_byte_stream_split::encode(black_box(values), &mut ours);
        },
        &mut || arrow_encode(&mut arrow, black_box(values)),
    );
}

fn dictionary(bench: &mut Bench, values: &[i64]) {
    let name = "dictionary i64, 4096 distinct (build, dictionary page, index page)";
    if !bench.wanted(&format!("encode: {name}")) {
        return;
    }
    let column = Type::primitive_type_builder("c", PhysicalType::INT64)
        .build()
        .unwrap();
    let descriptor = Arc::new(ColumnDescriptor::new(
        Arc::new(column),
        0,
        0,
        ColumnPath::new(vec![]),
    ));
    let mut indices = Vec::with_capacity(N);
    let mut pages = (Vec::new(), Vec::new());
    let entries = encode_dictionary(values, &mut indices, &mut pages);
    let mut check = vec![0i64; N];
    let mut decoder = arrow_dictionary::<Int64Type>(PhysicalType::INT64, &pages.0, entries);
    let index_page = Bytes::copy_from_slice(&pages.1);
    assert_eq!(arrow_decode(&mut decoder, &index_page, &mut check), N);
    assert_eq!(check, values);
    let output = pages.0.len() + pages.1.len();
    let mut ours = || {
        encode_dictionary(black_box(values), &mut indices, &mut pages);
        black_box(&pages);
    };
    row(bench, name, output, &mut ours, &mut || {
        let mut arrow = DictEncoder::<Int64Type>::new(descriptor.clone());
        arrow.put(black_box(values)).unwrap();
        black_box(arrow.write_dict().unwrap());
        black_box(arrow.write_indices().unwrap());
    });
}

/// Builds the dictionary of `values`, writes its dictionary page to `pages.0` and the
/// index page to `pages.1`, and returns its number of entries.
fn encode_dictionary(
    values: &[i64],
    indices: &mut Vec<u32>,
    pages: &mut (Vec<u8>, Vec<u8>),
) -> usize {
    indices.clear();
    pages.0.clear();
    pages.1.clear();
    let mut builder = Builder::<i64>::new(Limits::default());
    let _ = builder.intern(values, indices);
    builder.write_dictionary_page(&mut pages.0);
    encode_indices(indices, builder.len(), &mut pages.1);
    builder.len()
}
