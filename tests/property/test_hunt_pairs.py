"""Which pairs the hunts run (issue 29 item 4): by default the reference with every engine
of the format both ways, protocol adapters included; ``all``, every writer x reader pair;
an engine that only reads is never hunted as a writer; a pair with a protocol adapter has
its own example budget."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from conformance.engines import BUILTIN_ENGINES, BUNDLED, DEFAULT_ENGINES, formats_of
from conformance.engines.protocol.external import command_spec
from tests.support.profiles import EXAMPLES_ENV, PROTOCOL_ADAPTER_EXAMPLES, cross_engine_settings

from .hunt import ORC_PAIRS_ENV, PAIRS_ENV, REFERENCE, SELF_CHECK, pair_params, skip_unless_runnable

ENGINE_ADAPTER = Path(__file__).parents[1] / "support" / "engine_adapter.py"
# pyarrow behind the engine protocol, declaring that it reads Parquet and writes nothing.
READ_ONLY = command_spec("read-only", shlex.join([
    sys.executable, str(ENGINE_ADAPTER), "pyarrow",
    json.dumps({"parquet": {"writes": [], "reads": ["*"]}})]))


def _pairs(env: str, fmt: str) -> dict[tuple[str, str], set[str]]:
    """The configured pairs, each with the names of its marks."""
    return {param.values[0]: {mark.name for mark in param.marks} for param in pair_params(env, fmt)}


def test_the_default_pairs_are_the_reference_with_every_engine_both_ways(monkeypatch):
    monkeypatch.delenv(PAIRS_ENV, raising=False)
    pairs = _pairs(PAIRS_ENV, "parquet")
    others = [e for e in (*BUILTIN_ENGINES, *BUNDLED) if e != REFERENCE and "parquet" in formats_of(e)]
    assert {"hyparquet", "parquet-java", "polars", "chdb", "datafusion", "parquet-wasm",
            "parquetjs", "duckdb", "fastparquet", "pyarrow", "spark"} <= set(others)
    assert set(pairs) == {SELF_CHECK, *((REFERENCE, e) for e in others), *((e, REFERENCE) for e in others)}
    assert pairs[REFERENCE, "parquet-java"] == pairs["parquet-java", REFERENCE] == {"jvm"}
    assert pairs[REFERENCE, "spark"] == {"spark", "slow"}
    assert pairs[REFERENCE, "hyparquet"] == pairs["polars", REFERENCE] == set()


def test_the_orc_pairs_are_those_of_the_engines_with_an_orc_adapter(monkeypatch):
    monkeypatch.delenv(ORC_PAIRS_ENV, raising=False)
    engines = {e for pair in _pairs(ORC_PAIRS_ENV, "orc") for e in pair}
    assert {"reference", "pyarrow", "pyorc", "spark", "orc-java", "chdb"} <= engines
    assert engines == {e for e in DEFAULT_ENGINES if "orc" in formats_of(e)}


def test_all_is_every_writer_and_reader_pair(monkeypatch):
    monkeypatch.setenv(PAIRS_ENV, "all")
    pairs = _pairs(PAIRS_ENV, "parquet")
    engines = {e for pair in pairs for e in pair}
    assert len(pairs) == len(engines) ** 2
    assert {("polars", "hyparquet"), ("duckdb", "duckdb"), ("parquet-java", "chdb")} <= set(pairs)
    assert pairs["spark", "parquet-java"] == {"spark", "slow", "jvm"}


def test_named_pairs_replace_the_default(monkeypatch):
    monkeypatch.setenv(PAIRS_ENV, "reference:polars, chdb:hyparquet")
    assert list(_pairs(PAIRS_ENV, "parquet")) == [(REFERENCE, "polars"), ("chdb", "hyparquet")]
    monkeypatch.setenv(PAIRS_ENV, "reference")
    with pytest.raises(ValueError, match="expected writer:reader"):
        _pairs(PAIRS_ENV, "parquet")


def test_an_engine_that_only_reads_is_hunted_as_a_reader_only():
    skip_unless_runnable((REFERENCE, READ_ONLY), "parquet")  # runs
    with pytest.raises(pytest.skip.Exception, match="read-only declares it writes no parquet file"):
        skip_unless_runnable((READ_ONLY, REFERENCE), "parquet")


def test_a_pair_with_a_protocol_adapter_has_its_own_budget(monkeypatch):
    monkeypatch.delenv(EXAMPLES_ENV, raising=False)
    assert cross_engine_settings(protocol_adapter=True).max_examples == PROTOCOL_ADAPTER_EXAMPLES["ci"]
    monkeypatch.setenv(EXAMPLES_ENV, "7")
    assert cross_engine_settings(protocol_adapter=True).max_examples == 7
    assert cross_engine_settings().max_examples == 7
