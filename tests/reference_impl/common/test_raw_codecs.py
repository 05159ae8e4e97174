"""The neutral floor's size-capped raw codecs (reference_impl/common/raw_codecs.py): each
round-trips, none returns or allocates more than its limit, and every fault is a CodecError
that each format turns into its own documented error."""

from __future__ import annotations

import tracemalloc
import zlib

import pytest

from reference_impl.common import raw_codecs as raw
from reference_impl.common.raw_codecs import CodecError

RAW_DEFLATE = -zlib.MAX_WBITS
DATA = b"columnar conformance " * 500
# A limit far above what the compressed bytes of a bomb could be allowed to claim.
HUGE_LIMIT = 1 << 40
# The most a decompression may allocate for the small bombs below.
ALLOCATION_BUDGET = 16 << 20

CODECS = {
    "snappy": (raw.snappy_compress, raw.snappy_decompress),
    "deflate": (lambda data: raw.deflate_compress(data, 6, RAW_DEFLATE),
                lambda data, limit: raw.inflate(data, limit, RAW_DEFLATE)[0]),
    "lz4": (raw.lz4_block_compress, raw.lz4_block_decompress),
    "lzo": (raw.lzo_compress, raw.lzo_decompress),
    "zstd": (lambda data: raw.zstd_compress(data, 3), raw.zstd_decompress),
    "brotli": (lambda data: raw.brotli_compress(data, 5), raw.brotli_decompress),
}


@pytest.mark.parametrize("name", CODECS)
def test_round_trip(name: str) -> None:
    compress, decompress = CODECS[name]
    assert decompress(compress(DATA), len(DATA)) == DATA


@pytest.mark.parametrize("name", CODECS)
def test_output_past_the_limit_is_refused(name: str) -> None:
    compress, decompress = CODECS[name]
    with pytest.raises(Exception) as raised:
        decompress(compress(DATA), len(DATA) - 1)
    # The library's own verdict (LZ4's and Snappy's fixed buffers) or the floor's.
    assert isinstance(raised.value, CodecError) or "buffer" in str(raised.value).lower() \
        or raised.type.__module__.split(".")[0] in ("lz4", "cramjam", "lzallright")


@pytest.mark.parametrize("name", CODECS)
def test_a_bomb_allocates_within_budget(name: str) -> None:
    """64 MiB of zeros, decompressed under a huge limit: the buffer is sized by what the
    compressed bytes can fill, so the floor never trusts the limit alone."""
    compress, decompress = CODECS[name]
    bomb = compress(bytes(64 << 20))
    tracemalloc.start()
    try:
        decompress(bomb, 1 << 20)
    except Exception:  # noqa: BLE001 - refusing is the point; the allocation is measured
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # lzallright has no output cap: only LZO1X's own bound per input byte holds there.
    budget = len(bomb) * raw.LZO_MAX_EXPANSION if name == "lzo" else ALLOCATION_BUDGET
    assert peak < max(budget, ALLOCATION_BUDGET)


def test_snappy_preamble_beyond_the_limit_is_refused_before_allocating() -> None:
    block = raw.snappy_compress(DATA)
    assert raw.snappy_stated_length(block) == len(DATA)
    with pytest.raises(CodecError, match="exceeds the uncompressed size of 10 bytes"):
        raw.snappy_decompress(block, 10)


def test_a_truncated_deflate_stream_is_a_codec_error() -> None:
    stream = raw.deflate_compress(DATA, 6, RAW_DEFLATE)
    with pytest.raises(CodecError, match="truncated"):
        raw.inflate(stream[:len(stream) // 2], len(DATA), RAW_DEFLATE)


def test_inflate_returns_what_follows_the_stream() -> None:
    stream = raw.deflate_compress(b"abc", 6, RAW_DEFLATE)
    assert raw.inflate(stream + b"tail", 3, RAW_DEFLATE) == (b"abc", b"tail")


def test_a_truncated_brotli_stream_is_a_codec_error() -> None:
    stream = raw.brotli_compress(DATA, 5)
    with pytest.raises(CodecError, match="truncated"):
        raw.brotli_decompress(stream[:len(stream) // 2], len(DATA))
