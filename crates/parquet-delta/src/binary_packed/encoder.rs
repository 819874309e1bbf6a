//! The DELTA_BINARY_PACKED encoder.

use super::sealed::Word;
use super::{Integer, Params};
use parquet_core::varint;

/// Appends the DELTA_BINARY_PACKED encoding of `values` to `out`, in blocks of the shape
/// `params` gives.
///
/// Allocates one block of deltas (`params.block_size()` values) besides `out`.
pub fn encode<T: Integer>(values: &[T], params: Params, out: &mut Vec<u8>) {
    let first = values
        .first()
        .map_or(T::Bits::ZERO, |value| value.to_bits());
    write_header(params, values.len(), first, out);
    let mut deltas = Vec::with_capacity(params.block_size);
    let mut last = first;
    for block in values
        .get(1..)
        .unwrap_or_default()
        .chunks(params.block_size)
    {
        deltas.clear();
        deltas.extend(block.iter().map(|value| {
            let bits = value.to_bits();
            let delta = bits.sub(last);
            last = bits;
            delta
        }));
        write_block(&mut deltas, params, out);
    }
}

/// Encodes values as they come, one block at a time.
///
/// ```
/// use parquet_delta::binary_packed::{Decoder, Encoder, Params};
///
/// let mut encoder = Encoder::new(Params::default());
/// for value in [3i32, -1, i32::MAX, i32::MIN] {
///     encoder.push(value);
/// }
/// let mut encoded = Vec::new();
/// encoder.finish(&mut encoded);
///
/// let mut out = [0; 4];
/// Decoder::try_new(&encoded)?.decode(&mut out)?;
/// assert_eq!(out, [3, -1, i32::MAX, i32::MIN]);
/// # Ok::<(), parquet_delta::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Encoder<T: Integer> {
    params: Params,
    len: usize,
    first: T::Bits,
    last: T::Bits,
    /// Deltas of the block being filled.
    deltas: Vec<T::Bits>,
    /// The blocks written so far (the header comes last, when the count is known).
    blocks: Vec<u8>,
}

impl<T: Integer> Default for Encoder<T> {
    fn default() -> Self {
        Self::new(Params::default())
    }
}

impl<T: Integer> Encoder<T> {
    /// An encoder writing blocks of the shape `params` gives.
    pub fn new(params: Params) -> Self {
        Self {
            params,
            len: 0,
            first: T::Bits::ZERO,
            last: T::Bits::ZERO,
            deltas: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// The block shape.
    pub const fn params(&self) -> Params {
        self.params
    }

    /// Values pushed since the last [`Encoder::finish`].
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether no value was pushed since the last [`Encoder::finish`].
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a value.
    #[inline]
    pub fn push(&mut self, value: T) {
        let bits = value.to_bits();
        if self.len == 0 {
            self.first = bits;
        } else {
            self.deltas.push(bits.sub(self.last));
            if self.deltas.len() == self.params.block_size {
                write_block(&mut self.deltas, self.params, &mut self.blocks);
                self.deltas.clear();
            }
        }
        self.last = bits;
        self.len += 1;
    }

    /// Adds values.
    pub fn extend(&mut self, values: &[T]) {
        for &value in values {
            self.push(value);
        }
    }

    /// Appends the encoding of every value pushed to `out`, and empties the encoder for
    /// another run (keeping its allocations).
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        write_header(self.params, self.len, self.first, out);
        out.extend_from_slice(&self.blocks);
        if !self.deltas.is_empty() {
            write_block(&mut self.deltas, self.params, out);
        }
        self.blocks.clear();
        self.deltas.clear();
        self.len = 0;
    }
}

fn write_header<B: Word>(params: Params, len: usize, first: B, out: &mut Vec<u8>) {
    varint::encode_u64(params.block_size as u64, out);
    varint::encode_u64(params.miniblocks as u64, out);
    varint::encode_u64(len as u64, out);
    varint::encode_u64(first.zigzag(), out);
}

/// Appends one block holding `deltas` (1 to `block_size` of them); clobbers `deltas`.
fn write_block<B: Word>(deltas: &mut Vec<B>, params: Params, out: &mut Vec<u8>) {
    // Every caller hands over a non-empty block: a chunk of the values, a full block, or
    // the non-empty rest.
    #[allow(clippy::indexing_slicing)]
    let min_delta =
        deltas.iter().copied().fold(
            deltas[0],
            |min, delta| if delta.signed_lt(min) { delta } else { min },
        );
    varint::encode_u64(min_delta.zigzag(), out);
    for delta in deltas.iter_mut() {
        *delta = delta.sub(min_delta);
    }
    // Pad the last miniblock that holds values with zeros; the miniblocks after it are
    // left out (bit width 0, no body).
    let miniblock_len = params.miniblock_len();
    deltas.resize(deltas.len().next_multiple_of(miniblock_len), B::ZERO);

    let widths_at = out.len();
    out.resize(widths_at + params.miniblocks, 0);
    for (index, miniblock) in deltas.chunks_exact(miniblock_len).enumerate() {
        let width = miniblock
            .iter()
            .fold(B::ZERO, |acc, &d| acc.or(d))
            .bit_width();
        // `deltas` holds at most `block_size = miniblocks * miniblock_len` values, so
        // `index < miniblocks`: the width goes into the bytes reserved for them above.
        #[allow(clippy::indexing_slicing)]
        {
            out[widths_at + index] = width;
        }
        parquet_bitpack::pack(width, miniblock, out);
    }
}
