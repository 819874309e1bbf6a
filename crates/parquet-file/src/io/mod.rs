//! Where files come from and go to: positioned reads ([`Source`]) for the reader, appends
//! ([`Sink`]) for the writer. Both live in `parquet-core`, shared with `orc-file`.

pub use parquet_core::io::{Sink, Source, Spliced};
