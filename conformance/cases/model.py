"""The case model: one declarative, self-describing conformance case.

A case names what a file must contain (schema + canonical rows, the expected
values), how it should be written (abstract `WriteOptions` that each engine maps
to its own knobs or declares unsupported), which spec sections it exercises and
which feature tags it carries. Feature tags are derived from the schema and the
options, so a case cannot claim a feature it does not exercise.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.values import DataType, Field, Schema, Table

# Encodings and codecs by their parquet.thrift enum names.
ENCODINGS = ("PLAIN", "RLE_DICTIONARY", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY",
             "DELTA_BYTE_ARRAY", "BYTE_STREAM_SPLIT", "RLE")
CODECS = ("UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW")


@dataclass(frozen=True)
class WriteOptions:
    """Abstract write options (parquet-format-docs.txt, "File format", "Data Pages")."""

    encoding: str = "PLAIN"  # value encoding of every column
    codec: str = "UNCOMPRESSED"
    page_version: int = 1  # 1: DataPageHeader, 2: DataPageHeaderV2
    row_group_size: int | None = None  # rows per row group; None: a single row group

    def __post_init__(self) -> None:
        if self.encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {self.encoding!r}")
        if self.codec not in CODECS:
            raise ValueError(f"unknown codec {self.codec!r}")
        if self.page_version not in (1, 2):
            raise ValueError(f"page_version must be 1 or 2, not {self.page_version}")

    def to_json(self) -> dict[str, Any]:
        return {"encoding": self.encoding, "codec": self.codec, "page_version": self.page_version,
                "row_group_size": self.row_group_size}


@dataclass(frozen=True)
class Case:
    id: str  # "<area>/<name>", unique in the catalogue
    title: str
    spec: tuple[str, ...]  # section names in shared/spec, e.g. "parquet.thrift: enum Type"
    schema: Schema
    rows: tuple[tuple[Any, ...], ...]
    options: WriteOptions = field(default_factory=WriteOptions)
    extra_features: tuple[str, ...] = ()  # tags the schema/options cannot show, e.g. "nulls:all"
    format: str = "parquet"

    def __post_init__(self) -> None:
        self.expected.validate()

    @property
    def expected(self) -> Table:
        return Table(self.schema, self.rows)

    @property
    def features(self) -> tuple[str, ...]:
        tags = set(self.extra_features)
        for f in self.schema:
            tags.update(field_tags(f))
        tags.add(f"encoding:{self.options.encoding}")
        tags.add(f"codec:{self.options.codec}")
        tags.add(f"page:v{self.options.page_version}")
        size = self.options.row_group_size
        if size is not None and len(self.rows) > size:
            tags.add("row_groups:multiple")
        return tuple(sorted(tags))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "format": self.format, "spec": list(self.spec),
                "features": list(self.features), "options": self.options.to_json(),
                **self.expected.to_document()}


def field_tags(f: Field) -> set[str]:
    tags = {f"repetition:{'OPTIONAL' if f.nullable else 'REQUIRED'}"}
    tags.update(type_tags(f.type))
    for child in (f.type.element, f.type.key, f.type.value, *f.type.fields):
        if child is not None:
            tags.update(field_tags(child))
    return tags


def type_tags(t: DataType) -> set[str]:
    """`physical:<Type>` plus `type:<logical type>` (LogicalTypes.md names)."""
    tags = {f"physical:{t.physical}"} if t.physical else set()
    match t.kind:
        case "int":
            tags.add(f"type:INT({t.bits},{'signed' if t.signed else 'unsigned'})")
        case "decimal":
            tags.add(f"type:DECIMAL({t.physical})")
        case "time" | "timestamp":
            tags.add(f"type:{t.kind.upper()}({t.unit},{'utc' if t.utc else 'local'})")
        case "float":
            tags.add(f"type:{t.describe()}")
        case _:
            tags.add(f"type:{t.kind.upper()}")
    return tags


def select(cases: Iterable[Case], globs: Sequence[str] = (), features: Sequence[str] = ()
           ) -> list[Case]:
    """Cases whose id matches any glob (all when none) and that carry every feature pattern."""
    out = []
    for case in cases:
        if globs and not any(fnmatch.fnmatchcase(case.id, g) for g in globs):
            continue
        if not all(any(fnmatch.fnmatchcase(t, p) for t in case.features) for p in features):
            continue
        out.append(case)
    return out
