"""The write side of `cargo xtask interop`: files that parquet-kit wrote, read by pyarrow,
DuckDB and polars, their values mapped by the rows contract of DESIGN.md as rows.py maps
them (the xtask compares them with the rows it wrote).

    peers.py JOBS OUT

JOBS is a JSON list of jobs, one per file:

    {"file": PATH,
     "schema": PATH of a plaintext file of the same schema (the file itself unless its
               footer is encrypted): rows.py maps values by the Parquet schema, which
               pyarrow reads from it,
     "peers": ["pyarrow", "duckdb", "polars"],
     "keys": null, or {"footer": TEXT, "columns": {PATH: TEXT}, "aad_prefix": TEXT or null}
             (keys as their ASCII text; the aad_prefix is the one readers must supply),
     "statistics": whether to write pyarrow's view of the metadata,
     "filters": [[[COLUMN, OP, VALUE], ...], ...]  conjunctions each peer filters by
                (VALUE a number, a string, or {"date": "YYYY-MM-DD"}),
     "bloom": [[COLUMN, VALUE], ...]  values DuckDB's parquet_bloom_probe looks up}

and writes into OUT, for each job's file NAME and each peer:

    NAME.PEER.jsonl      the rows the peer read
    NAME.PEER.error      what the peer said when it refused the file (one line)
    NAME.PEER.fault      the traceback of a fault of this script
    NAME.filter-I.PEER.jsonl / .error / .fault   the same for the I-th filter
    NAME.statistics.json  pyarrow's metadata: the key-value metadata, and per row group its
                          sorting columns and per column the statistics (min_raw and
                          max_raw as JSON: numbers, "NaN", {"base64": ...}), whether it
                          has a column index, an offset index, a Bloom filter
    NAME.bloom.json       [[COLUMN, VALUE, [excluded by row group...]], ...] by DuckDB
    NAME.step             the step the job is at, "done" at its end (see step)

Encrypted files: pyarrow decrypts through its KMS API only, with a CryptoFactory whose
in-memory KMS client "unwraps" a key by decoding it from base64 (the xtask stores each key
so in the PKMT1 key material of its key metadata; pyarrow cannot be given an AAD prefix
this way); DuckDB takes the footer key (PRAGMA add_parquet_key); polars takes every key
and the AAD prefix.
"""

import base64
import datetime
import json
import os
import sys
import traceback

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe

from rows import Leaf, Object, Refused, dumps, error_text, walk

# ---------------------------------------------------------------------------------------
# Reading


class Base64Kms(pe.KmsClient):
    """A KMS whose wrapped keys are the keys in base64 (see the module's docs)."""

    def __init__(self, _config):
        super().__init__()

    def wrap_key(self, key_bytes, _master_key_identifier):
        return base64.b64encode(key_bytes).decode("ascii")

    def unwrap_key(self, wrapped_key, _master_key_identifier):
        return base64.b64decode(wrapped_key)


def pyarrow_decryption(keys):
    if keys is None:
        return None
    factory = pe.CryptoFactory(Base64Kms)
    return factory.file_decryption_properties(
        pe.KmsConnectionConfig(), pe.DecryptionConfiguration()
    )


def pyarrow_table(job, filters=None):
    keys = job.get("keys")
    if keys is not None and keys.get("aad_prefix") is not None:
        raise Refused("pyarrow's KMS API takes no AAD prefix to supply")
    decryption = pyarrow_decryption(keys)
    try:
        if filters is not None:
            return pq.read_table(
                job["file"], filters=filters, decryption_properties=decryption
            )
        return pq.ParquetFile(
            job["file"],
            decryption_properties=decryption,
            page_checksum_verification=True,
            coerce_int96_timestamp_unit="ns",
        ).read()
    except Exception as error:  # noqa: BLE001 - pyarrow raises OSError, ArrowInvalid, ...
        raise Refused(error_text(error)) from error


def duckdb_table(job, where=None):
    keys = job.get("keys")
    try:
        con = duckdb.connect()
        con.execute("SET threads = 1")  # rows in the file's order
        con.execute("SET TimeZone = 'UTC'")
        options = "hive_partitioning = false"
        if keys is not None:
            con.execute(f"PRAGMA add_parquet_key('footer', '{keys['footer']}')")
            options += ", encryption_config = {footer_key: 'footer'}"
        query = f"SELECT * FROM read_parquet(?, {options})"
        if where:
            query += f" WHERE {where}"
        return con.sql(query, params=[job["file"]]).to_arrow_table()
    except duckdb.Error as error:
        raise Refused(f"DuckDB: {error_text(error)}") from error


def polars_table(job, predicate=None):
    keys = job.get("keys")
    decryption = None
    if keys is not None:
        prefix = keys.get("aad_prefix")
        decryption = pl.ParquetDecryptionProperties(
            footer_key=keys["footer"].encode(),
            column_keys={path: key.encode() for path, key in keys["columns"].items()} or None,
            aad_prefix=None if prefix is None else prefix.encode(),
        )
    try:
        frame = pl.scan_parquet(job["file"], decryption=decryption)
        if predicate is not None:
            frame = frame.filter(predicate)
        return frame.collect().to_arrow()
    except Exception as error:  # noqa: BLE001 - polars raises ComputeError, OSError, ...
        raise Refused(f"polars: {error_text(error)}") from error
    except BaseException as error:  # a Rust panic (pyo3's PanicException)
        if type(error).__name__ != "PanicException":
            raise
        raise Refused(f"polars panicked: {error_text(error)}") from error


def rows_of(table, job, peer):
    """The rows of an Arrow table a peer read, mapped by the Parquet schema."""
    schema = pq.ParquetFile(job["schema"]).schema
    leaves = [Leaf(schema.column(i)) for i in range(len(schema))]
    for leaf in leaves:
        # The xtask writes INT96 as whole microseconds of the years 1685 to 2255: no
        # reader wraps them, and DuckDB keeps them whole.
        leaf.plain_int96 = True
        # A peer other than pyarrow must not give a coarser unit than the file's.
        leaf.by_duckdb = peer != "pyarrow"
    order = iter(leaves)
    columns = [walk(column.combine_chunks(), order, Leaf.values) for column in table.columns]
    rest = list(order)
    if rest:
        raise ValueError(f"{len(rest)} Parquet leaves not matched by the Arrow schema")
    names = table.column_names
    return [Object(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def read(job, peer):
    table = {"pyarrow": pyarrow_table, "duckdb": duckdb_table, "polars": polars_table}[peer](job)
    return rows_of(table, job, peer)


# ---------------------------------------------------------------------------------------
# Filters


def literal(value):
    if isinstance(value, dict) and "date" in value:
        return datetime.date.fromisoformat(value["date"])
    return value


def sql_literal(value):
    if isinstance(value, dict) and "date" in value:
        return f"DATE '{value['date']}'"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def polars_predicate(conjunction):
    ops = {
        "==": lambda c, v: c == v,
        "!=": lambda c, v: c != v,
        "<": lambda c, v: c < v,
        "<=": lambda c, v: c <= v,
        ">": lambda c, v: c > v,
        ">=": lambda c, v: c >= v,
    }
    predicate = None
    for column, op, value in conjunction:
        term = ops[op](pl.col(column), pl.lit(literal(value)))
        predicate = term if predicate is None else predicate & term
    return predicate


def filtered(job, peer, conjunction):
    if peer == "pyarrow":
        table = pyarrow_table(job, [(c, op, literal(v)) for c, op, v in conjunction])
    elif peer == "duckdb":
        where = " AND ".join(f'"{c}" {op} {sql_literal(v)}' for c, op, v in conjunction)
        table = duckdb_table(job, where.replace("==", "="))
    else:
        table = polars_table(job, polars_predicate(conjunction))
    return rows_of(table, job, peer)


# ---------------------------------------------------------------------------------------
# Metadata


def raw_json(value):
    if isinstance(value, (bytes, bytearray)):
        return {"base64": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return {"float": repr(value)}
    if isinstance(value, (bool, int)):
        return value
    return {"other": repr(value)}


def statistics(job):
    metadata = pq.ParquetFile(job["file"]).metadata
    key_value = {
        k.decode(): None if v is None else v.decode() for k, v in (metadata.metadata or {}).items()
    }
    groups = []
    for g in range(metadata.num_row_groups):
        group = metadata.row_group(g)
        columns = []
        for c in range(group.num_columns):
            chunk = group.column(c)
            entry = {
                "path": chunk.path_in_schema,
                "has_column_index": chunk.has_column_index,
                "has_offset_index": chunk.has_offset_index,
                "has_bloom_filter": chunk.bloom_filter_offset is not None,
                "statistics": None,
            }
            if chunk.is_stats_set:
                s = chunk.statistics
                entry["statistics"] = {
                    "has_min_max": s.has_min_max,
                    "min": raw_json(s.min_raw) if s.has_min_max else None,
                    "max": raw_json(s.max_raw) if s.has_min_max else None,
                    "null_count": s.null_count if s.has_null_count else None,
                    "distinct_count": s.distinct_count if s.has_distinct_count else None,
                }
            columns.append(entry)
        sorting = [
            [s.column_index, s.descending, s.nulls_first] for s in group.sorting_columns or ()
        ]
        groups.append({"num_rows": group.num_rows, "sorting_columns": sorting, "columns": columns})
    return {"key_value": key_value, "row_groups": groups}


def bloom_probes(job):
    con = duckdb.connect()
    out = []
    for column, value in job["bloom"]:
        query = "SELECT bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?) ORDER BY row_group_id"
        excluded = [row[0] for row in con.execute(query, [job["file"], column, value]).fetchall()]
        out.append([column, value, excluded])
    return out


# ---------------------------------------------------------------------------------------
# Jobs


def attempt(base, make):
    """Writes base.jsonl with the rows `make` returns, or base.error / base.fault."""
    try:
        text = "".join(dumps(row) + "\n" for row in make())
        suffix = ".jsonl"
    except Refused as refused:
        text, suffix = f"{refused}\n", ".error"
    except Exception:  # noqa: BLE001 - reported, and the next one tried
        text, suffix = traceback.format_exc(), ".fault"
    with open(base + suffix, "w", encoding="utf-8") as f:
        f.write(text)


def write_json(path, make):
    try:
        value = make()
    except Exception:  # noqa: BLE001 - reported as a fault
        with open(path + ".fault", "w", encoding="utf-8") as f:
            f.write(traceback.format_exc())
        return
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f)


def step(base, what):
    """Notes the step a job is at in base.step: when a peer aborts the process (Arrow C++
    calls std::terminate on some exceptions), the xtask tells which step it was."""
    with open(base + ".step", "w", encoding="utf-8") as f:
        f.write(what)


def run(job, out):
    name = os.path.basename(job["file"])
    base = os.path.join(out, name)
    for peer in job["peers"]:
        step(base, f"{peer} reading the rows")
        attempt(f"{base}.{peer}", lambda peer=peer: read(job, peer))
        for i, conjunction in enumerate(job.get("filters", [])):
            step(base, f"{peer} filtering by {conjunction}")
            attempt(
                f"{base}.filter-{i}.{peer}",
                lambda peer=peer, c=conjunction: filtered(job, peer, c),
            )
    if job.get("statistics"):
        step(base, "pyarrow reading the statistics")
        write_json(f"{base}.statistics.json", lambda: statistics(job))
    if job.get("bloom"):
        step(base, "DuckDB probing the Bloom filters")
        write_json(f"{base}.bloom.json", lambda: bloom_probes(job))
    step(base, "done")


def main(args):
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        jobs = json.load(f)
    os.makedirs(args[1], exist_ok=True)
    for job in jobs:
        run(job, args[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
