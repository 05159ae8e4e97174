"""Page checksums: PageHeader.crc on every kind of page.

Spec: README.md 'Checksumming'; parquet.thrift
`PageHeader.crc` (CRC32 of the page's bytes as stored, after compression).

Data page v1 and v2, dictionary pages, compressed and uncompressed. Readers
read them as usual; the metadata validator checks every CRC. The corrupted
case (reference only, `lies=("crc",)`) has every CRC off by one bit: its data
is intact, so a reader that does not verify reads it, and the validator must
report every page.
"""

from __future__ import annotations

from conformance.values import Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions

SPEC = ("README.md: Checksumming", "parquet.thrift: struct PageHeader")
ROWS = 50
PAGE_ROWS = 12
SCHEMA = Schema((Field("n", T.integer(64), True), Field("s", T.string(), True)))


def _case(name: str, title: str, **options) -> Case:
    return Case(id=f"checksum/{name}", title=title, spec=SPEC, schema=SCHEMA,
                rows=tuple((None if i % 5 == 0 else i * 3, f"v{i % 7}") for i in range(ROWS)),
                options=WriteOptions(page_checksum=True, page_row_limit=PAGE_ROWS, **options))


def cases() -> list[Case]:
    return [
        _case("v1-plain", "CRC on v1 data pages", encoding="PLAIN"),
        _case("v2-plain", "CRC on v2 data pages (levels uncompressed, values compressed)",
              encoding="PLAIN", page_version=2, codec="SNAPPY"),
        _case("dictionary", "CRC on the dictionary page and its data pages", encoding="RLE_DICTIONARY"),
        _case("v1-zstd", "CRC over the compressed bytes", encoding="PLAIN", codec="ZSTD"),
        _case("corrupted", "TEST-ONLY: every CRC off by one bit", encoding="PLAIN", lies=("crc",)),
    ]
