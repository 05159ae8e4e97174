"""The ORC Java adapter (adapters/java/orc-java, orc-core's Writer and Reader): its start
answer, cases Spark's DataFrame writer cannot write (a union, CHAR and VARCHAR, a
TIMESTAMP_INSTANT, a Bloom filter column, column encryption) both ways against the
reference, encrypted files without the keys (the masked view, ORCv1.md 'Data Masks'), the
Bloom filter in the written file, GEOMETRY and GEOGRAPHY (ORCv2.md, 'Geometry & Geography
Types') both ways with orc-core's GeospatialStatistics held against the reference's, and
the engine findings of its README, each pinned to its exact wrong outcome."""

from __future__ import annotations

import pytest

from conformance.cases import case_by_id
from conformance.engines import Unsupported
from conformance.engines.protocol import messages
from conformance.engines.protocol.external import AdapterError, ExternalEngine, command_spec
from conformance.java_build import pyspark_jars_dir
from conformance.values import Table, diff_tables
from reference_impl.orc.bloom_filter_index import read_bloom_filters
from reference_impl.orc.geospatial_statistics import geospatial_statistics
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import GeospatialStatistics
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.validation.validate import validate
from tests.adapters.both_ways import assert_read_back, case_file, masked_view
from tests.engines.orc._tables import O, column_case

BOTH_WAYS = [
    "orc/nested/union",
    "orc/types/varchar-nulls",
    "orc/types/timestamp-instant-far",
    "orc/indexes/bloom-filter-string",
]
BLOOM_COLUMN_ID = 2  # orc/indexes/bloom-filter-*: column 1 is the id, column 2 is x
# GEOMETRY cases whose GeospatialStatistics orc-core writes as the reference does
GEOMETRY_STATISTICS = ["orc/geospatial/points", "orc/geospatial/kinds", "orc/geospatial/zm",
                       "orc/geospatial/nulls", "orc/geospatial/stripes", "orc/geospatial/crs"]
# the reference's files orc-core reads: type attributes (CRS, algorithm) and WKB
GEOSPATIAL_READ = ["orc/geospatial/geography-karney", "orc/geospatial/crs", "orc/geospatial/big-endian",
                   "orc/geospatial/empty", "orc/geospatial/only-nulls"]
GEOSPATIAL_COLUMN_ID = 1  # orc/geospatial/*: column 1 is g
NOTHING_KNOWN = GeospatialStatistics(bbox=None, geospatial_types=[])  # 'an empty list if not known'

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


def _file_geospatial_statistics(path) -> GeospatialStatistics | None:
    statistics = read_file_tail(path.read_bytes(), decompress_stream).footer.statistics
    return statistics[GEOSPATIAL_COLUMN_ID].geospatial_statistics


def _case_statistics(case, geography: bool = False) -> GeospatialStatistics | None:
    """The reference's statistics of the case's non-null WKB values."""
    return geospatial_statistics([v for v, in case.rows if v is not None], geography)


@pytest.mark.parametrize("case_id", GEOMETRY_STATISTICS)
def test_geometry_written_with_the_reference_statistics(engine, orc_reference, case_id, tmp_path):
    """The reference reads the case's WKB from orc-core's file, whose file statistics are
    the box and type codes the reference computes from the case's values, and whose
    stripe and row group statistics the validator finds true."""
    case, path = case_file(engine, case_id, tmp_path)
    assert diff_tables(case.expected, orc_reference.read(path)) is None
    assert _file_geospatial_statistics(path) == _case_statistics(case)
    assert validate(path) == []


@pytest.mark.parametrize("case_id", GEOSPATIAL_READ)
def test_geospatial_read_from_the_reference(engine, orc_reference, case_id, tmp_path):
    """orc-core reads the reference's WKB byte for byte, and the CRS and algorithm the
    case names (orc-core's defaults, OGC:CRS84 and SPHERICAL, are absent as in the case)."""
    case, path = case_file(orc_reference, case_id, tmp_path)
    table = engine.read(path)
    assert diff_tables(case.expected, table) is None
    expected, got = case.expected.schema.fields[0].type, table.schema.fields[0].type
    assert (got.kind, got.crs, got.algorithm) == (expected.kind, expected.crs, expected.algorithm)


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


def test_finding_no_geospatial_statistics_for_geography(engine, tmp_path):
    """orc-core 2.3.0 writes a GEOGRAPHY column's GeospatialStatistics empty: no box (it is
    optional) and no type codes ("not known"), where the reference writes a box that wraps."""
    case, path = case_file(engine, "orc/geospatial/geography-antimeridian", tmp_path)
    assert _case_statistics(case, geography=True).bbox.xmin == 170.0  # xmin > xmax: it wraps
    assert _file_geospatial_statistics(path) == NOTHING_KNOWN


def test_finding_empty_geometries_leave_out_their_type_codes(engine, tmp_path):
    """ORCv2.md, 'Column Statistics': the types "from all instances"; orc-core leaves out the
    codes of empty geometries (POINT EMPTY, LINESTRING EMPTY, ...), so its list says the
    column holds points only, and the validator finds it untrue."""
    case, path = case_file(engine, "orc/geospatial/empty", tmp_path)
    assert _case_statistics(case).geospatial_types == [1, 2, 3, 7]
    assert _file_geospatial_statistics(path).geospatial_types == [1]
    assert {f.kind for f in validate(path)} == {"geospatial_statistics.geospatial_types"}
    _, only_empty = case_file(engine, "orc/geospatial/only-empty", tmp_path / "only")
    assert _file_geospatial_statistics(only_empty) == NOTHING_KNOWN  # where the values hold [1, 4]


# ---- column encryption (ORCv1.md, 'Column Encryption'), the suite's ORC test keys ----

ENCRYPTED = [
    "orc/encryption/one-column",
    "orc/encryption/nested-column",
    "orc/encryption/two-keys",
    "orc/encryption/mask-nullify",
    "orc/encryption/mask-redact",
    "orc/encryption/mask-sha256",
]
# The encrypted cases orc-core writes (the README: not the redact mask).
ENCRYPTED_BY_ORC_JAVA = [c for c in ENCRYPTED if c != "orc/encryption/mask-redact"]
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
    initialises (measured: NullPointerException): an error cell, a finding, not a gap."""
    case = case_by_id("orc/encryption/mask-redact")
    with pytest.raises(AdapterError, match="sharedBuffer"):
        engine.write(case, tmp_path / "redact.orc")


def test_a_stride_under_1000_is_answered_unsupported(engine, tmp_path):
    """orc-core refuses a row index stride under 1000 (measured): a declared gap with the
    measured message, not an error cell (the property hunts draw such strides)."""
    case = column_case("n", O.integer(64), range(10), row_index_stride=ORC_JAVA_MIN_STRIDE - 1)
    with pytest.raises(Unsupported, match="Row stride must be at least 1000"):
        engine.write(case, tmp_path / "stride.orc")


def test_finding_tampered_footer_key_and_statistics_not_noticed(engine, tmp_path):
    """orc-core reads the rows with the stripes' local keys and never decrypts the variant's
    file statistics: a flipped footer local key or flipped statistics go unnoticed (the
    reference rejects both: DecryptionFailed), and the rows are the original's."""
    from conformance.golden.orc import encryption_files

    for make in (encryption_files.tampered_footer_local_key, encryption_files.tampered_file_statistics):
        path = tmp_path / f"{make.__name__}.orc"
        path.write_bytes(make())
        assert engine.read(path).rows == tuple((i, f"name {i}") for i in range(encryption_files.ROWS))
