"""The protocol's messages against their JSON Schemas (docs/engine-protocol.md)."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from conformance.cases import case_by_id
from conformance.engines import get_engine
from conformance.engines.protocol import messages
from conformance.engines.protocol.messages import SCHEMAS, ProtocolError, check, problems


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.json")), ids=lambda p: p.name)
def test_every_schema_is_a_valid_draft_2020_12_schema(path):
    Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_every_op_has_a_request_and_a_response_schema():
    names = {p.stem for p in SCHEMAS.glob("*.json")}
    assert {f"{op}.{side}" for op in messages.OPS for side in ("request", "response")} <= names


def test_the_harness_requests_are_valid(tmp_path):
    case = case_by_id("physical/int32-required")
    assert messages.start_request() == {"op": "start", "protocol": 1}
    assert messages.write_request(case.to_json(), tmp_path / "f.parquet")["case"]["id"] == case.id
    keys = {"footer_key": "00" * 16, "column_keys": {"a.b": "11" * 32}, "aad_prefix": "f"}
    assert messages.read_request(tmp_path / "f.parquet", "parquet", keys)["keys"] == keys
    assert messages.stop_request() == {"op": "stop"}


def test_a_start_answer_from_engine_capabilities_is_valid():
    engine = get_engine("reference", "parquet")
    answer = {"protocol": 1, "name": "x", "version": "1", "language": "python",
              "formats": {"parquet": engine.capabilities.to_json()}}
    assert problems("start.response", answer) == []


def test_problems_name_the_field_and_what_was_expected():
    found = problems("start.response", {"protocol": 1, "name": "x", "version": "1",
                                        "language": "c", "formats": {"csv": {}}})
    assert any(p.startswith("field $.formats: 'csv' is not one of") for p in found)


def test_a_oneof_answer_is_judged_by_the_branch_it_came_closest_to():
    found = problems("read.response", {"error": {"class": "IOError"}})
    assert found == ["field $.error: 'message' is a required property (expected required "
                     '["class", "message"]; got {"class": "IOError"})']


@pytest.mark.parametrize("answer", [{"ok": True}, {"unsupported": "no INT96"},
                                    {"error": {"class": "java.io.IOException", "message": "m"}}])
def test_the_three_write_answers_are_valid(answer):
    assert check("write.response", answer) == answer


def test_a_line_that_is_not_json_is_a_protocol_error():
    with pytest.raises(ProtocolError, match="the line is not JSON"):
        messages.parse_line("write.response", "done\n")
