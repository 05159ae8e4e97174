"""Every Encoding of parquet.thrift: what it encodes, on which physical types, and who implements it.

Encodings.md, 'Supported Encodings' and 'Deprecated Encodings' (the encodings
and their "Supported Types"), each encoding's own section, and parquet.thrift,
``enum Encoding``. :data:`ENCODINGS` is the one table the rest of the reference
asks: the reader's and the writer's dispatch of a data page's values
(``values``) and of its v1 levels (``nested.levels``), the writer's check of
its options, the dictionary page's encodings (``dictionary``), the conformance
catalogue of encoding cases and docs/encodings.md (:func:`markdown`). Adding an
encoding is a row here plus its module.

A row says where an encoding may appear (:class:`Use`): the values section of a
data page, a data page's dictionary indices, a dictionary page's entries, or a
data page v1's levels ("the BIT_PACKED encoding method is only supported for
encoding repetition and definition levels", 'Bit-packed (Deprecated)
(BIT_PACKED = 4)'). An encoding number read from a file that is not a row is a
newer format's (:class:`UnsupportedFeature`); so is a row without a module
(GROUP_VAR_INT, "never used"). ALP is "in Preview" (Encodings.md): implemented,
and the catalogue marks its cases ``spec:preview``. A known encoding where
the spec does not allow it is :class:`CorruptPage`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Flag, auto
from typing import Any, TypedDict

import numpy as np

from reference_impl.parquet.encodings.alp import decode_alp, encode_alp
from reference_impl.parquet.encodings.bit_packed import decode_bit_packed, encode_bit_packed
from reference_impl.parquet.encodings.byte_stream_split import (
    decode_byte_stream_split,
    encode_byte_stream_split,
)
from reference_impl.parquet.encodings.delta_binary_packed import (
    decode_delta_binary_packed,
    encode_delta_binary_packed,
)
from reference_impl.parquet.encodings.delta_byte_array import decode_delta_byte_array, encode_delta_byte_array
from reference_impl.parquet.encodings.delta_length_byte_array import (
    decode_delta_length_byte_array,
    encode_delta_length_byte_array,
)
from reference_impl.parquet.encodings.plain import decode_plain_values, encode_plain
from reference_impl.parquet.encodings.rle_boolean import decode_rle_boolean, encode_rle_boolean
from reference_impl.parquet.encodings.rle_hybrid import (
    decode_rle_hybrid_length_prefixed,
    encode_rle_hybrid_length_prefixed,
)
from reference_impl.parquet.errors import CorruptPage, ParquetError, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import Encoding, Type

__all__ = [
    "ENCODINGS",
    "Bounds",
    "EncodingRow",
    "LevelCodec",
    "Use",
    "ValueCodec",
    "checked_row",
    "encodings_for",
    "markdown",
    "type_problem",
]


class Use(Flag):
    """Where in a column chunk an encoding may appear."""

    VALUES = auto()  # the values section of a data page
    DICTIONARY_INDICES = auto()  # a data page's indices into the chunk's dictionary
    DICTIONARY_PAGE = auto()  # the entries of a dictionary page
    LEVELS = auto()  # the repetition and definition levels of a data page v1


USE_WORDS = {
    Use.VALUES: "values in a data page",
    Use.DICTIONARY_INDICES: "dictionary indices in a data page",
    Use.DICTIONARY_PAGE: "the entries of a dictionary page",
    Use.LEVELS: "levels in a data page v1",
}

class Bounds(TypedDict):
    """Where a decoder reads: ``data[start:end]``, errors at ``base_offset`` + position."""

    start: int
    end: int
    base_offset: int


Decoded = Sequence[Any] | np.ndarray


@dataclass(frozen=True)
class ValueCodec:
    """A data page's values: ``encode(physical_type, values, type_length) -> bytes`` and
    ``decode(physical_type, data, count, type_length, bounds) -> (values, position after them)``."""

    encode: Callable[[Type, Sequence[Any], int | None], bytes]
    decode: Callable[[Type, bytes | memoryview, int, int | None, Bounds], tuple[Decoded, int]]


@dataclass(frozen=True)
class LevelCodec:
    """A data page v1 level stream: ``encode(levels, bit_width) -> bytes`` and
    ``decode(data, bit_width, count, bounds) -> (levels, position after the stream)``."""

    encode: Callable[[Sequence[int] | np.ndarray, int], bytes]
    decode: Callable[[bytes | memoryview, int, int, Bounds], tuple[np.ndarray, int]]


@dataclass(frozen=True)
class EncodingRow:
    """One Encoding: its number and name in parquet.thrift, the spec file and the
    heading of the section that defines it, where it may appear, the physical types
    of the values it may hold, and the module that implements it (``None``: not
    implemented here)."""

    number: int
    name: str
    spec: str
    heading: str
    uses: Use
    physical_types: frozenset[Type]
    module: str | None = None
    values: ValueCodec | None = None
    levels: LevelCodec | None = None
    deprecated: bool = False
    preview: bool = False  # "in Preview" (Encodings.md): finalized, not yet implemented widely

    @property
    def implemented(self) -> bool:
        return self.module is not None

    @property
    def section(self) -> str:
        """The citation: spec file, then the heading as the spec writes it."""
        return f"{self.spec}, '{self.heading}'"


INT_BITS = {Type.INT32: 32, Type.INT64: 64}
ALL_TYPES = frozenset(Type)
INTEGERS = frozenset({Type.INT32, Type.INT64})
FLOATS = frozenset({Type.FLOAT, Type.DOUBLE})
NO_TYPES: frozenset[Type] = frozenset()


def _fixed_length(physical_type: Type, type_length: int | None) -> int | None:
    """DELTA_BYTE_ARRAY checks a length only for FIXED_LEN_BYTE_ARRAY values."""
    return type_length if physical_type == Type.FIXED_LEN_BYTE_ARRAY else None


PLAIN = ValueCodec(
    encode=encode_plain,
    decode=lambda t, data, count, length, at: decode_plain_values(t, data, count, type_length=length, **at),
)
RLE_BOOLEAN = ValueCodec(
    encode=lambda t, values, length: encode_rle_boolean(values),
    decode=lambda t, data, count, length, at: decode_rle_boolean(data, count, **at),
)
DELTA_BINARY_PACKED = ValueCodec(
    encode=lambda t, values, length: encode_delta_binary_packed(values, bits=INT_BITS[t]),
    decode=lambda t, data, count, length, at: decode_delta_binary_packed(data, count, bits=INT_BITS[t], **at),
)
DELTA_LENGTH_BYTE_ARRAY = ValueCodec(
    encode=lambda t, values, length: encode_delta_length_byte_array(values),
    decode=lambda t, data, count, length, at: decode_delta_length_byte_array(data, count, **at),
)
DELTA_BYTE_ARRAY = ValueCodec(
    encode=lambda t, values, length: encode_delta_byte_array(values, type_length=_fixed_length(t, length)),
    decode=lambda t, data, count, length, at: decode_delta_byte_array(
        data, count, type_length=_fixed_length(t, length), **at
    ),
)
BYTE_STREAM_SPLIT = ValueCodec(
    encode=lambda t, values, length: encode_byte_stream_split(values, physical_type=t, type_length=length),
    decode=lambda t, data, count, length, at: decode_byte_stream_split(
        data, count, physical_type=t, type_length=length, **at
    ),
)
ALP = ValueCodec(
    encode=lambda t, values, length: encode_alp(values, physical_type=t),
    decode=lambda t, data, count, length, at: decode_alp(data, count, physical_type=t, **at),
)
RLE_LEVELS = LevelCodec(
    encode=encode_rle_hybrid_length_prefixed,  # "Prepend length?" Y for data page v1 levels
    decode=lambda data, width, count, at: decode_rle_hybrid_length_prefixed(data, width, count, **at),
)
BIT_PACKED_LEVELS = LevelCodec(
    encode=lambda levels, width: encode_bit_packed(levels, bit_width=width),
    decode=lambda data, width, count, at: decode_bit_packed(data, count, bit_width=width, **at),
)

ENCODINGS_MD = "Encodings.md"
DICTIONARY_HEADING = "Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)"

ENCODINGS: dict[int, EncodingRow] = {
    row.number: row
    for row in (
        EncodingRow(
            0, "PLAIN", ENCODINGS_MD, "Plain: (PLAIN = 0)",
            Use.VALUES | Use.DICTIONARY_PAGE, ALL_TYPES, "plain", values=PLAIN,
        ),
        EncodingRow(
            1, "GROUP_VAR_INT", "parquet.thrift", "enum Encoding",
            Use.VALUES, INTEGERS, deprecated=True,
        ),
        EncodingRow(
            2, "PLAIN_DICTIONARY", ENCODINGS_MD, DICTIONARY_HEADING,
            Use.DICTIONARY_INDICES | Use.DICTIONARY_PAGE, ALL_TYPES, "dictionary, dictionary_indices",
            deprecated=True,
        ),
        EncodingRow(
            3, "RLE", ENCODINGS_MD, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)",
            Use.VALUES | Use.LEVELS, frozenset({Type.BOOLEAN}), "rle_boolean, rle_hybrid",
            values=RLE_BOOLEAN, levels=RLE_LEVELS,
        ),
        EncodingRow(
            4, "BIT_PACKED", ENCODINGS_MD, "Bit-packed (Deprecated) (BIT_PACKED = 4)",
            Use.LEVELS, NO_TYPES, "bit_packed", levels=BIT_PACKED_LEVELS, deprecated=True,
        ),
        EncodingRow(
            5, "DELTA_BINARY_PACKED", ENCODINGS_MD, "Delta Encoding (DELTA_BINARY_PACKED = 5)",
            Use.VALUES, INTEGERS, "delta_binary_packed", values=DELTA_BINARY_PACKED,
        ),
        EncodingRow(
            6, "DELTA_LENGTH_BYTE_ARRAY",
            ENCODINGS_MD, "Delta-length byte array: (DELTA_LENGTH_BYTE_ARRAY = 6)",
            Use.VALUES, frozenset({Type.BYTE_ARRAY}), "delta_length_byte_array",
            values=DELTA_LENGTH_BYTE_ARRAY,
        ),
        EncodingRow(
            7, "DELTA_BYTE_ARRAY", ENCODINGS_MD, "Delta Strings: (DELTA_BYTE_ARRAY = 7)",
            Use.VALUES, frozenset({Type.BYTE_ARRAY, Type.FIXED_LEN_BYTE_ARRAY}), "delta_byte_array",
            values=DELTA_BYTE_ARRAY,
        ),
        EncodingRow(
            8, "RLE_DICTIONARY", ENCODINGS_MD, DICTIONARY_HEADING,
            Use.DICTIONARY_INDICES, ALL_TYPES, "dictionary, dictionary_indices",
        ),
        EncodingRow(
            9, "BYTE_STREAM_SPLIT", ENCODINGS_MD, "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)",
            Use.VALUES, INTEGERS | FLOATS | {Type.FIXED_LEN_BYTE_ARRAY}, "byte_stream_split",
            values=BYTE_STREAM_SPLIT,
        ),
        EncodingRow(
            Encoding.ALP, Encoding.ALP.name, ENCODINGS_MD, "Adaptive Lossless floating-Point: (ALP = 10)",
            Use.VALUES, FLOATS, "alp", values=ALP, preview=True,
        ),
    )
}  # fmt: skip


def encodings_for(use: Use) -> frozenset[Encoding]:
    """The implemented encodings that may appear as ``use``."""
    return frozenset(
        Encoding(row.number) for row in ENCODINGS.values() if row.implemented and use in row.uses
    )


def type_problem(number: int, use: Use, physical_type: Type | None) -> str | None:
    """Why encoding ``number`` cannot appear as ``use`` (on values of ``physical_type``),
    or None if the spec allows it there. Says nothing of whether it is implemented."""
    row = ENCODINGS.get(number)
    if row is None:
        return f"encoding {number} is not an Encoding of parquet.thrift"
    if use not in row.uses:
        where = ", ".join(words for flag, words in USE_WORDS.items() if flag in row.uses) or "nothing"
        return f"{row.name} cannot encode {USE_WORDS[use]} (it is for {where}; {row.section})"
    if physical_type is not None and use in Use.VALUES | Use.DICTIONARY_INDICES:
        if physical_type not in row.physical_types:
            allowed = ", ".join(sorted(t.name for t in row.physical_types))
            return f"{row.name} applies to {allowed}, not {physical_type.name}"
    return None


def checked_row(
    number: int,
    use: Use,
    physical_type: Type | None,
    offset: int | None,
    *,
    what: str,
    misplaced: type[ParquetError] = CorruptPage,
) -> EncodingRow:
    """The row of encoding ``number``, read from a file for ``what`` (e.g. "dictionary
    page"), where it appears as ``use``.

    A number the table does not hold, or a row without a module, is
    :class:`UnsupportedFeature` (a newer or unimplemented encoding: the file may
    be valid); a known encoding the spec does not allow there is ``misplaced``.
    """
    row = ENCODINGS.get(number)
    if row is None:
        raise UnsupportedFeature(
            f"{what} in encoding {number}: not an Encoding of the parquet.thrift this reader follows", offset
        )
    problem = type_problem(number, use, physical_type)
    if problem:
        raise misplaced(f"{what} in encoding {row.name}: {problem}", offset)
    if not row.implemented:
        raise UnsupportedFeature(f"{what} in encoding {row.name} ({row.section}): not implemented", offset)
    return row


def markdown() -> str:
    """docs/encodings.md: the table as a page (tests keep the committed file equal to this)."""
    lines = [
        "# Encodings",
        "",
        "Generated by `reference_impl.parquet.encodings.registry.markdown()` from the table",
        "`ENCODINGS`; do not edit by hand (a test compares this file with the function's output).",
        "",
        "| value | encoding | where it may appear | physical types | module | spec |",
        "|---|---|---|---|---|---|",
    ]
    for row in ENCODINGS.values():
        name = f"{row.name} (deprecated)" if row.deprecated else row.name
        name = f"{name} (preview)" if row.preview else name
        uses = ", ".join(words for flag, words in USE_WORDS.items() if flag in row.uses)
        types = _types_cell(row)
        module = f"`{row.module}`" if row.module else "not implemented"
        lines.append(f"| {row.number} | {name} | {uses} | {types} | {module} | {row.section} |")
    lines += [
        "",
        "A data page whose encoding is not in this table, or is a row that is not",
        "implemented, is `UnsupportedFeature`; a known encoding where the table does not",
        "allow it (a use or a physical type) is `CorruptPage` (`InvalidLevelData` for levels).",
        "An encoding in Preview (Encodings.md: \"only using the encoding when you are sure your",
        "reader supports it\") is written only when a case asks for it; its cases carry the",
        "feature tags `spec:preview` and `forward_incompatible` (docs/architecture.md, 'Cell outcomes').",
        "",
    ]
    return "\n".join(lines)


def _types_cell(row: EncodingRow) -> str:
    if row.physical_types == ALL_TYPES:
        return "all"
    return ", ".join(t.name for t in sorted(row.physical_types)) or "-"
