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
use orc_file::{OrcReader, ReadOptions, TypeDescription, proto};
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

/// An error of the writer about a row of `schema`, naming the field it is about by its
/// dotted name (the error knows its column id).
pub(crate) fn row_error(e: &orc_file::Error, schema: &TypeDescription) -> String {
    let name = e
        .location()
        .column
        .and_then(|id| schema.column_paths().get(id as usize).cloned())
        .filter(|name| !name.is_empty());
    match name {
        Some(name) => format!("field `{name}`: {}", e.kind()),
        None => e.to_string(),
    }
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
        tree(child, Some(&t.child_name(i)), depth + 1, out)?;
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
    let names = schema.column_paths();
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
    let names = schema.column_paths();
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

/// `pqkit verify` of an ORC file: [`OrcReader::verify`], its notes and disagreements
/// printed (the first disagreement is the failure), or a summary of what agrees.
pub(crate) fn verify(reader: &OrcFile, out: &mut impl Write) -> Result<(), Failure> {
    let verification = reader.verify()?;
    for note in &verification.notes {
        writeln!(out, "note: {note}")?;
    }
    crate::commands::fail_on(&verification.disagreements, out)?;
    let checked = match (
        verification.statistics_checked,
        verification.statistics_empty,
    ) {
        (0, 0) => "; no statistics".to_owned(),
        (n, 0) => format!("; {n} sets of statistics (file and stripes) agree with the values"),
        (n, e) => format!(
            "; {n} sets of statistics (file and stripes) agree with the values, {e} are empty (every count 0)"
        ),
    };
    let checked = match verification.row_groups_checked {
        0 => checked,
        1 => format!("{checked}; the row index of 1 row group agrees"),
        n => format!("{checked}; the row indexes of {n} row groups agree"),
    };
    writeln!(
        out,
        "ok: {} rows, {} stripes, {} columns; ORC {} {}{checked}",
        verification.rows,
        reader.stripes().len(),
        reader.schema().column_count(),
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
    fn the_tree_names_columns_by_their_ids() {
        let mut text = Vec::new();
        tree(&schema(), None, 0, &mut text).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "0 struct\n  1 id: int\n  2 s: struct\n    3 a: string\n    4 l: array\n      5 element: int\n  6 m: map\n    7 key: string\n    8 value: double\n  9 u: uniontype\n    10 _union_0: int\n    11 _union_1: string\n"
        );
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
