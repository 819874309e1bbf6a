//! parquet-kit against the arrow-rs `parquet` crate, decoder by decoder, on the same bytes.
//!
//! `cargo xtask bench [FILTER...]` (or `cargo bench --bench compare -- [FILTER...]` in
//! `compare/`): prints each row as it is measured, then a Markdown table. A row runs when
//! its name contains one of the filters, or always when none is given.

use bytes::Bytes;
use parquet_kit_compare::{Rng, Row, Settings, measure, table};
use std::hint::black_box;

const N: usize = 1 << 20;

struct Bench {
    settings: Settings,
    filters: Vec<String>,
    rows: Vec<Row>,
}

impl Bench {
    fn wanted(&self, name: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| name.contains(f.as_str()))
    }

    fn run(
        &mut self,
        name: &str,
        values: usize,
        output_bytes: usize,
        ours: &mut dyn FnMut(),
        theirs: &mut dyn FnMut(),
    ) {
        if self.wanted(name) {
            let row = measure(self.settings, name, values, output_bytes, ours, theirs);
            self.rows.push(row);
        }
    }
}

fn bit_unpacking(bench: &mut Bench) {
    for width in 1..=32u8 {
        let name = format!("bit unpack u32, width {width}");
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
        let mut ours_out = vec![0u32; N];
        let mut theirs_out = vec![0u32; N];
        parquet_bitpack::unpack(width, &packed, &mut ours_out).unwrap();
        parquet::util::bit_util::BitReader::new(bytes.clone())
            .get_batch(&mut theirs_out, width.into());
        assert_eq!(ours_out, values);
        assert_eq!(theirs_out, values);
        bench.run(
            &name,
            N,
            N * 4,
            &mut || {
                parquet_bitpack::unpack(width, black_box(&packed), &mut ours_out).unwrap();
            },
            &mut || {
                let mut reader = parquet::util::bit_util::BitReader::new(black_box(bytes.clone()));
                reader.get_batch(&mut theirs_out, width.into());
            },
        );
    }
}

fn main() {
    let filters = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mut bench = Bench {
        settings: Settings::from_env(),
        filters,
        rows: Vec::new(),
    };
    bit_unpacking(&mut bench);
    println!("{}", table(&bench.rows));
}
