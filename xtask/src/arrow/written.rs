//! The write side of `cargo xtask arrow`: tables written by parquet-arrow's `ArrowWriter`
//! (default options, each batch as the table came in) into
//! `<target>/arrow/written/ours-*.parquet`, read back by pyarrow (`pq.read_table`, by
//! `arrow_tables.py`, one process for all) and compared with the tables written: the
//! same fields (types, nullability, field metadata) and values.
//!
//! Where pyarrow cannot restore a type, it cannot from its own files either: the same
//! process writes each table with pyarrow's own writer and reads that back, and a column
//! may come back otherwise only as it comes back from pyarrow's own file (the same field
//! and values); and then only in the names of list elements and map entries (pyarrow names
//! them "element" and after the map's field, whatever ARROW:schema stores), or as
//! [`pins::WRITTEN`] pins it, with the type pyarrow reads.

use super::compare::{Table, differences, same_values, without_item_names};
use super::pins;
use super::{Format, Job, Outcome, column_of, outcome, pyarrow_tables};
use crate::python::Python;
use crate::rows::{Tally, truncate};
use parquet_arrow::ArrowWriter;
use std::path::{Path, PathBuf};

/// A file we wrote, to be read back.
pub(crate) struct Ours {
    /// Its file name, `ours-<name of the table's file>.parquet`.
    name: String,
    path: PathBuf,
    /// The Arrow IPC file of the table written.
    source: PathBuf,
}

/// The name of the file we write of the table of the file `input` (as the tally names it).
fn ours_name(input: &str) -> String {
    let name = input.strip_prefix("orc/").unwrap_or(input);
    let stem = name
        .strip_suffix(".parquet")
        .or_else(|| name.strip_suffix(".arrow"))
        .unwrap_or(name);
    format!("ours-{stem}.parquet")
}

/// Writes `table` (of the file `input`, as the tally names it, from the Arrow IPC file
/// `source`) into `dir`; the file to read back, unless our writer refuses it (as
/// [`pins::WRITER_REFUSALS`] pins, or a failure).
pub(crate) fn write(
    tally: &mut Tally,
    input: &str,
    table: &Table,
    source: PathBuf,
    dir: &Path,
) -> Option<Ours> {
    let name = ours_name(input);
    let path = dir.join(&name);
    let refusal = pins::writer_refusal(&name);
    match (write_file(&path, table), refusal) {
        (Ok(()), None) => return Some(Ours { name, path, source }),
        (Ok(()), Some(refusal)) => tally.fail(
            &name,
            &format!(
                "our writer writes it, where arrow/pins.rs expects it to refuse it saying {:?}",
                refusal.says
            ),
        ),
        (Err(e), Some(refusal)) if e.contains(refusal.says) => {
            tally.pinned(&format!("PINNED {name}: {}", refusal.why));
            tally.pass(
                &name,
                &format!("our writer refuses it, as pinned: {}", truncate(&e, 160)),
            );
        }
        (Err(e), _) => tally.fail(&name, &format!("our writer: {e}")),
    }
    None
}

fn write_file(path: &Path, table: &Table) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let sink = std::io::BufWriter::new(file);
    let mut writer =
        ArrowWriter::try_new(sink, table.all.schema(), None).map_err(|e| e.to_string())?;
    for batch in &table.batches {
        writer.write(batch).map_err(|e| e.to_string())?;
    }
    writer.close().map_err(|e| e.to_string())?;
    Ok(())
}

/// pyarrow reads back each of `written` (and its own file of each table), its tables
/// into `out`; each compared with the table written. With `all` (every file was
/// written), a pin of [`pins::WRITTEN`] of a file not written fails.
pub(crate) fn read_back(
    python: &Python,
    written: &[Ours],
    out: &Path,
    all: bool,
    tally: &mut Tally,
) -> Result<(), String> {
    for pin in pins::WRITTEN {
        if all && !written.iter().any(|w| w.name == pin.file) {
            tally.fail(pin.file, "pinned in arrow/pins.rs WRITTEN, but not written");
        }
    }
    if written.is_empty() {
        return Ok(());
    }
    let jobs: Vec<Job> = written
        .iter()
        .map(|w| Job {
            file: w.path.clone(),
            format: Format::Parquet,
            own: Some(w.source.clone()),
        })
        .collect();
    pyarrow_tables(python, &jobs, out, None)?;
    for ours in written {
        match check(ours, out) {
            Ok((note, pinned)) => {
                if !pinned.is_empty() {
                    tally.pinned(&format!(
                        "PINNED {}: columns {}, as pyarrow reads its own file of the table",
                        ours.name,
                        pinned.join(", ")
                    ));
                }
                tally.pass(&ours.name, &note);
            }
            Err(problems) => tally.fail(&ours.name, &problems),
        }
    }
    for pin in pins::WRITTEN {
        if written.iter().any(|w| w.name == pin.file) {
            println!(
                "PINNED {} column {}: pyarrow reads {}: {}",
                pin.file, pin.column, pin.pyarrow, pin.why
            );
        }
    }
    Ok(())
}

/// pyarrow's reading of the file we wrote against the table written: a note and the
/// columns that came back as from pyarrow's own file, or the problems.
fn check(ours: &Ours, out: &Path) -> Result<(String, Vec<String>), String> {
    let back = match outcome(out, &ours.path) {
        Outcome::Table(path) => Table::read_ipc(&path)?,
        other => return Err(format!("pyarrow {}", other.describe())),
    };
    let written = Table::read_ipc(&ours.source)?;
    let mut own = None;
    let mut problems = Vec::new();
    let mut pinned = Vec::new();
    for difference in differences(&written.all, &back.all, "pyarrow") {
        let Some(column) = difference.column.as_deref() else {
            problems.push(difference.to_string());
            continue;
        };
        if own.is_none() {
            let path = PathBuf::from(format!("{}.own", ours.name));
            own = Some(match outcome(out, &path) {
                Outcome::Table(path) => Table::read_ipc(&path),
                other => Err(format!(
                    "pyarrow's own file of the table: {}",
                    other.describe()
                )),
            });
        }
        let like_own = match &own {
            Some(Ok(own)) => like_own_file(&back, own, column),
            Some(Err(e)) => Err(e.clone()),
            None => Err("no table of pyarrow's own file".to_owned()),
        };
        let pin = pins::written_pin(&ours.name, column);
        match (like_own, pin) {
            (Ok(read), Some(pin)) if read == pin.pyarrow => pinned.push(column.to_owned()),
            (Ok(read), Some(pin)) => problems.push(format!(
                "column {column:?}: pyarrow reads {read}, where arrow/pins.rs expects {}",
                pin.pyarrow
            )),
            (Ok(_), None) if names_only(&written, &back, column) => {
                pinned.push(column.to_owned());
            }
            (Ok(read), None) => problems.push(format!(
                "{difference}; as from pyarrow's own file ({read}), but arrow/pins.rs does not \
                 pin it"
            )),
            (Err(e), _) => problems.push(format!("{difference}; {e}")),
        }
    }
    for pin in pins::WRITTEN.iter().filter(|p| p.file == ours.name) {
        if !pinned.iter().any(|c| c == pin.column) {
            problems.push(format!(
                "column {:?}: pyarrow reads it back as written, where arrow/pins.rs expects \
                 {}: take the pin off",
                pin.column, pin.pyarrow
            ));
        }
    }
    if problems.is_empty() {
        let note = format!(
            "pyarrow reads back {} rows, {} columns as written{}",
            back.rows(),
            back.all.num_columns(),
            if pinned.is_empty() {
                ""
            } else {
                ", but as pinned"
            }
        );
        Ok((note, pinned))
    } else {
        Err(problems.join("\n      "))
    }
}

/// Whether the column `column` of `a` and `b` differs only in the names of list elements
/// and map entries (at any depth), its values the same.
fn names_only(a: &Table, b: &Table, column: &str) -> bool {
    match (column_of(&a.all, column), column_of(&b.all, column)) {
        (Ok((x, x_values)), Ok((y, y_values))) => {
            x.name() == y.name()
                && x.is_nullable() == y.is_nullable()
                && x.metadata() == y.metadata()
                && without_item_names(x.data_type()) == without_item_names(y.data_type())
                && same_values(&x_values, &y_values)
        }
        _ => false,
    }
}

/// Whether pyarrow reads the column `column` of our file (`back`) exactly as it reads it
/// of its own file of the table (`own`): the field as [`pins::describe`] prints it, or
/// how they differ.
fn like_own_file(back: &Table, own: &Table, column: &str) -> Result<String, String> {
    let (field, values) = column_of(&back.all, column)?;
    let (own_field, own_values) = column_of(&own.all, column)?;
    let read = pins::describe(&field);
    if field != own_field {
        return Err(format!(
            "pyarrow reads {read} of ours, but {} of its own file",
            pins::describe(&own_field)
        ));
    }
    if values.to_data() != own_values.to_data() {
        return Err("pyarrow reads other values of its own file's column".to_owned());
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_files_are_named_after_their_tables() {
        assert_eq!(
            ours_name("alltypes_plain.parquet"),
            "ours-alltypes_plain.parquet"
        );
        assert_eq!(ours_name("orc/decimal.orc"), "ours-decimal.orc.parquet");
        assert_eq!(
            ours_name("pyarrow-flat-empty.orc"),
            "ours-pyarrow-flat-empty.orc.parquet"
        );
        assert_eq!(ours_name("all-types.arrow"), "ours-all-types.parquet");
    }
}
