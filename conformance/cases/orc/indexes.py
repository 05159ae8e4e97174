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

Every case has a predicate (``:filter`` cells: each reader's filtered read against the
rows a full scan finds), so each structure is the only one that can prune it:

* ``bloom-filter-<type>``: ``x == v`` for a value of row ``PROBE_ROW`` (present: no reader
  may drop it); ``bloom-filter-<type>-absent``: ``x == v`` for a value no row holds that
  lies inside its stripe's and row group's minimum and maximum ('Column Statistics'), so
  only the Bloom filter ('Bloom Filter Index') can skip the row group. TINYINT and
  BOOLEAN have no absent case: every value of their domain between the bounds is there.
* ``statistics-range``: ``x < v``, which the stripe statistics exclude from the second
  stripe and the row index ('Row Group Index') from two row groups of the first.
* ``lying-*``: ``x == v`` for the value of row ``PROBE_ROW``, which the lie excludes: a
  reader that trusts the lying structure returns no row.
"""

from __future__ import annotations

from collections.abc import Callable

from conformance.values import DataType, Field, Schema

from ..model import Case
from ..predicate import Predicate
from . import sections as S
from . import types as T
from .options import OrcWriteOptions

AREA = "orc/indexes"
ROWS = 2_500  # two full row groups and a partial one
STRIDE = 1_000  # ORC Java refuses a smaller stride (measured: IllegalArgumentException)
STRIPE_ROWS = 2_048  # two stripes; Spark closes a stripe after batches of 1,024 rows (measured)
NULL_EVERY = 11
DAY_NANOS = 86_400 * 10**9
NANOS_PER_MILLI = 10**6
PROBE_ROW = 1_500  # in the first stripe's second row group; not a null row (1,500 % 11 = 4)
RANGE_END_ROW = 700  # statistics-range keeps the rows before it: in the first row group

# The column under test, by type: how its i-th value is made, and a value no row holds
# between the bounds of row PROBE_ROW's stripe and row group (None: there is none).
Make = Callable[[int], object]
_TYPED: tuple[tuple[str, DataType, Make, object], ...] = (
    ("tinyint", T.integer(8), lambda i: i % 200 - 100, None),
    ("smallint", T.integer(16), lambda i: i * 13 - 16_000, PROBE_ROW * 13 - 16_000 + 1),
    ("int", T.integer(32), lambda i: i * 7919 - 10_000_000, PROBE_ROW * 7919 - 10_000_000 + 1),
    ("bigint", T.integer(64), lambda i: i * 1_000_000_007 - 2**40,
     PROBE_ROW * 1_000_000_007 - 2**40 + 1),
    ("boolean", T.boolean(), lambda i: i % 5 == 0, None),
    ("float", T.floating(32), lambda i: float(i) / 4 - 300.0, 75.125),  # the values are quarters
    ("double", T.floating(64), lambda i: i / 7 - 150.0, 64.5),  # the values are sevenths
    ("string", T.string(), lambda i: f"value-{i * 37 % 1009:04}", "value-0500a"),
    ("binary", T.binary(), lambda i: bytes([i % 256, i // 256]), bytes([0x80, 5, 0])),
    ("decimal", T.decimal(10, 2), lambda i: i * 1234 - 1_000_000, PROBE_ROW * 1234 - 1_000_000 + 1),
    # Every day between the bounds is some row's, but a null row's (row 1,100) is no row's value.
    ("date", T.date(), lambda i: i - 1_000, 1_100 - 1_000),
    # 2 ms after the probe row's: 1 ms after tests present in its row group's filter at fpp
    # 0.05 (a false positive, measured with the reference's filters).
    ("timestamp", T.timestamp(), lambda i: (i - 1_000) * DAY_NANOS + i * NANOS_PER_MILLI,
     (PROBE_ROW - 1_000) * DAY_NANOS + (PROBE_ROW + 2) * NANOS_PER_MILLI),
)


def _rows(make: Make) -> tuple[tuple[object, ...], ...]:
    return tuple((i, None if i % NULL_EVERY == 0 else make(i)) for i in range(ROWS))


def _case(name: str, title: str, t: DataType, make: Make, options: OrcWriteOptions,
          spec: tuple[str, ...], predicate: Predicate) -> Case:
    schema = Schema((Field("id", T.integer(64)), Field("x", t)))
    return Case(f"{AREA}/{name}", title, spec, schema, _rows(make), options, format="orc",
                predicate=predicate)


def _indexed(bloom: bool = True, lies: tuple[str, ...] = ()) -> OrcWriteOptions:
    return OrcWriteOptions(row_index_stride=STRIDE, stripe_row_limit=STRIPE_ROWS,
                           bloom_filter_columns=("x",) if bloom else (), lies=lies)


def _bloom(name: str, t: DataType, make: Make) -> Case:
    return _case(f"bloom-filter-{name}", f"a Bloom filter per row group on a {name} column, a value "
                 "that is there", t, make, _indexed(), (S.BLOOM_FILTER_INDEX, S.ROW_GROUP_INDEX),
                 Predicate("x", "==", make(PROBE_ROW)))


def _bloom_absent(name: str, t: DataType, make: Make, absent: object) -> Case:
    return _case(f"bloom-filter-{name}-absent", f"a Bloom filter per row group on a {name} column, "
                 "a value within the bounds that no row holds", t, make, _indexed(),
                 (S.BLOOM_FILTER_INDEX, S.ROW_GROUP_INDEX, S.COLUMN_STATISTICS),
                 Predicate("x", "==", absent))


def _bigint() -> tuple[str, DataType, Make]:
    name, t, make, _ = _TYPED[3]
    return name, t, make


def _statistics_range() -> Case:
    name, t, make = _bigint()
    return _case("statistics-range", f"a range the stripe statistics and the row index prune ({name})",
                 t, make, _indexed(bloom=False), (S.COLUMN_STATISTICS, S.ROW_GROUP_INDEX),
                 Predicate("x", "<", make(RANGE_END_ROW)))


def _lying(lie: str, title: str, spec: tuple[str, ...]) -> Case:
    name, t, make = _bigint()
    return _case(f"lying-{lie.replace('_', '-')}", f"TEST-ONLY: {title} ({name})", t, make,
                 _indexed(lies=(lie,)), spec, Predicate("x", "==", make(PROBE_ROW)))


def cases() -> list[Case]:
    return [
        *(_bloom(name, t, make) for name, t, make, _ in _TYPED),
        *(_bloom_absent(name, t, make, absent) for name, t, make, absent in _TYPED
          if absent is not None),
        _statistics_range(),
        _lying("statistics", "the stripes' and the file's minimum raised to the maximum",
               (S.COLUMN_STATISTICS,)),
        _lying("row_index", "every row group's minimum raised to its maximum",
               (S.ROW_GROUP_INDEX, S.COLUMN_STATISTICS)),
        _lying("bloom_filter", "Bloom filters with no bit set", (S.BLOOM_FILTER_INDEX,)),
    ]
