"""The masked view of an encrypted case (conformance/cases/orc/masked_view.py): the rows a
reader without keys must read, each mask's output built by hand from ORCv1.md, 'Data Masks'
("nullify - all values become null", "redact - replace characters with constants such as X
or 9", "sha256 - replace string with the SHA 256 of the value")."""

from __future__ import annotations

import pytest

from conformance.cases import case_by_id
from conformance.cases.model import Case
from conformance.cases.orc import types as T
from conformance.cases.orc.masked_view import masked_view
from conformance.cases.orc.options import OrcWriteOptions
from conformance.formats import ORC, file_format
from conformance.values import Field, Schema, Table

SCHEMA = Schema((Field("id", T.integer(64)), Field("name", T.string()),
                 Field("card", T.struct_of(Field("number", T.string())))))
ROWS = ((1, "Ab 1", {"number": "4111"}), (2, None, None), (3, "abc", {"number": "0"}))
# FIPS 180-2, Appendix B.1: SHA-256("abc"), in the upper-case hex the reference writes.
SHA256_ABC = "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"


def _view(**options) -> list[tuple]:
    return list(masked_view(Table(SCHEMA, ROWS), OrcWriteOptions(**options)).rows)


def test_nullify_is_the_default_and_nulls_every_value_of_the_column() -> None:
    assert _view(encrypt={"name": "pii"}) == [(1, None, {"number": "4111"}), (2, None, None),
                                              (3, None, {"number": "0"})]


def test_nullify_of_a_struct_nulls_the_whole_subtree() -> None:
    assert _view(encrypt={"card": "finance"}) == [(1, "Ab 1", None), (2, None, None), (3, "abc", None)]


def test_redact_writes_letters_as_x_and_digits_as_9_and_keeps_the_rest_and_nulls() -> None:
    assert _view(encrypt={"name": "pii"}, masks={"name": "redact"}) == [
        (1, "Xx 9", {"number": "4111"}), (2, None, None), (3, "xxx", {"number": "0"})]


def test_sha256_writes_the_digest_of_the_utf8_value() -> None:
    view = _view(encrypt={"name": "pii"}, masks={"name": "sha256"})
    assert view[2] == (3, SHA256_ABC, {"number": "0"})
    assert view[1] == (2, None, None)


def test_the_catalogue_redact_case_masks_its_non_ascii_letters_too() -> None:
    """'Name 1 Ünï' (row 1 of orc/encryption/*): Ü is an upper-case letter, n and ï lower-case."""
    case = case_by_id("orc/encryption/mask-redact")
    view = file_format(ORC).keyless_rows(case.expected, case.options)
    assert view.rows[1][1] == "Xxxx 9 Xxx"
    assert [row[0] for row in view.rows] == [row[0] for row in case.rows]  # the other columns as they are
    assert [row[2] for row in view.rows] == [row[2] for row in case.rows]


def test_a_case_asking_redact_or_sha256_of_a_column_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(ValueError, match="'Data Masks'"):
        Case("orc/x", "x", (), SCHEMA, ROWS,
             OrcWriteOptions(encrypt={"card": "pii"}, masks={"card": "sha256"}), format=ORC)


def test_parquet_has_no_keyless_view() -> None:
    with pytest.raises(ValueError, match="no view of encrypted data without keys"):
        file_format("parquet").keyless_rows(Table(SCHEMA, ROWS), None)
