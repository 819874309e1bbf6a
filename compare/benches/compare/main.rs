//! parquet-kit against the arrow-rs `parquet` crate, decoder by decoder, on the same bytes;
//! the `orc ...` rows: orc-file against orc-rust.
//!
//! `cargo xtask bench [FILTER...]` (or `cargo bench --bench compare -- [FILTER...]` in
//! `compare/`): prints each row as it is measured, then a Markdown table. A row runs when
//! its name contains one of the filters, or always when none is given. Every workload
//! first checks that both implementations decode the same bytes to the same values.

mod arrow_read;
mod arrow_write;
mod bitpack;
mod byte_stream_split;
mod compress;
mod crypto;
mod delta;
mod dictionary;
mod encoders;
mod field;
mod file_read;
mod file_write;
mod footer;
// The counting allocator of parquet-thrift's tests: peak heap of the field rows.
#[path = "../../../crates/parquet-thrift/tests/counting/mod.rs"]
mod counting;
mod nested;
mod orc_read;
mod orc_rle;
mod plain;
mod rle;

use bytes::Bytes;
use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::data_type::DataType;
use parquet::encodings::decoding::{Decoder, get_decoder};
use parquet::schema::types::{ColumnDescriptor, ColumnPath, Type};
use parquet_kit_compare::{Row, Settings, measure, table};
use std::sync::Arc;

/// Values per workload.
pub const N: usize = 1 << 20;

/// The rows measured so far, and which to measure.
pub struct Bench {
    settings: Settings,
    filters: Vec<String>,
    rows: Vec<Row>,
    /// What rows report besides the table (file sizes), printed after it.
    notes: Vec<String>,
}

impl Bench {
    /// Whether the row `name` is to be measured.
    pub fn wanted(&self, name: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| name.contains(f.as_str()))
    }

    /// Measures `ours` against `theirs`, if the row is wanted.
    pub fn run(
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

/// An arrow-rs decoder of `encoding` for a required column of `physical` type (and
/// `length`, for FIXED_LEN_BYTE_ARRAY).
pub fn arrow_decoder<T: DataType>(
    physical: PhysicalType,
    length: i32,
    encoding: Encoding,
) -> Box<dyn Decoder<T>> {
    let column = Type::primitive_type_builder("c", physical)
        .with_length(length)
        .build()
        .unwrap();
    let descriptor = ColumnDescriptor::new(Arc::new(column), 0, 0, ColumnPath::new(vec![]));
    get_decoder::<T>(Arc::new(descriptor), encoding).unwrap()
}

/// Hands an arrow-rs decoder `page`, which holds `N` values, and decodes them into `out`:
/// the arrow-rs side of every decoding row. Returns how many values it decoded.
pub fn arrow_decode<T: DataType>(
    decoder: &mut (impl Decoder<T> + ?Sized),
    page: &Bytes,
    out: &mut [T::T],
) -> usize {
    decoder.set_data(page.clone(), N).unwrap();
    decoder.get(out).unwrap()
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
        notes: Vec::new(),
    };
    bitpack::run(&mut bench);
    bitpack::portable(&mut bench);
    rle::run(&mut bench);
    plain::run(&mut bench);
    byte_stream_split::run(&mut bench);
    delta::run(&mut bench);
    dictionary::run(&mut bench);
    encoders::run(&mut bench);
    footer::run(&mut bench);
    compress::run(&mut bench);
    crypto::run(&mut bench);
    file_read::run(&mut bench);
    file_write::run(&mut bench);
    arrow_read::run(&mut bench);
    arrow_write::run(&mut bench);
    orc_rle::run(&mut bench);
    orc_read::run(&mut bench);
    field::run(&mut bench);
    println!("{}", table(&bench.rows));
    for note in &bench.notes {
        println!("{note}\n");
    }
}
