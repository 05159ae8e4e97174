"""`conformance protocol-check 'COMMAND'`: what an adapter gets wrong, told to its author.

It starts the adapter and checks every answer against its schema, then, for each
format the adapter declares, takes a handful of catalogue cases its capabilities
claim and checks both directions against the reference implementation: the
adapter writes, the reference reads; the reference writes, the adapter reads (each
compared with the case's expected values). It then hands the adapter a bad file
(a reference file cut short), which must be answered with an error, and stops it.

Every check is one line: ``ok`` or ``FAIL`` with the step, and what is wrong (the
message, the field, expected vs got). An ``unsupported`` answer is no failure.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from conformance.cases import Case, all_cases
from conformance.engines import Unsupported, get_engine
from conformance.engines.base import EngineCrashed, EngineHung
from conformance.formats import file_format
from conformance.values import Table, diff_tables

from .external import STOP_GRACE_S, AdapterError, AdapterProcess, ExternalEngine, command_spec
from .messages import ProtocolError, stop_request

CASES_PER_FORMAT = 5
DEFAULT_TIMEOUT_S = 30.0
CHECKED_NAME = "checked"  # the adapter's engine name in this check
REFERENCE = "reference"


@dataclass
class CheckReport:
    lines: list[str] = field(default_factory=list)
    failures: int = 0

    def ok(self, step: str, text: str = "") -> None:
        self.lines.append(f"ok    {step}" + (f": {text}" if text else ""))

    def fail(self, step: str, text: str) -> None:
        self.failures += 1
        self.lines.append(f"FAIL  {step}: {text}")

    def skip(self, step: str, reason: str) -> None:
        self.lines.append(f"skip  {step}: {reason}")

    def summary(self) -> str:
        checks = sum(1 for line in self.lines if not line.startswith("skip"))
        verdict = "all passed" if not self.failures else f"{self.failures} failed"
        return f"{checks} checks, {verdict}"


def protocol_check(command: str, cases_per_format: int = CASES_PER_FORMAT,
                   timeout_s: float = DEFAULT_TIMEOUT_S) -> CheckReport:
    report = CheckReport()
    adapter = AdapterProcess(command, timeout_s)
    try:
        started = _step(report, "start", adapter.start)
        if started is None:
            return report
        report.ok("start", f"{started['name']} {started['version']} ({started['language']}), "
                           f"formats {', '.join(started['formats'])}")
        with tempfile.TemporaryDirectory(prefix="protocol-check-") as workdir:
            for fmt in started["formats"]:
                engine = ExternalEngine(command_spec(CHECKED_NAME, command), fmt, adapter)
                _check_format(report, engine, Path(workdir), cases_per_format)
        _check_stop(report, adapter)
    finally:
        adapter.kill()
    return report


def _step(report: CheckReport, step: str, call: Callable[[], object]):
    """`call()`'s result; None, with the failure reported, when it breaks the protocol or
    raises an error the adapter answered."""
    try:
        return call()
    except (ProtocolError, EngineCrashed, EngineHung) as exc:
        report.fail(step, str(exc))
    except AdapterError as exc:
        report.fail(step, f"the adapter answered with an error: {type(exc).__name__}: {exc}")
    return None


def checked_cases(engine: ExternalEngine, count: int) -> list[Case]:
    """Up to `count` cases of the engine's format that it claims to write and read,
    spread over the catalogue (it is sorted by id, so by area)."""
    eligible = [c for c in all_cases() if c.format == engine.format
                and engine.capabilities.write_gap(c.write_features) is None
                and engine.capabilities.read_gap(c.features) is None]
    stride = max(1, len(eligible) // count) if count else 1
    return eligible[::stride][:count]


def _check_format(report: CheckReport, engine: ExternalEngine, workdir: Path, count: int) -> None:
    cases = checked_cases(engine, count)
    if not cases:
        report.skip(engine.format, "the declared capabilities claim no catalogue case")
        return
    reference = get_engine(REFERENCE, engine.format)
    for case in cases:
        _check_write(report, engine, reference, case, workdir)
        reference_file = _file(workdir, REFERENCE, case)
        reference.write(case, reference_file)
        _compare(report, f"read {case.id} (written by the reference)", case.expected,
                 partial(engine.read, reference_file))
    _check_bad_file(report, engine, reference_file)


def _check_write(report: CheckReport, engine: ExternalEngine, reference, case: Case,
                 workdir: Path) -> None:
    path = _file(workdir, CHECKED_NAME, case)
    step = f"write {case.id}"
    try:
        engine.write(case, path)
    except Unsupported as exc:
        report.skip(step, f"unsupported: {exc}")
        return
    except (ProtocolError, EngineCrashed, EngineHung, AdapterError) as exc:
        report.fail(step, _failure(exc))
        return
    if not path.is_file():
        report.fail(step, f"answered ok but wrote no file at {path}")
        return
    _compare(report, f"{step} (read back by the reference)", case.expected,
             partial(reference.read, path))


def _compare(report: CheckReport, step: str, expected: Table, read: Callable[[], Table]) -> None:
    try:
        table = read()
    except Unsupported as exc:
        report.skip(step, f"unsupported: {exc}")
        return
    except Exception as exc:  # noqa: BLE001 - any failure to read is what this check reports
        report.fail(step, _failure(exc))
        return
    diff = diff_tables(expected, table)
    if diff is None:
        report.ok(step)
    else:
        report.fail(step, f"the values differ from the case's (expected vs got):\n{diff}")


def _check_bad_file(report: CheckReport, engine: ExternalEngine, good_file: Path) -> None:
    """A file cut in half must be answered with an error, the adapter staying alive."""
    bad = good_file.with_name("truncated" + good_file.suffix)
    data = good_file.read_bytes()
    bad.write_bytes(data[: len(data) // 2])
    step = f"read a bad {engine.format} file (truncated to {len(data) // 2} of {len(data)} bytes)"
    try:
        engine.read(bad)
    except AdapterError as exc:
        report.ok(step, f"rejected: {type(exc).__name__}: {exc}")
        return
    except Exception as exc:  # noqa: BLE001 - a protocol break, or unsupported
        report.fail(step, f"expected an error answer; got {_failure(exc)}")
        return
    report.fail(step, "expected an error answer; got a document")


def _check_stop(report: CheckReport, adapter: AdapterProcess) -> None:
    if _step(report, "stop", lambda: adapter.call(stop_request())) is None:
        return
    if adapter.exited():
        report.ok("stop", "answered and exited")
    else:
        report.fail("stop", f"answered but still runs {STOP_GRACE_S:g} s later; it must exit")


def _failure(exc: BaseException) -> str:
    if isinstance(exc, ProtocolError | EngineCrashed | EngineHung):
        return f"protocol: {exc}"
    if isinstance(exc, Unsupported):
        return f"unsupported: {exc}"
    return f"error: {type(exc).__name__}: {exc}"


def _file(workdir: Path, writer: str, case: Case) -> Path:
    path = workdir / writer / (case.id.replace("/", "__") + file_format(case.format).suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def report_lines(report: CheckReport) -> Iterator[str]:
    yield from report.lines
    yield report.summary()
