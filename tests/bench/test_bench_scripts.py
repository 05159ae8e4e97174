"""bench/orc_bench.py and bench/parquet_bench.py on a tiny size: their printed lines and
table, their JSON, the reference's value check, and that each file they write has the
encoding and codec it is named after (ORCv1.md, 'Column Encodings' and 'Integer Run Length
Encoding, version 2'; the Parquet format's Encodings.md and '3.7.1 - Compression'). No
timing is asserted: figures come from the scripts themselves."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bench._common import (
    LINE_COLUMNS,
    TABLE_HEADER,
    Format,
    machine_facts,
    peak_traced_bytes,
    streamed_peak,
    time_runs,
)
from bench.orc_bench import ORC
from bench.parquet_bench import PARQUET, ParquetShape
from reference_impl.orc.encodings.int_rle_v2 import sub_encodings
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind
from reference_impl.parquet.metadata.parquet_thrift import CompressionCodec, Encoding
from reference_impl.parquet.reader import read_footer
from tests.reference_impl.orc.orc_file_streams import file_streams

REPO_ROOT = Path(__file__).resolve().parents[2]
FORMATS: dict[str, Format] = {"orc": ORC, "parquet": PARQUET}
# Rows per file: enough for ORC's integer runs to show their sub-encoding (512 values a
# run at most); the Parquet files need fewer, and there are more of them.
ROWS = {"orc": 2000, "parquet": 500}
NUMBER = r"\d+\.\d+"
FIGURES = ("reference_read", "pyarrow_read", "read_ratio", "reference_write", "pyarrow_write",
           "write_ratio", "validate", "peak")
STREAM_FIGURES = ("part", "stream", "stream_ratio")
RESULT_LINE = re.compile(r"^(?P<name>[\w-]+)\s+(?P<rows>\d+)"
                         + "".join(rf"\s+(?P<{figure}>{NUMBER}|-)" for figure in FIGURES)
                         + r"\s+(?P<parts>\d+|-)"
                         + "".join(rf"\s+(?P<{figure}>{NUMBER}|-)" for figure in STREAM_FIGURES) + "$")
# The share of an integer column's runs in its named sub-encoding: random values may
# make a stray run of another (three equal values are SHORT_REPEAT).
MOSTLY = 0.99
SHORT_SLEEP = 0.01
PEAK_BYTES = 10_000_000
PARQUET_CODECS = {"none": CompressionCodec.UNCOMPRESSED, "snappy": CompressionCodec.SNAPPY,
                  "zstd": CompressionCodec.ZSTD}


def run_bench(name: str, *arguments: str | Path) -> subprocess.CompletedProcess[str]:
    script = REPO_ROOT / FORMATS[name].script
    return subprocess.run([sys.executable, str(script), "--rows", str(ROWS[name]), "--repeat", "1",
                           *map(str, arguments)], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def result_lines(stdout: str) -> dict[str, re.Match[str]]:
    matches = (RESULT_LINE.match(line) for line in stdout.splitlines())
    return {match["name"]: match for match in matches if match}


@pytest.fixture(scope="module")
def full_runs(tmp_path_factory: pytest.TempPathFactory):
    """Per format name, the run of its script on every file, once: (the completed process,
    the data directory, its JSON)."""
    done: dict[str, tuple[subprocess.CompletedProcess[str], Path, dict]] = {}

    def full_run(name: str) -> tuple[subprocess.CompletedProcess[str], Path, dict]:
        if name not in done:
            directory = tmp_path_factory.mktemp(name)
            out = directory / "results.json"
            completed = run_bench(name, "--data-dir", directory, "--out", out)
            done[name] = completed, directory, json.loads(out.read_text(encoding="utf-8"))
        return done[name]

    return full_run


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_file_has_a_line_a_table_row_and_a_json_entry(full_runs, name):
    completed, _, document = full_runs(name)
    assert completed.returncode == 0, completed.stderr
    header = next(line for line in completed.stdout.splitlines() if line.startswith("# name"))
    assert header.split() == " ".join(header for header, _ in LINE_COLUMNS).split()
    lines = result_lines(completed.stdout)
    assert list(lines) == [bench_file.name for bench_file in FORMATS[name].files]
    for entry in document["results"]:
        match = lines[entry["name"]]
        assert int(match["rows"]) == entry["rows"] == ROWS[name]
        for measure in ("reference_read", "pyarrow_read", "reference_write", "pyarrow_write", "validate"):
            assert entry[f"{measure}_seconds"] > 0, (entry["name"], measure)
            assert match[measure] == f"{entry[f'{measure}_seconds']:.4f}"
        for kind in ("read", "write"):
            assert entry[f"{kind}_ratio"] == pytest.approx(
                entry[f"reference_{kind}_seconds"] / entry[f"pyarrow_{kind}_seconds"])
            assert match[f"{kind}_ratio"] == f"{entry[f'{kind}_ratio']:.1f}"
        assert entry["reference_read_peak_bytes"] > 0
        assert entry["parts"] == int(match["parts"]) == 1  # one row group or stripe by default
        assert 0 < entry["largest_part_bytes"] <= entry["stream_peak_bytes"]
        assert match["stream_ratio"] == f"{entry['stream_ratio']:.1f}"
        assert entry["validate_findings"] is not None
        assert entry["values_checked"] and entry["values_mismatch"] is None and not entry["errors"]
    table = [line.split("|")[1:-1] for line in completed.stdout.splitlines() if line.startswith("|")]
    assert [cell.strip() for cell in table[0]] == list(TABLE_HEADER)
    assert len(table) == 2 + len(lines)  # a header and a separator first
    assert all(len(cells) == len(TABLE_HEADER) for cells in table)
    assert [cells[0].strip() for cells in table[2:]] == list(lines)
    assert [entry["name"] for entry in document["results"]] == list(lines)
    assert document["rows"] == ROWS[name] and document["repeat"] == 1


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_machine_facts_are_printed_and_stored(full_runs, name):
    completed, _, document = full_runs(name)
    facts = machine_facts()
    for key in ("cpus", "python", "pyarrow", "numpy"):
        assert f"# {key}: {facts[key]}" in completed.stdout
        assert document["machine"][key] == facts[key]


def test_each_orc_file_has_the_encoding_it_is_named_after(full_runs):
    name = "orc"
    _, directory, _ = full_runs(name)
    for bench_file in ORC.files:
        path = ORC.path(bench_file, directory, ROWS[name])
        streams = [stream for stream in file_streams(path.read_bytes()) if stream.column == 1]  # 0: the root
        shape = bench_file.shape
        assert {stream.encoding for stream in streams} == {ColumnEncodingKind[shape.column_encoding]}, path
        filters = {s.kind for s in streams} & {StreamKind.BLOOM_FILTER, StreamKind.BLOOM_FILTER_UTF8}
        assert bool(filters) == shape.bloom_filter, path
        if shape.sub_encoding is not None:
            data = next(stream.data for stream in streams if stream.kind == StreamKind.DATA)
            runs = Counter(encoding.name for encoding in sub_encodings(data, ROWS[name], signed=True))
            assert runs[shape.sub_encoding] >= MOSTLY * runs.total(), (bench_file.name, runs)


def test_each_parquet_file_has_the_encoding_and_codec_it_is_named_after(full_runs):
    name = "parquet"
    _, directory, _ = full_runs(name)
    for bench_file in PARQUET.files:
        path = PARQUET.path(bench_file, directory, ROWS[name])
        metadata, _ = read_footer(path.read_bytes())
        shape = bench_file.shape
        assert isinstance(shape, ParquetShape)
        for chunk in metadata.row_groups[0].columns:  # one row group
            meta = chunk.meta_data
            assert meta.codec == PARQUET_CODECS[bench_file.codec], path
            assert Encoding[shape.value_encoding] in meta.encodings, (path, meta.encodings)
            assert (meta.dictionary_page_offset is not None) == shape.dictionary, path


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_one_engine_only_leaves_the_other_and_the_ratios_blank(name, tmp_path):
    fmt = FORMATS[name]
    out = tmp_path / "results.json"
    first, second = fmt.files[0], fmt.files[-1]
    completed = run_bench(name, "--engine", "pyarrow", "--only", first.shape.name, "--only", second.name,
                          "--out", out)
    assert completed.returncode == 0, completed.stderr
    lines = result_lines(completed.stdout)
    wanted = [f.name for f in fmt.files if f.shape == first.shape] + [second.name]
    assert list(lines) == wanted
    for match in lines.values():
        assert all(match[figure] == "-" for figure in FIGURES if not figure.startswith("pyarrow"))
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert all(entry["reference_read_seconds"] is None and entry["pyarrow_read_seconds"] > 0
               and entry["pyarrow_write_seconds"] > 0 for entry in results)


def test_an_unknown_file_name_is_refused():
    completed = run_bench("parquet", "--only", "no_such_column")
    assert completed.returncode == 2
    assert "invalid choice" in completed.stderr


def test_a_measure_over_its_budget_starts_no_more_runs():
    timing = time_runs("sleep", lambda: time.sleep(SHORT_SLEEP), repeat=3, budget=0.0)
    assert timing.runs == 1 and timing.best is not None and timing.best >= SHORT_SLEEP
    assert time_runs("sleep", lambda: time.sleep(SHORT_SLEEP), repeat=3, budget=60.0).runs == 3


def test_the_peak_counts_what_the_action_holds_at_once():
    def hold_then_release() -> None:
        block = bytearray(PEAK_BYTES)
        del block

    assert PEAK_BYTES <= peak_traced_bytes(hold_then_release) < 2 * PEAK_BYTES


def test_a_streamed_peak_holds_one_part_at_a_time():
    parts = 3

    def blocks():
        for _ in range(parts):
            yield bytearray(PEAK_BYTES)

    found = streamed_peak(blocks)
    assert found.parts == parts
    assert PEAK_BYTES <= found.largest_part < found.peak < 2 * PEAK_BYTES + PEAK_BYTES // 10


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_parts_cut_the_files_into_row_groups_or_stripes(name, tmp_path):
    only = FORMATS[name].files[0].name
    completed = run_bench(name, "--parts", "3", "--only", only, "--engine", "reference", "--out",
                          tmp_path / "r.json")
    assert completed.returncode == 0, completed.stderr
    [entry] = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["results"]
    assert entry["parts"] > 1 and entry["stream_ratio"] is not None


def test_a_failing_run_is_reported_not_raised():
    timing = time_runs("fail", lambda: 1 // 0, repeat=3, budget=60.0)
    assert timing.best is None and timing.runs == 0
    assert timing.error == "ZeroDivisionError: integer division or modulo by zero"
