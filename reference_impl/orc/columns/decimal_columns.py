"""DECIMAL columns, of the Hive 0.11 and 0.12 (bounded precision) types.

ORCv1.md, 'Decimal Columns': "The current encoding of decimal columns stores the integer
representation of the value as an unbounded length zigzag encoded base 128 varint. The
scale is stored in the SECONDARY stream as a signed integer." DIRECT (SECONDARY: Signed
Integer RLE v1) and DIRECT_V2 (SECONDARY: v2); ORCv0.md, 'Decimal Columns' is DIRECT.

A value is returned as the unscaled integer at the column's scale. A value stored with a
different scale is rescaled exactly; one whose digits would be lost, or which exceeds
the column's precision (a 0.12 decimal, precision 1 to 38), is :class:`InvalidValue`.
The Hive 0.11 decimal (no precision in the Type) has no bound on its digits.

The usual case, values of at most 9 varint bytes (63 bits) stored at the column's scale,
is read in int64 arrays (:func:`short_varints`); any other is read value by value.
"""

from __future__ import annotations

import numpy as np

from reference_impl.orc.columns.column_streams import ByteCursor, ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.encodings.int_rle_v2 import zigzag_decoded_words
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.varint import write_svarint

__all__ = ["DecimalReader", "rescale", "write_decimals"]

DECIMAL_BASE = 10
# A stored varint holds at most 128 bits (under 40 digits), so a scale further than this
# from the column's either loses digits or makes a number no decimal type holds; the
# bound also keeps a corrupt scale from making 10 ** scale a huge computation.
MAX_SCALE_DIFFERENCE = 80
# 'Base 128 Varint': 7 bits a byte, the high bit set on every byte but the last.
VARINT_PAYLOAD_BITS = 7
VARINT_CONTINUES = 0x80
VARINT_PAYLOAD = VARINT_CONTINUES - 1
SHORT_VARINT_BYTES = 9  # 63 bits: a word holds them, and int64 their zigzag decoding
# Varints decoded at once: the arrays that locate them take several times the values'
# size, so a stripe is decoded in batches of this many (docs/architecture.md, 'Memory budget').
SHORT_VARINT_BATCH = 1 << 14
INT64_DIGITS = 18  # 10 ** 18 < 2 ** 63


def short_varints(cursor: ByteCursor, count: int) -> np.ndarray:
    """The next signed varints of ``cursor``, at most ``count``, as int64, up to the first of
    more than SHORT_VARINT_BYTES bytes (or the stream's end): the cursor is then at it."""
    words = np.empty(count, dtype=np.int64)
    done = 0
    while done < count:
        wanted = min(SHORT_VARINT_BATCH, count - done)
        batch = _short_varint_batch(cursor, wanted)
        words[done:done + len(batch)] = batch
        done += len(batch)
        if len(batch) < wanted:
            return words[:done]
    return words


def _short_varint_batch(cursor: ByteCursor, count: int) -> np.ndarray:
    """:func:`short_varints` of at most SHORT_VARINT_BATCH values."""
    room = count * SHORT_VARINT_BYTES  # for count short ones
    window, at = cursor.window(room)
    data = np.frombuffer(window, dtype=np.uint8, offset=at, count=min(len(window) - at, room))
    ends = np.flatnonzero(data < VARINT_CONTINUES)[:count]
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts + 1
    long = np.flatnonzero(lengths > SHORT_VARINT_BYTES)
    count = int(long[0]) if len(long) else len(ends)  # those before the first long one
    words = np.zeros(count, dtype=np.uint64)
    for byte in range(int(lengths[:count].max()) if count else 0):  # the byte-th byte of each varint
        has = lengths[:count] > byte
        payload = (data[starts[:count][has] + byte] & VARINT_PAYLOAD).astype(np.uint64)
        words[has] |= payload << np.uint64(VARINT_PAYLOAD_BITS * byte)
    cursor.advance(int(ends[count - 1]) + 1 if count else 0)
    return zigzag_decoded_words(words)


def rescale(unscaled: int, scale: int, node: TypeNode) -> int:
    """``unscaled`` × 10^-``scale`` as an unscaled integer at ``node``'s scale.

    ValueError (with the reason) if that loses digits or exceeds the precision.
    """
    target = node.scale or 0
    if unscaled and abs(scale - target) > MAX_SCALE_DIFFERENCE:
        raise ValueError(f"scale {scale} is too far from the column's scale {target}")
    if not unscaled:
        return 0
    if scale <= target:
        value = unscaled * DECIMAL_BASE ** (target - scale)
    else:
        value, lost = divmod(unscaled, DECIMAL_BASE ** (scale - target))
        if lost:
            raise ValueError(f"{unscaled}e-{scale} has more than {target} digits after the point")
    if node.precision is not None and abs(value) >= DECIMAL_BASE ** node.precision:
        raise ValueError(f"{value}e-{target} has more than {node.precision} digits")
    return value


class DecimalReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._data = streams.cursor(StreamKind.DATA)
        self._scales = streams.integers(StreamKind.SECONDARY, signed=True)

    def read_values(self, count: int) -> list[object] | np.ndarray:
        words = short_varints(self._data, count)
        short = len(words) == count
        unscaled = [] if short else words.tolist() + [self._data.svarint() for _ in range(count - len(words))]
        scales = self._read_scales(count)
        if short:
            if scales is None and not self._too_wide(words):
                return words
            unscaled = words.tolist()
        stored = [self.streams.node.scale or 0] * count if scales is None else scales.tolist()
        values: list[object] = []
        for number, (value, scale) in enumerate(zip(unscaled, stored, strict=True)):
            try:
                values.append(rescale(value, scale, self.streams.node))
            except ValueError as error:
                raise self.value_error(InvalidValue, number, str(error)) from error
        return values

    def _read_scales(self, count: int) -> np.ndarray | None:
        """The next ``count`` scales of the SECONDARY stream; None when each is the column's.
        Read a batch at a time: the scales of values stored at the column's scale (the
        usual case) are not held beside the values (docs/architecture.md, 'Memory budget')."""
        scale = self.streams.node.scale or 0
        for first in range(0, count, SHORT_VARINT_BATCH):
            batch = self._scales.read(min(SHORT_VARINT_BATCH, count - first))
            if not batch.min() == scale == batch.max():
                rest = self._scales.read(count - first - len(batch))
                return np.concatenate((np.full(first, scale, dtype=batch.dtype), batch, rest))
        return None

    def _too_wide(self, words: np.ndarray) -> bool:
        """Whether a value at the column's scale may exceed its precision (int64 holds
        every value of more than INT64_DIGITS digits)."""
        precision = self.streams.node.precision
        if precision is None or precision > INT64_DIGITS or not len(words):
            return False
        return max(-int(words.min()), int(words.max())) >= DECIMAL_BASE ** precision


def write_decimals(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    """``values`` are unscaled ints at the column's scale; each is stored with that scale."""
    unscaled: list[int] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidValue(f"{node.describe()}: {value!r} is not an unscaled int")
        try:
            unscaled.append(rescale(value, node.scale or 0, node))
        except ValueError as error:
            raise InvalidValue(f"{node.describe()}: {error}") from error
    data = b"".join(write_svarint(value) for value in unscaled)
    scales = settings.integers([node.scale or 0] * len(unscaled), signed=True)
    return ColumnOutput(settings.direct, {StreamKind.DATA: data, StreamKind.SECONDARY: scales})
