"""Apache Spark (pyspark: parquet-java and ORC Java) both ways, for `cargo xtask spark`.

    spark.py OUT [FILTER...]

One Spark session (local[2], 1 GiB of driver memory) does everything, in two phases:

1. Spark writes. A DataFrame of ROWS rows of every Spark type the rows contract covers
   (`table`) is written as Parquet and as ORC with the settings of PARQUET_FILES and
   ORC_FILES, each into `OUT/spark/<name>` (one file; `spark-default.parquet` always, the
   others when their name contains a FILTER or there is none). Each file is read back by
   Spark in the session time zone it was written in, and what Spark reads is its expected
   rows, `OUT/expected/<name>.jsonl`; `OUT/spark.json` lists the files with what each
   checks and what Spark recorded in it (key-value metadata, or ORC's writer time zone).
   Then the script prints WAITING and waits for a line on its standard input: meanwhile
   the xtask reads each file with pqkit, and writes with pqkit the files of phase 2.

2. Spark reads. `OUT/ours.json` lists the files pqkit wrote into `OUT/ours` (from
   `spark-default.parquet` and `spark-zlib.orc`): Spark reads each with its vectorized
   reader and without, all rows and with each filter of FILTERS pushed down (READS), into
   `OUT/read/<file>~<reader>[~<filter>].jsonl`; the rows expected of each filter,
   computed here from the expected rows of `spark-default.parquet`, go to
   `OUT/read/expected~<filter>.jsonl`; and `OUT/read.json` lists the reads, with the
   rows the file scan put out (what a filter did not skip) or what Spark said when it
   could not read the file.

Spark's values are mapped by the rows contract of DESIGN.md by their Spark type: an
instant (TimestampType) as UTC with `Z`, a TimestampNTZ without, six fraction digits, as
Spark holds them. Where the file holds them otherwise (INT96, TIMESTAMP(MILLIS), an ORC
`timestamp`, Spark's TimestampNTZ as an ORC bigint, LEGACY rebased dates), pqkit prints
them by the contract from what the file holds, and the xtask pins the difference
(`xtask/src/spark.rs`).

Exact values: Python's datetime holds neither every date Spark can (years before 1) nor
Spark's calendar (pyspark converts through the local time zone), and a map collected to
Python loses its order. So the DataFrame is made from integer counts and text
(`date_from_unix_date`, `timestamp_micros`, `cast('...' as timestamp_ntz)`, decimals and
floats by `cast`), and read back as integer counts that Spark computes in SQL:
`unix_date(date)` (days since 1970-01-01, proleptic Gregorian, as Spark 3+ counts them),
`unix_micros(timestamp)` (microseconds since the epoch, an instant: no time zone in it),
`timestampdiff(MICROSECOND, <epoch>, ntz)` for a TimestampNTZ, and `map_entries(map)`
(in the file's order). contract.py turns the counts into text, as it does for the other
peers; every date and TimestampNTZ is checked against Spark's own rendering
(`date_format` with a proleptic pattern, `yyyy-MM-dd` zero-padded to four digits). For
an ORC file, Spark also renders each instant as the wall clock of the writer's time zone
(`date_format` in that session time zone), which is what an ORC `timestamp` holds:
`OUT/expected/<name>.wall.jsonl`.

ORC Java takes the writer's time zone from the JVM's default time zone, not from
`spark.sql.session.timeZone`: the JVM starts in UTC, and for `spark-los-angeles.orc` the
script sets both the session time zone and the JVM's default time zone (through py4j:
in local mode the executors are that JVM) to America/Los_Angeles, and back.
"""

import contextlib
import decimal
import glob
import json
import os
import shutil
import sys
import time

from contract import (
    Object,
    base64_text,
    date_text,
    decimal_text,
    dumps,
    error_text,
    float_json,
    timestamp_text,
)

ROWS = 300
# The files pqkit converts and rewrites for phase 2: written whatever the filters.
SOURCES = ("spark-default.parquet", "spark-zlib.orc")
WAITING = "spark.py: waiting for the files pqkit writes"
LOS_ANGELES = "America/Los_Angeles"
SPARK_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSSSS"

# ---------------------------------------------------------------------------------------
# The table


def days(year, month, day):
    """Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def micros(year, month, day, hour=0, minute=0, second=0, fraction=0):
    return ((days(year, month, day) * 24 + hour) * 60 + minute) * 60_000_000 + (
        second * 1_000_000 + fraction
    )


FIRST_DAY = days(1, 1, 1)
LAST_DAY = days(9999, 12, 31)
# Dates and instants where calendars and time zones have their edges: year 1; the 12th
# century (Julian dates 7 days behind); the last Julian day and the first Gregorian day
# of 1582; Los Angeles on local mean time before 1883-11-18 20:00 UTC, and after; the
# second and the microsecond before the epoch; a daylight-saving change; the last day of
# year 9999.
SPECIAL_DAYS = [
    days(1, 1, 1),
    days(1172, 4, 11),
    days(1582, 10, 4),
    days(1582, 10, 15),
    days(1883, 11, 18),
    days(1969, 12, 31),
    days(1970, 1, 1),
    days(2000, 2, 29),
    days(9999, 12, 31),
]
SPECIAL_MICROS = [
    micros(1, 1, 1),
    micros(1172, 4, 11, 1, 2, 3, 123456),
    micros(1582, 10, 4, 23, 59, 59, 999999),
    micros(1582, 10, 15),
    micros(1850, 6, 1, 12, 0, 0, 500000),
    micros(1883, 11, 18, 19, 59, 59, 999999),
    micros(1883, 11, 18, 20),
    micros(1969, 12, 31, 23, 59, 59),
    micros(1969, 12, 31, 23, 59, 59, 999999),
    micros(1970, 1, 1),
    micros(1970, 1, 1, 0, 0, 0, 1),
    micros(2020, 3, 8, 10, 30),
    micros(9999, 12, 31, 23, 59, 59, 999999),
]
# The rows of special values, before any null.
SPECIALS = 16
# Days Spark's LEGACY rebase cannot keep: 1582-10-05 to 1582-10-14 are not dates of the
# hybrid calendar.
GAP = range(days(1582, 10, 5), days(1582, 10, 15))


DAY = 86_400_000_000


def spread_days(r):
    """The r-th date: the specials first, then a walk over the years 1 to 9999."""
    if r < len(SPECIAL_DAYS):
        return SPECIAL_DAYS[r]
    day = FIRST_DAY + r * 7_919_993 % (LAST_DAY - FIRST_DAY + 1)
    return day + 30 if day in GAP else day


def spread_micros(r):
    """The r-th instant: the specials first, then a walk over the years 1 to 9999."""
    if r < len(SPECIAL_MICROS):
        return SPECIAL_MICROS[r]
    value = FIRST_DAY * DAY + r * 7_919_993_377_123_457 % ((LAST_DAY + 1 - FIRST_DAY) * DAY)
    return value + 30 * DAY if value // DAY in GAP else value


def float_text(r, width):
    specials = ["nan", "inf", "-inf", "-0.0", "0.0"]
    specials += ["1.4e-45", "3.4028235e38", "1.17549435e-38"] if width == 32 else []
    specials += ["5e-324", "1.7976931348623157e308", "0.1"] if width == 64 else []
    if r < len(specials):
        return specials[r]
    return repr((r - 150) * 1.1 / 3 * (10 ** (r % 7)))


def decimal_value(r, precision, scale):
    top = 10**precision - 1
    specials = [top, -top, 0, 1, -1]
    unscaled = specials[r] if r < len(specials) else (r * 7_919_993_377_871 - 10**12) % top
    if r >= len(specials) and r % 2:
        unscaled = -unscaled
    return decimal_text(decimal.Decimal(f"{unscaled}E-{scale}"), scale)


STRINGS = ["", "ascii", "ünïcödé", "日本語", "emoji 🦀", 'quote " and \\ back', "tab\tnew\nline"]

# Column: (Spark type, how the raw column is made into it). The raw column is text or an
# integer count; the expression makes the Spark value of it, in no time zone.
COLUMNS = [
    ("b", "boolean", None),
    ("i8", "tinyint", None),
    ("i16", "smallint", None),
    ("i32", "int", None),
    ("i64", "bigint", None),
    ("f32", "float", "cast({} as float)"),
    ("f64", "double", "cast({} as double)"),
    ("d9", "decimal(9,2)", "cast({} as decimal(9,2))"),
    ("d18", "decimal(18,4)", "cast({} as decimal(18,4))"),
    ("d38", "decimal(38,10)", "cast({} as decimal(38,10))"),
    ("s", "string", None),
    ("bin", "binary", None),
    ("d", "date", "date_from_unix_date({})"),
    ("ts", "timestamp", "timestamp_micros({})"),
    ("ntz", "timestamp_ntz", "cast({} as timestamp_ntz)"),
    ("arr", "array<int>", None),
    ("m", "map<string,int>", None),
    ("st", "struct<a:int,b:string>", None),
]
RAW_TYPES = {
    "f32": "string",
    "f64": "string",
    "d9": "string",
    "d18": "string",
    "d38": "string",
    "d": "int",
    "ts": "bigint",
    "ntz": "string",
}


def raw_row(r):
    """Row r of the table, as the raw columns: the special values first, in every column;
    then in each column one row in seven null (a different one for each column); the
    last row null in every column."""
    values = {
        "b": r % 3 == 0,
        "i8": [-128, 127, 0][r] if r < 3 else (r * 37) % 256 - 128,
        "i16": [-32768, 32767, 0][r] if r < 3 else (r * 1237) % 65536 - 32768,
        # Rising with r, so that a filter pushed down skips row groups and pages.
        "i32": [-(2**31), 2**31 - 1][r] if r < 2 else r * 10_007 - 1_500_000,
        "i64": [-(2**63), 2**63 - 1, 0][r] if r < 3 else (r * 123_456_789_012_345) - 2**62,
        "f32": float_text(r, 32),
        "f64": float_text(r, 64),
        "d9": decimal_value(r, 9, 2),
        "d18": decimal_value(r, 18, 4),
        "d38": decimal_value(r, 38, 10),
        "s": STRINGS[r] if r < len(STRINGS) else f"row {r} " + "xyzäö"[: r % 6] * (r % 4),
        "bin": bytes([(r * 7 + i) % 256 for i in range(r % 11)]) if r != 2 else b"\x00\xff",
        "d": spread_days(r),
        "ts": spread_micros(r),
        # The special instants' wall clocks, then other ones.
        "ntz": timestamp_text(spread_micros(r if r < SPECIALS else r + ROWS), "us", False),
        "arr": [[], [1, None, 3], [None]][r % 3] if r < 9 else [r + i for i in range(r % 5)],
        "m": [{}, {"a": 1, "日本": None}][r % 2] if r < 4 else {f"k{i}": r * i for i in range(r % 4)},
        "st": (None, None) if r == 3 else (r, f"s{r}" if r % 5 else None),
    }
    for k, (name, _, _) in enumerate(COLUMNS):
        if r == ROWS - 1 or (r >= SPECIALS and (r + k) % 7 == 0):
            values[name] = None
    return tuple(values[name] for name, _, _ in COLUMNS)


def table(spark):
    """The DataFrame of ROWS rows, in one partition."""
    raw_schema = ", ".join(
        f"{name} {RAW_TYPES.get(name, spark_type)}" for name, spark_type, _ in COLUMNS
    )
    raw = spark.createDataFrame([raw_row(r) for r in range(ROWS)], raw_schema).coalesce(1)
    return raw.selectExpr(
        *[
            f"{make.format(name)} as {name}" if make else name
            for name, _, make in COLUMNS
        ]
    )


# ---------------------------------------------------------------------------------------
# Rows by the contract


EPOCH_NTZ = "timestamp_ntz'1970-01-01 00:00:00'"
EXACT = decimal.Context(prec=100)


def read_back(spark, frame, writer_zone=None):
    """The rows of `frame` by the rows contract (a list of Objects); with `writer_zone`,
    each instant's wall clock in that zone, as Spark renders it (a list of Objects of the
    timestamp columns); and the rows that the file scan put out (after skipping row
    groups, pages or ORC row groups by a filter pushed down, before filtering rows)."""
    fields = frame.schema.fields
    select, checks, walls = [], [], []
    for field in fields:
        name, kind = f"`{field.name}`", field.dataType.typeName()
        if kind == "date":
            select.append(f"unix_date({name})")
            checks.append((field.name, f"date_format({name}, 'yyyy-MM-dd')"))
        elif kind == "timestamp":
            select.append(f"unix_micros({name})")
            walls.append((field.name, f"date_format({name}, \"{SPARK_FORMAT}\")"))
        elif kind == "timestamp_ntz":
            select.append(f"timestampdiff(MICROSECOND, {EPOCH_NTZ}, {name})")
            checks.append((field.name, f"date_format({name}, \"{SPARK_FORMAT}\")"))
        elif kind == "map":
            select.append(f"map_entries({name})")
        else:
            if any(t in field.dataType.simpleString() for t in ("date", "timestamp")):
                raise TypeError(f"{field.name}: a {field.dataType.simpleString()} nests a date")
            select.append(name)
    select += [expression for _, expression in checks]
    projected = frame.selectExpr(*select)
    rows = projected.collect()
    out = []
    for row in rows:
        values = [value_json(f.dataType, v) for f, v in zip(fields, row[: len(fields)])]
        out.append(Object(zip([f.name for f in fields], values, strict=True)))
        for (name, _), spark_text in zip(checks, row[len(fields) :], strict=True):
            ours = dict(out[-1])[name]
            if spark_text is not None and ours not in (spark_text, spark_text + "Z"):
                raise ValueError(f"{name}: Spark renders {spark_text}, contract.py {ours}")
    wall = None
    if writer_zone is not None and walls:
        with session_zone(spark, writer_zone):
            rendered = frame.selectExpr(*[expression for _, expression in walls]).collect()
        wall = [Object(zip([n for n, _ in walls], row, strict=True)) for row in rendered]
    return out, wall, scanned(projected)


def scanned(frame):
    """The rows put out by the file scans of `frame`'s executed plan (its numOutputRows)."""
    leaves = frame._jdf.queryExecution().executedPlan().collectLeaves()
    total = 0
    for i in range(leaves.size()):
        metrics = leaves.apply(i).metrics()
        if metrics.contains("numOutputRows"):
            total += metrics.apply("numOutputRows").value()
    return total


def value_json(data_type, value):
    """A value that Spark collected (or a count that read_back made) by the contract."""
    if value is None:
        return None
    kind = data_type.typeName()
    if kind in ("boolean", "byte", "short", "integer", "long", "string"):
        return value
    if kind == "float":
        return float_json(value, 32)
    if kind == "double":
        return float_json(value, 64)
    if kind == "decimal":
        # pyspark may hand over more fraction digits than the scale, all zeros
        # (Decimal('1.00E-10') for 0.0000000001 of a decimal(38,10)).
        exact = value.quantize(decimal.Decimal(1).scaleb(-data_type.scale), context=EXACT)
        if exact != value:
            raise ValueError(f"{value} has more than {data_type.scale} fraction digits")
        return decimal_text(exact, data_type.scale)
    if kind == "binary":
        return base64_text(bytes(value))
    if kind == "date":
        return date_text(value)
    if kind == "timestamp":
        return timestamp_text(value, "us", True)
    if kind == "timestamp_ntz":
        return timestamp_text(value, "us", False)
    if kind == "array":
        return [value_json(data_type.elementType, v) for v in value]
    if kind == "map":
        return [
            Object(
                [
                    ("key", value_json(data_type.keyType, entry[0])),
                    ("value", value_json(data_type.valueType, entry[1])),
                ]
            )
            for entry in value
        ]
    if kind == "struct":
        return Object(
            (f.name, value_json(f.dataType, v))
            for f, v in zip(data_type.fields, value, strict=True)
        )
    raise TypeError(f"no contract mapping for {data_type.simpleString()}")


def write_rows(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(dumps(row) + "\n" for row in rows)


# ---------------------------------------------------------------------------------------
# Phase 1: Spark writes

# name: (what it checks, session settings, writer options). Every Parquet file but the
# LEGACY ones is written with datetimeRebaseModeInWrite and int96RebaseModeInWrite
# CORRECTED (proleptic Gregorian, Spark 4's default).
PARQUET_FILES = {
    "spark-default.parquet": ("snappy; Spark's default outputTimestampType, INT96", {}, {}),
    "spark-timestamp-micros.parquet": (
        "TIMESTAMP(MICROS, true)",
        {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS"},
        {},
    ),
    "spark-timestamp-millis.parquet": (
        "TIMESTAMP(MILLIS, true): Spark drops the microseconds",
        {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MILLIS"},
        {},
    ),
    "spark-legacy-format.parquet": (
        "writeLegacyFormat: decimals as FIXED_LEN_BYTE_ARRAY, 3-level lists of `bag` and "
        "`array`",
        {"spark.sql.parquet.writeLegacyFormat": "true"},
        {},
    ),
    "spark-v2.parquet": (
        "parquet.writer.version v2: DATA_PAGE_V2, delta encodings",
        {},
        {"parquet.writer.version": "v2"},
    ),
    "spark-v2-zstd.parquet": (
        "v2 pages, zstd",
        {},
        {"parquet.writer.version": "v2", "compression": "zstd"},
    ),
    "spark-uncompressed.parquet": ("codec none", {}, {"compression": "none"}),
    "spark-gzip.parquet": ("codec gzip", {}, {"compression": "gzip"}),
    "spark-zstd.parquet": ("codec zstd", {}, {"compression": "zstd"}),
    "spark-lz4raw.parquet": ("codec LZ4_RAW", {}, {"compression": "lz4_raw"}),
    "spark-lz4.parquet": ("codec LZ4 (Hadoop's framing)", {}, {"compression": "lz4"}),
    "spark-no-dictionary.parquet": (
        "no dictionary pages",
        {},
        {"parquet.enable.dictionary": "false"},
    ),
    "spark-small-pages.parquet": (
        "row groups and pages of a few rows",
        {},
        {
            "parquet.block.size": "4096",
            "parquet.block.size.row.check.min": "10",
            "parquet.block.size.row.check.max": "10",
            "parquet.page.size": "512",
            "parquet.page.row.count.limit": "20",
            "parquet.page.size.row.check.min": "5",
        },
    ),
    "spark-bloom.parquet": (
        "Bloom filters on i32 and s",
        {},
        {"parquet.bloom.filter.enabled#i32": "true", "parquet.bloom.filter.enabled#s": "true"},
    ),
    "spark-legacy-rebase.parquet": (
        "datetimeRebaseModeInWrite LEGACY: dates and TIMESTAMP(MICROS) in the hybrid "
        "Julian/Gregorian calendar",
        {
            "spark.sql.parquet.datetimeRebaseModeInWrite": "LEGACY",
            "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS",
        },
        {},
    ),
    "spark-legacy-int96.parquet": (
        "int96RebaseModeInWrite and datetimeRebaseModeInWrite LEGACY: dates and INT96 in "
        "the hybrid calendar",
        {
            "spark.sql.parquet.datetimeRebaseModeInWrite": "LEGACY",
            "spark.sql.parquet.int96RebaseModeInWrite": "LEGACY",
        },
        {},
    ),
}

ORC_FILES = {
    "spark-none.orc": ("codec none", {}, {"compression": "none"}),
    "spark-snappy.orc": ("codec snappy", {}, {"compression": "snappy"}),
    "spark-zlib.orc": ("codec zlib", {}, {"compression": "zlib"}),
    "spark-zstd.orc": ("codec zstd (Spark's default)", {}, {}),
    "spark-lz4.orc": ("codec lz4", {}, {"compression": "lz4"}),
    "spark-lzo.orc": ("codec lzo", {}, {"compression": "lzo"}),
    "spark-hive11.orc": (
        "orc.write.format 0.11: Hive 0.11's file version, RLE version 1",
        {},
        {"orc.write.format": "0.11"},
    ),
    "spark-los-angeles.orc": (
        "writer time zone America/Los_Angeles (session and JVM), zlib",
        {"spark.sql.session.timeZone": LOS_ANGELES},
        {"compression": "zlib"},
    ),
    "spark-bloom.orc": (
        "Bloom filters on i32 and s",
        {},
        {"orc.bloom.filter.columns": "i32,s"},
    ),
    "spark-small-stripes.orc": (
        "orc.stripe.row.count 100 (one stripe all the same: ORC Java ends a stripe only "
        "after a row batch, and Spark's record writer hands it batches of 1024 rows)",
        {},
        {"orc.stripe.row.count": "100"},
    ),
}


@contextlib.contextmanager
def session_conf(spark, settings):
    """The session settings, then what they were."""
    before = {key: spark.conf.get(key, None) for key in settings}
    zone = settings.get("spark.sql.session.timeZone")
    jvm_zone = spark._jvm.java.util.TimeZone
    default_zone = jvm_zone.getDefault()
    for key, value in settings.items():
        spark.conf.set(key, value)
    if zone is not None:
        jvm_zone.setDefault(jvm_zone.getTimeZone(zone))
    try:
        yield
    finally:
        for key, value in before.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)
        jvm_zone.setDefault(default_zone)


def session_zone(spark, zone):
    return session_conf(spark, {"spark.sql.session.timeZone": zone})


def write_one(spark, frame, kind, name, options, out):
    """Writes `frame` with Spark as the one file `out/spark/name`."""
    directory = os.path.join(out, "tmp", name)
    writer = frame.write.mode("overwrite")
    for key, value in options.items():
        writer = writer.option(key, value)
    getattr(writer, kind)(directory)
    parts = glob.glob(os.path.join(directory, f"part-*.{kind}"))
    if len(parts) != 1:
        raise ValueError(f"{name}: Spark wrote {len(parts)} part files")
    path = os.path.join(out, "spark", name)
    shutil.move(parts[0], path)
    shutil.rmtree(directory)
    return path


def spark_metadata(spark, kind, path):
    """What Spark (parquet-java, ORC Java) records in the file about its values: the
    Parquet key-value metadata but Spark's schema, or ORC's calendar and writer zone."""
    jvm = spark._jvm
    conf = spark._jsc.hadoopConfiguration()
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    if kind == "parquet":
        hadoop = jvm.org.apache.parquet.hadoop
        reader = hadoop.ParquetFileReader.open(hadoop.util.HadoopInputFile.fromPath(hadoop_path, conf))
        try:
            metadata = reader.getFooter().getFileMetaData().getKeyValueMetaData()
            return {
                key: metadata.get(key)
                for key in sorted(metadata.keySet())
                if key != "org.apache.spark.sql.parquet.row.metadata"
            }
        finally:
            reader.close()
    orc = jvm.org.apache.orc
    reader = orc.OrcFile.createReader(hadoop_path, orc.OrcFile.readerOptions(conf))
    rows = reader.rows()
    try:
        stripe = rows.readStripeFooter(reader.getStripes().get(0))
        return {
            "file version": reader.getFileVersion().getName(),
            "calendar": "proleptic Gregorian"
            if reader.writerUsedProlepticGregorian()
            else "hybrid Julian/Gregorian",
            "writer time zone": stripe.getWriterTimezone(),
        }
    finally:
        rows.close()
        reader.close()


def phase_one(spark, out, filters):
    for sub in ("spark", "expected", "tmp"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
        os.makedirs(os.path.join(out, sub))
    frame = table(spark)
    files = []
    for kind, listed in (("parquet", PARQUET_FILES), ("orc", ORC_FILES)):
        for name, (checks, settings, options) in listed.items():
            wanted = not filters or any(f in name for f in filters)
            if not wanted and name not in SOURCES:
                continue
            started = time.monotonic()
            entry = {"file": name, "checks": checks, "settings": settings, "options": options}
            try:
                with session_conf(spark, settings):
                    path = write_one(spark, frame, kind, name, options, out)
                    zone = spark.conf.get("spark.sql.session.timeZone")
                    rows, wall, _ = read_back(
                        spark, getattr(spark.read, kind)(path), zone if kind == "orc" else None
                    )
                entry["metadata"] = spark_metadata(spark, kind, path)
                write_rows(os.path.join(out, "expected", name + ".jsonl"), rows)
                if wall is not None:
                    write_rows(os.path.join(out, "expected", name + ".wall.jsonl"), wall)
            except Exception as error:  # noqa: BLE001 - reported by the xtask
                entry["error"] = spark_error(error)
            files.append(entry)
            print(f"spark.py: {name} in {time.monotonic() - started:.1f} s", flush=True)
    shutil.rmtree(os.path.join(out, "tmp"), ignore_errors=True)
    with open(os.path.join(out, "spark.json"), "w", encoding="utf-8") as f:
        json.dump({"spark": spark.version, "files": files}, f, indent=1, ensure_ascii=False)


# ---------------------------------------------------------------------------------------
# Phase 2: Spark reads

# The filters Spark pushes down, and the same in Python on the expected rows (by the
# contract: an int, a date as "YYYY-MM-DD", which orders as the dates do, and a string).
# The ranges let a reader skip row groups, pages and ORC row groups by their statistics;
# the values, pages by the column index; the values that no row holds (between the
# least and the greatest), row groups by their Bloom filters.
FILTERS = {
    "i32": ("i32 >= 1000000", lambda row: row["i32"] is not None and row["i32"] >= 1_000_000),
    "date": ("d >= date'1900-01-01'", lambda row: row["d"] is not None and row["d"] >= "1900-01-01"),
    "i32-value": ("i32 = -1479986", lambda row: row["i32"] == -1_479_986),
    "s-value": ("s = '日本語'", lambda row: row["s"] == "日本語"),
    "i32-absent": ("i32 = 12345", lambda row: row["i32"] == 12_345),
    "s-absent": ("s = 'absent'", lambda row: row["s"] == "absent"),
}
# How Spark reads each file we write: with its vectorized reader and without, all rows
# and with each filter.
READS = [
    (reader, key) for key in (None, *FILTERS) for reader in ("vectorized", "row-based")
]


def reader_settings(kind, vectorized):
    """Spark's reader of `kind`, vectorized or not, with filters pushed down. (Parquet
    dates and timestamps of a writer other than Spark are read as proleptic Gregorian:
    datetimeRebaseModeInRead and int96RebaseModeInRead are CORRECTED by default in
    Spark 4.)"""
    return {
        f"spark.sql.{kind}.enableVectorizedReader": "true" if vectorized else "false",
        f"spark.sql.{kind}.filterPushdown": "true",
    }


def phase_two(spark, out):
    with open(os.path.join(out, "ours.json"), encoding="utf-8") as f:
        ours = json.load(f)
    read_dir = os.path.join(out, "read")
    shutil.rmtree(read_dir, ignore_errors=True)
    os.makedirs(read_dir)
    with open(os.path.join(out, "expected", "spark-default.parquet.jsonl"), encoding="utf-8") as f:
        expected = f.readlines()
    for key, (_, keep) in FILTERS.items():
        with open(os.path.join(read_dir, f"expected~{key}.jsonl"), "w", encoding="utf-8") as f:
            f.writelines(line for line in expected if keep(json.loads(line)))
    reads = []
    for name in ours["files"]:
        started = time.monotonic()
        kind = "orc" if name.endswith(".orc") else "parquet"
        path = os.path.join(out, "ours", name)
        for reader, filtered in READS:
            entry = {"file": name, "reader": reader, "filter": None}
            base = os.path.join(read_dir, f"{name}~{reader}" + (f"~{filtered}" if filtered else ""))
            try:
                with session_conf(spark, reader_settings(kind, reader == "vectorized")):
                    frame = getattr(spark.read, kind)(path)
                    if filtered is not None:
                        entry["filter"] = FILTERS[filtered][0]
                        entry["expected"] = f"expected~{filtered}.jsonl"
                        frame = frame.where(FILTERS[filtered][0])
                    rows, _, entry["scanned"] = read_back(spark, frame)
                write_rows(base + ".jsonl", rows)
                entry["rows"] = os.path.basename(base) + ".jsonl"
            except Exception as error:  # noqa: BLE001 - reported by the xtask
                entry["error"] = spark_error(error)
            reads.append(entry)
        print(f"spark.py: read {name} in {time.monotonic() - started:.1f} s", flush=True)
    with open(os.path.join(out, "read.json"), "w", encoding="utf-8") as f:
        json.dump(reads, f, indent=1, ensure_ascii=False)


def spark_error(error):
    """The first line of what Spark said, without the JVM's stack."""
    text = error_text(error)
    return text.split(" at org.apache")[0][:1000]


# ---------------------------------------------------------------------------------------


def session(out):
    """The Spark session, its JVM in UTC, logging only errors (and pyspark not logging
    the errors that this script reports itself)."""
    from pyspark.logger import PySparkLogger
    from pyspark.sql import SparkSession

    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).disabled = True

    log4j = os.path.join(out, "log4j2.properties")
    with open(log4j, "w", encoding="utf-8") as f:
        f.write("rootLogger.level = error\nrootLogger.appenderRef.stderr.ref = console\n")
        f.write("appender.console.type = Console\nappender.console.name = console\n")
        f.write("appender.console.target = SYSTEM_ERR\n")
        f.write("appender.console.layout.type = PatternLayout\n")
        f.write("appender.console.layout.pattern = spark: %p %c{1}: %m%n\n")
    return (
        SparkSession.builder.master("local[2]")
        .appName("cargo xtask spark")
        .config("spark.driver.memory", "1g")
        .config(
            "spark.driver.extraJavaOptions",
            f"-Duser.timezone=UTC -Dlog4j2.configurationFile={log4j}",
        )
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.parquet.datetimeRebaseModeInWrite", "CORRECTED")
        .config("spark.sql.parquet.int96RebaseModeInWrite", "CORRECTED")
        .getOrCreate()
    )


def main(args):
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    out, filters = os.path.abspath(args[0]), args[1:]
    os.makedirs(out, exist_ok=True)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    started = time.monotonic()
    spark = session(out)
    print(
        f"spark.py: Spark {spark.version} ready in {time.monotonic() - started:.0f} s", flush=True
    )
    phase_one(spark, out, filters)
    print(WAITING, flush=True)
    if not sys.stdin.readline():
        return 0  # the xtask has nothing for Spark to read
    phase_two(spark, out)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
