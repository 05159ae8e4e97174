"""The Spark adapter: how cases map to parquet-java's writer settings, and the
evidence it keeps when a Spark job fails."""

from __future__ import annotations

import pytest

from conformance.cases import case_by_id
from conformance.engines import get_engine
from conformance.engines.base import Unsupported
from conformance.engines.parquet.spark_engine import SparkEngine, SparkJobFailed
from conformance.values import types as T
from tests.engines._helpers import single_column_case, write_case


def test_plain_in_v2_pages_is_not_what_parquet_java_writes_for_ints():
    case = single_column_case(T.integer(64), [1], page_version=2)
    with pytest.raises(Unsupported, match="DELTA_BINARY_PACKED, not PLAIN"):
        SparkEngine._write_options(case)


@pytest.mark.parametrize(("encoding", "version", "expected"), [
    ("PLAIN", 1, {"parquet.writer.version": "v1", "parquet.enable.dictionary": "false",
                  "parquet.enable.bytestreamsplit": "false"}),
    ("PLAIN_DICTIONARY", 1, {"parquet.writer.version": "v1", "parquet.enable.dictionary": "true"}),
    ("RLE_DICTIONARY", 2, {"parquet.writer.version": "v2", "parquet.enable.dictionary": "true"}),
    ("DELTA_BINARY_PACKED", 2, {"parquet.writer.version": "v2",
                                "parquet.enable.dictionary": "false",
                                "parquet.enable.bytestreamsplit": "false"}),
    (None, 2, {"parquet.writer.version": "v2"}),
])
def test_encodings_map_to_writer_version_and_dictionary(encoding, version, expected):
    case = single_column_case(T.integer(32), [1], encoding=encoding, page_version=version)
    options = SparkEngine._write_options(case)
    assert {k: v for k, v in options.items() if k.startswith("parquet.")} == expected


def test_dictionary_names_follow_the_writer_version():
    case = single_column_case(T.integer(32), [1], encoding="RLE_DICTIONARY", page_version=1)
    with pytest.raises(Unsupported, match="PLAIN_DICTIONARY"):
        SparkEngine._write_options(case)


@pytest.mark.spark
def test_a_failed_read_keeps_the_java_root_cause(spark, tmp_path):
    # The pyspark wheel bundles no Brotli codec: the top-level Spark error says only
    # "Encountered error while reading file"; the evidence is in the causes.
    path = write_case(get_engine("reference"), case_by_id("codec/brotli-v1"), tmp_path)
    with pytest.raises(SparkJobFailed, match=r"(?s)caused by: .*BrotliCodec"):
        get_engine("spark").read(path)
