"""A bounded read position over one byte range, shared by the decoders of this package.

docs/architecture.md, 'Bad input': a decoder rejects malformed input with a specific
exception that carries the byte offset and says what was expected; it never
reads past the range it was given and never trusts a length before checking it
against the bytes that remain. Every read below goes through :class:`Cursor`,
which does exactly those checks, so the decoders themselves read like the
grammar they implement.

Positions are indices into ``data``; ``base_offset`` is the file offset of
``data[0]``, so an error's offset is ``base_offset + position``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from reference_impl.common.varint import decode_uleb128, zigzag_decode
from reference_impl.parquet.errors import ParquetError

__all__ = ["Cursor", "errors_prefixed"]


class Cursor:
    """Reads ``data[start:end]`` front to back; every read is checked against ``end``.

    ``error`` is the class raised for malformed data (``CorruptPage`` for values,
    ``InvalidLevelData`` for levels); ``encoding`` names the encoding in messages.
    """

    def __init__(
        self,
        data: bytes | bytearray | memoryview,
        start: int,
        end: int | None,
        *,
        base_offset: int,
        error: type[ParquetError],
        encoding: str,
    ) -> None:
        end = len(data) if end is None else end
        if not 0 <= start <= end <= len(data):
            # The caller's range, not the file's bytes, is wrong: a programming error.
            raise ValueError(f"range [{start}, {end}) is not inside the {len(data)}-byte buffer")
        self.data = data
        self.view = memoryview(data)
        self.position = start
        self.end = end
        self.base_offset = base_offset
        self.error = error
        self.encoding = encoding

    def offset(self, position: int | None = None) -> int:
        """The file offset of ``position`` (default: the current position)."""
        return self.base_offset + (self.position if position is None else position)

    def remaining(self) -> int:
        return self.end - self.position

    def fail(self, message: str, position: int | None = None) -> ParquetError:
        """The error to raise for a problem found at ``position`` (default: here)."""
        return self.error(f"{self.encoding}: {message}", self.offset(position))

    def check_count(self, count: int) -> None:
        """A value count handed in by the caller comes from a header: refuse a negative one."""
        if count < 0:
            raise self.fail(f"expected a non-negative value count, got {count}")

    def take(self, size: int, what: str) -> memoryview:
        """Claim the next ``size`` bytes, or fail naming ``what`` needed them."""
        if size > self.remaining():
            raise self.fail(f"{what} need(s) {size} byte(s), only {self.remaining()} remain")
        start = self.position
        self.position += size
        return self.view[start : self.position]

    def byte(self, what: str) -> int:
        return self.take(1, what)[0]

    def uleb128(self, bits: int, what: str) -> int:
        """An unsigned LEB128 value that must fit in ``bits`` bits."""
        value, self.position = decode_uleb128(
            self.data,
            self.position,
            self.end,
            bits=bits,
            error=self.error,
            what=f"{self.encoding}: {what}",
            base_offset=self.base_offset,
        )
        return value

    def zigzag(self, bits: int, what: str) -> int:
        """A zigzag ULEB128 value: a signed integer of ``bits`` bits."""
        return zigzag_decode(self.uleb128(bits, what))


@contextmanager
def errors_prefixed(prefix: str) -> Iterator[None]:
    """Re-raise a :class:`ParquetError` from an inner decoder with ``prefix`` in front
    of its message (same class, same offset), so that e.g. a broken length stream
    inside DELTA_LENGTH_BYTE_ARRAY says so rather than only "DELTA_BINARY_PACKED"."""
    try:
        yield
    except ParquetError as exc:
        raise type(exc)(f"{prefix}: {exc.message}", exc.offset) from None
