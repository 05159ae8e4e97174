"""Flat schemas: columns described by ColumnSpec, and their SchemaElement form.

parquet.thrift, 'SchemaElement': the schema is a tree flattened depth first;
the first element is the root, a group whose ``num_children`` counts its
children; a leaf has a physical ``type`` and a ``repetition_type``.

This module is the *flat* view: the root and one level of leaves, each
REQUIRED or OPTIONAL, which is what :func:`~reference_impl.parquet.writer.write_parquet`
takes and :attr:`~reference_impl.parquet.reader.ParquetContents.columns` gives.
Any schema, nested included, is a ``schema_tree.SchemaNode`` tree;
:func:`schema_tree_of` and :func:`column_of` convert between the two views and
:func:`is_flat` says whether a tree has a flat view.

Logical types (LogicalTypes.md, 'Compatibility'): "Parquet writers must always
write LogicalType annotations where applicable, but must also write the
corresponding ConvertedType annotations (if any)"; ``type_rules`` holds
that correspondence; DECIMAL additionally needs ``scale`` and ``precision``
on the SchemaElement.

Levels for a flat column ('3.5 - Nested Encoding', '3.8 - Nulls'): the maximum
definition level is 1 for an OPTIONAL column (0 = null, 1 = value present) and
0 for a REQUIRED one (no levels are stored); the maximum repetition level is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from reference_impl.parquet.errors import UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    FieldRepetitionType,
    LogicalType,
    SchemaElement,
    Type,
)
from reference_impl.parquet.schema.tree import SchemaNode, root
from reference_impl.parquet.schema.type_rules import converted_type_for

__all__ = [
    "ROOT_NAME",
    "ColumnSpec",
    "column_of",
    "is_flat",
    "max_definition_level",
    "schema_elements",
    "schema_tree_of",
]

ROOT_NAME = "schema"


@dataclass(frozen=True)
class ColumnSpec:
    """One column of a flat schema.

    ``converted_type=None`` means "derive it from ``logical_type``" when writing
    (see :meth:`resolved`); a ColumnSpec produced by the reader carries exactly
    what the file says.
    """

    name: str
    physical_type: Type
    repetition: FieldRepetitionType
    type_length: int | None = None  # FIXED_LEN_BYTE_ARRAY only
    logical_type: LogicalType | None = None
    converted_type: ConvertedType | int | None = None
    scale: int | None = None
    precision: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ValueError(f"column name must be a string, got {self.name!r}")
        object.__setattr__(self, "physical_type", Type(self.physical_type))
        object.__setattr__(self, "repetition", FieldRepetitionType(self.repetition))
        if self.physical_type == Type.FIXED_LEN_BYTE_ARRAY:
            if not isinstance(self.type_length, int) or self.type_length < 1:
                raise ValueError(
                    f"column {self.name!r}: FIXED_LEN_BYTE_ARRAY needs a positive "
                    f"type_length, got {self.type_length!r}"
                )
        elif self.type_length is not None:
            raise ValueError(f"column {self.name!r}: type_length is only for FIXED_LEN_BYTE_ARRAY")
        if self.logical_type is not None and not isinstance(self.logical_type, LogicalType):
            raise ValueError(f"column {self.name!r}: logical_type must be a LogicalType")

    def resolved(self) -> ColumnSpec:
        """This spec as the writer stores it: ConvertedType derived from the
        LogicalType when not given, and DECIMAL's scale/precision copied onto
        the element when not given."""
        converted = self.converted_type
        if converted is None:
            converted = converted_type_for(self.logical_type)
        scale, precision = self.scale, self.precision
        decimal = self.logical_type.DECIMAL if self.logical_type is not None else None
        if decimal is not None:
            scale = decimal.scale if scale is None else scale
            precision = decimal.precision if precision is None else precision
        return replace(self, converted_type=converted, scale=scale, precision=precision)


def max_definition_level(column: ColumnSpec) -> int:
    return 1 if column.repetition == FieldRepetitionType.OPTIONAL else 0


# ---------------------------------------------------------------------------
# ColumnSpec <-> SchemaElement
# ---------------------------------------------------------------------------


def schema_elements(columns: Sequence[ColumnSpec]) -> list[SchemaElement]:
    """The depth-first SchemaElement list: the root group, then one leaf per column."""
    root = SchemaElement(name=ROOT_NAME, num_children=len(columns))
    return [root] + [_leaf_element(column.resolved()) for column in columns]


def _leaf_element(column: ColumnSpec) -> SchemaElement:
    return SchemaElement(
        type=column.physical_type,
        type_length=column.type_length,
        repetition_type=column.repetition,
        name=column.name,
        converted_type=column.converted_type,
        scale=column.scale,
        precision=column.precision,
        logicalType=column.logical_type,
    )


# ---------------------------------------------------------------------------
# ColumnSpec <-> the schema tree
# ---------------------------------------------------------------------------


def schema_tree_of(columns: Sequence[ColumnSpec]) -> SchemaNode:
    """The tree of a flat schema: the root and one leaf per column, as
    :meth:`ColumnSpec.resolved` (ConvertedType derived) says."""
    leaves = []
    for column in columns:
        spec = column.resolved()
        leaves.append(
            SchemaNode(
                name=spec.name,
                repetition=spec.repetition,
                physical_type=spec.physical_type,
                type_length=spec.type_length,
                logical_type=spec.logical_type,
                converted_type=spec.converted_type,
                scale=spec.scale,
                precision=spec.precision,
            )
        )
    return root(leaves)


def is_flat(tree: SchemaNode) -> bool:
    """True when every field is a REQUIRED or OPTIONAL leaf directly under the root."""
    return all(
        child.is_leaf and child.repetition in (FieldRepetitionType.REQUIRED, FieldRepetitionType.OPTIONAL)
        for child in tree.children or ()
    )


def column_of(node: SchemaNode) -> ColumnSpec:
    """The ColumnSpec of a top-level REQUIRED or OPTIONAL leaf, exactly as the file says."""
    repetition = node.repetition
    if not node.is_leaf or repetition not in (FieldRepetitionType.REQUIRED, FieldRepetitionType.OPTIONAL):
        raise UnsupportedFeature(
            f"field {node.name!r} is a {'group' if node.is_group else 'REPEATED leaf'}: a nested "
            f"field has no ColumnSpec (use the schema tree and the records)"
        )
    return ColumnSpec(
        name=node.name,
        physical_type=node.leaf_type,
        repetition=repetition,
        type_length=node.type_length if node.physical_type == Type.FIXED_LEN_BYTE_ARRAY else None,
        logical_type=node.logical_type,
        converted_type=node.converted_type,
        scale=node.scale,
        precision=node.precision,
    )
