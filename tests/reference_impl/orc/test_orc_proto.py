"""The messages of orc_proto.proto (reference_impl/orc/metadata/orc_proto.py).

Three kinds of evidence: messages built byte by byte from the .proto's field numbers;
a cross-check against protobuf itself, with orc_proto_spec.proto (a transcription of the
spec's orc_proto.proto) compiled by grpc_tools.protoc at test time, for the declarations
(every field's number, type, label and packing) and, with hypothesis, for the bytes of
random messages both ways; and the tails of real files written by pyarrow.orc and pyorc.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from enum import IntEnum
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow as pa
import pyarrow.orc as pa_orc
import pyorc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from grpc_tools import protoc
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.orc.errors import CorruptProtobuf
from reference_impl.orc.metadata.orc_proto import (
    MESSAGES,
    BucketStatistics,
    ColumnStatistics,
    DataMask,
    Footer,
    IntegerStatistics,
    Label,
    Metadata,
    PostScript,
    ProtoMessage,
    RowIndex,
    RowIndexEntry,
    StringStatistics,
    StripeFooter,
    StripeInformation,
    Type,
    decode,
    encode,
    field_table,
)
from reference_impl.orc.metadata.proto_enums import CompressionKind, TypeKind
from reference_impl.orc.metadata.protobuf_wire import ScalarType
from tests.reference_impl.orc.protobuf_values import scalar_values

SPEC_PROTO = Path(__file__).with_name("orc_proto_spec.proto")
PB_TYPES = {
    ScalarType.UINT32: FieldDescriptor.TYPE_UINT32,
    ScalarType.UINT64: FieldDescriptor.TYPE_UINT64,
    ScalarType.INT32: FieldDescriptor.TYPE_INT32,
    ScalarType.SINT32: FieldDescriptor.TYPE_SINT32,
    ScalarType.SINT64: FieldDescriptor.TYPE_SINT64,
    ScalarType.BOOL: FieldDescriptor.TYPE_BOOL,
    ScalarType.ENUM: FieldDescriptor.TYPE_ENUM,
    ScalarType.FIXED64: FieldDescriptor.TYPE_FIXED64,
    ScalarType.DOUBLE: FieldDescriptor.TYPE_DOUBLE,
    ScalarType.STRING: FieldDescriptor.TYPE_STRING,
    ScalarType.BYTES: FieldDescriptor.TYPE_BYTES,
}


@pytest.fixture(scope="module")
def pb(tmp_path_factory) -> ModuleType:
    """orc_proto_spec.proto compiled by protoc and imported."""
    out = tmp_path_factory.mktemp("orc_proto_pb2")
    status = protoc.main(["protoc", f"-I{SPEC_PROTO.parent}", f"--python_out={out}", SPEC_PROTO.name])
    assert status == 0, "protoc could not compile orc_proto_spec.proto"
    name = "orc_proto_spec_pb2"
    spec = importlib.util.spec_from_file_location(name, out / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# -- converting between our dataclasses and protobuf's messages ----------------------


def to_pb(message: ProtoMessage, target: Any) -> Any:
    """Fill the protobuf message ``target`` from ``message``, field by field."""
    target.SetInParent()  # an empty nested message is still present
    for spec in field_table(type(message)).values():
        value = getattr(message, spec.name)
        if spec.label is Label.REPEATED and spec.message_type:
            for item in value:
                to_pb(item, getattr(target, spec.name).add())
        elif spec.label is Label.REPEATED:
            getattr(target, spec.name).extend(value)
        elif value is not None and spec.message_type:
            to_pb(value, getattr(target, spec.name))
        elif value is not None:
            setattr(target, spec.name, value)
    return target


def from_pb(source: Any, cls: type[ProtoMessage]) -> ProtoMessage:
    values: dict[str, Any] = {}
    for spec in field_table(cls).values():
        value = getattr(source, spec.name)
        if spec.label is Label.REPEATED:
            values[spec.name] = [from_pb(item, spec.message_type) if spec.message_type else item
                                 for item in value]
        elif source.HasField(spec.name):
            values[spec.name] = from_pb(value, spec.message_type) if spec.message_type else value
    return cls(**values)


# -- random messages, from the field tables -----------------------------------------

_SCALARS = scalar_values(max_size=12)
SAMPLED = [PostScript, Footer, StripeFooter, RowIndex, Metadata]  # the messages of the brief
MAX_DEPTH = 4  # Metadata > StripeStatistics > ColumnStatistics > GeospatialStatistics > BoundingBox


def messages(cls: type[ProtoMessage], depth: int = MAX_DEPTH) -> st.SearchStrategy[Any]:
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for spec in field_table(cls).values():
        repeated = spec.label is Label.REPEATED
        if spec.message_type is not None and not depth:
            fields[spec.name] = st.just([]) if repeated else st.none()
            continue
        if spec.message_type is not None:
            element = messages(spec.message_type, depth - 1)
        elif spec.enum_type is not None:
            # Known numbers only: proto2 parsers move an unknown one to the unknown fields.
            element = st.sampled_from(list(spec.enum_type))
        else:
            element = _SCALARS[spec.scalar]
        fields[spec.name] = st.lists(element, max_size=2 if spec.message_type else 4) if repeated \
            else st.none() | element
    return st.builds(cls, **fields)


def check_against_protobuf(pb: ModuleType, message: ProtoMessage) -> None:
    theirs = to_pb(message, getattr(pb, type(message).__name__)()).SerializeToString()
    assert encode(message) == theirs
    assert decode(type(message), theirs) == message


@pytest.mark.parametrize("cls", SAMPLED, ids=lambda cls: cls.__name__)
def test_bytes_match_protobuf(pb, cls):
    @given(messages(cls))
    def check(message):
        check_against_protobuf(pb, message)

    check()


@pytest.mark.parametrize("cls", MESSAGES, ids=lambda cls: cls.__name__)
def test_every_message_matches_protobuf(pb, cls):
    @settings(max_examples=15)
    @given(messages(cls, depth=2))
    def check(message):
        check_against_protobuf(pb, message)

    check()


# -- the declarations against the compiled .proto -----------------------------------


def test_every_message_of_the_proto_is_declared(pb):
    assert [cls.__name__ for cls in MESSAGES] == list(pb.DESCRIPTOR.message_types_by_name)


@pytest.mark.parametrize("cls", MESSAGES, ids=lambda cls: cls.__name__)
def test_field_tables_match_the_proto(pb, cls):
    descriptor = getattr(pb, cls.__name__).DESCRIPTOR
    theirs = {field.number: (field.name, field.is_repeated, field.is_packed) for field in descriptor.fields}
    ours = {spec.number: (spec.name, spec.label is Label.REPEATED, spec.packed)
            for spec in field_table(cls).values()}
    assert ours == theirs
    for field in descriptor.fields:
        spec = field_table(cls)[field.number]
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            assert spec.message_type is not None and spec.message_type.__name__ == field.message_type.name
        else:
            assert PB_TYPES[spec.scalar] == field.type
        if field.type == FieldDescriptor.TYPE_ENUM:
            assert spec.enum_type is not None
            assert _enum_members(spec.enum_type) == {v.name: v.number for v in field.enum_type.values}


def _enum_members(enum_type: type[IntEnum]) -> dict[str, int]:
    return {member.name: member.value for member in enum_type}


def test_the_fields_the_brief_names():
    names = [spec.name for spec in field_table(Footer).values()]
    assert names == ["header_length", "content_length", "stripes", "types", "metadata", "number_of_rows",
                     "statistics", "row_index_stride", "writer", "encryption", "calendar", "software_version"]
    packed = {(cls.__name__, spec.name)
              for cls in MESSAGES for spec in field_table(cls).values() if spec.packed}
    assert packed == {("BucketStatistics", "count"), ("RowIndexEntry", "positions"), ("Type", "subtypes"),
                      ("DataMask", "columns"), ("PostScript", "version")}


# -- byte-built messages ------------------------------------------------------------

# orc_proto.proto message PostScript, field by field: footer_length = 1 (uint64),
# compression = 2 (enum), compression_block_size = 3 (uint64), version = 4 (packed uint32),
# metadata_length = 5, writer_version = 6, magic = 8000 (string).
POSTSCRIPT_BYTES = bytes([
    0x08, 0x96, 0x01,              # 1: footer_length 150
    0x10, 0x01,                    # 2: compression ZLIB
    0x18, 0x80, 0x80, 0x10,        # 3: compression_block_size 262144
    0x22, 0x02, 0x00, 0x0C,        # 4: version [0, 12], packed
    0x28, 0x2A,                    # 5: metadata_length 42
    0x30, 0x06,                    # 6: writer_version 6
    0x82, 0xF4, 0x03, 0x03,        # 8000: magic, 3 bytes
]) + b"ORC"
POSTSCRIPT = PostScript(footer_length=150, compression=CompressionKind.ZLIB, compression_block_size=262144,
                        version=[0, 12], metadata_length=42, writer_version=6, magic="ORC")


def test_a_postscript_built_byte_by_byte():
    assert decode(PostScript, POSTSCRIPT_BYTES) == POSTSCRIPT
    assert encode(POSTSCRIPT) == POSTSCRIPT_BYTES
    assert isinstance(decode(PostScript, POSTSCRIPT_BYTES).compression, CompressionKind)


def test_absent_fields_are_none_and_empty_lists():
    assert decode(PostScript, b"") == PostScript()
    assert PostScript().footer_length is None and PostScript().version == []
    assert encode(PostScript()) == b""
    assert encode(ColumnStatistics(int_statistics=IntegerStatistics())) == bytes([0x12, 0x00])


def test_repeated_scalars_packed_or_not():
    unpacked = bytes([0x20, 0x00, 0x20, 0x0C])  # version as two VARINT records
    mixed = bytes([0x20, 0x00, 0x22, 0x01, 0x0C])
    assert decode(PostScript, unpacked).version == [0, 12]
    assert decode(PostScript, mixed).version == [0, 12]
    # A field the .proto does not pack is written one record per value.
    assert encode(Type(field_names=["a", "b"])) == bytes([0x1A, 0x01, 0x61, 0x1A, 0x01, 0x62])
    assert encode(BucketStatistics(count=[1, 2])) == bytes([0x0A, 0x02, 0x01, 0x02])


def test_field_order_is_irrelevant_and_unknown_fields_are_skipped():
    records = [bytes([0x08, 0x96, 0x01]), bytes([0x10, 0x01]), bytes([0x22, 0x02, 0x00, 0x0C])]
    unknown = [bytes([0xC8, 0x01, 0x05]),               # 25: VARINT
               bytes([0xD2, 0x01, 0x02, 0xAA, 0xBB]),   # 26: LEN
               bytes([0xD9, 0x01]) + bytes(8),          # 27: I64
               bytes([0xE5, 0x01]) + bytes(4)]          # 28: I32
    expected = PostScript(footer_length=150, compression=CompressionKind.ZLIB, version=[0, 12])
    assert decode(PostScript, b"".join(reversed(records))) == expected
    assert decode(PostScript, b"".join(unknown[:2] + records + unknown[2:])) == expected


def test_a_repeated_singular_field_last_wins_and_messages_merge():
    assert decode(PostScript, bytes([0x08, 0x01, 0x08, 0x02])).footer_length == 2
    first = bytes([0x12, 0x02, 0x08, 0x02])   # int_statistics { minimum: 1 }
    second = bytes([0x12, 0x02, 0x10, 0x04])  # int_statistics { maximum: 2 }
    merged = decode(ColumnStatistics, first + second)
    assert merged.int_statistics == IntegerStatistics(minimum=1, maximum=2)
    rows = bytes([0x0A, 0x02, 0x08, 0x01]) + bytes([0x0A, 0x02, 0x08, 0x02])  # two entries
    assert decode(RowIndex, rows) == RowIndex(entry=[RowIndexEntry(positions=[1]),
                                                     RowIndexEntry(positions=[2])])


def test_an_unknown_enum_number_is_kept_as_an_int():
    data = bytes([0x08, 0x63])  # Type.kind = 99
    decoded = decode(Type, data)
    assert decoded.kind == 99 and not isinstance(decoded.kind, TypeKind)
    assert encode(decoded) == data
    assert decode(Type, bytes([0x08, 0x13])).kind is TypeKind.GEOMETRY


@pytest.mark.parametrize(("cls", "data", "fragment", "offset"), [
    (PostScript, bytes([0x0A, 0x00]), "PostScript.footer_length (field 1): wire type LEN", 1000),
    (Footer, bytes([0x1A, 0x01, 0x08]), "varint runs past the end", 1003),
    (Footer, bytes([0x1A, 0x02, 0x0A, 0x00]), "StripeInformation.offset (field 1): wire type LEN", 1002),
    (StringStatistics, bytes([0x0A, 0x01, 0xFF]), "StringStatistics.minimum (field 1): string is not UTF-8",
     1002),
    (Footer, bytes([0x22, 0x01, 0x12]), "field 2 length", 1003),
    (DataMask, bytes([0x1A, 0x01, 0x80]), "DataMask.columns (field 3)", 1002),
])
def test_malformed_messages_name_the_field_and_the_file_offset(cls, data, fragment, offset):
    with pytest.raises(CorruptProtobuf) as error:
        decode(cls, data, base_offset=1000)
    assert fragment in error.value.message
    assert error.value.offset == offset


# -- real files ---------------------------------------------------------------------


def _pyarrow_file() -> bytes:
    table = pa.table({"i": pa.array([1, None, 3], pa.int64()), "s": ["a", "bb", None],
                      "d": pa.array([1.5, -2.0, None]), "l": [[1], [], None]})
    sink = io.BytesIO()
    pa_orc.write_table(table, sink, compression="UNCOMPRESSED")
    return sink.getvalue()


def _pyorc_file() -> bytes:
    sink = io.BytesIO()
    schema = "struct<a:int,b:varchar(4),c:decimal(10,2),m:map<string,int>,u:uniontype<int,string>>"
    with pyorc.Writer(sink, schema, compression=pyorc.CompressionKind.NONE) as writer:
        writer.set_user_metadata(k=b"v")
        writer.write((1, "ab", None, {"x": 1}, 2))
        writer.write((None, "cd", None, {}, "s"))
    return sink.getvalue()


@pytest.mark.parametrize("make", [_pyarrow_file, _pyorc_file], ids=["pyarrow", "pyorc"])
def test_real_tails_decode_as_protobuf_decodes_them(pb, make):
    data = make()
    ps_length = data[-1]
    ps_bytes = data[-1 - ps_length:-1]
    postscript = decode(PostScript, ps_bytes)
    assert postscript == from_pb(pb.PostScript.FromString(ps_bytes), PostScript)
    assert postscript.magic == "ORC" and postscript.compression == CompressionKind.NONE
    footer_end = len(data) - 1 - ps_length
    footer_bytes = data[footer_end - postscript.footer_length:footer_end]
    footer = decode(Footer, footer_bytes)
    assert footer == from_pb(pb.Footer.FromString(footer_bytes), Footer)
    assert footer.types[0].kind == TypeKind.STRUCT and footer.number_of_rows >= 2
    assert encode(footer) == footer_bytes  # writers use field-number order too
    metadata_bytes = data[footer_end - postscript.footer_length - postscript.metadata_length:
                          footer_end - postscript.footer_length]
    assert decode(Metadata, metadata_bytes) == from_pb(pb.Metadata.FromString(metadata_bytes), Metadata)


def test_pyorc_footer_fields(pb):
    data = _pyorc_file()
    postscript = decode(PostScript, data[-1 - data[-1]:-1])
    footer_end = len(data) - 1 - data[-1]
    footer = decode(Footer, data[footer_end - postscript.footer_length:footer_end])
    kinds = [t.kind for t in footer.types]
    assert kinds == [TypeKind.STRUCT, TypeKind.INT, TypeKind.VARCHAR, TypeKind.DECIMAL, TypeKind.MAP,
                     TypeKind.STRING, TypeKind.INT, TypeKind.UNION, TypeKind.INT, TypeKind.STRING]
    assert footer.types[2].maximum_length == 4
    assert (footer.types[3].precision, footer.types[3].scale) == (10, 2)
    assert [(item.name, item.value) for item in footer.metadata] == [("k", b"v")]
    assert footer.stripes and isinstance(footer.stripes[0], StripeInformation)


@pytest.mark.parametrize("cls", SAMPLED, ids=lambda cls: cls.__name__)
def test_damaged_messages_fail_only_with_corrupt_protobuf(cls):
    @given(messages(cls, depth=2), st.data())
    def check(message, data):
        raw = bytearray(encode(message))
        if raw:
            position = data.draw(st.integers(0, len(raw) - 1))
            raw[position] = data.draw(st.integers(0, 255))
            del raw[data.draw(st.integers(0, len(raw))):]
        try:
            decoded = decode(cls, bytes(raw), base_offset=500)
        except CorruptProtobuf as error:
            assert error.offset is not None and 500 <= error.offset <= 500 + len(raw)
        else:
            assert isinstance(decoded, cls)

    check()
