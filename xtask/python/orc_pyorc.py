"""ORC files as pyorc reads them (Apache ORC's C++ reader, with Python values), mapped by the
rows contract by the file's ORC types (see orc_rows.py); and the converters through which
orc_fixtures.py has pyorc write exact timestamps, dates and decimals.

pyorc reads a union as its alternative's value, without the tag: the tag is the one
alternative whose Python values are of the value's class (a fault when there is not
exactly one), and a null alternative reads as a null union.
"""

import base64
import decimal

import pyorc
from pyorc.converters import ORCConverter

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
# pyorc: Python values by the ORC type description


class Stamp(tuple):
    """A TIMESTAMP as pyorc's converter hands it over: (seconds, nanoseconds)."""


class Digits(str):
    """A DECIMAL as pyorc's converter hands it over: its text."""


class Days(int):
    """A DATE: days since 1970-01-01."""


def written(obj, *fields):
    """The fields of a value that orc_fixtures.py has pyorc write (Stamp, Day, Unscaled). A
    TypeError tells pyorc's union writer to try the next alternative."""
    try:
        values = tuple(getattr(obj, f) for f in fields)
    except AttributeError:
        raise TypeError(f"{type(obj).__name__} has no {fields}") from None
    return values if len(values) > 1 else values[0]


class StampConverter(ORCConverter):
    @staticmethod
    def from_orc(seconds, nanoseconds, _timezone):
        return Stamp((seconds, nanoseconds))

    @staticmethod
    def to_orc(obj, _timezone):
        return written(obj, "seconds", "nanos")


class DecimalConverter(ORCConverter):
    @staticmethod
    def from_orc(text):
        return Digits(text)

    @staticmethod
    def to_orc(_precision, _scale, obj):
        return written(obj, "unscaled")


class DateConverter(ORCConverter):
    @staticmethod
    def from_orc(days):
        return Days(days)

    @staticmethod
    def to_orc(obj):
        return written(obj, "days")


CONVERTERS = {
    pyorc.TypeKind.TIMESTAMP: StampConverter,
    pyorc.TypeKind.TIMESTAMP_INSTANT: StampConverter,
    pyorc.TypeKind.DECIMAL: DecimalConverter,
    pyorc.TypeKind.DATE: DateConverter,
}

K = pyorc.TypeKind
INTEGERS = {K.BYTE, K.SHORT, K.INT, K.LONG}
STRINGS = {K.STRING, K.CHAR, K.VARCHAR}


def python_class(kind):
    """The class of the Python values pyorc gives for a kind (unions are told apart by it)."""
    return {
        K.BOOLEAN: bool,
        K.BYTE: int,
        K.SHORT: int,
        K.INT: int,
        K.LONG: int,
        K.FLOAT: float,
        K.DOUBLE: float,
        K.STRING: str,
        K.CHAR: str,
        K.VARCHAR: str,
        K.BINARY: bytes,
        K.TIMESTAMP: Stamp,
        K.TIMESTAMP_INSTANT: Stamp,
        K.DECIMAL: Digits,
        K.DATE: Days,
        K.LIST: list,
        K.MAP: dict,
        K.STRUCT: dict,
        K.UNION: None,
    }[kind]


def pyorc_value(value, schema):
    """The JSON value of a value pyorc read, by its ORC type description."""
    if value is None:
        return None
    kind = schema.kind
    if kind == K.BOOLEAN or kind in INTEGERS:
        return value
    if kind == K.FLOAT:
        return float_json(value, 32)
    if kind == K.DOUBLE:
        return float_json(value, 64)
    if kind in STRINGS:
        return value
    if kind == K.BINARY:
        return base64.b64encode(value).decode("ascii")
    if kind == K.DECIMAL:
        return decimal_text(decimal.Decimal(value), schema.scale)
    if kind == K.DATE:
        return date_text(int(value))
    if kind in (K.TIMESTAMP, K.TIMESTAMP_INSTANT):
        seconds, nanos = value
        return timestamp_text(seconds * 10**9 + nanos, "ns", kind == K.TIMESTAMP_INSTANT)
    if kind == K.LIST:
        return [pyorc_value(v, schema.type) for v in value]
    if kind == K.MAP:
        return [
            Object([("key", pyorc_value(k, schema.key)), ("value", pyorc_value(v, schema.value))])
            for k, v in value.items()
        ]
    if kind == K.STRUCT:
        return Object(
            (name, pyorc_value(value[name], field)) for name, field in schema.fields.items()
        )
    if kind == K.UNION:
        # pyorc gives the alternative's value, not its tag: the tag is the one alternative
        # whose values are of the value's Python class.
        classes = [python_class(alternative.kind) for alternative in schema.cont_types]
        tags = [i for i, c in enumerate(classes) if c is type(value)]
        if len(tags) != 1:
            raise TypeError(
                f"pyorc's union value {value!r} fits {len(tags)} alternatives of {schema}"
            )
        return Object([("tag", tags[0]), ("value", pyorc_value(value, schema.cont_types[tags[0]]))])
    raise TypeError(f"no mapping for the ORC kind {kind}")


def pyorc_rows(path):
    try:
        with open(path, "rb") as f:
            reader = pyorc.Reader(
                f, struct_repr=pyorc.StructRepr.DICT, converters=CONVERTERS
            )
            schema = reader.schema
            values = list(reader)
    except Exception as error:  # noqa: BLE001 - pyorc raises ParseError, ORCError, ...
        raise Refused(f"pyorc: {error_text(error)}") from error
    if schema.kind != K.STRUCT:
        raise TypeError(f"a file whose root type is {schema}, not a struct")
    return [pyorc_value(v, schema) for v in values]


def seek_rows(path, rows):
    """The row at each of `rows` as pyorc reads it right after seeking to it: Apache ORC
    positions every stream of the stripe at the row group's entry of the row index, then
    skips the rows before it in that group."""
    out = []
    try:
        with open(path, "rb") as f:
            reader = pyorc.Reader(f, struct_repr=pyorc.StructRepr.DICT, converters=CONVERTERS)
            schema = reader.schema
            for row in rows:
                reader.seek(row)
                out.append(next(reader))
    except Exception as error:  # noqa: BLE001 - pyorc raises ParseError, ORCError, ...
        raise Refused(f"pyorc: {error_text(error)}") from error
    return [pyorc_value(v, schema) for v in out]


def footer(path):
    """What pyorc reads of the file's postscript and footer (pyarrow cannot name LZO)."""
    with open(path, "rb") as f:
        reader = pyorc.Reader(f)
        major, minor = reader.format_version
        return {
            "file_version": f"{major}.{minor}",
            "compression": pyorc.CompressionKind(reader.compression).name,
            "nrows": len(reader),
            "nstripes": reader.num_of_stripes,
            "row_index_stride": reader.row_index_stride,
            "software_version": reader.software_version,
        }
