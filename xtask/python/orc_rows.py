"""The reference rows of ORC files: pyarrow.orc or pyorc (each with Apache ORC's C++ reader)
reads a file, or Apache ORC's own JSON dump of it (the corpus's expected/*.jsn.gz) is parsed,
and the values are mapped by the rows contract of DESIGN.md ("The rows contract", what
`pqkit cat --format jsonl` prints):

    integers        number
    float, double   number, the shortest form that round-trips at the stored width
    string, char, varchar   string (char as stored: padded to its length)
    binary          standard padded base64
    decimal         string, plain notation, exactly `scale` digits after the point
    date            "YYYY-MM-DD"
    timestamp       "YYYY-MM-DDTHH:MM:SS.fffffffff" (the wall clock, 9 digits, no Z)
    timestamp with local time zone   the same in UTC, with Z
    list            array
    map             array of {"key": ..., "value": ...}
    struct          object, keys in schema order
    uniontype       {"tag": n, "value": ...}

    orc_rows.py READER JOBS OUT

READER is pyarrow or pyorc: one a process, since both bundle Apache ORC's C++ library and
do not share a process safely (pyorc crashed writing after pyarrow.orc had written). JOBS
is a JSON list of jobs, one per ORC file:

    {"file": PATH, "jsn": PATH or null (pyarrow only), "seek": [ROW, ...] (pyorc only)}

and for each job's file NAME this writes into OUT:

    NAME.READER.jsonl   the rows the reader read
    NAME.READER.error   what the reader said when it refused the file (one line)
    NAME.READER.fault   the traceback of a fault of this script
    NAME.jsn.jsonl / .fault       the rows of Apache ORC's JSON dump (with "jsn"), mapped by
                        the file's types as pyarrow reads the schema
    NAME.pyorc.meta.json          {"file_version", "compression", "nrows", "nstripes",
                        "row_index_stride", "software_version"}, as pyorc reads the footer
                        (pyarrow cannot name LZO)
    NAME.pyorc.seek.jsonl / .error / .fault   (with "seek") for each ROW, the row pyorc reads
                        after seeking to it, which goes through the row index of its stripe
    NAME.READER.step    "reading" while the job runs, "done" after it: when the reader aborts
                        the process (Arrow C++ does on some files), the xtask tells which job

Both readers are asked for the wall clock of TIMESTAMP values: the process runs in UTC (TZ
is set before either library loads), and pyorc is given UTC. Where the readers lose
information (unions: pyarrow's sparse union has no validity, so a null union reads as
alternative 0 holding null; pyorc gives the alternative's value without its tag, and an
alternative holding null reads as a null union), the xtask pins the rows that differ.
"""

import os
import time

os.environ["TZ"] = "UTC"
time.tzset()

import json  # noqa: E402 - after TZ
import sys  # noqa: E402
import traceback  # noqa: E402

from contract import Refused, dumps  # noqa: E402


def attempt(base, make):
    """Writes base.jsonl with the rows `make` returns, or base.error / base.fault."""
    for stale in (".jsonl", ".error", ".fault"):
        if os.path.exists(base + stale):
            os.remove(base + stale)
    try:
        rows = make()
        text = rows if isinstance(rows, str) else "".join(dumps(row) + "\n" for row in rows)
        suffix = ".jsonl"
    except Refused as refused:
        text, suffix = f"{refused}\n", ".error"
    except Exception:  # noqa: BLE001 - reported, and the next one tried
        text, suffix = traceback.format_exc(), ".fault"
    with open(base + suffix, "w", encoding="utf-8") as f:
        f.write(text)


def step(path, what):
    with open(path, "w", encoding="utf-8") as f:
        f.write(what)


def run_pyarrow(job, base):
    import orc_arrow

    attempt(f"{base}.pyarrow", lambda: orc_arrow.pyarrow_rows(job["file"]))
    if job.get("jsn"):
        attempt(f"{base}.jsn", lambda: orc_arrow.jsn_rows(job["jsn"], job["file"]))


def run_pyorc(job, base):
    import orc_pyorc

    attempt(f"{base}.pyorc", lambda: orc_pyorc.pyorc_rows(job["file"]))
    if job.get("seek"):
        attempt(f"{base}.pyorc.seek", lambda: orc_pyorc.seek_rows(job["file"], job["seek"]))
    try:
        meta = orc_pyorc.footer(job["file"])
    except Exception as error:  # noqa: BLE001 - the rows' outcome says more
        meta = {"error": f"{type(error).__name__}: {error}"}
    with open(f"{base}.pyorc.meta.json", "w", encoding="utf-8") as f:
        json.dump(meta, f)


def main(args):
    if len(args) != 3 or args[0] not in ("pyarrow", "pyorc"):
        print(__doc__, file=sys.stderr)
        return 2
    run = run_pyarrow if args[0] == "pyarrow" else run_pyorc
    with open(args[1], encoding="utf-8") as f:
        jobs = json.load(f)
    out = args[2]
    os.makedirs(out, exist_ok=True)
    for job in jobs:
        base = os.path.join(out, os.path.basename(job["file"]))
        step(f"{base}.{args[0]}.step", "reading")
        run(job, base)
        step(f"{base}.{args[0]}.step", "done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
