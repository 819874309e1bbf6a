//! Integer streams of either RLE version, as a column's encoding says (`DIRECT` and
//! `DICTIONARY` are version 1, `DIRECT_V2` and `DICTIONARY_V2` version 2).

use super::{Sign, Version, int_v1, int_v2};
use parquet_core::Result;

/// Decodes an integer stream of either version, held in `B`: a borrowed `&[u8]`, or an
/// owned buffer such as `bytes::Bytes` or `Vec<u8>`.
#[derive(Debug, Clone)]
pub enum Decoder<B> {
    /// RLE version 1.
    V1(int_v1::Decoder<B>),
    /// RLE version 2.
    V2(int_v2::Decoder<B>),
}

impl<B: AsRef<[u8]>> Decoder<B> {
    /// A decoder of the whole (decompressed) stream `input`; a [`Sign::Signed`] stream
    /// zigzags its values, an unsigned one gives `i64`s holding the `u64` bits.
    pub const fn new(input: B, version: Version, sign: Sign) -> Self {
        match version {
            Version::V1 => Self::V1(int_v1::Decoder::new(input, sign)),
            Version::V2 => Self::V2(int_v2::Decoder::new(input, sign)),
        }
    }

    /// Fills `out` from the front and returns how many values it wrote: fewer than
    /// `out.len()` only when the input ends at a run boundary.
    ///
    /// # Errors
    ///
    /// When a run is cut short or malformed.
    #[inline]
    pub fn decode(&mut self, out: &mut [i64]) -> Result<usize> {
        match self {
            Self::V1(decoder) => decoder.decode(out),
            Self::V2(decoder) => decoder.decode(out),
        }
    }

    /// Skips up to `n` values and returns how many it skipped.
    ///
    /// # Errors
    ///
    /// When a run is cut short or malformed.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        match self {
            Self::V1(decoder) => decoder.skip(n),
            Self::V2(decoder) => decoder.skip(n),
        }
    }

    /// Bytes of the input not yet consumed.
    pub fn remaining_input(&self) -> usize {
        match self {
            Self::V1(decoder) => decoder.remaining_input(),
            Self::V2(decoder) => decoder.remaining_input(),
        }
    }

    /// Goes on decoding from `input`, which must begin with the bytes this decoder has
    /// not consumed yet (its [`remaining_input`](Self::remaining_input)), followed by
    /// more of the stream: a stream decompressed a chunk at a time, whose window moved.
    /// The run being decoded carries on into it.
    pub fn set_input(&mut self, input: B) {
        match self {
            Self::V1(decoder) => decoder.set_input(input),
            Self::V2(decoder) => decoder.set_input(input),
        }
    }
}

/// Encodes an integer stream in either version.
#[derive(Debug, Clone)]
pub enum Encoder {
    /// RLE version 1.
    V1(int_v1::Encoder),
    /// RLE version 2.
    V2(int_v2::Encoder),
}

impl Encoder {
    /// An empty encoder; a [`Sign::Signed`] stream zigzags its values.
    pub fn new(version: Version, sign: Sign) -> Self {
        match version {
            Version::V1 => Self::V1(int_v1::Encoder::new(sign)),
            Version::V2 => Self::V2(int_v2::Encoder::new(sign)),
        }
    }

    /// Appends one value (an unsigned stream takes the `u64` bits of the `i64`).
    #[inline]
    pub fn push(&mut self, value: i64) {
        match self {
            Self::V1(encoder) => encoder.push(value),
            Self::V2(encoder) => encoder.push(value),
        }
    }

    /// Appends `values`.
    pub fn extend(&mut self, values: &[i64]) {
        match self {
            Self::V1(encoder) => encoder.extend(values),
            Self::V2(encoder) => encoder.extend(values),
        }
    }

    /// The row-index position: (bytes of output finished so far, values pending).
    pub const fn position(&self) -> (u64, u64) {
        match self {
            Self::V1(encoder) => encoder.position(),
            Self::V2(encoder) => encoder.position(),
        }
    }

    /// Writes the pending values and returns the encoded stream, leaving the encoder
    /// empty for reuse.
    pub fn finish(&mut self) -> Vec<u8> {
        match self {
            Self::V1(encoder) => encoder.finish(),
            Self::V2(encoder) => encoder.finish(),
        }
    }

    /// Encoded bytes so far plus a bound on what the pending values will take.
    pub const fn estimated_size(&self) -> usize {
        match self {
            Self::V1(encoder) => encoder.estimated_size(),
            Self::V2(encoder) => encoder.estimated_size(),
        }
    }

    /// The version this encoder writes.
    pub const fn version(&self) -> Version {
        match self {
            Self::V1(_) => Version::V1,
            Self::V2(_) => Version::V2,
        }
    }
}
