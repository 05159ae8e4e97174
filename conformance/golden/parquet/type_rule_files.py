"""Bad files of the type rules: one annotation on a physical type it may not annotate.

LogicalTypes.md says, section by section ('STRING', 'Signed Integers', 'DATE',
'UUID', ...), which physical type (and FIXED_LEN_BYTE_ARRAY length) each
annotation may annotate; ``reference_impl.parquet.schema.type_rules.TYPE_RULES``
holds those rules as one table. For every leaf row and every physical type the
row forbids, :func:`type_rule_files` has one bad file: the reference writer's
one-column file of that physical type with the row's annotation edited into its
SchemaElement (its LogicalType; its ConvertedType where the row has no
LogicalType), which a reader must reject (the reference: ``CorruptMetadata``).

:func:`annotated_file` makes such a file for any annotation; the tests of the
type rules (tests/reference_impl/test_type_rules.py) build theirs with it too.
"""

from __future__ import annotations

import io
import re
import typing
from dataclasses import replace
from functools import cache, partial
from typing import Any

from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import LogicalType, Type
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.schema.type_rules import ALL_TYPES, GROUP, TYPE_RULES, Citation, TypeRule
from reference_impl.parquet.writer import write_table

from ..bad_file import BadFile
from .bad_files import _with_footer_bytes

__all__ = ["COLUMN", "LEAF_ROWS", "WRONG_LENGTH", "annotated_file", "annotations_of", "forbidden_types",
           "logical_type_of", "type_rule_files"]

COLUMN = "c"
WRONG_LENGTH = 3  # no row needs a FIXED_LEN_BYTE_ARRAY(3)
INT96_LENGTH = 12
VALUES = {
    Type.BOOLEAN: True, Type.INT32: 1, Type.INT64: 1, Type.INT96: bytes(INT96_LENGTH), Type.FLOAT: 1.0,
    Type.DOUBLE: 1.0, Type.BYTE_ARRAY: b"a",
}
UNITS = {"MILLIS": md.TimeUnit(MILLIS=md.MilliSeconds()), "MICROS": md.TimeUnit(MICROS=md.MicroSeconds()),
         "NANOS": md.TimeUnit(NANOS=md.NanoSeconds())}
LEAF_ROWS = tuple(row for row in TYPE_RULES if row.physical_types not in (GROUP, ALL_TYPES))
SPEC_FILE = "LogicalTypes.md"
ID_PREFIX = "type-rule/"
NOT_IN_ID = re.compile(r"[^a-z0-9]+")


@cache
def _plain_file(physical: Type, length: int | None) -> bytes:
    """A one-row, one-column REQUIRED file of ``physical``, without annotation."""
    sink = io.BytesIO()
    value = b"x" * length if length is not None else VALUES[physical]
    node = leaf(COLUMN, physical, repetition=md.FieldRepetitionType.REQUIRED, type_length=length)
    write_table(sink, root([node]), [{COLUMN: value}])
    return sink.getvalue()


def annotated_file(physical: Type, length: int | None = None, **annotations: Any) -> bytes:
    """A one-column file of ``physical``, with ``annotations`` edited into its SchemaElement."""
    raw = _plain_file(physical, length)
    footer, _ = read_footer(raw)
    footer.schema[1] = replace(footer.schema[1], **annotations)
    return _with_footer_bytes(raw, serialize(footer))  # longer than the original's footer


def logical_type_of(row: TypeRule) -> LogicalType:
    """The LogicalType of ``row``'s annotation (``INTEGER(8, true)``, ``TIME(MILLIS)``, ...)."""
    name, _, parameters = row.annotation.partition("(")
    parameters = parameters.rstrip(")")
    if name == "INTEGER":
        bits, signed = parameters.split(", ")
        return LogicalType(INTEGER=md.IntType(bitWidth=int(bits), isSigned=signed == "true"))
    if name == "TIME":
        return LogicalType(TIME=md.TimeType(isAdjustedToUTC=True, unit=UNITS[parameters]))
    if name == "TIMESTAMP":
        return LogicalType(TIMESTAMP=md.TimestampType(isAdjustedToUTC=True, unit=UNITS[parameters]))
    if name == "DECIMAL":
        return LogicalType(DECIMAL=md.DecimalType(scale=0, precision=1))
    member_type = typing.get_args(typing.get_type_hints(LogicalType)[name])[0]
    return LogicalType(**{name: member_type()})


def annotations_of(row: TypeRule) -> list[tuple[str, dict[str, Any]]]:
    """Each way a file can carry the row: its LogicalType alone, its ConvertedType alone,
    each named (``LogicalType STRING``) with the SchemaElement fields that carry it."""
    decimal = {"precision": 1, "scale": 0} if row.annotation == "DECIMAL" else {}
    ways: list[tuple[str, dict[str, Any]]] = []
    if row.logical:
        ways.append((f"LogicalType {row.annotation}", {"logicalType": logical_type_of(row)}))
    if row.converted_type is not None:
        converted = {"converted_type": row.converted_type, **decimal}
        ways.append((f"ConvertedType {row.converted_type.name}", converted))
    return ways


def forbidden_types(row: TypeRule) -> list[tuple[Type, int | None]]:
    """The (physical type, FIXED_LEN_BYTE_ARRAY length) pairs ``row`` may not annotate."""
    wrong = [(t, WRONG_LENGTH if t == Type.FIXED_LEN_BYTE_ARRAY else None)
             for t in Type if t not in row.physical_types]
    if row.type_length is not None:
        wrong.append((Type.FIXED_LEN_BYTE_ARRAY, WRONG_LENGTH))
    return wrong


def _slug(text: str) -> str:
    return NOT_IN_ID.sub("-", text.lower()).strip("-")


def _entry(row: TypeRule, physical: Type, length: int | None) -> BadFile:
    name, annotations = annotations_of(row)[0]  # the LogicalType where the row has one
    citation: Citation = row.rule if row.logical else row.rule_of_converted
    sized = physical.name if length is None else f"{physical.name}({length})"
    return BadFile(
        f"{ID_PREFIX}{_slug(row.annotation)}-on-{_slug(physical.name)}",
        f"The column's {name} annotates the physical type {sized}, which {SPEC_FILE} "
        f"'{citation.section}' forbids.",
        "CorruptMetadata",
        (f"{SPEC_FILE}: {citation.section}",),
        partial(annotated_file, physical, length, **annotations),
        partial(_plain_file, physical, length),
    )


def type_rule_files() -> list[BadFile]:
    """One bad file per forbidden (annotation, physical type) pair of the leaf rows."""
    return [_entry(row, physical, length) for row in LEAF_ROWS for physical, length in forbidden_types(row)]
