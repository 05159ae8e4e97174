"""An ORC file's layout as the mutators see it, and rewrites that keep the rest in place.

ORCv1.md, 'File Tail': header "ORC", stripes, then the Metadata (stripe statistics),
the Footer, the PostScript and its length byte; 'Stripes': each stripe is its index
streams, its data streams and its StripeFooter, the streams in the footer's order
('Stripe Footer'). The layout is read with the reference's own codec
(``reference_impl/orc/metadata``: ``read_file_tail``, ``decode``/``encode``) and its
compression framing (``reference_impl/orc/streams/compression.py``).

The rewrites re-encode one message and move what follows it, so the only change a
mutant carries is the one its mutator made: a new PostScript fixes its length byte; a
new Footer fixes PostScript.footerLength; a new StripeFooter fixes the stripe's
footerLength, the offsets of the stripes after it and Footer.contentLength.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from reference_impl.orc.metadata.file_tail import DEFAULT_COMPRESSION_BLOCK_SIZE, FileTail, read_file_tail
from reference_impl.orc.metadata.orc_proto import Footer, PostScript, StripeFooter, decode, encode
from reference_impl.orc.metadata.proto_enums import CompressionKind, StreamKind
from reference_impl.orc.streams.compression import compress_stream, decompress_stream
from reference_impl.orc.streams.stripe import INDEX_STREAM_KINDS

MAX_POSTSCRIPT_LENGTH = 0xFF  # ORCv1.md, 'Postscript': its length is the file's last byte


@dataclass(frozen=True)
class StreamExtent:
    number: int  # its position in the stripe footer's list
    start: int
    length: int
    kind: int
    column: int

    @property
    def is_data(self) -> bool:
        return self.kind not in INDEX_STREAM_KINDS


@dataclass(frozen=True)
class StripeLayout:
    number: int
    start: int
    footer_start: int
    footer_length: int
    footer: StripeFooter
    streams: tuple[StreamExtent, ...]


@dataclass(frozen=True)
class OrcLayout:
    raw: bytes
    tail: FileTail
    postscript_offset: int
    stripes: tuple[StripeLayout, ...]

    @property
    def compression(self) -> CompressionKind:
        return CompressionKind(self.tail.postscript.compression or CompressionKind.NONE)

    @property
    def block_size(self) -> int:
        return self.tail.postscript.compression_block_size or DEFAULT_COMPRESSION_BLOCK_SIZE

    def data_streams(self) -> list[StreamExtent]:
        return [s for stripe in self.stripes for s in stripe.streams if s.is_data]

    def data_regions(self) -> list[tuple[int, int]]:
        """The byte ranges of every data stream (the rest is metadata and index)."""
        return [(s.start, s.start + s.length) for s in self.data_streams()]


def parse(raw: bytes) -> OrcLayout | None:
    """The layout of ``raw``, or None when the reference cannot read its tail and stripe
    footers, or a stream or stripe footer lies outside its stripe or the file (a mutant
    already broken there: structure-aware mutators skip it)."""
    try:
        tail = read_file_tail(raw, decompress_stream)
        compression = CompressionKind(tail.postscript.compression or CompressionKind.NONE)
        block_size = tail.postscript.compression_block_size or DEFAULT_COMPRESSION_BLOCK_SIZE
        stripes = tuple(_stripe(raw, number, information, compression, block_size)
                        for number, information in enumerate(tail.footer.stripes))
    except Exception:  # noqa: BLE001 - whatever the reader raises, there is no layout to aim at
        return None
    return OrcLayout(raw, tail, len(raw) - 1 - raw[-1], stripes)


def _stripe(raw: bytes, number: int, information, compression: CompressionKind,
            block_size: int) -> StripeLayout:
    start = information.offset or 0
    footer_start = start + (information.index_length or 0) + (information.data_length or 0)
    footer_length = information.footer_length or 0
    stored = raw[footer_start:footer_start + footer_length]
    footer = decode(StripeFooter, decompress_stream(stored, compression, block_size, footer_start))
    extents, position = [], start
    for index, stream in enumerate(footer.streams):
        length = stream.length or 0
        kind = int(stream.kind if stream.kind is not None else StreamKind.PRESENT)
        extents.append(StreamExtent(index, position, length, kind, stream.column or 0))
        position += length
    if position > footer_start or footer_start + footer_length > len(raw):
        raise ValueError(f"stripe {number}'s streams or footer lie outside it")  # no layout to aim at
    return StripeLayout(number, start, footer_start, footer_length, footer, tuple(extents))


def _stored(layout: OrcLayout, message) -> bytes:
    return compress_stream(encode(message), layout.compression, layout.block_size)


def with_postscript(layout: OrcLayout, postscript: PostScript) -> bytes | None:
    """The file with a new PostScript (None if it no longer fits its length byte)."""
    encoded = encode(postscript)
    if len(encoded) > MAX_POSTSCRIPT_LENGTH:
        return None
    return layout.raw[:layout.postscript_offset] + encoded + bytes([len(encoded)])


def with_footer(layout: OrcLayout, footer: Footer) -> bytes | None:
    """The file with a new Footer, stored with the file's compression."""
    stored = _stored(layout, footer)
    postscript = dataclasses.replace(layout.tail.postscript, footer_length=len(stored))
    encoded = encode(postscript)
    if len(encoded) > MAX_POSTSCRIPT_LENGTH:
        return None
    return layout.raw[:layout.tail.footer_offset] + stored + encoded + bytes([len(encoded)])


def with_stripe_footer(layout: OrcLayout, number: int, footer: StripeFooter) -> bytes | None:
    """The file with stripe ``number``'s StripeFooter replaced; what follows it moves."""
    stripe = layout.stripes[number]
    stored = _stored(layout, footer)
    moved = len(stored) - stripe.footer_length
    end = stripe.footer_start + stripe.footer_length
    body = layout.raw[:stripe.footer_start] + stored + layout.raw[end:layout.tail.footer_offset]
    old = layout.tail.footer
    stripes = [dataclasses.replace(information, footer_length=len(stored)) if index == number else
               dataclasses.replace(information, offset=(information.offset or 0) + moved)
               if (information.offset or 0) > stripe.start else information
               for index, information in enumerate(old.stripes)]
    content = None if old.content_length is None else old.content_length + moved
    shifted = dataclasses.replace(layout, raw=body + layout.raw[layout.tail.footer_offset:],
                                  tail=dataclasses.replace(layout.tail, footer_offset=len(body)),
                                  postscript_offset=layout.postscript_offset + moved)
    return with_footer(shifted, dataclasses.replace(old, stripes=stripes, content_length=content))
