"""Are the file's VARIANT columns shredded as the spec says?

Spec: VariantShredding.md, 'Value Shredding' (with 'Shredded Value Types',
'Primitive Types', 'Arrays', 'Objects') and 'Variant Metadata';
VariantEncoding.md, 'Variant in Parquet'; LogicalTypes.md, 'VARIANT'.

Every VARIANT group of the schema, at any depth, is walked with the reader's
own layout and reassembly (``schema.variant_shredding``), told to collect
each breach of a :data:`~reference_impl.parquet.schema.variant_shredding.RULES`
rule instead of failing. One finding per breach, kind ``variant.<rule>``, with the
severity of the rule's strength (``Rule.rule_text``): the message quotes the rule with
its strength (MUST, SHOULD, or silent with the readings)
and its section, and says where: the variant column, the row group, the row
within it and the path inside the variant (``typed_value.a``, ``[2]`` for an
array element). Schema rules are reported once, at row group 0; a variant whose
layout the reader cannot read (e.g. a ``typed_value`` type the table has no row
for) is not walked further. A variant whose metadata or any ``value`` is not
valid Variant bytes (``schema.variant_values``, the reader's InvalidVariant) is
one ``variant.value_encoding`` finding, with the byte, and is not walked further;
an object whose field ids are out of name order is ``variant.field_order`` (the
reader's lenient rule ``parquet.variant.field-order``).
"""

from __future__ import annotations

from typing import Any

from reference_impl.common.leniency import reading
from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import ParquetError
from reference_impl.parquet.reader import open_parquet, read_footer_with_decryptor
from reference_impl.parquet.schema.nested_types import Shape, logical_shape, to_logical
from reference_impl.parquet.schema.tree import schema_tree_from_elements
from reference_impl.parquet.schema.variant_shredding import (
    RULES,
    Rule,
    VariantLayout,
    reconstruct_variant,
    variant_layout,
)
from reference_impl.parquet.schema.variant_values import (
    decode_stored,
    has_variant,
    variant_group_values,
    variant_groups,
)
from reference_impl.parquet.validation.findings import Finding

__all__ = ["check_variant_shredding"]

VALUE_ENCODING, FIELD_ORDER = RULES["value_encoding"], RULES["field_order"]


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
    file: FileBytes, *, decryption: FileDecryptionProperties | None = None
) -> list[Finding]:
    """The findings about every VARIANT column of ``file`` (none when it has none)."""
    metadata, footer_start, _ = read_footer_with_decryptor(file, decryption=decryption)
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    if not has_variant(tree):
        return []  # other files are not shaped here: their LIST and MAP rules are the reader's
    shape = logical_shape(tree, offset=footer_start)
    tops = [f for f in shape.fields if has_variant(f.node)]
    layouts, findings = _layouts(tops)
    # The breaches of this second read are known: the schema's are the variant.*
    # findings of _layouts, the chunks' were met (and reported) by validate's walk.
    # One row group at a time, as the reader gives them.
    with reading():
        row_groups = open_parquet(file, decryption=decryption, columns=[t.node.name for t in tops],
                                  decode_variants=False)
        for ordinal, part in enumerate(row_groups):
            for row, record in enumerate(part.records):
                for top in tops:
                    value = to_logical(top, record.get(top.node.name))
                    findings += _check_value(top, value, layouts, ordinal, row)
    return findings


def _layouts(tops: list[Shape]) -> tuple[dict[str, VariantLayout], list[Finding]]:
    """The readable layout of each variant by path, and the schema findings (at row group 0)."""
    layouts: dict[str, VariantLayout] = {}
    findings: list[Finding] = []
    for top in tops:
        for path, variant in variant_groups(top, top.node.name):
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
    for path, group_value in variant_group_values(top, value, top.node.name):
        if path not in layouts:
            continue
        breaches = _Breaches()
        stored = decode_stored(layouts[path], group_value, f"row {row}")
        if stored.error is not None:
            breaches.found.append((VALUE_ENCODING, f"row {row}", str(stored.error)))
        else:
            breaches.found += [(FIELD_ORDER, place, "field ids out of the order of their names")
                               for place in stored.unordered]
            try:
                reconstruct_variant(layouts[path], group_value, f"row {row}", breaches)
            except ParquetError as error:
                breaches.found.append((VALUE_ENCODING, f"row {row}", str(error)))
        findings += breaches.findings(path, row_group)
    return findings
