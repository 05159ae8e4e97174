"""Flaky cells: a finished cell tried again, isolated, to tell a steady outcome from one that
changes between identical tries.

The cells worth trying again are the caller's choice (`Retries.wanted`: the expectations
gate asks for those that failed or differ from the file, `conformance.report.expectations`).
Each try is a round over those cells in a fresh worker process (`cell_runner.run_cells`: an
isolated engine's cells in a worker subprocess, Spark's in the driver under the watchdog), so
no state of the run's worker carries over. A cell whose tries all give the run's outcome keeps
its record; otherwise its outcome is ``flaky`` and its detail's first line names every outcome
seen, the run's first, then each try's, before the evidence of each distinct outcome.

A write cell's tries write beside the run's files (``retries/<try>/...``), so the files the
read cells read stay the ones the run wrote. The flaky records go to the retry log, which
`results.read_cell_logs` reads last, so they replace the run's records.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from .cell_runner import CellLimits, run_cells
from .execute import MAX_DETAIL_CHARS
from .results import RETRY_LOG, logged

DEFAULT_RETRIES = 2
RETRY_DIR = "retries"
FLAKY = "flaky"
SEEN_PREFIX = "outcomes seen: "


@dataclass(frozen=True)
class Retries:
    tries: int  # how many times each wanted cell runs again
    wanted: Callable[[dict], bool]  # which finished cell records are tried again


def retry_cells(requests: Sequence[dict], records: Sequence[dict], workdir: Path, limits: CellLimits,
                in_driver: Collection[str], retries: Retries) -> list[dict]:
    """Try the wanted cells of `records` again (their requests are among `requests`); log
    and return the records of the cells found flaky."""
    by_id = {r["cell_id"]: r for r in records}
    chosen = [q for q in requests if q["cell_id"] in by_id and retries.wanted(by_id[q["cell_id"]])]
    seen = {q["cell_id"]: [by_id[q["cell_id"]]] for q in chosen}
    for attempt in range(1, retries.tries + 1):
        for record in run_cells([_try_request(q, attempt) for q in chosen], workdir, limits, in_driver):
            seen[record["cell_id"]].append(record)
    flaky = [_flaky_record(tries) for tries in seen.values()
             if len({t["outcome"] for t in tries}) > 1]
    return list(logged(flaky, workdir, RETRY_LOG))


def _try_request(request: dict, attempt: int) -> dict:
    if request["phase"] != "write":
        return request
    return {**request, "file": f"{RETRY_DIR}/{attempt}/{request['file']}"}


def _flaky_record(tries: list[dict]) -> dict:
    """The run's record of the cell (its file, its versions) with outcome ``flaky``."""
    first = tries[0]
    outcomes = [t["outcome"] for t in tries]
    evidence = {t["outcome"]: t["detail"] for t in reversed(tries)}  # each outcome's first try
    lines = [f"{SEEN_PREFIX}{', '.join(outcomes)} (the run, then {len(tries) - 1} isolated tries)"]
    lines += [f"{outcome}: {evidence[outcome]}" for outcome in dict.fromkeys(outcomes)
              if evidence[outcome]]
    return {**first, "outcome": FLAKY, "detail": "\n".join(lines)[:MAX_DETAIL_CHARS]}
