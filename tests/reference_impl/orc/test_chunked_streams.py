"""A compressed stream read a chunk at a time (ORCv1.md, 'Compression'; streams/compression.py's
ChunkedStream, the windows of encodings/run_reader.py and columns/column_streams.py's
ByteCursor): the values and errors of the whole stream wherever the chunks end (inside a
run header, a run, a varint), a window's memory rather than the stream's, and a chunk
that does not decompress named by its own offset."""

from __future__ import annotations

import functools
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.orc.encodings.int_rle_v2 import IntRleV2Reader
from reference_impl.orc.errors import DecompressionFailed, OrcError
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.proto_enums import CompressionKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import decimal, primitive, struct
from reference_impl.orc.reader import read_orc
from reference_impl.orc.streams.compression import (
    ChunkedStream,
    compress_stream,
    decompress_stream,
    read_chunks,
)
from reference_impl.orc.streams.stripe_layout import StreamCodec, read_stripe_footer, stream_places
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions

# A Direct run of RLE v2 ('Direct'), built by hand: 512 values of 64 bits, header
# 01 11111 1 (Direct, width code 31 = 64 bits, the length's high bit) then 0xFF (512 - 1).
DIRECT_64_HEADER = bytes([0x7F, 0xFF])
RUN_VALUES = 512
RUNS = 200  # 102,400 values, 820 KB: the window moves a dozen times
BLOCK = 1 << 16  # pyarrow's compression block size


@functools.cache
def direct_stream() -> tuple[np.ndarray, bytes]:
    """Random signed 64-bit values and their RLE v2 stream, zigzagged by hand."""
    values = np.random.default_rng(7).integers(-(1 << 63), (1 << 63) - 1, RUNS * RUN_VALUES, dtype=np.int64)
    zigzag = (values.view(np.uint64) << np.uint64(1)) ^ (values >> np.int64(63)).view(np.uint64)
    runs = zigzag.astype(">u8").reshape(RUNS, RUN_VALUES)
    return values, b"".join(DIRECT_64_HEADER + run.tobytes() for run in runs)


def _cut(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` as chunks ending at ``cuts`` (positions in it), some perhaps empty."""
    edges = [0, *sorted(cuts), len(data)]
    return [data[start:end] for start, end in zip(edges, edges[1:], strict=False)]


def _outcome(read: object) -> object:
    try:
        return ("values", read())  # type: ignore[operator]
    except OrcError as error:
        return (type(error).__name__, error.message, error.offset)


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(0, RUNS * (RUN_VALUES * 8 + 2)), max_size=12),
       reads=st.lists(st.integers(1, 3 * RUN_VALUES), min_size=1, max_size=4),
       keep=st.integers(1, RUNS * (RUN_VALUES * 8 + 2)))
def test_chunks_anywhere_read_as_the_whole_stream(cuts: list[int], reads: list[int], keep: int) -> None:
    """The same values and errors from the chunks as from their join, the stream whole or
    cut short at ``keep`` bytes; read in parts of ``reads`` values, then to the end."""
    values, stream = direct_stream()
    stream = stream[:keep]
    chunks = _cut(stream, [cut for cut in cuts if cut <= keep])
    whole = IntRleV2Reader(stream, signed=True)
    chunked = IntRleV2Reader(iter(chunks), signed=True)
    for count in [*reads, len(values) - sum(reads)]:
        expected = _outcome(lambda count=count: whole.read(count).tolist())  # type: ignore[misc]
        assert _outcome(lambda count=count: chunked.read(count).tolist()) == expected  # type: ignore[misc]
        if expected[0] != "values":
            return
    assert chunked.leftover() == whole.leftover()
    assert expected[1] == values[sum(reads) - len(values):].tolist()


def test_a_window_not_the_stream_is_held_beside_the_values() -> None:
    """Decoding a ZLIB stream of 820 KB into 820 KB of values holds the values and a few
    windows (WINDOW_BYTES) and chunks more: under half the stream, which is not held whole."""
    values, stream = direct_stream()
    stored = compress_stream(stream, CompressionKind.ZLIB, BLOCK)
    chunked = ChunkedStream(memoryview(stored), CompressionKind.ZLIB, BLOCK, 0)
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        decoded = IntRleV2Reader(chunked.chunks(), signed=True).read(len(values))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert decoded.tolist() == values.tolist()
    assert peak - start < values.nbytes + len(stream) // 2


def test_decimal_varints_across_chunks_and_batches() -> None:
    """Decimals of 1 to 19 varint bytes in a ZLIB file of 100-byte chunks (boundaries inside
    varints), more than a batch of short ones (SHORT_VARINT_BATCH), long ones among them."""
    rng = np.random.default_rng(3)
    digits = rng.integers(1, 39, 40_000)
    unscaled = [int(rng.integers(0, 10**9)) * 10**int(d - 9) if d > 9 else int(rng.integers(0, 10**int(d)))
                for d in digits.tolist()]
    rows = [{"d": value if number % 3 else -value} for number, value in enumerate(unscaled)]
    schema = struct({"d": decimal(38, 2)})
    data = write_orc(schema, rows, OrcWriterOptions(compression=CompressionKind.ZLIB,
                                                    compression_block_size=100))
    assert read_orc(data).rows == rows


def _data_chunks(data: bytes) -> list[int]:
    """The file offsets of the chunks of column 1's DATA stream in the first stripe."""
    tail = read_file_tail(data, decompress_stream)
    codec = StreamCodec.of(tail)
    footer = read_stripe_footer(data, tail, 0, codec.decompress)
    [place] = [p for p in stream_places(tail.footer.stripes[0], footer, 0)
               if (p.column, p.kind) == (1, StreamKind.DATA)]
    chunks = read_chunks(place.stored(data), codec.kind, codec.block_size, place.offset)
    return [chunk.offset for chunk in chunks]


@pytest.mark.parametrize("kind", [TypeKind.LONG, TypeKind.DOUBLE])
def test_a_chunk_that_does_not_inflate_is_named_by_its_offset(kind: TypeKind) -> None:
    """The codec's error, at the chunk's header, whether the reader reaches it through an
    RLE reader (LONG) or a ByteCursor (DOUBLE), half way through the stream."""
    rows = [{"n": number * 7919 % 100_003 if kind == TypeKind.LONG else number / 7}
            for number in range(5_000)]
    options = OrcWriterOptions(compression=CompressionKind.ZLIB, compression_block_size=1000)
    data = bytearray(write_orc(struct({"n": primitive(kind)}), rows, options))
    offsets = _data_chunks(bytes(data))
    assert len(offsets) > 3
    bad = offsets[len(offsets) // 2]
    body = offsets[len(offsets) // 2 + 1] - bad - 3
    data[bad:bad + 3 + body] = (body << 1).to_bytes(3, "little") + b"\xff" * body
    with pytest.raises(DecompressionFailed, match="^ZLIB chunk of") as raised:
        read_orc(bytes(data))
    assert raised.value.offset == bad
