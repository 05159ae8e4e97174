"""What a writer really put in a file: codec and page headers of every column chunk.

A deliberately small, independent Thrift compact-protocol walker (parquet.thrift
`FileMetaData`, `PageHeader`), so the adapter tests do not depend on the engine
under test nor on the reference implementation being built alongside. Writers do
not always list every encoding in `ColumnMetaData.encodings` (docs/engine-notes.md,
'Reading what a writer wrote'),
hence the page headers.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PAGE_TYPES = {0: "DATA_PAGE", 1: "INDEX_PAGE", 2: "DICTIONARY_PAGE", 3: "DATA_PAGE_V2"}
ENCODINGS = {0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED",
             5: "DELTA_BINARY_PACKED", 6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY",
             8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"}
CODECS = {0: "UNCOMPRESSED", 1: "SNAPPY", 2: "GZIP", 3: "LZO", 4: "BROTLI", 5: "LZ4", 6: "ZSTD",
          7: "LZ4_RAW"}


class _Compact:
    def __init__(self, data: bytes, pos: int):
        self.data, self.pos = data, pos

    def _byte(self) -> int:
        self.pos += 1
        return self.data[self.pos - 1]

    def _varint(self) -> int:
        shift = result = 0
        while True:
            b = self._byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result

    def _zigzag(self) -> int:
        v = self._varint()
        return (v >> 1) ^ -(v & 1)

    def struct(self) -> dict[int, object]:
        out: dict[int, object] = {}
        last = 0
        while (header := self._byte()) != 0:
            delta, ftype = header >> 4, header & 0x0F
            last = last + delta if delta else self._zigzag()
            out[last] = self._value(ftype)
        return out

    def _value(self, ftype: int) -> object:
        if ftype in (1, 2):
            return ftype == 1
        if ftype == 3:
            return self._byte()
        if ftype in (4, 5, 6):
            return self._zigzag()
        if ftype == 7:
            self.pos += 8
            return self.data[self.pos - 8:self.pos]
        if ftype == 8:
            n = self._varint()
            self.pos += n
            return self.data[self.pos - n:self.pos]
        if ftype in (9, 10):
            header = self._byte()
            size, etype = header >> 4, header & 0x0F
            if size == 15:
                size = self._varint()
            return [self._value(etype) for _ in range(size)]
        if ftype == 12:
            return self.struct()
        raise ValueError(f"unexpected compact type {ftype}")


@dataclass
class Chunk:
    row_group: int
    path: str
    codec: str
    pages: list[tuple[str, str]]  # (page type, encoding) in file order

    @property
    def data_encodings(self) -> set[str]:
        return {enc for kind, enc in self.pages if kind.startswith("DATA_PAGE")}

    @property
    def page_types(self) -> set[str]:
        return {kind for kind, _ in self.pages}


def raw_chunks(path: Path) -> Iterator[tuple[int, dict, dict, list[dict]]]:
    """Each column chunk as decoded Thrift: (row group index, ColumnChunk fields,
    ColumnMetaData fields, the page headers in file order)."""
    data = Path(path).read_bytes()
    footer_len = struct.unpack("<I", data[-8:-4])[0]
    meta = _Compact(data, len(data) - 8 - footer_len).struct()
    for rg_index, rg in enumerate(meta.get(4, [])):
        for column in rg[1]:
            md = column[3]
            start = md.get(11) or md[9]  # dictionary_page_offset, else data_page_offset
            end, pos, headers = start + md[7], start, []
            while pos < end:
                reader = _Compact(data, pos)
                headers.append(reader.struct())
                pos = reader.pos + headers[-1][3]
            yield rg_index, column, md, headers


def chunks(path: Path) -> list[Chunk]:
    out = []
    for rg_index, _, md, headers in raw_chunks(path):
        pages = []
        for header in headers:
            kind = PAGE_TYPES[header[1]]
            body = {"DATA_PAGE": (5, 2), "DATA_PAGE_V2": (8, 4),
                    "DICTIONARY_PAGE": (7, 2)}.get(kind)
            encoding = ENCODINGS[header[body[0]][body[1]]] if body else ""
            pages.append((kind, encoding))
        path_in_schema = ".".join(p.decode() for p in md[3])
        out.append(Chunk(rg_index, path_in_schema, CODECS[md[4]], pages))
    return out
