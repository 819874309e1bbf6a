//! Parquet files into Arrow `RecordBatch`es: [`ParquetRecordBatchReaderBuilder`] chooses
//! what to read, [`ParquetRecordBatchReader`] reads it.

mod assemble;
mod dictionary;
mod filter;
mod indices;
mod leaf;
mod selection;

use std::collections::VecDeque;
use std::sync::Arc;

use arrow_array::cast::AsArray as _;
use arrow_array::{
    Array as _, ArrayRef, RecordBatch, RecordBatchOptions, RecordBatchReader, StructArray,
};
use arrow_schema::DataType;
use arrow_schema::{ArrowError, SchemaRef};
use parquet_file::{
    ColumnBatch, ColumnChunkReader, FileMetaData, FileReader, PhysicalType, Predicate,
    PredicateExt as _, ReadOptions, RowSelection, Source,
};

use crate::error::{Error, Result};
use crate::schema::{ArrowShape, ShapeKind, schema_of, shape_of};
use assemble::{LeafBatch, Slots, build};
pub use filter::{ArrowPredicate, RowFilter};
pub use selection::ProjectionMask;
pub(crate) use selection::plan;

/// The rows of a batch when none is set, as arrow-rs reads.
const DEFAULT_BATCH_SIZE: usize = 1024;

/// Builds a [`ParquetRecordBatchReader`]: which columns, row groups and rows to read, and
/// how many rows per batch.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/example.parquet");
/// use parquet_arrow::{ParquetRecordBatchReaderBuilder, ProjectionMask};
///
/// let file = std::fs::File::open(path)?;
/// let reader = ParquetRecordBatchReaderBuilder::try_new(file)?
///     .with_projection(ProjectionMask::columns(["id"]))
///     .with_batch_size(8192)
///     .build()?;
/// for batch in reader {
///     let batch = batch?;
///     assert_eq!(batch.num_columns(), 1);
/// }
/// # Ok(()) }
/// ```
pub struct ParquetRecordBatchReaderBuilder<S> {
    reader: Arc<FileReader<S>>,
    schema: SchemaRef,
    settings: Settings,
    parallel: Option<Parallel<S>>,
}

/// What a read keeps, as the `with_` methods of a builder set it: of a local file here,
/// of a file in an object store in `crate::object_store`, which hands its settings on.
#[derive(Debug)]
pub(crate) struct Settings {
    pub(crate) batch_size: usize,
    pub(crate) projection: ProjectionMask,
    pub(crate) row_groups: Option<Vec<usize>>,
    pub(crate) selection: Option<RowSelection>,
    pub(crate) predicate: Option<Predicate>,
    pub(crate) filter: Option<RowFilter>,
    pub(crate) limit: Option<usize>,
    pub(crate) offset: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            batch_size: DEFAULT_BATCH_SIZE,
            projection: ProjectionMask::all(),
            row_groups: None,
            selection: None,
            predicate: None,
            filter: None,
            limit: None,
            offset: 0,
        }
    }
}

/// The leaf columns a read looks at, each a flag per leaf of the file.
pub(crate) struct ReadColumns {
    /// The projection's: the columns output.
    pub(crate) output: Vec<bool>,
    /// The output's, the predicate's and the row filter's: the columns decoded.
    pub(crate) read: Vec<bool>,
    /// The row filter's, when there is one.
    pub(crate) filter: Option<Vec<bool>>,
}

impl Settings {
    /// The columns the read looks at.
    ///
    /// # Errors
    ///
    /// A projected, predicate or filter column that `parquet` does not have.
    pub(crate) fn columns(&self, parquet: &parquet_file::Schema) -> Result<ReadColumns> {
        let output = self.projection.selected(parquet)?;
        let filter = match &self.filter {
            Some(f) => Some(f.projection.selected(parquet)?),
            None => None,
        };
        let mut read = output.clone();
        for (r, p) in read.iter_mut().zip(self.predicate_columns(parquet)?) {
            *r |= p;
        }
        for (r, f) in read.iter_mut().zip(filter.iter().flatten()) {
            *r |= f;
        }
        Ok(ReadColumns {
            output,
            read,
            filter,
        })
    }

    /// The leaves the predicate looks at, a flag per leaf of `parquet`.
    ///
    /// # Errors
    ///
    /// A predicate that does not fit the columns of `parquet`.
    pub(crate) fn predicate_columns(&self, parquet: &parquet_file::Schema) -> Result<Vec<bool>> {
        let mut flags = vec![false; parquet.columns().len()];
        if let Some(predicate) = &self.predicate {
            predicate.check(parquet)?;
            for path in predicate.columns() {
                let under = parquet.columns_under(path);
                if under.is_empty() {
                    return Err(Error::Argument(format!("no column {path}")));
                }
                for c in under {
                    if let Some(flag) = flags.get_mut(c) {
                        *flag = true;
                    }
                }
            }
        }
        Ok(flags)
    }

    /// The row groups read, checked against the `num_groups` of the file.
    ///
    /// # Errors
    ///
    /// A row group past the file's.
    pub(crate) fn row_groups(&self, num_groups: usize) -> Result<Vec<usize>> {
        let row_groups = self
            .row_groups
            .clone()
            .unwrap_or_else(|| (0..num_groups).collect());
        if let Some(&bad) = row_groups.iter().find(|&&g| g >= num_groups) {
            return Err(Error::Argument(format!(
                "row group {bad} of a file of {num_groups}"
            )));
        }
        Ok(row_groups)
    }

    /// The offset and limit, as rows of the selection, where no predicate or row filter
    /// drops rows first.
    pub(crate) fn offset_limit(&self) -> Option<(usize, Option<usize>)> {
        (self.predicate.is_none() && self.filter.is_none()).then_some((self.offset, self.limit))
    }
}

/// Reads row groups on rayon's thread pool: how many at a time, and the function that
/// does it (made where the source is known to be `Sync`).
struct Parallel<S> {
    row_groups: usize,
    read: ReadGroups<S>,
}

type ReadGroups<S> = fn(
    &FileReader<S>,
    &[ArrowShape],
    &SchemaRef,
    usize,
    &[GroupPlan],
) -> Vec<Result<Vec<RecordBatch>>>;

impl<S> Clone for Parallel<S> {
    fn clone(&self) -> Self {
        Self {
            row_groups: self.row_groups,
            read: self.read,
        }
    }
}

/// Every batch of each row group of `plans`, decoded in parallel: the row groups, and
/// within each the top-level fields, as tasks of their own.
fn read_groups<S: Source + Sync>(
    reader: &FileReader<S>,
    shapes: &[ArrowShape],
    schema: &SchemaRef,
    batch_size: usize,
    plans: &[GroupPlan],
) -> Vec<Result<Vec<RecordBatch>>> {
    use rayon::prelude::*;
    plans
        .par_iter()
        .map(|plan| {
            if shapes.is_empty() {
                // No field to split by: batches of rows only.
                return Group::read_all(reader, shapes, schema, batch_size, plan);
            }
            let fields: Vec<Result<Vec<ArrayRef>>> = shapes
                .par_iter()
                .map(|shape| Group::read_field(reader, shape, batch_size, plan))
                .collect();
            Group::zip_fields(fields, schema)
        })
        .collect()
}

impl<S: Source + Sync> ParquetRecordBatchReaderBuilder<S> {
    /// Decodes up to `row_groups` row groups at a time on rayon's thread pool (its
    /// global pool, or the one the reader is iterated in), each row group's top-level
    /// fields as tasks of their own (so a file of one row group is read in parallel too),
    /// for reading a whole file fast; 0 or 1 reads one at a time, on the calling thread.
    /// The batches are the same, in the same order; the memory held is that of the row
    /// groups decoded at once.
    #[must_use]
    pub fn with_parallelism(mut self, row_groups: usize) -> Self {
        self.parallel = (row_groups > 1).then_some(Parallel {
            row_groups,
            read: read_groups::<S>,
        });
        self
    }
}

impl<S: Source> ParquetRecordBatchReaderBuilder<S> {
    /// Opens the file of `source`, reading its footer.
    ///
    /// # Errors
    ///
    /// A footer that does not read, or a schema with a type Arrow cannot hold.
    pub fn try_new(source: S) -> Result<Self> {
        Self::try_new_with_options(source, ReadOptions::new())
    }

    /// Opens the file of `source` with `options` (checksums, decryption, limits).
    ///
    /// # Errors
    ///
    /// As [`try_new`](Self::try_new).
    pub fn try_new_with_options(source: S, options: ReadOptions) -> Result<Self> {
        Self::new_with_reader(FileReader::with_options(source, options)?)
    }

    /// Reads the file of an opened `reader`.
    ///
    /// # Errors
    ///
    /// A schema with a type Arrow cannot hold.
    pub fn new_with_reader(reader: FileReader<S>) -> Result<Self> {
        let reader = Arc::new(reader);
        let all = vec![true; reader.schema().columns().len()];
        let key_value = Some(reader.metadata().key_value_metadata());
        let shapes = shape_of(reader.schema(), &all, key_value)?;
        let schema = Arc::new(schema_of(&shapes, key_value));
        Ok(Self {
            reader,
            schema,
            settings: Settings::default(),
            parallel: None,
        })
    }

    /// This builder with the settings of another.
    #[cfg(feature = "object_store")]
    pub(crate) fn with_settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

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

    /// At most `batch_size` rows per batch (at least 1; 1024 by default). A batch does
    /// not cross row groups.
    #[must_use]
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.settings.batch_size = batch_size.max(1);
        self
    }

    /// Only the columns of `projection`.
    #[must_use]
    pub fn with_projection(mut self, projection: ProjectionMask) -> Self {
        self.settings.projection = projection;
        self
    }

    /// Only these row groups, in this order.
    #[must_use]
    pub fn with_row_groups(mut self, row_groups: Vec<usize>) -> Self {
        self.settings.row_groups = Some(row_groups);
        self
    }

    /// Only the rows of `selection`, counted over the rows of the row groups read, one
    /// after another (as arrow-rs counts). Pages holding no selected row are neither
    /// read nor decoded where a column chunk has an offset index.
    #[must_use]
    pub fn with_row_selection(mut self, selection: RowSelection) -> Self {
        self.settings.selection = Some(selection);
        self
    }

    /// Only the rows where `predicate` holds: row groups are skipped by their statistics
    /// and Bloom filters, pages by the page index, and the rows left are filtered
    /// exactly.
    #[must_use]
    pub fn with_predicate(mut self, predicate: Predicate) -> Self {
        self.settings.predicate = Some(predicate);
        self
    }

    /// Only the rows `filter` keeps, evaluated on each decoded batch.
    #[must_use]
    pub fn with_row_filter(mut self, filter: RowFilter) -> Self {
        self.settings.filter = Some(filter);
        self
    }

    /// At most `limit` rows (after the filters and the offset).
    #[must_use]
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.settings.limit = Some(limit);
        self
    }

    /// Skips the first `offset` rows (after the filters).
    #[must_use]
    pub fn with_offset(mut self, offset: usize) -> Self {
        self.settings.offset = offset;
        self
    }

    /// The reader.
    ///
    /// # Errors
    ///
    /// A projection, row group or predicate column the file does not have.
    pub fn build(self) -> Result<ParquetRecordBatchReader<S>> {
        let Self {
            reader,
            settings,
            parallel,
            ..
        } = self;
        let parquet = Arc::clone(reader.schema());
        let columns = settings.columns(&parquet)?;
        let key_value = Some(reader.metadata().key_value_metadata());
        let output = shape_of(&parquet, &columns.output, key_value)?;
        let output_schema = Arc::new(schema_of(&output, key_value));
        let shapes = shape_of(&parquet, &columns.read, key_value)?;
        let read_schema = Arc::new(schema_of(&shapes, key_value));
        let keep = output
            .iter()
            .map(|o| shapes.iter().position(|s| s.field.name() == o.field.name()))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| Error::Argument("a projected field that is not read".to_owned()))?;
        let filter_keep = match &columns.filter {
            Some(filter_columns) => {
                let fshapes = shape_of(&parquet, filter_columns, key_value)?;
                let keep = fshapes
                    .iter()
                    .filter_map(|f| shapes.iter().position(|s| s.field.name() == f.field.name()))
                    .collect::<Vec<_>>();
                Some((keep, Arc::new(schema_of(&fshapes, key_value))))
            }
            None => None,
        };

        let row_groups = settings.row_groups(reader.num_row_groups())?;
        let offset_limit = settings.offset_limit();
        let plan = plan(
            &reader,
            &row_groups,
            settings.selection.as_ref(),
            settings.predicate.as_ref(),
            offset_limit,
        )?;
        // The offset and limit left to apply: those of the rows that filters keep.
        let (offset, limit) = match offset_limit {
            Some(_) => (0, None),
            None => (settings.offset, settings.limit),
        };
        Ok(ParquetRecordBatchReader {
            reader,
            schema: output_schema,
            read_schema,
            shapes,
            keep,
            plan: plan.into_iter(),
            current: None,
            parallel,
            ready: VecDeque::new(),
            batch_size: settings.batch_size,
            predicate: settings.predicate,
            filter: settings.filter.zip(filter_keep),
            offset,
            limit,
            done: false,
        })
    }
}

/// One row group to read, and its rows (all when `None`).
pub(crate) struct GroupPlan {
    pub(crate) row_group: usize,
    pub(crate) rows: Option<RowSelection>,
    pub(crate) num_rows: u64,
}

/// The row group being read: a reader and a batch per leaf.
struct Group {
    chunks: Vec<ColumnChunkReader>,
    leaves: Vec<LeafBatch>,
    remaining: u64,
}

impl Group {
    /// Opens the column chunks of `shapes` in the row group of `plan`.
    fn open<S: Source>(
        reader: &FileReader<S>,
        shapes: &[ArrowShape],
        plan: &GroupPlan,
    ) -> Result<Self> {
        let mut columns = Vec::new();
        for shape in shapes {
            leaf_types(shape, &mut columns);
        }
        let parquet = reader.schema();
        let mut chunks = Vec::with_capacity(columns.len());
        let mut leaves = Vec::with_capacity(columns.len());
        for (c, target) in columns {
            let column = parquet.column(c)?.clone();
            let chunk = match &plan.rows {
                Some(rows) => reader.column_chunk_selected(plan.row_group, c, rows)?,
                None => reader.column_chunk(plan.row_group, c)?,
            };
            let mut batch = ColumnBatch::new(&column);
            if column.physical_type == PhysicalType::ByteArray && indices::from_indices(target) {
                batch.keep_dictionary(true);
            }
            chunks.push(chunk);
            leaves.push(LeafBatch {
                column,
                batch,
                dictionary: indices::DictionaryCache::default(),
            });
        }
        let remaining = plan
            .rows
            .as_ref()
            .map_or(plan.num_rows, RowSelection::row_count);
        Ok(Self {
            chunks,
            leaves,
            remaining,
        })
    }

    /// The next `batch_size` rows (or fewer, the last of the row group) as a batch of
    /// `schema`; `None` at the end of the row group.
    fn next_batch(
        &mut self,
        shapes: &[ArrowShape],
        schema: &SchemaRef,
        batch_size: usize,
    ) -> Result<Option<RecordBatch>> {
        let Some((rows, columns)) = self.next_arrays(shapes, batch_size)? else {
            return Ok(None);
        };
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        Ok(Some(RecordBatch::try_new_with_options(
            Arc::clone(schema),
            columns,
            &options,
        )?))
    }

    /// The next `batch_size` rows (or fewer, the last of the row group): how many, and
    /// the array of each of `shapes`; `None` at the end of the row group.
    fn next_arrays(
        &mut self,
        shapes: &[ArrowShape],
        batch_size: usize,
    ) -> Result<Option<(usize, Vec<ArrayRef>)>> {
        if self.remaining == 0 {
            return Ok(None);
        }
        let want = usize::try_from(self.remaining)
            .unwrap_or(usize::MAX)
            .min(batch_size);
        for (chunk, leaf) in self.chunks.iter_mut().zip(&mut self.leaves) {
            leaf.batch.clear();
            let got = chunk.read_records(want, &mut leaf.batch)?;
            if got != want {
                return Err(crate::error::invalid(format!(
                    "column {}: {got} records where the row group has {want} more",
                    leaf.column.path
                )));
            }
        }
        self.remaining -= want as u64;
        let columns = assemble_batch(shapes, &mut self.leaves)?;
        Ok(Some((want, columns)))
    }

    /// Every batch of the row group of `plan`.
    fn read_all<S: Source>(
        reader: &FileReader<S>,
        shapes: &[ArrowShape],
        schema: &SchemaRef,
        batch_size: usize,
        plan: &GroupPlan,
    ) -> Result<Vec<RecordBatch>> {
        let mut group = Self::open(reader, shapes, plan)?;
        let mut batches = Vec::new();
        while let Some(batch) = group.next_batch(shapes, schema, batch_size)? {
            batches.push(batch);
        }
        Ok(batches)
    }

    /// Every batch's array of the field of `shape` in the row group of `plan`.
    fn read_field<S: Source>(
        reader: &FileReader<S>,
        shape: &ArrowShape,
        batch_size: usize,
        plan: &GroupPlan,
    ) -> Result<Vec<ArrayRef>> {
        let shapes = std::slice::from_ref(shape);
        let mut group = Self::open(reader, shapes, plan)?;
        let mut arrays = Vec::new();
        while let Some((_, columns)) = group.next_arrays(shapes, batch_size)? {
            arrays.extend(columns);
        }
        Ok(arrays)
    }

    /// The batches of `schema` whose columns are the arrays of `fields`, batch by batch
    /// (each field read with the same batch size, so in batches of the same rows).
    fn zip_fields(
        fields: Vec<Result<Vec<ArrayRef>>>,
        schema: &SchemaRef,
    ) -> Result<Vec<RecordBatch>> {
        let mut fields = fields
            .into_iter()
            .map(|f| f.map(Vec::into_iter))
            .collect::<Result<Vec<_>>>()?;
        let mut batches = Vec::new();
        loop {
            let columns: Vec<ArrayRef> = fields.iter_mut().filter_map(Iterator::next).collect();
            if columns.is_empty() {
                return Ok(batches);
            }
            if columns.len() != fields.len() {
                return Err(crate::error::invalid(
                    "fields of a row group read into different numbers of batches",
                ));
            }
            let rows = columns.first().map_or(0, arrow_array::Array::len);
            let options = RecordBatchOptions::new().with_row_count(Some(rows));
            batches.push(RecordBatch::try_new_with_options(
                Arc::clone(schema),
                columns,
                &options,
            )?);
        }
    }
}

/// The leaf columns of `shape`, in order, and the Arrow type each is read as.
fn leaf_types<'a>(shape: &'a ArrowShape, out: &mut Vec<(usize, &'a DataType)>) {
    match &shape.kind {
        ShapeKind::Leaf { column } => out.push((*column, shape.field.data_type())),
        ShapeKind::Struct { children, .. } => {
            for child in children {
                leaf_types(child, out);
            }
        }
        ShapeKind::List { child, .. } => leaf_types(child, out),
    }
}

/// Reads record batches (see [`ParquetRecordBatchReaderBuilder`]).
pub struct ParquetRecordBatchReader<S> {
    reader: Arc<FileReader<S>>,
    schema: SchemaRef,
    read_schema: SchemaRef,
    shapes: Vec<ArrowShape>,
    /// The read fields that are output, by position.
    keep: Vec<usize>,
    plan: std::vec::IntoIter<GroupPlan>,
    current: Option<Group>,
    /// Row groups decoded at once on the thread pool (`None`: one at a time, here).
    parallel: Option<Parallel<S>>,
    /// Batches decoded ahead, in order.
    ready: VecDeque<RecordBatch>,
    batch_size: usize,
    predicate: Option<Predicate>,
    /// The row filter, the read fields it is shown, and their schema.
    filter: Option<(RowFilter, (Vec<usize>, SchemaRef))>,
    offset: usize,
    limit: Option<usize>,
    done: bool,
}

impl<S: Source> ParquetRecordBatchReader<S> {
    /// The next batch of the rows read, before filtering.
    fn next_read(&mut self) -> Result<Option<RecordBatch>> {
        if let Some(parallel) = self.parallel.clone() {
            return self.next_read_parallel(&parallel);
        }
        loop {
            if let Some(group) = &mut self.current
                && let Some(batch) =
                    group.next_batch(&self.shapes, &self.read_schema, self.batch_size)?
            {
                return Ok(Some(batch));
            }
            self.current = None;
            let Some(plan) = self.plan.next() else {
                return Ok(None);
            };
            self.current = Some(Group::open(&self.reader, &self.shapes, &plan)?);
        }
    }

    /// As [`next_read`](Self::next_read), decoding row groups `parallel` at a time.
    fn next_read_parallel(&mut self, parallel: &Parallel<S>) -> Result<Option<RecordBatch>> {
        while self.ready.is_empty() {
            let plans: Vec<GroupPlan> = self.plan.by_ref().take(parallel.row_groups).collect();
            if plans.is_empty() {
                return Ok(None);
            }
            let groups = (parallel.read)(
                &self.reader,
                &self.shapes,
                &self.read_schema,
                self.batch_size,
                &plans,
            );
            for group in groups {
                self.ready.extend(group?);
            }
        }
        Ok(self.ready.pop_front())
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        while !self.done {
            if self.limit == Some(0) {
                self.done = true;
                break;
            }
            let Some(batch) = self.next_read()? else {
                self.done = true;
                break;
            };
            let batch = self.filtered(batch)?;
            let batch = self.apply_offset_limit(batch);
            if batch.num_rows() == 0 {
                continue;
            }
            return project(&batch, &self.keep, &self.schema).map(Some);
        }
        Ok(None)
    }

    /// `batch` with the rows the predicate and the row filter keep.
    fn filtered(&mut self, batch: RecordBatch) -> Result<RecordBatch> {
        let mut batch = batch;
        if let Some(predicate) = &self.predicate {
            let mask = filter::evaluate(predicate, &batch)?;
            batch = arrow_select::filter::filter_record_batch(&batch, &mask)?;
        }
        if let Some((filter, (columns, schema))) = &mut self.filter {
            let input = project(&batch, columns, schema)?;
            let mask = filter.predicate.evaluate(input)?;
            batch = arrow_select::filter::filter_record_batch(&batch, &mask)?;
        }
        Ok(batch)
    }

    fn apply_offset_limit(&mut self, batch: RecordBatch) -> RecordBatch {
        let skip = self.offset.min(batch.num_rows());
        self.offset -= skip;
        let mut len = batch.num_rows() - skip;
        if let Some(limit) = &mut self.limit {
            len = len.min(*limit);
            *limit -= len;
        }
        if skip == 0 && len == batch.num_rows() {
            batch
        } else {
            batch.slice(skip, len)
        }
    }
}

/// The columns `keep` of `batch` as a batch of `schema`: a struct read with more fields
/// (for a predicate or a filter) keeps only those of `schema`.
fn project(batch: &RecordBatch, keep: &[usize], schema: &SchemaRef) -> Result<RecordBatch> {
    let columns = keep
        .iter()
        .zip(schema.fields())
        .map(|(&i, field)| narrow(batch.column(i), field.data_type()))
        .collect::<Result<Vec<_>>>()?;
    let options = RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
    Ok(RecordBatch::try_new_with_options(
        Arc::clone(schema),
        columns,
        &options,
    )?)
}

/// `array` with the struct fields of `target` only, at every depth of structs.
fn narrow(array: &ArrayRef, target: &DataType) -> Result<ArrayRef> {
    if array.data_type() == target {
        return Ok(Arc::clone(array));
    }
    let (Some(from), DataType::Struct(fields)) = (array.as_struct_opt(), target) else {
        return Err(crate::error::unsupported(format!(
            "{} read where {target} is wanted",
            array.data_type()
        )));
    };
    let children = fields
        .iter()
        .map(|f| {
            let child = from.column_by_name(f.name()).ok_or_else(|| {
                crate::error::unsupported(format!("no field {} in the struct read", f.name()))
            })?;
            narrow(child, f.data_type())
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Arc::new(StructArray::try_new_with_length(
        fields.clone(),
        children,
        from.nulls().cloned(),
        from.len(),
    )?))
}

/// The arrays of `shapes` from the leaves' batches (the leaves of the shapes in order).
fn assemble_batch(shapes: &[ArrowShape], leaves: &mut [LeafBatch]) -> Result<Vec<ArrayRef>> {
    let mut arrays = Vec::with_capacity(shapes.len());
    let mut rest = leaves;
    let mut columns = Vec::new();
    for shape in shapes {
        columns.clear();
        shape.columns(&mut columns);
        let n = columns.len().min(rest.len());
        let (mine, others) = std::mem::take(&mut rest).split_at_mut(n);
        rest = others;
        let slots = mine.iter().map(Slots::records).collect();
        arrays.push(build(shape, mine, slots)?);
    }
    Ok(arrays)
}

impl<S: Source> Iterator for ParquetRecordBatchReader<S> {
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

impl<S: Source> RecordBatchReader for ParquetRecordBatchReader<S> {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }
}
