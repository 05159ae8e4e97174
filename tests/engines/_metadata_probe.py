"""What metadata a writer really put in a file: statistics, page index, bloom filters, CRCs.

Built on the independent compact-protocol walker of _parquet_probe (parquet.thrift
field ids: ColumnChunk 4/6 offset/column index offsets; ColumnMetaData 12
statistics, 14 bloom_filter_offset; Statistics 5/6 max_value/min_value, 1/2 the
deprecated max/min, 3 null_count; PageHeader 4 crc), so the adapter tests depend
neither on the engine under test nor on the reference implementation.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

from tests.engines._parquet_probe import PAGE_TYPES, _Compact


@dataclass
class ChunkMeta:
    row_group: int
    path: str
    statistics: dict[str, object] | None  # by name: min_value, max_value, min, max, null_count
    column_index: bool
    offset_index: bool
    bloom_filter: bool
    page_crcs: list[int | None] = field(default_factory=list)  # per page, in file order
    page_types: list[str] = field(default_factory=list)


_STAT_NAMES = {1: "max", 2: "min", 3: "null_count", 4: "distinct_count", 5: "max_value",
               6: "min_value"}


def chunk_metadata(path: Path) -> list[ChunkMeta]:
    data = Path(path).read_bytes()
    footer_len = struct.unpack("<I", data[-8:-4])[0]
    meta = _Compact(data, len(data) - 8 - footer_len).struct()
    out = []
    for rg_index, rg in enumerate(meta.get(4, [])):
        for column in rg[1]:
            md = column[3]
            stats = md.get(12)
            named = None if stats is None else {_STAT_NAMES[k]: v for k, v in stats.items()
                                                if k in _STAT_NAMES}
            chunk = ChunkMeta(rg_index, ".".join(p.decode() for p in md[3]), named,
                              column_index=column.get(6) is not None,
                              offset_index=column.get(4) is not None,
                              bloom_filter=md.get(14) is not None)
            start = md.get(11) or md[9]
            end, pos = start + md[7], start
            while pos < end:
                reader = _Compact(data, pos)
                header = reader.struct()
                chunk.page_types.append(PAGE_TYPES.get(header[1], str(header[1])))
                chunk.page_crcs.append(header.get(4))
                pos = reader.pos + header[3]
            out.append(chunk)
    return out
