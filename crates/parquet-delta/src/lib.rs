//! The delta encodings of Parquet (parquet-encodings.txt):
//!
//! - [`binary_packed`]: DELTA_BINARY_PACKED (encoding 5), for INT32 and INT64: "a header
//!   followed by blocks of delta encoded values binary packed";
//!   ```text
//!   header := <block size in values> <number of miniblocks in a block>
//!             <total value count> <first value>
//!   block  := <min delta> <list of bitwidths of miniblocks> <miniblocks>
//!   ```
//! - [`length_byte_array`]: DELTA_LENGTH_BYTE_ARRAY (encoding 6), for BYTE_ARRAY:
//!   `<Delta Encoded Lengths> <Byte Array Data>`;
//! - [`byte_array`]: DELTA_BYTE_ARRAY (encoding 7, "Delta Strings"), for BYTE_ARRAY and
//!   FIXED_LEN_BYTE_ARRAY: delta-encoded prefix lengths, then the suffixes as
//!   DELTA_LENGTH_BYTE_ARRAY.
//!
//! Each module quotes the grammar it implements in full.
//!
//! ```
//! use parquet_core::ByteArrayBatch;
//! use parquet_delta::binary_packed::{self, Params};
//! use parquet_delta::byte_array;
//!
//! // Integers.
//! let values: Vec<i32> = vec![7, 5, 3, 1, 2, 3, 4, 5];
//! let mut encoded = Vec::new();
//! binary_packed::encode(&values, Params::default(), &mut encoded);
//! let mut decoder = binary_packed::Decoder::<i32>::try_new(&encoded)?;
//! let mut out = vec![0; decoder.remaining()];
//! decoder.decode(&mut out)?;
//! assert_eq!(out, values);
//!
//! // Strings, front-compressed.
//! let words: ByteArrayBatch = ["axis", "axle", "babble", "babyhood"].into_iter().collect();
//! let mut encoded = Vec::new();
//! byte_array::encode_batch(&words, Params::default(), &mut encoded)?;
//! let mut decoder = byte_array::Decoder::try_new(&encoded)?;
//! let mut out = ByteArrayBatch::new();
//! while decoder.remaining() > 0 {
//!     decoder.decode(&mut out, 1024)?;
//! }
//! assert_eq!(out, words);
//! # Ok::<(), parquet_delta::Error>(())
//! ```
//!
//! # Errors, panics and allocation
//!
//! Decoders take a borrowed `&[u8]`, check headers in `try_new`, and return [`Error`] (the
//! error type shared by the parquet-kit codec crates) for any input they cannot decode,
//! with offsets relative to the start of that input. No input makes a decoder panic, loop
//! without end, or allocate from a count it read: the total value counts in headers are
//! not trusted, and the work of `try_new`, and of `skip` whatever it is asked to skip, is
//! bounded by the input's length. INT32 values wrap modulo 2^32 (any miniblock bit width
//! up to 64 is read), but byte array lengths and prefix lengths are taken exactly: one
//! outside `0..=i32::MAX` is [`Error::Invalid`], one the data cannot back
//! [`Error::Truncated`]. The integer and DELTA_LENGTH_BYTE_ARRAY decoders allocate
//! nothing (byte arrays are appended to the caller's batch, or borrowed from the input);
//! the DELTA_BYTE_ARRAY decoder keeps the previous value and bounds what each call
//! appends by a byte budget, since front compression lets values expand far beyond the
//! input.
//!
//! Encoders append to a caller's `Vec<u8>`. The byte-array encoders return
//! [`Error::LimitExceeded`] for a value longer than `i32::MAX` bytes, which the format
//! cannot hold, and leave the output as it was.
//!
//! # Speed
//!
//! Whole groups of 32 deltas are unpacked by the kernels of `parquet-bitpack` (chosen at
//! run time for the CPU; deltas of up to 32 bits use the `u32` kernels for either type)
//! and turned into values by one wrapping prefix sum, straight into the caller's buffer.
//! Consecutive miniblocks of a block that share a bit width are unpacked as one; deltas at
//! the type's full width are read as plain words; miniblocks of bit width 0 are filled,
//! and skipped, without unpacking. INT32 miniblocks wider than 32 bits, which only
//! writers that compute deltas in 64 bits make, are unpacked 32 deltas at a time at
//! 64 bits, off the fast path. The byte-array decoders copy runs of values with one
//! copy each (DELTA_BYTE_ARRAY: runs of values that share no prefix). There is no
//! per-value allocation or dynamic dispatch.
//!
//! # Features
//!
//! None. `#![forbid(unsafe_code)]`.
#![forbid(unsafe_code)]
#![warn(clippy::indexing_slicing)]

pub mod binary_packed;
pub mod byte_array;
pub mod length_byte_array;

pub use parquet_core::{Error, Result};
