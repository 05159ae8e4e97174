"""The ORC Java adapter (adapters/java/orc-java, orc-core's Writer and Reader): its start
answer, cases Spark's DataFrame writer cannot write (a union, CHAR and VARCHAR, a
TIMESTAMP_INSTANT, a Bloom filter column) both ways against the reference, the Bloom
filter in the written file, and the engine findings of its README, each pinned to its
exact wrong outcome."""

from __future__ import annotations

import pytest

from conformance.engines.protocol.external import ExternalEngine, command_spec
from conformance.java_build import pyspark_jars_dir
from conformance.values import diff_tables
from reference_impl.orc.bloom_filter_index import read_bloom_filters
from reference_impl.orc.metadata.proto_enums import StreamKind
from tests.adapters.both_ways import assert_read_back, case_file

BOTH_WAYS = [
    "orc/nested/union",
    "orc/types/varchar-nulls",
    "orc/types/timestamp-instant-far",
    "orc/indexes/bloom-filter-string",
]
BLOOM_COLUMN_ID = 2  # orc/indexes/bloom-filter-*: column 1 is the id, column 2 is x

pytestmark = pytest.mark.jvm  # the adapter is a JVM of its own


@pytest.fixture(scope="module")
def engine(adapter_command) -> ExternalEngine:
    return ExternalEngine(command_spec("orc-java", adapter_command("orc-java")), "orc")


@pytest.fixture(scope="module")
def orc_reference():
    from conformance.engines import get_engine

    return get_engine("reference", "orc")


def test_start_answer(engine):
    started = engine.adapter.start()  # checked against start.response.json on the way in
    assert started["name"] == "orc-java" and started["language"] == "java"
    jars = [p.name for p in pyspark_jars_dir().glob("orc-core-*.jar")]
    assert [j for j in jars if j.startswith(f"orc-core-{started['version']}")] == jars
    assert list(started["formats"]) == ["orc"]


@pytest.mark.parametrize("case_id", BOTH_WAYS)
def test_case_both_ways(engine, orc_reference, case_id, tmp_path):
    assert_read_back(engine, orc_reference, case_id, tmp_path)
    assert_read_back(orc_reference, engine, case_id, tmp_path)


def test_char_written_padded(engine, orc_reference, tmp_path):
    assert_read_back(engine, orc_reference, "orc/types/char", tmp_path)


def test_bloom_filter_written_for_the_column_asked(engine, tmp_path):
    _, path = case_file(engine, "orc/indexes/bloom-filter-string", tmp_path)
    stripes = read_bloom_filters(path)
    assert stripes and all(set(stripe) == {(BLOOM_COLUMN_ID, StreamKind.BLOOM_FILTER_UTF8)}
                           for stripe in stripes), stripes


# ---- engine findings (listed in the adapter's README): these fail once orc-core changes ----

def test_finding_char_read_without_its_padding(engine, orc_reference, tmp_path):
    """orc-core's reader returns CHAR(n) values with the trailing spaces stripped."""
    case, path = case_file(orc_reference, "orc/types/char", tmp_path)
    rows = engine.read(path).rows
    padded = [v for v, in case.rows]
    assert [v for v, in rows] == [None if v is None else v.rstrip(" ") for v in padded] != padded


def test_finding_second_before_1970_written_as_the_second_after(engine, orc_reference, tmp_path):
    """-1 ns is written as seconds 0 and 999999999 ns (docs/orc-spec-notes.md, note 2)."""
    case, path = case_file(engine, "orc/types/timestamp-fractions", tmp_path)
    assert case.rows[1] == (-1,)
    assert orc_reference.read(path).rows[1] == (999_999_999,)


def test_finding_proleptic_date_in_the_cutover_gap_moved(engine, orc_reference, tmp_path):
    """Under its default (hybrid) calendar, orc-core moves 1582-10-14 ten days on, silently."""
    case, path = case_file(engine, "orc/types/date", tmp_path)
    difference = diff_tables(case.expected, orc_reference.read(path))
    assert "expected -141428, got -141418" in difference
