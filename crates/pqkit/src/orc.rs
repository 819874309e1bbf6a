//! ORC files: `schema`, `meta`, `cat` and `verify` through `orc-file`.
//!
//! A file is ORC when it starts with the magic `ORC` (whatever its name); its rows print
//! by the rows contract as Parquet rows do (`cat` shares the printer), a uniontype as
//! `{"tag": n, "value": …}`.

use std::fmt::Write as _;
use std::io::Write;
use std::sync::Arc;

use base64::Engine as _;
use orc_file::proto::column_encoding::Kind as EncodingKind;
use orc_file::statistics::{ColumnStatistics, TypedStatistics};
use orc_file::{Batch, Kind, OrcReader, ReadOptions, TypeDescription, Vector, VectorData, proto};
use parquet_file::{ColumnPath, Field, Row, TimeUnit};

use crate::commands::Printer;
use crate::filter::{parse, resolve};
use crate::format::{json, string};
use crate::input::Data;
use crate::{Failure, Format};

/// The reader every ORC command uses.
pub(crate) type OrcFile = OrcReader<Data>;

impl From<orc_file::Error> for Failure {
    fn from(e: orc_file::Error) -> Self {
        match e.kind() {
            orc_file::ErrorKind::Io { source }
                if source.kind() == std::io::ErrorKind::BrokenPipe =>
            {
                Self::Closed
            }
            // The source's own words, as for any read error, unless the file says where.
            orc_file::ErrorKind::Io { source }
                if *e.location() == orc_file::Location::default() =>
            {
                Self::File(source.to_string())
            }
            _ => Self::File(e.to_string()),
        }
    }
}

/// The name of the child `i` of a compound type, as the tree, `meta` and
/// `--union-as-struct` call it: a struct's field name, `element` of an array, `key` and
/// `value` of a map, `_union_0`, `_union_1`, … of a uniontype (Arrow's names).
pub(crate) fn child_name(t: &TypeDescription, i: usize) -> String {
    match t.kind() {
        Kind::Struct => t.field_names().get(i).cloned().unwrap_or_default(),
        Kind::List => "element".into(),
        Kind::Map if i == 0 => "key".into(),
        Kind::Map => "value".into(),
        _ => format!("_union_{i}"),
    }
}

/// An error of the writer about a row of `schema`, naming the field it is about by its
/// dotted name (the error knows its column id).
pub(crate) fn row_error(e: &orc_file::Error, schema: &TypeDescription) -> String {
    let name = e
        .location()
        .column
        .and_then(|id| column_names(schema).get(id as usize).cloned())
        .filter(|name| !name.is_empty());
    match name {
        Some(name) => format!("field `{name}`: {}", e.kind()),
        None => e.to_string(),
    }
}

/// The dotted name of every column, by column id (the root's is empty).
fn column_names(schema: &TypeDescription) -> Vec<String> {
    fn walk(t: &TypeDescription, path: &str, out: &mut Vec<String>) {
        if let Some(slot) = out.get_mut(t.id() as usize) {
            path.clone_into(slot);
        }
        for (i, child) in t.children().iter().enumerate() {
            let name = child_name(t, i);
            let path = if path.is_empty() {
                name
            } else {
                format!("{path}.{name}")
            };
            walk(child, &path, out);
        }
    }
    let mut out = vec![String::new(); schema.column_count()];
    walk(schema, "", &mut out);
    out
}

/// `pqkit schema`: the type string, then the tree with column ids.
pub(crate) fn schema(reader: &OrcFile, out: &mut impl Write) -> Result<(), Failure> {
    let schema = reader.schema();
    writeln!(out, "{schema}")?;
    tree(schema, None, 0, out)
}

fn tree(
    t: &TypeDescription,
    name: Option<&str>,
    depth: usize,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let shown = if t.kind().is_compound() {
        t.kind().name().to_owned()
    } else {
        t.to_string()
    };
    let indent = "  ".repeat(depth);
    match name {
        Some(name) => writeln!(out, "{indent}{} {name}: {shown}", t.id())?,
        None => writeln!(out, "{indent}{} {shown}", t.id())?,
    }
    for (i, child) in t.children().iter().enumerate() {
        tree(child, Some(&child_name(t, i)), depth + 1, out)?;
    }
    Ok(())
}

/// The name of the writer the footer records.
fn writer_name(writer: u32) -> &'static str {
    match writer {
        0 => "ORC Java",
        1 => "ORC C++",
        2 => "Presto",
        3 => "Scritchley Go",
        4 => "Trino",
        5 => "CUDF",
        _ => "unknown",
    }
}

/// How `meta` names a calendar (and how dates and timestamps are read in it).
fn calendar_name(calendar: proto::CalendarKind) -> &'static str {
    match calendar {
        proto::CalendarKind::UnknownCalendar => "not recorded (read as proleptic Gregorian)",
        proto::CalendarKind::JulianGregorian => {
            "hybrid Julian/Gregorian (dates before 1582-10-15 read as the Julian dates they name)"
        }
        proto::CalendarKind::ProlepticGregorian => "proleptic Gregorian",
    }
}

/// The fix a writer version stands for (Apache ORC's `WriterVersion`).
fn writer_version_name(version: u32) -> &'static str {
    match version {
        0 => "original",
        1 => "HIVE-8732",
        2 => "HIVE-4243",
        3 => "HIVE-12055",
        4 => "HIVE-13083",
        5 => "ORC-101",
        6 => "ORC-135",
        7 => "ORC-517",
        8 => "ORC-203",
        9 => "ORC-14",
        _ => "future",
    }
}

fn encoding_name(encoding: &proto::ColumnEncoding) -> String {
    let kind = encoding.kind.unwrap_or(0);
    EncodingKind::try_from(kind)
        .map_or_else(|_| format!("kind {kind}"), |k| k.as_str_name().to_owned())
}

/// A user metadata value: its text when it is UTF-8, else `base64:` and its base64.
fn metadata_text(value: &[u8]) -> String {
    match std::str::from_utf8(value) {
        Ok(text) => format!("{text:?}"),
        Err(_) => format!(
            "base64:{}",
            base64::engine::general_purpose::STANDARD.encode(value)
        ),
    }
}

/// `pqkit meta` of an ORC file.
pub(crate) fn meta(reader: &OrcFile, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let stripe_stats = reader.stripe_statistics_proto()?;
    let footers = (0..reader.stripes().len())
        .map(|i| reader.stripe_footer(i))
        .collect::<Result<Vec<_>, _>>()?;
    if json {
        writeln!(out, "{}", meta_json(reader, &footers, &stripe_stats))?;
        return Ok(());
    }
    let schema = reader.schema();
    let names = column_names(schema);
    let column = |id: usize| match names.get(id).map(String::as_str) {
        None | Some("") => format!("column {id}"),
        Some(name) => format!("column {id} ({name})"),
    };
    writeln!(out, "format: ORC {}", reader.version())?;
    let version = reader.writer_version();
    match reader.writer() {
        Some(writer) => writeln!(
            out,
            "writer: {} ({writer}), writer version {version} ({})",
            writer_name(writer),
            writer_version_name(version)
        )?,
        None => writeln!(
            out,
            "writer: not recorded, writer version {version} ({})",
            writer_version_name(version)
        )?,
    }
    writeln!(
        out,
        "compression: {}, block size {}",
        reader.compression(),
        reader.compression_block_size()
    )?;
    writeln!(out, "rows: {}", reader.num_rows())?;
    writeln!(out, "row index stride: {}", reader.row_index_stride())?;
    writeln!(out, "calendar: {}", calendar_name(reader.calendar()))?;
    writeln!(out, "schema: {schema}")?;
    let metadata: Vec<_> = reader.user_metadata().collect();
    if !metadata.is_empty() {
        writeln!(out, "user metadata:")?;
        for (key, value) in metadata {
            writeln!(out, "  {key:?} = {}", metadata_text(value))?;
        }
    }
    for (i, (info, footer)) in reader.stripes().iter().zip(&footers).enumerate() {
        writeln!(
            out,
            "stripe {i}: offset {} index {} data {} footer {} bytes, {} rows{}",
            info.offset,
            info.index_length,
            info.data_length,
            info.footer_length,
            info.num_rows,
            footer
                .writer_timezone
                .as_ref()
                .map_or_else(String::new, |z| format!(", writer time zone {z}"))
        )?;
        for s in &footer.streams {
            writeln!(
                out,
                "  stream {} of {}: {} bytes at {}",
                s.kind_name(),
                column(s.column as usize),
                s.length,
                s.offset
            )?;
        }
        for (id, encoding) in footer.encodings.iter().enumerate() {
            let dictionary = encoding
                .dictionary_size
                .map_or_else(String::new, |n| format!(", dictionary of {n} entries"));
            writeln!(
                out,
                "  encoding of {}: {}{dictionary}",
                column(id),
                encoding_name(encoding)
            )?;
        }
        if let Some(stats) = stripe_stats.get(i) {
            for (id, s) in stats.col_stats.iter().enumerate() {
                let s = ColumnStatistics::from_proto(s);
                writeln!(out, "  statistics of {}: {s}", column(id))?;
            }
        }
    }
    let file_stats = reader.file_statistics_proto();
    if !file_stats.is_empty() {
        writeln!(out, "file statistics:")?;
        for (id, s) in file_stats.iter().enumerate() {
            let s = ColumnStatistics::from_proto(s);
            writeln!(out, "  {}: {s}", column(id))?;
        }
    }
    Ok(())
}

fn opt(value: Option<impl std::fmt::Display>) -> String {
    value.map_or_else(|| "null".into(), |v| v.to_string())
}

fn opt_string(value: Option<&str>, s: &mut String) {
    match value {
        Some(v) => string(v, s),
        None => s.push_str("null"),
    }
}

fn meta_json(
    reader: &OrcFile,
    footers: &[orc_file::StripeFooter],
    stripe_stats: &[proto::StripeStatistics],
) -> String {
    let schema = reader.schema();
    let names = column_names(schema);
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\"format\":\"ORC\",\"version\":\"{}\",\"writer\":{},\"writer_version\":{},\"compression\":\"{}\",\"compression_block_size\":{},\"num_rows\":{},\"row_index_stride\":{},\"calendar\":\"{}\",\"schema\":",
        reader.version(),
        opt(reader.writer()),
        reader.writer_version(),
        reader.compression(),
        reader.compression_block_size(),
        reader.num_rows(),
        reader.row_index_stride(),
        reader.calendar().as_str_name()
    );
    string(&schema.to_string(), &mut s);
    s.push_str(",\"columns\":[");
    for (id, name) in names.iter().enumerate() {
        if id > 0 {
            s.push(',');
        }
        let _ = write!(s, "{{\"column\":{id},\"name\":");
        string(name, &mut s);
        s.push_str(",\"type\":");
        let t = u32::try_from(id).ok().and_then(|id| schema.find(id));
        opt_string(t.map(ToString::to_string).as_deref(), &mut s);
        s.push('}');
    }
    s.push_str("],\"user_metadata\":[");
    for (i, (key, value)) in reader.user_metadata().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str("{\"key\":");
        string(key, &mut s);
        s.push_str(",\"value\":");
        opt_string(std::str::from_utf8(value).ok(), &mut s);
        s.push_str(",\"base64\":");
        string(
            &base64::engine::general_purpose::STANDARD.encode(value),
            &mut s,
        );
        s.push('}');
    }
    s.push_str("],\"stripes\":[");
    for (i, (info, footer)) in reader.stripes().iter().zip(footers).enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"offset\":{},\"index_length\":{},\"data_length\":{},\"footer_length\":{},\"num_rows\":{},\"writer_timezone\":",
            info.offset, info.index_length, info.data_length, info.footer_length, info.num_rows
        );
        opt_string(footer.writer_timezone.as_deref(), &mut s);
        s.push_str(",\"streams\":[");
        for (j, stream) in footer.streams.iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            let _ = write!(s, "{{\"column\":{},\"kind\":", stream.column);
            string(&stream.kind_name(), &mut s);
            let _ = write!(
                s,
                ",\"offset\":{},\"length\":{}}}",
                stream.offset, stream.length
            );
        }
        s.push_str("],\"encodings\":[");
        for (id, encoding) in footer.encodings.iter().enumerate() {
            if id > 0 {
                s.push(',');
            }
            let _ = write!(s, "{{\"column\":{id},\"kind\":");
            string(&encoding_name(encoding), &mut s);
            let _ = write!(
                s,
                ",\"dictionary_size\":{}}}",
                opt(encoding.dictionary_size)
            );
        }
        s.push_str("],\"statistics\":");
        match stripe_stats.get(i) {
            Some(stats) => statistics_json(&stats.col_stats, &mut s),
            None => s.push_str("null"),
        }
        s.push('}');
    }
    s.push_str("],\"statistics\":");
    statistics_json(reader.file_statistics_proto(), &mut s);
    s.push('}');
    s
}

/// The statistics of every column, by id, as a JSON array.
fn statistics_json(stats: &[proto::ColumnStatistics], s: &mut String) {
    s.push('[');
    for (id, p) in stats.iter().enumerate() {
        if id > 0 {
            s.push(',');
        }
        let st = ColumnStatistics::from_proto(p);
        let _ = write!(
            s,
            "{{\"column\":{id},\"count\":{},\"has_null\":{},\"bytes_on_disk\":{}",
            st.number_of_values,
            opt(st.has_null),
            opt(st.bytes_on_disk)
        );
        typed_json(&st.typed, s);
        s.push('}');
    }
    s.push(']');
}

/// The typed statistics as JSON members (`,"min":…`), values by the rows contract.
fn typed_json(typed: &TypedStatistics, s: &mut String) {
    let mut member = |name: &str, value: Option<Field>| {
        let _ = write!(s, ",\"{name}\":");
        json(value.as_ref().unwrap_or(&Field::Null), s);
    };
    let stamp = |millis: Option<i64>, nanos: Option<u32>, utc: bool| {
        millis.map(|m| Field::Timestamp {
            value: i128::from(m) * 1_000_000 + i128::from(nanos.unwrap_or(0)),
            unit: TimeUnit::Nanos,
            utc,
        })
    };
    match typed {
        TypedStatistics::None => {}
        TypedStatistics::Boolean { true_count } => {
            member("true_count", Some(Field::UInt(*true_count)));
        }
        TypedStatistics::Integer { min, max, sum } => {
            member("min", min.map(Field::Int));
            member("max", max.map(Field::Int));
            member("sum", sum.map(Field::Int));
        }
        TypedStatistics::Double { min, max, sum } => {
            member("min", min.map(Field::Double));
            member("max", max.map(Field::Double));
            member("sum", sum.map(Field::Double));
        }
        TypedStatistics::String {
            min,
            max,
            lower_bound,
            upper_bound,
            sum,
        } => {
            member("min", min.clone().map(Field::Str));
            member("max", max.clone().map(Field::Str));
            member("lower_bound", lower_bound.clone().map(Field::Str));
            member("upper_bound", upper_bound.clone().map(Field::Str));
            member("sum", sum.map(Field::Int));
        }
        TypedStatistics::Binary { sum } => member("sum", sum.map(Field::Int)),
        TypedStatistics::Date { min, max } => {
            member("min", min.map(Field::Date));
            member("max", max.map(Field::Date));
        }
        TypedStatistics::Timestamp {
            min_millis,
            max_millis,
            min_utc_millis,
            max_utc_millis,
            min_nanos,
            max_nanos,
        } => {
            // The wall clock read as UTC (ORC-135), or the writer's local time before it.
            let max_nanos = Some(max_nanos.unwrap_or(999_999));
            if min_utc_millis.is_some() || max_utc_millis.is_some() {
                member("min", stamp(*min_utc_millis, *min_nanos, false));
                member("max", stamp(*max_utc_millis, max_nanos, false));
            } else {
                member("min_local", stamp(*min_millis, *min_nanos, false));
                member("max_local", stamp(*max_millis, max_nanos, false));
            }
        }
        TypedStatistics::Decimal { min, max, sum } => {
            member("min", min.clone().map(Field::Str));
            member("max", max.clone().map(Field::Str));
            member("sum", sum.clone().map(Field::Str));
        }
        TypedStatistics::Collection {
            min_children,
            max_children,
            total_children,
        } => {
            member("min_children", min_children.map(Field::UInt));
            member("max_children", max_children.map(Field::UInt));
            member("total_children", total_children.map(Field::UInt));
        }
    }
}

/// `pqkit cat` of an ORC file.
pub(crate) fn cat(
    reader: &OrcFile,
    format: Format,
    columns: Option<Vec<String>>,
    limit: Option<u64>,
    filter: Option<&str>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let schema = reader.schema();
    let filter = filter.map(|text| parse(text, schema)).transpose()?;
    let shown = columns
        .map(|columns| {
            columns
                .iter()
                .map(|text| resolve(schema, text, "--columns"))
                .collect::<Result<Vec<ColumnPath>, _>>()
        })
        .transpose()?;
    let mut options = ReadOptions::default();
    if let Some(shown) = &shown {
        // The top-level columns shown or filtered on: the rest are not read. (The
        // reader takes dotted paths: a name with a dot in it is read with all.)
        let mut read: Vec<&str> = Vec::new();
        let paths = shown
            .iter()
            .chain(filter.iter().flat_map(parquet_file::Predicate::columns));
        for path in paths {
            if let Some(first) = path.parts().first()
                && !read.contains(&first.as_str())
            {
                read.push(first);
            }
        }
        if read.iter().all(|name| !name.contains('.')) {
            options = options.with_projection(read);
        }
    }
    if let Some(f) = &filter {
        // Stripes and row groups whose statistics rule the filter out are skipped.
        options = options.with_predicate(f.clone());
    }
    let rows = reader.rows(options)?;
    let shown: Option<Vec<&[String]>> = shown
        .as_ref()
        .map(|paths| paths.iter().map(ColumnPath::parts).collect());
    let mut printer = Printer::new(format);
    let mut count = 0_u64;
    for row in rows {
        if limit.is_some_and(|l| count >= l) {
            break;
        }
        let row = row?;
        if filter.as_ref().is_some_and(|f| !f.matches(&row)) {
            continue;
        }
        count += 1;
        let row = match &shown {
            Some(paths) => Row::new(prune(row.into_fields(), paths)),
            None => row,
        };
        let fields: Vec<(&str, &Field)> = row.fields().iter().map(|(n, f)| (&**n, f)).collect();
        printer.row(&fields, out)?;
    }
    printer.finish(out)
}

/// The fields at `paths` (and their ancestors), in their order.
fn prune(fields: Vec<(Arc<str>, Field)>, paths: &[&[String]]) -> Vec<(Arc<str>, Field)> {
    fields
        .into_iter()
        .filter_map(|(name, field)| {
            let tails: Vec<&[String]> = paths
                .iter()
                .filter_map(|p| match p.split_first() {
                    Some((first, rest)) if **first == *name => Some(rest),
                    _ => None,
                })
                .collect();
            if tails.is_empty() {
                return None;
            }
            if tails.iter().any(|t| t.is_empty()) {
                return Some((name, field));
            }
            Some(match field {
                Field::Group(children) => (name, Field::Group(prune(children, &tails))),
                other => (name, other),
            })
        })
        .collect()
}

/// What the values of one column say its statistics must be.
#[derive(Debug, Clone, Default)]
struct Seen {
    values: u64,
    has_null: bool,
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
            typed,
        }
    }

    fn merge(&mut self, other: &Self) {
        self.values += other.values;
        self.has_null |= other.has_null;
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

/// What the next `rows` rows of `batches` hold, by column (the rest of `batch`, the
/// batch being read, first), and how many there were.
fn stripe_seen(
    schema: &TypeDescription,
    rows: u64,
    batches: &mut orc_file::Batches<'_, Data>,
    batch: &mut Option<(Batch, usize)>,
) -> Result<(Vec<Seen>, u64), Failure> {
    let mut seen = nothing_seen(schema);
    let mut got = 0_u64;
    while got < rows {
        let (current, next) = match batch.take() {
            Some((current, next)) if next < current.num_rows => (current, next),
            _ => match batches.next() {
                Some(current) => (current?, 0),
                None => break,
            },
        };
        let left = usize::try_from(rows - got).unwrap_or(usize::MAX);
        let end = current.num_rows.min(next.saturating_add(left));
        add_slots(&mut seen, schema, &current, next..end)?;
        got += (end - next) as u64;
        *batch = Some((current, end));
    }
    Ok((seen, got))
}

/// Adds the rows `slots` of `batch`, of `schema`, to what `seen` holds of each column.
fn add_slots(
    seen: &mut [Seen],
    schema: &TypeDescription,
    batch: &Batch,
    slots: std::ops::Range<usize>,
) -> Result<(), Failure> {
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
fn add(
    seen: &mut [Seen],
    t: &TypeDescription,
    vector: &Vector,
    slots: std::ops::Range<usize>,
) -> Result<(), Failure> {
    let present = |i: usize| vector.is_present(i);
    let Some(column) = seen.get_mut(t.id() as usize) else {
        return Ok(());
    };
    let values = slots.clone().filter(|&i| present(i)).count();
    column.values += values as u64;
    column.has_null |= values < slots.len();
    let mismatch = || {
        Failure::File(format!(
            "column {}: a vector that does not hold {t}",
            t.id()
        ))
    };
    add_values(column, t, vector, slots.clone())?;
    let children = t.children();
    match &vector.data {
        VectorData::Struct { fields, .. } => {
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
            for i in slots.filter(|&i| present(i)) {
                let tag = usize::from(*tags.get(i).ok_or_else(mismatch)?);
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

/// Adds the values of the slots `slots` of `vector`, a column of type `t`, to what
/// `column` holds of them: its range, trues, lengths.
fn add_values(
    column: &mut Seen,
    t: &TypeDescription,
    vector: &Vector,
    slots: std::ops::Range<usize>,
) -> Result<(), Failure> {
    let present = |i: usize| vector.is_present(i);
    let mismatch = || {
        Failure::File(format!(
            "column {}: a vector that does not hold {t}",
            t.id()
        ))
    };
    match (&mut column.typed, &vector.data) {
        (SeenTyped::Boolean { trues }, VectorData::Boolean(v)) => {
            *trues += slots
                .clone()
                .filter(|&i| present(i) && v.get(i) == Some(&true))
                .count() as u64;
        }
        (SeenTyped::Integer { range }, VectorData::Int(v)) => {
            for i in slots.clone().filter(|&i| present(i)) {
                widen(range, v.get(i).ok_or_else(mismatch)?);
            }
        }
        (SeenTyped::Date { range }, VectorData::Int(v)) => {
            for i in slots.clone().filter(|&i| present(i)) {
                let days = *v.get(i).ok_or_else(mismatch)?;
                let days = i32::try_from(days).map_err(|_| {
                    Failure::File(format!("column {}: date {days} days from 1970", t.id()))
                })?;
                widen(range, &days);
            }
        }
        (SeenTyped::Double { range, nan }, VectorData::Float(v)) => {
            for i in slots.clone().filter(|&i| present(i)) {
                let value = f64::from(*v.get(i).ok_or_else(mismatch)?);
                if value.is_nan() {
                    *nan = true;
                } else {
                    widen(range, &value);
                }
            }
        }
        (SeenTyped::Double { range, nan }, VectorData::Double(v)) => {
            for i in slots.clone().filter(|&i| present(i)) {
                let value = *v.get(i).ok_or_else(mismatch)?;
                if value.is_nan() {
                    *nan = true;
                } else {
                    widen(range, &value);
                }
            }
        }
        (SeenTyped::String { range }, VectorData::Bytes(v)) => {
            for i in slots.clone().filter(|&i| present(i)) {
                let text = utf8(v.get(i).ok_or_else(mismatch)?, t)?;
                widen_str(range, text);
            }
        }
        (
            SeenTyped::Collection { range, total },
            VectorData::List { offsets, .. } | VectorData::Map { offsets, .. },
        ) => {
            for i in slots.clone().filter(|&i| present(i)) {
                let (start, end) = span(offsets, i).ok_or_else(mismatch)?;
                let len = (end - start) as u64;
                widen(range, &len);
                *total += len;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The text of a string value of a column of type `t`, which must be UTF-8.
fn utf8<'a>(bytes: &'a [u8], t: &TypeDescription) -> Result<&'a str, Failure> {
    std::str::from_utf8(bytes).map_err(|e| {
        Failure::File(format!(
            "malformed ORC file: column {}: a {} that is not UTF-8 (at byte {})",
            t.id(),
            t.kind().name(),
            e.valid_up_to()
        ))
    })
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

/// The children of slot `i` of a list or map with `offsets`.
fn span(offsets: &[usize], i: usize) -> Option<(usize, usize)> {
    let start = *offsets.get(i)?;
    let end = *offsets.get(i + 1)?;
    (start <= end).then_some((start, end))
}

/// The children of the slots `slots` of a list or map with `offsets` (a null slot has
/// none).
fn spans(offsets: &[usize], slots: &std::ops::Range<usize>) -> Option<std::ops::Range<usize>> {
    let start = *offsets.get(slots.start)?;
    let end = *offsets.get(slots.end)?;
    (start <= end).then_some(start..end)
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

/// The disagreements between statistics and what the values say, each a line naming
/// `scope` and the column: in `problems`, or in `notes` for the known habits of writers
/// that mislead no reader.
fn compare(
    scope: &str,
    stats: &[proto::ColumnStatistics],
    seen: &[Seen],
    names: &[String],
    findings: &mut Findings,
) {
    if !stats.is_empty() && stats.len() != seen.len() {
        findings.problems.push(format!(
            "{scope}: statistics of {} columns where the schema has {}",
            stats.len(),
            seen.len()
        ));
    }
    for (id, (p, seen)) in stats.iter().zip(seen).enumerate() {
        compare_column(scope, id, p, seen, names, findings);
    }
}

/// What `verify` found: disagreements, and the known habits of writers (notes).
#[derive(Debug, Default)]
struct Findings {
    problems: Vec<String>,
    notes: Vec<String>,
}

impl Findings {
    /// Prints the notes, and the problems but the first, which is the failure.
    fn report(self, out: &mut impl Write) -> Result<(), Failure> {
        for note in &self.notes {
            writeln!(out, "note: {note}")?;
        }
        let Some(first) = self.problems.first() else {
            return Ok(());
        };
        for p in self.problems.iter().skip(1) {
            writeln!(out, "disagreement: {p}")?;
        }
        Err(Failure::File(format!(
            "{first}{}",
            match self.problems.len() {
                1 => String::new(),
                n => format!(" (and {} more, listed on standard output)", n - 1),
            }
        )))
    }
}

/// Checks the statistics `p` of column `id` against the values `seen` of it, in `scope`.
fn compare_column(
    scope: &str,
    id: usize,
    p: &proto::ColumnStatistics,
    seen: &Seen,
    names: &[String],
    findings: &mut Findings,
) {
    {
        let st = ColumnStatistics::from_proto(p);
        let column = match names.get(id).map(String::as_str) {
            None | Some("") => format!("column {id}"),
            Some(name) => format!("column {id} ({name})"),
        };
        let batch_capacity = java_batch_capacity(&st.typed, st.number_of_values);
        let mut problem = |what: &str, stated: String, actual: String| {
            let text = format!(
                "{scope}, {column}: the statistics' {what} is {stated}, the values' {actual}"
            );
            // Known habits of Apache ORC's writers, harmless to a reader: a child of a
            // struct with nulls marked as having nulls of its own (C++ and Java), a
            // map's or list's total children left at 0 (C++ maps; Java lists and maps,
            // as in Spark's files), and a list's or map's children counted as the row
            // batch's capacity (ORC Java 2.x, as in Spark 4's files).
            let habit = (what == "hasNull" && stated == "true")
                || (what == "total children" && stated == "0")
                || (batch_capacity && matches!(what, "min" | "max" | "total children"));
            if habit {
                findings.notes.push(text);
            } else {
                findings.problems.push(text);
            }
        };
        if st.number_of_values != seen.values {
            problem(
                "count",
                st.number_of_values.to_string(),
                seen.values.to_string(),
            );
        }
        if let Some(has_null) = st.has_null
            && has_null != seen.has_null
        {
            problem("hasNull", has_null.to_string(), seen.has_null.to_string());
        }
        compare_typed(&st.typed, &seen.typed, &mut problem);
    }
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

fn compare_typed(
    typed: &TypedStatistics,
    seen: &SeenTyped,
    problem: &mut impl FnMut(&str, String, String),
) {
    fn range<T: PartialEq + std::fmt::Debug>(
        min: Option<&T>,
        max: Option<&T>,
        seen: Option<&(T, T)>,
        problem: &mut impl FnMut(&str, String, String),
    ) {
        let none = || "none".to_owned();
        if let Some(min) = min
            && seen.is_none_or(|(m, _)| m != min)
        {
            problem(
                "min",
                format!("{min:?}"),
                seen.map_or_else(none, |(m, _)| format!("{m:?}")),
            );
        }
        if let Some(max) = max
            && seen.is_none_or(|(_, m)| m != max)
        {
            problem(
                "max",
                format!("{max:?}"),
                seen.map_or_else(none, |(_, m)| format!("{m:?}")),
            );
        }
    }
    match (typed, seen) {
        (TypedStatistics::Boolean { true_count }, SeenTyped::Boolean { trues })
            if true_count != trues =>
        {
            problem("true count", true_count.to_string(), trues.to_string());
        }
        (TypedStatistics::Integer { min, max, .. }, SeenTyped::Integer { range: r }) => {
            range(min.as_ref(), max.as_ref(), r.as_ref(), problem);
        }
        // Writers differ in what a NaN does to the range.
        (TypedStatistics::Double { min, max, .. }, SeenTyped::Double { range: r, nan }) if !nan => {
            range(min.as_ref(), max.as_ref(), r.as_ref(), problem);
        }
        (
            TypedStatistics::String {
                min,
                max,
                lower_bound,
                upper_bound,
                ..
            },
            SeenTyped::String { range: r },
        ) => {
            range(min.as_ref(), max.as_ref(), r.as_ref(), problem);
            // Truncated bounds (values longer than the writer records) must hold.
            if let (Some(lower), Some((seen_min, _))) = (lower_bound, r)
                && lower > seen_min
            {
                problem("lower bound", format!("{lower:?}"), format!("{seen_min:?}"));
            }
            if let (Some(upper), Some((_, seen_max))) = (upper_bound, r)
                && upper < seen_max
            {
                problem("upper bound", format!("{upper:?}"), format!("{seen_max:?}"));
            }
        }
        (TypedStatistics::Date { min, max }, SeenTyped::Date { range: r }) => {
            range(min.as_ref(), max.as_ref(), r.as_ref(), problem);
        }
        (
            TypedStatistics::Collection {
                min_children,
                max_children,
                total_children,
            },
            SeenTyped::Collection { range: r, total },
        ) => {
            range(
                min_children.as_ref(),
                max_children.as_ref(),
                r.as_ref(),
                problem,
            );
            if let Some(stated) = total_children
                && stated != total
            {
                problem("total children", stated.to_string(), total.to_string());
            }
        }
        _ => {}
    }
}

/// Whether statistics of a part of `rows` rows were recorded: some writers (Hive 0.11's)
/// leave every count at 0, statistics missing rather than wrong.
fn recorded(stats: &[proto::ColumnStatistics], rows: u64) -> bool {
    rows == 0 || stats.iter().any(|c| c.number_of_values.unwrap_or(0) > 0)
}

/// `stats` in the calendar the values are read in (a hybrid-calendar file's date
/// statistics as the proleptic days of the dates they name), so that each is judged
/// against the values as read.
fn as_read(reader: &OrcFile, stats: &[proto::ColumnStatistics]) -> Vec<proto::ColumnStatistics> {
    stats
        .iter()
        .map(|s| reader.statistics_as_read(s.clone()))
        .collect()
}

/// Checks the values `seen` of row group `group` of stripe `stripe` (`rows` rows)
/// against the statistics of its entries in the stripe's row `indexes`; whether they were
/// recorded (some writers leave every count at 0, as in their stripes' statistics). A
/// group an index has no entry for is a problem.
fn compare_group(
    reader: &OrcFile,
    (stripe, group): (usize, usize),
    indexes: &[(u32, proto::RowIndex)],
    seen: &[Seen],
    rows: u64,
    names: &[String],
    findings: &mut Findings,
) -> bool {
    let scope = format!("stripe {stripe}, row group {group}");
    let mut stats = Vec::with_capacity(indexes.len());
    for (column, index) in indexes {
        match index.entry.get(group) {
            Some(entry) => {
                if let Some(s) = &entry.statistics {
                    stats.push((*column as usize, reader.statistics_as_read(s.clone())));
                }
            }
            None => findings.problems.push(format!(
                "{scope}: the row index of column {column} has no entry for it"
            )),
        }
    }
    let recorded = rows == 0
        || stats
            .iter()
            .any(|(_, s)| s.number_of_values.unwrap_or(0) > 0);
    if recorded {
        for (id, s) in &stats {
            if let Some(seen) = seen.get(*id) {
                compare_column(&scope, *id, s, seen, names, findings);
            }
        }
    }
    recorded && !stats.is_empty()
}

/// The values of stripe `index` of `rows` rows, read on from `batches` (`batch` the one
/// being read), how many rows there were, and how many row groups were checked: with a
/// row index, a group of [`row_index_stride`](orc_file::OrcReader::row_index_stride)
/// rows at a time, each judged by its index entries.
fn stripe_checked(
    reader: &OrcFile,
    (index, rows): (usize, u64),
    batches: &mut orc_file::Batches<'_, Data>,
    batch: &mut Option<(Batch, usize)>,
    names: &[String],
    findings: &mut Findings,
) -> Result<(Vec<Seen>, u64, usize), Failure> {
    let schema = reader.schema();
    let indexes = reader.row_indexes(index)?;
    let group_rows = if indexes.is_empty() {
        u64::MAX
    } else {
        u64::from(reader.row_index_stride())
    };
    let mut stripe = nothing_seen(schema);
    let (mut got, mut group, mut checked) = (0_u64, 0_usize, 0_usize);
    while got < rows {
        let want = group_rows.min(rows - got);
        let (seen, n) = stripe_seen(schema, want, batches, batch)?;
        if !indexes.is_empty()
            && compare_group(reader, (index, group), &indexes, &seen, n, names, findings)
        {
            checked += 1;
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
    Ok((stripe, got, checked))
}

/// `pqkit verify` of an ORC file: every row of every stripe read, the row counts of the
/// footer and the statistics of the file and of each stripe checked against the values.
pub(crate) fn verify(reader: &OrcFile, out: &mut impl Write) -> Result<(), Failure> {
    let schema = reader.schema();
    let names = column_names(schema);
    let stripes = reader.stripes();
    let stripe_stats = reader.stripe_statistics_proto()?;
    let mut findings = Findings::default();
    let problems = &mut findings.problems;
    let stated: u64 = stripes.iter().map(|s| s.num_rows).sum();
    if stated != reader.num_rows() {
        problems.push(format!(
            "the footer counts {} rows, its stripes {stated}",
            reader.num_rows()
        ));
    }
    if !stripe_stats.is_empty() && stripe_stats.len() != stripes.len() {
        problems.push(format!(
            "statistics of {} stripes where the file has {}",
            stripe_stats.len(),
            stripes.len()
        ));
    }
    let mut file = nothing_seen(schema);
    // Batches of column vectors, each value seen where it lies: no row is assembled.
    let mut batches = reader.batches(ReadOptions::default())?;
    let mut batch: Option<(Batch, usize)> = None;
    let mut read = 0_u64;
    let mut empty = 0_usize;
    let mut groups = 0_usize;
    for (i, info) in stripes.iter().enumerate() {
        let (stripe, got, checked) = stripe_checked(
            reader,
            (i, info.num_rows),
            &mut batches,
            &mut batch,
            &names,
            &mut findings,
        )
        .map_err(|f| f.in_context(&format!("stripe {i}")))?;
        groups += checked;
        let problems = &mut findings.problems;
        if got != info.num_rows {
            problems.push(format!(
                "stripe {i}: {got} rows where its footer says {}",
                info.num_rows
            ));
        }
        read += got;
        match stripe_stats.get(i) {
            Some(stats) if !recorded(&stats.col_stats, got) => empty += 1,
            Some(stats) => compare(
                &format!("stripe {i}"),
                &as_read(reader, &stats.col_stats),
                &stripe,
                &names,
                &mut findings,
            ),
            None => {}
        }
        for (all, this) in file.iter_mut().zip(&stripe) {
            all.merge(this);
        }
    }
    let past = batch.is_some_and(|(current, next)| next < current.num_rows);
    if past || batches.next().is_some() {
        findings
            .problems
            .push("rows past the stripes' counts".into());
    }
    let in_file = as_read(reader, reader.file_statistics_proto());
    if recorded(&in_file, read) {
        compare("file", &in_file, &file, &names, &mut findings);
    } else {
        empty += 1;
    }
    findings.report(out)?;
    // The sets of statistics checked: the file's and each stripe's.
    let sets = usize::from(!in_file.is_empty()) + stripe_stats.len().min(stripes.len());
    let checked = match (sets - empty.min(sets), empty) {
        (0, 0) => "; no statistics".to_owned(),
        (n, 0) => format!("; {n} sets of statistics (file and stripes) agree with the values"),
        (n, e) => format!(
            "; {n} sets of statistics (file and stripes) agree with the values, {e} are empty (every count 0)"
        ),
    };
    let checked = match groups {
        0 => checked,
        1 => format!("{checked}; the row index of 1 row group agrees"),
        n => format!("{checked}; the row indexes of {n} row groups agree"),
    };
    writeln!(
        out,
        "ok: {read} rows, {} stripes, {} columns; ORC {} {}{checked}",
        stripes.len(),
        schema.column_count(),
        reader.version(),
        reader.compression()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> TypeDescription {
        TypeDescription::parse(
            "struct<id:int,s:struct<a:string,l:array<int>>,m:map<string,double>,u:uniontype<int,string>>",
        )
        .unwrap()
    }

    #[test]
    fn columns_are_named_by_path() {
        assert_eq!(
            column_names(&schema()),
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
        let mut text = Vec::new();
        tree(&schema(), None, 0, &mut text).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "0 struct\n  1 id: int\n  2 s: struct\n    3 a: string\n    4 l: array\n      5 element: int\n  6 m: map\n    7 key: string\n    8 value: double\n  9 u: uniontype\n    10 _union_0: int\n    11 _union_1: string\n"
        );
    }

    /// Adds `rows`, written by orc-file and read back as the vectors a reader gives, to
    /// `seen`.
    fn seen_of(seen: &mut [Seen], schema: &TypeDescription, rows: &[Row]) {
        let options = orc_file::WriterOptions::default();
        let mut writer = orc_file::OrcWriter::new(Vec::new(), schema.clone(), options).unwrap();
        for row in rows {
            writer.write_row(row).unwrap();
        }
        let reader = OrcReader::open(writer.finish().unwrap()).unwrap();
        for batch in reader.batches(ReadOptions::default()).unwrap() {
            let batch = batch.unwrap();
            add_slots(seen, schema, &batch, 0..batch.num_rows).unwrap();
        }
    }

    #[test]
    fn values_are_seen_by_column_as_orc_stores_them() {
        let schema = schema();
        let mut seen = nothing_seen(&schema);
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
        seen_of(
            &mut seen,
            &schema,
            &[row(7, s, u), row(-2, Field::Null, Field::Null)],
        );
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
        let mut findings = Findings::default();
        compare(
            "file",
            &[proto::ColumnStatistics::default(), stats.to_proto()],
            &seen[..2],
            &column_names(&schema),
            &mut findings,
        );
        let Findings { problems, notes } = findings;
        assert_eq!(
            problems,
            [
                "file, column 0: the statistics' count is 0, the values' 2",
                "file, column 1 (id): the statistics' max is 8, the values' 7",
            ]
        );
        // A writer's habit that misleads no reader: a note, not a failure.
        assert_eq!(
            notes,
            ["file, column 1 (id): the statistics' hasNull is true, the values' false"]
        );
    }

    #[test]
    fn a_list_counted_by_the_row_batch_is_a_note_but_impossible_counts_fail() {
        // A list column of 300 values with 0 to 4 children, 600 in all.
        let schema = TypeDescription::parse("struct<arr:array<int>>").unwrap();
        let names = column_names(&schema);
        let mut seen = nothing_seen(&schema);
        let rows: Vec<Row> = (0..300_u64)
            .map(|i| {
                let items = (0..i % 5).map(|_| Field::Int(1)).collect();
                Row::new(vec![(Arc::from("arr"), Field::List(items))])
            })
            .collect();
        seen_of(&mut seen, &schema, &rows);
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
            let mut findings = Findings::default();
            compare("file", &stats, &seen, &names, &mut findings);
            (findings.problems.len(), findings.notes.len())
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

    #[test]
    fn pruning_keeps_the_paths_and_their_order() {
        let row = vec![
            (Arc::from("a"), Field::Int(1)),
            (
                Arc::from("b"),
                Field::Group(vec![
                    (Arc::from("x"), Field::Int(2)),
                    (Arc::from("y"), Field::Int(3)),
                ]),
            ),
            (Arc::from("c"), Field::Null),
        ];
        let paths = [
            ColumnPath::new(["c"]),
            ColumnPath::new(["b", "y"]),
            ColumnPath::new(["a"]),
        ];
        let parts: Vec<&[String]> = paths.iter().map(ColumnPath::parts).collect();
        assert_eq!(
            prune(row, &parts),
            vec![
                (Arc::from("a"), Field::Int(1)),
                (
                    Arc::from("b"),
                    Field::Group(vec![(Arc::from("y"), Field::Int(3))])
                ),
                (Arc::from("c"), Field::Null),
            ]
        );
    }
}
