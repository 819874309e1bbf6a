//! ORC files into Arrow `RecordBatch`es, through `orc-file`:
//! [`OrcRecordBatchReaderBuilder`] chooses what to read, [`OrcRecordBatchReader`] reads
//! it, and [`orc_to_arrow_schema`] gives the Arrow type of each ORC type as Arrow C++
//! (pyarrow's `pyarrow.orc`) reads it.

mod array;
mod batches;
mod filter;
mod schema;

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchOptions, RecordBatchReader};
use arrow_schema::{ArrowError, Schema, SchemaRef};
use orc_file::{Batch, OrcReader, ReadOptions, TypeDescription};
use parquet_core::Predicate;
use parquet_core::io::Source;

use crate::error::{Error, Result, invalid};
use array::{Columns, to_array};
use batches::OrcBatches;
pub use schema::orc_to_arrow_schema;

/// The rows of a batch when none is set, as arrow-rs reads.
const DEFAULT_BATCH_SIZE: usize = 1024;

/// Builds an [`OrcRecordBatchReader`]: which columns and rows to read, and how many rows
/// per batch.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
///
/// use arrow_array::cast::AsArray;
/// use arrow_array::types::Int64Type;
/// use orc_file::{OrcWriter, TypeDescription, WriterOptions};
/// use parquet_arrow::OrcRecordBatchReaderBuilder;
/// use parquet_core::{Field, Op, Predicate, Row};
///
/// let schema = TypeDescription::parse("struct<id:bigint,name:string>")?;
/// let mut writer = OrcWriter::new(Vec::new(), schema, WriterOptions::default())?;
/// for id in 0..100 {
///     let name = Field::Str(format!("n{id}"));
///     writer.write_row(&Row::new(vec![(Arc::from("id"), Field::Int(id)), (Arc::from("name"), name)]))?;
/// }
/// let file: Vec<u8> = writer.finish()?;
///
/// let reader = OrcRecordBatchReaderBuilder::try_new(file)?
///     .with_projection(["id"])
///     .with_predicate(Predicate::compare("id", Op::Ge, 90))
///     .with_batch_size(8)
///     .build()?;
/// let mut ids = Vec::new();
/// for batch in reader {
///     let batch = batch?;
///     ids.extend(batch.column(0).as_primitive::<Int64Type>().values().iter().copied());
/// }
/// assert_eq!(ids, (90..100).collect::<Vec<i64>>());
/// # Ok(()) }
/// ```
pub struct OrcRecordBatchReaderBuilder<S> {
    reader: OrcReader<S>,
    schema: SchemaRef,
    projection: Option<Vec<String>>,
    batch_size: usize,
    predicate: Option<Predicate>,
    limit: Option<usize>,
    offset: usize,
}

impl<S: Source> OrcRecordBatchReaderBuilder<S> {
    /// Opens the ORC file of `source`, reading its tail.
    ///
    /// # Errors
    ///
    /// A tail that does not read, or a type Arrow cannot hold (a union of more than 128
    /// alternatives).
    pub fn try_new(source: S) -> Result<Self> {
        Self::new_with_reader(OrcReader::open(source)?)
    }

    /// Reads the file of an opened `reader`.
    ///
    /// # Errors
    ///
    /// A type Arrow cannot hold.
    pub fn new_with_reader(reader: OrcReader<S>) -> Result<Self> {
        let schema = Arc::new(arrow_schema_of(&reader, None)?);
        Ok(Self {
            reader,
            schema,
            projection: None,
            batch_size: DEFAULT_BATCH_SIZE,
            predicate: None,
            limit: None,
            offset: 0,
        })
    }

    /// The Arrow schema of the whole file (before projection); the file's user metadata
    /// is its metadata, as pyarrow reads it.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The ORC reader: the file's ORC schema, stripes, statistics and metadata.
    pub fn orc_reader(&self) -> &OrcReader<S> {
        &self.reader
    }

    /// At most `batch_size` rows per batch (at least 1; 1024 by default). A batch does
    /// not cross stripes, nor, with a predicate, row groups of the row index.
    #[must_use]
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size.max(1);
        self
    }

    /// Only these columns, as `orc-file` takes them: top-level names, or dotted paths
    /// into structs (`address.city`; a top-level name holding a dot is taken whole
    /// first). A column is read with everything under it; a struct keeps only its
    /// selected fields. The columns come in the file's order.
    #[must_use]
    pub fn with_projection<I, T>(mut self, columns: I) -> Self
    where
        I: IntoIterator<Item = T>,
        T: Into<String>,
    {
        self.projection = Some(columns.into_iter().map(Into::into).collect());
        self
    }

    /// Only the rows where `predicate` holds: `orc-file` skips the stripes and row
    /// groups whose statistics rule every row out, and the rows of the rest are
    /// filtered exactly, as [`Predicate::matches`] judges `orc-file`'s rows. Its columns
    /// are paths through structs from a top-level column; they need not be projected.
    #[must_use]
    pub fn with_predicate(mut self, predicate: Predicate) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// At most `limit` rows (after the predicate and the offset).
    #[must_use]
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Skips the first `offset` rows (after the predicate).
    #[must_use]
    pub fn with_offset(mut self, offset: usize) -> Self {
        self.offset = offset;
        self
    }

    /// The reader.
    ///
    /// # Errors
    ///
    /// A projected or predicate column the file does not have, or a predicate column
    /// below a list, map or union.
    pub fn build(self) -> Result<OrcRecordBatchReader<S>>
    where
        S: 'static,
    {
        let file = self.reader.schema().clone();
        let output = match &self.projection {
            Some(names) => select(&file, names)?,
            None => vec![true; file.column_count()],
        };
        // What is read: the output, and the whole top-level columns the predicate reads.
        let mut read = output.clone();
        let mut names = self.projection;
        if let Some(predicate) = &self.predicate {
            let top = filter::top_columns(&file, predicate)?;
            for name in &top {
                if let Some(t) = file.field(name) {
                    mark(&mut read, t);
                }
            }
            if let Some(names) = &mut names {
                names.extend(top);
            }
        }
        let schema = Arc::new(arrow_schema_of(&self.reader, Some(&output))?);
        let mut outputs = Vec::new();
        let mut position = 0;
        for (name, t) in file.fields() {
            if !schema::is_selected(Some(&read), t.id()) {
                continue;
            }
            if schema::is_selected(Some(&output), t.id()) {
                outputs.push(Output {
                    name: name.to_owned(),
                    orc_type: t.clone(),
                    position,
                });
            }
            position += 1;
        }

        // With nothing to filter, no more rows than the offset and limit need.
        let needed = match (&self.predicate, self.limit) {
            (None, Some(limit)) => Some(limit.saturating_add(self.offset)),
            _ => None,
        };
        let batch_size = needed.map_or(self.batch_size, |n| n.clamp(1, self.batch_size));
        let mut options = ReadOptions::default().with_batch_size(batch_size);
        if let Some(names) = names {
            options = options.with_projection(names);
        }
        if let Some(predicate) = &self.predicate {
            options = options.with_predicate(predicate.clone());
        }
        Ok(OrcRecordBatchReader {
            batches: OrcBatches::new(self.reader, options)?,
            file_schema: file,
            columns: Columns { read, output },
            schema,
            outputs,
            read_columns: position,
            batch: Batch::default(),
            predicate: self.predicate,
            offset: self.offset,
            limit: self.limit,
            done: false,
        })
    }
}

/// The Arrow schema of the columns of `reader`'s file that `selected` keeps (all when
/// `None`), with the file's user metadata.
fn arrow_schema_of<S: Source>(reader: &OrcReader<S>, selected: Option<&[bool]>) -> Result<Schema> {
    let fields = schema::top_fields(reader.schema(), selected)?;
    let metadata: HashMap<String, String> = reader
        .user_metadata()
        .map(|(k, v)| (k.to_owned(), String::from_utf8_lossy(v).into_owned()))
        .collect();
    Ok(Schema::new_with_metadata(fields, metadata))
}

/// The columns (by id) that a projection selects, as `orc-file` selects them: a name or
/// path selects its column, the structs on the way, and everything under it.
fn select(schema: &TypeDescription, names: &[String]) -> Result<Vec<bool>> {
    let mut selected = vec![false; schema.column_count()];
    if let Some(root) = selected.first_mut() {
        *root = true;
    }
    for name in names {
        let parts: Vec<&str> = if schema.field(name).is_some() {
            vec![name]
        } else {
            name.split('.').collect()
        };
        let mut t = schema;
        for part in parts {
            t = t
                .field(part)
                .ok_or_else(|| Error::Argument(format!("no column {name:?} in {schema}")))?;
            if let Some(s) = selected.get_mut(t.id() as usize) {
                *s = true;
            }
        }
        mark(&mut selected, t);
    }
    Ok(selected)
}

/// Selects `t` and every column under it.
fn mark(selected: &mut [bool], t: &TypeDescription) {
    let ids = t.id() as usize..=t.max_id() as usize;
    if let Some(s) = selected.get_mut(ids) {
        s.fill(true);
    }
}

/// A top-level column that becomes an array.
struct Output {
    name: String,
    orc_type: TypeDescription,
    /// Its vector's position among the batch's.
    position: usize,
}

/// Reads record batches of an ORC file (see [`OrcRecordBatchReaderBuilder`]).
pub struct OrcRecordBatchReader<S: 'static> {
    batches: OrcBatches<S>,
    file_schema: TypeDescription,
    columns: Columns,
    schema: SchemaRef,
    outputs: Vec<Output>,
    /// The vectors of a batch read.
    read_columns: usize,
    /// The batch read, its buffers reused where the arrays do not take them.
    batch: Batch,
    predicate: Option<Predicate>,
    offset: usize,
    limit: Option<usize>,
    done: bool,
}

impl<S: Source + 'static> OrcRecordBatchReader<S> {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        while !self.done {
            if self.limit == Some(0) || !self.batches.next_into(&mut self.batch)? {
                self.done = true;
                break;
            }
            let read = self.batch.num_rows;
            if self.batch.columns.len() != self.read_columns {
                return Err(invalid(format!(
                    "a batch of {} columns where {} are read",
                    self.batch.columns.len(),
                    self.read_columns
                )));
            }
            let mut rows = read;
            if let Some(predicate) = &self.predicate {
                let keep = filter::evaluate(
                    predicate,
                    &self.file_schema,
                    &self.columns.read,
                    &self.batch,
                )?;
                rows = keep.iter().filter(|&&k| k).count();
                if rows == 0 {
                    continue;
                }
                if rows < read {
                    for output in &self.outputs {
                        if let Some(vector) = self.batch.columns.get_mut(output.position) {
                            filter::retain_rows(vector, &keep)?;
                        }
                    }
                }
            }
            if self.offset >= rows {
                self.offset -= rows;
                continue;
            }
            let skip = std::mem::take(&mut self.offset);
            let mut len = rows - skip;
            if let Some(limit) = &mut self.limit {
                len = len.min(*limit);
                *limit -= len;
            }
            let mut arrays = Vec::with_capacity(self.outputs.len());
            for (output, field) in self.outputs.iter().zip(self.schema.fields()) {
                let vector = self
                    .batch
                    .columns
                    .get_mut(output.position)
                    .ok_or_else(|| invalid("a batch without a column read"))?;
                arrays.push(to_array(
                    &output.orc_type,
                    field.data_type(),
                    &self.columns,
                    vector,
                    rows,
                    &output.name,
                )?);
            }
            let options = RecordBatchOptions::new().with_row_count(Some(rows));
            let batch =
                RecordBatch::try_new_with_options(Arc::clone(&self.schema), arrays, &options)?;
            return Ok(Some(if skip == 0 && len == rows {
                batch
            } else {
                batch.slice(skip, len)
            }));
        }
        Ok(None)
    }
}

impl<S: Source + 'static> Iterator for OrcRecordBatchReader<S> {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_batch() {
            Ok(batch) => batch.map(Ok),
            Err(e) => {
                self.done = true;
                Some(Err(e.into()))
            }
        }
    }
}

impl<S: Source + 'static> RecordBatchReader for OrcRecordBatchReader<S> {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }
}
