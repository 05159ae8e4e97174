"""Test helper: ORC files assembled stream by stream from hand-written bytes.

ORCv1.md, 'Stripes' and 'Stripe Footer': one stripe holding exactly the given streams,
uncompressed ('Compression': "ORC files without generic compression write each stream
directly with no headers"), then the Footer and PostScript ('File Tail').
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.orc.metadata.file_tail import MAGIC, write_file_tail
from reference_impl.orc.metadata.orc_proto import ColumnEncoding, Footer, PostScript
from reference_impl.orc.metadata.proto_enums import (
    CalendarKind,
    ColumnEncodingKind,
    CompressionKind,
    StreamKind,
)
from reference_impl.orc.metadata.type_tree import TypeNode, numbered, to_types
from reference_impl.orc.streams.stripe import StreamOutput, write_stripe

DIRECT = ColumnEncodingKind.DIRECT
DIRECT_V2 = ColumnEncodingKind.DIRECT_V2


def stored(data: bytes, *_: object) -> bytes:
    return data


def hand_built_file(schema: TypeNode, streams: Sequence[tuple[int, StreamKind, bytes]],
                    encodings: Sequence[ColumnEncodingKind | tuple[ColumnEncodingKind, int]], rows: int, *,
                    version: tuple[int, int] = (0, 12), writer_timezone: str | None = "UTC",
                    calendar: CalendarKind | None = None) -> bytes:
    """A one-stripe file of ``rows`` rows; ``encodings`` gives each column's (in id order)
    kind, or (kind, dictionary_size)."""
    root = numbered(schema)
    outputs = [StreamOutput(column, kind, data) for column, kind, data in streams]
    messages = [ColumnEncoding(kind=item[0], dictionary_size=item[1]) if isinstance(item, tuple)
                else ColumnEncoding(kind=item) for item in encodings]
    stripe, information = write_stripe(outputs, messages, writer_timezone, len(MAGIC), rows, stored)
    footer = Footer(header_length=len(MAGIC), content_length=len(MAGIC) + len(stripe), stripes=[information],
                    types=to_types(root), number_of_rows=rows, calendar=calendar)
    postscript = PostScript(compression=CompressionKind.NONE, version=list(version), magic=MAGIC.decode())
    return MAGIC + stripe + write_file_tail(footer, None, postscript, stored)
