"""Every compression codec, in both data page versions.

Spec: Compression.md "Codecs" (each codec's heading) and parquet.thrift
`enum CompressionCodec`; for data page v2 also README.md "Data Pages"
(levels are never compressed, `is_compressed` may be false).
"""

from __future__ import annotations

import itertools

from conformance.values import Field, Schema
from conformance.values import types as T

from ..model import CODECS, Case, WriteOptions

ROWS = 500
SCHEMA = Schema((Field("id", T.integer(64), False), Field("name", T.string(), True),
                 Field("score", T.floating(64), True)))


def _rows() -> tuple[tuple, ...]:
    # Repetitive enough to compress, with nulls so that v2 pages carry levels.
    return tuple((i, None if i % 7 == 0 else f"name-{i % 13}", None if i % 5 == 0 else i / 4)
                 for i in range(ROWS))


def _case(codec: str, version: int, is_compressed: bool = True) -> Case:
    flag = "" if is_compressed else "-is-compressed-false"
    return Case(
        id=f"codec/{codec.lower()}-v{version}{flag}",
        title=f"{codec}, data page v{version}"
              + ("" if is_compressed else ", pages marked is_compressed=false"),
        spec=(f"Compression.md: Codecs, {codec}",
              "parquet.thrift: enum CompressionCodec", "parquet.thrift: struct DataPageHeaderV2"),
        schema=SCHEMA, rows=_rows(),
        # Each writer's own encodings: the case is about the codec.
        options=WriteOptions(encoding=None, codec=codec, page_version=version,
                             v2_is_compressed=is_compressed))


def cases() -> list[Case]:
    out = [_case(codec, version) for codec, version in itertools.product(CODECS, (1, 2))]
    out.append(_case("SNAPPY", 2, is_compressed=False))
    return out
