// Test data is built from small indices; the casts cannot lose anything.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss
)]

use super::*;
use parquet_core::{ByteArrayBatch, FixedLenByteArrayBatch, Int96};
use proptest::prelude::*;

#[test]
fn index_bit_widths() {
    let cases = [
        (0, 0),
        (1, 0),
        (2, 1),
        (3, 2),
        (4, 2),
        (5, 3),
        (256, 8),
        (257, 9),
        (1 << 20, 20),
    ];
    for (entries, width) in cases {
        assert_eq!(index_bit_width(entries), width, "{entries} entries");
    }
}

#[test]
fn pages_as_bytes() {
    let mut builder = Builder::<i32>::new(Limits::default());
    let mut indices = Vec::new();
    assert_eq!(
        builder.intern(&[5, -1, 5, 5, 5, 5, 5, 5, 5, 5], &mut indices),
        Intern::Done
    );
    assert_eq!(indices, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    let mut page = Vec::new();
    builder.write_dictionary_page(&mut page);
    assert_eq!(page, [5, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    assert_eq!(builder.page_len(), page.len());

    let mut index_page = Vec::new();
    encode_indices(&indices, builder.len(), &mut index_page);
    // Bit width 1, then the hybrid: one bit-packed run of two groups of 8 (header
    // 2 << 1 | 1) holding 0,1,0,0,0,0,0,0 and 0,0 plus six zeros of padding.
    assert_eq!(index_page, [1, 0b101, 0b0000_0010, 0]);
    let dictionary = Dictionary::<i32>::try_from_page(&page, 2).unwrap();
    let mut values = [0; 10];
    assert_eq!(
        IndexDecoder::try_new(&index_page)
            .unwrap()
            .gather(&dictionary, &mut values),
        Ok(10)
    );
    assert_eq!(values, [5, -1, 5, 5, 5, 5, 5, 5, 5, 5]);
}

#[test]
fn limits_stop_before_the_value_that_does_not_fit() {
    let limits = Limits {
        max_entries: 3,
        max_bytes: usize::MAX,
    };
    let mut builder = Builder::<i64>::new(limits);
    let mut indices = Vec::new();
    assert_eq!(
        builder.intern(&[1, 2, 1, 3, 3, 4, 1], &mut indices),
        Intern::Full { interned: 5 }
    );
    assert_eq!(indices, [0, 1, 0, 2, 2]);
    assert_eq!(builder.entries(), [1, 2, 3]);
    // Known values still have their indices; new ones do not.
    assert_eq!(builder.insert(2), Some(1));
    assert_eq!(builder.insert(4), None);

    // Byte arrays count 4 bytes of length per entry.
    let mut builder = ByteArrayBuilder::new(Limits {
        max_entries: 100,
        max_bytes: 4 + 3 + 4 + 2,
    });
    let mut indices = Vec::new();
    let values: [&[u8]; 4] = [b"abc", b"de", b"abc", b"f"];
    assert_eq!(
        builder.intern(values, &mut indices),
        Intern::Full { interned: 3 }
    );
    assert_eq!(builder.page_len(), 13);
    let mut page = Vec::new();
    builder.write_dictionary_page(&mut page);
    assert_eq!(page, b"\x03\0\0\0abc\x02\0\0\0de");
    builder.clear();
    assert!(builder.is_empty());
    assert_eq!(builder.insert(b"f"), Some(0));

    // The page size of booleans is in bits.
    let mut builder = Builder::<bool>::new(Limits {
        max_entries: 10,
        max_bytes: 1,
    });
    let mut indices = Vec::new();
    assert_eq!(
        builder.intern(&[true, true, false], &mut indices),
        Intern::Done
    );
    assert_eq!(builder.page_len(), 1);
}

#[test]
fn floats_are_interned_by_bit_pattern() {
    let mut builder = Builder::<f64>::new(Limits::default());
    let other_nan = f64::from_bits(f64::NAN.to_bits() ^ 1);
    let mut indices = Vec::new();
    assert_eq!(
        builder.intern(
            &[0.0, -0.0, f64::NAN, f64::NAN, other_nan, 0.0],
            &mut indices,
        ),
        Intern::Done
    );
    assert_eq!(indices, [0, 1, 2, 2, 3, 0]);
}

#[test]
fn fixed_len_values_of_another_width_end_interning() {
    let mut builder = FixedLenByteArrayBuilder::new(2, Limits::default());
    let mut indices = Vec::new();
    let values: [&[u8]; 3] = [b"ab", b"ab", b"abc"];
    assert_eq!(
        builder.intern(values, &mut indices),
        Intern::Full { interned: 2 }
    );
    assert_eq!(builder.width(), 2);
    assert_eq!(builder.page_len(), 2);
}

#[test]
fn decoding_errors() {
    // An index past the dictionary.
    let dictionary = Dictionary::from(vec![10_i32, 20]);
    let mut page = Vec::new();
    encode_indices(&[0, 1, 3], 4, &mut page);
    let mut out = [0; 3];
    assert_eq!(
        IndexDecoder::try_new(&page)
            .unwrap()
            .gather(&dictionary, &mut out),
        Err(Error::OutOfRange {
            what: "dictionary index",
            value: 3,
            bound: 2
        })
    );
    let strings = ByteArrayDictionary::from(["a", "b"].into_iter().collect::<ByteArrayBatch>());
    let mut batch = ByteArrayBatch::new();
    assert!(matches!(
        IndexDecoder::try_new(&page)
            .unwrap()
            .gather_byte_arrays(&strings, &mut batch, 3),
        Err(Error::OutOfRange {
            value: 3,
            bound: 2,
            ..
        })
    ));
    // A bit width over 32.
    assert!(matches!(
        IndexDecoder::try_new(&[33, 0]),
        Err(Error::Invalid { .. })
    ));
    // A dictionary page shorter than its entries: nothing is allocated for them.
    assert!(matches!(
        Dictionary::<i64>::try_from_page(&[0; 15], 2),
        Err(Error::Truncated { .. })
    ));
    assert!(Dictionary::<i64>::try_from_page(&[0; 15], usize::MAX).is_err());
    assert!(ByteArrayDictionary::try_from_page(b"\x05\0\0\0abc", 1).is_err());
    assert!(FixedLenByteArrayDictionary::try_from_page(b"abc", 2, 2).is_err());
    // An empty index page decodes to nothing.
    assert_eq!(
        IndexDecoder::try_new(&[])
            .unwrap()
            .gather(&dictionary, &mut out),
        Ok(0)
    );
    // Mismatched widths.
    let fixed = FixedLenByteArrayDictionary::try_from_page(b"abcd", 2, 2).unwrap();
    assert!(
        IndexDecoder::try_new(&page)
            .unwrap()
            .gather_fixed_len(&fixed, &mut FixedLenByteArrayBatch::new(3), 1)
            .is_err()
    );
}

#[test]
fn byte_array_gathers_are_bounded_by_the_budget() {
    let long = vec![b'x'; 1 << 20];
    let dictionary =
        ByteArrayDictionary::from([&long[..], b"y"].into_iter().collect::<ByteArrayBatch>());
    // Five bytes of page: a run of a million copies of the long entry.
    let mut page = Vec::new();
    encode_indices(&vec![0; 1_000_000], 2, &mut page);
    assert!(page.len() < 8);
    let mut decoder = IndexDecoder::try_new(&page).unwrap();
    let mut out = ByteArrayBatch::new();
    assert_eq!(
        decoder.gather_byte_arrays(&dictionary, &mut out, 1_000_000),
        Ok(GATHER_BYTE_BUDGET >> 20)
    );
    assert_eq!(out.data().len(), GATHER_BYTE_BUDGET);
}

/// An index page whose runs claim billions of indices in a few bytes: skipping them
/// takes time per run, not per index (8192 runs of 2^31 - 1 indices here, which a unit
/// of time per index would take hours to skip), and allocates nothing.
#[test]
fn skipping_huge_runs_of_indices_takes_time_per_run() {
    let run = |index: u32| {
        let mut run = Vec::new();
        parquet_core::varint::encode_u64(((1 << 31) - 1) << 1, &mut run); // 2^31 - 1 copies
        run.push(index as u8);
        run
    };
    let mut page = vec![3]; // bit width 3
    for i in 0..8192 {
        page.extend_from_slice(&run(i % 8));
    }
    let mut decoder = IndexDecoder::try_new(&page).unwrap();
    assert_eq!(decoder.skip((1 << 31) - 2), Ok((1 << 31) - 2));
    let dictionary = Dictionary::from((0..8_i64).map(|i| i * 10).collect::<Vec<_>>());
    let mut out = [0; 3];
    assert_eq!(decoder.gather(&dictionary, &mut out), Ok(3));
    assert_eq!(out, [0, 10, 10]);
    let left = 8192 * ((1 << 31) - 1) - (1 << 31) - 1;
    assert_eq!(decoder.skip(usize::MAX), Ok(left));
    assert_eq!(decoder.gather(&dictionary, &mut out), Ok(0));
}

/// Values with repeats: `len` picks from `distinct` values.
fn picks(distinct: usize, len: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..distinct.max(1), len)
}

proptest! {
    #[test]
    fn round_trip_fixed_types(choices in picks(40, 300), batch in 1usize..64) {
        let ints: Vec<i64> = choices.iter().map(|&c| (c as i64 - 20) * 1_000_000_007).collect();
        let floats: Vec<f32> = choices.iter().map(|&c| if c == 0 { f32::NAN } else { c as f32 / 3.0 }).collect();
        let int96: Vec<Int96> = choices.iter().map(|&c| Int96::from_unix_nanos(c as i64 * 86_400_000_000_001)).collect();
        let bools: Vec<bool> = choices.iter().map(|&c| c % 3 == 0).collect();
        round_trip(&ints, batch)?;
        round_trip(&floats, batch)?;
        round_trip(&int96, batch)?;
        round_trip(&bools, batch)?;
    }

    #[test]
    fn round_trip_byte_arrays(choices in picks(50, 300), batch in 1usize..64) {
        let strings: Vec<Vec<u8>> = choices.iter().map(|&c| "ab".repeat(c).into_bytes()).collect();
        let mut builder = ByteArrayBuilder::new(Limits::default());
        let mut indices = Vec::new();
        prop_assert_eq!(builder.intern(strings.iter().map(Vec::as_slice), &mut indices), Intern::Done);
        let (dictionary_page, index_page) = pages(builder.len(), &indices, |out| builder.write_dictionary_page(out));
        let dictionary = ByteArrayDictionary::try_from_page(&dictionary_page, builder.len()).unwrap();
        let mut decoder = IndexDecoder::try_new(&index_page).unwrap();
        let mut out = ByteArrayBatch::new();
        while out.len() < strings.len() {
            let want = batch.min(strings.len() - out.len());
            prop_assert_eq!(decoder.gather_byte_arrays(&dictionary, &mut out, want), Ok(want));
        }
        prop_assert!(out.iter().eq(strings.iter().map(Vec::as_slice)));

        let fixed: Vec<[u8; 3]> = choices.iter().map(|&c| [c as u8, 7, (c * 3) as u8]).collect();
        let mut builder = FixedLenByteArrayBuilder::new(3, Limits::default());
        let mut indices = Vec::new();
        prop_assert_eq!(builder.intern(fixed.iter().map(<[u8; 3]>::as_slice), &mut indices), Intern::Done);
        let (dictionary_page, index_page) = pages(builder.len(), &indices, |out| builder.write_dictionary_page(out));
        let dictionary = FixedLenByteArrayDictionary::try_from_page(&dictionary_page, 3, builder.len()).unwrap();
        let mut decoder = IndexDecoder::try_new(&index_page).unwrap();
        let mut out = FixedLenByteArrayBatch::new(3);
        prop_assert_eq!(decoder.gather_fixed_len(&dictionary, &mut out, fixed.len()), Ok(fixed.len()));
        prop_assert!(out.iter().eq(fixed.iter().map(<[u8; 3]>::as_slice)));
    }

    #[test]
    fn limits_hold(choices in picks(100, 300), max_entries in 0usize..50, max_bytes in 0usize..400) {
        let limits = Limits { max_entries, max_bytes };
        let mut builder = Builder::<i32>::new(limits);
        let values: Vec<i32> = choices.iter().map(|&c| c as i32).collect();
        let mut indices = Vec::new();
        let outcome = builder.intern(&values, &mut indices);
        prop_assert!(builder.len() <= max_entries && builder.page_len() <= max_bytes);
        let interned = match outcome {
            Intern::Done => values.len(),
            Intern::Full { interned } => {
                // The next value is new and would not fit.
                prop_assert!(!builder.entries().contains(&values[interned]));
                interned
            }
        };
        prop_assert_eq!(indices.len(), interned);
        for (&index, value) in indices.iter().zip(&values) {
            prop_assert_eq!(builder.entries()[index as usize], *value);
        }
    }

    #[test]
    fn bad_index_pages_never_panic(page: Vec<u8>, entries in 0usize..40) {
        let dictionary = Dictionary::from((0..entries as i32).collect::<Vec<_>>());
        let strings = ByteArrayDictionary::from((0..entries).map(|i| i.to_string()).collect::<ByteArrayBatch>());
        if let Ok(mut decoder) = IndexDecoder::try_new(&page) {
            let mut other = decoder.clone();
            let mut out = [0; 100];
            if let Ok(n) = decoder.gather(&dictionary, &mut out) {
                prop_assert!(out[..n].iter().all(|&v| (v as usize) < entries));
            }
            let _ = other.gather_byte_arrays(&strings, &mut ByteArrayBatch::new(), 100);
        }
    }
}

fn pages(entries: usize, indices: &[u32], write: impl FnOnce(&mut Vec<u8>)) -> (Vec<u8>, Vec<u8>) {
    let mut dictionary_page = Vec::new();
    write(&mut dictionary_page);
    let mut index_page = Vec::new();
    encode_indices(indices, entries, &mut index_page);
    (dictionary_page, index_page)
}

fn round_trip<T: DictionaryValue>(values: &[T], batch: usize) -> Result<(), TestCaseError> {
    let mut builder = Builder::<T>::new(Limits::default());
    let mut indices = Vec::new();
    prop_assert_eq!(builder.intern(values, &mut indices), Intern::Done);
    let (dictionary_page, index_page) = pages(builder.len(), &indices, |out| {
        builder.write_dictionary_page(out);
    });
    let dictionary = Dictionary::<T>::try_from_page(&dictionary_page, builder.len()).unwrap();
    prop_assert_eq!(dictionary.len(), builder.len());
    let mut decoder = IndexDecoder::try_new(&index_page).unwrap();
    let mut out = vec![T::default(); values.len()];
    for chunk in out.chunks_mut(batch) {
        prop_assert_eq!(decoder.gather(&dictionary, chunk), Ok(chunk.len()));
    }
    // Compare bit patterns: NaN != NaN.
    let bits = |v: &[T]| v.iter().map(|x| x.key()).collect::<Vec<_>>();
    prop_assert!(bits(&out) == bits(values));
    // Every truncated index page is an error or fewer values, never a panic.
    for len in 0..index_page.len() {
        if let Ok(mut decoder) = IndexDecoder::try_new(&index_page[..len]) {
            let _ = decoder.gather(&dictionary, &mut out);
        }
    }
    Ok(())
}
