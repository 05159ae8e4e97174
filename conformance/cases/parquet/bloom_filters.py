"""Split-block Bloom filters on every physical type they apply to.

Spec: BloomFilter.md 'Technical Approach' (the SBBF, xxHash64 of the
PLAIN encoding without a length prefix, header + bitset located by
ColumnMetaData.bloom_filter_offset / bloom_filter_length).

Each case writes a filter on its column (with a writer's default encoding) and
asks for the rows equal to a value that is there; the validator checks that
every value of the chunk tests positive. BOOLEAN has no case: a filter over two
values is pointless and pyarrow refuses to build one. A lying case (reference
only) stores an all-zero bitset, so a reader that trusts it finds nothing.
"""

from __future__ import annotations

from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions
from ..predicate import Predicate

SPEC = ("BloomFilter.md: Technical Approach",)
ROWS = 200
ROW_GROUP_ROWS = 100


def _case(name: str, t: DataType, values: list[Any], probe: Any, lies: tuple[str, ...] = ()) -> Case:
    return Case(id=f"bloom_filter/{name}", title=f"Bloom filter on {t.describe()}"
                + (" (TEST-ONLY lie: an all-zero bitset)" if lies else ""),
                spec=SPEC, schema=Schema((Field("x", t, True),)),
                rows=tuple((v,) for v in values),
                options=WriteOptions(encoding="PLAIN" if lies else None, bloom_filter_columns=("x",),
                                     row_group_size=ROW_GROUP_ROWS, lies=lies),
                predicate=None if probe is None else Predicate("x", "==", probe))


def cases() -> list[Case]:
    ints = [i * 7919 % 100_003 for i in range(ROWS)]
    return [
        _case("int32", T.integer(32), ints, ints[150]),
        _case("int64", T.integer(64), [v * 2**33 for v in ints], ints[150] * 2**33),
        _case("float", T.floating(32), [v / 2 for v in ints], ints[150] / 2),
        _case("double", T.floating(64), [v / 4 for v in ints], ints[150] / 4),
        _case("string", T.string(), [f"key-{v}" for v in ints], f"key-{ints[150]}"),
        _case("binary", T.binary(), [v.to_bytes(3, "big") for v in ints], ints[150].to_bytes(3, "big")),
        _case("fixed", T.fixed(4), [v.to_bytes(4, "big") for v in ints], ints[150].to_bytes(4, "big")),
        _case("decimal-fixed", T.decimal(12, 2), [v - 50_000 for v in ints], ints[150] - 50_000),
        # No predicate: INT96 has no order under TYPE_ORDER (parquet.thrift ColumnOrder; the
        # INT96_TIMESTAMP_ORDER alternative came later) and no canonical one.
        _case("int96", T.int96(), [v * 1_000_000_007 for v in ints], None),
        _case("lying-int32", T.integer(32), ints, ints[150], lies=("bloom_filter",)),
    ]
