"""The document `conformance inspect` prints: JSON-safe values, and the same as indented text.

Both formats' inspectors build a tree of dicts, lists and scalars (`document`); `text`
prints it one line per leaf record, so that a page of a Parquet column chunk or a stream
of an ORC stripe is one line:

* a scalar is `key: value`;
* a dict is one line of its scalar fields, `key: a=1 b=2`, and its other fields (dicts,
  lists of dicts) indented below it: a dict of scalars only, a "record", is one line;
* a list of scalars is one line, `[1, 2, 3]`, cut after `LIST_ITEMS_SHOWN` items, and a
  text after `TEXT_SHOWN` characters (`--json` prints everything);
* a list of dicts is `key: (N)` and one `[i] ...` entry per item.

`plain` turns the reference's parsed messages (dataclasses: Thrift structs, protobuf
messages) into such a tree: enums by name, bytes as hex, absent fields left out.
"""

from __future__ import annotations

import dataclasses
import math
from enum import Enum
from typing import Any

from reference_impl.common.leniency import Breach

INDENT = "  "
LIST_ITEMS_SHOWN = 16  # a list of scalars longer than this shows its first items and a count
TEXT_SHOWN = 120  # a longer text (Arrow's serialized schema, key material) shows its start and length
# Fields of the reference's Thrift structs that record how they were read, not what the file says.
READING_FIELDS = frozenset({"skipped_fields", "extension_bytes"})


def plain(value: Any) -> Any:
    """`value` as JSON-safe data: a dataclass as a dict of its set fields, an enum by name,
    bytes as hex, a float that is not finite by its name; None and empty lists or dicts are
    left out of dicts."""
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, float) and not math.isfinite(value):  # JSON has no NaN or infinity
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return record({f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                       if f.name not in READING_FIELDS})
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return record({str(key): plain(item) for key, item in value.items()})
    return value


def record(fields: dict[str, Any]) -> dict[str, Any]:
    """`fields` without the absent ones (None, an empty list or dict)."""
    return {key: value for key, value in fields.items() if value is not None and value != [] and value != {}}


def breach_records(breaches: list[Breach]) -> list[dict[str, Any]]:
    """The rules a file breaks that leave one reading (docs/lenient-readings.md), one record each."""
    return [record({"strength": found.rule.strength.value, "rule": found.rule.id, "where": found.where,
                    "offset": found.offset, "read_as": found.rule.reading}) for found in breaches]


def bits_set(bitset: bytes | bytearray) -> int:
    """How many bits of a Bloom filter's bitset are set (both formats' filters are bytes)."""
    return int.from_bytes(bitset, "little").bit_count()


def text_or_hex(value: str | bytes | None) -> str | None:
    """Key metadata and user metadata values: text when they are UTF-8, else `hex:` and the bytes."""
    if value is None or isinstance(value, str):
        return value
    try:
        return bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        return f"hex:{bytes(value).hex()}"


def text(document: dict[str, Any]) -> str:
    """The document as indented text (see the module docstring)."""
    lines: list[str] = []
    for key, value in document.items():
        _entry(key, value, 0, lines)
    return "\n".join(lines)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


def _is_inline(value: Any) -> bool:
    """A scalar, or a list of scalars: printed on the line of its key."""
    return _is_scalar(value) or (isinstance(value, list) and all(map(_is_scalar, value)))


def _scalar(value: Any) -> str:
    if isinstance(value, list):
        shown = ", ".join(map(_scalar, value[:LIST_ITEMS_SHOWN]))
        more = len(value) - LIST_ITEMS_SHOWN
        return f"[{shown}{f', ... {more} more' if more > 0 else ''}]"
    if isinstance(value, str) and len(value) > TEXT_SHOWN:
        return repr(f"{value[:TEXT_SHOWN]}... ({len(value)} characters)")
    if isinstance(value, str) and (not value or " " in value or "=" in value):
        return repr(value)
    return str(value)


def _line(value: dict[str, Any]) -> str:
    return " ".join(f"{key}={_scalar(item)}" for key, item in value.items())


def _entry(key: str, value: Any, depth: int, lines: list[str]) -> None:
    indent = INDENT * depth
    if _is_inline(value):
        lines.append(f"{indent}{key}: {_scalar(value)}")
    elif isinstance(value, dict):
        inline = {inner: item for inner, item in value.items() if _is_inline(item)}
        lines.append(f"{indent}{key}:{f' {_line(inline)}' if inline else ''}")
        for inner, item in value.items():
            if inner not in inline:
                _entry(inner, item, depth + 1, lines)
    else:
        lines.append(f"{indent}{key}: ({len(value)})")
        for number, item in enumerate(value):
            _entry(f"[{number}]", item, depth + 1, lines)
