use super::*;
use parquet_core::Cursor;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// A reference decoder, value by value, straight from the grammar.
// ---------------------------------------------------------------------------------------

/// Decodes at most `limit` values, bit by bit. Returns the values and the error that
/// stopped it, if any. A last bit-packed run cut short yields the values whose bits are
/// all present.
fn reference_decode(input: &[u8], width: u8, limit: usize) -> (Vec<u32>, Option<Error>) {
    let mut values = Vec::new();
    let mut pos = 0;
    while values.len() < limit && pos < input.len() {
        let mut cursor = Cursor::with_base(&input[pos..], pos);
        let header = match cursor.read_uleb128_u64("run header") {
            Ok(header) => header,
            Err(e) => return (values, Some(e)),
        };
        let data = pos + cursor.position();
        let len = header >> 1;
        if header & 1 == 0 {
            if len == 0 || len > MAX_RUN_LEN as u64 {
                return (values, Some(Error::invalid("RLE run length", pos, len)));
            }
            let n = usize::from(width).div_ceil(8);
            if input.len() - data < n {
                let e = Error::truncated("RLE run value", data, n, input.len() - data);
                return (values, Some(e));
            }
            let mut value = 0u64;
            for (i, &byte) in input[data..data + n].iter().enumerate() {
                value |= u64::from(byte) << (8 * i);
            }
            if value >> width != 0 {
                return (values, Some(Error::invalid("RLE run value", data, value)));
            }
            let take = (limit - values.len()).min(usize::try_from(len).unwrap());
            values.extend(std::iter::repeat_n(u32::try_from(value).unwrap(), take));
            pos = data + n;
        } else {
            let count = len.saturating_mul(8);
            if len == 0 || count > MAX_RUN_LEN as u64 {
                return (
                    values,
                    Some(Error::invalid("bit-packed run length", pos, count)),
                );
            }
            let count = usize::try_from(count).unwrap();
            let bits_available = (input.len() - data) * 8;
            let w = usize::from(width);
            for i in 0..count {
                if values.len() == limit || (i + 1) * w > bits_available {
                    break;
                }
                let mut value = 0u32;
                for b in 0..w {
                    let bit = i * w + b;
                    if input[data + bit / 8] >> (bit % 8) & 1 == 1 {
                        value |= 1 << b;
                    }
                }
                values.push(value);
            }
            pos = (data + count / 8 * w).min(input.len());
        }
    }
    (values, None)
}

fn mask(width: u8) -> u32 {
    if width == 0 {
        0
    } else {
        u32::MAX >> (32 - width)
    }
}

fn decode_all<T: parquet_bitpack::Packable + TryFrom<u32>>(
    bytes: &[u8],
    width: u8,
    len: usize,
) -> Result<Vec<T>> {
    let mut out = vec![T::default(); len];
    let n = Decoder::try_new(bytes, width)?.decode(&mut out)?;
    out.truncate(n);
    Ok(out)
}

fn encoded<T: Copy + Into<u32>>(values: &[T], width: u8) -> Vec<u8> {
    let mut out = Vec::new();
    encode(values, width, &mut out);
    out
}

// ---------------------------------------------------------------------------------------
// Spec bytes and hand-written streams.
// ---------------------------------------------------------------------------------------

#[test]
fn spec_bit_packing_example() {
    // 0 through 7 at bit width 3: one bit-packed group, header (1 << 1 | 1).
    let bytes = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
    assert_eq!(decode_all::<u32>(&bytes, 3, 8), Ok((0..8).collect()));
    assert_eq!(decode_all::<u8>(&bytes, 3, 100), Ok((0..8).collect()));
    assert_eq!(encoded(&[0u8, 1, 2, 3, 4, 5, 6, 7], 3), bytes);
}

#[test]
fn rle_runs() {
    // 100 copies of 7 at width 3: header 200 = [0xc8, 0x01], one value byte.
    let bytes = [0xc8, 0x01, 0x07];
    assert_eq!(decode_all::<u16>(&bytes, 3, 1000), Ok(vec![7; 100]));
    assert_eq!(encoded(&[7u16; 100], 3), bytes);
    // Width 9 takes two value bytes, little endian: 3 copies of 0x1ff.
    let bytes = [0x06, 0xff, 0x01];
    assert_eq!(decode_all::<u16>(&bytes, 9, 10), Ok(vec![0x1ff; 3]));
    // Width 17 takes three.
    let bytes = [0x02, 0x01, 0x00, 0x01];
    assert_eq!(decode_all::<u32>(&bytes, 17, 10), Ok(vec![0x1_0001]));
    // Two runs back to back.
    let bytes = [0x04, 0x01, 0x06, 0x00];
    assert_eq!(decode_all::<u8>(&bytes, 1, 10), Ok(vec![1, 1, 0, 0, 0]));
}

#[test]
fn bit_packed_runs() {
    // Two groups at width 1: 16 values, 2 bytes.
    let bytes = [0x05, 0b1010_1010, 0b0000_1111];
    let expected = [0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0];
    assert_eq!(decode_all::<u8>(&bytes, 1, 16), Ok(expected.to_vec()));
    let bools: Vec<bool> = expected.iter().map(|&v| v == 1).collect();
    let mut out = [false; 20];
    let mut decoder = Decoder::try_new(&bytes, 1).unwrap();
    assert_eq!(decoder.decode_bools(&mut out), Ok(16));
    assert_eq!(out[..16], bools);
    assert_eq!(encoded(&bools, 1), bytes);
    // A multi-byte header: 64 groups (512 values) at width 1 is header 129 = [0x81, 0x01].
    let mut bytes = vec![0x81, 0x01];
    bytes.extend((0..64).map(|i| u8::try_from(i).unwrap()));
    let values = decode_all::<u32>(&bytes, 1, 1000).unwrap();
    assert_eq!(values.len(), 512);
    assert_eq!(values[8..16], [1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(values[504..], [1, 1, 1, 1, 1, 1, 0, 0]);
}

#[test]
fn mixed_stream() {
    // Width 2: RLE 10 x 3, bit-packed 0 1 2 3 3 2 1 0, RLE 1 x 2.
    let bytes = [0x14, 0x03, 0x03, 0b1110_0100, 0b0001_1011, 0x02, 0x02];
    let mut expected = vec![3; 10];
    expected.extend([0, 1, 2, 3, 3, 2, 1, 0, 2]);
    assert_eq!(decode_all::<u32>(&bytes, 2, 100), Ok(expected.clone()));
    // Any batch size gives the same values.
    for batch in 1..20 {
        let mut decoder = Decoder::try_new(&bytes, 2).unwrap();
        let mut got = Vec::new();
        let mut out = vec![0u8; batch];
        loop {
            let n = decoder.decode(&mut out).unwrap();
            got.extend(out[..n].iter().map(|&v| u32::from(v)));
            if n < batch {
                break;
            }
        }
        assert_eq!(got, expected, "batch {batch}");
    }
    // Skip across runs, then decode the rest.
    let mut decoder = Decoder::try_new(&bytes, 2).unwrap();
    assert_eq!(decoder.skip(12), Ok(12));
    let mut out = [0u16; 10];
    assert_eq!(decoder.decode(&mut out), Ok(7));
    assert_eq!(out[..7], [2, 3, 3, 2, 1, 0, 2]);
    assert_eq!(decoder.skip(5), Ok(0));
}

#[test]
fn width_zero() {
    // RLE run of 8 zeros (no value bytes), then a bit-packed group (no packed bytes).
    let bytes = [0x10, 0x03];
    assert_eq!(decode_all::<u8>(&bytes, 0, 100), Ok(vec![0; 16]));
    assert_eq!(encoded(&[0u32; 16], 0), [0x20]);
    assert_eq!(encoded(&[5u32; 3], 0), [0x06]);
    // A huge run costs no bytes but never more values than asked for.
    let bytes = [0xfe, 0xff, 0xff, 0xff, 0x0f];
    let mut decoder = Decoder::try_new(&bytes, 0).unwrap();
    let mut out = [1u32; 64];
    assert_eq!(decoder.decode(&mut out), Ok(64));
    assert_eq!(out, [0; 64]);
    assert_eq!(decoder.skip(usize::MAX), Ok(MAX_RUN_LEN - 64));
}

#[test]
fn width_32() {
    let bytes = [0x04, 0xff, 0xff, 0xff, 0xff];
    assert_eq!(decode_all::<u32>(&bytes, 32, 3), Ok(vec![u32::MAX; 2]));
    assert_eq!(
        decode_all::<u64>(&bytes, 32, 3),
        Ok(vec![u64::from(u32::MAX); 2])
    );
    let values: Vec<u32> = (0..8).map(|i| 0x0102_0304 * i + i).collect();
    let mut bytes = vec![0x03];
    for v in &values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    assert_eq!(decode_all::<u32>(&bytes, 32, 8), Ok(values.clone()));
    assert_eq!(encoded(&values, 32), bytes);
}

#[test]
fn length_prefix() {
    let page = [3, 0, 0, 0, 0x02, 0x01, 0x00, 0xaa];
    assert_eq!(split_length_prefixed(&page), Ok((&page[4..7], &page[7..])));
    assert_eq!(
        split_length_prefixed(&page[..3]),
        Err(Error::truncated("length prefix", 0, 4, 3))
    );
    assert_eq!(
        split_length_prefixed(&[5, 0, 0, 0, 1, 2]),
        Err(Error::truncated("length-prefixed RLE data", 4, 5, 2))
    );
    assert_eq!(split_length_prefixed(&[0, 0, 0, 0]), Ok((&[][..], &[][..])));

    // Booleans true, true, then the bytes after the stream.
    let (mut decoder, rest) = Decoder::try_new_length_prefixed(&page, 1).unwrap();
    assert_eq!(rest, [0xaa]);
    let mut out = [false; 4];
    assert_eq!(decoder.decode_bools(&mut out[..1]), Ok(1));
    assert!(out[0]);
    // The zero byte after it is not a run.
    assert_eq!(
        decoder.decode_bools(&mut out),
        Err(Error::invalid("RLE run length", 6, 0))
    );
    // Error offsets count from the start of the prefixed input.
    let page = [2, 0, 0, 0, 0x02, 0x05, 0xaa];
    let (mut decoder, _) = Decoder::try_new_length_prefixed(&page, 1).unwrap();
    assert_eq!(
        decoder.decode_bools(&mut out),
        Err(Error::invalid("RLE run value", 5, 5))
    );

    let mut out = vec![9];
    encode_length_prefixed(&[1u8, 1, 1], 1, &mut out).unwrap();
    assert_eq!(out, [9, 2, 0, 0, 0, 0x06, 0x01]);
    let mut encoder = Encoder::new(1);
    encoder.extend(&[true, true, true]);
    let mut out = vec![9];
    encoder.finish_length_prefixed(&mut out).unwrap();
    assert_eq!(out, [9, 2, 0, 0, 0, 0x06, 0x01]);
}

// ---------------------------------------------------------------------------------------
// Validation.
// ---------------------------------------------------------------------------------------

#[test]
fn invalid_headers_and_values() {
    let d = |bytes: &[u8], width| decode_all::<u32>(bytes, width, 100);
    // Run lengths of zero.
    assert_eq!(
        d(&[0x02, 0x01, 0x00], 1),
        Err(Error::invalid("RLE run length", 2, 0))
    );
    assert_eq!(
        d(&[0x01], 1),
        Err(Error::invalid("bit-packed run length", 0, 0))
    );
    // Run lengths above 2^31 - 1.
    let mut too_long = Vec::new();
    parquet_core::varint::encode_u64(1 << 32, &mut too_long);
    too_long.push(0);
    assert_eq!(
        d(&too_long, 1),
        Err(Error::invalid("RLE run length", 0, 1 << 31))
    );
    let mut too_long = Vec::new();
    parquet_core::varint::encode_u64((1 << 28) << 1 | 1, &mut too_long);
    assert_eq!(
        d(&too_long, 1),
        Err(Error::invalid("bit-packed run length", 0, 1 << 31))
    );
    let mut huge = vec![0xff; 9];
    huge.push(0x01);
    assert!(matches!(d(&huge, 1), Err(Error::Invalid { offset: 0, .. })));
    // The longest runs are fine.
    let mut longest = Vec::new();
    parquet_core::varint::encode_u64((MAX_RUN_LEN as u64) << 1, &mut longest);
    longest.push(1);
    let mut decoder = Decoder::try_new(&longest, 1).unwrap();
    assert_eq!(decoder.skip(usize::MAX), Ok(MAX_RUN_LEN));
    // An RLE value that does not fit the width.
    assert_eq!(
        d(&[0x02, 0x08], 3),
        Err(Error::invalid("RLE run value", 1, 8))
    );
    assert_eq!(
        d(&[0x02, 0x00, 0x02], 9),
        Err(Error::invalid("RLE run value", 1, 512))
    );
    assert_eq!(d(&[0x02], 0), Ok(vec![0]));
    // Cut short: a header, an RLE value.
    assert_eq!(
        d(&[0x02, 0x01, 0x80], 1),
        Err(Error::truncated("run header", 2, 2, 1))
    );
    assert_eq!(d(&[0x02, 0x01, 0x02], 16), Ok(vec![0x0201]));
    assert_eq!(
        d(&[0x04, 0x01], 16),
        Err(Error::truncated("RLE run value", 1, 2, 1))
    );
    // Overlong varints are rejected.
    assert!(matches!(
        d(&[0x82, 0x00, 0x01], 1),
        Err(Error::Invalid { .. })
    ));
    // The width is checked.
    assert_eq!(
        Decoder::try_new(&[], 33).unwrap_err(),
        Error::invalid("bit width", 0, 33)
    );
    let mut out = [0u8; 4];
    assert_eq!(
        Decoder::try_new(&[0x02, 0x01, 0x01], 9)
            .unwrap()
            .decode(&mut out),
        Err(Error::invalid("bit width for the output type", 0, 9))
    );
    let mut out = [false; 4];
    assert_eq!(
        Decoder::try_new(&[], 2).unwrap().decode_bools(&mut out),
        Err(Error::invalid("bit width for booleans", 0, 2))
    );
}

#[test]
fn values_before_an_error_are_decoded() {
    // 3 good values, then a zero-length run: asking for 3 succeeds, for 4 fails.
    let bytes = [0x06, 0x01, 0x00];
    let mut out = [0u8; 3];
    assert_eq!(Decoder::try_new(&bytes, 1).unwrap().decode(&mut out), Ok(3));
    let mut out = [0u8; 4];
    assert!(
        Decoder::try_new(&bytes, 1)
            .unwrap()
            .decode(&mut out)
            .is_err()
    );
}

#[test]
fn last_bit_packed_run_cut_short() {
    // 2 groups (16 values) at width 3 need 6 bytes; 4 are present: 32 bits, 10 values.
    let values: Vec<u32> = (0..16).map(|i| i % 8).collect();
    let mut bytes = encoded(&values, 3);
    assert_eq!(bytes.len(), 7);
    bytes.truncate(5);
    assert_eq!(decode_all::<u32>(&bytes, 3, 100), Ok(values[..10].to_vec()));
    let mut decoder = Decoder::try_new(&bytes, 3).unwrap();
    assert_eq!(decoder.skip(100), Ok(10));
    let dict: Vec<u64> = (0..8).map(|i| i * 10).collect();
    let mut out = [0; 100];
    assert_eq!(
        Decoder::try_new(&bytes, 3).unwrap().gather(&dict, &mut out),
        Ok(10)
    );
    assert_eq!(out[..10], [0, 10, 20, 30, 40, 50, 60, 70, 0, 10]);
    // No byte at all: no value, no error.
    assert_eq!(decode_all::<u32>(&bytes[..1], 3, 100), Ok(vec![]));
    // Not enough bits for one value at width 20: two bytes.
    let bytes = [0x03, 0xff, 0xff];
    assert_eq!(decode_all::<u32>(&bytes, 20, 100), Ok(vec![]));
    // A long block-aligned part then a cut: 40 groups at width 5 (200 bytes), 130 present.
    let values: Vec<u32> = (0..320).map(|i| (i * 7) % 32).collect();
    let mut bytes = encoded(&values, 5);
    assert_eq!(bytes[0], 40 << 1 | 1);
    bytes.truncate(131);
    assert_eq!(
        decode_all::<u32>(&bytes, 5, 1000),
        Ok(values[..208].to_vec())
    );
}

#[test]
fn gather_checks_indices() {
    let dict = [15i16, 25, 35];
    // An RLE run of index 3.
    let mut out = [0; 8];
    assert_eq!(
        Decoder::try_new(&[0x02, 0x03], 2)
            .unwrap()
            .gather(&dict, &mut out),
        Err(Error::OutOfRange {
            what: "dictionary index",
            value: 3,
            bound: 3
        })
    );
    // A bit-packed block holding index 3.
    let bytes = encoded(&[0u8, 1, 2, 3, 0, 1, 2, 0], 2);
    assert_eq!(
        Decoder::try_new(&bytes, 2).unwrap().gather(&dict, &mut out),
        Err(Error::OutOfRange {
            what: "dictionary index",
            value: 3,
            bound: 3
        })
    );
    // The bad index past the values asked for is not looked at.
    let mut out = [0; 3];
    assert_eq!(
        Decoder::try_new(&bytes, 2).unwrap().gather(&dict, &mut out),
        Ok(3)
    );
    assert_eq!(out, [15, 25, 35]);
    // An empty dictionary has no valid index.
    let mut out = [0u8; 1];
    assert!(
        Decoder::try_new(&[0x02, 0x00], 1)
            .unwrap()
            .gather(&[], &mut out)
            .is_err()
    );
}

#[test]
fn for_each_run_reports_runs_as_they_are() {
    let mut values = vec![5u32; 40];
    values.extend(0..70);
    let bytes = encoded(&values, 7);
    let mut decoder = Decoder::try_new(&bytes, 7).unwrap();
    let mut runs = Vec::new();
    let n = decoder
        .for_each_run(100, |run| {
            runs.push(match run {
                Run::Repeated { value, len } => (Some(value), len),
                Run::Packed(values) => (None, values.len()),
            });
            Ok(())
        })
        .unwrap();
    assert_eq!(n, 100);
    assert_eq!(
        runs,
        [(Some(5), 40), (None, 32), (None, 28)],
        "an RLE run, then blocks of a bit-packed run"
    );
    // An error from the closure stops the walk.
    let mut decoder = Decoder::try_new(&bytes, 7).unwrap();
    let stop = Error::Unsupported { what: "test" };
    assert_eq!(decoder.for_each_run(100, |_| Err(stop.clone())), Err(stop));
    assert_eq!(decoder.skip(1000), Ok(72));
}

// ---------------------------------------------------------------------------------------
// The encoder's choices.
// ---------------------------------------------------------------------------------------

#[test]
fn encoder_choices() {
    // A short tail of equal values is an RLE run when that is smaller...
    assert_eq!(encoded(&[3u8, 3, 3], 4), [0x06, 0x03]);
    // ...or as small (width 1: 2 bytes either way), so that it decodes to exactly 3 values...
    assert_eq!(encoded(&[1u8, 1, 1], 1), [0x06, 0x01]);
    // ...and padded when it is larger (width 1, after a bit-packed group).
    assert_eq!(
        encoded(&[0u8, 1, 0, 1, 0, 1, 0, 1, 1, 1], 1),
        [0x05, 0xaa, 0x03]
    );
    // Unequal tails are padded with zeros.
    assert_eq!(encoded(&[1u8, 2], 4), [0x03, 0x21, 0x00, 0x00, 0x00]);
    // A bit-packed run closes after 63 groups.
    let values: Vec<u16> = (0..1000).map(|i| i % 2).collect();
    let bytes = encoded(&values, 1);
    assert_eq!(bytes[0], 63 << 1 | 1);
    assert_eq!(bytes[64], 62 << 1 | 1);
    assert_eq!(bytes.len(), 64 + 63);
    // Bits above the width are dropped.
    assert_eq!(encoded(&[0xffu8; 8], 4), [0x10, 0x0f]);
    // Nothing in, nothing out.
    assert_eq!(encoded::<u8>(&[], 5), Vec::<u8>::new());
    let mut out = vec![1, 2];
    Encoder::new(3).finish(&mut out);
    assert_eq!(out, [1, 2]);
}

#[test]
fn runs_longer_than_the_limit_are_split() {
    let mut encoder = Encoder::new(1);
    encoder.put_run(1, MAX_RUN_LEN + 10);
    let mut bytes = Vec::new();
    encoder.finish(&mut bytes);
    assert_eq!(bytes, [0xfe, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x14, 0x01]);
    // The same split through `extend`, and through `put`.
    let mut encoder = Encoder::new(1);
    encoder.put_run(1, MAX_RUN_LEN - 5);
    encoder.extend(&[1u8; 15]);
    let mut via_extend = Vec::new();
    encoder.finish(&mut via_extend);
    assert_eq!(via_extend, bytes);
    let mut encoder = Encoder::new(1);
    encoder.put_run(1, MAX_RUN_LEN - 5);
    for _ in 0..15 {
        encoder.put(1);
    }
    let mut via_put = Vec::new();
    encoder.finish(&mut via_put);
    assert_eq!(via_put, bytes);
    let mut decoder = Decoder::try_new(&bytes, 1).unwrap();
    assert_eq!(decoder.skip(usize::MAX), Ok(MAX_RUN_LEN + 10));
}

/// Skipping takes time bounded by the runs it crosses, not by their values: 2^31 - 1
/// values of one RLE run, or of one bit-packed run of width 0, in a few bytes; and 2^44
/// values of 8192 such runs, which a unit of time per value would take hours to skip.
#[test]
fn skipping_huge_runs_takes_constant_time_each() {
    let mut rle = Vec::new();
    parquet_core::varint::encode_u64((MAX_RUN_LEN as u64) << 1, &mut rle);
    rle.push(5); // the value, at width 3
    let mut decoder = Decoder::try_new(&rle, 3).unwrap();
    assert_eq!(decoder.skip(MAX_RUN_LEN - 1), Ok(MAX_RUN_LEN - 1));
    let mut out = [0u8; 4];
    assert_eq!(decoder.decode(&mut out), Ok(1));
    assert_eq!(out[0], 5);

    // A bit-packed run of (2^31 - 1) / 8 groups at width 0: no bytes of values.
    let groups = MAX_RUN_LEN / 8;
    let mut packed = Vec::new();
    parquet_core::varint::encode_u64(((groups as u64) << 1) | 1, &mut packed);
    let mut decoder = Decoder::try_new(&packed, 0).unwrap();
    assert_eq!(decoder.skip(groups * 8 - 3), Ok(groups * 8 - 3));
    assert_eq!(decoder.decode(&mut out), Ok(3));
    assert_eq!(decoder.skip(1), Ok(0));

    let many = rle.repeat(4096);
    let mut decoder = Decoder::try_new(&many, 3).unwrap();
    assert_eq!(decoder.skip(usize::MAX), Ok(4096 * MAX_RUN_LEN));
    let mut many = Vec::new();
    for _ in 0..4096 {
        many.extend_from_slice(&rle[..rle.len() - 1]); // width 0: no value byte
        many.extend_from_slice(&packed);
    }
    let mut decoder = Decoder::try_new(&many, 0).unwrap();
    assert_eq!(
        decoder.skip(usize::MAX),
        Ok(4096 * (MAX_RUN_LEN + groups * 8))
    );
    // Gathers, with as many values asked for as the runs hold, are bounded by the
    // output instead: they stop where `out` ends.
    let mut decoder = Decoder::try_new(&many, 0).unwrap();
    let mut out = [0i64; 100];
    assert_eq!(decoder.gather(&[7], &mut out), Ok(100));
    assert_eq!(out, [7; 100]);
}

// ---------------------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
}

/// Values at a width in one of several shapes: random, runs of random lengths, sorted,
/// extremes (0 and the largest value), few distinct values.
fn values(max_len: usize) -> impl Strategy<Value = (u8, Vec<u32>)> {
    (0..=32u8, 0..max_len, 0u8..5, any::<u64>()).prop_map(|(width, len, shape, seed)| {
        let m = mask(width);
        let mut rng = Rng(seed | 1);
        let mut values = Vec::with_capacity(len);
        while values.len() < len {
            let v = u32::try_from(rng.next() >> 32).unwrap() & m;
            match shape {
                0 | 2 => values.push(v),
                1 => {
                    let run = [1, 7, 8, 9, 16, 100, 600][rng.below(7)];
                    values.extend(std::iter::repeat_n(v, run.min(len - values.len())));
                }
                3 => {
                    let extreme = if rng.next() & 1 == 0 { 0 } else { m };
                    let run = if rng.below(4) == 0 { 20 } else { 1 };
                    values.extend(std::iter::repeat_n(extreme, run.min(len - values.len())));
                }
                _ => values.push(v & 3),
            }
        }
        if shape == 2 {
            values.sort_unstable();
        }
        (width, values)
    })
}

/// Checks `bytes` against the reference decoder, reading `limit` values in batches whose
/// sizes and kinds (decode, skip, gather) come from `seed`.
fn check_against_reference(
    bytes: &[u8],
    width: u8,
    limit: usize,
    seed: u64,
) -> Result<(), TestCaseError> {
    let (expected, expected_error) = reference_decode(bytes, width, limit);
    let mut rng = Rng(seed | 1);
    let mut decoder = Decoder::try_new(bytes, width).unwrap();
    let dict: Vec<u64> = (0..1u64 << width.min(10)).map(|i| i * 3 + 1).collect();
    let mut got = 0;
    loop {
        let want = [0, 1, 5, 31, 32, 33, 64, 100, 1000][rng.below(9)].min(limit - got);
        let kind = rng.below(5);
        let result = match kind {
            4 if width <= 1 => {
                let mut out = vec![false; want];
                decoder.decode_bools(&mut out).inspect(|&n| {
                    let want: Vec<bool> = expected[got..got + n].iter().map(|&v| v == 1).collect();
                    assert_eq!(out[..n], want);
                })
            }
            0 => {
                let mut out = vec![0u32; want];
                decoder.decode(&mut out).inspect(|&n| {
                    assert_eq!(out[..n], expected[got..got + n]);
                })
            }
            1 => decoder.skip(want),
            2 if width <= 10 => {
                let mut out = vec![0u64; want];
                decoder.gather(&dict, &mut out).inspect(|&n| {
                    let want: Vec<u64> = expected[got..got + n]
                        .iter()
                        .map(|&i| dict[i as usize])
                        .collect();
                    assert_eq!(out[..n], want);
                })
            }
            _ if width <= 16 => {
                let mut out = vec![0u16; want];
                decoder.decode(&mut out).inspect(|&n| {
                    let want: Vec<u16> = expected[got..got + n]
                        .iter()
                        .map(|&v| u16::try_from(v).unwrap())
                        .collect();
                    assert_eq!(out[..n], want);
                })
            }
            _ => decoder
                .for_each_run(want, |run| {
                    let (n, ok) = match run {
                        Run::Repeated { value, len } => {
                            (len, expected[got..got + len].iter().all(|&v| v == value))
                        }
                        Run::Packed(values) => (values.len(), expected[got..].starts_with(values)),
                    };
                    assert!(ok && n > 0);
                    got += n;
                    Ok(())
                })
                .inspect(|&n| {
                    got -= n;
                }),
        };
        match result {
            Ok(n) => {
                prop_assert!(n <= want);
                got += n;
                if n < want {
                    prop_assert_eq!(got, expected.len());
                    prop_assert_eq!(expected_error, None);
                    return Ok(());
                }
                if got == limit {
                    return Ok(());
                }
            }
            Err(e) => {
                prop_assert!(got < expected.len() + 1);
                prop_assert_eq!(Some(e), expected_error);
                return Ok(());
            }
        }
    }
}

fn round_trip(width: u8, values: &[u32], seed: u64) -> Result<(), TestCaseError> {
    let bytes = encoded(values, width);

    // The incremental encoder gives the same bytes however the values are fed.
    let mut rng = Rng(seed | 1);
    let mut encoder = Encoder::new(width);
    let mut rest = values;
    while !rest.is_empty() {
        let n = rng.below(rest.len().min(40) + 1);
        match rng.below(3) {
            0 => encoder.extend(&rest[..n]),
            1 => rest[..n].iter().for_each(|&v| encoder.put(v)),
            _ => {
                let same = rest.iter().take_while(|&&v| v == rest[0]).count();
                encoder.put_run(rest[0], same);
                rest = &rest[same..];
                continue;
            }
        }
        rest = &rest[n..];
    }
    prop_assert_eq!(encoder.encoded_len(), bytes.len());
    let mut out = vec![0xee];
    encoder.finish(&mut out);
    prop_assert_eq!(&out[1..], &bytes[..]);

    // The reference reads the values back, then at most 7 zeros of padding.
    let (reference, error) = reference_decode(&bytes, width, usize::MAX);
    prop_assert_eq!(error, None);
    prop_assert_eq!(&reference[..values.len()], values);
    prop_assert!(reference.len() - values.len() < 8);
    prop_assert!(reference[values.len()..].iter().all(|&v| v == 0));

    // So does the decoder, in batches of every kind.
    check_against_reference(&bytes, width, values.len() + 10, seed)?;
    check_against_reference(&bytes, width, values.len(), seed.rotate_left(7))?;
    if width <= 8 {
        let narrow: Vec<u8> = values.iter().map(|&v| u8::try_from(v).unwrap()).collect();
        prop_assert_eq!(
            decode_all::<u8>(&bytes, width, values.len()),
            Ok(narrow.clone())
        );
        prop_assert_eq!(encoded(&narrow, width), bytes.clone());
    }
    if width <= 1 {
        let bools: Vec<bool> = values.iter().map(|&v| v == 1).collect();
        let mut out = vec![false; values.len()];
        let mut decoder = Decoder::try_new(&bytes, width).unwrap();
        prop_assert_eq!(decoder.decode_bools(&mut out), Ok(values.len()));
        prop_assert_eq!(&out, &bools);
    }

    // With the length prefix.
    let mut prefixed = vec![1, 2, 3];
    encode_length_prefixed(values, width, &mut prefixed).unwrap();
    prop_assert_eq!(&prefixed[7..], &bytes[..]);
    let (mut decoder, rest) = Decoder::try_new_length_prefixed(&prefixed[3..], width).unwrap();
    prop_assert!(rest.is_empty());
    let mut out = vec![0u32; values.len()];
    prop_assert_eq!(decoder.decode(&mut out), Ok(values.len()));
    prop_assert_eq!(&out[..], values);
    Ok(())
}

#[test]
fn every_width() {
    for width in 0..=32 {
        let m = mask(width);
        let mut rng = Rng(u64::from(width) + 1);
        let mut values: Vec<u32> = (0..700)
            .map(|_| u32::try_from(rng.next() >> 32).unwrap() & m)
            .collect();
        values.extend(std::iter::repeat_n(m, 50));
        values.extend((0..77).map(|i| i & m));
        round_trip(width, &values, u64::from(width)).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn round_trips((width, values) in values(2500), seed: u64) {
        round_trip(width, &values, seed)?;
    }

    #[test]
    fn arbitrary_bytes_match_the_reference(
        width in 0..=32u8,
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        seed: u64,
    ) {
        check_against_reference(&bytes, width, 5000, seed)?;
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn truncated_and_flipped_encodings_never_panic(
        (width, values) in values(300),
        seed: u64,
    ) {
        let bytes = encoded(&values, width);
        let limit = values.len() + 20;
        for end in 0..bytes.len() {
            check_against_reference(&bytes[..end], width, limit, seed ^ end as u64)?;
        }
        let mut flipped = bytes.clone();
        for bit in 0..bytes.len().min(48) * 8 {
            flipped[bit / 8] ^= 1 << (bit % 8);
            check_against_reference(&flipped, width, limit, seed ^ bit as u64)?;
            flipped[bit / 8] ^= 1 << (bit % 8);
        }
    }
}
