"""A small synthetic results dataset: every outcome, nasty details, several feature tags."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from conformance.report import RESULTS_SCHEMA

RUN_ID = "run-2024-01-01T00:00:00Z"
VERSIONS = {"reference": "0.1.0", "pyarrow": "17.0.0", "fastparquet": "2024.2.0", "duckdb": "1.1.3"}

INT32 = (
    "physical/int32-optional",
    ["type:INT32", "repetition:OPTIONAL", "encoding:PLAIN", "codec:UNCOMPRESSED", "page:v1"],
)
DELTA = (
    "physical/byte-array-delta",
    ["type:BYTE_ARRAY", "encoding:DELTA_BYTE_ARRAY", "codec:ZSTD", "page:v2", "bloom"],
)

NASTY = 'values differ at row 3:\n  expected <script>alert("x")</script> & "quoted"\n  got \x01'
WRITE_ERROR = "ArrowNotImplementedError: <b>DELTA_BYTE_ARRAY</b> & friends\x01\nsecond line"
CRASH = "signal 11 (SIGSEGV)\nstderr tail:\n  Segmentation fault <core dumped> ```fenced```"


def make_cell(
    phase: str,
    writer: str,
    reader: str | None,
    case: tuple[str, list[str]],
    outcome: str,
    detail: str = "",
    run_id: str = RUN_ID,
) -> dict:
    case_id, features = case
    pair = writer if reader is None else f"{writer}/{reader}"
    file = f"files/{writer}/{case_id.replace('/', '__')}.parquet"
    return {
        "run_id": run_id,
        "cell_id": f"{phase}/{pair}/{case_id}",
        "phase": phase,
        "case_id": case_id,
        "format": "parquet",
        "features": list(features),
        "spec": ["Encodings.md#plain", "parquet.thrift#PageHeader"],
        "writer": writer,
        "writer_version": VERSIONS.get(writer, "9.9"),
        "reader": reader,
        "reader_version": None if reader is None else VERSIONS.get(reader, "9.9"),
        "outcome": outcome,
        "detail": detail,
        "duration_s": 0.25,
        "file": None if outcome in ("unsupported",) and phase == "write" else file,
        "file_sha256": None if phase == "write" and outcome != "pass" else "ab" * 32,
    }


def synthetic_rows() -> list[dict]:
    w, r = "write", "read"
    return [
        make_cell(w, "reference", None, INT32, "pass"),
        make_cell(w, "reference", None, DELTA, "pass"),
        make_cell(w, "pyarrow", None, INT32, "pass"),
        make_cell(w, "pyarrow", None, DELTA, "error", WRITE_ERROR),
        make_cell(w, "fastparquet", None, INT32, "pass"),
        make_cell(w, "fastparquet", None, DELTA, "unsupported", "cannot write DELTA_BYTE_ARRAY"),
        make_cell(r, "reference", "reference", INT32, "pass"),
        make_cell(r, "reference", "reference", DELTA, "pass"),
        make_cell(r, "reference", "pyarrow", INT32, "pass"),
        make_cell(r, "reference", "pyarrow", DELTA, "mismatch", NASTY),
        make_cell(r, "reference", "duckdb", INT32, "crash", CRASH),
        make_cell(r, "reference", "duckdb", DELTA, "timeout", "no result after 60.0 s"),
        make_cell(r, "pyarrow", "pyarrow", INT32, "pass"),
        make_cell(r, "pyarrow", "duckdb", INT32, "error", "duckdb.IOException: bad & worse"),
        make_cell(r, "pyarrow", "pyarrow", DELTA, "skipped", "writer produced no file"),
        make_cell(r, "fastparquet", "pyarrow", INT32, "pass"),
        make_cell(r, "fastparquet", "duckdb", INT32, "unsupported", "duckdb: page:v1 not claimed"),
    ]


EXPECTED_COUNTS = {
    "harness-error": 0,
    "crash": 1,
    "timeout": 1,
    "flaky": 0,
    "error": 2,
    "mismatch": 1,
    "unsupported": 2,
    "skipped": 1,
    "pass": 9,
}


def write_dataset(rows: list[dict], directory: Path, parts: int = 2) -> Path:
    """Write ``rows`` as ``directory/part-*.parquet`` (plus a Spark-style _SUCCESS marker)."""
    directory.mkdir(parents=True, exist_ok=True)
    size = max(1, -(-len(rows) // parts))
    chunks = [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]
    for n, chunk in enumerate(chunks):
        table = pa.Table.from_pylist(chunk, schema=RESULTS_SCHEMA)
        pq.write_table(table, directory / f"part-{n:05d}.parquet")
    (directory / "_SUCCESS").write_text("")
    return directory


MAIN_JOB_TAGS = {
    "encoding:PLAIN": "encoding", "encoding:RLE_DICTIONARY": "encoding",
    "encoding:DELTA_BINARY_PACKED": "encoding", "encoding:DELTA_BYTE_ARRAY": "encoding",
    "encoding:BYTE_STREAM_SPLIT": "encoding", "codec:SNAPPY": "codec", "codec:ZSTD": "codec",
    "codec:GZIP": "codec", "codec:LZ4_RAW": "codec", "type:DECIMAL(INT32)": "logical",
    "type:DATE": "logical", "type:LIST": "nested", "type:MAP": "nested", "physical:INT96": "physical",
    "bloom": "bloom_filter", "page_index": "page_index", "crc": "checksum",
    "statistics": "statistics", "encryption:AES_GCM_V1": "encryption",
}
"""Tags of a run shaped like the main job, with the case area of each (real tags and areas,
so the status tables have rows)."""


def main_job_rows(engines: int = 13, cases: int = 740) -> list[dict]:
    """A results dataset the size and shape of the main job: every engine writes every case
    and reads every other engine's file; outcomes mixed deterministically (mostly pass,
    a share skipped, unsupported, mismatch, error)."""
    names = ["reference", *(f"engine{n:02d}" for n in range(1, engines))]
    spread = ("pass",) * 6 + ("skipped", "skipped", "unsupported", "mismatch", "error")
    rows = []
    tags = list(MAIN_JOB_TAGS)
    for c in range(cases):
        tag = tags[c % len(tags)]
        case = (f"{MAIN_JOB_TAGS[tag]}/case-{c:04d}", [tag, tags[(c * 7) % len(tags)]])
        for w, writer in enumerate(names):
            rows.append(make_cell("write", writer, None, case, "pass"))
            for r, reader in enumerate(names):
                outcome = "pass" if reader == "reference" else spread[(c + 3 * w + 5 * r) % len(spread)]
                detail = "" if outcome == "pass" else f"{outcome}: value at row {c} differs <{w}>"
                rows.append(make_cell("read", writer, reader, case, outcome, detail))
    return rows
