//! The ORC file writer: [`OrcWriter`] and its options.

mod column;
mod options;
mod row;
mod validate;

pub use options::{OrcVersion, WriterOptions};

use std::collections::BTreeMap;

use parquet_core::Row;
use parquet_core::io::Sink;
use prost::Message;

use crate::error::{Error, ErrorKind, Result};
use crate::proto;
use crate::rle;
use crate::schema::{Kind, TypeDescription};
use crate::stream::{ChunkEncoder, position_of};
use crate::vector::Batch;

use column::{ColumnState, ColumnStripe, Context, Entry, write_column, write_root};
use row::RowBuffer;

/// The writer version recorded in the postscript: Apache ORC's current one, ORC-14
/// (9), as the Java writer records it for both file versions. The writer has every fix
/// the earlier numbers stand for (string statistics merged right, timestamp statistics
/// in UTC, string bounds, ...).
const WRITER_VERSION: u32 = 9;

/// The most rows written between two checks of the stripe size.
const CHECK_ROWS: usize = 8 * 1024;

/// Rows held by [`OrcWriter::write_row`] before they are encoded.
const ROW_BUFFER_ROWS: usize = 1024;

/// Bytes of strings held by [`OrcWriter::write_row`] before they are encoded.
const ROW_BUFFER_BYTES: usize = 64 << 20;

/// Writes an ORC file to a [`Sink`] (any [`std::io::Write`]).
///
/// [`OrcWriter`] takes [`Batch`]es (or [`Row`]s), encodes each column into its streams
/// as Apache ORC's Java writer does, and writes a stripe when the encoded streams reach
/// the stripe size:
///
/// ```text
/// file   = "ORC" stripe* metadata footer postscript psLength:u8
/// stripe = index-streams (ROW_INDEX of each column) data-streams stripe-footer
/// ```
///
/// - Version 0.11 uses integer RLE version 1 (`DIRECT`, `DICTIONARY`), 0.12 version 2
///   (`DIRECT_V2`, `DICTIONARY_V2`).
/// - Strings, chars and varchars use a dictionary (sorted by bytes) while its distinct
///   values are at most [`WriterOptions::dictionary_key_size_threshold`] of the values,
///   decided per stripe after its first row group; binary is always direct. Char values
///   are cut or padded with spaces to their length, varchar values cut to theirs, as
///   Java does (rows refuse values that are too long instead).
/// - Timestamps are seconds since 2015-01-01 00:00:00 (taken, as Java takes them, from
///   the UTC instant truncated toward zero, so that an instant in the last second
///   before 1970-01-01T00:00:00Z with a fraction of a millisecond or more reads back one
///   second late: see [`WriterOptions::writer_timezone`]) and nanoseconds with their
///   trailing zeros folded; decimals are zigzag varints of any length and a scale per
///   value (the column's scale in 0.12, each value's own in 0.11).
/// - Streams are compressed in chunks of at most the compression block size, kept
///   original when a chunk does not shrink.
/// - Each row group (10,000 rows by default) has a row index entry per column with the
///   position of each stream where the group starts and the group's statistics; each
///   stripe has statistics in the metadata section, and the file in the footer.
///
/// ```
/// use orc_file::{Batch, OrcCompression, OrcWriter, TypeDescription, Vector, VectorData,
///     WriterOptions};
///
/// let schema = TypeDescription::parse("struct<id:bigint,score:double>")?;
/// let options = WriterOptions::default().compression(OrcCompression::None);
/// let mut writer = OrcWriter::new(Vec::new(), schema, options)?;
/// writer.write_batch(&Batch {
///     num_rows: 3,
///     columns: vec![
///         Vector::new(VectorData::Int(vec![1, 2, 3])),
///         Vector::with_present(VectorData::Double(vec![0.5, 0.0, 2.5]), vec![true, false, true]),
///     ],
/// })?;
/// let file = writer.finish()?;
/// assert_eq!(&file[..3], b"ORC");
/// assert_eq!(orc_file::OrcReader::open(file)?.num_rows(), 3);
/// # Ok::<(), orc_file::Error>(())
/// ```
///
/// Refused input ([`ErrorKind::is_input`]: a batch or row that does not match the
/// schema) leaves the writer as it was; it can go on. A failure of the sink or of a
/// codec leaves the file incomplete: every later call returns
/// [`ErrorKind::WriterFailed`].
///
/// What the tail says of the writer: the postscript's `writerVersion` is 9 (ORC-14,
/// Apache ORC's current one) and the footer's `writer` is left unset, so readers apply
/// no workaround for an old writer's bugs. The writer accepts row index strides below
/// the 1,000 rows Java insists on.
///
/// A timestamp between one second before 1970-01-01 and 1970-01-01 with a fraction of
/// a millisecond or more cannot be stored so that Apache ORC's readers (and this
/// crate's) read it back: the file format stores whole seconds truncated toward zero,
/// and readers take a second off negative ones only. Java writes such values the same
/// way.
#[derive(Debug)]
pub struct OrcWriter<W: Sink> {
    sink: W,
    schema: TypeDescription,
    options: WriterOptions,
    ctx: Context,
    columns: Vec<ColumnState>,
    encoder: ChunkEncoder,
    /// Bytes written so far.
    offset: u64,
    stripes: Vec<proto::StripeInformation>,
    stripe_statistics: Vec<proto::StripeStatistics>,
    rows_in_stripe: u64,
    rows_in_group: usize,
    rows_written: u64,
    user_metadata: BTreeMap<String, Vec<u8>>,
    row_buffer: RowBuffer,
    failed: bool,
}

impl<W: Sink> OrcWriter<W> {
    /// A writer of files with `schema` (a struct: the columns) and `options`; writes the
    /// file's header.
    ///
    /// # Errors
    ///
    /// - [`ErrorKind::InvalidInput`] for a schema whose root is not a struct, a `timestamp
    ///   with local time zone` in a version 0.11 file, or options out of range (block
    ///   size, time zone, compression level);
    /// - [`ErrorKind::CodecDisabled`] for a codec this build lacks;
    /// - [`ErrorKind::Io`] when the sink fails.
    pub fn new(mut sink: W, schema: TypeDescription, options: WriterOptions) -> Result<Self> {
        if schema.kind() != Kind::Struct {
            return Err(ErrorKind::InvalidInput {
                what: "a schema whose root is not a struct",
                kind: Some(schema.kind().name()),
                value: None,
                slot: None,
            }
            .into());
        }
        if schema.id() != 0 {
            return Err(Error::input_value(
                "a schema that is not a root type (of column id 0), but of column id",
                Some(schema.id()),
            ));
        }
        options.validate()?;
        if options.version == OrcVersion::V0_11
            && schema
                .preorder()
                .iter()
                .any(|t| t.kind() == Kind::TimestampInstant)
        {
            return Err(Error::input(
                "timestamp with local time zone needs ORC version 0.12",
            ));
        }
        let encoder = ChunkEncoder::new(
            options.compression,
            options.compression_level,
            options.block_size,
        )?;
        let ctx = Context {
            rle: match options.version {
                OrcVersion::V0_11 => rle::Version::V1,
                OrcVersion::V0_12 => rle::Version::V2,
            },
            v0: options.version == OrcVersion::V0_11,
            build_index: options.row_index_stride > 0,
            dictionary_threshold: options.dictionary_threshold,
            // Version 0.11 records no zone: its timestamps count from 2015-01-01 UTC.
            writer_offset: match options.version {
                OrcVersion::V0_11 => 0,
                OrcVersion::V0_12 => {
                    options::fixed_offset_seconds(&options.writer_timezone).unwrap_or(0)
                }
            },
        };
        sink.write_all(b"ORC")?;
        Ok(Self {
            columns: ColumnState::for_schema(&schema, &ctx),
            row_buffer: RowBuffer::new(&schema),
            sink,
            schema,
            options,
            ctx,
            encoder,
            offset: 3,
            stripes: Vec::new(),
            stripe_statistics: Vec::new(),
            rows_in_stripe: 0,
            rows_in_group: 0,
            rows_written: 0,
            user_metadata: BTreeMap::new(),
            failed: false,
        })
    }

    /// The schema.
    pub fn schema(&self) -> &TypeDescription {
        &self.schema
    }

    /// The options.
    pub fn options(&self) -> &WriterOptions {
        &self.options
    }

    /// The rows written so far (those of `write_row` included).
    pub fn num_rows(&self) -> u64 {
        self.rows_written + self.rows_in_stripe + self.row_buffer.len() as u64
    }

    /// The bytes written to the sink so far.
    pub fn bytes_written(&self) -> u64 {
        self.offset
    }

    /// The stripes written so far.
    pub fn stripes_written(&self) -> usize {
        self.stripes.len()
    }

    fn check_usable(&self) -> Result<()> {
        if self.failed {
            return Err(ErrorKind::WriterFailed.into());
        }
        Ok(())
    }

    /// Runs `f`, marking the writer failed if it fails (a failure past validation leaves
    /// the file incomplete).
    fn guarded(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let result = f(self);
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    /// Writes a batch: one vector per column of the schema, `num_rows` slots each.
    ///
    /// # Errors
    ///
    /// An input error ([`ErrorKind::is_input`], the [`Location`](crate::Location)'s
    /// column saying which) when the batch does not match the schema (the number or
    /// kinds of vectors, their lengths, a value out of range for its type, text that is
    /// not UTF-8, a decimal that does not fit, a union tag without an alternative):
    /// nothing of it is written and the writer goes on. Errors of the sink or the codec
    /// end the writer.
    pub fn write_batch(&mut self, batch: &Batch) -> Result<()> {
        self.check_usable()?;
        validate::validate_batch(&self.schema, batch)?;
        self.guarded(|w| {
            w.flush_rows()?;
            w.write_checked(batch)
        })
    }

    /// Writes a row: its fields by name (a field it leaves out is null), each a
    /// [`Field`](parquet_core::Field) as the reader yields them:
    ///
    /// | column | field |
    /// |---|---|
    /// | boolean | `Bool` |
    /// | tinyint, smallint, int, bigint | `Int` (or `UInt`) within the type's range |
    /// | float | `Float` |
    /// | double | `Double` (or `Float`) |
    /// | string, char, varchar | `Str`; at most the length of a char or varchar (a char is padded with spaces) |
    /// | binary | `Bytes` (or `Str`) |
    /// | date | `Date` |
    /// | timestamp, timestamp with local time zone | `Timestamp` in any unit |
    /// | decimal | `Decimal` (or a `WideDecimal` that fits 128 bits) whose value fits the precision at the column's scale exactly |
    /// | array, map, struct | `List`, `Map`, `Group` (fields by name, missing ones null) |
    /// | uniontype | `Group` of `tag` (`Int`) and `value` |
    /// | any | `Null` |
    ///
    /// Rows are held and written 1024 at a time.
    ///
    /// # Errors
    ///
    /// An input error ([`ErrorKind::is_input`], the [`Location`](crate::Location)'s
    /// column saying which) when a value does not fit its column (another kind, an
    /// integer out of the column's range, a char or varchar value longer than the
    /// column's length, a decimal with more digits than the column's precision or scale
    /// allows, a field the schema does not have): nothing of the row is written and the
    /// writer goes on. Errors of the sink or the codec end the writer.
    pub fn write_row(&mut self, row: &Row) -> Result<()> {
        self.check_usable()?;
        row::check_row(&self.schema, row)?;
        self.row_buffer.push(&self.schema, row);
        if self.row_buffer.len() >= ROW_BUFFER_ROWS || self.row_buffer.bytes() >= ROW_BUFFER_BYTES {
            self.guarded(Self::flush_rows)?;
        }
        Ok(())
    }

    /// Adds a key and value to the footer's user metadata (a later value for the same
    /// key replaces the earlier; keys are written in order).
    pub fn add_user_metadata(&mut self, key: impl Into<String>, value: Vec<u8>) {
        self.user_metadata.insert(key.into(), value);
    }

    /// Writes the rows so far as a stripe, then an intermediate footer: a whole tail
    /// (metadata, footer, postscript) of the stripes so far, as Apache ORC's Java writer
    /// does in `writeIntermediateFooter`. A reader given the file's first bytes up to the
    /// length returned reads those stripes; the next stripes follow the footer, and the
    /// final tail covers them all. Gives the length of the file so far.
    ///
    /// # Errors
    ///
    /// Errors of the sink or the codec, or of an earlier failure.
    pub fn write_intermediate_footer(&mut self) -> Result<u64> {
        self.check_usable()?;
        self.flush_rows()?;
        self.flush_stripe()?;
        self.write_tail()?;
        Ok(self.offset)
    }

    /// Writes the last stripe and the file's tail, and returns the sink.
    ///
    /// # Errors
    ///
    /// Errors of the sink or the codec, or of an earlier failure.
    pub fn finish(mut self) -> Result<W> {
        self.check_usable()?;
        self.flush_rows()?;
        self.flush_stripe()?;
        self.write_tail()?;
        self.sink.finish()?;
        Ok(self.sink)
    }

    /// Writes the rows of `write_row` held so far.
    fn flush_rows(&mut self) -> Result<()> {
        if self.row_buffer.len() == 0 {
            return Ok(());
        }
        let buffer = std::mem::replace(&mut self.row_buffer, RowBuffer::placeholder());
        let result = self.write_checked(buffer.batch());
        self.row_buffer = buffer;
        self.row_buffer.clear();
        result
    }

    /// Writes a batch that matches the schema, in pieces that end at row group
    /// boundaries, writing stripes as they fill up.
    fn write_checked(&mut self, batch: &Batch) -> Result<()> {
        let stride = self.options.row_index_stride;
        let mut start = 0;
        while start < batch.num_rows {
            let mut len = (batch.num_rows - start).min(CHECK_ROWS);
            if stride > 0 {
                len = len.min(stride - self.rows_in_group);
            }
            let run = [(start, start + len)];
            write_root(&mut self.columns, len);
            for (t, v) in self.schema.children().iter().zip(&batch.columns) {
                write_column(&mut self.columns, t, v, &run, &self.ctx);
            }
            self.rows_in_stripe += len as u64;
            self.rows_in_group += len;
            if stride > 0 && self.rows_in_group >= stride {
                self.finish_row_group();
            }
            if self.estimated_stripe_size() >= self.options.stripe_size {
                self.flush_stripe()?;
                let every = self.options.checkpoint_every;
                if every > 0 && self.stripes.len().is_multiple_of(every) {
                    self.write_tail()?;
                }
            }
            start += len;
        }
        Ok(())
    }

    fn finish_row_group(&mut self) {
        for column in &mut self.columns {
            column.finish_row_group(&self.ctx);
        }
        self.rows_in_group = 0;
    }

    fn estimated_stripe_size(&self) -> usize {
        self.columns.iter().map(ColumnState::estimated_size).sum()
    }

    /// Compresses `input` as a whole stream onto `out`, filling `chunks` with its
    /// chunk table.
    fn compress(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        chunks: &mut Vec<(u64, u64)>,
    ) -> Result<u64> {
        let before = out.len();
        self.encoder.encode_stream(input, out, chunks)?;
        Ok((out.len() - before) as u64)
    }

    /// Writes the stripe of the rows written since the last one, if any.
    fn flush_stripe(&mut self) -> Result<()> {
        if self.rows_in_stripe == 0 {
            return Ok(());
        }
        if self.ctx.build_index && self.rows_in_group > 0 {
            self.finish_row_group();
        }
        let compressed = self.options.compression.is_compressed();
        let mut index_area = Vec::new();
        // The data streams, compressed (or as they are, without a codec).
        let mut data_area: Vec<Vec<u8>> = Vec::new();
        let mut data_length = 0;
        let mut index_streams = Vec::new();
        let mut data_streams = Vec::new();
        let mut encodings = Vec::with_capacity(self.columns.len());
        let mut statistics = Vec::with_capacity(self.columns.len());
        let mut chunks = Vec::new();
        for id in 0..self.columns.len() {
            let Some(column) = self.columns.get_mut(id) else {
                break;
            };
            let ColumnStripe {
                streams,
                encoding,
                entries,
                present_dropped,
            } = column.take_stripe(&self.ctx);
            #[allow(clippy::cast_possible_truncation)] // column ids are u32
            let column_id = id as u32;
            let mut tables: Vec<(proto::stream::Kind, Vec<(u64, u64)>)> =
                Vec::with_capacity(streams.len());
            let mut bytes_on_disk = 0;
            for (kind, bytes) in streams {
                let stored = if compressed {
                    let mut out = Vec::new();
                    self.compress(&bytes, &mut out, &mut chunks)?;
                    out
                } else {
                    chunks.clear();
                    bytes
                };
                let length = stored.len() as u64;
                data_length += length;
                data_area.push(stored);
                bytes_on_disk += length;
                data_streams.push(proto::Stream {
                    kind: Some(kind as i32),
                    column: Some(column_id),
                    length: Some(length),
                });
                tables.push((kind, std::mem::take(&mut chunks)));
            }
            encodings.push(encoding);
            if let Some(column) = self.columns.get_mut(id) {
                statistics.push(column.finish_stripe_statistics(bytes_on_disk));
            }
            if self.ctx.build_index {
                let index = row_index(entries, &tables, present_dropped, compressed);
                let length = self.compress(&index.encode_to_vec(), &mut index_area, &mut chunks)?;
                index_streams.push(proto::Stream {
                    kind: Some(proto::stream::Kind::RowIndex as i32),
                    column: Some(column_id),
                    length: Some(length),
                });
            }
        }
        index_streams.append(&mut data_streams);
        let footer = proto::StripeFooter {
            streams: index_streams,
            columns: encodings,
            writer_timezone: (!self.ctx.v0).then(|| self.options.writer_timezone.clone()),
            encryption: Vec::new(),
        };
        let mut footer_bytes = Vec::new();
        let footer_length =
            self.compress(&footer.encode_to_vec(), &mut footer_bytes, &mut chunks)?;
        self.sink.write_all(&index_area)?;
        for stream in &data_area {
            self.sink.write_all(stream)?;
        }
        self.sink.write_all(&footer_bytes)?;
        let index_length = index_area.len() as u64;
        self.stripes.push(proto::StripeInformation {
            offset: Some(self.offset),
            index_length: Some(index_length),
            data_length: Some(data_length),
            footer_length: Some(footer_length),
            number_of_rows: Some(self.rows_in_stripe),
            encrypt_stripe_id: None,
            encrypted_local_keys: Vec::new(),
        });
        self.stripe_statistics.push(proto::StripeStatistics {
            col_stats: statistics,
        });
        self.offset += index_length + data_length + footer_length;
        self.rows_written += self.rows_in_stripe;
        self.rows_in_stripe = 0;
        self.rows_in_group = 0;
        Ok(())
    }

    /// Writes the metadata section, the footer, the postscript and its length: of the
    /// stripes so far (the final tail, or an intermediate footer).
    fn write_tail(&mut self) -> Result<()> {
        let mut chunks = Vec::new();
        let content_length = self.offset;
        let metadata = proto::Metadata {
            stripe_stats: self.stripe_statistics.clone(),
        };
        let mut metadata_bytes = Vec::new();
        let metadata_length =
            self.compress(&metadata.encode_to_vec(), &mut metadata_bytes, &mut chunks)?;
        let footer = proto::Footer {
            header_length: Some(3),
            content_length: Some(content_length),
            stripes: self.stripes.clone(),
            types: self.schema.to_proto(),
            metadata: self
                .user_metadata
                .iter()
                .map(|(name, value)| proto::UserMetadataItem {
                    name: Some(name.clone()),
                    value: Some(value.clone()),
                })
                .collect(),
            number_of_rows: Some(self.rows_written),
            statistics: self.columns.iter().map(ColumnState::file_statistics).collect(),
            #[allow(clippy::cast_possible_truncation)] // checked by the options
            row_index_stride: Some(self.options.row_index_stride as u32),
            writer: None,
            encryption: None,
            calendar: Some(proto::CalendarKind::ProlepticGregorian as i32),
            software_version: None,
        };
        let mut footer_bytes = Vec::new();
        let footer_length =
            self.compress(&footer.encode_to_vec(), &mut footer_bytes, &mut chunks)?;
        let postscript = proto::PostScript {
            footer_length: Some(footer_length),
            compression: Some(self.options.compression.to_proto() as i32),
            compression_block_size: Some(self.options.block_size as u64),
            version: self.options.version.numbers().to_vec(),
            metadata_length: Some(metadata_length),
            writer_version: Some(WRITER_VERSION),
            stripe_statistics_length: None,
            magic: Some("ORC".to_owned()),
        };
        let postscript_bytes = postscript.encode_to_vec();
        let postscript_length = u8::try_from(postscript_bytes.len()).map_err(|_| {
            Error::limit(
                "postscript size (a byte counts it)",
                postscript_bytes.len() as u64,
                255,
            )
        })?;
        self.sink.write_all(&metadata_bytes)?;
        self.sink.write_all(&footer_bytes)?;
        self.sink.write_all(&postscript_bytes)?;
        self.sink.write_all(&[postscript_length])?;
        self.offset += metadata_length + footer_length + postscript_bytes.len() as u64 + 1;
        Ok(())
    }
}

/// The row index of a column: its entries with positions in the compressed streams
/// (chunk start and offset in the chunk) or, uncompressed, the offsets themselves; the
/// PRESENT positions go when the stripe has no PRESENT stream.
fn row_index(
    entries: Vec<Entry>,
    tables: &[(proto::stream::Kind, Vec<(u64, u64)>)],
    present_dropped: bool,
    compressed: bool,
) -> proto::RowIndex {
    let entry = entries
        .into_iter()
        .map(|entry| {
            let mut positions = Vec::with_capacity(entry.positions.len() * 4);
            for p in &entry.positions {
                if present_dropped && p.kind == proto::stream::Kind::Present {
                    continue;
                }
                if compressed {
                    let table = tables
                        .iter()
                        .find(|(k, _)| *k == p.kind)
                        .map_or(&[][..], |(_, t)| t.as_slice());
                    let (chunk, within) = position_of(table, p.offset);
                    positions.extend([chunk, within]);
                } else {
                    positions.push(p.offset);
                }
                positions.extend(p.extra.iter().take(p.extras));
            }
            proto::RowIndexEntry {
                positions,
                statistics: Some(entry.statistics),
            }
        })
        .collect();
    proto::RowIndex { entry }
}
