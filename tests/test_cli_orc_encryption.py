"""`conformance read` / `validate` with ORC keys (--orc-key NAME:VERSION:HEX, --orc-no-keys):
the true values with the keys, the masked view without, DecryptionFailed with a wrong key."""

from __future__ import annotations

import json

import pytest

from conformance.cases import case_by_id
from conformance.engines import get_engine
from conformance.kms.orc_keys import ORC_TEST_KEYS
from conformance.values import Table, diff_tables
from tests.test_cli import conformance

CASE = case_by_id("orc/encryption/one-column")
PII = ORC_TEST_KEYS["pii"]


@pytest.fixture(scope="module")
def encrypted(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "f.orc"
    get_engine("reference", "orc").write(CASE, path)
    return path


def test_read_with_the_key_gives_the_true_values(encrypted):
    done = conformance("read", "--orc-key", f"pii:{PII.version}:{PII.key.hex()}", str(encrypted))
    assert done.returncode == 0, done.stderr
    assert diff_tables(CASE.expected, Table.from_document(json.loads(done.stdout))) is None


def test_read_without_keys_gives_the_nullified_view(encrypted):
    done = conformance("read", "--orc-no-keys", str(encrypted))
    assert done.returncode == 0, done.stderr
    names = CASE.schema.names.index("name")
    table = Table.from_document(json.loads(done.stdout))
    assert [row[names] for row in table.rows] == [None] * len(CASE.rows)


@pytest.mark.parametrize("command", ["read", "validate"])
def test_a_wrong_key_is_decryption_failed(encrypted, command):
    done = conformance(command, "--orc-key", f"pii:{PII.version}:{'00' * 16}", str(encrypted))
    assert done.returncode != 0
    assert "DecryptionFailed: encryption variant 0 (root column 2), file statistics" in done.stderr


def test_a_malformed_key_is_a_usage_error(encrypted):
    done = conformance("read", "--orc-key", "pii:one:00", str(encrypted))
    assert done.returncode == 2
    assert "expected NAME:VERSION:HEX" in done.stderr
