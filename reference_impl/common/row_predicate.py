"""A row predicate: one comparison of a column with a constant, or a null test.

What a filtered read keeps, in both formats: Parquet's pruning
(``reference_impl/parquet/indexes/pruning.py``; PageIndex.md, 'Technical Approach', and the
statistics of parquet.thrift) and ORC's (``reference_impl/orc/row_group_pruning.py``;
ORCv1.md, 'Column Statistics', 'Row Group Index', 'Bloom Filter Index'). Each format
decides with its own metadata whether a unit of rows *might* match; whether one value
matches is decided here, alike for both.

A null matches only ``is_null``. A NaN is no bound of any order and equals nothing, so it
satisfies ``!=`` alone, as a NaN operand does (IEEE 754: every comparison with NaN but
"not equal" is false).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
NULL_TESTS = ("is_null", "is_not_null")
OPS = (*COMPARISONS, *NULL_TESTS)

Key = Callable[[Any], Any]  # a value -> what the column's order compares


def same(value: Any) -> Any:
    """The key of a value compared as it is."""
    return value


def is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


@dataclass(frozen=True)
class RowPredicate:
    """``column`` ``op`` ``value`` (None for the null tests)."""

    column: str
    op: str
    value: Any = None

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"predicate op must be one of {OPS}, not {self.op!r}")
        if (self.op in NULL_TESTS) != (self.value is None):
            raise ValueError(f"{self.op!r} takes {'no' if self.op in NULL_TESTS else 'a'} value")

    def matches(self, value: Any, key: Key = same) -> bool:
        """Whether one value (None: null) satisfies the predicate, compared by `key`."""
        if self.op in NULL_TESTS:
            return (value is None) == (self.op == "is_null")
        if value is None:
            return False
        if is_nan(value) or is_nan(self.value):
            return self.op == "!="
        return COMPARISONS[self.op](key(value), key(self.value))
