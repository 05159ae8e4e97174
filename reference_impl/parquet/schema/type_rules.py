"""Which physical type each annotation may annotate: the one table of type rules.

LogicalTypes.md says, section by section, which physical type (and length,
bit width, precision) each logical type and each deprecated ConvertedType may
annotate: 'STRING', 'ENUM', 'UUID', 'Signed Integers', 'Unsigned Integers',
'Deprecated integer ConvertedType', 'DECIMAL', 'FLOAT16', 'DATE', 'TIME',
'Deprecated time ConvertedType', 'TIMESTAMP', 'Deprecated timestamp
ConvertedType', 'INTERVAL', 'JSON', 'BSON', 'GEOMETRY', 'GEOGRAPHY',
'UNKNOWN (always null)'; 'Lists', 'Maps', 'VARIANT' and 'FILE' annotate groups.

:data:`TYPE_RULES` has one row per annotation with its parameters fixed
(``INTEGER(8, true)``, ``TIME(MILLIS)``), the ConvertedType that corresponds
to it (LogicalTypes.md, 'Compatibility': writers "must also write the
corresponding ConvertedType annotations (if any)"; ``converted_type_for``
reads this column) and the spec's words, quoted with their strength. The rows
drive the reader (:func:`check_type_rules`: a leaf that breaks a MUST is
:class:`CorruptMetadata`), the validator (``validation.type_rule_checks``: a
finding per broken rule) and docs/type-rules.md (:func:`markdown`).

A ConvertedType is held to the rule of its row, through its own section where
it has one ('Deprecated integer ConvertedType' ...). Group annotations (LIST,
MAP, MAP_KEY_VALUE, VARIANT, FILE) are rows for the ConvertedType column and
the page; the structure they need is checked where it is read (``nested_types``,
``variant_shredding``, ``file_type``). A LogicalType member or ConvertedType number this
reader does not know, or a TIME/TIMESTAMP unit it does not know ('TIMESTAMP':
"unknown `unit`-s must be handled as unsupported features"), has no row and
no rule here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from reference_impl.common.findings import RuleText, Strength
from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata.parquet_thrift import ConvertedType, LogicalType, Type

__all__ = [
    "DECIMAL_PRECISION",
    "DECIMAL_SCALE",
    "GENERATED_END",
    "INTEGER_BIT_WIDTH",
    "PARAMETER_RULES",
    "TYPE_RULES",
    "Citation",
    "TypeProblem",
    "TypeRule",
    "check_type_rules",
    "converted_type_for",
    "decimal_max_precision",
    "markdown",
    "rule_for_converted",
    "rule_for_logical",
    "type_problems",
]

SPEC = "LogicalTypes.md"
MUST, SHOULD, MAY = "MUST", "SHOULD", "MAY"
UUID_LENGTH = 16
FLOAT16_LENGTH = 2
INTERVAL_LENGTH = 12
ALL_TYPES = frozenset(Type)
GROUP: frozenset[Type] = frozenset()  # annotates a group, not a leaf
BYTE_ARRAY = frozenset({Type.BYTE_ARRAY})
INT32 = frozenset({Type.INT32})
INT64 = frozenset({Type.INT64})
FIXED = frozenset({Type.FIXED_LEN_BYTE_ARRAY})
# 'DECIMAL': "`int32`: for 1 <= precision <= 9", "`int64`: for 1 <= precision <= 18".
DECIMAL_MAX_PRECISION = {Type.INT32: 9, Type.INT64: 18}
DECIMAL_TYPES = frozenset({Type.INT32, Type.INT64, Type.FIXED_LEN_BYTE_ARRAY, Type.BYTE_ARRAY})
BITS_PER_BYTE = 8


@dataclass(frozen=True)
class Citation:
    """The spec's words for one rule: their LogicalTypes.md section and strength."""

    section: str
    text: str
    strength: str = MUST

    def quote(self) -> str:
        return f"{self.strength}: \"{self.text}\" ({SPEC}, '{self.section}')"

    @property
    def rule_text(self) -> RuleText:
        return RuleText(Strength(self.strength), f"{SPEC}, '{self.section}'", self.text)


@dataclass(frozen=True)
class TypeRule:
    """One annotation (its parameters fixed) and the physical types it may annotate.

    ``type_length``: the FIXED_LEN_BYTE_ARRAY length it needs (None: any).
    ``converted_rule``: the ConvertedType's own section, when it has one.
    ``logical``: False for a ConvertedType without a LogicalType (INTERVAL, MAP_KEY_VALUE).
    """

    annotation: str
    physical_types: frozenset[Type]
    rule: Citation
    converted_type: ConvertedType | None = None
    converted_rule: Citation | None = None
    type_length: int | None = None
    logical: bool = True

    @property
    def rule_of_converted(self) -> Citation:
        return self.converted_rule or self.rule


def _integers(signed: bool) -> list[TypeRule]:
    word, legacy = ("true", "INT") if signed else ("false", "UINT")
    section = "Signed Integers" if signed else "Unsigned Integers"
    narrow = Citation(section, f"`INT(8, {word})`, `INT(16, {word})`, and `INT(32, {word})` must "
                               "annotate an `int32` primitive type")
    wide = Citation(section, f"`INT(64, {word})` must annotate an `int64` primitive type")
    old_narrow = Citation(_OLD_INTEGERS, f"`{legacy}_8`, `{legacy}_16`, and `{legacy}_32` must annotate "
                                         "an `int32` primitive type")
    old_wide = Citation(_OLD_INTEGERS, f"`{legacy}_64` must annotate an `int64` primitive type")
    return [
        TypeRule(f"INTEGER({bits}, {word})", INT64 if bits == 64 else INT32, wide if bits == 64 else narrow,
                 ConvertedType[f"{legacy}_{bits}"], old_wide if bits == 64 else old_narrow)
        for bits in (8, 16, 32, 64)
    ]


def _time(unit: str, physical: frozenset[Type], converted: ConvertedType | None) -> TypeRule:
    precision = {"MILLIS": "millisecond", "MICROS": "microsecond", "NANOS": "nanosecond"}[unit]
    int_name = "int32" if physical == INT32 else "int64"
    text = f"`TIME` with unit `{unit}` is used for {precision} precision. It must annotate an `{int_name}`"
    old = Citation("Deprecated time ConvertedType", f"{_COUNTERPART} `{int_name}`.") if converted else None
    return TypeRule(f"TIME({unit})", physical, Citation("TIME", text), converted, old)


def _timestamp(unit: str, converted: ConvertedType | None) -> TypeRule:
    old = Citation("Deprecated timestamp ConvertedType", f"{_COUNTERPART} `int64`.") if converted else None
    return TypeRule(f"TIMESTAMP({unit})", INT64, _TIMESTAMP, converted, old)


def _byte_array(name: str, text: str, converted: ConvertedType | None = None) -> TypeRule:
    return TypeRule(name, BYTE_ARRAY, Citation(name, text), converted)


_OLD_INTEGERS = "Deprecated integer ConvertedType"
_COUNTERPART = "Like the logical type counterpart, it must annotate an"
_TIMESTAMP = Citation("TIMESTAMP", "each value is a single `int64` number")
_BYTE_ARRAY_ONLY = "It must annotate a `BYTE_ARRAY` primitive type."
_DECIMAL_TYPES_TEXT = ("`DECIMAL` can be used to annotate the following types: `int32` ... `int64` ... "
                       "`fixed_len_byte_array` ... `byte_array`")
_MAP_KEY_VALUE_TEXT = ("a group annotated with `MAP_KEY_VALUE` that is not contained by a `MAP`-annotated "
                       "group should be handled as a `MAP`-annotated group")

TYPE_RULES: tuple[TypeRule, ...] = (
    _byte_array("STRING", "`STRING` may only be used to annotate the `BYTE_ARRAY` primitive type",
                ConvertedType.UTF8),
    _byte_array("ENUM", "`ENUM` annotates the `BYTE_ARRAY` primitive type", ConvertedType.ENUM),
    TypeRule("UUID", FIXED, Citation("UUID", "`UUID` annotates a 16-byte `FIXED_LEN_BYTE_ARRAY` primitive "
                                             "type."), type_length=UUID_LENGTH),
    *_integers(signed=True),
    *_integers(signed=False),
    TypeRule("DECIMAL", DECIMAL_TYPES, Citation("DECIMAL", _DECIMAL_TYPES_TEXT), ConvertedType.DECIMAL),
    TypeRule("FLOAT16", FIXED, Citation("FLOAT16", "The primitive type is a 2-byte `FIXED_LEN_BYTE_ARRAY`."),
             type_length=FLOAT16_LENGTH),
    TypeRule("DATE", INT32, Citation("DATE", "It must annotate an `int32`"), ConvertedType.DATE),
    _time("MILLIS", INT32, ConvertedType.TIME_MILLIS),
    _time("MICROS", INT64, ConvertedType.TIME_MICROS),
    _time("NANOS", INT64, None),
    _timestamp("MILLIS", ConvertedType.TIMESTAMP_MILLIS),
    _timestamp("MICROS", ConvertedType.TIMESTAMP_MICROS),
    _timestamp("NANOS", None),
    TypeRule("INTERVAL", FIXED, Citation("INTERVAL", "It must annotate a `fixed_len_byte_array` of length "
                                                     "12."),
             ConvertedType.INTERVAL, type_length=INTERVAL_LENGTH, logical=False),
    _byte_array("JSON", _BYTE_ARRAY_ONLY, ConvertedType.JSON),
    _byte_array("BSON", _BYTE_ARRAY_ONLY, ConvertedType.BSON),
    _byte_array("GEOMETRY", _BYTE_ARRAY_ONLY),
    _byte_array("GEOGRAPHY", _BYTE_ARRAY_ONLY),
    TypeRule("UNKNOWN", ALL_TYPES, Citation("UNKNOWN (always null)", "The `UNKNOWN` type can be used to "
                                            "annotate a column that is always null.", MAY)),
    TypeRule("LIST", GROUP, Citation("Lists", "`LIST` must always annotate a 3-level structure"),
             ConvertedType.LIST),
    TypeRule("MAP", GROUP, Citation("Maps", "`MAP` must annotate a 3-level structure"), ConvertedType.MAP),
    TypeRule("MAP_KEY_VALUE", GROUP, Citation("Maps", _MAP_KEY_VALUE_TEXT, SHOULD),
             ConvertedType.MAP_KEY_VALUE, logical=False),
    TypeRule("VARIANT", GROUP, Citation("VARIANT", "It must annotate a group.")),
    TypeRule("FILE", GROUP, Citation("FILE", "`FILE` annotates a group that represents a reference to a "
                                             "range of bytes")),
)

# Rules on an annotation's parameters rather than on its physical type.
INTEGER_BIT_WIDTH = Citation("Signed Integers", "Allowed bit width values are `8`, `16`, `32`, `64`")
DECIMAL_PRECISION = Citation("DECIMAL", "Precision is required and must be a non-zero positive integer. "
                                        "A precision too large for the underlying type (see below) is an "
                                        "error.")
DECIMAL_SCALE = Citation("DECIMAL", "Scale must be zero or a positive integer less than or equal to the "
                                    "precision.")
PARAMETER_RULES = {"type.bit_width": INTEGER_BIT_WIDTH, "type.decimal_precision": DECIMAL_PRECISION,
                   "type.decimal_scale": DECIMAL_SCALE}

_BY_LOGICAL = {row.annotation: row for row in TYPE_RULES if row.logical}
_BY_CONVERTED = {row.converted_type: row for row in TYPE_RULES if row.converted_type is not None}


def _logical_name(logical_type: LogicalType) -> str | None:
    """The row name of a LogicalType: its member, with the parameters a row fixes."""
    kind = logical_type.kind
    if (integer := logical_type.INTEGER) is not None:
        return f"INTEGER({integer.bitWidth}, {'true' if integer.isSigned else 'false'})"
    if (temporal := logical_type.TIME or logical_type.TIMESTAMP) is not None:
        unit = temporal.unit.kind if temporal.unit is not None else None
        return None if unit is None else f"{kind}({unit})"
    return kind


def rule_for_logical(logical_type: LogicalType | None) -> TypeRule | None:
    """The row of a LogicalType (None: absent, unknown, or an INTEGER of a bit width with no row)."""
    if logical_type is None:
        return None
    name = _logical_name(logical_type)
    return None if name is None else _BY_LOGICAL.get(name)


def rule_for_converted(converted_type: ConvertedType | int | None) -> TypeRule | None:
    """The row of a ConvertedType (None: absent, or a number this reader does not know)."""
    return _BY_CONVERTED.get(converted_type)  # type: ignore[arg-type]


def converted_type_for(logical_type: LogicalType | None) -> ConvertedType | None:
    """The ConvertedType a writer must store next to ``logical_type``, if any.

    TIME and TIMESTAMP map by unit regardless of isAdjustedToUTC: writers "*must*
    annotate local time with legacy annotations too" ('Deprecated time ConvertedType').
    """
    row = rule_for_logical(logical_type)
    return None if row is None else row.converted_type


# ---------------------------------------------------------------------------
# Checking a leaf
# ---------------------------------------------------------------------------


class SchemaNode(Protocol):
    """What the rules read of a ``schema.tree.SchemaNode`` (which imports this table, so it
    is not imported here)."""

    @property
    def is_leaf(self) -> bool: ...
    @property
    def leaf_type(self) -> Type: ...
    @property
    def type_length(self) -> int | None: ...
    @property
    def logical_type(self) -> LogicalType | None: ...
    @property
    def converted_type(self) -> ConvertedType | int | None: ...
    @property
    def scale(self) -> int | None: ...
    @property
    def precision(self) -> int | None: ...


class LeafColumn(Protocol):
    """What the reader's check reads of a ``schema.tree.LeafColumn``."""

    @property
    def node(self) -> SchemaNode: ...
    @property
    def dotted_path(self) -> str: ...


@dataclass(frozen=True)
class TypeProblem:
    """One broken rule on one leaf: its finding ``kind``, the rule, and what the leaf has."""

    kind: str
    citation: Citation
    found: str

    def message(self, column: str) -> str:
        return f"column {column}: {self.found}; {self.citation.quote()}"


def type_problems(node: SchemaNode) -> list[TypeProblem]:
    """Every rule of the table that the leaf ``node`` breaks (none for a group)."""
    if not node.is_leaf:
        return []
    problems: list[TypeProblem] = []
    logical = node.logical_type
    if logical is not None and logical.INTEGER is not None and rule_for_logical(logical) is None:
        found = f"INTEGER(bitWidth={logical.INTEGER.bitWidth})"
        problems.append(TypeProblem("type.bit_width", INTEGER_BIT_WIDTH, found))
    row = rule_for_logical(logical)
    if row is not None:
        problems += _annotation_problems(node, row, row.rule, f"LogicalType {row.annotation}")
        if row.annotation == "DECIMAL" and logical is not None and logical.DECIMAL is not None:
            problems += _decimal_problems(node, logical.DECIMAL.precision, logical.DECIMAL.scale)
    row = rule_for_converted(node.converted_type)
    if row is not None and row.converted_type is not None:
        name = f"ConvertedType {row.converted_type.name}"
        problems += _annotation_problems(node, row, row.rule_of_converted, name)
        if row.converted_type == ConvertedType.DECIMAL:
            problems += _decimal_problems(node, node.precision, node.scale)
    return list(dict.fromkeys(problems))  # a DECIMAL's element fields usually repeat its LogicalType


def _physical(node: SchemaNode) -> str:
    physical = node.leaf_type
    if physical == Type.FIXED_LEN_BYTE_ARRAY:
        return f"{physical.name}({node.type_length})"
    return physical.name


def _annotation_problems(node: SchemaNode, row: TypeRule, citation: Citation, name: str) -> list[TypeProblem]:
    if node.leaf_type not in row.physical_types:
        what = "a group annotation, " if row.physical_types == GROUP else ""
        return [TypeProblem("type.physical_type", citation, f"{name} ({what}on {_physical(node)})")]
    if row.type_length is not None and node.type_length != row.type_length:
        return [TypeProblem("type.type_length", citation, f"{name} on {_physical(node)}")]
    return []


def decimal_max_precision(physical_type: Type, type_length: int | None) -> int | None:
    """The most digits DECIMAL may declare on a physical type (None: "not limited").

    'DECIMAL': a FIXED_LEN_BYTE_ARRAY of "Length `n` can store <=
    `floor(log_10(2^(8*n - 1) - 1))` base-10 digits"; 2^k is never a power of ten,
    so that is floor(k * log10(2)).
    """
    if physical_type == Type.FIXED_LEN_BYTE_ARRAY:
        return math.floor((BITS_PER_BYTE * (type_length or 0) - 1) * math.log10(2))
    return DECIMAL_MAX_PRECISION.get(physical_type)


def _decimal_problems(node: SchemaNode, precision: int | None, scale: int | None) -> list[TypeProblem]:
    if node.leaf_type not in DECIMAL_TYPES:
        return []  # the physical type is the problem, reported on its own
    where = _physical(node)
    if precision is None or precision < 1:
        found = f"DECIMAL precision {precision} on {where}"
        return [TypeProblem("type.decimal_precision", DECIMAL_PRECISION, found)]
    limit = decimal_max_precision(node.leaf_type, node.type_length)
    problems = []
    if limit is not None and precision > limit:
        found = f"DECIMAL precision {precision} on {where}, which holds at most {limit} digits"
        problems.append(TypeProblem("type.decimal_precision", DECIMAL_PRECISION, found))
    scale = 0 if scale is None else scale  # 'DECIMAL': "If not specified, the scale is 0."
    if not 0 <= scale <= precision:
        problems.append(TypeProblem("type.decimal_scale", DECIMAL_SCALE, f"DECIMAL({precision}, {scale})"))
    return problems


def check_type_rules(leaves: Sequence[LeafColumn], offset: int | None) -> None:
    """The reader's check: :class:`CorruptMetadata` for the first leaf that breaks a MUST of
    the table, naming the column, the annotation and the physical type; ``offset`` is
    where the FileMetaData (and its schema) starts."""
    for leaf in leaves:
        for problem in type_problems(leaf.node):
            if problem.citation.strength == MUST:
                raise CorruptMetadata(problem.message(leaf.dotted_path), offset)


# ---------------------------------------------------------------------------
# docs/type-rules.md
# ---------------------------------------------------------------------------


def _types_cell(row: TypeRule) -> str:
    if row.physical_types == GROUP:
        return "a group"
    if row.physical_types == ALL_TYPES:
        return "any"
    if row.annotation == "DECIMAL":
        return "INT32 (precision 1-9), INT64 (1-18), FIXED_LEN_BYTE_ARRAY(n) (by n), BYTE_ARRAY (any)"
    names = ", ".join(t.name for t in sorted(row.physical_types))
    return names if row.type_length is None else f"{names}({row.type_length})"


def _rule_cell(citation: Citation | None) -> str:
    return "" if citation is None else f"{citation.strength}: \"{citation.text}\" ('{citation.section}')"


GENERATED_END = "<!-- end of the generated part; what follows is written by hand -->"


def markdown() -> str:
    """The generated start of docs/type-rules.md, up to :data:`GENERATED_END` (a test
    keeps the committed page starting with exactly this; what other readers do with
    a forbidden pair is measured, and written by hand after it)."""
    lines = [
        "# Type rules",
        "",
        "Generated by `reference_impl.parquet.schema.type_rules.markdown()` from the table",
        "`TYPE_RULES`; do not edit by hand (a test compares this file with the function's output).",
        "",
        f"Which physical type each annotation may annotate ({SPEC}). The reference reader refuses",
        "a leaf that breaks a MUST with `CorruptMetadata` naming the column, the annotation and the",
        "physical type; `validate` reports every broken rule as a `type.*` finding, with the",
        "strength of its sentence (docs/validation.md).",
        "A ConvertedType is held to the rule of its row (its own section, when it has one).",
        "",
        "| annotation | physical types | ConvertedType | rule | ConvertedType's rule |",
        "|---|---|---|---|---|",
    ]
    for row in TYPE_RULES:
        name = row.annotation if row.logical else f"{row.annotation} (ConvertedType only)"
        converted = row.converted_type.name if row.converted_type is not None else "-"
        lines.append(f"| {name} | {_types_cell(row)} | {converted} | {_rule_cell(row.rule)} "
                     f"| {_rule_cell(row.converted_rule)} |")
    lines += ["", "Rules on parameters:", ""]
    for kind, citation in PARAMETER_RULES.items():
        lines.append(f"* `{kind}`: {_rule_cell(citation)}")
    lines += ["* `type.physical_type`, `type.type_length`: the table above.", "", GENERATED_END, ""]
    return "\n".join(lines)
