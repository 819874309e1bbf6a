//! Unit tests: the protocol from byte literals, every structure round-tripped, forward
//! compatibility, limits, and property tests on arbitrary bytes.

mod compact;
mod properties;
mod structures;

use crate::{ReadThrift, WriteThrift};

/// The compact encoding of `value`.
fn encode<T: WriteThrift>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.write_to(&mut out).unwrap();
    out
}

/// Checks that `bytes` decode as a `T` equal to `expected` that takes all of them and
/// re-encodes to the same bytes, and that every strict prefix of `bytes` is an error.
fn check_decoding<'a, T>(bytes: &'a [u8], expected: &T)
where
    T: ReadThrift<'a> + WriteThrift + PartialEq + core::fmt::Debug,
{
    let (read, len) = T::read_from(bytes).unwrap();
    assert_eq!(&read, expected);
    assert_eq!(
        len,
        bytes.len(),
        "{expected:?} did not take all of its bytes"
    );
    assert_eq!(encode(&read), bytes, "{expected:?} re-encoded differently");
    for end in 0..bytes.len() {
        assert!(
            T::read_from(&bytes[..end]).is_err(),
            "a prefix of {end} of {} bytes of {expected:?} decoded",
            bytes.len()
        );
    }
}

/// Encodes `$value` (of type `$ty`, without its lifetime), checks that it decodes back
/// with [`check_decoding`], and returns the bytes.
macro_rules! round_trip {
    ($ty:ident, $value:expr) => {{
        let value = $value;
        let bytes = $crate::tests::encode(&value);
        $crate::tests::check_decoding::<$ty<'_>>(&bytes, &value);
        bytes
    }};
    ($ty:ident static, $value:expr) => {{
        let value = $value;
        let bytes = $crate::tests::encode(&value);
        $crate::tests::check_decoding::<$ty>(&bytes, &value);
        bytes
    }};
}

use round_trip;
