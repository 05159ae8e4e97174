"""The file tail: read backwards from the last byte, written forwards to it.

ORCv1.md, 'File Tail': the tail is, in file order, the encrypted stripe statistics, the
stripe statistics (message Metadata), the Footer, the PostScript and one byte, the
PostScript's length. ORCv1.md, 'Postscript': "The Postscript is never compressed and
ends one byte before the end of the file"; it gives the lengths of the Footer and the
Metadata and the compression that every other part of the file uses (ORCv1.md,
'Compression'), so the Footer ('Footer') and the Metadata ('File Metadata') are
decompressed with that codec before they are decoded. The file itself starts with the
3-byte header "ORC" ('Footer': "The Header consists of the bytes "ORC''").

The codec is passed in (``streams.compression`` frames and unframes the chunks), so this
module is only the layout: every length is checked against the file before it is used.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from reference_impl.common.mapped_file import FileBytes
from reference_impl.orc.errors import BadMagic, CorruptProtobuf, CorruptTail, UnsupportedFeature
from reference_impl.orc.metadata.orc_proto import Footer, Metadata, PostScript, ProtoMessage, decode, encode
from reference_impl.orc.metadata.proto_enums import CompressionKind

__all__ = [
    "DEFAULT_COMPRESSION_BLOCK_SIZE",
    "MAGIC",
    "FileTail",
    "file_version",
    "read_file_tail",
    "write_file_tail",
]

MAGIC = b"ORC"
HEADER_LENGTH = len(MAGIC)
POSTSCRIPT_LENGTH_BYTES = 1
MAX_POSTSCRIPT_LENGTH = 255  # the length is one byte
# ORCv1.md, 'Compression': "The default compression chunk size is 256K"; a PostScript
# without compression_block_size means it.
DEFAULT_COMPRESSION_BLOCK_SIZE = 256 * 1024
# ORCv1.md, 'Postscript': "This file version is encoded as [0,12]"; ORCv0.md files are
# [0, 11]. A file with no version is taken as the oldest, as ORC's own readers do.
SUPPORTED_MAJOR_VERSION = 0
OLDEST_VERSION = (0, 11)

M = TypeVar("M", bound=ProtoMessage)
Decompress = Callable[[bytes, CompressionKind, int, int], bytes]
Compress = Callable[[bytes, CompressionKind, int], bytes]


@dataclass(frozen=True)
class FileTail:
    postscript: PostScript
    footer: Footer
    metadata: Metadata | None  # the stripe statistics section, None when its length is 0
    file_length: int
    footer_offset: int  # where the (compressed) footer starts
    metadata_offset: int

    @property
    def encrypted_statistics_offset(self) -> int:
        """Where the encrypted stripe statistics start (PostScript stripe_statistics_length
        bytes before the Metadata): the end of the stripes."""
        return self.metadata_offset - (self.postscript.stripe_statistics_length or 0)


def file_version(postscript: PostScript) -> tuple[int, int]:
    """(major, minor) of PostScript.version; a missing minor is 0."""
    if not postscript.version:
        return OLDEST_VERSION
    major, *rest = postscript.version
    return major, rest[0] if rest else 0


# -- reading ------------------------------------------------------------------------


def read_file_tail(data: FileBytes | memoryview, decompress: Decompress) -> FileTail:
    """The tail of the whole file ``data``; ``decompress(data, kind, block_size,
    file_offset)`` undoes the file's compression (and is called for NONE too)."""
    if bytes(data[:HEADER_LENGTH]) != MAGIC:
        raise BadMagic(f"the file starts with {bytes(data[:HEADER_LENGTH])!r}, not {MAGIC!r}", 0)
    postscript_offset = _postscript_offset(data)
    postscript = decode(PostScript, data[postscript_offset:-POSTSCRIPT_LENGTH_BYTES], postscript_offset)
    _check_postscript(postscript, postscript_offset)
    footer_offset, metadata_offset = _section_offsets(postscript, postscript_offset)
    kind, block_size = _compression(postscript, postscript_offset), _block_size(postscript)

    def section(cls: type[M], start: int, end: int, lenient: bool = False) -> M:
        raw = decompress(bytes(data[start:end]), kind, block_size, start)
        return _decode_section(cls, raw, start, kind, lenient)

    footer = section(Footer, footer_offset, postscript_offset)
    # The stripe statistics, which no row needs: a field of another wire type is skipped
    # (orc_proto.FIELD_WIRE_TYPE).
    metadata = (section(Metadata, metadata_offset, footer_offset, lenient=True)
                if metadata_offset < footer_offset else None)
    return FileTail(postscript, footer, metadata, len(data), footer_offset, metadata_offset)


def _postscript_offset(data: FileBytes | memoryview) -> int:
    """ORCv1.md, 'Postscript': "The final byte of the file contains the serialized length
    of the Postscript"; the PostScript cannot reach back into the header."""
    length_offset = len(data) - POSTSCRIPT_LENGTH_BYTES
    if length_offset < HEADER_LENGTH:
        raise CorruptTail(f"the file is {len(data)} bytes: no room for a PostScript after the header",
                          len(data))
    postscript_length = data[length_offset]
    postscript_offset = length_offset - postscript_length
    if postscript_length == 0 or postscript_offset < HEADER_LENGTH:
        raise CorruptTail(f"PostScript length {postscript_length} does not fit between the header and "
                          f"the last byte of a {len(data)}-byte file", length_offset)
    return postscript_offset


def _check_postscript(postscript: PostScript, offset: int) -> None:
    if postscript.magic is not None and postscript.magic != MAGIC.decode():
        raise BadMagic(f"PostScript.magic is {postscript.magic!r}, not {MAGIC.decode()!r}", offset)
    major, minor = file_version(postscript)
    if major > SUPPORTED_MAJOR_VERSION:
        raise UnsupportedFeature(f"file version {major}.{minor}: only version "
                                 f"{SUPPORTED_MAJOR_VERSION}.x (ORCv0.md, ORCv1.md) is read", offset)
    if postscript.footer_length is None:
        raise CorruptTail("the PostScript has no footer_length", offset)


def _section_offsets(postscript: PostScript, postscript_offset: int) -> tuple[int, int]:
    """(footer offset, metadata offset); each section must end where the next begins and
    all of them lie after the header."""
    footer_offset = _section_start("Footer", postscript.footer_length or 0, postscript_offset)
    metadata_offset = _section_start("Metadata", postscript.metadata_length or 0, footer_offset)
    _section_start("encrypted stripe statistics", postscript.stripe_statistics_length or 0, metadata_offset)
    return footer_offset, metadata_offset


def _section_start(name: str, length: int, end: int) -> int:
    start = end - length
    if start < HEADER_LENGTH:
        raise CorruptTail(f"the {name} of {length} bytes, ending at offset {end}, would start at "
                          f"{start}, before the end of the {HEADER_LENGTH}-byte header", end)
    return start


def _compression(postscript: PostScript, offset: int | None) -> CompressionKind:
    """A PostScript without compression is uncompressed (NONE is the enum's default)."""
    try:
        return CompressionKind(postscript.compression or CompressionKind.NONE)
    except ValueError:
        raise UnsupportedFeature(f"PostScript.compression {postscript.compression} is not a "
                                 "CompressionKind this reader knows", offset) from None


def _block_size(postscript: PostScript) -> int:
    if postscript.compression_block_size is None:
        return DEFAULT_COMPRESSION_BLOCK_SIZE
    return postscript.compression_block_size


def _decode_section(cls: type[M], raw: bytes, offset: int, kind: CompressionKind, lenient: bool) -> M:
    """Decode a section; offsets inside decompressed bytes are not file offsets, so an error
    there names the section's (compressed) start instead."""
    if kind == CompressionKind.NONE:
        return decode(cls, raw, offset, lenient=lenient)
    try:
        return decode(cls, raw, lenient=lenient)
    except CorruptProtobuf as exc:
        raise CorruptProtobuf(f"{cls.__name__} (decompressed from the section at offset {offset}): "
                              f"{exc.message} at position {exc.offset} of the decompressed bytes",
                              offset) from None


# -- writing ------------------------------------------------------------------------


def write_file_tail(footer: Footer, metadata: Metadata | None, postscript: PostScript,
                    compress: Compress, encrypted_statistics: bytes = b"") -> bytes:
    """The bytes from the encrypted stripe statistics (``encrypted_statistics``, sealed
    already) through the PostScript length byte.

    ``postscript`` gives the compression (``compress(data, kind, block_size)`` applies
    it); its footer_length and metadata_length are filled in here.
    """
    kind, block_size = _compression(postscript, None), _block_size(postscript)
    metadata_bytes = b"" if metadata is None else compress(encode(metadata), kind, block_size)
    footer_bytes = compress(encode(footer), kind, block_size)
    postscript = dataclasses.replace(postscript, footer_length=len(footer_bytes),
                                     metadata_length=len(metadata_bytes),
                                     stripe_statistics_length=len(encrypted_statistics) or None)
    postscript_bytes = encode(postscript)
    if len(postscript_bytes) > MAX_POSTSCRIPT_LENGTH:
        raise CorruptTail(f"the PostScript is {len(postscript_bytes)} bytes; its length must fit "
                          f"one byte (at most {MAX_POSTSCRIPT_LENGTH})")
    return (encrypted_statistics + metadata_bytes + footer_bytes + postscript_bytes
            + bytes([len(postscript_bytes)]))
