"""What one column reads from a stripe, and what one column writes into it.

ORCv1.md, 'Column Encodings': a column's values are spread over the streams its
encoding names, each holding "Boolean RLE", "Byte RLE", "Signed Integer RLE v1/v2",
"Unsigned Integer RLE v1/v2" or raw bytes; the RLE version follows the encoding (DIRECT
and DICTIONARY: v1; DIRECT_V2 and DICTIONARY_V2: v2; 'Stripe Footer', message
ColumnEncoding).

The read side hands out positioned readers over the stripe's decompressed streams and
turns their errors into ones that name the column, the stripe, the stream and the
absolute byte offset (exact for an uncompressed stream; the stream's start for a
compressed one, where a position in the decompressed bytes has no file offset). A
compressed stream is read a chunk at a time (streams/compression.py, ``ChunkedStream``):
the RLE readers and :class:`ByteCursor` hold a window of it, not the whole; a chunk that
does not decompress is the codec's error, with its own offset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from reference_impl.orc.encodings.boolean_rle import BooleanRleReader
from reference_impl.orc.encodings.byte_rle import ByteRleReader
from reference_impl.orc.encodings.int_rle_v1 import IntRleV1Reader, encode_ints_v1
from reference_impl.orc.encodings.int_rle_v2 import IntRleV2Reader, SubEncoding, encode_ints_v2
from reference_impl.orc.errors import CorruptStream, DecompressionFailed, OrcError
from reference_impl.orc.metadata.proto_enums import CalendarKind, ColumnEncodingKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.streams.stream_window import REST, StreamData, StreamWindow
from reference_impl.orc.streams.stripe import StreamBytes, StripeStreams
from reference_impl.orc.varint import VARINT_BITS, read_svarint

__all__ = ["V2_ENCODINGS", "ByteCursor", "ColumnStreams", "StreamValues", "WriteSettings"]

V2_ENCODINGS = frozenset({ColumnEncodingKind.DIRECT_V2, ColumnEncodingKind.DICTIONARY_V2})
DICTIONARY_ENCODINGS = frozenset({ColumnEncodingKind.DICTIONARY, ColumnEncodingKind.DICTIONARY_V2})
VARINT_PAYLOAD_BITS = 7  # 'Base 128 Varint'
MAX_VARINT_BYTES = -(-VARINT_BITS // VARINT_PAYLOAD_BITS)  # the most a varint reader looks at


class _Reader(Protocol):
    def read(self, count: int) -> np.ndarray: ...

    def leftover(self) -> tuple[str, int] | None: ...

    def skip(self, count: int) -> None: ...


RunReaderFactory = Callable[[StreamData], _Reader]  # a decoder over a stream's bytes or chunks


class StreamValues:
    """An RLE reader over one stream whose errors name the column, stripe and file offset."""

    def __init__(self, reader: _Reader, stream: StreamBytes, where: str) -> None:
        self._reader = reader
        self._stream = stream
        self._where = where
        self._skip = stream.skip  # passed over before the first read (a row index seek)

    def read(self, count: int) -> np.ndarray:
        try:
            if self._skip:
                self._reader.skip(self._skip)
                self._skip = 0
            return self._reader.read(count)
        except DecompressionFailed:
            raise  # a chunk's: its message and offset are the chunk's already
        except OrcError as error:
            raise relocated(error, self._stream, self._where) from error

    def leftover(self) -> tuple[str, int] | None:
        return self._reader.leftover()


def relocated(error: OrcError, stream: StreamBytes, where: str) -> OrcError:
    """``error`` (raised with offsets into ``stream.data``) with its place in the file."""
    kind = StreamKind(stream.kind).name if stream.kind in StreamKind._value2member_map_ else stream.kind
    position = "" if error.offset is None else f", byte {error.offset} of the stream"
    return type(error)(f"{where}, {kind} stream{position}: {error.message}", stream.file_offset(error.offset))


class ByteCursor:
    """Raw bytes of a stream taken in order (string contents, IEEE floats, decimal varints);
    a compressed one a chunk at a time, in a window that holds what is being taken."""

    def __init__(self, stream: StreamBytes, where: str) -> None:
        self.stream = stream
        self._where = where
        self._window = StreamWindow(stream.readable())
        self._at = 0  # the cursor's place in the window's data

    @property
    def position(self) -> int:
        """The cursor's byte offset in the stream."""
        return self._window.start + self._at

    def window(self, wanted: int) -> tuple[bytes | memoryview, int]:
        """The window's bytes and the cursor's place in them, with ``wanted`` bytes after
        the place (or as many as the stream has left)."""
        self._at = self._window.hold(self._at, wanted)
        return self._window.data, self._at

    def has(self, length: int) -> bool:
        """Whether ``length`` more bytes follow the cursor."""
        data, at = self.window(length)
        return len(data) - at >= length

    def advance(self, length: int) -> None:
        """Move past ``length`` bytes of the window (read from :meth:`window`)."""
        self._at += length

    def take(self, length: int) -> bytes:
        if not self.has(length):
            raise self._short(f"{length} more bytes at byte {self.position}")
        # bytes, never a view: what a column gives out holds no stream (nor the mapped file)
        chunk = bytes(self._window.data[self._at:self._at + length])
        self._at += length
        return chunk

    def leftover(self) -> tuple[str, int] | None:
        data, at = self.window(REST)
        left = len(data) - at
        return (f"{left} bytes from byte {self.position}", self.position) if left else None

    def svarint(self) -> int:
        data, at = self.window(MAX_VARINT_BYTES)
        try:
            value, end = read_svarint(data, at, self._window.start)
        except OrcError as error:
            raise relocated(error, self.stream, self._where) from error
        self._at = end
        return value

    def _short(self, wanted: str) -> CorruptStream:
        """The stream ends before ``wanted`` (:meth:`has` has read it to its end)."""
        length = self._window.start + len(self._window.data)
        return CorruptStream(f"{self._where}, {StreamKind(self.stream.kind).name} stream of "
                             f"{length} bytes ends before {wanted}", self.stream.file_offset(length))


class ColumnStreams:
    """One column's streams and encoding in one stripe."""

    def __init__(self, node: TypeNode, stripe: StripeStreams, calendar: CalendarKind | None) -> None:
        self.node = node
        self.stripe = stripe
        self.calendar = calendar
        encoding = stripe.encoding(node.column_id)
        self.encoding = encoding.kind if encoding.kind is not None else ColumnEncodingKind.DIRECT
        self.dictionary_size = encoding.dictionary_size or 0
        self.where = f"{node.describe()}, stripe {stripe.index}"

    def has(self, kind: StreamKind) -> bool:
        return self.stripe.has(self.node.column_id, kind)

    def raw(self, kind: StreamKind) -> StreamBytes:
        return self.stripe.stream(self.node.column_id, kind)

    def cursor(self, kind: StreamKind) -> ByteCursor:
        cursor = ByteCursor(self.raw(kind), self.where)
        self.stripe.opened(self.where, cursor.stream, cursor)
        return cursor

    def integers(self, kind: StreamKind, *, signed: bool) -> StreamValues:
        """Integer RLE v1 or v2, as the column's encoding says."""
        reader_class = IntRleV2Reader if self.encoding in V2_ENCODINGS else IntRleV1Reader
        return self._values(kind, lambda data: reader_class(data, signed=signed))

    def booleans(self, kind: StreamKind) -> StreamValues:
        return self._values(kind, BooleanRleReader)

    def bytes(self, kind: StreamKind) -> StreamValues:
        return self._values(kind, ByteRleReader)

    def _values(self, kind: StreamKind, reader: RunReaderFactory) -> StreamValues:
        """A reader of the ``kind`` stream, whose consumption the stripe checks at its end."""
        stream = self.raw(kind)
        values = StreamValues(reader(stream.readable()), stream, self.where)
        self.stripe.opened(self.where, stream, values)
        return values

    def error(self, error_class: type[OrcError], message: str,
              kind: StreamKind = StreamKind.DATA) -> OrcError:
        """An error about this column, placed at the start of its ``kind`` stream."""
        return error_class(f"{self.where}: {message}", self.raw(kind).offset)


@dataclass(frozen=True)
class WriteSettings:
    """What a column writer is told: the RLE version and the writer's choices."""

    rle_v2: bool
    sub_encoding: SubEncoding | None
    dictionary_threshold: float
    forced_encoding: ColumnEncodingKind | None
    writer_timezone: str
    calendar: CalendarKind

    def integers(self, values: Sequence[int], *, signed: bool) -> bytes:
        """The integer stream of ``values``, in the forced RLE v2 sub-encoding where that can
        express them, else as ORC's writers choose."""
        if not self.rle_v2:
            return encode_ints_v1(values, signed=signed)
        if self.sub_encoding is not None:
            try:
                return encode_ints_v2(values, signed=signed, force=self.sub_encoding)
            except ValueError:
                pass  # these values have no runs of that sub-encoding
        return encode_ints_v2(values, signed=signed)

    def for_children(self) -> WriteSettings:
        """A forced encoding is the top-level column's only."""
        return replace(self, forced_encoding=None)

    @property
    def direct(self) -> ColumnEncodingKind:
        return ColumnEncodingKind.DIRECT_V2 if self.rle_v2 else ColumnEncodingKind.DIRECT

    @property
    def dictionary(self) -> ColumnEncodingKind:
        return ColumnEncodingKind.DICTIONARY_V2 if self.rle_v2 else ColumnEncodingKind.DICTIONARY


@dataclass
class ColumnOutput:
    """What a column writer produces from its non-null values: its streams (without
    PRESENT), its encoding, and the values each child column receives (in order)."""

    encoding: ColumnEncodingKind
    streams: dict[StreamKind, bytes]
    dictionary_size: int | None = None
    children: Sequence[list[object]] = ()

