"""`Case.from_json` inverts `Case.to_json` for every catalogue case, through JSON text
(the form `golden_files/regressions/<id>/case.json` keeps a case in, issue 6 item 4)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from conformance.cases import Case, WriteOptions, all_cases
from conformance.values import diff_tables


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.id)
def test_every_catalogue_case_round_trips_through_json(case):
    doc = json.loads(json.dumps(case.to_json()))
    restored = Case.from_json(doc)
    assert restored.to_json() == case.to_json()
    # Rows compare by value (a NaN is not == itself), a predicate by its JSON form above (a
    # NaN operand, column_orders cases), everything else by ==.
    assert diff_tables(case.expected, restored.expected) is None
    assert dataclasses.replace(restored, rows=case.rows, predicate=case.predicate) == case


def test_write_options_round_trip_keeps_tuples():
    options = WriteOptions(bloom_filter_columns=("a", "b"), lies=("crc",))
    restored = WriteOptions.from_json(json.loads(json.dumps(options.to_json())))
    assert restored == options
    assert isinstance(restored.bloom_filter_columns, tuple) and isinstance(restored.lies, tuple)
