"""`conformance read` / `validate` with explicit keys: any encrypted file, no KMS needed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from conformance.cases import case_by_id
from conformance.engines import get_engine
from conformance.kms.case_keys import FOOTER_ROLE, column_role, explicit_key
from conformance.values import Table, diff_tables
from tests.test_cli import conformance

CASE = case_by_id("encryption/explicit-aes-gcm-v1-encrypted-footer-per_column")
BITS = CASE.options.encryption.key_bits
FOOTER = explicit_key(FOOTER_ROLE, BITS).hex()
COLUMNS = [f"--column-key={c}={explicit_key(column_role(c), BITS).hex()}"
           for c in CASE.options.encryption.column_keys]


@pytest.fixture(scope="module")
def encrypted(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "f.parquet"
    get_engine("reference").write(CASE, path)
    return path


def test_read_with_explicit_keys(encrypted):
    done = conformance("read", "--footer-key", FOOTER, *COLUMNS, str(encrypted))
    assert done.returncode == 0, done.stderr
    assert diff_tables(CASE.expected, Table.from_document(json.loads(done.stdout))) is None


def test_a_wrong_footer_key_fails_to_authenticate(encrypted):
    done = conformance("read", "--footer-key", "00" * 16, *COLUMNS, str(encrypted))
    assert done.returncode == 1
    assert done.stderr.startswith("DecryptionFailed")


def test_a_missing_column_key_is_named(encrypted):
    done = conformance("read", "--footer-key", FOOTER, str(encrypted))
    assert done.returncode == 1
    assert done.stderr.startswith("MissingKey") and "name" in done.stderr


def test_validate_with_explicit_keys(encrypted):
    done = conformance("validate", "--json", "--footer-key", FOOTER, *COLUMNS, str(encrypted))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["untrue"] == 0


@pytest.mark.parametrize("arguments", [
    ["--footer-key", "xyz"], ["--column-key", "name"], ["--footer-key", "00" * 5],
    ["--engine", "pyarrow", "--aad-prefix", "a"],
])
def test_bad_key_arguments_are_usage_errors(encrypted, arguments):
    done = conformance("read", *arguments, str(encrypted))
    assert done.returncode == 2, done.stderr


def test_a_supplied_aad_prefix_is_checked_against_the_stored_one(tmp_path):
    case = case_by_id("encryption/aad-prefix-stored")
    case = replace(case, options=replace(case.options, encryption=replace(
        case.options.encryption, key_management="explicit")))
    path = tmp_path / "stored.parquet"
    get_engine("reference").write(case, path)
    footer = explicit_key(FOOTER_ROLE, BITS).hex()
    assert conformance("read", "--footer-key", footer, "--aad-prefix", "employees_23May2018.part0",
                       str(path)).returncode == 0
    wrong = conformance("read", "--footer-key", footer, "--aad-prefix", "contractors", str(path))
    assert wrong.returncode == 1 and "AAD prefix mismatch" in wrong.stderr
