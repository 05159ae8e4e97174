"""Encryption modules and their AADs.

Spec: Encryption.md:

* '3 Technical Approach': a file is made of separately serialized "modules"
  (pages, page headers, column indexes, offset indexes, Bloom filter headers and
  bitsets, the footer, and the ColumnMetaData of columns whose key is not the
  footer's), each encrypted on its own;
* '4.4 Additional Authenticated Data': "The module AAD is a direct
  concatenation of the prefix and suffix parts";
* '4.4.2 AAD suffix': the suffix is the file's unique id, the module type
  (1 byte), then for every module but the footer the row group and column
  ordinals, and for data pages and their headers the page ordinal, each a
  "2 byte short, little endian".

Which ordinals a module type has is the spec's table, :data:`ORDINALS`; giving
a module a part it must not have, leaving out one it must have, or an ordinal
that does not fit the short is a ``ValueError`` (a caller's mistake: a writer
cannot encrypt more than 32768 row groups, columns or pages per chunk).
"""

from __future__ import annotations

import struct
from enum import IntEnum

__all__ = ["MAX_ORDINAL", "ORDINALS", "ModuleType", "aad_suffix", "module_aad"]


class ModuleType(IntEnum):
    """'4.4.2 AAD suffix', "The following module types are defined"."""

    FOOTER = 0
    COLUMN_META_DATA = 1
    DATA_PAGE = 2
    DICTIONARY_PAGE = 3
    DATA_PAGE_HEADER = 4
    DICTIONARY_PAGE_HEADER = 5
    COLUMN_INDEX = 6
    OFFSET_INDEX = 7
    BLOOM_FILTER_HEADER = 8
    BLOOM_FILTER_BITSET = 9


# The spec's table: which of (row group, column, page) ordinals each type carries.
_NONE = (False, False, False)
_CHUNK = (True, True, False)
_PAGE = (True, True, True)
ORDINALS: dict[ModuleType, tuple[bool, bool, bool]] = {
    ModuleType.FOOTER: _NONE,
    ModuleType.COLUMN_META_DATA: _CHUNK,
    ModuleType.DATA_PAGE: _PAGE,
    ModuleType.DICTIONARY_PAGE: _CHUNK,
    ModuleType.DATA_PAGE_HEADER: _PAGE,
    ModuleType.DICTIONARY_PAGE_HEADER: _CHUNK,
    ModuleType.COLUMN_INDEX: _CHUNK,
    ModuleType.OFFSET_INDEX: _CHUNK,
    ModuleType.BLOOM_FILTER_HEADER: _CHUNK,
    ModuleType.BLOOM_FILTER_BITSET: _CHUNK,
}

MODULE_TYPE = struct.Struct("<B")  # "module type (1 byte)"
ORDINAL = struct.Struct("<h")  # "2 byte short, little endian" (signed, as parquet-java and Arrow write it)
MAX_ORDINAL = (1 << 15) - 1


def aad_suffix(
    file_unique: bytes,
    module_type: ModuleType,
    row_group: int | None = None,
    column: int | None = None,
    page: int | None = None,
) -> bytes:
    """The AAD suffix of one module: file id | type | [row group | column [| page]]."""
    module_type = ModuleType(module_type)
    suffix = bytes(file_unique) + MODULE_TYPE.pack(module_type)
    parts = (("row group", row_group), ("column", column), ("page", page))
    for (name, ordinal), wanted in zip(parts, ORDINALS[module_type], strict=True):
        if not wanted:
            if ordinal is not None:
                raise ValueError(f"a {module_type.name} module has no {name} ordinal, got {ordinal}")
            continue
        suffix += _ordinal(module_type, name, ordinal)
    return suffix


def _ordinal(module_type: ModuleType, name: str, ordinal: int | None) -> bytes:
    if ordinal is None:
        raise ValueError(f"a {module_type.name} module needs a {name} ordinal")
    if not isinstance(ordinal, int) or isinstance(ordinal, bool) or not 0 <= ordinal <= MAX_ORDINAL:
        raise ValueError(
            f"{name} ordinal {ordinal!r} does not fit the AAD's 2-byte short (0 to {MAX_ORDINAL}): "
            f"an encrypted file holds at most {MAX_ORDINAL + 1}"
        )
    return ORDINAL.pack(ordinal)


def module_aad(prefix: bytes | None, suffix: bytes) -> bytes:
    """'4.4': "a direct concatenation of the prefix and suffix parts" (no prefix: the suffix)."""
    return bytes(prefix or b"") + suffix
