"""Pages and row groups: many pages per chunk, page boundaries at any row, both page versions.

Spec: README.md "File format", "Data Pages", "Configurations" (row group and
data page size); parquet.thrift `struct PageHeader`, `DataPageHeader`,
`DataPageHeaderV2`, `DictionaryPageHeader`.
"""

from __future__ import annotations

from conformance.values import Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions

SPEC = ("README.md: Data Pages", "parquet.thrift: struct PageHeader")
ROWS = 100
SCHEMA = Schema((Field("n", T.integer(32), True), Field("s", T.string(), True),
                 Field("b", T.boolean(), False)))


def _rows() -> tuple[tuple, ...]:
    return tuple((None if i % 6 == 0 else i, None if i % 4 == 3 else f"s{i}", i % 3 == 0)
                 for i in range(ROWS))


def _case(name: str, title: str, options: WriteOptions, spec: tuple[str, ...] = ()) -> Case:
    """Cases about pages leave the encoding to each writer unless it is the point."""
    return Case(id=f"pages/{name}", title=title, spec=SPEC + spec, schema=SCHEMA, rows=_rows(),
                options=options)


def cases() -> list[Case]:
    return [
        _case("many-pages-v1", "pages of 7 rows (the last one short), data page v1",
              WriteOptions(encoding=None, page_row_limit=7)),
        _case("many-pages-v2", "pages of 7 rows (the last one short), data page v2",
              WriteOptions(encoding=None, page_row_limit=7, page_version=2)),
        _case("one-row-pages", "a page per row", WriteOptions(encoding=None, page_row_limit=1)),
        _case("dictionary-many-pages-v1", "a dictionary page, then data pages of 9 rows",
              WriteOptions(encoding="RLE_DICTIONARY", page_row_limit=9),
              ("parquet.thrift: struct DictionaryPageHeader",)),
        _case("dictionary-many-pages-v2", "a dictionary page, then v2 data pages of 9 rows",
              WriteOptions(encoding="RLE_DICTIONARY", page_row_limit=9, page_version=2),
              ("parquet.thrift: struct DictionaryPageHeader",)),
        _case("row-groups-and-pages", "row groups of 30 rows, pages of 8 rows",
              WriteOptions(encoding=None, row_group_size=30, page_row_limit=8),
              ("README.md: Configurations",)),
        _case("compressed-many-pages-v2", "ZSTD v2 pages of 11 rows",
              WriteOptions(encoding=None, codec="ZSTD", page_version=2, page_row_limit=11)),
    ]
