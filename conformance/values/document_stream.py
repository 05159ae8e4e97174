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


def _first_and_all(tables: Iterable[Table]) -> tuple[Table, Iterator[Table]]:
    """The first table (its schema heads the output) and every table, that one included."""
    remaining = iter(tables)
    first = next(remaining, None)
    if first is None:
        raise ValueError("no table: a reader gives at least the schema")
    return first, chain((first,), remaining)


def write_document(tables: Iterable[Table], out: TextIO,
                   extra: Callable[[], dict[str, Any]] | None = None) -> None:
    """The canonical document of ``tables``' rows, and ``extra()``'s members after them."""
    first, every = _first_and_all(tables)
    head = _dumps(first.document_head())
    out.write(head[:-1] + ', "rows": [')  # the head's closing brace makes way for the rows
    separator = ""
    for table in every:
        for row in table.json_rows():
            out.write(separator + _dumps(row))
            separator = ROW_SEPARATOR
    out.write("]")
    for name, value in (extra() if extra is not None else {}).items():
        out.write(f", {_dumps(name)}: {_dumps(value)}")
    out.write("}\n")


def write_jsonl(tables: Iterable[Table], out: TextIO) -> None:
    """The document's head on one line, then each row on its own."""
    first, every = _first_and_all(tables)
    out.write(_dumps(first.document_head()) + "\n")
    for table in every:
        for row in table.json_rows():
            out.write(_dumps(row) + "\n")
