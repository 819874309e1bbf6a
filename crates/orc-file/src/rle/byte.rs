//! Byte RLE (orc-v1.md, "Byte Run Length Encoding"): runs of 3 to 130 copies of a byte,
//! and lists of 1 to 128 literal bytes.
//!
//! ```text
//! byte-rle := ( run | literals )*
//! run      := control:0x00..=0x7f  value:u8                 // control + 3 copies
//! literals := control:0x80..=0xff  value:u8{256 - control}  // as i8, -1 to -128
//! ```

use super::{read_u8, take};
use parquet_core::Result;

/// Shortest run.
const MIN_REPEAT: usize = 3;
/// Longest run: a control byte of 127.
const MAX_REPEAT: usize = 127 + MIN_REPEAT;
/// Longest literal list.
const MAX_LITERALS: usize = 128;

/// The rest of the run being decoded.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// `left` more copies of `value`.
    Repeat { value: u8, left: usize },
    /// `left` more literal bytes, from the decoder's position on (all present: the
    /// header was checked against the input).
    Literals { left: usize },
}

/// Decodes a byte RLE stream held in `B`: a borrowed `&[u8]`, or an owned buffer such
/// as `bytes::Bytes` or `Vec<u8>`.
#[derive(Debug, Clone)]
pub struct Decoder<B> {
    input: B,
    pos: usize,
    run: Run,
}

impl<B: AsRef<[u8]>> Decoder<B> {
    /// A decoder of the whole (decompressed) stream `input`.
    pub const fn new(input: B) -> Self {
        Self {
            input,
            pos: 0,
            run: Run::Repeat { value: 0, left: 0 },
        }
    }

    /// Bytes of the input not yet consumed: the run being decoded has been.
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
    /// [`parquet_core::Error::Truncated`] when a run is cut short.
    pub fn decode(&mut self, out: &mut [u8]) -> Result<usize> {
        let input = self.input.as_ref();
        let mut done = 0;
        while let Some(rest) = out.get_mut(done..).filter(|rest| !rest.is_empty()) {
            match &mut self.run {
                Run::Repeat { value, left } if *left > 0 => {
                    let count = (*left).min(rest.len());
                    if let Some(dst) = rest.get_mut(..count) {
                        dst.fill(*value);
                    }
                    *left -= count;
                    done += count;
                }
                Run::Literals { left } if *left > 0 => {
                    let count = (*left).min(rest.len());
                    let src = input.get(self.pos..self.pos + count);
                    if let (Some(dst), Some(src)) = (rest.get_mut(..count), src) {
                        dst.copy_from_slice(src);
                    }
                    self.pos += count;
                    *left -= count;
                    done += count;
                }
                _ => {
                    if self.pos >= input.len() {
                        break;
                    }
                    (self.run, self.pos) = read_header(input, self.pos)?;
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
    /// [`parquet_core::Error::Truncated`] when a run is cut short.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let input = self.input.as_ref();
        let mut done = 0;
        while done < n {
            match &mut self.run {
                Run::Repeat { left, .. } if *left > 0 => {
                    let count = (*left).min(n - done);
                    *left -= count;
                    done += count;
                }
                Run::Literals { left } if *left > 0 => {
                    let count = (*left).min(n - done);
                    self.pos += count;
                    *left -= count;
                    done += count;
                }
                _ => {
                    if self.pos >= input.len() {
                        break;
                    }
                    (self.run, self.pos) = read_header(input, self.pos)?;
                }
            }
        }
        Ok(done)
    }
}

/// Reads the control byte at `pos` (and a run's value): the run and where it goes on.
#[inline]
fn read_header(input: &[u8], mut pos: usize) -> Result<(Run, usize)> {
    let control = read_u8(input, &mut pos, "byte RLE control byte")?;
    let run = if control < 0x80 {
        let value = read_u8(input, &mut pos, "byte RLE run value")?;
        Run::Repeat {
            value,
            left: usize::from(control) + MIN_REPEAT,
        }
    } else {
        let left = 0x100 - usize::from(control);
        // Check that the literals are all there; they are read from `pos` on.
        take(input, &mut { pos }, left, "byte RLE literals")?;
        Run::Literals { left }
    };
    Ok((run, pos))
}

/// Encodes a byte RLE stream as Apache ORC's `RunLengthByteWriter` does.
#[derive(Debug, Clone)]
pub struct Encoder {
    out: Vec<u8>,
    literals: [u8; MAX_LITERALS],
    /// Values pending: literals, or the length of the run of `literals[0]`.
    num_literals: usize,
    repeat: bool,
    /// How many of the last literals are equal.
    tail_run_length: usize,
}

impl Default for Encoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Encoder {
    /// An empty encoder.
    pub const fn new() -> Self {
        Self {
            out: Vec::new(),
            literals: [0; MAX_LITERALS],
            num_literals: 0,
            repeat: false,
            tail_run_length: 0,
        }
    }

    /// Appends one value.
    #[inline]
    pub fn push(&mut self, value: u8) {
        let n = self.num_literals;
        if n == 0 {
            self.literals[0] = value;
            self.num_literals = 1;
            self.tail_run_length = 1;
        } else if self.repeat {
            if value == self.literals[0] {
                self.num_literals += 1;
                if self.num_literals == MAX_REPEAT {
                    self.write_values();
                }
            } else {
                self.write_values();
                self.literals[0] = value;
                self.num_literals = 1;
                self.tail_run_length = 1;
            }
        } else {
            let last = self.literals.get(n - 1).copied();
            if last == Some(value) {
                self.tail_run_length += 1;
            } else {
                self.tail_run_length = 1;
            }
            if self.tail_run_length == MIN_REPEAT {
                if n + 1 == MIN_REPEAT {
                    self.repeat = true;
                    self.num_literals += 1;
                } else {
                    // The literals before the run of three go out first.
                    self.num_literals -= MIN_REPEAT - 1;
                    self.write_values();
                    self.literals[0] = value;
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
    }

    /// Appends `values`.
    pub fn extend(&mut self, values: &[u8]) {
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
        self.tail_run_length = 0;
        core::mem::take(&mut self.out)
    }

    /// Encoded bytes so far plus what the pending values will take.
    pub const fn estimated_size(&self) -> usize {
        self.out.len()
            + match (self.num_literals, self.repeat) {
                (0, _) => 0,
                (_, true) => 2,
                (n, false) => n + 1,
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
            self.out.push(self.literals[0]);
        } else {
            #[allow(clippy::cast_possible_truncation)] // -1 to -128 as a byte
            self.out.push((n as u8).wrapping_neg());
            self.out
                .extend_from_slice(self.literals.get(..n).unwrap_or_default());
        }
        self.repeat = false;
        self.tail_run_length = 0;
        self.num_literals = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet_core::Error;

    fn encode(values: &[u8]) -> Vec<u8> {
        let mut encoder = Encoder::new();
        encoder.extend(values);
        encoder.finish()
    }

    fn decode_all(bytes: &[u8]) -> Result<Vec<u8>> {
        let mut out = vec![0u8; bytes.len() * 130 + 1];
        let n = Decoder::new(bytes).decode(&mut out)?;
        out.truncate(n);
        Ok(out)
    }

    #[test]
    fn spec_examples() {
        // "a hundred 0's is encoded as [0x61, 0x00]"
        assert_eq!(decode_all(&[0x61, 0x00]).unwrap(), [0u8; 100]);
        assert_eq!(encode(&[0; 100]), [0x61, 0x00]);
        // "the sequence 0x44, 0x45 would be encoded as [0xfe, 0x44, 0x45]"
        assert_eq!(decode_all(&[0xfe, 0x44, 0x45]).unwrap(), [0x44, 0x45]);
        assert_eq!(encode(&[0x44, 0x45]), [0xfe, 0x44, 0x45]);
    }

    #[test]
    fn java_splits() {
        // Literals, then a run of three that starts inside them.
        assert_eq!(encode(&[1, 2, 3, 3, 3]), [0xfe, 1, 2, 0x00, 3]);
        // Runs stop at 130; literals at 128.
        assert_eq!(encode(&[9; 131]), [0x7f, 9, 0xff, 9]);
        let literals: Vec<u8> = (0..=128).collect();
        let bytes = encode(&literals);
        assert_eq!(bytes[0], 0x80);
        assert_eq!(bytes[129], 0xff);
        assert_eq!(bytes[130], 128);
        // Two equal values are not a run.
        assert_eq!(encode(&[5, 5]), [0xfe, 5, 5]);
    }

    #[test]
    fn truncation_is_an_error() {
        assert!(matches!(decode_all(&[0x61]), Err(Error::Truncated { .. })));
        assert!(matches!(
            decode_all(&[0xfd, 1, 2]),
            Err(Error::Truncated { .. })
        ));
        let mut decoder = Decoder::new(&[0xfd, 1, 2]);
        assert!(decoder.skip(1).is_err());
        // The values before a broken run are there for a decode that stops before it.
        let mut decoder = Decoder::new(&[0x00, 7, 0xfd, 1]);
        let mut out = [0u8; 3];
        assert_eq!(decoder.decode(&mut out), Ok(3));
        assert_eq!(out, [7; 3]);
        assert!(decoder.decode(&mut out).is_err());
    }

    #[test]
    fn skip_and_remaining_input() {
        let bytes = encode(&[1, 1, 1, 1, 2, 3, 4]);
        let mut decoder = Decoder::new(&bytes);
        assert_eq!(decoder.skip(5), Ok(5));
        let mut out = [0u8; 4];
        assert_eq!(decoder.decode(&mut out), Ok(2));
        assert_eq!(&out[..2], [3, 4]);
        assert_eq!(decoder.remaining_input(), 0);
        assert_eq!(decoder.skip(3), Ok(0));
    }

    #[test]
    fn position_and_reuse() {
        let mut encoder = Encoder::new();
        encoder.extend(&[1, 2, 3]);
        assert_eq!(encoder.position(), (0, 3));
        encoder.extend(&[3, 3]);
        // [1, 2] went out as literals; the run of three 3s is pending.
        assert_eq!(encoder.position(), (3, 3));
        assert_eq!(encoder.estimated_size(), 5);
        assert_eq!(encoder.finish(), [0xfe, 1, 2, 0x00, 3]);
        assert_eq!(encoder.position(), (0, 0));
        encoder.push(4);
        assert_eq!(encoder.finish(), [0xff, 4]);
    }
}
