"""The row group index the reference writer writes (ORCv1.md, 'Row Group Index').

Every position is checked against its stream (reading from it gives the row group's
values), pyorc seeks with it to rows at and inside every row group (every type, codec
and file version), pyarrow reads the files, and pyorc's own index for the same data has
the same shape and the same counts.
"""

from __future__ import annotations

import datetime
import decimal
import io
import struct as packing
import zoneinfo
from dataclasses import dataclass
from itertools import accumulate
from typing import cast

import pyarrow.orc
import pyorc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.orc.encodings.boolean_rle import BITS_PER_BYTE, BooleanRleReader
from reference_impl.orc.encodings.byte_rle import ByteRleReader
from reference_impl.orc.encodings.int_rle_v1 import IntRleV1Reader
from reference_impl.orc.encodings.int_rle_v2 import IntRleV2Reader
from reference_impl.orc.encodings.run_reader import RunReader
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import RowIndex, StripeFooter, decode
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, CompressionKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode, list_of, map_of, numbered, primitive, struct
from reference_impl.orc.metadata.type_tree import decimal as decimal_type
from reference_impl.orc.streams.compression import decompress_stream, read_chunks
from reference_impl.orc.varint import read_svarint
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_samples import ALL_TYPES, K, every_type_row, row_strategy

S = StreamKind
E = ColumnEncodingKind
STRIDE = 10
ROWS = 160
STRIPE_ROWS = 75  # not a multiple of the stride: each stripe ends with a short row group
BLOCK_SIZE = 64  # many compression chunks, positions inside them
CODECS = [CompressionKind.NONE, CompressionKind.ZLIB, CompressionKind.ZSTD]
VERSIONS = ["0.11", "0.12"]


def _row(i: int) -> dict[str, object]:
    return every_type_row(i, 120, empty_bytes=False)


ALL_ROWS = [_row(i) for i in range(ROWS)]
COLUMNS = numbered(ALL_TYPES)  # with column ids
LONG = primitive(K.LONG)


def _file(codec: CompressionKind, version: str, **options: object) -> bytes:
    return write_orc(ALL_TYPES, ALL_ROWS, OrcWriterOptions(
        row_index_stride=STRIDE, compression=codec, compression_block_size=BLOCK_SIZE, file_version=version,
        stripe_row_limit=STRIPE_ROWS, **options))  # type: ignore[arg-type]


@dataclass
class StripeIndex:
    """One stripe's row indexes, streams (raw and decompressed) and encodings."""

    indexes: dict[int, RowIndex]
    raw: dict[tuple[int, int], bytes]
    data: dict[tuple[int, int], bytes]
    encodings: list[int]
    number_of_rows: int
    index_streams_first: bool


def stripe_indexes(file: bytes) -> tuple[list[StripeIndex], CompressionKind]:
    tail = read_file_tail(file, decompress_stream)
    codec = CompressionKind(tail.postscript.compression or 0)
    block = tail.postscript.compression_block_size or 0

    def plain(raw: bytes, offset: int = 0) -> bytes:
        return decompress_stream(raw, codec, block, offset)

    stripes = []
    for info in tail.footer.stripes:
        assert info.offset is not None and info.index_length is not None and info.data_length is not None
        footer_start = info.offset + info.index_length + info.data_length
        footer = decode(StripeFooter, plain(file[footer_start:footer_start + (info.footer_length or 0)]))
        raw, offset, kinds = {}, info.offset, []
        for stream in footer.streams:
            raw[(stream.column or 0, stream.kind or 0)] = file[offset:offset + (stream.length or 0)]
            offset += stream.length or 0
            kinds.append(stream.kind)
        index_count = sum(kind == S.ROW_INDEX for kind in kinds)
        stripes.append(StripeIndex(
            indexes={column: decode(RowIndex, plain(data)) for (column, kind), data in raw.items()
                     if kind == S.ROW_INDEX},
            raw=raw, data={key: plain(data) for key, data in raw.items()},
            encodings=[encoding.kind or 0 for encoding in footer.columns],
            number_of_rows=info.number_of_rows or 0,
            index_streams_first=all(kind == S.ROW_INDEX for kind in kinds[:index_count])))
    return stripes, codec


# ---------------------------------------------------------------------------
# Positions worked out by hand (Integer RLE v1, 'Row Group Index')
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("values", "stride", "expected"), [
    # one run of 25 (header 22, delta 1, base 0): each group skips into it
    (list(range(25)), 10, [[0, 0], [0, 10], [0, 20]]),
    # PRESENT bits 0111 1111, 1111 1111, 1111 1111, 1 -> a literal list of 4 bytes; row 10
    # is byte 1, bit 2; the data run 1..24 is skipped 9 and 19 values in
    ([None, *range(1, 25)], 10, [[0, 0, 0, 0, 0], [0, 1, 2, 0, 9], [0, 2, 4, 0, 19]]),
    # runs of at most 130 values: 0..129 in 3 bytes, then 130..259 (base 260 zigzagged: 2 bytes)
    (list(range(300)), 100, [[0, 0], [0, 100], [3, 70]]),
])
def test_positions_worked_out_by_hand(values: list[int | None], stride: int,
                                      expected: list[list[int]]) -> None:
    file = write_orc(struct({"n": primitive(K.LONG)}), [{"n": value} for value in values],
                     OrcWriterOptions(row_index_stride=stride, file_version="0.11"))
    (stripe,), _ = stripe_indexes(file)
    assert [entry.positions for entry in stripe.indexes[1].entry] == expected
    assert [entry.positions for entry in stripe.indexes[0].entry] == [[]] * len(expected)


# ---------------------------------------------------------------------------
# Every position read back against its stream (top-level primitive columns)
# ---------------------------------------------------------------------------

# How many numbers each stream's position has (without a codec), per column kind, in
# the order of 'Column Encodings'; "raw" streams have a byte offset only.
BOOLEAN, RLE, RAW = "boolean", "rle", "raw"
WIDTH = {BOOLEAN: 3, RLE: 2, RAW: 1}
LAYOUTS: dict[K, list[tuple[StreamKind, str]]] = {
    K.BOOLEAN: [(S.DATA, BOOLEAN)], K.BYTE: [(S.DATA, RLE)],
    **{kind: [(S.DATA, RLE)] for kind in (K.SHORT, K.INT, K.LONG, K.DATE)},
    **{kind: [(S.DATA, RLE), (S.SECONDARY, RLE)] for kind in (K.TIMESTAMP, K.TIMESTAMP_INSTANT)},
    K.FLOAT: [(S.DATA, RAW)], K.DOUBLE: [(S.DATA, RAW)], K.DECIMAL: [(S.DATA, RAW), (S.SECONDARY, RLE)],
    **{kind: [(S.DATA, RAW), (S.LENGTH, RLE)] for kind in (K.STRING, K.CHAR, K.VARCHAR, K.BINARY)},
}
DICTIONARY_LAYOUT = [(S.DATA, RLE)]
SIGNED = {(kind, S.DATA) for kind in (K.SHORT, K.INT, K.LONG, K.DATE, K.TIMESTAMP, K.TIMESTAMP_INSTANT)}
SIGNED |= {(K.DECIMAL, S.SECONDARY)}


def _decompressed_offset(raw: bytes, codec: CompressionKind, chunk_start: int, inside: int) -> int:
    """The offset in the decompressed stream of ``inside`` bytes into the chunk at ``chunk_start``."""
    chunks = read_chunks(raw, codec, BLOCK_SIZE, 0)
    starts = dict(zip([chunk.offset for chunk in chunks] + [len(raw)],
                      accumulate([len(chunk.data) for chunk in chunks], initial=0), strict=True))
    return starts[chunk_start] + inside


def _split(positions: list[int], layout: list[tuple[StreamKind, str]], stripe: StripeIndex, column: int,
           codec: CompressionKind) -> dict[StreamKind, list[int]]:
    """Each stream's position, its byte offset made an offset into the decompressed stream."""
    found, at = {}, 0
    extra = codec != CompressionKind.NONE
    for kind, unit in layout:
        numbers = positions[at:at + WIDTH[unit] + extra]
        at += WIDTH[unit] + extra
        if extra:
            offset = _decompressed_offset(stripe.raw[(column, kind)], codec, numbers[0], numbers[1])
            numbers = [offset, *numbers[2:]]
        found[kind] = numbers
    assert at == len(positions), "every position number belongs to a stream"
    return found


def _rle(data: bytes, position: list[int], node: TypeNode, kind: StreamKind,
         v2: bool) -> IntRleV1Reader | IntRleV2Reader:
    reader_class = IntRleV2Reader if v2 else IntRleV1Reader
    reader = reader_class(data, start=position[0], signed=(node.kind, kind) in SIGNED)
    reader.skip(position[1])
    return reader


def _check_value(node: TypeNode, kind: StreamKind, unit: str, data: bytes, position: list[int],
                 values: list[object], before: int, v2: bool) -> None:
    """Reading ``data`` from ``position`` gives the row group's first value (raw streams)
    or the same values as reading the whole stream past the ``before`` earlier ones."""
    first = values[0]
    if unit == BOOLEAN:
        booleans = BooleanRleReader(data, start=position[0])
        booleans.skip(position[1] * BITS_PER_BYTE + position[2])
        assert booleans.read(len(values)).tolist() == values
    elif node.kind == K.BYTE:
        bytes_reader = ByteRleReader(data, start=position[0])
        bytes_reader.skip(position[1])
        assert list(packing.unpack(f"{len(values)}b", bytes(bytes_reader.read(len(values))))) == values
    elif unit == RLE:
        whole = _rle(data, [0, 0], node, kind, v2)
        whole.skip(before)
        expected = whole.read(len(values)).tolist()
        assert _rle(data, position, node, kind, v2).read(len(values)).tolist() == expected
    elif node.kind in (K.FLOAT, K.DOUBLE):
        form = "<f" if node.kind == K.FLOAT else "<d"
        assert packing.unpack_from(form, data, position[0])[0] == first
    elif node.kind == K.DECIMAL:
        assert read_svarint(data, position[0])[0] == first
    else:
        encoded = first if isinstance(first, bytes) else str(first).encode()
        assert data[position[0]:position[0] + len(encoded)] == encoded


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("codec", CODECS)
def test_every_position_starts_its_row_group(codec: CompressionKind, version: str) -> None:
    stripes, _ = stripe_indexes(_file(codec, version))
    checked = 0
    first_row = 0
    for stripe in stripes:
        rows = ALL_ROWS[first_row:first_row + stripe.number_of_rows]
        first_row += stripe.number_of_rows
        for name, node in zip(COLUMNS.field_names, COLUMNS.children, strict=True):
            if node.kind not in LAYOUTS:
                continue
            column = node.column_id
            dictionary = stripe.encodings[column] in (E.DICTIONARY, E.DICTIONARY_V2)
            layout = DICTIONARY_LAYOUT if dictionary else LAYOUTS[node.kind]
            has_present = (column, S.PRESENT) in stripe.data
            entries = stripe.indexes[column].entry
            assert len(entries) == -(-len(rows) // STRIDE)
            for group, entry in enumerate(entries):
                start = group * STRIDE
                group_rows = [row[name] for row in rows[start:start + STRIDE]]
                values = [value for value in group_rows if value is not None]
                before = sum(row[name] is not None for row in rows[:start])
                positions = _split(entry.positions, ([(S.PRESENT, BOOLEAN)] if has_present else []) + layout,
                                   stripe, column, codec)
                if has_present:
                    _check_value(node, S.PRESENT, BOOLEAN, stripe.data[(column, S.PRESENT)],
                                 positions.pop(S.PRESENT), [value is not None for value in group_rows], start,
                                 False)
                for kind, unit in layout:
                    if values:
                        _check_value(node, kind, unit, stripe.data[(column, kind)], positions[kind], values,
                                     before, stripe.encodings[column] in (E.DIRECT_V2, E.DICTIONARY_V2))
                        checked += 1
                statistics = entry.statistics
                assert statistics is not None and statistics.number_of_values == len(values)
                assert bool(statistics.has_null) == (len(values) != len(group_rows))
    assert checked > 200


def test_row_index_streams_lead_the_stripe_and_carry_typed_statistics() -> None:
    stripes, _ = stripe_indexes(_file(CompressionKind.NONE, "0.12"))
    assert all(stripe.index_streams_first for stripe in stripes)
    assert all(sorted(stripe.indexes) == list(range(len(list(ALL_TYPES.walk())))) for stripe in stripes)
    int_column = COLUMNS.children[COLUMNS.field_names.index("int")].column_id
    first = stripes[0].indexes[int_column].entry[1].statistics
    assert first is not None and first.int_statistics is not None
    group = [cast(int, row["int"]) for row in ALL_ROWS[STRIDE:2 * STRIDE] if row["int"] is not None]
    assert (first.int_statistics.minimum, first.int_statistics.maximum) == (min(group), max(group))
    root = stripes[0].indexes[0].entry
    assert [entry.statistics.number_of_values for entry in root if entry.statistics] == [10] * 7 + [5]
    assert all(entry.positions == [] for entry in root)


def test_no_stride_no_row_index() -> None:
    file = write_orc(ALL_TYPES, ALL_ROWS, OrcWriterOptions(stripe_row_limit=STRIPE_ROWS))
    stripes, _ = stripe_indexes(file)
    assert all(stripe.indexes == {} for stripe in stripes)


# ---------------------------------------------------------------------------
# Positions inside runs, on random integers (hypothesis)
# ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(values=st.lists(st.one_of(st.none(), st.integers(-3, 3), st.integers(-(2**40), 2**40)), max_size=80),
       stride=st.integers(1, 12), version=st.sampled_from(VERSIONS))
def test_integer_positions_on_random_runs(values: list[int | None], stride: int, version: str) -> None:
    schema = struct({"n": primitive(K.LONG)})
    file = write_orc(schema, [{"n": value} for value in values],
                     OrcWriterOptions(row_index_stride=stride, file_version=version))
    stripes, _ = stripe_indexes(file)
    for stripe in stripes:
        present = (1, S.PRESENT) in stripe.data
        for group, entry in enumerate(stripe.indexes[1].entry):
            in_group = values[group * stride:(group + 1) * stride]
            group_values = [value for value in in_group if value is not None]
            data_position = entry.positions[3:] if present else entry.positions  # after PRESENT's 3
            reader = _rle(stripe.data[(1, S.DATA)], data_position, LONG, S.DATA, version == "0.12")
            assert reader.read(len(group_values)).tolist() == group_values


# ---------------------------------------------------------------------------
# pyorc seeks with the index; pyarrow reads the files
# ---------------------------------------------------------------------------


def _seek_targets() -> list[int]:
    """Rows at, in the middle of and at the end of every row group. (Not one past a row
    group's start: when all the rows it skips are null, ORC C++ 2.3 skips zero bytes of a
    string column right after the seek and fails, in its own files too.)"""
    starts = [stripe + group for stripe in range(0, ROWS, STRIPE_ROWS)
              for group in range(0, min(STRIPE_ROWS, ROWS - stripe), STRIDE)]
    return sorted({row for start in starts for row in (start, start + STRIDE // 2, start + STRIDE - 1)
                   if row < ROWS})


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("codec", CODECS)
def test_pyorc_seeks_to_every_row_group(codec: CompressionKind, version: str) -> None:
    reader = pyorc.Reader(io.BytesIO(_file(codec, version)))
    assert reader.row_index_stride == STRIDE
    everything = list(reader)
    assert len(everything) == ROWS
    for row in _seek_targets():
        reader.seek(row)
        taken = [next(reader) for _ in range(min(STRIDE + 1, ROWS - row))]
        assert repr(taken) == repr(everything[row:row + len(taken)]), row


PYTHON_DAYS = 700_000  # pyorc reads a DATE as a datetime.date: about 1970 ± 1900 years


def _python_date(row: dict[str, object]) -> dict[str, object]:
    days = row["date"]
    return {**row, "date": days % PYTHON_DAYS if isinstance(days, int) else None}


@settings(max_examples=15, deadline=None)
@given(rows=st.lists(row_strategy().map(_python_date), min_size=1, max_size=30), stride=st.integers(1, 9),
       limit=st.integers(1, 40), codec=st.sampled_from(CODECS), version=st.sampled_from(VERSIONS))
def test_pyorc_seeks_to_row_groups_of_random_rows(rows: list[dict[str, object]], stride: int, limit: int,
                                                  codec: CompressionKind, version: str) -> None:
    file = write_orc(ALL_TYPES, rows, OrcWriterOptions(row_index_stride=stride, stripe_row_limit=limit,
                                                       compression=codec, compression_block_size=BLOCK_SIZE,
                                                       file_version=version))
    reader = pyorc.Reader(io.BytesIO(file))
    everything = list(reader)
    group_starts = {stripe + group for stripe in range(0, len(rows), limit)
                    for group in range(0, min(limit, len(rows) - stripe), stride)}
    for row in sorted(group_starts):
        reader.seek(row)
        assert repr(next(reader)) == repr(everything[row])


def test_pyorc_seeks_by_the_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seek test above fails when every position says 'the stream's start'."""
    monkeypatch.setattr(RunReader, "run_position", property(lambda reader: (0, 0)))
    reader = pyorc.Reader(io.BytesIO(_file(CompressionKind.NONE, "0.12")))
    everything = list(reader)
    reader.seek(2 * STRIDE)
    assert next(reader) != everything[2 * STRIDE]


@pytest.mark.parametrize("codec", CODECS)
def test_pyarrow_reads_files_with_a_row_index(codec: CompressionKind) -> None:
    with_index = pyarrow.orc.ORCFile(io.BytesIO(_file(codec, "0.12"))).read()
    without = pyarrow.orc.ORCFile(io.BytesIO(write_orc(ALL_TYPES, ALL_ROWS, OrcWriterOptions(
        compression=codec, stripe_row_limit=STRIPE_ROWS)))).read()
    assert with_index.num_rows == ROWS and with_index.equals(without)


# ---------------------------------------------------------------------------
# The same shape as pyorc's index of the same data
# ---------------------------------------------------------------------------

COMPARED = struct({"b": primitive(K.BOOLEAN), "t": primitive(K.BYTE), "i": primitive(K.INT),
                   "f": primitive(K.DOUBLE), "s": primitive(K.STRING), "d": decimal_type(10, 2),
                   "dt": primitive(K.DATE), "ts": primitive(K.TIMESTAMP), "l": list_of(primitive(K.INT)),
                   "m": map_of(primitive(K.STRING), primitive(K.INT)), "st": struct({"x": primitive(K.INT)})})
COMPARED_SCHEMA = ("struct<b:boolean,t:tinyint,i:int,f:double,s:string,d:decimal(10,2),dt:date,ts:timestamp,"
                   "l:array<int>,m:map<string,int>,st:struct<x:int>>")
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def _compared_row(i: int) -> dict[str, object]:
    row: dict[str, object] = {"b": i % 3 == 0, "t": i % 100 - 50, "i": i * i, "f": i / 4, "s": f"s{i}",
                              "d": i * 101, "dt": 18000 + i, "ts": i * 10**9, "l": [i, None][:i % 3],
                              "m": {f"k{i % 4}": i} if i % 2 else {}, "st": {"x": i if i % 3 else None}}
    return {name: None if (i + number) % 7 == 0 else value
            for number, (name, value) in enumerate(row.items())}


def _pyorc_value(name: str, value: object) -> object:
    if value is None or name not in ("d", "dt", "ts", "st"):
        return value
    if isinstance(value, dict):  # pyorc takes a struct as a tuple
        return tuple(value.values())
    assert isinstance(value, int)
    if name == "d":
        return decimal.Decimal(value).scaleb(-2)
    if name == "dt":
        return datetime.date(1970, 1, 1) + datetime.timedelta(days=value)
    return EPOCH + datetime.timedelta(seconds=value // 10**9)


@pytest.mark.parametrize("threshold", [0.0, 1.0])  # strings direct; strings (and keys) a dictionary
@pytest.mark.parametrize("codec", CODECS)
def test_same_shape_and_counts_as_pyorc(codec: CompressionKind, threshold: float) -> None:
    rows = [_compared_row(i) for i in range(95)]
    ours = write_orc(COMPARED, rows, OrcWriterOptions(row_index_stride=STRIDE, compression=codec,
                                                      dictionary_key_threshold=threshold))
    sink = io.BytesIO()
    with pyorc.Writer(sink, COMPARED_SCHEMA, row_index_stride=STRIDE,
                      compression=pyorc.CompressionKind(codec), timezone=zoneinfo.ZoneInfo("UTC"),
                      dict_key_size_threshold=threshold) as writer:
        writer.writerows(tuple(_pyorc_value(name, row[name]) for name in COMPARED.field_names)
                         for row in rows)
    (our_stripe,), _ = stripe_indexes(ours)
    (their_stripe,), _ = stripe_indexes(sink.getvalue())
    assert our_stripe.encodings == their_stripe.encodings
    assert sorted(our_stripe.indexes) == sorted(their_stripe.indexes)
    for column, index in our_stripe.indexes.items():
        theirs = their_stripe.indexes[column].entry
        assert [len(entry.positions) for entry in index.entry] == [len(entry.positions) for entry in theirs]
        for mine, their in zip(index.entry, theirs, strict=True):
            assert mine.statistics is not None and their.statistics is not None
            assert mine.statistics.number_of_values == their.statistics.number_of_values
            assert bool(mine.statistics.has_null) == bool(their.statistics.has_null)
            assert mine.statistics.int_statistics == their.statistics.int_statistics
