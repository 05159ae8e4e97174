"""Structure-aware ORC mutations: one field of one message, one chunk or run header.

Each mutator aims at a structure of the specification (ORCv1.md and orc_proto.proto),
decodes it with the reference's codec, changes one thing and re-encodes it
(``orc_layout`` moves what follows):

===============================  ======================================================
kind                             what changes
===============================  ======================================================
orc.postscript                   'Postscript': footerLength, compression,
                                 compressionBlockSize or metadataLength
orc.footer.rows                  'Footer': number_of_rows
orc.footer.stripe                'Stripe Information': a stripe's offset, indexLength,
                                 dataLength, footerLength or numberOfRows
orc.footer.rows_together         a stripe's numberOfRows and the Footer's, by one delta
orc.footer.type                  'Type Information': a type's kind, a subtype, its
                                 maximumLength, precision or scale
orc.stripe_footer.stream_kind    'Stripe Footer': a stream relabelled another kind
orc.stripe_footer.stream_column  a stream given to another column
orc.stripe_footer.stream_length  one stream's length
orc.stripe_footer.move_length    bytes moved between two adjacent streams' lengths
                                 (both still tile the stripe)
orc.stripe_footer.encoding       'Column Encodings': a column's encoding kind or
                                 dictionarySize
orc.chunk_header                 'Compression': a chunk header's length or isOriginal
                                 bit (compressed files)
orc.rle_header                   'Run Length Encoding': the first header bytes of a
                                 run-length-encoded stream (where they are stored as is)
bytes.flip, bytes.truncate       ``mutations_bytes``
===============================  ======================================================

Every message mutation changes metadata only; chunk and run headers lie inside data
streams.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from reference_impl.orc.metadata.proto_enums import (
    ColumnEncodingKind,
    CompressionKind,
    StreamKind,
    TypeKind,
)
from reference_impl.orc.streams.compression import HEADER_BYTE_ORDER, HEADER_BYTES, ORIGINAL_FLAG

from . import orc_layout
from .mutation import Edit, Mutator, interesting, named
from .mutations_bytes import flip, truncate
from .orc_layout import OrcLayout, StreamExtent

POSTSCRIPT_FIELDS = ("footer_length", "compression", "compression_block_size", "metadata_length")
STRIPE_FIELDS = ("offset", "index_length", "data_length", "footer_length", "number_of_rows")
TYPE_FIELDS = ("kind", "subtypes", "maximum_length", "precision", "scale")
UINT32_BITS, UINT64_BITS = 32, 64
UNKNOWN_ENUM = 99  # a number no enum of orc_proto.proto declares
BITS_PER_BYTE = 8
MAX_CHUNK_LENGTH = (1 << (HEADER_BYTES * BITS_PER_BYTE - 1)) - 1  # 23 bits: a 3-byte header less its flag
RLE_HEADER_BYTES = 4  # an RLE v2 header is at most four bytes (Patched Base)
RLE_V2_ENCODING_SHIFT = 6  # the top two bits of the first byte: the sub-encoding
RLE_V2_ENCODINGS = 4
# Streams stored as run-length encoded integers or bytes whatever the column's type.
RLE_KINDS = frozenset({StreamKind.PRESENT, StreamKind.LENGTH, StreamKind.SECONDARY})
# Types whose DATA stream is run-length encoded (ORCv1.md, 'Column Encodings').
RLE_DATA_TYPES = frozenset({TypeKind.BOOLEAN, TypeKind.BYTE, TypeKind.SHORT, TypeKind.INT, TypeKind.LONG,
                            TypeKind.DATE, TypeKind.TIMESTAMP, TypeKind.TIMESTAMP_INSTANT, TypeKind.UNION})
ENCODING_KIND_CHANCE = 0.5  # a column encoding's kind changes, else its dictionarySize
ORIGINAL_FLIP_CHANCE = 0.25  # a chunk header's isOriginal bit flips, else its length changes
DICTIONARY_KINDS = frozenset({ColumnEncodingKind.DICTIONARY, ColumnEncodingKind.DICTIONARY_V2})

# A layout mutator's answer: (the new file, what changed, the structure changed), or None.
LayoutMutator = Callable[[OrcLayout, random.Random], tuple[bytes | None, str, str] | None]


def _structured(mutate: LayoutMutator, metadata_only: bool = True) -> Mutator:
    """A mutator of the parsed layout: None when the file has none, or when the change
    cannot be encoded (a value out of its field's range, a PostScript past 255 bytes)."""

    def mutator(data: bytes, rng: random.Random) -> Edit | None:
        layout = orc_layout.parse(data)
        if layout is None:
            return None
        try:
            made = mutate(layout, rng)
        except (ValueError, TypeError):  # the codec refuses the value: this draw does not apply
            return None
        if made is None or made[0] is None:
            return None
        return Edit(made[0], made[1], metadata_only, made[2])

    return mutator


def _unsigned(value: int, bits: int) -> int:
    """An out-of-range value wraps as the field's unsigned width would store it."""
    return value % (1 << bits)


# -- the tail -----------------------------------------------------------------------


def _postscript(layout: OrcLayout, rng: random.Random):
    name = rng.choice(POSTSCRIPT_FIELDS)
    old = getattr(layout.tail.postscript, name)
    new: Any
    if name == "compression":
        new = rng.choice([*(k for k in CompressionKind if k != (old or 0)), UNKNOWN_ENUM])
    else:
        new = _unsigned(interesting(old or 0, rng), UINT64_BITS)
    changed = dataclasses.replace(layout.tail.postscript, **{name: new})
    said = f"PostScript.{name} {named(old)} -> {named(new)}"
    return orc_layout.with_postscript(layout, changed), said, f"PostScript.{name}"


def _footer_rows(layout: OrcLayout, rng: random.Random):
    old = layout.tail.footer.number_of_rows
    new = _unsigned(interesting(old or 0, rng), UINT64_BITS)
    footer = dataclasses.replace(layout.tail.footer, number_of_rows=new)
    target = "Footer.number_of_rows"
    return orc_layout.with_footer(layout, footer), f"{target} {old} -> {new}", target


def _footer_stripe(layout: OrcLayout, rng: random.Random):
    stripes = layout.tail.footer.stripes
    if not stripes:
        return None
    number, name = rng.randrange(len(stripes)), rng.choice(STRIPE_FIELDS)
    old = getattr(stripes[number], name)
    new: Any = _unsigned(interesting(old or 0, rng), UINT64_BITS)
    changed = list(stripes)
    changed[number] = dataclasses.replace(stripes[number], **{name: new})
    footer = dataclasses.replace(layout.tail.footer, stripes=changed)
    said = f"Footer.stripes[{number}].{name} {old} -> {new}"
    return orc_layout.with_footer(layout, footer), said, f"Footer.stripes[].{name}"


def _rows_together(layout: OrcLayout, rng: random.Random):
    """The stripe's and the Footer's row counts agree after the change: only the data
    (and the statistics) can tell."""
    footer = layout.tail.footer
    if not footer.stripes:
        return None
    number = rng.randrange(len(footer.stripes))
    old = footer.stripes[number].number_of_rows or 0
    new = _unsigned(interesting(old, rng), UINT64_BITS)
    stripes = list(footer.stripes)
    stripes[number] = dataclasses.replace(stripes[number], number_of_rows=new)
    total = _unsigned((footer.number_of_rows or 0) + new - old, UINT64_BITS)
    changed = dataclasses.replace(footer, stripes=stripes, number_of_rows=total)
    said = f"Footer.stripes[{number}].number_of_rows {old} -> {new} and Footer.number_of_rows with it"
    direction = "lowered" if new < old else "raised"
    return (orc_layout.with_footer(layout, changed), said,
            f"Footer.stripes[].number_of_rows {direction} with Footer.number_of_rows")


def _footer_type(layout: OrcLayout, rng: random.Random):
    types = layout.tail.footer.types
    if not types:
        return None
    number, name = rng.randrange(len(types)), rng.choice(TYPE_FIELDS)
    message = types[number]
    old = getattr(message, name)
    new: Any
    if name == "kind":
        new = rng.choice([*(k for k in TypeKind if k != old), UNKNOWN_ENUM])
    elif name == "subtypes":
        if not old:
            return None
        new = list(old)
        at = rng.randrange(len(new))
        new[at] = _unsigned(interesting(new[at], rng), UINT32_BITS)
    else:
        new = _unsigned(interesting(old or 0, rng), UINT32_BITS)
    changed = list(types)
    changed[number] = dataclasses.replace(message, **{name: new})
    footer = dataclasses.replace(layout.tail.footer, types=changed)
    said = f"Footer.types[{number}].{name} {named(old)} -> {named(new)}"
    target = f"Footer.types[].{name}" + (f" {named(old)} -> {named(new)}" if name == "kind" else "")
    return orc_layout.with_footer(layout, footer), said, target


# -- stripe footers -----------------------------------------------------------------


def _stream_mutator(change: Callable[[list, int, random.Random], tuple[str, str] | None]) -> LayoutMutator:
    """A change of one stripe's stream list (``change`` edits the list, says what it did
    and to which structure)."""

    def mutate(layout: OrcLayout, rng: random.Random):
        stripes = [s for s in layout.stripes if s.footer.streams]
        if not stripes:
            return None
        stripe = rng.choice(stripes)
        streams = list(stripe.footer.streams)
        made = change(streams, rng.randrange(len(streams)), rng)
        if made is None:
            return None
        footer = dataclasses.replace(stripe.footer, streams=streams)
        return (orc_layout.with_stripe_footer(layout, stripe.number, footer),
                f"stripe {stripe.number}: {made[0]}", made[1])

    return mutate


def _describe(stream) -> str:
    kind = stream.kind
    name = kind.name if isinstance(kind, StreamKind) else f"kind {kind}"
    return f"{name} of column {stream.column or 0}"


def _relabel(streams: list, at: int, rng: random.Random) -> tuple[str, str]:
    old = streams[at]
    new = rng.choice([*(k for k in StreamKind if k != old.kind), UNKNOWN_ENUM])
    streams[at] = dataclasses.replace(old, kind=new)
    return (f"stream {at} ({_describe(old)}) relabelled {named(new)}",
            f"StripeFooter.streams[].kind {named(old.kind)} -> {named(new)}")


def _recolumn(streams: list, at: int, rng: random.Random) -> tuple[str, str]:
    old = streams[at]
    new = _unsigned(interesting(old.column or 0, rng), UINT32_BITS)
    streams[at] = dataclasses.replace(old, column=new)
    return f"stream {at} ({_describe(old)}) given to column {new}", "StripeFooter.streams[].column"


def _relength(streams: list, at: int, rng: random.Random) -> tuple[str, str]:
    old = streams[at]
    new = _unsigned(interesting(old.length or 0, rng), UINT64_BITS)
    streams[at] = dataclasses.replace(old, length=new)
    return f"stream {at} ({_describe(old)}) length {old.length} -> {new}", "StripeFooter.streams[].length"


def _move_length(streams: list, at: int, rng: random.Random) -> tuple[str, str] | None:
    """``moved`` bytes change hands between stream ``at`` and the next: the streams still
    add up to the stripe's areas."""
    if at + 1 >= len(streams):
        return None
    first, second = streams[at], streams[at + 1]
    moved = rng.choice([1, -1, rng.randint(2, 16), -rng.randint(2, 16)])
    lengths = ((first.length or 0) + moved, (second.length or 0) - moved)
    if min(lengths) < 0:
        return None
    streams[at] = dataclasses.replace(first, length=lengths[0])
    streams[at + 1] = dataclasses.replace(second, length=lengths[1])
    return (f"{moved:+d} bytes from stream {at + 1} ({_describe(second)}) to stream {at} "
            f"({_describe(first)})",
            f"StripeFooter.streams[].length moved between {named(first.kind)} and {named(second.kind)}")


def _encoding(layout: OrcLayout, rng: random.Random):
    stripes = [s for s in layout.stripes if s.footer.columns]
    if not stripes:
        return None
    stripe = rng.choice(stripes)
    columns = list(stripe.footer.columns)
    column = rng.randrange(len(columns))
    old = columns[column]
    if rng.random() < ENCODING_KIND_CHANCE:
        kind = rng.choice([*(k for k in ColumnEncodingKind if k != old.kind), UNKNOWN_ENUM])
        columns[column] = dataclasses.replace(old, kind=kind)
        said = f"column {column} encoding {named(old.kind)} -> {named(kind)}"
        target = f"StripeFooter.columns[].kind {named(old.kind)} -> {named(kind)}"
    else:
        size = _unsigned(interesting(old.dictionary_size or 0, rng), UINT32_BITS)
        columns[column] = dataclasses.replace(old, dictionary_size=size)
        said = f"column {column} dictionarySize {old.dictionary_size} -> {size}"
        target = "StripeFooter.columns[].dictionarySize"
    footer = dataclasses.replace(stripe.footer, columns=columns)
    rewritten = orc_layout.with_stripe_footer(layout, stripe.number, footer)
    return rewritten, f"stripe {stripe.number}: {said}", target


# -- headers inside data streams ----------------------------------------------------


def _chunk_headers(layout: OrcLayout) -> list[tuple[StreamExtent, int, int]]:
    """(stream, file offset, header value) of each chunk header the streams hold."""
    found = []
    for stream in layout.data_streams():
        position, end = stream.start, stream.start + stream.length
        while position + HEADER_BYTES <= end:
            header = int.from_bytes(layout.raw[position:position + HEADER_BYTES], HEADER_BYTE_ORDER)
            found.append((stream, position, header))
            position += HEADER_BYTES + (header >> 1)
    return found


def _chunk_header(layout: OrcLayout, rng: random.Random):
    if layout.compression == CompressionKind.NONE:
        return None
    headers = _chunk_headers(layout)
    if not headers:
        return None
    stream, position, header = rng.choice(headers)
    length, original = header >> 1, header & ORIGINAL_FLAG
    if rng.random() < ORIGINAL_FLIP_CHANCE:
        new = header ^ ORIGINAL_FLAG
        said = f"isOriginal {original} -> {original ^ 1}"
        target = "chunk header isOriginal"
    else:
        new_length = min(max(interesting(length, rng), 0), MAX_CHUNK_LENGTH)
        new = new_length << 1 | original
        said = f"length {length} -> {new_length}"
        target = "chunk header length"
    raw = layout.raw
    replaced = raw[:position] + new.to_bytes(HEADER_BYTES, HEADER_BYTE_ORDER) + raw[position + HEADER_BYTES:]
    where = f"{_kind_name(stream.kind)} of column {stream.column}"
    return replaced, f"chunk header at {position} ({where}): {said}", target


def _kind_name(kind: int) -> str:
    return StreamKind(kind).name if kind in StreamKind._value2member_map_ else f"kind {kind}"


def _rle_streams(layout: OrcLayout) -> list[tuple[StreamExtent, int]]:
    """(stream, file offset of its first run header) of each run-length encoded stream
    whose first header is stored as is: no compression, or an original first chunk."""
    types = layout.tail.footer.types
    found = []
    for stripe in layout.stripes:
        for stream in stripe.streams:
            if not stream.is_data or not stream.length or not _is_rle(stream, stripe, types):
                continue
            start = stream.start
            if layout.compression != CompressionKind.NONE:
                header = int.from_bytes(layout.raw[start:start + HEADER_BYTES], HEADER_BYTE_ORDER)
                if not header & ORIGINAL_FLAG or stream.length <= HEADER_BYTES:
                    continue
                start += HEADER_BYTES
            found.append((stream, start))
    return found


def _is_rle(stream: StreamExtent, stripe, types) -> bool:
    if stream.kind in RLE_KINDS:
        return True
    if stream.kind != StreamKind.DATA or stream.column >= len(types):
        return False
    encoding = stripe.footer.columns[stream.column] if stream.column < len(stripe.footer.columns) else None
    dictionary = encoding is not None and encoding.kind in DICTIONARY_KINDS
    return dictionary or types[stream.column].kind in RLE_DATA_TYPES


def _rle_header(layout: OrcLayout, rng: random.Random):
    streams = _rle_streams(layout)
    if not streams:
        return None
    stream, start = rng.choice(streams)
    end = min(start + RLE_HEADER_BYTES, stream.start + stream.length)
    raw = bytearray(layout.raw)
    at = rng.randrange(start, end)
    old = raw[at]
    choice = rng.randrange(3)
    if choice == 0 and at == start:  # RLE v2: another sub-encoding, same width and length bits
        low_bits = old & ((1 << RLE_V2_ENCODING_SHIFT) - 1)
        raw[at] = low_bits | rng.randrange(RLE_V2_ENCODINGS) << RLE_V2_ENCODING_SHIFT
    elif choice == 1:
        raw[at] = (old + rng.choice([1, -1, 2, -2])) % (1 << BITS_PER_BYTE)
    else:
        raw[at] = old ^ (1 << rng.randrange(BITS_PER_BYTE))
    if raw[at] == old:
        raw[at] = old ^ 1
    what = f"{_kind_name(stream.kind)} of column {stream.column}"
    said = f"run header byte {at - start} of {what} at {at}: 0x{old:02x} -> 0x{raw[at]:02x}"
    return bytes(raw), said, f"run header of {_kind_name(stream.kind)}"


def _data_regions(data: bytes) -> list[tuple[int, int]] | None:
    layout = orc_layout.parse(data)
    return None if layout is None else layout.data_regions()


MUTATORS: dict[str, Mutator] = {
    "orc.postscript": _structured(_postscript),
    "orc.footer.rows": _structured(_footer_rows),
    "orc.footer.stripe": _structured(_footer_stripe),
    "orc.footer.rows_together": _structured(_rows_together),
    "orc.footer.type": _structured(_footer_type),
    "orc.stripe_footer.stream_kind": _structured(_stream_mutator(_relabel)),
    "orc.stripe_footer.stream_column": _structured(_stream_mutator(_recolumn)),
    "orc.stripe_footer.stream_length": _structured(_stream_mutator(_relength)),
    "orc.stripe_footer.move_length": _structured(_stream_mutator(_move_length)),
    "orc.stripe_footer.encoding": _structured(_encoding),
    "orc.chunk_header": _structured(_chunk_header, metadata_only=False),
    "orc.rle_header": _structured(_rle_header, metadata_only=False),
    "bytes.flip": flip(_data_regions),
    "bytes.truncate": truncate,
}
