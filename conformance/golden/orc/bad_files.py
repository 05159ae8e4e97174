"""ORC bad files: one fault each, in the tail, the type tree, a stripe, a chunk or the values.

The ORC part of the bad-file corpus (``conformance.golden.bad_file.BadFile`` with
``format="orc"``): each
entry names its one fault, the error class of ``reference_impl/orc/errors.py`` the
reference reader raises for it, and the spec sections it breaks:

* ORCv1.md 'File Tail', 'Postscript', 'Footer', 'Type Information' and 'Stripe
  Information' (orc_proto.proto message PostScript, message Footer, message Type):
  the header, the PostScript's length byte and fields, the Footer's wire bytes, stripes
  and types;
* ORCv1.md 'Stripes', 'Stripe Footer' and 'Compression': the streams' lengths and the
  compression chunks;
* ORCv1.md 'Integer Run Length Encoding, version 2', 'Boolean Run Length Encoding',
  'String, Char, and VarChar Columns' and 'Union Columns': the values.

Each file is made in code: the reference writer writes a small valid file, then exactly
one thing changes, located through the file's own tail and stripe footer, never
through hard-coded offsets. Where the change moves bytes (a re-encoded message or
stream), every offset and length that depends on them is recomputed: the stripe's
StripeInformation, Footer.content_length, the PostScript's footer_length, its length
byte. The writer draws no random bytes, so two runs give the same files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from conformance.formats import ORC, PARQUET_MAGIC
from reference_impl.orc.encodings.boolean_rle import decode_booleans, encode_booleans
from reference_impl.orc.encodings.byte_rle import decode_bytes, encode_bytes
from reference_impl.orc.encodings.int_rle_v2 import SubEncoding, decode_ints_v2, encode_ints_v2, sub_encodings
from reference_impl.orc.metadata.file_tail import MAGIC, FileTail, read_file_tail, write_file_tail
from reference_impl.orc.metadata.orc_proto import (
    Footer,
    Metadata,
    StripeFooter,
    decode,
    encode,
)
from reference_impl.orc.metadata.proto_enums import (
    ColumnEncodingKind,
    CompressionKind,
    StreamKind,
    TypeKind,
)
from reference_impl.orc.metadata.type_tree import TypeNode, primitive, struct, union_of
from reference_impl.orc.streams.compression import (
    HEADER_BYTE_ORDER,
    HEADER_BYTES,
    compress_stream,
    decompress_stream,
    read_chunks,
)
from reference_impl.orc.streams.stripe import INDEX_STREAM_KINDS
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions

from ..bad_file import BadFile

__all__ = ["orc_bad_files"]

SPEC_TAIL = "ORCv1.md: File Tail"
SPEC_POSTSCRIPT = "ORCv1.md: File Tail, Postscript"
SPEC_FOOTER = "ORCv1.md: File Tail, Footer"
SPEC_STRIPE_INFORMATION = "ORCv1.md: File Tail, Footer, Stripe Information"
SPEC_TYPES = "ORCv1.md: File Tail, Footer, Type Information"
PROTO_POSTSCRIPT = "orc_proto.proto: message PostScript"
PROTO_FOOTER = "orc_proto.proto: message Footer"
PROTO_TYPE = "orc_proto.proto: message Type"
PROTO_TYPE_KIND = "orc_proto.proto: message Type, enum Type.Kind"
PROTO_COMPRESSION_KIND = "orc_proto.proto: enum CompressionKind"
PROTO_STREAM = "orc_proto.proto: message Stream"
SPEC_STRIPES = "ORCv1.md: Stripes"
SPEC_STRIPE_FOOTER = "ORCv1.md: Stripes, Stripe Footer"
SPEC_COMPRESSION = "ORCv1.md: Compression"
SPEC_RLE_V2 = "ORCv1.md: Run Length Encoding, Integer Run Length Encoding, version 2"
SPEC_PATCHED_BASE = "ORCv1.md: Run Length Encoding, Integer Run Length Encoding, version 2, Patched Base"
SPEC_BOOLEAN_RLE = "ORCv1.md: Run Length Encoding, Boolean Run Length Encoding"
SPEC_STRINGS = "ORCv1.md: Column Encodings, String, Char, and VarChar Columns"
SPEC_UNIONS = "ORCv1.md: Column Encodings, Union Columns"

DEFAULT_OPTIONS = OrcWriterOptions()  # file version 0.12, no compression, one stripe
ROWS = 10  # small enough that the whole file fits the PostScript length byte's range
NULL_EVERY = 3
INT_COLUMN = "x"
STRING_COLUMN = "s"
UNION_COLUMN = "u"
FIRST_COLUMN = 1  # column 0 is the root struct
WORDS = ("alpha", "beta", "gamma")
# A run with a few values far wider than the rest: the writers' Patched Base.
PATCHED_VALUES = tuple([value % 8 for value in range(ROWS * 3)] + [1 << 40])
# Repetitive text that deflate shrinks, in chunks of at most COMPRESSION_BLOCK bytes.
LONG_WORD = "columnar" * 8
COMPRESSION_BLOCK = 128
NOT_UTF8 = 0xFF  # never a byte of UTF-8
UNKNOWN_ENUM_VALUE = 99  # neither a CompressionKind nor a Type.Kind
FUTURE_VERSION = [1, 0]  # ORCv2.md is work in progress: no released reader knows 1.x
WRONG_MAGIC = "ORX"
BITS_PER_BYTE = 8
ZERO_LENGTH = 0
MAX_POSTSCRIPT_LENGTH = 0xFF  # the length byte's largest value
# ORCv1.md, 'Integer Run Length Encoding, version 2': a Direct, Patched Base or Delta
# header keeps length - 1 in 9 bits, the high bit at the bottom of the first byte.
LENGTH_HIGH_BIT = 0x01
LENGTH_LOW_BYTE = 0xFF
PATCH_WIDTH_BYTE = 2  # Patched Base: the third header byte ends with the 5-bit patch width code
WIDEST_WIDTH_CODE = 0x1F  # all 5 bits set: 64 bits, no room left for the patch gap
# Protobuf wire bytes (orc_proto.proto is proto2): an unused field number of the Footer.
UNUSED_FIELD = 15
LEN_WIRE_TYPE = 2
VARINT_CONTINUES = 0x80
LEN_PAST_MESSAGE = 0x7F  # a one-byte length larger than what follows it
CORRUPT_DEFLATE = 0xFF  # a deflate block header of the reserved type 3


# ---------------------------------------------------------------------------
# Valid originals (the reference writer, no compression unless said)
# ---------------------------------------------------------------------------


def _write(fields: list[tuple[str, TypeNode]], rows: Sequence[Mapping[str, object]],
           options: OrcWriterOptions = DEFAULT_OPTIONS) -> bytes:
    return write_orc(struct(fields), rows, options)


@cache
def ints() -> bytes:
    """Column x, INT 0..ROWS-1, every third value null."""
    rows = [{INT_COLUMN: None if row % NULL_EVERY == 1 else row} for row in range(ROWS)]
    return _write([(INT_COLUMN, primitive(TypeKind.INT))], rows)


def _words() -> list[dict[str, object]]:
    return [{STRING_COLUMN: WORDS[row % len(WORDS)]} for row in range(ROWS)]


@cache
def strings(encoding: ColumnEncodingKind) -> bytes:
    return _write([(STRING_COLUMN, primitive(TypeKind.STRING))], _words(),
                  OrcWriterOptions(column_encodings={STRING_COLUMN: encoding}))


@cache
def patched_ints() -> bytes:
    rows = [{INT_COLUMN: value} for value in PATCHED_VALUES]
    return _write([(INT_COLUMN, primitive(TypeKind.LONG))], rows)


@cache
def unions() -> bytes:
    """Column u, UNION<INT, STRING>, alternating variants."""
    variants = union_of(primitive(TypeKind.INT), primitive(TypeKind.STRING))
    rows = [{UNION_COLUMN: (0, row) if row % 2 == 0 else (1, WORDS[row % len(WORDS)])} for row in range(ROWS)]
    return _write([(UNION_COLUMN, variants)], rows)


@cache
def zlib_strings() -> bytes:
    """Column s, STRING DIRECT of LONG_WORD, ZLIB in COMPRESSION_BLOCK-byte chunks."""
    rows = [{STRING_COLUMN: LONG_WORD} for _ in range(ROWS)]
    options = OrcWriterOptions(compression=CompressionKind.ZLIB, compression_block_size=COMPRESSION_BLOCK,
                               column_encodings={STRING_COLUMN: ColumnEncodingKind.DIRECT_V2})
    return _write([(STRING_COLUMN, primitive(TypeKind.STRING))], rows, options)


# ---------------------------------------------------------------------------
# The file's parts, located through its own tail and stripe footer
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Stripe:
    """The file's one stripe: each stream's stored bytes, in StripeFooter order."""

    tail: FileTail
    footer: StripeFooter
    streams: tuple[bytes, ...]

    def position(self, column: int, kind: StreamKind) -> int:
        """The index of (column, kind) in the StripeFooter's streams."""
        for number, stream in enumerate(self.footer.streams):
            if (stream.column, stream.kind) == (column, kind):
                return number
        raise AssertionError(f"the original has no {kind.name} stream for column {column}")

    def data(self, column: int, kind: StreamKind) -> bytes:
        return self.streams[self.position(column, kind)]

    def offset(self, column: int, kind: StreamKind) -> int:
        """The file offset of the stream's first byte."""
        (information,) = self.tail.footer.stripes
        return (information.offset or 0) + sum(map(len, self.streams[:self.position(column, kind)]))


def _tail(raw: bytes) -> FileTail:
    return read_file_tail(raw, decompress_stream)


def _codec(tail: FileTail) -> tuple[CompressionKind, int]:
    postscript = tail.postscript
    kind = CompressionKind(postscript.compression or CompressionKind.NONE)
    return kind, postscript.compression_block_size or 0


def _stripe(raw: bytes) -> _Stripe:
    tail = _tail(raw)
    (information,) = tail.footer.stripes  # every original has one stripe
    start = information.offset or 0
    footer_start = start + (information.index_length or 0) + (information.data_length or 0)
    stored = raw[footer_start:footer_start + (information.footer_length or 0)]
    footer = decode(StripeFooter, decompress_stream(stored, *_codec(tail), footer_start))
    streams, position = [], start
    for stream in footer.streams:
        streams.append(raw[position:position + (stream.length or 0)])
        position += stream.length or 0
    return _Stripe(tail, footer, tuple(streams))


def _with_tail(raw: bytes, footer: Footer, body: bytes | None = None,
               metadata: Metadata | None = None) -> bytes:
    """``body`` (default: the original's, up to its tail), then the tail written anew with
    ``footer`` and ``metadata`` (default: the original's): the PostScript's lengths and its
    length byte follow."""
    tail = _tail(raw)
    kept = raw[:tail.metadata_offset] if body is None else body
    return kept + write_file_tail(footer, tail.metadata if metadata is None else metadata, tail.postscript,
                                  compress_stream)


def _with_footer(raw: bytes, **changes: Any) -> bytes:
    return _with_tail(raw, dataclasses.replace(_tail(raw).footer, **changes))


def _with_stripe(raw: bytes, streams: tuple[bytes, ...], footer: StripeFooter | None = None) -> bytes:
    """The file with its stripe's stored streams (and StripeFooter) replaced; the
    StripeInformation and Footer.content_length are recomputed."""
    stripe = _stripe(raw)
    stripe_footer = stripe.footer if footer is None else footer
    stored_footer = compress_stream(encode(stripe_footer), *_codec(stripe.tail))
    index_length = sum(len(data) for stream, data in zip(stripe_footer.streams, streams, strict=True)
                       if stream.kind in INDEX_STREAM_KINDS)
    body = MAGIC + b"".join(streams)
    (information,) = stripe.tail.footer.stripes
    information = dataclasses.replace(information, offset=len(MAGIC), index_length=index_length,
                                      data_length=len(body) - len(MAGIC) - index_length,
                                      footer_length=len(stored_footer))
    footer_message = dataclasses.replace(stripe.tail.footer, stripes=[information],
                                         content_length=len(body) + len(stored_footer))
    return _with_tail(raw, footer_message, body + stored_footer)


def _with_stream(raw: bytes, column: int, kind: StreamKind, data: bytes) -> bytes:
    """The stripe with one stream's stored bytes replaced, its Stream.length following them."""
    stripe = _stripe(raw)
    number = stripe.position(column, kind)
    streams = list(stripe.streams)
    streams[number] = data
    listed = list(stripe.footer.streams)
    listed[number] = dataclasses.replace(listed[number], length=len(data))
    return _with_stripe(raw, tuple(streams), dataclasses.replace(stripe.footer, streams=listed))


def _with_listed(raw: bytes, changes: Mapping[tuple[int, StreamKind], Mapping[str, Any]]) -> bytes:
    """The StripeFooter's entries for each (column, kind) of ``changes`` changed (their kind,
    their length); no stored byte moves, so a changed length moves where the streams after
    it begin."""
    stripe = _stripe(raw)
    listed = list(stripe.footer.streams)
    for (column, kind), change in changes.items():
        number = stripe.position(column, kind)
        listed[number] = dataclasses.replace(listed[number], **change)
    return _with_stripe(raw, stripe.streams, dataclasses.replace(stripe.footer, streams=listed))


def _with_postscript(raw: bytes, **changes: Any) -> bytes:
    """The PostScript re-encoded with ``changes`` and its length byte following; nothing
    else moves (the PostScript is the last thing of the file but its length)."""
    tail = _tail(raw)
    start = _postscript_start(raw)
    encoded = encode(dataclasses.replace(tail.postscript, **changes))
    return raw[:start] + encoded + bytes([len(encoded)])


def _with_footer_bytes(raw: bytes, extra: bytes) -> bytes:
    """The (uncompressed) Footer's wire bytes followed by ``extra``, footer_length following."""
    tail = _tail(raw)
    return _with_tail_bytes(raw, raw[tail.metadata_offset:tail.footer_offset],
                            raw[tail.footer_offset:_postscript_start(raw)] + extra)


def _with_metadata_bytes(raw: bytes, metadata: bytes) -> bytes:
    """The (uncompressed) Metadata section's wire bytes replaced, metadata_length following."""
    tail = _tail(raw)
    return _with_tail_bytes(raw, metadata, raw[tail.footer_offset:_postscript_start(raw)])


def _with_tail_bytes(raw: bytes, metadata: bytes, footer: bytes) -> bytes:
    """The stored Metadata and Footer sections replaced; the PostScript's lengths follow."""
    tail = _tail(raw)
    postscript = encode(dataclasses.replace(tail.postscript, metadata_length=len(metadata),
                                            footer_length=len(footer)))
    return raw[:tail.metadata_offset] + metadata + footer + postscript + bytes([len(postscript)])


def _postscript_start(raw: bytes) -> int:
    """ORCv1.md, 'Postscript': the last byte is the PostScript's length."""
    return len(raw) - 1 - raw[-1]


def _splice(raw: bytes, position: int, replacement: bytes) -> bytes:
    return raw[:position] + replacement + raw[position + len(replacement):]


# ---------------------------------------------------------------------------
# The faults: the tail
# ---------------------------------------------------------------------------


def bad_header_magic() -> bytes:
    return _splice(ints(), 0, WRONG_MAGIC.encode())


def empty_file() -> bytes:
    return b""


def parquet_magic() -> bytes:
    """Parquet's 4-byte magic 'PAR1' (README.md, 'File Format') where the 3-byte header
    'ORC' was; the rest of the file follows it unchanged."""
    return PARQUET_MAGIC + ints()[len(MAGIC):]


def tail_cut_off() -> bytes:
    """The file ends where its tail (Metadata, Footer, PostScript) should begin."""
    raw = ints()
    return raw[:_tail(raw).metadata_offset]


def postscript_length_zero() -> bytes:
    return ints()[:-1] + bytes([ZERO_LENGTH])


def postscript_length_past_start() -> bytes:
    raw = ints()
    if len(raw) > MAX_POSTSCRIPT_LENGTH + len(MAGIC):
        raise AssertionError("the original is too long for its length byte to reach past its header")
    return raw[:-1] + bytes([MAX_POSTSCRIPT_LENGTH])


def postscript_change(**changes: Any) -> Callable[[], bytes]:
    return lambda: _with_postscript(ints(), **changes)


def footer_length_past_file() -> bytes:
    raw = ints()
    return _with_postscript(raw, footer_length=len(raw))


def footer_wire_bytes(extra: bytes) -> Callable[[], bytes]:
    return lambda: _with_footer_bytes(ints(), extra)


# ---------------------------------------------------------------------------
# The faults: the Footer's stripes and types
# ---------------------------------------------------------------------------


def stripe_past_tail() -> bytes:
    raw = ints()
    (information,) = _tail(raw).footer.stripes
    longer = dataclasses.replace(information, data_length=(information.data_length or 0) + len(raw))
    return _with_footer(raw, stripes=[longer])


def rows_mismatch() -> bytes:
    raw = ints()
    return _with_footer(raw, number_of_rows=(_tail(raw).footer.number_of_rows or 0) + 1)


def type_change(type_id: int, **changes: Any) -> Callable[[], bytes]:
    def make() -> bytes:
        raw = ints()
        types = list(_tail(raw).footer.types)
        types[type_id] = dataclasses.replace(types[type_id], **changes)
        return _with_footer(raw, types=types)
    return make


def subtype_out_of_range() -> bytes:
    raw = ints()
    return type_change(0, subtypes=[len(_tail(raw).footer.types)])()


# ---------------------------------------------------------------------------
# The faults: a stripe's streams and their compression chunks
# ---------------------------------------------------------------------------


def stream_past_stripe() -> bytes:
    """The StripeFooter's last stream claims one byte more than the stripe holds."""
    raw = ints()
    stripe = _stripe(raw)
    listed = list(stripe.footer.streams)
    listed[-1] = dataclasses.replace(listed[-1], length=(listed[-1].length or 0) + 1)
    return _with_stripe(raw, stripe.streams, dataclasses.replace(stripe.footer, streams=listed))


def _chunk_header(length: int, original: bool) -> bytes:
    return (length << 1 | original).to_bytes(HEADER_BYTES, HEADER_BYTE_ORDER)


def _first_compressed_chunk(raw: bytes) -> tuple[int, int]:
    """(file offset, body length) of the first chunk of column s's DATA stream, which
    the original stores compressed."""
    stripe = _stripe(raw)
    offset = stripe.offset(FIRST_COLUMN, StreamKind.DATA)
    chunk = read_chunks(stripe.data(FIRST_COLUMN, StreamKind.DATA), CompressionKind.ZLIB, COMPRESSION_BLOCK,
                        offset)[0]
    header = int.from_bytes(raw[chunk.offset:chunk.offset + HEADER_BYTES], HEADER_BYTE_ORDER)
    if chunk.original:
        raise AssertionError("the original's first DATA chunk is stored uncompressed")
    return chunk.offset, header >> 1


def chunk_header_past_stream() -> bytes:
    raw = zlib_strings()
    stripe = _stripe(raw)
    offset, _ = _first_compressed_chunk(raw)
    return _splice(raw, offset, _chunk_header(len(stripe.data(FIRST_COLUMN, StreamKind.DATA)), False))


def chunk_past_block_size() -> bytes:
    """Column s's DATA stream as one chunk: it decompresses to more than the block size."""
    raw = zlib_strings()
    stored = _stripe(raw).data(FIRST_COLUMN, StreamKind.DATA)
    values = decompress_stream(stored, CompressionKind.ZLIB, COMPRESSION_BLOCK, 0)
    one_chunk = compress_stream(values, CompressionKind.ZLIB, len(values))
    (chunk,) = read_chunks(one_chunk, CompressionKind.ZLIB, len(values), 0)
    if len(values) <= COMPRESSION_BLOCK or chunk.original:
        raise AssertionError("the DATA stream does not make one compressed chunk past the block size")
    return _with_stream(raw, FIRST_COLUMN, StreamKind.DATA, one_chunk)


def corrupt_deflate() -> bytes:
    raw = zlib_strings()
    offset, length = _first_compressed_chunk(raw)
    return _splice(raw, offset + HEADER_BYTES, bytes([CORRUPT_DEFLATE]) * length)


# ---------------------------------------------------------------------------
# The faults: the values
# ---------------------------------------------------------------------------


def _first_run(raw: bytes, expected: set[SubEncoding]) -> tuple[int, bytes]:
    """(file offset, bytes) of column x's DATA stream, whose first run is one of ``expected``."""
    stripe = _stripe(raw)
    data = stripe.data(FIRST_COLUMN, StreamKind.DATA)
    count = _tail(raw).footer.statistics[FIRST_COLUMN].number_of_values or 0  # the non-null values
    first = sub_encodings(data, count, signed=True)[0]
    if first not in expected:
        raise AssertionError(f"column x's first run is {first.name}, not one of {sorted(expected)}")
    return stripe.offset(FIRST_COLUMN, StreamKind.DATA), data


def run_past_stream() -> bytes:
    """The first run's 9-bit length says 512 values: more than the stream holds."""
    raw = ints()
    offset, data = _first_run(raw, {SubEncoding.DIRECT, SubEncoding.PATCHED_BASE, SubEncoding.DELTA})
    return _splice(raw, offset, bytes([data[0] | LENGTH_HIGH_BIT, LENGTH_LOW_BYTE]))


def patch_too_wide() -> bytes:
    """The Patched Base run's patch width code says 64 bits: with the gap, past 64."""
    raw = patched_ints()
    offset, data = _first_run(raw, {SubEncoding.PATCHED_BASE})
    widened = data[PATCH_WIDTH_BYTE] | WIDEST_WIDTH_CODE
    return _splice(raw, offset + PATCH_WIDTH_BYTE, bytes([widened]))


def dictionary_reference_out_of_range() -> bytes:
    raw = strings(ColumnEncodingKind.DICTIONARY_V2)
    stripe = _stripe(raw)
    size = stripe.footer.columns[FIRST_COLUMN].dictionary_size or 0
    references = decode_ints_v2(stripe.data(FIRST_COLUMN, StreamKind.DATA), ROWS, signed=False)
    references[-1] = size
    return _with_stream(raw, FIRST_COLUMN, StreamKind.DATA, encode_ints_v2(references, signed=False))


def length_past_data() -> bytes:
    """The last string's LENGTH is one byte more than the DATA stream has left."""
    raw = strings(ColumnEncodingKind.DIRECT_V2)
    lengths = decode_ints_v2(_stripe(raw).data(FIRST_COLUMN, StreamKind.LENGTH), ROWS, signed=False)
    lengths[-1] += 1
    return _with_stream(raw, FIRST_COLUMN, StreamKind.LENGTH, encode_ints_v2(lengths, signed=False))


def present_too_short() -> bytes:
    """Column x's PRESENT stream keeps only its first byte: 8 bits for ROWS rows."""
    raw = ints()
    present = decode_booleans(_stripe(raw).data(FIRST_COLUMN, StreamKind.PRESENT), ROWS)
    return _with_stream(raw, FIRST_COLUMN, StreamKind.PRESENT, encode_booleans(present[:BITS_PER_BYTE]))


def union_tag_past_variants() -> bytes:
    raw = unions()
    stripe = _stripe(raw)
    tags = decode_bytes(stripe.data(FIRST_COLUMN, StreamKind.DATA), ROWS)
    tags[-1] = len(_tail(raw).footer.types[FIRST_COLUMN].subtypes)
    return _with_stream(raw, FIRST_COLUMN, StreamKind.DATA, encode_bytes(tags))


def not_utf8() -> bytes:
    raw = strings(ColumnEncodingKind.DIRECT_V2)
    return _splice(raw, _stripe(raw).offset(FIRST_COLUMN, StreamKind.DATA), bytes([NOT_UTF8]))


# ---------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------


def _entry(area: str, name: str, fault: str, error_class: str, spec: tuple[str, ...],
           make: Callable[[], bytes], original: Callable[[], bytes]) -> BadFile:
    return BadFile(f"orc-{area}/{name}", fault, error_class, spec, make, original, format=ORC)


def _tail_entries() -> list[BadFile]:
    tail = partial(_entry, "tail", original=ints)
    return [
        tail("bad-header-magic", "The file starts with 'ORX', not the header 'ORC'.", "BadMagic",
             (SPEC_TAIL, SPEC_FOOTER), bad_header_magic),
        tail("empty-file", "The file has no bytes: neither format's magic.", "BadMagic", (SPEC_TAIL,),
             empty_file),
        tail("parquet-magic", "The file starts with Parquet's magic 'PAR1' where the header 'ORC' was.",
             "BadMagic", (SPEC_TAIL,), parquet_magic),
        tail("tail-cut-off", "The file is cut where its tail begins: no Metadata, Footer or PostScript.",
             "CorruptTail", (SPEC_TAIL, SPEC_POSTSCRIPT), tail_cut_off),
        tail("postscript-length-zero", "The last byte gives the PostScript length 0.", "CorruptTail",
             (SPEC_POSTSCRIPT,), postscript_length_zero),
        tail("postscript-length-past-start", "The last byte gives a PostScript length of 255, longer "
             "than the file after its header.", "CorruptTail", (SPEC_POSTSCRIPT,),
             postscript_length_past_start),
        tail("footer-length-past-file", "PostScript.footer_length is the whole file's length.",
             "CorruptTail", (SPEC_POSTSCRIPT, PROTO_POSTSCRIPT), footer_length_past_file),
        tail("postscript-magic", "PostScript.magic is 'ORX', not 'ORC'.", "BadMagic",
             (SPEC_POSTSCRIPT, PROTO_POSTSCRIPT), postscript_change(magic=WRONG_MAGIC)),
        tail("future-major-version", "PostScript.version is [1, 0], a major version after 0.",
             "UnsupportedFeature", (SPEC_POSTSCRIPT, PROTO_POSTSCRIPT),
             postscript_change(version=FUTURE_VERSION)),
        tail("unknown-compression", f"PostScript.compression is {UNKNOWN_ENUM_VALUE}, not a "
             "CompressionKind.", "UnsupportedFeature", (SPEC_COMPRESSION, PROTO_COMPRESSION_KIND),
             postscript_change(compression=UNKNOWN_ENUM_VALUE)),
    ]


def _footer_entries() -> list[BadFile]:
    footer = partial(_entry, "footer", original=ints)
    return [
        footer("truncated-varint", "The Footer's bytes end inside a varint (a field key, then a "
               "byte whose continuation bit is set).", "CorruptProtobuf", (SPEC_FOOTER, PROTO_FOOTER),
               footer_wire_bytes(bytes([UNUSED_FIELD << 3, VARINT_CONTINUES]))),
        footer("len-past-message", f"The Footer ends with a length-delimited field of {LEN_PAST_MESSAGE} "
               "bytes that has none.", "CorruptProtobuf", (SPEC_FOOTER, PROTO_FOOTER),
               footer_wire_bytes(bytes([UNUSED_FIELD << 3 | LEN_WIRE_TYPE, LEN_PAST_MESSAGE]))),
        footer("stripe-past-tail", "The stripe's data_length runs it past the start of the file tail.",
               "CorruptMetadata", (SPEC_STRIPE_INFORMATION, SPEC_STRIPES), stripe_past_tail),
        footer("rows-mismatch", "Footer.number_of_rows is one more than the stripes' number_of_rows.",
               "CorruptMetadata", (SPEC_FOOTER, SPEC_STRIPE_INFORMATION), rows_mismatch),
        footer("subtype-backwards", "The root STRUCT lists itself (type 0) as its subtype.",
               "CorruptMetadata", (SPEC_TYPES, PROTO_TYPE), type_change(0, subtypes=[0])),
        footer("subtype-out-of-range", "The root STRUCT's subtype is one past the last type.",
               "CorruptMetadata", (SPEC_TYPES, PROTO_TYPE), subtype_out_of_range),
        footer("struct-without-field-names", "The root STRUCT has one subtype and no field_names.",
               "CorruptMetadata", (SPEC_TYPES, PROTO_TYPE), type_change(0, field_names=[])),
        footer("unknown-type-kind", f"Type 1 has kind {UNKNOWN_ENUM_VALUE}, not a Type.Kind.",
               "CorruptMetadata", (SPEC_TYPES, PROTO_TYPE_KIND),
               type_change(FIRST_COLUMN, kind=UNKNOWN_ENUM_VALUE)),
    ]


def _stripe_entries() -> list[BadFile]:
    return [
        _entry("stripe", "stream-past-stripe", "The StripeFooter's last stream is one byte longer than "
               "the stripe's data.", "CorruptStream", (SPEC_STRIPES, SPEC_STRIPE_FOOTER, PROTO_STREAM),
               stream_past_stripe, ints),
        _entry("compression", "chunk-header-past-stream", "A ZLIB chunk header claims as many bytes as "
               "the whole stream.", "DecompressionFailed", (SPEC_COMPRESSION,), chunk_header_past_stream,
               zlib_strings),
        _entry("compression", "chunk-past-block-size", f"A ZLIB chunk decompresses to more than the "
               f"compression block size ({COMPRESSION_BLOCK} bytes).", "DecompressionFailed",
               (SPEC_COMPRESSION,), chunk_past_block_size, zlib_strings),
        _entry("compression", "corrupt-deflate", "A ZLIB chunk's body is not deflate data (a reserved "
               "block type).", "DecompressionFailed", (SPEC_COMPRESSION,), corrupt_deflate, zlib_strings),
    ]


def _value_entries() -> list[BadFile]:
    values = partial(_entry, "values")
    return [
        values("rle-v2-run-past-stream", "An RLE v2 run's length says 512 values, past the end of the "
               "DATA stream.", "CorruptRle", (SPEC_RLE_V2,), run_past_stream, ints),
        values("rle-v2-patch-too-wide", "A Patched Base run's patch width (64 bits) and patch gap width "
               "exceed 64 bits.", "CorruptRle", (SPEC_PATCHED_BASE,), patch_too_wide, patched_ints),
        values("dictionary-reference-out-of-range", "A DATA reference equals the dictionary's size.",
               "CorruptStream", (SPEC_STRINGS,), dictionary_reference_out_of_range,
               partial(strings, ColumnEncodingKind.DICTIONARY_V2)),
        values("length-past-data", "The LENGTH stream's lengths add up to one byte more than the DATA "
               "stream.", "CorruptStream", (SPEC_STRINGS,), length_past_data,
               partial(strings, ColumnEncodingKind.DIRECT_V2)),
        values("present-too-short", f"The PRESENT stream holds 8 bits for {ROWS} rows.", "CorruptRle",
               (SPEC_BOOLEAN_RLE, SPEC_STRIPES), present_too_short, ints),
        values("union-tag-past-variants", "A union tag is 2; the union has 2 variants.", "CorruptStream",
               (SPEC_UNIONS,), union_tag_past_variants, unions),
        values("string-not-utf8", "A STRING value starts with byte 0xFF: not UTF-8.", "InvalidValue",
               (SPEC_STRINGS,), not_utf8, partial(strings, ColumnEncodingKind.DIRECT_V2)),
    ]


def orc_bad_files() -> list[BadFile]:
    """The ORC entries of the corpus."""
    return [*_tail_entries(), *_footer_entries(), *_stripe_entries(), *_value_entries()]
