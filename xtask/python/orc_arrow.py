"""ORC files as pyarrow.orc reads them (Apache ORC's C++ reader, through Arrow), and Apache
ORC's own JSON dump of a file (the corpus's expected/*.jsn.gz), both mapped by the rows
contract by the file's types as Arrow gives them (see orc_rows.py).

Arrow types from ORC: tinyint..bigint int8..int64, float float32, double float64, string,
char and varchar string, binary binary, decimal(p,s) decimal128(p,s), date date32,
timestamp timestamp[ns], timestamp with local time zone timestamp[ns, UTC], array list,
map map, struct struct, uniontype sparse_union (type codes 0..n-1, no validity of its own).
"""

import base64
import decimal
import gzip
import io
import json
import re

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.orc as po

from contract import (
    Object,
    Refused,
    date_text,
    decimal_text,
    error_text,
    float_json,
    timestamp_text,
)

# ---------------------------------------------------------------------------------------
# pyarrow: Arrow arrays by the ORC types they come from

TIMESTAMP_UNITS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


def arrow_values(array):
    """The JSON values of an Arrow array that pyarrow.orc read (one per slot)."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    t = array.type
    if pa.types.is_struct(t):
        children = [arrow_values(child) for child in array.flatten()]
        names = [t.field(i).name for i in range(t.num_fields)]
        valid = array.is_valid().to_pylist()
        rows = zip(*children, strict=True) if children else [()] * len(array)
        return [
            Object(zip(names, row, strict=True)) if ok else None
            for ok, row in zip(valid, rows, strict=True)
        ]
    if pa.types.is_map(t):
        offsets = array.offsets.to_pylist()
        first, size = offsets[0], offsets[-1] - offsets[0]
        keys = arrow_values(array.keys.slice(first, size))
        items = arrow_values(array.items.slice(first, size))
        pairs = [Object([("key", k), ("value", v)]) for k, v in zip(keys, items, strict=True)]
        valid = array.is_valid().to_pylist()
        return [
            pairs[start - first : end - first] if ok else None
            for ok, start, end in zip(valid, offsets, offsets[1:])  # noqa: B905 - n + 1 offsets
        ]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return split(arrow_values(array.flatten()), array)
    if pa.types.is_union(t):
        return union_values(array)
    if pa.types.is_boolean(t) or pa.types.is_integer(t):
        return array.to_pylist()
    if pa.types.is_float32(t):
        return [None if v is None else float_json(v, 32) for v in array.to_pylist()]
    if pa.types.is_float64(t):
        return [None if v is None else float_json(v, 64) for v in array.to_pylist()]
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return array.to_pylist()
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return [None if v is None else base64.b64encode(v).decode("ascii") for v in array.to_pylist()]
    if pa.types.is_decimal(t):
        return [None if v is None else decimal_text(v, t.scale) for v in array.to_pylist()]
    if pa.types.is_date32(t):
        return [None if d is None else date_text(d) for d in array.view(pa.int32()).to_pylist()]
    if pa.types.is_timestamp(t):
        per = TIMESTAMP_UNITS[t.unit]
        utc = t.tz is not None
        if utc and t.tz not in ("UTC", "+00:00", "Etc/UTC"):
            raise TypeError(f"a timestamp in time zone {t.tz}")
        counts = array.view(pa.int64()).to_pylist()
        return [None if c is None else timestamp_text(c * per, "ns", utc) for c in counts]
    raise TypeError(f"no ORC mapping for the Arrow type {t}")


def split(values, array):
    """The flat `values` of a list `array`, cut back into one list per slot."""
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


def union_values(array):
    """{"tag": n, "value": ...}: Arrow's union (sparse, as pyarrow.orc reads ORC's) has no
    validity of its own; a null union reads as the first alternative holding null."""
    t = array.type
    codes = {code: i for i, code in enumerate(t.type_codes)}
    children = [arrow_values(array.field(i)) for i in range(t.num_fields)]
    type_codes = array.type_codes.to_pylist()
    if t.mode == "sparse":
        picks = [(codes[code], i) for i, code in enumerate(type_codes)]
    else:
        offsets = array.offsets.to_pylist()
        picks = [(codes[code], offset) for code, offset in zip(type_codes, offsets, strict=True)]
    return [Object([("tag", tag), ("value", children[tag][at])]) for tag, at in picks]


class Text(str):
    """Rows already written as JSONL."""


def plain(t):
    """Whether polars writes values of the Arrow type `t` as the rows contract has them."""
    return pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_string(t)


def pyarrow_rows(path):
    """The rows of the ORC file at `path` as pyarrow.orc reads them: JSON values, or for a
    table of booleans, integers and strings only (the corpus's 1.9 million rows of
    demo-11-zlib.orc) the JSONL that polars writes of it, in a second where Python takes a
    minute. Raises Refused when pyarrow cannot read the file."""
    try:
        table = po.ORCFile(path).read()
    except Exception as error:  # noqa: BLE001 - pyarrow raises OSError, ArrowInvalid, ...
        raise Refused(error_text(error)) from error
    if table.num_rows > 10_000 and table.num_columns and all(plain(t) for t in table.schema.types):
        out = io.BytesIO()
        pl.from_arrow(table).write_ndjson(out)
        return Text(out.getvalue().decode("utf-8"))
    columns = [arrow_values(column) for column in table.columns]
    names = table.column_names
    if not columns:
        return [Object([]) for _ in range(table.num_rows)]
    return [Object(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


# ---------------------------------------------------------------------------------------
# Apache ORC's JSON dump (the corpus's expected/*.jsn.gz), by the file's Arrow types

JSN_TIMESTAMP = re.compile(r"^(-?\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?$")


def days_from_civil(year, month, day):
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def jsn_timestamp(text, utc):
    m = JSN_TIMESTAMP.match(text)
    if not m:
        raise ValueError(f"a timestamp of Apache ORC's JSON dump: {text!r}")
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    nanos = int((m.group(7) or "").ljust(9, "0"))
    seconds = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
    return timestamp_text(seconds * 10**9 + nanos, "ns", utc)


def jsn_value(value, t):
    """A value of Apache ORC's JSON dump (parsed with decimals exact) by its Arrow type."""
    if value is None:
        return None
    if pa.types.is_struct(t):
        return Object(
            (t.field(i).name, jsn_value(value.get(t.field(i).name), t.field(i).type))
            for i in range(t.num_fields)
        )
    if pa.types.is_map(t):
        return [
            Object([("key", jsn_value(e["key"], t.key_type)), ("value", jsn_value(e["value"], t.item_type))])
            for e in value
        ]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return [jsn_value(v, t.value_type) for v in value]
    if pa.types.is_union(t):
        tag = value["tag"]
        return Object([("tag", tag), ("value", jsn_value(value["value"], t.field(tag).type))])
    if pa.types.is_boolean(t):
        if not isinstance(value, bool):
            raise TypeError(f"a boolean as {value!r}")
        return value
    if pa.types.is_integer(t):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"an integer as {value!r}")
        return value
    if pa.types.is_float32(t) or pa.types.is_float64(t):
        number = value_float(value)
        return float_json(number, 32 if pa.types.is_float32(t) else 64)
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return value
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return base64.b64encode(bytes(value)).decode("ascii")
    if pa.types.is_decimal(t):
        if isinstance(value, int):
            value = decimal.Decimal(value)
        return decimal_text(value, t.scale)
    if pa.types.is_date32(t):
        year, month, day = (int(p) for p in re.match(r"^(-?\d+)-(\d+)-(\d+)$", value).groups())
        return date_text(days_from_civil(year, month, day))
    if pa.types.is_timestamp(t):
        return jsn_timestamp(value, t.tz is not None)
    raise TypeError(f"no mapping of Apache ORC's JSON for the Arrow type {t}")


def value_float(value):
    if isinstance(value, str) and value in ("NaN", "Infinity", "-Infinity"):
        return float(value.replace("Infinity", "inf"))
    if isinstance(value, (int, decimal.Decimal)) and not isinstance(value, bool):
        return float(value)
    raise TypeError(f"a floating-point number as {value!r}")


def jsn_rows(path, orc_path):
    schema = po.ORCFile(orc_path).schema
    row_type = pa.struct(list(schema))
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            value = json.loads(line, parse_float=decimal.Decimal)
            rows.append(jsn_value(value, row_type))
    return rows
