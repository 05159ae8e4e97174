"""Values of a UTF-8 column that are not UTF-8.

LogicalTypes.md, 'STRING': "`STRING` may only be used to annotate the
`BYTE_ARRAY` primitive type and indicates that the byte array should be
interpreted as a UTF-8 encoded character string." 'ENUM': "Applications using
a data model lacking a native enum type should interpret `ENUM` annotated
field as a UTF-8 encoded string." 'JSON': "The `BYTE_ARRAY` data is
interpreted as a UTF-8 encoded character string of valid JSON". The words are
"should be interpreted", not MUST, but they leave a reader no other reading: a
value that is not UTF-8 cannot be read as the annotation says, and replacing
its bad bytes would be silently wrong data. So the reader raises
:class:`InvalidValue` at the first such value (``check_utf8``), and the
validator reports each one (``validation.string_checks``). The annotation is
the LogicalType's, else the ConvertedType's (UTF8, ENUM, JSON), as
``column_statistics.is_utf8_column`` reads it.

Values are checked per page after decoding (dictionary indices looked up), so
every encoding (PLAIN, RLE_DICTIONARY, DELTA_LENGTH_BYTE_ARRAY,
DELTA_BYTE_ARRAY) is covered by one check; a dictionary entry no page uses is
no value of the column and is not checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from reference_impl.parquet.encodings.plain import BYTE_TYPES
from reference_impl.parquet.errors import InvalidValue
from reference_impl.parquet.pages.chunk_reader import ChunkData, PageExtent
from reference_impl.parquet.pages.page import DATA_PAGE_TYPES
from reference_impl.parquet.schema.tree import LeafColumn
from reference_impl.parquet.statistics.column_statistics import is_utf8_column

__all__ = ["InvalidUtf8", "check_utf8", "invalid_utf8_values"]

# Values joined at once for the ASCII test: bytes.join holds an 80-byte buffer record per
# value meanwhile (80 MB for a million values), so the column is joined a batch at a time;
# a batch of 16,384 holds 1.3 MB, well under the values it checks (a batch of 65,536 was
# the largest part of a streamed read's peak above its row group: bench/README.md).
ASCII_BATCH = 1 << 14


@dataclass(frozen=True)
class InvalidUtf8:
    """One value that is not UTF-8, and where it is."""

    page: int  # ordinal among all the chunk's pages, as the reader's errors count them
    data_page: int  # ordinal among the data pages, as the validator's findings count them
    value: int  # index among the page's non-null values
    extent: PageExtent
    error: UnicodeDecodeError

    def describe(self) -> str:
        return (
            f"value {self.value} is not UTF-8: byte {self.error.start} of the value "
            f"({self.error.object[self.error.start : self.error.start + 1]!r}): {self.error.reason}"
        )


def invalid_utf8_values(leaf: LeafColumn, data: ChunkData) -> Iterator[InvalidUtf8]:
    """Every value of ``data`` that is not UTF-8, when ``leaf`` is a UTF-8 column.

    An annotation on a physical type that holds no bytes is another rule's breach
    (``schema.type_rules``), not a value to decode here."""
    node = leaf.node
    if node.leaf_type not in BYTE_TYPES or not is_utf8_column(node.logical_type, node.converted_type):
        return
    # ASCII is UTF-8 (its first 128 code points, one byte each): a column of ASCII bytes,
    # the common case, is checked a batch at a time; any other byte, value by value.
    values = cast(list[bytes], data.values)
    if all(b"".join(values[at : at + ASCII_BATCH]).isascii() for at in range(0, len(values), ASCII_BATCH)):
        return
    data_pages = 0
    for ordinal, extent in enumerate(data.pages):
        for index in extent.values:
            try:
                # BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values are bytes (encodings.plain)
                cast(bytes, data.values[index]).decode("utf-8")
            except UnicodeDecodeError as error:
                yield InvalidUtf8(ordinal, data_pages, index - extent.values.start, extent, error)
        data_pages += extent.header.type in DATA_PAGE_TYPES


def check_utf8(leaf: LeafColumn, data: ChunkData, where: str) -> None:
    """Raise InvalidValue at the first value of a UTF-8 column that is not UTF-8
    (``where`` names the chunk: column and row group)."""
    for bad in invalid_utf8_values(leaf, data):
        raise InvalidValue(
            f"{where}, page {bad.page}: {bad.describe()}; LogicalTypes.md, 'STRING': the byte "
            f"array should be interpreted as a UTF-8 encoded character string",
            bad.extent.offset,
        )
