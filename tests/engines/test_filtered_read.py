"""Filtered reads (Engine.read_filtered) over a small pyarrow file with several row
groups and pages, statistics and page index on. The expected rows always come from
`Predicate.apply` on the case's table (Case.filtered), never from an engine."""

from __future__ import annotations

import dataclasses
import math

import pytest

from conformance.cases import Case, WriteOptions
from conformance.cases.predicate import Predicate
from conformance.engines import get_engine
from conformance.engines.base import LossyConversion, Unsupported
from conformance.values import Field, Schema, diff_tables
from conformance.values import types as T
from tests.engines._metadata_probe import chunk_metadata

NAN = float("nan")
METADATA = WriteOptions(row_group_size=4, page_row_limit=2, statistics=True, page_index=True)

# Nullable columns of every orderable kind the engines share; floats with signed
# zeros, infinities and a NaN; strings with code points of 1 to 4 UTF-8 bytes.
SCHEMA = Schema((
    Field("i", T.integer(32)), Field("s", T.string()), Field("dt", T.date()),
    Field("d", T.decimal(9, 2, "INT32")), Field("f", T.floating(64)),
    Field("ts", T.timestamp("us", utc=True)), Field("u", T.integer(64, signed=False)),
))
_STRINGS = ["a", "b", "c", "d", "m", "n", None, "o", "\x7f", "é", "\uffff", "\U0001f600"]
_FLOATS = [-0.0, 0.0, 1.5, None, 2.5, NAN, 3.5, -1.0, 4.0, 5.0, -math.inf, math.inf]
ROWS = tuple(
    (None if k in (3, 10) else k + 1, _STRINGS[k], (k - 5) * 1000, (k - 6) * 100, _FLOATS[k],
     (k - 6) * 1_000_000_007, 2**64 - 1 - k if k % 2 else k)
    for k in range(12))
CASE = Case("test/filtered", "filtered read", (), SCHEMA, ROWS, METADATA)

PREDICATES = [
    Predicate("i", "<", 5), Predicate("i", ">=", 9), Predicate("i", "==", 6),
    Predicate("i", "!=", 6), Predicate("i", "is_null"), Predicate("i", "is_not_null"),
    Predicate("s", ">", "n"), Predicate("s", "<", "b"), Predicate("s", "==", "é"),
    Predicate("s", ">=", "\uffff"),
    Predicate("dt", "<", 0), Predicate("dt", ">=", 3000),
    Predicate("d", ">", 100), Predicate("d", "==", -100), Predicate("d", "<=", -600),
    Predicate("f", "==", 0.0), Predicate("f", "<=", -0.0), Predicate("f", "!=", 1.5),
    Predicate("f", "<", -1.0), Predicate("f", "==", NAN),
    Predicate("ts", "<", 0), Predicate("ts", ">=", 2_000_000_014),
    Predicate("u", ">", 2**63), Predicate("u", "<", 2**63), Predicate("u", "==", 2**64 - 2),
]
# IEEE says a comparison with NaN is false; DuckDB and Spark SQL order NaN above
# every other value (their documented NaN semantics), so these differ there.
NAN_ORDERING = [Predicate("f", ">", 1.0), Predicate("f", "<", NAN)]


def _case(predicate: Predicate) -> Case:
    return dataclasses.replace(CASE, predicate=predicate)


@pytest.fixture(scope="module")
def pyarrow_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("filtered") / "pyarrow.parquet"
    get_engine("pyarrow").write(CASE, path)
    return path


def _check(engine_name: str, path, predicate: Predicate) -> None:
    case = _case(predicate)
    got = get_engine(engine_name).read_filtered(path, case.predicate)
    assert diff_tables(case.filtered, got) is None, predicate.describe()


def test_the_file_has_row_groups_pages_statistics_and_page_index(pyarrow_file):
    chunks = chunk_metadata(pyarrow_file)
    assert {c.row_group for c in chunks} == {0, 1, 2}
    assert all(len(c.page_types) == 2 for c in chunks)
    assert all(c.statistics is not None and c.column_index and c.offset_index for c in chunks)
    # the predicates really prune: some select nothing from a whole row group
    assert _case(Predicate("i", "<", 5)).filtered.rows == ROWS[:3]


@pytest.mark.parametrize("predicate", PREDICATES + NAN_ORDERING, ids=Predicate.describe)
def test_pyarrow(pyarrow_file, predicate):
    _check("pyarrow", pyarrow_file, predicate)


@pytest.mark.parametrize("predicate", PREDICATES, ids=Predicate.describe)
def test_duckdb(pyarrow_file, predicate):
    _check("duckdb", pyarrow_file, predicate)


@pytest.mark.parametrize("predicate", NAN_ORDERING, ids=Predicate.describe)
def test_duckdb_orders_nan_above_every_value(pyarrow_file, predicate):
    case = _case(predicate)
    got = get_engine("duckdb").read_filtered(pyarrow_file, case.predicate)
    nan_rows = [r for r in got.rows if isinstance(r[4], float) and math.isnan(r[4])]
    assert len(nan_rows) == (1 if predicate.op == ">" else 0)
    assert len(got.rows) == len(case.filtered.rows) + (1 if predicate.op == ">" else 10)


def test_duckdb_builds_exact_constants():
    from conformance.engines.parquet.duckdb_engine import where_clause

    def where(column, op, value, t):
        return where_clause(Predicate(column, op, value).bind(Schema((Field(column, t),))))

    assert where("x", "<", 2**64 - 1, T.integer(64, False)) == \
        '"x" < CAST(18446744073709551615 AS UBIGINT)'
    assert where("x", "==", -12345, T.decimal(9, 2, "INT32")) == \
        "\"x\" = CAST('-123.45' AS DECIMAL(9,2))"
    assert where("x", "!=", -0.0, T.floating(64)) == "\"x\" <> CAST('-0.0' AS DOUBLE)"
    assert where("x", ">", b"\x80\x00", T.binary()) == "\"x\" > from_hex('8000')"
    assert where("x", "<", "it's", T.string()) == "\"x\" < CAST('it''s' AS VARCHAR)"
    assert where("x", ">=", 5, T.timestamp("ms", utc=True)) == \
        '"x" >= CAST(make_timestamp(CAST(5000 AS BIGINT)) AS TIMESTAMPTZ)'


# ---- fastparquet ---------------------------------------------------------------

# What fastparquet reads back as the case says: REQUIRED columns (its row filter
# mishandles nulls, see below), no DECIMAL (read as float64), local timestamps
# (TIMESTAMP(utc) comes back naive from a file without pandas metadata).
FP_SCHEMA = Schema((
    Field("i", T.integer(32), False), Field("s", T.string(), False), Field("dt", T.date(), False),
    Field("f", T.floating(64), False), Field("ts", T.timestamp("us", utc=False), False),
    Field("b", T.binary(), False),
))
FP_ROWS = tuple((k, f"{k:02}é", (k - 5) * 1000, float(k) - 5.5 if k != 1 else -0.0,
                 (k - 6) * 1_000_000_007, bytes([0x7C + k])) for k in range(12))
FP_CASE = Case("test/filtered-fp", "filtered read", (), FP_SCHEMA, FP_ROWS, METADATA)
FP_PREDICATES = [
    Predicate("i", "<", 5), Predicate("i", ">=", 9), Predicate("i", "!=", 6),
    Predicate("dt", "<", 0), Predicate("dt", ">=", 3000), Predicate("f", "<=", 0.0),
    Predicate("f", ">", 2.0), Predicate("ts", "<", 0), Predicate("ts", ">=", 2_000_000_014),
    Predicate("b", ">", b"\x7f"), Predicate("b", "<", b"\x80"), Predicate("s", "<", "02é"),
]
# Rows selected only from the second page of a row group's chunks.
FP_SECOND_PAGE_ONLY = [Predicate("i", "==", 6), Predicate("s", ">", "05é"),
                       Predicate("s", "==", "10é")]


@pytest.fixture(scope="module")
def fastparquet_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("filtered") / "fp.parquet"
    get_engine("pyarrow").write(FP_CASE, path)
    return path


@pytest.mark.parametrize("predicate", FP_PREDICATES, ids=Predicate.describe)
def test_fastparquet(fastparquet_file, predicate):
    case = dataclasses.replace(FP_CASE, predicate=predicate)
    got = get_engine("fastparquet").read_filtered(fastparquet_file, case.predicate)
    assert diff_tables(case.filtered, got) is None


@pytest.mark.parametrize("predicate", FP_SECOND_PAGE_ONLY, ids=Predicate.describe)
def test_fastparquet_row_filter_misreads_rows_when_a_first_page_has_none(
        fastparquet_file, tmp_path, predicate):
    # Finding: with several data pages per column chunk, fastparquet's row-wise filter
    # returns wrong values (other rows', or uninitialised memory) when no row of a row
    # group's first page is selected; the same rows in one-page chunks come back right.
    case = dataclasses.replace(FP_CASE, predicate=predicate)
    assert case.filtered.rows
    got = get_engine("fastparquet").read_filtered(fastparquet_file, case.predicate)
    assert diff_tables(case.filtered, got) is not None
    one_page = dataclasses.replace(case, options=WriteOptions(row_group_size=4, statistics=True))
    path = tmp_path / "one-page.parquet"
    get_engine("pyarrow").write(one_page, path)
    assert {len(c.page_types) for c in chunk_metadata(path)} == {1}
    got = get_engine("fastparquet").read_filtered(path, one_page.predicate)
    assert diff_tables(one_page.filtered, got) is None


@pytest.mark.parametrize(("predicate", "reason"), [
    (Predicate("i", "is_null"), "no null test"),
    (Predicate("d", "<", 0), "DECIMAL as float64"),
])
def test_fastparquet_unsupported_filters(pyarrow_file, predicate, reason):
    with pytest.raises(Unsupported, match=reason):
        get_engine("fastparquet").read_filtered(pyarrow_file, _case(predicate).predicate)


def test_fastparquet_row_filter_fails_on_a_nullable_integer_column(pyarrow_file):
    # Finding: fastparquet's row-wise filter turns the comparison of a pandas Int32
    # column holding <NA> into a numpy bool array and fails.
    with pytest.raises(ValueError, match="missing values"):
        get_engine("fastparquet").read_filtered(pyarrow_file, _case(Predicate("i", "<", 5)).predicate)


def test_fastparquet_row_filter_garbles_rows_with_nulls(tmp_path):
    # Finding: with row_filter=True and one page per chunk, an OPTIONAL column holding
    # nulls comes back with values of other rows (or uninitialised ones).
    schema = Schema((Field("k", T.integer(64), False), Field("s", T.string()),
                     Field("x", T.integer(64), False)))
    rows = tuple((k, None if k in (1, 6) else f"v{k}", 100 + k) for k in range(8))
    case = Case("test/fp-nulls", "nulls", (), schema, rows,
                WriteOptions(row_group_size=4, statistics=True),
                predicate=Predicate("s", ">", "v2"))
    path = tmp_path / "nulls.parquet"
    get_engine("pyarrow").write(case, path)
    got = get_engine("fastparquet").read_filtered(path, case.predicate)
    assert [r[1] for r in case.filtered.rows] == ["v3", "v4", "v5", "v7"]
    assert diff_tables(case.filtered, got) is not None


def test_fastparquet_nan_in_a_nullable_float_column_is_lossy(pyarrow_file):
    with pytest.raises(LossyConversion, match="nullable float"):
        get_engine("fastparquet").read_filtered(pyarrow_file,
                                                _case(Predicate("f", "!=", 1.5)).predicate)


# ---- Spark -----------------------------------------------------------------------

# One predicate per kind (each Spark read costs about a second).
SPARK_PREDICATES = [Predicate("i", "<", 5), Predicate("i", "is_null"), Predicate("s", ">", "n"),
                    Predicate("dt", "<", 0), Predicate("d", "==", -100),
                    Predicate("f", "==", 0.0), Predicate("ts", ">=", 2_000_000_014),
                    Predicate("u", ">", 2**63)]


@pytest.mark.spark
def test_spark(spark, pyarrow_file):
    for predicate in SPARK_PREDICATES:
        _check("spark", pyarrow_file, predicate)
    # Spark SQL's NaN semantics: NaN is above every other value
    case = _case(Predicate("f", ">", 1.0))
    got = get_engine("spark").read_filtered(pyarrow_file, case.predicate)
    assert len(got.rows) == len(case.filtered.rows) + 1
