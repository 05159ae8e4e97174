"""The one table of encodings (``encodings.registry``) and everything it drives.

Encodings.md, 'Supported Encodings' and 'Deprecated Encodings'; parquet.thrift
``enum Encoding``. A data page in an encoding the table does not hold, or holds
without a module (GROUP_VAR_INT), is UnsupportedFeature naming the column
and the byte offset; a known encoding where the table does not allow it is
CorruptPage (InvalidLevelData for levels); the writer refuses such an encoding
up front; the conformance catalogue and docs/encodings.md are the table's.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest

from conformance.cases import encodings as encoding_cases
from reference_impl.parquet.encodings.dictionary import decode_dictionary_page
from reference_impl.parquet.encodings.plain import encode_plain
from reference_impl.parquet.encodings.registry import ENCODINGS, Use, encodings_for, markdown
from reference_impl.parquet.errors import CorruptPage, InvalidLevelData, UnsupportedFeature
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import Encoding, Type
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.nested.levels import decode_levels_v1
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.tree import leaf, root, schema_tree_to_elements
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

DOCS = Path(__file__).resolve().parents[3] / "docs" / "encodings.md"
MAGIC = b"PAR1"
FOOTER_LENGTH = struct.Struct("<I")
VALUES = [7, -1]
UNKNOWN_ENCODING = 11  # after ALP = 10, the last Encoding of parquet.thrift
GROUP_VAR_INT = 1
ALP = 10

# Thrift Compact Protocol ('Struct encoding'): a field header byte is the field id
# delta in the high nibble and the type in the low one; i32 is 5, struct is 12.
I32_FIELD_DELTA_1 = 0x15
STRUCT_FIELD_DELTA_2 = 0x2C
STOP = 0x00
RLE = 3


def _zigzag_varint(value: int) -> bytes:
    """An i32 as the Compact Protocol writes it: zigzag, then ULEB128."""
    number = (value << 1) ^ (value >> 31)
    out = bytearray()
    while number >= 0x80:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    return bytes(out + bytes([number]))


def _i32(value: int) -> bytes:
    return bytes([I32_FIELD_DELTA_1]) + _zigzag_varint(value)


def _data_page_header(encoding: int, num_values: int, size: int) -> bytes:
    """PageHeader{1: type DATA_PAGE, 2: uncompressed size, 3: compressed size,
    5: DataPageHeader{1: num_values, 2: encoding, 3, 4: level encodings RLE}}, by hand."""
    data_page = _i32(num_values) + _i32(encoding) + _i32(RLE) + _i32(RLE) + bytes([STOP])
    return (
        _i32(md.PageType.DATA_PAGE)
        + _i32(size)
        + _i32(size)
        + bytes([STRUCT_FIELD_DELTA_2])
        + data_page
        + bytes([STOP])
    )


def _file_with_page(encoding: int, physical_type: Type = Type.INT32) -> tuple[bytes, int]:
    """A file of one REQUIRED column "x" whose only data page says ``encoding`` and holds
    ``VALUES`` in PLAIN; and the file offset of those values (no levels precede them)."""
    body = encode_plain(physical_type, VALUES)
    chunk = _data_page_header(encoding, len(VALUES), len(body)) + body
    tree = root([leaf("x", physical_type, repetition=md.FieldRepetitionType.REQUIRED)])
    meta = md.ColumnMetaData(
        type=physical_type,
        encodings=[Encoding.PLAIN],
        path_in_schema=["x"],
        codec=md.CompressionCodec.UNCOMPRESSED,
        num_values=len(VALUES),
        total_uncompressed_size=len(chunk),
        total_compressed_size=len(chunk),
        data_page_offset=len(MAGIC),
    )
    row_group = md.RowGroup(
        columns=[md.ColumnChunk(file_offset=0, meta_data=meta)], total_byte_size=len(chunk), num_rows=2
    )
    footer = serialize(
        md.FileMetaData(version=1, schema=schema_tree_to_elements(tree), num_rows=2, row_groups=[row_group])
    )
    file = MAGIC + chunk + footer + FOOTER_LENGTH.pack(len(footer)) + MAGIC
    return file, len(MAGIC) + len(chunk) - len(body)


def test_the_hand_built_page_reads_in_plain() -> None:
    file, _ = _file_with_page(Encoding.PLAIN)
    assert read_parquet(file).data == {"x": VALUES}


@pytest.mark.parametrize(
    ("encoding", "message"),
    [
        (UNKNOWN_ENCODING, "values in encoding 11: not an Encoding of the parquet.thrift"),
        (GROUP_VAR_INT, "values in encoding GROUP_VAR_INT .*: not implemented"),
    ],
)
def test_a_data_page_in_an_encoding_outside_the_table_is_unsupported(encoding: int, message: str) -> None:
    file, values_at = _file_with_page(encoding)
    with pytest.raises(UnsupportedFeature, match=f"column x, row group 0, page 0: {message}") as info:
        read_parquet(file)
    assert info.value.offset == values_at


def test_a_page_said_to_be_alp_is_decoded_as_alp() -> None:
    """ALP is implemented (``encodings.alp``): PLAIN bytes under its name are a corrupt ALP
    header (their third byte, 0, is no log_vector_size), not an unsupported encoding."""
    file, values_at = _file_with_page(ALP, Type.DOUBLE)
    with pytest.raises(CorruptPage, match=r"ALP: log_vector_size is 0") as info:
        read_parquet(file)
    assert info.value.offset == values_at + 2


def test_alp_decodes_as_the_member_of_enum_encoding() -> None:
    """parquet.thrift ``enum Encoding`` ends with ``ALP = 10``: a page header naming it reads
    as ``Encoding.ALP``, not as an encoding unknown to the enum."""
    file, values_at = _file_with_page(ALP, Type.DOUBLE)
    header_at = len(MAGIC)
    header, _ = deserialize(md.PageHeader, file, start=header_at, end=values_at)
    assert header.data_page_header.encoding is Encoding.ALP
    assert ENCODINGS[Encoding.ALP].name == Encoding.ALP.name


def test_alp_on_a_type_it_does_not_apply_to_is_corrupt() -> None:
    file, values_at = _file_with_page(ALP, Type.INT32)
    with pytest.raises(CorruptPage, match="ALP applies to DOUBLE, FLOAT, not INT32") as info:
        read_parquet(file)
    assert info.value.offset == values_at


def test_dictionary_page_and_levels_in_an_unknown_encoding_are_unsupported() -> None:
    """Before the table: CorruptPage and InvalidLevelData, as if the file were wrong."""
    page = encode_plain(Type.INT32, VALUES)
    with pytest.raises(UnsupportedFeature, match="dictionary page in encoding 11") as info:
        decode_dictionary_page(Type.INT32, page, 2, UNKNOWN_ENCODING, type_length=None, start=0, end=4)
    assert info.value.offset == 0
    with pytest.raises(UnsupportedFeature, match="definition levels in encoding 11"):
        decode_levels_v1(page, 2, 1, UNKNOWN_ENCODING, kind="definition", start=0, end=len(page))
    with pytest.raises(InvalidLevelData, match="definition levels in encoding ALP: ALP cannot encode levels"):
        decode_levels_v1(page, 2, 1, ALP, kind="definition", start=0, end=len(page))


@pytest.mark.parametrize(
    ("options", "physical_type", "message"),
    [
        ({"encoding": "DELTA_BINARY_PACKED"}, Type.DOUBLE, "DELTA_BINARY_PACKED applies to INT32, INT64"),
        ({"encoding": "RLE"}, Type.INT32, "RLE applies to BOOLEAN, not INT32"),
        ({"encoding": "RLE_DICTIONARY", "fallback_encoding": "DELTA_BYTE_ARRAY"}, Type.INT64,
         "fallback encoding DELTA_BYTE_ARRAY applies to BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, not INT64"),
    ],
)  # fmt: skip
def test_the_writer_refuses_an_encoding_on_a_type_it_does_not_apply_to(options, physical_type, message):
    with pytest.raises(ValueError, match=message):
        tree = root([leaf("x", physical_type, repetition=md.FieldRepetitionType.OPTIONAL)])
        write_table(io.BytesIO(), tree, [{"x": None}], WriterOptions(**options))


@pytest.mark.parametrize(
    ("field", "encoding", "message"),
    [
        ("encoding", "BIT_PACKED", "encoding: BIT_PACKED is not a value encoding this writer implements"),
        ("fallback_encoding", "RLE_DICTIONARY", "fallback_encoding must be a non-dictionary value encoding"),
        ("level_encoding", "PLAIN", "level_encoding must be RLE or BIT_PACKED"),
    ],
)
def test_writer_options_take_encodings_only_where_the_table_allows(field, encoding, message) -> None:
    with pytest.raises(ValueError, match=message):
        WriterOptions(**{field: encoding})


def test_every_implemented_row_has_the_codec_of_each_use() -> None:
    for row in ENCODINGS.values():
        assert (row.values is not None) == (row.implemented and Use.VALUES in row.uses), row.name
        assert (row.levels is not None) == (row.implemented and Use.LEVELS in row.uses), row.name
    assert encodings_for(Use.DICTIONARY_PAGE) == {Encoding.PLAIN, Encoding.PLAIN_DICTIONARY}
    assert encodings_for(Use.LEVELS) == {Encoding.RLE, Encoding.BIT_PACKED}


def test_the_catalogue_has_a_case_for_every_encoding_and_type_of_the_table() -> None:
    """Every (encoding, physical type) pair the table allows, but PLAIN's (the physical
    type cases), appears in the catalogue with both page versions where allowed."""
    expected = {
        (row.name, physical.name)
        for row in ENCODINGS.values()
        if row.implemented and row.uses & (Use.VALUES | Use.DICTIONARY_INDICES) and row.name != "PLAIN"
        for physical in row.physical_types
    }
    catalogued = {
        (case.options.encoding, case.schema.fields[0].type.physical)
        for case in encoding_cases.cases()
        if case.id.startswith("encoding/") and case.options.level_encoding == "RLE"
        and case.options.dictionary_size_limit is None
    }
    assert catalogued == expected


def test_docs_encodings_md_is_the_table() -> None:
    assert DOCS.read_text(encoding="utf-8") == markdown(), "regenerate docs/encodings.md from markdown()"
