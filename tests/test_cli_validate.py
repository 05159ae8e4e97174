"""`conformance validate` as a user runs it (a subprocess, real exit codes)."""

from __future__ import annotations

import io
import json
import struct

from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, Type
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.test_validation import stats_mutated
from tests.test_cli import conformance

TREE = root([leaf("x", Type.INT64, repetition=FieldRepetitionType.OPTIONAL)])
VALUES = [None if k % 5 == 0 else k * 3 - 40 for k in range(50)]


def write(path, **options) -> str:
    sink = io.BytesIO()
    write_table(
        sink, TREE, [{"x": v} for v in VALUES], WriterOptions(page_row_limit=10, page_index=True, **options)
    )
    path.write_bytes(sink.getvalue())
    return str(path)


def test_a_true_file_exits_0_with_a_summary(tmp_path):
    done = conformance("validate", write(tmp_path / "true.parquet"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{tmp_path / 'true.parquet'}: 0 findings, 0 untrue, 0 nonconforming, 0 ambiguous, 0 advisory; "
        "0 at or above untrue"]


def test_an_untrue_file_exits_1_one_line_per_finding(tmp_path):
    done = conformance(
        "validate", write(tmp_path / "lies.parquet", lies={"statistics", "crc"}, page_checksum=True)
    )
    assert done.returncode == 1, done.stderr
    *lines, summary = done.stdout.splitlines()
    rows = [line.split("\t") for line in lines]
    assert [row[:3] for row in rows[:2]] == [
        ["untrue", "statistics.min_value", "column x, row group 0"],
        ["untrue", "statistics.min", "column x, row group 0"],
    ]
    # the sentence checked, with its strength and section, ends every line
    assert rows[0][4] == ('fact: "Lower and upper bound values for the column, determined by its '
                          'ColumnOrder" (parquet.thrift: struct Statistics)')
    assert [row[1] for row in rows[2:]] == ["crc"] * 5
    assert [row[2] for row in rows[2:]] == [f"column x, row group 0, data page {p}" for p in range(5)]
    assert summary.endswith(": 7 findings, 7 untrue, 0 nonconforming, 0 ambiguous, 0 advisory; "
                            "7 at or above untrue")


def test_json_output(tmp_path):
    path = write(tmp_path / "lies.parquet", lies={"page_index"})
    done = conformance("validate", "--json", path)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert set(document) == {"file", "findings", "untrue", "nonconforming", "ambiguous", "advisory",
                             "fail_on", "failing"}
    assert document["file"] == path
    assert (document["untrue"], document["nonconforming"]) == (5, 0)
    assert document["findings"][0] == {
        "kind": "column_index.min_values",
        "severity": "untrue",
        "column": "x",
        "row_group": 0,
        "page": 0,
        "message": document["findings"][0]["message"],
        "rule": {"strength": "fact", "spec": "parquet.thrift: struct ColumnIndex",
                 "sentence": "Two lists containing lower and upper bounds for the values of each page "
                             "determined by the ColumnOrder of the column"},
    }
    assert [f["page"] for f in document["findings"]] == [0, 1, 2, 3, 4]


def test_json_of_a_true_file(tmp_path):
    done = conformance("validate", "--json", write(tmp_path / "true.parquet"))
    assert done.returncode == 0
    assert json.loads(done.stdout)["findings"] == []


def _nan_bounds_file(tmp_path) -> str:
    sink = io.BytesIO()
    tree = root([leaf("d", Type.DOUBLE, repetition=FieldRepetitionType.REQUIRED)])
    write_table(sink, tree, [{"d": v} for v in (1.0, 2.0)], WriterOptions())
    nan = struct.pack("<d", float("nan"))
    path = tmp_path / "nan.parquet"
    path.write_bytes(stats_mutated(sink.getvalue(), "d", max_value=nan, max=nan))
    return str(path)


def test_advisory_findings_exit_0_unless_strict_asks_for_them(tmp_path):
    path = _nan_bounds_file(tmp_path)
    done = conformance("validate", "--json", path)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert (document["untrue"], document["nonconforming"], document["advisory"]) == (0, 0, 2)
    assert {f["kind"] for f in document["findings"]} == {"statistics.nan_bound"}
    assert {f["rule"]["strength"] for f in document["findings"]} == {"SHOULD"}
    assert conformance("validate", "--strict", path).returncode == 0  # nonconforming and worse
    assert conformance("validate", "--fail-on", "ambiguous", path).returncode == 0
    strict = conformance("validate", "--fail-on", "advisory", path)
    assert strict.returncode == 1
    assert strict.stdout.splitlines()[-1].endswith("; 2 at or above advisory")


def test_a_file_that_cannot_be_read_exits_2(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1 this is not a parquet file PAR2")
    done = conformance("validate", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("conformance validate: BadMagic")


def test_a_missing_file_exits_2(tmp_path):
    done = conformance("validate", str(tmp_path / "missing.parquet"))
    assert done.returncode == 2
    assert "missing.parquet" in done.stderr
