use super::*;
use proptest::prelude::*;

/// Bit-by-bit reference: bit `k` of the stream is bit `k % 8` of byte `k / 8`.
fn reference_pack(width: u8, values: &[u64]) -> Vec<u8> {
    let mut out = vec![0u8; packed_len(values.len(), width)];
    let mut k = 0;
    for &value in values {
        for b in 0..width {
            if value >> b & 1 == 1 {
                out[k / 8] |= 1 << (k % 8);
            }
            k += 1;
        }
    }
    out
}

fn mask(width: u8) -> u64 {
    if width == 0 {
        0
    } else {
        u64::MAX >> (64 - width)
    }
}

/// Values of a given shape for a width: random, runs, sorted, or the extremes.
fn values(max_width: u8) -> impl Strategy<Value = (u8, Vec<u64>)> {
    (0..=max_width, 0usize..300, 0u8..4, any::<u64>()).prop_flat_map(|(width, len, shape, seed)| {
        let m = mask(width);
        prop::collection::vec(any::<u64>(), len).prop_map(move |raw| {
            let values = match shape {
                0 => raw.iter().map(|v| v & m).collect(),
                1 => raw.iter().map(|v| (seed ^ ((v % 4) / 3)) & m).collect(),
                2 => {
                    let mut sorted: Vec<u64> = raw.iter().map(|v| v & m).collect();
                    sorted.sort_unstable();
                    sorted
                }
                _ => raw.iter().map(|v| if v & 1 == 0 { 0 } else { m }).collect(),
            };
            (width, values)
        })
    })
}

fn check_type<T>(width: u8, values: &[u64]) -> Result<(), TestCaseError>
where
    T: Packable + PartialEq + core::fmt::Debug + TryFrom<u64>,
    u64: From<T>,
{
    let typed: Vec<T> = values
        .iter()
        .map(|&v| T::try_from(v).ok().unwrap())
        .collect();
    let mut packed = Vec::new();
    pack(width, &typed, &mut packed);
    prop_assert_eq!(&packed, &reference_pack(width, values));

    let mut out = vec![T::default(); typed.len()];
    prop_assert_eq!(unpack(width, &packed, &mut out), Ok(packed.len()));
    prop_assert_eq!(&out, &typed);

    // Whole blocks through the dispatched and the portable kernels agree.
    let (blocks, _) = typed.as_chunks::<BLOCK_LEN>();
    let mut fast = Vec::new();
    pack_blocks(width, blocks, &mut fast);
    let mut slow = Vec::new();
    portable::pack_blocks(width, blocks, &mut slow);
    prop_assert_eq!(&fast, &slow);
    let mut fast_out = vec![[T::default(); BLOCK_LEN]; blocks.len()];
    let mut slow_out = fast_out.clone();
    prop_assert_eq!(unpack_blocks(width, &fast, &mut fast_out), Ok(fast.len()));
    prop_assert_eq!(
        portable::unpack_blocks(width, &fast, &mut slow_out),
        Ok(fast.len())
    );
    prop_assert_eq!(&fast_out, &slow_out);
    prop_assert_eq!(&fast_out[..], blocks);

    // Any shorter input is an error, never a panic.
    if !packed.is_empty() {
        let short = &packed[..packed.len() - 1];
        let result = unpack(width, short, &mut out);
        prop_assert!(
            matches!(result, Err(Error::Truncated { .. })),
            "{:?}",
            result
        );
    }
    Ok(())
}

#[test]
fn spec_example() {
    let mut packed = Vec::new();
    pack(3, &[0u8, 1, 2, 3, 4, 5, 6, 7], &mut packed);
    assert_eq!(packed, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
    let mut out = [0u64; 8];
    assert_eq!(unpack(3, &packed, &mut out), Ok(3));
    assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn every_width_of_every_type() {
    // Deterministic coverage of each (type, width) kernel, with full and partial blocks.
    for width in 0..=64u8 {
        let m = mask(width);
        let values: Vec<u64> = (0..100u64)
            .map(|i| {
                i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(u32::try_from(i).unwrap())
                    & m
            })
            .collect();
        check_type::<u64>(width, &values).unwrap();
        if width <= 32 {
            check_type::<u32>(width, &values).unwrap();
        }
        if width <= 16 {
            check_type::<u16>(width, &values).unwrap();
        }
        if width <= 8 {
            check_type::<u8>(width, &values).unwrap();
        }
    }
}

#[test]
fn invalid_width_is_an_error() {
    let mut out = [0u8; 4];
    assert_eq!(
        unpack(9, &[0; 8], &mut out),
        Err(Error::invalid("bit width", 0, 9))
    );
    let mut out = [0u64; 1];
    assert!(unpack(65, &[0; 16], &mut out).is_err());
    let mut blocks = [[0u32; BLOCK_LEN]; 2];
    assert_eq!(
        unpack_blocks(5, &[0; 39], &mut blocks),
        Err(Error::truncated("bit-packed values", 0, 40, 39))
    );
}

#[test]
fn high_bits_are_ignored_when_packing() {
    let mut packed = Vec::new();
    pack(4, &[0xffu8, 0x10], &mut packed);
    assert_eq!(packed, [0x0f]);
}

proptest! {
    #[test]
    fn round_trip_u64((width, values) in values(64)) {
        check_type::<u64>(width, &values)?;
    }

    #[test]
    fn round_trip_u32((width, values) in values(32)) {
        check_type::<u32>(width, &values)?;
    }

    #[test]
    fn round_trip_u16((width, values) in values(16)) {
        check_type::<u16>(width, &values)?;
    }

    #[test]
    fn round_trip_u8((width, values) in values(8)) {
        check_type::<u8>(width, &values)?;
    }

    #[test]
    fn arbitrary_input_never_panics(width: u8, bytes: Vec<u8>, count in 0usize..200) {
        let mut out = vec![0u32; count];
        let _ = unpack(width, &bytes, &mut out);
        let mut out = vec![0u64; count];
        let _ = unpack(width, &bytes, &mut out);
    }
}
