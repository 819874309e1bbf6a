"""The benchmark against the field: realistic Parquet and ORC files written by pyarrow, DuckDB
and polars, and the times those peers take to read and write them, for a Rust harness to
set parquet-kit's and arrow-rs's times beside.

    field.py generate DIR [--rows N]
    field.py read DIR [--rounds R] [--filter SUBSTR ...]
    field.py write DIR [--rounds R] [--filter SUBSTR ...]
    field.py orc DIR [--rounds R] [--filter SUBSTR ...]

`generate` makes the tables below from fixed seeds (the same rows on every run with the
same N), saves each as the reference DIR/files/<table>.arrow (Arrow IPC file format,
uncompressed), and has the peers write them:

    flat     N rows (default 4,000,000): id, qty, price, discount (nullable float32),
             amount (decimal128(12, 2)), day (date32), ts (timestamp[us, UTC]), flag,
             category (32 distinct words), comment (nearly all distinct, 5% null)
    nested   N/4 rows: id, tags list<string>, scores list<float64>,
             info struct<name: string, labels: list<string>, rank: int32>, with null and
             empty lists, null elements, null structs and null struct fields
    wide50, wide120, wide500   N/10, N/20, N/80 rows of 50, 120 and 500 columns c000..,
             cycling over int64, nullable float64, short string and bool

(each at least 1000 rows), as DIR/files/<table>-<writer>.parquet:

    pyarrow                  pq.write_table with its defaults (snappy)
    pyarrow-zstd             compression="zstd" at its default level
    pyarrow-uncompressed-v2  compression="none", data_page_version="2.0"
    duckdb                   COPY ... TO ... (FORMAT parquet) with DuckDB's defaults
    duckdb-v2                the same with PARQUET_VERSION V2
    polars                   DataFrame.write_parquet with polars' defaults (zstd)

all six for flat, pyarrow, duckdb and polars for the others; and as ORC by pyarrow.orc:
flat-pyarrow.orc (its defaults: uncompressed), flat-pyarrow-zstd.orc and
nested-pyarrow.orc. It prints a line per file: its name, MB, and the seconds the write took
(for polars with pl.from_arrow, for DuckDB with a new connection). A peer that fails to
write a table is named on stderr with its error, and its file is left out; a file whose
footer does not give the table's number of rows is a failure.

`read` first checks, for every DIR/files/*.parquet (those whose name holds one of the
filters, when given) whose table (the name up to its first "-") has a reference, that
pyarrow, polars and DuckDB read exactly the reference's values (see "Comparing" below);
then times whole reads of each file into memory, from its path (so from the page cache
after the warm-up):

    pyarrow-1, pyarrow-all    pq.read_table(path, use_threads=False / True)
    polars-1, polars-all      pl.read_parquet(path), with POLARS_MAX_THREADS=1 / unset;
                              polars sizes its thread pool when it is imported, so each
                              runs in a child process of its own (this script's hidden
                              `_polars` command) that reads the paths it is sent
    duckdb-1, duckdb-all      SELECT * FROM read_parquet(path) fetched as an Arrow table
                              (the conversion is what a user waits for too), on a
                              connection with SET threads=1 / DuckDB's default threads

one warm-up read each, then R rounds (default 5) in which the readers take turns in an
order rotated by one each round. It writes DIR/peer-reads.csv
(file,reader,median_ms,rounds) and prints the medians.

`write` times each peer writing each reference table (the tables whose name holds one of
the filters) to a Parquet file in a temporary directory under DIR, with snappy and with
zstd at level 1, each peer with its own row group size: pyarrow (pq.write_table), polars
(write_parquet from a DataFrame made before the clock starts), duckdb-1 and duckdb-all
(COPY from the Arrow table registered on a connection with 1 / the default threads). A
warm-up, then R rounds rotated as above; each file's footer must give the table's rows and
the codec for every column chunk, and the file is deleted once its size is taken. It
writes DIR/peer-writes.csv (table,codec,writer,median_ms,bytes: the size of the last
round's file).

`orc` checks that pyarrow.orc reads each DIR/files/*.orc as its reference, and that pyorc
reads as many rows with the same first column (`id`); then times, as above,
pyarrow.orc.read_table (single-threaded) and pyorc's two ways of reading every row:
pyorc-iter iterates a pyorc.Reader, pyorc-read takes them all from one Reader.read(). Both
are pyorc with its defaults (rows as tuples of Python values: datetime, Decimal, date...,
1024 rows converted at a time) and take about the same time: pyorc has no faster way to
all the rows, its cost is the Python objects (larger batches measured no faster). It
writes DIR/peer-orc.csv (file,reader,median_ms,rounds).

Comparing. Peers give equivalent types of their own for the reference's: polars large
strings and large lists (and so does pyarrow reading polars' files, by the Arrow schema
polars stores in them), DuckDB the time zone "Etc/UTC", pyarrow.orc nanoseconds (lists
whose item is named "element" or "l" need nothing: Arrow's type equality ignores the
name). Each column a peer read is cast to the reference's type when its type is one of the
equivalent ones that `equivalent` allows (any other type fails the check), then the whole
table must equal the reference; the first differing row of each differing column is
named. The casts are safe: they fail rather than lose a digit. ORC: pyarrow.orc writes a
timestamp with a time zone as ORC's TIMESTAMP_INSTANT ("timestamp with local time zone",
instants in UTC) and reads it back as timestamp[ns, tz=UTC], so the values are compared as
UTC instants at the reference's microseconds. The casts each reader needed are printed to
stderr.

Every failure (a peer's error, a value that differs) ends the run with a message on stderr
and a non-zero exit.
"""

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.orc as orc
import pyarrow.parquet as pq
import pyorc

SEED = 20_250_101
DEFAULT_ROWS = 4_000_000
MIN_ROWS = 1000
DEFAULT_ROUNDS = 5


class Failure(Exception):
    """A failure to report on stderr before exiting with a non-zero status."""


# ---------------------------------------------------------------------------------------
# Tables

# Made-up words of consonant-vowel syllables: "bado", "kimelu", ...
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]

# The tables, each with N divided by this many rows.
TABLE_DIVISORS = {"flat": 1, "nested": 4, "wide50": 10, "wide120": 20, "wide500": 80}
WIDE_COLUMNS = {"wide50": 50, "wide120": 120, "wide500": 500}

DAY_2000 = 10_957  # 2000-01-01, in days since 1970-01-01
DAY_2030_END = 22_279  # 2030-12-31
US_2005 = 1_104_537_600 * 10**6  # 2005-01-01T00:00:00Z, in microseconds
US_20_YEARS = (20 * 365 + 5) * 86_400 * 10**6


def rng(table):
    """The random generator of a table: the same values on every run."""
    return np.random.default_rng([SEED, list(TABLE_DIVISORS).index(table) + 1])


def words(count, min_syllables, max_syllables, salt):
    """`count` distinct made-up words of min..max syllables, the same on every run."""
    generator = np.random.default_rng([SEED, 100 + salt])
    out = []
    seen = set()
    while len(out) < count:
        n = generator.integers(min_syllables, max_syllables + 1)
        word = "".join(SYLLABLES[i] for i in generator.integers(0, len(SYLLABLES), n))
        if word not in seen:
            seen.add(word)
            out.append(word)
    return pa.array(out, pa.string())


CATEGORIES = words(32, 2, 3, salt=1)
VOCABULARY = words(1000, 2, 4, salt=2)
SHORT_WORDS = words(100, 1, 2, salt=3)


def mask(generator, n, share):
    """A numpy boolean mask, True for about `share` of n rows."""
    return generator.random(n) < share


def picks(generator, vocabulary, n, nulls=None):
    """n words drawn from a vocabulary (a string array), null where `nulls` is True."""
    indices = pa.array(generator.integers(0, len(vocabulary), n), mask=nulls)
    return vocabulary.take(indices)


def decimals(unscaled, precision, scale):
    """A decimal128 array of int64 unscaled values (pyarrow casts no int64 to a decimal of
    fewer than 19 + scale digits): its 16-byte little-endian two's complement values are
    the int64 values, sign-extended."""
    halves = np.empty((len(unscaled), 2), dtype="<i8")
    halves[:, 0] = unscaled
    halves[:, 1] = np.where(unscaled < 0, -1, 0)
    kind = pa.decimal128(precision, scale)
    return pa.Array.from_buffers(kind, len(unscaled), [None, pa.py_buffer(halves)])


def lists(generator, n, values, max_length, null_share, empty_share, nulls=None):
    """n lists: about null_share null and empty_share empty, the others of 1..max_length
    elements made by `values(count)`; also null where `nulls` is True."""
    draw = generator.random(n)
    null = draw < null_share
    if nulls is not None:
        null |= nulls
    lengths = generator.integers(1, max_length + 1, n)
    lengths[(draw < null_share + empty_share) | null] = 0
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.ListArray.from_arrays(
        pa.array(offsets), values(int(offsets[-1])), mask=pa.array(null)
    )


def flat_table(n):
    """The flat table: a fact table of sales, one column per common type."""
    g = rng("flat")
    discount = g.integers(0, 31, n).astype(np.float32) / np.float32(100)
    # Comments of 2 or 3 words and a number, 14 to 34 characters: nearly all distinct.
    third = picks(g, VOCABULARY, n, nulls=mask(g, n, 0.5))
    number = pa.array(g.integers(1000, 10_000_000, n)).cast(pa.string())
    comment = pc.binary_join_element_wise(
        picks(g, VOCABULARY, n),
        picks(g, VOCABULARY, n),
        third,
        number,
        " ",
        null_handling="skip",
    )
    comment = pc.if_else(pa.array(mask(g, n, 0.05)), pa.scalar(None, pa.string()), comment)
    columns = {
        "id": pa.array(np.arange(n, dtype=np.int64)),
        "qty": pa.array(g.integers(0, 1001, n).astype(np.int32)),
        "price": pa.array(np.round(g.uniform(0.5, 2000.0, n), 2)),
        "discount": pa.array(discount, mask=mask(g, n, 0.1)),
        "amount": decimals(g.integers(-10_000_000, 90_000_000, n), 12, 2),
        "day": pa.array(g.integers(DAY_2000, DAY_2030_END + 1, n).astype(np.int32)).cast(
            pa.date32()
        ),
        "ts": pa.array(US_2005 + g.integers(0, US_20_YEARS, n)).cast(pa.timestamp("us", tz="UTC")),
        "flag": pa.array(g.random(n) < 0.5),
        "category": picks(g, CATEGORIES, n),
        "comment": comment,
    }
    return pa.table(columns)


def nested_table(n):
    """The nested table: lists of strings and of floats, and a struct holding a list."""
    g = rng("nested")
    tags = lists(
        g,
        n,
        lambda count: picks(g, VOCABULARY, count, nulls=mask(g, count, 0.05)),
        max_length=5,
        null_share=0.1,
        empty_share=0.1,
    )
    scores = lists(
        g,
        n,
        lambda count: pa.array(np.round(g.normal(50.0, 20.0, count), 3)),
        max_length=8,
        null_share=0.05,
        empty_share=0.1,
    )
    # Under a null struct every field is null too, as a Parquet reader gives it back.
    struct_null = mask(g, n, 0.05)
    name = picks(g, VOCABULARY, n, nulls=struct_null | mask(g, n, 0.05))
    labels = lists(
        g,
        n,
        lambda count: picks(g, SHORT_WORDS, count),
        max_length=3,
        null_share=0.05,
        empty_share=0.15,
        nulls=struct_null,
    )
    rank = pa.array(g.integers(1, 10_000, n).astype(np.int32), mask=struct_null | mask(g, n, 0.05))
    info = pa.StructArray.from_arrays(
        [name, labels, rank], names=["name", "labels", "rank"], mask=pa.array(struct_null)
    )
    return pa.table(
        {"id": pa.array(np.arange(n, dtype=np.int64)), "tags": tags, "scores": scores, "info": info}
    )


def wide_table(name, n):
    """A wide table of `WIDE_COLUMNS[name]` columns c000.., cycling over int64, nullable
    float64, a short string of 100 words and bool."""
    g = rng(name)
    columns = {}
    for i in range(WIDE_COLUMNS[name]):
        kind = i % 4
        if kind == 0:
            column = pa.array(g.integers(-1_000_000_000, 1_000_000_000, n))
        elif kind == 1:
            column = pa.array(np.round(g.normal(0.0, 1000.0, n), 4), mask=mask(g, n, 0.1))
        elif kind == 2:
            column = picks(g, SHORT_WORDS, n)
        else:
            column = pa.array(g.random(n) < 0.5)
        columns[f"c{i:03d}"] = column
    return pa.table(columns)


def table_rows(table, rows):
    """A table's number of rows when the flat one has `rows`."""
    return max(MIN_ROWS, rows // TABLE_DIVISORS[table])


def make_table(table, rows):
    """A table by its name, the flat one of `rows` rows."""
    n = table_rows(table, rows)
    if table == "flat":
        return flat_table(n)
    if table == "nested":
        return nested_table(n)
    return wide_table(table, n)


# ---------------------------------------------------------------------------------------
# generate


def sql_string(text):
    """A SQL string literal."""
    return "'" + str(text).replace("'", "''") + "'"


def duckdb_copy(con, path, options):
    """DuckDB writes the registered table `t` to a Parquet file."""
    con.execute(f"COPY (SELECT * FROM t) TO {sql_string(path)} (FORMAT parquet{options})")


def duckdb_writer(options):
    """A writer by DuckDB, with more COPY options (", NAME VALUE" each)."""

    def write(table, path):
        con = duckdb.connect()
        con.register("t", table)
        duckdb_copy(con, path, options)
        con.close()

    return write


PARQUET_WRITERS = {
    "pyarrow": lambda table, path: pq.write_table(table, path),
    "pyarrow-zstd": lambda table, path: pq.write_table(table, path, compression="zstd"),
    "pyarrow-uncompressed-v2": lambda table, path: pq.write_table(
        table, path, compression="none", data_page_version="2.0"
    ),
    "duckdb": duckdb_writer(""),
    "duckdb-v2": duckdb_writer(", PARQUET_VERSION V2"),
    "polars": lambda table, path: pl.from_arrow(table).write_parquet(path),
}
FLAT_WRITERS = list(PARQUET_WRITERS)
OTHER_WRITERS = ["pyarrow", "duckdb", "polars"]

ORC_WRITERS = {
    ("flat", "pyarrow"): lambda table, path: orc.write_table(table, path),
    ("flat", "pyarrow-zstd"): lambda table, path: orc.write_table(table, path, compression="zstd"),
    ("nested", "pyarrow"): lambda table, path: orc.write_table(table, path),
}


def error_text(error):
    """An error's type and first line."""
    lines = str(error).strip().splitlines() or [""]
    return f"{type(error).__name__}: {lines[0]}"


def write_timed(write, table, path):
    """Runs a writer; returns its seconds, or None (and says why on stderr) when it fails."""
    start = time.perf_counter()
    try:
        write(table, path)
    except Exception as error:  # noqa: BLE001 - pyarrow, DuckDB and polars raise their own
        failed = error
    except BaseException as error:  # a Rust panic (pyo3's PanicException)
        if type(error).__name__ != "PanicException":
            raise
        failed = error
    else:
        return time.perf_counter() - start
    print(f"field.py: {path.name} left out: {error_text(failed)}", file=sys.stderr)
    if path.exists():
        path.unlink()
    return None


def rows_in(path):
    """The number of rows a Parquet or ORC file's footer gives."""
    if path.suffix == ".orc":
        return orc.ORCFile(str(path)).nrows
    return pq.ParquetFile(path).metadata.num_rows


def write_file(write, table, path):
    """Has a peer write a file (see write_timed), checks its number of rows and prints its
    line."""
    seconds = write_timed(write, table, path)
    if seconds is None:
        return
    if rows_in(path) != table.num_rows:
        raise Failure(f"{path.name} has {rows_in(path)} rows, not {table.num_rows}")
    report_file(path, seconds)


def report_file(path, seconds):
    print(f"{path.name:<40} {path.stat().st_size / 1e6:10.1f} MB {seconds:8.2f} s", flush=True)


def write_reference(table, path):
    start = time.perf_counter()
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    report_file(path, time.perf_counter() - start)


def generate(directory, rows):
    files = directory / "files"
    files.mkdir(parents=True, exist_ok=True)
    for name in TABLE_DIVISORS:
        table = make_table(name, rows)
        write_reference(table, files / f"{name}.arrow")
        for writer in FLAT_WRITERS if name == "flat" else OTHER_WRITERS:
            write_file(PARQUET_WRITERS[writer], table, files / f"{name}-{writer}.parquet")
        for (orc_table, writer), write in ORC_WRITERS.items():
            if orc_table == name:
                write_file(write, table, files / f"{name}-{writer}.orc")


# ---------------------------------------------------------------------------------------
# Comparing


def is_string(kind):
    return (
        pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind)
    )


def is_list(kind):
    return (
        pa.types.is_list(kind)
        or pa.types.is_large_list(kind)
        or pa.types.is_list_view(kind)
        or pa.types.is_large_list_view(kind)
    )


def equivalent(got, want):
    """Whether a peer's type `got` stands for the reference's type `want`, so that a safe
    cast gives the same values: strings of any offsets or views; dictionaries of them;
    lists of any offsets or views and any item name, of equivalent items; structs with the
    same field names of equivalent types; integers of any width or sign (the cast fails on
    a value out of range); decimals of any precision but the same scale; timestamps of any
    unit (the cast fails on a lost digit) with some time zone where the reference has one
    (an Arrow timestamp with a time zone holds UTC instants, whatever the zone), none where
    it has none."""
    if got == want:
        return True
    if pa.types.is_dictionary(got):
        return equivalent(got.value_type, want)
    if is_string(want):
        return is_string(got)
    if is_list(want):
        return is_list(got) and equivalent(got.value_type, want.value_type)
    if pa.types.is_struct(want):
        return (
            pa.types.is_struct(got)
            and [f.name for f in got] == [f.name for f in want]
            and all(equivalent(g.type, w.type) for g, w in zip(got, want, strict=True))
        )
    if pa.types.is_integer(want):
        return pa.types.is_integer(got)
    if pa.types.is_decimal(want):
        return pa.types.is_decimal(got) and got.scale == want.scale
    if pa.types.is_timestamp(want):
        return pa.types.is_timestamp(got) and (got.tz is None) == (want.tz is None)
    return False


def first_difference(got, want):
    """The first row at which two chunked arrays of the same length and type differ."""
    got = got.combine_chunks()
    want = want.combine_chunks()
    step = 65_536
    for start in range(0, len(want), step):
        if not got.slice(start, step).equals(want.slice(start, step)):
            for row in range(start, min(start + step, len(want))):
                if not got.slice(row, 1).equals(want.slice(row, 1)):
                    return row
    return None


def normalized(table, reference, what, casts):
    """The table a peer read with its columns cast to the reference's types (see
    `equivalent`), adding the names of the columns cast to `casts[(from, to)]`; a Failure
    when the names, the number of rows or a type do not fit."""
    if table.column_names != reference.column_names:
        raise Failure(
            f"{what}: columns {table.column_names}, the reference has {reference.column_names}"
        )
    if table.num_rows != reference.num_rows:
        raise Failure(f"{what}: {table.num_rows} rows, the reference has {reference.num_rows}")
    columns = []
    for column, field in zip(table.columns, reference.schema, strict=True):
        got = column.type
        if got != field.type:
            if not equivalent(got, field.type):
                raise Failure(
                    f"{what}: column {field.name} is {column.type}, the reference's {field.type}"
                )
            try:
                column = column.cast(field.type)
            except pa.ArrowException as error:
                raise Failure(
                    f"{what}: column {field.name} of {column.type} does not cast to "
                    f"{field.type}: {error_text(error)}"
                ) from error
            casts.setdefault((str(got), str(field.type)), []).append(field.name)
        columns.append(column)
    return pa.Table.from_arrays(columns, schema=reference.schema).combine_chunks()


def check(table, reference, what, casts):
    """Fails unless the table a peer read holds the reference's values (see `normalized`)."""
    table = normalized(table, reference, what, casts)
    if table.equals(reference):
        return
    differences = []
    for name in reference.column_names:
        got, want = table.column(name), reference.column(name)
        if not got.equals(want):
            row = first_difference(got, want)
            if row is None:
                differences.append(f"column {name} differs, though no row does (metadata?)")
            else:
                differences.append(
                    f"column {name} differs first at row {row}: "
                    f"{got[row].as_py()!r}, the reference's {want[row].as_py()!r}"
                )
    if not differences:
        differences.append("the tables differ, though no column does (metadata?)")
    raise Failure(f"{what}: " + "; ".join(differences))


def load_reference(files, table):
    """The reference table `files/<table>.arrow`, in one chunk."""
    with pa.memory_map(str(files / f"{table}.arrow")) as source:
        return pa.ipc.open_file(source).read_all().combine_chunks()


def table_of(path):
    """The table a file holds: its name up to the first "-"."""
    return path.name.split(".")[0].split("-")[0]


def matching_files(files, pattern, filters):
    """The files of `files` matching the glob pattern whose name holds one of the filters
    (any name without filters) and whose table has a reference; the others are named on
    stderr."""
    out = []
    for path in sorted(files.glob(pattern)):
        if filters and not any(f in path.name for f in filters):
            continue
        if not (files / f"{table_of(path)}.arrow").exists():
            print(f"field.py: {path.name} skipped: no {table_of(path)}.arrow", file=sys.stderr)
            continue
        out.append(path)
    if not out:
        raise Failure(f"no {pattern} files in {files} match {filters or 'anything'}")
    return out


def report_casts(casts):
    """Prints to stderr the casts each reader needed, with the columns cast (the first few
    names of each type's)."""
    for reader, made in casts.items():
        for (got, want), columns in sorted(made.items()):
            names = sorted(set(columns))
            shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            print(f"field.py: {reader} cast {got} -> {want} ({shown})", file=sys.stderr)


# ---------------------------------------------------------------------------------------
# Timing


def median_ms(seconds):
    return statistics.median(seconds) * 1e3


def rotated(items, round_index):
    """The items in the order of a round: rotated left by the round's index."""
    shift = round_index % len(items)
    return items[shift:] + items[:shift]


def rounds_of(readers, rounds):
    """Calls each of `readers` (name -> function returning seconds) once to warm up, then
    `rounds` times in rotated orders; returns name -> list of seconds."""
    for read in readers.values():
        read()
    times = {name: [] for name in readers}
    names = list(readers)
    for r in range(rounds):
        for name in rotated(names, r):
            times[name].append(readers[name]())
    return times


def clocked(function):
    """The seconds a call of `function()` takes, wall-clock; its result is dropped after the
    clock stops."""
    start = time.perf_counter()
    result = function()
    elapsed = time.perf_counter() - start
    del result
    return elapsed


def write_csv(path, header, rows):
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        out.writerows(rows)


def print_table(header, rows):
    """Prints rows of cells in aligned columns, the first to the left."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [str(row[0]).ljust(widths[0])]
        cells += [str(cell).rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        print("  ".join(cells))


def print_medians(rows, readers, rounds):
    """Prints the CSV rows file,reader,median_ms,rounds as a table of a row per file."""
    by_file = {}
    for name, reader, ms, _ in rows:
        by_file.setdefault(name, {})[reader] = f"{float(ms):.1f}"
    print(f"median ms of {rounds} rounds")
    print_table(
        ["file", *readers],
        [[name, *(cells[r] for r in readers)] for name, cells in by_file.items()],
    )


# ---------------------------------------------------------------------------------------
# read


READERS = ["pyarrow-1", "pyarrow-all", "polars-1", "polars-all", "duckdb-1", "duckdb-all"]


def duckdb_connection(threads):
    """An in-memory DuckDB connection with `threads` threads, or its default when None."""
    con = duckdb.connect()
    if threads is not None:
        con.execute(f"SET threads = {threads}")
    return con


def duckdb_read(con, path):
    """A Parquet file as DuckDB reads it, as an Arrow table."""
    return con.sql("SELECT * FROM read_parquet(?)", params=[str(path)]).to_arrow_table()


class PolarsChild:
    """A child process running this script's `_polars` command, polars' thread pool sized
    by POLARS_MAX_THREADS (unset when `threads` is None): it reads each path it is sent with
    pl.read_parquet and answers the seconds taken."""

    def __init__(self, threads):
        env = dict(os.environ)
        env.pop("POLARS_MAX_THREADS", None)
        if threads is not None:
            env["POLARS_MAX_THREADS"] = str(threads)
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "_polars"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.threads = self.answer("starting")["threads"]
        if threads is not None and self.threads != threads:
            raise Failure(f"polars runs {self.threads} threads, not POLARS_MAX_THREADS={threads}")

    def answer(self, what):
        line = self.process.stdout.readline()
        if not line:
            raise Failure(f"the polars child process ended while {what}")
        answer = json.loads(line)
        if "error" in answer:
            raise Failure(f"polars, {what}: {answer['error']}")
        return answer

    def read(self, path):
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        return self.answer(f"reading {path}")["seconds"]

    def close(self):
        """Ends the child (it exits at the end of its input); its exit status."""
        self.process.stdin.close()
        return self.process.wait()


def polars_seconds(path):
    """The seconds pl.read_parquet takes to read a file."""
    return clocked(lambda: pl.read_parquet(path))


def polars_child():
    """The `_polars` command: first {"threads": N}, then for each path read on stdin
    {"seconds": S} (or {"error": TEXT}), one JSON object a line."""
    print(json.dumps({"threads": pl.thread_pool_size()}), flush=True)
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        try:
            answer = {"seconds": polars_seconds(line.rstrip("\n"))}
        except Exception as error:  # noqa: BLE001 - reported to the parent
            answer = {"error": error_text(error)}
        print(json.dumps(answer), flush=True)


def check_parquet(paths, files):
    """Fails unless pyarrow, polars and DuckDB read every file as its reference."""
    con = duckdb.connect()
    readers = {
        "pyarrow": pq.read_table,
        "polars": lambda path: pl.read_parquet(path).to_arrow(),
        "duckdb": lambda path: duckdb_read(con, path),
    }
    casts = {name: {} for name in readers}
    references = {}
    for path in paths:
        table = table_of(path)
        if table not in references:
            references.clear()  # one in memory at a time: the sorted paths come table by table
            references[table] = load_reference(files, table)
        for name, read in readers.items():
            try:
                got = read(path)
            except Exception as error:  # noqa: BLE001 - each peer raises its own
                raise Failure(f"{path.name} read by {name}: {error_text(error)}") from error
            check(got, references[table], f"{path.name} read by {name}", casts[name])
        print(f"checked {path.name}", file=sys.stderr, flush=True)
    report_casts(casts)


def read(directory, rounds, filters):
    files = directory / "files"
    paths = matching_files(files, "*.parquet", filters)
    check_parquet(paths, files)

    single, default = duckdb_connection(1), duckdb_connection(None)
    children = polars_single, polars_all = PolarsChild(1), PolarsChild(None)
    try:
        rows = timed_reads(paths, rounds, single, default, polars_single, polars_all)
    finally:
        statuses = [child.close() for child in children]
    if any(statuses):
        raise Failure(f"the polars child processes exited with {statuses}")

    write_csv(directory / "peer-reads.csv", ["file", "reader", "median_ms", "rounds"], rows)
    print_medians(rows, READERS, rounds)


def parquet_readers(path, single, default, polars_single, polars_all):
    """Reader name -> a function reading the file whole and returning its seconds."""
    return {
        "pyarrow-1": lambda: clocked(lambda: pq.read_table(path, use_threads=False)),
        "pyarrow-all": lambda: clocked(lambda: pq.read_table(path, use_threads=True)),
        "polars-1": lambda: polars_single.read(path),
        "polars-all": lambda: polars_all.read(path),
        "duckdb-1": lambda: clocked(lambda: duckdb_read(single, path)),
        "duckdb-all": lambda: clocked(lambda: duckdb_read(default, path)),
    }


def timed_reads(paths, rounds, single, default, polars_single, polars_all):
    """The CSV rows of the times of every reader of every file."""
    duckdb_threads = default.sql("SELECT current_setting('threads')").fetchall()[0][0]
    print(
        f"threads: pyarrow-all {pa.cpu_count()}, polars-all {polars_all.threads}, "
        f"duckdb-all {duckdb_threads}",
        file=sys.stderr,
    )
    rows = []
    for path in paths:
        times = rounds_of(parquet_readers(path, single, default, polars_single, polars_all), rounds)
        for reader in READERS:
            rows.append([path.name, reader, f"{median_ms(times[reader]):.3f}", rounds])
        print(f"timed {path.name}", file=sys.stderr, flush=True)
    return rows


# ---------------------------------------------------------------------------------------
# write


CODECS = ["snappy", "zstd"]
WRITE_PEERS = ["pyarrow", "polars", "duckdb-1", "duckdb-all"]


def timed_writers(reference, frame, connections, codec, path):
    """Writer name -> a function writing the table to `path` with the codec and returning
    its seconds (zstd at level 1)."""
    zstd = codec == "zstd"
    level = {"compression_level": 1} if zstd else {}
    options = f", COMPRESSION {codec}" + (", COMPRESSION_LEVEL 1" if zstd else "")
    return {
        "pyarrow": lambda: clocked(
            lambda: pq.write_table(reference, path, compression=codec, **level)
        ),
        "polars": lambda: clocked(lambda: frame.write_parquet(path, compression=codec, **level)),
        "duckdb-1": lambda: clocked(lambda: duckdb_copy(connections["duckdb-1"], path, options)),
        "duckdb-all": lambda: clocked(
            lambda: duckdb_copy(connections["duckdb-all"], path, options)
        ),
    }


def write(directory, rounds, filters):
    files = directory / "files"
    tables = [
        name
        for name in TABLE_DIVISORS
        if (files / f"{name}.arrow").exists() and (not filters or any(f in name for f in filters))
    ]
    if not tables:
        raise Failure(f"no reference tables in {files} match {filters or 'anything'}")
    scratch = Path(tempfile.mkdtemp(prefix="peer-writes-", dir=directory))
    rows = []
    try:
        for table in tables:
            reference = load_reference(files, table)
            frame = pl.from_arrow(reference)
            connections = {"duckdb-1": duckdb_connection(1), "duckdb-all": duckdb_connection(None)}
            for con in connections.values():
                con.register("t", reference)
            for codec in CODECS:
                rows += timed_writes(table, codec, reference, frame, connections, scratch, rounds)
                print(f"timed {table} {codec}", file=sys.stderr, flush=True)
            for con in connections.values():
                con.close()
    finally:
        shutil.rmtree(scratch)

    write_csv(
        directory / "peer-writes.csv", ["table", "codec", "writer", "median_ms", "bytes"], rows
    )
    print(f"median ms of {rounds} rounds (MB written)")
    header = ["table", *(f"{w} {c}" for c in CODECS for w in WRITE_PEERS)]
    cells = {(t, c, w): f"{float(ms):.1f} ({size / 1e6:.1f})" for t, c, w, ms, size in rows}
    print_table(
        header,
        [[t, *(cells[(t, c, w)] for c in CODECS for w in WRITE_PEERS)] for t in tables],
    )


def check_written(path, rows, codec, what):
    """Fails unless the footer of a file written has `rows` rows and every column chunk
    compressed by `codec`."""
    metadata = pq.ParquetFile(path).metadata
    if metadata.num_rows != rows:
        raise Failure(f"{what}: {metadata.num_rows} rows written of {rows}")
    codecs = {
        metadata.row_group(g).column(c).compression
        for g in range(metadata.num_row_groups)
        for c in range(metadata.num_columns)
    }
    if codecs != {codec.upper()}:
        raise Failure(f"{what}: column chunks compressed by {sorted(codecs)}, not {codec}")


def timed_writes(table, codec, reference, frame, connections, scratch, rounds):
    """The CSV rows of each peer writing one table with one codec."""
    path = scratch / f"{table}.parquet"
    sizes = {}
    writers = {}
    for name, write_once in timed_writers(reference, frame, connections, codec, path).items():

        def measured(write_once=write_once, name=name):
            seconds = write_once()
            check_written(path, reference.num_rows, codec, f"{table} written by {name}")
            sizes[name] = path.stat().st_size
            path.unlink()
            return seconds

        writers[name] = measured
    times = rounds_of(writers, rounds)
    return [
        [table, codec, name, f"{median_ms(times[name]):.3f}", sizes[name]] for name in WRITE_PEERS
    ]


# ---------------------------------------------------------------------------------------
# orc


ORC_READERS = ["pyarrow.orc", "pyorc-iter", "pyorc-read"]


def pyorc_iter(path):
    """Every row as pyorc gives it iterating a Reader: a tuple of Python values."""
    with open(path, "rb") as f:
        return list(pyorc.Reader(f))


def pyorc_read(path):
    """Every row by one Reader.read() call (a list of the same tuples)."""
    with open(path, "rb") as f:
        return pyorc.Reader(f).read()


def orc_readers(path):
    """Reader name -> a function reading the file whole and returning its seconds."""
    return {
        # Single-threaded: the ORC adapter reads the stripes one after another on the
        # calling thread (measured: its CPU time is its wall-clock time).
        "pyarrow.orc": lambda: clocked(lambda: orc.read_table(str(path))),
        "pyorc-iter": lambda: clocked(lambda: pyorc_iter(path)),
        "pyorc-read": lambda: clocked(lambda: pyorc_read(path)),
    }


def check_orc(path, reference, casts):
    """Fails unless pyarrow.orc reads the file as its reference, and pyorc reads as many
    rows with the reference's first column."""
    try:
        table = orc.read_table(str(path))
    except Exception as error:  # noqa: BLE001 - pyarrow raises its own
        raise Failure(f"{path.name} read by pyarrow.orc: {error_text(error)}") from error
    check(table, reference, f"{path.name} read by pyarrow.orc", casts)
    try:
        rows = pyorc_read(path)
    except Exception as error:  # noqa: BLE001 - pyorc raises its own
        raise Failure(f"{path.name} read by pyorc: {error_text(error)}") from error
    first = reference.column(0).to_pylist()
    if [row[0] for row in rows] != first:
        raise Failure(
            f"{path.name} read by pyorc: {len(rows)} rows whose {reference.column_names[0]} "
            f"differs from the reference's {len(first)}"
        )


def orc_files(directory, rounds, filters):
    files = directory / "files"
    paths = matching_files(files, "*.orc", filters)
    casts = {}
    rows = []
    for path in paths:
        reference = load_reference(files, table_of(path))
        check_orc(path, reference, casts)
        del reference
        times = rounds_of(orc_readers(path), rounds)
        for reader in ORC_READERS:
            rows.append([path.name, reader, f"{median_ms(times[reader]):.3f}", rounds])
        print(f"timed {path.name}", file=sys.stderr, flush=True)
    report_casts({"pyarrow.orc": casts})
    write_csv(directory / "peer-orc.csv", ["file", "reader", "median_ms", "rounds"], rows)
    print_medians(rows, ORC_READERS, rounds)


# ---------------------------------------------------------------------------------------
# main


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def row_count(text):
    value = int(text)
    if value < MIN_ROWS:
        raise argparse.ArgumentTypeError(f"{text} is fewer than {MIN_ROWS} rows")
    return value


def arguments(args):
    parser = argparse.ArgumentParser(
        prog="field.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("generate", help="make the tables and the peers' files")
    command.add_argument("dir", type=Path)
    command.add_argument("--rows", type=row_count, default=DEFAULT_ROWS)
    for name, text in (
        ("read", "check and time the peers' Parquet reads"),
        ("write", "time the peers' Parquet writes"),
        ("orc", "check and time the ORC reads"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("dir", type=Path)
        command.add_argument("--rounds", type=positive, default=DEFAULT_ROUNDS)
        command.add_argument("--filter", nargs="+", default=[], metavar="SUBSTR")
    return parser.parse_args(args)


def main(args):
    if args[:1] == ["_polars"]:
        return polars_child()
    options = arguments(args)
    try:
        if options.command == "generate":
            generate(options.dir, options.rows)
        elif options.command == "read":
            read(options.dir, options.rounds, options.filter)
        elif options.command == "write":
            write(options.dir, options.rounds, options.filter)
        else:
            orc_files(options.dir, options.rounds, options.filter)
    except Failure as failure:
        print(f"field.py: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
