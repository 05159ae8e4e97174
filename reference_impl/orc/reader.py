"""The reference ORC reader: the file tail once, then one stripe at a time.

ORCv1.md, 'File Tail' (metadata/file_tail.py), 'Stripes' (streams/stripe.py) and
'Column Encodings' (columns/). Rows are dicts by the root STRUCT's field names, with
the values described in columns/registry.py's modules. Checks made here: the stripes'
number_of_rows add up to the Footer's, the stripes lie in order without overlapping,
and every row of the root struct is non-null (:class:`CorruptMetadata`,
:class:`InvalidValue`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from reference_impl.orc.columns.registry import build_reader
from reference_impl.orc.errors import CorruptMetadata, InvalidValue, UnsupportedFeature
from reference_impl.orc.metadata.file_tail import (
    DEFAULT_COMPRESSION_BLOCK_SIZE,
    FileTail,
    file_version,
    read_file_tail,
)
from reference_impl.orc.metadata.proto_enums import CalendarKind, CompressionKind
from reference_impl.orc.metadata.type_tree import TypeNode, from_types
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import HEADER_LENGTH, read_stripe

__all__ = ["OrcContents", "iter_stripes", "read_orc", "schema_of"]


OLDEST_VERSION = (0, 11)


@dataclass(frozen=True)
class OrcContents:
    tail: FileTail
    schema: TypeNode  # the root (a STRUCT)
    rows: list[dict[str, object]]  # one dict per row by top-level field name


def read_orc(source: bytes | bytearray | memoryview | str | os.PathLike[str]) -> OrcContents:
    """The whole file ``source`` (its bytes, or a path to it)."""
    data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else Path(source).read_bytes()
    tail = read_file_tail(data, decompress_stream)
    rows = [row for stripe_rows in iter_stripes(data, tail) for row in stripe_rows]
    return OrcContents(tail, schema_of(tail), rows)


def schema_of(tail: FileTail) -> TypeNode:
    return from_types(tail.footer.types, tail.footer_offset)


def iter_stripes(data: bytes, tail: FileTail) -> Iterator[list[dict[str, object]]]:
    """The rows of each stripe of the file ``data`` in turn."""
    footer, postscript = tail.footer, tail.postscript
    if footer.encryption is not None:
        raise UnsupportedFeature("the file has encrypted columns ('Column Encryption')", tail.footer_offset)
    schema = schema_of(tail)
    _check_stripes(tail)
    version = "0.11" if file_version(postscript) == OLDEST_VERSION else "0.12"
    kind = CompressionKind(postscript.compression or CompressionKind.NONE)
    block_size = postscript.compression_block_size or DEFAULT_COMPRESSION_BLOCK_SIZE
    calendar = _calendar(footer.calendar)

    def decompress(raw: bytes, offset: int) -> bytes:
        return decompress_stream(raw, kind, block_size, offset)

    column_count = len(footer.types)
    for index, information in enumerate(footer.stripes):
        stripe = read_stripe(data, information, index, column_count, tail.metadata_offset, decompress,
                             kind != CompressionKind.NONE)
        rows = build_reader(schema, stripe, version, calendar).read(information.number_of_rows or 0)
        yield [_row(row, index, number, information.offset) for number, row in enumerate(rows)]


def _check_stripes(tail: FileTail) -> None:
    footer = tail.footer
    total = sum(stripe.number_of_rows or 0 for stripe in footer.stripes)
    if total != (footer.number_of_rows or 0):
        raise CorruptMetadata(f"the stripes hold {total} rows; the Footer says {footer.number_of_rows}",
                              tail.footer_offset)
    end = HEADER_LENGTH
    for index, stripe in enumerate(footer.stripes):
        start = stripe.offset or 0
        if start < end:
            raise CorruptMetadata(f"stripe {index} starts at {start}, before the end of what precedes "
                                  f"it at {end}", start)
        end = start + (stripe.index_length or 0) + (stripe.data_length or 0) + (stripe.footer_length or 0)


def _calendar(calendar: int | None) -> CalendarKind | None:
    known = calendar is not None and calendar in CalendarKind._value2member_map_
    return CalendarKind(calendar) if known and calendar is not None else None


def _row(row: object, stripe: int, number: int, offset: int | None) -> dict[str, object]:
    if not isinstance(row, dict):
        raise InvalidValue(f"stripe {stripe}, row {number}: the root struct is null", offset)
    return row
