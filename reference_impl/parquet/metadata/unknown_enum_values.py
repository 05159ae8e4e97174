"""Enum values this code does not know: where one stops the reader, where it is kept.

README.md, 'Extensibility': "Encodings are specified by enum and more can be
added in the future" and "Additional page types can be added and safely
skipped". ``thrift_struct.TEnum.read`` decodes a negative enum value as
CorruptMetadata (no version numbers a member below 0) and any other value it
does not know as an :class:`UnknownEnumValue`, which remembers its byte offset.
This module is the one place that decides what such a value does
(docs/unknown-enum-values.md):

* in a field that says how bytes are decoded (``DECODING_FIELDS``), the code
  that decodes those bytes asks :func:`require_known`, which raises
  UnsupportedFeature naming the field, the value and its byte offset;
* anywhere else the value only describes (``SchemaElement.converted_type``,
  ``PageEncodingStats``, ``ColumnMetaData.encodings``, ``ColumnIndex.boundary_order``
  ...): it is kept, messages name it with :func:`enum_name`, and the validator
  lists it with :func:`unknown_enum_values` (its ``unknown_enum_value`` finding).

A leaf's unknown ``SchemaElement.converted_type`` (parquet-cpp's legacy 24, "NA", on
columns of nulls) says nothing of how its bytes decode, only what its values mean.
What reads a leaf's meaning calls :func:`unknown_converted_type` and takes the one
reading there is, the physical values: a breach of :data:`UNKNOWN_CONVERTED_TYPE`
(parquet.thrift: "This enum should not be extended"), named, and refused under strict
reading.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from typing import TypeVar

from reference_impl.common.leniency import Rule, Strength, breach
from reference_impl.parquet.errors import CorruptMetadata, UnsupportedFeature
from reference_impl.parquet.metadata.thrift_struct import ThriftStruct, UnknownEnumValue, field_table

__all__ = [
    "DECODING_FIELDS",
    "UNKNOWN_CONVERTED_TYPE",
    "enum_name",
    "require_known",
    "unknown_converted_type",
    "unknown_enum_values",
]

UNKNOWN_CONVERTED_TYPE = Rule(
    id="parquet.schema.unknown-converted-type",
    format="parquet",
    spec="parquet.thrift: enum ConvertedType",
    sentence="ConvertedType is superseded by LogicalType.  This enum should not be extended.",
    strength=Strength.SHOULD,
    reading="the column's values as its physical type (a ConvertedType never changes how the bytes "
    "decode); the annotation is not read",
    error=UnsupportedFeature,
)

# The fields whose value decides how the bytes after them are read: a value
# this code does not know there makes the column (or page) unreadable. A page
# type is not among them: an unknown page is skipped, as README.md allows.
DECODING_FIELDS = frozenset(
    {
        "SchemaElement.type",
        "SchemaElement.repetition_type",
        "ColumnMetaData.codec",
        "DataPageHeader.encoding",
        "DataPageHeader.definition_level_encoding",
        "DataPageHeader.repetition_level_encoding",
        "DataPageHeaderV2.encoding",
        "DictionaryPageHeader.encoding",
    }
)

E = TypeVar("E", bound=IntEnum)


def require_known(enum_class: type[E], value: int, field: str) -> E:
    """``value`` as a member of ``enum_class``, for a field of ``DECODING_FIELDS``.

    An unknown value is UnsupportedFeature (the file may be a newer version's)
    at the value's byte offset when it was decoded from a file.
    """
    if field not in DECODING_FIELDS:
        raise ValueError(f"{field} is not a field whose value decides decoding")
    if isinstance(value, enum_class):
        return value
    offset = value.offset if isinstance(value, UnknownEnumValue) else None
    if value < 0:
        raise CorruptMetadata(f"{field}: {enum_class.__name__} value {int(value)} is negative", offset)
    try:
        return enum_class(value)
    except ValueError:
        raise UnsupportedFeature(
            f"{field}: {enum_class.__name__} value {int(value)} is not one this reader knows "
            f"(a newer format version's?), and it decides how the bytes are read",
            offset,
        ) from None


def enum_name(enum_class: type[IntEnum], value: int) -> str:
    """The member's name, or "unknown <Enum> <value>" for a value the enum does not have."""
    try:
        return enum_class(value).name
    except ValueError:
        return f"unknown {enum_class.__name__} {int(value)}"


def unknown_enum_values(struct: ThriftStruct, path: str) -> Iterator[tuple[str, UnknownEnumValue]]:
    """Every unknown enum value in ``struct`` and the structs inside it, with its
    field path from ``path`` (e.g. ``meta_data.encoding_stats[0].encoding``)."""
    for spec in field_table(type(struct)).values():
        yield from _unknown_in(getattr(struct, spec.name), f"{path}.{spec.name}")


def _unknown_in(value: object, path: str) -> Iterator[tuple[str, UnknownEnumValue]]:
    if isinstance(value, UnknownEnumValue):
        yield path, value
    elif isinstance(value, ThriftStruct):
        yield from unknown_enum_values(value, path)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _unknown_in(item, f"{path}[{index}]")


def unknown_converted_type(converted_type: int | None, where: str) -> bool:
    """Whether ``converted_type`` is a value ``ConvertedType`` does not have: then a
    breach of :data:`UNKNOWN_CONVERTED_TYPE` at its byte offset (``where`` names the column)."""
    if not isinstance(converted_type, UnknownEnumValue):
        return False
    breach(UNKNOWN_CONVERTED_TYPE, f"{where}: {converted_type.name}", converted_type.offset)
    return True
