//! Bit unpacking to `u32` at widths 1..=32: `parquet_bitpack::unpack` against arrow-rs's
//! `BitReader::get_batch`.

use crate::{Bench, N};
use bytes::Bytes;
use parquet::util::bit_util::BitReader;
use parquet_bitpack::{BLOCK_LEN, portable};
use parquet_kit_compare::Rng;
use std::hint::black_box;

pub fn run(bench: &mut Bench) {
    for width in 1..=32u8 {
        let name = format!("bit unpack u32, width {width:2}");
        if !bench.wanted(&name) {
            continue;
        }
        let mut rng = Rng::new(u64::from(width));
        let mask = if width == 32 {
            u32::MAX
        } else {
            (1 << width) - 1
        };
        let values: Vec<u32> = (0..N).map(|_| rng.next_u64() as u32 & mask).collect();
        let mut packed = Vec::new();
        parquet_bitpack::pack(width, &values, &mut packed);
        let bytes = Bytes::from(packed.clone());
        let mut ours = vec![0u32; N];
        let mut theirs = vec![0u32; N];
        parquet_bitpack::unpack(width, &packed, &mut ours).unwrap();
        BitReader::new(bytes.clone()).get_batch(&mut theirs, width.into());
        assert_eq!(ours, values);
        assert_eq!(theirs, values);
        bench.run(
            &name,
            N,
            N * 4,
            &mut || {
                parquet_bitpack::unpack(width, black_box(&packed), &mut ours).unwrap();
            },
            &mut || {
                BitReader::new(black_box(bytes.clone())).get_batch(&mut theirs, width.into());
            },
        );
    }
}

/// What a CPU without AVX2 runs: the portable kernels, at a few widths.
pub fn portable(bench: &mut Bench) {
    for width in [3u8, 10, 23] {
        let name = format!("bit unpack u32, width {width:2}, portable kernels");
        if !bench.wanted(&name) {
            continue;
        }
        let mut rng = Rng::new(u64::from(width));
        let mask = (1u32 << width) - 1;
        let values: Vec<u32> = (0..N).map(|_| rng.next_u64() as u32 & mask).collect();
        let mut packed = Vec::new();
        parquet_bitpack::pack(width, &values, &mut packed);
        let bytes = Bytes::from(packed.clone());
        let mut ours = vec![[0u32; BLOCK_LEN]; N / BLOCK_LEN];
        let mut theirs = vec![0u32; N];
        portable::unpack_blocks(width, &packed, &mut ours).unwrap();
        assert_eq!(ours.as_flattened(), values);
        bench.run(
            &name,
            N,
            N * 4,
            &mut || {
                portable::unpack_blocks(width, black_box(&packed), &mut ours).unwrap();
            },
            &mut || {
                BitReader::new(black_box(bytes.clone())).get_batch(&mut theirs, width.into());
            },
        );
    }
}
