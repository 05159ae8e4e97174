"""`conformance protocol-check 'COMMAND'`: what an adapter gets wrong, told to its author.

It starts the adapter and checks every answer against its schema, then, for each
format the adapter declares, exercises each capability it declares on up to N cases
(`--cases-per-format`), spread over the catalogue (it is sorted by id, so by area):

* **write** (its ``writes`` patterns claim the case): the adapter writes the case, the
  reference reads the file back and compares it with the case's expected values;
* **read** (its ``reads`` patterns claim the case): the adapter reads the reference's
  file of the case in the golden corpus (``golden_files/cases/``) and its answer is
  compared with the case's expected values;
* **bad files** (whenever it reads): the adapter reads files of the bad-file corpus
  (``golden_files/bad/``, verdict ``bad``, read without options), which it must answer
  with an error;
* **filtered read**: not in protocol version 1 (docs/engine-protocol.md), never checked.

So a read-only adapter is checked on golden and bad files, a write-only one by the
reference reading what it wrote. A case is *checked* when the adapter answered it
with anything but ``unsupported``.

Each check is one line, of one of three kinds:

* ``FAIL``: a **protocol violation**, the adapter's fault as an adapter: an answer off
  its schema (a wrong shape, a line that is not JSON, a document that is no canonical
  document), ``ok`` without a file, a death or a hang of the request loop, a ``stop``
  not obeyed. Also a declared format with nothing checked, or a declared capability
  that checked nothing (patterns that claim no catalogue case, or ``unsupported``
  answers to every case they claim): a check of nothing must not pass;
* ``find``: a **finding of the implementation**, its own bug, reported faithfully
  through the protocol: other values than the case's, an error answer to a valid file
  or case, a file the reference cannot read, a bad file accepted, a panic;
* ``ok``, and ``skip`` for an ``unsupported`` answer (no check).

The check fails (exit 1) on any ``FAIL``; findings are listed apart and fail it only
with ``--strict``.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from conformance.cases import Case, all_cases
from conformance.engines import Unsupported, get_engine
from conformance.engines.base import EngineCrashed, EngineHung
from conformance.engines.reference import DEFAULT_READ
from conformance.formats import file_format
from conformance.golden.bad_corpus import bad_files
from conformance.golden.bad_file import BAD, BadFile, file_name
from conformance.golden.paths import BAD_DIR, CASES_DIR, EXPECTED, default_corpus
from conformance.matrix.execute import expected_view
from conformance.matrix.failures import PANIC_CLASSES, describe_exception
from conformance.values import Table, diff_tables

from .external import STOP_GRACE_S, AdapterError, AdapterProcess, ExternalEngine, command_spec
from .messages import ProtocolError, stop_request

CASES_PER_FORMAT = 5
DEFAULT_TIMEOUT_S = 30.0
CHECKED_NAME = "checked"  # the adapter's engine name in this check
REFERENCE = "reference"

# The capabilities a format's checks are counted by, in the order they are printed.
WRITE, READ, FILTERED_READ, BAD_FILES = "write", "read", "filtered read", "bad files"
NOT_IN_PROTOCOL = {FILTERED_READ: "not in protocol version 1"}
OK, VIOLATION, FINDING, SKIP = "ok", "FAIL", "find", "skip"


@dataclass
class CheckReport:
    lines: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)
    # (format, capability) -> cases tried, and checked (answered with anything but unsupported)
    tried: Counter[tuple[str, str]] = field(default_factory=Counter)
    checked: Counter[tuple[str, str]] = field(default_factory=Counter)
    formats: list[str] = field(default_factory=list)
    unchecked: int = 0  # FAIL lines for a declared format or capability with nothing checked

    def record(self, verdict: str, step: str, text: str = "",
               counted: tuple[str, str] | None = None) -> None:
        """One check's line; `counted` is the (format, capability) it checks."""
        line = f"{verdict:<5} {step}" + (f": {text}" if text else "")
        self.lines.append(line)
        self.verdicts[verdict] += 1
        if verdict == FINDING:
            self.findings.append(line)
        if counted is not None:
            self.tried[counted] += 1
            self.checked[counted] += verdict != SKIP

    @property
    def violations(self) -> int:
        return self.verdicts[VIOLATION]

    def passed(self, strict: bool = False) -> bool:
        return not self.violations and not (strict and self.findings)

    def counts_line(self, fmt: str) -> str:
        shown = [f"{capability} {NOT_IN_PROTOCOL[capability]}" if capability in NOT_IN_PROTOCOL
                 else f"{capability} {self.checked[fmt, capability]}"
                 for capability in (WRITE, READ, FILTERED_READ, BAD_FILES)]
        return f"checked {fmt}: " + ", ".join(shown)

    def summary(self, strict: bool = False) -> str:
        checks = sum(n for verdict, n in self.verdicts.items() if verdict != SKIP)
        verdict = "passed" if self.passed(strict) else "FAILED"
        unchecked = f", {self.unchecked} declared with nothing checked" if self.unchecked else ""
        return (f"{checks - self.unchecked} checks: {self.verdicts[OK]} ok, "
                f"{self.violations - self.unchecked} protocol violations, "
                f"{len(self.findings)} findings of the implementation{unchecked}; {verdict}")


def protocol_check(command: str, cases_per_format: int = CASES_PER_FORMAT,
                   timeout_s: float = DEFAULT_TIMEOUT_S, corpus: Path | None = None) -> CheckReport:
    """Check the adapter `command` starts; read checks use the golden `corpus`
    (default: the clone's golden_files/)."""
    report = CheckReport()
    adapter = AdapterProcess(command, timeout_s)
    try:
        started = _answered(report, "start", adapter.start)
        if started is None:
            return report
        report.record(OK, "start", f"{started['name']} {started['version']} ({started['language']}), "
                                   f"formats {', '.join(started['formats'])}")
        with tempfile.TemporaryDirectory(prefix="protocol-check-") as workdir:
            for fmt in started["formats"]:
                engine = ExternalEngine(command_spec(CHECKED_NAME, command), fmt, adapter)
                _check_format(report, engine, Path(workdir), cases_per_format, corpus or default_corpus())
        _check_stop(report, adapter)
    finally:
        adapter.close()
    return report


def _answered(report: CheckReport, step: str, call: Callable[[], object]):
    """`call()`'s result; None, with the violation reported, when it breaks the protocol."""
    try:
        return call()
    except (ProtocolError, EngineCrashed, EngineHung) as exc:
        report.record(VIOLATION, step, describe_exception(exc))
    except AdapterError as exc:
        report.record(VIOLATION, step, f"the adapter answered with an error: {type(exc).__name__}: {exc}")
    return None


def spread(items: Sequence, count: int) -> list:
    """Up to `count` of `items`, spread over them."""
    stride = max(1, len(items) // count) if count else 1
    return list(items[::stride][:count])


def claimed_cases(engine: ExternalEngine, capability: str) -> list[Case]:
    """The catalogue cases of the engine's format its capabilities claim to write or read."""
    gap = _gap(engine, capability)
    return [c for c in all_cases() if c.format == engine.format and gap(_tags(c, capability)) is None]


def _gap(engine: ExternalEngine, capability: str) -> Callable[[Sequence[str]], str | None]:
    return engine.capabilities.write_gap if capability == WRITE else engine.capabilities.read_gap


def _tags(case: Case, capability: str) -> tuple[str, ...]:
    """The feature tags a writer (or a reader) of `case` must support."""
    return case.write_features if capability == WRITE else case.features


def _check_format(report: CheckReport, engine: ExternalEngine, workdir: Path, count: int,
                  corpus: Path) -> None:
    report.formats.append(engine.format)
    capabilities = engine.capabilities
    if capabilities.writes:
        for case in spread(claimed_cases(engine, WRITE), count):
            _check_write(report, engine, case, workdir)
    if capabilities.reads:
        for case, path in spread(_golden_files(claimed_cases(engine, READ), corpus), count):
            expected, _ = expected_view(engine, case.features, case.expected, case.options)
            _compare(report, (engine.format, READ), f"read {case.id} (golden, written by the reference)",
                     expected, partial(engine.read, path))
        for entry, path in spread(_bad_files(engine.format, corpus), count):
            _check_bad_file(report, engine, entry, path)
    _check_coverage(report, engine, corpus)


def _golden_files(cases: list[Case], corpus: Path) -> list[tuple[Case, Path]]:
    """(case, the reference's golden file of it) for the cases the corpus holds one of."""
    found = []
    for case in cases:
        expected = corpus / CASES_DIR / case.id / EXPECTED
        if not expected.is_file():
            continue
        files = json.loads(expected.read_text(encoding="utf-8"))["files"]
        found += [(case, expected.parent / f["path"]) for f in files if f["writer"] == REFERENCE]
    return found


def _bad_files(fmt: str, corpus: Path) -> list[tuple[BadFile, Path]]:
    """(entry, its file in the corpus) of the bad files of `fmt` every reader must reject
    as they are, read without options (a peer's read cannot be handed a wrong key or
    asked to verify checksums)."""
    found = [(entry, corpus / BAD_DIR / file_name(entry)) for entry in bad_files()
             if entry.format == fmt and entry.verdict == BAD
             and entry.read_options == DEFAULT_READ and not entry.reference_only]
    return [(entry, path) for entry, path in found if path.is_file()]


def _check_write(report: CheckReport, engine: ExternalEngine, case: Case, workdir: Path) -> None:
    path = _file(workdir, CHECKED_NAME, case)
    step, counted = f"write {case.id}", (engine.format, WRITE)
    try:
        engine.write(case, path)
    except Exception as exc:  # noqa: BLE001 - each kind of failure is judged by _judge
        report.record(*_judge(exc, step), counted=counted)
        return
    if not path.is_file():
        report.record(VIOLATION, step, f"answered ok but wrote no file at {path}", counted)
        return
    reference = get_engine(REFERENCE, engine.format)
    _compare(report, counted, f"{step} (read back by the reference)", case.expected,
             partial(reference.read, path))


def _compare(report: CheckReport, counted: tuple[str, str], step: str, expected: Table,
             read: Callable[[], Table]) -> None:
    try:
        table = read()
    except Exception as exc:  # noqa: BLE001 - each kind of failure is judged by _judge
        report.record(*_judge(exc, step), counted=counted)
        return
    diff = diff_tables(expected, table)
    if diff is None:
        report.record(OK, step, counted=counted)
    else:
        report.record(FINDING, step, f"the values differ from the case's (expected vs got):\n{diff}",
                      counted)


def _judge(exc: BaseException, step: str) -> tuple[str, str, str]:
    """(verdict, step, text) of a check whose call raised `exc`."""
    if isinstance(exc, Unsupported):
        return SKIP, step, f"unsupported: {exc}"
    if isinstance(exc, ProtocolError | EngineCrashed | EngineHung):
        return VIOLATION, step, f"protocol: {describe_exception(exc)}"
    return FINDING, step, f"error: {type(exc).__name__}: {exc}"


def _check_bad_file(report: CheckReport, engine: ExternalEngine, entry: BadFile, path: Path) -> None:
    """A bad file must be answered with an error (not a panic), the adapter staying alive."""
    step, counted = f"read bad file {entry.id}", (engine.format, BAD_FILES)
    try:
        table = engine.read(path)
    except AdapterError as exc:
        if type(exc).__name__ in PANIC_CLASSES:
            report.record(FINDING, step, f"panicked instead of rejecting it: {exc}", counted)
        else:
            report.record(OK, step, f"rejected: {type(exc).__name__}: {exc}", counted)
        return
    except Exception as exc:  # noqa: BLE001 - each kind of failure is judged by _judge
        report.record(*_judge(exc, step), counted=counted)
        return
    report.record(FINDING, step, f"accepted a file that must be rejected ({entry.fault}): "
                                 f"returned {len(table.rows)} rows", counted)


def _check_coverage(report: CheckReport, engine: ExternalEngine, corpus: Path) -> None:
    """A declared format, and each capability it declares, must have checked something."""
    fmt, capabilities = engine.format, engine.capabilities
    declared = {WRITE: capabilities.writes, READ: capabilities.reads,
                BAD_FILES: capabilities.reads}
    for capability, patterns in declared.items():
        if patterns and not report.checked[fmt, capability]:
            report.record(VIOLATION, f"{fmt} {capability}",
                          _nothing_checked(report, engine, capability, patterns, corpus))
            report.unchecked += 1
    if not any(report.checked[fmt, capability] for capability in declared):
        report.record(VIOLATION, fmt, "the adapter declares this format, but nothing of it was "
                                      "checked: a check of nothing cannot pass")
        report.unchecked += 1


def _nothing_checked(report: CheckReport, engine: ExternalEngine, capability: str,
                     patterns: Sequence[str], corpus: Path) -> str:
    """Why a declared capability checked nothing."""
    tried = report.tried[engine.format, capability]
    if tried:
        return f"the adapter answered unsupported to all {tried} tried"
    if capability != WRITE and not (corpus / CASES_DIR).is_dir():
        return f"no golden corpus at {corpus} (give --corpus DIR, or set $CONFORMANCE_GOLDEN_DIR)"
    if capability == BAD_FILES:
        return f"the corpus at {corpus} holds no bad {engine.format} file"
    claimed = len(claimed_cases(engine, capability))
    if claimed:
        return f"none of the {claimed} cases claimed has a golden file in {corpus}"
    return (f"the declared {capability} patterns {list(patterns)} claim no catalogue case: "
            f"the cases carry tags they do not match, of the families "
            f"{_unmatched_families(engine, capability)} (docs/engine-protocol.md, 'Feature tags'; "
            f"`conformance cases --json`)")


def _unmatched_families(engine: ExternalEngine, capability: str) -> str:
    """The tag families (``codec:``) of the format's cases that the capability's patterns
    leave out, each with how many cases carry one, the most common first."""
    gap = _gap(engine, capability)
    counts: Counter[str] = Counter()
    for case in all_cases():
        if case.format == engine.format:
            counts.update({_family(tag) for tag in _tags(case, capability) if gap([tag])})
    return ", ".join(f"{family} ({n} cases)" for family, n in counts.most_common())


def _family(tag: str) -> str:
    """``codec:`` of ``codec:SNAPPY``; a tag without a value (``bloom``) is its own family."""
    name, colon, _value = tag.partition(":")
    return name + colon


def _check_stop(report: CheckReport, adapter: AdapterProcess) -> None:
    if _answered(report, "stop", lambda: adapter.call(stop_request())) is None:
        return
    if adapter.exited():
        report.record(OK, "stop", "answered and exited")
    else:
        report.record(VIOLATION, "stop", f"answered but still runs {STOP_GRACE_S:g} s later; "
                                         "it must exit")


def _file(workdir: Path, writer: str, case: Case) -> Path:
    path = workdir / writer / (case.id.replace("/", "__") + file_format(case.format).suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def report_lines(report: CheckReport, strict: bool = False) -> Iterator[str]:
    yield from report.lines
    yield from map(report.counts_line, report.formats)
    if report.findings:
        yield (f"findings of the implementation (its own bugs, not protocol violations; "
               f"they fail the check only with --strict): {len(report.findings)}")
        yield from (f"  {line.splitlines()[0]}" for line in report.findings)
    yield report.summary(strict)
