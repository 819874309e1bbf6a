//! Zigzag mapping of signed to unsigned integers (0, -1, 1, -2, … ↦ 0, 1, 2, 3, …),
//! so that values of small magnitude get short varints.

/// Maps an `i32` to its zigzag `u32`.
#[inline]
pub const fn encode_i32(value: i32) -> u32 {
    ((value << 1) ^ (value >> 31)).cast_unsigned()
}

/// Maps a zigzag `u32` back to its `i32`.
#[inline]
pub const fn decode_i32(value: u32) -> i32 {
    (value >> 1).cast_signed() ^ -(value & 1).cast_signed()
}

/// Maps an `i64` to its zigzag `u64`.
#[inline]
pub const fn encode_i64(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)).cast_unsigned()
}

/// Maps a zigzag `u64` back to its `i64`.
#[inline]
pub const fn decode_i64(value: u64) -> i64 {
    (value >> 1).cast_signed() ^ -(value & 1).cast_signed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_values() {
        let cases = [
            (0, 0),
            (-1, 1),
            (1, 2),
            (-2, 3),
            (2, 4),
            (i32::MAX, u32::MAX - 1),
            (i32::MIN, u32::MAX),
        ];
        for (signed, unsigned) in cases {
            assert_eq!(encode_i32(signed), unsigned);
            assert_eq!(decode_i32(unsigned), signed);
            assert_eq!(encode_i64(signed.into()), unsigned.into());
        }
        assert_eq!(encode_i64(i64::MIN), u64::MAX);
        assert_eq!(decode_i64(u64::MAX - 1), i64::MAX);
    }

    proptest! {
        #[test]
        fn round_trip(a: i32, b: i64) {
            prop_assert_eq!(decode_i32(encode_i32(a)), a);
            prop_assert_eq!(decode_i64(encode_i64(b)), b);
        }
    }
}
