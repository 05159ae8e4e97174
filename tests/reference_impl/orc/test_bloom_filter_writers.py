"""The reference's Bloom filters equal those of ORC C++ (pyarrow, pyorc) and ORC Java
(through Spark), bit for bit, for the same data, stride and false-positive probability.

ORCv1.md, 'Bloom Filter Index'. Each writer writes the same rows during the test run;
every filter (one per row group, per column, per stream kind) is read from its file by
reference_impl.orc.bloom_filter_index.read_bloom_filters and compared with the one the
reference writes for the same values: the number of hash functions and every bit.
Two sizings: stride 1000 at fpp 0.05 (6272 bits, 4 hash functions) and stride 1015 at
fpp 0.01, where floor(-n ln p / (ln 2)^2) is 9728, a multiple of 64, and every writer
adds a whole word (9792 bits, 7 hash functions). ORC Java refuses a stride under 1000.

Where a writer's bits differ, the test records the measured fact (docs/orc-spec-notes.md,
note 12), each pinned by a test below:

* ORC C++ (pyarrow and pyorc) hashes a BOOLEAN or TINYINT column's first eighth of each
  batch it writes as 8 packed bytes: values go missing from the filter, and pyorc's own
  filtered read then skips rows that match;
* ORC Java writes a BOOLEAN column's filters with no bit set;
* pyorc hashes a FLOAT column's value as the double it was given, before narrowing it;
* pyarrow hashes a timestamp before 1970 as its milliseconds rounded toward zero.

And pyorc prunes row groups with the reference's filters.
"""

from __future__ import annotations

import datetime
import decimal
import glob
import io
import math
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa
import pyorc
import pytest
from pyorc.predicates import PredicateColumn

from reference_impl.orc.bloom_filter import BloomFilterBits, bloom_filter_size, value_hash
from reference_impl.orc.bloom_filter_index import ColumnBloomFilters, read_bloom_filters
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode, numbered, primitive, struct
from reference_impl.orc.metadata.type_tree import decimal as decimal_type
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_file_streams import file_streams, pyarrow_orc, pyorc_file
from tests.reference_impl.orc.orc_samples import K

UTF8 = StreamKind.BLOOM_FILTER_UTF8
ORIGINAL = StreamKind.BLOOM_FILTER
ROWS = 2600  # three row groups under either stride, the last one short
NULL_EVERY = 7
SIZINGS = [(1000, 0.05), (1015, 0.01)]
MEASURED_SIZES = {(1000, 0.05): (6272, 4), (1015, 0.01): (9792, 7)}  # (bits, hash functions)
UNIX_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
UNIX_DAY = datetime.date(1970, 1, 1)
NANOS_PER_MICRO = 1000
DECIMAL_SCALE = 2


@dataclass(frozen=True)
class Column:
    """A column of the test file: its ORC type in each writer's words and its values (the
    reference's representation) for row ``i``."""

    name: str
    node: TypeNode
    orc_type: str  # pyorc's type string
    arrow_type: pa.DataType
    spark_type: str  # Spark SQL DDL
    value: Callable[[int], object]


def _string(i: int) -> str:
    """0 to 23 UTF-8 bytes: every Murmur3 tail length, one and two blocks."""
    return ("välue-ß-" * 2)[:i % 17] + str(i)[:i % 4]


COLUMNS = [
    Column("c_boolean", primitive(K.BOOLEAN), "boolean", pa.bool_(), "BOOLEAN", lambda i: i % 3 == 0),
    Column("c_tinyint", primitive(K.BYTE), "tinyint", pa.int8(), "TINYINT", lambda i: (i * 7) % 256 - 128),
    Column("c_smallint", primitive(K.SHORT), "smallint", pa.int16(), "SMALLINT",
           lambda i: (i * 13) % 65536 - 32768),
    Column("c_int", primitive(K.INT), "int", pa.int32(), "INT", lambda i: i * i - 3000),
    Column("c_bigint", primitive(K.LONG), "bigint", pa.int64(), "BIGINT", lambda i: (i - 1300) * 10**12 + i),
    Column("c_float", primitive(K.FLOAT), "float", pa.float32(), "FLOAT", lambda i: i * 0.25 - 100),
    Column("c_double", primitive(K.DOUBLE), "double", pa.float64(), "DOUBLE",
           lambda i: math.nan if i == 5 else -0.0 if i == 6 else i / 3 - 400),
    Column("c_string", primitive(K.STRING), "string", pa.string(), "STRING", _string),
    Column("c_binary", primitive(K.BINARY), "binary", pa.binary(), "BINARY",
           lambda i: bytes((i * k) % 256 for k in range(i % 11))),
    Column("c_date", primitive(K.DATE), "date", pa.date32(), "DATE", lambda i: (i - 1300) * 37),
    # Microseconds; before 1970 whole milliseconds (see test_pyarrow_truncates_timestamps...).
    Column("c_timestamp", primitive(K.TIMESTAMP), "timestamp", pa.timestamp("us"), "TIMESTAMP",
           lambda i: (i - 1300) * 86_400_007_000_000 + (i % 1000) * NANOS_PER_MICRO * (i >= 1300)),
    # Trailing zeros, zero, negatives, whole thousands (1200.00 is hashed as "1200").
    Column("c_decimal", decimal_type(12, DECIMAL_SCALE), f"decimal(12,{DECIMAL_SCALE})",
           pa.decimal128(12, DECIMAL_SCALE), f"DECIMAL(12,{DECIMAL_SCALE})",
           lambda i: (i - 1300) * 50 + (i % 3)),
]
SCHEMA = struct({column.name: column.node for column in COLUMNS})
NODES = numbered(SCHEMA).children  # column ids 1 to len(COLUMNS)


def _rows() -> list[dict[str, object]]:
    return [{column.name: None if (i + number) % NULL_EVERY == 0 else column.value(i)
             for number, column in enumerate(COLUMNS)} for i in range(ROWS)]


ROWS_BY_NAME = _rows()


# The reference's values as each engine takes them.
def _python(column: Column, value: object) -> object:
    if value is None:
        return None
    kind = column.node.kind
    if kind == K.DATE:
        return UNIX_DAY + datetime.timedelta(days=value)  # type: ignore[arg-type]
    if kind == K.TIMESTAMP:
        return UNIX_EPOCH + datetime.timedelta(microseconds=value // NANOS_PER_MICRO)  # type: ignore[operator]
    if kind == K.DECIMAL:
        return decimal.Decimal(value).scaleb(-DECIMAL_SCALE)  # type: ignore[arg-type]
    return value


def _python_rows(naive_timestamps: bool) -> list[tuple[object, ...]]:
    def convert(column: Column, value: object) -> object:
        converted = _python(column, value)
        return converted.replace(tzinfo=None) if naive_timestamps and column.node.kind == K.TIMESTAMP \
            and converted is not None else converted  # type: ignore[union-attr]
    return [tuple(convert(column, row[column.name]) for column in COLUMNS) for row in ROWS_BY_NAME]


def _reference_file(stride: int, fpp: float, *, original: bool = False) -> bytes:
    return write_orc(SCHEMA, ROWS_BY_NAME, OrcWriterOptions(
        row_index_stride=stride, bloom_filter_columns=frozenset(column.name for column in COLUMNS),
        bloom_filter_fpp=fpp, bloom_filter_original=original))


def _single_stripe_filters(file: bytes) -> dict[tuple[int, StreamKind], ColumnBloomFilters]:
    stripes = read_bloom_filters(file)
    assert len(stripes) == 1
    return stripes[0]


def _differences(reference: bytes, other: bytes, kind: StreamKind) -> dict[str, list[int]]:
    """By column name, the row groups whose filter differs from the reference's (a column
    the other writer wrote no filter of is listed with every row group)."""
    ours, theirs = _single_stripe_filters(reference), _single_stripe_filters(other)
    found = {}
    for column, node in zip(COLUMNS, NODES, strict=True):
        mine, other_filters = ours[node.column_id, UTF8].filters, theirs.get((node.column_id, kind))
        if other_filters is None:
            found[column.name] = list(range(len(mine)))
            continue
        assert len(other_filters.filters) == len(mine)
        differing = [group for group, (a, b) in enumerate(zip(mine, other_filters.filters, strict=True))
                     if (a.num_hash_functions, a.bits) != (b.num_hash_functions, b.bits)]
        if differing:
            found[column.name] = differing
    return found


# Measured: the columns whose filters differ from the reference's in every row group.
ORC_CPP_DIFFERENCES = {"c_boolean": [0, 1, 2], "c_tinyint": [0, 1, 2]}
ORC_JAVA_DIFFERENCES = {"c_boolean": [0, 1, 2]}


def _kinds(file: bytes) -> set[StreamKind]:
    return {StreamKind(stream.kind) for stream in file_streams(file) if stream.kind in (ORIGINAL, UTF8)}


@pytest.mark.parametrize(("stride", "fpp"), SIZINGS)
def test_the_reference_sizes_its_filters_as_measured(stride: int, fpp: float) -> None:
    filters = _single_stripe_filters(_reference_file(stride, fpp))
    sizes = {(bits.num_bits, bits.num_hash_functions)
             for column in filters.values() for bits in column.filters}
    assert sizes == {MEASURED_SIZES[stride, fpp]} == {bloom_filter_size(stride, fpp)}
    assert len(filters) == len(COLUMNS)
    assert all(len(column.filters) == math.ceil(ROWS / stride) for column in filters.values())


@pytest.mark.parametrize(("stride", "fpp"), SIZINGS)
def test_pyorc_filters_equal_the_reference_bit_for_bit(stride: int, fpp: float) -> None:
    file = pyorc_file(f"struct<{','.join(f'{c.name}:{c.orc_type}' for c in COLUMNS)}>",
                      _python_rows(naive_timestamps=False), row_index_stride=stride,
                      bloom_filter_columns=[column.name for column in COLUMNS], bloom_filter_fpp=fpp)
    assert _kinds(file) == {UTF8}  # ORC C++ writes no original BLOOM_FILTER
    assert _differences(_reference_file(stride, fpp), file, UTF8) == ORC_CPP_DIFFERENCES


@pytest.mark.parametrize(("stride", "fpp"), SIZINGS)
def test_pyarrow_filters_equal_the_reference_bit_for_bit(stride: int, fpp: float) -> None:
    table = pa.table({column.name: pa.array([row[number] for row in _python_rows(naive_timestamps=True)],
                                            column.arrow_type)
                      for number, column in enumerate(COLUMNS)})
    file = pyarrow_orc(table, row_index_stride=stride, bloom_filter_fpp=fpp,
                       bloom_filter_columns=[node.column_id for node in NODES])
    assert _kinds(file) == {UTF8}
    assert _differences(_reference_file(stride, fpp), file, UTF8) == ORC_CPP_DIFFERENCES


@pytest.mark.spark
@pytest.mark.parametrize(("stride", "fpp", "write_version"),
                         [(*SIZINGS[0], "utf8"), (*SIZINGS[1], "original")])
def test_orc_java_filters_equal_the_reference_bit_for_bit(spark, tmp_path, stride: int, fpp: float,
                                                           write_version: str) -> None:
    schema = ", ".join(f"{column.name} {column.spark_type}" for column in COLUMNS)
    frame = spark.createDataFrame([tuple(bytearray(v) if isinstance(v, bytes) else v for v in row)
                                   for row in _python_rows(naive_timestamps=False)], schema).coalesce(1)
    (frame.write.format("orc").option("compression", "none")
     .option("orc.row.index.stride", str(stride)).option("orc.bloom.filter.fpp", str(fpp))
     .option("orc.bloom.filter.columns", ",".join(column.name for column in COLUMNS))
     .option("orc.bloom.filter.write.version", write_version).save(str(tmp_path / "out")))
    [path] = glob.glob(str(tmp_path / "out" / "*.orc"))
    with open(path, "rb") as handle:
        file = handle.read()
    reference = _reference_file(stride, fpp, original=write_version == "original")
    if write_version == "original":  # both streams, the same bits; the reference's too
        assert _kinds(file) == {ORIGINAL, UTF8}
        assert _differences(reference, file, ORIGINAL) == ORC_JAVA_DIFFERENCES
        ours = _single_stripe_filters(reference)
        assert all(ours[key].filters[0].words() == ours[key[0], ORIGINAL].filters[0].words()
                   for key in ours if key[1] == UTF8)
    else:
        assert _kinds(file) == {UTF8}
    assert _differences(reference, file, UTF8) == ORC_JAVA_DIFFERENCES
    boolean = NODES[0].column_id  # finding: ORC Java's BOOLEAN filters hold no value
    assert not any(any(bits.bits) for bits in _single_stripe_filters(file)[boolean, UTF8].filters)


def _one_filter(file: bytes, column: int = 1) -> BloomFilterBits:
    return _single_stripe_filters(file)[column, UTF8].filters[0]


def _expected(node: TypeNode, values: list[object], stride: int = 1000, fpp: float = 0.05) -> BloomFilterBits:
    bits = BloomFilterBits.empty(stride, fpp)
    bits.add_all(value_hash(node, value) for value in values)
    return bits


def test_pyorc_hashes_a_float_before_narrowing_it() -> None:
    """Finding (ORC C++ through pyorc 0.12): a FLOAT filter holds the hash of the double the
    writer was given, not of the 32-bit float it stores; 1.1 reads back as
    1.100000023841858, which that filter does not hold. ORC Java and pyarrow (whose values
    are 32-bit already) hash the stored float, as 'Bloom Filter Index' says."""
    values = [1.1, 0.1, 3.3]
    file = pyorc_file("struct<f:float>", [(value,) for value in values], row_index_stride=1000,
                      bloom_filter_columns=["f"], bloom_filter_fpp=0.05)
    found = _one_filter(file)
    assert found.bits == _expected(primitive(K.DOUBLE), values).bits
    assert found.bits != _expected(primitive(K.FLOAT), values).bits


def test_pyarrow_truncates_timestamps_before_1970_toward_zero() -> None:
    """Finding (ORC C++ through pyarrow 26): a timestamp before 1970 with a part of a
    millisecond is hashed as its milliseconds rounded toward zero (-1.5 ms as -1), where
    ORC Java and pyorc round down (-2), as Java's Timestamp.getTime() does."""
    nanos = [-1_500_000, -86_400_000_000_001]  # -1.5 ms; one day and 1 ns before 1970
    table = pa.table({"t": pa.array(nanos, pa.timestamp("ns"))})
    found = _one_filter(pyarrow_orc(table, row_index_stride=1000, bloom_filter_columns=[1],
                                    bloom_filter_fpp=0.05))
    toward_zero = [-(-value // 10**6) if value < 0 else value // 10**6 for value in nanos]
    assert found.bits == _expected(primitive(K.LONG), toward_zero).bits
    assert found.bits != _expected(primitive(K.TIMESTAMP), nanos).bits


def _packed_batch_longs(values: list[int]) -> list[int]:
    """What ORC C++ hashes for one batch of BYTE or BOOLEAN ``values`` (no nulls): it packs
    the values into bytes over the start of the batch's 64-bit slots before it hashes the
    slots, so slot i < len/8 holds 8 packed values as one little-endian long."""
    slots = list(values)
    packed = bytes(value % 256 for value in values)
    for slot in range(-(-len(packed) // 8)):
        own = slots[slot].to_bytes(8, "little", signed=True)
        chunk = packed[8 * slot:8 * slot + 8]
        slots[slot] = int.from_bytes(chunk + own[len(chunk):], "little", signed=True)
    return slots


def test_orc_cpp_hashes_packed_bytes_for_tinyint_and_loses_values() -> None:
    """Finding (ORC C++ through pyorc 0.12 and pyarrow 26): a TINYINT filter holds the
    hashes of the packed bytes for the batch's first eighth, so 5, alone there, tests
    absent, and pyorc's read with the predicate c == 5 returns no row of the one that
    holds it."""
    values = [5] + [1] * 15
    expected = BloomFilterBits.empty(1000, 0.05)
    expected.add_all(value_hash(primitive(K.LONG), slot) for slot in _packed_batch_longs(values))
    files = {
        "pyorc": pyorc_file("struct<c:tinyint>", [(value,) for value in values], row_index_stride=1000,
                            bloom_filter_columns=["c"], bloom_filter_fpp=0.05),
        "pyarrow": pyarrow_orc(pa.table({"c": pa.array(values, pa.int8())}), row_index_stride=1000,
                               bloom_filter_columns=[1], bloom_filter_fpp=0.05),
    }
    for file in files.values():
        found = _one_filter(file)
        assert found.bits == expected.bits
        assert not found.might_contain(value_hash(primitive(K.BYTE), 5))
    reference = write_orc(struct({"c": primitive(K.BYTE)}), [{"c": value} for value in values],
                          OrcWriterOptions(row_index_stride=1000, bloom_filter_columns=frozenset({"c"})))
    assert _one_filter(reference).might_contain(value_hash(primitive(K.BYTE), 5))
    predicate = PredicateColumn(pyorc.TypeKind.BYTE, "c") == 5
    matching = list(pyorc.Reader(io.BytesIO(files["pyorc"]), predicate=predicate))
    assert matching == []  # the full scan has the row (5,)


def test_a_timestamp_under_another_writer_zone_hashes_its_wall_clock() -> None:
    """bloom_encoding 1, "utc for timestamps": pyorc, writing 12:00 UTC under
    America/Los_Angeles, hashes 05:00 (the wall-clock time as if in UTC), as the reference
    does with the same wall-clock value and writer zone."""
    zone = zoneinfo.ZoneInfo("America/Los_Angeles")
    sink = io.BytesIO()
    with pyorc.Writer(sink, "struct<t:timestamp>", timezone=zone, row_index_stride=1000,
                      bloom_filter_columns=["t"], bloom_filter_fpp=0.05) as writer:
        writer.write((datetime.datetime(2020, 6, 1, 12, tzinfo=datetime.UTC),))
    wall_clock = (datetime.datetime(2020, 6, 1, 5) - datetime.datetime(1970, 1, 1)) // datetime.timedelta(
        microseconds=1) * NANOS_PER_MICRO
    reference = write_orc(struct({"t": primitive(K.TIMESTAMP)}), [{"t": wall_clock}], OrcWriterOptions(
        row_index_stride=1000, writer_timezone="America/Los_Angeles", bloom_filter_columns=frozenset({"t"})))
    assert _one_filter(sink.getvalue()).bits == _one_filter(reference).bits


def test_pyorc_prunes_row_groups_with_the_references_filters() -> None:
    """Each row group holds "a" and "c" but not "b", which its min and max allow: pyorc's
    read with s == "b" returns no row only by trusting the reference's Bloom filters; with
    s == "c" it returns every row group."""
    rows = [{"s": "a" if i % 2 else "c"} for i in range(3000)]
    file = write_orc(struct({"s": primitive(K.STRING)}), rows, OrcWriterOptions(
        row_index_stride=1000, bloom_filter_columns=frozenset({"s"})))
    column = PredicateColumn(pyorc.TypeKind.STRING, "s")
    assert list(pyorc.Reader(io.BytesIO(file), predicate=column == "b")) == []
    assert len(list(pyorc.Reader(io.BytesIO(file), predicate=column == "c"))) == len(rows)
