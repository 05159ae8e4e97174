"""Page checksums: ``PageHeader.crc``.

Spec: README.md, 'Checksumming' ("Checksums are calculated
using the standard CRC32 algorithm - as used in e.g. GZip - on the serialized
binary representation of a page (not including the page header itself)") and
the ``PageHeader.crc`` comment in parquet.thrift:

* polynomial 0x04C11DB7, the CRC32 of GZip, which is ``zlib.crc32``;
* every page type may carry one (v1 and v2 data pages, dictionary pages);
* it covers the page's bytes *as written to disk* after the header: for a v1
  data page the levels and values after compression (and encryption); for a v2
  page its uncompressed levels followed by its (possibly compressed) values.

The field is an ``i32``, so the unsigned CRC is stored as its two's complement:
a CRC of 0xFFFFFFFF is written as -1. Readers compare modulo 2**32.
"""

from __future__ import annotations

import zlib

from reference_impl.parquet.errors import ChecksumMismatch

__all__ = ["page_crc", "verify_page_crc"]

_U32 = 1 << 32
_I32_SIGN = 1 << 31


def page_crc(body: bytes | bytearray | memoryview) -> int:
    """The ``PageHeader.crc`` value of a page whose stored bytes after the header are ``body``."""
    crc = zlib.crc32(body)
    return crc - _U32 if crc >= _I32_SIGN else crc


def verify_page_crc(stored_crc: int, body: bytes | bytearray | memoryview, header_offset: int) -> None:
    """Raise :class:`ChecksumMismatch` unless ``stored_crc`` is the CRC32 of ``body``."""
    computed = zlib.crc32(body)
    if stored_crc % _U32 != computed:
        raise ChecksumMismatch(
            f"page CRC32 mismatch: the header says {stored_crc % _U32:#010x}, "
            f"the {len(body)} stored bytes after it give {computed:#010x}",
            header_offset,
        )
