//! Parquet files in object stores: the bytes a read needs fetched ahead, with coalesced
//! range requests, then decoded by the synchronous reader.

mod fetched;
mod plan;

use std::io;
use std::ops::Range;
use std::sync::Arc;

use ::object_store::path::Path;
use ::object_store::{GetOptions, GetRange, OBJECT_STORE_COALESCE_DEFAULT, ObjectStore};
use arrow_schema::SchemaRef;
use futures_util::stream::{self, StreamExt as _};
use parquet_file::{
    Bytes, FileMetaData, FileReader, Predicate, PredicateExt as _, ReadOptions, RowSelection,
};

use crate::error::{Error, Result};
use crate::read::Settings;
use crate::{
    ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder, ProjectionMask, RowFilter,
    parquet_to_arrow_schema,
};
pub use fetched::FetchedBytes;

/// The bytes of the suffix request for the footer unless set: enough for the footer of
/// most files, and for the whole of a small one.
const DEFAULT_FOOTER_HINT: u64 = 64 << 10;

/// The largest request made by merging ranges unless set.
const DEFAULT_MAX_REQUEST: u64 = 64 << 20;

/// The requests run at once unless set (as `object_store`'s `get_ranges` runs).
const DEFAULT_CONCURRENCY: usize = 10;

/// The rounds of requests made for bytes that planning the read turned out to need and
/// that were not foreseen (a Bloom filter whose length the metadata does not give).
const MAX_EXTRA_ROUNDS: usize = 4;

/// A Parquet file in an object store (the `object_store` feature), and how to fetch from
/// it. The bytes a read needs are fetched first, with few large requests, and then
/// decoded from memory by the synchronous [`ParquetRecordBatchReader`].
///
/// 1. [`ParquetObjectReader::builder`] fetches the footer: the last
///    [`footer_hint`](ParquetObjectReader::with_footer_hint) bytes with one suffix request,
///    and the first 4 bytes (the magic number) at the same time; a third request follows
///    only when the footer is longer than the hint.
/// 2. [`ParquetObjectBuilder::build`] fetches, when a row selection or predicate asks for
///    it, the page index (column and offset indexes) and the Bloom filters of the row
///    groups that the statistics keep, in one set of requests; then the column chunks of
///    the projected columns of the row groups read, or only the pages holding selected
///    rows (and the dictionary page) where a chunk has an offset index.
/// 3. Ranges are coalesced: two are fetched with one request when the gap between them is
///    at most [`coalesce_gap`](ParquetObjectReader::with_coalesce) bytes and the request
///    stays within `max_request` bytes; up to
///    [`concurrency`](ParquetObjectReader::with_concurrency) requests run at once.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, Int64Array, RecordBatch};
/// use object_store::{ObjectStore, ObjectStoreExt as _, memory::InMemory, path::Path};
/// use parquet_arrow::{ArrowWriter, ParquetObjectReader, ProjectionMask};
/// use parquet_file::{Op, Predicate};
///
/// let a: ArrayRef = Arc::new(Int64Array::from_iter_values(0..10_000));
/// let b: ArrayRef = Arc::new(Int64Array::from_iter_values((0..10_000).map(|i| i * 2)));
/// let batch = RecordBatch::try_from_iter([("a", a), ("b", b)])?;
/// let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), None)?;
/// writer.write(&batch)?;
/// writer.finish()?;
///
/// let runtime = tokio::runtime::Builder::new_current_thread().build()?;
/// runtime.block_on(async {
///     let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
///     let path = Path::from("data/numbers.parquet");
///     store.put(&path, writer.into_inner().into()).await?;
///
///     let reader = ParquetObjectReader::new(store, path)
///         .with_footer_hint(64 << 10)
///         .with_coalesce(1 << 20, 64 << 20);
///     let batches = reader
///         .builder() // fetches the footer
///         .await?
///         .with_projection(ProjectionMask::columns(["b"]))
///         .with_predicate(Predicate::compare("a", Op::Lt, 100))
///         .build() // fetches the page index, then the pages read
///         .await?;
///     let mut rows = 0;
///     for batch in batches {
///         rows += batch?.num_rows(); // decoded from memory
///     }
///     assert_eq!(rows, 100);
///     Ok::<_, Box<dyn std::error::Error>>(())
/// })
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ParquetObjectReader {
    store: Arc<dyn ObjectStore>,
    path: Path,
    file_size: Option<u64>,
    footer_hint: u64,
    coalesce_gap: u64,
    max_request: u64,
    concurrency: usize,
    options: ReadOptions,
}

impl ParquetObjectReader {
    /// The file at `path` in `store`, fetched with the default settings: a footer hint of
    /// 64 KiB, ranges merged across gaps of up to 1 MiB into requests of up to 64 MiB,
    /// 10 requests at once, and the default [`ReadOptions`].
    pub fn new(store: Arc<dyn ObjectStore>, path: Path) -> Self {
        Self {
            store,
            path,
            file_size: None,
            footer_hint: DEFAULT_FOOTER_HINT,
            coalesce_gap: OBJECT_STORE_COALESCE_DEFAULT,
            max_request: DEFAULT_MAX_REQUEST,
            concurrency: DEFAULT_CONCURRENCY,
            options: ReadOptions::new(),
        }
    }

    /// The bytes fetched from the end of the file to hold its footer (at least 8; 64 KiB
    /// by default). A footer longer than this costs one more request.
    #[must_use]
    pub fn with_footer_hint(mut self, bytes: usize) -> Self {
        self.footer_hint = (bytes as u64).max(8);
        self
    }

    /// Ranges whose gap is at most `gap` bytes are fetched with one request while it
    /// stays within `max_request` bytes (1 MiB and 64 MiB by default, the gap being
    /// `object_store`'s [`OBJECT_STORE_COALESCE_DEFAULT`]). A single range longer than
    /// `max_request` is still one request.
    #[must_use]
    pub fn with_coalesce(mut self, gap: u64, max_request: u64) -> Self {
        self.coalesce_gap = gap;
        self.max_request = max_request;
        self
    }

    /// At most `requests` requests at once (at least 1; 10 by default).
    #[must_use]
    pub fn with_concurrency(mut self, requests: usize) -> Self {
        self.concurrency = requests.max(1);
        self
    }

    /// The size of the object, when known (from a listing, say): the footer is then
    /// fetched with a bounded range. Without it a suffix request is made, or, on a store
    /// that has none (Azure), a HEAD request before a bounded one.
    #[must_use]
    pub fn with_file_size(mut self, bytes: u64) -> Self {
        self.file_size = Some(bytes);
        self
    }

    /// How the file is read: checksums, decryption keys, limits.
    #[must_use]
    pub fn with_read_options(mut self, options: ReadOptions) -> Self {
        self.options = options;
        self
    }

    /// Fetches and reads the footer.
    ///
    /// # Errors
    ///
    /// A request that fails (an object that does not exist), an object that is not a
    /// Parquet file, or a footer that does not read.
    pub async fn builder(self) -> Result<ParquetObjectBuilder> {
        let (tail, head) = futures_util::future::join(self.tail(), self.get(0..4)).await;
        let (size, start, tail) = tail?;
        let source = FetchedBytes::new(size, self.path.to_string());
        source.insert(start, &tail);
        if start > 0 {
            // The magic number that parquet-file checks at the start. (In a smaller
            // object the tail holds it, or the footer check fails.)
            source.insert(0, &head?);
        }
        if let Some(rest) = footer_rest(&tail, start, size, self.options.limits().max_footer_size())
        {
            let bytes = self.get(rest.clone()).await?;
            source.insert(rest.start, &bytes);
        }
        let reader = FileReader::with_options(source, self.options.clone())?;
        let key_value = Some(reader.metadata().key_value_metadata());
        let schema = Arc::new(parquet_to_arrow_schema(reader.schema(), key_value)?);
        Ok(ParquetObjectBuilder {
            object: self,
            reader,
            schema,
            settings: Settings::default(),
        })
    }

    /// The object's size, where the tail fetched starts, and the tail.
    async fn tail(&self) -> Result<(u64, u64, Bytes)> {
        let size = if let Some(size) = self.file_size {
            size
        } else if let Some(tail) = self.suffix().await? {
            return Ok(tail);
        } else {
            let head = GetOptions::new().with_head(true);
            let result = self.store.get_opts(&self.path, head).await;
            result.map_err(store_error)?.meta.size
        };
        let start = size.saturating_sub(self.footer_hint);
        let tail = if start < size {
            self.get(start..size).await?
        } else {
            Bytes::new()
        };
        Ok((size, start, tail))
    }

    /// As [`tail`](Self::tail), with a suffix request; `None` from a store that has none.
    async fn suffix(&self) -> Result<Option<(u64, u64, Bytes)>> {
        let suffix = GetOptions::new().with_range(Some(GetRange::Suffix(self.footer_hint)));
        let result = match self.store.get_opts(&self.path, suffix).await {
            Ok(result) => result,
            Err(::object_store::Error::NotSupported { .. }) => return Ok(None),
            Err(e) => return Err(store_error(e)),
        };
        let (size, range) = (result.meta.size, result.range.clone());
        let bytes = result.bytes().await.map_err(store_error)?;
        if range.end != size || bytes.len() as u64 != range.end - range.start {
            return Err(short_read(&self.path, &range, bytes.len()));
        }
        Ok(Some((size, range.start, bytes)))
    }

    /// The bytes of `range`, all of them.
    async fn get(&self, range: Range<u64>) -> Result<Bytes> {
        let options = GetOptions::new().with_range(Some(range.clone()));
        let result = self.store.get_opts(&self.path, options).await;
        let bytes = result.map_err(store_error)?.bytes().await;
        let bytes = bytes.map_err(store_error)?;
        if bytes.len() as u64 != range.end - range.start {
            return Err(short_read(&self.path, &range, bytes.len()));
        }
        Ok(bytes)
    }

    /// Fetches into `source` the parts of `ranges` it does not hold, coalesced.
    async fn fetch(&self, source: &FetchedBytes, ranges: Vec<Range<u64>>) -> Result<()> {
        let mut missing = Vec::new();
        for range in ranges {
            source.missing(range, &mut missing);
        }
        let requests = plan::coalesce(missing, self.coalesce_gap, self.max_request);
        let mut fetched = stream::iter(requests)
            .map(|range| async move { Ok::<_, Error>((range.start, self.get(range).await?)) })
            .buffer_unordered(self.concurrency);
        while let Some(result) = fetched.next().await {
            let (start, bytes) = result?;
            source.insert(start, &bytes);
        }
        Ok(())
    }
}

/// The part of the footer that the tail fetched from `start` does not hold, when the
/// tail ends with a magic number and a footer length that fits the file and the limit.
fn footer_rest(tail: &Bytes, start: u64, size: u64, max_footer: u64) -> Option<Range<u64>> {
    let end = tail.len().checked_sub(8)?;
    let last = tail.get(end..)?;
    if last[4..] != *b"PAR1" && last[4..] != *b"PARE" {
        return None;
    }
    let footer_len = u64::from(u32::from_le_bytes([last[0], last[1], last[2], last[3]]));
    let footer_start = size.checked_sub(8 + footer_len).filter(|&s| s >= 4)?;
    (footer_len <= max_footer && footer_start < start).then_some(footer_start..start)
}

fn store_error(error: ::object_store::Error) -> Error {
    let kind = match error {
        ::object_store::Error::NotFound { .. } => io::ErrorKind::NotFound,
        _ => io::ErrorKind::Other,
    };
    Error::Parquet(io::Error::new(kind, error).into())
}

fn short_read(path: &Path, range: &Range<u64>, got: usize) -> Error {
    let message = format!(
        "{path}: {got} bytes for the range {}..{} ({} bytes)",
        range.start,
        range.end,
        range.end - range.start
    );
    Error::Parquet(io::Error::new(io::ErrorKind::UnexpectedEof, message).into())
}

/// Chooses what to read of a file in an object store, as
/// [`ParquetRecordBatchReaderBuilder`] does of a local one, and fetches it: the footer
/// is read; [`build`](Self::build) fetches the rest and gives the same reader as for a
/// local file, over the bytes fetched.
pub struct ParquetObjectBuilder {
    object: ParquetObjectReader,
    reader: FileReader<FetchedBytes>,
    schema: SchemaRef,
    settings: Settings,
}

impl std::fmt::Debug for ParquetObjectBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetObjectBuilder")
            .field("object", &self.object)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl ParquetObjectBuilder {
    /// The Arrow schema of the whole file (before projection).
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &Arc<FileMetaData> {
        self.reader.metadata()
    }

    /// The Parquet schema of the file.
    pub fn parquet_schema(&self) -> &Arc<parquet_file::Schema> {
        self.reader.schema()
    }

    /// The bytes fetched so far.
    pub fn fetched(&self) -> &FetchedBytes {
        self.reader.source()
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_batch_size`].
    #[must_use]
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.settings.batch_size = batch_size.max(1);
        self
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_projection`]: only the chunks of these
    /// columns (and of the predicate's and row filter's) are fetched.
    #[must_use]
    pub fn with_projection(mut self, projection: ProjectionMask) -> Self {
        self.settings.projection = projection;
        self
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_row_groups`]: only these row groups
    /// are fetched.
    #[must_use]
    pub fn with_row_groups(mut self, row_groups: Vec<usize>) -> Self {
        self.settings.row_groups = Some(row_groups);
        self
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_row_selection`]: where a chunk has an
    /// offset index, only the pages holding selected rows are fetched.
    #[must_use]
    pub fn with_row_selection(mut self, selection: RowSelection) -> Self {
        self.settings.selection = Some(selection);
        self
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_predicate`]: the row groups its
    /// statistics and Bloom filters rule out, and the pages its page index rules out, are
    /// not fetched.
    #[must_use]
    pub fn with_predicate(mut self, predicate: Predicate) -> Self {
        self.settings.predicate = Some(predicate);
        self
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_row_filter`].
    #[must_use]
    pub fn with_row_filter(mut self, filter: RowFilter) -> Self {
        self.settings.filter = Some(filter);
        self
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_limit`]: without a predicate or row
    /// filter, the pages past the limit are not fetched.
    #[must_use]
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.settings.limit = Some(limit);
        self
    }

    /// As [`ParquetRecordBatchReaderBuilder::with_offset`].
    #[must_use]
    pub fn with_offset(mut self, offset: usize) -> Self {
        self.settings.offset = offset;
        self
    }

    /// Fetches what the read needs and returns the builder of the reader, set as this one
    /// (to set what only it has, such as
    /// [`with_parallelism`](ParquetRecordBatchReaderBuilder::with_parallelism)).
    ///
    /// # Errors
    ///
    /// A request that fails, a projection, row group or predicate column the file does
    /// not have, or a page index or Bloom filter that does not read.
    pub async fn fetch(self) -> Result<ParquetRecordBatchReaderBuilder<FetchedBytes>> {
        let Self {
            object,
            reader,
            mut settings,
            ..
        } = self;
        let parquet = Arc::clone(reader.schema());
        let read = settings.columns(&parquet)?;
        let row_groups = settings.row_groups(reader.num_row_groups())?;
        let columns = flagged(&read.read);
        let fetch = Fetch {
            object: &object,
            reader: &reader,
            row_groups: &row_groups,
            columns: &columns,
            selection: settings.selection.as_ref(),
            predicate: settings.predicate.as_ref(),
        };
        let offset_limit = settings.offset_limit();
        let trims = settings.offset > 0 || settings.limit.is_some();
        if settings.selection.is_some()
            || settings.predicate.is_some()
            || (offset_limit.is_some() && trims)
        {
            let predicate_columns = flagged(&settings.predicate_columns(&parquet)?);
            fetch.index(&predicate_columns, offset_limit).await?;
        }
        fetch.data(offset_limit).await?;

        settings.row_groups = Some(row_groups);
        Ok(ParquetRecordBatchReaderBuilder::new_with_reader(reader)?.with_settings(settings))
    }

    /// Fetches what the read needs and returns the reader, which decodes from memory.
    ///
    /// # Errors
    ///
    /// As [`fetch`](Self::fetch).
    pub async fn build(self) -> Result<ParquetRecordBatchReader<FetchedBytes>> {
        self.fetch().await?.build()
    }
}

/// The positions of the flags set.
fn flagged(flags: &[bool]) -> Vec<usize> {
    flags
        .iter()
        .enumerate()
        .filter_map(|(c, &f)| f.then_some(c))
        .collect()
}

/// What a read fetches, and from where.
struct Fetch<'a> {
    object: &'a ParquetObjectReader,
    reader: &'a FileReader<FetchedBytes>,
    row_groups: &'a [usize],
    columns: &'a [usize],
    selection: Option<&'a RowSelection>,
    predicate: Option<&'a Predicate>,
}

impl Fetch<'_> {
    /// Fetches the page index (the offset index of the columns read, the column index of
    /// `predicate_columns`) and the Bloom filters that the predicate may read, of the row
    /// groups that the selection, offset and limit, and the predicate's statistics keep,
    /// in one set of requests.
    async fn index(
        &self,
        predicate_columns: &[usize],
        offset_limit: Option<(usize, Option<usize>)>,
    ) -> Result<()> {
        let reader = self.reader;
        // Without the predicate, planning reads nothing.
        let plans = crate::read::plan(reader, self.row_groups, self.selection, None, offset_limit)?;
        let mut candidates = plans.iter().map(|p| p.row_group).collect::<Vec<_>>();
        if let Some(predicate) = self.predicate {
            let statistics = plan::statistics_only(predicate);
            let mut kept = Vec::with_capacity(candidates.len());
            for g in candidates {
                if statistics.might_match(reader, g)? {
                    kept.push(g);
                }
            }
            candidates = kept;
        }
        let mut ranges = Vec::new();
        plan::index_ranges(
            reader,
            &candidates,
            self.columns,
            predicate_columns,
            &mut ranges,
        )?;
        if let Some(predicate) = self.predicate {
            plan::bloom_ranges(reader, &candidates, predicate, &mut ranges);
        }
        self.object.fetch(reader.source(), ranges).await
    }

    /// Fetches the column chunks (or pages) read, planned as the reader will plan them:
    /// what planning reads and was not fetched before is fetched, and planning done again.
    async fn data(&self, offset_limit: Option<(usize, Option<usize>)>) -> Result<()> {
        let (reader, source) = (self.reader, self.reader.source());
        let mut rounds = 0;
        loop {
            source.take_misses();
            let planned = crate::read::plan(
                reader,
                self.row_groups,
                self.selection,
                self.predicate,
                offset_limit,
            )
            .and_then(|plans| plan::data_ranges(reader, &plans, self.columns));
            match planned {
                Ok(ranges) => return self.object.fetch(source, ranges).await,
                Err(e) => {
                    let misses = source.take_misses();
                    if misses.is_empty() || rounds == MAX_EXTRA_ROUNDS {
                        return Err(e);
                    }
                    rounds += 1;
                    self.object.fetch(source, misses).await?;
                }
            }
        }
    }
}
