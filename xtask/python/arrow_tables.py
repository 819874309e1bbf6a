"""The reference tables of `cargo xtask arrow`: pyarrow reads Parquet and ORC files and writes
each table it reads as an Arrow IPC file, which the xtask compares with the record batches
that parquet-arrow reads (or wrote).

    arrow_tables.py JOBS OUT [--tables DIR]

JOBS is a JSON list of jobs, one per file:

    {"file": PATH, "format": "parquet" or "orc", "own": null or PATH}

and for each job's file NAME this writes into OUT:

    NAME.arrow   the table as pyarrow reads it (`pq.read_table`, `pyarrow.orc.read_table`:
                 default options, so no page checksums verified and INT96 as nanoseconds),
                 as an Arrow IPC file (its dictionaries unified across batches, which an
                 IPC file needs)
    NAME.error   what pyarrow said when it refused the file (one line)
    NAME.fault   the traceback of a fault of this script (pyarrow read the file, but its
                 table could not be written)
    NAME.own.arrow / .error / .fault   with "own" (the IPC file of a table we wrote to
                 NAME): the table as pyarrow reads back its own Parquet file of it
                 (`pq.write_table`, default options), or what its writer said
    NAME.step    "reading" while the job runs, "done" after it: when pyarrow aborts the
                 process (Arrow C++ does on some ORC files), the xtask tells which job

With --tables, first writes into DIR the tables of TABLES, with nulls at every level:
NAME.arrow (in two record batches), and pyarrow's own Parquet files of each,
pyarrow-NAME.parquet (with the ARROW:schema that restores the Arrow types) and
pyarrow-NAME-no-arrow-schema.parquet. The xtask reads the Parquet files as it reads the
others, and writes NAME.arrow with parquet-arrow's ArrowWriter for pyarrow to read back.

all-types holds every Arrow type that pyarrow writes to Parquet but Decimal32 and
Decimal64, which decimal32-64 holds apart: our reader cannot read them yet, and a file it
refuses checks nothing else. Types that pyarrow cannot write to Parquet are left out:
intervals, unions, run-end encoded arrays; so are extension types (uuid and json are in the
interop fixtures).

The process runs in UTC (TZ is set before pyarrow loads), as orc_rows.py does.
"""

import os
import time

os.environ["TZ"] = "UTC"
time.tzset()

import json  # noqa: E402 - after TZ
import sys  # noqa: E402
import traceback  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.orc as po  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from contract import error_text  # noqa: E402
from values import ROWS, Values  # noqa: E402


def half_floats(values):
    with np.errstate(over="ignore"):  # beyond 65504 is infinity
        return [None if x is None else np.float16(x) for x in values]


def all_types(seed=12):
    """One column per Arrow type that pyarrow writes to Parquet (but Decimal32 and
    Decimal64), nulls in every column and at every level of the nested ones; extremes in
    the first rows; a few non-nullable fields."""
    v = Values(seed)
    n = ROWS
    i64 = (-(2**63), 2**63 - 1)

    def ints(low, high):
        return v.nulls(v.ints(low, high))

    def timestamps(unit, tz=None):
        per_second = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[unit]
        bound = 10**11 * per_second if unit != "ns" else 2**63 - 1
        return pa.array(ints(-bound, bound), pa.timestamp(unit, tz=tz))

    def small_ints(k):
        return v.nulls(v.ints(-1000, 1000, k, extremes=False))

    def strings(k):
        return v.nulls(v.strings(k))

    inner = pa.struct([("x", pa.list_(pa.int64())), ("y", pa.string())])
    columns = {
        "bool": pa.array(v.nulls([bool(b) for b in v.rng.integers(0, 2, size=n)])),
        "int8": pa.array(ints(-128, 127), pa.int8()),
        "int16": pa.array(ints(-(2**15), 2**15 - 1), pa.int16()),
        "int32": pa.array(ints(-(2**31), 2**31 - 1), pa.int32()),
        "int64": pa.array(ints(*i64), pa.int64()),
        "uint8": pa.array(ints(0, 255), pa.uint8()),
        "uint16": pa.array(ints(0, 2**16 - 1), pa.uint16()),
        "uint32": pa.array(ints(0, 2**32 - 1), pa.uint32()),
        "uint64": pa.array(ints(0, 2**64 - 1), pa.uint64()),
        "float16": pa.array(half_floats(v.nulls(v.floats())), pa.float16()),
        "float32": pa.array(v.nulls(v.floats()), pa.float32()),
        "float64": pa.array(v.nulls(v.floats()), pa.float64()),
        "decimal128_5_2": pa.array(v.nulls(v.decimals(5, 2)), pa.decimal128(5, 2)),
        "decimal128_38_9": pa.array(v.nulls(v.decimals(38, 9)), pa.decimal128(38, 9)),
        "decimal256_76_20": pa.array(v.nulls(v.decimals(76, 20)), pa.decimal256(76, 20)),
        "date32": pa.array(ints(-719162, 2932896), pa.date32()),
        "date64": pa.array(
            [None if d is None else d * 86_400_000 for d in ints(-719162, 2932896)], pa.date64()
        ),
        "time32_s": pa.array(ints(0, 86399), pa.time32("s")),
        "time32_ms": pa.array(ints(0, 86_399_999), pa.time32("ms")),
        "time64_us": pa.array(ints(0, 86_399_999_999), pa.time64("us")),
        "time64_ns": pa.array(ints(0, 86_399_999_999_999), pa.time64("ns")),
        "timestamp_s": timestamps("s"),
        "timestamp_ms": timestamps("ms"),
        "timestamp_us": timestamps("us"),
        "timestamp_ns": timestamps("ns"),
        "timestamp_s_utc": timestamps("s", "UTC"),
        "timestamp_ms_utc": timestamps("ms", "UTC"),
        "timestamp_us_zone": timestamps("us", "America/New_York"),
        "timestamp_ns_offset": timestamps("ns", "+05:30"),
        "duration_s": pa.array(ints(*i64), pa.duration("s")),
        "duration_ms": pa.array(ints(*i64), pa.duration("ms")),
        "duration_us": pa.array(ints(*i64), pa.duration("us")),
        "duration_ns": pa.array(ints(*i64), pa.duration("ns")),
        "string": pa.array(v.nulls(v.strings()), pa.string()),
        "large_string": pa.array(v.nulls(v.strings()), pa.large_string()),
        "string_view": pa.array(v.nulls(v.strings()), pa.string_view()),
        "binary": pa.array(v.nulls(v.blobs()), pa.binary()),
        "large_binary": pa.array(v.nulls(v.blobs()), pa.large_binary()),
        "binary_view": pa.array(v.nulls(v.blobs()), pa.binary_view()),
        "fixed_size_binary": pa.array(v.nulls(v.blobs(width=5)), pa.binary(5)),
        "dictionary_string": pa.array(
            v.nulls(v.repeats()), pa.dictionary(pa.int32(), pa.string())
        ),
        "dictionary_int8_large_string": pa.array(
            v.nulls(v.repeats()), pa.dictionary(pa.int8(), pa.large_string())
        ),
        "dictionary_binary": pa.array(
            v.nulls([s.encode() for s in v.repeats()]), pa.dictionary(pa.int16(), pa.binary())
        ),
        "dictionary_int64": pa.array(
            v.nulls([int(x) % 17 for x in v.ints(0, 1000)]),
            pa.dictionary(pa.int32(), pa.int64()),
        ),
        "null": pa.nulls(n),
        "list": pa.array(v.lists(small_ints), pa.list_(pa.int32())),
        "list_view": pa.array(v.lists(small_ints), pa.list_view(pa.int32())),
        "large_list": pa.array(v.lists(strings), pa.large_list(pa.string())),
        "fixed_size_list": pa.array(
            [None if x is None else v.nulls(list(v.rng.normal(size=3))) for x in v.nulls([0] * n)],
            pa.list_(pa.float32(), 3),
        ),
        "map": pa.array(
            v.lists(lambda k: list(zip([f"k{j}" for j in range(k)], small_ints(k)))),
            pa.map_(pa.string(), pa.int32()),
        ),
        "struct": pa.array(
            v.nulls(
                [
                    {"a": a, "b": b, "c": None if i % 9 == 0 else {"d": d}}
                    for i, (a, b, d) in enumerate(
                        zip(small_ints(n), strings(n), v.nulls(v.floats()))
                    )
                ]
            ),
            pa.struct(
                [("a", pa.int32()), ("b", pa.string()), ("c", pa.struct([("d", pa.float64())]))]
            ),
        ),
        "list_struct_list": pa.array(
            v.lists(
                lambda k: v.nulls(
                    [{"x": x, "y": y} for x, y in zip(v.lists(small_ints, k), strings(k))],
                    share=0.1,
                )
            ),
            pa.list_(inner),
        ),
        "required_int64": pa.array(v.ints(*i64), pa.int64()),
        "required_list": pa.array(
            [[int(x) for x in v.ints(0, 9, k % 4, extremes=False)] for k in range(n)],
            pa.list_(pa.field("element", pa.int64(), nullable=False)),
        ),
        "struct_required_child": pa.array(
            v.nulls([{"r": int(x)} for x in v.ints(0, 100)]),
            pa.struct([pa.field("r", pa.int16(), nullable=False)]),
        ),
    }
    required = {"required_int64", "required_list"}
    schema = pa.schema(
        [pa.field(name, a.type, nullable=name not in required) for name, a in columns.items()]
    )
    return pa.table(columns, schema=schema)


def decimal32_64(seed=13):
    """Decimal32 and Decimal64 (pyarrow writes them as FIXED_LEN_BYTE_ARRAY DECIMALs)."""
    v = Values(seed)
    return pa.table(
        {
            "decimal32": pa.array(v.nulls(v.decimals(9, 2)), pa.decimal32(9, 2)),
            "decimal64": pa.array(v.nulls(v.decimals(18, 4)), pa.decimal64(18, 4)),
        }
    )


TABLES = {"all-types": all_types, "decimal32-64": decimal32_64}


def write_ipc(table, path, chunk=None):
    table = table.unify_dictionaries()
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        for batch in table.to_batches(max_chunksize=chunk):
            writer.write_batch(batch)


def write_tables(directory):
    os.makedirs(directory, exist_ok=True)
    for name, make in TABLES.items():
        table = make()
        write_ipc(table, os.path.join(directory, f"{name}.arrow"), chunk=len(table) // 2 + 1)
        pq.write_table(table, os.path.join(directory, f"pyarrow-{name}.parquet"))
        pq.write_table(
            table,
            os.path.join(directory, f"pyarrow-{name}-no-arrow-schema.parquet"),
            store_schema=False,
        )


def attempt(base, read):
    """Writes base.arrow with the table `read` returns, or base.error with what pyarrow
    said, or base.fault."""
    for stale in (".arrow", ".error", ".fault"):
        if os.path.exists(base + stale):
            os.remove(base + stale)
    try:
        table = read()
    except Exception as error:  # noqa: BLE001 - pyarrow raises OSError, ArrowInvalid, ...
        with open(base + ".error", "w", encoding="utf-8") as f:
            f.write(error_text(error) + "\n")
        return
    try:
        write_ipc(table, base + ".arrow.part")
        os.replace(base + ".arrow.part", base + ".arrow")
    except Exception:  # noqa: BLE001 - reported, and the next one tried
        with open(base + ".fault", "w", encoding="utf-8") as f:
            f.write(traceback.format_exc())


def own_round_trip(source):
    """The table of the IPC file `source`, written to Parquet by pyarrow and read back."""
    table = pa.ipc.open_file(source).read_all()
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return pq.read_table(pa.BufferReader(sink.getvalue()))


def reference(job, base):
    if job["format"] == "orc":
        attempt(base, lambda: po.read_table(job["file"]))
    else:
        attempt(base, lambda: pq.read_table(job["file"]))
    if job.get("own"):
        attempt(base + ".own", lambda: own_round_trip(job["own"]))


def step(path, what):
    with open(path, "w", encoding="utf-8") as f:
        f.write(what)


def main(args):
    if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "--tables"):
        print(__doc__, file=sys.stderr)
        return 2
    if len(args) == 4:
        write_tables(args[3])
    with open(args[0], encoding="utf-8") as f:
        jobs = json.load(f)
    out = args[1]
    os.makedirs(out, exist_ok=True)
    for job in jobs:
        base = os.path.join(out, os.path.basename(job["file"]))
        step(f"{base}.step", "reading")
        reference(job, base)
        step(f"{base}.step", "done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
