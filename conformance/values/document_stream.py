"""The canonical document written as its rows come (docs/canonical-values.md, "The
document"), so that a reader that decodes a file one row group or stripe at a time
(`conformance read --stream`, `--jsonl`) never holds the whole document.

Both writers take the file's rows as canonical tables of one schema, the first of them
possibly empty (a reader gives the schema before any row group):

- `write_document`: exactly the bytes `json.dumps(table.to_document())` and a newline
  would be for the rows joined, extra members (`file_references`) after the rows;
- `write_jsonl`: JSON Lines, the document's head (`canonical_version`, `schema`) on the
  first line, then one row per line as the document's `rows` hold it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any, TextIO

from .table import Table

__all__ = ["write_document", "write_jsonl"]

ROW_SEPARATOR = ", "  # json.dumps's item separator


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _head_and_rows(tables: Iterable[Table]) -> tuple[dict[str, Any], Iterator[list[Any]]]:
    """The document's head, from the first table's schema, and every table's rows."""
    remaining = iter(tables)
    first = next(remaining, None)
    if first is None:
        raise ValueError("no table: a reader gives at least the schema")
    return first.document_head(), _rows(chain((first,), remaining))


def _rows(tables: Iterator[Table]) -> Iterator[list[Any]]:
    """The rows of each table in turn, no table held once its rows are out (a ``for`` would
    hold the last one while the next is read)."""
    while (table := next(tables, None)) is not None:
        rows = table.json_rows()
        del table
        yield from rows


def write_document(tables: Iterable[Table], out: TextIO,
                   extra: Callable[[], dict[str, Any]] | None = None) -> None:
    """The canonical document of ``tables``' rows, and ``extra()``'s members after them."""
    head, rows = _head_and_rows(tables)
    out.write(_dumps(head)[:-1] + ', "rows": [')  # the head's closing brace makes way for the rows
    separator = ""
    for row in rows:
        out.write(separator + _dumps(row))
        separator = ROW_SEPARATOR
    out.write("]")
    for name, value in (extra() if extra is not None else {}).items():
        out.write(f", {_dumps(name)}: {_dumps(value)}")
    out.write("}\n")


def write_jsonl(tables: Iterable[Table], out: TextIO) -> None:
    """The document's head on one line, then each row on its own."""
    head, rows = _head_and_rows(tables)
    out.write(_dumps(head) + "\n")
    for row in rows:
        out.write(_dumps(row) + "\n")
