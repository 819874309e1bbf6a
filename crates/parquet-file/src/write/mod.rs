//! Writing files: [`FileWriter`] takes column batches (or rows, shredded into them),
//! encodes and compresses pages as they fill, and flushes a row group at its limits, so
//! that it holds about one row group of encoded pages at a time (and the buffers of the
//! row group before, which the next one's pages reuse).

mod column;
mod encryption;
mod options;
mod statistics;

use std::borrow::Cow;
use std::sync::Arc;

use bytes::Bytes;
use parquet_crypto::{Module, ModuleCipher};
use parquet_thrift as thrift;

pub use encryption::EncryptionOptions;
pub use options::{
    BloomFilterOptions, CREATED_BY, ColumnOptions, PageVersion, StatisticsLevel, WriterOptions,
};

use self::column::{ColumnWriter, FinishedChunk, Position};
use self::encryption::{ColumnCrypto, FileEncryption};
use crate::column::ColumnBatch;
use crate::error::{Crypto, Error, ErrorKind, Result};
use crate::io::Sink;
use crate::metadata::{FileMetaData, MAGIC, MAGIC_ENCRYPTED, SortingColumn};
use crate::record::{Row, Shredder};
use crate::schema::{ColumnDescriptor, Repetition, Schema};

/// Records written to every column between checks of the row group's size.
const STEP: usize = 8192;

/// `values[range]`, or nothing for a range outside (never, for ranges of a checked batch).
pub(crate) fn slice<T>(values: &[T], range: std::ops::Range<usize>) -> &[T] {
    values.get(range).unwrap_or_default()
}

/// The cipher of a column's modules, and the row group they belong to (for the AAD).
pub(crate) struct Cipher<'a> {
    pub cipher: &'a ModuleCipher,
    pub row_group: usize,
}

impl Cipher<'_> {
    /// Appends `plaintext` encrypted as `module`.
    pub(crate) fn encrypt(
        &self,
        module: Module,
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        self.cipher
            .encrypt(module, plaintext, out)
            .crypto("encrypting a module")
    }
}

/// Whether the writer can take more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Open,
    Finished,
    Failed,
}

/// The page indexes of a column chunk, written after the last row group.
struct ChunkIndexes {
    column_index: Option<thrift::ColumnIndex<'static>>,
    offset_index: thrift::OffsetIndex,
}

/// Writes a Parquet file to a [`Sink`].
///
/// Data goes in as [`ColumnBatch`]es, one per leaf column and all of the same number of
/// records ([`write_batches`](Self::write_batches)), or as [`Row`]s
/// ([`write_row`](Self::write_row)), shredded into such batches. Pages are encoded and compressed
/// as they fill; a row group is written out when it reaches the row or byte limit of the
/// [`WriterOptions`], or when [`flush_row_group`](Self::flush_row_group) is called;
/// [`finish`](Self::finish) writes the page indexes and the footer.
///
/// Input that the writer refuses (a batch that does not fit the schema) is an error that
/// changes nothing: the writer goes on as if the call had not been made. An error of the
/// sink, or one while a row group is half written, stops the writer: every later call
/// fails with [`ErrorKind::WriterClosed`], and no footer is written, so the file is
/// never one that points at half a row group.
///
/// ```
/// use parquet_file::{
///     ColumnBatch, ColumnValues, FileReader, FileWriter, PhysicalType, Schema, SchemaField,
///     WriterOptions,
/// };
///
/// let schema = Schema::try_new("schema", [SchemaField::optional("id", PhysicalType::Int64)])?;
/// let mut writer = FileWriter::new(Vec::new(), schema.clone(), WriterOptions::new())?;
/// let ids = ColumnBatch::try_new(
///     schema.column(0)?,
///     ColumnValues::Int64(vec![1, 3]),
///     vec![1, 0, 1],
///     vec![],
/// )?;
/// writer.write_batches(&[ids])?;
/// let metadata = writer.finish()?;
/// assert_eq!(metadata.num_rows(), 3);
///
/// let file = parquet_file::Bytes::from(writer.into_inner());
/// let reader = FileReader::open(file)?;
/// assert_eq!(reader.metadata().num_rows(), 3);
/// # Ok::<(), parquet_file::Error>(())
/// ```
pub struct FileWriter<S: Sink> {
    sink: S,
    schema: Arc<Schema>,
    options: WriterOptions,
    columns: Vec<ColumnWriter>,
    /// Per column, the definition level of each repeated ancestor, from the outermost.
    repeated_def_levels: Vec<Vec<u16>>,
    /// Bytes written to the sink.
    written: u64,
    /// Rows in the row group being filled.
    group_rows: u64,
    num_rows: u64,
    row_groups: Vec<thrift::RowGroup<'static>>,
    indexes: Vec<Vec<ChunkIndexes>>,
    state: State,
    /// Rows given to [`write_row`](Self::write_row), shredded, not yet written.
    shredded: Option<(Shredder, Vec<ColumnBatch>)>,
    encryption: Option<FileEncryption>,
}

impl<S: Sink> FileWriter<S> {
    /// A writer of files of `schema` to `sink`, which it starts with the magic bytes.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`] for options that do not fit a column (an encoding its
    /// type does not have, sorting columns that do not exist), [`ErrorKind::Unsupported`]
    /// for a codec whose cargo feature is off, or the sink's error.
    pub fn new(
        mut sink: S,
        schema: impl Into<Arc<Schema>>,
        options: WriterOptions,
    ) -> Result<Self> {
        let schema = schema.into();
        if let Some(path) = options
            .columns
            .keys()
            .find(|path| schema.column_index(path).is_none())
        {
            return Err(Error::input(format!(
                "options for {path}, which is not a leaf column"
            )));
        }
        if let Some(sorting) = options
            .sorting_columns
            .iter()
            .find(|s| s.column >= schema.columns().len())
        {
            return Err(Error::input(format!(
                "sorting column {} of a schema of {} leaf columns",
                sorting.column,
                schema.columns().len()
            )));
        }
        let columns = schema
            .columns()
            .iter()
            .enumerate()
            .map(|(i, column)| ColumnWriter::new(column, i, &options))
            .collect::<Result<Vec<_>>>()?;
        let repeated_def_levels = schema
            .columns()
            .iter()
            .map(|column| repeated_def_levels(&schema, column))
            .collect();
        if options.checkpoint_every.is_some() && options.encryption.is_some() {
            return Err(Error::input(
                "checkpoints with encryption (a checkpoint's footer would be in the clear)",
            ));
        }
        let encryption = options
            .encryption
            .as_ref()
            .map(|e| FileEncryption::new(e, &schema))
            .transpose()?;
        let magic = match &encryption {
            Some(e) if !e.options.plaintext_footer => MAGIC_ENCRYPTED,
            _ => MAGIC,
        };
        Sink::write_all(&mut sink, magic)?;
        Ok(Self {
            sink,
            schema,
            options,
            columns,
            repeated_def_levels,
            written: MAGIC.len() as u64,
            group_rows: 0,
            num_rows: 0,
            row_groups: Vec::new(),
            indexes: Vec::new(),
            state: State::Open,
            shredded: None,
            encryption,
        })
    }

    /// The schema.
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// Bytes written to the sink so far.
    pub fn bytes_written(&self) -> u64 {
        self.written
    }

    /// Rows taken so far (written out, in the row group being filled, or buffered).
    pub fn num_rows(&self) -> u64 {
        let buffered = self
            .shredded
            .as_ref()
            .and_then(|(_, b)| b.first())
            .map_or(0, ColumnBatch::num_records);
        self.num_rows + self.group_rows + buffered as u64
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The sink, given back (after [`finish`](Self::finish), a whole file).
    pub fn into_inner(self) -> S {
        self.sink
    }

    fn check_open(&self) -> Result<()> {
        match self.state {
            State::Open => Ok(()),
            State::Finished => Err(ErrorKind::WriterClosed { failed: false }.into()),
            State::Failed => Err(ErrorKind::WriterClosed { failed: true }.into()),
        }
    }

    /// Marks the writer failed when `result` is an error.
    fn guard<T>(&mut self, result: Result<T>) -> Result<T> {
        if result.is_err() {
            self.state = State::Failed;
        }
        result
    }

    /// Writes one batch per leaf column, in schema order, all of the same number of
    /// records.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`] when the batches do not fit the schema (nothing is
    /// written then, and the writer goes on); [`ErrorKind::WriterClosed`] after
    /// [`finish`](Self::finish) or a failure; the sink's error, or one while encoding
    /// (these stop the writer).
    pub fn write_batches(&mut self, batches: &[ColumnBatch]) -> Result<()> {
        self.check_open()?;
        self.check_batches(batches)?;
        self.write_shredded()?;
        self.write_checked(batches)
    }

    /// Writes a row: its fields shredded into levels and values of each leaf column
    /// (Dremel), buffered and written a batch of rows at a time.
    ///
    /// A row's fields are matched to the schema's by name; a field the schema has that the
    /// row lacks is null. Each leaf value must be of a kind its column stores: the
    /// [`Field`](crate::Field) the reader gives for it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidInput`] for a row that does not fit the schema (a null or
    /// missing required field, a field the schema does not have, a value its column does
    /// not store): nothing of it is written, and the writer goes on.
    /// [`ErrorKind::WriterClosed`] after [`finish`](Self::finish) or a failure.
    pub fn write_row(&mut self, row: &Row) -> Result<()> {
        self.check_open()?;
        let (shredder, batches) = self.shredded.get_or_insert_with(|| {
            let shredder = Shredder::new(&self.schema);
            let batches = shredder.batches();
            (shredder, batches)
        });
        shredder.shred(row, batches)?;
        if batches.first().map_or(0, ColumnBatch::num_records) >= STEP {
            self.write_shredded()?;
        }
        Ok(())
    }

    /// Writes the rows [`write_row`](Self::write_row) buffered.
    fn write_shredded(&mut self) -> Result<()> {
        let Some((shredder, mut batches)) = self.shredded.take() else {
            return Ok(());
        };
        let result = self.write_checked(&batches);
        batches.iter_mut().for_each(ColumnBatch::clear);
        self.shredded = Some((shredder, batches));
        result
    }

    /// Writes batches that fit the schema.
    fn write_checked(&mut self, batches: &[ColumnBatch]) -> Result<()> {
        let mut records = batches.first().map_or(0, ColumnBatch::num_records);
        let mut positions = vec![Position::default(); batches.len()];
        while records > 0 {
            let room = usize::try_from(self.options.row_group_rows as u64 - self.group_rows)
                .unwrap_or(usize::MAX);
            let step = records.min(room).min(STEP);
            let row_group = self.row_groups.len();
            let encryption = self.encryption.as_ref();
            let written = for_each_column(
                &mut self.columns,
                self.options.parallel_encoding,
                |c, column| {
                    let (Some(batch), Some(&at)) = (batches.get(c), positions.get(c)) else {
                        return Ok(Position::default());
                    };
                    let cipher = cipher_of(encryption, c, row_group);
                    column
                        .write(batch, at, step, cipher.as_ref())
                        .map_err(|e| e.in_column(&column.column().path))
                },
            );
            for (at, written) in positions.iter_mut().zip(written) {
                match written {
                    Ok(end) => *at = end,
                    Err(e) => {
                        self.state = State::Failed;
                        return Err(e);
                    }
                }
            }
            self.group_rows += step as u64;
            records -= step;
            let bytes: usize = self.columns.iter().map(ColumnWriter::buffered_bytes).sum();
            if self.group_rows >= self.options.row_group_rows as u64
                || bytes >= self.options.row_group_bytes
            {
                self.flush_row_group()?;
            }
        }
        Ok(())
    }

    /// Checks batches against the schema: one per leaf of its type, the same number of
    /// records, levels the schema allows.
    fn check_batches(&self, batches: &[ColumnBatch]) -> Result<()> {
        let columns = self.schema.columns();
        if batches.len() != columns.len() {
            return Err(Error::input(format!(
                "{} batches for a schema of {} leaf columns",
                batches.len(),
                columns.len()
            )));
        }
        let records = batches.first().map_or(0, ColumnBatch::num_records);
        for ((batch, column), repeated) in
            batches.iter().zip(columns).zip(&self.repeated_def_levels)
        {
            let fail = |what: String| Err(Error::input(what).in_column(&column.path));
            batch.check(column).map_err(|e| e.in_column(&column.path))?;
            if batch.num_records() != records {
                return fail(format!(
                    "{} records where the first column has {records}",
                    batch.num_records()
                ));
            }
            // A level entry that continues a list (repetition level r > 0) needs the list
            // at depth r to have an element before and at it.
            let def = batch.def_levels();
            let rep = batch.rep_levels();
            if continuations_defined(def, rep, repeated) {
                continue;
            }
            for (i, &r) in rep.iter().enumerate().skip(1).filter(|(_, r)| **r > 0) {
                let needed = repeated
                    .get(usize::from(r) - 1)
                    .copied()
                    .unwrap_or(u16::MAX);
                let before = def.get(i - 1).copied().unwrap_or(0);
                let here = def.get(i).copied().unwrap_or(0);
                if before < needed || here < needed {
                    return fail(format!(
                        "level entry {i} continues a list at repetition level {r} that is \
                         empty or null (definition levels {before} then {here}, below {needed})"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Writes out the row group being filled (nothing when it is empty).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::WriterClosed`] after [`finish`](Self::finish) or a failure; the sink's
    /// error, or one while encoding (these stop the writer).
    pub fn flush_row_group(&mut self) -> Result<()> {
        self.check_open()?;
        self.write_shredded()?;
        if self.group_rows == 0 {
            return Ok(());
        }
        let result = self.write_row_group();
        self.guard(result)
    }

    fn write_row_group(&mut self) -> Result<()> {
        let ordinal = self.row_groups.len();
        let ordinal16 = i16::try_from(ordinal)
            .map_err(|_| Error::limit("row groups", ordinal as u64 + 1, i16::MAX as u64))?;
        let start = self.written;
        let mut chunks = Vec::with_capacity(self.columns.len());
        let mut indexes = Vec::with_capacity(self.columns.len());
        let mut filters = Vec::new();
        let encryption = self.encryption.as_ref();
        let finished = for_each_column(
            &mut self.columns,
            self.options.parallel_encoding,
            |c, column| {
                let cipher = cipher_of(encryption, c, ordinal);
                column
                    .finish(cipher.as_ref())
                    .map_err(|e| e.in_column(&column.column().path))
            },
        );
        for ((c, column), chunk) in self.columns.iter_mut().enumerate().zip(finished) {
            let mut chunk = chunk?;
            let base = self.written;
            for page in &chunk.pages_bytes {
                Sink::write_all(&mut self.sink, page)?;
            }
            self.written += chunk.len;
            column.recycle(std::mem::take(&mut chunk.pages_bytes));
            let descriptor = column.column();
            indexes.push(ChunkIndexes {
                offset_index: column::offset_index(
                    &chunk.pages,
                    base + chunk.data_offset,
                    self.options.size_statistics
                        && descriptor.physical_type == parquet_core::PhysicalType::ByteArray,
                ),
                column_index: chunk.column_index.clone(),
            });
            if let Some(filter) = chunk.bloom_filter.take() {
                filters.push((chunks.len(), filter));
            }
            let codec = column.codec();
            chunks.push(thrift::ColumnChunk {
                file_offset: 0,
                meta_data: Some(chunk_metadata(descriptor, chunk, base, codec)),
                crypto_metadata: self
                    .encryption
                    .as_ref()
                    .and_then(|e| crypto_metadata(e.columns.get(c)?, descriptor))
                    .map(Box::new),
                ..thrift::ColumnChunk::default()
            });
        }
        self.write_bloom_filters(ordinal, filters, &mut chunks)?;
        let total = |f: fn(&thrift::ColumnMetaData<'_>) -> i64| {
            chunks
                .iter()
                .filter_map(|c| c.meta_data.as_ref())
                .map(f)
                .sum::<i64>()
        };
        self.row_groups.push(thrift::RowGroup {
            total_byte_size: total(|m| m.total_uncompressed_size),
            total_compressed_size: Some(total(|m| m.total_compressed_size)),
            columns: chunks,
            num_rows: self.group_rows.cast_signed(),
            sorting_columns: (!self.options.sorting_columns.is_empty()).then(|| {
                self.options
                    .sorting_columns
                    .iter()
                    .copied()
                    .map(SortingColumn::to_thrift)
                    .collect()
            }),
            file_offset: Some(start.cast_signed()),
            ordinal: Some(ordinal16),
        });
        self.indexes.push(indexes);
        self.num_rows += self.group_rows;
        self.group_rows = 0;
        if let Some(every) = self.options.checkpoint_every
            && self.row_groups.len() % every == 0
        {
            self.write_checkpoint()?;
        }
        Ok(())
    }

    /// Writes a footer of the row groups so far, framed as the final one is (length and
    /// magic after it), between this row group and the next.
    fn write_checkpoint(&mut self) -> Result<()> {
        let row_groups = self.row_groups.clone();
        let file = footer_metadata(&self.schema, &self.options, self.num_rows, row_groups);
        let bytes = framed_footer(&file)?;
        Sink::write_all(&mut self.sink, &bytes)?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// Writes the Bloom filters of row group `ordinal` (by column, after its chunks), and
    /// records where they are in the chunks' metadata.
    fn write_bloom_filters(
        &mut self,
        ordinal: usize,
        filters: Vec<(usize, parquet_bloom::Sbbf)>,
        chunks: &mut [thrift::ColumnChunk<'static>],
    ) -> Result<()> {
        for (column, filter) in filters {
            let offset = self.written;
            let mut header = Vec::new();
            thrift::BloomFilterHeader {
                num_bytes: i32::try_from(filter.num_bytes()).unwrap_or(i32::MAX),
                algorithm: thrift::BloomFilterAlgorithm::Block(thrift::SplitBlockAlgorithm {}),
                hash: thrift::BloomFilterHash::XxHash(thrift::XxHash {}),
                compression: thrift::BloomFilterCompression::Uncompressed(thrift::Uncompressed {}),
            }
            .write_to(&mut header)
            .map_err(|e| Error::decode("Bloom filter header", e))?;
            let cipher = cipher_of(self.encryption.as_ref(), column, ordinal);
            let row_group = ordinal;
            emit(
                &mut self.sink,
                &mut self.written,
                &header,
                cipher
                    .as_ref()
                    .map(|c| (c, Module::BloomFilterHeader { row_group, column })),
            )?;
            emit(
                &mut self.sink,
                &mut self.written,
                &filter.to_bitset(),
                cipher
                    .as_ref()
                    .map(|c| (c, Module::BloomFilterBitset { row_group, column })),
            )?;
            if let Some(meta) = chunks.get_mut(column).and_then(|c| c.meta_data.as_mut()) {
                meta.bloom_filter_offset = Some(offset.cast_signed());
                meta.bloom_filter_length = i32::try_from(self.written - offset).ok();
            }
        }
        Ok(())
    }

    /// Writes the last row group, the page indexes and the footer, and finishes the sink.
    /// Gives the file's metadata, as a reader of the file sees it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::WriterClosed`] when already finished or failed (then no footer is
    /// written); the sink's error.
    pub fn finish(&mut self) -> Result<FileMetaData> {
        self.check_open()?;
        self.write_shredded()?;
        let result = self.write_footer();
        match result {
            Ok(metadata) => {
                self.state = State::Finished;
                Ok(metadata)
            }
            Err(e) => {
                self.state = State::Failed;
                Err(e)
            }
        }
    }

    fn write_footer(&mut self) -> Result<FileMetaData> {
        if self.group_rows > 0 {
            self.write_row_group()?;
        }
        // Column indexes, then offset indexes, as parquet-java lays them out.
        for offsets in [false, true] {
            if offsets && !self.options.page_index {
                continue;
            }
            for (g, (group, indexes)) in self.row_groups.iter_mut().zip(&self.indexes).enumerate() {
                for (c, (chunk, index)) in group.columns.iter_mut().zip(indexes).enumerate() {
                    let (row_group, column) = (g, c);
                    let mut bytes = Vec::new();
                    let (module, written) = if offsets {
                        index.offset_index.write_to(&mut bytes).map(|()| {
                            (
                                Module::OffsetIndex { row_group, column },
                                (
                                    &mut chunk.offset_index_offset,
                                    &mut chunk.offset_index_length,
                                ),
                            )
                        })
                    } else if let Some(column_index) = &index.column_index {
                        column_index.write_to(&mut bytes).map(|()| {
                            (
                                Module::ColumnIndex { row_group, column },
                                (
                                    &mut chunk.column_index_offset,
                                    &mut chunk.column_index_length,
                                ),
                            )
                        })
                    } else {
                        continue;
                    }
                    .map_err(|e| Error::decode("page index", e))?;
                    let cipher = cipher_of(self.encryption.as_ref(), c, g);
                    let (offset, length) = emit(
                        &mut self.sink,
                        &mut self.written,
                        &bytes,
                        cipher.as_ref().map(|cipher| (cipher, module)),
                    )?;
                    *written.0 = Some(offset.cast_signed());
                    *written.1 = i32::try_from(length).ok();
                }
            }
        }
        let row_groups = std::mem::take(&mut self.row_groups);
        let mut file = footer_metadata(&self.schema, &self.options, self.num_rows, row_groups);
        // The metadata as a reader with every key sees it, before any is encrypted.
        let mut plain = Vec::new();
        file.write_to(&mut plain)
            .map_err(|e| Error::decode("footer", e))?;
        let tail = match &self.encryption {
            None => plain.clone(),
            Some(encryption) => encrypted_footer(&mut file, encryption)?,
        };
        let length = u32::try_from(tail.len())
            .map_err(|_| Error::limit("footer size", tail.len() as u64, u32::MAX.into()))?;
        let magic = match &self.encryption {
            Some(e) if !e.options.plaintext_footer => MAGIC_ENCRYPTED,
            _ => MAGIC,
        };
        Sink::write_all(&mut self.sink, &tail)?;
        Sink::write_all(&mut self.sink, &length.to_le_bytes())?;
        Sink::write_all(&mut self.sink, magic)?;
        self.written += tail.len() as u64 + 8;
        self.sink.finish()?;
        let bytes = Bytes::from(plain);
        let (decoded, _) =
            thrift::FileMetaData::read_from(&bytes).map_err(|e| Error::decode("footer", e))?;
        let schema = Schema::clone(&self.schema);
        Ok(FileMetaData::from_thrift(&decoded, &bytes, schema, None)?.0)
    }
}

/// `file` encoded and framed as a plaintext footer is at a file's end: its length, then
/// `PAR1` (a checkpoint's, or a recovered file's).
pub(crate) fn framed_footer(file: &thrift::FileMetaData<'_>) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.write_to(&mut bytes)
        .map_err(|e| Error::decode("footer", e))?;
    let length = u32::try_from(bytes.len())
        .map_err(|_| Error::limit("footer size", bytes.len() as u64, u32::MAX.into()))?;
    bytes.extend_from_slice(&length.to_le_bytes());
    bytes.extend_from_slice(MAGIC);
    Ok(bytes)
}

/// The footer's metadata: the schema, the row groups and what the options say of the
/// file; unencrypted.
fn footer_metadata<'a>(
    schema: &'a Schema,
    options: &'a WriterOptions,
    num_rows: u64,
    row_groups: Vec<thrift::RowGroup<'static>>,
) -> thrift::FileMetaData<'a> {
    thrift::FileMetaData {
        version: 1,
        schema: schema.to_elements(),
        num_rows: num_rows.cast_signed(),
        row_groups,
        key_value_metadata: (!options.key_value_metadata.is_empty()).then(|| {
            options
                .key_value_metadata
                .iter()
                .map(|kv| thrift::KeyValue {
                    key: Cow::Borrowed(kv.key.as_str()),
                    value: kv.value.as_deref().map(Cow::Borrowed),
                })
                .collect()
        }),
        created_by: Some(Cow::Borrowed(options.created_by.as_str())),
        column_orders: Some(
            schema
                .columns()
                .iter()
                .map(|_| thrift::ColumnOrder::TypeOrder(thrift::TypeDefinedOrder {}))
                .collect(),
        ),
        encryption_algorithm: None,
        footer_signing_key_metadata: None,
    }
}

/// Writes `bytes` to `sink` at `written`, encrypted as `module` when given a cipher.
/// Gives where it went and its length as written.
fn emit<S: Sink>(
    sink: &mut S,
    written: &mut u64,
    bytes: &[u8],
    module: Option<(&Cipher<'_>, Module)>,
) -> Result<(u64, usize)> {
    let offset = *written;
    let length = if let Some((cipher, module)) = module {
        let mut encrypted = Vec::with_capacity(bytes.len() + parquet_crypto::GCM_MODULE_OVERHEAD);
        cipher.encrypt(module, bytes, &mut encrypted)?;
        Sink::write_all(sink, &encrypted)?;
        encrypted.len()
    } else {
        Sink::write_all(sink, bytes)?;
        bytes.len()
    };
    *written += length as u64;
    Ok((offset, length))
}

/// The cipher of column `column` in row group `row_group`, when it is encrypted.
/// `f` of each column and its index, in order; as tasks on rayon's thread pool when
/// `parallel` (and the `parallel` feature) is on.
fn for_each_column<T: Send>(
    columns: &mut [ColumnWriter],
    parallel: bool,
    f: impl Fn(usize, &mut ColumnWriter) -> T + Sync,
) -> Vec<T> {
    #[cfg(feature = "parallel")]
    if parallel && columns.len() > 1 {
        use rayon::prelude::*;
        return columns
            .par_iter_mut()
            .enumerate()
            .map(|(c, column)| f(c, column))
            .collect();
    }
    #[cfg(not(feature = "parallel"))]
    let _ = parallel;
    columns
        .iter_mut()
        .enumerate()
        .map(|(c, column)| f(c, column))
        .collect()
}

fn cipher_of(
    encryption: Option<&FileEncryption>,
    column: usize,
    row_group: usize,
) -> Option<Cipher<'_>> {
    let cipher = encryption?.columns.get(column)?.cipher()?;
    Some(Cipher { cipher, row_group })
}

/// How a column chunk says it is encrypted.
fn crypto_metadata(
    crypto: &ColumnCrypto,
    column: &ColumnDescriptor,
) -> Option<thrift::ColumnCryptoMetaData<'static>> {
    match crypto {
        ColumnCrypto::Plaintext => None,
        ColumnCrypto::FooterKey(_) => Some(thrift::ColumnCryptoMetaData::EncryptionWithFooterKey(
            thrift::EncryptionWithFooterKey {},
        )),
        ColumnCrypto::ColumnKey { key_metadata, .. } => {
            Some(thrift::ColumnCryptoMetaData::EncryptionWithColumnKey(
                thrift::EncryptionWithColumnKey {
                    path_in_schema: column
                        .path
                        .parts()
                        .iter()
                        .map(|p| Cow::Owned(p.clone()))
                        .collect(),
                    key_metadata: key_metadata.clone().map(Cow::Owned),
                },
            ))
        }
    }
}

/// Encrypts the column metadata of `file` as Encryption.md asks, and gives the footer
/// as written: `FileCryptoMetaData` and the encrypted `FileMetaData`, or the plaintext
/// `FileMetaData` and its signature.
fn encrypted_footer<'a>(
    file: &mut thrift::FileMetaData<'a>,
    encryption: &'a FileEncryption,
) -> Result<Vec<u8>> {
    let options = &encryption.options;
    for (g, group) in file.row_groups.iter_mut().enumerate() {
        for (c, chunk) in group.columns.iter_mut().enumerate() {
            let crypto = encryption.columns.get(c);
            let cipher = match crypto {
                Some(ColumnCrypto::ColumnKey { cipher, .. }) => cipher,
                // In a plaintext footer, a column under the footer key hides its metadata
                // too; in an encrypted footer, the footer's encryption covers it.
                Some(ColumnCrypto::FooterKey(cipher)) if options.plaintext_footer => cipher,
                _ => continue,
            };
            let Some(meta) = chunk.meta_data.as_mut() else {
                continue;
            };
            let mut bytes = Vec::new();
            meta.write_to(&mut bytes)
                .map_err(|e| Error::decode("column metadata", e))?;
            let mut encrypted = Vec::new();
            Cipher {
                cipher,
                row_group: g,
            }
            .encrypt(
                Module::ColumnMetaData {
                    row_group: g,
                    column: c,
                },
                &bytes,
                &mut encrypted,
            )?;
            chunk.encrypted_column_metadata = Some(Cow::Owned(encrypted));
            if options.plaintext_footer {
                // What old readers need to skip the column, without what it would
                // reveal of the values.
                meta.statistics = None;
                meta.size_statistics = None;
                meta.geospatial_statistics = None;
                meta.encoding_stats = None;
                meta.bloom_filter_offset = None;
                meta.bloom_filter_length = None;
            } else {
                chunk.meta_data = None;
            }
        }
    }
    let mut out = Vec::new();
    if options.plaintext_footer {
        file.encryption_algorithm = Some(encryption.algorithm());
        file.footer_signing_key_metadata =
            options.footer_key_metadata.as_deref().map(Cow::Borrowed);
        file.write_to(&mut out)
            .map_err(|e| Error::decode("footer", e))?;
        let signature =
            parquet_crypto::sign_footer(&options.footer_key, &encryption.file_aad, &out)
                .crypto("signing the footer")?;
        out.extend_from_slice(&signature);
    } else {
        thrift::FileCryptoMetaData {
            encryption_algorithm: encryption.algorithm(),
            key_metadata: options.footer_key_metadata.as_deref().map(Cow::Borrowed),
        }
        .write_to(&mut out)
        .map_err(|e| Error::decode("file crypto metadata", e))?;
        let mut footer = Vec::new();
        file.write_to(&mut footer)
            .map_err(|e| Error::decode("footer", e))?;
        if options.empty_aad {
            parquet_crypto::encrypt_footer_without_aad(&options.footer_key, &footer, &mut out)
        } else {
            parquet_crypto::encrypt_footer(
                &options.footer_key,
                &encryption.file_aad,
                &footer,
                &mut out,
            )
        }
        .crypto("encrypting the footer")?;
    }
    Ok(out)
}

/// The metadata of a chunk written at `base`.
fn chunk_metadata(
    descriptor: &ColumnDescriptor,
    chunk: FinishedChunk,
    base: u64,
    codec: parquet_compress::Codec,
) -> thrift::ColumnMetaData<'static> {
    thrift::ColumnMetaData {
        type_: crate::schema::thrift_type(descriptor.physical_type),
        encodings: chunk.encodings.iter().map(|e| e.to_thrift()).collect(),
        path_in_schema: descriptor
            .path
            .parts()
            .iter()
            .map(|p| Cow::Owned(p.clone()))
            .collect(),
        codec: thrift::CompressionCodec(codec.parquet_id().unwrap_or_default()),
        num_values: chunk.num_values.cast_signed(),
        total_uncompressed_size: chunk.uncompressed_size.cast_signed(),
        total_compressed_size: chunk.len.cast_signed(),
        key_value_metadata: None,
        data_page_offset: (base + chunk.data_offset).cast_signed(),
        index_page_offset: None,
        dictionary_page_offset: chunk.has_dictionary.then_some(base.cast_signed()),
        statistics: chunk.statistics,
        encoding_stats: Some(chunk.encoding_stats.into()),
        bloom_filter_offset: None,
        bloom_filter_length: None,
        size_statistics: chunk.size_statistics.map(Box::new),
        geospatial_statistics: None,
    }
}

/// Whether every level entry that continues a list (repetition level r > 0) has the list
/// at depth r defined with an element before and at it (`repeated`: the definition
/// level of each repeated node, outermost first): one pass without branches on the
/// levels, the error found by the caller when not.
fn continuations_defined(def: &[u16], rep: &[u16], repeated: &[u16]) -> bool {
    // The definition level each repetition level needs (none for 0, unreachable past
    // the repeated nodes).
    let mut needed = [0; 16];
    if repeated.len() >= needed.len() || def.len() != rep.len() {
        return false;
    }
    for (i, n) in needed.iter_mut().enumerate().skip(1) {
        *n = repeated.get(i - 1).copied().unwrap_or(u16::MAX);
    }
    let mut defined = true;
    let pairs = def.iter().zip(def.iter().skip(1));
    for (&r, (&before, &here)) in rep.iter().skip(1).zip(pairs) {
        let need = needed.get(usize::from(r)).copied().unwrap_or(u16::MAX);
        defined &= before.min(here) >= need;
    }
    defined
}

/// The definition level of each repeated node on the path to the leaf `column`,
/// outermost first.
fn repeated_def_levels(schema: &Schema, column: &ColumnDescriptor) -> Vec<u16> {
    let mut levels = Vec::new();
    let mut node = schema.node(column.node);
    while let Some(n) = node {
        if n.repetition == Repetition::Repeated && n.parent.is_some() {
            levels.push(n.def_level);
        }
        node = n.parent.and_then(|p| schema.node(p));
    }
    levels.reverse();
    levels
}

#[cfg(test)]
mod tests {
    use super::continuations_defined;

    /// The rule entry by entry, as the error is found.
    fn reference(def: &[u16], rep: &[u16], repeated: &[u16]) -> bool {
        (1..rep.len()).filter(|&i| rep[i] > 0).all(|i| {
            let needed = repeated
                .get(usize::from(rep[i]) - 1)
                .copied()
                .unwrap_or(u16::MAX);
            def[i - 1] >= needed && def[i] >= needed
        })
    }

    #[test]
    fn continuations_as_the_rule_says() {
        // list<list<int>>, optional everywhere: the lists are defined at levels 2 and 4.
        let repeated = [2, 4];
        let cases: [(&[u16], &[u16]); 6] = [
            (&[5, 5, 4, 5], &[0, 2, 1, 2]),
            (&[1, 5], &[0, 1]),
            (&[5, 3, 5], &[0, 2, 2]),
            (&[5, 4], &[0, 3]),
            (&[0, 0, 5], &[0, 0, 0]),
            (&[], &[]),
        ];
        for (def, rep) in cases {
            assert_eq!(
                continuations_defined(def, rep, &repeated),
                reference(def, rep, &repeated),
                "{def:?} {rep:?}"
            );
        }
        assert!(!continuations_defined(&[5], &[0, 1], &repeated));
    }
}
