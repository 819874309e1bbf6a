//! PLAIN for the physical types whose values have a fixed size: BOOLEAN, INT32, INT64,
//! INT96, FLOAT and DOUBLE.

use core::fmt;
use core::marker::PhantomData;

use parquet_core::{Error, Int96, PhysicalType, Result};

pub(crate) mod sealed {
    /// Seals [`super::PlainType`] and carries its decoding kernel.
    #[allow(unreachable_pub)]
    pub trait Sealed: Sized {
        /// What an error about these values names, e.g. `"PLAIN INT32 values"`.
        const WHAT: &'static str;

        /// Decodes values `first..first + out.len()` of a PLAIN run held in `input`.
        ///
        /// The caller guarantees that `input` holds at least that many values:
        /// `input.len() >= encoded_len(first + out.len())`.
        fn decode_at(input: &[u8], first: usize, out: &mut [Self]);

        /// Appends values `first..first + count` of a PLAIN run held in `input` to `out`,
        /// under the same guarantee as [`decode_at`](Self::decode_at).
        #[inline]
        fn extend_at(input: &[u8], first: usize, count: usize, out: &mut Vec<Self>)
        where
            Self: Default + Clone,
        {
            let start = out.len();
            out.resize(start + count, Self::default());
            Self::decode_at(input, first, out.get_mut(start..).unwrap_or_default());
        }
    }
}

/// A Rust type that holds the values of one fixed-size Parquet physical type, and how
/// PLAIN stores them: `bool` (BOOLEAN), `i32` (INT32), `i64` (INT64),
/// [`Int96`] (INT96), `f32` (FLOAT) and `f64` (DOUBLE).
///
/// Sealed: the set of physical types is closed.
///
/// ```
/// use parquet_plain::{Decoder, PlainType};
///
/// // A dictionary page of any fixed-size type, read with one generic function.
/// fn read_dictionary<T: PlainType>(page: &[u8], num_values: usize) -> parquet_plain::Result<Vec<T>> {
///     let mut decoder = Decoder::<T>::try_new(page, num_values)?;
///     // `try_new` checked that `page` holds `num_values` values: this allocation is
///     // bounded by the page's size.
///     let mut values = vec![T::default(); num_values];
///     decoder.decode(&mut values)?;
///     Ok(values)
/// }
///
/// let mut page = Vec::new();
/// parquet_plain::encode(&[true, false, true], &mut page);
/// assert_eq!(page, [0b101]);
/// assert_eq!(read_dictionary::<bool>(&page, 3)?, [true, false, true]);
/// assert!(read_dictionary::<i64>(&page, 3).is_err());
/// # Ok::<(), parquet_plain::Error>(())
/// ```
pub trait PlainType:
    Copy + Default + PartialEq + fmt::Debug + Send + Sync + 'static + sealed::Sealed
{
    /// The physical type.
    const PHYSICAL_TYPE: PhysicalType;

    /// Bytes that `count` values take in PLAIN (saturating at `usize::MAX`).
    fn encoded_len(count: usize) -> usize;

    /// Appends the PLAIN encoding of `values` to `out`: exactly
    /// [`encoded_len(values.len())`](PlainType::encoded_len) bytes.
    fn encode(values: &[Self], out: &mut Vec<u8>);
}

/// Appends the PLAIN encoding of `values` to `out`; the same as [`PlainType::encode`].
///
/// BOOLEAN values are bit-packed, least significant bit first, the last byte padded with
/// zero bits; the other types are their little-endian bytes.
#[inline]
pub fn encode<T: PlainType>(values: &[T], out: &mut Vec<u8>) {
    T::encode(values, out);
}

macro_rules! fixed_size {
    ($($ty:ty => $physical:ident, $size:literal, $what:literal;)*) => {$(
        impl sealed::Sealed for $ty {
            const WHAT: &'static str = $what;

            #[inline]
            fn decode_at(input: &[u8], first: usize, out: &mut [Self]) {
                let bytes = input.get(first * $size..).unwrap_or_default();
                let (chunks, _) = bytes.as_chunks::<$size>();
                // A zip of two slices of known element size: on little-endian targets,
                // the compiler turns it into a `memcpy`.
                for (value, chunk) in out.iter_mut().zip(chunks) {
                    *value = <$ty>::from_le_bytes(*chunk);
                }
            }

            #[inline]
            fn extend_at(input: &[u8], first: usize, count: usize, out: &mut Vec<Self>) {
                let bytes = input.get(first * $size..).unwrap_or_default();
                let (chunks, _) = bytes.as_chunks::<$size>();
                // Written once: not grown with zeros first.
                out.extend(chunks.iter().take(count).map(|c| <$ty>::from_le_bytes(*c)));
            }
        }

        impl PlainType for $ty {
            const PHYSICAL_TYPE: PhysicalType = PhysicalType::$physical;

            #[inline]
            fn encoded_len(count: usize) -> usize {
                count.saturating_mul($size)
            }

            #[inline]
            fn encode(values: &[Self], out: &mut Vec<u8>) {
                <$ty as parquet_core::FixedWidth>::extend_le_bytes(values, out);
            }
        }
    )*};
}

fixed_size! {
    i32 => Int32, 4, "PLAIN INT32 values";
    i64 => Int64, 8, "PLAIN INT64 values";
    Int96 => Int96, 12, "PLAIN INT96 values";
    f32 => Float, 4, "PLAIN FLOAT values";
    f64 => Double, 8, "PLAIN DOUBLE values";
}

/// Decodes a PLAIN run of a known number of BOOLEAN, INT32, INT64, INT96, FLOAT or
/// DOUBLE values, in batches.
///
/// The input is validated once, in [`Decoder::try_new`]; after that, decoding cannot
/// fail.
#[derive(Clone)]
pub struct Decoder<'a, T: PlainType> {
    /// The run's bytes, exactly `T::encoded_len(len)` of them.
    input: &'a [u8],
    /// Values decoded or skipped so far.
    next: usize,
    /// Values in the run.
    len: usize,
    _values: PhantomData<fn() -> T>,
}

impl<T: PlainType> fmt::Debug for Decoder<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decoder")
            .field("physical_type", &T::PHYSICAL_TYPE)
            .field("encoded_len", &self.input.len())
            .field("next", &self.next)
            .field("len", &self.len)
            .finish()
    }
}

impl<'a, T: PlainType> Decoder<'a, T> {
    /// A decoder of `num_values` values from the start of `input`; bytes after them are
    /// ignored (see [`Decoder::encoded_len`]).
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when `input` is shorter than `num_values` values.
    pub fn try_new(input: &'a [u8], num_values: usize) -> Result<Self> {
        let needed = T::encoded_len(num_values);
        match input.get(..needed) {
            Some(input) => Ok(Self {
                input,
                next: 0,
                len: num_values,
                _values: PhantomData,
            }),
            None => Err(Error::truncated(T::WHAT, 0, needed, input.len())),
        }
    }

    /// Decodes up to `out.len()` values into the start of `out` and returns how many it
    /// wrote: `out.len()`, or fewer at the end of the run.
    ///
    /// # Errors
    ///
    /// None: the input was validated by [`Decoder::try_new`]. The `Result` keeps the
    /// signature of every decoder in the workspace.
    #[inline]
    pub fn decode(&mut self, out: &mut [T]) -> Result<usize> {
        let count = out.len().min(self.remaining());
        #[allow(clippy::indexing_slicing)] // `count <= out.len()`, the `min` above
        T::decode_at(self.input, self.next, &mut out[..count]);
        self.next += count;
        Ok(count)
    }

    /// Appends up to `max` values to `out` and returns how many it appended: as
    /// [`decode`](Self::decode), but writing each value once where `decode` into a
    /// slice grown for it writes it twice.
    ///
    /// # Errors
    ///
    /// None, as for [`Decoder::decode`].
    #[inline]
    pub fn decode_extend(&mut self, out: &mut Vec<T>, max: usize) -> Result<usize> {
        let count = max.min(self.remaining());
        T::extend_at(self.input, self.next, count, out);
        self.next += count;
        Ok(count)
    }

    /// Skips up to `n` values and returns how many it skipped.
    ///
    /// # Errors
    ///
    /// None, as for [`Decoder::decode`].
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let count = n.min(self.remaining());
        self.next += count;
        Ok(count)
    }

    /// Values not yet decoded or skipped.
    #[inline]
    pub const fn remaining(&self) -> usize {
        self.len - self.next
    }

    /// Bytes the whole run takes: where the data after it starts in the input.
    pub const fn encoded_len(&self) -> usize {
        self.input.len()
    }
}
