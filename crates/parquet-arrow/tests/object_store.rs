//! The object-store source: a file of 20 columns in an in-memory and a local-filesystem
//! store, read through a store that counts requests and bytes. What is fetched (how many
//! requests, how many bytes) is checked against the file's layout, and the batches
//! against the synchronous reader's of the same file in memory.
#![cfg(feature = "object_store")]
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss
)]

use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use arrow_array::{ArrayRef, BooleanArray, Int64Array, RecordBatch};
use async_trait::async_trait;
use futures_util::stream::BoxStream;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetRange, GetResult, ListResult, MultipartUpload, ObjectMeta,
    ObjectStore, ObjectStoreExt as _, PutMultipartOptions, PutOptions, PutPayload, PutResult,
};
use parquet_arrow::{
    ArrowWriter, ParquetObjectReader, ParquetRecordBatchReaderBuilder, ProjectionMask, RowFilter,
};
use parquet_file::{
    BloomFilterOptions, Bytes, Codec, ColumnOptions, FileReader, Op, Predicate, RowSelection,
    WriterOptions,
};

const COLUMNS: usize = 20;
const ROWS: i64 = 100_000;
const GROUP_ROWS: usize = 25_000;
const PAGE_ROWS: usize = 2_500;

/// One read request the store answered: the range it returned (all of the object for a
/// HEAD), whether it was a HEAD, and the bytes returned.
#[derive(Debug, Clone, PartialEq)]
struct Request {
    range: Range<u64>,
    head: bool,
    bytes: u64,
}

/// A store that logs every read request of the store it wraps.
#[derive(Debug)]
struct Counting {
    inner: Arc<dyn ObjectStore>,
    log: Mutex<Vec<Request>>,
    /// Whether suffix requests fail as Azure's do.
    no_suffix: bool,
}

impl Counting {
    fn new(inner: Arc<dyn ObjectStore>) -> Arc<Self> {
        Arc::new(Self {
            inner,
            log: Mutex::new(Vec::new()),
            no_suffix: false,
        })
    }

    /// The requests since the last call.
    fn take(&self) -> Vec<Request> {
        std::mem::take(&mut *self.log.lock().unwrap())
    }
}

impl fmt::Display for Counting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counting({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for Counting {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        if self.no_suffix && matches!(options.range, Some(GetRange::Suffix(_))) {
            return Err(object_store::Error::NotSupported {
                source: "no suffix requests".into(),
            });
        }
        let head = options.head;
        let result = self.inner.get_opts(location, options).await?;
        let bytes = if head {
            0
        } else {
            result.range.end - result.range.start
        };
        self.log.lock().unwrap().push(Request {
            range: result.range.clone(),
            head,
            bytes,
        });
        Ok(result)
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, object_store::Result<Path>>,
    ) -> BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The value of column `c` in row `r`: the row for `c00`, random for the others.
fn value(c: usize, r: i64) -> i64 {
    if c == 0 {
        r
    } else {
        (splitmix(((c as u64) << 32) | r as u64) >> 1) as i64
    }
}

/// 100,000 rows of 20 INT64 columns, plain and uncompressed (so that every column
/// chunk is the same size): `c00` counts up, the others are random. 4 row groups of
/// 10 pages per chunk; a page index; a Bloom filter on `c02` only.
fn file() -> Bytes {
    file_of(ROWS, GROUP_ROWS, PAGE_ROWS)
}

/// As [`file`], with `rows` rows in row groups of `group_rows` and pages of `page_rows`,
/// written a million rows at a time.
fn file_of(rows: i64, group_rows: usize, page_rows: usize) -> Bytes {
    let bloom = ColumnOptions {
        bloom_filter: Some(Some(BloomFilterOptions::default())),
        ..ColumnOptions::default()
    };
    let options = WriterOptions::new()
        .with_compression(Codec::Uncompressed)
        .with_dictionary(false)
        .with_row_group_rows(group_rows)
        .with_page_rows(page_rows)
        .with_column("c02", bloom);
    let mut writer = None;
    let mut start = 0;
    while start < rows {
        let end = rows.min(start + (1 << 20));
        let columns: Vec<(String, ArrayRef)> = (0..COLUMNS)
            .map(|c| {
                let values = (start..end).map(|r| value(c, r));
                let array: ArrayRef = Arc::new(Int64Array::from_iter_values(values));
                (format!("c{c:02}"), array)
            })
            .collect();
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        writer
            .get_or_insert_with(|| {
                ArrowWriter::try_new(Vec::new(), batch.schema(), Some(options.clone())).unwrap()
            })
            .write(&batch)
            .unwrap();
        start = end;
    }
    let mut writer = writer.unwrap();
    writer.finish().unwrap();
    Bytes::from(writer.into_inner())
}

/// `file` put at `name` in an in-memory store, behind a counting store.
async fn in_memory(file: &Bytes, name: &str) -> (Arc<Counting>, Path) {
    let store = Counting::new(Arc::new(InMemory::new()));
    let path = Path::from(name);
    store.put(&path, file.clone().into()).await.unwrap();
    store.take();
    (store, path)
}

fn reader(store: &Arc<Counting>, path: &Path) -> ParquetObjectReader {
    let store: Arc<dyn ObjectStore> = Arc::clone(store) as _;
    ParquetObjectReader::new(store, path.clone())
}

/// The length of the footer and its last 8 bytes.
fn footer_len(file: &Bytes) -> usize {
    let n = file.len();
    u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize + 8
}

/// What to read, applied alike to the synchronous and the object-store builders.
#[derive(Clone, Default)]
struct Read {
    projection: Option<ProjectionMask>,
    selection: Option<RowSelection>,
    predicate: Option<Predicate>,
    limit: Option<usize>,
}

fn sync_batches(file: &Bytes, read: &Read) -> Vec<RecordBatch> {
    let mut builder = ParquetRecordBatchReaderBuilder::try_new(file.clone()).unwrap();
    if let Some(p) = &read.projection {
        builder = builder.with_projection(p.clone());
    }
    if let Some(s) = &read.selection {
        builder = builder.with_row_selection(s.clone());
    }
    if let Some(p) = &read.predicate {
        builder = builder.with_predicate(p.clone());
    }
    if let Some(l) = read.limit {
        builder = builder.with_limit(l);
    }
    builder.build().unwrap().collect::<Result<_, _>>().unwrap()
}

/// Opens (the requests of which are returned) and reads (those too).
async fn remote_batches(
    object: ParquetObjectReader,
    store: &Counting,
    read: &Read,
) -> (Vec<RecordBatch>, Vec<Request>, Vec<Request>) {
    let mut builder = object.builder().await.unwrap();
    let open = store.take();
    if let Some(p) = &read.projection {
        builder = builder.with_projection(p.clone());
    }
    if let Some(s) = &read.selection {
        builder = builder.with_row_selection(s.clone());
    }
    if let Some(p) = &read.predicate {
        builder = builder.with_predicate(p.clone());
    }
    if let Some(l) = read.limit {
        builder = builder.with_limit(l);
    }
    let reader = builder.build().await.unwrap();
    let fetched = store.take();
    let batches = reader.collect::<Result<_, _>>().unwrap();
    assert!(store.take().is_empty(), "decoding made requests");
    (batches, open, fetched)
}

fn bytes(requests: &[Request]) -> u64 {
    requests.iter().map(|r| r.bytes).sum()
}

/// The file ranges of the column chunks of `columns` in every row group.
fn chunk_ranges(file: &Bytes, columns: &[usize]) -> Vec<Range<u64>> {
    let reader = FileReader::open(file.clone()).unwrap();
    let mut out = Vec::new();
    for g in 0..reader.num_row_groups() {
        for &c in columns {
            let meta = reader.metadata().column_chunk_metadata(g, c).unwrap();
            out.push(meta.start()..meta.start() + meta.total_compressed_size());
        }
    }
    out
}

/// The span of the file's page index.
fn page_index_span(file: &Bytes) -> Range<u64> {
    let reader = FileReader::open(file.clone()).unwrap();
    let (mut lo, mut hi) = (u64::MAX, 0);
    for g in 0..reader.num_row_groups() {
        for c in 0..COLUMNS {
            let chunk = reader.metadata().column_chunk(g, c).unwrap();
            for at in [chunk.column_index_location(), chunk.offset_index_location()]
                .into_iter()
                .flatten()
            {
                lo = lo.min(at.offset);
                hi = hi.max(at.offset + u64::from(at.length));
            }
        }
    }
    lo..hi
}

fn overlaps(a: &Range<u64>, b: &Range<u64>) -> bool {
    a.start < b.end && b.start < a.end
}

#[tokio::test]
async fn two_of_twenty_columns_fetch_a_tenth_in_a_handful_of_requests() {
    two_of_twenty(file()).await;
}

/// As the test above on a file of 1 GiB (6.7 million rows, 7 row groups), left out of a
/// plain `cargo test` for the memory it takes: run with `cargo test -p parquet-arrow
/// --features object_store --test object_store -- --include-ignored` (about 20 s
/// unoptimised), as CI does.
#[tokio::test]
#[ignore = "writes a 1 GiB file: run with -- --include-ignored"]
async fn two_of_twenty_columns_of_a_gigabyte_fetch_a_tenth() {
    let rows = (1 << 30) / (8 * COLUMNS as i64) + 10_000;
    let file = file_of(rows, 1 << 20, 20_000);
    assert!(file.len() > 1 << 30, "{} bytes", file.len());
    two_of_twenty(file).await;
}

/// Reads `c00` and `c01` of `file` (a file of [`file_of`]): the footer in two requests at
/// once, then one request per row group for its two adjacent chunks, about a tenth of the
/// file in all.
async fn two_of_twenty(file: Bytes) {
    let (store, path) = in_memory(&file, "data/twenty.parquet").await;
    let read = Read {
        projection: Some(ProjectionMask::columns(["c00", "c01"])),
        ..Read::default()
    };
    let (batches, open, fetched) = remote_batches(reader(&store, &path), &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    let rows = FileReader::open(file.clone())
        .unwrap()
        .metadata()
        .num_rows();
    assert_eq!(
        batches.iter().map(RecordBatch::num_rows).sum::<usize>() as u64,
        rows
    );

    // The footer: the last 64 KiB and the first 4 bytes, at once.
    assert_eq!(open.len(), 2, "{open:?}");
    let size = file.len() as u64;
    assert!(open.contains(&Request {
        range: size - (64 << 10)..size,
        head: false,
        bytes: 64 << 10
    }));
    assert!(open.iter().any(|r| r.range == (0..4)));
    // The chunks: the two adjacent chunks of each row group in one request (the other
    // 18 columns between row groups are a gap of more than 1 MiB).
    let row_groups = FileReader::open(file.clone()).unwrap().num_row_groups();
    assert_eq!(fetched.len(), row_groups, "{fetched:?}");
    let chunks = chunk_ranges(&file, &[0, 1]);
    let wanted: u64 = chunks.iter().map(|r| r.end - r.start).sum();
    assert_eq!(bytes(&fetched), wanted);
    let total = bytes(&open) + bytes(&fetched);
    let fraction = total as f64 / size as f64;
    assert!((0.09..0.15).contains(&fraction), "{total} of {size} bytes");
}

#[tokio::test]
async fn a_local_filesystem_store_reads_the_same() {
    let file = file();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("object_store");
    std::fs::create_dir_all(&dir).unwrap();
    let local: Arc<dyn ObjectStore> = Arc::new(LocalFileSystem::new_with_prefix(&dir).unwrap());
    let store = Counting::new(local);
    let path = Path::from("twenty.parquet");
    store.put(&path, file.clone().into()).await.unwrap();
    store.take();

    for read in [
        Read {
            projection: Some(ProjectionMask::columns(["c03", "c11"])),
            ..Read::default()
        },
        Read {
            projection: Some(ProjectionMask::columns(["c05"])),
            predicate: Some(Predicate::compare("c00", Op::Ge, 90_000)),
            ..Read::default()
        },
        Read::default(),
    ] {
        let (batches, open, fetched) = remote_batches(reader(&store, &path), &store, &read).await;
        assert_eq!(batches, sync_batches(&file, &read));
        assert_eq!(open.len(), 2);
        assert!(bytes(&open) + bytes(&fetched) <= file.len() as u64 + 4 + (64 << 10));
    }
    std::fs::remove_file(dir.join("twenty.parquet")).unwrap();
}

#[tokio::test]
async fn coalescing_follows_the_gap_and_the_request_size() {
    let file = file();
    let (store, path) = in_memory(&file, "coalesce.parquet").await;
    let read = Read {
        projection: Some(ProjectionMask::columns(["c00", "c10"])),
        ..Read::default()
    };
    let expected = sync_batches(&file, &read);
    // Default: c00 and c10 of a row group are 1.8 MB apart, more than 1 MiB.
    let (batches, _, fetched) = remote_batches(reader(&store, &path), &store, &read).await;
    assert_eq!(batches, expected);
    assert_eq!(fetched.len(), 8);
    // A gap of 16 MiB: one request for all (within 64 MiB).
    let wide = reader(&store, &path).with_coalesce(16 << 20, 64 << 20);
    let (batches, _, fetched) = remote_batches(wide, &store, &read).await;
    assert_eq!(batches, expected);
    assert_eq!(fetched.len(), 1);
    // The same gap, but requests of at most 1 MiB: no two chunks fit together.
    let small = reader(&store, &path)
        .with_coalesce(16 << 20, 1 << 20)
        .with_concurrency(3);
    let (batches, _, fetched) = remote_batches(small, &store, &read).await;
    assert_eq!(batches, expected);
    assert_eq!(fetched.len(), 8);
    // No gap at all: only touching chunks merge (c00 and c01 are neighbours).
    let read = Read {
        projection: Some(ProjectionMask::columns(["c00", "c01", "c10"])),
        ..Read::default()
    };
    let exact = reader(&store, &path).with_coalesce(0, 64 << 20);
    let (batches, _, fetched) = remote_batches(exact, &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    assert_eq!(fetched.len(), 8);
}

#[tokio::test]
async fn a_row_selection_fetches_its_pages_only() {
    let file = file();
    let (store, path) = in_memory(&file, "selection.parquet").await;
    // The tail holds the footer only: the page index is fetched apart.
    let object = reader(&store, &path).with_footer_hint(footer_len(&file));
    let all = Read {
        projection: Some(ProjectionMask::columns(["c05"])),
        ..Read::default()
    };
    let (_, _, whole) = remote_batches(object.clone(), &store, &all).await;
    assert_eq!(whole.len(), 4);

    // Rows 1000..3000 and 60000..60010: pages 0 and 1 of row group 0, page 4 of row
    // group 2.
    let read = Read {
        selection: Some(RowSelection::from_ranges([1000..3000, 60_000..60_010])),
        ..all
    };
    let (batches, _, fetched) = remote_batches(object, &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    assert_eq!(
        batches.iter().map(RecordBatch::num_rows).sum::<usize>(),
        2010
    );
    // The offset indexes of row groups 0 and 2 (one request), then the pages (one
    // request per row group).
    let span = page_index_span(&file);
    let index: Vec<_> = fetched
        .iter()
        .filter(|r| overlaps(&r.range, &span))
        .collect();
    assert_eq!(index.len(), 1, "{fetched:?}");
    assert_eq!(fetched.len(), 3, "{fetched:?}");
    let page = (PAGE_ROWS * 8) as u64;
    let data = bytes(&fetched) - index[0].bytes;
    assert!(data >= 3 * page && data < 4 * page, "{data} bytes of pages");
    assert!(bytes(&fetched) < bytes(&whole) / 10);
}

#[tokio::test]
async fn the_page_index_is_fetched_once() {
    let file = file();
    let (store, path) = in_memory(&file, "index.parquet").await;
    let object = reader(&store, &path).with_footer_hint(footer_len(&file));
    // Row group 3 holds rows 75000..100000; its pages of rows 90000.. are 6 to 9.
    let read = Read {
        projection: Some(ProjectionMask::columns(["c00", "c01"])),
        predicate: Some(Predicate::compare("c00", Op::Ge, 90_000)),
        ..Read::default()
    };
    let (batches, open, fetched) = remote_batches(object, &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    assert_eq!(
        batches.iter().map(RecordBatch::num_rows).sum::<usize>(),
        10_000
    );
    assert_eq!(open.len(), 2);
    let span = page_index_span(&file);
    assert!(!open.iter().any(|r| overlaps(&r.range, &span)));
    let index = fetched.iter().filter(|r| overlaps(&r.range, &span)).count();
    assert_eq!(index, 1, "{fetched:?}");
    // Then pages 6..10 of both columns, 120 kB apart: one request.
    assert_eq!(fetched.len(), 2, "{fetched:?}");
    let page = (PAGE_ROWS * 8) as u64;
    let data = fetched.iter().find(|r| !overlaps(&r.range, &span)).unwrap();
    assert!(data.bytes >= 8 * page && data.bytes < 15 * page, "{data:?}");
}

#[tokio::test]
async fn a_limit_fetches_the_first_pages() {
    let file = file();
    let (store, path) = in_memory(&file, "limit.parquet").await;
    let read = Read {
        projection: Some(ProjectionMask::columns(["c07"])),
        limit: Some(10),
        ..Read::default()
    };
    let object = reader(&store, &path).with_footer_hint(footer_len(&file));
    let (batches, _, fetched) = remote_batches(object, &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    // The offset index of row group 0, and one page.
    assert_eq!(fetched.len(), 2, "{fetched:?}");
    assert!(bytes(&fetched) < 2 * (PAGE_ROWS * 8) as u64);
}

#[tokio::test]
async fn bloom_filters_are_fetched_with_the_page_index() {
    let file = file();
    let (store, path) = in_memory(&file, "bloom.parquet").await;
    let object = reader(&store, &path).with_footer_hint(footer_len(&file));
    // The filters of `c02`, one after each row group (4 MB apart), the last one next to
    // the page index.
    let meta = FileReader::open(file.clone()).unwrap();
    let filters: Vec<Range<u64>> = (0..4)
        .map(|g| {
            let chunk = meta.metadata().column_chunk_metadata(g, 2).unwrap();
            let offset = chunk.bloom_filter_offset().unwrap();
            offset..offset + u64::from(chunk.bloom_filter_length().unwrap())
        })
        .collect();
    let span = page_index_span(&file);
    let chunks = chunk_ranges(&file, &[0, 1, 2]);
    // A value of row 30000 (row group 1), and one next to it that no row has (inside
    // every row group's bounds, so that only the filters rule it out).
    let present = value(2, 30_000);
    for (value, rows) in [(present, 1), (present + 1, 0)] {
        let read = Read {
            projection: Some(ProjectionMask::columns(["c00"])),
            predicate: Some(Predicate::compare("c02", Op::Eq, value)),
            ..Read::default()
        };
        let (batches, _, fetched) = remote_batches(object.clone(), &store, &read).await;
        assert_eq!(batches, sync_batches(&file, &read));
        let n = batches.iter().map(RecordBatch::num_rows).sum::<usize>();
        assert_eq!(n, rows);
        // The four filters (the last with the page index) at once, then the chunks of
        // `c00` to `c02` of row group 1 when it holds the value.
        let index: Vec<_> = fetched
            .iter()
            .filter(|r| filters.iter().any(|f| overlaps(&r.range, f)))
            .collect();
        assert_eq!(index.len(), 4, "{fetched:?}");
        assert!(index.iter().any(|r| overlaps(&r.range, &span)));
        let data: Vec<_> = fetched.iter().filter(|r| !index.contains(r)).collect();
        if rows == 0 {
            assert!(data.is_empty(), "{fetched:?}");
        } else {
            let group_1 = chunks[3].start..chunks[5].end;
            assert_eq!(data.len(), 1);
            assert_eq!(data[0].range, group_1);
        }
    }
}

#[tokio::test]
async fn a_short_footer_hint_costs_one_more_request() {
    let file = file();
    let (store, path) = in_memory(&file, "hint.parquet").await;
    let read = Read {
        projection: Some(ProjectionMask::columns(["c04"])),
        ..Read::default()
    };
    let expected = sync_batches(&file, &read);
    let (batches, open, _) = remote_batches(reader(&store, &path), &store, &read).await;
    assert_eq!(batches, expected);
    assert_eq!(open.len(), 2);
    for hint in [0, 16, footer_len(&file) - 1] {
        let object = reader(&store, &path).with_footer_hint(hint);
        let (batches, open, _) = remote_batches(object, &store, &read).await;
        assert_eq!(batches, expected);
        assert_eq!(open.len(), 3, "hint {hint}: {open:?}");
        let size = file.len() as u64;
        let footer_start = size - footer_len(&file) as u64;
        assert!(open.iter().any(|r| r.range.start == footer_start));
    }
    let exact = reader(&store, &path).with_footer_hint(footer_len(&file));
    let (_, open, _) = remote_batches(exact, &store, &read).await;
    assert_eq!(open.len(), 2);
}

#[tokio::test]
async fn a_known_size_fetches_with_bounded_ranges() {
    let file = file();
    let (store, path) = in_memory(&file, "sized.parquet").await;
    let object = reader(&store, &path).with_file_size(file.len() as u64);
    let read = Read {
        projection: Some(ProjectionMask::columns(["c19"])),
        ..Read::default()
    };
    let (batches, open, _) = remote_batches(object, &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    assert_eq!(open.len(), 2);
}

#[tokio::test]
async fn a_store_without_suffix_requests_is_asked_the_size() {
    let file = file();
    let store = Arc::new(Counting {
        inner: Arc::new(InMemory::new()),
        log: Mutex::new(Vec::new()),
        no_suffix: true,
    });
    let path = Path::from("azure.parquet");
    store.put(&path, file.clone().into()).await.unwrap();
    store.take();
    let read = Read {
        projection: Some(ProjectionMask::columns(["c08"])),
        ..Read::default()
    };
    let (batches, open, _) = remote_batches(reader(&store, &path), &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    // A HEAD and the tail, with the first 4 bytes beside them.
    assert_eq!(open.len(), 3, "{open:?}");
    assert_eq!(open.iter().filter(|r| r.head).count(), 1);
}

#[tokio::test]
async fn a_small_file_is_fetched_whole_at_once() {
    let a: ArrayRef = Arc::new(Int64Array::from_iter_values(0..1000));
    let batch = RecordBatch::try_from_iter([("a", a)]).unwrap();
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
    let file = Bytes::from(writer.into_inner());
    let (store, path) = in_memory(&file, "small.parquet").await;
    let read = Read {
        predicate: Some(Predicate::compare("a", Op::Lt, 10)),
        ..Read::default()
    };
    let (batches, open, fetched) = remote_batches(reader(&store, &path), &store, &read).await;
    assert_eq!(batches, sync_batches(&file, &read));
    assert_eq!(open.len(), 2);
    assert!(fetched.is_empty(), "{fetched:?}");
}

#[tokio::test]
async fn what_is_not_parquet_is_an_error() {
    let file = file();
    let half = file.slice(..file.len() / 2);
    let no_head = {
        let mut v = file.to_vec();
        v[0] = b'X';
        Bytes::from(v)
    };
    let mut footer_too_long = file.to_vec();
    let n = footer_too_long.len();
    footer_too_long[n - 8..n - 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let text = Bytes::from("not a Parquet file at all, just some text. ".repeat(100));
    for (name, bytes) in [
        ("half", half),
        ("no_head", no_head),
        ("footer_too_long", Bytes::from(footer_too_long)),
        ("text", text),
        ("tiny", Bytes::from_static(b"PAR1")),
        ("empty", Bytes::new()),
    ] {
        let (store, path) = in_memory(&bytes, name).await;
        for hint in [16, 64 << 10] {
            let object = reader(&store, &path).with_footer_hint(hint);
            let err = object.builder().await.unwrap_err();
            assert!(!err.to_string().is_empty(), "{name}");
            assert!(store.take().len() <= 3, "{name}");
        }
    }
    let store = Counting::new(Arc::new(InMemory::new()));
    let missing = reader(&store, &Path::from("missing.parquet"));
    let err = missing.builder().await.unwrap_err();
    assert!(err.to_string().contains("not found"), "{err}");
}

#[tokio::test]
async fn bad_arguments_are_errors() {
    let file = file();
    let (store, path) = in_memory(&file, "arguments.parquet").await;
    let builder = reader(&store, &path).builder().await.unwrap();
    let err = builder
        .with_row_groups(vec![4])
        .build()
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("row group 4"), "{err}");
    let builder = reader(&store, &path).builder().await.unwrap();
    let err = builder
        .with_projection(ProjectionMask::columns(["nope"]))
        .build()
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("nope"), "{err}");
    let builder = reader(&store, &path).builder().await.unwrap();
    let predicate = Predicate::compare("nope", Op::Eq, 1);
    assert!(builder.with_predicate(predicate).build().await.is_err());
}

#[tokio::test]
async fn the_fetched_builder_takes_the_synchronous_options() {
    let file = file();
    let (store, path) = in_memory(&file, "parallel.parquet").await;
    let builder = reader(&store, &path)
        .builder()
        .await
        .unwrap()
        .with_projection(ProjectionMask::columns(["c01", "c02"]))
        .with_row_groups(vec![3, 1])
        .with_batch_size(7000);
    assert_eq!(builder.schema().fields().len(), COLUMNS);
    assert_eq!(builder.metadata().row_groups().len(), 4);
    let fetched = builder.fetch().await.unwrap().with_parallelism(2);
    let batches: Vec<RecordBatch> = fetched.build().unwrap().collect::<Result<_, _>>().unwrap();
    let expected: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_projection(ProjectionMask::columns(["c01", "c02"]))
        .with_row_groups(vec![3, 1])
        .with_batch_size(7000)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(batches, expected);
}

#[tokio::test]
async fn a_row_filter_and_an_offset_read_their_columns() {
    let file = file();
    let (store, path) = in_memory(&file, "filter.parquet").await;
    let even = || {
        RowFilter::new(ProjectionMask::columns(["c00"]), |b: RecordBatch| {
            let ids = b.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
            Ok(ids
                .iter()
                .map(|v| v.map(|v| v % 2 == 0))
                .collect::<BooleanArray>())
        })
    };
    let remote: Vec<RecordBatch> = reader(&store, &path)
        .builder()
        .await
        .unwrap()
        .with_projection(ProjectionMask::columns(["c09"]))
        .with_row_groups(vec![2])
        .with_row_filter(even())
        .with_offset(100)
        .build()
        .await
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let fetched = store.take();
    // The footer, then the chunks of c00 and c09 of row group 2 (1.6 MB apart: two
    // requests).
    let chunks = chunk_ranges(&file, &[0, 9]);
    assert_eq!(fetched.len(), 4, "{fetched:?}");
    for chunk in &chunks[4..6] {
        assert!(fetched.iter().any(|r| r.range == *chunk), "{fetched:?}");
    }
    let local: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_projection(ProjectionMask::columns(["c09"]))
        .with_row_groups(vec![2])
        .with_row_filter(even())
        .with_offset(100)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(remote, local);
    assert_eq!(
        remote.iter().map(RecordBatch::num_rows).sum::<usize>(),
        12_400
    );
}

#[test]
fn the_futures_are_send() {
    fn send<T: Send>(_: &T) {}
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let object = ParquetObjectReader::new(store, Path::from("x"));
    send(&build(object));
}

async fn build(
    object: ParquetObjectReader,
) -> parquet_arrow::Result<parquet_arrow::ParquetRecordBatchReader<parquet_arrow::FetchedBytes>> {
    object.builder().await?.build().await
}
