"""pyarrow's whole-file reads of the files of the `arrow read` rows, beside parquet-kit's.

Times `pyarrow.parquet.read_table(path, use_threads=False)` and `use_threads=True` on
every `.parquet` file of a directory: a warm-up read of each, then ROUNDS rounds (default
5) in which the two alternate (single-threaded first in even rounds, threaded first in odd
ones); the table gives the medians. The files are read from their paths, so from the page
cache after the warm-up, where the Rust rows read from memory.

The directory is the one the Rust bench dumps its files into with COMPARE_DUMP_DIR:

    cd compare && COMPARE_DUMP_DIR=/tmp/arrow-files \\
        cargo bench --bench compare -- "arrow read"
    target/xtask-venv/bin/python compare/pyarrow_read.py /tmp/arrow-files [ROUNDS]

(the second command from the repository root). When the directory holds the bench's
`parquet-kit.csv`, its median times (parquet-kit serial and with `with_parallelism`,
arrow-rs serial) are set beside pyarrow's, with pyarrow's time / parquet-kit's (above 1:
parquet-kit is faster), single-threaded against serial and threaded against parallel.

Mvalues/s counts the levels of every leaf column (the column chunks' `num_values`:
rows x columns for flat files, nulls and empty lists included for nested ones), as the
Rust rows count values; the CSV's count is used when given.
"""

import csv
import statistics
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq


def leaf_values(path):
    """The levels of every column chunk of the file, as its footer counts them."""
    metadata = pq.ParquetFile(path).metadata
    return sum(
        metadata.row_group(g).column(c).num_values
        for g in range(metadata.num_row_groups)
        for c in range(metadata.num_columns)
    )


def timed(path, threads):
    start = time.perf_counter()
    table = pq.read_table(path, use_threads=threads)
    elapsed = time.perf_counter() - start
    del table
    return elapsed


def ours(directory):
    """The rows of parquet-kit.csv by file name, or an empty dict."""
    path = directory / "parquet-kit.csv"
    if not path.exists():
        return {}
    with path.open(newline="") as f:
        return {row["file"]: row for row in csv.DictReader(f)}


def ms(value):
    return float(value) if value not in (None, "") else None


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(f"usage: {sys.argv[0]} DIRECTORY [ROUNDS]")
    directory = Path(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) == 3 else 5
    files = sorted(directory.glob("*.parquet"))
    if not files:
        sys.exit(f"no .parquet files in {directory}")
    rust = ours(directory)

    times = {path: {False: [], True: []} for path in files}
    for path in files:
        for threads in (False, True):
            timed(path, threads)  # warm-up: the page cache, pyarrow's allocator
    for r in range(rounds):
        for path in files:
            order = (False, True) if r % 2 == 0 else (True, False)
            for threads in order:
                times[path][threads].append(timed(path, threads))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)

    columns = [
        "file",
        "pyarrow 1 thread ms",
        "pyarrow threaded ms",
        "pyarrow 1 thread Mvalues/s",
        "pyarrow threaded Mvalues/s",
    ]
    if rust:
        columns += [
            "parquet-kit ms",
            "parquet-kit parallel ms",
            "arrow-rs ms",
            "parquet-kit Mvalues/s",
            "parquet-kit parallel Mvalues/s",
            "pyarrow 1 thread / parquet-kit",
            "pyarrow threaded / parquet-kit parallel",
        ]
    print("| " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * (len(columns) - 1))

    def rate(values, milliseconds):
        return f"{values / milliseconds / 1e3:.0f}" if milliseconds else "-"

    def num(value, digits=1):
        return f"{value:.{digits}f}" if value is not None else "-"

    for path in files:
        single = statistics.median(times[path][False]) * 1e3
        threaded = statistics.median(times[path][True]) * 1e3
        row = rust.get(path.name)
        values = int(row["values"]) if row else leaf_values(path)
        cells = [
            path.name,
            num(single),
            num(threaded),
            rate(values, single),
            rate(values, threaded),
        ]
        if rust:
            serial = ms(row["parquet_kit_ms"]) if row else None
            parallel = ms(row["parquet_kit_parallel_ms"]) if row else None
            arrow_rs = ms(row["arrow_rs_ms"]) if row else None
            cells += [
                num(serial),
                num(parallel),
                num(arrow_rs),
                rate(values, serial),
                rate(values, parallel),
                num(single / serial if serial else None, 2),
                num(threaded / parallel if parallel else None, 2),
            ]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
