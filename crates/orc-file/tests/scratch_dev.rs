#![allow(clippy::unwrap_used, missing_docs)]
use orc_file::*;
use parquet_core::ByteArrayBatch;

fn all_types_batch(n: usize) -> Batch {
    let present: Vec<bool> = (0..n).map(|i| i % 7 != 3).collect();
    let strs: ByteArrayBatch = (0..n).map(|i| format!("s{}", i % 13)).collect();
    let bins: ByteArrayBatch = (0..n).map(|i| vec![i as u8; i % 5 + 1]).collect();
    Batch {
        num_rows: n,
        columns: vec![
            Vector::with_present(VectorData::Boolean((0..n).map(|i| i % 3 == 0).collect()), present.clone()),
            Vector::new(VectorData::Int((0..n).map(|i| (i % 200) as i64 - 100).collect())),
            Vector::new(VectorData::Int((0..n).map(|i| (i % 8000) as i64 * 7 - 28000).collect())),
            Vector::with_present(VectorData::Int((0..n).map(|i| (i as i64) * 1000).collect()), present.clone()),
            Vector::new(VectorData::Int((0..n).map(|i| (i as i64).pow(3) - 77).collect())),
            Vector::new(VectorData::Float((0..n).map(|i| i as f32 * 0.5).collect())),
            Vector::with_present(VectorData::Double((0..n).map(|i| i as f64 / 3.0).collect()), present.clone()),
            Vector::with_present(VectorData::Bytes(strs.clone()), present.clone()),
            Vector::new(VectorData::Bytes(bins)),
            Vector::with_present(VectorData::Timestamp { seconds: (0..n).map(|i| 1_600_000_000 + i as i64 * 3600 - 2_000_000_000).collect(), nanos: (0..n).map(|i| (i as u32 * 1000) % 1_000_000_000).collect() }, present.clone()),
            Vector::new(VectorData::Int((0..n).map(|i| i as i64 - 10).collect())),
            Vector::with_present(VectorData::Decimal { values: (0..n).map(|i| i as i128 * 12345 - 99999).collect(), scales: vec![2; n] }, present.clone()),
            Vector::new(VectorData::Bytes(strs.clone())),
            Vector::new(VectorData::Bytes(strs.clone())),
            Vector::with_present(VectorData::List { offsets: (0..=n).map(|i| i * 2).collect(), elements: Box::new(Vector::new(VectorData::Int((0..2 * n).map(|i| i as i64).collect()))) }, present.clone()),
            Vector::new(VectorData::Map { offsets: (0..=n).map(|i| i).collect(), keys: Box::new(Vector::new(VectorData::Bytes(strs.clone()))), values: Box::new(Vector::with_present(VectorData::Double(vec![1.5; n]), present.clone())) }),
            Vector::with_present(VectorData::Struct { len: n, fields: vec![
                Vector::with_present(VectorData::Int((0..n).map(|i| i as i64).collect()), (0..n).map(|i| i % 5 != 0).collect()),
                Vector::new(VectorData::Bytes(strs.clone())),
            ]}, present.clone()),
            Vector::new(VectorData::Union { tags: (0..n).map(|i| (i % 2) as u8).collect(), alternatives: vec![
                Vector::new(VectorData::Int((0..n).map(|i| i as i64).collect())),
                Vector::new(VectorData::Bytes(strs.clone())),
            ]}),
        ],
    }
}

const SCHEMA: &str = "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,str:string,bin:binary,ts:timestamp,dt:date,dec:decimal(10,2),c:char(4),v:varchar(2),li:array<int>,m:map<string,double>,st:struct<x:int,y:string>,u:uniontype<int,string>>";

#[test]
fn scratch_write() {
    for (name, version, comp, n, stride) in [
        ("v12_none", OrcVersion::V0_12, OrcCompression::None, 25_000, 10_000),
        ("v12_zlib", OrcVersion::V0_12, OrcCompression::Zlib, 25_000, 10_000),
        ("v11_none", OrcVersion::V0_11, OrcCompression::None, 25_000, 10_000),
        ("v11_snappy", OrcVersion::V0_11, OrcCompression::Snappy, 25_000, 1000),
        ("v12_zstd", OrcVersion::V0_12, OrcCompression::Zstd, 30, 0),
        ("v12_lz4", OrcVersion::V0_12, OrcCompression::Lz4, 5000, 1000),
        ("empty", OrcVersion::V0_12, OrcCompression::Zlib, 0, 1000),
    ] {
        let schema = TypeDescription::parse(SCHEMA).unwrap();
        let opts = WriterOptions::default().version(version).compression(comp).row_index_stride(stride).compression_block_size(4096);
        let mut w = OrcWriter::new(Vec::new(), schema, opts).unwrap();
        if n > 0 { w.write_batch(&all_types_batch(n)).unwrap(); }
        w.add_user_metadata("k", b"v".to_vec());
        let bytes = w.finish().unwrap();
        std::fs::write(format!("/tmp/orcw/{name}.orc"), bytes).unwrap();
    }
}

#[test]
fn scratch_read() {
    for name in ["v12_none", "v12_zlib", "v11_none", "v11_snappy", "v12_zstd", "v12_lz4", "empty"] {
        let bytes = std::fs::read(format!("/tmp/orcw/{name}.orc")).unwrap();
        let reader = OrcReader::open(bytes).unwrap();
        let rows: Vec<_> = reader.rows(ReadOptions::default()).unwrap().collect::<Result<Vec<_>>>().unwrap();
        println!("{name}: {} rows; first {:?}", rows.len(), rows.first());
    }
}

#[test]
fn scratch_lzo() {
    for (name, n, block) in [("lzo_small", 10usize, 262_144usize), ("lzo_mid", 3000, 262_144), ("lzo_big", 100_000, 262_144), ("lzo_blk", 100_000, 4096)] {
        let schema = TypeDescription::parse("struct<a:bigint,s:string>").unwrap();
        let opts = WriterOptions::default().compression(OrcCompression::Lzo).compression_block_size(block);
        let mut w = OrcWriter::new(Vec::new(), schema, opts).unwrap();
        let strs: ByteArrayBatch = (0..n).map(|i| format!("string number {}", i * 7919 % 1000)).collect();
        w.write_batch(&Batch { num_rows: n, columns: vec![Vector::new(VectorData::Int((0..n as i64).map(|i| i * 31 % 1000).collect())), Vector::new(VectorData::Bytes(strs))] }).unwrap();
        std::fs::write(format!("/tmp/orcw/{name}.orc"), w.finish().unwrap()).unwrap();
    }
}

#[test]
fn scratch_perf() {
    if std::env::var("ORC_PERF").is_err() { return; }
    let n = 1_000_000usize;
    let strs: ByteArrayBatch = (0..n).map(|i| format!("cat{}", i % 100)).collect();
    let uniq: ByteArrayBatch = (0..n).map(|i| format!("unique value {i:08}")).collect();
    let batch = Batch { num_rows: n, columns: vec![
        Vector::new(VectorData::Int((0..n as i64).map(|i| i * 31 + (i % 7)).collect())),
        Vector::new(VectorData::Double((0..n).map(|i| i as f64 * 0.1).collect())),
        Vector::new(VectorData::Bytes(strs)),
        Vector::new(VectorData::Bytes(uniq)),
        Vector::with_present(VectorData::Int((0..n as i64).collect()), (0..n).map(|i| i % 10 != 0).collect()),
    ]};
    for comp in [OrcCompression::None, OrcCompression::Zlib, OrcCompression::Zstd, OrcCompression::Snappy] {
        let schema = TypeDescription::parse("struct<a:bigint,b:double,c:string,d:string,e:int>").unwrap();
        let t = std::time::Instant::now();
        let mut w = OrcWriter::new(Vec::new(), schema, WriterOptions::default().compression(comp)).unwrap();
        w.write_batch(&batch).unwrap();
        let bytes = w.finish().unwrap();
        let el = t.elapsed();
        let t2 = std::time::Instant::now();
        let reader = OrcReader::open(bytes.clone()).unwrap();
        let mut b = Batch::default();
        let mut rows = 0; let mut it = reader.batches(ReadOptions::default()).unwrap();
        while it.next_into(&mut b).unwrap() { rows += b.num_rows; }
        println!("{comp}: write {:?} ({:.1} Mrows/s), {} bytes; read {:?} {rows}", el, n as f64 / el.as_secs_f64() / 1e6, bytes.len(), t2.elapsed());
    }
}
