"""Enum values the reference does not know, in the metadata of a column chunk.

README.md, 'Extensibility': "Encodings are specified by enum and more can be
added in the future", "Additional page types can be added and safely skipped".
A value that decides how bytes are read stops the reader
(``metadata.unknown_enum_values.require_known``); every other one is kept and
reported here as an ``unknown_enum_value`` finding naming the field and the
value: the leaf's ``SchemaElement.converted_type``, any enum of the chunk's
ColumnMetaData (``encodings``, ``encoding_stats``) and of its page headers
(a skipped page of an unknown type included). The file may be a newer
version's, a legacy writer's own value, or damaged; this reference cannot say
which, so the finding is ambiguous (docs/validation.md), never untrue.
"""

from __future__ import annotations

from reference_impl.parquet.metadata.thrift_struct import UnknownEnumValue
from reference_impl.parquet.metadata.unknown_enum_values import unknown_enum_values
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.findings import Finding

__all__ = ["KIND", "check_unknown_enum_values"]

KIND = "unknown_enum_value"


def check_unknown_enum_values(state: Chunk) -> list[Finding]:
    """One finding per unknown enum value of the chunk's schema element, metadata and pages."""
    found: list[tuple[str, UnknownEnumValue]] = []
    converted = state.leaf.node.converted_type
    if isinstance(converted, UnknownEnumValue):
        found.append((f"SchemaElement {state.leaf.dotted_path!r}.converted_type", converted))
    found += unknown_enum_values(state.meta, "ColumnMetaData")
    for ordinal, page in enumerate(state.data.pages):
        found += unknown_enum_values(page.header, f"page {ordinal} PageHeader")
    return [
        state.report(
            KIND,
            f"{path} is {value.enum_name} {int(value)} (at byte offset {value.offset}), a value "
            f"this reference does not know: a newer format version's, or damage "
            f"(README.md, 'Extensibility')",
        )
        for path, value in found
    ]
