"""Reading row ranges through the row index, and checking every recorded position.

ORCv1.md, 'Row Group Index'. Files are written during the test run by the reference
writer, pyarrow (ORC C++), pyorc (ORC C++) and Spark (ORC Java): many types, nulls
(PRESENT streams), strings direct and as a dictionary, every codec each writer has,
compression blocks far smaller than a row group (positions inside chunks), file versions
0.11 and 0.12, several stripes. For each file, ``read_row_range`` from the first row, a
row inside a row group, a row group's first row, a stripe's first row and the last row
returns what the full read's slice holds, through the index; and
``check_row_index_positions`` passes every check. Positions rewritten in a file (the
project's protobuf codec) are reported by stripe, column, row group and stream.
"""

from __future__ import annotations

import datetime
import decimal
import glob
import io
import zoneinfo
from collections import Counter

import pyarrow as pa
import pyarrow.orc
import pyorc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.orc.errors import CorruptStream, DecompressionFailed
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import RowIndex, decode, encode
from reference_impl.orc.metadata.proto_enums import CompressionKind, StreamKind
from reference_impl.orc.metadata.type_tree import from_types, numbered
from reference_impl.orc.reader import read_orc
from reference_impl.orc.row_index_check import (
    POSITION,
    POSITION_COUNT,
    PositionCheck,
    check_row_index_positions,
)
from reference_impl.orc.row_index_positions import (
    PositionUnit,
    positioned_streams,
    read_row_indexes,
    split_positions,
)
from reference_impl.orc.row_index_seek import read_row_range
from reference_impl.orc.streams.compression import compress_stream, decompress_stream
from reference_impl.orc.streams.stripe_layout import (
    StreamCodec,
    StreamPlace,
    read_stripe_footer,
    stream_places,
)
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_samples import ALL_TYPES, every_type_row, row_strategy

C = CompressionKind
STRIDE = 10
BLOCK_SIZE = 64  # many compression chunks per stream: row groups start inside chunks
UTC = zoneinfo.ZoneInfo("UTC")
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)


def _starts(file: bytes, stride: int) -> list[int]:
    """In the first, second, a middle and the last stripe: its first row, a row inside
    its first row group, the next two row groups' first rows and a row inside the
    second, and its last row (the file's last row in the last stripe)."""
    tail = read_file_tail(file, decompress_stream)
    sizes = [stripe.number_of_rows or 0 for stripe in tail.footer.stripes]
    firsts = [sum(sizes[:number]) for number in range(len(sizes))]
    starts = set()
    for number in {0, 1, len(sizes) // 2, len(sizes) - 1} & set(range(len(sizes))):
        first, rows = firsts[number], sizes[number]
        groups = list(range(first, first + rows, stride))
        starts |= {first, first + rows - 1, *groups[1:3], *(start + stride // 2 for start in groups[:2])}
    return sorted(row for row in starts if 0 <= row < sum(sizes))


def _assert_seeks(file: bytes, stride: int, counts: tuple[int, ...] = (1,)) -> int:
    """read_row_range equals the full read's slice from every start of _starts; the number of reads."""
    everything = read_orc(file).rows
    reads = 0
    for start in _starts(file, stride):
        for count in (*counts, stride + 3):
            found = read_row_range(file, start, count)
            assert found.rows == everything[start:start + count], (start, count)
            assert found.through_index, found.stripes
            reads += 1
    return reads


def _assert_positions_true(file: bytes) -> Counter[str]:
    """Every check passes; the number of checks of each kind."""
    results = check_row_index_positions(file)
    failed = [result for result in results if not result.passed]
    assert not failed, failed[:5]
    counts = Counter(result.check for result in results)
    assert counts[POSITION] > 0
    return counts


# ---------------------------------------------------------------------------
# The reference writer: every type, every codec, both file versions
# ---------------------------------------------------------------------------


def _reference_row(i: int) -> dict[str, object]:
    return every_type_row(i, 60)


REFERENCE_ROWS = [_reference_row(i) for i in range(170)]


@pytest.mark.parametrize("version", ["0.11", "0.12"])
@pytest.mark.parametrize("codec", [C.NONE, C.ZLIB, C.SNAPPY, C.LZO, C.LZ4, C.ZSTD, C.BROTLI])
@pytest.mark.parametrize("threshold", [0.0, 1.0])  # strings direct; strings as a dictionary
def test_reference_files(codec: CompressionKind, version: str, threshold: float) -> None:
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, OrcWriterOptions(
        row_index_stride=STRIDE, compression=codec, compression_block_size=BLOCK_SIZE, file_version=version,
        stripe_row_limit=75, dictionary_key_threshold=threshold))
    assert _assert_seeks(file, STRIDE) > 20
    counts = _assert_positions_true(file)
    assert counts[POSITION_COUNT] == len(list(ALL_TYPES.walk())) * (8 + 8 + 2)  # stripes of 75, 75, 20 rows


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(row_strategy(), min_size=1, max_size=40), stride=st.integers(1, 9),
       limit=st.integers(1, 30), codec=st.sampled_from([C.NONE, C.ZLIB, C.ZSTD]),
       version=st.sampled_from(["0.11", "0.12"]), data=st.data())
def test_random_rows_and_ranges(rows: list[dict[str, object]], stride: int, limit: int,
                                codec: CompressionKind, version: str, data: st.DataObject) -> None:
    file = write_orc(ALL_TYPES, rows, OrcWriterOptions(
        row_index_stride=stride, stripe_row_limit=limit, compression=codec, compression_block_size=BLOCK_SIZE,
        file_version=version))
    start = data.draw(st.integers(0, len(rows)))
    count = data.draw(st.integers(0, len(rows) + 2))
    assert read_row_range(file, start, count).rows == read_orc(file).rows[start:start + count]
    assert all(result.passed for result in check_row_index_positions(file))


def test_without_a_row_index_a_stripe_is_read_from_its_start() -> None:
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, OrcWriterOptions(stripe_row_limit=75))
    found = read_row_range(file, 80, 80)
    assert found.rows == read_orc(file).rows[80:160]
    assert not found.through_index
    assert [(seek.stripe, seek.row_group, seek.rows_dropped) for seek in found.stripes] == [(1, None, 5),
                                                                                             (2, None, 0)]
    assert check_row_index_positions(file) == []


def test_a_range_names_the_row_groups_it_entered() -> None:
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, MUTATED)
    found = read_row_range(file, 97, 60)  # stripe 1 rows 22..74, stripe 2 rows 0..6
    assert [(seek.stripe, seek.row_group, seek.rows_dropped) for seek in found.stripes] == [(1, 2, 2),
                                                                                             (2, 0, 0)]
    assert read_row_range(file, 170, 5).rows == [] and read_row_range(file, 3, 0).rows == []
    with pytest.raises(ValueError, match="row range"):
        read_row_range(file, -1, 2)


# ---------------------------------------------------------------------------
# pyorc (ORC C++): every type it writes, every codec
# ---------------------------------------------------------------------------

PYORC_SCHEMA = ("struct<b:boolean,t:tinyint,si:smallint,i:int,l:bigint,f:float,d:double,s:string,bin:binary,"
                "dec:decimal(12,3),dt:date,ts:timestamp,c:char(4),vc:varchar(6),li:array<int>,"
                "m:map<string,double>,st:struct<x:int,y:string>,u:uniontype<int,string>>")
PYORC_ROWS = 1500
PYORC_STRIDE = 100


def _pyorc_row(i: int) -> tuple[object, ...]:
    """Nulls everywhere but in the union (ORC C++ writes a surplus value for a null union:
    docs/orc-spec-notes.md); values that repeat (runs) and that do not."""
    row = (i % 3 == 0, i % 200 - 100, 7 if i < 500 else i, i * i - 3000, (i // 250) * 10**15, i * 0.5, i / 3,
           f"s{i % 7}" if i % 11 else f"distinct {i}", bytes([i % 256]) * (1 + i % 3),
           decimal.Decimal(i * 1001 - 50000).scaleb(-3),
           datetime.date(1970, 1, 1) + datetime.timedelta(days=i),
           EPOCH + datetime.timedelta(seconds=i * 1000, microseconds=i), f"c{i % 10:03d}", f"v{i}",
           [i, None, i + 1][:i % 4], {f"k{i % 5}": float(i)} if i % 2 else {},
           (i, f"y{i}") if i % 4 else None, i if i % 2 == 0 else f"u{i}")
    return tuple(None if (i + number) % 6 == 0 and number < len(row) - 1 else value
                 for number, value in enumerate(row))


def _pyorc_file(codec: pyorc.CompressionKind, threshold: float) -> bytes:
    sink = io.BytesIO()
    with pyorc.Writer(sink, PYORC_SCHEMA, row_index_stride=PYORC_STRIDE, compression=codec,
                      compression_block_size=BLOCK_SIZE, memory_block_size=BLOCK_SIZE, stripe_size=16384,
                      batch_size=256, timezone=UTC, dict_key_size_threshold=threshold) as writer:
        writer.writerows(_pyorc_row(i) for i in range(PYORC_ROWS))
    return sink.getvalue()


@pytest.mark.parametrize("codec", [pyorc.CompressionKind.NONE, pyorc.CompressionKind.ZLIB,
                                   pyorc.CompressionKind.SNAPPY, pyorc.CompressionKind.LZ4,
                                   pyorc.CompressionKind.ZSTD])
@pytest.mark.parametrize("threshold", [0.0, 1.0])
def test_pyorc_files(codec: pyorc.CompressionKind, threshold: float) -> None:
    file = _pyorc_file(codec, threshold)
    assert len(read_file_tail(file, decompress_stream).footer.stripes) > 1
    assert _assert_seeks(file, PYORC_STRIDE) > 20
    _assert_positions_true(file)


# ---------------------------------------------------------------------------
# pyarrow (ORC C++ through Arrow): both file versions, every codec
# ---------------------------------------------------------------------------

ARROW_ROWS = 6000
ARROW_STRIDE = 100
# pyarrow sets no memory block size, and the compression block must be a multiple of it
# (64 KiB): a long string column makes streams of several chunks instead.
ARROW_BLOCK_SIZE = 65536
ARROW_STRIPE_SIZE = 262144


def _arrow_table() -> pa.Table:
    def column(values: list[object], kind: pa.DataType, null_every: int) -> pa.Array:
        return pa.array([None if i % null_every == 0 else value for i, value in enumerate(values)], kind)

    i = range(ARROW_ROWS)
    return pa.table({
        "b": column([n % 3 == 0 for n in i], pa.bool_(), 7),
        "t": column([n % 200 - 100 for n in i], pa.int8(), 9),
        "si": column([7 if n < 500 else n for n in i], pa.int16(), 11),
        "i": column([n * n for n in i], pa.int32(), 4),
        "l": column([(n // 250) * 10**15 for n in i], pa.int64(), 13),
        "f": column([n / 2 for n in i], pa.float32(), 5),
        "d": column([n / 3 for n in i], pa.float64(), 6),
        "s": column([f"s{n % 7}" for n in i], pa.string(), 8),
        "bin": column([bytes([n % 256]) * (n % 3) for n in i], pa.binary(), 10),
        "dec": column([decimal.Decimal(n).scaleb(-2) for n in i], pa.decimal128(10, 2), 12),
        "dt": column([datetime.date(2000, 1, 1) + datetime.timedelta(days=n) for n in i], pa.date32(), 14),
        "ts": column([datetime.datetime(2020, 1, 1) + datetime.timedelta(seconds=n, microseconds=n)
                      for n in i], pa.timestamp("ns"), 15),
        "li": column([[n, n + 1][:n % 3] for n in i], pa.list_(pa.int32()), 16),
        "m": column([[(f"k{n % 4}", n)] if n % 2 else [] for n in i], pa.map_(pa.string(), pa.int64()), 17),
        "st": column([{"x": n, "y": f"y{n}"} for n in i],
                     pa.struct([("x", pa.int32()), ("y", pa.string())]), 18),
        "txt": column([f"{n:08d}-" * 4 for n in i], pa.string(), 19),
    })


@pytest.mark.parametrize("version", ["0.11", "0.12"])
@pytest.mark.parametrize("codec", ["uncompressed", "zlib", "snappy", "lz4", "zstd"])
def test_pyarrow_files(codec: str, version: str) -> None:
    sink = io.BytesIO()
    pyarrow.orc.write_table(_arrow_table(), sink, file_version=version, compression=codec,
                            compression_block_size=ARROW_BLOCK_SIZE, row_index_stride=ARROW_STRIDE,
                            stripe_size=ARROW_STRIPE_SIZE, batch_size=256,
                            dictionary_key_size_threshold=1.0 if codec == "zlib" else 0.0)  # dictionaries
    file = sink.getvalue()  # 24 stripes uncompressed; compressed, one (ORC C++ counts stored bytes)
    assert _assert_seeks(file, ARROW_STRIDE) > 10
    _assert_positions_true(file)


# ---------------------------------------------------------------------------
# Spark (ORC Java): every codec, both file versions
# ---------------------------------------------------------------------------

SPARK_ROWS = 6000
SPARK_STRIDE = 1000  # ORC Java refuses a stride under 1000
SPARK_BLOCK_SIZE = 4096
SPARK_STRIPE_SIZE = 400_000  # stripes of 5120 and 880 rows
SPARK_SCHEMA = ("b boolean, t tinyint, si smallint, i int, l bigint, f float, d double, s string, "
                "bin binary, dec decimal(10,2), dt date, ts timestamp, li array<int>, m map<string,int>, "
                "st struct<x:int,y:string>")


def _spark_row(i: int) -> tuple[object, ...]:
    row = (i % 3 == 0, i % 200 - 100, 7 if i < 1500 else i, i * i, (i // 700) * 10**15, i / 2, i / 3,
           f"s{i % 7}" if i % 11 else f"distinct {i}", bytearray([i % 256]) * (i % 3),
           decimal.Decimal(i).scaleb(-2), datetime.date(2000, 1, 1) + datetime.timedelta(days=i),
           datetime.datetime(2020, 1, 1) + datetime.timedelta(seconds=i, microseconds=i), [i, i + 1][:i % 3],
           {f"k{i % 4}": i} if i % 2 else {}, (i, f"y{i}"))
    return tuple(None if (i + number) % 6 == 0 else value for number, value in enumerate(row))


@pytest.mark.spark
@pytest.mark.parametrize(("codec", "version"), [("none", "0.12"), ("zlib", "0.11"), ("snappy", "0.12"),
                                                ("lz4", "0.12"), ("zstd", "0.12")])
def test_spark_files(spark, tmp_path, codec: str, version: str) -> None:
    frame = spark.createDataFrame([_spark_row(i) for i in range(SPARK_ROWS)], SPARK_SCHEMA).coalesce(1)
    (frame.write.format("orc").option("compression", codec).option("orc.row.index.stride", str(SPARK_STRIDE))
     .option("orc.compress.size", str(SPARK_BLOCK_SIZE)).option("orc.stripe.size", str(SPARK_STRIPE_SIZE))
     .option("orc.write.format", version).save(str(tmp_path / "out")))
    [path] = glob.glob(str(tmp_path / "out" / "*.orc"))
    with open(path, "rb") as handle:
        file = handle.read()
    assert len(read_file_tail(file, decompress_stream).footer.stripes) > 1
    assert _assert_seeks(file, SPARK_STRIDE) > 10
    _assert_positions_true(file)


# ---------------------------------------------------------------------------
# A position that lies is reported, by stripe, column, row group and stream
# ---------------------------------------------------------------------------

MUTATED = OrcWriterOptions(row_index_stride=STRIDE, stripe_row_limit=75)


def _rewrite_entry(file: bytes, stripe: int, column: int, group: int, positions: list[int]) -> bytes:
    """``file`` with one RowIndexEntry's positions replaced. The ROW_INDEX stream keeps its
    length: stored without a codec, or in original chunks (keep_original_chunks)."""
    tail = read_file_tail(file, decompress_stream)
    codec = StreamCodec.of(tail)
    place = _index_place(file, stripe, column)
    index = decode(RowIndex, codec.decompress(place.stored(file), place.offset))
    index.entry[group].positions = positions
    stored = compress_stream(encode(index), codec.kind, codec.block_size, keep_original=True)
    assert len(stored) == place.length, "the rewritten entry keeps the stream's length"
    return file[:place.offset] + stored + file[place.offset + place.length:]


def _index_place(file: bytes, stripe: int, column: int) -> StreamPlace:
    tail = read_file_tail(file, decompress_stream)
    footer = read_stripe_footer(file, tail, stripe, StreamCodec.of(tail).decompress)
    [place] = [place for place in stream_places(tail.footer.stripes[stripe], footer, stripe)
               if place.column == column and place.kind == StreamKind.ROW_INDEX]
    return place


def _index_stream(file: bytes, stripe: int, column: int) -> bytes:
    place = _index_place(file, stripe, column)
    codec = StreamCodec.of(read_file_tail(file, decompress_stream))
    return codec.decompress(place.stored(file), place.offset)


def _failures(file: bytes) -> list[PositionCheck]:
    return [result for result in check_row_index_positions(file) if not result.passed]


def _column(name: str) -> int:
    root = numbered(ALL_TYPES)
    return root.children[root.field_names.index(name)].column_id


def test_a_run_position_one_value_off_is_reported() -> None:
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, MUTATED)
    column = _column("int")
    index = decode(RowIndex, _index_stream(file, 1, column))
    present, data = index.entry[3].positions[:3], index.entry[3].positions[3:]
    mutated = _rewrite_entry(file, 1, column, 3, [*present, data[0], data[1] + 1])
    [failure] = _failures(mutated)
    assert (failure.stripe, failure.column, failure.row_group, failure.stream, failure.check) == \
        (1, column, 3, "DATA", POSITION)
    assert failure.expected != failure.found
    everything = read_orc(mutated).rows
    assert read_row_range(mutated, 75 + 30, 1).rows != everything[105:106]  # the seek trusts the index


def test_a_present_bit_off_and_a_string_offset_off_are_reported() -> None:
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, MUTATED)
    string = _column("varchar")
    index = decode(RowIndex, _index_stream(file, 0, string))
    positions = list(index.entry[2].positions)  # PRESENT (3), DATA (1), LENGTH (2)
    positions[2] ^= 1
    positions[3] += 1
    mutated = _rewrite_entry(file, 0, string, 2, positions)
    failures = {(failure.row_group, failure.stream) for failure in _failures(mutated)}
    assert failures == {(2, "PRESENT"), (2, "DATA")}


def test_an_entry_with_a_number_too_many_is_reported_and_refused() -> None:
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, MUTATED)
    column = _column("double")
    index = decode(RowIndex, _index_stream(file, 0, column))
    positions = list(index.entry[5].positions)  # PRESENT (3), DATA (1): its 2-byte offset becomes two numbers
    assert len(positions) == 4 and positions[3] >= 128, positions
    mutated = _rewrite_entry(file, 0, column, 5, [*positions[:3], 1, 1])
    [failure] = _failures(mutated)
    assert (failure.row_group, failure.check, failure.expected, failure.found) == \
        (5, POSITION_COUNT, "4 numbers", "5 numbers")
    with pytest.raises(CorruptStream, match="ROW_INDEX entry 5: 5 position numbers"):
        read_row_range(mutated, 55, 2)


def test_a_chunk_offset_that_is_no_chunk_start_is_reported() -> None:
    options = OrcWriterOptions(row_index_stride=STRIDE, stripe_row_limit=75, compression=C.ZLIB,
                               compression_block_size=BLOCK_SIZE, keep_original_chunks=True)
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, options)
    assert all(result.passed for result in check_row_index_positions(file))
    column = _column("double")
    positions = list(decode(RowIndex, _index_stream(file, 0, column)).entry[4].positions)
    positions[4] += 1  # PRESENT (4 numbers with a codec), then DATA's chunk offset
    [failure] = _failures(_rewrite_entry(file, 0, column, 4, positions))
    assert (failure.stripe, failure.column, failure.row_group, failure.stream) == (0, column, 4, "DATA")
    assert "no chunk of the stream starts" in failure.found


# ---------------------------------------------------------------------------
# Findings (docs/orc-spec-notes.md, note 17)
# ---------------------------------------------------------------------------


def test_orc_cpp_records_a_chunk_end_and_writers_record_a_run_end() -> None:
    """ORC C++ (pyorc) records a raw-bytes position that falls on a chunk boundary as the
    end of the chunk before (bytes into it = the chunk's size), not the start of the next;
    and a row group that starts right after a run as that run with all its values
    consumed. Both are the place a reader seeking there stands: the check accepts them."""
    file = _pyorc_file(pyorc.CompressionKind.ZLIB, 1.0)
    tail = read_file_tail(file, decompress_stream)
    codec = StreamCodec.of(tail)
    chunk_ends = run_ends = 0
    nodes = {node.column_id: node for node in from_types(tail.footer.types).walk()}
    for number, information in enumerate(tail.footer.stripes):
        footer = read_stripe_footer(file, tail, number, codec.decompress)
        places = stream_places(information, footer, number)
        for column, index in read_row_indexes(file, places, codec.decompress).items():
            node = nodes[column]
            present = any(place.column == column and place.kind == StreamKind.PRESENT for place in places)
            layout = positioned_streams(node, footer.columns[column].kind or 0, present)
            for entry in index.entry:
                for position in split_positions(entry, layout, True, "", 0).values():
                    chunk_ends += position.unit == PositionUnit.BYTES and position.byte_offset == BLOCK_SIZE
                    run_ends += position.unit == PositionUnit.RUN and position.values > RLE_V2_MAX_RUN // 2
    assert chunk_ends > 0 and run_ends > 0
    _assert_positions_true(file)


RLE_V2_MAX_RUN = 512


def test_orc_cpp_null_unions_are_caught_by_the_positions() -> None:
    """ORC C++ (pyorc 0.12) writes a value into a union's first variant for every null
    union, among the others: the variant's DATA holds 40 values for 20 rows, and both pyorc
    and the reference read row 23 as 11. The row index counts the written values, so the
    first variant's positions disagree with the tags: the check reports them."""
    rows = [(None if i % 3 == 0 else (i if i % 2 else f"s{i}"),) for i in range(60)]
    sink = io.BytesIO()
    with pyorc.Writer(sink, "struct<u:uniontype<int,string>>", row_index_stride=10,
                      compression=pyorc.CompressionKind.NONE) as writer:
        writer.writerows(rows)
    file = sink.getvalue()
    assert list(pyorc.Reader(io.BytesIO(file)))[23] == (11,)  # ORC C++ misreads its own file
    with pytest.raises(CorruptStream, match=r"column 2 \(INT\), stripe 0, DATA stream"):
        read_orc(file)


def test_what_lies_before_the_row_group_is_not_decoded() -> None:
    """A stream's first compression chunk destroyed: the full read fails, a range from a
    row group whose position names a later chunk reads as before."""
    options = OrcWriterOptions(row_index_stride=STRIDE, stripe_row_limit=75, compression=C.ZLIB,
                               compression_block_size=BLOCK_SIZE)
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, options)
    tail = read_file_tail(file, decompress_stream)
    codec = StreamCodec.of(tail)
    footer = read_stripe_footer(file, tail, 0, codec.decompress)
    column = _column("varchar")
    [place] = [place for place in stream_places(tail.footer.stripes[0], footer, 0)
               if place.column == column and place.kind == StreamKind.DATA]
    first, second = codec.chunks(place.stored(file), place.offset)[:2]
    assert not first.original and second.offset - first.offset > 4
    body = first.offset + 3  # after the chunk's 3-byte header: no longer a deflate stream
    mutated = file[:body] + b"\xff" * 4 + file[body + 4:]
    with pytest.raises(DecompressionFailed, match="does not decompress"):
        read_orc(mutated)
    later = decode(RowIndex, _index_stream(file, 0, column)).entry[6].positions
    assert later[4] > 0  # PRESENT's 4 numbers, then DATA's chunk: not the first
    assert read_row_range(mutated, 60, 15).rows == read_orc(file).rows[60:75]


def test_a_position_past_its_stream_is_refused_by_the_seek_and_reported() -> None:
    file = write_orc(ALL_TYPES, REFERENCE_ROWS, MUTATED)
    column = _column("double")
    positions = list(decode(RowIndex, _index_stream(file, 0, column)).entry[5].positions)
    assert 128 <= positions[3] < 16000  # DATA's byte offset: a 2-byte varint either way
    mutated = _rewrite_entry(file, 0, column, 5, [*positions[:3], 16000])
    with pytest.raises(CorruptStream, match="stripe 0, column .*, DATA stream .* lies past"):
        read_row_range(mutated, 52, 3)
    [failure] = _failures(mutated)
    assert (failure.row_group, failure.stream, failure.found) == (5, "DATA", "[16000] (byte 16000 of the "
                                                                  "decompressed stream)")
