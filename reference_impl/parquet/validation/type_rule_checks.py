"""Does every leaf carry annotations its physical type may hold?

LogicalTypes.md, section by section ('DATE': "It must annotate an `int32`",
'Deprecated integer ConvertedType', 'DECIMAL' ...), as the one table
``schema.type_rules.TYPE_RULES`` holds it. One finding per broken rule and
leaf, kind ``type.<rule>`` (``type.physical_type``, ``type.type_length``,
``type.bit_width``, ``type.decimal_precision``, ``type.decimal_scale``),
with the strength of the rule's sentence (``Citation.rule_text``), reported
at row group 0 (the schema is the file's, not a row group's); the message names
the annotation and the physical type and quotes the rule with its strength and
section. The reader refuses such a file (``type_rules.check_type_rules``);
``validate`` reads its chunks anyway, as their bytes do not depend on the annotation.
"""

from __future__ import annotations

from reference_impl.parquet.schema.tree import LeafColumn
from reference_impl.parquet.schema.type_rules import type_problems
from reference_impl.parquet.validation.findings import Finding

__all__ = ["check_type_rules"]

SCHEMA_ROW_GROUP = 0  # schema findings are the file's; they are reported at the first row group


def check_type_rules(leaves: list[LeafColumn]) -> list[Finding]:
    """A finding for every rule of the type table that a leaf breaks."""
    return [
        Finding(problem.kind, problem.citation.rule_text, leaf.dotted_path, SCHEMA_ROW_GROUP, None,
                problem.message(leaf.dotted_path))
        for leaf in leaves
        for problem in type_problems(leaf.node)
    ]
