"""Test helper: the streams of real ORC files, located through their tail.

ORCv1.md, 'File Tail': the last byte is the PostScript's length, the PostScript gives the
Footer's length and the compression; 'Stripe Footer': a stripe's streams lie back to back
from its offset, in the order its footer lists them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.orc
import pyorc

from reference_impl.orc.metadata.orc_proto import Footer, PostScript, StripeFooter, decode
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, CompressionKind, StreamKind
from reference_impl.orc.streams.compression import decompress_stream

POSTSCRIPT_LENGTH_BYTES = 1


@dataclass(frozen=True)
class FileStream:
    column: int
    kind: StreamKind | int
    encoding: ColumnEncodingKind | int
    offset: int  # in the file
    data: bytes  # decompressed


def postscript_of(file: bytes) -> tuple[PostScript, int]:
    """The PostScript and its file offset."""
    length = file[-POSTSCRIPT_LENGTH_BYTES]
    start = len(file) - POSTSCRIPT_LENGTH_BYTES - length
    return decode(PostScript, file[start:start + length], start), start


def file_streams(file: bytes) -> list[FileStream]:
    """Every stream of every stripe, decompressed."""
    postscript, postscript_start = postscript_of(file)
    kind = CompressionKind(postscript.compression or CompressionKind.NONE)
    block = postscript.compression_block_size or 0
    footer_start = postscript_start - (postscript.footer_length or 0)
    footer = decode(Footer, decompress_stream(file[footer_start:postscript_start], kind, block,
                                              footer_start))
    streams = []
    for stripe in footer.stripes:
        assert stripe.offset is not None and stripe.index_length is not None
        assert stripe.data_length is not None and stripe.footer_length is not None
        footer_offset = stripe.offset + stripe.index_length + stripe.data_length
        stripe_footer = decode(StripeFooter, decompress_stream(
            file[footer_offset:footer_offset + stripe.footer_length], kind, block, footer_offset))
        offset = stripe.offset
        for stream in stripe_footer.streams:
            assert stream.column is not None and stream.length is not None and stream.kind is not None
            encoding = stripe_footer.columns[stream.column].kind or ColumnEncodingKind.DIRECT
            data = decompress_stream(file[offset:offset + stream.length], kind, block, offset)
            streams.append(FileStream(stream.column, stream.kind, encoding, offset, data))
            offset += stream.length
    return streams


def pyarrow_orc(table: pa.Table, **options: object) -> bytes:
    sink = io.BytesIO()
    pyarrow.orc.write_table(table, sink, **options)
    return sink.getvalue()


def pyorc_file(schema: str, rows: list[tuple[object, ...]], **options: Any) -> bytes:
    sink = io.BytesIO()
    with pyorc.Writer(sink, schema, **options) as writer:
        writer.writerows(rows)
    return sink.getvalue()
