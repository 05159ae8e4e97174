"""Shredded VARIANT: ``typed_value`` columns beside ``value``, and back.

Spec: VariantShredding.md, 'Value Shredding' (with 'Shredded Value Types',
'Primitive Types', 'Arrays', 'Objects'), 'Nesting', 'Variant Metadata' and
'Reconstructing a Shredded Variant'; VariantEncoding.md, 'Variant in
Parquet'; LogicalTypes.md, 'VARIANT'.

A VARIANT group holds ``metadata`` and a *pair*: an optional ``value``
(Variant-encoded binary) and an optional ``typed_value``, which is a
primitive of the 'Shredded Value Types' table, a 3-level LIST of element
pairs (an array), or a group of field pairs (an object), nested to any depth.

* :func:`variant_layout` reads the pair structure off the group's logical
  shape (``nested_types``);
* :func:`reconstruct_variant` rebuilds the unshredded ``(metadata, value)``
  from a group's logical value, following 'Reconstructing a Shredded Variant':
  a primitive ``typed_value`` becomes the Variant primitive its Parquet type
  names, an array or object is encoded again (``variant_encoding``, its fixed
  reassembly form) around the element and field values, a partially shredded
  object is the union of its shredded fields and the fields of its ``value``
  (copied byte for byte), and a variant whose ``value`` and ``typed_value``
  are both null is Variant null ("If a Variant is missing in a context where a
  value is required, readers must return a Variant null");
* :func:`shred_variant` does the opposite for the writer, and
  :func:`variant_node` / :func:`shredded_object` / :func:`shredded_array` /
  :func:`shredded_primitive` build shredding schemas.

Every rule of the spec the structure or the data can break is a :class:`Rule`
(its words, their strength, its section). Both walks report to a ``Sink``:
:func:`strict` (the reader's) raises for a rule whose breach leaves the value
ambiguous (:class:`CorruptMetadata` for the schema, :class:`CorruptPage` for
the data) and reads past the others; the validator collects every breach.
The reader names two of those it reads past (:func:`check_variant_groups`): an
OPTIONAL ``metadata`` (:data:`OPTIONAL_METADATA`) and a ``value`` of the other
repetition (:data:`VALUE_REPETITION`) are breaches of ``reference_impl.common.leniency``,
so they are never read silently.
After a breach a non-strict walk goes on as the spec says engines that read
anyway do: "the `typed_value` column must be used".
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from reference_impl.common import leniency
from reference_impl.common.findings import RuleText, Strength
from reference_impl.common.ieee_float import narrow_float_bits, widen_float_bits
from reference_impl.parquet.errors import CorruptMetadata, CorruptPage
from reference_impl.parquet.metadata.parquet_thrift import (
    FieldRepetitionType,
    LogicalType,
    Type,
    VariantType,
)
from reference_impl.parquet.schema.nested_types import (
    ListShape,
    PrimitiveShape,
    Shape,
    StructShape,
    list_node,
    logical_shape,
)
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf
from reference_impl.parquet.schema.variant_encoding import (
    VARIANT_NULL,
    Primitive,
    VariantMetadata,
    array_elements,
    encode_array,
    encode_object,
    encode_primitive,
    encode_string,
    is_array,
    is_object,
    object_fields,
    parse_metadata,
    primitive_payload,
    primitive_type,
)

__all__ = [
    "OPTIONAL_METADATA",
    "RULES",
    "VALUE_REPETITION",
    "ArrayTyped",
    "ObjectTyped",
    "PrimitiveTyped",
    "Rule",
    "ShreddedPair",
    "Sink",
    "VariantLayout",
    "check_variant_groups",
    "is_variant",
    "reconstruct_variant",
    "shred_variant",
    "shredded_array",
    "shredded_object",
    "shredded_primitive",
    "strict",
    "variant_layout",
    "variant_node",
]

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
VARIANT_SPEC_VERSION = 1  # LogicalTypes.md 'VARIANT': "with the version number included"
MAX_DECIMAL16_PRECISION = 38  # VariantEncoding.md, 'Encoding types', *Decimal table*
DECIMAL16_BYTES = 16
UUID_BYTES = 16
SHREDDING = "VariantShredding.md"


# ---------------------------------------------------------------------------
# The rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One rule: the finding ``kind``, the spec's words and their strength."""

    kind: str
    strength: str  # "MUST" or "SHOULD"
    source: str  # spec file, 'section'
    text: str
    readable: bool  # a reader can still tell what the value is
    schema: bool = False  # about the schema (else about the data)

    def quote(self) -> str:
        return f"{self.strength}: \"{self.text}\" ({self.source})"

    @property
    def rule_text(self) -> RuleText:
        return RuleText(Strength(self.strength), self.source, self.text)


def _rule(kind: str, source: str, text: str, *, readable: bool, schema: bool = False,
          strength: str = "MUST") -> Rule:
    return Rule(f"variant.{kind}", strength, source, text, readable, schema)


RULES: dict[str, Rule] = {r.kind.removeprefix("variant."): r for r in (
    _rule("group_fields", "LogicalTypes.md, 'VARIANT'", "The group must contain a field named "
          "`metadata` and a field named `value`. Both fields must have type `binary`",
          readable=False, schema=True),
    _rule("value_field", "LogicalTypes.md, 'VARIANT'", "The group must contain a field named "
          "`metadata` and a field named `value`", readable=True, schema=True),
    _rule("metadata_repetition", "VariantEncoding.md, 'Variant in Parquet'",
          "The `metadata` field is `required`", readable=True, schema=True),
    _rule("value_repetition", "VariantEncoding.md, 'Variant in Parquet'", "The `value` field must "
          "be annotated as `required` for unshredded Variant values, or `optional` if parts of the "
          "value are shredded", readable=True, schema=True),
    _rule("typed_value_type", f"{SHREDDING}, 'Shredded Value Types'",
          "Shredded values must use the following Parquet types", readable=False, schema=True),
    _rule("element_group", f"{SHREDDING}, 'Arrays'", "The list `element` must be a required group",
          readable=True, schema=True),
    _rule("pair_fields", f"{SHREDDING}, 'Arrays'", "at least one of the two fields must be present",
          readable=False, schema=True),
    _rule("field_group", f"{SHREDDING}, 'Objects'",
          "The group for each named field must use repetition level `required`", readable=True,
          schema=True),
    _rule("value_and_typed_value", f"{SHREDDING}, 'Value Shredding'", "Writers must not produce "
          "data where both `value` and `typed_value` are non-null, unless the Variant value is an "
          "object", readable=False),
    _rule("missing_element", f"{SHREDDING}, 'Arrays'", "All elements of an array must be present "
          "(not missing) ... either `typed_value` or `value` (but not both) must be non-null",
          readable=False),
    _rule("array_in_value", f"{SHREDDING}, 'Arrays'", "If the value is an array, `value` must be "
          "null", readable=True),
    _rule("object_in_value", f"{SHREDDING}, 'Objects'", "If the value is an object, `typed_value` "
          "must be non-null", readable=True),
    _rule("residual_not_object", f"{SHREDDING}, 'Objects'", "If the value is not an object, "
          "`typed_value` must be null", readable=False),
    _rule("field_in_both", f"{SHREDDING}, 'Objects'", "The `value` column of a partially shredded "
          "object must never contain fields represented by the Parquet columns in `typed_value` "
          "(shredded fields)", readable=False),
    _rule("field_name_in_metadata", f"{SHREDDING}, 'Variant Metadata'", "All field names of a "
          "Variant, whether shredded or not, must be present in the metadata", readable=False),
    _rule("metadata_missing", "VariantEncoding.md, 'Variant in Parquet'", "The `metadata` field is "
          "`required` and must be a valid Variant metadata", readable=False),
)}

Sink = Callable[[Rule, str, str], None]
"""Told of each breach: the rule, where (field path, list index), what was found."""


# The lenient readings of the reader (``reference_impl.common.leniency``): the group's
# fields read as the spec's, each value read where it is present.
OPTIONAL_METADATA = leniency.Rule(
    id="parquet.variant.optional-metadata",
    format="parquet",
    spec="VariantEncoding.md: Variant in Parquet",
    sentence=RULES["metadata_repetition"].text,
    strength=leniency.Strength.MUST,
    reading="a `metadata` that is present is read as the required one; a row without it is "
    "refused (CorruptPage)",
    error=CorruptMetadata,
)
VALUE_REPETITION = leniency.Rule(
    id="parquet.variant.value-repetition",
    format="parquet",
    spec="VariantEncoding.md: Variant in Parquet",
    sentence=RULES["value_repetition"].text,
    strength=leniency.Strength.MUST,
    reading="`value` read where present, whatever its repetition; a null one with no "
    "`typed_value` is Variant null",
    error=CorruptMetadata,
)
_LENIENT = {rule.kind: lenient for rule, lenient in (
    (RULES["metadata_repetition"], OPTIONAL_METADATA), (RULES["value_repetition"], VALUE_REPETITION))}


def strict(rule: Rule, where: str, found: str) -> None:
    """The reader's sink: a breach that leaves the value ambiguous is an error (the
    lenient readings are named by :func:`check_variant_groups`, which the reader calls)."""
    if not rule.readable:
        error = CorruptMetadata if rule.schema else CorruptPage
        raise error(f"{where}: {found}; {rule.quote()}")


def check_variant_groups(tree: SchemaNode, offset: int) -> None:
    """A breach (``leniency``, at ``offset``: the schema's place) for each VARIANT group of
    ``tree`` with an OPTIONAL ``metadata`` or a ``value`` of the other repetition; the
    reader's check of the schema. The other rules are the logical reading's (:func:`strict`)."""

    def lenient(rule: Rule, where: str, found: str) -> None:
        if rule.kind in _LENIENT:
            leniency.breach(_LENIENT[rule.kind], f"{where}: {found}", offset)

    for path, node in _variant_groups(tree, ()):
        variant_layout(logical_shape(node, offset=offset), f"field {'.'.join(path)!r}", lenient)


def _variant_groups(node: SchemaNode, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], SchemaNode]]:
    for child in node.children or ():
        if is_variant(child):
            yield (*path, child.name), child
        else:
            yield from _variant_groups(child, (*path, child.name))


# ---------------------------------------------------------------------------
# The layout: which pairs the schema holds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PrimitiveTyped:
    """A primitive ``typed_value`` and the Variant type it stands for ('Shredded
    Value Types'); ``Primitive.TRUE`` stands for boolean."""

    node: SchemaNode
    variant_type: Primitive


@dataclass(frozen=True)
class ArrayTyped:
    element: ShreddedPair


@dataclass(frozen=True)
class ObjectTyped:
    fields: dict[str, ShreddedPair]  # in schema order


@dataclass(frozen=True)
class ShreddedPair:
    """A ``value`` / ``typed_value`` pair: the variant group's own, an array
    element's or an object field's."""

    has_value: bool
    typed: Typed | None


Typed = PrimitiveTyped | ArrayTyped | ObjectTyped


@dataclass(frozen=True)
class VariantLayout:
    name: str
    pair: ShreddedPair

    @property
    def is_shredded(self) -> bool:
        return self.pair.typed is not None


def is_variant(node: SchemaNode) -> bool:
    return node.logical_type is not None and node.logical_type.kind == "VARIANT"


def variant_layout(shape: StructShape, where: str, sink: Sink = strict) -> VariantLayout:
    """The pairs of a VARIANT group's shape; breaches of the schema rules go to ``sink``."""
    metadata = next((f for f in shape.fields if f.node.name == "metadata"), None)
    if not _is_binary(metadata):
        sink(RULES["group_fields"], where, "no binary field `metadata`")
    elif metadata is not None and metadata.node.repetition != REQUIRED:
        sink(RULES["metadata_repetition"], f"{where}.metadata", "an OPTIONAL metadata")
    pair = _pair(shape, where, sink, extra=("metadata",))
    if not pair.has_value:
        sink(RULES["value_field"], where, "no field `value`")
    value = next((f for f in shape.fields if f.node.name == "value"), None)
    if value is not None and (value.node.repetition == REQUIRED) == (pair.typed is not None):
        sink(RULES["value_repetition"], f"{where}.value",
             f"a {_repetition(value.node)} value {'beside' if pair.typed else 'without'} typed_value")
    return VariantLayout(shape.node.name, pair)


def _pair(shape: Shape, where: str, sink: Sink, extra: tuple[str, ...] = ()) -> ShreddedPair:
    if not isinstance(shape, StructShape):
        sink(RULES["typed_value_type"], where, "a pair of value and typed_value must be a group")
        return ShreddedPair(False, None)
    fields = {f.node.name: f for f in shape.fields}
    unknown = sorted(set(fields) - {"value", "typed_value", *extra})
    if unknown:
        sink(RULES["group_fields"], where, f"unexpected field(s) {unknown}")
    value, typed = fields.get("value"), fields.get("typed_value")
    if value is not None and not _is_binary(value):
        sink(RULES["group_fields"], f"{where}.value", "value is not a binary")
    if value is None and typed is None:
        sink(RULES["pair_fields"], where, "neither value nor typed_value")
    layout = None if typed is None else _typed(typed, f"{where}.typed_value", sink)
    return ShreddedPair(value is not None, layout)


def _typed(shape: Shape, where: str, sink: Sink) -> Typed | None:
    if isinstance(shape, PrimitiveShape):
        variant_type = _primitive_of(shape.node)
        if variant_type is None:
            sink(RULES["typed_value_type"], where, f"{_describe(shape.node)} is not in the table")
            return None
        return PrimitiveTyped(shape.node, variant_type)
    if isinstance(shape, ListShape):
        return _array(shape, where, sink)
    if isinstance(shape, StructShape) and shape.node.logical_type is None:
        return _object(shape, where, sink)
    sink(RULES["typed_value_type"], where, f"{_describe(shape.node)} is not a primitive, a LIST or "
         f"an unannotated group")
    return None


def _array(shape: ListShape, where: str, sink: Sink) -> ArrayTyped | None:
    if shape.rule != "5" or not isinstance(shape.element, StructShape):
        sink(RULES["typed_value_type"], where, "an array must be a 3-level LIST of element groups")
        return None
    element = shape.element
    if element.node.repetition != REQUIRED:
        sink(RULES["element_group"], f"{where}.element", f"a {_repetition(element.node)} element")
    return ArrayTyped(_pair(element, f"{where}.element", sink))


def _object(shape: StructShape, where: str, sink: Sink) -> ObjectTyped:
    fields = {}
    for field in shape.fields:
        if field.node.repetition != REQUIRED:
            sink(RULES["field_group"], f"{where}.{field.node.name}",
                 f"a {_repetition(field.node)} field group")
        fields[field.node.name] = _pair(field, f"{where}.{field.node.name}", sink)
    return ObjectTyped(fields)


def _is_binary(shape: Shape | None) -> bool:
    return isinstance(shape, PrimitiveShape) and shape.node.physical_type == Type.BYTE_ARRAY


def _repetition(node: SchemaNode) -> str:
    return node.repetition.name if node.repetition is not None else "unset"


def _describe(node: SchemaNode) -> str:
    physical = "group" if node.physical_type is None else Type(node.physical_type).name
    annotation = f" ({node.logical_type.kind})" if node.logical_type is not None else ""
    return f"{physical}{annotation}"


# 'Shredded Value Types': (physical type, logical type kind) -> Variant type.
_PLAIN = {Type.BOOLEAN: Primitive.TRUE, Type.INT32: Primitive.INT32, Type.INT64: Primitive.INT64,
          Type.FLOAT: Primitive.FLOAT, Type.DOUBLE: Primitive.DOUBLE, Type.BYTE_ARRAY: Primitive.BINARY}
_SIGNED_INTS = {(Type.INT32, 8): Primitive.INT8, (Type.INT32, 16): Primitive.INT16,
                (Type.INT32, 32): Primitive.INT32, (Type.INT64, 64): Primitive.INT64}
_DECIMALS = {Type.INT32: Primitive.DECIMAL4, Type.INT64: Primitive.DECIMAL8,
             Type.BYTE_ARRAY: Primitive.DECIMAL16, Type.FIXED_LEN_BYTE_ARRAY: Primitive.DECIMAL16}
_TIMESTAMPS = {(True, "MICROS"): Primitive.TIMESTAMP_MICROS,
               (False, "MICROS"): Primitive.TIMESTAMP_NTZ_MICROS,
               (True, "NANOS"): Primitive.TIMESTAMP_NANOS, (False, "NANOS"): Primitive.TIMESTAMP_NTZ_NANOS}


def _primitive_of(node: SchemaNode) -> Primitive | None:
    """The Variant type a primitive ``typed_value`` stands for, None when the
    table has no row for it. ``INT(32, true)`` and ``INT(64, true)`` mean the
    plain INT32 and INT64 of the table (LogicalTypes.md, 'Signed Integers')."""
    physical, logical = node.physical_type, node.logical_type
    if physical is None:  # a group
        return None
    if logical is None or logical.kind is None:
        return None if node.converted_type is not None else _PLAIN.get(physical)
    member: Any = logical.member
    match logical.kind:
        case "INTEGER":
            return _SIGNED_INTS.get((physical, member.bitWidth)) if member.isSigned else None
        case "DECIMAL":
            too_wide = member.precision > MAX_DECIMAL16_PRECISION
            return None if too_wide else _DECIMALS.get(physical)
        case "DATE":
            return Primitive.DATE if physical == Type.INT32 else None
        case "TIME":
            plain = physical == Type.INT64 and not member.isAdjustedToUTC and member.unit.kind == "MICROS"
            return Primitive.TIME_NTZ_MICROS if plain else None
        case "TIMESTAMP":
            timestamp = _TIMESTAMPS.get((member.isAdjustedToUTC, member.unit.kind))
            return timestamp if physical == Type.INT64 else None
        case "STRING":
            return Primitive.STRING if physical == Type.BYTE_ARRAY else None
        case "UUID":
            return Primitive.UUID if node.type_length == UUID_BYTES else None
    return None


# ---------------------------------------------------------------------------
# Primitive values: Parquet physical value <-> Variant value
# ---------------------------------------------------------------------------

# Variant types whose value_data is one little-endian number ('Encoding types').
_NUMBERS = {Primitive.INT8: "<b", Primitive.INT16: "<h", Primitive.INT32: "<i", Primitive.INT64: "<q",
            Primitive.DOUBLE: "<d", Primitive.DATE: "<i",
            Primitive.TIMESTAMP_MICROS: "<q", Primitive.TIMESTAMP_NTZ_MICROS: "<q",
            Primitive.TIME_NTZ_MICROS: "<q", Primitive.TIMESTAMP_NANOS: "<q",
            Primitive.TIMESTAMP_NTZ_NANOS: "<q", Primitive.DECIMAL4: "<i", Primitive.DECIMAL8: "<q"}
_DECIMAL_KINDS = (Primitive.DECIMAL4, Primitive.DECIMAL8, Primitive.DECIMAL16)
# A Variant float is a 4-byte IEEE float; its bit pattern goes through ieee_float, since
# struct's "<f" would quiet a signalling NaN.
FLOAT_BITS = 32
_FLOAT_PATTERN = struct.Struct("<I")


def _float_bytes(value: float, where: str) -> bytes:
    try:
        (pattern,) = narrow_float_bits([value], FLOAT_BITS).tolist()
    except ValueError as error:
        raise CorruptPage(f"{where}: {error}") from None
    return _FLOAT_PATTERN.pack(pattern)


def _float_value(payload: bytes) -> float:
    (value,) = widen_float_bits(np.array(_FLOAT_PATTERN.unpack(payload)), FLOAT_BITS)
    return value


def _to_variant(typed: PrimitiveTyped, physical: Any, where: str) -> bytes:
    """The Variant value of a non-null primitive ``typed_value``."""
    kind = typed.variant_type
    if kind is Primitive.TRUE:
        return encode_primitive(Primitive.TRUE if physical else Primitive.FALSE)
    if kind is Primitive.STRING:
        _check_utf8(physical, where)
        return encode_string(bytes(physical))
    if kind in (Primitive.BINARY, Primitive.UUID):
        return encode_primitive(kind, bytes(physical))
    scale = bytes([typed.node.scale or 0]) if kind in _DECIMAL_KINDS else b""
    if kind is Primitive.DECIMAL16:
        unscaled = physical if isinstance(physical, int) else int.from_bytes(physical, "big", signed=True)
        return encode_primitive(kind, scale + _little_endian(unscaled, DECIMAL16_BYTES, where))
    if kind is Primitive.FLOAT:
        return encode_primitive(kind, _float_bytes(physical, where))
    try:
        return encode_primitive(kind, scale + struct.pack(_NUMBERS[kind], physical))
    except struct.error:
        raise CorruptPage(f"{where}: {physical!r} does not fit {_describe(typed.node)}") from None


def _from_variant(typed: PrimitiveTyped, value: bytes, where: str) -> Any:
    """The physical ``typed_value`` for a Variant primitive of ``typed``'s type."""
    kind, payload = typed.variant_type, primitive_payload(value, where)
    if kind is Primitive.TRUE:
        return primitive_type(value, where) is Primitive.TRUE
    if kind in (Primitive.STRING, Primitive.BINARY, Primitive.UUID):
        return payload
    if kind is Primitive.DECIMAL16:
        unscaled = int.from_bytes(payload[1:], "little", signed=True)
        if typed.node.physical_type == Type.FIXED_LEN_BYTE_ARRAY:
            return unscaled.to_bytes(typed.node.type_length or 0, "big", signed=True)
        return unscaled.to_bytes(DECIMAL16_BYTES, "big", signed=True)
    if kind is Primitive.FLOAT:
        return _float_value(payload)
    offset = 1 if kind in _DECIMAL_KINDS else 0
    return struct.unpack(_NUMBERS[kind], payload[offset:])[0]


def _fits(typed: PrimitiveTyped, value: bytes, where: str) -> bool:
    """Whether ``value`` is a Variant primitive ``typed_value`` holds exactly:
    the same Variant type (a decimal also of the column's scale)."""
    kind = primitive_type(value, where)
    if typed.variant_type is Primitive.TRUE:
        return kind in (Primitive.TRUE, Primitive.FALSE)
    same = kind is typed.variant_type
    if same and kind in _DECIMAL_KINDS:
        return primitive_payload(value, where)[0] == (typed.node.scale or 0)
    return same


def _little_endian(unscaled: int, size: int, where: str) -> bytes:
    try:
        return unscaled.to_bytes(size, "little", signed=True)
    except OverflowError:
        raise CorruptPage(f"{where}: decimal {unscaled} does not fit a 16-byte decimal16") from None


def _check_utf8(text: bytes, where: str) -> None:
    try:
        bytes(text).decode("utf-8")
    except UnicodeDecodeError as error:
        raise CorruptPage(f"{where}: a STRING typed_value that is not UTF-8 ({error.reason})") from None


# ---------------------------------------------------------------------------
# Reading: 'Reconstructing a Shredded Variant'
# ---------------------------------------------------------------------------


def reconstruct_variant(layout: VariantLayout, group_value: Mapping[str, Any] | None, where: str,
                        sink: Sink = strict) -> tuple[bytes, bytes] | None:
    """The unshredded ``(metadata, value)`` of one VARIANT group's logical value
    (None for a null group); ``where`` names the row."""
    if group_value is None:
        return None
    where = f"{where}, {layout.name}"
    metadata = group_value.get("metadata")
    if metadata is None:
        sink(RULES["metadata_missing"], where, "a null metadata in a non-null variant")
        return None
    if not layout.is_shredded:
        value = group_value.get("value")
        return metadata, VARIANT_NULL if value is None else value
    context = _Context(parse_metadata(metadata, where), sink)
    value = context.construct(layout.pair, group_value.get("value"), group_value.get("typed_value"), where)
    return metadata, VARIANT_NULL if value is None else value


@dataclass(frozen=True)
class _Context:
    metadata: VariantMetadata
    sink: Sink

    def construct(
        self, pair: ShreddedPair, value: bytes | None, typed_value: Any, where: str
    ) -> bytes | None:
        """``construct_variant``: None when both are null (a missing field)."""
        typed = pair.typed
        if typed_value is None or typed is None:
            if value is not None and typed is not None:
                self.check_unshredded(typed, value, where)
            return value
        if isinstance(typed, ObjectTyped):
            return self.object(typed, value, typed_value, where)
        if value is not None:
            self.sink(RULES["value_and_typed_value"], where, "value and typed_value are both non-null")
        if isinstance(typed, ArrayTyped):
            return encode_array([self.element(typed.element, e, f"{where}[{i}]")
                                 for i, e in enumerate(typed_value)])
        return _to_variant(typed, typed_value, where)

    def check_unshredded(self, typed: Typed, value: bytes, where: str) -> None:
        if isinstance(typed, ObjectTyped) and is_object(value, where):
            self.sink(RULES["object_in_value"], where, "an object in value, typed_value null")
        if isinstance(typed, ArrayTyped) and is_array(value, where):
            self.sink(RULES["array_in_value"], where, "an array in value, typed_value null")

    def element(self, pair: ShreddedPair, group_value: Mapping[str, Any] | None, where: str) -> bytes:
        group_value = group_value or {}
        value = self.construct(pair, group_value.get("value"), group_value.get("typed_value"), where)
        if value is None:
            self.sink(RULES["missing_element"], where, "value and typed_value are both null")
            return VARIANT_NULL
        return value

    def object(
        self, typed: ObjectTyped, value: bytes | None, typed_value: Mapping[str, Any], where: str
    ) -> bytes:
        """A shredded object, united with the fields of a partially shredded ``value``."""
        fields: dict[str, bytes] = {}
        for name, pair in typed.fields.items():
            field = typed_value.get(name) or {}
            field_where = f"{where}.{name}"
            field_value = self.construct(pair, field.get("value"), field.get("typed_value"), field_where)
            if field_value is not None:
                fields[name] = field_value
        residual = self.residual(value, where)
        both = sorted(residual.keys() & fields.keys())
        if both:
            self.sink(RULES["field_in_both"], where, f"field(s) {both} in typed_value and in value")
        missing = sorted(n for n in {**residual, **fields} if n not in self.metadata.names)
        if missing:
            self.sink(RULES["field_name_in_metadata"], where, f"field(s) {missing} not in the metadata")
            return VARIANT_NULL
        return encode_object({**residual, **fields}, self.metadata, where)

    def residual(self, value: bytes | None, where: str) -> dict[str, bytes]:
        if value is None:
            return {}
        if not is_object(value, where):
            self.sink(RULES["residual_not_object"], where, "typed_value is an object, value is not")
            return {}
        return object_fields(value, self.metadata, where)


# ---------------------------------------------------------------------------
# Writing: shredding a Variant into its layout
# ---------------------------------------------------------------------------


def shred_variant(
    layout: VariantLayout, variant: tuple[bytes, bytes] | None, where: str = "value"
) -> dict[str, Any] | None:
    """The logical value of the VARIANT group (``nested_types.from_logical``'s
    input) that holds ``(metadata, value)`` shredded as ``layout`` says. A value
    that does not fit a ``typed_value`` goes to ``value`` (an object's unshredded
    fields to its residual ``value``); ``ValueError`` when there is no ``value``
    to put it in."""
    if variant is None:
        return None
    metadata, value = variant
    pair = _Shredder(parse_metadata(metadata, where)).shred(layout.pair, value, where)
    return {"metadata": metadata, **pair}


@dataclass(frozen=True)
class _Shredder:
    metadata: VariantMetadata

    def shred(self, pair: ShreddedPair, value: bytes | None, where: str) -> dict[str, Any]:
        typed, out = pair.typed, self.unshredded(pair, value, where)
        if value is None:
            return out
        if isinstance(typed, ObjectTyped) and is_object(value, where):
            fields = object_fields(value, self.metadata, where)
            shredded = {name: self.shred(p, fields.pop(name, None), f"{where}.{name}")
                        for name, p in typed.fields.items()}
            residual = encode_object(fields, self.metadata, where) if fields else None
            return {**self.unshredded(pair, residual, where), "typed_value": shredded}
        if isinstance(typed, ArrayTyped) and is_array(value, where):
            elements = [self.shred(typed.element, e, f"{where}[{i}]")
                        for i, e in enumerate(array_elements(value, where))]
            return {**self.unshredded(pair, None, where), "typed_value": elements}
        if isinstance(typed, PrimitiveTyped) and _fits(typed, value, where):
            return {**self.unshredded(pair, None, where), "typed_value": _from_variant(typed, value, where)}
        if not pair.has_value:
            raise ValueError(f"{where}: the value does not fit typed_value and there is no value field")
        return out

    @staticmethod
    def unshredded(pair: ShreddedPair, value: bytes | None, where: str) -> dict[str, Any]:
        """The pair with ``value`` in its value field and a null typed_value."""
        out: dict[str, Any] = {"typed_value": None} if pair.typed is not None else {}
        if pair.has_value:
            out["value"] = value
        elif value is not None:
            raise ValueError(f"{where}: a residual value but no value field")
        return out


# ---------------------------------------------------------------------------
# Schema builders
# ---------------------------------------------------------------------------


def variant_node(
    name: str, *, repetition: FieldRepetitionType, typed_value: SchemaNode | None = None
) -> SchemaNode:
    """A VARIANT group (LogicalTypes.md, 'VARIANT'): required ``metadata``, and
    ``value`` (required when unshredded, optional beside ``typed_value``)."""
    value_repetition = REQUIRED if typed_value is None else OPTIONAL
    children = [leaf("metadata", Type.BYTE_ARRAY, repetition=REQUIRED),
                *_pair_fields(typed_value, value_repetition)]
    variant = LogicalType(VARIANT=VariantType(specification_version=VARIANT_SPEC_VERSION))
    return group(name, children, repetition=repetition, logical_type=variant)


def shredded_primitive(physical_type: Type, **annotations: Any) -> SchemaNode:
    """A primitive ``typed_value`` ('Primitive Types'); ``annotations`` as ``tree.leaf`` takes them."""
    return leaf("typed_value", physical_type, repetition=OPTIONAL, **annotations)


def shredded_array(element_typed_value: SchemaNode | None) -> SchemaNode:
    """An array ``typed_value`` ('Arrays'): a 3-level LIST of required element groups."""
    element = group("element", _pair_fields(element_typed_value, OPTIONAL), repetition=REQUIRED)
    return list_node("typed_value", element, repetition=OPTIONAL)


def shredded_object(fields: Mapping[str, SchemaNode | None]) -> SchemaNode:
    """An object ``typed_value`` ('Objects'): one required group per shredded field."""
    groups = [group(name, _pair_fields(typed, OPTIONAL), repetition=REQUIRED)
              for name, typed in fields.items()]
    return group("typed_value", groups, repetition=OPTIONAL, converted_type=None)


def _pair_fields(typed_value: SchemaNode | None, value_repetition: FieldRepetitionType) -> list[SchemaNode]:
    value = leaf("value", Type.BYTE_ARRAY, repetition=value_repetition)
    if typed_value is None:
        return [value]
    if typed_value.name != "typed_value" or typed_value.repetition != OPTIONAL:
        raise ValueError("build a typed_value with shredded_primitive, shredded_array or shredded_object")
    return [value, typed_value]

