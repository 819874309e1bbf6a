//! Boolean RLE (orc-v1.md, "Boolean Run Length Encoding"): the values are bits, eight to
//! a byte from the most significant down, and the bytes are byte RLE.
//!
//! ```text
//! boolean-rle := byte-rle of bytes b7 b6 b5 b4 b3 b2 b1 b0   // the first value is b7
//! ```
//!
//! The last byte is padded with zero bits: a stream of 10 values decodes to 16, and the
//! reader knows how many it wants.

use super::byte;
use parquet_core::Result;

/// Bytes decoded at a time into a stack buffer.
const CHUNK: usize = 128;

/// The eight values of each byte, most significant bit first.
#[allow(clippy::indexing_slicing)] // evaluated at compile time, within bounds
static BITS: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = byte & (0x80 >> bit) != 0;
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Decodes a boolean RLE stream.
///
/// The input is held in `B`: a borrowed `&[u8]`, or an owned buffer such as
/// `bytes::Bytes` or `Vec<u8>`.
#[derive(Debug, Clone)]
pub struct Decoder<B> {
    bytes: byte::Decoder<B>,
    /// The byte being read; its unread bits are its top `bits_left`.
    current: u8,
    bits_left: u32,
}

impl<B: AsRef<[u8]>> Decoder<B> {
    /// A decoder of the whole (decompressed) stream `input`.
    pub const fn new(input: B) -> Self {
        Self {
            bytes: byte::Decoder::new(input),
            current: 0,
            bits_left: 0,
        }
    }

    /// Bytes of the input not yet consumed.
    pub fn remaining_input(&self) -> usize {
        self.bytes.remaining_input()
    }

    /// Goes on decoding from `input`, which must begin with the bytes this decoder has
    /// not consumed yet (its [`remaining_input`](Self::remaining_input)), followed by
    /// more of the stream: a stream decompressed a chunk at a time, whose window moved.
    /// The run being decoded carries on into it.
    pub fn set_input(&mut self, input: B) {
        self.bytes.set_input(input);
    }

    /// Fills `out` from the front and returns how many values it wrote: fewer than
    /// `out.len()` only when the input ends at a run boundary (always after a whole byte
    /// of values).
    ///
    /// # Errors
    ///
    /// [`parquet_core::Error::Truncated`] when a run is cut short.
    pub fn decode(&mut self, out: &mut [bool]) -> Result<usize> {
        let mut done = self.drain_current(out);
        // Whole bytes, through a buffer.
        let mut buffer = [0u8; CHUNK];
        while let Some(rest) = out.get_mut(done..).filter(|rest| rest.len() >= 8) {
            let want = (rest.len() / 8).min(CHUNK);
            let got = self
                .bytes
                .decode(buffer.get_mut(..want).unwrap_or_default())?;
            let (groups, _) = rest.as_chunks_mut::<8>();
            for (values, &byte) in groups.iter_mut().zip(buffer.get(..got).unwrap_or_default()) {
                #[allow(clippy::indexing_slicing)] // a `u8` indexes 256 entries
                {
                    *values = BITS[usize::from(byte)];
                }
            }
            done += got * 8;
            if got < want {
                return Ok(done);
            }
        }
        // The last few values, from one more byte.
        if done < out.len() {
            let mut byte = [0u8];
            if self.bytes.decode(&mut byte)? == 1 {
                self.current = byte[0];
                self.bits_left = 8;
                done += self.drain_current(out.get_mut(done..).unwrap_or_default());
            }
        }
        Ok(done)
    }

    /// Skips up to `n` values and returns how many it skipped.
    ///
    /// # Errors
    ///
    /// [`parquet_core::Error::Truncated`] when a run is cut short.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let from_current = n.min(self.bits_left as usize);
        #[allow(clippy::cast_possible_truncation)] // at most 8
        {
            self.bits_left -= from_current as u32;
        }
        let mut done = from_current;
        let whole = (n - done) / 8;
        let skipped = self.bytes.skip(whole)?;
        done += skipped * 8;
        if skipped < whole {
            return Ok(done);
        }
        let last = n - done;
        if last > 0 {
            let mut byte = [0u8];
            if self.bytes.decode(&mut byte)? == 1 {
                self.current = byte[0];
                #[allow(clippy::cast_possible_truncation)] // below 8
                {
                    self.bits_left = 8 - last as u32;
                }
                done += last;
            }
        }
        Ok(done)
    }

    /// Writes the unread bits of the current byte to the front of `out`.
    #[inline]
    fn drain_current(&mut self, out: &mut [bool]) -> usize {
        let count = out.len().min(self.bits_left as usize);
        for value in out.iter_mut().take(count) {
            self.bits_left -= 1;
            *value = self.current >> self.bits_left & 1 != 0;
        }
        count
    }
}

/// Encodes a boolean RLE stream as Apache ORC's `BitFieldWriter` (width 1) does.
#[derive(Debug, Clone, Default)]
pub struct Encoder {
    bytes: byte::Encoder,
    current: u8,
    bits_used: u32,
}

impl Encoder {
    /// An empty encoder.
    pub const fn new() -> Self {
        Self {
            bytes: byte::Encoder::new(),
            current: 0,
            bits_used: 0,
        }
    }

    /// Appends one value.
    #[inline]
    pub fn push(&mut self, value: bool) {
        self.current |= u8::from(value) << (7 - self.bits_used);
        self.bits_used += 1;
        if self.bits_used == 8 {
            self.bytes.push(self.current);
            self.current = 0;
            self.bits_used = 0;
        }
    }

    /// Appends `values`.
    pub fn extend(&mut self, values: &[bool]) {
        let mut values = values;
        while self.bits_used != 0 {
            let Some((&first, rest)) = values.split_first() else {
                return;
            };
            self.push(first);
            values = rest;
        }
        let (bytes, rest) = values.as_chunks::<8>();
        for chunk in bytes {
            let byte = chunk
                .iter()
                .fold(0u8, |byte, &value| byte << 1 | u8::from(value));
            self.bytes.push(byte);
        }
        for &value in rest {
            self.push(value);
        }
    }

    /// The row-index position, as Java's `BitFieldWriter` records it: (bytes of output
    /// finished so far, bytes pending in the byte RLE, bits used of the current byte).
    /// A reader starts at that byte and skips `8 * pending + bits` values.
    pub const fn position(&self) -> (u64, u64, u64) {
        let (offset, pending) = self.bytes.position();
        (offset, pending, self.bits_used as u64)
    }

    /// Writes the pending values (the last byte padded with zero bits) and returns the
    /// encoded stream, leaving the encoder empty for reuse.
    pub fn finish(&mut self) -> Vec<u8> {
        if self.bits_used > 0 {
            self.bytes.push(self.current);
            self.current = 0;
            self.bits_used = 0;
        }
        self.bytes.finish()
    }

    /// Encoded bytes so far plus what the pending values will take.
    pub const fn estimated_size(&self) -> usize {
        self.bytes.estimated_size() + if self.bits_used > 0 { 2 } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example() {
        // "the byte sequence [0xff, 0x80] would be one true followed by seven false"
        // (as byte RLE, the two literal bytes [0xfe, 0xff, 0x80]).
        let bytes = [0xfe, 0xff, 0x80];
        let mut decoder = Decoder::new(&bytes);
        let mut out = [true; 20];
        assert_eq!(decoder.decode(&mut out), Ok(16));
        let mut expected = [false; 16];
        expected[..9].fill(true);
        assert_eq!(&out[..16], &expected);

        let mut encoder = Encoder::new();
        encoder.extend(&expected[..9]);
        assert_eq!(encoder.finish(), bytes);
    }

    #[test]
    fn partial_bytes_and_skips() {
        let values: Vec<bool> = (0..1000).map(|i| i % 3 == 0 || i % 7 == 0).collect();
        let mut encoder = Encoder::new();
        encoder.extend(&values[..5]);
        for &value in &values[5..] {
            encoder.push(value);
        }
        let bytes = encoder.finish();
        for split in [0, 1, 3, 8, 9, 17, 500, 999, 1000] {
            let mut decoder = Decoder::new(&bytes);
            let mut head = vec![false; split];
            assert_eq!(decoder.decode(&mut head), Ok(split));
            assert_eq!(head, values[..split]);
            let mut skipper = Decoder::new(&bytes);
            assert_eq!(skipper.skip(split), Ok(split));
            let mut a = vec![false; 1000 - split];
            let mut b = vec![false; 1000 - split];
            assert_eq!(decoder.decode(&mut a), Ok(1000 - split));
            assert_eq!(skipper.decode(&mut b), Ok(1000 - split));
            assert_eq!(a, values[split..]);
            assert_eq!(b, values[split..]);
        }
        // 1000 values are 125 whole bytes: nothing more.
        let mut decoder = Decoder::new(&bytes);
        assert_eq!(decoder.skip(2000), Ok(1000));
    }

    #[test]
    fn position_counts_bits() {
        let mut encoder = Encoder::new();
        encoder.extend(&[true; 11]);
        assert_eq!(encoder.position(), (0, 1, 3));
        encoder.extend(&[true; 13]);
        // Three 0xff bytes: a run, pending.
        assert_eq!(encoder.position(), (0, 3, 0));
    }
}
