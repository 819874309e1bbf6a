"""The peers' side of recovery in `cargo xtask interop`: files the peers write, cut short
by the xtask and recovered by `pqkit recover`, and the recovered files read by pyarrow.

    recovery.py write DIR
    recovery.py check JOBS OUT

`write` has the peers write field.py's realistic tables (the flat one of 24,000 rows and
the nested one of 6,000) in row groups of 2,000 rows (DuckDB's are 2,048 at least) as
DIR/<table>-<writer>.parquet, the writers pyarrow (its defaults), DuckDB (its defaults)
and polars (its defaults); and as ORC by pyarrow.orc (Apache ORC's C++ writer:
DIR/<table>-pyarrow.orc, ZLIB for the flat table and ZSTD for the nested one, in stripes
of a few KiB and row groups of 1,000 rows).

`check` reads JOBS, a JSON list of {"source": PATH, "recovered": PATH}, and writes OUT, a
JSON list with for each job {"row_groups": K, "equal": true} when pyarrow (pyarrow.orc
for a .orc file) reads the recovered file and its rows are those of the source's first K
row groups or stripes (K being the recovered file's number of them), or {"error": TEXT}
with what went wrong.
"""

import json
import os
import sys

import duckdb
import polars as pl
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.orc as po
import pyarrow.parquet as pq

import field

ROWS = 24_000
GROUP_ROWS = 2_000
TABLES = ["flat", "nested"]


def write(directory):
    os.makedirs(directory, exist_ok=True)
    for name in TABLES:
        table = field.make_table(name, ROWS)
        pq.write_table(
            table,
            os.path.join(directory, f"{name}-pyarrow.parquet"),
            row_group_size=GROUP_ROWS,
        )
        con = duckdb.connect()
        con.register("t", table)
        path = os.path.join(directory, f"{name}-duckdb.parquet")
        con.execute(
            f"COPY (SELECT * FROM t) TO {field.sql_string(path)} "
            f"(FORMAT parquet, ROW_GROUP_SIZE {GROUP_ROWS})"
        )
        pl.from_arrow(table).write_parquet(
            os.path.join(directory, f"{name}-polars.parquet"),
            row_group_size=GROUP_ROWS,
        )
        flat = name == "flat"
        po.write_table(
            table,
            os.path.join(directory, f"{name}-pyarrow.orc"),
            compression="zlib" if flat else "zstd",
            stripe_size=16 * 1024 if flat else 2 * 1024,
            compression_block_size=64 * 1024,
            row_index_stride=1000,
            batch_size=500,
        )


def same(got, want):
    """Whether two tables hold the same values, a NaN of a floating-point column equal to
    a NaN (which Table.equals does not count equal)."""
    if got.equals(want):
        return True
    if got.schema != want.schema:
        return False

    def without_nans(table):
        columns = []
        for column in table.columns:
            if pa.types.is_floating(column.type):
                # Every NaN one value of its own (the largest finite one), on both sides.
                sentinel = pa.scalar(np.finfo(column.type.to_pandas_dtype()).max, column.type)
                column = pc.if_else(pc.is_nan(column), sentinel, column)
            columns.append(column)
        return pa.table(columns, schema=table.schema)

    return without_nans(got).equals(without_nans(want))


def check_orc(job):
    recovered = po.ORCFile(job["recovered"])
    k = recovered.nstripes
    got = recovered.read()
    source = po.ORCFile(job["source"])
    want = pa.Table.from_batches(
        [source.read_stripe(i) for i in range(k)], schema=source.schema
    )
    if not same(got, want):
        if got.schema != want.schema:
            return {"error": f"schema {got.schema} where the source has {want.schema}"}
        return {"error": f"the rows of {k} stripes differ from the source's"}
    return {"row_groups": k, "equal": True}


def check_one(job):
    if job["source"].endswith(".orc"):
        return check_orc(job)
    recovered = pq.ParquetFile(job["recovered"])
    k = recovered.metadata.num_row_groups
    got = recovered.read()
    source = pq.ParquetFile(job["source"])
    want = source.read_row_groups(list(range(k)))
    if not same(got, want):
        if got.schema != want.schema:
            return {"error": f"schema {got.schema} where the source has {want.schema}"}
        return {"error": f"the rows of {k} row groups differ from the source's"}
    return {"row_groups": k, "equal": True}


def check(jobs_path, out_path):
    with open(jobs_path) as f:
        jobs = json.load(f)
    results = []
    for job in jobs:
        try:
            results.append(check_one(job))
        except Exception as error:  # a refusal is a result, not a fault
            results.append({"error": f"{type(error).__name__}: {error}".splitlines()[0]})
    with open(out_path, "w") as f:
        json.dump(results, f)


def main():
    if sys.argv[1:2] == ["write"]:
        write(sys.argv[2])
    elif sys.argv[1:2] == ["check"]:
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
