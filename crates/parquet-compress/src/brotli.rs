//! BROTLI (RFC 7932). Backend: `brotli` (pure Rust port of Google's library). The
//! decoder rejects the non-standard large-window streams, so its ring buffer never
//! exceeds the format's 16 MiB window, and it sizes that buffer from the data decoded
//! so far rather than from the window alone.

use ::brotli::enc::{BrotliEncoderParams, StandardAlloc};
use ::brotli::{BrotliDecompressStream, BrotliResult, BrotliState};

use crate::output::Sink;
use crate::{Codec, Error, Result};

/// The log2 of the window the encoder uses (Arrow C++ and arrow-rs use 22 as well).
const WINDOW_LOG: i32 = 22;

/// Appends the Brotli stream of `input`, at quality `level` (0..=11), to `out`.
pub(crate) fn compress(level: i32, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let params = BrotliEncoderParams {
        quality: level,
        lgwin: WINDOW_LOG,
        size_hint: input.len(),
        ..BrotliEncoderParams::default()
    };
    let mut reader = input;
    ::brotli::BrotliCompress(&mut reader, out, &params)
        .map_err(|_| Error::corrupt(Codec::Brotli, "the Brotli compressor failed"))?;
    Ok(())
}

/// Decompresses the Brotli stream `input`, which must end where the stream ends, into
/// `out`.
pub(crate) fn decompress<S: Sink + ?Sized>(input: &[u8], out: &mut S) -> Result<usize> {
    let mut state = BrotliState::new_strict(
        StandardAlloc::default(),
        StandardAlloc::default(),
        StandardAlloc::default(),
    );
    let (mut available_in, mut input_offset) = (input.len(), 0);
    let mut written = 0;
    let mut total_out = 0;
    let limit = out.limit();
    loop {
        // The decoder keeps its window itself: each call may write to fresh room.
        let room = out.room(written)?;
        let (mut available_out, mut room_written) = (room.len(), 0);
        let result = BrotliDecompressStream(
            &mut available_in,
            &mut input_offset,
            input,
            &mut available_out,
            &mut room_written,
            room,
            &mut total_out,
            &mut state,
        );
        written += room_written;
        match result {
            BrotliResult::ResultSuccess => return stream_end(input, input_offset, written),
            BrotliResult::NeedsMoreOutput if written < limit => {}
            BrotliResult::NeedsMoreOutput => {
                // The output is full: one probe byte tells whether the stream has more.
                let mut probe = [0u8; 1];
                let (mut probe_available, mut probe_written) = (1, 0);
                let result = BrotliDecompressStream(
                    &mut available_in,
                    &mut input_offset,
                    input,
                    &mut probe_available,
                    &mut probe_written,
                    &mut probe,
                    &mut total_out,
                    &mut state,
                );
                if probe_written != 0 || matches!(result, BrotliResult::NeedsMoreOutput) {
                    return Err(Error::TooLong {
                        codec: Codec::Brotli,
                        limit,
                    });
                }
                if matches!(result, BrotliResult::ResultSuccess) {
                    return stream_end(input, input_offset, written);
                }
                return Err(stream_error(&result));
            }
            other => return Err(stream_error(&other)),
        }
    }
}

/// The stream has ended after `consumed` bytes of `input`, having written `written`: the
/// result, if the input ends there too.
fn stream_end(input: &[u8], consumed: usize, written: usize) -> Result<usize> {
    if consumed == input.len() {
        Ok(written)
    } else {
        Err(Error::corrupt(
            Codec::Brotli,
            "bytes after the end of the Brotli stream",
        ))
    }
}

fn stream_error(result: &BrotliResult) -> Error {
    Error::corrupt(
        Codec::Brotli,
        match result {
            BrotliResult::NeedsMoreInput => "stream ends early",
            _ => "invalid Brotli stream",
        },
    )
}
