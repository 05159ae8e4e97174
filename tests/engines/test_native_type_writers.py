"""Each in-process engine writes a case's native columns (conformance.cases.native) as its
own type, and declares exactly the native names it writes.

The file's form is checked with the reference's footer reader (Parquet) or file tail
reader (ORC), not with the engine that wrote it; what DuckDB's HUGEINT becomes is its
finding (a DOUBLE), pinned here so a change of DuckDB's mapping shows.
"""

from __future__ import annotations

import pytest

from conformance.cases import Case, all_cases, case_by_id
from conformance.cases.native import native_engine
from conformance.engines import get_engine
from conformance.values import diff_tables
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.parquet.metadata.parquet_thrift import ConvertedType, Type
from reference_impl.parquet.reader import read_footer
from tests.engines._parquet_probe import chunks

IN_PROCESS = {"parquet": ("duckdb", "pyarrow", "fastparquet", "spark"), "orc": ("pyarrow", "spark")}
NATIVE_CASES = [c for c in all_cases() if c.native_writer in IN_PROCESS.get(c.format, ())]


def _write(case: Case, tmp_path):
    path = tmp_path / f"out.{case.format}"
    get_engine(str(case.native_writer), case.format).write(case, path)
    return path


def _value_schema(path) -> list[tuple]:
    """(name, physical type, converted type, logical type) of the `value` column's nodes."""
    metadata, _ = read_footer(path.read_bytes())
    names = [e.name for e in metadata.schema]
    start = names.index("value")
    return [(e.name, e.type, e.converted_type, e.logicalType.kind if e.logicalType else None)
            for e in metadata.schema[start:]]


def _orc_value_kinds(path) -> list[str]:
    """The ORC type kinds of the `value` column's subtree (type 0 is the root, 1 the id)."""
    tail = read_file_tail(path.read_bytes(), decompress_stream)
    return [TypeKind(t.kind or 0).name for t in tail.footer.types[2:]]


@pytest.mark.parametrize("case", [c for c in NATIVE_CASES if c.native_writer != "spark"],
                         ids=lambda c: c.id)
def test_the_writer_declares_the_native_type_and_the_others_do_not(case):
    for engine in IN_PROCESS[case.format]:
        gap = get_engine(engine, case.format).capabilities.write_gap(case.write_features)
        assert (gap is None) == (engine == case.native_writer), (engine, gap)


@pytest.mark.parametrize("spec", ["pyarrow:DICTIONARY", "pyarrow:STRING_VIEW", "pyarrow:LIST_VIEW"])
def test_pyarrow_orc_says_why_it_cannot_write_arrow_only_layouts(spec):
    gap = get_engine("pyarrow", "orc").capabilities.write_gap((f"native:{spec}",))
    assert "Unknown or unsupported Arrow type" in gap


# ---- DuckDB ------------------------------------------------------------------------

DOUBLE = ("value", Type.DOUBLE, None, None)


@pytest.mark.parametrize("case_id", ["native/duckdb/hugeint", "native/duckdb/uhugeint"])
def test_duckdb_writes_128_bit_integers_as_double(case_id, tmp_path):
    # duckdb/duckdb issue 21180: lossy; the case keeps the exact integers (its finding).
    assert _value_schema(_write(case_by_id(case_id), tmp_path)) == [DOUBLE]


def test_duckdb_writes_an_array_as_a_list(tmp_path):
    # PARQUET_VERSION V1 (DuckDB's default): ConvertedType only, no LogicalType.
    value, repeated, element = _value_schema(_write(case_by_id("native/duckdb/array"), tmp_path))
    assert value[2] == ConvertedType.LIST
    assert element[:2] == ("element", Type.INT32)


def test_duckdb_writes_a_union_as_a_struct_tag_first(tmp_path):
    value, tag, i, s = _value_schema(_write(case_by_id("native/duckdb/union"), tmp_path))
    assert value[1] is None  # a group
    assert (tag[1], tag[2]) == (Type.INT32, ConvertedType.UINT_8)
    assert (i[0], s[0], s[2]) == ("i", "s", ConvertedType.UTF8)


def test_duckdb_writes_an_enum_as_strings(tmp_path):
    assert _value_schema(_write(case_by_id("native/duckdb/enum"), tmp_path)) == [
        ("value", Type.BYTE_ARRAY, ConvertedType.UTF8, None)]


# ---- pyarrow -----------------------------------------------------------------------

def test_pyarrow_writes_a_dictionary_as_dictionary_pages(tmp_path):
    path = _write(case_by_id("native/pyarrow/dictionary"), tmp_path)
    (chunk,) = [c for c in chunks(path) if c.path == "value"]
    assert chunk.pages[0] == ("DICTIONARY_PAGE", "PLAIN")
    assert {encoding for _, encoding in chunk.pages[1:]} == {"RLE_DICTIONARY"}


@pytest.mark.parametrize("name", ["large-list", "list-view", "fixed-size-list"])
def test_pyarrow_writes_its_list_layouts_as_lists(name, tmp_path):
    value, _, element = _value_schema(_write(case_by_id(f"native/pyarrow/{name}"), tmp_path))
    assert value[2:] == (ConvertedType.LIST, "LIST")
    assert element[:2] == ("element", Type.INT64)


@pytest.mark.parametrize("name", ["large-string", "string-view"])
def test_pyarrow_writes_its_string_layouts_as_strings(name, tmp_path):
    assert _value_schema(_write(case_by_id(f"native/pyarrow/{name}"), tmp_path)) == [
        ("value", Type.BYTE_ARRAY, ConvertedType.UTF8, "STRING")]


@pytest.mark.parametrize(("name", "kinds"), [
    ("large-string", ["STRING"]), ("large-binary", ["BINARY"]), ("large-list", ["LIST", "LONG"]),
    ("fixed-size-list", ["LIST", "LONG"]), ("map-sorted", ["MAP", "STRING", "INT"])])
def test_pyarrow_orc_writes_its_layouts_as_the_values_types(name, kinds, tmp_path):
    assert _orc_value_kinds(_write(case_by_id(f"orc/native/pyarrow/{name}"), tmp_path)) == kinds


# ---- fastparquet ---------------------------------------------------------------------

def test_fastparquet_writes_a_categorical_as_dictionary_pages(tmp_path):
    path = _write(case_by_id("native/fastparquet/categorical"), tmp_path)
    (chunk,) = [c for c in chunks(path) if c.path == "value"]
    assert chunk.pages[0][0] == "DICTIONARY_PAGE"
    assert {encoding for _, encoding in chunk.pages[1:]} == {"RLE_DICTIONARY"}


# ---- Spark -----------------------------------------------------------------------------

SPARK_PARQUET = {"char": ("value", Type.BYTE_ARRAY, ConvertedType.UTF8, "STRING"),
                 "varchar": ("value", Type.BYTE_ARRAY, ConvertedType.UTF8, "STRING"),
                 "year-month-interval": ("value", Type.INT32, None, None),
                 "day-time-interval": ("value", Type.INT64, None, None)}
SPARK_ORC = {"char": ["STRING"], "varchar": ["STRING"], "year-month-interval": ["INT"],
             "day-time-interval": ["LONG"]}


@pytest.mark.spark
def test_spark_declares_its_native_types():
    for case in (c for c in NATIVE_CASES if c.native_writer == "spark"):
        for engine in IN_PROCESS[case.format]:
            gap = get_engine(engine, case.format).capabilities.write_gap(case.write_features)
            assert (gap is None) == (engine == "spark"), (case.id, engine, gap)


@pytest.mark.spark
@pytest.mark.parametrize("name", sorted(SPARK_PARQUET))
def test_spark_writes_its_types_to_parquet_as_what_it_stores(name, tmp_path):
    case = case_by_id(f"native/spark/{name}")
    path = _write(case, tmp_path)
    assert _value_schema(path) == [SPARK_PARQUET[name]]
    assert diff_tables(case.expected, get_engine("reference").read(path)) is None


@pytest.mark.spark
@pytest.mark.parametrize("name", sorted(SPARK_ORC))
def test_spark_writes_its_types_to_orc_as_what_it_stores(name, tmp_path):
    case = case_by_id(f"orc/native/spark/{name}")
    path = _write(case, tmp_path)
    assert _orc_value_kinds(path) == SPARK_ORC[name]
    assert diff_tables(case.expected, get_engine("reference", "orc").read(path)) is None


def test_every_native_case_names_an_in_process_writer_of_its_format():
    assert {native_engine(s) for c in NATIVE_CASES for s in c.options.native_types.values()} == {
        "duckdb", "pyarrow", "fastparquet", "spark"}
