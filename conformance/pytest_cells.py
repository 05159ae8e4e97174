"""The tests the pytest plugin makes of one engine (conformance/pytest_plugin.py,
docs/pytest-plugin.md): its cells, run as `conformance run` runs them."""

from __future__ import annotations

import fnmatch
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conformance.cases import Case, all_cases, case_by_id, select
from conformance.engines import formats_of
from conformance.formats import validated_formats
from conformance.golden import rejection
from conformance.golden.paths import default_corpus
from conformance.golden.verify import WRITER_PREFIX, check_corpus, plan_golden
from conformance.report.expectations import FAILED, Expectations, read_expectations, write_expectations
from conformance.report.outcomes import FLAKY

from .matrix.cell_runner import CellLimits, run_in_driver
from .matrix.cells import (
    EngineInfo,
    engine_info,
    new_run_id,
    read_request,
    validator_info,
    write_request,
)
from .matrix.isolation import IsolatedRunner

PASSING = "pass"
SKIPPING = ("skipped", "unsupported")
KNOWN = (*FAILED, FLAKY)  # recorded outcomes that make a cell an expected failure


def engine_tests(session: pytest.Session, spec: str, case_globs: Sequence[str], corpus: str | None,
                 timeout_s: float, expect: str | None, record: str | None) -> list[pytest.Item]:
    """A test per cell of engine `spec`: its writes, its reads of the golden corpus and of
    the bad files, narrowed by `case_globs`; reported as collected like any test module's.
    `expect`: an expectations file whose recorded failures are expected failures; `record`:
    where the session's outcomes are written as one (docs/expectations.md)."""
    known = read_expectations(Path(expect)) if expect else None
    suite = _Suite.for_engine(spec, case_globs, Path(corpus) if corpus else default_corpus(),
                              CellLimits(timeout_s=timeout_s), known)
    session.config.add_cleanup(suite.isolated.close)
    if record:
        session.config.add_cleanup(lambda: suite.record(Path(record)))
    name = f"conformance[{suite.engines[0].name}]"
    node = EngineSuite.from_parent(session, name=name, nodeid=name, path=session.path,
                                   suite=suite)
    items = node.collect()
    collected: list[pytest.Item | pytest.Collector] = list(items)
    session.config.hook.pytest_collectreport(
        report=pytest.CollectReport(node.nodeid, "passed", None, collected))
    return items


class EngineSuite(pytest.Collector):
    """The engine's tests, one node above them (`conformance[<engine name>]`)."""

    def __init__(self, *, suite: _Suite, **kwargs):
        super().__init__(**kwargs)
        self.suite = suite

    def collect(self) -> list[pytest.Item]:
        return [CellItem.from_parent(self, name=name, suite=self.suite, request=request)
                for name, request in self.suite.tests()]


@dataclass
class _Suite:
    """The engine's tests and what runs their cells."""

    engines: list[EngineInfo]  # one adapter per format the engine handles
    case_globs: Sequence[str]
    corpus: Path
    limits: CellLimits
    run_id: str
    workdir: Path
    isolated: IsolatedRunner
    expectations: Expectations | None
    checkers: dict[str, list[tuple[EngineInfo, str]]]  # per format: (checker, read mode) of a written file
    records: list[dict] = field(default_factory=list)  # every cell run, in order

    @classmethod
    def for_engine(cls, spec: str, case_globs: Sequence[str], corpus: Path,
                   limits: CellLimits, expectations: Expectations | None) -> _Suite:
        formats = formats_of(spec)
        engines = [engine_info(spec, fmt) for fmt in formats]
        workdir = Path(tempfile.mkdtemp(prefix="conformance-pytest-"))
        return cls(engines, tuple(case_globs), corpus, limits, new_run_id(), workdir,
                   IsolatedRunner(workdir, limits.timeout_s, limits.memory_limit_mb), expectations,
                   {fmt: _checkers(fmt) for fmt in formats})

    def tests(self) -> Iterator[tuple[str, dict]]:
        """(test name, its cell's request) of every test."""
        formats = {e.format: e for e in self.engines}
        for case in select(all_cases(), self.case_globs):
            if case.format in formats:
                yield f"write[{case.id}]", write_request(self.run_id, case, formats[case.format])
        documents = check_corpus(self.corpus.resolve(), self._selects)
        for request in plan_golden(self.run_id, documents, self.engines):
            yield f"golden[{request['writer'].removeprefix(WRITER_PREFIX)}/{request['case_id']}]", request
        entries = rejection.selected_bad_files(self.case_globs)
        if entries:
            for request in rejection.plan_rejects(self.run_id, self.workdir, self.engines, entries):
                yield f"bad[{request['bad_file']}]", request

    def _selects(self, case_id: str) -> bool:
        return not self.case_globs or any(fnmatch.fnmatchcase(case_id, g) for g in self.case_globs)

    def run(self, request: dict) -> dict:
        """One cell, as `conformance run` runs it: in the driver for an engine that must be
        (Spark), else in the suite's one supervised worker."""
        if request["engine"] in {e.spec for e in self.engines if not e.isolated}:
            record = run_in_driver(request, self.workdir, self.limits.timeout_s)
        else:
            record = self.isolated.run(request)
        self.records.append(record)
        return record

    def known_failures(self, requests: Sequence[dict]) -> dict[str, str]:
        """Cell id -> recorded outcome, for the cells of `requests` the expectations file
        records as failing (or flaky)."""
        recorded = self.expectations.outcomes if self.expectations else {}
        return {r["cell_id"]: recorded[r["cell_id"]] for r in requests
                if recorded.get(r["cell_id"]) in KNOWN}

    def record(self, path: Path) -> None:
        if self.records:
            write_expectations(path, self.records, f"pytest run {self.run_id}")

    def checks_of(self, written: dict, case: Case) -> list[dict]:
        """The reference's read of a file the engine wrote, and the validator's check."""
        return [read_request(self.run_id, case, written, checker, mode)
                for checker, mode in self.checkers[case.format]]


def _checkers(fmt: str) -> list[tuple[EngineInfo, str]]:
    """The reference's full read of a file the engine wrote, then the validator's check
    where `fmt` has one."""
    validator = [(validator_info(), "validate")] if fmt in validated_formats() else []
    return [(engine_info(rejection.REFERENCE, fmt), "full"), *validator]


class CellFailed(Exception):
    """A cell that neither passed nor was skipped: its outcome and evidence."""

    def __init__(self, record: dict):
        super().__init__(f"{record['cell_id']}: {record['outcome']}\n{record['detail']}")
        self.record = record


class KnownFailure(CellFailed):
    """A cell that failed as the expectations file records (an expected failure)."""


class CellItem(pytest.Item):
    """One test: a cell, and for a write the reference's checks of the written file."""

    def __init__(self, *, suite: _Suite, request: dict, **kwargs):
        super().__init__(**kwargs)
        self.suite, self.request = suite, request
        self.add_marker(pytest.mark.conformance)
        planned = {**request, "outcome": PASSING, "file_sha256": None}  # the checks' cell ids
        self.known = suite.known_failures([request, *self._checks(planned)]) if suite.expectations else {}
        if self.known:
            # A known failure that now passes is an XPASS: reported, not failed.
            recorded = ", ".join(f"{cell} {outcome}" for cell, outcome in self.known.items())
            self.add_marker(pytest.mark.xfail(reason=f"recorded: {recorded}", raises=KnownFailure,
                                              strict=False))

    def _checks(self, written: dict) -> list[dict]:
        if self.request["phase"] != "write":
            return []
        return self.suite.checks_of(written, case_by_id(self.request["case_id"]))

    def runtest(self) -> None:
        record = self._judged(self.suite.run(self.request))
        for check in self._checks(record):
            self._judged(self.suite.run(check))

    def _judged(self, record: dict) -> dict:
        if record["outcome"] in SKIPPING:
            pytest.skip(f"{record['outcome']}: {record['detail']}")
        if record["outcome"] == self.known.get(record["cell_id"]):
            raise KnownFailure(record)
        if record["outcome"] != PASSING:
            raise CellFailed(record)
        return record

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CellFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"conformance {self.name}"


