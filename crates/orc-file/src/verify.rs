//! Verifying a file: every row of every stripe read, as batches of column vectors, and
//! the footer's row counts, the file's and each stripe's statistics and each row group's
//! row index statistics checked against the values they describe.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use parquet_core::io::Source;
use parquet_core::{Field, Row};

use crate::error::Result;
use crate::proto;
use crate::read::{Batches, OrcReader, ReadOptions};
use crate::row::{Strings, column_names, date, mismatch, row_at, utf8};
use crate::schema::{Kind, TypeDescription};
use crate::statistics::{ColumnStatistics, TypedStatistics, civil_from_days};
use crate::vector::{Batch, Vector, VectorData};

/// What [`OrcReader::verify`] found: the counts of what it read and checked, every
/// disagreement between the file's metadata and its data, and the disagreements that are
/// known habits of writers (notes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verification {
    /// The rows read.
    pub rows: u64,
    /// The sets of statistics (the file's and each stripe's) checked against the values.
    pub statistics_checked: usize,
    /// The sets of statistics whose writer left every count at 0 (Hive 0.11's): missing
    /// rather than wrong, so not checked.
    pub statistics_empty: usize,
    /// The row groups whose row index entries were checked.
    pub row_groups_checked: usize,
    /// Everything that disagrees with the values it describes.
    pub disagreements: Vec<Disagreement>,
    /// Disagreements that are known habits of Apache ORC's writers and mislead no
    /// reader: a child of a struct with nulls marked as having nulls of its own (C++ and
    /// Java), a map's or list's total children left at 0 (C++ maps; Java lists and maps),
    /// a list's or map's children counted as the row batch's capacity (ORC Java 2.x),
    /// a uniontype's nulls counted as values of its first alternative, their slots'
    /// leftover contents widening its least and greatest values or adding to its true
    /// count (C++), a float
    /// column's least and greatest values recorded as given, before their rounding to
    /// float (C++; the reader's pruning widens such bounds to hold the rounded values).
    pub notes: Vec<Disagreement>,
}

impl Verification {
    /// Whether nothing disagrees (notes aside).
    pub fn is_ok(&self) -> bool {
        self.disagreements.is_empty()
    }
}

/// The part of a file a set of statistics describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The whole file (the footer's statistics).
    File,
    /// A stripe (the metadata section's statistics of it).
    Stripe(usize),
    /// A row group of a stripe (its row index entries).
    RowGroup {
        /// The stripe.
        stripe: usize,
        /// The row group, counted from the stripe's first.
        group: usize,
    },
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File => f.write_str("file"),
            Self::Stripe(stripe) => write!(f, "stripe {stripe}"),
            Self::RowGroup { stripe, group } => write!(f, "stripe {stripe}, row group {group}"),
        }
    }
}

/// A statement of the file's metadata that its data contradicts.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Disagreement {
    /// The footer's row count is not the sum of its stripes'.
    FileRows {
        /// The footer's count.
        footer: u64,
        /// The stripes' counts, summed.
        stripes: u64,
    },
    /// A stripe whose rows are not as many as its information says.
    StripeRows {
        /// The stripe.
        stripe: usize,
        /// The rows its information says.
        stated: u64,
        /// The rows read.
        read: u64,
    },
    /// Rows read past the last stripe's count.
    RowsPastStripes,
    /// Statistics of another number of stripes than the file has, or of another number
    /// of columns than the schema has.
    StatisticsCount {
        /// What the statistics are of.
        scope: Scope,
        /// `"stripes"` or `"columns"`.
        what: &'static str,
        /// How many the statistics describe.
        stated: usize,
        /// How many the file has.
        expected: usize,
    },
    /// A row group that a column's row index has no entry for.
    MissingIndexEntry {
        /// The stripe.
        stripe: usize,
        /// The row group.
        group: usize,
        /// The column id.
        column: u32,
    },
    /// Row index positions of a row group that do not lead to its first row.
    RowIndexPositions {
        /// The stripe.
        stripe: usize,
        /// The row group.
        group: usize,
        /// Where they lead instead: another row (`"column id: 7, not 5"`), no row, or an
        /// error.
        found: String,
    },
    /// Statistics that the values contradict.
    Statistics {
        /// What the statistics describe.
        scope: Scope,
        /// The column id.
        column: u32,
        /// The column's dotted path (empty for the root).
        name: String,
        /// What is wrong: `"count"`, `"hasNull"`, `"true count"`, `"min"`, `"max"`,
        /// `"lower bound"`, `"upper bound"`, `"total children"`.
        what: &'static str,
        /// What the statistics say ([`Field::Null`] for nothing).
        stated: Field,
        /// What the values show ([`Field::Null`] for no value).
        actual: Field,
    },
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::FileRows { footer, stripes } => {
                write!(f, "the footer counts {footer} rows, its stripes {stripes}")
            }
            Self::StripeRows {
                stripe,
                stated,
                read,
            } => write!(
                f,
                "stripe {stripe}: {read} rows where its footer says {stated}"
            ),
            Self::RowsPastStripes => f.write_str("rows past the stripes' counts"),
            Self::StatisticsCount {
                scope: Scope::File,
                what,
                stated,
                expected,
            } => write!(
                f,
                "statistics of {stated} {what} where the file has {expected}"
            ),
            Self::StatisticsCount {
                scope,
                what,
                stated,
                expected,
            } => write!(
                f,
                "{scope}: statistics of {stated} {what} where the schema has {expected}"
            ),
            Self::MissingIndexEntry {
                stripe,
                group,
                column,
            } => write!(
                f,
                "stripe {stripe}, row group {group}: the row index of column {column} has no entry for it"
            ),
            Self::RowIndexPositions {
                stripe,
                group,
                found,
            } => write!(
                f,
                "stripe {stripe}, row group {group}: the row index positions do not lead to the \
                 group's first row ({found})"
            ),
            Self::Statistics {
                scope,
                column,
                name,
                what,
                stated,
                actual,
            } => {
                write!(f, "{scope}, column {column}")?;
                if !name.is_empty() {
                    write!(f, " ({name})")?;
                }
                write!(
                    f,
                    ": the statistics' {what} is {}, the values' {}",
                    Shown(stated),
                    Shown(actual)
                )
            }
        }
    }
}

/// A value of a statistic as `verify` shows it: strings quoted, dates as dates.
struct Shown<'a>(&'a Field);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Field::Null => f.write_str("none"),
            Field::Bool(b) => write!(f, "{b}"),
            Field::Int(v) => write!(f, "{v}"),
            Field::UInt(v) => write!(f, "{v}"),
            Field::Double(v) => write!(f, "{v:?}"),
            Field::Str(s) => write!(f, "{s:?}"),
            Field::Date(days) => {
                let (y, m, d) = civil_from_days(i64::from(*days));
                write!(f, "{y:04}-{m:02}-{d:02}")
            }
            other => write!(f, "{other:?}"),
        }
    }
}

impl<S: Source> OrcReader<S> {
    /// Reads every row of every stripe, as batches of column vectors (no row is
    /// assembled, so memory is bounded as a read's), and checks against the values: the
    /// footer's and each stripe's row counts, the file's and each stripe's statistics,
    /// and the statistics of each row group's row index entries. Statistics are judged
    /// in the calendar the values are read in. Where a stripe has a row index, a second
    /// read seeks to each row group by its positions and must find the group's first
    /// row there (that read holds the stripe's streams too: about twice a read's memory).
    ///
    /// # Errors
    ///
    /// A file that cannot be read at all (a stream that does not decode, a string that
    /// is not UTF-8, a past limit): what reads but disagrees with itself is reported in
    /// the [`Verification`].
    pub fn verify(&self) -> Result<Verification> {
        let schema = self.schema();
        let stripes = self.stripes();
        let stripe_stats = self.stripe_statistics_proto()?;
        let mut verifier = Verifier::new(self);
        let stated: u64 = stripes.iter().map(|s| s.num_rows).sum();
        if stated != self.num_rows() {
            verifier.found.disagreements.push(Disagreement::FileRows {
                footer: self.num_rows(),
                stripes: stated,
            });
        }
        if !stripe_stats.is_empty() && stripe_stats.len() != stripes.len() {
            verifier
                .found
                .disagreements
                .push(Disagreement::StatisticsCount {
                    scope: Scope::File,
                    what: "stripes",
                    stated: stripe_stats.len(),
                    expected: stripes.len(),
                });
        }
        let mut file = nothing_seen(schema);
        let mut cursor = Cursor {
            batches: self.batches(ReadOptions::default())?,
            batch: None,
        };
        for (i, info) in stripes.iter().enumerate() {
            let (stripe, got) = verifier.stripe(i, info.num_rows, &mut cursor)?;
            if got != info.num_rows {
                verifier.found.disagreements.push(Disagreement::StripeRows {
                    stripe: i,
                    stated: info.num_rows,
                    read: got,
                });
            }
            verifier.found.rows += got;
            if let Some(stats) = stripe_stats.get(i) {
                verifier.statistics(Scope::Stripe(i), &stats.col_stats, &stripe, got);
            }
            for (all, this) in file.iter_mut().zip(&stripe) {
                all.merge(this);
            }
        }
        if cursor.has_more() {
            verifier
                .found
                .disagreements
                .push(Disagreement::RowsPastStripes);
        }
        let rows = verifier.found.rows;
        verifier.statistics(Scope::File, self.file_statistics_proto(), &file, rows);
        Ok(verifier.found)
    }
}

/// The batches of a read and the row of the current one that comes next.
struct Cursor<'a, S> {
    batches: Batches<'a, S>,
    batch: Option<(Batch, usize)>,
}

impl<S: Source> Cursor<'_, S> {
    /// What the next `rows` rows hold, by column, and how many there were.
    fn seen(&mut self, schema: &TypeDescription, rows: u64) -> Result<(Vec<Seen>, u64)> {
        let mut seen = nothing_seen(schema);
        let mut got = 0_u64;
        while got < rows {
            let (current, next) = match self.batch.take() {
                Some((current, next)) if next < current.num_rows => (current, next),
                _ => match self.batches.next() {
                    Some(current) => (current?, 0),
                    None => break,
                },
            };
            let left = usize::try_from(rows - got).unwrap_or(usize::MAX);
            let end = current.num_rows.min(next.saturating_add(left));
            add_slots(&mut seen, schema, &current, next..end)?;
            got += (end - next) as u64;
            self.batch = Some((current, end));
        }
        Ok((seen, got))
    }

    /// The row read next, without reading past it; `None` at the end.
    fn peek_row(&mut self, schema: &TypeDescription, names: &[Arc<str>]) -> Result<Option<Row>> {
        let (current, next) = match self.batch.take() {
            Some((current, next)) if next < current.num_rows => (current, next),
            _ => match self.batches.next() {
                Some(current) => (current?, 0),
                None => return Ok(None),
            },
        };
        let row = row_at(&current, schema, names, next, Strings::Raw)?;
        self.batch = Some((current, next));
        Ok(Some(row))
    }

    /// Whether rows are left.
    fn has_more(&mut self) -> bool {
        let past = self
            .batch
            .as_ref()
            .is_some_and(|(current, next)| *next < current.num_rows);
        past || self.batches.next().is_some()
    }
}

/// A verification under way.
struct Verifier<'a, S> {
    reader: &'a OrcReader<S>,
    /// The dotted path of each column, by id.
    names: Vec<String>,
    /// The names of the top-level columns, as rows carry them.
    row_names: Vec<Arc<str>>,
    /// A second read, one row at a time, that seeks by the row indexes (opened at the
    /// first stripe with one).
    prober: Option<Batches<'a, S>>,
    found: Verification,
}

impl<'a, S: Source> Verifier<'a, S> {
    fn new(reader: &'a OrcReader<S>) -> Self {
        Self {
            reader,
            names: reader.schema().column_paths(),
            row_names: column_names(reader.schema()),
            prober: None,
            found: Verification::default(),
        }
    }

    /// Reads stripe `index` of `rows` rows on from `cursor`, a row group of
    /// [`row_index_stride`](OrcReader::row_index_stride) rows at a time when it has a
    /// row index, each judged by its entries: the values of the stripe, and how many
    /// rows there were.
    fn stripe(
        &mut self,
        index: usize,
        rows: u64,
        cursor: &mut Cursor<'_, S>,
    ) -> Result<(Vec<Seen>, u64)> {
        let schema = self.reader.schema();
        let indexes = self.reader.row_indexes(index)?;
        let group_rows = if indexes.is_empty() {
            u64::MAX
        } else {
            u64::from(self.reader.row_index_stride())
        };
        let mut stripe = nothing_seen(schema);
        let (mut got, mut group) = (0_u64, 0_usize);
        while got < rows {
            let want = group_rows.min(rows - got);
            if !indexes.is_empty() {
                self.positions(index, group, cursor)?;
            }
            let (seen, n) = cursor.seen(schema, want)?;
            if !indexes.is_empty() && self.group(index, group, &indexes, &seen, n) {
                self.found.row_groups_checked += 1;
            }
            for (all, this) in stripe.iter_mut().zip(&seen) {
                all.merge(this);
            }
            got += n;
            group += 1;
            if n < want {
                break;
            }
        }
        Ok((stripe, got))
    }

    /// Checks that the row index positions of row group `group` of stripe `stripe` lead
    /// to its first row, the row `cursor` reads next: a second read seeks there and reads
    /// one row.
    fn positions(&mut self, stripe: usize, group: usize, cursor: &mut Cursor<'_, S>) -> Result<()> {
        let schema = self.reader.schema();
        let Some(expected) = cursor.peek_row(schema, &self.row_names)? else {
            return Ok(());
        };
        if self.prober.is_none() {
            let mut options = ReadOptions::default().with_batch_size(1);
            options.keep_row_indexes = true;
            self.prober = Some(self.reader.batches(options)?);
        }
        let Some(prober) = &mut self.prober else {
            return Ok(());
        };
        let mut batch = Batch::default();
        let found = match prober.seek_to(stripe, group) {
            // A stripe whose index cannot seek: its missing entries are disagreements
            // of their own.
            Ok(false) => return Ok(()),
            Ok(true) => prober.next_into(&mut batch),
            Err(e) => Err(e),
        };
        let misled = match found {
            Ok(true) => {
                let found = row_at(&batch, schema, &self.row_names, 0, Strings::Raw)?;
                let differs = expected
                    .fields()
                    .iter()
                    .zip(found.fields())
                    .find(|((_, a), (_, b))| !same(a, b));
                match differs {
                    Some(((name, expected), (_, found))) => {
                        format!("{name}: {found:?}, not {expected:?}")
                    }
                    None => return Ok(()),
                }
            }
            Ok(false) => "no row".to_owned(),
            Err(e) => e.to_string(),
        };
        self.found
            .disagreements
            .push(Disagreement::RowIndexPositions {
                stripe,
                group,
                found: misled,
            });
        Ok(())
    }

    /// Checks the values `seen` of row group `group` of stripe `stripe` (`rows` rows)
    /// against the statistics of its entries in the stripe's row `indexes`; whether they
    /// were recorded (some writers leave every count at 0, as in their stripes'
    /// statistics). A group an index has no entry for is a disagreement.
    fn group(
        &mut self,
        stripe: usize,
        group: usize,
        indexes: &[(u32, proto::RowIndex)],
        seen: &[Seen],
        rows: u64,
    ) -> bool {
        let mut stats = Vec::with_capacity(indexes.len());
        for (column, index) in indexes {
            match index.entry.get(group) {
                Some(entry) => {
                    if let Some(s) = &entry.statistics {
                        stats.push((*column, self.reader.statistics_as_read(s.clone())));
                    }
                }
                None => self
                    .found
                    .disagreements
                    .push(Disagreement::MissingIndexEntry {
                        stripe,
                        group,
                        column: *column,
                    }),
            }
        }
        let recorded = rows == 0
            || stats
                .iter()
                .any(|(_, s)| s.number_of_values.unwrap_or(0) > 0);
        if recorded {
            let scope = Scope::RowGroup { stripe, group };
            for (id, s) in &stats {
                if let Some(seen) = seen.get(*id as usize) {
                    self.column(scope, *id, s, seen);
                }
            }
        }
        recorded && !stats.is_empty()
    }

    /// Checks a set of statistics of `scope` (`rows` rows) against the values `seen`,
    /// counting it as checked, or as empty when its writer recorded nothing.
    fn statistics(
        &mut self,
        scope: Scope,
        stats: &[proto::ColumnStatistics],
        seen: &[Seen],
        rows: u64,
    ) {
        if stats.is_empty() {
            return;
        }
        if rows > 0 && stats.iter().all(|c| c.number_of_values.unwrap_or(0) == 0) {
            self.found.statistics_empty += 1;
            return;
        }
        self.found.statistics_checked += 1;
        if stats.len() != seen.len() {
            self.found
                .disagreements
                .push(Disagreement::StatisticsCount {
                    scope,
                    what: "columns",
                    stated: stats.len(),
                    expected: seen.len(),
                });
        }
        for (id, (p, seen)) in (0_u32..).zip(stats.iter().zip(seen)) {
            let p = self.reader.statistics_as_read(p.clone());
            self.column(scope, id, &p, seen);
        }
    }

    /// Checks the statistics `p` of column `id` against the values `seen` of it.
    fn column(&mut self, scope: Scope, id: u32, p: &proto::ColumnStatistics, seen: &Seen) {
        let st = ColumnStatistics::from_proto(p);
        let batch_capacity = java_batch_capacity(&st.typed, st.number_of_values);
        let float = self.reader.schema().find(id).map(TypeDescription::kind) == Some(Kind::Float);
        let name = self.names.get(id as usize).cloned().unwrap_or_default();
        let found = &mut self.found;
        let union_nulls = seen.values + seen.union_nulls;
        let mut problem = |what: &'static str, stated: Field, actual: Field| {
            let habit = (what == "hasNull" && stated == Field::Bool(true))
                || (what == "total children" && stated == Field::UInt(0))
                || (batch_capacity && matches!(what, "min" | "max" | "total children"))
                || (what == "count" && seen.union_nulls > 0 && stated == Field::UInt(union_nulls))
                || (seen.union_nulls > 0 && holds(what, &stated, &actual))
                || (what == "true count" && more_by_at_most(&stated, &actual, seen.union_nulls))
                || (float && matches!(what, "min" | "max") && rounds_to(&stated, &actual));
            let d = Disagreement::Statistics {
                scope,
                column: id,
                name: name.clone(),
                what,
                stated,
                actual,
            };
            if habit {
                found.notes.push(d);
            } else {
                found.disagreements.push(d);
            }
        };
        if st.number_of_values != seen.values {
            problem(
                "count",
                Field::UInt(st.number_of_values),
                Field::UInt(seen.values),
            );
        }
        if let Some(has_null) = st.has_null
            && has_null != seen.has_null
        {
            problem("hasNull", Field::Bool(has_null), Field::Bool(seen.has_null));
        }
        compare_typed(&st.typed, &seen.typed, &mut problem);
    }
}

/// What the values of one column say its statistics must be.
#[derive(Debug, Clone, Default)]
struct Seen {
    values: u64,
    has_null: bool,
    /// The nulls of the uniontype whose first alternative this is.
    union_nulls: u64,
    typed: SeenTyped,
}

#[derive(Debug, Clone, Default)]
enum SeenTyped {
    /// Nothing checked.
    #[default]
    None,
    Boolean {
        trues: u64,
    },
    Integer {
        range: Option<(i64, i64)>,
    },
    /// Floats and doubles; `nan` when a NaN was seen (writers differ in what it does to
    /// the range, so it is not checked).
    Double {
        range: Option<(f64, f64)>,
        nan: bool,
    },
    String {
        range: Option<(String, String)>,
    },
    Date {
        range: Option<(i32, i32)>,
    },
    Collection {
        range: Option<(u64, u64)>,
        total: u64,
    },
}

fn widen<T: PartialOrd + Clone>(range: &mut Option<(T, T)>, value: &T) {
    match range {
        None => *range = Some((value.clone(), value.clone())),
        Some((min, max)) => {
            if value < min {
                *min = value.clone();
            }
            if value > max {
                *max = value.clone();
            }
        }
    }
}

fn join<T: PartialOrd + Clone>(range: &mut Option<(T, T)>, other: Option<&(T, T)>) {
    if let Some((min, max)) = other {
        widen(range, min);
        widen(range, max);
    }
}

/// Widens a range of strings to hold `value`, copying it only when it widens it.
fn widen_str(range: &mut Option<(String, String)>, value: &str) {
    match range {
        None => *range = Some((value.to_owned(), value.to_owned())),
        Some((min, max)) => {
            if value < min.as_str() {
                value.clone_into(min);
            }
            if value > max.as_str() {
                value.clone_into(max);
            }
        }
    }
}

impl Seen {
    fn new(t: &TypeDescription) -> Self {
        let typed = match t.kind() {
            Kind::Boolean => SeenTyped::Boolean { trues: 0 },
            Kind::Byte | Kind::Short | Kind::Int | Kind::Long => SeenTyped::Integer { range: None },
            Kind::Float | Kind::Double => SeenTyped::Double {
                range: None,
                nan: false,
            },
            Kind::String | Kind::Varchar | Kind::Char => SeenTyped::String { range: None },
            Kind::Date => SeenTyped::Date { range: None },
            Kind::List | Kind::Map => SeenTyped::Collection {
                range: None,
                total: 0,
            },
            _ => SeenTyped::None,
        };
        Self {
            values: 0,
            has_null: false,
            union_nulls: 0,
            typed,
        }
    }

    fn merge(&mut self, other: &Self) {
        self.values += other.values;
        self.has_null |= other.has_null;
        self.union_nulls += other.union_nulls;
        match (&mut self.typed, &other.typed) {
            (SeenTyped::Boolean { trues }, SeenTyped::Boolean { trues: t }) => *trues += t,
            (SeenTyped::Integer { range }, SeenTyped::Integer { range: r }) => {
                join(range, r.as_ref());
            }
            (SeenTyped::Double { range, nan }, SeenTyped::Double { range: r, nan: n }) => {
                join(range, r.as_ref());
                *nan |= n;
            }
            (SeenTyped::String { range }, SeenTyped::String { range: r }) => {
                join(range, r.as_ref());
            }
            (SeenTyped::Date { range }, SeenTyped::Date { range: r }) => join(range, r.as_ref()),
            (
                SeenTyped::Collection { range, total },
                SeenTyped::Collection { range: r, total: t },
            ) => {
                join(range, r.as_ref());
                *total += t;
            }
            _ => {}
        }
    }
}

/// Every column of `schema`, by id, with nothing seen.
fn nothing_seen(schema: &TypeDescription) -> Vec<Seen> {
    let mut seen = vec![Seen::default(); schema.column_count()];
    for t in schema.preorder() {
        if let Some(slot) = seen.get_mut(t.id() as usize) {
            *slot = Seen::new(t);
        }
    }
    seen
}

/// Adds the rows `slots` of `batch`, of `schema`, to what `seen` holds of each column.
fn add_slots(
    seen: &mut [Seen],
    schema: &TypeDescription,
    batch: &Batch,
    slots: Range<usize>,
) -> Result<()> {
    if let Some(root) = seen.first_mut() {
        root.values += slots.len() as u64;
    }
    for (t, vector) in schema.children().iter().zip(&batch.columns) {
        add(seen, t, vector, slots.clone())?;
    }
    Ok(())
}

/// Adds the slots `slots` of `vector`, a column of type `t`, and their children, to
/// what `seen` holds: a null counts for the column it is in only (the children of a null
/// struct are not looked at, as a row reader sees them).
fn add(seen: &mut [Seen], t: &TypeDescription, vector: &Vector, slots: Range<usize>) -> Result<()> {
    let present = |i: usize| vector.is_present(i);
    let Some(column) = seen.get_mut(t.id() as usize) else {
        return Ok(());
    };
    let values = slots.clone().filter(|&i| present(i)).count();
    column.values += values as u64;
    column.has_null |= values < slots.len();
    add_values(column, t, vector, slots.clone())?;
    let children = t.children();
    match &vector.data {
        VectorData::Struct { fields, .. } => {
            for child in children {
                add_ancestor_nulls(seen, child, (slots.len() - values) as u64);
            }
            // The children of the struct's present slots, in runs.
            let mut i = slots.start;
            while i < slots.end {
                if !present(i) {
                    i += 1;
                    continue;
                }
                let run = i;
                while i < slots.end && present(i) {
                    i += 1;
                }
                for (child, field) in children.iter().zip(fields) {
                    add(seen, child, field, run..i)?;
                }
            }
        }
        VectorData::List { offsets, elements } => {
            if let (Some(element), Some(range)) = (children.first(), spans(offsets, &slots)) {
                add(seen, element, elements, range)?;
            }
        }
        VectorData::Map {
            offsets,
            keys,
            values,
        } => {
            if let ([key, value], Some(range)) = (children, spans(offsets, &slots)) {
                add(seen, key, keys, range.clone())?;
                add(seen, value, values, range)?;
            }
        }
        VectorData::Union { tags, alternatives } => {
            if let Some(first) = children.first().and_then(|c| seen.get_mut(c.id() as usize)) {
                first.union_nulls += (slots.len() - values) as u64;
            }
            for i in slots.filter(|&i| present(i)) {
                let tag = usize::from(*tags.get(i).ok_or_else(|| mismatch(t))?);
                if let (Some(child), Some(alternative)) = (children.get(tag), alternatives.get(tag))
                {
                    add(seen, child, alternative, i..i + 1)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Counts `nulls` of a struct as nulls of the uniontypes under it (through structs) for
/// their first alternatives (Apache ORC's C++ writer counts them as that alternative's
/// values).
fn add_ancestor_nulls(seen: &mut [Seen], t: &TypeDescription, nulls: u64) {
    match t.kind() {
        Kind::Union => {
            if let Some(first) = t
                .children()
                .first()
                .and_then(|c| seen.get_mut(c.id() as usize))
            {
                first.union_nulls += nulls;
            }
        }
        Kind::Struct => {
            for child in t.children() {
                add_ancestor_nulls(seen, child, nulls);
            }
        }
        _ => {}
    }
}

/// Adds the values of the slots `slots` of `vector`, a column of type `t`, to what
/// `column` holds of them: its range, trues, lengths.
fn add_values(
    column: &mut Seen,
    t: &TypeDescription,
    vector: &Vector,
    slots: Range<usize>,
) -> Result<()> {
    let present = slots.filter(|&i| vector.is_present(i));
    match (&mut column.typed, &vector.data) {
        (SeenTyped::Boolean { trues }, VectorData::Boolean(v)) => {
            *trues += present.filter(|&i| v.get(i) == Some(&true)).count() as u64;
        }
        (SeenTyped::Integer { range }, VectorData::Int(v)) => {
            for i in present {
                widen(range, v.get(i).ok_or_else(|| mismatch(t))?);
            }
        }
        (SeenTyped::Date { range }, VectorData::Int(v)) => {
            for i in present {
                let days = date(*v.get(i).ok_or_else(|| mismatch(t))?, t)?;
                widen(range, &days);
            }
        }
        (SeenTyped::Double { range, nan }, VectorData::Float(v)) => {
            for i in present {
                widen_double(range, nan, f64::from(*v.get(i).ok_or_else(|| mismatch(t))?));
            }
        }
        (SeenTyped::Double { range, nan }, VectorData::Double(v)) => {
            for i in present {
                widen_double(range, nan, *v.get(i).ok_or_else(|| mismatch(t))?);
            }
        }
        (SeenTyped::String { range }, VectorData::Bytes(v)) => {
            for i in present {
                widen_str(range, utf8(v.get(i).ok_or_else(|| mismatch(t))?, t)?);
            }
        }
        (
            SeenTyped::Collection { range, total },
            VectorData::List { offsets, .. } | VectorData::Map { offsets, .. },
        ) => {
            for i in present {
                let children = spans(offsets, &(i..i + 1)).ok_or_else(|| mismatch(t))?;
                let len = children.len() as u64;
                widen(range, &len);
                *total += len;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether a `stated` minimum or maximum lies beyond the `actual` one (a range that
/// holds the values and more).
fn holds(what: &str, stated: &Field, actual: &Field) -> bool {
    let order = match (stated, actual) {
        (Field::Int(s), Field::Int(a)) => s.partial_cmp(a),
        (Field::Double(s), Field::Double(a)) => s.partial_cmp(a),
        (Field::Date(s), Field::Date(a)) => s.partial_cmp(a),
        (Field::Str(s), Field::Str(a)) => s.partial_cmp(a),
        _ => None,
    };
    match what {
        "min" => order == Some(std::cmp::Ordering::Less),
        "max" => order == Some(std::cmp::Ordering::Greater),
        _ => false,
    }
}

/// Whether `stated` is a count above `actual` by no more than `extra` (a boolean first
/// alternative's true count, with its uniontype's null slots' leftovers counted).
fn more_by_at_most(stated: &Field, actual: &Field, extra: u64) -> bool {
    matches!((stated, actual), (Field::UInt(s), Field::UInt(a)) if s > a && s - a <= extra)
}

/// Whether `stated`, a double, is `actual` before its rounding to float.
fn rounds_to(stated: &Field, actual: &Field) -> bool {
    match (stated, actual) {
        // The rounding is the point.
        #[allow(clippy::cast_possible_truncation)]
        (Field::Double(stated), Field::Double(actual)) => {
            f64::from(*stated as f32).to_bits() == actual.to_bits()
        }
        _ => false,
    }
}

/// Whether two values are the same value: as `==`, but a NaN is the same as a NaN of the
/// same bits.
fn same(a: &Field, b: &Field) -> bool {
    match (a, b) {
        (Field::Double(a), Field::Double(b)) => a.to_bits() == b.to_bits(),
        (Field::Float(a), Field::Float(b)) => a.to_bits() == b.to_bits(),
        (Field::List(a), Field::List(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Field::Map(a), Field::Map(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| same(ka, kb) && same(va, vb))
        }
        (Field::Group(a), Field::Group(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((na, a), (nb, b))| na == nb && same(a, b))
        }
        _ => a == b,
    }
}

/// Widens a range of doubles to hold `value`, or notes a NaN.
fn widen_double(range: &mut Option<(f64, f64)>, nan: &mut bool, value: f64) {
    if value.is_nan() {
        *nan = true;
    } else {
        widen(range, &value);
    }
}

/// The children of the slots `slots` of a list or map with `offsets` (a null slot has
/// none).
fn spans(offsets: &[usize], slots: &Range<usize>) -> Option<Range<usize>> {
    let start = *offsets.get(slots.start)?;
    let end = *offsets.get(slots.end)?;
    (start <= end).then_some(start..end)
}

/// Whether the children statistics of a list or map column with `values` values are
/// those ORC Java 2.x writes whatever the values (Spark 4.0's ORC Java 2.1.3 among
/// them): its `ListTreeWriter` and `MapTreeWriter` count `vec.lengths.length`, the
/// capacity of the row batch (1024 unless the writer was told otherwise), once for each
/// batch they write, so the least and most children are that capacity and the total is
/// that many times the batches. Those are a note, not a failure; statistics that cannot
/// come of it still fail: a least above the most, a total that is not a positive
/// multiple of them, or more values than the batches can hold (each holds at most its
/// capacity of rows).
fn java_batch_capacity(typed: &TypedStatistics, values: u64) -> bool {
    match typed {
        TypedStatistics::Collection {
            min_children: Some(min),
            max_children: Some(max),
            total_children: Some(total),
        } => min == max && *min > 0 && *total >= *min && total % min == 0 && values <= *total,
        _ => false,
    }
}

/// Checks a range of statistics (`min`, `max`) against the values' (`seen`), each
/// value shown as `field` makes it.
fn compare_range<T: PartialEq>(
    (min, max): (Option<&T>, Option<&T>),
    seen: Option<&(T, T)>,
    field: impl Fn(&T) -> Field,
    problem: &mut impl FnMut(&'static str, Field, Field),
) {
    if let Some(min) = min
        && seen.is_none_or(|(m, _)| m != min)
    {
        problem(
            "min",
            field(min),
            seen.map_or(Field::Null, |(m, _)| field(m)),
        );
    }
    if let Some(max) = max
        && seen.is_none_or(|(_, m)| m != max)
    {
        problem(
            "max",
            field(max),
            seen.map_or(Field::Null, |(_, m)| field(m)),
        );
    }
}

fn compare_typed(
    typed: &TypedStatistics,
    seen: &SeenTyped,
    problem: &mut impl FnMut(&'static str, Field, Field),
) {
    match (typed, seen) {
        (TypedStatistics::Boolean { true_count }, SeenTyped::Boolean { trues })
            if true_count != trues =>
        {
            problem("true count", Field::UInt(*true_count), Field::UInt(*trues));
        }
        (TypedStatistics::Integer { min, max, .. }, SeenTyped::Integer { range }) => {
            compare_range(
                (min.as_ref(), max.as_ref()),
                range.as_ref(),
                |v| Field::Int(*v),
                problem,
            );
        }
        // Writers differ in what a NaN does to the range.
        (TypedStatistics::Double { min, max, .. }, SeenTyped::Double { range, nan }) if !nan => {
            compare_range(
                (min.as_ref(), max.as_ref()),
                range.as_ref(),
                |v| Field::Double(*v),
                problem,
            );
        }
        (
            TypedStatistics::String {
                min,
                max,
                lower_bound,
                upper_bound,
                ..
            },
            SeenTyped::String { range },
        ) => {
            let text = |v: &String| Field::Str(v.clone());
            compare_range((min.as_ref(), max.as_ref()), range.as_ref(), text, problem);
            // Truncated bounds (values longer than the writer records) must hold.
            if let (Some(lower), Some((seen_min, _))) = (lower_bound, range)
                && lower > seen_min
            {
                problem("lower bound", text(lower), text(seen_min));
            }
            if let (Some(upper), Some((_, seen_max))) = (upper_bound, range)
                && upper < seen_max
            {
                problem("upper bound", text(upper), text(seen_max));
            }
        }
        (TypedStatistics::Date { min, max }, SeenTyped::Date { range }) => {
            compare_range(
                (min.as_ref(), max.as_ref()),
                range.as_ref(),
                |v| Field::Date(*v),
                problem,
            );
        }
        (
            TypedStatistics::Collection {
                min_children,
                max_children,
                total_children,
            },
            SeenTyped::Collection { range, total },
        ) => {
            compare_range(
                (min_children.as_ref(), max_children.as_ref()),
                range.as_ref(),
                |v| Field::UInt(*v),
                problem,
            );
            if let Some(stated) = total_children
                && stated != total
            {
                problem("total children", Field::UInt(*stated), Field::UInt(*total));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::write::{OrcWriter, WriterOptions};

    fn schema() -> TypeDescription {
        TypeDescription::parse(
            "struct<id:int,s:struct<a:string,l:array<int>>,m:map<string,double>,u:uniontype<int,string>>",
        )
        .unwrap()
    }

    #[test]
    fn columns_are_named_by_path() {
        assert_eq!(
            schema().column_paths(),
            [
                "",
                "id",
                "s",
                "s.a",
                "s.l",
                "s.l.element",
                "m",
                "m.key",
                "m.value",
                "u",
                "u._union_0",
                "u._union_1"
            ]
        );
        // Of a subtree, by id from the subtree's root.
        assert_eq!(
            schema().children()[1].column_paths(),
            ["", "a", "l", "l.element"]
        );
    }

    /// A reader of `rows` of `schema` written by orc-file.
    fn written(schema: &TypeDescription, rows: &[Row]) -> OrcReader<bytes::Bytes> {
        let options = WriterOptions::default();
        let mut writer = OrcWriter::new(Vec::new(), schema.clone(), options).unwrap();
        for row in rows {
            writer.write_row(row).unwrap();
        }
        OrcReader::open(bytes::Bytes::from(writer.finish().unwrap())).unwrap()
    }

    /// What the values of `reader`'s file hold, by column, as its batches give them.
    fn seen_of(reader: &OrcReader<bytes::Bytes>) -> Vec<Seen> {
        let mut seen = nothing_seen(reader.schema());
        for batch in reader.batches(ReadOptions::default()).unwrap() {
            let batch = batch.unwrap();
            add_slots(&mut seen, reader.schema(), &batch, 0..batch.num_rows).unwrap();
        }
        seen
    }

    fn verifier(reader: &OrcReader<bytes::Bytes>) -> Verifier<'_, bytes::Bytes> {
        Verifier::new(reader)
    }

    #[test]
    fn values_are_seen_by_column_as_orc_stores_them() {
        let schema = schema();
        let row = |id: i64, s: Field, u: Field| {
            Row::new(vec![
                (Arc::from("id"), Field::Int(id)),
                (Arc::from("s"), s),
                (
                    Arc::from("m"),
                    Field::Map(vec![(Field::Str("k".into()), Field::Double(f64::NAN))]),
                ),
                (Arc::from("u"), u),
            ])
        };
        let s = Field::Group(vec![
            (Arc::from("a"), Field::Str("b".into())),
            (
                Arc::from("l"),
                Field::List(vec![Field::Int(3), Field::Null]),
            ),
        ]);
        let u = Field::Group(vec![
            (Arc::from("tag"), Field::Int(1)),
            (Arc::from("value"), Field::Str("x".into())),
        ]);
        let reader = written(&schema, &[row(7, s, u), row(-2, Field::Null, Field::Null)]);
        let seen = seen_of(&reader);
        let values: Vec<u64> = seen.iter().map(|s| s.values).collect();
        assert_eq!(values, [2, 2, 1, 1, 1, 1, 2, 2, 2, 1, 0, 1]);
        let nulls: Vec<bool> = seen.iter().map(|s| s.has_null).collect();
        assert_eq!(
            nulls,
            [
                false, false, true, false, false, true, false, false, false, true, false, false
            ]
        );
        assert!(matches!(
            seen[1].typed,
            SeenTyped::Integer {
                range: Some((-2, 7))
            }
        ));
        assert!(matches!(seen[8].typed, SeenTyped::Double { nan: true, .. }));
        // The writer's own statistics agree.
        let verification = reader.verify().unwrap();
        assert_eq!(verification.disagreements, []);
        assert_eq!(verification.rows, 2);
        assert_eq!(verification.statistics_checked, 2);
        // Statistics that disagree are named.
        let stats = ColumnStatistics {
            number_of_values: 2,
            has_null: Some(true),
            bytes_on_disk: None,
            typed: TypedStatistics::Integer {
                min: Some(-2),
                max: Some(8),
                sum: None,
            },
        };
        let mut named = verifier(&reader);
        named.statistics(
            Scope::File,
            &[proto::ColumnStatistics::default(), stats.to_proto()],
            &seen[..2],
            2,
        );
        let shown: Vec<String> = named
            .found
            .disagreements
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            shown,
            [
                "file, column 0: the statistics' count is 0, the values' 2",
                "file, column 1 (id): the statistics' max is 8, the values' 7",
            ]
        );
        // Statistics of other columns than the schema's.
        let mut other = verifier(&reader);
        let mut three = vec![proto::ColumnStatistics::default(); 3];
        three[0].number_of_values = Some(2);
        other.statistics(Scope::Stripe(0), &three, &seen, 2);
        assert_eq!(
            other.found.disagreements[0].to_string(),
            "stripe 0: statistics of 3 columns where the schema has 12"
        );
        // A writer's habit that misleads no reader: a note, not a failure.
        assert_eq!(
            named.found.notes,
            [Disagreement::Statistics {
                scope: Scope::File,
                column: 1,
                name: "id".into(),
                what: "hasNull",
                stated: Field::Bool(true),
                actual: Field::Bool(false),
            }]
        );
    }

    #[test]
    fn a_list_counted_by_the_row_batch_is_a_note_but_impossible_counts_fail() {
        // A list column of 300 values with 0 to 4 children, 600 in all.
        let schema = TypeDescription::parse("struct<arr:array<int>>").unwrap();
        let rows: Vec<Row> = (0..300_u64)
            .map(|i| {
                let items = (0..i % 5).map(|_| Field::Int(1)).collect();
                Row::new(vec![(Arc::from("arr"), Field::List(items))])
            })
            .collect();
        let reader = written(&schema, &rows);
        let seen = seen_of(&reader);
        let SeenTyped::Collection { range, total } = &seen[1].typed else {
            panic!("a collection");
        };
        assert_eq!((*range, *total), (Some((0, 4)), 600));
        let judge = |min: u64, max: u64, total: u64| {
            let mut stats = vec![proto::ColumnStatistics::default(); 3];
            stats[0].number_of_values = Some(300);
            stats[1] = ColumnStatistics {
                number_of_values: 300,
                has_null: Some(false),
                bytes_on_disk: None,
                typed: TypedStatistics::Collection {
                    min_children: Some(min),
                    max_children: Some(max),
                    total_children: Some(total),
                },
            }
            .to_proto();
            stats[2].number_of_values = Some(600);
            let mut verifier = verifier(&reader);
            verifier.statistics(Scope::File, &stats, &seen, 300);
            (
                verifier.found.disagreements.len(),
                verifier.found.notes.len(),
            )
        };
        // As the values say.
        assert_eq!(judge(0, 4, 600), (0, 0));
        // ORC Java 2.1.3's: the batch's capacity, once per batch written (one, or three
        // of 100 rows each).
        assert_eq!(judge(1024, 1024, 1024), (0, 3));
        assert_eq!(judge(1024, 1024, 3072), (0, 3));
        assert_eq!(judge(128, 128, 384), (0, 3));
        // What no batch makes: a least above the most, a total that is not a multiple
        // of the capacity, batches too few for the values, wrong counts of one kind.
        assert_eq!(judge(1024, 4, 600), (1, 0));
        assert_eq!(judge(1024, 1024, 1500), (3, 0));
        assert_eq!(judge(100, 100, 200), (3, 0));
        assert_eq!(judge(0, 1024, 600), (1, 0));
        assert_eq!(judge(0, 4, 1024), (1, 0));
    }

    /// A uniontype's value: its tag and the alternative's value.
    fn union(tag: i64, value: Field) -> Field {
        Field::Group(vec![
            (Arc::from("tag"), Field::Int(tag)),
            (Arc::from("value"), value),
        ])
    }

    #[test]
    fn apache_orc_cpp_habits_are_notes() {
        // A uniontype with 2 nulls, 2 values of its first alternative and 1 of its
        // second; a float column of 1.1 as float.
        let schema = TypeDescription::parse("struct<u:uniontype<int,string>,f:float>").unwrap();
        let rows: Vec<Row> = [
            union(0, Field::Int(1)),
            Field::Null,
            union(1, Field::Str("a".into())),
            Field::Null,
            union(0, Field::Int(2)),
        ]
        .into_iter()
        .map(|u| {
            Row::new(vec![
                (Arc::from("u"), u),
                (Arc::from("f"), Field::Float(1.1)),
            ])
        })
        .collect();
        let reader = written(&schema, &rows);
        let seen = seen_of(&reader);
        assert_eq!((seen[2].values, seen[2].union_nulls), (2, 2));
        let judge = |id: u32, stats: proto::ColumnStatistics| {
            let mut verifier = verifier(&reader);
            verifier.column(Scope::File, id, &stats, &seen[id as usize]);
            (
                verifier.found.disagreements.len(),
                verifier.found.notes.len(),
            )
        };
        let count = |n: u64| proto::ColumnStatistics {
            number_of_values: Some(n),
            ..Default::default()
        };
        // The first alternative's values and the union's nulls, as C++ counts them.
        assert_eq!(judge(2, count(2)), (0, 0));
        assert_eq!(judge(2, count(4)), (0, 1));
        assert_eq!(judge(2, count(3)), (1, 0));
        // Not the second alternative's.
        assert_eq!(judge(3, count(3)), (1, 0));
        // The null slots' leftovers in its range: wider than the values, not narrower.
        let ints = |min: i64, max: i64| proto::ColumnStatistics {
            number_of_values: Some(2),
            int_statistics: Some(proto::IntegerStatistics {
                minimum: Some(min),
                maximum: Some(max),
                sum: None,
            }),
            ..Default::default()
        };
        assert_eq!(judge(2, ints(1, 2)), (0, 0));
        assert_eq!(judge(2, ints(1, 72_340_172_838_076_673)), (0, 1));
        assert_eq!(judge(2, ints(-5, 2)), (0, 1));
        assert_eq!(judge(2, ints(2, 2)), (1, 0));
        // The nulls of a struct count as the nulls of a uniontype in it.
        let schema = TypeDescription::parse("struct<s:struct<u:uniontype<int,string>>>").unwrap();
        let rows: Vec<Row> = [
            Field::Null,
            Field::Group(vec![(Arc::from("u"), Field::Null)]),
        ]
        .into_iter()
        .map(|s| Row::new(vec![(Arc::from("s"), s)]))
        .collect();
        let nested = seen_of(&written(&schema, &rows));
        assert_eq!((nested[3].values, nested[3].union_nulls), (0, 2));
        let floats = |min: f64| proto::ColumnStatistics {
            number_of_values: Some(5),
            double_statistics: Some(proto::DoubleStatistics {
                minimum: Some(min),
                maximum: Some(f64::from(1.1_f32)),
                sum: None,
            }),
            ..Default::default()
        };
        assert_eq!(judge(4, floats(f64::from(1.1_f32))), (0, 0));
        // 1.1 as given, before its rounding to float.
        assert_eq!(judge(4, floats(1.1)), (0, 1));
        assert_eq!(judge(4, floats(1.2)), (1, 0));
    }

    #[test]
    fn a_boolean_first_alternative_counting_null_slots_as_trues_is_a_note() {
        // Apache ORC C++ counts the null slots' leftovers of a uniontype in the true
        // count of its first alternative, when it is a boolean.
        let schema = TypeDescription::parse("struct<u:uniontype<boolean,string>>").unwrap();
        let rows: Vec<Row> = [
            union(0, Field::Bool(true)),
            Field::Null,
            union(1, Field::Str("a".into())),
            Field::Null,
            union(0, Field::Bool(false)),
        ]
        .into_iter()
        .map(|u| Row::new(vec![(Arc::from("u"), u)]))
        .collect();
        let booleans = written(&schema, &rows);
        let boolean_seen = seen_of(&booleans);
        let judge_trues = |true_count: u64| {
            let stats = proto::ColumnStatistics {
                number_of_values: Some(2),
                bucket_statistics: Some(proto::BucketStatistics {
                    count: vec![true_count],
                }),
                ..Default::default()
            };
            let mut verifier = verifier(&booleans);
            verifier.column(Scope::File, 2, &stats, &boolean_seen[2]);
            (
                verifier.found.disagreements.len(),
                verifier.found.notes.len(),
            )
        };
        assert_eq!(judge_trues(1), (0, 0));
        assert_eq!(judge_trues(3), (0, 1));
        assert_eq!(judge_trues(4), (1, 0));
        assert_eq!(judge_trues(0), (1, 0));
    }
    #[test]
    fn statistics_show_dates_as_dates_and_strings_quoted() {
        let d = |stated, actual| {
            Disagreement::Statistics {
                scope: Scope::RowGroup {
                    stripe: 0,
                    group: 1,
                },
                column: 2,
                name: String::new(),
                what: "max",
                stated,
                actual,
            }
            .to_string()
        };
        assert_eq!(
            d(Field::Date(1), Field::Date(-719_162)),
            "stripe 0, row group 1, column 2: the statistics' max is 1970-01-02, the values' 0001-01-01"
        );
        assert_eq!(
            d(Field::Str("b\"".into()), Field::Null),
            "stripe 0, row group 1, column 2: the statistics' max is \"b\\\"\", the values' none"
        );
    }
}
