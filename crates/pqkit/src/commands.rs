//! The commands: each reads through `parquet-file` and prints to `out`.

use std::fmt::Write as _;
use std::fs::File;
use std::io::Write;

use parquet_file::thrift::Type;
use parquet_file::thrift::{ColumnMetaData, Encoding, PageHeader};
use parquet_file::{
    ColumnStatistics, Field, FileReader, FooterProtection, Literal, Page, Predicate, Projection,
    Row,
};

use crate::format::{cell, json, object, string};
use crate::{Failure, Format};

/// The reader every command uses.
pub(crate) type Reader = FileReader<File>;

pub(crate) fn schema(reader: &Reader, out: &mut impl Write) -> Result<(), Failure> {
    write!(out, "{}", reader.schema())?;
    Ok(())
}

fn encodings(encodings: &[Encoding]) -> String {
    encodings
        .iter()
        .map(|e| {
            e.name()
                .map_or_else(|| format!("Encoding({})", e.0), str::to_owned)
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn protection(p: FooterProtection) -> &'static str {
    match p {
        FooterProtection::None => "none",
        FooterProtection::Encrypted => "encrypted",
        FooterProtection::SignatureVerified => "signed, signature verified",
        FooterProtection::SignatureNotVerified => "signed, signature not verified (no footer key)",
    }
}

fn stat_text(field: Option<&Field>) -> String {
    let mut s = String::new();
    match field {
        Some(f) => json(f, &mut s),
        None => s.push('-'),
    }
    s
}

fn meta_json(reader: &Reader) -> String {
    let m = reader.metadata();
    let file = m.file_metadata();
    let schema = reader.schema();
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\"version\":{},\"num_rows\":{},\"created_by\":",
        file.version, file.num_rows
    );
    match &file.created_by {
        Some(c) => string(c, &mut s),
        None => s.push_str("null"),
    }
    let _ = write!(s, ",\"footer_length\":{},\"footer\":", m.footer_len());
    string(protection(m.footer_protection()), &mut s);
    s.push_str(",\"key_value_metadata\":[");
    for (i, kv) in file.key_value_metadata.iter().flatten().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str("{\"key\":");
        string(&kv.key, &mut s);
        s.push_str(",\"value\":");
        match &kv.value {
            Some(v) => string(v, &mut s),
            None => s.push_str("null"),
        }
        s.push('}');
    }
    s.push_str("],\"row_groups\":[");
    for (g, group) in m.row_groups().iter().enumerate() {
        if g > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"num_rows\":{},\"total_byte_size\":{},\"total_compressed_size\":{},\"columns\":[",
            group.num_rows,
            group.total_byte_size,
            group
                .total_compressed_size
                .map_or_else(|| "null".into(), |v| v.to_string())
        );
        for c in 0..group.columns.len() {
            if c > 0 {
                s.push(',');
            }
            s.push_str("{\"path\":");
            string(&schema.column(c).name, &mut s);
            match m.column_metadata(g, c) {
                Err(e) => {
                    s.push_str(",\"error\":");
                    string(&e.to_string(), &mut s);
                }
                Ok(meta) => chunk_json(meta, m.column_statistics(g, c).ok().flatten(), &mut s),
            }
            s.push('}');
        }
        s.push_str("]}");
    }
    s.push_str("]}");
    s
}

pub(crate) fn meta(reader: &Reader, as_json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let m = reader.metadata();
    let file = m.file_metadata();
    let schema = reader.schema();
    if as_json {
        writeln!(out, "{}", meta_json(reader))?;
        return Ok(());
    }
    writeln!(out, "version: {}", file.version)?;
    writeln!(
        out,
        "created by: {}",
        file.created_by.as_deref().unwrap_or("-")
    )?;
    writeln!(out, "rows: {}", file.num_rows)?;
    writeln!(out, "row groups: {}", m.row_groups().len())?;
    writeln!(out, "columns: {}", schema.columns().len())?;
    writeln!(
        out,
        "footer: {} bytes, {}",
        m.footer_len(),
        protection(m.footer_protection())
    )?;
    for kv in file.key_value_metadata.iter().flatten() {
        let value = kv.value.as_deref().unwrap_or("(null)");
        let shown: String = value.chars().take(120).collect();
        let more = if shown.len() < value.len() { "…" } else { "" };
        writeln!(out, "metadata: {} = {shown}{more}", kv.key)?;
    }
    for (g, group) in m.row_groups().iter().enumerate() {
        writeln!(
            out,
            "row group {g}: {} rows, {} bytes",
            group.num_rows, group.total_byte_size
        )?;
        for c in 0..group.columns.len() {
            let name = &schema.column(c).name;
            match m.column_metadata(g, c) {
                Err(e) => writeln!(out, "  {name}: {e}")?,
                Ok(meta) => {
                    writeln!(
                        out,
                        "  {name}: {} {} [{}] values={} compressed={} uncompressed={} offset={}",
                        meta.type_.name().unwrap_or("?"),
                        meta.codec.name().unwrap_or("?"),
                        encodings(&meta.encodings),
                        meta.num_values,
                        meta.total_compressed_size,
                        meta.total_uncompressed_size,
                        meta.data_page_offset,
                    )?;
                    if let Ok(Some(st)) = m.column_statistics(g, c) {
                        writeln!(
                            out,
                            "    statistics: min={} max={} nulls={} distinct={}",
                            stat_text(st.min.as_ref()),
                            stat_text(st.max.as_ref()),
                            st.null_count.map_or_else(|| "-".into(), |n| n.to_string()),
                            st.distinct_count
                                .map_or_else(|| "-".into(), |n| n.to_string()),
                        )?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn chunk_json(meta: &ColumnMetaData<'_>, stats: Option<ColumnStatistics>, s: &mut String) {
    let _ = write!(
        s,
        ",\"type\":\"{}\",\"codec\":\"{}\",\"encodings\":[",
        meta.type_.name().unwrap_or("?"),
        meta.codec.name().unwrap_or("?")
    );
    for (i, e) in meta.encodings.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        string(&e.name().map_or_else(|| e.0.to_string(), str::to_owned), s);
    }
    let _ = write!(
        s,
        "],\"num_values\":{},\"total_compressed_size\":{},\"total_uncompressed_size\":{},\"data_page_offset\":{},\"dictionary_page_offset\":{},\"bloom_filter_offset\":{}",
        meta.num_values,
        meta.total_compressed_size,
        meta.total_uncompressed_size,
        meta.data_page_offset,
        meta.dictionary_page_offset
            .map_or_else(|| "null".into(), |v| v.to_string()),
        meta.bloom_filter_offset
            .map_or_else(|| "null".into(), |v| v.to_string()),
    );
    if let Some(st) = stats {
        let count = |c: Option<u64>| c.map_or_else(|| "null".into(), |v| v.to_string());
        let _ = write!(
            s,
            ",\"statistics\":{{\"null_count\":{},\"distinct_count\":{},\"min\":",
            count(st.null_count),
            count(st.distinct_count)
        );
        json(st.min.as_ref().unwrap_or(&Field::Null), s);
        s.push_str(",\"max\":");
        json(st.max.as_ref().unwrap_or(&Field::Null), s);
        s.push('}');
    }
}

fn header_line(header: &PageHeader<'_>, offset: u64) -> String {
    let mut s = format!(
        "{} at {offset}: compressed={} uncompressed={}",
        header.type_.name().unwrap_or("UNKNOWN_PAGE"),
        header.compressed_page_size,
        header.uncompressed_page_size
    );
    if let Some(crc) = header.crc {
        let _ = write!(s, " crc={:#010x}", crc.cast_unsigned());
    }
    if let Some(h) = &header.data_page_header {
        let _ = write!(
            s,
            " values={} encoding={} def={} rep={}",
            h.num_values,
            encodings(&[h.encoding]),
            encodings(&[h.definition_level_encoding]),
            encodings(&[h.repetition_level_encoding])
        );
    }
    if let Some(h) = &header.data_page_header_v2 {
        let _ = write!(
            s,
            " values={} nulls={} rows={} encoding={} compressed={}",
            h.num_values,
            h.num_nulls,
            h.num_rows,
            encodings(&[h.encoding]),
            h.is_compressed.unwrap_or(true)
        );
    }
    if let Some(h) = &header.dictionary_page_header {
        let _ = write!(
            s,
            " entries={} encoding={}",
            h.num_values,
            encodings(&[h.encoding])
        );
    }
    s
}

pub(crate) fn pages(
    reader: &Reader,
    column: Option<&str>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let schema = reader.schema();
    let columns: Vec<usize> = match column {
        Some(path) => {
            let c = schema.columns_under(path);
            if c.is_empty() {
                return Err(Failure::Usage(format!("no column {path:?} in the schema")));
            }
            c
        }
        None => (0..schema.columns().len()).collect(),
    };
    for g in 0..reader.num_row_groups() {
        for &c in &columns {
            writeln!(out, "row group {g}, column {}:", schema.column(c).name)?;
            let mut chunk = reader.column_chunk(g, c)?;
            while let Some(page) = chunk.pages_mut().next_page()? {
                let line = match &page {
                    Page::Dictionary { header, offset, .. } => header_line(header, *offset),
                    Page::Data(d) => header_line(&d.header, d.offset),
                };
                writeln!(out, "  {line}")?;
            }
            page_index(reader, g, c, out)?;
        }
    }
    Ok(())
}

/// The offset and column indexes of a chunk, one line per page.
fn page_index(reader: &Reader, g: usize, c: usize, out: &mut impl Write) -> Result<(), Failure> {
    let offsets = reader.offset_index(g, c)?;
    let stats = reader.column_index(g, c)?;
    let pages = match (&offsets, &stats) {
        (None, None) => return Ok(()),
        (Some(o), _) => o.page_locations.len(),
        (None, Some(s)) => s.pages.len(),
    };
    let order = stats.as_ref().map_or("-", |s| {
        s.boundary_order.name().unwrap_or("unknown boundary order")
    });
    writeln!(
        out,
        "  page index: offset index {}, column index {} ({order})",
        if offsets.is_some() { "yes" } else { "no" },
        if stats.is_some() { "yes" } else { "no" },
    )?;
    for i in 0..pages {
        let mut line = format!("    page {i}:");
        if let Some(l) = offsets.as_ref().and_then(|o| o.page_locations.get(i)) {
            let _ = write!(
                line,
                " at {} size={} first_row={}",
                l.offset, l.compressed_page_size, l.first_row_index
            );
        }
        if let Some(p) = stats.as_ref().and_then(|s| s.pages.get(i)) {
            if p.null_page {
                line.push_str(" null page");
            } else {
                let _ = write!(
                    line,
                    " min={} max={}",
                    stat_text(p.statistics.min.as_ref()),
                    stat_text(p.statistics.max.as_ref())
                );
            }
            if let Some(n) = p.statistics.null_count {
                let _ = write!(line, " nulls={n}");
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

pub(crate) fn cat(
    reader: &Reader,
    format: Format,
    columns: Option<Vec<String>>,
    limit: Option<u64>,
    filter: Option<&str>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let filter = filter.map(Predicate::parse).transpose()?;
    let mut projection = Projection::all();
    let mut shown: Option<Vec<String>> = None;
    if let Some(columns) = columns {
        // The filter may read fields that are not shown.
        let mut read = columns.clone();
        if let Some(f) = &filter {
            read.extend(f.paths().into_iter().map(str::to_owned));
        }
        projection = projection.columns(read);
        shown = Some(columns);
    }
    if let Some(f) = &filter {
        f.check(reader.schema())?;
        let mut groups = Vec::new();
        for g in 0..reader.num_row_groups() {
            if !f.might_match(reader, g)? {
                continue;
            }
            let rows = f.row_selection(reader, g)?;
            if !rows.is_empty() {
                groups.push(g);
                projection = projection.select_rows(g, rows);
            }
        }
        projection = projection.row_groups(groups);
    }
    let rows = reader.rows_with(projection)?;
    let keep = |name: &str| {
        shown.as_ref().is_none_or(|s| {
            s.iter()
                .any(|p| p == name || p.split('.').next() == Some(name))
        })
    };
    let mut printed = 0_u64;
    let mut line = String::new();
    let mut table: Vec<Vec<String>> = Vec::new();
    let mut header_done = false;
    for row in rows {
        if limit.is_some_and(|l| printed >= l) {
            break;
        }
        let row: Row = row?;
        if filter.as_ref().is_some_and(|f| !f.matches(&row)) {
            continue;
        }
        printed += 1;
        let fields: Vec<(&str, &Field)> = row
            .fields()
            .iter()
            .filter(|(n, _)| keep(n))
            .map(|(n, f)| (&**n, f))
            .collect();
        line.clear();
        match format {
            Format::Jsonl => {
                object(fields, &mut line);
                writeln!(out, "{line}")?;
            }
            Format::Csv => {
                if !header_done {
                    let names: Vec<String> = fields.iter().map(|(n, _)| csv_escape(n)).collect();
                    writeln!(out, "{}", names.join(","))?;
                    header_done = true;
                }
                let cells: Vec<String> = fields
                    .iter()
                    .map(|(_, f)| {
                        let mut c = String::new();
                        cell(f, &mut c);
                        csv_escape(&c)
                    })
                    .collect();
                writeln!(out, "{}", cells.join(","))?;
            }
            Format::Table => {
                if table.is_empty() {
                    table.push(fields.iter().map(|(n, _)| (*n).to_owned()).collect());
                }
                table.push(
                    fields
                        .iter()
                        .map(|(_, f)| {
                            let mut c = String::new();
                            if **f == Field::Null {
                                c.push_str("null");
                            } else {
                                cell(f, &mut c);
                            }
                            truncate(&c, 40)
                        })
                        .collect(),
                );
            }
        }
    }
    if format == Format::Table {
        print_table(&table, out)?;
    }
    Ok(())
}

fn csv_escape(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn truncate(text: &str, width: usize) -> String {
    let text = text.replace(['\n', '\r', '\t'], " ");
    if text.chars().count() <= width {
        text
    } else {
        let mut t: String = text.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}

fn print_table(table: &[Vec<String>], out: &mut impl Write) -> Result<(), Failure> {
    let Some(header) = table.first() else {
        return Ok(());
    };
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (r, row) in table.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, &w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        writeln!(out, "{}", cells.join(" | ").trim_end())?;
        if r == 0 {
            let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
            writeln!(out, "{}", rule.join("-+-"))?;
        }
    }
    Ok(())
}

pub(crate) fn bloom(
    reader: &Reader,
    column: &str,
    value: &str,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let schema = reader.schema();
    let Some(c) = schema.column_index(column) else {
        return Err(Failure::Usage(format!(
            "no leaf column {column:?} in the schema"
        )));
    };
    let descriptor = schema.column(c);
    let bad = || Failure::Usage(format!("{value:?} is not a value of column {column}"));
    let literal = match descriptor.physical_type {
        Type::BOOLEAN => Literal::Bool(value.parse().map_err(|_| bad())?),
        Type::INT32 | Type::INT64 => Literal::Int(value.parse().map_err(|_| bad())?),
        Type::FLOAT | Type::DOUBLE => Literal::Float(value.parse().map_err(|_| bad())?),
        _ => Literal::Str(value.to_owned()),
    };
    let Some(plain) = literal.plain_bytes(descriptor) else {
        return Err(Failure::Usage(format!(
            "{value:?} has no single stored form in column {column} (out of range, a zero or NaN float, or a DECIMAL or other annotated type)"
        )));
    };
    for g in 0..reader.num_row_groups() {
        match reader.bloom_filter(g, c)? {
            None => writeln!(out, "row group {g}: no Bloom filter")?,
            Some(filter) => {
                let verdict = if filter.check(plain.as_slice()) {
                    "might contain"
                } else {
                    "does not contain"
                };
                writeln!(out, "row group {g}: {verdict} {value}")?;
            }
        }
    }
    Ok(())
}

pub(crate) fn verify(reader: &Reader, out: &mut impl Write) -> Result<(), Failure> {
    let m = reader.metadata();
    if m.footer_protection() == FooterProtection::SignatureNotVerified {
        return Err(Failure::File(
            "the footer is signed but the signature was not verified: give --footer-key".into(),
        ));
    }
    let schema = reader.schema();
    for g in 0..reader.num_row_groups() {
        for c in 0..schema.columns().len() {
            reader.bloom_filter(g, c)?;
        }
    }
    // Reading every row decodes every page of every column (checking its CRC), and
    // checks that each column holds exactly its row group's rows.
    let mut rows = 0_u64;
    for row in reader.rows()? {
        row?;
        rows += 1;
    }
    writeln!(
        out,
        "ok: {rows} rows, {} row groups, {} columns; footer {}",
        reader.num_row_groups(),
        schema.columns().len(),
        protection(m.footer_protection())
    )?;
    Ok(())
}
