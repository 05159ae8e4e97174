"""Canonical tables and the canonical JSON document.

The document is what `conformance read` prints and what an external
implementation will speak (docs/canonical-values.md, "The document")::

    {"canonical_version": 1,
     "schema": [{"name": "a", "nullable": true, "type": {"kind": "int", ...}}, ...],
     "rows": [[<value of a>, ...], ...]}
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .codec import from_json, to_json, validate
from .types import Schema

CANONICAL_VERSION = 1


class DocumentError(ValueError):
    """A canonical JSON document is malformed."""


@dataclass(frozen=True)
class Table:
    schema: Schema
    rows: tuple[tuple[Any, ...], ...]

    @classmethod
    def from_rows(cls, schema: Schema, rows: Sequence[Sequence[Any]]) -> Table:
        return cls(schema, tuple(tuple(r) for r in rows))

    @classmethod
    def from_columns(cls, schema: Schema, columns: Sequence[Sequence[Any]]) -> Table:
        if len(columns) != len(schema):
            raise ValueError(f"{len(columns)} columns for a schema of {len(schema)} fields")
        return cls(schema, tuple(zip(*columns, strict=True)) if columns else ())

    def column(self, name: str) -> list[Any]:
        i = self.schema.names.index(name)
        return [row[i] for row in self.rows]

    def validate(self) -> None:
        """Raise CanonicalValueError if any cell is not canonical for its field."""
        for r, row in enumerate(self.rows):
            if len(row) != len(self.schema):
                raise DocumentError(f"row {r} has {len(row)} cells, schema has {len(self.schema)}")
            for f, v in zip(self.schema, row, strict=True):
                validate(f.type, v, f.nullable, f"row {r}.{f.name}")

    def to_document(self) -> dict[str, Any]:
        return {**self.document_head(), "rows": list(self.json_rows())}

    def document_head(self) -> dict[str, Any]:
        """The document without its rows: the version and the schema."""
        return {"canonical_version": CANONICAL_VERSION, "schema": self.schema.to_json()}

    def json_rows(self) -> Iterator[list[Any]]:
        """Each row as the document holds it, one at a time."""
        fields = list(self.schema)
        for row in self.rows:
            yield [to_json(f.type, v) for f, v in zip(fields, row, strict=True)]

    def to_json_text(self) -> str:
        return json.dumps(self.to_document(), ensure_ascii=False, indent=None)

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> Table:
        if doc.get("canonical_version") != CANONICAL_VERSION:
            raise DocumentError(
                f"canonical_version {doc.get('canonical_version')!r} is not {CANONICAL_VERSION}")
        try:
            schema = Schema.from_json(doc["schema"])
            fields = list(schema)
            rows = [tuple(from_json(f.type, v) for f, v in zip(fields, row, strict=True))
                    for row in doc["rows"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise DocumentError(f"malformed canonical document: {exc}") from exc
        return cls(schema, tuple(rows))

    @classmethod
    def from_json_text(cls, text: str) -> Table:
        return cls.from_document(json.loads(text))
