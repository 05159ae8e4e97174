"""Are the file's VARIANT columns shredded as the spec says?

Spec: VariantShredding.md, 'Value Shredding' (with 'Shredded Value Types',
'Primitive Types', 'Arrays', 'Objects') and 'Variant Metadata';
VariantEncoding.md, 'Variant in Parquet'; LogicalTypes.md, 'VARIANT'.

Every VARIANT group of the schema, at any depth, is walked with the reader's
own layout and reassembly (``schema.variant_shredding``), told to collect
each breach of a :data:`~reference_impl.parquet.schema.variant_shredding.RULES`
rule instead of failing. One finding per breach, kind ``variant.<rule>``,
with the severity of the rule's strength: the message quotes the rule with its strength
(MUST/SHOULD) and its section, and says where: the variant column, the row
group, the row within it and the path inside the variant (``typed_value.a``,
``[2]`` for an array element). Schema rules are reported once, at row group 0;
a variant whose layout the reader cannot read (e.g. a ``typed_value`` type the
table has no row for) is not walked further. A value whose bytes are not a
valid Variant is ``variant.value_encoding``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from reference_impl.common.leniency import reading
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import ParquetError
from reference_impl.parquet.reader import read_footer_with_decryptor, read_parquet
from reference_impl.parquet.schema.nested_types import (
    ListShape,
    MapShape,
    Shape,
    StructShape,
    logical_shape,
    to_logical,
)
from reference_impl.parquet.schema.tree import SchemaNode, schema_tree_from_elements
from reference_impl.parquet.schema.variant_shredding import (
    Rule,
    VariantLayout,
    is_variant,
    reconstruct_variant,
    variant_layout,
)
from reference_impl.parquet.validation.findings import Finding

__all__ = ["VALUE_ENCODING", "check_variant_shredding"]

VALUE_ENCODING = Rule("variant.value_encoding", "MUST", "VariantEncoding.md, 'Variant in Parquet'",
                      "When present, the `value` field must be a valid Variant value", readable=False)


class _Breaches:
    """A sink that keeps every breach (see ``variant_shredding.Sink``)."""

    def __init__(self) -> None:
        self.found: list[tuple[Rule, str, str]] = []

    def __call__(self, rule: Rule, where: str, found: str) -> None:
        self.found.append((rule, where, found))

    def findings(self, column: str, row_group: int, prefix: str = "") -> list[Finding]:
        return [Finding(rule.kind, rule.rule_text, column, row_group, None,
                        f"{prefix}{where}: {found}; {rule.quote()}") for rule, where, found in self.found]


def check_variant_shredding(
    file: bytes, *, decryption: FileDecryptionProperties | None = None
) -> list[Finding]:
    """The findings about every VARIANT column of ``file`` (none when it has none)."""
    metadata, footer_start, _ = read_footer_with_decryptor(file, decryption=decryption)
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    if not any(is_variant(node) for node in _nodes(tree)):
        return []  # other files are not shaped here: their LIST and MAP rules are the reader's
    shape = logical_shape(tree, offset=footer_start)
    tops = [f for f in shape.fields if any(True for _ in _variant_shapes(f, f.node.name))]
    layouts, findings = _layouts(tops)
    # The breaches of this second read are known: the schema's are the variant.*
    # findings of _layouts, the chunks' were met (and reported) by validate's walk.
    with reading():
        records = read_parquet(file, decryption=decryption, columns=[t.node.name for t in tops]).records
    first_row = 0
    for ordinal, row_group in enumerate(metadata.row_groups):
        for row in range(row_group.num_rows):
            record = records[first_row + row]
            for top in tops:
                value = to_logical(top, record.get(top.node.name))
                findings += _check_value(top, value, layouts, ordinal, row)
        first_row += row_group.num_rows
    return findings


def _layouts(tops: list[Shape]) -> tuple[dict[str, VariantLayout], list[Finding]]:
    """The readable layout of each variant by path, and the schema findings (at row group 0)."""
    layouts: dict[str, VariantLayout] = {}
    findings: list[Finding] = []
    for top in tops:
        for path, variant in _variant_shapes(top, top.node.name):
            breaches = _Breaches()
            layout = variant_layout(variant, path, breaches)
            findings += breaches.findings(path, 0, "schema: ")
            if all(rule.readable for rule, _, _ in breaches.found):
                layouts[path] = layout
    return layouts, findings


def _check_value(
    top: Shape, value: Any, layouts: dict[str, VariantLayout], row_group: int, row: int
) -> list[Finding]:
    findings = []
    for path, group_value in _variant_values(top, value, top.node.name):
        if path not in layouts:
            continue
        breaches = _Breaches()
        try:
            reconstruct_variant(layouts[path], group_value, f"row {row}", breaches)
        except ParquetError as error:
            breaches.found.append((VALUE_ENCODING, f"row {row}", str(error)))
        findings += breaches.findings(path, row_group)
    return findings


def _nodes(node: SchemaNode) -> Iterator[SchemaNode]:
    yield node
    for child in node.children or ():
        yield from _nodes(child)


def _variant_shapes(shape: Shape, path: str) -> Iterator[tuple[str, StructShape]]:
    """Every VARIANT group under ``shape`` (itself included), with its dotted path."""
    for child, child_path, _ in _children(shape, path, None):
        if isinstance(child, StructShape) and is_variant(child.node):
            yield child_path, child
        else:
            yield from _variant_shapes(child, child_path)


def _variant_values(shape: Shape, value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Each VARIANT group's logical value under ``shape``'s ``value`` (nulls skipped)."""
    if value is None:
        return
    for child, child_path, child_value in _children(shape, path, value):
        if isinstance(child, StructShape) and is_variant(child.node):
            yield child_path, child_value
        else:
            yield from _variant_values(child, child_value, child_path)


def _children(shape: Shape, path: str, value: Any) -> Iterator[tuple[Shape, str, Any]]:
    """``shape`` itself when it is a variant, else its child shapes with their values
    (one per list element and map entry; ``value`` None: the shapes alone)."""
    if isinstance(shape, StructShape) and is_variant(shape.node):
        yield shape, path, value
    elif isinstance(shape, StructShape):
        for field in shape.fields:
            yield field, f"{path}.{field.node.name}", None if value is None else value.get(field.node.name)
    elif isinstance(shape, ListShape):
        for element in [None] if value is None else value:
            yield shape.element, path, element
    elif isinstance(shape, MapShape):
        for key, item in [(None, None)] if value is None else value:
            yield shape.key, path, key
            if shape.value is not None:
                yield shape.value, path, item
