"""A hunt is of one file format: a saved finding of a pair on a Parquet example does not
make the same kind of finding on an ORC example known, nor the other way round."""

from __future__ import annotations

from conformance.cases import Case, WriteOptions
from conformance.cases.orc import sections
from conformance.cases.orc import types as O
from conformance.cases.orc.options import OrcWriteOptions
from conformance.golden.regressions import Finding, save_regression, saved_kinds
from conformance.values import Field, Schema
from conformance.values import types as T

PARQUET_CASE = Case("property/p", "a Parquet example", ("parquet.thrift: enum Type",),
                    Schema((Field("c", T.integer(8)),)), ((1,),), WriteOptions())
ORC_CASE = Case("property/o", "an ORC example", (sections.TINYINT_COLUMNS,),
                Schema((Field("c", O.integer(8)),)), ((1,),), OrcWriteOptions(), format="orc")


def _finding(detail: str) -> Finding:
    return Finding("reference", "0", "pyarrow", "1", "error", detail, "2026-01-01T00:00:00+00:00", "test")


def test_only_the_hunted_formats_findings_are_known(tmp_path):
    save_regression(PARQUET_CASE, _finding("parquet boom"), None, tmp_path)
    save_regression(ORC_CASE, _finding("orc boom"), None, tmp_path)
    assert saved_kinds(tmp_path, "parquet") == {("reference", "pyarrow", "error", "parquet boom")}
    assert saved_kinds(tmp_path, "orc") == {("reference", "pyarrow", "error", "orc boom")}
