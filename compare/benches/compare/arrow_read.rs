//! Whole-file reads into Arrow `RecordBatch`es: parquet-arrow's
//! `ParquetRecordBatchReaderBuilder` against arrow-rs's, both into [`BATCH`]-row batches,
//! on the 10-million-row files of `file read` (every encoding scheme and codec; see
//! [`file_read`](crate::file_read) for the file). Both open the file inside the timed
//! closure, allocate their arrays anew and validate the strings as UTF-8. Before timing,
//! both sides' values are checked against what was written.

use crate::Bench;
use crate::file_read::{
    BATCH, Checksum, Data, Scheme, codecs, file_rows, read_record_batches, run_row, sum_batch,
    write_file,
};
use bytes::Bytes;
use parquet_arrow::ParquetRecordBatchReaderBuilder;
use std::hint::black_box;

pub fn run(bench: &mut Bench) {
    let (rows, label) = file_rows();
    let mut data = None;
    for scheme in Scheme::ALL {
        for (codec_name, codec) in codecs() {
            let name = format!("arrow read {label}: {}, {codec_name}", scheme.name());
            if !bench.wanted(&name) {
                continue;
            }
            let data = data.get_or_insert_with(|| Data::generate(rows));
            let file = write_file(data, scheme, codec);
            check(&file, data);
            run_row(
                bench,
                &name,
                data,
                &mut || read_ours(black_box(&file), None),
                &mut || read_record_batches(black_box(&file), None),
            );
        }
    }
}

/// parquet-arrow: opens `file` and reads it into [`BATCH`]-row `RecordBatch`es; adds the
/// values to `sums` when given.
fn read_ours(file: &Bytes, mut sums: Option<&mut [Checksum; 5]>) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build()
        .unwrap();
    for batch in reader {
        let batch = batch.unwrap();
        if let Some(sums) = sums.as_deref_mut() {
            sum_batch(&batch, sums);
        }
        black_box(batch);
    }
}

/// Checks that both readers read back what was written.
fn check(file: &Bytes, data: &Data) {
    let expected = data.checksums();
    let mut sums = [Checksum::default(); 5];
    read_ours(file, Some(&mut sums));
    assert_eq!(sums, expected, "parquet-arrow");
    let mut sums = [Checksum::default(); 5];
    read_record_batches(file, Some(&mut sums));
    assert_eq!(sums, expected, "arrow-rs RecordBatches");
}
