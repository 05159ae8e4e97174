"""bench/orc_read.py on a tiny size: its output format, its JSON, and that each file it
writes has the encoding it is named after (ORCv1.md, 'Column Encodings' and 'Integer Run
Length Encoding, version 2'). No timing is asserted: figures come from the script itself."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bench.orc_read import ALL_FILES, machine_facts
from reference_impl.orc.encodings.int_rle_v2 import sub_encodings
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind
from tests.reference_impl.orc.orc_file_streams import file_streams

REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPT = REPO_ROOT / "bench" / "orc_read.py"
ROWS = 2000
NUMBER = r"\d+\.\d+"
RESULT_LINE = re.compile(rf"^(?P<name>[\w-]+)\s+(?P<rows>\d+)\s+(?P<reference>{NUMBER}|-)\s+"
                         rf"(?P<pyarrow>{NUMBER}|-)\s+(?P<ratio>{NUMBER}|-)$")
# The share of an integer column's runs in its named sub-encoding: random values may
# make a stray run of another (three equal values are SHORT_REPEAT).
MOSTLY = 0.99
TABLE_COLUMNS = 6  # file, encoding, rows, reference, pyarrow, ratio


def run_bench(*arguments: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--rows", str(ROWS), "--repeat", "1",
                           *map(str, arguments)], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def result_lines(stdout: str) -> dict[str, re.Match[str]]:
    matches = (RESULT_LINE.match(line) for line in stdout.splitlines())
    return {match["name"]: match for match in matches if match}


@pytest.fixture(scope="module")
def full_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path, dict]:
    directory = tmp_path_factory.mktemp("bench")
    out = directory / "results.json"
    completed = run_bench("--data-dir", directory, "--out", out)
    return completed, directory, json.loads(out.read_text(encoding="utf-8"))


def test_every_file_has_a_line_a_table_row_and_a_json_entry(full_run):
    completed, _, document = full_run
    assert completed.returncode == 0, completed.stderr
    lines = result_lines(completed.stdout)
    assert list(lines) == [bench_file.name for bench_file in ALL_FILES]
    for entry in document["results"]:
        match = lines[entry["name"]]
        assert int(match["rows"]) == entry["rows"] == ROWS
        assert entry["reference_seconds"] > 0 and entry["pyarrow_seconds"] > 0
        assert entry["ratio"] == pytest.approx(entry["reference_seconds"] / entry["pyarrow_seconds"])
        assert match["ratio"] == f"{entry['ratio']:.1f}"
        assert match["reference"] == f"{entry['reference_seconds']:.4f}"
    table = [line.split("|")[1:-1] for line in completed.stdout.splitlines() if line.startswith("|")]
    assert len(table) == 2 + len(ALL_FILES)  # a header and a separator first
    assert all(len(cells) == TABLE_COLUMNS for cells in table)
    assert [cells[0].strip() for cells in table[2:]] == list(lines)
    assert [entry["name"] for entry in document["results"]] == list(lines)
    assert all(entry["values_checked"] and entry["values_mismatch"] is None and not entry["errors"]
               for entry in document["results"])
    assert document["rows"] == ROWS and document["repeat"] == 1


def test_machine_facts_are_printed_and_stored(full_run):
    completed, _, document = full_run
    facts = machine_facts()
    for key in ("cpus", "python", "pyarrow", "numpy"):
        assert f"# {key}: {facts[key]}" in completed.stdout
        assert document["machine"][key] == facts[key]


def test_each_file_has_the_encoding_it_is_named_after(full_run):
    _, directory, _ = full_run
    for bench_file in ALL_FILES:
        streams = [stream for stream in file_streams(bench_file.path(directory, ROWS).read_bytes())
                   if stream.column == 1]  # column 0 is the root struct
        case = bench_file.case
        expected = ColumnEncodingKind[case.column_encoding]
        assert {stream.encoding for stream in streams} == {expected}, bench_file.name
        if case.sub_encoding is not None:
            data = next(stream.data for stream in streams if stream.kind == StreamKind.DATA)
            runs = Counter(encoding.name for encoding in sub_encodings(data, ROWS, signed=True))
            assert runs[case.sub_encoding] >= MOSTLY * runs.total(), (bench_file.name, runs)


def test_one_engine_only_leaves_the_other_and_the_ratio_blank(tmp_path):
    out = tmp_path / "results.json"
    completed = run_bench("--engine", "pyarrow", "--only", "bigint_delta", "--only", "double-zlib",
                          "--out", out)
    assert completed.returncode == 0, completed.stderr
    lines = result_lines(completed.stdout)
    assert list(lines) == ["bigint_delta-none", "bigint_delta-zlib", "double-zlib"]
    assert all(match["reference"] == "-" and match["ratio"] == "-" for match in lines.values())
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert all(entry["reference_seconds"] is None and entry["pyarrow_seconds"] > 0 for entry in results)


def test_an_unknown_file_name_is_refused():
    completed = run_bench("--only", "no_such_column")
    assert completed.returncode == 2
    assert "invalid choice" in completed.stderr

