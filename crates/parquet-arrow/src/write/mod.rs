//! Writing `RecordBatch`es to Parquet: [`ArrowWriter`].
//!
//! Each batch is cut into the leaf columns of the Parquet schema
//! ([`arrow_to_parquet_schema`]): the definition and repetition levels of every leaf are
//! computed from the arrays' null bitmaps and offsets ([`levels`]), its defined values
//! converted to the physical type ([`values`]), and the columns written through
//! [`parquet_file::FileWriter`], with all of its [`WriterOptions`].

mod levels;
mod values;

use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{DataType, Schema, SchemaRef};
use parquet_file::{ColumnBatch, ColumnValues, FileMetaData, FileWriter, Sink, WriterOptions};

use self::levels::{LeafPath, Levels, leaf_paths};
use self::values::{GatherError, Scratch, gather};
use crate::error::{Error, Result, invalid};
use crate::schema::{ARROW_SCHEMA_META_KEY, arrow_to_parquet_schema, encode_arrow_schema};

/// The rows of a batch converted and written at once are a multiple of the Parquet
/// writer's step (8,192 records, which it writes a step at a time anyway), at most
/// [`SLICE_ROWS`], and fewer for a wide schema: about [`SLICE_VALUES`] leaf values.
const STEP_ROWS: usize = 8192;
const SLICE_ROWS: usize = 8 * STEP_ROWS;
const SLICE_VALUES: usize = 1 << 22;

/// Writes Arrow record batches to a Parquet file, as pyarrow and arrow-rs do.
///
/// The Parquet schema is [`arrow_to_parquet_schema`] of the Arrow schema, and the Arrow
/// schema itself is stored in the key-value metadata under `ARROW:schema` (followed by the
/// schema's own metadata), so that readers get back the exact Arrow types: large and view
/// types, dictionaries, time zones, durations, seconds.
///
/// Batches go to the row group being filled; a row group is written when it reaches the
/// [`WriterOptions`] limits, or on [`flush`](Self::flush). [`finish`](Self::finish) (or
/// [`close`](Self::close)) writes the footer.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
/// use parquet_arrow::ArrowWriter;
///
/// let ids: ArrayRef = Arc::new(Int64Array::from(vec![1, 2, 3]));
/// let names: ArrayRef = Arc::new(StringArray::from(vec![Some("a"), None, Some("c")]));
/// let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)])?;
///
/// let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), None)?;
/// writer.write(&batch)?;
/// let metadata = writer.finish()?;
/// assert_eq!(metadata.num_rows(), 3);
/// let file: Vec<u8> = writer.into_inner();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ArrowWriter<W: Sink> {
    writer: FileWriter<W>,
    schema: SchemaRef,
    leaves: Vec<LeafPath>,
    levels: Levels,
    scratch: Scratch,
    /// Per leaf column, the value buffer of the last batch, reused.
    values: Vec<ColumnValues>,
}

impl<W: Sink> std::fmt::Debug for ArrowWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrowWriter")
            .field("schema", &self.schema)
            .field("bytes_written", &self.writer.bytes_written())
            .finish_non_exhaustive()
    }
}

impl<W: Sink> ArrowWriter<W> {
    /// A writer of batches of `schema` to `sink`, with `options` (the defaults of
    /// [`WriterOptions::new`] when `None`) and `ARROW:schema` added to its key-value
    /// metadata.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] for an Arrow type Parquet cannot hold; the Parquet writer's
    /// error for options that do not fit the schema, or the sink's.
    pub fn try_new(sink: W, schema: SchemaRef, options: Option<WriterOptions>) -> Result<Self> {
        let parquet = arrow_to_parquet_schema(&schema)?;
        let leaves = leaf_paths(&schema)?;
        let columns = parquet.columns();
        let consistent = leaves.len() == columns.len()
            && leaves
                .iter()
                .zip(columns)
                .all(|(l, c)| l.max_def == c.max_def_level && l.max_rep == c.max_rep_level);
        if !consistent {
            return Err(invalid(
                "leaf columns that differ from the Parquet schema's",
            ));
        }
        let values = columns
            .iter()
            .map(|c| ColumnValues::new(c.physical_type, c.type_length))
            .collect();
        let mut options = options
            .unwrap_or_default()
            .with_key_value(ARROW_SCHEMA_META_KEY, Some(encode_arrow_schema(&schema)));
        for (key, value) in schema.metadata() {
            options = options.with_key_value(key.clone(), Some(value.clone()));
        }
        let writer = FileWriter::new(sink, parquet, options)?;
        Ok(Self {
            writer,
            schema,
            leaves,
            levels: Levels::default(),
            scratch: Scratch::default(),
            values,
        })
    }

    /// The Arrow schema of the batches.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The Parquet schema written.
    pub fn parquet_schema(&self) -> &parquet_file::Schema {
        self.writer.schema()
    }

    /// Bytes written to the sink so far (row groups still being filled are not).
    pub fn bytes_written(&self) -> u64 {
        self.writer.bytes_written()
    }

    /// Rows taken so far.
    pub fn num_rows(&self) -> u64 {
        self.writer.num_rows()
    }

    /// Writes a batch (into the row group being filled, which is written when full).
    ///
    /// # Errors
    ///
    /// [`Error::Argument`] for a batch whose schema differs from the writer's, a null in
    /// a non-nullable field, or a value its Parquet type cannot hold (a decimal with more
    /// digits than its precision, seconds past the range of milliseconds): nothing of the
    /// batch is written then, and the writer goes on. A batch of more than 65,536 rows (or
    /// about 4 million values, in a wide schema) is written in slices of that many, so
    /// that it costs the converted values of one slice rather than its own (a batch of a
    /// whole table, say), and one whose byte arrays pass 4 GiB in a column is written in
    /// parts: of those, the slices or parts before the one refused stay written. The Parquet writer's error otherwise (after
    /// [`finish`](Self::finish), or an error of the sink, which stop the writer).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if !Arc::ptr_eq(batch.schema_ref(), &self.schema)
            && !same_schema(batch.schema_ref(), &self.schema)
        {
            return Err(Error::Argument(format!(
                "a batch of schema {} for a writer of schema {}",
                batch.schema(),
                self.schema
            )));
        }
        let rows = batch.num_rows();
        let slice = (SLICE_VALUES / self.leaves.len().max(1)).clamp(STEP_ROWS, SLICE_ROWS)
            / STEP_ROWS
            * STEP_ROWS;
        if rows <= slice {
            return self.write_rows(batch);
        }
        for start in (0..rows).step_by(slice) {
            self.write_rows(&batch.slice(start, slice.min(rows - start)))?;
        }
        Ok(())
    }

    /// Writes the rows of `batch` in one call to the Parquet writer, or, when its byte
    /// arrays are too large for one column batch, in halves.
    fn write_rows(&mut self, batch: &RecordBatch) -> Result<()> {
        let rows = batch.num_rows();
        if rows == 0 {
            return Ok(());
        }
        let columns = self.writer.schema().columns();
        self.levels.start_batch();
        let mut batches = Vec::with_capacity(self.leaves.len());
        let mut too_large = false;
        let mut failure = None;
        for (i, (leaf, column)) in self.leaves.iter().zip(columns).enumerate() {
            let mut values =
                std::mem::replace(&mut self.values[i], ColumnValues::Boolean(Vec::new()));
            values.clear();
            let shredded = batch
                .columns()
                .get(leaf.column)
                .ok_or_else(|| invalid("a batch without a column of its schema"))
                .and_then(|array| self.levels.compute(array.as_ref(), leaf));
            let shredded = match shredded {
                Ok(s) => s,
                Err(e) => {
                    self.values[i] = values;
                    failure = Some(in_column(e, &column.path));
                    break;
                }
            };
            match gather(
                shredded.leaf,
                self.levels.ranges(),
                &mut values,
                &mut self.scratch,
            ) {
                Ok(()) => {}
                Err(GatherError::TooLarge) => {
                    self.values[i] = values;
                    too_large = true;
                    break;
                }
                Err(GatherError::Failed(e)) => {
                    self.values[i] = values;
                    failure = Some(in_column(e, &column.path));
                    break;
                }
            }
            match ColumnBatch::try_new(column, values, shredded.def, shredded.rep) {
                Ok(b) => batches.push(b),
                Err(e) => {
                    self.values[i] = ColumnValues::new(column.physical_type, column.type_length);
                    failure = Some(e.into());
                    break;
                }
            }
        }
        let written = if too_large || failure.is_some() {
            Ok(())
        } else {
            self.writer.write_batches(&batches)
        };
        for (slot, batch) in self.values.iter_mut().zip(batches) {
            *slot = batch.into_values();
        }
        if let Some(e) = failure {
            return Err(e);
        }
        if too_large {
            if rows == 1 {
                return Err(Error::Unsupported(
                    "a row whose byte arrays in one column exceed 4 GiB".into(),
                ));
            }
            let half = rows / 2;
            self.write_rows(&batch.slice(0, half))?;
            return self.write_rows(&batch.slice(half, rows - half));
        }
        Ok(written?)
    }

    /// Writes out the row group being filled (nothing when it is empty).
    ///
    /// # Errors
    ///
    /// The Parquet writer's: after [`finish`](Self::finish), or the sink's.
    pub fn flush(&mut self) -> Result<()> {
        Ok(self.writer.flush_row_group()?)
    }

    /// Writes the last row group and the footer; gives the file's metadata.
    ///
    /// # Errors
    ///
    /// The Parquet writer's: when already finished, or the sink's.
    pub fn finish(&mut self) -> Result<FileMetaData> {
        Ok(self.writer.finish()?)
    }

    /// The sink, given back (after [`finish`](Self::finish), a whole file).
    pub fn into_inner(self) -> W {
        self.writer.into_inner()
    }

    /// [`finish`](Self::finish)es the file and drops the writer.
    ///
    /// # Errors
    ///
    /// As [`finish`](Self::finish).
    pub fn close(mut self) -> Result<FileMetaData> {
        self.finish()
    }
}

/// `error` saying in which column it happened.
fn in_column(error: Error, path: &parquet_file::ColumnPath) -> Error {
    match error {
        Error::Argument(m) => Error::Argument(format!("column {path}: {m}")),
        Error::Invalid(m) => Error::Invalid(format!("column {path}: {m}")),
        Error::Unsupported(m) => Error::Unsupported(format!("column {path}: {m}")),
        other => other,
    }
}

/// Whether batches of schema `batch` can be written as `writer`: the same fields, names
/// and types (nullability is checked against the data, metadata and the names of list
/// elements and map entries are not looked at).
fn same_schema(batch: &Schema, writer: &Schema) -> bool {
    batch.fields().len() == writer.fields().len()
        && batch
            .fields()
            .iter()
            .zip(writer.fields())
            .all(|(a, b)| a.name() == b.name() && same_type(a.data_type(), b.data_type()))
}

fn same_type(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
        (DataType::List(a), DataType::List(b))
        | (DataType::LargeList(a), DataType::LargeList(b))
        | (DataType::ListView(a), DataType::ListView(b))
        | (DataType::LargeListView(a), DataType::LargeListView(b))
        | (DataType::Map(a, _), DataType::Map(b, _)) => same_type(a.data_type(), b.data_type()),
        (DataType::FixedSizeList(a, n), DataType::FixedSizeList(b, m)) => {
            n == m && same_type(a.data_type(), b.data_type())
        }
        (DataType::Struct(a), DataType::Struct(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b.iter())
                    .all(|(a, b)| a.name() == b.name() && same_type(a.data_type(), b.data_type()))
        }
        (DataType::Dictionary(ka, va), DataType::Dictionary(kb, vb)) => {
            ka == kb && same_type(va, vb)
        }
        _ => a == b,
    }
}
