"""Spark (parquet-java PropertiesDrivenCryptoFactory + the Java test KMS) <-> pyarrow (+ the Python KMS).

One subprocess runs one SparkSession whose JVM starts with the compiled test KMS
on its classpath (`spark_encryption_conf`): the shared `spark` fixture's JVM is
already running and cannot take it. For every mode (algorithm x footer x
wrapping, plus uniform encryption, 256-bit data keys and external key material):

* Spark writes, then pyarrow reads with the Python KMS, and `KeyRetriever`
  recovers every DEK from the key_metadata (proven by decrypting the footer /
  ColumnMetaData modules);
* pyarrow writes, then Spark reads.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from conformance.kms import InMemoryTestKms, KeyRetriever, KeyUnwrapError, parse_key_metadata
from conformance.kms.in_memory import KEY_LIST_PROPERTY, TEST_MASTER_KEYS, format_key_list
from conformance.kms.key_material import load_external_key_material
from conformance.kms.spark_conf import spark_write_options
from tests.kms._crypto_probe import read_encrypted_file
from tests.kms._pyarrow_cases import (
    ALGORITHMS,
    COLUMN_KEYS,
    ENCRYPTED_COLUMNS,
    FOOTER_KEY,
    FOOTERS,
    WRAPPINGS,
    read_with_pyarrow,
    recover_and_check,
    sample_table,
    write_encrypted,
)

pytestmark = [pytest.mark.spark, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[2]
WORKER_TIMEOUT_SECONDS = 600
UNIFORM_COLUMNS = {name: "<footer key>" for name in ("a", "b", "c", "d")}


def _mode_id(mode: tuple[str, ...]) -> str:
    return "-".join(mode)


# name -> (pyarrow write_encrypted kwargs, spark_write_options kwargs, expected column -> master key)
CASES: dict[str, tuple[dict, dict, dict]] = {}
for _algorithm, _footer, _wrapping in itertools.product(ALGORITHMS, FOOTERS, WRAPPINGS):
    CASES[_mode_id((_algorithm, _footer, _wrapping))] = (
        {"algorithm": _algorithm, "footer": _footer, "wrapping": _wrapping},
        {"algorithm": _algorithm, "plaintext_footer": _footer == "plaintext_footer",
         "double_wrapping": _wrapping == "double_wrapping", "column_keys": COLUMN_KEYS},
        ENCRYPTED_COLUMNS,
    )
CASES["uniform"] = ({"uniform": True}, {}, UNIFORM_COLUMNS)
CASES["data_key_256"] = ({"data_key_length_bits": 256},
                         {"data_key_length_bits": 256, "column_keys": COLUMN_KEYS},
                         ENCRYPTED_COLUMNS)
CASES["external_key_material"] = ({"internal_key_material": False},
                                  {"internal_key_material": False, "column_keys": COLUMN_KEYS},
                                  ENCRYPTED_COLUMNS)
PLAINTEXT_CASE = "plaintext_with_factory_set"
# A second key set in the same JVM: parquet-java caches the KMS client per access token,
# so the write passes its own key list *and* its own token.
OTHER_KEYS_CASE = "other_master_keys"
OTHER_MASTER_KEYS = {"footer_key": bytes(range(1, 17)), "column_key_1": bytes(range(2, 18))}


def _spark_part_file(out_dir: Path) -> Path:
    parts = sorted(out_dir.glob("part-*.parquet"))
    names = sorted(path.name for path in out_dir.iterdir())
    assert len(parts) == 1, f"expected one part file in {out_dir}: {names}"
    return parts[0]


@pytest.fixture(scope="module")
def interop(tmp_path_factory):
    """Write the pyarrow files, run the Spark worker once, return (results, work dir)."""
    work = tmp_path_factory.mktemp("kms_interop")
    plan = {"writes": [], "reads": []}
    for name, (arrow_kwargs, spark_kwargs, _) in CASES.items():
        write_encrypted(work / f"arrow-{name}.parquet", **arrow_kwargs)
        plan["reads"].append({"name": f"read:{name}", "path": str(work / f"arrow-{name}.parquet")})
        options = spark_write_options(FOOTER_KEY, **spark_kwargs)
        out_dir = str(work / f"spark-{name}")
        plan["writes"].append({"name": f"write:{name}", "options": options, "out_dir": out_dir})
    plan["writes"].append({"name": f"write:{PLAINTEXT_CASE}", "options": {},
                           "out_dir": str(work / f"spark-{PLAINTEXT_CASE}")})
    plan["reads"].append({"name": f"read:{PLAINTEXT_CASE}", "path": str(work / f"spark-{PLAINTEXT_CASE}")})
    other_options = {**spark_write_options(FOOTER_KEY, {"column_key_1": ["a"]}, access_token="other-keys"),
                     KEY_LIST_PROPERTY: format_key_list(OTHER_MASTER_KEYS)}
    plan["writes"].append({"name": f"write:{OTHER_KEYS_CASE}", "options": other_options,
                           "out_dir": str(work / f"spark-{OTHER_KEYS_CASE}")})
    (work / "plan.json").write_text(json.dumps(plan, indent=1))
    python_path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": python_path}
    command = [sys.executable, "-m", "tests.kms._spark_worker",
               str(work / "plan.json"), str(work / "results.json")]
    completed = subprocess.run(
        command,
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=WORKER_TIMEOUT_SECONDS, check=False,
    )
    output = f"{completed.stdout[-3000:]}\n{completed.stderr[-6000:]}"
    assert completed.returncode == 0, f"Spark worker failed:\n{output}"
    return json.loads((work / "results.json").read_text()), work


def _result(results: dict, name: str) -> dict:
    result = results[name]
    assert result["ok"], f"{name}: {result['error']}"
    return result


@pytest.mark.parametrize("case", list(CASES))
def test_spark_writes_pyarrow_reads(interop, case):
    results, work = interop
    _result(results, f"write:{case}")
    part = _spark_part_file(work / f"spark-{case}")
    table = read_with_pyarrow(part, master_keys=TEST_MASTER_KEYS)
    assert table.to_pylist() == sample_table().to_pylist()


@pytest.mark.parametrize("case", list(CASES))
def test_spark_file_keys_recovered(interop, case):
    results, work = interop
    _result(results, f"write:{case}")
    part = _spark_part_file(work / f"spark-{case}")
    arrow_kwargs, _, expected_columns = CASES[case]
    retriever = KeyRetriever.for_file(InMemoryTestKms(), part)
    if not arrow_kwargs.get("internal_key_material", True):
        assert load_external_key_material(part), "external key material: the sibling JSON file is missing"
    key_bytes = arrow_kwargs.get("data_key_length_bits", 128) // 8
    assert recover_and_check(part.read_bytes(), retriever, expected_key_bytes=key_bytes) == expected_columns


@pytest.mark.parametrize("case", list(CASES))
def test_pyarrow_writes_spark_reads(interop, case):
    results, _ = interop
    rows = _result(results, f"read:{case}")["rows"]
    assert rows == sample_table().to_pylist()


def test_factory_set_globally_keeps_plaintext_files_plaintext(interop):
    results, work = interop
    _result(results, f"write:{PLAINTEXT_CASE}")
    part = _spark_part_file(work / f"spark-{PLAINTEXT_CASE}")
    assert part.read_bytes()[-4:] == b"PAR1"
    assert pq.read_table(part).to_pylist() == sample_table().to_pylist()
    assert _result(results, f"read:{PLAINTEXT_CASE}")["rows"] == sample_table().to_pylist()


def test_spark_key_material_fields(interop):
    """The measured parquet-java material: same field names and defaults as pyarrow's."""
    results, work = interop
    _result(results, "write:AES_GCM_V1-encrypted_footer-double_wrapping")
    part = _spark_part_file(work / "spark-AES_GCM_V1-encrypted_footer-double_wrapping")
    metadata = parse_key_metadata(read_encrypted_file(part.read_bytes()).footer_key_metadata)
    material = metadata.material
    assert metadata.internal_storage and material.is_footer_key and material.double_wrapping
    assert (material.kms_instance_id, material.kms_instance_url) == ("DEFAULT", "DEFAULT")


def test_other_master_keys_with_their_own_access_token(interop):
    results, work = interop
    _result(results, f"write:{OTHER_KEYS_CASE}")
    part = _spark_part_file(work / f"spark-{OTHER_KEYS_CASE}")
    retriever = KeyRetriever(InMemoryTestKms(OTHER_MASTER_KEYS))
    assert recover_and_check(part.read_bytes(), retriever) == {"a": "column_key_1"}
    assert read_with_pyarrow(part, master_keys=OTHER_MASTER_KEYS).to_pylist() == sample_table().to_pylist()
    with pytest.raises(KeyUnwrapError):
        KeyRetriever(InMemoryTestKms())(read_encrypted_file(part.read_bytes()).footer_key_metadata)
