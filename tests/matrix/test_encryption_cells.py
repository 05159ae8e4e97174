"""Encrypted cases in the matrix, run in-process with the reference (no JVM): the
reference reads and validates its own files from their key_metadata alone, and a
file renamed under the suite's AAD prefix convention no longer opens."""

from __future__ import annotations

import shutil

import pytest

from conformance.cases import all_cases, case_by_id
from conformance.engines import get_engine
from conformance.matrix.cells import EngineInfo, plan_reads, plan_writes
from conformance.matrix.execute import run_cell
from reference_impl.parquet.errors import DecryptionFailed

REFERENCE = EngineInfo(spec="reference", name="reference", version="0", isolated=True)
ENCRYPTED = [case.id for case in all_cases() if case.id.startswith("encryption/")]


def test_every_mode_is_in_the_catalogue():
    tags = {tag for case_id in ENCRYPTED for tag in case_by_id(case_id).features}
    for expected in ("encryption:AES_GCM_V1", "encryption:AES_GCM_CTR_V1", "encryption:footer=plaintext",
                     "encryption:footer=encrypted", "encryption:keys=uniform", "encryption:keys=per_column",
                     "encryption:key_bits=192", "encryption:key_bits=256", "encryption:aad_prefix=stored",
                     "encryption:aad_prefix=supplied", "encryption:key_management=kms_double"):
        assert expected in tags


@pytest.mark.parametrize("case_id", ENCRYPTED)
def test_the_reference_reads_and_validates_its_encrypted_files(tmp_path, case_id):
    case = case_by_id(case_id)
    (write,) = plan_writes("run", [case], {"parquet": [REFERENCE]})
    written = run_cell(write, tmp_path)
    assert written["outcome"] == "pass", written["detail"]
    reads = plan_reads("run", [case], [written], {"parquet": [REFERENCE]})
    cells = {r["reader"]: run_cell(r, tmp_path) for r in reads}
    assert cells["reference"]["outcome"] == "pass", cells["reference"]["detail"]
    assert cells["validator"]["outcome"] == "pass", cells["validator"]["detail"]


def test_a_renamed_file_fails_its_supplied_aad_prefix(tmp_path):
    reference = get_engine("reference")
    original = tmp_path / "part-0.parquet"
    reference.write(case_by_id("encryption/aad-prefix-supplied"), original)
    swapped = tmp_path / "part-1.parquet"
    shutil.copy(original, swapped)
    reference.read(original)
    with pytest.raises(DecryptionFailed):
        reference.read(swapped)
