"""Writes the sample files of testdata/ with pyarrow, and their expected rows.

Run from the repository root with the xtask's virtual environment (which has pyarrow):

    target/xtask-venv/bin/python testdata/generate.py

The expected rows (`*.jsonl`) are pyarrow's reading mapped by the rows contract, by
`xtask/python/rows.py`; the tests compare `parquet-file` and `pqkit` against them.
"""

import datetime
import decimal
import pathlib
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq

HERE = pathlib.Path(__file__).resolve().parent
ROWS = HERE.parent / "xtask" / "python" / "rows.py"


def example():
    n = 40
    utc = datetime.timezone.utc
    table = pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "name": pa.array([f"name {i % 7}" for i in range(n)], pa.string()),
            "score": pa.array([None if i % 5 == 0 else i * 1.25 for i in range(n)], pa.float64()),
            "price": pa.array(
                [decimal.Decimal(i * 101 - 500) / 100 for i in range(n)], pa.decimal128(9, 2)
            ),
            "day": pa.array([datetime.date(2024, 1, 1) + datetime.timedelta(days=i) for i in range(n)]),
            "created": pa.array(
                [datetime.datetime(2024, 1, 1, tzinfo=utc) + datetime.timedelta(seconds=i * 3601.5) for i in range(n)],
                pa.timestamp("us", tz="UTC"),
            ),
            "tags": pa.array(
                [None if i % 6 == 0 else [f"t{j}" for j in range(i % 4)] for i in range(n)],
                pa.list_(pa.string()),
            ),
            "attrs": pa.array(
                [[("k", i), ("j", None)] if i % 3 else None for i in range(n)],
                pa.map_(pa.string(), pa.int32()),
            ),
            "address": pa.array(
                [None if i % 7 == 3 else {"city": f"city {i % 3}", "zip": 10000 + i} for i in range(n)],
                pa.struct([("city", pa.string()), ("zip", pa.int32())]),
            ),
        }
    )
    path = HERE / "example.parquet"
    pq.write_table(
        table,
        path,
        row_group_size=25,
        compression="snappy",
        write_statistics=True,
        write_page_index=True,
        write_page_checksum=True,
    )
    with open(HERE / "example.jsonl", "w") as out:
        subprocess.run([sys.executable, str(ROWS), str(path)], stdout=out, check=True)


def pages():
    """Small pages with a page index, for page skipping: the columns cut their pages at
    different rows, one column has a page of nulls only, one is a list."""
    n = 1000
    table = pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "group": pa.array([f"g{i // 100}" for i in range(n)], pa.string()),
            "maybe": pa.array([None if 200 <= i < 300 else i % 17 for i in range(n)], pa.int32()),
            "tags": pa.array([[f"t{j}" for j in range(i % 3)] for i in range(n)], pa.list_(pa.string())),
        }
    )
    path = HERE / "pages.parquet"
    pq.write_table(
        table,
        path,
        row_group_size=500,
        compression="zstd",
        use_dictionary=["group"],
        data_page_size=256,
        write_batch_size=50,
        write_statistics=True,
        write_page_index=True,
        write_page_checksum=True,
    )
    with open(HERE / "pages.jsonl", "w") as out:
        subprocess.run([sys.executable, str(ROWS), str(path)], stdout=out, check=True)


if __name__ == "__main__":
    example()
    pages()
