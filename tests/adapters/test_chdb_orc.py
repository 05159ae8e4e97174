"""chdb's ORC half (adapters/python/chdb/chdb_orc.py): ClickHouse writes ORC cases the
reference reads exactly and reads the reference's files exactly, declares what it cannot
do with the measured error, and the ClickHouse ORC findings it reports.

Each `test_finding_*` pins a wrong outcome of ClickHouse 26.9.2.1 (chdb 4.4.0): when one
fails, ClickHouse has changed, and adapters/python/chdb/README.md ('ORC') and
docs/engine-notes.md ("chDB's ORC") should say what it does now.
"""

from __future__ import annotations

import pytest

from conformance.cases import case_by_id
from conformance.cases.model import KEYLESS_VIEW_TAG
from conformance.engines import Unsupported, get_engine
from conformance.engines.protocol.external import AdapterError, ExternalEngine, command_spec
from conformance.matrix.execute import read_and_compare
from reference_impl.orc.reader import read_orc
from tests.adapters.both_ways import assert_read_back, case_file

NAME = "chdb"
ORC_CPP_WRITER = 1  # orc_proto.proto Footer.writer: 1 is ORC C++ (ORCv1.md, 'Footer')

# ClickHouse writes these as asked and the reference reads them back exactly (measured
# in the run of reference,chdb over orc/*).
ROUND_TRIPS = ("orc/types/bigint-nulls", "orc/types/string-nulls", "orc/types/decimal-38-38",
               "orc/nested/struct", "orc/codecs/zstd", "orc/encodings/string-dictionary-v0.12")
READS = ("orc/types/double-nulls", "orc/types/date-nulls", "orc/encodings/rle-v1-runs-and-literals",
         "orc/stripes/several")


@pytest.fixture(scope="module")
def chdb(adapter_command) -> ExternalEngine:
    return ExternalEngine(command_spec(NAME, adapter_command(NAME)), "orc")


@pytest.fixture(scope="module")
def reference():
    return get_engine("reference", "orc")


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_write_read_back_by_reference(chdb, reference, case_id, tmp_path):
    assert_read_back(chdb, reference, case_id, tmp_path)


@pytest.mark.parametrize("case_id", ROUND_TRIPS + READS)
def test_read_reference_file(chdb, reference, case_id, tmp_path):
    assert_read_back(reference, chdb, case_id, tmp_path)


def test_written_file_says_orc_cpp_and_the_options(chdb, tmp_path):
    _, path = case_file(chdb, "orc/codecs/zlib", tmp_path)
    tail = read_orc(path).tail
    assert tail.footer.writer == ORC_CPP_WRITER
    assert tail.postscript.compression.name == "ZLIB"


def test_declared_gap_small_compression_block(chdb, tmp_path):
    # Measured: "std::invalid_argument: Compression block size must be a multiple of
    # memory block size" (ORC C++'s memory block, 64 KiB; ClickHouse has no setting for it).
    with pytest.raises(Unsupported, match="must be a multiple of memory block size"):
        chdb.write(case_by_id("orc/codecs/zlib-small-blocks"), tmp_path / "chdb.orc")


def test_declared_gap_brotli_read_is_the_measured_error(chdb, reference, tmp_path):
    assert "Unknown compression codec 6" in chdb.capabilities.read_gap(["codec:BROTLI"])
    _, path = case_file(reference, "orc/codecs/brotli", tmp_path)
    with pytest.raises(AdapterError, match="Unknown compression codec 6"):
        chdb.read(path)


def test_encrypted_file_read_without_keys_is_the_masked_view(chdb, reference, tmp_path):
    """No setting hands ClickHouse keys (`reads_keyless`): its read of the reference's
    sha256-masked file is judged against the masked view, and passes (measured)."""
    case, path = case_file(reference, "orc/encryption/mask-sha256", tmp_path)
    outcome, detail, marked = read_and_compare(chdb, case.features, path, case.expected, options=case.options)
    assert outcome == "pass", detail
    assert KEYLESS_VIEW_TAG in marked["features"]


def test_a_failed_query_does_not_spoil_the_next_read(chdb, reference, tmp_path):
    _, bad = case_file(reference, "orc/types/char", tmp_path)
    with pytest.raises(AdapterError, match="doesn't fit into FixedString"):
        chdb.read(bad)
    assert_read_back(reference, chdb, "orc/types/int", tmp_path)


# ---- findings: each asserts the wrong outcome measured with ClickHouse 26.9.2.1 -------

def test_finding_null_list_read_as_empty(chdb, reference, tmp_path):
    case, path = case_file(reference, "orc/nested/list", tmp_path)
    assert case.rows[2][0] is None
    assert chdb.read(path).rows[2][0] == [], "ClickHouse now reads a null LIST as null: fixed?"


def test_finding_timestamp_read_as_an_instant(chdb, reference, tmp_path):
    _, path = case_file(reference, "orc/types/timestamp-fractions", tmp_path)
    (column,) = chdb.read(path).schema
    assert column.type.utc is True


def test_finding_empty_stripe_is_rejected(chdb, reference, tmp_path):
    _, path = case_file(reference, "orc/shapes/empty-stripes", tmp_path)
    with pytest.raises(AdapterError, match="ORC stripe 0 has no rows"):
        chdb.read(path)


def test_finding_char_length_taken_as_bytes(chdb, reference, tmp_path):
    # CHAR(n) counts characters (ORCv1.md, 'Type Information'); ClickHouse reads it as
    # FixedString(n), n bytes, and a multi-byte character overflows it.
    _, path = case_file(reference, "orc/types/char", tmp_path)
    with pytest.raises(AdapterError, match=r"has size 6 that doesn't fit into FixedString\(5\)"):
        chdb.read(path)
