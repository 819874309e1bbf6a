"""The rows contract of DESIGN.md ("The rows contract", what `pqkit cat --format jsonl`
prints) for scalar values, shared by rows.py (Parquet, read by pyarrow and DuckDB) and
orc_rows.py (ORC, read by pyarrow.orc and pyorc): JSON text with numbers written exactly,
floats in the shortest form of their width, dates, times and timestamps from integer
counts, decimals with exactly `scale` fraction digits, base64.

It imports no reader: pyorc and pyarrow bundle Apache ORC's C++ library each, and must not
be loaded into one process (orc_rows.py runs one reader a process).
"""

import base64
import decimal
import json
import math
import uuid

import numpy as np

UNITS_PER_SECOND = {"s": 1, "ms": 1000, "us": 1000_000, "ns": 1000_000_000}
FRACTION_DIGITS = {"ms": 3, "us": 6, "ns": 9}


# ---------------------------------------------------------------------------------------
# JSON text


class Number(str):
    """A JSON number written exactly as given (the shortest form of a float's width)."""


class Object(list):
    """A JSON object as (key, value) pairs in schema order."""


def dumps(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Number):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Object):
        return "{" + ",".join(f"{dumps(k)}:{dumps(v)}" for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    raise TypeError(f"no JSON form for {value!r}")


# ---------------------------------------------------------------------------------------
# Scalars by the rows contract


def float_json(value, width):
    """FLOAT, DOUBLE, FLOAT16: the shortest decimal that round-trips at the stored width."""
    if value is None:
        return None
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if width == 64:
        text = repr(float(value))
    elif width == 32:
        text = str(np.float32(value))
    else:
        text = str(np.float16(value))
    return Number(text)


def year_text(year):
    # As chrono prints a NaiveDate: four digits, a sign only outside 0..=9999.
    if 0 <= year <= 9999:
        return f"{year:04d}"
    return f"{year:+05d}"


def civil_from_days(days):
    """(year, month, day) of the proleptic Gregorian calendar, days since 1970-01-01."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return year, month, day


def date_text(days):
    year, month, day = civil_from_days(days)
    return f"{year_text(year)}-{month:02d}-{day:02d}"


def clock_text(seconds_of_day, fraction, unit):
    hours, rest = divmod(seconds_of_day, 3600)
    minutes, seconds = divmod(rest, 60)
    digits = FRACTION_DIGITS[unit]
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}.{fraction:0{digits}d}"


def time_text(count, unit):
    """TIME: HH:MM:SS and 3, 6 or 9 fraction digits by unit."""
    seconds, fraction = divmod(count, UNITS_PER_SECOND[unit])
    return clock_text(seconds, fraction, unit)


def timestamp_text(count, unit, utc):
    """TIMESTAMP: count of `unit` since the epoch; Z when adjusted to UTC."""
    seconds, fraction = divmod(count, UNITS_PER_SECOND[unit])
    days, seconds_of_day = divmod(seconds, 86400)
    text = f"{date_text(days)}T{clock_text(seconds_of_day, fraction, unit)}"
    return text + "Z" if utc else text


def decimal_text(value, scale):
    """DECIMAL: plain notation, exactly `scale` digits after the point."""
    if not isinstance(value, decimal.Decimal):  # DuckDB reads more than 38 digits as DOUBLE
        raise TypeError(f"a DECIMAL read as {type(value).__name__}: {value!r}")
    sign, digits, exponent = value.as_tuple()
    shift = exponent + scale
    if shift < 0:
        raise ValueError(f"decimal {value} has more than {scale} fraction digits")
    unscaled = int("".join(map(str, digits)) or "0") * 10**shift
    text = str(unscaled)
    if scale > 0:
        text = text.rjust(scale + 1, "0")
        text = f"{text[:-scale]}.{text[-scale:]}"
    return "-" + text if sign and unscaled != 0 else text


def base64_text(value):
    if isinstance(value, str):
        value = value.encode()
    return base64.b64encode(value).decode("ascii")


def string_text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


def uuid_text(value):
    if isinstance(value, str):  # DuckDB hands UUIDs over as text
        return str(uuid.UUID(value))
    return str(uuid.UUID(bytes=bytes(value)))


def rescale(count, from_unit, to_unit):
    """An integer count of `from_unit` as a count of `to_unit`; it must be exact."""
    have, want = UNITS_PER_SECOND[from_unit], UNITS_PER_SECOND[to_unit]
    if want >= have:
        return count * (want // have)
    whole, rest = divmod(count, have // want)
    if rest:
        raise ValueError(f"{count} {from_unit} is not a whole number of {to_unit}")
    return whole


class Refused(Exception):
    """The reader cannot read the file; the message is what it said."""



def error_text(error):
    text = f"{type(error).__name__}: {error}"
    return " ".join(text.split())
