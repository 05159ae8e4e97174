"""Cross-checks against ORC files written by pyarrow.orc and pyorc (ORC's C++ writer),
uncompressed: our readers decode their streams, and our writers reproduce those streams
byte for byte (ORCv1.md, 'Run Length Encoding'; the writers' run choices for 'Integer Run
Length Encoding, version 2')."""

from __future__ import annotations

import random
from collections.abc import Callable

import pyarrow as pa
import pytest

from reference_impl.orc.encodings.boolean_rle import decode_booleans, encode_booleans
from reference_impl.orc.encodings.byte_rle import decode_bytes, encode_bytes
from reference_impl.orc.encodings.int_rle_v1 import decode_ints_v1, encode_ints_v1
from reference_impl.orc.encodings.int_rle_v2 import decode_ints_v2, encode_ints_v2, sub_encodings
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind
from tests.reference_impl.orc.orc_file_streams import file_streams, pyarrow_orc, pyorc_file

BYTE_VALUES = 256
_RANDOM = random.Random(20240601)


def _outliers(count: int, sign: int) -> list[int]:
    return [_RANDOM.randint(0, 100) if _RANDOM.random() > 0.03 else sign * _RANDOM.randint(0, 1 << 40)
            for _ in range(count)]


INT_CASES: dict[str, list[int]] = {
    "sorted": sorted(_RANDOM.randint(0, 10**6) for _ in range(1500)),
    "constant": [7] * 1200,
    "random small": [_RANDOM.randint(0, 100) for _ in range(1500)],
    "rare big outliers": _outliers(1500, 1),
    "negative outliers": _outliers(1500, -1),
    "short": [1, 2],
    "three equal": [5, 5, 5],
    "mixed runs": [value for value in (_RANDOM.randint(0, 5) for _ in range(200))
                   for _ in range(_RANDOM.randint(1, 15))],
    "decreasing": list(range(5000, 0, -3)),
    "64-bit edges": [-(1 << 63), (1 << 63) - 1, 0, -1, 1] * 20,
}


def _bigint_file(writer: str, values: list[int], version: str = "0.12") -> bytes:
    if writer == "pyarrow":
        return pyarrow_orc(pa.table({"x": pa.array(values, pa.int64())}), compression="uncompressed",
                           file_version=version)
    assert version == "0.12", "pyorc writes only file version 0.12"
    return pyorc_file("struct<x:bigint>", [(value,) for value in values], compression=0)


def _stream(file: bytes, column: int, kind: StreamKind) -> tuple[bytes, ColumnEncodingKind | int]:
    (stream,) = [s for s in file_streams(file) if s.column == column and s.kind == kind]
    return stream.data, stream.encoding


@pytest.mark.parametrize("writer", ["pyarrow", "pyorc"])
@pytest.mark.parametrize("case", INT_CASES)
def test_rle_v2_matches_real_writers(writer: str, case: str) -> None:
    values = INT_CASES[case]
    data, encoding = _stream(_bigint_file(writer, values), 1, StreamKind.DATA)
    assert encoding == ColumnEncodingKind.DIRECT_V2
    assert decode_ints_v2(data, len(values), signed=True) == values
    ours = encode_ints_v2(values, signed=True)
    assert sub_encodings(ours, len(values), signed=True) == sub_encodings(data, len(values), signed=True)
    assert ours == data


def test_rle_v1_matches_pyarrow() -> None:
    values = INT_CASES["mixed runs"] + INT_CASES["random small"] + INT_CASES["64-bit edges"]
    data, encoding = _stream(_bigint_file("pyarrow", values, "0.11"), 1, StreamKind.DATA)
    assert encoding == ColumnEncodingKind.DIRECT
    assert decode_ints_v1(data, len(values), signed=True) == values
    assert encode_ints_v1(values, signed=True) == data


@pytest.mark.parametrize("version", ["0.11", "0.12"])
def test_byte_boolean_and_unsigned_streams(version: str) -> None:
    count = 2000
    tiny = [_RANDOM.choice([_RANDOM.randint(-128, 127), 5, 5, 5]) for _ in range(count)]
    flags = [_RANDOM.random() < 0.9 for _ in range(count)]
    maybe = [None if _RANDOM.random() < 0.3 else _RANDOM.randint(0, 9) for _ in range(count)]
    text = [_RANDOM.choice(["a", "bb", "x" * _RANDOM.randint(0, 40)]) for _ in range(count)]
    table = pa.table({"t": pa.array(tiny, pa.int8()), "b": pa.array(flags),
                      "n": pa.array(maybe, pa.int32()), "s": pa.array(text)})
    file = pyarrow_orc(table, compression="uncompressed", file_version=version,
                       dictionary_key_size_threshold=0)
    decode: Callable[..., list[int]] = decode_ints_v2 if version == "0.12" else decode_ints_v1
    encode: Callable[..., bytes] = encode_ints_v2 if version == "0.12" else encode_ints_v1

    tiny_bytes = [value % BYTE_VALUES for value in tiny]
    data, _ = _stream(file, 1, StreamKind.DATA)
    assert decode_bytes(data, count) == tiny_bytes and encode_bytes(tiny_bytes) == data
    data, _ = _stream(file, 2, StreamKind.DATA)
    assert decode_booleans(data, count) == flags and encode_booleans(flags) == data
    present = [value is not None for value in maybe]
    data, _ = _stream(file, 3, StreamKind.PRESENT)
    assert decode_booleans(data, count) == present and encode_booleans(present) == data
    lengths = [len(value) for value in text]
    data, _ = _stream(file, 4, StreamKind.LENGTH)
    assert decode(data, count, signed=False) == lengths and encode(lengths, signed=False) == data
