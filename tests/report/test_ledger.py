"""The findings ledger (conformance.report.ledger) and `conformance findings`."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.cli import main
from conformance.report import RESULTS_SCHEMA, summarise
from conformance.report.causes import cause_groups
from conformance.report.ledger import ledger, ledger_text
from conformance.specs.sentences import normative_sentence, quote

from .synthetic import INT32, RUN_ID, make_cell, write_dataset

# The case's values are 1, 2, 3; the (synthetic) reader returned 1, 2, 4.
MISMATCH = "row 2, column 'value': expected 3, got 4"
FILE = f"files/reference/{INT32[0].replace('/', '__')}.parquet"
SECTION = """Intro sentence of the section. Readers MUST check the magic.
Writers should write it too.

```
MUST NOT in code is no sentence.
```
"""


@pytest.fixture
def run_dir(tmp_path):
    """A work directory as `conformance run` leaves it: W/<run id>/{results,files}."""
    run = tmp_path / "work" / RUN_ID
    (run / FILE).parent.mkdir(parents=True)
    pq.write_table(pa.table({"value": pa.array([1, 2, 3], pa.int32())}), run / FILE)
    rows = [make_cell("read", "reference", "pyarrow", INT32, "mismatch", MISMATCH),
            make_cell("read", "reference", "duckdb", INT32, "skipped", "no file to read")]
    write_dataset(rows, run / "results")
    return tmp_path / "work"


def _findings(work):
    table = pa.Table.from_pylist([make_cell("read", "reference", "pyarrow", INT32, "mismatch",
                                            MISMATCH)], schema=RESULTS_SCHEMA)
    return ledger(cause_groups(summarise(table), work), work)


def test_entry_names_file_values_and_command(run_dir):
    [finding] = _findings(run_dir)
    assert finding.file["size"] == (run_dir / RUN_ID / FILE).stat().st_size
    assert (finding.expected, finding.actual) == ("3", "4")
    assert "pyarrow.parquet" in finding.command
    assert "#1 pyarrow@17.0.0 mismatch: number differs" in ledger_text([finding])


def test_the_pyarrow_command_runs_and_shows_the_values(run_dir):
    [finding] = _findings(run_dir)
    argv = shlex.split(finding.command)
    assert argv[0] == "python3"
    shown = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True,
                           check=True, timeout=60).stdout
    assert "value: int32" in shown and "[{'value': 1}, {'value': 2}, {'value': 3}]" in shown


def test_normative_sentence_prefers_the_strongest_keyword_outside_code():
    assert normative_sentence(SECTION) == ("Readers MUST check the magic.", "MUST")
    plain = "The footer holds the schema."
    assert normative_sentence(plain) == (plain, "descriptive")


def test_findings_command_text_json_and_out(run_dir, tmp_path, capsys):
    assert main(["findings", str(run_dir)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("#1 pyarrow@17.0.0 mismatch: number differs") and "skipped" not in text
    assert main(["findings", str(run_dir), "--engines", "duckdb"]) == 0
    assert capsys.readouterr().out.strip() == ""  # duckdb's only cell is skipped: no finding
    assert main(["findings", str(run_dir / RUN_ID), "--json", "--out", str(tmp_path / "out")]) == 0
    [entry] = json.loads(capsys.readouterr().out)
    assert (entry["engine"], entry["count"], entry["expected"]) == ("pyarrow", 1, "3")
    [folder] = (tmp_path / "out").iterdir()
    assert (folder / "README.md").read_text(encoding="utf-8").startswith("```text\n#1 pyarrow")
    assert (folder / FILE.rsplit("/", 1)[1]).read_bytes() == (run_dir / RUN_ID / FILE).read_bytes()


def test_findings_command_without_results(tmp_path, capsys):
    assert main(["findings", str(tmp_path)]) == 2
    assert "no results" in capsys.readouterr().err


def test_rules_are_quoted_from_the_committed_index_without_the_texts():
    found = quote(None, ("LogicalTypes.md: Lists, Backward-compatibility rules",), "3-level writer")
    assert found is not None and found.strength == "SHOULD"
    assert found.sentence.startswith("New writer implementations should always produce the 3-level")


def test_a_filtered_read_finding_reproduces_with_the_engines_filter(tmp_path):
    """statistics/int32-signed filters ``x < 0`` (its case definition)."""
    run = tmp_path / RUN_ID
    case = ("statistics/int32-signed", ["type:INT32"])
    cell = make_cell("read", "reference", "pyarrow:filter", case, "mismatch", "row count: expected 1, got 0")
    (run / cell["file"]).parent.mkdir(parents=True)
    pq.write_table(pa.table({"x": pa.array([-5, 3], pa.int32())}), run / cell["file"])
    [finding] = ledger(cause_groups(summarise(pa.Table.from_pylist([cell], schema=RESULTS_SCHEMA)), run), run)
    argv = shlex.split(finding.command)
    shown = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True,
                           check=True, timeout=60).stdout
    assert 'filters=[("x", "<", 0)]' in argv[-1] and shown.strip() == "[{'x': -5}]"
