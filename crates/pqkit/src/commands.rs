//! The commands: each reads through `parquet-file` and prints to `out`.

use std::fmt::Write as _;
use std::io::Write;

use parquet_file::{
    ColumnChunkMetaData, ColumnPath, ColumnStatistics, Encoding, Field, FileReader,
    FooterProtection, GeospatialStatistics, Literal, LiteralExt, LogicalType, PageHeader, PageKind,
    PhysicalType, PredicateExt, Projection,
};

use crate::filter::{parse, resolve};
use crate::format::{cell, json, object, string};
use crate::input::Data;
use crate::{Failure, Format};

/// The reader every command uses.
pub(crate) type Reader = FileReader<Data>;

pub(crate) fn schema(reader: &Reader, out: &mut impl Write) -> Result<(), Failure> {
    write!(out, "{}", reader.schema())?;
    Ok(())
}

fn encodings(encodings: &[Encoding]) -> String {
    encodings
        .iter()
        .map(|e| e.name())
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

fn count(c: Option<u64>) -> String {
    c.map_or_else(|| "-".into(), |n| n.to_string())
}

/// The physical type and annotation of a leaf, as `meta` shows them:
/// `BYTE_ARRAY (GEOGRAPHY(OGC:CRS84,KARNEY))`.
fn column_type(physical: PhysicalType, logical: &LogicalType) -> String {
    match logical {
        LogicalType::None => physical.to_string(),
        logical => format!("{physical} ({logical})"),
    }
}

/// A bounding box and geospatial types, as text.
fn geospatial_text(g: &GeospatialStatistics) -> String {
    let mut s = String::new();
    if let Some(b) = &g.bbox {
        let _ = write!(
            s,
            "bbox x=[{}, {}] y=[{}, {}]",
            b.xmin, b.xmax, b.ymin, b.ymax
        );
        if let (Some(zmin), Some(zmax)) = (b.zmin, b.zmax) {
            let _ = write!(s, " z=[{zmin}, {zmax}]");
        }
        if let (Some(mmin), Some(mmax)) = (b.mmin, b.mmax) {
            let _ = write!(s, " m=[{mmin}, {mmax}]");
        }
    }
    if let Some(types) = &g.geospatial_types {
        if !s.is_empty() {
            s.push(' ');
        }
        let types: Vec<String> = types.iter().map(ToString::to_string).collect();
        let _ = write!(s, "types=[{}]", types.join(","));
    }
    s
}

fn geospatial_json(g: &GeospatialStatistics, s: &mut String) {
    s.push_str("{\"bbox\":");
    match &g.bbox {
        None => s.push_str("null"),
        Some(b) => {
            let opt = |v: Option<f64>| v.map_or_else(|| "null".into(), |v| format!("{v:?}"));
            let _ = write!(
                s,
                "{{\"xmin\":{:?},\"xmax\":{:?},\"ymin\":{:?},\"ymax\":{:?},\"zmin\":{},\"zmax\":{},\"mmin\":{},\"mmax\":{}}}",
                b.xmin,
                b.xmax,
                b.ymin,
                b.ymax,
                opt(b.zmin),
                opt(b.zmax),
                opt(b.mmin),
                opt(b.mmax)
            );
        }
    }
    s.push_str(",\"geospatial_types\":");
    match &g.geospatial_types {
        None => s.push_str("null"),
        Some(types) => {
            let types: Vec<String> = types.iter().map(ToString::to_string).collect();
            let _ = write!(s, "[{}]", types.join(","));
        }
    }
    s.push('}');
}

fn meta_json(reader: &Reader) -> String {
    let m = reader.metadata();
    let schema = reader.schema();
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\"version\":{},\"num_rows\":{},\"created_by\":",
        m.version(),
        m.num_rows()
    );
    match m.created_by() {
        Some(c) => string(c, &mut s),
        None => s.push_str("null"),
    }
    let _ = write!(s, ",\"footer_length\":{},\"footer\":", reader.footer_len());
    string(protection(reader.footer_protection()), &mut s);
    s.push_str(",\"key_value_metadata\":[");
    for (i, kv) in m.key_value_metadata().iter().enumerate() {
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
            group.num_rows(),
            group.total_byte_size(),
            group
                .total_compressed_size()
                .map_or_else(|| "null".into(), |v| v.to_string())
        );
        for (c, column) in schema.columns().iter().enumerate() {
            if c > 0 {
                s.push(',');
            }
            s.push_str("{\"path\":");
            string(&column.path.to_string(), &mut s);
            s.push_str(",\"logical_type\":");
            match &column.logical_type {
                LogicalType::None => s.push_str("null"),
                logical => string(&logical.to_string(), &mut s),
            }
            match m.column_chunk_metadata(g, c) {
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
    if as_json {
        writeln!(out, "{}", meta_json(reader))?;
        return Ok(());
    }
    let m = reader.metadata();
    let schema = reader.schema();
    writeln!(out, "version: {}", m.version())?;
    writeln!(out, "created by: {}", m.created_by().unwrap_or("-"))?;
    writeln!(out, "rows: {}", m.num_rows())?;
    writeln!(out, "row groups: {}", m.row_groups().len())?;
    writeln!(out, "columns: {}", schema.columns().len())?;
    writeln!(
        out,
        "footer: {} bytes, {}",
        reader.footer_len(),
        protection(reader.footer_protection())
    )?;
    for kv in m.key_value_metadata() {
        let value = kv.value.as_deref().unwrap_or("(null)");
        let shown: String = value.chars().take(120).collect();
        let more = if shown.len() < value.len() { "…" } else { "" };
        writeln!(out, "metadata: {} = {shown}{more}", kv.key)?;
    }
    for (g, group) in m.row_groups().iter().enumerate() {
        writeln!(
            out,
            "row group {g}: {} rows, {} bytes",
            group.num_rows(),
            group.total_byte_size()
        )?;
        for (c, column) in schema.columns().iter().enumerate() {
            let name = &column.path;
            match m.column_chunk_metadata(g, c) {
                Err(e) => writeln!(out, "  {name}: {e}")?,
                Ok(meta) => {
                    writeln!(
                        out,
                        "  {name}: {} {} [{}] values={} compressed={} uncompressed={} offset={}",
                        column_type(meta.physical_type(), &column.logical_type),
                        meta.codec(),
                        encodings(meta.encodings()),
                        meta.num_values(),
                        meta.total_compressed_size(),
                        meta.total_uncompressed_size(),
                        meta.data_page_offset(),
                    )?;
                    if let Ok(Some(st)) = m.column_statistics(g, c) {
                        writeln!(
                            out,
                            "    statistics: min={} max={} nulls={} distinct={}",
                            stat_text(st.min.as_ref()),
                            stat_text(st.max.as_ref()),
                            count(st.null_count),
                            count(st.distinct_count),
                        )?;
                    }
                    if let Some(geo) = meta.geospatial_statistics() {
                        writeln!(out, "    geospatial statistics: {}", geospatial_text(geo))?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn chunk_json(meta: &ColumnChunkMetaData, stats: Option<ColumnStatistics>, s: &mut String) {
    let _ = write!(
        s,
        ",\"type\":\"{}\",\"codec\":\"{}\",\"encodings\":[",
        meta.physical_type(),
        meta.codec()
    );
    for (i, e) in meta.encodings().iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        string(&e.name(), s);
    }
    let opt = |v: Option<u64>| v.map_or_else(|| "null".into(), |v| v.to_string());
    let _ = write!(
        s,
        "],\"num_values\":{},\"total_compressed_size\":{},\"total_uncompressed_size\":{},\"data_page_offset\":{},\"dictionary_page_offset\":{},\"bloom_filter_offset\":{}",
        meta.num_values(),
        meta.total_compressed_size(),
        meta.total_uncompressed_size(),
        meta.data_page_offset(),
        opt(meta.dictionary_page_offset()),
        opt(meta.bloom_filter_offset()),
    );
    if let Some(st) = stats {
        let _ = write!(
            s,
            ",\"statistics\":{{\"null_count\":{},\"distinct_count\":{},\"min\":",
            opt(st.null_count),
            opt(st.distinct_count)
        );
        json(st.min.as_ref().unwrap_or(&Field::Null), s);
        s.push_str(",\"max\":");
        json(st.max.as_ref().unwrap_or(&Field::Null), s);
        s.push('}');
    }
    if let Some(geo) = meta.geospatial_statistics() {
        s.push_str(",\"geospatial_statistics\":");
        geospatial_json(geo, s);
    }
}

fn header_line(header: &PageHeader, offset: u64) -> String {
    let mut s = format!(
        "{} at {offset}: compressed={} uncompressed={}",
        header.type_name(),
        header.compressed_size,
        header.uncompressed_size
    );
    if let Some(crc) = header.crc {
        let _ = write!(s, " crc={crc:#010x}");
    }
    match &header.kind {
        PageKind::Data(h) => {
            let _ = write!(
                s,
                " values={} encoding={} def={} rep={}",
                h.num_values,
                h.encoding.name(),
                h.def_level_encoding.name(),
                h.rep_level_encoding.name()
            );
        }
        PageKind::DataV2(h) => {
            let _ = write!(
                s,
                " values={} nulls={} rows={} encoding={} compressed={}",
                h.num_values,
                h.num_nulls,
                h.num_rows,
                h.encoding.name(),
                h.is_compressed
            );
        }
        PageKind::Dictionary(h) => {
            let _ = write!(
                s,
                " entries={} encoding={}",
                h.num_values,
                h.encoding.name()
            );
        }
        PageKind::Index | PageKind::Unknown(_) => {}
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
        Some(text) => schema.columns_under(&resolve(schema, text, "--column")?),
        None => (0..schema.columns().len()).collect(),
    };
    for g in 0..reader.num_row_groups() {
        for &c in &columns {
            let path = &schema.column(c)?.path;
            writeln!(out, "row group {g}, column {path}:")?;
            let mut pages = reader.page_reader(g, c)?;
            while let Some((header, offset)) = pages.next_header()? {
                writeln!(out, "  {}", header_line(&header, offset))?;
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
    let order = stats
        .as_ref()
        .map_or_else(|| "-".into(), |s| s.boundary_order.name());
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
    let schema = reader.schema();
    let filter = filter.map(|text| parse(text, schema)).transpose()?;
    // The rows the filter's statistics, Bloom filters and page index leave to read.
    let mut selected = Projection::all();
    if let Some(f) = &filter {
        let mut groups = Vec::new();
        for g in 0..reader.num_row_groups() {
            if !f.might_match(reader, g)? {
                continue;
            }
            let rows = f.row_selection(reader, g)?;
            if !rows.is_empty() {
                groups.push(g);
                selected = selected.select_rows(g, rows);
            }
        }
        selected = selected.row_groups(groups);
    }
    let shown = columns
        .map(|columns| {
            columns
                .iter()
                .map(|text| resolve(schema, text, "--columns"))
                .collect::<Result<Vec<ColumnPath>, _>>()
        })
        .transpose()?;
    // A filter reading fields that are not shown reads its own rows, in step with the
    // shown ones: the same row groups and selections, so the same rows.
    let hidden_filter = match (&shown, &filter) {
        (Some(shown), Some(f)) => f
            .columns()
            .into_iter()
            .any(|c| !shown.iter().any(|s| c.parts().starts_with(s.parts()))),
        _ => false,
    };
    let mut filter_rows = if hidden_filter {
        let read = filter.iter().flat_map(|f| f.columns().into_iter().cloned());
        Some(reader.rows_with(selected.clone().columns_at(read))?)
    } else {
        None
    };
    let projection = match shown {
        Some(paths) => selected.columns_at(paths),
        None => selected,
    };
    let rows = reader.rows_with(projection)?;
    let mut printer = Printer::new(format);
    let mut count = 0_u64;
    for row in rows {
        if limit.is_some_and(|l| count >= l) {
            break;
        }
        let row = row?;
        let filter_row = filter_rows.as_mut().and_then(Iterator::next).transpose()?;
        let matches = |f: &parquet_file::Predicate| f.matches(filter_row.as_ref().unwrap_or(&row));
        if filter.as_ref().is_some_and(|f| !matches(f)) {
            continue;
        }
        count += 1;
        let fields: Vec<(&str, &Field)> = row.fields().iter().map(|(n, f)| (&**n, f)).collect();
        printer.row(&fields, out)?;
    }
    printer.finish(out)
}

/// Prints rows in one of `cat`'s formats (and `convert`'s text ones).
pub(crate) struct Printer {
    format: Format,
    line: String,
    /// One CSV cell's text, before it is quoted.
    cell: String,
    /// The table's cells, header first: a table is aligned once every row is known.
    table: Vec<Vec<String>>,
    header_done: bool,
}

impl Printer {
    /// A printer of rows in `format`.
    pub(crate) fn new(format: Format) -> Self {
        Self {
            format,
            line: String::new(),
            cell: String::new(),
            table: Vec::new(),
            header_done: false,
        }
    }

    /// Prints a row of `fields` (the header first, for CSV).
    pub(crate) fn row(
        &mut self,
        fields: &[(&str, &Field)],
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        self.line.clear();
        match self.format {
            Format::Jsonl => {
                object(fields.iter().copied(), &mut self.line);
                self.line.push('\n');
                out.write_all(self.line.as_bytes())?;
            }
            Format::Csv => {
                if !self.header_done {
                    for (i, (name, _)) in fields.iter().enumerate() {
                        if i > 0 {
                            self.line.push(',');
                        }
                        csv_escape(name, &mut self.line);
                    }
                    self.line.push('\n');
                    self.header_done = true;
                }
                for (i, (_, f)) in fields.iter().enumerate() {
                    if i > 0 {
                        self.line.push(',');
                    }
                    self.cell.clear();
                    cell(f, &mut self.cell);
                    csv_escape(&self.cell, &mut self.line);
                }
                self.line.push('\n');
                out.write_all(self.line.as_bytes())?;
            }
            Format::Table => {
                if self.table.is_empty() {
                    self.table
                        .push(fields.iter().map(|(n, _)| (*n).to_owned()).collect());
                }
                self.table.push(
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
        Ok(())
    }

    /// Prints what is left to print (a table is printed whole at the end).
    pub(crate) fn finish(self, out: &mut impl Write) -> Result<(), Failure> {
        if self.format == Format::Table {
            print_table(&self.table, out)?;
        }
        Ok(())
    }
}

/// Appends `text` to `out` as a CSV field: quoted, its quotes doubled, when it holds a
/// comma, a quote or a line break.
fn csv_escape(text: &str, out: &mut String) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push('"');
        for (i, part) in text.split('"').enumerate() {
            if i > 0 {
                out.push_str("\"\"");
            }
            out.push_str(part);
        }
        out.push('"');
    } else {
        out.push_str(text);
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
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
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
    let path = resolve(schema, column, "column")?;
    let Some(c) = schema.column_index(&path) else {
        return Err(Failure::Usage(format!("{column:?} is not a leaf column")));
    };
    let descriptor = schema.column(c)?;
    let bad = || Failure::Usage(format!("{value:?} is not a value of column {column}"));
    let literal = match descriptor.physical_type {
        PhysicalType::Boolean => {
            return Err(Failure::Usage(format!(
                "column {column} is BOOLEAN, for which the format defines no Bloom filter"
            )));
        }
        PhysicalType::Int32 | PhysicalType::Int64 => {
            Literal::Int(value.parse().map_err(|_| bad())?)
        }
        PhysicalType::Float | PhysicalType::Double => {
            Literal::Float(value.parse().map_err(|_| bad())?)
        }
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

/// The end of `verify` for a file that disagrees with itself: the disagreements but the
/// first printed to `out`, and the first the failure (saying how many more there are).
pub(crate) fn fail_on(
    disagreements: &[impl std::fmt::Display],
    out: &mut impl Write,
) -> Result<(), Failure> {
    let Some(first) = disagreements.first() else {
        return Ok(());
    };
    for d in disagreements.iter().skip(1) {
        writeln!(out, "disagreement: {d}")?;
    }
    Err(Failure::File(format!(
        "{first}{}",
        match disagreements.len() {
            1 => String::new(),
            n => format!(" (and {} more, listed on standard output)", n - 1),
        }
    )))
}

pub(crate) fn verify(reader: &Reader, out: &mut impl Write) -> Result<(), Failure> {
    if reader.footer_protection() == FooterProtection::SignatureNotVerified {
        return Err(Failure::File(
            "the footer is signed but the signature was not verified: give --footer-key".into(),
        ));
    }
    let verification = reader.verify()?;
    fail_on(&verification.disagreements, out)?;
    writeln!(
        out,
        "ok: {} rows, {} row groups, {} columns, {} data pages; footer {}",
        verification.rows,
        reader.num_row_groups(),
        reader.schema().columns().len(),
        verification.pages,
        protection(reader.footer_protection())
    )?;
    Ok(())
}
