//! An LZO1X decoder in safe Rust, bounded by its output slice: the instruction set of
//! `lzo1x_decompress_safe` (liblzo2, and the Linux kernel's port), which every LZO1X
//! compression level (1, 1-11, 1-12, 1-15, 999) produces.
//!
//! ```text
//! first byte 18..=255    copy (byte - 17) literals; the next instruction follows the
//!                        rules for "after 1..3 literals" or "after 4+ literals"
//! 0000LLLL               after a match with no trailing literals: copy 3 + L literals
//!                        (L = 0: 18 + 255 * zero bytes + next byte)
//! 0000DDSS HHHHHHHH      after 1..3 literals: copy 2 bytes from distance 1 + D + 4H
//!                        after 4+ literals: copy 3 bytes from distance 2049 + D + 4H
//! 01LDDDSS HHHHHHHH      copy 3 + L bytes from distance 1 + D + 8H
//! 1LLDDDSS HHHHHHHH      copy 5 + L bytes from distance 1 + D + 8H
//! 001LLLLL [ext] DDDDDDDDDDDDDDSS (le16)
//!                        copy 2 + L bytes (L = 0: 33 + 255 * zero bytes + next byte)
//!                        from distance 1 + D
//! 0001HLLL [ext] DDDDDDDDDDDDDDSS (le16)
//!                        copy 2 + L bytes (L = 0: 9 + 255 * zero bytes + next byte)
//!                        from distance 16384 + 16384H + D; H = 0, D = 0 ends the
//!                        stream (as 0x11 0x00 0x00)
//! ```
//!
//! After every match, `SS` literals (0..=3) follow it directly.

/// Why a stream was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The output would exceed the slice.
    OutputOverrun,
    /// The input ends inside an instruction or before the end-of-stream marker.
    InputOverrun,
    /// A match reaches before the start of the output.
    LookBehind,
    /// The end-of-stream marker has a length other than 3.
    BadEnd,
    /// Bytes follow the end-of-stream marker.
    TrailingBytes,
}

impl Fault {
    pub(crate) const fn describe(self) -> &'static str {
        match self {
            Self::OutputOverrun => "output overrun",
            Self::InputOverrun => "stream ends early",
            Self::LookBehind => "match distance before the start of the output",
            Self::BadEnd => "invalid end-of-stream marker",
            Self::TrailingBytes => "bytes after the end-of-stream marker",
        }
    }
}

struct Decoder<'a, 'b> {
    input: &'a [u8],
    ip: usize,
    out: &'b mut [u8],
    op: usize,
}

impl Decoder<'_, '_> {
    fn byte(&mut self) -> Result<usize, Fault> {
        let byte = *self.input.get(self.ip).ok_or(Fault::InputOverrun)?;
        self.ip += 1;
        Ok(usize::from(byte))
    }

    fn le16(&mut self) -> Result<usize, Fault> {
        match self.input.get(self.ip..self.ip + 2) {
            Some(&[lo, hi]) => {
                self.ip += 2;
                Ok(usize::from(u16::from_le_bytes([lo, hi])))
            }
            _ => Err(Fault::InputOverrun),
        }
    }

    /// The length extension: 255 for each zero byte, then the first nonzero byte.
    fn extension(&mut self) -> Result<usize, Fault> {
        let rest = self.input.get(self.ip..).unwrap_or_default();
        let zeros = rest
            .iter()
            .position(|&b| b != 0)
            .ok_or(Fault::InputOverrun)?;
        self.ip += zeros;
        let last = self.byte()?;
        // Lengths this long cannot fit any output slice: report the overrun.
        zeros
            .checked_mul(255)
            .and_then(|n| n.checked_add(last))
            .ok_or(Fault::OutputOverrun)
    }

    /// A length field of an instruction: its value, or when it is 0, `max` (the most
    /// the field holds) plus the length extension that follows.
    fn length(&mut self, field: usize, max: usize) -> Result<usize, Fault> {
        if field == 0 {
            Ok(max.saturating_add(self.extension()?))
        } else {
            Ok(field)
        }
    }

    fn literals(&mut self, len: usize) -> Result<(), Fault> {
        let src = self
            .input
            .get(self.ip..)
            .and_then(|rest| rest.get(..len))
            .ok_or(Fault::InputOverrun)?;
        let dst = self
            .out
            .get_mut(self.op..)
            .and_then(|rest| rest.get_mut(..len))
            .ok_or(Fault::OutputOverrun)?;
        dst.copy_from_slice(src);
        self.ip += len;
        self.op += len;
        Ok(())
    }

    fn copy_match(&mut self, distance: usize, len: usize) -> Result<(), Fault> {
        if distance > self.op {
            return Err(Fault::LookBehind);
        }
        if len > self.out.len() - self.op {
            return Err(Fault::OutputOverrun);
        }
        let (from, to) = (self.op - distance, self.op);
        if distance >= len {
            self.out.copy_within(from..from + len, to);
        } else if distance == 1 {
            // `from = op - 1 < op <= out.len()` and `to + len <= out.len()`, checked above.
            #[allow(clippy::indexing_slicing)]
            {
                let byte = self.out[from];
                self.out[to..to + len].fill(byte);
            }
        } else {
            // The copy repeats the `distance` bytes before it: copy them once, then
            // double what has been copied until `len` is reached.
            self.out.copy_within(from..to, to);
            let mut done = distance;
            while done < len {
                let n = done.min(len - done);
                self.out.copy_within(to..to + n, to + done);
                done += n;
            }
        }
        self.op += len;
        Ok(())
    }
}

/// Decompresses the LZO1X stream `input`, which must end with the end-of-stream marker
/// and nothing after it, into `out`; returns the bytes written.
pub(crate) fn decompress(input: &[u8], out: &mut [u8]) -> Result<usize, Fault> {
    let mut d = Decoder {
        input,
        ip: 0,
        out,
        op: 0,
    };
    // The number of literals the last instruction copied, 4 standing for 4 or more:
    // it selects the meaning of instructions 0..=15.
    let mut state;
    let first = d.byte()?;
    if first > 17 {
        let len = first - 17;
        d.literals(len)?;
        state = len.min(4);
    } else {
        d.ip = 0;
        state = 0;
    }
    loop {
        let inst = d.byte()?;
        let (distance, len, trailing);
        if inst >= 64 {
            let high = d.byte()?;
            distance = 1 + ((inst >> 2) & 7) + (high << 3);
            len = (inst >> 5) + 1;
            trailing = inst & 3;
        } else if inst >= 32 {
            len = d.length(inst & 31, 31)?.saturating_add(2);
            let word = d.le16()?;
            distance = 1 + (word >> 2);
            trailing = word & 3;
        } else if inst >= 16 {
            len = d.length(inst & 7, 7)?.saturating_add(2);
            let word = d.le16()?;
            let far = ((inst & 8) << 11) + (word >> 2);
            if far == 0 {
                if len != 3 {
                    return Err(Fault::BadEnd);
                }
                if d.ip != d.input.len() {
                    return Err(Fault::TrailingBytes);
                }
                return Ok(d.op);
            }
            distance = 16384 + far;
            trailing = word & 3;
        } else if state == 0 {
            let run = d.length(inst, 15)?;
            d.literals(run.saturating_add(3))?;
            state = 4;
            continue;
        } else {
            let high = d.byte()?;
            trailing = inst & 3;
            if state < 4 {
                distance = 1 + (inst >> 2) + (high << 2);
                len = 2;
            } else {
                distance = 2049 + (inst >> 2) + (high << 2);
                len = 3;
            }
        }
        d.copy_match(distance, len)?;
        d.literals(trailing)?;
        state = trailing;
    }
}
