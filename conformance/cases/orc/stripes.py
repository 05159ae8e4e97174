"""Stripes and row group indexes: several stripes, stripes of one row, row index strides
and files without a row index.

Spec: ORCv1.md, 'Stripes' and 'Stripe Information' (a stripe's rows, offset and lengths)
and 'Row Group Index' of 'Indexes' (an entry per row group of ``rowIndexStride`` rows, with
the stream positions of its first row); orc_proto.proto ``message Footer``. Each column's
streams restart in every stripe, and row group positions differ between uncompressed
streams (byte offset, values to skip) and compressed ones (chunk start, bytes to skip in
the chunk, values to skip), so one case is compressed.
"""

from __future__ import annotations

from conformance.values import Field, Schema

from ..model import Case
from . import sections as S
from . import types as T
from .options import OrcWriteOptions

AREA = "orc/stripes"
ROWS = 2_500  # two full row groups of 1,000 rows and a partial one
STRIDE = 1_000
STRIPE_ROWS = 1_000
NULL_EVERY = 7

# A column of each stream layout: integer DATA, string DATA + LENGTH, a PRESENT stream,
# and a list's LENGTH with a child column.
_SCHEMA = Schema((Field("id", T.integer(64)), Field("name", T.string()),
                  Field("score", T.floating(64)), Field("items", T.list_of(T.integer(32)))))


def _row(i: int) -> tuple[object, ...]:
    return (i, f"n{i % 37}", None if i % NULL_EVERY == 0 else i / 4, list(range(i % 4)))


def _rows(count: int) -> tuple[tuple[object, ...], ...]:
    return tuple(_row(i) for i in range(count))


def _case(name: str, title: str, rows: int, options: OrcWriteOptions,
          spec: tuple[str, ...]) -> Case:
    return Case(f"{AREA}/{name}", title, spec, _SCHEMA, _rows(rows), options, format="orc")


def cases() -> list[Case]:
    stripe_spec = (S.STRIPES, S.STRIPE_INFORMATION)
    index_spec = (S.ROW_GROUP_INDEX, S.FOOTER)
    return [
        _case("several", f"{ROWS} rows in stripes of {STRIPE_ROWS} rows", ROWS,
              OrcWriteOptions(stripe_row_limit=STRIPE_ROWS), stripe_spec),
        _case("last-stripe-one-row", f"{2 * STRIPE_ROWS + 1} rows in stripes of {STRIPE_ROWS}: "
              "the last stripe holds one row", 2 * STRIPE_ROWS + 1,
              OrcWriteOptions(stripe_row_limit=STRIPE_ROWS), stripe_spec),
        _case("one-row-each", "5 rows, a stripe for each", 5, OrcWriteOptions(stripe_row_limit=1),
              stripe_spec),
        _case("row-index-stride", f"{ROWS} rows, a row group index entry every {STRIDE} rows",
              ROWS, OrcWriteOptions(row_index_stride=STRIDE), index_spec),
        _case("row-index-none", f"{ROWS} rows, no row group index (stride 0)", ROWS,
              OrcWriteOptions(row_index_stride=0), index_spec),
        _case("row-index-compressed", f"{ROWS} rows, ZLIB in 4 KiB chunks, stripes of "
              f"{2 * STRIDE + STRIDE // 2} rows, a row group every {STRIDE} rows", ROWS,
              OrcWriteOptions(codec="ZLIB", compression_block_size=4_096,
                              stripe_row_limit=2 * STRIDE + STRIDE // 2, row_index_stride=STRIDE),
              (*stripe_spec, *index_spec, S.COMPRESSION)),
    ]
