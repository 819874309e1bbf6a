"""Deterministic random values for the fixtures of `cargo xtask interop`: fixtures.py (Parquet,
by pyarrow, DuckDB and polars) and orc_fixtures.py (ORC, by pyarrow.orc and pyorc). Only numpy:
the ORC writers must not share a process (see contract.py).
"""

import decimal

import numpy as np

ROWS = 1000
NULLS = 0.15  # share of null slots, at every level that can be null


def first(values, head):
    """`values` beginning with `head`, as long as it was."""
    return head[: len(values)] + values[len(head) :]


class Values:
    """Deterministic random values; `nulls` masks a list with NULLS of its slots."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def nulls(self, values, share=NULLS):
        mask = self.rng.random(len(values)) < share
        return [None if m else v for v, m in zip(values, mask)]

    def ints(self, low, high, n=ROWS, extremes=True):
        dtype = np.uint64 if high >= 2**63 else np.int64
        values = [int(v) for v in self.rng.integers(low, high, size=n, endpoint=True, dtype=dtype)]
        if extremes:
            values = first(values, [low, high, 0 if low <= 0 <= high else low])
        return values

    def floats(self, n=ROWS):
        values = [float(v) for v in self.rng.normal(0, 1000, size=n)]
        specials = [
            float("nan"),
            float("inf"),
            float("-inf"),
            -0.0,
            0.0,
            5e-324,
            1.7976931348623157e308,
            1e-7,
            123456789.0,
            0.1,
        ]
        return first(values, specials)

    def strings(self, n=ROWS, alphabet="abcdefghij"):
        words = ["", "ünïcödé", "日本語", "emoji 🦀", 'quote " and \\ back', "tab\tnew\nline"]
        out = []
        for i in range(n):
            if i < len(words):
                out.append(words[i])
            else:
                length = int(self.rng.integers(0, 12))
                out.append("".join(self.rng.choice(list(alphabet), size=length)))
        return out

    def repeats(self, n=ROWS, distinct=20):
        pool = self.strings(distinct)
        return [pool[int(i)] for i in self.rng.integers(0, distinct, size=n)]

    def blobs(self, n=ROWS, width=None):
        out = []
        for _ in range(n):
            length = width if width is not None else int(self.rng.integers(0, 20))
            out.append(self.rng.integers(0, 256, size=length, dtype=np.uint8).tobytes())
        return out

    def decimals(self, precision, scale, n=ROWS):
        limit = 10**precision - 1
        words = self.rng.integers(0, 2**62, size=(n, 4))
        values = [
            (int(a) << 186 | int(b) << 124 | int(c) << 62 | int(d)) % (2 * limit + 1) - limit
            for a, b, c, d in words
        ]
        values = first(values, [limit, -limit, 0])
        # From text: exact at any precision, with exactly `scale` fraction digits.
        return [decimal.Decimal(f"{v}e-{scale}") for v in values]

    def lists(self, make, n=ROWS, longest=5, null_share=NULLS):
        """Lists of `make(k)` values; some null, some empty."""
        out = []
        for _ in range(n):
            if self.rng.random() < null_share:
                out.append(None)
            else:
                out.append(make(int(self.rng.integers(0, longest + 1))))
        return out
