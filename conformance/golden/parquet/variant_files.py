"""Parquet bad files: VARIANT values whose bytes break VariantEncoding.md.

VariantEncoding.md, 'Variant in Parquet': "The `metadata` field is `required` and must
be a valid Variant metadata" and "When present, the `value` field must be a valid
Variant value". A reader that returns such bytes hands back a value the text gives no
meaning, so each file is ``bad`` and the reference refuses it with
:class:`~reference_impl.parquet.errors.InvalidVariant`, naming the row and the byte.

The original (:func:`variant_original`) is one unshredded VARIANT column (LogicalTypes.md,
'VARIANT': required ``metadata`` and ``value``) of three rows, int8 0, 1 and 2 with an
empty metadata, written by the reference writer; each file writes the same rows with
exactly one row's metadata or value replaced by bytes built here from the text's grammar.
"""

from __future__ import annotations

import io
from functools import cache, partial

from reference_impl.parquet.errors import InvalidVariant
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.schema.nested_types import records_from_logical
from reference_impl.parquet.schema.tree import root
from reference_impl.parquet.schema.variant_encoding import Primitive, encode_metadata, encode_primitive
from reference_impl.parquet.schema.variant_shredding import variant_node
from reference_impl.parquet.writer import write_table

from ..bad_file import BadFile

__all__ = ["variant_files", "variant_original"]

COLUMN = "v"
ROWS = 3
BAD_ROW = 1  # the row whose bytes are replaced
EMPTY_METADATA = encode_metadata([])
SPEC = "VariantEncoding.md: "


def _value(row: int) -> bytes:
    return encode_primitive(Primitive.INT8, bytes([row]))


def _write(metadata: dict[int, bytes], values: dict[int, bytes]) -> bytes:
    """The three rows, row ``r``'s metadata ``metadata[r]`` and value ``values[r]`` where given."""
    tree = root([variant_node(COLUMN, repetition=md.FieldRepetitionType.REQUIRED)])
    rows = [{COLUMN: {"metadata": metadata.get(r, EMPTY_METADATA), "value": values.get(r, _value(r))}}
            for r in range(ROWS)]
    sink = io.BytesIO()
    write_table(sink, tree, records_from_logical(tree, rows))
    return sink.getvalue()


@cache
def variant_original() -> bytes:
    return _write({}, {})


# (id, fault, section, the bad row's metadata or value): each built field by field.
_BAD_VALUES = (
    ("object-cut-short", "An object whose header claims 7 fields ends after 2 of its field ids.",
     "Value Data for Object", bytes([0x02, 7, 0, 1])),  # basic type 2, 1-byte ids and offsets
    ("field-id-past-metadata", "An object's field id 5 is past the metadata's empty dictionary.",
     "Value Data for Object", bytes([0x02, 1, 5, 0, 2]) + _value(0)),
    ("offset-past-value", "An array's last field offset (9) is past its 2 bytes of values.",
     "Value Data for Array", bytes([0x03, 1, 0, 9]) + _value(0)),
    ("string-not-utf8", "A short string's 2 bytes are not UTF-8.",
     "String values must be UTF-8 encoded", bytes([2 << 2 | 1]) + b"\xff\xfe"),
    ("bytes-after-value", "An int8 value is followed by one more byte.", "Value encoding",
     _value(BAD_ROW) + b"\x00"),
)
_BAD_METADATA = (
    ("metadata-version-0", "A metadata header's version is 0.", bytes([0x00, 0, 0])),
    ("metadata-unsorted", "A metadata sets sorted_strings over the strings 'b', 'a'.",
     bytes([0x11, 2, 0, 1, 2]) + b"ba"),
    ("metadata-offsets-past-strings", "A metadata's last string offset (4) is past its 1 byte of strings.",
     bytes([0x01, 1, 0, 4]) + b"a"),
)


def variant_files() -> list[BadFile]:
    """One file per fault of the variant encoding (see the module docstring)."""
    values = [
        BadFile(f"variant/{name}", fault, InvalidVariant.__name__, (SPEC + section,),
                partial(_write, {}, {BAD_ROW: value}), variant_original)
        for name, fault, section, value in _BAD_VALUES
    ]
    metadata = [
        BadFile(f"variant/{name}", fault, InvalidVariant.__name__, (SPEC + "Metadata encoding",),
                partial(_write, {BAD_ROW: bad}, {}), variant_original)
        for name, fault, bad in _BAD_METADATA
    ]
    return values + metadata
