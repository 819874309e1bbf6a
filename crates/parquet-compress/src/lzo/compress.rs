//! An LZO1X compressor in safe Rust that writes only the instructions every LZO1X
//! decoder reads alike: literal runs and M2, M3 and M4 matches, never an M1 match.
//!
//! ```text
//! stream   := first-run? (match | run)* end
//! first-run:= (17 + n)                         n = 1..=238 literals (then n bytes)
//!           | 0000LLLL [ext]                   n = 3 + L literals (L = 0: 18 + ext)
//! run      := 0000LLLL [ext] bytes             4 or more literals after a match whose
//!                                              SS is 0
//! match    := M2 | M3 | M4, each followed by its SS (0..=3) literals
//! M2       := 01LDDDSS HHHHHHHH | 1LLDDDSS HHHHHHHH
//!                                              3..=8 bytes from distance 1 + D + 8H
//!                                              (at most 2048)
//! M3       := 001LLLLL [ext] DDDDDDDDDDDDDDSS  2 + L bytes from distance 1 + D
//!                                              (at most 16384)
//! M4       := 0001HLLL [ext] DDDDDDDDDDDDDDSS  2 + L bytes from distance
//!                                              16384 + 16384H + D (16385..=49151)
//! end      := 0x11 0x00 0x00
//! ext      := 0x00* nonzero                    255 per zero byte plus the last byte
//! ```
//!
//! Why no M1: the instructions 0..=15 that follow a literal run mean a 2-byte match
//! (after 1..=3 literals) or a 3-byte match at distance 2049..=3072 (after 4 or more) in
//! liblzo2, but aircompressor's decoder, which Apache ORC (Java and C++, hence pyarrow
//! and pyorc) uses, reads them the other way round. Writing none, as aircompressor's
//! own compressor does, keeps the streams readable by both. For the same reason no M4
//! match is 3 bytes long with `H = 0`: its first byte would be `0x11`, which
//! aircompressor takes for the end marker wherever it appears.
//!
//! The match finder is LZO1X-1's in spirit, with a little more search: a hash table of
//! 4-byte sequences heads chains of earlier positions with the same hash, a few of
//! which are tried at each position, and a match is put off by one byte when the next
//! position has a longer one (lazy matching).

/// The shortest match written: the hash finds 4-byte sequences.
const MIN_MATCH: usize = 4;
/// The longest match an M2 instruction holds.
const M2_MAX_LEN: usize = 8;
/// The farthest match an M2 instruction reaches.
const M2_MAX_DISTANCE: usize = 2048;
/// The farthest match an M3 instruction reaches.
const M3_MAX_DISTANCE: usize = 16384;
/// The farthest match an M4 instruction reaches: the window.
const MAX_DISTANCE: usize = 49151;
/// The longest literal run the first byte of a stream holds.
const FIRST_RUN_MAX: usize = 255 - 17;

/// The most hash bits: a table of 2^15 positions.
const MAX_HASH_BITS: u32 = 15;
/// The fewest hash bits, for small inputs.
const MIN_HASH_BITS: u32 = 10;
/// Entries of the chain ring: a power of two above [`MAX_DISTANCE`].
const CHAIN_LEN: usize = 1 << 16;
/// The most candidates tried at one position.
const MAX_ATTEMPTS: usize = 16;
/// A match this long is taken without looking further.
const GOOD_ENOUGH: usize = 64;

/// The compressor's work memory, kept between calls: the hash table and the chains.
pub(crate) struct Dict {
    /// For each hash, the last position (modulo 2^32) whose 4 bytes have it.
    head: Vec<u32>,
    /// For each position modulo [`CHAIN_LEN`], the distance back to the previous
    /// position with the same hash, or 0 when there is none within [`MAX_DISTANCE`].
    chain: Vec<u16>,
    /// The hash bits of the current call.
    bits: u32,
}

impl Dict {
    /// Empty work memory.
    pub(crate) fn new() -> Self {
        Self {
            head: vec![0; 1 << MAX_HASH_BITS],
            chain: vec![0; CHAIN_LEN],
            bits: MAX_HASH_BITS,
        }
    }

    /// Prepares the table for an input of `len` bytes: the same output for the same
    /// input, whatever came before. Only the part of the table the input uses is
    /// cleared; the chains need no clearing, because every position a search reaches
    /// was entered by this call (see [`Dict::search`]).
    fn reset(&mut self, len: usize) {
        let wanted = usize::BITS - len.leading_zeros();
        self.bits = wanted.clamp(MIN_HASH_BITS, MAX_HASH_BITS);
        if let Some(used) = self.head.get_mut(..1 << self.bits) {
            used.fill(0);
        }
    }

    fn hash(&self, sequence: u32) -> usize {
        (sequence.wrapping_mul(0x9E37_79B1) >> (32 - self.bits)) as usize
    }

    /// Enters `pos` (whose 4 bytes are `sequence`) in the table and its chain; returns
    /// the distance back to the previous position with the same hash (which may be
    /// 0, farther than the window, or before the input: the caller checks).
    fn insert(&mut self, pos: usize, sequence: u32) -> usize {
        let hash = self.hash(sequence);
        // Positions are kept modulo 2^32: a distance within the window is exact, and a
        // wrong one (from an input over 4 GiB) only costs a failed comparison.
        #[allow(clippy::cast_possible_truncation)]
        let pos32 = pos as u32;
        let Some(slot) = self.head.get_mut(hash) else {
            return 0;
        };
        let distance = pos32.wrapping_sub(*slot) as usize;
        *slot = pos32;
        let link = if distance <= MAX_DISTANCE {
            // Fits: MAX_DISTANCE < 2^16.
            #[allow(clippy::cast_possible_truncation)]
            let link = distance as u16;
            link
        } else {
            0
        };
        if let Some(entry) = self.chain.get_mut(pos % CHAIN_LEN) {
            *entry = link;
        }
        distance
    }

    /// Enters `pos` and returns the longest match for it, as `(length, distance)`, or
    /// a length below [`MIN_MATCH`] when there is none. `pos + 4 <= input.len()`.
    ///
    /// Every candidate is compared with the input, so a stale or colliding entry costs
    /// time, never a wrong match. The chain is followed only from positions within the
    /// window, which this call entered (the table was cleared, and position 0 is
    /// entered first), so the links read were written by this call and the output does
    /// not depend on earlier inputs.
    fn search(&mut self, input: &[u8], pos: usize) -> (usize, usize) {
        let sequence = load32(input, pos);
        let mut distance = self.insert(pos, sequence);
        let mut best = (0, 0);
        for _ in 0..MAX_ATTEMPTS {
            if distance == 0 || distance > MAX_DISTANCE || distance > pos {
                break;
            }
            let candidate = pos - distance;
            // Candidates come nearest first, so only a longer match can be better: one
            // that differs at the byte past the best so far is passed over.
            if load32(input, candidate) == sequence
                && (best.0 == 0 || input.get(candidate + best.0) == input.get(pos + best.0))
            {
                let len = MIN_MATCH + common_len(input, candidate + MIN_MATCH, pos + MIN_MATCH);
                if len > best.0 {
                    best = (len, distance);
                    if len >= GOOD_ENOUGH {
                        break;
                    }
                }
            }
            let link = self
                .chain
                .get(candidate % CHAIN_LEN)
                .map_or(0, |&link| usize::from(link));
            if link == 0 {
                break;
            }
            distance += link;
        }
        best
    }
}

/// The 4 bytes at `pos`, little-endian (0 past the end, which callers never ask for).
fn load32(input: &[u8], pos: usize) -> u32 {
    match input.get(pos..pos + 4) {
        Some(&[b0, b1, b2, b3]) => u32::from_le_bytes([b0, b1, b2, b3]),
        _ => 0,
    }
}

/// How many bytes from `earlier` equal those from `later` (`earlier < later`), up to
/// the end of the input.
fn common_len(input: &[u8], earlier: usize, later: usize) -> usize {
    let (Some(a), Some(b)) = (input.get(earlier..), input.get(later..)) else {
        return 0;
    };
    let mut len = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let (Ok(x), Ok(y)) = (<[u8; 8]>::try_from(x), <[u8; 8]>::try_from(y)) else {
            break;
        };
        let diff = u64::from_le_bytes(x) ^ u64::from_le_bytes(y);
        if diff != 0 {
            return len + (diff.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    let (Some(a), Some(b)) = (a.get(len..), b.get(len..)) else {
        return len;
    };
    len + a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Writes the instructions of a stream.
struct Writer<'a> {
    out: &'a mut Vec<u8>,
    /// Whether nothing has been written yet: the first literal run has its own form.
    first: bool,
    /// The byte of the last match whose low 2 bits (SS) count the literals after it.
    trailing: usize,
}

impl Writer<'_> {
    /// Appends a length extension for `excess` (at least 1) beyond an instruction's
    /// field: a zero byte per 255, then the rest (1..=255).
    fn extension(&mut self, excess: usize) {
        let zeros = (excess - 1) / 255;
        self.out.resize(self.out.len() + zeros, 0);
        // At most 255: the remainder of `excess - 1` by 255, plus 1.
        #[allow(clippy::cast_possible_truncation)]
        self.out.push((excess - zeros * 255) as u8);
    }

    /// Appends a length field `value` of an instruction whose field holds up to `max`:
    /// in the field when it fits, otherwise 0 there and the extension after.
    #[allow(clippy::cast_possible_truncation)]
    fn length(&mut self, opcode: u8, value: usize, max: usize) {
        if value <= max {
            // `value <= max <= 31`.
            self.out.push(opcode | value as u8);
        } else {
            self.out.push(opcode);
            self.extension(value - max);
        }
    }

    /// Appends a literal run.
    fn literals(&mut self, literals: &[u8]) {
        let len = literals.len();
        if len == 0 {
            return;
        }
        if self.first && len <= FIRST_RUN_MAX {
            // `len + 17 <= 255`.
            #[allow(clippy::cast_possible_truncation)]
            self.out.push(17 + len as u8);
        } else if !self.first && len <= 3 {
            // In the SS bits of the match just written (always after a match: runs
            // are separated by matches, and the first run has its own form).
            #[allow(clippy::cast_possible_truncation)]
            if let Some(byte) = self.out.get_mut(self.trailing) {
                *byte |= len as u8;
            }
        } else {
            // The state-0 run (a stream starts in state 0, and a run of 4 or more
            // follows a match with SS = 0): 0000LLLL for 3 + L literals.
            self.length(0, len - 3, 15);
        }
        self.out.extend_from_slice(literals);
        self.first = false;
    }

    /// Appends a match of `len` bytes (at least [`MIN_MATCH`]) from `distance` back
    /// (1..=[`MAX_DISTANCE`]); the literals after it go in its SS bits or a run.
    #[allow(clippy::cast_possible_truncation)]
    fn copy(&mut self, distance: usize, len: usize) {
        debug_assert!(!self.first && len >= MIN_MATCH && (1..=MAX_DISTANCE).contains(&distance));
        self.trailing = self.out.len();
        if len <= M2_MAX_LEN && distance <= M2_MAX_DISTANCE {
            // 01LDDDSS or 1LLDDDSS (length - 1 in the top 3 bits), then HHHHHHHH.
            let d = distance - 1;
            self.out
                .extend_from_slice(&[(((len - 1) << 5) | ((d & 7) << 2)) as u8, (d >> 3) as u8]);
            return;
        }
        let d = if distance <= M3_MAX_DISTANCE {
            self.length(0x20, len - 2, 31);
            distance - 1
        } else {
            // H is bit 14 of `distance - 16384`; `len >= 4` keeps the byte off 0x11.
            let far = distance - M3_MAX_DISTANCE;
            self.length(0x10 | ((far >> 11) & 8) as u8, len - 2, 7);
            far & 0x3FFF
        };
        self.trailing = self.out.len();
        // `d < 2^14`, so `d << 2` fits 16 bits.
        self.out.extend_from_slice(&((d << 2) as u16).to_le_bytes());
    }

    /// Appends the end-of-stream marker.
    fn end(&mut self) {
        self.out.extend_from_slice(&[0x11, 0, 0]);
    }
}

/// Appends the LZO1X stream of `input` to `out`.
pub(crate) fn compress(dict: &mut Dict, input: &[u8], out: &mut Vec<u8>) {
    let mut writer = Writer {
        out,
        first: true,
        trailing: 0,
    };
    // The last position a 4-byte sequence starts at, if any.
    let Some(last) = input.len().checked_sub(MIN_MATCH) else {
        writer.literals(input);
        writer.end();
        return;
    };
    dict.reset(input.len());
    let mut anchor = 0;
    let mut pos = 0;
    // Positions without a match since the last one: past 64, the search steps over
    // more and more bytes, so incompressible data goes fast.
    let mut misses = 0_usize;
    while pos <= last {
        let (mut len, mut distance) = dict.search(input, pos);
        // One past the last position the searches entered in the table.
        let mut entered = pos + 1;
        if len < MIN_MATCH {
            misses += 1;
            pos += 1 + (misses >> 6);
            continue;
        }
        misses = 0;
        // Lazy matching: while the next position has a longer match, take a literal.
        while len < GOOD_ENOUGH && pos < last {
            let (next_len, next_distance) = dict.search(input, pos + 1);
            entered = pos + 2;
            if next_len <= len {
                break;
            }
            pos += 1;
            (len, distance) = (next_len, next_distance);
        }
        // Extend the match backwards over the literals before it.
        while pos > anchor && distance < pos && input.get(pos - 1) == input.get(pos - 1 - distance)
        {
            pos -= 1;
            len += 1;
        }
        writer.literals(input.get(anchor..pos).unwrap_or_default());
        writer.copy(distance, len);
        // Enter the positions the match covers that the searches did not (entering
        // one twice would cut its chain).
        let end = pos + len;
        for covered in entered.max(pos + 1)..end.min(last + 1) {
            dict.insert(covered, load32(input, covered));
        }
        pos = end;
        anchor = end;
    }
    writer.literals(input.get(anchor..).unwrap_or_default());
    writer.end();
}
