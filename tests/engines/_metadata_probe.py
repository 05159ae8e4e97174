"""What metadata a writer really put in a file: statistics, page index, bloom filters, CRCs.

Built on the independent compact-protocol walker of _parquet_probe (parquet.thrift
field ids: ColumnChunk 4/6 offset/column index offsets; ColumnMetaData 12
statistics, 14 bloom_filter_offset; Statistics 5/6 max_value/min_value, 1/2 the
deprecated max/min, 3 null_count; PageHeader 4 crc), so the adapter tests depend
neither on the engine under test nor on the reference implementation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tests.engines._parquet_probe import PAGE_TYPES, raw_chunks


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
    out = []
    for rg_index, column, md, headers in raw_chunks(path):
        stats = md.get(12)
        named = None if stats is None else {_STAT_NAMES[k]: v for k, v in stats.items()
                                            if k in _STAT_NAMES}
        out.append(ChunkMeta(rg_index, ".".join(p.decode() for p in md[3]), named,
                             column_index=column.get(6) is not None,
                             offset_index=column.get(4) is not None,
                             bloom_filter=md.get(14) is not None,
                             page_crcs=[header.get(4) for header in headers],
                             page_types=[PAGE_TYPES.get(header[1], str(header[1]))
                                         for header in headers]))
    return out
