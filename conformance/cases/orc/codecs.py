"""Every compression codec, on data that compresses, in one chunk and in many.

Spec: ORCv1.md, 'Compression' (streams in chunks, each behind a 3-byte header holding its
length and whether it is stored original); orc_proto.proto ``enum CompressionKind`` and
``PostScript.compression_block_size``. The table is a few thousand rows of repeated text
and numbers, so each stream really shrinks and readers decompress, not just skip headers;
small chunks split every stream into several; random bytes do not compress, so their
chunks are stored original.
"""

from __future__ import annotations

from conformance.values import Field, Schema

from ..model import Case
from . import sections as S
from . import types as T
from .column_types import single_column
from .encodings import pseudo_random
from .options import CODECS, OrcWriteOptions

AREA = "orc/codecs"
ROWS = 2_000
SMALL_BLOCK = 1_024  # bytes: a stream of this table spans several chunks
SMALL_BLOCK_CODECS = ("ZLIB", "ZSTD")
RANDOM_BYTES = 64  # per value of the incompressible column

_SCHEMA = Schema((Field("id", T.integer(64)), Field("category", T.string()),
                  Field("note", T.string()), Field("amount", T.floating(64))))
_CATEGORIES = ("alpha", "beta", "gamma", "delta", "epsilon")


def _rows() -> tuple[tuple[object, ...], ...]:
    return tuple((i, _CATEGORIES[i % len(_CATEGORIES)], f"lorem ipsum dolor {i % 50}",
                  (i % 40) * 0.25)
                 for i in range(ROWS))


def _spec() -> tuple[str, ...]:
    return (S.COMPRESSION, S.COMPRESSION_KIND)


def _codec_case(codec: str, block_size: int | None) -> Case:
    small = block_size is not None
    return Case(f"{AREA}/{codec.lower()}{'-small-blocks' if small else ''}",
                f"{codec}, {ROWS} compressible rows"
                + (f", chunks of {block_size} bytes" if small else ""),
                (*_spec(), S.COMPRESSION_BLOCK_SIZE) if small else _spec(), _SCHEMA, _rows(),
                OrcWriteOptions(codec=codec, compression_block_size=block_size), format="orc")


def _incompressible() -> Case:
    values = [bytes(pseudo_random(RANDOM_BYTES, 0, 256, seed=i)) for i in range(100)]
    return single_column(f"{AREA}/zlib-incompressible", "ZLIB on random bytes: chunks stored "
                         "original", T.binary(), values, (*_spec(), S.BINARY_COLUMNS),
                         OrcWriteOptions(codec="ZLIB"))


def cases() -> list[Case]:
    return ([_codec_case(codec, None) for codec in CODECS]
            + [_codec_case(codec, SMALL_BLOCK) for codec in SMALL_BLOCK_CODECS]
            + [_incompressible()])
