"""ORCv1.md, 'Type Information': the Footer's pre-order type list as a tree and back, and the
checks on a list read from a file; columns/registry.py covers every kind."""

from __future__ import annotations

import pytest

from reference_impl.orc.columns.registry import COLUMN_KINDS, FILE_VERSIONS
from reference_impl.orc.errors import CorruptMetadata, UnsupportedFeature
from reference_impl.orc.metadata.orc_proto import Type
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import (
    HIVE11_DEFAULT_SCALE,
    MAX_NESTING_DEPTH,
    TypeNode,
    char,
    decimal,
    from_types,
    list_of,
    map_of,
    numbered,
    primitive,
    struct,
    to_types,
    union_of,
)

K = TypeKind


def spec_example() -> TypeNode:
    """The Hive DDL of 'Type Information': myInt int, myMap map<string, struct<myString :
    string, myDouble: double>>, myTime timestamp."""
    inner = struct({"myString": primitive(K.STRING), "myDouble": primitive(K.DOUBLE)})
    return struct({"myInt": primitive(K.INT), "myMap": map_of(primitive(K.STRING), inner),
                   "myTime": primitive(K.TIMESTAMP)})


def test_spec_example_flattens_in_pre_order() -> None:
    types = to_types(spec_example())
    assert [t.kind for t in types] == [K.STRUCT, K.INT, K.MAP, K.STRING, K.STRUCT, K.STRING, K.DOUBLE,
                                       K.TIMESTAMP]
    assert types[0].subtypes == [1, 2, 7] and types[2].subtypes == [3, 4] and types[4].subtypes == [5, 6]
    assert types[0].field_names == ["myInt", "myMap", "myTime"]
    tree = from_types(types)
    assert [node.column_id for node in tree.walk()] == list(range(8))
    assert to_types(tree) == types


def test_numbered_assigns_ids() -> None:
    tree = numbered(spec_example())
    assert tree.children[1].children[1].children[1].column_id == 6


def _types(*messages: Type) -> list[Type]:
    return list(messages)


def _one_field(*messages: Type) -> list[Type]:
    """A root struct with one field "a" (type 1), then ``messages``."""
    return [Type(kind=K.STRUCT, subtypes=[1], field_names=["a"]), *messages]


@pytest.mark.parametrize("types, message", [
    ([], "no types"),
    (_types(Type(kind=K.STRUCT, subtypes=[2], field_names=["a"]), Type(kind=K.INT), Type(kind=K.INT)),
     "pre-order"),
    (_one_field(Type(kind=K.LIST, subtypes=[1])),
     "pre-order"),  # a cycle
    (_types(Type(kind=K.STRUCT, subtypes=[5], field_names=["a"])), "pre-order"),
    (_one_field(Type(kind=K.INT), Type(kind=K.INT)),
     "not in the type tree"),
    (_types(Type(kind=K.STRUCT, subtypes=[1], field_names=[]), Type(kind=K.INT)), "field names"),
    (_types(Type(kind=K.STRUCT, subtypes=[1, 2], field_names=["a", "a"]), Type(kind=K.INT), Type(kind=K.INT)),
     "repeats"),
    (_one_field(Type(kind=K.LIST, subtypes=[])), "LIST has 1"),
    (_one_field(Type(kind=K.MAP, subtypes=[2]), Type(kind=K.INT)),
     "MAP has 2"),
    (_one_field(Type(kind=K.UNION)), "UNION has 1 to 256"),
    (_one_field(Type(kind=K.INT, subtypes=[2]), Type(kind=K.INT)),
     "INT has none"),
    (_one_field(Type(kind=K.CHAR)), "maximum_length"),
    (_one_field(Type(kind=K.DECIMAL, precision=39, scale=2)),
     "precision is at most 38"),
    (_one_field(Type(kind=K.DECIMAL, precision=5, scale=6)),
     "scale at most"),
    (_types(Type(kind=99)), "not one of"),
])
def test_bad_type_lists_are_refused(types: list[Type], message: str) -> None:
    with pytest.raises(CorruptMetadata, match=message) as caught:
        from_types(types, offset=1234)
    assert caught.value.offset == 1234


def test_decimal_without_precision_is_the_hive_011_decimal() -> None:
    for message in (Type(kind=K.DECIMAL), Type(kind=K.DECIMAL, precision=0, scale=0)):
        node = from_types([Type(kind=K.STRUCT, subtypes=[1], field_names=["d"]), message]).children[0]
        assert node.precision is None
    absent = from_types([Type(kind=K.STRUCT, subtypes=[1], field_names=["d"]), Type(kind=K.DECIMAL)])
    assert absent.children[0].scale == HIVE11_DEFAULT_SCALE


def test_char_decimal_attributes_survive() -> None:
    tree = numbered(struct({"c": char(7), "d": decimal(38, 10)}))
    assert tree.children[0].maximum_length == 7
    assert (tree.children[1].precision, tree.children[1].scale) == (38, 10)


def test_deep_nesting_is_refused_not_crashed_on() -> None:
    node = primitive(K.INT)
    for _ in range(MAX_NESTING_DEPTH + 1):
        node = list_of(node)
    with pytest.raises(UnsupportedFeature, match="nested deeper"):
        numbered(struct({"deep": node}))


def test_registry_covers_every_kind() -> None:
    assert set(COLUMN_KINDS) == set(TypeKind)
    for kind, entry in COLUMN_KINDS.items():
        assert set(FILE_VERSIONS) == set(entry.encodings), kind
        assert ColumnEncodingKind.DIRECT in entry.encodings["0.11"]
        assert set(entry.encodings["0.11"]) <= {ColumnEncodingKind.DIRECT, ColumnEncodingKind.DICTIONARY}
        assert set(entry.encodings["0.12"]) == set(entry.streams)
        assert all(streams[0] == StreamKind.PRESENT for streams in entry.streams.values())
        assert entry.heading.endswith("Columns")


def test_union_of_builds_variants() -> None:
    tree = numbered(struct({"u": union_of(primitive(K.INT), primitive(K.STRING))}))
    assert [child.kind for child in tree.children[0].children] == [K.INT, K.STRING]
