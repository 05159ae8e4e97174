"""Progress without a terminal: a line at a steady interval (conformance/matrix/progress.py)."""

from __future__ import annotations

import io
import re
import time

import pytest

from conformance.matrix.progress import ProgressLines, reporting
from tests.test_cli import conformance


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_line_every_interval_with_counts_rate_and_time_left():
    clock, stream = FakeClock(), io.StringIO()
    lines = ProgressLines(stream, interval_s=10, clock=clock)
    clock.now = 5
    lines.update(10, 100, {"pass": 8, "error": 2})
    assert stream.getvalue() == ""  # not yet due
    clock.now = 10
    lines.update(20, 100, {"pass": 15, "error": 5, "crash": 0})
    clock.now = 15
    lines.tick()
    clock.now = 20
    lines.tick()  # no cell finished since: a line anyway, the run is not hung
    clock.now = 25
    lines.update(100, 100, {"pass": 90, "error": 10})
    lines.close()
    assert stream.getvalue().splitlines() == [
        "progress: 20/100 cells (20%): 15 pass, 5 error; 2.0 cells/s; about 40s left",
        "progress: 20/100 cells (20%): 15 pass, 5 error; 1.0 cells/s; about 1m20s left",
        "progress: 100/100 cells (100%): 90 pass, 10 error; 4.0 cells/s; done in 25s",
    ]


def test_without_a_total_there_is_no_time_left():
    clock, stream = FakeClock(), io.StringIO()
    lines = ProgressLines(stream, interval_s=1, clock=clock, unit="examples", label="hunt a->b")
    clock.now = 4
    lines.update(2, None, {"pass": 1, "known finding": 1})
    assert stream.getvalue() == "hunt a->b: 2 examples: 1 known finding, 1 pass; 0.5 examples/s\n"


def test_reporting_on_a_stream_that_is_no_terminal_ticks_by_itself():
    stream = io.StringIO()
    with reporting(interval_s=0.05, stream=stream) as on_progress:
        on_progress(1, 3, {"pass": 1})
        time.sleep(0.3)
    printed = stream.getvalue().splitlines()
    assert len(printed) >= 3  # ticks while nothing changes, then the last line
    assert all(line.startswith("progress: 1/3 cells (33%): 1 pass; ") for line in printed)


def test_disabled_progress_has_no_callback():
    with reporting(enabled=False) as on_progress:
        assert on_progress is None


@pytest.mark.spark
def test_conformance_run_prints_progress_lines_without_a_terminal(tmp_path):
    done = conformance("run", "--cases", "physical/int32-required", "--engines", "reference",
                       "--no-bad-files", "--progress-interval", "0.2",
                       "--workdir", str(tmp_path / "work"), "--report", str(tmp_path / "report"))
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("progress: ")]
    assert lines, done.stderr
    # 1 write, the reference's read and the validator's check.
    assert re.fullmatch(r"progress: 3/3 cells \(100%\): 3 pass; [\d.]+ cells/s; done in (\d+m)?\d+s",
                        lines[-1])
    # Where the cells' time went: the reference wrote once and read once, the validator checked.
    cell_time = next(line for line in done.stdout.splitlines() if line.startswith("cell time: "))
    assert re.fullmatch(r"cell time: [\d.]+ s in all; (reference [\d.]+ s \(2 cells\); "
                        r"validator [\d.]+ s \(1 cell\)|validator [\d.]+ s \(1 cell\); "
                        r"reference [\d.]+ s \(2 cells\))", cell_time), cell_time
