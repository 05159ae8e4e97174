"""Hypothesis strategies for whole conformance cases (issue 6 item 4).

A case is drawn in the order its constraints flow: the value encoding first (it
decides which physical types the leaves may have, Encodings.md
'Supported Encodings'; `WriteOptions.encoding` applies to every column, so every leaf must
take it), the nested style next (the legacy list layouts hold required scalar
elements only, LogicalTypes.md 'Lists', 'Backward-compatibility rules'), then the
schema (any nesting of LIST, MAP and struct over every canonical type), the rows
(edge-biased, `tests.support.strategies.values`) and the remaining write options
(codec, page version, level encoding, page and row group sizes, dictionary fallback).

`cases(supports)` draws only what a writer and reader pair declares it can handle
(`supports(tag)`, one feature tag at a time), so a hunt spends its examples on
files the pair is meant to exchange rather than on rejected draws.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from conformance.cases import encodings as encoding_cases
from conformance.cases.model import CODECS, ENCODINGS, NESTED_STYLES, Case, WriteOptions, type_tags
from conformance.golden.regressions import regression_id
from conformance.values import DataType, Field, Schema
from conformance.values import types as T
from reference_impl.parquet.encodings.values import APPLIES_TO
from reference_impl.parquet.metadata.parquet_thrift import Encoding
from tests.support.strategies import SCALAR_TYPES_BY_PHYSICAL, scalar_types_on, values

AREA = "property"
DICTIONARY_ENCODINGS = ("PLAIN_DICTIONARY", "RLE_DICTIONARY")
LEGACY_LIST_STYLES = ("two_level", "array", "tuple", "unannotated")
MAX_COLUMNS = 3
MAX_LEAVES = 4  # scalar leaves of one column's type tree
MAX_DEPTH = 6  # containers in a chain (`deep_types`)
MAX_ROWS = 6
MAX_SIZE = 4  # rows per page / row group: several pages and row groups within MAX_ROWS
MAX_DICTIONARY_BYTES = 64  # dictionary_size_limit: small enough to fall back within a chunk
FIELD_NAMES = st.sampled_from("abcdef")

# Physical types each encoding takes (`None`: each writer's default, any type).
ENCODING_PHYSICAL = {
    **{e.name: tuple(t.name for t in sorted(types)) for e, types in APPLIES_TO.items()},
    **{e: tuple(SCALAR_TYPES_BY_PHYSICAL) for e in (*DICTIONARY_ENCODINGS, None)},
}
assert set(ENCODING_PHYSICAL) == {*ENCODINGS, None}, "an encoding without a strategy"

# Spec sections a case exercises, by encoding (those the catalogue's encoding cases cite).
ENCODING_SPEC = {name: encoding_cases.spec_entry(Encoding[name]) for name in ENCODINGS}
KIND_SPEC = {
    "list": "LogicalTypes.md: Lists", "map": "LogicalTypes.md: Maps",
    "struct": "LogicalTypes.md: Nested Types", "int96": "parquet.thrift: enum Type (INT96, deprecated)",
    "float": "LogicalTypes.md: FLOAT16", "unknown": "LogicalTypes.md: UNKNOWN (always null)",
}
LEGACY_SPEC = "LogicalTypes.md: {}, Backward-compatibility rules"
SPEC_NULLS_AND_NESTING = "README.md: Nested Encoding"

Supports = Callable[[str], bool]  # whether a feature tag may be drawn


def everything(tag: str) -> bool:
    return True


def _choices(draw, options: Sequence, tag, supports: Supports):
    """One of `options` whose feature tag (`tag(option)`; None: no tag) is supported."""
    return draw(st.sampled_from([o for o in options if tag(o) is None or supports(tag(o))]))


# ---- types ------------------------------------------------------------------------

def _field(name: str, t: DataType, nullable: bool) -> Field:
    """A field; UNKNOWN is always null, hence always nullable (LogicalTypes.md)."""
    return Field(name, t, nullable or t.kind == "unknown")


def _scalars(physical_types: tuple[str, ...], supports: Supports) -> st.SearchStrategy[DataType]:
    """Scalar types of the supported physical types (chosen first, rather than filtered out
    after the draw) whose every tag is supported."""
    supported = tuple(p for p in physical_types if supports(f"physical:{p}"))
    return scalar_types_on(supported, lambda t: all(map(supports, type_tags(t))))


def _leaf_types(physical_types: tuple[str, ...], supports: Supports) -> st.SearchStrategy[DataType]:
    leaves = _scalars(physical_types, supports)
    unknown = "INT32" in physical_types and all(map(supports, type_tags(T.unknown())))
    return st.one_of(leaves, st.just(T.unknown())) if unknown else leaves


def _map_keys(physical_types: tuple[str, ...], supports: Supports) -> st.SearchStrategy[DataType]:
    # A key is REQUIRED and primitive ("Maps"): not UNKNOWN (always null), not VARIANT (a group).
    return _scalars(physical_types, lambda tag: tag != "type:VARIANT" and supports(tag))


def _structs(children: st.SearchStrategy[DataType]) -> st.SearchStrategy[DataType]:
    fields = st.lists(st.tuples(FIELD_NAMES, children, st.booleans()), min_size=1, max_size=3,
                      unique_by=lambda f: f[0])
    return fields.map(lambda fs: T.struct_of(*(_field(*f) for f in fs)))


Wrap = Callable[[DataType], st.SearchStrategy[DataType]]  # a type -> a container of it


def _wraps(physical_types: tuple[str, ...], nested_style: str, supports: Supports) -> dict[str, Wrap]:
    """The containers a type may be put in: a LIST (not around a container in a legacy
    style: its elements are required scalars), a MAP's value, a struct's one field."""
    keys = _map_keys(physical_types, supports)
    legacy_list = nested_style in LEGACY_LIST_STYLES

    def list_of(t: DataType) -> st.SearchStrategy[DataType]:
        return st.booleans().map(lambda n: T.list_of(t, (n and not legacy_list) or t.kind == "unknown"))

    def map_of(t: DataType) -> st.SearchStrategy[DataType]:
        return st.builds(lambda k, n: T.map_of(k, t, n or t.kind == "unknown"), keys, st.booleans())

    def struct_of(t: DataType) -> st.SearchStrategy[DataType]:
        return st.builds(lambda name, n: T.struct_of(_field(name, t, n)), FIELD_NAMES, st.booleans())

    return {tag: wrap for tag, wrap in (("type:LIST", list_of), ("type:MAP", map_of),
                                        ("type:STRUCT", struct_of)) if supports(tag)}


@st.composite
def deep_types(draw, leaves: st.SearchStrategy[DataType], wraps: Sequence[Wrap],
               max_depth: int) -> DataType:
    """A leaf in a chain of 1 to `max_depth` containers (any of `wraps`, one child each):
    the deep trees a draw bounded by its leaves rarely makes."""
    t = draw(leaves)
    for _ in range(draw(st.integers(1, max_depth))):
        t = draw(draw(st.sampled_from(wraps))(t))
    return t


def column_types(physical_types: tuple[str, ...], nested_style: str,
                 supports: Supports = everything) -> st.SearchStrategy[DataType]:
    """Any nesting of LIST, MAP and struct over the leaves `physical_types` allow, laid out
    so that `nested_style` can write it: a legacy list holds required scalars only; and
    chains of containers up to MAX_DEPTH deep."""
    leaves = _leaf_types(physical_types, supports)
    wraps = _wraps(physical_types, nested_style, supports)
    legacy_list = nested_style in LEGACY_LIST_STYLES

    def nest(children):
        nested = []
        if "type:LIST" in wraps:
            element = _scalars(physical_types, supports) if legacy_list else children
            nested.append(element.flatmap(wraps["type:LIST"]))
        if "type:MAP" in wraps:
            nested.append(children.flatmap(wraps["type:MAP"]))
        if "type:STRUCT" in wraps:
            nested.append(_structs(children))
        return st.one_of(*nested) if nested else children

    trees = st.recursive(leaves, nest, max_leaves=MAX_LEAVES)
    chains = [w for tag, w in wraps.items() if not (legacy_list and tag == "type:LIST")]
    return st.one_of(trees, deep_types(leaves, chains, MAX_DEPTH)) if chains else trees


def _fits_unannotated(t: DataType, top_level: bool) -> bool:
    """An unannotated list is a bare repeated field: a REQUIRED column or struct field,
    never a map value ('Nested Types')."""
    if t.kind == "map":
        return _fits_unannotated(t.value.type, False)
    if t.kind == "struct":
        return all(_fits_unannotated(f.type, True) for f in t.fields)
    return t.kind != "list" or top_level


def _required_lists(t: DataType) -> DataType:
    """`t` with every list field REQUIRED (an unannotated list cannot be null)."""
    if t.kind == "struct":
        return T.struct_of(*(Field(f.name, _required_lists(f.type),
                                   f.nullable and f.type.kind != "list") for f in t.fields))
    if t.kind == "map":
        return T.map_of(t.key.type, _required_lists(t.value.type), t.value.nullable)
    return t


def schemas(physical_types: tuple[str, ...], nested_style: str,
            supports: Supports = everything) -> st.SearchStrategy[Schema]:
    types = column_types(physical_types, nested_style, supports)
    if nested_style == "unannotated":
        types = types.filter(lambda t: _fits_unannotated(t, True)).map(_required_lists)
    return _columns(types, nested_style)


@st.composite
def _columns(draw, types: st.SearchStrategy[DataType], nested_style: str) -> Schema:
    names = draw(st.lists(FIELD_NAMES, min_size=1, max_size=MAX_COLUMNS, unique=True))
    fields = []
    for name in names:
        t = draw(types)
        nullable = draw(st.booleans()) and not (nested_style == "unannotated" and t.kind == "list")
        fields.append(_field(f"c{name}", t, nullable))
    return Schema(tuple(fields))


def rows(schema: Schema) -> st.SearchStrategy[tuple[tuple, ...]]:
    row = st.tuples(*(values(f.type, f.nullable) for f in schema))
    # The count first, counted down from MAX_ROWS: Hypothesis leans to the smallest integers
    # (half the tables were empty), and the values' edges need rows to be drawn in.
    counts = st.integers(0, MAX_ROWS).map(lambda n: MAX_ROWS - n)
    return counts.flatmap(lambda n: st.lists(row, min_size=n, max_size=n)).map(tuple)


# ---- write options ----------------------------------------------------------------

@st.composite
def write_options(draw, encoding: str | None, nested_style: str,
                  supports: Supports = everything) -> WriteOptions:
    """Every knob of the page layout a writer is asked for (README.md, "Data Pages",
    "Configurations"; Compression.md, "Codecs"; Encodings.md, "Dictionary Encoding")."""
    versions = (1,) if encoding == "PLAIN_DICTIONARY" else (1, 2)  # v1's name for the indices
    page_version = _choices(draw, versions, lambda v: f"page:v{v}", supports)
    dictionary = encoding in DICTIONARY_ENCODINGS and supports("dictionary:fallback")
    return WriteOptions(
        encoding=encoding, codec=_choices(draw, CODECS, lambda c: f"codec:{c}", supports),
        page_version=page_version,
        row_group_size=draw(_sizes("row_groups:multiple", supports)),
        page_row_limit=draw(_sizes("pages:multiple", supports)),
        dictionary_size_limit=draw(st.one_of(st.none(), st.integers(1, MAX_DICTIONARY_BYTES)))
        if dictionary else None,
        level_encoding=_choices(draw, ("RLE", "BIT_PACKED") if page_version == 1 else ("RLE",),
                                lambda e: None if e == "RLE" else f"levels:{e}", supports),
        v2_is_compressed=_choices(draw, (True, False), lambda c: None if c else
                                  "page_v2:is_compressed=false", supports)
        if page_version == 2 else True,
        nested_style=nested_style)


def _sizes(tag: str, supports: Supports) -> st.SearchStrategy[int | None]:
    """A rows-per-page or per-row-group limit: small enough for several, if `tag` may be drawn."""
    return st.one_of(st.none(), st.integers(1, MAX_SIZE)) if supports(tag) else st.none()


# ---- cases --------------------------------------------------------------------------

def spec_sections(schema: Schema, options: WriteOptions) -> tuple[str, ...]:
    """The spec sections the case exercises: its encoding, codec, page version, level
    encoding, nested and logical types."""
    sections = ["parquet.thrift: enum Type", f"Compression.md: Codecs, {options.codec}",
                "README.md: Data Pages"]
    if options.encoding is not None:
        sections.append(ENCODING_SPEC[options.encoding])
    if options.page_version == 2:
        sections.append("parquet.thrift: struct DataPageHeaderV2")
    if options.level_encoding == "BIT_PACKED":
        sections.append(encoding_cases.spec_entry(Encoding.BIT_PACKED))
    types = {t for f in schema for t in f.type.walk()}
    sections += sorted({_kind_spec(t) for t in types} - {None})
    if any(f.nullable or f.type.is_nested for f in schema):
        sections.append(SPEC_NULLS_AND_NESTING)
    if options.nested_style != "standard":
        sections.append(LEGACY_SPEC.format("Lists" if options.nested_style in LEGACY_LIST_STYLES
                                           else "Maps"))
    return tuple(dict.fromkeys(sections))


def _kind_spec(t: DataType) -> str | None:
    """The LogicalTypes.md heading of a type (None for an unannotated physical type)."""
    if t.kind == "int":
        return None if t.signed and t.bits in (32, 64) else (
            f"LogicalTypes.md: {'Signed' if t.signed else 'Unsigned'} Integers")
    if t.kind == "float":
        return KIND_SPEC["float"] if t.bits == 16 else None
    if t.kind in KIND_SPEC:
        return KIND_SPEC[t.kind]
    return None if t.kind in ("binary", "fixed", "boolean") else f"LogicalTypes.md: {t.kind.upper()}"


def _title(schema: Schema, options: WriteOptions) -> str:
    columns = ", ".join(f"{f.name}: {f.type.describe()}{'' if f.nullable else ' not null'}"
                        for f in schema)
    return (f"Property example: {columns}; {options.encoding or 'default'} encoding, "
            f"{options.codec}, page v{options.page_version}")


def cases(supports: Supports = everything) -> st.SearchStrategy[Case]:
    """A whole case: schema, rows and write options, with id ``property/<digest>``."""
    # Each schema strategy is built on its first draw and kept: building and validating a
    # recursive strategy costs more than drawing from it.
    schema_strategies = functools.cache(functools.partial(schemas, supports=supports))
    return _cases(supports, schema_strategies)


@st.composite
def _cases(draw, supports: Supports,
           schema_strategies: Callable[[tuple[str, ...], str], st.SearchStrategy[Schema]]) -> Case:
    encoding = _choices(draw, (*ENCODINGS, None), lambda e: e and f"encoding:{e}", supports)
    styles = [s for s in NESTED_STYLES if s == "standard" or supports(f"legacy:{s}")]
    nested_style = draw(st.one_of(st.just("standard"), st.sampled_from(styles)))
    schema = draw(schema_strategies(ENCODING_PHYSICAL[encoding], nested_style))
    options = draw(write_options(encoding, nested_style, supports))
    case = Case(f"{AREA}/example", _title(schema, options), spec_sections(schema, options), schema,
                draw(rows(schema)), options)
    return dataclasses.replace(case, id=f"{AREA}/{regression_id(case)}")
