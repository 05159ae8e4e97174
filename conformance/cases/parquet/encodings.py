"""Every encoding on every physical type it applies to.

Which encodings, on which physical types, come from the reference's table of
encodings (``reference_impl.parquet.encodings.registry.ENCODINGS``, rendered in
docs/encodings.md), with parquet.thrift ``enum Encoding``; each case cites its
encoding's section as the table names it. Values are chosen to
reach the encodings' corners: dictionary indices of several bit widths, delta
blocks and miniblocks crossed (more than 128 values), wrap-around deltas at the
type's extremes, shared and unshared prefixes, every byte of a split stream used.

ALP (in Preview) gets, beside its cases of the table, pages of several vectors
(AlpEncoding.md, 'Page Layout': up to 1024 values each, the last one shorter) that
mix decimal-like values with every kind of exception ('Exception Detection'): NaN
payloads, infinities, -0.0, subnormals, values that are not decimal-like, and a
value out of the integer range. Its cases carry ``spec:preview`` and
``forward_incompatible`` (``spec_versions.ADDITIONS``, ``model.FORWARD_INCOMPATIBLE``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

from conformance.cases.float_edges import (
    DOUBLE_MIN_SUBNORMAL,
    FLOAT32_MAX,
    FLOAT32_MIN_SUBNORMAL,
    nan_payloads,
)
from conformance.values import Field, Schema
from conformance.values import types as T
from reference_impl.parquet.encodings.registry import ENCODINGS, EncodingRow, Use
from reference_impl.parquet.metadata.parquet_thrift import Encoding

from ..model import Case, WriteOptions


def spec_entry(encoding: Encoding | int) -> str:
    """The catalogue's reference to the section that defines ``encoding``."""
    row = ENCODINGS[encoding]
    return f"{row.spec}: {row.heading}"


ROWS = 300  # more than two DELTA_BINARY_PACKED blocks of 128 values
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _ints(lo: int, hi: int) -> list[int]:
    """Wrap-around deltas at both extremes, runs, a ramp and a pseudo-random walk."""
    edges = [hi, lo, hi, 0, lo, lo, -1, 1, hi - 1, lo + 1]
    ramp = list(range(-50, 50))
    walk, x = [], 0
    for i in range(ROWS - len(edges) - len(ramp)):
        x = (x * 1_103_515_245 + 12_345 + i) % (hi - lo + 1) + lo
        walk.append(x)
    return edges + ramp + walk


def _floats(bits: int) -> list[float]:
    specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.5, -3.25]
    scale = 1.0 if bits == 64 else 0.5  # keep float32 values exact: multiples of 1/2
    return specials + [i * scale for i in range(ROWS - len(specials))]


def _strings() -> list[str]:
    # Shared prefixes of every length, empty values, non-ASCII, and a repeated pool
    # small enough to dictionary-encode.
    pool = ["", "a", "axis", "axle", "babble", "babyhood", "b", "ünïcødé", "ünï", "日本語"]
    return [pool[i % len(pool)] + ("" if i % 3 else str(i)) for i in range(ROWS)]


def _binary() -> list[bytes]:
    return [s.encode("utf-8") + bytes([i % 256]) for i, s in enumerate(_strings())]


def _fixed(length: int) -> list[bytes]:
    return [bytes((i * 7 + k) % 256 for k in range(length)) for i in range(ROWS)]


def _booleans() -> list[bool]:
    # Long runs (RLE runs) and alternations (bit-packed runs).
    return [True] * 40 + [False] * 40 + [i % 2 == 0 for i in range(ROWS - 80)]


def _int96() -> list[int]:
    return [i * 1_000_000_007_000 - 10**15 for i in range(ROWS)]


_VALUES: dict[str, tuple[Any, Callable[[], list[Any]]]] = {
    "boolean": (T.boolean(), _booleans),
    "int32": (T.integer(32), lambda: _ints(INT32_MIN, INT32_MAX)),
    "int64": (T.integer(64), lambda: _ints(INT64_MIN, INT64_MAX)),
    "int96": (T.int96(), _int96),
    "float": (T.floating(32), lambda: _floats(32)),
    "double": (T.floating(64), lambda: _floats(64)),
    "binary": (T.binary(), _binary),
    "string": (T.string(), _strings),
    "fixed5": (T.fixed(5), lambda: _fixed(5)),
}


def _catalogued(row: EncodingRow) -> bool:
    """Implemented value and dictionary encodings; PLAIN is every physical type case's
    encoding (``physical_types``)."""
    uses_values = bool(row.uses & (Use.VALUES | Use.DICTIONARY_INDICES))
    return row.implemented and uses_values and row.number != Encoding.PLAIN


def _kinds(row: EncodingRow) -> list[str]:
    """The ``_VALUES`` kinds whose physical type ``row`` applies to."""
    physical = {t.name for t in row.physical_types}
    return [kind for kind, (t, _) in _VALUES.items() if t.physical in physical]


def _with_nulls(values: Sequence[Any]) -> list[Any]:
    """Every third value null: null runs inside the levels' bit-packed runs."""
    return [None if i % 3 == 1 else v for i, v in enumerate(values)]


def _page_versions(encoding: str) -> tuple[int, ...]:
    # PLAIN_DICTIONARY is the data page v1 name of dictionary indices; every other
    # encoding may sit in either page version (Encodings.md "Dictionary
    # Encoding"; writers differ in which they produce, so both are cases).
    return (1,) if encoding == "PLAIN_DICTIONARY" else (1, 2)


def _encoding_cases() -> list[Case]:
    out = []
    for row in filter(_catalogued, ENCODINGS.values()):
        encoding = row.name
        section = spec_entry(row.number)
        for kind, version, nullable in itertools.product(_kinds(row), _page_versions(encoding),
                                                         (False, True)):
            t, make = _VALUES[kind]
            rows = _with_nulls(make()) if nullable else make()
            repetition = "optional" if nullable else "required"
            out.append(Case(
                id=f"encoding/{encoding.lower()}-{kind}-{repetition}-v{version}",
                title=f"{encoding} on {t.describe()} {repetition.upper()}, {len(rows)} values, "
                      f"data page v{version}",
                spec=(section, "parquet.thrift: enum Encoding"),
                schema=Schema((Field("value", t, nullable),)),
                rows=tuple((v,) for v in rows),
                options=WriteOptions(encoding=encoding, page_version=version)))
    return out


def _dictionary_fallback() -> Case:
    values = [f"distinct value number {i:05d}" for i in range(2_000)]
    return Case(
        id="encoding/dictionary-fallback-string",
        title="RLE_DICTIONARY falling back to PLAIN when the dictionary outgrows 4 KiB",
        spec=(spec_entry(Encoding.RLE_DICTIONARY),), schema=Schema((Field("value", T.string(), True),)),
        rows=tuple((v,) for v in values),
        options=WriteOptions(encoding="RLE_DICTIONARY", page_version=1,
                             dictionary_size_limit=4096))


def _bit_packed_levels() -> Case:
    return Case(
        id="encoding/bit-packed-levels",
        title="definition levels in the deprecated BIT_PACKED encoding (data page v1)",
        spec=(spec_entry(Encoding.BIT_PACKED),), schema=Schema((Field("value", T.integer(32), True),)),
        rows=tuple((None if i % 4 == 0 else i,) for i in range(100)),
        options=WriteOptions(level_encoding="BIT_PACKED"))


ALP_ROWS = 2_600  # two pages of 1,300 rows: two vectors of up to 1,024 values each
ALP_PAGE_ROWS = 1_300
ALP_NULL_EVERY = 7


def _alp_values(bits: int) -> list[float | None]:
    """Prices with two decimals (a FLOAT's are quarters, exact in binary32), a null every
    ALP_NULL_EVERY rows, and every exception of 'Exception Detection' in both pages."""
    quantum = 0.01 if bits == 64 else 0.25
    subnormal = DOUBLE_MIN_SUBNORMAL if bits == 64 else FLOAT32_MIN_SUBNORMAL
    too_large = 1e300 if bits == 64 else FLOAT32_MAX  # scaled, outside int64 / int32
    not_decimal = 1 / 3 if bits == 64 else 0.3333333432674408  # 1/3 in binary32
    exceptions = [math.nan, math.inf, -math.inf, -0.0, subnormal, -subnormal, too_large,
                  not_decimal, *nan_payloads(bits)]
    values: list[float | None] = [round((i * 7919 % 100_000 - 50_000) * quantum, 2) for i in range(ALP_ROWS)]
    for page_start in (0, ALP_PAGE_ROWS):
        for k, value in enumerate(exceptions):
            values[page_start + 3 + 97 * k] = value
    return [None if i % ALP_NULL_EVERY == ALP_NULL_EVERY - 1 else v for i, v in enumerate(values)]


def _alp_vectors() -> list[Case]:
    out = []
    for kind, version in itertools.product(("float", "double"), (1, 2)):
        t = _VALUES[kind][0]
        out.append(Case(
            id=f"encoding/alp-{kind}-vectors-v{version}",
            title=f"ALP on {t.describe()} OPTIONAL: two data pages v{version} of two vectors each, "
                  "decimal-like values, exceptions (NaN payloads, infinities, -0.0, subnormals, "
                  "values not decimal-like or out of range) and nulls",
            spec=(spec_entry(Encoding.ALP), "AlpEncoding.md: Page Layout",
                  "AlpEncoding.md: Exception Detection", "parquet.thrift: enum Encoding"),
            schema=Schema((Field("value", t, True),)),
            rows=tuple((v,) for v in _alp_values(t.bits)),
            options=WriteOptions(encoding="ALP", page_version=version, page_row_limit=ALP_PAGE_ROWS)))
    return out


def cases() -> list[Case]:
    return _encoding_cases() + [_dictionary_fallback(), _bit_packed_levels(), *_alp_vectors()]
