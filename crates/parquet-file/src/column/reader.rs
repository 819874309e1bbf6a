//! Reading a column chunk in batches of whole records.

use super::ColumnBatch;
use super::decode::{Dict, PageCursor, Progress, RecordSize, Stop, Target};
use crate::error::{Context, Error, Result};
use crate::index::{PageLocation, RowSelection};
use crate::limits::Limits;
use crate::page::{Page, PageKind, PageReader};
use crate::schema::ColumnDescriptor;

/// Level entries after which a read of a repeated column stops at the next record's
/// start, so that a batch of many large records stays near this size.
const BATCH_LEVELS: usize = 1 << 20;

/// The rows of a chunk to read, and the page locations to skip pages with.
#[derive(Debug, Clone)]
pub(crate) struct ChunkSelection {
    pub(crate) rows: RowSelection,
    /// The chunk's page locations (from its offset index), when it has them and the
    /// reader holds only the pages with selected rows.
    pub(crate) pages: Option<Vec<PageLocation>>,
}

/// Where a data page is, and the row of its first record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PageSpan {
    /// The file offset of its header.
    pub(crate) offset: u64,
    /// Its stored length, header included.
    pub(crate) len: u64,
    /// The row of the first record it starts (records begun before it may go on in it).
    pub(crate) first_row: u64,
}

/// Reads one column chunk in batches of whole records ([`read_records`](Self::read_records))
/// or skips records ([`skip_records`](Self::skip_records)); a record of a repeated column
/// is never split between batches.
///
/// Memory follows the batch sizes the caller asks for, never a count from the file: a
/// page is decoded a step at a time, as its records are read. Made with a row selection
/// ([`FileReader::column_chunk_selected`](crate::FileReader::column_chunk_selected)), it
/// reads only the selected rows, seeking through the offset index past pages without
/// any.
///
/// Each page's counts are checked against what remains of the chunk and row group, and a
/// chunk read to its end must hold exactly its row group's rows.
#[derive(Debug)]
pub struct ColumnChunkReader {
    pages: PageReader,
    column: ColumnDescriptor,
    /// The row group's position in the file, for errors.
    row_group: usize,
    dictionary: Option<Dict>,
    /// The data page being read.
    page: Option<PageCursor>,
    /// The rows of the row group.
    num_rows: u64,
    /// The records read or skipped: the row (within the row group) of the next record.
    row: u64,
    /// Whether the next data page opened must start a record: the chunk's first, and one
    /// found through the offset index.
    starts_record: bool,
    record: RecordSize,
    selection: Option<ChunkSelection>,
    /// Whether the page reader holds only some of the chunk's pages (those of selected
    /// rows): the end of what it holds is then not the chunk's end.
    partial: bool,
    /// Whether a seek moved the reader: the chunk is then not read to its end.
    sought: bool,
}

impl std::fmt::Debug for PageCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageCursor")
            .field("offset", &self.page().offset)
            .finish_non_exhaustive()
    }
}

impl ColumnChunkReader {
    pub(crate) fn new(
        pages: PageReader,
        column: ColumnDescriptor,
        (row_group, num_rows): (usize, u64),
        limits: &Limits,
        selection: Option<ChunkSelection>,
    ) -> Self {
        Self {
            pages,
            column,
            row_group,
            dictionary: None,
            page: None,
            num_rows,
            row: 0,
            starts_record: true,
            record: RecordSize {
                values: 0,
                max: limits.max_record_values(),
            },
            partial: selection.as_ref().is_some_and(|s| s.pages.is_some()),
            selection,
            sought: false,
        }
    }

    /// A reader of pages found one at a time (by [`feed`](Self::feed)) whose end is not
    /// known to be the chunk's, nor the rows of its row group: for recovery, which finds
    /// a chunk's pages by decoding them.
    pub(crate) fn open_ended(pages: PageReader, column: ColumnDescriptor, limits: &Limits) -> Self {
        let mut reader = Self::new(pages, column, (0, u64::MAX), limits, None);
        reader.partial = true;
        reader
    }

    /// Goes on with the pages of `pages`, which follow those read so far in the chunk
    /// (the dictionary and the record under way are kept).
    pub(crate) fn feed(&mut self, pages: PageReader) {
        self.pages = pages;
        self.page = None;
    }

    /// The column being read.
    pub fn column(&self) -> &ColumnDescriptor {
        &self.column
    }

    /// The row (within the row group) of the next record to read or skip.
    pub fn row(&self) -> u64 {
        self.row
    }

    /// Reads up to `max_records` whole records and appends their values and levels to
    /// `batch`; returns how many it read: 0 only at the end of the chunk (or of the rows
    /// selected), fewer than asked when the chunk ends or when a batch of a repeated
    /// column has reached about a million level entries. With a row selection, only
    /// selected rows are read.
    ///
    /// After an error, `batch` may hold part of the failed read: clear it before reusing
    /// it; the reader should not be used again.
    ///
    /// # Errors
    ///
    /// Any error reading a page (see [`PageReader::next_page`]), levels or values that do
    /// not decode or do not agree in number, a level above the column's maximum, a
    /// dictionary index out of range, an encoding that does not fit the column, a record
    /// with more values than [`Limits::max_record_values`](crate::Limits), or a chunk
    /// whose records do not add up to its row group's rows.
    pub fn read_records(&mut self, max_records: usize, batch: &mut ColumnBatch) -> Result<usize> {
        let result = self.read_selected(max_records, Some(batch));
        self.located(result)
    }

    /// Skips up to `n` records (of the selected rows, with a row selection); returns how
    /// many it skipped: fewer only at the end of the chunk. Pages whose records all lie in
    /// the skipped range are neither decompressed nor decoded where their headers tell
    /// how many records they hold (unrepeated columns, v2 pages).
    ///
    /// # Errors
    ///
    /// As [`read_records`](Self::read_records).
    pub fn skip_records(&mut self, n: usize) -> Result<usize> {
        let result = self.read_selected(n, None);
        self.located(result)
    }

    /// `result`, its error located in the chunk's row group and column.
    fn located<T>(&self, result: Result<T>) -> Result<T> {
        result
            .in_row_group(self.row_group)
            .in_column(&self.column.path)
    }

    /// Reads (into `batch`) or skips up to `max_records` records of the rows selected.
    fn read_selected(
        &mut self,
        max_records: usize,
        batch: Option<&mut ColumnBatch>,
    ) -> Result<usize> {
        // Taken out while reading, to read the reader's state beside it.
        let Some(selection) = self.selection.take() else {
            return self.advance(max_records, batch);
        };
        let result = self.read_runs(&selection, max_records, batch);
        self.selection = Some(selection);
        result
    }

    /// Reads (into `batch`) or skips up to `max_records` records of `selection`'s rows.
    fn read_runs(
        &mut self,
        selection: &ChunkSelection,
        max_records: usize,
        mut batch: Option<&mut ColumnBatch>,
    ) -> Result<usize> {
        let mut got = 0;
        while got < max_records {
            let Some(next) = selection.rows.next_selected(self.row) else {
                break;
            };
            self.position(next, selection.pages.as_deref())?;
            if self.row != next {
                break;
            }
            let run_end = selection.rows.run_end(next).unwrap_or(next);
            let want =
                (max_records - got).min(usize::try_from(run_end - next).unwrap_or(usize::MAX));
            let n = self.advance(want, batch.as_deref_mut())?;
            got += n;
            if n == 0 {
                break;
            }
        }
        Ok(got)
    }

    /// Moves to row `target` (at or after the current row): through the offset index
    /// `pages` to the page holding it, when the reader has one and the page is not the
    /// current one, then skipping the records before it.
    fn position(&mut self, target: u64, pages: Option<&[PageLocation]>) -> Result<()> {
        if target <= self.row {
            return Ok(());
        }
        if let Some(pages) = pages {
            let p = pages
                .partition_point(|l| l.first_row_index <= target)
                .saturating_sub(1);
            // The page being read is the last data page the page reader read.
            let current = (self.page.is_some())
                .then(|| self.pages.data_pages().checked_sub(1))
                .flatten();
            if current != Some(p)
                && let Some(location) = pages.get(p).copied()
                && location.first_row_index >= self.row
            {
                self.seek(p, &location)?;
            }
        }
        let n = usize::try_from(target - self.row).unwrap_or(usize::MAX);
        self.advance(n, None)?;
        Ok(())
    }

    /// Moves to data page `ordinal` at `location`, reading the dictionary page first
    /// when it has not been read yet.
    fn seek(&mut self, ordinal: usize, location: &PageLocation) -> Result<()> {
        if self.dictionary.is_none()
            && let Some((header, data)) = self.pages.read_dictionary()?
        {
            self.dictionary = Some(Dict::read(&self.column, &data, header.num_values)?);
        }
        self.pages
            .seek(location.offset, ordinal, location.first_row_index)?;
        self.page = None;
        self.row = location.first_row_index;
        self.starts_record = true;
        self.sought = true;
        Ok(())
    }

    /// Reads (into `batch`) or skips up to `max` records from where the reader is,
    /// page after page.
    fn advance(&mut self, max: usize, mut batch: Option<&mut ColumnBatch>) -> Result<usize> {
        let repeated = self.column.max_rep_level > 0;
        let mut records = 0;
        let mut levels = 0;
        loop {
            if self.page.is_none() {
                // A repeated column's record may go on in the next page: look.
                if records == max && !repeated {
                    break;
                }
                let skip = if batch.is_none() { max - records } else { 0 };
                let (opened, skipped) = self.next_page(skip)?;
                records += skipped;
                self.count_rows(skipped)?;
                if !opened {
                    break;
                }
            }
            let Some(cursor) = self.page.as_mut() else {
                break;
            };
            let target = batch.as_deref_mut().map(|b| Target {
                rep: &mut b.rep_levels,
                def: &mut b.def_levels,
                values: &mut b.values,
                kept: &mut b.kept,
            });
            let progress: Progress = cursor
                .read(
                    &self.column,
                    self.dictionary.as_ref(),
                    max - records,
                    BATCH_LEVELS.saturating_sub(levels),
                    &mut self.record,
                    target,
                )
                .at_offset(cursor.page().offset)?;
            records += progress.records;
            levels += progress.levels;
            self.count_rows(progress.records)?;
            if let Some(batch) = batch.as_deref_mut() {
                batch.num_levels += progress.levels;
                batch.num_records += progress.records;
            }
            match progress.stop {
                Stop::PageEnd => {
                    self.page = None;
                }
                Stop::Boundary => break,
            }
        }
        Ok(records)
    }

    /// Opens the next data page, for looking at pages one by one: where it is (its file
    /// offset and stored length, header included) and the row of the first record it
    /// starts. `None` at the end of the chunk.
    pub(crate) fn open_page(&mut self) -> Result<Option<PageSpan>> {
        self.page = None;
        let before = self.row;
        let (opened, _) = self.next_page(0)?;
        let Some(cursor) = self.page.as_ref().filter(|_| opened) else {
            return Ok(None);
        };
        let offset = cursor.page().offset;
        Ok(Some(PageSpan {
            offset,
            len: self.pages.offset() - offset,
            first_row: before,
        }))
    }

    /// Reads up to `max_records` records of the page [`open_page`](Self::open_page)
    /// opened into `batch`; returns the records (started) read and whether the page
    /// ended.
    pub(crate) fn read_open_page(
        &mut self,
        max_records: usize,
        batch: &mut ColumnBatch,
    ) -> Result<(usize, bool)> {
        let Some(cursor) = self.page.as_mut() else {
            return Ok((0, true));
        };
        let progress = cursor
            .read(
                &self.column,
                self.dictionary.as_ref(),
                max_records,
                BATCH_LEVELS,
                &mut self.record,
                Some(Target {
                    rep: &mut batch.rep_levels,
                    def: &mut batch.def_levels,
                    values: &mut batch.values,
                    kept: &mut batch.kept,
                }),
            )
            .at_offset(cursor.page().offset)?;
        batch.num_levels += progress.levels;
        batch.num_records += progress.records;
        self.count_rows(progress.records)?;
        let ended = progress.stop == Stop::PageEnd;
        if ended {
            self.page = None;
        }
        Ok((progress.records, ended))
    }

    /// Counts `records` more records read or skipped: never more than the row group's rows.
    fn count_rows(&mut self, records: usize) -> Result<()> {
        self.row += records as u64;
        if self.row > self.num_rows {
            return Err(Error::mismatch(
                "records in the column chunk, at most its row group's rows",
                self.num_rows,
                self.row,
            ));
        }
        Ok(())
    }

    /// Opens the next data page (reading a dictionary page on the way), first passing
    /// over whole pages whose records are known and all among the next `skip`. Returns
    /// whether a page was opened, and the records of the pages passed over.
    fn next_page(&mut self, skip: usize) -> Result<(bool, usize)> {
        let mut skipped = 0;
        loop {
            let Some(raw) = self.pages.next_raw()? else {
                // The end of the chunk, unless the reader holds only some of its pages.
                if !self.partial && !self.sought && self.row + skipped as u64 != self.num_rows {
                    return Err(Error::mismatch(
                        "records in the column chunk, by its row group's rows",
                        self.num_rows,
                        self.row + skipped as u64,
                    ));
                }
                return Ok((false, skipped));
            };
            let offset = raw.offset;
            let known = match &raw.header.kind {
                PageKind::DataV2(h) => Some(h.num_rows),
                PageKind::Data(h) if self.column.max_rep_level == 0 => Some(h.num_values),
                _ => None,
            };
            if let Some(records) = known
                && skip > 0
                && records <= skip - skipped
            {
                // The whole page is skipped: its body is never touched.
                skipped += records;
                self.starts_record = matches!(raw.header.kind, PageKind::DataV2(_));
                continue;
            }
            let is_data = matches!(raw.header.kind, PageKind::Data(_) | PageKind::DataV2(_));
            match self.pages.decode(raw).at_offset(offset)? {
                Some(Page::Dictionary { data, header, .. }) => {
                    self.dictionary =
                        Some(Dict::read(&self.column, &data, header.num_values).at_offset(offset)?);
                }
                Some(Page::Data(page)) => {
                    let v2 = page.is_v2();
                    let mut cursor = PageCursor::open(page, &self.column).at_offset(offset)?;
                    if (self.starts_record || v2)
                        && self.column.max_rep_level > 0
                        && cursor
                            .peek_rep()
                            .at_offset(offset)?
                            .is_some_and(|level| level != 0)
                    {
                        return Err(Error::malformed(
                            "a column chunk, data page v2 or page found through the offset index that does not start at a record boundary",
                        )
                        .at_offset(offset));
                    }
                    self.starts_record = false;
                    self.page = Some(cursor);
                    return Ok((true, skipped));
                }
                None => {
                    debug_assert!(!is_data, "data pages decode to pages");
                }
            }
        }
    }
}
