"""The ORC Java adapter (adapters/java/orc-java, orc-core's Writer and Reader): its start
answer, cases Spark's DataFrame writer cannot write (a union, CHAR and VARCHAR, a
TIMESTAMP_INSTANT, a Bloom filter column, column encryption) both ways against the
reference, encrypted files without the keys (the masked view, ORCv1.md 'Data Masks'), the
Bloom filter in the written file, and the engine findings of its README, each pinned to
its exact wrong outcome."""

from __future__ import annotations

import dataclasses

import pytest

from conformance.cases import case_by_id
from conformance.engines.protocol import messages
from conformance.engines.protocol.external import AdapterError, ExternalEngine, command_spec
from conformance.java_build import pyspark_jars_dir
from conformance.values import Table, diff_tables
from reference_impl.orc.bloom_filter_index import read_bloom_filters
from reference_impl.orc.metadata.proto_enums import StreamKind
from tests.adapters.both_ways import assert_read_back, case_file, masked_view

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


# ---- column encryption (ORCv1.md, 'Column Encryption'), the suite's ORC test keys ----

ENCRYPTED = [
    "orc/encryption/one-column",
    "orc/encryption/nested-column",
    "orc/encryption/two-keys",
    "orc/encryption/mask-nullify",
    "orc/encryption/mask-redact",
    "orc/encryption/mask-sha256",
]
# The encrypted cases orc-core writes as they are (the README: the others ask for a row
# index stride under 1000, or the redact mask).
ENCRYPTED_BY_ORC_JAVA = ["orc/encryption/one-column", "orc/encryption/mask-nullify",
                         "orc/encryption/mask-sha256"]
ORC_JAVA_MIN_STRIDE = 1_000  # orc-core's WriterImpl refuses a smaller row index stride


@pytest.fixture(scope="module")
def keyless_reference():
    from conformance.engines.orc.reference import OrcReferenceEngine
    from reference_impl.orc.encryption.encryption_keys import KeyProvider

    return OrcReferenceEngine(KeyProvider())


def _keyless_read(engine, path) -> Table:
    """orc-java's reading of `path` when the request hands it no keys."""
    answer = engine.adapter.call(messages.read_request(path.resolve(), "orc"))
    assert "document" in answer, answer
    return Table.from_document(answer["document"])


@pytest.mark.parametrize("case_id", ENCRYPTED)
def test_reads_the_references_encrypted_file_with_the_keys(engine, orc_reference, case_id, tmp_path):
    assert_read_back(orc_reference, engine, case_id, tmp_path)


@pytest.mark.parametrize("case_id", ENCRYPTED_BY_ORC_JAVA)
def test_reference_reads_its_encrypted_file_with_the_keys(engine, orc_reference, case_id, tmp_path):
    assert_read_back(engine, orc_reference, case_id, tmp_path)


def test_reference_reads_its_two_key_file_at_its_smallest_stride(engine, orc_reference, tmp_path):
    """orc/encryption/two-keys (a nested column, two keys, three stripes) at the smallest
    stride orc-core writes: its variants, keys and stripe IVs are the reference's too."""
    case = case_by_id("orc/encryption/two-keys")
    case = dataclasses.replace(case, options=dataclasses.replace(case.orc_options,
                                                                 row_index_stride=ORC_JAVA_MIN_STRIDE))
    path = tmp_path / "two-keys.orc"
    engine.write(case, path)
    assert diff_tables(case.expected, orc_reference.read(path)) is None


@pytest.mark.parametrize("case_id", ["orc/encryption/two-keys", "orc/encryption/mask-redact",
                                     "orc/encryption/mask-sha256"])
def test_without_the_keys_it_reads_the_references_masked_view(engine, orc_reference, case_id, tmp_path):
    case, path = case_file(orc_reference, case_id, tmp_path)
    assert diff_tables(masked_view(case), _keyless_read(engine, path)) is None


@pytest.mark.parametrize("case_id", ["orc/encryption/one-column", "orc/encryption/mask-sha256"])
def test_without_the_keys_the_reference_reads_its_masked_view(engine, keyless_reference, case_id, tmp_path):
    case, path = case_file(engine, case_id, tmp_path)
    assert diff_tables(masked_view(case), keyless_reference.read(path)) is None


def test_finding_redact_mask_not_written(engine, tmp_path):
    """orc-core's EncryptionTreeWriter hands the redact mask a scratch vector it never
    initialises: declared (measured: NullPointerException), and so it stays."""
    reason = engine.adapter.start()["formats"]["orc"]["cannot_write"]["mask:redact"]
    assert "sharedBuffer" in reason
    case = case_by_id("orc/encryption/mask-redact")
    with pytest.raises(AdapterError, match="sharedBuffer"):
        engine.write(case, tmp_path / "redact.orc")


def test_finding_stride_under_1000_refused(engine, tmp_path):
    with pytest.raises(AdapterError, match="Row stride must be at least 1000"):
        engine.write(case_by_id("orc/encryption/nested-column"), tmp_path / "nested.orc")


def test_finding_tampered_footer_key_and_statistics_not_noticed(engine, tmp_path):
    """orc-core reads the rows with the stripes' local keys and never decrypts the variant's
    file statistics: a flipped footer local key or flipped statistics go unnoticed (the
    reference rejects both: DecryptionFailed), and the rows are the original's."""
    from conformance.golden.orc import encryption_files

    for make in (encryption_files.tampered_footer_local_key, encryption_files.tampered_file_statistics):
        path = tmp_path / f"{make.__name__}.orc"
        path.write_bytes(make())
        assert engine.read(path).rows == tuple((i, f"name {i}") for i in range(encryption_files.ROWS))
