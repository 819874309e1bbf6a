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
            // `chunks(BLOCK)` yields at most `BLOCK` values, the length of `block`.
            #[allow(clippy::indexing_slicing)]
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
/// last 4. [`Int96::to_unix_nanos`] reads such a timestamp exactly;
/// [`Int96::to_spark_nanos`] reads the instant Spark means, in the 64-bit wrapping
/// arithmetic of Spark's reader.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Int96([u8; 12]);

/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN_DAY: i64 = 2_440_588;
const NANOS_PER_DAY: i128 = 86_400_000_000_000;
const MICROS_PER_DAY: i64 = 86_400_000_000;

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

    /// Nanoseconds since 1970-01-01T00:00:00 of the instant Apache Spark reads from this
    /// timestamp, with the digits below the microsecond kept.
    ///
    /// Spark reads INT96 into 64-bit microseconds (`DateTimeUtils.fromJulianDay`):
    ///
    /// ```text
    /// micros = (day - 2440588).toLong * 86_400_000_000 + nanos_of_day / 1000
    /// ```
    ///
    /// with the Julian day a signed 32-bit `Int` (so the subtraction wraps modulo 2^32,
    /// as Java's `Int` does, before the widening), the rest in wrapping 64-bit `Long`
    /// arithmetic, and `/` truncating toward zero. This returns `micros * 1000 +
    /// nanos_of_day % 1000` (the remainder as Java's: with the sign of `nanos_of_day`).
    ///
    /// It equals [`to_unix_nanos`](Self::to_unix_nanos) wherever `micros` does not wrap.
    /// Where it does, it is the instant Spark means: Spark writes an instant of
    /// microseconds `m` as `m + 2440588 * 86_400_000_000` split into day and time of
    /// day, a sum that wraps for instants after about the year 290,000, and its reader's
    /// wrap undoes its writer's. So every instant Spark can hold reads back exactly.
    ///
    /// ```
    /// use parquet_core::Int96;
    ///
    /// // 290000-12-30T23:00:00Z as Spark writes it: a negative Julian day.
    /// let micros = 9_089_380_393_200_000_000_i64;
    /// let julian_us = micros.wrapping_add(2_440_588 * 86_400_000_000);
    /// let day = julian_us.div_euclid(86_400_000_000) as i32;
    /// let nanos_of_day = julian_us.rem_euclid(86_400_000_000) * 1000;
    /// let value = Int96::from_timestamp_parts(nanos_of_day, day);
    /// assert_eq!(value.to_spark_nanos(), i128::from(micros) * 1000);
    /// assert!(value.to_unix_nanos() < 0);
    /// ```
    pub fn to_spark_nanos(self) -> i128 {
        // `UNIX_EPOCH_JULIAN_DAY` fits an `i32`, as Spark's `Int` constant.
        #[allow(clippy::cast_possible_truncation)]
        const EPOCH_DAY: i32 = UNIX_EPOCH_JULIAN_DAY as i32;
        let days = i64::from(self.julian_day().wrapping_sub(EPOCH_DAY));
        let nanos = self.nanos_of_day();
        let micros = days.wrapping_mul(MICROS_PER_DAY).wrapping_add(nanos / 1000);
        i128::from(micros) * 1000 + i128::from(nanos % 1000)
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

    /// What Spark (`DateTimeUtils.toJulianDay`) writes for an instant of `micros`
    /// microseconds since the epoch: the Julian microseconds, in wrapping `Long`
    /// arithmetic, split with `floorDiv` and `floorMod`.
    fn spark_written(micros: i64) -> Int96 {
        let julian_us = micros.wrapping_add(UNIX_EPOCH_JULIAN_DAY * MICROS_PER_DAY);
        let day = i32::try_from(julian_us.div_euclid(MICROS_PER_DAY)).unwrap();
        let nanos_of_day = julian_us.rem_euclid(MICROS_PER_DAY) * 1000;
        Int96::from_timestamp_parts(nanos_of_day, day)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`).
    fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
        let year = if month <= 2 { year - 1 } else { year };
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    #[test]
    fn spark_reads_the_instants_it_writes() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        // 290000-12-31T01:00:00+02:00 is 290000-12-30T23:00:00Z.
        let days = days_from_civil(290_000, 12, 30);
        assert_eq!(days, 105_201_161);
        let micros = (days * 86_400 + 23 * 3600) * 1_000_000;
        assert_eq!(micros, 9_089_380_393_200_000_000);
        // Spark's writer wraps past i64::MAX into a negative Julian day...
        let value = spark_written(micros);
        assert_eq!(value.julian_day(), -105_862_233);
        assert_eq!(value.nanos_of_day(), 53_890_448_384_000);
        // ...which its reader's wrap undoes.
        assert_eq!(value.to_spark_nanos(), i128::from(micros) * 1000);
        assert_ne!(value.to_unix_nanos(), value.to_spark_nanos());
        // Older Spark versions split with `/` and `%`, truncating: a negative time of
        // day, the same instant.
        let truncated = Int96::from_timestamp_parts(-32_509_551_616_000, -105_862_232);
        assert_eq!(truncated.to_spark_nanos(), i128::from(micros) * 1000);
        // The extremes of what Spark holds.
        for micros in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX] {
            assert_eq!(
                spark_written(micros).to_spark_nanos(),
                i128::from(micros) * 1000,
                "{micros}"
            );
        }
    }

    #[test]
    fn spark_wraps_as_java_does() {
        // Julian day 200,000,000: (day - 2440588) * 86_400_000_000 is past i64::MAX, and
        // Spark reads the wrapped value; the digits below the microsecond stay.
        let value = Int96::from_timestamp_parts(123_456_789, 200_000_000);
        assert_eq!(value.to_unix_nanos(), 17_069_133_196_800_123_456_789);
        assert_eq!(value.to_spark_nanos(), -1_377_610_876_909_428_159_211);
        assert_eq!(
            Int96::from_timestamp_parts(0, i32::MAX).to_spark_nanos(),
            864_279_560_504_483_840_000
        );
        // The day difference is an `Int`: below i32::MIN + 2440588 it wraps too.
        assert_eq!(
            Int96::from_timestamp_parts(999, i32::MIN).to_spark_nanos(),
            864_279_646_904_483_840_999
        );
        assert_eq!(
            Int96::from_timestamp_parts(-1, i32::MIN).to_spark_nanos(),
            864_279_646_904_483_839_999
        );
        // Nanoseconds are kept, and `/` and `%` truncate toward zero as Java's do: a
        // negative time of day gives the same instant as the exact reading.
        for (nanos_of_day, day) in [
            (123_456_789, 2_440_588),
            (-1_500, 2_440_588),
            (-999, 2_440_587),
            (86_399_999_999_999, 2_440_587),
            (i64::MAX, 2_440_588),
        ] {
            let value = Int96::from_timestamp_parts(nanos_of_day, day);
            assert_eq!(value.to_spark_nanos(), value.to_unix_nanos(), "{value:?}");
        }
        assert_eq!(
            Int96::from_timestamp_parts(123_456_789, 2_440_588).to_spark_nanos(),
            123_456_789
        );
        assert_eq!(
            Int96::from_timestamp_parts(-1_500, 2_440_588).to_spark_nanos(),
            -1_500
        );
    }

    proptest! {
        #[test]
        fn spark_round_trip(micros: i64, sub_micros in 0i64..1000) {
            prop_assert_eq!(spark_written(micros).to_spark_nanos(), i128::from(micros) * 1000);
            // With nanoseconds below the microsecond, where they fit the time of day.
            let value = spark_written(micros);
            let nanos_of_day = value.nanos_of_day() + sub_micros;
            let with_nanos = Int96::from_timestamp_parts(nanos_of_day, value.julian_day());
            prop_assert_eq!(with_nanos.to_spark_nanos(), i128::from(micros) * 1000 + i128::from(sub_micros));
        }

        /// Where the microseconds do not wrap, Spark reads the exact instant.
        #[test]
        fn spark_agrees_with_the_exact_reading(nanos_of_day: i64, day in -100_000_000i32..100_000_000) {
            let value = Int96::from_timestamp_parts(nanos_of_day, day);
            let micros = (i128::from(day) - 2_440_588) * 86_400_000_000 + i128::from(nanos_of_day / 1000);
            if i64::try_from(micros).is_ok() {
                prop_assert_eq!(value.to_spark_nanos(), value.to_unix_nanos());
            }
        }

        #[test]
        fn int96_round_trip(nanos: i64, bytes: [u8; 12]) {
            prop_assert_eq!(i128::from(nanos), Int96::from_unix_nanos(nanos).to_unix_nanos());
            let value = Int96::from_le_bytes(bytes);
            prop_assert_eq!(Int96::from_timestamp_parts(value.nanos_of_day(), value.julian_day()), value);
        }
    }
}
