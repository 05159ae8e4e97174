"""Every example capabilities of docs/engine-protocol.md claims catalogue cases, and
`protocol-check` of a real adapter declaring it (pyarrow behind the protocol,
tests/support/engine_adapter.py) checks a non-zero number of them: an example a reader
copies must not check nothing."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from conformance.cases import all_cases
from conformance.cli import main
from conformance.engines.protocol.external import _capabilities

from ._adapters import PYTHON

DOC = Path(__file__).parents[3] / "docs" / "engine-protocol.md"
ENGINE_ADAPTER = Path(__file__).parents[2] / "support" / "engine_adapter.py"
SECTION = "### Feature tags"
# The start answer of 'The conversation': from its `<-` line to the next request.
START_ANSWER = re.compile(r'^<- (\{"protocol".*?)\n-> ', re.DOTALL | re.MULTILINE)
JSON_BLOCK = re.compile(r"^```json\n(.*?)^```", re.DOTALL | re.MULTILINE)
COUNTS = re.compile(r"^checked (\w+): write (\d+), read (\d+), .*, bad files (\d+)$", re.MULTILINE)


def doc_examples() -> list[dict]:
    """The `formats` of each example: the conversation's start answer, then each `json`
    block of 'Feature tags'."""
    text = DOC.read_text(encoding="utf-8")
    start_answer = json.loads(START_ANSWER.search(text)[1].replace("\n", " "))
    section = text[text.index(SECTION):].split("\n### ", 1)[0]
    return [start_answer["formats"], *(json.loads(block) for block in JSON_BLOCK.findall(section))]


EXAMPLES = doc_examples()


def test_the_tag_families_the_doc_says_every_case_carries():
    every = {"parquet": ("codec:", "page:", "type:", "repetition:"),
             "orc": ("codec:", "rle:", "version:", "type:")}
    text = DOC.read_text(encoding="utf-8")
    for case in all_cases():
        families = {tag.partition(":")[0] + ":" for tag in case.features}
        assert set(every[case.format]) <= families, case.id
    for fmt, families in every.items():
        assert all(f"`{family}`" in text for family in families), fmt


def test_the_doc_has_the_examples_this_test_reads():
    assert len(EXAMPLES) == 4  # the start answer, a reader and writer, a reader, an ORC one
    assert any(not caps["writes"] for formats in EXAMPLES for caps in formats.values())


@pytest.mark.parametrize("formats", EXAMPLES, ids=lambda f: ",".join(f))
def test_each_example_claims_catalogue_cases(formats):
    for fmt, declared in formats.items():
        capabilities = _capabilities(declared)
        cases = [c for c in all_cases() if c.format == fmt]
        writes = sum(capabilities.write_gap(c.write_features) is None for c in cases)
        reads = sum(capabilities.read_gap(c.features) is None for c in cases)
        assert writes > 0 or not declared["writes"], f"{fmt}: writes claim no case"
        assert reads > 0 or not declared["reads"], f"{fmt}: reads claim no case"


def adapter_declaring(formats: dict) -> str:
    return f"{PYTHON} {shlex.quote(str(ENGINE_ADAPTER))} pyarrow {shlex.quote(json.dumps(formats))}"


@pytest.mark.parametrize("formats", EXAMPLES, ids=lambda f: ",".join(f))
def test_protocol_check_of_each_example_checks_cases(capsys, formats):
    assert main(["protocol-check", "--cases-per-format", "1", adapter_declaring(formats)]) == 0
    out = capsys.readouterr().out
    counts = {fmt: tuple(map(int, numbers)) for fmt, *numbers in COUNTS.findall(out)}
    assert set(counts) == set(formats)
    for fmt, (write, read, bad) in counts.items():
        assert (write > 0) == bool(formats[fmt]["writes"]), out
        assert read > 0 and bad > 0, out  # every example reads


def test_the_examples_old_capabilities_fail_naming_the_tag_families(capsys):
    """The example the docs had: it claims no case, so the check must fail, and say why."""
    old = {"parquet": {"writes": ["physical:*", "type:*"], "reads": ["*"]}}
    assert main(["protocol-check", "--cases-per-format", "1", adapter_declaring(old)]) == 1
    out = capsys.readouterr().out
    [failure] = [line for line in out.splitlines() if line.startswith("FAIL  parquet write")]
    assert failure.startswith("FAIL  parquet write: the declared write patterns ['physical:*', "
                              "'type:*'] claim no catalogue case: the cases carry tags they do "
                              "not match, of the families ")
    parquet_cases = sum(c.format == "parquet" for c in all_cases())
    for family in ("codec:", "page:", "repetition:"):  # every Parquet case has one of each
        assert f"{family} ({parquet_cases} cases)" in failure
    families = failure.partition("of the families ")[2]
    assert "encoding:" in families and "physical:" not in families and "type:" not in families
    assert "predicate" not in families  # a reader's tag, never a writer's
    assert "checked parquet: write 0, read 1," in out and out.rstrip().endswith("FAILED")


def test_a_write_only_adapter_is_checked_by_the_reference_reading_its_files(capsys):
    write_only = {"parquet": {**EXAMPLES[1]["parquet"], "reads": []}}
    assert main(["protocol-check", "--cases-per-format", "2", adapter_declaring(write_only)]) == 0
    out = capsys.readouterr().out
    # The cases are spread over the catalogue, so how many the adapter writes moves with it.
    assert re.search(r"checked parquet: write [1-9]\d*, read 0, filtered read not in protocol version 1, "
                     r"bad files 0", out)
    assert "(read back by the reference)" in out and "read bad file" not in out
