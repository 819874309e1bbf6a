//! The compressor: round trips through this crate's decoder, and a walk of every stream
//! it writes with the LZO1X state machine that fails on an M1 match (an instruction
//! 0..=15 after a literal run), which Apache ORC's decoder misreads, and on `0x11`
//! anywhere but the end marker, which that decoder takes for the end.

// Test helpers: sizes of test data are small.
#![allow(clippy::cast_possible_truncation)]

use proptest::prelude::*;

use super::compress::{Dict, compress};
use super::lzo1x::decompress;
use crate::{Codec, Compressor};

/// What a walk of a stream found.
#[derive(Debug, Default)]
struct Walk {
    /// Literal runs (the first one included).
    runs: usize,
    /// Matches as `(kind, distance, length)`, kind 2, 3 or 4.
    matches: Vec<(u8, usize, usize)>,
    /// Bytes the stream decodes to.
    len: usize,
}

/// Reads a length extension at `*ip`.
fn extension(stream: &[u8], ip: &mut usize) -> usize {
    let mut n = 0;
    while stream[*ip] == 0 {
        n += 255;
        *ip += 1;
    }
    n += usize::from(stream[*ip]);
    *ip += 1;
    n
}

/// Walks `stream` instruction by instruction, panicking on an M1 match, on `0x11` that
/// is not the end marker, on a first byte of 16 or 17 (aircompressor reads the first
/// byte 16..=255 as a literal run), on a match before the start, or on any byte after
/// the end marker.
fn walk(stream: &[u8]) -> Walk {
    let mut walk = Walk::default();
    let mut ip = 0;
    // The literals the last instruction copied, 4 standing for 4 or more.
    let mut state;
    let first = stream[0];
    assert!(
        first != 16 && (first != 17 || stream == [0x11, 0, 0]),
        "first byte {first}"
    );
    if first > 17 {
        let n = usize::from(first) - 17;
        ip = 1 + n;
        walk.len = n;
        walk.runs = 1;
        state = n.min(4);
    } else {
        state = 0;
    }
    loop {
        let at = ip;
        let inst = stream[ip];
        ip += 1;
        if inst < 16 {
            assert_eq!(state, 0, "M1 instruction {inst:#04x} at {at}");
            let n = if inst == 0 {
                15 + extension(stream, &mut ip)
            } else {
                usize::from(inst)
            } + 3;
            ip += n;
            walk.len += n;
            walk.runs += 1;
            state = 4;
            continue;
        }
        if inst == 0x11 {
            assert_eq!(&stream[ip..], [0, 0], "0x11 at {at} is not the end marker");
            return walk;
        }
        let (kind, distance, len, trailing);
        if inst >= 64 {
            let high = usize::from(stream[ip]);
            ip += 1;
            kind = 2;
            distance = 1 + usize::from((inst >> 2) & 7) + (high << 3);
            len = usize::from(inst >> 5) + 1;
            trailing = usize::from(inst & 3);
        } else {
            let field = if inst >= 32 { inst & 31 } else { inst & 7 };
            let max = if inst >= 32 { 31 } else { 7 };
            len = 2 + if field == 0 {
                max + extension(stream, &mut ip)
            } else {
                usize::from(field)
            };
            let word = usize::from(u16::from_le_bytes([stream[ip], stream[ip + 1]]));
            ip += 2;
            trailing = word & 3;
            if inst >= 32 {
                kind = 3;
                distance = 1 + (word >> 2);
            } else {
                kind = 4;
                distance = 16384 + (usize::from(inst & 8) << 11) + (word >> 2);
                assert!(distance > 16384, "M4 at distance 16384 at {at}");
            }
        }
        assert!(
            distance <= walk.len,
            "match at {at} reaches before the start"
        );
        walk.matches.push((kind, distance, len));
        walk.len += len + trailing;
        ip += trailing;
        state = trailing;
    }
}

#[test]
#[should_panic(expected = "M1 instruction")]
fn walk_rejects_m1() {
    // "ab", then instruction 0 after 2 literals: liblzo2's 2-byte match at distance 1.
    walk(&[17 + 2, b'a', b'b', 0, 0, 0x11, 0, 0]);
}

#[test]
#[should_panic(expected = "is not the end marker")]
fn walk_rejects_0x11_inside() {
    // "abcd", then 0x11: liblzo2's 3-byte match at distance 16385, aircompressor's end.
    walk(&[17 + 4, b'a', b'b', b'c', b'd', 0x11, 4, 0, 0x11, 0, 0]);
}

fn compressed_with(dict: &mut Dict, input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    compress(dict, input, &mut out);
    out
}

/// Compresses `input`, checks the stream's instructions and its round trip through the
/// decoder, and returns the walk.
fn check(input: &[u8]) -> Walk {
    check_with(&mut Dict::new(), input)
}

/// [`check`] with `dict`.
fn check_with(dict: &mut Dict, input: &[u8]) -> Walk {
    let stream = compressed_with(dict, input);
    let walk = walk(&stream);
    assert_eq!(walk.len, input.len());
    let mut out = vec![0; input.len()];
    assert_eq!(decompress(&stream, &mut out), Ok(input.len()));
    assert!(out == input, "{} bytes differ", input.len());
    walk
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next().to_le_bytes()[3]).collect()
    }
}

/// Text of a small vocabulary: many short matches at varied distances.
fn words(len: usize, seed: u64) -> Vec<u8> {
    const WORDS: [&[u8]; 12] = [
        b"id",
        b"ts",
        b"abc",
        b"value",
        b"x",
        b"null",
        b"ok",
        b"parquet",
        b"page",
        b"row",
        b"dictionary",
        b"a",
    ];
    let mut rng = Rng(seed);
    let mut data = Vec::new();
    while data.len() < len {
        let word = WORDS[(rng.next() % 12) as usize];
        data.extend_from_slice(&(word.len() as u32).to_le_bytes());
        data.extend_from_slice(word);
    }
    data.truncate(len);
    data
}

#[test]
fn empty_input_is_the_end_marker() {
    assert_eq!(compressed_with(&mut Dict::new(), b""), [0x11, 0, 0]);
}

#[test]
fn short_inputs_are_one_literal_run() {
    assert_eq!(
        compressed_with(&mut Dict::new(), b"a"),
        [18, b'a', 0x11, 0, 0]
    );
    assert_eq!(
        compressed_with(&mut Dict::new(), b"abcd"),
        [21, b'a', b'b', b'c', b'd', 0x11, 0, 0]
    );
}

#[test]
fn every_length_round_trips() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let random = rng.bytes(700);
    let text = words(700, 7);
    let mut dict = Dict::new();
    for len in 0..=700 {
        check_with(&mut dict, &random[..len]);
        check_with(&mut dict, &text[..len]);
        check_with(&mut dict, &vec![b'z'; len]);
        let cycle: Vec<u8> = (0..len).map(|i| b"abcdefg"[i % 7]).collect();
        check_with(&mut dict, &cycle);
    }
}

#[test]
fn first_literal_run_longer_than_its_byte() {
    // 238 literals fit the first byte; 239 and more need the state-0 run.
    for len in [237, 238, 239, 240, 255 + 18, 300, 5000] {
        let input = Rng(len as u64).bytes(len);
        let stream = compressed_with(&mut Dict::new(), &input);
        if len <= 238 {
            assert_eq!(usize::from(stream[0]), 17 + len);
        } else {
            assert_eq!(stream[0], 0, "{len}");
        }
        check(&input);
    }
}

#[test]
fn literal_runs_after_matches() {
    // Repeats separated by 1, 2, 3 (in the SS bits), 4, 18 and 19 (a run instruction,
    // and one with an extension), and 300 fresh bytes.
    let mut rng = Rng(99);
    let block = rng.bytes(40);
    for gap in [1, 2, 3, 4, 18, 19, 300] {
        let mut input = block.clone();
        for _ in 0..4 {
            input.extend_from_slice(&rng.bytes(gap));
            input.extend_from_slice(&block);
        }
        let walk = check(&input);
        assert!(walk.matches.len() >= 4, "gap {gap}: {walk:?}");
    }
}

#[test]
fn long_runs_at_distance_one() {
    for len in [5, 9, 10, 33, 34, 35, 288, 289, 290, 100_000] {
        let mut input = vec![7_u8; len];
        input.insert(0, 1);
        let walk = check(&input);
        assert!(walk.matches.iter().all(|&(_, d, _)| d == 1), "{walk:?}");
    }
    let walk = check(&vec![0; 1 << 20]);
    assert_eq!(walk.matches.len(), 1);
}

/// `len` random nonzero bytes, zeros up to `distance`, the same bytes again, then a byte
/// that ends the repeat and more zeros: a match of exactly `len` bytes at exactly
/// `distance`. (The zeros compress as matches at distance 1, so that the search does
/// not speed up over them as it does over incompressible bytes.)
fn repeat_at(distance: usize, len: usize) -> Vec<u8> {
    let block: Vec<u8> = Rng(distance as u64)
        .bytes(len)
        .into_iter()
        .map(|b| b.max(1))
        .collect();
    let mut input = block.clone();
    input.resize(distance, 0);
    input.extend_from_slice(&block);
    input.push(0xFF);
    input.resize(input.len() + 20, 0);
    input
}

#[test]
fn matches_at_the_distance_limits() {
    let mut dict = Dict::new();
    let mut has = |distance, len, kind| {
        let walk = check_with(&mut dict, &repeat_at(distance, len));
        walk.matches.contains(&(kind, distance, len))
    };
    // M2 reaches 2048 for up to 8 bytes, M3 16384, M4 49151.
    assert!(has(2048, 8, 2));
    assert!(has(2049, 8, 3));
    assert!(has(2048, 9, 3));
    assert!(has(16384, 8, 3));
    assert!(has(16384, 300, 3));
    assert!(has(16385, 8, 4));
    assert!(has(32767, 8, 4));
    assert!(has(32768, 8, 4));
    assert!(has(32769, 8, 4));
    assert!(has(49151, 8, 4));
    assert!(has(49151, 300, 4));
    // M4 matches of 4 bytes, whose first byte is 0x12, not 0x11.
    assert!(has(16385, 4, 4));
    assert!(has(40000, 4, 4));
    // Past the window, the repeat is literals: the matches are the zeros', all near.
    let walk = check(&repeat_at(49152, 8));
    assert!(walk.matches.iter().all(|&(_, d, _)| d < 100), "{walk:?}");
    assert_eq!(walk.runs, 2);
}

#[test]
fn inputs_past_the_window_round_trip() {
    let text = words(300_000, 3);
    let walk = check(&text);
    assert!(walk.matches.len() > 10_000);
    let mut mixed = Rng(5).bytes(100_000);
    mixed.extend_from_slice(&text[..100_000]);
    mixed.extend_from_slice(&Rng(6).bytes(100_000));
    mixed.extend_from_slice(&text[..100_000]);
    check(&mixed);
}

#[test]
fn incompressible_input_grows_little() {
    for len in [100, 4096, 100_000] {
        let input = Rng(len as u64).bytes(len);
        let stream = compressed_with(&mut Dict::new(), &input);
        // A run instruction with its extension, and the end marker.
        assert!(
            stream.len() <= len + len / 255 + 8,
            "{len}: {}",
            stream.len()
        );
        check(&input);
    }
}

#[test]
fn output_does_not_depend_on_earlier_inputs() {
    let mut dict = Dict::new();
    let inputs = [
        words(100_000, 1),
        vec![3; 70_000],
        Rng(1).bytes(10_000),
        words(50, 2),
        words(200_000, 9),
    ];
    for input in &inputs {
        let reused = compressed_with(&mut dict, input);
        assert_eq!(reused, compressed_with(&mut Dict::new(), input));
    }
}

#[test]
fn compresses_repetitive_data() {
    // PLAIN INT64 of small sorted values and text of few words compress well.
    let int64: Vec<u8> = (0..100_000_i64)
        .flat_map(|i| (i / 3).to_le_bytes())
        .collect();
    let stream = compressed_with(&mut Dict::new(), &int64);
    assert!(stream.len() < int64.len() / 4, "{}", stream.len());
    let text = words(100_000, 4);
    let stream = compressed_with(&mut Dict::new(), &text);
    assert!(stream.len() < text.len() / 3, "{}", stream.len());
}

#[test]
fn both_codecs_use_the_compressor() {
    let input = words(300_000, 5);
    for codec in [Codec::Lzo, Codec::LzoRaw] {
        let mut out = Vec::new();
        Compressor::new(codec).compress(&input, &mut out).unwrap();
        let mut back = Vec::new();
        crate::decompress(codec, &out, input.len(), &mut back).unwrap();
        assert!(back == input, "{codec}");
        if codec == Codec::LzoRaw {
            walk(&out);
        } else {
            // Hadoop framing: blocks of 128 KiB, each one stream after two headers.
            let mut at = 0;
            while at < out.len() {
                let len = u32::from_be_bytes(out[at + 4..at + 8].try_into().unwrap()) as usize;
                walk(&out[at + 8..at + 8 + len]);
                at += 8 + len;
            }
        }
    }
}

/// Input built from literal bytes and copies of what came before: overlapping copies
/// at short distances, copies at far distances, runs.
fn structured() -> impl Strategy<Value = Vec<u8>> {
    let op = prop_oneof![
        prop::collection::vec(any::<u8>(), 1..40).prop_map(|bytes| (0, 0, bytes)),
        (1_usize..10, 1_usize..300).prop_map(|(d, l)| (d, l, Vec::new())),
        (1_usize..60_000, 3_usize..100).prop_map(|(d, l)| (d, l, Vec::new())),
        (any::<u8>(), 1_usize..2000).prop_map(|(b, l)| (0, l, vec![b])),
    ];
    prop::collection::vec(op, 0..60).prop_map(|ops| {
        let mut data = Vec::new();
        for (distance, len, bytes) in ops {
            if distance == 0 && bytes.len() == 1 {
                data.resize(data.len() + len, bytes[0]);
            } else if distance == 0 {
                data.extend_from_slice(&bytes);
            } else if distance <= data.len() {
                for _ in 0..len {
                    data.push(data[data.len() - distance]);
                }
            }
        }
        data
    })
}

proptest! {
    #[test]
    fn arbitrary_bytes_round_trip(input in prop::collection::vec(any::<u8>(), 0..3000)) {
        check(&input);
    }

    #[test]
    fn few_symbols_round_trip(input in prop::collection::vec(0_u8..3, 0..5000)) {
        check(&input);
    }

    #[test]
    fn structured_round_trip(input in structured()) {
        check(&input);
    }
}
