"""One writer x reader pair hunted with generated cases (issue 6 items 4 and 5).

Each example runs as the matrix runs a catalogue case: a write cell, then a read
cell, each request carrying the example's definition (`cells.with_definition`),
in an isolated worker for engines the matrix isolates (a hang is a `timeout`
cell, a crash a `crash` cell, and the hunt goes on) and in this process for the
others (Spark), with the same time limit, memory cap, outcomes and evidence as a
run. A protocol adapter (`conformance.engines.bundled`, ``cmd:NAME=COMMAND``) is
such an isolated engine: its process runs inside the worker, dies with it, and an
error it reports carries its stderr as evidence. Both cells go
to the results dataset when a results directory is configured, so `conformance
report <dir>` shows property results as it shows the matrix.

An example an engine declares it cannot handle is rejected (Hypothesis draws
another; the count is kept), and so is a failing example the reference cannot write
and read back itself: it is no valid file (a strategy drew a value the specification
forbids), the reference's own pair fails on it, and it is no engine's finding. Any
other failing cell (mismatch, error, crash, timeout) is a finding:

* known (a finding of the same writer, reader, outcome and evidence signature
  is saved under ``golden_files/regressions/``: `regressions.signature`):
  counted, and the example passes;
* new, in a hunt that shrinks (``shrink=True``): the test raises, one exception
  class per kind of failure, so Hypothesis shrinks each kind separately and
  replays each minimal example last; the hunt keeps the last failing example per
  kind, and `save_new_findings` saves them;
* new, in a hunt that does not shrink (the ``ci`` profile): the hunt keeps the
  first failing example per kind and goes on drawing, so one engine bug does not
  end the pair's examples.

Progress goes to stderr as in a run without a terminal (`conformance.matrix.progress`):
a line of the examples and their counts every interval, and a last one at `close`.

A hunt is of one file format (``fmt``: the pair's adapters for it, and only that
format's saved findings are known). `pair_params`, `open_hunt`, `end_hunt` and
`hunt_examples` are a cross-engine test module's pieces: its pairs (by default the
reference with every engine of the format both ways; ``all``, every writer x reader
pair), its fixture's set-up (skipped, with the reason, when an adapter cannot be
prepared here or the writer writes nothing) and tear-down under the profile's
policy, and its fail policy.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import hypothesis
import pytest
from hypothesis import reject, settings

from conformance.cases import Case
from conformance.engines import (
    BUNDLED,
    DEFAULT_ENGINES,
    DEFAULT_FORMAT,
    available_engines,
    formats_of,
    get_engine,
)
from conformance.engines.base import COMMAND_PREFIX
from conformance.golden.paths import default_corpus
from conformance.golden.regressions import (
    Finding,
    regression_id,
    save_regression,
    saved_kinds,
    signature,
)
from conformance.matrix.cell_runner import run_in_driver
from conformance.matrix.cells import (
    EngineInfo,
    engine_info,
    new_run_id,
    read_request,
    with_definition,
    write_request,
)
from conformance.matrix.isolation import DEFAULT_TIMEOUT_S, IsolatedRunner
from conformance.matrix.progress import ProgressLines, default_interval_s
from conformance.matrix.results import CellLog

PAIRS_ENV = "CONFORMANCE_PROPERTY_PAIRS"  # "all", or e.g. "reference:pyarrow,pyarrow:reference"
ORC_PAIRS_ENV = "CONFORMANCE_PROPERTY_ORC_PAIRS"  # the same, for the ORC hunts
RESULTS_ENV = "CONFORMANCE_PROPERTY_RESULTS"  # a run directory for cells/*.jsonl and files/
FAILING = ("mismatch", "error", "crash", "timeout")
WRITE_FINDING_READER = ""  # a write cell's finding concerns the writer alone
REFERENCE = "reference"
SELF_CHECK = (REFERENCE, REFERENCE)


class NewWriteFailure(AssertionError):
    """The writer failed on an example no saved regression holds."""


class NewReadFailure(AssertionError):
    """The reader raised on an example no saved regression holds."""


class NewMismatch(AssertionError):
    """The reader returned other values than the example's, and it is not saved yet."""


class NewReadCrashOrHang(AssertionError):
    """The reader's process died or hung on an example no saved regression holds."""


NEW_FINDINGS = (NewWriteFailure, NewReadFailure, NewMismatch, NewReadCrashOrHang)
_READ_FAILURES = {"mismatch": NewMismatch, "error": NewReadFailure,
                  "crash": NewReadCrashOrHang, "timeout": NewReadCrashOrHang}


def is_protocol_adapter(spec: str) -> bool:
    """Whether engine `spec` runs behind the engine protocol, in a process of its own."""
    return spec in BUNDLED or spec.startswith(COMMAND_PREFIX)


def only_findings(raised: BaseException) -> bool:
    """Whether Hypothesis raised nothing but new findings (one, or a group of them)."""
    if isinstance(raised, BaseExceptionGroup):
        return all(only_findings(e) for e in raised.exceptions)
    return isinstance(raised, NEW_FINDINGS)


@dataclass(frozen=True)
class Failure:
    case: Case
    record: dict  # the failing cell's result record
    file: bytes | None  # what the writer wrote

    def finding(self, found_by: str) -> Finding:
        r = self.record
        read = r["phase"] == "read"
        return Finding(r["writer"], r["writer_version"],
                       r["reader"] if read else WRITE_FINDING_READER,
                       r["reader_version"] if read else WRITE_FINDING_READER,
                       r["outcome"], r["detail"], datetime.now(UTC).isoformat(timespec="seconds"),
                       found_by)


def finding_kind(record: dict) -> tuple[str, str, str, str]:
    """`Finding.kind` of a failing cell."""
    reader = record["reader"] if record["phase"] == "read" else WRITE_FINDING_READER
    return record["writer"], reader, record["outcome"], signature(record["detail"])


def _exception_class(record: dict) -> type[AssertionError]:
    return NewWriteFailure if record["phase"] == "write" else _READ_FAILURES[record["outcome"]]


class Hunt:
    """The state of one pair's property test of one file format: counts, logged cells,
    failures."""

    def __init__(self, writer: str, reader: str, workdir: Path, corpus: Path,
                 results: Path | None = None, save_to: Path | None = None,
                 shrink: bool = True, cell_timeout_s: float = DEFAULT_TIMEOUT_S,
                 fmt: str = DEFAULT_FORMAT) -> None:
        self.writer, self.reader = get_engine(writer, fmt), get_engine(reader, fmt)
        self.writer_info, self.reader_info = engine_info(writer, fmt), engine_info(reader, fmt)
        self.fmt = fmt
        self.workdir = results or workdir
        self.corpus = corpus
        self.save_to = save_to or corpus  # where new regressions go
        self.shrink = shrink
        self.run_id = new_run_id()
        self.cell_timeout_s = cell_timeout_s
        self.isolated = IsolatedRunner(self.workdir, cell_timeout_s)
        self.log = (CellLog(results, f"property-{fmt}-{writer}-{reader}-{os.getpid()}")
                    if results else None)
        self.known = saved_kinds(corpus, fmt)
        self.counts: Counter[str] = Counter()
        self.failures: dict[type[AssertionError], Failure] = {}
        self.progress = ProgressLines(sys.stderr, default_interval_s(), unit="examples",
                                      label=f"hunt {fmt} {writer}->{reader}")
        self.progress.start()

    @property
    def protocol_adapter(self) -> bool:
        """Whether the writer or the reader is a protocol adapter (`is_protocol_adapter`)."""
        return is_protocol_adapter(self.writer_info.spec) or is_protocol_adapter(self.reader_info.spec)

    def supports(self, tag: str) -> bool:
        """Whether the writer declares it writes, and the reader that it reads, feature `tag`."""
        return not (self.writer.capabilities.write_gap({tag}) or self.reader.capabilities.read_gap({tag}))

    def check(self, case: Case) -> None:
        """Run one example through the pair; raise for a new finding when shrinking."""
        try:
            self._check(case)
        finally:
            self.progress.update(self.counts.total(), None, self.counts)

    def _check(self, case: Case) -> None:
        if (self.writer.capabilities.write_gap(case.write_features)
                or self.reader.capabilities.read_gap(case.features)):
            self.counts["declared unsupported"] += 1
            reject()
        written, read = self._run(case)
        failing = next((r for r in (written, read) if r["outcome"] in FAILING), None)
        if failing is None:
            self._discard(written)
            if read["outcome"] != "pass":  # unsupported, measured at run time (read skipped
                self.counts["measured unsupported"] += 1  # when the write was)
                reject()
            self.counts["pass"] += 1
            return
        if finding_kind(failing) in self.known:
            self.counts["known finding"] += 1
            return
        failure = Failure(case, failing, self._file(written))
        if not self._reference_round_trips(case, written):
            self.counts["no valid file (the reference's own pair reports it)"] += 1
            reject()
        self.counts["new finding"] += 1
        kind = _exception_class(failing)
        if not self.shrink:
            self.failures.setdefault(kind, failure)
            return
        self.failures[kind] = failure
        raise kind(
            f"{failing['cell_id']}: {failing['outcome']} (new; the shrunk example is saved as "
            f"regressions/{regression_id(case)})\n{failing['detail']}")

    def _run(self, case: Case) -> tuple[dict, dict]:
        written = self._cell(write_request(self.run_id, case, self.writer_info), case, self.writer_info)
        read = self._cell(read_request(self.run_id, case, written, self.reader_info), case,
                          self.reader_info)
        return written, read

    def _reference_round_trips(self, case: Case, written: dict) -> bool:
        """Whether the reference reads back its own file of a failing example (`written`
        when the pair's writer is the reference). One it cannot is no valid file (a
        strategy drew a value the specification forbids): never an engine's finding, and
        the reference's own pair fails on it."""
        if (self.writer_info.spec, self.reader_info.spec) == SELF_CHECK:
            return True
        reference = engine_info(REFERENCE, self.fmt)
        own = self.writer_info.spec != REFERENCE
        if own:
            written = self._cell(write_request(self.run_id, case, reference), case, reference)
        read = self._cell(read_request(self.run_id, case, written, reference), case, reference)
        if own:
            self._discard(written)
        return not {written["outcome"], read["outcome"]} & set(FAILING)

    def _cell(self, request: dict, case: Case, engine: EngineInfo) -> dict:
        request = with_definition(request, case)
        record = (self.isolated.run(request) if engine.isolated
                  else run_in_driver(request, self.workdir, self.cell_timeout_s))
        if self.log is not None:
            self.log.append(record)
        return record

    def _file(self, written: dict) -> bytes | None:
        path = self.workdir / written["file"] if written["file"] else None
        return path.read_bytes() if path is not None and path.is_file() else None

    def _discard(self, written: dict) -> None:
        """A passing example's file is kept only in a results directory (the report's evidence)."""
        if self.log is None and written["file"]:
            (self.workdir / written["file"]).unlink(missing_ok=True)

    def save_new_findings(self, found_by: str) -> list[str]:
        """Save each kind's last (the shrunk) failing example; one line per new regression."""
        saved = []
        for failure in self.failures.values():
            finding = failure.finding(found_by)
            if save_regression(failure.case, finding, failure.file, self.save_to):
                saved.append(f"{failure.record['cell_id']} {finding.outcome}: "
                             f"{finding.detail.splitlines()[0] if finding.detail else ''}")
        return saved

    def close(self) -> None:
        self.isolated.close()
        self.progress.close()
        if self.log is not None:
            self.log.close()


# ---- a cross-engine test module's pieces ---------------------------------------------

EVERY_PAIR = "all"  # the pairs setting's value for every writer x reader pair
SPARK_MARKS = (pytest.mark.spark, pytest.mark.slow)
JVM_LANGUAGE = "java"  # a bundled adapter in this language starts a JVM of its own
Pair = tuple[str, str]


def hunted_engines(fmt: str) -> list[str]:
    """Every engine a run takes by default that has an adapter for `fmt`, the reference
    first: the built-in engines and the protocol adapters (`conformance.engines.bundled`)."""
    return [spec for spec in DEFAULT_ENGINES if fmt in formats_of(spec)]


def default_pairs(fmt: str) -> list[Pair]:
    """The reference with itself, and with every other engine of `fmt` both ways."""
    others = [spec for spec in hunted_engines(fmt) if spec != REFERENCE]
    return [SELF_CHECK, *(pair for spec in others for pair in ((REFERENCE, spec), (spec, REFERENCE)))]


def every_pair(fmt: str) -> list[Pair]:
    """Every writer x reader pair among the engines of `fmt`."""
    engines = hunted_engines(fmt)
    return [(writer, reader) for writer in engines for reader in engines]


def configured_pairs(env: str, fmt: str) -> list[Pair]:
    """``$env``: "all" (`every_pair`) or "writer:reader,..."; unset, `default_pairs`."""
    configured = os.environ.get(env, "").strip()
    if configured == EVERY_PAIR:
        return every_pair(fmt)
    if configured:
        return [_pair(text) for text in configured.split(",")]
    return default_pairs(fmt)


def _pair(text: str) -> Pair:
    writer, colon, reader = text.strip().partition(":")
    if not (colon and writer and reader):
        raise ValueError(f"property pair {text!r}: expected writer:reader, or {EVERY_PAIR!r} alone")
    return writer, reader


def pair_params(env: str, fmt: str = DEFAULT_FORMAT) -> list:
    """`configured_pairs` as pytest params: a pair with Spark is marked ``spark`` and
    ``slow``, one with an adapter that starts a JVM of its own ``jvm``."""
    return [pytest.param(pair, id=f"{pair[0]}->{pair[1]}", marks=_marks(pair))
            for pair in configured_pairs(env, fmt)]


def _marks(pair: Pair) -> list:
    marks = list(SPARK_MARKS) if "spark" in pair else []
    if any(spec in BUNDLED and BUNDLED[spec].language == JVM_LANGUAGE for spec in pair):
        marks.append(pytest.mark.jvm)
    return marks


def skip_unless_runnable(pair: Pair, fmt: str) -> None:
    """Skip the pair, with the reason, when one of its adapters cannot be prepared on this
    machine (as a run goes on without it) or its writer declares it writes nothing (an
    engine that only reads is hunted as a reader only)."""
    _, unavailable = available_engines(dict.fromkeys(pair))
    if unavailable:
        pytest.skip("; ".join(f"{spec} is unavailable here: {why}" for spec, why in unavailable.items()))
    writer = get_engine(pair[0], fmt)
    if not writer.capabilities.writes:
        pytest.skip(f"{writer.name} declares it writes no {fmt} file: it is hunted as a reader only")


def open_hunt(pair: Pair, tmp_path_factory: pytest.TempPathFactory,
              fmt: str = DEFAULT_FORMAT) -> Hunt:
    """A pair's hunt under the current profile's policy (skipped when it cannot run here:
    `skip_unless_runnable`)."""
    skip_unless_runnable(pair, fmt)
    results = os.environ.get(RESULTS_ENV)
    # The ci profile (every pytest run, CI's fresh clones) keeps new regressions in its
    # temp dir, so a run never changes the committed corpus it also tests; other
    # profiles (a local hunt) save them into golden_files/regressions/ to be committed.
    in_ci = settings.get_current_profile_name() == "ci"
    return Hunt(*pair, tmp_path_factory.mktemp("property"), default_corpus(),
                Path(results) if results else None,
                save_to=tmp_path_factory.mktemp("regressions") if in_ci else None,
                shrink=not in_ci, fmt=fmt)


def end_hunt(hunt: Hunt, node_id: str) -> None:
    """Close the hunt, save the shrunk example of each new finding, print the counts."""
    hunt.close()
    pair = f"{hunt.writer_info.spec}->{hunt.reader_info.spec}"
    found_by = (f"hypothesis {hypothesis.__version__}, profile "
                f"{settings.get_current_profile_name()}: {node_id} [{pair}]")
    for line in hunt.save_new_findings(found_by):
        print(f"saved regression in {hunt.save_to}: {line}")
    print(f"{pair}: {dict(hunt.counts)}")


def hunt_examples(hunt: Hunt, examples: Callable[[], None]) -> None:
    """Run the Hypothesis test `examples` under the fail policy: a finding about an
    engine under test is reported; the reference failing its own round trip fails."""
    self_check = (hunt.writer.name, hunt.reader.name) == SELF_CHECK
    try:
        examples()
    except (*NEW_FINDINGS, ExceptionGroup) as found:
        if self_check or not only_findings(found):
            raise
        print(f"new engine finding(s), saved as regressions: {found}")
    assert not (self_check and hunt.failures), \
        "the reference disagrees with itself: " + "; ".join(
            f"{f.record['cell_id']}: {f.record['detail']}" for f in hunt.failures.values())
