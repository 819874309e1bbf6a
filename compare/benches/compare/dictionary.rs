//! Dictionary gathers against arrow-rs's `DictDecoder`: indices into dictionaries of 2^4
//! to 2^16 INT64 values, and of 2^10 strings (into a batch; arrow-rs clones `ByteArray`s
//! sharing the dictionary page, copying no bytes).

use crate::{Bench, N, arrow_decode, arrow_decoder};
use bytes::Bytes;
use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType, DataType, Int64Type};
use parquet::encodings::decoding::DictDecoder;
use parquet_core::ByteArrayBatch;
use parquet_dictionary::{ByteArrayDictionary, Dictionary, IndexDecoder, encode_indices};
use parquet_kit_compare::Rng;
use std::hint::black_box;

pub fn run(bench: &mut Bench) {
    for bits in [4u32, 8, 12, 16] {
        let name = format!("dictionary gather i64, 2^{bits} entries");
        if bench.wanted(&name) {
            ints(bench, &name, 1 << bits);
        }
    }
    let name = "dictionary gather strings, 2^10 entries, into a batch";
    if bench.wanted(name) {
        strings(bench, name, 1 << 10);
    }
}

/// A random index page into `entries` entries, and its indices.
fn index_page(entries: usize) -> (Vec<u8>, Vec<u32>) {
    let mut rng = Rng::new(entries as u64);
    let indices: Vec<u32> = (0..N).map(|_| rng.below(entries as u64) as u32).collect();
    let mut page = Vec::new();
    encode_indices(&indices, entries, &mut page);
    (page, indices)
}

/// arrow-rs's dictionary decoder, holding the PLAIN dictionary page `page`.
pub fn arrow_dictionary<T: DataType>(
    physical: PhysicalType,
    page: &[u8],
    entries: usize,
) -> DictDecoder<T> {
    let mut plain = arrow_decoder::<T>(physical, -1, Encoding::PLAIN);
    plain.set_data(Bytes::from(page.to_vec()), entries).unwrap();
    let mut decoder = DictDecoder::<T>::new();
    decoder.set_dict(plain).unwrap();
    decoder
}

fn ints(bench: &mut Bench, name: &str, entries: usize) {
    let dictionary_values: Vec<i64> = (0..entries as i64).map(|i| i * 7_919 - 3).collect();
    let mut dictionary_page = Vec::new();
    parquet_plain::encode(&dictionary_values, &mut dictionary_page);
    let (page, indices) = index_page(entries);
    let bytes = Bytes::from(page.clone());
    let dictionary = Dictionary::<i64>::try_from_page(&dictionary_page, entries).unwrap();
    let mut arrow = arrow_dictionary::<Int64Type>(PhysicalType::INT64, &dictionary_page, entries);
    let mut ours = vec![0i64; N];
    let mut theirs = vec![0i64; N];
    IndexDecoder::try_new(&page)
        .unwrap()
        .gather(&dictionary, &mut ours)
        .unwrap();
    assert_eq!(arrow_decode(&mut arrow, &bytes, &mut theirs), N);
    assert!(
        ours.iter()
            .zip(&indices)
            .all(|(&v, &i)| v == dictionary_values[i as usize])
    );
    assert_eq!(ours, theirs);
    bench.run(
        name,
        N,
        N * 8,
        &mut || {
            IndexDecoder::try_new(black_box(&page))
                .unwrap()
                .gather(&dictionary, &mut ours)
                .unwrap();
        },
        &mut || {
            arrow_decode(&mut arrow, black_box(&bytes), &mut theirs);
        },
    );
}

fn strings(bench: &mut Bench, name: &str, entries: usize) {
    let dictionary_values: Vec<String> = (0..entries).map(|i| format!("category-{i:05}")).collect();
    let mut dictionary_page = Vec::new();
    parquet_plain::byte_array::encode(&dictionary_values, &mut dictionary_page).unwrap();
    let (page, indices) = index_page(entries);
    let bytes = Bytes::from(page.clone());
    let dictionary = ByteArrayDictionary::try_from_page(&dictionary_page, entries).unwrap();
    let mut arrow =
        arrow_dictionary::<ByteArrayType>(PhysicalType::BYTE_ARRAY, &dictionary_page, entries);
    let mut ours = ByteArrayBatch::with_capacity(N, N * 14);
    let mut theirs = vec![ByteArray::new(); N];
    IndexDecoder::try_new(&page)
        .unwrap()
        .gather_byte_arrays(&dictionary, &mut ours, N)
        .unwrap();
    assert_eq!(arrow_decode(&mut arrow, &bytes, &mut theirs), N);
    assert!(
        ours.iter()
            .zip(&indices)
            .all(|(v, &i)| v == dictionary_values[i as usize].as_bytes())
    );
    assert!(ours.iter().eq(theirs.iter().map(ByteArray::data)));
    bench.run(
        name,
        N,
        ours.data().len() + 4 * N,
        &mut || {
            ours.clear();
            IndexDecoder::try_new(black_box(&page))
                .unwrap()
                .gather_byte_arrays(&dictionary, &mut ours, N)
                .unwrap();
        },
        &mut || {
            arrow_decode(&mut arrow, black_box(&bytes), &mut theirs);
        },
    );
}
