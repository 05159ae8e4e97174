"""Cases of an engine's own native types (conformance.cases.native): the option, its tags,
its JSON form, and that the matrix plans the engine alone as their writer while every
reader reads them with no capability of its own."""

from __future__ import annotations

import pytest

from conformance.cases import Case, WriteOptions
from conformance.cases.orc.options import OrcWriteOptions
from conformance.engines.base import Capabilities
from conformance.matrix.cells import EngineInfo, plan_writes
from conformance.values import Field, Schema
from conformance.values import types as T

SCHEMA = Schema((Field("h", T.decimal(38, 0, "FIXED_LEN_BYTE_ARRAY")), Field("n", T.integer(32, True))))
ROWS = ((2**100, 1), (-(2**100), None))


def native_case(native_types: dict[str, str]) -> Case:
    return Case("native/example", "a HUGEINT column", ("LogicalTypes.md: DECIMAL",), SCHEMA, ROWS,
                WriteOptions(encoding=None, native_types=native_types))


def engines(*names: str) -> dict[str, list[EngineInfo]]:
    return {"parquet": [EngineInfo(spec=n, name=n, version="0", isolated=True) for n in names]}


def test_a_native_column_is_tagged_with_its_engine_and_type():
    case = native_case({"h": "duckdb:HUGEINT"})
    assert "native:duckdb:HUGEINT" in case.features
    assert case.native_writer == "duckdb"
    assert native_case({}).native_writer is None


def test_the_native_writer_alone_writes_a_native_case():
    everyone = engines("reference", "pyarrow", "duckdb")
    assert [r["engine"] for r in plan_writes("run", [native_case({"h": "duckdb:HUGEINT"})], everyone)] == [
        "duckdb"]
    assert len(plan_writes("run", [native_case({})], everyone)) == 3


def test_reading_a_native_case_needs_no_capability_and_writing_it_does():
    case = native_case({"h": "duckdb:HUGEINT"})
    reader = Capabilities(writes=("type:*", "physical:*", "repetition:*", "codec:*", "page:*", "rows:*"),
                          reads=("type:*", "physical:*", "repetition:*", "codec:*", "page:*", "rows:*"))
    assert reader.read_gap(case.features) is None
    assert "native:duckdb:HUGEINT" in reader.write_gap(case.write_features)
    duckdb = Capabilities(writes=(*reader.writes, "native:duckdb:*"))
    assert duckdb.write_gap(case.write_features) is None


def test_only_a_native_pattern_claims_a_native_type():
    case = native_case({"h": "duckdb:HUGEINT"})
    assert "native:duckdb:HUGEINT" in Capabilities(writes=("*",)).write_gap(case.write_features)
    assert Capabilities(writes=("*", "native:duckdb:HUGEINT")).write_gap(case.write_features) is None


@pytest.mark.parametrize("options_class", [WriteOptions, OrcWriteOptions])
def test_native_types_survive_json_and_are_absent_when_unset(options_class):
    options = options_class(native_types={"h": "pyarrow:DICTIONARY"})
    assert options_class.from_json(options.to_json()) == options
    assert "native_types" not in options_class().to_json()


@pytest.mark.parametrize("native_types, message", [
    ({"h": "HUGEINT"}, "'<engine>:<NAME>'"),
    ({"h": "duckdb:HUGEINT", "n": "polars:Int128"}, "several engines"),
])
def test_a_malformed_native_type_is_refused(native_types, message):
    with pytest.raises(ValueError, match=message):
        WriteOptions(native_types=native_types)


def test_a_native_type_names_a_top_level_column():
    with pytest.raises(ValueError, match="not a top-level column"):
        native_case({"missing": "duckdb:HUGEINT"})
