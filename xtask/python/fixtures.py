"""The fixtures of `cargo xtask interop`: Parquet files written by pyarrow, DuckDB and polars,
covering the encodings, codecs, data page versions, types and nesting shapes each of them can
write, with nulls everywhere.

    fixtures.py DIR

writes DIR/<writer>-<variant>.parquet, and DIR/encrypted.json for the encrypted fixtures:
{"<file>": {"reference": "<plaintext twin>", "args": [pqkit cat options]}}. Every value comes
from fixed seeds, so the files hold the same rows on every run of the same versions (and
the same bytes, but for the random nonces of the encrypted files).

Some DuckDB fixtures are files that pyarrow refuses; the xtask lists each of them, with
the reason, in EXPECTED_REFUSALS (xtask/src/interop.rs), and compares pqkit with the rows
DuckDB reads there.
"""

import datetime
import json
import os
import sys

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from values import ROWS, Values, first

# The keys of the encrypted fixtures, as the parquet-testing files use them.
FOOTER_KEY = b"0123456789012345"
COLUMN_KEY = b"1234567890123450"
COLUMN_KEY_2 = b"1234567890123451"


def hexed(key):
    return key.hex()


# ---------------------------------------------------------------------------------------
# pyarrow


def half_floats(values):
    with np.errstate(over="ignore"):  # beyond 65504 is infinity
        return [np.float16(x) for x in values]


def flat_table(seed):
    """One column per type pyarrow writes, with nulls; extremes in the first rows."""
    v = Values(seed)
    n = ROWS
    i64 = (-(2**63), 2**63 - 1)
    columns = {
        "bool": pa.array(v.nulls([bool(b) for b in v.rng.integers(0, 2, size=n)])),
        "int8": pa.array(v.nulls(v.ints(-128, 127)), pa.int8()),
        "int16": pa.array(v.nulls(v.ints(-(2**15), 2**15 - 1)), pa.int16()),
        "int32": pa.array(v.nulls(v.ints(-(2**31), 2**31 - 1)), pa.int32()),
        "int64": pa.array(v.nulls(v.ints(*i64)), pa.int64()),
        "uint8": pa.array(v.nulls(v.ints(0, 255)), pa.uint8()),
        "uint16": pa.array(v.nulls(v.ints(0, 2**16 - 1)), pa.uint16()),
        "uint32": pa.array(v.nulls(v.ints(0, 2**32 - 1)), pa.uint32()),
        "uint64": pa.array(v.nulls(v.ints(0, 2**64 - 1)), pa.uint64()),
        "float16": pa.array(v.nulls(half_floats(v.floats())), pa.float16()),
        "float32": pa.array(v.nulls(v.floats()), pa.float32()),
        "float64": pa.array(v.nulls(v.floats()), pa.float64()),
        "string": pa.array(v.nulls(v.strings()), pa.string()),
        "large_string": pa.array(v.nulls(v.strings()), pa.large_string()),
        "string_repeats": pa.array(v.nulls(v.repeats()), pa.string()),
        "binary": pa.array(v.nulls(v.blobs()), pa.binary()),
        "large_binary": pa.array(v.nulls(v.blobs()), pa.large_binary()),
        "fixed_binary": pa.array(v.nulls(v.blobs(width=5)), pa.binary(5)),
        "decimal_4_2": pa.array(v.nulls(v.decimals(4, 2)), pa.decimal128(4, 2)),
        "decimal_9_0": pa.array(v.nulls(v.decimals(9, 0)), pa.decimal128(9, 0)),
        "decimal_18_6": pa.array(v.nulls(v.decimals(18, 6)), pa.decimal128(18, 6)),
        "decimal_30_10": pa.array(v.nulls(v.decimals(30, 10)), pa.decimal128(30, 10)),
        "decimal_38_38": pa.array(v.nulls(v.decimals(38, 38)), pa.decimal128(38, 38)),
        # Days: 0001-01-01 .. 9999-12-31, and beyond either end.
        "date32": pa.array(
            v.nulls([-719162, 2932896, -1000000, 3000000, 0, -1] + v.ints(-800000, 3000000)[6:]),
            pa.date32(),
        ),
        "date64": pa.array(v.nulls([d * 86400000 for d in v.ints(-100000, 100000)]), pa.date64()),
        "time32_s": pa.array(v.nulls(v.ints(0, 86399)), pa.time32("s")),
        "time32_ms": pa.array(v.nulls(v.ints(0, 86399999)), pa.time32("ms")),
        "time64_us": pa.array(v.nulls(v.ints(0, 86399999999)), pa.time64("us")),
        "time64_ns": pa.array(v.nulls(v.ints(0, 86399999999999)), pa.time64("ns")),
        # Seconds to +-10^11 (years -1200 .. 5100), before and after the epoch.
        "timestamp_s": pa.array(v.nulls(v.ints(-(10**11), 10**11)), pa.timestamp("s")),
        "timestamp_ms": pa.array(v.nulls(v.ints(-(10**14), 10**14)), pa.timestamp("ms")),
        "timestamp_us": pa.array(v.nulls(v.ints(-(10**17), 10**17)), pa.timestamp("us")),
        "timestamp_ns": pa.array(v.nulls(v.ints(*i64)), pa.timestamp("ns")),
        "timestamp_ms_utc": pa.array(
            v.nulls(v.ints(-(10**14), 10**14)), pa.timestamp("ms", tz="UTC")
        ),
        "timestamp_us_zone": pa.array(
            v.nulls(v.ints(-(10**15), 10**15)), pa.timestamp("us", tz="America/New_York")
        ),
        "timestamp_ns_utc": pa.array(v.nulls(v.ints(*i64)), pa.timestamp("ns", tz="UTC")),
        "duration_us": pa.array(v.nulls(v.ints(*i64)), pa.duration("us")),
        "dictionary": pa.array(v.nulls(v.repeats()), pa.string()).dictionary_encode(),
        "null": pa.nulls(n),
    }
    uuids = pa.array(v.nulls(v.blobs(width=16)), pa.binary(16))
    columns["uuid"] = pa.ExtensionArray.from_storage(pa.uuid(), uuids)
    columns["json"] = pa.ExtensionArray.from_storage(
        pa.json_(), pa.array(v.nulls(['{"a": 1}', "[]", '"s"', "null"] * (n // 4)), pa.string())
    )
    return pa.table(columns)


def wide_decimal_table(seed):
    """DECIMALs wider than 128 bits (FIXED_LEN_BYTE_ARRAY of 17 to 32 bytes), kept out of
    the flat table so that a reader without them is still tested on everything else."""
    v = Values(seed)
    return pa.table(
        {
            f"decimal_{p}_{s}": pa.array(v.nulls(v.decimals(p, s)), pa.decimal256(p, s))
            for p, s in ((39, 0), (40, 20), (60, 5), (76, 38), (76, 0))
        }
    )


def nested_table(seed):
    """Lists, structs and maps, nested, with nulls at every level and empty lists."""
    v = Values(seed)
    n = ROWS

    def ints(k):
        return v.nulls(v.ints(-1000, 1000, k, extremes=False))

    def strings(k):
        return v.nulls(v.strings(k))

    def struct(k):
        return v.nulls([{"a": a, "b": b} for a, b in zip(ints(k), strings(k))], share=0.1)

    def pairs(k):
        keys = [f"k{j}" for j in range(k)]
        return list(zip(keys, ints(k)))

    struct_type = pa.struct([("a", pa.int32()), ("b", pa.string())])
    columns = {
        "list_int": pa.array(v.lists(ints), pa.list_(pa.int32())),
        "list_list_string": pa.array(
            v.lists(lambda k: v.lists(strings, k, longest=3)), pa.list_(pa.list_(pa.string()))
        ),
        "list_struct": pa.array(v.lists(struct), pa.list_(struct_type)),
        "struct_list": pa.array(
            v.nulls([{"x": x, "y": y} for x, y in zip(v.lists(ints), strings(n))]),
            pa.struct([("x", pa.list_(pa.int64())), ("y", pa.string())]),
        ),
        "struct_struct": pa.array(
            v.nulls(
                [
                    {"inner": None if i % 7 == 0 else {"z": z}, "w": w}
                    for i, (z, w) in enumerate(zip(v.nulls(v.floats()), ints(n)))
                ]
            ),
            pa.struct([("inner", pa.struct([("z", pa.float64())])), ("w", pa.int16())]),
        ),
        "map_string_int": pa.array(v.lists(pairs), pa.map_(pa.string(), pa.int32())),
        "map_int_list": pa.array(
            v.lists(lambda k: list(zip(range(k), v.lists(strings, k)))),
            pa.map_(pa.int32(), pa.list_(pa.string())),
        ),
        "list_map": pa.array(
            v.lists(lambda k: v.lists(pairs, k, longest=2)),
            pa.list_(pa.map_(pa.string(), pa.int32())),
        ),
        "large_list_int16": pa.array(v.lists(ints), pa.large_list(pa.int16())),
        "fixed_list_float": pa.array(
            [None if x is None else v.nulls(list(v.rng.normal(size=3))) for x in v.nulls([0] * n)],
            pa.list_(pa.float32(), 3),
        ),
        "list_not_null": pa.array(
            [[int(x) for x in v.ints(0, 9, k % 4, extremes=False)] for k in range(n)],
            pa.list_(pa.field("element", pa.int64(), nullable=False)),
        ),
        "list_timestamp": pa.array(
            v.lists(lambda k: v.nulls(v.ints(-(10**15), 10**15, k, extremes=False))),
            pa.list_(pa.timestamp("us", tz="UTC")),
        ),
        "list_decimal": pa.array(
            v.lists(lambda k: v.nulls(v.decimals(7, 3, k))), pa.list_(pa.decimal128(7, 3))
        ),
    }
    schema = pa.schema(
        [
            pa.field(name, array.type, nullable=name != "list_not_null")
            for name, array in columns.items()
        ]
    )
    return pa.table(columns, schema=schema)


def int96_julian_days_table(seed):
    """Timestamps whose INT96 Julian days span the whole 32 bits, where Spark's reading
    departs from the plain count: it takes the day as a signed int, and wraps the
    microseconds past 64 bits. pyarrow writes day (t // 86400000 + 2440588) mod 2^32, and
    the milliseconds of the day as nanoseconds. Not Julian day 0: pyarrow reads it as the
    epoch (`int96_julian_day_zero_table` has it)."""
    v = Values(seed)
    epoch = 2440588
    wrap = 2**63 // 86_400_000_000  # days from the epoch beyond which the microseconds wrap
    head = [1, -1, epoch - 1, epoch, epoch + 1, 2**31 - 1, -(2**31), -(2**31) + 1]
    head += [epoch + wrap, epoch + wrap + 1, epoch - wrap - 1, epoch - wrap - 2]
    days = first(v.ints(-(2**31), 2**31 - 1), head)
    if 0 in days:
        raise AssertionError("Julian day 0 among the INT96 days")
    millis = v.ints(0, 86_399_999)
    values = [(day - epoch) * 86_400_000 + ms for day, ms in zip(days, millis)]
    values = values[: len(head)] + v.nulls(values[len(head) :])
    return pa.table({"int96": pa.array(values, pa.timestamp("ms"))})


def int96_julian_day_zero_table():
    """INT96 timestamps of Julian day 0 (4714-11-24 BC, proleptic Gregorian), at a few
    times of the day, and a null: pyarrow reads each as the epoch; the rows are DuckDB's."""
    epoch = 2440588
    millis = [0, 1, 43_200_000, 86_399_999]
    values = [-epoch * 86_400_000 + ms for ms in millis] + [None]
    return pa.table({"int96": pa.array(values, pa.timestamp("ms"))})


def column_encodings(table, encoding):
    """The columns of `table` that `encoding` can encode, by their Parquet physical type."""
    parquet_schema = parquet_physical_types(table)
    fits = {
        "PLAIN": {
            "BOOLEAN",
            "INT32",
            "INT64",
            "INT96",
            "FLOAT",
            "DOUBLE",
            "BYTE_ARRAY",
            "FIXED_LEN_BYTE_ARRAY",
        },
        "DELTA_BINARY_PACKED": {"INT32", "INT64"},
        "DELTA_LENGTH_BYTE_ARRAY": {"BYTE_ARRAY"},
        "DELTA_BYTE_ARRAY": {"BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"},
        "BYTE_STREAM_SPLIT": {"INT32", "INT64", "FLOAT", "DOUBLE", "FIXED_LEN_BYTE_ARRAY"},
        "RLE": {"BOOLEAN"},
    }[encoding]
    return {path: encoding for path, physical in parquet_schema.items() if physical in fits}


def parquet_physical_types(table):
    """The physical type of each leaf column path, as pyarrow writes `table`."""
    sink = pa.BufferOutputStream()
    pq.write_table(table.slice(0, 1), sink, store_decimal_as_integer=True)
    schema = pq.ParquetFile(pa.BufferReader(sink.getvalue())).schema
    return {schema.column(i).path: schema.column(i).physical_type for i in range(len(schema))}


def write_pyarrow(out):
    flat = flat_table(1)
    nested = nested_table(2)
    # Columns pyarrow cannot write under every option: kept out of the encoding files.
    plain_flat = flat.drop_columns(["null", "dictionary"])
    written = []

    def write(name, table, **options):
        options.setdefault("store_decimal_as_integer", True)
        path = os.path.join(out, f"pyarrow-{name}.parquet")
        pq.write_table(table, path, **options)
        written.append(name)

    for version in ("1.0", "2.0"):
        v = version[0]
        for codec in ("none", "snappy", "gzip", "brotli", "zstd", "lz4"):
            write(f"flat-{codec}-v{v}", flat, compression=codec, data_page_version=version)
            write(f"nested-{codec}-v{v}", nested, compression=codec, data_page_version=version)
        for encoding in (
            "PLAIN",
            "DELTA_BINARY_PACKED",
            "DELTA_LENGTH_BYTE_ARRAY",
            "DELTA_BYTE_ARRAY",
            "BYTE_STREAM_SPLIT",
            "RLE",
        ):
            for label, table in (("flat", plain_flat), ("nested", nested)):
                write(
                    f"{label}-{encoding.lower()}-v{v}",
                    table,
                    use_dictionary=False,
                    column_encoding=column_encodings(table, encoding),
                    data_page_version=version,
                    compression="snappy",
                )
        # Many small pages, page index, checksums, several row groups, no statistics.
        for label, table in (("flat", flat), ("nested", nested)):
            write(
                f"{label}-small-pages-v{v}",
                table,
                data_page_size=256,
                write_batch_size=37,
                row_group_size=300,
                write_page_index=True,
                write_page_checksum=True,
                write_statistics=False,
                compression="zstd",
                data_page_version=version,
            )
            write(
                f"{label}-max-rows-per-page-v{v}",
                table,
                max_rows_per_page=10,
                write_page_checksum=True,
                data_page_version=version,
            )
        # A dictionary that overflows its page limit: pages fall back to PLAIN mid-chunk.
        write(
            f"flat-dictionary-fallback-v{v}",
            flat,
            dictionary_pagesize_limit=128,
            data_page_size=512,
            data_page_version=version,
        )
    # Format versions: 1.0 maps unsigned and nanosecond types to older annotations.
    for fmt in ("1.0", "2.4", "2.6"):
        write(
            f"flat-format-{fmt}",
            flat,
            version=fmt,
            coerce_timestamps=None if fmt == "2.6" else "us",
            allow_truncated_timestamps=True,
        )
    write("flat-decimals-as-flba", flat, store_decimal_as_integer=False)
    write("flat-no-arrow-schema", flat, store_schema=False)
    write("nested-no-arrow-schema", nested, store_schema=False)
    write("nested-legacy-list-names", nested, use_compliant_nested_type=False)
    write("flat-statistics-per-column", flat, write_statistics=["int32", "string", "float64"])
    write("flat-sorted", flat.sort_by("int64"), sorting_columns=[pq.SortingColumn(4)])
    write("flat-write-time-adjusted", flat, write_time_adjusted_to_utc=True)
    write(
        "flat-bloom-filters",
        flat,
        bloom_filter_options={"string": {"ndv": 1000, "fpp": 0.01}, "int64": True},
    )
    write("flat-content-defined-chunking", flat, use_content_defined_chunking=True)
    write("flat-zstd-level-19", flat, compression="zstd", compression_level=19)
    write("flat-gzip-level-9", flat, compression="gzip", compression_level=9)
    write("flat-brotli-level-11", flat, compression="brotli", compression_level=11)
    wide = wide_decimal_table(4)
    write("decimal256", wide)
    write(
        "decimal256-v2-byte-stream-split",
        wide,
        use_dictionary=False,
        data_page_version="2.0",
        column_encoding=column_encodings(wide, "BYTE_STREAM_SPLIT"),
    )
    # INT96 timestamps, also far from the epoch (the nanosecond count does not fit 64 bits).
    temporal = flat.select(
        ["timestamp_s", "timestamp_ms", "timestamp_us", "timestamp_ns", "timestamp_ms_utc"]
    )
    write("int96", temporal, use_deprecated_int96_timestamps=True)
    write("int96-v2", temporal, use_deprecated_int96_timestamps=True, data_page_version="2.0")
    write("int96-julian-days", int96_julian_days_table(5), use_deprecated_int96_timestamps=True)
    write("int96-julian-day-zero", int96_julian_day_zero_table(), use_deprecated_int96_timestamps=True)
    write(
        "timestamps-coerced-ms", temporal, coerce_timestamps="ms", allow_truncated_timestamps=True
    )
    write(
        "timestamps-coerced-us", temporal, coerce_timestamps="us", allow_truncated_timestamps=True
    )
    # Many row groups of one row, and an empty file.
    write("nested-row-group-per-row", nested.slice(0, 50), row_group_size=1)
    write("flat-empty", flat.slice(0, 0))
    write("nested-empty", nested.slice(0, 0))
    # One wide row: a long list and a long string.
    long = pa.table(
        {
            "long_list": pa.array([list(range(100000))], pa.list_(pa.int64())),
            "long_string": pa.array(["x" * 1000000]),
        }
    )
    write("long-values", long, data_page_size=4096)
    return len(written)


# ---------------------------------------------------------------------------------------
# DuckDB

# INTEGER and UINTEGER stay within 2^29 of zero here, and cover their whole range in
# DUCKDB_INT32_FULL_RANGE: DuckDB's PARQUET_VERSION V2 computes the DELTA_BINARY_PACKED
# deltas of INT32 in 64 bits, and writes a 33-bit minimum delta and miniblocks for values
# across the whole range, which pyarrow (the spec wraps deltas in 32 bits) refuses.
DUCKDB_FLAT = """
SELECT
    CASE WHEN h % 7 = 0 THEN NULL ELSE h % 2 = 0 END AS bool,
    CASE WHEN h % 9 = 0 THEN NULL ELSE (h % 256 - 128)::TINYINT END AS tinyint,
    CASE WHEN h % 8 = 0 THEN NULL ELSE (h % 65536 - 32768)::SMALLINT END AS smallint,
    CASE WHEN h % 6 = 0 THEN NULL ELSE (h % 1073741824 - 536870912)::INTEGER END AS integer,
    CASE WHEN h % 5 = 0 THEN NULL ELSE (h::HUGEINT * 2 - 9223372036854775807)::BIGINT END AS bigint,
    CASE WHEN h % 7 = 1 THEN NULL ELSE (h % 256)::UTINYINT END AS utinyint,
    CASE WHEN h % 7 = 2 THEN NULL ELSE (h % 65536)::USMALLINT END AS usmallint,
    CASE WHEN h % 7 = 3 THEN NULL ELSE (h % 536870912)::UINTEGER END AS uinteger,
    CASE WHEN h % 7 = 4 THEN NULL ELSE h::UBIGINT * 2 + 1 END AS ubigint,
    CASE WHEN h % 7 = 5 THEN NULL ELSE (h % 100000 / 7.0)::FLOAT END AS float,
    CASE WHEN h % 7 = 6 THEN NULL ELSE h % 100000 / 7.0 END AS double,
    CASE WHEN i = 1 THEN 'NaN'::DOUBLE WHEN i = 2 THEN 'inf'::DOUBLE
         WHEN i = 3 THEN '-inf'::DOUBLE ELSE -i / 3.0 END AS double_special,
    CASE WHEN h % 4 = 0 THEN NULL ELSE 'row ' || i || repeat('é', (h % 5)::INTEGER) END AS varchar,
    CASE WHEN h % 4 = 1 THEN NULL ELSE ['red', 'green', 'blue'][(h % 3 + 1)::INTEGER] END AS low_cardinality,
    CASE WHEN h % 4 = 2 THEN NULL ELSE ('\\x' || lpad(format('{:x}', h % 65536), 4, '0'))::BLOB END AS blob,
    CASE WHEN h % 5 = 1 THEN NULL ELSE (h % 9999 - 4999) / 100 END::DECIMAL(4, 2) AS decimal_4_2,
    CASE WHEN h % 5 = 2 THEN NULL ELSE (h % 999999999 - 499999999) / 1000 END::DECIMAL(9, 3) AS decimal_9_3,
    CASE WHEN h % 5 = 3 THEN NULL ELSE (h % 1999999999999999 - 999999999999999) / 1000000 END::DECIMAL(18, 6) AS decimal_18_6,
    CASE WHEN h % 5 = 4 THEN NULL ELSE (h::HUGEINT * h - 1000000000000000000000) / 10000000000 END::DECIMAL(38, 10) AS decimal_38_10,
    CASE WHEN h % 6 = 1 THEN NULL ELSE DATE '1970-01-01' + (h % 3000000 - 800000)::INTEGER END AS date,
    CASE WHEN h % 6 = 2 THEN NULL ELSE TIME '00:00:00' + to_microseconds(h % 86400000000) END AS time,
    CASE WHEN h % 6 = 3 THEN NULL ELSE make_timestamp(h % 200000000000000000 - 100000000000000000) END AS timestamp,
    CASE WHEN h % 6 = 4 THEN NULL ELSE make_timestamp(h % 200000000000000000 - 100000000000000000)::TIMESTAMP_S END AS timestamp_s,
    CASE WHEN h % 6 = 5 THEN NULL ELSE make_timestamp(h % 200000000000000000 - 100000000000000000)::TIMESTAMP_MS END AS timestamp_ms,
    CASE WHEN h % 6 = 0 THEN NULL ELSE make_timestamp_ns(h % 9000000000000000000 - 4500000000000000000) END AS timestamp_ns,
    CASE WHEN h % 7 = 0 THEN NULL ELSE make_timestamp(h % 200000000000000000 - 100000000000000000)::TIMESTAMPTZ END AS timestamptz,
    CASE WHEN h % 8 = 1 THEN NULL ELSE uuid_from_hash END AS uuid,
    CASE WHEN h % 8 = 2 THEN NULL ELSE ['a', 'b', 'c'][(h % 3 + 1)::INTEGER]::ENUM_ABC END AS enum,
    CASE WHEN h % 8 = 3 THEN NULL ELSE json_object('i', i, 'h', h % 100) END AS json
FROM (
    SELECT i, (hash(i * 7919 + 17) % 9223372036854775807)::BIGINT AS h,
        md5(i::VARCHAR)::UUID AS uuid_from_hash
    FROM range(1000) t(i)
)
"""

# The fixed-size INTEGER[3] is never NULL here, but is in DUCKDB_NULL_ARRAYS.
DUCKDB_NESTED = """
SELECT
    CASE WHEN h % 7 = 0 THEN NULL
         ELSE [CASE WHEN (h + j) % 5 = 0 THEN NULL ELSE (h + j) % 1000 END
               FOR j IN range((h % 5)::BIGINT)] END AS list_int,
    CASE WHEN h % 6 = 0 THEN NULL
         ELSE [CASE WHEN j = 1 THEN NULL ELSE ['s' || j, NULL, ''][1:(j % 4)::BIGINT] END
               FOR j IN range((h % 4)::BIGINT)] END AS list_list_varchar,
    CASE WHEN h % 5 = 0 THEN NULL
         ELSE {'a': CASE WHEN h % 3 = 0 THEN NULL ELSE h % 100 END,
               'b': [j FOR j IN range((h % 3)::BIGINT)],
               'c': {'d': CASE WHEN h % 4 = 0 THEN NULL ELSE 'x' || i END}} END AS struct_nested,
    CASE WHEN h % 4 = 0 THEN NULL
         ELSE [{'k': j, 'v': CASE WHEN j = 2 THEN NULL ELSE 'v' || j END}
               FOR j IN range((h % 4)::BIGINT)] END AS list_struct,
    CASE WHEN h % 6 = 1 THEN NULL
         ELSE map_from_entries([('key' || j, CASE WHEN j = 1 THEN NULL ELSE j * 10 END)
                                FOR j IN range((h % 4)::BIGINT)]) END AS map_varchar_int,
    CASE WHEN h % 6 = 2 THEN NULL
         ELSE map_from_entries([(j, [j, NULL]) FOR j IN range((h % 3)::BIGINT)]) END AS map_int_list,
    CASE WHEN h % 5 = 1 THEN NULL
         ELSE [((h % 100000 + j) / 7)::DECIMAL(9, 2) FOR j IN range((h % 3)::BIGINT)] END AS list_decimal,
    [h % 10, CASE WHEN h % 5 = 2 THEN NULL ELSE h % 100 END, NULL]::INTEGER[3] AS array_int
FROM (SELECT i, (hash(i * 7919 + 17) % 9223372036854775807)::BIGINT AS h FROM range(1000) t(i))
"""

# INTEGER and UINTEGER over their whole range: the extremes side by side in the first rows
# (deltas of -(2^32 - 1) and 2^32 - 1), then random values. With PARQUET_VERSION V2 DuckDB
# writes them in DELTA_BINARY_PACKED with a 33-bit minimum delta and 33-bit miniblocks.
DUCKDB_INT32_FULL_RANGE = """
SELECT
    i AS id,
    CASE WHEN i < 8 THEN [-2147483648, 2147483647, -2147483648, 0, 2147483647, 0, -1, 1][i + 1]
         WHEN h % 9 = 0 THEN NULL
         ELSE h % 4294967296 - 2147483648 END::INTEGER AS integer,
    CASE WHEN i < 8 THEN [0, 4294967295, 0, 2147483648, 2147483647, 4294967295, 1, 0][i + 1]
         WHEN h % 9 = 1 THEN NULL
         ELSE h // 9 % 4294967296 END::UINTEGER AS uinteger
FROM (SELECT i, (hash(i * 7919 + 17) % 9223372036854775807)::BIGINT AS h FROM range(1000) t(i))
"""

# NULL fixed-size arrays (DuckDB's ARRAY, a LIST in Parquet). DuckDB writes a NULL array of
# size n as n level entries, not one: the first with the repetition level of the array's
# place, the other n - 1 with the array's own repetition level, all with the definition
# level at which the array is NULL (rep 0, 1, 1 and def 0, 0, 0 for a NULL INTEGER[3] at the
# top), so n - 1 entries continue a list that is not there; nested arrays multiply them.
# pyarrow refuses such files ("Length spanned by list offsets (...) larger than values
# array"); DuckDB reads them back as written.
DUCKDB_NULL_ARRAYS = """
SELECT
    i AS id,
    CASE WHEN i = 1 OR h % 4 = 0 THEN NULL
         ELSE [h % 10, CASE WHEN h % 5 = 2 THEN NULL ELSE h % 100 END, NULL] END::INTEGER[3]
        AS array_int,
    CASE WHEN i = 2 OR h % 3 = 1 THEN NULL
         ELSE ['a' || i, CASE WHEN h % 2 = 0 THEN NULL ELSE '' END] END::VARCHAR[2] AS array_varchar
FROM (SELECT i, (hash(i * 7919 + 17) % 9223372036854775807)::BIGINT AS h FROM range(1000) t(i))
"""

# NULL fixed-size arrays inside lists, structs, arrays and map values.
DUCKDB_NULL_ARRAYS_NESTED = """
SELECT
    i AS id,
    CASE WHEN h % 7 = 0 THEN NULL
         ELSE [CASE WHEN (h + j) % 3 = 0 THEN NULL ELSE [j, h % 100]::INTEGER[2] END
               FOR j IN range((h % 4)::BIGINT)] END AS list_array,
    CASE WHEN h % 6 = 0 THEN NULL
         ELSE {'a': CASE WHEN h % 4 = 1 THEN NULL ELSE [i, NULL]::BIGINT[2] END, 'b': i} END
        AS struct_array,
    CASE WHEN h % 5 = 0 THEN NULL
         ELSE [CASE WHEN h % 3 = 0 THEN NULL ELSE [i, NULL] END, NULL]::INTEGER[2][2] END
        AS array_array,
    CASE WHEN h % 6 = 1 THEN NULL
         ELSE map_from_entries([(j, CASE WHEN j = 1 THEN NULL ELSE [j, j + 1]::INTEGER[2] END)
                                FOR j IN range((h % 3)::BIGINT)]) END AS map_array
FROM (SELECT i, (hash(i * 7919 + 17) % 9223372036854775807)::BIGINT AS h FROM range(1000) t(i))
"""

# The fixtures that DuckDB also writes encrypted, each with the same options as the plaintext
# fixture of the same name, its twin and reference.
DUCKDB_ENCRYPTED = (
    "flat-snappy-v1",
    "nested-snappy-v1",
    "flat-zstd-v2",
    "nested-zstd-v2",
    "flat-row-groups-v2",
)
DUCKDB_KEY_NAME = "footer"


def write_duckdb(out):
    con = duckdb.connect()
    con.execute("SET threads = 1")  # rows in the same order on every run
    con.execute("CREATE TYPE ENUM_ABC AS ENUM ('a', 'b', 'c')")
    made = {}  # name: (query, options)

    def write(path, query, options):
        settings = ", ".join(["FORMAT parquet"] + [f"{k} {v}" for k, v in options.items()])
        con.execute(f"COPY ({query}) TO '{path}' ({settings})")

    def copy(name, query, **options):
        path = os.path.join(out, f"duckdb-{name}.parquet")
        write(path, query, options)
        made[name] = (query, options)
        return path

    for version in ("V1", "V2"):
        for codec in ("uncompressed", "snappy", "gzip", "zstd", "brotli", "lz4"):
            suffix = f"{codec}-{version.lower()}"
            copy(f"flat-{suffix}", DUCKDB_FLAT, COMPRESSION=codec, PARQUET_VERSION=version)
            copy(f"nested-{suffix}", DUCKDB_NESTED, COMPRESSION=codec, PARQUET_VERSION=version)
        # 2048 rows, the smallest row group DuckDB writes.
        for label, query in (("flat", DUCKDB_FLAT), ("nested", DUCKDB_NESTED)):
            copy(
                f"{label}-row-groups-{version.lower()}",
                f"SELECT * FROM ({query}), range(5)",
                ROW_GROUP_SIZE=2048,
                PARQUET_VERSION=version,
            )
        # Files pyarrow refuses (the xtask lists them): DuckDB reads them back as written.
        for label, query in (
            ("int32-full-range", DUCKDB_INT32_FULL_RANGE),
            ("null-arrays", DUCKDB_NULL_ARRAYS),
            ("null-arrays-nested", DUCKDB_NULL_ARRAYS_NESTED),
        ):
            path = copy(f"{label}-{version.lower()}", query, PARQUET_VERSION=version)
            if not same_rows(con, f"read_parquet('{path}')", f"({query})"):
                raise AssertionError(f"DuckDB reads {path} back differently")
    copy("flat-no-dictionary", DUCKDB_FLAT, DICTIONARY_COMPRESSION_RATIO_THRESHOLD=-1)
    copy("flat-zstd-level-22", DUCKDB_FLAT, COMPRESSION="zstd", COMPRESSION_LEVEL=22)
    copy("flat-big-row-groups", f"SELECT * FROM ({DUCKDB_FLAT}), range(30)", ROW_GROUP_SIZE=10000)

    # Encrypted with the footer key, which encrypts every module. DuckDB writes no
    # aad_file_unique and authenticates every module with an empty AAD; arrow-rs refuses
    # such files ("AAD unique file identifier is not set"). Without httpfs, DuckDB writes
    # encrypted files only when told that its built-in crypto module may; its nonces are
    # random, so the ciphertext differs from run to run (the rows do not).
    con.execute("SET force_mbedtls_unsafe = 'true'")
    con.execute(f"PRAGMA add_parquet_key('{DUCKDB_KEY_NAME}', '{FOOTER_KEY.decode()}')")
    config = f"{{footer_key: '{DUCKDB_KEY_NAME}'}}"
    manifest = {}
    for twin in DUCKDB_ENCRYPTED:
        query, options = made[twin]
        name = f"duckdb-encrypted-{twin}.parquet.encrypted"
        path = os.path.join(out, name)
        write(path, query, dict(options, ENCRYPTION_CONFIG=config))
        manifest[name] = {
            "reference": f"duckdb-{twin}.parquet",
            "args": ["--footer-key", hexed(FOOTER_KEY)],
        }
        # A second reading must give the twin's rows, or the fixture proves nothing.
        twin_path = os.path.join(out, f"duckdb-{twin}.parquet")
        encrypted = f"read_parquet('{path}', encryption_config = {config}, file_row_number = true)"
        plain = f"read_parquet('{twin_path}', file_row_number = true)"
        if not same_rows(con, encrypted, plain):
            raise AssertionError(f"DuckDB reads {name} differently from its twin")
    return len(made) + len(manifest), manifest


def same_rows(con, a, b):
    """Whether the relations `a` and `b` (SQL) hold the same rows, as many times each; DuckDB
    compares NaN equal to NaN."""
    differences = f"(FROM {a} EXCEPT ALL FROM {b}) UNION ALL (FROM {b} EXCEPT ALL FROM {a})"
    return con.execute(f"SELECT count(*) FROM ({differences})").fetchone()[0] == 0


# ---------------------------------------------------------------------------------------
# polars


def polars_frame(seed):
    v = Values(seed)
    n = ROWS
    return pl.DataFrame(
        {
            "bool": pl.Series(
                v.nulls([bool(b) for b in v.rng.integers(0, 2, size=n)]), dtype=pl.Boolean
            ),
            "i8": pl.Series(v.nulls(v.ints(-128, 127)), dtype=pl.Int8),
            "i16": pl.Series(v.nulls(v.ints(-(2**15), 2**15 - 1)), dtype=pl.Int16),
            "i32": pl.Series(v.nulls(v.ints(-(2**31), 2**31 - 1)), dtype=pl.Int32),
            "i64": pl.Series(v.nulls(v.ints(-(2**63), 2**63 - 1)), dtype=pl.Int64),
            "u8": pl.Series(v.nulls(v.ints(0, 255)), dtype=pl.UInt8),
            "u16": pl.Series(v.nulls(v.ints(0, 2**16 - 1)), dtype=pl.UInt16),
            "u32": pl.Series(v.nulls(v.ints(0, 2**32 - 1)), dtype=pl.UInt32),
            "u64": pl.Series(v.nulls(v.ints(0, 2**64 - 1)), dtype=pl.UInt64),
            "f32": pl.Series(v.nulls(v.floats()), dtype=pl.Float32),
            "f64": pl.Series(v.nulls(v.floats()), dtype=pl.Float64),
            "str": pl.Series(v.nulls(v.strings()), dtype=pl.String),
            "categorical": pl.Series(v.nulls(v.repeats()), dtype=pl.Categorical),
            "enum": pl.Series(
                v.nulls([["lo", "mid", "hi"][k] for k in v.ints(0, 2)]),
                dtype=pl.Enum(["lo", "mid", "hi"]),
            ),
            "bin": pl.Series(v.nulls(v.blobs()), dtype=pl.Binary),
            "decimal": pl.Series(v.nulls(v.decimals(20, 4)), dtype=pl.Decimal(20, 4)),
            "date": pl.Series(
                v.nulls(
                    [
                        datetime.date(1970, 1, 1) + datetime.timedelta(days=d)
                        for d in v.ints(-719162, 2932896)
                    ]
                ),
                dtype=pl.Date,
            ),
            "time": pl.Series(
                v.nulls(
                    [
                        datetime.time(h, m, s, us)
                        for h, m, s, us in zip(
                            v.ints(0, 23), v.ints(0, 59), v.ints(0, 59), v.ints(0, 999999)
                        )
                    ]
                ),
                dtype=pl.Time,
            ),
            "datetime_ms": pl.Series(v.nulls(v.ints(-(10**14), 10**14)), dtype=pl.Int64).cast(
                pl.Datetime("ms")
            ),
            "datetime_us": pl.Series(v.nulls(v.ints(-(10**17), 10**17)), dtype=pl.Int64).cast(
                pl.Datetime("us")
            ),
            "datetime_ns": pl.Series(v.nulls(v.ints(-(2**63) + 1, 2**63 - 1)), dtype=pl.Int64).cast(
                pl.Datetime("ns")
            ),
            "datetime_us_utc": pl.Series(v.nulls(v.ints(-(10**17), 10**17)), dtype=pl.Int64).cast(
                pl.Datetime("us", "UTC")
            ),
            "datetime_ms_zone": pl.Series(v.nulls(v.ints(-(10**13), 10**13)), dtype=pl.Int64).cast(
                pl.Datetime("ms", "Europe/Paris")
            ),
            "duration": pl.Series(v.nulls(v.ints(-(10**15), 10**15)), dtype=pl.Int64).cast(
                pl.Duration("us")
            ),
            "list_i64": pl.Series(
                v.lists(lambda k: v.nulls(v.ints(-100, 100, k, extremes=False))),
                dtype=pl.List(pl.Int64),
            ),
            "list_list_str": pl.Series(
                v.lists(lambda k: v.lists(lambda j: v.nulls(v.strings(j)), k, longest=3)),
                dtype=pl.List(pl.List(pl.String)),
            ),
            "array_f64": pl.Series(
                [
                    None if x is None else v.nulls(list(v.rng.normal(size=2)))
                    for x in v.nulls([0] * n)
                ],
                dtype=pl.Array(pl.Float64, 2),
            ),
            "struct": pl.Series(
                v.nulls(
                    [
                        {"a": a, "b": b, "c": c}
                        for a, b, c in zip(
                            v.nulls(v.ints(0, 9)),
                            v.nulls(v.strings()),
                            v.lists(lambda k: v.nulls(v.ints(0, 9, k, extremes=False))),
                        )
                    ]
                ),
                dtype=pl.Struct({"a": pl.Int32, "b": pl.String, "c": pl.List(pl.Int8)}),
            ),
            "list_struct": pl.Series(
                v.lists(
                    lambda k: v.nulls(
                        [
                            {"x": x, "y": y}
                            for x, y in zip(v.nulls(v.floats(k)), v.nulls(v.strings(k)))
                        ],
                        share=0.1,
                    )
                ),
                dtype=pl.List(pl.Struct({"x": pl.Float32, "y": pl.String})),
            ),
        }
    )


def write_polars(out):
    frame = polars_frame(3)
    written = 0

    def write(name, df=frame, **options):
        nonlocal written
        path = os.path.join(out, f"polars-{name}.parquet")
        df.write_parquet(path, **options)
        written += 1
        return path

    for codec in ("uncompressed", "snappy", "gzip", "brotli", "zstd", "lz4"):
        write(codec, compression=codec)
    write("statistics-off", statistics=False)
    write("statistics-full", statistics="full")
    write("small-pages", data_page_size=512, row_group_size=128)
    write("one-row-group-per-10", row_group_size=10)
    write("zstd-level-22", compression="zstd", compression_level=22)
    write("via-pyarrow", use_pyarrow=True)
    write("empty", df=frame.head(0))

    # Encrypted, in each layout polars writes; the plaintext file is their reference.
    plain = os.path.basename(write("encryption-plaintext", compression="snappy"))
    manifest = {}
    keys = {"f64": COLUMN_KEY, "struct.c.list.element": COLUMN_KEY_2}
    column_args = []
    for column, key in keys.items():
        column_args += ["--column-key", f"{column}:{hexed(key)}"]
    footer_args = ["--footer-key", hexed(FOOTER_KEY)]
    layouts = {
        "uniform": ({}, footer_args),
        "columns-and-footer": (dict(column_keys=keys), footer_args + column_args),
        "plaintext-footer": (
            dict(column_keys=keys, plaintext_footer=True),
            footer_args + column_args,
        ),
        "aad-prefix-stored": (
            dict(column_keys=keys, aad_prefix=b"tester", store_aad_prefix=True),
            footer_args + column_args,
        ),
        "aad-prefix-supplied": (
            dict(column_keys=keys, aad_prefix=b"tester"),
            footer_args + column_args + ["--aad-prefix", "tester"],
        ),
    }
    for layout, (options, args) in layouts.items():
        name = f"polars-encrypted-{layout}.parquet.encrypted"
        frame.write_parquet(
            os.path.join(out, name),
            compression="snappy",
            encryption=pl.ParquetEncryptionProperties(footer_key=FOOTER_KEY, **options),
        )
        manifest[name] = {"reference": plain, "args": args}
        written += 1
        # A second reader must decrypt it to the same rows, or the fixture proves nothing.
        decryption = pl.ParquetDecryptionProperties(
            footer_key=FOOTER_KEY,
            column_keys=options.get("column_keys"),
            aad_prefix=None if options.get("store_aad_prefix") else options.get("aad_prefix"),
        )
        again = pl.read_parquet(os.path.join(out, name), decryption=decryption)
        if not again.equals(frame):
            raise AssertionError(f"polars reads {name} back differently")
    return written, manifest


def main(args):
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = args[0]
    os.makedirs(out, exist_ok=True)
    counts = {"pyarrow": write_pyarrow(out)}
    counts["duckdb"], manifest = write_duckdb(out)
    counts["polars"], polars_manifest = write_polars(out)
    manifest.update(polars_manifest)
    with open(os.path.join(out, "encrypted.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    print(
        "fixtures: "
        + ", ".join(f"{count} by {writer}" for writer, count in counts.items())
        + f" (pyarrow {pa.__version__}, duckdb {duckdb.__version__}, polars {pl.__version__})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
