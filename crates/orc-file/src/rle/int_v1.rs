//! Integer RLE version 1 (orc-v0.md, "Integer Run Length Encoding, version 1"): runs of 3
//! to 130 values with a fixed delta of -128 to 127, and lists of 1 to 128 varints.
//!
//! ```text
//! int-rle-v1 := ( run | literals )*
//! run        := control:0x00..=0x7f  delta:i8  base:varint   // control + 3 values
//! literals   := control:0x80..=0xff  value:varint{256 - control}
//! ```
//!
//! Value `i` of a run is `base + i * delta`; varints are zigzagged in a signed stream.

use super::{Sign, read_u8, read_varint, skip_varint};
use parquet_core::{Result, varint, zigzag};

/// Shortest run.
const MIN_REPEAT: usize = 3;
/// Longest run: a control byte of 127.
const MAX_REPEAT: usize = 127 + MIN_REPEAT;
/// Longest literal list.
const MAX_LITERALS: usize = 128;
/// The deltas a run can have.
const DELTAS: core::ops::RangeInclusive<i64> = -128..=127;

/// The rest of the run being decoded.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// `left` more values: `next`, `next + step`, ….
    Step { next: i64, step: i64, left: usize },
    /// `left` more varints from the decoder's position on.
    Literals { left: usize },
}

/// Decodes an integer RLE v1 stream held in `B`: a borrowed `&[u8]`, or an owned buffer
/// such as `bytes::Bytes` or `Vec<u8>`.
#[derive(Debug, Clone)]
pub struct Decoder<B> {
    input: B,
    pos: usize,
    signed: bool,
    run: Run,
}

impl<B: AsRef<[u8]>> Decoder<B> {
    /// A decoder of the whole (decompressed) stream `input`; a [`Sign::Signed`] stream
    /// zigzags its values, an unsigned one gives `i64`s holding the `u64` bits.
    pub const fn new(input: B, sign: Sign) -> Self {
        Self {
            input,
            pos: 0,
            signed: sign.is_signed(),
            run: Run::Step {
                next: 0,
                step: 0,
                left: 0,
            },
        }
    }

    /// Bytes of the input not yet consumed.
    pub fn remaining_input(&self) -> usize {
        self.input.as_ref().len().saturating_sub(self.pos)
    }

    /// Goes on decoding from `input`, which must begin with the bytes this decoder has
    /// not consumed yet (its [`remaining_input`](Self::remaining_input)), followed by
    /// more of the stream: a stream decompressed a chunk at a time, whose window moved.
    /// The run being decoded carries on into it.
    pub fn set_input(&mut self, input: B) {
        self.input = input;
        self.pos = 0;
    }

    /// Fills `out` from the front and returns how many values it wrote: fewer than
    /// `out.len()` only when the input ends at a run boundary.
    ///
    /// # Errors
    ///
    /// [`parquet_core::Error::Truncated`] when a run is cut short,
    /// [`parquet_core::Error::Invalid`] for a varint longer than ten bytes.
    pub fn decode(&mut self, out: &mut [i64]) -> Result<usize> {
        let input = self.input.as_ref();
        let pos = &mut self.pos;
        let mut done = 0;
        while let Some(rest) = out.get_mut(done..).filter(|rest| !rest.is_empty()) {
            match &mut self.run {
                Run::Step { next, step, left } if *left > 0 => {
                    let count = (*left).min(rest.len());
                    let dst = rest.get_mut(..count).unwrap_or_default();
                    if *step == 0 {
                        dst.fill(*next);
                    } else {
                        let mut value = *next;
                        for slot in dst {
                            *slot = value;
                            value = value.wrapping_add(*step);
                        }
                        *next = value;
                    }
                    *left -= count;
                    done += count;
                }
                Run::Literals { left } if *left > 0 => {
                    let count = (*left).min(rest.len());
                    let dst = rest.get_mut(..count).unwrap_or_default();
                    // Written before a varint fails, so that a later call resumes right.
                    let mut read = 0;
                    let result = if self.signed {
                        dst.iter_mut().try_for_each(|slot| {
                            *slot = zigzag::decode_i64(read_varint(input, pos, "RLE v1 literal")?);
                            read += 1;
                            Ok(())
                        })
                    } else {
                        dst.iter_mut().try_for_each(|slot| {
                            *slot = read_varint(input, pos, "RLE v1 literal")?.cast_signed();
                            read += 1;
                            Ok(())
                        })
                    };
                    *left -= read;
                    result?;
                    done += count;
                }
                _ => {
                    if *pos >= input.len() {
                        break;
                    }
                    (self.run, *pos) = read_header(input, *pos, self.signed)?;
                }
            }
        }
        Ok(done)
    }

    /// Skips up to `n` values and returns how many it skipped: fewer than `n` only when
    /// the input ends at a run boundary.
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode).
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let input = self.input.as_ref();
        let pos = &mut self.pos;
        let mut done = 0;
        while done < n {
            match &mut self.run {
                Run::Step { next, step, left } if *left > 0 => {
                    let count = (*left).min(n - done);
                    // `count` is at most 130.
                    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
                    {
                        *next = next.wrapping_add(step.wrapping_mul(count as i64));
                    }
                    *left -= count;
                    done += count;
                }
                Run::Literals { left } if *left > 0 => {
                    let count = (*left).min(n - done);
                    for _ in 0..count {
                        skip_varint(input, pos, "RLE v1 literal")?;
                        *left -= 1;
                    }
                    done += count;
                }
                _ => {
                    if *pos >= input.len() {
                        break;
                    }
                    (self.run, *pos) = read_header(input, *pos, self.signed)?;
                }
            }
        }
        Ok(done)
    }
}

/// Reads the control byte at `pos` (and a run's delta and base): the run and where it
/// goes on.
#[inline]
fn read_header(input: &[u8], mut pos: usize, signed: bool) -> Result<(Run, usize)> {
    let control = read_u8(input, &mut pos, "RLE v1 control byte")?;
    let run = if control < 0x80 {
        let delta = read_u8(input, &mut pos, "RLE v1 run delta")?.cast_signed();
        let base = read_varint(input, &mut pos, "RLE v1 run base")?;
        Run::Step {
            next: if signed {
                zigzag::decode_i64(base)
            } else {
                base.cast_signed()
            },
            step: i64::from(delta),
            left: usize::from(control) + MIN_REPEAT,
        }
    } else {
        Run::Literals {
            left: 0x100 - usize::from(control),
        }
    };
    Ok((run, pos))
}

/// Encodes an integer RLE v1 stream as Apache ORC's `RunLengthIntegerWriter` does.
#[derive(Debug, Clone)]
pub struct Encoder {
    out: Vec<u8>,
    signed: bool,
    literals: Box<[i64; MAX_LITERALS]>,
    /// Values pending: literals, or the length of the run from `literals[0]`.
    num_literals: usize,
    delta: i64,
    repeat: bool,
    /// How many of the last literals step by `delta`.
    tail_run_length: usize,
}

impl Encoder {
    /// An empty encoder; a [`Sign::Signed`] stream zigzags its values.
    pub fn new(sign: Sign) -> Self {
        Self {
            out: Vec::new(),
            signed: sign.is_signed(),
            literals: Box::new([0; MAX_LITERALS]),
            num_literals: 0,
            delta: 0,
            repeat: false,
            tail_run_length: 0,
        }
    }

    /// Appends one value (an unsigned stream takes the `u64` bits of the `i64`).
    pub fn push(&mut self, value: i64) {
        let n = self.num_literals;
        if n == 0 {
            self.set_literal(0, value);
            self.num_literals = 1;
            self.tail_run_length = 1;
            return;
        }
        if self.repeat {
            // `n` is at most 130.
            #[allow(clippy::cast_possible_wrap)]
            let expected = self
                .literal(0)
                .wrapping_add(self.delta.wrapping_mul(n as i64));
            if value == expected {
                self.num_literals += 1;
                if self.num_literals == MAX_REPEAT {
                    self.write_values();
                }
            } else {
                self.write_values();
                self.set_literal(0, value);
                self.num_literals = 1;
                self.tail_run_length = 1;
            }
            return;
        }
        let last = self.literals.get(n - 1).copied().unwrap_or_default();
        if self.tail_run_length != 1 && value == last.wrapping_add(self.delta) {
            self.tail_run_length += 1;
        } else {
            self.delta = value.wrapping_sub(last);
            self.tail_run_length = if DELTAS.contains(&self.delta) { 2 } else { 1 };
        }
        if self.tail_run_length == MIN_REPEAT {
            if n + 1 == MIN_REPEAT {
                self.repeat = true;
                self.num_literals += 1;
            } else {
                // The literals before the run of three go out first.
                self.num_literals -= MIN_REPEAT - 1;
                let base = self
                    .literals
                    .get(self.num_literals)
                    .copied()
                    .unwrap_or_default();
                self.write_values();
                self.set_literal(0, base);
                self.repeat = true;
                self.num_literals = MIN_REPEAT;
            }
        } else {
            if let Some(slot) = self.literals.get_mut(n) {
                *slot = value;
            }
            self.num_literals += 1;
            if self.num_literals == MAX_LITERALS {
                self.write_values();
            }
        }
    }

    /// Appends `values`.
    pub fn extend(&mut self, values: &[i64]) {
        for &value in values {
            self.push(value);
        }
    }

    /// The row-index position: (bytes of output finished so far, values pending). A
    /// reader that starts at that byte and skips that many values is at the next value.
    pub const fn position(&self) -> (u64, u64) {
        (self.out.len() as u64, self.num_literals as u64)
    }

    /// Writes the pending values and returns the encoded stream, leaving the encoder
    /// empty for reuse.
    pub fn finish(&mut self) -> Vec<u8> {
        self.write_values();
        self.delta = 0;
        core::mem::take(&mut self.out)
    }

    /// Encoded bytes so far plus a bound on what the pending values will take.
    pub const fn estimated_size(&self) -> usize {
        self.out.len()
            + match (self.num_literals, self.repeat) {
                (0, _) => 0,
                (_, true) => 12,
                (n, false) => 1 + 10 * n,
            }
    }

    fn write_values(&mut self) {
        let n = self.num_literals;
        if n == 0 {
            return;
        }
        if self.repeat {
            #[allow(clippy::cast_possible_truncation)] // a run is at most 130 long
            self.out.push((n - MIN_REPEAT) as u8);
            #[allow(clippy::cast_possible_truncation)] // within -128..=127
            self.out.push((self.delta as i8).cast_unsigned());
            self.write_value(self.literal(0));
        } else {
            #[allow(clippy::cast_possible_truncation)] // -1 to -128 as a byte
            self.out.push((n as u8).wrapping_neg());
            for index in 0..n {
                let value = self.literals.get(index).copied().unwrap_or_default();
                self.write_value(value);
            }
        }
        self.repeat = false;
        self.num_literals = 0;
        self.tail_run_length = 0;
    }

    #[inline]
    fn literal(&self, index: usize) -> i64 {
        self.literals.get(index).copied().unwrap_or_default()
    }

    #[inline]
    fn set_literal(&mut self, index: usize, value: i64) {
        if let Some(slot) = self.literals.get_mut(index) {
            *slot = value;
        }
    }

    #[inline]
    fn write_value(&mut self, value: i64) {
        let raw = if self.signed {
            zigzag::encode_i64(value)
        } else {
            value.cast_unsigned()
        };
        varint::encode_u64(raw, &mut self.out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rle::Sign::{Signed, Unsigned};
    use parquet_core::Error;

    fn encode(values: &[i64], sign: Sign) -> Vec<u8> {
        let mut encoder = Encoder::new(sign);
        encoder.extend(values);
        encoder.finish()
    }

    fn decode_all(bytes: &[u8], sign: Sign) -> Result<Vec<i64>> {
        let mut out = vec![0i64; bytes.len() * 130 + 1];
        let n = Decoder::new(bytes, sign).decode(&mut out)?;
        out.truncate(n);
        Ok(out)
    }

    #[test]
    fn spec_examples() {
        // "100 instances of 7 ... [0x61, 0x00, 0x07]"
        assert_eq!(decode_all(&[0x61, 0x00, 0x07], Unsigned).unwrap(), [7; 100]);
        assert_eq!(encode(&[7; 100], Unsigned), [0x61, 0x00, 0x07]);
        // "the sequence of numbers running from 100 to 1 ... [0x61, 0xff, 0x64]"
        let down: Vec<i64> = (1..=100).rev().collect();
        assert_eq!(decode_all(&[0x61, 0xff, 0x64], Unsigned).unwrap(), down);
        assert_eq!(encode(&down, Unsigned), [0x61, 0xff, 0x64]);
        // "[2, 3, 6, 7, 11] would be encoded as [0xfb, 0x02, 0x03, 0x06, 0x07, 0xb]"
        let bytes = [0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b];
        assert_eq!(decode_all(&bytes, Unsigned).unwrap(), [2, 3, 6, 7, 11]);
        assert_eq!(encode(&[2, 3, 6, 7, 11], Unsigned), bytes);
    }

    #[test]
    fn signed_values_zigzag() {
        assert_eq!(encode(&[-1, 1, -2], Signed), [0xfd, 1, 2, 3]);
        assert_eq!(decode_all(&[0xfd, 1, 2, 3], Signed).unwrap(), [-1, 1, -2]);
        // A run of -5, -6, …: base zigzag(-5) = 9, delta -1.
        assert_eq!(encode(&[-5, -6, -7, -8], Signed), [0x01, 0xff, 9]);
    }

    #[test]
    fn java_splits() {
        // Literals, then a run of three with delta 2 that starts inside them.
        assert_eq!(
            encode(&[10, 50, 1, 3, 5], Unsigned),
            [0xfe, 10, 50, 0x00, 2, 1]
        );
        // A delta outside -128..=127 is no run.
        assert_eq!(
            encode(&[0, 200, 400], Unsigned),
            [0xfd, 0, 0xc8, 0x01, 0x90, 0x03]
        );
        // Runs stop at 130.
        let bytes = encode(&[1; 131], Unsigned);
        assert_eq!(bytes, [0x7f, 0, 1, 0xff, 1]);
    }

    #[test]
    fn extremes_wrap() {
        let values = [i64::MAX, i64::MIN, i64::MIN + 1, 0, -1, i64::MIN];
        for sign in [Unsigned, Signed] {
            let bytes = encode(&values, sign);
            assert_eq!(decode_all(&bytes, sign).unwrap(), values);
        }
        // A run of deltas that wraps: MAX, MIN, MIN + 1.
        let bytes = encode(&[i64::MAX, i64::MIN, i64::MIN + 1], Signed);
        assert_eq!(bytes[..2], [0x00, 0x01]);
    }

    #[test]
    fn truncation_and_overlong_varints() {
        assert!(matches!(
            decode_all(&[0x00], Unsigned),
            Err(Error::Truncated { .. })
        ));
        assert!(matches!(
            decode_all(&[0x00, 0x01], Unsigned),
            Err(Error::Truncated { .. })
        ));
        assert!(matches!(
            decode_all(&[0xfe, 0x01], Unsigned),
            Err(Error::Truncated { .. })
        ));
        assert!(matches!(
            decode_all(&[0xfe, 0x01, 0x80], Unsigned),
            Err(Error::Truncated { .. })
        ));
        let overlong = [
            0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
        ];
        assert!(matches!(
            decode_all(&overlong, Unsigned),
            Err(Error::Invalid { .. })
        ));
        assert!(Decoder::new(&overlong, Unsigned).skip(1).is_err());
        // A zero last group is accepted, as Java does.
        assert_eq!(decode_all(&[0xff, 0x81, 0x00], Unsigned).unwrap(), [1]);
    }

    #[test]
    fn position_and_reuse() {
        let mut encoder = Encoder::new(Unsigned);
        encoder.extend(&[10, 50, 1, 3]);
        assert_eq!(encoder.position(), (0, 4));
        encoder.push(5);
        assert_eq!(encoder.position(), (3, 3));
        assert_eq!(encoder.finish(), [0xfe, 10, 50, 0x00, 2, 1]);
        assert_eq!(encoder.position(), (0, 0));
        encoder.push(300);
        assert_eq!(encoder.finish(), [0xff, 0xac, 0x02]);
    }
}
