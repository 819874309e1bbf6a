"""The reference rows of a Parquet file: pyarrow reads it, this maps the values by the rows
contract of DESIGN.md ("The rows contract", what `pqkit cat --format jsonl` prints).

    rows.py [--duckdb] FILE        the rows of FILE as JSONL on stdout; exit 1 and one line
                                   on stderr when the reader cannot read it
    rows.py [--duckdb] --out DIR FILE...
                                   for each FILE, DIR/<name>.jsonl, or DIR/<name>.error
                                   holding what the reader said, or DIR/<name>.fault with
                                   the traceback of a fault of this script (one process
                                   for many files)
    rows.py --encrypted-testing    the 50 rows of parquet-testing's *.parquet.encrypted
                                   files, by the formula of ../shared/corpus/README.md

The reader is pyarrow, or with --duckdb DuckDB's read_parquet, for the files that pyarrow
refuses (the xtask lists each one with the reason): DuckDB reads the values and hands them
over as Arrow arrays, which are mapped as pyarrow's are, by the Parquet schema (that pyarrow
reads from the footer). DuckDB reads INT96 only to microseconds, and some types coarser than
the file stores them (DECIMAL wider than 38 digits as DOUBLE): those are faults of this
script, never a reference.

How a value is printed depends on the Parquet schema (physical type, logical or converted
type), never on the Arrow type pyarrow chose: pyarrow may restore the Arrow type stored in
ARROW:schema (timestamp[s] for a TIMESTAMP(MILLIS) column, date64, duration, large_string,
dictionary) or coerce INT96. Temporal values are formatted from their integer count in the
Parquet unit, so dates outside Python's datetime range (negative years too) come out right.
INT96 is the instant Spark reads (see int96_spark).
"""

import json
import os
import sys
import traceback

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from contract import (
    UNITS_PER_SECOND,
    Object,
    Refused,
    base64_text,
    date_text,
    decimal_text,
    dumps,
    error_text,
    float_json,
    rescale,
    string_text,
    time_text,
    timestamp_text,
    uuid_text,
)

PARQUET_UNITS = {"milliseconds": "ms", "microseconds": "us", "nanoseconds": "ns"}
JULIAN_DAY_OF_EPOCH = 2440588  # the Julian day of 1970-01-01
NANOS_PER_DAY = 86400 * 10**9


# ---------------------------------------------------------------------------------------
# Leaf columns: what the Parquet schema says a value is


class Leaf:
    """One leaf column of the Parquet schema and how its values are printed."""

    def __init__(self, column):
        self.path = column.path
        physical = column.physical_type
        logical = json.loads(column.logical_type.to_json())
        kind = logical.get("Type", "None")
        converted = column.converted_type
        self.unit = None
        self.utc = False
        self.scale = column.scale
        # Arrays of this leaf from a second read with INT96 in seconds (see int96_counts),
        # and, when an INT96 reads as the epoch, DuckDB's (see int96_counts).
        self.seconds = None
        self.duckdb = None
        # DuckDB, not pyarrow, read the values (see read_rows).
        self.by_duckdb = False
        # INT96 values known to lie within 64-bit nanoseconds, in whole microseconds (the
        # files of peers.py): taken as any reader gives them, without int96_counts.
        self.plain_int96 = False
        if kind == "Decimal" or converted == "DECIMAL":
            self.kind = "decimal"
        elif physical == "BOOLEAN":
            self.kind = "bool"
        elif physical == "INT96":
            self.kind = "int96"
        elif physical == "FLOAT":
            self.kind = "float32"
        elif physical == "DOUBLE":
            self.kind = "float64"
        elif kind == "Float16":
            self.kind = "float16"
        elif kind == "UUID":
            self.kind = "uuid"
        elif kind in ("String", "Enum", "JSON") or converted in ("UTF8", "ENUM", "JSON"):
            self.kind = "string"
        elif kind == "Date" or converted == "DATE":
            self.kind = "date"
        elif kind in ("Time", "Timestamp"):
            self.kind = kind.lower()
            self.unit = PARQUET_UNITS[logical["timeUnit"]]
            self.utc = logical["isAdjustedToUTC"]
        elif converted in ("TIME_MILLIS", "TIME_MICROS"):
            self.kind = "time"
            self.unit = "ms" if converted == "TIME_MILLIS" else "us"
        elif converted in ("TIMESTAMP_MILLIS", "TIMESTAMP_MICROS"):
            # The converted types are the UTC-adjusted timestamps.
            self.kind = "timestamp"
            self.unit = "ms" if converted == "TIMESTAMP_MILLIS" else "us"
            self.utc = True
        elif physical in ("INT32", "INT64"):
            self.kind = "int"
        else:
            # BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY without annotation, BSON, INTERVAL,
            # unknown logical types.
            self.kind = "binary"

    def values(self, array):
        """The JSON values of a leaf Arrow array (no nesting left)."""
        if pa.types.is_null(array.type):
            return [None] * len(array)
        kind = self.kind
        if kind in ("date", "time", "timestamp", "int96"):
            counts, unit = integer_counts(array)
            if kind == "date":
                per_day = 86400 * UNITS_PER_SECOND[unit] if unit else 1
                return [None if c is None else date_text(c // per_day) for c in counts]
            if kind == "int96" and self.plain_int96:
                counts = [None if c is None else rescale(c, unit, "ns") for c in counts]
                return [None if c is None else timestamp_text(c, "ns", False) for c in counts]
            if kind == "int96":
                if self.by_duckdb:
                    raise ValueError(f"{self.path}: DuckDB reads INT96 only to microseconds")
                epoch = None if self.duckdb is None else integer_counts(self.duckdb)
                counts = int96_counts(counts, unit, integer_counts(self.seconds), epoch)
                return [None if c is None else timestamp_text(c, "ns", False) for c in counts]
            if self.by_duckdb and UNITS_PER_SECOND[unit] < UNITS_PER_SECOND[self.unit]:
                # pyarrow may restore a coarser unit from ARROW:schema; DuckDB only loses digits.
                raise ValueError(f"{self.path}: DuckDB reads {self.unit} as {unit}")
            counts = [None if c is None else rescale(c, unit, self.unit) for c in counts]
            if kind == "time":
                return [None if c is None else time_text(c, self.unit) for c in counts]
            return [None if c is None else timestamp_text(c, self.unit, self.utc) for c in counts]
        if kind == "int" and not pa.types.is_integer(array.type):
            # A duration (or another integer-backed type) restored from ARROW:schema.
            return integer_counts(array)[0]
        values = array.to_pylist()
        convert = {
            "bool": None,
            "int": None,
            "float32": lambda v: float_json(v, 32),
            "float64": lambda v: float_json(v, 64),
            "float16": lambda v: float_json(v, 16),
            "string": string_text,
            "binary": base64_text,
            "uuid": uuid_text,
            "decimal": lambda v: decimal_text(v, self.scale),
        }[kind]
        if convert is None:
            return values
        return [None if v is None else convert(v) for v in values]


def integer_counts(array):
    """The integers behind a temporal Arrow array, and their unit (None: days)."""
    t = array.type
    if pa.types.is_date32(t):
        return array.view(pa.int32()).to_pylist(), None
    if pa.types.is_date64(t):
        return array.view(pa.int64()).to_pylist(), "ms"
    if pa.types.is_time32(t):
        return array.view(pa.int32()).to_pylist(), t.unit
    if pa.types.is_time64(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t):
        return array.view(pa.int64()).to_pylist(), t.unit
    if pa.types.is_integer(t):
        return array.to_pylist(), None
    raise TypeError(f"no integer form for {t}")


def int96_counts(wrapped, unit, seconds, epoch=None):
    """The INT96 timestamps in nanoseconds, as Spark reads them (int96_spark).

    pyarrow turns an INT96 into a 64-bit count ((days - 2440588) * 86400e9 + nanoseconds of
    the day, the day unsigned), which wraps for dates outside 1677..2262. The same column read
    in seconds does not wrap, and pins the true count to one interval of a second: the one
    value congruent to the wrapped count modulo 2^64 in that interval is the true count N,
    which decomposes into the day and the nanoseconds of the day it was written from (when
    those lie in 0..86400e9, as every writer stores them).

    pyarrow reads every INT96 of Julian day 0 as the epoch, whatever its nanoseconds (it
    takes it for the zeros of a null slot). `epoch`, DuckDB's reading of the same values
    when some of them read as the epoch, tells the two apart: a Julian day 0 has no
    reference here (DuckDB keeps only its microseconds).
    """
    seconds, seconds_unit = seconds
    if seconds_unit != "s":
        raise TypeError(f"INT96 read in seconds came as {seconds_unit}")
    per = UNITS_PER_SECOND[unit]
    exact = []
    for index, (count, second) in enumerate(zip(wrapped, seconds, strict=True)):
        if count is None:
            exact.append(None)
            continue
        if count == 0 and epoch is not None and epoch[0][index] != 0:
            day_zero = timestamp_text(rescale(epoch[0][index], epoch[1], "ns"), "ns", False)
            raise Refused(
                f"an INT96 of Julian day 0 ({day_zero} by DuckDB, to the microsecond): "
                "pyarrow reads it as 1970-01-01T00:00:00"
            )
        low = second * per
        k = -((count - low) // 2**64)  # smallest k with count + k * 2^64 >= low
        true = count + k * 2**64
        if not low <= true < low + per:
            raise ValueError(f"INT96 value {count} does not fit second {second}")
        day, nanos = divmod(rescale(true, unit, "ns"), NANOS_PER_DAY)
        exact.append(int96_spark(day + JULIAN_DAY_OF_EPOCH, nanos))
    return exact


def wrapping(value, bits):
    """`value` in the two's complement integers of `bits` bits, as Java's int and long wrap."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def java_div(a, b):
    """Java's `/` of integers: the quotient truncated toward zero."""
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def int96_spark(julian_day, nanos_of_day):
    """The INT96 of (Julian day, nanoseconds of the day) in nanoseconds since the epoch, as
    Spark reads it (rows contract, Spark's `DateTimeUtils.fromJulianDay`): the day a
    signed 32-bit int, `day - 2440588` in 32-bit int arithmetic, then micros = that *
    86400e6 + nanos / 1000 in wrapping 64-bit arithmetic, `/` truncating; then the
    nanosecond digits kept: micros * 1000 + nanos % 1000 (Java's remainder, which takes
    the dividend's sign)."""
    days = wrapping(wrapping(julian_day, 32) - JULIAN_DAY_OF_EPOCH, 32)
    nanos = wrapping(nanos_of_day, 64)
    whole_micros = java_div(nanos, 1000)
    micros = wrapping(days * 86_400_000_000 + whole_micros, 64)
    return micros * 1000 + (nanos - 1000 * whole_micros)


# ---------------------------------------------------------------------------------------
# Nesting: Arrow arrays walked in the order of the Parquet leaves


def plain_array(array):
    """The array without dictionary encoding or extension wrapper."""
    if isinstance(array, pa.ExtensionArray):
        array = array.storage
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    return array


def is_list(t):
    return (
        pa.types.is_list(t)
        or pa.types.is_large_list(t)
        or pa.types.is_fixed_size_list(t)
        or pa.types.is_list_view(t)
        or pa.types.is_large_list_view(t)
    )


def split(values, array):
    """The flat `values` of a list-like `array`, cut back into one list per slot."""
    lengths = pc.list_value_length(array).to_pylist()
    out, start = [], 0
    for length in lengths:
        if length is None:
            out.append(None)
        else:
            out.append(values[start : start + length])
            start += length
    if start != len(values):
        raise ValueError(f"list lengths cover {start} of {len(values)} values")
    return out


def walk(array, leaves, leaf_values):
    """The JSON values of `array`; `leaves` yields the Parquet leaf of each Arrow leaf in
    depth-first order, and `leaf_values(leaf, array)` maps one."""
    array = plain_array(array)
    t = array.type
    if pa.types.is_struct(t):
        children = [walk(child, leaves, leaf_values) for child in array.flatten()]
        names = [t.field(i).name for i in range(t.num_fields)]
        valid = array.is_valid().to_pylist()
        return [
            Object(zip(names, row, strict=True)) if ok else None
            for ok, row in zip(
                valid, zip(*children, strict=True) if children else [()] * len(array), strict=True
            )
        ]
    if pa.types.is_map(t):
        # The offsets index the children of the whole (unsliced) array.
        offsets = array.offsets.to_pylist()
        first, size = offsets[0], offsets[-1] - offsets[0]
        keys = walk(array.keys.slice(first, size), leaves, leaf_values)
        items = walk(array.items.slice(first, size), leaves, leaf_values)
        pairs = [Object([("key", k), ("value", v)]) for k, v in zip(keys, items, strict=True)]
        valid = array.is_valid().to_pylist()
        return [
            pairs[start - first : end - first] if ok else None
            for ok, start, end in zip(valid, offsets, offsets[1:])  # noqa: B905 - n + 1 offsets
        ]
    if is_list(t):
        return split(walk(array.flatten(), leaves, leaf_values), array)
    return leaf_values(next(leaves), array)


# ---------------------------------------------------------------------------------------
# Files


def read_rows(path, reader="pyarrow"):
    """The rows of the Parquet file at `path`, as JSON values, read by `reader` ("pyarrow" or
    "duckdb"). Raises Refused when the reader cannot read the file; any other exception is a
    fault of this script."""
    try:
        parquet = pq.ParquetFile(
            path, coerce_int96_timestamp_unit="ns", page_checksum_verification=True
        )
        schema = parquet.schema
    except Exception as error:  # noqa: BLE001 - pyarrow raises OSError, ArrowInvalid, ...
        footer = "the schema, by pyarrow: " if reader == "duckdb" else ""
        raise Refused(footer + error_text(error)) from error
    leaves = [Leaf(schema.column(i)) for i in range(len(schema))]
    if reader == "duckdb":
        table = duckdb_table(path)
        for leaf in leaves:
            leaf.by_duckdb = True
    else:
        try:
            table = parquet.read()
            # INT96 again, in seconds: what int96_counts needs to undo the wrapping.
            in_seconds = None
            if any(leaf.kind == "int96" for leaf in leaves):
                in_seconds = pq.ParquetFile(
                    path, coerce_int96_timestamp_unit="s", page_checksum_verification=True
                ).read()
        except Exception as error:  # noqa: BLE001 - pyarrow raises OSError, ArrowInvalid, ...
            raise Refused(error_text(error)) from error
        if in_seconds is not None:
            keep(in_seconds, leaves, "seconds")
            if any(
                leaf.kind == "int96" and 0 in integer_counts(leaf.seconds)[0] for leaf in leaves
            ):
                # Some read as the epoch, maybe a Julian day 0: see int96_counts.
                try:
                    keep(duckdb_table(path), leaves, "duckdb")
                except Refused as refused:
                    raise Refused(
                        "an INT96 reads as the epoch, maybe a Julian day 0 (which pyarrow reads "
                        f"so), and DuckDB cannot read the file to tell: {refused}"
                    ) from refused

    order = iter(leaves)
    columns = [walk(column.combine_chunks(), order, Leaf.values) for column in table.columns]
    rest = list(order)
    if rest:
        raise ValueError(f"{len(rest)} Parquet leaves not matched by the Arrow schema")
    names = table.column_names
    return [Object(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def keep(table, leaves, attribute):
    """Sets `attribute` of each leaf to its array in `table` (another read of the file)."""

    def store(leaf, array):
        setattr(leaf, attribute, array)
        return [None] * len(array)

    order = iter(leaves)
    for column in table.columns:
        walk(column.combine_chunks(), order, store)


def duckdb_table(path):
    """The file as DuckDB's read_parquet reads it, as an Arrow table. Raises Refused when
    DuckDB cannot read it."""
    try:
        con = duckdb.connect()
        con.execute("SET threads = 1")  # rows in the file's order
        con.execute("SET TimeZone = 'UTC'")
        query = "SELECT * FROM read_parquet(?, hive_partitioning = false)"
        return con.sql(query, params=[path]).to_arrow_table()
    except duckdb.Error as error:
        raise Refused(f"DuckDB: {error_text(error)}") from error


def encrypted_testing_rows():
    """The rows of parquet-testing's *.parquet.encrypted files (../shared/corpus/README.md):
    the schema is that of encrypt_columns_plaintext_footer.parquet.encrypted, whose plaintext
    columns pyarrow reads; the INT96 of row i holds the 32-bit words i, i + 1 (nanoseconds of
    the day) and i + 2 (the Julian day), as Arrow C++'s encryption tests write it."""
    rows = []
    for i in range(50):
        julian_day, nanos = i + 2, ((i + 1) << 32) | i
        rows.append(
            Object(
                [
                    ("boolean_field", i % 2 == 0),
                    ("int32_field", time_text(i, "ms")),
                    ("int64_field", [2 * i * 10**12, (2 * i + 1) * 10**12]),
                    ("int96_field", timestamp_text(int96_spark(julian_day, nanos), "ns", False)),
                    ("float_field", float_json(np.float32(i) * np.float32(1.1), 32)),
                    ("double_field", float_json(i * 1.1111111, 64)),
                    ("ba_field", base64_text(b"parquet%03d" % i) if i % 2 == 0 else None),
                    ("flba_field", base64_text(bytes([i] * 10))),
                ]
            )
        )
    return rows



def main(args):
    if args == ["--encrypted-testing"]:
        for row in encrypted_testing_rows():
            print(dumps(row))
        return 0
    reader = "pyarrow"
    if args[:1] == ["--duckdb"]:
        reader, args = "duckdb", args[1:]
    if len(args) >= 2 and args[0] == "--out":
        out = args[1]
        os.makedirs(out, exist_ok=True)
        for path in args[2:]:
            base = os.path.join(out, os.path.basename(path))
            for stale in (".jsonl", ".error", ".fault"):
                if os.path.exists(base + stale):
                    os.remove(base + stale)
            try:
                text = "".join(dumps(row) + "\n" for row in read_rows(path, reader))
                suffix = ".jsonl"
            except Refused as refused:
                text, suffix = f"{refused}\n", ".error"
            except Exception:  # noqa: BLE001 - reported, and the next file read
                text, suffix = traceback.format_exc(), ".fault"
            with open(base + suffix, "w", encoding="utf-8") as f:
                f.write(text)
        return 0
    if len(args) == 1:
        try:
            rows = read_rows(args[0], reader)
        except Refused as refused:
            print(f"rows.py: {args[0]}: {refused}", file=sys.stderr)
            return 1
        for row in rows:
            sys.stdout.write(dumps(row) + "\n")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
