"""The results dataset: durable while the run goes on, Parquet when it is done.

Every finished cell is appended at once, as a JSON line, to a log file of the
task that ran it (`cells/<name>.jsonl` in the run's work dir) and flushed, so an
interrupted or killed run keeps every result it computed; the log is fsynced at most
`FSYNC_INTERVAL_S` apart and when it closes, so a machine that goes down loses at most
that last interval (an fsync per cell cost about 2 ms, a few minutes of a whole run). `consolidate`
turns the logs into the Parquet results dataset (`results/part-00000.parquet`,
schema `cells.RESULT_SCHEMA`), from which every report is a query. Beside it,
`_unavailable-engines.json` names the engines the run wanted but could not run here
(a bundled adapter without node, say), each with the reason. The flaky cells found by
trying cells again (`retries`) are logged last, in `cells/retries.jsonl`, and replace
the run's records of those cells.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .cells import RESULT_SCHEMA

CELL_LOG_DIR = "cells"
FSYNC_INTERVAL_S = 1.0
RESULTS_DIR = "results"
RETRY_LOG = "retries"  # the flaky cells found by trying cells again (`retries`), read last
# Underscored: dataset readers skip it (as they skip Spark's _SUCCESS).
UNAVAILABLE_FILE = "_unavailable-engines.json"


class CellLog:
    """Append-only JSON-lines log of finished cells."""

    def __init__(self, workdir: Path, name: str):
        directory = workdir / CELL_LOG_DIR
        directory.mkdir(parents=True, exist_ok=True)
        self._fh = open(directory / f"{name}.jsonl", "a", encoding="utf-8")
        self._synced = time.monotonic()

    def append(self, record: dict) -> None:
        self._fh.write(json.dumps(record) + "\n")
        self._fh.flush()
        if time.monotonic() - self._synced >= FSYNC_INTERVAL_S:
            self._sync()

    def _sync(self) -> None:
        os.fsync(self._fh.fileno())
        self._synced = time.monotonic()

    def close(self) -> None:
        self._sync()
        self._fh.close()


def logged(records: Iterable[dict], workdir: Path, name: str) -> Iterator[dict]:
    """Pass `records` through, appending each to the cell log `name` first."""
    log = CellLog(workdir, name)
    try:
        for record in records:
            log.append(record)
            yield record
    finally:
        log.close()


def read_cell_logs(workdir: Path) -> list[dict]:
    """Every logged cell; the last record wins when a cell was run twice, and the retry
    log's record (a flaky cell's) wins over the run's."""
    by_cell: dict[str, dict] = {}
    paths = sorted((workdir / CELL_LOG_DIR).glob("*.jsonl"), key=lambda p: (p.stem == RETRY_LOG, p.name))
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    record = json.loads(line)
                    by_cell[record["cell_id"]] = record
    return list(by_cell.values())


class LoggedOutcomes:
    """Outcome counts of the cells logged so far, for progress while a run goes on; each
    `read` reads only the lines appended since the last (the logs only grow)."""

    def __init__(self, workdir: Path):
        self._dir = workdir / CELL_LOG_DIR
        self._read_up_to: dict[Path, int] = {}
        self.counts: Counter[str] = Counter()

    def read(self) -> Counter[str]:
        for path in sorted(self._dir.glob("*.jsonl")):
            offset = self._read_up_to.get(path, 0)
            with open(path, "rb") as fh:
                fh.seek(offset)
                for line in fh:
                    if not line.endswith(b"\n"):
                        break  # still being written: counted by a later read
                    offset += len(line)
                    if line.strip():
                        self.counts[json.loads(line)["outcome"]] += 1
            self._read_up_to[path] = offset
        return self.counts


def consolidate(workdir: Path) -> Path:
    """Write the cell logs as the Parquet results dataset; returns its directory."""
    records = sorted(read_cell_logs(workdir), key=lambda r: r["cell_id"])
    out = workdir / RESULTS_DIR
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("part-*.parquet"):
        old.unlink()
    table = pa.Table.from_pylist(records, schema=RESULT_SCHEMA)
    pq.write_table(table, out / "part-00000.parquet")
    return out


def write_unavailable(results_dir: Path, unavailable: dict[str, str]) -> None:
    """Record the engines the run could not use (name -> reason) beside its results."""
    path = results_dir / UNAVAILABLE_FILE
    path.unlink(missing_ok=True)
    if unavailable:
        path.write_text(json.dumps(unavailable, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def read_unavailable(results: Path) -> dict[str, str]:
    """The engines a run could not use, from its results folder (none when not recorded)."""
    path = results / UNAVAILABLE_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
