"""Filtered-read and validator cells: planned for the right cases, run in-process
with the reference engine (no JVM)."""

from __future__ import annotations

import json

import pytest

from conformance.cases import case_by_id
from conformance.matrix.cells import EngineInfo, plan_reads, plan_writes, reads_per_write
from conformance.matrix.execute import run_cell

REFERENCE = EngineInfo(spec="reference", name="reference", version="0", isolated=True)
PYARROW = EngineInfo(spec="pyarrow", name="pyarrow", version="0", isolated=True)


def _written(case_id: str, tmp_path) -> dict:
    (request,) = plan_writes("run", [case_by_id(case_id)], {"parquet": [REFERENCE]})
    record = run_cell(request, tmp_path)
    assert record["outcome"] == "pass", record["detail"]
    return record


def _reads(case_id: str, tmp_path) -> dict[str, dict]:
    case = case_by_id(case_id)
    requests = plan_reads("run", [case], [_written(case_id, tmp_path)], {"parquet": [REFERENCE, PYARROW]})
    assert len(requests) == reads_per_write(case, 2)
    return {r["cell_id"]: run_cell(r, tmp_path) for r in requests}


def test_a_case_without_predicate_gets_full_reads_and_the_validator(tmp_path):
    cells = _reads("physical/int32-optional", tmp_path)
    assert sorted(cells) == ["read/reference/pyarrow/physical/int32-optional",
                             "read/reference/reference/physical/int32-optional",
                             "read/reference/validator/physical/int32-optional"]
    assert all(c["outcome"] == "pass" for c in cells.values())


def test_honest_page_index_filtered_reads_pass(tmp_path):
    cells = _reads("page_index/point-lookup", tmp_path)
    for reader in ("reference", "pyarrow"):
        cell = cells[f"read/reference/{reader}:filter/page_index/point-lookup"]
        assert cell["outcome"] == "pass", cell["detail"]
        assert cell["reader"] == f"{reader}:filter"
    assert json.loads(cells["read/reference/validator/page_index/point-lookup"]["findings"]) == []


@pytest.mark.parametrize(("case_id", "kind"), [
    ("page_index/lying-statistics", "statistics.min_value"),
    ("page_index/lying-column-index", "column_index.min_values"),
    ("bloom_filter/lying-int32", "bloom_filter"),
    ("column_orders/lying-nan-count", "statistics.nan_count"),
    ("column_orders/lying-statistics", "statistics.min_value"),
])
def test_a_lie_is_trusted_by_the_reference_scan_and_reported_by_the_validator(tmp_path, case_id, kind):
    cells = _reads(case_id, tmp_path)
    filtered = cells[f"read/reference/reference:filter/{case_id}"]
    assert filtered["outcome"] == "mismatch"
    assert "filtered read WHERE" in filtered["detail"]
    assert cells[f"read/reference/reference/{case_id}"]["outcome"] == "pass"
    validator = cells[f"read/reference/validator/{case_id}"]
    assert validator["outcome"] == "mismatch"
    kinds = {f["kind"] for f in json.loads(validator["findings"])}
    assert kind in kinds


def test_an_honest_total_order_file_passes_every_reference_cell_without_a_finding(tmp_path):
    case_id = "column_orders/ieee_754_total_order/double-nans-ne-1"
    cells = _reads(case_id, tmp_path)
    for reader in ("reference", "reference:filter"):
        cell = cells[f"read/reference/{reader}/{case_id}"]
        assert cell["outcome"] == "pass", cell["detail"]
    assert json.loads(cells[f"read/reference/validator/{case_id}"]["findings"]) == []


def test_the_crc_lie_is_a_crc_finding_on_every_page(tmp_path):
    validator = _reads("checksum/corrupted", tmp_path)["read/reference/validator/checksum/corrupted"]
    findings = json.loads(validator["findings"])
    assert validator["outcome"] == "mismatch"
    assert {f["kind"] for f in findings} == {"crc"}
    assert len(findings) == 2 * 5  # two columns of 50 rows in pages of 12
