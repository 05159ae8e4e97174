"""The page index: ColumnIndex and OffsetIndex over many pages, and page skipping.

Spec: PageIndex.md 'Technical Approach'; parquet.thrift `struct
ColumnIndex` (null_pages, boundary_order), `struct OffsetIndex`, `struct
PageLocation`.

Each case has several row groups of several pages and a predicate that only
some pages can satisfy, so a reader that skips pages by the column index must
pick the right ones; the columns are ascending, descending and unordered
(boundary_order), with pages of nulls only. The lying cases are written by the
reference only (`WriteOptions.lies`): their index or statistics claim values
the pages do not hold, and a reader that trusts them returns fewer rows than a
full scan. That is recorded, not excused: it shows which readers trust what.
"""

from __future__ import annotations

from conformance.values import Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions
from ..predicate import Predicate

SPEC = ("PageIndex.md: Technical Approach", "parquet.thrift: struct ColumnIndex",
        "parquet.thrift: struct OffsetIndex")
ROWS = 60
PAGE_ROWS = 7
ROW_GROUP_ROWS = 30
SCHEMA = Schema((Field("n", T.integer(32), True), Field("s", T.string(), True)))
INDEXED = WriteOptions(encoding=None, statistics=True, page_index=True, page_row_limit=PAGE_ROWS,
                       row_group_size=ROW_GROUP_ROWS)


def _rows(order: str) -> tuple[tuple, ...]:
    """``n`` ascending, descending or scattered, with a run of nulls that fills a page."""
    numbers = {"ascending": list(range(ROWS)), "descending": list(range(ROWS, 0, -1)),
               "unordered": [(i * 37) % ROWS for i in range(ROWS)]}[order]
    nulls = range(PAGE_ROWS, 2 * PAGE_ROWS)  # the second page of the first row group
    return tuple((None if i in nulls else n, f"row {i:02d}") for i, n in enumerate(numbers))


def _case(name: str, title: str, order: str, predicate: Predicate, options: WriteOptions = INDEXED,
          spec: tuple[str, ...] = ()) -> Case:
    return Case(id=f"page_index/{name}", title=title, spec=SPEC + spec, schema=SCHEMA,
                rows=_rows(order), options=options, predicate=predicate)


def cases() -> list[Case]:
    lies_spec = ("parquet.thrift: struct Statistics",)
    return [
        *(_case(f"{order}-range", f"{order} column, pages of {PAGE_ROWS} rows, a range predicate",
                order, Predicate("n", ">=", 50))
          for order in ("ascending", "descending", "unordered")),
        _case("point-lookup", "ascending column: one page holds the value", "ascending",
              Predicate("n", "==", 33)),
        _case("null-pages", "a page of nulls only (null_pages) and IS NULL", "ascending",
              Predicate("n", "is_null")),
        _case("string-column", "a predicate on the string column's index", "unordered",
              Predicate("s", "<", "row 10")),
        _case("page-v2", "data page v2 with its num_rows", "ascending", Predicate("n", "<", 12),
              WriteOptions(encoding=None, statistics=True, page_index=True, page_version=2,
                           page_row_limit=PAGE_ROWS, row_group_size=ROW_GROUP_ROWS)),
        _case("lying-column-index", "TEST-ONLY lie: each page's min claims its max", "ascending",
              Predicate("n", "==", 33),
              WriteOptions(encoding="PLAIN", statistics=True, page_index=True,
                           page_row_limit=PAGE_ROWS, row_group_size=ROW_GROUP_ROWS,
                           lies=("page_index",))),
        _case("lying-statistics", "TEST-ONLY lie: each row group's min claims its max",
              "ascending", Predicate("n", "==", 33),
              WriteOptions(encoding="PLAIN", statistics=True, page_row_limit=PAGE_ROWS,
                           row_group_size=ROW_GROUP_ROWS, lies=("statistics",)), lies_spec),
    ]
