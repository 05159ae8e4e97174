"""A stream read through a window that moves over its chunks (ORCv1.md, 'Compression').

A compressed stream is a sequence of chunks, each decompressed on its own
(streams/compression.py, ``ChunkedStream.chunks``). A reader that takes them in turn
as it moves through the stream holds the bytes it is reading, not the whole stream
beside its values. :class:`StreamWindow` is that window: :attr:`data` holds the
stream's bytes from :attr:`start` on, and :meth:`hold` moves it to hold as many bytes
from a place on as a reader wants (or all that is left), dropping the bytes before the
place. A stream given whole (stored uncompressed, or decompressed at once) is a window
that never moves. The RLE readers (encodings/run_reader.py) and the raw byte cursor
(columns/column_streams.py) read through one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

__all__ = ["REST", "StreamData", "StreamWindow"]

# A stream's bytes, or its decompressed chunks in turn.
StreamData = bytes | memoryview | Iterator[bytes]
REST = sys.maxsize  # wanted by a reader that needs all the stream has left


class StreamWindow:
    def __init__(self, data: StreamData) -> None:
        self._chunks = data if isinstance(data, Iterator) else None  # those not yet in the window
        self.data: bytes | memoryview = b"" if isinstance(data, Iterator) else data
        self.start = 0  # the stream offset of data[0]: the bytes dropped before it

    def hold(self, place: int, wanted: int) -> int:
        """Hold ``wanted`` bytes from ``data[place]`` on (or the rest of the stream), and
        return where that byte now lies in :attr:`data`."""
        if self._chunks is None or len(self.data) - place >= wanted:
            return place
        pieces = [self.data[place:]]
        size = len(pieces[0])
        while size < wanted and (chunk := next(self._chunks, None)) is not None:
            pieces.append(chunk)
            size += len(chunk)
        if size < wanted:
            self._chunks = None  # the stream's end is in the window
        self.start += place
        self.data = b"".join(pieces)
        return 0
