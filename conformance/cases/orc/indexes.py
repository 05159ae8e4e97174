"""Bloom filters on every type that has one, and the metadata that lies on purpose.

Spec: ORCv1.md, 'Bloom Filter Index' (a BloomFilter per row group of the row index, each
type hashed its own way), 'Column Statistics' (file, stripe and row group statistics) and
'Row Group Index'. Every file any writer writes for these cases is held against its data
by the validator (``validator`` cells): a filter that misses a value of its row group, a
statistic that is no bound, a position that leads elsewhere.

The ``lying-*`` cases are written by the reference alone (``OrcWriteOptions.lies``): each
structure claims something untrue on purpose (the minimum raised to the maximum in the
stripe and file statistics, or in every row group's; Bloom filters with no bit set), so
the validator must flag each, and a reader that trusts the structure would skip rows.
"""

from __future__ import annotations

from collections.abc import Callable

from conformance.values import DataType, Field, Schema

from ..model import Case
from . import sections as S
from . import types as T
from .options import OrcWriteOptions

AREA = "orc/indexes"
ROWS = 2_500  # two full row groups and a partial one
STRIDE = 1_000  # ORC Java refuses a smaller stride (measured: IllegalArgumentException)
STRIPE_ROWS = 2_048  # two stripes; Spark closes a stripe after batches of 1,024 rows (measured)
NULL_EVERY = 11
DAY_NANOS = 86_400 * 10**9

# The column under test, by type: how its i-th value is made.
Make = Callable[[int], object]
_TYPED: tuple[tuple[str, DataType, Make], ...] = (
    ("tinyint", T.integer(8), lambda i: i % 200 - 100),
    ("smallint", T.integer(16), lambda i: i * 13 - 16_000),
    ("int", T.integer(32), lambda i: i * 7919 - 10_000_000),
    ("bigint", T.integer(64), lambda i: i * 1_000_000_007 - 2**40),
    ("boolean", T.boolean(), lambda i: i % 5 == 0),
    ("float", T.floating(32), lambda i: float(i) / 4 - 300.0),
    ("double", T.floating(64), lambda i: i / 7 - 150.0),
    ("string", T.string(), lambda i: f"value-{i * 37 % 1009:04}"),
    ("binary", T.binary(), lambda i: bytes([i % 256, i // 256])),
    ("decimal", T.decimal(10, 2), lambda i: i * 1234 - 1_000_000),
    ("date", T.date(), lambda i: i - 1_000),
    ("timestamp", T.timestamp(), lambda i: (i - 1_000) * DAY_NANOS + i * 1_000_000),
)


def _rows(make: Make) -> tuple[tuple[object, ...], ...]:
    return tuple((i, None if i % NULL_EVERY == 0 else make(i)) for i in range(ROWS))


def _case(name: str, title: str, t: DataType, make: Make, options: OrcWriteOptions,
          spec: tuple[str, ...]) -> Case:
    schema = Schema((Field("id", T.integer(64)), Field("x", t)))
    return Case(f"{AREA}/{name}", title, spec, schema, _rows(make), options, format="orc")


def _bloom(name: str, t: DataType, make: Make) -> Case:
    return _case(f"bloom-filter-{name}", f"a Bloom filter per row group on a {name} column",
                 t, make, OrcWriteOptions(row_index_stride=STRIDE, stripe_row_limit=STRIPE_ROWS,
                                          bloom_filter_columns=("x",)),
                 (S.BLOOM_FILTER_INDEX, S.ROW_GROUP_INDEX))


def _lying(lie: str, title: str, spec: tuple[str, ...]) -> Case:
    name, t, make = _TYPED[3]  # bigint
    options = OrcWriteOptions(row_index_stride=STRIDE, stripe_row_limit=STRIPE_ROWS,
                              bloom_filter_columns=("x",), lies=(lie,))
    return _case(f"lying-{lie.replace('_', '-')}", f"TEST-ONLY: {title} ({name})", t, make, options, spec)


def cases() -> list[Case]:
    return [
        *(_bloom(name, t, make) for name, t, make in _TYPED),
        _lying("statistics", "the stripes' and the file's minimum raised to the maximum",
               (S.COLUMN_STATISTICS,)),
        _lying("row_index", "every row group's minimum raised to its maximum",
               (S.ROW_GROUP_INDEX, S.COLUMN_STATISTICS)),
        _lying("bloom_filter", "Bloom filters with no bit set", (S.BLOOM_FILTER_INDEX,)),
    ]
