//! The value vocabulary: Parquet's physical types and the Rust types that hold them.

use core::fmt;

/// The eight physical types of Parquet, numbered as in `parquet.thrift`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PhysicalType {
    /// One bit per value.
    Boolean = 0,
    /// 32-bit signed integer.
    Int32 = 1,
    /// 64-bit signed integer.
    Int64 = 2,
    /// 96-bit value, deprecated, once used for timestamps.
    Int96 = 3,
    /// IEEE 754 single precision.
    Float = 4,
    /// IEEE 754 double precision.
    Double = 5,
    /// Bytes of any length.
    ByteArray = 6,
    /// Bytes of a length fixed by the schema.
    FixedLenByteArray = 7,
}

impl PhysicalType {
    /// Bytes per value in PLAIN encoding, for the types of fixed width except BOOLEAN
    /// (which is bit-packed) and FIXED_LEN_BYTE_ARRAY (whose width is in the schema).
    pub const fn byte_width(self) -> Option<usize> {
        match self {
            Self::Int32 | Self::Float => Some(4),
            Self::Int64 | Self::Double => Some(8),
            Self::Int96 => Some(12),
            Self::Boolean | Self::ByteArray | Self::FixedLenByteArray => None,
        }
    }
}

impl fmt::Display for PhysicalType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Boolean => "BOOLEAN",
            Self::Int32 => "INT32",
            Self::Int64 => "INT64",
            Self::Int96 => "INT96",
            Self::Float => "FLOAT",
            Self::Double => "DOUBLE",
            Self::ByteArray => "BYTE_ARRAY",
            Self::FixedLenByteArray => "FIXED_LEN_BYTE_ARRAY",
        })
    }
}

mod sealed {
    pub trait Sealed {}
}

/// The physical-type trait: a Rust type that holds values of one fixed-width Parquet
/// physical type (INT32, INT64, INT96, FLOAT, DOUBLE) as `SIZE` little-endian bytes.
///
/// The bulk conversions compile to a `memcpy` on little-endian targets.
pub trait FixedWidth:
    Copy + Default + PartialEq + fmt::Debug + Send + Sync + 'static + sealed::Sealed
{
    /// The physical type.
    const PHYSICAL_TYPE: PhysicalType;
    /// Bytes per value.
    const SIZE: usize;
    /// The little-endian bytes of one value.
    type Bytes: AsRef<[u8]> + AsMut<[u8]> + Default + Copy;

    /// The value whose little-endian bytes are `bytes`.
    fn from_le_bytes(bytes: Self::Bytes) -> Self;
    /// The little-endian bytes of the value.
    fn to_le_bytes(self) -> Self::Bytes;
    /// Fills `out` from `bytes`, which holds exactly `out.len() * SIZE` bytes
    /// (extra bytes are ignored, missing ones leave values untouched).
    fn slice_from_le_bytes(bytes: &[u8], out: &mut [Self]);
    /// Appends the little-endian bytes of `values` to `out`.
    fn extend_le_bytes(values: &[Self], out: &mut Vec<u8>);
}

/// Appends the little-endian bytes of `values`: on little-endian targets, for plain old
/// data, one copy of the values' memory; otherwise through an L1-sized block on the stack,
/// so that the output is written once (growing it with zeros first would write it twice).
macro_rules! extend_le_bytes {
    ($values:expr, $out:expr, $size:literal, pod) => {{
        #[cfg(target_endian = "little")]
        $out.extend_from_slice(bytemuck::cast_slice($values));
        #[cfg(not(target_endian = "little"))]
        extend_le_bytes!($values, $out, $size, bytes);
    }};
    ($values:expr, $out:expr, $size:literal, bytes) => {{
        const BLOCK: usize = 256;
        let (values, out) = ($values, $out);
        out.reserve(values.len() * $size);
        let mut block = [[0u8; $size]; BLOCK];
        for chunk in values.chunks(BLOCK) {
            for (bytes, value) in block.iter_mut().zip(chunk) {
                *bytes = value.to_le_bytes();
            }
            out.extend_from_slice(block[..chunk.len()].as_flattened());
        }
    }};
}

macro_rules! fixed_width {
    ($($ty:ty => $physical:ident, $size:literal, $pod:ident;)*) => {$(
        impl sealed::Sealed for $ty {}
        impl FixedWidth for $ty {
            const PHYSICAL_TYPE: PhysicalType = PhysicalType::$physical;
            const SIZE: usize = $size;
            type Bytes = [u8; $size];

            #[inline]
            fn from_le_bytes(bytes: Self::Bytes) -> Self {
                <$ty>::from_le_bytes(bytes)
            }
            #[inline]
            fn to_le_bytes(self) -> Self::Bytes {
                <$ty>::to_le_bytes(self)
            }
            #[inline]
            fn slice_from_le_bytes(bytes: &[u8], out: &mut [Self]) {
                for (value, chunk) in out.iter_mut().zip(bytes.chunks_exact($size)) {
                    let mut array = [0; $size];
                    array.copy_from_slice(chunk);
                    *value = <$ty>::from_le_bytes(array);
                }
            }
            #[inline]
            fn extend_le_bytes(values: &[Self], out: &mut Vec<u8>) {
                extend_le_bytes!(values, out, $size, $pod);
            }
        }
    )*};
}

fixed_width! {
    i32 => Int32, 4, pod;
    i64 => Int64, 8, pod;
    f32 => Float, 4, pod;
    f64 => Double, 8, pod;
    Int96 => Int96, 12, bytes;
}

/// A 96-bit INT96 value, kept as its 12 little-endian bytes.
///
/// Writers that still use it (Impala, Hive, Spark's legacy mode) store timestamps as
/// the nanoseconds of the day in the first 8 bytes and the Julian day number in the
/// last 4.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Int96([u8; 12]);

/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN_DAY: i64 = 2_440_588;
const NANOS_PER_DAY: i128 = 86_400_000_000_000;

impl Int96 {
    /// The value with these little-endian bytes.
    pub const fn from_le_bytes(bytes: [u8; 12]) -> Self {
        Self(bytes)
    }

    /// The little-endian bytes.
    pub const fn to_le_bytes(self) -> [u8; 12] {
        self.0
    }

    /// A timestamp from the nanoseconds of its day and its Julian day number.
    pub fn from_timestamp_parts(nanos_of_day: i64, julian_day: i32) -> Self {
        let mut bytes = [0; 12];
        bytes[..8].copy_from_slice(&nanos_of_day.to_le_bytes());
        bytes[8..].copy_from_slice(&julian_day.to_le_bytes());
        Self(bytes)
    }

    /// The first 8 bytes as an `i64`: nanoseconds of the day, for a timestamp.
    pub fn nanos_of_day(self) -> i64 {
        let mut nanos = [0; 8];
        nanos.copy_from_slice(&self.0[..8]);
        i64::from_le_bytes(nanos)
    }

    /// The last 4 bytes as an `i32`: the Julian day number, for a timestamp.
    pub fn julian_day(self) -> i32 {
        let mut day = [0; 4];
        day.copy_from_slice(&self.0[8..]);
        i32::from_le_bytes(day)
    }

    /// Nanoseconds since 1970-01-01T00:00:00, exact for every bit pattern.
    pub fn to_unix_nanos(self) -> i128 {
        (i128::from(self.julian_day()) - i128::from(UNIX_EPOCH_JULIAN_DAY)) * NANOS_PER_DAY
            + i128::from(self.nanos_of_day())
    }

    /// The timestamp `nanos` after 1970-01-01T00:00:00 (nanoseconds of the day in
    /// `0..86_400 s`, as writers store it).
    pub fn from_unix_nanos(nanos: i64) -> Self {
        let nanos = i128::from(nanos);
        let days = nanos.div_euclid(NANOS_PER_DAY);
        let nanos_of_day = nanos.rem_euclid(NANOS_PER_DAY);
        // |days| <= 2^63 / 86_400e9 + 1 and nanos_of_day < 86_400e9: both fit.
        #[allow(clippy::cast_possible_truncation)]
        Self::from_timestamp_parts(
            nanos_of_day as i64,
            (days + i128::from(UNIX_EPOCH_JULIAN_DAY)) as i32,
        )
    }
}

impl fmt::Debug for Int96 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Int96")
            .field("nanos_of_day", &self.nanos_of_day())
            .field("julian_day", &self.julian_day())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn int96_timestamp_parts() {
        // 2009-02-13T23:31:30.123456789 is 1_234_567_890_123_456_789 ns after the epoch.
        let value = Int96::from_unix_nanos(1_234_567_890_123_456_789);
        assert_eq!(value.julian_day(), 2_454_876);
        assert_eq!(
            value.nanos_of_day(),
            (23 * 3600 + 31 * 60 + 30) * 1_000_000_000 + 123_456_789
        );
        assert_eq!(value.to_unix_nanos(), 1_234_567_890_123_456_789);
        assert_eq!(Int96::from_unix_nanos(-1).to_unix_nanos(), -1);
        assert_eq!(Int96::from_unix_nanos(-1).julian_day(), 2_440_587);
    }

    #[test]
    fn bulk_conversions() {
        let values = [1.5_f64, -0.0, f64::INFINITY];
        let mut bytes = Vec::new();
        f64::extend_le_bytes(&values, &mut bytes);
        assert_eq!(&bytes[..8], &1.5_f64.to_le_bytes());
        let mut back = [0.0; 3];
        f64::slice_from_le_bytes(&bytes, &mut back);
        assert_eq!(back.map(f64::to_bits), values.map(f64::to_bits));
        assert_eq!(PhysicalType::Int96.byte_width(), Some(Int96::SIZE));
        assert_eq!(
            PhysicalType::FixedLenByteArray.to_string(),
            "FIXED_LEN_BYTE_ARRAY"
        );
    }

    proptest! {
        #[test]
        fn int96_round_trip(nanos: i64, bytes: [u8; 12]) {
            prop_assert_eq!(i128::from(nanos), Int96::from_unix_nanos(nanos).to_unix_nanos());
            let value = Int96::from_le_bytes(bytes);
            prop_assert_eq!(Int96::from_timestamp_parts(value.nanos_of_day(), value.julian_day()), value);
        }
    }
}
