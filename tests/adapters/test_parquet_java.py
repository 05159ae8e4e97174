"""The parquet-java adapter (adapters/java/parquet-java): its start answer, representative
cases both ways against the reference, a write option checked in the file, a bad file
rejected, and the engine findings of its README, each pinned to its exact wrong outcome."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from conformance.cases import case_by_id
from conformance.engines.protocol.external import AdapterError, ExternalEngine
from conformance.java_build import pyspark_jars_dir
from reference_impl.parquet.reader import read_footer
from tests.adapters.both_ways import assert_read_back, case_file

GOLDEN = Path(__file__).resolve().parents[2] / "golden_files"
GOLDEN_BAD = GOLDEN / "bad"
QUIET_NAN_BITS = 0x7FF8000000000000

BOTH_WAYS = [
    "physical/int64-optional",
    "physical/int96-required",
    "logical/float16-nan-payloads-optional",
    "logical/decimal-flba-optional",
    "logical/uuid-required",
    "nested/map-of-lists",
    "nested/list-of-structs",
    "encoding/delta_length_byte_array-string-optional-v2",
    "encoding/plain_dictionary-int96-optional-v1",
    "encryption/explicit-aes-gcm-ctr-v1-plaintext-footer-per_column",
    "encryption/kms-double-wrapping",
    "encryption/aad-prefix-supplied",
]

pytestmark = pytest.mark.jvm  # the adapter is a JVM of its own


@pytest.fixture(scope="module")
def engine(bundled_engine) -> ExternalEngine:
    return bundled_engine("parquet-java")


def test_start_answer(engine):
    started = engine.adapter.start()  # checked against start.response.json on the way in
    assert started["name"] == "parquet-java" and started["language"] == "java"
    jars = [p.name for p in pyspark_jars_dir().glob("parquet-column-*.jar")]
    assert jars == [f"parquet-column-{started['version']}.jar"]
    assert started["formats"]["parquet"]["reads"] == ["*"]
    assert "encryption:*" in started["formats"]["parquet"]["writes"]


@pytest.mark.parametrize("case_id", BOTH_WAYS)
def test_case_both_ways(engine, reference, case_id, tmp_path):
    assert_read_back(engine, reference, case_id, tmp_path)
    assert_read_back(reference, engine, case_id, tmp_path)


def test_page_v2_and_encoding_are_written(engine, tmp_path):
    """The footer's PageEncodingStats (parquet-java writes them) name the page kind."""
    path = case_file(engine, "encoding/delta_length_byte_array-string-optional-v2", tmp_path)[1]
    metadata, _ = read_footer(path.read_bytes())
    [column] = metadata.row_groups[0].columns
    stats = {(s.page_type.name, s.encoding.name) for s in column.meta_data.encoding_stats}
    assert stats == {("DATA_PAGE_V2", "DELTA_LENGTH_BYTE_ARRAY")}


def test_bad_file_rejected(engine):
    with pytest.raises(AdapterError) as error:
        engine.read(GOLDEN_BAD / "framing" / "bad-trailing-magic.parquet")
    assert type(error.value).__name__ == "RuntimeException"
    assert "is not a Parquet file" in str(error.value)


# ---- engine findings (listed in the adapter's README): these fail once parquet-java is fixed ----

def test_finding_plain_writer_canonicalizes_nan_payloads(engine, reference, tmp_path):
    """LittleEndianDataOutputStream.writeDouble/writeFloat use Double.doubleToLongBits /
    Float.floatToIntBits, which collapse every NaN to the quiet NaN."""
    path = case_file(engine, "physical/double-nan-payloads-required", tmp_path)[1]
    values = [row[0] for row in reference.read(path).rows]
    expected = [row[0] for row in case_by_id("physical/double-nan-payloads-required").rows]
    assert any(struct.pack("<d", v) != struct.pack("<d", float("nan")) for v in expected)
    assert {struct.unpack("<Q", struct.pack("<d", v))[0] for v in values} == {QUIET_NAN_BITS}, \
        "parquet-java now keeps NaN payloads: drop this finding from README.md"


def test_finding_interval_written_with_unknown_logical_type(engine, tmp_path):
    path = case_file(engine, "logical/interval-required", tmp_path)[1]
    metadata, _ = read_footer(path.read_bytes())
    element = metadata.schema[1]
    assert element.converted_type.name == "INTERVAL"
    assert element.logicalType is not None and element.logicalType.UNKNOWN is not None, \
        "parquet-java no longer writes LogicalType UNKNOWN on INTERVAL: drop this finding"


def test_finding_dictionary_encoded_booleans_unreadable(engine, reference, tmp_path):
    path = tmp_path / "rle_dictionary-boolean.parquet"
    reference.write(case_by_id("encoding/rle_dictionary-boolean-required-v1"), path)
    with pytest.raises(AdapterError) as error:
        engine.read(path)
    assert type(error.value).__name__ == "ParquetDecodingException"
    assert "Dictionary encoding not supported for type: BOOLEAN" in str(error.value), \
        "parquet-java now reads dictionary-encoded BOOLEAN pages: drop this finding"


def test_finding_fastparquet_lz4_unreadable(engine):
    """Codec LZ4 (5) pages as fastparquet writes them: parquet-java expects Hadoop's LZ4
    framing (Compression.md, 'LZ4': the deprecated codec's framing is ambiguous)."""
    path = GOLDEN / "cases" / "codec" / "lz4-v1" / "fastparquet" / "lz4-v1.parquet"
    with pytest.raises(AdapterError) as error:
        engine.read(path)
    assert type(error.value).__name__ == "ParquetDecodingException"
    assert "caused by EOFException" in str(error.value), \
        "parquet-java now reads fastparquet's LZ4 pages: drop this finding"


# Bad files (golden_files/bad/index.json says why each must be rejected) that parquet-java
# reads without an error, each with the row count it returns.
ACCEPTED_BAD_FILES = {
    "framing/bad-leading-magic": 10,  # 'PAR0' at the start: only the tail magic is checked
    "levels/run-past-end": 10,  # definition levels run past their length prefix
    "metadata/num-rows-mismatch": 10,  # FileMetaData.num_rows one more than the row groups
    "page/compressed-size-lies": 10,  # compressed_page_size one byte larger than the body
    "schema/group-without-children": 10,  # a group with num_children 0
}


@pytest.mark.parametrize("bad_file", sorted(ACCEPTED_BAD_FILES))
def test_finding_bad_file_accepted(engine, bad_file):
    table = engine.read(GOLDEN_BAD / f"{bad_file}.parquet")
    assert len(table.rows) == ACCEPTED_BAD_FILES[bad_file], \
        f"parquet-java now rejects bad/{bad_file}: drop this finding"
