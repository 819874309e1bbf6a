"""The ORC fixtures of `cargo xtask interop`: ORC files written by pyarrow.orc and pyorc (both
Apache ORC's C++ writer), covering both file versions (0.11 with integer RLE v1, 0.12 with
RLE v2; pyorc writes 0.12 only), every codec they write (NONE, ZLIB, SNAPPY, LZ4, ZSTD; LZO
neither), dictionary and direct strings, several stripes with a small row index stride,
Bloom filters, every ORC type (char, varchar, timestamp with local time zone and unions of
every shape by pyorc), nesting with nulls at every level, null-heavy and empty files.

    orc_fixtures.py DIR

writes DIR/<writer>-<variant>.orc, each writer in a process of its own (see main). Every value comes from fixed seeds, so the files hold the
same rows on every run of the same versions.

TIMESTAMP values are written as the wall clock in UTC (pyorc is given UTC, and the process
runs with TZ=UTC, as orc_rows.py reads them).
"""

import os
import time

os.environ["TZ"] = "UTC"
time.tzset()

import decimal  # noqa: E402 - after TZ
import math  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

from values import ROWS, Values, first  # noqa: E402

NULL_HEAVY = 0.9
CODECS = ("uncompressed", "zlib", "snappy", "lz4", "zstd")
NS = 10**9

# Nanoseconds since the epoch around the ways times before 1970 are stored: Apache ORC
# stores the seconds truncated toward zero, and readers take one second off when the
# nanoseconds are more than 999999 (so that the second before the epoch written by pyorc,
# floored, reads as the second after it); pyarrow hands Apache ORC negative nanoseconds
# for them, which readers add as signed. Whole seconds, sub-millisecond and larger
# fractions, and ORC's base second, 2015-01-01.
TIMESTAMP_HEAD = [
    -9 * 10**18,
    9 * 10**18,
    0,
    -1,
    -999_999,
    -1_000_000,
    -500_000_000,
    -NS,
    -NS - 1,
    -NS - 999_999,
    -NS - 1_000_000,
    -2 * NS + 1,
    -86_400 * NS * 365 * 100 - 123_456_789,
    1_420_070_400 * NS,
    1_420_070_400 * NS - 1,
    1_420_070_400 * NS + 1,
]
# The same from 1970 on: the files that pyarrow writes of the flat and nested tables have
# times before 1970 in pyarrow-timestamps-*.orc only (see write_pyarrow).
AFTER_1970_HEAD = [9 * 10**18, 0, 1, NS - 1, 1_420_070_400 * NS - 1, 1_420_070_400 * NS]
# Days: 0001-01-01 .. 9999-12-31, and beyond either end.
DATE_HEAD = [-719162, 2932896, -1000000, 3000000, 0, -1, -141427, -141428]


class Stamp:
    """A TIMESTAMP for pyorc: seconds and nanoseconds of the second (orc_rows' converter)."""

    def __init__(self, count):
        self.seconds, self.nanos = divmod(count, NS)


class Day:
    """A DATE for pyorc: days since 1970-01-01."""

    def __init__(self, days):
        self.days = days


class Unscaled:
    """A DECIMAL for pyorc: the unscaled integer."""

    def __init__(self, value, scale):
        self.unscaled = int(value.scaleb(scale, decimal.Context(prec=100)))


# ---------------------------------------------------------------------------------------
# Values


def decimals(v, precision, scale, n=ROWS):
    return v.decimals(precision, scale, n)


def timestamps(v, n=ROWS, head=TIMESTAMP_HEAD, low=-9 * 10**18):
    """`head`, then random values from `low` to 9e18 ns (the ends first when there is a head)."""
    return first(v.ints(low, 9 * 10**18, n, extremes=bool(head)), head)


def after_1970(v, n=ROWS, head=AFTER_1970_HEAD):
    return timestamps(v, n, head, low=0)


def is_tie(value):
    """Whether the float32 `value` has two shortest decimal forms, as -1361.90625 has
    (-1361.9062 and -1361.9063): numpy takes the even one, Rust's formatting the one away
    from zero. pyarrow-float-ties.orc has them; the other tables have none."""
    with np.errstate(over="ignore"):  # beyond 3.4e38 is infinity
        single = np.float32(value)
    if not math.isfinite(single) or single == 0:
        return False
    shortest = str(single).lstrip("-").split("e")[0].replace(".", "").strip("0")
    exact = str(decimal.Decimal(float(single))).lstrip("-").split("E")[0]
    exact = exact.replace(".", "").strip("0")
    return len(exact) == len(shortest) + 1 and exact.endswith("5")


def floats32(v, n=ROWS):
    """Values for float32 columns: v.floats(), each tie made the next float32 up."""
    return [
        float(np.nextafter(np.float32(x), np.float32(np.inf))) if is_tie(x) else x
        for x in v.floats(n)
    ]


def dates(v, n=ROWS):
    return first(v.ints(-800000, 3000000, n), DATE_HEAD)


# ---------------------------------------------------------------------------------------
# pyarrow


def flat_table(seed, nulls):
    """One column per ORC type pyarrow writes, with nulls; extremes in the first rows."""
    import pyarrow as pa

    v = Values(seed)
    n = ROWS

    def null(values):
        return v.nulls(values, nulls)

    high_cardinality = [f"{s}-{i}" for i, s in enumerate(v.strings())]
    columns = {
        "bool": pa.array(null([bool(b) for b in v.rng.integers(0, 2, size=n)])),
        "int8": pa.array(null(v.ints(-128, 127)), pa.int8()),
        "int16": pa.array(null(v.ints(-(2**15), 2**15 - 1)), pa.int16()),
        "int32": pa.array(null(v.ints(-(2**31), 2**31 - 1)), pa.int32()),
        "int64": pa.array(null(v.ints(-(2**63), 2**63 - 1)), pa.int64()),
        "small_int64": pa.array(null(v.ints(-100, 100)), pa.int64()),
        "float32": pa.array(null(floats32(v)), pa.float32()),
        "float64": pa.array(null(v.floats()), pa.float64()),
        "string": pa.array(null(v.strings()), pa.string()),
        "string_repeats": pa.array(null(v.repeats()), pa.string()),
        "string_unique": pa.array(null(high_cardinality), pa.string()),
        "large_string": pa.array(null(v.strings()), pa.large_string()),
        "binary": pa.array(null(v.blobs()), pa.binary()),
        "decimal_4_2": pa.array(null(decimals(v, 4, 2)), pa.decimal128(4, 2)),
        "decimal_9_0": pa.array(null(decimals(v, 9, 0)), pa.decimal128(9, 0)),
        "decimal_18_6": pa.array(null(decimals(v, 18, 6)), pa.decimal128(18, 6)),
        "decimal_30_10": pa.array(null(decimals(v, 30, 10)), pa.decimal128(30, 10)),
        "decimal_38_38": pa.array(null(decimals(v, 38, 38)), pa.decimal128(38, 38)),
        "date": pa.array(null(dates(v)), pa.date32()),
        "timestamp": pa.array(null(after_1970(v)), pa.timestamp("ns")),
        "timestamp_ms": pa.array(null(v.ints(0, 9 * 10**12)), pa.timestamp("ms")),
        "instant": pa.array(null(after_1970(v)), pa.timestamp("ns", tz="UTC")),
    }
    return pa.table(columns)


def nested_table(seed, nulls):
    """Lists, structs and maps, nested, with nulls at every level and empty lists."""
    import pyarrow as pa

    v = Values(seed)
    n = ROWS

    def null(values, share=nulls):
        return v.nulls(values, share)

    def ints(k):
        return null(v.ints(-1000, 1000, k, extremes=False))

    def strings(k):
        return null(v.strings(k))

    def struct(k):
        return null([{"a": a, "b": b} for a, b in zip(ints(k), strings(k))], share=nulls * 0.7)

    def pairs(k):
        return list(zip([f"k{j}" for j in range(k)], ints(k)))

    def lists(make, k=n, longest=5):
        return v.lists(make, k, longest, null_share=nulls)

    struct_type = pa.struct([("a", pa.int32()), ("b", pa.string())])
    columns = {
        "list_int": pa.array(lists(ints), pa.list_(pa.int32())),
        "list_list_string": pa.array(
            lists(lambda k: lists(strings, k, longest=3)), pa.list_(pa.list_(pa.string()))
        ),
        "list_struct": pa.array(lists(struct), pa.list_(struct_type)),
        "struct_list": pa.array(
            null([{"x": x, "y": y} for x, y in zip(lists(ints), strings(n))]),
            pa.struct([("x", pa.list_(pa.int64())), ("y", pa.string())]),
        ),
        "struct_struct": pa.array(
            null(
                [
                    {"inner": None if i % 7 == 0 else {"z": z}, "w": w}
                    for i, (z, w) in enumerate(zip(null(v.floats()), ints(n)))
                ]
            ),
            pa.struct([("inner", pa.struct([("z", pa.float64())])), ("w", pa.int16())]),
        ),
        "map_string_int": pa.array(lists(pairs), pa.map_(pa.string(), pa.int32())),
        "map_int_list": pa.array(
            lists(lambda k: list(zip(range(k), lists(strings, k)))),
            pa.map_(pa.int32(), pa.list_(pa.string())),
        ),
        "list_map": pa.array(
            lists(lambda k: lists(pairs, k, longest=2)),
            pa.list_(pa.map_(pa.string(), pa.int32())),
        ),
        "large_list_int16": pa.array(lists(ints), pa.large_list(pa.int16())),
        "list_timestamp": pa.array(
            lists(lambda k: null(after_1970(v, k, head=[]))), pa.list_(pa.timestamp("ns"))
        ),
        "list_decimal": pa.array(
            lists(lambda k: null(decimals(v, 7, 3, k))), pa.list_(pa.decimal128(7, 3))
        ),
        "list_date": pa.array(lists(lambda k: null(dates(v, k))), pa.list_(pa.date32())),
        "list_binary": pa.array(lists(lambda k: null(v.blobs(k))), pa.list_(pa.binary())),
    }
    return pa.table(columns)


def timestamp_table(seed):
    """Timestamps of the years 1685 to 2255, before 1970 too (see TIMESTAMP_HEAD)."""
    import pyarrow as pa

    v = Values(seed)
    return pa.table(
        {
            "timestamp": pa.array(v.nulls(timestamps(v)), pa.timestamp("ns")),
            "timestamp_ms": pa.array(
                v.nulls(v.ints(-9 * 10**12, 9 * 10**12)), pa.timestamp("ms")
            ),
            "instant": pa.array(v.nulls(timestamps(v)), pa.timestamp("ns", tz="UTC")),
            "list_timestamp": pa.array(
                v.lists(lambda k: v.nulls(timestamps(v, k, head=[]))),
                pa.list_(pa.timestamp("ns")),
            ),
        }
    )


def float_ties_table():
    """Floats with two shortest decimal forms (see is_tie), and their neighbours."""
    import pyarrow as pa

    ties32 = [43581 / 32, -43581 / 32, 32769 / 32, 39505 / 32, 43583 / 32, 0.15625, 3.0517578125e-05]
    ties64 = [1234567890123456.25, -1234567890123456.25, 1234567890123456.75]
    if not all(is_tie(x) for x in ties32[:4]):
        raise AssertionError("float32 values expected to be ties are not")
    f32 = ties32 + [float(np.nextafter(np.float32(x), np.float32(np.inf))) for x in ties32]
    f64 = (ties64 + [1.5, 0.1] * 10)[: len(f32)]
    return pa.table({"f32": pa.array(f32, pa.float32()), "f64": pa.array(f64, pa.float64())})


def union_table(seed):
    """Unions as pyarrow writes them: Arrow unions have no nulls of their own, so a null is
    always an alternative's (the union's tag is kept)."""
    import pyarrow as pa

    v = Values(seed)
    n = ROWS
    tags = [int(t) for t in v.rng.integers(0, 3, size=n)]
    sparse = pa.UnionArray.from_sparse(
        pa.array(tags, pa.int8()),
        [
            pa.array(v.nulls(v.ints(-(2**31), 2**31 - 1)), pa.int32()),
            pa.array(v.nulls(v.strings()), pa.string()),
            pa.array(v.nulls(v.floats()), pa.float64()),
        ],
    )
    dense_tags = [int(t) for t in v.rng.integers(0, 2, size=n)]
    offsets, counts = [], [0, 0]
    for t in dense_tags:
        offsets.append(counts[t])
        counts[t] += 1
    dense = pa.UnionArray.from_dense(
        pa.array(dense_tags, pa.int8()),
        pa.array(offsets, pa.int32()),
        [
            pa.array(v.nulls(v.ints(-100, 100, counts[0], extremes=False)), pa.int64()),
            pa.array(
                v.lists(lambda k: v.nulls(v.ints(0, 9, k, extremes=False)), counts[1]),
                pa.list_(pa.int32()),
            ),
        ],
    )
    in_struct = pa.StructArray.from_arrays(
        [dense, pa.array(v.ints(0, 9, n, extremes=False), pa.int32())], names=["u", "x"]
    )
    return pa.table({"sparse": sparse, "dense": dense, "struct_union": in_struct})


def write_pyarrow(out):
    import pyarrow.orc as po

    written = []

    def write(name, table, **options):
        po.write_table(table, os.path.join(out, f"pyarrow-{name}.orc"), **options)
        written.append(name)

    flat = flat_table(1, 0.15)
    nested = nested_table(2, 0.15)
    unions = union_table(3)
    for version in ("0.11", "0.12"):
        v = "v0" if version == "0.11" else "v1"
        for codec in CODECS:
            write(f"flat-{codec}-{v}", flat, file_version=version, compression=codec)
            write(f"nested-{codec}-{v}", nested, file_version=version, compression=codec)
        # Dictionary strings everywhere (threshold 1), and none (0, the default).
        for label, table in (("flat", flat), ("nested", nested)):
            write(
                f"{label}-dictionary-{v}",
                table,
                file_version=version,
                compression="zlib",
                dictionary_key_size_threshold=1,
            )
        write(f"flat-direct-{v}", flat, file_version=version, dictionary_key_size_threshold=0)
        write(f"unions-{v}", unions, file_version=version, compression="snappy")
        # Many stripes and row groups.
        for label, table in (("flat", flat), ("nested", nested)):
            write(
                f"{label}-stripes-{v}",
                table,
                file_version=version,
                compression="zstd",
                batch_size=64,
                stripe_size=4096,
                row_index_stride=100,
                dictionary_key_size_threshold=0.5,
            )
        write(f"flat-null-heavy-{v}", flat_table(4, NULL_HEAVY), file_version=version)
        write(f"nested-null-heavy-{v}", nested_table(5, NULL_HEAVY), file_version=version)
    write(
        "flat-bloom-filters",
        flat,
        compression="zlib",
        bloom_filter_columns=[0, 4, 8, 10],
        row_index_stride=128,
    )
    write("flat-compression-strategy", flat, compression="zlib", compression_strategy="compression")
    write("flat-empty", flat.slice(0, 0))
    write("nested-empty", nested.slice(0, 0))
    # Times before 1970 (pyarrow hands Apache ORC negative nanoseconds), and floats whose
    # shortest forms tie: apart, so that what they show does not hide the rest.
    stamps = timestamp_table(6)
    write("timestamps-v0", stamps, file_version="0.11", compression="zlib")
    write("timestamps-v1", stamps, file_version="0.12", compression="zlib")
    write("float-ties", float_ties_table())
    return len(written)


# ---------------------------------------------------------------------------------------
# pyorc

PYORC_FLAT = (
    "struct<bool:boolean,tinyint:tinyint,smallint:smallint,int:int,bigint:bigint,"
    "float:float,double:double,string:string,repeats:string,unique:string,char:char(5),"
    "varchar:varchar(8),binary:binary,date:date,timestamp:timestamp,"
    "instant:timestamp with local time zone,decimal_4_2:decimal(4,2),"
    "decimal_18_6:decimal(18,6),decimal_38_10:decimal(38,10),decimal_38_38:decimal(38,38)>"
)


def pyorc_flat(seed, nulls):
    v = Values(seed)
    n = ROWS

    def null(values):
        return v.nulls(values, nulls)

    columns = [
        null([bool(b) for b in v.rng.integers(0, 2, size=n)]),
        null(v.ints(-128, 127)),
        null(v.ints(-(2**15), 2**15 - 1)),
        null(v.ints(-(2**31), 2**31 - 1)),
        null(v.ints(-(2**63), 2**63 - 1)),
        null(floats32(v)),
        null(v.floats()),
        null(v.strings()),
        null(v.repeats()),
        null([f"{s}-{i}" for i, s in enumerate(v.strings())]),
        # char(5): shorter values padded with spaces, longer ones cut by the writer.
        null(v.strings()),
        null(v.strings()),
        null(v.blobs()),
        null([Day(d) for d in dates(v)]),
        null([Stamp(t) for t in timestamps(v)]),
        null([Stamp(t) for t in timestamps(v)]),
        null([Unscaled(d, 2) for d in decimals(v, 4, 2)]),
        null([Unscaled(d, 6) for d in decimals(v, 18, 6)]),
        null([Unscaled(d, 10) for d in decimals(v, 38, 10)]),
        null([Unscaled(d, 38) for d in decimals(v, 38, 38)]),
    ]
    return list(zip(*columns, strict=True))


PYORC_NESTED = (
    "struct<list_int:array<int>,list_list_string:array<array<string>>,"
    "list_struct:array<struct<a:int,b:string>>,struct_list:struct<x:array<bigint>,y:varchar(4)>,"
    "map_string_int:map<string,int>,map_int_list:map<int,array<string>>,"
    "list_map:array<map<string,int>>,list_char:array<char(3)>,map_date_timestamp:map<date,timestamp>,"
    "struct_struct:struct<inner:struct<z:double>,w:smallint>>"
)


def pyorc_nested(seed, nulls):
    v = Values(seed)
    n = ROWS

    def null(values, share=nulls):
        return v.nulls(values, share)

    def ints(k):
        return null(v.ints(-1000, 1000, k, extremes=False))

    def strings(k):
        return null(v.strings(k))

    def lists(make, k=n, longest=5):
        return v.lists(make, k, longest, null_share=nulls)

    def struct(k):
        return null([(a, b) for a, b in zip(ints(k), strings(k))], share=nulls * 0.7)

    def pairs(k):
        return {f"k{j}": x for j, x in enumerate(ints(k))}

    columns = [
        lists(ints),
        lists(lambda k: lists(strings, k, longest=3)),
        lists(struct),
        null([(x, y) for x, y in zip(lists(ints), strings(n))]),
        lists(pairs),
        lists(lambda k: dict(zip(range(k), lists(strings, k)))),
        lists(lambda k: lists(pairs, k, longest=2)),
        lists(strings),
        lists(
            lambda k: {
                Day(d): t
                for d, t in zip(
                    v.ints(-10000, 10000, k, extremes=False),
                    null([Stamp(t) for t in timestamps(v, k, head=[])]),
                )
            }
        ),
        null(
            [
                (None if i % 7 == 0 else (z,), w)
                for i, (z, w) in enumerate(zip(null(v.floats()), ints(n)))
            ]
        ),
    ]
    return list(zip(*columns, strict=True))


# pyorc writes a None union as a null union, and picks the alternative of any other value
# by trying each in turn: it cannot write an alternative holding null, and an alternative
# written through a converter (decimal, date, timestamp) must come last and after no list,
# and a map cannot be beside a list, since their errors are not taken for a value of another
# alternative. The unions nested in a list or
# struct hold no null, so that both readers can read them (see orc_rows.py).
PYORC_UNIONS = (
    "struct<u_null:uniontype<int,string,double>,"
    "u_rich:uniontype<boolean,binary,array<int>>,u_map:uniontype<string,map<string,int>>,"
    "u_timestamp:uniontype<string,timestamp>,u_decimal:uniontype<string,decimal(10,2)>,"
    "u_date:uniontype<bigint,date>,"
    "list_union:array<uniontype<int,string>>,struct_union:struct<u:uniontype<bigint,string>,x:int>>"
)


def pick(v, alternatives):
    """One value a row, from the alternative a random tag picks."""
    n = len(alternatives[0])
    tags = v.rng.integers(0, len(alternatives), size=n)
    return [alternatives[int(t)][i] for i, t in enumerate(tags)]


def pyorc_unions(seed):
    v = Values(seed)
    n = ROWS
    texts = v.strings()
    u_null = v.nulls(pick(v, [v.ints(-(2**31), 2**31 - 1), texts, v.floats()]))
    u_rich = v.nulls(
        pick(
            v,
            [
                [bool(b) for b in v.rng.integers(0, 2, size=n)],
                v.blobs(),
                v.lists(lambda k: v.nulls(v.ints(0, 99, k, extremes=False)), n, null_share=0),
            ],
        )
    )
    maps = v.lists(lambda k: {f"k{j}": j for j in range(k)}, n, null_share=0)
    u_map = v.nulls(pick(v, [texts, maps]))
    u_timestamp = v.nulls(pick(v, [texts, [Stamp(t) for t in timestamps(v)]]))
    u_decimal = v.nulls(pick(v, [texts, [Unscaled(d, 2) for d in decimals(v, 10, 2)]]))
    u_date = v.nulls(pick(v, [v.ints(-(2**63), 2**63 - 1), [Day(d) for d in dates(v)]]))
    small = v.ints(-100, 100, extremes=False)
    list_union = v.lists(
        lambda k: [small[int(j)] if j % 2 else texts[int(j)] for j in v.rng.integers(0, n, size=k)]
    )
    big = v.ints(-(2**63), 2**63 - 1)
    struct_union = v.nulls([(big[i] if i % 3 else texts[i], i) for i in range(n)])
    columns = (u_null, u_rich, u_map, u_timestamp, u_decimal, u_date, list_union, struct_union)
    return list(zip(*columns, strict=True))


def write_pyorc(out):
    import pyorc

    from orc_pyorc import CONVERTERS

    codecs = {
        "uncompressed": pyorc.CompressionKind.NONE,
        "zlib": pyorc.CompressionKind.ZLIB,
        "snappy": pyorc.CompressionKind.SNAPPY,
        "lz4": pyorc.CompressionKind.LZ4,
        "zstd": pyorc.CompressionKind.ZSTD,
    }
    written = []

    def write(name, schema, rows, **options):
        with open(os.path.join(out, f"pyorc-{name}.orc"), "wb") as f:
            writer = pyorc.Writer(f, schema, converters=CONVERTERS, **options)
            writer.writerows(rows)
            writer.close()
        written.append(name)

    flat = pyorc_flat(11, 0.15)
    nested = pyorc_nested(12, 0.15)
    for codec in CODECS:
        kind = codecs[codec]
        write(f"flat-{codec}", PYORC_FLAT, flat, compression=kind)
        write(f"nested-{codec}", PYORC_NESTED, nested, compression=kind)
    write("unions", PYORC_UNIONS, pyorc_unions(13), compression=pyorc.CompressionKind.ZLIB)
    write("flat-dictionary", PYORC_FLAT, flat, dict_key_size_threshold=1.0)
    write("nested-dictionary", PYORC_NESTED, nested, dict_key_size_threshold=1.0)
    write(
        "flat-stripes",
        PYORC_FLAT,
        flat,
        compression=pyorc.CompressionKind.SNAPPY,
        batch_size=50,
        stripe_size=4096,
        row_index_stride=100,
        compression_block_size=1024,
        memory_block_size=1024,
        dict_key_size_threshold=0.5,
        bloom_filter_columns=["int", "string", "timestamp"],
    )
    write("flat-null-heavy", PYORC_FLAT, pyorc_flat(14, NULL_HEAVY))
    write("nested-null-heavy", PYORC_NESTED, pyorc_nested(15, NULL_HEAVY))
    # Timestamps of the years 1 to 9999, beyond Arrow's 64-bit nanoseconds (1677 to 2262).
    wide = Values(16)
    seconds = first(wide.ints(-62135596800, 253402300799), [-62135596800, 253402300799])
    nanos = wide.ints(0, NS - 1)
    stamps = wide.nulls([Stamp(s * NS + ns) for s, ns in zip(seconds, nanos)])
    write(
        "timestamps-wide",
        "struct<timestamp:timestamp,instant:timestamp with local time zone>",
        list(zip(stamps, reversed(stamps))),
    )
    write("flat-empty", PYORC_FLAT, [])
    return len(written)


WRITERS = {"pyarrow": write_pyarrow, "pyorc": write_pyorc}


def version(writer):
    if writer == "pyarrow":
        import pyarrow

        return f"pyarrow {pyarrow.__version__}"
    import pyorc

    return f"pyorc {pyorc.__version__} (Apache ORC {pyorc.orc_version})"


def main(args):
    if len(args) == 3 and args[0] == "--writer" and args[1] in WRITERS:
        count = WRITERS[args[1]](args[2])
        print(f"orc fixtures: {count} by {version(args[1])}")
        return 0
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(args[0], exist_ok=True)
    # One process a writer: pyarrow and pyorc each bundle Apache ORC's C++ library, and
    # pyorc crashed writing in a process where pyarrow.orc had written. Even alone, pyorc
    # now and then dies of a segmentation fault closing the file of unions: the values are
    # the same on every run, so a writer that dies is run again.
    for writer in WRITERS:
        for attempt in range(1, 4):
            done = subprocess.run([sys.executable, __file__, "--writer", writer, args[0]])
            if done.returncode == 0:
                break
            if done.returncode > 0 or attempt == 3:
                raise subprocess.CalledProcessError(done.returncode, done.args)
            print(f"orc fixtures: {writer} died ({done.returncode}), writing again")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
